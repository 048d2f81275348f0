// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reference switch pipeline: the switch side of Source-Guided Adaptive
 * Routing (paper §III-A, §III-B) on network namespaces.
 *
 *   spritz_switch   tc ingress (clsact) of every port of every switch of a
 *                   lab fabric.  Finds its switch and port from the ingress
 *                   device, detects its role for the packet, picks an output
 *                   port and bpf_redirect()s the packet to that port's
 *                   device (egress), with the hop limit / TTL decremented
 *                   and the MACs rewritten.
 *
 * The program parses, looks up and rewrites; every decision - role
 * detection, EV1/EV2 steering, Dragonfly's same-group rule, the default
 * table, the modes (Spritz, Minimal, Valiant, ECMP, UGAL-L) and the drop
 * reasons - is include/spritz/switch_core.h, shared with the unit tests and
 * the simulator.  Per packet (Documentation/switch.rst):
 *
 *   1. Not arriving on a switch port (sw_ingress has no entry): TC_ACT_OK.
 *   2. Parse; not IPv4/IPv6 or a cut-short IP header: drop.
 *   3. Look up the destination (sw_dir), its group, the default route and
 *      this switch's info; hash the flow and the packet, draw a random
 *      value; spritz_sw_decide().  UGAL-L asks for more: whether a packet
 *      at ECMP 2 came over its previous switch's default route (that
 *      switch's sw_routes entry), and at ECMP 1 the virtual queues and hop
 *      counts of the minimal and the Valiant candidate's path.
 *   4. spritz_sw_port_check() on the output port (down, blackhole).
 *   5. Rewrite MACs and hop limit / TTL, count, add the packet to the
 *      port's virtual queue (sw_vq), bpf_redirect().
 *
 * EV: UDP to a source-port carrier (VXLAN 4789, Geneve 6081, UET 4793):
 * the source port; other IPv6 (RoCEv2 4791 included): flow label bits
 * 0-15; other IPv4: none (default table).  SPRITZ_UDP_*_CARRIER in abi.h.
 */
#include "vmlinux.h"
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include <spritz/switch_core.h>

#define TC_ACT_OK 0
#define TC_ACT_SHOT 2
#define TC_ACT_REDIRECT 7

#define ETH_HLEN 14
#define ETH_P_IP 0x0800
#define ETH_P_IPV6 0x86DD
#define IP6_HLEN 40
#define PROTO_TCP 6
#define PROTO_UDP 17

/* ------------------------------------------------------------------ maps */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct spritz_sw_cfg);
} sw_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SPRITZ_SW_MAX_SWITCHES);
	__type(key, __u32);
	__type(value, struct spritz_sw_info);
} sw_info SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SPRITZ_SW_MAX_SWITCHES * SPRITZ_SW_MAX_SLOTS);
	__type(key, __u32);
	__type(value, struct spritz_sw_port);
} sw_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SPRITZ_SW_MAX_SWITCHES * SPRITZ_SW_MAX_SLOTS);
	__type(key, __u32);
	__type(value, struct spritz_sw_in);
} sw_ingress SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SPRITZ_SW_MAX_SWITCHES * SPRITZ_SW_MAX_SWITCHES);
	__type(key, __u32);
	__type(value, struct spritz_sw_route);
} sw_routes SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, 65536);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct spritz_sw_dir_key);
	__type(value, struct spritz_sw_dir_val);
} sw_dir SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SPRITZ_SW_MAX_SWITCHES * SPRITZ_SW_MAX_SLOTS);
	__type(key, __u32);
	__type(value, struct spritz_sw_ctr);
} sw_tx SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SPRITZ_SW_MAX_SWITCHES * SPRITZ_SW_DROP_MAX);
	__type(key, __u32);
	__type(value, __u64);
} sw_drops SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SPRITZ_SW_MAX_SWITCHES * SPRITZ_SW_MAX_SLOTS);
	__type(key, __u32);
	__type(value, struct spritz_sw_vq);
} sw_vq SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct spritz_sw_trace);
} sw_trace SEC(".maps");

/* ---------------------------------------------------------------- parse */

