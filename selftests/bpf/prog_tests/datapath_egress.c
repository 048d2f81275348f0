// SPDX-License-Identifier: GPL-2.0-only
/*
 * spritz_egress under BPF_PROG_TEST_RUN (Documentation/datapath.rst):
 *
 *  - a fixture table: each case is a packet (spec + optional mutation),
 *    the expected result (byte-identical, EV in the flow label, EV in the
 *    UDP source port with a valid or still-zero checksum) and the statistics
 *    counters expected to move by one;
 *  - RoCEv2: the invariant CRC of a RoCEv2 packet still verifies after
 *    egress (the EV in the IPv6 flow label; IPv4 left alone), and forcing
 *    the port on over IPv4 breaks it (why it is not a default);
 *  - flow state after a send (ring record, snd_nxt, last EV), pure ACKs,
 *    GSO counting, the five algorithms' per-packet behaviour, the
 *    small-flow flag, and the module's per-path pick counter (draws again
 *    off a lost send's path included).
 *
 * Runs in the VM as root with spritz.ko inserted (with-module.sh).
 */

#include "datapath_util.h"
#include "test.h"

/* fixture tables: designated initializers, defaults by omission */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Woverride-init"

static struct spritz *skel;
static struct spritz_nl *nl;
static int prog;

enum expect {
	EXP_SAME,     /* byte-identical */
	EXP_LABEL,    /* flow label = ev, all else identical */
	EXP_LABEL_D2, /* flow label one of ev_d2[], all else identical */
	EXP_SPORT,    /* UDP source port = ev, checksum updated and valid */
	EXP_SPORT0,   /* UDP source port = ev, checksum still 0 */
};

struct eg_case {
	const char *name;
	struct spec s;
	void (*mutate)(struct pkt *p, const struct spec *s);
	enum expect exp;
	uint16_t ev;
	size_t stat1, stat2; /* counters expected to grow by 1 (0: none) */
	uint32_t gso_segs;
};

/* ------------------------------------------------------------- mutations */

static void m_arp(struct pkt *p, const struct spec *s)
{
	put16(p->b + 12, 0x0806);
}

/*
 * Cut inside the IPv6 header.  Behind a VLAN tag: BPF_PROG_TEST_RUN itself
 * refuses an untagged IPv6 ethertype shorter than an IPv6 header.
 */
static void m_vlan_eth_only(struct pkt *p, const struct spec *s)
{
	p->len = 18;
}

static void m_cut_ip6(struct pkt *p, const struct spec *s)
{
	p->len = 18 + 30;
}

static void m_cut_tcp(struct pkt *p, const struct spec *s)
{
	p->len = pkt_l4(s) + 10; /* payload_len now lies as well */
}

static void m_cut_vlan(struct pkt *p, const struct spec *s)
{
	p->len = 16;
}

static void m_ip6_version(struct pkt *p, const struct spec *s)
{
	p->b[pkt_l3(s)] = (p->b[pkt_l3(s)] & 0x0f) | 0x40;
}

static void m_ip6_plen_big(struct pkt *p, const struct spec *s)
{
	put16(p->b + pkt_l3(s) + 4, get16(p->b + pkt_l3(s) + 4) + 200);
}

static void m_tcp_doff_small(struct pkt *p, const struct spec *s)
{
	p->b[pkt_l4(s) + 12] = 4 << 4;
}

static void m_tcp_doff_big(struct pkt *p, const struct spec *s)
{
	p->b[pkt_l4(s) + 12] = 15 << 4; /* 60 bytes, segment has 20 */
}

static void m_ip4_ihl_small(struct pkt *p, const struct spec *s)
{
	p->b[pkt_l3(s)] = 0x44;
}

static void m_ip4_totlen_big(struct pkt *p, const struct spec *s)
{
	put16(p->b + pkt_l3(s) + 2, 1400);
}

static void m_udp_len_big(struct pkt *p, const struct spec *s)
{
	put16(p->b + pkt_l4(s) + 4, 1000);
}

static void m_ip4_version6(struct pkt *p, const struct spec *s)
{
	p->b[pkt_l3(s)] = 0x65;
}

static void m_jumbo_small(struct pkt *p, const struct spec *s)
{
	pkt_hbh_jumbo(p, s, 0, 0xc2, p->len + 8 - pkt_l4(s)); /* the true length, < 64 KiB */
}

static void m_jumbo_plen(struct pkt *p, const struct spec *s)
{
	pkt_hbh_jumbo(p, s, p->len + 8 - pkt_l4(s), 0xc2, 70000);
}

static void m_jumbo_beyond(struct pkt *p, const struct spec *s)
{
	pkt_hbh_jumbo(p, s, 0, 0xc2, 70000); /* more than the packet holds */
}

static void m_hbh_other(struct pkt *p, const struct spec *s)
{
	pkt_hbh_jumbo(p, s, p->len + 8 - pkt_l4(s), 0x05, 0); /* router alert */
}

/* ----------------------------------------------------------------- table */

#define TCP6(...) { .flags = 0x18, .paylen = 100, .seq = 1000, __VA_ARGS__ }
#define UDP6(...) { .proto = 17, .paylen = 50, __VA_ARGS__ }
#define UDP4(...) { .v4 = 1, .proto = 17, .paylen = 50, __VA_ARGS__ }

