// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf_spritz_pick() and bpf_spritz_path_timeout() from a tc program under
 * BPF_PROG_TEST_RUN, against a table loaded over netlink:
 *
 *  - 10^6 picks per variant match the weights (Eq. 1 x w_scale, uniform,
 *    min-bias = Alg. 2/3 "w[0] <- min_bias_factor", small-flow) by a
 *    chi-square test at significance 1e-4 (critical value by
 *    Wilson-Hilferty; the kernel RNG is not seeded, so a correct sampler
 *    fails a given test about once in 10^4 runs);
 *  - a pick never returns an EV of its avoid set while another enabled
 *    path exists, and draws the others by their weights;
 *  - a knob write that shapes weights is in effect when it returns;
 *  - a timed-out path is never picked, is disabled for at most
 *    disable_ms as the dump says and comes back (how late is the
 *    machine's load, printed only), a repeated timeout extends the
 *    time (checked with a longer disable_ms, not with a clock) or, after
 *    disable_ms went down, shortens it (back within 30 s, not 1 h); the last
 *    enabled path of a destination is never lost (least recently
 *    disabled comes back);
 *  - a destination keeps min_enabled_pct of its paths enabled: a timeout
 *    past that brings the least recently disabled back first, counted in
 *    sysfs floor_enables (the table of selftests/lib/floor_cases.h, which
 *    sim/tables runs against the simulator's tables);
 *  - a reload (a new COMMIT) keeps the disable and counters of a path it
 *    does not change, and starts a changed one afresh;
 *  - the per-path counters of the dump agree with the picks seen;
 *  - bpf_spritz_knobs() returns what sysfs shows.
 *
 * Runs in the VM as root with spritz.ko inserted.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <spritz/kfuncs.h>
#include <spritz/knobs.h>

#include "floor_cases.h"
#include "kmod_util.h"
#include "pick.skel.h"
#include "test.h"

#define NSW 8
#define NP 8
#define RUNS 1000 /* x PICKS_PER_RUN (1000) = 10^6 picks */

static struct pick *skel;
static struct spritz_nl *nl;
static char err[256];
static unsigned char pkt[64] = { [12] = 0x86, [13] = 0xdd };

/* dst 1: Table I (Dragonfly) latencies; two minimal, two longest. */
static const double lat[NP] = { 583.2, 583.2, 691.4, 799.6, 1166.4, 1274.6, 1491.0, 1491.0 };
static const uint8_t cls[NP] = { 0, 0, 1, 2, 3, 4, 5, 5 };
static struct spritz_nl_path p1[NP];
/* dst 2: two paths; dst 3: one path */
static struct spritz_nl_path p2[2] = {
	{ .ev = SPRITZ_EV(0, SPRITZ_EV2_UNUSED), .lat_class = 0, .base_weight = 2 * SPRITZ_WEIGHT_ONE },
	{ .ev = SPRITZ_EV(1, 3), .lat_class = 1, .base_weight = SPRITZ_WEIGHT_ONE },
};
static struct spritz_nl_path p3[1] = {
	{ .ev = SPRITZ_EV(4, 4), .lat_class = 0, .base_weight = SPRITZ_WEIGHT_ONE },
};

/*
 * Run the pick program @runs times on @dst with @flags, avoiding the EVs of
 * @avoid (SPRITZ_AVOID_*), after a reset.
 */
static int run_picks_avoid(uint32_t dst, uint32_t flags, uint64_t avoid, int runs)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = runs);

	memset(skel->bss->hist, 0, sizeof(skel->bss->hist));
	skel->bss->picks = skel->bss->errors = 0;
	skel->bss->last_err = 0;
	skel->bss->dst = dst;
	skel->bss->flags = flags;
	skel->bss->avoid = avoid;
	return bpf_prog_test_run_opts(bpf_program__fd(skel->progs.pick), &opts);
}

