// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the switch decision core include/spritz/switch_core.h.
 *
 * Tables of cases, each a packet at one switch and the decision the paper's
 * rules (Documentation/switch.rst) give for it: roles, EV1/EV2, Dragonfly's
 * same-group rule, the default table, the modes and the drop reasons;
 * UGAL-L's choice for queue states; the Valiant candidate's second hop; the
 * output-port checks; the virtual queue over a sequence of packets.  The
 * port picker is compared with a naive loop over random masks, and the
 * second hop UGAL-L costs at ECMP 1 with what ECMP 2 then does.
 *
 * The fixture is one Dragonfly switch, ME, in group 0 with local ports 0-2
 * and global ports 3-5, and its local neighbour N1 (behind port 0) with
 * local ports 0-2 and global ports 3-4.
 */
#include <spritz/switch_core.h>

#include "test.h"

#define ME 3
#define N1 0
#define DST_FAR 20  /* a switch in group 5 */
#define DST_NEAR 1  /* a switch in group 0 */
#define HOST0 SPRITZ_SW_HOST_SLOT0
#define NONE SPRITZ_SW_SLOT_NONE
#define H SPRITZ_SW_HOP_INIT

static const struct spritz_sw_info me_info = {
	.group = 0, .degree = 6, .local_mask = 0x07, .all_mask = 0x3f,
};
static const struct spritz_sw_info n1_info = {
	.group = 0, .degree = 5, .local_mask = 0x07, .all_mask = 0x1f,
};

static struct spritz_sw_cfg cfg_of(__u32 mode, __u32 policy)
{
	struct spritz_sw_cfg c = { .mode = mode, .policy = policy, .hop_init = H };

	return c;
}

/* ----------------------------------------------------------- decisions */

struct dcase {
	const char *name;
	__u32 mode;
	__u32 generic;	/* 1: SPRITZ_SW_POLICY_GENERIC, else Dragonfly */
	__u32 in_slot;
	__u8 hop;	/* 0: SPRITZ_SW_HOP_INIT from a host, H - 1 otherwise */
	__u32 dst;	/* destination switch (its group: 5 if DST_FAR, else 0) */
	__u32 dst_slot;
	__u32 route;	/* default next port */
	__s32 ev;
	__u32 flow_hash, rnd;
	int no_info;
	int no_group;
	/* expected */
	__u32 ret, slot, drop, role, steered;
};

#define FWD(slot_, role_, st_) \
	.ret = SPRITZ_SW_V_FORWARD, .slot = (slot_), .role = SPRITZ_SW_ROLE_##role_, .steered = (st_)
#define DROP(why_) .ret = SPRITZ_SW_V_DROP, .slot = NONE, .drop = SPRITZ_SW_DROP_##why_ + 1

