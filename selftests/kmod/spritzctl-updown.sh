#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# spritzctl up / down on a dummy device (Documentation/deployment.rst):
# up/down cycles (SPRITZ_UPDOWN_CYCLES, default 2, make soak: 50) leave no
# pinned object, tc filter, clsact qdisc, BPF
# program or link, table or module behind; a second up changes nothing;
# every injected failure of up (bad device, bad topology, switch id out of
# range, module missing, BPF object missing, map pin path occupied) exits
# with a clear error and rolls back completely; up --per-packet turns TSO
# and GSO off and down restores them, also after an up that reattached a
# hook removed by hand; up --tcp-dupthresh sets the
# namespace's TCP loss detection and its last device's down restores it; a non-root caller is refused and
# changes nothing.  A failure injected at each step of up, down --dev and
# reload in turn (the tests' spritzctl-fault, $SPRITZ_FAULT: one row per
# step, plus a netlink error between two table transactions, ENOSPC
# half way through the directory and an unreadable live table at up) exits
# 1 and leaves the whole state (pins, maps, tables, knobs, attachments,
# offloads, TCP sysctls) as it was; so does up on a switch whose live table
# differs while another device uses it.  A failed unload of the module
# after the last down undoes none of down's steps.  Runs in
# the VM as root, module not loaded.
source "$(dirname "$0")/spritzctl-lib.sh"

cycles()
{
	local i

	for i in $(seq "${SPRITZ_UPDOWN_CYCLES:-2}"); do
		"$ctl" up "${args[@]}" || { echo "up $i failed"; return 1; }
		is_up || { echo "cycle $i"; return 1; }
		"$ctl" down || { echo "down $i failed"; return 1; }
		clean || { echo "cycle $i"; return 1; }
	done
}

idempotent()
{
	local a b

	"$ctl" up "${args[@]}" || return 1
	a=$(state)
	"$ctl" up "${args[@]}" >/dev/null || { echo "second up failed"; return 1; }
	b=$(state)
	[ "$a" = "$b" ] || { echo "state changed:"; diff <(echo "$a") <(echo "$b"); return 1; }
	"$ctl" down && "$ctl" down && clean
}

fail_dev()
{
	expect 1 "failed to find device nosuch" "$ctl" up --dev nosuch --topo $topo \
		--switch 3 --addr-plan fd00::/16 && clean
}

fail_topo()
{
	expect 2 "failed to parse topology" "$ctl" up --dev $dev --topo dragonfly:p=2 \
		--switch 3 --addr-plan fd00::/16 && clean
}

fail_switch()
{
	expect 2 "switch id out of range (topology has 36 switches, 0..35)" "$ctl" up \
		--dev $dev --topo $topo --switch 36 --addr-plan fd00::/16 && clean
}

fail_plan()
{
	expect 2 "failed to parse --addr-plan" "$ctl" up --dev $dev --topo $topo \
		--switch 3 --addr-plan fd00::/56 && clean
}

fail_module()
{
	SPRITZ_KO=/nonexistent/spritz.ko expect 1 \
		"failed to load module spritz: not installed for kernel $(uname -r) .*install the packages dkms and linux-headers-$(uname -r)" \
		"$ctl" up "${args[@]}" && clean
}

# The module, the table and the algorithm are in place by then.
fail_object()
{
	SPRITZ_BPF_OBJ=/nonexistent.bpf.o expect 1 "failed to open BPF object" \
		"$ctl" up "${args[@]}" && clean
}

fail_pin()
{
	mkdir -p $pins
	bpftool map create $pins/spritz_flows type array key 4 value 4 entries 1 name occupant ||
		return 1
	expect 1 "failed to pin maps under $pins: File exists" "$ctl" up "${args[@]}"
	local rc=$?
	[ "$(ls $pins)" = spritz_flows ] || { echo "left: $(ls $pins)"; rc=1; }
	rm -f $pins/spritz_flows
	rmdir $pins
	[ $rc -eq 0 ] && clean
}

non_root()
{
	local a

	expect 1 "failed to bring up spritz: permission denied (must be root)" \
		nobody "$ctl" up "${args[@]}" || return 1
	clean || return 1
	"$ctl" up "${args[@]}" || return 1
	a=$(state)
	expect 1 "failed to take spritz down: permission denied (must be root)" \
		nobody "$ctl" down || return 1
	[ "$a" = "$(state)" ] || { echo "state changed"; return 1; }
	"$ctl" down && clean
}

