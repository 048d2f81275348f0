/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Maps of the tc datapath (bpf/spritz.bpf.c): every key and value struct,
 * shared by the BPF programs, spritzctl, libspritz and the tests.  All
 * structs have explicit padding and no bitfields, and each map is declared
 * with BTF types, so `bpftool map dump pinned /sys/fs/bpf/spritz/<map>`
 * prints field names.  Documentation/datapath.rst describes each map.
 *
 *	spritz_devs	hash      ifindex of an attached device -> its switch
 *	spritz_dir	LPM trie  IPv6 prefix (IPv4 as ::ffff:0:0/96) -> dst switch
 *	spritz_udp	array     UDP destination port -> carrier mode
 *	spritz_flows	array     slot (flowtab.h) -> flow 5-tuple, algorithm state, in-flight ring
 *	spritz_inner	LRU hash  TCP flow inside a VXLAN/Geneve flow -> that flow
 *	spritz_peers	LRU hash  peer address -> its flows' recent host-wide path disables
 *	spritz_stats	per-CPU array[1] of named counters
 *	spritz_knobs	per-CPU array[2]: the knob snapshot (bpf_spritz_knobs()), egress and ingress
 *	spritzctl_state	hash      spritzctl's records; the programs never read it
 */
#ifndef _SPRITZ_MAPS_H
#define _SPRITZ_MAPS_H

#include "abi.h"
#include "lb.h"

/* Pin directory (bpffs) and map names, as the loader pins them. */
#define SPRITZ_PIN_DIR "/sys/fs/bpf/spritz"
#define SPRITZ_MAP_DEVS "spritz_devs"
#define SPRITZ_MAP_DIR "spritz_dir"
#define SPRITZ_MAP_UDP "spritz_udp"
#define SPRITZ_MAP_FLOWS "spritz_flows"
#define SPRITZ_MAP_INNER "spritz_inner"
#define SPRITZ_MAP_PEERS "spritz_peers"
#define SPRITZ_MAP_SYNACKS "spritz_synacks"
#define SPRITZ_MAP_STATS "spritz_stats"
#define SPRITZ_MAP_KNOBS "spritz_knobs"
#define SPRITZ_MAP_STATE "spritzctl_state"

/* Map sizes. */
#define SPRITZ_DEVS_MAX 256	/* attached devices */
#define SPRITZ_DIR_MAX 65536	/* directory prefixes */
#define SPRITZ_FLOWS_MAX 65536	/* flow table slots (flowtab.h) */
#define SPRITZ_UDP_PORTS 65536	/* one slot per port */
#define SPRITZ_PEERS_MAX 4096	/* peers whose flows disabled a path (LRU) */
#define SPRITZ_SYNACKS_MAX 8192	/* SYN-ACKs sent before their flow had an entry (LRU) */

/* -------------------------------------------------------------- devices */

/*
 * One entry per device the programs are attached to: the switch the device
 * is cabled to (the source switch of its endpoint table, paper §III-C).
 * Packets leaving a device without an entry pass untouched.  ifindexes are
 * per network namespace; spritzctl keeps one pinned object per bpffs, so
 * devices sharing it must have distinct ifindexes (the lab's do).
 */
struct spritz_dev_key {
	__u32 ifindex;
};

struct spritz_dev_val {
	__u32 src_switch; /* bpf_spritz_pick()'s @src */
	__u32 flags;	  /* reserved, 0 */
};

/* ------------------------------------------------------------ directory */

/* LPM key: prefixlen counts bits of addr (IPv4 a.b.c.d/n is ::ffff:a.b.c.d/96+n). */
struct spritz_dir_key {
	__u32 prefixlen;
	__u8 addr[16];
};

struct spritz_dir_val {
	__u32 dst_switch; /* destination switch: bpf_spritz_pick()'s @dst */
	__u32 flags;	  /* reserved, 0 */
};

/* ------------------------------------------------------------ UDP ports */

/* spritz_udp_port.mode */
#define SPRITZ_UDP_DEFAULT 0 /* carrier iff a default port (below) */
#define SPRITZ_UDP_ON 1	     /* carrier */
#define SPRITZ_UDP_OFF 2     /* never */

/* The default carrier ports are SPRITZ_UDP_PORT_* in abi.h. */

struct spritz_udp_port {
	__u32 mode; /* SPRITZ_UDP_* */
};

/* ----------------------------------------------------------------- flows */

