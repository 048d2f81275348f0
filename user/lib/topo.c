// SPDX-License-Identifier: GPL-2.0-only
/*
 * Generic fabric model: validation, groups, distances, default routes.
 *
 * Families (dragonfly.c, slimfly.c) and the fabric file parser (fabric.c)
 * fill the canonical port lists; spritz_topo_finish() checks them and
 * prepares routing.  See topo.h for the conventions (paper §III-A: "a
 * single default forwarding table with static minimal routes").
 *
 * Distances: R_0[s] = {s}, R_k[s] = R_{k-1}[s] | OR over neighbours n of
 * R_{k-1}[n], as bitsets of nsw bits.  The diameter D is the first k with
 * every R_k[s] full; R_1..R_{D-1} are kept, so dist(u, v) is the first
 * level holding v (D if none).  For the 4020-switch Dragonfly that is
 * 2 levels of 2 MiB.
 *
 * GENERIC default route: the next hop from u towards d is the neighbour
 * on a shortest path with the lowest canonical port index at u.  A row
 * (all destinations for one u) is computed on first use with bitsets:
 * for each distance k and each port i in order, the destinations at
 * distance k from u and k-1 from the port's neighbour not yet taken.
 *
 * DRAGONFLY default route (hierarchical, see topo.h): per group, local
 * distances and local next hops between members (BFS over local links);
 * per pair of groups, the list of global links ("gateways") between them,
 * sorted by (near switch id, port).  The next hop from u towards d in
 * another group goes to the first gateway minimising local hops before
 * plus after it.  Every pair of groups must be joined by at least one
 * global link.  This needs no n*n table: for the 4020-switch Dragonfly it
 * is 20 x 20 bytes per group plus one entry per global link.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo.h"

/* Hierarchical routing state of the DRAGONFLY policy. */
struct spritz_df_route {
	int *goff;                 /* members of group G: members[goff[G] .. goff[G+1]-1] */
	int *members;              /* ascending ids */
	int *gidx;                 /* index of each switch inside its group */
	size_t *moff;              /* group G's size*size matrices start at moff[G] */
	uint8_t *ldist;            /* local hops between members */
	uint8_t *lnext;            /* local next-hop port between members */
	int *gwoff;                /* gateways of group G: gw[gwoff[G] .. gwoff[G+1]-1] */
	struct spritz_gw {
		int rgroup, x, y, port;
	} *gw;                     /* sorted by (remote group, x, port) */
	int *pair;                 /* first gateway of (G1, G2): pair[G1 * ngroups + G2] */
};

#define errf(...) do { if (err && errlen) snprintf(err, errlen, __VA_ARGS__); } while (0)

/* Default link model of include/spritz/defaults.h. */
void spritz_link_model_default(struct spritz_link_model *m)
{
	m->speed_mbps = SPRITZ_DEF_LINK_SPEED_MBPS;
	m->cable_ps[SPRITZ_LINK_LOCAL] = SPRITZ_DEF_LOCAL_CABLE_PS;
	m->cable_ps[SPRITZ_LINK_GLOBAL] = SPRITZ_DEF_GLOBAL_CABLE_PS;
	m->packet_bytes = SPRITZ_DEF_PACKET_BYTES;
}

/* Serialization of one packet at speed_mbps, ps (rounded to nearest). */
uint64_t spritz_serialization_ps(uint32_t packet_bytes, uint32_t speed_mbps)
{
	uint64_t bits = (uint64_t)packet_bytes * 8;

	if (!speed_mbps)
		return 0;
	/* bits / (Mb/s) = us; * 1e6 = ps (at most 2^35 * 10^6: no overflow) */
	return (bits * 1000000ULL + speed_mbps / 2) / speed_mbps;
}

/* Set the link model and recompute every hop latency. */
void spritz_topo_set_model(struct spritz_topo *t, const struct spritz_link_model *m)
{
	uint32_t idx, n = t->port_off[t->nsw];

	if (m != &t->model)
		t->model = *m;
	for (idx = 0; idx < n; idx++) {
		uint32_t cable = t->port_cable_ps[idx];
		uint32_t speed = t->port_speed_mbps[idx];

		if (!cable)
			cable = t->model.cable_ps[t->port_type[idx]];
		if (!speed)
			speed = t->model.speed_mbps;
		t->port_hop_ps[idx] = cable + spritz_serialization_ps(t->model.packet_bytes, speed);
	}
}

