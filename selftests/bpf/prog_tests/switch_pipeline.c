// SPDX-License-Identifier: GPL-2.0-only
/*
 * The reference switch pipeline (bpf/spritz_switch.bpf.c) under
 * BPF_PROG_TEST_RUN, no devices needed: the maps are filled by
 * spritz_sw_fill() exactly as lab/labctl fills them, and a packet is
 * "walked" through the fabric by running the program once per switch with
 * ctx.ingress_ifindex set to the device it arrives on (the peer end of the
 * previous switch's chosen port, from the lab plan) and feeding the output
 * packet into the next run.  The trace map says which switch and slot the
 * program chose.
 *
 * Checked: every EV of every path libspritz lists reproduces the listed
 * switch sequence (Dragonfly and Slim Fly), roles ECMP 1 / ECMP 2 /
 * default, EV2 = 0xff and out-of-range EVs fall back to the default route,
 * hop limit / TTL decrement (IPv4 checksum), drops (hop limit, malformed,
 * not IP, no route), UDP carriers, MAC rewrite on delivery, the role
 * marker, the baselines (minimal, ECMP, Valiant, UGAL-L against preset
 * virtual queues), blackhole and down ports, per-link counters, the virtual
 * queue's accounting.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <spritz/maps.h>
#include <spritz/switch.h>

#include "paths.h"
#include "spritz_switch.skel.h"
#include "csum.h"
#include "swtables.h"
#include "test.h"

_Static_assert(SPRITZ_SW_LINK_LOCAL == SPRITZ_LINK_LOCAL &&
		       SPRITZ_SW_LINK_GLOBAL == SPRITZ_LINK_GLOBAL,
	       "link types");

#define TC_ACT_OK 0
#define TC_ACT_SHOT 2
#define TC_ACT_REDIRECT 7

static struct spritz_switch *skel;
static struct spritz_topo *topo;

/* ------------------------------------------------------------ packets */

struct tpkt {
	uint8_t b[256];
	uint32_t len;
};

struct tspec {
	int v4;
	uint8_t proto; /* 6, 17, 58 (IPv6) / 1 (IPv4) */
	uint16_t sport, dport;
	uint32_t flowlabel;
	uint8_t hop;   /* 0: SPRITZ_SW_HOP_INIT */
	int paylen;
	uint8_t tcp_flags;
	uint32_t seq;  /* TCP sequence number (UGAL-L's per-packet hash) */
};

/* A packet from host (ss, sk) to host (ds, dk) of the lab plan. */
static void build(struct tpkt *pk, const struct tspec *sp, int ss, int sk, int ds, int dk)
{
	uint8_t *b = pk->b, *l3 = b + 14, *l4;
	uint8_t hop = sp->hop ? sp->hop : SPRITZ_SW_HOP_INIT;
	int l4hl = sp->proto == 6 ? 20 : 8, l4len = l4hl + sp->paylen, i;
	uint32_t s;

	memset(pk, 0, sizeof(*pk));
	spritz_lab_mac(SPRITZ_LAB_MAC_SWITCH, ss, SPRITZ_SW_HOST_SLOT0 + sk, b);
	spritz_lab_mac(SPRITZ_LAB_MAC_HOST, ss, sk, b + 6);
	if (!sp->v4) {
		b[12] = 0x86, b[13] = 0xdd;
		l3[0] = 0x60;
		l3[1] = (sp->flowlabel >> 16) & 0x0f;
		l3[2] = sp->flowlabel >> 8;
		l3[3] = sp->flowlabel;
		l3[4] = l4len >> 8, l3[5] = l4len;
		l3[6] = sp->proto;
		l3[7] = hop;
		spritz_lab_addr6(ss, sk, l3 + 8);
		spritz_lab_addr6(ds, dk, l3 + 24);
		l4 = l3 + 40;
	} else {
		b[12] = 0x08, b[13] = 0x00;
		l3[0] = 0x45;
		l3[2] = (20 + l4len) >> 8, l3[3] = 20 + l4len;
		l3[8] = hop;
		l3[9] = sp->proto;
		spritz_lab_addr4(ss, sk, l3 + 12);
		spritz_lab_addr4(ds, dk, l3 + 16);
		s = spritz_csum_fold(spritz_csum_add(0, l3, 20));
		l3[10] = s >> 8, l3[11] = s;
		l4 = l3 + 20;
	}
	if (sp->proto == 6 || sp->proto == 17) {
		l4[0] = sp->sport >> 8, l4[1] = sp->sport;
		l4[2] = sp->dport >> 8, l4[3] = sp->dport;
	}
	if (sp->proto == 6) {
		l4[4] = sp->seq >> 24, l4[5] = sp->seq >> 16, l4[6] = sp->seq >> 8, l4[7] = sp->seq;
		l4[12] = 5 << 4;
		l4[13] = sp->tcp_flags ? sp->tcp_flags : 0x10;
	} else if (sp->proto == 17) {
		l4[4] = l4len >> 8, l4[5] = l4len;
	} else {
		l4[0] = sp->v4 ? 0 : 129; /* echo reply */
	}
	for (i = 0; i < sp->paylen; i++)
		l4[l4hl + i] = i;
	pk->len = (uint32_t)(l4 - b) + l4len;
}

/* ------------------------------------------------------------- walking */