/*
 * Flow key, from the sender's side: saddr/sport are the local end.  IPv4
 * addresses (UDP carriers only) are v4-mapped.  For UDP carriers sport is
 * the port the stack chose (the tunnel's inner-flow hash), before Spritz
 * replaces it with the EV.  The key of an inner TCP flow (spritz_inner)
 * holds its tunnel's VNI in vni (bytes 4-6 of the VXLAN or Geneve header,
 * as on the wire), so that tenants' flows with the same addresses and
 * ports are not one flow; every other key has vni 0.
 */
struct spritz_flow_key {
	__u8 saddr[16];
	__u8 daddr[16];
	__u16 sport; /* host byte order */
	__u16 dport; /* host byte order */
	__u8 proto;  /* IPPROTO_TCP or IPPROTO_UDP */
	__u8 vni[3]; /* an inner TCP flow's VNI, else 0 */
} __attribute__((aligned(4))); /* read as 32-bit words (flowtab.h) */

/*
 * In-flight ring: the last SPRITZ_RING_SIZE data sends of a TCP flow,
 * kept and read by the feedback core (feedback.h).  It must hold a
 * flow's window of sends, or sends go unrecorded (eg_ring_overrun).  In
 * the datapath a send is a GSO packet (up to 64 KiB; TCP sizes them to
 * about 1 ms of its rate), so at high rates 16 records cover more than a
 * window (1 MiB against a 365 KB BDP at 400 Gb/s, 7.3 us); a simulator
 * that sends packet by packet builds with a ring of a window of packets
 * (-DSPRITZ_RING_SIZE=N, a power of two; sim.rst).
 * Memory: 24 B per record, in every flow's value.
 */
#ifndef SPRITZ_RING_SIZE
#define SPRITZ_RING_SIZE 16
#endif
#if SPRITZ_RING_SIZE < 2 || SPRITZ_RING_SIZE > 4096 || (SPRITZ_RING_SIZE & (SPRITZ_RING_SIZE - 1))
#error "SPRITZ_RING_SIZE must be a power of two in 2..4096"
#endif
#define SPRITZ_RING_MASK (SPRITZ_RING_SIZE - 1)

/* spritz_inflight.state */
#define SPRITZ_IF_FREE 0    /* unused or feedback given */
#define SPRITZ_IF_PENDING 1 /* sent, waiting for feedback */
#define SPRITZ_IF_DONE 2    /* + enum spritz_lb_fb: outcome known, not yet delivered */
#define SPRITZ_IF_LOST 6    /* suspect: lost, awaiting the dead-path rule (feedback.h) */
#define SPRITZ_IF_ACKED 7   /* delivered, feedback given: evidence until overwritten */

/* spritz_inflight.flags (the suspect's; in the ring only SPRITZ_IF_F_PART, _VERIFY, _REPAIR) */
#define SPRITZ_IF_F_SEED (1U << 0)   /* evidence from the ring not yet gathered */
#define SPRITZ_IF_F_ALIVE (1U << 1)  /* a later send on its EV was delivered */
#define SPRITZ_IF_F_REACH (1U << 2)  /* a send on another EV, within the timeout, was */
#define SPRITZ_IF_F_WAITED (1U << 3) /* judged once without evidence (fb_no_reach counted) */
#define SPRITZ_IF_F_AGAIN (1U << 4)  /* another send on its EV was lost too */
#define SPRITZ_IF_F_RESENT (1U << 5) /* TCP sent its sequence again */
#define SPRITZ_IF_F_MOVED (1U << 6)  /* ... first on another EV, at fb.repair_ns */
#define SPRITZ_IF_F_TSVAL (1U << 7)  /* ... first with TCP timestamp fb.repair_tsval */
#define SPRITZ_IF_F_KARN (1U << 8)   /* ... and that repair's sequence again later */
#define SPRITZ_IF_F_PART (1U << 9)   /* ring: part of the send was acknowledged */
#define SPRITZ_IF_F_VERIFY (1U << 10) /* ring: sent on the EV of a suspect without evidence */
#define SPRITZ_IF_F_LATER (1U << 11) /* a send on another EV, past the timeout, was delivered */
#define SPRITZ_IF_F_REPAIR (1U << 12) /* ring: TCP's repair, sequence sent before */

/* One data send: sequence range [start_seq, end_seq), the path, the time. */
struct spritz_inflight {
	__u64 sent_ns;	 /* bpf_ktime_get_ns() at egress */
	__u32 start_seq; /* host order */
	__u32 end_seq;	 /* start + payload (+1 for SYN, FIN) */
	__u16 ev;
	__u8 lat_class;
	__u8 state; /* SPRITZ_IF_* */
	__u16 segs;  /* gso_segs (1 for a plain packet) */
	__u16 flags; /* SPRITZ_IF_F_* */
};

