// SPDX-License-Identifier: GPL-2.0-only
/*
 * Spritz host datapath: the per-packet half of the sender (paper §V).
 *
 *   spritz_egress   tc egress.  Managed traffic gets an entropy value (EV):
 *                   IPv6 TCP to a directory destination in the flow label,
 *                   UDP to a carrier port in the source port (RoCEv2 over
 *                   IPv6: in the flow label; abi.h).  The EV comes
 *                   from the algorithm core (include/spritz/lb.h) and, when
 *                   it asks for a sample, from spritz.ko's bpf_spritz_pick().
 *                   TCP data sends are recorded in the flow's in-flight ring.
 *   spritz_ingress  tc ingress.  ACKs of managed IPv6 TCP flows are mapped
 *                   back to the recorded sends they cover, and each covered
 *                   send becomes ACK / ACK_ECN feedback for the EV that
 *                   carried it; a send retransmitted (seen on egress) or
 *                   left in a SACK hole is a NACK, and a send left
 *                   unacknowledged for the flow's timeout (a multiple of
 *                   the socket's srtt, read on egress) is a TIMEOUT if the
 *                   feedback core's dead-path rule says its path is dead.
 *
 * The feedback rules themselves (what is recorded, which ACKs are valid,
 * what each outcome is) are the feedback core's, include/spritz/feedback.h;
 * this file parses, keeps the maps and calls the helpers.
 *
 * VXLAN and Geneve carriers: the TCP flow inside a tunnel flow is tracked
 * the same way, its sends recorded in the tunnel flow's ring and its ACKs,
 * which come back inside the peer's tunnel packets (whose outer source port
 * is the peer's hash, not ours), found through spritz_inner: inner TCP flow
 * and VNI -> tunnel flow.  A tunnel flow that carries more than one inner
 * flow (two inner flows hashed to one source port, or one 5-tuple in two
 * VNIs) is steered but gets no feedback, and so is a tunnel datagram of a
 * user-space UDP socket (any program can write a tunnel header).
 *
 * Both leave every packet they do not manage byte-identical, never drop,
 * and return TC_ACT_UNSPEC (= TCX_NEXT): the next program or the default
 * action decides.  Documentation/datapath.rst is the user-facing account.
 *
 * Concurrency: the flow table is an array without a lock (an mmapable
 * map's values hold no bpf_spin_lock, and no kfunc call may happen under
 * one).
 * lb.h is memory safe whatever the state holds; two CPUs updating one
 * flow at once may lose one of the two updates (a buffered EV, a count, a
 * ring record).  TCP keeps a flow on one CPU most of the time (XPS/RFS).
 */
/* feedback.h's per-send work: global subprograms, verified once */
#define SPRITZ_FB_SUBPROG __noinline

#include "vmlinux.h"
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "parse.h"
#include <spritz/feedback.h>
#include <spritz/kfuncs.h>
#include <spritz/lb.h>
#include <spritz/maps.h>
#include <spritz/flowtab.h>

#define SPRITZ_TC_NEXT (-1) /* TC_ACT_UNSPEC / TCX_NEXT */

/* ------------------------------------------------------------------ maps */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct spritz_dev_key);
	__type(value, struct spritz_dev_val);
	__uint(max_entries, SPRITZ_DEVS_MAX);
} spritz_devs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__type(key, struct spritz_dir_key);
	__type(value, struct spritz_dir_val);
	__uint(max_entries, SPRITZ_DIR_MAX);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} spritz_dir SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct spritz_udp_port);
	__uint(max_entries, SPRITZ_UDP_PORTS);
} spritz_udp SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct spritz_flow); /* keyed in place: flowtab.h */
	__uint(max_entries, SPRITZ_FLOWS_MAX);
	__uint(map_flags, BPF_F_MMAPABLE); /* scanned from userspace (host_flows.c) */
} spritz_flows SEC(".maps");

const volatile struct spritz_flow_hashkey spritz_flow_hashkey;

/* The slot of flow @key in spritz_flows, or -1. */
static __always_inline int spritz_flow_index(const struct spritz_flow_key *key)
{
	__u32 idx = spritz_flow_set(key, &spritz_flow_hashkey);
	struct spritz_flow *f;
	int w;

#pragma unroll
	for (w = 0; w < SPRITZ_FLOW_WAYS; w++, idx++) {
		f = bpf_map_lookup_elem(&spritz_flows, &idx);
		if (f && spritz_flow_key_eq(&f->key, key))
			return idx;
	}
	return -1;
}

/*
 * The same as a global subprogram, for the tunnel paths: verified once,
 * not on each of their inner parse paths (inline there, the ways' key
 * compares were a fifth of ingress's count).  The plain TCP paths keep
 * it inline: a call and its return cost more per packet than the lookup.
 */
__noinline int spritz_flow_slot(const struct spritz_flow_key *key)
{
	return key ? spritz_flow_index(key) : -1;
}

/* The state in slot @slot of spritz_flows, or NULL if @slot is -1. */
static __always_inline struct spritz_flow *spritz_flow_at(int slot)
{
	__u32 idx = slot;

	return slot < 0 ? NULL : bpf_map_lookup_elem(&spritz_flows, &idx);
}

/* The slot a new flow @key takes: a free way of its set, else the least recently used. */
static __always_inline __u32 spritz_flow_victim(const struct spritz_flow_key *key)
{
	__u32 idx = spritz_flow_set(key, &spritz_flow_hashkey), best = idx;
	__u64 oldest = ~0ULL;
	struct spritz_flow *f;
	int w;

#pragma unroll
	for (w = 0; w < SPRITZ_FLOW_WAYS; w++, idx++) {
		f = bpf_map_lookup_elem(&spritz_flows, &idx);
		if (!f)
			continue;
		if (!spritz_flow_used(f))
			return idx;
		if (f->used_ns < oldest) {
			oldest = f->used_ns;
			best = idx;
		}
	}
	return best;
}

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, struct spritz_flow_key);   /* inner TCP flow, local end first */
	__type(value, struct spritz_flow_key); /* its tunnel flow in spritz_flows */
	__uint(max_entries, SPRITZ_FLOWS_MAX);
} spritz_inner SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, struct spritz_peer_key);
	__type(value, struct spritz_peer);
	__uint(max_entries, SPRITZ_PEERS_MAX);
} spritz_peers SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, struct spritz_flow_key); /* local end first, as in spritz_flows */
	__type(value, struct spritz_synack);
	__uint(max_entries, SPRITZ_SYNACKS_MAX);
} spritz_synacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct spritz_stats);
	__uint(max_entries, 1);
} spritz_stats SEC(".maps");

/* spritzctl's records: declared here for their BTF, never read here. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct spritz_ctl_state);
	__uint(max_entries, SPRITZ_DEVS_MAX + 1);
} spritzctl_state SEC(".maps");

/*
 * Added to bpf_ktime_get_ns(): lets the tests move time forward (timeouts,
 * flowlets) without sleeping.  0 in production.
 */
__u64 spritz_clock_offset_ns;

/* A zero flow value to create flows from (the stack is too small). */
const struct spritz_flow spritz_flow_zero;

/*
 * Bench build only (bench_datapath --stages): return after stage N of the
 * TCP paths, to see where the time goes.  0 in production, where every
 * SPRITZ_BENCH_STOP() is constant false and compiles away.
 */
#ifdef SPRITZ_BENCH
__u32 spritz_bench_stop;
#define SPRITZ_BENCH_STOP(n) (spritz_bench_stop == (n))
#else
#define SPRITZ_BENCH_STOP(n) 0
#endif

/* ------------------------------------------------------------- helpers */

/* Per-packet context: the knob snapshot as the core wants it. */
struct spritz_ctx {
	struct spritz_lb_cfg cfg;
	__u64 now;
	__u64 small_flow_bytes;
	__u32 timeout_us;      /* the flow timeout's cap (spritz_fb_timeout_ns()) */
	__u32 timeout_min_us;  /* its floor */
	__u32 timeout_rtt_pct; /* its multiple of the srtt, percent */
	__u32 __pad;
	struct spritz_fb_bounds disables; /* spritz_fb_disable_ok()'s */
};

/*
 * The knob snapshot, refreshed from spritz.ko (bpf_spritz_knobs()) at most
 * every SPRITZ_KNOB_REFRESH_NS per CPU and direction, its age measured on
 * the kernel's clock (never on a packet field: a sender controls
 * skb->tstamp with SO_TXTIME, and a far-future one would freeze the
 * snapshot).  A knob change reaches the datapath within a millisecond.
 * 0 (the tests) refreshes on every packet.
 */
#define SPRITZ_KNOB_REFRESH_NS 1000000ULL
__u64 spritz_knob_refresh_ns = SPRITZ_KNOB_REFRESH_NS;

#define SPRITZ_KNOBS_EGRESS 0
#define SPRITZ_KNOBS_INGRESS 1

struct spritz_knob_cache {
	struct spritz_ctx c; /* first: at the value's address (spritz_ctx_get()) */
	__u64 loaded_ns; /* 0: never */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct spritz_knob_cache);
	__uint(max_entries, 2); /* SPRITZ_KNOBS_EGRESS, SPRITZ_KNOBS_INGRESS */
} spritz_knobs SEC(".maps");

/*
 * Fill the knob snapshot @c from spritz.ko, or with the defaults.  Global:
 * verified once, not on every path to each of its three callers.
 */
