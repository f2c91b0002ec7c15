/* calc WHAT N [PLUGIN]: runs a library function N times, then the plug-in's when given. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "calc.h"

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "version") == 0) {
		printf("calc 1.0 (%s)\n", calc_build());
		return 0;
	}
	if (argc < 3)
		return 2;
	long n = atol(argv[2]);
	long r = strcmp(argv[1], "sum") == 0 ? calc_sum(n) : calc_mix(n);
	r += (long)(calc_hash("calc", n / 100) & 0xff);
	if (argc == 4) {
		void *h = dlopen(argv[3], RTLD_NOW);
		long (*run)(long) = h ? (long (*)(long))dlsym(h, "plug_run") : NULL;
		if (!run) {
			fprintf(stderr, "calc: %s\n", dlerror());
			return 1;
		}
		r += run(n);
	}
	printf("%ld\n", r);
	return 0;
}