static const struct dcase dcases[] = {
	/* Spritz, ECMP 1 */
	{ "ecmp1 ev1 global", 0, 0, HOST0, 0, DST_FAR, 0, 1, SPRITZ_EV(4, 0xff),
	  FWD(4, ECMP1, 1) },
	{ "ecmp1 ev1 local, far", 0, 0, HOST0, 0, DST_FAR, 0, 1, SPRITZ_EV(2, 3), FWD(2, ECMP1, 1) },
	{ "ecmp1 same group: local ev1", 0, 0, HOST0 + 1, 0, DST_NEAR, 0, 1, SPRITZ_EV(2, 0xff),
	  FWD(2, ECMP1, 1) },
	{ "ecmp1 same group: global ev1 -> default", 0, 0, HOST0, 0, DST_NEAR, 0, 1,
	  SPRITZ_EV(4, 0xff), FWD(1, ECMP1, 0) },
	{ "ecmp1 ev1 beyond degree -> default", 0, 0, HOST0, 0, DST_FAR, 0, 3, SPRITZ_EV(6, 0),
	  FWD(3, ECMP1, 0) },
	{ "ecmp1 ev1 0xff -> default", 0, 0, HOST0, 0, DST_FAR, 0, 3, SPRITZ_EV(0xff, 0xff),
	  FWD(3, ECMP1, 0) },
	{ "ecmp1 no ev (IPv4) -> default", 0, 0, HOST0, 0, DST_FAR, 0, 3, -1, FWD(3, ECMP1, 0) },
	{ "ecmp1 steered, no default route", 0, 0, HOST0, 0, DST_FAR, 0, NONE, SPRITZ_EV(5, 0),
	  FWD(5, ECMP1, 1) },
	/* Spritz, ECMP 2 */
	{ "ecmp2 ev2 global", 0, 0, 0, H - 1, DST_FAR, 0, 4, SPRITZ_EV(0, 5), FWD(5, ECMP2, 1) },
	{ "ecmp2 ev2 local -> default", 0, 0, 0, H - 1, DST_FAR, 0, 4, SPRITZ_EV(0, 1),
	  FWD(4, ECMP2, 0) },
	{ "ecmp2 ev2 unused -> default", 0, 0, 0, H - 1, DST_FAR, 0, 4, SPRITZ_EV(0, 0xff),
	  FWD(4, ECMP2, 0) },
	{ "in over global: no ecmp2", 0, 0, 3, H - 1, DST_FAR, 0, 4, SPRITZ_EV(0, 5),
	  FWD(4, DEFAULT, 0) },
	{ "same group: no ecmp2", 0, 0, 0, H - 1, DST_NEAR, 0, 1, SPRITZ_EV(0, 5),
	  FWD(1, DEFAULT, 0) },
	{ "hop limit 62: no role", 0, 0, 0, H - 2, DST_FAR, 0, 4, SPRITZ_EV(0, 5),
	  FWD(4, DEFAULT, 0) },
	{ "hop limit 65 from a host: still ecmp1", 0, 0, HOST0, H + 1, DST_FAR, 0, 4,
	  SPRITZ_EV(5, 0), FWD(5, ECMP1, 1) },
	{ "generic: ecmp2 over any link", 0, 1, 3, H - 1, DST_FAR, 0, 4, SPRITZ_EV(0, 1),
	  FWD(1, ECMP2, 1) },
	{ "generic: ecmp1 any port, same group", 0, 1, HOST0, 0, DST_NEAR, 0, 1, SPRITZ_EV(5, 0),
	  FWD(5, ECMP1, 1) },
	/* Minimal: EVs ignored */
	{ "minimal ecmp1", SPRITZ_SW_MODE_MINIMAL, 0, HOST0, 0, DST_FAR, 0, 3, SPRITZ_EV(4, 5),
	  FWD(3, DEFAULT, 0) },
	{ "minimal ecmp2", SPRITZ_SW_MODE_MINIMAL, 0, 0, H - 1, DST_FAR, 0, 4, SPRITZ_EV(4, 5),
	  FWD(4, DEFAULT, 0) },
	/* ECMP: halves of the flow hash, modulo the allowed ports */
	{ "ecmp ecmp1 hash hi", SPRITZ_SW_MODE_ECMP, 0, HOST0, 0, DST_FAR, 0, 3, -1,
	  (10u << 16) | 5, FWD(4, ECMP1, 1) },			/* 10 % 6 = 4 */
	{ "ecmp ecmp2 hash lo", SPRITZ_SW_MODE_ECMP, 0, 0, H - 1, DST_FAR, 0, 3, -1,
	  (10u << 16) | 5, FWD(5, ECMP2, 1) },			/* 5 % 3 = 2: port 5 */
	{ "ecmp same group", SPRITZ_SW_MODE_ECMP, 0, HOST0, 0, DST_NEAR, 0, 1, -1, 4u << 16,
	  FWD(1, ECMP1, 1) },					/* 4 % 3 = 1 */
	{ "ecmp no role", SPRITZ_SW_MODE_ECMP, 0, 3, H - 1, DST_FAR, 0, 4, -1, 0xffffffff,
	  FWD(4, DEFAULT, 0) },
	/* Valiant: the random value, modulo the allowed ports */
	{ "valiant ecmp1", SPRITZ_SW_MODE_VALIANT, 0, HOST0, 0, DST_FAR, 0, 3, -1, 0, 7,
	  FWD(1, ECMP1, 1) },					/* 7 % 6 = 1 */
	{ "valiant ecmp2", SPRITZ_SW_MODE_VALIANT, 0, 0, H - 1, DST_FAR, 0, 3, -1, 0, 7,
	  FWD(4, ECMP2, 1) },					/* 7 % 3 = 1: port 4 */
	{ "unknown mode -> default", 9, 0, HOST0, 0, DST_FAR, 0, 3, SPRITZ_EV(4, 0), 1, 1,
	  FWD(3, ECMP1, 0) },
	/* delivery and drops */
	{ "deliver", 0, 0, 1, H - 2, ME, HOST0 + 1, NONE, -1, FWD(HOST0 + 1, DELIVER, 0) },
	{ "deliver, hop limit 2", 0, 0, 1, 2, ME, HOST0, NONE, -1, FWD(HOST0, DELIVER, 0) },
	{ "own prefix, no such host", 0, 0, 1, H - 2, ME, NONE, NONE, -1, DROP(NO_ROUTE) },
	{ "own prefix, network slot", 0, 0, 1, H - 2, ME, 5, NONE, -1, DROP(NO_ROUTE) },
	{ "unknown destination", 0, 0, HOST0, 0, SPRITZ_SW_NONE, 0, 1, -1, DROP(NO_ROUTE) },
	{ "destination beyond the table", 0, 0, HOST0, 0, SPRITZ_SW_MAX_SWITCHES, 0, 1, -1,
	  DROP(NO_ROUTE) },
	{ "hop limit 1", 0, 0, HOST0, 1, DST_FAR, 0, 1, -1, DROP(HOP_LIMIT) },
	{ "hop limit 1 at its destination", 0, 0, 1, 1, ME, HOST0, NONE, -1, DROP(HOP_LIMIT) },
	{ "no switch info", 0, 0, HOST0, 0, DST_FAR, 0, 1, SPRITZ_EV(4, 0), .no_info = 1,
	  DROP(NO_ROUTE) },
	{ "no destination group", 0, 0, HOST0, 0, DST_FAR, 0, 1, SPRITZ_EV(4, 0), .no_group = 1,
	  DROP(NO_ROUTE) },
	{ "no default route", 0, 0, 3, H - 1, DST_FAR, 0, NONE, -1, DROP(NO_PORT) },
	{ "default route beyond the ports", 0, 0, 3, H - 1, DST_FAR, 0, SPRITZ_SW_MAX_NET_PORTS,
	  -1, DROP(NO_PORT) },
};