/* Canonical port index of neighbour n at switch s, or -ENOENT. */
int spritz_topo_port_of(const struct spritz_topo *t, int s, int n)
{
	uint32_t i;

	for (i = t->port_off[s]; i < t->port_off[s + 1]; i++)
		if (t->port_nbr[i] == n)
			return (int)(i - t->port_off[s]);
	return -ENOENT;
}

/* Allocate a topology with nsw switches and nports ports in all. */
struct spritz_topo *spritz_topo_alloc(int nsw, size_t nports)
{
	struct spritz_topo *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->nsw = nsw;
	t->hosts = calloc(nsw, sizeof(int));
	t->port_off = calloc((size_t)nsw + 1, sizeof(uint32_t));
	t->port_nbr = calloc(nports ? nports : 1, sizeof(int));
	t->port_type = calloc(nports ? nports : 1, 1);
	t->port_cable_ps = calloc(nports ? nports : 1, sizeof(uint32_t));
	t->port_speed_mbps = calloc(nports ? nports : 1, sizeof(uint32_t));
	t->port_hop_ps = calloc(nports ? nports : 1, sizeof(uint64_t));
	spritz_link_model_default(&t->model);
	t->bound = (struct spritz_bound){ -1, -1, -1 };
	if (!t->hosts || !t->port_off || !t->port_nbr || !t->port_type || !t->port_cable_ps ||
	    !t->port_speed_mbps || !t->port_hop_ps) {
		spritz_topo_free(t);
		return NULL;
	}
	return t;
}

/* Release a topology (NULL is fine). */
void spritz_topo_free(struct spritz_topo *t)
{
	if (!t)
		return;
	free(t->group);
	free(t->hosts);
	free(t->port_off);
	free(t->port_nbr);
	free(t->port_type);
	free(t->port_cable_ps);
	free(t->port_speed_mbps);
	free(t->port_hop_ps);
	free(t->reach);
	free(t->nh);
	free(t->nh_done);
	if (t->df) {
		free(t->df->goff);
		free(t->df->members);
		free(t->df->gidx);
		free(t->df->moff);
		free(t->df->ldist);
		free(t->df->lnext);
		free(t->df->gwoff);
		free(t->df->gw);
		free(t->df->pair);
		free(t->df);
	}
	free(t);
}

static inline bool bit_test(const uint64_t *row, int i)
{
	return (row[i >> 6] >> (i & 63)) & 1;
}

static inline uint64_t *reach_row(const struct spritz_topo *t, int level, int s)
{
	return t->reach + ((size_t)(level - 1) * t->nsw + s) * t->words;
}

/* Hop distance between two switches. */
int spritz_topo_dist(const struct spritz_topo *t, int u, int v)
{
	int k;

	if (u == v)
		return 0;
	for (k = 1; k <= t->nlevels; k++)
		if (bit_test(reach_row(t, k, u), v))
			return k;
	return t->diameter;
}

/* Groups = connected components of local links, numbered by lowest id. */
static int local_components(struct spritz_topo *t)
{
	int *stack = malloc(sizeof(int) * (t->nsw ? t->nsw : 1));
	int s, n = 0;

	if (!stack)
		return -ENOMEM;
	for (s = 0; s < t->nsw; s++)
		t->group[s] = -1;
	for (s = 0; s < t->nsw; s++) {
		int sp = 0;

		if (t->group[s] >= 0)
			continue;
		t->group[s] = n;
		stack[sp++] = s;
		while (sp) {
			int u = stack[--sp];
			uint32_t i;

			for (i = t->port_off[u]; i < t->port_off[u + 1]; i++) {
				int v = t->port_nbr[i];

				if (t->port_type[i] == SPRITZ_LINK_LOCAL && t->group[v] < 0) {
					t->group[v] = n;
					stack[sp++] = v;
				}
			}
		}
		n++;
	}
	t->ngroups = n;
	free(stack);
	return 0;
}

