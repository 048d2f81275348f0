#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Shell helpers for Spritz selftests, after tools/testing/selftests/net/lib.sh
# and kselftest/ktap_helpers.sh: a test script calls ktap_header, then one
# run_test per case, then ktap_finish (which exits 0 / 1 / 4 like kselftest).

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

SPRITZ_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SPRITZ_OUT=${OUT:-$SPRITZ_TOP/build}

__ktap_n=0
__ktap_pass=0
__ktap_fail=0
__ktap_skip=0

ktap_header() # PLAN
{
	echo "TAP version 13"
	echo "1..$1"
}

# Record one result: ktap_result NAME RC [REASON]
ktap_result()
{
	local name=$1 rc=$2 reason=${3:-}

	__ktap_n=$((__ktap_n + 1))
	case $rc in
	0)	__ktap_pass=$((__ktap_pass + 1)); echo "ok $__ktap_n $name" ;;
	4)	__ktap_skip=$((__ktap_skip + 1)); echo "ok $__ktap_n $name # SKIP $reason" ;;
	*)	__ktap_fail=$((__ktap_fail + 1)); echo "not ok $__ktap_n $name${reason:+ # $reason}" ;;
	esac
}

# run_test NAME CMD...: run CMD, indent its output as TAP comments, record it.
# The case's wall time goes in a comment, for profiling (never a verdict).
run_test()
{
	local name=$1 rc t0=$EPOCHREALTIME
	shift
	set -o pipefail
	"$@" 2>&1 | ktap_indent
	rc=$?
	set +o pipefail
	ktap_time "$name" "$t0"
	ktap_result "$name" "$rc"
	return "$rc"
}

# Copy stdin to stdout as TAP comments, line by line as it comes.  A
# builtin loop, not sed: under a memory-debugging TCG guest every exec
# costs tens of milliseconds, and suites run hundreds of cases.
ktap_indent()
{
	local l

	while IFS= read -r l || [ -n "$l" ]; do
		printf '# %s\n' "$l"
	done
}

# ktap_time NAME T0: "# time NAME: S s" since T0 (an $EPOCHREALTIME), in
# shell arithmetic (microseconds).
ktap_time()
{
	local t0=${2/[.,]/} t1=${EPOCHREALTIME/[.,]/} ds

	ds=$(((10#$t1 - 10#$t0 + 50000) / 100000))
	echo "# time $1: $((ds / 10)).$((ds % 10)) s"
}

# Run the cases NAME... (each the function test_NAME) as one plan, then
# ktap_finish.
ktap_run_cases() # NAME...
{
	local c

	ktap_header $#
	for c in "$@"; do
		run_test "$c" "test_$c"
	done
	ktap_finish
}

# The summary line and the kselftest exit code.
ktap_finish()
{
	echo "# $__ktap_pass passed, $__ktap_fail failed, $__ktap_skip skipped"
	[ "$__ktap_fail" -eq 0 ] || exit $KSFT_FAIL
	[ "$__ktap_n" -gt 0 ] && [ "$__ktap_skip" -eq "$__ktap_n" ] && exit $KSFT_SKIP
	exit $KSFT_PASS
}

# Fail unless running as root.
require_root()
{
	[ "$(id -u)" -eq 0 ] || { echo "# SKIP: needs root"; exit $KSFT_SKIP; }
}

# Skip unless a veth pair can be made (the lab's links).
require_veth()
{
	modprobe -q veth 2>/dev/null
	ip link add spritz-probe0 type veth peer name spritz-probe1 2>/dev/null ||
		{ echo "# SKIP: no veth"; exit $KSFT_SKIP; }
	ip link del spritz-probe0
}

# The spritz.ko built for the running kernel.
spritz_ko()
{
	echo "$SPRITZ_OUT/kmod/$(uname -r)/spritz.ko"
}

# Insert spritz.ko for the running kernel (no-op if loaded).
spritz_insmod()
{
	[ -d /sys/module/spritz ] && return 0
	insmod "$(spritz_ko)"
}

# Remove spritz.ko; program teardown drops module references
# asynchronously, so retry for up to two seconds.
spritz_rmmod()
{
	local i

	[ -d /sys/module/spritz ] || return 0
	for ((i = 1; i <= 20; i++)); do
		rmmod spritz 2>/dev/null && return 0
		sleep 0.1
	done
	rmmod spritz
}

# Every flow in the pinned flow table, or those for which the jq condition
# WHERE on spritzctl's flow entries (proto, saddr, sport, daddr, dport...)
# holds, one JSON object per line with the named fields of struct
# spritz_flow, as bpftool prints one slot, or what the jq filter WHAT
# makes of it (strings raw); spritzctl (path CTL) names the slots in use
# (the table has 65536 slots, and a dump of all of them would print every
# empty one).  One bpftool looks them all up (batch): a process costs
# 0.1-0.5 s in a TCG guest.
spritz_flow_states() # CTL [WHERE [WHAT]]
{
	local cmds

	cmds=$("$1" show flows -j | jq -r ".flows[] | select(${2:-true}) | .slot | "'
		"map lookup pinned /sys/fs/bpf/spritz/spritz_flows key \(. % 256) " +
		"\(. / 256 | floor % 256) \(. / 65536 | floor % 256) \(. / 16777216 | floor)"') ||
		return 1
	[ -n "$cmds" ] || return 0
	bpftool -j batch file - <<<"$cmds" | jq -rc ".[].output.formatted.value | ${3:-.}"
}

# The knob table of include/spritz/knobs.h, one "name default min max" line
# per SPRITZ_KNOBS entry, with SPRITZ_DEF_* and other macros resolved.
spritz_knob_table()
{
	local knobs_h=$SPRITZ_TOP/include/spritz/knobs.h n d lo hi

	__resolve()
	{
		local v=$1 i

		for i in 1 2 3; do
			[[ $v =~ ^[0-9]+$ ]] && { echo "$v"; return; }
			v=$(sed -n "s/^#define ${v}[[:space:]]\{1,\}\([A-Za-z0-9_]*\).*/\1/p" "$knobs_h")
		done
		echo "unresolved $1" >&2
		echo 0
	}
	sed -n 's/^[[:space:]]*X(\([a-z_]*\), *\([^,]*\), *\([^,]*\), *\([^)]*\)).*/\1 \2 \3 \4/p' \
		"$knobs_h" | while read -r n d lo hi; do
			echo "$n $(__resolve "$d") $(__resolve "$lo") $(__resolve "$hi")"
		done
}

# expect RC PATTERN CMD...: CMD exits RC and its stderr matches PATTERN;
# a failing spritzctl's first line is "spritzctl: failed to <verb> ...".
expect()
{
	local want=$1 pat=$2 rc err a
	shift 2

	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" -eq "$want" ] || { echo "$* exited $rc, want $want: $err"; return 1; }
	[ -z "$pat" ] || grep -q -- "$pat" <<<"$err" ||
		{ echo "$*: stderr '$err' lacks '$pat'"; return 1; }
	for a in "$@"; do
		[ "${a##*/}" = spritzctl ] && [ "$rc" -ne 0 ] || continue
		[[ ${err%%$'\n'*} == "spritzctl: failed to "* ]] ||
			{ echo "$*: stderr does not start 'spritzctl: failed to ': $err"; return 1; }
		break
	done
}
