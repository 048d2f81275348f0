// SPDX-License-Identifier: GPL-2.0-only
/*
 * Path table tests (paper §III, Table I, Eq. 1, memory figure): each EV
 * followed hop by hop through the port orders and default routes
 * reproduces its listed path; paths are simple, within the bound and
 * unique; the list is exactly the set of distinct bounded simple paths
 * selectable by (EV1, EV2); every minimal path is present and first;
 * latencies are Table I's; weights follow Eq. 1; memory matches the paper.
 */
#include <errno.h>

#include <spritz/netlink.h>

#include "paths.h"
#include "test.h"
#include "topo_util.h"

#define SEQ_MAX (SPRITZ_PATH_MAX_HOPS + 2)

struct seq {
	int sw[SEQ_MAX];
};

static int cmp_seq(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct seq));
}

/* Route an EV and fill a padded sequence; returns switches or <0. */
static int route(struct spritz_topo *t, int s, int d, uint16_t ev, struct seq *q)
{
	int n, i;

	memset(q, 0xff, sizeof(*q));
	n = spritz_ev_route(t, s, d, ev, q->sw, SEQ_MAX);
	for (i = n < 0 ? 0 : n; i < SEQ_MAX; i++)
		q->sw[i] = -1;
	return n;
}

static bool simple(const struct seq *q, int n)
{
	int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			if (q->sw[i] == q->sw[j])
				return false;
	return true;
}

/* Local/global hops and latency of a switch sequence. */
static void measure(const struct spritz_topo *t, const struct seq *q, int n, int *l, int *g,
		    uint64_t *lat)
{
	int i;

	*l = *g = 0;
	*lat = 0;
	for (i = 0; i + 1 < n; i++) {
		int port = spritz_topo_port_of(t, q->sw[i], q->sw[i + 1]);

		if (port < 0) {
			*lat = 0;
			return;
		}
		if (spritz_topo_port_type(t, q->sw[i], port) == SPRITZ_LINK_LOCAL)
			(*l)++;
		else
			(*g)++;
		*lat += spritz_topo_hop_ps(t, q->sw[i], port);
	}
}

static bool in_bound(const struct spritz_topo *t, int l, int g)
{
	const struct spritz_bound *b = &t->bound;

	return (b->max_hops < 0 || l + g <= b->max_hops) &&
	       (b->max_local < 0 || l <= b->max_local) && (b->max_global < 0 || g <= b->max_global);
}

/* All simple paths s -> d with exactly L local and G global hops (DF) or L+G hops. */
static void dfs_min(const struct spritz_topo *t, struct seq *cur, int len, int d, int L, int G,
		    bool exact, struct seq *out, int *nout, int cap)
{
	int u = cur->sw[len - 1], i, l = 0, g = 0;
	uint64_t lat;

	measure(t, cur, len, &l, &g, &lat);
	if (u == d) {
		if ((exact && l == L && g == G) || (!exact && l + g == L + G)) {
			if (*nout < cap)
				out[*nout] = *cur;
			(*nout)++;
		}
		return;
	}
	if (l + g >= L + G)
		return;
	for (i = 0; i < spritz_topo_degree(t, u); i++) {
		int n = spritz_topo_port_nbr(t, u, i), k;

		for (k = 0; k < len && cur->sw[k] != n; k++)
			;
		if (k < len)
			continue;
		cur->sw[len] = n;
		dfs_min(t, cur, len + 1, d, L, G, exact, out, nout, cap);
		cur->sw[len] = -1;
	}
}

/*
 * Check one list against an independent model.  Returns false after the
 * first failure so a broken build does not print thousands of lines.
 */
