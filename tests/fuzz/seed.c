/* seed.c - the program whose profiles make the seed corpus (see make-corpus.sh):
 * one hot function, one never called, a loop and a branch. */
#include <stdio.h>

static int __attribute__((noinline)) hot(int x)
{
	return x % 3 ? x * 3 + 1 : x / 2;
}

int __attribute__((noinline)) never(int x)
{
	if (x > 5)
		return x - 1;
	return x + 2;
}

int main(int argc, char **argv)
{
	long s = 0;
	(void)argv;
	for (int i = 0; i < 1000; i++)
		s += hot(i);
	if (argc > 5)
		s += never(argc);
	printf("%ld\n", s);
	return 0;
}
