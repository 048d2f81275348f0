#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Whose receive window egress records for a segment (bpf/spritz.bpf.c,
# spritz_sock_tcp(), spritz_seg_rcv()): its TCP socket's, or, sent by no
# TCP socket, the one its header advertises (feedback.h,
# spritz_fb_rcv_hdr()).  bpf_skc_to_tcp_sock() passes every full socket
# of protocol TCP, and so a raw one (SOCK_RAW, IPPROTO_TCP) too, as the
# kernel's IPv4 control socket is, from which RSTs and TIME_WAIT ACKs
# leave: read as a tcp_sock, its memory gave a window of whatever lies
# there, and the peer's valid ACKs were refused.
#
# Two namespaces joined by a veth pair (spritzctl-lib.sh's ns_pair); spza
# runs Spritz on eth0 (switch 3, towards switch 5).  Each row: spza's raw
# socket sends a data segment [1000, 1100) with ACK field 50000 and window
# field 1, so its header's window is [50000, 50000 + 1 << 14] (no SYN
# seen: scale 14); spzb's raw socket answers with an ACK of 1100 at
# sequence number SEQ, and the row names which counter moves: fb_ack (the
# send is credited) or in_ack_seq (refused, outside the window).
#
# Runs in the VM as root, module not loaded.
source "$(dirname "$0")/spritzctl-lib.sh"

py=/usr/bin/python3
[ -x $py ] || { echo "# SKIP: no python3"; exit $KSFT_SKIP; }
hosts=/tmp/spritz-hosts
printf 'fd00:3::/64 3\nfd00:5::/64 5\n' >$hosts

# One TCP segment from a raw socket in namespace NS; the kernel writes
# the IPv6 header and the TCP checksum (IPV6_CHECKSUM at offset 16).
raw_tcp() # NS SRC DST SPORT DPORT SEQ ACK FLAGS WIN PAYLOAD_LEN
{
	ns "$1" $py -c '
import socket, struct, sys
src, dst = sys.argv[1], sys.argv[2]
sport, dport, seq, ack, flags, win, plen = (int(a) for a in sys.argv[3:])
s = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_TCP)
s.setsockopt(socket.IPPROTO_IPV6, 7, 16) # IPV6_CHECKSUM
s.bind((src, 0))
h = struct.pack("!HHIIBBHHH", sport, dport, seq, ack, 5 << 4, flags, win, 0, 0)
s.sendto(h + b"x" * plen, (dst, 0))
' "${@:2}"
}

# name | spzb's ACK at SEQ | fb_ack, in_ack_seq deltas
rows=(
	"raw socket: ACK at the header window's left edge|50000|1 0"
	"raw socket: ACK at its right edge|66384|1 0"
	"raw socket: ACK past it|66385|0 1"
)

run_rows()
{
	local row name seq want before after d i=0 rc=0

	for row in "${rows[@]}"; do
		IFS='|' read -r name seq want <<<"$row"
		i=$((i + 1))
		before=$(spritz_stats fb_ack in_ack_seq)
		# a port per row: a flow of its own
		raw_tcp spza fd00:3::1 fd00:5::1 $((42000 + i)) 5201 1000 50000 24 1 100 &&
			raw_tcp spzb fd00:5::1 fd00:3::1 5201 $((42000 + i)) "$seq" 1100 16 1000 0 ||
			{ echo "# $name: raw send failed"; rc=1; continue; }
		after=$(spritz_stats fb_ack in_ack_seq)
		d=$(awk -v a="$before" -v b="$after" 'BEGIN { split(a, x, " "); split(b, y, " ")
			print y[1] - x[1], y[2] - x[2] }')
		if [ "$d" = "$want" ]; then
			echo "# ok: $name (fb_ack, in_ack_seq +$d)"
		else
			echo "# $name: fb_ack, in_ack_seq +$d, want +$want"
			rc=1
		fi
	done
	return $rc
}

setup()
{
	ns_pair || return 1
	ns spza "$ctl" up --dev eth0 --topo $topo --switch 3 --hosts $hosts
}

ktap_header 2
run_test setup setup
run_test raw_tcp_header_window run_rows
ns_pair_del
ktap_finish
