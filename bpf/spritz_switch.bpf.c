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
 * Per packet, in this order (Documentation/switch.rst):
 *
 *   1. Not arriving on a switch port (sw_ingress has no entry): TC_ACT_OK.
 *   2. Not IPv4/IPv6: drop (hosts have static neighbours, no ARP/NDP).
 *      IP header cut short: drop.  Destination not in sw_dir: drop.
 *      Hop limit <= 1: drop.
 *   3. Destination switch is this one: to the host slot (role DELIVER).
 *   4. Role: ECMP 1 if the packet came from a host port.  ECMP 2 if it came
 *      from a network port with hop limit SPRITZ_SW_HOP_INIT - 1 (i.e. it
 *      is the second switch of the path: every switch decrements, hosts
 *      send SPRITZ_SW_HOP_INIT) and, in a Dragonfly, the port is a local
 *      link and the destination is in another group (§III-B).  Otherwise
 *      no role: default table.
 *   5. ECMP 1 uses EV1, ECMP 2 uses EV2 as an index into the canonical
 *      port order (identity hash), restricted to the ports that stage may
 *      use: Dragonfly ECMP 1 to a same-group destination local ports only,
 *      Dragonfly ECMP 2 global ports only, otherwise every network port.
 *      An index out of range or not allowed - SPRITZ_EV2_UNUSED included -
 *      falls back to the default table; a bad EV never drops.
 *   6. Blackholed port: data dropped, TCP segments without payload pass.
 *      Down port: everything dropped.
 *
 * EV: UDP to a carrier port (4789, 6081, 4791, 4793): the source port;
 * other IPv6: flow label bits 0-15; other IPv4: none (default table).
 *
 * Modes (sw_cfg.mode): SPRITZ as above; MINIMAL default table only;
 * ECMP the same roles with EV1/EV2 replaced by a hash of the 5-tuple and
 * flow label (one fixed path per flow, minimal or not); VALIANT the same
 * roles with a fresh random value per packet and switch (the paper's
 * Valiant: "next hop sampled uniformly but independently at each switch").
 * In ECMP and VALIANT the value picks among the allowed ports by modulo.
 */
#include "vmlinux.h"
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include <spritz/switch.h>

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
		__u8 doff;

		if (!bpf_skb_load_bytes(skb, p->l4off + 12, &doff, 1) &&
		    p->l4len == (__u32)(doff >> 4) * 4)
			p->pure_ack = 1;
	}
	return 0;
}

static __always_inline int udp_carrier(__u16 dport)
{
	return SPRITZ_UDP_DEFAULT_CARRIER(dport);
}

/* The EV the packet carries; -1 if it carries none. */
static __always_inline int carried_ev(const struct pkt *p)
{
	if (p->proto == PROTO_UDP && p->has_ports && udp_carrier(p->dport))
		return p->sport;
	if (p->v6)
		return p->flowlabel & 0xffff;
	return -1;
}

static __always_inline __u32 mix(__u32 h, __u32 w)
{
	h ^= w;
	h *= 0x9e3779b1;
	return h ^ (h >> 15);
}

/* Flow hash: 5-tuple and flow label (the ECMP baseline). */
static __always_inline __u32 flow_hash(const struct pkt *p, __u32 seed)
{
	__u32 h = seed, w, i;

	for (i = 0; i < 8; i++) {
		__builtin_memcpy(&w, &p->addr[i / 4][(i % 4) * 4], 4);
		h = mix(h, w);
	}
	h = mix(h, ((__u32)p->sport << 16) | p->dport);
	h = mix(h, ((__u32)p->proto << 24) ^ p->flowlabel);
	return mix(h, 0x5a17);
}

