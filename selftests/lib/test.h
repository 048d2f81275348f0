/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small test harness in the style of the kernel's
 * tools/testing/selftests/bpf/test_progs: a test binary is a table of named
 * subtests, each subtest uses ASSERT_*() (which print what went wrong and
 * evaluate to true on success), and the binary prints KTAP/TAP:
 *
 *	TAP version 13
 *	1..3
 *	ok 1 dragonfly_degrees
 *	not ok 2 slimfly_diameter
 *	ok 3 gf9 # SKIP reason
 *
 * Exit status follows kselftest: 0 all passed, 1 something failed,
 * 4 (KSFT_SKIP) everything was skipped.  "-t NAME" runs one subtest.
 */
#ifndef SPRITZ_SELFTEST_H
#define SPRITZ_SELFTEST_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spritz/abi.h>

#define KSFT_PASS 0
#define KSFT_FAIL 1
#define KSFT_SKIP 4

struct test_case {
	const char *name;
	void (*run)(void);
};

struct test_state {
	int failed;  /* assertions failed in the current subtest */
	bool skipped;
	char skip_reason[128];
};

extern struct test_state test__state;

static inline void test__vfail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline void test__vfail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	test__state.failed++;
	printf("# %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* Mark the running subtest as skipped (a feature is really missing). */
static inline void test__skip(const char *reason)
{
	test__state.skipped = true;
	snprintf(test__state.skip_reason, sizeof(test__state.skip_reason), "%s", reason);
}

#define test__fail(...) test__vfail(__FILE__, __LINE__, __VA_ARGS__)

#define ASSERT_TRUE(cond, name)                                       \
	({                                                            \
		bool ___ok = (cond);                                  \
		if (!___ok)                                           \
			test__fail("%s: unexpected false", (name));   \
		___ok;                                                \
	})

#define ASSERT_FALSE(cond, name) ASSERT_TRUE(!(cond), name)

#define ASSERT_OK(res, name)                                               \
	({                                                                 \
		long long ___res = (res);                                  \
		bool ___ok = ___res == 0;                                  \
		if (!___ok)                                                \
			test__fail("%s: unexpected error: %lld", (name), ___res); \
		___ok;                                                     \
	})

#define ASSERT_ERR(res, name)                                       \
	({                                                          \
		long long ___res = (res);                           \
		bool ___ok = ___res < 0;                            \
		if (!___ok)                                         \
			test__fail("%s: unexpected success: %lld", (name), ___res); \
		___ok;                                              \
	})

#define ASSERT_NULL(ptr, name) ASSERT_TRUE((ptr) == NULL, name)
#define ASSERT_OK_PTR(ptr, name)                                      \
	({                                                            \
		const void *___p = (ptr);                             \
		bool ___ok = ___p != NULL;                            \
		if (!___ok)                                           \
			test__fail("%s: unexpected NULL", (name));    \
		___ok;                                                \
	})

#define __ASSERT_CMP(a, b, op, name)                                                 \
	({                                                                           \
		long long ___a = (long long)(a), ___b = (long long)(b);              \
		bool ___ok = ___a op ___b;                                           \
		if (!___ok)                                                          \
			test__fail("%s: unexpected %lld %s %lld is false", (name), ___a, #op, ___b); \
		___ok;                                                               \
	})

#define ASSERT_EQ(a, b, name) __ASSERT_CMP(a, b, ==, name)
#define ASSERT_NEQ(a, b, name) __ASSERT_CMP(a, b, !=, name)
#define ASSERT_LT(a, b, name) __ASSERT_CMP(a, b, <, name)
#define ASSERT_LE(a, b, name) __ASSERT_CMP(a, b, <=, name)
#define ASSERT_GT(a, b, name) __ASSERT_CMP(a, b, >, name)
#define ASSERT_GE(a, b, name) __ASSERT_CMP(a, b, >=, name)

/* Compare doubles to an absolute tolerance. */
#define ASSERT_NEAR(a, b, tol, name)                                                   \
	({                                                                             \
		double ___a = (a), ___b = (b), ___t = (tol);                           \
		bool ___ok = (___a - ___b <= ___t) && (___b - ___a <= ___t);           \
		if (!___ok)                                                            \
			test__fail("%s: %.6f not within %.6f of %.6f", (name), ___a, ___t, ___b); \
		___ok;                                                                 \
	})

#define ASSERT_STREQ(a, b, name)                                               \
	({                                                                     \
		const char *___a = (a), *___b = (b);                           \
		bool ___ok = ___a && ___b && strcmp(___a, ___b) == 0;          \
		if (!___ok)                                                    \
			test__fail("%s: \"%s\" != \"%s\"", (name), ___a ? ___a : "(null)", \
				   ___b ? ___b : "(null)");                    \
		___ok;                                                         \
	})

#define ASSERT_MEMEQ(a, b, len, name)                                         \
	({                                                                    \
		const unsigned char *___a = (const void *)(a), *___b = (const void *)(b); \
		size_t ___n = (len), ___i;                                    \
		bool ___ok = memcmp(___a, ___b, ___n) == 0;                   \
		if (!___ok) {                                                 \
			for (___i = 0; ___i < ___n && ___a[___i] == ___b[___i]; ___i++) \
				;                                             \
			test__fail("%s: differ at byte %zu: 0x%02x != 0x%02x", (name), ___i, \
				   ___a[___i], ___b[___i]);                   \
		}                                                             \
		___ok;                                                        \
	})

/*
 * One definition per test binary: TEST_MAIN(cases) expands to main().
 */
#define TEST_MAIN(cases)                                                    \
	struct test_state test__state;                                      \
	int main(int argc, char **argv)                                     \
	{                                                                   \
		return test_main((cases), ARRAY_SIZE(cases), argc, argv); \
	}

static inline int test_main(const struct test_case *cases, size_t n, int argc, char **argv)
{
	const char *only = NULL;
	size_t i, ran = 0, fails = 0, skips = 0;

	if (argc == 3 && strcmp(argv[1], "-t") == 0)
		only = argv[2];
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	for (i = 0; i < n; i++)
		if (!only || strcmp(only, cases[i].name) == 0)
			ran++;
	printf("1..%zu\n", ran);
	ran = 0;
	for (i = 0; i < n; i++) {
		if (only && strcmp(only, cases[i].name) != 0)
			continue;
		memset(&test__state, 0, sizeof(test__state));
		cases[i].run();
		ran++;
		if (test__state.failed) {
			fails++;
			printf("not ok %zu %s\n", ran, cases[i].name);
		} else if (test__state.skipped) {
			skips++;
			printf("ok %zu %s # SKIP %s\n", ran, cases[i].name, test__state.skip_reason);
		} else {
			printf("ok %zu %s\n", ran, cases[i].name);
		}
	}
	printf("# %zu passed, %zu failed, %zu skipped\n", ran - fails - skips, fails, skips);
	if (fails)
		return KSFT_FAIL;
	if (ran && skips == ran)
		return KSFT_SKIP;
	return KSFT_PASS;
}

#endif /* SPRITZ_SELFTEST_H */
