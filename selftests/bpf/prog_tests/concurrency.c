// SPDX-License-Identifier: GPL-2.0-only
/*
 * Table replace while another CPU picks (design-kmod.rst, "RCU").
 *
 * Two tables with the same destinations and disjoint EV sets: in table A
 * every path has EV2 = 1 and latency class 1, in table B EV2 = 2 and class
 * 2, and A has 5 paths per destination where B has 9.  One thread (CPU 0)
 * loads A and B alternately, and dumps in between; another (CPU 1) runs
 * the pick program (1000 picks per run, each its own kfunc call) and
 * reports timeouts so that disable work races with table frees.
 *
 * "No pick from a mixed table", operationally: every pick succeeds and
 * returns an (EV, class) pair that one complete table holds for that
 * destination - EV2 equal to the class, EV1 below that table's path count
 * - and every dump shows one generation and one table's EVs only.
 * Replacements are counted, and picks must have seen both tables.
 */
#include <pthread.h>
#include <sched.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <spritz/knobs.h>

#include "kmod_util.h"
#include "pick.skel.h"
#include "test.h"

#define NSW 8
#define NDST 4
#define SECONDS 4

static struct pick *skel;
static volatile int stop;
static unsigned char pkt[64] = { [12] = 0x86, [13] = 0xdd };

static struct spritz_nl_path pa[NDST][5], pb[NDST][9];
static struct spritz_nl_dest ta[NDST], tb[NDST];

struct result {
	long replaces, dumps, bad_dumps, errors;
	long runs, picks, bad, switches, pick_errors, foreign;
};

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % (int)sysconf(_SC_NPROCESSORS_ONLN), &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Every destination of one dump from one table: same tag, generation. */
static bool dump_consistent(const struct dump_copy *c)
{
	int i, tag = -1;
	uint32_t j, gen = c->n ? c->d[0].generation : 0;

	if (c->n != NDST)
		return false;
	for (i = 0; i < c->n; i++) {
		if (c->d[i].generation != gen)
			return false;
		for (j = 0; j < c->d[i].npaths; j++) {
			int t = SPRITZ_EV2(c->d[i].paths[j].ev);

			if (tag < 0)
				tag = t;
			if (t != tag)
				return false;
		}
		if (c->d[i].npaths != (tag == 1 ? 5u : 9u))
			return false;
	}
	return true;
}

static void *replacer(void *arg)
{
	struct result *r = arg;
	struct dump_copy c = { 0 };
	struct spritz_nl *nl;
	char err[256];

	pin(0);
	if (spritz_nl_open(&nl, err, sizeof(err))) {
		r->errors++;
		return NULL;
	}
	while (!stop) {
		if (spritz_nl_load(nl, 0, NSW, r->replaces & 1 ? tb : ta, NDST, err, sizeof(err))) {
			printf("# load: %s\n", err);
			r->errors++;
			break;
		}
		r->replaces++;
		if (r->replaces % 4 == 0) {
			if (dump_table(nl, &c))
				r->errors++;
			else if (!dump_consistent(&c))
				r->bad_dumps++;
			r->dumps++;
		}
	}
	dump_copy_free(&c);
	spritz_nl_close(nl);
	return NULL;
}

static void *picker(void *arg)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = 20);
	LIBBPF_OPTS(bpf_test_run_opts, topts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = 1);
	struct result *r = arg;
	uint32_t ev;

	pin(1);
	skel->bss->check_tag = 1;
	while (!stop) {
		skel->bss->dst = 1 + r->runs % NDST;
		if (bpf_prog_test_run_opts(bpf_program__fd(skel->progs.pick), &opts)) {
			r->pick_errors++;
			break;
		}
		r->runs++;
		/* a timeout on some path of either table: disable work races frees */
		skel->bss->ev = SPRITZ_EV(r->runs % 5, 1 + r->runs % 2);
		bpf_prog_test_run_opts(bpf_program__fd(skel->progs.timeout), &topts);
	}
	r->picks = skel->bss->picks;
	r->bad = skel->bss->bad;
	r->switches = skel->bss->switches;
	r->pick_errors += skel->bss->errors;
	/* every EV ever returned belongs to A or B (any destination) */
	for (ev = 0; ev < 65536; ev++) {
		if (!skel->bss->hist[ev])
			continue;
		if (!((SPRITZ_EV2(ev) == 1 && SPRITZ_EV1(ev) < 5) ||
		      (SPRITZ_EV2(ev) == 2 && SPRITZ_EV1(ev) < 9)))
			r->foreign += skel->bss->hist[ev];
	}
	return NULL;
}

static void test_replace_while_picking(void)
{
	struct result r = { 0 };
	pthread_t t1, t2;
	int d, j;

	for (d = 0; d < NDST; d++) {
		for (j = 0; j < 5; j++)
			pa[d][j] = (struct spritz_nl_path){ .ev = SPRITZ_EV(j, 1), .lat_class = 1,
							    .base_weight = SPRITZ_WEIGHT_ONE + j };
		for (j = 0; j < 9; j++)
			pb[d][j] = (struct spritz_nl_path){ .ev = SPRITZ_EV(j, 2), .lat_class = 2,
							    .base_weight = SPRITZ_WEIGHT_ONE + j };
		ta[d] = (struct spritz_nl_dest){ .dst = 1 + d, .npaths = 5, .paths = pa[d] };
		tb[d] = (struct spritz_nl_dest){ .dst = 1 + d, .npaths = 9, .paths = pb[d] };
	}
	skel = pick__open_and_load();
	if (!ASSERT_OK_PTR(skel, "pick__open_and_load"))
		return;
	knob_set("disable_ms", 5); /* expiry work runs while tables go */

	/* a table must exist before the picker starts */
	{
		struct spritz_nl *nl;
		char err[256];

		if (!ASSERT_OK(spritz_nl_open(&nl, err, sizeof(err)), "open") ||
		    !ASSERT_OK(spritz_nl_load(nl, 0, NSW, ta, NDST, err, sizeof(err)), "load A"))
			goto out;
		spritz_nl_close(nl);
	}
	pthread_create(&t1, NULL, replacer, &r);
	pthread_create(&t2, NULL, picker, &r);
	sleep(SECONDS);
	stop = 1;
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);

	printf("# %ld replaces, %ld dumps, %ld runs, %ld picks, %ld table switches seen\n",
	       r.replaces, r.dumps, r.runs, r.picks, r.switches);
	ASSERT_EQ(r.errors, 0, "replacer errors");
	ASSERT_EQ(r.pick_errors, 0, "failed picks");
	ASSERT_EQ(r.bad, 0, "picks whose EV and class come from different tables");
	ASSERT_EQ(r.foreign, 0, "picks of EVs no table holds");
	ASSERT_EQ(r.bad_dumps, 0, "mixed dumps");
	ASSERT_GT(r.replaces, 10, "replaces");
	ASSERT_GT(r.picks, 10000, "picks");
	ASSERT_GT(r.switches, 1, "picks saw both tables");
out:
	knob_set("disable_ms", 1000);
	{
		struct spritz_nl *nl;

		if (!spritz_nl_open(&nl, NULL, 0)) {
			spritz_nl_flush(nl, SPRITZ_NL_ALL, NULL, 0);
			spritz_nl_close(nl);
		}
	}
	pick__destroy(skel);
}

static const struct test_case cases[] = {
	{ "replace_while_picking", test_replace_while_picking },
};

TEST_MAIN(cases)
