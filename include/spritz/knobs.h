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
 * Defaults.  Sources: [T2] paper Table II, [P] paper text, [A] the authors'
 * artifact settings (shared/reference/README.md), [L] chosen for Linux
 * hosts where the paper gives no number (see the ABI document).
 */
#define SPRITZ_DEF_WEIGHTED 1		/* [A] weighted variants, Eq. 1 */
#define SPRITZ_DEF_EXPLORE_THRESHOLD 44	/* [T2] packets, ~0.5 BDP */
#define SPRITZ_DEF_ECN_THRESHOLD 8	/* [T2] marks, ~0.1 BDP */
#define SPRITZ_DEF_BUFFER_SIZE 8	/* [P] §V "8 positions", Alg. 2/3 "< 8" */
#define SPRITZ_DEF_W_SCALE 3		/* [A][P] §VI-A "scaled by a factor of 3" */
#define SPRITZ_DEF_DISABLE_MS 1000	/* [L] the "global timer" of §V-A */
#define SPRITZ_DEF_TIMEOUT_US 200000	/* [L] cap; Linux TCP_RTO_MIN, for flows without an RTT */
#define SPRITZ_DEF_TIMEOUT_MIN_US 100	/* [T2] floor: the paper's 100 us RTO */
#define SPRITZ_DEF_TIMEOUT_RTT_PCT 1366	/* [T2] 100 us RTO / 7.32 us RTT = 13.66 RTTs */
#define SPRITZ_DEF_MIN_BIAS_ECN_PCT 90	/* [P] Alg. 2/3 "ecn_rate > 90%" */
#define SPRITZ_DEF_MIN_BIAS_FACTOR 100	/* [L] as [A]'s small-flow weight */
#define SPRITZ_DEF_SMALL_FLOW_BYTES 524288 /* [A] flows under 512 KiB */
#define SPRITZ_DEF_SMALL_FLOW_WEIGHT 100 /* [A] minimal-path weight */
#define SPRITZ_DEF_FLOWLET_GAP_US 50	/* [L] Flicr flowlet gap */
#define SPRITZ_DEF_FLOW_DISABLES 4	/* [L] host-wide disables one flow may cause per disable_ms */
#define SPRITZ_DEF_PEER_DISABLES 8	/* [L] ... all flows to one peer address */
#define SPRITZ_DEF_MIN_ENABLED_PCT 50	/* [L] paths of a destination no TIMEOUT takes */

/* X(name, default, min, max) */
#define SPRITZ_KNOBS(X)                                                                \
	X(weighted, SPRITZ_DEF_WEIGHTED, 0, 1)                                         \
	X(explore_threshold, SPRITZ_DEF_EXPLORE_THRESHOLD, 1, 65535)                   \
	X(ecn_threshold, SPRITZ_DEF_ECN_THRESHOLD, 1, 65535)                           \
	X(buffer_size, SPRITZ_DEF_BUFFER_SIZE, 1, SPRITZ_BUF_MAX)                      \
	X(w_scale, SPRITZ_DEF_W_SCALE, 1, 1000)                                        \
	X(disable_ms, SPRITZ_DEF_DISABLE_MS, 1, 3600000)                               \
	X(timeout_us, SPRITZ_DEF_TIMEOUT_US, 1, 60000000)                              \
	X(timeout_min_us, SPRITZ_DEF_TIMEOUT_MIN_US, 1, 60000000)                      \
	X(timeout_rtt_pct, SPRITZ_DEF_TIMEOUT_RTT_PCT, 100, 100000)                    \
	X(min_bias_ecn_pct, SPRITZ_DEF_MIN_BIAS_ECN_PCT, 0, 100)                       \
	X(min_bias_factor, SPRITZ_DEF_MIN_BIAS_FACTOR, 1, 65535)                       \
	X(small_flow_bytes, SPRITZ_DEF_SMALL_FLOW_BYTES, 0, 1073741824)                \
	X(small_flow_weight, SPRITZ_DEF_SMALL_FLOW_WEIGHT, 1, 65535)                   \
	X(flowlet_gap_us, SPRITZ_DEF_FLOWLET_GAP_US, 1, 10000000)                      \
	X(flow_disables, SPRITZ_DEF_FLOW_DISABLES, 0, 255)                             \
	X(peer_disables, SPRITZ_DEF_PEER_DISABLES, 0, 255)                             \
	X(min_enabled_pct, SPRITZ_DEF_MIN_ENABLED_PCT, 0, 100)

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
