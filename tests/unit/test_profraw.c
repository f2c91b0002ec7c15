/* test_profraw.c - unit tests of the LLVM raw profile reader on real files (seed.c built with
 * clang 14 -fprofile-generate and -fprofile-instr-generate) and on damaged copies. */
#include "format/profraw.h"
#include "test_corpus.h"
#include "unit.h"

/* Parses the corpus file name, which must read without a complaint; -1 if it is missing. */
#define parse_real(name, in) parse_real_at(__LINE__, (name), (in))
static int parse_real_at(int line, const char *name, struct profraw_info *in)
{
	size_t len;
	char err[300] = "";
	unsigned char *d = corpus_file_at(__FILE__, line, name, &len);
	if (!d)
		return -1;
	if (profraw_parse(d, len, name, in, err, sizeof err) != 0 || err[0])
		unit_fail(__FILE__, line, "%s: refused: %s", name, err);
	free(d);
	return 0;
}

TEST(profraw_read_real_ir)
{
	struct profraw_info in;
	char v[64];
	if (parse_real("seed-ir.profraw", &in) < 0)
		return;
	CHECK_INT(in.version, 8);
	CHECK(in.ptr64 && !in.swapped && in.layout_known);
	CHECK_STR(profraw_variant_string(&in, v, sizeof v), "IR");
	CHECK_INT(in.data_size, 3);
	CHECK_INT(in.functions, 3);
	CHECK_INT(in.executed, 2); /* never() was not */
	CHECK_INT(in.counters_size, 7);
	CHECK_INT(in.zero_counters, 3);
	CHECK_INT(in.value_data_size, 0);
}

TEST(profraw_read_real_frontend)
{
	struct profraw_info in;
	char v[64];
	if (parse_real("seed-fe.profraw", &in) < 0)
		return;
	CHECK_STR(profraw_variant_string(&in, v, sizeof v), "FE");
	CHECK_INT(in.functions, 3);
	CHECK_INT(in.executed, 2);
}

TEST(profraw_read_real_v10)
{
	struct profraw_info in;
	if (parse_real("seed-v10.profraw", &in) < 0)
		return;
	CHECK_INT(in.version, 10);
	CHECK(in.layout_known);
	CHECK_INT(in.functions, 3);
	CHECK_INT(in.executed, 2);
	CHECK_INT(in.counters_size, 7);
}

/* Every cut of a real raw profile is refused, with the offset. */
static void check_truncations(const char *name)
{
	size_t len;
	unsigned char *d = corpus_file(name, &len);
	if (!d)
		return;
	for (size_t cut = 0; cut < len; cut++) {
		unsigned char *copy = xmalloc(cut);
		memcpy(copy, d, cut);
		struct profraw_info in;
		char err[300] = "";
		if (profraw_parse(copy, cut, "t.profraw", &in, err, sizeof err) == 0)
			unit_fail(__FILE__, __LINE__, "a cut at %zu of %zu bytes was accepted", cut, len);
		else if (!strstr(err, "t.profraw: offset"))
			unit_fail(__FILE__, __LINE__, "cut at %zu: message without offset: %s", cut, err);
		free(copy);
	}
	free(d);
}

TEST(profraw_truncated)
{
	check_truncations("seed-ir.profraw");
	check_truncations("seed-fe.profraw");
	check_truncations("seed-v10.profraw");
}

TEST(profraw_corrupt)
{
	struct damage m;
	struct profraw_info in;
	char err[300];
	if (damage_open(&m, "seed-ir.profraw") < 0)
		return;
	unsigned char *c = damage_reset(&m);
	c[0] ^= 0xff;
	CHECK_INT(profraw_parse(c, m.len, "m", &in, err, sizeof err), -1);
	CHECK(strstr(err, "bad magic") != NULL);
	/* data_size (word 3) impossibly large */
	memset(damage_reset(&m) + 24, 0xff, 8);
	CHECK_INT(profraw_parse(c, m.len, "s", &in, err, sizeof err), -1);
	CHECK(strstr(err, "offset 24") && strstr(err, "impossibly"));
	/* counters_size (word 5) larger than the file */
	damage_reset(&m)[40] = 0xff;
	CHECK_INT(profraw_parse(c, m.len, "c", &in, err, sizeof err), -1);
	CHECK(strstr(err, "truncated") != NULL);
	/* the first record's counter pointer (record at 88 + binary ids, field at +16) */
	damage_reset(&m);
	size_t ids = (size_t)c[16] | (size_t)c[17] << 8;
	c[88 + ids + 16] ^= 0x40;
	CHECK_INT(profraw_parse(c, m.len, "p", &in, err, sizeof err), -1);
	CHECK(strstr(err, "outside") != NULL);
	damage_close(&m);
}

TEST(profraw_other_versions_and_byte_order)
{
	/* a big-endian header of a version whose layout profopt does not know: recognized */
	unsigned char be[16] = {0xff, 0x6c, 0x70, 0x72, 0x6f, 0x66, 0x72, 0x81, 0x01, 0, 0, 0, 0, 0, 0, 12};
	struct profraw_info in;
	char err[300];
	CHECK_INT(profraw_parse(be, sizeof be, "be", &in, err, sizeof err), 0);
	CHECK(in.swapped && in.ptr64 && !in.layout_known);
	CHECK_INT(in.version, 12);
	be[15] = 0;
	CHECK_INT(profraw_parse(be, sizeof be, "be", &in, err, sizeof err), -1);
	CHECK(strstr(err, "bad version") != NULL);
}