__noinline int spritz_knobs_fetch(struct spritz_ctx *c)
{
	struct spritz_knob_values k;

	if (!c)
		return 0;
	__builtin_memset(c, 0, sizeof(*c)); /* cached as is: no stale stack bytes */
	__builtin_memset(&k, 0, sizeof(k));
	if (!spritz_kfunc_exists(bpf_spritz_knobs) || bpf_spritz_knobs(&k, sizeof(k))) {
		spritz_lb_cfg_default(&c->cfg);
		c->timeout_us = SPRITZ_DEF_TIMEOUT_US;
		c->timeout_min_us = SPRITZ_DEF_TIMEOUT_MIN_US;
		c->timeout_rtt_pct = SPRITZ_DEF_TIMEOUT_RTT_PCT;
		c->small_flow_bytes = SPRITZ_DEF_SMALL_FLOW_BYTES;
		c->disables.flow = SPRITZ_DEF_FLOW_DISABLES;
		c->disables.peer = SPRITZ_DEF_PEER_DISABLES;
		c->disables.window_ns = SPRITZ_DEF_DISABLE_MS * 1000000ULL;
	} else {
		spritz_lb_cfg_from_knobs(&c->cfg, &k);
		c->timeout_us = k.timeout_us;
		c->timeout_min_us = k.timeout_min_us;
		c->timeout_rtt_pct = k.timeout_rtt_pct;
		c->small_flow_bytes = k.small_flow_bytes;
		c->disables.flow = k.flow_disables;
		c->disables.peer = k.peer_disables;
		c->disables.window_ns = (__u64)k.disable_ms * 1000000ULL;
	}
	return 0;
}

/*
 * Where the knob snapshot goes when spritz_knobs has no slot for this CPU
 * and direction: never, with the map as declared.  A global, not a stack
 * copy: the 512-byte stack cannot spare 48 bytes, and a NULL the callers
 * would have to test costs the verifier a branch on every path.
 */
static struct spritz_knob_cache spritz_knobs_none;

/*
 * The knob snapshot of direction @dir and the time for one packet: the
 * per-CPU cached snapshot in place (no copy), refreshed when it is older
 * than spritz_knob_refresh_ns.  One read of the fine clock serves both:
 * send and ACK times need it (flow timeouts are a few RTTs, see Clocks in
 * datapath.rst), and a second, coarse read for the snapshot's age would
 * cost a helper call.  No packet field is read: send times, like the
 * snapshot's age, are the kernel's.
 */
static __always_inline struct spritz_ctx *spritz_ctx_get(__u32 dir)
{
	struct spritz_knob_cache *kc = bpf_map_lookup_elem(&spritz_knobs, &dir);
	__u64 raw = bpf_ktime_get_ns();
	struct spritz_ctx *c;

	if (!kc)
		kc = &spritz_knobs_none;
	/*
	 * No offset to add: clang may compute &kc->c before the branch, and
	 * 6.1/6.12 refuse arithmetic on a pointer that may be NULL.
	 */
	c = (struct spritz_ctx *)kc;
	if (!kc->loaded_ns || (__s64)(raw - kc->loaded_ns) >= (__s64)spritz_knob_refresh_ns) {
		spritz_knobs_fetch(c);
		kc->loaded_ns = raw;
	}
	c->now = raw + spritz_clock_offset_ns;
	return c;
}

/*
 * The full TCP socket sending @skb (a local sender's), or NULL.  The
 * helper passes any full socket of protocol TCP, raw ones too: IPv4's
 * replies for no socket (RSTs, TIME_WAIT ACKs) leave from the kernel's
 * control socket, SOCK_RAW with IPPROTO_TCP, whose memory is no tcp_sock.
 */
static __always_inline struct tcp_sock *spritz_sock_tcp(struct __sk_buff *skb)
{
	struct bpf_sock *sk = skb->sk;
	struct tcp_sock *tp;

	/* NULL unless a full TCP socket: no bpf_sk_fullsock() call first */
	tp = sk ? bpf_skc_to_tcp_sock(sk) : NULL;
	return tp && tp->inet_conn.icsk_inet.sk.sk_type == SOCK_STREAM ? tp : NULL;
}

/*
 * The receive window that segment @skb of @f advertises: its TCP socket's
 * (@tp, spritz_fb_rcv_sent()) if a local one sends it, else the one its
 * header says, TCP flags @flags, ACK field @ack and window field @win
 * (host order; spritz_fb_rcv_hdr()): a forwarded segment, a tunnel's.
 */
static __always_inline void spritz_seg_rcv(struct tcp_sock *tp, struct spritz_flow *f, __u8 flags,
					   __u32 ack, __u16 win)
{
	if (tp)
		spritz_fb_rcv_sent(&f->fb, tp->rcv_wup, tp->rcv_wnd);
	else
		spritz_fb_rcv_hdr(&f->fb, flags, ack, win);
}

/*
 * The smoothed RTT, the reordering degree (TCP's DupThresh), the bytes
 * queued beyond the send's @end of the TCP socket that sends @skb into
 * @f, if there is one (a local sender; tc egress has skb->sk, a full
 * socket for data), and the receive window the segment advertises
 * (spritz_seg_rcv(): @flags, @ack, @win from its header).  Inline, like
 * a send's other steps: the parser's paths are joined before them
 * (spritz_hdrs_join()), and a call costs more than this work
 * (datapath.rst, "Verifier cost").
 */
static __always_inline int spritz_sock_state(struct __sk_buff *skb, struct spritz_flow *f,
					     __u32 end, __u8 flags, __u32 ack, __u16 win)
{
	__s32 unsent;
	struct tcp_sock *tp;

	if (!f)
		return 0;
	tp = spritz_sock_tcp(skb);
	spritz_seg_rcv(tp, f, flags, ack, win);
	if (!tp)
		return 0;
	if (tp->srtt_us)
		f->fb.srtt_us = tp->srtt_us >> 3; /* the kernel keeps it << 3 */
	f->fb.dupthresh = tp->reordering;
	/* what the application handed to TCP and TCP has not sent yet */
	unsent = (__s32)(tp->write_seq - end);
	f->fb.unsent = unsent > 0 ? (__u32)unsent : 0;
	return 0;
}

static __always_inline struct spritz_stats *spritz_stats_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&spritz_stats, &zero);
}

/*
 * One feedback event @e into the algorithm state (feedback.h counts it):
 * 1 if it disables the path.  A global function: verified once, not per
 * call site.
 */
__noinline int spritz_fb_one(struct spritz_flow *f, const struct spritz_lb_cfg *cfg,
			     struct spritz_stats *st, const struct spritz_fb_event *e)
{
	if (!f || !cfg || !st || !e)
		return 0;
	return !!(spritz_fb_apply(&f->lb, cfg, st, e) & SPRITZ_LB_ACT_DISABLE_PATH);
}

/* A zero peer entry to create entries from. */
const struct spritz_peer spritz_peer_zero;

/*
 * May a TIMEOUT of @f disable its path for the host (spritz_fb_disable_ok())?
 * The peer's entry is made at its flows' first TIMEOUT; if none can be
 * made, the peer goes uncounted.  Global: called only for a TIMEOUT, and
 * inline its map calls' spills would take the ingress chain's stack past
 * 512 bytes.  The key is copied: a map helper takes no argument memory.
 */
__noinline int spritz_disable_ok(struct spritz_flow *f, const struct spritz_ctx *c,
				 struct spritz_stats *st)
{
	struct spritz_peer *p = NULL;
	struct spritz_peer_key k;

	if (!f || !c || !st)
		return 0;
	if (c->disables.peer) {
		__builtin_memcpy(k.addr, f->key.daddr, sizeof(k.addr));
		p = bpf_map_lookup_elem(&spritz_peers, &k);
		if (!p && !bpf_map_update_elem(&spritz_peers, &k, &spritz_peer_zero, BPF_NOEXIST))
			p = bpf_map_lookup_elem(&spritz_peers, &k);
	}
	return spritz_fb_disable_ok(f, p, st, c->now, &c->disables);
}

/*
 * Deliver the outcomes the feedback core left in @f's ring, with the knobs
 * and clock of @c; a path's disable is spritz.ko's, if the flow's and its
 * peer's budgets allow it (spritz_disable_ok()).  Here, not in
 * spritz_fb_one(): one frame deeper, the ingress call chain's stack passes
 * 512 bytes on 6.1.
 */
static __always_inline void spritz_fb_deliver_all(struct spritz_flow *f,
						  const struct spritz_ctx *c,
						  struct spritz_stats *st)
{
	struct spritz_fb_event e;
	__u32 i;
	int r;

	for (i = 0; i < SPRITZ_FB_SLOTS; i++) {
		if (!spritz_fb_take(&f->fb, i, &e) || !spritz_fb_one(f, &c->cfg, st, &e) ||
		    !spritz_disable_ok(f, c, st))
			continue;
		r = spritz_kfunc_exists(bpf_spritz_path_timeout) ?
			    bpf_spritz_path_timeout(f->src_switch, f->dst_switch, e.ev) :
			    -1;
		/* the counters' addresses not hoisted out of the loop: stack */
		barrier_var(st);
		spritz_fb_disable_count(st, r);
	}
}

/*
 * spritz_fb_deliver_all() as a global: verified once, called only when
 * there are outcomes.
 */
__noinline int spritz_fb_deliver(struct spritz_flow *f, const struct spritz_ctx *c,
				 struct spritz_stats *st)
{
	if (f && c && st)
		spritz_fb_deliver_all(f, c, st);
	return 0;
}