/* Reach bitsets and diameter; -ENOTCONN if some switch cannot reach another. */
static int build_reach(struct spritz_topo *t)
{
	size_t w = ((size_t)t->nsw + 63) / 64, rowsz = w * sizeof(uint64_t);
	uint64_t *prev, *cur, last_mask;
	int s, k, cap = 4;
	bool full;

	t->words = w;
	last_mask = (t->nsw & 63) ? ((1ULL << (t->nsw & 63)) - 1) : ~0ULL;
	prev = calloc((size_t)t->nsw, rowsz);
	if (!prev)
		return -ENOMEM;
	for (s = 0; s < t->nsw; s++)
		prev[(size_t)s * w + (s >> 6)] |= 1ULL << (s & 63);
	t->reach = NULL;
	t->nlevels = 0;
	for (k = 1;; k++) {
		size_t j;

		cur = calloc((size_t)t->nsw, rowsz);
		if (!cur) {
			free(prev);
			return -ENOMEM;
		}
		full = true;
		for (s = 0; s < t->nsw; s++) {
			uint64_t *dst = cur + (size_t)s * w;
			uint32_t i;

			memcpy(dst, prev + (size_t)s * w, rowsz);
			for (i = t->port_off[s]; i < t->port_off[s + 1]; i++) {
				const uint64_t *src = prev + (size_t)t->port_nbr[i] * w;

				for (j = 0; j < w; j++)
					dst[j] |= src[j];
			}
			for (j = 0; full && j + 1 < w; j++)
				full = dst[j] == ~0ULL;
			if (full)
				full = (dst[w - 1] & last_mask) == last_mask;
		}
		if (full || t->nsw <= 1) {
			free(cur);
			t->diameter = t->nsw <= 1 ? 0 : k;
			break;
		}
		if (k >= t->nsw) {
			free(cur);
			free(prev);
			return -ENOTCONN;
		}
		/* keep R_k: grow the level store */
		if (k == 1 || k > cap) {
			uint64_t *r;

			if (k > cap)
				cap *= 2;
			r = realloc(t->reach, (size_t)cap * t->nsw * rowsz);
			if (!r) {
				free(cur);
				free(prev);
				return -ENOMEM;
			}
			t->reach = r;
		}
		memcpy(t->reach + (size_t)(k - 1) * t->nsw * w, cur, (size_t)t->nsw * rowsz);
		t->nlevels = k;
		free(prev);
		prev = cur;
	}
	free(prev);
	return 0;
}

static int cmp_gw(const void *a, const void *b)
{
	const struct spritz_gw *x = a, *y = b;

	if (x->rgroup != y->rgroup)
		return x->rgroup - y->rgroup;
	if (x->x != y->x)
		return x->x - y->x;
	return x->port - y->port;
}

/* Count each group's switches and gateway ports into goff/gwoff (then prefix sums). */
static int df_count(struct spritz_topo *t, size_t *ngw, char *err, size_t errlen)
{
	struct spritz_df_route *r = t->df;
	size_t total = 0;
	uint32_t i;
	int s, G;

	for (s = 0; s < t->nsw; s++) {
		r->goff[t->group[s] + 1]++;
		for (i = t->port_off[s]; i < t->port_off[s + 1]; i++) {
			if (t->port_type[i] != SPRITZ_LINK_GLOBAL)
				continue;
			if (t->group[t->port_nbr[i]] == t->group[s]) {
				errf("routing dragonfly: global link %d-%d inside a group", s,
				     t->port_nbr[i]);
				return -EINVAL;
			}
			r->gwoff[t->group[s] + 1]++;
			(*ngw)++;
		}
	}
	for (G = 0; G < t->ngroups; G++) {
		int sz = r->goff[G + 1];

		if (sz > 4096) {
			errf("routing dragonfly: group %d has %d switches (at most 4096)", G, sz);
			return -E2BIG;
		}
		r->moff[G] = total;
		total += (size_t)sz * sz;
		r->goff[G + 1] += r->goff[G];
		r->gwoff[G + 1] += r->gwoff[G];
	}
	r->moff[t->ngroups] = total;
	return 0;
}

