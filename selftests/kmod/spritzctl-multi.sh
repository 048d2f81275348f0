#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# spritzctl up / down with several devices sharing the pinned object
# (Documentation/spritzctl.8): a second device on the same switch leaves the
# live table alone, one on another switch adds a table; down --dev flushes
# a table only when no device uses it, and the last device's down removes
# everything; a second device whose up fails is rolled back completely; a
# module that up did not load stays loaded.  Devices in network namespaces
# (entered with nsenter --net, or spritzctl -n NAME as the lab does) share
# it too: link pins are
# per ifindex, concurrent ups serialise, an ifindex up in another namespace
# is refused, down without --dev takes every namespace's devices down, and
# a namespace deleted without down neither keeps the object pinned nor
# blocks its ifindex; --tcp-dupthresh changes its own namespace's TCP only,
# and down puts it back there.
# --hosts files: entries (IPv4 as ::ffff:a.b.c.d/96+n) in the directory,
# a bad line refused naming FILE:LINE with nothing changed.  Runs in the VM
# as root, module not loaded.
source "$(dirname "$0")/spritzctl-lib.sh"

# Several devices share the object; tables follow the devices' switches.
two_devices()
{
	local a b c rc=0 i3

	ip link add ${dev}b type dummy && ip link add ${dev}c type dummy || return 1
	"$ctl" up "${args[@]}" || rc=1
	a=$(tables)
	# same switch: the live table is left as it is
	"$ctl" up --dev ${dev}b --topo $topo --switch 3 --addr-plan fd00::/16 || rc=1
	[ "$(tables)" = "$a" ] || { echo "table 3 replaced: $a -> $(tables)"; rc=1; }
	# another switch: one more table
	"$ctl" up --dev ${dev}c --topo $topo --switch 5 --addr-plan fd00::/16 || rc=1
	[ "$(tables | cut -d: -f1 | xargs)" = "3 5" ] || { echo "tables: $(tables)"; rc=1; }
	i3=$(cat /sys/class/net/$dev/ifindex)
	b=$(cat /sys/class/net/${dev}b/ifindex)
	c=$(cat /sys/class/net/${dev}c/ifindex)
	[ "$(devs)" = "$(printf '%s\n' $i3:3 $b:3 $c:5 | sort)" ] || { echo "devs: $(devs)"; rc=1; }
	for d in $dev ${dev}b ${dev}c; do
		[ "$(spritz_attached $d)" = 2 ] || { echo "$d not attached"; rc=1; }
	done
	# a second up of a device changes nothing, another switch is refused
	a=$(state)
	"$ctl" up --dev ${dev}c --topo $topo --switch 5 --addr-plan fd00::/16 >/dev/null || rc=1
	expect 1 "failed to bring up spritz on ${dev}c: already up with switch 5" \
		"$ctl" up --dev ${dev}c --topo $topo --switch 6 --addr-plan fd00::/16 || rc=1
	[ "$a" = "$(state)" ] || { echo "state changed"; rc=1; }
	# down: table 5 goes with its only device, 3 stays while a device uses it
	"$ctl" down --dev ${dev}c || rc=1
	[ "$(tables | cut -d: -f1 | xargs)" = 3 ] || { echo "after down c: $(tables)"; rc=1; }
	[ "$(spritz_attached ${dev}c)" = 0 ] || { echo "${dev}c still attached"; rc=1; }
	"$ctl" down --dev $dev || rc=1
	[ "$(tables | cut -d: -f1 | xargs)" = 3 ] || { echo "after down: $(tables)"; rc=1; }
	[ "$(devs)" = "$b:3" ] || { echo "devs: $(devs)"; rc=1; }
	is_pinned || rc=1
	"$ctl" down --dev ${dev}b || rc=1
	ip link del ${dev}b
	ip link del ${dev}c
	[ $rc -eq 0 ] && clean
}

# A second device whose up fails late (directory conflict) is rolled back
# completely and leaves the first device's state alone.
reuse_rollback()
{
	local a rc=0 hosts=/tmp/spritz-hosts-conflict

	ip link add ${dev}b type dummy || return 1
	"$ctl" up "${args[@]}" || rc=1
	a=$(state)
	printf 'fd00:1::/64 2\n' >$hosts
	expect 1 "directory conflict: fd00:1::/64 is switch 1 in the directory, 2 here" \
		"$ctl" up --dev ${dev}b --topo $topo --switch 7 --hosts $hosts || rc=1
	[ "$a" = "$(state)" ] || { echo "state changed:"; diff <(echo "$a") <(echo "$(state)"); rc=1; }
	[ "$(spritz_attached ${dev}b)" = 0 ] || { echo "${dev}b attached"; rc=1; }
	"$ctl" down || rc=1
	ip link del ${dev}b
	rm -f $hosts
	[ $rc -eq 0 ] && clean
}