static const struct eg_case cases[] = {
	/* managed: IPv6 TCP -> flow label */
	{ "tcp6_data", TCP6(), NULL, EXP_LABEL, EV_D1, SOFF(eg_managed_tcp), SOFF(picks) },
	{ "tcp6_tclass_label_kept", TCP6(.tclass = 0xb8, .flowlabel = 0xabcde), NULL, EXP_LABEL,
	  EV_D1, SOFF(eg_rewrites), SOFF(eg_flows_new) },
	{ "tcp6_vlan", TCP6(.vlans = 1), NULL, EXP_LABEL, EV_D1, SOFF(eg_managed_tcp) },
	{ "tcp6_qinq", TCP6(.vlans = 2), NULL, EXP_LABEL, EV_D1, SOFF(eg_managed_tcp) },
	{ "tcp6_syn", { .flags = 0x02, .seq = 77 }, NULL, EXP_LABEL, EV_D1, SOFF(eg_rewrites) },
	{ "tcp6_fin_data", TCP6(.flags = 0x19), NULL, EXP_LABEL, EV_D1, SOFF(eg_rewrites),
	  SOFF(eg_flows_new) },
	/* control segments of a flow without state: untouched, none created */
	{ "tcp6_fin_first", { .flags = 0x11, .seq = 77 }, NULL, EXP_SAME, 0, SOFF(eg_ctl_no_flow) },
	{ "tcp6_synack_first", { .flags = 0x12, .seq = 77 }, NULL, EXP_SAME, 0,
	  SOFF(eg_ctl_no_flow) },
	{ "tcp6_rst_first", { .flags = 0x04, .seq = 77 }, NULL, EXP_SAME, 0, SOFF(eg_ctl_no_flow) },
	{ "tcp6_rst_ack_first", { .flags = 0x14, .seq = 77 }, NULL, EXP_SAME, 0,
	  SOFF(eg_ctl_no_flow) },
	{ "tcp6_rst_data_first", TCP6(.flags = 0x14), NULL, EXP_SAME, 0, SOFF(eg_ctl_no_flow) },
	{ "tcp6_options",
	  TCP6(.opts = (const uint8_t *)"\x01\x01\x08\x0a\x00\x00\x00\x01\x00\x00\x00\x02",
	       .optlen = 12),
	  NULL, EXP_LABEL, EV_D1, SOFF(eg_rewrites) },
	{ "tcp6_multipath", TCP6(.dst = DST2_6), NULL, EXP_LABEL_D2, 0, SOFF(dec_sample),
	  SOFF(picks) },
	{ "tcp6_gso", TCP6(.paylen = 300), NULL, EXP_LABEL, EV_D1, SOFF(eg_rewrites), 0, 4 },
	{ "tcp6_no_table_list", TCP6(.dst = DST9_6), NULL, EXP_SAME, 0, SOFF(eg_unsteered),
	  SOFF(pick_fail) },
	{ "tcp6_pure_ack_first", { .flags = 0x10 }, NULL, EXP_SAME, 0, SOFF(eg_ctl_no_flow) },
	/* managed: UDP carriers -> source port */
	{ "udp6_vxlan", UDP6(), NULL, EXP_SPORT, EV_D1, SOFF(eg_managed_udp), SOFF(eg_rewrites) },
	{ "udp6_geneve", UDP6(.dport = SPRITZ_UDP_PORT_GENEVE), NULL, EXP_SPORT, EV_D1, SOFF(eg_managed_udp) },
	{ "udp6_rocev2", UDP6(.dport = SPRITZ_UDP_PORT_ROCEV2), NULL, EXP_LABEL, EV_D1,
	  SOFF(eg_managed_udp) },
	{ "udp6_uet", UDP6(.dport = SPRITZ_UDP_PORT_UET), NULL, EXP_SPORT, EV_D1, SOFF(eg_managed_udp) },
	{ "udp6_zero_csum", UDP6(.udp_zero_csum = 1), NULL, EXP_SPORT0, EV_D1,
	  SOFF(eg_managed_udp) },
	{ "udp6_multipath", UDP6(.dst = DST2_6), NULL, EXP_SPORT, 0xffff, SOFF(picks) },
	{ "udp4_vxlan", UDP4(), NULL, EXP_SPORT, EV_D1, SOFF(eg_managed_udp) },
	{ "udp4_vxlan_vlan", UDP4(.vlans = 1), NULL, EXP_SPORT, EV_D1, SOFF(eg_managed_udp) },
	{ "udp4_ip_options", UDP4(.ip4_optwords = 3), NULL, EXP_SPORT, EV_D1,
	  SOFF(eg_managed_udp) },
	{ "udp4_zero_csum", UDP4(.udp_zero_csum = 1), NULL, EXP_SPORT0, EV_D1,
	  SOFF(eg_managed_udp) },
	{ "udp4_sport_is_ev", UDP4(.sport = EV_D1), NULL, EXP_SPORT, EV_D1, SOFF(eg_rewrites) },
	/* unmanaged: byte-identical */
	{ "arp", TCP6(), m_arp, EXP_SAME, 0, SOFF(un_not_ip) },
	{ "icmp6", { .proto = 58, .paylen = 20 }, NULL, EXP_SAME, 0, SOFF(un_proto) },
	{ "icmp4", { .v4 = 1, .proto = 1, .paylen = 20 }, NULL, EXP_SAME, 0, SOFF(un_proto) },
	{ "ip6_hop_by_hop", { .hbh = 1, .paylen = 40 }, NULL, EXP_SAME, 0, SOFF(un_proto) },
	{ "ip6_jumbo_below_64k", TCP6(), m_jumbo_small, EXP_SAME, 0, SOFF(un_proto) },
	{ "ip6_jumbo_with_plen", TCP6(), m_jumbo_plen, EXP_SAME, 0, SOFF(un_proto) },
	{ "ip6_jumbo_beyond_packet", TCP6(), m_jumbo_beyond, EXP_SAME, 0, SOFF(un_proto) },
	{ "ip6_hbh_router_alert", TCP6(), m_hbh_other, EXP_SAME, 0, SOFF(un_proto) },
	{ "ip6_routing", { .proto = 43, .paylen = 40 }, NULL, EXP_SAME, 0, SOFF(un_proto) },
	{ "ip6_fragment", { .proto = 44, .paylen = 40 }, NULL, EXP_SAME, 0, SOFF(un_proto) },
	{ "ip4_fragment_udp", UDP4(.frag = 1), NULL, EXP_SAME, 0, SOFF(un_fragment) },
	{ "tcp4", { .v4 = 1, .paylen = 100, .flags = 0x18 }, NULL, EXP_SAME, 0, SOFF(un_tcp4) },
	{ "tcp6_unknown_dst", TCP6(.dst = UNKNOWN6), NULL, EXP_SAME, 0, SOFF(un_no_dest) },
	{ "udp6_other_port", UDP6(.dport = 53), NULL, EXP_SAME, 0, SOFF(un_udp_port) },
	{ "udp4_rocev2", UDP4(.dport = SPRITZ_UDP_PORT_ROCEV2), NULL, EXP_SAME, 0,
	  SOFF(un_udp_port) },
	{ "udp4_unknown_dst", UDP4(.dst = UNKNOWN4), NULL, EXP_SAME, 0, SOFF(un_no_dest) },
	{ "vlan_eth_only", TCP6(.vlans = 1), m_vlan_eth_only, EXP_SAME, 0, SOFF(un_malformed) },
	{ "vlan_cut", TCP6(.vlans = 1), m_cut_vlan, EXP_SAME, 0, SOFF(un_malformed) },
	{ "ip6_cut", TCP6(.vlans = 1), m_cut_ip6, EXP_SAME, 0, SOFF(un_malformed) },
	{ "tcp_cut", TCP6(), m_cut_tcp, EXP_SAME, 0, SOFF(un_malformed) },
	{ "ip6_bad_version", TCP6(), m_ip6_version, EXP_SAME, 0, SOFF(un_malformed) },
	{ "ip6_plen_too_big", TCP6(), m_ip6_plen_big, EXP_SAME, 0, SOFF(un_malformed) },
	{ "tcp_doff_small", TCP6(), m_tcp_doff_small, EXP_SAME, 0, SOFF(un_malformed) },
	{ "tcp_doff_beyond", { .flags = 0x10 }, m_tcp_doff_big, EXP_SAME, 0, SOFF(un_malformed) },
	{ "ip4_ihl_small", UDP4(), m_ip4_ihl_small, EXP_SAME, 0, SOFF(un_malformed) },
	{ "ip4_totlen_too_big", UDP4(), m_ip4_totlen_big, EXP_SAME, 0, SOFF(un_malformed) },
	{ "ip4_bad_version", UDP4(), m_ip4_version6, EXP_SAME, 0, SOFF(un_malformed) },
	{ "udp_len_too_big", UDP6(), m_udp_len_big, EXP_SAME, 0, SOFF(un_malformed) },
};

