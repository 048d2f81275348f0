// SPDX-License-Identifier: GPL-2.0-only
/*
 * Endpoint-table memory (paper §III-C, memory figure): an endpoint stores
 * one EV entry list per destination switch other than its own, 3 bytes
 * (SPRITZ_EV_ENTRY_BYTES: 16-bit EV + 8 bits of metadata) per entry, so
 * its table is SUM over d != own switch of paths(own, d) * 3 bytes.  Every
 * count comes from the real enumeration (paths.c); nothing is a formula.
 *
 * With several source switches, max/min/avg are over every (source,
 * destination) pair and the bytes are those of the largest table: the
 * paper's figure is an upper bound per endpoint.
 */
#include <errno.h>
#include <stdlib.h>

#include "paths.h"

/* Representative sources when none are given (see paths.h). */
int spritz_memory_default_sources(const struct spritz_topo *t, int *srcs, int max)
{
	int n = 0, s;

	switch (t->kind) {
	case SPRITZ_TOPO_DRAGONFLY:
		if (max >= 1)
			srcs[n++] = 0;
		break;
	case SPRITZ_TOPO_SLIMFLY: {
		/* (0,0,0), (0,1,1), (1,0,0), (1,1,1): the zero vertices are special */
		int q = t->q, pick[4] = { 0, q + 1, q * q, q * q + q + 1 }, i;

		for (i = 0; i < 4 && n < max; i++)
			srcs[n++] = pick[i];
		break;
	}
	default:
		for (s = 0; s < t->nsw && n < max; s++)
			srcs[n++] = s;
		break;
	}
	return n;
}

/* Endpoint-table memory of the given source switches. */
int spritz_memory(struct spritz_topo *t, const int *srcs, int nsrc, struct spritz_mem_stats *st)
{
	uint64_t total = 0;
	int i, d;

	st->nsources = nsrc;
	st->ndst = t->nsw - 1;
	st->max_paths = 0;
	st->min_paths = -1;
	st->entries = 0;
	for (i = 0; i < nsrc; i++) {
		uint64_t entries = 0;

		if (srcs[i] < 0 || srcs[i] >= t->nsw)
			return -EINVAL;
		for (d = 0; d < t->nsw; d++) {
			int n;

			if (d == srcs[i])
				continue;
			n = spritz_paths_count(t, srcs[i], d);
			if (n < 0)
				return n;
			entries += n;
			if (n > st->max_paths)
				st->max_paths = n;
			if (st->min_paths < 0 || n < st->min_paths)
				st->min_paths = n;
		}
		total += entries;
		if (entries > st->entries)
			st->entries = entries;
	}
	if (st->min_paths < 0)
		st->min_paths = 0;
	st->avg_paths = nsrc && st->ndst ? (double)total / ((double)nsrc * st->ndst) : 0;
	st->bytes = st->entries * SPRITZ_EV_ENTRY_BYTES;
	st->mib = st->bytes / (1024.0 * 1024.0);
	return 0;
}
