/* test_hostile.c - unit tests of what keeps outside bytes data: JSON escaping (keys too),
 * printable(), safe_path_arg(), split_command(), run_child(), temporary directories. */
#include "lib/json.h"
#include "lib/proc.h"
#include "unit.h"
#include "lib/util.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* {"key": value} as the writer prints it. */
static char *json_text(const char *key, const char *value)
{
	char *data = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&data, &len);
	json_t *doc = json_object();
	jw_set(doc, key, jw_text(value));
	jw_write(doc, f);
	fclose(f);
	return data;
}

TEST(json_escapes_keys_and_values)
{
	char *t = json_text("a\"b\\c\n\x01", "x\"y\x1b[2Jz\x7f");
	CHECK_STR(t, "{\n  \"a\\\"b\\\\c\\n\\u0001\": \"x\\\"y\\u001B[2Jz\x7f\"\n}\n");
	free(t);
}

TEST(json_invalid_utf8_is_replaced)
{
	/* a lone continuation byte, a truncated sequence, an overlong '/', a surrogate, C1 */
	char *t = json_text("k\xff", "\x80|\xe2\x82|\xc0\xaf|\xed\xa0\x80|\xc2\x9b|\xc3\xa9");
	CHECK_STR(t, "{\n  \"k\xef\xbf\xbd\": \"\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd|"
		     "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd|\xc2\x9b|\xc3\xa9\"\n}\n");
	free(t);
	CHECK_STR_FREE(json_dumps(jw_opt("tab\there"), JSON_ENCODE_ANY), "\"tab\\there\"");
}

TEST(printable_escapes_controls)
{
	CHECK_STR(printable("plain/name-1.o"), "plain/name-1.o");
	CHECK_STR(printable("a\x1b[31mred\nb"), "a\\x1b[31mred\\x0ab");
	CHECK_STR(printable("del\x7f c1\xc2\x9b bad\xff ok\xc3\xa9"), "del\\x7f c1\\xc2\\x9b bad\\xff ok\xc3\xa9");
	CHECK_STR(printable(NULL), "(null)");
	/* several results alive at once */
	const char *a = printable("\x01"), *b = printable("\x02");
	CHECK_STR(a, "\\x01");
	CHECK_STR(b, "\\x02");
}

TEST(safe_path_arg_never_an_option)
{
	CHECK_STR_FREE(safe_path_arg("-rf.gcda"), "./-rf.gcda");
	CHECK_STR_FREE(safe_path_arg("@x.o"), "./@x.o");
	CHECK_STR_FREE(safe_path_arg("/abs/--plugin=x.o"), "/abs/--plugin=x.o");
}

TEST(split_command_without_a_shell)
{
	char **w = split_command("ccache  gcc -DX='a b' \"q\\\"x\" $(touch MARK) ;x");
	CHECK_STR(w[0], "ccache");
	CHECK_STR(w[1], "gcc");
	CHECK_STR(w[2], "-DX=a b");
	CHECK_STR(w[3], "q\"x");
	CHECK_STR(w[4], "$(touch");
	CHECK_STR(w[5], "MARK)");
	CHECK_STR(w[6], ";x");
	CHECK(w[7] == NULL);
	free_words(w);
	/* a path naming an executable is one word, spaces and all */
	char *dir = make_temp_dir("unit"), *exe = xasprintf("%s/my cc", dir);
	FILE *f = fopen(exe, "w");
	fputs("#!/bin/sh\n", f);
	fclose(f);
	chmod(exe, 0755);
	w = split_command(exe);
	CHECK_STR(w[0], exe);
	CHECK(w[1] == NULL);
	free_words(w);
	remove_dir_tree(dir);
	struct stat st;
	CHECK(stat(dir, &st) < 0);
	free(exe);
	free(dir);
}

TEST(run_child_captures_and_times_out)
{
	char *out = NULL;
	size_t len = 0;
	char *echo[] = {"printf", "a\\000b", NULL};
	int st = run_child(echo, NULL, &out, &len);
	CHECK(proc_exit_ok(st));
	CHECK_INT(len, 3);
	CHECK(out && out[0] == 'a' && out[1] == '\0' && out[2] == 'b');
	free(out);
	char *slow[] = {"sleep", "5", NULL};
	struct run_opts o = {.timeout = 0.2};
	double t0 = now();
	CHECK_INT(run_child(slow, &o, NULL, NULL), RUN_TIMED_OUT);
	CHECK(now() - t0 < 2);
	char *none[] = {"/nonexistent/tool", NULL};
	CHECK_INT(run_child(none, NULL, &out, NULL), RUN_NOT_STARTED);
	CHECK(out && strstr(out, "cannot execute /nonexistent/tool"));
	free(out);
	CHECK(!proc_exit_ok(RUN_NOT_STARTED));
	char *env_argv[] = {"sh", "-c", "printf %s \"$PROFOPT_T\"", NULL}, *env[] = {"PROFOPT_T=x y", NULL};
	struct run_opts e = {.env = env};
	run_child(env_argv, &e, &out, NULL);
	CHECK_STR(out, "x y");
	CHECK(getenv("PROFOPT_T") == NULL);
	free(out);
}
