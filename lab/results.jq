# SPDX-License-Identifier: GPL-2.0-only
#
# The FCT statistics of results.json, shared by lab/run and sim/run (one
# schema, Documentation/lab.rst "Results"): jq -L lab 'include "results"; ...'.
# A flow is {start_us, finished, fct_us, retransmits, tag, run,
# run_deadline_us?} as flowgen and the simulator write it.

# A flow's FCT; an unfinished one counts with its time from start to the
# end of its run (its run's deadline, else $d).
def fct($d): if .finished then .fct_us
	else [(.run_deadline_us // $d) - .start_us, 0] | max end;

# The $q quantile of an array of numbers (nearest rank).
def pct($q): length as $n | sort | .[((($q * $n) | ceil) - 1) | if . < 0 then 0 else . end];

# Counts and FCT of an array of flows.
def fctstats($d): [.[] | fct($d)] as $c |
	{flows: length, finished: ([.[] | select(.finished)] | length),
	 fct_us: {mean: (($c | add) / ($c | length) | floor), p50: ($c | pct(0.5)),
		  p99: ($c | pct(0.99)), max: ($c | max)},
	 retransmits: ([.[].retransmits] | add)};

# One tag's flows: fctstats, and when the last of them ended (a
# collective's completion), median over the runs.
def tagstats($d): fctstats($d) +
	{completion_us: ([group_by(.run)[] | map(.start_us + fct($d)) | max] | pct(0.5))};

# {by_tag: {TAG: tagstats}} for flows of more than one tag, else {}.
def bytag($d): group_by(.tag) | if length > 1 then
	{by_tag: (map({(.[0].tag): tagstats($d)}) | add)} else {} end;

# results.md's per-tag table of a results.json, after an empty line; nothing
# when no scheme has by_tag.
def tag_table: if [.schemes[].by_tag] | any then
	"", "Per tag (the paper reports incast and bystanders apart; a collective's " +
	"completion is its last flow's end, median over the runs):", "",
	"| scheme | tag | flows | finished | mean | p50 | p99 | max | retransmits | completion |",
	"| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
	(.schemes | to_entries[] | .key as $s | (.value.by_tag // {}) | to_entries[] |
	 .value as $v | "| \($s) | \(.key) | \($v.flows) | \($v.finished) | " +
	 "\($v.fct_us.mean) | \($v.fct_us.p50) | \($v.fct_us.p99) | \($v.fct_us.max) | " +
	 "\($v.retransmits) | \($v.completion_us) |")
	else empty end;
