// SPDX-License-Identifier: GPL-2.0-only
/*
 * Path enumeration, latency and weights (paper §III, Table I, Eq. 1).
 *
 * A sender steers the first hop with EV1 (port index at its own switch, the
 * ECMP 1 switch) and the second with EV2 (port index at the next switch,
 * the ECMP 2 switch); from there switches route minimally.  For source s
 * and destination d != s the selectable paths are (topo.h, policies):
 *
 * DRAGONFLY (reference facts)
 *	d in s's group: EV1 = each local port (a-1 paths), EV2 unused.
 *	d elsewhere:    EV1 = each global port of s, EV2 unused (h paths), and
 *	                EV1 = each local port (to x), EV2 = each global port of
 *	                x ((a-1)*h paths).
 * GENERIC (Slim Fly, fabric files)
 *	EV1 = the port to d, EV2 unused (the 1-hop path, when d is a neighbour);
 *	EV1 = the port to n != d, EV2 = each port of n to n' != s (2-hop walks).
 *
 * Each prefix is continued along the default route to d (the packet stops
 * as soon as it reaches d, so a walk with n' = d is the 2-hop path s,n,d)
 * and kept only if the whole switch sequence is simple and within the
 * topology's bound (Dragonfly 3 local + 2 global hops, Slim Fly 4 hops,
 * fabric files as given).  Distinct EVs give distinct sequences: the prefix
 * (n, n') differs, and an EV with EV2 unused is only emitted where no EV
 * steers the second hop of the same first hop to the same place.
 *
 * Latency: sum over hops of cable latency + packet serialization (Table I;
 * switch latency excluded), in picoseconds.  Lists are sorted by
 * (non-minimal, latency, EV): minimal paths first (hop counts of the default
 * route, spritz_topo_min_route()), then by latency.  In
 * Dragonfly and Slim Fly a minimal path is never slower than a non-minimal
 * one, so this is the paper's "sorted by latency" (the tests check it);
 * the minimal flag only matters for odd fabric files.  The sort is a
 * counting sort over the few distinct keys of a list (EVs are generated in
 * ascending order, so it is stable for the EV tie-break).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <spritz/netlink.h>

#include "paths.h"

struct walk {
	int seq[SPRITZ_PATH_MAX_HOPS + 2];
	int len;                   /* switches in seq */
	uint64_t lat;
	int local, global;
};

/* Append the hop over port i of the last switch; false if not simple. */
static inline bool walk_hop(const struct spritz_topo *t, struct walk *w, int i)
{
	int u = w->seq[w->len - 1], n = spritz_topo_port_nbr(t, u, i), k;

	for (k = 0; k < w->len; k++)
		if (w->seq[k] == n)
			return false;
	if (w->len > SPRITZ_PATH_MAX_HOPS)
		return false;
	w->seq[w->len++] = n;
	w->lat += spritz_topo_hop_ps(t, u, i);
	if (spritz_topo_port_type(t, u, i) == SPRITZ_LINK_LOCAL)
		w->local++;
	else
		w->global++;
	return true;
}

/* Continue along default routes to d; false if not simple or out of bound. */
static bool walk_finish(struct spritz_topo *t, struct walk *w, int d)
{
	const struct spritz_bound *b = &t->bound;

	while (w->seq[w->len - 1] != d)
		if (!walk_hop(t, w, spritz_topo_next_port(t, w->seq[w->len - 1], d)))
			return false;
	if (b->max_hops >= 0 && w->len - 1 > b->max_hops)
		return false;
	if (b->max_local >= 0 && w->local > b->max_local)
		return false;
	if (b->max_global >= 0 && w->global > b->max_global)
		return false;
	return w->local <= 15 && w->global <= 15;
}

/* Start a walk at s with the hop over port i. */
static inline bool walk_start(const struct spritz_topo *t, struct walk *w, int s, int i)
{
	w->seq[0] = s;
	w->len = 1;
	w->lat = 0;
	w->local = w->global = 0;
	return walk_hop(t, w, i);
}

