// SPDX-License-Identifier: GPL-2.0-only
/*
 * flowgen: TCP flows between the lab fabric's host namespaces
 * (Documentation/lab.rst, "Flow generator").
 *
 *	flowgen gen TOPO --scenario NAME --size BYTES [--seed N] [--per-host N]
 *	            [--start US] [--members M] [--parallel N] [--round US]
 *	            [--rate MBIT] [--load L] [--duration US] [--max-senders N]
 *	flowgen run FLOWS [--plan FILE] [--port P] [--deadline SEC] [--stop-tag TAG]
 *	            [--out FILE]
 *
 * gen prints a flow list for a scenario (motivational, permutation,
 * adversarial, incast, allreduce-ring, allreduce-butterfly, alltoall,
 * websearch) on TOPO, one flow a line:
 *
 *	START_US SRC_ADDR DST_ADDR SIZE_BYTES TAG
 *
 * run reads such a list ("-" = stdin), maps each address to its host
 * namespace with the lab plan (/run/spritz-lab/plan), forks one receiver
 * per destination namespace and, once they listen, one sender per source
 * namespace (setns() on /run/netns/NAME).  Senders open a TCP connection
 * per flow at its start time, send a 16-byte header (flow id, size) and
 * SIZE payload bytes, shut down their side and wait for the receiver to
 * close.  A flow is finished when its receiver read SIZE bytes and the
 * sender's EOF before the deadline; its FCT runs from the sender's
 * connect() to the receiver's last byte (CLOCK_MONOTONIC, one clock for
 * every namespace).  With --stop-tag the run ends as soon as every flow
 * with that tag finished (the motivational scenario's monitored flow, as
 * the paper measures it), or at the deadline.  Retransmissions are
 * TCP_INFO tcpi_total_retrans of the sender's socket when the flow ends
 * or the run does; an unfinished flow also has the socket's TCP state
 * then (tcp_state: "syn_sent" is a handshake that never completed).  The
 * result is JSON (libjansson), on stdout or in FILE.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "spritz_host.h"
#include "swtables.h"
#include "topo.h"

#define FG_HDR 16
#define FG_MAX_NS 1024
#define FG_MAX_FLOWS 65536

struct flow {
	long start_us;
	char src[64], dst[64], tag[32];
	long long size;
	int src_ns, dst_ns;
	struct sockaddr_storage dst_sa;
	socklen_t dst_len;
	/* results */
	long long t_start, t_end;	/* ns, CLOCK_MONOTONIC; 0 = not seen */
	long long rx_bytes;
	int rx_eof, tx_done, started;
	unsigned int retrans;
	int tcp_state;			/* sender's TCP_INFO tcpi_state, -1 = closed */
	char err[96];
};