# A module that was loaded before up stays loaded after the last down.
module_kept()
{
	local rc=0

	spritz_insmod || return 1
	"$ctl" up "${args[@]}" || rc=1
	"$ctl" down || rc=1
	[ -d /sys/module/spritz ] || { echo "down unloaded a module up did not load"; rc=1; }
	[ "$(cat /sys/kernel/spritz/tables)" = 0 ] || { echo "tables left"; rc=1; }
	spritz_rmmod || rc=1
	[ $rc -eq 0 ] && clean
}

# --hosts: IPv6 and IPv4 entries in the directory; bad lines refused with
# FILE:LINE and nothing changed.
hosts_file()
{
	local f=/tmp/spritz-hosts rc=0 got want

	cat >$f <<-EOF
	# switch addresses
	fd00:1::/64 1   # a comment
	fd00:2::7 2

	10.0.5.0/24 5
	10.1.2.3 6
	EOF
	"$ctl" up --dev $dev --topo $topo --switch 3 --hosts $f || return 1
	got=$(bpftool -j map dump pinned $pins/spritz_dir |
		jq -r '.[] | .formatted | "\(.key.prefixlen) \(.key.addr | map(tostring) | join(".")) \(.value.dst_switch)"' |
		sort)
	want=$(printf '%s\n' "64 253.0.0.1.0.0.0.0.0.0.0.0.0.0.0.0 1" \
		"128 253.0.0.2.0.0.0.0.0.0.0.0.0.0.0.7 2" \
		"120 0.0.0.0.0.0.0.0.0.0.255.255.10.0.5.0 5" \
		"128 0.0.0.0.0.0.0.0.0.0.255.255.10.1.2.3 6" | sort)
	[ "$got" = "$want" ] || { echo "directory:"; echo "$got"; rc=1; }
	"$ctl" down || rc=1
	clean || rc=1
	# bad lines: exit 2, FILE:LINE, nothing changed
	bad_hosts "$f:2: invalid IPv6 address" '# x' 'fd00:::1 3' || rc=1
	bad_hosts "$f:1: switch 36 out of range (topology has 36 switches, 0..35)" 'fd00::/64 36' || rc=1
	bad_hosts "$f:3: duplicate of line 1" '10.0.0.0/8 1' 'fd00::/64 2' '10.0.0.0/8 1' || rc=1
	bad_hosts "$f:1: fd00::1/64 has bits set past the prefix length" 'fd00::1/64 1' || rc=1
	bad_hosts "$f:1: prefix length 33 out of range for IPv4" '10.0.0.0/33 1' || rc=1
	bad_hosts "$f:1: expected \"ADDRESS\[/PREFIXLEN\] SWITCH\"" 'fd00::/64 1 2' || rc=1
	bad_hosts "$f:1: invalid switch id \"x\"" 'fd00::/64 x' || rc=1
	bad_hosts "$f: no entries" '# nothing' || rc=1
	expect 1 "failed to read hosts file /nonexistent: No such file or directory" \
		"$ctl" up --dev $dev --topo $topo --switch 3 --hosts /nonexistent || rc=1
	expect 2 "exclude each other" "$ctl" up --dev $dev --topo $topo --switch 3 \
		--hosts $f --addr-plan fd00::/16 || rc=1
	rm -f $f
	[ $rc -eq 0 ] && clean
}

bad_hosts() # PATTERN LINE...
{
	local pat=$1 f=/tmp/spritz-hosts
	shift
	printf '%s\n' "$@" >$f
	expect 2 "failed to parse hosts file $pat" "$ctl" up --dev $dev --topo $topo \
		--switch 3 --hosts $f && clean
}

# "tcp_recovery tcp_reordering" of namespace $1 (none: this one)
ns_tcp()
{
	if [ -n "$1" ]; then
		ns "$1" sysctl -n net.ipv4.tcp_recovery net.ipv4.tcp_reordering | xargs
	else
		sysctl -n net.ipv4.tcp_recovery net.ipv4.tcp_reordering | xargs
	fi
}

