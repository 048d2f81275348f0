// SPDX-License-Identifier: GPL-2.0-only
/*
 * kfuncs exported to SCHED_CLS (tc) BPF programs: the Spritz send logic's
 * gen(w) (paper §V, Alg. 1 "Sample index i <- gen(w)"), the timeout
 * feedback that sets w[i] to zero (Alg. 2/3), and the knob snapshot.
 *
 * A program that calls any of them holds a reference on this module for
 * as long as it is loaded (the verifier pins the module owning a kfunc's
 * BTF), so the module cannot be unloaded under a running datapath.
 * None of them allocates or sleeps.  Documentation/kfuncs.rst lists names,
 * signatures, contexts and costs.
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

/**
 * bpf_spritz_pick - sample one path from switch @src to switch @dst (O(1))
 * @src: source switch (the sending device's)
 * @dst: destination switch
 * @flags: SPRITZ_PICK_*
 * @avoid: EVs not to return while another path is enabled (SPRITZ_AVOID_*)
 *
 * Returns SPRITZ_PICK(EV, lat_class), -ENOENT without a table for @src or a list
 * for @dst in it, -EINVAL for unknown flags or an @avoid of more than
 * SPRITZ_AVOID_MAX EVs.
 */
__bpf_kfunc s32 bpf_spritz_pick(u32 src, u32 dst, u32 flags, u64 avoid)
{
	return spritz_pick(src, dst, flags, avoid);
}

/**
 * bpf_spritz_path_timeout - a timeout on path @ev from @src to @dst: disable it
 * @src: source switch
 * @dst: destination switch
 * @ev: the EV the packet carried
 *
 * Returns 0, SPRITZ_TIMEOUT_KEPT if the destination's floor keeps it enabled
 * (nothing disabled), or -ENOENT if no live table has such a path.
 */
__bpf_kfunc s32 bpf_spritz_path_timeout(u32 src, u32 dst, u32 ev)
{
	return spritz_path_timeout(src, dst, ev);
}

/**
 * bpf_spritz_knobs - copy the current knob values into @out
 * @out: where to copy; may be NULL
 * @out__sz: sizeof(*out), checked by the verifier against the buffer
 *
 * The verifier lets a pointer that may be NULL (a map lookup's result
 * unchecked) through as the memory of a pointer + __sz pair, on 6.1 and
 * 6.12 alike, and this kfunc is not KF_TRUSTED_ARGS: NULL must be refused
 * here.
 *
 * Returns 0, or -EINVAL if @out is NULL or @out__sz is not
 * sizeof(struct spritz_knob_values).
 */
__bpf_kfunc s32 bpf_spritz_knobs(struct spritz_knob_values *out, u32 out__sz)
{
	if (!out || out__sz != sizeof(*out))
		return -EINVAL;
	out->algorithm = READ_ONCE(spritz_knobs.algorithm);
#define SPRITZ_KNOB_COPY(name, def, min, max) out->name = READ_ONCE(spritz_knobs.name);
	SPRITZ_KNOBS(SPRITZ_KNOB_COPY)
#undef SPRITZ_KNOB_COPY
	return 0;
}

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(spritz_kfunc_ids)
BTF_ID_FLAGS(func, bpf_spritz_abi_version)
BTF_ID_FLAGS(func, bpf_spritz_pick)
BTF_ID_FLAGS(func, bpf_spritz_path_timeout)
BTF_ID_FLAGS(func, bpf_spritz_knobs)
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