#define NCASES (ARRAY_SIZE(cases))

/* ----------------------------------------------------------------- tests */

static void test_load(void)
{
	skel = dp_open_load();
	if (!ASSERT_OK_PTR(skel, "load spritz.bpf.o (needs spritz.ko)"))
		return;
	prog = bpf_program__fd(skel->progs.spritz_egress);
	ASSERT_OK(dp_dir_fill(skel), "directory");
	ASSERT_OK(dp_load_table(&nl), "table");
	ASSERT_OK(knob_set_str("algorithm", "scout"), "algorithm scout");
}

static bool in_d2(uint16_t ev)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		if (ev_d2[i] == ev)
			return true;
	return false;
}

static void run_case(const struct eg_case *c)
{
	struct spritz_stats st0, st1;
	struct pkt in, out, want;
	uint32_t ret = 0;
	size_t l3, l4;
	uint32_t ev = 0;
	char what[160];

	dp_reset(skel);
	pkt_build(&in, &c->s);
	if (c->mutate)
		c->mutate(&in, &c->s);
	want = in;
	l3 = pkt_l3(&c->s);
	l4 = pkt_l4(&c->s);
	dp_stats(skel, &st0);
	snprintf(what, sizeof(what), "%s: test run", c->name);
	if (!ASSERT_OK(dp_run(prog, &in, &out, &ret, c->gso_segs), what))
		return;
	dp_stats(skel, &st1);
	snprintf(what, sizeof(what), "%s: retval TC_ACT_UNSPEC", c->name);
	ASSERT_EQ(ret, RET_NEXT, what);
	snprintf(what, sizeof(what), "%s: length", c->name);
	if (!ASSERT_EQ(out.len, in.len, what))
		return;

	switch (c->exp) {
	case EXP_SAME:
		break;
	case EXP_LABEL:
	case EXP_LABEL_D2:
		ev = get32(out.b + l3) & 0xfffff;
		snprintf(what, sizeof(what), "%s: flow label = EV (bits 16-19 zero)", c->name);
		if (c->exp == EXP_LABEL)
			ASSERT_EQ(ev, c->ev, what);
		else
			ASSERT_TRUE(ev < 0x10000 && in_d2(ev), what);
		put32(want.b + l3, (get32(in.b + l3) & 0xfff00000) | ev);
		break;
	case EXP_SPORT:
	case EXP_SPORT0:
		ev = get16(out.b + l4);
		snprintf(what, sizeof(what), "%s: source port = EV", c->name);
		if (c->ev == 0xffff)
			ASSERT_TRUE(in_d2(ev), what);
		else
			ASSERT_EQ(ev, c->ev, what);
		put16(want.b + l4, ev);
		if (c->exp == EXP_SPORT0) {
			snprintf(what, sizeof(what), "%s: checksum stays 0", c->name);
			ASSERT_EQ(get16(out.b + l4 + 6), 0, what);
		} else {
			uint16_t ck;

			put16(want.b + l4 + 6, 0);
			ck = spritz_l4_csum(c->s.v4, want.b + l3, 17, want.b + l4, get16(want.b + l4 + 4));
			put16(want.b + l4 + 6, ck ? ck : 0xffff);
			snprintf(what, sizeof(what), "%s: checksum valid", c->name);
			ASSERT_EQ(pkt_csum_ok(out.b, out.len), 1, what);
		}
		break;
	}
	snprintf(what, sizeof(what), "%s: output bytes", c->name);
	ASSERT_MEMEQ(out.b, want.b, in.len, what);

	/* counters: the named ones grew by exactly one (GSO: segs) */
	if (c->stat1) {
		snprintf(what, sizeof(what), "%s: counter +1 (offset %zu)", c->name, c->stat1);
		ASSERT_EQ(STAT(&st1, c->stat1) - STAT(&st0, c->stat1), 1, what);
	}
	if (c->stat2) {
		snprintf(what, sizeof(what), "%s: counter +1 (offset %zu)", c->name, c->stat2);
		ASSERT_EQ(STAT(&st1, c->stat2) - STAT(&st0, c->stat2), 1, what);
	}
	snprintf(what, sizeof(what), "%s: egress packets +1", c->name);
	ASSERT_EQ(st1.eg_packets - st0.eg_packets, 1, what);
	snprintf(what, sizeof(what), "%s: rewrites", c->name);
	ASSERT_EQ(st1.eg_rewrites - st0.eg_rewrites, c->exp == EXP_SAME ? 0 : 1, what);
	if (c->gso_segs) {
		snprintf(what, sizeof(what), "%s: segments counted", c->name);
		ASSERT_EQ(st1.eg_segs - st0.eg_segs, c->gso_segs, what);
	}
	/* unmanaged packets leave no state behind */
	if (c->exp == EXP_SAME && !c->stat2 && c->stat1 != SOFF(eg_unsteered)) {
		snprintf(what, sizeof(what), "%s: no flow state", c->name);
		ASSERT_EQ(dp_flows(skel, 0), 0, what);
	}
}

