// SPDX-License-Identifier: GPL-2.0-only
/*
 * spritz-sim: one scheme, one flow list, one fabric, on ns-3
 * (Documentation/sim.rst).
 *
 *	spritz-sim --topo TOPO --flows FILE --scheme NAME [--out FILE]
 *	           [--fail-links FRACTION] [--seed N] [--deadline-us US]
 *	           [--queue-pkts N] [--rto-us US] [--dupthresh N]
 *	           [--rate-gbps G] [--stop-tag TAG] [--ecmp-tag TAG]
 *	           [--minimal-tag TAG] [--hash-seed N] [--rng-seed N]
 *	           [--connect-us US] [--max-cwnd PKTS] [--progress]
 *	           [--trace-flow N] [--no-disable] [--flow-disables N]
 *	           [--peer-disables N] [--min-enabled-pct N] [--walk]
 *
 * --seed chooses the failed links and, unless --rng-seed is given, seeds
 * the simulator's random source (path picks, Valiant, failures).
 * --stop-tag ends the run once every flow with that tag finished (the
 * motivational scenario's monitored flow).  --ecmp-tag leaves the flows
 * with that tag to the switches' ECMP whatever the scheme (the paper's
 * collectives run beside an ECMP background): their hosts do not steer
 * them, and every switch routes their segments as in the scheme ecmp.
 * --minimal-tag does the same with the switches' minimal routes.
 * --hash-seed N draws the switches' ECMP hash anew (libspritz's seed plus
 * N; default 0): another draw of every flow's ECMP path.
 * --no-disable: the hosts judge TIMEOUTs as always (fb_timeout, Scout's
 * eviction) but disable no path, to measure what disabling costs or saves.
 * --flow-disables N: the knob flow_disables (spritz.ko's default 4; 0: no
 * bound): paths one flow's TIMEOUTs disable for every flow.
 * --peer-disables N: the knob peer_disables (default 8; 0: no bound): the
 * same for all flows of a host to one peer host.
 * --min-enabled-pct N: the knob min_enabled_pct (default 50; 0: only the
 * last path of a destination is kept): the share of a destination's paths
 * that TIMEOUTs never disable.
 *
 * The fabric is libspritz's (TOPO as spritzctl takes it): one ns-3 node per
 * switch and per host, point-to-point links at Table II's speed and cable
 * latencies, the switch latency folded into the links out of a switch, a
 * queue of one BDP marking ECN between 0.2 and 0.8 of it on every switch
 * port (port_verdict()).
 *
 * A switch is a node without an IP stack: switch_rx(), its handler of
 * IPv4 packets, fills struct spritz_sw_pkt, calls spritz_sw_decide()
 * (include/spritz/switch_core.h) as bpf/spritz_switch.bpf.c does, and
 * hands the packet to the output port's queue; the EV rides in a packet
 * tag (the flow label of the deployment).  Hosts run
 * ns-3's TCP (DCTCP, ECN, SACK, an ACK per segment); HostRouting's
 * RouteOutput() sees every segment TCP sends and does what the tc egress
 * program does (lb.h, feedback.h, a pick from the sampler of sampler.h),
 * its RouteInput() sees every ACK and does what the tc ingress program does.
 *
 * --walk: no traffic; follow every (source, destination, EV) of every
 * source switch through the switch model and check that the switches
 * visited are exactly those libspritz lists (spritz_ev_route()).
 *
 * Output (--out, else stdout): flowgen run's JSON (lab/flowgen.c) plus the
 * simulator's counters.
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <sys/resource.h>
#include <time.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include "model.h"

using namespace ns3;
using namespace spritz_sim;

/*
 * DCTCP whose window never grows past a cap: the paper's transport has an
 * initial and maximum window of 1.5 BDP (§VI-A); ns-3's has no maximum.
 */
class TcpDctcpCapped : public TcpDctcp {
public:
	static uint32_t cap_bytes; /* 0: no cap */
	static TypeId GetTypeId()
	{
		static TypeId tid = TypeId("spritz::TcpDctcpCapped")
					    .SetParent<TcpDctcp>()
					    .AddConstructor<TcpDctcpCapped>();
		return tid;
	}
	TcpDctcpCapped() = default;
	TcpDctcpCapped(const TcpDctcpCapped &o) = default;
	std::string GetName() const override { return "TcpDctcpCapped"; }
	void IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked) override
	{
		TcpDctcp::IncreaseWindow(tcb, segmentsAcked);
		if (cap_bytes && tcb->m_cWnd > cap_bytes)
			tcb->m_cWnd = cap_bytes;
	}
	Ptr<TcpCongestionOps> Fork() override { return CopyObject<TcpDctcpCapped>(this); }
};

uint32_t TcpDctcpCapped::cap_bytes = 0;

