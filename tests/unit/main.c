/* main.c - runs every registered unit test; prints "unit: N passed, N failed". */
#include "unit.h"

#include <stdarg.h>
#include <stdlib.h>

#define MAX_TESTS 512

static struct {
	const char *name, *file;
	unit_fn fn;
} tests[MAX_TESTS];
static int ntests, current_failed;

void unit_register(const char *name, const char *file, unit_fn fn)
{
	if (ntests < MAX_TESTS) {
		tests[ntests].name = name;
		tests[ntests].file = file;
		tests[ntests++].fn = fn;
	}
}

void unit_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "  %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	current_failed = 1;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0;
	for (int i = 0; i < ntests; i++) {
		if (argc > 1 && !strstr(tests[i].name, argv[1]))
			continue;
		current_failed = 0;
		tests[i].fn();
		fflush(stdout);
		if (current_failed) {
			failed++;
			fprintf(stderr, "FAIL %s (%s)\n", tests[i].name, tests[i].file);
		} else {
			passed++;
			printf("ok %s\n", tests[i].name);
		}
	}
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
