// SPDX-License-Identifier: GPL-2.0-only
/*
 * ns/packet of the tc datapath beside the floor program (parse the same
 * headers, write a constant flow label: selftests/bpf/progs/floor.bpf.c),
 * both under BPF_PROG_TEST_RUN with `repeat`, interleaved in one run.
 * Prints figures and the ratio to the floor (goal: <= 1.5); never fails on
 * a number.  Needs root and spritz.ko (runs in the VM: make bench).
 *
 * The programs are spritz_bench.bpf.o: bpf/spritz.bpf.c plus one store that
 * advances the TCP sequence number after egress, so each repeat is a new
 * data send (not a retransmission).  Cases:
 *
 *   egress tcp6 buffer    Scout steady state: the good-path buffer holds an
 *                         EV (one sample per explore_threshold packets); the
 *                         packet has no time stamp
 *   egress tcp6 stamped   the same, the packet stamped once with a
 *                         CLOCK_MONOTONIC departure time as TCP's are
 *                         (bpf_skb_set_tstamp() in the bench build); egress
 *                         never reads it: the same path
 *   egress tcp6 sample    Scout with an empty buffer: a pick every packet
 *   egress udp4 vxlan     UDP carrier: source port + checksum, a pick every packet
 *   ingress ack idle      an ACK (with timestamps) of a managed flow whose
 *                         sends are all acknowledged, as on the receiving
 *                         end of a transfer: parse, flow lookup, no scan
 *   ingress ack 16 flight the same ACK, now a duplicate, with 16 sends in
 *                         flight (refilled before each round, so none times
 *                         out): option walk, clock, a scan of the whole ring
 *                         that gives no feedback
 *   egress synack kept    a SYN-ACK with Linux's options that no socket sends
 *                         and no flow entry takes (a forwarded server's, or
 *                         a SYN cookie's in a flood): option walk, its
 *                         window scale kept in spritz_synacks
 *
 * With --native it runs on a host without spritz.ko (this machine's own
 * kernel has BPF but no modules): spritz_native.bpf.o is the same program
 * with weak kfuncs (selftests/bpf/progs/spritz_native.bpf.c).  Only the
 * cases that call no kfunc are measured: the buffer case, whose buffer is
 * filled from userspace with the algorithm core (lb.h), and the ACK.
 *
 * --stages also prints, for the stamped egress case and the ACK with 16
 * in flight, the time when the program returns after each stage
 * (SPRITZ_BENCH_STOP() in the bench build): where the time goes.
 *
 * Usage: bench_datapath [--native] [--stages] [REPEAT] (default 200000),
 * env BENCH_ROUNDS (5).
 */
#include "../bpf/datapath_util.h"

#include "floor.skel.h"
#include "spritz_bench.skel.h"
#include "spritz_native.skel.h"

static struct spritz_bench *sk;
static struct spritz_native *sn;
static struct bpf_object *obj; /* sk's or sn's */
static struct floor *fl;

/*
 * Median ns/run of @rounds test runs of @repeat each.  Each round goes on
 * from the packet the previous one left (@p is updated): the bench build
 * advances the TCP sequence number on every egress run, and a round that
 * started from the first packet again would send old sequence - the
 * retransmission path, not the steady state.
 */
static double run_ns_prep(int fd, struct pkt *p, int repeat, int rounds, int (*prep)(void))
{
	double v[16], t;
	int i, j;

	if (rounds > 16)
		rounds = 16;
	for (i = 0; i < rounds; i++) {
		struct pkt o;
		LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = p->b, .data_size_in = p->len,
			    .data_out = o.b, .data_size_out = sizeof(o.b), .repeat = repeat);

		if (prep && prep())
			return -1;
		if (bpf_prog_test_run_opts(fd, &opts))
			return -1;
		v[i] = opts.duration;
		if (opts.data_size_out == p->len)
			memcpy(p->b, o.b, p->len);
	}
	for (i = 1; i < rounds; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
			t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v[rounds / 2];
}

static double run_ns(int fd, struct pkt *p, int repeat, int rounds)
{
	return run_ns_prep(fd, p, repeat, rounds, NULL);
}

static int map_fd(const char *name)
{
	return bpf_map__fd(bpf_object__find_map_by_name(obj, name));
}

