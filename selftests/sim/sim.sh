#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The ns-3 simulator (sim/, Documentation/sim.rst) on small fabrics, as
# tables of cases; no verdict depends on time.
#
#   walk         every (source, destination, EV) of a fabric through the
#                simulator's switch model (switch_core.h) visits exactly
#                the switches libspritz lists (spritz_ev_route())
#   permutation  a small permutation: every flow finishes under a scheme
#   blackhole    10 % of the links drop data: under a Spritz scheme every
#                flow finishes and paths over failed links are disabled
#                (counters); under ECMP some flow never finishes; with
#                --no-disable timeouts are judged and no path disabled
#   smallflow    the small-flow bias knows a flow by its size: of 1 MiB
#                flows (above small_flow_bytes) only the SYNs are
#                small-flow samples, of 64 KiB flows every sample is (with
#                TCP tolerant of reordering: no loss, so no probe);
#                --trace-flow prints the flow's sends, ACKs, feedback
#   scenarios    sim/run runs every flowgen scenario; results.json counts
#                every flow of flows.txt, per tag too (the paper reports
#                incast and bystanders apart); with --background ecmp or
#                minimal the hosts steer the collective's flows and not
#                the background's, and a fabric of flows all pinned to
#                ECMP or minimal routes runs as that scheme; --hash-seed
#                draws ECMP's paths anew; connections open before time 0
#                (--connect-us); windows stop at 1.5 BDP (--max-cwnd); a
#                flow alone loses and marks nothing (its sender's queue
#                holds its window); four flows into one host make the
#                switch ports mark, and drop only past a full queue; a
#                bad argument exits 2; --report merges runs made apart
#                and refuses runs of other flows, topology or settings;
#                sim/eval writes the tables of the experiments it finds
#
# Usage: selftests/sim/sim.sh walk|permutation|blackhole|smallflow|scenarios
# Skips when the simulator is not built (no libns3-dev).

. "$(dirname "$0")/../lib/lib.sh"