/* spritz_fb_flow.flags */
#define SPRITZ_FB_F_HAVE_SEQ (1U << 0) /* snd_una, snd_nxt are valid */
#define SPRITZ_FB_F_SUSPECT (1U << 1)  /* suspect.state is LOST: ACKs are scanned */
#define SPRITZ_FB_F_VERIFY (1U << 2)   /* the next new data goes to verify_ev (spritz_fb_verify()) */
#define SPRITZ_FB_F_VERIFY_SENT (1U << 3) /* ... it went: the record is the verify send */
#define SPRITZ_FB_F_REPAIR_SENT (1U << 4) /* the send spritz_fb_presend() saw last is a repair */
#define SPRITZ_FB_F_HAVE_RCV (1U << 5)	  /* rcv_wup, rcv_wend are set (spritz_fb_rcv_sent()) */
#define SPRITZ_FB_F_WSCALE (1U << 6)	  /* rcv_wscale is the handshake's (spritz_fb_wscale_sent()) */

/*
 * ECN-marked deliveries a flow remembers per EV, for the dead-path rule's
 * congestion veto (feedback.h): the most recent marked send on each of
 * its last few marked EVs, however long ago the ring overwrote it.
 */
#define SPRITZ_FB_MARKS 4

struct spritz_fb_mark {
	__u64 sent_ns; /* send time of the EV's latest ECN-marked delivery */
	__u16 ev;
	__u16 used; /* 0: an empty slot */
	__u16 __pad[2];
};

/* The feedback core's state of one TCP flow (feedback.h). */
struct spritz_fb_flow {
	__u32 snd_nxt;	 /* highest end_seq sent (data, FIN) */
	__u32 snd_una;	 /* highest valid cumulative ACK, <= snd_nxt */
	__u32 ring_head; /* next slot: ring[ring_head & MASK] */
	__u32 flags;	 /* SPRITZ_FB_F_* */
	__u32 srtt_us;	 /* the socket's smoothed RTT at the last data send, 0: unknown */
	__u32 suspect_head; /* ring_head when the suspect was lost */
	__u32 dupthresh; /* the socket's reordering (TCP's DupThresh) then, 0: unknown */
	__u32 unsent;	 /* bytes the socket held beyond that send (write_seq - its end) */
	__u32 repair_tsval; /* TSval (RFC 7323) of TCP's first repair of the suspect */
	__u32 repair_seq;   /* first sequence number of its first repair on another EV */
	__u32 rcv_wup;	    /* the socket's rcv_wup at its last send: the peer's segments end at or after it */
	__u32 rcv_wend;	    /* ... its rcv_wup + rcv_wnd: and start at or before this */
	__u64 avoid;	    /* EVs the flow's samples avoid, SPRITZ_AVOID_* (spritz_fb_avoid()) */
	__u64 repair_ns;    /* time the suspect was sent again on another EV */
	__u64 verify_until; /* SPRITZ_FB_F_VERIFY: no verify send from this time on */
	__u16 verify_ev;    /* ... the EV of the suspect it verifies, and its class */
	__u8 verify_lat;
	__u8 rcv_wscale;    /* F_WSCALE: the scale of the window fields the flow's segments carry */
	__u8 __pad[4];
	struct spritz_fb_mark marks[SPRITZ_FB_MARKS];
	struct spritz_inflight ring[SPRITZ_RING_SIZE];
	struct spritz_inflight suspect; /* the lost send under the dead-path rule */
};

/* spritz_flow.flags */
#define SPRITZ_FLOW_F_HAVE_EV (1U << 0) /* last_ev is valid */
/* (1U << 1): was HAVE_SEQ, now SPRITZ_FB_F_HAVE_SEQ in spritz_fb_flow */
#define SPRITZ_FLOW_F_INNER (1U << 2)	 /* UDP carrier with an inner TCP flow */
#define SPRITZ_FLOW_F_MIXED (1U << 3)	 /* ... and more than one: no ring */

/* Per-flow value. */
struct spritz_flow {
	struct spritz_flow_key key; /* the slot's flow (flowtab.h); proto 0: free */
	__u64 used_ns;		  /* last data send (0: none): LRU within the set */
	struct spritz_lb_flow lb; /* algorithm state (lb.h), 72 B */
	__u64 bytes_sent;	  /* skb->len sum, for the small-flow bias */
	__u64 packets;		  /* managed packets (GSO segments counted) */
	__u32 src_switch;	  /* the egress device's, at flow creation */
	__u32 dst_switch;	  /* from the directory at flow creation */
	__u32 flags;		  /* SPRITZ_FLOW_F_* */
	__u32 inner_ports;	  /* F_INNER: the inner TCP flow's sport << 16 | dport */
	__u32 inner_addrs;	  /* F_INNER: xor of its address words */
	__u16 last_ev;		  /* EV of the last steered packet */
	__u8 last_lat_class;
	__u8 disables;		  /* host-wide path disables since disables_ns */
	__u64 disables_ns;	  /* ... (spritz_fb_disable_ok()) */
	struct spritz_fb_flow fb; /* sequence space and ring (TCP, or inner TCP) */
};

