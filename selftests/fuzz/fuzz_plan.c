// SPDX-License-Identifier: GPL-2.0-only
/*
 * Address plans (user/lib/spritz_dir.c: spritz_plan_parse(), the
 * --addr-plan PREFIX/L of spritzctl up and reload, and
 * spritz_plan_entries()).  The input is the plan string.
 *
 * Promises checked: an error says why and leaves the plan as it was; an
 * accepted plan has 0 <= L <= 48 and no bit set past L, expands to one /64 per switch whose first L bits are
 * the prefix's and whose next 16 bits are the switch id, sorted, each
 * found by spritz_dir_find().
 */
#include <errno.h>

#include "fuzz.h"
#include "spritz_dir.h"

#define FUZZ_NSW 300

static unsigned int bit_of(const uint8_t *a, int bit)
{
	return (a[bit / 8] >> (7 - bit % 8)) & 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spritz_plan p = { .prefix = { 0x5a }, .plen = -3 };
	struct spritz_dir_list l = { 0 };
	char *s = fuzz_string(data, size), err[256] = "";
	size_t i;
	int ret, bit;

	if (!s)
		return 0;
	ret = spritz_plan_parse(s, &p, err, sizeof(err));
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL, "ret %d", ret);
		FUZZ_CHECK(err[0], "\"%s\": refused without a reason", s);
		FUZZ_CHECK(p.plen == -3 && p.prefix[0] == 0x5a, "a rejected plan changed the plan");
		goto out;
	}
	FUZZ_CHECK(p.plen >= 0 && p.plen <= 48, "\"%s\": /%d", s, p.plen);
	for (bit = p.plen; bit < 128; bit++)
		FUZZ_CHECK(!bit_of(p.prefix, bit), "\"%s\": bit %d set past /%d", s, bit, p.plen);
	ret = spritz_plan_entries(&p, FUZZ_NSW, &l);
	FUZZ_CHECK(!ret && l.n == FUZZ_NSW, "\"%s\": %d, %zu entries", s, ret, l.n);
	for (i = 0; i < l.n; i++) {
		const struct spritz_dir_entry *e = &l.e[i];
		unsigned int sw = 0;

		FUZZ_CHECK(e->prefixlen == 64 && e->sw < FUZZ_NSW, "entry %zu", i);
		for (bit = 0; bit < p.plen; bit++)
			FUZZ_CHECK(bit_of(e->addr, bit) == bit_of(p.prefix, bit),
				   "entry %zu: bit %d not the prefix's", i, bit);
		for (bit = p.plen; bit < p.plen + 16; bit++)
			sw = sw << 1 | bit_of(e->addr, bit);
		FUZZ_CHECK(sw == e->sw, "entry %zu: bits hold %u, switch %u", i, sw, e->sw);
		for (bit = p.plen + 16; bit < 128; bit++)
			FUZZ_CHECK(!bit_of(e->addr, bit), "entry %zu: bit %d set", i, bit);
		if (i)
			FUZZ_CHECK(memcmp(l.e[i - 1].addr, e->addr, 16) < 0, "entry %zu: order", i);
		FUZZ_CHECK(spritz_dir_find(&l, e->addr, 64) == e, "entry %zu not found", i);
	}
out:
	spritz_dir_free(&l);
	free(s);
	return 0;
}