/* eg_synack_kept summed over the CPUs (0 if unreadable). */
static __u64 synacks_kept(void)
{
	int ncpu = libbpf_num_possible_cpus(), i;
	struct spritz_stats *all;
	uint32_t zero = 0;
	__u64 n = 0;

	all = ncpu > 0 ? calloc(ncpu, sizeof(*all)) : NULL;
	if (!all)
		return 0;
	if (!bpf_map_lookup_elem(map_fd("spritz_stats"), &zero, all))
		for (i = 0; i < ncpu; i++)
			n += all[i].eg_synack_kept;
	free(all);
	return n;
}

static void reset(void)
{
	struct spritz_flowtab t;
	size_t i;

	if (spritz_flowtab_open(map_fd("spritz_flows"), true, &t))
		return;
	for (i = 0; i < t.n; i++)
		if (spritz_flow_used(&t.slot[i]))
			spritz_flowtab_clear(&t, i);
	spritz_flowtab_close(&t);
}

static int dir_add(const char *addr, int plen, uint32_t dst)
{
	struct spritz_dir_key k = { 0 };
	struct spritz_dir_val v = { .dst_switch = dst };

	if (strchr(addr, ':')) {
		inet_pton(AF_INET6, addr, k.addr);
		k.prefixlen = plen;
	} else {
		k.addr[10] = k.addr[11] = 0xff;
		inet_pton(AF_INET, addr, k.addr + 12);
		k.prefixlen = 96 + plen;
	}
	return bpf_map_update_elem(map_fd("spritz_dir"), &k, &v, BPF_ANY);
}

/* BPF_PROG_TEST_RUN's packets leave from loopback: on switch 0. */
static int dev_add(void)
{
	struct spritz_dev_key k = { .ifindex = 1 };
	struct spritz_dev_val v = { .src_switch = 0 };

	return bpf_map_update_elem(map_fd("spritz_devs"), &k, &v, BPF_ANY);
}

/*
 * Native: no module to pick a path, so put @ev in the good-path buffer of
 * the flow of @s as an ACK would (Alg. 2), with the same algorithm core.
 */
static int buffer_fill(const struct spec *s, uint16_t ev)
{
	struct spritz_flow_key k = { 0 };
	struct spritz_flowtab t;
	struct spritz_lb_cfg cfg;
	long i;

	inet_pton(AF_INET6, s->src ? s->src : LOCAL6, k.saddr);
	inet_pton(AF_INET6, s->dst, k.daddr);
	k.sport = s->sport ? s->sport : 40000;
	k.dport = s->dport ? s->dport : 5201;
	k.proto = 6;
	i = spritz_flowtab_open(map_fd("spritz_flows"), true, &t);
	if (i)
		return (int)i;
	i = spritz_flowtab_find(&t, &k, sn ? &sn->rodata->spritz_flow_hashkey :
					    &sk->rodata->spritz_flow_hashkey);
	if (i >= 0) {
		spritz_lb_cfg_default(&cfg);
		spritz_lb_feedback(&t.slot[i].lb, &cfg, SPRITZ_FB_ACK, ev, 0);
	}
	spritz_flowtab_close(&t);
	return i < 0 ? (int)i : 0;
}

static int eg_fd;

/*
 * A fresh flow with SPRITZ_RING_SIZE data sends in flight (seq 1000 on,
 * 400 bytes each): what an ACK of a flow with a full window scans.
 */
static uint32_t *stage_stop; /* spritz_bench_stop of the object measured */

static int ring_fill(void)
{
	struct spec d = { .dst = DST2_6, .paylen = 400, .flags = 0x18 };
	uint32_t ret, stop = *stage_stop;
	struct pkt p, o;
	int i, e = 0;

	reset();
	/* the sends go through the whole egress program, whatever stage is measured */
	*stage_stop = 0;
	for (i = 0; i < SPRITZ_RING_SIZE && !e; i++) {
		d.seq = 1000 + 400 * i;
		pkt_build(&p, &d);
		e = dp_run(eg_fd, &p, &o, &ret, 0);
	}
	*stage_stop = stop;
	return e ? -1 : 0;
}

