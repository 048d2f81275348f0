// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf/spritz.bpf.c built for the native run of selftests/bench/bench_datapath
 * on a host without spritz.ko (this machine's kernel has BPF but no module
 * support): the benchmark build (SPRITZ_BENCH) with weak kfuncs, so that it
 * loads without the module.  The module's calls become dead code: a sample
 * fails (the packet leaves unsteered), knobs are the defaults, timeouts
 * disable nothing.  The paths the native figures measure - Scout's buffer
 * hit on egress, an ACK on ingress - call no kfunc but the knob snapshot,
 * which falls back to the same defaults the module starts with.
 */
#define SPRITZ_BENCH 1
#define SPRITZ_KFUNC_WEAK 1
#include "spritz.bpf.c"