static struct flow *flows;
static int nflows;
static char ns_name[FG_MAX_NS][32];
static int nns;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("flowgen: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* ------------------------------------------------------------------- gen */

struct host {
	int s, k;
};

static void print_flow(long start_us, int ss, int sk, int ds, int dk, long long size,
		       const char *tag)
{
	uint8_t a[16], b[16];
	char sa[64], da[64];

	spritz_lab_addr6(ss, sk, a);
	spritz_lab_addr6(ds, dk, b);
	inet_ntop(AF_INET6, a, sa, sizeof(sa));
	inet_ntop(AF_INET6, b, da, sizeof(da));
	printf("%ld %s %s %lld %s\n", start_us, sa, da, size, tag);
}

/* Does switch s have a global (inter-group) link into group g? */
static int links_into(const struct spritz_topo *t, int s, int g)
{
	int i;

	for (i = 0; i < spritz_topo_degree(t, s); i++)
		if (t->group[spritz_topo_port_nbr(t, s, i)] == g)
			return 1;
	return 0;
}

static void shuffle(int *v, int n)
{
	int i, j, x;

	for (i = n - 1; i > 0; i--) {
		j = random() % (i + 1);
		x = v[i], v[i] = v[j], v[j] = x;
	}
}

/*
 * Motivational (paper §VI-B, Fig. "motivational example"): one monitored
 * flow from a host of group 0 to a host of group D; the destination group
 * and a quarter of the others stay idle ("free"), every other group X
 * (the source group included) gets background flows into the hosts of its
 * gateway switches (those with a global link into D), from every other
 * host of X.  The source switch's own link to its gateway gets the flows
 * of the hosts whose global links land on the source switch.  Every such
 * host sends @per_host background flows (a lab switch has one host where
 * the paper's have p = 4 endpoints) of 2 (per_host + 1) / per_host x
 * @size bytes: a link into a gateway carries 2 (per_host + 1) x @size,
 * twice what the monitored flow needs at its 1 / (per_host + 1) share of
 * it (one flow per host: 4 x @size).  Background starts at 0, the
 * monitored flow at @start_us, once the background has filled the links.
 */
static void gen_motivational(const struct spritz_topo *t, long long size, int per_host,
			     long start_us)
{
	int G = t->ngroups, D = G / 2, src = -1, dst = -1, s, x, i, n;
	int *free_g = calloc(G, sizeof(int)), *order = calloc(G, sizeof(int));
	long long bg = 2 * (per_host + 1) * size / per_host;
	int nfree = G / 4 > 0 ? G / 4 : 1;

	if (!free_g || !order)
		die("failed to allocate groups: out of memory");
	if (G < 3)
		die("failed to generate motivational: %s has %d groups, need 3", t->name, G);
	/* Source: a switch of group 0 without a link into D and with a host. */
	for (s = 0; s < t->nsw && src < 0; s++)
		if (t->group[s] == 0 && t->hosts[s] && !links_into(t, s, D))
			src = s;
	for (s = 0; s < t->nsw && dst < 0; s++)
		if (t->group[s] == D && t->hosts[s] && !links_into(t, s, 0))
			dst = s;
	/* Slim Fly: every switch of a group may link into another group. */
	for (s = 0; s < t->nsw && src < 0; s++)
		if (t->group[s] == 0 && t->hosts[s])
			src = s;
	for (s = 0; s < t->nsw && dst < 0; s++)
		if (t->group[s] == D && t->hosts[s])
			dst = s;
	if (src < 0 || dst < 0)
		die("failed to generate motivational: no source/destination switch in %s", t->name);
	free_g[D] = 1;
	for (x = 0, n = 0; x < G; x++)
		if (x != 0 && x != D)
			order[n++] = x;
	shuffle(order, n);
	for (i = 0; i < nfree && i < n; i++)
		free_g[order[i]] = 1;
	print_flow(start_us, src, 0, dst, 0, size, "monitored");
	for (x = 0; x < G; x++) {
		int gw[64], ngw = 0, next = 0;

		if (free_g[x])
			continue;
		int all = 1;

		for (s = 0; s < t->nsw; s++)
			if (t->group[s] == x && t->hosts[s] && s != src)
				all &= links_into(t, s, D);
		for (s = 0; s < t->nsw; s++)
			if (t->group[s] == x && t->hosts[s] && links_into(t, s, D) && ngw < 64 &&
			    s != src && (!all || !ngw))
				gw[ngw++] = s;
		if (!ngw)
			continue;
		for (s = 0; s < t->nsw; s++) {
			int k, j, m, is_gw = 0;

			for (m = 0; m < ngw; m++)
				is_gw |= gw[m] == s;
			if (t->group[s] != x || is_gw)
				continue;
			for (k = 0; k < t->hosts[s]; k++) {
				if (s == src && k == 0)
					continue;
				j = gw[next++ % ngw];
				for (m = 0; m < per_host; m++)
					print_flow(0, s, k, j, 0, bg, "background");
			}
			if (s != src)
				continue;
			/* Hosts beyond the source switch's global links. */
			for (i = 0; i < spritz_topo_degree(t, s); i++) {
				int nb = spritz_topo_port_nbr(t, s, i);

				if (t->group[nb] == x || free_g[t->group[nb]] || !t->hosts[nb])
					continue;
				j = gw[next++ % ngw];
				for (m = 0; m < per_host; m++)
					print_flow(0, nb, 0, j, 0, bg, "background");
			}
		}
	}
	free(free_g);
	free(order);
}

static void gen_pattern(const struct spritz_topo *t, const char *sc, long long size)
{
	struct host *h = calloc(t->nhosts ? t->nhosts : 1, sizeof(*h));
	int *perm = calloc(t->nhosts ? t->nhosts : 1, sizeof(int));
	int n = 0, s, k, i, tries;

	if (!h || !perm)
		die("failed to allocate hosts: out of memory");
	for (s = 0; s < t->nsw; s++)
		for (k = 0; k < t->hosts[s]; k++)
			h[n].s = s, h[n].k = k, n++;
	if (n < 2)
		die("failed to generate %s: %s has %d hosts", sc, t->name, n);
	if (!strcmp(sc, "permutation")) {
		/* A random derangement, receivers outside the sender's group
		 * where possible (paper §VI-B). */
		for (tries = 0; tries < 1000; tries++) {
			int bad = 0;

			for (i = 0; i < n; i++)
				perm[i] = i;
			shuffle(perm, n);
			for (i = 0; i < n; i++)
				bad += t->group[h[i].s] == t->group[h[perm[i]].s];
			if (!bad)
				break;
		}
		for (i = 0; i < n; i++)
			if (perm[i] != i)
				print_flow(0, h[i].s, h[i].k, h[perm[i]].s, h[perm[i]].k, size,
					   "permutation");
	} else if (!strcmp(sc, "adversarial")) {
		/* Host j of group g sends to host j of group g+1. */
		int G = t->ngroups, per = n / G;

		for (i = 0; i < n; i++) {
			int g = t->group[h[i].s], j = 0, m, d = -1;

			for (m = 0; m < i; m++)
				j += t->group[h[m].s] == g;
			for (m = 0; m < n && d < 0; m++) {
				int jj = 0, q;

				if (t->group[h[m].s] != (g + 1) % G)
					continue;
				for (q = 0; q < m; q++)
					jj += t->group[h[q].s] == (g + 1) % G;
				if (jj == j % (per ? per : 1))
					d = m;
			}
			if (d >= 0)
				print_flow(0, h[i].s, h[i].k, h[d].s, h[d].k, size, "adversarial");
		}
	} else {
		/* incast: a quarter of the hosts (at least 2, at most 32) into a
		 * random receiver, the others in a permutation among themselves
		 * (bystanders); all start at 0 (paper §VI-B). */
		int rx, nin = n / 4, *in = calloc(n, sizeof(int)), nb = 0, *by = calloc(n, sizeof(int));

		if (!in || !by)
			die("failed to allocate hosts: out of memory");
		if (nin < 2)
			nin = 2;
		if (nin > 32)
			nin = 32;
		for (i = 0; i < n; i++)
			perm[i] = i;
		shuffle(perm, n);
		rx = perm[0];
		for (i = 1; i <= nin && i < n; i++)
			in[perm[i]] = 1;
		for (i = 0; i < n; i++) {
			if (in[i])
				print_flow(0, h[i].s, h[i].k, h[rx].s, h[rx].k, size, "incast");
			else if (i != rx)
				by[nb++] = i;
		}
		if (nb >= 2) {
			int *p2 = calloc(nb, sizeof(int));

			if (!p2)
				die("failed to allocate hosts: out of memory");
			for (i = 0; i < nb; i++)
				p2[i] = i;
			shuffle(p2, nb);
			/* each sends to the next in the shuffled order: a derangement */
			for (i = 0; i < nb; i++)
				print_flow(0, h[by[p2[i]]].s, h[by[p2[i]]].k, h[by[p2[(i + 1) % nb]]].s,
					   h[by[p2[(i + 1) % nb]]].k, size, "bystander");
			free(p2);
		}
		free(in);
		free(by);
	}
	free(h);
	free(perm);
}

/* Every host of @t in canonical order (switch, then host number). */
static struct host *all_hosts(const struct spritz_topo *t, int *n)
{
	struct host *h = calloc(t->nhosts ? t->nhosts : 1, sizeof(*h));
	int s, k;

	if (!h)
		die("failed to allocate hosts: out of memory");
	*n = 0;
	for (s = 0; s < t->nsw; s++)
		for (k = 0; k < t->hosts[s]; k++)
			h[*n].s = s, h[*n].k = k, (*n)++;
	return h;
}

static void print_host_flow(long start_us, const struct host *a, const struct host *b,
			    long long size, const char *tag)
{
	print_flow(start_us, a->s, a->k, b->s, b->k, size, tag);
}

struct gen_opts {
	long long size;
	int per_host, members, parallel, max_senders;
	long start_us, round_us, duration_us;
	double rate, load;
};

/*
 * Collectives (paper §VI-B, "AI collectives"): @o->members hosts drawn at
 * random (the collective's job; a power of two for the butterfly) run it,
 * every other host sends SIZE to another of them in a random derangement
 * (tag "background": the other jobs).  Each member holds SIZE bytes.  The
 * list has no dependencies between flows, so a collective is its
 * bandwidth-bound schedule, every flow at time 0 but alltoall's rounds:
 *  allreduce-ring: member i streams 2 (m - 1) / m x SIZE to member i + 1
 *	(the 2 (m - 1) steps of ring reduce-scatter and allgather, pipelined);
 *  allreduce-butterfly: member i sends 2 x SIZE / 2^(k+1) to i XOR 2^k for
 *	each of the log2 m steps k (recursive halving for reduce-scatter,
 *	doubling for allgather, both of step k on one connection);
 *  alltoall: member i sends SIZE / (m - 1) to every other member j, in
 *	rounds of @o->parallel connections (j = i + 1 + r n + c), round r at
 *	r x @o->round_us.
 * The tag is the scenario's name; the collective ends with its last flow.
 */
static void gen_collective(const struct spritz_topo *t, const char *sc, const struct gen_opts *o)
{
	int n, m = o->members, i, k, *perm;
	struct host *h = all_hosts(t, &n), *mem, *bg;
	long long size = o->size;

	perm = calloc(n, sizeof(int));
	if (!perm)
		die("failed to allocate hosts: out of memory");
	if (m <= 0)
		m = n / 2;
	if (!strcmp(sc, "allreduce-butterfly"))
		while (m & (m - 1))
			m &= m - 1;	/* largest power of two not above */
	if (m < 2 || m > n)
		die("failed to generate %s: %d members of %d hosts (need 2..%d)", sc, m, n, n);
	for (i = 0; i < n; i++)
		perm[i] = i;
	shuffle(perm, n);
	mem = calloc(n, sizeof(*mem));
	if (!mem)
		die("failed to allocate hosts: out of memory");
	for (i = 0; i < n; i++)
		mem[i] = h[perm[i]];
	bg = mem + m;
	if (!strcmp(sc, "allreduce-ring")) {
		for (i = 0; i < m; i++)
			print_host_flow(0, &mem[i], &mem[(i + 1) % m], 2 * (m - 1) * size / m, sc);
	} else if (!strcmp(sc, "allreduce-butterfly")) {
		for (i = 0; i < m; i++)
			for (k = 0; (1 << k) < m; k++)
				print_host_flow(0, &mem[i], &mem[i ^ (1 << k)],
						2 * size >> (k + 1), sc);
	} else {
		long long chunk = size / (m - 1) > 0 ? size / (m - 1) : 1;

		for (i = 0; i < m; i++)
			for (k = 0; k < m - 1; k++)
				print_host_flow((k / o->parallel) * o->round_us, &mem[i],
						&mem[(i + 1 + k) % m], chunk, sc);
	}
	/* the others: a derangement among themselves (shuffled cycle) */
	if (n - m >= 2)
		for (i = 0; i < n - m; i++)
			print_host_flow(0, &bg[i], &bg[(i + 1) % (n - m)], size, "background");
	free(mem);
	free(perm);
	free(h);
}

/*
 * Web search (paper §VI-B, the DCTCP paper's trace): every host starts
 * flows as a Poisson process for @o->duration_us at @o->load of a
 * @o->rate link, sizes from the trace's CDF scaled by SIZE / 4 MiB (the
 * lab's counterpart of the paper's 4 MiB flow), each to a random other
 * other host with fewer than @o->max_senders other senders while the flow
 * would be busy (its size at the link's rate): receivers are spread, no
 * incast.  When none of 100 draws has room, the least busy of them.
 */
static const struct {
	double bytes, cdf;
} websearch_cdf[] = {
	{ 0, 0 },		{ 10000, 0.15 },	{ 20000, 0.2 },	   { 30000, 0.3 },
	{ 50000, 0.4 },		{ 80000, 0.53 },	{ 200000, 0.6 },   { 1000000, 0.7 },
	{ 2000000, 0.8 },	{ 5000000, 0.9 },	{ 10000000, 0.97 }, { 30000000, 1 },
};

#define WS_N ((int)ARRAY_SIZE(websearch_cdf))

static double unit_random(void)
{
	return (random() + 0.5) / ((double)RAND_MAX + 1);
}

/* A trace size: the CDF inverted, linear between its points. */
static double websearch_size(void)
{
	double u = unit_random();
	int i;

	for (i = 1; i < WS_N - 1 && websearch_cdf[i].cdf < u; i++)
		;
	return websearch_cdf[i - 1].bytes + (websearch_cdf[i].bytes - websearch_cdf[i - 1].bytes) *
		(u - websearch_cdf[i - 1].cdf) / (websearch_cdf[i].cdf - websearch_cdf[i - 1].cdf);
}

static double websearch_mean(void)
{
	double m = 0;
	int i;

	for (i = 1; i < WS_N; i++)
		m += (websearch_cdf[i].cdf - websearch_cdf[i - 1].cdf) *
		     (websearch_cdf[i].bytes + websearch_cdf[i - 1].bytes) / 2;
	return m;
}

struct ws_flow {
	double start, end;
	int src, dst;
};

/* Distinct senders other than @src with a flow into @d overlapping [a, b). */
static int ws_senders(const struct ws_flow *f, int nf, int d, int src, double a, double b)
{
	int i, j, c = 0;

	for (i = 0; i < nf; i++) {
		if (f[i].dst != d || f[i].src == src || f[i].end <= a || f[i].start >= b)
			continue;
		for (j = 0; j < i; j++)
			if (f[j].dst == d && f[j].src == f[i].src && f[j].end > a && f[j].start < b)
				break;
		c += j == i;
	}
	return c;
}

static void gen_websearch(const struct spritz_topo *t, const struct gen_opts *o)
{
	double scale = o->size / 4194304.0, mean = websearch_mean() * scale;
	double gap_us = mean * 8 / (o->load * o->rate); /* bytes * 8 / Mbit/s = us */
	int n, i, j, d, c, best, tries, nf = 0, cap = 4096;
	struct host *h = all_hosts(t, &n);
	struct ws_flow *f = calloc(cap, sizeof(*f));

	if (n < 2)
		die("failed to generate websearch: %s has %d hosts", t->name, n);
	if (!f)
		die("failed to allocate flows: out of memory");
	for (i = 0; i < n; i++) {
		double at = 0;

		for (;;) {
			long long sz;
			double end;

			at += -log(unit_random()) * gap_us;
			if (at >= o->duration_us)
				break;
			sz = (long long)(websearch_size() * scale + 0.5);
			if (sz < 1)
				sz = 1;
			/* busy while it would take alone at the link's rate */
			end = at + sz * 8 / o->rate;
			for (tries = 0, d = -1, best = n + 1; tries < 100; tries++) {
				j = random() % n;
				if (j == i)
					continue;
				c = ws_senders(f, nf, j, i, at, end);
				if (c < best)
					best = c, d = j;
				if (c < o->max_senders)
					break;
			}
			if (d < 0)
				d = (i + 1) % n;
			if (nf == cap) {
				cap *= 2;
				f = realloc(f, cap * sizeof(*f));
				if (!f)
					die("failed to allocate flows: out of memory");
			}
			f[nf].start = at, f[nf].end = end, f[nf].src = i, f[nf].dst = d, nf++;
			print_host_flow((long)at, &h[i], &h[d], sz, "websearch");
		}
	}
	free(f);
	free(h);
}

static const char *const scenarios[] = {
	"motivational", "permutation", "adversarial", "incast", "allreduce-ring",
	"allreduce-butterfly", "alltoall", "websearch",
};

static double parse_pos(const char *opt, const char *arg, double max)
{
	char *end;
	double v = strtod(arg, &end);

	if (*end || !(v > 0) || v > max)
		die("failed to parse --%s \"%s\": not a number in (0, %g]", opt, arg, max);
	return v;
}

static long parse_long(const char *opt, const char *arg, long min, long max)
{
	char *end;
	long v = strtol(arg, &end, 0);

	if (*end || !*arg || v < min || v > max)
		die("failed to parse --%s \"%s\": not a number in %ld..%ld", opt, arg, min, max);
	return v;
}

static int cmd_gen(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "scenario", required_argument, NULL, 'S' },
		{ "size", required_argument, NULL, 'z' },
		{ "seed", required_argument, NULL, 's' },
		{ "per-host", required_argument, NULL, 'p' },
		{ "start", required_argument, NULL, 't' },
		{ "members", required_argument, NULL, 'm' },
		{ "parallel", required_argument, NULL, 'P' },
		{ "round", required_argument, NULL, 'r' },
		{ "rate", required_argument, NULL, 'R' },
		{ "load", required_argument, NULL, 'l' },
		{ "duration", required_argument, NULL, 'd' },
		{ "max-senders", required_argument, NULL, 'x' },
		{}
	};
	struct gen_opts o = { .per_host = 1, .start_us = 200000, .parallel = 4, .rate = 4,
			      .load = 1.0, .duration_us = 1000000, .max_senders = 4 };
	const char *sc = NULL;
	unsigned long seed = 1;
	struct spritz_topo *t;
	char err[512] = "", *end;
	size_t i;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'S': sc = optarg; break;
		case 'z':
			o.size = strtoll(optarg, &end, 0);
			if (*end || o.size <= 0)
				die("failed to parse --size \"%s\": not a positive byte count", optarg);
			break;
		case 's':
			seed = strtoul(optarg, &end, 0);
			if (*end)
				die("failed to parse --seed \"%s\": not a number", optarg);
			break;
		case 'p': o.per_host = (int)parse_long("per-host", optarg, 1, 64); break;
		case 't': o.start_us = parse_long("start", optarg, 0, 600000000); break;
		case 'm': o.members = (int)parse_long("members", optarg, 2, FG_MAX_NS); break;
		case 'P': o.parallel = (int)parse_long("parallel", optarg, 1, FG_MAX_NS); break;
		case 'r': o.round_us = parse_long("round", optarg, 0, 600000000); break;
		case 'R': o.rate = parse_pos("rate", optarg, 1e6); break;
		case 'l': o.load = parse_pos("load", optarg, 10); break;
		case 'd': o.duration_us = parse_long("duration", optarg, 1, 600000000); break;
		case 'x': o.max_senders = (int)parse_long("max-senders", optarg, 1, FG_MAX_NS); break;
		default: return 2;
		}
	}
	if (optind != argc - 1 || !sc || !o.size)
		die("usage: flowgen gen TOPO --scenario NAME --size BYTES [--seed N] [--per-host N] "
		    "[--start US] [--members M] [--parallel N] [--round US] [--rate MBIT] "
		    "[--load L] [--duration US] [--max-senders N]");
	for (i = 0; i < ARRAY_SIZE(scenarios) && strcmp(sc, scenarios[i]); i++)
		;
	if (i == ARRAY_SIZE(scenarios))
		die("failed to generate \"%s\": unknown scenario (motivational, permutation, "
		    "adversarial, incast, allreduce-ring, allreduce-butterfly, alltoall, "
		    "websearch)", sc);
	if (spritz_topo_parse(argv[optind], &t, err, sizeof(err)))
		die("failed to parse topology \"%s\": %s", argv[optind], err);
	if (spritz_lab_check(t, err, sizeof(err)))
		die("failed to fit %s in the lab: %s", argv[optind], err);
	srandom(seed);
	if (!strcmp(sc, "motivational"))
		gen_motivational(t, o.size, o.per_host, o.start_us);
	else if (!strncmp(sc, "allreduce", 9) || !strcmp(sc, "alltoall"))
		gen_collective(t, sc, &o);
	else if (!strcmp(sc, "websearch"))
		gen_websearch(t, &o);
	else
		gen_pattern(t, sc, o.size);
	spritz_topo_free(t);
	return 0;
}

