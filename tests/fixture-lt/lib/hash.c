#include "calc.h"

unsigned long calc_hash(const char *s, long n)
{
	unsigned long h = 5381;
	for (long i = 0; i < n; i++)
		for (const char *p = s; *p; p++)
			h = h * 33 + (unsigned char)*p + (unsigned long)i;
	return h;
}
