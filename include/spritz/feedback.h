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
 *	              spritz_fb_retrans()   then: NACK, the first lost the suspect
 *	              spritz_fb_record()    after the EV is known
 *	  other       spritz_fb_ctl_sent()  a FIN advances snd_nxt; a SYN or
 *	                                    SYN-ACK starts the sequence afresh
 *	              spritz_fb_wscale_sent() ... and its window scale
 *	  any         spritz_fb_rcv_sent()  the socket's receive window, or
 *	              spritz_fb_rcv_hdr()   the one the segment advertises
 *	ACK in        spritz_fb_ack_check() validation (RFC 9293 3.10.7.4:
 *	                                    SEG.SEQ and SEG.ACK; RFC 2018/6675
 *	                                    for SACK blocks)
 *	              spritz_fb_ack()       covered sends: ACK or ACK_ECN;
 *	                                    SACK holes TCP counts lost, sends
 *	                                    older than the timeout: NACK;
 *	                                    the suspect's dead-path rule:
 *	                                    TIMEOUT
 *	per outcome   spritz_fb_take()      the next record with an outcome
 *	              spritz_fb_apply()     into the algorithm core (lb.h)
 *
 * Failover in RTTs (paper §V: a timeout of 100 us = 13.7 RTTs disables
 * the path).  Every loss is a NACK: a retransmission by TCP, a SACK hole
 * TCP counts lost, a send unacknowledged for the flow's timeout
 * (spritz_fb_timeout_ns(): a multiple of the socket's smoothed RTT, with
 * a floor and a cap).  The first lost send of a flow becomes its suspect
 * and goes through the dead-path rule (__spritz_fb_judge()), whether TCP
 * repaired it meanwhile or not: it is a TIMEOUT only if, within the
 * timeout, a send of the same flow on another EV sent after it was
 * delivered (the peer answered, its switch was reachable), no later send
 * of the flow on its own EV was (the path alone is silent), TCP's repair
 * of it was not spurious (DSACK; the ACK's timestamp echo, Eifel) and
 * another packet on its EV was lost too (another send, or another packet of
 * a GSO send lost whole: one loss is no dead path).  A path that
 * delivers a later send after a drop is never disabled, nor one that
 * drops one packet and is not used again, and a peer that goes silent
 * leaves every path unanswered at once, so it disables none.  A suspect
 * without that evidence (everything the flow had in flight was lost) is
 * verified once the peer answers again: the flow's next new data goes to
 * its EV (spritz_fb_verify()), and is judged by the same rule.  Evidence is the flow's own: another flow's deliveries
 * say nothing about whether this flow's peer is alive.  A flow's own
 * choice needs none: its samples (Scout, Spray) avoid the EVs of its
 * latest lost sends until a send on the same EV is delivered (new data
 * may still go to the suspect's path, which the rule is judging:
 * spritz_fb_avoid()), so that its repairs do not go back to paths the
 * rule has not judged, or cannot judge.
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
#include "kfuncs.h" /* SPRITZ_PICK_* */
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

/*
 * The functions the verifier should see once, not once per path through
 * their callers: bpf/spritz.bpf.c defines SPRITZ_FB_SUBPROG as __noinline
 * (a global subprogram: pointer arguments may be NULL, so they check).
 */
#ifndef SPRITZ_FB_SUBPROG
#define SPRITZ_FB_SUBPROG static __always_inline
#endif

/*
 * RFC 6675 DupThresh: segments SACKed above a hole that make it lost, for
 * a flow whose socket's threshold is unknown (fb->dupthresh 0).
 */
#define SPRITZ_FB_DUPTHRESH 3

/*
 * A suspect whose path lost no other send waits this many timeouts, and
 * a ring's worth of the flow's sends, for a second loss on it (or a
 * delivery) before it is judged isolated.
 */
#define SPRITZ_FB_STRIKE_WAIT 4

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
	__u32 ts;			 /* a timestamp option (RFC 7323) was read */
	__u32 tsecr;			 /* ... its echo reply */
	__u32 inside;			 /* bit b: block b lies inside another (spritz_fb_ack()) */
	__u64 now, timeout_ns;		 /* set by spritz_fb_ack() */
};

/*
 * The TSval of a send (RFC 7323), as spritz_fb_retrans() takes it: bit 32
 * says there is one; SPRITZ_FB_TS_NONE for a segment without.
 */
#define SPRITZ_FB_TS_NONE 0ULL
#define SPRITZ_FB_TS(tsval) (1ULL << 32 | (__u32)(tsval))

/* One feedback event for the algorithm core: a recorded send's outcome. */
struct spritz_fb_event {
	__u16 ev;
	__u8 lat_class;
	__u8 kind;  /* enum spritz_lb_fb */
	__u16 segs; /* the send's packets (gso_segs), at least 1 */
	__u16 __pad;
};

/* a before b in sequence space (RFC 9293 modular comparison) */
static __always_inline int spritz_seq_before(__u32 a, __u32 b)
{
	return (__s32)(a - b) < 0;
}

/* [@a, @a_end) and [@b, @b_end) share a sequence number */
static __always_inline int spritz_seq_overlap(__u32 a, __u32 a_end, __u32 b, __u32 b_end)
{
	return spritz_seq_before(a, b_end) && spritz_seq_before(b, a_end);
}

