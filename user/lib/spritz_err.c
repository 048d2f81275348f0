// SPDX-License-Identifier: GPL-2.0-only
/*
 * The error-message helper every libspritz unit uses (spritz_err.h).
 */
#include <stdarg.h>
#include <stdio.h>

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
