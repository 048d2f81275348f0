// SPDX-License-Identifier: GPL-2.0-only
/*
 * The flow table's placement (include/spritz/flowtab.h), as the datapath
 * computes it: key comparison over every byte, sets in range and aligned
 * to their ways, keys of the hash that move flows, and a spread over the
 * sets no worse than ideal random placement allows, for the key shapes a
 * host makes (one address pair, many ports; IPv4-mapped tunnel flows).
 */
#include <arpa/inet.h>
#include <math.h>
#include <string.h>

#include <spritz/flowtab.h>

#include "test.h"

static struct spritz_flow_key key6(uint16_t sport, uint16_t dport)
{
	struct spritz_flow_key k;

	memset(&k, 0, sizeof(k));
	inet_pton(AF_INET6, "2001:db8::1", k.saddr);
	inet_pton(AF_INET6, "2001:db8:0:5::1", k.daddr);
	k.sport = sport;
	k.dport = dport;
	k.proto = 6;
	return k;
}

static struct spritz_flow_key key4(uint16_t sport, uint32_t dst)
{
	struct spritz_flow_key k;

	memset(&k, 0, sizeof(k));
	k.saddr[10] = k.saddr[11] = k.daddr[10] = k.daddr[11] = 0xff;
	k.saddr[12] = 10, k.saddr[15] = 1;
	memcpy(k.daddr + 12, &dst, 4);
	k.sport = sport;
	k.dport = 4789;
	k.proto = 17;
	return k;
}

/* One byte of the key changed at @off: a different flow (pad included). */
static void test_key_eq(void)
{
	static const size_t offs[] = { 0, 7, 15, 16, 24, 31, 32, 33, 34, 35, 36, 39 };
	struct spritz_flow_key a = key6(40000, 5201), b = a;
	char what[64];
	size_t i;

	ASSERT_TRUE(spritz_flow_key_eq(&a, &b), "same key");
	for (i = 0; i < ARRAY_SIZE(offs); i++) {
		b = a;
		((uint8_t *)&b)[offs[i]] ^= 0x01;
		snprintf(what, sizeof(what), "byte %zu differs", offs[i]);
		ASSERT_FALSE(spritz_flow_key_eq(&a, &b), what);
	}
}

/* A slot is in use when its key has a protocol. */
static void test_used(void)
{
	struct spritz_flow f;

	memset(&f, 0, sizeof(f));
	ASSERT_FALSE(spritz_flow_used(&f), "zeroed slot free");
	f.key = key6(1, 2);
	ASSERT_TRUE(spritz_flow_used(&f), "keyed slot used");
}

/* Every set index is the first way of a set inside the table. */
static void test_set_range(void)
{
	static const struct spritz_flow_hashkey zero, ones = {
		{ ~0U, ~0U, ~0U, ~0U, ~0U, ~0U, ~0U, ~0U, ~0U, ~0U }
	};
	const struct spritz_flow_hashkey *hks[] = { &zero, &ones };
	uint32_t p, s, bad = 0;
	size_t h;

	for (h = 0; h < ARRAY_SIZE(hks); h++)
		for (p = 0; p <= 0xffff; p++) {
			struct spritz_flow_key k = key6((uint16_t)p, (uint16_t)~p);

			s = spritz_flow_set(&k, hks[h]);
			bad += s % SPRITZ_FLOW_WAYS || s + SPRITZ_FLOW_WAYS > SPRITZ_FLOWS_MAX ||
			       s != spritz_flow_set(&k, hks[h]);
		}
	ASSERT_EQ(bad, 0, "sets aligned, in range, deterministic");
}

/* Another word of the hash keys moves most flows to another set. */
static void test_keys_move(void)
{
	struct spritz_flow_hashkey a = { { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 } }, b;
	uint32_t p, moved;
	char what[64];
	int w;

	for (w = 0; w < 10; w++) {
		b = a;
		b.k[w] ^= 0x80000001U;
		moved = 0;
		for (p = 0; p < 4096; p++) {
			struct spritz_flow_key k = key6((uint16_t)(32768 + p), 443);

			moved += spritz_flow_set(&k, &a) != spritz_flow_set(&k, &b);
		}
		snprintf(what, sizeof(what), "key word %d: flows moved of 4096", w);
		ASSERT_GE(moved, 4096 * 9 / 10, what);
	}
}