/*
 * [@seq, @end) of @f is sent again with TCP timestamp @ts (SPRITZ_FB_TS()):
 * spritz_fb_retrans().  Returns the number of outcomes to deliver.
 * Global: verified once, called only for retransmissions.
 */
__noinline int spritz_retrans(struct spritz_flow *f, struct spritz_stats *st, __u32 seq,
			      __u32 end, __u64 ts)
{
	if (!f || !st)
		return 0;
	return spritz_fb_retrans(&f->fb, st, seq, end, ts);
}

/* The TSval of TCP segment @th as spritz_fb_retrans() takes it. */
static __always_inline __u64 spritz_tsval(const struct spritz_tcp *th, const void *data_end)
{
	__u32 val, ecr;

	return spritz_tcp_ts(th, data_end, &val, &ecr) ? SPRITZ_FB_TS(val) : SPRITZ_FB_TS_NONE;
}

/*
 * A valid ACK @a of @f with sends in flight: spritz_fb_ack().  Returns
 * the number of outcomes to deliver.  Global: verified once.
 */
__noinline int spritz_ack_scan(struct spritz_flow *f, struct spritz_fb_ackinfo *a,
			       const struct spritz_ctx *c, struct spritz_stats *st)
{
	if (!f || !a || !c || !st)
		return 0;
	return spritz_fb_ack(&f->fb, st, c->now,
			     spritz_fb_timeout_ns(f->fb.srtt_us, c->timeout_rtt_pct,
						  c->timeout_min_us, c->timeout_us),
			     a);
}

/* A data send of @f, recorded by spritz_record(). */
struct spritz_send {
	__u64 now;
	__u32 seq, end; /* [seq, end) */
	__u32 pick;	/* SPRITZ_PICK(EV, lat_class) */
	__u32 segs;
};

/* Record the data send @s of @f: spritz_fb_record(). */
static __always_inline int spritz_record(struct spritz_flow *f, struct spritz_stats *st,
			     const struct spritz_send *s)
{
	if (!f || !st || !s)
		return 0;
	spritz_fb_record(&f->fb, st, s->now, s->seq, s->end, SPRITZ_PICK_EV(s->pick),
			 SPRITZ_PICK_LAT_CLASS(s->pick), s->segs);
	return 0;
}

/*
 * The EV for one managed send: the cores' decision (spritz_fb_decide()),
 * and a pick from the module when they ask for a sample.  Returns
 * SPRITZ_PICK(EV, lat_class), or -1: no path (the packet leaves
 * unsteered).  @how: SPRITZ_DECIDE_*.  Inline in each caller, after the
 * parser's paths are joined (datapath.rst, "Verifier cost").
 */
static __always_inline int spritz_decide(struct spritz_flow *f, const struct spritz_ctx *c,
					     struct spritz_stats *st, __u32 segs, __u32 how)
{
	__u64 avoid = 0;
	__u32 flags = 0;
	int r;

	if (!f || !c || !st)
		return -1;
	r = spritz_fb_decide(&f->fb, &f->lb, &c->cfg, st, c->now, segs, how, f->bytes_sent,
			     c->small_flow_bytes, &flags, &avoid);
	if (r >= 0)
		return r;
	if (!spritz_kfunc_exists(bpf_spritz_pick)) {
		st->pick_fail++;
		return -1;
	}
	/* not where the flow just lost sends (spritz_fb_avoid()) */
	r = bpf_spritz_pick(f->src_switch, f->dst_switch, flags, avoid);
	if (r < 0) {
		st->pick_fail++;
		return -1;
	}
	st->picks++;
	spritz_lb_sent(&f->lb, &c->cfg, SPRITZ_PICK_EV(r), SPRITZ_PICK_LAT_CLASS(r));
	return r & 0xffffff;
}

/*
 * Copy an address, four bytes at a time (clang copies a __u8[16] byte by
 * byte).  @src is in the packet: the verifier allows unaligned packet loads
 * (efficient unaligned access, no BPF_F_STRICT_ALIGNMENT); @dst is on the
 * stack, 4-aligned in every caller.
 */
static __always_inline void spritz_copy16(__u8 *dst, const __u8 *src)
{
	const __u32 *s = (const void *)src;
	__u32 *d = (void *)dst;

	d[0] = s[0];
	d[1] = s[1];
	d[2] = s[2];
	d[3] = s[3];
}

/* Directory lookup of a 16-byte (v6 or v4-mapped) address. */
static __always_inline struct spritz_dir_val *spritz_dir_lookup(const __u8 *addr)
{
	struct spritz_dir_key k = { .prefixlen = 128 };

	spritz_copy16(k.addr, addr);
	return bpf_map_lookup_elem(&spritz_dir, &k);
}

/*
 * The slot a new flow @key (daddr filled) takes, out of device @ifindex:
 * its index in spritz_flows, its state zeroed and keyed, or -1 if its
 * destination is not in the directory, the device not in spritz_devs
 * (unmanaged), or @create is 0.  Both are consulted only when a flow
 * starts: a flow keeps its source and destination switch until its slot
 * is taken (a directory change applies to new flows; `spritzctl` flushes
 * flows when it must apply at once).  Only data and SYNs create flows: a
 * control segment (pure ACK, RST, SYN-ACK, FIN-only) of a managed
 * destination without a flow is counted and left alone, so that floods of
 * them (a SYN flood answered) cannot evict established flows.  Global:
 * verified once, and its stack is not the callers'.
 */
__noinline int spritz_flow_new(const struct spritz_flow_key *key, __u32 ifindex,
			       struct spritz_stats *st, int create)
{
	struct spritz_dev_key dk = { .ifindex = ifindex };
	struct spritz_dev_val *dev;
	struct spritz_dir_val *dv;
	struct spritz_flow *f;
	__u32 idx;

	if (!key || !st)
		return -1;
	dv = spritz_dir_lookup(key->daddr);
	if (!dv) {
		st->un_no_dest++;
		return -1;
	}
	dev = bpf_map_lookup_elem(&spritz_devs, &dk);
	if (!dev) {
		st->un_no_dev++;
		return -1;
	}
	if (!create) {
		st->eg_ctl_no_flow++;
		return -1;
	}
	idx = spritz_flow_victim(key);
	f = bpf_map_lookup_elem(&spritz_flows, &idx);
	if (!f) {
		st->eg_flow_fail++;
		return -1;
	}
	st->eg_flow_evict += spritz_flow_used(f);
	if (bpf_map_update_elem(&spritz_flows, &idx, &spritz_flow_zero, BPF_ANY)) {
		st->eg_flow_fail++;
		return -1;
	}
	st->eg_flows_new++;
	f->key = *key; /* used_ns 0: the first to go until it sends data */
	f->src_switch = dev->src_switch;
	f->dst_switch = dv->dst_switch;
	return idx;
}

/* The flow of @key, created if new (spritz_flow_new()); NULL: unmanaged. */
static __always_inline struct spritz_flow *spritz_flow_get(const struct spritz_flow_key *key,
							   __u32 ifindex, struct spritz_stats *st,
							   int create)
{
	struct spritz_flow *f = spritz_flow_at(spritz_flow_index(key));
	int idx;

	if (f)
		return f;
	idx = spritz_flow_new(key, ifindex, st, create);
	if (idx < 0)
		return NULL;
	return bpf_map_lookup_elem(&spritz_flows, &idx);
}

static __always_inline void spritz_v4mapped(__u8 *dst, __u32 addr_be)
{
	__builtin_memset(dst, 0, 10);
	dst[10] = 0xff;
	dst[11] = 0xff;
	__builtin_memcpy(dst + 12, &addr_be, 4);
}

static __always_inline __u32 spritz_segs(struct __sk_buff *skb)
{
	__u32 segs = skb->gso_segs;

	return segs ? segs : 1;
}

/* --------------------------------------------------------- TCP options */

/*
 * x & 63, done by the program whatever clang knows about x: clang drops a
 * mask it can prove redundant from a check on another copy of x, and the
 * verifier (6.1) then cannot bound the index.
 */
static __always_inline __u32 spritz_idx63(__u32 x)
{
	asm volatile("%0 &= 63" : "+r"(x));
	return x;
}

/*
 * The TCP option walk: options copied to the stack; an ACK's timestamp and
 * SACK blocks found (into @s), or a SYN's window scale (@s NULL).
 */
struct spritz_optwalk {
	__u8 b[64]; /* indexed & 63: no bound to prove */
	__u32 len;  /* option bytes in b */
	__u32 i;    /* next option */
	struct spritz_fb_ackinfo *s;
	__s32 wscale; /* the window scale option's shift, -1: none */
};

/* The big-endian word at option byte @at of walk @w. */
static __always_inline __u32 spritz_optwalk_u32(const struct spritz_optwalk *w, __u32 at)
{
	return (__u32)w->b[spritz_idx63(at)] << 24 | (__u32)w->b[spritz_idx63(at + 1)] << 16 |
	       (__u32)w->b[spritz_idx63(at + 2)] << 8 | w->b[spritz_idx63(at + 3)];
}

/*
 * One step of the option walk, a bpf_loop() callback: verified once with
 * unknown bytes, whatever the number of steps.  1 stops the walk.  Options
 * are taken as Linux's tcp_parse_options() takes them: a length below 2 or
 * past the end stops the walk, a later copy of an option replaces the
 * earlier.
 */
