#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# IPv6 BIG TCP (issue 14): GSO packets above 64 KiB leave with a hop-by-hop
# jumbo header in front of TCP (bpf/parse.h).  They must be steered and
# recorded like any other send, or the ACKs that follow look like ACKs of
# data never sent and the flow loses its feedback.
#
# Two namespaces joined by a veth pair with gso_max_size and gro_max_size
# at 192 KiB; the sender (switch 3) runs "spritzctl up".  While a TCP
# transfer runs, the flow's in-flight ring is sampled: a recorded send of
# more than 64 KiB of segments shows that BIG TCP was on and its packets
# were recorded.  After it: every byte arrived, the feedback got ACKs and
# rejected none as beyond snd_nxt or outside the receive window, which it
# read from the sending socket.  Skips if the veth refuses a
# gso_max_size above 64 KiB.
#
# Runs in the VM as root, module not loaded.
source "$(dirname "$0")/spritzctl-lib.sh"

hosts=/tmp/spritz-hosts
printf 'fd00:3::/64 3\nfd00:5::/64 5\n' >$hosts
gso=196608
mss_max=65535

setup()
{
	local n

	ns_pair || return 1
	for n in spza spzb; do
		ns $n ip link set eth0 gso_max_size $gso gro_max_size $gso || return 1
	done
	ns spza "$ctl" up --dev eth0 --topo $topo --switch 3 --hosts $hosts --algorithm spray
}

# Largest send (in GSO segments and in bytes) in the flows' rings now.
ring_max()
{
	spritz_flow_states "$ctl" 2>/dev/null |
		jq -s '[.. | objects | select(has("segs") and has("end_seq") and has("start_seq")) |
		     select(.segs > 0) | (.end_seq - .start_seq + 4294967296) % 4294967296] | max // 0'
}

stat()
{
	"$ctl" show stats -j | jq ".counters.$1"
}

transfer()
{
	local rx tx rxn rxe txn txe big=0 b i

	rx_start 5003 /tmp/spritz-rx --timeout 120
	rx=$!
	listening 5003 || { kill $rx; return 1; }
	ns spza $stream tx fd00:5::1 5003 --size $((64 << 20)) --timeout 120 \
		>/tmp/spritz-tx &
	tx=$!
	for ((i = 1; i <= 200; i++)); do
		kill -0 $tx 2>/dev/null || break
		b=$(ring_max)
		[ "$b" -gt "$big" ] && big=$b
		sleep 0.1
	done
	wait $tx
	wait $rx
	read -r txn _ _ txe </tmp/spritz-tx
	read -r rxn _ rxe </tmp/spritz-rx
	echo "sent $txn, received $rxn; largest recorded send $big bytes;" \
		"un_proto $(stat un_proto), fb_ack $(stat fb_ack)," \
		"in_ack_unsent $(stat in_ack_unsent)"
	[ "$txe" = ok ] && [ "$rxe" = eof ] && [ "$txn" = $((64 << 20)) ] && [ "$txn" = "$rxn" ] ||
		{ echo "transfer incomplete: $txe, $rxe"; return 1; }
	[ "$big" -gt $mss_max ] || { echo "no send above 64 KiB recorded"; return 1; }
}

# ACKs gave feedback and none looked like an ACK of unsent data (which is
# what an unrecorded big send makes of the ACKs after it).  The flow holds
# its socket's receive window (SPRITZ_FB_F_HAVE_RCV, feedback.h) and no ACK
# fell outside it: the window check rejects nothing TCP accepts.
# un_proto is not checked: MLD reports (hop-by-hop router alert) land there.
counters()
{
	local bit have wnd

	bit=$(sed -n 's/^#define SPRITZ_FB_F_HAVE_RCV (1U << \([0-9]*\)).*/\1/p' \
		"$SPRITZ_TOP/include/spritz/maps.h")
	[ -n "$bit" ] || { echo "no SPRITZ_FB_F_HAVE_RCV in maps.h"; return 1; }
	[ "$(stat fb_ack)" -gt 0 ] || { echo "no ACK feedback"; return 1; }
	[ "$(stat in_ack_unsent)" = 0 ] || { echo "in_ack_unsent $(stat in_ack_unsent)"; return 1; }
	[ "$(stat in_ack_seq)" = 0 ] || { echo "in_ack_seq $(stat in_ack_seq)"; return 1; }
	read -r have wnd < <(spritz_flow_states "$ctl" '.dport == 5003' \
		"\"\((.fb.flags / $((1 << bit)) | floor) % 2) \((.fb.rcv_wend - .fb.rcv_wup + 4294967296) % 4294967296)\"")
	echo "the flow's receive window: recorded ${have:-?}, $wnd bytes"
	[ "$have" = 1 ] && [ "${wnd:-0}" -gt 0 ] || { echo "no receive window recorded"; return 1; }
}

ip link add spzt0 type veth peer name spzt1 || exit $KSFT_FAIL
ip link set spzt0 gso_max_size $gso gro_max_size $gso 2>/dev/null ||
	{ ip link del spzt0; echo "# SKIP: veth refuses gso_max_size $gso"; exit $KSFT_SKIP; }
ip link del spzt0

ktap_header 3
run_test setup setup
run_test big_sends_recorded transfer
run_test counters counters
ns spza "$ctl" down >/dev/null 2>&1
ip netns del spza 2>/dev/null
ip netns del spzb 2>/dev/null
ip link del $dev 2>/dev/null
ktap_finish