struct pkt {
	__u8 addr[2][16]; /* saddr, daddr; IPv4 v4-mapped */
	__u32 flowlabel;
	__u32 l4off;
	__u32 l4len;	  /* IP payload length */
	__u16 sport, dport;
	__u8 v6;
	__u8 hop;
	__u8 proto;
	__u8 has_ports;
	__u8 pure_ack;	  /* TCP without payload */
	__u32 w1, w2;	  /* words that change per packet: TCP seq, ack; IPv4 id */
};

/* 0 on success, else 1 + enum spritz_sw_drop. */
static __always_inline int parse(struct __sk_buff *skb, struct pkt *p)
{
	struct ethhdr eth;

	if (bpf_skb_load_bytes(skb, 0, &eth, sizeof(eth)))
		return 1 + SPRITZ_SW_DROP_NOT_IP;
	if (eth.h_proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr ip6;

		if (bpf_skb_load_bytes(skb, ETH_HLEN, &ip6, sizeof(ip6)) || ip6.version != 6)
			return 1 + SPRITZ_SW_DROP_MALFORMED;
		p->v6 = 1;
		p->hop = ip6.hop_limit;
		p->proto = ip6.nexthdr;
		p->flowlabel = ((__u32)(ip6.flow_lbl[0] & 0x0f) << 16) |
			       ((__u32)ip6.flow_lbl[1] << 8) | ip6.flow_lbl[2];
		__builtin_memcpy(p->addr[0], &ip6.saddr, 16);
		__builtin_memcpy(p->addr[1], &ip6.daddr, 16);
		p->l4off = ETH_HLEN + IP6_HLEN;
		p->l4len = bpf_ntohs(ip6.payload_len);
	} else if (eth.h_proto == bpf_htons(ETH_P_IP)) {
		struct iphdr ip;
		__u32 ihl;

		if (bpf_skb_load_bytes(skb, ETH_HLEN, &ip, sizeof(ip)) || ip.version != 4 ||
		    ip.ihl < 5)
			return 1 + SPRITZ_SW_DROP_MALFORMED;
		ihl = ip.ihl * 4;
		p->hop = ip.ttl;
		p->proto = ip.protocol;
		__builtin_memset(p->addr, 0, sizeof(p->addr));
		p->addr[0][10] = p->addr[0][11] = 0xff;
		p->addr[1][10] = p->addr[1][11] = 0xff;
		__builtin_memcpy(&p->addr[0][12], &ip.saddr, 4);
		__builtin_memcpy(&p->addr[1][12], &ip.daddr, 4);
		p->l4off = ETH_HLEN + ihl;
		p->l4len = bpf_ntohs(ip.tot_len) > ihl ? bpf_ntohs(ip.tot_len) - ihl : 0;
		p->w1 = ip.id;
		if (ip.frag_off & bpf_htons(0x3fff))
			return 0; /* fragment: no ports */
	} else {
		return 1 + SPRITZ_SW_DROP_NOT_IP;
	}
	if (p->proto == PROTO_TCP || p->proto == PROTO_UDP) {
		__u16 ports[2];

		if (!bpf_skb_load_bytes(skb, p->l4off, ports, sizeof(ports))) {
			p->has_ports = 1;
			p->sport = bpf_ntohs(ports[0]);
			p->dport = bpf_ntohs(ports[1]);
		}
	}
	if (p->has_ports && p->proto == PROTO_TCP) {
		__u32 seqack[2];
		__u8 doff;

		if (!bpf_skb_load_bytes(skb, p->l4off + 12, &doff, 1) &&
		    p->l4len == (__u32)(doff >> 4) * 4)
			p->pure_ack = 1;
		if (!bpf_skb_load_bytes(skb, p->l4off + 4, seqack, sizeof(seqack))) {
			p->w1 ^= seqack[0];
			p->w2 = seqack[1];
		}
	}
	return 0;
}

/* The EV the packet carries; -1 if it carries none. */
static __always_inline int carried_ev(const struct pkt *p)
{
	if (p->proto == PROTO_UDP && p->has_ports && SPRITZ_UDP_SPORT_CARRIER(p->dport))
		return p->sport;
	if (p->v6)
		return p->flowlabel & 0xffff;
	return -1;
}

/* ------------------------------------------------------------- counters */

