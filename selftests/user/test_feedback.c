// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the feedback core include/spritz/feedback.h.
 *
 * Trace tables: each step is a send leaving (TCP flags, sequence range, the
 * EV it took), an ACK arriving (flags, cumulative ACK, SACK blocks, and its
 * own sequence range where the trace checks it) or the socket's receive
 * window at a send (rcv_wup, rcv_wnd), at a time on the caller's clock,
 * with the timeout.  After each step: the
 * feedback events it produced, written "KIND:ev" in ring order (ACK, ECN,
 * NACK, TMO), the counters it moved (every counter of the core not listed
 * must not move), and optionally snd_una, snd_nxt and the pending sends.
 * Events are taken from the ring (spritz_fb_take()) and go through
 * spritz_fb_apply() into a Scout flow, as the datapath does, so the fb_*
 * counters count them.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spritz/feedback.h>

#include "test.h"

#define US 1000ULL
#define MS 1000000ULL
#define TMO_NS (200 * MS) /* the flow timeout of a trace, unless it sets trace_tmo */

static __u64 trace_tmo = TMO_NS;
static __u32 trace_srtt_us; /* the socket's srtt a trace gives its flow, 0: unknown */
static __u32 trace_dupthresh; /* the socket's reordering a trace gives its flow, 0: unknown */

enum op {
	OP_TX = 1, /* a segment leaves */
	OP_RX,	   /* a segment with ACK arrives */
	OP_RCV,	   /* the socket's receive window at a send (spritz_fb_rcv_sent()) */
};

struct step {
	int op;
	__u64 t;	/* caller's clock, ns */
	__u8 flags;	/* TCP flags */
	__u32 seq;	/* TX, RX: first sequence number; RCV: rcv_wup */
	__u32 len;	/* TX, RX: payload bytes; RCV: rcv_wnd */
	__u16 ev;	/* TX: the EV the send took */
	__u16 segs;	/* TX: gso_segs (0 = 1) */
	__u32 ack;	/* RX: cumulative ACK */
	__u32 nsack;	/* RX: SACK blocks */
	__u32 sack[2 * SPRITZ_SACK_MAX];
	__u64 ts;	/* TX: SPRITZ_FB_TS(TSval); RX: the same of TSecr; 0: no option */
	int verify;	/* TX of new data: spritz_fb_verify() sends it to @ev (else: -1) */
	const char *events; /* expected events, "" for none */
	const char *counters; /* counters that moved, "name=delta ..." */
	const char *state;    /* NULL, or "una=U nxt=N pend=P" */
};

#define F_D (SPRITZ_TCP_ACK | SPRITZ_TCP_PSH)
#define F_A SPRITZ_TCP_ACK
#define F_E (SPRITZ_TCP_ACK | SPRITZ_TCP_ECE)

/* data send [seq, seq + len) on ev at t */
#define TX(t_, seq_, len_, ev_, evs_, ctr_, st_) \
	{ .op = OP_TX, .t = (t_), .flags = F_D, .seq = (seq_), .len = (len_), .ev = (ev_), \
	  .events = (evs_), .counters = (ctr_), .state = (st_) }
/* ... the verify send spritz_fb_verify() makes to ev_ */
#define TXV(t_, seq_, len_, ev_, evs_, ctr_, st_) \
	{ .op = OP_TX, .t = (t_), .flags = F_D, .seq = (seq_), .len = (len_), .ev = (ev_), \
	  .verify = 1, .events = (evs_), .counters = (ctr_), .state = (st_) }
/* any segment: flags given */
#define TXF(t_, fl_, seq_, len_, ev_, evs_, ctr_, st_) \
	{ .op = OP_TX, .t = (t_), .flags = (fl_), .seq = (seq_), .len = (len_), .ev = (ev_), \
	  .events = (evs_), .counters = (ctr_), .state = (st_) }
/* a GSO data send of segs_ packets */
#define TXG(t_, seq_, len_, segs_, ev_, evs_, ctr_, st_) \
	{ .op = OP_TX, .t = (t_), .flags = F_D, .seq = (seq_), .len = (len_), .segs = (segs_), \
	  .ev = (ev_), .events = (evs_), .counters = (ctr_), .state = (st_) }
#define RX(t_, fl_, ack_, evs_, ctr_, st_) \
	{ .op = OP_RX, .t = (t_), .flags = (fl_), .ack = (ack_), .events = (evs_), \
	  .counters = (ctr_), .state = (st_) }
#define RXS(t_, fl_, ack_, n_, blocks_, evs_, ctr_, st_) \
	{ .op = OP_RX, .t = (t_), .flags = (fl_), .ack = (ack_), .nsack = (n_), .sack = blocks_, \
	  .events = (evs_), .counters = (ctr_), .state = (st_) }
/* ... with a timestamp option: TSval @ts_ of a send, TSecr of an ACK */
#define TXT(t_, seq_, len_, ev_, ts_, evs_, ctr_, st_) \
	{ .op = OP_TX, .t = (t_), .flags = F_D, .seq = (seq_), .len = (len_), .ev = (ev_), \
	  .ts = SPRITZ_FB_TS(ts_), .events = (evs_), .counters = (ctr_), .state = (st_) }
#define RXT(t_, fl_, ack_, ts_, evs_, ctr_, st_) \
	{ .op = OP_RX, .t = (t_), .flags = (fl_), .ack = (ack_), .ts = SPRITZ_FB_TS(ts_), \
	  .events = (evs_), .counters = (ctr_), .state = (st_) }
/* ... the ACK a segment [seq_, seq_ + len_) of the peer carries */
#define RXQ(t_, fl_, ack_, seq_, len_, evs_, ctr_, st_) \
	{ .op = OP_RX, .t = (t_), .flags = (fl_), .ack = (ack_), .seq = (seq_), .len = (len_), \
	  .events = (evs_), .counters = (ctr_), .state = (st_) }
/* the socket's receive window [wup_, wup_ + wnd_] as it sends */
#define RCV(wup_, wnd_) { .op = OP_RCV, .seq = (wup_), .len = (wnd_), .events = "", .counters = "" }
#define B(...) { __VA_ARGS__ }

/* The core's counters, by name (the fields of struct spritz_stats it moves). */
#define FB_COUNTERS(X)                                                                      \
	X(eg_retrans) X(eg_ring_overrun) X(in_sack_blocks) X(in_ack_unsent) X(in_ack_old)   \
	X(in_ack_ctl) X(in_ack_seq) X(in_sack_bad) X(fb_ack) X(fb_ecn) X(fb_nack) X(fb_timeout)   \
	X(evictions) X(fb_sack_lost) X(fb_path_alive) X(fb_no_reach) X(fb_isolated) X(fb_congested)   \
	X(fb_verify)

static const struct {
	const char *name;
	size_t off;
} counters[] = {
#define X(f) { #f, offsetof(struct spritz_stats, f) },
	FB_COUNTERS(X)
#undef X
};

#define NCOUNTERS (ARRAY_SIZE(counters))

static __u64 ctr(const struct spritz_stats *s, size_t i)
{
	return *(const __u64 *)((const char *)s + counters[i].off);
}

/* Expected delta of counter @name from "name=delta ..." (0 when absent). */
static long long want_delta_named(const char *spec, const char *name)
{
	size_t n = strlen(name);
	const char *p = spec;

	while (p && *p) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, name, n) && p[n] == '=')
			return strtoll(p + n + 1, NULL, 10);
		p = strchr(p, ' ');
	}
	return 0;
}

/* Expected delta of counter @i from "name=delta ..." (0 when absent). */
static long long want_delta(const char *spec, size_t i)
{
	return want_delta_named(spec, counters[i].name);
}

/* The counters spritz_fb_decide() moves. */
static const struct {
	const char *name;
	size_t off;
} decide_counters[] = {
#define X(f) { #f, offsetof(struct spritz_stats, f) },
	X(dec_use_ev) X(dec_use_avoided) X(dec_sample) X(dec_verify) X(pick_avoid)
	X(pick_small_flow) X(pick_min_bias)
#undef X
};

/* Every name in @spec must be a counter (typos would pass silently). */
static bool spec_names_ok(const char *spec)
{
	const char *p = spec;
	size_t i, n;

	while (p && *p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		n = strcspn(p, "=");
		for (i = 0; i < NCOUNTERS; i++)
			if (strlen(counters[i].name) == n && !strncmp(p, counters[i].name, n))
				break;
		if (i == NCOUNTERS)
			return false;
		p = strchr(p, ' ');
	}
	return true;
}

static const char *const kind_names[SPRITZ_FB_NR] = { "ACK", "ECN", "NACK", "TMO" };

static void event_str(const struct spritz_fb_event *e, char *buf, size_t sz, size_t *off)
{
	if (*off < sz)
		*off += snprintf(buf + *off, sz - *off, "%s%s:%04x", *off ? " " : "",
				 e->kind < SPRITZ_FB_NR ? kind_names[e->kind] : "?", e->ev);
	if (e->segs > 1 && *off < sz) /* a GSO send's: "ECN:0005x4" */
		*off += snprintf(buf + *off, sz - *off, "x%u", e->segs);
}

static int pending(const struct spritz_fb_flow *fb)
{
	int i, n = 0;

	for (i = 0; i < SPRITZ_RING_SIZE; i++)
		n += fb->ring[i].state == SPRITZ_IF_PENDING;
	return n;
}

/* " avoid=" and avoid set @a (SPRITZ_AVOID_*), newest first, or "-". */
static void avoid_str(__u64 a, char *b, size_t len)
{
	__u32 k, n = SPRITZ_AVOID_N(a);
	int off = snprintf(b, len, " avoid=%s", n ? "" : "-");

	for (k = 0; k < n && off > 0 && (size_t)off < len; k++)
		off += snprintf(b + off, len - off, "%s%04x", k ? "," : "", SPRITZ_AVOID_EV(a, k));
}

static void run_trace(const char *name, const struct step *s, size_t n, __u32 *disables)
{
	struct spritz_fb_flow fb;
	struct spritz_lb_flow lb;
	struct spritz_lb_cfg cfg;
	struct spritz_stats st, st0;
	char what[160], got[256];
	size_t i, c;

	memset(&fb, 0, sizeof(fb));
	fb.srtt_us = trace_srtt_us;
	fb.dupthresh = trace_dupthresh;
	memset(&st, 0, sizeof(st));
	spritz_lb_cfg_default(&cfg);
	spritz_lb_flow_init(&lb, &cfg);
	if (disables)
		*disables = 0;
	for (i = 0; i < n; i++, s++) {
		struct spritz_fb_event ev;
		__u32 k, nout = 0, taken = 0;
		size_t off = 0;
		__u32 end = s->seq + spritz_tcp_seqlen(s->flags, s->len); /* TX, RX */

		snprintf(what, sizeof(what), "%s step %zu", name, i + 1);
		got[0] = 0;
		st0 = st;
		if (s->op == OP_TX) {
			int kind = spritz_fb_seg_kind(s->flags, s->len);

			if (kind == SPRITZ_SEG_DATA) {
				int repair = spritz_fb_presend(&fb, s->seq, end);

				if (repair)
					nout = spritz_fb_retrans(&fb, &st, s->seq, end, s->ts);
				/* new data asks for a verify send first, as spritz_decide() */
				ASSERT_EQ(repair ? -1 : spritz_fb_verify(&fb, &lb, s->t),
					  s->verify ? (int)SPRITZ_PICK(s->ev, 0) : -1, what);
				spritz_fb_record(&fb, &st, s->t, s->seq, end, s->ev, 0,
						 s->segs ? s->segs : 1);
			} else {
				spritz_fb_ctl_sent(&fb, s->flags, s->seq, end);
			}
		} else if (s->op == OP_RCV) {
			spritz_fb_rcv_sent(&fb, s->seq, s->len);
		} else {
			struct spritz_fb_ackinfo a;

			memset(&a, 0, sizeof(a));
			a.ack = s->ack;
			a.ece = !!(s->flags & SPRITZ_TCP_ECE);
			a.nsack = s->nsack;
			memcpy(a.sack, s->sack, sizeof(a.sack));
			a.ts = !!(s->ts >> 32);
			a.tsecr = (__u32)s->ts;
			if (spritz_fb_tracking(&fb) &&
			    spritz_fb_ack_check(&fb, &st, s->flags, s->ack, s->seq, end) ==
				    SPRITZ_FB_ACK_SCAN)
				nout = spritz_fb_ack(&fb, &st, s->t, trace_tmo, &a);
		}
		for (k = 0; k < SPRITZ_FB_SLOTS; k++)
			if (spritz_fb_take(&fb, k, &ev)) {
				taken++;
				event_str(&ev, got, sizeof(got), &off);
				if (spritz_fb_apply(&lb, &cfg, &st, &ev) & SPRITZ_LB_ACT_DISABLE_PATH &&
				    disables)
					(*disables)++;
			}
		ASSERT_STREQ(got, s->events, what);
		ASSERT_EQ(taken, nout, what);
		ASSERT_TRUE(spec_names_ok(s->counters), what);
		for (c = 0; c < NCOUNTERS; c++) {
			char w2[224];

			snprintf(w2, sizeof(w2), "%s: %s", what, counters[c].name);
			ASSERT_EQ((long long)(ctr(&st, c) - ctr(&st0, c)), want_delta(s->counters, c),
				  w2);
		}
		if (s->state) {
			int n = snprintf(got, sizeof(got), "una=%u nxt=%u pend=%d", fb.snd_una,
					 fb.snd_nxt, pending(&fb));

			/* " avoid=EV,EV" (newest first) or " avoid=-" at the end:
			 * the set the flow's samples avoid (spritz_fb_avoid()) */
			if (strstr(s->state, " avoid="))
				avoid_str(fb.avoid, got + n, sizeof(got) - n);
			ASSERT_STREQ(got, s->state, what);
		}
		if (test__state.failed)
			break;
	}
	trace_tmo = TMO_NS;
	trace_srtt_us = 0;
	trace_dupthresh = 0;
}

#define RUN(name, trace, dis) run_trace((name), (trace), ARRAY_SIZE(trace), (dis))

/* Run @trace with a 2 ms flow timeout: @want paths disabled. */
static void run_dis(const char *name, const struct step *s, size_t n, __u32 want)
{
	char what[96];
	__u32 dis;

	trace_tmo = 2 * MS;
	run_trace(name, s, n, &dis);
	snprintf(what, sizeof(what), "%s: paths disabled", name);
	ASSERT_EQ(dis, want, what);
}

#define RUN_DIS(name, trace, want) run_dis((name), (trace), ARRAY_SIZE(trace), (want))

/* EVs of the traces */
#define E1 0x0101
#define E2 0x0202
#define E3 0x0303
#define E4 0x0404

/* ------------------------------------------------------------------ tests */

/* Cumulative ACKs, duplicate ACKs, ECE. */
static void test_ack(void)
{
	static const struct step t[] = {
		TX(0, 1000, 100, E1, "", "", "una=1000 nxt=1100 pend=1"),
		TX(0, 1100, 100, E2, "", "", "una=1000 nxt=1200 pend=2"),
		TX(0, 1200, 100, E3, "", "", "una=1000 nxt=1300 pend=3"),
		RX(1 * MS, F_A, 1200, "ACK:0101 ACK:0202", "fb_ack=2", "una=1200 nxt=1300 pend=1"),
		/* a duplicate ACK: nothing new, nothing aged yet */
		RX(2 * MS, F_A, 1200, "", "", "una=1200 nxt=1300 pend=1"),
		RX(3 * MS, F_E, 1300, "ECN:0303", "fb_ecn=1", "una=1300 nxt=1300 pend=0"),
		/* all acknowledged: an ACK is not even scanned */
		RX(900 * MS, F_E, 1300, "", "", "una=1300 nxt=1300 pend=0"),
	};

	RUN("ack", t, NULL);
}

/*
 * A GSO send's outcome carries its packets: Scout (threshold 8) counts a
 * marked 4-segment send as four marks and evicts on a marked 9-segment
 * one, as it would on nine marked packets.  fb_* count sends.
 */
static void test_gso(void)
{
	static const struct step t[] = {
		TXG(0, 1000, 400, 4, E1, "", "", "una=1000 nxt=1400 pend=1"),
		RX(1 * MS, F_A, 1400, "ACK:0101x4", "fb_ack=1", "una=1400 nxt=1400 pend=0"),
		TXG(1 * MS, 1400, 400, 4, E1, "", "", "una=1400 nxt=1800 pend=1"),
		RX(2 * MS, F_E, 1800, "ECN:0101x4", "fb_ecn=1", "una=1800 nxt=1800 pend=0"),
		TXG(2 * MS, 1800, 400, 4, E1, "", "", "una=1800 nxt=2200 pend=1"),
		/* 4 + 4 = 8: at the threshold, kept */
		RX(3 * MS, F_E, 2200, "ECN:0101x4", "fb_ecn=1", "una=2200 nxt=2200 pend=0"),
		TX(3 * MS, 2200, 100, E2, "", "", "una=2200 nxt=2300 pend=1"),
		RX(4 * MS, F_A, 2300, "ACK:0202", "fb_ack=1", "una=2300 nxt=2300 pend=0"),
		/* the ninth mark evicts E1 */
		TX(4 * MS, 2300, 100, E1, "", "", "una=2300 nxt=2400 pend=1"),
		RX(5 * MS, F_E, 2400, "ECN:0101", "fb_ecn=1 evictions=1", "una=2400 nxt=2400 pend=0"),
		/* nine marks at once evict E2 */
		TXG(5 * MS, 2400, 900, 9, E2, "", "", "una=2400 nxt=3300 pend=1"),
		RX(6 * MS, F_E, 3300, "ECN:0202x9", "fb_ecn=1 evictions=1", "una=3300 nxt=3300 pend=0"),
	};

	RUN("gso", t, NULL);
}

