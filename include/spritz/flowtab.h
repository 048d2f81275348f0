/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The flow table (spritz_flows): where a flow's state lives, computed the
 * same way by the tc datapath (bpf/spritz.bpf.c), libspritz and the tests.
 *
 * spritz_flows is an array of SPRITZ_FLOWS_MAX slots in sets of
 * SPRITZ_FLOW_WAYS consecutive slots.  A flow key hashes to one set and
 * its state sits in one way of it, the key stored in the slot
 * (spritz_flow.key; proto 0 = free).  A new flow takes a free way of its
 * set, else the way whose flow sent least recently (spritz_flow.used_ns):
 * LRU within the set.  A lookup is one hash, an array index and a key
 * compare per way tried: no map hashing, bucket walk or LRU bookkeeping
 * (Documentation/datapath.rst, "Flow table" and the benchmark).
 *
 * The hash is NH, the UMAC hash: the sum over the key's ten 32-bit words,
 * in pairs, of (m[2i] + k[2i]) * (m[2i+1] + k[2i+1]) mod 2^64, mixed
 * (NH's own top bits barely move with a port), whose top bits pick the
 * set.  Its keys k[] are random per loaded datapath object
 * (libspritz draws them with getrandom()), so that a local user who can
 * open connections cannot aim new flows at the set of a flow they want
 * evicted; fixed odd constants are added so that zero keys (the tests)
 * still spread flows.
 */
#ifndef _SPRITZ_FLOWTAB_H
#define _SPRITZ_FLOWTAB_H

#include "maps.h"

#define SPRITZ_FLOW_WAYS 4
#define SPRITZ_FLOW_SETS (SPRITZ_FLOWS_MAX / SPRITZ_FLOW_WAYS)
#define SPRITZ_FLOW_SET_BITS 14 /* log2(SPRITZ_FLOW_SETS) */
#define SPRITZ_FLOW_HASH_WORDS (sizeof(struct spritz_flow_key) / 4)

#if (1 << SPRITZ_FLOW_SET_BITS) != SPRITZ_FLOW_SETS
#error "SPRITZ_FLOW_SET_BITS must be log2(SPRITZ_FLOWS_MAX / SPRITZ_FLOW_WAYS)"
#endif

/* The key read as 32-bit words: may alias its byte fields. */
typedef __u32 __attribute__((__may_alias__)) spritz_flow_word;

/* Random keys of the NH hash, per loaded object (see above). */
struct spritz_flow_hashkey {
	__u32 k[SPRITZ_FLOW_HASH_WORDS];
};

/* spritz_flow_set() hashes ten words: a key of another size fails here */
typedef char spritz_flow_hash_words_are_ten[SPRITZ_FLOW_HASH_WORDS == 10 ? 1 : -1];

/* The first slot of the set of flow key @key under hash keys @hk. */
static inline __u32 spritz_flow_set(const struct spritz_flow_key *key,
				    const volatile struct spritz_flow_hashkey *hk)
{
	const spritz_flow_word *m = (const spritz_flow_word *)key;
	__u64 s = 0;

	/* unrolled by hand: the five products are independent */
#define SPRITZ_NH(i, c0, c1) \
	s += (__u64)(__u32)(m[i] + hk->k[i] + (c0)) * (__u64)(__u32)(m[i + 1] + hk->k[i + 1] + (c1))
	SPRITZ_NH(0, 0x9e3779b1U, 0x85ebca77U);
	SPRITZ_NH(2, 0xc2b2ae3dU, 0x27d4eb2fU);
	SPRITZ_NH(4, 0x165667b1U, 0xd3a2646dU);
	SPRITZ_NH(6, 0xfd7046c5U, 0xb55a4f09U);
	SPRITZ_NH(8, 0x61c88647U, 0x2c1b3c6dU);
#undef SPRITZ_NH
	/* NH's top bits barely move with a port: mix them (splitmix64's finalizer) */
	s ^= s >> 31;
	s *= 0xbf58476d1ce4e5b9ULL;
	s ^= s >> 29;
	return (__u32)(s >> (64 - SPRITZ_FLOW_SET_BITS)) * SPRITZ_FLOW_WAYS;
}

/* Does slot @f hold a flow? */
static inline int spritz_flow_used(const struct spritz_flow *f)
{
	return f->key.proto != 0;
}

/* Is the key in a slot @a the flow key @b? */
static inline int spritz_flow_key_eq(const struct spritz_flow_key *a, const struct spritz_flow_key *b)
{
	const spritz_flow_word *x = (const spritz_flow_word *)a, *y = (const spritz_flow_word *)b;

	return !((x[0] ^ y[0]) | (x[1] ^ y[1]) | (x[2] ^ y[2]) | (x[3] ^ y[3]) | (x[4] ^ y[4]) |
		 (x[5] ^ y[5]) | (x[6] ^ y[6]) | (x[7] ^ y[7]) | (x[8] ^ y[8]) | (x[9] ^ y[9]));
}

#endif /* _SPRITZ_FLOWTAB_H */