static __always_inline int drop(__u32 sw, __u32 reason, struct spritz_sw_trace *tr)
{
	__u32 key = sw * SPRITZ_SW_DROP_MAX + reason;
	__u64 *c = bpf_map_lookup_elem(&sw_drops, &key);

	if (c)
		(*c)++;
	if (tr) {
		tr->drop = reason + 1;
		tr->out_slot = SPRITZ_SW_SLOT_NONE;
		tr->ifindex = 0;
	}
	return TC_ACT_SHOT;
}

/* -------------------------------------------------------------- program */

/* Virtual queue backlog of (sw, slot) now, saturated to 32 bits. */
static __always_inline __u32 vq_backlog(__u32 sw, __u32 slot, __u64 now)
{
	__u32 key = SPRITZ_SW_SLOT_KEY(sw, slot);
	struct spritz_sw_vq *q = bpf_map_lookup_elem(&sw_vq, &key);
	__u64 b;

	if (!q)
		return 0;
	b = spritz_sw_vq_backlog(q, now);
	return b > 0xffffffffULL ? 0xffffffffU : (__u32)b;
}

/* Peer switch behind (sw, slot); SPRITZ_SW_NONE if the slot is not set up. */
static __always_inline __u32 peer_of(__u32 sw, __u32 slot)
{
	__u32 key = SPRITZ_SW_SLOT_KEY(sw, slot);
	struct spritz_sw_port *pt = bpf_map_lookup_elem(&sw_ports, &key);

	return pt && (pt->flags & SPRITZ_SW_PORT_VALID) && slot < SPRITZ_SW_MAX_NET_PORTS &&
			       pt->peer < SPRITZ_SW_MAX_SWITCHES
		       ? pt->peer
		       : SPRITZ_SW_NONE;
}

/* Default route from sw to d; NULL if none. */
static __always_inline struct spritz_sw_route *route_of(__u32 sw, __u32 d)
{
	__u32 key = SPRITZ_SW_ROUTE_KEY(sw, d);

	if (sw >= SPRITZ_SW_MAX_SWITCHES || d >= SPRITZ_SW_MAX_SWITCHES)
		return NULL;
	return bpf_map_lookup_elem(&sw_routes, &key);
}

/* SPRITZ_SW_NEED_PREV: did the packet come over its previous switch's default route? */
static __always_inline void fill_prev(__u32 me, struct spritz_sw_pkt *in)
{
	__u32 prev = peer_of(me, in->in_slot);
	struct spritz_sw_route *rt = route_of(prev, in->dst_sw);

	/* unknown: treat as minimal (default table) */
	in->in_minimal = !rt || peer_of(prev, rt->port) == me;
	in->have |= SPRITZ_SW_HAVE_PREV;
}

/* SPRITZ_SW_NEED_UGAL: queues and hop counts of the two candidates. */
static __always_inline void fill_ugal(const struct spritz_sw_cfg *cfg,
				      const struct spritz_sw_info *mi, __u32 me,
				      struct spritz_sw_pkt *in, __u32 p1)
{
	struct spritz_sw_route *rt = route_of(me, in->dst_sw), *rest;
	__u32 n1 = peer_of(me, p1), last, p2 = SPRITZ_SW_SLOT_NONE;
	struct spritz_sw_info *n1i = NULL;
	__u64 now = bpf_ktime_get_ns();

	in->have |= SPRITZ_SW_HAVE_UGAL;
	if (n1 != SPRITZ_SW_NONE) {
		n1i = bpf_map_lookup_elem(&sw_info, &n1);
		p2 = spritz_sw_ugal_hop2(cfg, mi, n1i, n1, p1, in);
	}
	last = p2 == SPRITZ_SW_SLOT_NONE ? n1 : peer_of(n1, p2);
	rest = route_of(last, in->dst_sw);
	if (!rt || !rest) {
		/* a candidate we cannot cost loses */
		in->q_min = in->h_min = 0;
		in->q_val = in->h_val = 1;
		return;
	}
	in->h_min = rt->hops;
	in->h_val = spritz_sw_ugal_hval(p2, rest->hops);
	in->q_min = vq_backlog(me, in->route_port, now);
	in->q_val = vq_backlog(me, p1, now);
}

