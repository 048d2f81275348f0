#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# spritzctl set / get / show config against a loaded spritz.ko
# (Documentation/spritzctl.8): every knob of SPRITZ_KNOBS() reads back its
# default through get, accepts both edges of its range through set and
# refuses one step beyond them with exit 2, the valid range in the message
# and the value unchanged; malformed values, unknown and read-only knobs are
# usage errors; "algorithm" takes each name; get -j and show config -j match
# the documented JSON shape (checked with jq); a non-root caller is refused
# with exit 1 and changes nothing; without the module every command fails
# with exit 1 and says so.  Runs in the VM as root.
source "$(dirname "$0")/../lib/lib.sh"

require_root
ko=$(spritz_ko)
[ -f "$ko" ] || { echo "# $ko not built"; exit $KSFT_FAIL; }
ctl=$SPRITZ_OUT/spritzctl
[ -x "$ctl" ] || { echo "# $ctl not built"; exit $KSFT_FAIL; }
command -v jq >/dev/null || { echo "# SKIP: jq not installed"; exit $KSFT_SKIP; }
dir=/sys/kernel/spritz
[ -d /sys/module/spritz ] && { echo "# spritz already loaded"; exit $KSFT_FAIL; }

# "name def min max" for every SPRITZ_KNOBS entry
knobs=$(spritz_knob_table)
nknobs=$(wc -l <<<"$knobs")

# The first line of sysfs file NAME into $kv (a builtin read, no
# subshell: a cat costs 0.1 s in the guest).
knob() # NAME
{
	kv=
	read -r kv 2>/dev/null <"$dir/$1"
}

get_default() # NAME DEF
{
	local got

	got=$("$ctl" get "$1") || return 1
	[ "$got" = "$2" ] || { echo "get $1 = $got, default $2"; return 1; }
	knob "$1"
	[ "$kv" = "$2" ] || { echo "$dir/$1 != $2"; return 1; }
}

# set NAME VALUE; get and sysfs read back VALUE
set_ok()
{
	"$ctl" set "$1" "$2" || { echo "set $1 $2 failed"; return 1; }
	[ "$("$ctl" get "$1")" = "$2" ] || { echo "get $1 != $2"; return 1; }
	knob "$1"
	[ "$kv" = "$2" ] || { echo "$dir/$1 != $2"; return 1; }
}

# set NAME VALUE refused with exit RC and PATTERN; value unchanged
set_refused() # RC PATTERN NAME VALUE
{
	local before after

	knob "$3"
	before=$kv
	expect "$1" "$2" "$ctl" set "$3" "$4" || return 1
	knob "$3"
	after=$kv
	[ "$before" = "$after" ] || { echo "$3 changed: $before -> $after"; return 1; }
}

check_edges() # NAME DEF MIN MAX
{
	local range="valid range is $3\.\.$4"

	set_ok "$1" "$3" || return 1
	set_ok "$1" "$4" || return 1
	[ "$3" -gt 0 ] && { set_refused 2 "$range" "$1" $(($3 - 1)) || return 1; }
	set_refused 2 "$range" "$1" $(($4 + 1)) || return 1
	set_refused 2 "$range" "$1" -1 || return 1
	set_ok "$1" "$2"
}

malformed()
{
	local v

	for v in abc 3x " 3" "+3" 0x3 3.0 "" 99999999999999999999; do
		set_refused 2 "failed to set w_scale: invalid value" w_scale "$v" || return 1
	done
}

get_json()
{
	local out

	out=$("$ctl" -j get w_scale) || return 1
	jq -e '(.knob == "w_scale") and (.value | type == "number") and (keys | length == 2)' \
		<<<"$out" >/dev/null || { echo "bad JSON: $out"; return 1; }
	out=$("$ctl" get algorithm -j) || return 1
	jq -e '.value == "scout"' <<<"$out" >/dev/null || { echo "bad JSON: $out"; return 1; }
}