/*
 * Flows that find no way (more than SPRITZ_FLOW_WAYS in their set) when
 * @n keys from @make are placed, against the number ideal random
 * placement leaves (Poisson with mean n / sets): at most 1.5 times it.
 */
static void spread(const char *name, struct spritz_flow_key (*make)(uint32_t i), uint32_t n,
		   const struct spritz_flow_hashkey *hk)
{
	static uint16_t count[SPRITZ_FLOW_SETS];
	double lambda = (double)n / SPRITZ_FLOW_SETS, pk = exp(-lambda), ideal = 0;
	uint32_t i, over = 0;
	char what[96];
	int k;

	memset(count, 0, sizeof(count));
	for (i = 0; i < n; i++) {
		struct spritz_flow_key key = make(i);

		count[spritz_flow_set(&key, hk) / SPRITZ_FLOW_WAYS]++;
	}
	for (i = 0; i < SPRITZ_FLOW_SETS; i++)
		over += count[i] > SPRITZ_FLOW_WAYS ? count[i] - SPRITZ_FLOW_WAYS : 0;
	/* E[(X - ways)+] per set, X ~ Poisson(lambda), summed to 64 */
	for (k = 0; k < 64; k++) {
		if (k > SPRITZ_FLOW_WAYS)
			ideal += (k - SPRITZ_FLOW_WAYS) * pk;
		pk *= lambda / (k + 1);
	}
	ideal *= SPRITZ_FLOW_SETS;
	snprintf(what, sizeof(what), "%s: %u flows without a way (ideal %.0f)", name, over, ideal);
	ASSERT_LE(over, (uint32_t)(1.5 * ideal + 16), what);
}

static struct spritz_flow_key by_sport(uint32_t i)
{
	return key6((uint16_t)(1024 + i), 5201);
}

static struct spritz_flow_key by_both(uint32_t i)
{
	return key6((uint16_t)(40000 + (i & 255)), (uint16_t)(5000 + (i >> 8)));
}

static struct spritz_flow_key by_v4dst(uint32_t i)
{
	return key4((uint16_t)(49152 + (i & 63)), htonl(0x0a000000U | (i >> 6)));
}

static void test_spread(void)
{
	static const struct spritz_flow_hashkey zero,
		rnd = { { 0x3c6ef372U, 0xa54ff53aU, 0x510e527fU, 0x9b05688cU, 0x1f83d9abU,
			  0x5be0cd19U, 0x6a09e667U, 0xbb67ae85U, 0xcbbb9d5dU, 0x629a292aU } };
	const struct spritz_flow_hashkey *hks[] = { &zero, &rnd };
	static const uint32_t loads[] = { SPRITZ_FLOWS_MAX / 4, SPRITZ_FLOWS_MAX / 2,
					  SPRITZ_FLOWS_MAX };
	char name[64];
	size_t h, l;

	for (h = 0; h < ARRAY_SIZE(hks); h++)
		for (l = 0; l < ARRAY_SIZE(loads); l++) {
			snprintf(name, sizeof(name), "%s keys, %u by source port",
				 h ? "fixed" : "zero", loads[l]);
			spread(name, by_sport, loads[l] < 64000 ? loads[l] : 64000, hks[h]);
			snprintf(name, sizeof(name), "%s keys, %u by both ports", h ? "fixed" : "zero",
				 loads[l]);
			spread(name, by_both, loads[l], hks[h]);
			snprintf(name, sizeof(name), "%s keys, %u IPv4 tunnels", h ? "fixed" : "zero",
				 loads[l]);
			spread(name, by_v4dst, loads[l], hks[h]);
		}
}

static const struct test_case cases[] = {
	{ "key_eq", test_key_eq },	   { "used", test_used },
	{ "set_range", test_set_range }, { "keys_move", test_keys_move },
	{ "spread", test_spread },
};

TEST_MAIN(cases)