what=${1:?usage: sim.sh walk|permutation|blackhole|smallflow|scenarios}
sim=$SPRITZ_OUT/sim/spritz-sim
flowgen=$SPRITZ_OUT/lab/flowgen
tmp=$(mktemp -d /tmp/spritz-sim.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$sim" ] || [ ! -x "$flowgen" ]; then
	ktap_header 1
	ktap_result "sim $what" 4 "no $sim (needs libns3-dev)"
	ktap_finish
fi

# check_json FILE JQ-EXPR: the expression holds on the results
check_json()
{
	jq -e "$2" "$1" >/dev/null || {
		echo "failed: $2"
		jq -c '.sim, "finished \(.finished)/\(.flows_total)"' "$1"
		return 1
	}
}

# sim_case TOPO FLOWS SCHEME JQ [OPTIONS...]: one run, its results checked
sim_case()
{
	local topo=$1 flows=$2 s=$3 expr=$4 out
	shift 4
	out=$tmp/$s-$RANDOM.json
	"$sim" --topo "$topo" --flows "$flows" --scheme "$s" --out "$out" "$@" &&
		check_json "$out" "$expr"
}

topo=dragonfly:p=1,a=4,h=2
# sim_run_case SCENARIO TAGS [OPTION...]: sim/run of one Spritz scheme on $topo; its
# results.json has every flow of flows.txt, finished (motivational: the
# monitored one; the run ends with it), and with more than one tag a by_tag
# entry per tag holding exactly that tag's flows.
sim_run_case()
{
	local d=$tmp/$1${3:+-opt} want
	OUT=$SPRITZ_OUT "$SPRITZ_TOP/sim/run" --topo "$topo" --scenario "$1" --schemes spray-u \
		--size 65536 --duration-us 50 --deadline-us 200000 --out "$d" "${@:3}" >/dev/null 2>"$d.err" ||
		{ tail -n 3 "$d.err"; return 1; }
	[ "$(awk '!/^#/ { print $5 }' "$d/flows.txt" | sort -u | xargs)" = "$2" ] ||
		{ echo "tags of flows.txt: $(awk '!/^#/ { print $5 }' "$d/flows.txt" | sort -u | xargs)"; return 1; }
	want=$(awk '!/^#/ { n[$5]++ } END { for (t in n) printf "%s %d\n", t, n[t] }' \
		"$d/flows.txt" | sort | jq -Rn '[inputs | split(" ") | {(.[0]): (.[1] | tonumber)}] | add')
	check_json "$d/results.json" ".schemes[\"spray-u\"] as \$r | ($want) as \$w |
		\$r.flows == (\$w | add) and
		(\$r.finished == \$r.flows or \$r.by_tag.monitored.finished == 1) and
		(if (\$w | length) > 1 then (\$r.by_tag | map_values(.flows)) == \$w
		 else \$r.by_tag == null end)"
}

# --members 3: three ring flows, the other hosts' permutation beside them.
members_case()
{
	local n

	sim_run_case allreduce-ring "allreduce-ring background" --members 3 || return 1
	n=$(awk '$5 == "allreduce-ring"' "$tmp/allreduce-ring-opt/flows.txt" | wc -l)
	[ "$n" -eq 3 ] || { echo "ring flows: $n"; return 1; }
}

# --background ecmp|minimal: a ring of 3 under spray-u, its background left
# to the switches' ECMP or minimal routes: no background flow steered by
# its host, every ring flow steered; without the flag every flow is
# steered.  --report refuses to merge runs of another background.
background_case()
{
	local d=$tmp/bg b args opt
	args=(--topo "$topo" --scenario allreduce-ring --members 3 --schemes spray-u
	      --size 65536 --deadline-us 200000)

	for b in scheme ecmp minimal; do
		opt=()
		[ $b = scheme ] || opt=(--background "$b")
		OUT=$SPRITZ_OUT "$SPRITZ_TOP/sim/run" "${args[@]}" "${opt[@]}" --out "$d-$b" \
			>/dev/null 2>"$d.err" || { tail -n 3 "$d.err"; return 1; }
		check_json "$d-$b/results.json" ".background == \"$b\"" || return 1
	done
	check_json "$d-scheme/flows-spray-u.json" '[.flows[] | .steered] | all' || return 1
	for b in ecmp minimal; do
		check_json "$d-$b/flows-spray-u.json" \
			'([.flows[] | select(.tag == "background") | .steered] | any | not) and
			 ([.flows[] | select(.tag == "allreduce-ring") | .steered] | all) and
			 ([.flows[] | select(.tag == "allreduce-ring")] | length == 3) and
			 ([.flows[] | select(.finished | not)] | length == 0)' || return 1
		check_json "$d-$b/run-spray-u-1.json" ".sim.${b}_tag == \"background\"" || return 1
	done
	grep -qF "background flows by minimal routes under every scheme" "$d-minimal/results.md" ||
		{ echo "results.md does not name the minimal background"; return 1; }
	report_refused "$d-ecmp" "background or queues differ" "${args[@]}" --background minimal
}

# perm_sig ARGS...: the permutation's switch packets and per-flow FCTs
# under spritz-sim ARGS (a run's signature, to compare two runs).
perm_sig()
{
	"$sim" --topo "$topo" --flows "$tmp/perm" --deadline-us 200000 "$@" --out /dev/stdout \
		2>/dev/null | jq -c '[.sim.switch_packets, [.flows[].fct_us]]'
}

# --hash-seed 1 against 0: the ECMP paths of the permutation drawn anew
# (other switch packets, other FCTs) under ecmp; under scout, whose
# switches follow the hosts' EVs, the same run; sim/run's run 2 is draw 1.
hash_seed_case()
{
	local s h out=() d=$tmp/hash

	for s in ecmp scout; do
		for h in 0 1; do
			out+=("$(perm_sig --scheme $s --hash-seed $h)")
		done
	done
	[ "${out[0]}" != "${out[1]}" ] || { echo "ecmp: the same run for draws 0 and 1"; return 1; }
	[ "${out[2]}" = "${out[3]}" ] && [ "${out[2]}" != "[null,[]]" ] ||
		{ echo "scout: ${out[2]:0:60} / ${out[3]:0:60}"; return 1; }
	OUT=$SPRITZ_OUT "$SPRITZ_TOP/sim/run" --topo "$topo" --scenario permutation --size 65536 \
		--duration-us 50 --deadline-us 200000 --schemes ecmp --repeat 2 --out "$d" \
		>/dev/null 2>"$d.err" || { tail -n 3 "$d.err"; return 1; }
	check_json "$d/run-ecmp-1.json" '.sim.hash_seed == 0' &&
		check_json "$d/run-ecmp-2.json" '.sim.hash_seed == 1'
}

# The motivational scenario, two schemes, two runs each: monitored.dat has
# a row per scheme, its median the monitored FCT of results.json, its
# range that of the flows files; fct-bars.dat a row per scheme, one of
# its runs' mean FCTs (the lower median of two) around the mean of all
# its flows; the plots are made where gnuplot is.
plots_case()
{
	local d=$tmp/plots s bad=0

	OUT=$SPRITZ_OUT "$SPRITZ_TOP/sim/run" --topo "$topo" --scenario motivational \
		--schemes ecmp,scout --repeat 2 --size 65536 --out "$d" >/dev/null 2>"$d.err" ||
		{ tail -n 3 "$d.err"; return 1; }
	[ "$(awk '{ print $1 }' "$d/monitored.dat" | xargs)" = "ecmp scout" ] &&
		[ "$(awk '{ print $1 }' "$d/fct-bars.dat" | xargs)" = "ecmp scout" ] ||
		{ echo "rows:"; cat "$d/monitored.dat" "$d/fct-bars.dat"; return 1; }
	for s in ecmp scout; do
		jq -e --argjson m "$(awk -v s=$s '$1 == s { printf "[%s, %s, %s]", $2, $3, $4 }' \
				"$d/monitored.dat")" \
			--argjson b "$(awk -v s=$s '$1 == s { printf "[%s, %s, %s]", $2, $3, $4 }' \
				"$d/fct-bars.dat")" \
			--slurpfile f "$d/flows-$s.json" \
			'([$f[0].flows[] | select(.tag == "monitored") | .fct_us] | [min, max]) as $r |
			 .schemes["'$s'"] as $S |
			 $S.monitored_fct_us == $m[0] and $r == $m[1:] and
			 $b[0] == $b[1] and $b[1] <= $b[2] and
			 $b[1] <= $S.fct_us.mean + 1 and $S.fct_us.mean <= $b[2]' \
			"$d/results.json" >/dev/null ||
			{ echo "$s: monitored / bars rows do not match results.json"; bad=1; }
	done
	if command -v gnuplot >/dev/null; then
		[ -s "$d/monitored.png" ] && [ -s "$d/fct-bars.png" ] && [ -s "$d/fct.png" ] ||
			{ echo "no plots"; bad=1; }
	fi
	return $bad
}

# pinned_case SCHEME TAG-OPTION AS: every flow of the permutation pinned by
# TAG-OPTION under SCHEME runs as the scheme AS: the same FCT per flow and
# the same packets through the switches.
pinned_case()
{
	local a b

	a=$(perm_sig --scheme "$1" "$2" permutation) || return 1
	b=$(perm_sig --scheme "$3") || return 1
	[ "$a" = "$b" ] && [ "$a" != "[null,[]]" ] ||
		{ echo "$1 $2: ${a:0:80}"; echo "$3: ${b:0:80}"; return 1; }
}

# --trace-flow 0 of a 64 KiB permutation under Scout, without loss: flow
# 0's SYN and 16 data segments of 4 KiB, its ACKs, an ACK outcome (kind 0)
# for each segment acknowledged before the run ends (at the last byte's
# arrival: the last ACKs may be on their way), its window, and nothing of
# the other flows.
trace_case()
{
	"$sim" --topo "$topo" --flows "$tmp/flows.65536" --scheme scout --trace-flow 0 \
		--dupthresh 44 --deadline-us 100000 --out "$tmp/trace.json" 2>"$tmp/trace" ||
		return 1
	awk '$1 == "trace" { n[$3]++; if ($3 == "send") bytes += $7
			     if ($3 == "fb" && $5 != 0) bad++ }
	     END { printf "sends %d (%d bytes) acks %d fb %d (%d not ACK) cwnd %d\n",
		   n["send"], bytes, n["ack"], n["fb"], bad, n["cwnd"]
		   exit !(bytes == 65536 && n["send"] == 17 && n["ack"] >= 8 &&
			  n["fb"] >= 8 && n["fb"] <= 16 && !bad && n["cwnd"] >= 1) }' \
		"$tmp/trace" | sed 's/^/# /'
	[ "${PIPESTATUS[0]}" -eq 0 ]
}

