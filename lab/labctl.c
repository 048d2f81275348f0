// SPDX-License-Identifier: GPL-2.0-only
/*
 * labctl: the lab fabric's helper (Documentation/lab.rst).  lab/fabric
 * drives it; the tests call it directly.
 *
 *	labctl plan TOPO [--rate MBIT] [--delay-local US] [--delay-global US]
 *	            [--mtu BYTES] [--deadline SEC]
 *	labctl load TOPO [--mode MODE] [--trace] [--rate MBIT] [--host-rate MBIT]
 *	            [--queue-limit BYTES]
 *	labctl mode MODE
 *	labctl fail TOPO (S:I ... | --fraction F [--seed N]) [--blackhole|--down|--clear]
 *	labctl counters [--reset]
 *	labctl tcpstat NS...
 *	labctl redstat NS...
 *	labctl sysctl NS... -- KEY=VALUE...
 *	labctl sysctl NS... -- KEY...
 *	labctl nooffload DEV NS...
 *	labctl capture [--dir DIR] [--snaplen N] DEV NS...
 *	labctl send --from S:K --to D:K --ev EV [--count N] [--proto P] [--v4]
 *	            [--hop H] [--payload BYTES] [--dev eth0] [--no-reply]
 *
 * plan prints the lab plan (lib swtables.h) as lines for a shell:
 *	switch S NS
 *	host S K NS IFINDEX MAC ADDR6 ADDR4 SWDEV SWIFINDEX SWMAC
 *	link S I N J TYPE DEV_S IFI_S MAC_S DEV_N IFI_N MAC_N
 *	qdisc RATE_MBIT DELAY_LOCAL_US DELAY_GLOBAL_US LIMIT MIN MAX BURST MTU RTT_US
 *	knobs NAME=VALUE ...	(Spritz's knobs scaled to the plan's BDP)
 *	timers RTO_MIN_MS	(TCP's minimum RTO at the paper's ratio)
 * load loads bpf/spritz_switch.bpf.o, fills its maps from TOPO, pins them
 * under SPRITZ_SW_PIN_DIR and attaches the program at tc ingress of every
 * switch port in the namespaces sw<S>, then exits (the tc filters hold the
 * program).  --rate and --host-rate are the rates the fabric shapes
 * network and host ports to, --queue-limit their queues' hard limit: the
 * virtual queues UGAL-L reads drain at those rates and hold at most that
 * (without --rate no port is modelled and UGAL-L sees empty queues).
 * MODE: spritz, minimal, valiant, ecmp, ugal-l.  counters prints JSON.
 * tcpstat prints the Tcp and TcpExt counters of /proc/net/snmp and
 * /proc/net/netstat summed over the network namespaces NS (/run/netns/NS)
 * as one JSON object with nstat's names (TcpRetransSegs,
 * TcpExtTCPSACKReorder, ...), in one process.
 * redstat prints "MARKED DROPPED QDISCS": the ECN marks and drops of
 * every RED qdisc in the namespaces NS, summed (what tc -s qdisc shows),
 * and how many there are, in one process.  sysctl sets each KEY
 * (sysctl's dotted name) to VALUE in every namespace NS, in one process;
 * with KEYs alone it prints a line per namespace, "NS VALUE...", of
 * integer sysctls.  nooffload turns TSO and GSO off on DEV in every
 * namespace NS.  capture writes every frame DEV sends or receives in each
 * namespace NS, its first --snaplen bytes (128: the headers) with the
 * kernel's time stamp, to DIR/NS.pcap (pcap, nanoseconds), in one process,
 * until SIGINT or SIGTERM; it prints "capturing" once every socket listens
 * and, at the end, each file's frames and its socket's drops on stderr.
 * send writes raw frames on a host's device (run it in the host's
 * namespace): an EV-carrying packet from the
 * plan's address of S:K to D:K; proto icmp6 (echo reply: no answer from
 * the receiver), udp (flow label EV, port 9), udp-carrier (UDP to VXLAN's
 * 4789, source port EV), tcp-ack (no payload), tcp-data.  --no-reply uses a
 * source address outside the plan (switch 0xffff) so that whatever the
 * receiver answers (ICMP errors, RSTs) dies at its own switch.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <net/if.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <jansson.h>
#include <linux/gen_stats.h>
#include <linux/pkt_sched.h>

#include <spritz/defaults.h>
#include <spritz/knobs.h>
#include <spritz/switch.h>

#include "spritz_switch.skel.h"
#include "csum.h"
#include "spritz_host.h"
#include "swtables.h"
#include "topo.h"

/*
 * Device MTU: Table II's packet, 64 B of headers and 4096 B of payload.
 * Under TCG the fabric's cost is per packet: 4160-byte packets carry
 * the same rate as 1500-byte ones for about half the CPU.
 */
#define LAB_MTU 4160


static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("labctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static struct spritz_topo *load_topo(const char *spec)
{
	struct spritz_topo *t;
	char err[512] = "";

	if (spritz_topo_parse(spec, &t, err, sizeof(err)))
		die("failed to parse topology \"%s\": %s", spec, err);
	if (spritz_lab_check(t, err, sizeof(err)))
		die("failed to use topology \"%s\" for the lab: %s", spec, err);
	return t;
}

static int pinned(const char *name)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", SPRITZ_SW_PIN_DIR, name);
	fd = bpf_obj_get(path);
	if (fd < 0)
		die("failed to open %s: %s (is the lab loaded?)", path, strerror(errno));
	return fd;
}

