/* test_gcov_io.c - unit tests of the GCC 12 .gcda/.gcno reader on real files (seed.c built
 * with gcc 12 -fprofile-generate -ftest-coverage) and on damaged copies of them. */
#include "format/gcov_io.h"
#include "test_corpus.h"
#include "unit.h"

static const struct gcov_function *by_name(const struct gcov_file *notes, const char *name)
{
	for (int i = 0; i < notes->nfn; i++)
		if (notes->fn[i].name && strcmp(notes->fn[i].name, name) == 0)
			return &notes->fn[i];
	return NULL;
}

TEST(gcov_version_words)
{
	char v[5];
	CHECK_INT(gcov_version_for(12, 2), 0x4232322a);
	CHECK_STR(gcov_version_string(0x4232322a, v), "B22*");
	CHECK_INT(gcov_version_major(0x4232322a), 12);
	CHECK_INT(gcov_version_minor(0x4232322a), 2);
	CHECK_INT(gcov_version_major(gcov_version_for(9, 3)), 9);
	CHECK_INT(gcov_version_major(0x00000000), -1);
}

TEST(gcov_global_ident_of_names)
{
	/* the idents gcc 12 -fprofile-generate gave main() and never() in seed.gcda */
	CHECK_INT(gcov_global_ident("main"), 108032747);
	CHECK_INT(gcov_global_ident("never"), 1105352530);
}

TEST(gcov_read_real_gcda)
{
	size_t len;
	unsigned char *d = corpus_file("seed.gcda", &len);
	struct gcov_file f;
	char err[300] = "";
	if (!d)
		return;
	CHECK_INT(gcov_parse(d, len, "seed.gcda", &f, err, sizeof err), 0);
	CHECK_STR(err, "");
	CHECK_INT(f.kind, GCOV_DATA);
	CHECK_INT(gcov_version_major(f.version), 12);
	CHECK_INT(f.runs, 1);
	CHECK_INT(f.nfn, 3);
	uint64_t total = 0;
	int all_zero = 0;
	for (int i = 0; i < f.nfn; i++) {
		CHECK(f.fn[i].has_arcs);
		if (!f.fn[i].arcs)
			all_zero++; /* written as a negative length */
		for (uint32_t k = 0; f.fn[i].arcs && k < f.fn[i].narc_counters; k++)
			total += f.fn[i].arcs[k];
	}
	CHECK_INT(all_zero, 1); /* never() */
	CHECK_INT(total, 1 + 1000 + 0 + 1 + 666 + 334);
	gcov_file_free(&f);
	free(d);
}

TEST(gcov_read_real_gcno_and_pair)
{
	size_t nlen, dlen;
	unsigned char *n = corpus_file("seed.gcno", &nlen), *d = corpus_file("seed.gcda", &dlen);
	struct gcov_file notes, data;
	char err[300] = "";
	if (!n || !d) {
		free(n);
		free(d);
		return;
	}
	CHECK_INT(gcov_parse(n, nlen, "seed.gcno", &notes, err, sizeof err), 0);
	CHECK_INT(notes.kind, GCOV_NOTES);
	CHECK_INT(notes.nfn, 3);
	const struct gcov_function *never = by_name(&notes, "never"), *hot = by_name(&notes, "hot");
	CHECK(never && hot && by_name(&notes, "main"));
	if (never) {
		CHECK_STR(never->source, "seed.c");
		CHECK_INT(never->start_line, 10);
		CHECK_INT(never->end_line, 15);
		CHECK_INT(never->ncounted, 2);
		CHECK(never->nblocks > 2);
	}
	CHECK(notes.cwd && notes.cwd[0] == '/');
	CHECK_INT(gcov_parse(d, dlen, "seed.gcda", &data, err, sizeof err), 0);
	CHECK_INT(gcov_check_pair(&notes, &data, err, sizeof err), 0);
	CHECK_INT(notes.stamp, data.stamp);
	/* a .gcda from another compilation */
	data.stamp ^= 1;
	CHECK_INT(gcov_check_pair(&notes, &data, err, sizeof err) > 0, 1);
	CHECK(strstr(err, "different compilations") != NULL);
	data.stamp ^= 1;
	/* a changed function */
	data.fn[0].cfg_checksum ^= 0x100;
	CHECK_INT(gcov_check_pair(&notes, &data, err, sizeof err), 1);
	CHECK(strstr(err, "checksums") != NULL);
	gcov_file_free(&notes);
	gcov_file_free(&data);
	free(n);
	free(d);
}

/* Every cut of a real file inside a record or the header is an error naming an offset; a
 * cut exactly between records is a shorter valid .gcno (a .gcda lacks its end word).  Nothing may crash (ASan checks). */
