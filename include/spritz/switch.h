/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Maps of the reference switch pipeline (bpf/spritz_switch.bpf.c): every
 * key and value struct, shared by the BPF program, the lab loader
 * (lab/labctl.c), libspritz (user/lib/swtables.c) and the tests.
 * Documentation/switch.rst describes the pipeline.
 *
 * One loaded program serves every switch of a lab fabric: each switch is a
 * network namespace, the program is attached at tc ingress (clsact) of
 * every port of every switch, and all maps are global, keyed by switch id.
 * The ingress device tells the program which switch and port it runs on;
 * the lab gives every device of the fabric a globally unique ifindex
 * (Documentation/lab.rst) so that one map can be keyed by it.
 *
 *	sw_cfg		array[1]   mode, policy, initial hop limit, flags
 *	sw_info		array      switch -> group, degree, port masks
 *	sw_ports	array      (switch, slot) -> egress ifindex, MACs, type, flags
 *	sw_ingress	hash       ingress ifindex -> (switch, slot)
 *	sw_routes	array      (switch, dst switch) -> default next port, hops
 *	sw_dir		LPM trie   IPv6 prefix (IPv4 as ::ffff:0:0/96) -> dst switch, host slot
 *	sw_tx		per-CPU    (switch, slot) -> packets, bytes sent
 *	sw_drops	per-CPU    (switch, reason) -> packets dropped
 *	sw_vq		array      (switch, slot) -> virtual queue: backlog, rate (UGAL-L)
 *	sw_trace	array[1]   last decision (tests; only with SPRITZ_SW_F_TRACE)
 *
 * The decisions themselves are include/spritz/switch_core.h.
 *
 * Slots: 0..SPRITZ_SW_MAX_NET_PORTS-1 are network ports in canonical order
 * (the index EV1/EV2 carry, Documentation/paths.rst), SPRITZ_SW_HOST_SLOT0
 * + k is host port k.
 */
#ifndef _SPRITZ_SWITCH_H
#define _SPRITZ_SWITCH_H

#include "abi.h"

#define SPRITZ_SW_PIN_DIR "/sys/fs/bpf/spritz-lab"

#define SPRITZ_SW_MAX_SWITCHES 512
#define SPRITZ_SW_MAX_SLOTS 64
#define SPRITZ_SW_MAX_NET_PORTS 48 /* slots 0..47: network ports */
#define SPRITZ_SW_HOST_SLOT0 48	   /* slots 48..63: host ports */
#define SPRITZ_SW_MAX_HOSTS (SPRITZ_SW_MAX_SLOTS - SPRITZ_SW_HOST_SLOT0)
#define SPRITZ_SW_SLOT_NONE 0xff

#define SPRITZ_SW_SLOT_KEY(sw, slot) ((__u32)(sw) * SPRITZ_SW_MAX_SLOTS + (__u32)(slot))
#define SPRITZ_SW_ROUTE_KEY(sw, dst) ((__u32)(sw) * SPRITZ_SW_MAX_SWITCHES + (__u32)(dst))

/*
 * Initial hop limit (IPv6) / TTL (IPv4) of packets leaving a host: the
 * Linux default.  The role marker: the ECMP 1 switch decrements it, so the
 * second switch of every path, and only it, sees SPRITZ_SW_HOP_INIT - 1.
 */
#define SPRITZ_SW_HOP_INIT 64

/* UDP carrier ports and fields: SPRITZ_UDP_*_CARRIER() in abi.h. */

/* sw_cfg.mode */
enum spritz_sw_mode {
	SPRITZ_SW_MODE_SPRITZ = 0,  /* EV1/EV2 steer hop 1/2 (identity hash) */
	SPRITZ_SW_MODE_MINIMAL = 1, /* default table only */
	SPRITZ_SW_MODE_VALIANT = 2, /* per-packet random port at ECMP 1 and 2 */
	SPRITZ_SW_MODE_ECMP = 3,    /* flow hash -> port at ECMP 1 and 2 */
	SPRITZ_SW_MODE_UGAL_L = 4,  /* ECMP 1: minimal or Valiant by local queues */
	SPRITZ_SW_MODE_MAX,
};

/* sw_cfg.policy: which ports each ECMP stage may use (enum spritz_policy). */
#define SPRITZ_SW_POLICY_GENERIC 0
#define SPRITZ_SW_POLICY_DRAGONFLY 1

/* sw_cfg.flags */
#define SPRITZ_SW_F_TRACE 0x1 /* record the last decision in sw_trace */

struct spritz_sw_cfg {
	__u32 mode;	/* enum spritz_sw_mode */
	__u32 policy;	/* SPRITZ_SW_POLICY_* */
	__u32 nsw;	/* switches in the fabric */
	__u32 flags;	/* SPRITZ_SW_F_* */
	__u32 hop_init; /* SPRITZ_SW_HOP_INIT unless changed */
	__u32 seed;	/* ECMP hash seed */
};

/* sw_info[switch] */
struct spritz_sw_info {
	__u32 group;
	__u32 degree;	  /* network ports */
	__u64 local_mask; /* bit i: network port i is a local link */
	__u64 all_mask;	  /* bits 0..degree-1 */
};

