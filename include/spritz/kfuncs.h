/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * kfuncs of spritz.ko, for SCHED_CLS (tc) programs.
 *
 * One list of prototypes serves both sides: the module includes it so the
 * compiler checks each definition against it, BPF programs include it to
 * call them (as __ksym externs resolved against the module's BTF at load).
 * Documentation/kfuncs.rst describes each one.
 */
#ifndef _SPRITZ_KFUNCS_H
#define _SPRITZ_KFUNCS_H

#include "abi.h"
#include "knobs.h"

#ifdef __bpf__
#ifdef SPRITZ_KFUNC_WEAK
/*
 * Only for the native benchmark (no spritz.ko on the host): unresolved
 * kfuncs are 0, and the calls spritz_kfunc_exists() guards are dead code
 * the verifier drops.
 */
#define SPRITZ_KFUNC extern __attribute__((section(".ksyms"), weak))
#define spritz_kfunc_exists(f)                                                          \
	({                                                                             \
		_Static_assert(!__builtin_constant_p(!!(f)), #f " must be weak");     \
		!!(f);                                                                 \
	})
#else
#define SPRITZ_KFUNC extern __attribute__((section(".ksyms")))
#define spritz_kfunc_exists(f) 1
#endif
#else
#define SPRITZ_KFUNC
#endif

/* The SPRITZ_ABI_VERSION the module was built with. */
SPRITZ_KFUNC __u32 bpf_spritz_abi_version(void);

/* bpf_spritz_pick() flags */
#define SPRITZ_PICK_UNIFORM (1U << 0)	 /* all enabled paths equally likely */
#define SPRITZ_PICK_MIN_BIAS (1U << 1)	 /* minimal paths x min_bias_factor */
#define SPRITZ_PICK_SMALL_FLOW (1U << 2) /* minimal paths small_flow_weight, others 1 */
#define SPRITZ_PICK_FLAGS_ALL (SPRITZ_PICK_UNIFORM | SPRITZ_PICK_MIN_BIAS | SPRITZ_PICK_SMALL_FLOW)

/* bpf_spritz_pick() result: EV in bits 0-15, latency class in bits 16-23. */
#define SPRITZ_PICK(ev, lat_class) ((__u32)(__u16)(ev) | (__u32)(__u8)(lat_class) << 16)
#define SPRITZ_PICK_EV(r) ((__u16)((r) & 0xffff))
#define SPRITZ_PICK_LAT_CLASS(r) ((__u8)(((r) >> 16) & 0xff))

/*
 * bpf_spritz_pick()'s @avoid: up to SPRITZ_AVOID_MAX EVs a pick must not
 * return while another enabled path exists, in bits 0-47 (slot k in bits
 * 16k..16k+15), their count in bits 48-63.  0: none.
 */
#define SPRITZ_AVOID_MAX 3
#define SPRITZ_AVOID_N(a) ((__u32)((a) >> 48))
#define SPRITZ_AVOID_EV(a, k) ((__u16)((a) >> (16 * (k))))

/* Is @ev one of the EVs of avoid set @a? */
static __always_inline int spritz_avoid_has(__u64 a, __u16 ev)
{
	__u32 k, n = SPRITZ_AVOID_N(a);

	for (k = 0; k < SPRITZ_AVOID_MAX; k++)
		if (k < n && SPRITZ_AVOID_EV(a, k) == ev)
			return 1;
	return 0;
}

/* Set @a without @ev, the others in their order. */
static __always_inline __u64 spritz_avoid_del(__u64 a, __u16 ev)
{
	__u32 k, n = SPRITZ_AVOID_N(a);
	__u64 out = 0, m = 0;

	for (k = 0; k < SPRITZ_AVOID_MAX; k++) {
		if (k < n && SPRITZ_AVOID_EV(a, k) != ev) {
			out |= (__u64)SPRITZ_AVOID_EV(a, k) << (16 * m);
			m++;
		}
	}
	return m << 48 | out;
}

/*
 * Set @a with @ev as its newest (slot 0): moved there if it is a member,
 * else added, the oldest dropped when the set is full.
 */
static __always_inline __u64 spritz_avoid_add(__u64 a, __u16 ev)
{
	__u64 n;

	a = spritz_avoid_del(a, ev);
	n = SPRITZ_AVOID_N(a);
	n = n < SPRITZ_AVOID_MAX ? n + 1 : SPRITZ_AVOID_MAX;
	return n << 48 | ((a << 16) & 0xffffffffffffULL) | ev;
}

/*
 * Sample one enabled path from switch @src (the sending device's switch)
 * towards switch @dst in O(1), by the current weights (disabled paths weigh
 * 0), other than the EVs of @avoid (SPRITZ_AVOID_*) unless they are all
 * that is enabled.  Returns SPRITZ_PICK(EV, lat_class), or -ENOENT (no table
 * for @src or no list for @dst), -EINVAL (bad flags, more than
 * SPRITZ_AVOID_MAX EVs in @avoid).
 */
SPRITZ_KFUNC __s32 bpf_spritz_pick(__u32 src, __u32 dst, __u32 flags, __u64 avoid);

/*
 * bpf_spritz_path_timeout() returns this when the destination's floor
 * (min_enabled_pct) keeps the path enabled and has no other path to bring
 * back: its only path, or a floor of every path.  Nothing was disabled.
 */
#define SPRITZ_TIMEOUT_KEPT 1

/*
 * A timeout was seen on path @ev from @src towards @dst: disable it for
 * disable_ms from now (a repeated timeout restarts the time, with the
 * disable_ms of its own moment).  Returns 0, SPRITZ_TIMEOUT_KEPT, or
 * -ENOENT.
 */
SPRITZ_KFUNC __s32 bpf_spritz_path_timeout(__u32 src, __u32 dst, __u32 ev);

/*
 * Copy the current knob values; @out__sz must be sizeof(*out).  Returns 0,
 * or -EINVAL for a wrong size or a NULL @out (e.g. a map lookup's result
 * passed unchecked: the verifier allows it).
 */
SPRITZ_KFUNC __s32 bpf_spritz_knobs(struct spritz_knob_values *out, __u32 out__sz);

#endif /* _SPRITZ_KFUNCS_H */
