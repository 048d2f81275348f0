#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# spritz.ko loaded and unloaded under traffic, every timer and work item
# armed (issue 13: a slab corruption after a module reload in the lab).
#
# Two namespaces joined by a veth pair; the sender (switch 3) runs Spritz
# on its eth0.  Each cycle: "spritzctl up" loads the module, a TCP transfer
# runs under Spray while the receiver drops the
# packets of the paths through first-hop port 0 (EV1 = 0 in the flow
# label), so those paths time out and are disabled (the dead-path rule,
# feedback.h: re-enable timers armed for disable_ms = 60 s, sampler
# rebuilds queued); the drops stop, a weight knob flips (a rebuild of every sampler
# queued), then "spritzctl down" detaches, flushes and unloads the module
# while the transfer still runs.  The transfer then finishes unsteered,
# with every byte.  Checked per cycle: paths were disabled before down (the
# timers were armed), the module is gone after it, nothing is left.  Any
# kernel report of the cycles (slab debugging, KFENCE, list corruption,
# WARN) fails the run in selftests/vm/run.
#
# Cycles: SPRITZ_RELOAD_CYCLES, default 2 (make soak: 30).  Runs in the
# VM as root, module not loaded.
source "$(dirname "$0")/spritzctl-lib.sh"

cycles=${SPRITZ_RELOAD_CYCLES:-2}
hosts=/tmp/spritz-hosts
printf 'fd00:3::/64 3\nfd00:5::/64 5\n' >$hosts

# The pair of namespaces, the receiver ready for a drop filter.
setup()
{
	ns_pair && ns spzb tc qdisc add dev eth0 clsact
}

# Sum of the disables of the paths from switch 3 to switch 5 (the flow's).
# awk, not jq: a poll's process competes with the traffic for the guest's
# CPU, and jq takes 0.3-0.5 s to start in a TCG guest.
disables()
{
	"$ctl" show paths --switch 3 --dst 5 |
		awk '$1 ~ /^[0-9]+$/ { d += $9 } END { print d + 0 }'
}

# One cycle: up, traffic with timeouts, a weight change, down under traffic.
cycle()
{
	local rc=0 rx tx d i txn txe rxn rxe t0=$SECONDS t1 t2 t3

	ns spza "$ctl" up --dev eth0 --topo $topo --switch 3 --hosts $hosts \
		--algorithm spray || return 1
	"$ctl" set disable_ms 60000 || rc=1
	blackhole on || rc=1
	rm -f /tmp/spritz-stop
	rx_start 5002 /tmp/spritz-rx --timeout 120
	rx=$!
	listening 5002 || rc=1
	ns spza $stream tx fd00:5::1 5002 --stop /tmp/spritz-stop --every 1 \
		--timeout 120 >/tmp/spritz-tx &
	tx=$!
	receiving 5002 || rc=1
	t1=$SECONDS
	# a hang catcher, not a bound on failover: the first disable comes
	# in 10-20 s of polling as a rule, but has taken 71 s in a loaded
	# 6.12 guest
	for ((i = 1; i <= 480; i++)); do
		d=$(disables)
		[ "$d" -gt 0 ] && break
		sleep 0.25
	done
	[ "$d" -gt 0 ] || { echo "no path disabled under traffic"; rc=1; }
	# the dead-path rule's counters, for whoever reads a slow or failed cycle
	"$ctl" show stats | awk '$1 ~ /^(fb_|eg_retrans|eg_ring_overrun|path_disables)/ {
		c = c " " $1 "=" $2 } END { print "#" c }'
	blackhole off
	"$ctl" set w_scale 3 || rc=1
	t2=$SECONDS
	ns spza "$ctl" down || { echo "down failed"; rc=1; }
	t3=$SECONDS
	[ ! -d /sys/module/spritz ] || { echo "module still loaded"; rc=1; }
	sleep 0.5
	touch /tmp/spritz-stop
	wait $tx
	wait $rx
	read -r txn _ _ txe </tmp/spritz-tx
	read -r rxn _ rxe </tmp/spritz-rx
	[ "$txe" = ok ] && [ "$rxe" = eof ] && [ -n "$txn" ] && [ "$txn" = "$rxn" ] ||
		{ echo "transfer: sent $txn $txe, received $rxn $rxe"; rc=1; }
	echo "disables before down: $d; bytes: $txn; seconds: up $((t1 - t0))," \
		"traffic $((t2 - t1)), down $((t3 - t2)), end $((SECONDS - t3))"
	return $rc
}

ktap_header $((cycles + 1))
run_test setup setup
for c in $(seq "$cycles"); do
	run_test "up_traffic_down_$c" cycle
done
ns_pair_del
ktap_finish
