/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Spritz path sampler: gen(w) of paper §V (Algorithm 1 "sample a path by
 * the weights w"), as plain C shared by spritz.ko (kmod/table.c) and the
 * simulator (sim/).
 *
 * Each destination list has one sampler per variant: the weights of its
 * enabled paths (Eq. 1 base weights x w_scale, uniform, the minimal-path
 * bias of Alg. 2/3, the small-flow bias), turned into an alias table
 * (Vose's method) so that a pick is O(1): two random words choose a column
 * and whether to keep it or take its alias.  A disabled path weighs 0.
 *
 * No library, no floating point, no global state: the caller owns the
 * arrays (weights, work lists, columns) and the random source.
 */
#ifndef _SPRITZ_SAMPLER_H
#define _SPRITZ_SAMPLER_H

#include "abi.h"
#include "kfuncs.h" /* SPRITZ_PICK_* */
#include "knobs.h"  /* struct spritz_knob_values */
#include "netlink.h" /* SPRITZ_WEIGHT_ONE */

/* Sampler variants, one alias table each per destination. */
enum spritz_variant {
	SPRITZ_V_WEIGHTED, /* Eq. 1 base x w_scale (uniform if weighted=0) */
	SPRITZ_V_UNIFORM,  /* SPRITZ_PICK_UNIFORM */
	SPRITZ_V_MIN_BIAS, /* SPRITZ_PICK_MIN_BIAS: class 0 x min_bias_factor */
	SPRITZ_V_SMALL,	   /* SPRITZ_PICK_SMALL_FLOW: class 0 x small_flow_weight */
	SPRITZ_V_NR,
};

/*
 * Paths of a destination of @n that TIMEOUTs never disable (knob
 * min_enabled_pct, @pct): @pct % of @n rounded up, and at least one.  A
 * disable that would leave fewer enabled brings the least recently
 * disabled path back first (spritz_floor_enable()): however the feedback
 * was made, timeouts never leave a destination fewer enabled paths than
 * this.
 */
static __always_inline __u32 spritz_min_enabled(__u32 n, __u32 pct)
{
	__u32 m = (__u32)(((__u64)n * pct + 99) / 100);

	return m > 1 ? m : 1;
}

/* spritz_floor_enable(): the disable leaves the floor enabled. */
#define SPRITZ_FLOOR_FREE (-1)
/* spritz_floor_enable(): at the floor and no other path disabled: keep it. */
#define SPRITZ_FLOOR_KEEP (-2)

/*
 * What a TIMEOUT's disable of enabled path @p needs for the floor, in a
 * destination of @n paths of which @nenabled are enabled and floor
 * percentage @pct (spritz_path_timeout(), the simulator's tables):
 * SPRITZ_FLOOR_FREE if more than spritz_min_enabled() are enabled; else
 * the path to enable first, the least recently disabled other one
 * (@off(@ctx, i) true, disabled at @at(@ctx, i), a clock compared as
 * wrapping, as time_before64() does); SPRITZ_FLOOR_KEEP if no other path
 * is disabled (the floor is every path).  The callbacks are the caller's
 * constants, so the compiler inlines them.
 */
static __always_inline int spritz_floor_enable(__u32 n, __u32 nenabled, __u32 pct, __u32 p,
					       void *ctx, int (*off)(void *, __u32),
					       __u64 (*at)(void *, __u32))
{
	int best = SPRITZ_FLOOR_KEEP;
	__u32 i;

	if (nenabled > spritz_min_enabled(n, pct))
		return SPRITZ_FLOOR_FREE;
	for (i = 0; i < n; i++) {
		if (i == p || !off(ctx, i))
			continue;
		if (best < 0 || (__s64)(at(ctx, i) - at(ctx, (__u32)best)) < 0)
			best = (int)i;
	}
	return best;
}

/* One alias-method column: keep the column with prob/2^32, else alias. */
struct spritz_alias {
	__u32 prob;
	__u16 alias;
	__u16 __pad;
};

/* (a * b) / c without overflow (a < c here, so the result fits 32 bits). */
static __always_inline __u64 __spritz_mul_div(__u64 a, __u64 b, __u64 c)
{
#ifdef __KERNEL__
	return mul_u64_u64_div_u64(a, b, c);
#else
	return (__u64)((unsigned __int128)a * b / c);
#endif
}

/*
 * The weight of an enabled path with Eq. 1 base weight @base_weight and
 * latency class @lat_class in variant @v, for knobs @k.
 */
static __always_inline __u64 spritz_variant_weight(__u32 base_weight, __u8 lat_class, __u32 v,
						   const struct spritz_knob_values *k)
{
	switch (v) {
	case SPRITZ_V_WEIGHTED:
		if (!k->weighted)
			return 1;
		/* Eq. 1, then every path but the longest (1.0) x w_scale */
		if (base_weight > SPRITZ_WEIGHT_ONE)
			return (__u64)base_weight * k->w_scale;
		return base_weight;
	case SPRITZ_V_MIN_BIAS:
		/* Alg. 2/3 "w[0] <- min_bias_factor": the minimal class */
		return lat_class == 0 ? k->min_bias_factor : 1;
	case SPRITZ_V_SMALL:
		return lat_class == 0 ? k->small_flow_weight : 1;
	default:
		return 1;
	}
}

/* The sampler variant for pick flags @flags (SPRITZ_PICK_*). */
static __always_inline __u32 spritz_flags_variant(__u32 flags)
{
	if (flags & SPRITZ_PICK_SMALL_FLOW)
		return SPRITZ_V_SMALL;
	if (flags & SPRITZ_PICK_MIN_BIAS)
		return SPRITZ_V_MIN_BIAS;
	if (flags & SPRITZ_PICK_UNIFORM)
		return SPRITZ_V_UNIFORM;
	return SPRITZ_V_WEIGHTED;
}

/*
 * Vose's alias method over @n weights @w (overwritten) summing to @total,
 * in integers, into @col; @small and @large are work lists of n entries.
 * Weights are at most 2^32 * 65535 and n <= SPRITZ_MAX_PATHS (4096), so
 * w * n fits in a u64.
 */
static __always_inline void spritz_alias_build(struct spritz_alias *col, __u64 *w, __u16 *small,
					       __u16 *large, __u32 n, __u64 total)
{
	__u32 ns = 0, nl = 0, i;

	for (i = 0; i < n; i++) {
		w[i] *= n; /* scaled: the average column is now exactly total */
		if (w[i] < total)
			small[ns++] = (__u16)i;
		else
			large[nl++] = (__u16)i;
	}
	while (ns && nl) {
		__u32 s = small[--ns], l = large[nl - 1];

		col[s].prob = (__u32)__spritz_mul_div(w[s], 1ULL << 32, total);
		col[s].alias = (__u16)l;
		w[l] -= total - w[s];
		if (w[l] < total) {
			nl--;
			small[ns++] = (__u16)l;
		}
	}
	/* full columns (exact arithmetic leaves no small ones behind) */
	while (nl) {
		i = large[--nl];
		col[i].prob = 0xffffffffU;
		col[i].alias = (__u16)i;
	}
	while (ns) {
		i = small[--ns];
		col[i].prob = 0xffffffffU;
		col[i].alias = (__u16)i;
	}
}

/*
 * Alias table @col of variant @v for a destination's @n paths and knobs
 * @k (spritz_dest_build() in kmod/table.c, the simulator's tables): an
 * enabled path weighs spritz_variant_weight() of its base weight
 * @base(@ctx, i) and latency class @cls(@ctx, i), a disabled one
 * (@off(@ctx, i)) 0.  If every enabled path weighs 0 in @v, the enabled
 * ones weigh 1 each; if none is enabled (a disable racing the rebuild:
 * the pick falls back), every path does.  @w, @small and @large are the
 * caller's work arrays of @n entries.
 */
static __always_inline void spritz_sampler_build(struct spritz_alias *col, __u64 *w, __u16 *small,
						 __u16 *large, __u32 n, __u32 v,
						 const struct spritz_knob_values *k, void *ctx,
						 int (*off)(void *, __u32),
						 __u32 (*base)(void *, __u32),
						 __u8 (*cls)(void *, __u32))
{
	__u64 total = 0;
	__u32 i;

	for (i = 0; i < n; i++) {
		w[i] = off(ctx, i) ? 0 : spritz_variant_weight(base(ctx, i), cls(ctx, i), v, k);
		total += w[i];
	}
	if (!total) {
		/* only zero-weight paths enabled: those equally */
		for (i = 0; i < n; i++) {
			w[i] = !off(ctx, i);
			total += w[i];
		}
	}
	if (!total) {
		/* none enabled: every path equally */
		for (i = 0; i < n; i++)
			w[i] = 1;
		total = n;
	}
	spritz_alias_build(col, w, small, large, n, total);
}

/*
 * Draws a pick makes before it scans for a path it may take: a draw on a
 * path disabled since the sampler was built, or on one the flow avoids
 * (bpf_spritz_pick()'s @avoid), is drawn again.
 */
#define SPRITZ_PICK_TRIES 4

/* The column of @n random word @hi chooses: uniform over [0, n). */
static __always_inline __u32 spritz_alias_column(__u32 n, __u32 hi)
{
	return (__u32)(((__u64)hi * n) >> 32);
}

/* The path an alias table of @n columns yields for random words @hi, @lo. */
static __always_inline __u32 spritz_alias_pick(const struct spritz_alias *col, __u32 n, __u32 hi,
					       __u32 lo)
{
	__u32 i = spritz_alias_column(n, hi);

	return lo >= col[i].prob ? col[i].alias : i;
}

/*
 * Are @flags and @avoid a pick's valid arguments (bpf_spritz_pick(), the
 * simulator's tables): known SPRITZ_PICK_* flags, at most
 * SPRITZ_AVOID_MAX EVs to avoid?
 */
static __always_inline int spritz_pick_args_ok(__u32 flags, __u64 avoid)
{
	return !(flags & ~SPRITZ_PICK_FLAGS_ALL) && SPRITZ_AVOID_N(avoid) <= SPRITZ_AVOID_MAX;
}

/*
 * The path of @n that a pick takes (bpf_spritz_pick(), kmod/table.c, and
 * the simulator's tables): drawn from alias table @col with random words
 * @rnd(@ctx), drawn again while a draw lands on a path that is @off(@ctx,
 * i) (disabled) or whose EV @ev(@ctx, i) is in @avoid, SPRITZ_PICK_TRIES
 * draws at most; then chosen uniformly among the paths neither off nor
 * avoided, else among those not off.  The last draw if no path is on (a
 * disable racing the pick).  The callbacks are the caller's constants, so
 * the compiler inlines them.
 */
static __always_inline __u32 spritz_sampler_pick(const struct spritz_alias *col, __u32 n,
						 __u64 avoid, void *ctx, __u32 (*rnd)(void *),
						 int (*off)(void *, __u32),
						 __u16 (*ev)(void *, __u32))
{
	__u32 i = 0, j, k, m = 0, on = 0, strict;

	for (k = 0; k < SPRITZ_PICK_TRIES; k++) {
		__u32 hi = rnd(ctx), lo = rnd(ctx);

		i = spritz_alias_pick(col, n, hi, lo);
		if (!off(ctx, i) && !spritz_avoid_has(avoid, ev(ctx, i)))
			return i;
	}
	for (j = 0; j < n; j++) {
		if (off(ctx, j))
			continue;
		on++;
		m += !spritz_avoid_has(avoid, ev(ctx, j));
	}
	strict = m > 0;
	k = spritz_alias_column(strict ? m : on, rnd(ctx));
	for (j = 0; j < n; j++)
		if (!off(ctx, j) && !(strict && spritz_avoid_has(avoid, ev(ctx, j))) && !k--)
			return j;
	return i;
}

#endif /* _SPRITZ_SAMPLER_H */