namespace {

const uint16_t PORT_BASE = 1024; /* flow i listens on PORT_BASE + i */
const uint32_t MAX_FLOWS = 48000; /* below the ephemeral ports (49152) */
const uint32_t TCP_MSS = 4096;	 /* Table II: 4096 B payload */

[[noreturn]] void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("spritz-sim: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

double wall_now()
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------ packet tag */

/* The EV a host chose for a packet: the flow label of the deployment. */
class EvTag : public Tag {
public:
	uint16_t ev = 0;
	static TypeId GetTypeId()
	{
		static TypeId tid = TypeId("spritz::EvTag").SetParent<Tag>().AddConstructor<EvTag>();
		return tid;
	}
	TypeId GetInstanceTypeId() const override { return GetTypeId(); }
	uint32_t GetSerializedSize() const override { return 2; }
	void Serialize(TagBuffer b) const override { b.WriteU16(ev); }
	void Deserialize(TagBuffer b) override { ev = b.ReadU16(); }
	void Print(std::ostream &os) const override { os << "ev=" << ev; }
};

/* ------------------------------------------------------------- the world */

struct Flow {
	uint32_t id;
	long start_us;
	std::string src, dst, tag;
	uint64_t size;
	uint32_t ss, sk, ds, dk; /* switch, host index at the switch */
	uint32_t sh, dh;	 /* host numbers */
	/* results */
	int64_t t_start = -1, t_end = -1; /* ns, simulator time */
	bool connected = false, go = false; /* handshake done; start time reached */
	uint64_t rx = 0, sent = 0;
	uint32_t retrans = 0, ooo = 0;
	uint32_t rcv_next = 0;
	bool rcv_have = false;
	Ptr<Socket> tx;
	Ptr<Socket> listener; /* until its connection is accepted */
	/* host hook state: the tc programs' per-flow value (maps.h) */
	spritz_flow hf;
	bool hf_init = false;
	/* --ecmp-tag, --minimal-tag: the switches route it so, hosts do not steer */
	const spritz_sw_cfg *pin = nullptr;
};

struct TcpBits {
	uint16_t sport, dport;
	uint32_t seq, ack;
	uint8_t doff, flags;
	uint16_t win; /* the window field */
};

/* The first bytes of a TCP header, and its options if @opt. */
bool tcp_peek(Ptr<const Packet> p, TcpBits *b, uint8_t *opt = nullptr)
{
	uint8_t h[60];

	if (p->GetSize() < 20)
		return false;
	p->CopyData(h, opt ? (p->GetSize() < 60 ? p->GetSize() : 60) : 20);
	b->sport = (uint16_t)(h[0] << 8 | h[1]);
	b->dport = (uint16_t)(h[2] << 8 | h[3]);
	b->seq = (uint32_t)h[4] << 24 | h[5] << 16 | h[6] << 8 | h[7];
	b->ack = (uint32_t)h[8] << 24 | h[9] << 16 | h[10] << 8 | h[11];
	b->doff = h[12] >> 4;
	b->flags = h[13];
	b->win = (uint16_t)(h[14] << 8 | h[15]);
	if (opt)
		memcpy(opt, h, 60);
	return b->doff >= 5;
}

/*
 * Walk the options of TCP header @h (@olen bytes, 60 at most) as Linux's
 * tcp_parse_options() does: SACK blocks into @a, the window scale option's
 * shift into @wscale (-1: none), each if not NULL.
 */
void tcp_opts(const uint8_t *h, uint32_t olen, spritz_fb_ackinfo *a, int *wscale)
{
	uint32_t i = 20;

	if (wscale)
		*wscale = -1;
	while (i < olen && i < 60) {
		uint8_t kind = h[i], len;

		if (kind == 0)
			break;
		if (kind == 1) {
			i++;
			continue;
		}
		if (i + 1 >= olen)
			break;
		len = h[i + 1];
		if (len < 2 || i + len > olen)
			break;
		if (kind == 3 && len == 3 && wscale)
			*wscale = h[i + 2];
		if (kind == 5 && a) {
			for (uint32_t b = i + 2; b + 8 <= i + len && a->nsack < SPRITZ_SACK_MAX; b += 8) {
				a->sack[2 * a->nsack] = (uint32_t)h[b] << 24 | h[b + 1] << 16 |
							h[b + 2] << 8 | h[b + 3];
				a->sack[2 * a->nsack + 1] = (uint32_t)h[b + 4] << 24 |
							    h[b + 5] << 16 | h[b + 6] << 8 |
							    h[b + 7];
				a->nsack++;
			}
		}
		i += len;
	}
}

struct Sim;
Sim *g_sim;

struct SwPort {
	Ptr<NetDevice> dev;
	Ptr<Queue<Packet>> dq; /* the port's queue: its device's */
	uint8_t flags = 0;
	uint64_t marks = 0, drops = 0; /* ECN marks, queue drops */
};

struct Sim {
	spritz_topo *t = nullptr;
	Scheme scheme;
	spritz_sw_cfg cfg;
	spritz_sw_cfg cfg_ecmp; /* the switches' mode for --ecmp-tag flows */
	spritz_sw_cfg cfg_min;	/* and for --minimal-tag flows */
	std::vector<spritz_sw_info> info;
	std::vector<spritz_sw_route> routes; /* s * nsw + d */
	std::vector<std::vector<SwPort>> ports; /* [s][slot] */
	std::vector<std::vector<uint8_t>> slot_of_if; /* [s][ifindex] */
	std::vector<uint32_t> host_base;	/* first host number of each switch */
	std::vector<uint32_t> host_sw, host_k;
	std::vector<Ptr<Node>> host_nodes;
	std::vector<Ptr<Ipv4Route>> host_route;
	std::vector<Flow> flows;
	std::vector<std::pair<int, int>> failed; /* (switch, port) */
	Tables *tables = nullptr;
	spritz_lb_cfg lb;
	spritz_knob_values knobs;
	uint64_t timeout_ns = 100000;
	uint32_t dupthresh = 3; /* the hosts' TCP DupThresh (ReTxThreshold, fixed in ns-3) */
	spritz_stats st;
	Rng rng{1};
	Rng mark_rng{1};	/* the switch ports' marking draws */
	uint32_t queue_pkts = 88; /* a switch port's queue, packets (--queue-pkts) */
	uint32_t nfinished = 0;
	uint64_t deadline_us = 0;
	/* counters */
	uint64_t drops[SPRITZ_SW_DROP_MAX] = {};
	uint64_t sw_packets = 0, steered = 0, ugal_val = 0, ugal_min = 0;
	uint64_t data_sent = 0, acks_seen = 0;
	bool progress = false;
	std::string stop_tag;	/* stop once every flow with this tag finished */
	std::string ecmp_tag;	/* flows with this tag are routed by ECMP */
	std::string min_tag;	/* flows with this tag are routed minimally */
	uint32_t npinned = 0;	/* flows with either tag */
	uint32_t hash_seed = 0;	/* --hash-seed: the draw of the switches' ECMP hash */
	uint32_t nstop = 0;
	double t0 = 0, last_progress = 0;
	int64_t trace_flow = -1; /* --trace-flow: the flow whose sends and feedback go to stderr */
	bool no_disable = false; /* --no-disable: TIMEOUTs judged, no path disabled */
	uint64_t setup_ns = 20000; /* --connect-us: connections open this long before time 0 */
	spritz_fb_bounds disables;  /* the knobs of spritz_fb_disable_ok() */
	/* each host's spritz_peers: (host << 32 | peer host) -> its budget */
	std::unordered_map<uint64_t, spritz_peer> peers;
};

Ipv4Address host_addr(uint32_t s, uint32_t k)
{
	uint8_t a[4];

	spritz_lab_addr4(s, k, a);
	return Ipv4Address((uint32_t)a[0] << 24 | a[1] << 16 | a[2] << 8 | a[3]);
}

/* Switch and host index of a host address (the lab plan's), false if none. */
bool addr_host(Ipv4Address a, uint32_t *s, uint32_t *k)
{
	uint32_t v = a.Get();

	if ((v >> 24) != 10 || (v & 0xff) == 0)
		return false;
	*s = (v >> 8) & 0xffff;
	*k = (v & 0xff) - 1;
	return *s < (uint32_t)g_sim->t->nsw && *k < (uint32_t)g_sim->t->hosts[*s];
}

/* ------------------------------------------------------------ the switch */

/*
 * The switch configuration of TCP segment @tb's flow if it is pinned
 * (--ecmp-tag, --minimal-tag), else NULL.  Its data goes to, its ACKs
 * come from, the flow's port (the connecting side's ephemeral ports lie
 * above every flow's).
 */
const spritz_sw_cfg *pinned_cfg(const TcpBits &tb)
{
	const auto &fl = g_sim->flows;
	uint32_t d = (uint32_t)tb.dport - PORT_BASE, s = (uint32_t)tb.sport - PORT_BASE;

	if (tb.dport >= PORT_BASE && d < fl.size())
		return fl[d].pin;
	return tb.sport >= PORT_BASE && s < fl.size() ? fl[s].pin : nullptr;
}

/*
 * The packet's inputs to the switch core, as the BPF switch fills them,
 * and the configuration that decides it (@cfg: the scheme's, or that of
 * a pinned flow's packet: pinned_cfg()).
 */
void sw_fill(uint32_t me, uint32_t in_slot, const Ipv4Header &h, Ptr<const Packet> p,
	     spritz_sw_pkt *in, TcpBits *tb, const spritz_sw_cfg **cfg)
{
	Sim *S = g_sim;
	const spritz_sw_cfg *pin;
	uint32_t s, k;
	EvTag tag;

	memset(in, 0, sizeof(*in));
	in->in_slot = in_slot;
	in->dst_sw = SPRITZ_SW_NONE;
	in->dst_slot = SPRITZ_SW_SLOT_NONE;
	in->dst_group = SPRITZ_SW_NONE;
	in->route_port = SPRITZ_SW_SLOT_NONE;
	if (addr_host(h.GetDestination(), &s, &k)) {
		in->dst_sw = s;
		in->dst_slot = SPRITZ_SW_HOST_SLOT0 + k;
		in->dst_group = S->info[s].group;
		in->route_port = S->routes[(size_t)me * S->t->nsw + s].port;
	}
	in->ev = p->PeekPacketTag(tag) ? tag.ev : -1;
	in->hop = h.GetTtl();
	memset(tb, 0, sizeof(*tb));
	*cfg = &S->cfg;
	if (h.GetProtocol() == 6 && tcp_peek(p, tb) && S->npinned && (pin = pinned_cfg(*tb)))
		*cfg = pin;
	if ((*cfg)->mode == SPRITZ_SW_MODE_ECMP || (*cfg)->mode == SPRITZ_SW_MODE_UGAL_L) {
		uint8_t sa[16] = {}, da[16] = {};
		uint32_t v;

		/* ::ffff:a.b.c.d, as the BPF switch keys IPv4 */
		sa[10] = sa[11] = da[10] = da[11] = 0xff;
		v = htonl(h.GetSource().Get());
		memcpy(&sa[12], &v, 4);
		v = htonl(h.GetDestination().Get());
		memcpy(&da[12], &v, 4);
		in->flow_hash = spritz_sw_flow_hash(sa, da, tb->sport, tb->dport, h.GetProtocol(),
						    0, (*cfg)->seed);
		in->pkt_hash = spritz_sw_pkt_hash(in->flow_hash, tb->seq, tb->ack);
	}
	in->rnd = S->rng.next();
}

/* Backlog of a switch port now, bytes (the packet on the wire not counted). */
uint32_t port_backlog(uint32_t s, uint32_t slot)
{
	SwPort &pt = g_sim->ports[s][slot];

	return pt.dq ? pt.dq->GetNBytes() : 0;
}

/* Admit a packet to switch port @pt's queue (port_verdict()); false: dropped. */
bool port_admit(SwPort &pt, Ipv4Header &h)
{
	Sim *S = g_sim;

	switch (port_verdict(pt.dq->GetNPackets(), S->queue_pkts, S->mark_rng.next() * 0x1p-32,
			     h.GetEcn() != Ipv4Header::ECN_NotECT)) {
	case PORT_ENQUEUE:
		return true;
	case PORT_MARK:
		h.SetEcn(Ipv4Header::ECN_CE);
		pt.marks++;
		return true;
	default:
		pt.drops++;
		return false;
	}
}

uint32_t peer_of(uint32_t s, uint32_t slot)
{
	if (slot >= (uint32_t)spritz_topo_degree(g_sim->t, s))
		return SPRITZ_SW_NONE;
	return spritz_topo_port_nbr(g_sim->t, s, slot);
}

/* SPRITZ_SW_NEED_PREV (bpf fill_prev()). */
void sw_fill_prev(uint32_t me, spritz_sw_pkt *in)
{
	uint32_t prev = peer_of(me, in->in_slot);

	in->in_minimal = prev == SPRITZ_SW_NONE ||
			 peer_of(prev, g_sim->routes[(size_t)prev * g_sim->t->nsw + in->dst_sw].port) == me;
	in->have |= SPRITZ_SW_HAVE_PREV;
}

/* SPRITZ_SW_NEED_UGAL (bpf fill_ugal()), with the ports' real queues. */
void sw_fill_ugal(uint32_t me, const spritz_sw_cfg *cfg, spritz_sw_pkt *in, uint32_t p1)
{
	Sim *S = g_sim;
	uint32_t n1 = peer_of(me, p1), p2 = SPRITZ_SW_SLOT_NONE, last;

	in->have |= SPRITZ_SW_HAVE_UGAL;
	if (n1 != SPRITZ_SW_NONE)
		p2 = spritz_sw_ugal_hop2(cfg, &S->info[me], &S->info[n1], n1, p1, in);
	last = p2 == SPRITZ_SW_SLOT_NONE ? n1 : peer_of(n1, p2);
	if (last == SPRITZ_SW_NONE) {
		in->q_min = in->h_min = 0;
		in->q_val = in->h_val = 1;
		return;
	}
	in->h_min = S->routes[(size_t)me * S->t->nsw + in->dst_sw].hops;
	in->h_val = spritz_sw_ugal_hval(p2, S->routes[(size_t)last * S->t->nsw + in->dst_sw].hops);
	in->q_min = port_backlog(me, in->route_port);
	in->q_val = port_backlog(me, p1);
}

/* The switch model: one decision of the shared core; SLOT_NONE + *why on a drop. */
uint32_t sw_decide(uint32_t me, const spritz_sw_cfg *cfg, spritz_sw_pkt *in,
		   spritz_sw_decision *dec, uint32_t *why)
{
	Sim *S = g_sim;
	uint32_t ret = spritz_sw_decide(cfg, &S->info[me], me, in, dec);

	if (ret == SPRITZ_SW_V_NEED && (dec->need & SPRITZ_SW_NEED_PREV)) {
		sw_fill_prev(me, in);
		ret = spritz_sw_decide(cfg, &S->info[me], me, in, dec);
	}
	if (ret == SPRITZ_SW_V_NEED && (dec->need & SPRITZ_SW_NEED_UGAL)) {
		sw_fill_ugal(me, cfg, in, dec->val_port);
		ret = spritz_sw_decide(cfg, &S->info[me], me, in, dec);
	}
	if (ret != SPRITZ_SW_V_FORWARD) {
		*why = dec->drop ? dec->drop - 1 : (uint32_t)SPRITZ_SW_DROP_NO_PORT;
		return SPRITZ_SW_SLOT_NONE;
	}
	return dec->slot;
}

/*
 * A switch's receive handler: each IPv4 packet from one of its ports, as
 * the BPF switch at tc ingress sees it; forwards it through the output
 * port's queue (port_admit()) with the hop limit decremented, as
 * bpf_redirect() to the port, or drops it and counts why.
 */
void switch_rx(uint32_t sw, Ptr<NetDevice> idev, Ptr<const Packet> rx, uint16_t,
	       const Address &, const Address &, NetDevice::PacketType)
{
	Sim *S = g_sim;
	Ptr<Packet> p = rx->Copy();
	const spritz_sw_cfg *cfg;
	spritz_sw_decision dec;
	spritz_sw_pkt in;
	Ipv4Header h;
	TcpBits tb;
	uint32_t slot, why = 0;

	S->sw_packets++;
	p->RemoveHeader(h);
	sw_fill(sw, S->slot_of_if[sw][idev->GetIfIndex()], h, p, &in, &tb, &cfg);
	slot = sw_decide(sw, cfg, &in, &dec, &why);
	if (slot != SPRITZ_SW_SLOT_NONE) {
		SwPort &pt = S->ports[sw][slot];
		int pure_ack = h.GetProtocol() == 6 && h.GetPayloadSize() <= tb.doff * 4u;

		why = spritz_sw_port_check(pt.flags, pt.dev ? 1 : 0, pure_ack);
		if (!why) {
			S->steered += dec.steered;
			if (dec.role == SPRITZ_SW_ROLE_ECMP1 && cfg->mode == SPRITZ_SW_MODE_UGAL_L &&
			    dec.val_port != SPRITZ_SW_SLOT_NONE)
				(dec.minimal ? S->ugal_min : S->ugal_val)++;
			if (!port_admit(pt, h))
				return;
			h.SetTtl(h.GetTtl() - 1);
			p->AddHeader(h);
			pt.dev->Send(p, pt.dev->GetBroadcast(), Ipv4L3Protocol::PROT_NUMBER);
			return;
		}
		why--;
	}
	S->drops[why < SPRITZ_SW_DROP_MAX ? why : (uint32_t)SPRITZ_SW_DROP_NO_PORT]++;
}

/* -------------------------------------------------------------- the host */

class HostRouting : public Ipv4RoutingProtocol {
public:
	uint32_t host = 0;
	static TypeId GetTypeId()
	{
		static TypeId tid = TypeId("spritz::HostRouting").SetParent<Ipv4RoutingProtocol>();
		return tid;
	}
	Ptr<Ipv4Route> RouteOutput(Ptr<Packet> p, const Ipv4Header &h, Ptr<NetDevice>,
				   Socket::SocketErrno &err) override;
	bool RouteInput(Ptr<const Packet> p, const Ipv4Header &h, Ptr<const NetDevice> idev,
			UnicastForwardCallback, MulticastForwardCallback, LocalDeliverCallback lcb,
			ErrorCallback) override;
	void NotifyInterfaceUp(uint32_t) override {}
	void NotifyInterfaceDown(uint32_t) override {}
	void NotifyAddAddress(uint32_t, Ipv4InterfaceAddress) override {}
	void NotifyRemoveAddress(uint32_t, Ipv4InterfaceAddress) override {}
	void SetIpv4(Ptr<Ipv4>) override {}
	void PrintRoutingTable(Ptr<OutputStreamWrapper>, Time::Unit) const override {}
};

uint64_t now_ns()
{
	return (uint64_t)Simulator::Now().GetNanoSeconds();
}

/* The experiment's clock, in us: simulator time less the connection set-up. */
double exp_us()
{
	return ((double)now_ns() - (double)g_sim->setup_ns) / 1e3;
}

/* The flow a segment from host @host to @dst port @dport belongs to, or NULL. */
Flow *flow_of(uint32_t host, uint16_t port, bool sender)
{
	Sim *S = g_sim;
	uint32_t id = (uint32_t)port - PORT_BASE;

	if (port < PORT_BASE || id >= S->flows.size())
		return nullptr;
	Flow *f = &S->flows[id];
	return (sender ? f->sh : f->dh) == host ? f : nullptr;
}

/* One feedback outcome into the algorithm, its action performed (bpf spritz_fb_one()). */
void fb_one(Flow *f, const spritz_fb_event *e)
{
	Sim *S = g_sim;
	uint32_t act = spritz_fb_apply(&f->hf.lb, &S->lb, &S->st, e);

	if (f->id == S->trace_flow)
		fprintf(stderr, "trace %.3f fb kind %u ev %#06x class %u segs %u act %#x\n",
			exp_us(), e->kind, e->ev, e->lat_class, e->segs, act);
	/* --no-disable measures what disabling costs: the same run otherwise */
	if (!(act & SPRITZ_LB_ACT_DISABLE_PATH) || S->no_disable)
		return;
	spritz_peer *p = S->disables.peer ? &S->peers[(uint64_t)f->sh << 32 | f->dh] : nullptr;
	if (!spritz_fb_disable_ok(&f->hf, p, &S->st, now_ns(), &S->disables))
		return;
	spritz_fb_disable_count(&S->st, S->tables->timeout(f->sh, f->hf.src_switch,
							   f->hf.dst_switch, e->ev, now_ns()));
}

/* Deliver the outcomes left in the ring and the suspect (bpf spritz_fb_deliver()). */
void fb_deliver(Flow *f)
{
	spritz_fb_event e;

	for (uint32_t i = 0; i < SPRITZ_FB_SLOTS; i++)
		if (spritz_fb_take(&f->hf.fb, i, &e))
			fb_one(f, &e);
}

/* The EV of one send (bpf spritz_decide()): EV | class << 16, or -1. */
int host_decide(Flow *f, int syn_again, int repair, int new_data)
{
	Sim *S = g_sim;
	__u64 avoid = 0;
	__u32 flags = 0;
	int r;

	r = spritz_fb_decide(&f->hf.fb, &f->hf.lb, &S->lb, &S->st, now_ns(), 1,
			     (syn_again ? SPRITZ_DECIDE_SYN_AGAIN : 0) |
				     (repair ? SPRITZ_DECIDE_REPAIR : 0) |
				     (new_data ? SPRITZ_DECIDE_NEW_DATA : 0),
			     f->hf.bytes_sent, S->knobs.small_flow_bytes, &flags, &avoid);
	if (r >= 0)
		return r;
	/* not where the flow just lost sends (spritz_fb_avoid()) */
	r = S->tables->pick(f->sh, f->hf.src_switch, f->hf.dst_switch, flags, avoid, now_ns(),
			    S->rng);
	if (r < 0) {
		S->st.pick_fail++;
		return -1;
	}
	S->st.picks++;
	spritz_lb_sent(&f->hf.lb, &S->lb, SPRITZ_PICK_EV(r), SPRITZ_PICK_LAT_CLASS(r));
	return r & 0xffffff;
}

/*
 * The bytes the flow's socket holds beyond sequence @end, which TCP has not
 * sent (tc egress: tp->write_seq - end, spritz_sock_state()).
 */
uint32_t sock_unsent(Flow *f, uint32_t end)
{
	Ptr<TcpSocketBase> tsb = f->tx ? DynamicCast<TcpSocketBase>(f->tx) : nullptr;
	int32_t d;

	if (!tsb)
		return 0;
	d = tsb->GetTxBuffer()->TailSequence() - SequenceNumber32(end);
	return d > 0 ? (uint32_t)d : 0;
}

/* What the tc egress program does with one TCP segment (spritz_egress_tcp6()). */
void host_egress(Flow *f, Ptr<Packet> p, const TcpBits &tb, uint32_t paylen)
{
	Sim *S = g_sim;
	int kind = spritz_fb_seg_kind(tb.flags, paylen);
	uint32_t end = tb.seq + spritz_tcp_seqlen(tb.flags, paylen);
	EvTag tag;
	int r, repair;

	if (!f->hf_init) {
		memset(&f->hf, 0, sizeof(f->hf));
		spritz_lb_flow_init(&f->hf.lb, &S->lb);
		f->hf.src_switch = f->ss;
		f->hf.dst_switch = f->ds;
		f->hf_init = true;
	}
	S->st.eg_managed_tcp++;
	f->hf.packets++;
	/* not data: a FIN moves snd_nxt, a SYN or SYN-ACK starts a connection */
	int wscale = -1;

	if (tb.flags & SPRITZ_TCP_SYN) {
		uint8_t h[60];
		TcpBits sb;

		if (tcp_peek(p, &sb, h))
			tcp_opts(h, sb.doff * 4u, nullptr, &wscale);
	}
	int syn_again = kind != SPRITZ_SEG_DATA &&
			spritz_fb_flow_ctl_sent(&f->hf, kind, tb.flags, tb.seq, end, wscale);

	/* ns-3's sockets do not show their receive window: the header's, as if forwarded */
	spritz_fb_rcv_hdr(&f->hf.fb, tb.flags, tb.ack, tb.win);
	f->hf.bytes_sent += p->GetSize() + 20;
	if (kind == SPRITZ_SEG_CTL) {
		if (!(f->hf.flags & SPRITZ_FLOW_F_HAVE_EV)) {
			S->st.eg_unsteered++;
			return;
		}
		tag.ev = f->hf.last_ev;
		p->AddPacketTag(tag);
		S->st.eg_pure_ack++;
		return;
	}
	repair = kind == SPRITZ_SEG_DATA && spritz_fb_presend(&f->hf.fb, tb.seq, end);
	if (repair && spritz_fb_retrans(&f->hf.fb, &S->st, tb.seq, end, SPRITZ_FB_TS_NONE))
		fb_deliver(f);
	if (kind == SPRITZ_SEG_DATA) {
		/* what tc egress reads from the socket (spritz_sock_state()) */
		f->hf.fb.dupthresh = S->dupthresh;
		f->hf.fb.unsent = sock_unsent(f, end);
	}
	r = host_decide(f, syn_again, repair, kind == SPRITZ_SEG_DATA && !repair);
	if (r < 0) {
		S->st.eg_unsteered++;
		return;
	}
	tag.ev = r & 0xffff;
	p->AddPacketTag(tag);
	S->st.eg_rewrites++;
	f->hf.last_ev = r & 0xffff;
	f->hf.last_lat_class = (r >> 16) & 0xff;
	f->hf.flags |= SPRITZ_FLOW_F_HAVE_EV;
	if (kind == SPRITZ_SEG_DATA)
		spritz_fb_record(&f->hf.fb, &S->st, now_ns(), tb.seq, end, r & 0xffff,
				 (r >> 16) & 0xff, 1);
	if (f->id == S->trace_flow)
		fprintf(stderr, "trace %.3f send seq %u len %u ev %#06x class %u buf %u\n",
			exp_us(), tb.seq, paylen, r & 0xffff, (r >> 16) & 0xff,
			f->hf.lb.len);
}

/* What the tc ingress program does with an ACK of a flow (spritz_ack()). */
void host_ack(Flow *f, const TcpBits &tb, uint32_t paylen, const uint8_t *h)
{
	Sim *S = g_sim;
	spritz_fb_ackinfo a;
	uint32_t end = tb.seq + spritz_tcp_seqlen(tb.flags, paylen);

	/* the receive window: the one the host's segments advertise (host_egress()) */
	if (!f->hf_init || spritz_fb_ack_check(&f->hf.fb, &S->st, tb.flags, tb.ack, tb.seq, end) !=
				   SPRITZ_FB_ACK_SCAN)
		return;
	memset(&a, 0, sizeof(a));
	a.ack = tb.ack;
	a.ece = !!(tb.flags & SPRITZ_TCP_ECE);
	tcp_opts(h, tb.doff * 4u, &a, nullptr);
	if (f->id == S->trace_flow)
		fprintf(stderr, "trace %.3f ack %u ece %u sacks %u\n", exp_us(), a.ack,
			a.ece, a.nsack);
	if (spritz_fb_ack(&f->hf.fb, &S->st, now_ns(), S->timeout_ns, &a))
		fb_deliver(f);
}

Ptr<Ipv4Route> HostRouting::RouteOutput(Ptr<Packet> p, const Ipv4Header &h, Ptr<NetDevice>,
					Socket::SocketErrno &err)
{
	Sim *S = g_sim;
	TcpBits tb;
	uint32_t paylen;

	err = Socket::ERROR_NOTERROR;
	if (!p || h.GetProtocol() != 6 || !tcp_peek(p, &tb))
		return S->host_route[host];
	Flow *f = flow_of(host, tb.dport, true);
	if (!f)
		return S->host_route[host];
	paylen = p->GetSize() - tb.doff * 4u;
	if (paylen) {
		S->data_sent++;
		if (f->hf_init && spritz_seq_before(tb.seq, f->hf.fb.snd_nxt))
			f->retrans++;
	}
	if (S->scheme.algo >= 0 && !f->pin) {
		host_egress(f, p, tb, paylen);
	} else if (paylen) {
		/* unmanaged: the sequence space only, to count retransmissions */
		if (!f->hf_init) {
			memset(&f->hf, 0, sizeof(f->hf));
			f->hf_init = true;
		}
		spritz_fb_presend(&f->hf.fb, tb.seq, tb.seq + paylen);
	}
	return S->host_route[host];
}

bool HostRouting::RouteInput(Ptr<const Packet> p, const Ipv4Header &h, Ptr<const NetDevice> idev,
			     UnicastForwardCallback, MulticastForwardCallback,
			     LocalDeliverCallback lcb, ErrorCallback)
{
	Sim *S = g_sim;
	uint8_t raw[60];
	TcpBits tb;

	if (h.GetProtocol() == 6 && tcp_peek(p, &tb, raw)) {
		uint32_t paylen = h.GetPayloadSize() - tb.doff * 4u;
		Flow *f;

		if (paylen && (f = flow_of(host, tb.dport, false))) {
			/* receiver: out of order if not the next expected sequence */
			if (f->rcv_have && tb.seq != f->rcv_next)
				f->ooo++;
			if (!f->rcv_have || spritz_seq_before(f->rcv_next, tb.seq + paylen))
				f->rcv_next = tb.seq + paylen;
			f->rcv_have = true;
		}
		if ((tb.flags & SPRITZ_TCP_ACK) && S->scheme.algo >= 0 &&
		    (f = flow_of(host, tb.sport, true)) && !f->pin) {
			S->acks_seen++;
			host_ack(f, tb, paylen, raw);
		}
	}
	lcb(p, h, idev->GetIfIndex());
	return true;
}

class SimRoutingHelper : public Ipv4RoutingHelper {
public:
	SimRoutingHelper *Copy() const override { return new SimRoutingHelper(*this); }
	Ptr<Ipv4RoutingProtocol> Create(Ptr<Node> node) const override
	{
		Ptr<HostRouting> r = CreateObject<HostRouting>();

		r->host = node->GetId() - g_sim->t->nsw;
		return r;
	}
};

/* --------------------------------------------------------------- flows */

void rx_cb(Ptr<Socket> s);

/* The flow of socket @s: by its own port (receiver), or its peer's (@peer: sender). */
Flow *sock_flow(Ptr<Socket> s, bool peer)
{
	Address a;

	if (peer)
		s->GetPeerName(a);
	else
		s->GetSockName(a);
	return &g_sim->flows[InetSocketAddress::ConvertFrom(a).GetPort() - PORT_BASE];
}

/*
 * A flow's connection is accepted: its listening socket closes, as it
 * takes no other.  Why: ns-3 looks a received segment's socket up by a
 * walk over every socket of the host (Ipv4EndPointDemux::Lookup()); with
 * every connection open from the start, a quarter of a paper-scale web
 * search's CPU, a third of the sockets walked being listening ones.
 */
void accept_cb(Ptr<Socket> s, const Address &)
{
	Flow *f = sock_flow(s, false);

	s->SetRecvCallback(MakeCallback(&rx_cb));
	if (f->listener) {
		f->listener->Close();
		f->listener = nullptr;
	}
}

void rx_cb(Ptr<Socket> s)
{
	Sim *S = g_sim;
	Flow *f = sock_flow(s, false);
	Address from;
	Ptr<Packet> p;

	while ((p = s->RecvFrom(from)) && p->GetSize()) {
		f->rx += p->GetSize();
		if (f->rx >= f->size && f->t_end < 0) {
			f->t_end = (int64_t)now_ns();
			if (++S->nfinished == S->flows.size() ||
			    (f->tag == S->stop_tag && !--S->nstop))
				Simulator::Stop();
		}
	}
}

/* The application writes what the socket takes, once the flow has started. */
void tx_more(Ptr<Socket> s, uint32_t)
{
	Flow *f = sock_flow(s, true);

	if (!f->connected || !f->go)
		return;
	while (f->sent < f->size) {
		uint32_t n = s->GetTxAvailable();
		uint64_t left = f->size - f->sent;

		if (!n)
			break;
		if (n > left)
			n = (uint32_t)left;
		if (n > 64 * TCP_MSS)
			n = 64 * TCP_MSS;
		int r = s->Send(Create<Packet>(n));
		if (r <= 0)
			break;
		f->sent += r;
	}
	if (f->sent >= f->size)
		s->Close();
}

void connected_cb(Ptr<Socket> s)
{
	sock_flow(s, true)->connected = true;
	tx_more(s, s->GetTxAvailable());
}

void conn_fail_cb(Ptr<Socket>)
{
}

/* --trace-flow: the traced flow's congestion window */
void cwnd_cb(uint32_t, uint32_t now)
{
	fprintf(stderr, "trace %.3f cwnd %u\n", exp_us(), now / TCP_MSS);
}

/* Open flow @id's connection (at its start, or during the set-up). */
void flow_connect(uint32_t id)
{
	Sim *S = g_sim;
	Flow *f = &S->flows[id];
	Ptr<Socket> s = Socket::CreateSocket(S->host_nodes[f->sh], TcpSocketFactory::GetTypeId());

	f->tx = s;
	s->Bind();
	s->SetConnectCallback(MakeCallback(&connected_cb), MakeCallback(&conn_fail_cb));
	s->SetSendCallback(MakeCallback(&tx_more));
	if (id == S->trace_flow)
		s->TraceConnectWithoutContext("CongestionWindow", MakeCallback(&cwnd_cb));
	s->Connect(InetSocketAddress(host_addr(f->ds, f->dk), PORT_BASE + id));
}

/* Flow @id's start time: its data goes as soon as its connection is open. */
void flow_start(uint32_t id)
{
	Flow *f = &g_sim->flows[id];

	f->t_start = (int64_t)now_ns();
	f->go = true;
	if (!f->tx)
		flow_connect(id);
	else
		tx_more(f->tx, f->tx->GetTxAvailable());
}

void progress_tick()
{
	Sim *S = g_sim;
	double w = wall_now();

	if (w - S->last_progress >= 10) {
		S->last_progress = w;
		fprintf(stderr, "spritz-sim: %s: t=%.1f us, %u/%zu flows finished, %.1f M events, %.0f s\n",
			S->scheme.name.c_str(), exp_us(),
			S->nfinished, S->flows.size(), Simulator::GetEventCount() / 1e6, w - S->t0);
	}
	Simulator::Schedule(MicroSeconds(5), &progress_tick);
}

/* ------------------------------------------------------------ building */

/* Host (switch, index) of a flow-list address: the lab plan's IPv6 or IPv4. */
bool parse_host(const std::string &a, uint32_t *s, uint32_t *k)
{
	uint8_t b[16];

	if (inet_pton(AF_INET6, a.c_str(), b) == 1) {
		if (b[0] != 0xfd || b[1] != 0)
			return false;
		*s = (uint32_t)b[2] << 8 | b[3];
		uint32_t kk = (uint32_t)b[14] << 8 | b[15];
		if (!kk)
			return false;
		*k = kk - 1;
	} else if (inet_pton(AF_INET, a.c_str(), b) == 1) {
		if (b[0] != 10 || !b[3])
			return false;
		*s = (uint32_t)b[1] << 8 | b[2];
		*k = b[3] - 1u;
	} else {
		return false;
	}
	return *s < (uint32_t)g_sim->t->nsw && *k < (uint32_t)g_sim->t->hosts[*s];
}

void read_flows(const char *path)
{
	Sim *S = g_sim;
	std::ifstream in(path);
	std::string line;
	int ln = 0;

	if (!in)
		die("failed to open %s: %s", path, strerror(errno));
	while (std::getline(in, line)) {
		ln++;
		if (line.empty() || line[0] == '#')
			continue;
		std::istringstream ss(line);
		Flow f;
		long long size;

		if (!(ss >> f.start_us >> f.src >> f.dst >> size >> f.tag) || f.start_us < 0 ||
		    size <= 0)
			die("failed to parse %s:%d: not START_US SRC DST SIZE TAG", path, ln);
		if (!parse_host(f.src, &f.ss, &f.sk) || !parse_host(f.dst, &f.ds, &f.dk))
			die("failed to parse %s:%d: address not a host of %s", path, ln, S->t->name);
		if (f.src == f.dst)
			die("failed to parse %s:%d: source and destination are the same host", path,
			    ln);
		if (S->flows.size() >= MAX_FLOWS)
			die("failed to read %s: more than %u flows", path, MAX_FLOWS);
		f.size = size;
		f.id = S->flows.size();
		f.sh = S->host_base[f.ss] + f.sk;
		f.dh = S->host_base[f.ds] + f.dk;
		S->flows.push_back(f);
	}
}

struct Params {
	double rate_gbps = 400;
	uint32_t queue_pkts = 0; /* 0: Table II's for the family */
	uint32_t rto_us = 100;
	uint32_t dupthresh = 3;
	int64_t max_cwnd = -1; /* packets; 0: no cap, -1: the initial window */
	double fail = 0;
	uint32_t seed = 1;
	uint64_t deadline_us = 1000000;
	int32_t flow_disables = -1; /* -1: the knob's default */
	int32_t peer_disables = -1; /* -1: the knob's default */
	int32_t min_enabled_pct = -1; /* -1: the knob's default */
};

/* Switch and host nodes, host IP stacks, switch_rx() on every switch. */
void fabric_nodes(NodeContainer &sws, NodeContainer &hosts)
{
	Sim *S = g_sim;
	spritz_topo *t = S->t;
	uint32_t nsw = t->nsw, s, i, k, nhosts = 0;

	for (s = 0; s < nsw; s++) {
		S->host_base.push_back(nhosts);
		for (k = 0; k < (uint32_t)t->hosts[s]; k++) {
			S->host_sw.push_back(s);
			S->host_k.push_back(k);
		}
		nhosts += t->hosts[s];
	}
	sws.Create(nsw);
	hosts.Create(nhosts);
	for (i = 0; i < nhosts; i++)
		S->host_nodes.push_back(hosts.Get(i));
	InternetStackHelper stack;
	SimRoutingHelper rh;
	stack.SetRoutingHelper(rh);
	stack.SetIpv6StackInstall(false);
	stack.Install(hosts);
	/* a switch has no IP stack: its ports' queues, and switch_rx() */
	for (s = 0; s < nsw; s++)
		sws.Get(s)->RegisterProtocolHandler(MakeBoundCallback(&switch_rx, s),
						    Ipv4L3Protocol::PROT_NUMBER, nullptr);
}

/*
 * Unhook switch port @dev's queue from the NetDeviceQueue that
 * PointToPointHelper aggregates to every device.  Its stop/wake and byte
 * counts serve a queue discipline or BQL above the device, and a switch
 * has neither (switch_rx() hands packets to the device, which queues
 * them): three callbacks per packet and hop that decide nothing.
 */
void port_unhook_txq(Ptr<PointToPointNetDevice> dev)
{
	Ptr<NetDeviceQueueInterface> ndqi = dev->GetObject<NetDeviceQueueInterface>();
	Queue<Packet> *q = PeekPointer(dev->GetQueue());
	NetDeviceQueue *txq;

	if (!ndqi)
		return;
	txq = PeekPointer(ndqi->GetTxQueue(0));
	q->TraceDisconnectWithoutContext("Enqueue",
		MakeCallback(&NetDeviceQueue::PacketEnqueued<Queue<Packet>>, txq).Bind(q));
	q->TraceDisconnectWithoutContext("Dequeue",
		MakeCallback(&NetDeviceQueue::PacketDequeued<Queue<Packet>>, txq).Bind(q));
	q->TraceDisconnectWithoutContext("DropBeforeEnqueue",
		MakeCallback(&NetDeviceQueue::PacketDiscarded<Queue<Packet>>, txq).Bind(q));
}

/* Record device @d as port @slot of switch @sw. */
void fabric_port(uint32_t sw, uint32_t slot, Ptr<NetDevice> d)
{
	Sim *S = g_sim;
	SwPort &pt = S->ports[sw][slot];
	Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(d);
	uint32_t ifi = d->GetIfIndex();

	pt.dev = d;
	pt.dq = p2p->GetQueue();
	port_unhook_txq(p2p);
	pt.flags = SPRITZ_SW_PORT_VALID;
	if (S->slot_of_if[sw].size() <= ifi)
		S->slot_of_if[sw].resize(ifi + 1, SPRITZ_SW_SLOT_NONE);
	S->slot_of_if[sw][ifi] = slot;
}

/* Switch links, once per pair; the switch latency on both ends. */
void fabric_switch_links(PointToPointHelper &p2p, NodeContainer &sws)
{
	spritz_topo *t = g_sim->t;
	uint32_t s, i;

	for (s = 0; s < (uint32_t)t->nsw; s++) {
		for (i = 0; i < (uint32_t)spritz_topo_degree(t, s); i++) {
			uint32_t n = spritz_topo_port_nbr(t, s, i);
			int back = spritz_topo_port_of(t, n, s);
			uint64_t cable = t->port_cable_ps[t->port_off[s] + i];

			if (n < s)
				continue;
			if (!cable)
				cable = t->model.cable_ps[spritz_topo_port_type(t, s, i)];
			p2p.SetChannelAttribute("Delay", TimeValue(PicoSeconds(cable +
									   SPRITZ_DEF_SWITCH_PS)));
			NetDeviceContainer d = p2p.Install(sws.Get(s), sws.Get(n));
			fabric_port(s, i, d.Get(0));
			fabric_port(n, back, d.Get(1));
		}
	}
}

/* Host links (local cables, half the switch latency each way), addresses, routes. */
void fabric_host_links(PointToPointHelper &p2p, NodeContainer &sws, NodeContainer &hosts)
{
	Sim *S = g_sim;
	Ipv4Address gw("10.255.255.254");
	uint32_t i;

	S->host_route.resize(hosts.GetN());
	p2p.SetChannelAttribute("Delay", TimeValue(PicoSeconds(SPRITZ_DEF_LOCAL_CABLE_PS +
							       SPRITZ_DEF_SWITCH_PS / 2)));
	for (i = 0; i < hosts.GetN(); i++) {
		uint32_t s = S->host_sw[i], k = S->host_k[i];
		NetDeviceContainer d = p2p.Install(hosts.Get(i), sws.Get(s));
		Ptr<Ipv4> ip = hosts.Get(i)->GetObject<Ipv4>();

		/*
		 * An endpoint's own egress: its device's FIFO of 64 BDP holds
		 * what its TCP sends, neither marking nor dropping it, as a
		 * Linux sender's qdisc under TCP Small Queues; a one-BDP queue
		 * there would drop a third of every 1.5-BDP initial window at
		 * the sender itself.  No queue discipline in front of it.
		 */
		DynamicCast<PointToPointNetDevice>(d.Get(0))->GetQueue()->SetMaxSize(
			QueueSize(QueueSizeUnit::PACKETS, 64 * S->queue_pkts));
		uint32_t ifi = ip->AddInterface(d.Get(0));
		ip->AddAddress(ifi, Ipv4InterfaceAddress(host_addr(s, k),
							 Ipv4Mask("255.255.255.255")));
		ip->SetUp(ifi);
		fabric_port(s, SPRITZ_SW_HOST_SLOT0 + k, d.Get(1));
		Ptr<Ipv4Route> r = Create<Ipv4Route>();
		r->SetDestination(gw);
		r->SetGateway(gw);
		r->SetSource(host_addr(s, k));
		r->SetOutputDevice(d.Get(0));
		S->host_route[i] = r;
	}
}

/* Links and queues; fills S->ports, slot_of_if, routes, info. */
void build_fabric(const Params &P)
{
	Sim *S = g_sim;
	spritz_topo *t = S->t;
	uint32_t nsw = t->nsw, s, qp = P.queue_pkts;
	NodeContainer sws, hosts;
	PointToPointHelper p2p;
	char rate[32];

	fabric_nodes(sws, hosts);
	if (!qp)
		qp = t->kind == SPRITZ_TOPO_SLIMFLY ? 92 : 88; /* Table II */
	S->queue_pkts = qp;
	snprintf(rate, sizeof(rate), "%.0fMbps", P.rate_gbps * 1000);
	p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(rate)));
	p2p.SetDeviceAttribute("Mtu", UintegerValue(4160));
	/* the switch ports' queues (port_admit()); a host's is set below */
	p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize",
		     QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, qp)));
	S->ports.assign(nsw, std::vector<SwPort>(SPRITZ_SW_MAX_SLOTS));
	S->slot_of_if.assign(nsw, std::vector<uint8_t>());
	fabric_switch_links(p2p, sws);
	fabric_host_links(p2p, sws, hosts);
	/* the switches' tables, as spritz_sw_fill() writes them for the lab */
	S->info.resize(nsw);
	S->routes.resize((size_t)nsw * nsw);
	for (s = 0; s < nsw; s++) {
		spritz_sw_info_init(t, s, &S->info[s]);
		for (uint32_t d = 0; d < nsw; d++)
			spritz_sw_route_init(t, s, d, &S->routes[(size_t)s * nsw + d]);
	}
}

