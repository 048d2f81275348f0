#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Shared by the spritzctl up/down suites (spritzctl-updown.sh,
# spritzctl-multi.sh, spritzctl-reload.sh): the dummy device, the arguments
# of up, and checks of what up leaves in place and down removes.  Sourced;
# runs in the VM as root, module not loaded.
source "$(dirname "${BASH_SOURCE[0]}")/../lib/lib.sh"

require_root
command -v jq >/dev/null || { echo "# SKIP: jq not installed"; exit $KSFT_SKIP; }
ctl=$SPRITZ_OUT/spritzctl
[ -x "$ctl" ] || { echo "# $ctl not built"; exit $KSFT_FAIL; }
# the transfers' sender and receiver (selftests/tools/tcp_stream.c)
stream=$SPRITZ_OUT/selftests/tcp_stream
[ -x "$stream" ] || { echo "# $stream not built"; exit $KSFT_FAIL; }
[ -f "$(spritz_ko)" ] || { echo "# $(spritz_ko) not built"; exit $KSFT_FAIL; }
[ -d /sys/module/spritz ] && { echo "# spritz already loaded"; exit $KSFT_FAIL; }
dev=spzud0
pins=/sys/fs/bpf/spritz
topo=dragonfly:p=2,a=4,h=2
# shellcheck disable=SC2034 # the scripts that source this file use it
args=(--dev "$dev" --topo "$topo" --switch 3 --addr-plan fd00::/16)

mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf
ip link del $dev 2>/dev/null
ip link add $dev type dummy && ip link set $dev up || exit $KSFT_FAIL

# Nothing of Spritz's left anywhere.
clean()
{
	[ ! -e $pins ] || { echo "left: $(ls $pins)"; return 1; }
	[ ! -d /sys/module/spritz ] || { echo "module still loaded"; return 1; }
	[ -z "$(tc filter show dev $dev ingress)" ] || { echo "ingress filter left"; return 1; }
	[ -z "$(tc filter show dev $dev egress)" ] || { echo "egress filter left"; return 1; }
	! tc qdisc show dev $dev | grep -q clsact || { echo "clsact left"; return 1; }
	[ -z "$(bpftool prog list | grep spritz_)" ] || { echo "programs left"; return 1; }
	[ -z "$(bpftool link list)" ] || { echo "links left: $(bpftool link list)"; return 1; }
}

# The maps of the datapath object: every SPRITZ_MAP_* of maps.h.
map_names()
{
	sed -n 's/^#define SPRITZ_MAP_[A-Z]* "\(.*\)"$/\1/p' "$SPRITZ_TOP/include/spritz/maps.h"
}

# Everything of "up" in place; every map pinned with BTF (bpftool prints
# its fields by name).
is_up()
{
	local m

	for m in $(map_names) spritz_egress spritz_ingress; do
		[ -e $pins/$m ] || { echo "$m not pinned"; return 1; }
	done
	# one listing of all maps with their pins (a process less per map)
	m=$(bpftool -j -f map show | jq -r --arg d "$pins/" \
		'.[] | select((.btf_id // 0) == 0) | .pinned[]? | select(startswith($d))') ||
		{ echo "cannot list maps"; return 1; }
	[ -z "$m" ] || { echo "no BTF: $m"; return 1; }
	[ "$(cat /sys/kernel/spritz/tables)" -gt 0 ] || { echo "no table"; return 1; }
	[ "$(bpftool prog list | grep -c 'spritz_[ei]')" -eq 2 ] ||
		{ echo "programs: $(bpftool prog list | grep spritz_)"; return 1; }
	# every switch of the plan: the directory is shared by all devices
	[ "$(bpftool map dump pinned $pins/spritz_dir | grep -c dst_switch)" -eq 36 ] ||
		{ echo "directory not filled"; return 1; }
	[ "$(devs)" = "$(cat /sys/class/net/$dev/ifindex):3" ] ||
		{ echo "spritz_devs: $(devs)"; return 1; }
}

# spritz_devs as sorted "ifindex:switch" lines
devs()
{
	bpftool -j map dump pinned $pins/spritz_devs |
		jq -r '.[] | .formatted | "\(.key.ifindex):\(.value.src_switch)"' | sort
}

# "switch:generation" of every live table (from "table of switch S:
# generation G, N switches")
tables()
{
	"$ctl" show paths | awk '/^table of switch / { print $4 $6 + 0 }'
}

# A snapshot of the state "up" creates, for idempotence.
state()
{
	ls $pins
	tc filter show dev $dev ingress
	tc filter show dev $dev egress
	# without the run counters (kernel.bpf_stats_enabled): packets, not state
	bpftool prog list | grep spritz_ | sed 's/ run_time_ns [0-9]* run_cnt [0-9]*//'
	bpftool link list
	cat /sys/kernel/spritz/tables /sys/kernel/spritz/paths
	grep '^spritz ' /proc/modules | cut -d' ' -f1-2
	bpftool map dump pinned $pins/spritz_devs
	bpftool map dump pinned $pins/spritz_dir
	bpftool map dump pinned $pins/spritzctl_state
	tables
}