/* SACK blocks credit exactly the sends inside them. */
static void test_sack(void)
{
	static const struct step t[] = {
		TX(0, 1000, 100, E1, "", "", NULL),
		TX(0, 1100, 100, E2, "", "", NULL),
		TX(0, 1200, 100, E3, "", "", NULL),
		TX(0, 1300, 100, E1, "", "", NULL),
		RXS(1 * MS, F_A, 1000, 2, B(1100, 1200, 1300, 1400), "ACK:0202 ACK:0101",
		    "in_sack_blocks=2 fb_ack=2", "una=1000 nxt=1400 pend=2"),
		/* a block covering half a send credits nothing */
		RXS(2 * MS, F_A, 1000, 1, B(1200, 1250), "", "in_sack_blocks=1",
		    "una=1000 nxt=1400 pend=2"),
		RXS(3 * MS, F_E, 1000, 1, B(1200, 1300), "ECN:0303", "in_sack_blocks=1 fb_ecn=1",
		    "una=1000 nxt=1400 pend=1"),
	};

	RUN("sack", t, NULL);
}

/*
 * Retransmissions are losses: NACK, early (fast retransmit) or late (RTO)
 * alike; the send stays LOST for the dead-path rule, so a send repeated
 * again gets no second NACK.
 */
static void test_retrans(void)
{
	static const struct step t[] = {
		TX(0, 1000, 100, E1, "", "", NULL),
		TX(0, 1100, 100, E2, "", "", NULL),
		TX(0, 1200, 100, E3, "", "", NULL),
		/* fast retransmit of the first */
		TX(5 * MS, 1000, 100, E2, "NACK:0101", "eg_retrans=1 fb_nack=1",
		   "una=1000 nxt=1300 pend=3"),
		/* a repeat covering two records, one of them a repeat itself */
		TX(6 * MS, 1000, 200, E3, "NACK:0202 NACK:0202", "eg_retrans=1 fb_nack=2",
		   "una=1000 nxt=1300 pend=2"),
		/* RTO: the third, sent at 0, again at 250 ms: a NACK, no TIMEOUT yet */
		TX(250 * MS, 1200, 100, E1, "NACK:0303", "eg_retrans=1 fb_nack=1",
		   "una=1000 nxt=1300 pend=2"),
		/* the first once more: its pending repeat is lost, the lost ones get no
		 * second NACK */
		TX(251 * MS, 1000, 100, E1, "NACK:0303", "eg_retrans=1 fb_nack=1",
		   "una=1000 nxt=1300 pend=2"),
		/* new data is no retransmission */
		TX(252 * MS, 1300, 100, E1, "", "", "una=1000 nxt=1400 pend=3"),
	};
	__u32 dis;

	RUN("retrans", t, &dis);
	ASSERT_EQ(dis, 0, "retrans: no path disabled by a retransmission");
}

/*
 * A send an ACK leaves uncovered for the timeout is lost (NACK) and the
 * suspect; a TIMEOUT once a send of the flow on another path, sent within
 * the timeout after it, is delivered and another send on its path was
 * lost too.  A duplicate ACK alone is no such evidence.  One suspect at a
 * time: a send lost meanwhile is a NACK only.
 */
static void test_ack_timeout(void)
{
	static const struct step t[] = {
		TX(0, 1000, 100, E1, "", "", NULL),
		TX(50 * MS, 1100, 100, E1, "", "", NULL),
		TX(100 * MS, 1200, 100, E2, "", "", NULL),
		TX(100 * MS, 1300, 100, E3, "", "", NULL),
		RX(199 * MS, F_A, 1000, "", "", "una=1000 nxt=1400 pend=4"),
		RX(200 * MS, F_A, 1000, "NACK:0101", "fb_nack=1 fb_no_reach=1",
		   "una=1000 nxt=1400 pend=3"),
		/* its path's second loss: no evidence yet that the peer answers */
		RX(250 * MS, F_A, 1000, "NACK:0101", "fb_nack=1", "una=1000 nxt=1400 pend=2"),
		RXS(301 * MS, F_A, 1000, 1, B(1300, 1400), "NACK:0202 ACK:0303 TMO:0101",
		    "in_sack_blocks=1 fb_ack=1 fb_nack=1 fb_timeout=1", "una=1000 nxt=1400 pend=0"),
		RXS(302 * MS, F_A, 1000, 1, B(1300, 1400), "", "in_sack_blocks=1",
		    "una=1000 nxt=1400 pend=0"),
	};

	RUN("ack_timeout", t, NULL);
}

/* The flow timeout: srtt x timeout_rtt_pct / 100, floor, cap. */
static void test_timeout_derivation(void)
{
	static const struct {
		__u32 srtt_us, pct, min_us, max_us;
		__u64 want_ns;
	} t[] = {
		/* the defaults at the paper's RTT: 7 us x 13.66 under the 100 us floor */
		{ 7, SPRITZ_DEF_TIMEOUT_RTT_PCT, SPRITZ_DEF_TIMEOUT_MIN_US, SPRITZ_DEF_TIMEOUT_US,
		  100 * US },
		{ 8, SPRITZ_DEF_TIMEOUT_RTT_PCT, SPRITZ_DEF_TIMEOUT_MIN_US, SPRITZ_DEF_TIMEOUT_US,
		  109280 },
		{ 100, 1366, 100, 200000, 1366 * US },
		{ 100, 100, 100, 200000, 100 * US },
		/* above the cap */
		{ 100000, 1366, 100, 200000, 200 * MS },
		/* no RTT known: the cap */
		{ 0, 1366, 100, 200000, 200 * MS },
		/* floor above cap: the cap wins */
		{ 10, 1366, 500000, 200000, 200 * MS },
		/* no overflow at the extremes */
		{ 0xffffffffU, 100000, 1, 60000000, 60000000ULL * US },
	};
	size_t i;

	ASSERT_EQ(SPRITZ_DEF_TIMEOUT_RTT_PCT, 1366, "default: 100 us / 7.32 us = 13.66 RTTs");
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char what[64];

		snprintf(what, sizeof(what), "timeout row %zu", i + 1);
		ASSERT_EQ(spritz_fb_timeout_ns(t[i].srtt_us, t[i].pct, t[i].min_us, t[i].max_us),
			  t[i].want_ns, what);
	}
}

/* Five sends of 100 bytes from 1000: E1, then E2 and E3 in turn. */
#define FIVE_SENDS                                                                              \
	TX(0, 1000, 100, E1, "", "", NULL), TX(0, 1100, 100, E2, "", "", NULL),                 \
		TX(0, 1200, 100, E3, "", "", NULL), TX(0, 1300, 100, E2, "", "", NULL),         \
		TX(0, 1400, 100, E3, "", "", NULL)

/*
 * SACK holes TCP counts lost (RFC 6675 IsLost: DupThresh = 3 segments'
 * worth SACKed above): NACK at once, nothing disabled.
 */
static void test_sack_lost(void)
{
	static const struct step t[] = {
		FIVE_SENDS,
		/* 200 bytes SACKed above the first: reordering, maybe */
		RXS(1 * MS, F_A, 1000, 1, B(1100, 1300), "ACK:0202 ACK:0303",
		    "in_sack_blocks=1 fb_ack=2", "una=1000 nxt=1500 pend=3"),
		/* 300 above the first (lost), 200 above the fourth (not yet) */
		RXS(2 * MS, F_A, 1000, 2, B(1100, 1300, 1400, 1500), "NACK:0101 ACK:0303",
		    "in_sack_blocks=2 fb_ack=1 fb_nack=1 fb_sack_lost=1", "una=1000 nxt=1500 pend=1"),
		/* its fast retransmission: already lost, no second NACK */
		TX(3 * MS, 1000, 100, E3, "", "eg_retrans=1", "una=1000 nxt=1500 pend=2"),
		/* GSO: a record of 3 segments is lost with 3 x its segment size above */
		TXF(4 * MS, F_D, 1500, 300, E1, "", "", "una=1000 nxt=1800 pend=3"),
		TX(4 * MS, 1800, 100, E2, "", "", NULL),
	};
	__u32 dis;

	/* a block inside another (a DSACK inside the second block, RFC
	 * 2883), or repeated, counts once: 200 bytes above the first, not
	 * 300 or 400 */
	static const struct step overlap[] = {
		FIVE_SENDS,
		RXS(1 * MS, F_A, 1000, 2, B(1100, 1200, 1100, 1300), "ACK:0202 ACK:0303",
		    "in_sack_blocks=2 fb_ack=2", "una=1000 nxt=1500 pend=3"),
		RXS(2 * MS, F_A, 1000, 3, B(1100, 1300, 1100, 1300, 1100, 1300), "",
		    "in_sack_blocks=3", "una=1000 nxt=1500 pend=3"),
		/* 300 bytes above in two blocks: lost */
		RXS(3 * MS, F_A, 1000, 3, B(1400, 1500, 1100, 1300, 1400, 1500), "NACK:0101 ACK:0303",
		    "in_sack_blocks=3 fb_ack=1 fb_nack=1 fb_sack_lost=1", "una=1000 nxt=1500 pend=1"),
	};

	RUN("sack_lost", t, &dis);
	ASSERT_EQ(dis, 0, "sack_lost: nothing disabled");
	RUN("sack_lost_overlap", overlap, &dis);
	ASSERT_EQ(dis, 0, "sack_lost_overlap: nothing disabled");
}

/*
 * The socket's DupThresh (tp->reordering: 6 with net.ipv4.tcp_reordering=6,
 * or raised by Linux on reordering seen): a hole is lost only with 6
 * segments' worth SACKed above it, as TCP counts it; 3 is reordering.
 */
static void test_sack_lost_socket(void)
{
	static const struct step t[] = {
		FIVE_SENDS,
		TX(0, 1500, 100, E2, "", "", NULL),
		TX(0, 1600, 100, E3, "", "", NULL),
		/* 300 bytes above the first: lost for DupThresh 3, not for 6 */
		RXS(1 * MS, F_A, 1000, 1, B(1100, 1400), "ACK:0202 ACK:0303 ACK:0202",
		    "in_sack_blocks=1 fb_ack=3", "una=1000 nxt=1700 pend=4"),
		/* 500 above: still not */
		RXS(2 * MS, F_A, 1000, 1, B(1100, 1600), "ACK:0303 ACK:0202",
		    "in_sack_blocks=1 fb_ack=2", "una=1000 nxt=1700 pend=2"),
		/* 600 above: lost */
		RXS(3 * MS, F_A, 1000, 1, B(1100, 1700), "NACK:0101 ACK:0303",
		    "in_sack_blocks=1 fb_ack=1 fb_nack=1 fb_sack_lost=1",
		    "una=1000 nxt=1700 pend=0"),
	};
	__u32 dis;

	trace_dupthresh = 6;
	RUN("sack_lost_socket", t, &dis);
	ASSERT_EQ(dis, 0, "sack_lost_socket: nothing disabled");
}

/*
 * A dead path under spraying (paper: a blackholed link): its sends are
 * lost and repaired by SACK and fast retransmission within an RTT, and
 * still become TIMEOUTs at the flow timeout, while the other paths
 * deliver: failover in RTTs, without TCP's RTO.
 */
/* Sends on E1, E2, E3 twice; the first E1 send a SACK hole TCP counts
 * lost, the second still pending (dead_path, reordered). */
#define TWO_E1_SENDS                                                                            \
	TX(0, 1000, 100, E1, "", "", NULL), TX(100 * US, 1100, 100, E2, "", "", NULL),          \
		TX(200 * US, 1200, 100, E3, "", "", NULL),                                      \
		TX(300 * US, 1300, 100, E1, "", "", NULL),                                      \
		TX(400 * US, 1400, 100, E2, "", "", NULL),                                      \
		TX(500 * US, 1500, 100, E3, "", "", NULL),                                      \
		RXS(1000 * US, F_A, 1000, 2, B(1100, 1300, 1400, 1600),                         \
		    "NACK:0101 ACK:0202 ACK:0303 ACK:0202 ACK:0303",                            \
		    "in_sack_blocks=2 fb_ack=4 fb_nack=1 fb_sack_lost=1",                       \
		    "una=1000 nxt=1600 pend=1")

static void test_dead_path(void)
{
	static const struct step t[] = {
		TWO_E1_SENDS,
		/* TCP repairs both E1 sends on other paths, long before its RTO */
		TX(1100 * US, 1000, 100, E2, "", "eg_retrans=1", NULL),
		TX(1200 * US, 1300, 100, E3, "NACK:0101", "eg_retrans=1 fb_nack=1", NULL),
		/* both repairs delivered on other paths, which carried sends
		 * after the first E1 send: dead, but this ACK, 400 us after the
		 * first repair left (srtt 300 us), may be the late first copies'
		 * with a DSACK of the repairs to come (reordered, below) */
		RX(1500 * US, F_A, 1600, "ACK:0202 ACK:0303", "fb_ack=2", "una=1600 nxt=1600 pend=0"),
		/* two srtts after the repair, no DSACK: nothing in flight, so no
		 * later ACK would come: judged now, before its timeout */
		RX(1800 * US, F_A, 1600, "TMO:0101", "fb_timeout=1", "una=1600 nxt=1600 pend=0"),
		/* the second E1 send was lost while the first was the suspect:
		 * a NACK only; no suspect left, nothing scanned */
		RX(2300 * US, F_A, 1600, "", "", "una=1600 nxt=1600 pend=0"),
	};
	/* the same sends, but the E1 path is long, not dead: its two sends
	 * arrive after TCP's repairs left (RACK), the receiver reports the
	 * repairs' copies as duplicates */
	static const struct step reordered[] = {
		TWO_E1_SENDS,
		TX(1100 * US, 1000, 100, E2, "", "eg_retrans=1", NULL),
		TX(1200 * US, 1300, 100, E3, "NACK:0101", "eg_retrans=1 fb_nack=1", NULL),
		/* the first copies: everything acknowledged, before the repairs
		 * could have been; the evidence is in, the DSACK not yet */
		RX(1300 * US, F_A, 1600, "ACK:0202 ACK:0303", "fb_ack=2", "una=1600 nxt=1600 pend=0"),
		/* the repair of 1000 arrives: a duplicate */
		RXS(1500 * US, F_A, 1600, 1, B(1000, 1100), "", "in_sack_bad=1 fb_path_alive=1",
		    "una=1600 nxt=1600 pend=0"),
		RXS(1600 * US, F_A, 1600, 1, B(1300, 1400), "", "", "una=1600 nxt=1600 pend=0"),
		RX(5000 * US, F_A, 1600, "", "", "una=1600 nxt=1600 pend=0"),
	};
	/* a GSO send lost on a dead path, repaired segment by segment on
	 * other paths after the RTO: the repairs of its later segments are
	 * no second copy of the first repair, whose delivery is evidence */
	static const struct step gso_repairs[] = {
		TXG(0, 1000, 300, 3, E1, "", "", NULL),
		TX(100 * US, 1300, 100, E1, "", "", NULL),
		TX(1000 * US, 1000, 100, E2, "NACK:0101x3", "eg_retrans=1 fb_nack=1", NULL),
		TX(1010 * US, 1100, 100, E3, "", "eg_retrans=1", NULL),
		TX(1020 * US, 1200, 100, E2, "", "eg_retrans=1", NULL),
		TX(1030 * US, 1300, 100, E3, "NACK:0101", "eg_retrans=1 fb_nack=1",
		   "una=1000 nxt=1400 pend=4"),
		/* within two timeouts of the repair a DSACK could still come */
		RX(1500 * US, F_A, 1400, "ACK:0202 ACK:0303 ACK:0202 ACK:0303", "fb_ack=4",
		   "una=1400 nxt=1400 pend=0"),
		RX(3 * MS, F_A, 1400, "TMO:0101x3", "fb_timeout=1", "una=1400 nxt=1400 pend=0"),
	};
	/* a flow's first flight, one GSO send of three packets, lost whole
	 * on a dead path: its tail loss probe, on another path, is SACKed
	 * (the peer answered), TCP repairs the rest: three packets lost on
	 * one path, no later send there: TIMEOUT once nothing is in flight
	 * two srtts after the probe */
	static const struct step first_flight[] = {
		TXG(0, 1000, 300, 3, E1, "", "", NULL),
		TX(600 * US, 1200, 100, E2, "NACK:0101x3", "eg_retrans=1 fb_nack=1", NULL),
		RXS(900 * US, F_A, 1000, 1, B(1200, 1300), "ACK:0202", "in_sack_blocks=1 fb_ack=1",
		    "una=1000 nxt=1300 pend=0"),
		TX(1000 * US, 1000, 100, E3, "", "eg_retrans=1", NULL),
		TX(1010 * US, 1100, 100, E3, "", "eg_retrans=1", NULL),
		RX(1300 * US, F_A, 1300, "ACK:0303 ACK:0303 TMO:0101x3", "fb_ack=2 fb_timeout=1",
		   "una=1300 nxt=1300 pend=0"),
	};
	/* the same GSO send, one of its packets SACKed before the rest is
	 * found lost (a SACK hole): its path delivered part of it, one loss,
	 * no TIMEOUT (the suspect waits for a second one) */
	static const struct step partly[] = {
		TXG(0, 1000, 300, 3, E1, "", "", NULL),
		TX(100 * US, 1300, 100, E2, "", "", NULL),
		TX(150 * US, 1400, 100, E2, "", "", NULL),
		TX(200 * US, 1500, 100, E3, "", "", NULL),
		RXS(400 * US, F_A, 1000, 1, B(1100, 1200), "", "in_sack_blocks=1",
		    "una=1000 nxt=1600 pend=4"),
		RXS(500 * US, F_A, 1000, 1, B(1100, 1600), "NACK:0101x3 ACK:0202 ACK:0202 ACK:0303",
		    "in_sack_blocks=1 fb_nack=1 fb_ack=3 fb_sack_lost=1", "una=1000 nxt=1600 pend=0"),
		TX(600 * US, 1000, 100, E3, "", "eg_retrans=1", NULL),
		RX(900 * US, F_A, 1600, "ACK:0303", "fb_ack=1", "una=1600 nxt=1600 pend=0"),
		RX(3 * MS, F_A, 1600, "", "", "una=1600 nxt=1600 pend=0"),
	};
	/* the first flight lost whole on a dead path and its tail loss probe
	 * on a second one: no evidence that the peer answered then.  The RTO's
	 * repair is delivered, long after: the peer answers now, so the next
	 * new data goes to the first path (verify); lost there while the
	 * sends around it are delivered: its second loss, a TIMEOUT */
	static const struct step first_flight_verified[] = {
		TXG(0, 1000, 300, 3, E1, "", "", NULL),
		TX(600 * US, 1200, 100, E2, "NACK:0101x3", "eg_retrans=1 fb_nack=1", NULL),
		TX(5 * MS, 1000, 100, E3, "", "eg_retrans=1", NULL),
		RX(5300 * US, F_A, 1100, "NACK:0202 ACK:0303",
		   "fb_nack=1 fb_ack=1 fb_no_reach=1 fb_verify=1", "una=1100 nxt=1300 pend=0"),
		TXG(5400 * US, 1100, 200, 2, E3, "", "eg_retrans=1", NULL),
		RX(5700 * US, F_A, 1300, "ACK:0303x2", "fb_ack=1", "una=1300 nxt=1300 pend=0"),
		TXV(5800 * US, 1300, 100, E1, "", "", NULL),
		TX(5850 * US, 1400, 100, E3, "", "", NULL),
		TX(5900 * US, 1500, 100, E4, "", "", NULL),
		TX(5950 * US, 1600, 100, E3, "", "", NULL),
		RXS(6200 * US, F_A, 1300, 1, B(1400, 1700), "NACK:0101 ACK:0303 ACK:0404 ACK:0303",
		    "in_sack_blocks=1 fb_nack=1 fb_ack=3 fb_sack_lost=1", "una=1300 nxt=1700 pend=0"),
		TX(6300 * US, 1300, 100, E3, "", "eg_retrans=1", NULL),
		/* TCP's repair delivered: judged two srtts after it */
		RX(6600 * US, F_A, 1700, "ACK:0303", "fb_ack=1", "una=1700 nxt=1700 pend=0"),
		RX(7 * MS, F_A, 1700, "TMO:0101", "fb_timeout=1", "una=1700 nxt=1700 pend=0"),
	};
	trace_srtt_us = 300;
	RUN_DIS("dead_path", t, 1);
	RUN_DIS("dead_path_gso_repairs", gso_repairs, 1);
	trace_srtt_us = 300;
	RUN_DIS("dead_path_first_flight", first_flight, 1);
	trace_srtt_us = 300;
	RUN_DIS("dead_path_first_flight_verified", first_flight_verified, 1);
	trace_srtt_us = 300;
	RUN_DIS("gso_send_partly_delivered", partly, 0);
	trace_srtt_us = 300;
	RUN_DIS("reordered", reordered, 0);
}

