/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The min_enabled_pct floor (spritz_min_enabled(), include/spritz/sampler.h)
 * as a table of timeouts, run against spritz.ko (bpf/sampling) and the
 * simulator's tables (sim/tables) alike: a destination of 8 paths, all
 * enabled, then one timeout per row, each later than the last, on path
 * @path with the knob at @pct.  After it, @disabled has bit i set for each
 * disabled path i, and @floor_enables counts the paths the floor brought
 * back (the least recently disabled, before the disable); @kept: the
 * timeout returns SPRITZ_TIMEOUT_KEPT (no other path to bring back, the
 * path stays enabled), else 0.
 */
#ifndef _SPRITZ_FLOOR_CASES_H
#define _SPRITZ_FLOOR_CASES_H

#define FLOOR_NPATHS 8

struct floor_case {
	unsigned int pct, path;
	unsigned int disabled;	    /* after the row */
	unsigned int floor_enables; /* by the row */
	int kept;
};

static const struct floor_case floor_cases[] = {
	{ 100, 0, 0x00, 0, 1 }, /* floor 8, every path enabled: kept */
	{ 50, 0, 0x01, 0, 0 }, /* floor 4: room */
	{ 50, 1, 0x03, 0, 0 },
	{ 50, 2, 0x07, 0, 0 },
	{ 50, 3, 0x0f, 0, 0 }, /* 4 left */
	{ 50, 4, 0x1e, 1, 0 }, /* at the floor: 0 back */
	{ 50, 0, 0x1d, 1, 0 }, /* 0 again: 1 back */
	{ 25, 5, 0x3d, 0, 0 }, /* floor 2: room */
	{ 25, 6, 0x7d, 0, 0 },
	{ 25, 7, 0xf9, 1, 0 }, /* 2 back */
	{ 0, 1, 0xfb, 0, 0 },  /* 0: the last path only */
	{ 0, 2, 0xf7, 1, 0 },  /* the last: 3 back */
	{ 100, 3, 0xef, 1, 0 }, /* below a raised floor: no lower, 4 back */
	{ 100, 3, 0xef, 0, 0 }, /* a repeat on a disabled path: no change */
};

#endif /* _SPRITZ_FLOOR_CASES_H */