struct walk {
	int seq[SPRITZ_PATH_MAX_HOPS + 2];
	int role[SPRITZ_PATH_MAX_HOPS + 2];
	int steered[SPRITZ_PATH_MAX_HOPS + 2];
	int n;		    /* switches visited */
	int delivered;	    /* out of a host slot */
	int out_slot;	    /* host slot on delivery */
	int retval;	    /* last run's */
	int drop;	    /* last trace's drop + 1 */
	struct tpkt out;    /* packet as delivered / dropped */
};

static int run_once(int ifindex, const struct tpkt *in, struct tpkt *out,
		    struct spritz_sw_trace *tr)
{
	struct __sk_buff ctx = { .ingress_ifindex = ifindex };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = in->b, .data_size_in = in->len,
		    .data_out = out->b, .data_size_out = sizeof(out->b), .ctx_in = &ctx,
		    .ctx_size_in = sizeof(ctx));
	uint32_t zero = 0;
	int err;

	memset(tr, 0, sizeof(*tr));
	bpf_map_update_elem(bpf_map__fd(skel->maps.sw_trace), &zero, tr, BPF_ANY);
	err = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.spritz_switch), &opts);
	if (err)
		return -errno;
	out->len = opts.data_size_out;
	bpf_map_lookup_elem(bpf_map__fd(skel->maps.sw_trace), &zero, tr);
	return opts.retval;
}

/* Send pkt from host k of switch s; follow it until delivery or drop. */
static int walk(int s, int k, const struct tpkt *pkt, struct walk *w)
{
	int ifindex = spritz_lab_ifindex(s, SPRITZ_SW_HOST_SLOT0 + k);
	struct spritz_sw_trace tr;
	struct tpkt cur = *pkt;

	memset(w, 0, sizeof(*w));
	while (w->n < SPRITZ_PATH_MAX_HOPS + 1) {
		int ret = run_once(ifindex, &cur, &w->out, &tr), n, back;

		w->retval = ret;
		if (ret < 0)
			return ret;
		w->seq[w->n] = tr.sw;
		w->role[w->n] = tr.role;
		w->steered[w->n] = tr.steered;
		w->n++;
		w->drop = tr.drop;
		if (ret != TC_ACT_REDIRECT)
			return 0;
		if (tr.ifindex != (uint32_t)spritz_lab_ifindex(tr.sw, tr.out_slot))
			return -EPROTO;
		if (tr.out_slot >= SPRITZ_SW_HOST_SLOT0) {
			w->delivered = 1;
			w->out_slot = tr.out_slot;
			return 0;
		}
		n = spritz_topo_port_nbr(topo, tr.sw, tr.out_slot);
		back = spritz_topo_port_of(topo, n, tr.sw);
		ifindex = spritz_lab_ifindex(n, back);
		cur = w->out;
	}
	return -ELOOP;
}

static int setup(const char *spec, uint32_t mode)
{
	struct spritz_sw_fds fds;
	char err[256] = "";
	int ret;

	spritz_topo_free(topo);
	topo = NULL;
	spritz_switch__destroy(skel);
	skel = spritz_switch__open_and_load();
	if (!ASSERT_OK_PTR(skel, "spritz_switch__open_and_load"))
		return -1;
	ret = spritz_topo_parse(spec, &topo, err, sizeof(err));
	if (!ASSERT_OK(ret, spec))
		return -1;
	fds.cfg = bpf_map__fd(skel->maps.sw_cfg);
	fds.info = bpf_map__fd(skel->maps.sw_info);
	fds.ports = bpf_map__fd(skel->maps.sw_ports);
	fds.ingress = bpf_map__fd(skel->maps.sw_ingress);
	fds.routes = bpf_map__fd(skel->maps.sw_routes);
	fds.dir = bpf_map__fd(skel->maps.sw_dir);
	ret = spritz_sw_fill(topo, &fds, mode, SPRITZ_SW_F_TRACE, err, sizeof(err));
	if (!ASSERT_OK(ret, "spritz_sw_fill"))
		printf("# %s\n", err);
	return ret;
}

static void set_mode(uint32_t mode)
{
	struct spritz_sw_cfg cfg;
	uint32_t zero = 0;
	int fd = bpf_map__fd(skel->maps.sw_cfg);

	bpf_map_lookup_elem(fd, &zero, &cfg);
	cfg.mode = mode;
	bpf_map_update_elem(fd, &zero, &cfg, BPF_ANY);
}

static bool seq_eq(const struct walk *w, const int *seq, int n)
{
	return w->n == n && !memcmp(w->seq, seq, n * sizeof(int));
}

static void print_walk(const char *what, const struct walk *w, const int *seq, int n)
{
	int i;

	printf("# %s: pipeline", what);
	for (i = 0; i < w->n; i++)
		printf(" %d", w->seq[i]);
	printf(" (retval %d drop %d), expected", w->retval, w->drop);
	for (i = 0; i < n; i++)
		printf(" %d", seq[i]);
	printf("\n");
}

/* Default-route sequence from s to d. */
static int default_seq(int s, int d, int *seq)
{
	int n = 0;

	seq[n++] = s;
	while (s != d && n < SPRITZ_PATH_MAX_HOPS) {
		s = spritz_topo_next_hop(topo, s, d);
		seq[n++] = s;
	}
	return n;
}

/*
 * Every listed path of every (src, dst) pair with src in srcs: the walk
 * reproduces the listed switch sequence, with ECMP 1 at the source and
 * ECMP 2 at hop 1 exactly when EV2 is used.
 */