/* Members and gateways per group, gateways sorted; pair[G][H]: G's first to H. */
static int df_gateways(struct spritz_topo *t, int *fill, char *err, size_t errlen)
{
	struct spritz_df_route *r = t->df;
	int s, G, j;
	uint32_t i;

	for (s = 0; s < t->nsw; s++) {
		G = t->group[s];
		r->gidx[s] = fill[G];
		r->members[r->goff[G] + fill[G]++] = s;
	}
	memset(fill, 0, sizeof(int) * t->ngroups);
	for (s = 0; s < t->nsw; s++)
		for (i = t->port_off[s]; i < t->port_off[s + 1]; i++)
			if (t->port_type[i] == SPRITZ_LINK_GLOBAL) {
				G = t->group[s];
				r->gw[r->gwoff[G] + fill[G]++] = (struct spritz_gw){
					t->group[t->port_nbr[i]], s, t->port_nbr[i],
					(int)(i - t->port_off[s]) };
			}
	for (G = 0; G < t->ngroups; G++) {
		int prev = -1, cnt = 0;

		qsort(r->gw + r->gwoff[G], r->gwoff[G + 1] - r->gwoff[G], sizeof(*r->gw), cmp_gw);
		for (j = r->gwoff[G]; j < r->gwoff[G + 1]; j++)
			if (r->gw[j].rgroup != prev) {
				prev = r->gw[j].rgroup;
				r->pair[(size_t)G * t->ngroups + prev] = j;
				cnt++;
			}
		if (cnt != t->ngroups - 1) {
			errf("routing dragonfly: group %d is not linked to every other group", G);
			return -EINVAL;
		}
	}
	return 0;
}

/* ldist[a][b] of group G: a BFS from every member over local links. */
static int df_local_dist(struct spritz_topo *t, int G, int *queue, char *err, size_t errlen)
{
	struct spritz_df_route *r = t->df;
	int sz = r->goff[G + 1] - r->goff[G], a;
	uint32_t i;

	for (a = 0; a < sz; a++) {
		uint8_t *dist = r->ldist + r->moff[G] + (size_t)a * sz;
		int qh = 0, qt = 0;

		memset(dist, 0xff, sz);
		dist[a] = 0;
		queue[qt++] = r->members[r->goff[G] + a];
		while (qh < qt) {
			int u = queue[qh++];

			for (i = t->port_off[u]; i < t->port_off[u + 1]; i++) {
				int v = t->port_nbr[i], b = r->gidx[v];

				if (t->port_type[i] != SPRITZ_LINK_LOCAL || dist[b] != 0xff)
					continue;
				if (dist[r->gidx[u]] >= 254) {
					errf("routing dragonfly: group %d too deep", G);
					return -E2BIG;
				}
				dist[b] = dist[r->gidx[u]] + 1;
				queue[qt++] = v;
			}
		}
	}
	return 0;
}

/* lnext[a][b] of group G: a's first local port one hop closer to b (0xff: none). */
static void df_local_next(struct spritz_topo *t, int G)
{
	struct spritz_df_route *r = t->df;
	int sz = r->goff[G + 1] - r->goff[G], a, b, k;

	for (a = 0; a < sz; a++) {
		int u = r->members[r->goff[G] + a], deg = spritz_topo_degree(t, u);
		const uint8_t *du = r->ldist + r->moff[G] + (size_t)a * sz;
		uint8_t *nx = r->lnext + r->moff[G] + (size_t)a * sz;

		for (b = 0; b < sz; b++) {
			const uint8_t *col = r->ldist + r->moff[G] + b;

			nx[b] = 0xff;
			for (k = 0; b != a && k < deg; k++) {
				int v = spritz_topo_port_nbr(t, u, k);

				if (spritz_topo_port_type(t, u, k) != SPRITZ_LINK_LOCAL)
					continue;
				if (col[(size_t)r->gidx[v] * sz] + 1 == du[b]) {
					nx[b] = (uint8_t)k;
					break;
				}
			}
		}
	}
}