/* Blackhole round(@frac x links) links, both ends, chosen by @seed. */
void fail_links(double frac, uint32_t seed)
{
	Sim *S = g_sim;
	spritz_topo *t = S->t;
	std::vector<std::pair<int, int>> links;
	Rng r(seed ^ 0xfa11);

	for (int s = 0; s < t->nsw; s++)
		for (int i = 0; i < spritz_topo_degree(t, s); i++)
			if (spritz_topo_port_nbr(t, s, i) > s)
				links.push_back({ s, i });
	size_t n = (size_t)llround(frac * links.size());
	if (frac > 0 && !n)
		n = 1;
	for (size_t i = 0; i < n; i++) {
		size_t j = i + r.next() % (links.size() - i);
		std::swap(links[i], links[j]);
		int s = links[i].first, p = links[i].second;
		int nb = spritz_topo_port_nbr(t, s, p), back = spritz_topo_port_of(t, nb, s);

		S->ports[s][p].flags |= SPRITZ_SW_PORT_BLACKHOLE;
		S->ports[nb][back].flags |= SPRITZ_SW_PORT_BLACKHOLE;
		S->failed.push_back({ s, p });
	}
}

/* ---------------------------------------------------------------- walk */

/*
 * Every (source, destination, EV) of every source switch through the
 * switch model (no ns-3 events): the switches visited must be exactly
 * spritz_ev_route()'s.  Returns the number of mismatches.
 */
