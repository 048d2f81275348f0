/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Bounds-checked header parsing for the tc programs (the datapath and the
 * benchmark's floor program share it, so both parse exactly the same).
 *
 * Ethernet, up to two in-band VLAN tags (802.1Q / 802.1ad), then IPv6 with
 * TCP or UDP directly as next header (or TCP behind BIG TCP's hop-by-hop
 * jumbo header, below), or IPv4 (options allowed, no fragments) with TCP or
 * UDP.  Anything else - other ethertypes, other IPv6 extension headers,
 * other L4 protocols, fragments, headers cut short by
 * the packet, IP lengths that do not fit the packet, TCP data offsets
 * below 5 or beyond the segment - is classified and left alone.
 *
 * Every header access is checked against data_end (direct packet access),
 * so the verifier proves it; lengths from the headers are checked against
 * skb->len.  GSO super-packets may carry an IP length of 0 (BIG TCP):
 * then the L4 length is what the skb holds.
 *
 * IPv6 BIG TCP (GSO packets above 64 KiB, gso_max_size > 65536): up to
 * Linux 6.17 the stack inserts a hop-by-hop header with only a jumbo
 * payload option (RFC 2675) in front of TCP, and the driver strips it.  tc
 * egress sees it.  Exactly that shape is parsed - payload length 0, an
 * 8-byte hop-by-hop header, option 0xC2 of length 4, a jumbo length above
 * 65535 that fits the packet, TCP next - and the TCP segment is managed as
 * any other; any other hop-by-hop header is left alone.
 */
#ifndef _SPRITZ_PARSE_H
#define _SPRITZ_PARSE_H

#include "vmlinux.h"
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include <spritz/feedback.h> /* SPRITZ_TCP_* */

#ifndef ETH_P_IP
#define ETH_P_IP 0x0800
#define ETH_P_IPV6 0x86DD
#define ETH_P_8021Q 0x8100
#define ETH_P_8021AD 0x88A8
#endif
#ifndef ETH_HLEN
#define ETH_HLEN 14
#endif
#define SPRITZ_IPV6_HLEN 40
#define SPRITZ_TCP_HLEN 20
#define SPRITZ_UDP_HLEN 8
#define SPRITZ_IP_MF 0x2000
#define SPRITZ_IP_OFFMASK 0x1fff

/* What the parser found (spritz_parse()'s return). */
enum spritz_pkind {
	SPRITZ_PK_TCP6 = 0,
	SPRITZ_PK_UDP6,
	SPRITZ_PK_TCP4,
	SPRITZ_PK_UDP4,
	SPRITZ_PK_NOT_IP,    /* not IPv4/IPv6 (after VLAN tags) */
	SPRITZ_PK_PROTO,     /* IP, but not TCP/UDP right after the IP header */
	SPRITZ_PK_FRAGMENT,  /* IPv4 fragment (IPv6 ones have an ext. header) */
	SPRITZ_PK_MALFORMED, /* truncated or inconsistent */
};

/*
 * Our own header layouts, without bitfields and outside vmlinux.h's
 * preserve_access_index: packet formats do not relocate.
 */
struct spritz_eth {
	__u8 dst[6];
	__u8 src[6];
	__u16 proto;
};

struct spritz_vlan {
	__u16 tci;
	__u16 proto;
};

struct spritz_ip6 {
	__u32 vtc_flow; /* version 4, traffic class 8, flow label 20 */
	__u16 payload_len;
	__u8 nexthdr;
	__u8 hop_limit;
	__u8 saddr[16];
	__u8 daddr[16];
};

/* IPv6 BIG TCP's hop-by-hop header: one jumbo payload option (RFC 2675). */
struct spritz_hbh_jumbo {
	__u8 nexthdr;
	__u8 hdrlen;	/* 0: 8 bytes */
	__u8 opt_type;	/* SPRITZ_IPV6_TLV_JUMBO */
	__u8 opt_len;	/* 4 */
	__u32 jumbo;	/* bytes after the IPv6 header, this header included */
};

#define SPRITZ_NEXTHDR_HOP 0 /* IPv6 next header: hop-by-hop options */
#define SPRITZ_IPV6_TLV_JUMBO 0xc2
#define SPRITZ_IPV6_MAXPLEN 65535

struct spritz_ip4 {
	__u8 ver_ihl;
	__u8 tos;
	__u16 tot_len;
	__u16 id;
	__u16 frag_off;
	__u8 ttl;
	__u8 protocol;
	__u16 check;
	__u32 saddr;
	__u32 daddr;
};

/* TCP flags (byte 13): SPRITZ_TCP_* in <spritz/feedback.h> */

struct spritz_tcp {
	__u16 source;
	__u16 dest;
	__u32 seq;
	__u32 ack_seq;
	__u8 doff_res; /* data offset in the high nibble */
	__u8 flags;    /* SPRITZ_TCP_* */
	__u16 window;
	__u16 check;
	__u16 urg_ptr;
};

/* TCP options (RFC 9293, 2018, 7323) */
#define SPRITZ_TCPOPT_EOL 0
#define SPRITZ_TCPOPT_NOP 1
#define SPRITZ_TCPOPT_WSCALE 3
#define SPRITZ_TCPOLEN_WSCALE 3
#define SPRITZ_TCPOPT_SACK 5
#define SPRITZ_TCPOPT_TIMESTAMP 8
#define SPRITZ_TCPOLEN_TIMESTAMP 10
#define SPRITZ_TCPOLEN_TS_ALIGNED 12 /* NOP NOP TIMESTAMP */
#define SPRITZ_TCP_OPT_MAX 40

/*
 * The timestamp option of TCP header @th, if it opens the options as
 * Linux sends it on every segment after the handshake (NOP NOP
 * TIMESTAMP): 1, and its TSval and TSecr in @val and @ecr (host order).
 */
static __always_inline int spritz_tcp_ts(const struct spritz_tcp *th, const void *data_end,
					 __u32 *val, __u32 *ecr)
{
	const __u8 *o = (const __u8 *)(th + 1);

	if ((th->doff_res >> 4) < 8 || (const void *)(o + SPRITZ_TCPOLEN_TS_ALIGNED) > data_end)
		return 0;
	if (o[0] != SPRITZ_TCPOPT_NOP || o[1] != SPRITZ_TCPOPT_NOP ||
	    o[2] != SPRITZ_TCPOPT_TIMESTAMP || o[3] != SPRITZ_TCPOLEN_TIMESTAMP)
		return 0;
	*val = (__u32)o[4] << 24 | (__u32)o[5] << 16 | (__u32)o[6] << 8 | o[7];
	*ecr = (__u32)o[8] << 24 | (__u32)o[9] << 16 | (__u32)o[10] << 8 | o[11];
	return 1;
}

struct spritz_udp {
	__u16 source;
	__u16 dest;
	__u16 len;
	__u16 check;
};

struct spritz_hdrs {
	void *l3;	/* struct spritz_ip6 or spritz_ip4 */
	void *l4;	/* struct spritz_tcp (all doff*4 bytes in data) or spritz_udp */
	__u32 l4_off;	/* offset of l4 from skb->data */
	__u32 l4_len;	/* L4 header + payload bytes, from the IP header */
};

/*
 * skb->data and skb->data_end, each loaded by its own instruction straight
 * from the context: clang otherwise likes to keep ctx + offset in a
 * register and load through it later, which the verifier refuses
 * ("dereference of modified ctx ptr").
 */
#define SPRITZ_CTX_PTR(skb, field)                                                   \
	({                                                                           \
		void *__p;                                                           \
		asm volatile("%0 = *(u32 *)(%1 + %2)"                                \
			     : "=r"(__p)                                             \
			     : "r"(skb), "i"(__builtin_offsetof(struct __sk_buff, field))); \
		__p;                                                                 \
	})
#define spritz_data(skb) SPRITZ_CTX_PTR(skb, data)
#define spritz_data_end(skb) SPRITZ_CTX_PTR(skb, data_end)

/*
 * Make the first @want bytes linear, so a packet whose headers sit in
 * paged data is parsed rather than called malformed (does not change a
 * byte).  Called only after a parse found the headers cut short: the
 * stack's TCP packets have their headers linear and the payload in pages,
 * and pulling payload into the head for every packet would copy (and may
 * reallocate) per packet.  1 if it tried: every packet pointer is then
 * stale, parse again.
 */
#define SPRITZ_PULL_LEN 128
#define SPRITZ_PULL_INNER 320

static __always_inline int spritz_pull_headers(struct __sk_buff *skb, __u32 want)
{
	__u32 lin = spritz_data_end(skb) - spritz_data(skb), len = skb->len;

	if (lin >= want || len <= lin)
		return 0;
	/* even if it fails: the verifier forgets every packet pointer */
	bpf_skb_pull_data(skb, len < want ? len : want);
	return 1;
}

/*
 * BIG TCP's hop-by-hop header at @hbh, @room bytes of packet after the IPv6
 * header: 0 and *@l4len = the TCP segment's length if it is exactly that
 * shape, -1 if it is any other hop-by-hop header.
 */
static __always_inline int spritz_parse_jumbo(const struct spritz_ip6 *ip6,
					      const struct spritz_hbh_jumbo *hbh,
					      const void *data_end, __u32 room, __u32 *l4len)
{
	__u32 jumbo;

	if ((const void *)(hbh + 1) > data_end || ip6->payload_len != 0 ||
	    hbh->nexthdr != IPPROTO_TCP || hbh->hdrlen != 0 ||
	    hbh->opt_type != SPRITZ_IPV6_TLV_JUMBO || hbh->opt_len != 4)
		return -1;
	jumbo = bpf_ntohl(hbh->jumbo);
	if (jumbo <= SPRITZ_IPV6_MAXPLEN || jumbo > room)
		return -1;
	*l4len = jumbo - sizeof(*hbh);
	return 0;
}

/*
 * Parse the Ethernet frame at offset @base of the packet: 0 for the packet
 * itself, the inner frame's offset for a tunnel (VXLAN, Geneve).
 */
static __always_inline int spritz_parse_at(struct __sk_buff *skb, __u32 base,
					   struct spritz_hdrs *h)
{
	void *data = spritz_data(skb);
	void *data_end = spritz_data_end(skb);
	struct spritz_eth *eth;
	__u32 off, skb_len = skb->len, iplen, l4len;
	__u16 proto;
	__u8 l4p;

	/* base <= SPRITZ_INNER_MAX: keep the verifier's range of it small */
	base &= 0xff;
	eth = data + base;
	off = base + ETH_HLEN;
	if ((void *)(eth + 1) > data_end)
		return SPRITZ_PK_MALFORMED;
	proto = eth->proto;
	if (proto == bpf_htons(ETH_P_8021Q) || proto == bpf_htons(ETH_P_8021AD)) {
		struct spritz_vlan *v = data + off;

		if ((void *)(v + 1) > data_end)
			return SPRITZ_PK_MALFORMED;
		proto = v->proto;
		off += sizeof(*v);
		if (proto == bpf_htons(ETH_P_8021Q)) {
			v = data + off;
			if ((void *)(v + 1) > data_end)
				return SPRITZ_PK_MALFORMED;
			proto = v->proto;
			off += sizeof(*v);
		}
	}

	if (proto == bpf_htons(ETH_P_IPV6)) {
		struct spritz_ip6 *ip6 = data + off;

		if ((void *)(ip6 + 1) > data_end)
			return SPRITZ_PK_MALFORMED;
		if ((ip6->vtc_flow & bpf_htonl(0xf0000000)) != bpf_htonl(0x60000000))
			return SPRITZ_PK_MALFORMED;
		l4p = ip6->nexthdr;
		h->l3 = ip6;
		off += SPRITZ_IPV6_HLEN;
		iplen = bpf_ntohs(ip6->payload_len);
		if (l4p == SPRITZ_NEXTHDR_HOP) {
			if (spritz_parse_jumbo(ip6, data + off, data_end, skb_len - off, &iplen))
				return SPRITZ_PK_PROTO;
			l4p = IPPROTO_TCP;
			off += sizeof(struct spritz_hbh_jumbo);
		} else if (l4p != IPPROTO_TCP && l4p != IPPROTO_UDP) {
			return SPRITZ_PK_PROTO;
		}
		if (iplen == 0 && skb->gso_segs > 1 && skb_len > off)
			iplen = skb_len - off; /* BIG TCP */
		if (off + iplen > skb_len)
			return SPRITZ_PK_MALFORMED;
		l4len = iplen;
	} else if (proto == bpf_htons(ETH_P_IP)) {
		struct spritz_ip4 *ip4 = data + off;
		__u32 ihl;

		if ((void *)(ip4 + 1) > data_end)
			return SPRITZ_PK_MALFORMED;
		ihl = ip4->ver_ihl & 0xf;
		if ((ip4->ver_ihl >> 4) != 4 || ihl < 5)
			return SPRITZ_PK_MALFORMED;
		l4p = ip4->protocol;
		if (l4p != IPPROTO_TCP && l4p != IPPROTO_UDP)
			return SPRITZ_PK_PROTO;
		if (ip4->frag_off & bpf_htons(SPRITZ_IP_MF | SPRITZ_IP_OFFMASK))
			return SPRITZ_PK_FRAGMENT;
		h->l3 = ip4;
		iplen = bpf_ntohs(ip4->tot_len);
		if (iplen == 0 && skb->gso_segs > 1 && skb_len > off)
			iplen = skb_len - off; /* BIG TCP */
		ihl *= 4;
		if (iplen < ihl || off + iplen > skb_len)
			return SPRITZ_PK_MALFORMED;
		l4len = iplen - ihl;
		off += ihl;
	} else {
		return SPRITZ_PK_NOT_IP;
	}

	/* off <= base + 22 + 60 here; keep the verifier's range of it small */
	off &= 0x1ff;
	h->l4_off = off;
	h->l4_len = l4len;
	if (l4p == IPPROTO_TCP) {
		struct spritz_tcp *th = data + off;
		__u32 doff;

		if ((void *)(th + 1) > data_end)
			return SPRITZ_PK_MALFORMED;
		doff = (th->doff_res >> 4) * 4;
		if (doff < SPRITZ_TCP_HLEN || doff > l4len)
			return SPRITZ_PK_MALFORMED;
		/* the options too must be readable */
		if (data + off + (doff & 0x3c) > data_end)
			return SPRITZ_PK_MALFORMED;
		h->l4 = th;
		return proto == bpf_htons(ETH_P_IPV6) ? SPRITZ_PK_TCP6 : SPRITZ_PK_TCP4;
	}
	{
		struct spritz_udp *uh = data + off;

		if ((void *)(uh + 1) > data_end)
			return SPRITZ_PK_MALFORMED;
		if (l4len < SPRITZ_UDP_HLEN || bpf_ntohs(uh->len) > l4len)
			return SPRITZ_PK_MALFORMED;
		h->l4 = uh;
		return proto == bpf_htons(ETH_P_IPV6) ? SPRITZ_PK_UDP6 : SPRITZ_PK_UDP4;
	}
}

/* The packet's own headers; pulled into the linear part if cut short there. */
static __always_inline int spritz_parse(struct __sk_buff *skb, struct spritz_hdrs *h)
{
	int kind = spritz_parse_at(skb, 0, h);

	if (kind == SPRITZ_PK_MALFORMED && spritz_pull_headers(skb, SPRITZ_PULL_LEN))
		kind = spritz_parse_at(skb, 0, h);
	return kind;
}

/* Tunnel headers after the outer UDP header (RFC 7348, RFC 8926). */
#define SPRITZ_VXLAN_HLEN 8
#define SPRITZ_VXLAN_FLAG_I 0x08 /* first byte: VNI valid */
#define SPRITZ_GENEVE_HLEN 8
#define SPRITZ_GENEVE_OPT_MAX 32 /* option bytes we step over */
#define SPRITZ_ETH_P_TEB 0x6558	 /* Geneve protocol type: Ethernet */
#define SPRITZ_INNER_MAX 160	 /* largest inner frame offset parsed */

/*
 * Offset of the inner Ethernet frame of a VXLAN (UDP port 4789) or Geneve
 * (6081) packet whose outer UDP header @h found, or 0 if there is none we
 * parse: another port, VXLAN without the I flag, Geneve of another version
 * or protocol, Geneve options longer than SPRITZ_GENEVE_OPT_MAX.
 */
static __always_inline __u32 spritz_tunnel_inner(struct __sk_buff *skb,
						 const struct spritz_hdrs *h, __u16 port)
{
	void *data_end = spritz_data_end(skb);
	__u32 off = (h->l4_off & 0x1ff) + SPRITZ_UDP_HLEN, inner;
	__u8 *t = spritz_data(skb) + off;

	if ((void *)(t + 8) > data_end)
		return 0;
	if (port == SPRITZ_UDP_PORT_VXLAN) {
		if (!(t[0] & SPRITZ_VXLAN_FLAG_I))
			return 0;
		inner = off + SPRITZ_VXLAN_HLEN;
	} else if (port == SPRITZ_UDP_PORT_GENEVE) {
		__u32 optlen = (t[0] & 0x3f) * 4;

		if ((t[0] >> 6) != 0 || optlen > SPRITZ_GENEVE_OPT_MAX ||
		    ((__u32)t[2] << 8 | t[3]) != SPRITZ_ETH_P_TEB)
			return 0;
		inner = off + SPRITZ_GENEVE_HLEN + optlen;
	} else {
		return 0;
	}
	return inner <= SPRITZ_INNER_MAX ? inner : 0;
}

/*
 * The VNI (bytes 4-6 of the VXLAN or Geneve header, RFC 7348 / 8926) of the
 * tunnel packet whose outer UDP header is at @l4_off; 0 if cut short.
 * Read with a helper, not through packet pointers, so the parse's ranges
 * stay as they were.
 */
static __always_inline __u32 spritz_tunnel_vni(struct __sk_buff *skb, __u32 l4_off)
{
	__u8 b[4] = { 0 };

	if (bpf_skb_load_bytes(skb, (l4_off & 0x1ff) + SPRITZ_UDP_HLEN + 4, b, 3))
		return 0;
	return (__u32)b[0] << 16 | (__u32)b[1] << 8 | b[2];
}

/* First 32-bit word of the IPv6 header: version 4, traffic class 8, flow label 20. */
#define SPRITZ_FLOWLABEL_MASK 0x000fffffU

/* Write @label (20 bits) as the IPv6 flow label; the rest is kept. */
static __always_inline void spritz_set_flowlabel(struct spritz_ip6 *ip6, __u32 label)
{
	ip6->vtc_flow = (ip6->vtc_flow & bpf_htonl(~SPRITZ_FLOWLABEL_MASK)) | bpf_htonl(label & SPRITZ_FLOWLABEL_MASK);
}

#endif /* _SPRITZ_PARSE_H */