static void check_all_paths(const int *srcs, int nsrc, int v4, uint8_t proto, uint16_t dport)
{
	int cap = 4096, si, d, i, npaths = 0, bad = 0;
	struct spritz_path *list = calloc(cap, sizeof(*list));
	struct walk w;
	struct tpkt pk;

	if (!ASSERT_OK_PTR(list, "calloc"))
		return;
	for (si = 0; si < nsrc; si++) {
		int s = srcs[si];

		for (d = 0; d < topo->nsw; d++) {
			int n = d == s ? 0 : spritz_paths_list(topo, s, d, list, cap);

			if (!ASSERT_GE(n, 0, "spritz_paths_list"))
				break;
			for (i = 0; i < n; i++) {
				struct tspec sp = { .v4 = v4, .proto = proto, .sport = 40000,
						    .dport = dport, .paylen = 64 };
				int seq[SPRITZ_PATH_MAX_HOPS + 2], len, h1, h2;
				uint16_t ev = list[i].ev;

				if (proto == 17 && SPRITZ_UDP_SPORT_CARRIER(dport))
					sp.sport = ev;
				else
					sp.flowlabel = 0xf0000 | ev; /* bits 16-19 ignored */
				len = spritz_ev_route(topo, s, d, ev, seq, SPRITZ_PATH_MAX_HOPS + 2);
				build(&pk, &sp, s, 0, d, 0);
				npaths++;
				if (walk(s, 0, &pk, &w) || !w.delivered || !seq_eq(&w, seq, len)) {
					if (bad++ < 5)
						print_walk("path", &w, seq, len);
					continue;
				}
				spritz_path_hops(topo, s, ev, &h1, &h2);
				if (w.role[0] != SPRITZ_SW_ROLE_ECMP1 || !w.steered[0] ||
				    (h1 != d && (w.role[1] != (h2 >= 0 ? SPRITZ_SW_ROLE_ECMP2
									 : SPRITZ_SW_ROLE_DEFAULT) ||
						 w.steered[1] != (h2 >= 0)))) {
					if (bad++ < 5)
						printf("# roles %d/%d steered %d/%d ev %#x s %d d %d\n",
						       w.role[0], w.role[1], w.steered[0], w.steered[1],
						       ev, s, d);
					continue;
				}
				/* hop limit: decremented once per switch */
				if (w.out.b[14 + (v4 ? 8 : 7)] != SPRITZ_SW_HOP_INIT - len) {
					if (bad++ < 5)
						printf("# hop limit %d after %d switches\n",
						       w.out.b[14 + (v4 ? 8 : 7)], len);
				}
			}
		}
	}
	ASSERT_EQ(bad, 0, "paths that do not follow their EV");
	ASSERT_GT(npaths, 0, "paths checked");
	printf("# %d paths from %d sources checked\n", npaths, nsrc);
	free(list);
}

/* ---------------------------------------------------------------- tests */

#define DF "dragonfly:p=1,a=4,h=2"
#define DF_PAPERISH "dragonfly:p=2,a=4,h=2"
#define SF "slimfly:q=5,p=2"

static void test_df_paths(void)
{
	int srcs[36], i;

	if (setup(DF, SPRITZ_SW_MODE_SPRITZ))
		return;
	for (i = 0; i < topo->nsw; i++)
		srcs[i] = i;
	check_all_paths(srcs, topo->nsw, 0, 6, 80);
}

static void test_sf_paths(void)
{
	int srcs[] = { 0, 7, 24, 25, 33, 49 };

	if (setup(SF, SPRITZ_SW_MODE_SPRITZ))
		return;
	check_all_paths(srcs, 6, 0, 6, 80);
}

/* IPv4 RoCEv2 carries no EV: whatever its source port, the default route. */
static void check_ipv4_rocev2(const int *srcs, int nsrc)
{
	int seq[SPRITZ_PATH_MAX_HOPS + 2], n, si, d, bad = 0, walks = 0;
	struct walk w;
	struct tpkt pk;

	for (si = 0; si < nsrc; si++)
		for (d = 0; d < topo->nsw; d++) {
			struct tspec sp = { .v4 = 1, .proto = 17, .dport = SPRITZ_UDP_PORT_ROCEV2,
					    .paylen = 64 };
			uint32_t off = topo->port_off[srcs[si]], h1 = 0;

			if (d == srcs[si])
				continue;
			/* an EV whose first hop is not the default route's */
			n = default_seq(srcs[si], d, seq);
			while (topo->port_nbr[off + h1] == seq[1])
				h1++;
			sp.sport = SPRITZ_EV(h1, SPRITZ_EV2_UNUSED);
			build(&pk, &sp, srcs[si], 0, d, 0);
			walks++;
			if (walk(srcs[si], 0, &pk, &w) || !w.delivered || !seq_eq(&w, seq, n) ||
			    w.steered[0]) {
				if (bad++ < 5)
					print_walk("ipv4 rocev2", &w, seq, n);
			}
		}
	ASSERT_GT(walks, 0, "ipv4 rocev2 walks");
	ASSERT_EQ(bad, 0, "IPv4 RoCEv2: the default route, source port ignored");
}

static void test_udp_carriers(void)
{
	int srcs[] = { 0, 13 };

	if (setup(DF, SPRITZ_SW_MODE_SPRITZ))
		return;
	check_all_paths(srcs, 2, 0, 17, SPRITZ_UDP_PORT_VXLAN); /* IPv6: the source port */
	check_all_paths(srcs, 2, 1, 17, SPRITZ_UDP_PORT_GENEVE); /* IPv4: the source port */
	check_all_paths(srcs, 2, 0, 17, SPRITZ_UDP_PORT_ROCEV2); /* IPv6 RoCEv2: the label */
	check_ipv4_rocev2(srcs, 2);
}

