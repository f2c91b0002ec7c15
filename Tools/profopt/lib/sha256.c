/* sha256.c - SHA-256 by libcrypto's EVP interface (see sha256.h). */
#include "lib/sha256.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int sha256_fd(int fd, char out[SHA256_HEX_LEN + 1])
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	if (!ctx || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1)
		fatal("libcrypto cannot compute SHA-256");
	static unsigned char block[1 << 16];
	ssize_t n;
	while ((n = read(fd, block, sizeof block)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			EVP_MD_CTX_free(ctx);
			errno = e;
			return -1;
		}
		EVP_DigestUpdate(ctx, block, (size_t)n);
	}
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	EVP_DigestFinal_ex(ctx, md, &len);
	EVP_MD_CTX_free(ctx);
	for (int i = 0; i < SHA256_HEX_LEN / 2; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
	return 0;
}

int sha256_file(const char *path, char out[SHA256_HEX_LEN + 1])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = sha256_fd(fd, out), e = errno;
	close(fd);
	errno = e;
	return rc;
}

int sha256_is_hex(const char *s)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");
	return n == SHA256_HEX_LEN && s[n] == '\0';
}
