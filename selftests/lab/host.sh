#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The lab's parts that need no guest (Documentation/lab.rst): labctl
# plan's scaled knobs and timers (a table: topology, rate, deadline ->
# the knobs line), lab/run --report on a fixture directory (the counters
# and the per-tag figures in results.json are the fixture's sums), and
# flowgen gen's scenarios as flow-list tables (flows per tag, sizes,
# pairs, start times; the web search's receivers and load), labctl
# sysctl in two network namespaces (a table), labctl capture between two
# (a table: what each file holds of known datagrams).
#
# Usage: selftests/lab/host.sh [CASE...]

source "$(dirname "$0")/../lib/lib.sh"

LABCTL=$SPRITZ_OUT/lab/labctl
FLOWGEN=$SPRITZ_OUT/lab/flowgen
RUN=$SPRITZ_TOP/lab/run
DF=dragonfly:p=1,a=4,h=2
TMP=$(mktemp -d /tmp/spritz-lab-host.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# TOPO RATE DEADLINE <TAB> knobs line <TAB> timers line.  Row 1 is
# lab.rst's example (Q 44800 B, RTT 89.6 ms); row 3 a fast plan (Q 841600
# B, RTT 6.7 ms) whose path timeout stops at the knob's default (Linux's
# minimum RTO) while TCP's minimum RTO, and the path timeout's floor
# (timeout_min_us), go below it.
PLAN_CASES=$(cat <<'EOF'
dragonfly:p=1,a=4,h=2 4 20	explore_threshold=5 ecn_threshold=1 small_flow_bytes=64161 timeout_us=1223776 timeout_min_us=1223776 disable_ms=20000 flowlet_gap_us=44800	1224
dragonfly:p=1,a=2,h=1 20 60	explore_threshold=7 ecn_threshold=1 small_flow_bytes=82492 timeout_us=314685 timeout_min_us=314685 disable_ms=60000 flowlet_gap_us=11520	315
dragonfly:p=1,a=2,h=1 1000 3	explore_threshold=101 ecn_threshold=18 small_flow_bytes=1205312 timeout_us=200000 timeout_min_us=91960 disable_ms=3000 flowlet_gap_us=3366	92
EOF
)

test_plan_knobs()
{
	local spec want rto topo rate dl out got gotr bad=0
	while IFS=$'\t' read -r spec want rto; do
		read -r topo rate dl <<< "$spec"
		out=$("$LABCTL" plan "$topo" --rate "$rate" --deadline "$dl") || return 1
		got=$(awk '$1 == "knobs" { $1 = ""; sub(/^ /, ""); print }' <<< "$out")
		gotr=$(awk '$1 == "timers" { print $2 }' <<< "$out")
		if [ "$got" != "$want" ] || [ "$gotr" != "$rto" ]; then
			echo "$spec: knobs '$got' timers '$gotr', want '$want' '$rto'"
			bad=1
		fi
	done <<< "$PLAN_CASES"
	expect 1 "usage" "$LABCTL" plan "$DF" --deadline 0 || return 1
	return $bad
}

# A lab/run directory as the guest leaves it: two runs of ecmp and of
# scout, incast and bystander flows, the hosts' and the datapath's
# counters per run, the switches' drops.
make_fixture()
{
	local d=$1
	mkdir -p "$d"
	cat > "$d/config" <<-EOF
	topo=$DF
	scenario=incast
	fail_links=0.02
	schemes=ecmp,scout
	seed=1
	rate=4
	host_rate=16
	size=1000
	deadline=20
	queue_limit=179200
	mtu=4160
	bdp=44800
	rtt_us=89600
	per_host=4
	fail_mode=blackhole
	repeat=2
	timers=paper
	clock=icount
	rto_min_ms=1224
	knobs="explore_threshold=5"
	EOF
	echo 6.12 > "$d/kernel"
	printf '1 1 4 1\n' > "$d/failed-links.txt"
	local s
	for s in ecmp scout; do
		echo "10 2 50" > "$d/qdisc-$s.txt"
	done
	# flows: start_us, fct_us (null: unfinished), retransmits, tag, run
	jq -n '{deadline_us: 20000000, runs: 2, flows_total: 6, finished: 5, flows: [
		{start_us: 0, fct_us: 1000, finished: true, retransmits: 1, tag: "incast", run: 1},
		{start_us: 0, fct_us: 3000, finished: true, retransmits: 2, tag: "incast", run: 1},
		{start_us: 500, fct_us: 200, finished: true, retransmits: 0, tag: "bystander", run: 1},
		{start_us: 0, fct_us: 2000, finished: true, retransmits: 4, tag: "incast", run: 2},
		{start_us: 0, fct_us: null, finished: false, retransmits: 8, tag: "incast", run: 2},
		{start_us: 100, fct_us: 400, finished: true, retransmits: 16, tag: "bystander", run: 2}]}' \
		> "$d/flows-ecmp.json"
	cp "$d/flows-ecmp.json" "$d/flows-scout.json"
	jq -n '[{tcp: {TcpRetransSegs: 5, TcpExtTCPTimeouts: 1, TcpExtTCPDSACKRecv: 2,
		       TcpExtTCPSACKReorder: 3, TcpExtTCPTSReorder: 1, TcpExtTCPLossProbes: 4},
		 spritz: null},
		{tcp: {TcpRetransSegs: 7, TcpExtTCPFastRetrans: 6, TcpExtTCPDSACKUndo: 1,
		       TcpExtTCPLossUndo: 2}, spritz: null}]' > "$d/hostctr-ecmp.json"
	jq -n '[{tcp: {TcpRetransSegs: 100, TcpExtTCPSACKReorder: 40},
		 spritz: {fb_ack: 1000, fb_ecn: 10, fb_nack: 5, fb_timeout: 2, path_disables: 3,
			  eg_ring_overrun: 7, eg_retrans: 90},
		 bpf_ns: {spritz_egress: 30, spritz_ingress: 20, spritz_switch: 100}, wall_ns: 1000},
		{tcp: {TcpRetransSegs: 50, TcpExtTCPRenoReorder: 1},
		 spritz: {fb_ack: 500, fb_nack: 1, path_disables: 1},
		 bpf_ns: {spritz_switch: 50}, wall_ns: 1000}]' > "$d/hostctr-scout.json"
	echo '{"tx": [], "drops": [{"sw": 1, "reason": "blackhole", "packets": 30},
		{"sw": 4, "reason": "blackhole", "packets": 12}, {"sw": 2, "reason": "no_route", "packets": 1}]}' \
		> "$d/counters-ecmp.json"
	echo '{"tx": [], "drops": []}' > "$d/counters-scout.json"
}

