// SPDX-License-Identifier: GPL-2.0-only
/*
 * spritz_ingress (and the egress half of feedback) under BPF_PROG_TEST_RUN:
 * sequences of data sends (egress) and ACKs (ingress) against the expected
 * per-flow state after each step - the good-path buffer as
 * "EV:lat_class/ecn_count", the in-flight ring, the feedback counters - and
 * the module's path state (a timeout disables the path in spritz.ko).
 * Every ingress packet must come out byte-identical.  One live case
 * attaches both programs to a veth: headers in paged data, which
 * BPF_PROG_TEST_RUN cannot make.
 *
 * Runs in the VM as root with spritz.ko inserted (with-module.sh).
 */
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#include <spritz/feedback.h>

#include "datapath_util.h"
#include "test.h"

static struct spritz *skel;
static struct spritz_nl *nl;
static int eg, in;

#define SPORT 40000
#define DPORT 5201

/*
 * The name of one check of a table's row, "ROW: CHECK", written into the
 * caller's char what[]: each ASSERT_*() is done with it before the next.
 */
#define WHAT(row, check) (snprintf(what, sizeof(what), "%s: %s", (row), (check)), what)

/*
 * Send segment [seq, seq + len) of the flow to @dst with TCP flags @flags
 * on egress, as a GSO send of @segs segments (0: a plain packet); the EV
 * it got.
 */
static uint16_t tx_seg(const char *dst, uint32_t seq, int len, uint32_t segs, uint8_t flags)
{
	struct spec s = { .dst = dst, .seq = seq, .paylen = len, .flags = flags };
	struct pkt p, o;
	uint32_t ret;

	pkt_build(&p, &s);
	if (!ASSERT_OK(dp_run(eg, &p, &o, &ret, segs), "egress run"))
		return 0;
	return get32(o.b + 14) & 0xffff;
}

static uint16_t tx_gso(const char *dst, uint32_t seq, int len, uint32_t segs)
{
	return tx_seg(dst, seq, len, segs, 0x18);
}

static uint16_t tx(const char *dst, uint32_t seq, int len)
{
	return tx_gso(dst, seq, len, 0);
}

/* tx() of a segment carrying TCP timestamp @tsval, as Linux sends it. */
static uint16_t tx_ts(const char *dst, uint32_t seq, int len, uint32_t tsval)
{
	uint8_t opts[12] = { 1, 1, 8, 10 };
	struct spec s = { .dst = dst, .seq = seq, .paylen = len, .flags = 0x18, .opts = opts,
			  .optlen = sizeof(opts) };
	struct pkt p, o;
	uint32_t ret;

	put32(opts + 4, tsval);
	pkt_build(&p, &s);
	if (!ASSERT_OK(dp_run(eg, &p, &o, &ret, 0), "egress run"))
		return 0;
	return get32(o.b + 14) & 0xffff;
}

/* rx() option layouts */
#define RX_TS_SACK 0 /* NOP NOP TS [NOP NOP SACK]: Linux */
#define RX_SACK 1    /* [NOP NOP SACK]: no timestamps */
#define RX_SACK_TS 2 /* [NOP NOP SACK] NOP NOP TS: SACK first */
static int rx_layout = RX_TS_SACK;
static uint32_t rx_tsecr = 2; /* the TSecr of rx()'s timestamp option */
static int rx_sack_extra; /* bytes past its blocks rx()'s SACK option says it has */

/* An ACK from @dst on ingress: cumulative @ack, ECE, SACK blocks. */
static void rx(const char *dst, uint32_t ack, int ece, const uint32_t *sack, int nsack)
{
	uint8_t ts[12] = { 1, 1, 8, 10, 0, 0, 0, 1 }; /* NOP NOP TS, TSval 1 */
	uint8_t opts[40];
	struct spec s = { .src = dst, .dst = LOCAL6, .sport = DPORT, .dport = SPORT,
			  .ack = ack, .flags = 0x10 | (ece ? 0x40 : 0), .opts = opts };
	struct pkt p, o;
	uint32_t ret;
	int i, n = 0;

	put32(ts + 8, rx_tsecr);
	if (rx_layout == RX_TS_SACK) {
		memcpy(opts, ts, sizeof(ts));
		n = sizeof(ts);
	}
	if (nsack) {
		opts[n] = 1;
		opts[n + 1] = 1;
		opts[n + 2] = 5;
		opts[n + 3] = 2 + 8 * nsack + rx_sack_extra;
		for (i = 0; i < 2 * nsack; i++)
			put32(opts + n + 4 + 4 * i, sack[i]);
		n += 4 + 8 * nsack;
		for (i = 0; i < rx_sack_extra; i++)
			opts[n++] = 0;
	}
	if (rx_layout == RX_SACK_TS && n + (int)sizeof(ts) <= 40) {
		memcpy(opts + n, ts, sizeof(ts));
		n += sizeof(ts);
	}
	s.optlen = n;
	pkt_build(&p, &s);
	if (!ASSERT_OK(dp_run(in, &p, &o, &ret, 0), "ingress run"))
		return;
	ASSERT_EQ(ret, RET_NEXT, "ingress retval");
	ASSERT_EQ(o.len, p.len, "ingress length");
	ASSERT_MEMEQ(o.b, p.b, p.len, "ingress leaves the packet byte-identical");
}

static int flow(const char *dst, struct spritz_flow *f)
{
	struct spec s = { .dst = dst };

	return dp_flow(skel, &s, f);
}

/* The buffer as "ev:lat/ecn ev:lat/ecn ...". */
static const char *buf_str(const char *dst)
{
	static char out[160];
	struct spritz_flow f;
	size_t n = 0;
	int i;

	out[0] = 0;
	if (flow(dst, &f))
		return "(no flow)";
	for (i = 0; i < f.lb.len && i < SPRITZ_BUF_MAX; i++)
		n += snprintf(out + n, sizeof(out) - n, "%s%04x:%u/%u", i ? " " : "",
			      f.lb.buf[i].ev, f.lb.buf[i].lat_class, f.lb.buf[i].ecn_count);
	return out;
}

static int pending(const char *dst)
{
	struct spritz_flow f;
	int i, n = 0;

	if (flow(dst, &f))
		return -1;
	for (i = 0; i < SPRITZ_RING_SIZE; i++)
		n += f.fb.ring[i].state == SPRITZ_IF_PENDING;
	return n;
}

static void stats_delta(const struct spritz_stats *a, struct spritz_stats *d)
{
	struct spritz_stats b;
	size_t i;

	dp_stats(skel, &b);
	for (i = 0; i < sizeof(b) / sizeof(__u64); i++)
		((__u64 *)d)[i] = ((__u64 *)&b)[i] - ((const __u64 *)a)[i];
}

static void start(const char *algo)
{
	dp_reset(skel);
	ASSERT_OK(knob_set_str("algorithm", algo), "algorithm");
	ASSERT_OK(dp_load_table(&nl), "table (paths enabled)");
}

/* ------------------------------------------------------------------ tests */

static void test_load(void)
{
	skel = dp_open_load();
	if (!ASSERT_OK_PTR(skel, "load spritz.bpf.o (needs spritz.ko)"))
		return;
	eg = bpf_program__fd(skel->progs.spritz_egress);
	in = bpf_program__fd(skel->progs.spritz_ingress);
	ASSERT_OK(dp_dir_fill(skel), "directory");
	ASSERT_OK(dp_load_table(&nl), "table");
}

/* Scout: ACK -> buffer (Alg. 2 l. 2-4), then reuse (Alg. 1 l. 11). */
static void test_scout_ack(void)
{
	struct spritz_stats s0, d;
	struct spritz_flow f;
	char want[64];
	uint16_t ev, ev2;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	start("scout");
	dp_stats(skel, &s0);
	ev = tx(DST1_6, 1000, 100);
	ASSERT_EQ(ev, EV_D1, "sampled");
	ASSERT_STREQ(buf_str(DST1_6), "", "send: buffer still empty (Alg. 1 caches nothing)");
	ASSERT_EQ(pending(DST1_6), 1, "one pending");
	rx(DST1_6, 1100, 0, NULL, 0);
	snprintf(want, sizeof(want), "%04x:0/0", EV_D1);
	ASSERT_STREQ(buf_str(DST1_6), want, "ACK: EV buffered");
	ASSERT_EQ(pending(DST1_6), 0, "acked");
	ev2 = tx(DST1_6, 1100, 100);
	ASSERT_EQ(ev2, EV_D1, "reused");
	stats_delta(&s0, &d);
	ASSERT_EQ(d.fb_ack, 1, "fb_ack");
	ASSERT_EQ(d.in_acks, 1, "in_acks");
	ASSERT_EQ(d.dec_sample, 1, "one sample");
	ASSERT_EQ(d.dec_use_ev, 1, "then the buffer");
	ASSERT_OK(flow(DST1_6, &f), "flow");
	ASSERT_EQ(f.fb.snd_una, 1100, "snd_una");
	ASSERT_EQ(f.fb.snd_nxt, 1200, "snd_nxt");
	/* a duplicate ACK acknowledges nothing new */
	dp_stats(skel, &s0);
	rx(DST1_6, 1100, 0, NULL, 0);
	stats_delta(&s0, &d);
	ASSERT_EQ(d.fb_ack, 0, "dup ACK: no feedback");
}

/*
 * Scout ECN: counts per buffered EV, evicts past ecn_threshold (Alg. 2
 * l. 5-10; threshold 3: the fourth mark evicts).  A marked GSO send of n
 * segments is n marks: a 3-segment one is kept at 3 and the next mark
 * evicts, a 4-segment one evicts at once.  fb_ecn counts sends.
 */
static void test_scout_ecn(void)
{
	static const struct {
		uint32_t segs; /* gso_segs, 0: a plain packet */
		int ece;
		const char *buf; /* "" or "/N": the EV's count */
	} rows[] = {
		{ 0, 0, "/0" }, { 0, 1, "/1" }, { 0, 1, "/2" }, { 0, 1, "/3" }, { 0, 1, "" },
		{ 0, 0, "/0" }, { 3, 1, "/3" }, { 0, 1, "" },
		{ 0, 0, "/0" }, { 4, 1, "" },
	};
	struct spritz_stats s0, d;
	char want[64];
	uint32_t seq = 1000;
	size_t i;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	start("scout");
	ASSERT_OK(knob_set("ecn_threshold", 3), "ecn_threshold 3");
	dp_stats(skel, &s0);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		tx_gso(DST1_6, seq, 300, rows[i].segs);
		seq += 300;
		rx(DST1_6, seq, rows[i].ece, NULL, 0);
		want[0] = 0;
		if (rows[i].buf[0])
			snprintf(want, sizeof(want), "%04x:0%s", EV_D1, rows[i].buf);
		ASSERT_STREQ(buf_str(DST1_6), want, rows[i].ece ? "ECE" : "ACK");
	}
	stats_delta(&s0, &d);
	ASSERT_EQ(d.fb_ecn, 7, "fb_ecn: one per send");
	ASSERT_EQ(d.evictions, 3, "evictions");
	ASSERT_OK(knob_set("ecn_threshold", SPRITZ_DEF_ECN_THRESHOLD), "restore");
}

/* One cumulative ACK covers several sends: one feedback each. */
static void test_cumulative(void)
{
	struct spritz_stats s0, d;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	start("spray");
	dp_stats(skel, &s0);
	tx(DST2_6, 1000, 100);
	tx(DST2_6, 1100, 100);
	tx(DST2_6, 1200, 100);
	ASSERT_EQ(pending(DST2_6), 3, "three pending");
	rx(DST2_6, 1200, 0, NULL, 0); /* covers the first two */
	ASSERT_EQ(pending(DST2_6), 1, "one left");
	stats_delta(&s0, &d);
	ASSERT_EQ(d.fb_ack, 2, "two ACK feedbacks");
	{
		struct spritz_flow f;

		ASSERT_OK(flow(DST2_6, &f), "flow");
		ASSERT_EQ(f.lb.len, 2, "Spray: both EVs queued (Alg. 3 l. 2-4)");
	}
	/* Spray: each queued EV is used once */
	dp_stats(skel, &s0);
	tx(DST2_6, 1300, 100);
	tx(DST2_6, 1400, 100);
	tx(DST2_6, 1500, 100);
	stats_delta(&s0, &d);
	ASSERT_EQ(d.dec_use_ev, 2, "two from the buffer");
	ASSERT_EQ(d.dec_sample, 1, "then a sample");
	ASSERT_STREQ(buf_str(DST2_6), "", "buffer consumed");
}

/* SACK blocks are found whatever the option layout around them. */
static void test_sack_layouts(void)
{
	uint32_t blk[2] = { 1100, 1200 };
	struct spritz_stats s0, d;
	struct spritz_flow f;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	start("scout");
	dp_stats(skel, &s0);
	tx(DST2_6, 1000, 100);
	tx(DST2_6, 1100, 100);
	tx(DST2_6, 1200, 100);
	rx_layout = RX_SACK;
	rx(DST2_6, 1000, 0, blk, 1);
	rx_layout = RX_SACK_TS;
	blk[0] = 1200;
	blk[1] = 1300;
	rx(DST2_6, 1000, 0, blk, 1);
	rx(DST2_6, 1000, 0, NULL, 0); /* TS alone, not first */
	rx_layout = RX_TS_SACK;
	stats_delta(&s0, &d);
	ASSERT_EQ(d.in_sack_blocks, 2, "one SACK block per ACK");
	ASSERT_EQ(d.fb_ack, 2, "two sends SACKed");
	ASSERT_OK(flow(DST2_6, &f), "flow");
	ASSERT_EQ(f.fb.ring[0].state, SPRITZ_IF_PENDING, "hole stays pending");
	ASSERT_EQ(f.fb.ring[1].state, SPRITZ_IF_ACKED, "sacked, no timestamps");
	ASSERT_EQ(f.fb.ring[2].state, SPRITZ_IF_ACKED, "sacked, timestamps after");
}

