/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the libFuzzer targets (selftests/fuzz/fuzz_*.c, built by
 * "make fuzzers", run by selftests/fuzz/run).  A target parses one input
 * with libspritz and checks what the parser promises; a broken promise is
 * a crash (abort()), like a sanitizer report.
 */
#ifndef SPRITZ_FUZZ_H
#define SPRITZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken promise: say which and crash, so libFuzzer keeps the input. */
#define FUZZ_CHECK(cond, ...)                                                                    \
	do {                                                                                     \
		if (!(cond)) {                                                                   \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                                            \
			fputc('\n', stderr);                                                     \
			abort();                                                                 \
		}                                                                                \
	} while (0)

/* The input as a C string (up to its first NUL); free() it. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

#endif /* SPRITZ_FUZZ_H */