# JQ PATH <TAB> expected JSON value, on results.json of the fixture.
REPORT_CASES=$(cat <<'EOF'
.schemes.ecmp.counters.tcp.retrans_segs	12
.schemes.ecmp.counters.tcp.rto	1
.schemes.ecmp.counters.tcp.fast_retrans	6
.schemes.ecmp.counters.tcp.loss_probes	4
.schemes.ecmp.counters.tcp.dsacks	2
.schemes.ecmp.counters.tcp.undos	3
.schemes.ecmp.counters.tcp.reordering	4
.schemes.ecmp.counters.spritz	null
.schemes.ecmp.counters.switch_drops	{"blackhole":42,"no_route":1}
.schemes.ecmp.counters.runs | length	2
.schemes.ecmp.counters.runs[1].tcp.retrans_segs	7
.schemes.scout.counters.tcp.retrans_segs	150
.schemes.scout.counters.tcp.reordering	41
.schemes.scout.counters.spritz.feedback	{"ack":1500,"ecn":10,"nack":6,"timeout":2}
.schemes.scout.counters.spritz.path_disables	4
.schemes.scout.counters.spritz.ring_overruns	7
.schemes.scout.counters.spritz.retrans_sends	90
.schemes.scout.counters.runs[0].spritz.path_disables	3
.schemes.scout.counters.switch_drops	{}
.schemes.scout.counters.bpf.host_pct	2.5
.schemes.scout.counters.bpf.switch_pct	7.5
.schemes.scout.counters.bpf.run_ns.spritz_switch	150
.schemes.scout.counters.runs[1].bpf.switch_pct	5
.schemes.ecmp.counters.bpf.host_pct	null
.clock	"icount"
.schemes.ecmp.retransmits	31
.schemes.ecmp.by_tag.incast.flows	4
.schemes.ecmp.by_tag.incast.finished	3
.schemes.ecmp.by_tag.incast.retransmits	15
.schemes.ecmp.by_tag.incast.fct_us.p99	20000000
.schemes.ecmp.by_tag.bystander.retransmits	16
.schemes.ecmp.by_tag.bystander.fct_us.p99	400
.schemes.ecmp.by_tag.bystander.completion_us	500
.schemes.ecmp.by_tag.incast.completion_us	3000
EOF
)