/*
 * spritz_sw_decide() as a global function: the verifier checks it once, for
 * any inputs, instead of once per call (the program calls it up to three
 * times).  @have_me: 0 if the switch has no sw_info entry.
 */
__noinline int sw_decide(const struct spritz_sw_info *me, int have_me, __u32 sw,
			 const struct spritz_sw_pkt *p, struct spritz_sw_decision *d)
{
	__u32 zero = 0;
	struct spritz_sw_cfg *cfg = bpf_map_lookup_elem(&sw_cfg, &zero);

	if (!cfg || !me || !p || !d)
		return SPRITZ_SW_V_DROP;
	/* two calls, not "have_me ? me : NULL": the verifier must see the
	 * NULL check on the register that is dereferenced */
	if (!have_me)
		return spritz_sw_decide(cfg, NULL, sw, p, d);
	return spritz_sw_decide(cfg, me, sw, p, d);
}

/* The trace record of this packet, reset; NULL unless tracing is on. */
static __always_inline struct spritz_sw_trace *trace_begin(const struct spritz_sw_cfg *cfg,
							   __u32 me, __u32 in_slot)
{
	struct spritz_sw_trace *tr;
	__u32 zero = 0;
	__u64 seq;

	if (!(cfg->flags & SPRITZ_SW_F_TRACE))
		return NULL;
	tr = bpf_map_lookup_elem(&sw_trace, &zero);
	if (!tr)
		return NULL;
	seq = tr->seq + 1;
	__builtin_memset(tr, 0, sizeof(*tr));
	tr->seq = seq;
	tr->sw = me;
	tr->in_slot = in_slot;
	tr->out_slot = SPRITZ_SW_SLOT_NONE;
	return tr;
}

/* What the switch knows of the packet, for the core (switch_core.h). */
static __always_inline void fill_pkt(const struct spritz_sw_cfg *cfg, __u32 me, __u32 in_slot,
				     const struct pkt *p, struct spritz_sw_pkt *in)
{
	struct spritz_sw_dir_key dkey;
	struct spritz_sw_dir_val *dv;
	struct spritz_sw_route *rt;
	struct spritz_sw_info *di;

	in->in_slot = in_slot;
	in->hop = p->hop;
	in->dst_sw = SPRITZ_SW_NONE;
	in->dst_group = SPRITZ_SW_NONE;
	in->route_port = SPRITZ_SW_SLOT_NONE;
	dkey.prefixlen = 128;
	__builtin_memcpy(dkey.addr, p->addr[1], 16);
	dv = bpf_map_lookup_elem(&sw_dir, &dkey);
	if (dv && dv->sw < SPRITZ_SW_MAX_SWITCHES) {
		in->dst_sw = dv->sw;
		in->dst_slot = dv->slot;
		di = bpf_map_lookup_elem(&sw_info, &in->dst_sw);
		if (di)
			in->dst_group = di->group;
		rt = route_of(me, in->dst_sw);
		if (rt)
			in->route_port = rt->port;
	}
	in->ev = carried_ev(p);
	in->flow_hash = spritz_sw_flow_hash(p->addr[0], p->addr[1], p->sport, p->dport, p->proto,
					    p->flowlabel, cfg->seed);
	in->pkt_hash = spritz_sw_pkt_hash(in->flow_hash, p->w1, p->w2);
	in->rnd = bpf_get_prandom_u32();
}

/* The core's verdict, with what it asks for filled in (at most three calls). */
static __always_inline int decide(const struct spritz_sw_cfg *cfg, __u32 me,
				  struct spritz_sw_pkt *in, struct spritz_sw_decision *dec)
{
	struct spritz_sw_info *mi = bpf_map_lookup_elem(&sw_info, &me), info = {};
	int ret;

	if (mi)
		info = *mi;
	ret = sw_decide(&info, !!mi, me, in, dec);
	if (ret == SPRITZ_SW_V_NEED && (dec->need & SPRITZ_SW_NEED_PREV)) {
		fill_prev(me, in);
		ret = sw_decide(&info, !!mi, me, in, dec);
	}
	if (ret == SPRITZ_SW_V_NEED && (dec->need & SPRITZ_SW_NEED_UGAL) && mi) {
		fill_ugal(cfg, &info, me, in, dec->val_port);
		ret = sw_decide(&info, !!mi, me, in, dec);
	}
	return ret;
}