/* The x-th (mod count) set bit of mask, or -1 if mask is empty. */
static __always_inline int pick_nth(__u64 mask, __u32 x)
{
	__u32 n = 0, i;

	for (i = 0; i < SPRITZ_SW_MAX_NET_PORTS; i++)
		n += (mask >> i) & 1;
	if (!n)
		return -1;
	x %= n;
	for (i = 0; i < SPRITZ_SW_MAX_NET_PORTS; i++) {
		if (!((mask >> i) & 1))
			continue;
		if (!x)
			return i;
		x--;
	}
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

SEC("tc")
int spritz_switch(struct __sk_buff *skb)
{
	struct spritz_sw_trace *tr = NULL;
	struct spritz_sw_dir_key dkey;
	struct spritz_sw_dir_val *dv;
	struct spritz_sw_info *mi, *di;
	struct spritz_sw_port *out, *inp;
	struct spritz_sw_route *rt;
	struct spritz_sw_ctr *ctr;
	struct spritz_sw_cfg *cfg;
	struct spritz_sw_in *in;
	__u32 zero = 0, ifi, me, d, key, slot, role;
	struct pkt p = {};
	int ret, ev, port = -1, steered = 0;
	__u8 hop;

	cfg = bpf_map_lookup_elem(&sw_cfg, &zero);
	ifi = skb->ingress_ifindex;
	in = bpf_map_lookup_elem(&sw_ingress, &ifi);
	if (!cfg || !in || in->sw >= SPRITZ_SW_MAX_SWITCHES || in->slot >= SPRITZ_SW_MAX_SLOTS)
		return TC_ACT_OK;
	me = in->sw;
	if (cfg->flags & SPRITZ_SW_F_TRACE) {
		tr = bpf_map_lookup_elem(&sw_trace, &zero);
		if (tr) {
			__u64 seq = tr->seq + 1;

			__builtin_memset(tr, 0, sizeof(*tr));
			tr->seq = seq;
			tr->sw = me;
			tr->in_slot = in->slot;
			tr->out_slot = SPRITZ_SW_SLOT_NONE;
		}
	}

	ret = parse(skb, &p);
	if (ret)
		return drop(me, ret - 1, tr);
	if (tr)
		tr->hop_in = p.hop;
	dkey.prefixlen = 128;
	__builtin_memcpy(dkey.addr, p.addr[1], 16);
	dv = bpf_map_lookup_elem(&sw_dir, &dkey);
	if (!dv || dv->sw >= SPRITZ_SW_MAX_SWITCHES)
		return drop(me, SPRITZ_SW_DROP_NO_ROUTE, tr);
	d = dv->sw;
	if (tr)
		tr->dst_sw = d;
	if (p.hop <= 1)
		return drop(me, SPRITZ_SW_DROP_HOP_LIMIT, tr);

	if (d == me) {
		/* Destination switch: the host slot of an exact host entry. */
		if (dv->slot < SPRITZ_SW_HOST_SLOT0 || dv->slot >= SPRITZ_SW_MAX_SLOTS)
			return drop(me, SPRITZ_SW_DROP_NO_ROUTE, tr);
		role = SPRITZ_SW_ROLE_DELIVER;
		slot = dv->slot;
		goto send;
	}

	mi = bpf_map_lookup_elem(&sw_info, &me);
	di = bpf_map_lookup_elem(&sw_info, &d);
	if (!mi || !di)
		return drop(me, SPRITZ_SW_DROP_NO_ROUTE, tr);

	/* Role detection (§III-A) and the ports each ECMP stage may use. */
	role = SPRITZ_SW_ROLE_DEFAULT;
	if (cfg->mode != SPRITZ_SW_MODE_MINIMAL) {
		bool df = cfg->policy == SPRITZ_SW_POLICY_DRAGONFLY;
		__u64 mask = 0;
		__u32 x = 0;

		if (in->slot >= SPRITZ_SW_HOST_SLOT0) {
			role = SPRITZ_SW_ROLE_ECMP1;
			mask = df && di->group == mi->group ? mi->local_mask : mi->all_mask;
		} else if (p.hop == (__u8)(cfg->hop_init - 1)) {
			key = SPRITZ_SW_SLOT_KEY(me, in->slot);
			inp = bpf_map_lookup_elem(&sw_ports, &key);
			if (!df || (inp && inp->type == SPRITZ_SW_LINK_LOCAL &&
				    di->group != mi->group)) {
				role = SPRITZ_SW_ROLE_ECMP2;
				mask = df ? mi->all_mask & ~mi->local_mask : mi->all_mask;
			}
		}
		if (role != SPRITZ_SW_ROLE_DEFAULT) {
			if (cfg->mode == SPRITZ_SW_MODE_SPRITZ) {
				ev = carried_ev(&p);
				if (tr)
					tr->ev = ev;
				if (ev >= 0) {
					x = role == SPRITZ_SW_ROLE_ECMP1 ? SPRITZ_EV1(ev) : SPRITZ_EV2(ev);
					if (x < SPRITZ_SW_MAX_NET_PORTS && ((mask >> x) & 1))
						port = x;
				}
			} else {
				if (cfg->mode == SPRITZ_SW_MODE_ECMP) {
					x = flow_hash(&p, cfg->seed);
					x = role == SPRITZ_SW_ROLE_ECMP1 ? x >> 16 : x & 0xffff;
				} else {
					x = bpf_get_prandom_u32();
				}
				if (tr)
					tr->ev = x;
				port = pick_nth(mask, x);
			}
		}
	}
	if (port >= 0) {
		steered = 1;
	} else {
		key = SPRITZ_SW_ROUTE_KEY(me, d);
		rt = bpf_map_lookup_elem(&sw_routes, &key);
		if (!rt || rt->port >= SPRITZ_SW_MAX_NET_PORTS)
			return drop(me, SPRITZ_SW_DROP_NO_PORT, tr);
		port = rt->port;
	}
	slot = port;

send:
	if (tr) {
		tr->role = role;
		tr->steered = steered;
	}
	key = SPRITZ_SW_SLOT_KEY(me, slot);
	out = bpf_map_lookup_elem(&sw_ports, &key);
	if (!out || !(out->flags & SPRITZ_SW_PORT_VALID) || !out->ifindex)
		return drop(me, SPRITZ_SW_DROP_NO_PORT, tr);
	if (out->flags & SPRITZ_SW_PORT_DOWN)
		return drop(me, SPRITZ_SW_DROP_DOWN, tr);
	if ((out->flags & SPRITZ_SW_PORT_BLACKHOLE) && !p.pure_ack)
		return drop(me, SPRITZ_SW_DROP_BLACKHOLE, tr);

	/* Rewrite: MACs, hop limit / TTL (with the IPv4 checksum). */
	if (bpf_skb_store_bytes(skb, 0, out->dst_mac, 6, 0) ||
	    bpf_skb_store_bytes(skb, 6, out->src_mac, 6, 0))
		return drop(me, SPRITZ_SW_DROP_MALFORMED, tr);
	hop = p.hop - 1;
	if (p.v6) {
		if (bpf_skb_store_bytes(skb, ETH_HLEN + 7, &hop, 1, 0))
			return drop(me, SPRITZ_SW_DROP_MALFORMED, tr);
	} else {
		__u16 old = bpf_htons(((__u16)p.hop << 8) | p.proto);
		__u16 new = bpf_htons(((__u16)hop << 8) | p.proto);

		if (bpf_l3_csum_replace(skb, ETH_HLEN + 10, old, new, 2) ||
		    bpf_skb_store_bytes(skb, ETH_HLEN + 8, &hop, 1, 0))
			return drop(me, SPRITZ_SW_DROP_MALFORMED, tr);
	}

	ctr = bpf_map_lookup_elem(&sw_tx, &key);
	if (ctr) {
		ctr->packets++;
		ctr->bytes += skb->len;
	}
	if (tr) {
		tr->out_slot = slot;
		tr->ifindex = out->ifindex;
	}
	return bpf_redirect(out->ifindex, 0);
}

char LICENSE[] SEC("license") = "GPL";