test_report_counters()
{
	local d=$TMP/report path want got bad=0
	make_fixture "$d"
	"$RUN" --report "$d" 2>&1 | tail -n 1
	[ -s "$d/results.json" ] || { echo "no results.json"; return 1; }
	while IFS=$'\t' read -r path want; do
		got=$(jq -c "$path" "$d/results.json") || return 1
		[ "$got" = "$(jq -cn "$want")" ] || { echo "$path: $got, want $want"; bad=1; }
	done <<< "$REPORT_CASES"
	grep -q '^| scout | 150 | .* | 2.5/7.5 |$' "$d/results.md" || { echo "results.md: no scout counters row"; bad=1; }
	grep -q '^| ecmp | bystander | 2 | 2 | ' "$d/results.md" ||
		{ echo "results.md: no ecmp bystander row"; bad=1; }
	expect 1 "no config" "$RUN" --report "$TMP" || bad=1
	return $bad
}

# Two seeds of the fixture, the second with every flow finished sooner:
# the summary's per-seed figures and their mean and range.
SEEDS_CASES=$(cat <<'EOF'
.seeds	[1,2]
.clock	"host"
.schemes | keys	["ecmp","scout"]
[.schemes.ecmp.seeds[].finished]	[5,6]
.schemes.ecmp.flows	12
.schemes.ecmp.finished	11
[.schemes.ecmp.seeds[].mean_us]	[3334433,700]
.schemes.ecmp.fct_us.mean	{"mean":1667566,"min":700,"max":3334433}
.schemes.ecmp.fct_us.p99.max	20000000
[.schemes.scout.seeds[].path_disables]	[4,4]
[.schemes.ecmp.seeds[].retrans_segs]	[12,12]
[.failed_links[].links]	[1,1]
EOF
)

test_report_seeds()
{
	local d=$TMP/seeds path want got bad=0 s
	make_fixture "$d/seed-1"
	make_fixture "$d/seed-2"
	sed -i 's/^seed=1$/seed=2/' "$d/seed-2/config"
	# a directory of a lab/run that wrote no clock line ran on the host's
	grep -v '^clock=' "$d/seed-1/config" > "$d/config"
	echo "seeds=1,2" >> "$d/config"
	for s in ecmp scout; do
		jq '.flows |= map(.finished = true | .fct_us = (if .tag == "incast" then 1000 else 100 end))' \
			"$d/seed-1/flows-$s.json" > "$d/seed-2/flows-$s.json"
	done
	"$RUN" --report "$d" 2>&1 | tail -n 1
	while IFS=$'\t' read -r path want; do
		got=$(jq -c "$path" "$d/results.json") || return 1
		[ "$got" = "$(jq -cn "$want")" ] || { echo "$path: $got, want $want"; bad=1; }
	done <<< "$SEEDS_CASES"
	[ -s "$d/seed-2/results.json" ] || { echo "no per-seed results"; bad=1; }
	grep -q '^| ecmp | 5/6, 6/6 | 3334433, 700 | 1667566 \[700, 3334433\] | ' "$d/results.md" ||
		{ echo "results.md: no ecmp row"; cat "$d/results.md"; bad=1; }
	return $bad
}

# The motivational scenario, two runs per scheme: the monitored flow's
# median and range per scheme in results.json and in the bars' data
# (monitored.dat, seconds; written with or without gnuplot), one row per
# scheme in the order run.  Unfinished counts at the deadline.
MONITORED_CASES=$(cat <<'EOF'
ecmp	3000000 1000000	1000000	ecmp 1.000 1.000 3.000
scout	400000 200000	200000	scout 0.200 0.200 0.400
spray-u	null 500000	500000	spray-u 0.500 0.500 20.000
EOF
)