/* Run the pick program @runs times on @dst with @flags, after a reset. */
static int run_picks(uint32_t dst, uint32_t flags, int runs)
{
	return run_picks_avoid(dst, flags, 0, runs);
}

/* The avoid set of the paths @idx of dst 1 (-1 ends the list). */
static uint64_t avoid1(const int *idx)
{
	uint64_t a = 0;

	for (; *idx >= 0; idx++)
		a = spritz_avoid_add(a, p1[*idx].ev);
	return a;
}

/* Report a timeout on (@dst, @ev) through the kfunc; its return value. */
static int timeout(uint32_t dst, uint16_t ev)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = 1);

	skel->bss->dst = dst;
	skel->bss->ev = ev;
	if (bpf_prog_test_run_opts(bpf_program__fd(skel->progs.timeout), &opts))
		return -9999;
	return skel->bss->timeout_ret;
}

/* Load the lists: dst 1 @l1 (NP paths), dst 2 p2, dst 3 p3.  0 or -1. */
static int load_lists(struct spritz_nl_path *l1, const char *what)
{
	struct spritz_nl_dest t[3] = {
		{ .dst = 1, .npaths = NP, .paths = l1 },
		{ .dst = 2, .npaths = 2, .paths = p2 },
		{ .dst = 3, .npaths = 1, .paths = p3 },
	};

	if (ASSERT_OK(spritz_nl_load(nl, 0, NSW, t, 3, err, sizeof(err)), what))
		return 0;
	printf("# %s\n", err);
	return -1;
}

/* Chi-square of the last run's picks on dst 1 against weights @w. */
static bool chi2_ok(const double *w, const char *what)
{
	double obs[NP], p[NP], sum = 0, stat, crit;
	int i, k = 0;

	for (i = 0; i < NP; i++)
		sum += w[i];
	for (i = 0; i < NP; i++) {
		if (w[i] == 0) {
			if (!ASSERT_EQ(skel->bss->hist[p1[i].ev], 0, "zero-weight path picked"))
				return false;
			continue;
		}
		obs[k] = skel->bss->hist[p1[i].ev];
		p[k++] = w[i] / sum;
	}
	stat = chi2_stat(obs, p, k, (double)skel->bss->picks);
	crit = chi2_crit(k - 1, CHI2_Z_1E4);
	printf("# %s: chi2 = %.2f, critical %.2f (dof %d, p = 1e-4), %llu picks\n", what, stat,
	       crit, k - 1, (unsigned long long)skel->bss->picks);
	return ASSERT_LT(stat, crit, what);
}

/* The current weights of dst 1 in the default variant. */
static void weights(double *w, double scale, const bool *disabled)
{
	int i;

	for (i = 0; i < NP; i++) {
		w[i] = p1[i].base_weight;
		if (p1[i].base_weight > SPRITZ_WEIGHT_ONE)
			w[i] *= scale;
		if (disabled && disabled[i])
			w[i] = 0;
	}
}

static void test_setup(void)
{
	int i;

	for (i = 0; i < NP; i++) {
		p1[i].ev = SPRITZ_EV(i, i < 2 ? SPRITZ_EV2_UNUSED : i);
		p1[i].lat_class = cls[i];
		p1[i].base_weight = eq1_weight(lat[NP - 1], lat[i]);
	}
	skel = pick__open_and_load();
	if (!ASSERT_OK_PTR(skel, "pick__open_and_load"))
		return;
	if (!ASSERT_OK(spritz_nl_open(&nl, err, sizeof(err)), "spritz_nl_open"))
		return;
	load_lists(p1, "load");
}

static void test_knobs(void)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = 1);
	const struct spritz_knob_values *k = &skel->bss->knobs;

	ASSERT_OK(knob_set("w_scale", 7), "w_scale = 7");
	ASSERT_OK(bpf_prog_test_run_opts(bpf_program__fd(skel->progs.knobs_snapshot), &opts),
		  "run");
	ASSERT_OK(skel->bss->knobs_ret, "bpf_spritz_knobs");
	ASSERT_EQ(k->algorithm, SPRITZ_ALGO_DEFAULT, "algorithm");