/* EVs not in any list fall back to the default table, never drop. */
static void test_bad_ev(void)
{
	int seq[SPRITZ_PATH_MAX_HOPS + 2], n, s, d, bad = 0;
	uint16_t evs[] = { SPRITZ_EV(0xfe, 0xfe), SPRITZ_EV(SPRITZ_SW_MAX_NET_PORTS, 0),
			   SPRITZ_EV(0xff, 0xff), SPRITZ_EV(200, 1) };
	struct walk w;
	struct tpkt pk;
	size_t i;

	if (setup(DF, SPRITZ_SW_MODE_SPRITZ))
		return;
	for (s = 0; s < topo->nsw; s += 5)
		for (d = 0; d < topo->nsw; d++)
			for (i = 0; i < ARRAY_SIZE(evs); i++) {
				struct tspec sp = { .proto = 6, .flowlabel = evs[i] };

				if (d == s)
					continue;
				n = default_seq(s, d, seq);
				build(&pk, &sp, s, 0, d, 0);
				if (walk(s, 0, &pk, &w) || !w.delivered || !seq_eq(&w, seq, n) ||
				    w.steered[0]) {
					if (bad++ < 5)
						print_walk("bad ev", &w, seq, n);
				}
			}
	ASSERT_EQ(bad, 0, "out-of-range EVs take the default route");

	/* Dragonfly, same group: EV1 = a global port is not allowed there. */
	{
		struct tspec sp = { .proto = 6, .flowlabel = SPRITZ_EV(3, 0xff) }; /* port 3: global */

		n = default_seq(0, 2, seq);
		build(&pk, &sp, 0, 0, 2, 0);
		ASSERT_OK(walk(0, 0, &pk, &w), "walk");
		ASSERT_TRUE(w.delivered && seq_eq(&w, seq, n) && !w.steered[0],
			    "same group, global EV1 -> default route");
	}
	/* EV2 = a local port at ECMP 2 (Dragonfly allows global ports only). */
	{
		struct tspec sp = { .proto = 6, .flowlabel = SPRITZ_EV(0, 1) };
		int hop1 = spritz_topo_port_nbr(topo, 0, 0);

		build(&pk, &sp, 0, 0, 20, 0);
		ASSERT_OK(walk(0, 0, &pk, &w), "walk");
		ASSERT_TRUE(w.delivered && w.seq[1] == hop1 && w.role[1] == SPRITZ_SW_ROLE_ECMP2 &&
				    !w.steered[1],
			    "EV2 local port -> default route at ECMP 2");
		n = default_seq(hop1, 20, seq);
		ASSERT_TRUE(w.n == n + 1 && !memcmp(&w.seq[1], seq, n * sizeof(int)),
			    "then minimal from hop 1");
	}
}

/* The role marker: ECMP 2 only for hop limit SPRITZ_SW_HOP_INIT - 1. */
static void test_role_marker(void)
{
	struct tspec sp = { .proto = 6, .flowlabel = SPRITZ_EV(0, 3) }; /* local, then global */
	struct walk w;
	struct tpkt pk;

	if (setup(DF, SPRITZ_SW_MODE_SPRITZ))
		return;
	build(&pk, &sp, 0, 0, 20, 0);
	ASSERT_OK(walk(0, 0, &pk, &w), "walk");
	ASSERT_EQ(w.role[0], SPRITZ_SW_ROLE_ECMP1, "hop 0 role");
	ASSERT_EQ(w.role[1], SPRITZ_SW_ROLE_ECMP2, "hop 1 role");
	ASSERT_TRUE(w.steered[1], "hop 1 steered by EV2");
	ASSERT_EQ(w.role[2], SPRITZ_SW_ROLE_DEFAULT, "hop 2 role");

	sp.hop = SPRITZ_SW_HOP_INIT + 1; /* a host that does not send 64 */
	build(&pk, &sp, 0, 0, 20, 0);
	ASSERT_OK(walk(0, 0, &pk, &w), "walk");
	ASSERT_TRUE(w.delivered, "delivered");
	ASSERT_EQ(w.role[1], SPRITZ_SW_ROLE_DEFAULT, "hop limit 65: no ECMP 2");

	/* Dragonfly: first hop global -> the landing switch has no role. */
	sp.hop = 0;
	sp.flowlabel = SPRITZ_EV(3, 0);
	build(&pk, &sp, 0, 0, 20, 0);
	ASSERT_OK(walk(0, 0, &pk, &w), "walk");
	ASSERT_EQ(w.role[1], SPRITZ_SW_ROLE_DEFAULT, "arrived over a global link: no ECMP 2");
}

