// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test programs for spritz.ko's kfuncs: many bpf_spritz_pick() calls per
 * run into a histogram by EV (sampling, concurrency and bench tests), a
 * timeout report, and a knob snapshot.  The concurrency check relies on
 * the tables of selftests/bpf/prog_tests/concurrency.c, where a path's EV2
 * equals its table's tag and its latency class: a pick whose EV2 and class
 * differ, or that fails, came from no complete table.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include <spritz/kfuncs.h>

#define PICKS_PER_RUN 1000

__u32 src, dst, flags, ev;
__u64 avoid; /* bpf_spritz_pick()'s avoid set */
__u32 hist[65536]; /* picks per EV */
__u64 picks, errors, bad, switches;
__s32 last_err, timeout_ret, knobs_ret;
__u32 prev_tag, check_tag;
struct spritz_knob_values knobs;

SEC("tc")
int pick(struct __sk_buff *skb)
{
	int i;

#pragma clang loop unroll(disable)
	for (i = 0; i < PICKS_PER_RUN; i++) {
		__s32 r = bpf_spritz_pick(src, dst, flags, avoid);

		if (r < 0) {
			errors++;
			last_err = r;
			continue;
		}
		picks++;
		hist[SPRITZ_PICK_EV(r)]++;
		if (check_tag) {
			__u32 tag = SPRITZ_EV2(r);

			if (tag != SPRITZ_PICK_LAT_CLASS(r))
				bad++;
			if (tag != prev_tag)
				switches++;
			prev_tag = tag;
		}
	}
	return 0; /* TC_ACT_OK */
}

SEC("tc")
int timeout(struct __sk_buff *skb)
{
	timeout_ret = bpf_spritz_path_timeout(src, dst, ev);
	return 0;
}

SEC("tc")
int knobs_snapshot(struct __sk_buff *skb)
{
	knobs_ret = bpf_spritz_knobs(&knobs, sizeof(knobs));
	return 0;
}

/* The bench baseline: a tc program doing nothing. */
SEC("tc")
int empty(struct __sk_buff *skb)
{
	return 0;
}

/* The bench: one pick per run. */
SEC("tc")
int pick_once(struct __sk_buff *skb)
{
	return bpf_spritz_pick(src, dst, flags, avoid) < 0;
}

char LICENSE[] SEC("license") = "GPL";