# down with --dev: only that device; the last one also unpins and unloads
down_dev()
{
	"$ctl" up "${args[@]}" || return 1
	expect 1 "failed to find device nosuch" "$ctl" down --dev nosuch || return 1
	is_up || return 1
	"$ctl" down --dev $dev && clean
}

# --algorithm is applied; on a failure later in up it is restored, and a
# module that up did not load stays loaded
algorithm()
{
	local rc=0

	"$ctl" up "${args[@]}" --algorithm flicr || return 1
	[ "$(cat /sys/kernel/spritz/algorithm)" = flicr ] || { echo "algorithm not set"; rc=1; }
	"$ctl" down || rc=1
	clean || return 1
	spritz_insmod || return 1
	echo scout >/sys/kernel/spritz/algorithm
	SPRITZ_BPF_OBJ=/nonexistent.bpf.o expect 1 "failed to open BPF object" \
		"$ctl" up "${args[@]}" --algorithm spray || rc=1
	[ "$(cat /sys/kernel/spritz/algorithm)" = scout ] || { echo "algorithm not restored"; rc=1; }
	[ "$(cat /sys/kernel/spritz/tables)" = 0 ] || { echo "table not flushed"; rc=1; }
	[ -d /sys/module/spritz ] || { echo "module unloaded"; rc=1; }
	expect 2 "failed to parse --algorithm" "$ctl" up "${args[@]}" --algorithm bogus || rc=1
	spritz_rmmod || rc=1
	[ $rc -eq 0 ] && clean
}

# TSO and GSO of $dev, "on|off on|off"
offloads()
{
	ethtool -k $dev | awk '/^tcp-segmentation-offload:/ { t = $2 }
		/^generic-segmentation-offload:/ { g = $2 } END { print t, g }'
}

# up --per-packet turns TSO and GSO off, down (of the device, or all)
# restores each as it was.
per_packet()
{
	local rc=0 f

	ethtool -K $dev tso on gso on || return 1
	[ "$(offloads)" = "on on" ] || { echo "cannot turn TSO/GSO on: $(offloads)"; return 1; }
	"$ctl" up "${args[@]}" --per-packet || return 1
	[ "$(offloads)" = "off off" ] || { echo "after up: $(offloads)"; rc=1; }
	f=$(bpftool -j map dump pinned $pins/spritzctl_state |
		jq ".[] | .formatted | select(.key == $(cat /sys/class/net/$dev/ifindex)) | .value.flags")
	[ "$f" = 14 ] || { echo "record flags $f, want per-packet, TSO and GSO were on (14)"; rc=1; }
	"$ctl" down --dev $dev || rc=1
	[ "$(offloads)" = "on on" ] || { echo "after down: $(offloads)"; rc=1; }
	clean || rc=1
	ethtool -K $dev tso off gso on || return 1
	"$ctl" up "${args[@]}" --per-packet || return 1
	[ "$(offloads)" = "off off" ] || { echo "after up: $(offloads)"; rc=1; }
	"$ctl" down || rc=1
	[ "$(offloads)" = "off on" ] || { echo "after down: $(offloads), want off on"; rc=1; }
	expect 2 "--per-packet is an option of up" "$ctl" reload --topo $topo --per-packet || rc=1
	# hooks removed by hand, then up again with and without --per-packet:
	# the record keeps what the first up found (TSO/GSO on, flags 14), and
	# down still restores it (up once recorded them as found off)
	for f in --per-packet ""; do
		ethtool -K $dev tso on gso on || return 1
		"$ctl" up "${args[@]}" --per-packet || return 1
		detach_by_hand $dev
		# shellcheck disable=SC2086 # $f: the option or nothing
		"$ctl" up "${args[@]}" $f || rc=1
		[ "$(offloads)" = "off off" ] || { echo "re-up $f: $(offloads)"; rc=1; }
		[ "$(tcp_rec $dev | cut -d' ' -f1)" = 14 ] ||
			{ echo "re-up $f: record $(tcp_rec $dev), want flags 14"; rc=1; }
		"$ctl" down || rc=1
		[ "$(offloads)" = "on on" ] ||
			{ echo "re-up $f and down: $(offloads), want on on"; rc=1; }
		clean || rc=1
	done
	ethtool -K $dev tso on gso on
	clean && return $rc
}

# "tcp_recovery tcp_reordering" of this namespace
tcp_now()
{
	local rec ord

	read -r rec </proc/sys/net/ipv4/tcp_recovery
	read -r ord </proc/sys/net/ipv4/tcp_reordering
	echo "$rec $ord"
}

