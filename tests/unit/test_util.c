/* test_util.c - unit tests of the string, share, duration and JSON helpers. */
#include "lib/json.h"
#include "unit.h"
#include "lib/util.h"
#include "lib/walk.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

TEST(parse_share)
{
	CHECK_NEAR(parse_share("90%"), 0.9, 1e-12);
	CHECK_NEAR(parse_share("0.5"), 0.5, 1e-12);
	CHECK_NEAR(parse_share("75"), 0.75, 1e-12);
	CHECK_NEAR(parse_share("100%"), 1.0, 1e-12);
	CHECK_INT(parse_share("abc") < 0, 1);
	CHECK_INT(parse_share("150%") < 0, 1);
	CHECK_INT(parse_share("-1") < 0, 1);
	CHECK_INT(parse_share("50%x") < 0, 1);
}

TEST(parse_positive)
{
	CHECK_INT(parse_positive("4"), 4);
	CHECK_INT(parse_positive("0"), -1);
	CHECK_INT(parse_positive("x"), -1);
	CHECK_INT(parse_positive("3x"), -1);
}

TEST(format_duration)
{
	char b[32];
	format_duration(b, sizeof b, 4.24);
	CHECK_STR(b, "4.2 s");
	format_duration(b, sizeof b, 83);
	CHECK_STR(b, "1 min 23 s");
	format_duration(b, sizeof b, 7300);
	CHECK_STR(b, "2 h 01 min");
	/* past the range of an int (and of any integer): still right */
	format_duration(b, sizeof b, 3e9);
	CHECK_STR(b, "833333 h 20 min");
	format_duration(b, sizeof b, 1e13);
	CHECK_STR(b, "2777777777 h 46 min");
	format_duration(b, sizeof b, 1e300);
	CHECK_STR(b, "2.78e+296 h");
	format_duration(b, sizeof b, NAN);
	CHECK_STR(b, "0.0 s");
}

TEST(format_bytes)
{
	char b[32];
	format_bytes(b, sizeof b, 100);
	CHECK_STR(b, "100 bytes");
	format_bytes(b, sizeof b, 3 * 1048576 + 104858);
	CHECK_STR(b, "3.1 MiB");
}

/* doc as jw_write writes it. */
static char *json_written(json_t *doc)
{
	char *data = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&data, &len);
	jw_write(doc, f);
	fclose(f);
	return data;
}

TEST(json_escape)
{
	CHECK_STR_FREE(json_written(jw_text("a\"b\\c\n\x01")), "\"a\\\"b\\\\c\\n\\u0001\"\n");
}

TEST(json_writer_nesting)
{
	json_t *doc = json_pack("{s:i, s:[o, o], s:{}, s:b, s:o, s:o, s:o}", "a", 1, "b", jw_opt("x"), jw_opt(NULL), "e",
				"t", 1, "r", jw_number(0.25), "n", jw_number(3), "inf", jw_number(INFINITY));
	CHECK_STR_FREE(json_written(doc), "{\n  \"a\": 1,\n  \"b\": [\n    \"x\",\n    null\n  ],\n  \"e\": {},\n"
				       "  \"t\": true,\n  \"r\": 0.25,\n  \"n\": 3,\n  \"inf\": null\n}\n");
}

TEST(buf_printf_grows)
{
	struct buf b = {0};
	for (int i = 0; i < 1000; i++)
		buf_printf(&b, "%d,", i);
	CHECK(b.len > 3000);
	CHECK(starts_with(b.data, "0,1,2,"));
	CHECK(ends_with(b.data, "998,999,"));
	buf_free(&b);
}

TEST(common_dir_length)
{
	CHECK_INT(common_dir_length("/x/y/z", "/x/y/w"), 4);
	CHECK_INT(common_dir_length("/x/y", "/x/y/sub"), 4);
	CHECK_INT(common_dir_length("/x/y/sub", "/x/y"), 4);
	CHECK_INT(common_dir_length("/x/yz", "/x/y"), 2); /* "y" is not a directory of "yz" */
	CHECK_INT(common_dir_length("/x", "/x"), 2);
}

static void check_normalized(const char *in, const char *want)
{
	char *p = xstrdup(in);
	normalize_path(p);
	CHECK_STR(p, want);
	free(p);
}

TEST(normalize_path)
{
	check_normalized("a/./b/../c", "a/c");
	check_normalized("../../x/./y", "../../x/y"); /* a relative path keeps its leading ".." */
	check_normalized("a/../../b/..", "..");
	check_normalized("a/..", "");
	check_normalized("/x//y/../z/.", "/x/z");
	check_normalized("/x/../..", "/"); /* "/.." is "/" */
	check_normalized("/../a", "/a");
	check_normalized("/", "/");
	/* more parts than any fixed table held */
	struct buf b = {0};
	for (int i = 0; i < 600; i++)
		buf_puts(&b, "d/");
	buf_puts(&b, "../f");
	char *p = xstrdup(b.data);
	normalize_path(p);
	CHECK_INT((int)strlen(p), 599 * 2 + 1);
	free(p);
	buf_free(&b);
}

TEST(file_starts_with)
{
	char path[] = "/tmp/profopt-unit-magic.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK_INT(write(fd, "BC\xc0\xde rest", 9), 9);
	close(fd);
	CHECK_INT(file_starts_with(path, "BC\xc0\xde", 4), 1);
	CHECK_INT(file_starts_with(path, "\177ELF", 4), 0);
	CHECK_INT(file_starts_with(path, "BC\xc0\xde rest and more", 19), 0); /* longer than the file */
	CHECK_INT(file_starts_with("/nonexistent/x", "BC", 2), 0);
	unlink(path);
}