static void fill_pkt(struct spritz_sw_pkt *p, __u32 in_slot, __u8 hop, __u32 dst, __u32 dst_slot,
		     __u32 route)
{
	memset(p, 0, sizeof(*p));
	p->in_slot = in_slot;
	p->hop = hop ? hop : H;
	p->dst_sw = dst;
	p->dst_slot = dst_slot;
	p->dst_group = dst == DST_FAR ? 5 : 0;
	p->route_port = route;
	p->ev = -1;
}

static void test_decide(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dcases); i++) {
		const struct dcase *c = &dcases[i];
		struct spritz_sw_cfg cfg = cfg_of(c->mode, c->generic ? SPRITZ_SW_POLICY_GENERIC
								      : SPRITZ_SW_POLICY_DRAGONFLY);
		struct spritz_sw_decision d;
		struct spritz_sw_pkt p;
		__u32 ret;

		fill_pkt(&p, c->in_slot, c->hop, c->dst, c->dst_slot, c->route);
		p.ev = c->ev;
		p.flow_hash = c->flow_hash;
		p.rnd = c->rnd;
		if (c->no_group)
			p.dst_group = SPRITZ_SW_NONE;
		ret = spritz_sw_decide(&cfg, c->no_info ? NULL : &me_info, ME, &p, &d);
		ASSERT_EQ(ret, c->ret, c->name);
		ASSERT_EQ(d.slot, c->slot, c->name);
		ASSERT_EQ(d.drop, c->drop, c->name);
		if (ret == SPRITZ_SW_V_FORWARD) {
			ASSERT_EQ(d.role, c->role, c->name);
			ASSERT_EQ(d.steered, c->steered, c->name);
		}
		ASSERT_EQ(d.need, 0, c->name);
	}
}

/* -------------------------------------------------------------- UGAL-L */

/*
 * UGAL-L at ECMP 1 of ME for a destination in group 5 (default route:
 * global port 3) or in ME's group (DST_NEAR, default route: port 1).
 * val: the Valiant candidate's index among the allowed ports (the high half
 * of the packet hash).  Expected: whether the core asks for the costs, the
 * candidate port, the choice and the port the packet leaves on.
 */
struct ucase {
	const char *name;
	__u32 dst, route, val;
	__u32 q_min, h_min, q_val, h_val;
	int need;
	__u32 val_port, minimal, slot;
};

