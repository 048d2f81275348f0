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

#ifdef __bpf__
#define SPRITZ_KFUNC extern __attribute__((section(".ksyms")))
#else
#define SPRITZ_KFUNC
#endif

/* The SPRITZ_ABI_VERSION the module was built with. */
SPRITZ_KFUNC __u32 bpf_spritz_abi_version(void);

#endif /* _SPRITZ_KFUNCS_H */
