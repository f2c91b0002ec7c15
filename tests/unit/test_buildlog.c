/* test_buildlog.c - unit tests of build-log reading (compile commands, diagnostics tied to
 * objects, NUL bytes), the profile flags of a command line, ELF section names, strmap. */
#include "format/buildlog.h"
#include "lib/elf.h"
#include "format/stamp.h"
#include "lib/strmap.h"
#include "unit.h"
#include "lib/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

TEST(profile_flags_last_option_wins)
{
	CHECK_INT(profile_flags("gcc -O2 -fprofile-use -c -o a.o a.c"), PROFILE_FLAG_USE);
	CHECK_INT(profile_flags("clang -fprofile-instr-use=x.profdata -c a.c"), PROFILE_FLAG_USE);
	CHECK_INT(profile_flags("gcc -fprofile-use -fno-profile-use -c a.c"), 0);
	CHECK_INT(profile_flags("gcc -fprofile-generate -c a.c"), PROFILE_FLAG_GENERATE);
	CHECK_INT(profile_flags("clang -fprofile-use=p -fcs-profile-generate -c a.c"), PROFILE_FLAG_USE | PROFILE_FLAG_GENERATE);
	CHECK_INT(profile_flags("Debian clang version 14.0.6"), -1);
	CHECK_INT(profile_flags("GNU C17 12.2.0 -mtune=generic -g -O2"), 0);
}

