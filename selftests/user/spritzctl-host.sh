#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# spritzctl's host commands (topo, paths, memory, help, version): the ones
# that need no module, root or network.  A table of cases: arguments, the
# exit code, and a pattern the output must match (stdout of a success,
# stderr of a failure, whose first line must read "spritzctl: failed to
# ...").  Run with $OUT/spritzctl and with the ASan+UBSan build
# $OUT/asan/spritzctl; every command goes through selftests/lib/sanitized,
# so a sanitizer report fails its case.
#
# Usage: selftests/user/spritzctl-host.sh SPRITZCTL

. "$(dirname "$0")/../lib/lib.sh"

ctl=${1:?usage: spritzctl-host.sh SPRITZCTL}
fab=selftests/user/fabrics
tmp=$(mktemp -d /tmp/spritzctl-host.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$SPRITZ_TOP" || exit 1
printf 'switches 3\n' > "$tmp/linkless.fabric"
printf 'switches 3\nlink 0 1 local latency=1000000\nlink 0 2 local latency=2500000\nlink 2 1 local latency=2500000\n' \
	> "$tmp/long.fabric"

# EXIT <TAB> PATTERN <TAB> ARGS (split on blanks).  8000000025.0 ns is
# 25 ns of local cable plus 10^6 B serialized at 1 Mb/s (8 s); in
# long.fabric the 2 x 2.5 ms path is the longest (weight 1.0), not the
# 1 ms direct link.
cases=$(cat <<CASES
0	^switches   36$	topo dragonfly:p=2,a=4,h=2
0	"switches":50	topo slimfly:q=5 -j
0	^switches   5$	topo file:$fab/tiny.fabric
0	"speed_gbps":1000000.0	topo dragonfly:a=4,h=2 --speed 1000000 -j
0	\(400 Gb/s, 4160 B packets\)$	topo dragonfly:a=4,h=2
0	\(0.001 Gb/s, 4160 B packets\)$	topo dragonfly:a=4,h=2 --speed 0.001
0	\(2.5 Gb/s, 9000 B packets\)$	topo dragonfly:a=4,h=2 --speed 2.50 --packet 9000
1	$fab/bad_id.fabric:4: bad switch id	topo file:$fab/bad_id.fabric
1	not connected	topo file:$tmp/linkless.fabric
1	No such file	topo file:$tmp/none.fabric
2	missing parameter "h"	topo dragonfly:a=8
2	at most 1000000	topo dragonfly:a=4,h=2 --speed 1000001
2	at most 4000000	topo dragonfly:a=4,h=2 --local-ns 4000000.001
2	--packet	topo dragonfly:a=4,h=2 --packet 0
2	needs a value	topo dragonfly:a=4,h=2 --speed
0	0-1$	paths dragonfly:p=2,a=4,h=2 --switch 0
0	"minimal":true	paths file:$fab/tiny.fabric --switch 0 -j
0	"latency_ns":8000000025.0	paths dragonfly:a=4,h=2 --switch 0 --dst 1 --speed 0.001 --packet 1000000 -j
0	"weight":1.0,"class":1,"minimal":false,"switches":\[0,2,1\]	paths file:$tmp/long.fabric --switch 0 --dst 1 -j
2	--switch	paths dragonfly:a=4,h=2
0	per endpoint	memory dragonfly:p=2,a=4,h=2
0	"entries"	memory slimfly:q=5 -j
0	dragonfly:p=2,a=4,h=2	memory --sweep dragonfly --max-endpoints 100
0	^usage: spritzctl	--help
0	^spritzctl [0-9]	--version
2	unknown command	bogus
2	option "-n" needs a value	-n
1	failed to enter network namespace "spritz-none": No such file	-n spritz-none topo dragonfly:a=4,h=2
1	failed to enter network namespace "spritz-none"	--netns spritz-none paths dragonfly:a=4,h=2 --switch 0
CASES
)

# Arguments with blanks in them: EXIT <TAB> PATTERN <TAB> ARGS split on
# "|".  Numbers are digits only: strtol() alone skips leading blanks and
# then takes a sign.
blank_cases=$(cat <<'CASES'
2	failed to parse --switch " \+5": expected a switch id	paths|dragonfly:a=4,h=2|--switch| +5
2	failed to parse --dst " 5"	paths|dragonfly:a=4,h=2|--switch|0|--dst| 5
2	failed to parse --max-endpoints " 100"	memory|--sweep|dragonfly|--max-endpoints| 100
2	parameter a: " \+4" is not a non-negative integer	topo|dragonfly:a= +4,h=2
CASES
)

# one_case EXIT PATTERN ARGS...
one_case()
{
	local want=$1 pat=$2 rc out err
	shift 2

	out=$(selftests/lib/sanitized "$ctl" "$@" 2>"$tmp/err")
	rc=$?
	err=$(cat "$tmp/err")
	[ -z "$err" ] || [ "$rc" -ne 0 ] || printf '%s\n' "$err"
	# a report fails the case even where exit 1 is the expected code
	if grep -E -q 'ERROR: (Address|Leak)Sanitizer|runtime error:|sanitizer report' <<<"$err"; then
		printf '%s\n' "$err" | head -n 30
		return 1
	fi
	if [ "$rc" -ne "$want" ]; then
		echo "exited $rc, want $want"
		printf '%s\n' "$err" | head -n 20
		return 1
	fi
	if [ "$want" -ne 0 ]; then
		[[ $(head -n 1 <<<"$err") == "spritzctl: failed to "* ]] ||
			{ echo "stderr does not start \"spritzctl: failed to \": $err"; return 1; }
		out=$err
	fi
	grep -E -q -- "$pat" <<<"$out" || { echo "output lacks /$pat/:"; head -n 5 <<<"$out"; return 1; }
}

ktap_header "$(($(grep -c . <<<"$cases") + $(grep -c . <<<"$blank_cases")))"
while IFS=$'\t' read -r want pat args; do
	# shellcheck disable=SC2086
	run_test "spritzctl $args" one_case "$want" "$pat" $args
done <<<"$cases"
while IFS=$'\t' read -r want pat args; do
	IFS='|' read -r -a argv <<<"$args"
	name=spritzctl
	for a in "${argv[@]}"; do
		[[ $a == *' '* ]] && name+=" '$a'" || name+=" $a"
	done
	run_test "$name" one_case "$want" "$pat" "${argv[@]}"
done <<<"$blank_cases"
ktap_finish