/* Rewrite for the next hop: MACs, hop limit / TTL (with the IPv4 checksum). */
static __always_inline int rewrite(struct __sk_buff *skb, const struct spritz_sw_port *out,
				   const struct pkt *p)
{
	__u8 hop = p->hop - 1;
	__u16 old = bpf_htons(((__u16)p->hop << 8) | p->proto);
	__u16 new = bpf_htons(((__u16)hop << 8) | p->proto);

	if (bpf_skb_store_bytes(skb, 0, out->dst_mac, 6, 0) ||
	    bpf_skb_store_bytes(skb, 6, out->src_mac, 6, 0))
		return -1;
	if (p->v6)
		return bpf_skb_store_bytes(skb, ETH_HLEN + 7, &hop, 1, 0) ? -1 : 0;
	if (bpf_l3_csum_replace(skb, ETH_HLEN + 10, old, new, 2) ||
	    bpf_skb_store_bytes(skb, ETH_HLEN + 8, &hop, 1, 0))
		return -1;
	return 0;
}

/* A packet leaves by port key: its counters and its virtual queue. */
static __always_inline void account(struct __sk_buff *skb, __u32 key)
{
	struct spritz_sw_ctr *ctr = bpf_map_lookup_elem(&sw_tx, &key);
	struct spritz_sw_vq *vq = bpf_map_lookup_elem(&sw_vq, &key);

	if (ctr) {
		ctr->packets++;
		ctr->bytes += skb->len;
	}
	if (vq)
		spritz_sw_vq_add(vq, bpf_ktime_get_ns(), skb->len);
}

SEC("tc")
int spritz_switch(struct __sk_buff *skb)
{
	struct spritz_sw_decision dec = {};
	struct spritz_sw_trace *tr;
	struct spritz_sw_pkt in = {};
	struct spritz_sw_port *out;
	struct spritz_sw_cfg *cfg;
	struct spritz_sw_in *ing;
	__u32 zero = 0, ifi, me, key, ret, why;
	struct pkt p = {};

	cfg = bpf_map_lookup_elem(&sw_cfg, &zero);
	ifi = skb->ingress_ifindex;
	ing = bpf_map_lookup_elem(&sw_ingress, &ifi);
	if (!cfg || !ing || ing->sw >= SPRITZ_SW_MAX_SWITCHES || ing->slot >= SPRITZ_SW_MAX_SLOTS)
		return TC_ACT_OK;
	me = ing->sw;
	tr = trace_begin(cfg, me, ing->slot);

	ret = parse(skb, &p);
	if (ret)
		return drop(me, ret - 1, tr);
	fill_pkt(cfg, me, ing->slot, &p, &in);
	ret = decide(cfg, me, &in, &dec);
	if (tr) {
		tr->hop_in = p.hop;
		tr->dst_sw = in.dst_sw == SPRITZ_SW_NONE ? 0 : in.dst_sw;
		tr->role = dec.role;
		tr->steered = dec.steered;
		tr->ev = dec.ev;
	}
	if (ret != SPRITZ_SW_V_FORWARD)
		return drop(me, dec.drop ? dec.drop - 1 : SPRITZ_SW_DROP_NO_PORT, tr);

	key = SPRITZ_SW_SLOT_KEY(me, dec.slot);
	out = bpf_map_lookup_elem(&sw_ports, &key);
	if (!out)
		return drop(me, SPRITZ_SW_DROP_NO_PORT, tr);
	why = spritz_sw_port_check(out->flags, out->ifindex, p.pure_ack);
	if (why)
		return drop(me, why - 1, tr);
	if (rewrite(skb, out, &p))
		return drop(me, SPRITZ_SW_DROP_MALFORMED, tr);
	account(skb, key);
	if (tr) {
		tr->out_slot = dec.slot;
		tr->ifindex = out->ifindex;
	}
	return bpf_redirect(out->ifindex, 0);
}

char LICENSE[] SEC("license") = "GPL";
