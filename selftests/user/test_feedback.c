// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the feedback core include/spritz/feedback.h.
 *
 * Trace tables: each step is a send leaving (TCP flags, sequence range, the
 * EV it took) or an ACK arriving (flags, cumulative ACK, SACK blocks), at a
 * time on the caller's clock, with the timeout.  After each step: the
 * feedback events it produced, written "KIND:ev" in ring order (ACK, ECN,
 * NACK, TMO), the counters it moved (every counter of the core not listed
 * must not move), and optionally snd_una, snd_nxt and the pending sends.
 * Events are taken from the ring (spritz_fb_take()) and go through
 * spritz_fb_apply() into a Scout flow, as the datapath does, so the fb_*
 * counters count them.
 */
#include <arpa/inet.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spritz/feedback.h>

#include "test.h"

#define MS 1000000ULL
#define TMO_NS (200 * MS) /* the timeout of every trace */

enum op {
	OP_TX = 1, /* a segment leaves */
	OP_RX,	   /* a segment with ACK arrives */
};

struct step {
	int op;
	__u64 t;	/* caller's clock, ns */
	__u8 flags;	/* TCP flags */
	__u32 seq;	/* TX: first sequence number */
	__u32 len;	/* TX: payload bytes */
	__u16 ev;	/* TX: the EV the send took */
	__u32 ack;	/* RX: cumulative ACK */
	__u32 nsack;	/* RX: SACK blocks */
	__u32 sack[2 * SPRITZ_SACK_MAX];
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
/* any segment: flags given */
#define TXF(t_, fl_, seq_, len_, ev_, evs_, ctr_, st_) \
	{ .op = OP_TX, .t = (t_), .flags = (fl_), .seq = (seq_), .len = (len_), .ev = (ev_), \
	  .events = (evs_), .counters = (ctr_), .state = (st_) }
#define RX(t_, fl_, ack_, evs_, ctr_, st_) \
	{ .op = OP_RX, .t = (t_), .flags = (fl_), .ack = (ack_), .events = (evs_), \
	  .counters = (ctr_), .state = (st_) }
#define RXS(t_, fl_, ack_, n_, blocks_, evs_, ctr_, st_) \
	{ .op = OP_RX, .t = (t_), .flags = (fl_), .ack = (ack_), .nsack = (n_), .sack = blocks_, \
	  .events = (evs_), .counters = (ctr_), .state = (st_) }
#define B(...) { __VA_ARGS__ }

/* The core's counters, by name (the fields of struct spritz_stats it moves). */
#define FB_COUNTERS(X)                                                                      \
	X(eg_retrans) X(eg_ring_overrun) X(in_sack_blocks) X(in_ack_unsent) X(in_ack_old)   \
	X(in_ack_ctl) X(in_sack_bad) X(fb_ack) X(fb_ecn) X(fb_nack) X(fb_timeout) X(evictions)

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

/* Expected delta of counter @i from "name=delta ..." (0 when absent). */
static long long want_delta(const char *spec, size_t i)
{
	size_t n = strlen(counters[i].name);
	const char *p = spec;

	while (p && *p) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, counters[i].name, n) && p[n] == '=')
			return strtoll(p + n + 1, NULL, 10);
		p = strchr(p, ' ');
	}
	return 0;
}

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
}

static int pending(const struct spritz_fb_flow *fb)
{
	int i, n = 0;

	for (i = 0; i < SPRITZ_RING_SIZE; i++)
		n += fb->ring[i].state == SPRITZ_IF_PENDING;
	return n;
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
	memset(&st, 0, sizeof(st));
	spritz_lb_cfg_default(&cfg);
	spritz_lb_flow_init(&lb, &cfg);
	if (disables)
		*disables = 0;
	for (i = 0; i < n; i++, s++) {
		struct spritz_fb_event ev;
		__u32 k, nout = 0, taken = 0;
		size_t off = 0;

		snprintf(what, sizeof(what), "%s step %zu", name, i + 1);
		got[0] = 0;
		st0 = st;
		if (s->op == OP_TX) {
			int kind = spritz_fb_seg_kind(s->flags, s->len);
			__u32 end = s->seq + s->len + !!(s->flags & SPRITZ_TCP_SYN) +
				    !!(s->flags & SPRITZ_TCP_FIN);

			if (kind == SPRITZ_SEG_DATA) {
				if (spritz_fb_presend(&fb, s->seq, end))
					nout = spritz_fb_retrans(&fb, &st, s->t, TMO_NS, s->seq,
								 end);
				spritz_fb_record(&fb, &st, s->t, s->seq, end, s->ev, 0, 1);
			} else {
				spritz_fb_ctl_sent(&fb, s->flags, s->seq, end);
			}
		} else {
			struct spritz_fb_ackinfo a;

			memset(&a, 0, sizeof(a));
			a.ack = s->ack;
			a.ece = !!(s->flags & SPRITZ_TCP_ECE);
			a.nsack = s->nsack;
			memcpy(a.sack, s->sack, sizeof(a.sack));
			if (spritz_fb_tracking(&fb) &&
			    spritz_fb_ack_check(&fb, &st, s->flags, s->ack) == SPRITZ_FB_ACK_SCAN)
				nout = spritz_fb_ack(&fb, &st, s->t, TMO_NS, &a);
		}
		for (k = 0; k < SPRITZ_RING_SIZE; k++)
			if (spritz_fb_take(&fb, k, &ev)) {
				taken++;
				event_str(&ev, got, sizeof(got), &off);
				if (spritz_fb_apply(&lb, &cfg, &st, ev.kind, ev.ev, ev.lat_class) & SPRITZ_LB_ACT_DISABLE_PATH &&
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
			snprintf(got, sizeof(got), "una=%u nxt=%u pend=%d", fb.snd_una, fb.snd_nxt,
				 pending(&fb));
			ASSERT_STREQ(got, s->state, what);
		}
		if (test__state.failed)
			return;
	}
}

#define RUN(name, trace, dis) run_trace((name), (trace), ARRAY_SIZE(trace), (dis))

/* EVs of the traces */
#define E1 0x0101
#define E2 0x0202
#define E3 0x0303

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

/* Retransmissions: NACK before the timeout, TIMEOUT after (paper Alg. 2). */
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
		/* RTO: the third, sent at 0, again at 250 ms */
		TX(250 * MS, 1200, 100, E1, "TMO:0303", "eg_retrans=1 fb_timeout=1",
		   "una=1000 nxt=1300 pend=2"),
		/* new data is no retransmission */
		TX(251 * MS, 1300, 100, E1, "", "", "una=1000 nxt=1400 pend=3"),
	};
	__u32 dis;

	RUN("retrans", t, &dis);
	ASSERT_EQ(dis, 1, "retrans: one path disabled (the timeout)");
}

