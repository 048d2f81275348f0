#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench, in the VM: insert spritz.ko, time bpf_spritz_pick() against an
# empty tc program (selftests/bench/bench_pick.c, which loads its table),
# remove the module.  Prints figures; fails only if something cannot run.
source "$(dirname "$0")/../lib/lib.sh"

require_root
spritz_insmod || exit 1
rc=0
for n in 8 200 4096; do
	"$SPRITZ_OUT/selftests/bench/bench_pick" "$n" "$@" || rc=1
done
spritz_rmmod || rc=1
exit $rc