static void check_truncations(const char *name)
{
	size_t len;
	unsigned char *d = corpus_file(name, &len);
	if (!d)
		return;
	int failures = 0;
	for (size_t cut = 0; cut < len; cut++) {
		unsigned char *copy = xmalloc(cut);
		memcpy(copy, d, cut);
		struct gcov_file f;
		char err[300] = "";
		if (gcov_parse(copy, cut, name, &f, err, sizeof err) < 0) {
			failures++;
			if (!strstr(err, "offset"))
				unit_fail(__FILE__, __LINE__, "cut at %zu: message without offset: %s", cut, err);
			CHECK_INT(f.nfn, 0);
		} else {
			gcov_file_free(&f);
		}
		free(copy);
	}
	CHECK(failures > (int)len / 2);
	struct gcov_file f;
	char err[300];
	CHECK_INT(gcov_parse(d, len - 1, name, &f, err, sizeof err), -1);
	CHECK(strstr(err, "truncated") || strstr(err, "left"));
	CHECK_INT(gcov_parse(d, 10, name, &f, err, sizeof err), -1);
	CHECK(strstr(err, "truncated header") != NULL);
	free(d);
}

TEST(gcov_truncated_gcda)
{
	check_truncations("seed.gcda");
	/* a .gcda cut between records (here: just its end word) is refused too */
	struct damage m;
	struct gcov_file f;
	char err[300] = "";
	if (damage_open(&m, "seed.gcda") < 0)
		return;
	CHECK_INT(gcov_parse(damage_reset(&m), m.len - 4, "cut.gcda", &f, err, sizeof err), -1);
	CHECK(strstr(err, "cut.gcda") && strstr(err, "no end-of-file word"));
	damage_close(&m);
}

TEST(gcov_truncated_gcno)
{
	check_truncations("seed.gcno");
}

TEST(gcov_corrupt_headers)
{
	struct damage m;
	struct gcov_file f;
	char err[300];
	if (damage_open(&m, "seed.gcda") < 0)
		return;
	/* bad magic */
	unsigned char *c = damage_reset(&m);
	memcpy(c, "xxxx", 4);
	CHECK_INT(gcov_parse(c, m.len, "m.gcda", &f, err, sizeof err), -1);
	CHECK(strstr(err, "m.gcda: offset 0") && strstr(err, "bad magic"));
	/* another GCC's version word (little-endian file: the word's bytes reversed) */
	memcpy(damage_reset(&m) + 4, "*39A", 4);
	CHECK_INT(gcov_parse(c, m.len, "v.gcda", &f, err, sizeof err), -1);
	CHECK(strstr(err, "GCC 9.3") && strstr(err, "actual/expected"));
	/* a record claiming more bytes than the file has: the object summary's length */
	memcpy(damage_reset(&m) + 20, "\xf0\xff\xff\x7f", 4);
	CHECK_INT(gcov_parse(c, m.len, "l.gcda", &f, err, sizeof err), -1);
	CHECK(strstr(err, "offset 16") && strstr(err, "truncated"));
	/* the first arc counter record (at 52: header 16, summary 16, function 20) of odd size */
	damage_reset(&m);
	CHECK_INT(c[52] == 0x00 && c[55] == 0x01 && c[56] == 32, 1);
	c[56] = 33;
	CHECK_INT(gcov_parse(c, m.len, "o.gcda", &f, err, sizeof err), -1);
	CHECK(strstr(err, "offset 52") && strstr(err, "multiple of 8"));
	damage_close(&m);
}

TEST(gcov_read_foreign_byte_order)
{
	/* a .gcda is all 32-bit words: swapping each gives the file a big-endian host writes */
	size_t len;
	unsigned char *d = corpus_file("seed.gcda", &len);
	struct gcov_file le, be;
	char err[300] = "";
	if (!d || len % 4) {
		CHECK(!d || len % 4 == 0);
		free(d);
		return;
	}
	unsigned char *s = xmalloc(len);
	for (size_t i = 0; i < len; i += 4)
		for (int k = 0; k < 4; k++)
			s[i + (size_t)k] = d[i + 3 - (size_t)k];
	CHECK_INT(gcov_parse(d, len, "le", &le, err, sizeof err), 0);
	CHECK_INT(gcov_parse(s, len, "be", &be, err, sizeof err), 0);
	CHECK_STR(err, "");
	CHECK_INT(be.version, le.version);
	CHECK_INT(be.stamp, le.stamp);
	CHECK_INT(be.nfn, le.nfn);
	for (int i = 0; i < be.nfn && i < le.nfn; i++) {
		CHECK_INT(be.fn[i].ident, le.fn[i].ident);
		CHECK_INT(be.fn[i].narc_counters, le.fn[i].narc_counters);
		for (uint32_t k = 0; be.fn[i].arcs && le.fn[i].arcs && k < be.fn[i].narc_counters; k++)
			CHECK_INT(be.fn[i].arcs[k], le.fn[i].arcs[k]);
	}
	gcov_file_free(&le);
	gcov_file_free(&be);
	free(s);
	free(d);
}

TEST(gcov_read_missing_file)
{
	struct gcov_file f;
	char err[300];
	CHECK_INT(gcov_read("/nonexistent/x.gcda", &f, err, sizeof err), -1);
	CHECK(strstr(err, "/nonexistent/x.gcda") != NULL);
}
