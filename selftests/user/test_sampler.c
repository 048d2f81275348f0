// SPDX-License-Identifier: GPL-2.0-only
/*
 * The path sampler core (include/spritz/sampler.h) that spritz.ko and the
 * simulator both run: the variants' weights and the alias tables built
 * from them (the probability of each path, read off the columns, against
 * its weight's share), the pick's redraws and fallbacks for disabled and
 * avoided paths and the check of its arguments, and which path the
 * min_enabled_pct floor brings back.
 * Guest suite kmod/sampling and sim/tables run the same code inside the
 * module and the simulator.
 */
#include <stdint.h>
#include <string.h>

#include <spritz/sampler.h>

#include "test.h"

#define NMAX 8
#define ONE SPRITZ_WEIGHT_ONE

/* A destination as the callbacks see it. */
struct dest {
	uint32_t n;
	uint32_t off;		/* bit i: path i disabled */
	uint32_t base[NMAX];
	uint8_t cls[NMAX];
	uint64_t at[NMAX];	/* disabled at */
	const uint32_t *words;	/* the pick's random words */
	uint32_t nwords, used;
};

static int d_off(void *c, uint32_t i)
{
	return !!(((struct dest *)c)->off & (1U << i));
}

static uint32_t d_base(void *c, uint32_t i)
{
	return ((struct dest *)c)->base[i];
}

static uint8_t d_cls(void *c, uint32_t i)
{
	return ((struct dest *)c)->cls[i];
}

static __u64 d_at(void *c, uint32_t i)
{
	return ((struct dest *)c)->at[i];
}

static uint16_t d_ev(void *c, uint32_t i)
{
	(void)c;
	return (uint16_t)(10 + i);
}

static uint32_t d_rnd(void *c)
{
	struct dest *d = c;

	return d->used < d->nwords ? d->words[d->used++] : 0;
}

/* The probability mass of each path in @col, in units of 2^-32 of a column. */
static void alias_mass(const struct spritz_alias *col, uint32_t n, uint64_t *mass)
{
	uint32_t c;

	memset(mass, 0, n * sizeof(*mass));
	for (c = 0; c < n; c++) {
		mass[c] += col[c].prob;
		mass[col[c].alias] += (1ULL << 32) - col[c].prob;
	}
}

/* A row: paths, knobs, variant -> the weights' ratio each path must get. */
struct build_case {
	const char *name;
	uint32_t n, off, v;
	uint32_t base[NMAX];
	uint8_t cls[NMAX];
	uint32_t weighted, w_scale, min_bias, small;
	uint64_t ratio[NMAX];
};

static const struct build_case build_cases[] = {
	{ "uniform", 3, 0, SPRITZ_V_UNIFORM, { ONE, 2 * ONE, 3 * ONE }, { 0, 1, 1 }, 1, 3, 100, 100,
	  { 1, 1, 1 } },
	/* Eq. 1 x w_scale on every path but the longest (1.0) */
	{ "weighted", 3, 0, SPRITZ_V_WEIGHTED, { ONE, 2 * ONE, 3 * ONE }, { 0, 1, 1 }, 1, 3, 100,
	  100, { 1, 6, 9 } },
	{ "weighted off", 3, 0, SPRITZ_V_WEIGHTED, { ONE, 2 * ONE, 3 * ONE }, { 0, 1, 1 }, 0, 3,
	  100, 100, { 1, 1, 1 } },
	{ "min bias", 3, 0, SPRITZ_V_MIN_BIAS, { ONE, ONE, ONE }, { 0, 1, 2 }, 1, 3, 100, 7,
	  { 100, 1, 1 } },
	{ "small flow", 3, 0, SPRITZ_V_SMALL, { ONE, ONE, ONE }, { 0, 0, 1 }, 1, 3, 100, 5,
	  { 5, 5, 1 } },
	{ "disabled weighs 0", 3, 0x2, SPRITZ_V_WEIGHTED, { ONE, 2 * ONE, 3 * ONE }, { 0, 1, 1 },
	  1, 3, 100, 100, { 1, 0, 9 } },
	{ "disabled, uniform", 4, 0x9, SPRITZ_V_UNIFORM, { ONE, ONE, ONE, ONE }, { 0 }, 1, 3, 100,
	  100, { 0, 1, 1, 0 } },
	/* every enabled path weighs 0: the enabled ones equally */
	{ "zero weights enabled", 3, 0x4, SPRITZ_V_WEIGHTED, { 0, 0, ONE }, { 0, 1, 1 }, 1, 3,
	  100, 100, { 1, 1, 0 } },
	/* none enabled (a disable racing the rebuild): every path equally */
	{ "none enabled", 3, 0x7, SPRITZ_V_WEIGHTED, { ONE, 2 * ONE, 3 * ONE }, { 0 }, 1, 3, 100,
	  100, { 1, 1, 1 } },
	{ "one path", 1, 0, SPRITZ_V_WEIGHTED, { 5 * ONE }, { 0 }, 1, 3, 100, 100, { 1 } },
	{ "uneven, eight", 8, 0x10, SPRITZ_V_WEIGHTED,
	  { ONE, 5 * ONE / 4, 3 * ONE / 2, 2 * ONE, 3 * ONE, 7 * ONE, 11 * ONE, 13 * ONE },
	  { 0 }, 1, 1, 100, 100, { 4, 5, 6, 8, 0, 28, 44, 52 } },
};