/* ------------------------------------------------------------------- run */

static int ns_index(const char *name)
{
	int i;

	for (i = 0; i < nns; i++)
		if (!strcmp(ns_name[i], name))
			return i;
	if (nns == FG_MAX_NS)
		die("failed to add namespace %s: more than %d", name, FG_MAX_NS);
	snprintf(ns_name[nns], sizeof(ns_name[nns]), "%s", name);
	return nns++;
}

/* Address -> namespace from the plan's host lines. */
static int addr_ns(const char *plan, const char *addr, struct sockaddr_storage *sa,
		   socklen_t *len)
{
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)sa;
	struct sockaddr_in *s4 = (struct sockaddr_in *)sa;
	char line[512], ns[64], a6[64], a4[32];
	uint8_t want[16], have[16];
	int v6, found = -1;
	FILE *f;

	memset(sa, 0, sizeof(*sa));
	if (inet_pton(AF_INET6, addr, want) == 1) {
		v6 = 1;
	} else if (inet_pton(AF_INET, addr, want) == 1) {
		v6 = 0;
	} else {
		return -EINVAL;
	}
	f = fopen(plan, "r");
	if (!f)
		die("failed to open plan %s: %s (is the lab fabric up?)", plan, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "host %*d %*d %63s %*d %*s %63s %31s", ns, a6, a4) != 3)
			continue;
		if (v6 && inet_pton(AF_INET6, a6, have) == 1 && !memcmp(have, want, 16))
			found = ns_index(ns);
		if (!v6 && inet_pton(AF_INET, a4, have) == 1 && !memcmp(have, want, 4))
			found = ns_index(ns);
		if (found >= 0)
			break;
	}
	fclose(f);
	if (found < 0)
		return -ENOENT;
	if (v6) {
		s6->sin6_family = AF_INET6;
		memcpy(&s6->sin6_addr, want, 16);
		*len = sizeof(*s6);
	} else {
		s4->sin_family = AF_INET;
		memcpy(&s4->sin_addr, want, 4);
		*len = sizeof(*s4);
	}
	return found;
}

