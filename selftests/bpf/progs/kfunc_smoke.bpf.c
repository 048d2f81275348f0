// SPDX-License-Identifier: GPL-2.0-only
/* Calls a spritz.ko kfunc from a tc program: loads only with the module. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include <spritz/kfuncs.h>

__u32 abi_version;
__u32 runs;

SEC("tc")
int kfunc_smoke(struct __sk_buff *skb)
{
	abi_version = bpf_spritz_abi_version();
	runs++;
	return 0; /* TC_ACT_OK */
}

char LICENSE[] SEC("license") = "GPL";