/*
 * A SACK option whose length is not 2 + 8n is ignored, as Linux ignores
 * it: its blocks acknowledge nothing.  Rows: the bytes past the blocks
 * the length says there are -> SACK blocks parsed, the send SACKed.
 */
static void test_sack_bad_len(void)
{
	static const struct {
		const char *what;
		int extra, blocks;
	} rows[] = {
		{ "2 + 8n: read", 0, 1 },
		{ "2 + 8n + 4: ignored", 4, 0 },
		{ "2 + 8n + 1: ignored", 1, 0 },
		{ "2 + 8n + 7: ignored", 7, 0 },
	};
	uint32_t blk[2] = { 1100, 1200 };
	struct spritz_stats s0, d;
	struct spritz_flow f;
	size_t i;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		start("scout");
		tx(DST2_6, 1000, 100);
		tx(DST2_6, 1100, 100);
		dp_stats(skel, &s0);
		rx_sack_extra = rows[i].extra;
		rx(DST2_6, 1000, 0, blk, 1);
		rx_sack_extra = 0;
		stats_delta(&s0, &d);
		ASSERT_EQ(d.in_sack_blocks, rows[i].blocks, rows[i].what);
		ASSERT_EQ(d.fb_ack, rows[i].blocks, rows[i].what);
		ASSERT_OK(flow(DST2_6, &f), "flow");
		ASSERT_EQ(f.fb.ring[1].state, rows[i].blocks ? SPRITZ_IF_ACKED : SPRITZ_IF_PENDING,
			  rows[i].what);
	}
}

/*
 * ACKs against snd_nxt: one beyond it acknowledges data never sent and is
 * ignored (TCP drops it too); with everything acknowledged (snd_una ==
 * snd_nxt) an ACK is not even parsed for SACK.  Sends [1000, 1100) and
 * [1100, 1200), then one ACK per row, in order.
 */
static void test_ack_bounds(void)
{
	static const struct {
		const char *what;
		uint32_t ack, sack[2];
		int nsack;
		/* expected after the ACK */
		int fb_ack, unsent, sack_blocks;
		uint32_t snd_una;
		int pending;
	} rows[] = {
		{ "past snd_nxt, SACKing a send", 5000, { 1000, 1100 }, 1, 0, 1, 0, 1000, 2 },
		{ "one past snd_nxt", 1201, { 0 }, 0, 0, 1, 0, 1000, 2 },
		{ "first send", 1100, { 0 }, 0, 1, 0, 0, 1100, 1 },
		{ "second send (snd_nxt)", 1200, { 0 }, 0, 1, 0, 0, 1200, 0 },
		{ "all acknowledged, SACK not parsed", 1200, { 1100, 1200 }, 1, 0, 0, 0, 1200, 0 },
		{ "all acknowledged, past snd_nxt", 5000, { 0 }, 0, 0, 1, 0, 1200, 0 },
	};
	struct spritz_stats s0, d;
	struct spritz_flow f;
	size_t i;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	start("scout");
	tx(DST2_6, 1000, 100);
	tx(DST2_6, 1100, 100);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char what[128];

#define W(field) WHAT(rows[i].what, field)
		dp_stats(skel, &s0);
		rx(DST2_6, rows[i].ack, 0, rows[i].sack, rows[i].nsack);
		stats_delta(&s0, &d);
		ASSERT_EQ(d.in_acks, 1, W("in_acks"));
		ASSERT_EQ(d.fb_ack, rows[i].fb_ack, W("fb_ack"));
		ASSERT_EQ(d.in_ack_unsent, rows[i].unsent, W("in_ack_unsent"));
		ASSERT_EQ(d.in_sack_blocks, rows[i].sack_blocks, W("in_sack_blocks"));
		if (!ASSERT_OK(flow(DST2_6, &f), W("flow")))
			break;
		ASSERT_EQ(f.fb.snd_una, rows[i].snd_una, W("snd_una"));
		ASSERT_EQ(f.fb.snd_nxt, 1200, W("snd_nxt"));
		ASSERT_EQ(pending(DST2_6), rows[i].pending, W("pending sends"));
#undef W
	}
}

/*
 * The flow's ports taken again by a new connection (a client's port
 * reused, a peer reconnecting): its SYN or SYN-ACK leaving starts the
 * flow's sequence space afresh, so the new connection's ACKs are read in
 * its own - here below the old connection's, where they would be old
 * ACKs.  A segment that is not an opening one (SYN with RST) changes
 * nothing.  (user/test_feedback's reused_ports: the receive window too.)
 */
static void test_reused_ports(void)
{
	static const struct {
		const char *what;
		uint8_t flags; /* the segment between the two connections */
		int fresh;     /* the sequence space starts again */
	} rows[] = {
		{ "SYN", 0x02, 1 },
		{ "SYN-ACK", 0x12, 1 },
		{ "SYN with RST", 0x06, 0 },
	};
	struct spritz_stats s0, d;
	struct spritz_flow f;
	size_t i;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char what[128];

#define W(field) WHAT(rows[i].what, field)
		start("scout");
		tx(DST2_6, 50000, 100);
		tx(DST2_6, 50100, 100);
		rx(DST2_6, 50200, 0, NULL, 0);
		tx_seg(DST2_6, 999, 0, 0, rows[i].flags);
		if (!ASSERT_OK(flow(DST2_6, &f), W("flow")))
			break;
		ASSERT_EQ(!(f.fb.flags & SPRITZ_FB_F_HAVE_SEQ), rows[i].fresh,
			  W("no sequence space after it"));
		dp_stats(skel, &s0);
		tx(DST2_6, 1000, 100);
		rx(DST2_6, 1100, 0, NULL, 0);
		stats_delta(&s0, &d);
		ASSERT_EQ(d.fb_ack, rows[i].fresh, W("fb_ack: the new send acknowledged"));
		ASSERT_EQ(d.in_ack_old, !rows[i].fresh, W("in_ack_old"));
		if (!ASSERT_OK(flow(DST2_6, &f), W("flow")))
			break;
		ASSERT_EQ(f.fb.snd_una, rows[i].fresh ? 1100 : 50200, W("snd_una"));
		ASSERT_EQ(f.fb.snd_nxt, rows[i].fresh ? 1100 : 50200, W("snd_nxt"));
#undef W
	}
}

/* SACK blocks acknowledge exactly the sends they cover. */
static void test_sack(void)
{
	uint32_t blk[4] = { 1100, 1200, 1300, 1400 };
	struct spritz_stats s0, d;
	struct spritz_flow f;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	start("scout");
	dp_stats(skel, &s0);
	tx(DST2_6, 1000, 100);
	tx(DST2_6, 1100, 100);
	tx(DST2_6, 1200, 100);
	tx(DST2_6, 1300, 100);
	rx(DST2_6, 1000, 0, blk, 2);
	stats_delta(&s0, &d);
	ASSERT_EQ(d.in_sack_blocks, 2, "two SACK blocks parsed");
	ASSERT_EQ(d.fb_ack, 2, "two sends SACKed");
	ASSERT_OK(flow(DST2_6, &f), "flow");
	ASSERT_EQ(f.fb.ring[0].state, SPRITZ_IF_PENDING, "hole stays pending");
	ASSERT_EQ(f.fb.ring[1].state, SPRITZ_IF_ACKED, "sacked");
	ASSERT_EQ(f.fb.ring[2].state, SPRITZ_IF_PENDING, "hole stays pending");
	ASSERT_EQ(f.fb.ring[3].state, SPRITZ_IF_ACKED, "sacked");
	ASSERT_GE(f.lb.len, 1, "sacked EVs buffered");
	/* SACK with ECE marks */
	dp_stats(skel, &s0);
	blk[0] = 1200;
	blk[1] = 1300;
	rx(DST2_6, 1000, 1, blk, 1);
	stats_delta(&s0, &d);
	ASSERT_EQ(d.fb_ecn, 1, "SACK + ECE -> ECN");
}

/* Sent again before timeout_us: NACK (Alg. 2 l. 11-14). */
static void test_retrans_nack(void)
{
	struct spritz_stats s0, d;
	char want[64];

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	start("scout");
	tx(DST1_6, 1000, 100);
	rx(DST1_6, 1100, 0, NULL, 0);
	snprintf(want, sizeof(want), "%04x:0/0", EV_D1);
	ASSERT_STREQ(buf_str(DST1_6), want, "buffered");
	dp_stats(skel, &s0);
	tx(DST1_6, 1100, 100);
	tx(DST1_6, 1100, 100); /* retransmission */
	stats_delta(&s0, &d);
	ASSERT_EQ(d.eg_retrans, 1, "retransmission seen");
	ASSERT_EQ(d.fb_nack, 1, "NACK");
	ASSERT_EQ(d.fb_timeout, 0, "no timeout");
	ASSERT_EQ(d.path_disables, 0, "path kept");
	ASSERT_STREQ(buf_str(DST1_6), "", "NACK: evicted");
}

static uint32_t path_disabled_ms(uint32_t dst, uint16_t ev)
{
	struct spritz_nl_path p = { 0 };

	return dump_path(nl, dst, ev, &p) ? 0 : p.disabled_ms;
}

/*
 * Sends to switch 2 from 1000 on, 100 bytes each (no feedback: Scout
 * samples each), until an EV @a has two sends, @seq_a1 and @seq_a2, and
 * another EV @b one after @seq_a1, @seq_b; at most a ring's worth.
 * Returns the next sequence number, 0 if they did not come.
 */
static uint32_t tx_two_paths(uint16_t *a, uint16_t *b, uint32_t *seq_a1, uint32_t *seq_a2,
			     uint32_t *seq_b)
{
	uint32_t seq, first[SPRITZ_RING_SIZE];
	uint16_t evs[SPRITZ_RING_SIZE];
	int i, j, n = 0;

	*seq_a1 = *seq_a2 = *seq_b = 0;
	for (i = 0, seq = 1000; i < SPRITZ_RING_SIZE; i++, seq += 100) {
		uint16_t ev = tx(DST2_6, seq, 100);

		if (*seq_a2) {
			if (ev != *a) {
				*b = ev;
				*seq_b = seq;
				return seq + 100;
			}
			continue;
		}
		for (j = 0; j < n && evs[j] != ev; j++)
			;
		if (j < n) {
			*a = ev;
			*seq_a1 = first[j];
			*seq_a2 = seq;
			/* another EV between the two? */
			for (j = 0; j < n; j++)
				if (evs[j] != ev && first[j] > *seq_a1) {
					*b = evs[j];
					*seq_b = first[j];
					return seq + 100;
				}
			continue;
		}
		evs[n] = ev;
		first[n++] = seq;
	}
	return 0;
}

/* An ACK of @ack from switch 2 that SACKs the 100-byte send at @seq. */
static void rx_sack_one(uint32_t ack, uint32_t seq)
{
	uint32_t blk[2] = { seq, seq + 100 };

	rx(DST2_6, ack, 0, blk, 1);
}

/*
 * Sent again after the flow's timeout (RTOs): NACKs; a TIMEOUT, and the
 * path disabled in spritz.ko, once a send on another path, sent within
 * the timeout after the first, is delivered and the first's path lost
 * another send (the dead-path rule, feedback.h), and no DSACK can still
 * show TCP's repair spurious.  No socket under BPF_PROG_TEST_RUN: the
 * timeout is timeout_us, and so is the wait for a DSACK of a repair on
 * another path (the ACK comes after it: whichever path the repair
 * took).
 */
static void test_retrans_timeout(void)
{
	struct spritz_stats s0, d;
	uint32_t sa1, sa2, sb;
	uint16_t a, b;

	if (!ASSERT_OK_PTR(skel, "skeleton") || !ASSERT_OK_PTR(nl, "netlink"))
		return;
	start("scout");
	if (!ASSERT_GT(tx_two_paths(&a, &b, &sa1, &sa2, &sb), 0, "two paths drawn"))
		return;
	ASSERT_EQ(path_disabled_ms(2, a), 0, "path enabled");
	skel->bss->spritz_clock_offset_ns += (SPRITZ_DEF_TIMEOUT_US + 1) * 1000ULL;
	dp_stats(skel, &s0);
	tx(DST2_6, sa1, 100);
	stats_delta(&s0, &d);
	ASSERT_EQ(d.fb_nack, 1, "RTO: NACK");
	ASSERT_EQ(d.fb_timeout, 0, "no TIMEOUT without evidence");
	ASSERT_EQ(d.path_disables, 0, "path kept");
	dp_stats(skel, &s0);
	tx(DST2_6, sa2, 100);
	stats_delta(&s0, &d);
	ASSERT_EQ(d.fb_nack, 1, "RTO of the path's second send: NACK");
	ASSERT_EQ(d.fb_timeout, 0, "still no evidence");
	skel->bss->spritz_clock_offset_ns += (SPRITZ_DEF_TIMEOUT_US + 1) * 1000ULL;
	dp_stats(skel, &s0);
	rx_sack_one(1000, sb);
	stats_delta(&s0, &d);
	ASSERT_EQ(d.fb_ack, 1, "the other path delivered");
	ASSERT_EQ(d.fb_timeout, 1, "TIMEOUT");
	ASSERT_EQ(d.path_disables, 1, "bpf_spritz_path_timeout()");
	ASSERT_GT(path_disabled_ms(2, a), 0, "module: path disabled");
	ASSERT_OK(dp_load_table(&nl), "reload table (paths enabled)");
}

