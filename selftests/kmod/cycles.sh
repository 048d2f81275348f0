#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Load/unload cycles of spritz.ko, each leaving the module busy (live table,
# armed re-enable timers, pending rebuild, open transaction whose socket a
# child process holds open: see selftests/bpf/prog_tests/lifecycle.c)
# before rmmod, which must succeed; the holder is killed after the rmmod.
# Leak check: Debian kernels have no kmemleak, so the cycles run in a memory
# cgroup; the module allocates with __GFP_ACCOUNT, so every table is
# charged to the cgroup of the process that loads it.  The cgroup's kernel
# memory may not grow by more than 1 MiB over the cycles, while one leaked
# table of this test is about 0.6 MiB per cycle.  Cycles: SPRITZ_CYCLES,
# default 5 (make soak: 50).  Runs in the VM as root.
source "$(dirname "$0")/../lib/lib.sh"

require_root
ko=$(spritz_ko)
[ -f "$ko" ] || { echo "# $ko not built"; exit $KSFT_FAIL; }
prog=$SPRITZ_OUT/selftests/bpf/lifecycle
cycles=${SPRITZ_CYCLES:-5}
cg=/sys/fs/cgroup/spritz-cycles

kmem() # kernel memory charged to $cg, bytes
{
	local k

	k=$(awk '$1 == "kernel" { print $2 }' "$cg/memory.stat")
	[ -n "$k" ] || k=$(awk '$1 == "slab" || $1 == "vmalloc" || $1 == "percpu" { s += $2 }
		END { print s }' "$cg/memory.stat")
	echo "$k"
}

holder=$(mktemp)

# Kill the process holding the lifecycle test's socket; wait (10 s at most)
# until it has exited (gone, or a zombie: its files are closed either way).
kill_holder()
{
	local pid i state

	pid=$(cat "$holder" 2>/dev/null)
	: >"$holder"
	[ -n "$pid" ] || return 0
	kill -KILL "$pid" 2>/dev/null
	for ((i = 1; i <= 100; i++)); do
		state=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)
		case $state in ''|Z|X) return 0 ;; esac
		sleep 0.1
	done
	echo "socket holder $pid did not exit"
	return 1
}

cycle()
{
	local rc=0

	insmod "$ko" || return 1
	SPRITZ_HOLDER_PIDFILE=$holder "$prog" >/dev/null || { echo "lifecycle test failed"; rc=1; }
	[ -s "$holder" ] || { echo "no socket holder"; rc=1; }
	spritz_rmmod || { echo "rmmod refused"; rc=1; }
	kill_holder || rc=1
	[ ! -d /sys/module/spritz ] || rc=1
	return $rc
}

leak_check()
{
	local after growth

	sleep 1 # RCU-deferred frees of the cycles' tasks
	after=$(kmem)
	growth=$((after - base))
	echo "kernel memory of the cgroup: $base -> $after bytes ($growth)"
	[ "$growth" -lt 1048576 ]
}

ktap_header $((cycles + 1))
echo +memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
mkdir -p "$cg"
echo $$ >"$cg/cgroup.procs"
cycle >/dev/null 2>&1 # warm-up: first-use allocations of BPF, BTF, netlink
sleep 1
base=$(kmem)
for i in $(seq "$cycles"); do
	run_test "cycle_$i" cycle
done
run_test no_leak leak_check
echo $$ >/sys/fs/cgroup/cgroup.procs
rmdir "$cg" 2>/dev/null
rm -f "$holder"
ktap_finish