/*
 * TCP's repair of a lost send, and duplicate ACKs still in flight whose
 * SACK blocks cover sends made before the repair: they say nothing of the
 * repair (Linux finds a repair lost by what was sent after it, RACK, or
 * at its RTO), so it is no SACK hole.  Repaired on the lost send's own
 * path (Spray's buffer may hold it) and delivered, that path is alive;
 * repaired on another, that path lost nothing.
 */
#define ONE_E1_LOSS                                                                             \
	TX(0, 1000, 100, E1, "", "", NULL), TX(100 * US, 1100, 100, E2, "", "", NULL),          \
		TX(200 * US, 1200, 100, E3, "", "", NULL),                                      \
		TX(300 * US, 1300, 100, E2, "", "", NULL),                                      \
		TX(400 * US, 1400, 100, E3, "", "", NULL),                                      \
		TX(500 * US, 1500, 100, E2, "", "", NULL),                                      \
		RXS(1000 * US, F_A, 1000, 1, B(1100, 1400), "NACK:0101 ACK:0202 ACK:0303 ACK:0202", \
		    "in_sack_blocks=1 fb_ack=3 fb_nack=1 fb_sack_lost=1",                       \
		    "una=1000 nxt=1600 pend=2 avoid=0101")

static void test_repair_sacked_before(void)
{
	static const struct step same_path[] = {
		ONE_E1_LOSS,
		TX(1100 * US, 1000, 100, E1, "", "eg_retrans=1", "una=1000 nxt=1600 pend=3"),
		/* the window's later duplicate ACKs: their blocks are of sends
		 * made before the repair */
		RXS(1200 * US, F_A, 1000, 1, B(1100, 1600), "ACK:0303 ACK:0202",
		    "in_sack_blocks=1 fb_ack=2", "una=1000 nxt=1600 pend=1 avoid=0101"),
		/* the repair delivered: E1 delivered a send after the loss */
		RX(1500 * US, F_A, 1600, "ACK:0101", "fb_ack=1 fb_path_alive=1",
		   "una=1600 nxt=1600 pend=0 avoid=-"),
		RX(3 * MS, F_A, 1600, "", "", "una=1600 nxt=1600 pend=0"),
	};
	static const struct step other_path[] = {
		ONE_E1_LOSS,
		TX(1100 * US, 1000, 100, E4, "", "eg_retrans=1", "una=1000 nxt=1600 pend=3"),
		RXS(1200 * US, F_A, 1000, 1, B(1100, 1600), "ACK:0303 ACK:0202",
		    "in_sack_blocks=1 fb_ack=2", "una=1000 nxt=1600 pend=1 avoid=0101"),
		RX(1500 * US, F_A, 1600, "ACK:0404", "fb_ack=1", "una=1600 nxt=1600 pend=0"),
		/* one loss on E1: it waits for a second one, nothing disabled */
		RX(3 * MS, F_A, 1600, "", "", "una=1600 nxt=1600 pend=0"),
	};

	trace_srtt_us = 300;
	RUN_DIS("repair_sacked_before_same_path", same_path, 0);
	trace_srtt_us = 300;
	RUN_DIS("repair_sacked_before_other_path", other_path, 0);
}

/*
 * One isolated loss on a congested path (its earlier sends came back
 * ECN-marked), then the flow moves away (Scout evicts the path on the
 * NACK; no later send on it): the other paths deliver, but the path lost
 * nothing else and the drop may be a queue's, so it is not judged dead -
 * the suspect waits
 * SPRITZ_FB_STRIKE_WAIT timeouts and a ring's worth of sends and is
 * dropped (fb_isolated).
 */
static void test_isolated_loss(void)
{
	static const struct step t[] = {
		TX(0, 1000, 100, E1, "", "", NULL),
		TX(100 * US, 1100, 100, E1, "", "", NULL),
		TX(200 * US, 1200, 100, E1, "", "", NULL),
		TX(300 * US, 1300, 100, E1, "", "", NULL),
		/* the first dropped; three SACKed above it */
		RXS(500 * US, F_E, 1000, 1, B(1100, 1400), "NACK:0101 ECN:0101 ECN:0101 ECN:0101",
		    "in_sack_blocks=1 fb_ecn=3 fb_nack=1 fb_sack_lost=1 fb_path_alive=1",
		    "una=1000 nxt=1400 pend=0"),
		/* that was evidence it lives (later sends delivered); now a drop on
		 * E1 after which the flow sends only on E2 */
		TX(600 * US, 1400, 100, E1, "", "", NULL),
		TX(700 * US, 1000, 100, E2, "", "eg_retrans=1", NULL),
		TX(800 * US, 1500, 100, E2, "", "", NULL),
		TX(900 * US, 1600, 100, E2, "", "", NULL),
		RXS(1100 * US, F_A, 1400, 1, B(1500, 1700), "ACK:0202 ACK:0202 ACK:0202", "in_sack_blocks=1 fb_ack=3",
		    "una=1400 nxt=1700 pend=1"),
		/* the E1 send unanswered for the timeout: lost, the suspect */
		RXS(2600 * US, F_A, 1400, 1, B(1500, 1700), "NACK:0101",
		    "in_sack_blocks=1 fb_nack=1", "una=1400 nxt=1700 pend=0"),
		TX(2700 * US, 1400, 100, E2, "", "eg_retrans=1", NULL),
		TX(2700 * US, 1700, 100, E3, "", "", NULL),
		RX(3000 * US, F_A, 1800, "ACK:0202 ACK:0303", "fb_ack=2", "una=1800 nxt=1800 pend=0"),
		/* E2 delivered within the timeout after it, but E1 lost only once:
		 * the suspect waits for a second loss or a delivery on E1 */
		TX(5000 * US, 1800, 100, E3, "", "", NULL),
		RX(5100 * US, F_A, 1900, "ACK:0303", "fb_ack=1", "una=1900 nxt=1900 pend=0"),
		TX(8000 * US, 1900, 100, E2, "", "", NULL),
		RX(8500 * US, F_A, 2000, "ACK:0202", "fb_ack=1", "una=2000 nxt=2000 pend=0"),
		/* SPRITZ_FB_STRIKE_WAIT (4) timeouts after the E1 send, but not a
		 * ring's worth (16) of sends yet: waits */
		TX(8600 * US, 2000, 100, E3, "", "", NULL),
		RX(8700 * US, F_A, 2100, "ACK:0303", "fb_ack=1", "una=2100 nxt=2100 pend=0"),
		/* 16 sends after it: isolated */
		TX(8610 * US, 2100, 100, E3, "", "", NULL),
		TX(8620 * US, 2200, 100, E3, "", "", NULL),
		TX(8630 * US, 2300, 100, E3, "", "", NULL),
		TX(8640 * US, 2400, 100, E3, "", "", NULL),
		TX(8650 * US, 2500, 100, E3, "", "", NULL),
		TX(8660 * US, 2600, 100, E3, "", "", NULL),
		TX(8670 * US, 2700, 100, E3, "", "", NULL),
		TX(8680 * US, 2800, 100, E3, "", "", NULL),
		TX(8690 * US, 2900, 100, E3, "", "", NULL),
		TX(8700 * US, 3000, 100, E3, "", "", NULL),
		TX(8710 * US, 3100, 100, E3, "", "", NULL),
		RX(8800 * US, F_A, 3200, "ACK:0303 ACK:0303 ACK:0303 ACK:0303 ACK:0303 ACK:0303 ACK:0303 ACK:0303 ACK:0303 ACK:0303 ACK:0303",
		   "fb_ack=11 fb_isolated=1", "una=3200 nxt=3200 pend=0"),
		RX(20000 * US, F_A, 3200, "", "", "una=3200 nxt=3200 pend=0"),
	};
	RUN_DIS("isolated_loss", t, 0);
}

/*
 * One loss, repaired by TCP on another path that delivers (the peer
 * answers): one loss is no proof - a queue or the receiver may have
 * dropped it - so the suspect waits for a second loss on its path.  If
 * the receiver reports the first copy as a duplicate (DSACK, RFC 2883,
 * below the cumulative ACK or, after a tail loss probe above a hole,
 * inside the second block), the repair was spurious and the send late:
 * alive at once.
 */
static void test_one_loss(void)
{
	static const struct step t[] = {
		TX(0, 1000, 100, E1, "", "", NULL),
		TX(100 * US, 1100, 100, E2, "", "", NULL),
		RXS(500 * US, F_A, 1000, 1, B(1100, 1200), "ACK:0202", "in_sack_blocks=1 fb_ack=1",
		    "una=1000 nxt=1200 pend=1"),
		/* TCP sends it again (RACK): lost, the suspect */
		TX(700 * US, 1000, 100, E3, "NACK:0101", "eg_retrans=1 fb_nack=1", NULL),
		/* the repair delivered on E3: reachable, but one loss: waits */
		RX(900 * US, F_A, 1200, "ACK:0303", "fb_ack=1", "una=1200 nxt=1200 pend=0"),
		RX(2100 * US, F_A, 1200, "", "", "una=1200 nxt=1200 pend=0"),
	};
	static const struct step dsack[] = {
		TX(0, 1000, 100, E1, "", "", NULL),
		TX(100 * US, 1100, 100, E2, "", "", NULL),
		TX(150 * US, 1200, 100, E2, "", "", NULL),
		RXS(500 * US, F_A, 1000, 1, B(1100, 1300), "ACK:0202 ACK:0202", "in_sack_blocks=1 fb_ack=2",
		    "una=1000 nxt=1300 pend=1"),
		TX(700 * US, 1000, 100, E3, "NACK:0101", "eg_retrans=1 fb_nack=1", NULL),
		/* the first copy arrived after all: a DSACK of it */
		RXS(900 * US, F_A, 1300, 1, B(1000, 1100), "ACK:0303", "in_sack_blocks=1 fb_ack=1 fb_path_alive=1",
		    "una=1300 nxt=1300 pend=0"),
		RX(2100 * US, F_A, 1300, "", "", "una=1300 nxt=1300 pend=0"),
	};
	/* a tail loss probe: the tail sent again, its first copy arrives too,
	 * above a hole: the DSACK block lies inside the second block */
	static const struct step tlp[] = {
		TX(0, 1000, 100, E2, "", "", NULL),
		TX(100 * US, 1100, 100, E1, "", "", NULL),
		TX(300 * US, 1100, 100, E3, "NACK:0101", "eg_retrans=1 fb_nack=1", NULL),
		RXS(500 * US, F_A, 1000, 2, B(1100, 1200, 1100, 1200), "ACK:0303",
		    "in_sack_blocks=2 fb_ack=1 fb_path_alive=1", "una=1000 nxt=1200 pend=1"),
		RX(600 * US, F_A, 1200, "ACK:0202", "fb_ack=1", "una=1200 nxt=1200 pend=0"),
	};
	/* the DSACK comes on an ACK a later one overtook (below snd_una): it
	 * is read for that DSACK, which shows the repair spurious; an old ACK
	 * below the suspect's end, or whose DSACK is another send's, is not */
	static const struct step old_dsack[] = {
		TX(0, 1000, 100, E1, "", "", NULL),
		TX(100 * US, 1100, 100, E2, "", "", NULL),
		TX(150 * US, 1200, 100, E2, "", "", NULL),
		RXS(500 * US, F_A, 1000, 1, B(1100, 1300), "ACK:0202 ACK:0202", "in_sack_blocks=1 fb_ack=2",
		    "una=1000 nxt=1300 pend=1"),
		TX(700 * US, 1000, 100, E3, "NACK:0101", "eg_retrans=1 fb_nack=1", NULL),
		RX(900 * US, F_A, 1300, "ACK:0303", "fb_ack=1", "una=1300 nxt=1300 pend=0"),
		TX(1000 * US, 1300, 100, E2, "", "", NULL),
		RX(1200 * US, F_A, 1400, "ACK:0202", "fb_ack=1", "una=1400 nxt=1400 pend=0"),
		RXS(1250 * US, F_A, 1050, 1, B(1000, 1100), "", "in_ack_old=1",
		    "una=1400 nxt=1400 pend=0"),
		RXS(1260 * US, F_A, 1300, 1, B(1100, 1200), "", "in_ack_old=1",
		    "una=1400 nxt=1400 pend=0"),
		RXS(1300 * US, F_A, 1300, 1, B(1000, 1100), "", "in_ack_old=1 fb_path_alive=1",
		    "una=1400 nxt=1400 pend=0"),
		/* the suspect is gone: an old ACK is not read any more */
		RXS(1400 * US, F_A, 1300, 1, B(1000, 1100), "", "in_ack_old=1",
		    "una=1400 nxt=1400 pend=0"),
	};
	RUN_DIS("one_loss_tlp", tlp, 0);
	RUN_DIS("one_loss", t, 0);
	RUN_DIS("one_loss_dsack", dsack, 0);
	RUN_DIS("one_loss_old_dsack", old_dsack, 0);
}

/*
 * A stall of the sender (its CPU starved, its VM descheduled) longer than
 * the flow timeout: the peer's ACKs of four sprayed sends wait in the
 * sender's backlog while TCP's retransmission timer fires, and TCP sends
 * three of them again on other paths (a spurious RTO; two were on E1).
 * Then the stale ACK arrives: the suspect is past its timeout, reachable,
 * with a second loss on its path, but its repair left a moment ago and
 * the DSACK that shows it spurious is still to come - it is not judged
 * until two srtts after the repair, and the DSACK arrives first.
 */
static void test_stall(void)
{
	static const struct step t[] = {
		TX(0, 1000, 100, E1, "", "", NULL),
		TX(10 * US, 1100, 100, E2, "", "", NULL),
		TX(20 * US, 1200, 100, E1, "", "", NULL),
		TX(30 * US, 1300, 100, E2, "", "", NULL),
		/* 5 ms later: the RTO */
		TX(5000 * US, 1000, 100, E3, "NACK:0101", "eg_retrans=1 fb_nack=1", NULL),
		TX(5010 * US, 1100, 100, E3, "NACK:0202", "eg_retrans=1 fb_nack=1", NULL),
		TX(5020 * US, 1200, 100, E2, "NACK:0101", "eg_retrans=1 fb_nack=1", NULL),
		/* the ACK the peer sent at 0.3 ms, of the first copies */
		RX(5030 * US, F_A, 1400, "ACK:0202 ACK:0303 ACK:0303 ACK:0202", "fb_ack=4",
		   "una=1400 nxt=1400 pend=0"),
		/* the repair of 1000 arrived as a duplicate */
		RXS(5200 * US, F_A, 1400, 1, B(1000, 1100), "", "in_sack_bad=1 fb_path_alive=1",
		    "una=1400 nxt=1400 pend=0"),
		RX(9000 * US, F_A, 1400, "", "", "una=1400 nxt=1400 pend=0"),
	};
	trace_srtt_us = 300;
	RUN_DIS("stall", t, 0);
}

