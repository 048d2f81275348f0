// SPDX-License-Identifier: GPL-2.0-only
/*
 * Endpoint tables of spritz.ko: build from a topology, compare with
 * the live ones, dump, push as one transaction (spritz_host.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"
#include "spritz_err.h"
#include "spritz_host.h"

void spritz_ktable_free(struct spritz_ktable *tb)
{
	free(tb->dests);
	free(tb->paths);
	memset(tb, 0, sizeof(*tb));
}

/*
 * Eq. 1 base weights without w_scale: longest / latency, 1.0 for the
 * longest paths.  The module multiplies the others by the w_scale knob
 * (kmod/table.c), so the knob needs no reload.
 */
int spritz_ktable_build(struct spritz_topo *t, uint32_t src, struct spritz_ktable *tb, char *err,
			size_t errlen)
{
	struct spritz_table *st = NULL;
	size_t k = 0;
	int d, ret;

	memset(tb, 0, sizeof(*tb));
	ret = spritz_table_build(t, (int)src, &st);
	if (ret) {
		spritz_seterr(err, errlen, "failed to build table of switch %u: %s", src, strerror(-ret));
		return ret;
	}
	tb->src = src;
	tb->nsw = (uint32_t)st->nsw;
	tb->dests = calloc((size_t)st->nsw, sizeof(*tb->dests));
	tb->paths = calloc(st->npaths ? st->npaths : 1, sizeof(*tb->paths));
	if (!tb->dests || !tb->paths) {
		spritz_seterr(err, errlen, "failed to build table of switch %u: out of memory", src);
		ret = -ENOMEM;
		goto free_table;
	}
	for (d = 0; d < st->nsw; d++) {
		uint32_t i, n = st->off[d + 1] - st->off[d];
		const struct spritz_path *p = st->paths + st->off[d];
		uint64_t longest;

		if (!n || d == (int)src)
			continue;
		longest = spritz_paths_longest(p, (int)n);
		tb->dests[tb->nd] = (struct spritz_nl_dest){ .dst = (uint32_t)d,
							     .npaths = n,
							     .paths = tb->paths + k };
		for (i = 0; i < n; i++, k++)
			tb->paths[k] = (struct spritz_nl_path){
				.ev = p[i].ev,
				.lat_class = p[i].lat_class,
				.base_weight = spritz_base_weight(p[i].latency_ps, longest)
			};
		tb->nd++;
	}
	spritz_table_free(st);
	return 0;

free_table:
	spritz_ktable_free(tb);
	spritz_table_free(st);
	return ret;
}

/*
 * Do the EV lists @a and @b hold the same EVs with the same latency
 * classes, in order, and with @weights also the same base weights?
 */
static bool paths_same(const struct spritz_nl_dest *a, const struct spritz_nl_dest *b,
		       bool weights)
{
	uint32_t k;

	if (a->npaths != b->npaths)
		return false;
	for (k = 0; k < a->npaths; k++)
		if (a->paths[k].ev != b->paths[k].ev ||
		    a->paths[k].lat_class != b->paths[k].lat_class ||
		    (weights && a->paths[k].base_weight != b->paths[k].base_weight))
			return false;
	return true;
}

struct cmp_ctx {
	const struct spritz_ktable *tb;
	size_t i;
	bool any, same;
};

static int cmp_cb(const struct spritz_nl_dest *d, void *arg)
{
	struct cmp_ctx *c = arg;
	const struct spritz_nl_dest *w;

	c->any = true;
	if (!c->same)
		return 0;
	if (c->i >= c->tb->nd || d->num_switches != c->tb->nsw) {
		c->same = false;
		return 0;
	}
	w = &c->tb->dests[c->i++];
	if (w->dst != d->dst || !paths_same(w, d, true))
		c->same = false;
	return 0;
}

int spritz_ktable_live(struct spritz_nl *nl, const struct spritz_ktable *tb)
{
	struct cmp_ctx c = { .tb = tb, .same = true };
	int ret = spritz_nl_dump(nl, tb->src, cmp_cb, &c, NULL, 0);

	if (ret)
		return ret;
	if (!c.any)
		return -ENOENT;
	return c.same && c.i == tb->nd;
}

struct diff_ctx {
	const struct spritz_ktable *tb;
	const int *at; /* dst -> index in tb->dests, or -1 */
	uint8_t *changed;
	bool any;
};

