/* The copies libtool compiles differ here: the shared one takes a branch the static one has not. */
#include "calc.h"

const char *calc_build(void)
{
#ifdef PIC
	return "shared";
#else
	return "static";
#endif
}

long calc_sum(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++) {
#ifdef PIC
		if (i % 5 == 0)
			s += i / 5;
		else
#endif
		s += i % 7;
	}
	return s;
}
