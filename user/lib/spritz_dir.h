/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The host directory (spritz_dir, include/spritz/maps.h) as spritzctl
 * computes it: which destination prefix belongs to which switch.  Two
 * sources:
 *
 *   address plan  "PREFIX/L" (IPv6, L <= 48, no bit set past L): switch s
 *                 owns the /64 whose 16 bits after the prefix hold s, the
 *                 rest up to /64 zero; one entry per switch of the fabric.
 *   hosts file    one "ADDRESS[/PREFIXLEN] SWITCH" per line, IPv6 or IPv4,
 *                 "#" starts a comment, blank lines are skipped.  IPv4
 *                 a.b.c.d/n becomes ::ffff:a.b.c.d/96+n (the LPM key of
 *                 maps.h).  Without /PREFIXLEN an address is a host route
 *                 (/128, /32).
 *
 * Functions return 0 or a negative errno; the parsers leave a message in
 * @err (hosts file errors start with "FILE:LINE: "; NULL: none).  On error the output
 * (@p, @out) is left as it was.
 */
#ifndef _SPRITZ_DIR_H
#define _SPRITZ_DIR_H

#include <stddef.h>
#include <stdint.h>

struct spritz_dir_entry {
	uint8_t addr[16]; /* IPv6 or v4-mapped, bits past prefixlen zero */
	uint32_t prefixlen; /* of addr: IPv4 /n is 96 + n */
	uint32_t sw; /* destination switch */
	uint32_t line; /* hosts file line, 0 for an address plan */
};

struct spritz_dir_list {
	struct spritz_dir_entry *e;
	size_t n, cap;
};

/* Append @e to @l (grown as needed); -ENOMEM. */
int spritz_dir_list_push(struct spritz_dir_list *l, const struct spritz_dir_entry *e);

struct spritz_plan {
	uint8_t prefix[16];
	int plen; /* 0..48 */
};

/*
 * "PREFIX/L", IPv6, L <= 48, no bit set past L (as in a hosts file);
 * -EINVAL otherwise, with the reason in @err.
 */
int spritz_plan_parse(const char *s, struct spritz_plan *p, char *err, size_t errlen);

/*
 * One /64 entry per switch 0..nsw-1 into @out (its entries replaced);
 * -ERANGE if nsw > SPRITZ_DIR_MAX or the plan's length is not 0..48.
 */
int spritz_plan_entries(const struct spritz_plan *p, uint32_t nsw, struct spritz_dir_list *out);

/*
 * Read a hosts file into @out (its entries replaced), sorted by prefix.
 * Switch ids must be below @nsw.  -EINVAL for a malformed, out-of-range or
 * duplicate line, a line over 512 characters, a NUL byte or a file without
 * entries (@err: "FILE:LINE: reason"), -errno if the file cannot be read.
 */
int spritz_hosts_load(const char *path, uint32_t nsw, struct spritz_dir_list *out, char *err,
		      size_t errlen);

/* The same from @len bytes of @text, named @name in messages. */
int spritz_hosts_parse(const char *text, size_t len, const char *name, uint32_t nsw,
		       struct spritz_dir_list *out, char *err, size_t errlen);

/* Sort by (prefixlen, addr) for spritz_dir_find(). */
void spritz_dir_sort(struct spritz_dir_list *l);

/* The entry with exactly this prefix in a sorted list, or NULL. */
const struct spritz_dir_entry *spritz_dir_find(const struct spritz_dir_list *l,
					       const uint8_t addr[16], uint32_t prefixlen);

/* "fd00:3::/64", or "10.0.3.0/24" for a v4-mapped prefix of at least /96. */
void spritz_dir_format(const uint8_t addr[16], uint32_t prefixlen, char *buf, size_t len);

void spritz_dir_free(struct spritz_dir_list *l);

#endif /* _SPRITZ_DIR_H */
