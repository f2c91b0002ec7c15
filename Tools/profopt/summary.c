/* summary.c - `profopt summary`: the pipeline's stage stamps as one report (JSON or table). */
#include "commands.h"
#include "json.h"
#include "util.h"

#include <getopt.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

const char help_summary[] =
	"usage: profopt summary [--json] STAMP...\n"
	"\n"
	"Reports each stage stamp (written by run/train/merge/verify --stamp) in order: its\n"
	"status and duration.  A missing stamp is a stage that did not complete.  Exit status\n"
	"1 when any stage is missing.\n";

/* The number after "\"seconds\": " in a stamp record. */
static double stamp_seconds(const char *rec)
{
	const char *p = rec ? strstr(rec, "\"seconds\": ") : NULL;
	return p ? atof(p + 11) : 0;
}

int cmd_summary(int argc, char **argv)
{
	static const struct option lopts[] = {{"json", no_argument, NULL, 'j'}, {NULL, 0, NULL, 0}};
	int json = 0, c, missing = 0;
	double total = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		if (c == 'j')
			json = 1;
		else
			usage_error("unknown option '%s' (see 'profopt summary --help')", argv[optind - 1]);
	}
	if (optind >= argc)
		usage_error("no stamp files given");
	if (json)
		printf("{\"stages\": [\n");
	for (int i = optind; i < argc; i++) {
		char *rec = read_file(argv[i], NULL), *copy = xstrdup(argv[i]);
		char *name = basename(copy);
		if (ends_with(name, ".stamp"))
			name[strlen(name) - 6] = '\0';
		if (rec) {
			size_t n = strlen(rec);
			while (n && rec[n - 1] == '\n')
				rec[--n] = '\0';
		}
		double s = stamp_seconds(rec);
		total += s;
		missing += !rec;
		if (json) {
			char *q = jw_escape(name);
			printf("  {\"name\": %s, \"record\": %s}%s\n", q, rec ? rec : "{\"status\": \"missing\"}",
			       i + 1 < argc ? "," : "");
			free(q);
		} else {
			char d[32];
			format_duration(d, sizeof d, s);
			printf("%-22s %-8s %s\n", name, rec ? "done" : "MISSING", rec ? d : "-");
		}
		free(rec);
		free(copy);
	}
	if (json)
		printf("], \"ok\": %s, \"total_seconds\": %.1f}\n", missing ? "false" : "true", total);
	else {
		char d[32];
		format_duration(d, sizeof d, total);
		printf("%-22s %-8s %s\n", "total", missing ? "INCOMPLETE" : "ok", d);
	}
	return missing ? 1 : 0;
}