static void fmt_mac(const uint8_t *m, char *buf)
{
	sprintf(buf, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

/* ------------------------------------------------------------------ plan */

/*
 * The paper's knobs (knobs.h defaults, in units of its BDP of
 * SPRITZ_DEF_BDP_PACKETS packets) in units of the plan's BDP of @q bytes
 * and @rtt_us (Documentation/lab.rst, "Scaling" and "Timers"): explore
 * 0.5 BDP, ECN threshold 8/88 BDP, small flows 1.43 BDP; the path timeout
 * and TCP's minimum RTO the paper's RTO over its BDP time in plan RTTs
 * (the timeout at least the knob's default, Linux's minimum RTO), and the
 * timeout's floor (timeout_min_us, the paper's RTO) likewise: a flow's
 * first srtt comes from its handshake's small packets, which the lab's
 * slow links carry far faster than full ones, and an unscaled 100 us floor
 * let that srtt make a timeout of a few ms, shorter than one data RTT;
 * paths disabled for the whole run (@deadline_s); flowlets split at half
 * an RTT.
 */
static void plan_knobs(double q, int mtu, double rtt_us, double deadline_s)
{
	double p = q / mtu, bdp_pkts = SPRITZ_DEF_BDP_PACKETS;
	double bdp_time_us = bdp_pkts * SPRITZ_DEF_PACKET_BYTES * 8.0 / SPRITZ_DEF_LINK_SPEED_MBPS;
	double rtts = SPRITZ_DEF_RTO_US / bdp_time_us;
	long e = (long)(SPRITZ_DEF_EXPLORE_THRESHOLD / bdp_pkts * p + 0.5);
	long c = (long)(SPRITZ_DEF_ECN_THRESHOLD / bdp_pkts * p + 0.5);
	long t = (long)(rtts * rtt_us), g = (long)(rtt_us / 2);
	long m = (long)(SPRITZ_DEF_TIMEOUT_MIN_US / bdp_time_us * rtt_us);

	if (e < 1)
		e = 1;
	if (c < 1)
		c = 1;
	if (t < SPRITZ_DEF_TIMEOUT_US)
		t = SPRITZ_DEF_TIMEOUT_US;
	if (g < 1)
		g = 1;
	if (m < SPRITZ_DEF_TIMEOUT_MIN_US)
		m = SPRITZ_DEF_TIMEOUT_MIN_US;
	if (m > t)
		m = t;
	printf("knobs explore_threshold=%ld ecn_threshold=%ld small_flow_bytes=%ld timeout_us=%ld "
	       "timeout_min_us=%ld disable_ms=%ld flowlet_gap_us=%ld\n", e, c,
	       (long)(SPRITZ_DEF_SMALL_FLOW_BYTES / (bdp_pkts * SPRITZ_DEF_PACKET_BYTES) * q), t, m,
	       (long)(deadline_s * 1000), g);
	printf("timers %ld\n", (long)(rtts * rtt_us / 1000 + 0.5));
}

static int cmd_plan(int argc, char **argv)
{
	double rate = 20, dl = 100, dg = 1000, deadline = 20;
	struct spritz_topo *t;
	int s, i, k, c, mtu = LAB_MTU;
	static const struct option opts[] = {
		{ "rate", required_argument, NULL, 'r' },
		{ "delay-local", required_argument, NULL, 'l' },
		{ "delay-global", required_argument, NULL, 'g' },
		{ "mtu", required_argument, NULL, 'm' },
		{ "deadline", required_argument, NULL, 'd' },
		{}
	};
	double ser_us, rtt_us, bdp;
	long limit, min, max, burst;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'r': rate = atof(optarg); break;
		case 'l': dl = atof(optarg); break;
		case 'g': dg = atof(optarg); break;
		case 'm': mtu = atoi(optarg); break;
		case 'd': deadline = atof(optarg); break;
		default: return 2;
		}
	}
	if (optind != argc - 1 || rate <= 0 || dl < 0 || dg < 0 || deadline <= 0)
		die("usage: labctl plan TOPO [--rate MBIT] [--delay-local US] [--delay-global US] "
		    "[--mtu BYTES] [--deadline SEC]");
	if (mtu < 1280 || mtu > 65535)
		die("failed to parse --mtu %d: not a byte count in 1280..65535", mtu);
	t = load_topo(argv[optind]);
	for (s = 0; s < t->nsw; s++)
		printf("switch %d sw%d\n", s, s);
	for (s = 0; s < t->nsw; s++)
		for (k = 0; k < t->hosts[s]; k++) {
			uint8_t m[6], a6[16], a4[4];
			char mac[20], smac[20], s6[64], s4[20];

			spritz_lab_mac(SPRITZ_LAB_MAC_HOST, s, k, m);
			fmt_mac(m, mac);
			spritz_lab_mac(SPRITZ_LAB_MAC_SWITCH, s, SPRITZ_SW_HOST_SLOT0 + k, m);
			fmt_mac(m, smac);
			spritz_lab_addr6(s, k, a6);
			spritz_lab_addr4(s, k, a4);
			inet_ntop(AF_INET6, a6, s6, sizeof(s6));
			inet_ntop(AF_INET, a4, s4, sizeof(s4));
			printf("host %d %d h%d-%d %d %s %s %s h%d %d %s\n", s, k, s, k,
			       spritz_lab_host_ifindex(s, k), mac, s6, s4, k,
			       spritz_lab_ifindex(s, SPRITZ_SW_HOST_SLOT0 + k), smac);
		}
	for (s = 0; s < t->nsw; s++)
		for (i = 0; i < spritz_topo_degree(t, s); i++) {
			int n = spritz_topo_port_nbr(t, s, i), j = spritz_topo_port_of(t, n, s);
			uint8_t m[6];
			char ma[20], mb[20];

			if (n < s)
				continue; /* each link once */
			spritz_lab_mac(SPRITZ_LAB_MAC_SWITCH, s, i, m);
			fmt_mac(m, ma);
			spritz_lab_mac(SPRITZ_LAB_MAC_SWITCH, n, j, m);
			fmt_mac(m, mb);
			printf("link %d %d %d %d %s p%d %d %s p%d %d %s\n", s, i, n, j,
			       spritz_topo_port_type(t, s, i) == SPRITZ_LINK_GLOBAL ? "global"
										: "local",
			       i, spritz_lab_ifindex(s, i), ma, j, spritz_lab_ifindex(n, j), mb);
		}
	/*
	 * Queue: one BDP (Table II), RED marking between 0.2 and 0.8 of it,
	 * at least four packets.  RTT: twice the longest minimal path (host
	 * link, diameter network hops with global delay, host link) at one
	 * MTU-sized packet per hop.
	 */
	ser_us = mtu * 8.0 / rate;
	rtt_us = 2 * ((t->diameter + 2) * ser_us + 2 * dl + t->diameter * dg);
	bdp = rate * rtt_us / 8; /* bytes: Mbit/s * us / 8 */
	limit = bdp < 15000 ? 15000 : (long)bdp;
	if (limit < 4L * mtu)
		limit = 4L * mtu;
	min = limit / 5;
	max = limit * 4 / 5;
	burst = (2 * min + max) / (3 * mtu) + 1;
	printf("qdisc %g %g %g %ld %ld %ld %ld %d %.0f\n", rate, dl, dg, limit, min, max, burst,
	       mtu, rtt_us);
	plan_knobs((double)limit, mtu, (double)(long)(rtt_us + 0.5), deadline);
	spritz_topo_free(t);
	return 0;
}

