/* calcstat N: the table's statistics; a main of its own. */
#include <stdio.h>
#include <stdlib.h>
#include "calc.h"

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10;
	long s = 0;
	for (int k = 0; k < 3; k++)
		s += k % 2 ? calc_table(n) : -calc_table(n / 2);
	printf("%ld\n", s);
	return 0;
}