static void read_flows(const char *path, const char *plan)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char line[512], extra[8];
	int lineno = 0, r;

	if (!f)
		die("failed to open flow list %s: %s", path, strerror(errno));
	flows = calloc(FG_MAX_FLOWS, sizeof(*flows));
	if (!flows)
		die("failed to allocate flows: out of memory");
	while (fgets(line, sizeof(line), f)) {
		struct flow *fl = &flows[nflows];
		char *p = line + strspn(line, " \t");

		lineno++;
		if (*p == '#' || *p == '\n' || !*p)
			continue;
		if (nflows == FG_MAX_FLOWS)
			die("failed to read %s: more than %d flows", path, FG_MAX_FLOWS);
		if (sscanf(p, "%ld %63s %63s %lld %31s %7s", &fl->start_us, fl->src, fl->dst,
			   &fl->size, fl->tag, extra) != 5 || fl->start_us < 0 || fl->size <= 0)
			die("failed to parse %s line %d: want START_US SRC DST SIZE TAG", path,
			    lineno);
		r = addr_ns(plan, fl->src, &fl->dst_sa, &fl->dst_len);
		if (r < 0)
			die("failed to map %s line %d: source %s is %s", path, lineno, fl->src,
			    r == -EINVAL ? "not an address" : "no host of the plan");
		fl->src_ns = r;
		r = addr_ns(plan, fl->dst, &fl->dst_sa, &fl->dst_len);
		if (r < 0)
			die("failed to map %s line %d: destination %s is %s", path, lineno,
			    fl->dst, r == -EINVAL ? "not an address" : "no host of the plan");
		fl->dst_ns = r;
		if (fl->src_ns == fl->dst_ns)
			die("failed to parse %s line %d: source and destination are one host",
			    path, lineno);
		nflows++;
	}
	if (f != stdin)
		fclose(f);
	if (!nflows)
		die("failed to read %s: no flows", path);
}