static bool check_list(struct spritz_topo *t, int s, int d, const struct spritz_path *p, int n)
{
	static struct seq got[65536], cand[65536], mins[4096];
	int i, j, ncand = 0, nmin = 0, ml, mg, uniq;
	bool df = t->policy == SPRITZ_POLICY_DRAGONFLY, seen_nonmin = false;
	uint64_t longest = spritz_paths_longest(p, n);
	struct seq cur;

	spritz_topo_min_route(t, s, d, &ml, &mg);
	for (i = 0; i < n; i++) {
		int len = route(t, s, d, p[i].ev, &got[i]), l, g, h1, h2;
		uint64_t lat;
		bool minimal = df ? (p[i].local_hops == ml && p[i].global_hops == mg)
				  : (p[i].local_hops + p[i].global_hops == ml + mg);

		if (!ASSERT_GE(len, 2, "EV routes"))
			return false;
		if (!ASSERT_TRUE(got[i].sw[0] == s && got[i].sw[len - 1] == d, "ends"))
			return false;
		if (!ASSERT_TRUE(simple(&got[i], len), "simple"))
			return false;
		measure(t, &got[i], len, &l, &g, &lat);
		if (!ASSERT_EQ(l, p[i].local_hops, "local hops") ||
		    !ASSERT_EQ(g, p[i].global_hops, "global hops") ||
		    !ASSERT_EQ(lat, p[i].latency_ps, "latency") ||
		    !ASSERT_TRUE(in_bound(t, l, g), "within bound"))
			return false;
		spritz_path_hops(t, s, p[i].ev, &h1, &h2);
		if (!ASSERT_EQ(h1, got[i].sw[1], "hop1") ||
		    !ASSERT_EQ(h2, SPRITZ_EV2(p[i].ev) == SPRITZ_EV2_UNUSED ? -1 : got[i].sw[2],
			       "hop2"))
			return false;
		if (!ASSERT_EQ(minimal, spritz_path_minimal(t, s, d, &p[i]), "minimal flag"))
			return false;
		/* sorted: minimal first, then latency, then EV */
		if (!minimal)
			seen_nonmin = true;
		if (!ASSERT_FALSE(minimal && seen_nonmin, "minimal paths first"))
			return false;
		if (i && spritz_path_minimal(t, s, d, &p[i - 1]) == minimal) {
			if (!ASSERT_LE(p[i - 1].latency_ps, p[i].latency_ps, "latency order"))
				return false;
			if (p[i - 1].latency_ps == p[i].latency_ps &&
			    !ASSERT_LT(p[i - 1].ev, p[i].ev, "EV tie-break"))
				return false;
		}
		if (i) {
			bool prev_min = spritz_path_minimal(t, s, d, &p[i - 1]);
			int step = p[i].latency_ps != p[i - 1].latency_ps || minimal != prev_min;

			if (!ASSERT_EQ(p[i].lat_class, p[i - 1].lat_class + step, "latency class"))
				return false;
		}
		/* Eq. 1 */
		if (!ASSERT_NEAR(spritz_weight(p[i].latency_ps, longest, 3),
				 p[i].latency_ps == longest ? 1.0
							    : 3.0 * longest / p[i].latency_ps,
				 1e-12, "Eq. 1 weight"))
			return false;
	}
	if (n && !ASSERT_EQ(p[0].lat_class, 0, "first class"))
		return false;
	/* no two EVs give the same switch sequence */
	qsort(got, n, sizeof(got[0]), cmp_seq);
	for (i = 1; i < n; i++)
		if (!ASSERT_TRUE(cmp_seq(&got[i - 1], &got[i]), "no duplicate paths"))
			return false;
	/* the list is every distinct bounded simple path any (EV1, EV2) selects */
	for (i = 0; i < spritz_topo_degree(t, s); i++) {
		int n1 = spritz_topo_port_nbr(t, s, i);

		for (j = -1; j < spritz_topo_degree(t, n1); j++) {
			uint16_t ev = SPRITZ_EV(i, j < 0 ? SPRITZ_EV2_UNUSED : j);
			int len = route(t, s, d, ev, &cand[ncand]), l, g;
			uint64_t lat;

			if (len < 0 || !simple(&cand[ncand], len))
				continue;
			measure(t, &cand[ncand], len, &l, &g, &lat);
			if (in_bound(t, l, g))
				ncand++;
		}
	}
	qsort(cand, ncand, sizeof(cand[0]), cmp_seq);
	for (i = 0, uniq = 0; i < ncand; i++)
		if (!i || cmp_seq(&cand[i - 1], &cand[i]))
			cand[uniq++] = cand[i];
	if (!ASSERT_EQ(uniq, n, "list = all selectable bounded simple paths"))
		return false;
	for (i = 0; i < n; i++)
		if (!ASSERT_FALSE(cmp_seq(&cand[i], &got[i]), "same path set"))
			return false;
	/* every minimal path (independent DFS) is in the list */
	memset(&cur, 0xff, sizeof(cur));
	cur.sw[0] = s;
	dfs_min(t, &cur, 1, d, ml, mg, df, mins, &nmin, 4096);
	if (!ASSERT_GE(nmin, 1, "a minimal path exists"))
		return false;
	for (i = 0; i < nmin && i < 4096; i++)
		if (!ASSERT_OK_PTR(bsearch(&mins[i], got, n, sizeof(got[0]), cmp_seq),
				   "minimal path present"))
			return false;
	return true;
}