#define CHECK_KNOB(name, def, min, max) ASSERT_EQ(k->name, knob_get(#name), #name);
	SPRITZ_KNOBS(CHECK_KNOB)
#undef CHECK_KNOB
	ASSERT_EQ(k->w_scale, 7, "w_scale seen by BPF");
	/* a weight knob write returns once every sampler is rebuilt */
	ASSERT_OK(knob_set("w_scale", 3), "w_scale = 3");
}

static void test_weighted(void)
{
	struct dump_copy c = { 0 };
	const struct spritz_nl_dest *d;
	double w[NP];
	int i;

	if (!ASSERT_OK(run_picks(1, 0, RUNS), "run"))
		return;
	ASSERT_EQ(skel->bss->errors, 0, "pick errors");
	weights(w, 3, NULL);
	chi2_ok(w, "weighted (Eq. 1, w_scale 3)");
	/* the dump counts the same picks */
	if (ASSERT_OK(dump_table(nl, &c), "dump") && ASSERT_OK_PTR(d = dump_dest(&c, 1), "dst 1"))
		for (i = 0; i < NP; i++)
			ASSERT_EQ(d->paths[i].picks, skel->bss->hist[p1[i].ev], "picks counter");
	dump_copy_free(&c);
}

static void test_uniform(void)
{
	double w[NP];
	int i;

	for (i = 0; i < NP; i++)
		w[i] = 1;
	if (ASSERT_OK(run_picks(1, SPRITZ_PICK_UNIFORM, RUNS), "run"))
		chi2_ok(w, "uniform flag");
	ASSERT_OK(knob_set("weighted", 0), "weighted = 0");
	if (ASSERT_OK(run_picks(1, 0, RUNS), "run"))
		chi2_ok(w, "weighted = 0");
	ASSERT_OK(knob_set("weighted", 1), "weighted = 1");
	ASSERT_OK(knob_set("w_scale", 1), "w_scale = 1");
	weights(w, 1, NULL);
	if (ASSERT_OK(run_picks(1, 0, RUNS), "run"))
		chi2_ok(w, "weighted, w_scale 1");
	ASSERT_OK(knob_set("w_scale", 3), "w_scale = 3");
}

static void test_min_bias(void)
{
	double w[NP], min = 0, f;
	int i;

	f = knob_get("min_bias_factor");
	for (i = 0; i < NP; i++)
		w[i] = cls[i] == 0 ? f : 1;
	if (!ASSERT_OK(run_picks(1, SPRITZ_PICK_MIN_BIAS, RUNS), "run"))
		return;
	chi2_ok(w, "min-bias (class 0 x min_bias_factor)");
	for (i = 0; i < NP; i++)
		if (cls[i] == 0)
			min += skel->bss->hist[p1[i].ev];
	/* 2f/(2f+6) = 0.97 at f = 100, vs 0.39 weighted */
	ASSERT_GT(min * 1000 / skel->bss->picks, 950, "per mille of picks on the minimal paths");
	/* MIN_BIAS with UNIFORM: the min-bias weights still apply */
	if (ASSERT_OK(run_picks(1, SPRITZ_PICK_MIN_BIAS | SPRITZ_PICK_UNIFORM, RUNS), "run"))
		chi2_ok(w, "min-bias | uniform");

	f = knob_get("small_flow_weight");
	for (i = 0; i < NP; i++)
		w[i] = cls[i] == 0 ? f : 1;
	ASSERT_OK(knob_set("small_flow_weight", 10), "small_flow_weight = 10");
	for (i = 0; i < NP; i++)
		w[i] = cls[i] == 0 ? 10 : 1;
	if (ASSERT_OK(run_picks(1, SPRITZ_PICK_SMALL_FLOW, RUNS), "run"))
		chi2_ok(w, "small-flow (class 0 x 10)");
	knob_set("small_flow_weight", SPRITZ_DEF_SMALL_FLOW_WEIGHT);
}

