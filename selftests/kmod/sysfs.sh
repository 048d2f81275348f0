#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# /sys/kernel/spritz knobs (Documentation/ABI/testing/sysfs-kernel-spritz):
# every numeric knob of SPRITZ_KNOBS() (include/spritz/knobs.h) starts at its
# default, accepts both edges of its range and refuses one step beyond
# them; "algorithm" takes each name; malformed writes (negative, overflow,
# text, empty, too long, ...) are refused with EINVAL and leave the value
# unchanged; the read-only files refuse writes.  Runs in the VM as root.
source "$(dirname "$0")/../lib/lib.sh"

require_root
ko=$(spritz_ko)
[ -f "$ko" ] || { echo "# $ko not built"; exit $KSFT_FAIL; }
dir=/sys/kernel/spritz

# "name def min max" for every SPRITZ_KNOBS entry
knobs=$(spritz_knob_table)

# get FILE VAR: VAR = the file's first line (a builtin: no process per read)
get()
{
	IFS= read -r "$2" <"$1" || [ -n "${!2}" ]
}

# write FILE VALUE: 0 if the kernel accepted the write
write()
{
	{ printf '%s' "$2" >"$1"; } 2>/dev/null
}

# Refused write: fails, and the value reads back unchanged.
refused()
{
	local f=$1 v=$2 before after

	get "$f" before
	if write "$f" "$v"; then
		echo "write of '${v:0:40}' to $f accepted"
		return 1
	fi
	get "$f" after
	[ "$before" = "$after" ] || { echo "$f changed: $before -> $after"; return 1; }
}

# Accepted write: succeeds and reads back as EXPECT (default: VALUE).
accepted()
{
	local f=$1 v=$2 want=${3:-$2} got

	write "$f" "$v" || { echo "write of '$v' to $f refused"; return 1; }
	get "$f" got
	[ "$got" = "$want" ] || { echo "$f reads '$got', want '$want'"; return 1; }
}

check_default()
{
	local got

	get "$dir/$1" got
	[ "$got" = "$2" ] || { echo "$1 = $got, default $2"; return 1; }
}

check_edges() # NAME MIN MAX DEF
{
	local f=$dir/$1

	accepted "$f" "$2" || return 1
	accepted "$f" "$3" || return 1
	accepted "$f" "$2"$'\n' "$2" || return 1
	[ "$2" -gt 0 ] && { refused "$f" $(($2 - 1)) || return 1; }
	refused "$f" $(($3 + 1)) || return 1
	accepted "$f" "$4"
}

long=$(printf '1%.0s' $(seq 5000))
invalid=(
	"-1" "-0" "abc" $'\n' "4294967296" "18446744073709551616"
	"99999999999999999999999" "3x" " 3" "3 " "+3" "0x3" "03x" $'3\n\n'
	"3.0" "1e3" $'\t3' "0" "1001" "$long" "3,4" "３" $'3\r'
)

alg_invalid=(SCOUT scoutx $'\n' "scout spray" "-1" 0 "$long")
nknobs=$(wc -l <<<"$knobs")

ktap_header $((2 + 2 * nknobs + 5 + 5 + ${#invalid[@]} + ${#alg_invalid[@]} + 6 + 1))
run_test insmod insmod "$ko"
run_test algorithm_default check_default algorithm scout
while read -r name def min max; do
	run_test "${name}_default" check_default "$name" "$def"
done <<<"$knobs"
for f in tables paths staging staging_bytes floor_enables; do
	run_test "${f}_empty" check_default "$f" 0
done
while read -r name def min max; do
	run_test "${name}_edges" check_edges "$name" "$min" "$max" "$def"
done <<<"$knobs"
for a in spray ops ecmp flicr scout; do
	run_test "algorithm_$a" accepted "$dir/algorithm" "$a"
done
for i in "${!invalid[@]}"; do
	run_test "w_scale_invalid_$i" refused "$dir/w_scale" "${invalid[$i]}"
done
for i in "${!alg_invalid[@]}"; do
	run_test "algorithm_invalid_$i" refused "$dir/algorithm" "${alg_invalid[$i]}"
done
for f in tables paths staging staging_bytes floor_enables version; do
	run_test "${f}_read_only" refused "$dir/$f" 1
done
run_test rmmod spritz_rmmod
ktap_finish