/* Sends an ACK leaves uncovered for longer than the timeout: TIMEOUT. */
static void test_ack_timeout(void)
{
	static const struct step t[] = {
		TX(0, 1000, 100, E1, "", "", NULL),
		TX(100 * MS, 1100, 100, E2, "", "", NULL),
		TX(100 * MS, 1200, 100, E3, "", "", NULL),
		RX(199 * MS, F_A, 1000, "", "", "una=1000 nxt=1300 pend=3"),
		RX(200 * MS, F_A, 1000, "TMO:0101", "fb_timeout=1", "una=1000 nxt=1300 pend=2"),
		RXS(301 * MS, F_A, 1000, 1, B(1200, 1300), "TMO:0202 ACK:0303",
		    "in_sack_blocks=1 fb_ack=1 fb_timeout=1", "una=1000 nxt=1300 pend=0"),
	};

	RUN("ack_timeout", t, NULL);
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

/* More sends in flight than the ring holds: the oldest lose their feedback. */
static void test_overrun(void)
{
	struct step t[SPRITZ_RING_SIZE + 2];
	static char evs[SPRITZ_RING_SIZE * 10 + 1];
	size_t i, off = 0;

	for (i = 0; i < SPRITZ_RING_SIZE + 1; i++)
		t[i] = (struct step)TX(0, 100 * (__u32)i, 100, E1, "",
				       i < SPRITZ_RING_SIZE ? "" : "eg_ring_overrun=1", NULL);
	for (i = 0; i < SPRITZ_RING_SIZE; i++)
		off += snprintf(evs + off, sizeof(evs) - off, "%sACK:0101", i ? " " : "");
	t[SPRITZ_RING_SIZE + 1] =
		(struct step)RX(1 * MS, F_A, 100 * (SPRITZ_RING_SIZE + 1), evs, "", NULL);
	/* one ACK for every send the ring still holds */
	{
		char c[32];

		snprintf(c, sizeof(c), "fb_ack=%d", SPRITZ_RING_SIZE);
		t[SPRITZ_RING_SIZE + 1].counters = c;
		run_trace("overrun", t, SPRITZ_RING_SIZE + 2, NULL);
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
		if (spritz_fb_ack_check(&fb, &st, (__u8)seed, a.ack) == SPRITZ_FB_ACK_SCAN)
			n = spritz_fb_ack(&fb, &st, seed, TMO_NS, &a);
		if (!ASSERT_LE(n, SPRITZ_RING_SIZE, "ack: outcomes bounded"))
			return;
		n = spritz_fb_presend(&fb, a.ack, a.ack + 100) ?
			    spritz_fb_retrans(&fb, &st, seed, TMO_NS, a.ack, a.ack + 100) : 0;
		if (!ASSERT_LE(n, SPRITZ_RING_SIZE, "retrans: outcomes bounded"))
			return;
		for (k = 0; k < SPRITZ_RING_SIZE; k++)
			if (spritz_fb_take(&fb, k, &ev) && !ASSERT_LT(ev.kind, SPRITZ_FB_NR, "kind"))
				return;
		for (k = 0; k < SPRITZ_RING_SIZE; k++)
			if (!ASSERT_LT(fb.ring[k].state, SPRITZ_IF_DONE, "all taken"))
				return;
	}
}

static const struct test_case tests[] = {
	{ "ack", test_ack },
	{ "sack", test_sack },
	{ "retrans", test_retrans },
	{ "ack_timeout", test_ack_timeout },
	{ "ack_window", test_ack_window },
	{ "sack_window", test_sack_window },
	{ "handshake", test_handshake },
	{ "ctl_sends", test_ctl_sends },
	{ "wrap", test_wrap },
	{ "overrun", test_overrun },
	{ "tunnel_peer", test_tunnel_peer },
	{ "garbage", test_garbage },
};

TEST_MAIN(tests)
