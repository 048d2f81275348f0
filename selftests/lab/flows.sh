#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Real TCP flows through the lab fabric (lab/flowgen, lab/run --no-vm):
# Dragonfly p=1, a=2, h=1, switch mode ECMP.  A permutation (every host
# sends one flow to a host of another group) must finish with every byte
# received; the results.json of lab/run must have the documented schema and
# agree with the per-flow results, no host caches TCP metrics between
# runs, every host's default routes carry TCP's timers at the paper's
# ratio (rto_min, quickack), and kernel.bpf_stats_enabled, which lab/run
# turns on, is as it was after it (a later suite of the same boot compares
# bpftool's output); flowgen must refuse bad flow lists and change
# nothing, end a run when its tagged flows finished (--stop-tag), and
# generate the motivational scenario's flow counts, sizes and start.
# lab/run with nearly every link down: unfinished flows are counted, at
# their time from start to the deadline.  results.json
# has the hosts' TCP counters and Scout's datapath counters; the
# switches' UGAL-L routes a permutation.  Spritz-Scout
# flows over a blackholed link finish, and spritzctl shows the EVs
# crossing the link disabled.  lab/run --capture records every host's
# frames per run, Scout's data with EVs of the hosts' paths.
# Needs root, veth, sch_htb, sch_red (guest suite).

source "$(dirname "$0")/../lib/lib.sh"

require_root
require_veth

TOPO=dragonfly:p=1,a=2,h=1
FABRIC=$SPRITZ_TOP/lab/fabric
FLOWGEN=$SPRITZ_OUT/lab/flowgen
RUN=$SPRITZ_TOP/lab/run
SPRITZCTL=$SPRITZ_OUT/spritzctl
SIZE=150000
DIR=$(mktemp -d /tmp/spritz-lab-flows.XXXXXX)

"$FABRIC" down 2>/dev/null
trap '"$FABRIC" down; rm -rf "$DIR"' EXIT

