/* test_check.c - unit tests of source fingerprints: hashing a tree, the fingerprint file. */
#include "format/fingerprint.h"
#include "unit.h"
#include "lib/output.h"
#include "lib/util.h"

#include <stdlib.h>
#include <unistd.h>

TEST(fingerprint_roundtrip_and_change)
{
	char dir[] = "/tmp/profopt-unit.XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0);
		return;
	}
	char *a = xasprintf("%s/a.c", dir), *b = xasprintf("%s/b.txt", dir), *m = xasprintf("%s/fp", dir);
	CHECK_INT(write_file_atomic(a, "abc", 3), 0);
	CHECK_INT(write_file_atomic(b, "text\n", 5), 0);
	const char *suffixes[] = {".c", ".h", NULL};
	struct fingerprint s, r;
	char err[300] = "";
	fingerprint_scan(&s, dir, suffixes, NULL);
	CHECK_INT(s.n, 1);
	if (s.n == 1) {
		CHECK_STR(s.e[0].path, "a.c");
		CHECK_INT(s.e[0].size, 3);
		/* the published SHA-256 of "abc" */
		CHECK_STR(s.e[0].hash, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	}
	fingerprint_write(&s, m);
	CHECK_INT(fingerprint_read(&r, m, err, sizeof err), 0);
	CHECK_INT(r.n, 1);
	if (r.n == 1 && s.n == 1) {
		CHECK_STR(r.e[0].path, "a.c");
		CHECK_STR(r.e[0].hash, s.e[0].hash);
	}
	CHECK_STR(r.root, s.root);
	fingerprint_free(&r);
	/* garbage is refused with the file and line */
	CHECK_INT(write_file_atomic(m, "# profopt source fingerprints 2\nzz 1 a.c\n", 41), 0);
	CHECK_INT(fingerprint_read(&r, m, err, sizeof err), -1);
	CHECK(strstr(err, ":2:") != NULL);
	CHECK_INT(write_file_atomic(m, "hello\n", 6), 0);
	CHECK_INT(fingerprint_read(&r, m, err, sizeof err), -1);
	CHECK(strstr(err, "not a profopt source fingerprint") != NULL);
	fingerprint_free(&s);
	unlink(a);
	unlink(b);
	unlink(m);
	rmdir(dir);
	free(a);
	free(b);
	free(m);
}

/* Hashed in this process: a name with a backslash or a leading dash is hashed like any other. */
TEST(fingerprint_scan_any_name)
{
	char dir[] = "/tmp/profopt-unit.XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0);
		return;
	}
	char *a = xasprintf("%s/a\\b.c", dir), *b = xasprintf("%s/-rf.c", dir);
	CHECK_INT(write_file_atomic(a, "abc", 3), 0);
	CHECK_INT(write_file_atomic(b, "abc", 3), 0);
	const char *suffixes[] = {".c", NULL};
	struct fingerprint s;
	fingerprint_scan(&s, dir, suffixes, NULL);
	CHECK_INT(s.n, 2);
	for (int i = 0; i < s.n; i++)
		CHECK_STR(s.e[i].hash, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	fingerprint_free(&s);
	unlink(a), unlink(b), rmdir(dir);
	free(a), free(b);
}