/* Enter /run/netns/@ns, or die saying which. */
static void enter_ns(const char *ns)
{
	int err = spritz_netns_enter(ns);

	if (err)
		die("failed to enter netns %s: %s", ns, strerror(-err));
}

/* ------------------------------------------------------------------ load */

static int attach_ns(int s, const int *ifindexes, int n, int prog_fd)
{
	char name[16];
	int i, err;

	snprintf(name, sizeof(name), "sw%d", s);
	err = spritz_netns_enter(name);
	if (err)
		die("failed to enter netns %s: %s (is the fabric up?)", name, strerror(-err));
	for (i = 0; i < n; i++) {
		LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindexes[i],
			    .attach_point = BPF_TC_INGRESS);
		LIBBPF_OPTS(bpf_tc_opts, opts, .prog_fd = prog_fd, .handle = 1, .priority = 1);

		err = bpf_tc_hook_create(&hook);
		if (err && err != -EEXIST)
			die("failed to create clsact of sw%d on ifindex %d: %s", s, ifindexes[i],
			    strerror(-err));
		err = bpf_tc_attach(&hook, &opts);
		if (err)
			die("failed to attach sw%d on ifindex %d: %s", s, ifindexes[i], strerror(-err));
	}
	return 0;
}

static int cmd_load(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "trace", no_argument, NULL, 't' },
		{ "rate", required_argument, NULL, 'r' },
		{ "host-rate", required_argument, NULL, 'R' },
		{ "queue-limit", required_argument, NULL, 'q' },
		{}
	};
	int mode = SPRITZ_SW_MODE_SPRITZ, c, s, i, k, n, self;
	double rate = 0, hrate = -1;
	long limit = 0;
	uint32_t flags = 0;
	struct spritz_switch *skel;
	struct spritz_sw_fds fds;
	struct spritz_topo *t;
	int ifs[SPRITZ_SW_MAX_SLOTS];
	char err[512] = "";

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			mode = spritz_sw_mode_parse(optarg);
			if (mode < 0)
				die("failed to parse --mode %s: expected spritz, minimal, valiant, ecmp or ugal-l", optarg);
			break;
		case 't': flags |= SPRITZ_SW_F_TRACE; break;
		case 'r': rate = atof(optarg); break;
		case 'R': hrate = atof(optarg); break;
		case 'q': limit = atol(optarg); break;
		default: return 2;
		}
	}
	if (optind != argc - 1)
		die("usage: labctl load TOPO [--mode MODE] [--trace] [--rate MBIT] [--host-rate MBIT] "
		    "[--queue-limit BYTES]");
	if (hrate < 0)
		hrate = rate;
	if (rate < 0 || rate * 1000 > UINT32_MAX || hrate * 1000 > UINT32_MAX)
		die("failed to parse --rate / --host-rate: not a rate in 0..%u Mbit/s",
		    UINT32_MAX / 1000);
	if (limit < 0 || limit > UINT32_MAX)
		die("failed to parse --queue-limit %ld: not a byte count", limit);
	t = load_topo(argv[optind]);
	skel = spritz_switch__open_and_load();
	if (!skel)
		die("failed to load the switch pipeline: %s", strerror(errno));
	fds.cfg = bpf_map__fd(skel->maps.sw_cfg);
	fds.info = bpf_map__fd(skel->maps.sw_info);
	fds.ports = bpf_map__fd(skel->maps.sw_ports);
	fds.ingress = bpf_map__fd(skel->maps.sw_ingress);
	fds.routes = bpf_map__fd(skel->maps.sw_routes);
	fds.dir = bpf_map__fd(skel->maps.sw_dir);
	if (spritz_sw_fill(t, &fds, mode, flags, err, sizeof(err)) ||
	    spritz_sw_set_rates(t, bpf_map__fd(skel->maps.sw_vq), (uint32_t)(rate * 1000 + 0.5),
				(uint32_t)(hrate * 1000 + 0.5), (uint32_t)limit, err, sizeof(err)))
		die("%s", err);
	if (bpf_object__pin_maps(skel->obj, SPRITZ_SW_PIN_DIR))
		die("failed to pin maps under %s: %s", SPRITZ_SW_PIN_DIR, strerror(errno));
	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (self < 0)
		die("failed to open /proc/self/ns/net: %s", strerror(errno));
	for (s = 0; s < t->nsw; s++) {
		n = 0;
		for (i = 0; i < spritz_topo_degree(t, s); i++)
			ifs[n++] = spritz_lab_ifindex(s, i);
		for (k = 0; k < t->hosts[s]; k++)
			ifs[n++] = spritz_lab_ifindex(s, SPRITZ_SW_HOST_SLOT0 + k);
		attach_ns(s, ifs, n, bpf_program__fd(skel->progs.spritz_switch));
	}
	if (setns(self, CLONE_NEWNET))
		die("failed to return to the first network namespace: %s", strerror(errno));
	printf("labctl: %s: %d switches, mode %s, maps in %s\n", t->name, t->nsw,
	       spritz_sw_mode_name(mode), SPRITZ_SW_PIN_DIR);
	spritz_switch__destroy(skel); /* tc filters and pins keep it alive */
	spritz_topo_free(t);
	return 0;
}

/* ------------------------------------------------------------ mode, fail */

static int cmd_mode(int argc, char **argv)
{
	struct spritz_sw_cfg cfg;
	uint32_t zero = 0;
	int fd, mode;

	if (argc != 2 || (mode = spritz_sw_mode_parse(argv[1])) < 0)
		die("usage: labctl mode spritz|minimal|valiant|ecmp|ugal-l");
	fd = pinned("sw_cfg");
	if (bpf_map_lookup_elem(fd, &zero, &cfg))
		die("failed to read sw_cfg: %s", strerror(errno));
	cfg.mode = mode;
	if (bpf_map_update_elem(fd, &zero, &cfg, BPF_ANY))
		die("failed to update sw_cfg: %s", strerror(errno));
	return 0;
}