/* --stages: SPRITZ_BENCH_STOP(1..N) in bpf/spritz.bpf.c, then the whole program */
#define EG_STAGES 8
static const char *const eg_stage_names[EG_STAGES + 1] = {
	"1 parse, stats entry", "2 flow key",	    "3 flow lookup",
	"4 counters",		"5 knob snapshot",  "6 retransmission check",
	"7 decision",		"8 label, last_ev", "9 ring record (whole)",
};
#define IN_STAGES 5
static const char *const in_stage_names[IN_STAGES + 1] = {
	"1 parse, stats entry",	  "2 flow key",		 "3 flow lookup", "4 ACK fields, options",
	"5 clock, knob snapshot", "6 ring scan (whole)",
};

/*
 * --stages: ns of @n test runs of @fd on @p, returning after stage 1..n
 * (SPRITZ_BENCH_STOP()) into @v[0..n-1]; @whole, the program run through,
 * into @v[n].
 */
static void stages_run(int fd, struct pkt *p, int repeat, int rounds, int (*prep)(void),
		       uint32_t *stop, int n, double whole, double *v)
{
	int i;

	for (i = 1; i <= n; i++) {
		*stop = i;
		v[i - 1] = run_ns_prep(fd, p, repeat, rounds, prep);
	}
	*stop = 0;
	v[n] = whole;
}

static void stages_print(const char *title, const char *const *names, const double *v, int n)
{
	int i;

	printf("%-42s %10s\n", title, "ns");
	for (i = 0; i <= n; i++)
		printf("%-42s %10.1f\n", names[i], v[i]);
}

static void line(const char *name, double s, double f)
{
	printf("%-22s %10.1f %10.1f %8.2f\n", name, s, f, f > 0 ? s / f : 0);
}