/* Check every list from the given sources. */
static void check_topo(const char *spec, const int *srcs, int nsrc, bool all)
{
	struct spritz_topo *t = load(spec);
	struct spritz_path *buf;
	int k, d, cap;

	if (!t)
		return;
	if (all)
		nsrc = t->nsw;
	cap = t->max_degree * (t->max_degree + 1);
	buf = malloc(sizeof(*buf) * cap);
	for (k = 0; k < nsrc; k++) {
		int s = all ? k : srcs[k];

		for (d = 0; d < t->nsw; d++) {
			int n = spritz_paths_list(t, s, d, buf, cap);

			if (!ASSERT_GE(n, s == d ? 0 : 1, "paths"))
				goto out;
			if (s != d && !check_list(t, s, d, buf, n)) {
				printf("# %s: source %d destination %d\n", spec, s, d);
				goto out;
			}
		}
	}
out:
	free(buf);
	spritz_topo_free(t);
}

static void test_dragonfly_small_all(void)
{
	check_topo("dragonfly:p=2,a=4,h=2", NULL, 0, true);
}

static void test_dragonfly_paper(void)
{
	static const int srcs[] = { 0, 5, 131, 263 };

	check_topo("dragonfly:p=4,a=8,h=4", srcs, 4, false);
}

static void test_slimfly_small_all(void)
{
	check_topo("slimfly:q=5,p=4", NULL, 0, true);
	check_topo("slimfly:q=3,p=2", NULL, 0, true);
}

static void test_slimfly_paper(void)
{
	static const int srcs[] = { 0, 40, 81, 161 };

	check_topo("slimfly:q=9,p=7", srcs, 4, false);
	check_topo("slimfly:q=7,p=6", srcs, 2, false);
}

/* Dragonfly list lengths: a*h to another group, a-1 inside, from every source. */
static void test_dragonfly_counts(void)
{
	struct spritz_topo *t = load("dragonfly:p=4,a=8,h=4");
	int s, d;

	if (!t)
		return;
	for (s = 0; s < t->nsw; s++)
		for (d = 0; d < t->nsw; d++) {
			int want = s == d ? 0 : t->group[s] == t->group[d] ? t->a - 1
									   : t->a * t->h;

			if (!ASSERT_EQ(spritz_paths_count(t, s, d), want, "dragonfly list length"))
				goto out;
		}
out:
	spritz_topo_free(t);
}

struct cat {
	int l, g;
	uint64_t ps;
};

/* Distinct (local, global, latency) over one source's whole table. */
static int categories(const char *spec, int src, struct cat *c, int max)
{
	struct spritz_topo *t = load(spec);
	struct spritz_table *tb;
	size_t i;
	int n = 0, k;

	if (!t || !ASSERT_OK(spritz_table_build(t, src, &tb), "table")) {
		spritz_topo_free(t);
		return 0;
	}
	for (i = 0; i < tb->npaths; i++) {
		const struct spritz_path *p = &tb->paths[i];

		for (k = 0; k < n; k++)
			if (c[k].l == p->local_hops && c[k].g == p->global_hops) {
				ASSERT_EQ(c[k].ps, p->latency_ps, "one latency per category");
				break;
			}
		if (k == n && n < max)
			c[n++] = (struct cat){ p->local_hops, p->global_hops, p->latency_ps };
	}
	spritz_table_free(tb);
	spritz_topo_free(t);
	return n;
}

