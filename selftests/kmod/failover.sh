#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Failover in RTTs and the dead-path rule on real Linux TCP (issue 14,
# items 2-3; include/spritz/feedback.h, Documentation/algorithms.rst,
# "Feedback from TCP").
#
# Two namespaces joined by a veth pair; the sender (switch 3) runs
# Spritz on its eth0 towards switch 5 (dragonfly:p=2,a=4,h=2: eight
# paths, two of them through first-hop port 0).  A "blackhole" is a u32
# filter on the receiver's ingress dropping every TCP packet whose flow
# label carries EV1 = 0 (label byte 2), the paper's failed link.
#
# Failover table, under Scout and Spray: a 4 MiB transfer with no drops
# (no path may be disabled), with the blackhole (the transfer completes;
# paths of port 0 are disabled and no other path is, and the receiver's
# address counts them in spritzctl show peers), and with the
# blackhole and TCP's rto_min at 5 s (route metric), 25 000 times the
# floor of Spritz's timeout: the same, so failover does not wait for
# TCP's RTO.  A flow whose sends in flight were all lost (its first
# flight on port-0 paths, and its tail loss probe on the other) has no
# evidence that the path rather than the peer is silent
# until the peer answers a later send; then its next new data verifies
# the path (the no-evidence rows), and a verify send that Scout or Spray
# cannot make in time (its window is four of Spritz's timeouts) leaves
# the path enabled (Documentation/algorithms.rst).  So a blackhole row
# makes up to three transfers until a port-0 path is disabled, and none
# may disable a live one.  Completion times are printed, never asserted
# (the machine is loaded and the guest emulated).
#
# No-evidence rows, under Scout and Spray: every data segment of a
# connection is dropped until its first flight and its tail loss probe
# are lost, then only the path the dead-path rule judges stays dead; the
# flow's next new data after TCP's RTO verifies that path, and it alone
# is disabled (first_flight_lost).
#
# Adversarial rows (no blackhole): a receiver stopped with SIGSTOP for 3 s
# while another flow to the same switch runs; a connection whose peer
# goes silent (every packet to it dropped) while another flow runs; in
# both, no path is disabled and no TIMEOUT is given, nor once the flow
# resumes (its repairs then arrive long after they left).  And a datagram with
# a far-future SO_TXTIME stamp does not freeze the knob snapshot: a knob
# set after it reaches the datapath.  The flow's feedback takes the
# socket's reordering degree (TCP's DupThresh) and srtt, and the bytes
# it holds unsent (the small-flow bias judges a flow by them).
#
# Runs in the VM as root, module not loaded.
source "$(dirname "$0")/spritzctl-lib.sh"

py=/usr/bin/python3
[ -x $py ] || { echo "# SKIP: no python3"; exit $KSFT_SKIP; }
# the transfers; their receivers take a 32 KiB buffer, so that the flight
# fits the feedback ring (16 records)
hosts=/tmp/spritz-hosts
printf 'fd00:3::/64 3\nfd00:5::/64 5\n' >$hosts
size=$((4 << 20))
tmp=/tmp/spritz-fo
mkdir -p $tmp

setup()
{
	ns_pair || return 1
	ns spzb tc qdisc add dev eth0 clsact || return 1
	ns spza "$ctl" up --dev eth0 --topo $topo --switch 3 --hosts $hosts || return 1
	# disabled paths come back soon: rows do not wait long for each other
	"$ctl" set disable_ms 1500 || return 1
	# no small-flow bias: it sends 83 % of samples, SYNs included, to the
	# minimal path, which the blackhole kills, and SYNs (no feedback by
	# design) would then take several 1 s retries to get through
	"$ctl" set small_flow_bytes 0
}

# "ev/ev1/disables" of every path from switch 3 to switch 5, one per
# line.  The helpers read spritzctl's tables with awk: jq took 0.3-0.5 s
# to start in a TCG guest, ten times a row.
path_disables()
{
	"$ctl" show paths --switch 3 --dst 5 |
		awk '$1 ~ /^[0-9]+$/ { split($2, e, ":"); print $2 "/" e[1] "/" $9 }'
}