int main(int argc, char **argv)
{
	int native = 0, stages = 0, repeat = 200000, a;
	int rounds = getenv("BENCH_ROUNDS") ? atoi(getenv("BENCH_ROUNDS")) : 5;
	struct spec data = { .dst = DST2_6, .seq = 1000, .paylen = 400, .flags = 0x18 };
	uint8_t ts[12] = { 1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2 };
	struct spec ack = { .src = DST2_6, .dst = LOCAL6, .sport = 5201, .dport = 40000,
			    .ack = 1000, .flags = 0x10, .opts = ts, .optlen = 12 };
	struct spec udp = { .v4 = 1, .proto = 17, .paylen = 400 };
	uint8_t synopt[DP_SYN_OPTLEN] = DP_SYN_OPTS(7);
	struct spec synack = { .dst = DST2_6, .sport = 40100, .seq = 5000, .ack = 7000,
			       .flags = 0x12, .opts = synopt, .optlen = DP_SYN_OPTLEN };
	struct spritz_nl *nl = NULL;
	double eg_stage[EG_STAGES + 1], in_stage[IN_STAGES + 1];
	uint32_t *stamp, *stop;
	struct pkt pd, pa, pu, ps, o;
	int eg, in, fp, e;
	uint32_t ret;
	double s, f;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--native"))
			native = 1;
		else if (!strcmp(argv[a], "--stages"))
			stages = 1;
		else if (atoi(argv[a]) > 0)
			repeat = atoi(argv[a]);
		else {
			fprintf(stderr, "usage: bench_datapath [--native] [--stages] [REPEAT]\n");
			return 1;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	libbpf_set_print(NULL);
	fl = floor__open_and_load();
	if (native) {
		sn = spritz_native__open_and_load();
		obj = sn ? sn->obj : NULL;
	} else {
		sk = spritz_bench__open_and_load();
		obj = sk ? sk->obj : NULL;
	}
	if (!fl || !obj) {
		/* a benchmark never fails: say why there is no figure */
		printf("bench_datapath: skipped: cannot load the programs (%s)\n",
		       native ? "root, and a kernel that drops unresolved weak kfunc calls (6.4+)" :
				"root and spritz.ko needed");
		return 0;
	}
	e = native ? 0 : dp_load_table(&nl);
	e = e ?: dir_add("2001:db8:1::", 48, 1) ?: dir_add("2001:db8:2::", 48, 2) ?:
		 dir_add("10.1.0.0", 16, 1) ?: dev_add();
	e = e ?: native ? 0 : knob_set_str("algorithm", "scout");
	if (e) {
		fprintf(stderr, "bench_datapath: setup failed: %d\n", e);
		return 1;
	}
	stamp = native ? &sn->bss->spritz_bench_stamp : &sk->bss->spritz_bench_stamp;
	stop = native ? &sn->bss->spritz_bench_stop : &sk->bss->spritz_bench_stop;
	stage_stop = stop;
	eg = bpf_program__fd(bpf_object__find_program_by_name(obj, "spritz_egress"));
	in = bpf_program__fd(bpf_object__find_program_by_name(obj, "spritz_ingress"));
	fp = bpf_program__fd(fl->progs.floor_prog);
	pkt_build(&pd, &data);
	pkt_build(&pa, &ack);
	pkt_build(&pu, &udp);
	pkt_build(&ps, &synack);

	printf("bench_datapath: %s%d repeats x %d rounds (median), kernel ",
	       native ? "native, no spritz.ko: " : "", repeat, rounds);
	fflush(stdout);
	if (system("uname -r"))
		printf("\n");
	printf("%-22s %10s %10s %8s\n", "case", "spritz ns", "floor ns", "ratio");

	/* Scout steady state: one ACKed send puts an EV in the buffer */
	reset();
	dp_run(eg, &pd, &o, &ret, 0);
	ack.ack = data.seq + data.paylen;
	pkt_build(&pa, &ack);
	dp_run(in, &pa, &o, &ret, 0);
	if (native && buffer_fill(&data, ev_d2[0])) {
		fprintf(stderr, "bench_datapath: no flow state after a send\n");
		return 1;
	}
	s = run_ns(eg, &pd, repeat, rounds);
	f = run_ns(fp, &pd, repeat, rounds);
	line("egress tcp6 buffer", s, f);
	/* the same with the departure time TCP stamps on every packet */
	*stamp = 1;
	s = run_ns(eg, &pd, repeat, rounds);
	if (stages)
		stages_run(eg, &pd, repeat, rounds, NULL, stop, EG_STAGES, s, eg_stage);
	*stamp = 0;
	f = run_ns(fp, &pd, repeat, rounds);
	line("egress tcp6 stamped", s, f);

	/* no ACK yet: Scout's buffer is empty, a pick every packet */
	if (native) {
		printf("%-22s %10s\n", "egress tcp6 sample", "n/a (picks need spritz.ko)");
		printf("%-22s %10s\n", "egress udp4 vxlan", "n/a (picks need spritz.ko)");
	} else {
		reset();
		s = run_ns(eg, &pd, repeat, rounds);
		f = run_ns(fp, &pd, repeat, rounds);
		line("egress tcp6 sample", s, f);

		reset();
		s = run_ns(eg, &pu, repeat, rounds);
		f = run_ns(fp, &pu, repeat, rounds);
		line("egress udp4 vxlan", s, f);
	}

	/* everything acknowledged: the receiving end's case */
	reset();
	pkt_build(&pd, &data);
	dp_run(eg, &pd, &o, &ret, 0);
	ack.ack = data.seq + data.paylen;
	pkt_build(&pa, &ack);
	s = run_ns(in, &pa, repeat, rounds);
	f = run_ns(fp, &pa, repeat, rounds);
	line("ingress ack idle", s, f);

	/* 16 sends in flight, a duplicate ACK covering none: the full scan */
	eg_fd = eg;
	ack.ack = 1000;
	pkt_build(&pa, &ack);
	s = run_ns_prep(in, &pa, repeat, rounds, ring_fill);
	if (stages)
		stages_run(in, &pa, repeat, rounds, ring_fill, stop, IN_STAGES, s, in_stage);
	f = run_ns(fp, &pa, repeat, rounds);
	line("ingress ack 16 flight", s, f);

	/* a forwarded server's SYN-ACK: kept, every repeat (the same flow's) */
	reset();
	s = run_ns(eg, &ps, repeat, rounds);
	f = run_ns(fp, &ps, repeat, rounds);
	line("egress synack kept", s, f);
	if (!synacks_kept())
		printf("# egress synack kept: no SYN-ACK was kept, the figure is not that path's\n");

	if (stages) {
		printf("\nns when returning after each stage (the last line: the whole program)\n");
		stages_print("egress tcp6 stamped, after", eg_stage_names, eg_stage, EG_STAGES);
		stages_print("ingress ack 16 flight, after", in_stage_names, in_stage, IN_STAGES);
	}

	if (nl)
		spritz_nl_flush(nl, SPRITZ_NL_ALL, NULL, 0);
	spritz_nl_close(nl);
	spritz_bench__destroy(sk);
	spritz_native__destroy(sn);
	floor__destroy(fl);
	return 0;
}