static void test_delivery(void)
{
	struct tspec sp = { .proto = 6, .flowlabel = SPRITZ_EV(0, 0xff), .paylen = 10 };
	uint8_t mac[6];
	struct walk w;
	struct tpkt pk;

	if (setup(DF_PAPERISH, SPRITZ_SW_MODE_SPRITZ))
		return;
	build(&pk, &sp, 0, 1, 1, 1);
	ASSERT_OK(walk(0, 1, &pk, &w), "walk");
	ASSERT_TRUE(w.delivered, "delivered");
	ASSERT_EQ(w.n, 2, "two switches");
	ASSERT_EQ(w.out_slot, SPRITZ_SW_HOST_SLOT0 + 1, "host slot 1");
	spritz_lab_mac(SPRITZ_LAB_MAC_HOST, 1, 1, mac);
	ASSERT_MEMEQ(w.out.b, mac, 6, "dst MAC = host's");
	spritz_lab_mac(SPRITZ_LAB_MAC_SWITCH, 1, SPRITZ_SW_HOST_SLOT0 + 1, mac);
	ASSERT_MEMEQ(w.out.b + 6, mac, 6, "src MAC = switch host port's");
	ASSERT_EQ(w.out.b[14 + 7], SPRITZ_SW_HOP_INIT - 2, "hop limit");
	ASSERT_MEMEQ(w.out.b + 14 + 8, pk.b + 14 + 8, pk.len - 14 - 8, "rest unchanged");

	/* Same switch: straight to the other host port. */
	build(&pk, &sp, 0, 0, 0, 1);
	ASSERT_OK(walk(0, 0, &pk, &w), "walk");
	ASSERT_TRUE(w.delivered && w.n == 1 && w.out_slot == SPRITZ_SW_HOST_SLOT0 + 1,
		    "same switch delivery");
}

static void test_ipv4_ttl(void)
{
	struct tspec sp = { .v4 = 1, .proto = 17, .sport = SPRITZ_EV(5, SPRITZ_EV2_UNUSED),
			    .dport = SPRITZ_UDP_PORT_ROCEV2, .paylen = 20 };
	struct walk w;
	struct tpkt pk;

	if (setup(DF, SPRITZ_SW_MODE_SPRITZ))
		return;
	build(&pk, &sp, 0, 0, 30, 0);
	ASSERT_OK(walk(0, 0, &pk, &w), "walk");
	ASSERT_TRUE(w.delivered, "delivered");
	ASSERT_EQ(w.out.b[14 + 8], SPRITZ_SW_HOP_INIT - w.n, "TTL");
	ASSERT_EQ(spritz_csum_fold(spritz_csum_add(0, w.out.b + 14, 20)), 0, "IPv4 header checksum valid");
}

static uint64_t drops(int sw, int reason)
{
	int ncpu = libbpf_num_possible_cpus(), i;
	uint32_t key = sw * SPRITZ_SW_DROP_MAX + reason;
	uint64_t v[512] = {}, sum = 0;

	if (ncpu > (int)ARRAY_SIZE(v) || bpf_map_lookup_elem(bpf_map__fd(skel->maps.sw_drops), &key, v))
		return ~0ULL;
	for (i = 0; i < ncpu; i++)
		sum += v[i];
	return sum;
}

static uint64_t tx(int sw, int slot)
{
	int ncpu = libbpf_num_possible_cpus(), i;
	uint32_t key = SPRITZ_SW_SLOT_KEY(sw, slot);
	struct spritz_sw_ctr v[512] = {};
	uint64_t sum = 0;

	if (ncpu > (int)ARRAY_SIZE(v) || bpf_map_lookup_elem(bpf_map__fd(skel->maps.sw_tx), &key, v))
		return ~0ULL;
	for (i = 0; i < ncpu; i++)
		sum += v[i].packets;
	return sum;
}

static void test_drops(void)
{
	struct tspec sp = { .proto = 6, .flowlabel = SPRITZ_EV(0, 0xff) };
	struct spritz_sw_trace tr;
	struct tpkt pk, out;
	struct walk w;
	int host0 = spritz_lab_ifindex(0, SPRITZ_SW_HOST_SLOT0);

	if (setup(DF, SPRITZ_SW_MODE_SPRITZ))
		return;
	sp.hop = 1;
	build(&pk, &sp, 0, 0, 20, 0);
	ASSERT_EQ(run_once(host0, &pk, &out, &tr), TC_ACT_SHOT, "hop limit 1: drop");
	ASSERT_EQ(drops(0, SPRITZ_SW_DROP_HOP_LIMIT), 1, "hop limit counter");
	sp.hop = 2; /* expires at the second switch */
	build(&pk, &sp, 0, 0, 20, 0);
	ASSERT_OK(walk(0, 0, &pk, &w), "walk");
	ASSERT_TRUE(!w.delivered && w.n == 2 && w.drop == SPRITZ_SW_DROP_HOP_LIMIT + 1,
		    "hop limit 2: dropped at switch 2");
	sp.hop = 0;

	/*
	 * A cut-short IPv6 header cannot be test-run (the kernel refuses to
	 * build the skb); an IPv4 header length below 5 words stands in.
	 */
	{
		struct tspec sp4 = { .v4 = 1, .proto = 6 };

		build(&pk, &sp4, 0, 0, 20, 0);
		pk.b[14] = 0x44;
		ASSERT_EQ(run_once(host0, &pk, &out, &tr), TC_ACT_SHOT, "IPv4 ihl 4: drop");
		ASSERT_EQ(tr.drop, SPRITZ_SW_DROP_MALFORMED + 1, "malformed");
	}
	/* Wrong IP version. */
	build(&pk, &sp, 0, 0, 20, 0);
	pk.b[14] = 0x40;
	ASSERT_EQ(run_once(host0, &pk, &out, &tr), TC_ACT_SHOT, "bad version: drop");
	ASSERT_EQ(tr.drop, SPRITZ_SW_DROP_MALFORMED + 1, "malformed");
	/* ARP. */
	build(&pk, &sp, 0, 0, 20, 0);
	pk.b[12] = 0x08, pk.b[13] = 0x06;
	ASSERT_EQ(run_once(host0, &pk, &out, &tr), TC_ACT_SHOT, "ARP: drop");
	ASSERT_EQ(tr.drop, SPRITZ_SW_DROP_NOT_IP + 1, "not IP");
	/* Unknown destination (multicast, as NDP sends). */
	build(&pk, &sp, 0, 0, 20, 0);
	memset(pk.b + 14 + 24, 0, 16);
	pk.b[14 + 24] = 0xff, pk.b[14 + 25] = 0x02, pk.b[14 + 39] = 1;
	ASSERT_EQ(run_once(host0, &pk, &out, &tr), TC_ACT_SHOT, "multicast: drop");
	ASSERT_EQ(tr.drop, SPRITZ_SW_DROP_NO_ROUTE + 1, "no route");
	/* Known switch prefix, no such host. */
	build(&pk, &sp, 0, 0, 20, 7);
	ASSERT_OK(walk(0, 0, &pk, &w), "walk");
	ASSERT_TRUE(!w.delivered && w.seq[w.n - 1] == 20 && w.drop == SPRITZ_SW_DROP_NO_ROUTE + 1,
		    "unknown host: dropped at its switch");
	/* Not a switch port: left to the stack. */
	build(&pk, &sp, 0, 0, 20, 0);
	ASSERT_EQ(run_once(1, &pk, &out, &tr), TC_ACT_OK, "unknown ingress: TC_ACT_OK");
}