/* Sequence space of a segment of @paylen bytes with @flags: SYN, FIN take one. */
static __always_inline __u32 spritz_tcp_seqlen(__u8 flags, __u32 paylen)
{
	return paylen + !!(flags & SPRITZ_TCP_SYN) + !!(flags & SPRITZ_TCP_FIN);
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

/* The outcome of send @e is @kind: it waits in the record. */
static __always_inline __u32 __spritz_fb_emit(struct spritz_inflight *e, __u32 kind)
{
	e->state = (__u8)(SPRITZ_IF_DONE + kind);
	return 1;
}

/*
 * Send @e was lost (@lost) or delivered: a loss makes its EV the newest of
 * the set the flow's samples avoid (spritz_fb_avoid()), a delivery takes
 * its EV out.  Whatever the order of the sends: a path the flow lost a
 * send on stays avoided until it delivers one, however many the flow's
 * other paths deliver.
 */
static __always_inline void __spritz_fb_fate(struct spritz_fb_flow *fb,
					     const struct spritz_inflight *e, int lost)
{
	fb->avoid = lost ? spritz_avoid_add(fb->avoid, e->ev) : spritz_avoid_del(fb->avoid, e->ev);
}

/*
 * Lost send @e becomes the suspect of the dead-path rule, unless there is
 * one: one lost send per flow is judged at a time; another lost send on
 * the suspect's EV is its path's second loss, and so is a second packet of
 * the suspect itself, a GSO send none of whose packets was acknowledged
 * (losses are counted in packets, as the paper counts them), and a verify
 * send (spritz_fb_verify()), whose EV lost a send before.
 */
static __always_inline void __spritz_fb_suspect(struct spritz_fb_flow *fb,
						const struct spritz_inflight *e)
{
	struct spritz_inflight *s = &fb->suspect;

	__spritz_fb_fate(fb, e, 1);
	if (s->state == SPRITZ_IF_LOST) {
		if (e->ev == s->ev && (e->sent_ns != s->sent_ns || e->start_seq != s->start_seq))
			s->flags |= SPRITZ_IF_F_AGAIN;
		return;
	}
	*s = *e;
	s->state = SPRITZ_IF_LOST;
	s->flags = SPRITZ_IF_F_SEED;
	/* a verify send: its EV's earlier suspect was the first loss */
	if ((e->segs > 1 && !(e->flags & SPRITZ_IF_F_PART)) || (e->flags & SPRITZ_IF_F_VERIFY))
		s->flags |= SPRITZ_IF_F_AGAIN;
	fb->suspect_head = fb->ring_head;
	fb->flags |= SPRITZ_FB_F_SUSPECT;
}

/*
 * Delivered send @e is evidence for the suspect if it was sent after it:
 * on the same EV its path is alive; on another, within @timeout_ns of it,
 * the peer answered and the switch was reachable; later than that, the
 * peer answers again, which says nothing of the time of the loss.
 */
static __always_inline void __spritz_fb_evidence(struct spritz_fb_flow *fb,
						 const struct spritz_inflight *e, __u64 timeout_ns)
{
	struct spritz_inflight *s = &fb->suspect;

	if (s->state != SPRITZ_IF_LOST || e->sent_ns <= s->sent_ns)
		return;
	if (e->ev == s->ev)
		s->flags |= SPRITZ_IF_F_ALIVE;
	else if (e->sent_ns - s->sent_ns < timeout_ns)
		s->flags |= SPRITZ_IF_F_REACH;
	else
		s->flags |= SPRITZ_IF_F_LATER;
}

/*
 * Send @e came back ECN-marked: the latest marked send of its EV, in the
 * flow's slot for that EV or, if it has none, in the slot of the EV
 * marked longest ago.
 */
static __always_inline void __spritz_fb_mark(struct spritz_fb_flow *fb,
					     const struct spritz_inflight *e)
{
	struct spritz_fb_mark *m = &fb->marks[0];
	__u32 i;

	for (i = 0; i < SPRITZ_FB_MARKS; i++) {
		if (fb->marks[i].used && fb->marks[i].ev == e->ev) {
			m = &fb->marks[i];
			break;
		}
		if (m->used && (!fb->marks[i].used || fb->marks[i].sent_ns < m->sent_ns))
			m = &fb->marks[i];
	}
	if (m->used && m->ev == e->ev && m->sent_ns >= e->sent_ns)
		return;
	m->ev = e->ev;
	m->sent_ns = e->sent_ns;
	m->used = 1;
}

/*
 * Did a send of the flow on suspect @s's EV come back ECN-marked less
 * than @timeout_ns before @s was sent?  Its path's queue was full: its
 * losses may be that queue's drops.
 */
static __always_inline int __spritz_fb_marked(const struct spritz_fb_flow *fb,
					      const struct spritz_inflight *s, __u64 timeout_ns)
{
	__u32 i;

	for (i = 0; i < SPRITZ_FB_MARKS; i++) {
		const struct spritz_fb_mark *m = &fb->marks[i];

		if (m->used && m->ev == s->ev && m->sent_ns <= s->sent_ns &&
		    s->sent_ns - m->sent_ns < timeout_ns)
			return 1;
	}
	return 0;
}

/* Outcome slots: the ring, then the suspect (spritz_fb_take()). */
#define SPRITZ_FB_SLOTS (SPRITZ_RING_SIZE + 1)

/* Slot @i: ring record i, or the suspect for i >= SPRITZ_RING_SIZE. */
static __always_inline struct spritz_inflight *__spritz_fb_slot(struct spritz_fb_flow *fb, __u32 i)
{
	return i < SPRITZ_RING_SIZE ? &fb->ring[i & SPRITZ_RING_MASK] : &fb->suspect;
}

/*
 * If slot @i (0..SPRITZ_FB_SLOTS - 1) holds an outcome, move it to @ev
 * and return 1.  A delivered send (ACK, ACK_ECN) stays in the ring as
 * ACKED, evidence for the dead-path rule; any other is freed.  Walk i
 * over every slot after a call that returned outcomes.
 */
static __always_inline int spritz_fb_take(struct spritz_fb_flow *fb, __u32 i,
					  struct spritz_fb_event *ev)
{
	struct spritz_inflight *e = __spritz_fb_slot(fb, i);
	__u32 st = e->state, kind;

	if (st < SPRITZ_IF_DONE || st == SPRITZ_IF_LOST || st == SPRITZ_IF_ACKED)
		return 0;
	if (st >= SPRITZ_IF_DONE + SPRITZ_FB_NR) {
		e->state = SPRITZ_IF_FREE; /* no such state: garbage, dropped */
		return 0;
	}
	kind = st - SPRITZ_IF_DONE;
	e->state = kind <= SPRITZ_FB_ACK_ECN && e != &fb->suspect ? SPRITZ_IF_ACKED :
								   SPRITZ_IF_FREE;
	ev->ev = e->ev;
	ev->lat_class = e->lat_class;
	ev->kind = (__u8)kind;
	ev->segs = e->segs ? e->segs : 1;
	ev->__pad = 0;
	return 1;
}

/*
 * The timeout of a flow whose socket has smoothed RTT @srtt_us (0:
 * unknown): @rtt_pct percent of it, at least @min_us, at most @max_us;
 * @max_us without an RTT.  Knobs timeout_rtt_pct, timeout_min_us,
 * timeout_us.
 */
static __always_inline __u64 spritz_fb_timeout_ns(__u32 srtt_us, __u32 rtt_pct, __u32 min_us,
						  __u32 max_us)
{
	__u64 t = (__u64)srtt_us * rtt_pct * 10, lo = (__u64)min_us * 1000,
	      hi = (__u64)max_us * 1000;

	if (!srtt_us)
		return hi;
	if (t < lo)
		t = lo;
	return t < hi ? t : hi;
}

/*
 * The data send [@seq, @end) is about to leave: snd_nxt covers it; record
 * it (spritz_fb_record()) once its EV is known.  Returns 1 if it repeats
 * sequence already sent: a retransmission, for spritz_fb_retrans(), and
 * its record will say so (SPRITZ_IF_F_REPAIR).
 */
static __always_inline int spritz_fb_presend(struct spritz_fb_flow *fb, __u32 seq, __u32 end)
{
	__u32 nxt = fb->snd_nxt;

	fb->flags &= ~SPRITZ_FB_F_REPAIR_SENT;
	if (!spritz_fb_tracking(fb)) {
		fb->snd_una = seq;
		fb->snd_nxt = end;
		fb->flags |= SPRITZ_FB_F_HAVE_SEQ;
		return 0;
	}
	if (spritz_seq_before(nxt, end))
		fb->snd_nxt = end;
	if (!spritz_seq_before(seq, nxt))
		return 0;
	fb->flags |= SPRITZ_FB_F_REPAIR_SENT;
	return 1;
}

/*
 * [@seq, @end) is sent again, with TCP timestamp @ts (SPRITZ_FB_TS()): TCP
 * found every pending record it overlaps lost (fast retransmit, RACK, TLP
 * or RTO).  Each gets NACK; the first becomes the suspect of the dead-path
 * rule (spritz_fb_ack()) if there is none, which makes it a TIMEOUT if its
 * path is dead.  The first repair of the suspect keeps its TSval
 * (__spritz_fb_eifel()).  Returns the number of outcomes to take.
 */
static __always_inline __u32 spritz_fb_retrans(struct spritz_fb_flow *fb,
					       struct spritz_stats *st, __u32 seq, __u32 end,
					       __u64 ts)
{
	struct spritz_inflight *s = &fb->suspect;
	__u32 i, n = 0;

	st->eg_retrans++;
	for (i = 0; i < SPRITZ_RING_SIZE; i++) {
		struct spritz_inflight *e = &fb->ring[i];

		if (e->state != SPRITZ_IF_PENDING)
			continue;
		if (!spritz_seq_overlap(e->start_seq, e->end_seq, seq, end))
			continue;
		__spritz_fb_suspect(fb, e);
		n += __spritz_fb_emit(e, SPRITZ_FB_NACK);
	}
	/* a later ACK of the suspect's sequence may be the repair's */
	if (s->state != SPRITZ_IF_LOST || !spritz_seq_overlap(s->start_seq, s->end_seq, seq, end))
		return n;
	/* the repair's sequence again: an ACK of it may be this copy's (Karn) */
	if ((s->flags & SPRITZ_IF_F_MOVED) &&
	    spritz_seq_overlap(fb->repair_seq, fb->repair_seq + 1, seq, end))
		s->flags |= SPRITZ_IF_F_KARN;
	if (!(s->flags & SPRITZ_IF_F_RESENT) && (ts >> 32)) {
		s->flags |= SPRITZ_IF_F_TSVAL;
		fb->repair_tsval = (__u32)ts;
	}
	s->flags |= SPRITZ_IF_F_RESENT;
	return n;
}

/*
 * Is the segment of @kind about to leave a SYN the flow sent before
 * (SPRITZ_DECIDE_SYN_AGAIN; asked before spritz_fb_ctl_sent())?  The flow
 * steered a packet (@have_ev), and no data since its last SYN: a SYN after
 * data is a new connection on the same ports.
 */
static __always_inline int spritz_fb_syn_again(const struct spritz_fb_flow *fb, int kind,
					       int have_ev)
{
	return kind == SPRITZ_SEG_SYN && have_ev && !spritz_fb_tracking(fb);
}

/*
 * A segment that is not data (SPRITZ_SEG_SYN, SPRITZ_SEG_CTL) with
 * @flags, covering [@seq, @end), leaves.  Nothing is recorded.  A SYN or
 * SYN-ACK opens a connection on the flow's addresses and ports, in a
 * sequence space of its own: what the flow kept of an earlier connection
 * on them (a client's port taken again, a peer reconnecting from the
 * same port) - sequence numbers, sends in flight, the suspect, marks,
 * the receive window - would take the new connection's ACKs for old or
 * unsent ones, so it is dropped (the paths' state, lb.h, stays).  A FIN
 * takes a sequence number the peer will acknowledge, so snd_nxt covers
 * it (that ACK is then not "unsent").  Returns 1 if a connection starts
 * (the caller restarts what else it counts per connection), else 0.
 */
static __always_inline int spritz_fb_ctl_sent(struct spritz_fb_flow *fb, __u8 flags, __u32 seq,
					      __u32 end)
{
	if ((flags & (SPRITZ_TCP_SYN | SPRITZ_TCP_RST)) == SPRITZ_TCP_SYN) {
		__builtin_memset(fb, 0, sizeof(*fb));
		return 1;
	}
	if ((flags & (SPRITZ_TCP_FIN | SPRITZ_TCP_RST)) == SPRITZ_TCP_FIN &&
	    spritz_fb_tracking(fb) && spritz_seq_before(fb->snd_nxt, end))
		fb->snd_nxt = end;
	return 0;
}

/*
 * Record the data send [@seq, @end) on @ev (class @lat) at @now.  With
 * the ring full of sends in flight it is not recorded (eg_ring_overrun):
 * the oldest keep their feedback, since the first loss on a dead path is
 * what the dead-path rule needs, and each pending send leaves the ring
 * within a timeout (delivered, or lost).
 */
static __always_inline void spritz_fb_record(struct spritz_fb_flow *fb, struct spritz_stats *st,
					     __u64 now, __u32 seq, __u32 end, __u16 ev, __u8 lat,
					     __u32 segs)
{
	struct spritz_inflight *e = &fb->ring[fb->ring_head & SPRITZ_RING_MASK];
	/* the send spritz_fb_verify() chose */
	int verify = (fb->flags & SPRITZ_FB_F_VERIFY_SENT) && ev == fb->verify_ev;
	/* a repair (spritz_fb_presend()) */
	int repair = !!(fb->flags & SPRITZ_FB_F_REPAIR_SENT);

	fb->flags &= ~(SPRITZ_FB_F_VERIFY_SENT | SPRITZ_FB_F_REPAIR_SENT);

	/* the suspect's repair, leaving on another path (__spritz_fb_late()) */
	if (fb->suspect.state == SPRITZ_IF_LOST && !(fb->suspect.flags & SPRITZ_IF_F_MOVED) &&
	    ev != fb->suspect.ev &&
	    spritz_seq_overlap(fb->suspect.start_seq, fb->suspect.end_seq, seq, end)) {
		fb->suspect.flags |= SPRITZ_IF_F_MOVED;
		fb->repair_ns = now;
		fb->repair_seq = seq;
	}
	if (e->state == SPRITZ_IF_PENDING) {
		st->eg_ring_overrun++;
		return;
	}
	fb->ring_head++;
	e->sent_ns = now;
	e->start_seq = seq;
	e->end_seq = end;
	e->ev = ev;
	e->lat_class = lat;
	e->segs = segs > 0xffff ? 0xffff : (__u16)segs;
	e->flags = (verify ? SPRITZ_IF_F_VERIFY : 0) | (repair ? SPRITZ_IF_F_REPAIR : 0);
	e->state = SPRITZ_IF_PENDING;
}

/*
 * The socket's receive window as it stood when it sent a segment of the
 * flow (tc egress reads it from the sending socket): TCP accepts a
 * segment of the peer only if it ends at or after @wup (rcv_wup, the
 * rcv_nxt of its last window update) and starts at or before
 * @wup + @wnd, the window's right edge (Linux's tcp_sequence()).
 */
static __always_inline void spritz_fb_rcv_sent(struct spritz_fb_flow *fb, __u32 wup, __u32 wnd)
{
	fb->rcv_wup = wup;
	fb->rcv_wend = wup + wnd;
	fb->flags |= SPRITZ_FB_F_HAVE_RCV;
}

/*
 * The largest window scale (RFC 7323 2.3): the shift a window field is
 * taken at where the handshake's is not known (spritz_fb_rcv_hdr()).
 */
#define SPRITZ_TCP_WSCALE_MAX 14

/*
 * The connection that a SYN or SYN-ACK leaving opens (spritz_fb_ctl_sent()
 * returned 1) takes the window fields of its segments at the scale the
 * SYN's window scale option announces, @wscale (RFC 7323 2.2; above 14 as
 * 14, as Linux's tcp_parse_options() takes it), or unscaled without the
 * option (-1).  The scale is used only if the peer's SYN announces one
 * too, so it is the most the sender's windows are scaled by.
 */
static __always_inline void spritz_fb_wscale_sent(struct spritz_fb_flow *fb, int wscale)
{
	fb->rcv_wscale = wscale < 0			 ? 0 :
			 wscale > SPRITZ_TCP_WSCALE_MAX ? SPRITZ_TCP_WSCALE_MAX :
							  (__u8)wscale;
	fb->flags |= SPRITZ_FB_F_WSCALE;
}

/*
 * The receive window a segment with TCP flags @flags, ACK field @ack and
 * window field @win (host order) advertises, where no socket shows its
 * own (a forwarded segment, a tunnel's inner one): from @ack, Linux's
 * rcv_wup (rcv_nxt as of its last segment sent, tcp_select_window()), for
 * @win at the scale the connection's SYN announced if it was seen leaving
 * (spritz_fb_wscale_sent()), else at the largest; a SYN-ACK's window is
 * never scaled.  The right edge does not move left: TCP does not shrink a
 * window it offered (RFC 9293 3.8.6, tcp_select_window()), and the peer
 * may fill the largest it was offered whatever a later header says (a
 * DCTCP ACK of an rcv_nxt before the last, a segment reordered on its way
 * here).  So the window holds the receiver's real one - a peer's segment
 * its TCP would accept is never refused.  A segment without ACK, or an
 * RST, advertises nothing.
 */
static __always_inline void spritz_fb_rcv_hdr(struct spritz_fb_flow *fb, __u8 flags, __u32 ack,
					      __u16 win)
{
	__u32 shift = SPRITZ_TCP_WSCALE_MAX, wend;

	if ((flags & (SPRITZ_TCP_ACK | SPRITZ_TCP_RST)) != SPRITZ_TCP_ACK)
		return;
	if (flags & SPRITZ_TCP_SYN)
		shift = 0;
	else if (fb->flags & SPRITZ_FB_F_WSCALE)
		shift = fb->rcv_wscale;
	wend = ack + ((__u32)win << shift);
	if ((fb->flags & SPRITZ_FB_F_HAVE_RCV) && spritz_seq_before(wend, fb->rcv_wend))
		wend = fb->rcv_wend;
	spritz_fb_rcv_sent(fb, ack, wend - ack);
}

/*
 * The segment of @kind (not data) with @flags, [@seq, @end), of flow @f
 * leaves: spritz_fb_ctl_sent(); a connection it starts has its bytes
 * counted afresh (the small-flow bias judges it by its own size) and the
 * window scale its SYN's option announces, @wscale (-1: none; read only
 * from a SYN), spritz_fb_wscale_sent().  Returns 1 if it is a SYN sent
 * again (spritz_fb_syn_again(), asked before).
 */
static __always_inline int spritz_fb_flow_ctl_sent(struct spritz_flow *f, int kind, __u8 flags,
						   __u32 seq, __u32 end, int wscale)
{
	int again = spritz_fb_syn_again(&f->fb, kind, f->flags & SPRITZ_FLOW_F_HAVE_EV);

	if (spritz_fb_ctl_sent(&f->fb, flags, seq, end)) {
		f->bytes_sent = 0;
		spritz_fb_wscale_sent(&f->fb, wscale);
	}
	return again;
}

/*
 * Validate an incoming segment [@seq, @end) (sequence numbers, SYN and
 * FIN counted) with ACK set and TCP flags @flags that acknowledges @ack,
 * as the sender's TCP would (RFC 9293 3.10.7.4): a SYN or RST
 * acknowledges no data (and ECE on a SYN-ACK is ECN negotiation); the
 * segment must lie in the receive window the socket last advertised, if
 * egress saw one (SPRITZ_FB_F_HAVE_RCV: the socket's, or at least its
 * segments' with spritz_fb_rcv_hdr(); TCP drops it unread otherwise,
 * ACK field and all); an ACK must lie in [snd_una, snd_nxt].  Rejections
 * are counted and change nothing.  SPRITZ_FB_ACK_SCAN: sends are in
 * flight, go on.
 * An old ACK (below snd_una, overtaken by a later one) is read only if it
 * may carry the DSACK of the suspect's first copy, which the receiver
 * sends once (RFC 2883): at or above the suspect's end, while a suspect is
 * lost.  TCP reads an old ACK's SACK blocks too (Linux's tcp_ack()).
 */
static __always_inline int spritz_fb_ack_check(const struct spritz_fb_flow *fb,
					       struct spritz_stats *st, __u8 flags, __u32 ack,
					       __u32 seq, __u32 end)
{
	if (flags & (SPRITZ_TCP_SYN | SPRITZ_TCP_RST)) {
		st->in_ack_ctl++;
		return SPRITZ_FB_ACK_IGNORE;
	}
	if ((fb->flags & SPRITZ_FB_F_HAVE_RCV) &&
	    (spritz_seq_before(end, fb->rcv_wup) || spritz_seq_before(fb->rcv_wend, seq))) {
		st->in_ack_seq++;
		return SPRITZ_FB_ACK_IGNORE;
	}
	if (spritz_seq_before(fb->snd_nxt, ack)) {
		st->in_ack_unsent++;
		return SPRITZ_FB_ACK_IGNORE;
	}
	if (spritz_seq_before(ack, fb->snd_una)) {
		st->in_ack_old++;
		return (fb->flags & SPRITZ_FB_F_SUSPECT) && fb->suspect.state == SPRITZ_IF_LOST &&
			       !spritz_seq_before(ack, fb->suspect.end_seq) ?
			       SPRITZ_FB_ACK_SCAN :
			       SPRITZ_FB_ACK_IGNORE;
	}
	/*
	 * snd_una == snd_nxt: every recorded send was acknowledged, nothing
	 * to credit or age - the receiving end of a transfer, whose every
	 * data segment carries ACK - unless a suspect awaits the dead-path
	 * rule.
	 */
	return fb->snd_una == fb->snd_nxt && !(fb->flags & SPRITZ_FB_F_SUSPECT) ?
		       SPRITZ_FB_ACK_IGNORE :
		       SPRITZ_FB_ACK_SCAN;
}

/* Is SACK block [@l, @r) valid: non-empty, inside [@una, @nxt] (RFC 2018)? */
static __always_inline int __spritz_fb_sack_ok(__u32 l, __u32 r, __u32 una, __u32 nxt)
{
	return spritz_seq_before(l, r) && !spritz_seq_before(l, una) &&
	       !spritz_seq_before(nxt, r);
}

/* __spritz_fb_covered() results */
#define SPRITZ_FB_COVER_NONE 0
#define SPRITZ_FB_COVER_PART 1 /* some of it, cumulatively or by a SACK block */
#define SPRITZ_FB_COVER_WHOLE 2 /* all of it: the cumulative ACK, or inside one SACK block */

/* How much of [@start, @end) @a acknowledges: SPRITZ_FB_COVER_*, one walk of its SACK blocks. */
static __always_inline int __spritz_fb_covered(const struct spritz_fb_ackinfo *a, __u32 start,
					       __u32 end)
{
	int part = spritz_seq_before(start, a->ack);
	__u32 b;

	if (!spritz_seq_before(a->ack, end))
		return SPRITZ_FB_COVER_WHOLE;
	for (b = 0; b < SPRITZ_SACK_MAX; b++) {
		if (b >= a->nsack)
			break;
		if (!spritz_seq_before(start, a->sack[2 * b]) &&
		    !spritz_seq_before(a->sack[2 * b + 1], end))
			return SPRITZ_FB_COVER_WHOLE;
		part |= spritz_seq_overlap(start, end, a->sack[2 * b], a->sack[2 * b + 1]);
	}
	return part ? SPRITZ_FB_COVER_PART : SPRITZ_FB_COVER_NONE;
}

/*
 * Is [@l, @r), block @b of @a, inside another of its blocks (a DSACK
 * inside the second block, RFC 2883; a block repeated, counted once)?
 */
static __always_inline int __spritz_fb_sack_inside(const struct spritz_fb_ackinfo *a, __u32 b,
						   __u32 l, __u32 r)
{
	__u32 c, lc, rc;

	for (c = 0; c < SPRITZ_SACK_MAX; c++) {
		if (c >= a->nsack)
			break;
		lc = a->sack[(2 * c) & (2 * SPRITZ_SACK_MAX - 1)];
		rc = a->sack[(2 * c + 1) & (2 * SPRITZ_SACK_MAX - 1)];
		if (c == b || spritz_seq_before(l, lc) || spritz_seq_before(rc, r))
			continue;
		if (l != lc || r != rc || c < b)
			return 1;
	}
	return 0;
}

/* Bytes of @a's SACK blocks at or above @end, each byte once. */
static __always_inline __u32 __spritz_fb_sacked_above(const struct spritz_fb_ackinfo *a, __u32 end)
{
	__u32 b, l, r, n = 0;

	for (b = 0; b < SPRITZ_SACK_MAX; b++) {
		if (b >= a->nsack)
			break;
		if (a->inside & (1U << b))
			continue;
		l = a->sack[2 * b];
		r = a->sack[2 * b + 1];
		if (spritz_seq_before(l, end))
			l = end;
		if (spritz_seq_before(l, r))
			n += r - l;
	}
	return n;
}

/*
 * Is pending send @e of @fb a SACK hole that TCP counts lost (RFC 6675
 * IsLost): at least DupThresh of its segments' worth SACKed above it?
 * DupThresh is the socket's (tp->reordering: Linux raises it when it sees
 * reordering, an operator with net.ipv4.tcp_reordering), so that a send
 * TCP waits for is not taken for lost here either.
 */
static __always_inline int __spritz_fb_sack_lost(const struct spritz_fb_flow *fb,
						 const struct spritz_fb_ackinfo *a,
						 const struct spritz_inflight *e)
{
	__u32 segs = e->segs ? e->segs : 1;
	__u32 dupthresh = fb->dupthresh ? fb->dupthresh : SPRITZ_FB_DUPTHRESH;

	return (__u64)__spritz_fb_sacked_above(a, e->end_seq) * segs >=
	       (__u64)dupthresh * (__u32)(e->end_seq - e->start_seq);
}

/* Has ring record @e been delivered (ACK or ACK_ECN, taken or not)? */
static __always_inline int __spritz_fb_delivered(const struct spritz_inflight *e)
{
	return e->state == SPRITZ_IF_ACKED || e->state == SPRITZ_IF_DONE + SPRITZ_FB_ACK ||
	       e->state == SPRITZ_IF_DONE + SPRITZ_FB_ACK_ECN;
}

/*
 * Does ACK @a, whose cumulative ACK covers suspect @s, echo a timestamp
 * older than TCP's first repair of @s (Eifel detection, RFC 3522, as
 * Linux's tcp_packet_delayed())?  The receiver echoes the TSval of the
 * segment that moved its in-order point (not of one it SACKs), and a
 * repair filling the hole at @s would have set it at least to the
 * repair's: the peer acknowledged an earlier copy, so TCP's repair was
 * spurious (a stall of the sender, a long path) and the path delivered.
 * Timestamps tick in milliseconds (microseconds with tcp_usec_ts): a
 * repair sent in the tick of the first copy, as RACK's often are, is
 * never found spurious this way.  A TSecr of 0 echoes nothing (as Linux
 * reads it).
 */
static __always_inline int __spritz_fb_eifel(const struct spritz_fb_flow *fb,
					     const struct spritz_inflight *s,
					     const struct spritz_fb_ackinfo *a)
{
	return (s->flags & SPRITZ_IF_F_TSVAL) && a->ts && a->tsecr &&
	       !spritz_seq_before(a->ack, s->end_seq) &&
	       spritz_seq_before(a->tsecr, fb->repair_tsval);
}

/*
 * ACK @a covers the suspect's sequence.  If TCP did not send it again, or
 * the ACK echoes a timestamp older than the repair (__spritz_fb_eifel()),
 * it was late, not lost, and its path is alive.  If TCP sent it again on
 * another path within the timeout of the suspect, and not a third time
 * (Karn: the ACK may be a later copy's, sent after a silent peer came
 * back), that repair was delivered: the peer answered and its switch was
 * reachable (evidence that survives the ring records of the flow's other
 * sends being overwritten).
 */
static __always_inline void __spritz_fb_late(struct spritz_fb_flow *fb,
					     const struct spritz_fb_ackinfo *a)
{
	struct spritz_inflight *s = &fb->suspect;

	if (s->state != SPRITZ_IF_LOST)
		return;
	if (__spritz_fb_covered(a, s->start_seq, s->end_seq) != SPRITZ_FB_COVER_WHOLE)
		return;
	if (!(s->flags & SPRITZ_IF_F_RESENT) || __spritz_fb_eifel(fb, s, a))
		s->flags |= SPRITZ_IF_F_ALIVE;
	else if ((s->flags & (SPRITZ_IF_F_MOVED | SPRITZ_IF_F_KARN)) == SPRITZ_IF_F_MOVED &&
		 fb->repair_ns >= s->sent_ns && fb->repair_ns - s->sent_ns < a->timeout_ns)
		s->flags |= SPRITZ_IF_F_REACH;
}

/*
 * Could a DSACK still show TCP's repair of suspect @s spurious?  It would
 * answer the repair about a round trip after the repair left; the
 * flow's paths differ in length, so two smoothed RTTs (the timeout
 * without an RTT).  A repair on the suspect's own EV has no time kept:
 * the timeout.
 */
static __always_inline int __spritz_fb_repair_open(const struct spritz_fb_flow *fb,
						   const struct spritz_inflight *s, __u64 now,
						   __u64 timeout_ns)
{
	__u64 wait = fb->srtt_us ? (__u64)fb->srtt_us * 2000 : timeout_ns;

	if (!(s->flags & SPRITZ_IF_F_RESENT))
		return 0;
	if (!(s->flags & SPRITZ_IF_F_MOVED) || now < fb->repair_ns)
		return 1;
	return now - fb->repair_ns < wait;
}

/* The suspect is judged (no TIMEOUT): its slot freed, ACKs no longer scanned for it. */
static __always_inline void __spritz_fb_drop(struct spritz_fb_flow *fb)
{
	fb->suspect.state = SPRITZ_IF_FREE;
	fb->flags &= ~SPRITZ_FB_F_SUSPECT;
}

/*
 * The suspect, judged without evidence, is dropped and its EV verified:
 * the peer answers again (a send of the flow sent past the timeout was
 * delivered), so the flow's next new data goes to the suspect's EV
 * (spritz_fb_verify()), within SPRITZ_FB_STRIKE_WAIT timeouts from @now.
 * Lost there while the flow's sends around it are delivered, it is that
 * path's second loss with evidence that the peer answered (a TIMEOUT);
 * delivered, the path is alive.
 */
static __always_inline void __spritz_fb_verify_arm(struct spritz_fb_flow *fb,
						   struct spritz_stats *st, __u64 now,
						   __u64 timeout_ns)
{
	struct spritz_inflight *s = &fb->suspect;

	st->fb_verify++;
	fb->verify_ev = s->ev;
	fb->verify_lat = s->lat_class;
	fb->verify_until = now + SPRITZ_FB_STRIKE_WAIT * timeout_ns;
	fb->flags |= SPRITZ_FB_F_VERIFY;
	__spritz_fb_drop(fb);
}

/*
 * The dead-path rule for the suspect (a lost send: retransmitted, in a
 * SACK hole TCP counts lost, or unacknowledged for @timeout_ns), at @now:
 *
 *  - a send of the flow on the same EV, sent after it, was delivered, or
 *    the suspect itself was acknowledged before TCP sent it again (late,
 *    not lost), or by an ACK echoing a timestamp older than the repair
 *    (__spritz_fb_eifel()), or a DSACK reports its first copy (TCP's
 *    repair was spurious): the path is alive: no TIMEOUT, the suspect is
 *    dropped (fb_path_alive);
 *  - else, once it is @timeout_ns old (or at once, when nothing is in
 *    flight any more and this evidence is in) and no DSACK can still
 *    report TCP's repair of it spurious (__spritz_fb_repair_open(); past
 *    the timeout, only a repair on another EV is waited for: the first
 *    ACKs after a stall of the sender are older than the repairs the
 *    stall made TCP send), if a send of the flow on
 *    another EV, sent after it and less than @timeout_ns after it, or
 *    TCP's repair of it sent on another EV within @timeout_ns, was
 *    delivered (the peer answered, its switch was reachable): if another
 *    send of the flow on the suspect's EV was lost too, the path alone
 *    is silent (or the suspect was a GSO send lost whole: two packets
 *    or more): TIMEOUT (the path is disabled), unless a send on that EV
 *    came back ECN-marked less than @timeout_ns before the suspect was
 *    sent (__spritz_fb_marked(): a full queue drops in bursts; a dead
 *    path marks nothing):
 *    then the suspect is dropped (fb_congested); if not (one loss: a
 *    queue's or a receiver's drop as likely as a dead path), the suspect
 *    waits for a second loss or a
 *    delivery on its path (the flow's samples are uniform meanwhile,
 *    spritz_fb_probe()) for SPRITZ_FB_STRIKE_WAIT timeouts and
 *    SPRITZ_RING_SIZE sends, then it was an isolated loss: dropped
 *    (fb_isolated);
 *  - else no evidence (the peer may be silent): nothing; the suspect
 *    waits for evidence (fb_no_reach, counted once), and is dropped once
 *    nothing is in flight; once a send of the flow sent past the timeout
 *    is delivered (the peer answers again), its EV is verified by the
 *    flow's next new data (__spritz_fb_verify_arm(), fb_verify).
 *
 * Returns the outcomes to take (0 or 1).
 */
SPRITZ_FB_SUBPROG __u32 __spritz_fb_judge(struct spritz_fb_flow *fb, struct spritz_stats *st,
					  __u64 now, __u64 timeout_ns)
{
	struct spritz_inflight *s;
	__u32 i;
	int open;

	if (!fb || !st)
		return 0;
	s = &fb->suspect;
	if (s->state != SPRITZ_IF_LOST) {
		fb->flags &= ~SPRITZ_FB_F_SUSPECT;
		return 0;
	}
	if (s->flags & SPRITZ_IF_F_SEED) {
		/* the sends delivered before it became the suspect */
		s->flags &= ~SPRITZ_IF_F_SEED;
		for (i = 0; i < SPRITZ_RING_SIZE; i++)
			if (__spritz_fb_delivered(&fb->ring[i]))
				__spritz_fb_evidence(fb, &fb->ring[i], timeout_ns);
	}
	if (s->flags & SPRITZ_IF_F_ALIVE) {
		st->fb_path_alive++;
		__spritz_fb_drop(fb);
		return 0;
	}
	/* judged once it is a timeout old, or now if nothing is in flight any
	 * more (no later ACK would come to judge it) and the evidence is in;
	 * either way not while the ACK may be the late first copy's with the
	 * DSACK of a repair just sent on another path still to come: after a
	 * stall of the sender, its first ACKs are older than TCP's repairs */
	open = __spritz_fb_repair_open(fb, s, now, timeout_ns);
	if (now >= s->sent_ns && now - s->sent_ns >= timeout_ns) {
		if (open && (s->flags & SPRITZ_IF_F_MOVED))
			return 0;
	} else if (fb->snd_una != fb->snd_nxt || !(s->flags & SPRITZ_IF_F_REACH) || open) {
		return 0;
	}
	if (s->flags & SPRITZ_IF_F_REACH) {
		if (!(s->flags & SPRITZ_IF_F_AGAIN)) {
			if (now - s->sent_ns < SPRITZ_FB_STRIKE_WAIT * timeout_ns ||
			    fb->ring_head - fb->suspect_head < SPRITZ_RING_SIZE)
				return 0;
			st->fb_isolated++;
			__spritz_fb_drop(fb);
			return 0;
		}
		if (__spritz_fb_marked(fb, s, timeout_ns)) {
			/* a full queue drops bursts: congestion, not a dead path */
			st->fb_congested++;
			__spritz_fb_drop(fb);
			return 0;
		}
		fb->flags &= ~SPRITZ_FB_F_SUSPECT;
		return __spritz_fb_emit(s, SPRITZ_FB_TIMEOUT);
	}
	if (!(s->flags & SPRITZ_IF_F_WAITED)) {
		s->flags |= SPRITZ_IF_F_WAITED;
		st->fb_no_reach++;
	}
	/* the peer answers again: what the path does now, a send will tell */
	if (s->flags & SPRITZ_IF_F_LATER) {
		__spritz_fb_verify_arm(fb, st, now, timeout_ns);
		return 0;
	}
	/* nothing in flight: no evidence can come any more */
	if (fb->snd_una == fb->snd_nxt)
		__spritz_fb_drop(fb);
	return 0;
}

/*
 * Pending ring record @i of @fb at ACK @a (SACK blocks validated, its
 * now and timeout_ns set): ACK or ACK_ECN if @a covers it, NACK if it is lost (a SACK hole
 * TCP counts lost, or unacknowledged for the timeout).  Returns the
 * outcomes to take (0 or 1).
 */
SPRITZ_FB_SUBPROG __u32 __spritz_fb_ack_one(struct spritz_fb_flow *fb, struct spritz_stats *st,
					    const struct spritz_fb_ackinfo *a, __u32 i)
{
	struct spritz_inflight *e;
	__u64 now, timeout_ns;
	int cover;

	if (!fb || !st || !a)
		return 0;
	now = a->now;
	timeout_ns = a->timeout_ns;
	e = &fb->ring[i & SPRITZ_RING_MASK];
	if (e->state != SPRITZ_IF_PENDING)
		return 0;
	cover = __spritz_fb_covered(a, e->start_seq, e->end_seq);
	if (cover == SPRITZ_FB_COVER_WHOLE) {
		if (a->ece)
			__spritz_fb_mark(fb, e);
		__spritz_fb_evidence(fb, e, timeout_ns);
		__spritz_fb_fate(fb, e, 0);
		return __spritz_fb_emit(e, a->ece ? SPRITZ_FB_ACK_ECN : SPRITZ_FB_ACK);
	}
	if (e->segs > 1 && cover == SPRITZ_FB_COVER_PART)
		e->flags |= SPRITZ_IF_F_PART;
	/* a repair is no SACK hole for the blocks of sends made before it:
	 * TCP (RACK, or its RTO without) finds it lost by what was sent
	 * after it, and sends it again (spritz_fb_retrans()) */
	if (a->nsack && !(e->flags & SPRITZ_IF_F_REPAIR) && __spritz_fb_sack_lost(fb, a, e))
		st->fb_sack_lost++;
	else if (now < e->sent_ns || now - e->sent_ns < timeout_ns)
		return 0;
	/* lost: a SACK hole, or unacknowledged for the timeout */
	__spritz_fb_suspect(fb, e);
	return __spritz_fb_emit(e, SPRITZ_FB_NACK);
}

/* Is the first SACK block of @a a DSACK (RFC 2883, section 4)? */
static __always_inline int __spritz_fb_dsack(const struct spritz_fb_ackinfo *a)
{
	__u32 l = a->sack[0], r = a->sack[1];

	if (!spritz_seq_before(l, r))
		return 0;
	if (!spritz_seq_before(a->ack, r))
		return 1;
	return a->nsack > 1 && !spritz_seq_before(l, a->sack[2]) && !spritz_seq_before(a->sack[3], r);
}

/*
 * The ACK @a (passed by spritz_fb_ack_check()) arrives at @now, for a
 * flow whose timeout is @timeout_ns (spritz_fb_timeout_ns()): a DSACK of
 * the suspect's first copy marks it alive (an old ACK: nothing else), SACK blocks
 * outside [snd_una, snd_nxt] or empty are dropped from @a (counted), then
 * every pending send it covers, cumulatively or by a kept SACK block, is
 * ACK (ACK_ECN with ECE); a pending send it leaves in a SACK hole TCP
 * counts lost, or leaves unacknowledged for @timeout_ns, is NACK and may
 * become the suspect; then the suspect goes through the dead-path rule
 * (__spritz_fb_judge()).
 * snd_una moves to the ACK.  Returns the number of outcomes to take.
 */
static __always_inline __u32 spritz_fb_ack(struct spritz_fb_flow *fb, struct spritz_stats *st,
					   __u64 now, __u64 timeout_ns,
					   struct spritz_fb_ackinfo *a)
{
	__u32 una = fb->snd_una, n = 0, keep = 0, b, i, l, r;

	/* RFC 2883: a first block at or below the cumulative ACK, or inside
	 * the second block, reports a segment that arrived twice; if it is the
	 * suspect's, TCP's repair (RACK, a tail loss probe) was spurious: the
	 * suspect was late, not lost */
	if (a->nsack && (fb->flags & SPRITZ_FB_F_SUSPECT) && fb->suspect.state == SPRITZ_IF_LOST &&
	    __spritz_fb_dsack(a) &&
	    spritz_seq_overlap(fb->suspect.start_seq, fb->suspect.end_seq, a->sack[0], a->sack[1]))
		fb->suspect.flags |= SPRITZ_IF_F_ALIVE;
	/* an old ACK (spritz_fb_ack_check()) is read for that DSACK alone */
	if (spritz_seq_before(a->ack, una))
		return (fb->suspect.flags & SPRITZ_IF_F_ALIVE) ?
			       __spritz_fb_judge(fb, st, now, timeout_ns) : 0;
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
	/* once per ACK, not per pending send (__spritz_fb_sacked_above()) */
	a->inside = 0;
	for (b = 0; b < SPRITZ_SACK_MAX; b++) {
		if (b >= keep)
			break;
		if (__spritz_fb_sack_inside(a, b, a->sack[2 * b], a->sack[2 * b + 1]))
			a->inside |= 1U << b;
	}
	a->now = now;
	a->timeout_ns = timeout_ns;
	if (spritz_seq_before(una, a->ack))
		fb->snd_una = a->ack;

	for (i = 0; i < SPRITZ_RING_SIZE; i++)
		if (fb->ring[i].state == SPRITZ_IF_PENDING)
			n += __spritz_fb_ack_one(fb, st, a, i);
	/* most ACKs: no suspect, no judgement */
	if (!(fb->flags & SPRITZ_FB_F_SUSPECT))
		return n;
	__spritz_fb_late(fb, a);
	return n + __spritz_fb_judge(fb, st, now, timeout_ns);
}

/*
 * Should the flow's next sample be a probe: uniform, without the
 * small-flow or minimal-path bias?  While a suspect waits for evidence,
 * a flow that sends only on its suspect's path (a small flow biased to
 * the minimal path, Scout's one buffered path) would never see a
 * delivery on another path; uniform samples give its repairs and TLP
 * probes a chance of another path within the timeout.
 */
static __always_inline int spritz_fb_probe(const struct spritz_fb_flow *fb)
{
	return !!(fb->flags & SPRITZ_FB_F_SUSPECT);
}

/*
 * The EVs flow @fb's samples avoid (bpf_spritz_pick()'s @avoid): the
 * paths of its latest lost sends, up to SPRITZ_AVOID_MAX (the oldest
 * leaves), each until a send on it is delivered (__spritz_fb_fate()).
 * The pick avoids them exactly while another enabled path exists, in the
 * datapath's spritz_decide() and the simulator's hosts alike.  The flow's
 * own choice only, so it needs no evidence (the dead-path rule's disable
 * needs it: it applies to every flow).  Without it, a small flow biased
 * to a dead minimal path, or a repair sampled while every other send of
 * the flow is lost too, goes back to a dead path at each of TCP's
 * backed-off RTOs (seconds); with only the latest lost EV avoided, the
 * repairs of a flow alternate between two dead paths; and with the set
 * emptied by any delivery, a repair made after the flow's live paths
 * delivered goes back to the dead ones.  One exception, for new data
 * only (not @repair, a send of sequence sent before): the path of the
 * suspect the dead-path rule is judging stays sampled, because the rule
 * needs a second loss there (or a delivery, which clears it) to disable
 * it for every flow of the host, and a new send lost there costs a SACK
 * repair where a lost repair costs an RTO.  Scout and Spray only: the
 * baselines (ECMP, OPS, Flicr) do not adapt so (@lb).
 */
static __always_inline __u64 spritz_fb_avoid(const struct spritz_fb_flow *fb,
					     const struct spritz_lb_flow *lb, int repair)
{
	if (!__spritz_lb_is_spritz(lb->algo))
		return 0;
	if (repair || !(fb->flags & SPRITZ_FB_F_SUSPECT))
		return fb->avoid;
	return spritz_avoid_del(fb->avoid, fb->suspect.ev);
}

/*
 * The EV and class (SPRITZ_PICK()) of flow @fb's send of new data at @now
 * if it is to verify the EV of a suspect judged without evidence
 * (__spritz_fb_verify_arm()), else -1.  Once, before verify_until (a
 * later send says nothing of that loss); Scout and Spray only (@lb), as
 * spritz_fb_avoid().  New data only: a repair lost there would cost TCP
 * an RTO, new data a SACK repair.  The send takes no decision of the
 * algorithm core: it is the dead-path rule's probe, and its record
 * (spritz_fb_record()) is marked so that its loss is its EV's second.
 */
static __always_inline int spritz_fb_verify(struct spritz_fb_flow *fb,
					    const struct spritz_lb_flow *lb, __u64 now)
{
	if (!(fb->flags & SPRITZ_FB_F_VERIFY))
		return -1;
	fb->flags &= ~SPRITZ_FB_F_VERIFY;
	if (!__spritz_lb_is_spritz(lb->algo) || now >= fb->verify_until)
		return -1;
	fb->flags |= SPRITZ_FB_F_VERIFY_SENT;
	return (int)SPRITZ_PICK(fb->verify_ev, fb->verify_lat);
}

/*
 * The flags of a sample for flow @fb, from the core's verdict flags
 * @vflags (SPRITZ_PICK_UNIFORM, SPRITZ_PICK_MIN_BIAS).  Uniform while a
 * suspect waits for evidence (spritz_fb_probe()), and for a SYN sent
 * again (@syn_again): handshakes give no feedback, so a SYN lost on a dead
 * path would otherwise go again where the small-flow bias sent it, at
 * TCP's SYN back-off (1 s, 3 s, ...).  Else the small-flow bias while the
 * flow's size as far as the sender knows it - the @sent bytes, plus what
 * its socket held unsent at the last data send (fb->unsent) - is below
 * @small_bytes.  The paper's artifact biases flows by their size, which a
 * TCP sender never learns; an application's queued bytes are a lower
 * bound of it, and without them every large flow would send its first
 * @small_bytes to the minimal path as if it were a small one.
 */
static __always_inline __u32 spritz_fb_pick_flags(const struct spritz_fb_flow *fb, __u32 vflags,
						  int syn_again, __u64 sent, __u32 small_bytes)
{
	__u32 flags = vflags & (SPRITZ_PICK_UNIFORM | SPRITZ_PICK_MIN_BIAS);

	if (syn_again || spritz_fb_probe(fb))
		return SPRITZ_PICK_UNIFORM;
	if (!(flags & SPRITZ_PICK_UNIFORM) && sent + fb->unsent < small_bytes)
		flags |= SPRITZ_PICK_SMALL_FLOW;
	return flags;
}

/* spritz_fb_decide()'s @how */
#define SPRITZ_DECIDE_SYN_AGAIN 1 /* a SYN the flow sent before (spritz_fb_pick_flags()) */
#define SPRITZ_DECIDE_REPAIR 2	  /* a send of sequence sent before (spritz_fb_avoid()) */
#define SPRITZ_DECIDE_NEW_DATA 4  /* a data send of new sequence (spritz_fb_verify()) */

/*
 * The path of one send of @segs packets of flow @fb / @lb at @now, as far
 * as the cores decide it (the datapath's spritz_decide(), the simulator's
 * hosts): a verify send (spritz_fb_verify()), else the algorithm core's
 * verdict (spritz_lb_send()).  A buffered EV (Scout's cache, Spray's
 * recycled EVs) the flow avoids (spritz_fb_avoid(): it lost a send there
 * and none delivered since) is not used: the flow samples instead, as its
 * samples avoid it, so that no send, and no repair at all, goes back to
 * the path of its latest losses by way of the buffer (Spray keeps the EVs
 * of its ACKs whatever their path lost since).  Returns SPRITZ_PICK(ev,
 * class) to send on, or -1: the caller draws a path with *@flags and
 * *@avoid and reports it with spritz_lb_sent().  @how: SPRITZ_DECIDE_*;
 * @sent: the flow's bytes sent; @small_bytes: the small-flow bound.
 */
static __always_inline int spritz_fb_decide(struct spritz_fb_flow *fb, struct spritz_lb_flow *lb,
					    const struct spritz_lb_cfg *cfg,
					    struct spritz_stats *st, __u64 now, __u32 segs,
					    __u32 how, __u64 sent, __u32 small_bytes,
					    __u32 *flags, __u64 *avoid)
{
	struct spritz_lb_verdict v;
	int r;

	if (how & SPRITZ_DECIDE_NEW_DATA) {
		r = spritz_fb_verify(fb, lb, now);
		if (r >= 0) {
			st->dec_verify++;
			return r;
		}
	}
	*avoid = spritz_fb_avoid(fb, lb, !!(how & SPRITZ_DECIDE_REPAIR));
	if (spritz_lb_send(lb, cfg, now, segs, &v) == SPRITZ_LB_USE_EV) {
		if (!spritz_avoid_has(*avoid, v.ev)) {
			st->dec_use_ev++;
			return (int)SPRITZ_PICK(v.ev, v.lat_class);
		}
		st->dec_use_avoided++;
		__spritz_lb_sample(lb, cfg, &v, SPRITZ_LB_WHY_AVOIDED);
	}
	st->dec_sample++;
	*flags = spritz_fb_pick_flags(fb, v.flags, !!(how & SPRITZ_DECIDE_SYN_AGAIN), sent,
				      small_bytes);
	if (*flags & SPRITZ_PICK_SMALL_FLOW)
		st->pick_small_flow++;
	if (*flags & SPRITZ_PICK_MIN_BIAS)
		st->pick_min_bias++;
	if (*avoid)
		st->pick_avoid++;
	return -1;
}

/*
 * Feed outcome @e into algorithm state @lb, for each of the send's
 * packets (spritz_lb_feedback_n()), and count it once; returns the
 * actions (SPRITZ_LB_ACT_*) for the caller.
 */
static __always_inline __u32 spritz_fb_apply(struct spritz_lb_flow *lb,
					     const struct spritz_lb_cfg *cfg,
					     struct spritz_stats *st,
					     const struct spritz_fb_event *e)
{
	__u32 kind = e->kind;
	__u8 len = lb->len;
	__u32 act;

	if (kind >= SPRITZ_FB_NR)
		return 0;
	act = spritz_lb_feedback_n(lb, cfg, kind, e->ev, e->lat_class, e->segs);
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

/* Bounds on the host-wide disables of spritz_fb_disable_ok(). */
struct spritz_fb_bounds {
	__u32 flow;	  /* knob flow_disables: per flow (0: no bound) */
	__u32 peer;	  /* knob peer_disables: per peer address (0: no bound) */
	__u64 window_ns;  /* knob disable_ms: the window each count runs for */
};

/* Room for one more in a budget of @max disables, @n of them since @since? */
static __always_inline int __spritz_fb_room(__u8 n, __u64 since, __u64 now, __u32 max,
					    __u64 window_ns)
{
	return !max || !n || now - since >= window_ns || n < max;
}

/* Count one disable in a budget of @max (__spritz_fb_room() said yes). */
static __always_inline void __spritz_fb_spend(__u8 *n, __u64 *since, __u64 now, __u32 max,
					      __u64 window_ns)
{
	if (!max)
		return;
	if (!*n || now - *since >= window_ns) {
		*since = now;
		*n = 1;
	} else {
		(*n)++; /* < max <= 255 (knobs.h) */
	}
}

/*
 * May a TIMEOUT of flow @f to peer @p, at @now, disable its path for every
 * flow of the host?  Its evidence is the word of one peer, which a
 * malicious receiver can shape (ACK the sends on every path but one): so
 * one flow disables at most b->flow paths, and all flows to one peer
 * address together at most b->peer, each count within b->window_ns of
 * its first disable (knobs flow_disables, peer_disables, disable_ms).  A
 * TIMEOUT beyond either stays the flow's own - its samples avoid the EV
 * (spritz_fb_avoid()) - and is counted (path_disable_withheld, or
 * path_disable_peer_withheld).  A bound of 0 bounds nothing (the paper);
 * @p NULL: the peer is not counted (no entry could be made for it).
 */
static __always_inline int spritz_fb_disable_ok(struct spritz_flow *f, struct spritz_peer *p,
						struct spritz_stats *st, __u64 now,
						const struct spritz_fb_bounds *b)
{
	if (!__spritz_fb_room(f->disables, f->disables_ns, now, b->flow, b->window_ns)) {
		st->path_disable_withheld++;
		return 0;
	}
	if (p && !__spritz_fb_room(p->disables, p->disables_ns, now, b->peer, b->window_ns)) {
		st->path_disable_peer_withheld++;
		return 0;
	}
	__spritz_fb_spend(&f->disables, &f->disables_ns, now, b->flow, b->window_ns);
	if (p)
		__spritz_fb_spend(&p->disables, &p->disables_ns, now, b->peer, b->window_ns);
	return 1;
}

/*
 * Count the answer @r of spritz.ko's bpf_spritz_path_timeout() (or the
 * simulator's tables) to a disable spritz_fb_disable_ok() allowed: 0
 * disabled or restarted (path_disables), SPRITZ_TIMEOUT_KEPT kept enabled
 * by the destination's floor (path_disable_kept), negative failed
 * (path_disable_fail).  The budgets stay charged either way: an attempt
 * the floor refused concerns a destination that can lose no path anyway.
 */
static __always_inline void spritz_fb_disable_count(struct spritz_stats *st, int r)
{
	if (r == 0)
		st->path_disables++;
	else if (r == SPRITZ_TIMEOUT_KEPT)
		st->path_disable_kept++;
	else
		st->path_disable_fail++;
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