static int cmd_fail(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "fraction", required_argument, NULL, 'f' },
		{ "seed", required_argument, NULL, 's' },
		{ "blackhole", no_argument, NULL, 'b' },
		{ "down", no_argument, NULL, 'd' },
		{ "clear", no_argument, NULL, 'c' },
		{}
	};
	uint8_t set = SPRITZ_SW_PORT_BLACKHOLE,
		clr = SPRITZ_SW_PORT_BLACKHOLE | SPRITZ_SW_PORT_DOWN;
	double frac = -1;
	unsigned int seed = 1;
	struct spritz_topo *t;
	int c, fd, s, i, a, err;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'f': frac = atof(optarg); break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 'b': set = SPRITZ_SW_PORT_BLACKHOLE; break;
		case 'd': set = SPRITZ_SW_PORT_DOWN; break;
		case 'c': set = 0; break;
		default: return 2;
		}
	}
	if (optind >= argc)
		die("usage: labctl fail TOPO (S:I ... | --fraction F [--seed N]) "
		    "[--blackhole|--down|--clear]");
	t = load_topo(argv[optind++]);
	fd = pinned("sw_ports");
	if (frac >= 0) {
		/* Each link (s < n) independently; print the ones failed. */
		srandom(seed);
		for (s = 0; s < t->nsw; s++)
			for (i = 0; i < spritz_topo_degree(t, s); i++) {
				int n = spritz_topo_port_nbr(t, s, i);

				if (n < s || random() >= frac * ((double)RAND_MAX + 1))
					continue;
				err = spritz_sw_link_flags(t, fd, s, i, set, clr);
				if (err)
					die("failed to set link %d:%d: %s", s, i, strerror(-err));
				printf("%d %d %d %d\n", s, i, n, spritz_topo_port_of(t, n, s));
			}
	}
	for (a = optind; a < argc; a++) {
		int n;

		if (sscanf(argv[a], "%d:%d", &s, &i) != 2)
			die("failed to parse link \"%s\": expected SWITCH:PORT", argv[a]);
		err = spritz_sw_link_flags(t, fd, s, i, set, clr);
		if (err)
			die("failed to set link %s: %s", argv[a], strerror(-err));
		n = spritz_topo_port_nbr(t, s, i);
		printf("%d %d %d %d\n", s, i, n, spritz_topo_port_of(t, n, s));
	}
	spritz_topo_free(t);
	return 0;
}

/* -------------------------------------------------------------- counters */

static const char *const drop_names[SPRITZ_SW_DROP_MAX] = {
	"not_ip", "malformed", "no_route", "hop_limit", "blackhole", "down", "no_port",
};

/* All @n values of the array map @fd (@vsz bytes each, all CPUs) into @vals. */
static void map_read_all(int fd, const char *name, uint32_t n, size_t vsz, void *vals)
{
	uint32_t *keys = calloc(n, sizeof(*keys));
	int got;

	if (!keys)
		die("failed to allocate: out of memory");
	got = spritz_map_read_array(fd, n, vsz, keys, vals);
	if (got < 0)
		die("failed to read %s: %s", name, strerror(-got));
	if ((uint32_t)got != n)
		die("failed to read %s: %d of %u entries", name, got, n);
	free(keys);
}

/* Set all @n values of the array map @fd to zero (@vsz bytes each, all CPUs). */
static void map_zero_all(int fd, const char *name, uint32_t n, size_t vsz)
{
	uint32_t *keys = calloc(n, sizeof(*keys)), count = n, k;
	void *zero = calloc(n, vsz);

	if (!keys || !zero)
		die("failed to allocate: out of memory");
	for (k = 0; k < n; k++)
		keys[k] = k;
	if (bpf_map_update_batch(fd, keys, zero, &count, NULL))
		die("failed to reset %s: %s", name, strerror(errno));
	free(keys);
	free(zero);
}

struct link_ctr {
	int sw, peer; /* peer -1: the host port */
	uint64_t packets;
};

static int link_ctr_cmp(const void *a, const void *b)
{
	const struct link_ctr *x = a, *y = b;

	if (x->sw != y->sw)
		return x->sw < y->sw ? -1 : 1;
	if (x->peer != y->peer)
		return x->peer < y->peer ? -1 : 1;
	return x->packets < y->packets ? -1 : x->packets > y->packets;
}

/* --links: the links that sent packets, [[sw, peer or -1 for the host, packets], ...] sorted */
static void print_links(const struct spritz_sw_ctr *v, const struct spritz_sw_port *ports,
			int ncpu)
{
	uint32_t nkeys = SPRITZ_SW_MAX_SWITCHES * SPRITZ_SW_MAX_SLOTS, key, n = 0;
	struct link_ctr *l = calloc(nkeys, sizeof(*l));
	int cpu;

	if (!l)
		die("failed to allocate: out of memory");
	for (key = 0; key < nkeys; key++) {
		uint64_t pk = 0;

		for (cpu = 0; cpu < ncpu; cpu++)
			pk += v[(size_t)key * ncpu + cpu].packets;
		if (!pk)
			continue;
		l[n].sw = key / SPRITZ_SW_MAX_SLOTS;
		l[n].peer = ports[key].type == SPRITZ_SW_LINK_HOST ? -1 : (int)ports[key].peer;
		l[n++].packets = pk;
	}
	qsort(l, n, sizeof(*l), link_ctr_cmp);
	putchar('[');
	for (key = 0; key < n; key++)
		printf("%s[%d,%d,%llu]", key ? "," : "", l[key].sw, l[key].peer,
		       (unsigned long long)l[key].packets);
	puts("]");
	free(l);
}

