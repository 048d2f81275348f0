#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The switch pipeline in a real lab fabric (lab/fabric, Documentation/lab.rst):
# Dragonfly p=1, a=2, h=1 (3 groups, 6 switches; both ECMP stages are used)
# as namespaces and shaped veths.  For every (source, destination, EV) that
# `spritzctl paths` lists, raw packets carrying the EV are sent from the
# source host and the per-link counters must show exactly the links of the
# listed switch sequence, plus the destination's host port - nothing else.
# Then: UDP carriers (EV in the source port, IPv6 and IPv4), the minimal
# baseline, a blackholed link (data dropped on that path only, pure ACKs
# pass), a link taken down, and a real TCP transfer with ECN.
# Needs root, veth, sch_htb, sch_red (guest suite).

source "$(dirname "$0")/../lib/lib.sh"

require_root
require_veth

TOPO=dragonfly:p=1,a=2,h=1
FABRIC=$SPRITZ_TOP/lab/fabric
LABCTL=$SPRITZ_OUT/lab/labctl
SPRITZCTL=$SPRITZ_OUT/spritzctl
N=5	# packets per case

"$FABRIC" down 2>/dev/null
trap '"$FABRIC" down' EXIT
if ! "$FABRIC" up "$TOPO" --rate 50 2>&1 | sed 's/^/# /'; then
	echo "# fabric up failed"
	exit $KSFT_FAIL
fi

# send S D EV [labctl send options]: N packets from host S:0 to D:0.
send()
{
	local s=$1 d=$2 ev=$3
	shift 3
	nsenter --net="/run/netns/h$s-0" "$LABCTL" send --from "$s:0" --to "$d:0" --ev "$ev" --count $N \
		--no-reply "$@"
}

# Links that sent packets, as sorted [sw, peer or -1 for the host, packets].
links_used()
{
	"$LABCTL" counters --links
}

# The listed paths from S (to D, or to every switch), one line "D EV
# LINKS" each, LINKS as links_used prints them.  One spritzctl and one jq
# for all of them.
paths_listed() # S [D]
{
	"$SPRITZCTL" paths "$TOPO" --switch "$1" ${2:+--dst "$2"} -j |
		jq -r --argjson n $N '.paths[] | .switches as $s |
			"\(.dst) \(.ev) " + ([range(0; ($s | length) - 1) as $i | [$s[$i], $s[$i + 1], $n]] +
			 [[$s[-1], -1, $n]] | sort | tojson)'
}

# The listed path of EV from S to D as the same list.
links_listed()
{
	paths_listed "$1" "$2" | awk -v ev="$3" '$2 == ev { print $3 }'
}

# one_path S D EV [send options]: the packets took exactly the listed path
# (WANT, if set, is that path; else it is looked up).  The counters are
# read until they match, for up to 5 s: all N packets out of D's host
# port is the last thing to happen.
one_path()
{
	local s=$1 d=$2 ev=$3 got want=${WANT:-} i
	shift 3
	"$LABCTL" counters --reset
	send "$s" "$d" "$ev" "$@" || return 1
	[ -n "$want" ] || want=$(links_listed "$s" "$d" "$ev")
	for ((i = 1; i <= 100; i++)); do
		got=$(links_used)
		[ "$got" = "$want" ] && return 0
		sleep 0.05
	done
	echo "$s -> $d ev $(printf %#06x "$ev") $*: links $got, listed $want"
	return 1
}

test_all_paths()
{
	local s d ev links n=0 bad=0
	for s in 0 1 2 3 4 5; do
		while read -r d ev links; do
			[ "$s" = "$d" ] && continue
			n=$((n + 1))
			WANT=$links one_path $s $d "$ev" </dev/null || bad=$((bad + 1))
		done < <(paths_listed $s)
	done
	echo "$n paths, $bad wrong"
	[ $bad = 0 ] && [ $n -gt 30 ]
}