/* ----------------------------------------------------------------- peers */

/*
 * The host-wide path disables that the flows to one peer made
 * (spritz_fb_disable_ok(), knob peer_disables), keyed by the peer's
 * address as in spritz_flow_key.daddr (IPv4 v4-mapped; a tunnel flow's
 * outer peer).  An entry is made at its flows' first TIMEOUT; the map is an
 * LRU, so a peer quiet for long makes room for others.
 */
struct spritz_peer_key {
	__u8 addr[16];
};

struct spritz_peer {
	__u64 disables_ns; /* the first of the disables counted */
	__u8 disables;	   /* disables since disables_ns */
	__u8 __pad[7];
};

/* -------------------------------------------------------------- synacks */

/*
 * A SYN-ACK that no socket sent (a forwarded server's) left, and no flow
 * entry took it - a SYN-ACK makes none, or a SYN flood would fill the
 * flow table - keyed by its flow as in spritz_flows: the window scale its
 * connection's first data takes (feedback.h, spritz_fb_wscale_sent()).
 * An LRU, so a flood evicts other handshakes only, whose flows then take
 * their windows at the largest scale.
 */
struct spritz_synack {
	__u32 end_seq; /* the SYN-ACK's sequence number + 1: where its data starts */
	__s32 wscale;  /* its window scale option, -1: none */
};

/* ----------------------------------------------------------------- stats */

