// SPDX-License-Identifier: GPL-2.0-only
/*
 * kfuncs exported to SCHED_CLS (tc) BPF programs.
 *
 * A program that calls any of them holds a reference on this module for
 * as long as it is loaded (the verifier pins the module owning a kfunc's
 * BTF), so the module cannot be unloaded under a running datapath.
 * Documentation/kfuncs.rst lists names and signatures.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bpf.h>
#include <linux/module.h>

#include <spritz/kfuncs.h>

#include "compat.h"
#include "spritz.h"

__bpf_kfunc_start_defs();

/**
 * bpf_spritz_abi_version - the SPRITZ_ABI_VERSION this module was built with
 *
 * Lets a program (or a test) check that it talks to a module speaking the
 * same include/spritz ABI.
 */
__bpf_kfunc u32 bpf_spritz_abi_version(void)
{
	return SPRITZ_ABI_VERSION;
}

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(spritz_kfunc_ids)
BTF_ID_FLAGS(func, bpf_spritz_abi_version)
BTF_KFUNCS_END(spritz_kfunc_ids)

static const struct btf_kfunc_id_set spritz_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &spritz_kfunc_ids,
};

/* Register the kfunc set for tc programs; needs module BTF. */
int spritz_kfuncs_init(void)
{
	return register_btf_kfunc_id_set(BPF_PROG_TYPE_SCHED_CLS, &spritz_kfunc_set);
}