# --connect-us C: flow 0's SYN C us before time 0, its first data at its
# start (0); with 0 the SYN at its start and the data a handshake later.
connect_case()
{
	local c got

	for c in 20 0; do
		"$sim" --topo "$topo" --flows "$tmp/perm" --scheme scout --trace-flow 0 \
			--connect-us $c --deadline-us 100000 --out "$tmp/c$c.json" 2>"$tmp/c$c" ||
			return 1
		got=$(awk '$3 == "send" && $7 == 0 && !syn { syn = $2 }
			   $3 == "send" && $7 > 0 && !data { data = $2 }
			   END { print syn, data }' "$tmp/c$c")
		echo "# --connect-us $c: SYN at, first data at (us): $got"
		# data within 0.1 us of time 0 (the hook sees it as the socket sends it)
		awk -v g="$got" -v c=$c 'BEGIN { split(g, t, " ")
			if (c) exit !(t[1] + 0 == -20 && t[2] >= 0 && t[2] < 0.1)
			exit !(t[1] + 0 == 0 && t[2] >= 1) }' || return 1
		check_json "$tmp/c$c.json" '.finished == .flows_total' || return 1
	done
}

# The window of flow 0 (64 KiB, in slow start all along) once each ACK is
# processed: at most the initial 132 packets (1.5 BDP of the Dragonfly's
# 88) by default, past it with --max-cwnd 0.
max_cwnd_case()
{
	local m max opt

	for m in default 0; do
		opt=()
		[ $m = default ] || opt=(--max-cwnd "$m")
		"$sim" --topo "$topo" --flows "$tmp/perm" --scheme scout --trace-flow 0 \
			"${opt[@]}" --deadline-us 100000 --out "$tmp/m$m.json" 2>"$tmp/m$m" ||
			return 1
		# the last window of each instant (the cap applies after the increase)
		max=$(awk '$3 == "cwnd" { last[$2] = $4 }
			   END { for (t in last) if (last[t] > m) m = last[t]; print m + 0 }' "$tmp/m$m")
		echo "# --max-cwnd $m: largest window $max packets"
		case $m in
		default) [ "$max" -eq 132 ] || return 1 ;;
		0) [ "$max" -gt 132 ] || return 1 ;;
		esac
	done
}