static int cmd_counters(int argc, char **argv)
{
	uint32_t ntx = SPRITZ_SW_MAX_SWITCHES * SPRITZ_SW_MAX_SLOTS;
	uint32_t ndrop = SPRITZ_SW_MAX_SWITCHES * SPRITZ_SW_DROP_MAX, key;
	int ncpu = libbpf_num_possible_cpus(), txfd, dfd, pfd, cpu;
	bool reset = argc == 2 && !strcmp(argv[1], "--reset");
	bool links = argc == 2 && !strcmp(argv[1], "--links");
	struct spritz_sw_port *ports;
	struct spritz_sw_ctr *v;
	json_t *jtx, *jdrops, *root;
	uint64_t *dv;

	if (argc > 2 || (argc == 2 && !reset && !links))
		die("usage: labctl counters [--reset | --links]");
	txfd = pinned("sw_tx");
	dfd = pinned("sw_drops");
	pfd = pinned("sw_ports");
	if (reset) {
		map_zero_all(txfd, "sw_tx", ntx, sizeof(*v) * ncpu);
		map_zero_all(dfd, "sw_drops", ndrop, sizeof(*dv) * ncpu);
		return 0;
	}
	v = calloc((size_t)ntx * ncpu, sizeof(*v));
	dv = calloc((size_t)ndrop * ncpu, sizeof(*dv));
	ports = calloc(ntx, sizeof(*ports));
	if (!v || !dv || !ports)
		die("failed to allocate: out of memory");
	map_read_all(txfd, "sw_tx", ntx, sizeof(*v) * ncpu, v);
	map_read_all(pfd, "sw_ports", ntx, sizeof(*ports), ports);
	if (links) {
		print_links(v, ports, ncpu);
		return 0;
	}
	map_read_all(dfd, "sw_drops", ndrop, sizeof(*dv) * ncpu, dv);
	jtx = json_array();
	jdrops = json_array();
	for (key = 0; key < ntx; key++) {
		const struct spritz_sw_port *p = &ports[key];
		uint64_t pk = 0, by = 0;
		json_t *o;

		for (cpu = 0; cpu < ncpu; cpu++) {
			pk += v[(size_t)key * ncpu + cpu].packets;
			by += v[(size_t)key * ncpu + cpu].bytes;
		}
		if (!pk)
			continue;
		o = json_object();
		json_object_set_new(o, "sw", json_integer(key / SPRITZ_SW_MAX_SLOTS));
		json_object_set_new(o, "slot", json_integer(key % SPRITZ_SW_MAX_SLOTS));
		json_object_set_new(o, "type",
				    json_string(p->type == SPRITZ_SW_LINK_HOST     ? "host"
						: p->type == SPRITZ_SW_LINK_GLOBAL ? "global"
										   : "local"));
		json_object_set_new(o, "peer", json_integer(p->peer));
		json_object_set_new(o, "packets", json_integer(pk));
		json_object_set_new(o, "bytes", json_integer(by));
		json_array_append_new(jtx, o);
	}
	for (key = 0; key < ndrop; key++) {
		uint64_t n = 0;
		json_t *o;

		for (cpu = 0; cpu < ncpu; cpu++)
			n += dv[(size_t)key * ncpu + cpu];
		if (!n)
			continue;
		o = json_object();
		json_object_set_new(o, "sw", json_integer(key / SPRITZ_SW_DROP_MAX));
		json_object_set_new(o, "reason", json_string(drop_names[key % SPRITZ_SW_DROP_MAX]));
		json_object_set_new(o, "packets", json_integer(n));
		json_array_append_new(jdrops, o);
	}
	root = json_pack("{s:o,s:o}", "tx", jtx, "drops", jdrops);
	json_dumpf(root, stdout, JSON_COMPACT);
	putchar('\n');
	json_decref(root);
	return 0;
}

/* --------------------------------------------------------------- tcpstat */

/* Add the "Tcp:" and "TcpExt:" header/value line pairs of @path to @sum. */
static void tcpstat_file(const char *path, json_t *sum)
{
	char hdr[8192], val[8192], *hs, *vs, *h, *v;
	FILE *f = fopen(path, "r");

	if (!f)
		die("failed to open %s: %s", path, strerror(errno));
	while (fgets(hdr, sizeof(hdr), f) && fgets(val, sizeof(val), f)) {
		char prefix[16], name[128];
		size_t plen = strcspn(hdr, ":");

		if (plen >= sizeof(prefix) || strncmp(hdr, val, plen + 1))
			die("failed to parse %s: header and values do not pair", path);
		memcpy(prefix, hdr, plen);
		prefix[plen] = 0;
		if (strcmp(prefix, "Tcp") && strcmp(prefix, "TcpExt"))
			continue;
		h = strtok_r(hdr + plen + 1, " \n", &hs);
		v = strtok_r(val + plen + 1, " \n", &vs);
		for (; h && v; h = strtok_r(NULL, " \n", &hs), v = strtok_r(NULL, " \n", &vs)) {
			json_t *o;

			snprintf(name, sizeof(name), "%s%s", prefix, h);
			o = json_object_get(sum, name);
			json_object_set_new(sum, name, json_integer((o ? json_integer_value(o) : 0) +
								    strtoll(v, NULL, 10)));
		}
	}
	fclose(f);
}

static int cmd_tcpstat(int argc, char **argv)
{
	json_t *sum = json_object();
	int i;

	if (argc < 2)
		die("usage: labctl tcpstat NS...");
	for (i = 1; i < argc; i++) {
		enter_ns(argv[i]);
		/* /proc/net is the reading thread's namespace */
		tcpstat_file("/proc/thread-self/net/snmp", sum);
		tcpstat_file("/proc/thread-self/net/netstat", sum);
	}
	json_dumpf(sum, stdout, JSON_COMPACT | JSON_SORT_KEYS);
	putchar('\n');
	json_decref(sum);
	return 0;
}

/* --------------------------------------------------------------- redstat */

struct red_sum {
	unsigned long long marked, dropped;
	unsigned int qdiscs;
};

/* One qdisc of a dump: a RED qdisc's marks (xstats) and drops (queue). */
static int red_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a, *st, *kind = NULL, *stats = NULL;
	struct red_sum *sum = data;
	int red;

	mnl_attr_for_each(a, nlh, sizeof(struct tcmsg)) {
		if (mnl_attr_get_type(a) == TCA_KIND)
			kind = a;
		else if (mnl_attr_get_type(a) == TCA_STATS2)
			stats = a;
	}
	red = kind && !strcmp(mnl_attr_get_str(kind), "red");
	if (!red || !stats)
		return MNL_CB_OK;
	sum->qdiscs++;
	mnl_attr_for_each_nested(st, stats) {
		if (mnl_attr_get_type(st) == TCA_STATS_QUEUE &&
		    mnl_attr_get_payload_len(st) >= sizeof(struct gnet_stats_queue))
			sum->dropped += ((const struct gnet_stats_queue *)
						 mnl_attr_get_payload(st))->drops;
		else if (mnl_attr_get_type(st) == TCA_STATS_APP &&
			 mnl_attr_get_payload_len(st) >= sizeof(struct tc_red_xstats))
			sum->marked += ((const struct tc_red_xstats *)
						mnl_attr_get_payload(st))->marked;
	}
	return MNL_CB_OK;
}

static int cmd_redstat(int argc, char **argv)
{
	struct red_sum sum = { 0 };
	int i, err;

	if (argc < 2)
		die("usage: labctl redstat NS...");
	for (i = 1; i < argc; i++) {
		enter_ns(argv[i]);
		err = spritz_tc_dump(RTM_GETQDISC, &(struct tcmsg){ .tcm_family = AF_UNSPEC },
				     red_cb, &sum);
		if (err)
			die("failed to dump the qdiscs of %s: %s", argv[i], strerror(-err));
	}
	printf("%llu %llu %u\n", sum.marked, sum.dropped, sum.qdiscs);
	return 0;
}

