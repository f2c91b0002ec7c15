/* stamp.c - writes stage stamps (see stamp.h). */
#include "pipeline/stamp.h"
#include "lib/json.h"
#include "lib/output.h"
#include "lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void stamp_write(const char *path, const char *stage, double seconds, const char *extra)
{
	char when[32];
	time_t t = time(NULL);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	char *name = jw_escape(stage);
	char *line = xasprintf("{\"stage\": %s, \"status\": \"ok\", \"seconds\": %.1f, \"finished\": \"%s\"%s%s}\n", name,
			       seconds, when, extra && *extra ? ", " : "", extra ? extra : "");
	/* a record that is not JSON would be reported as a damaged stamp: never write one */
	char err[200];
	if (stamp_record_check(line, strlen(line), err, sizeof err) < 0)
		fatal("the %s stage's record is not a valid stamp (%s): %.200s", stage, err, line);
	output_write(path, line, strlen(line));
	free(line);
	free(name);
}
