// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf_spritz_knobs() on a map value that may be NULL: the lookup's result
 * goes to the kfunc unchecked.  The verifier lets a maybe-NULL pointer
 * through as the memory of a pointer + __sz pair, so the kfunc itself must
 * refuse NULL (selftests/bpf/prog_tests/kfunc.c).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include <spritz/kfuncs.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct spritz_knob_values);
} knob_vals SEC(".maps");

__u32 key;
__s32 ret = 1;

SEC("tc")
int knobs_lookup(struct __sk_buff *skb)
{
	struct spritz_knob_values *v = bpf_map_lookup_elem(&knob_vals, &key);

	/* no NULL check, on purpose */
	ret = bpf_spritz_knobs(v, sizeof(*v));
	return 0; /* TC_ACT_OK */
}

char LICENSE[] SEC("license") = "GPL";
