/* test_lines.c - checked line-based inputs: no byte hides a line, every refusal names its line. */
#include "lib/lines.h"
#include "unit.h"

static int parse(const char *data, size_t len, enum lines_mode mode, size_t max_line, char *err, size_t errlen)
{
	struct lines l;
	int rc = lines_parse(&l, data, len, "in.txt", mode, max_line, err, errlen);
	lines_free(&l);
	return rc;
}

TEST(lines_split_and_crlf)
{
	struct lines l;
	char err[300];
	static const char text[] = "a\tb\r\n\nc";
	CHECK_INT(lines_parse(&l, text, sizeof text - 1, "in.txt", LINES_TEXT, 100, err, sizeof err), 0);
	CHECK_STR(lines_next(&l), "a\tb");
	CHECK_STR(lines_next(&l), "");
	CHECK_STR(lines_next(&l), "c");
	CHECK_INT(l.lineno, 3);
	CHECK(lines_next(&l) == NULL);
	CHECK_INT(l.final_newline, 0);
	lines_free(&l);
}

TEST(lines_refuse_nul_control_and_bad_utf8)
{
	char err[300];
	CHECK_INT(parse("a\nb\0c\n", 6, LINES_TEXT, 100, err, sizeof err), -1);
	CHECK(strstr(err, "in.txt:2: column 2 holds a NUL byte") != NULL);
	CHECK_INT(parse("a\x1b[2J\n", 6, LINES_TEXT, 100, err, sizeof err), -1);
	CHECK(strstr(err, "in.txt:1: column 2 holds the control character 0x1b") != NULL);
	CHECK_INT(parse("a\rb\n", 4, LINES_TEXT, 100, err, sizeof err), -1);
	CHECK_INT(parse("\xc2\x85\n", 3, LINES_TEXT, 100, err, sizeof err), -1);
	CHECK(strstr(err, "U+0085") != NULL);
	/* a sequence cut by the end of the input is not UTF-8, and is not read past */
	CHECK_INT(parse("ok \xe2\x82", 5, LINES_TEXT, 100, err, sizeof err), -1);
	CHECK(strstr(err, "0xe2, which is not UTF-8") != NULL);
	CHECK_INT(parse("caf\xc3\xa9 \xe2\x82\xac\n", 10, LINES_TEXT, 100, err, sizeof err), 0);
	/* names: any byte but NUL */
	CHECK_INT(parse("\x1b\xff\r\n", 4, LINES_NAMES, 100, err, sizeof err), 0);
	CHECK_INT(parse("a\0", 2, LINES_NAMES, 100, err, sizeof err), -1);
}

TEST(lines_length_limit)
{
	char err[300];
	CHECK_INT(parse("abcd\nabc\n", 9, LINES_TEXT, 4, err, sizeof err), 0);
	CHECK_INT(parse("abc\nabcde\n", 10, LINES_TEXT, 4, err, sizeof err), -1);
	CHECK(strstr(err, "in.txt:2: a line longer than 4 bytes") != NULL);
}