/*
 * Timestamps (Eifel detection): the RTOs of test_retrans_timeout(), each
 * on another path than the first copies', carry TSval 10, the first
 * copies none.  An ACK covering them all (and SACKing a send of another
 * path, so that the timestamp option comes before or after a SACK
 * option) that echoes TSval 5 acknowledged the first copies: the repairs
 * were spurious, the path is alive; one that echoes the repairs' 10, or
 * none, is the dead-path case, a TIMEOUT.
 */
static void test_retrans_eifel(void)
{
	static const struct {
		int layout;
		uint32_t tsecr;
		int timeout;
	} t[] = {
		{ RX_TS_SACK, 5, 0 },
		{ RX_SACK_TS, 5, 0 },
		{ RX_TS_SACK, 10, 1 },
		/* no option: no evidence either way */
		{ RX_SACK, 5, 1 },
	};
	struct spritz_stats s0, d;
	uint32_t sa1, sa2, sb, next, blk[2];
	uint16_t a, b;
	int tries;
	size_t i;

	if (!ASSERT_OK_PTR(skel, "skeleton") || !ASSERT_OK_PTR(nl, "netlink"))
		return;
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		char what[64];

		snprintf(what, sizeof(what), "eifel row %zu", i + 1);
		/* drawn again until @a carried no send after @sa2 and both
		 * repairs leave on other paths: a send on @a after @sa1 that
		 * the ACK covers is a delivery on @a, alive whatever the
		 * timestamps say */
		for (tries = 0; tries < 64; tries++) {
			start("scout");
			next = tx_two_paths(&a, &b, &sa1, &sa2, &sb);
			if (!ASSERT_GT(next, 0, "two paths drawn"))
				return;
			if (sb > sa2 + 100)
				continue;
			skel->bss->spritz_clock_offset_ns += (SPRITZ_DEF_TIMEOUT_US + 1) * 1000ULL;
			if (tx_ts(DST2_6, sa1, 100, 10) != a && tx_ts(DST2_6, sa2, 100, 10) != a)
				break;
		}
		if (!ASSERT_LT(tries, 64, "repairs drawn on other paths"))
			return;
		skel->bss->spritz_clock_offset_ns += (SPRITZ_DEF_TIMEOUT_US + 1) * 1000ULL;
		dp_stats(skel, &s0);
		rx_layout = t[i].layout;
		rx_tsecr = t[i].tsecr;
		blk[0] = sb;
		blk[1] = sb + 100;
		rx(DST2_6, next, 0, blk, 1);
		rx_layout = RX_TS_SACK;
		rx_tsecr = 2;
		stats_delta(&s0, &d);
		ASSERT_EQ(d.fb_path_alive, !t[i].timeout, what);
		ASSERT_EQ(d.fb_timeout, t[i].timeout, what);
		ASSERT_EQ(d.path_disables, t[i].timeout, what);
		ASSERT_EQ(path_disabled_ms(2, a) > 0, t[i].timeout, what);
	}
	ASSERT_OK(dp_load_table(&nl), "reload table (paths enabled)");
}

/*
 * Two sends on a path never acknowledged within the timeout while a send
 * on another path, sent between them, was (and the sends before them):
 * TIMEOUT at the first ACK past the
 * timeout, without any retransmission.  Switch 2: spritz.ko keeps the
 * last enabled path of a list enabled.
 */
static void test_ack_timeout(void)
{
	struct spritz_stats s0, d;
	uint32_t sa1, sa2, sb;
	uint16_t a, b;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	start("scout");
	if (!ASSERT_GT(tx_two_paths(&a, &b, &sa1, &sa2, &sb), 0, "two paths drawn"))
		return;
	dp_stats(skel, &s0);
	rx_sack_one(sa1, sb);
	stats_delta(&s0, &d);
	ASSERT_GE(d.fb_ack, 1, "the other path delivered");
	ASSERT_EQ(d.fb_timeout, 0, "no TIMEOUT before the timeout");
	skel->bss->spritz_clock_offset_ns += (SPRITZ_DEF_TIMEOUT_US + 1) * 1000ULL;
	dp_stats(skel, &s0);
	rx(DST2_6, sa1, 0, NULL, 0);
	stats_delta(&s0, &d);
	ASSERT_GE(d.fb_nack, 1, "unacknowledged for the timeout: lost");
	ASSERT_EQ(d.fb_timeout, 1, "first timed out");
	ASSERT_EQ(d.path_disables, 1, "path disabled");
	ASSERT_GT(path_disabled_ms(2, a), 0, "module: path disabled");
	ASSERT_OK(dp_load_table(&nl), "reload table (paths enabled)");
}

/* ECN rate above min_bias_ecn_pct: samples ask for minimal-bias picks. */
static void test_min_bias(void)
{
	struct spritz_stats s0, d;
	struct spritz_flow f;
	uint32_t seq = 1000;
	int i;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	start("scout");
	ASSERT_OK(knob_set("min_bias_ecn_pct", 50), "min_bias_ecn_pct 50");
	ASSERT_OK(knob_set("small_flow_bytes", 0), "no small-flow flag");
	for (i = 0; i < 16; i++) {
		tx(DST2_6, seq, 100);
		seq += 100;
		rx(DST2_6, seq, 1, NULL, 0);
	}
	ASSERT_OK(flow(DST2_6, &f), "flow");
	ASSERT_TRUE(f.lb.flags & SPRITZ_LB_F_MIN_BIAS, "min-bias mode");
	ASSERT_GT(spritz_lb_ecn_rate_pct(&f.lb), 50, "ECN rate");
	dp_stats(skel, &s0);
	for (i = 0; i < 4; i++) {
		tx(DST2_6, seq, 100);
		seq += 100;
	}
	stats_delta(&s0, &d);
	ASSERT_EQ(d.pick_min_bias, d.dec_sample, "every sample min-biased");
	ASSERT_OK(knob_set("min_bias_ecn_pct", SPRITZ_DEF_MIN_BIAS_ECN_PCT), "restore");
	ASSERT_OK(knob_set("small_flow_bytes", SPRITZ_DEF_SMALL_FLOW_BYTES), "restore");
}

/* Flicr: ECN on the current path re-picks; ECMP and OPS ignore feedback. */
static void test_flicr_ecmp_ops(void)
{
	struct spritz_stats s0, d;
	struct spritz_flow f;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	start("flicr");
	ASSERT_OK(knob_set("flowlet_gap_us", 10000000), "gap 10 s");
	tx(DST2_6, 1000, 100);
	rx(DST2_6, 1100, 1, NULL, 0);
	ASSERT_OK(flow(DST2_6, &f), "flow");
	ASSERT_TRUE(f.lb.flags & SPRITZ_LB_F_REPICK, "flicr: repick flagged");
	dp_stats(skel, &s0);
	tx(DST2_6, 1100, 100);
	tx(DST2_6, 1200, 100);
	stats_delta(&s0, &d);
	ASSERT_EQ(d.dec_sample, 1, "flicr: re-picked once");
	ASSERT_OK(knob_set("flowlet_gap_us", SPRITZ_DEF_FLOWLET_GAP_US), "restore");

	start("ecmp");
	tx(DST2_6, 1000, 100);
	rx(DST2_6, 1100, 1, NULL, 0);
	dp_stats(skel, &s0);
	tx(DST2_6, 1100, 100);
	stats_delta(&s0, &d);
	ASSERT_EQ(d.dec_use_ev, 1, "ecmp: same path after ECN");
	ASSERT_STREQ(buf_str(DST2_6), "", "ecmp: no buffer");

	start("ops");
	tx(DST2_6, 1000, 100);
	rx(DST2_6, 1100, 0, NULL, 0);
	ASSERT_STREQ(buf_str(DST2_6), "", "ops: no buffer");
	ASSERT_OK(knob_set_str("algorithm", "scout"), "scout");
}

/* Ingress packets that are not ACKs of a managed flow: untouched, counted. */
static void test_unmanaged(void)
{
	struct spritz_stats s0, d;
	struct spec specs[] = {
		{ .src = UNKNOWN6, .dst = LOCAL6, .sport = DPORT, .dport = SPORT, .flags = 0x10 },
		{ .src = DST1_6, .dst = LOCAL6, .sport = DPORT, .dport = SPORT, .flags = 0x02 },
		{ .v4 = 1, .src = DST1_4, .dst = LOCAL4, .flags = 0x10 },
		{ .proto = 17, .src = DST1_6, .dst = LOCAL6 },
		{ .proto = 58, .src = DST1_6, .dst = LOCAL6 },
	};
	struct pkt p, o;
	uint32_t ret;
	size_t i;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	start("scout");
	tx(DST1_6, 1000, 100);
	dp_stats(skel, &s0);
	for (i = 0; i < ARRAY_SIZE(specs); i++) {
		pkt_build(&p, &specs[i]);
		ASSERT_OK(dp_run(in, &p, &o, &ret, 0), "run");
		ASSERT_MEMEQ(o.b, p.b, p.len, "identical");
	}
	stats_delta(&s0, &d);
	ASSERT_EQ(d.in_unmanaged, ARRAY_SIZE(specs), "all unmanaged");
	ASSERT_EQ(d.fb_ack + d.fb_ecn + d.fb_nack + d.fb_timeout, 0, "no feedback");
	ASSERT_EQ(pending(DST1_6), 1, "send still pending");
}

/* ------------------------------------------------- adversarial feedback */

/* One step of an adversarial row, on flows to switch 2 (several paths). */
enum { A_TX = 1, A_RX, A_ADV, A_RCV, A_SPENT, A_PEER };

struct aop {
	int op;
	uint8_t flags;	 /* TX, RX: TCP flags */
	uint32_t seq;	 /* TX; RX (0: 777); RCV: rcv_wup; SPENT, PEER: disables */
	int len;	 /* TX: payload; RCV: rcv_wnd */
	uint32_t ack;	 /* TX, RX: the ACK field */
	uint16_t win;	 /* TX: the window field (0: 65535) */
	uint8_t opts[20]; /* TX: TCP options (optlen bytes, a multiple of 4) */
	int optlen;
	int nsack;	 /* RX */
	uint32_t sack[4];
	int n;		 /* TX, RX: repeated on n local ports from PORT_FLOOD (0: SPORT once) */
	uint64_t ns;	 /* ADV: the clock moves on; SPENT, PEER: how long ago */
};

#define PORT_FLOOD 41000
#define TXA(fl, sq, ln, ...) { .op = A_TX, .flags = (fl), .seq = (sq), .len = (ln), __VA_ARGS__ }
#define RXA(fl, ak, ...) { .op = A_RX, .flags = (fl), .ack = (ak), __VA_ARGS__ }
#define ADV(t) { .op = A_ADV, .ns = (t) }
/* the receive window [wup, wup + wnd] of the SPORT flow's socket, as egress reads it */
#define RCVA(wup, wnd) { .op = A_RCV, .seq = (wup), .len = (wnd) }
/* the SPORT flow made n host-wide disables, the first ago ns before now */
#define SPENT(n, ago) { .op = A_SPENT, .seq = (n), .ns = (ago) }
/* the flows to the SPORT flow's peer made n host-wide disables, the first ago ns before now */
#define PEER(n, ago) { .op = A_PEER, .seq = (n), .ns = (ago) }
/* TX options: NOP, window scale @ws; a Linux SYN's (MSS, SACK_PERM, TS, NOP, WS @ws) */
#define OPTS_WS(ws) .opts = { 1, 3, 3, (ws) }, .optlen = 4
#define OPTS_LINUX_SYN(ws) .opts = DP_SYN_OPTS(ws), .optlen = DP_SYN_OPTLEN
/* past the default timeout_us, and past the coarse clock's tick on ingress */
#define PAST_TMO ((SPRITZ_DEF_TIMEOUT_US + 100000) * 1000ULL)

struct adv_want {
	size_t off; /* SOFF(counter) */
	uint64_t val;
};

struct adv_case {
	const char *name;
	struct aop ops[20];
	struct adv_want want[6]; /* counter deltas; every fb_* not named must stay 0 */
	int pending;		 /* pending sends of the SPORT flow after (-1: no such flow) */
	int flows;		 /* entries in spritz_flows after */
};

/*
 * A segment with @flags, ACK field @ack, window field @win and TCP
 * options @opts (@optlen bytes) from local port @sport to DST2_6 on egress.
 */
static void txp(uint16_t sport, uint8_t flags, uint32_t seq, int len, uint32_t ack, uint16_t win,
		const uint8_t *opts, int optlen)
{
	struct spec s = { .dst = DST2_6, .sport = sport, .seq = seq, .paylen = len,
			  .flags = flags, .ack = ack, .win = win, .opts = optlen ? opts : NULL,
			  .optlen = optlen };
	struct pkt p, o;
	uint32_t ret;

	pkt_build(&p, &s);
	ASSERT_OK(dp_run(eg, &p, &o, &ret, 0), "egress run");
}

/* A segment [@seq, @seq] with @flags from DST2_6 to local port @dport on ingress. */
static void rxp(uint16_t dport, uint8_t flags, uint32_t seq, uint32_t ack, const uint32_t *sack,
		int nsack)
{
	uint8_t opts[40];
	struct spec s = { .src = DST2_6, .dst = LOCAL6, .sport = DPORT, .dport = dport,
			  .seq = seq, .ack = ack, .flags = flags, .opts = opts };
	struct pkt p, o;
	uint32_t ret;
	int i;

	if (nsack) {
		opts[0] = 1;
		opts[1] = 1;
		opts[2] = 5;
		opts[3] = 2 + 8 * nsack;
		for (i = 0; i < 2 * nsack; i++)
			put32(opts + 4 + 4 * i, sack[i]);
		s.optlen = 4 + 8 * nsack;
	}
	pkt_build(&p, &s);
	if (!ASSERT_OK(dp_run(in, &p, &o, &ret, 0), "ingress run"))
		return;
	ASSERT_MEMEQ(o.b, p.b, p.len, "ingress leaves the packet byte-identical");
}