static int spritz_optwalk_step(__u32 idx, struct spritz_optwalk *w)
{
	struct spritz_fb_ackinfo *s = w->s;
	__u32 i = w->i, kind, len, at, l, r;
	int b;

	if (i >= w->len || i >= SPRITZ_TCP_OPT_MAX - 1)
		return 1;
	kind = w->b[spritz_idx63(i)];
	if (kind == SPRITZ_TCPOPT_EOL)
		return 1;
	if (kind == SPRITZ_TCPOPT_NOP) {
		w->i = i + 1;
		return 0;
	}
	len = w->b[spritz_idx63(i + 1)];
	if (len < 2 || i + len > w->len)
		return 1;
	w->i = i + len;
	if (!s) {
		if (kind == SPRITZ_TCPOPT_WSCALE && len == SPRITZ_TCPOLEN_WSCALE)
			w->wscale = w->b[spritz_idx63(i + 2)];
		return 0;
	}
	if (kind == SPRITZ_TCPOPT_TIMESTAMP && len == SPRITZ_TCPOLEN_TIMESTAMP) {
		/* not where Linux puts it (spritz_tcp_ts()): another stack's */
		s->tsecr = spritz_optwalk_u32(w, i + 6);
		s->ts = 1;
		return 0;
	}
	/* a SACK option of a length other than 2 + 8n (n >= 1) is ignored,
	 * as Linux's tcp_parse_options() ignores it */
	if (kind != SPRITZ_TCPOPT_SACK || len < 10 || ((len - 2) & 7))
		return 0;
	for (b = 0; b < SPRITZ_SACK_MAX; b++) {
		at = i + 2 + 8 * b;
		if (at + 8 > i + len)
			break;
		l = spritz_optwalk_u32(w, at);
		r = spritz_optwalk_u32(w, at + 4);
		s->sack[2 * b] = l;
		s->sack[2 * b + 1] = r;
		s->nsack = b + 1;
	}
	return !!s->ts; /* one SACK option per segment; a timestamp may follow */
}

/*
 * Walk the @olen option bytes at @opt (of a packet ending at @data_end)
 * for @s (spritz_optwalk_step()), with @w's room on the caller's stack.
 */
static __always_inline void spritz_optwalk(struct spritz_optwalk *w, const __u8 *opt, __u32 olen,
					   const void *data_end, struct spritz_fb_ackinfo *s)
{
	int k;

	__builtin_memset(w, 0, sizeof(*w));
	/* the parser checked all doff * 4 bytes are in data */
	for (k = 0; k < SPRITZ_TCP_OPT_MAX; k++) {
		if ((__u32)k >= olen || (const void *)(opt + k + 1) > data_end)
			break;
		w->b[k] = opt[k];
	}
	w->len = k;
	w->s = s;
	w->wscale = -1;
	if (k > 0)
		bpf_loop(SPRITZ_TCP_OPT_MAX, spritz_optwalk_step, w, 0);
}

/*
 * The window scale option of the SYN or SYN-ACK whose TCP header is at
 * @th_off of @skb (RFC 7323 2.2): its shift, or -1 if it has none.
 * Global: verified once, for the plain and the tunnel egress.
 */
__noinline int spritz_syn_wscale(struct __sk_buff *skb, __u32 th_off)
{
	void *data = spritz_data(skb), *data_end = spritz_data_end(skb);
	const struct spritz_tcp *th;
	struct spritz_optwalk w;

	/* a header offset (< 16 KiB), masked as spritz_ack_read() masks it */
	asm volatile("%0 &= 0x3fff" : "+r"(th_off));
	th = data + th_off;
	if ((void *)(th + 1) > data_end || (th->doff_res >> 4) <= 5)
		return -1;
	spritz_optwalk(&w, (const __u8 *)(th + 1), ((th->doff_res >> 4) * 4) - SPRITZ_TCP_HLEN,
		       data_end, NULL);
	return w.wscale;
}

/*
 * A SYN-ACK [@seq, @seq + 1) of flow @key with window scale option
 * @wscale (-1: none) left, sent by no socket and taken by no flow entry:
 * kept in spritz_synacks for its connection's first data
 * (spritz_synack_take()), counted in @st.  Global: verified once, for the
 * plain and the tunnel egress.
 */
__noinline int spritz_synack_keep(const struct spritz_flow_key *key, __u32 seq, int wscale,
				  struct spritz_stats *st)
{
	struct spritz_flow_key k; /* on the stack: 6.1 takes no other memory as a map key */
	struct spritz_synack v = { .end_seq = seq + 1, .wscale = wscale };

	if (!key || !st)
		return 0;
	k = *key;
	if (bpf_map_update_elem(&spritz_synacks, &k, &v, BPF_ANY))
		return 0;
	st->eg_synack_kept++;
	return 1;
}

/*
 * The first data [@seq, ...) of flow @f (key @key) leaves, sent by no
 * socket, its window still unknown (spritz_synack_data()): it takes the
 * window scale of the SYN-ACK kept for it (spritz_synack_keep()) if that
 * one's sequence ends where the data starts (else the entry is another
 * connection's, or @f was made mid-connection), and the entry goes.
 * Counted in @st.  Global: verified once, for the plain and the tunnel
 * egress.
 */
__noinline int spritz_synack_take(struct spritz_flow *f, const struct spritz_flow_key *key,
				  __u32 seq, struct spritz_stats *st)
{
	struct spritz_flow_key k;
	struct spritz_synack *v;
	int taken;

	if (!f || !key || !st)
		return 0;
	k = *key;
	v = bpf_map_lookup_elem(&spritz_synacks, &k);
	if (!v)
		return 0;
	taken = v->end_seq == seq;
	if (taken) {
		spritz_fb_wscale_sent(&f->fb, v->wscale);
		st->eg_synack_taken++;
	}
	bpf_map_delete_elem(&spritz_synacks, &k);
	return taken;
}

/*
 * Does no TCP socket of this host send @skb - no full one, and no request
 * socket (a listener's SYN-ACK)?  A forwarded segment, a tunnel's from a
 * UDP socket or none, and a SYN cookie's SYN-ACK, which Linux sends from
 * no socket.
 */
static __always_inline int spritz_no_tcp_sk(struct __sk_buff *skb)
{
	struct bpf_sock *sk = skb->sk;

	if (!sk)
		return 1;
	if (sk->state == BPF_TCP_NEW_SYN_RECV)
		return 0;
	return !spritz_sock_tcp(skb);
}

/*
 * A segment of flow @key with TCP flags @flags, sequence number @seq and
 * (a SYN's) window scale option @wscale left, and no flow entry took it:
 * a SYN-ACK that no TCP socket of this host sends is kept
 * (spritz_synack_keep()).
 */
static __always_inline void spritz_synack_left(struct __sk_buff *skb,
					       const struct spritz_flow_key *key, __u8 flags,
					       __u32 seq, int wscale, struct spritz_stats *st)
{
	if ((flags & (SPRITZ_TCP_SYN | SPRITZ_TCP_ACK | SPRITZ_TCP_RST)) ==
		    (SPRITZ_TCP_SYN | SPRITZ_TCP_ACK) &&
	    spritz_no_tcp_sk(skb))
		spritz_synack_keep(key, seq, wscale, st);
}

/*
 * Data [@seq, ...) of flow @f (key @key) leaves: the connection's first
 * that no TCP socket sends takes a kept SYN-ACK's scale
 * (spritz_synack_take()); any other costs a test of flags.
 */
static __always_inline void spritz_synack_data(struct __sk_buff *skb, struct spritz_flow *f,
					       const struct spritz_flow_key *key, __u32 seq,
					       struct spritz_stats *st)
{
	if (!(f->fb.flags & (SPRITZ_FB_F_WSCALE | SPRITZ_FB_F_HAVE_RCV)) && spritz_no_tcp_sk(skb))
		spritz_synack_take(f, key, seq, st);
}

/* -------------------------------------------------------------- egress */

/* Payload bytes of TCP segment @th (@l4_len bytes with its header). */
static __always_inline __u32 spritz_tcp_paylen(const struct spritz_tcp *th, __u32 l4_len)
{
	return l4_len - (th->doff_res >> 4) * 4;
}

/*
 * The headers of a packet parsed before, rebuilt in a global subprogram
 * from their offsets (@l3_off, @l4_off; @l4_len from the parse): 0, or -1
 * if they are no longer all in the linear data.  Callers pass offsets, as
 * a global subprogram takes no packet pointers.
 */
static __always_inline int spritz_hdrs_at(struct __sk_buff *skb, __u32 l3_off, __u32 l4_off,
					  __u32 l4_len, __u32 l4_min, struct spritz_hdrs *h)
{
	void *data = spritz_data(skb), *data_end = spritz_data_end(skb);
	__u64 o3 = l3_off, o4 = l4_off;

	/*
	 * Bounds the verifier can add to a packet pointer, checked on the
	 * 64-bit registers that are then added (clang otherwise adds another
	 * copy of an offset, one the verifier never saw checked).
	 */
	asm volatile("" : "+r"(o3), "+r"(o4));
	if (o3 > SPRITZ_PULL_INNER || o4 > SPRITZ_PULL_INNER || o3 >= o4)
		return -1;
	h->l3 = data + o3;
	h->l4 = data + o4;
	if (h->l4 + l4_min > data_end)
		return -1;
	h->l4_off = l4_off;
	h->l4_len = l4_len;
	return 0;
}