# flowgen's results for FLOWS into OUT, in the fabric that is up.
flows_ok()
{
	local out=$1 n bad
	bad=$(jq -r --argjson size $SIZE '"\(.flows | length) flows, \(.finished) finished",
		(.flows[] |
		 select(.finished != true or .bytes != $size or (.fct_us | type) != "number" or
			.fct_us <= 0 or (.retransmits | type) != "number") |
		 "flow \(.id) \(.src) -> \(.dst): finished \(.finished), \(.bytes) bytes, fct \(.fct_us)")' \
		"$out") || return 1
	head -n 1 <<<"$bad"
	n=${bad%% flows,*}
	[ "$(wc -l <<<"$bad")" = 1 ] || { tail -n +2 <<<"$bad"; return 1; }
	[ "$n" -ge 6 ]
}

test_permutation()
{
	"$FABRIC" up "$TOPO" --rate 20 --host-rate 40 --mode ecmp 2>&1 || return 1
	"$FLOWGEN" gen "$TOPO" --scenario permutation --size $SIZE --seed 2 > "$DIR/flows" || return 1
	"$FLOWGEN" run "$DIR/flows" --deadline 60 --out "$DIR/out.json" || return 1
	flows_ok "$DIR/out.json" || return 1
	# No host kept TCP metrics of its closed connections: the next run
	# of a flow list starts from the same state (lab/fabric)
	local ns cached=
	for ns in $(ip netns list | awk '$1 ~ /^h[0-9]+-[0-9]+$/ { print $1 }'); do
		[ -z "$(ip -n "$ns" tcp_metrics show 2>&1)" ] || cached+=" $ns"
	done
	[ -z "$cached" ] || { echo "TCP metrics cached in$cached"; return 1; }
	# Every flow crossed the fabric: the destinations' host ports sent at
	# least SIZE bytes each.
	local got
	got=$("$SPRITZ_OUT/lab/labctl" counters | jq '[.tx[] | select(.type == "host") | .bytes] | add')
	echo "host ports sent $got bytes"
	[ "$got" -ge $((6 * SIZE)) ] || return 1
	# labctl redstat (lab/run's ECN marks and queue drops) sums what tc
	# shows for every RED qdisc of the fabric, and counts them
	local tcsum red
	tcsum=$(for ns in $(ip netns list | awk '$1 ~ /^(sw[0-9]+|h[0-9]+-[0-9]+)$/ { print $1 }'); do
			tc -s -n "$ns" qdisc show
		done | awk '/^qdisc red/ { red = 1; n++; next } /^qdisc/ { red = 0 }
		red && /Sent/ { gsub(/[(,]/, " "); for (i = 1; i < NF; i++) if ($i == "dropped") d += $(i + 1) }
		red && /marked/ { for (i = 1; i < NF; i++) if ($i == "marked") m += $(i + 1) }
		END { printf "%d %d %d\n", m, d, n }')
	# shellcheck disable=SC2046 # one argument per namespace
	red=$("$SPRITZ_OUT/lab/labctl" redstat $(awk '$1 == "switch" { print $3 }
		$1 == "host" { print $4 }' /run/spritz-lab/plan))
	echo "RED qdiscs: marked, dropped, count: $red"
	[ "$red" = "$tcsum" ] && [ "${red##* }" -gt 0 ] ||
		{ echo "labctl redstat '$red', tc -s '$tcsum'"; return 1; }
}

test_bad_input()
{
	local before after
	before=$(ip netns list | wc -l)
	printf '0 fd00::1 fd00:ff::1 1000 x\n' > "$DIR/bad1"
	expect 1 "destination fd00:ff::1 is no host of the plan" "$FLOWGEN" run "$DIR/bad1" || return 1
	printf '0 fd00::1 fd00:1::1 -5 x\n' > "$DIR/bad2"
	expect 1 "failed to parse .* line 1" "$FLOWGEN" run "$DIR/bad2" || return 1
	printf '0 fd00::1 fd00::1 1000 x\n' > "$DIR/bad3"
	expect 1 "one host" "$FLOWGEN" run "$DIR/bad3" || return 1
	printf '0 fd00::1 fd00:1::1 1000 x\n' > "$DIR/bad4"
	expect 1 "failed to use --stop-tag m: no flow has it" "$FLOWGEN" run "$DIR/bad4" \
		--stop-tag m || return 1
	expect 1 "unknown scenario" "$FLOWGEN" gen "$TOPO" --scenario nope --size 1 || return 1
	expect 2 "not a fraction" "$RUN" --topo "$TOPO" --scenario permutation \
		--fail-links 2 --out "$DIR/never" || return 1
	[ ! -e "$DIR/never" ] || { echo "lab/run created its --out on bad input"; return 1; }
	after=$(ip netns list | wc -l)
	[ "$before" = "$after" ] || { echo "namespaces changed: $before -> $after"; return 1; }
}

# flowgen run --stop-tag: the run ends when the tagged flow finished.  The
# other flow, 100 MB on 20 Mbit/s links (40 s at line rate), cannot have
# finished by then, whatever the machine's speed; it is reported stopped,
# and the run's end (deadline_us) lies between the tagged flow's end and
# the deadline.
test_stop_tag()
{
	[ -s /run/spritz-lab/plan ] ||
		"$FABRIC" up "$TOPO" --rate 20 --host-rate 40 --mode ecmp 2>&1 || return 1
	printf '0 fd00::1 fd00:3::1 100000000 bg\n0 fd00:1::1 fd00:4::1 %d m\n' $SIZE \
		> "$DIR/stop"
	"$FLOWGEN" run "$DIR/stop" --deadline 60 --stop-tag m --out "$DIR/stop.json" || return 1
	jq -e --argjson size $SIZE '.stop_tag == "m" and .deadline_us < 60000000 and
		(.flows[] | select(.tag == "m") | .finished and .bytes == $size) and
		(.flows[] | select(.tag == "m") | .fct_us) <= .deadline_us and
		(.flows[] | select(.tag == "bg") | (.finished | not) and .error == "stopped" and
			.bytes < 100000000 and .tcp_state == "established")' "$DIR/stop.json" \
		>/dev/null || { jq -c . "$DIR/stop.json"; return 1; }
	echo "run ended after $(jq .deadline_us "$DIR/stop.json") us," \
		"$(jq '.flows[] | select(.tag == "bg") | .bytes' "$DIR/stop.json") background bytes"
}

# lab/run --capture's files in DIR (its --out) for SCHEMES: a pcap of
# every host for each run, every host's frames in it, the hosts' paths
# only for Scout; and every data segment a host sent under Scout carries
# in its flow label an EV of its table's paths to the destination's
# switch (the plan's addresses say which; lab/run --no-vm took the
# fabric down).
capture_ok()
{
	"$SPRITZ_OUT/lab/labctl" plan "$TOPO" --rate 20 > "$DIR/plan" || return 1
	PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$SPRITZ_TOP/selftests/lib python3 - "$1" "$DIR/plan" "${@:2}" <<-'EOF'
	import ipaddress, json, os, pcap, struct, sys
	d, plan = sys.argv[1], sys.argv[2]
	hosts, sw_of = {}, {}
	for line in open(plan):
	    f = line.split()
	    if f[0] == 'host':
	        hosts[f[3]] = (int(f[1]), f[6])
	        sw_of[f[6]] = int(f[1])
	def addr(b):
	    return str(ipaddress.IPv6Address(b))
	bad, data = [], 0
	runs = sorted(os.listdir(os.path.join(d, 'capture')))
	want = ['%s-%d' % (s, r) for s in sys.argv[3:] for r in (1, 2)] if len(sys.argv) > 3 else runs
	for run in runs:
	    rd = os.path.join(d, 'capture', run)
	    spritz = run.startswith('scout-')
	    if os.path.exists(os.path.join(rd, 'paths.json')) != spritz:
	        bad.append(run + ': paths.json ' + ('missing' if spritz else 'not wanted'))
	    if spritz:
	        evs = {}
	        for t in json.load(open(os.path.join(rd, 'paths.json')))['tables']:
	            for dst in t['destinations']:
	                evs[(t['src_switch'], dst['dst'])] = {p['ev'] for p in dst['paths']}
	    for ns, (sw, a6) in hosts.items():
	        p = os.path.join(rd, ns + '.pcap')
	        if not os.path.exists(p):
	            bad.append(run + ': no ' + ns + '.pcap')
	            continue
	        sent = 0
	        for _, f in pcap.read(p)[1]:
	            if len(f) < 74 or f[12:14] != b'\x86\xdd' or f[20] != 6:
	                continue
	            src, dst = addr(f[22:38]), addr(f[38:54])
	            plen, doff = struct.unpack('>H', f[18:20])[0], f[66] >> 4
	            if src != a6 or plen <= doff * 4:
	                continue
	            sent += 1
	            label = struct.unpack('>I', f[14:18])[0] & 0xfffff
	            if spritz and label not in evs.get((sw, sw_of.get(dst)), ()):
	                bad.append('%s: %s sent to %s with label %#x, no EV of its paths' %
	                           (run, ns, dst, label))
	        if not sent:
	            bad.append(run + ': ' + ns + ' sent no data')
	        data += sent
	print('%d runs captured, %d data segments' % (len(runs), data))
	for b in bad[:10]:
	    print(b)
	sys.exit(1 if bad or sorted(want) != runs else 0)
	EOF
}

test_run_schema()
{
	local stats

	"$FABRIC" down
	stats=$(sysctl -n kernel.bpf_stats_enabled)
	OUT=$SPRITZ_OUT "$RUN" --no-vm --topo "$TOPO" --scenario permutation \
		--schemes ecmp,ugal-l,scout --rate 20 --size $SIZE --deadline 60 --seed 2 --repeat 2 \
		--capture --out "$DIR/run" 2>&1 | tail -n 12 || return 1
	# the BPF run-time statistics it turned on are as they were
	[ "$(sysctl -n kernel.bpf_stats_enabled)" = "$stats" ] ||
		{ echo "kernel.bpf_stats_enabled left at $(sysctl -n kernel.bpf_stats_enabled)"; return 1; }
	jq -e --argjson size $SIZE '
		(keys == ["clock", "fail_links", "runs", "scenario", "schemes", "timers", "topo"]) and
		.runs == 2 and .clock == "host" and
		.timers.setting == "paper" and (.timers.rto_min_ms | type == "number") and
		.topo == "dragonfly:p=1,a=2,h=1" and .scenario == "permutation" and .fail_links == 0 and
		(.schemes | keys == ["ecmp", "scout", "ugal-l"]) and
		all(.schemes[]; (keys == ["counters", "fct_us", "finished", "flows", "retransmits"]) and
			(.counters | keys == ["bpf", "runs", "spritz", "switch_drops", "tcp"]) and
			(.counters.runs | length) == 2 and
			([.counters.tcp[]] | length) == 9 and all(.counters.tcp[]; type == "number") and
			.flows >= 6 and .finished == .flows and
			(.fct_us | keys == ["max", "mean", "p50", "p99"]) and
			.fct_us.p50 <= .fct_us.p99 and .fct_us.p99 <= .fct_us.max and
			.fct_us.mean <= .fct_us.max and .fct_us.p50 > 0)' \
		"$DIR/run/results.json" >/dev/null || { cat "$DIR/run/results.json"; return 1; }
	# The counters: every flow's segments reached the hosts' TCP; Scout's
	# datapath took ACK feedback, the other schemes have no Spritz
	# counters; ugal-l (the switches' UGAL-L, plain senders) routed every
	# flow (finished above) and its hosts sent data; every scheme's
	# switches ran their program, only Scout's hosts theirs
	jq -e '.schemes.scout.counters.spritz.feedback.ack > 0 and
		all(.schemes[]; .counters.bpf.switch_pct > 0 and .counters.bpf.run_ns.spritz_switch > 0) and
		.schemes.scout.counters.bpf.host_pct > 0 and .schemes.ecmp.counters.bpf.host_pct == 0 and
		.schemes.scout.counters.spritz.path_disables >= 0 and
		.schemes.scout.counters.spritz.floor_enables >= 0 and
		.schemes.ecmp.counters.spritz == null and .schemes["ugal-l"].counters.spritz == null and
		.schemes["ugal-l"].finished == .schemes["ugal-l"].flows' \
		"$DIR/run/results.json" >/dev/null ||
		{ jq -c '.schemes[] | .counters' "$DIR/run/results.json"; return 1; }
	# every run's hosts sent and received segments (labctl tcpstat read
	# every host namespace)
	jq -e 'length == 2 and all(.[]; .tcp.TcpOutSegs > 0 and .tcp.TcpInSegs > 0)' \
		"$DIR/run/hostctr-ecmp.json" >/dev/null ||
		{ echo "hostctr-ecmp.json: $(jq -c '[.[].tcp | {TcpOutSegs, TcpInSegs}]' \
			"$DIR/run/hostctr-ecmp.json")"; return 1; }
	grep -q '^| scout | [0-9]* | .* | [0-9]*/[0-9]*/[0-9]*/[0-9]* | ' "$DIR/run/results.md" ||
		{ echo "results.md: no counters row for scout"; return 1; }
	# TCP's timers at the paper's ratio on every host: the minimum RTO
	# 13.7 plan RTTs (13-14 x the plan's RTT), an ACK per packet, on the
	# IPv6 and the IPv4 default route alike
	local rto rtt hosts plan
	plan=$("$SPRITZ_OUT/lab/labctl" plan "$TOPO" --rate 20) || return 1
	rtt=$(awk '$1 == "qdisc" { print $10 }' <<<"$plan")
	hosts=$(grep -c '^host ' <<<"$plan")
	# The summary is the per-flow data's, both runs pooled: max and count
	# of flows-ecmp.json, whose flows name their run.  Scout (spritzctl up
	# on every host): both runs' flows finished, the second after the
	# tables were swapped in fresh (spritzctl reload).  One jq for these
	# checks (a start costs 0.3-0.5 s in a TCG guest): the rto, then
	# what failed.
	local out
	out=$(jq -r --slurpfile fe "$DIR/run/flows-ecmp.json" \
		--slurpfile fs "$DIR/run/flows-scout.json" '
		def check(ok; what): if ok then empty else what end;
		.timers.rto_min_ms,
		check(($fe[0] | [.flows[].fct_us] | max) == .schemes.ecmp.fct_us.max;
		      "max FCT \(.schemes.ecmp.fct_us.max), flows say \($fe[0] | [.flows[].fct_us] | max)"),
		check($fe[0] | .runs == 2 and ([.flows[].run] | unique) == [1, 2] and
		      ([.flows[] | select(.run == 1)] | length) ==
		      ([.flows[] | select(.run == 2)] | length); "flows-ecmp.json: runs"),
		check(.schemes.ecmp.flows == ($fe[0].flows | length); "flow count"),
		check($fs[0] | .runs == 2 and .finished == .flows_total;
		      "scout: \($fs[0] | {runs, finished, flows_total} | tojson)")' \
		"$DIR/run/results.json") || return 1
	rto=$(head -n 1 <<<"$out")
	[ "$(wc -l <<<"$out")" = 1 ] || { tail -n +2 <<<"$out"; return 1; }
	[ $((rto * 1000)) -ge $((13 * rtt)) ] && [ $((rto * 1000)) -le $((14 * rtt)) ] ||
		{ echo "rto_min $rto ms for a plan RTT of $rtt us"; return 1; }
	[ "$(grep -cE 'rto_min lock [0-9.]+m?s quickack 1 .*\| .*rto_min lock [0-9.]+m?s quickack 1' \
		"$DIR/run/host-routes.txt")" = "$hosts" ] ||
		{ echo "host routes:"; cat "$DIR/run/host-routes.txt"; return 1; }
	grep -q '^Flows finished: ecmp [0-9]*/[0-9]*, ugal-l [0-9]*/[0-9]*, scout' "$DIR/run/results.md" ||
		{ echo "results.md: no 'Flows finished' line"; return 1; }
	grep -q '^Spritz knobs: \|Spritz knobs: explore_threshold=' "$DIR/run/results.md" ||
		{ echo "results.md: no knobs"; return 1; }
	flows_ok "$DIR/run/flows-ugal-l.json" || return 1
	[ -s "$DIR/run/results.md" ] && [ -s "$DIR/run/fct.png" ] || { echo "no results.md or fct.png"; return 1; }
	capture_ok "$DIR/run" ecmp ugal-l scout
}

# Motivational flows: N background flows per host of 2 (N + 1) / N x
# SIZE, the monitored one at --start.
test_gen()
{
	local one four
	one=$("$FLOWGEN" gen dragonfly:p=1,a=4,h=2 --scenario motivational --size 1200 --seed 3) ||
		return 1
	four=$("$FLOWGEN" gen dragonfly:p=1,a=4,h=2 --scenario motivational --size 1200 --seed 3 \
		--per-host 4 --start 450000) || return 1
	local b1 b4
	b1=$(grep -c ' background$' <<<"$one")
	b4=$(grep -c ' background$' <<<"$four")
	echo "background flows: $b1 with one per host, $b4 with four"
	[ "$b1" -gt 0 ] && [ "$b4" -eq $((4 * b1)) ] || return 1
	[ "$(awk '$5 == "background" { print $4 }' <<<"$one" | sort -u)" = 4800 ] || return 1
	[ "$(awk '$5 == "background" { print $4 }' <<<"$four" | sort -u)" = 3000 ] || return 1
	[ "$(awk '$5 == "monitored" { print $1, $4 }' <<<"$one")" = "200000 1200" ] || return 1
	[ "$(awk '$5 == "monitored" { print $1, $4 }' <<<"$four")" = "450000 1200" ] || return 1
	# the same pairs, each repeated
	[ "$(awk '$5 == "background" { print $2, $3 }' <<<"$four" | uniq -c | awk '{ print $1 }' |
		sort -u)" = 4 ] || { echo "background pairs not repeated 4 times"; return 1; }
	expect 1 "failed to parse --per-host" "$FLOWGEN" gen "$TOPO" --scenario motivational \
		--size 1 --per-host 0
}

# Links down (--fail-mode down; seed 2 takes two of the six, which some
# minimal paths cross): flows that cannot finish are counted in
# results.json at their time from start to the deadline, and their TCP
# state says the handshake never completed.  The run also has
# --reorder dupthresh: every host detects loss by half a plan BDP of
# duplicate ACKs, without RACK; and (--timers paper) sends no TCP
# timestamps.
test_unfinished()
{
	"$FABRIC" down
	OUT=$SPRITZ_OUT "$RUN" --no-vm --topo "$TOPO" --scenario permutation --schemes minimal \
		--rate 20 --size $SIZE --deadline 3 --seed 2 --fail-links 0.3 --fail-mode down \
		--reorder dupthresh --out "$DIR/unf" 2>&1 | tail -n 4 || return 1
	local plan want got
	plan=$("$SPRITZ_OUT/lab/labctl" plan "$TOPO" --rate 20) || return 1
	# tcp_recovery, tcp_reordering, tcp_timestamps (off: --timers paper)
	want=$(awk '$1 == "qdisc" { n = int(($5 + 2 * $9 - 1) / (2 * $9)); print "0", (n > 3 ? n : 3), "0" }' \
		<<<"$plan")
	got=$(cut -d' ' -f2- "$DIR/unf/host-tcp.txt" | sort -u)
	[ "$(wc -l < "$DIR/unf/host-tcp.txt")" = "$(grep -c '^host ' <<<"$plan")" ] &&
		[ "$got" = "$want" ] && [ "$(jq -r .timers.reorder "$DIR/unf/results.json")" = dupthresh ] ||
		{ echo "--reorder dupthresh: hosts have \"$got\", want \"$want\""; return 1; }
	local f=$DIR/unf/flows-minimal.json r=$DIR/unf/results.json
	[ "$(wc -l < "$DIR/unf/failed-links.txt")" -gt 0 ] || { echo "no link failed"; return 1; }
	jq -e '([.flows[] | select(.finished | not)] | length > 0) and
		([.flows[] | select(.finished)] | length > 0)' "$f" >/dev/null ||
		{ echo "want finished and unfinished flows: $(jq -c '[.flows[].finished]' "$f")"; return 1; }
	# minimal routes are fixed and a link down fails both directions: an
	# unfinished flow never completed its handshake, and says so
	jq -e '[.flows[] | select(.finished | not) | .tcp_state] | all(. == "syn_sent")' "$f" \
		>/dev/null && jq -e '[.flows[] | select(.finished) | has("tcp_state")] | any | not' \
		"$f" >/dev/null ||
		{ echo "tcp_state: $(jq -c '[.flows[] | [.finished, .tcp_state]]' "$f")"; return 1; }
	# the summary from the per-flow data, unfinished flows included
	jq -e --slurpfile r "$r" '.deadline_us as $d |
		[.flows[] | if .finished then .fct_us else $d - .start_us end] as $c |
		$r[0].schemes.minimal as $s |
		$s.flows == (.flows | length) and $s.finished == ([.flows[] | select(.finished)] | length) and
		$s.finished < $s.flows and $s.fct_us.max == ($c | max) and
		$s.fct_us.mean == (($c | add) / ($c | length) | floor) and $s.fct_us.max == $d' \
		"$f" >/dev/null || { cat "$r"; return 1; }
	echo "$(jq -c '.schemes.minimal | {flows, finished, fct_us}' "$r")"
}

# Spritz-Scout over a blackholed link, through the reference switches:
# both flows finish; the disables of the EVs over the link are printed,
# not asserted.  The dead-path rule disables a path after two lost sends
# of one flow on it (Documentation/algorithms.rst), and whether a flow of
# this two-flow run sends twice on the dead path is chance (measured: 0
# or 1 disables per destination, Scout and Spray, 6.1 and 6.12).  That
# paths are disabled within RTTs is kmod/failover's verdict.
test_spritz_blackhole()
{
	[ -f "$(spritz_ko)" ] || { echo "no spritz.ko for $(uname -r)"; return 1; }
	"$FABRIC" down
	"$FABRIC" up "$TOPO" --rate 20 --host-rate 40 --mode spritz 2>&1 || return 1
	if ! "$FABRIC" hosts "$SPRITZCTL up --dev eth0 --topo $TOPO --switch \$LAB_SWITCH \
			--addr-plan fd00::/16 --algorithm scout" > "$DIR/up.log" 2>&1; then
		"$FABRIC" hosts "$SPRITZCTL down --dev eth0" >/dev/null 2>&1
		cat "$DIR/up.log"
		return 1
	fi
	# Switch 1, port 1 (1 -> 4) lies on paths 0 -> 5 (steer.sh).
	"$FABRIC" fail 1:1 --blackhole >/dev/null || return 1
	printf '0 fd00::1 fd00:5::1 %d monitored\n100000 fd00::1 fd00:4::1 %d monitored\n' \
		$SIZE $SIZE > "$DIR/sflows"
	"$FLOWGEN" run "$DIR/sflows" --deadline 60 --out "$DIR/sout.json" || return 1
	local fin ok=0
	fin=$(jq '[.flows[] | select(.finished and .bytes == '$SIZE')] | length' "$DIR/sout.json")
	echo "$fin of 2 flows over the blackholed link finished"
	if [ "$fin" != 2 ]; then
		"$FABRIC" hosts "$SPRITZCTL down --dev eth0" >/dev/null
		return 1
	fi
	if ! nsenter --net=/run/netns/h0-0 "$SPRITZCTL" -j show paths > "$DIR/paths.json" 2>&1; then
		echo "spritzctl show paths failed: $(head -n 1 "$DIR/paths.json")"
		"$FABRIC" hosts "$SPRITZCTL down --dev eth0" >/dev/null
		return 1
	fi
	# EVs of 0 -> 5 and 0 -> 4 whose switch sequence crosses 1 -> 4, and
	# their disable counts in switch 0's table.
	local d evs dis
	for d in 5 4; do
		evs=$("$SPRITZCTL" paths "$TOPO" --switch 0 --dst $d -j |
			jq -c '[.paths[] | select([.switches | range(0; length - 1) as $i |
				.[$i:$i + 2]] | index([[1, 4]]) != null) | .ev]')
		dis=$(jq --argjson d $d --argjson evs "$evs" '[.tables[] | select(.src_switch == 0) |
			.destinations[] | select(.dst == $d) | .paths[] |
			select(.ev as $e | $evs | index($e) != null) | .disables] | add // 0' "$DIR/paths.json")
		echo "0 -> $d: EVs over the blackholed link $evs, disables $dis"
		[ -n "$dis" ] || ok=1
	done
	"$FABRIC" hosts "$SPRITZCTL down --dev eth0" >/dev/null
	[ $ok = 0 ] || { echo "no disable counts in 'spritzctl show paths'"; return 1; }
}

cases=(permutation bad_input stop_tag gen run_schema unfinished spritz_blackhole)
[ $# -gt 0 ] && cases=("$@")
ktap_run_cases "${cases[@]}"