/* Paths of switch 2 that spritz.ko has disabled. */
static int d2_disabled(void)
{
	int i, n = 0;

	for (i = 0; i < 4; i++)
		n += path_disabled_ms(2, ev_d2[i]) > 0;
	return n;
}

static int nflows(void)
{
	return dp_flows(skel, 0);
}

static int pending_port(uint16_t sport)
{
	struct spec s = { .dst = DST2_6, .sport = sport };
	struct spritz_flow f;
	int i, n = 0;

	if (dp_flow(skel, &s, &f))
		return -1;
	for (i = 0; i < SPRITZ_RING_SIZE; i++)
		n += f.fb.ring[i].state == SPRITZ_IF_PENDING;
	return n;
}

#define SYN 0x02
#define SYN_ECN 0xc2 /* SYN ECE CWR: ECN setup */
#define SYNACK 0x12
#define SYNACK_ECE 0x52
#define DATA 0x18
#define ACKF 0x10
#define ECEF 0x50
#define RSTACK 0x14
#define FINACK 0x11

/*
 * A SYN with options ... leaves, then data with ACK 5000 and window 2:
 * ACKs at sequence numbers past the window's right edge @edge are
 * refused, at it taken.
 */
#define SYN_SCALE_ROW(nm, edge, ...)                                                          \
	{ nm,                                                                                 \
	  { TXA(SYN, 999, 0, __VA_ARGS__), TXA(DATA, 1000, 100, .ack = 5000, .win = 2),         \
	    RXA(ACKF, 1100, .seq = (edge) + 1), RXA(ACKF, 1100, .seq = (edge)) },              \
	  { { SOFF(in_ack_seq), 1 }, { SOFF(fb_ack), 1 } }, 0, 1 }

/*
 * Every row fails on the code before the feedback core (feedback.h): the
 * handshake rows disabled paths or credited marks, the window rows
 * credited or aged sends, the flood rows created flow entries.  No path
 * of switch 2 may end up disabled, and only the named feedback happens.
 */
static const struct adv_case adv_cases[] = {
	{ "connect_unanswered_x20",
	  { TXA(SYN_ECN, 999, 0, .n = 20), ADV(PAST_TMO), TXA(SYN, 999, 0, .n = 20),
	    ADV(3 * PAST_TMO), TXA(SYN, 999, 0, .n = 20) },
	  { { SOFF(eg_retrans), 0 }, { SOFF(eg_rewrites), 60 } }, -1, 20 },
	{ "syn_flood_answered",
	  { TXA(SYNACK, 5000, 0, .n = 64), ADV(PAST_TMO), TXA(SYNACK, 5000, 0, .n = 64),
	    TXA(RSTACK, 5001, 0, .n = 64), TXA(ACKF, 5001, 0, .n = 64) },
	  { { SOFF(eg_ctl_no_flow), 256 }, { SOFF(eg_flows_new), 0 } }, -1, 0 },
	{ "flood_keeps_established",
	  { TXA(DATA, 1000, 100), TXA(SYNACK, 5000, 0, .n = 64), TXA(RSTACK, 5001, 0, .n = 64),
	    RXA(ACKF, 1100) },
	  { { SOFF(eg_ctl_no_flow), 128 }, { SOFF(eg_flows_new), 1 }, { SOFF(fb_ack), 1 } }, 0,
	  1 },
	{ "ack_old_with_sack",
	  { TXA(DATA, 1000, 100), TXA(DATA, 1100, 100), RXA(ACKF, 1100),
	    RXA(ACKF, 1050, .nsack = 1, .sack = { 1100, 1200 }) },
	  { { SOFF(in_ack_old), 1 }, { SOFF(fb_ack), 1 } }, 1, 1 },
	{ "ack_far_below_with_sack",
	  { TXA(DATA, 1000, 100), TXA(DATA, 1100, 100),
	    RXA(ACKF, 1000 - 0x40000000U, .nsack = 1, .sack = { 1000, 1200 }) },
	  { { SOFF(in_ack_old), 1 } }, 2, 1 },
	{ "ack_old_after_timeout",
	  { TXA(DATA, 1000, 100), TXA(DATA, 1100, 100), RXA(ACKF, 1100), ADV(PAST_TMO),
	    RXA(ACKF, 1000) },
	  { { SOFF(in_ack_old), 1 }, { SOFF(fb_ack), 1 }, { SOFF(path_disables), 0 } }, 1, 1 },
	{ "sack_beyond_snd_nxt",
	  { TXA(DATA, 1000, 100), TXA(DATA, 1100, 100),
	    RXA(ACKF, 1000, .nsack = 1, .sack = { 1100, 5000 }) },
	  { { SOFF(in_sack_bad), 1 }, { SOFF(in_sack_blocks), 0 } }, 2, 1 },
	{ "sack_below_snd_una",
	  { TXA(DATA, 1000, 100), TXA(DATA, 1100, 100), TXA(DATA, 1200, 100), RXA(ACKF, 1100),
	    RXA(ACKF, 1100, .nsack = 1, .sack = { 900, 1300 }) },
	  { { SOFF(in_sack_bad), 1 }, { SOFF(fb_ack), 1 } }, 2, 1 },
	{ "synack_ece_negotiation",
	  { TXA(SYN_ECN, 999, 0), RXA(SYNACK_ECE, 1000) },
	  { { SOFF(in_unmanaged), 1 } }, 0, 1 },
	{ "synack_ece_established",
	  { TXA(DATA, 1000, 100), RXA(SYNACK_ECE, 1100) },
	  { { SOFF(in_ack_ctl), 1 } }, 1, 1 },
	{ "rst_ack_covering",
	  { TXA(DATA, 1000, 100), RXA(RSTACK, 1100) },
	  { { SOFF(in_ack_ctl), 1 } }, 1, 1 },
	/* a silent peer: RTO retransmission and duplicate ACKs, no TIMEOUT */
	{ "peer_silent",
	  { TXA(DATA, 1000, 100), TXA(DATA, 1100, 100), ADV(PAST_TMO), TXA(DATA, 1000, 100),
	    RXA(ACKF, 1000), ADV(PAST_TMO), RXA(ACKF, 1000) },
	  { { SOFF(fb_nack), 3 }, { SOFF(fb_no_reach), 1 }, { SOFF(eg_retrans), 1 } }, 0, 1 },
	/* segments outside the receive window: TCP drops them unread */
	{ "ack_outside_rcv_window",
	  { TXA(DATA, 1000, 100), TXA(DATA, 1100, 100), RCVA(5000, 1000),
	    RXA(ACKF, 1200, .seq = 4000), RXA(ACKF, 1200, .seq = 6001), RXA(ACKF, 1100, .seq = 5000),
	    ADV(PAST_TMO), RXA(ACKF, 1200, .seq = 4999, .nsack = 1, .sack = { 1100, 1200 }) },
	  { { SOFF(in_ack_seq), 3 }, { SOFF(fb_ack), 1 } }, 1, 1 },
	/*
	 * No socket (a forwarded flow, as every flow here): the window its
	 * segments advertise, [ACK, ACK + window << 14] without its SYN seen.
	 * ACK 5000, window 2: [5000, 37768].
	 */
	{ "fwd_outside_seg_window",
	  { TXA(DATA, 1000, 100, .ack = 5000, .win = 2), RXA(ACKF, 1100, .seq = 4000),
	    RXA(ACKF, 1100, .seq = 37769), RXA(ACKF, 1100, .seq = 37768) },
	  { { SOFF(in_ack_seq), 2 }, { SOFF(fb_ack), 1 } }, 0, 1 },
	/* a pure ACK leaving moves it: [90000, 106384] */
	{ "fwd_pure_ack_moves_window",
	  { TXA(DATA, 1000, 100, .ack = 5000, .win = 1), TXA(ACKF, 1100, 0, .ack = 90000, .win = 1),
	    RXA(ACKF, 1100, .seq = 5000), RXA(ACKF, 1100, .seq = 90000) },
	  { { SOFF(in_ack_seq), 1 }, { SOFF(fb_ack), 1 } }, 0, 1 },
	/* an RST, and a segment without ACK, advertise nothing */
	{ "fwd_rst_no_window",
	  { TXA(DATA, 1000, 100, .ack = 5000, .win = 1), TXA(RSTACK, 1100, 0, .ack = 90000),
	    TXA(0x08, 1100, 100, .ack = 90000), RXA(ACKF, 1100, .seq = 90000),
	    RXA(ACKF, 1200, .seq = 5000) },
	  { { SOFF(in_ack_seq), 1 }, { SOFF(fb_ack), 2 } }, 0, 1 },
	/* a SYN-ACK leaving (a forwarded server): the new connection's window,
	 * never scaled, then unscaled (no window scale option) */
	{ "fwd_synack_window",
	  { TXA(DATA, 1000, 100, .ack = 5000, .win = 1), TXA(0x12, 70000, 0, .ack = 90000, .win = 1),
	    TXA(DATA, 70001, 100, .ack = 90000, .win = 1), RXA(ACKF, 70101, .seq = 5000),
	    RXA(ACKF, 70101, .seq = 90002), RXA(ACKF, 70101, .seq = 90001) },
	  { { SOFF(in_ack_seq), 2 }, { SOFF(fb_ack), 1 } }, 0, 1 },
	/* the scale a SYN announces (Linux's options): ACK 5000, window 2 << 7 */
	SYN_SCALE_ROW("fwd_syn_wscale", 5256, OPTS_LINUX_SYN(7)),
	/* ... a SYN-ACK's, on a flow it has (no SYN-ACK makes one: a SYN flood
	 * would fill the table) */
	{ "fwd_synack_wscale",
	  { TXA(DATA, 1000, 100), TXA(0x12, 70000, 0, .ack = 90000, .win = 1, OPTS_LINUX_SYN(9)),
	    TXA(DATA, 70001, 100, .ack = 90000, .win = 1), RXA(ACKF, 70101, .seq = 90513),
	    RXA(ACKF, 70101, .seq = 90512) },
	  { { SOFF(in_ack_seq), 1 }, { SOFF(fb_ack), 1 } }, 0, 1 },
	/* a SYN without the option: unscaled; one above 14: 14 */
	SYN_SCALE_ROW("fwd_syn_no_wscale", 5002),
	SYN_SCALE_ROW("fwd_syn_wscale_above_14", 37768, OPTS_WS(20)),
	/* an option running past the end stops the walk (tcp_parse_options()):
	 * what came before it counts (WS 3), what did not parse is none (0) */
	SYN_SCALE_ROW("fwd_syn_wscale_cut", 5016, .opts = { 1, 3, 3, 3, 3, 9, 9, 0 }, .optlen = 8),
	SYN_SCALE_ROW("fwd_syn_wscale_unparsed", 5002, .opts = { 2, 4, 5, 180, 3, 6, 7, 0 },
		      .optlen = 8),
	/* a forwarded server: its SYN-ACK makes no flow entry, its first data
	 * takes the SYN-ACK's scale (spritz_synacks) */
	{ "fwd_server_wscale",
	  { TXA(0x12, 69999, 0, .ack = 90000, .win = 1, OPTS_LINUX_SYN(9)),
	    TXA(DATA, 70000, 100, .ack = 90000, .win = 1), RXA(ACKF, 70100, .seq = 90513),
	    RXA(ACKF, 70100, .seq = 90512) },
	  { { SOFF(in_ack_seq), 1 }, { SOFF(fb_ack), 1 }, { SOFF(eg_ctl_no_flow), 1 } }, 0, 1 },
	{ "fwd_server_no_wscale",
	  { TXA(0x12, 69999, 0, .ack = 90000, .win = 1),
	    TXA(DATA, 70000, 100, .ack = 90000, .win = 2), RXA(ACKF, 70100, .seq = 90003),
	    RXA(ACKF, 70100, .seq = 90002) },
	  { { SOFF(in_ack_seq), 1 }, { SOFF(fb_ack), 1 } }, 0, 1 },
	/* data not where the SYN-ACK's sequence ends: another connection's */
	{ "fwd_server_other_connection",
	  { TXA(0x12, 69999, 0, .ack = 90000, .win = 1, OPTS_LINUX_SYN(9)),
	    TXA(DATA, 80000, 100, .ack = 90000, .win = 1), RXA(ACKF, 80100, .seq = 106384) },
	  { { SOFF(in_ack_seq), 0 }, { SOFF(fb_ack), 1 } }, 0, 1 },
	/* a window that shrinks keeps its right edge ([5000, 5512], then ACK 5100) */
	{ "fwd_window_shrinks",
	  { TXA(SYN, 999, 0, OPTS_WS(7)), TXA(DATA, 1000, 100, .ack = 5000, .win = 4),
	    TXA(ACKF, 1100, 0, .ack = 5100, .win = 1), RXA(ACKF, 1100, .seq = 5099),
	    RXA(ACKF, 1100, .seq = 5513), RXA(ACKF, 1100, .seq = 5512) },
	  { { SOFF(in_ack_seq), 2 }, { SOFF(fb_ack), 1 } }, 0, 1 },
	{ "fin_retrans",
	  { TXA(DATA, 1000, 100), RXA(ACKF, 1100), TXA(FINACK, 1100, 0), ADV(3 * PAST_TMO),
	    TXA(FINACK, 1100, 0), RXA(ACKF, 1101) },
	  { { SOFF(fb_ack), 1 }, { SOFF(in_ack_unsent), 0 }, { SOFF(eg_retrans), 0 } }, 0, 1 },
};