/* ---------------------------------------------------------------- sysctl */

/* Write @kv ("net.core.x=1") to /proc/sys of the current netns; with
 * @dry, only check that it could. */
static int sysctl_set(const char *kv, int dry)
{
	const char *eq = strchr(kv, '=');
	char key[246];

	if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof(key))
		return -EINVAL;
	snprintf(key, sizeof(key), "%.*s", (int)(eq - kv), kv);
	return spritz_sysctl_write(key, eq + 1, dry);
}

/* Print "NS VALUE..." of the integer sysctls @keys in each namespace;
 * nothing unless every one could be read. */
static int sysctl_read(char **ns, int nns, char **keys, int nkeys)
{
	int i, k, err, *v = calloc((size_t)nns * nkeys, sizeof(*v));

	if (!v)
		die("failed to read the sysctls: out of memory");
	for (i = 0; i < nns; i++) {
		enter_ns(ns[i]);
		for (k = 0; k < nkeys; k++) {
			err = spritz_sysctl_read_int(keys[k], &v[i * nkeys + k]);
			if (err)
				die("failed to read %s in %s: %s", keys[k], ns[i], strerror(-err));
		}
	}
	for (i = 0; i < nns; i++) {
		printf("%s", ns[i]);
		for (k = 0; k < nkeys; k++)
			printf(" %d", v[i * nkeys + k]);
		putchar('\n');
	}
	free(v);
	return 0;
}

static int cmd_sysctl(int argc, char **argv)
{
	int i, k, sep, err, nset = 0;

	for (sep = 1; sep < argc && strcmp(argv[sep], "--"); sep++)
		;
	if (sep == 1 || sep >= argc - 1)
		die("usage: labctl sysctl NS... -- KEY=VALUE... | KEY...");
	for (k = sep + 1; k < argc; k++) {
		if (argv[k][0] == '=')
			die("failed to parse \"%s\": expected KEY=VALUE or KEY", argv[k]);
		nset += !!strchr(argv[k], '=');
	}
	if (!nset)
		return sysctl_read(argv + 1, sep - 1, argv + sep + 1, argc - sep - 1);
	for (k = sep + 1; k < argc; k++)
		if (!strchr(argv[k], '='))
			die("failed to parse \"%s\": expected KEY=VALUE (keys to read and to write "
			    "do not mix)", argv[k]);
	/* every namespace and key checked before anything is written */
	for (i = 1; i < sep; i++) {
		enter_ns(argv[i]);
		for (k = sep + 1; k < argc; k++) {
			err = sysctl_set(argv[k], 1);
			if (err)
				die("failed to set %s in %s: %s", argv[k], argv[i], strerror(-err));
		}
	}
	for (i = 1; i < sep; i++) {
		err = spritz_netns_enter(argv[i]);
		for (k = sep + 1; !err && k < argc; k++)
			err = sysctl_set(argv[k], 0);
		if (err)
			die("failed to set the sysctls in %s: %s", argv[i], strerror(-err));
	}
	return 0;
}

/* ------------------------------------------------------------- nooffload */

/* TSO and GSO off on @argv[1] in every namespace that follows (the lab's
 * hosts: a 64 KiB super-packet would not fit a RED queue). */
static int cmd_nooffload(int argc, char **argv)
{
	unsigned int ifindex;
	int i, err;

	if (argc < 3)
		die("usage: labctl nooffload DEV NS...");
	for (i = 2; i < argc; i++) {
		enter_ns(argv[i]);
		ifindex = if_nametoindex(argv[1]);
		if (!ifindex)
			die("failed to find %s in %s: %s", argv[1], argv[i], strerror(errno));
		err = spritz_offload_set(ifindex, false, false);
		if (err)
			die("failed to turn offloads off on %s in %s: %s", argv[1], argv[i],
			    strerror(-err));
	}
	return 0;
}

/* --------------------------------------------------------------- capture */

/* pcap's file header and record header, nanosecond time stamps
 * (pcap-savefile(5): magic 0xa1b23c4d), Ethernet frames. */
#define PCAP_MAGIC_NS	0xa1b23c4d
#define PCAP_LINKTYPE_ETHERNET 1
#define CAPTURE_SNAPLEN 128

struct pcap_file_hdr {
	uint32_t magic;
	uint16_t major, minor;
	int32_t thiszone;
	uint32_t sigfigs, snaplen, linktype;
};

struct pcap_rec_hdr {
	uint32_t sec, nsec, caplen, len;
};

struct capture {
	const char *ns;
	int fd;
	FILE *f;
	unsigned long long packets;
};

static volatile sig_atomic_t capture_stop;

static void capture_signal(int sig)
{
	(void)sig;
	capture_stop = 1;
}

/* A packet socket on @dev in namespace @c->ns. */
static void capture_listen(struct capture *c, const char *dev)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL) };
	int one = 1, rcvbuf = 16 << 20;

	enter_ns(c->ns);
	sll.sll_ifindex = (int)if_nametoindex(dev);
	if (!sll.sll_ifindex)
		die("failed to find %s in %s: %s", dev, c->ns, strerror(errno));
	c->fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (c->fd < 0)
		die("failed to open a packet socket in %s: %s", c->ns, strerror(errno));
	if (setsockopt(c->fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one)) ||
	    setsockopt(c->fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)) ||
	    bind(c->fd, (struct sockaddr *)&sll, sizeof(sll)))
		die("failed to set up the packet socket on %s in %s: %s", dev, c->ns,
		    strerror(errno));
}

/* @dir/NS.pcap for @c, with its file header. */
static void capture_create(struct capture *c, const char *dir, uint32_t snaplen)
{
	struct pcap_file_hdr h = { .magic = PCAP_MAGIC_NS, .major = 2, .minor = 4,
				   .snaplen = snaplen, .linktype = PCAP_LINKTYPE_ETHERNET };
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s.pcap", dir, c->ns);
	c->f = fopen(path, "w");
	if (!c->f || fwrite(&h, sizeof(h), 1, c->f) != 1)
		die("failed to create %s: %s", path, strerror(errno));
}

