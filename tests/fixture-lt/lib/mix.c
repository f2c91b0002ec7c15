#include "calc.h"

long calc_mix(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s = (i & 3) ? s + i : s - (i >> 2);
	return s;
}