/* Local distances/next hops per group and the gateway lists (DRAGONFLY). */
static int build_df_route(struct spritz_topo *t, char *err, size_t errlen)
{
	struct spritz_df_route *r = calloc(1, sizeof(*r));
	int G, *fill = NULL, *queue = NULL, ret = -ENOMEM;
	size_t ngw = 0, total;

	if (!r)
		return -ENOMEM;
	t->df = r;
	r->goff = calloc((size_t)t->ngroups + 1, sizeof(int));
	r->gwoff = calloc((size_t)t->ngroups + 1, sizeof(int));
	r->members = malloc(sizeof(int) * t->nsw);
	r->gidx = malloc(sizeof(int) * t->nsw);
	r->moff = malloc(sizeof(size_t) * ((size_t)t->ngroups + 1));
	fill = calloc((size_t)t->ngroups + 1, sizeof(int));
	queue = malloc(sizeof(int) * t->nsw);
	if (!r->goff || !r->gwoff || !r->members || !r->gidx || !r->moff || !fill || !queue)
		goto free_scratch;
	ret = df_count(t, &ngw, err, errlen);
	if (ret)
		goto free_scratch;
	total = r->moff[t->ngroups];
	r->ldist = malloc(total ? total : 1);
	r->lnext = malloc(total ? total : 1);
	r->gw = malloc(sizeof(*r->gw) * (ngw ? ngw : 1));
	r->pair = malloc(sizeof(int) * (size_t)t->ngroups * t->ngroups);
	ret = -ENOMEM;
	if (!r->ldist || !r->lnext || !r->gw || !r->pair)
		goto free_scratch;
	ret = df_gateways(t, fill, err, errlen);
	for (G = 0; G < t->ngroups && !ret; G++) {
		ret = df_local_dist(t, G, queue, err, errlen);
		if (!ret)
			df_local_next(t, G);
	}
free_scratch: /* t->df is freed with t */
	free(fill);
	free(queue);
	return ret;
}

/* Local hops between two switches of the same group (DRAGONFLY). */
static inline int df_ldist(const struct spritz_topo *t, int u, int v)
{
	const struct spritz_df_route *r = t->df;
	int G = t->group[u], sz = r->goff[G + 1] - r->goff[G];

	return r->ldist[r->moff[G] + (size_t)r->gidx[u] * sz + r->gidx[v]];
}

/* Local next-hop port from u to v of the same group (DRAGONFLY). */
static inline int df_lnext(const struct spritz_topo *t, int u, int v)
{
	const struct spritz_df_route *r = t->df;
	int G = t->group[u], sz = r->goff[G + 1] - r->goff[G];

	return r->lnext[r->moff[G] + (size_t)r->gidx[u] * sz + r->gidx[v]];
}

/* Next-hop port from u towards d for the DRAGONFLY policy (no table). */
static int df_next_port(const struct spritz_topo *t, int u, int d)
{
	const struct spritz_df_route *r = t->df;
	int Gu = t->group[u], Gd = t->group[d], k, first, best, bcost = 1 << 30;

	if (Gu == Gd)
		return df_lnext(t, u, d);
	first = best = r->pair[(size_t)Gu * t->ngroups + Gd];
	for (k = first; k < r->gwoff[Gu + 1] && r->gw[k].rgroup == Gd; k++) {
		int c = df_ldist(t, u, r->gw[k].x) + df_ldist(t, r->gw[k].y, d);

		if (c < bcost) {
			bcost = c;
			best = k;
		}
	}
	return r->gw[best].x == u ? r->gw[best].port : df_lnext(t, u, r->gw[best].x);
}