static void test_errors(void)
{
	if (!ASSERT_OK(run_picks(5, 0, 1), "run"))
		return;
	ASSERT_EQ(skel->bss->last_err, -ENOENT, "no list for dst 5");
	ASSERT_OK(run_picks(NSW + 100, 0, 1), "run");
	ASSERT_EQ(skel->bss->last_err, -ENOENT, "dst beyond the fabric");
	ASSERT_OK(run_picks(1, 1U << 7, 1), "run");
	ASSERT_EQ(skel->bss->last_err, -EINVAL, "unknown flag");
	ASSERT_EQ(timeout(1, SPRITZ_EV(9, 9)), -ENOENT, "timeout on an unknown EV");
	ASSERT_EQ(timeout(6, 0), -ENOENT, "timeout on an unknown destination");
}

/*
 * An avoid set (a flow's EVs of its latest lost sends, spritz_fb_avoid()):
 * never picked while another enabled path exists; the others by their
 * weights (chi-square: a pick draws again on an avoided path, and after
 * SPRITZ_PICK_TRIES draws chooses uniformly among the others, exact for
 * uniform picks, under (1/8)^4 of the weighted ones here); all avoided: the
 * enabled ones; a bad set: -EINVAL, nothing counted.
 */
static void test_avoid(void)
{
	static const int a05[] = { 0, 5, -1 }, a7[] = { 7, -1 }, a01[] = { 0, 1, -1 };
	struct dump_copy c = { 0 };
	const struct spritz_nl_dest *d;
	uint64_t before[NP] = { 0 };
	double w[NP];
	int i;

	for (i = 0; i < NP; i++)
		w[i] = i == 0 || i == 5 ? 0 : 1;
	if (ASSERT_OK(run_picks_avoid(1, SPRITZ_PICK_UNIFORM, avoid1(a05), RUNS), "run"))
		chi2_ok(w, "uniform, paths 0 and 5 avoided");
	weights(w, 3, NULL);
	w[7] = 0;
	if (ASSERT_OK(run_picks_avoid(1, 0, avoid1(a7), RUNS), "run"))
		chi2_ok(w, "weighted, path 7 avoided");
	/* both minimal paths, 97 % of the min-bias weight: most draws land
	 * there, and the uniform choice after them takes every other path */
	if (ASSERT_OK(run_picks_avoid(1, SPRITZ_PICK_MIN_BIAS, avoid1(a01), 100), "run")) {
		ASSERT_EQ(skel->bss->errors, 0, "pick errors");
		for (i = 0; i < NP; i++) {
			if (i < 2)
				ASSERT_EQ(skel->bss->hist[p1[i].ev], 0, "avoided minimal path picked");
			else
				ASSERT_GT(skel->bss->hist[p1[i].ev], 0, "a path not avoided, never picked");
		}
	}
	/* dst 2: both paths avoided, both enabled: they are what is left */
	if (ASSERT_OK(run_picks_avoid(2, 0, spritz_avoid_add(spritz_avoid_add(0, p2[0].ev),
							     p2[1].ev), 100), "run")) {
		ASSERT_EQ(skel->bss->errors, 0, "every path avoided: still a pick");
		ASSERT_GT(skel->bss->hist[p2[0].ev], 0, "A");
		ASSERT_GT(skel->bss->hist[p2[1].ev], 0, "B");
	}
	if (ASSERT_OK(run_picks_avoid(3, 0, spritz_avoid_add(0, p3[0].ev), 1), "run"))
		ASSERT_EQ(skel->bss->hist[p3[0].ev], 1000, "the only path, avoided");
	/* a set of four: rejected, nothing counted */
	if (ASSERT_OK(dump_table(nl, &c), "dump") && ASSERT_OK_PTR(d = dump_dest(&c, 1), "dst 1"))
		for (i = 0; i < NP; i++)
			before[i] = d->paths[i].picks;
	dump_copy_free(&c);
	if (ASSERT_OK(run_picks_avoid(1, 0, (uint64_t)4 << 48 | avoid1(a05), 1), "run")) {
		ASSERT_EQ(skel->bss->last_err, -EINVAL, "four EVs");
		ASSERT_EQ(skel->bss->picks, 0, "no pick");
	}
	if (ASSERT_OK(dump_table(nl, &c), "dump") && ASSERT_OK_PTR(d = dump_dest(&c, 1), "dst 1"))
		for (i = 0; i < NP; i++)
			ASSERT_EQ(d->paths[i].picks, before[i], "picks counter unchanged");
	dump_copy_free(&c);
}

