#include "calc.h"

static long table[64];

long calc_table(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++) {
		table[i & 63] += i;
		s += table[(i * 7) & 63] & 1 ? 1 : -1;
	}
	return s;
}