/* Each path's share of the alias table is its weight's, to a unit per column. */
static void test_build(void)
{
	struct spritz_alias col[NMAX];
	__u64 w[NMAX];
	uint64_t mass[NMAX], sum, want;
	uint16_t small[NMAX], large[NMAX];
	struct spritz_knob_values k;
	size_t r;
	uint32_t i;

	for (r = 0; r < ARRAY_SIZE(build_cases); r++) {
		const struct build_case *c = &build_cases[r];
		struct dest d = { .n = c->n, .off = c->off };
		char what[96];

		memcpy(d.base, c->base, sizeof(d.base));
		memcpy(d.cls, c->cls, sizeof(d.cls));
		memset(&k, 0, sizeof(k));
		k.weighted = c->weighted;
		k.w_scale = c->w_scale;
		k.min_bias_factor = c->min_bias;
		k.small_flow_weight = c->small;
		spritz_sampler_build(col, w, small, large, c->n, c->v, &k, &d, d_off, d_base,
				     d_cls);
		alias_mass(col, c->n, mass);
		for (sum = 0, i = 0; i < c->n; i++)
			sum += c->ratio[i];
		for (i = 0; i < c->n; i++) {
			snprintf(what, sizeof(what), "%s: path %u", c->name, i);
			ASSERT_TRUE(col[i].alias < c->n, what);
			want = (uint64_t)(((unsigned __int128)c->ratio[i] * c->n << 32) / sum);
			if (!c->ratio[i])
				ASSERT_EQ(mass[i], 0, what); /* never drawn */
			else
				ASSERT_NEAR((double)mass[i], (double)want, (double)c->n, what);
		}
	}
}

/* A row: disabled and avoided paths, random words -> the path picked. */
struct pick_case {
	const char *name;
	uint32_t n, off;
	uint64_t avoid;
	uint32_t words[2 * SPRITZ_PICK_TRIES + 1];
	uint32_t want, want_words;
};

/* Random words: the column of @n @i lands on, kept (lo 0). */
#define COL(i, n) ((uint32_t)(((uint64_t)(i) << 32) / (n)) + 1), 0
/* Avoid sets of the EVs of paths @a.. (d_ev()) */
#define AVOID1(a) (1ULL << 48 | (10 + (a)))
#define AVOID2(a, b) (2ULL << 48 | (uint64_t)(10 + (b)) << 16 | (10 + (a)))
#define AVOID3(a, b, c) \
	(3ULL << 48 | (uint64_t)(10 + (c)) << 32 | (uint64_t)(10 + (b)) << 16 | (10 + (a)))

static const struct pick_case pick_cases[] = {
	{ "first draw", 4, 0, 0, { COL(2, 4) }, 2, 2 },
	{ "disabled: drawn again", 4, 0x4, 0, { COL(2, 4), COL(3, 4) }, 3, 4 },
	{ "avoided: drawn again", 4, 0, AVOID1(1), { COL(1, 4), COL(0, 4) }, 0, 4 },
	/* four draws on avoided or disabled paths: the one path left */
	{ "scan: the one left", 4, 0x2, AVOID2(0, 2),
	  { COL(0, 4), COL(1, 4), COL(2, 4), COL(1, 4), 0x7fffffff }, 3, 9 },
	/* everything enabled is avoided: uniform among the enabled (third of 0, 1, 2) */
	{ "scan: all avoided", 4, 0x8, AVOID3(0, 1, 2),
	  { COL(0, 4), COL(1, 4), COL(2, 4), COL(3, 4), 0xc0000000 }, 2, 9 },
	/* none enabled: the last draw */
	{ "none enabled", 3, 0x7, 0, { COL(0, 3), COL(1, 3), COL(2, 3), COL(1, 3), 0 }, 1, 9 },
};