/*
 * Six sends in the 1 ms tick of TSval 100, two on E1, then at @t_ an ACK
 * echoing it whose SACK blocks leave the first E1 send in a hole TCP
 * counts lost: the suspect.
 */
#define SIX_SENDS_TS(t_)                                                                  \
	TXT(0, 1000, 100, E1, 100, "", "", NULL),                                          \
	TXT(100 * US, 1100, 100, E2, 100, "", "", NULL),                                   \
	TXT(200 * US, 1200, 100, E3, 100, "", "", NULL),                                   \
	TXT(300 * US, 1300, 100, E1, 100, "", "", NULL),                                   \
	TXT(400 * US, 1400, 100, E2, 100, "", "", NULL),                                   \
	TXT(500 * US, 1500, 100, E3, 100, "", "", NULL),                                   \
	{ .op = OP_RX, .t = (t_), .flags = F_A, .ack = 1000, .nsack = 2,                   \
	  .sack = B(1100, 1300, 1400, 1600), .ts = SPRITZ_FB_TS(100),                      \
	  .events = "NACK:0101 ACK:0202 ACK:0303 ACK:0202 ACK:0303",                       \
	  .counters = "in_sack_blocks=2 fb_ack=4 fb_nack=1 fb_sack_lost=1" }

/*
 * Timestamps (RFC 7323) tell a spurious repair at the first ACK (Eifel,
 * RFC 3522): an ACK covering the suspect that echoes a TSval older than
 * TCP's first repair of it acknowledged an earlier copy.  Ticks of 1 ms
 * (Linux's TSval clock): TSval 100 is 0-1 ms, 105 is 5-6 ms.
 */
static void test_eifel(void)
{
	/* the stall above, its DSACK 4 ms late (the sender starved again, say):
	 * the stale ACK echoes the first copies' TSval, older than the repairs' */
	static const struct step stall[] = {
		TXT(0, 1000, 100, E1, 100, "", "", NULL),
		TXT(10 * US, 1100, 100, E2, 100, "", "", NULL),
		TXT(20 * US, 1200, 100, E1, 100, "", "", NULL),
		TXT(30 * US, 1300, 100, E2, 100, "", "", NULL),
		TXT(5000 * US, 1000, 100, E3, 105, "NACK:0101", "eg_retrans=1 fb_nack=1", NULL),
		TXT(5010 * US, 1100, 100, E3, 105, "NACK:0202", "eg_retrans=1 fb_nack=1", NULL),
		TXT(5020 * US, 1200, 100, E2, 105, "NACK:0101", "eg_retrans=1 fb_nack=1", NULL),
		RXT(5030 * US, F_A, 1400, 100, "ACK:0202 ACK:0303 ACK:0303 ACK:0202",
		    "fb_ack=4 fb_path_alive=1", "una=1400 nxt=1400 pend=0"),
		RXT(9000 * US, F_A, 1400, 105, "", "", "una=1400 nxt=1400 pend=0"),
	};
	/* a dead path: the repairs fill the holes, the ACK echoes the repair's
	 * TSval (the receiver's in-order point moved with it): TIMEOUT */
	static const struct step dead[] = {
		SIX_SENDS_TS(1000 * US),
		TXT(1100 * US, 1000, 100, E2, 101, "", "eg_retrans=1", NULL),
		TXT(1200 * US, 1300, 100, E3, 101, "NACK:0101", "eg_retrans=1 fb_nack=1", NULL),
		RXT(1500 * US, F_A, 1600, 101, "ACK:0202 ACK:0303", "fb_ack=2",
		    "una=1600 nxt=1600 pend=0"),
		RXT(1800 * US, F_A, 1600, 101, "TMO:0101", "fb_timeout=1", "una=1600 nxt=1600 pend=0"),
	};
	/* ... its ACKs echoing a TSecr of 0: no echo at all (RFC 7323; Linux's
	 * tcp_packet_delayed() wants one), not an echo older than the repair */
	static const struct step dead_tsecr_zero[] = {
		SIX_SENDS_TS(1000 * US),
		TXT(1100 * US, 1000, 100, E2, 101, "", "eg_retrans=1", NULL),
		TXT(1200 * US, 1300, 100, E3, 101, "NACK:0101", "eg_retrans=1 fb_nack=1", NULL),
		RXT(1500 * US, F_A, 1600, 0, "ACK:0202 ACK:0303", "fb_ack=2",
		    "una=1600 nxt=1600 pend=0"),
		RXT(1800 * US, F_A, 1600, 0, "TMO:0101", "fb_timeout=1", "una=1600 nxt=1600 pend=0"),
	};
	/* the same sends on a long E1 path, RACK's repairs a tick later: the
	 * first copies' ACK says so at once, no DSACK needed */
	static const struct step reordered[] = {
		SIX_SENDS_TS(1000 * US),
		TXT(1100 * US, 1000, 100, E2, 101, "", "eg_retrans=1", NULL),
		TXT(1200 * US, 1300, 100, E3, 101, "NACK:0101", "eg_retrans=1 fb_nack=1", NULL),
		RXT(1300 * US, F_A, 1600, 100, "ACK:0202 ACK:0303", "fb_ack=2 fb_path_alive=1",
		    "una=1600 nxt=1600 pend=0"),
		RX(5000 * US, F_A, 1600, "", "", "una=1600 nxt=1600 pend=0"),
	};
	/* repairs in the first copies' tick: the echo proves nothing, the
	 * rule waits for the DSACK as without timestamps; and an ACK without
	 * the option proves nothing either */
	static const struct step same_tick[] = {
		SIX_SENDS_TS(600 * US),
		TXT(700 * US, 1000, 100, E2, 100, "", "eg_retrans=1", NULL),
		TXT(800 * US, 1300, 100, E3, 100, "NACK:0101", "eg_retrans=1 fb_nack=1", NULL),
		RXT(900 * US, F_A, 1500, 100, "ACK:0202 ACK:0303", "fb_ack=2",
		    "una=1500 nxt=1600 pend=0"),
		RX(950 * US, F_A, 1600, "", "", "una=1600 nxt=1600 pend=0"),
		RXS(1100 * US, F_A, 1600, 1, B(1000, 1100), "", "in_sack_bad=1 fb_path_alive=1",
		    "una=1600 nxt=1600 pend=0"),
	};
	/* a SACK block's echo is the in-order point's, older than any
	 * segment it SACKs: a repair SACKed above a hole shows nothing */
	static const struct step sacked[] = {
		TXT(0, 1000, 100, E2, 100, "", "", NULL),
		TXT(10 * US, 1100, 100, E1, 100, "", "", NULL),
		TXT(20 * US, 1200, 100, E2, 100, "", "", NULL),
		TXT(5000 * US, 1100, 100, E3, 105, "NACK:0101", "eg_retrans=1 fb_nack=1", NULL),
		{ .op = OP_RX, .t = 5100 * US, .flags = F_A, .ack = 1000, .nsack = 1,
		  .sack = B(1100, 1300), .ts = SPRITZ_FB_TS(100),
		  .events = "NACK:0202 ACK:0202 ACK:0303",
		  .counters = "in_sack_blocks=1 fb_ack=2 fb_nack=1",
		  .state = "una=1000 nxt=1300 pend=0" },
	};
	trace_srtt_us = 300;
	RUN_DIS("eifel_sacked", sacked, 0);
	trace_srtt_us = 300;
	RUN_DIS("eifel_stall", stall, 0);
	trace_srtt_us = 300;
	RUN_DIS("eifel_dead_path", dead, 1);
	trace_srtt_us = 300;
	RUN_DIS("eifel_dead_path_tsecr_zero", dead_tsecr_zero, 1);
	trace_srtt_us = 300;
	RUN_DIS("eifel_reordered", reordered, 0);
	trace_srtt_us = 300;
	RUN_DIS("eifel_same_tick", same_tick, 0);
}

/*
 * A send acknowledged after the timeout, before TCP sent it again, was
 * late, not lost: its path is alive.
 */
static void test_late_ack(void)
{
	static const struct step t[] = {
		TX(0, 1000, 100, E1, "", "", NULL),
		TX(200 * US, 1100, 100, E2, "", "", NULL),
		RXS(2050 * US, F_A, 1000, 1, B(1100, 1200), "NACK:0101 ACK:0202",
		    "in_sack_blocks=1 fb_nack=1 fb_ack=1", "una=1000 nxt=1200 pend=0"),
		/* a cumulative ACK of the E1 send, never sent again */
		RX(2400 * US, F_A, 1200, "", "fb_path_alive=1", "una=1200 nxt=1200 pend=0"),
		RX(9000 * US, F_A, 1200, "", "", "una=1200 nxt=1200 pend=0"),
	};
	RUN_DIS("late_ack", t, 0);
}

/*
 * A blackholed path (every send on it lost) under Scout: the flow's
 * window on it is lost, TCP repairs on other paths: TIMEOUT within the
 * timeout of the first loss's detection.
 */
static void test_blackhole(void)
{
	static const struct step t[] = {
		TX(0, 1000, 100, E1, "", "", NULL),
		TX(100 * US, 1100, 100, E1, "", "", NULL),
		TX(200 * US, 1200, 100, E1, "", "", NULL),
		TX(300 * US, 1300, 100, E2, "", "", NULL),
		RXS(1000 * US, F_A, 1000, 1, B(1300, 1400), "ACK:0202", "in_sack_blocks=1 fb_ack=1",
		    "una=1000 nxt=1400 pend=3"),
		/* the E1 sends unanswered for the timeout: lost, the first the
		 * suspect; E2 delivered, sent after it within the timeout: dead */
		RXS(2200 * US, F_A, 1000, 1, B(1300, 1400), "NACK:0101 NACK:0101 NACK:0101 TMO:0101",
		    "in_sack_blocks=1 fb_nack=3 fb_timeout=1", "una=1000 nxt=1400 pend=0"),
		/* TCP repairs on the other paths: no second verdict */
		TX(2300 * US, 1000, 300, E2, "", "eg_retrans=1", NULL),
		RX(2500 * US, F_A, 1400, "ACK:0202", "fb_ack=1", "una=1400 nxt=1400 pend=0"),
	};
	RUN_DIS("blackhole", t, 1);
}

/*
 * A path under ordinary ECN congestion: marks, an occasional drop (a SACK
 * hole, repaired), and later sends on it delivered.  Never a TIMEOUT.
 */
static void test_congested_path(void)
{
	static const struct step t[] = {
		TX(0, 1000, 100, E1, "", "", NULL),
		TX(100 * US, 1100, 100, E2, "", "", NULL),
		TX(200 * US, 1200, 100, E1, "", "", NULL),
		TX(300 * US, 1300, 100, E2, "", "", NULL),
		TX(400 * US, 1400, 100, E1, "", "", NULL),
		TX(500 * US, 1500, 100, E2, "", "", NULL),
		/* the first E1 send dropped at a full queue, the rest marked */
		RXS(1000 * US, F_E, 1000, 1, B(1100, 1600),
		    "NACK:0101 ECN:0202 ECN:0101 ECN:0202 ECN:0101 ECN:0202",
		    "in_sack_blocks=1 fb_ecn=5 fb_nack=1 fb_sack_lost=1 fb_path_alive=1",
		    "una=1000 nxt=1600 pend=0"),
		TX(1200 * US, 1000, 100, E2, "", "eg_retrans=1", "una=1000 nxt=1600 pend=1"),
		RX(1500 * US, F_A, 1600, "ACK:0202", "fb_ack=1", "una=1600 nxt=1600 pend=0"),
		/* past the timeout: nothing left to judge */
		RX(2500 * US, F_A, 1600, "", "", "una=1600 nxt=1600 pend=0"),
	};
	RUN_DIS("congested_path", t, 0);
}

/*
 * A queue full for a while drops two sends of a flow on E1 in a row,
 * while E2 delivers: two losses on one path, the peer answering.  With
 * an E1 send ECN-marked shortly before, it is the queue's burst
 * (fb_congested), not a dead path; the same trace without the mark
 * disables E1.
 */
#define BURST_TRACE(first_ack_flags, first_ev, first_ctr, nack_ctr, last_evs, last_ctr)        \
	{                                                                                      \
		TX(0, 1000, 100, E1, "", "", NULL),                                            \
		RX(500 * US, first_ack_flags, 1100, first_ev, first_ctr, "una=1100 nxt=1100 pend=0"), \
		TX(600 * US, 1100, 100, E1, "", "", NULL),                                     \
		TX(700 * US, 1200, 100, E1, "", "", NULL),                                     \
		TX(800 * US, 1300, 100, E2, "", "", NULL),                                     \
		TX(900 * US, 1400, 100, E2, "", "", NULL),                                     \
		TX(1000 * US, 1500, 100, E2, "", "", NULL),                                    \
		RXS(1500 * US, F_A, 1100, 1, B(1300, 1600),                                    \
		    "NACK:0101 NACK:0101 ACK:0202 ACK:0202 ACK:0202",                         \
		    nack_ctr, "una=1100 nxt=1600 pend=0"),                                     \
		TX(1600 * US, 1100, 100, E2, "", "eg_retrans=1", NULL),                        \
		TX(1700 * US, 1200, 100, E2, "", "eg_retrans=1", NULL),                        \
		RX(2000 * US, F_A, 1600, last_evs, last_ctr, "una=1600 nxt=1600 pend=0"),      \
	}

/*
 * The same burst, the marked delivery on E1 a ring's worth (16) of sends
 * before it: the ring has overwritten that record, the flow's ECN memory
 * (struct spritz_fb_mark) has not.
 */
#define E2_SEND(i_) TX((600 + 10 * (i_)) * US, 1100 + 100 * (i_), 100, E2, "", "", NULL)
#define LONG_BURST_TRACE(first_ack_flags, first_ev, first_ctr, nack_ctr, last_evs, last_ctr)   \
	{                                                                                      \
		TX(0, 1000, 100, E1, "", "", NULL),                                            \
		RX(500 * US, first_ack_flags, 1100, first_ev, first_ctr, "una=1100 nxt=1100 pend=0"), \
		E2_SEND(0), E2_SEND(1), E2_SEND(2), E2_SEND(3), E2_SEND(4), E2_SEND(5),         \
		E2_SEND(6), E2_SEND(7), E2_SEND(8), E2_SEND(9), E2_SEND(10), E2_SEND(11),       \
		E2_SEND(12), E2_SEND(13), E2_SEND(14), E2_SEND(15),                             \
		RX(900 * US, F_A, 2700,                                                        \
		   "ACK:0202 ACK:0202 ACK:0202 ACK:0202 ACK:0202 ACK:0202 ACK:0202 ACK:0202 "    \
		   "ACK:0202 ACK:0202 ACK:0202 ACK:0202 ACK:0202 ACK:0202 ACK:0202 ACK:0202",    \
		   "fb_ack=16", "una=2700 nxt=2700 pend=0"),                                   \
		TX(1000 * US, 2700, 100, E1, "", "", NULL),                                    \
		TX(1010 * US, 2800, 100, E1, "", "", NULL),                                    \
		TX(1020 * US, 2900, 100, E2, "", "", NULL),                                    \
		TX(1030 * US, 3000, 100, E2, "", "", NULL),                                    \
		TX(1040 * US, 3100, 100, E2, "", "", NULL),                                    \
		RXS(1200 * US, F_A, 2700, 1, B(2900, 3200),                                    \
		    "NACK:0101 NACK:0101 ACK:0202 ACK:0202 ACK:0202", nack_ctr,               \
		    "una=2700 nxt=3200 pend=0"),                                               \
		TX(1300 * US, 2700, 100, E2, "", "eg_retrans=1", NULL),                        \
		TX(1310 * US, 2800, 100, E2, "", "eg_retrans=1", NULL),                        \
		RX(1700 * US, F_A, 3200, last_evs, last_ctr, "una=3200 nxt=3200 pend=0"),      \
	}

static void test_congested_burst(void)
{
	static const struct step marked[] =
		BURST_TRACE(F_E, "ECN:0101", "fb_ecn=1",
			    "in_sack_blocks=1 fb_ack=3 fb_nack=2 fb_sack_lost=2",
			    "ACK:0202 ACK:0202", "fb_ack=2 fb_congested=1");
	static const struct step unmarked[] =
		BURST_TRACE(F_A, "ACK:0101", "fb_ack=1",
			    "in_sack_blocks=1 fb_ack=3 fb_nack=2 fb_sack_lost=2 evictions=1",
			    "ACK:0202 ACK:0202 TMO:0101", "fb_ack=2 fb_timeout=1");
	static const struct step marked_long_ago[] =
		LONG_BURST_TRACE(F_E, "ECN:0101", "fb_ecn=1",
				 "in_sack_blocks=1 fb_ack=3 fb_nack=2 fb_sack_lost=2",
				 "ACK:0202 ACK:0202", "fb_ack=2 fb_congested=1");
	static const struct step unmarked_long_ago[] =
		LONG_BURST_TRACE(F_A, "ACK:0101", "fb_ack=1",
				 "in_sack_blocks=1 fb_ack=3 fb_nack=2 fb_sack_lost=2 evictions=1",
				 "ACK:0202 ACK:0202 TMO:0101", "fb_ack=2 fb_timeout=1");

	/* the last ACK comes two srtts after the repairs: no DSACK pending */
	trace_srtt_us = 150;
	RUN_DIS("burst_marked", marked, 0);
	trace_srtt_us = 150;
	RUN_DIS("burst_unmarked", unmarked, 1);
	trace_srtt_us = 150;
	RUN_DIS("burst_marked_long_ago", marked_long_ago, 0);
	trace_srtt_us = 150;
	RUN_DIS("burst_unmarked_long_ago", unmarked_long_ago, 1);
}