# Counters NAME... of spritz_stats (summed over CPUs), on one line.  awk,
# not jq: jq takes 0.3-0.5 s to start in a TCG guest.
spritz_stats() # NAME...
{
	"$ctl" show stats | awk -v names="$*" '{ v[$1] = $2 }
		END { n = split(names, k, " ")
		      for (i = 1; i <= n; i++)
			      printf "%s%s", (k[i] in v ? v[k[i]] : 0), i < n ? " " : "\n" }'
}

# Number of hooks of DEV with a spritz program (tcx link pin or our filter).
spritz_attached()
{
	local n=0 ifi

	ifi=$(ip -o link show dev "$1" | cut -d: -f1)
	for h in ingress egress; do
		if [ -e $pins/link_${ifi}_$h ] || tc filter show dev $1 $h | grep -q spritz_; then
			n=$((n + 1))
		fi
	done
	echo $n
}

is_pinned()
{
	[ -e $pins/spritz_egress ] || { echo "object unpinned"; return 1; }
}

# spritz_attached for eth0 of namespace NS
ns_attached() # NS
{
	ns "$1" bash -c "$(declare -f spritz_attached); pins=$pins; spritz_attached eth0"
}

ns() # NAME CMD...
{
	local n=$1
	shift
	nsenter --net=/run/netns/$n "$@"
}

nobody() # CMD...: run as uid/gid 65534
{
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# Start a tcp_stream receiver on PORT in spzb in the background ($!
# is its job), its line into OUT, more rx OPTIONs passed on.  It reports
# its progress in /tmp/spritz-ready.PORT for listening and receiving
# below; the last receiver's report is removed first, here in the
# foreground, so that they never read it.
rx_start() # PORT OUT [OPTION...]
{
	local port=$1 out=$2
	shift 2

	rm -f "/tmp/spritz-ready.$port"
	ns spzb "$stream" rx "$port" "$@" --ready "/tmp/spritz-ready.$port" >"$out" &
}

# Wait until the receiver on PORT (started with rx_start) has
# reported STATE, up to 30 s; else print MESSAGE.  Builtins only but the
# sleep: under TCG every process spawned competes with the processes being
# waited for.
rx_wait() # PORT STATE MESSAGE
{
	local i l

	for ((i = 1; i <= 150; i++)); do
		while IFS= read -r l; do
			[ "$l" = "$2" ] && return 0
		done 2>/dev/null <"/tmp/spritz-ready.$1"
		sleep 0.2
	done
	echo "$3"
	return 1
}

# The receiver on PORT listens (a sender must not race it, and no sleep is
# long enough on a loaded machine).
listening() # PORT
{
	rx_wait "$1" listening "nothing listens on port $1"
}

# The receiver on PORT has received data.
receiving() # PORT
{
	rx_wait "$1" receiving "no data arrives on port $1"
}

# A sender and a receiver: namespaces spza (switch 3, fd00:3::1) and spzb
# (switch 5, fd00:5::1) joined by a veth pair named eth0 in both, with
# static neighbours; $hosts maps both /64s to their switches.
ns_pair()
{
	local ma mb

	ip netns add spza && ip netns add spzb || return 1
	ip link add name eth0 netns spza type veth peer name eth0 netns spzb || return 1
	ns spza ip link set eth0 up && ns spzb ip link set eth0 up || return 1
	ns spza ip addr add fd00:3::1/128 dev eth0 nodad
	ns spza ip route add fd00:5::/64 dev eth0
	ns spzb ip addr add fd00:5::1/128 dev eth0 nodad
	ns spzb ip route add fd00:3::/64 dev eth0
	ma=$(ns spza ip -o link show eth0 | awk '{ for (i = 1; i < NF; i++)
		if ($i == "link/ether") print $(i + 1) }')
	mb=$(ns spzb ip -o link show eth0 | awk '{ for (i = 1; i < NF; i++)
		if ($i == "link/ether") print $(i + 1) }')
	ns spza ip neigh add fd00:5::1 lladdr $mb dev eth0 nud permanent &&
	ns spzb ip neigh add fd00:3::1 lladdr $ma dev eth0 nud permanent
}

# Undo ns_pair and what the suite ran on it: spritzctl down, the two
# namespaces, the dummy device.
ns_pair_del()
{
	"$ctl" down >/dev/null 2>&1
	ip netns del spza 2>/dev/null
	ip netns del spzb 2>/dev/null
	ip link del $dev 2>/dev/null
}

# The receiver spzb of ns_pair drops (on) or takes (off) every TCP packet
# whose flow label carries EV1 = 0: the paths through first-hop port 0,
# the paper's failed link.  Needs a clsact qdisc on spzb's eth0.
blackhole() # on|off
{
	if [ "$1" = on ]; then
		# IPv6 next header TCP (byte 6), label bits 8-15 = EV1 (byte 2) = 0
		ns spzb tc filter add dev eth0 ingress pref 10 protocol ipv6 u32 \
			match u8 6 0xff at 6 match u8 0 0xff at 2 action drop
	else
		ns spzb tc filter del dev eth0 ingress pref 10 2>/dev/null
		true
	fi
}