/*
 * The headers @h of a parse, rebuilt from offsets the verifier knows only
 * by their bounds (a packet pointer minus skb->data): every parse path
 * (VLAN tags, a jumbo header, a pull) reaches the code after it in one
 * verifier state, so that code is verified once rather than once per path.
 * 0, or -1 if the headers (@l3_min, @l4_min bytes) are not in the linear
 * data (unreachable: the parse checked them).  The callers pass the sizes:
 * derived here from the parse's kind, they cost the verifier 2 000-6 000
 * more instructions (6.1), a branch it cannot always decide.
 */
static __always_inline int spritz_hdrs_join(struct __sk_buff *skb, struct spritz_hdrs *h,
					    __u32 l3_min, __u32 l4_min)
{
	void *data = spritz_data(skb);
	__u32 o3 = (__u8 *)h->l3 - (__u8 *)data, o4 = (__u8 *)h->l4 - (__u8 *)data;

	if (spritz_hdrs_at(skb, o3, o4, h->l4_len, l4_min, h))
		return -1;
	return h->l3 + l3_min > spritz_data_end(skb) ? -1 : 0;
}

/*
 * The addresses of @h's IPv6 or IPv4 header (@v6) into @k, IPv4 ones
 * v4-mapped: source first, or destination first if @reverse.
 */
static __always_inline void spritz_key_addrs(struct spritz_flow_key *k, const struct spritz_hdrs *h,
					     int v6, int reverse)
{
	__u8 *a = reverse ? k->daddr : k->saddr, *b = reverse ? k->saddr : k->daddr;

	if (v6) {
		const struct spritz_ip6 *ip6 = h->l3;

		spritz_copy16(a, ip6->saddr);
		spritz_copy16(b, ip6->daddr);
	} else {
		const struct spritz_ip4 *ip4 = h->l3;

		spritz_v4mapped(a, ip4->saddr);
		spritz_v4mapped(b, ip4->daddr);
	}
}

/*
 * The TCP flow key of a parsed TCP packet @h (@kind SPRITZ_PK_TCP6/4):
 * source end first, or destination end first if @reverse (an ACK coming
 * in, keyed as its flow's sender sees it).
 */
static __always_inline void spritz_tcp_key(struct spritz_flow_key *k, const struct spritz_hdrs *h,
					   int kind, int reverse)
{
	const struct spritz_tcp *th = h->l4;

	__builtin_memset(k, 0, sizeof(*k));
	spritz_key_addrs(k, h, kind == SPRITZ_PK_TCP6, reverse);
	k->sport = bpf_ntohs(reverse ? th->dest : th->source);
	k->dport = bpf_ntohs(reverse ? th->source : th->dest);
	k->proto = IPPROTO_TCP;
}

/* Tunnel VNI @vni (24 bits) into inner flow key @k. */
static __always_inline void spritz_key_vni(struct spritz_flow_key *k, __u32 vni)
{
	k->vni[0] = (__u8)(vni >> 16);
	k->vni[1] = (__u8)(vni >> 8);
	k->vni[2] = (__u8)vni;
}

/* Inner flow key @k's ports: spritz_flow.inner_ports. */
static __always_inline __u32 spritz_inner_ports(const struct spritz_flow_key *k)
{
	return (__u32)k->sport << 16 | k->dport;
}

/* Inner flow key @k's addresses and VNI, folded: spritz_flow.inner_addrs. */
static __always_inline __u32 spritz_inner_addrs(const struct spritz_flow_key *k)
{
	const __u32 *w = (const __u32 *)k;
	__u32 a = w[9]; /* proto and VNI */
	int i;

	for (i = 0; i < 8; i++)
		a ^= w[i];
	return a;
}

/* The flow's EV from now on: pick @r (SPRITZ_PICK_*). */
static __always_inline void spritz_flow_picked(struct spritz_flow *f, int r)
{
	f->last_ev = SPRITZ_PICK_EV(r);
	f->last_lat_class = SPRITZ_PICK_LAT_CLASS(r);
	f->flags |= SPRITZ_FLOW_F_HAVE_EV;
}

/*
 * A segment that carries no decision (pure ACK, RST, SYN-ACK, FIN alone):
 * sent on the flow's last EV if it has one.
 */
static __always_inline void spritz_egress_ctl(struct __sk_buff *skb, struct spritz_flow *f,
					      struct spritz_ip6 *ip6, const struct spritz_tcp *th,
					      struct spritz_stats *st)
{
	/* a pure ACK may open the window further: the peer may send into it */
	spritz_seg_rcv(spritz_sock_tcp(skb), f, th->flags, bpf_ntohl(th->ack_seq),
		       bpf_ntohs(th->window));
	if (!(f->flags & SPRITZ_FLOW_F_HAVE_EV)) {
		st->eg_unsteered++;
		return;
	}
	spritz_set_flowlabel(ip6, f->last_ev);
	st->eg_pure_ack++;
	st->eg_rewrites++;
}

static __always_inline int spritz_egress_tcp6(struct __sk_buff *skb, struct spritz_hdrs *h,
					      struct spritz_stats *st)
{
	struct spritz_ip6 *ip6 = h->l3;
	struct spritz_tcp *th = h->l4;
	struct spritz_flow_key key __attribute__((aligned(4)));
	struct spritz_flow *f;
	struct spritz_ctx *c;
	__u32 seq, paylen, end, segs;
	__u8 tflags;
	int r, kind, repair = 0, syn_again = 0;

	if (SPRITZ_BENCH_STOP(1))
		return SPRITZ_TC_NEXT;
	tflags = th->flags;
	paylen = spritz_tcp_paylen(th, h->l4_len);
	kind = spritz_fb_seg_kind(tflags, paylen);
	spritz_tcp_key(&key, h, SPRITZ_PK_TCP6, 0);
	if (SPRITZ_BENCH_STOP(2))
		return SPRITZ_TC_NEXT;
	f = spritz_flow_get(&key, skb->ifindex, st, kind != SPRITZ_SEG_CTL);
	if (!f) {
		/* a forwarded server's SYN-ACK: its scale, for the flow its data makes */
		if (tflags & SPRITZ_TCP_SYN)
			spritz_synack_left(skb, &key, tflags, bpf_ntohl(th->seq),
					   spritz_syn_wscale(skb, h->l4_off), st);
		return SPRITZ_TC_NEXT;
	}
	if (SPRITZ_BENCH_STOP(3))
		return SPRITZ_TC_NEXT;

	segs = spritz_segs(skb);
	st->eg_managed_tcp++;
	st->eg_segs += segs;
	seq = bpf_ntohl(th->seq);
	end = seq + spritz_tcp_seqlen(tflags, paylen);
	f->packets += segs;
	/* not data: a FIN moves snd_nxt, a SYN or SYN-ACK starts a connection */
	if (kind != SPRITZ_SEG_DATA)
		syn_again = spritz_fb_flow_ctl_sent(f, kind, tflags, seq, end,
						    tflags & SPRITZ_TCP_SYN ?
							    spritz_syn_wscale(skb, h->l4_off) : -1);
	f->bytes_sent += skb->len;
	/* pure ACK, RST, SYN-ACK, FIN-only: no decision, the flow's last EV */
	if (kind == SPRITZ_SEG_CTL) {
		spritz_egress_ctl(skb, f, ip6, th, st);
		return SPRITZ_TC_NEXT;
	}

	if (SPRITZ_BENCH_STOP(4))
		return SPRITZ_TC_NEXT;
	c = spritz_ctx_get(SPRITZ_KNOBS_EGRESS);
	if (SPRITZ_BENCH_STOP(5))
		return SPRITZ_TC_NEXT;
	/* a SYN is steered like data, but never recorded (feedback.h) */
	if (kind == SPRITZ_SEG_DATA) {
		f->used_ns = c->now;
		spritz_synack_data(skb, f, &key, seq, st);
		spritz_sock_state(skb, f, end, tflags, bpf_ntohl(th->ack_seq), bpf_ntohs(th->window));
		repair = spritz_fb_presend(&f->fb, seq, end);
		if (repair && spritz_retrans(f, st, seq, end, spritz_tsval(th, spritz_data_end(skb))))
			spritz_fb_deliver(f, c, st);
	}
	if (SPRITZ_BENCH_STOP(6))
		goto out;

	r = spritz_decide(f, c, st, segs,
			  (syn_again ? SPRITZ_DECIDE_SYN_AGAIN : 0) |
				  (repair ? SPRITZ_DECIDE_REPAIR :
				   kind == SPRITZ_SEG_DATA ? SPRITZ_DECIDE_NEW_DATA : 0));
	if (r < 0) {
		st->eg_unsteered++;
		return SPRITZ_TC_NEXT;
	}
	if (SPRITZ_BENCH_STOP(7))
		goto out;
	spritz_set_flowlabel(ip6, SPRITZ_PICK_EV(r));
	st->eg_rewrites++;
	spritz_flow_picked(f, r);
	if (SPRITZ_BENCH_STOP(8))
		goto out;
	if (kind == SPRITZ_SEG_DATA) {
		struct spritz_send snd = { .now = c->now, .seq = seq, .end = end, .pick = r, .segs = segs };

		spritz_record(f, st, &snd);
	}
out:
#ifdef SPRITZ_BENCH
	/* bench build only: the next repeat of the test run is new data */
	th->seq = bpf_htonl(end);
#endif
	return SPRITZ_TC_NEXT;
}

