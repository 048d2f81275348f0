// SPDX-License-Identifier: GPL-2.0-only
/*
 * The error-message helper every libspritz unit uses, and its number
 * parser (spritz_err.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "spritz_err.h"

void spritz_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

long spritz_parse_dec(const char *s, long max)
{
	char *end;
	long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 0 || v > max)
		return -1;
	return v;
}

long spritz_parse_milli(const char *s, long max)
{
	long v = 0;
	int frac = -1;

	if (!s || !*s || max < 0)
		return -1;
	for (; *s; s++) {
		if (*s == '.' && frac < 0) {
			frac = 0;
			continue;
		}
		if (*s < '0' || *s > '9' || frac >= 3 || v > (max - (*s - '0')) / 10)
			return -1;
		v = v * 10 + (*s - '0');
		if (frac >= 0)
			frac++;
	}
	if (frac == 0)
		return -1;
	for (frac = frac < 0 ? 0 : frac; frac < 3; frac++) {
		if (v > max / 10)
			return -1;
		v *= 10;
	}
	return v;
}
