// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the algorithm core include/spritz/lb.h.
 *
 * Most subtests are trace tables: each step is a send (with the EV the
 * "caller" draws when the core asks for a sample) or a feedback, followed by
 * what must come out (verdict, reason, sample flags, action) and what the
 * good-path buffer must hold afterwards, written "ev:lat_class[/ecn_count]"
 * front first.  The last subtests compare the core against a separate,
 * deliberately naive model of Algorithms 1-3 and the baselines over 10^5
 * random steps per algorithm, and feed it garbage state.
 */
#include <spritz/lb.h>
#include <spritz/kfuncs.h>

#include "test.h"

/* ------------------------------------------------------------ trace runner */

enum op {
	OP_SEND = 1, /* spritz_lb_send(), then spritz_lb_sent() on SAMPLE */
	OP_FB,	     /* spritz_lb_feedback(), or _n() for segs > 1 */
	OP_PC,	     /* check packet_count */
	OP_MINB,     /* check the SPRITZ_LB_F_MIN_BIAS flow flag */
	OP_RATE,     /* check the raw ECN-rate estimate */
};

struct step {
	int op;
	__u64 t;      /* SEND: now (ns) */
	__u32 segs;   /* SEND, FB: segments (0 = 1) */
	__u32 fb;     /* FB: enum spritz_lb_fb */
	__u16 ev;     /* SEND USE: expected EV; SEND SAMPLE: EV drawn; FB: EV */
	__u8 lat;     /* lat class of that EV */
	__u32 kind;   /* SEND: expected verdict kind */
	__u32 why;    /* SEND: expected reason */
	__u32 flags;  /* SEND SAMPLE: expected sample flags */
	__u32 act;    /* FB: expected actions */
	const char *buf; /* expected buffer after the step, NULL: not checked */
	__u64 val;    /* PC / MINB / RATE: expected value */
};