/* The SPORT flow's verify send (spritz_fb_verify()) took the EV of its first send. */
static void verified_first(const char *name)
{
	struct spec s = { .dst = DST2_6, .sport = SPORT };
	struct spritz_flow f;
	char what[160];
	int i, n = 0;

	snprintf(what, sizeof(what), "%s: flow state", name);
	if (!ASSERT_OK(dp_flow(skel, &s, &f), what))
		return;
	for (i = 1; i < SPRITZ_RING_SIZE; i++) {
		if (!(f.fb.ring[i].flags & SPRITZ_IF_F_VERIFY))
			continue;
		n++;
		ASSERT_EQ(f.fb.ring[i].ev, f.fb.ring[0].ev,
			  WHAT(name, "verify send on the first send's EV"));
		ASSERT_EQ(f.last_ev, f.fb.ring[i].ev, WHAT(name, "the flow label carried it"));
	}
	ASSERT_EQ(n, 1, WHAT(name, "one verify send"));
}

/*
 * The silent peer back: a repair sent long after is delivered, the peer
 * answers; the flow's next new data goes to the suspect's EV (a verify
 * send, spritz_fb_verify()) and is delivered: nothing is disabled.
 */
#define PEER_RETURNS TXA(DATA, 1000, 100), PEER_RETURNS_REST
/* ... after its first send */
#define PEER_RETURNS_REST                                                                   \
	TXA(DATA, 1100, 100), ADV(PAST_TMO), TXA(DATA, 1000, 100), RXA(ACKF, 1000),         \
		ADV(PAST_TMO), RXA(ACKF, 1000), TXA(DATA, 1000, 100), RXA(ACKF, 1100)

static const struct adv_case adv_returns = {
	"peer_silent_returns",
	{ PEER_RETURNS, TXA(DATA, 1200, 100), RXA(ACKF, 1300) },
	{ { SOFF(fb_nack), 3 }, { SOFF(fb_no_reach), 1 }, { SOFF(fb_verify), 1 },
	  { SOFF(dec_verify), 1 }, { SOFF(fb_ack), 2 }, { SOFF(eg_retrans), 2 } }, 0, 1
};

/*
 * Local port @sport's flow state edited by @edit with @o's values, written
 * back into its slot of spritz_flows: state that the test runs' packets
 * cannot make (the receive window egress reads from a sending socket,
 * which BPF_PROG_TEST_RUN's packets have not; disables of the past).
 */
static void flow_edit(uint16_t sport, void (*edit)(struct spritz_flow *, const struct aop *),
		      const struct aop *o)
{
	struct spec s = { .dst = DST2_6, .sport = sport };
	struct spritz_flow f;
	__u32 slot;
	long i;

	i = dp_flow_slot(skel, &s, &f);
	if (!ASSERT_GE(i, 0, "flow to edit"))
		return;
	edit(&f, o);
	slot = (__u32)i;
	ASSERT_OK(bpf_map_update_elem(bpf_map__fd(skel->maps.spritz_flows), &slot, &f, BPF_EXIST),
		  "write the flow's state");
}

/* A_RCV: the socket's receive window [seq, seq + len] (spritz_fb_rcv_sent()). */
static void edit_rcv(struct spritz_flow *f, const struct aop *o)
{
	spritz_fb_rcv_sent(&f->fb, o->seq, (uint32_t)o->len);
}

/* The datapath's clock: bpf_ktime_get_ns() (CLOCK_MONOTONIC) plus the tests' offset. */
static uint64_t dp_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec +
	       skel->bss->spritz_clock_offset_ns;
}

/* A_SPENT: seq host-wide disables, the first ns ago: spritz_fb_disable_ok()'s window. */
static void edit_spent(struct spritz_flow *f, const struct aop *o)
{
	f->disables = (__u8)o->seq;
	f->disables_ns = dp_clock_ns() - o->ns;
}

/* A_PEER: the same for the flow's peer, in spritz_peers. */
static void edit_peer(struct spritz_flow *f, const struct aop *o)
{
	struct spritz_peer p = { .disables_ns = dp_clock_ns() - o->ns, .disables = (__u8)o->seq };

	ASSERT_OK(bpf_map_update_elem(bpf_map__fd(skel->maps.spritz_peers), f->key.daddr, &p,
				      BPF_ANY),
		  "write the peer's disables");
}

/* The steps of row @c, on a Scout table just loaded. */
static void adv_ops(const struct adv_case *c)
{
	size_t i;
	int k;

	for (i = 0; i < sizeof(c->ops) / sizeof(c->ops[0]) && c->ops[i].op; i++) {
		const struct aop *o = &c->ops[i];
		int n = o->n ? o->n : 1;

		for (k = 0; k < n; k++) {
			uint16_t port = o->n ? PORT_FLOOD + k : SPORT;

			if (o->op == A_TX)
				txp(port, o->flags, o->seq, o->len, o->ack, o->win, o->opts, o->optlen);
			else if (o->op == A_RX)
				rxp(port, o->flags, o->seq ? o->seq : 777, o->ack, o->sack, o->nsack);
			else if (o->op == A_RCV)
				flow_edit(port, edit_rcv, o);
			else if (o->op == A_SPENT)
				flow_edit(port, edit_spent, o);
			else if (o->op == A_PEER)
				flow_edit(port, edit_peer, o);
			else
				skel->bss->spritz_clock_offset_ns += o->ns;
		}
	}
}

static void run_adv(const struct adv_case *c)
{
	static const size_t fb[] = { SOFF(fb_ack), SOFF(fb_ecn), SOFF(fb_nack), SOFF(fb_timeout),
				     SOFF(path_disables), SOFF(path_disable_fail) };
	struct spritz_stats s0, d;
	char what[160];
	size_t i, j;

	start("scout");
	dp_stats(skel, &s0);
	adv_ops(c);
	stats_delta(&s0, &d);
	for (j = 0; j < sizeof(c->want) / sizeof(c->want[0]) && c->want[j].off; j++) {
		snprintf(what, sizeof(what), "%s: counter at offset %zu", c->name, c->want[j].off);
		ASSERT_EQ(STAT(&d, c->want[j].off), c->want[j].val, what);
	}
	for (i = 0; i < ARRAY_SIZE(fb); i++) {
		uint64_t want = 0;

		for (j = 0; j < sizeof(c->want) / sizeof(c->want[0]) && c->want[j].off; j++)
			if (c->want[j].off == fb[i])
				want = c->want[j].val;
		snprintf(what, sizeof(what), "%s: feedback counter at offset %zu", c->name, fb[i]);
		ASSERT_EQ(STAT(&d, fb[i]), want, what);
	}
	ASSERT_EQ(d2_disabled(), 0, WHAT(c->name, "no path of switch 2 disabled"));
	ASSERT_EQ(pending_port(SPORT), c->pending, WHAT(c->name, "pending sends"));
	ASSERT_EQ(nflows(), c->flows, WHAT(c->name, "flow entries"));
}

/*
 * The same return, but the first send's path stays dead: the verify send
 * is lost (a SACK hole) while the sends after it arrive, its path's
 * second loss: a TIMEOUT, and spritz.ko disables that path, no other.
 * Unless the flow has made flow_disables host-wide disables already, or
 * the flows to its peer peer_disables, within disable_ms (one hour here)
 * of the first: then the TIMEOUT is the flow's own
 * (spritz_fb_disable_ok()), nothing is disabled, and the budget that said
 * no is the only one counted.  A bound of 0 bounds nothing; once
 * disable_ms has passed, a budget begins again.  With min_enabled_pct 100
 * spritz.ko keeps the path (SPRITZ_TIMEOUT_KEPT): counted as kept, not as
 * a disable, the budgets charged.
 */
static void test_verify_dead(void)
{
#define VERIFY_DEAD_TAIL                                                              \
	TXA(DATA, 1200, 100), TXA(DATA, 1300, 100), TXA(DATA, 1400, 100),               \
		TXA(DATA, 1500, 100), RXA(ACKF, 1100, .nsack = 1, .sack = { 1300, 1600 }),  \
		ADV(PAST_TMO), RXA(ACKF, 1100, .nsack = 1, .sack = { 1300, 1600 })
#define VERIFY_DEAD PEER_RETURNS, VERIFY_DEAD_TAIL
/* ... with past disables (SPENT, PEER) set after the flow's first send */
#define VERIFY_DEAD_AFTER(...) \
	TXA(DATA, 1000, 100), __VA_ARGS__, PEER_RETURNS_REST, VERIFY_DEAD_TAIL
#define HOUR_NS 3600000000000ULL
#define DEF_F SPRITZ_DEF_FLOW_DISABLES
#define DEF_P SPRITZ_DEF_PEER_DISABLES
	static const struct {
		struct adv_case c; /* only the steps: the expectations follow */
		int flow_disables, peer_disables;
		uint64_t disables, withheld, peer_withheld;
		int peer; /* the peer's count after */
		int keep_all; /* min_enabled_pct 100 */
		uint64_t kept;
	} rows[] = {
		{ { .name = "verify_dead", .ops = { VERIFY_DEAD } }, DEF_F, DEF_P, 1, 0, 0, 1, 0, 0 },
		{ { .name = "verify_dead_unbounded",
		    .ops = { VERIFY_DEAD_AFTER(SPENT(255, 0), PEER(255, 0)) } },
		  0, 0, 1, 0, 0, 255, 0, 0 },
		{ { .name = "verify_dead_budget_left", .ops = { VERIFY_DEAD_AFTER(SPENT(1, 0)) } },
		  2, DEF_P, 1, 0, 0, 1, 0, 0 },
		{ { .name = "verify_dead_budget_spent", .ops = { VERIFY_DEAD_AFTER(SPENT(2, 0)) } },
		  2, DEF_P, 0, 1, 0, 0, 0, 0 },
		/* the first of them two hours ago: the window (an hour) is over */
		{ { .name = "verify_dead_budget_expired",
		    .ops = { VERIFY_DEAD_AFTER(SPENT(2, 2 * HOUR_NS)) } },
		  2, DEF_P, 1, 0, 0, 1, 0, 0 },
		/* other flows to the peer: its budget, shared */
		{ { .name = "verify_dead_peer_left", .ops = { VERIFY_DEAD_AFTER(PEER(7, 0)) } },
		  DEF_F, 8, 1, 0, 0, 8, 0, 0 },
		{ { .name = "verify_dead_peer_spent", .ops = { VERIFY_DEAD_AFTER(PEER(8, 0)) } },
		  DEF_F, 8, 0, 0, 1, 8, 0, 0 },
		{ { .name = "verify_dead_peer_expired",
		    .ops = { VERIFY_DEAD_AFTER(PEER(8, 2 * HOUR_NS)) } },
		  DEF_F, 8, 1, 0, 0, 1, 0, 0 },
		{ { .name = "verify_dead_peer_unbounded", .ops = { VERIFY_DEAD_AFTER(PEER(8, 0)) } },
		  DEF_F, 0, 1, 0, 0, 8, 0, 0 },
		/* the flow's budget says no first: the peer is not charged */
		{ { .name = "verify_dead_flow_spent_first",
		    .ops = { VERIFY_DEAD_AFTER(SPENT(2, 0), PEER(3, 0)) } },
		  2, 8, 0, 1, 0, 3, 0, 0 },
		/* the floor keeps every path: nothing disabled, the attempt charged */
		{ { .name = "verify_dead_floor_keeps", .ops = { VERIFY_DEAD } },
		  DEF_F, DEF_P, 0, 0, 0, 1, 1, 1 },
	};
#undef VERIFY_DEAD
#undef VERIFY_DEAD_AFTER
#undef VERIFY_DEAD_TAIL
#undef HOUR_NS
#undef DEF_F
#undef DEF_P
	struct spec s = { .dst = DST2_6, .sport = SPORT };
	struct spritz_stats s0, d;
	struct spritz_flow f;
	char what[160];
	size_t i;

	if (!ASSERT_OK_PTR(skel, "skeleton") || !ASSERT_OK_PTR(nl, "netlink"))
		return;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const char *n = rows[i].c.name;
		struct spritz_peer p = { 0 };

		start("scout");
		ASSERT_OK(knob_set("flow_disables", rows[i].flow_disables), "flow_disables");
		ASSERT_OK(knob_set("peer_disables", rows[i].peer_disables), "peer_disables");
		ASSERT_OK(knob_set("disable_ms", 3600000), "disable_ms");
		ASSERT_OK(knob_set("min_enabled_pct",
				   rows[i].keep_all ? 100 : SPRITZ_DEF_MIN_ENABLED_PCT),
			  "min_enabled_pct");
		dp_stats(skel, &s0);
		adv_ops(&rows[i].c);
		stats_delta(&s0, &d);
#define W(what_) WHAT(n, what_)
		ASSERT_EQ(d.fb_no_reach, 1, W("fb_no_reach: the first loss without evidence"));
		ASSERT_EQ(d.fb_verify, 1, W("fb_verify"));
		ASSERT_EQ(d.dec_verify, 1, W("dec_verify"));
		ASSERT_EQ(d.fb_nack, 4, W("fb_nack: three sends, the verify send"));
		ASSERT_EQ(d.fb_ack, 4, W("fb_ack: the last repair, three sends"));
		ASSERT_EQ(d.fb_timeout, 1, W("fb_timeout"));
		ASSERT_EQ(d.path_disables, rows[i].disables, W("path_disables"));
		ASSERT_EQ(d.path_disable_kept, rows[i].kept, W("path_disable_kept"));
		ASSERT_EQ(d.path_disable_fail, 0, W("path_disable_fail"));
		ASSERT_EQ(d.path_disable_withheld, rows[i].withheld, W("path_disable_withheld"));
		ASSERT_EQ(d.path_disable_peer_withheld, rows[i].peer_withheld,
			  W("path_disable_peer_withheld"));
		ASSERT_EQ(d2_disabled(), rows[i].disables, W("paths of switch 2 disabled"));
		if (ASSERT_OK(dp_flow(skel, &s, &f), W("flow state"))) {
			if (rows[i].disables)
				ASSERT_GT(path_disabled_ms(2, f.fb.ring[0].ev), 0,
					  W("the first send's path"));
			bpf_map_lookup_elem(bpf_map__fd(skel->maps.spritz_peers), f.key.daddr, &p);
			ASSERT_EQ(p.disables, rows[i].peer, W("the peer's disables"));
		}
#undef W
		ASSERT_OK(dp_load_table(&nl), "reload table (paths enabled)");
	}
	ASSERT_OK(knob_set("flow_disables", SPRITZ_DEF_FLOW_DISABLES), "restore flow_disables");
	ASSERT_OK(knob_set("peer_disables", SPRITZ_DEF_PEER_DISABLES), "restore peer_disables");
	ASSERT_OK(knob_set("disable_ms", SPRITZ_DEF_DISABLE_MS), "restore disable_ms");
	ASSERT_OK(knob_set("min_enabled_pct", SPRITZ_DEF_MIN_ENABLED_PCT), "restore min_enabled_pct");
}