/* Write every frame queued on @c's socket as a pcap record. */
static void capture_drain(struct capture *c, uint8_t *buf, uint32_t snaplen)
{
	char ctl[CMSG_SPACE(sizeof(struct timespec))];
	struct iovec iov = { .iov_base = buf, .iov_len = snaplen };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct pcap_rec_hdr r;
	struct cmsghdr *cm;
	struct timespec ts;
	ssize_t n;

	for (;;) {
		m.msg_control = ctl;
		m.msg_controllen = sizeof(ctl);
		n = recvmsg(c->fd, &m, MSG_TRUNC);
		if (n < 0) {
			/* ENETDOWN: the device went down (once per event) */
			if (errno == EAGAIN || errno == EINTR || errno == ENETDOWN)
				return;
			die("failed to read the packet socket of %s: %s", c->ns, strerror(errno));
		}
		/* the kernel's time stamp of the frame, else this process's time */
		clock_gettime(CLOCK_REALTIME, &ts);
		for (cm = CMSG_FIRSTHDR(&m); cm; cm = CMSG_NXTHDR(&m, cm))
			if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_TIMESTAMPNS)
				memcpy(&ts, CMSG_DATA(cm), sizeof(ts));
		r = (struct pcap_rec_hdr){ .sec = (uint32_t)ts.tv_sec, .nsec = (uint32_t)ts.tv_nsec,
					   .caplen = (uint32_t)n < snaplen ? (uint32_t)n : snaplen,
					   .len = (uint32_t)n };
		if (fwrite(&r, sizeof(r), 1, c->f) != 1 ||
		    (r.caplen && fwrite(buf, r.caplen, 1, c->f) != 1))
			die("failed to write the capture of %s: %s", c->ns, strerror(errno));
		c->packets++;
	}
}

/* Close @c's file and print what it holds and what its socket dropped. */
static void capture_close(struct capture *c)
{
	struct tpacket_stats st = { 0 };
	socklen_t len = sizeof(st);

	if (getsockopt(c->fd, SOL_PACKET, PACKET_STATISTICS, &st, &len))
		st.tp_drops = 0;
	if (fclose(c->f))
		die("failed to write the capture of %s: %s", c->ns, strerror(errno));
	close(c->fd);
	fprintf(stderr, "labctl: capture: %s: %llu frames, %u dropped\n", c->ns, c->packets,
		st.tp_drops);
}

/*
 * capture [--dir DIR] [--snaplen N] DEV NS...: every frame DEV sends and
 * receives in each namespace, into DIR/NS.pcap, in one process, until
 * SIGINT or SIGTERM.  "capturing" on stdout once every socket listens.
 */
static int cmd_capture(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "snaplen", required_argument, NULL, 's' },
		{},
	};
	struct sigaction sa = { .sa_handler = capture_signal };
	uint32_t snaplen = CAPTURE_SNAPLEN;
	const char *dir = ".", *dev;
	struct capture *c;
	struct pollfd *p;
	uint8_t *buf;
	char *end;
	int o, i, n;
	long v;

	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'd':
			dir = optarg;
			break;
		case 's':
			v = strtol(optarg, &end, 10);
			if (*end || v < 64 || v > 65535)
				die("failed to parse --snaplen %s: not 64-65535", optarg);
			snaplen = (uint32_t)v;
			break;
		default:
			die("usage: labctl capture [--dir DIR] [--snaplen N] DEV NS...");
		}
	}
	if (argc - optind < 2)
		die("usage: labctl capture [--dir DIR] [--snaplen N] DEV NS...");
	dev = argv[optind++];
	n = argc - optind;
	c = calloc((size_t)n, sizeof(*c));
	p = calloc((size_t)n, sizeof(*p));
	buf = malloc(snaplen);
	if (!c || !p || !buf)
		die("failed to capture: out of memory");
	/* every namespace and device found before a file is created */
	for (i = 0; i < n; i++) {
		c[i].ns = argv[optind + i];
		capture_listen(&c[i], dev);
		p[i] = (struct pollfd){ .fd = c[i].fd, .events = POLLIN };
	}
	if (access(dir, W_OK | X_OK))
		die("failed to use --dir %s: %s", dir, strerror(errno));
	for (i = 0; i < n; i++)
		capture_create(&c[i], dir, snaplen);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	printf("capturing\n");
	fflush(stdout);
	while (!capture_stop) {
		if (poll(p, (nfds_t)n, -1) < 0 && errno != EINTR)
			die("failed to wait for frames: %s", strerror(errno));
		for (i = 0; i < n; i++)
			if (p[i].revents & (POLLIN | POLLERR))
				capture_drain(&c[i], buf, snaplen);
	}
	for (i = 0; i < n; i++) {
		capture_drain(&c[i], buf, snaplen);
		capture_close(&c[i]);
	}
	free(buf);
	free(p);
	free(c);
	return 0;
}

/* ------------------------------------------------------------------ send */

/* labctl send's arguments, and the frame's layout they imply. */
struct send_args {
	int ss, sk, ds, dk, count, v4, hop, paylen, noreply;
	const char *proto, *dev;
	long ev;
	uint8_t l4p;		/* IP protocol */
	int l4hl;		/* its header length */
	bool carrier;		/* udp-carrier: EV in the UDP source port */
};

/* Parse labctl send's options into @a, or exit with the usage. */
static void send_parse(int argc, char **argv, struct send_args *a)
{
	static const struct option opts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "ev", required_argument, NULL, 'e' },
		{ "count", required_argument, NULL, 'n' },
		{ "proto", required_argument, NULL, 'p' },
		{ "v4", no_argument, NULL, '4' },
		{ "hop", required_argument, NULL, 'h' },
		{ "payload", required_argument, NULL, 'P' },
		{ "dev", required_argument, NULL, 'd' },
		{ "no-reply", no_argument, NULL, 'R' },
		{}
	};
	int c;

	*a = (struct send_args){ .ss = -1, .ds = -1, .count = 1, .hop = SPRITZ_SW_HOP_INIT,
				 .paylen = 64, .proto = "icmp6", .dev = "eth0", .ev = -1 };
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'f': if (sscanf(optarg, "%d:%d", &a->ss, &a->sk) < 1) exit(2); break;
		case 't': if (sscanf(optarg, "%d:%d", &a->ds, &a->dk) < 1) exit(2); break;
		case 'e': a->ev = strtol(optarg, NULL, 0); break;
		case 'n': a->count = atoi(optarg); break;
		case 'p': a->proto = optarg; break;
		case '4': a->v4 = 1; break;
		case 'h': a->hop = atoi(optarg); break;
		case 'P': a->paylen = atoi(optarg); break;
		case 'd': a->dev = optarg; break;
		case 'R': a->noreply = 1; break;
		default: exit(2);
		}
	}
	if (a->ss < 0 || a->ds < 0 || a->ev < 0 || a->ev > 0xffff || a->paylen < 0 ||
	    a->paylen > 1400)
		die("usage: labctl send --from S:K --to D:K --ev EV [--count N] [--proto "
		    "icmp6|udp|udp-carrier|tcp-ack|tcp-data] [--v4] [--hop H] [--payload B] "
		    "[--no-reply]");
	if (!strcmp(a->proto, "tcp-ack"))
		a->paylen = 0;
	if (!strcmp(a->proto, "icmp6"))
		a->l4p = a->v4 ? 1 : 58, a->l4hl = 8;
	else if (!strncmp(a->proto, "udp", 3))
		a->l4p = 17, a->l4hl = 8;
	else if (!strncmp(a->proto, "tcp", 3))
		a->l4p = 6, a->l4hl = 20;
	else
		die("failed to parse --proto %s: expected icmp6, udp, udp-carrier, tcp-ack or "
		    "tcp-data", a->proto);
	a->carrier = !strcmp(a->proto, "udp-carrier");
}

