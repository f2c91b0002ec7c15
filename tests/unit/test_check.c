/* test_check.c - unit tests of source fingerprints: the FNV-1a hash and the manifest. */
#include "fingerprint.h"
#include "unit.h"
#include "util.h"

#include <stdlib.h>
#include <unistd.h>

TEST(fnv1a64_vectors)
{
	/* published FNV-1a 64 test vectors */
	CHECK(fnv1a64("", 0, FNV1A64_INIT) == 0xcbf29ce484222325ull);
	CHECK(fnv1a64("a", 1, FNV1A64_INIT) == 0xaf63dc4c8601ec8cull);
	CHECK(fnv1a64("foobar", 6, FNV1A64_INIT) == 0x85944171f73967e8ull);
	/* chunked == whole */
	CHECK(fnv1a64("bar", 3, fnv1a64("foo", 3, FNV1A64_INIT)) == 0x85944171f73967e8ull);
}

TEST(manifest_roundtrip_and_change)
{
	char dir[] = "/tmp/profopt-unit.XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0);
		return;
	}
	char *a = xasprintf("%s/a.c", dir), *b = xasprintf("%s/b.txt", dir), *m = xasprintf("%s/fp", dir);
	CHECK_INT(write_file_atomic(a, "int a;\n", 7), 0);
	CHECK_INT(write_file_atomic(b, "text\n", 5), 0);
	const char *suffixes[] = {".c", ".h", NULL};
	struct manifest s, r;
	char err[300];
	CHECK_INT(manifest_scan(&s, dir, suffixes, NULL), 0);
	CHECK_INT(s.n, 1);
	CHECK_STR(s.e[0].path, "a.c");
	CHECK_INT(s.e[0].size, 7);
	CHECK(s.e[0].hash == fnv1a64("int a;\n", 7, FNV1A64_INIT));
	CHECK_INT(manifest_write(&s, m), 0);
	CHECK_INT(manifest_read(&r, m, err, sizeof err), 0);
	CHECK_INT(r.n, 1);
	CHECK_STR(r.e[0].path, "a.c");
	CHECK(r.e[0].hash == s.e[0].hash);
	CHECK_STR(r.root, s.root);
	manifest_free(&r);
	/* garbage is refused with the file and line */
	CHECK_INT(write_file_atomic(m, "# profopt source fingerprints 1\nzz\n", 35), 0);
	CHECK_INT(manifest_read(&r, m, err, sizeof err), -1);
	CHECK(strstr(err, ":2:") != NULL);
	CHECK_INT(write_file_atomic(m, "hello\n", 6), 0);
	CHECK_INT(manifest_read(&r, m, err, sizeof err), -1);
	CHECK(strstr(err, "not a profopt fingerprint") != NULL);
	manifest_free(&s);
	unlink(a);
	unlink(b);
	unlink(m);
	rmdir(dir);
	free(a);
	free(b);
	free(m);
}