/* Picks and timeouts go to the table of the source switch they name. */
static void test_sources(void)
{
	struct spritz_nl_path q[1] = {
		{ .ev = SPRITZ_EV(200, 201), .lat_class = 0, .base_weight = SPRITZ_WEIGHT_ONE },
	};
	struct spritz_nl_dest t = { .dst = 1, .npaths = 1, .paths = q };

	if (!ASSERT_OK(spritz_nl_load(nl, 3, NSW, &t, 1, err, sizeof(err)), "load src 3"))
		printf("# %s\n", err);
	skel->bss->src = 3;
	if (ASSERT_OK(run_picks(1, 0, 10), "run"))
		ASSERT_EQ(skel->bss->hist[q[0].ev], skel->bss->picks, "src 3: its only path");
	ASSERT_EQ(skel->bss->errors, 0, "pick errors");
	ASSERT_EQ(timeout(1, p1[0].ev), -ENOENT, "src 3 has no path of src 0");
	ASSERT_OK(run_picks(2, 0, 1), "run");
	ASSERT_EQ(skel->bss->last_err, -ENOENT, "src 3 has no list for dst 2");
	skel->bss->src = 4;
	ASSERT_OK(run_picks(1, 0, 1), "run");
	ASSERT_EQ(skel->bss->last_err, -ENOENT, "no table for src 4");
	skel->bss->src = 0;
	if (ASSERT_OK(run_picks(1, 0, 10), "run"))
		ASSERT_EQ(skel->bss->hist[q[0].ev], 0, "src 0 never picks src 3's path");
	ASSERT_OK(spritz_nl_flush(nl, 3, err, sizeof(err)), "flush src 3");
}

static void test_disable(void)
{
	struct dump_copy c = { 0 };
	const struct spritz_nl_dest *d;
	static const int a124[] = { 1, 2, 4, -1 };
	bool off[NP] = { [0] = true, [3] = true };
	double w[NP];
	int i;

	/* an hour: still disabled at the dump below however slow the machine */
	ASSERT_OK(knob_set("disable_ms", 3600000), "disable_ms = 1 h");
	ASSERT_EQ(timeout(1, p1[0].ev), 0, "timeout path 0");
	ASSERT_EQ(timeout(1, p1[3].ev), 0, "timeout path 3");
	/* right away: the rebuild may not have happened, pick must skip */
	if (ASSERT_OK(run_picks(1, 0, 100), "run")) {
		ASSERT_EQ(skel->bss->hist[p1[0].ev], 0, "disabled path 0 picked");
		ASSERT_EQ(skel->bss->hist[p1[3].ev], 0, "disabled path 3 picked");
	}
	/*
	 * The disables queued a rebuild; a weight knob write returns after a
	 * rebuild of everything, so after these two it has happened.
	 */
	ASSERT_OK(knob_set("w_scale", 4), "w_scale = 4");
	ASSERT_OK(knob_set("w_scale", 3), "w_scale = 3");
	weights(w, 3, off);
	if (ASSERT_OK(run_picks(1, 0, RUNS), "run"))
		chi2_ok(w, "weighted, paths 0 and 3 disabled");
	if (ASSERT_OK(run_picks(1, SPRITZ_PICK_MIN_BIAS, RUNS), "run")) {
		ASSERT_EQ(skel->bss->hist[p1[0].ev], 0, "disabled path 0 picked (min-bias)");
		ASSERT_EQ(skel->bss->hist[p1[3].ev], 0, "disabled path 3 picked (min-bias)");
	}
	/* disabled and avoided paths together: the rest only */
	if (ASSERT_OK(run_picks_avoid(1, SPRITZ_PICK_UNIFORM, avoid1(a124), 100), "run")) {
		for (i = 0; i < NP; i++) {
			if (i < 5)
				ASSERT_EQ(skel->bss->hist[p1[i].ev], 0, "disabled or avoided, picked");
			else
				ASSERT_GT(skel->bss->hist[p1[i].ev], 0, "enabled, not avoided, never picked");
		}
	}
	if (ASSERT_OK(dump_table(nl, &c), "dump") && ASSERT_OK_PTR(d = dump_dest(&c, 1), "dst 1")) {
		ASSERT_EQ(d->paths[0].weight, 0, "weight 0 while disabled");
		/* the knob's time, counting down; not the default's */
		ASSERT_GT(d->paths[0].disabled_ms, SPRITZ_DEF_DISABLE_MS, "disabled_ms");
		ASSERT_LE(d->paths[0].disabled_ms, 3600000, "disabled_ms");
		ASSERT_EQ(d->paths[0].timeouts, 1, "timeouts");
		ASSERT_EQ(d->paths[0].disables, 1, "disables");
		ASSERT_EQ(d->paths[1].disables, 0, "others untouched");
	}
	dump_copy_free(&c);
}