static void test_counters(void)
{
	struct tspec sp = { .proto = 6, .flowlabel = SPRITZ_EV(0, 3) };
	int seq[SPRITZ_PATH_MAX_HOPS + 2], n, i, r;
	struct walk w;
	struct tpkt pk;

	if (setup(DF, SPRITZ_SW_MODE_SPRITZ))
		return;
	n = spritz_ev_route(topo, 0, 20, sp.flowlabel, seq, SPRITZ_PATH_MAX_HOPS + 2);
	build(&pk, &sp, 0, 0, 20, 0);
	for (r = 0; r < 3; r++)
		ASSERT_OK(walk(0, 0, &pk, &w), "walk");
	for (i = 0; i + 1 < n; i++)
		ASSERT_EQ(tx(seq[i], spritz_topo_port_of(topo, seq[i], seq[i + 1])), 3,
			  "link counter on the path");
	ASSERT_EQ(tx(20, SPRITZ_SW_HOST_SLOT0), 3, "delivered");
	ASSERT_EQ(tx(0, 1), 0, "other link");
}

static void test_failures(void)
{
	struct tspec sp = { .proto = 6, .flowlabel = SPRITZ_EV(0, 3), .paylen = 100 };
	int seq[SPRITZ_PATH_MAX_HOPS + 2], n, p;
	struct walk w;
	struct tpkt pk;

	if (setup(DF, SPRITZ_SW_MODE_SPRITZ))
		return;
	n = spritz_ev_route(topo, 0, 20, sp.flowlabel, seq, SPRITZ_PATH_MAX_HOPS + 2);
	ASSERT_GE(n, 3, "path");
	/* Blackhole the ECMP 2 switch's chosen (global) link. */
	p = spritz_topo_port_of(topo, seq[1], seq[2]);
	ASSERT_OK(spritz_sw_link_flags(topo, bpf_map__fd(skel->maps.sw_ports), seq[1], p,
				       SPRITZ_SW_PORT_BLACKHOLE, 0),
		  "blackhole");
	build(&pk, &sp, 0, 0, 20, 0);
	ASSERT_OK(walk(0, 0, &pk, &w), "walk");
	ASSERT_TRUE(!w.delivered && w.n == 2 && w.drop == SPRITZ_SW_DROP_BLACKHOLE + 1,
		    "data dropped at the blackholed link");
	sp.paylen = 0; /* a pure ACK passes */
	build(&pk, &sp, 0, 0, 20, 0);
	ASSERT_OK(walk(0, 0, &pk, &w), "walk");
	ASSERT_TRUE(w.delivered && seq_eq(&w, seq, n), "pure ACK passes the blackhole");
	sp.paylen = 100; /* another EV avoids it */
	sp.flowlabel = SPRITZ_EV(1, 3);
	build(&pk, &sp, 0, 0, 20, 0);
	ASSERT_OK(walk(0, 0, &pk, &w), "walk");
	ASSERT_TRUE(w.delivered, "another path is fine");
	/* Down: even ACKs drop. */
	ASSERT_OK(spritz_sw_link_flags(topo, bpf_map__fd(skel->maps.sw_ports), seq[1], p,
				       SPRITZ_SW_PORT_DOWN, SPRITZ_SW_PORT_BLACKHOLE),
		  "down");
	sp.flowlabel = SPRITZ_EV(0, 3);
	sp.paylen = 0;
	build(&pk, &sp, 0, 0, 20, 0);
	ASSERT_OK(walk(0, 0, &pk, &w), "walk");
	ASSERT_TRUE(!w.delivered && w.drop == SPRITZ_SW_DROP_DOWN + 1, "down drops ACKs too");
	/* The reverse direction is failed as well. */
	{
		struct spritz_sw_port pt;
		uint32_t key = SPRITZ_SW_SLOT_KEY(seq[2], spritz_topo_port_of(topo, seq[2], seq[1]));

		bpf_map_lookup_elem(bpf_map__fd(skel->maps.sw_ports), &key, &pt);
		ASSERT_EQ(pt.flags, SPRITZ_SW_PORT_VALID | SPRITZ_SW_PORT_DOWN, "other end flags");
	}
}