static void check_table1(const char *spec, int src, const struct cat *exp, int nexp)
{
	struct cat got[64];
	int n = categories(spec, src, got, 64), i, k;

	ASSERT_EQ(n, nexp, "number of path categories");
	for (i = 0; i < nexp; i++) {
		for (k = 0; k < n; k++)
			if (got[k].l == exp[i].l && got[k].g == exp[i].g)
				break;
		if (!ASSERT_LT(k, n, "Table I category observed")) {
			printf("# %s: missing %d local / %d global\n", spec, exp[i].l, exp[i].g);
			continue;
		}
		ASSERT_EQ(got[k].ps, exp[i].ps, "Table I latency");
	}
	for (k = 0; k < n; k++) {
		for (i = 0; i < nexp; i++)
			if (got[k].l == exp[i].l && got[k].g == exp[i].g)
				break;
		if (!ASSERT_LT(i, nexp, "observed category is in Table I"))
			printf("# %s: extra %d local / %d global\n", spec, got[k].l, got[k].g);
	}
}

/* Paper Table I, Dragonfly column, from the evaluation Dragonfly. */
static void test_table1_dragonfly(void)
{
	static const struct cat df[] = {
		{ 1, 0, 108200 }, { 2, 0, 216400 }, { 0, 1, 583200 }, { 1, 1, 691400 },
		{ 2, 1, 799600 }, { 0, 2, 1166400 }, { 1, 2, 1274600 }, { 2, 2, 1382800 },
		{ 3, 2, 1491000 },
	};

	check_table1("dragonfly:p=4,a=8,h=4", 0, df, 9);
	check_table1("dragonfly:p=4,a=8,h=4", 123, df, 9);
}

/* Paper Table I, Slim Fly column, from the evaluation Slim Fly. */
static void test_table1_slimfly(void)
{
	static const struct cat sf[] = {
		{ 1, 0, 108200 }, { 2, 0, 216400 }, { 0, 1, 583200 }, { 1, 1, 691400 },
		{ 0, 2, 1166400 }, { 3, 0, 324600 }, { 4, 0, 432800 }, { 2, 1, 799600 },
		{ 3, 1, 907800 }, { 1, 2, 1274600 }, { 2, 2, 1382800 }, { 0, 3, 1749600 },
		{ 1, 3, 1857800 }, { 0, 4, 2332800 },
	};

	check_table1("slimfly:q=9,p=7", 0, sf, 14);
	check_table1("slimfly:q=9,p=7", 81, sf, 14);
}

/* Eq. 1 with the paper's example and w_scale; uniform = 1. */
static void test_weights(void)
{
	ASSERT_NEAR(spritz_weight(799600, 1491000, 1), 1491.0 / 799.6, 1e-12, "paper example");
	ASSERT_NEAR(spritz_weight(799600, 1491000, 3), 3 * 1491.0 / 799.6, 1e-12, "w_scale 3");
	ASSERT_NEAR(spritz_weight(1491000, 1491000, 3), 1.0, 0, "longest weighs 1");
	ASSERT_NEAR(spritz_weight(108200, 216400, 3), 6.0, 1e-12, "DF same group minimal");
}

/* Paper memory figure: DF a=20,h=10,p=10 and SF q=29,p=22. */
static void test_memory_paper(void)
{
	struct spritz_mem_stats st;
	struct spritz_topo *t;
	int srcs[4], n;

	t = load("dragonfly:p=10,a=20,h=10");
	if (t) {
		n = spritz_memory_default_sources(t, srcs, 2);
		ASSERT_OK(spritz_memory(t, srcs, n, &st), "memory");
		ASSERT_EQ(st.max_paths, 200, "DF at most 200 paths");
		ASSERT_EQ(st.bytes, 3ULL * (4000 * 200 + 19 * 19), "DF bytes");
		ASSERT_NEAR(st.mib, 2.3, 0.05, "DF ~2.3 MiB");
	}
	spritz_topo_free(t);
	t = load("slimfly:q=29,p=22");
	if (t) {
		srcs[0] = 0;
		ASSERT_OK(spritz_memory(t, srcs, 1, &st), "memory");
		ASSERT_EQ(st.max_paths, 1771, "SF switch 0: at most 1771 paths");
		ASSERT_NEAR(st.mib, 8.5, 0.05, "SF ~8.5 MiB");
	}
	spritz_topo_free(t);
}

/*
 * Slim Fly list lengths depend on the source (MMS graphs are not
 * vertex-transitive and the default-route tie-break breaks symmetry
 * further): the default sources are a subset, reported as such.  Over all
 * sources the figures are the max/min over each source alone.
 */