#define USE(t_, ev_, lat_, why_, buf_) \
	{ .op = OP_SEND, .t = (t_), .segs = 1, .ev = (ev_), .lat = (lat_), \
	  .kind = SPRITZ_LB_USE_EV, .why = SPRITZ_LB_WHY_##why_, .buf = (buf_) }
#define SAMPLE(t_, why_, flags_, ev_, lat_, buf_) \
	{ .op = OP_SEND, .t = (t_), .segs = 1, .ev = (ev_), .lat = (lat_), \
	  .kind = SPRITZ_LB_SAMPLE, .why = SPRITZ_LB_WHY_##why_, .flags = (flags_), .buf = (buf_) }
#define GUSE(segs_, ev_, lat_, why_, buf_) \
	{ .op = OP_SEND, .segs = (segs_), .ev = (ev_), .lat = (lat_), \
	  .kind = SPRITZ_LB_USE_EV, .why = SPRITZ_LB_WHY_##why_, .buf = (buf_) }
#define GSAMPLE(segs_, why_, flags_, ev_, lat_, buf_) \
	{ .op = OP_SEND, .segs = (segs_), .ev = (ev_), .lat = (lat_), \
	  .kind = SPRITZ_LB_SAMPLE, .why = SPRITZ_LB_WHY_##why_, .flags = (flags_), .buf = (buf_) }
#define ACK(ev_, lat_, buf_) { .op = OP_FB, .fb = SPRITZ_FB_ACK, .ev = (ev_), .lat = (lat_), .buf = (buf_) }
#define ECN(ev_, lat_, buf_) { .op = OP_FB, .fb = SPRITZ_FB_ACK_ECN, .ev = (ev_), .lat = (lat_), .buf = (buf_) }
#define NACK(ev_, lat_, buf_) { .op = OP_FB, .fb = SPRITZ_FB_NACK, .ev = (ev_), .lat = (lat_), .buf = (buf_) }
#define TMO(ev_, lat_, act_, buf_) \
	{ .op = OP_FB, .fb = SPRITZ_FB_TIMEOUT, .ev = (ev_), .lat = (lat_), .act = (act_), .buf = (buf_) }
/* feedback for a GSO send of segs_ packets */
#define GACK(segs_, ev_, lat_, buf_) \
	{ .op = OP_FB, .segs = (segs_), .fb = SPRITZ_FB_ACK, .ev = (ev_), .lat = (lat_), .buf = (buf_) }
#define GECN(segs_, ev_, lat_, buf_) \
	{ .op = OP_FB, .segs = (segs_), .fb = SPRITZ_FB_ACK_ECN, .ev = (ev_), .lat = (lat_), .buf = (buf_) }
#define GTMO(segs_, ev_, lat_, act_, buf_) \
	{ .op = OP_FB, .segs = (segs_), .fb = SPRITZ_FB_TIMEOUT, .ev = (ev_), .lat = (lat_), \
	  .act = (act_), .buf = (buf_) }
#define PC(n) { .op = OP_PC, .val = (n) }
#define MINB(b) { .op = OP_MINB, .val = (b) }
#define RATE(r) { .op = OP_RATE, .val = (r) }

#define U SPRITZ_LB_SAMPLE_UNIFORM
#define MB SPRITZ_LB_SAMPLE_MIN_BIAS
#define DIS SPRITZ_LB_ACT_DISABLE_PATH

static void dump_buf(const struct spritz_lb_flow *f, char *out, size_t sz)
{
	size_t off = 0;
	unsigned int i;

	out[0] = '\0';
	for (i = 0; i < f->len && i < SPRITZ_BUF_MAX; i++) {
		const struct spritz_lb_entry *e = &f->buf[i];

		off += snprintf(out + off, sz - off, "%s%u:%u", i ? " " : "", e->ev, e->lat_class);
		if (e->ecn_count)
			off += snprintf(out + off, sz - off, "/%u", e->ecn_count);
		if (off >= sz)
			return;
	}
}

/* Invariants that hold after every call, whatever the algorithm. */
static bool check_invariants(const struct spritz_lb_flow *f, const struct spritz_lb_cfg *c,
			     __u32 ecn_max, const char *what)
{
	unsigned int cap = c->buffer_size < SPRITZ_BUF_MAX ? c->buffer_size : SPRITZ_BUF_MAX;
	unsigned int i, j;
	bool ok = true;

	ok &= ASSERT_LE(f->len, cap, what);
	ok &= ASSERT_LE(f->ecn_rate, SPRITZ_LB_ECN_ONE, what);
	for (i = f->len; i < SPRITZ_BUF_MAX; i++) {
		const struct spritz_lb_entry *e = &f->buf[i];

		ok &= ASSERT_EQ(e->ev | e->ecn_count | e->lat_class | e->__pad, 0, what);
	}
	if (f->algo == SPRITZ_ALGO_SCOUT) {
		for (i = 0; i < f->len; i++) {
			ok &= ASSERT_LE(f->buf[i].ecn_count, ecn_max, what);
			if (i)
				ok &= ASSERT_LE(f->buf[i - 1].lat_class, f->buf[i].lat_class, what);
			for (j = 0; j < i; j++)
				ok &= ASSERT_NEQ(f->buf[j].ev, f->buf[i].ev, what);
		}
	} else if (f->algo == SPRITZ_ALGO_SPRAY) {
		for (i = 0; i < f->len; i++)
			ok &= ASSERT_EQ(f->buf[i].ecn_count, 0, what);
	} else {
		ok &= ASSERT_EQ(f->len, 0, what);
	}
	return ok;
}

static void run_trace(const char *name, const struct spritz_lb_cfg *cfg, struct spritz_lb_flow *f,
		      const struct step *s, size_t n)
{
	char what[128], buf[256];
	size_t i;

	for (i = 0; i < n; i++, s++) {
		struct spritz_lb_verdict v;
		__u32 r;

		snprintf(what, sizeof(what), "%s step %zu", name, i + 1);
		switch (s->op) {
		case OP_SEND:
			r = spritz_lb_send(f, cfg, s->t, s->segs, &v);
			ASSERT_EQ(r, v.kind, what);
			if (!ASSERT_EQ(v.kind, s->kind, what))
				return;
			ASSERT_EQ(v.reason, s->why, what);
			if (v.kind == SPRITZ_LB_USE_EV) {
				ASSERT_EQ(v.ev, s->ev, what);
				ASSERT_EQ(v.lat_class, s->lat, what);
			} else {
				ASSERT_EQ(v.flags, s->flags, what);
				spritz_lb_sent(f, cfg, s->ev, s->lat);
			}
			break;
		case OP_FB:
			r = s->segs > 1 ? spritz_lb_feedback_n(f, cfg, s->fb, s->ev, s->lat, s->segs) :
					  spritz_lb_feedback(f, cfg, s->fb, s->ev, s->lat);
			ASSERT_EQ(r, s->act, what);
			break;
		case OP_PC:
			ASSERT_EQ(f->packet_count, s->val, what);
			break;
		case OP_MINB:
			ASSERT_EQ(!!(f->flags & SPRITZ_LB_F_MIN_BIAS), s->val, what);
			break;
		case OP_RATE:
			ASSERT_EQ(f->ecn_rate, s->val, what);
			break;
		}
		if (s->buf) {
			dump_buf(f, buf, sizeof(buf));
			ASSERT_STREQ(buf, s->buf, what);
		}
		check_invariants(f, cfg, cfg->ecn_threshold, what);
		if (test__state.failed)
			return;
	}
}

#define RUN(name, cfg, trace)                                            \
	do {                                                             \
		struct spritz_lb_flow ___f;                              \
		spritz_lb_flow_init(&___f, &(cfg));                      \
		run_trace((name), &(cfg), &___f, (trace), ARRAY_SIZE(trace)); \
	} while (0)

static struct spritz_lb_cfg cfg_of(__u8 algo)
{
	struct spritz_lb_cfg c;

	spritz_lb_cfg_default(&c);
	c.algo = algo;
	return c;
}

/* ------------------------------------------------------------ ABI checks */

static void test_abi(void)
{
	static const char *const names[] = SPRITZ_ALGO_NAMES;
	struct spritz_knob_values k;
	struct spritz_lb_cfg c;

	ASSERT_EQ(sizeof(struct spritz_lb_cfg), 24, "cfg size");
	ASSERT_EQ(sizeof(struct spritz_lb_entry), 6, "entry size");
	ASSERT_EQ(sizeof(struct spritz_lb_flow), 72, "flow size");
	ASSERT_LE(sizeof(struct spritz_lb_flow), 96, "flow fits the budget");
	ASSERT_EQ(sizeof(struct spritz_lb_verdict), 12, "verdict size");
	ASSERT_EQ(SPRITZ_LB_SAMPLE_UNIFORM, SPRITZ_PICK_UNIFORM, "uniform flag = kfunc flag");
	ASSERT_EQ(SPRITZ_LB_SAMPLE_MIN_BIAS, SPRITZ_PICK_MIN_BIAS, "min-bias flag = kfunc flag");
	ASSERT_EQ(ARRAY_SIZE(names), SPRITZ_ALGO_NR, "algorithm names");
	ASSERT_STREQ(names[SPRITZ_ALGO_SCOUT], "scout", "scout index");
	ASSERT_STREQ(names[SPRITZ_ALGO_SPRAY], "spray", "spray index");
	ASSERT_STREQ(names[SPRITZ_ALGO_OPS], "ops", "ops index");
	ASSERT_STREQ(names[SPRITZ_ALGO_ECMP], "ecmp", "ecmp index");
	ASSERT_STREQ(names[SPRITZ_ALGO_FLICR], "flicr", "flicr index");
	ASSERT_EQ(SPRITZ_DEF_ALGO, SPRITZ_ALGO_DEFAULT, "default algorithm = knob");

	/* lb.h defaults are the knob defaults */
	memset(&k, 0, sizeof(k));
	k.algorithm = SPRITZ_ALGO_DEFAULT;
#define SET_DEF(name, def, min, max) k.name = (def);
	SPRITZ_KNOBS(SET_DEF)
#undef SET_DEF
	ASSERT_EQ(k.weighted, SPRITZ_DEF_WEIGHTED, "weighted default");
	ASSERT_EQ(k.explore_threshold, SPRITZ_DEF_EXPLORE_THRESHOLD, "explore default");
	ASSERT_EQ(k.ecn_threshold, SPRITZ_DEF_ECN_THRESHOLD, "ecn default");
	ASSERT_EQ(k.buffer_size, SPRITZ_DEF_BUFFER_SIZE, "buffer default");
	ASSERT_EQ(k.min_bias_ecn_pct, SPRITZ_DEF_MIN_BIAS_ECN_PCT, "min-bias default");
	ASSERT_EQ((__u64)k.flowlet_gap_us * 1000, SPRITZ_DEF_FLOWLET_GAP_NS, "gap default");
	ASSERT_EQ(SPRITZ_DEF_EXPLORE_THRESHOLD, 44, "Table II explore threshold");
	ASSERT_EQ(SPRITZ_DEF_ECN_THRESHOLD, 8, "Table II ECN threshold");

	spritz_lb_cfg_from_knobs(&c, &k);
	ASSERT_EQ(c.algo, SPRITZ_ALGO_SCOUT, "from knobs: algo");
	ASSERT_EQ(c.weighted, 1, "from knobs: weighted");
	ASSERT_EQ(c.explore_threshold, 44, "from knobs: explore");
	ASSERT_EQ(c.ecn_threshold, 8, "from knobs: ecn");
	ASSERT_EQ(c.buffer_size, 8, "from knobs: buffer");
	ASSERT_EQ(c.min_bias_ecn_pct, 90, "from knobs: pct");
	ASSERT_EQ(c.flowlet_gap_ns, 50000, "from knobs: gap ns");
	ASSERT_EQ(c.ecn_ewma_shift, SPRITZ_DEF_ECN_EWMA_SHIFT, "from knobs: ewma");

	k.algorithm = SPRITZ_ALGO_FLICR;
	k.weighted = 7;
	k.buffer_size = 200;
	k.min_bias_ecn_pct = 250;
	k.flowlet_gap_us = 10000000; /* knob maximum: 10 s, > 32 bits of ns */
	spritz_lb_cfg_from_knobs(&c, &k);
	ASSERT_EQ(c.algo, SPRITZ_ALGO_FLICR, "from knobs: flicr");
	ASSERT_EQ(c.weighted, 1, "from knobs: weighted normalised");
	ASSERT_EQ(c.buffer_size, SPRITZ_BUF_MAX, "from knobs: buffer clamped");
	ASSERT_EQ(c.min_bias_ecn_pct, 100, "from knobs: pct clamped");
	ASSERT_EQ(c.flowlet_gap_ns, 10000000000ULL, "from knobs: 10 s gap");
	k.algorithm = 99;
	spritz_lb_cfg_from_knobs(&c, &k);
	ASSERT_EQ(c.algo, SPRITZ_ALGO_NR, "from knobs: unknown algorithm");
}

/* ------------------------------------------------------------ Spritz-Scout */

/* Alg. 1 + 2: empty buffer samples, front is reused, insertion by latency. */
static void test_scout_basic(void)
{
	struct spritz_lb_cfg c = cfg_of(SPRITZ_ALGO_SCOUT);
	static const struct step t[] = {
		SAMPLE(0, EMPTY, 0, 10, 2, ""), /* weighted: no flags */
		PC(1),
		SAMPLE(0, EMPTY, 0, 20, 0, ""), /* the sample is not cached */
		ACK(10, 2, "10:2"),
		USE(0, 10, 2, BUFFER, "10:2"), /* Scout keeps the front */
		USE(0, 10, 2, BUFFER, "10:2"),
		ACK(20, 0, "20:0 10:2"),       /* shorter goes first */
		USE(0, 20, 0, BUFFER, "20:0 10:2"),
		ACK(30, 2, "20:0 10:2 30:2"),  /* equal class: after */
		ACK(10, 2, "20:0 10:2 30:2"),  /* no duplicates */
		ACK(20, 0, "20:0 10:2 30:2"),
		ACK(40, 1, "20:0 40:1 10:2 30:2"),
		ACK(50, 0, "20:0 50:0 40:1 10:2 30:2"),
		ACK(60, 3, "20:0 50:0 40:1 10:2 30:2 60:3"),
		NACK(20, 0, "50:0 40:1 10:2 30:2 60:3"),
		USE(0, 50, 0, BUFFER, "50:0 40:1 10:2 30:2 60:3"),
		NACK(99, 0, "50:0 40:1 10:2 30:2 60:3"), /* not buffered: no-op */
		NACK(60, 3, "50:0 40:1 10:2 30:2"),      /* remove the last */
		NACK(40, 1, "50:0 10:2 30:2"),           /* remove the middle */
		PC(6),
		NACK(50, 0, "10:2 30:2"),
		NACK(10, 2, "30:2"),
		NACK(30, 2, ""),
		SAMPLE(0, EMPTY, 0, 70, 1, ""),
		PC(7),
	};

	RUN("scout_basic", c, t);
}

/* Alg. 2 line 3: "size < 8" is checked before anything else: a full buffer
 * takes nothing, not even a shorter path; the buffer_size knob lowers 8. */
static void test_scout_capacity(void)
{
	struct spritz_lb_cfg c = cfg_of(SPRITZ_ALGO_SCOUT);
	static const struct step t8[] = {
		ACK(1, 5, "1:5"), ACK(2, 5, "1:5 2:5"), ACK(3, 4, "3:4 1:5 2:5"),
		ACK(4, 6, "3:4 1:5 2:5 4:6"), ACK(5, 0, "5:0 3:4 1:5 2:5 4:6"),
		ACK(6, 6, "5:0 3:4 1:5 2:5 4:6 6:6"), ACK(7, 1, "5:0 7:1 3:4 1:5 2:5 4:6 6:6"),
		ACK(8, 9, "5:0 7:1 3:4 1:5 2:5 4:6 6:6 8:9"),
		ACK(9, 0, "5:0 7:1 3:4 1:5 2:5 4:6 6:6 8:9"), /* full: 8, not 9 */
		ACK(10, 255, "5:0 7:1 3:4 1:5 2:5 4:6 6:6 8:9"),
		TMO(8, 9, DIS, "5:0 7:1 3:4 1:5 2:5 4:6 6:6"),
		ACK(9, 0, "5:0 9:0 7:1 3:4 1:5 2:5 4:6 6:6"),
	};
	static const struct step t3[] = {
		ACK(1, 1, "1:1"), ACK(2, 2, "1:1 2:2"), ACK(3, 3, "1:1 2:2 3:3"),
		ACK(4, 0, "1:1 2:2 3:3"), /* buffer_size 3 is full */
		NACK(2, 2, "1:1 3:3"),
		ACK(4, 0, "4:0 1:1 3:3"),
		ACK(5, 0, "4:0 1:1 3:3"),
	};
	static const struct step t1[] = {
		SAMPLE(0, EMPTY, 0, 1, 1, ""),
		ACK(1, 1, "1:1"), ACK(2, 0, "1:1"),
		USE(0, 1, 1, BUFFER, "1:1"),
	};
	static const struct step t0[] = {
		ACK(1, 1, ""), /* buffer_size 0: never caches */
		SAMPLE(0, EMPTY, 0, 1, 1, ""),
	};

	RUN("scout_cap8", c, t8);
	c.buffer_size = 3;
	RUN("scout_cap3", c, t3);
	c.buffer_size = 1;
	RUN("scout_cap1", c, t1);
	c.buffer_size = 0;
	RUN("scout_cap0", c, t0);
	c.buffer_size = 200; /* clamped to SPRITZ_BUF_MAX */
	RUN("scout_cap200", c, t8);
}

/* Alg. 2 lines 5-10: the (ecn_threshold + 1)-th mark evicts; per entry. */
static void test_scout_ecn_eviction(void)
{
	struct spritz_lb_cfg c = cfg_of(SPRITZ_ALGO_SCOUT);
	static const struct step t[] = {
		ACK(10, 0, "10:0"), ACK(20, 1, "10:0 20:1"),
		ECN(10, 0, "10:0/1 20:1"), ECN(10, 0, "10:0/2 20:1"),
		ECN(20, 1, "10:0/2 20:1/1"),
		ECN(10, 0, "10:0/3 20:1/1"), ECN(10, 0, "10:0/4 20:1/1"),
		ECN(10, 0, "10:0/5 20:1/1"), ECN(10, 0, "10:0/6 20:1/1"),
		ACK(10, 0, "10:0/6 20:1/1"), /* an ACK does not reset the count */
		ECN(10, 0, "10:0/7 20:1/1"),
		USE(0, 10, 0, BUFFER, "10:0/7 20:1/1"),
		ECN(10, 0, "10:0/8 20:1/1"), /* 8 = threshold: still there */
		USE(0, 10, 0, BUFFER, "10:0/8 20:1/1"),
		ECN(10, 0, "20:1/1"),        /* 9 > 8: evicted */
		USE(0, 20, 1, BUFFER, "20:1/1"),
		ECN(10, 0, "20:1/1"),        /* not buffered: no counter */
		ACK(10, 0, "10:0 20:1/1"),   /* back with a fresh counter */
		ECN(30, 0, "10:0 20:1/1"),
		NACK(20, 1, "10:0"),         /* NACK drops entry and count */
		ACK(20, 1, "10:0 20:1"),
	};
	static const struct step t0[] = {
		ACK(10, 0, "10:0"), ECN(10, 0, ""), /* threshold 0: first mark */
	};
	static const struct step t1[] = {
		ACK(10, 0, "10:0"), ECN(10, 0, "10:0/1"), ECN(10, 0, ""),
	};

	RUN("scout_ecn8", c, t);
	c.ecn_threshold = 0;
	RUN("scout_ecn0", c, t0);
	c.ecn_threshold = 1;
	RUN("scout_ecn1", c, t1);
}

/* Alg. 2 lines 15-19: timeout evicts and asks to disable the path. */
static void test_scout_timeout(void)
{
	struct spritz_lb_cfg c = cfg_of(SPRITZ_ALGO_SCOUT);
	static const struct step t[] = {
		ACK(10, 0, "10:0"), ACK(20, 1, "10:0 20:1"), ECN(10, 0, "10:0/1 20:1"),
		TMO(10, 0, DIS, "20:1"),
		TMO(10, 0, DIS, "20:1"), /* not buffered: still disable */
		USE(0, 20, 1, BUFFER, "20:1"),
		TMO(20, 1, DIS, ""),
		SAMPLE(0, EMPTY, 0, 30, 2, ""),
		ACK(10, 0, "10:0"),      /* comes back without its old count */
	};

	RUN("scout_timeout", c, t);
}

/* Alg. 1 lines 2-6: forced sample when packet_count > threshold, reset to 0. */
static void test_explore_threshold(void)
{
	struct spritz_lb_cfg c = cfg_of(SPRITZ_ALGO_SCOUT);
	static const struct step scout[] = {
		SAMPLE(0, EMPTY, 0, 10, 1, ""), PC(1),
		ACK(10, 1, "10:1"),
		USE(0, 10, 1, BUFFER, "10:1"), PC(2),
		USE(0, 10, 1, BUFFER, "10:1"), PC(3),
		USE(0, 10, 1, BUFFER, "10:1"), PC(4),   /* 3 > 3 is false */
		SAMPLE(0, EXPLORE, 0, 20, 0, "10:1"), PC(0), /* 4 > 3 */
		ACK(20, 0, "20:0 10:1"),
		USE(0, 20, 0, BUFFER, "20:0 10:1"), PC(1),
		USE(0, 20, 0, BUFFER, "20:0 10:1"), PC(2),
		USE(0, 20, 0, BUFFER, "20:0 10:1"), PC(3),
		USE(0, 20, 0, BUFFER, "20:0 10:1"), PC(4),
		SAMPLE(0, EXPLORE, 0, 30, 2, "20:0 10:1"), PC(0),
		USE(0, 20, 0, BUFFER, "20:0 10:1"), PC(1),
	};
	struct spritz_lb_flow f;
	struct spritz_lb_verdict v;
	unsigned int i, samples = 0, first = 0;

	c.explore_threshold = 3;
	RUN("explore_scout3", c, scout);

	/* the Table II default: one forced sample every 44 + 2 packets */
	c = cfg_of(SPRITZ_ALGO_SCOUT);
	spritz_lb_flow_init(&f, &c);
	spritz_lb_feedback(&f, &c, SPRITZ_FB_ACK, 5, 0);
	for (i = 1; i <= 46 * 10; i++) {
		spritz_lb_send(&f, &c, i, 1, &v);
		if (v.kind == SPRITZ_LB_SAMPLE) {
			ASSERT_EQ(v.reason, SPRITZ_LB_WHY_EXPLORE, "default: reason");
			ASSERT_EQ(i % 46, 0, "default: every 46th packet");
			if (!first)
				first = i;
			samples++;
		} else {
			ASSERT_EQ(v.ev, 5, "default: buffered EV");
		}
	}
	ASSERT_EQ(first, 46, "default: first forced sample");
	ASSERT_EQ(samples, 10, "default: forced samples");

	/* threshold 0: every other packet explores */
	c.explore_threshold = 0;
	spritz_lb_flow_init(&f, &c);
	spritz_lb_feedback(&f, &c, SPRITZ_FB_ACK, 5, 0);
	for (i = 1, samples = 0; i <= 100; i++) {
		spritz_lb_send(&f, &c, i, 1, &v);
		ASSERT_EQ(v.kind == SPRITZ_LB_SAMPLE, i % 2 == 0, "threshold 0");
	}
}

/* ------------------------------------------------------------ Spritz-Spray */

static void test_spray_basic(void)
{
	struct spritz_lb_cfg c = cfg_of(SPRITZ_ALGO_SPRAY);
	static const struct step t[] = {
		SAMPLE(0, EMPTY, 0, 10, 3, ""),
		ACK(10, 3, "10:3"),
		ACK(10, 3, "10:3 10:3"),           /* duplicates allowed */
		ACK(20, 0, "10:3 10:3 20:0"),      /* FIFO, not by latency */
		USE(0, 10, 3, BUFFER, "10:3 20:0"), /* each use removes */
		ECN(10, 3, "10:3 20:0"),           /* ECN ignored */
		NACK(20, 0, "10:3 20:0"),          /* NACK ignored */
		ECN(30, 1, "10:3 20:0"),           /* ECN is not a good path */
		USE(0, 10, 3, BUFFER, "20:0"),
		ACK(10, 3, "20:0 10:3"),           /* recycled at the end */
		USE(0, 20, 0, BUFFER, "10:3"),
		USE(0, 10, 3, BUFFER, ""),
		SAMPLE(0, EMPTY, 0, 40, 2, ""),
		PC(6),
	};
	static const struct step full[] = {
		ACK(1, 0, "1:0"), ACK(1, 0, "1:0 1:0"), ACK(2, 1, "1:0 1:0 2:1"),
		ACK(1, 0, "1:0 1:0 2:1 1:0"), ACK(3, 0, "1:0 1:0 2:1 1:0 3:0"),
		ACK(3, 0, "1:0 1:0 2:1 1:0 3:0 3:0"), ACK(4, 2, "1:0 1:0 2:1 1:0 3:0 3:0 4:2"),
		ACK(5, 0, "1:0 1:0 2:1 1:0 3:0 3:0 4:2 5:0"),
		ACK(6, 0, "1:0 1:0 2:1 1:0 3:0 3:0 4:2 5:0"), /* 8 is full */
		USE(0, 1, 0, BUFFER, "1:0 2:1 1:0 3:0 3:0 4:2 5:0"),
		ACK(6, 0, "1:0 2:1 1:0 3:0 3:0 4:2 5:0 6:0"),
	};
	static const struct step cap2[] = {
		ACK(1, 0, "1:0"), ACK(2, 0, "1:0 2:0"), ACK(3, 0, "1:0 2:0"),
		USE(0, 1, 0, BUFFER, "2:0"), ACK(3, 0, "2:0 3:0"),
	};

	RUN("spray_basic", c, t);
	RUN("spray_full", c, full);
	c.buffer_size = 2;
	RUN("spray_cap2", c, cap2);
}

/* Alg. 3 lines 5-6: timeout disables the path, the buffer is not touched. */
static void test_spray_timeout(void)
{
	struct spritz_lb_cfg c = cfg_of(SPRITZ_ALGO_SPRAY);
	static const struct step t[] = {
		ACK(10, 0, "10:0"), ACK(20, 0, "10:0 20:0"), ACK(10, 0, "10:0 20:0 10:0"),
		TMO(10, 0, DIS, "10:0 20:0 10:0"),
		TMO(99, 0, DIS, "10:0 20:0 10:0"),
		USE(0, 10, 0, BUFFER, "20:0 10:0"),
	};

	RUN("spray_timeout", c, t);
}

static void test_spray_explore(void)
{
	struct spritz_lb_cfg c = cfg_of(SPRITZ_ALGO_SPRAY);
	static const struct step t[] = {
		ACK(1, 0, "1:0"), ACK(2, 0, "1:0 2:0"), ACK(3, 0, "1:0 2:0 3:0"),
		ACK(4, 0, "1:0 2:0 3:0 4:0"),
		USE(0, 1, 0, BUFFER, "2:0 3:0 4:0"), PC(1),
		USE(0, 2, 0, BUFFER, "3:0 4:0"), PC(2),
		USE(0, 3, 0, BUFFER, "4:0"), PC(3),
		SAMPLE(0, EXPLORE, 0, 9, 1, "4:0"), PC(0), /* front not consumed */
		USE(0, 4, 0, BUFFER, ""), PC(1),
		SAMPLE(0, EMPTY, 0, 9, 1, ""), PC(2),
	};

	c.explore_threshold = 2;
	RUN("spray_explore2", c, t);
}

/* ------------------------------------------------------------ ECN rate */

/* Alg. 2/3 last lines: sample with minimal bias while ecn_rate > pct. */
static void test_min_bias(void)
{
	struct spritz_lb_cfg c = cfg_of(SPRITZ_ALGO_SCOUT);
	/* gain 1/2: rates 0.5, 0.75, 0.375 ...; pct 50 is a strict bound */
	static const struct step scout[] = {
		SAMPLE(0, EMPTY, 0, 1, 0, ""), PC(1),
		ECN(7, 0, ""), RATE(32768), MINB(0),  /* exactly 50%: not > 50 */
		SAMPLE(0, EXPLORE, 0, 1, 0, ""), PC(0), /* explore threshold 0 */
		TMO(7, 0, DIS, ""), RATE(32768), MINB(0), /* timeouts do not count */
		NACK(7, 0, ""), RATE(49152), MINB(1), /* NACK counts as a mark */
		SAMPLE(0, EMPTY, MB, 1, 0, ""),
		ACK(1, 0, "1:0"), RATE(24576), MINB(0),
		SAMPLE(0, EXPLORE, 0, 2, 0, "1:0"),
		ECN(7, 0, "1:0"), ECN(7, 0, "1:0"), RATE(55296), MINB(1),
		USE(0, 1, 0, BUFFER, "1:0"),        /* buffered EVs unaffected */
		SAMPLE(0, EXPLORE, MB, 2, 0, "1:0"),
		ACK(2, 1, "1:0 2:1"), RATE(27648), MINB(0),
		USE(0, 1, 0, BUFFER, "1:0 2:1"),
		SAMPLE(0, EXPLORE, 0, 2, 0, "1:0 2:1"),
	};
	/* Spray (u): the flags combine */
	static const struct step spray[] = {
		ECN(7, 0, ""), ECN(7, 0, ""), MINB(1),
		SAMPLE(0, EMPTY, U | MB, 3, 0, ""),
		ACK(3, 0, "3:0"), MINB(0),
		USE(0, 3, 0, BUFFER, ""),
		SAMPLE(0, EMPTY, U, 3, 0, ""),
	};
	struct spritz_lb_flow f;
	unsigned int i, on = 0, off = 0;

	c.explore_threshold = 0;
	c.ecn_ewma_shift = 1;
	c.min_bias_ecn_pct = 50;
	RUN("min_bias_scout", c, scout);
	c.algo = SPRITZ_ALGO_SPRAY;
	c.weighted = 0;
	c.explore_threshold = SPRITZ_DEF_EXPLORE_THRESHOLD;
	RUN("min_bias_spray_u", c, spray);

	/* defaults (gain 1/16, > 90%): appears after a run of marks, goes on
	 * the first ACKs */
	c = cfg_of(SPRITZ_ALGO_SCOUT);
	spritz_lb_flow_init(&f, &c);
	for (i = 1; i <= 60 && !on; i++) {
		spritz_lb_feedback(&f, &c, SPRITZ_FB_ACK_ECN, 1, 0);
		if (f.flags & SPRITZ_LB_F_MIN_BIAS)
			on = i;
	}
	/* 1 - (15/16)^n > 0.9 first at n = 36 (35.7); truncation agrees */
	ASSERT_EQ(on, 36, "default: marks before min-bias");
	ASSERT_GT(spritz_lb_ecn_rate_pct(&f), 89, "default: rate pct");
	for (i = 1; i <= 10 && !off; i++) {
		spritz_lb_feedback(&f, &c, SPRITZ_FB_ACK, 1, 0);
		if (!(f.flags & SPRITZ_LB_F_MIN_BIAS))
			off = i;
	}
	ASSERT_EQ(off, 1, "default: one ACK ends it");

	/* pct 100 never biases; pct 0 biases on any mark */
	c.ecn_ewma_shift = 0;
	c.min_bias_ecn_pct = 100;
	spritz_lb_flow_init(&f, &c);
	spritz_lb_feedback(&f, &c, SPRITZ_FB_ACK_ECN, 1, 0);
	ASSERT_EQ(f.ecn_rate, SPRITZ_LB_ECN_ONE, "shift 0: last ACK");
	ASSERT_EQ(spritz_lb_ecn_rate_pct(&f), 100, "100%");
	ASSERT_FALSE(f.flags & SPRITZ_LB_F_MIN_BIAS, "pct 100");
	c.min_bias_ecn_pct = 0;
	spritz_lb_feedback(&f, &c, SPRITZ_FB_ACK, 1, 0);
	ASSERT_FALSE(f.flags & SPRITZ_LB_F_MIN_BIAS, "pct 0, rate 0");
	c.ecn_ewma_shift = 16;
	spritz_lb_feedback(&f, &c, SPRITZ_FB_ACK_ECN, 1, 0);
	ASSERT_EQ(f.ecn_rate, 1, "shift 16");
	ASSERT_TRUE(f.flags & SPRITZ_LB_F_MIN_BIAS, "pct 0, rate > 0");
	c.ecn_ewma_shift = 200; /* clamped to 16 (x86 would shift by 8) */
	spritz_lb_feedback(&f, &c, SPRITZ_FB_ACK_ECN, 1, 0);
	ASSERT_EQ(f.ecn_rate, 1, "shift clamped");
}

/* ------------------------------------------------------------ baselines */

static void test_ops(void)
{
	struct spritz_lb_cfg c = cfg_of(SPRITZ_ALGO_OPS);
	static const struct step w[] = {
		SAMPLE(0, SPRAY, 0, 1, 0, ""), SAMPLE(1, SPRAY, 0, 2, 1, ""),
		ACK(1, 0, ""),                  /* nothing is cached */
		SAMPLE(2, SPRAY, 0, 3, 0, ""),
		TMO(1, 0, 0, ""),               /* oblivious: no disabling */
		NACK(2, 1, ""),
		ECN(1, 0, ""), ECN(1, 0, ""), ECN(1, 0, ""), MINB(1),
		SAMPLE(3, SPRAY, 0, 4, 0, ""),  /* ... and no min-bias */
		PC(0),
	};
	static const struct step u[] = {
		SAMPLE(0, SPRAY, U, 1, 0, ""), ACK(1, 0, ""), SAMPLE(0, SPRAY, U, 1, 0, ""),
	};

	c.ecn_ewma_shift = 0;
	RUN("ops_w", c, w);
	c.weighted = 0;
	RUN("ops_u", c, u);
	c.algo = 77; /* unknown algorithms behave as OPS */
	RUN("ops_unknown", c, u);
}

static void test_ecmp(void)
{
	struct spritz_lb_cfg c = cfg_of(SPRITZ_ALGO_ECMP);
	static const struct step t[] = {
		SAMPLE(0, FIRST, U, 0x0305, 2, ""), /* hashing is uniform */
		USE(1, 0x0305, 2, CURRENT, ""),
		USE(1000000000, 0x0305, 2, CURRENT, ""), /* no flowlets */
		ECN(0x0305, 2, ""), NACK(0x0305, 2, ""),
		TMO(0x0305, 2, 0, ""),              /* static: no reaction */
		ACK(0x0305, 2, ""),
		USE(1000000001, 0x0305, 2, CURRENT, ""),
		GUSE(40, 0x0305, 2, CURRENT, ""),
		PC(0),
	};

	RUN("ecmp", c, t);
}

static void test_ecmp_pick_failed(void)
{
	struct spritz_lb_cfg c = cfg_of(SPRITZ_ALGO_ECMP);
	struct spritz_lb_flow f;
	struct spritz_lb_verdict v;

	spritz_lb_flow_init(&f, &c);
	ASSERT_EQ(spritz_lb_send(&f, &c, 0, 1, &v), SPRITZ_LB_SAMPLE, "first");
	/* the caller's pick failed: it does not call spritz_lb_sent() */
	ASSERT_EQ(spritz_lb_send(&f, &c, 1, 1, &v), SPRITZ_LB_SAMPLE, "asks again");
	spritz_lb_sent(&f, &c, 42, 1);
	ASSERT_EQ(spritz_lb_send(&f, &c, 2, 1, &v), SPRITZ_LB_USE_EV, "then sticks");
	ASSERT_EQ(v.ev, 42, "ev");
}

static void test_flicr(void)
{
	struct spritz_lb_cfg c = cfg_of(SPRITZ_ALGO_FLICR);
	static const struct step t[] = {
		SAMPLE(100, FIRST, 0, 5, 1, ""),
		USE(600, 5, 1, CURRENT, ""),
		USE(1599, 5, 1, CURRENT, ""),     /* gap 999 < 1000 */
		SAMPLE(2599, FLOWLET, 0, 6, 0, ""), /* gap 1000: new flowlet */
		USE(2600, 6, 0, CURRENT, ""),
		ECN(5, 1, ""),                    /* old path: ignored */
		NACK(5, 1, ""),
		USE(2700, 6, 0, CURRENT, ""),
		ACK(6, 0, ""),                    /* ACKs are not congestion */
		USE(2800, 6, 0, CURRENT, ""),
		ECN(6, 0, ""),
		ECN(6, 0, ""),                    /* one re-pick for a burst */
		SAMPLE(2900, CONGESTION, 0, 7, 2, ""),
		USE(3000, 7, 2, CURRENT, ""),
		ECN(6, 0, ""),                    /* late mark for the old path */
		USE(3100, 7, 2, CURRENT, ""),
		NACK(7, 2, ""),
		SAMPLE(3200, CONGESTION, 0, 8, 0, ""),
		TMO(8, 0, 0, ""),                 /* re-pick, no disabling */
		SAMPLE(3300, CONGESTION, 0, 9, 0, ""),
		USE(3000, 9, 0, CURRENT, ""),     /* clock went back: no gap */
		USE(3999, 9, 0, CURRENT, ""),
		SAMPLE(100000, FLOWLET, 0, 9, 0, ""), /* may draw the same */
		USE(100001, 9, 0, CURRENT, ""),
		ECN(9, 0, ""), ECN(9, 0, ""), ECN(9, 0, ""), ECN(9, 0, ""), MINB(1),
		SAMPLE(100002, CONGESTION, 0, 1, 0, ""), /* no min-bias for Flicr */
		PC(0),
	};
	static const struct step u[] = {
		SAMPLE(0, FIRST, U, 5, 1, ""), USE(0, 5, 1, CURRENT, ""),
		SAMPLE(1000, FLOWLET, U, 6, 1, ""),
	};
	static const struct step gap0[] = {
		SAMPLE(0, FIRST, 0, 5, 1, ""), SAMPLE(0, FLOWLET, 0, 6, 1, ""),
		SAMPLE(0, FLOWLET, 0, 7, 1, ""),
	};

	c.flowlet_gap_ns = 1000;
	c.ecn_ewma_shift = 1;
	RUN("flicr_w", c, t);
	c.weighted = 0;
	RUN("flicr_u", c, u);
	c.flowlet_gap_ns = 0;
	c.weighted = 1;
	RUN("flicr_gap0", c, gap0);
}

/* ------------------------------------------------------------ GSO */

/* A super-packet is one decision; its segs count as that many packets. */
static void test_gso_segs(void)
{
	struct spritz_lb_cfg c = cfg_of(SPRITZ_ALGO_SCOUT);
	static const struct step t[] = {
		ACK(10, 0, "10:0"),
		GUSE(4, 10, 0, BUFFER, "10:0"), PC(4),
		GUSE(2, 10, 0, BUFFER, "10:0"), PC(6),  /* 4 <= 5 */
		GSAMPLE(3, EXPLORE, 0, 20, 1, "10:0"), PC(2), /* 6 > 5: 0 + 2 */
		GUSE(0, 10, 0, BUFFER, "10:0"), PC(3),  /* 0 counts as 1 */
		GUSE(1, 10, 0, BUFFER, "10:0"), PC(4),
		GUSE(1, 10, 0, BUFFER, "10:0"), PC(5),
		GUSE(1, 10, 0, BUFFER, "10:0"), PC(6),
		GSAMPLE(1, EXPLORE, 0, 20, 1, "10:0"), PC(0),
		GUSE(0xffffffff, 10, 0, BUFFER, "10:0"), PC(0xffffffff),
		GSAMPLE(0xffffffff, EXPLORE, 0, 20, 1, "10:0"), PC(0xfffffffe),
		GSAMPLE(5, EXPLORE, 0, 20, 1, "10:0"), PC(4),
	};
	/* Spray: one buffered EV per super-packet */
	static const struct step spray[] = {
		ACK(1, 0, "1:0"), ACK(2, 0, "1:0 2:0"),
		GUSE(8, 1, 0, BUFFER, "2:0"), PC(8),
		GSAMPLE(1, EXPLORE, 0, 3, 0, "2:0"), PC(0),
	};

	c.explore_threshold = 5;
	RUN("gso_scout", c, t);
	c.algo = SPRITZ_ALGO_SPRAY;
	RUN("gso_spray", c, spray);
}

/*
 * Feedback for a super-packet of n segments is n packets' feedback:
 * Scout counts n marks (threshold 8: a 9-segment marked send evicts at
 * once, as nine marked packets would), Spray pushes n copies up to
 * buffer_size; an ACK, NACK or timeout is the same for any n.
 */
static void test_gso_feedback(void)
{
	struct spritz_lb_cfg c = cfg_of(SPRITZ_ALGO_SCOUT);
	static const struct step scout[] = {
		ACK(10, 0, "10:0"), GACK(44, 20, 1, "10:0 20:1"),
		GECN(3, 10, 0, "10:0/3 20:1"),
		GECN(5, 10, 0, "10:0/8 20:1"),   /* 8 = threshold: still there */
		GECN(1, 10, 0, "20:1"),          /* the ninth mark */
		GECN(9, 20, 1, ""),              /* nine at once */
		ACK(10, 0, "10:0"), GECN(8, 10, 0, "10:0/8"),
		GECN(0, 10, 0, ""),              /* 0 counts as 1 */
		ACK(10, 0, "10:0"), GECN(0xffffffff, 10, 0, ""), /* clamped, evicts */
		ACK(10, 0, "10:0"), GTMO(44, 10, 0, DIS, ""),
	};
	static const struct step spray[] = {
		GACK(3, 1, 0, "1:0 1:0 1:0"),
		GACK(44, 2, 1, "1:0 1:0 1:0 2:1 2:1 2:1 2:1 2:1"), /* up to 8 */
		GACK(2, 3, 0, "1:0 1:0 1:0 2:1 2:1 2:1 2:1 2:1"),  /* full */
		GECN(44, 3, 0, "1:0 1:0 1:0 2:1 2:1 2:1 2:1 2:1"), /* ignored */
		GTMO(44, 2, 1, DIS, "1:0 1:0 1:0 2:1 2:1 2:1 2:1 2:1"),
	};
	static const struct step spray4[] = {
		GACK(0, 1, 0, "1:0"), GACK(6, 2, 0, "1:0 2:0 2:0 2:0"), /* buffer_size 4 */
	};

	RUN("gso_fb_scout", c, scout);
	c.algo = SPRITZ_ALGO_SPRAY;
	RUN("gso_fb_spray", c, spray);
	c.buffer_size = 4;
	RUN("gso_fb_spray4", c, spray4);
}

/* ------------------------------------------------------------ knob changes */

static void test_cfg_changes(void)
{
	struct spritz_lb_cfg c = cfg_of(SPRITZ_ALGO_SCOUT);
	struct spritz_lb_flow f;
	struct spritz_lb_verdict v;
	char buf[256];
	__u16 ev;

	spritz_lb_flow_init(&f, &c);
	for (ev = 1; ev <= 6; ev++)
		spritz_lb_feedback(&f, &c, SPRITZ_FB_ACK, ev, (__u8)(7 - ev));
	dump_buf(&f, buf, sizeof(buf));
	ASSERT_STREQ(buf, "6:1 5:2 4:3 3:4 2:5 1:6", "filled");

	/* a smaller buffer_size keeps the shortest paths */
	c.buffer_size = 2;
	spritz_lb_send(&f, &c, 0, 1, &v);
	dump_buf(&f, buf, sizeof(buf));
	ASSERT_STREQ(buf, "6:1 5:2", "shrunk on send");
	ASSERT_EQ(v.ev, 6, "front after shrink");
	check_invariants(&f, &c, c.ecn_threshold, "shrunk");
	c.buffer_size = 1;
	spritz_lb_feedback(&f, &c, SPRITZ_FB_ACK, 9, 0);
	dump_buf(&f, buf, sizeof(buf));
	ASSERT_STREQ(buf, "6:1", "shrunk on feedback, full");
	check_invariants(&f, &c, c.ecn_threshold, "shrunk again");

	/* a new algorithm starts over, the ECN estimate survives */
	c.buffer_size = 8;
	c.ecn_ewma_shift = 0;
	spritz_lb_feedback(&f, &c, SPRITZ_FB_ACK_ECN, 6, 1);
	ASSERT_EQ(f.ecn_rate, SPRITZ_LB_ECN_ONE, "rate");
	ASSERT_TRUE(f.flags & SPRITZ_LB_F_MIN_BIAS, "min-bias");
	c.algo = SPRITZ_ALGO_SPRAY;
	ASSERT_EQ(spritz_lb_send(&f, &c, 0, 1, &v), SPRITZ_LB_SAMPLE, "spray starts empty");
	ASSERT_EQ(v.flags, SPRITZ_LB_SAMPLE_MIN_BIAS, "min-bias kept");
	ASSERT_EQ(f.packet_count, 1, "packet_count restarted");
	ASSERT_EQ(f.algo, SPRITZ_ALGO_SPRAY, "state algo");
	c.algo = SPRITZ_ALGO_ECMP;
	spritz_lb_send(&f, &c, 0, 1, &v);
	spritz_lb_sent(&f, &c, 33, 0);
	c.algo = SPRITZ_ALGO_FLICR;
	ASSERT_EQ(spritz_lb_send(&f, &c, 0, 1, &v), SPRITZ_LB_SAMPLE, "flicr forgets ecmp path");
	ASSERT_EQ(v.reason, SPRITZ_LB_WHY_FIRST, "flicr first");

	/* an unknown feedback kind changes nothing */
	{
		struct spritz_lb_flow g = f;

		ASSERT_EQ(spritz_lb_feedback(&f, &c, SPRITZ_FB_NR, 1, 0), 0, "unknown kind");
		ASSERT_MEMEQ(&f, &g, sizeof(f), "unknown kind: state");
	}
}

/* ------------------------------------------------------- reference model */

/*
 * A second, independent implementation written from the paper with no
 * concern for BPF: plain arrays, memmove, early returns.
 */
struct model {
	int algo;
	int len;
	unsigned int ev[SPRITZ_BUF_MAX + 1], lat[SPRITZ_BUF_MAX + 1], ecn[SPRITZ_BUF_MAX + 1];
	unsigned long long pc;
	bool have_cur, repick, min_bias;
	unsigned int cur_ev, cur_lat;
	unsigned long long last;
	unsigned int rate;
};

static int m_cap(const struct spritz_lb_cfg *c)
{
	return c->buffer_size > SPRITZ_BUF_MAX ? SPRITZ_BUF_MAX : c->buffer_size;
}

static void m_remove(struct model *m, int i)
{
	memmove(&m->ev[i], &m->ev[i + 1], (m->len - i - 1) * sizeof(m->ev[0]));
	memmove(&m->lat[i], &m->lat[i + 1], (m->len - i - 1) * sizeof(m->lat[0]));
	memmove(&m->ecn[i], &m->ecn[i + 1], (m->len - i - 1) * sizeof(m->ecn[0]));
	m->len--;
}

static int m_find(const struct model *m, unsigned int ev)
{
	for (int i = 0; i < m->len; i++)
		if (m->ev[i] == ev)
			return i;
	return -1;
}

static void m_prepare(struct model *m, const struct spritz_lb_cfg *c)
{
	if (m->len > m_cap(c))
		m->len = m_cap(c);
}

static void m_sample(const struct model *m, const struct spritz_lb_cfg *c, int why,
		     struct spritz_lb_verdict *v)
{
	v->kind = SPRITZ_LB_SAMPLE;
	v->reason = why;
	v->flags = 0;
	if (!c->weighted || m->algo == SPRITZ_ALGO_ECMP)
		v->flags |= SPRITZ_LB_SAMPLE_UNIFORM;
	if ((m->algo == SPRITZ_ALGO_SCOUT || m->algo == SPRITZ_ALGO_SPRAY) && m->min_bias)
		v->flags |= SPRITZ_LB_SAMPLE_MIN_BIAS;
}

static void m_use(unsigned int ev, unsigned int lat, int why, struct spritz_lb_verdict *v)
{
	v->kind = SPRITZ_LB_USE_EV;
	v->reason = why;
	v->ev = ev;
	v->lat_class = lat;
}

static void m_send(struct model *m, const struct spritz_lb_cfg *c, unsigned long long now,
		   unsigned int segs, struct spritz_lb_verdict *v)
{
	unsigned long long last = m->last;

	memset(v, 0, sizeof(*v));
	m_prepare(m, c);
	m->last = now;
	if (!segs)
		segs = 1;
	switch (m->algo) {
	case SPRITZ_ALGO_SCOUT:
	case SPRITZ_ALGO_SPRAY:
		if (m->pc > c->explore_threshold) {
			m->pc = segs - 1;
			m_sample(m, c, SPRITZ_LB_WHY_EXPLORE, v);
			return;
		}
		m->pc += segs;
		if (m->pc > 0xffffffffULL)
			m->pc = 0xffffffffULL;
		if (m->len == 0) {
			m_sample(m, c, SPRITZ_LB_WHY_EMPTY, v);
			return;
		}
		m_use(m->ev[0], m->lat[0], SPRITZ_LB_WHY_BUFFER, v);
		if (m->algo == SPRITZ_ALGO_SPRAY)
			m_remove(m, 0);
		return;
	case SPRITZ_ALGO_ECMP:
		if (m->have_cur)
			m_use(m->cur_ev, m->cur_lat, SPRITZ_LB_WHY_CURRENT, v);
		else
			m_sample(m, c, SPRITZ_LB_WHY_FIRST, v);
		return;
	case SPRITZ_ALGO_FLICR:
		if (!m->have_cur) {
			m_sample(m, c, SPRITZ_LB_WHY_FIRST, v);
		} else if (m->repick) {
			m->repick = false;
			m_sample(m, c, SPRITZ_LB_WHY_CONGESTION, v);
		} else if ((now >= last ? now - last : 0) >= c->flowlet_gap_ns) {
			m_sample(m, c, SPRITZ_LB_WHY_FLOWLET, v);
		} else {
			m_use(m->cur_ev, m->cur_lat, SPRITZ_LB_WHY_CURRENT, v);
		}
		return;
	default:
		m_sample(m, c, SPRITZ_LB_WHY_SPRAY, v);
	}
}

static void m_sent(struct model *m, unsigned int ev, unsigned int lat)
{
	if (m->algo == SPRITZ_ALGO_ECMP || m->algo == SPRITZ_ALGO_FLICR) {
		m->have_cur = true;
		m->cur_ev = ev;
		m->cur_lat = lat;
	}
}

/* The paper's per-packet step for one packet's feedback (Alg. 2, 3). */
static unsigned int m_feedback_one(struct model *m, const struct spritz_lb_cfg *c,
				   unsigned int kind, unsigned int ev, unsigned int lat)
{
	unsigned int act = 0;
	int i = m_find(m, ev);

	if (m->algo == SPRITZ_ALGO_SCOUT) {
		if (kind == SPRITZ_FB_ACK && m->len < m_cap(c) && i < 0) {
			int at = m->len;

			while (at > 0 && m->lat[at - 1] > lat)
				at--;
			memmove(&m->ev[at + 1], &m->ev[at], (m->len - at) * sizeof(m->ev[0]));
			memmove(&m->lat[at + 1], &m->lat[at], (m->len - at) * sizeof(m->lat[0]));
			memmove(&m->ecn[at + 1], &m->ecn[at], (m->len - at) * sizeof(m->ecn[0]));
			m->ev[at] = ev;
			m->lat[at] = lat;
			m->ecn[at] = 0;
			m->len++;
		} else if (kind == SPRITZ_FB_ACK_ECN && i >= 0) {
			m->ecn[i]++;
			if (m->ecn[i] > c->ecn_threshold)
				m_remove(m, i);
		} else if ((kind == SPRITZ_FB_NACK || kind == SPRITZ_FB_TIMEOUT) && i >= 0) {
			m_remove(m, i);
		}
		if (kind == SPRITZ_FB_TIMEOUT)
			act = SPRITZ_LB_ACT_DISABLE_PATH;
	} else if (m->algo == SPRITZ_ALGO_SPRAY) {
		if (kind == SPRITZ_FB_ACK && m->len < m_cap(c)) {
			m->ev[m->len] = ev;
			m->lat[m->len] = lat;
			m->ecn[m->len] = 0;
			m->len++;
		}
		if (kind == SPRITZ_FB_TIMEOUT)
			act = SPRITZ_LB_ACT_DISABLE_PATH;
	} else if (m->algo == SPRITZ_ALGO_FLICR) {
		if (kind != SPRITZ_FB_ACK && m->have_cur && ev == m->cur_ev)
			m->repick = true;
	}
	return act;
}

/* Feedback for @n packets sent together: the per-packet step n times,
 * one sample of the ECN estimate. */
static unsigned int m_feedback(struct model *m, const struct spritz_lb_cfg *c, unsigned int kind,
			       unsigned int ev, unsigned int lat, unsigned int n)
{
	unsigned int act = 0, shift = c->ecn_ewma_shift > 16 ? 16 : c->ecn_ewma_shift;

	m_prepare(m, c);
	if (kind == SPRITZ_FB_ACK)
		m->rate -= m->rate >> shift;
	else if (kind != SPRITZ_FB_TIMEOUT)
		m->rate += (SPRITZ_LB_ECN_ONE - m->rate) >> shift;
	for (; n > 0; n--)
		act |= m_feedback_one(m, c, kind, ev, lat);
	m->min_bias = c->min_bias_ecn_pct < 100 &&
		      (double)m->rate / SPRITZ_LB_ECN_ONE * 100.0 > c->min_bias_ecn_pct;
	return act;
}

static bool same(const struct model *m, const struct spritz_lb_flow *f, const char *what)
{
	bool ok = true;

	ok &= ASSERT_EQ(f->len, m->len, what);
	for (int i = 0; ok && i < m->len; i++) {
		ok &= ASSERT_EQ(f->buf[i].ev, m->ev[i], what);
		ok &= ASSERT_EQ(f->buf[i].lat_class, m->lat[i], what);
		if (m->algo == SPRITZ_ALGO_SCOUT)
			ok &= ASSERT_EQ(f->buf[i].ecn_count, m->ecn[i], what);
	}
	if (m->algo == SPRITZ_ALGO_SCOUT || m->algo == SPRITZ_ALGO_SPRAY)
		ok &= ASSERT_EQ(f->packet_count, m->pc, what);
	ok &= ASSERT_EQ(f->ecn_rate, m->rate, what);
	ok &= ASSERT_EQ(!!(f->flags & SPRITZ_LB_F_MIN_BIAS), m->min_bias, what);
	return ok;
}

static __u64 rng_state;

static __u64 rnd(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static unsigned int rndn(unsigned int n)
{
	return (unsigned int)(rnd() >> 33) % n;
}

static void random_cfg(struct spritz_lb_cfg *c, __u8 algo)
{
	static const __u64 gaps[] = { 0, 1, 500, 1000, 50000 };

	spritz_lb_cfg_default(c);
	c->algo = algo;
	c->weighted = rndn(2);
	c->buffer_size = rndn(4) ? 1 + rndn(SPRITZ_BUF_MAX) : rndn(12);
	c->explore_threshold = rndn(3) ? rndn(8) : 44;
	c->ecn_threshold = rndn(3) ? rndn(5) : 8;
	c->min_bias_ecn_pct = rndn(3) ? rndn(101) : 90;
	c->ecn_ewma_shift = rndn(6);
	c->flowlet_gap_ns = gaps[rndn(5)];
}

#define PROP_STEPS 100000
#define PROP_EVS 12

static void property(__u8 algo)
{
	struct spritz_lb_cfg c;
	struct spritz_lb_flow f;
	struct model m;
	unsigned long long now = 0;
	unsigned int sent[16] = { 0 }, nsent = 0;
	unsigned int counts[3 + SPRITZ_FB_NR] = { 0 };
	char what[96];
	long step;
	__u32 ecn_max;

	rng_state = 0x5eed0000ULL + algo;
	random_cfg(&c, algo);
	ecn_max = c.ecn_threshold;
	spritz_lb_flow_init(&f, &c);
	memset(&m, 0, sizeof(m));
	m.algo = algo;

	for (step = 0; step < PROP_STEPS; step++) {
		struct spritz_lb_verdict v, mv;
		unsigned int op = rndn(10), ev, lat, a, ma, n;

		snprintf(what, sizeof(what), "algo %u step %ld", algo, step);
		if (step % 1700 == 850) { /* knobs change under a live flow */
			random_cfg(&c, algo);
			/* counts above a lowered threshold go on the next mark */
			ecn_max = ecn_max > c.ecn_threshold ? ecn_max : c.ecn_threshold;
		}
		if (step % 1000 == 999) { /* a new flow */
			spritz_lb_flow_init(&f, &c);
			memset(&m, 0, sizeof(m));
			m.algo = algo;
			ecn_max = c.ecn_threshold;
		}
		if (op < 5) {
			unsigned int segs = rndn(8) ? 1 : rndn(70);

			now += rndn(4) ? rndn(c.flowlet_gap_ns + 2) : 0;
			if (!rndn(50))
				now -= now > 100 ? 100 : 0; /* clock from another CPU */
			spritz_lb_send(&f, &c, now, segs, &v);
			m_send(&m, &c, now, segs, &mv);
			if (!ASSERT_EQ(v.kind, mv.kind, what) || !ASSERT_EQ(v.reason, mv.reason, what))
				return;
			if (v.kind == SPRITZ_LB_SAMPLE) {
				ASSERT_EQ(v.flags, mv.flags, what);
				counts[0]++;
				if (rndn(20)) { /* else: the pick failed */
					ev = rndn(PROP_EVS);
					lat = ev % 4;
					spritz_lb_sent(&f, &c, ev, lat);
					m_sent(&m, ev, lat);
					sent[nsent++ % 16] = ev;
				}
			} else {
				ASSERT_EQ(v.ev, mv.ev, what);
				ASSERT_EQ(v.lat_class, mv.lat_class, what);
				counts[1]++;
				sent[nsent++ % 16] = v.ev;
			}
		} else {
			static const unsigned int kinds[] = {
				SPRITZ_FB_ACK, SPRITZ_FB_ACK, SPRITZ_FB_ACK, SPRITZ_FB_ACK,
				SPRITZ_FB_ACK_ECN, SPRITZ_FB_ACK_ECN, SPRITZ_FB_ACK_ECN,
				SPRITZ_FB_NACK, SPRITZ_FB_TIMEOUT,
			};
			unsigned int kind = kinds[rndn(ARRAY_SIZE(kinds))];

			/* mostly feedback for EVs actually sent, sometimes any */
			ev = nsent && rndn(4) ? sent[rndn(nsent < 16 ? nsent : 16)] : rndn(PROP_EVS);
			lat = ev % 4;
			/* a GSO send's feedback now and then */
			n = rndn(4) ? 1 : 1 + rndn(12);
			a = n > 1 ? spritz_lb_feedback_n(&f, &c, kind, ev, lat, n) :
				    spritz_lb_feedback(&f, &c, kind, ev, lat);
			ma = m_feedback(&m, &c, kind, ev, lat, n);
			ASSERT_EQ(a, ma, what);
			counts[3 + kind]++;
		}
		if (!same(&m, &f, what) || !check_invariants(&f, &c, ecn_max, what))
			return;
	}
	/* the run really exercised both verdicts and every feedback kind */
	ASSERT_GT(counts[0], algo == SPRITZ_ALGO_ECMP ? 100 : 1000, "samples");
	if (algo != SPRITZ_ALGO_OPS)
		ASSERT_GT(counts[1], 1000, "uses");
	for (int k = 0; k < SPRITZ_FB_NR; k++)
		ASSERT_GT(counts[3 + k], 1000, "feedback kinds");
}

static void test_property_scout(void) { property(SPRITZ_ALGO_SCOUT); }
static void test_property_spray(void) { property(SPRITZ_ALGO_SPRAY); }
static void test_property_ops(void) { property(SPRITZ_ALGO_OPS); }
static void test_property_ecmp(void) { property(SPRITZ_ALGO_ECMP); }
static void test_property_flicr(void) { property(SPRITZ_ALGO_FLICR); }

/* Any bytes in the state (stale map value, race): no out-of-bounds access
 * (run under -fsanitize=address,undefined to see it), and the invariants
 * hold again after one call. */
static void test_garbage_state(void)
{
	struct spritz_lb_cfg c;
	struct spritz_lb_flow f;
	struct spritz_lb_verdict v;
	int i;

	rng_state = 0xbad5eedULL;
	for (i = 0; i < 20000; i++) {
		unsigned char *p = (unsigned char *)&f;
		size_t j;

		for (j = 0; j < sizeof(f); j++)
			p[j] = (unsigned char)rnd();
		random_cfg(&c, (__u8)rndn(SPRITZ_ALGO_NR + 1));
		f.algo = rndn(2) ? c.algo : f.algo;
		if (rndn(2))
			spritz_lb_send(&f, &c, rnd(), (__u32)rnd(), &v);
		else
			spritz_lb_feedback(&f, &c, rndn(SPRITZ_FB_NR), (__u16)rnd(), (__u8)rnd());
		ASSERT_LE(f.len, c.buffer_size < SPRITZ_BUF_MAX ? c.buffer_size : SPRITZ_BUF_MAX,
			  "len clamped");
		ASSERT_LE(f.ecn_rate, SPRITZ_LB_ECN_ONE, "rate clamped");
		if (test__state.failed)
			return;
	}
}

static const struct test_case cases[] = {
	{ "abi", test_abi },
	{ "scout_basic", test_scout_basic },
	{ "scout_capacity", test_scout_capacity },
	{ "scout_ecn_eviction", test_scout_ecn_eviction },
	{ "scout_timeout", test_scout_timeout },
	{ "explore_threshold", test_explore_threshold },
	{ "spray_basic", test_spray_basic },
	{ "spray_timeout", test_spray_timeout },
	{ "spray_explore", test_spray_explore },
	{ "min_bias", test_min_bias },
	{ "ops", test_ops },
	{ "ecmp", test_ecmp },
	{ "ecmp_pick_failed", test_ecmp_pick_failed },
	{ "flicr", test_flicr },
	{ "gso_segs", test_gso_segs },
	{ "gso_feedback", test_gso_feedback },
	{ "cfg_changes", test_cfg_changes },
	{ "property_scout", test_property_scout },
	{ "property_spray", test_property_spray },
	{ "property_ops", test_property_ops },
	{ "property_ecmp", test_property_ecmp },
	{ "property_flicr", test_property_flicr },
	{ "garbage_state", test_garbage_state },
};

TEST_MAIN(cases)