test_report_monitored()
{
	local d=$TMP/monitored s fcts med row bad=0 want=() got
	make_fixture "$d"
	sed -i 's/^scenario=.*/scenario=motivational/; s/^schemes=.*/schemes=ecmp,scout,spray-u/' \
		"$d/config"
	rm -f "$d"/*-ecmp.json "$d"/*-scout.json
	while IFS=$'\t' read -r s fcts med row; do
		set -- $fcts
		jq -n --argjson a "$1" --argjson b "$2" '{deadline_us: 20000000, runs: 2, flows: [
			{start_us: 0, fct_us: $a, finished: ($a != null), retransmits: 0,
			 tag: "monitored", run: 1},
			{start_us: 0, fct_us: $b, finished: ($b != null), retransmits: 0,
			 tag: "monitored", run: 2},
			{start_us: 0, fct_us: 7, finished: true, retransmits: 0, tag: "background",
			 run: 1}]}' > "$d/flows-$s.json"
		echo '[{"tcp": {}, "spritz": null}]' > "$d/hostctr-$s.json"
		echo '{"tx": [], "drops": []}' > "$d/counters-$s.json"
		want+=("$row")
	done <<< "$MONITORED_CASES"
	"$RUN" --report "$d" 2>&1 | tail -n 1
	[ "${PIPESTATUS[0]}" = 0 ] || { echo "lab/run --report failed"; bad=1; }
	while IFS=$'\t' read -r s fcts med row; do
		got=$(jq ".schemes[\"$s\"].monitored_fct_us" "$d/results.json")
		[ "$got" = "$med" ] || { echo "$s: monitored_fct_us $got, want $med"; bad=1; }
	done <<< "$MONITORED_CASES"
	got=$(cat "$d/monitored.dat" 2>/dev/null)
	[ "$got" = "$(printf '%s\n' "${want[@]}")" ] ||
		{ echo "monitored.dat:"; echo "$got"; echo "want:"; printf '%s\n' "${want[@]}"; bad=1; }
	return $bad
}

# labctl sysctl NS... -- K=V...: arguments <TAB> exit <TAB> error (- none) <TAB>
# tcp_reordering in both namespaces after (they start at 3).  A bad key,
# a missing namespace or a malformed pair changes nothing anywhere.
SYSCTL_CASES=$(cat <<'EOF'
A B -- net.ipv4.tcp_reordering=100 net.core.txrehash=0	0	-	100 100
A B -- net.ipv4.tcp_reordering=50 net.ipv4.no_such_knob=1	1	failed to set net.ipv4.no_such_knob=1	3 3
A C -- net.ipv4.tcp_reordering=50	1	failed to enter netns	3 3
A B -- net.ipv4.tcp_reordering=50 net.ipv4.tcp_ecn	1	do not mix	3 3
A B -- =1	1	expected KEY=VALUE or KEY	3 3
A B --	1	usage	3 3
EOF
)

test_labctl_sysctl()
{
	local args rc pat want got a b bad=0 ns=()
	a=spritz-lh-$$-a b=spritz-lh-$$-b
	ip netns add "$a" 2>/dev/null && ip netns add "$b" ||
		{ ip netns del "$a" 2>/dev/null; echo "cannot create network namespaces"; return 4; }
	while IFS=$'\t' read -r args rc pat want; do
		ip netns exec "$a" sysctl -qw net.ipv4.tcp_reordering=3
		ip netns exec "$b" sysctl -qw net.ipv4.tcp_reordering=3
		read -ra ns <<< "${args//A/$a}"
		ns=("${ns[@]//B/$b}")
		ns=("${ns[@]//C/spritz-lh-$$-none}")
		[ "$pat" != - ] || pat=
		expect "$rc" "$pat" "$LABCTL" sysctl "${ns[@]}" || bad=1
		got="$(ip netns exec "$a" sysctl -n net.ipv4.tcp_reordering) $(ip netns exec "$b" \
			sysctl -n net.ipv4.tcp_reordering)"
		[ "$got" = "$want" ] || { echo "$args: tcp_reordering $got, want $want"; bad=1; }
	done <<< "$SYSCTL_CASES"
	ip netns del "$a"
	ip netns del "$b"
	return $bad
}

# labctl sysctl NS... -- KEY... (read) and labctl nooffload DEV NS...:
# arguments <TAB> exit <TAB> stdout, or the error (A's tcp_reordering is 3,
# B's 7, tcp_ecn 2 in both; A has a veth eth0 with TSO and GSO on).
READ_CASES=$(cat <<'EOF'
sysctl A B -- net.ipv4.tcp_reordering net.ipv4.tcp_ecn	0	A 3 2|B 7 2
sysctl B -- net.ipv4.tcp_reordering	0	B 7
sysctl A -- net.ipv4.no_such_knob	1	labctl: failed to read net.ipv4.no_such_knob in A: No such file or directory
sysctl C -- net.ipv4.tcp_ecn	1	labctl: failed to enter netns C: No such file or directory
nooffload eth0 A	0	tcp-segmentation-offload: off|generic-segmentation-offload: off
nooffload eth1 A	1	labctl: failed to find eth1 in A: No such device
nooffload eth0 C	1	labctl: failed to enter netns C: No such file or directory
nooffload eth0	1	labctl: usage: labctl nooffload DEV NS...
EOF
)

test_labctl_read()
{
	local args rc want got a b c bad=0 argv=()
	a=spritz-lr-$$-a b=spritz-lr-$$-b c=spritz-lr-$$-none
	ip netns add "$a" 2>/dev/null && ip netns add "$b" ||
		{ ip netns del "$a" 2>/dev/null; echo "cannot create network namespaces"; return 4; }
	ip netns exec "$a" sysctl -qw net.ipv4.tcp_reordering=3 net.ipv4.tcp_ecn=2
	ip netns exec "$b" sysctl -qw net.ipv4.tcp_reordering=7 net.ipv4.tcp_ecn=2
	while IFS=$'\t' read -r args rc want; do
		ip -n "$a" link del eth0 2>/dev/null
		ip -n "$a" link add eth0 type veth peer name p0 || bad=1
		ip netns exec "$a" ethtool -K eth0 tso on gso on >/dev/null 2>&1
		read -r -a argv <<< "$args"
		argv=("${argv[@]//A/$a}") && argv=("${argv[@]//B/$b}") && argv=("${argv[@]//C/$c}")
		want=${want//A/$a} && want=${want//B/$b} && want=${want//C/$c}
		got=$("$LABCTL" "${argv[@]}" 2>&1)
		[ $? = "$rc" ] || { echo "$args: exit $?, want $rc: $got"; bad=1; continue; }
		if [ "${argv[0]}" = nooffload ] && [ "$rc" = 0 ]; then
			got=$(ip netns exec "$a" ethtool -k eth0 |
				grep -E '^(tcp-segmentation|generic-segmentation)-offload:')
		fi
		[ "$(tr '\n' '|' <<< "$got" | sed 's/|$//')" = "$want" ] ||
			{ echo "$args: got '$got', want '$want'"; bad=1; }
	done <<< "$READ_CASES"
	ip netns del "$a"
	ip netns del "$b"
	return $bad
}

# The IPv6 UDP frames to port 9 of a pcap file (labctl capture), one line
# each: traffic class (hex), captured and original length.
pcap_udp9()
{
	PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$SPRITZ_TOP/selftests/lib python3 - "$1" <<-'EOF'
	import pcap, struct, sys
	snap, frames = pcap.read(sys.argv[1])
	for orig, f in frames:
	    if len(f) > snap or f[12:14] != b'\x86\xdd' or f[20] != 17:
	        continue
	    if struct.unpack('>H', f[56:58])[0] == 9:
	        print('%x %d %d' % (struct.unpack('>I', f[14:18])[0] >> 20 & 0xff, len(f), orig))
	EOF
}

# labctl capture: arguments <TAB> exit <TAB> error pattern ("-": none)
# <TAB> what A.pcap | B.pcap hold of three 200-byte UDP datagrams A sends
# to B with traffic class 0x28 ("-": no file).  A and B are joined by a
# veth pair, eth0 in each; C does not exist.
CAPTURE_CASES=$(cat <<'EOF'
eth0 A B	0	-	28 128 262|28 128 262|28 128 262 | 28 128 262|28 128 262|28 128 262
--snaplen 64 eth0 A	0	-	28 64 262|28 64 262|28 64 262 | -
--snaplen 1500 eth0 B	0	-	- | 28 262 262|28 262 262|28 262 262
eth0 A C	1	failed to enter netns	- | -
eth1 A B	1	failed to find eth1 in	- | -
--snaplen 10 eth0 A	1	not 64-65535	- | -
eth0	1	usage	- | -
EOF
)

test_labctl_capture()
{
	local args rc pat want got a b f bad=0 argv=() pid st rx
	a=spritz-lc-$$-a b=spritz-lc-$$-b
	ip netns add "$a" 2>/dev/null && ip netns add "$b" ||
		{ ip netns del "$a" 2>/dev/null; echo "cannot create network namespaces"; return 4; }
	ip -n "$a" link add eth0 type veth peer name eth0 netns "$b" &&
		ip -n "$a" addr add fd01::1/64 dev eth0 nodad &&
		ip -n "$b" addr add fd01::2/64 dev eth0 nodad &&
		ip -n "$a" link set eth0 up && ip -n "$b" link set eth0 up &&
		ip -n "$a" neigh add fd01::2 dev eth0 lladdr \
			"$(ip -n "$b" -j link show eth0 | jq -r '.[0].address')" || bad=1
	while IFS=$'\t' read -r args rc pat want; do
		rm -f "$TMP"/*.pcap "$TMP/cap.out" "$TMP/rx.out"
		read -r -a argv <<< "$args"
		argv=("${argv[@]//A/$a}") && argv=("${argv[@]//B/$b}") &&
			argv=("${argv[@]//C/spritz-lc-$$-none}")
		"$LABCTL" capture --dir "$TMP" "${argv[@]}" > "$TMP/cap.out" 2> "$TMP/cap.err" &
		pid=$!
		# until it listens, or has died
		while kill -0 $pid 2>/dev/null && ! grep -q capturing "$TMP/cap.out" 2>/dev/null; do
			sleep 0.1
		done
		if [ "$rc" = 0 ]; then
			# B's socket has the three (so B's capture has them too, taken
			# before the protocols) before the capture stops
			ip netns exec "$b" python3 -c '
import socket
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
s.bind(("fd01::2", 9))
s.settimeout(60)
print("bound", flush=True)
for _ in range(3):
    s.recv(512)' > "$TMP/rx.out" &
			rx=$!
			while kill -0 $rx 2>/dev/null && ! grep -q bound "$TMP/rx.out" 2>/dev/null; do
				sleep 0.1
			done
			ip netns exec "$a" python3 -c '
import socket
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_TCLASS, 0x28)
for _ in range(3):
    s.sendto(b"x" * 200, ("fd01::2", 9))' || bad=1
			wait $rx || bad=1
			kill -TERM $pid
		fi
		wait $pid
		st=$?
		[ $st = "$rc" ] || { echo "$args: exit $st, want $rc: $(cat "$TMP/cap.err")"; bad=1; }
		[ "$pat" = - ] || grep -q -- "$pat" "$TMP/cap.err" ||
			{ echo "$args: stderr '$(cat "$TMP/cap.err")', want $pat"; bad=1; }
		got=
		for f in "$a" "$b"; do
			[ -z "$got" ] || got+=" | "
			if [ -e "$TMP/$f.pcap" ]; then
				got+=$(pcap_udp9 "$TMP/$f.pcap" | tr '\n' '|' | sed 's/|$//')
			else
				got+=-
			fi
		done
		[ "$got" = "$want" ] || { echo "$args: captured '$got', want '$want'"; bad=1; }
	done <<< "$CAPTURE_CASES"
	ip netns del "$a"
	ip netns del "$b"
	return $bad
}

gen() { "$FLOWGEN" gen "$DF" "$@"; }

# TAG's flows of a list: count, distinct sizes, distinct start times.
tag_summary()
{
	awk -v t="$2" '$5 == t { n++; z[$4]; s[$1] }
		END { printf "%d", n; for (k in z) printf " z%s", k; for (k in s) printf " s%s", k; print "" }' \
		<<< "$1" | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//'
}

# Every sender of TAG sends to exactly one receiver and every receiver
# hears from exactly one sender, never itself.
is_permutation()
{
	awk -v t="$2" '$5 == t { if ($2 == $3 || out[$2]++ || inn[$3]++) bad = 1; n++ }
		END { for (a in out) if (!(a in inn)) bad = 1; exit bad || !n }' <<< "$1"
}

test_gen_collectives()
{
	local l bad=0 want got
	# allreduce-ring, 8 members, SIZE 7000: one ring of 2 x 7/8 x 7000
	l=$(gen --scenario allreduce-ring --size 7000 --members 8 --seed 4) || return 1
	got=$(tag_summary "$l" allreduce-ring) want="8 s0 z12250"
	[ "$got" = "$want" ] || { echo "ring: '$got', want '$want'"; bad=1; }
	is_permutation "$l" allreduce-ring || { echo "ring: not a permutation"; bad=1; }
	# one cycle through the 8 members: follow it from the first
	local n
	n=$(awk '$5 == "allreduce-ring" { nx[$2] = $3; if (!f) f = $2 }
		END { a = f; do { a = nx[a]; c++ } while (a != f && c < 100); print c }' <<< "$l")
	[ "$n" = 8 ] || { echo "ring: cycle of $n, want 8"; bad=1; }
	got=$(tag_summary "$l" background) want="28 s0 z7000"
	[ "$got" = "$want" ] || { echo "ring background: '$got', want '$want'"; bad=1; }
	is_permutation "$l" background || { echo "ring background: not a permutation"; bad=1; }
	[ -z "$(comm -12 <(awk '$5 == "background" { print $2 }' <<< "$l" | sort) \
		<(awk '$5 == "allreduce-ring" { print $2 }' <<< "$l" | sort))" ] ||
		{ echo "ring: a member also sends background"; bad=1; }
	# butterfly, 10 members asked: 8 (a power of two), log2 8 = 3 steps
	# of 7000, 3500, 1750 bytes, each pair both ways with the same size
	l=$(gen --scenario allreduce-butterfly --size 7000 --members 10 --seed 4) || return 1
	got=$(tag_summary "$l" allreduce-butterfly) want="24 s0 z1750 z3500 z7000"
	[ "$got" = "$want" ] || { echo "butterfly: '$got', want '$want'"; bad=1; }
	[ "$(awk '$5 == "allreduce-butterfly" { print $2, $3, $4; print $3, $2, $4 }' <<< "$l" |
		sort | uniq -c | awk '$1 != 2' | wc -l)" = 0 ] ||
		{ echo "butterfly: a pair is not exchanged both ways"; bad=1; }
	got=$(tag_summary "$l" background | cut -d' ' -f1)
	[ "$got" = 28 ] || { echo "butterfly background: $got flows, want 28"; bad=1; }
	# alltoall, 5 members, 2 parallel, rounds 1000 us apart: every ordered
	# pair once with 4000 / 4 bytes, two per member in each round
	l=$(gen --scenario alltoall --size 4000 --members 5 --parallel 2 --round 1000 --seed 4) ||
		return 1
	got=$(tag_summary "$l" alltoall) want="20 s0 s1000 z1000"
	[ "$got" = "$want" ] || { echo "alltoall: '$got', want '$want'"; bad=1; }
	[ "$(awk '$5 == "alltoall" { print $1, $2 }' <<< "$l" | sort | uniq -c | awk '{ print $1 }' |
		sort -u)" = 2 ] || { echo "alltoall: not two connections per member per round"; bad=1; }
	[ "$(awk '$5 == "alltoall" { print $2, $3 }' <<< "$l" | sort -u | wc -l)" = 20 ] ||
		{ echo "alltoall: an ordered pair twice"; bad=1; }
	expect 1 "failed to generate allreduce-ring" gen --scenario allreduce-ring --size 1 \
		--members 37 || bad=1
	expect 1 "failed to parse --members" gen --scenario alltoall --size 1 --members 1 || bad=1
	return $bad
}

test_gen_incast()
{
	local l got bad=0
	# 36 hosts: 9 senders into one receiver, the other 26 a permutation
	l=$(gen --scenario incast --size 5000 --seed 2) || return 1
	got=$(tag_summary "$l" incast)
	[ "$got" = "9 s0 z5000" ] || { echo "incast: '$got', want '9 s0 z5000'"; bad=1; }
	[ "$(awk '$5 == "incast" { print $3 }' <<< "$l" | sort -u | wc -l)" = 1 ] ||
		{ echo "incast: more than one receiver"; bad=1; }
	got=$(tag_summary "$l" bystander)
	[ "$got" = "26 s0 z5000" ] || { echo "bystander: '$got', want '26 s0 z5000'"; bad=1; }
	is_permutation "$l" bystander || { echo "bystanders: not a permutation"; bad=1; }
	return $bad
}

# Web search at load 1.0 of 4 Mbit/s for 2 s, sizes the trace's x 0.01:
# starts within the duration, no flow to itself, sizes within the trace's
# range, receivers with at most 4 concurrent senders (a flow busy for its
# size at the link rate), offered load near 1.0, and the seed decides.
test_gen_websearch()
{
	local l a b bad=0
	l=$(gen --scenario websearch --size 41943 --rate 4 --load 1.0 --duration 2000000 \
		--max-senders 4 --seed 5) || return 1
	echo "$(wc -l <<< "$l") flows"
	awk '$5 != "websearch" || $1 < 0 || $1 >= 2000000 || $2 == $3 || $4 < 1 || $4 > 300000 \
		{ print "bad flow: " $0; bad = 1 } END { exit bad }' <<< "$l" | head -n 3
	[ "${PIPESTATUS[0]}" = 0 ] || bad=1
	# concurrent distinct senders per receiver, at every flow's start
	awk '{ s[NR] = $1; e[NR] = $1 + $4 * 8 / 4; d[NR] = $3; src[NR] = $2 }
		END { for (i = 1; i <= NR; i++) { delete seen; c = 0
			for (j = 1; j <= NR; j++)
				if (d[j] == d[i] && s[j] <= s[i] && e[j] > s[i] && !(src[j] in seen)) {
					seen[src[j]]; c++ }
			if (c > m) m = c }
		print "most concurrent senders into one receiver: " m; exit m > 4 }' <<< "$l" || bad=1
	awk '{ b += $4 } END { l = b * 8 / (36 * 2000000 * 4); printf "offered load %.2f\n", l;
		exit !(l > 0.6 && l < 1.5) }' <<< "$l" || bad=1
	a=$(gen --scenario websearch --size 41943 --duration 2000000 --seed 5 | md5sum)
	b=$(gen --scenario websearch --size 41943 --duration 2000000 --seed 6 | md5sum)
	[ "$a" != "$b" ] || { echo "seeds 5 and 6 give the same list"; bad=1; }
	expect 1 "failed to parse --load" gen --scenario websearch --size 1 --load 0 || bad=1
	return $bad
}

# lab/run --members: a bad count, or more members than the plan has hosts
# (36), is refused before anything is created; so is a clock that is not
# icount or host, and --clock icount with --no-vm (this machine's clock).
test_run_members()
{
	local bad=0

	expect 2 "failed to parse --members 1: not a number of hosts, at least 2" \
		"$RUN" --topo "$DF" --scenario alltoall --members 1 --out "$TMP/m" || bad=1
	expect 2 "failed to generate allreduce-ring: 37 members of 36 hosts" \
		"$RUN" --topo "$DF" --scenario allreduce-ring --members 37 --out "$TMP/m" || bad=1
	expect 2 "failed to parse --clock wall: not icount or host" \
		"$RUN" --topo "$DF" --scenario permutation --clock wall --out "$TMP/m" || bad=1
	expect 2 "failed to use --clock icount: --no-vm runs on this machine's clock" \
		"$RUN" --topo "$DF" --scenario permutation --clock icount --no-vm --out "$TMP/m" || bad=1
	[ ! -e "$TMP/m" ] || { echo "lab/run created its --out on bad input"; bad=1; }
	return $bad
}

cases=(plan_knobs report_counters report_seeds report_monitored labctl_sysctl labctl_read gen_collectives gen_incast
       gen_websearch run_members)
[ $# -gt 0 ] && cases=("$@")
ktap_run_cases "${cases[@]}"