/* spritz_sw_port.type */
#define SPRITZ_SW_LINK_LOCAL 0 /* = SPRITZ_LINK_LOCAL */
#define SPRITZ_SW_LINK_GLOBAL 1
#define SPRITZ_SW_LINK_HOST 2

/* spritz_sw_port.flags */
#define SPRITZ_SW_PORT_VALID 0x1
#define SPRITZ_SW_PORT_BLACKHOLE 0x2 /* drop data, pass pure TCP ACKs */
#define SPRITZ_SW_PORT_DOWN 0x4	     /* drop everything */

/* sw_ports[SPRITZ_SW_SLOT_KEY(switch, slot)]: how to send out of a slot. */
struct spritz_sw_port {
	__u32 ifindex; /* egress device in the switch's namespace */
	__u32 peer;    /* neighbour switch, or host number k for host slots */
	__u8 type;     /* SPRITZ_SW_LINK_* */
	__u8 flags;    /* SPRITZ_SW_PORT_* */
	__u8 src_mac[6];
	__u8 dst_mac[6];
	__u8 pad[2];
};

/* sw_ingress[ifindex]: where a packet arriving on that device is. */
struct spritz_sw_in {
	__u32 sw;
	__u32 slot;
};

/* sw_routes[SPRITZ_SW_ROUTE_KEY(switch, dst)]: default next port. */
struct spritz_sw_route {
	__u32 port; /* canonical port index; SPRITZ_SW_SLOT_NONE if none */
	__u32 hops; /* switch-to-switch hops of the default route (0: dst = switch) */
};

/* sw_dir key: an IPv6 prefix; IPv4 addresses are ::ffff:a.b.c.d. */
struct spritz_sw_dir_key {
	__u32 prefixlen;
	__u8 addr[16];
};

struct spritz_sw_dir_val {
	__u32 sw;   /* destination switch */
	__u32 slot; /* host slot at sw (exact host entries), else SPRITZ_SW_SLOT_NONE */
};

/* Counters per (switch, slot) of packets sent. */
struct spritz_sw_ctr {
	__u64 packets;
	__u64 bytes;
};

/*
 * sw_vq[SPRITZ_SW_SLOT_KEY(switch, slot)]: the port's virtual output queue
 * (switch_core.h spritz_sw_vq_*(); Documentation/switch.rst, "UGAL-L").
 * labctl sets rate_kbps; the pipeline adds every packet it sends.
 */
struct spritz_sw_vq {
	__u64 backlog;	 /* bytes queued at last_ns */
	__u64 last_ns;	 /* CLOCK_MONOTONIC of the last update */
	__u32 rate_kbps; /* port rate, kbit/s; 0: not modelled (backlog reads 0) */
	__u32 limit;	 /* queue limit, bytes (tail drop); 0: none */
};

/* sw_drops[switch * SPRITZ_SW_DROP_MAX + reason] */
enum spritz_sw_drop {
	SPRITZ_SW_DROP_NOT_IP = 0,  /* not IPv4/IPv6 (ARP too: neighbours are static) */
	SPRITZ_SW_DROP_MALFORMED,   /* IP header cut short or bad version */
	SPRITZ_SW_DROP_NO_ROUTE,    /* destination not in sw_dir (incl. multicast, NDP) */
	SPRITZ_SW_DROP_HOP_LIMIT,   /* hop limit / TTL <= 1 */
	SPRITZ_SW_DROP_BLACKHOLE,   /* data packet on a blackholed port */
	SPRITZ_SW_DROP_DOWN,	    /* port down */
	SPRITZ_SW_DROP_NO_PORT,	    /* table points to an unconfigured slot */
	SPRITZ_SW_DROP_MAX,
};

/* spritz_sw_trace.role */
enum spritz_sw_role {
	SPRITZ_SW_ROLE_NONE = 0,
	SPRITZ_SW_ROLE_ECMP1 = 1,
	SPRITZ_SW_ROLE_ECMP2 = 2,
	SPRITZ_SW_ROLE_DEFAULT = 3, /* intermediate location / no role */
	SPRITZ_SW_ROLE_DELIVER = 4, /* destination switch: to a host port */
};

/* sw_trace[0]: the last packet's decision (SPRITZ_SW_F_TRACE). */
struct spritz_sw_trace {
	__u64 seq;	/* packets traced so far */
	__u32 sw;
	__u32 in_slot;
	__u32 role;	/* enum spritz_sw_role */
	__u32 out_slot; /* SPRITZ_SW_SLOT_NONE if dropped */
	__u32 ifindex;	/* redirect target */
	__u32 drop;	/* enum spritz_sw_drop + 1, 0 = forwarded */
	__u32 ev;	/* EV read from the packet (or hashed / random) */
	__u32 hop_in;	/* hop limit / TTL as received */
	__u32 dst_sw;
	__u32 steered;	/* 1 if the EV chose the port, 0 if the default table did */
};

#endif /* _SPRITZ_SWITCH_H */