/*
 * The TCP packet inside a VXLAN/Geneve packet whose outer headers @h holds
 * (@outer: SPRITZ_PK_UDP6/4, tunnel port @port): its headers into @ih, and
 * SPRITZ_PK_TCP6/4, or another kind if there is none.  Pulls the inner
 * headers into the linear part if they are cut short there; then @h is
 * parsed again, and -1 means the packet no longer parses as before (every
 * pointer into it is stale: stop).
 */
static __always_inline int spritz_inner_parse(struct __sk_buff *skb, struct spritz_hdrs *h,
					      int outer, __u16 port, struct spritz_hdrs *ih)
{
	__u32 at = spritz_tunnel_inner(skb, h, port);
	int kind;

	if (!at)
		return SPRITZ_PK_PROTO;
	kind = spritz_parse_at(skb, at, ih);
	if (kind != SPRITZ_PK_MALFORMED || !spritz_pull_headers(skb, SPRITZ_PULL_INNER))
		return kind;
	/* outer may be unknown to the verifier: the kinds that set h, spelled out */
	kind = spritz_parse_at(skb, 0, h);
	if ((kind != SPRITZ_PK_UDP6 && kind != SPRITZ_PK_UDP4) || kind != outer ||
	    spritz_hdrs_join(skb, h, kind == SPRITZ_PK_UDP6 ? sizeof(struct spritz_ip6) :
				 sizeof(struct spritz_ip4), sizeof(struct spritz_udp)))
		return -1;
	at = spritz_tunnel_inner(skb, h, port);
	if (!at)
		return SPRITZ_PK_PROTO;
	return spritz_parse_at(skb, at, ih);
}

/* An inner TCP send, read off the packet before it changes. */
struct spritz_inner_send {
	struct spritz_flow_key key; /* the inner flow, local end first, with its VNI */
	__u32 seq, end;
	__u32 ports, addrs;	    /* its identity in spritz_flow (spritz_inner_ports(), _addrs()) */
	__u32 kind;		    /* SPRITZ_SEG_* */
	__u32 flags;		    /* TCP flags */
	__u32 ack, win;		    /* ACK and window fields (host order) */
	__s32 wscale;		    /* a SYN's window scale option, -1: none (spritz_syn_wscale()) */
	__u64 ts;		    /* SPRITZ_FB_TS(TSval), or none */
};

/* Fill @in from inner TCP headers @ih (@kind) of a packet ending at @data_end. */
static __always_inline void spritz_inner_send(const struct spritz_hdrs *ih, int kind,
					      const void *data_end, struct spritz_inner_send *in)
{
	const struct spritz_tcp *th = ih->l4;
	__u32 paylen;

	paylen = spritz_tcp_paylen(th, ih->l4_len);
	in->flags = th->flags;
	in->kind = spritz_fb_seg_kind(th->flags, paylen);
	spritz_tcp_key(&in->key, ih, kind, 0);
	in->seq = bpf_ntohl(th->seq);
	in->end = in->seq + spritz_tcp_seqlen(th->flags, paylen);
	in->ack = bpf_ntohl(th->ack_seq);
	in->win = bpf_ntohs(th->window);
	in->ts = spritz_tsval(th, data_end);
}

/*
 * Fill @in from the inner TCP headers at @l3_off and @l4_off of @skb
 * (IPv6 or IPv4 by the IP header's version; @l4_len bytes of TCP header
 * and payload), a SYN's window scale option too: 0, or -1 (not in the
 * linear data).  Global: verified once, not on every outer and inner
 * parse path of the egress program.
 */
__noinline int spritz_inner_read(struct __sk_buff *skb, __u32 l3_off, __u32 l4_off, __u32 l4_len,
				 struct spritz_inner_send *in)
{
	void *data_end = spritz_data_end(skb);
	struct spritz_hdrs ih;

	if (!in || spritz_hdrs_at(skb, l3_off, l4_off, l4_len, sizeof(struct spritz_tcp), &ih))
		return -1;
	if (ih.l3 + sizeof(struct spritz_ip4) > data_end)
		return -1;
	if (*(__u8 *)ih.l3 >> 4 != 6) {
		spritz_inner_send(&ih, SPRITZ_PK_TCP4, data_end, in);
	} else {
		if (ih.l3 + sizeof(struct spritz_ip6) > data_end)
			return -1;
		spritz_inner_send(&ih, SPRITZ_PK_TCP6, data_end, in);
	}
	in->wscale = in->flags & SPRITZ_TCP_SYN ? spritz_syn_wscale(skb, l4_off) : -1;
	return 0;
}

/*
 * Tie tunnel flow @f (key @fkey) to the inner flow of @in: the first inner
 * SYN or data send names it (and spritz_inner learns the way back), data
 * of another inner flow marks @f mixed for good (a SYN of one, which may
 * never send data, does not).  1 if @in is a segment of @f's inner flow
 * (a data send of it is to be recorded).
 */
static __always_inline int spritz_inner_track(struct spritz_flow *f,
					      const struct spritz_flow_key *fkey,
					      const struct spritz_inner_send *in,
					      struct spritz_stats *st)
{
	if (f->flags & SPRITZ_FLOW_F_MIXED)
		return 0;
	if (in->kind == SPRITZ_SEG_CTL ||
	    (in->kind == SPRITZ_SEG_SYN && (f->flags & SPRITZ_FLOW_F_INNER)))
		return (f->flags & SPRITZ_FLOW_F_INNER) && f->inner_ports == in->ports &&
		       f->inner_addrs == in->addrs;
	if (!(f->flags & SPRITZ_FLOW_F_INNER)) {
		/* on the stack: 6.1 takes no other memory as a map key or value */
		struct spritz_flow_key k = in->key, v = *fkey;

		if (bpf_map_update_elem(&spritz_inner, &k, &v, BPF_ANY))
			return 0;
		f->inner_ports = in->ports;
		f->inner_addrs = in->addrs;
		f->flags |= SPRITZ_FLOW_F_INNER;
		return 1;
	}
	if (f->inner_ports == in->ports && f->inner_addrs == in->addrs)
		return 1;
	f->flags |= SPRITZ_FLOW_F_MIXED;
	st->eg_inner_mixed++;
	return 0;
}

/* spritz_inner_sent() results */
#define SPRITZ_INNER_RECORD 1	/* a data send of the inner flow: record it */
#define SPRITZ_INNER_OUTCOMES 2 /* a retransmission left outcomes to deliver */
#define SPRITZ_INNER_REPAIR 4	/* a send of sequence sent before */
#define SPRITZ_INNER_CTL 8	/* a segment of the inner flow that is not data */
#define SPRITZ_INNER_SYN_AGAIN 16 /* ... a SYN it sent before (spritz_fb_syn_again()) */

/*
 * The inner TCP segment @in leaves in tunnel flow @f (key @fkey): tie
 * them (spritz_inner_track()), then the feedback core's send step.
 * Returns SPRITZ_INNER_*.  Global: verified once, not on every parse path
 * of the egress program.
 */
__noinline int spritz_inner_sent(struct spritz_flow *f, const struct spritz_flow_key *fkey,
				 const struct spritz_inner_send *in, const struct spritz_ctx *c,
				 struct spritz_stats *st)
{
	if (!f || !fkey || !in || !c || !st || !spritz_inner_track(f, fkey, in, st))
		return 0;
	if (in->kind != SPRITZ_SEG_DATA)
		return SPRITZ_INNER_CTL |
		       (spritz_fb_flow_ctl_sent(f, in->kind, in->flags, in->seq, in->end,
						in->wscale) ?
				SPRITZ_INNER_SYN_AGAIN : 0);
	if (!spritz_fb_presend(&f->fb, in->seq, in->end))
		return SPRITZ_INNER_RECORD;
	if (spritz_retrans(f, st, in->seq, in->end, in->ts))
		return SPRITZ_INNER_RECORD | SPRITZ_INNER_OUTCOMES | SPRITZ_INNER_REPAIR;
	return SPRITZ_INNER_RECORD | SPRITZ_INNER_REPAIR;
}

/*
 * Is @skb a datagram of a user-space UDP socket?  The kernel's VXLAN and
 * Geneve devices send from no socket, or from the inner flow's own (a
 * local TCP sender's); a tunnel header that a program wrote into its
 * datagrams is anyone's to forge - inner flows of other tenants, their
 * spritz_inner entries - so its inner TCP is not read.
 */
static __always_inline int spritz_user_datagram(struct __sk_buff *skb)
{
	struct bpf_sock *sk = skb->sk;

	if (!sk)
		return 0;
	sk = bpf_sk_fullsock(sk);
	return sk && sk->protocol == IPPROTO_UDP;
}

/* Whether UDP to @port carries an EV (abi.h, the spritz_udp map overrides). */
static __always_inline int spritz_udp_carrier(__u32 port, int v6)
{
	struct spritz_udp_port *p = bpf_map_lookup_elem(&spritz_udp, &port);
	__u32 mode = p ? p->mode : SPRITZ_UDP_DEFAULT;

	if (mode == SPRITZ_UDP_ON)
		return 1;
	if (mode != SPRITZ_UDP_DEFAULT)
		return 0;
	return SPRITZ_UDP_DEFAULT_CARRIER(port, v6);
}

/*
 * The flow, feedback and decision steps of a UDP carrier send with flow
 * key @key (the UDP header's source port as it is), of the inner TCP
 * segment @in if @inner: its SPRITZ_PICK(EV, lat_class), or -1 (leave the
 * packet as it is).  Global: verified once, not on every outer and inner
 * parse path (6.1's egress cost 373 212 instructions with it inline).
 */