long walk()
{
	Sim *S = g_sim;
	spritz_topo *t = S->t;
	long checked = 0, bad = 0;

	for (int src = 0; src < t->nsw; src++) {
		int cap = spritz_paths_cap(t, src);
		std::vector<spritz_path> p(cap > 0 ? cap : 1);

		for (int dst = 0; dst < t->nsw; dst++) {
			int n = dst == src ? 0 : spritz_paths_list(t, src, dst, p.data(), cap);

			for (int i = 0; i < n; i++) {
				int want[SPRITZ_PATH_MAX_HOPS + 1], nw, got[64], ng = 0;
				uint32_t cur = src, in_slot = SPRITZ_SW_HOST_SLOT0, hop = SPRITZ_SW_HOP_INIT;

				nw = spritz_ev_route(t, src, dst, p[i].ev, want, SPRITZ_PATH_MAX_HOPS + 1);
				got[ng++] = src;
				for (;;) {
					spritz_sw_pkt in;
					spritz_sw_decision dec;
					uint32_t why, slot;

					memset(&in, 0, sizeof(in));
					in.in_slot = in_slot;
					in.dst_sw = dst;
					in.dst_slot = SPRITZ_SW_HOST_SLOT0;
					in.dst_group = S->info[dst].group;
					in.route_port = S->routes[(size_t)cur * t->nsw + dst].port;
					in.ev = p[i].ev;
					in.hop = (uint8_t)hop;
					slot = sw_decide(cur, &S->cfg, &in, &dec, &why);
					if (slot == SPRITZ_SW_SLOT_NONE || slot >= SPRITZ_SW_HOST_SLOT0 ||
					    ng >= 64)
						break;
					uint32_t nb = spritz_topo_port_nbr(t, cur, slot);
					in_slot = spritz_topo_port_of(t, nb, cur);
					cur = nb;
					hop--;
					got[ng++] = cur;
				}
				checked++;
				if (nw != ng || memcmp(want, got, ng * sizeof(int))) {
					if (bad < 5) {
						fprintf(stderr, "walk: %d -> %d ev 0x%04x: libspritz", src,
							dst, p[i].ev);
						for (int j = 0; j < nw; j++)
							fprintf(stderr, " %d", want[j]);
						fprintf(stderr, ", switch model");
						for (int j = 0; j < ng; j++)
							fprintf(stderr, " %d", got[j]);
						fputc('\n', stderr);
					}
					bad++;
				}
			}
		}
	}
	printf("walk %s: %ld (source, destination, EV) checked, %ld mismatched\n", t->name,
	       checked, bad);
	return bad;
}

