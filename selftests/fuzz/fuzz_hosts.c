// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hosts files (user/lib/spritz_dir.c, spritz_hosts_parse()).  The input
 * is the file's bytes, NULs included; the fabric has FUZZ_NSW switches.
 *
 * Promises checked: an error leaves the caller's list as it was and names
 * the file; an accepted file gives entries sorted by (prefix length,
 * address), without duplicates, with no bit set past the prefix length,
 * switches below FUZZ_NSW, each found by spritz_dir_find(), and its text
 * form (spritz_dir_format()) read back as the same entry.
 */
#include <errno.h>

#include "fuzz.h"
#include "spritz_dir.h"

#define FUZZ_NSW 64

static void check_entry(const struct spritz_dir_list *l, size_t i)
{
	const struct spritz_dir_entry *e = &l->e[i];
	struct spritz_dir_list back = { 0 };
	char line[96], err[256];
	uint32_t bit;
	int ret;

	FUZZ_CHECK(e->prefixlen <= 128 && e->sw < FUZZ_NSW, "entry %zu: /%u switch %u", i,
		   e->prefixlen, e->sw);
	for (bit = e->prefixlen; bit < 128; bit++)
		FUZZ_CHECK(!(e->addr[bit / 8] & (0x80 >> (bit % 8))), "entry %zu: bit %u set", i,
			   bit);
	if (i)
		FUZZ_CHECK(l->e[i - 1].prefixlen < e->prefixlen ||
				   (l->e[i - 1].prefixlen == e->prefixlen &&
				    memcmp(l->e[i - 1].addr, e->addr, 16) < 0),
			   "entries %zu and %zu out of order or equal", i - 1, i);
	FUZZ_CHECK(spritz_dir_find(l, e->addr, e->prefixlen) == e, "entry %zu not found", i);
	spritz_dir_format(e->addr, e->prefixlen, line, sizeof(line) - 8);
	snprintf(line + strlen(line), 8, " %u\n", e->sw);
	ret = spritz_hosts_parse(line, strlen(line), "back", FUZZ_NSW, &back, err, sizeof(err));
	FUZZ_CHECK(!ret && back.n == 1, "\"%s\" does not read back: %s", line, err);
	FUZZ_CHECK(back.e[0].prefixlen == e->prefixlen && back.e[0].sw == e->sw &&
			   !memcmp(back.e[0].addr, e->addr, 16),
		   "\"%s\" reads back as another entry", line);
	spritz_dir_free(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct spritz_dir_entry mark = { .prefixlen = 7, .sw = 12345, .line = 42 };
	struct spritz_dir_list l = { 0 };
	char err[256] = "";
	size_t i;
	int ret;

	l.e = malloc(sizeof(mark));
	if (!l.e)
		return 0;
	l.e[0] = mark;
	l.n = l.cap = 1;
	ret = spritz_hosts_parse((const char *)data, size, "fuzz", FUZZ_NSW, &l, err, sizeof(err));
	if (ret) {
		FUZZ_CHECK(ret < 0, "ret %d", ret);
		FUZZ_CHECK(l.n == 1 && !memcmp(&l.e[0], &mark, sizeof(mark)),
			   "a rejected file changed the list");
		FUZZ_CHECK(!strncmp(err, "fuzz", 4), "message \"%s\" does not name the file", err);
	} else {
		FUZZ_CHECK(l.n >= 1, "accepted without entries");
		for (i = 0; i < l.n; i++)
			check_entry(&l, i);
	}
	spritz_dir_free(&l);
	return 0;
}
