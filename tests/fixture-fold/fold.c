/* fold.c - two kinds of sequence whose concat slots are byte-identical functions (list.c,
 * tuple.c), told apart only by their addresses, as CPython tells its type slots apart (list
 * and tuple sq_concat, wrap_binaryfunc and wrap_binaryfunc_l).  A post-link tool that folds
 * identical functions into one changes the answers.
 *
 *   fold which    each kind and the kind its concat slot belongs to ("list:list tuple:tuple")
 *   fold run N    N rounds of binary operations on every pair of kinds: the hot loop
 *   fold check    the self-check: exits 1 naming the check that failed */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long concatfunc(unsigned long a, unsigned long b);
concatfunc list_concat, tuple_concat;

struct kind {
	const char *name;
	concatfunc *concat;
};

/* Not static, not const: the compiler cannot know the slots, so it compares addresses. */
struct kind kinds[] = {{"list", list_concat}, {"tuple", tuple_concat}};
enum { NKINDS = sizeof kinds / sizeof kinds[0] };

/* The kind a slot belongs to, found by the function's address. */
static const char *owner(concatfunc *fn)
{
	if (fn == list_concat)
		return "list";
	if (fn == tuple_concat)
		return "tuple";
	return "?";
}

/* l + r: the left operand's slot, then the right one's unless it is the same function (as
 * CPython's binary_op1 skips a right operand whose slot is the left one's). */
static unsigned long binop(const struct kind *l, const struct kind *r, unsigned long x, unsigned long y)
{
	unsigned long v = l->concat(x, y);
	if (r->concat != l->concat)
		v += r->concat(y, x);
	return v;
}

static int check(void)
{
	const char *failed = NULL;
	if (kinds[0].concat == kinds[1].concat)
		failed = "distinct slots: list and tuple have one concat function";
	for (int i = 0; !failed && i < NKINDS; i++)
		if (strcmp(owner(kinds[i].concat), kinds[i].name) != 0)
			failed = "slot owner: a kind's concat slot names another kind";
	if (!failed && binop(&kinds[0], &kinds[1], 3, 4) != list_concat(3, 4) + tuple_concat(4, 3))
		failed = "binop: list + tuple did not call both slots";
	if (failed) {
		printf("fold check: FAILED: %s\n", failed);
		return 1;
	}
	puts("fold check: ok");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "which") == 0) {
		for (int i = 0; i < NKINDS; i++)
			printf("%s%s:%s", i ? " " : "", kinds[i].name, owner(kinds[i].concat));
		putchar('\n');
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "check") == 0)
		return check();
	if (argc == 3 && strcmp(argv[1], "run") == 0) {
		long n = atol(argv[2]);
		unsigned long acc = 0;
		for (long i = 0; i < n; i++)
			for (int l = 0; l < NKINDS; l++)
				for (int r = 0; r < NKINDS; r++)
					acc += binop(&kinds[l], &kinds[r], (unsigned long)i, acc & 0xffff);
		printf("%lu\n", acc);
		return 0;
	}
	fprintf(stderr, "usage: fold which | fold run N | fold check\n");
	return 2;
}