test_carriers()
{
	local ev links
	while read -r _ ev links; do
		WANT=$links one_path 0 5 "$ev" --proto udp-carrier </dev/null || return 1
		WANT=$links one_path 0 5 "$ev" --proto udp-carrier --v4 </dev/null || return 1
		WANT=$links one_path 0 5 "$ev" --proto udp </dev/null || return 1
	done < <(paths_listed 0 5)
}

test_minimal()
{
	local ev minimal
	"$FABRIC" mode minimal
	minimal=$("$SPRITZCTL" paths "$TOPO" --switch 0 --dst 5 -j |
		jq '[.paths[] | select(.minimal)][0].ev')
	for ev in $("$SPRITZCTL" paths "$TOPO" --switch 0 --dst 5 -j | jq '.paths[].ev'); do
		WANT=$(links_listed 0 5 "$minimal") one_path 0 5 "$ev" ||
			{ echo "minimal mode, ev $ev"; "$FABRIC" mode spritz; return 1; }
	done
	"$FABRIC" mode spritz
}

# delivered D: packets sent out of D's host port.
delivered()
{
	"$LABCTL" counters | jq "[.tx[] | select(.sw == $1 and .type == \"host\") | .packets] | add // 0"
}

dropped()
{
	"$LABCTL" counters | jq "[.drops[] | select(.reason == \"$1\") | .packets] | add // 0"
}

# until_eq WANT CMD...: CMD prints WANT within 5 s.
until_eq()
{
	local want=$1 got i
	shift
	for ((i = 1; i <= 50; i++)); do
		got=$("$@")
		[ "$got" = "$want" ] && return 0
		sleep 0.1
	done
	echo "$*: $got, want $want"
	return 1
}

test_blackhole()
{
	# Path 0 -> 5 with EV 1 is 0,1,4,5: blackhole 1 -> 4 (switch 1, port 1).
	local other
	other=$("$SPRITZCTL" paths "$TOPO" --switch 0 --dst 5 -j | jq '[.paths[] | select(.ev != 1)][0].ev')
	"$FABRIC" fail 1:1 --blackhole || return 1
	"$LABCTL" counters --reset
	send 0 5 1 --proto tcp-data
	until_eq $N dropped blackhole || return 1
	[ "$(delivered 5)" = 0 ] || { echo "data crossed the blackhole"; return 1; }
	"$LABCTL" counters --reset
	send 0 5 1 --proto tcp-ack
	until_eq $N delivered 5 || { echo "pure ACKs not delivered"; return 1; }
	one_path 0 5 "$other" || return 1
	"$FABRIC" fail 1:1 --clear >/dev/null
	one_path 0 5 1 || return 1
}

test_down()
{
	"$FABRIC" fail 1:1 --down >/dev/null || return 1
	"$LABCTL" counters --reset
	send 0 5 1 --proto tcp-ack
	until_eq $N dropped down || return 1
	[ "$(delivered 5)" = 0 ] || { echo "packets crossed a down link"; return 1; }
	"$FABRIC" fail 1:1 --clear >/dev/null
	one_path 0 5 1 || return 1
}

# Real TCP between two hosts across groups (EVs: the kernel's flow labels).
test_tcp()
{
	local stream=$SPRITZ_OUT/selftests/tcp_stream got
	[ -x $stream ] || { echo "$stream not built"; return 1; }
	ip netns exec h5-0 $stream rx 5001 --timeout 20 > /tmp/spritz-lab-rx &
	sleep 1
	ip netns exec h0-0 $stream tx fd00:5::1 5001 --size 2000000 --timeout 20 >/dev/null ||
		return 1
	wait
	read -r got _ </tmp/spritz-lab-rx
	rm -f /tmp/spritz-lab-rx
	echo "received $got bytes; cc $(ip netns exec h0-0 sysctl -n net.ipv4.tcp_congestion_control)," \
		"ecn $(ip netns exec h0-0 sysctl -n net.ipv4.tcp_ecn)"
	[ "$got" = 2000000 ]
}

# Arguments: run only these cases.
cases=(all_paths carriers minimal blackhole down tcp)
[ $# -gt 0 ] && cases=("$@")
ktap_run_cases "${cases[@]}"