static void test_last_path(void)
{
	struct dump_copy c = { 0 };
	const struct spritz_nl_dest *d;

	/* dst 2: disable A, then B: A (least recently disabled) comes back */
	ASSERT_EQ(timeout(2, p2[0].ev), 0, "timeout A");
	ASSERT_EQ(timeout(2, p2[1].ev), 0, "timeout B");
	if (ASSERT_OK(dump_table(nl, &c), "dump") && ASSERT_OK_PTR(d = dump_dest(&c, 2), "dst 2")) {
		ASSERT_EQ(d->paths[0].disabled_ms, 0, "A back");
		ASSERT_GT(d->paths[1].disabled_ms, 0, "B disabled");
	}
	if (ASSERT_OK(run_picks(2, 0, 100), "run")) {
		ASSERT_EQ(skel->bss->errors, 0, "destination reachable");
		ASSERT_EQ(skel->bss->hist[p2[1].ev], 0, "B never picked");
	}
	ASSERT_EQ(timeout(2, p2[0].ev), 0, "timeout A again");
	if (ASSERT_OK(run_picks(2, 0, 100), "run")) {
		ASSERT_EQ(skel->bss->errors, 0, "destination reachable");
		ASSERT_EQ(skel->bss->hist[p2[0].ev], 0, "A never picked");
	}
	/* dst 3: a single path is never disabled */
	ASSERT_EQ(timeout(3, p3[0].ev), SPRITZ_TIMEOUT_KEPT, "timeout on the only path: kept");
	if (ASSERT_OK(run_picks(3, 0, 10), "run"))
		ASSERT_EQ(skel->bss->hist[p3[0].ev], 10 * 1000, "only path still picked");
	if (ASSERT_OK(dump_table(nl, &c), "dump") && ASSERT_OK_PTR(d = dump_dest(&c, 3), "dst 3")) {
		ASSERT_EQ(d->paths[0].timeouts, 1, "timeout counted");
		ASSERT_EQ(d->paths[0].disables, 0, "not disabled");
	}
	dump_copy_free(&c);
}

/* ms from now until path @i of dst 1 is enabled again (poll the dump). */
static double time_to_enable(int i, double t0, double limit)
{
	struct dump_copy c = { 0 };
	const struct spritz_nl_dest *d;
	double t;

	while ((t = now_ms()) - t0 < limit) {
		if (dump_table(nl, &c))
			break;
		d = dump_dest(&c, 1);
		if (d && d->paths[i].disabled_ms == 0 && d->paths[i].weight != 0) {
			dump_copy_free(&c);
			return t - t0;
		}
		usleep(2000);
	}
	dump_copy_free(&c);
	return -1;
}