/* -------------------------------------------------------------- output */

void json_str(FILE *o, const std::string &s)
{
	fputc('"', o);
	for (char c : s) {
		if (c == '"' || c == '\\')
			fputc('\\', o);
		fputc(c, o);
	}
	fputc('"', o);
}

/* Does the EV path src -> dst cross a failed link? */
bool path_failed(uint32_t src, uint32_t dst, uint16_t ev)
{
	Sim *S = g_sim;
	int seq[SPRITZ_PATH_MAX_HOPS + 1], n;

	n = spritz_ev_route(S->t, src, dst, ev, seq, SPRITZ_PATH_MAX_HOPS + 1);
	for (int i = 0; i + 1 < n; i++) {
		int p = spritz_topo_port_of(S->t, seq[i], seq[i + 1]);

		if (p >= 0 && (S->ports[seq[i]][p].flags & SPRITZ_SW_PORT_BLACKHOLE))
			return true;
	}
	return false;
}

void write_results(FILE *o, double wall, double cpu)
{
	Sim *S = g_sim;
	uint64_t marks = 0, qdrops = 0, bh = 0, dis_failed = 0, dis_other = 0, dis_min = 0;

	for (const auto &k : S->tables->disabled_now()) {
		(path_failed(k.src, k.dst, k.ev) ? dis_failed : dis_other)++;
		dis_min += k.cls == 0;
	}

	for (int s = 0; s < S->t->nsw; s++) {
		for (auto &pt : S->ports[s]) {
			marks += pt.marks;
			qdrops += pt.drops;
		}
	}
	/* an endpoint's own egress */
	for (Ptr<Node> n : S->host_nodes)
		qdrops += DynamicCast<PointToPointNetDevice>(n->GetDevice(1))
				  ->GetQueue()
				  ->GetTotalDroppedPackets();
	bh = S->drops[SPRITZ_SW_DROP_BLACKHOLE];
	/* an unfinished flow counts up to where the run stopped (lab/run's rule) */
	fprintf(o, "{\n \"deadline_us\": %llu,\n \"flows_total\": %zu,\n \"finished\": %u,\n",
		(unsigned long long)(exp_us() > 0 ? exp_us() : 0), S->flows.size(),
		S->nfinished);
	fprintf(o, " \"sim\": {\"scheme\": \"%s\", \"topo\": \"%s\", \"rto_us\": %u, "
		   "\"dupthresh\": %u, \"queue_pkts\": %u, \"no_disable\": %s, \"events\": %llu, "
		   "\"wall_s\": %.1f, \"cpu_s\": %.1f, \"sim_time_us\": %.3f, \"switch_packets\": %llu, "
		   "\"steered\": %llu, \"data_sent\": %llu, \"ecn_marks\": %llu, "
		   "\"queue_drops\": %llu, \"blackhole_drops\": %llu, \"other_drops\": %llu, "
		   "\"failed_links\": %zu, \"ugal_valiant\": %llu, \"ugal_minimal\": %llu, "
		   "\"path_disables\": %llu, \"path_enables\": %llu, \"floor_enables\": %llu, "
		   "\"path_disable_withheld\": %llu, "
		   "\"path_disable_peer_withheld\": %llu, \"path_disable_kept\": %llu, "
		   "\"disabled_failed\": %llu, \"disabled_other\": %llu, \"disabled_minimal\": %llu, "
		   "\"fb_ack\": %llu, "
		   "\"fb_ecn\": %llu, \"fb_nack\": %llu, \"fb_timeout\": %llu, \"picks\": %llu, "
		   "\"pick_fail\": %llu, \"pick_small_flow\": %llu, \"pick_avoid\": %llu, "
		   "\"ring_overrun\": %llu, "
		   "\"retrans\": %llu, "
		   "\"fb_sack_lost\": %llu, \"fb_path_alive\": %llu, \"fb_no_reach\": %llu, "
		   "\"fb_isolated\": %llu, \"fb_congested\": %llu, \"fb_verify\": %llu, "
		   "\"dec_verify\": %llu, \"dec_use_avoided\": %llu, ",
		S->scheme.name.c_str(), S->t->name, S->knobs.timeout_us, S->dupthresh, S->queue_pkts,
		S->no_disable ? "true" : "false",
		(unsigned long long)Simulator::GetEventCount(),
		wall, cpu, exp_us(),
		(unsigned long long)S->sw_packets, (unsigned long long)S->steered,
		(unsigned long long)S->data_sent, (unsigned long long)marks,
		(unsigned long long)qdrops, (unsigned long long)bh,
		(unsigned long long)(S->drops[SPRITZ_SW_DROP_NO_ROUTE] + S->drops[SPRITZ_SW_DROP_HOP_LIMIT] +
				     S->drops[SPRITZ_SW_DROP_NO_PORT] + S->drops[SPRITZ_SW_DROP_DOWN]),
		S->failed.size(), (unsigned long long)S->ugal_val, (unsigned long long)S->ugal_min,
		(unsigned long long)S->tables->disables, (unsigned long long)S->tables->enables,
		(unsigned long long)S->tables->floor_enables,
		(unsigned long long)S->st.path_disable_withheld,
		(unsigned long long)S->st.path_disable_peer_withheld,
		(unsigned long long)S->st.path_disable_kept, (unsigned long long)dis_failed,
		(unsigned long long)dis_other,
		(unsigned long long)dis_min,
		(unsigned long long)S->st.fb_ack, (unsigned long long)S->st.fb_ecn,
		(unsigned long long)S->st.fb_nack, (unsigned long long)S->st.fb_timeout,
		(unsigned long long)S->st.picks, (unsigned long long)S->st.pick_fail,
		(unsigned long long)S->st.pick_small_flow, (unsigned long long)S->st.pick_avoid,
		(unsigned long long)S->st.eg_ring_overrun, (unsigned long long)S->st.eg_retrans,
		(unsigned long long)S->st.fb_sack_lost, (unsigned long long)S->st.fb_path_alive,
		(unsigned long long)S->st.fb_no_reach, (unsigned long long)S->st.fb_isolated,
		(unsigned long long)S->st.fb_congested, (unsigned long long)S->st.fb_verify,
		(unsigned long long)S->st.dec_verify, (unsigned long long)S->st.dec_use_avoided);
	/* the pinned flows' tags, so that sim/run --report merges like runs only */
	fprintf(o, "\"ecmp_tag\": ");
	json_str(o, S->ecmp_tag);
	fprintf(o, ", \"minimal_tag\": ");
	json_str(o, S->min_tag);
	fprintf(o, ", \"hash_seed\": %u},\n", S->hash_seed);
	fprintf(o, " \"flows\": [\n");
	for (size_t i = 0; i < S->flows.size(); i++) {
		Flow &f = S->flows[i];
		bool fin = f.t_end >= 0;

		fprintf(o, "  {\"id\": %u, \"start_us\": %ld, \"src\": ", f.id, f.start_us);
		json_str(o, f.src);
		fprintf(o, ", \"dst\": ");
		json_str(o, f.dst);
		fprintf(o, ", \"size\": %llu, \"tag\": ", (unsigned long long)f.size);
		json_str(o, f.tag);
		fprintf(o, ", \"finished\": %s, \"bytes\": %llu, \"retransmits\": %u, "
			   "\"ooo\": %u, \"steered\": %s, \"fct_us\": ",
			fin ? "true" : "false", (unsigned long long)f.rx, f.retrans, f.ooo,
			f.hf_init && (f.hf.flags & SPRITZ_FLOW_F_HAVE_EV) ? "true" : "false");
		if (fin)
			fprintf(o, "%lld", (long long)((f.t_end - f.t_start) / 1000));
		else
			fprintf(o, "null");
		fprintf(o, "}%s\n", i + 1 < S->flows.size() ? "," : "");
	}
	fprintf(o, " ]\n}\n");
}