static void enter_ns(int i)
{
	int err = spritz_netns_enter(ns_name[i]);

	if (err)
		die("failed to enter netns %s: %s", ns_name[i], strerror(-err));
}

static int poll_ms(long long until_ns)
{
	long long d = until_ns - now_ns();

	if (d <= 0)
		return 0;
	d = d / 1000000 + 1;
	return d > 1000 ? 1000 : (int)d;
}

/*
 * --stop-tag: the parent sends SIGUSR1 to every child once the tagged
 * flows finished.  Children keep it blocked except inside ppoll(), so it
 * cannot fall between their check of stop_now and the wait.
 */
static volatile sig_atomic_t stop_now;
static sigset_t poll_mask;	/* the mask while waiting: SIGUSR1 open */
static const char *stop_tag;
static int stop_wfd = -1;	/* senders: one byte per tagged flow finished */

static void on_stop(int sig)
{
	(void)sig;
	stop_now = 1;
}

/* Wait for @pfd until @until_ns (at most 1 s); SIGUSR1 ends the wait. */
static int wait_fds(struct pollfd *pfd, int n, long long until_ns)
{
	int ms = poll_ms(until_ns);
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	return ppoll(pfd, n, &ts, &poll_mask);
}

struct rconn {
	int fd;
	unsigned char hdr[FG_HDR];
	int hlen;
	int id;
	long long bytes, t_last;
};

/* One receiver: every flow into namespace ns, until all closed or deadline. */
static void receiver(int ns, int port, int readyfd, FILE *out, long long deadline)
{
	struct sockaddr_in6 sa = { .sin6_family = AF_INET6, .sin6_port = htons(port) };
	static char buf[65536];
	struct rconn *c;
	struct pollfd *pfd;
	int lfd, one = 1, zero = 0, n = 0, i, expected = 0, done = 0;

	enter_ns(ns);
	for (i = 0; i < nflows; i++)
		expected += flows[i].dst_ns == ns;
	c = calloc(expected + 1, sizeof(*c));
	pfd = calloc(expected + 2, sizeof(*pfd));
	if (!c || !pfd)
		die("failed to allocate connections: out of memory");
	lfd = socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (lfd < 0)
		die("%s: failed to create socket: %s", ns_name[ns], strerror(errno));
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(lfd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, 4096))
		die("%s: failed to listen on port %d: %s", ns_name[ns], port, strerror(errno));
	if (write(readyfd, "r", 1) != 1)
		die("failed to signal readiness: %s", strerror(errno));
	close(readyfd);
	while (done < expected && now_ns() < deadline && !stop_now) {
		int np = 0;

		pfd[np].fd = lfd, pfd[np++].events = POLLIN;
		for (i = 0; i < n; i++)
			pfd[np].fd = c[i].fd, pfd[np++].events = c[i].fd >= 0 ? POLLIN : 0;
		if (wait_fds(pfd, np, deadline) < 0) {
			if (errno != EINTR)
				die("%s: failed to poll: %s", ns_name[ns], strerror(errno));
			continue;
		}
		if (pfd[0].revents & POLLIN) {
			int fd;

			while ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
				if (n == expected) {	/* not ours */
					close(fd);
					continue;
				}
				c[n].fd = fd, c[n].id = -1;
				n++;
			}
		}
		for (i = 0; i < n; i++) {
			ssize_t r;

			if (c[i].fd < 0 || !(pfd[i + 1].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			while ((r = read(c[i].fd, buf, sizeof(buf))) > 0) {
				long long t = now_ns();
				ssize_t off = 0;

				if (c[i].hlen < FG_HDR) {
					off = FG_HDR - c[i].hlen < r ? FG_HDR - c[i].hlen : r;
					memcpy(c[i].hdr + c[i].hlen, buf, off);
					c[i].hlen += off;
					if (c[i].hlen == FG_HDR) {
						uint32_t id;

						memcpy(&id, c[i].hdr, 4);
						c[i].id = (int)ntohl(id);
					}
				}
				c[i].bytes += r - off;
				if (r > off)
					c[i].t_last = t;
			}
			if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
				if (c[i].id >= 0)
					fprintf(out, "R %d %lld %lld %d\n", c[i].id, c[i].bytes,
						c[i].t_last, r == 0);
				close(c[i].fd);
				c[i].fd = -1;
				done++;
			}
		}
	}
	for (i = 0; i < n; i++)
		if (c[i].fd >= 0 && c[i].id >= 0)
			fprintf(out, "R %d %lld %lld 0\n", c[i].id, c[i].bytes, c[i].t_last);
	fflush(out);
	exit(0);
}