/* Path @i of dst 1 in a fresh dump (into @c), or NULL. */
static const struct spritz_nl_path *dump_path1(struct dump_copy *c, int i)
{
	const struct spritz_nl_dest *d;

	dump_copy_free(c);
	if (dump_table(nl, c) || !(d = dump_dest(c, 1)))
		return NULL;
	return &d->paths[i];
}

static void test_timer(void)
{
	const struct spritz_nl_path *p;
	struct dump_copy c = { 0 };
	double t0, t;

	/* long enough that the dump below comes before the path is back */
	ASSERT_OK(knob_set("disable_ms", 2000), "disable_ms = 2 s");
	t0 = now_ms();
	ASSERT_EQ(timeout(1, p1[5].ev), 0, "timeout path 5");
	if (ASSERT_OK_PTR(p = dump_path1(&c, 5), "dump")) {
		ASSERT_GT(p->disabled_ms, 0, "disabled");
		ASSERT_LE(p->disabled_ms, 2000, "for at most disable_ms");
	}
	t = time_to_enable(5, t0, 60000);
	/* how late depends on the machine's load: a bench figure, not a verdict */
	printf("# path back after %.1f ms (disable_ms 2000)\n", t);
	ASSERT_GE(t, 0, "back");

	/* a repeated timeout restarts disable_ms from its own time */
	ASSERT_EQ(timeout(1, p1[6].ev), 0, "timeout path 6");
	ASSERT_OK(knob_set("disable_ms", 3600000), "disable_ms = 1 h");
	ASSERT_EQ(timeout(1, p1[6].ev), 0, "timeout path 6 again");
	if (ASSERT_OK_PTR(p = dump_path1(&c, 6), "dump")) {
		ASSERT_GT(p->disabled_ms, 2000, "extended");
		ASSERT_EQ(p->timeouts, 2, "timeouts");
		ASSERT_EQ(p->disables, 1, "an extension is no new disable");
	}

	/*
	 * A repeated timeout after disable_ms went down: the path comes back
	 * by the new, earlier time, not by the one the work item is armed for.
	 * The weight knob writes run the work item and leave it armed for the
	 * hour of path 4's first timeout.
	 */
	ASSERT_EQ(timeout(1, p1[4].ev), 0, "timeout path 4 (1 h)");
	ASSERT_OK(knob_set("w_scale", 4), "w_scale = 4");
	ASSERT_OK(knob_set("w_scale", 3), "w_scale = 3");
	ASSERT_OK(knob_set("disable_ms", 100), "disable_ms = 100 ms");
	t0 = now_ms();
	ASSERT_EQ(timeout(1, p1[4].ev), 0, "timeout path 4 again (100 ms)");
	t = time_to_enable(4, t0, 30000);
	printf("# path back after %.1f ms (disable_ms 1 h, then 100 ms)\n", t);
	ASSERT_GE(t, 0, "back by the earlier time");
	dump_copy_free(&c);
	knob_set("disable_ms", SPRITZ_DEF_DISABLE_MS);
}

/*
 * A reload: path 0 of dst 1 (disabled for an hour by "disable") is kept
 * and stays disabled with its counters; path 3 (disabled too) changes its
 * weight and starts afresh.  Then the original lists again.
 */