/* Redraws are bounded, then a scan takes a path the pick may take. */
static void test_pick(void)
{
	struct spritz_alias col[NMAX];
	__u64 w[NMAX];
	uint16_t small[NMAX], large[NMAX];
	struct spritz_knob_values k = { .weighted = 0, .w_scale = 1 };
	size_t r;

	for (r = 0; r < ARRAY_SIZE(pick_cases); r++) {
		const struct pick_case *c = &pick_cases[r];
		struct dest d = { .n = c->n, .words = c->words, .nwords = ARRAY_SIZE(c->words) };
		uint32_t got;
		char what[96];

		/* the samplers as built before the disables: every path */
		spritz_sampler_build(col, w, small, large, c->n, SPRITZ_V_UNIFORM, &k, &d, d_off,
				     d_base, d_cls);
		d.off = c->off;
		got = spritz_sampler_pick(col, c->n, c->avoid, &d, d_rnd, d_off, d_ev);
		snprintf(what, sizeof(what), "%s: path", c->name);
		ASSERT_EQ(got, c->want, what);
		snprintf(what, sizeof(what), "%s: random words", c->name);
		ASSERT_EQ(d.used, c->want_words, what);
	}
}

/* A row: paths' states, the timed-out path -> what the floor enables. */
struct floor_enable_case {
	const char *name;
	uint32_t n, off, pct, p;
	uint64_t at[NMAX];
	int want;
};

static const struct floor_enable_case floor_enable_cases[] = {
	{ "above the floor", 8, 0x07, 50, 3, { 1, 2, 3 }, SPRITZ_FLOOR_FREE },
	{ "at the floor: oldest back", 8, 0x0f, 50, 4, { 40, 20, 30, 50 }, 1 },
	{ "the oldest, ties: first", 8, 0x0f, 50, 4, { 40, 20, 20, 50 }, 1 },
	/* the clock wrapped between the disables: before 5 comes 2^64 - 16 */
	{ "wrapped clock", 8, 0x0f, 50, 4, { 5, 7, 0xfffffffffffffff0ULL, 9 }, 2 },
	{ "pct 0: the last path", 4, 0x7, 0, 3, { 3, 1, 2 }, 1 },
	{ "pct 0: room", 4, 0x3, 0, 3, { 3, 1 }, SPRITZ_FLOOR_FREE },
	{ "rounded up", 5, 0x3, 50, 4, { 8, 9 }, 0 }, /* 3 of 5 kept */
	{ "every path kept", 4, 0, 100, 2, { 0 }, SPRITZ_FLOOR_KEEP },
	{ "one path", 1, 0, 50, 0, { 0 }, SPRITZ_FLOOR_KEEP },
};

/* The floor brings back the least recently disabled path, else keeps it. */
static void test_floor_enable(void)
{
	size_t r;

	for (r = 0; r < ARRAY_SIZE(floor_enable_cases); r++) {
		const struct floor_enable_case *c = &floor_enable_cases[r];
		struct dest d = { .n = c->n, .off = c->off };
		uint32_t enabled = c->n - (uint32_t)__builtin_popcount(c->off);

		memcpy(d.at, c->at, sizeof(d.at));
		ASSERT_EQ(spritz_floor_enable(c->n, enabled, c->pct, c->p, &d, d_off, d_at),
			  c->want, c->name);
	}
}

/* A row: a pick's flags and avoid set -> valid or -EINVAL. */
static const struct {
	const char *name;
	uint32_t flags;
	uint64_t avoid;
	int ok;
} args_cases[] = {
	{ "no flags, none avoided", 0, 0, 1 },
	{ "every flag", SPRITZ_PICK_FLAGS_ALL, 0, 1 },
	{ "an unknown flag", SPRITZ_PICK_SMALL_FLOW << 1, 0, 0 },
	{ "the top flag", 1U << 31, 0, 0 },
	{ "three avoided", 0, AVOID3(0, 1, 2), 1 },
	{ "four avoided", 0, 4ULL << 48, 0 },
	{ "a count past any", 0, 0xffffULL << 48, 0 },
};

/* Unknown flags and oversized avoid sets are refused. */
static void test_args(void)
{
	size_t r;

	for (r = 0; r < ARRAY_SIZE(args_cases); r++)
		ASSERT_EQ(spritz_pick_args_ok(args_cases[r].flags, args_cases[r].avoid),
			  args_cases[r].ok, args_cases[r].name);
}

static const struct test_case cases[] = {
	{ "args", test_args },
	{ "build", test_build },
	{ "pick", test_pick },
	{ "floor_enable", test_floor_enable },
};

TEST_MAIN(cases)
