/* test_tooltext.c - unit tests of the readers of llvm-profdata show and nm output, and of
 * stashes read in memory: hostile bytes, many records, linear time. */
#include "format/gcov_io.h"
#include "lib/tarfile.h"
#include "format/tooltext.h"
#include "test_corpus.h"
#include "unit.h"
#include "lib/util.h"

#include <stdlib.h>

TEST(profdata_show_parse_counts)
{
	static const char text[] = "Counters:\n  main:\n    Hash: 0x1\n    Counters: 3\n    Block counts: [5, 0, 7]\n"
				   "  a.c:local:\n    Hash: 0x2\n    Function count: 0\n"
				   "  b\0x:\n    Block counts: [0]\n"
				   "Instrumentation level: IR  entry_first = 0\nFunctions shown: 3\n";
	struct shown_profile p = {0};
	CHECK_INT(profdata_show_parse(text, sizeof text - 1, &p), 3);
	CHECK_STR(p.fn[0].name, "main");
	CHECK_INT(p.fn[0].max, 7);
	CHECK_INT(p.fn[0].sum, 12);
	CHECK_INT(p.fn[0].counters, 3);
	CHECK_INT(p.fn[0].zero, 1);
	CHECK_STR(p.fn[1].name, "a.c:local");
	CHECK_INT(p.fn[1].max, 0);
	CHECK_STR(p.fn[2].name, "b?x"); /* a NUL in a name does not hide what follows */
	CHECK_STR(p.level, "IR");
	shown_profile_free(&p);
}

TEST(profdata_show_parse_many_functions_fast)
{
	struct buf b = {0};
	for (int i = 0; i < 200000; i++)
		buf_printf(&b, "  f%d:\n    Block counts: [%d, 0]\n", i, i % 2);
	double t0 = now();
	struct shown_profile p = {0};
	CHECK_INT(profdata_show_parse(b.data, b.len, &p), 200000);
	CHECK(now() - t0 < 2);
	CHECK_INT(p.fn[199999].max, 1);
	shown_profile_free(&p);
	buf_free(&b);
}

static void count_symbol(void *ctx, int object, const char *name, char type)
{
	struct buf *b = ctx;
	buf_printf(b, "%d:%s:%c;", object, name, type);
}

TEST(nm_parse_matches_object_names_as_bytes)
{
	char *objects[] = {"./a.o", "./b\nc: d.o", "./@x.o"};
	static const char text[] = "./a.o: f T 0 10\n./a.o: g t 10 4\nnm: ./zz: no symbols\n"
				   "./b\nc: d.o: h T 0 1\n./@x.o: k W 0 1\ngarbage line\n";
	struct buf b = {0};
	buf_add(&b, "", 0);
	nm_parse(text, sizeof text - 1, objects, 3, count_symbol, &b, 10);
	CHECK_STR(b.data, "10:f:T;10:g:t;11:h:T;12:k:W;");
	buf_free(&b);
}

TEST(tarmem_refuses_escaping_names)
{
	/* a ustar header for "../x.gcda" (one 512-byte block, no data) and two end blocks */
	unsigned char tar[1536] = {0};
	memcpy(tar, "../x.gcda", 9);
	memcpy(tar + 100, "0000644", 7);
	memcpy(tar + 124, "00000000000", 11);
	memcpy(tar + 136, "00000000000", 11);
	tar[156] = '0';
	memcpy(tar + 257, "ustar", 6);
	memcpy(tar + 263, "00", 2);
	memset(tar + 148, ' ', 8);
	unsigned sum = 0;
	for (int i = 0; i < 512; i++)
		sum += tar[i];
	snprintf((char *)tar + 148, 8, "%06o", sum);
	struct member_list l;
	char err[300];
	CHECK_INT(tarmem_parse(tar, sizeof tar, "evil.tar", ".gcda", &l, err, sizeof err), -1);
	CHECK(strstr(err, "evil.tar: member ../x.gcda points outside the archive's tree: it climbs out") != NULL);
	memcpy(tar, "./ok.gcda", 9);
	memset(tar + 148, ' ', 8);
	sum = 0;
	for (int i = 0; i < 512; i++)
		sum += tar[i];
	snprintf((char *)tar + 148, 8, "%06o", sum);
	CHECK_INT(tarmem_parse(tar, sizeof tar, "ok.tar", ".gcda", &l, err, sizeof err), 0);
	CHECK_INT(l.n, 1);
	CHECK_STR(l.m[0].name, "ok.gcda");
	tarmem_free(&l);
	CHECK_INT(tarmem_parse("not an archive at all", 21, "junk", ".gcda", &l, err, sizeof err), -1);
	CHECK(strstr(err, "junk") != NULL);
}

/* A .gcno of n functions, each a FUNCTION record with a name and source. */
static unsigned char *many_functions(int n, size_t *len)
{
	struct buf b = {0};
	uint32_t head[] = {GCOV_NOTE_MAGIC, gcov_version_for(12, 2), 7, 0, 2};
	buf_add(&b, head, sizeof head);
	buf_add(&b, "/\0", 2); /* cwd "/" */
	uint32_t flag = 0;
	buf_add(&b, &flag, 4);
	for (int i = 0; i < n; i++) {
		uint32_t rec[] = {0x01000000u, 12 + 4 + 2 + 4 + 4 + 2 + 16, (uint32_t)(n - i), 1, 2, 2};
		buf_add(&b, rec, sizeof rec);
		buf_add(&b, "f\0", 2);
		uint32_t art = 0, srclen = 2;
		buf_add(&b, &art, 4);
		buf_add(&b, &srclen, 4);
		buf_add(&b, "s\0", 2);
		uint32_t lines[] = {1, 1, 2, 1};
		buf_add(&b, lines, sizeof lines);
	}
	*len = b.len;
	return (unsigned char *)b.data;
}

TEST(gcov_lookup_is_not_quadratic)
{
	size_t len;
	unsigned char *data = many_functions(200000, &len);
	struct gcov_file f;
	char err[300];
	double t0 = now();
	CHECK_INT(gcov_parse(data, len, "many.gcno", &f, err, sizeof err), 0);
	CHECK_INT(f.nfn, 200000);
	CHECK_INT(gcov_check_pair(&f, &f, err, sizeof err), 0);
	const struct gcov_function *fn = gcov_find_function(&f, 1);
	CHECK(fn == &f.fn[199999]);
	CHECK(gcov_find_function(&f, 200001) == NULL);
	CHECK(now() - t0 < 2);
	gcov_file_free(&f);
	free(data);
}