# Hosts in network namespaces share the object; each namespace's eth0 has a
# distinct ifindex.  Their ups run concurrently, spz2's entered by
# spritzctl -n (as the lab does), the others' by nsenter --net.  The
# per-device down and the refused up use -n too.
netns_hosts()
{
	local i rc=0 n=3 pids=() dupthresh=([1]=6 [3]=7) init_tcp

	init_tcp=$(ns_tcp)
	for i in $(seq $n); do
		ip netns add spz$i || return 1
		ip link add name v$i index $((3000 + i)) type veth peer name eth0 \
			index $((3100 + i)) netns spz$i || return 1
		ip link set v$i up
		ns spz$i ip link set eth0 up
	done
	# all at once: the first loads the object, the others wait for the
	# lock and reuse it
	# --tcp-dupthresh is each namespace's own: 6 in spz1, none in spz2, 7 in spz3
	for i in $(seq $n); do
		if [ $i = 2 ]; then
			"$ctl" -n spz$i up --dev eth0 --topo $topo --switch $((i + 2)) \
				--addr-plan fd00::/16 &
		else
			ns spz$i "$ctl" up --dev eth0 --topo $topo --switch $((i + 2)) \
				--addr-plan fd00::/16 ${dupthresh[i]:+--tcp-dupthresh ${dupthresh[i]}} &
		fi
		pids[i]=$!
	done
	for i in $(seq $n); do
		wait ${pids[i]} || { echo "up in spz$i failed"; rc=1; }
	done
	[ "$(devs | xargs)" = "3101:3 3102:4 3103:5" ] || { echo "devs: $(devs)"; rc=1; }
	[ "$(tables | cut -d: -f1 | xargs)" = "3 4 5" ] || { echo "tables: $(tables)"; rc=1; }
	for i in $(seq $n); do
		[ "$(ns_attached spz$i)" = 2 ] ||
			{ echo "spz$i/eth0 not attached"; rc=1; }
	done
	[ "$(ns_tcp spz1) $(ns_tcp spz2) $(ns_tcp spz3)" = "0 6 1 3 0 7" ] ||
		{ echo "TCP sysctls: $(ns_tcp spz1), $(ns_tcp spz2), $(ns_tcp spz3)"; rc=1; }
	[ "$(ns_tcp)" = "$init_tcp" ] || { echo "initial namespace: $(ns_tcp)"; rc=1; }
	# the same ifindex in another namespace is refused
	ip netns add spzx
	ip link add name vx index 3199 type veth peer name eth0 index 3101 netns spzx
	ns spzx ip link set eth0 up
	expect 1 "ifindex 3101 is already up in another network namespace" \
		"$ctl" -n spzx up --dev eth0 --topo $topo --switch 9 --addr-plan fd00::/16 || rc=1
	[ "$(ns spzx tc filter show dev eth0 egress)" = "" ] || { echo "spzx attached"; rc=1; }
	ip netns del spzx
	# a per-device down in a namespace
	"$ctl" -n spz1 down --dev eth0 || rc=1
	[ "$(ns_tcp spz1)" = "1 3" ] || { echo "spz1 after down: $(ns_tcp spz1)"; rc=1; }
	[ "$(devs | xargs)" = "3102:4 3103:5" ] || { echo "devs: $(devs)"; rc=1; }
	[ "$(tables | cut -d: -f1 | xargs)" = "4 5" ] || { echo "tables: $(tables)"; rc=1; }
	# a namespace deleted without down: its record is dropped by the next down
	ip netns del spz2
	sleep 0.5
	# down from the initial namespace takes spz3's device down as well
	"$ctl" down || rc=1
	[ "$(ns spz3 tc filter show dev eth0 egress)" = "" ] || { echo "spz3 attached"; rc=1; }
	[ "$(ns_tcp spz3)" = "1 3" ] || { echo "spz3 after down: $(ns_tcp spz3)"; rc=1; }
	[ "$(ns_tcp)" = "$init_tcp" ] || { echo "initial namespace: $(ns_tcp)"; rc=1; }
	for i in 1 3; do ip netns del spz$i; done
	for i in $(seq $n); do ip link del v$i 2>/dev/null; done
	ip link del vx 2>/dev/null
	[ $rc -eq 0 ] && clean
}

# the last device gone with its namespace: down --dev of the others, and
# finally down, still remove everything
netns_stale()
{
	local rc=0

	ip netns add spzs || return 1
	ip link add name vs index 3200 type veth peer name eth0 index 3201 netns spzs || return 1
	ns spzs "$ctl" up --dev eth0 --topo $topo --switch 4 --addr-plan fd00::/16 || rc=1
	"$ctl" up "${args[@]}" || rc=1
	ip netns del spzs
	sleep 0.5
	# its ifindex is free again for a device of another namespace
	ip netns add spzt || return 1
	ip link add name vt index 3202 type veth peer name eth0 index 3201 netns spzt || return 1
	ns spzt "$ctl" up --dev eth0 --topo $topo --switch 4 --addr-plan fd00::/16 || rc=1
	# devs sorts as text: so does the expectation (ifindex 6 sorts after 3201)
	[ "$(devs | xargs)" = "$(printf '%s\n' "$(cat /sys/class/net/$dev/ifindex):3" 3201:4 |
		sort | xargs)" ] || { echo "devs: $(devs | xargs)"; rc=1; }
	[ "$(ns_attached spzt)" = 2 ] || { echo "spzt/eth0 not attached"; rc=1; }
	ip netns del spzt
	sleep 0.5
	"$ctl" down --dev $dev || rc=1
	[ ! -e $pins ] || { echo "left: $(ls $pins)"; rc=1; }
	ip link del vs 2>/dev/null
	ip link del vt 2>/dev/null
	[ $rc -eq 0 ] && clean
}

ktap_header 7
run_test clean_at_start clean
run_test two_devices two_devices
run_test second_device_rollback reuse_rollback
run_test module_loaded_before_up_kept module_kept
run_test hosts_file hosts_file
run_test netns_hosts netns_hosts
run_test netns_deleted_without_down netns_stale
"$ctl" down >/dev/null 2>&1
ip link del $dev
ktap_finish
