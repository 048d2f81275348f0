// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz spritz_egress and spritz_ingress under BPF_PROG_TEST_RUN with random
 * and mutated packets (SPRITZ_FUZZ_N of them, default 20000; `make fuzz`
 * runs 10^6 on each kernel).  Every packet goes through both programs.
 * Checked for each one:
 *
 *  - the run succeeds (or BPF_PROG_TEST_RUN itself refuses to build the skb:
 *    an IPv4/IPv6 ethertype shorter than its IP header), the program
 *    returns TC_ACT_UNSPEC and the length is unchanged;
 *  - ingress: the packet is byte-identical;
 *  - egress without a rewrite (eg_rewrites did not move): byte-identical;
 *  - egress with a rewrite: the only bytes changed are the IPv6 flow label
 *    (TCP, RoCEv2; version and traffic class kept, label < 2^16) or the UDP
 *    source port and checksum (the other carriers), the result still parses, and if the input's L4 checksum
 *    was valid the output's is too.
 *
 * SPRITZ_FUZZ_SEED sets the seed (default: time); it is printed.
 */
#include <time.h>

#include "datapath_util.h"
#include "test.h"

#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

static struct spritz *skel;
static struct spritz_nl *nl;
static uint64_t rng;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

static const char *const dsts6[] = { DST1_6, DST2_6, DST9_6, UNKNOWN6, LOCAL6 };
static const char *const dsts4[] = { DST1_4, UNKNOWN4, LOCAL4 };
static const uint16_t ports[] = {
	SPRITZ_UDP_PORT_VXLAN, SPRITZ_UDP_PORT_GENEVE, SPRITZ_UDP_PORT_ROCEV2, SPRITZ_UDP_PORT_UET,
	53, 5201, 0
};

/*
 * TCP options for @s, in @opts (40 bytes), half the time: SACK blocks;
 * or, for a SYN or SYN-ACK, Linux's options with any window scale, or
 * option bytes of any kind.
 */
static void gen_opts(struct spec *s, uint8_t *opts)
{
	static const uint8_t syn[DP_SYN_OPTLEN] = DP_SYN_OPTS(7);
	int i, n;

	if (rnd() % 8 == 0) {
		memcpy(opts, syn, sizeof(syn));
		opts[DP_SYN_OPTLEN - 1] = (uint8_t)rnd();
		s->optlen = DP_SYN_OPTLEN;
		if (rnd() % 2) {
			s->optlen = 4 * (1 + rnd() % 10);
			for (i = 0; i < s->optlen; i++)
				opts[i] = (uint8_t)(rnd() % 4 ? rnd() % 9 : rnd());
		}
		s->opts = opts;
		s->flags = (uint8_t)(rnd() % 2 ? 0x02 : 0x12) | (rnd() % 4 ? 0 : (uint8_t)rnd());
		return;
	}
	if (rnd() % 2)
		return;
	n = 1 + rnd() % 4;
	opts[0] = opts[1] = 1;
	opts[2] = 5;
	opts[3] = 2 + 8 * n;
	for (i = 0; i < 2 * n; i++)
		put32(opts + 4 + 4 * i, 1000 + 100 * (rnd() % 64));
	s->opts = opts;
	s->optlen = (4 + 8 * n + 3) & ~3;
	if (s->optlen > 40)
		s->optlen = 36;
	opts[3] = (uint8_t)(s->optlen - 2 < opts[3] ? s->optlen - 2 : opts[3]);
}