/*
 * A dead peer is not a dead path: a peer that goes silent (stopped,
 * rebooting, gone) leaves every send unanswered at once.  The RTO
 * retransmissions are NACKs; duplicate ACKs (answers to window probes)
 * are no evidence that the switch was reachable while the sends went
 * unanswered, nor are the repairs after it returns: no TIMEOUT.
 */
static void test_dead_peer(void)
{
	static const struct step t[] = {
		TX(0, 1000, 100, E1, "", "", NULL),
		TX(100 * US, 1100, 100, E2, "", "", NULL),
		TX(200 * US, 1200, 100, E3, "", "", NULL),
		TX(200 * MS, 1000, 100, E2, "NACK:0101", "eg_retrans=1 fb_nack=1",
		   "una=1000 nxt=1300 pend=3"),
		/* a duplicate ACK: every send unacknowledged for the timeout */
		RX(300 * MS, F_A, 1000, "NACK:0202 NACK:0303 NACK:0202", "fb_nack=3 fb_no_reach=1",
		   "una=1000 nxt=1300 pend=0"),
		RX(301 * MS, F_A, 1000, "", "", "una=1000 nxt=1300 pend=0"),
		/* back: it had only the first (its repair); the rest repaired on
		 * other paths, long after: no evidence, but the peer answers
		 * again: the suspect's path is verified by the next new data */
		RX(400 * MS, F_A, 1100, "", "", "una=1100 nxt=1300 pend=0"),
		TX(401 * MS, 1100, 100, E3, "", "eg_retrans=1", NULL),
		TX(401 * MS, 1200, 100, E2, "", "eg_retrans=1", NULL),
		RX(402 * MS, F_A, 1300, "ACK:0303 ACK:0202", "fb_ack=2 fb_verify=1",
		   "una=1300 nxt=1300 pend=0"),
		RX(403 * MS, F_A, 1300, "", "", "una=1300 nxt=1300 pend=0"),
		/* the next new data is the verify send, once */
		TXV(404 * MS, 1300, 100, E1, "", "", NULL),
		TX(404 * MS, 1400, 100, E2, "", "", NULL),
		/* delivered: its path is alive, nothing is disabled */
		RX(405 * MS, F_A, 1500, "ACK:0101 ACK:0202", "fb_ack=2",
		   "una=1500 nxt=1500 pend=0"),
	};
	/* silent from the first send on: TCP's first repair, within the
	 * timeout and on another path, is lost too; the one after the peer
	 * returns is delivered, long after.  The ACK is the later copy's
	 * (Karn): no evidence that the switch was reachable then */
	static const struct step repaired_late[] = {
		TX(0, 1000, 100, E1, "", "", NULL),
		TX(100 * US, 1100, 100, E1, "", "", NULL),
		TX(200 * US, 1200, 100, E2, "", "", NULL),
		TX(1500 * US, 1000, 100, E2, "NACK:0101", "eg_retrans=1 fb_nack=1",
		   "una=1000 nxt=1300 pend=3"),
		RX(4 * MS, F_A, 1000, "NACK:0101 NACK:0202 NACK:0202", "fb_nack=3 fb_no_reach=1",
		   "una=1000 nxt=1300 pend=0"),
		TX(5 * MS, 1000, 100, E3, "", "eg_retrans=1", NULL),
		/* the peer answers again: E1 is to be verified */
		RX(5500 * US, F_A, 1100, "ACK:0303", "fb_ack=1 fb_verify=1",
		   "una=1100 nxt=1300 pend=0"),
		/* repairs are no verify sends */
		TX(5600 * US, 1100, 100, E3, "", "eg_retrans=1", NULL),
		TX(5600 * US, 1200, 100, E2, "", "eg_retrans=1", NULL),
		RX(6 * MS, F_A, 1300, "ACK:0303 ACK:0202", "fb_ack=2", "una=1300 nxt=1300 pend=0"),
		RX(9 * MS, F_A, 1300, "", "", "una=1300 nxt=1300 pend=0"),
		/* new data is, and E1 delivers it */
		TXV(10 * MS, 1300, 100, E1, "", "", NULL),
		RX(10500 * US, F_A, 1400, "ACK:0101", "fb_ack=1", "una=1400 nxt=1400 pend=0"),
	};
	/* as captured (kmod/failover silent_peer, 6.1, times / 100): the
	 * peer goes silent; a tail loss probe repairs the last segment of the
	 * GSO send in flight on another path within the timeout (the send is
	 * the suspect, the probe its first repair); the RTO repairs the
	 * head; the peer returns, a new send is SACKed and TCP's loss
	 * recovery sends every segment again, the probe's too: its ACK is no
	 * evidence */
	static const struct step tlp_late[] = {
		TX(0, 1000, 100, E1, "", "", NULL),
		TXG(50 * US, 1100, 300, 3, E1, "", "", NULL),
		TX(370 * US, 1300, 100, E2, "NACK:0101x3", "eg_retrans=1 fb_nack=1", NULL),
		TX(2500 * US, 1000, 100, E2, "NACK:0101", "eg_retrans=1 fb_nack=1", NULL),
		TX(7 * MS, 1000, 100, E3, "NACK:0202", "eg_retrans=1 fb_nack=1", NULL),
		TX(60 * MS, 1000, 100, E4, "NACK:0303", "eg_retrans=1 fb_nack=1",
		   "una=1000 nxt=1400 pend=2"),
		RX(60200 * US, F_A, 1100, "NACK:0202 ACK:0404",
		   "fb_nack=1 fb_ack=1 fb_no_reach=1 fb_verify=1", "una=1100 nxt=1400 pend=0"),
		TXV(60300 * US, 1400, 100, E1, "", "", NULL),
		RXS(60400 * US, F_A, 1100, 1, B(1400, 1500), "ACK:0101", "in_sack_blocks=1 fb_ack=1",
		    "una=1100 nxt=1500 pend=0"),
		TX(60500 * US, 1100, 200, E4, "", "eg_retrans=1", NULL),
		TX(60600 * US, 1300, 100, E4, "", "eg_retrans=1", NULL),
		RX(60800 * US, F_A, 1500, "ACK:0404 ACK:0404", "fb_ack=2", "una=1500 nxt=1500 pend=0"),
		RX(70 * MS, F_A, 1500, "", "", "una=1500 nxt=1500 pend=0"),
	};
	/* a verify send is due for SPRITZ_FB_STRIKE_WAIT timeouts: new data
	 * after that says nothing of the loss */
	static const struct step verify_expired[] = {
		TX(0, 1000, 100, E1, "", "", NULL),
		TX(1500 * US, 1000, 100, E2, "NACK:0101", "eg_retrans=1 fb_nack=1", NULL),
		RX(4 * MS, F_A, 1000, "NACK:0202", "fb_nack=1 fb_no_reach=1",
		   "una=1000 nxt=1100 pend=0"),
		TX(5 * MS, 1000, 100, E3, "", "eg_retrans=1", NULL),
		RX(5500 * US, F_A, 1100, "ACK:0303", "fb_ack=1 fb_verify=1",
		   "una=1100 nxt=1100 pend=0"),
		TX(13500 * US, 1100, 100, E2, "", "", NULL),
		TX(13600 * US, 1200, 100, E3, "", "", NULL),
		RX(14 * MS, F_A, 1300, "ACK:0202 ACK:0303", "fb_ack=2", "una=1300 nxt=1300 pend=0"),
	};
	RUN_DIS("dead_peer", t, 0);
	RUN_DIS("dead_peer_repaired_late", repaired_late, 0);
	RUN_DIS("dead_peer_tlp_repaired_late", tlp_late, 0);
	RUN_DIS("dead_peer_verify_expired", verify_expired, 0);
}

/*
 * ACKs TCP would not accept (RFC 9293 3.10.7.4): rejected, counted, and
 * they change nothing - no credit, no ageing, snd_una kept.
 */
static void test_ack_window(void)
{
	static const struct step t[] = {
		TX(0, 1000, 100, E1, "", "", NULL),
		TX(0, 1100, 100, E2, "", "", NULL),
		TX(0, 1200, 100, E3, "", "", NULL),
		/* past snd_nxt, SACKing a send, after the timeout */
		RXS(300 * MS, F_A, 5000, 1, B(1000, 1100), "", "in_ack_unsent=1",
		    "una=1000 nxt=1300 pend=3"),
		/* half the sequence space ahead: before, as TCP sees it */
		RX(300 * MS, F_A, 1000 + 0x80000000U, "", "in_ack_unsent=1",
		   "una=1000 nxt=1300 pend=3"),
		RX(0, F_A, 1100, "ACK:0101", "fb_ack=1", "una=1100 nxt=1300 pend=2"),
		/* below snd_una: an old ACK, its SACK and its age ignored */
		RXS(300 * MS, F_A, 1050, 1, B(1100, 1200), "", "in_ack_old=1",
		    "una=1100 nxt=1300 pend=2"),
		RX(300 * MS, F_A, 999, "", "in_ack_old=1", "una=1100 nxt=1300 pend=2"),
		/* the same at the edges: snd_una and snd_nxt are valid */
		RX(1 * MS, F_A, 1100, "", "", "una=1100 nxt=1300 pend=2"),
		RX(1 * MS, F_A, 1300, "ACK:0202 ACK:0303", "fb_ack=2", "una=1300 nxt=1300 pend=0"),
	};

	RUN("ack_window", t, NULL);
}

/*
 * A connection on the flow's ports after another (a client's port taken
 * again, a peer reconnecting from the same port): its SYN, or SYN-ACK,
 * leaving drops what the flow kept of the old one - sequence numbers,
 * sends in flight, the receive window - so the new connection's ACKs,
 * below the old ones here, are taken in its own sequence space.  A SYN
 * with RST is no opening: nothing changes.
 */
static void test_reused_ports(void)
{
	static const struct step syn[] = {
		TX(0, 50000, 100, E1, "", "", NULL),
		TX(0, 50100, 100, E2, "", "", "una=50000 nxt=50200 pend=2"),
		RCV(7000, 1000),
		RXQ(1 * MS, F_A, 50100, 7000, 0, "ACK:0101", "fb_ack=1", "una=50100 nxt=50200 pend=1"),
		/* the old connection's last send never acknowledged: forgotten */
		TXF(2 * MS, SPRITZ_TCP_SYN, 999, 0, 0, "", "", "una=0 nxt=0 pend=0"),
		TX(3 * MS, 1000, 100, E3, "", "", "una=1000 nxt=1100 pend=1"),
		/* the peer's sequence outside the old window: read */
		RXQ(4 * MS, F_A, 1100, 0x100, 0, "ACK:0303", "fb_ack=1", "una=1100 nxt=1100 pend=0"),
	};
	static const struct step synack[] = {
		TX(0, 50000, 100, E1, "", "", NULL),
		RX(1 * MS, F_A, 50100, "ACK:0101", "fb_ack=1", "una=50100 nxt=50100 pend=0"),
		TXF(2 * MS, SPRITZ_TCP_SYN | SPRITZ_TCP_ACK, 999, 0, 0, "", "", "una=0 nxt=0 pend=0"),
		TX(3 * MS, 1000, 100, E2, "", "", "una=1000 nxt=1100 pend=1"),
		RX(4 * MS, F_A, 1100, "ACK:0202", "fb_ack=1", "una=1100 nxt=1100 pend=0"),
	};
	static const struct step rst[] = {
		TX(0, 50000, 100, E1, "", "", NULL),
		RX(1 * MS, F_A, 50100, "ACK:0101", "fb_ack=1", "una=50100 nxt=50100 pend=0"),
		TXF(2 * MS, SPRITZ_TCP_SYN | SPRITZ_TCP_RST, 999, 0, 0, "", "",
		    "una=50100 nxt=50100 pend=0"),
		/* below snd_una: a repair of the old space, its ACK an old one */
		TX(3 * MS, 1000, 100, E2, "", "eg_retrans=1", "una=50100 nxt=50100 pend=1"),
		RX(4 * MS, F_A, 1100, "", "in_ack_old=1", "una=50100 nxt=50100 pend=1"),
	};

	RUN("reused_ports_syn", syn, NULL);
	RUN("reused_ports_synack", synack, NULL);
	RUN("reused_ports_rst", rst, NULL);
}

/*
 * Segments outside the receive window the socket last advertised
 * (RFC 9293 3.10.7.4, first check; Linux's tcp_sequence()): TCP drops
 * them unread, ACK field and all, so they are rejected, counted and
 * change nothing - a forged ACK must now guess the peer's sequence
 * number too.  Without a window seen (a forwarded flow), any is taken.
 */
static void test_ack_seq_window(void)
{
	static const struct step t[] = {
		TX(0, 1000, 100, E1, "", "", NULL),
		TX(0, 1100, 100, E2, "", "", NULL),
		TX(0, 1200, 100, E3, "", "", NULL),
		/* no window seen yet: any sequence number */
		RXQ(0, F_A, 1100, 0x80001234U, 0, "ACK:0101", "fb_ack=1", "una=1100 nxt=1300 pend=2"),
		RCV(5000, 1000),
		/* ends before rcv_wup (sequence 0 here; an old duplicate),
		 * after the timeout and SACKing a send: nothing credited,
		 * nothing aged */
		RXS(300 * MS, F_A, 1100, 1, B(1200, 1300), "", "in_ack_seq=1",
		    "una=1100 nxt=1300 pend=2"),
		RXQ(300 * MS, F_A, 1200, 4900, 99, "", "in_ack_seq=1", "una=1100 nxt=1300 pend=2"),
		/* a pure ACK one below rcv_wup (a keepalive's sequence number) */
		RXQ(300 * MS, F_A, 1200, 4999, 0, "", "in_ack_seq=1", "una=1100 nxt=1300 pend=2"),
		/* past the right edge, and half the sequence space away */
		RXQ(300 * MS, F_A, 1200, 6001, 0, "", "in_ack_seq=1", "una=1100 nxt=1300 pend=2"),
		RXQ(300 * MS, F_A, 1200, 5000 + 0x80000000U, 0, "", "in_ack_seq=1",
		    "una=1100 nxt=1300 pend=2"),
		/* a SYN or RST is control first, whatever its sequence number */
		RXQ(1 * MS, F_A | SPRITZ_TCP_RST, 1200, 1, 0, "", "in_ack_ctl=1", NULL),
		/* at the edges: data ending at rcv_wup, a segment starting at
		 * the right edge */
		RXQ(1 * MS, F_A, 1200, 4900, 100, "ACK:0202", "fb_ack=1", "una=1200 nxt=1300 pend=1"),
		RXQ(1 * MS, F_A, 1200, 6000, 0, "", "", "una=1200 nxt=1300 pend=1"),
		/* the window moved on (a later send): the old left edge is old */
		RCV(5600, 1000),
		RXQ(1 * MS, F_A, 1300, 5000, 100, "", "in_ack_seq=1", "una=1200 nxt=1300 pend=1"),
		RXQ(1 * MS, F_A, 1300, 5600, 0, "ACK:0303", "fb_ack=1", "una=1300 nxt=1300 pend=0"),
	};

	RUN("ack_seq_window", t, NULL);
}

/*
 * The window a segment advertises where no socket shows its own
 * (spritz_fb_rcv_hdr()): [ACK, ACK + window << scale] from segments with
 * ACK and without RST, the scale the connection's SYN announced
 * (spritz_fb_wscale_sent(): none is 0, above 14 is 14), 14 if its SYN was
 * not seen, 0 for a SYN-ACK; a right edge that moves left stays where it
 * was.  Then which peer sequence numbers spritz_fb_ack_check() takes (an
 * ACK of nothing in flight: IGNORE without in_ack_seq means accepted).
 */