void usage()
{
	fprintf(stderr,
		"usage: spritz-sim --topo TOPO (--flows FILE --scheme NAME | --walk) [--out FILE]\n"
		"       [--fail-links FRACTION] [--seed N] [--deadline-us US] [--queue-pkts N]\n"
		"       [--rto-us US] [--dupthresh N] [--rate-gbps G] [--stop-tag TAG] [--ecmp-tag TAG]\n"
		"       [--minimal-tag TAG] [--hash-seed N] [--rng-seed N] [--connect-us US]\n"
		"       [--max-cwnd PKTS] [--progress] [--trace-flow N] [--no-disable]\n"
		"       [--flow-disables N] [--peer-disables N] [--min-enabled-pct N]\n");
	exit(2);
}

/* The command line beyond the fabric's parameters. */
struct Args {
	const char *topo = nullptr, *flows = nullptr, *out = nullptr, *scheme = "ecmp";
	bool walk = false, progress = false, have_rng = false;
	uint32_t rng_seed = 0;
};

/* A disable bound (--flow-disables, --peer-disables, --min-enabled-pct): 0..@max, as the knobs. */
int32_t parse_bound(const char *opt, const char *arg, long max)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*arg == 0 || *end || v < 0 || v > max)
		die("failed to parse %s %s: not a number from 0 to %ld", opt, arg, max);
	return (int32_t)v;
}

