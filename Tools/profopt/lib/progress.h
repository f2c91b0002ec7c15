/* progress.h - one live status line on a terminal; plain heartbeat lines elsewhere, so that
 * a buildbot or CI log shows life at least every N seconds during long work. */
#ifndef PROFOPT_PROGRESS_H
#define PROFOPT_PROGRESS_H

struct progress {
	int tty;             /* stderr is a terminal: redraw one line in place */
	double heartbeat;    /* seconds between plain lines when not a terminal */
	double started, last_plain;
	int drawn;           /* a live line is on screen and must be cleared before other output */
};

void progress_init(struct progress *p, double heartbeat);
/* Redraws the live line, or prints a plain line when the heartbeat is due (or forced). */
void progress_show(struct progress *p, const char *text, int force);
/* Clears the live line so that ordinary output can follow. */
void progress_clear(struct progress *p);
double progress_elapsed(const struct progress *p);

#endif