# Paths disabled since BEFORE (a path_disables snapshot): "dead live",
# the disables of the dead paths (EV "EV1:EV2" if given, else every path
# of port 0) and of the others.
disabled_since() # BEFORE [EV]
{
	path_disables | awk -F/ -v before="$1" -v ev="$2" '
		BEGIN { n = split(before, b, " "); for (i = 1; i <= n; i++) {
			split(b[i], f, "/"); old[f[1]] = f[3] } }
		{ d = $3 - old[$1]; if (ev != "" ? $1 == ev : $2 == 0) dead += d; else live += d }
		END { print dead + 0, live + 0 }'
}

# The feedback counters and the paths' disables, for the log.
diag()
{
	"$ctl" show stats | awk '
		$1 ~ /^(fb_|eg_retrans|eg_ring|path_|pick_fail|eg_unsteered|in_sack)/ {
			c = c " " $1 "=" $2 }
		END { print "# counters:" c }'
	echo "# paths ev/ev1/disables: $(path_disables | tr '\n' ' ')"
}

# Wait until no path is disabled (disable_ms is short).
settle()
{
	local i

	for ((i = 1; i <= 40; i++)); do
		"$ctl" show paths --switch 3 --dst 5 |
			awk '$1 ~ /^[0-9]+$/ { ms += $6; n++ } END { exit !(n && !ms) }' &&
			return 0
		sleep 0.25
	done
	return 1
}

# One transfer on PORT: "bytes seconds" into $tmp/PORT.res; 1 if short.
# TIMEOUT (s, default 30) bounds each side.
transfer() # PORT [TIMEOUT]
{
	local rx rxn rxe txn secs txe

	rx_start "$1" $tmp/rx.$1 --rcvbuf 32768 --timeout "${2:-30}"
	rx=$!
	listening "$1" || return 1
	ns spza $stream tx fd00:5::1 "$1" --size $size --timeout "${2:-30}" >$tmp/tx.$1
	wait $rx
	read -r rxn _ rxe <$tmp/rx.$1
	read -r txn secs _ txe <$tmp/tx.$1
	echo "$txn $secs" >$tmp/$1.res
	[ "$txe" = ok ] && [ "$rxe" = eof ] && [ "$rxn" = "$size" ] && [ "$txn" = "$size" ] ||
		{ echo "transfer $1: sent $txn $txe, received $rxn $rxe"; return 1; }
}

# A failover row: ALGO, blackhole on|off, rto_min (ms, "" = Linux's); with
# the blackhole, up to three transfers until a port-0 path is disabled.
row() # ALGO DROP RTO_MIN
{
	local rc=0 try dead=0 live=0 # live, dead: set by row_transfer

	settle || { echo "paths still disabled"; return 1; }
	"$ctl" set algorithm "$1" || return 1
	for try in 1 2 3; do
		row_transfer "$@" || rc=1
		[ $rc = 0 ] || break
		[ "$2" = on ] && [ "$dead" -eq 0 ] || break
		echo "# transfer $try: no port-0 path disabled (no evidence?), again"
	done
	if [ "$2" = on ]; then
		[ "$dead" -gt 0 ] || { echo "no blackholed path disabled"; rc=1; }
		peer_counted || rc=1
	else
		[ "$dead" -eq 0 ] || { echo "a path was disabled without drops"; rc=1; }
	fi
	return $rc
}