/* Validate the port lists and prepare groups, distances and routing. */
int spritz_topo_finish(struct spritz_topo *t, char *err, size_t errlen)
{
	int s, ret;

	if (t->nsw < 1) {
		errf("fabric has no switches");
		return -EINVAL;
	}
	if (t->nsw > SPRITZ_TOPO_MAX_SWITCHES) {
		errf("fabric has %d switches, at most %d", t->nsw, SPRITZ_TOPO_MAX_SWITCHES);
		return -E2BIG;
	}
	t->max_degree = 0;
	t->nhosts = 0;
	for (s = 0; s < t->nsw; s++) {
		int deg = spritz_topo_degree(t, s), i, j;

		if (deg > SPRITZ_MAX_NET_PORTS) {
			errf("switch %d has %d network ports, EVs address at most %d", s, deg,
			     SPRITZ_MAX_NET_PORTS);
			return -E2BIG;
		}
		if (deg > t->max_degree)
			t->max_degree = deg;
		t->nhosts += t->hosts[s];
		for (i = 0; i < deg; i++) {
			uint32_t pi = t->port_off[s] + i, pj;
			int n = t->port_nbr[pi], back;

			if (n < 0 || n >= t->nsw) {
				errf("switch %d port %d: no switch %d", s, i, n);
				return -EINVAL;
			}
			if (n == s) {
				errf("switch %d port %d: link to itself", s, i);
				return -EINVAL;
			}
			for (j = 0; j < i; j++)
				if (t->port_nbr[t->port_off[s] + j] == n) {
					errf("switch %d: two links to switch %d", s, n);
					return -EINVAL;
				}
			back = spritz_topo_port_of(t, n, s);
			if (back < 0) {
				errf("switch %d links to %d but not back", s, n);
				return -EINVAL;
			}
			pj = t->port_off[n] + back;
			if (t->port_type[pi] != t->port_type[pj] ||
			    t->port_cable_ps[pi] != t->port_cable_ps[pj] ||
			    t->port_speed_mbps[pi] != t->port_speed_mbps[pj]) {
				errf("link %d-%d differs between its two ends", s, n);
				return -EINVAL;
			}
		}
	}
	if (!t->group) {
		t->group = malloc(sizeof(int) * t->nsw);
		if (!t->group)
			return -ENOMEM;
		ret = local_components(t);
		if (ret)
			return ret;
	}
	ret = build_reach(t);
	if (ret == -ENOTCONN) {
		errf("fabric is not connected");
		return ret;
	}
	if (ret)
		return ret;
	spritz_topo_set_model(t, &t->model);
	if (t->policy == SPRITZ_POLICY_DRAGONFLY) {
		ret = build_df_route(t, err, errlen);
		if (ret)
			return ret;
	}
	if (t->df)
		return 0;
	t->nh = malloc((size_t)t->nsw * t->nsw);
	t->nh_done = calloc(t->nsw, 1);
	if (!t->nh || !t->nh_done)
		return -ENOMEM;
	return 0;
}

/* Fill the next-hop row of switch u (lowest port index on a shortest path). */
static void fill_row(struct spritz_topo *t, int u)
{
	size_t w = t->words, j;
	uint8_t *row = t->nh + (size_t)u * t->nsw;
	uint64_t todo[w], cand[w];
	int deg = spritz_topo_degree(t, u), k, i;

	for (k = 1; k <= t->diameter; k++) {
		/* destinations exactly k hops from u */
		for (j = 0; j < w; j++) {
			uint64_t in = k <= t->nlevels ? reach_row(t, k, u)[j] : ~0ULL;
			uint64_t below = k == 1 ? 0 : reach_row(t, k - 1, u)[j];

			todo[j] = in & ~below;
		}
		if (k == 1)
			todo[u >> 6] &= ~(1ULL << (u & 63));
		for (i = 0; i < deg; i++) {
			int n = spritz_topo_port_nbr(t, u, i);

			if (k == 1) {
				memset(cand, 0, sizeof(cand));
				cand[n >> 6] = todo[n >> 6] & (1ULL << (n & 63));
			} else {
				const uint64_t *rn = reach_row(t, k - 1, n);

				for (j = 0; j < w; j++)
					cand[j] = todo[j] & rn[j];
			}
			for (j = 0; j < w; j++) {
				uint64_t m = cand[j];

				todo[j] &= ~m;
				while (m) {
					int b = __builtin_ctzll(m);
					size_t d = j * 64 + b;

					if (d < (size_t)t->nsw)
						row[d] = (uint8_t)i;
					m &= m - 1;
				}
			}
		}
	}
	row[u] = 0xff;
	t->nh_done[u] = 1;
}

/* Default route: canonical port index of the next hop from u towards d (u != d). */
int spritz_topo_next_port(struct spritz_topo *t, int u, int d)
{
	if (t->df)
		return df_next_port(t, u, d);
	if (!t->nh_done[u])
		fill_row(t, u);
	return t->nh[(size_t)u * t->nsw + d];
}

/* Hop counts of the default route from u to d. */
void spritz_topo_min_route(struct spritz_topo *t, int u, int d, int *local, int *global)
{
	int steps = 0;

	*local = *global = 0;
	while (u != d && steps++ <= t->nsw) {
		int i = spritz_topo_next_port(t, u, d);

		if (spritz_topo_port_type(t, u, i) == SPRITZ_LINK_LOCAL)
			(*local)++;
		else
			(*global)++;
		u = spritz_topo_port_nbr(t, u, i);
	}
}
