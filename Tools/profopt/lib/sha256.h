/* sha256.h - SHA-256 of files, by OpenSSL's libcrypto. */
#ifndef PROFOPT_SHA256_H
#define PROFOPT_SHA256_H

#define SHA256_HEX_LEN 64

/* What is left to read from fd, as lowercase hex: 0, or -1 with errno set. */
int sha256_fd(int fd, char out[SHA256_HEX_LEN + 1]);
/* The same for a file (symbolic links followed). */
int sha256_file(const char *path, char out[SHA256_HEX_LEN + 1]);
/* Whether s is 64 hex digits (either case) and nothing else. */
int sha256_is_hex(const char *s);

#endif
