/* options.c - parsing and --help from a command's table of options (options.h). */
#include "lib/options.h"
#include "lib/util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define LONG_ONLY 256 /* getopt_long's value for row i: LONG_ONLY + i, never a letter */
#define HELP_WIDTH 80
#define LABEL_WIDTH 24

static int count_rows(const struct option_spec *o)
{
	int n = 0;
	while (o[n].name)
		n++;
	return n;
}

void option_list_add(struct option_list *l, const char *value)
{
	l->v = grow_array(l->v, l->n + 1, &l->cap, sizeof *l->v, 8);
	l->v[l->n++] = value;
	l->v[l->n] = NULL;
}

static void store(const struct option_spec *o, const char *arg, void *dest)
{
	char *at = (char *)dest + o->offset;
	switch (o->kind) {
	case OPTION_FLAG: *(int *)at = 1; break;
	case OPTION_STRING: *(const char **)at = arg; break;
	case OPTION_LIST: option_list_add((struct option_list *)(void *)at, arg); break;
	case OPTION_INT:
		if (parse_whole(arg, o->min, o->max, (long long *)(void *)at) < 0)
			usage_error("--%s wants a whole number from %lld to %lld, not '%s'", o->name, o->min, o->max,
				    printable(arg));
		break;
	case OPTION_SECONDS:
		if ((*(double *)at = parse_seconds(arg, MAX_SECONDS)) < 0)
			usage_error("--%s wants seconds > 0 and at most %.0f, not '%s'", o->name, MAX_SECONDS,
				    printable(arg));
		break;
	case OPTION_SHARE:
		if ((*(double *)at = parse_share(arg)) < 0)
			usage_error("--%s wants a percentage from 0 to 100, not '%s'", o->name, printable(arg));
		break;
	}
}

/* The row getopt_long answered with value c (a letter, or LONG_ONLY + row), or NULL. */
static const struct option_spec *row_of(const struct option_spec *o, int c)
{
	int n = count_rows(o);
	if (c >= LONG_ONLY && c < LONG_ONLY + n)
		return &o[c - LONG_ONLY];
	for (int i = 0; c > 0 && i < n; i++)
		if (o[i].letter == c)
			return &o[i];
	return NULL;
}

/* getopt_long's long options and short option string, built from the table. */
static struct option *getopt_table(const struct command_options *c, char **shorts)
{
	int n = count_rows(c->options);
	struct option *l = xcalloc((size_t)n + 1, sizeof *l);
	char *s = xcalloc((size_t)n * 2 + 3, 1), *p = s;
	if (c->stop_at_operand)
		*p++ = '+';
	*p++ = ':'; /* a missing value is told apart from an unknown option */
	for (int i = 0; i < n; i++) {
		const struct option_spec *o = &c->options[i];
		int has_arg = o->kind == OPTION_FLAG ? no_argument : required_argument;
		l[i] = (struct option){o->name, has_arg, NULL, o->letter ? o->letter : LONG_ONLY + i};
		if (o->letter) {
			*p++ = o->letter;
			if (has_arg)
				*p++ = ':';
		}
	}
	*shorts = s;
	return l;
}

static _Noreturn void bad_option(const struct command_options *c, int what, char **argv)
{
	const struct option_spec *o = row_of(c->options, optopt);
	if (what == ':' && o)
		usage_error("--%s wants a value: --%s=%s (see 'profopt %s --help')", o->name, o->name, o->arg, c->name);
	if (o && o->kind == OPTION_FLAG)
		usage_error("--%s takes no value (see 'profopt %s --help')", o->name, c->name);
	if (optopt > 0 && optopt < LONG_ONLY)
		usage_error("unknown option '-%c' (see 'profopt %s --help')", optopt, c->name);
	const char *given = printable(argv[optind - 1]); /* its name, without a value */
	usage_error("unknown option '%.*s' (see 'profopt %s --help')", (int)strcspn(given, "="), given, c->name);
}

int options_parse(const struct command_options *c, int argc, char **argv, void *dest)
{
	char *shorts;
	struct option *longs = getopt_table(c, &shorts);
	int ch;
	opterr = 0;
#ifdef __GLIBC__
	optind = 0; /* glibc's full reset: a second parse in one process starts afresh */
#else
	optind = 1;
#endif
	while ((ch = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct option_spec *o = ch == '?' || ch == ':' ? NULL : row_of(c->options, ch);
		if (!o)
			bad_option(c, ch, argv);
		store(o, optarg, dest);
	}
	free(longs);
	free(shorts);
	return optind;
}

/* text from column `at`, wrapped at HELP_WIDTH with continuation lines indented by indent. */
static void print_wrapped(FILE *out, const char *text, int at, int indent)
{
	for (const char *p = text; *p; p += strspn(p, " ")) {
		int word = (int)strcspn(p, " ");
		if (p > text && at + 1 + word > HELP_WIDTH) {
			fprintf(out, "\n%*s", indent, "");
			at = indent;
		} else if (p > text) {
			fputc(' ', out);
			at++;
		}
		fwrite(p, 1, (size_t)word, out);
		at += word;
		p += word;
	}
	fputc('\n', out);
}

static char *label_of(const struct option_spec *o)
{
	char letter[8] = "";
	if (o->letter)
		snprintf(letter, sizeof letter, "-%c, ", o->letter);
	return o->arg ? xasprintf("%s--%s=%s", letter, o->name, o->arg) : xasprintf("%s--%s", letter, o->name);
}

/* After the widest label but those wider than LABEL_WIDTH (their help on the next line). */
static int help_column(const struct option_spec *o)
{
	int width = 0;
	for (; o->name; o++) {
		char *label = label_of(o);
		int len = (int)strlen(label);
		if (len <= LABEL_WIDTH && len > width)
			width = len;
		free(label);
	}
	return width + 4;
}

void options_usage(FILE *out, const struct command_options *c)
{
	const char *u = c->usage;
	int column = help_column(c->options);
	for (int first = 1; *u; first = 0) {
		int len = (int)strcspn(u, "\n");
		fprintf(out, "%s profopt %s %.*s\n", first ? "usage:" : "      ", c->name, len, u);
		u += len + (u[len] == '\n');
	}
	fprintf(out, "\n%s", c->about);
	if (c->options[0].name)
		fputc('\n', out);
	for (const struct option_spec *o = c->options; o->name; o++) {
		char *label = label_of(o);
		int len = (int)strlen(label);
		fprintf(out, "  %s", label);
		if (len + 4 > column)
			fprintf(out, "\n%*s", column, "");
		else
			fprintf(out, "%*s", column - 2 - len, "");
		print_wrapped(out, o->help, column, column);
		free(label);
	}
	if (c->more)
		fprintf(out, "\n%s", c->more);
}

void options_list(FILE *out, const struct command_options *c)
{
	for (const struct option_spec *o = c->options; o->name; o++) {
		fprintf(out, "%s --%s\n", c->name, o->name);
		if (o->letter)
			fprintf(out, "%s -%c\n", c->name, o->letter);
	}
}
