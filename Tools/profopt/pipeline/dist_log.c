/* dist_log.c - `profopt dist-log`: a distributed compiler's trace of a compile stage (distcc's
 * DISTCC_LOG, icecream's ICECC_LOGFILE) read into the stage's one line: how many compiles ran
 * on the workers, how many here, and why, in the tool's own words. */
#include "commands.h"
#include "lib/lines.h"
#include "lib/strmap.h"
#include "lib/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct dist_log_options {
	const char *launcher, *stage;
};

static const struct option_spec dist_log_options[] = {
	OPT_STRING("launcher", 0, struct dist_log_options, launcher, "distcc|icecc", "whose trace LOG is"),
	OPT_STRING("stage", 0, struct dist_log_options, stage, "STAGE", "the stage the line names"),
	OPT_END,
};

const struct command_options options_dist_log = {
	"dist-log",
	"--launcher=distcc|icecc --stage=STAGE LOG",
	"Reads LOG, the trace of one compile stage (distcc: DISTCC_LOG; icecc: ICECC_DEBUG=debug\n"
	"with ICECC_LOGFILE), and prints the stage's line: 'distcc (STAGE): N of M compiles on the\n"
	"workers, K here', then for each reason a compile ran here '; N here: REASON', in the\n"
	"tool's words (distcc keeps -fprofile-generate and -fprofile-use compiles here; a compile\n"
	"no worker took, or that failed on one, runs here again).  A compile is a process of the\n"
	"tool with -c on its command line.\n",
	.options = dist_log_options,
};

/* One process of the tool (its "distcc[PID] " or "ICECC[PID] " prefix). */
struct proc {
	int compile, here, remote;
	char *why;
};

struct reader {
	int icecc;
	struct strmap procs;
	struct proc **order; /* the processes, in the order met */
	int n, cap;
};

static struct proc *proc_of(struct reader *r, const char *line, size_t plen)
{
	char *key = xasprintf("%.*s", (int)plen, line);
	void **slot = strmap_slot(&r->procs, key, 1); /* (a copy of key) */
	free(key);
	if (!*slot) {
		*slot = xcalloc(1, sizeof(struct proc));
		r->order = grow_array(r->order, r->n, &r->cap, sizeof *r->order, 64);
		r->order[r->n++] = *slot;
	}
	return *slot;
}

/* why (malloc'd) as the reason the process gives. */
static void set_why(struct proc *p, char *why)
{
	free(p->why);
	p->why = why;
}

/* The length of "TOOL[DIGITS] " at the start of line, or 0. */
static size_t prefix_length(const char *line, const char *tool)
{
	size_t t = strlen(tool), i = t + 1;
	if (strncmp(line, tool, t) != 0 || line[t] != '[' || !isdigit((unsigned char)line[i]))
		return 0;
	while (isdigit((unsigned char)line[i]))
		i++;
	return line[i] == ']' && line[i + 1] == ' ' ? i + 2 : 0;
}

static int has_c(const char *m)
{
	return strstr(m, " -c ") || ends_with(m, " -c");
}

static void distcc_line(struct proc *p, const char *m)
{
	const char *w;
	if (starts_with(m, "exec on ") && (w = strchr(m + 8, ' ')) && w > m + 8 && w[-1] == ':' && has_c(m))
		p->compile = 1;
	if (ends_with(m, "must be local")) {
		const char *s = m;
		if (*s == '(') { /* "(dcc_function) " */
			const char *e = s + 1 + strspn(s + 1, "abcdefghijklmnopqrstuvwxyz_");
			if (e[0] == ')' && e[1] == ' ')
				s = e + 2;
		}
		set_why(p, xstrdup(s));
	}
	if (ends_with(m, "no visible input file"))
		set_why(p, xstrdup("no source distcc sends (an assembler .S file, say)"));
	if ((w = strstr(m, "failed to distribute")) && strstr(w, "running locally instead") && !p->why)
		set_why(p, xstrdup("no worker took it (failed to distribute)"));
	if (strstr(m, "retrying locally"))
		set_why(p, xstrdup("it failed on the worker and ran again here"));
	size_t len = strlen(m), tail = strlen(" completed ok");
	if (starts_with(m, "compile ") && ends_with(m, " completed ok") && len > tail) {
		const char *end = m + len - tail, *host = end;
		while (host > m && host[-1] != ' ')
			host--;
		if (host - m >= 4 && !strncmp(host - 4, " on ", 4) && host < end) {
			p->here = end - host == 9 && !strncmp(host, "localhost", 9);
			p->remote = !p->here;
		}
	}
}

