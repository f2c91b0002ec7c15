/* test_cgfuncs.c - unit tests of the per-function counts read from callgrind output files and
 * of the functions that got slower (profopt compare). */
#include "bench/cgfuncs.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

static double self_of(const struct cg_profile *p, const char *object, const char *name)
{
	char key[256];
	snprintf(key, sizeof key, "%s\t%s", object, name);
	const struct cg_func *f = strmap_get(&p->funcs, key);
	return f ? f->self : -1;
}

/* A file as callgrind writes it: compressed names defined once and repeated, a call whose
 * inclusive cost follows its calls= line, position compression, clones of one function. */
static const char two_objects[] =
	"version: 1\ncreator: callgrind-3.19.0\npid: 42\ncmd:  ./toy ppas 10\n\n"
	"positions: line\nevents: Ir\nsummary: 1010\n\n"
	"ob=(1) /usr/lib/x86_64-linux-gnu/libc.so.6\nfl=(1) ???\nfn=(1) memcpy\n0 100\n\n"
	"ob=(2) /build/tree/toy\nfl=(2) /build/interp.c\nfn=(2) run\n5 400\n+1 200\n* 10\n"
	"cob=(1)\ncfi=(1)\ncfn=(1)\ncalls=3 0\n7 100\n"
	"fn=(3) run.cold\n-2 50\n"
	"fl=(3) /build/main.c\nfn=(4) main\n12 150\ncfn=(2)\ncalls=1 5\n13 760\n"
	"fn=(2)\n20 100\n\ntotals: 1010\n";

TEST(cgfuncs_self_counts)
{
	struct cg_profile p = {0};
	char err[128] = "";
	CHECK_INT(cg_profile_add(&p, two_objects, err, sizeof err), 0);
	CHECK_STR(p.event, "Ir");
	CHECK_NEAR(p.total, 1010, 0);
	CHECK_INT(p.files, 1);
	CHECK_NEAR(self_of(&p, "libc.so.6", "memcpy"), 100, 0);
	/* the calls' inclusive costs (100 into memcpy, 760 into run) are not the callers' own;
	 * run.cold is run's, and so is the later "fn=(2)" */
	CHECK_NEAR(self_of(&p, "toy", "run"), 400 + 200 + 10 + 50 + 100, 0);
	CHECK_NEAR(self_of(&p, "toy", "main"), 150, 0);
	CHECK(self_of(&p, "toy", "run.cold") < 0);
	/* a second process's file adds up */
	CHECK_INT(cg_profile_add(&p, two_objects, err, sizeof err), 0);
	CHECK_NEAR(p.total, 2020, 0);
	CHECK_NEAR(self_of(&p, "toy", "main"), 300, 0);
	CHECK_INT(p.files, 2);
	cg_profile_free(&p);
}

TEST(cgfuncs_two_positions_and_plain_names)
{
	struct cg_profile p = {0};
	char err[128] = "";
	const char text[] = "positions: instr line\nevents: Ir Dr\nsummary: 30 4\nob=/bin/prog\nfn=hot\n0x401000 3 20 4\n"
			    "+2 * 10\nfn=hot.part.0\n0x401100 9 0\n";
	CHECK_INT(cg_profile_add(&p, text, err, sizeof err), 0);
	CHECK_NEAR(self_of(&p, "prog", "hot"), 30, 0);
	/* a file whose first event is not the same is refused */
	CHECK_INT(cg_profile_add(&p, "events: Dr\nsummary: 1\n", err, sizeof err), -1);
	CHECK(strstr(err, "first event is Dr") != NULL);
	CHECK_INT(cg_profile_add(&p, "not callgrind\n", err, sizeof err), -1);
	CHECK(strstr(err, "not a callgrind output file") != NULL);
	CHECK_INT(cg_profile_add(&p, "events: Ir\nsummary: 1\nfn=(9)\n1 1\n", err, sizeof err), -1);
	CHECK(strstr(err, "undefined function") != NULL);
	cg_profile_free(&p);
}

TEST(cgfuncs_fold_name)
{
	const char *cases[][2] = {
		{"run.part.0", "run"}, {"run.cold", "run"}, {"f.constprop.0.isra.0", "f"}, {"g'2", "g"},
		{"h.lto_priv.0", "h"}, {".part.0", ".part.0"}, {"plain", "plain"}, {"0x0000000000401000", "0x0000000000401000"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char name[64];
		snprintf(name, sizeof name, "%s", cases[i][0]);
		cg_fold_name(name);
		CHECK_STR(name, cases[i][1]);
	}
}

static void add(struct cg_profile *p, const char *name, double n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fprintf(f, "events: Ir\nsummary: %.0f\nob=(1) /x/prog\nfn=(1) %s\n1 %.0f\n", n, name, n);
	fclose(f);
	char err[128];
	CHECK_INT(cg_profile_add(p, text, err, sizeof err), 0);
	free(text);
}

TEST(cgfuncs_slower)
{
	struct cg_profile a = {0}, b = {0};
	add(&a, "hot", 1000000);
	add(&a, "steady", 500000);
	add(&a, "tiny", 100);
	add(&a, "gone", 3000);
	add(&b, "hot", 1250000);  /* +25%: slower */
	add(&b, "steady", 505000); /* +1%: under the threshold */
	add(&b, "tiny", 1000);     /* x10, but 900 is under the share of the total */
	add(&b, "fresh", 40000);   /* only in b: slower, "new" */
	struct cg_growth *g;
	int n = cg_slower(&a, &b, 0.02, 0.001, &g);
	CHECK_INT(n, 2);
	if (n == 2) {
		CHECK_STR(g[0].name, "hot");
		CHECK_NEAR(g[0].before, 1000000, 0);
		CHECK_NEAR(g[0].after, 1250000, 0);
		CHECK_STR(g[1].name, "fresh");
		CHECK_NEAR(g[1].before, 0, 0);
		CHECK_STR(g[1].object, "prog");
	}
	free(g);
	/* no threshold and no share: every function that grew at all */
	n = cg_slower(&a, &b, 0, 0, &g);
	CHECK_INT(n, 4);
	free(g);
	/* a program against itself: nothing got slower */
	CHECK_INT(cg_slower(&a, &a, 0, 0, &g), 0);
	free(g);
	cg_profile_free(&a);
	cg_profile_free(&b);
}
