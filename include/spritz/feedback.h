/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Spritz feedback core: the ACK / ECN / NACK / TIMEOUT outcomes of paper
 * §IV ("feedback logic") and §V (Algorithms 2-3 take them as input),
 * inferred from an unmodified TCP peer, as plain C.
 *
 * The sender records its data sends of one TCP flow (sequence range, EV,
 * send time) in a ring (struct spritz_fb_flow, maps.h).  Feedback comes
 * from the peer's ACKs, read the way the sender's TCP reads them:
 *
 *	send          spritz_fb_seg_kind()  data, SYN, or control (ACK, RST,
 *	                                    SYN-ACK, FIN-only)
 *	  data        spritz_fb_presend()   snd_nxt; a repeat of sequence sent?
 *	              spritz_fb_retrans()   then: NACK, or TIMEOUT if the send
 *	                                    repeated is older than the timeout
 *	              spritz_fb_record()    after the EV is known
 *	  other       spritz_fb_ctl_sent()  a FIN advances snd_nxt
 *	ACK in        spritz_fb_ack_check() validation (RFC 9293 3.10.7.4,
 *	                                    RFC 2018/6675 for SACK blocks)
 *	              spritz_fb_ack()       covered sends: ACK or ACK_ECN;
 *	                                    uncovered older than the timeout:
 *	                                    TIMEOUT
 *	per outcome   spritz_fb_take()      the next record with an outcome
 *	              spritz_fb_apply()     into the algorithm core (lb.h)
 *
 * Only data segments are recorded: SYN, SYN-ACK, FIN-only and RST sends
 * never yield path feedback (their retransmissions are the peer's silence,
 * not a path's), and an incoming SYN or RST is never an ACK of data.
 * Anything an ACK says outside what TCP itself would accept is rejected,
 * counted and changes nothing.
 *
 * Same rules as lb.h: one header for the tc datapath (bpf/spritz.bpf.c),
 * the host unit tests and the simulator; no library, no global state, no
 * division, only loops bounded by SPRITZ_RING_SIZE and SPRITZ_SACK_MAX,
 * every index masked or bounded, memory safe whatever the state holds.
 * An outcome is written into the ring record it concerns (state
 * SPRITZ_IF_DONE + kind: no event buffer on a 512-byte BPF stack); the
 * caller takes them (spritz_fb_take()), feeds each to spritz_fb_apply()
 * and performs the actions it returns (disable a path in spritz.ko).
 *
 * Documentation/datapath.rst ("Ingress feedback") and algorithms.rst
 * ("Feedback from TCP") describe the rules; the deviations from the paper
 * are listed there.
 */
#ifndef _SPRITZ_FEEDBACK_H
#define _SPRITZ_FEEDBACK_H

#include "abi.h"
#include "lb.h"
#include "maps.h"

/* TCP flags (header byte 13) */
#define SPRITZ_TCP_FIN 0x01
#define SPRITZ_TCP_SYN 0x02
#define SPRITZ_TCP_RST 0x04
#define SPRITZ_TCP_PSH 0x08
#define SPRITZ_TCP_ACK 0x10
#define SPRITZ_TCP_URG 0x20
#define SPRITZ_TCP_ECE 0x40
#define SPRITZ_TCP_CWR 0x80

/* SACK blocks one ACK can carry (40 option bytes: 4 blocks without TS). */
#define SPRITZ_SACK_MAX 4

/* What an outgoing TCP segment is to feedback (spritz_fb_seg_kind()). */
#define SPRITZ_SEG_DATA 0 /* payload, no SYN/RST: recorded, may create a flow */
#define SPRITZ_SEG_SYN 1  /* SYN without ACK: a flow starts; never recorded */
#define SPRITZ_SEG_CTL 2  /* pure ACK, RST, SYN-ACK, FIN-only: never recorded,
			   * never creates a flow */

/* spritz_fb_ack_check() verdicts */
#define SPRITZ_FB_ACK_IGNORE 0 /* rejected (counted) or nothing in flight */
#define SPRITZ_FB_ACK_SCAN 1   /* go on: spritz_fb_ack() */

/* One ACK as read off the wire (host byte order). */
struct spritz_fb_ackinfo {
	__u32 ack;			 /* cumulative ACK */
	__u32 ece;			 /* ECE set */
	__u32 nsack;			 /* SACK blocks in sack[] */
	__u32 sack[2 * SPRITZ_SACK_MAX]; /* left, right edge */
};

/* One feedback event for the algorithm core. */
struct spritz_fb_event {
	__u16 ev;
	__u8 lat_class;
	__u8 kind; /* enum spritz_lb_fb */
};

/* a before b in sequence space (RFC 9293 modular comparison) */
static __always_inline int spritz_seq_before(__u32 a, __u32 b)
{
	return (__s32)(a - b) < 0;
}

/* The class of an outgoing segment with @flags and @paylen payload bytes. */
static __always_inline int spritz_fb_seg_kind(__u8 flags, __u32 paylen)
{
	if ((flags & (SPRITZ_TCP_SYN | SPRITZ_TCP_ACK | SPRITZ_TCP_RST)) == SPRITZ_TCP_SYN)
		return SPRITZ_SEG_SYN;
	if (paylen && !(flags & (SPRITZ_TCP_SYN | SPRITZ_TCP_RST)))
		return SPRITZ_SEG_DATA;
	return SPRITZ_SEG_CTL;
}

/* Does the flow have a sequence space (a data send was seen)? */
static __always_inline int spritz_fb_tracking(const struct spritz_fb_flow *fb)
{
	return !!(fb->flags & SPRITZ_FB_F_HAVE_SEQ);
}

/* The outcome of pending send @e is @kind: it waits in the record. */
static __always_inline __u32 __spritz_fb_emit(struct spritz_inflight *e, __u32 kind)
{
	e->state = (__u8)(SPRITZ_IF_DONE + kind);
	return 1;
}

/*
 * If ring record @i holds an outcome, move it to @ev, free the record and
 * return 1.  Walk i over the ring after a call that returned outcomes.
 */
static __always_inline int spritz_fb_take(struct spritz_fb_flow *fb, __u32 i,
					  struct spritz_fb_event *ev)
{
	struct spritz_inflight *e = &fb->ring[i & SPRITZ_RING_MASK];
	__u32 st = e->state;

	if (st < SPRITZ_IF_DONE)
		return 0;
	e->state = SPRITZ_IF_FREE;
	if (st >= SPRITZ_IF_DONE + SPRITZ_FB_NR)
		return 0; /* no such state: garbage, dropped */
	ev->ev = e->ev;
	ev->lat_class = e->lat_class;
	ev->kind = (__u8)(st - SPRITZ_IF_DONE);
	return 1;
}

/*
 * The data send [@seq, @end) is about to leave: snd_nxt covers it; record
 * it (spritz_fb_record()) once its EV is known.  Returns 1 if it repeats
 * sequence already sent: a retransmission, for spritz_fb_retrans().
 */
static __always_inline int spritz_fb_presend(struct spritz_fb_flow *fb, __u32 seq, __u32 end)
{
	__u32 nxt = fb->snd_nxt;

	if (!spritz_fb_tracking(fb)) {
		fb->snd_una = seq;
		fb->snd_nxt = end;
		fb->flags |= SPRITZ_FB_F_HAVE_SEQ;
		return 0;
	}
	if (spritz_seq_before(nxt, end))
		fb->snd_nxt = end;
	return spritz_seq_before(seq, nxt);
}

/*
 * [@seq, @end) is sent again at @now: every pending record it overlaps is
 * lost, NACK if younger than @timeout_ns, else TIMEOUT.  Returns the
 * number of outcomes to take.
 */
static __always_inline __u32 spritz_fb_retrans(struct spritz_fb_flow *fb,
					       struct spritz_stats *st, __u64 now,
					       __u64 timeout_ns, __u32 seq, __u32 end)
{
	__u32 i, n = 0;

	st->eg_retrans++;
	for (i = 0; i < SPRITZ_RING_SIZE; i++) {
		struct spritz_inflight *e = &fb->ring[i];
		__u64 age;

		if (e->state != SPRITZ_IF_PENDING)
			continue;
		if (!spritz_seq_before(e->start_seq, end) || !spritz_seq_before(seq, e->end_seq))
			continue;
		age = now > e->sent_ns ? now - e->sent_ns : 0;
		n += __spritz_fb_emit(e, age < timeout_ns ? SPRITZ_FB_NACK : SPRITZ_FB_TIMEOUT);
	}
	return n;
}

/*
 * A segment that is not data (SPRITZ_SEG_SYN, SPRITZ_SEG_CTL) with
 * @flags, covering [@seq, @end), leaves.  Nothing is recorded; a FIN takes
 * a sequence number the peer will acknowledge, so snd_nxt covers it (that
 * ACK is then not "unsent").
 */
static __always_inline void spritz_fb_ctl_sent(struct spritz_fb_flow *fb, __u8 flags, __u32 seq,
					       __u32 end)
{
	if ((flags & (SPRITZ_TCP_FIN | SPRITZ_TCP_SYN | SPRITZ_TCP_RST)) != SPRITZ_TCP_FIN)
		return;
	if (spritz_fb_tracking(fb) && spritz_seq_before(fb->snd_nxt, end))
		fb->snd_nxt = end;
}

/* Record the data send [@seq, @end) on @ev (class @lat) at @now. */
static __always_inline void spritz_fb_record(struct spritz_fb_flow *fb, struct spritz_stats *st,
					     __u64 now, __u32 seq, __u32 end, __u16 ev, __u8 lat,
					     __u32 segs)
{
	struct spritz_inflight *e = &fb->ring[fb->ring_head & SPRITZ_RING_MASK];

	fb->ring_head++;
	if (e->state == SPRITZ_IF_PENDING)
		st->eg_ring_overrun++;
	e->sent_ns = now;
	e->start_seq = seq;
	e->end_seq = end;
	e->ev = ev;
	e->lat_class = lat;
	e->segs = segs > 0xffff ? 0xffff : (__u16)segs;
	e->state = SPRITZ_IF_PENDING;
}

/*
 * Validate an incoming segment with ACK set and TCP flags @flags that
 * acknowledges @ack, as the sender's TCP would (RFC 9293 3.10.7.4): a SYN
 * or RST acknowledges no data (and ECE on a SYN-ACK is ECN negotiation),
 * an ACK must lie in [snd_una, snd_nxt].  Rejections are counted and
 * change nothing.  SPRITZ_FB_ACK_SCAN: sends are in flight, go on.
 */
static __always_inline int spritz_fb_ack_check(const struct spritz_fb_flow *fb,
					       struct spritz_stats *st, __u8 flags, __u32 ack)
{
	if (flags & (SPRITZ_TCP_SYN | SPRITZ_TCP_RST)) {
		st->in_ack_ctl++;
		return SPRITZ_FB_ACK_IGNORE;
	}
	if (spritz_seq_before(fb->snd_nxt, ack)) {
		st->in_ack_unsent++;
		return SPRITZ_FB_ACK_IGNORE;
	}
	if (spritz_seq_before(ack, fb->snd_una)) {
		st->in_ack_old++;
		return SPRITZ_FB_ACK_IGNORE;
	}
	/*
	 * snd_una == snd_nxt: every recorded send was acknowledged and
	 * freed, nothing to credit or age - the receiving end of a transfer,
	 * whose every data segment carries ACK.
	 */
	return fb->snd_una == fb->snd_nxt ? SPRITZ_FB_ACK_IGNORE : SPRITZ_FB_ACK_SCAN;
}

/* Is SACK block [@l, @r) valid: non-empty, inside [@una, @nxt] (RFC 2018)? */
static __always_inline int __spritz_fb_sack_ok(__u32 l, __u32 r, __u32 una, __u32 nxt)
{
	return spritz_seq_before(l, r) && !spritz_seq_before(l, una) &&
	       !spritz_seq_before(nxt, r);
}

/* Is [@start, @end) inside one of @a's SACK blocks? */
static __always_inline int __spritz_fb_sacked(const struct spritz_fb_ackinfo *a, __u32 start,
					      __u32 end)
{
	__u32 b;

	for (b = 0; b < SPRITZ_SACK_MAX; b++) {
		if (b >= a->nsack)
			break;
		if (!spritz_seq_before(start, a->sack[2 * b]) &&
		    !spritz_seq_before(a->sack[2 * b + 1], end))
			return 1;
	}
	return 0;
}

/*
 * The ACK @a (passed by spritz_fb_ack_check()) arrives at @now: SACK
 * blocks outside [snd_una, snd_nxt] or empty are dropped from @a
 * (counted), then every pending send it covers, cumulatively or by a kept
 * SACK block, is ACK (ACK_ECN with ECE), and every other one older than
 * @timeout_ns is TIMEOUT.  snd_una moves to the ACK.  Returns the number
 * of outcomes to take.
 */
static __always_inline __u32 spritz_fb_ack(struct spritz_fb_flow *fb, struct spritz_stats *st,
					   __u64 now, __u64 timeout_ns,
					   struct spritz_fb_ackinfo *a)
{
	__u32 una = fb->snd_una, n = 0, keep = 0, b, i, l, r;

	for (b = 0; b < SPRITZ_SACK_MAX; b++) {
		if (b >= a->nsack)
			break;
		l = a->sack[2 * b];
		r = a->sack[2 * b + 1];
		if (!__spritz_fb_sack_ok(l, r, una, fb->snd_nxt)) {
			st->in_sack_bad++;
			continue;
		}
		st->in_sack_blocks++;
		/* keep <= b: blocks move down, never up */
		a->sack[(2 * keep) & (2 * SPRITZ_SACK_MAX - 1)] = l;
		a->sack[(2 * keep + 1) & (2 * SPRITZ_SACK_MAX - 1)] = r;
		keep++;
	}
	a->nsack = keep;
	if (spritz_seq_before(una, a->ack))
		fb->snd_una = a->ack;

	for (i = 0; i < SPRITZ_RING_SIZE; i++) {
		struct spritz_inflight *e = &fb->ring[i];
		__u64 age;

		if (e->state != SPRITZ_IF_PENDING)
			continue;
		if (!spritz_seq_before(a->ack, e->end_seq) ||
		    __spritz_fb_sacked(a, e->start_seq, e->end_seq)) {
			n += __spritz_fb_emit(e, a->ece ? SPRITZ_FB_ACK_ECN : SPRITZ_FB_ACK);
			continue;
		}
		age = now > e->sent_ns ? now - e->sent_ns : 0;
		if (age >= timeout_ns)
			n += __spritz_fb_emit(e, SPRITZ_FB_TIMEOUT);
	}
	return n;
}

/*
 * Feed outcome @kind of a send on @ev (class @lat) into algorithm state
 * @lb and count it; returns the actions (SPRITZ_LB_ACT_*) for the caller.
 */
static __always_inline __u32 spritz_fb_apply(struct spritz_lb_flow *lb,
					     const struct spritz_lb_cfg *cfg,
					     struct spritz_stats *st, __u32 kind, __u16 ev,
					     __u8 lat)
{
	__u8 len = lb->len;
	__u32 act;

	if (kind >= SPRITZ_FB_NR)
		return 0;
	act = spritz_lb_feedback(lb, cfg, kind, ev, lat);
	if (lb->len < len)
		st->evictions += len - lb->len;
	if (kind == SPRITZ_FB_ACK)
		st->fb_ack++;
	else if (kind == SPRITZ_FB_ACK_ECN)
		st->fb_ecn++;
	else if (kind == SPRITZ_FB_NACK)
		st->fb_nack++;
	else
		st->fb_timeout++;
	return act;
}

/*
 * Are outer addresses @src, @dst (4 32-bit words each, or 1 if @v4, in
 * network order as in the packet) those of tunnel flow @k (IPv4
 * v4-mapped), reversed?  Inner ACKs count only from the tunnel peer the
 * flow sends to.
 */
static __always_inline int spritz_fb_tunnel_peer(const struct spritz_flow_key *k,
						 const __u32 *src, const __u32 *dst, int v4)
{
	const __u32 *ks = (const __u32 *)k->saddr, *kd = (const __u32 *)k->daddr;
	/* ::ffff:0:0/96, word 2 in network order whatever the host's */
	const __u8 m[4] = { 0, 0, 0xff, 0xff };
	__u32 w2 = *(const __u32 *)m;

	if (v4)
		return !(ks[0] | ks[1] | kd[0] | kd[1] | (ks[2] ^ w2) | (kd[2] ^ w2) |
			 (src[0] ^ kd[3]) | (dst[0] ^ ks[3]));
	return !((src[0] ^ kd[0]) | (src[1] ^ kd[1]) | (src[2] ^ kd[2]) | (src[3] ^ kd[3]) |
		 (dst[0] ^ ks[0]) | (dst[1] ^ ks[1]) | (dst[2] ^ ks[2]) | (dst[3] ^ ks[3]));
}

#endif /* _SPRITZ_FEEDBACK_H */