static void icecc_line(struct proc *p, const char *line)
{
	static const char here_why[] = "the scheduler gave it to this machine (no worker was free, or this one ranked first)";
	const char *m = line, *c = line;
	for (int k = 0; k < 3 && c; k++)
		c = strchr(k ? c + 1 : c, ':');
	if (c && c[1] == ' ')
		m = c + 2;
	if (starts_with(m, "invoked as: ") && has_c(m))
		p->compile = 1;
	if (starts_with(m, "Have to use host "))
		p->remote = 1;
	if (ends_with(m, "building locally") && !p->why) {
		size_t n = strlen(m), t = strlen(" building locally");
		int cut = n > t && (m[n - t - 1] == ';' || m[n - t - 1] == ','); /* "WHY; building locally" */
		set_why(p, xasprintf("%.*s", (int)(cut ? n - t - 1 : n), m));
	}
	if (starts_with(m, "local build forced by remote exception: "))
		set_why(p, xasprintf("it failed to reach a worker (%s)", strstr(m, ": ") + 2));
	if (starts_with(m, "building myself")) {
		p->here = 1;
		if (!p->why)
			set_why(p, xstrdup(here_why));
	}
	if (starts_with(m, "<building_local>"))
		p->here = 1;
}

static int read_line(const char *line, size_t len, void *ctx)
{
	(void)len;
	struct reader *r = ctx;
	size_t plen = prefix_length(line, r->icecc ? "ICECC" : "distcc");
	if (!plen)
		return 0;
	struct proc *p = proc_of(r, line, plen);
	if (r->icecc)
		icecc_line(p, line);
	else
		distcc_line(p, line + plen);
	return 0;
}

int cmd_dist_log(int argc, char **argv)
{
	struct dist_log_options o = {0};
	int first = options_parse(&options_dist_log, argc, argv, &o);
	if (!o.launcher || (strcmp(o.launcher, "distcc") && strcmp(o.launcher, "icecc")) || !o.stage || first != argc - 1)
		usage_error("give --launcher=distcc|icecc, --stage=STAGE and one LOG");
	struct reader r = {.icecc = !strcmp(o.launcher, "icecc")};
	if (lines_scan(argv[first], LOG_LINE_MAX, read_line, &r) < 0)
		fatal("cannot read %s", printable(argv[first]));
	int remote = 0, here = 0, nwhy = 0;
	const char **whys = xcalloc(r.n + 1, sizeof *whys);
	int *counts = xcalloc(r.n + 1, sizeof *counts);
	const char *fallback = r.icecc ? "icecc built it here" : "distcc chose this machine";
	for (int i = 0; i < r.n; i++) {
		struct proc *p = r.order[i];
		if (!p->compile || (!p->here && !p->remote))
			continue;
		if (!p->here) {
			remote++;
			continue;
		}
		here++;
		const char *why = p->why ? p->why : fallback;
		int k = 0;
		while (k < nwhy && strcmp(whys[k], why))
			k++;
		whys[k] = why, counts[k]++, nwhy += k == nwhy;
	}
	printf("%s (%s): %d of %d compiles on the workers, %d here", o.launcher, o.stage, remote, remote + here, here);
	for (int k = 0; k < nwhy; k++)
		printf("; %d here: %s", counts[k], whys[k]);
	printf("\n");
	return 0;
}