# A disable counts for the flow's peer (spritz_peers, knob peer_disables):
# show peers lists the receiver with at least one, in both formats.
peer_counted()
{
	local n j

	n=$("$ctl" show peers | awk '$1 == "fd00:5::1" { print $2 }')
	j=$("$ctl" show peers -j | jq '[.peers[] | select(.addr == "fd00:5::1") | .disables] |
		first // 0')
	[ "${n:-0}" -ge 1 ] && [ "$n" = "$j" ] ||
		{ echo "peer fd00:5::1 not counted: $("$ctl" show peers -j)"; return 1; }
}

# One transfer of a row: sets dead and live, the disables of port-0 paths
# and of the others; 1 if it failed or disabled a live path.
row_transfer() # ALGO DROP RTO_MIN
{
	local rc=0 before t0 t1 secs ovr ovr1

	if [ -n "$3" ]; then
		ns spza ip route change fd00:5::/64 dev eth0 rto_min "$3"ms || return 1
	fi
	blackhole "$2" || return 1
	before=$(path_disables | tr '\n' ' ')
	read -r t0 ovr <<<"$(spritz_stats fb_timeout eg_ring_overrun)"
	# The first flight leaves as a few GSO sends (small ones: TCP sizes
	# its TSO bursts by its rate, and the guest's RTT is a millisecond):
	# if they all go to port-0 paths (31 % of the weight), nothing is
	# acknowledged, and without a delivery there is no evidence that the
	# path, not the peer, is dead (Documentation/algorithms.rst, the
	# dead-path rule): only TCP's timers resend, each repair avoiding the
	# paths of the flow's latest losses, and the first delivery asks for
	# a verify send.  With rto_min
	# 5 s TCP resends at 5, 15, 35 and 75 s: the bound, 105 s, covers them
	# (a transfer once failed at 30 s on 6.1 with nothing delivered).
	transfer 5002 $((30 + ${3:-0} * 15 / 1000)) || rc=1
	blackhole off
	ns spza ip route change fd00:5::/64 dev eth0
	read -r dead live <<<"$(disabled_since "$before")"
	read -r t1 ovr1 <<<"$(spritz_stats fb_timeout eg_ring_overrun)"
	read -r _ secs <$tmp/5002.res
	echo "# $1 blackhole=$2 rto_min=${3:-linux}: $size bytes in $secs s (wall," \
		"guest); port-0 path disables $dead, other $live; TIMEOUTs $((t1 - t0));" \
		"ring overruns $((ovr1 - ovr))"
	diag
	if [ "$live" -ne 0 ]; then
		# the trace for whoever reads the failure: the flow's feedback state
		echo "a path that delivers was disabled"
		spritz_flow_states "$ctl" ".dport == 5002" .fb | sed 's/^/# flow to port 5002: /'
		rc=1
	fi
	return $rc
}

# TcpExt counters NAME... of the sender's namespace, on one line.
tcpext()
{
	ns spza awk -v names="$*" '$1 == "TcpExt:" {
		if (!k) { for (i = 2; i <= NF; i++) col[$i] = i; k = 1; next }
		n = split(names, w, " ")
		for (i = 1; i <= n; i++) printf "%s%s", $col[w[i]], i < n ? " " : "\n" }' \
		/proc/net/netstat
}

# The EV the dead-path rule judges for the flow to PORT, "EV1 EV2": its
# suspect's, or before TCP resent anything, its first send's (the one
# TCP's RTO resends first).  Only that flow's slot is looked up: every
# flow's (the earlier rows') took seconds in a loaded TCG guest.
judged_ev() # PORT
{
	spritz_flow_states "$ctl" ".dport == $1" '.fb |
		if (.flags / 2 | floor) % 2 == 1 then .suspect.ev
		else [.ring[] | select(.state != 0)] | min_by(.sent_ns) | .ev end |
		"\(. / 256 | floor) \(. % 256)"'
}

# ff_connection's second phase: the filter of the judged EV (set in ev,
# "EV1:EV2") in place of those of every data segment to PORT.
ff_swap() # PORT
{
	local e1 e2 rc=0

	read -r e1 e2 <<<"$(judged_ev "$1")"
	if [ -n "$e2" ]; then
		ns spzb tc -b - <<-EOF || rc=1
		filter add dev eth0 ingress pref 32 protocol ipv6 u32 match u8 6 0xff at 6 match u16 $1 0xffff at 42 match u16 $((e1 << 8 | e2)) 0xffff at 2 action drop
		EOF
	else
		echo "no flow state for port $1"
		rc=1
	fi
	ns spzb tc -b - <<-EOF || rc=1
	filter del dev eth0 ingress pref 31
	filter del dev eth0 ingress pref 30
	EOF
	[ "$e2" != 255 ] || e2=-
	ev=$e1:$e2
	return $rc
}