/* A valid packet of a random kind. */
static void gen_valid(struct pkt *p, struct spec *s)
{
	static uint8_t opts[40];
	int k = rnd() % 10;

	memset(s, 0, sizeof(*s));
	s->vlans = rnd() % 4 == 0 ? 1 + rnd() % 2 : 0;
	s->v4 = k >= 7;
	s->dst = s->v4 ? dsts4[rnd() % 3] : dsts6[rnd() % 5];
	if (k == 3 || k == 4) { /* ingress-looking ACK with SACK */
		s->src = s->dst;
		s->dst = LOCAL6;
		s->sport = 5201;
		s->dport = 40000;
	}
	s->proto = (k == 5 || k == 7 || k == 8) ? 17 : k == 9 ? 1 : k == 6 ? 58 : 6;
	s->hbh = k == 6 && rnd() % 2;
	s->sport = s->sport ? s->sport : (uint16_t)(40000 + rnd() % 4);
	s->dport = s->dport ? s->dport : s->proto == 17 ? ports[rnd() % 7] : 5201;
	s->seq = 1000 + 100 * (rnd() % 64);
	s->ack = 1000 + 100 * (rnd() % 64);
	s->flags = (uint8_t)(rnd() % 4 ? 0x10 | (rnd() % 2 ? 0x08 : 0) | (rnd() % 4 ? 0 : 0x40) :
					 rnd());
	s->paylen = rnd() % 3 ? (int)(rnd() % 200) : 0;
	s->udp_zero_csum = rnd() % 5 == 0;
	s->flowlabel = rnd();
	s->tclass = (uint8_t)rnd();
	s->frag = s->v4 && rnd() % 8 == 0;
	s->ip4_optwords = s->v4 && rnd() % 4 == 0 ? rnd() % 4 : 0;
	if (s->proto == 6)
		gen_opts(s, opts);
	/* VXLAN / Geneve: mostly with a TCP packet inside, either direction */
	if (s->proto == 17 &&
	    (s->dport == SPRITZ_UDP_PORT_VXLAN || s->dport == SPRITZ_UDP_PORT_GENEVE) && rnd() % 3) {
		static struct spec in;
		int rev = rnd() % 2;

		memset(&in, 0, sizeof(in));
		in.v4 = rnd() % 2;
		in.src = in.v4 ? (rev ? "192.168.7.2" : "192.168.7.1") : (rev ? "fd07::2" : "fd07::1");
		in.dst = in.v4 ? (rev ? "192.168.7.1" : "192.168.7.2") : (rev ? "fd07::1" : "fd07::2");
		in.sport = rev ? 80 : (uint16_t)(33000 + rnd() % 2);
		in.dport = rev ? (uint16_t)(33000 + rnd() % 2) : 80;
		in.seq = 1000 + 100 * (rnd() % 64);
		in.ack = 1000 + 100 * (rnd() % 64);
		in.flags = (uint8_t)(0x10 | (rnd() % 2 ? 0x08 : 0) | (rnd() % 4 ? 0 : 0x40));
		in.paylen = rev ? 0 : (int)(rnd() % 150);
		gen_opts(&in, opts);
		s->inner = &in;
		s->geneve = s->dport == SPRITZ_UDP_PORT_GENEVE;
		s->geneve_optwords = s->geneve ? rnd() % 3 : 0;
	}
	pkt_build(p, s);
	/* BIG TCP's hop-by-hop jumbo header, with lengths right and wrong */
	if (!s->v4 && s->proto == 6 && !s->hbh && rnd() % 8 == 0 && p->len + 8 <= PKT_MAX) {
		const uint32_t jumbo[] = { p->len + 8 - pkt_l4(s), 65536, 70000, 0xffffffff };

		pkt_hbh_jumbo(p, s, rnd() % 4 ? 0 : (uint16_t)rnd(), rnd() % 4 ? 0xc2 : (uint8_t)rnd(),
			      jumbo[rnd() % 4]);
	}
}

/* Mutate @p: byte flips, length lies, truncation, garbage. */
static void mutate(struct pkt *p)
{
	int m = rnd() % 8, i, n;

	switch (m) {
	case 0: /* flip 1-4 random bytes in the headers */
	case 1:
		n = 1 + rnd() % 4;
		for (i = 0; i < n; i++)
			p->b[12 + rnd() % (p->len - 12 < 190 ? p->len - 12 : 190)] ^=
				(uint8_t)(1 + rnd() % 255);
		break;
	case 2: /* truncate */
		p->len = 14 + rnd() % (p->len - 13);
		break;
	case 3: /* grow with garbage */
		n = rnd() % 64;
		for (i = 0; i < n && p->len < PKT_MAX; i++)
			p->b[p->len++] = (uint8_t)rnd();
		break;
	case 4: /* a random 16-bit field somewhere in the first 80 bytes */
		i = 12 + rnd() % 68;
		put16(p->b + i, (uint16_t)rnd());
		break;
	case 5: /* all random after the ethertype */
		for (i = 14; i < (int)p->len; i++)
			p->b[i] = (uint8_t)rnd();
		break;
	default: /* unmutated */
		break;
	}
}