/* Handshakes, forged and stale ACKs, floods: the adversarial table. */
static void test_adversarial(void)
{
	size_t i;

	if (!ASSERT_OK_PTR(skel, "skeleton") || !ASSERT_OK_PTR(nl, "netlink"))
		return;
	for (i = 0; i < ARRAY_SIZE(adv_cases); i++)
		run_adv(&adv_cases[i]);
	run_adv(&adv_returns);
	verified_first(adv_returns.name);
	ASSERT_OK(dp_load_table(&nl), "reload table (paths enabled)");
}

/*
 * SYN-ACKs that no flow entry takes (spritz_synacks): which are kept, with
 * which scale, and what a flow's first data takes; each row one segment
 * on egress, then the port's kept SYN-ACK and its flow's window scale.
 */
static void test_synacks(void)
{
	enum { P1 = 40100, P2, P3, NONE = -2 };
	static const uint8_t ws9[4] = { 1, 3, 3, 9 }, ws5[4] = { 1, 3, 3, 5 };
	static const struct {
		const char *name;
		uint16_t sport;
		uint8_t flags;
		uint32_t seq;
		int len;
		const uint8_t *opts;
		int kept;	   /* the port's kept scale after (-1: no option), or NONE */
		int flow_scale;	   /* its flow's after (-1: not known), or NONE: no flow */
		uint64_t dkept, dtaken; /* eg_synack_kept, eg_synack_taken deltas */
	} rows[] = {
		{ "SYN-ACK without a flow: kept", P1, 0x12, 69999, 0, ws9, 9, NONE, 1, 0 },
		{ "RST-ACK: not kept", P2, 0x14, 5000, 0, NULL, NONE, NONE, 0, 0 },
		{ "SYN-ACK with RST: not kept", P2, 0x16, 5000, 0, ws9, NONE, NONE, 0, 0 },
		{ "pure ACK: not kept", P2, 0x10, 5000, 0, NULL, NONE, NONE, 0, 0 },
		{ "SYN-ACK sent again: replaces it", P1, 0x12, 69999, 0, ws5, 5, NONE, 1, 0 },
		{ "its data: takes it, the entry goes", P1, 0x18, 70000, 100, NULL, NONE, 5, 0, 1 },
		{ "SYN-ACK without the option: kept", P3, 0x12, 69999, 0, NULL, -1, NONE, 1, 0 },
		{ "data of another connection: the entry goes", P3, 0x18, 80000, 100, NULL, NONE,
		  -1, 0, 0 },
		{ "SYN-ACK on a flow: the flow takes it", P1, 0x12, 99999, 0, ws9, NONE, 9, 0, 0 },
	};
	struct spritz_stats s0, d;
	int fd = bpf_map__fd(skel->maps.spritz_synacks);
	struct spritz_flow_key k;
	struct spritz_synack v;
	struct spritz_flow f;
	char what[128];
	size_t i;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	start("scout");
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct spec ps = { .dst = DST2_6, .sport = rows[i].sport };

		dp_stats(skel, &s0);
		txp(rows[i].sport, rows[i].flags, rows[i].seq, rows[i].len, 90000, 1, rows[i].opts,
		    rows[i].opts ? 4 : 0);
		stats_delta(&s0, &d);
		ASSERT_EQ(d.eg_synack_kept, rows[i].dkept, WHAT(rows[i].name, "eg_synack_kept"));
		ASSERT_EQ(d.eg_synack_taken, rows[i].dtaken, WHAT(rows[i].name, "eg_synack_taken"));
		dp_spec_key(&ps, &k);
		if (rows[i].kept == NONE) {
			ASSERT_ERR(bpf_map_lookup_elem(fd, &k, &v), WHAT(rows[i].name, "kept"));
		} else if (ASSERT_OK(bpf_map_lookup_elem(fd, &k, &v), WHAT(rows[i].name, "kept"))) {
			ASSERT_EQ(v.wscale, rows[i].kept, WHAT(rows[i].name, "its scale"));
			ASSERT_EQ(v.end_seq, rows[i].seq + 1,
				  WHAT(rows[i].name, "where its data starts"));
		}
		if (rows[i].flow_scale == NONE) {
			ASSERT_ERR(dp_flow(skel, &ps, &f), WHAT(rows[i].name, "flow"));
		} else if (ASSERT_OK(dp_flow(skel, &ps, &f), WHAT(rows[i].name, "flow"))) {
			ASSERT_EQ(f.fb.flags & SPRITZ_FB_F_WSCALE ? f.fb.rcv_wscale : -1,
				  rows[i].flow_scale, WHAT(rows[i].name, "the flow's scale"));
		}
	}
}

/* ---------------------------------------------------- tunnels (VXLAN, Geneve) */

#define IN4_LOCAL "192.168.7.1"
#define IN4_PEER "192.168.7.2"
#define IN6_LOCAL "fd07::1"
#define IN6_PEER "fd07::2"
#define PEER_HASH 51234 /* the peer's outer source port: its own hash */

/* A tunnel send (outer spec @o) of inner TCP [seq, seq + len): sport out. */
static uint16_t tun_tx(const struct spec *o, struct spec *inner, uint32_t seq, int len)
{
	struct pkt p, out;
	uint32_t ret;

	inner->seq = seq;
	inner->paylen = len;
	pkt_build(&p, o);
	if (!ASSERT_OK(dp_run(eg, &p, &out, &ret, 0), "egress run"))
		return 0;
	ASSERT_EQ(pkt_csum_ok(out.b, out.len), 1, "outer UDP checksum valid");
	/* only the source port (and the checksum) changed */
	ASSERT_MEMEQ(out.b + pkt_l4(o) + 2, p.b + pkt_l4(o) + 2, 4, "ports/length kept");
	ASSERT_MEMEQ(out.b + pkt_l4(o) + 8, p.b + pkt_l4(o) + 8, p.len - pkt_l4(o) - 8,
		     "tunnel header and inner frame byte-identical");
	return get16(out.b + pkt_l4(o));
}

/* Outer source of tun_rx()'s packets: NULL, the peer (@o's destination). */
static const char *tun_rx_src;
/* The inner sequence number of tun_rx()'s ACKs. */
static uint32_t tun_rx_seq = 777;

/* The peer's tunnel packet (outer @o reversed) with an inner ACK. */
static void tun_rx(const struct spec *o, const struct spec *inner, uint32_t ack, int ece)
{
	struct spec ri = *inner, ro = *o;
	struct pkt p, out;
	uint32_t ret;

	ri.src = inner->dst;
	ri.dst = inner->src;
	ri.sport = inner->dport;
	ri.dport = inner->sport;
	ri.seq = tun_rx_seq;
	ri.ack = ack;
	ri.paylen = 0;
	ri.flags = 0x10 | (ece ? 0x40 : 0);
	/* the peer answers from the address we send to, to ours (spec defaults) */
	ro.src = tun_rx_src ? tun_rx_src : o->dst ? o->dst : o->v4 ? DST1_4 : DST1_6;
	ro.dst = o->src ? o->src : o->v4 ? LOCAL4 : LOCAL6;
	ro.sport = PEER_HASH;
	ro.inner = &ri;
	pkt_build(&p, &ro);
	if (!ASSERT_OK(dp_run(in, &p, &out, &ret, 0), "ingress run"))
		return;
	ASSERT_EQ(ret, RET_NEXT, "ingress retval");
	ASSERT_MEMEQ(out.b, p.b, p.len, "ingress leaves the packet byte-identical");
}

static int tun_pending(const struct spec *o)
{
	struct spritz_flow f;
	int i, n = 0;

	if (dp_flow(skel, o, &f))
		return -1;
	for (i = 0; i < SPRITZ_RING_SIZE; i++)
		n += f.fb.ring[i].state == SPRITZ_IF_PENDING;
	return n;
}

/*
 * Feedback for UDP carriers from the inner TCP: VXLAN over IPv6 with
 * TCP/IPv4 inside, Geneve (with options) over IPv6 with TCP/IPv6 inside.
 * Sends are recorded under the tunnel flow, the peer's ACKs (in its own
 * tunnel packets, another outer source port) find it through spritz_inner.
 */
static void test_tunnel(void)
{
	struct spec vin = { .v4 = 1, .src = IN4_LOCAL, .dst = IN4_PEER, .sport = 33000,
			    .dport = 80, .flags = 0x18 };
	struct spec vx = { .proto = 17, .inner = &vin };
	struct spec gin = { .src = IN6_LOCAL, .dst = IN6_PEER, .sport = 33001, .dport = 443,
			    .flags = 0x18 };
	struct spec gv = { .proto = 17, .dport = SPRITZ_UDP_PORT_GENEVE, .inner = &gin, .geneve = 1,
			   .geneve_optwords = 2 };
	struct spritz_stats s0, d;
	struct spritz_flow f;
	char want[64];

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	start("scout");
	dp_stats(skel, &s0);
	ASSERT_EQ(tun_tx(&vx, &vin, 5000, 100), EV_D1, "VXLAN: source port = EV");
	ASSERT_EQ(tun_pending(&vx), 1, "VXLAN: inner send recorded");
	if (ASSERT_OK(dp_flow(skel, &vx, &f), "tunnel flow")) {
		ASSERT_TRUE(f.flags & SPRITZ_FLOW_F_INNER, "F_INNER");
		ASSERT_EQ(f.fb.ring[0].start_seq, 5000, "ring: inner start");
		ASSERT_EQ(f.fb.ring[0].end_seq, 5100, "ring: inner end");
	}
	tun_rx(&vx, &vin, 5100, 0);
	ASSERT_EQ(tun_pending(&vx), 0, "VXLAN: inner ACK acknowledged the send");
	snprintf(want, sizeof(want), "%04x:0/0", EV_D1);
	if (ASSERT_OK(dp_flow(skel, &vx, &f), "tunnel flow")) {
		ASSERT_EQ(f.lb.len, 1, "Scout: EV buffered");
		ASSERT_EQ(f.lb.buf[0].ev, EV_D1, "buffered EV");
	}
	tun_tx(&vx, &vin, 5100, 100);
	tun_rx(&vx, &vin, 5200, 1);
	/* a pure inner ACK going out is steered but not recorded */
	tun_tx(&vx, &vin, 5200, 0);
	ASSERT_EQ(tun_pending(&vx), 0, "inner pure ACK: nothing pending");
	stats_delta(&s0, &d);
	ASSERT_EQ(d.eg_inner_tcp, 2, "eg_inner_tcp");
	ASSERT_EQ(d.in_inner_acks, 2, "in_inner_acks");
	ASSERT_EQ(d.fb_ack, 1, "fb_ack");
	ASSERT_EQ(d.fb_ecn, 1, "fb_ecn (inner ECE)");

	/* Geneve with 8 bytes of options, TCP/IPv6 inside, to switch 2 */
	gv.dst = DST2_6;
	dp_stats(skel, &s0);
	tun_tx(&gv, &gin, 9000, 200);
	ASSERT_EQ(tun_pending(&gv), 1, "Geneve: inner send recorded");
	tun_rx(&gv, &gin, 9200, 0);
	ASSERT_EQ(tun_pending(&gv), 0, "Geneve: inner ACK acknowledged the send");
	stats_delta(&s0, &d);
	ASSERT_EQ(d.fb_ack, 1, "Geneve: fb_ack");

	/* a second inner flow on the same tunnel flow: steered, no feedback */
	dp_stats(skel, &s0);
	vin.sport = 33099;
	tun_tx(&vx, &vin, 1, 100);
	vin.sport = 33000;
	tun_tx(&vx, &vin, 5200, 100);
	tun_rx(&vx, &vin, 5300, 0);
	stats_delta(&s0, &d);
	ASSERT_EQ(d.eg_inner_mixed, 1, "eg_inner_mixed");
	ASSERT_EQ(d.eg_inner_tcp, 0, "mixed: nothing recorded");
	ASSERT_EQ(d.eg_rewrites, 2, "mixed: still steered");
	ASSERT_EQ(d.fb_ack + d.fb_ecn + d.fb_nack + d.fb_timeout, 0, "mixed: no feedback");
}

/*
 * The receive window of a tunnel's inner flow, without a socket: the one
 * its inner segments advertise (data, and pure ACKs), [ACK, ACK + window
 * << scale], the scale its inner SYN announced (spritz_fb_wscale_sent(),
 * none unscaled), 14 if no SYN was seen; a server's inner SYN-ACK, before
 * data names the inner flow, is kept for that data (spritz_synacks).
 * Inner ACKs outside the window are refused as TCP would.  Each row one
 * segment of one of three inner flows (window field 1): its send, or the
 * peer's ACK at a sequence number; then the counters' deltas and the
 * pending sends (-1: not checked).
 */
