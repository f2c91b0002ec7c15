/* bench_plot.c - the speedup plot of `profopt bench`, drawn by gnuplot: profopt writes a data
 * file and a script, then runs gnuplot on the script (see bench.h). */
#include "bench/bench.h"
#include "lib/proc.h"
#include "lib/output.h"
#include "lib/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* PATH with its extension replaced by ext. */
static char *sibling(const char *path, const char *ext)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
	size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
	return xasprintf("%.*s%s", (int)n, path, ext);
}

/* Single quotes for a gnuplot string ('' stands for one quote; a control character, which
 * could end the command, becomes a space). */
static void gp_quote(struct buf *b, const char *s)
{
	buf_puts(b, "'");
	for (; *s; s++)
		buf_puts(b, *s == '\'' ? "''" : (unsigned char)*s < 0x20 ? " " : (char[]){*s, 0});
	buf_puts(b, "'");
}

/* The data file: one row per workload, then the geometric mean: name, then speedup lo hi per
 * interpreter.  *ymin and *ymax: the y range that shows every interval. */
static void plot_data(const struct bench_result *r, struct buf *dat, double *ymin, double *ymax)
{
	int ni = r->ninterp, nw = r->nwork;
	double lo = 1, hi = 1;
	buf_printf(dat, "# workload");
	for (int i = 1; i < ni; i++)
		buf_printf(dat, "  %s:speedup lo hi", r->interps[i].name);
	buf_puts(dat, "\n");
	for (int w = 0; w <= nw; w++) {
		buf_printf(dat, "\"%s\"", w < nw ? r->works[w].name : "GEOMEAN");
		for (int i = 1; i < ni; i++) {
			struct interval iv = w < nw ? bench_cell(r, w, i)->speedup : r->pair[i * ni];
			buf_printf(dat, " %.5f %.5f %.5f", iv.point, iv.lo, iv.hi);
			if (iv.lo < lo)
				lo = iv.lo;
			if (iv.hi > hi)
				hi = iv.hi;
		}
		buf_puts(dat, "\n");
	}
	double pad = (hi - lo) * 0.08 + 0.01;
	*ymin = floor((lo - pad) * 20) / 20;
	*ymax = ceil((hi + pad) * 20) / 20;
	if (*ymin < 0)
		*ymin = 0;
}

/* "set NAME 'TEXT'" with TEXT quoted for gnuplot; takes TEXT (malloc'd). */
static void gp_set_text(struct buf *gp, const char *name, char *text)
{
	buf_printf(gp, "set %s ", name);
	gp_quote(gp, text);
	buf_puts(gp, "\n");
	free(text);
}

/* The gnuplot script that draws datpath into path. */
static void plot_script(const struct bench_result *r, struct buf *gp, const char *path, const char *datpath, double ymin,
			double ymax)
{
	int ni = r->ninterp, width = 120 + 24 * (r->nwork + 1) * ni;
	if (width < 640)
		width = 640;
	buf_printf(gp, "# gnuplot script written by profopt bench; data in the .dat file next to it\n");
	if (ends_with(path, ".png"))
		buf_printf(gp, "set terminal pngcairo size %d,520 font 'sans,10' noenhanced\n", width);
	else
		buf_printf(gp, "set terminal svg size %d,520 dynamic font 'sans,11' noenhanced\n", width);
	gp_set_text(gp, "output", xstrdup(path));
	gp_set_text(gp, "title", xasprintf("%s over %s (%s)", r->mode == BENCH_TIME ? "Speedup" : "Instruction-count speedup (callgrind)",
					  r->interps[0].name, r->mode == BENCH_TIME ? "higher is faster" : "higher is fewer instructions"));
	gp_set_text(gp, "xlabel", r->rounds > 1 ? xasprintf("bars: ratio of medians of %d rounds; whiskers: %.0f%% bootstrap interval; dashed: no change",
							   r->rounds, r->conf * 100)
					       : xasprintf("bars: ratio of single counts; dashed: no change"));
	gp_set_text(gp, "ylabel", xasprintf("speedup over %s", r->interps[0].name));
	buf_printf(gp, "set yrange [%.2f:%.2f]\n", ymin, ymax);
	buf_puts(gp, "set style data histogram\n"
		     "set style histogram errorbars gap 1 lw 1\n"
		     "set style fill solid 0.6 border -1\n"
		     "set boxwidth 0.9\n"
		     "set xtics rotate by -35 scale 0 nomirror\n"
		     "set bmargin 7\n"
		     "set ytics nomirror\n"
		     "set grid ytics\n"
		     "set key top left\n"
		     "set arrow from graph 0, first 1 to graph 1, first 1 nohead lw 1.5 dt 2 lc rgb 'black' front\n"
		     "plot ");
	for (int i = 1; i < ni; i++) {
		if (i > 1)
			buf_puts(gp, ", ");
		buf_puts(gp, i == 1 ? "" : "'' ");
		if (i == 1)
			gp_quote(gp, datpath);
		int c = 2 + 3 * (i - 1);
		buf_printf(gp, " using %d:%d:%d%s title ", c, c + 1, c + 2, i == 1 ? ":xtic(1)" : "");
		gp_quote(gp, r->interps[i].name);
	}
	buf_puts(gp, "\n");
}

/* Runs gnuplot on the script; returns 0 when it drew the plot. */
static int run_gnuplot(const char *datpath, const char *gppath)
{
	char *gnuplot = find_program(getenv("GNUPLOT") && *getenv("GNUPLOT") ? getenv("GNUPLOT") : "gnuplot");
	if (!gnuplot) {
		warn("gnuplot not found (Debian/Ubuntu: apt-get install gnuplot-nox): no plot; the data is in %s and the "
		     "script in %s",
		     datpath, gppath);
		return -1;
	}
	char *script = safe_path_arg(gppath);
	char *argv[] = {gnuplot, script, NULL}, *output = NULL;
	int st = capture(argv, &output), rc = 0;
	free(script);
	if (st != 0 || (output && strstr(output, "rror"))) {
		warn("gnuplot %s failed%s%s", gppath, output && *output ? ": " : "", output ? output : "");
		rc = -1;
	}
	free(output);
	free(gnuplot);
	return rc;
}

int bench_plot(const struct bench_result *r, const char *path)
{
	if (r->ninterp < 2) {
		warn("one interpreter has nothing to compare with: no plot");
		return -1;
	}
	if (!ends_with(path, ".png") && !ends_with(path, ".svg")) {
		warn("the plot file must end in .svg or .png, not '%s': no plot", path);
		return -1;
	}
	char *datpath = sibling(path, ".dat"), *gppath = sibling(path, ".gp");
	struct buf dat = {0}, gp = {0};
	double ymin, ymax;
	plot_data(r, &dat, &ymin, &ymax);
	plot_script(r, &gp, path, datpath, ymin, ymax);
	int rc = -1;
	char err[600];
	if (output_write_err(datpath, dat.data, dat.len, err, sizeof err) < 0 ||
	    output_write_err(gppath, gp.data, gp.len, err, sizeof err) < 0 || output_in_place(path, err, sizeof err) < 0)
		warn("%s: no plot", err);
	else
		rc = run_gnuplot(datpath, gppath);
	buf_free(&dat);
	buf_free(&gp);
	free(datpath);
	free(gppath);
	return rc;
}