# sim/run --dupthresh 44 --rto-us 200 --no-disable: results.json's timers
# and no_disable and the results.md header say so; a run with sim/run's
# defaults says 3, 0.1 ms and false.
timers_case()
{
	local d=$tmp/timers

	OUT=$SPRITZ_OUT "$SPRITZ_TOP/sim/run" --topo "$topo" --scenario permutation \
		--schemes minimal --size 65536 --deadline-us 200000 --dupthresh 44 --rto-us 200 \
		--no-disable --out "$d" >/dev/null 2>"$d.err" || { tail -n 3 "$d.err"; return 1; }
	check_json "$d/results.json" '.timers == {setting: "sim", rto_min_ms: 0.2, dupthresh: 44} and
		.no_disable == true' || return 1
	grep -qF "minimum RTO 200 us, duplicate-ACK threshold 44," "$d/results.md" &&
		grep -qF "no path disabled (--no-disable)" "$d/results.md" ||
		{ echo "results.md lacks the timers or --no-disable"; return 1; }
	check_json "$tmp/permutation/results.json" '.timers.dupthresh == 3 and
		.timers.rto_min_ms == 0.1 and .no_disable == false'
}

# sim/run --report: the permutation's spray-u run (sim_run_case) and a
# minimal run made apart, merged into one directory, give one results.json
# with each scheme's figures as its own run gave them; the flows of
# another seed, a run of another topology, other TCP settings, another
# queue size, another ECMP hash draw or no run at all exit 1 and leave
# the directory as it was.
report_case()
{
	local d=$tmp/report m=$tmp/report-minimal args
	args=(--topo "$topo" --scenario permutation --size 65536 --duration-us 50
	      --deadline-us 200000)

	OUT=$SPRITZ_OUT "$SPRITZ_TOP/sim/run" "${args[@]}" --schemes minimal --out "$m" \
		>/dev/null 2>"$m.err" || { tail -n 3 "$m.err"; return 1; }
	cp -r "$tmp/permutation" "$d"
	rm "$d/results.json"
	cp "$m/run-minimal-1.json" "$d/"
	OUT=$SPRITZ_OUT "$SPRITZ_TOP/sim/run" "${args[@]}" --schemes spray-u,minimal --report \
		--out "$d" >/dev/null 2>"$d.err" || { tail -n 3 "$d.err"; return 1; }
	jq -e --slurpfile a "$tmp/permutation/results.json" --slurpfile b "$m/results.json" \
		'.schemes == ($a[0].schemes + $b[0].schemes) and
		 (.schemes | keys) == ["minimal", "spray-u"]' "$d/results.json" >/dev/null ||
		{ echo "merged results differ from the runs'"; return 1; }
	grep -q '^| minimal |' "$d/results.md" && grep -q '^| spray-u |' "$d/results.md" ||
		{ echo "results.md lacks a scheme"; return 1; }
	report_refused "$d" "its flows.txt is not the flow list" "${args[@]}" --seed 2 \
		--schemes minimal || return 1
	report_refused "$d" "TCP settings, background or queues differ" "${args[@]}" --schemes minimal \
		--dupthresh 44 || return 1
	report_refused "$d" "no run of ecmp there" "${args[@]}" --schemes ecmp || return 1
	report_refused "$d" "or queues differ" "${args[@]}" --schemes minimal --queue-pkts 12 ||
		return 1
	OUT=$SPRITZ_OUT "$SPRITZ_TOP/sim/run" "${args[@]}" --report --out "$tmp/nosuch" \
		2>/dev/null
	[ $? -eq 1 ] && [ ! -e "$tmp/nosuch" ] || { echo "--report of no directory"; return 1; }
	jq '.sim.hash_seed = 1' "$m/run-minimal-1.json" > "$d/run-minimal-1.json"
	report_refused "$d" "run-minimal-1.json is not of ECMP hash draw 0" "${args[@]}" \
		--schemes minimal || return 1
	jq '.sim.topo = "dragonfly:p=1,a=4,h=3"' "$m/run-minimal-1.json" > "$d/run-minimal-1.json"
	report_refused "$d" "a run of minimal is not of $topo and minimal" "${args[@]}" \
		--schemes minimal
}