/* Options into @P, @A and the run's own settings in @S; usage() or die() on bad ones. */
void parse_args(int argc, char **argv, Params &P, Args &A, Sim *S)
{
	static const struct option opts[] = {
		{ "topo", required_argument, nullptr, 't' },
		{ "flows", required_argument, nullptr, 'f' },
		{ "scheme", required_argument, nullptr, 's' },
		{ "out", required_argument, nullptr, 'o' },
		{ "fail-links", required_argument, nullptr, 'F' },
		{ "seed", required_argument, nullptr, 'S' },
		{ "deadline-us", required_argument, nullptr, 'd' },
		{ "queue-pkts", required_argument, nullptr, 'q' },
		{ "rto-us", required_argument, nullptr, 'r' },
		{ "dupthresh", required_argument, nullptr, 'D' },
		{ "rate-gbps", required_argument, nullptr, 'R' },
		{ "progress", no_argument, nullptr, 'p' },
		{ "walk", no_argument, nullptr, 'w' },
		{ "stop-tag", required_argument, nullptr, 'T' },
		{ "rng-seed", required_argument, nullptr, 'G' },
		{ "ecmp-tag", required_argument, nullptr, 'E' },
		{ "minimal-tag", required_argument, nullptr, 'm' },
		{ "hash-seed", required_argument, nullptr, 'H' },
		{ "trace-flow", required_argument, nullptr, 'X' },
		{ "connect-us", required_argument, nullptr, 'C' },
		{ "max-cwnd", required_argument, nullptr, 'M' },
		{ "no-disable", no_argument, nullptr, 'N' },
		{ "flow-disables", required_argument, nullptr, 'B' },
		{ "peer-disables", required_argument, nullptr, 'P' },
		{ "min-enabled-pct", required_argument, nullptr, 'L' },
		{ nullptr, 0, nullptr, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "", opts, nullptr)) != -1) {
		switch (c) {
		case 't': A.topo = optarg; break;
		case 'f': A.flows = optarg; break;
		case 's': A.scheme = optarg; break;
		case 'o': A.out = optarg; break;
		case 'F': P.fail = atof(optarg); break;
		case 'S': P.seed = strtoul(optarg, nullptr, 0); break;
		case 'd': P.deadline_us = strtoull(optarg, nullptr, 0); break;
		case 'q': P.queue_pkts = strtoul(optarg, nullptr, 0); break;
		case 'r': P.rto_us = strtoul(optarg, nullptr, 0); break;
		case 'D': P.dupthresh = strtoul(optarg, nullptr, 0); break;
		case 'R': P.rate_gbps = atof(optarg); break;
		case 'p': A.progress = true; break;
		case 'w': A.walk = true; break;
		case 'T': S->stop_tag = optarg; break;
		case 'G': A.rng_seed = strtoul(optarg, nullptr, 0); A.have_rng = true; break;
		case 'E': S->ecmp_tag = optarg; break;
		case 'm': S->min_tag = optarg; break;
		case 'H': S->hash_seed = strtoul(optarg, nullptr, 0); break;
		case 'X': S->trace_flow = strtol(optarg, nullptr, 0); break;
		case 'N': S->no_disable = true; break;
		case 'B': P.flow_disables = parse_bound("--flow-disables", optarg, 255); break;
		case 'P': P.peer_disables = parse_bound("--peer-disables", optarg, 255); break;
		case 'L': P.min_enabled_pct = parse_bound("--min-enabled-pct", optarg, 100); break;
		case 'C': S->setup_ns = strtoull(optarg, nullptr, 0) * 1000; break;
		case 'M':
			P.max_cwnd = strtoll(optarg, nullptr, 0);
			if (P.max_cwnd < 0)
				die("failed to parse --max-cwnd %s: not a number of packets", optarg);
			break;
		default: usage();
		}
	}
	if (!A.topo || (!A.walk && !A.flows) || optind != argc)
		usage();
	if (P.fail < 0 || P.fail >= 1)
		die("failed to parse --fail-links %g: not a fraction in [0, 1)", P.fail);
	if (!P.deadline_us || !P.rto_us || !P.dupthresh || P.rate_gbps <= 0)
		die("failed to parse the options: deadline, RTO, dupthresh and rate must be > 0");
}

