/* main.c - gotoy PROGRAM N: runs PROGRAM (opcodes 0-9 a-n, each a handler) N times; "gotoy
 * version" proves the build starts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "eval.h"

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "version") == 0) {
		puts("gotoy 1.0");
		return 0;
	}
	if (argc != 3 || strspn(argv[1], "0123456789abcdefghijklmn") != strlen(argv[1])) {
		fprintf(stderr, "usage: gotoy PROGRAM N (opcodes 0-9, a-n) | gotoy version\n");
		return 2;
	}
	size_t n = strlen(argv[1]);
	unsigned char *code = malloc(n + 1);
	if (!code)
		return 1;
	for (size_t i = 0; i < n; i++)
		code[i] = (unsigned char)(argv[1][i] <= '9' ? argv[1][i] - '0' : argv[1][i] - 'a' + 10);
	code[n] = 24; /* done */
	long sp[4] = {1, 2, 3, 4}, total = 0;
	for (long i = atol(argv[2]); i > 0; i--) {
		sp[0] = i;
		total += eval(code, sp);
	}
	printf("%ld\n", total);
	free(code);
	return 0;
}