static int diff_cb(const struct spritz_nl_dest *d, void *arg)
{
	struct diff_ctx *c = arg;

	c->any = true;
	if (d->num_switches != c->tb->nsw) {
		memset(c->changed, 1, c->tb->nsw);
		return 0;
	}
	/* a new base weight alone keeps the EVs valid */
	if (d->dst < c->tb->nsw &&
	    (c->at[d->dst] < 0 || !paths_same(&c->tb->dests[c->at[d->dst]], d, false)))
		c->changed[d->dst] = 1;
	return 0;
}

int spritz_ktable_diff(struct spritz_nl *nl, const struct spritz_ktable *tb, uint8_t *changed)
{
	struct diff_ctx c = { .tb = tb, .changed = changed };
	int *at, ret;
	size_t i;

	at = malloc(tb->nsw * sizeof(*at));
	if (!at)
		return -ENOMEM;
	for (i = 0; i < tb->nsw; i++)
		at[i] = -1;
	for (i = 0; i < tb->nd; i++)
		if (tb->dests[i].dst < tb->nsw)
			at[tb->dests[i].dst] = (int)i;
	c.at = at;
	memset(changed, 0, tb->nsw);
	/* a destination the live table lacks: its flows had no EVs to keep */
	ret = spritz_nl_dump(nl, tb->src, diff_cb, &c, NULL, 0);
	free(at);
	if (ret)
		return ret;
	if (!c.any)
		memset(changed, 1, tb->nsw);
	return 0;
}

int spritz_ktable_push(struct spritz_nl *nl, const struct spritz_ktable *tb, char *err,
		       size_t errlen)
{
	char msg[256] = "";
	int ret = spritz_nl_load(nl, tb->src, tb->nsw, tb->dests, tb->nd, msg, sizeof(msg));

	if (ret)
		spritz_seterr(err, errlen, "failed to load table of switch %u into spritz.ko: %s",
			      tb->src, msg[0] ? msg : strerror(-ret));
	return ret;
}

struct dump_ctx {
	struct spritz_ktable *tb;
	size_t cap; /* paths */
	int err;
};

/* Append one dumped destination (EVs, classes, base weights). */
static int dump_cb(const struct spritz_nl_dest *d, void *arg)
{
	struct dump_ctx *c = arg;
	struct spritz_ktable *tb = c->tb;
	size_t k = 0, i;

	tb->nsw = d->num_switches;
	for (i = 0; i < tb->nd; i++)
		k += tb->dests[i].npaths;
	if (k + d->npaths > c->cap) {
		size_t cap = 2 * (k + d->npaths) + 64;
		struct spritz_nl_path *p = realloc(tb->paths, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		tb->paths = p;
		c->cap = cap;
		for (i = 0, k = 0; i < tb->nd; k += tb->dests[i++].npaths)
			tb->dests[i].paths = tb->paths + k;
	}
	if (!(tb->nd & (tb->nd + 1)) || !tb->dests) {
		void *p = realloc(tb->dests, (2 * tb->nd + 2) * sizeof(*tb->dests));

		if (!p)
			return -ENOMEM;
		tb->dests = p;
	}
	for (i = 0; i < d->npaths; i++)
		tb->paths[k + i] = (struct spritz_nl_path){ .ev = d->paths[i].ev,
							    .lat_class = d->paths[i].lat_class,
							    .base_weight = d->paths[i].base_weight };
	tb->dests[tb->nd++] = (struct spritz_nl_dest){ .dst = d->dst, .npaths = d->npaths,
						       .paths = tb->paths + k };
	return 0;
}

int spritz_ktable_dump(struct spritz_nl *nl, uint32_t src, struct spritz_ktable *tb)
{
	struct dump_ctx c = { .tb = tb };
	int ret;

	memset(tb, 0, sizeof(*tb));
	tb->src = src;
	ret = spritz_nl_dump(nl, src, dump_cb, &c, NULL, 0);
	if (!ret && !tb->nd)
		ret = -ENOENT;
	if (ret)
		spritz_ktable_free(tb);
	return ret;
}

void spritz_ktable_flush(uint32_t src)
{
	struct spritz_nl *nl;
	char err[256];

	if (!spritz_nl_open_init(&nl, err, sizeof(err))) {
		spritz_nl_flush(nl, src, err, sizeof(err));
		spritz_nl_close(nl);
	}
}