# the record of DEV: "flags tcp_reordering tcp_reordering_was tcp_recovery_was"
tcp_rec()
{
	bpftool -j map dump pinned $pins/spritzctl_state | jq -r --argjson k \
		"$(cat /sys/class/net/$1/ifindex)" '.[] | .formatted | select(.key == $k) |
		.value | "\(.flags) \(.tcp_reordering) \(.tcp_reordering_was) \(.tcp_recovery_was)"'
}

# Remove spritz's hooks from DEV behind spritzctl's back (tcx link pins,
# or the cls_bpf filters of 6.1).
detach_by_hand() # DEV
{
	local h ifi

	ifi=$(cat /sys/class/net/$1/ifindex)
	for h in ingress egress; do
		rm -f $pins/link_${ifi}_$h
		tc filter del dev $1 $h pref $((0x5350)) 2>/dev/null
	done
}

# up --tcp-dupthresh N: RACK off and a threshold of N in the namespace, the
# values found in the record; a second device shares them (another N is
# refused); the namespace's last such device going down puts them back,
# unless they were changed since; bad values change nothing.  Rows:
# command -> exit, sysctls after ("tcp_recovery tcp_reordering").
tcp_dupthresh()
{
	local rc=0 max up1=(--dev "$dev1" --topo "$topo" --switch 5 --addr-plan fd00::/16)

	max=$(sysctl -n net.ipv4.tcp_max_reordering)
	sysctl -qw net.ipv4.tcp_recovery=1 net.ipv4.tcp_reordering=3 || return 1
	ip link add $dev1 type dummy && ip link set $dev1 up || return 1
	"$ctl" up "${args[@]}" --tcp-dupthresh 6 || rc=1
	[ "$(tcp_now)" = "0 6" ] || { echo "after up: $(tcp_now), want 0 6"; rc=1; }
	[ "$(tcp_rec $dev)" = "16 6 3 1" ] || { echo "record $(tcp_rec $dev), want 16 6 3 1"; rc=1; }
	expect 1 "this network namespace has --tcp-dupthresh 6 from another device" \
		"$ctl" up "${up1[@]}" --tcp-dupthresh 7 || rc=1
	[ "$(spritz_attached $dev1)" = 0 ] || { echo "$dev1 attached after refusal"; rc=1; }
	"$ctl" up "${up1[@]}" --tcp-dupthresh 6 || rc=1
	[ "$(tcp_rec $dev1)" = "16 6 3 1" ] || { echo "shared record $(tcp_rec $dev1)"; rc=1; }
	"$ctl" down --dev $dev || rc=1
	[ "$(tcp_now)" = "0 6" ] || { echo "$dev1 still up, yet $(tcp_now)"; rc=1; }
	"$ctl" down --dev $dev1 || rc=1
	[ "$(tcp_now)" = "1 3" ] || { echo "after the last down: $(tcp_now), want 1 3"; rc=1; }
	clean || rc=1
	# changed since up: left as the operator set them
	"$ctl" up "${args[@]}" --tcp-dupthresh 6 || rc=1
	sysctl -qw net.ipv4.tcp_reordering=10
	"$ctl" down || rc=1
	[ "$(tcp_now)" = "0 10" ] || { echo "changed since up: $(tcp_now), want 0 10"; rc=1; }
	sysctl -qw net.ipv4.tcp_recovery=1 net.ipv4.tcp_reordering=3
	# hooks removed by hand, then up without the flag: the record keeps
	# what the first up found, and down still puts it back
	"$ctl" up "${args[@]}" --tcp-dupthresh 6 || rc=1
	detach_by_hand $dev
	[ "$(spritz_attached $dev)" = 0 ] || { echo "$dev still attached"; rc=1; }
	"$ctl" up "${args[@]}" || rc=1
	[ "$(tcp_rec $dev)" = "16 6 3 1" ] || { echo "record after re-up $(tcp_rec $dev)"; rc=1; }
	"$ctl" down || rc=1
	[ "$(tcp_now)" = "1 3" ] || { echo "after re-up and down: $(tcp_now), want 1 3"; rc=1; }
	# down of every device: restored once, by the last
	"$ctl" up "${args[@]}" --tcp-dupthresh 40 && "$ctl" up "${up1[@]}" --tcp-dupthresh 40 ||
		rc=1
	"$ctl" down || rc=1
	[ "$(tcp_now)" = "1 3" ] || { echo "after down: $(tcp_now), want 1 3"; rc=1; }
	clean || rc=1
	# above the namespace's tcp_max_reordering: refused, nothing changed
	sysctl -qw net.ipv4.tcp_max_reordering=5
	expect 1 "failed to set tcp_reordering to 6: above net.ipv4.tcp_max_reordering (5)" \
		"$ctl" up "${args[@]}" --tcp-dupthresh 6 || rc=1
	sysctl -qw net.ipv4.tcp_max_reordering="$max"
	[ "$(tcp_now)" = "1 3" ] || { echo "after refusal: $(tcp_now)"; rc=1; }
	clean || rc=1
	expect 2 'failed to parse --tcp-dupthresh "2": expected a number of packets, 3..300' \
		"$ctl" up "${args[@]}" --tcp-dupthresh 2 || rc=1
	expect 2 'failed to parse --tcp-dupthresh "six"' "$ctl" up "${args[@]}" \
		--tcp-dupthresh six || rc=1
	expect 2 "--tcp-dupthresh is an option of up" "$ctl" reload --topo $topo \
		--tcp-dupthresh 6 || rc=1
	[ "$(tcp_now)" = "1 3" ] || { echo "after bad arguments: $(tcp_now)"; rc=1; }
	ip link del $dev1
	clean && return $rc
}