static void test_rcv_hdr(void)
{
	enum { UNSEEN = -2 };
	static const struct {
		const char *name;
		int wscale;	     /* the SYN's option (-1: none), or UNSEEN */
		__u16 before;	     /* a window field that left before at ACK ack_before (0: none) */
		__u32 ack_before;
		__u8 flags;
		__u32 ack;
		__u16 win;
		int have;	     /* a window set */
		__u32 wup, wend;
		__u32 seq;	     /* a peer's pure ACK at this sequence number ... */
		int refused;	     /* ... is refused (in_ack_seq) */
	} rows[] = {
		{ "data", UNSEEN, 0, 0, F_A | SPRITZ_TCP_PSH, 5000, 2, 1, 5000, 5000 + (2 << 14),
		  5000, 0 },
		{ "right edge", UNSEEN, 0, 0, F_A, 5000, 2, 1, 5000, 37768, 37768, 0 },
		{ "past it", UNSEEN, 0, 0, F_A, 5000, 2, 1, 5000, 37768, 37769, 1 },
		{ "below the left edge", UNSEEN, 0, 0, F_A, 5000, 2, 1, 5000, 37768, 4999, 1 },
		{ "largest window", UNSEEN, 0, 0, F_A, 5000, 0xffff, 1, 5000,
		  5000 + (0xffffU << 14), 5000 + (0xffffU << 14), 0 },
		{ "half the space away", UNSEEN, 0, 0, F_A, 5000, 0xffff, 1, 5000,
		  5000 + (0xffffU << 14), 5000 + 0x80000000U, 1 },
		{ "zero window: rcv_nxt only", UNSEEN, 0, 0, F_A, 5000, 0, 1, 5000, 5000, 5000, 0 },
		{ "zero window, one past", UNSEEN, 0, 0, F_A, 5000, 0, 1, 5000, 5000, 5001, 1 },
		{ "wrapping", UNSEEN, 0, 0, F_A, 0xfffffff0U, 1, 1, 0xfffffff0U, 0x3ff0, 0x10, 0 },
		{ "scale 7: right edge", 7, 0, 0, F_A, 5000, 2, 1, 5000, 5256, 5256, 0 },
		{ "scale 7: past it", 7, 0, 0, F_A, 5000, 2, 1, 5000, 5256, 5257, 1 },
		{ "no scale option: unscaled", -1, 0, 0, F_A, 5000, 2, 1, 5000, 5002, 5003, 1 },
		{ "scale 30 is 14", 30, 0, 0, F_A, 5000, 2, 1, 5000, 37768, 37768, 0 },
		{ "scale 14", 14, 0, 0, F_A, 5000, 2, 1, 5000, 37768, 37769, 1 },
		{ "SYN-ACK: never scaled", UNSEEN, 0, 0, F_A | SPRITZ_TCP_SYN, 5000, 1, 1, 5000,
		  5001, 5002, 1 },
		{ "SYN-ACK, scale 7: never scaled", 7, 0, 0, F_A | SPRITZ_TCP_SYN, 5000, 1, 1, 5000,
		  5001, 5001, 0 },
		{ "window grows: the edge moves", 7, 1, 5000, F_A, 5000, 3, 1, 5000, 5384, 5384, 0 },
		{ "window shrinks: the edge stays", 7, 4, 5000, F_A, 5100, 1, 1, 5100, 5512, 5512,
		  0 },
		{ "... the left edge moves", 7, 4, 5000, F_A, 5100, 1, 1, 5100, 5512, 5099, 1 },
		{ "an older ACK field (DCTCP): the edge stays", 7, 2, 6000, F_A, 5900, 2, 1, 5900,
		  6256, 6256, 0 },
		{ "the edge stays across a wrap", 7, 1, 0xfffffff0U, F_A, 0x10, 0, 1, 0x10, 0x70,
		  0x70, 0 },
		{ "RST with ACK: nothing", UNSEEN, 0, 0, F_A | SPRITZ_TCP_RST, 5000, 1, 0, 0, 0,
		  0x80000000U, 0 },
		{ "no ACK: nothing", UNSEEN, 0, 0, SPRITZ_TCP_PSH, 5000, 1, 0, 0, 0, 0x80000000U, 0 },
		{ "SYN: nothing", UNSEEN, 0, 0, SPRITZ_TCP_SYN, 5000, 1, 0, 0, 0, 0x80000000U, 0 },
	};
	struct spritz_fb_flow fb;
	struct spritz_stats st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		memset(&fb, 0, sizeof(fb));
		memset(&st, 0, sizeof(st));
		if (rows[i].wscale != UNSEEN)
			spritz_fb_wscale_sent(&fb, rows[i].wscale);
		if (rows[i].before)
			spritz_fb_rcv_hdr(&fb, F_A, rows[i].ack_before, rows[i].before);
		spritz_fb_rcv_hdr(&fb, rows[i].flags, rows[i].ack, rows[i].win);
		ASSERT_EQ(!!(fb.flags & SPRITZ_FB_F_HAVE_RCV), rows[i].have, rows[i].name);
		ASSERT_EQ(fb.rcv_wup, rows[i].wup, rows[i].name);
		ASSERT_EQ(fb.rcv_wend, rows[i].wend, rows[i].name);
		ASSERT_EQ(spritz_fb_ack_check(&fb, &st, F_A, 0, rows[i].seq, rows[i].seq),
			  SPRITZ_FB_ACK_IGNORE, rows[i].name);
		ASSERT_EQ(st.in_ack_seq, rows[i].refused, rows[i].name);
	}
}

/*
 * Host-wide disables (spritz_fb_disable_ok()): at most b->flow per flow
 * and b->peer for all flows to one peer, each within the window from its
 * first; the rest withheld and counted by the budget that said no, which
 * charges neither budget; a bound of 0 bounds nothing; a window over (or
 * a start the clock is before) begins another; no peer entry (NULL): the
 * flow's budget alone.
 */
static void test_disable_budget(void)
{
	enum { WIN = 1000 * MS };
	static const struct {
		__u64 now;
		int flow;	      /* 0, 1: flows to the peer; 2: one with no peer entry */
		__u32 fmax, pmax;     /* the bounds */
		int ok;		      /* expected verdict */
		int fwithheld, pwithheld; /* counters' deltas */
		__u8 fn, pn;	      /* the flow's and the peer's counts after */
		__u64 fsince, psince; /* their windows' starts after */
	} t[] = {
		/* two flows share the peer's budget of 3 */
		{ 1000 * MS, 0, 2, 3, 1, 0, 0, 1, 1, 1000 * MS, 1000 * MS },
		{ 1100 * MS, 1, 2, 3, 1, 0, 0, 1, 2, 1100 * MS, 1000 * MS },
		{ 1200 * MS, 0, 2, 3, 1, 0, 0, 2, 3, 1000 * MS, 1000 * MS },
		/* flow 1's own budget has room, the peer's not: peer's word */
		{ 1300 * MS, 1, 2, 3, 0, 0, 1, 1, 3, 1100 * MS, 1000 * MS },
		/* flow 0's budget spent first: the peer is not charged */
		{ 1400 * MS, 0, 2, 9, 0, 1, 0, 2, 3, 1000 * MS, 1000 * MS },
		/* the knob raised: room again */
		{ 1500 * MS, 1, 2, 4, 1, 0, 0, 2, 4, 1100 * MS, 1000 * MS },
		/* peer 0: no peer bound, the flow's still holds */
		{ 1600 * MS, 0, 3, 0, 1, 0, 0, 3, 4, 1000 * MS, 1000 * MS },
		{ 1700 * MS, 0, 3, 0, 0, 1, 0, 3, 4, 1000 * MS, 1000 * MS },
		/* flow 0 and the peer unbounded: the paper */
		{ 1800 * MS, 0, 0, 0, 1, 0, 0, 3, 4, 1000 * MS, 1000 * MS },
		/* both windows over: each begins another */
		{ 2100 * MS, 1, 2, 1, 1, 0, 0, 1, 1, 2100 * MS, 2100 * MS },
		/* the flow's window over, the peer's not: the flow uncharged */
		{ 2500 * MS, 0, 4, 1, 0, 0, 1, 3, 1, 1000 * MS, 2100 * MS },
		/* no peer entry: the flow's budget alone */
		{ 2500 * MS, 2, 1, 1, 1, 0, 0, 1, 1, 2500 * MS, 2100 * MS },
		{ 2600 * MS, 2, 1, 1, 0, 1, 0, 1, 1, 2500 * MS, 2100 * MS },
		/* the clock before the starts: new windows */
		{ 500 * MS, 0, 4, 2, 1, 0, 0, 1, 1, 500 * MS, 500 * MS },
	};
	struct spritz_flow f[3];
	struct spritz_peer peer;
	struct spritz_stats st;
	__u64 fw = 0, pw = 0;
	char what[64];
	size_t i;

	memset(f, 0, sizeof(f));
	memset(&peer, 0, sizeof(peer));
	memset(&st, 0, sizeof(st));
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct spritz_fb_bounds b = { t[i].fmax, t[i].pmax, WIN };
		struct spritz_flow *fl = &f[t[i].flow];
		struct spritz_peer *p = t[i].flow == 2 ? NULL : &peer;

		snprintf(what, sizeof(what), "disable_budget row %zu", i + 1);
		ASSERT_EQ(spritz_fb_disable_ok(fl, p, &st, t[i].now, &b), t[i].ok, what);
		fw += t[i].fwithheld;
		pw += t[i].pwithheld;
		ASSERT_EQ(st.path_disable_withheld, fw, what);
		ASSERT_EQ(st.path_disable_peer_withheld, pw, what);
		ASSERT_EQ(fl->disables, t[i].fn, what);
		ASSERT_EQ(fl->disables_ns, t[i].fsince, what);
		ASSERT_EQ(peer.disables, t[i].pn, what);
		ASSERT_EQ(peer.disables_ns, t[i].psince, what);
	}
}

/* SACK blocks outside [snd_una, snd_nxt], empty or reversed: ignored. */
static void test_sack_window(void)
{
	static const struct step t[] = {
		TX(0, 1000, 100, E1, "", "", NULL),
		TX(0, 1100, 100, E2, "", "", NULL),
		TX(0, 1200, 100, E3, "", "", NULL),
		/* beyond snd_nxt, covering a send */
		RXS(1 * MS, F_A, 1000, 1, B(1100, 1400), "", "in_sack_bad=1",
		    "una=1000 nxt=1300 pend=3"),
		/* below snd_una (D-SACK too), covering the whole space */
		RXS(1 * MS, F_A, 1000, 1, B(900, 1300), "", "in_sack_bad=1",
		    "una=1000 nxt=1300 pend=3"),
		/* reversed and empty blocks */
		RXS(1 * MS, F_A, 1000, 2, B(1200, 1100, 1100, 1100), "", "in_sack_bad=2",
		    "una=1000 nxt=1300 pend=3"),
		/* bad blocks next to a good one: only the good one counts */
		RXS(1 * MS, F_A, 1000, 3, B(0, 0xffffffff, 1100, 1200, 1200, 9999), "ACK:0202",
		    "in_sack_blocks=1 in_sack_bad=2 fb_ack=1", "una=1000 nxt=1300 pend=2"),
	};

	RUN("sack_window", t, NULL);
}

/*
 * Handshake and control segments never yield path feedback: a SYN, its
 * retransmissions, a FIN-only send and its retransmissions record nothing;
 * an incoming SYN-ACK (with ECE: ECN negotiation) or RST is no ACK of data.
 */
static void test_handshake(void)
{
	static const struct step t[] = {
		/* connect(): SYN, then its 1 s and 3 s retransmissions */
		TXF(0, SPRITZ_TCP_SYN | SPRITZ_TCP_ECE | SPRITZ_TCP_CWR, 999, 0, E1, "", "",
		    "una=0 nxt=0 pend=0"),
		TXF(1000 * MS, SPRITZ_TCP_SYN, 999, 0, E2, "", "", "una=0 nxt=0 pend=0"),
		TXF(3000 * MS, SPRITZ_TCP_SYN, 999, 0, E3, "", "", "una=0 nxt=0 pend=0"),
		/* no data yet: an incoming SYN-ACK is not even looked at */
		RX(3001 * MS, SPRITZ_TCP_SYN | F_E, 1000, "", "", "una=0 nxt=0 pend=0"),
		TX(3002 * MS, 1000, 100, E1, "", "", "una=1000 nxt=1100 pend=1"),
		/* a SYN-ACK (repeated by the peer) with ECE: negotiation */
		RX(3003 * MS, SPRITZ_TCP_SYN | F_E, 1100, "", "in_ack_ctl=1",
		   "una=1000 nxt=1100 pend=1"),
		/* an RST with ACK acknowledges nothing */
		RX(3004 * MS, SPRITZ_TCP_RST | F_A, 1100, "", "in_ack_ctl=1",
		   "una=1000 nxt=1100 pend=1"),
		RX(3005 * MS, F_A, 1100, "ACK:0101", "fb_ack=1", "una=1100 nxt=1100 pend=0"),
		/* FIN-only: snd_nxt covers it, nothing recorded */
		TXF(3006 * MS, SPRITZ_TCP_FIN | F_A, 1100, 0, E2, "", "", "una=1100 nxt=1101 pend=0"),
		/* its retransmission long after: no TIMEOUT */
		TXF(5000 * MS, SPRITZ_TCP_FIN | F_A, 1100, 0, E3, "", "", "una=1100 nxt=1101 pend=0"),
		/* the ACK of the FIN is no ACK of unsent data */
		RX(5001 * MS, F_A, 1101, "", "", "una=1101 nxt=1101 pend=0"),
	};
	__u32 dis;

	RUN("handshake", t, &dis);
	ASSERT_EQ(dis, 0, "handshake: no path disabled");
}

/* Pure ACKs, RSTs and SYN-ACKs leaving are not recorded either. */
static void test_ctl_sends(void)
{
	static const struct step t[] = {
		TXF(0, SPRITZ_TCP_SYN | SPRITZ_TCP_ACK, 5000, 0, E1, "", "", "una=0 nxt=0 pend=0"),
		TXF(0, SPRITZ_TCP_RST | SPRITZ_TCP_ACK, 5001, 0, E1, "", "", "una=0 nxt=0 pend=0"),
		TXF(0, SPRITZ_TCP_RST, 5001, 0, E1, "", "", "una=0 nxt=0 pend=0"),
		TX(0, 5001, 10, E1, "", "", "una=5001 nxt=5011 pend=1"),
		TXF(0, F_A, 5011, 0, E1, "", "", "una=5001 nxt=5011 pend=1"),
		/* an RST carrying data (RFC 9293 allows it) is still an RST */
		TXF(0, SPRITZ_TCP_RST | F_A, 5011, 10, E1, "", "", "una=5001 nxt=5011 pend=1"),
		/* data with FIN: recorded, FIN included */
		TXF(0, F_D | SPRITZ_TCP_FIN, 5011, 10, E2, "", "", "una=5001 nxt=5022 pend=2"),
		RX(1 * MS, F_A, 5022, "ACK:0101 ACK:0202", "fb_ack=2", "una=5022 nxt=5022 pend=0"),
	};

	ASSERT_EQ(spritz_fb_seg_kind(SPRITZ_TCP_SYN, 0), SPRITZ_SEG_SYN, "SYN");
	ASSERT_EQ(spritz_fb_seg_kind(SPRITZ_TCP_SYN, 100), SPRITZ_SEG_SYN, "SYN with data (TFO)");
	ASSERT_EQ(spritz_fb_seg_kind(SPRITZ_TCP_SYN | SPRITZ_TCP_ACK, 0), SPRITZ_SEG_CTL, "SYN-ACK");
	ASSERT_EQ(spritz_fb_seg_kind(SPRITZ_TCP_ACK | SPRITZ_TCP_FIN, 0), SPRITZ_SEG_CTL, "FIN");
	ASSERT_EQ(spritz_fb_seg_kind(SPRITZ_TCP_ACK, 1), SPRITZ_SEG_DATA, "one byte");
	RUN("ctl_sends", t, NULL);
}

/*
 * What spritz.ko's (or the simulator's) answer to an allowed disable counts
 * (spritz_fb_disable_count()): one counter per answer, no other moved.
 */
static void test_disable_count(void)
{
	static const struct {
		const char *name;
		int r;
		size_t off;
	} rows[] = {
		{ "disabled", 0, offsetof(struct spritz_stats, path_disables) },
		{ "kept by the floor", SPRITZ_TIMEOUT_KEPT, offsetof(struct spritz_stats, path_disable_kept) },
		{ "no such path", -ENOENT, offsetof(struct spritz_stats, path_disable_fail) },
		{ "no spritz.ko", -1, offsetof(struct spritz_stats, path_disable_fail) },
		{ "unknown positive answer", 2, offsetof(struct spritz_stats, path_disable_fail) },
	};
	struct spritz_stats st, want;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		memset(&st, 0, sizeof(st));
		memset(&want, 0, sizeof(want));
		*(__u64 *)((char *)&want + rows[i].off) = 1;
		spritz_fb_disable_count(&st, rows[i].r);
		ASSERT_EQ(memcmp(&st, &want, sizeof(st)), 0, rows[i].name);
	}
}

/*
 * Which sends start a connection (spritz_fb_ctl_sent() returns 1: the
 * caller restarts the flow's byte count), and which SYN is one sent again
 * (spritz_fb_syn_again(): uniform pick) rather than a new connection on
 * ports a flow used before; the flow's step, spritz_fb_flow_ctl_sent(),
 * restarts its byte count for a new connection and takes the window scale
 * its SYN announced (spritz_fb_wscale_sent()).  Each row: the flow's sends
 * before (none, a SYN, data), the segment leaving with its window scale
 * option (-1: none), whether the flow has an EV; then the scale the flow
 * takes (-1: none set).
 */