static void test_fixtures(void)
{
	size_t i;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	for (i = 0; i < NCASES; i++)
		run_case(&cases[i]);
	printf("# %zu fixture cases\n", NCASES);
}

/* ---------------------------------------------------------------- RoCEv2 */

/* CRC-32 (IEEE 802.3, reflected), bitwise: a test oracle, not a fast path. */
static uint32_t crc32_ieee(uint32_t crc, const uint8_t *p, size_t n)
{
	int k;

	while (n--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320U & -(crc & 1));
	}
	return crc;
}

/*
 * The RoCEv2 invariant CRC of the packet at @l3 (IP header to the end of
 * the UDP payload before the ICRC, @len bytes), as IBA Annex A17.3.3
 * defines it and rdma_rxe computes it: CRC-32 over 64 bits of ones, then
 * the headers with the fields routers may change masked to ones - IPv4
 * TOS, TTL and header checksum; IPv6 traffic class, flow label and hop
 * limit; the UDP checksum; the BTH's reserved byte - then the payload.
 */
static uint32_t rocev2_icrc(const uint8_t *l3, size_t len, int v4)
{
	uint8_t m[8 + PKT_MAX];
	size_t ihl = v4 ? (size_t)(l3[0] & 0xf) * 4 : 40;

	memset(m, 0xff, 8);
	memcpy(m + 8, l3, len);
	if (v4) {
		m[8 + 1] = 0xff;
		m[8 + 8] = 0xff;
		m[8 + 10] = m[8 + 11] = 0xff;
	} else {
		m[8] |= 0x0f;
		m[8 + 1] = m[8 + 2] = m[8 + 3] = 0xff;
		m[8 + 7] = 0xff;
	}
	m[8 + ihl + 6] = m[8 + ihl + 7] = 0xff; /* UDP checksum */
	m[8 + ihl + 8 + 4] = 0xff;		  /* BTH reserved byte */
	return ~crc32_ieee(0xffffffffU, m, len + 8);
}

/* A RoCEv2 packet: BTH, payload and a valid ICRC, UDP checksum fixed up. */
static void rocev2_build(struct pkt *p, const struct spec *s)
{
	size_t l3 = pkt_l3(s), l4 = pkt_l4(s), end = l4 + 8 + s->paylen;
	uint32_t icrc;
	uint16_t ck;

	pkt_build(p, s);
	p->b[l4 + 8] = 0x04;			/* BTH opcode: RC SEND only */
	put32(p->b + l4 + 8 + 4, 0x00000011);	/* destination QP */
	icrc = rocev2_icrc(p->b + l3, end - 4 - l3, s->v4);
	memcpy(p->b + end - 4, &icrc, 4);	/* little-endian, as rxe stores it */
	put16(p->b + l4 + 6, 0);
	ck = spritz_l4_csum(s->v4, p->b + l3, 17, p->b + l4, get16(p->b + l4 + 4));
	put16(p->b + l4 + 6, ck ? ck : 0xffff);
}

/* Whether the ICRC at the end of the UDP payload matches the packet. */
static bool rocev2_icrc_ok(const struct pkt *p, const struct spec *s)
{
	size_t l3 = pkt_l3(s), end = pkt_l4(s) + 8 + s->paylen;
	uint32_t icrc = rocev2_icrc(p->b + l3, end - 4 - l3, s->v4);

	return !memcmp(p->b + end - 4, &icrc, 4);
}

struct roce_case {
	const char *name;
	int v4;
	uint32_t mode;	/* spritz_udp entry of port 4791 */
	enum expect exp;
	size_t stat;	/* counter expected to grow by 1 */
	bool icrc_ok;	/* the ICRC still verifies after egress */
};

static const struct roce_case roce_cases[] = {
	{ "rocev2_ip6", 0, SPRITZ_UDP_DEFAULT, EXP_LABEL, SOFF(eg_managed_udp), true },
	{ "rocev2_ip4", 1, SPRITZ_UDP_DEFAULT, EXP_SAME, SOFF(un_udp_port), true },
	{ "rocev2_ip6_on", 0, SPRITZ_UDP_ON, EXP_LABEL, SOFF(eg_managed_udp), true },
	{ "rocev2_ip4_off", 1, SPRITZ_UDP_OFF, EXP_SAME, SOFF(un_udp_port), true },
	/* forced on over IPv4: the source port changes and the ICRC breaks */
	{ "rocev2_ip4_on", 1, SPRITZ_UDP_ON, EXP_SPORT, SOFF(eg_managed_udp), false },
};