/* IPv6-TCP / UDP offsets of a packet (same rules as pkt_csum_ok). */
static int l3l4(const uint8_t *b, size_t len, size_t *l3, size_t *l4, int *v6, uint8_t *proto)
{
	size_t off = 12;
	uint16_t et = get16(b + off);

	while ((et == 0x8100 || et == 0x88a8) && off + 6 <= len) {
		off += 4;
		et = get16(b + off);
	}
	off += 2;
	*l3 = off;
	if (et == 0x86dd && off + 40 <= len) {
		*v6 = 1;
		*proto = b[off + 6];
		*l4 = off + 40;
		return 0;
	}
	if (et == 0x0800 && off + 20 <= len) {
		*v6 = 0;
		*proto = b[off + 9];
		*l4 = off + (b[off] & 0xf) * 4u;
		return 0;
	}
	return -1;
}

struct fuzz_counts {
	uint64_t runs, refused, rewrites, identical, csum_checked;
};

static bool check_one(const struct pkt *in, struct fuzz_counts *fc)
{
	int eg = bpf_program__fd(skel->progs.spritz_egress);
	int ig = bpf_program__fd(skel->progs.spritz_ingress);
	struct spritz_stats a, b;
	struct pkt out;
	uint32_t ret = 0, gso = rnd() % 16 == 0 ? 1 + rnd() % 44 : 0;
	size_t l3, l4, i;
	bool in_label;
	uint8_t proto;
	int e, v6;

	dp_stats(skel, &a);
	e = dp_run(eg, in, &out, &ret, gso);
	if (e) {
		uint16_t et = get16(in->b + 12);

		/* test-run refuses short IPv4/IPv6 frames itself */
		if (e == -EINVAL && ((et == 0x86dd && in->len < 54) || (et == 0x0800 && in->len < 34))) {
			fc->refused++;
			return true;
		}
		return ASSERT_OK(e, "egress test run");
	}
	fc->runs++;
	dp_stats(skel, &b);
	if (!ASSERT_EQ(ret, RET_NEXT, "egress retval") || !ASSERT_EQ(out.len, in->len, "egress len"))
		return false;
	if (b.eg_rewrites == a.eg_rewrites) {
		fc->identical++;
		if (!ASSERT_MEMEQ(out.b, in->b, in->len, "unmanaged egress byte-identical"))
			return false;
	} else {
		fc->rewrites++;
		if (!ASSERT_OK(l3l4(out.b, out.len, &l3, &l4, &v6, &proto), "rewritten parses"))
			return false;
		/* the carrier: the flow label for TCP and RoCEv2 over IPv6 (abi.h) */
		in_label = v6 && (proto == 6 || (proto == 17 && SPRITZ_UDP_LABEL_CARRIER(get16(out.b + l4 + 2))));
		for (i = 0; i < in->len; i++) {
			bool label = in_label && i >= l3 + 1 && i < l3 + 4;
			bool udp = proto == 17 && !in_label &&
				   ((i >= l4 && i < l4 + 2) || (i >= l4 + 6 && i < l4 + 8));

			if (out.b[i] != in->b[i] && !label && !udp) {
				printf("# byte %zu changed (l3 %zu l4 %zu proto %u)\n", i, l3, l4, proto);
				return ASSERT_TRUE(false, "only the carrier field changed");
			}
		}
		if (in_label) {
			if (!ASSERT_EQ(out.b[l3 + 1] & 0xf0, in->b[l3 + 1] & 0xf0, "tclass kept") ||
			    !ASSERT_EQ(out.b[l3 + 1] & 0x0f, 0, "label bits 16-19 zero"))
				return false;
		}
		if (pkt_csum_ok(in->b, in->len) == 1) {
			fc->csum_checked++;
			if (!ASSERT_EQ(pkt_csum_ok(out.b, out.len), 1, "checksum still valid"))
				return false;
		}
	}
	e = dp_run(ig, in, &out, &ret, 0);
	if (!ASSERT_OK(e, "ingress test run") || !ASSERT_EQ(ret, RET_NEXT, "ingress retval"))
		return false;
	return ASSERT_MEMEQ(out.b, in->b, in->len, "ingress byte-identical");
}

static void test_load(void)
{
	skel = dp_open_load();
	if (!ASSERT_OK_PTR(skel, "load spritz.bpf.o (needs spritz.ko)"))
		return;
	ASSERT_OK(dp_dir_fill(skel), "directory");
	ASSERT_OK(dp_load_table(&nl), "table");
}