# report_refused DIR MESSAGE ARGS...: sim/run --report ARGS exits 1 saying
# MESSAGE and changes nothing in DIR.
report_refused()
{
	local d=$1 msg=$2 before rc=0
	shift 2
	before=$(cd "$d" && find . -type f -exec md5sum {} + | sort)
	OUT=$SPRITZ_OUT "$SPRITZ_TOP/sim/run" "$@" --report --out "$d" >/dev/null 2>"$d.err" ||
		rc=$?
	[ $rc -eq 1 ] && grep -qF "$msg" "$d.err" ||
		{ echo "--report $*: not refused with \"$msg\":"; cat "$d.err"; return 1; }
	[ "$(cd "$d" && find . -type f -exec md5sum {} + | sort)" = "$before" ] ||
		{ echo "--report $*: the directory changed"; return 1; }
}

# sim/eval --doc-only over an eval directory holding one small adversarial
# experiment (Scout and ECMP) with TCP's duplicate-ACK threshold 3 and 44:
# the hand-written part of the document is kept, the generated part has
# a table and ratio line per threshold, and "not run" for every
# experiment it lacks; run again without the threshold-44 results, it
# keeps that section as the document had it; with Scout's results alone,
# its ratio line says there is no other scheme; with results it cannot
# read, it fails and leaves the document as it was.
eval_doc_case()
{
	local o=$tmp/evalout doc=$tmp/eval.rst dt

	for dt in 3 44; do
		OUT=$SPRITZ_OUT "$SPRITZ_TOP/sim/run" --topo "$topo" --scenario adversarial \
			--schemes ecmp,scout --size 65536 --deadline-us 200000 --dupthresh $dt \
			--out "$o/eval/adversarial-df$([ $dt = 3 ] || echo -dt$dt)" \
			>/dev/null 2>"$tmp/eval.err" || { tail -n 3 "$tmp/eval.err"; return 1; }
	done
	printf '%s\n' "Kept" "" ".. generated by sim/eval: everything below is rewritten by make eval" \
		"" "Replaced" > "$doc"
	OUT=$o EVAL_DOC=$doc "$SPRITZ_TOP/sim/eval" --doc-only 2>/dev/null || return 1
	local want=("Kept" "Adversarial pattern (every host of group g to its counterpart in group"
		"$topo, TCP's duplicate-ACK threshold 3 (FCT" "$topo, TCP's duplicate-ACK threshold 44 (FCT"
		"   * - scout" "   * - ecmp" "Best other scheme, ecmp,"
		"Motivational with duplicate-ACK threshold 3: not run."
		"Motivational with duplicate-ACK threshold 44: not run."
		"Failures on dragonfly: not run." "Failures on slimfly: not run."
		"Fault-free permutation (receivers outside the sender's group): not run."
		"Incast + bystanders: not run.") w
	for w in "${want[@]}"; do
		grep -qF -- "$w" "$doc" || { echo "missing: $w"; return 1; }
	done
	[ "$(grep -c "^Best other scheme, ecmp," "$doc")" -eq 2 ] || { echo "not two ratio lines"; return 1; }
	! grep -q "^Replaced" "$doc" || { echo "the generated part was kept"; return 1; }
	cp "$doc" "$doc.first"
	rm -r "$o/eval/adversarial-df-dt44"
	OUT=$o EVAL_DOC=$doc "$SPRITZ_TOP/sim/eval" --doc-only 2>/dev/null || return 1
	cmp -s "$doc" "$doc.first" || { echo "the section without results was not kept"; return 1; }
	local r=$o/eval/adversarial-df/results.json
	jq 'del(.schemes.ecmp)' "$r" > "$r.scout" && mv "$r.scout" "$r" || return 1
	OUT=$o EVAL_DOC=$doc "$SPRITZ_TOP/sim/eval" --doc-only 2>/dev/null ||
		{ echo "results of a Spritz scheme alone did not make a table"; return 1; }
	grep -q "^No ratio: no other scheme with a figure" "$doc" &&
		[ "$(grep -c "^Best other scheme, ecmp," "$doc")" -eq 1 ] ||
		{ echo "results of a Spritz scheme alone: no \"No ratio\" line"; return 1; }
	cp "$doc" "$doc.first"
	echo '{' > "$r"
	! OUT=$o EVAL_DOC=$doc "$SPRITZ_TOP/sim/eval" --doc-only 2>/dev/null ||
		{ echo "a table that could not be made did not fail"; return 1; }
	cmp -s "$doc" "$doc.first" || { echo "a failed rewrite changed the document"; return 1; }
}