static void run_roce_case(const struct roce_case *c)
{
	struct spec s = { .v4 = c->v4, .proto = 17, .sport = 49152,
			  .dport = SPRITZ_UDP_PORT_ROCEV2, .paylen = 12 + 32 + 4 };
	struct spritz_udp_port mode = { .mode = c->mode };
	uint32_t port = SPRITZ_UDP_PORT_ROCEV2, ret = 0;
	int ufd = bpf_map__fd(skel->maps.spritz_udp);
	size_t l3 = pkt_l3(&s), l4 = pkt_l4(&s);
	struct spritz_stats st0, st1;
	struct pkt in, out;
	char what[160];

	dp_reset(skel);
	rocev2_build(&in, &s);
	snprintf(what, sizeof(what), "%s: input ICRC valid", c->name);
	ASSERT_TRUE(rocev2_icrc_ok(&in, &s), what);
	snprintf(what, sizeof(what), "%s: port mode", c->name);
	if (!ASSERT_OK(bpf_map_update_elem(ufd, &port, &mode, BPF_ANY), what))
		return;
	dp_stats(skel, &st0);
	snprintf(what, sizeof(what), "%s: test run", c->name);
	ASSERT_OK(dp_run(prog, &in, &out, &ret, 0), what);
	dp_stats(skel, &st1);
	mode.mode = SPRITZ_UDP_DEFAULT;
	bpf_map_update_elem(ufd, &port, &mode, BPF_ANY);

	snprintf(what, sizeof(what), "%s: length", c->name);
	if (!ASSERT_EQ(out.len, in.len, what))
		return;
	snprintf(what, sizeof(what), "%s: flow label", c->name);
	ASSERT_EQ(get32(out.b + l3) & 0xfffff,
		  c->exp == EXP_LABEL ? EV_D1 : get32(in.b + l3) & 0xfffff, what);
	snprintf(what, sizeof(what), "%s: source port", c->name);
	ASSERT_EQ(get16(out.b + l4), c->exp == EXP_SPORT ? EV_D1 : get16(in.b + l4), what);
	snprintf(what, sizeof(what), "%s: UDP checksum valid", c->name);
	ASSERT_EQ(pkt_csum_ok(out.b, out.len), 1, what);
	snprintf(what, sizeof(what), "%s: ICRC %s", c->name, c->icrc_ok ? "valid" : "broken");
	ASSERT_EQ(rocev2_icrc_ok(&out, &s), c->icrc_ok, what);
	snprintf(what, sizeof(what), "%s: counter +1 (offset %zu)", c->name, c->stat);
	ASSERT_EQ(STAT(&st1, c->stat) - STAT(&st0, c->stat), 1, what);
}

static void test_rocev2(void)
{
	size_t i;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	for (i = 0; i < ARRAY_SIZE(roce_cases); i++)
		run_roce_case(&roce_cases[i]);
}

/* A data send leaves a ring record, snd_nxt and the last EV. */
static void test_flow_state(void)
{
	struct spec s = TCP6(.seq = 5000, .paylen = 200);
	struct spritz_flow f;
	struct pkt in, out;
	uint32_t ret;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	dp_reset(skel);
	pkt_build(&in, &s);
	ASSERT_OK(dp_run(prog, &in, &out, &ret, 3), "run");
	if (!ASSERT_OK(dp_flow(skel, &s, &f), "flow exists"))
		return;
	ASSERT_EQ(f.dst_switch, 1, "dst switch from the directory");
	ASSERT_EQ(f.fb.snd_nxt, 5200, "snd_nxt");
	ASSERT_EQ(f.fb.ring_head, 1, "one record");
	ASSERT_EQ(f.fb.ring[0].state, SPRITZ_IF_PENDING, "pending");
	ASSERT_EQ(f.fb.ring[0].start_seq, 5000, "start");
	ASSERT_EQ(f.fb.ring[0].end_seq, 5200, "end");
	ASSERT_EQ(f.fb.ring[0].ev, EV_D1, "ev");
	ASSERT_EQ(f.fb.ring[0].segs, 3, "segs");
	ASSERT_EQ(f.last_ev, EV_D1, "last ev");
	ASSERT_EQ(f.packets, 3, "GSO segments counted as packets");
	ASSERT_EQ(f.bytes_sent, in.len, "bytes");
	/* Scout: packet_count grew by the segments (Alg. 1 line 6) */
	ASSERT_EQ(f.lb.packet_count, 3, "packet_count += segs");

	/* a pure ACK afterwards carries the last EV, no decision, no record */
	s = (struct spec){ .flags = 0x10, .seq = 5200, .flowlabel = 0x12345 };
	pkt_build(&in, &s);
	ASSERT_OK(dp_run(prog, &in, &out, &ret, 0), "run ack");
	ASSERT_EQ(get32(out.b + 14) & 0xfffff, EV_D1, "pure ACK label = last EV");
	ASSERT_OK(dp_flow(skel, &s, &f), "flow");
	ASSERT_EQ(f.fb.ring_head, 1, "no record for a pure ACK");
}

/*
 * Flow table (include/spritz/flowtab.h): six TCP flows to switch 1 whose
 * keys fall in one set of SPRITZ_FLOW_WAYS ways, under the keys the loader
 * drew.  Each row sends one packet of a flow (data, SYN or pure ACK) and
 * asserts which of the six flows have state after, and with how many
 * packets: who is evicted when the set is full, and who is not.
 */
#define FT_FLOWS (SPRITZ_FLOW_WAYS + 2)

struct ft_row {
	const char *name;
	int flow;		  /* which of the FT_FLOWS */
	uint8_t flags;		  /* TCP flags (0: ACK|PSH, data) */
	int new;		  /* eg_flows_new delta */
	int evict;		  /* eg_flow_evict delta */
	int ctl_no_flow;	  /* eg_ctl_no_flow delta */
	int packets[FT_FLOWS];	  /* each flow's packets after; 0: no state */
};

static const struct ft_row ft_rows[] = {
	{ "data 0 takes a free way", 0, 0, 1, 0, 0, { 1 } },
	{ "data 1", 1, 0, 1, 0, 0, { 1, 1 } },
	{ "data 2", 2, 0, 1, 0, 0, { 1, 1, 1 } },
	{ "SYN 3 takes the last way", 3, 0x02, 1, 0, 0, { 1, 1, 1, 1 } },
	{ "data 0 again: found, not new", 0, 0, 0, 0, 0, { 2, 1, 1, 1 } },
	{ "pure ACK of 4, set full: no state", 4, 0x10, 0, 0, 1, { 2, 1, 1, 1 } },
	{ "data 4: evicts SYN-only 3, not a sender", 4, 0, 1, 1, 0, { 2, 1, 1, 0, 1 } },
	{ "data 5: evicts 1, least recently sent", 5, 0, 1, 1, 0, { 2, 0, 1, 0, 1, 1 } },
	{ "data 1 again: a new state, evicts 2", 1, 0, 1, 1, 0, { 2, 1, 0, 0, 1, 1 } },
	{ "data 0 again: kept all along", 0, 0, 0, 0, 0, { 3, 1, 0, 0, 1, 1 } },
};