/* Whether a walk is one of the listed paths from s to d. */
static bool listed(const struct walk *w, int s, int d)
{
	struct spritz_path list[512];
	int n = spritz_paths_list(topo, s, d, list, ARRAY_SIZE(list)), i;
	int seq[SPRITZ_PATH_MAX_HOPS + 2], len;

	for (i = 0; i < n; i++) {
		len = spritz_ev_route(topo, s, d, list[i].ev, seq, SPRITZ_PATH_MAX_HOPS + 2);
		if (seq_eq(w, seq, len))
			return true;
	}
	return false;
}

static void test_modes(void)
{
	int seq[SPRITZ_PATH_MAX_HOPS + 2], n, i, distinct, bad = 0;
	struct walk w, first;
	struct tpkt pk;
	uint64_t seen;

	if (setup(DF, SPRITZ_SW_MODE_MINIMAL))
		return;
	/* Minimal: the EV is ignored. */
	n = default_seq(0, 20, seq);
	for (i = 0; i < 64; i++) {
		struct tspec sp = { .proto = 6, .flowlabel = SPRITZ_EV(i % 5, i % 7) };

		build(&pk, &sp, 0, 0, 20, 0);
		if (walk(0, 0, &pk, &w) || !w.delivered || !seq_eq(&w, seq, n))
			bad++;
	}
	ASSERT_EQ(bad, 0, "minimal: default route whatever the EV");

	/* ECMP: one fixed listed path per flow; flows spread. */
	set_mode(SPRITZ_SW_MODE_ECMP);
	seen = 0;
	for (i = 0; i < 64; i++) {
		struct tspec sp = { .proto = 6, .sport = 1000 + i, .dport = 80 };
		int r;

		build(&pk, &sp, 0, 0, 20, 0);
		for (r = 0; r < 3; r++) {
			if (walk(0, 0, &pk, r ? &w : &first) || !(r ? &w : &first)->delivered) {
				bad++;
				continue;
			}
			if (r && !seq_eq(&w, first.seq, first.n))
				bad++;
		}
		if (!listed(&first, 0, 20))
			bad++;
		seen |= 1ULL << (first.seq[1] * 8 % 64 + first.seq[2] % 8);
	}
	ASSERT_EQ(bad, 0, "ecmp: every flow on one listed path");
	distinct = __builtin_popcountll(seen);
	ASSERT_GE(distinct, 4, "ecmp: flows spread over paths");

	/* Valiant: per packet, listed paths, many of them. */
	set_mode(SPRITZ_SW_MODE_VALIANT);
	seen = 0;
	for (i = 0; i < 200; i++) {
		struct tspec sp = { .proto = 6, .sport = 1000, .dport = 80 };

		build(&pk, &sp, 0, 0, 20, 0);
		if (walk(0, 0, &pk, &w) || !w.delivered || !listed(&w, 0, 20)) {
			bad++;
			continue;
		}
		seen |= 1ULL << (w.seq[1] * 8 % 64 + w.seq[2] % 8);
	}
	ASSERT_EQ(bad, 0, "valiant: listed paths");
	ASSERT_GE(__builtin_popcountll(seen), 6, "valiant: one flow, many paths");

	/* Slim Fly, Valiant: delivered within 2 + diameter switches. */
	if (setup(SF, SPRITZ_SW_MODE_VALIANT))
		return;
	for (i = 0; i < 200; i++) {
		struct tspec sp = { .proto = 6, .sport = 1000, .dport = 80 };
		int d = 1 + i % (topo->nsw - 1);

		build(&pk, &sp, 0, 0, d, 0);
		if (walk(0, 0, &pk, &w) || !w.delivered || w.n > 3 + topo->diameter)
			bad++;
	}
	ASSERT_EQ(bad, 0, "valiant (Slim Fly): delivered, bounded");
}

/* Preset the virtual queue of (sw, slot): frozen (last update in the future). */
static void set_vq(int sw, int slot, uint64_t backlog)
{
	struct spritz_sw_vq q = { .backlog = backlog, .last_ns = ~0ULL >> 1, .rate_kbps = 1 };
	uint32_t key = SPRITZ_SW_SLOT_KEY(sw, slot);

	bpf_map_update_elem(bpf_map__fd(skel->maps.sw_vq), &key, &q, BPF_ANY);
}

static uint64_t vq_backlog(int sw, int slot)
{
	struct spritz_sw_vq q = {};
	uint32_t key = SPRITZ_SW_SLOT_KEY(sw, slot);

	bpf_map_lookup_elem(bpf_map__fd(skel->maps.sw_vq), &key, &q);
	return q.backlog;
}

/*
 * Walk n TCP segments (sequence numbers 1000 i) from host 0 of s to d under
 * UGAL-L; count those whose first hop left the default route.  Every walk
 * must be delivered, steered at ECMP 1 exactly when it left the default
 * route, and over a listed path (strict; Dragonfly) or within 2 + diameter
 * hops (Slim Fly: a Valiant walk may come back to its source, as in the
 * valiant mode).
 */
static int ugal_walks(int s, int d, int n, int strict, int *bad)
{
	int seq[SPRITZ_PATH_MAX_HOPS + 2], len = default_seq(s, d, seq), i, nonmin = 0;
	struct walk w;
	struct tpkt pk;

	for (i = 0; i < n; i++) {
		struct tspec sp = { .proto = 6, .sport = 40000, .dport = 80, .paylen = 64,
				    .seq = 1000 * i };

		build(&pk, &sp, s, 0, d, 0);
		if (walk(s, 0, &pk, &w) || !w.delivered ||
		    (strict ? !listed(&w, s, d) : w.n > 3 + topo->diameter) ||
		    w.steered[0] != (w.seq[1] != seq[1])) {
			if ((*bad)++ < 5)
				print_walk("ugal-l", &w, seq, len);
			continue;
		}
		nonmin += w.seq[1] != seq[1];
	}
	return nonmin;
}