case $what in
walk)
	# TOPO (the fabrics the BPF switch's test walks too)
	cases=$'dragonfly:p=2,a=4,h=2\nslimfly:q=5'
	ktap_header "$(wc -l <<< "$cases")"
	while read -r t; do
		run_test "walk $t" "$sim" --topo "$t" --walk
	done <<< "$cases"
	;;
permutation)
	"$flowgen" gen "$topo" --scenario permutation --size 131072 --seed 1 > "$tmp/flows" ||
		exit 1
	schemes=(ecmp minimal valiant ugal-l ops-u ops-w flicr scout spray-u spray-w)
	ktap_header ${#schemes[@]}
	for s in "${schemes[@]}"; do
		run_test "permutation $s: every flow finishes" \
			sim_case "$topo" "$tmp/flows" "$s" '.finished == .flows_total' \
			--deadline-us 100000
	done
	;;
blackhole)
	"$flowgen" gen "$topo" --scenario permutation --size 131072 --seed 1 > "$tmp/flows" ||
		exit 1
	# SCHEME <TAB> option (- for none) <TAB> expected results (seed 1
	# fails 9 of the 90 links; --no-disable: timeouts judged, no path
	# disabled; --min-enabled-pct=100: the tables' floor keeps every path,
	# each disable counted as kept; Scout's flows, small, start on their minimal paths, and
	# disable those that cross a failed link)
	cases=$(cat <<-'CASES'
	scout	-	.sim.failed_links == 9 and .finished == .flows_total and .sim.disabled_failed > 0 and .sim.blackhole_drops > 0 and .sim.disabled_minimal > 0 and .sim.disabled_minimal <= .sim.disabled_failed + .sim.disabled_other
	spray-u	-	.sim.failed_links == 9 and .finished == .flows_total and .sim.disabled_failed > 0 and .sim.blackhole_drops > 0
	ecmp	-	.sim.failed_links == 9 and .finished < .flows_total and .sim.path_disables == 0 and .sim.blackhole_drops > 0
	spray-u	--no-disable	.sim.no_disable and .sim.fb_timeout > 0 and .sim.path_disables == 0 and .sim.disabled_failed == 0
	spray-u	--min-enabled-pct=100	.sim.fb_timeout > 0 and .sim.path_disables == 0 and .sim.path_disable_kept > 0 and .sim.disabled_failed == 0
	CASES
	)
	# 1 MiB flows make more than one TIMEOUT each: host-wide disables
	# bounded per flow (flow_disables 1: the rest withheld, every flow
	# still finishes), per peer (peer_disables 1; one flow per peer), or
	# not (0); the permutation three times over (three flows per peer,
	# none past its own 4) shares the peer's 4
	"$flowgen" gen "$topo" --scenario permutation --size 1048576 --seed 1 > "$tmp/flows-1m" ||
		exit 1
	cat "$tmp/flows-1m" "$tmp/flows-1m" "$tmp/flows-1m" > "$tmp/flows-1m-x3"
	# FLOWS <TAB> SCHEME <TAB> options <TAB> expected results
	bounded=$(cat <<-'CASES'
	flows-1m	spray-u	--flow-disables=1 --peer-disables=0	.finished == .flows_total and .sim.path_disable_withheld > 0 and .sim.path_disable_peer_withheld == 0 and .sim.path_disables > 0
	flows-1m	spray-u	--flow-disables=0 --peer-disables=1	.finished == .flows_total and .sim.path_disable_withheld == 0 and .sim.path_disable_peer_withheld > 0 and .sim.path_disables > 0
	flows-1m	spray-u	--flow-disables=0 --peer-disables=0	.finished == .flows_total and .sim.path_disable_withheld == 0 and .sim.path_disable_peer_withheld == 0 and .sim.path_disables > 0
	flows-1m-x3	spray-u	--flow-disables=4 --peer-disables=4	.finished == .flows_total and .sim.path_disable_withheld == 0 and .sim.path_disable_peer_withheld > 0 and .sim.path_disables > 0
	flows-1m-x3	spray-u	--flow-disables=4 --peer-disables=0	.finished == .flows_total and .sim.path_disable_withheld == 0 and .sim.path_disable_peer_withheld == 0 and .sim.path_disables > 0
	CASES
	)
	while IFS=$'\t' read -r s opt expr; do
		extra=()
		[ "$opt" = - ] || extra=("$opt")
		run_test "blackhole $s $opt: $expr" sim_case "$topo" "$tmp/flows" "$s" "$expr" \
			--fail-links 0.1 --seed 1 --deadline-us 20000 "${extra[@]}"
	done <<< "$cases"
	while IFS=$'\t' read -r fl s opt expr; do
		read -ra extra <<< "$opt"
		run_test "blackhole $fl $s $opt: $expr" sim_case "$topo" "$tmp/$fl" "$s" \
			"$expr" --fail-links 0.1 --seed 1 --deadline-us 100000 "${extra[@]}"
	done <<< "$bounded"
	;;