/* A sender's flow: WAIT for its start, CONNECTING, SENDING, waiting for the EOF, DONE or FAILED. */
enum { SF_WAIT, SF_CONNECTING, SF_SENDING, SF_EOF_WAIT, SF_DONE, SF_FAILED };

struct sflow {
	int id, fd, state;
	long long sent, total;
	long long t_start;
};

static void report_sender(FILE *out, struct sflow *f, const char *err)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);
	unsigned int retrans = 0;
	int state = -1;

	memset(&ti, 0, sizeof(ti));
	if (f->fd >= 0 && !getsockopt(f->fd, IPPROTO_TCP, TCP_INFO, &ti, &len)) {
		retrans = ti.tcpi_total_retrans;
		state = ti.tcpi_state;
	}
	fprintf(out, "S %d %lld %u %d %d %s\n", f->id, f->t_start, retrans, f->state == SF_DONE,
		state, err ? err : "-");
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

/* End @f in @state and report it, with @err as its error (NULL: none). */
static void sflow_end(FILE *out, struct sflow *f, int state, const char *err)
{
	f->state = state;
	report_sender(out, f, err);
}

/* A failed connect as "connect:<strerror>", one word (the report's last field). */
static void sflow_connect_failed(FILE *out, struct sflow *f, int err)
{
	char m[96];

	snprintf(m, sizeof(m), "connect:%s", strerror(err));
	for (char *p = m; *p; p++)
		if (*p == ' ')
			*p = '_';
	sflow_end(out, f, SF_FAILED, m);
}

/* Open @f's non-blocking connection (its start time has come). */
static void sflow_connect(int ns, FILE *out, struct sflow *f)
{
	const struct flow *fl = &flows[f->id];

	f->fd = socket(fl->dst_sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (f->fd < 0)
		die("%s: failed to create socket: %s", ns_name[ns], strerror(errno));
	f->t_start = now_ns();
	f->state = SF_CONNECTING;
	if (connect(f->fd, (const struct sockaddr *)&fl->dst_sa, fl->dst_len) &&
	    errno != EINPROGRESS)
		sflow_connect_failed(out, f, errno);
}

/* Write @f's header and payload until the socket is full; shut down when all is sent. */
static void sflow_write(FILE *out, struct sflow *f)
{
	static const char zero[65536];

	while (f->state == SF_SENDING) {
		unsigned char hdr[FG_HDR] = {};
		const void *p = zero;
		size_t len;
		ssize_t w;

		if (f->sent < FG_HDR) {
			uint32_t id = htonl(f->id);
			uint64_t sz = flows[f->id].size;

			memcpy(hdr, &id, 4);
			memcpy(hdr + 8, &sz, 8);
			p = hdr + f->sent;
			len = FG_HDR - f->sent;
		} else {
			len = sizeof(zero);
			if (f->total - f->sent < (long long)len)
				len = f->total - f->sent;
		}
		w = send(f->fd, p, len, MSG_NOSIGNAL);
		if (w < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				sflow_end(out, f, SF_FAILED, "send_failed");
			return;
		}
		f->sent += w;
		if (f->sent == f->total) {
			shutdown(f->fd, SHUT_WR);
			f->state = SF_EOF_WAIT;
		}
	}
}

/*
 * The receiver's EOF, or a failed read, ends @f: everything was sent, and
 * whether it all arrived is the receiver's report.  A tagged flow may stop
 * the run.
 */
static void sflow_read_eof(FILE *out, struct sflow *f)
{
	char b[256];
	ssize_t r = read(f->fd, b, sizeof(b));

	if (r > 0 || (r < 0 && errno == EAGAIN))
		return;
	sflow_end(out, f, SF_DONE, r == 0 ? NULL : "read_failed");
	if (r == 0 && stop_tag && !strcmp(flows[f->id].tag, stop_tag) &&
	    write(stop_wfd, "s", 1) != 1)
		die("failed to signal a finished flow: %s", strerror(errno));
}

/* One poll event of @f: its connect's result, room to write, or the EOF. */
static void sflow_event(FILE *out, struct sflow *f, short revents)
{
	if (f->state == SF_CONNECTING) {
		int e = 0;
		socklen_t el = sizeof(e);

		getsockopt(f->fd, SOL_SOCKET, SO_ERROR, &e, &el);
		if (e) {
			sflow_connect_failed(out, f, e);
			return;
		}
		f->state = SF_SENDING;
	}
	sflow_write(out, f);
	if (f->state == SF_EOF_WAIT && (revents & (POLLIN | POLLHUP | POLLERR)))
		sflow_read_eof(out, f);
}

/* Start every flow whose time has come; the next start time, or @next. */
static long long sflows_start(int ns, FILE *out, struct sflow *s, int n, long long t0,
			      long long next)
{
	long long t = now_ns();
	int i;

	for (i = 0; i < n; i++) {
		long long at = t0 + flows[s[i].id].start_us * 1000LL;

		if (s[i].state != SF_WAIT)
			continue;
		if (at > t) {
			if (at < next)
				next = at;
			continue;
		}
		sflow_connect(ns, out, &s[i]);
	}
	return next;
}

/* One sender: every flow out of namespace ns, each at t0 + start. */
static void sender(int ns, long long t0, FILE *out, long long deadline)
{
	struct sflow *s;
	struct pollfd *pfd;
	int n = 0, i;

	enter_ns(ns);
	signal(SIGPIPE, SIG_IGN);
	for (i = 0; i < nflows; i++)
		n += flows[i].src_ns == ns;
	s = calloc(n, sizeof(*s));
	pfd = calloc(n, sizeof(*pfd));
	if (!s || !pfd)
		die("failed to allocate flows: out of memory");
	n = 0;
	for (i = 0; i < nflows; i++)
		if (flows[i].src_ns == ns) {
			s[n].id = i, s[n].fd = -1;
			s[n].total = FG_HDR + flows[i].size;
			n++;
		}
	for (;;) {
		long long next;
		int active = 0;

		for (i = 0; i < n; i++)
			active += s[i].state < SF_DONE;
		if (!active || now_ns() >= deadline || stop_now)
			break;
		next = sflows_start(ns, out, s, n, t0, deadline);
		for (i = 0; i < n; i++) {
			short ev = s[i].state == SF_CONNECTING || s[i].state == SF_SENDING ? POLLOUT :
				   s[i].state == SF_EOF_WAIT ? POLLIN : 0;

			pfd[i].fd = ev ? s[i].fd : -1;
			pfd[i].events = ev;
			pfd[i].revents = 0;
		}
		if (wait_fds(pfd, n, next) < 0) {
			if (errno != EINTR)
				die("%s: failed to poll: %s", ns_name[ns], strerror(errno));
			continue;
		}
		for (i = 0; i < n; i++)
			if (pfd[i].revents)
				sflow_event(out, &s[i], pfd[i].revents);
	}
	for (i = 0; i < n; i++)
		if (s[i].state < SF_DONE)
			report_sender(out, &s[i], s[i].state == SF_WAIT ? "not_started" :
						  stop_now ? "stopped" : "deadline");
	fflush(out);
	exit(0);
}

/* The name of TCP state @st (tcpi_state) for the results, NULL if none. */
static const char *tcp_state_name(int st)
{
	static const char *const names[] = {
		[TCP_ESTABLISHED] = "established", [TCP_SYN_SENT] = "syn_sent",
		[TCP_SYN_RECV] = "syn_recv",	   [TCP_FIN_WAIT1] = "fin_wait1",
		[TCP_FIN_WAIT2] = "fin_wait2",	   [TCP_TIME_WAIT] = "time_wait",
		[TCP_CLOSE] = "close",		   [TCP_CLOSE_WAIT] = "close_wait",
		[TCP_LAST_ACK] = "last_ack",	   [TCP_LISTEN] = "listen",
		[TCP_CLOSING] = "closing",
	};

	return st > 0 && st < (int)(sizeof(names) / sizeof(names[0])) ? names[st] : NULL;
}

static void collect(FILE *f)
{
	char line[256], err[96];
	long long a, b;
	unsigned int u;
	int id, x, ts;

	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "R %d %lld %lld %d", &id, &a, &b, &x) == 4 && id >= 0 &&
		    id < nflows) {
			flows[id].rx_bytes = a;
			flows[id].t_end = b;
			flows[id].rx_eof = x;
		} else if (sscanf(line, "S %d %lld %u %d %d %95s", &id, &a, &u, &x, &ts, err) == 6 &&
			   id >= 0 && id < nflows) {
			flows[id].t_start = a;
			flows[id].tcp_state = ts;
			flows[id].started = a > 0;
			flows[id].retrans = u;
			flows[id].tx_done = x;
			if (strcmp(err, "-"))
				snprintf(flows[id].err, sizeof(flows[id].err), "%s", err);
		}
	}
	fclose(f);
}

