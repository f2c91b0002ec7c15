/* test_sha256.c - unit tests of the SHA-256 helpers and the manifest facts (JSON). */
#include "format/facts.h"
#include "lib/sha256.h"
#include "unit.h"
#include "lib/output.h"
#include "lib/util.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

/* The SHA-256 of text, as sha256_fd reads it from a file. */
static void sha256_text(const char *text, char out[SHA256_HEX_LEN + 1])
{
	char path[] = "/tmp/profopt-unit-sha.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK_INT(write(fd, text, strlen(text)), (long long)strlen(text));
	lseek(fd, 0, SEEK_SET);
	CHECK_INT(sha256_fd(fd, out), 0);
	close(fd);
	unlink(path);
}

TEST(sha256_published_vectors)
{
	char out[SHA256_HEX_LEN + 1];
	sha256_text("", out);
	CHECK_STR(out, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	sha256_text("abc", out);
	CHECK_STR(out, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	sha256_text("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", out);
	CHECK_STR(out, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	/* a million 'a': more than one read block of sha256_fd */
	char path[] = "/tmp/profopt-unit-sha.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	char *a = xmalloc(1000000);
	memset(a, 'a', 1000000);
	CHECK_INT(write(fd, a, 1000000), 1000000);
	CHECK_INT(sha256_file(path, out), 0);
	CHECK_STR(out, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	lseek(fd, 0, SEEK_SET);
	CHECK_INT(sha256_fd(fd, out), 0);
	CHECK_STR(out, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	close(fd);
	unlink(path);
	free(a);
	CHECK_INT(sha256_file("/nonexistent/profopt", out), -1);
}

TEST(sha256_is_hex)
{
	CHECK(sha256_is_hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
	CHECK(sha256_is_hex("BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD"));
	CHECK(!sha256_is_hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015a"));
	CHECK(!sha256_is_hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad0"));
	CHECK(!sha256_is_hex("ga7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
	CHECK(!sha256_is_hex(""));
}

/* A manifest written on one line, in any order, with escapes: read as JSON. */
TEST(facts_json_any_layout)
{
	char path[] = "/tmp/profopt-unit-facts.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	const char *doc = "{\"b\":\"x\\\"y\",\"a\":\"\\u00fc\\n\",\"c\":\"\"}";
	CHECK_INT(write(fd, doc, strlen(doc)), (long long)strlen(doc));
	close(fd);
	struct facts f = {0};
	char err[200] = "";
	CHECK_INT(facts_load_json(&f, path, err, sizeof err), 0);
	CHECK_STR(facts_get(&f, "b"), "x\"y");
	CHECK_STR(facts_get(&f, "a"), "\xc3\xbc\n");
	CHECK_STR(facts_get(&f, "c"), "");
	/* written and read back: the same facts */
	facts_write_json(&f, path);
	struct facts g = {0};
	CHECK_INT(facts_load_json(&g, path, err, sizeof err), 0);
	CHECK_INT(json_object_size(g.obj), 3);
	CHECK_STR(facts_get(&g, "b"), "x\"y");
	CHECK_STR(facts_get(&g, "a"), "\xc3\xbc\n");
	facts_free(&g);
	/* not an object of strings, or not JSON: refused with the reason */
	const char *bad[] = {"[1]", "{\"a\": 1}", "{\"a\": null}", "{\"a\": \"x\", \"a\": \"y\"}", "{\"a\": \"x\"", ""};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		CHECK_INT(write_file_atomic(path, bad[i], strlen(bad[i])), 0);
		struct facts h = {0};
		err[0] = '\0';
		if (facts_load_json(&h, path, err, sizeof err) != -1)
			unit_fail(__FILE__, __LINE__, "accepted %s", bad[i]);
		CHECK(err[0] != '\0');
		facts_free(&h);
	}
	facts_free(&f);
	unlink(path);
}
