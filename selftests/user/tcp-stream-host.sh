#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tcp_stream (selftests/tools/tcp_stream.c), the guest suites' TCP
# sender and receiver, on the build machine's loopback: its SHA-256
# against sha256sum (a table of lengths around the 64-byte block and its
# padding); a transfer's count and hash on both ends, and the stream's
# bytes (0..255 over and over); a trickle until a stop file; a receiver
# that pauses at byte counts until told to go; a timeout and a refused
# connection each end the stream with the error's name; bad arguments
# exit 2.  Skips without IPv6 on the loopback.
source "$(dirname "$0")/../lib/lib.sh"

ts=${1:-$SPRITZ_OUT/selftests/tcp_stream}
[ -x "$ts" ] || { echo "# $ts not built"; exit $KSFT_FAIL; }
ip -6 addr show dev lo 2>/dev/null | grep -q 'inet6 ::1/' ||
	{ echo "# SKIP: no ::1 on the loopback"; exit $KSFT_SKIP; }
tmp=$(mktemp -d /tmp/spritz-tcp-stream.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# a port per run: suites of two checkouts may run at once
port=$((20000 + $$ % 20000))

# N bytes of the stream's pattern on stdout.
pattern() # N
{
	python3 -c 'import sys; n = int(sys.argv[1]); sys.stdout.buffer.write((bytes(range(256)) * (n // 256 + 1))[:n])' "$1"
}

sum_case()
{
	local n rc=0 a b

	head -c 200000 /dev/urandom >$tmp/rand
	for n in 0 1 3 55 56 57 63 64 65 119 120 121 128 4096 65537 200000; do
		a=$(head -c $n $tmp/rand | "$ts" sum)
		b=$(head -c $n $tmp/rand | sha256sum | cut -d' ' -f1)
		[ "$a" = "$b" ] || { echo "$n bytes: $a, sha256sum $b"; rc=1; }
	done
	return $rc
}

# rx on $port in the background, its line into $tmp/rx; $! its pid.
rx_bg() # OPTION...
{
	rm -f $tmp/ready
	"$ts" rx $port --ready $tmp/ready "$@" >$tmp/rx &
	for ((_n = 1; _n <= 100; _n++)); do
		grep -qx listening $tmp/ready 2>/dev/null && return 0
		sleep 0.05
	done
	echo "the receiver did not listen"
	return 1
}

transfer_case()
{
	local n=$((3 * 1048576 + 1000)) rx txl rxl want

	rx_bg --timeout 30 || return 1
	rx=$!
	txl=$("$ts" tx ::1 $port --size $n --timeout 30)
	wait $rx
	rxl=$(cat $tmp/rx)
	want=$(pattern $n | sha256sum | cut -d' ' -f1)
	echo "tx: $txl; rx: $rxl"
	[[ $txl =~ ^$n\ [0-9]+\.[0-9]{3}\ $want\ ok$ ]] || { echo "want $n ... $want ok"; return 1; }
	[ "$rxl" = "$n $want eof" ] || { echo "want $n $want eof"; return 1; }
	grep -qx receiving $tmp/ready || { echo "no 'receiving' line"; return 1; }
}

trickle_case()
{
	local rx txl rxl tx n

	rm -f $tmp/stop
	rx_bg --timeout 30 || return 1
	rx=$!
	"$ts" tx ::1 $port --stop $tmp/stop --every 5 --chunk 1000 --min 5000 --timeout 30 \
		>$tmp/tx &
	tx=$!
	sleep 0.3
	touch $tmp/stop
	wait $tx
	wait $rx
	txl=$(cat $tmp/tx) rxl=$(cat $tmp/rx)
	echo "tx: $txl; rx: $rxl"
	n=${txl%% *}
	# whole chunks of 768 bytes (1000 rounded down to the pattern's 256)
	[ "$n" -ge 5376 ] && [ $((n % 768)) = 0 ] || { echo "sent $n"; return 1; }
	[ "$rxl" = "$n $(pattern $n | sha256sum | cut -d' ' -f1) eof" ] && [[ $txl =~ \ ok$ ]]
}

pause_case()
{
	local rx txl

	rm -f $tmp/go
	rx_bg --timeout 30 --pause-at 300000 --pause-at 100000 --go $tmp/go || return 1
	rx=$!
	"$ts" tx ::1 $port --size 400000 --timeout 30 >$tmp/tx &
	for ((_n = 1; _n <= 100; _n++)); do grep -qx "paused 1" $tmp/ready && break; sleep 0.05; done
	grep -qx "paused 1" $tmp/ready || { echo "no first pause: $(cat $tmp/ready)"; return 1; }
	grep -q "paused 2" $tmp/ready && { echo "paused twice without a go"; return 1; }
	echo >>$tmp/go
	for ((_n = 1; _n <= 100; _n++)); do grep -qx "paused 2" $tmp/ready && break; sleep 0.05; done
	echo >>$tmp/go
	wait $rx
	wait
	txl=$(cat $tmp/tx)
	echo "ready: $(tr '\n' ' ' <$tmp/ready); rx: $(cat $tmp/rx); tx: $txl"
	[ "$(tr '\n' ' ' <$tmp/ready)" = "listening receiving paused 1 paused 2 " ] &&
		[ "$(cut -d' ' -f1,3 $tmp/rx)" = "400000 eof" ] && [[ $txl =~ \ ok$ ]]
}

errors_case()
{
	local l e

	l=$("$ts" rx $port --timeout 0.3)
	e="0 $(sha256sum </dev/null | cut -d' ' -f1) ETIMEDOUT"
	[ "$l" = "$e" ] || { echo "rx with no sender: '$l', want '$e'"; return 1; }
	l=$("$ts" tx ::1 $port --size 10 --timeout 5)
	[[ $l =~ ^0\ [0-9.]+\ [0-9a-f]{64}\ ECONNREFUSED$ ]] ||
		{ echo "tx to no receiver: '$l'"; return 1; }
}

bad_args_case()
{
	local a rc=0

	for a in "" "rx" "rx 70000" "rx 5 --timeout" "rx 5 --timeout -1" "rx 5 --pause-at 3" \
		"rx 5 --bogus 1" "tx ::1" "tx ::1 5" "tx ::1 5 --chunk 100 --size 1" \
		"tx nowhere 5 --size 1" "tx ::1 5 --size x" "sum extra"; do
		# shellcheck disable=SC2086 # the words of each case
		"$ts" $a </dev/null >/dev/null 2>&1
		[ $? = 2 ] || { echo "'$a': exit $?, want 2"; rc=1; }
	done
	return $rc
}

ktap_header 6
run_test sha256_against_sha256sum sum_case
run_test transfer_both_ends transfer_case
run_test trickle_until_stop trickle_case
run_test receiver_pauses pause_case
run_test timeout_and_refused errors_case
run_test bad_arguments bad_args_case
ktap_finish