/*
 * Ethernet and IP headers at @b for @l4len bytes of L4; returns where L4
 * starts and sets *@sum to the L4 checksum's pseudo-header part.
 */
static uint8_t *send_l3(const struct send_args *a, int l4len, uint8_t *b, uint32_t *sum)
{
	uint8_t *l3 = b + 14;
	uint32_t s;

	spritz_lab_mac(SPRITZ_LAB_MAC_SWITCH, a->ss, SPRITZ_SW_HOST_SLOT0 + a->sk, b);
	spritz_lab_mac(SPRITZ_LAB_MAC_HOST, a->ss, a->sk, b + 6);
	if (!a->v4) {
		uint32_t fl = a->carrier ? 0 : (uint32_t)a->ev;

		b[12] = 0x86, b[13] = 0xdd;
		l3[0] = 0x60;
		l3[1] = (fl >> 16) & 0x0f, l3[2] = fl >> 8, l3[3] = fl;
		l3[4] = l4len >> 8, l3[5] = l4len;
		l3[6] = a->l4p;
		l3[7] = a->hop;
		spritz_lab_addr6(a->noreply ? 0xffff : a->ss, a->sk, l3 + 8);
		spritz_lab_addr6(a->ds, a->dk, l3 + 24);
		*sum = spritz_csum_add(0, l3 + 8, 32) + l4len + a->l4p;
		return l3 + 40;
	}
	b[12] = 0x08, b[13] = 0x00;
	l3[0] = 0x45;
	l3[2] = (20 + l4len) >> 8, l3[3] = 20 + l4len;
	l3[8] = a->hop;
	l3[9] = a->l4p;
	spritz_lab_addr4(a->noreply ? 0xffff : a->ss, a->sk, l3 + 12);
	spritz_lab_addr4(a->ds, a->dk, l3 + 16);
	s = spritz_csum_fold(spritz_csum_add(0, l3, 20));
	l3[10] = s >> 8, l3[11] = s;
	*sum = spritz_csum_add(0, l3 + 12, 8) + l4len + a->l4p;
	return l3 + 20;
}

/* The L4 header, payload and checksum at @l4 (@s: the pseudo-header's sum). */
static void send_l4(const struct send_args *a, int l4len, uint8_t *l4, uint32_t s)
{
	int i;

	if (a->l4p == 6 || a->l4p == 17) {
		uint16_t sport = a->carrier ? (uint16_t)a->ev : 40000;
		uint16_t dport = a->carrier ? SPRITZ_UDP_PORT_VXLAN : 9;

		l4[0] = sport >> 8, l4[1] = sport;
		l4[2] = dport >> 8, l4[3] = dport;
	}
	if (a->l4p == 6) {
		l4[4] = 0, l4[7] = 1;	/* seq 1 */
		l4[12] = 5 << 4;
		l4[13] = 0x10;		/* ACK */
		l4[14] = 0xff;		/* window */
	} else if (a->l4p == 17) {
		l4[4] = l4len >> 8, l4[5] = l4len;
	} else {
		l4[0] = a->v4 ? 0 : 129;	/* echo reply */
		if (a->v4)
			s = 0;		/* ICMPv4: no pseudo-header */
	}
	for (i = 0; i < a->paylen; i++)
		l4[a->l4hl + i] = 'a' + i % 26;
	s = spritz_csum_fold(spritz_csum_add(s, l4, l4len));
	if (a->l4p == 17 && !s)
		s = 0xffff;
	l4[a->l4p == 6 ? 16 : a->l4p == 17 ? 6 : 2] = s >> 8;
	l4[a->l4p == 6 ? 17 : a->l4p == 17 ? 7 : 3] = s;
}

/* Hand-built frames to the fabric from a host: labctl send (lab.rst). */
static int cmd_send(int argc, char **argv)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	uint8_t b[1600] = {}, *l4;
	struct send_args a;
	int fd, i, l4len;
	uint32_t sum;
	size_t len;

	send_parse(argc, argv, &a);
	l4len = a.l4hl + a.paylen;
	l4 = send_l3(&a, l4len, b, &sum);
	send_l4(&a, l4len, l4, sum);
	len = (size_t)(l4 - b) + l4len;

	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0)
		die("failed to create packet socket: %s", strerror(errno));
	sll.sll_ifindex = if_nametoindex(a.dev);
	sll.sll_halen = 6;
	memcpy(sll.sll_addr, b, 6);
	if (!sll.sll_ifindex)
		die("failed to find device %s", a.dev);
	for (i = 0; i < a.count; i++)
		if (sendto(fd, b, len, 0, (struct sockaddr *)&sll, sizeof(sll)) != (ssize_t)len)
			die("failed to send frame: %s", strerror(errno));
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{ "plan", cmd_plan },	    { "load", cmd_load }, { "mode", cmd_mode },
		{ "fail", cmd_fail },	    { "counters", cmd_counters },
		{ "send", cmd_send },	    { "tcpstat", cmd_tcpstat },
		{ "redstat", cmd_redstat }, { "sysctl", cmd_sysctl },
		{ "nooffload", cmd_nooffload }, { "capture", cmd_capture },
	};
	size_t i;

	if (argc < 2)
		die("usage: labctl plan|load|mode|fail|counters|send|tcpstat|redstat|sysctl|nooffload|capture ... (lab/labctl.c)");
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	die("failed to run %s: unknown command", argv[1]);
}