# One connection of first_flight_lost to PORT.  Every data segment to it
# (an IPv6 payload of 128 bytes or more; the handshake passes) is dropped
# until TCP has sent its tail loss probe; then every packet to PORT on
# the EV the dead-path rule judges, and no other.  TCP's first RTO comes
# 10 s after the first flight (rto_min, put back once the filters are
# swapped: later RTOs, of the FIN say, take Linux's).  Sets ev
# ("EV1:EV2"), dead and live (the disables of that path and of the
# others), asked and made (verify sends), to (TIMEOUTs), swap_ms (from
# the sender's start to the filters swapped, against the RTO's 10 s).  0:
# done, 1: failed, 2: TCP's RTO came before the filters were swapped.
ff_connection() # PORT
{
	local port=$1 rc=0 rx tx i p0 r0 p r ts before t0 v0 d0 t1 v1 d1
	local m="protocol ipv6 u32 match u8 6 0xff at 6 match u16 $1 0xffff at 42"

	settle || { echo "paths still disabled"; return 1; }
	before=$(path_disables | tr '\n' ' ')
	read -r t0 v0 d0 <<<"$(spritz_stats fb_timeout fb_verify dec_verify)"
	read -r p0 r0 <<<"$(tcpext TCPLossProbes TCPTimeouts)"
	ns spza ip route change fd00:5::/64 dev eth0 rto_min 10000ms || return 1
	ns spzb tc -b - <<-EOF || return 1
	filter add dev eth0 ingress pref 30 $m match u16 0 0xff80 at 4 action ok
	filter add dev eth0 ingress pref 31 $m action drop
	EOF
	rx_start "$port" $tmp/rx.$port --rcvbuf 32768 --timeout 120
	rx=$!
	listening "$port" || rc=1
	ns spza $stream tx fd00:5::1 "$port" --size $((256 << 10)) --timeout 120 >$tmp/tx.$port &
	tx=$!
	ts=$EPOCHREALTIME
	for ((i = 1; i <= 300; i++)); do
		read -r p r <<<"$(tcpext TCPLossProbes TCPTimeouts)"
		[ "$p" -gt "$p0" ] || [ "$r" -gt "$r0" ] && break
		sleep 0.1
	done
	ff_swap "$port" || rc=1
	ns spza ip route change fd00:5::/64 dev eth0
	read -r p r <<<"$(tcpext TCPLossProbes TCPTimeouts)"
	swap_ms=$(((${EPOCHREALTIME/./} - ${ts/./}) / 1000))
	[ "$p" -gt "$p0" ] || { echo "no tail loss probe"; rc=1; }
	wait $tx
	wait $rx
	ns spzb tc filter del dev eth0 ingress pref 32 2>/dev/null
	grep -q " ok$" $tmp/tx.$port && grep -q " eof$" $tmp/rx.$port ||
		{ echo "transfer $port: $(cat $tmp/tx.$port), received $(cat $tmp/rx.$port)"; rc=1; }
	read -r dead live <<<"$(disabled_since "$before" "$ev")"
	read -r t1 v1 d1 <<<"$(spritz_stats fb_timeout fb_verify dec_verify)"
	asked=$((v1 - v0)) made=$((d1 - d0)) to=$((t1 - t0))
	[ $rc = 0 ] && [ "$r" -gt "$r0" ] && return 2
	return $rc
}

# The no-evidence case end to end under ALGO (include/spritz/feedback.h,
# the verify send): the first flight (a few GSO sends in a TCG guest,
# whose RTT keeps TCP's TSO bursts small) and the tail loss probe are
# lost, so no send of the flow is delivered within the timeout of the
# first and nothing says whether its path or its peer is silent.  Then
# only the path the dead-path rule judges stays dead: TCP's RTO repairs
# on another (the flow's samples avoid its lost EVs), the peer answers,
# and the flow's next new data goes to the judged path
# (spritz_fb_verify()); lost there, it is that path's second loss and the
# rule disables it, and no other path.  Spritz's timeout is 200 ms here
# (timeout_min_us), so that the verify's window (four timeouts from the
# repair's ACK) holds however slowly the emulated guest runs TCP's
# recovery.  The filters are swapped between the probe and the RTO (10 s)
# by a few processes (3-4 s from the sender's start with two TCG guests
# on two CPUs); if the RTO came first, the connection is made again, up
# to three times, each to its own port from PORT on.
first_flight_lost() # ALGO PORT
{
	local rc=0 tmin try ev dead live asked made to swap_ms

	tmin=$(cat /sys/kernel/spritz/timeout_min_us) || return 1
	"$ctl" set algorithm "$1" && "$ctl" set timeout_min_us 200000 || return 1
	for try in 0 1 2; do
		ff_connection $(($2 + try))
		rc=$?
		[ $rc = 2 ] || break
		echo "# connection $((try + 1)): TCP's RTO before the filters were swapped, again"
	done
	ns spza ip route change fd00:5::/64 dev eth0
	"$ctl" set timeout_min_us "$tmin"
	[ $rc != 2 ] || echo "TCP's RTO came before the swap in all three connections"
	[ $rc = 0 ] || return 1
	echo "# $1: judged path $ev (filters swapped $swap_ms ms after the start); verify sends asked" \
		"$asked, made $made; its disables $dead, other paths' $live; TIMEOUTs $to"
	diag
	[ "$made" -gt 0 ] || { echo "no verify send"; rc=1; }
	[ "$dead" -gt 0 ] || { echo "the judged path $ev was not disabled"; rc=1; }
	[ "$live" -eq 0 ] || { echo "another path was disabled"; rc=1; }
	[ $rc = 0 ] || spritz_flow_states "$ctl" ".dport == $(($2 + try))" .fb |
		sed 's/^/# the flow: /'
	return $rc
}