smallflow)
	# SIZE <TAB> SCHEME <TAB> DUPTHRESH <TAB> expected results (36 flows;
	# small_flow_bytes is 512 KiB)
	cases=$(cat <<-'CASES'
	1048576	scout	3	.finished == .flows_total and .sim.pick_small_flow == .flows_total
	1048576	spray-w	3	.finished == .flows_total and .sim.pick_small_flow == .flows_total
	65536	scout	44	.finished == .flows_total and .sim.pick_small_flow == .sim.picks and .sim.retrans == 0
	65536	ops-w	44	.finished == .flows_total and .sim.pick_small_flow == .sim.picks and .sim.retrans == 0
	1048576	spray-u	3	.finished == .flows_total and .sim.pick_small_flow == 0
	CASES
	)
	ktap_header "$(($(wc -l <<< "$cases") + 1))"
	while IFS=$'\t' read -r size s dt expr; do
		[ -f "$tmp/flows.$size" ] ||
			"$flowgen" gen "$topo" --scenario permutation --size "$size" --seed 1 \
				> "$tmp/flows.$size" || exit 1
		run_test "$size-byte flows, $s, dupthresh $dt: $expr" sim_case "$topo" \
			"$tmp/flows.$size" "$s" "$expr" --dupthresh "$dt" --deadline-us 100000
	done <<< "$cases"
	run_test "--trace-flow 0: its sends, ACKs, feedback and window" trace_case
	;;
