/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Spritz switch decision core: what a switch of the fabric does with one
 * packet, as plain C.  Source-Guided Adaptive Routing (paper §III-A,
 * §III-B): role detection, EV1 at ECMP 1, EV2 at ECMP 2, Dragonfly's
 * same-group rule, default minimal routes; and the switch-level baselines
 * of the evaluation (paper §VI-A): Minimal, Valiant, ECMP and UGAL-L
 * ("minimal if q_min * h_min <= q_val * h_val").
 *
 * One header serves the reference switch pipeline (bpf/spritz_switch.bpf.c,
 * clang -target bpf), the host unit tests (selftests/user/test_switch_core.c)
 * and the simulator (C++).  Rules as in lb.h: no library, no global state,
 * no floating point, no function pointers, no recursion, only loops with
 * a constant count, and nothing indexed by a value from a packet or a
 * table.  Two divisions: the port picker's modulo the number of allowed
 * ports (the paper's "identity hash function with modulo table size") and
 * the virtual queue's by a constant.
 *
 * The core reads no table, no clock and no random source.  The caller
 * parses the packet, looks up what the switch knows and passes it in
 * (struct spritz_sw_pkt); the random values, the flow hash and the queue
 * occupancies are inputs, so a simulator can pass its own.  A decision that
 * needs more than the common inputs says which (dec.need); the caller looks
 * them up and calls again - at most twice more, and only in UGAL-L:
 *
 *	spritz_sw_decide(cfg, me, sw, pkt, &dec)
 *	    SPRITZ_SW_V_FORWARD  out of dec.slot; then spritz_sw_port_check()
 *	    SPRITZ_SW_V_DROP     for dec.drop - 1 (enum spritz_sw_drop)
 *	    SPRITZ_SW_V_NEED     fill dec.need's inputs, set pkt.have, call again
 *
 * Documentation/switch.rst describes the decisions and every deviation from
 * the paper.
 */
#ifndef _SPRITZ_SWITCH_CORE_H
#define _SPRITZ_SWITCH_CORE_H

#include "switch.h"

#define SPRITZ_SW_NONE 0xffffffffU /* unknown switch or group */

/* spritz_sw_pkt.have: optional inputs that are filled in */
#define SPRITZ_SW_HAVE_PREV 0x1 /* in_minimal */
#define SPRITZ_SW_HAVE_UGAL 0x2 /* q_min, q_val, h_min, h_val */

/* spritz_sw_decision.need: optional inputs the decision waits for */
#define SPRITZ_SW_NEED_PREV SPRITZ_SW_HAVE_PREV
#define SPRITZ_SW_NEED_UGAL SPRITZ_SW_HAVE_UGAL

/* spritz_sw_decide() results */
#define SPRITZ_SW_V_FORWARD 1
#define SPRITZ_SW_V_DROP 2
#define SPRITZ_SW_V_NEED 3

/* What the switch knows about one packet (filled by the caller). */
struct spritz_sw_pkt {
	__u32 in_slot;	  /* slot it arrived on (< SPRITZ_SW_MAX_SLOTS) */
	__u32 dst_sw;	  /* destination switch (sw_dir); SPRITZ_SW_NONE: no entry */
	__u32 dst_slot;	  /* host slot at dst_sw, SPRITZ_SW_SLOT_NONE: switch prefix only */
	__u32 dst_group;  /* group of dst_sw (sw_info); SPRITZ_SW_NONE: unknown */
	__u32 route_port; /* default next port to dst_sw (sw_routes); SLOT_NONE: none */
	__u32 flow_hash;  /* spritz_sw_flow_hash(): ECMP */
	__u32 pkt_hash;	  /* spritz_sw_pkt_hash(): one value per packet, equal at every switch */
	__u32 rnd;	  /* a fresh random value (Valiant: independent at each switch) */
	__s32 ev;	  /* EV the packet carries; -1: none */
	__u8 hop;	  /* hop limit / TTL as received */
	__u8 have;	  /* SPRITZ_SW_HAVE_* */
	/* SPRITZ_SW_HAVE_PREV: the packet arrived over the previous switch's
	 * default route to dst_sw (it was not misrouted) */
	__u8 in_minimal;
	__u8 __pad;
	/* SPRITZ_SW_HAVE_UGAL, for dec.val_port: queue occupancy of the
	 * minimal and of the Valiant candidate's output port (any unit, the
	 * same for both), hop counts of the two paths (spritz_sw_ugal_hval()) */
	__u32 q_min, q_val;
	__u32 h_min, h_val;
};

/* What to do with it. */
struct spritz_sw_decision {
	__u32 slot;	/* V_FORWARD: output slot; else SPRITZ_SW_SLOT_NONE */
	__u32 drop;	/* V_DROP: enum spritz_sw_drop + 1; else 0 */
	__u32 role;	/* enum spritz_sw_role */
	__u32 steered;	/* 1: EV, hash or random value chose the port; 0: default table */
	__u32 ev;	/* the value that indexed the ports (EV, hash half, random) */
	__u32 need;	/* V_NEED: SPRITZ_SW_NEED_* */
	__u32 val_port;	/* UGAL-L at ECMP 1: the Valiant candidate's first port */
	__u32 minimal;	/* UGAL-L at ECMP 1: 1 if the rule chose the minimal path */
};

/* ------------------------------------------------------------- hashing */

/* One mixing round (multiplicative, Fibonacci constant). */
static __always_inline __u32 __spritz_sw_mix(__u32 h, __u32 w)
{
	h ^= w;
	h *= 0x9e3779b1;
	return h ^ (h >> 15);
}

/* Flow hash of the ECMP baseline: addresses, ports, protocol, flow label. */
static __always_inline __u32 spritz_sw_flow_hash(const __u8 saddr[16], const __u8 daddr[16],
						 __u16 sport, __u16 dport, __u8 proto,
						 __u32 flowlabel, __u32 seed)
{
	__u32 h = seed, w, i;

	for (i = 0; i < 4; i++) {
		__builtin_memcpy(&w, &saddr[i * 4], 4);
		h = __spritz_sw_mix(h, w);
	}
	for (i = 0; i < 4; i++) {
		__builtin_memcpy(&w, &daddr[i * 4], 4);
		h = __spritz_sw_mix(h, w);
	}
	h = __spritz_sw_mix(h, ((__u32)sport << 16) | dport);
	h = __spritz_sw_mix(h, ((__u32)proto << 24) ^ flowlabel);
	return __spritz_sw_mix(h, 0x5a17);
}

/* Per-packet hash: the flow hash and two words that change per packet. */
static __always_inline __u32 spritz_sw_pkt_hash(__u32 flow_hash, __u32 w1, __u32 w2)
{
	return __spritz_sw_mix(__spritz_sw_mix(__spritz_sw_mix(flow_hash, w1), w2), 0x7a11);
}

/* ---------------------------------------------------------------- ports */

/* Set bits of a 64-bit word, without a loop or a builtin (BPF has no popcount). */
static __always_inline __u32 __spritz_sw_popcount(__u64 v)
{
	v = v - ((v >> 1) & 0x5555555555555555ULL);
	v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (__u32)((v * 0x0101010101010101ULL) >> 56);
}

/*
 * The x-th (mod count) set bit of the low SPRITZ_SW_MAX_NET_PORTS bits of
 * mask, or SPRITZ_SW_SLOT_NONE if none: a binary search over the halves'
 * popcounts, six fixed steps (cheap for the verifier).
 */
static __always_inline __u32 spritz_sw_pick_nth(__u64 mask, __u32 x)
{
	__u32 n, pos = 0, w, c;

	mask &= (1ULL << SPRITZ_SW_MAX_NET_PORTS) - 1;
	n = __spritz_sw_popcount(mask);
	if (!n)
		return SPRITZ_SW_SLOT_NONE;
	x %= n;
	for (w = 32; w; w >>= 1) {
		c = __spritz_sw_popcount((mask >> pos) & ((1ULL << w) - 1));
		if (x >= c) {
			x -= c;
			pos += w;
		}
	}
	return pos;
}

/* Whether a packet at hop limit @hop, in over a local link (@in_local), is at its ECMP 2 switch. */
static __always_inline int __spritz_sw_is_ecmp2(const struct spritz_sw_cfg *cfg,
						const struct spritz_sw_info *me, __u32 hop,
						int in_local, __u32 dst_group)
{
	if (hop != (__u8)(cfg->hop_init - 1))
		return 0;
	/* §III-B: Dragonfly steers hop 2 only after a local first hop and
	 * only towards another group */
	if (cfg->policy == SPRITZ_SW_POLICY_DRAGONFLY)
		return in_local && dst_group != me->group;
	return 1;
}

/* The network ports an ECMP stage may use (switch.rst, "Port choice"). */
static __always_inline __u64 __spritz_sw_allowed(const struct spritz_sw_cfg *cfg,
						 const struct spritz_sw_info *me, __u32 role,
						 __u32 dst_group)
{
	int df = cfg->policy == SPRITZ_SW_POLICY_DRAGONFLY;

	if (role == SPRITZ_SW_ROLE_ECMP1)
		return df && dst_group == me->group ? me->local_mask : me->all_mask;
	return df ? me->all_mask & ~me->local_mask : me->all_mask;
}

/* The random value's half an ECMP stage uses (two stages, two halves). */
static __always_inline __u32 __spritz_sw_half(__u32 x, __u32 role)
{
	return role == SPRITZ_SW_ROLE_ECMP1 ? x >> 16 : x & 0xffff;
}

/* ---------------------------------------------------------------- UGAL-L */

/* UGAL-L's rule (paper §VI-A): 1 to take the minimal path. */
static __always_inline int spritz_sw_ugal_minimal(__u32 q_min, __u32 h_min, __u32 q_val,
						  __u32 h_val)
{
	return (__u64)q_min * h_min <= (__u64)q_val * h_val;
}

/*
 * The Valiant candidate's second port: what switch @n1 (info @n1i), behind
 * port @p1 of this switch @me, does with the packet if it is misrouted
 * there, or SPRITZ_SW_SLOT_NONE if n1 does not steer it (n1 is the
 * destination, a Dragonfly global first hop, a same-group destination).
 */
static __always_inline __u32 spritz_sw_ugal_hop2(const struct spritz_sw_cfg *cfg,
						 const struct spritz_sw_info *me,
						 const struct spritz_sw_info *n1i, __u32 n1, __u32 p1,
						 const struct spritz_sw_pkt *p)
{
	int in_local;

	if (!n1i || n1 == p->dst_sw || p1 >= SPRITZ_SW_MAX_NET_PORTS)
		return SPRITZ_SW_SLOT_NONE;
	in_local = (me->local_mask >> p1) & 1; /* the link's type, seen from either end */
	if (!__spritz_sw_is_ecmp2(cfg, n1i, (__u8)(p->hop - 1), in_local, p->dst_group))
		return SPRITZ_SW_SLOT_NONE;
	return spritz_sw_pick_nth(__spritz_sw_allowed(cfg, n1i, SPRITZ_SW_ROLE_ECMP2, p->dst_group),
				  __spritz_sw_half(p->pkt_hash, SPRITZ_SW_ROLE_ECMP2));
}

/* Hop count of the Valiant candidate: 1 or 2 steered hops, then @rest minimal ones. */
static __always_inline __u32 spritz_sw_ugal_hval(__u32 p2, __u32 rest)
{
	return (p2 == SPRITZ_SW_SLOT_NONE ? 1 : 2) + rest;
}

/* ------------------------------------------------------------ decisions */

/* Decide a drop for @reason (enum spritz_sw_drop). */
static __always_inline __u32 __spritz_sw_drop(struct spritz_sw_decision *d, __u32 reason)
{
	d->drop = reason + 1;
	d->slot = SPRITZ_SW_SLOT_NONE;
	return SPRITZ_SW_V_DROP;
}

/* Ask the caller for the optional inputs @what (SPRITZ_SW_NEED_*). */
static __always_inline __u32 __spritz_sw_need(struct spritz_sw_decision *d, __u32 what)
{
	d->need = what;
	return SPRITZ_SW_V_NEED;
}

/*
 * The output port of a packet at an ECMP stage (@role, allowed ports @mask)
 * under cfg->mode; SPRITZ_SW_SLOT_NONE for the default table; or
 * SPRITZ_SW_V_NEED in *@ret with d->need set.
 */
static __always_inline __u32 __spritz_sw_stage(const struct spritz_sw_cfg *cfg,
					       const struct spritz_sw_pkt *p, __u32 role,
					       __u64 mask, struct spritz_sw_decision *d,
					       __u32 *ret)
{
	__u32 x, v;

	switch (cfg->mode) {
	case SPRITZ_SW_MODE_SPRITZ:
		/* identity hash: EV1 / EV2 index the canonical port order */
		d->ev = (__u32)p->ev;
		if (p->ev < 0)
			return SPRITZ_SW_SLOT_NONE;
		x = role == SPRITZ_SW_ROLE_ECMP1 ? SPRITZ_EV1(p->ev) : SPRITZ_EV2(p->ev);
		if (x < SPRITZ_SW_MAX_NET_PORTS && ((mask >> x) & 1))
			return x;
		return SPRITZ_SW_SLOT_NONE;
	case SPRITZ_SW_MODE_ECMP:
		d->ev = __spritz_sw_half(p->flow_hash, role);
		return spritz_sw_pick_nth(mask, d->ev);
	case SPRITZ_SW_MODE_VALIANT:
		d->ev = p->rnd;
		return spritz_sw_pick_nth(mask, p->rnd);
	case SPRITZ_SW_MODE_UGAL_L:
		d->ev = __spritz_sw_half(p->pkt_hash, role);
		v = spritz_sw_pick_nth(mask, d->ev);
		if (role == SPRITZ_SW_ROLE_ECMP2) {
			/* continue a misrouted packet's Valiant path */
			if (!(p->have & SPRITZ_SW_HAVE_PREV)) {
				*ret = __spritz_sw_need(d, SPRITZ_SW_NEED_PREV);
				return SPRITZ_SW_SLOT_NONE;
			}
			return p->in_minimal ? SPRITZ_SW_SLOT_NONE : v;
		}
		d->val_port = v;
		d->minimal = 1;
		/* a candidate through the minimal port never wins (its cost is
		 * at least the minimal path's): no need to look further */
		if (v == SPRITZ_SW_SLOT_NONE || v == p->route_port)
			return SPRITZ_SW_SLOT_NONE;
		if (!(p->have & SPRITZ_SW_HAVE_UGAL)) {
			*ret = __spritz_sw_need(d, SPRITZ_SW_NEED_UGAL);
			return SPRITZ_SW_SLOT_NONE;
		}
		if (spritz_sw_ugal_minimal(p->q_min, p->h_min, p->q_val, p->h_val))
			return SPRITZ_SW_SLOT_NONE;
		d->minimal = 0;
		return v;
	default: /* MINIMAL and unknown modes */
		return SPRITZ_SW_SLOT_NONE;
	}
}

/*
 * Decide what switch @sw (info @me, NULL if it has none) does with packet
 * @p under @cfg.  Fills @d and returns SPRITZ_SW_V_*.  The checks come in
 * the pipeline's order: unknown destination, hop limit, delivery, role,
 * port; a bad EV never drops (default table).
 */
static __always_inline __u32 spritz_sw_decide(const struct spritz_sw_cfg *cfg,
					      const struct spritz_sw_info *me, __u32 sw,
					      const struct spritz_sw_pkt *p,
					      struct spritz_sw_decision *d)
{
	__u32 ret = SPRITZ_SW_V_FORWARD, port = SPRITZ_SW_SLOT_NONE;

	__builtin_memset(d, 0, sizeof(*d));
	d->slot = SPRITZ_SW_SLOT_NONE;
	d->val_port = SPRITZ_SW_SLOT_NONE;
	d->role = SPRITZ_SW_ROLE_NONE;
	if (p->dst_sw >= SPRITZ_SW_MAX_SWITCHES)
		return __spritz_sw_drop(d, SPRITZ_SW_DROP_NO_ROUTE);
	if (p->hop <= 1)
		return __spritz_sw_drop(d, SPRITZ_SW_DROP_HOP_LIMIT);
	if (p->dst_sw == sw) {
		/* destination switch: the host slot of an exact host entry */
		if (p->dst_slot < SPRITZ_SW_HOST_SLOT0 || p->dst_slot >= SPRITZ_SW_MAX_SLOTS)
			return __spritz_sw_drop(d, SPRITZ_SW_DROP_NO_ROUTE);
		d->role = SPRITZ_SW_ROLE_DELIVER;
		d->slot = p->dst_slot;
		return SPRITZ_SW_V_FORWARD;
	}
	if (!me || p->dst_group == SPRITZ_SW_NONE)
		return __spritz_sw_drop(d, SPRITZ_SW_DROP_NO_ROUTE);

	/* role detection (§III-A) */
	d->role = SPRITZ_SW_ROLE_DEFAULT;
	if (cfg->mode != SPRITZ_SW_MODE_MINIMAL) {
		if (p->in_slot >= SPRITZ_SW_HOST_SLOT0)
			d->role = SPRITZ_SW_ROLE_ECMP1;
		else if (p->in_slot < SPRITZ_SW_MAX_NET_PORTS &&
			 __spritz_sw_is_ecmp2(cfg, me, p->hop, (me->local_mask >> p->in_slot) & 1,
					      p->dst_group))
			d->role = SPRITZ_SW_ROLE_ECMP2;
	}
	if (d->role != SPRITZ_SW_ROLE_DEFAULT) {
		port = __spritz_sw_stage(cfg, p, d->role,
					 __spritz_sw_allowed(cfg, me, d->role, p->dst_group), d, &ret);
		if (ret == SPRITZ_SW_V_NEED)
			return ret;
	}
	if (port < SPRITZ_SW_MAX_NET_PORTS) {
		d->steered = 1;
	} else {
		if (p->route_port >= SPRITZ_SW_MAX_NET_PORTS)
			return __spritz_sw_drop(d, SPRITZ_SW_DROP_NO_PORT);
		port = p->route_port;
	}
	d->slot = port;
	return SPRITZ_SW_V_FORWARD;
}

/*
 * Whether a packet may leave through a port with @flags (SPRITZ_SW_PORT_*)
 * and egress device @ifindex; @pure_ack: TCP without payload.  Returns 0
 * or enum spritz_sw_drop + 1.
 */
static __always_inline __u32 spritz_sw_port_check(__u32 flags, __u32 ifindex, int pure_ack)
{
	if (!(flags & SPRITZ_SW_PORT_VALID) || !ifindex)
		return SPRITZ_SW_DROP_NO_PORT + 1;
	if (flags & SPRITZ_SW_PORT_DOWN)
		return SPRITZ_SW_DROP_DOWN + 1;
	/* the paper's failed link: data dropped, ACKs still pass */
	if ((flags & SPRITZ_SW_PORT_BLACKHOLE) && !pure_ack)
		return SPRITZ_SW_DROP_BLACKHOLE + 1;
	return 0;
}

/* -------------------------------------------------------- virtual queue */
/*
 * A port's virtual output queue (struct spritz_sw_vq): the bytes sent out
 * of the port, drained at the port's rate since the last packet, a packet
 * that does not fit under the limit not counted.  It models a
 * work-conserving tail-drop FIFO served at exactly rate_kbps; the BPF
 * switch keeps one per (switch, slot) because it cannot read its egress
 * qdisc's backlog (Documentation/switch.rst, "UGAL-L").
 */
#define SPRITZ_SW_VQ_MAX_NS (1ULL << 32) /* idle longer (4.3 s): empty */

/* Backlog in bytes at @now (ns); 0 for a port without a rate. */
static __always_inline __u64 spritz_sw_vq_backlog(const struct spritz_sw_vq *q, __u64 now)
{
	__u64 dt = now > q->last_ns ? now - q->last_ns : 0, drained;

	if (!q->rate_kbps || dt > SPRITZ_SW_VQ_MAX_NS)
		return 0;
	/* kbit/s * ns = 10^-6 bit; at most 2^32 * 2^32 */
	drained = dt * q->rate_kbps / 8000000;
	return q->backlog > drained ? q->backlog - drained : 0;
}

/* A packet of @bytes leaves through the port at @now (ns). */
static __always_inline void spritz_sw_vq_add(struct spritz_sw_vq *q, __u64 now, __u32 bytes)
{
	__u64 b;

	if (!q->rate_kbps)
		return;
	b = spritz_sw_vq_backlog(q, now);
	if (!q->limit || b + bytes <= q->limit)
		b += bytes; /* else: tail drop, the real queue drops it too */
	q->backlog = b;
	if (now > q->last_ns)
		q->last_ns = now;
}

#endif /* _SPRITZ_SWITCH_CORE_H */