static void test_reload_keeps(void)
{
	struct spritz_nl_path q1[NP];
	const struct spritz_nl_path *p;
	struct dump_copy c = { 0 };

	memcpy(q1, p1, sizeof(q1));
	q1[3].base_weight++;
	load_lists(q1, "reload");
	if (ASSERT_OK_PTR(p = dump_path1(&c, 0), "dump")) {
		ASSERT_GT(p->disabled_ms, SPRITZ_DEF_DISABLE_MS, "unchanged path: still disabled");
		ASSERT_EQ(p->weight, 0, "unchanged path: weight 0");
		ASSERT_EQ(p->timeouts, 1, "unchanged path: timeouts kept");
		ASSERT_EQ(p->disables, 1, "unchanged path: disables kept");
	}
	if (ASSERT_OK_PTR(p = dump_path1(&c, 3), "dump")) {
		ASSERT_EQ(p->disabled_ms, 0, "changed path: enabled");
		ASSERT_EQ(p->disables, 0, "changed path: counters afresh");
	}
	if (ASSERT_OK(run_picks(1, 0, 100), "run"))
		ASSERT_EQ(skel->bss->hist[p1[0].ev], 0, "kept disable: path 0 not picked");
	load_lists(p1, "reload back");
	if (ASSERT_OK_PTR(p = dump_path1(&c, 0), "dump"))
		ASSERT_GT(p->disabled_ms, 0, "still disabled after a second reload");
	dump_copy_free(&c);
}

/*
 * The floor's table on dst 1, its paths afresh (a reload with every weight
 * changed).  Rows 20 ms apart: "least recently disabled" compares jiffies.
 */
static void test_floor(void)
{
	struct spritz_nl_path q1[NP];
	const struct spritz_nl_dest *d;
	struct dump_copy c = { 0 };
	long long fe0 = knob_get("floor_enables"), fe = 0;
	char what[64];
	size_t i;
	int j;

	memcpy(q1, p1, sizeof(q1));
	for (j = 0; j < NP; j++)
		q1[j].base_weight++;
	if (load_lists(q1, "reload afresh"))
		return;
	ASSERT_GE(fe0, 0, "floor_enables readable");
	ASSERT_OK(knob_set("disable_ms", 3600000), "disable_ms = 1 h");
	for (i = 0; i < ARRAY_SIZE(floor_cases); i++) {
		const struct floor_case *r = &floor_cases[i];
		unsigned int mask = 0;

		snprintf(what, sizeof(what), "floor row %zu", i + 1);
		usleep(20000);
		ASSERT_OK(knob_set("min_enabled_pct", r->pct), what);
		ASSERT_EQ(timeout(1, q1[r->path].ev), r->kept ? SPRITZ_TIMEOUT_KEPT : 0, what);
		if (!ASSERT_OK(dump_table(nl, &c), what) ||
		    !ASSERT_OK_PTR(d = dump_dest(&c, 1), what))
			break;
		for (j = 0; j < NP; j++)
			mask |= (d->paths[j].disabled_ms > 0) << j;
		fe += r->floor_enables;
		ASSERT_EQ(mask, r->disabled, what);
		ASSERT_EQ(knob_get("floor_enables") - fe0, fe, what);
	}
	dump_copy_free(&c);
	knob_set("min_enabled_pct", SPRITZ_DEF_MIN_ENABLED_PCT);
	knob_set("disable_ms", SPRITZ_DEF_DISABLE_MS);
	load_lists(p1, "reload back"); /* every path changed back: all enabled */
}

static void test_teardown(void)
{
	if (nl)
		ASSERT_OK(spritz_nl_flush(nl, SPRITZ_NL_ALL, err, sizeof(err)), "flush");
	spritz_nl_close(nl);
	pick__destroy(skel);
	knob_set("w_scale", SPRITZ_DEF_W_SCALE);
}

static const struct test_case cases[] = {
	{ "setup", test_setup },
	{ "knobs", test_knobs },
	{ "weighted", test_weighted },
	{ "uniform", test_uniform },
	{ "min_bias", test_min_bias },
	{ "errors", test_errors },
	{ "avoid", test_avoid },
	{ "sources", test_sources },
	{ "disable", test_disable },
	{ "reload_keeps", test_reload_keeps },
	{ "last_path", test_last_path },
	{ "timer", test_timer },
	{ "floor", test_floor },
	{ "teardown", test_teardown },
};

TEST_MAIN(cases)