# show config -j: {version, algorithm, tables, paths, knobs: [{name, value,
# default, min, max}]}, one entry per SPRITZ_KNOBS() line, in order
show_json()
{
	local out names

	out=$("$ctl" show config -j) || return 1
	jq -e --argjson n "$nknobs" '
		(.version | type == "string") and (.algorithm | type == "string") and
		(.tables | type == "number") and (.paths | type == "number") and
		(.knobs | length == $n) and
		all(.knobs[]; (keys == ["default", "max", "min", "name", "value"]) and
			.min <= .value and .value <= .max and
			.min <= .default and .default <= .max)' <<<"$out" >/dev/null ||
		{ echo "bad JSON: $out"; return 1; }
	names=$(jq -r '.knobs[].name' <<<"$out")
	[ "$names" = "$(cut -d' ' -f1 <<<"$knobs")" ] || { echo "names: $names"; return 1; }
	[ "$("$ctl" -j show)" = "$out" ] || { echo "show != show config"; return 1; }
}

show_human()
{
	local out

	out=$("$ctl" show config) || return 1
	grep -q '^algorithm  scout$' <<<"$out" || { echo "$out"; return 1; }
	while read -r name def min max; do
		grep -Eq "^$name +$def +$def +$min\.\.$max\$" <<<"$out" ||
			{ echo "no line for $name: $out"; return 1; }
	done <<<"$knobs"
}

nobody() # CMD...: run as uid/gid 65534
{
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

non_root()
{
	local before

	before=$(cat $dir/w_scale)
	expect 1 "failed to set w_scale: permission denied (must be root)" \
		nobody "$ctl" set w_scale 7 || return 1
	expect 1 "failed to set algorithm: permission denied" \
		nobody "$ctl" set algorithm spray || return 1
	[ "$(cat $dir/w_scale)" = "$before" ] || { echo "w_scale changed"; return 1; }
	[ "$(cat $dir/algorithm)" = scout ] || { echo "algorithm changed"; return 1; }
	# reading is allowed (the files are 0644)
	[ "$(nobody "$ctl" get w_scale)" = "$before" ] || { echo "non-root get"; return 1; }
	nobody "$ctl" show config >/dev/null
}

no_module()
{
	local pat="spritz module not loaded"

	expect 1 "failed to set w_scale: $pat" "$ctl" set w_scale 3 || return 1
	expect 1 "failed to get w_scale: $pat" "$ctl" get w_scale || return 1
	expect 1 "failed to show config: $pat" "$ctl" show config || return 1
	# argument errors are still usage errors
	expect 2 "valid range is" "$ctl" set w_scale 0
}

usage_errors()
{
	expect 2 "failed to set nosuch: unknown knob" "$ctl" set nosuch 1 || return 1
	expect 2 "failed to set tables: read-only value" "$ctl" set tables 1 || return 1
	expect 2 "failed to get nosuch: unknown knob" "$ctl" get nosuch || return 1
	expect 2 "expected KNOB VALUE" "$ctl" set w_scale || return 1
	expect 2 "unexpected" "$ctl" set w_scale 3 4 || return 1
	expect 2 "expected KNOB" "$ctl" get || return 1
	expect 2 "unknown option" "$ctl" get w_scale --bogus || return 1
	expect 2 "failed to show nosuch" "$ctl" show nosuch || return 1
	local c
	for c in set get show; do
		"$ctl" "$c" --help | grep -q "^usage: spritzctl $c" || { echo "$c --help"; return 1; }
	done
}

read_only()
{
	local f

	for f in tables paths version; do
		[ "$("$ctl" get $f)" = "$(cat $dir/$f)" ] || { echo "get $f"; return 1; }
	done
}

ktap_header $((1 + 2 * nknobs + 5 + 8 + 2))
run_test insmod insmod "$ko"
while read -r name def min max; do
	run_test "get_${name}_default" get_default "$name" "$def"
done <<<"$knobs"
while read -r name def min max; do
	run_test "set_${name}_edges" check_edges "$name" "$def" "$min" "$max"
done <<<"$knobs"
for a in spray ops ecmp flicr scout; do
	run_test "set_algorithm_$a" set_ok algorithm "$a"
done
run_test set_algorithm_invalid set_refused 2 \
	"valid values are scout, spray, ops, ecmp, flicr" algorithm SCOUT
run_test set_malformed malformed
run_test usage_errors usage_errors
run_test get_read_only read_only
run_test get_json get_json
run_test show_config show_human
run_test show_config_json show_json
run_test non_root_refused non_root
run_test rmmod spritz_rmmod
run_test no_module no_module
ktap_finish