static inline void emit(struct spritz_path *out, int *n, const struct walk *w, int ev1, int ev2)
{
	struct spritz_path *p = &out[(*n)++];

	p->latency_ps = w->lat;
	p->ev = SPRITZ_EV(ev1, ev2);
	p->local_hops = w->local;
	p->global_hops = w->global;
	p->lat_class = 0;
}

/* Upper bound on the length of any list from src. */
int spritz_paths_cap(const struct spritz_topo *t, int src)
{
	return spritz_topo_degree(t, src) * (t->max_degree + 1);
}

/* Unsorted enumeration in ascending EV order; returns the count. */
static int enumerate(struct spritz_topo *t, int s, int d, struct spritz_path *out)
{
	int deg = spritz_topo_degree(t, s), i, j, n = 0;
	bool df = t->policy == SPRITZ_POLICY_DRAGONFLY;
	bool same = t->group[s] == t->group[d];
	struct walk w, w1;

	for (i = 0; i < deg; i++) {
		int n1 = spritz_topo_port_nbr(t, s, i), ty = spritz_topo_port_type(t, s, i), deg1;

		if (df && same && ty != SPRITZ_LINK_LOCAL)
			continue;
		if ((df && (same || ty == SPRITZ_LINK_GLOBAL)) || n1 == d) {
			/* hop 2 not steered: default route from n1 */
			walk_start(t, &w, s, i);
			if (walk_finish(t, &w, d))
				emit(out, &n, &w, i, SPRITZ_EV2_UNUSED);
			continue;
		}
		walk_start(t, &w1, s, i);
		deg1 = spritz_topo_degree(t, n1);
		for (j = 0; j < deg1; j++) {
			if (df && spritz_topo_port_type(t, n1, j) != SPRITZ_LINK_GLOBAL)
				continue;
			w = w1;
			if (walk_hop(t, &w, j) && walk_finish(t, &w, d))
				emit(out, &n, &w, i, j);
		}
	}
	return n;
}

/* Number of paths from src to dst (no sorting). */
int spritz_paths_count(struct spritz_topo *t, int src, int dst)
{
	struct spritz_path *buf;
	int n;

	if (src < 0 || src >= t->nsw || dst < 0 || dst >= t->nsw)
		return -EINVAL;
	if (src == dst)
		return 0;
	buf = malloc(sizeof(*buf) * spritz_paths_cap(t, src));
	if (!buf)
		return -ENOMEM;
	n = enumerate(t, src, dst, buf);
	free(buf);
	return n;
}

#define SORT_MAX_KEYS 64

/* What a minimal path from s to d looks like (topo.h, spritz_topo_min_route). */
struct minsig {
	int hops;                  /* GENERIC: hop count */
	int local, global;         /* DRAGONFLY: exact local and global counts */
	bool exact;
};

static inline int nonmin(const struct spritz_path *p, const struct minsig *m)
{
	if (m->exact)
		return p->local_hops != m->local || p->global_hops != m->global;
	return p->local_hops + p->global_hops != m->hops;
}

static int cmp_path(const void *x, const void *y, void *arg)
{
	const struct spritz_path *a = x, *b = y;
	int na = nonmin(a, arg), nb = nonmin(b, arg);

	if (na != nb)
		return na - nb;
	if (a->latency_ps != b->latency_ps)
		return a->latency_ps < b->latency_ps ? -1 : 1;
	return (int)a->ev - (int)b->ev;
}