__noinline int spritz_udp_send(struct __sk_buff *skb, const struct spritz_flow_key *key,
			       const struct spritz_inner_send *in, int inner, struct spritz_stats *st)
{
	struct spritz_flow *f;
	struct spritz_ctx *c;
	int r, record = 0;
	__u32 segs;

	if (!key || !in || !st)
		return -1;
	f = spritz_flow_get(key, skb->ifindex, st, 1);
	if (!f)
		return -1;
	segs = spritz_segs(skb);
	st->eg_managed_udp++;
	st->eg_segs += segs;
	c = spritz_ctx_get(SPRITZ_KNOBS_EGRESS);
	f->used_ns = c->now;
	if (inner) {
		record = spritz_inner_sent(f, key, in, c, st);
		/* an inner SYN-ACK before data names the inner flow: its scale kept */
		if (!record)
			spritz_synack_left(skb, &in->key, in->flags, in->seq, in->wscale, st);
		if (record & SPRITZ_INNER_RECORD)
			spritz_synack_data(skb, f, &in->key, in->seq, st);
		/* the receive window each segment of the inner flow advertises */
		if (record & SPRITZ_INNER_RECORD)
			spritz_sock_state(skb, f, in->end, in->flags, in->ack, in->win);
		else if (record & SPRITZ_INNER_CTL)
			spritz_seg_rcv(spritz_sock_tcp(skb), f, in->flags, in->ack, in->win);
		/* inline: one more call would take the stack past 512 bytes */
		if (record & SPRITZ_INNER_OUTCOMES)
			spritz_fb_deliver_all(f, c, st);
	}
	r = spritz_decide(f, c, st, segs,
			  record & SPRITZ_INNER_SYN_AGAIN ? SPRITZ_DECIDE_SYN_AGAIN :
			  record & SPRITZ_INNER_REPAIR	  ? SPRITZ_DECIDE_REPAIR :
			  record & SPRITZ_INNER_RECORD	  ? SPRITZ_DECIDE_NEW_DATA : 0);
	f->packets += segs;
	f->bytes_sent += skb->len;
	if (r < 0) {
		st->eg_unsteered++;
		return -1;
	}
	spritz_flow_picked(f, r);
	if (record & SPRITZ_INNER_RECORD) {
		spritz_fb_record(&f->fb, st, c->now, in->seq, in->end, SPRITZ_PICK_EV(r),
				 SPRITZ_PICK_LAT_CLASS(r), segs);
		st->eg_inner_tcp++;
	}
	st->eg_rewrites++;
	return r;
}

static __always_inline int spritz_egress_udp(struct __sk_buff *skb, struct spritz_hdrs *h, int v6,
					     struct spritz_stats *st)
{
	struct spritz_udp *uh = h->l4;
	struct spritz_flow_key key __attribute__((aligned(4)));
	struct spritz_inner_send in __attribute__((aligned(4)));
	struct spritz_hdrs ih;
	__u32 i3 = 0, i4 = 0, i4_len = 0;
	int r, inner;
	__u16 old, new, port;

	port = bpf_ntohs(uh->dest);
	if (!spritz_udp_carrier(port, v6)) {
		st->un_udp_port++;
		return SPRITZ_TC_NEXT;
	}
	/* first, as it may pull: only fresh pointers from here on */
	inner = spritz_inner_parse(skb, h, v6 ? SPRITZ_PK_UDP6 : SPRITZ_PK_UDP4, port, &ih);
	/* the inner headers as offsets, the outer ones joined: one state again */
	if (inner == SPRITZ_PK_TCP6 || inner == SPRITZ_PK_TCP4) {
		i3 = (__u8 *)ih.l3 - (__u8 *)spritz_data(skb);
		i4 = (__u8 *)ih.l4 - (__u8 *)spritz_data(skb);
		i4_len = ih.l4_len;
		inner = 1;
	} else if (inner >= 0) {
		inner = 0;
	}
	if (inner < 0 || spritz_hdrs_join(skb, h, v6 ? sizeof(struct spritz_ip6) :
			      sizeof(struct spritz_ip4), sizeof(struct spritz_udp))) {
		st->un_malformed++;
		return SPRITZ_TC_NEXT;
	}
	__builtin_memset(&in, 0, sizeof(in));
	inner = inner && !spritz_inner_read(skb, i3, i4, i4_len, &in);
	if (inner && spritz_user_datagram(skb)) {
		st->eg_inner_user++;
		inner = 0;
	}
	if (inner) {
		spritz_key_vni(&in.key, spritz_tunnel_vni(skb, h->l4_off));
		in.ports = spritz_inner_ports(&in.key);
		in.addrs = spritz_inner_addrs(&in.key);
	}
	uh = h->l4;
	__builtin_memset(&key, 0, sizeof(key));
	spritz_key_addrs(&key, h, v6, 0);
	old = uh->source;
	key.sport = bpf_ntohs(old);
	key.dport = bpf_ntohs(uh->dest);
	key.proto = IPPROTO_UDP;
	r = spritz_udp_send(skb, &key, &in, inner, st);
	if (r < 0)
		return SPRITZ_TC_NEXT;
	/* spritz_udp_send() moves no packet data: h's pointers hold */
	uh = h->l4;
	/* RoCEv2 over IPv6: the flow label, outside the ICRC (abi.h) */
	if (v6 && SPRITZ_UDP_LABEL_CARRIER(port)) {
		spritz_set_flowlabel(h->l3, SPRITZ_PICK_EV(r));
		return SPRITZ_TC_NEXT;
	}
	new = bpf_htons(SPRITZ_PICK_EV(r));
	if (new == old)
		return SPRITZ_TC_NEXT;
	uh->source = new;
	/* a zero checksum (none, or RFC 6935 for tunnels over IPv6) stays zero */
	if (bpf_l4_csum_replace(skb, h->l4_off + __builtin_offsetof(struct spritz_udp, check), old, new,
				BPF_F_MARK_MANGLED_0 | sizeof(__u16)))
		st->eg_csum_fail++;
	return SPRITZ_TC_NEXT;
}

#ifdef SPRITZ_BENCH
/*
 * Bench build only: stamp the test skb (which BPF_PROG_TEST_RUN reuses
 * across repeats) once with a CLOCK_MONOTONIC departure time, as the
 * stack's TCP does.  Egress no longer reads the stamp, so this case now
 * measures the same path as the unstamped one.
 */
__u32 spritz_bench_stamp;
#endif

SEC("tc")
int spritz_egress(struct __sk_buff *skb)
{
	struct spritz_stats *st = spritz_stats_get();
	struct spritz_hdrs h;
	int kind;

#ifdef SPRITZ_BENCH
	if (spritz_bench_stamp && !skb->tstamp)
		bpf_skb_set_tstamp(skb, bpf_ktime_get_ns(), BPF_SKB_TSTAMP_DELIVERY_MONO);
#endif
	if (!st)
		return SPRITZ_TC_NEXT;
	st->eg_packets++;
	kind = spritz_parse(skb, &h);
	if ((kind == SPRITZ_PK_TCP6 &&
	     spritz_hdrs_join(skb, &h, sizeof(struct spritz_ip6), sizeof(struct spritz_tcp))) ||
	    (kind == SPRITZ_PK_UDP6 &&
	     spritz_hdrs_join(skb, &h, sizeof(struct spritz_ip6), sizeof(struct spritz_udp))) ||
	    (kind == SPRITZ_PK_UDP4 &&
	     spritz_hdrs_join(skb, &h, sizeof(struct spritz_ip4), sizeof(struct spritz_udp))))
		kind = SPRITZ_PK_MALFORMED;
	switch (kind) {
	case SPRITZ_PK_TCP6:
		return spritz_egress_tcp6(skb, &h, st);
	case SPRITZ_PK_UDP6:
		return spritz_egress_udp(skb, &h, 1, st);
	case SPRITZ_PK_UDP4:
		return spritz_egress_udp(skb, &h, 0, st);
	case SPRITZ_PK_TCP4:
		st->un_tcp4++;
		break;
	case SPRITZ_PK_NOT_IP:
		st->un_not_ip++;
		break;
	case SPRITZ_PK_PROTO:
		st->un_proto++;
		break;
	case SPRITZ_PK_FRAGMENT:
		st->un_fragment++;
		break;
	default:
		st->un_malformed++;
		break;
	}
	return SPRITZ_TC_NEXT;
}

/* ------------------------------------------------------------- ingress */

/*
 * An ACK (TCP header at @th_off, its options in the packet) that
 * spritz_fb_ack_check() let through: read into @s (its SACK blocks too):
 * 1.  Global: verified once, not for the plain and the tunnel ACK and
 * every parse path to them.
 */
__noinline int spritz_ack_read(struct __sk_buff *skb, __u32 th_off, struct spritz_fb_ackinfo *s)
{
	void *data = spritz_data(skb), *data_end = spritz_data_end(skb);
	const struct spritz_tcp *th;

	if (!s)
		return 0;
	/* a header offset (< 16 KiB): masked by the program, or clang bounds
	 * a copy, and the verifier wants offset + header below 64 KiB */
	asm volatile("%0 &= 0x3fff" : "+r"(th_off));
	th = data + th_off;
	if ((void *)(th + 1) > data_end)
		return 0;
	s->ack = bpf_ntohl(th->ack_seq);
	s->ece = !!(th->flags & SPRITZ_TCP_ECE);
	if ((th->doff_res >> 4) > 5) {
		struct spritz_optwalk w;
		__u8 *opt = (__u8 *)(th + 1);
		__u32 olen = ((th->doff_res >> 4) * 4) - SPRITZ_TCP_HLEN, tsval;

		/*
		 * Linux ACKs open with NOP NOP TIMESTAMP (12 bytes, no SACK):
		 * read the echo here and walk (bpf_loop) only what follows -
		 * for most ACKs, nothing.
		 */
		if (spritz_tcp_ts(th, data_end, &tsval, &s->tsecr)) {
			s->ts = 1;
			opt += SPRITZ_TCPOLEN_TS_ALIGNED;
			olen -= SPRITZ_TCPOLEN_TS_ALIGNED;
		}
		spritz_optwalk(&w, opt, olen, data_end, s);
	}
	return 1;
}