static void test_fuzz(void)
{
	const char *ns = getenv("SPRITZ_FUZZ_N"), *ss = getenv("SPRITZ_FUZZ_SEED");
	static const char *const algos[] = { "scout", "spray", "ops", "ecmp", "flicr" };
	uint64_t n = ns ? strtoull(ns, NULL, 0) : 20000, k;
	struct fuzz_counts fc = { 0 };
	struct spritz_stats st;
	time_t t0 = time(NULL);
	struct pkt p;
	struct spec s;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	rng = ss ? strtoull(ss, NULL, 0) : (uint64_t)time(NULL) * 2654435761u;
	if (!rng)
		rng = 1;
	printf("# seed %llu, %llu packets\n", (unsigned long long)rng, (unsigned long long)n);
	for (k = 0; k < n; k++) {
		if (k % 50000 == 0)
			knob_set_str("algorithm", algos[(k / 50000) % 5]);
		gen_valid(&p, &s);
		if (rnd() % 4)
			mutate(&p);
		if (!check_one(&p, &fc)) {
			size_t i;

			printf("# failing packet %llu (len %zu):", (unsigned long long)k, p.len);
			for (i = 0; i < p.len; i++)
				printf("%s%02x", i % 32 ? "" : "\n# ", p.b[i]);
			printf("\n");
			break;
		}
		/* time moves on: timeouts and flowlets happen too */
		if (rnd() % 64 == 0)
			skel->bss->spritz_clock_offset_ns += rnd() % 400000000;
	}
	knob_set_str("algorithm", "scout");
	dp_stats(skel, &st);
	printf("# runs %llu (refused by test-run %llu): %llu rewritten (%llu with checksum "
	       "checked), %llu identical, %lds\n",
	       (unsigned long long)fc.runs, (unsigned long long)fc.refused,
	       (unsigned long long)fc.rewrites, (unsigned long long)fc.csum_checked,
	       (unsigned long long)fc.identical, (long)(time(NULL) - t0));
	printf("# feedback: ack %llu ecn %llu nack %llu timeout %llu; malformed %llu, "
	       "sack blocks %llu; inside tunnels: %llu sends, %llu ACKs\n",
	       (unsigned long long)st.fb_ack, (unsigned long long)st.fb_ecn,
	       (unsigned long long)st.fb_nack, (unsigned long long)st.fb_timeout,
	       (unsigned long long)st.un_malformed, (unsigned long long)st.in_sack_blocks,
	       (unsigned long long)st.eg_inner_tcp, (unsigned long long)st.in_inner_acks);
	printf("# path disables %llu (failed %llu, kept by the floor %llu; withheld by the "
	       "flow's bound %llu, by the peer's %llu)\n",
	       (unsigned long long)st.path_disables, (unsigned long long)st.path_disable_fail,
	       (unsigned long long)st.path_disable_kept,
	       (unsigned long long)st.path_disable_withheld,
	       (unsigned long long)st.path_disable_peer_withheld);
	printf("# rejected: outside the receive window %llu, ack unsent %llu old %llu syn/rst "
	       "%llu, sack blocks %llu, foreign tunnel source %llu; control segments without "
	       "flow %llu (SYN-ACKs kept %llu, taken %llu)\n",
	       (unsigned long long)st.in_ack_seq, (unsigned long long)st.in_ack_unsent,
	       (unsigned long long)st.in_ack_old,
	       (unsigned long long)st.in_ack_ctl, (unsigned long long)st.in_sack_bad,
	       (unsigned long long)st.in_tunnel_foreign, (unsigned long long)st.eg_ctl_no_flow,
	       (unsigned long long)st.eg_synack_kept, (unsigned long long)st.eg_synack_taken);
	ASSERT_GT(fc.rewrites, 0, "some packets managed");
	ASSERT_GT(st.eg_inner_tcp, 0, "some tunnel packets with inner TCP data");
	ASSERT_GT(fc.identical, 0, "some packets unmanaged");
}

static void test_destroy(void)
{
	dp_destroy(&skel, &nl);
}

static const struct test_case tests[] = {
	{ "load", test_load },
	{ "fuzz", test_fuzz },
	{ "destroy", test_destroy },
};

TEST_MAIN(tests)
