/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * libspritz's error convention: every function returns 0 (or a count) on
 * success and a negative errno on failure; where it takes @err and @errlen
 * it also leaves a message there, in the form "failed to <verb> <object>:
 * <reason>" where it names what failed.  @err may be NULL.
 */
#ifndef _SPRITZ_ERR_H
#define _SPRITZ_ERR_H

#include <stddef.h>

/* printf into @err (if any); returns nothing so that callers can chain. */
void spritz_seterr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * A non-negative decimal number that fills all of @s, at most @max: digits
 * from the first character on (strtol() alone would skip blanks and take
 * a sign); -1 otherwise.  Every number of a TOPO string, a fabric file and
 * spritzctl's arguments.
 */
long spritz_parse_dec(const char *s, long max);

/*
 * "D[.DDD]" (digits, at most three decimals) in thousandths - ns as ps,
 * Gb/s as Mb/s - that fill all of @s, at most @max thousandths; -1
 * otherwise.  The cable lengths and link speeds of fabric files and of
 * spritzctl's options.
 */
long spritz_parse_milli(const char *s, long max);

/*
 * Test-only fault injection (spritz_fault.c).  A failure point is a name;
 * the production library always returns 0.  The build of spritzctl for the
 * tests ($(OUT)/selftests/spritzctl-fault) links a version that returns
 * @e when $SPRITZ_FAULT equals @point (Documentation/spritzctl.8, ENVIRONMENT).
 */
int spritz_fault(const char *point, int e);

#endif /* _SPRITZ_ERR_H */