/*
 * The ACK at @th of managed flow @f: validated, read (spritz_ack_read()),
 * scanned, the outcomes delivered.  The three calls are made from here:
 * nested, their stack frames would pass the 512 bytes a call chain may
 * have.  Rejected, or with nothing in flight (the receiving end of a
 * transfer), it costs no call, option walk or clock read.
 */
static __always_inline void spritz_ack(struct __sk_buff *skb, struct spritz_flow *f,
				       const struct spritz_tcp *th, __u32 l4_len,
				       struct spritz_stats *st)
{
	__u32 seq = bpf_ntohl(th->seq);
	struct spritz_fb_ackinfo s;
	struct spritz_ctx *c;

	if (spritz_fb_ack_check(&f->fb, st, th->flags, bpf_ntohl(th->ack_seq), seq,
				seq + spritz_tcp_seqlen(th->flags, spritz_tcp_paylen(th, l4_len))) !=
	    SPRITZ_FB_ACK_SCAN)
		return;
	__builtin_memset(&s, 0, sizeof(s));
	if (!spritz_ack_read(skb, (__u32)((__u8 *)th - (__u8 *)spritz_data(skb)), &s))
		return;
	/*
	 * An ACK needs the time only to age the sends it does not cover
	 * against the flow's timeout, a few RTTs: the fine clock.
	 */
	if (SPRITZ_BENCH_STOP(4))
		return;
	c = spritz_ctx_get(SPRITZ_KNOBS_INGRESS);
	if (SPRITZ_BENCH_STOP(5))
		return;
	if (spritz_ack_scan(f, &s, c, st))
		spritz_fb_deliver(f, c, st);
}

/*
 * Is the tunnel packet of @skb, whose outer IP header starts at @l3_off
 * (IPv4 if @v4), from the peer tunnel flow @outer sends to, and to it?
 * Global: verified once, not on every parse path of the ingress program.
 */
__noinline int spritz_tunnel_peer(struct __sk_buff *skb, __u32 l3_off, int v4,
				  const struct spritz_flow_key *outer)
{
	__u32 a[8];

	if (!outer)
		return 0;
	if (v4) {
		if (bpf_skb_load_bytes(skb, l3_off + __builtin_offsetof(struct spritz_ip4, saddr), a,
				       8))
			return 0;
		return spritz_fb_tunnel_peer(outer, &a[0], &a[1], 1);
	}
	if (bpf_skb_load_bytes(skb, l3_off + __builtin_offsetof(struct spritz_ip6, saddr), a, 32))
		return 0;
	return spritz_fb_tunnel_peer(outer, &a[0], &a[4], 0);
}

/*
 * The tunnel flow whose inner TCP flow (and VNI) the ACK in @ih (@kind)
 * belongs to, if it came in a tunnel packet (outer headers @h, @outer_kind) from the
 * peer that flow sends to; from any other outer address pair it is
 * counted and ignored: only the tunnel peer speaks for the inner flow.
 */
static __always_inline struct spritz_flow *spritz_inner_flow(struct __sk_buff *skb,
							     const struct spritz_hdrs *h,
							     int outer_kind,
							     const struct spritz_hdrs *ih, int kind,
							     struct spritz_stats *st)
{
	struct spritz_flow_key key __attribute__((aligned(4)));
	struct spritz_flow_key *outer;
	struct spritz_flow *f;
	__u32 l3_off;

	spritz_tcp_key(&key, ih, kind, 1);
	spritz_key_vni(&key, spritz_tunnel_vni(skb, h->l4_off));
	outer = bpf_map_lookup_elem(&spritz_inner, &key);
	if (!outer)
		return NULL;
	f = spritz_flow_at(spritz_flow_slot(outer));
	if (!f || (f->flags & SPRITZ_FLOW_F_MIXED))
		return NULL;
	/* the tunnel flow's slot may have been taken by a flow of another
	 * inner flow since the entry was made */
	if (!(f->flags & SPRITZ_FLOW_F_INNER) ||
	    f->inner_ports != spritz_inner_ports(&key) ||
	    f->inner_addrs != spritz_inner_addrs(&key)) {
		st->in_inner_other++;
		return NULL;
	}
	l3_off = (__u32)((__u8 *)h->l3 - (__u8 *)spritz_data(skb));
	if (!spritz_tunnel_peer(skb, l3_off, outer_kind == SPRITZ_PK_UDP4, outer)) {
		st->in_tunnel_foreign++;
		return NULL;
	}
	return f;
}

/* An IPv6 ACK in @h: its flow's feedback. */
static __always_inline void spritz_ingress_tcp6(struct __sk_buff *skb, struct spritz_hdrs *h,
						struct spritz_stats *st)
{
	struct spritz_flow_key key __attribute__((aligned(4)));
	struct spritz_tcp *th = h->l4;
	struct spritz_flow *f;

	if (!(th->flags & SPRITZ_TCP_ACK))
		goto unmanaged;
	if (SPRITZ_BENCH_STOP(1))
		return;
	/* the flow as egress keyed it: local end first */
	spritz_tcp_key(&key, h, SPRITZ_PK_TCP6, 1);
	if (SPRITZ_BENCH_STOP(2))
		return;
	f = spritz_flow_at(spritz_flow_index(&key));
	if (!f || !spritz_fb_tracking(&f->fb))
		goto unmanaged;
	if (SPRITZ_BENCH_STOP(3))
		return;
	st->in_acks++;
	spritz_ack(skb, f, th, h->l4_len, st);
	return;
unmanaged:
	st->in_unmanaged++;
}

/* A tunnel packet (outer headers @h, @outer: SPRITZ_PK_UDP6/4): its inner ACK's feedback. */
static __always_inline void spritz_ingress_udp(struct __sk_buff *skb, struct spritz_hdrs *h,
					       int outer, struct spritz_stats *st)
{
	struct spritz_udp *uh = h->l4;
	struct spritz_hdrs ih;
	struct spritz_tcp *th;
	struct spritz_flow *f;
	int kind;

	/* the peer's tunnel packets come to our tunnel port */
	kind = spritz_inner_parse(skb, h, outer, bpf_ntohs(uh->dest), &ih);
	if (kind != SPRITZ_PK_TCP6 && kind != SPRITZ_PK_TCP4)
		goto unmanaged;
	th = ih.l4;
	if (!(th->flags & SPRITZ_TCP_ACK))
		goto unmanaged;
	f = spritz_inner_flow(skb, h, outer, &ih, kind, st);
	if (!f || !spritz_fb_tracking(&f->fb))
		goto unmanaged;
	st->in_acks++;
	st->in_inner_acks++;
	spritz_ack(skb, f, th, ih.l4_len, st);
	return;
unmanaged:
	st->in_unmanaged++;
}

/*
 * A tunnel packet whose outer headers the ingress program parsed (@kind
 * SPRITZ_PK_UDP6/4, IP header at @l3_off, UDP header at @l4_off, @l4_len
 * bytes of UDP): its inner ACK's feedback.  Global: the inner parse and
 * the steps after it are verified once, not on every outer parse path.
 */
__noinline int spritz_ingress_udp_at(struct __sk_buff *skb, int kind, __u32 l3_off, __u32 l4_off,
				     __u32 l4_len)
{
	struct spritz_stats *st = spritz_stats_get();
	struct spritz_hdrs h;

	if (!st)
		return 0;
	if ((kind != SPRITZ_PK_UDP4 && kind != SPRITZ_PK_UDP6) ||
	    spritz_hdrs_at(skb, l3_off, l4_off, l4_len, sizeof(struct spritz_udp), &h))
		st->in_unmanaged++;
	else
		spritz_ingress_udp(skb, &h, kind, st);
	return 0;
}

SEC("tc")
int spritz_ingress(struct __sk_buff *skb)
{
	struct spritz_stats *st = spritz_stats_get();
	struct spritz_hdrs h;
	int kind;

	if (!st)
		return SPRITZ_TC_NEXT;
	st->in_packets++;
	kind = spritz_parse(skb, &h);
	if (kind == SPRITZ_PK_TCP6 &&
	    spritz_hdrs_join(skb, &h, sizeof(struct spritz_ip6), sizeof(struct spritz_tcp)))
		kind = SPRITZ_PK_MALFORMED;
	if (kind == SPRITZ_PK_TCP6)
		spritz_ingress_tcp6(skb, &h, st);
	else if (kind == SPRITZ_PK_UDP6 || kind == SPRITZ_PK_UDP4)
		spritz_ingress_udp_at(skb, kind, (__u32)((__u8 *)h.l3 - (__u8 *)spritz_data(skb)),
				      h.l4_off, h.l4_len);
	else
		st->in_unmanaged++;
	return SPRITZ_TC_NEXT;
}

char LICENSE[] SEC("license") = "GPL";
