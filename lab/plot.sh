#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The plots of a results directory, from its flows-SCHEME.json (the flows
# of every run of a scheme, lab/results.jq's schema), for lab/run and
# sim/run alike.  Sourced; the caller defines say() and top (the tree).
# Each plot's data is written whether or not gnuplot is there:
#
#   plot_cdf DIR TITLE UNIT SCHEMES        cdf-SCHEME.dat, fct.png: each
#                                          scheme's FCT CDF
#   plot_fct_bars DIR TITLE UNIT SCHEMES   fct-bars.dat and .png: the
#                                          median and range of each
#                                          scheme's runs' mean FCTs
#   plot_monitored DIR TITLE UNIT SCHEMES  monitored.dat and .png: the
#                                          monitored flow's median and
#                                          range over the runs
#   plot_bars PNG TITLE UNIT ROWS NAMES    a bar per name with its range
#   plot_written DIR                       ", DIR/X.png" for each plot made
#
# Each removes its plot first: a plot left from an earlier report would
# pass for this one's.
# UNIT is the axis unit, us, ms or s (FCTs are in microseconds); SCHEMES
# a comma-separated list, the schemes without a flows file left out; an
# unfinished flow counts with its time up to its run's deadline
# (results.jq's fct).

# jq with results.jq: plot_jq OPTIONS... "$PLOT_JQ"'FILTER' FILES...
plot_jq() { jq -L "${top:?}/lab" "$@"; }
PLOT_JQ='include "results"; '

# Microseconds per UNIT.
plot_div()
{
	case $1 in
	us) echo 1 ;;
	ms) echo 1000 ;;
	s) echo 1000000 ;;
	*) say "plot: unknown unit $1"; return 1 ;;
	esac
}

plot_cdf()
{
	local dir=$1 title=$2 unit=$3 div s plot=()
	div=$(plot_div "$unit") || return 1
	rm -f "$dir/fct.png" "$dir"/cdf-*.dat
	for s in ${4//,/ }; do
		[ -f "$dir/flows-$s.json" ] || continue
		plot_jq -r --argjson div "$div" "$PLOT_JQ"'.deadline_us as $d | [.flows[] | fct($d)] |
			sort | length as $n | "\(.[0] / $div) 0",
			(to_entries[] | "\(.value / $div) \((.key + 1) / $n)")' "$dir/flows-$s.json" \
			> "$dir/cdf-$s.dat"
		plot+=("'$dir/cdf-$s.dat' using 1:2 with steps lw 2 title '$s'")
	done
	[ ${#plot[@]} -gt 0 ] || { say "no flows: $dir/fct.png not written"; return 0; }
	command -v gnuplot >/dev/null || { say "no gnuplot: $dir/fct.png not written"; return 0; }
	(IFS=,; gnuplot <<-EOF
		set terminal pngcairo size 900,560
		set output '$dir/fct.png'
		set title "$title"
		set xlabel 'flow completion time [$unit]'
		set ylabel 'fraction of flows'
		set logscale x
		set key bottom right
		set yrange [0:1]
		set grid
		plot ${plot[*]}
	EOF
	) || say "gnuplot failed: $dir/fct.png not written"
}

# plot_stat_bars PNG TITLE UNIT DIR SCHEMES FILTER: a bar per scheme, the
# median and range of FILTER's numbers (us), an array made from its flows
# file with $d its deadline.
plot_stat_bars()
{
	local s rows='' names=''
	for s in ${5//,/ }; do
		[ -f "$4/flows-$s.json" ] || continue
		rows+=$(plot_jq -r "$PLOT_JQ"'.deadline_us as $d | '"$6"' |
			"\(pct(0.5)) \(min) \(max)"' "$4/flows-$s.json")$'\n'
		names+=$s$'\n'
	done
	plot_bars "$1" "$2" "$3" "${rows%$'\n'}" "${names%$'\n'}"
}

plot_fct_bars()
{
	plot_stat_bars "$1/fct-bars.png" "$2" "$3" "$1" "$4" \
		'[.flows | group_by(.run)[] | [.[] | fct($d)] | add / length]'
}

plot_monitored()
{
	plot_stat_bars "$1/monitored.png" "$2" "$3" "$1" "$4" \
		'[.flows[] | select(.tag == "monitored") | fct($d)]'
}

plot_bars()
{
	local png=$1 dat=${1%.png}.dat div
	div=$(plot_div "$3") || return 1
	rm -f "$png" "$dat"
	[ -n "$5" ] || { say "no flows: $png not written"; return 0; }
	paste -d' ' <(echo "$5") <(echo "$4") |
		awk -v div="$div" '{ printf "%s %.3f %.3f %.3f\n", $1, $2 / div, $3 / div, $4 / div }' \
		> "$dat"
	command -v gnuplot >/dev/null || { say "no gnuplot: $png not written"; return 0; }
	gnuplot <<-EOF || say "gnuplot failed: $png not written"
		set terminal pngcairo size 900,560
		set output '$png'
		set title "$2"
		set ylabel 'FCT [$3]'
		set style data histograms
		set style histogram errorbars gap 2 lw 2
		set style fill solid 0.6 border -1
		set yrange [0:*]
		set grid ytics
		set xtics rotate by -30
		plot '$dat' using 2:3:4:xtic(1) notitle
	EOF
}

plot_written()
{
	local p
	for p in fct fct-bars monitored; do
		[ ! -f "$1/$p.png" ] || printf ', %s' "$1/$p.png"
	done
}