fctl=$SPRITZ_OUT/selftests/spritzctl-fault
dev1=spzud1
state_maps=$(map_names | grep -vx spritz_stats)

# Everything up, down and reload may change, but the counters: the pins,
# every map but spritz_stats (entries sorted: an LPM trie refilled may
# iterate in another order), the tables (EV lists and base weights; a
# COMMIT that puts one back is a new generation), every sysfs file of the
# module, the attachments, TSO/GSO of both devices and the TCP sysctls of up
# --tcp-dupthresh.
#
# Few processes: each costs 0.1 s in the TCG guest, and this runs twice
# per fault point.
whole_state()
{
	local f l n=0

	[ ! -d $pins ] || printf '%s\n' $pins/*
	# one entry per line, sorted (pin_dump: bpftool takes seconds for the
	# 65 536 UDP ports)
	# shellcheck disable=SC2086 # one argument per map
	$SPRITZ_OUT/selftests/pin_dump $pins $state_maps
	[ ! -d /sys/module/spritz ] || echo "module spritz"
	if [ -d /sys/kernel/spritz ]; then
		for f in /sys/kernel/spritz/*; do
			while IFS= read -r l || [ -n "$l" ]; do
				[ -z "$l" ] || echo "$f:$l"
			done 2>/dev/null <"$f"
		done
		# each table's switch and size, each path's dst, EV, class, base weight
		"$ctl" show paths | awk '/^table of switch/ { print $4, $7; next }
			$1 ~ /^[0-9]+$/ { print $1, $2, $3, $4 }'
	fi
	# tc filters of every device, program ids left out (6.1; tcx links
	# are the link_* pins listed above), and TSO/GSO of both devices
	bpftool net show | sed 's/:\[[0-9]*\]//; s/ id [0-9]*$//'
	while IFS= read -r l; do
		case $l in
		"Features for"*|tcp-segmentation-offload:*|generic-segmentation-offload:*) echo "$l" ;;
		esac
	done < <({ ethtool -k $dev; ethtool -k $dev1; } 2>/dev/null)
	while IFS= read -r l; do
		[[ $l != *spritz_* ]] || n=$((n + 1))
	done < <(bpftool prog list)
	echo "spritz programs: $n"
	tcp_now
}

# SPRITZ_FAULT=POINT for each POINT of $1 on the command $2...: exit 1,
# "injected fault", the whole state as before.
faults() # POINTS CMD...
{
	local a p rc=0 points=$1 t0
	shift

	a=$(whole_state)
	for p in $points; do
		t0=$EPOCHREALTIME
		# directory/mid: the directory map full (ENOSPC) half-way
		SPRITZ_KO=$(spritz_ko) SPRITZ_FAULT=$p \
			expect 1 'injected fault\|No space left on device' "$fctl" "$@" ||
			rc=1
		[ "$a" = "$(whole_state)" ] ||
			{ echo "$p: state changed:"; diff <(echo "$a") <(whole_state); rc=1; }
		ktap_time "$1 $p" "$t0"
	done
	return $rc
}

# The first device: everything, module included, undone after the last
# step; a second device (another switch, --algorithm, --per-packet,
# --tcp-dupthresh): each
# step undone, the first device untouched; then down --dev of the second
# and reload (another switch, address plan and algorithm) of the first.
fault_steps()
{
	local rc=0 up1=(--dev "$dev1" --topo "$topo" --switch 5 --addr-plan fd00::/16
		--algorithm spray --per-packet --tcp-dupthresh 6)

	[ -x "$fctl" ] || { echo "$fctl not built"; return 1; }
	ip link add $dev1 type dummy && ip link set $dev1 up || return 1
	ethtool -K $dev1 tso on gso on
	faults "module object attach+" up "${args[@]}" && clean || rc=1
	"$ctl" up "${args[@]}" || return 1
	faults "module table algorithm object directory offload tcp tcp+ device attach attach+" \
		up "${up1[@]}" || rc=1
	"$ctl" up "${up1[@]}" || rc=1
	faults "detach offload tcp tcp+ device table teardown" down --dev $dev1 || rc=1
	faults "tables tables/mid device directory directory/mid algorithm resync sync sync+" \
		reload --dev $dev --topo $topo --switch 4 --addr-plan fd01::/16 \
		--algorithm flicr || rc=1
	"$ctl" down || rc=1
	ip link del $dev1
	clean && return $rc
}

# A device on a switch whose live table differs (another link model) while
# another device uses it: refused.  The live table unreadable (EINTR
# injected at table/live) is no table to replace either: exit 1, the whole
# state as before.
live_table()
{
	local a rc=0 up1=(--dev "$dev1" --topo "$topo" --switch 3 --addr-plan fd00::/16
		--global-ns 700)

	ip link add $dev1 type dummy && ip link set $dev1 up || return 1
	"$ctl" up "${args[@]}" || return 1
	a=$(whole_state)
	expect 1 "the live table of switch 3 differs from the one of $topo, and another device uses it" \
		"$ctl" up "${up1[@]}" || rc=1
	SPRITZ_KO=$(spritz_ko) SPRITZ_FAULT=table/live expect 1 \
		"failed to read live table of switch 3: Interrupted system call" "$fctl" up "${up1[@]}" ||
		rc=1
	[ "$a" = "$(whole_state)" ] ||
		{ echo "state changed:"; diff <(echo "$a") <(whole_state); rc=1; }
	"$ctl" down || rc=1
	ip link del $dev1
	clean && return $rc
}

# The last down --dev whose unload of spritz.ko fails (EBUSY injected at
# teardown/unload) after everything was unpinned: exit 1 with the reason,
# and none of its steps undone: TSO/GSO and the TCP sysctls stay restored
# (the undos once turned them off again, with no record left for another
# down), nothing pinned, no table; the module stays loaded for rmmod.
fault_unload()
{
	local rc=0

	ethtool -K $dev tso on gso on || return 1
	sysctl -qw net.ipv4.tcp_recovery=1 net.ipv4.tcp_reordering=3 || return 1
	"$ctl" up "${args[@]}" --per-packet --tcp-dupthresh 6 || return 1
	[ "$(offloads) $(tcp_now)" = "off off 0 6" ] ||
		{ echo "after up: $(offloads) $(tcp_now)"; rc=1; }
	SPRITZ_FAULT=teardown/unload expect 1 \
		"failed to unload module spritz: Device or resource busy (spritz is down" \
		"$fctl" down --dev $dev || rc=1
	[ "$(offloads)" = "on on" ] || { echo "after down: $(offloads), want on on"; rc=1; }
	[ "$(tcp_now)" = "1 3" ] || { echo "after down: $(tcp_now), want 1 3"; rc=1; }
	[ ! -e $pins ] || { echo "left: $(ls $pins)"; rc=1; }
	[ "$(spritz_attached $dev)" = 0 ] || { echo "$dev still attached"; rc=1; }
	[ -d /sys/module/spritz ] || { echo "module unloaded after all"; rc=1; }
	[ "$(cat /sys/kernel/spritz/tables 2>/dev/null)" = 0 ] || { echo "tables left"; rc=1; }
	"$ctl" down || rc=1
	spritz_rmmod || rc=1
	clean && return $rc
}

ktap_header 18
run_test clean_at_start clean
run_test up_down_cycles cycles
run_test up_twice_changes_nothing idempotent
run_test down_dev down_dev
run_test algorithm_and_rollback algorithm
run_test per_packet_offloads per_packet
run_test tcp_dupthresh tcp_dupthresh
run_test fail_bad_device fail_dev
run_test fail_bad_topology fail_topo
run_test fail_switch_out_of_range fail_switch
run_test fail_bad_addr_plan fail_plan
run_test fail_module_missing fail_module
run_test fail_bpf_object_missing fail_object
run_test fail_pin_path_occupied fail_pin
run_test non_root_refused non_root
run_test fault_at_each_step fault_steps
run_test live_table_differs_or_unreadable live_table
run_test fault_unload_undoes_nothing fault_unload
"$ctl" down >/dev/null 2>&1
ip link del $dev
ktap_finish