static void test_new_connection(void)
{
	enum { NONE, SYN, DATA };
	static const struct {
		const char *name;
		int before, have_ev;
		__u8 flags;
		__u32 len;
		int wscale;
		int want_again, want_new, want_scale;
	} rows[] = {
		{ "first SYN", NONE, 0, SPRITZ_TCP_SYN, 0, 7, 0, 1, 7 },
		{ "SYN sent again", SYN, 1, SPRITZ_TCP_SYN, 0, -1, 1, 1, 0 },
		{ "SYN with data sent again", SYN, 1, SPRITZ_TCP_SYN, 100, 14, 1, 1, 14 },
		{ "SYN after data: a new connection", DATA, 1, SPRITZ_TCP_SYN, 0, 15, 0, 1, 14 },
		{ "SYN, no EV yet (unsteered)", SYN, 0, SPRITZ_TCP_SYN, 0, 0, 0, 1, 0 },
		{ "SYN-ACK", NONE, 0, SPRITZ_TCP_SYN | F_A, 0, 255, 0, 1, 14 },
		{ "SYN-ACK after data", DATA, 1, SPRITZ_TCP_SYN | F_A, 0, 9, 0, 1, 9 },
		{ "SYN with RST", DATA, 1, SPRITZ_TCP_SYN | SPRITZ_TCP_RST, 0, 7, 0, 0, -1 },
		{ "RST", DATA, 1, SPRITZ_TCP_RST | F_A, 0, -1, 0, 0, -1 },
		{ "FIN", DATA, 1, SPRITZ_TCP_FIN | F_A, 0, -1, 0, 0, -1 },
		{ "pure ACK", DATA, 1, F_A, 0, -1, 0, 0, -1 },
	};
	struct spritz_fb_flow fb;
	struct spritz_stats st;
	struct spritz_flow f;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		int kind = spritz_fb_seg_kind(rows[i].flags, rows[i].len);
		__u32 end = 5000 + spritz_tcp_seqlen(rows[i].flags, rows[i].len);

		memset(&fb, 0, sizeof(fb));
		memset(&st, 0, sizeof(st));
		if (rows[i].before == SYN)
			ASSERT_EQ(spritz_fb_ctl_sent(&fb, SPRITZ_TCP_SYN, 999, 1000), 1,
				  rows[i].name);
		if (rows[i].before == DATA) {
			spritz_fb_presend(&fb, 1000, 1100);
			spritz_fb_record(&fb, &st, 0, 1000, 1100, E1, 0, 1);
		}
		/* the flow's step (spritz_fb_flow_ctl_sent()) on the same state */
		memset(&f, 0, sizeof(f));
		f.fb = fb;
		f.flags = rows[i].have_ev ? SPRITZ_FLOW_F_HAVE_EV : 0;
		f.bytes_sent = 1 << 20;
		ASSERT_EQ(spritz_fb_syn_again(&fb, kind, rows[i].have_ev), rows[i].want_again,
			  rows[i].name);
		ASSERT_EQ(spritz_fb_ctl_sent(&fb, rows[i].flags, 5000, end), rows[i].want_new,
			  rows[i].name);
		if (rows[i].want_new)
			ASSERT_EQ(spritz_fb_tracking(&fb), 0, rows[i].name);
		ASSERT_EQ(spritz_fb_flow_ctl_sent(&f, kind, rows[i].flags, 5000, end,
						  rows[i].wscale),
			  rows[i].want_again, rows[i].name);
		ASSERT_EQ(f.bytes_sent, rows[i].want_new ? 0 : 1 << 20, rows[i].name);
		ASSERT_EQ(f.fb.flags & SPRITZ_FB_F_WSCALE ? f.fb.rcv_wscale : -1,
			  rows[i].want_scale, rows[i].name);
		/* the rest as spritz_fb_ctl_sent() left it */
		f.fb.flags &= ~SPRITZ_FB_F_WSCALE;
		f.fb.rcv_wscale = 0;
		ASSERT_EQ(memcmp(&f.fb, &fb, sizeof(fb)), 0, rows[i].name);
	}
}

/* Sequence numbers wrap: comparisons are modular (RFC 9293 3.4). */
static void test_wrap(void)
{
	static const struct step t[] = {
		TX(0, 0xffffff00U, 0x80, E1, "", "", NULL),
		TX(0, 0xffffff80U, 0x100, E2, "", "", "una=4294967040 nxt=128 pend=2"),
		RXS(1 * MS, F_A, 0xffffff80U, 1, B(0xffffffc0U, 0x40), "ACK:0101",
		    "in_sack_blocks=1 fb_ack=1", "una=4294967168 nxt=128 pend=1"),
		RX(2 * MS, F_A, 0x80, "ACK:0202", "fb_ack=1", "una=128 nxt=128 pend=0"),
		RX(2 * MS, F_A, 0xfffffff0U, "", "in_ack_old=1", "una=128 nxt=128 pend=0"),
	};

	RUN("wrap", t, NULL);
}

/* Two half-open sequence ranges overlap iff they share a number, across the wrap too. */
static void test_seq_overlap(void)
{
	static const struct {
		__u32 a, a_end, b, b_end;
		int want;
		const char *name;
	} t[] = {
		{ 100, 200, 150, 250, 1, "b starts inside a" },
		{ 150, 250, 100, 200, 1, "a starts inside b" },
		{ 100, 200, 120, 130, 1, "b inside a" },
		{ 100, 200, 200, 300, 0, "b starts at a's end" },
		{ 200, 300, 100, 200, 0, "a starts at b's end" },
		{ 100, 200, 300, 400, 0, "disjoint" },
		{ 100, 200, 100, 100, 0, "b empty" },
		{ 0xffffff00U, 0x80, 0x40, 0x100, 1, "a wraps, b after 0" },
		{ 0xffffff00U, 0x80, 0xffffff80U, 0xffffffc0U, 1, "a wraps, b before 0" },
		{ 0xffffff00U, 0x80, 0x80, 0x100, 0, "a wraps, b at a's end" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		ASSERT_EQ(spritz_seq_overlap(t[i].a, t[i].a_end, t[i].b, t[i].b_end), t[i].want,
			  t[i].name);
}

/*
 * More sends in flight than the ring holds: the newest go unrecorded
 * (eg_ring_overrun), the oldest keep their feedback - the first, on E2,
 * is acknowledged as such; a slot freed by an ACK takes the next send.
 */
static void test_overrun(void)
{
	struct step t[SPRITZ_RING_SIZE + 5];
	static char evs[SPRITZ_RING_SIZE * 10 + 1];
	size_t i, n = 0, off = 0;

	t[n++] = (struct step)TX(0, 0, 100, E2, "", "", NULL);
	for (i = 1; i < SPRITZ_RING_SIZE + 2; i++)
		t[n++] = (struct step)TX(0, 100 * (__u32)i, 100, E1, "",
					 i < SPRITZ_RING_SIZE ? "" : "eg_ring_overrun=1", NULL);
	/* the first send acknowledged: the oldest record, E2, still there */
	t[n++] = (struct step)RX(1 * MS, F_A, 100, "ACK:0202", "fb_ack=1", NULL);
	t[n++] = (struct step)TX(1 * MS, 100 * (SPRITZ_RING_SIZE + 2), 100, E3, "", "", NULL);
	/* in slot order: E3 took the slot E2 freed */
	off += snprintf(evs + off, sizeof(evs) - off, "ACK:0303");
	for (i = 1; i < SPRITZ_RING_SIZE; i++)
		off += snprintf(evs + off, sizeof(evs) - off, " ACK:0101");
	t[n++] = (struct step)RX(2 * MS, F_A, 100 * (SPRITZ_RING_SIZE + 3), evs, "", NULL);
	{
		char c[32];

		snprintf(c, sizeof(c), "fb_ack=%d", SPRITZ_RING_SIZE);
		t[n - 1].counters = c;
		run_trace("overrun", t, n, NULL);
	}
}

/* While a suspect waits, samples probe (uniform); not before, not after. */
static void test_probe(void)
{
	struct spritz_fb_flow fb;
	struct spritz_stats st;
	struct spritz_fb_ackinfo a;
	struct spritz_fb_event ev;
	__u32 k;

	memset(&fb, 0, sizeof(fb));
	memset(&st, 0, sizeof(st));
	spritz_fb_presend(&fb, 1000, 1100);
	spritz_fb_record(&fb, &st, 0, 1000, 1100, E1, 0, 1);
	spritz_fb_presend(&fb, 1100, 1200);
	spritz_fb_record(&fb, &st, 10, 1100, 1200, E2, 0, 1);
	ASSERT_FALSE(spritz_fb_probe(&fb), "no loss: no probe");
	ASSERT_TRUE(spritz_fb_presend(&fb, 1000, 1100), "a repeat");
	ASSERT_EQ(spritz_fb_retrans(&fb, &st, 1000, 1100, SPRITZ_FB_TS_NONE), 1, "NACK");
	ASSERT_TRUE(spritz_fb_probe(&fb), "suspect: probe");
	memset(&a, 0, sizeof(a));
	a.ack = 1000;
	a.nsack = 1;
	a.sack[0] = 1100;
	a.sack[1] = 1200;
	ASSERT_EQ(spritz_fb_ack_check(&fb, &st, SPRITZ_TCP_ACK, 1000, 0, 0), SPRITZ_FB_ACK_SCAN,
		  "scan");
	ASSERT_EQ(spritz_fb_ack(&fb, &st, 3 * MS, 2 * MS, &a), 1, "ACK, one loss: no TIMEOUT");
	for (k = 0; k < SPRITZ_FB_SLOTS; k++)
		spritz_fb_take(&fb, k, &ev);
	ASSERT_TRUE(spritz_fb_probe(&fb), "waiting for a second loss: probe");
	ASSERT_EQ(spritz_fb_ack(&fb, &st, 8 * MS, 2 * MS, &a), 0, "4 T, no sends: waits");
	ASSERT_TRUE(spritz_fb_probe(&fb), "still waiting: probe");
	for (k = 0; k < SPRITZ_RING_SIZE; k++) {
		spritz_fb_presend(&fb, 1200 + 100 * k, 1300 + 100 * k);
		spritz_fb_record(&fb, &st, 8 * MS, 1200 + 100 * k, 1300 + 100 * k, E2, 0, 1);
	}
	a.nsack = 0;
	a.ack = 1200 + 100 * SPRITZ_RING_SIZE;
	ASSERT_EQ(spritz_fb_ack_check(&fb, &st, SPRITZ_TCP_ACK, a.ack, 0, 0), SPRITZ_FB_ACK_SCAN,
		  "scan");
	ASSERT_EQ(spritz_fb_ack(&fb, &st, 9 * MS, 2 * MS, &a), SPRITZ_RING_SIZE,
		  "a ring's worth of sends after it: isolated");
	for (k = 0; k < SPRITZ_FB_SLOTS; k++)
		spritz_fb_take(&fb, k, &ev);
	ASSERT_EQ(st.fb_isolated, 1, "fb_isolated");
	ASSERT_FALSE(spritz_fb_probe(&fb), "judged: no probe");
}

/*
 * The flags of a sample: verdict, suspect, repeated SYN, small-flow bias
 * by the flow's size as far as it is known (sent + unsent; threshold 1000).
 */
static void test_pick_flags(void)
{
	static const struct {
		const char *name;
		__u32 vflags;
		int suspect, syn_again;
		__u64 sent;
		__u32 unsent;
		__u32 want;
	} rows[] = {
		{ "weighted, large flow", 0, 0, 0, 1 << 20, 0, 0 },
		{ "weighted, small flow", 0, 0, 0, 100, 0, SPRITZ_PICK_SMALL_FLOW },
		{ "small so far, 899 queued", 0, 0, 0, 100, 899, SPRITZ_PICK_SMALL_FLOW },
		{ "small so far, 900 queued: large", 0, 0, 0, 100, 900, 0 },
		{ "first send of a queued large flow", 0, 0, 0, 0, 1 << 30, 0 },
		{ "unsent at its maximum", 0, 0, 0, 1 << 20, 0xffffffff, 0 },
		{ "uniform core: no bias", SPRITZ_PICK_UNIFORM, 0, 0, 100, 0, SPRITZ_PICK_UNIFORM },
		{ "min-bias, small flow", SPRITZ_PICK_MIN_BIAS, 0, 0, 100, 0,
		  SPRITZ_PICK_MIN_BIAS | SPRITZ_PICK_SMALL_FLOW },
		{ "min-bias, queued large flow", SPRITZ_PICK_MIN_BIAS, 0, 0, 100, 5000,
		  SPRITZ_PICK_MIN_BIAS },
		{ "suspect: probe", SPRITZ_PICK_MIN_BIAS, 1, 0, 100, 0, SPRITZ_PICK_UNIFORM },
		{ "SYN again: probe", 0, 0, 1, 0, 0, SPRITZ_PICK_UNIFORM },
		{ "first SYN: small flow", 0, 0, 0, 0, 0, SPRITZ_PICK_SMALL_FLOW },
		{ "unknown verdict bits dropped", 1U << 7, 0, 0, 1 << 20, 0, 0 },
	};
	struct spritz_fb_flow fb;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		memset(&fb, 0, sizeof(fb));
		if (rows[i].suspect)
			fb.flags |= SPRITZ_FB_F_SUSPECT;
		fb.unsent = rows[i].unsent;
		ASSERT_EQ(spritz_fb_pick_flags(&fb, rows[i].vflags, rows[i].syn_again,
					       rows[i].sent, 1000),
			  rows[i].want, rows[i].name);
	}
}

/*
 * A flow's samples avoid the EVs of its latest lost sends, up to
 * SPRITZ_AVOID_MAX, each until a send on it is delivered
 * (spritz_fb_avoid()).  Trace "dead": the window of a flow on one dead
 * path, then TCP's RTO repair elsewhere: the repair's delivery does not
 * end the dead path's avoidance; "order": deliveries on other paths, made
 * before or after the loss, change nothing, a loss found late of a send
 * older than a delivered one still counts, a delivery on an avoided EV
 * takes it out; "chain": repairs lost on one path after another (two dead
 * paths would otherwise take turns), a loss again on an avoided EV makes
 * it the newest, the oldest EV leaves a full set; "recovered": a congested
 * path that drops one send and delivers the next leaves the set.  New
 * data may go to the suspect's path, under judgement; a repair may not.
 */
static void test_avoid(void)
{
	static const struct step dead[] = {
		TX(0, 1000, 100, E1, "", "", "una=1000 nxt=1100 pend=1 avoid=-"),
		TX(1 * MS, 1100, 100, E1, "", "", "una=1000 nxt=1200 pend=2 avoid=-"),
		/* RTO: the head again, on another path */
		TX(250 * MS, 1000, 100, E2, "NACK:0101", "eg_retrans=1 fb_nack=1",
		   "una=1000 nxt=1200 pend=2 avoid=0101"),
		/* the repair arrives, the flow moves on; 1100, sent at 1 ms, is 259
		 * ms old: lost too; E1 stays avoided */
		RX(260 * MS, F_A, 1100, "NACK:0101 ACK:0202", "fb_ack=1 fb_nack=1",
		   "una=1100 nxt=1200 pend=0 avoid=0101"),
		/* the next repair is sampled away from E1 and delivered: E1 stays */
		TX(261 * MS, 1100, 100, E3, "", "eg_retrans=1", "una=1100 nxt=1200 pend=1 avoid=0101"),
		RX(262 * MS, F_A, 1200, "ACK:0303", "fb_ack=1", "una=1200 nxt=1200 pend=0 avoid=0101"),
	};
	static const struct step order[] = {
		TX(0, 1000, 100, E2, "", "", NULL),
		TX(2 * MS, 1100, 100, E1, "", "", NULL),
		TX(3 * MS, 1200, 100, E4, "", "", NULL),
		/* 1200, sent after the lost one, delivered first */
		RXS(4 * MS, F_A, 1000, 1, B(1200, 1300), "ACK:0404", "fb_ack=1 in_sack_blocks=1",
		    "una=1000 nxt=1300 pend=2 avoid=-"),
		TX(5 * MS, 1100, 100, E3, "NACK:0101", "eg_retrans=1 fb_nack=1",
		   "una=1000 nxt=1300 pend=2 avoid=0101"),
		/* 1000 on E2, sent before the lost one: E1 still avoided */
		RX(6 * MS, F_A, 1100, "ACK:0202", "fb_ack=1", "una=1100 nxt=1300 pend=1 avoid=0101"),
		TX(7 * MS, 1300, 100, E2, "", "", "una=1100 nxt=1400 pend=2 avoid=0101"),
		/* a newer loss, on E3: E3 joins, newest first */
		TX(8 * MS, 1100, 100, E2, "NACK:0303", "eg_retrans=1 fb_nack=1",
		   "una=1100 nxt=1400 pend=2 avoid=0303,0101"),
		/* 1300 on E2, sent after both losses: both still avoided */
		RXS(9 * MS, F_A, 1100, 1, B(1300, 1400), "ACK:0202", "fb_ack=1 in_sack_blocks=1",
		    "una=1100 nxt=1400 pend=1 avoid=0303,0101"),
		/* a send on E1 delivered: E1 out, E3 stays (and to the dead-path
		 * rule, the suspect's path is alive) */
		TX(10 * MS, 1400, 100, E1, "", "", NULL),
		RXS(11 * MS, F_A, 1100, 1, B(1300, 1500), "ACK:0101",
		    "fb_ack=1 in_sack_blocks=1 fb_path_alive=1",
		    "una=1100 nxt=1500 pend=1 avoid=0303"),
	};
	static const struct step chain[] = {
		TX(0, 1000, 100, E1, "", "", "una=1000 nxt=1100 pend=1 avoid=-"),
		/* TLP, RTOs: each repair of the head is lost on its path */
		TX(1 * MS, 1000, 100, E2, "NACK:0101", "eg_retrans=1 fb_nack=1",
		   "una=1000 nxt=1100 pend=1 avoid=0101"),
		TX(3 * MS, 1000, 100, E3, "NACK:0202", "eg_retrans=1 fb_nack=1",
		   "una=1000 nxt=1100 pend=1 avoid=0202,0101"),
		TX(7 * MS, 1000, 100, E1, "NACK:0303", "eg_retrans=1 fb_nack=1",
		   "una=1000 nxt=1100 pend=1 avoid=0303,0202,0101"),
		/* lost again on E1: the newest again */
		TX(15 * MS, 1000, 100, E4, "NACK:0101", "eg_retrans=1 fb_nack=1",
		   "una=1000 nxt=1100 pend=1 avoid=0101,0303,0202"),
		/* a fourth EV: the oldest (E2) leaves */
		TX(31 * MS, 1000, 100, E2, "NACK:0404", "eg_retrans=1 fb_nack=1",
		   "una=1000 nxt=1100 pend=1 avoid=0404,0101,0303"),
		/* the latest repair is delivered, on E2, not in the set */
		RX(32 * MS, F_A, 1100, "ACK:0202", "fb_ack=1",
		   "una=1100 nxt=1100 pend=0 avoid=0404,0101,0303"),
	};
	static const struct step recovered[] = {
		TX(0, 1000, 100, E1, "", "", NULL),
		TX(1 * MS, 1100, 100, E1, "", "", NULL),
		/* 1000 dropped on a congested E1, repaired on E2 */
		TX(2 * MS, 1000, 100, E2, "NACK:0101", "eg_retrans=1 fb_nack=1",
		   "una=1000 nxt=1200 pend=2 avoid=0101"),
		/* 1100, on E1 too, arrives: E1 delivers again, alive */
		RXS(3 * MS, F_A, 1000, 1, B(1100, 1200), "ACK:0101",
		    "fb_ack=1 in_sack_blocks=1 fb_path_alive=1", "una=1000 nxt=1200 pend=1 avoid=-"),
	};
	static const struct {
		__u8 algo;
		int avoids;
		const char *name;
	} algos[] = {
		{ SPRITZ_ALGO_SCOUT, 1, "Scout avoids" },
		{ SPRITZ_ALGO_SPRAY, 1, "Spray avoids" },
		{ SPRITZ_ALGO_OPS, 0, "OPS does not adapt" },
		{ SPRITZ_ALGO_ECMP, 0, "ECMP does not adapt" },
		{ SPRITZ_ALGO_FLICR, 0, "Flicr keeps its own rule" },
	};
	struct spritz_fb_flow fb;
	size_t i;

	RUN("avoid dead", dead, NULL);
	RUN("avoid order", order, NULL);
	RUN("avoid chain", chain, NULL);
	RUN("avoid recovered", recovered, NULL);
	/* the set reaches the pick for Scout and Spray only */
	memset(&fb, 0, sizeof(fb));
	fb.avoid = spritz_avoid_add(spritz_avoid_add(0, E1), E2);
	for (i = 0; i < ARRAY_SIZE(algos); i++) {
		struct spritz_lb_flow lb = { .algo = algos[i].algo };

		ASSERT_EQ(spritz_fb_avoid(&fb, &lb, 0), algos[i].avoids ? fb.avoid : 0, algos[i].name);
		ASSERT_EQ(spritz_fb_avoid(&fb, &lb, 1), algos[i].avoids ? fb.avoid : 0, algos[i].name);
	}
	/* while the dead-path rule judges a suspect, new data may go to its
	 * path, a repair may not */
	{
		struct spritz_lb_flow lb = { .algo = SPRITZ_ALGO_SPRAY };

		fb.suspect.ev = E1;
		fb.suspect.state = SPRITZ_IF_LOST;
		fb.flags |= SPRITZ_FB_F_SUSPECT;
		ASSERT_EQ(spritz_fb_avoid(&fb, &lb, 0), spritz_avoid_add(0, E2),
			  "new data: the suspect's EV is sampled");
		ASSERT_EQ(spritz_fb_avoid(&fb, &lb, 1), fb.avoid, "a repair: the whole set");
		fb.suspect.ev = E3;
		ASSERT_EQ(spritz_fb_avoid(&fb, &lb, 0), fb.avoid, "a suspect elsewhere: the whole set");
		fb.flags &= ~SPRITZ_FB_F_SUSPECT;
		fb.suspect.ev = E1;
		ASSERT_EQ(spritz_fb_avoid(&fb, &lb, 0), fb.avoid, "judged: E1 avoided again");
	}
}

/* The avoid set (kfuncs.h): membership, order, capacity, removal. */
static void test_avoid_set(void)
{
	__u64 a = 0;

	ASSERT_EQ(SPRITZ_AVOID_N(a), 0, "empty");
	ASSERT_FALSE(spritz_avoid_has(a, 0), "EV 0 is not in the empty set");
	a = spritz_avoid_add(a, 0);
	ASSERT_TRUE(spritz_avoid_has(a, 0) && SPRITZ_AVOID_N(a) == 1, "EV 0 is an EV");
	a = spritz_avoid_add(spritz_avoid_add(a, E1), E2);
	ASSERT_EQ(a, (__u64)3 << 48 | (__u64)0 << 32 | (__u64)E1 << 16 | E2, "three, newest first");
	ASSERT_EQ(spritz_avoid_add(a, E2), a, "the newest again: unchanged");
	ASSERT_EQ(spritz_avoid_add(a, 0), (__u64)3 << 48 | (__u64)E1 << 32 | (__u64)E2 << 16 | 0,
		  "a member again: the newest");
	a = spritz_avoid_add(a, 0xffff);
	ASSERT_EQ(a, (__u64)3 << 48 | (__u64)E1 << 32 | (__u64)E2 << 16 | 0xffff, "full: oldest out");
	ASSERT_FALSE(spritz_avoid_has(a, 0), "EV 0 left");
	ASSERT_EQ(spritz_avoid_del(a, E1), (__u64)2 << 48 | (__u64)E2 << 16 | 0xffff,
		  "the middle out: the others in order");
	ASSERT_EQ(spritz_avoid_del(a, 0xffff), (__u64)2 << 48 | (__u64)E1 << 16 | E2, "the newest out");
	ASSERT_EQ(spritz_avoid_del(a, 0x0505), a, "not a member: unchanged");
	ASSERT_EQ(spritz_avoid_del(spritz_avoid_del(spritz_avoid_del(a, E1), E2), 0xffff), 0,
		  "all out: empty");
	ASSERT_EQ(spritz_avoid_add(spritz_avoid_add(0, E1), E1), (__u64)1 << 48 | E1, "one, twice");
	ASSERT_FALSE(spritz_avoid_has((__u64)1 << 48 | (__u64)E2 << 16 | E1, E2), "only the counted slots");
	ASSERT_FALSE(spritz_avoid_has(E1, E1), "count 0: nothing");
}

/*
 * spritz_fb_decide(): a verify send, else the algorithm core's verdict,
 * but never a buffered EV the flow avoids (spritz_fb_avoid()): a sample
 * instead, with the avoid set.  A table of flow states: algorithm, the
 * EV its buffer or current path holds, the avoid set, the suspect's EV,
 * a verify armed, the send (@how) -> the pick or -1 (sample), the set
 * the sample avoids, and the counters moved.
 */
static void test_decide(void)
{
	static const struct {
		const char *what;
		__u8 algo;
		__u16 buffered; /* an ACK of it fed to the core first (0: none) */
		__u64 avoid;
		__u16 suspect;	/* the suspect's EV (0: no suspect) */
		int verify;	/* a verify send of E3 armed */
		__u32 how;
		int want;	/* SPRITZ_PICK(ev, 0) or -1 */
		__u64 want_avoid;
		const char *counters;
	} c[] = {
		{ "spray: the buffered EV", SPRITZ_ALGO_SPRAY, E1, 0, 0, 0, SPRITZ_DECIDE_NEW_DATA,
		  (int)SPRITZ_PICK(E1, 0), 0, "dec_use_ev=1" },
		{ "spray: a repair, the buffered EV avoided: a sample", SPRITZ_ALGO_SPRAY, E1,
		  (__u64)1 << 48 | E1, 0, 0, SPRITZ_DECIDE_REPAIR, -1, (__u64)1 << 48 | E1,
		  "dec_use_avoided=1 dec_sample=1 pick_avoid=1" },
		{ "spray: new data, the buffered EV avoided: a sample", SPRITZ_ALGO_SPRAY, E1,
		  (__u64)1 << 48 | E1, 0, 0, SPRITZ_DECIDE_NEW_DATA, -1, (__u64)1 << 48 | E1,
		  "dec_use_avoided=1 dec_sample=1 pick_avoid=1" },
		{ "spray: new data may go to the suspect's path", SPRITZ_ALGO_SPRAY, E1,
		  (__u64)1 << 48 | E1, E1, 0, SPRITZ_DECIDE_NEW_DATA, (int)SPRITZ_PICK(E1, 0), 0,
		  "dec_use_ev=1" },
		{ "spray: a repair may not", SPRITZ_ALGO_SPRAY, E1, (__u64)1 << 48 | E1, E1, 0,
		  SPRITZ_DECIDE_REPAIR, -1, (__u64)1 << 48 | E1,
		  "dec_use_avoided=1 dec_sample=1 pick_avoid=1" },
		{ "scout: another EV avoided, the buffered one used", SPRITZ_ALGO_SCOUT, E2,
		  (__u64)1 << 48 | E1, 0, 0, SPRITZ_DECIDE_REPAIR, (int)SPRITZ_PICK(E2, 0), 0,
		  "dec_use_ev=1" },
		{ "scout: empty buffer: a sample avoiding the set", SPRITZ_ALGO_SCOUT, 0,
		  (__u64)1 << 48 | E1, 0, 0, SPRITZ_DECIDE_REPAIR, -1, (__u64)1 << 48 | E1,
		  "dec_sample=1 pick_avoid=1" },
		{ "ecmp: the current path, whatever was lost", SPRITZ_ALGO_ECMP, E1,
		  (__u64)1 << 48 | E1, 0, 0, SPRITZ_DECIDE_REPAIR, (int)SPRITZ_PICK(E1, 0), 0,
		  "dec_use_ev=1" },
		{ "spray: a verify send first", SPRITZ_ALGO_SPRAY, E1, (__u64)1 << 48 | E1, 0, 1,
		  SPRITZ_DECIDE_NEW_DATA, (int)SPRITZ_PICK(E3, 0), 0, "dec_verify=1" },
		{ "spray: no verify send for a repair", SPRITZ_ALGO_SPRAY, E2, 0, 0, 1,
		  SPRITZ_DECIDE_REPAIR, (int)SPRITZ_PICK(E2, 0), 0, "dec_use_ev=1" },
	};
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct spritz_fb_flow fb;
		struct spritz_lb_flow lb;
		struct spritz_lb_cfg cfg;
		struct spritz_stats st;
		__u64 avoid = 0;
		__u32 flags = 0;
		int r;

		memset(&fb, 0, sizeof(fb));
		memset(&st, 0, sizeof(st));
		spritz_lb_cfg_default(&cfg);
		cfg.algo = c[i].algo;
		spritz_lb_flow_init(&lb, &cfg);
		if (c[i].buffered && c[i].algo == SPRITZ_ALGO_ECMP)
			spritz_lb_sent(&lb, &cfg, c[i].buffered, 0);
		else if (c[i].buffered)
			spritz_lb_feedback(&lb, &cfg, SPRITZ_FB_ACK, c[i].buffered, 0);
		fb.avoid = c[i].avoid;
		if (c[i].suspect) {
			fb.suspect.state = SPRITZ_IF_LOST;
			fb.suspect.ev = c[i].suspect;
			fb.flags |= SPRITZ_FB_F_SUSPECT;
		}
		if (c[i].verify) {
			fb.flags |= SPRITZ_FB_F_VERIFY;
			fb.verify_ev = E3;
			fb.verify_until = 10 * MS;
		}
		r = spritz_fb_decide(&fb, &lb, &cfg, &st, 1 * MS, 1, c[i].how, 0, 0, &flags, &avoid);
		ASSERT_EQ(r, c[i].want, c[i].what);
		if (r < 0)
			ASSERT_EQ(avoid, c[i].want_avoid, c[i].what);
		for (k = 0; k < ARRAY_SIZE(decide_counters); k++)
			ASSERT_EQ(*(const __u64 *)((const char *)&st + decide_counters[k].off),
				  (__u64)want_delta_named(c[i].counters, decide_counters[k].name),
				  decide_counters[k].name);
	}
}