static void test_slimfly_sources(void)
{
	struct spritz_mem_stats all, one, some;
	struct spritz_topo *t = load("slimfly:q=9,p=7");
	int srcs[162], s, n, mx = 0, mn = 1 << 30;
	static const int want[4] = { 0, 10, 81, 91 };
	uint64_t big = 0;

	if (!t)
		return;
	for (s = 0; s < t->nsw; s++) {
		srcs[s] = s;
		ASSERT_OK(spritz_memory(t, &s, 1, &one), "one source");
		mx = one.max_paths > mx ? one.max_paths : mx;
		mn = one.min_paths < mn ? one.min_paths : mn;
		big = one.entries > big ? one.entries : big;
	}
	ASSERT_OK(spritz_memory(t, srcs, t->nsw, &all), "all sources");
	ASSERT_EQ(all.nsources, 162, "sources");
	ASSERT_EQ(all.max_paths, mx, "max over sources");
	ASSERT_EQ(all.min_paths, mn, "min over sources");
	ASSERT_EQ(all.entries, big, "largest table");
	n = spritz_memory_default_sources(t, srcs, 4);
	ASSERT_EQ(n, 4, "four sample sources");
	ASSERT_MEMEQ(srcs, want, sizeof(want), "(0,0,0) (0,1,1) (1,0,0) (1,1,1)");
	ASSERT_OK(spritz_memory(t, srcs, n, &some), "default sources");
	/* the sample sees the true maximum list length (148, not switch 0's 146) */
	ASSERT_EQ(some.max_paths, all.max_paths, "sample max = all-source max");
	ASSERT_GE(some.min_paths, all.min_paths, "subset min");
	ASSERT_LE(some.entries, all.entries, "subset largest table");
	spritz_topo_free(t);
}

static void test_api_errors(void)
{
	struct spritz_topo *t = load("slimfly:q=5,p=4");
	struct spritz_path buf[64];

	if (!t)
		return;
	ASSERT_EQ(spritz_paths_list(t, 0, 0, buf, 64), 0, "src == dst");
	ASSERT_EQ(spritz_paths_list(t, 0, 1, buf, 8), -ENOSPC, "cap too small");
	ASSERT_EQ(spritz_paths_list(t, 0, 50, buf, 64), -EINVAL, "bad dst");
	ASSERT_EQ(spritz_paths_list(t, -1, 1, buf, 64), -EINVAL, "bad src");
	ASSERT_EQ(spritz_ev_route(t, 0, 1, SPRITZ_EV(7, 0), (int[8]){ 0 }, 8), -EINVAL,
		  "EV1 out of range");
	spritz_topo_free(t);
}

/*
 * spritz.ko's base weight: Eq. 1 without w_scale in 16.16 fixed point,
 * rounded to nearest, within 1..UINT32_MAX.  Expected values come from
 * integer arithmetic on each row.  Paths more than 65536 times faster than
 * the longest of their list once overflowed the double to u32 conversion.
 */
static void test_base_weight(void)
{
	static const struct {
		const char *name;
		uint64_t lat, longest;
	} rows[] = {
		{ "longest", 1491000, 1491000 },
		{ "paper example", 799600, 1491000 },
		{ "DF same group minimal", 108200, 216400 },
		{ "4/3 rounds down", 3, 4 },
		{ "5/3 rounds up", 3, 5 },
		{ "zero latency", 0, 7 },
		{ "longer than the longest", 9, 5 },
		{ "65535 x faster", 1, 65535 },
		{ "65536 x faster", 1, 65536 },
		{ "4 ms against 1 ps", 1, 4000000000ULL },
		{ "15 hops of 8 s against 1 ps", 1, 15 * 8000004000000000ULL / 1000 },
	};
	size_t k;

	for (k = 0; k < ARRAY_SIZE(rows); k++) {
		uint64_t lat = rows[k].lat, longest = rows[k].longest;
		unsigned __int128 want;

		if (!lat || lat >= longest)
			want = SPRITZ_WEIGHT_ONE;
		else
			want = ((unsigned __int128)2 * longest * SPRITZ_WEIGHT_ONE + lat) / (2 * lat);
		if (want > UINT32_MAX)
			want = UINT32_MAX;
		ASSERT_EQ(spritz_base_weight(lat, longest), (uint64_t)want, rows[k].name);
	}
}