# Two flows to switch 5; HOW (stop|silent) silences the first for a while.
# No path may be disabled and no TIMEOUT given, during the silence or
# after it, when the silenced flow resumes.
two_flows() # HOW
{
	local rc=0 rx1 tx1 rxpid before t0 dead live to

	settle || { echo "paths still disabled"; return 1; }
	"$ctl" set algorithm spray || return 1
	before=$(path_disables | tr '\n' ' ')
	t0=$(spritz_stats fb_timeout)
	rm -f $tmp/stop
	# A hang catcher, not a bound: the silenced flow's sender blocks for as
	# long as the silence (transfer 5002 and 3 s) and then TCP's persist or
	# retransmission timer backs off about as long again, so on a machine
	# three times busier 30 s were not enough (6.1, make check beside three
	# lab guests on 2 cores).
	rx_start 5003 $tmp/rx.5003 --rcvbuf 32768 --timeout 300
	rx1=$!
	listening 5003 || rc=1
	ns spza $stream tx fd00:5::1 5003 --stop $tmp/stop --every 2 --timeout 300 \
		>$tmp/tx.5003 &
	tx1=$!
	receiving 5003 || rc=1
	if [ "$1" = stop ]; then
		# the receiver itself: $rx1 is the shell around nsenter
		rxpid=$(pgrep -f "tcp_stream rx 5003") || { echo "no receiver"; rc=1; }
		kill -STOP $rxpid
	else
		ns spzb tc filter add dev eth0 ingress pref 20 protocol ipv6 u32 \
			match u8 6 0xff at 6 match u16 5003 0xffff at 42 action drop || rc=1
	fi
	transfer 5002 || rc=1
	sleep 3
	if [ "$1" = stop ]; then
		kill -CONT $rxpid
	else
		ns spzb tc filter del dev eth0 ingress pref 20
	fi
	sleep 0.5
	touch $tmp/stop
	wait $tx1
	wait $rx1
	read -r txn _ _ txe <$tmp/tx.5003
	read -r rxn _ rxe <$tmp/rx.5003
	# the silence and its end: TCP's repairs after the peer returns are
	# no evidence either (include/spritz/feedback.h, Karn)
	read -r dead live <<<"$(disabled_since "$before")"
	to=$(($(spritz_stats fb_timeout) - t0))
	diag
	echo "# $1: disables $dead + $live, TIMEOUTs $to, no_reach" \
		"$(spritz_stats fb_no_reach), silenced flow: sent $txn $txe, received $rxn $rxe"
	[ $((dead + live)) -eq 0 ] || { echo "a path was disabled"; rc=1; }
	[ "$to" -eq 0 ] || { echo "TIMEOUT from a silent peer"; rc=1; }
	[ "$txe" = ok ] && [ -n "$txn" ] && [ "$rxn" = "$txn" ] ||
		{ echo "silenced flow incomplete"; rc=1; }
	return $rc
}

# The socket's state reaches the flow's feedback: after a transfer from a
# namespace with net.ipv4.tcp_reordering=7 the flow to port 5004 has
# dupthresh 7 (the SACK-hole threshold TCP uses) and an srtt.
socket_state()
{
	local rc=0 fb

	settle || { echo "paths still disabled"; return 1; }
	ns spza sysctl -qw net.ipv4.tcp_reordering=7 || return 1
	transfer 5004 || rc=1
	ns spza sysctl -qw net.ipv4.tcp_reordering=3
	fb=$(spritz_flow_states "$ctl" ".dport == 5004" '.fb | {dupthresh, srtt_us}' | head -n1)
	echo "# flow to port 5004: $fb"
	jq -e '.dupthresh == 7 and .srtt_us > 0' <<<"$fb" >/dev/null ||
		{ echo "want dupthresh 7 and an srtt"; rc=1; }
	return $rc
}