/* SIGUSR1 ends the children's runs (on_stop()); blocked outside ppoll(). */
static void stop_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop };
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &block, &poll_mask) || sigaction(SIGUSR1, &sa, NULL))
		die("failed to set up SIGUSR1: %s", strerror(errno));
	sigdelset(&poll_mask, SIGUSR1);
}

/*
 * Parent: read a byte from @fd per tagged flow that finished; once all
 * @nstop did before @deadline, the time they did, else 0 (the run goes
 * to its deadline; also when every sender exited first).
 */
static long long wait_stop(int fd, int nstop, long long deadline)
{
	int got = 0;

	while (nstop && got < nstop && now_ns() < deadline) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r = poll(&p, 1, poll_ms(deadline));
		char b;

		if (r < 0 && errno != EINTR)
			die("failed to poll: %s", strerror(errno));
		if (r <= 0)
			continue;
		if (read(fd, &b, 1) != 1)
			break;
		got++;
	}
	close(fd);
	return nstop && got == nstop ? now_ns() : 0;
}

/*
 * Wait for the @n children @pids (@what: sender or receiver), after
 * SIGUSR1 if the run @stopped, and read their results @res.
 */
static void reap(const pid_t *pids, FILE **res, int n, const char *what, long long stopped)
{
	int i, st;

	for (i = 0; stopped && i < n; i++)
		kill(pids[i], SIGUSR1);
	for (i = 0; i < n; i++) {
		if (waitpid(pids[i], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			die("failed to run: child %d (%s) failed", (int)pids[i], what);
		collect(res[i]);
	}
}

/* Does namespace @ns receive (@as_dst) or send any flow? */
static bool ns_has_flow(int ns, bool as_dst)
{
	int j;

	for (j = 0; j < nflows; j++)
		if ((as_dst ? flows[j].dst_ns : flows[j].src_ns) == ns)
			return true;
	return false;
}

/* Fork a child with its own result file in *@res: 0 in the child, its pid in the parent. */
static pid_t spawn(FILE **res)
{
	pid_t pid;

	*res = tmpfile();
	if (!*res)
		die("failed to create result file: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("failed to fork: %s", strerror(errno));
	return pid;
}

/* Every flow's result and the run's totals, as flowgen run prints them. */
static json_t *run_json(long long t0, long long t_end, int *nfin)
{
	json_t *root, *arr = json_array();
	int i;

	*nfin = 0;
	for (i = 0; i < nflows; i++) {
		struct flow *f = &flows[i];
		int fin = f->started && f->rx_eof && f->tx_done && f->rx_bytes == f->size;
		json_t *o;

		*nfin += fin;
		o = json_pack("{s:i,s:I,s:s,s:s,s:s,s:s,s:I,s:s,s:b,s:I,s:i}", "id", i, "start_us",
			      (json_int_t)f->start_us, "src", f->src, "dst", f->dst, "src_ns",
			      ns_name[f->src_ns], "dst_ns", ns_name[f->dst_ns], "size",
			      (json_int_t)f->size, "tag", f->tag, "finished", fin, "bytes",
			      (json_int_t)f->rx_bytes, "retransmits", (int)f->retrans);
		json_object_set_new(o, "fct_us",
				    fin ? json_integer((f->t_end - f->t_start) / 1000) : json_null());
		if (f->err[0])
			json_object_set_new(o, "error", json_string(f->err));
		if (!fin && f->started && tcp_state_name(f->tcp_state))
			json_object_set_new(o, "tcp_state",
					    json_string(tcp_state_name(f->tcp_state)));
		json_array_append_new(arr, o);
	}
	root = json_pack("{s:I,s:i,s:i,s:o}", "deadline_us", (json_int_t)((t_end - t0) / 1000),
			 "flows_total", nflows, "finished", *nfin, "flows", arr);
	if (stop_tag)
		json_object_set_new(root, "stop_tag", json_string(stop_tag));
	return root;
}

struct run_args {
	const char *plan, *outpath;
	double deadline_s;
	int port;
};

/* flowgen run's options; the flow list's path is argv[optind]. */
static void run_parse(int argc, char **argv, struct run_args *a)
{
	static const struct option opts[] = {
		{ "plan", required_argument, NULL, 'p' },
		{ "port", required_argument, NULL, 'P' },
		{ "deadline", required_argument, NULL, 'd' },
		{ "stop-tag", required_argument, NULL, 't' },
		{ "out", required_argument, NULL, 'o' },
		{}
	};
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'p': a->plan = optarg; break;
		case 'P':
			a->port = strtol(optarg, &end, 0);
			if (*end || a->port <= 0 || a->port > 65535)
				die("failed to parse --port \"%s\": not a port", optarg);
			break;
		case 'd':
			a->deadline_s = strtod(optarg, &end);
			if (*end || a->deadline_s <= 0)
				die("failed to parse --deadline \"%s\": not a positive number of "
				    "seconds", optarg);
			break;
		case 't': stop_tag = optarg; break;
		case 'o': a->outpath = optarg; break;
		default: exit(2);
		}
	}
	if (optind != argc - 1)
		die("usage: flowgen run FLOWS [--plan FILE] [--port P] [--deadline SEC] "
		    "[--stop-tag TAG] [--out FILE]");
}

/* Every flow's destination port is @port. */
static void set_dst_port(int port)
{
	int i;

	for (i = 0; i < nflows; i++) {
		if (flows[i].dst_sa.ss_family == AF_INET6)
			((struct sockaddr_in6 *)&flows[i].dst_sa)->sin6_port = htons(port);
		else
			((struct sockaddr_in *)&flows[i].dst_sa)->sin_port = htons(port);
	}
}

/*
 * One receiver per namespace with a flow to it, into @pids / @res; returns
 * their number once every one listens.
 */
static int start_receivers(int port, pid_t *pids, FILE **res, const int stop[2],
			   long long deadline)
{
	int i, n = 0, ready[2];

	if (pipe(ready))
		die("failed to create pipe: %s", strerror(errno));
	for (i = 0; i < nns; i++) {
		if (!ns_has_flow(i, true))
			continue;
		pids[n] = spawn(&res[n]);
		if (!pids[n]) {
			close(ready[0]);
			close(stop[0]);
			close(stop[1]);
			receiver(i, port, ready[1], res[n], deadline);
		}
		n++;
	}
	close(ready[1]);
	for (i = 0; i < n; i++) {
		char b;

		if (read(ready[0], &b, 1) != 1)
			die("failed to start receivers: %d of %d listen", i, n);
	}
	close(ready[0]);
	return n;
}

/* One sender per namespace with a flow from it; returns their number. */
static int start_senders(long long t0, pid_t *pids, FILE **res, const int stop[2],
			 long long deadline)
{
	int i, n = 0;

	for (i = 0; i < nns; i++) {
		if (!ns_has_flow(i, false))
			continue;
		pids[n] = spawn(&res[n]);
		if (!pids[n]) {
			close(stop[0]);
			sender(i, t0, res[n], deadline);
		}
		n++;
	}
	return n;
}

static int cmd_run(int argc, char **argv)
{
	struct run_args a = { .plan = "/run/spritz-lab/plan", .deadline_s = 30, .port = 5001 };
	int i, stop[2], nrx, ntx, nfin, nstop = 0;
	long long t0, deadline, t_end;
	json_t *root;
	pid_t *pids;
	FILE **res;

	run_parse(argc, argv, &a);
	read_flows(argv[optind], a.plan);
	for (i = 0; stop_tag && i < nflows; i++)
		nstop += !strcmp(flows[i].tag, stop_tag);
	if (stop_tag && !nstop)
		die("failed to use --stop-tag %s: no flow has it", stop_tag);
	stop_signals();
	set_dst_port(a.port);
	res = calloc(2 * nns, sizeof(*res));
	pids = calloc(2 * nns, sizeof(*pids));
	if (!res || !pids)
		die("failed to allocate children: out of memory");
	/* Start: after every receiver listens; margin for the fork storm. */
	t0 = now_ns() + 500000000LL + 20000000LL * nns;
	deadline = t0 + (long long)(a.deadline_s * 1e9);
	if (pipe(stop))
		die("failed to create pipe: %s", strerror(errno));
	stop_wfd = stop[1];
	fflush(NULL);
	nrx = start_receivers(a.port, pids, res, stop, deadline);
	ntx = start_senders(t0, pids + nrx, res + nrx, stop, deadline);
	close(stop[1]);
	t_end = wait_stop(stop[0], nstop, deadline);
	/* senders first: a receiver gone would reset their connections, and
	 * a stopped flow would read as a failed send */
	reap(pids + nrx, res + nrx, ntx, "sender", t_end);
	reap(pids, res, nrx, "receiver", t_end);
	if (!t_end)
		t_end = deadline;
	root = run_json(t0, t_end, &nfin);
	if (a.outpath) {
		if (json_dump_file(root, a.outpath, JSON_INDENT(1)))
			die("failed to write %s: %s", a.outpath, strerror(errno));
	} else {
		json_dumpf(root, stdout, JSON_INDENT(1));
		putchar('\n');
	}
	json_decref(root);
	fprintf(stderr, "flowgen: %d flows, %d finished\n", nflows, nfin);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "gen"))
		return cmd_gen(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	die("usage: flowgen gen|run ... (lab/flowgen.c, Documentation/lab.rst)");
}
