/* test_options.c - lib/options: a table drives parsing, errors and --help. */
#include "unit.h"
#include "lib/options.h"

#include <stdlib.h>

struct toy {
	const char *dir;
	int verbose;
	long long jobs;
	double every;
	struct option_list skip;
};

static const struct option_spec toy_options[] = {
	OPT_STRING("work-dir", 'C', struct toy, dir, "DIR", "run in DIR"),
	OPT_FLAG("verbose", 0, struct toy, verbose, "say more"),
	OPT_INT("jobs", 'j', struct toy, jobs, "N", 1, 64, "at most N at a time"),
	OPT_SECONDS("every", 0, struct toy, every, "a line every SECONDS"),
	OPT_LIST("skip", 0, struct toy, skip, "NAME", "directories not entered (repeatable)"),
	OPT_END,
};

static const struct command_options toy = {"toy", "[OPTIONS] FILE...", "Plays.\n", toy_options, NULL, 0};

TEST(options_parse_fills_the_struct_and_returns_the_operands)
{
	char *argv[] = {"toy", "a", "--work-dir=w", "-j", "3", "--skip=x", "--verbose", "--skip", "y",
			"--every=2.5", "b", NULL};
	struct toy t = {.jobs = 1};
	int first = options_parse(&toy, 11, argv, &t);
	CHECK_STR(t.dir, "w");
	CHECK_INT(t.verbose, 1);
	CHECK_INT(t.jobs, 3);
	CHECK(t.every == 2.5);
	CHECK_INT(t.skip.n, 2);
	CHECK_STR(t.skip.v[0], "x");
	CHECK_STR(t.skip.v[1], "y");
	CHECK(t.skip.v[2] == NULL);
	CHECK_INT(11 - first, 2); /* the operands, moved after the options */
	CHECK_STR(argv[first], "a");
	CHECK_STR(argv[first + 1], "b");
	free(t.skip.v);
}

TEST(options_usage_lists_every_option_with_its_value_name)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	options_usage(f, &toy);
	fclose(f);
	CHECK(strstr(text, "usage: profopt toy [OPTIONS] FILE...\n\nPlays.\n") == text);
	CHECK(strstr(text, "  -C, --work-dir=DIR") != NULL);
	CHECK(strstr(text, "  -j, --jobs=N") != NULL);
	CHECK(strstr(text, "  --verbose ") != NULL);
	CHECK(strstr(text, "  --every=SECONDS") != NULL);
	free(text);
}
