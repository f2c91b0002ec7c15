/* progress.c - live line or heartbeat (see progress.h). */
#include "lib/progress.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

void progress_init(struct progress *p, double heartbeat)
{
	const char *term = getenv("TERM");
	p->tty = isatty(2) && !(term && strcmp(term, "dumb") == 0) && !getenv("PROFOPT_NO_TTY");
	p->heartbeat = heartbeat > 0 ? heartbeat : 30;
	p->started = p->last_plain = now();
	p->drawn = 0;
}

double progress_elapsed(const struct progress *p)
{
	return now() - p->started;
}

void progress_show(struct progress *p, const char *text, int force)
{
	text = printable(text); /* names in it come from outside: none may move the cursor */
	if (p->tty) {
		struct winsize ws;
		int width = ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10 ? ws.ws_col - 1 : 79;
		fprintf(stderr, "\r%.*s\033[K", width, text);
		fflush(stderr);
		p->drawn = 1;
		return;
	}
	double t = now();
	if (force || t - p->last_plain >= p->heartbeat) {
		fprintf(stderr, "%s\n", text);
		fflush(stderr);
		p->last_plain = t;
	}
}

void progress_clear(struct progress *p)
{
	if (p->tty && p->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		p->drawn = 0;
	}
}