static void test_ugal(void)
{
	int seq[SPRITZ_PATH_MAX_HOPS + 2], s, d, i, n, bad = 0, nonmin, mport, deg;
	struct walk w;
	struct tpkt pk;

	if (setup(DF, SPRITZ_SW_MODE_UGAL_L))
		return;
	/* Empty queues: q_min * h_min = 0 <= q_val * h_val, always minimal. */
	for (s = 0; s < topo->nsw; s += 7)
		for (d = 0; d < topo->nsw; d++) {
			if (d == s)
				continue;
			n = default_seq(s, d, seq);
			for (i = 0; i < 4; i++) {
				struct tspec sp = { .proto = 6, .sport = 1000 + d, .dport = 80,
						    .seq = 7777 * i };

				build(&pk, &sp, s, 0, d, 0);
				if (walk(s, 0, &pk, &w) || !w.delivered || !seq_eq(&w, seq, n) ||
				    w.steered[0]) {
					if (bad++ < 5)
						print_walk("ugal-l, empty queues", &w, seq, n);
				}
			}
		}
	ASSERT_EQ(bad, 0, "ugal-l, empty queues: the default route");

	/*
	 * The minimal port's queue long, the others empty: every packet
	 * whose Valiant candidate is another port takes it (a listed path),
	 * the others stay minimal.  Dragonfly, far and same-group.
	 */
	for (d = 20; d >= 2; d -= 18) {
		mport = spritz_topo_next_port(topo, 0, d);
		set_vq(0, mport, 1 << 20);
		nonmin = ugal_walks(0, d, 100, 1, &bad);
		ASSERT_EQ(bad, 0, "ugal-l, minimal queue long: listed paths");
		/* a candidate is the minimal port 1 in (allowed ports) times:
		 * expect (deg - 1) / deg misrouted, accept half of that */
		deg = d == 20 ? spritz_topo_degree(topo, 0) : topo->nsw / topo->ngroups - 1;
		ASSERT_GE(nonmin * 2 * deg, 100 * (deg - 1), "ugal-l, minimal queue long: misrouted");
		ASSERT_LT(nonmin, 100, "ugal-l: some candidates are the minimal port");
		printf("# 0 -> %d, minimal queue long: %d of 100 misrouted (%d allowed ports)\n", d,
		       nonmin, deg);
		set_vq(0, mport, 0);
	}
	/* The reverse: every other port's queue long, the minimal one empty. */
	mport = spritz_topo_next_port(topo, 0, 20);
	for (i = 0; i < spritz_topo_degree(topo, 0); i++)
		if (i != mport)
			set_vq(0, i, 1 << 20);
	ASSERT_EQ(ugal_walks(0, 20, 50, 1, &bad), 0, "ugal-l, other queues long: minimal");
	ASSERT_EQ(bad, 0, "ugal-l, other queues long: listed paths");

	/* Slim Fly: listed paths, misrouted against a long minimal queue. */
	if (setup(SF, SPRITZ_SW_MODE_UGAL_L))
		return;
	for (d = 1; d < topo->nsw; d += 12) {
		set_vq(0, spritz_topo_next_port(topo, 0, d), 1 << 20);
		nonmin = ugal_walks(0, d, 40, 0, &bad);
		ASSERT_GT(nonmin, 0, "ugal-l (Slim Fly): misrouted");
	}
	ASSERT_EQ(bad, 0, "ugal-l (Slim Fly): listed paths");
}

/* The pipeline adds every packet it sends to the port's virtual queue. */
static void test_vq(void)
{
	struct tspec sp = { .proto = 6, .flowlabel = SPRITZ_EV(0, 3), .paylen = 100 };
	int seq[SPRITZ_PATH_MAX_HOPS + 2], n, p;
	struct walk w;
	struct tpkt pk;

	if (setup(DF, SPRITZ_SW_MODE_SPRITZ))
		return;
	n = spritz_ev_route(topo, 0, 20, sp.flowlabel, seq, SPRITZ_PATH_MAX_HOPS + 2);
	ASSERT_GE(n, 3, "path");
	p = spritz_topo_port_of(topo, seq[1], seq[2]);
	set_vq(seq[1], p, 0);
	set_vq(0, 1, 0);
	build(&pk, &sp, 0, 0, 20, 0);
	ASSERT_OK(walk(0, 0, &pk, &w), "walk");
	ASSERT_OK(walk(0, 0, &pk, &w), "walk");
	ASSERT_EQ(vq_backlog(seq[1], p), 2 * pk.len, "two packets queued on the path's port");
	ASSERT_EQ(vq_backlog(0, 1), 0, "nothing on another port");
}

static const struct test_case cases[] = {
	{ "df_paths", test_df_paths },
	{ "sf_paths", test_sf_paths },
	{ "udp_carriers", test_udp_carriers },
	{ "bad_ev", test_bad_ev },
	{ "role_marker", test_role_marker },
	{ "delivery", test_delivery },
	{ "ipv4_ttl", test_ipv4_ttl },
	{ "drops", test_drops },
	{ "counters", test_counters },
	{ "failures", test_failures },
	{ "modes", test_modes },
	{ "ugal", test_ugal },
	{ "vq", test_vq },
};

TEST_MAIN(cases)