/* Sort a list (EV-ascending on entry) and set the latency classes. */
static int sort_list(struct spritz_path *p, int n, struct minsig *m)
{
	uint64_t keys[SORT_MAX_KEYS];	/* nonmin << 63 | latency (below 2^63, topo.h) */
	int cnt[SORT_MAX_KEYS + 1], nk = 0, i, k;
	struct spritz_path *tmp;

	for (i = 0; i < n; i++) {
		uint64_t key = ((uint64_t)nonmin(&p[i], m) << 63) | p[i].latency_ps;

		for (k = 0; k < nk && keys[k] != key; k++)
			;
		if (k == nk) {
			if (nk == SORT_MAX_KEYS)
				goto fallback;
			keys[nk++] = key;
		}
	}
	/* insertion sort of the distinct keys */
	for (i = 1; i < nk; i++) {
		uint64_t v = keys[i];

		for (k = i; k > 0 && keys[k - 1] > v; k--)
			keys[k] = keys[k - 1];
		keys[k] = v;
	}
	tmp = malloc(sizeof(*tmp) * (n ? n : 1));
	if (!tmp)
		return -ENOMEM;
	memset(cnt, 0, sizeof(cnt));
	for (i = 0; i < n; i++) {
		uint64_t key = ((uint64_t)nonmin(&p[i], m) << 63) | p[i].latency_ps;

		for (k = 0; keys[k] != key; k++)
			;
		p[i].lat_class = (uint8_t)k;
		cnt[k + 1]++;
	}
	for (k = 0; k < nk; k++)
		cnt[k + 1] += cnt[k];
	for (i = 0; i < n; i++)
		tmp[cnt[p[i].lat_class]++] = p[i];
	memcpy(p, tmp, sizeof(*p) * n);
	free(tmp);
	return 0;
fallback:
	qsort_r(p, n, sizeof(*p), cmp_path, m);
	for (i = 0, k = 0; i < n; i++) {
		if (i && (p[i - 1].latency_ps != p[i].latency_ps ||
			  nonmin(&p[i - 1], m) != nonmin(&p[i], m)))
			k++;
		p[i].lat_class = k > 255 ? 255 : (uint8_t)k;
	}
	return 0;
}

/* Every path from src to dst, sorted; returns the count. */
int spritz_paths_list(struct spritz_topo *t, int src, int dst, struct spritz_path *out, int cap)
{
	struct minsig m;
	int n, ret;

	if (src < 0 || src >= t->nsw || dst < 0 || dst >= t->nsw)
		return -EINVAL;
	if (src == dst)
		return 0;
	if (cap < spritz_paths_cap(t, src))
		return -ENOSPC;
	n = enumerate(t, src, dst, out);
	m.exact = t->policy == SPRITZ_POLICY_DRAGONFLY;
	spritz_topo_min_route(t, src, dst, &m.local, &m.global);
	m.hops = m.local + m.global;
	ret = sort_list(out, n, &m);
	return ret ? ret : n;
}

/* Every list of one source switch. */
int spritz_table_build(struct spritz_topo *t, int src, struct spritz_table **out)
{
	struct spritz_table *tb;
	size_t cap, used = 0;
	int d, cap1, n;

	if (src < 0 || src >= t->nsw)
		return -EINVAL;
	tb = calloc(1, sizeof(*tb));
	if (!tb)
		return -ENOMEM;
	tb->src = src;
	tb->nsw = t->nsw;
	tb->off = calloc((size_t)t->nsw + 1, sizeof(uint32_t));
	cap1 = spritz_paths_cap(t, src);
	cap = (size_t)cap1 * 64;
	tb->paths = malloc(sizeof(*tb->paths) * cap);
	if (!tb->off || !tb->paths)
		goto nomem;
	for (d = 0; d < t->nsw; d++) {
		tb->off[d] = (uint32_t)used;
		if (used + cap1 > cap) {
			struct spritz_path *np;

			/* grow by the expected remainder, at least doubling */
			size_t want = used + (size_t)(used / (d ? d : 1) + 1) * (t->nsw - d) + cap1;

			if (want < cap * 2)
				want = cap * 2;
			np = realloc(tb->paths, sizeof(*np) * want);
			if (!np)
				goto nomem;
			tb->paths = np;
			cap = want;
		}
		n = spritz_paths_list(t, src, d, tb->paths + used, cap1);
		if (n < 0) {
			spritz_table_free(tb);
			return n;
		}
		used += n;
	}
	tb->off[t->nsw] = (uint32_t)used;
	tb->npaths = used;
	*out = tb;
	return 0;
nomem:
	spritz_table_free(tb);
	return -ENOMEM;
}

void spritz_table_free(struct spritz_table *tb)
{
	if (!tb)
		return;
	free(tb->off);
	free(tb->paths);
	free(tb);
}