static char *write_temp(const char *data, size_t len)
{
	char *path = xstrdup("/tmp/profopt-unit-log.XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		CHECK(0);
	if (fd >= 0)
		close(fd);
	return path;
}

TEST(build_log_ties_diagnostics_to_objects)
{
	static const char log[] = "make[1]: Entering directory '/b'\n"
				  "gcc -O2 -fprofile-use -DX='\"a b\"' -c -o Python/ceval.o ../src/Python/ceval.c\n"
				  "gcc -O2 -c -o Objects/a.o ../src/Objects/a.c\n"
				  "clang -fprofile-use=p -c ./m.c\n"
				  "../src/Python/ceval.c:9:1: warning: profile for function 'f' not found [-Wmissing-profile]\n"
				  "warning: profile data may be out of date: of 1 function, 1 has mismatched data\n"
				  "clang -c -O3 -fprofile-instr-use=p \\\n"
				  "\t-DX=\\\"y\\\" \\\n"
				  "\t-o Python/sysmodule.o ../src/Python/sysmodule.c\n"
				  "make[1]: Leaving directory '/b'\n"
				  "gcc -fprofile-use -c -o /b/sub/x.o x.c\n"
				  "junk \0 x.c:1:1: warning: profile data may be corrupted\n";
	char *path = write_temp(log, sizeof log - 1);
	struct build_log l;
	CHECK_INT(build_log_read(&l, path, "/b"), 0);
	CHECK_INT(l.nc, 5);
	CHECK_INT(l.count[LOG_MISSING], 1);
	CHECK_INT(l.count[LOG_STALE], 1);
	CHECK_INT(l.count[LOG_CORRUPTED], 1); /* after a NUL byte */
	const struct log_compile *c = build_log_compile(&l, "Python/ceval.o");
	CHECK(c != NULL);
	if (c) {
		CHECK_INT(c->flags, PROFILE_FLAG_USE);
		CHECK_INT(c->line, 2);
		CHECK_INT(c->complaint, 0);
	}
	c = build_log_compile(&l, "Objects/a.o");
	CHECK(c && c->flags == 0 && c->complaint < 0);
	/* no -o: the object is named after the source, in make's directory; a message naming no
	 * file is tied to no object (a parallel build interleaves output) */
	c = build_log_compile(&l, "m.o");
	CHECK(c && c->flags == PROFILE_FLAG_USE && c->complaint < 0);
	CHECK_INT(l.unattributed, 1);
	CHECK(build_log_compile(&l, "sub/x.o") != NULL);
	/* a command make echoed over three lines */
	c = build_log_compile(&l, "Python/sysmodule.o");
	CHECK(c && c->flags == PROFILE_FLAG_USE && c->line == 7);
	if (l.n == 3)
		CHECK(strchr(l.m[2].text, '\0') == l.m[2].text + strlen(l.m[2].text));
	build_log_free(&l);
	unlink(path);
	free(path);
}

/* A message belongs to the latest compile of its source before it: an earlier compile's
 * complaint is not the object's last compile's; gcc's "not found" names go to their compile. */
TEST(build_log_message_belongs_to_the_compile_before_it)
{
	static const char log[] = "x.c:1:1: warning: profile data may be out of date\n"
				  "gcc -fprofile-use -c -o x.o x.c\n"
				  "x.c:2:1: warning: coverage mismatch for function 'f'\n"
				  "gcc -fprofile-use -c -o y.o y.c\n"
				  "y.c:3:5: warning: profile for function \xe2\x80\x98g\xe2\x80\x99 not found in profile data [-Wmissing-profile]\n"
				  "y.c:4:5: warning: profile for function 'h' not found in profile data [-Wmissing-profile]\n"
				  "gcc -fprofile-use -c -o x.o x.c\n";
	char *path = write_temp(log, sizeof log - 1);
	struct build_log l;
	CHECK_INT(build_log_read(&l, path, NULL), 0);
	CHECK_INT(l.nc, 3);
	const struct log_compile *x = build_log_compile(&l, "x.o"), *y = build_log_compile(&l, "y.o");
	CHECK(x && x->line == 7 && x->complaint < 0 && !x->missing_fns);
	CHECK(l.c[0].complaint == 1);
	CHECK(y && y->complaint < 0 && y->missing_fns && y->missing_first == 2);
	if (y && y->missing_fns) {
		CHECK(strmap_get(y->missing_fns, "g") != NULL);
		CHECK(strmap_get(y->missing_fns, "h") != NULL);
		CHECK_INT((int)y->missing_fns->n, 2);
	}
	build_log_free(&l);
	unlink(path);
	free(path);
}

/* Every listed message names the log, however many there are (printable() reuses its slots). */
TEST(build_log_print_names_the_log_on_every_line)
{
	struct buf b = {0};
	for (int i = 0; i < 40; i++)
		buf_printf(&b, "m%d.c:1:1: warning: profile count data file not found [-Wmissing-profile]\n", i);
	char *path = write_temp(b.data, b.len);
	struct build_log l;
	CHECK_INT(build_log_read(&l, path, NULL), 0);
	CHECK_INT(l.count[LOG_MISSING], 40);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	build_log_print(&l, out, -1);
	fclose(out);
	int named = 0;
	for (char *p = strstr(text, "\n"); p && p[1]; p = strstr(p + 1, "\n"))
		named += strncmp(p + 3, path, strlen(path)) == 0;
	CHECK_INT(named, 40);
	free(text);
	build_log_free(&l);
	unlink(path);
	free(path);
	free(b.data);
}

static void count_sections(const char *name, void *arg)
{
	(void)name;
	++*(int *)arg;
}

TEST(elf_sections_refuses_damage)
{
	char err[300] = "";
	int n = 0;
	/* a valid 64-bit little-endian header whose section table lies past the end */
	unsigned char h[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
	h[0x28] = 0x00, h[0x29] = 0x10;   /* e_shoff 4096 */
	h[0x3a] = 64, h[0x3c] = 3, h[0x3e] = 1;
	char *path = write_temp((const char *)h, sizeof h);
	CHECK_INT(elf_sections(path, count_sections, &n, err, sizeof err), -1);
	CHECK(strstr(err, "actual/expected") != NULL);
	CHECK_INT(n, 0);
	unlink(path);
	free(path);
	path = write_temp("BC\xc0\xde not elf", 12);
	CHECK_INT(elf_sections(path, count_sections, &n, err, sizeof err), 1);
	unlink(path);
	free(path);
}

TEST(strmap_grows_and_finds)
{
	struct strmap m = {0};
	char key[32];
	for (int i = 0; i < 5000; i++) {
		snprintf(key, sizeof key, "k%d", i);
		*strmap_slot(&m, key, 1) = (void *)(intptr_t)(i + 1);
	}
	CHECK_INT(m.n, 5000);
	CHECK_INT((intptr_t)strmap_get(&m, "k4321"), 4322);
	CHECK(strmap_get(&m, "nope") == NULL);
	strmap_free(&m, NULL);
}

TEST(stamp_records_are_checked)
{
	char err[200];
	static const char good[] = "{\"stage\": \"x\", \"status\": \"ok\", \"seconds\": 1.0}";
	json_t *rec = stamp_parse(good, sizeof good - 1, "the record", err, sizeof err);
	CHECK(rec != NULL);
	json_decref(rec);
	CHECK(stamp_parse("{\"stage\": \"a\"b\"}", 15, "the record", err, sizeof err) == NULL);
	CHECK(strstr(err, "not JSON") != NULL);
	CHECK(stamp_parse("{\"hello\": 1}", 12, "the record", err, sizeof err) == NULL);
	CHECK(strstr(err, "foreign") != NULL);
	CHECK(stamp_parse("{\"stage\": \"x\", \"status\": \"ok\"}\0x", 32, "the record", err, sizeof err) == NULL);
}