/* Inner ACKs count only from the tunnel peer the flow sends to. */
static void test_tunnel_peer(void)
{
	struct spritz_flow_key k;
	__u32 a[4], b[4], c[4], a4, b4, c4;

	inet_pton(AF_INET6, "2001:db8::1", a);
	inet_pton(AF_INET6, "2001:db8::2", b);
	inet_pton(AF_INET6, "2001:db8::3", c);
	inet_pton(AF_INET, "10.0.0.1", &a4);
	inet_pton(AF_INET, "10.1.0.2", &b4);
	inet_pton(AF_INET, "10.1.0.3", &c4);
	memset(&k, 0, sizeof(k));
	memcpy(k.saddr, a, 16);
	memcpy(k.daddr, b, 16);
	ASSERT_TRUE(spritz_fb_tunnel_peer(&k, b, a, 0), "the peer, to us");
	ASSERT_FALSE(spritz_fb_tunnel_peer(&k, c, a, 0), "another source");
	ASSERT_FALSE(spritz_fb_tunnel_peer(&k, b, c, 0), "to another address of ours");
	ASSERT_FALSE(spritz_fb_tunnel_peer(&k, a, b, 0), "our own packet");
	ASSERT_FALSE(spritz_fb_tunnel_peer(&k, &b[3], &a[3], 1), "IPv4 against an IPv6 flow");
	/* IPv4 tunnel: the key holds v4-mapped addresses */
	memset(&k, 0, sizeof(k));
	k.saddr[10] = k.saddr[11] = k.daddr[10] = k.daddr[11] = 0xff;
	memcpy(k.saddr + 12, &a4, 4);
	memcpy(k.daddr + 12, &b4, 4);
	ASSERT_TRUE(spritz_fb_tunnel_peer(&k, &b4, &a4, 1), "v4: the peer, to us");
	ASSERT_FALSE(spritz_fb_tunnel_peer(&k, &c4, &a4, 1), "v4: another source");
	ASSERT_FALSE(spritz_fb_tunnel_peer(&k, &b4, &c4, 1), "v4: to another address");
	ASSERT_FALSE(spritz_fb_tunnel_peer(&k, &a4, &b4, 1), "v4: our own packet");
}

/* Garbage state: every call stays in bounds and emits at most a ring. */
static void test_garbage(void)
{
	struct spritz_fb_flow fb;
	struct spritz_stats st;
	struct spritz_fb_event ev;
	struct spritz_fb_ackinfo a;
	unsigned int seed = 1, i, k, n;

	for (i = 0; i < 20000; i++) {
		size_t j;

		for (j = 0; j < sizeof(fb); j++)
			((__u8 *)&fb)[j] = (__u8)(seed = seed * 1103515245 + 12345) >> 16;
		for (j = 0; j < sizeof(a); j++)
			((__u8 *)&a)[j] = (__u8)((seed = seed * 1103515245 + 12345) >> 16);
		memset(&st, 0, sizeof(st));
		n = 0;
		if (spritz_fb_ack_check(&fb, &st, (__u8)seed, a.ack, a.tsecr, a.tsecr + (seed & 0xfff)) ==
		    SPRITZ_FB_ACK_SCAN)
			n = spritz_fb_ack(&fb, &st, seed, TMO_NS, &a);
		if (!ASSERT_LE(n, SPRITZ_FB_SLOTS, "ack: outcomes bounded"))
			return;
		n = spritz_fb_presend(&fb, a.ack, a.ack + 100) ?
			    spritz_fb_retrans(&fb, &st, a.ack, a.ack + 100, (__u64)seed << 1) : 0;
		if (!ASSERT_LE(n, SPRITZ_RING_SIZE, "retrans: outcomes bounded"))
			return;
		for (k = 0; k < SPRITZ_FB_SLOTS; k++)
			if (spritz_fb_take(&fb, k, &ev) && !ASSERT_LT(ev.kind, SPRITZ_FB_NR, "kind"))
				return;
		for (k = 0; k < SPRITZ_RING_SIZE; k++)
			if (!ASSERT_TRUE(fb.ring[k].state < SPRITZ_IF_DONE ||
					 fb.ring[k].state == SPRITZ_IF_ACKED, "all taken"))
				return;
		if (!ASSERT_TRUE(fb.suspect.state < SPRITZ_IF_DONE ||
				 fb.suspect.state == SPRITZ_IF_LOST, "suspect taken"))
			return;
	}
}

static const struct test_case tests[] = {
	{ "ack", test_ack },
	{ "gso", test_gso },
	{ "sack", test_sack },
	{ "retrans", test_retrans },
	{ "ack_timeout", test_ack_timeout },
	{ "timeout_derivation", test_timeout_derivation },
	{ "sack_lost", test_sack_lost },
	{ "sack_lost_socket", test_sack_lost_socket },
	{ "dead_path", test_dead_path },
	{ "repair_sacked_before", test_repair_sacked_before },
	{ "isolated_loss", test_isolated_loss },
	{ "one_loss", test_one_loss },
	{ "late_ack", test_late_ack },
	{ "stall", test_stall },
	{ "eifel", test_eifel },
	{ "blackhole", test_blackhole },
	{ "congested_path", test_congested_path },
	{ "congested_burst", test_congested_burst },
	{ "dead_peer", test_dead_peer },
	{ "ack_window", test_ack_window },
	{ "ack_seq_window", test_ack_seq_window },
	{ "rcv_hdr", test_rcv_hdr },
	{ "reused_ports", test_reused_ports },
	{ "disable_budget", test_disable_budget },
	{ "disable_count", test_disable_count },
	{ "sack_window", test_sack_window },
	{ "handshake", test_handshake },
	{ "ctl_sends", test_ctl_sends },
	{ "new_connection", test_new_connection },
	{ "wrap", test_wrap },
	{ "seq_overlap", test_seq_overlap },
	{ "overrun", test_overrun },
	{ "probe", test_probe },
	{ "pick_flags", test_pick_flags },
	{ "avoid", test_avoid },
	{ "avoid_set", test_avoid_set },
	{ "decide", test_decide },
	{ "tunnel_peer", test_tunnel_peer },
	{ "garbage", test_garbage },
};

TEST_MAIN(tests)