static const struct ucase ucases[] = {
	{ "candidate is the minimal port", DST_FAR, 3, 3, 0, 0, 0, 0, 0, 3, 1, 3 },
	{ "empty queues", DST_FAR, 3, 4, 0, 2, 0, 3, 1, 4, 1, 3 },
	{ "minimal queue longer, still cheaper", DST_FAR, 3, 4, 4, 2, 2, 5, 1, 4, 1, 3 },
	{ "tie: minimal", DST_FAR, 3, 4, 3, 2, 2, 3, 1, 4, 1, 3 },
	{ "minimal queue 10 x 2 > 5 x 3", DST_FAR, 3, 4, 10, 2, 5, 3, 1, 4, 0, 4 },
	{ "candidate queue empty, minimal not", DST_FAR, 3, 5, 1, 3, 0, 4, 1, 5, 0, 5 },
	{ "both full, longer valiant path", DST_FAR, 3, 4, 0xffffffff, 3, 0xffffffff, 4, 1, 4, 1,
	  3 },
	{ "both full, h_min > h_val (no overflow)", DST_FAR, 3, 4, 0xffffffff, 5, 0xffffffff, 4, 1,
	  4, 0, 4 },
	{ "local candidate wins", DST_FAR, 3, 0, 100, 1, 10, 3, 1, 0, 0, 0 },
	{ "local candidate loses", DST_FAR, 3, 0, 10, 1, 10, 3, 1, 0, 1, 3 },
	{ "same group: local ports only", DST_NEAR, 1, 3, 9, 1, 1, 2, 1, 0, 0, 0 },
	{ "same group: candidate = minimal", DST_NEAR, 1, 1, 100, 1, 0, 2, 0, 1, 1, 1 },
};

static void test_ugal_choice(void)
{
	struct spritz_sw_cfg cfg = cfg_of(SPRITZ_SW_MODE_UGAL_L, SPRITZ_SW_POLICY_DRAGONFLY);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ucases); i++) {
		const struct ucase *c = &ucases[i];
		struct spritz_sw_decision d;
		struct spritz_sw_pkt p;
		__u32 ret;

		fill_pkt(&p, HOST0, 0, c->dst, 0, c->route);
		p.pkt_hash = c->val << 16;
		p.rnd = 0xdead; /* UGAL-L draws from the packet hash, not this */
		ret = spritz_sw_decide(&cfg, &me_info, ME, &p, &d);
		ASSERT_EQ(d.val_port, c->val_port, c->name);
		if (c->need) {
			if (!ASSERT_EQ(ret, SPRITZ_SW_V_NEED, c->name) ||
			    !ASSERT_EQ(d.need, SPRITZ_SW_NEED_UGAL, c->name))
				continue;
			p.q_min = c->q_min;
			p.h_min = c->h_min;
			p.q_val = c->q_val;
			p.h_val = c->h_val;
			p.have |= SPRITZ_SW_HAVE_UGAL;
			ret = spritz_sw_decide(&cfg, &me_info, ME, &p, &d);
		}
		ASSERT_EQ(ret, SPRITZ_SW_V_FORWARD, c->name);
		ASSERT_EQ(d.role, SPRITZ_SW_ROLE_ECMP1, c->name);
		ASSERT_EQ(d.minimal, c->minimal, c->name);
		ASSERT_EQ(d.slot, c->slot, c->name);
		ASSERT_EQ(d.steered, !c->minimal, c->name);
		ASSERT_EQ(spritz_sw_ugal_minimal(c->q_min, c->h_min, c->q_val, c->h_val) ||
				  c->val_port == c->route,
			  c->minimal, c->name);
	}
}

