// SPDX-License-Identifier: GPL-2.0-only
/*
 * The benchmark floor: parse exactly what the datapath parses (bpf/parse.h)
 * and write a constant IPv6 flow label into TCP packets - the least any
 * program putting an EV in the flow label must do.  selftests/bench/
 * bench_datapath runs it beside spritz_egress/spritz_ingress.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "parse.h"

__u64 floor_managed;

SEC("tc")
int floor_prog(struct __sk_buff *skb)
{
	struct spritz_hdrs h;

	if (spritz_parse(skb, &h) == SPRITZ_PK_TCP6) {
		spritz_set_flowlabel(h.l3, 0x0305);
		floor_managed++;
	}
	return -1; /* TC_ACT_UNSPEC */
}

char LICENSE[] SEC("license") = "GPL";
