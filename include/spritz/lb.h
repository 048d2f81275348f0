/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Spritz algorithm core: the per-flow send and feedback logic of
 * Spritz-Scout and Spritz-Spray (paper §V, Algorithms 1-3) and of the
 * baselines OPS, ECMP and Flicr (paper §VI-A), as plain C.
 *
 * One header serves three builds: the tc eBPF datapath (clang -target bpf,
 * types from vmlinux.h), the userspace unit tests and the simulator.  It
 * therefore uses no library, no global state, no floating point, no
 * division, no function pointers, no recursion, and only loops bounded by
 * the compile-time constant SPRITZ_BUF_MAX.  Every array index is bounded
 * by a loop constant, so the code stays memory safe whatever a (possibly
 * racy or stale) state contains.
 *
 * The core never draws random numbers and never touches path tables.  It
 * answers, per packet, either "use this EV" or "sample a path with these
 * flags"; for a sample, the caller draws gen(w) (bpf_spritz_pick() in BPF, a
 * seeded RNG in tests) and reports the EV it used with spritz_lb_sent().  On
 * feedback, it answers with actions (SPRITZ_LB_ACT_DISABLE_PATH) that the
 * caller performs (bpf_spritz_path_timeout()).
 *
 *	packet out:  spritz_lb_send() -> USE_EV ev
 *	                              -> SAMPLE flags -> pick -> spritz_lb_sent()
 *	ACK/NACK/timeout in:  spritz_lb_feedback() -> actions
 *	                      (spritz_lb_feedback_n(): for a GSO send's n packets)
 *
 * The functions are not atomic: the caller serialises calls on one flow
 * (e.g. a bpf_spin_lock next to the state in the map value, released around
 * the kfunc call), or accepts that a race may lose an update.
 *
 * Documentation/algorithms.rst puts each function next to the paper's
 * pseudocode and lists the choices made where the paper is silent.
 */
#ifndef _SPRITZ_LB_H
#define _SPRITZ_LB_H

#include "abi.h"
#include "knobs.h" /* SPRITZ_BUF_MAX, struct spritz_knob_values */

/* ------------------------------------------------------------ algorithms */

/* Values of the "algorithm" knob; order = SPRITZ_ALGO_NAMES in knobs.h. */
enum spritz_algo {
	SPRITZ_ALGO_SCOUT = 0, /* Alg. 1 + Alg. 2: reuse cached good paths */
	SPRITZ_ALGO_SPRAY = 1, /* Alg. 1 + Alg. 3: each cached EV used once */
	SPRITZ_ALGO_OPS = 2,   /* oblivious packet spraying: sample every packet */
	SPRITZ_ALGO_ECMP = 3,  /* one path per flow, never changed */
	SPRITZ_ALGO_FLICR = 4, /* new path per flowlet or after congestion */
	SPRITZ_ALGO_NR = 5,
};

/* ------------------------------------------------------------- defaults */
/*
 * The knob defaults (SPRITZ_DEF_*) live in knobs.h with their sources;
 * these are the core's own, derived from them or with no knob.
 */
#define SPRITZ_DEF_ALGO SPRITZ_ALGO_SCOUT /* knobs.h SPRITZ_ALGO_DEFAULT */
#define SPRITZ_DEF_FLOWLET_GAP_NS (SPRITZ_DEF_FLOWLET_GAP_US * 1000ULL)
#define SPRITZ_DEF_ECN_EWMA_SHIFT 4 /* [L] gain 1/16 per ACK (DCTCP's g) */

/* ECN-rate estimate: fixed point, SPRITZ_LB_ECN_ONE = every ACK marked. */
#define SPRITZ_LB_ECN_SHIFT 16
#define SPRITZ_LB_ECN_ONE (1U << SPRITZ_LB_ECN_SHIFT)
#define SPRITZ_LB_ECN_EWMA_SHIFT_MAX 16

/* ---------------------------------------------------------------- config */
/*
 * Per-host (or per-flow) configuration, normally a copy of the knobs
 * (spritz_lb_cfg_from_knobs()).  24 bytes, no implicit padding.
 */
struct spritz_lb_cfg {
	/* Flicr: an idle gap >= this many ns since the flow's previous
	 * packet starts a new flowlet on a newly sampled path.  0 makes every
	 * packet a new flowlet. */
	__u64 flowlet_gap_ns;
	/* Alg. 1: a forced sample happens when packet_count > this. */
	__u32 explore_threshold;
	/* Alg. 2: a buffered EV is evicted when its ECN count exceeds this. */
	__u32 ecn_threshold;
	/* enum spritz_algo; other values behave as SPRITZ_ALGO_OPS. */
	__u8 algo;
	/* 1: gen(w) samples by the Eq. 1 weights; 0: uniformly.  Applies
	 * to Scout, Spray, OPS and Flicr; ECMP hashing is always uniform. */
	__u8 weighted;
	/* Good-path buffer capacity used, 0..SPRITZ_BUF_MAX (larger values
	 * are clamped to SPRITZ_BUF_MAX; 0 disables caching). */
	__u8 buffer_size;
	/* Alg. 2/3: minimal-path bias while the ECN rate > this percentage
	 * (0..100; 100 or more never biases). */
	__u8 min_bias_ecn_pct;
	/* ECN-rate EWMA gain 2^-shift per ACK (0: last ACK only; values
	 * above SPRITZ_LB_ECN_EWMA_SHIFT_MAX are clamped). */
	__u8 ecn_ewma_shift;
	__u8 __pad[3];
};

/* --------------------------------------------------------------- state */

/* One slot of the good-path buffer: an EV and what the core needs of it. */
struct spritz_lb_entry {
	__u16 ev;	 /* EV1:EV2, abi.h */
	__u16 ecn_count; /* Scout: ECN-marked ACKs since buffered (Alg. 2) */
	__u8 lat_class;	 /* path metadata: 0 = minimal, rank of latency */
	__u8 __pad;
};

/* spritz_lb_flow.flags */
#define SPRITZ_LB_F_HAVE_CUR (1U << 0) /* ECMP/Flicr: cur_ev is valid */
#define SPRITZ_LB_F_REPICK (1U << 1)   /* Flicr: congestion, re-sample next */
#define SPRITZ_LB_F_MIN_BIAS (1U << 2) /* ECN rate > min_bias_ecn_pct */

/*
 * Per-flow state (one per connection, or per destination if the datapath
 * chooses to share the cache between connections, paper §V-1).  72 bytes,
 * naturally aligned, no implicit padding, no bitfields: it is meant to be a
 * field of a BTF-typed BPF map value.  All-zero is a valid initial state
 * for SPRITZ_ALGO_SCOUT; spritz_lb_flow_init() sets it up for any.
 */
struct spritz_lb_flow {
	/* Time of the previous send (caller's clock, ns), for Flicr gaps. */
	__u64 last_send_ns;
	/* Alg. 1 packet_count: packets since the last forced sample. */
	__u32 packet_count;
	/* EWMA of the fraction of ECN-marked feedback, SPRITZ_LB_ECN_ONE = 1. */
	__u32 ecn_rate;
	/* ECMP/Flicr: the path in use (valid with SPRITZ_LB_F_HAVE_CUR). */
	__u16 cur_ev;
	__u8 cur_lat_class;
	/* SPRITZ_LB_F_* */
	__u8 flags;
	/* Entries in use: buf[0..len) are the buffer, buf[len..] are zero. */
	__u8 len;
	/* The algorithm this state was built by; a different cfg->algo
	 * resets the buffer and the path state on the next call. */
	__u8 algo;
	__u16 __pad;
	/*
	 * buffer_paths, front = buf[0].  Scout: sorted by lat_class, ties in
	 * insertion order, no duplicate EVs.  Spray: FIFO in ACK order,
	 * duplicates allowed.
	 */
	struct spritz_lb_entry buf[SPRITZ_BUF_MAX];
};

/* C11 and C++17 (the simulator) spell a static assertion differently */
#ifdef __cplusplus
#define SPRITZ_LB_ASSERT static_assert
#else
#define SPRITZ_LB_ASSERT _Static_assert
#endif
SPRITZ_LB_ASSERT(sizeof(struct spritz_lb_cfg) == 24, "spritz_lb_cfg layout");
SPRITZ_LB_ASSERT(sizeof(struct spritz_lb_entry) == 6, "spritz_lb_entry layout");
SPRITZ_LB_ASSERT(sizeof(struct spritz_lb_flow) == 24 + 6 * SPRITZ_BUF_MAX, "spritz_lb_flow layout");
SPRITZ_LB_ASSERT((SPRITZ_BUF_MAX) >= 1 && (SPRITZ_BUF_MAX) <= 255, "SPRITZ_BUF_MAX fits len");
SPRITZ_LB_ASSERT(((SPRITZ_BUF_MAX) & ((SPRITZ_BUF_MAX) - 1)) == 0, "SPRITZ_BUF_MAX masks an index");

/* ------------------------------------------------------------- verdicts */

/* spritz_lb_verdict.kind */
#define SPRITZ_LB_USE_EV 1 /* write verdict.ev into the packet */
#define SPRITZ_LB_SAMPLE 2 /* draw gen(w) with verdict.flags, then spritz_lb_sent() */

/* spritz_lb_verdict.reason: why this verdict (for tests and statistics) */
enum spritz_lb_reason {
	SPRITZ_LB_WHY_BUFFER = 1,     /* Scout/Spray: front of the buffer */
	SPRITZ_LB_WHY_CURRENT = 2,    /* ECMP/Flicr: the flow's current path */
	SPRITZ_LB_WHY_EXPLORE = 3,    /* Alg. 1 line 2: packet_count > threshold */
	SPRITZ_LB_WHY_EMPTY = 4,      /* Alg. 1 line 7: buffer empty */
	SPRITZ_LB_WHY_SPRAY = 5,      /* OPS: every packet */
	SPRITZ_LB_WHY_FIRST = 6,      /* ECMP/Flicr: no current path yet */
	SPRITZ_LB_WHY_FLOWLET = 7,    /* Flicr: gap >= flowlet_gap_ns */
	SPRITZ_LB_WHY_CONGESTION = 8, /* Flicr: ECN/NACK/timeout on current path */
	SPRITZ_LB_WHY_AVOIDED = 9,    /* Scout/Spray: the buffered EV is avoided (feedback.h) */
};

/*
 * Sample flags.  Same bits as bpf_spritz_pick()'s SPRITZ_PICK_* (kfuncs.h;
 * the tests check they agree), so the caller passes them through.  The
 * caller may add SPRITZ_PICK_SMALL_FLOW itself: flow size is not known here.
 */
#define SPRITZ_LB_SAMPLE_UNIFORM (1U << 0)  /* all enabled paths equally likely */
#define SPRITZ_LB_SAMPLE_MIN_BIAS (1U << 1) /* weight minimal paths by min_bias_factor */

struct spritz_lb_verdict {
	__u8 kind;	/* SPRITZ_LB_USE_EV or SPRITZ_LB_SAMPLE */
	__u8 reason;	/* enum spritz_lb_reason */
	__u16 ev;	/* USE_EV: the EV to put in the packet */
	__u8 lat_class; /* USE_EV: its latency class (echo it into feedback) */
	__u8 __pad[3];
	__u32 flags;	/* SAMPLE: SPRITZ_LB_SAMPLE_* */
};

/* ------------------------------------------------------------- feedback */

/* What the caller learnt about one packet sent on an EV. */
enum spritz_lb_fb {
	SPRITZ_FB_ACK = 0,     /* ACK without ECN mark: good path */
	SPRITZ_FB_ACK_ECN = 1, /* ACK with ECN echo: congestion building up */
	SPRITZ_FB_NACK = 2,    /* loss seen early (trim NACK, fast retransmit) */
	SPRITZ_FB_TIMEOUT = 3, /* no response within the timeout */
	SPRITZ_FB_NR = 4,
};

/* spritz_lb_feedback() actions, for the caller to perform */
#define SPRITZ_LB_ACT_DISABLE_PATH (1U << 0) /* set w[ev] = 0 for a while (kfunc) */

/* ------------------------------------------------------------- helpers */

static __always_inline void spritz_lb_cfg_default(struct spritz_lb_cfg *c)
{
	__builtin_memset(c, 0, sizeof(*c));
	c->flowlet_gap_ns = SPRITZ_DEF_FLOWLET_GAP_NS;
	c->explore_threshold = SPRITZ_DEF_EXPLORE_THRESHOLD;
	c->ecn_threshold = SPRITZ_DEF_ECN_THRESHOLD;
	c->algo = SPRITZ_DEF_ALGO;
	c->weighted = SPRITZ_DEF_WEIGHTED;
	c->buffer_size = SPRITZ_DEF_BUFFER_SIZE;
	c->min_bias_ecn_pct = SPRITZ_DEF_MIN_BIAS_ECN_PCT;
	c->ecn_ewma_shift = SPRITZ_DEF_ECN_EWMA_SHIFT;
}

/* Build a cfg from the module's knob snapshot (bpf_spritz_knobs()). */
static __always_inline void spritz_lb_cfg_from_knobs(struct spritz_lb_cfg *c,
						     const struct spritz_knob_values *k)
{
	spritz_lb_cfg_default(c);
	c->flowlet_gap_ns = (__u64)k->flowlet_gap_us * 1000;
	c->explore_threshold = k->explore_threshold;
	c->ecn_threshold = k->ecn_threshold;
	c->algo = k->algorithm < SPRITZ_ALGO_NR ? (__u8)k->algorithm : (__u8)SPRITZ_ALGO_NR;
	c->weighted = k->weighted ? 1 : 0;
	c->buffer_size = k->buffer_size < SPRITZ_BUF_MAX ? (__u8)k->buffer_size : SPRITZ_BUF_MAX;
	c->min_bias_ecn_pct = k->min_bias_ecn_pct < 100 ? (__u8)k->min_bias_ecn_pct : 100;
}

static __always_inline void spritz_lb_flow_init(struct spritz_lb_flow *f,
						const struct spritz_lb_cfg *c)
{
	__builtin_memset(f, 0, sizeof(*f));
	f->algo = c->algo;
}

/* ECN rate in percent, rounded down (0..100). */
static __always_inline __u32 spritz_lb_ecn_rate_pct(const struct spritz_lb_flow *f)
{
	__u32 r = f->ecn_rate > SPRITZ_LB_ECN_ONE ? SPRITZ_LB_ECN_ONE : f->ecn_rate;

	return (r * 100) >> SPRITZ_LB_ECN_SHIFT;
}

static __always_inline __u32 __spritz_lb_cap(const struct spritz_lb_cfg *c)
{
	return c->buffer_size < SPRITZ_BUF_MAX ? c->buffer_size : SPRITZ_BUF_MAX;
}

static __always_inline int __spritz_lb_is_spritz(__u8 algo)
{
	return algo == SPRITZ_ALGO_SCOUT || algo == SPRITZ_ALGO_SPRAY;
}

static __always_inline void __spritz_lb_entry_zero(struct spritz_lb_entry *e)
{
	e->ev = 0;
	e->ecn_count = 0;
	e->lat_class = 0;
	e->__pad = 0;
}

/*
 * Bring the state in line with the cfg: a new algorithm starts from an
 * empty buffer and no current path (the ECN estimate is kept); a smaller
 * buffer_size keeps the first buffer_size entries (Scout: the shortest).
 * Also repairs a len that no valid sequence of calls produces.
 */
static __always_inline void __spritz_lb_sync(struct spritz_lb_flow *f,
					     const struct spritz_lb_cfg *c)
{
	__u32 cap = __spritz_lb_cap(c), len = f->len, i;

	if (f->algo != c->algo) {
		f->algo = c->algo;
		f->packet_count = 0;
		f->cur_ev = 0;
		f->cur_lat_class = 0;
		f->flags &= SPRITZ_LB_F_MIN_BIAS;
		len = 0;
	}
	if (len > cap)
		len = cap;
	if (len != f->len) {
		f->len = (__u8)len;
		for (i = 0; i < SPRITZ_BUF_MAX; i++)
			if (i >= len)
				__spritz_lb_entry_zero(&f->buf[i]);
	}
	if (f->ecn_rate > SPRITZ_LB_ECN_ONE)
		f->ecn_rate = SPRITZ_LB_ECN_ONE;
}

/* Index of the first buffered entry carrying @ev, or SPRITZ_BUF_MAX. */
static __always_inline __u32 __spritz_lb_find(const struct spritz_lb_flow *f, __u16 ev)
{
	__u32 i, pos = SPRITZ_BUF_MAX, len = f->len;

	for (i = 0; i < SPRITZ_BUF_MAX; i++)
		if (pos == SPRITZ_BUF_MAX && i < len && f->buf[i].ev == ev)
			pos = i;
	return pos;
}

/* Remove buf[@pos] (pos < len), closing the gap; the tail stays zero. */
static __always_inline void __spritz_lb_remove(struct spritz_lb_flow *f, __u32 pos)
{
	__u32 i;

	if (pos >= f->len || pos >= SPRITZ_BUF_MAX)
		return;
	for (i = 0; i < SPRITZ_BUF_MAX - 1; i++)
		if (i >= pos)
			f->buf[i] = f->buf[i + 1];
	__spritz_lb_entry_zero(&f->buf[SPRITZ_BUF_MAX - 1]);
	f->len--;
}

/* Insert at @pos (pos <= len < SPRITZ_BUF_MAX), shifting the rest back. */
static __always_inline void __spritz_lb_insert(struct spritz_lb_flow *f, __u32 pos, __u16 ev,
					       __u8 lat_class)
{
	__u32 i;

	if (f->len >= SPRITZ_BUF_MAX || pos > f->len)
		return;
	for (i = SPRITZ_BUF_MAX - 1; i > 0; i--)
		if (i > pos)
			f->buf[i] = f->buf[i - 1];
	for (i = 0; i < SPRITZ_BUF_MAX; i++) {
		if (i == pos) {
			f->buf[i].ev = ev;
			f->buf[i].ecn_count = 0;
			f->buf[i].lat_class = lat_class;
			f->buf[i].__pad = 0;
		}
	}
	f->len++;
}

/* __spritz_lb_insert() at the end (the caller checks f->len < cap). */
static __always_inline void __spritz_lb_append(struct spritz_lb_flow *f, __u16 ev, __u8 lat_class)
{
	struct spritz_lb_entry *e = &f->buf[f->len & (SPRITZ_BUF_MAX - 1)];

	e->ev = ev;
	e->ecn_count = 0;
	e->lat_class = lat_class;
	e->__pad = 0;
	f->len++;
}

static __always_inline __u32 __spritz_lb_sat_add(__u32 a, __u32 b)
{
	__u32 s = a + b;

	return s < a ? 0xffffffffU : s;
}

static __always_inline __u32 __spritz_lb_sample(const struct spritz_lb_flow *f,
						const struct spritz_lb_cfg *c,
						struct spritz_lb_verdict *v, __u8 reason)
{
	__u32 flags = 0;

	if (!c->weighted || f->algo == SPRITZ_ALGO_ECMP)
		flags |= SPRITZ_LB_SAMPLE_UNIFORM;
	if (__spritz_lb_is_spritz(f->algo) && (f->flags & SPRITZ_LB_F_MIN_BIAS))
		flags |= SPRITZ_LB_SAMPLE_MIN_BIAS;
	v->kind = SPRITZ_LB_SAMPLE;
	v->reason = reason;
	v->flags = flags;
	return SPRITZ_LB_SAMPLE;
}

static __always_inline __u32 __spritz_lb_use(struct spritz_lb_verdict *v, __u16 ev,
					     __u8 lat_class, __u8 reason)
{
	v->kind = SPRITZ_LB_USE_EV;
	v->reason = reason;
	v->ev = ev;
	v->lat_class = lat_class;
	return SPRITZ_LB_USE_EV;
}

/* ----------------------------------------------------------------- send */

/*
 * Decide the path of one packet (or one GSO/TSO super-packet of @segs
 * segments that all carry one EV; 0 counts as 1) sent at @now ns.  Fills
 * @v and returns v->kind.  On SPRITZ_LB_SAMPLE the caller draws a path with
 * v->flags and reports it with spritz_lb_sent().
 *
 * Scout and Spray follow Algorithm 1 line by line; a super-packet is one
 * decision whose first segment is the packet of Algorithm 1 and whose other
 * segs - 1 segments count as packets that followed it.
 */
static __always_inline __u32 spritz_lb_send(struct spritz_lb_flow *f,
					    const struct spritz_lb_cfg *c, __u64 now,
					    __u32 segs, struct spritz_lb_verdict *v)
{
	__u64 last = f->last_send_ns;

	__builtin_memset(v, 0, sizeof(*v));
	__spritz_lb_sync(f, c);
	f->last_send_ns = now;
	if (segs == 0)
		segs = 1;

	switch (f->algo) {
	case SPRITZ_ALGO_SCOUT:
	case SPRITZ_ALGO_SPRAY:
		/* Alg. 1 lines 2-5: periodic exploration, buffer untouched */
		if (f->packet_count > c->explore_threshold) {
			f->packet_count = segs - 1;
			return __spritz_lb_sample(f, c, v, SPRITZ_LB_WHY_EXPLORE);
		}
		/* line 6 */
		f->packet_count = __spritz_lb_sat_add(f->packet_count, segs);
		/* lines 7-9 */
		if (f->len == 0)
			return __spritz_lb_sample(f, c, v, SPRITZ_LB_WHY_EMPTY);
		/* lines 11-15 */
		__spritz_lb_use(v, f->buf[0].ev, f->buf[0].lat_class, SPRITZ_LB_WHY_BUFFER);
		if (f->algo == SPRITZ_ALGO_SPRAY)
			__spritz_lb_remove(f, 0);
		return SPRITZ_LB_USE_EV;

	case SPRITZ_ALGO_ECMP:
		if (f->flags & SPRITZ_LB_F_HAVE_CUR)
			return __spritz_lb_use(v, f->cur_ev, f->cur_lat_class, SPRITZ_LB_WHY_CURRENT);
		return __spritz_lb_sample(f, c, v, SPRITZ_LB_WHY_FIRST);

	case SPRITZ_ALGO_FLICR:
		if (!(f->flags & SPRITZ_LB_F_HAVE_CUR))
			return __spritz_lb_sample(f, c, v, SPRITZ_LB_WHY_FIRST);
		if (f->flags & SPRITZ_LB_F_REPICK) {
			f->flags &= ~SPRITZ_LB_F_REPICK;
			return __spritz_lb_sample(f, c, v, SPRITZ_LB_WHY_CONGESTION);
		}
		if ((now > last ? now - last : 0) >= c->flowlet_gap_ns)
			return __spritz_lb_sample(f, c, v, SPRITZ_LB_WHY_FLOWLET);
		return __spritz_lb_use(v, f->cur_ev, f->cur_lat_class, SPRITZ_LB_WHY_CURRENT);

	default: /* SPRITZ_ALGO_OPS and unknown values */
		return __spritz_lb_sample(f, c, v, SPRITZ_LB_WHY_SPRAY);
	}
}

/*
 * The caller used @ev (latency class @lat_class) for the packet that got a
 * SPRITZ_LB_SAMPLE verdict.  ECMP and Flicr make it the flow's current path;
 * Scout, Spray and OPS keep nothing (Alg. 1 returns paths[i] without caching
 * it: only a later ACK can put it in the buffer).  If sampling failed, the
 * caller simply does not call this.
 */
static __always_inline void spritz_lb_sent(struct spritz_lb_flow *f,
					   const struct spritz_lb_cfg *c, __u16 ev,
					   __u8 lat_class)
{
	__spritz_lb_sync(f, c);
	if (f->algo == SPRITZ_ALGO_ECMP || f->algo == SPRITZ_ALGO_FLICR) {
		f->cur_ev = ev;
		f->cur_lat_class = lat_class;
		f->flags |= SPRITZ_LB_F_HAVE_CUR;
	}
}

/* ------------------------------------------------------------- feedback */

/* The ECN-rate estimate: EWMA over ACK (0), ACK_ECN and NACK (1). */
static __always_inline void __spritz_lb_ecn_update(struct spritz_lb_flow *f,
						   const struct spritz_lb_cfg *c, int marked)
{
	__u32 shift = c->ecn_ewma_shift, r = f->ecn_rate;

	if (shift > SPRITZ_LB_ECN_EWMA_SHIFT_MAX)
		shift = SPRITZ_LB_ECN_EWMA_SHIFT_MAX;
	if (r > SPRITZ_LB_ECN_ONE)
		r = SPRITZ_LB_ECN_ONE;
	if (marked)
		r += (SPRITZ_LB_ECN_ONE - r) >> shift;
	else
		r -= r >> shift;
	f->ecn_rate = r;
}

/* Algorithm 2, for @n packets' feedback of @kind on @ev. */
static __always_inline __u32 __spritz_lb_feedback_scout(struct spritz_lb_flow *f,
							const struct spritz_lb_cfg *c,
							__u32 kind, __u16 ev, __u8 lat_class,
							__u32 n)
{
	__u32 pos = __spritz_lb_find(f, ev), i, at;

	switch (kind) {
	case SPRITZ_FB_ACK:
		/* lines 2-4: insert by latency, after equal classes */
		if (f->len < __spritz_lb_cap(c) && pos == SPRITZ_BUF_MAX) {
			at = 0;
			for (i = 0; i < SPRITZ_BUF_MAX; i++)
				if (i < f->len && f->buf[i].lat_class <= lat_class)
					at = i + 1;
			__spritz_lb_insert(f, at, ev, lat_class);
		}
		return 0;
	case SPRITZ_FB_ACK_ECN:
		/* lines 5-10 for each of @n marks: count it, evict on the
		 * (threshold+1)-th */
		for (i = 0; i < SPRITZ_BUF_MAX; i++) {
			if (i != pos)
				continue;
			if (f->buf[i].ecn_count + n > c->ecn_threshold) {
				__spritz_lb_remove(f, pos);
				break;
			}
			f->buf[i].ecn_count = (__u16)(f->buf[i].ecn_count + n < 0xffff ?
						      f->buf[i].ecn_count + n : 0xffff);
		}
		return 0;
	case SPRITZ_FB_NACK:
		/* lines 11-14: the counter goes with the entry */
		__spritz_lb_remove(f, pos);
		return 0;
	default: /* SPRITZ_FB_TIMEOUT, lines 15-19 */
		__spritz_lb_remove(f, pos);
		return SPRITZ_LB_ACT_DISABLE_PATH;
	}
}

/* Algorithm 3, for @n packets' feedback of @kind on @ev. */
static __always_inline __u32 __spritz_lb_feedback_spray(struct spritz_lb_flow *f,
							const struct spritz_lb_cfg *c,
							__u32 kind, __u16 ev, __u8 lat_class,
							__u32 n)
{
	__u32 i, cap = __spritz_lb_cap(c);

	switch (kind) {
	case SPRITZ_FB_ACK:
		/* lines 2-4 for each packet: push at the end, duplicates
		 * allowed (appends need no shifting) */
		for (i = 0; i < SPRITZ_BUF_MAX; i++) {
			if (i >= n || f->len >= cap)
				break;
			__spritz_lb_append(f, ev, lat_class);
		}
		return 0;
	case SPRITZ_FB_TIMEOUT:
		/* lines 5-6: disable only; buffered copies stay (each is used
		 * once and a dead path sends no ACK to push it again) */
		return SPRITZ_LB_ACT_DISABLE_PATH;
	default: /* ECN marks and NACKs are ignored */
		return 0;
	}
}

/*
 * Feedback of @kind for @n packets sent together on @ev (with latency
 * class @lat_class, as returned by the verdict or the sample): one GSO
 * super-packet, answered as a whole.  The same as @n calls of
 * spritz_lb_feedback() for Scout's ECN counter and Spray's buffer; the
 * ECN estimate takes one sample.  Updates the state and returns
 * SPRITZ_LB_ACT_* for the caller.  An unknown @kind changes nothing.
 */
static __always_inline __u32 spritz_lb_feedback_n(struct spritz_lb_flow *f,
						  const struct spritz_lb_cfg *c, __u32 kind,
						  __u16 ev, __u8 lat_class, __u32 n)
{
	__u32 act = 0, pct = c->min_bias_ecn_pct;

	if (kind >= SPRITZ_FB_NR)
		return 0;
	if (n == 0)
		n = 1;
	if (n > 0xffff)
		n = 0xffff;
	__spritz_lb_sync(f, c);
	if (kind != SPRITZ_FB_TIMEOUT)
		__spritz_lb_ecn_update(f, c, kind != SPRITZ_FB_ACK);

	switch (f->algo) {
	case SPRITZ_ALGO_SCOUT:
		act = __spritz_lb_feedback_scout(f, c, kind, ev, lat_class, n);
		break;
	case SPRITZ_ALGO_SPRAY:
		act = __spritz_lb_feedback_spray(f, c, kind, ev, lat_class, n);
		break;
	case SPRITZ_ALGO_FLICR:
		/* congestion or loss on the current path: re-pick next packet */
		if (kind != SPRITZ_FB_ACK && (f->flags & SPRITZ_LB_F_HAVE_CUR) && ev == f->cur_ev)
			f->flags |= SPRITZ_LB_F_REPICK;
		break;
	default: /* OPS, ECMP: oblivious */
		break;
	}

	/* Alg. 2/3 last lines: ecn_rate > min_bias_ecn_pct % */
	if (pct < 100 && (__u64)f->ecn_rate * 100 > (__u64)pct * SPRITZ_LB_ECN_ONE)
		f->flags |= SPRITZ_LB_F_MIN_BIAS;
	else
		f->flags &= ~SPRITZ_LB_F_MIN_BIAS;
	return act;
}

/*
 * Feedback of @kind for a packet sent on @ev (with latency class
 * @lat_class, as returned by the verdict or the sample): Algorithms 2
 * and 3 as the paper writes them.
 */
static __always_inline __u32 spritz_lb_feedback(struct spritz_lb_flow *f,
						const struct spritz_lb_cfg *c, __u32 kind,
						__u16 ev, __u8 lat_class)
{
	return spritz_lb_feedback_n(f, c, kind, ev, lat_class, 1);
}

#endif /* _SPRITZ_LB_H */