/* FT_FLOWS source ports to DST1_6:5201 whose keys share one set. */
static int ft_ports(uint16_t *ports)
{
	static uint8_t count[SPRITZ_FLOW_SETS];
	struct spritz_flow_key k = { 0 };
	uint32_t set = SPRITZ_FLOW_SETS, p;
	int n = 0;

	inet_pton(AF_INET6, LOCAL6, k.saddr);
	inet_pton(AF_INET6, DST1_6, k.daddr);
	k.dport = 5201;
	k.proto = 6;
	/* about 4 of the 65535 ports per set: the first set with FT_FLOWS */
	for (p = 1; p <= 0xffff && set == SPRITZ_FLOW_SETS; p++) {
		uint32_t s;

		k.sport = (uint16_t)p;
		s = spritz_flow_set(&k, &skel->rodata->spritz_flow_hashkey) / SPRITZ_FLOW_WAYS;
		if (++count[s] == FT_FLOWS)
			set = s;
	}
	for (p = 1; p <= 0xffff && n < FT_FLOWS; p++) {
		k.sport = (uint16_t)p;
		if (spritz_flow_set(&k, &skel->rodata->spritz_flow_hashkey) / SPRITZ_FLOW_WAYS == set)
			ports[n++] = (uint16_t)p;
	}
	return n;
}

static void test_flow_table(void)
{
	struct spritz_stats st0, st1;
	uint16_t ports[FT_FLOWS];
	struct spritz_flow f;
	struct pkt in, out;
	char what[160];
	uint32_t ret;
	size_t r;
	int i;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	if (!ASSERT_EQ(ft_ports(ports), FT_FLOWS, "ports of one set"))
		return;
	dp_reset(skel);
	for (r = 0; r < ARRAY_SIZE(ft_rows); r++) {
		const struct ft_row *c = &ft_rows[r];
		struct spec s = TCP6(.sport = ports[c->flow], .seq = 1000 + 100 * (uint32_t)r);

		if (c->flags)
			s.flags = c->flags, s.paylen = 0;
		pkt_build(&in, &s);
		dp_stats(skel, &st0);
		snprintf(what, sizeof(what), "%s: run", c->name);
		ASSERT_OK(dp_run(prog, &in, &out, &ret, 0), what);
		dp_stats(skel, &st1);
		snprintf(what, sizeof(what), "%s: flows new", c->name);
		ASSERT_EQ(st1.eg_flows_new - st0.eg_flows_new, c->new, what);
		snprintf(what, sizeof(what), "%s: flows evicted", c->name);
		ASSERT_EQ(st1.eg_flow_evict - st0.eg_flow_evict, c->evict, what);
		snprintf(what, sizeof(what), "%s: control segment without state", c->name);
		ASSERT_EQ(st1.eg_ctl_no_flow - st0.eg_ctl_no_flow, c->ctl_no_flow, what);
		for (i = 0; i < FT_FLOWS; i++) {
			struct spec q = TCP6(.sport = ports[i]);
			int have = !dp_flow(skel, &q, &f);

			snprintf(what, sizeof(what), "%s: flow %d packets", c->name, i);
			ASSERT_EQ(have ? (int)f.packets : 0, c->packets[i], what);
		}
		snprintf(what, sizeof(what), "%s: flows in the table", c->name);
		ASSERT_EQ(dp_flows(skel, 0), 4 - (r < 3 ? 3 - (int)r : 0), what);
	}
}

/* Send @n data packets to switch 2, return the EVs in @evs. */
static void send_d2(int n, uint16_t *evs, struct spritz_stats *d)
{
	struct spritz_stats a, b;
	struct pkt in, out;
	uint32_t ret;
	int i;

	dp_stats(skel, &a);
	for (i = 0; i < n; i++) {
		struct spec s = TCP6(.dst = DST2_6, .seq = 1000 + 100 * i);

		pkt_build(&in, &s);
		dp_run(prog, &in, &out, &ret, 0);
		evs[i] = get32(out.b + 14) & 0xfffff;
	}
	dp_stats(skel, &b);
	for (i = 0; i < (int)(sizeof(a) / sizeof(__u64)); i++)
		((__u64 *)d)[i] = ((__u64 *)&b)[i] - ((__u64 *)&a)[i];
}

static int distinct(const uint16_t *evs, int n)
{
	int i, j, k = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i && evs[j] != evs[i]; j++)
			;
		k += j == i;
	}
	return k;
}