/* UGAL-L at ECMP 2: a misrouted packet continues its Valiant path. */
static void test_ugal_ecmp2(void)
{
	struct spritz_sw_cfg cfg = cfg_of(SPRITZ_SW_MODE_UGAL_L, SPRITZ_SW_POLICY_DRAGONFLY);
	static const struct {
		const char *name;
		__u32 in_slot, dst, lo;
		int need, in_minimal;
		__u32 role, slot, steered;
	} cases[] = {
		{ "came minimally: default", 0, DST_FAR, 2, 1, 1, SPRITZ_SW_ROLE_ECMP2, 4, 0 },
		{ "misrouted: global by hash", 0, DST_FAR, 2, 1, 0, SPRITZ_SW_ROLE_ECMP2, 5, 1 },
		{ "misrouted: hash modulo 3", 1, DST_FAR, 4, 1, 0, SPRITZ_SW_ROLE_ECMP2, 4, 1 },
		{ "over a global link: no role", 3, DST_FAR, 2, 0, 0, SPRITZ_SW_ROLE_DEFAULT, 4, 0 },
		{ "same group: no role", 0, DST_NEAR, 2, 0, 0, SPRITZ_SW_ROLE_DEFAULT, 4, 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct spritz_sw_decision d;
		struct spritz_sw_pkt p;
		__u32 ret;

		fill_pkt(&p, cases[i].in_slot, H - 1, cases[i].dst, 0, 4);
		p.pkt_hash = 0xabcd0000 | cases[i].lo;
		ret = spritz_sw_decide(&cfg, &me_info, ME, &p, &d);
		if (cases[i].need) {
			if (!ASSERT_EQ(ret, SPRITZ_SW_V_NEED, cases[i].name) ||
			    !ASSERT_EQ(d.need, SPRITZ_SW_NEED_PREV, cases[i].name))
				continue;
			p.in_minimal = cases[i].in_minimal;
			p.have |= SPRITZ_SW_HAVE_PREV;
			ret = spritz_sw_decide(&cfg, &me_info, ME, &p, &d);
		}
		ASSERT_EQ(ret, SPRITZ_SW_V_FORWARD, cases[i].name);
		ASSERT_EQ(d.role, cases[i].role, cases[i].name);
		ASSERT_EQ(d.slot, cases[i].slot, cases[i].name);
		ASSERT_EQ(d.steered, cases[i].steered, cases[i].name);
	}
}

/* The Valiant candidate's second hop, as ECMP 1 costs it. */
static void test_ugal_hop2(void)
{
	static const struct {
		const char *name;
		int generic;
		__u32 p1, n1, dst;
		__u8 hop;
		int no_n1;
		__u32 lo, p2;
	} cases[] = {
		{ "local first hop, far: n1's global ports", 0, 0, N1, DST_FAR, H, 0, 3, 4 },
		{ "hash modulo n1's 2 global ports", 0, 1, N1, DST_FAR, H, 0, 4, 3 },
		{ "global first hop: none", 0, 3, N1, DST_FAR, H, 0, 3, NONE },
		{ "same group: none", 0, 0, N1, DST_NEAR, H, 0, 3, NONE },
		{ "n1 is the destination: none", 0, 0, DST_FAR, DST_FAR, H, 0, 3, NONE },
		{ "host sent another hop limit: none", 0, 0, N1, DST_FAR, H + 1, 0, 3, NONE },
		{ "n1 unknown: none", 0, 0, N1, DST_FAR, H, 1, 3, NONE },
		{ "p1 beyond the ports: none", 0, SPRITZ_SW_MAX_NET_PORTS, N1, DST_FAR, H, 0, 3,
		  NONE },
		{ "generic: any port of n1", 1, 3, N1, DST_FAR, H, 0, 4, 4 },
		{ "generic, same group: any port", 1, 0, N1, DST_NEAR, H, 0, 7, 2 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct spritz_sw_cfg cfg = cfg_of(SPRITZ_SW_MODE_UGAL_L,
						  cases[i].generic ? SPRITZ_SW_POLICY_GENERIC
								   : SPRITZ_SW_POLICY_DRAGONFLY);
		struct spritz_sw_pkt p;

		fill_pkt(&p, HOST0, cases[i].hop, cases[i].dst, 0, 3);
		p.pkt_hash = 0x12340000 | cases[i].lo;
		ASSERT_EQ(spritz_sw_ugal_hop2(&cfg, &me_info, cases[i].no_n1 ? NULL : &n1_info,
					      cases[i].n1, cases[i].p1, &p),
			  cases[i].p2, cases[i].name);
	}
	ASSERT_EQ(spritz_sw_ugal_hval(NONE, 2), 3, "hval: one steered hop + 2");
	ASSERT_EQ(spritz_sw_ugal_hval(4, 2), 4, "hval: two steered hops + 2");
	ASSERT_EQ(spritz_sw_ugal_hval(0, 0), 2, "hval: second hop reaches the destination");
}

/*
 * What ECMP 1 costs is what the path does: for many packet hashes, the
 * second hop spritz_sw_ugal_hop2() predicts at ME equals N1's decision for
 * the misrouted packet (arriving over N1's local port 0 with hop limit
 * H - 1), and N1 defers to the default table exactly when it predicts none.
 */
static void test_ugal_consistent(void)
{
	struct spritz_sw_cfg cfg = cfg_of(SPRITZ_SW_MODE_UGAL_L, SPRITZ_SW_POLICY_DRAGONFLY);
	__u32 seed = 1, i, bad = 0;

	for (i = 0; i < 20000; i++) {
		struct spritz_sw_decision d;
		struct spritz_sw_pkt p, q;
		__u32 p2, ret, dst = i & 1 ? DST_FAR : DST_NEAR;

		seed = seed * 1103515245 + 12345;
		fill_pkt(&p, HOST0, 0, dst, 0, 3);
		p.pkt_hash = seed;
		p2 = spritz_sw_ugal_hop2(&cfg, &me_info, &n1_info, N1, 0, &p);
		fill_pkt(&q, 0, H - 1, dst, 0, 1);
		q.pkt_hash = seed;
		q.have = SPRITZ_SW_HAVE_PREV;
		q.in_minimal = 0;
		ret = spritz_sw_decide(&cfg, &n1_info, N1, &q, &d);
		if (ret != SPRITZ_SW_V_FORWARD ||
		    (p2 == NONE ? d.steered || d.slot != 1 : !d.steered || d.slot != p2))
			bad++;
	}
	ASSERT_EQ(bad, 0, "second hop as costed");
}

/* ------------------------------------------------------- port picking */

static __u32 naive_pick(__u64 mask, __u32 x)
{
	__u32 n = 0, i;

	for (i = 0; i < SPRITZ_SW_MAX_NET_PORTS; i++)
		n += (mask >> i) & 1;
	if (!n)
		return NONE;
	x %= n;
	for (i = 0; i < SPRITZ_SW_MAX_NET_PORTS; i++)
		if (((mask >> i) & 1) && !x--)
			return i;
	return NONE;
}

static void test_pick_nth(void)
{
	__u64 s = 0x9e3779b97f4a7c15ULL;
	__u32 i, bad = 0;

	ASSERT_EQ(spritz_sw_pick_nth(0, 5), NONE, "empty mask");
	ASSERT_EQ(spritz_sw_pick_nth(~0ULL << SPRITZ_SW_MAX_NET_PORTS, 5), NONE,
		  "bits beyond the network ports only");
	ASSERT_EQ(spritz_sw_pick_nth(1ULL << 47, 12345), 47, "single port 47");
	for (i = 0; i < 100000; i++) {
		__u64 mask;
		__u32 x;

		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		mask = s;
		if (i % 3 == 0)
			mask &= s >> 17; /* sparser */
		x = (__u32)(s >> 32);
		if (spritz_sw_pick_nth(mask, x) != naive_pick(mask, x) && bad++ < 3)
			printf("# mask %#llx x %u: %u, naive %u\n", (unsigned long long)mask, x,
			       spritz_sw_pick_nth(mask, x), naive_pick(mask, x));
	}
	ASSERT_EQ(bad, 0, "pick_nth agrees with the naive loop");
}

/* --------------------------------------------------------- port checks */

static void test_port_check(void)
{
	static const struct {
		const char *name;
		__u32 flags, ifindex;
		int pure_ack;
		__u32 drop;
	} cases[] = {
		{ "valid", SPRITZ_SW_PORT_VALID, 7, 0, 0 },
		{ "not valid", 0, 7, 0, SPRITZ_SW_DROP_NO_PORT + 1 },
		{ "no device", SPRITZ_SW_PORT_VALID, 0, 0, SPRITZ_SW_DROP_NO_PORT + 1 },
		{ "down drops data", SPRITZ_SW_PORT_VALID | SPRITZ_SW_PORT_DOWN, 7, 0,
		  SPRITZ_SW_DROP_DOWN + 1 },
		{ "down drops ACKs", SPRITZ_SW_PORT_VALID | SPRITZ_SW_PORT_DOWN, 7, 1,
		  SPRITZ_SW_DROP_DOWN + 1 },
		{ "blackhole drops data", SPRITZ_SW_PORT_VALID | SPRITZ_SW_PORT_BLACKHOLE, 7, 0,
		  SPRITZ_SW_DROP_BLACKHOLE + 1 },
		{ "blackhole passes ACKs", SPRITZ_SW_PORT_VALID | SPRITZ_SW_PORT_BLACKHOLE, 7, 1, 0 },
		{ "down and blackhole", SPRITZ_SW_PORT_VALID | SPRITZ_SW_PORT_BLACKHOLE |
					       SPRITZ_SW_PORT_DOWN, 7, 1, SPRITZ_SW_DROP_DOWN + 1 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		ASSERT_EQ(spritz_sw_port_check(cases[i].flags, cases[i].ifindex, cases[i].pure_ack),
			  cases[i].drop, cases[i].name);
}

/* ------------------------------------------------------- virtual queue */

/*
 * A sequence of packets (bytes > 0) and reads (bytes = 0) on one queue;
 * 8000 kbit/s drains one byte per microsecond.
 */
static void test_vq(void)
{
	static const struct {
		const char *name;
		__u32 rate, limit;
		__u64 t;
		__u32 bytes;
		__u64 backlog; /* after the step */
	} steps[] = {
		{ "first packet", 8000, 0, 1000000, 1000, 1000 },
		{ "half drained", 8000, 0, 1500000, 0, 500 },
		{ "another packet", 8000, 0, 1500000, 200, 700 },
		{ "clock behind: no drain", 8000, 0, 1000000, 0, 700 },
		{ "drained empty", 8000, 0, 2200000, 0, 0 },
		{ "empty, then a packet", 8000, 0, 3000000, 1500, 1500 },
		{ "1 us later", 8000, 0, 3001000, 0, 1499 },
		{ "under the limit", 8000, 2000, 3001000, 500, 1999 },
		{ "over the limit: tail drop", 8000, 2000, 3001000, 2, 1999 },
		{ "exactly to the limit", 8000, 2000, 3001001, 1, 2000 },
		{ "idle for 4.3 s: empty", 8000, 0, 3001001 + (1ULL << 32) + 1, 0, 0 },
		{ "slow port", 1, 0, 1ULL << 40, 100, 100 },
		{ "slow port, 4 s: 500 bytes drained of 100", 1, 0, (1ULL << 40) + 4000000000ULL, 0,
		  0 },
		{ "slow port, 0.8 s", 1, 0, (1ULL << 40) + 4000000000ULL, 1000, 1000 },
		{ "slow port, +0.8 s: 100 bytes drained", 1, 0,
		  (1ULL << 40) + 4800000000ULL, 0, 900 },
		{ "not modelled", 0, 0, (1ULL << 41), 1000, 0 },
	};
	struct spritz_sw_vq q = {};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		if (q.rate_kbps != steps[i].rate)
			memset(&q, 0, sizeof(q));
		q.rate_kbps = steps[i].rate;
		q.limit = steps[i].limit;
		if (steps[i].bytes)
			spritz_sw_vq_add(&q, steps[i].t, steps[i].bytes);
		ASSERT_EQ(spritz_sw_vq_backlog(&q, steps[i].t), steps[i].backlog, steps[i].name);
	}
}

/* ---------------------------------------------------------------- hash */

static void test_hashes(void)
{
	__u8 a[16] = { 0xfd }, b[16] = { 0xfd, 0, 0, 1 };
	__u32 h = spritz_sw_flow_hash(a, b, 1000, 80, 6, 0, 0x5eed);

	ASSERT_EQ(h, spritz_sw_flow_hash(a, b, 1000, 80, 6, 0, 0x5eed), "flow hash is a function");
	ASSERT_NEQ(h, spritz_sw_flow_hash(a, b, 1001, 80, 6, 0, 0x5eed), "source port counts");
	ASSERT_NEQ(h, spritz_sw_flow_hash(a, b, 1000, 80, 6, 1, 0x5eed), "flow label counts");
	ASSERT_NEQ(h, spritz_sw_flow_hash(b, a, 1000, 80, 6, 0, 0x5eed), "direction counts");
	ASSERT_NEQ(spritz_sw_pkt_hash(h, 1, 0), spritz_sw_pkt_hash(h, 2, 0), "seq counts");
	ASSERT_NEQ(spritz_sw_pkt_hash(h, 1, 0), spritz_sw_pkt_hash(h, 1, 1), "ack counts");
}

static const struct test_case cases[] = {
	{ "decide", test_decide },
	{ "ugal_choice", test_ugal_choice },
	{ "ugal_ecmp2", test_ugal_ecmp2 },
	{ "ugal_hop2", test_ugal_hop2 },
	{ "ugal_consistent", test_ugal_consistent },
	{ "pick_nth", test_pick_nth },
	{ "port_check", test_port_check },
	{ "vq", test_vq },
	{ "hashes", test_hashes },
};

TEST_MAIN(cases)
