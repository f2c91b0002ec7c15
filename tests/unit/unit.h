/* unit.h - a tiny unit test harness.  TEST(name) { ... } defines and registers a test (by a
 * constructor, so test files need no central table); CHECK* record failures and go on. */
#ifndef PROFOPT_UNIT_H
#define PROFOPT_UNIT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*unit_fn)(void);
void unit_register(const char *name, const char *file, unit_fn fn);
void unit_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define TEST(name)                                                                \
	static void test_##name(void);                                            \
	__attribute__((constructor)) static void register_##name(void)            \
	{                                                                         \
		unit_register(#name, __FILE__, test_##name);                      \
	}                                                                         \
	static void test_##name(void)

#define CHECK(cond)                                                               \
	do {                                                                      \
		if (!(cond))                                                      \
			unit_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);        \
	} while (0)
#define CHECK_INT(actual, expected)                                               \
	do {                                                                      \
		long long a_ = (long long)(actual), e_ = (long long)(expected);   \
		if (a_ != e_)                                                     \
			unit_fail(__FILE__, __LINE__, "%s: got %lld, expected %lld", #actual, a_, e_); \
	} while (0)
#define CHECK_STR(actual, expected)                                               \
	do {                                                                      \
		const char *a_ = (actual), *e_ = (expected);                      \
		if (!a_ || !e_ || strcmp(a_, e_) != 0)                            \
			unit_fail(__FILE__, __LINE__, "%s: got \"%s\", expected \"%s\"", #actual, \
				  a_ ? a_ : "(null)", e_ ? e_ : "(null)");        \
	} while (0)
/* CHECK_STR of a malloc'd result, which it frees. */
#define CHECK_STR_FREE(actual, expected)                                          \
	do {                                                                      \
		char *f_ = (actual);                                              \
		CHECK_STR(f_, expected);                                          \
		free(f_);                                                         \
	} while (0)
#define CHECK_NEAR(actual, expected, tol)                                         \
	do {                                                                      \
		double a_ = (actual), e_ = (expected);                            \
		if (!(a_ - e_ <= (tol) && e_ - a_ <= (tol)))                      \
			unit_fail(__FILE__, __LINE__, "%s: got %.9g, expected %.9g", #actual, a_, e_); \
	} while (0)

#endif