/* The five algorithms, without feedback, per packet. */
static void test_algorithms(void)
{
	struct spritz_stats d;
	uint16_t evs[64];
	int i;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	/* Scout without feedback: buffer empty, every packet samples */
	dp_reset(skel);
	ASSERT_OK(knob_set_str("algorithm", "scout"), "scout");
	send_d2(64, evs, &d);
	ASSERT_EQ(d.dec_sample, 64, "scout: all samples");
	ASSERT_EQ(d.picks, 64, "scout: all picked");
	ASSERT_GT(distinct(evs, 64), 1, "scout: several EVs");
	for (i = 0; i < 64; i++)
		if (!ASSERT_TRUE(in_d2(evs[i]), "scout: EV of the table"))
			break;
	/* OPS: every packet samples */
	dp_reset(skel);
	ASSERT_OK(knob_set_str("algorithm", "ops"), "ops");
	send_d2(64, evs, &d);
	ASSERT_EQ(d.dec_sample, 64, "ops: all samples");
	ASSERT_GT(distinct(evs, 64), 1, "ops: several EVs");
	/* ECMP: one sample, then the same EV */
	dp_reset(skel);
	ASSERT_OK(knob_set_str("algorithm", "ecmp"), "ecmp");
	send_d2(64, evs, &d);
	ASSERT_EQ(d.dec_sample, 1, "ecmp: one sample");
	ASSERT_EQ(d.dec_use_ev, 63, "ecmp: then current");
	ASSERT_EQ(distinct(evs, 64), 1, "ecmp: one EV");
	ASSERT_EQ(d.pick_small_flow, 0, "ecmp: uniform, no small-flow bias");
	/* Flicr: one EV per flowlet */
	dp_reset(skel);
	ASSERT_OK(knob_set_str("algorithm", "flicr"), "flicr");
	ASSERT_OK(knob_set("flowlet_gap_us", 10000000), "gap 10 s");
	send_d2(32, evs, &d);
	ASSERT_EQ(d.dec_sample, 1, "flicr: one sample within the flowlet");
	ASSERT_EQ(distinct(evs, 32), 1, "flicr: one EV");
	skel->bss->spritz_clock_offset_ns = 11ULL * 1000000000;
	send_d2(1, evs, &d);
	ASSERT_EQ(d.dec_sample, 1, "flicr: idle gap -> new flowlet sample");
	ASSERT_OK(knob_set("flowlet_gap_us", SPRITZ_DEF_FLOWLET_GAP_US), "gap default");
	/* Spray without feedback: like Scout */
	dp_reset(skel);
	ASSERT_OK(knob_set_str("algorithm", "spray"), "spray");
	send_d2(16, evs, &d);
	ASSERT_EQ(d.dec_sample, 16, "spray: all samples");
	ASSERT_OK(knob_set_str("algorithm", "scout"), "back to scout");
}

/*
 * A new connection on the ports of a flow that sent data (a client's port
 * taken again) is judged by its own size: its SYN, and its data below
 * small_flow_bytes, carry the small-flow flag, and the SYN is no SYN sent
 * again; that SYN's retransmission is one, drawn uniformly (no flag), and
 * starts the count again.  small_flow_bytes is set between one data
 * packet and a SYN plus one.
 */
static void test_small_flow_reconnect(void)
{
	static const struct {
		const char *name;
		uint8_t flags;
		int paylen, small;
	} rows[] = {
		{ "data 1: below the bound", 0x18, 100, 1 },
		{ "data 2: above it", 0x18, 100, 0 },
		{ "data 3", 0x18, 100, 0 },
		{ "SYN on the ports: a new connection", 0x02, 0, 1 },
		{ "the SYN sent again: uniform", 0x02, 0, 0 },
		{ "its data 1: SYN + data below the bound", 0x18, 100, 1 },
		{ "its data 2: above it", 0x18, 100, 0 },
	};
	struct spec syn = TCP6(.dst = DST2_6, .flags = 0x02, .paylen = 0);
	struct spec data = TCP6(.dst = DST2_6);
	struct spritz_stats a, b;
	struct pkt in, out;
	uint32_t ret, seq = 1000, bound;
	size_t i;

	pkt_build(&in, &syn);
	bound = in.len;
	pkt_build(&in, &data);
	bound += in.len + 1;
	dp_reset(skel);
	ASSERT_OK(knob_set("small_flow_bytes", bound), "small_flow_bytes: SYN + data + 1");
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct spec s = TCP6(.dst = DST2_6, .flags = rows[i].flags,
				     .paylen = rows[i].paylen, .seq = seq);

		if (rows[i].flags & 0x02)
			seq = 70000; /* the new connection's ISN, both times */
		s.seq = seq;
		seq += rows[i].paylen + !!(rows[i].flags & 0x02);
		pkt_build(&in, &s);
		dp_stats(skel, &a);
		dp_run(prog, &in, &out, &ret, 0);
		dp_stats(skel, &b);
		ASSERT_EQ(b.pick_small_flow - a.pick_small_flow, rows[i].small, rows[i].name);
		ASSERT_EQ(b.picks - a.picks, 1, rows[i].name);
	}
	ASSERT_OK(knob_set("small_flow_bytes", SPRITZ_DEF_SMALL_FLOW_BYTES), "restore");
}

/* Weighted picks of a new flow carry SPRITZ_PICK_SMALL_FLOW; uniform ones not. */
static void test_small_flow(void)
{
	struct spritz_stats d;
	uint16_t evs[8];

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	dp_reset(skel);
	send_d2(8, evs, &d);
	ASSERT_EQ(d.pick_small_flow, 8, "weighted: small-flow picks");
	dp_reset(skel);
	ASSERT_OK(knob_set("small_flow_bytes", 0), "small_flow_bytes 0");
	send_d2(8, evs, &d);
	ASSERT_EQ(d.pick_small_flow, 0, "small_flow_bytes 0: no bias");
	ASSERT_OK(knob_set("small_flow_bytes", SPRITZ_DEF_SMALL_FLOW_BYTES), "restore");
	dp_reset(skel);
	ASSERT_OK(knob_set("weighted", 0), "uniform");
	send_d2(8, evs, &d);
	ASSERT_EQ(d.pick_small_flow, 0, "uniform: no small-flow flag");
	ASSERT_OK(knob_set("weighted", 1), "weighted again");
	test_small_flow_reconnect();
}

/*
 * The module counts the picks of the path the program used: ten new
 * segments of a Scout flow with an empty buffer, ten picks; the same
 * segment again, a retransmission, asks for a pick that avoids the path
 * it was lost on (pick_avoid): D1 has one path, so that one, once.
 */