/* hop1 and hop2 (-1 if EV2 is unused) of an EV from src. */
void spritz_path_hops(const struct spritz_topo *t, int src, uint16_t ev, int *hop1, int *hop2)
{
	*hop1 = spritz_topo_port_nbr(t, src, SPRITZ_EV1(ev));
	if (SPRITZ_EV2(ev) == SPRITZ_EV2_UNUSED)
		*hop2 = -1;
	else
		*hop2 = spritz_topo_port_nbr(t, *hop1, SPRITZ_EV2(ev));
}

/* Follow an EV from src to dst through the roles and default routes. */
int spritz_ev_route(struct spritz_topo *t, int src, int dst, uint16_t ev, int *seq, int maxlen)
{
	int ev1 = SPRITZ_EV1(ev), ev2 = SPRITZ_EV2(ev), n = 0, cur, steps;
	bool df = t->policy == SPRITZ_POLICY_DRAGONFLY;
	bool same = t->group[src] == t->group[dst];
	bool ecmp2;

	if (src < 0 || src >= t->nsw || dst < 0 || dst >= t->nsw || maxlen < 1)
		return -EINVAL;
	seq[n++] = src;
	if (src == dst)
		return n;
	/* ECMP 1 */
	if (ev1 >= spritz_topo_degree(t, src))
		return -EINVAL;
	if (df && same && spritz_topo_port_type(t, src, ev1) != SPRITZ_LINK_LOCAL)
		return -EINVAL;
	cur = spritz_topo_port_nbr(t, src, ev1);
	if (n == maxlen)
		return -ENOSPC;
	seq[n++] = cur;
	if (cur == dst)
		return n;
	/* ECMP 2 */
	if (df)
		ecmp2 = !same && spritz_topo_port_type(t, src, ev1) == SPRITZ_LINK_LOCAL;
	else
		ecmp2 = true;
	if (ecmp2) {
		if (ev2 >= spritz_topo_degree(t, cur))
			return -EINVAL;
		if (df && spritz_topo_port_type(t, cur, ev2) != SPRITZ_LINK_GLOBAL)
			return -EINVAL;
		cur = spritz_topo_port_nbr(t, cur, ev2);
		if (n == maxlen)
			return -ENOSPC;
		seq[n++] = cur;
	}
	/* intermediate location and beyond: default routes */
	for (steps = 0; cur != dst; steps++) {
		if (steps > t->nsw)
			return -ELOOP;
		cur = spritz_topo_next_hop(t, cur, dst);
		if (n == maxlen)
			return -ENOSPC;
		seq[n++] = cur;
	}
	return n;
}

/* Whether a path from src to dst is minimal (paths.h). */
bool spritz_path_minimal(struct spritz_topo *t, int src, int dst, const struct spritz_path *p)
{
	struct minsig m;

	m.exact = t->policy == SPRITZ_POLICY_DRAGONFLY;
	spritz_topo_min_route(t, src, dst, &m.local, &m.global);
	m.hops = m.local + m.global;
	return !nonmin(p, &m);
}

/* Eq. 1: lat_longest / lat, times w_scale unless lat is the longest. */
double spritz_weight(uint64_t lat_ps, uint64_t longest_ps, unsigned int w_scale)
{
	double w;

	if (!lat_ps || lat_ps >= longest_ps)
		return 1.0;
	w = (double)longest_ps / (double)lat_ps;
	return w * w_scale;
}

/* Eq. 1 without w_scale as spritz.ko's fixed point, 1..UINT32_MAX. */
uint32_t spritz_base_weight(uint64_t lat_ps, uint64_t longest_ps)
{
	double w = spritz_weight(lat_ps, longest_ps, 1) * SPRITZ_WEIGHT_ONE + 0.5;

	if (w >= (double)UINT32_MAX)
		return UINT32_MAX;
	return w < 1.0 ? 1 : (uint32_t)w;
}

/* Longest latency of a list. */
uint64_t spritz_paths_longest(const struct spritz_path *list, int n)
{
	uint64_t m = 0;
	int i;

	for (i = 0; i < n; i++)
		if (list[i].latency_ps > m)
			m = list[i].latency_ps;
	return m;
}