/*
 * Paths over long links: each row is a fabric, a source and destination,
 * and the neighbour the fastest path starts with.  The list must pass
 * check_list() (latencies summed independently in 64 bits, order, Eq. 1),
 * and weights must fall as latency grows.  A 2 x 2.5 ms path once wrapped
 * to 705 us in 32 bits and outweighed the 1 ms direct link.
 */
static void test_long_links(void)
{
	static const struct {
		const char *name;
		const char *fabric;
		int src, dst, npaths, fastest_hop1;
	} rows[] = {
		{ "2 x 2.5 ms against 1 ms",
		  "switches 3\n"
		  "link 0 1 local latency=1000000\n"
		  "link 0 2 local latency=2500000\n"
		  "link 2 1 local latency=2500000\n",
		  0, 1, 2, 1 },
		{ "3 x (4 ms + 33.28 ms) against 1 ms + 33.28 ms at 1 Mb/s",
		  "switches 4\nspeed 0.001\n"
		  "link 0 1 local latency=1000000\n"
		  "link 0 2 local latency=4000000\n"
		  "link 2 3 local latency=4000000\n"
		  "link 3 1 local latency=4000000\n",
		  0, 1, 2, 1 },
		{ "2 x 4 ms against 4 ms",
		  "switches 3\n"
		  "link 0 1 global latency=4000000\n"
		  "link 0 2 global latency=4000000\n"
		  "link 2 1 global latency=4000000\n",
		  0, 1, 2, 1 },
		{ "2 x 1 ms against 4 ms",
		  "switches 3\n"
		  "link 0 1 global latency=4000000\n"
		  "link 0 2 global latency=1000000\n"
		  "link 2 1 global latency=1000000\n",
		  0, 1, 2, 2 },
	};
	size_t k;

	for (k = 0; k < ARRAY_SIZE(rows); k++) {
		struct spritz_topo *t = NULL;
		struct spritz_path p[16];
		char err[256] = "";
		int n, i, best = 0, h1, h2;
		uint64_t longest;

		if (!ASSERT_OK(spritz_fabric_parse(rows[k].fabric, "inline", &t, err, sizeof(err)),
			       rows[k].name)) {
			printf("# %s\n", err);
			continue;
		}
		n = spritz_paths_list(t, rows[k].src, rows[k].dst, p, 16);
		if (!ASSERT_EQ(n, rows[k].npaths, rows[k].name) ||
		    !check_list(t, rows[k].src, rows[k].dst, p, n)) {
			spritz_topo_free(t);
			continue;
		}
		longest = spritz_paths_longest(p, n);
		for (i = 1; i < n; i++)
			if (p[i].latency_ps < p[best].latency_ps)
				best = i;
		spritz_path_hops(t, rows[k].src, p[best].ev, &h1, &h2);
		ASSERT_EQ(h1, rows[k].fastest_hop1, rows[k].name);
		for (i = 0; i < n; i++) {
			if (i == best)
				continue;
			ASSERT_NEQ(p[i].latency_ps, p[best].latency_ps, "distinct latencies");
			ASSERT_TRUE(spritz_weight(p[best].latency_ps, longest, 3) >
					    spritz_weight(p[i].latency_ps, longest, 3),
				    "the fastest path weighs most");
			ASSERT_GT(spritz_base_weight(p[best].latency_ps, longest),
				  spritz_base_weight(p[i].latency_ps, longest), "base weight too");
		}
		spritz_topo_free(t);
	}
}

static const struct test_case cases[] = {
	{ "dragonfly_small_all", test_dragonfly_small_all },
	{ "dragonfly_paper", test_dragonfly_paper },
	{ "dragonfly_counts", test_dragonfly_counts },
	{ "slimfly_small_all", test_slimfly_small_all },
	{ "slimfly_paper", test_slimfly_paper },
	{ "table1_dragonfly", test_table1_dragonfly },
	{ "table1_slimfly", test_table1_slimfly },
	{ "weights", test_weights },
	{ "memory_paper", test_memory_paper },
	{ "slimfly_sources", test_slimfly_sources },
	{ "api_errors", test_api_errors },
	{ "base_weight", test_base_weight },
	{ "long_links", test_long_links },
};

TEST_MAIN(cases)