static void test_tunnel_window(void)
{
	static const uint8_t ws_opt[4] = { 1, 3, 3, 7 };
	struct spec vin[3] = {
		{ .v4 = 1, .src = IN4_LOCAL, .dst = IN4_PEER, .sport = 33010, .dport = 80, .win = 1 },
		{ .v4 = 1, .src = IN4_LOCAL, .dst = IN4_PEER, .sport = 33030, .dport = 80, .win = 1 },
		{ .v4 = 1, .src = IN4_LOCAL, .dst = IN4_PEER, .sport = 8080, .dport = 33040,
		  .win = 1 },
	};
	struct spec vx[3] = { { .proto = 17, .inner = &vin[0], .sport = 49990 },
			      { .proto = 17, .inner = &vin[1], .sport = 49992 },
			      { .proto = 17, .inner = &vin[2], .sport = 49993 } };
	enum { NOSYN, CLIENT, SERVER };		     /* the inner flows */
	enum { RX, DATA_TX, ACK_TX, SYN_TX, SYN_TX_NO_OPT, SYNACK_TX };
	static const struct {
		const char *name;
		int flow, tx;
		uint32_t seq; /* tx: its sequence; rx: the inner ACK's */
		uint32_t ack; /* tx: its ACK field; rx: the ACK */
		uint64_t in_ack_seq, fb_ack;
		int pending;
	} rows[] = {
		{ "data: window [90000, 106384]", NOSYN, DATA_TX, 5000, 90000, 0, 0, 1 },
		{ "ACK below it", NOSYN, RX, 777, 5100, 1, 0, 1 },
		{ "ACK past it", NOSYN, RX, 106385, 5100, 1, 0, 1 },
		{ "ACK at its right edge", NOSYN, RX, 106384, 5100, 0, 1, 0 },
		{ "data", NOSYN, DATA_TX, 5100, 90000, 0, 0, 1 },
		{ "pure ACK: window [200000, 216384]", NOSYN, ACK_TX, 5200, 200000, 0, 0, 1 },
		{ "ACK in the old window", NOSYN, RX, 90000, 5200, 1, 0, 1 },
		{ "ACK in the new", NOSYN, RX, 200000, 5200, 0, 1, 0 },
		{ "SYN, window scale 7", CLIENT, SYN_TX, 4999, 0, 0, 0, -1 },
		{ "data: window [90000, 90128]", CLIENT, DATA_TX, 5000, 90000, 0, 0, 1 },
		{ "ACK past it, scale 7", CLIENT, RX, 90129, 5100, 1, 0, 1 },
		{ "ACK at its right edge, scale 7", CLIENT, RX, 90128, 5100, 0, 1, 0 },
		{ "SYN without the option: a new connection", CLIENT, SYN_TX_NO_OPT, 69999, 0, 0, 0,
		  -1 },
		{ "data: window [90000, 90001]", CLIENT, DATA_TX, 70000, 90000, 0, 0, 1 },
		{ "ACK past it, unscaled", CLIENT, RX, 90002, 70100, 1, 0, 1 },
		{ "ACK at its right edge, unscaled", CLIENT, RX, 90001, 70100, 0, 1, 0 },
		{ "server: SYN-ACK, window scale 7", SERVER, SYNACK_TX, 69999, 90000, 0, 0, -1 },
		{ "server: data: window [90000, 90128]", SERVER, DATA_TX, 70000, 90000, 0, 0, 1 },
		{ "server: ACK past it", SERVER, RX, 90129, 70100, 1, 0, 1 },
		{ "server: ACK at its right edge", SERVER, RX, 90128, 70100, 0, 1, 0 },
	};
	static const uint8_t flags[] = { [DATA_TX] = 0x18, [ACK_TX] = 0x10, [SYN_TX] = 0x02,
					 [SYN_TX_NO_OPT] = 0x02, [SYNACK_TX] = 0x12 };
	struct spritz_stats s0, d;
	char what[96];
	size_t i;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	start("scout");
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct spec *o = &vx[rows[i].flow], *n = &vin[rows[i].flow];
		int opt = rows[i].tx == SYN_TX || rows[i].tx == SYNACK_TX;

		dp_stats(skel, &s0);
		if (rows[i].tx == RX) {
			tun_rx_seq = rows[i].seq;
			tun_rx(o, n, rows[i].ack, 0);
		} else {
			n->flags = flags[rows[i].tx];
			n->opts = opt ? ws_opt : NULL;
			n->optlen = opt ? sizeof(ws_opt) : 0;
			n->ack = rows[i].ack;
			tun_tx(o, n, rows[i].seq, rows[i].tx == DATA_TX ? 100 : 0);
		}
		stats_delta(&s0, &d);
		ASSERT_EQ(d.in_ack_seq, rows[i].in_ack_seq, WHAT(rows[i].name, "in_ack_seq"));
		ASSERT_EQ(d.fb_ack, rows[i].fb_ack, WHAT(rows[i].name, "fb_ack"));
		if (rows[i].pending < 0)
			continue;
		ASSERT_EQ(tun_pending(o), rows[i].pending, WHAT(rows[i].name, "pending"));
	}
	tun_rx_seq = 777;
}

/*
 * A tunnel's inner SYN sent again is drawn uniformly, as a plain one:
 * no small-flow flag; the first, and one after data (a new connection on
 * the inner ports), carry it.  Another inner flow's SYN on the same
 * tunnel flow leaves it its own; that flow's data marks it mixed.
 */
static void test_tunnel_syn(void)
{
	struct spec vin = { .v4 = 1, .src = IN4_LOCAL, .dst = IN4_PEER, .dport = 80 };
	struct spec vx = { .proto = 17, .inner = &vin, .sport = 49991 };
	static const struct {
		const char *name;
		uint16_t sport; /* the inner flow's */
		uint8_t flags;
		uint32_t seq;
		int len, small; /* small: pick_small_flow (-1: not checked) */
		int mixed;	/* eg_inner_mixed */
	} rows[] = {
		{ "SYN", 33020, 0x02, 999, 0, 1, 0 },
		{ "SYN sent again: uniform", 33020, 0x02, 999, 0, 0, 0 },
		{ "and again", 33020, 0x02, 999, 0, 0, 0 },
		{ "data", 33020, 0x18, 1000, 100, 1, 0 },
		{ "SYN after data: a new connection", 33020, 0x02, 70000, 0, 1, 0 },
		{ "another inner flow's SYN: not mixed", 33021, 0x02, 999, 0, -1, 0 },
		{ "the first's data: still its own", 33020, 0x18, 70001, 100, -1, 0 },
		{ "the other's data: mixed", 33021, 0x18, 1000, 100, -1, 1 },
	};
	struct spritz_stats s0, d;
	char what[96];
	size_t i;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	start("scout");
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		vin.sport = rows[i].sport;
		vin.flags = rows[i].flags;
		dp_stats(skel, &s0);
		tun_tx(&vx, &vin, rows[i].seq, rows[i].len);
		stats_delta(&s0, &d);
		ASSERT_EQ(d.picks, 1, WHAT(rows[i].name, "picks"));
		ASSERT_EQ(d.eg_inner_mixed, rows[i].mixed, WHAT(rows[i].name, "eg_inner_mixed"));
		ASSERT_EQ(d.eg_inner_tcp, rows[i].len && !rows[i].mixed,
			  WHAT(rows[i].name, "eg_inner_tcp"));
		if (rows[i].small < 0)
			continue;
		ASSERT_EQ(d.pick_small_flow, rows[i].small, WHAT(rows[i].name, "pick_small_flow"));
	}
}

/*
 * Inner ACKs injected in tunnel packets from an outer source that is not
 * the tunnel peer (here another host of the directory, over IPv6 and
 * IPv4): ignored and counted, the send stays pending; the peer's own ACK
 * then acknowledges it.
 */
static void test_tunnel_foreign(void)
{
	struct spec vin = { .v4 = 1, .src = IN4_LOCAL, .dst = IN4_PEER, .sport = 33000,
			    .dport = 80, .flags = 0x18 };
	struct spec vx6 = { .proto = 17, .inner = &vin };
	struct spec vx4 = { .v4 = 1, .proto = 17, .inner = &vin };
	const struct {
		struct spec *o;
		const char *foreign;
	} rows[] = { { &vx6, DST2_6 }, { &vx4, "10.1.0.9" } };
	struct spritz_stats s0, d;
	size_t i;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		start("scout");
		dp_stats(skel, &s0);
		tun_tx(rows[i].o, &vin, 5000, 100);
		tun_rx_src = rows[i].foreign;
		tun_rx(rows[i].o, &vin, 5100, 0);
		tun_rx_src = NULL;
		stats_delta(&s0, &d);
		ASSERT_EQ(d.in_tunnel_foreign, 1, "foreign outer source counted");
		ASSERT_EQ(d.fb_ack + d.fb_ecn + d.fb_nack + d.fb_timeout, 0, "no feedback");
		ASSERT_EQ(tun_pending(rows[i].o), 1, "send still pending");
		tun_rx(rows[i].o, &vin, 5100, 0);
		stats_delta(&s0, &d);
		ASSERT_EQ(d.fb_ack, 1, "the peer's ACK counts");
		ASSERT_EQ(tun_pending(rows[i].o), 0, "acknowledged");
	}
}

/*
 * One inner 5-tuple in two VNIs (two tenants' flows, same addresses and
 * ports, between the same tunnel endpoints) is two flows: an ACK in
 * another VNI than the send's acknowledges nothing, two tunnel flows
 * keep their own inner flows, and one tunnel flow carrying both is mixed.
 * Each row: the sends (outer source port, VNI), the ACK's VNI, then the
 * sends still pending and the counters' deltas.
 */
static void test_tunnel_vni(void)
{
	struct spec vin = { .v4 = 1, .src = IN4_LOCAL, .dst = IN4_PEER, .sport = 33000,
			    .dport = 80, .flags = 0x18 };
	static const struct {
		const char *name;
		uint16_t sport[2]; /* outer source port of send k (0: no send) */
		uint32_t vni[2];   /* VNI of send k */
		uint32_t ack_vni;
		int pending[2];	   /* sends of tunnel flow k still pending */
		int mixed, acked;  /* eg_inner_mixed, fb_ack */
	} rows[] = {
		{ "ack in another VNI", { 40001, 0 }, { 42, 0 }, 43, { 1, -1 }, 0, 0 },
		{ "ack in the send's VNI", { 40001, 0 }, { 42, 0 }, 42, { 0, -1 }, 0, 1 },
		{ "two tunnel flows, ack in the second's VNI", { 40001, 40002 }, { 42, 43 }, 43,
		  { 1, 0 }, 0, 1 },
		{ "two tunnel flows, ack in the first's VNI", { 40001, 40002 }, { 42, 43 }, 42,
		  { 0, 1 }, 0, 1 },
		{ "one tunnel flow, two VNIs: mixed", { 40001, 40001 }, { 42, 43 }, 42,
		  { 1, -1 }, 1, 0 },
	};
	struct spritz_stats s0, d;
	size_t i, k;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct spec o[2], ack = { .proto = 17, .inner = &vin, .vni = rows[i].ack_vni };

		start("scout");
		dp_stats(skel, &s0);
		for (k = 0; k < 2; k++) {
			o[k] = (struct spec){ .proto = 17, .inner = &vin, .sport = rows[i].sport[k],
					      .vni = rows[i].vni[k] };
			if (rows[i].sport[k])
				tun_tx(&o[k], &vin, 5000 + 1000 * (uint32_t)k, 100);
		}
		/* the ACK covers the first send only: 5100 is past the second's start */
		tun_rx(&ack, &vin, rows[i].ack_vni == rows[i].vni[1] ? 6100 : 5100, 0);
		stats_delta(&s0, &d);
		for (k = 0; k < 2; k++)
			if (rows[i].pending[k] >= 0)
				ASSERT_EQ(tun_pending(&o[k]), rows[i].pending[k], rows[i].name);
		ASSERT_EQ(d.eg_inner_mixed, rows[i].mixed, rows[i].name);
		ASSERT_EQ(d.fb_ack, rows[i].acked, rows[i].name);
	}
}

/*
 * A tunnel flow's slot taken again by the same outer flow carrying another
 * inner flow (the first forgotten, its spritz_inner entry not): an ACK of
 * the first inner flow finds the slot but not its inner flow - counted,
 * no feedback - while the second's own ACK counts.  Both inner flows send
 * the same sequence, so that without the check the first's ACK would
 * acknowledge the second's send.
 */
static void test_tunnel_slot_reused(void)
{
	struct spec x = { .v4 = 1, .src = IN4_LOCAL, .dst = IN4_PEER, .sport = 33000,
			  .dport = 80, .flags = 0x18 };
	struct spec y = x;
	struct spec vx = { .proto = 17, .inner = &x }, vy = vx;
	struct spritz_stats s0, d;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	y.sport = 33001;
	vy.inner = &y;
	start("scout");
	tun_tx(&vx, &x, 5000, 100);
	ASSERT_EQ(dp_flows(skel, 1), 1, "the tunnel flow forgotten");
	dp_stats(skel, &s0);
	tun_tx(&vy, &y, 5000, 100);
	tun_rx(&vx, &x, 5100, 0);
	stats_delta(&s0, &d);
	ASSERT_EQ(d.in_inner_other, 1, "the first inner flow's ACK: another inner flow now");
	ASSERT_EQ(d.fb_ack, 0, "no feedback");
	ASSERT_EQ(tun_pending(&vy), 1, "the second's send still pending");
	tun_rx(&vy, &y, 5100, 0);
	stats_delta(&s0, &d);
	ASSERT_EQ(d.fb_ack, 1, "the second's own ACK counts");
	ASSERT_EQ(tun_pending(&vy), 0, "acknowledged");
}

