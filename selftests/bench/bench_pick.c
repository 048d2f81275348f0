// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cost of bpf_spritz_pick() (the Spritz send logic's gen(w), paper §V
 * Alg. 1) from a tc program, measured with BPF_PROG_TEST_RUN beside an
 * empty tc program in the same run.  Under qemu TCG absolute times are
 * 10-50x native; the ratio and the difference are what count.
 *
 *   pick_once   one pick per program run      (includes the run overhead)
 *   empty       no pick                       (the run overhead alone)
 *   pick        1000 picks per program run    (per-pick cost, amortised)
 *
 * Needs spritz.ko inserted (selftests/bench/kmod.sh); loads its own table:
 * destination 1 with @npaths paths (default 200, the paper's Dragonfly
 * maximum per destination).  Usage: bench_pick [npaths] [repeat]
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <spritz/knobs.h>

#include "kmod_util.h"
#include "pick.skel.h"

static unsigned char pkt[64] = { [12] = 0x86, [13] = 0xdd };

/* Mean ns per run of @prog over @repeat runs; best of three. */
static double ns_per_run(struct bpf_program *prog, int repeat)
{
	double best = 1e18;
	int i;

	for (i = 0; i < 3; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
			    .repeat = repeat);

		if (bpf_prog_test_run_opts(bpf_program__fd(prog), &opts))
			return -1;
		if (opts.duration < best)
			best = opts.duration;
	}
	return best;
}

int main(int argc, char **argv)
{
	int npaths = argc > 1 ? atoi(argv[1]) : 200, repeat = argc > 2 ? atoi(argv[2]) : 200000;
	struct spritz_nl_path *p;
	struct spritz_nl_dest d;
	struct spritz_nl *nl;
	struct pick *skel;
	double empty, once, many;
	char err[256];
	int i;

	if (npaths < 1 || npaths > SPRITZ_MAX_PATHS || repeat < 1) {
		fprintf(stderr, "usage: bench_pick [npaths 1..%d] [repeat]\n", SPRITZ_MAX_PATHS);
		return 2;
	}
	p = calloc(npaths, sizeof(*p));
	for (i = 0; i < npaths; i++)
		p[i] = (struct spritz_nl_path){ .ev = (uint16_t)i, .lat_class = i % 4,
						.base_weight = SPRITZ_WEIGHT_ONE + i * 97 };
	d = (struct spritz_nl_dest){ .dst = 1, .npaths = npaths, .paths = p };
	if (spritz_nl_open(&nl, err, sizeof(err)) ||
	    spritz_nl_load(nl, 0, 8, &d, 1, err, sizeof(err))) {
		fprintf(stderr, "bench_pick: %s\n", err);
		return 1;
	}
	skel = pick__open_and_load();
	if (!skel) {
		fprintf(stderr, "bench_pick: cannot load the BPF programs (spritz.ko loaded?)\n");
		return 1;
	}
	skel->bss->dst = 1;
	empty = ns_per_run(skel->progs.empty, repeat);
	once = ns_per_run(skel->progs.pick_once, repeat);
	many = ns_per_run(skel->progs.pick, repeat / 1000 + 1) / 1000;
	printf("bench_pick: %d paths, %d runs, best of 3\n", npaths, repeat);
	printf("  empty tc program      %8.1f ns/run\n", empty);
	printf("  one pick per run      %8.1f ns/run   ratio to empty %.2f, pick adds %.1f ns\n",
	       once, once / empty, once - empty);
	printf("  1000 picks per run    %8.1f ns/pick  ratio to empty %.2f\n", many, many / empty);
	spritz_nl_flush(nl, SPRITZ_NL_ALL, NULL, 0);
	spritz_nl_close(nl);
	pick__destroy(skel);
	free(p);
	return 0;
}