/* The scheme, topology, switch configurations, random streams, knobs and path tables. */
void sim_init(Sim *S, const Params &P, const Args &A)
{
	char err[256];

	if (!scheme_parse(A.scheme, &S->scheme))
		die("failed to parse --scheme %s: not ecmp, minimal, valiant, ugal-l, ops-u, ops-w, "
		    "flicr, scout, spray-u or spray-w", A.scheme);
	if (spritz_topo_parse(A.topo, &S->t, err, sizeof(err)))
		die("failed to parse --topo %s: %s", A.topo, err);
	if (spritz_lab_check(S->t, err, sizeof(err)))
		die("failed to use %s: %s", A.topo, err);
	spritz_sw_cfg_init(S->t, S->scheme.sw_mode, 0, &S->cfg);
	spritz_sw_cfg_init(S->t, SPRITZ_SW_MODE_ECMP, 0, &S->cfg_ecmp);
	spritz_sw_cfg_init(S->t, SPRITZ_SW_MODE_MINIMAL, 0, &S->cfg_min);
	/* draw N of the ECMP hash: the lab's seed (libspritz's) plus N */
	S->cfg.seed += S->hash_seed;
	S->cfg_ecmp.seed += S->hash_seed;
	S->cfg_min.seed += S->hash_seed;
	uint64_t seed = A.have_rng ? A.rng_seed : P.seed;
	S->rng = Rng(seed);
	S->mark_rng = Rng(seed ^ 0xec4ULL << 32);
	S->deadline_us = P.deadline_us;
	S->progress = A.progress;

	/* the knobs: spritz.ko's defaults, the paper's RTO as the path timeout */
	memset(&S->knobs, 0, sizeof(S->knobs));
#define SPRITZ_KNOB_DEF(name, def, min, max) S->knobs.name = def;
	SPRITZ_KNOBS(SPRITZ_KNOB_DEF)
#undef SPRITZ_KNOB_DEF
	S->knobs.algorithm = S->scheme.algo >= 0 ? S->scheme.algo : SPRITZ_ALGO_SCOUT;
	S->knobs.weighted = S->scheme.weighted;
	S->knobs.timeout_us = P.rto_us;
	if (P.flow_disables >= 0)
		S->knobs.flow_disables = (uint32_t)P.flow_disables;
	if (P.peer_disables >= 0)
		S->knobs.peer_disables = (uint32_t)P.peer_disables;
	if (P.min_enabled_pct >= 0)
		S->knobs.min_enabled_pct = (uint32_t)P.min_enabled_pct;
	S->disables.flow = S->knobs.flow_disables;
	S->disables.peer = S->knobs.peer_disables;
	S->disables.window_ns = (uint64_t)S->knobs.disable_ms * 1000000ULL;
	spritz_lb_cfg_from_knobs(&S->lb, &S->knobs);
	/* no srtt at the IP layer: the flow timeout is the cap, the paper's RTO */
	S->dupthresh = P.dupthresh;
	S->timeout_ns = spritz_fb_timeout_ns(0, S->knobs.timeout_rtt_pct, S->knobs.timeout_min_us,
					     S->knobs.timeout_us);
	S->tables = new Tables(S->t, S->knobs);
}

/* --walk: every switch's tables in Spritz mode, then walk(); the exit status. */
int run_walk(Sim *S)
{
	S->cfg.mode = SPRITZ_SW_MODE_SPRITZ; /* the EVs steer */
	S->info.resize(S->t->nsw);
	S->routes.resize((size_t)S->t->nsw * S->t->nsw);
	for (int s = 0; s < S->t->nsw; s++) {
		spritz_sw_info_init(S->t, s, &S->info[s]);
		for (int d = 0; d < S->t->nsw; d++)
			spritz_sw_route_init(S->t, s, d, &S->routes[(size_t)s * S->t->nsw + d]);
	}
	return walk() ? 1 : 0;
}

/* ns-3's scheduler and TCP defaults for every socket the run creates. */
void ns3_defaults(const Params &P)
{
	/*
	 * Events in a binary heap (std::priority_queue) rather than ns-3's
	 * default std::map: the same order (time, then insertion: every
	 * scheduler keys on both), so the same results, for less work per
	 * event (Documentation/sim.rst, "Speed").
	 */
	ObjectFactory sched;
	sched.SetTypeId("ns3::PriorityQueueScheduler");
	Simulator::SetScheduler(sched);

	/* TCP as the Linux deployment runs it: DCTCP, ECN, SACK, an ACK per segment */
	Config::SetDefault("ns3::TcpL4Protocol::SocketType",
			   TypeIdValue(TcpDctcpCapped::GetTypeId()));
	Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(TCP_MSS));
	Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
	Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1 << 23));
	Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1 << 23));
	Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(MicroSeconds(4 * P.rto_us)));
	Config::SetDefault("ns3::TcpSocket::DataRetries", UintegerValue(1000));
	Config::SetDefault("ns3::TcpSocketBase::UseEcn", StringValue("On"));
	Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
	Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
	Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MicroSeconds(P.rto_us)));
	Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(NanoSeconds(100)));
	Config::SetDefault("ns3::TcpSocketBase::ReTxThreshold", UintegerValue(P.dupthresh));
	Config::SetDefault("ns3::RttEstimator::InitialEstimation", TimeValue(MicroSeconds(10)));
}

/* The flow list, its tags checked, the window cap, and each flow's listener and start. */
void flows_setup(Sim *S, const Params &P, const char *flows)
{
	read_flows(flows);
	if (S->flows.empty())
		die("failed to read %s: no flows", flows);
	uint32_t necmp = 0, nmin = 0;
	if (!S->ecmp_tag.empty() && S->ecmp_tag == S->min_tag)
		die("failed to use --minimal-tag %s: it is the --ecmp-tag", S->min_tag.c_str());
	for (auto &f : S->flows) {
		S->nstop += f.tag == S->stop_tag;
		if (!S->ecmp_tag.empty() && f.tag == S->ecmp_tag)
			f.pin = &S->cfg_ecmp, necmp++;
		if (!S->min_tag.empty() && f.tag == S->min_tag)
			f.pin = &S->cfg_min, nmin++;
	}
	S->npinned = necmp + nmin;
	if (!S->stop_tag.empty() && !S->nstop)
		die("failed to use --stop-tag %s: no flow has it", S->stop_tag.c_str());
	if (!S->ecmp_tag.empty() && !necmp)
		die("failed to use --ecmp-tag %s: no flow has it", S->ecmp_tag.c_str());
	if (!S->min_tag.empty() && !nmin)
		die("failed to use --minimal-tag %s: no flow has it", S->min_tag.c_str());
	uint32_t qp = S->queue_pkts; /* build_fabric()'s */
	/* the paper's initial and maximum window: 1.5 BDP */
	Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(qp * 3 / 2));
	TcpDctcpCapped::cap_bytes =
		(uint32_t)(P.max_cwnd < 0 ? qp * 3 / 2 : P.max_cwnd) * TCP_MSS;
	for (auto &f : S->flows) {
		Ptr<Socket> l = Socket::CreateSocket(S->host_nodes[f.dh], TcpSocketFactory::GetTypeId());
		l->Bind(InetSocketAddress(Ipv4Address::GetAny(), PORT_BASE + f.id));
		l->Listen();
		l->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address &>(),
				     MakeCallback(&accept_cb));
		f.listener = l;
		if (S->setup_ns)
			Simulator::Schedule(Seconds(0), &flow_connect, f.id);
		Simulator::Schedule(NanoSeconds(S->setup_ns) + MicroSeconds(f.start_us), &flow_start,
				    f.id);
	}
}

/* Run to the deadline (or the stop tag's last flow), then write the results to @out. */
void run_and_report(Sim *S, const Params &P, const char *out)
{
	S->t0 = S->last_progress = wall_now();
	if (S->progress)
		Simulator::Schedule(MicroSeconds(5), &progress_tick);
	Simulator::Stop(NanoSeconds(S->setup_ns) + MicroSeconds(P.deadline_us));
	Simulator::Run();
	double wall = wall_now() - S->t0;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	double cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
		     ru.ru_stime.tv_usec / 1e6;

	FILE *o = out ? fopen(out, "w") : stdout;
	if (!o)
		die("failed to create %s: %s", out, strerror(errno));
	write_results(o, wall, cpu);
	if (out && fclose(o))
		die("failed to write %s: %s", out, strerror(errno));
	fprintf(stderr, "spritz-sim: %s on %s: %u/%zu flows finished, %.1f M events, %.1f s wall, "
		"%.1f s CPU\n", S->scheme.name.c_str(), S->t->name, S->nfinished, S->flows.size(),
		Simulator::GetEventCount() / 1e6, wall, cpu);
}

} // namespace

int main(int argc, char **argv)
{
	static Sim sim;
	Params P;
	Args A;

	parse_args(argc, argv, P, A, &sim);
	g_sim = &sim;
	sim_init(&sim, P, A);
	if (A.walk)
		return run_walk(&sim);
	ns3_defaults(P);
	build_fabric(P);
	fail_links(P.fail, P.seed);
	flows_setup(&sim, P, A.flows);
	run_and_report(&sim, P, A.out);
	Simulator::Destroy();
	return 0;
}