/* Tunnel packets the inner parser does not follow: steered, no feedback. */
static void test_tunnel_unparsed(void)
{
	struct spec vin = { .v4 = 1, .src = IN4_LOCAL, .dst = IN4_PEER, .sport = 33000,
			    .dport = 80, .flags = 0x18 };
	struct spec no_i = { .proto = 17, .inner = &vin, .tunnel_flags = 0x01 };
	struct spec long_opts = { .proto = 17, .dport = SPRITZ_UDP_PORT_GENEVE, .inner = &vin, .geneve = 1,
				  .geneve_optwords = 12 };
	/* a source-port carrier whose payload is not a tunnel (RoCEv2 over IPv6
	 * carries the EV in the flow label, not the source port tun_tx reads) */
	struct spec uet = { .proto = 17, .dport = SPRITZ_UDP_PORT_UET, .inner = &vin };
	const struct spec *cases[] = { &no_i, &long_opts, &uet };
	struct spritz_stats s0, d;
	size_t i;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	start("scout");
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		dp_stats(skel, &s0);
		ASSERT_EQ(tun_tx(cases[i], &vin, 100, 100), EV_D1, "steered");
		stats_delta(&s0, &d);
		ASSERT_EQ(d.eg_inner_tcp, 0, "no inner send recorded");
		ASSERT_EQ(tun_pending(cases[i]), 0, "nothing pending");
	}
}

/* ------------------------------------------------ headers in paged data */

/*
 * The parser's pull (parse.h, spritz_pull_headers()) on live packets:
 * BPF_PROG_TEST_RUN gives linear packets only.  A frame that an AF_PACKET
 * socket sends, longer than a page, has only the device's hard header
 * (Ethernet) in the linear part (packet_snd()), and so reaches tc egress,
 * and through a veth its peer's tc ingress, with every other header in
 * paged data.
 */
#define PG_A "spzpg0"
#define PG_B "spzpg1"
#define PG_PAY 6000 /* payload bytes: past a page */

static uint8_t pg_out[PG_PAY + PKT_MAX], pg_in[PG_PAY + PKT_MAX + 1];

/* An AF_PACKET socket on @ifindex, every protocol, 2 s receive timeout; -1. */
static int pg_sock(int ifindex)
{
	struct sockaddr_ll a = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL),
				 .sll_ifindex = ifindex };
	struct timeval tv = { .tv_sec = 2 };
	int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));

	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Frame @s with PG_PAY bytes of payload into pg_out: the IPv6 payload
 * length grown, and for a tunnel (IPv6 inside) the UDP length and the
 * inner payload length.  Returns its length.
 */
static size_t pg_frame(const struct spec *s)
{
	struct pkt p;
	size_t l4 = pkt_l4(s);

	pkt_build(&p, s);
	memcpy(pg_out, p.b, p.flen);
	memset(pg_out + p.flen, 0xa5, PG_PAY);
	put16(pg_out + 18, get16(pg_out + 18) + PG_PAY);
	if (s->inner) {
		put16(pg_out + l4 + 4, get16(pg_out + l4 + 4) + PG_PAY);
		put16(pg_out + l4 + 16 + 14 + 4, get16(pg_out + l4 + 16 + 14 + 4) + PG_PAY);
	}
	return p.flen + PG_PAY;
}

/* Send pg_out (@len bytes) on @tx; 0 once @rx received it (into pg_in), else -1. */
static int pg_pass(int tx, int rx, size_t len)
{
	struct sockaddr_ll a;
	socklen_t al;
	ssize_t n;
	int i;

	if (send(tx, pg_out, len, 0) != (ssize_t)len)
		return -1;
	/* skip what else the link carries (neighbour discovery, MLD) */
	for (i = 0; i < 256; i++) {
		al = sizeof(a);
		n = recvfrom(rx, pg_in, sizeof(pg_in), 0, (struct sockaddr *)&a, &al);
		if (n < 0)
			return -1;
		if (a.sll_pkttype != PACKET_OUTGOING && (size_t)n == len &&
		    !memcmp(pg_in + 22, pg_out + 22, 32))
			return 0;
	}
	return -1;
}

/*
 * Wait for the statistics to count @want more of the field at @off than
 * @s0: a tap on the receiving device sees a frame before tc ingress does.
 */
static uint64_t pg_wait(const struct spritz_stats *s0, size_t off, uint64_t want)
{
	struct timespec ts = { .tv_nsec = 10 * 1000 * 1000 };
	struct spritz_stats d;
	int i;

	for (i = 0; i < 1000; i++) {
		stats_delta(s0, &d);
		if (STAT(&d, off) >= want)
			break;
		nanosleep(&ts, NULL);
	}
	return STAT(&d, off);
}

/*
 * Send the UDP payload of tunnel packet @s (its tunnel header and inner
 * frame) from a UDP socket, from @s's source to its destination's tunnel
 * port, out of @dev: the address, a route and a neighbour put there for
 * it.  0, or -1.
 */
static int pg_udp_send(const char *dev, const struct spec *s)
{
	const char *src = s->src ? s->src : LOCAL6, *dst = s->dst ? s->dst : DST1_6;
	struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_port = htons(SPRITZ_UDP_PORT_VXLAN) };
	struct sockaddr_in6 b = { .sin6_family = AF_INET6 };
	size_t off = pkt_l4(s) + 8;
	char cmd[256];
	struct pkt p;
	int fd, ok;

	snprintf(cmd, sizeof(cmd), "ip addr add %s/128 dev %s nodad && ip -6 route add %s/128 dev %s && "
		 "ip -6 neigh add %s lladdr 02:00:00:00:00:02 dev %s", src, dev, dst, dev, dst, dev);
	if (system(cmd) || inet_pton(AF_INET6, dst, &a.sin6_addr) != 1 ||
	    inet_pton(AF_INET6, src, &b.sin6_addr) != 1)
		return -1;
	pkt_build(&p, s);
	fd = socket(AF_INET6, SOCK_DGRAM, 0);
	if (fd < 0)
		return -1;
	ok = !bind(fd, (struct sockaddr *)&b, sizeof(b)) &&
	     sendto(fd, p.b + off, p.flen - off, 0, (struct sockaddr *)&a, sizeof(a)) ==
		     (ssize_t)(p.flen - off);
	close(fd);
	return ok ? 0 : -1;
}

/* Attach the egress and ingress programs to veth @ifindex (clsact). */
static int pg_attach(int ifindex)
{
	LIBBPF_OPTS(bpf_tc_hook, h, .ifindex = ifindex, .attach_point = BPF_TC_EGRESS);
	LIBBPF_OPTS(bpf_tc_opts, oe, .prog_fd = eg);
	LIBBPF_OPTS(bpf_tc_opts, oi, .prog_fd = in);
	int e = bpf_tc_hook_create(&h);

	if (e && e != -EEXIST)
		return e;
	e = bpf_tc_attach(&h, &oe);
	if (e)
		return e;
	h.attach_point = BPF_TC_INGRESS;
	return bpf_tc_attach(&h, &oi);
}

/*
 * The parser's pulls, live: a TCP/IPv6 data send steered (egress pulls
 * its headers), the peer's data segment acknowledging it (ingress
 * pulls), a VXLAN send with TCP/IPv6 inside (egress pulls the outer
 * headers, then the inner ones: 144 bytes of headers, past the first
 * pull's SPRITZ_PULL_LEN).  Nothing is counted malformed.
 */
static void test_paged_headers(void)
{
	struct spec tcp = { .dst = DST2_6, .seq = 1000, .flags = 0x18 };
	struct spec ack = { .src = DST2_6, .dst = LOCAL6, .sport = DPORT, .dport = SPORT,
			    .seq = 777, .ack = 1000 + PG_PAY, .flags = 0x18 };
	struct spec gin = { .src = IN6_LOCAL, .dst = IN6_PEER, .sport = 33002, .dport = 443,
			    .seq = 9000, .flags = 0x18 };
	struct spec vx = { .proto = 17, .udp_zero_csum = 1, .inner = &gin };
	struct spritz_stats s0, d;
	int ia, ib, fa = -1, fb = -1;
	uint16_t label;
	size_t len, i;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	start("scout");
	if (system("ip link del " PG_A " 2>/dev/null; ip link add " PG_A " mtu 9000 type veth "
		   "peer name " PG_B " mtu 9000 && ip link set " PG_A " up && "
		   "ip link set " PG_B " up")) {
		ASSERT_TRUE(0, "failed to create veth " PG_A);
		return;
	}
	ia = (int)if_nametoindex(PG_A);
	ib = (int)if_nametoindex(PG_B);
	if (!ASSERT_OK(pg_attach(ia), "attach to " PG_A) ||
	    !ASSERT_OK(dp_dev_add(skel, (uint32_t)ia, 0), "device " PG_A))
		goto out;
	fa = pg_sock(ia);
	fb = pg_sock(ib);
	if (!ASSERT_GE(fa, 0, "packet socket " PG_A) || !ASSERT_GE(fb, 0, "packet socket " PG_B))
		goto out;

	dp_stats(skel, &s0);
	len = pg_frame(&tcp);
	if (!ASSERT_OK(pg_pass(fa, fb, len), "TCP: the frame crosses the veth"))
		goto out;
	label = (uint16_t)(get32(pg_in + 14) & 0xfffff);
	for (i = 0; i < ARRAY_SIZE(ev_d2) && ev_d2[i] != label; i++)
		;
	ASSERT_LT(i, ARRAY_SIZE(ev_d2), "TCP: an EV of switch 2 in the flow label");
	ASSERT_MEMEQ(pg_in + 18, pg_out + 18, len - 18, "TCP: all else identical");
	ASSERT_EQ(pending(DST2_6), 1, "TCP: the send recorded");

	len = pg_frame(&ack);
	ASSERT_OK(pg_pass(fb, fa, len), "ACK: the frame crosses the veth");
	ASSERT_EQ(pg_wait(&s0, SOFF(fb_ack), 1), 1, "ACK: fb_ack");
	ASSERT_EQ(pending(DST2_6), 0, "ACK: the send acknowledged");

	len = pg_frame(&vx);
	if (ASSERT_OK(pg_pass(fa, fb, len), "VXLAN: the frame crosses the veth"))
		ASSERT_EQ(get16(pg_in + pkt_l4(&vx)), EV_D1, "VXLAN: source port = EV");
	stats_delta(&s0, &d);
	ASSERT_EQ(d.eg_managed_tcp, 1, "eg_managed_tcp");
	ASSERT_EQ(d.eg_managed_udp, 1, "eg_managed_udp");
	ASSERT_EQ(d.eg_inner_tcp, 1, "eg_inner_tcp: inner headers parsed");
	ASSERT_EQ(d.eg_inner_user, 0, "eg_inner_user: a packet socket's frame");
	ASSERT_EQ(d.in_acks, 1, "in_acks");
	ASSERT_EQ(d.un_malformed, 0, "un_malformed");

	/* the same inner flow's next data in a tunnel payload from a user-space
	 * UDP socket: steered, its inner TCP not read (anyone could have
	 * written it; it would take the inner flow's spritz_inner entry) */
	gin.seq = 9000 + PG_PAY;
	gin.paylen = 100;
	dp_stats(skel, &s0);
	ASSERT_OK(pg_udp_send(PG_A, &vx), "VXLAN from a UDP socket sent");
	ASSERT_EQ(pg_wait(&s0, SOFF(eg_managed_udp), 1), 1, "UDP socket: eg_managed_udp");
	stats_delta(&s0, &d);
	ASSERT_EQ(d.eg_inner_user, 1, "UDP socket: eg_inner_user");
	ASSERT_EQ(d.eg_inner_tcp, 0, "UDP socket: no inner send recorded");
	ASSERT_EQ(d.eg_rewrites, 1, "UDP socket: still steered");
out:
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	ASSERT_OK(system("ip link del " PG_A), "delete veth " PG_A);
}

static void test_destroy(void)
{
	dp_destroy(&skel, &nl);
}

static const struct test_case tests[] = {
	{ "load", test_load },
	{ "scout_ack", test_scout_ack },
	{ "scout_ecn", test_scout_ecn },
	{ "cumulative_spray", test_cumulative },
	{ "sack", test_sack },
	{ "ack_bounds", test_ack_bounds },
	{ "reused_ports", test_reused_ports },
	{ "sack_layouts", test_sack_layouts },
	{ "sack_bad_len", test_sack_bad_len },
	{ "retrans_nack", test_retrans_nack },
	{ "retrans_timeout", test_retrans_timeout },
	{ "retrans_eifel", test_retrans_eifel },
	{ "ack_timeout", test_ack_timeout },
	{ "min_bias", test_min_bias },
	{ "flicr_ecmp_ops", test_flicr_ecmp_ops },
	{ "unmanaged", test_unmanaged },
	{ "adversarial", test_adversarial },
	{ "verify_dead", test_verify_dead },
	{ "tunnel", test_tunnel },
	{ "tunnel_window", test_tunnel_window },
	{ "tunnel_syn", test_tunnel_syn },
	{ "synacks", test_synacks },
	{ "tunnel_foreign", test_tunnel_foreign },
	{ "tunnel_vni", test_tunnel_vni },
	{ "tunnel_slot_reused", test_tunnel_slot_reused },
	{ "tunnel_unparsed", test_tunnel_unparsed },
	{ "paged_headers", test_paged_headers },
	{ "destroy", test_destroy },
};

TEST_MAIN(tests)