/* Per-CPU counters (sum the CPUs). */
struct spritz_stats {
	/* egress */
	__u64 eg_packets;	/* every packet seen on egress */
	__u64 eg_managed_tcp;	/* IPv6 TCP to a directory destination */
	__u64 eg_managed_udp;	/* UDP carrier to a directory destination */
	__u64 eg_segs;		/* managed GSO segments (= packets without GSO) */
	__u64 eg_rewrites;	/* flow label / source port written */
	__u64 eg_unsteered;	/* managed but no path (pick failed): untouched */
	__u64 eg_pure_ack;	/* pure ACK/RST/SYN-ACK/FIN: flow's last EV, no decision */
	__u64 eg_ctl_no_flow;	/* ... of a flow without state: untouched, none created */
	__u64 eg_flows_new;	/* flow states created */
	__u64 eg_flow_fail;	/* flow state could not be created: untouched */
	__u64 eg_flow_evict;	/* ... created in the slot of another flow (a full set) */
	__u64 eg_retrans;	/* TCP sends of already sent sequence */
	__u64 eg_ring_overrun;	/* send not recorded: SPRITZ_RING_SIZE sends in flight */
	__u64 eg_csum_fail;	/* UDP checksum helper failed */
	__u64 eg_inner_tcp;	/* UDP carrier sends of inner TCP data recorded */
	__u64 eg_inner_mixed;	/* UDP carrier flows seen with a second inner flow */
	__u64 eg_inner_user;	/* tunnel datagrams of a user-space UDP socket: inner not read */
	/* egress: unmanaged passes, by reason */
	__u64 un_not_ip;	/* ARP, LLDP, ... */
	__u64 un_proto;		/* ICMP, other L4, IPv6 extension headers */
	__u64 un_fragment;	/* IPv4 fragments */
	__u64 un_malformed;	/* truncated or inconsistent headers */
	__u64 un_tcp4;		/* TCP over IPv4: no safe carrier */
	__u64 un_udp_port;	/* UDP to a port that is not a carrier */
	__u64 un_no_dest;	/* destination not in the directory */
	__u64 un_no_dev;	/* device not in spritz_devs */
	/* decisions */
	__u64 dec_use_ev;	/* SPRITZ_LB_USE_EV */
	__u64 dec_sample;	/* SPRITZ_LB_SAMPLE */
	__u64 picks;		/* bpf_spritz_pick() successes */
	__u64 pick_fail;	/* bpf_spritz_pick() errors */
	__u64 pick_small_flow;	/* samples with SPRITZ_PICK_SMALL_FLOW */
	__u64 pick_min_bias;	/* samples with SPRITZ_PICK_MIN_BIAS */
	__u64 pick_avoid;	/* samples made while the flow avoided EVs (spritz_fb_avoid()) */
	__u64 dec_verify;	/* sends to a suspect's EV to verify it (spritz_fb_verify()) */
	__u64 dec_use_avoided;	/* buffered EVs the flow avoids: sampled instead (spritz_fb_decide()) */
	/* ingress */
	__u64 in_packets;	/* every packet seen on ingress */
	__u64 in_acks;		/* TCP ACKs of a managed flow */
	__u64 in_inner_acks;	/* ... of them inside VXLAN/Geneve */
	__u64 in_unmanaged;	/* everything else (passes untouched) */
	__u64 in_sack_blocks;	/* valid SACK blocks used (ACKs with sends in flight) */
	/* ingress: rejected as TCP would reject them; they change nothing */
	__u64 in_ack_unsent;	/* ACKs of data never sent (past snd_nxt) */
	__u64 in_ack_old;	/* ACKs below snd_una (older than the last valid one) */
	__u64 in_ack_ctl;	/* SYN (ECN setup included) or RST with ACK */
	__u64 in_ack_seq;	/* segments outside the receive window (SEG.SEQ) */
	__u64 in_sack_bad;	/* SACK blocks empty or outside [snd_una, snd_nxt] */
	__u64 in_tunnel_foreign; /* inner ACKs from another outer address pair */
	__u64 in_inner_other;	/* inner ACKs whose tunnel flow now carries another inner flow */
	/* feedback given to the algorithm, by kind */
	__u64 fb_ack;
	__u64 fb_ecn;
	__u64 fb_nack;
	__u64 fb_timeout;
	__u64 fb_sack_lost;	/* NACKs from SACK holes (RFC 6675 IsLost) */
	__u64 fb_path_alive;	/* suspects whose path delivered a later send: no TIMEOUT */
	__u64 fb_no_reach;	/* suspects past the timeout without evidence the peer answered */
	__u64 fb_verify;	/* ... of them verified by a send once it answered */
	__u64 fb_isolated;	/* suspects whose path lost no other send: no TIMEOUT */
	__u64 fb_congested;	/* suspects whose path came back ECN-marked: no TIMEOUT */
	__u64 evictions;	/* buffer entries removed by feedback */
	__u64 path_disables;	/* bpf_spritz_path_timeout() calls that disabled (or restarted) */
	__u64 path_disable_fail; /* ... that failed (no such path, no spritz.ko) */
	__u64 path_disable_withheld; /* TIMEOUTs past their flow's flow_disables: its own */
	__u64 path_disable_peer_withheld; /* ... past their peer's peer_disables */
	__u64 path_disable_kept; /* calls the floor refused (SPRITZ_TIMEOUT_KEPT) */
	__u64 eg_synack_kept;	 /* SYN-ACKs no flow entry took, kept in spritz_synacks */
	__u64 eg_synack_taken;	 /* first data that took a kept SYN-ACK's window scale */
};

/* --------------------------------------------------------- spritzctl */

/*
 * spritzctl's own records, in the datapath object so that they have BTF
 * (Documentation/spritzctl.8, "FILES"): key SPRITZ_CTL_HOST_KEY is the
 * host record, any other key the ifindex of a device that is up.
 */
#define SPRITZ_CTL_HOST_KEY 0U
#define SPRITZ_CTL_HOST_LOADED_MODULE (1U << 0) /* up loaded spritz.ko: down unloads it */
/* device records: up --per-packet turned TSO and GSO off; down restores */
#define SPRITZ_CTL_DEV_PER_PACKET (1U << 1)
#define SPRITZ_CTL_DEV_TSO_WAS_ON (1U << 2)
#define SPRITZ_CTL_DEV_GSO_WAS_ON (1U << 3)
/*
 * device records: up --tcp-dupthresh set the namespace's tcp_recovery to 0
 * and tcp_reordering to tcp_reordering; the namespace's last such device
 * going down puts back the values found (tcp_*_was).
 */
#define SPRITZ_CTL_DEV_TCP_DUPTHRESH (1U << 4)

struct spritz_ctl_state {
	__u64 netns;	  /* device: its network namespace cookie */
	__u64 netns_ino;  /* device: inode of that namespace, to find it */
	__u32 src_switch; /* device: as in spritz_devs */
	__u32 flags;	  /* SPRITZ_CTL_HOST_* (host), SPRITZ_CTL_DEV_* (device) */
	__u32 tcp_reordering;	  /* device, SPRITZ_CTL_DEV_TCP_DUPTHRESH: set by up */
	__u32 tcp_reordering_was; /* ... and the values up found */
	__s32 tcp_recovery_was;
	__u32 pad;
};

#endif /* _SPRITZ_MAPS_H */