scenarios)
	# SCENARIO <TAB> tags of its flows
	cases=$(cat <<-'CASES'
	motivational	background monitored
	permutation	permutation
	adversarial	adversarial
	incast	bystander incast
	allreduce-ring	allreduce-ring background
	allreduce-butterfly	allreduce-butterfly background
	alltoall	alltoall background
	websearch	websearch
	CASES
	)
	"$flowgen" gen "$topo" --scenario permutation --size 65536 --seed 1 > "$tmp/perm" || exit 1
	ktap_header "$(($(wc -l <<< "$cases") + 29))"
	while IFS=$'\t' read -r sc tags; do
		run_test "sim/run $sc: every flow and tag counted" sim_run_case "$sc" "$tags"
	done <<< "$cases"
	run_test "sim/run allreduce-ring --members 3: a ring of 3" members_case
	run_test "sim/run --background: the background by ECMP or minimal routes, the ring steered" \
		background_case
	run_test "sim/run permutation --background ecmp: exit 2" expect 2 \
		"failed to use --background ecmp: permutation has no background flows" \
		env OUT="$SPRITZ_OUT" "$SPRITZ_TOP/sim/run" --topo "$topo" --scenario permutation \
		--background ecmp --out "$tmp/x"
	run_test "sim/run --background valiant: exit 2" expect 2 \
		"failed to parse --background valiant: not ecmp or minimal" \
		env OUT="$SPRITZ_OUT" "$SPRITZ_TOP/sim/run" --topo "$topo" --scenario motivational \
		--background valiant --out "$tmp/x"
	run_test "spritz-sim --minimal-tag: every flow pinned under valiant runs as minimal" \
		pinned_case valiant --minimal-tag minimal
	run_test "spritz-sim --ecmp-tag: every flow pinned under scout runs as ecmp" \
		pinned_case scout --ecmp-tag ecmp
	run_test "spritz-sim --hash-seed: ECMP's paths drawn anew, the EVs' kept" hash_seed_case
	run_test "spritz-sim --connect-us: handshakes before time 0" connect_case
	run_test "spritz-sim --max-cwnd: the paper's maximum window, or none" max_cwnd_case
	echo "0 fd00::1 fd00:16::1 4194304 solo" > "$tmp/solo"
	# (Scout sprays its first window over paths of unequal length: with
	# TCP tolerant of reordering, so that no segment is taken for lost)
	for s in minimal scout; do
		run_test "spritz-sim: a 4 MiB flow alone, $s: no drop, no mark, no retransmission" \
			sim_case "$topo" "$tmp/solo" $s \
			'.finished == 1 and .sim.queue_drops == 0 and .sim.ecn_marks == 0 and
			 .flows[0].retransmits == 0' --deadline-us 100000 --dupthresh 44
	done
	# four senders of one group to one host, minimal routes: the shared
	# links' queues mark; a one-BDP queue also drops the four initial
	# windows' excess, a queue larger than every flow does not
	printf '0 fd00:%s::1 fd00:16::1 1048576 incast\n' 0 1 2 3 > "$tmp/incast4"
	run_test "spritz-sim: 4 to 1, one-BDP queues: marks and drops, every flow finishes" \
		sim_case "$topo" "$tmp/incast4" minimal \
		'.finished == 4 and .sim.ecn_marks > 0 and .sim.queue_drops > 0' \
		--deadline-us 100000
	run_test "spritz-sim: 4 to 1, queues of 2000 packets: marks, no drop" \
		sim_case "$topo" "$tmp/incast4" minimal \
		'.finished == 4 and .sim.ecn_marks > 0 and .sim.queue_drops == 0 and
		 ([.flows[].retransmits] | add) == 0' --deadline-us 100000 --queue-pkts 2000
	run_test "spritz-sim --ecmp-tag of no flow: exit 1" expect 1 \
		"failed to use --ecmp-tag nosuch: no flow has it" \
		"$sim" --topo "$topo" --flows "$tmp/perm" --scheme scout --ecmp-tag nosuch
	run_test "spritz-sim --minimal-tag of no flow: exit 1" expect 1 \
		"failed to use --minimal-tag nosuch: no flow has it" \
		"$sim" --topo "$topo" --flows "$tmp/perm" --scheme scout --minimal-tag nosuch
	run_test "spritz-sim --flow-disables 256: exit 1" expect 1 \
		"failed to parse --flow-disables 256: not a number from 0 to 255" \
		"$sim" --topo "$topo" --flows "$tmp/perm" --scheme scout --flow-disables 256
	run_test "spritz-sim --peer-disables -1: exit 1" expect 1 \
		"failed to parse --peer-disables -1: not a number from 0 to 255" \
		"$sim" --topo "$topo" --flows "$tmp/perm" --scheme scout --peer-disables -1
	run_test "spritz-sim --minimal-tag as the --ecmp-tag: exit 1" expect 1 \
		"failed to use --minimal-tag permutation: it is the --ecmp-tag" \
		"$sim" --topo "$topo" --flows "$tmp/perm" --scheme scout --ecmp-tag permutation \
		--minimal-tag permutation
	run_test "sim/run --members 1: exit 2" expect 2 \
		"failed to parse --members 1: not a number of hosts, at least 2" \
		env OUT="$SPRITZ_OUT" "$SPRITZ_TOP/sim/run" --topo "$topo" --scenario alltoall \
		--members 1 --out "$tmp/x"
	run_test "sim/run --members past the hosts: flowgen's error, exit 1" expect 1 \
		"failed to generate alltoall: 100 members of" \
		env OUT="$SPRITZ_OUT" "$SPRITZ_TOP/sim/run" --topo "$topo" --scenario alltoall \
		--members 100 --out "$tmp/x"
	run_test "sim/run --scenario bogus: exit 2" expect 2 \
		"failed to parse --scenario bogus: not motivational, permutation" \
		env OUT="$SPRITZ_OUT" "$SPRITZ_TOP/sim/run" --topo "$topo" --scenario bogus --out "$tmp/x"
	run_test "sim/eval --doc-only: one experiment's tables, the others not run, kept when gone" eval_doc_case
	run_test "sim/eval --only bogus: exit 2" expect 2 \
		"failed to parse --only bogus: not motivational, failures, adversarial" \
		"$SPRITZ_TOP/sim/eval" --only bogus
	run_test "sim/eval --dupthresh 0: exit 2" expect 2 \
		"failed to parse --dupthresh 0: not a positive number" \
		"$SPRITZ_TOP/sim/eval" --only permutation --dupthresh 0
	run_test "sim/eval --dupthresh 44 without --only: exit 2" expect 2 \
		"failed to use --dupthresh 44: only with --only adversarial, permutation or incast" \
		"$SPRITZ_TOP/sim/eval" --dupthresh 44
	run_test "sim/run --dupthresh, --rto-us, --no-disable: in results.json and results.md" \
		timers_case
	run_test "sim/run --report: runs made apart, one results.json; bad input refused" \
		report_case
	run_test "sim/run motivational: monitored and mean-FCT bars of the runs" plots_case
	run_test "sim/run --duration-us past the deadline: exit 2" expect 2 \
		"failed to parse --duration-us 2000: not a number of microseconds below the deadline" \
		env OUT="$SPRITZ_OUT" "$SPRITZ_TOP/sim/run" --topo "$topo" --scenario websearch \
		--deadline-us 1000 --duration-us 2000 --out "$tmp/x"
	;;
*)
	echo "usage: sim.sh walk|permutation|blackhole|smallflow|scenarios" >&2
	exit 2
	;;
esac
ktap_finish
