/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Runtime knobs of spritz.ko: /sys/kernel/spritz/<name>, one value each.
 *
 * SPRITZ_KNOBS() is the single table of numeric knobs - name, default,
 * minimum, maximum - expanded by the module (sysfs files, validation,
 * defaults), by spritzctl set/get (range in error messages) and by the
 * tests.  The string knob "algorithm" is separate (SPRITZ_ALGO_NAMES).
 * Documentation/ABI/testing/sysfs-kernel-spritz describes each one and the
 * origin of its default.
 */
#ifndef _SPRITZ_KNOBS_H
#define _SPRITZ_KNOBS_H

#include "abi.h"

/* Good-path buffer slots stored per flow (paper §V: 8 positions). */
#define SPRITZ_BUF_MAX 8

/*
 * X(name, default, min, max)
 *
 * Sources of the defaults: [T2] paper Table II, [P] paper text, [A] the
 * authors' artifact settings (shared/reference/README.md), [L] chosen for
 * Linux hosts where the paper gives no number (see the ABI document).
 */
#define SPRITZ_KNOBS(X)                                                        \
	X(weighted, 1, 0, 1)                   /* [A] weighted variants, Eq. 1 */  \
	X(explore_threshold, 44, 1, 65535)     /* [T2] packets, ~0.5 BDP */        \
	X(ecn_threshold, 8, 1, 65535)          /* [T2] marks, ~0.1 BDP */          \
	X(buffer_size, 8, 1, SPRITZ_BUF_MAX)   /* [P] good-path buffer slots */    \
	X(w_scale, 3, 1, 1000)                 /* [A][P] weight scale, Eq. 1 */    \
	X(disable_ms, 1000, 1, 3600000)        /* [L] global re-enable timer */    \
	X(timeout_us, 200000, 1, 60000000)     /* [L] = Linux TCP_RTO_MIN */       \
	X(min_bias_ecn_pct, 90, 0, 100)        /* [P] Alg. 2/3: ECN rate > 90% */  \
	X(min_bias_factor, 100, 1, 65535)      /* [L] like [A] small-flow weight */ \
	X(small_flow_bytes, 524288, 0, 1073741824) /* [A] 512 KiB */               \
	X(small_flow_weight, 100, 1, 65535)    /* [A] minimal-path weight */       \
	X(flowlet_gap_us, 50, 1, 10000000)     /* [L] Flicr flowlet gap */

/* A snapshot of every knob, as bpf_spritz_knobs() hands it to BPF. */
struct spritz_knob_values {
	__u32 algorithm; /* index into SPRITZ_ALGO_NAMES */
#define SPRITZ_KNOB_FIELD(name, def, min, max) __u32 name;
	SPRITZ_KNOBS(SPRITZ_KNOB_FIELD)
#undef SPRITZ_KNOB_FIELD
};

/* The "algorithm" knob: index = enum spritz_algo (lb.h), names as written. */
#define SPRITZ_ALGO_NAMES { "scout", "spray", "ops", "ecmp", "flicr" }
#define SPRITZ_ALGO_DEFAULT 0 /* scout */

#endif /* _SPRITZ_KNOBS_H */