# What the application queued reaches the flow (fb.unsent, write_seq -
# end, at the flow's last data send).  A sender writes 4 MiB with
# SO_SNDBUF 1 MiB (net.core.wmem_max caps it: 416 KiB of buffer) to a
# receiver with a 32 KiB buffer that stops reading at 64 KiB; once the
# sender's buffer holds 192 KiB (Send-Q), the receiver reads 64 KiB more,
# twice what its buffer holds, and stops again.  The data sends that let
# out lie at most 96 KiB past the acknowledged data, with 192 KiB written
# past it: each had at least 96 KiB unsent behind it, however fast
# either process runs.
socket_queue()
{
	local rc=0 rx tx unsent q i

	rm -f $tmp/go.5005
	rx_start 5005 $tmp/rx.5005 --rcvbuf 32768 --timeout 60 \
		--pause-at 65536 --pause-at 131072 --go $tmp/go.5005
	rx=$!
	listening 5005 || return 1
	ns spza $stream tx fd00:5::1 5005 --size $size --sndbuf 1048576 --timeout 60 \
		>$tmp/tx.5005 &
	tx=$!
	rx_wait 5005 "paused 1" "the receiver did not pause" || rc=1
	for ((i = 1; i <= 300; i++)); do
		q=$(ns spza ss -Htn '( dport = :5005 )' | awk '{ print $3; exit }')
		[ "${q:-0}" -ge 196608 ] && break
		sleep 0.2
	done
	echo "# sender's Send-Q at the receiver's first pause: ${q:-none} bytes"
	echo >>$tmp/go.5005
	rx_wait 5005 "paused 2" "the receiver did not pause again" || rc=1
	unsent=$(spritz_flow_states "$ctl" ".dport == 5005" .fb.unsent | head -n1)
	echo >>$tmp/go.5005
	wait $tx
	wait $rx
	echo "# flow to port 5005: $unsent bytes unsent at its last data send"
	[ "${unsent:-0}" -ge 65536 ] || { echo "want at least 64 KiB unsent"; rc=1; }
	grep -q " eof$" $tmp/rx.5005 || { echo "transfer: $(cat $tmp/rx.5005)"; rc=1; }
	return $rc
}

# A far-future SO_TXTIME datagram, then a knob change: the datapath sees
# it (ECMP: one sample for the flow's 8 datagrams; OPS: 8).
txtime()
{
	local s0 s1

	"$ctl" set algorithm ops || return 1
	ns spza $py -c '
import socket, struct, time
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, 61, struct.pack("iI", time.CLOCK_MONOTONIC, 0))
far = time.clock_gettime_ns(time.CLOCK_MONOTONIC) + 3600 * 10**9
s.sendmsg([b"x" * 64], [(socket.SOL_SOCKET, 61, struct.pack("Q", far))],
          0, ("fd00:5::1", 4789))' || { echo "SO_TXTIME send failed"; return 1; }
	"$ctl" set algorithm ecmp || return 1
	sleep 0.1
	s0=$(spritz_stats dec_sample)
	ns spza $py -c '
import socket
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
for i in range(8):
    s.sendto(b"y" * 64, ("fd00:5::1", 4789))' || return 1
	s1=$(spritz_stats dec_sample)
	echo "# samples for 8 datagrams after the knob change: $((s1 - s0))"
	[ $((s1 - s0)) -eq 1 ] || { echo "knob change not seen (frozen snapshot?)"; return 1; }
}

ktap_header 14
run_test setup setup
run_test scout_clean row scout off ""
run_test scout_blackhole row scout on ""
run_test scout_blackhole_rto_min_5s row scout on 5000
run_test spray_clean row spray off ""
run_test spray_blackhole row spray on ""
run_test spray_blackhole_rto_min_5s row spray on 5000
run_test scout_first_flight_lost first_flight_lost scout 5010
run_test spray_first_flight_lost first_flight_lost spray 5020
run_test sigstop_receiver two_flows stop
run_test silent_peer two_flows silent
run_test txtime_far_future txtime
run_test socket_state_in_flow socket_state
run_test socket_queue_in_flow socket_queue
ns_pair_del
rm -rf $tmp
ktap_finish