static void test_module_picks(void)
{
	struct spritz_nl_path p0 = { 0 }, p = { 0 };
	struct spritz_stats st0, st1;
	struct spec s = TCP6();
	struct pkt in, out;
	uint32_t ret;
	int i;

	if (!ASSERT_OK_PTR(skel, "skeleton") || !ASSERT_OK_PTR(nl, "netlink"))
		return;
	dp_reset(skel);
	ASSERT_OK(dump_path(nl, 1, EV_D1, &p0), "path EV_D1");
	for (i = 0; i < 10; i++) {
		s.seq = 1000 + 100 * i;
		pkt_build(&in, &s);
		dp_run(prog, &in, &out, &ret, 0);
	}
	if (!ASSERT_OK(dump_path(nl, 1, EV_D1, &p), "path EV_D1"))
		return;
	ASSERT_EQ(p.picks - p0.picks, 10, "10 picks (Scout, empty buffer)");
	p0 = p;
	dp_stats(skel, &st0);
	pkt_build(&in, &s);
	dp_run(prog, &in, &out, &ret, 0);
	dp_stats(skel, &st1);
	ASSERT_EQ(st1.pick_avoid - st0.pick_avoid, 1, "a retransmission: a pick avoiding EVs");
	if (ASSERT_OK(dump_path(nl, 1, EV_D1, &p), "path EV_D1"))
		ASSERT_EQ(p.picks - p0.picks, 1, "a retransmission: one pick, the only path");
}

/*
 * While the dead-path rule judges a suspect, a repair avoids the suspect's
 * path and new data may take it (spritz_fb_avoid(), SPRITZ_DECIDE_REPAIR):
 * a Spray flow to D2 (four paths) sends 1000, then 1000 again (TCP found
 * it lost: the suspect, whose EV the repair avoids), new data (nothing
 * avoided), then 1000 a third time (the suspect's EV and the first
 * repair's, now lost too, avoided).
 */
static void test_repair_avoid(void)
{
	static const struct {
		const char *what;
		__u32 seq;
		int avoid_picks; /* pick_avoid delta */
	} steps[] = {
		{ "new data", 1000, 0 },
		{ "first repair: the suspect's EV avoided", 1000, 1 },
		{ "new data: the suspect's EV allowed", 1100, 0 },
		{ "new data", 1200, 0 },
		{ "second repair: both lost EVs avoided", 1000, 1 },
	};
	struct spritz_stats st0, st1;
	uint16_t evs[ARRAY_SIZE(steps)];
	struct pkt in, out;
	uint32_t ret;
	size_t i;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	dp_reset(skel);
	ASSERT_OK(knob_set_str("algorithm", "spray"), "spray");
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		struct spec s = TCP6(.dst = DST2_6, .seq = steps[i].seq);

		dp_stats(skel, &st0);
		pkt_build(&in, &s);
		dp_run(prog, &in, &out, &ret, 0);
		dp_stats(skel, &st1);
		evs[i] = get32(out.b + 14) & 0xfffff;
		ASSERT_EQ(st1.pick_avoid - st0.pick_avoid, steps[i].avoid_picks, steps[i].what);
	}
	ASSERT_NEQ(evs[1], evs[0], "first repair: not on the suspect's EV");
	ASSERT_NEQ(evs[4], evs[0], "second repair: not on the suspect's EV");
	ASSERT_NEQ(evs[4], evs[1], "second repair: not on the first repair's EV");
	ASSERT_OK(knob_set_str("algorithm", "scout"), "back to scout");
}

/*
 * The source switch comes from the egress device (spritz_devs): a device
 * without an entry passes packets untouched; a flow keeps the source of the
 * device it started on.
 */
static void test_devices(void)
{
	struct spritz_dev_key k = { .ifindex = DP_TEST_IFINDEX };
	struct spritz_stats st0, st1;
	struct spec s = TCP6();
	struct spritz_flow f;
	struct pkt in, out;
	uint32_t ret;
	int fd;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	fd = bpf_map__fd(skel->maps.spritz_devs);
	dp_reset(skel);
	pkt_build(&in, &s);
	ASSERT_OK(bpf_map_delete_elem(fd, &k), "remove the device");
	dp_stats(skel, &st0);
	ASSERT_OK(dp_run(prog, &in, &out, &ret, 0), "run");
	dp_stats(skel, &st1);
	ASSERT_EQ(ret, (uint32_t)-1, "verdict: next");
	ASSERT_TRUE(out.len == in.len && !memcmp(out.b, in.b, in.len), "no device: byte-identical");
	ASSERT_EQ(st1.un_no_dev - st0.un_no_dev, 1, "un_no_dev +1");
	ASSERT_ERR(dp_flow(skel, &s, &f), "no flow state");

	/* switch 5 has no table: the flow is created on it and not steered */
	ASSERT_OK(dp_dev_add(skel, DP_TEST_IFINDEX, 5), "device on switch 5");
	dp_stats(skel, &st0);
	ASSERT_OK(dp_run(prog, &in, &out, &ret, 0), "run");
	dp_stats(skel, &st1);
	ASSERT_TRUE(out.len == in.len && !memcmp(out.b, in.b, in.len), "no table: byte-identical");
	ASSERT_EQ(st1.pick_fail - st0.pick_fail, 1, "pick fails for switch 5");
	if (ASSERT_OK(dp_flow(skel, &s, &f), "flow state"))
		ASSERT_EQ(f.src_switch, 5, "flow source = device's switch");

	/* back on switch 0: new flows are steered from its table */
	ASSERT_OK(dp_dev_add(skel, DP_TEST_IFINDEX, 0), "device on switch 0");
	dp_reset(skel);
	ASSERT_OK(dp_run(prog, &in, &out, &ret, 0), "run");
	ASSERT_EQ(get32(out.b + pkt_l3(&s)) & 0xfffff, EV_D1, "steered from switch 0's table");
	if (ASSERT_OK(dp_flow(skel, &s, &f), "flow state")) {
		ASSERT_EQ(f.src_switch, 0, "flow source");
		ASSERT_EQ(f.dst_switch, 1, "flow destination");
	}
}

static void test_destroy(void)
{
	dp_destroy(&skel, &nl);
}

static const struct test_case tests[] = {
	{ "load", test_load },
	{ "fixtures", test_fixtures },
	{ "rocev2", test_rocev2 },
	{ "flow_state", test_flow_state },
	{ "flow_table", test_flow_table },
	{ "algorithms", test_algorithms },
	{ "small_flow", test_small_flow },
	{ "module_picks", test_module_picks },
	{ "repair_avoid", test_repair_avoid },
	{ "devices", test_devices },
	{ "destroy", test_destroy },
};

TEST_MAIN(tests)
