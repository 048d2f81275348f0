#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# selftests/vm/run itself (Documentation/vm.rst): guests boot with memory
# debugging unless --no-memdebug, the command's exit code passes through,
# and a kernel report logged while the command ran fails the run (125)
# even though the command succeeded.  A table of cases: options, command,
# expected exit code, a pattern the guest's output must match.  A host
# suite that boots guests (the newest installed kernel).  Only the first
# case needs memory debugging: the report check reads the guest's log
# whatever the boot, and a lean boot costs a third of a debugging one.
# A kernel report on the console before the command starts (here a
# parameter the kernel echoes as unknown) ends that boot and the next.
# The guest runs without address space randomization (TCG's translations
# then serve every process of a program).
# Last, --icount: the same loop of bash builtins (no exec, no I/O) takes
# four times the guest's time with --icount 2 as with --icount 0, since the
# guest's clock counts instructions; without it the ratio would be near 1.
source "$(dirname "$0")/../lib/lib.sh"

vm=$SPRITZ_TOP/selftests/vm/run
k=$(ls /boot/vmlinuz-* 2>/dev/null | sed 's|/boot/vmlinuz-||' | sort -V | tail -n1)
memdebug='slub_debug=FZPU init_on_free=1 page_poison=1'
grep -qx 'CONFIG_KFENCE=y' "/boot/config-$k" 2>/dev/null && memdebug+=' kfence.sample_interval=10'

# NAME | OPTIONS | COMMAND | RC | OUTPUT PATTERN (stdout and stderr)
cases=(
	"memdebug_default_exit_passes | | cat /proc/cmdline; exit 3 | 3 | $memdebug"
	"no_memdebug_slab_report_fails | --no-memdebug | ! grep -q slub_debug /proc/cmdline && echo 'BUG kmalloc-64 (Tainted: G): Poison overwritten' >/dev/kmsg | 125 | Poison overwritten"
	"boot_report_boots_again | --no-memdebug --append spritz_boot_report=Oops | true | 125 | reported a problem while booting, before the command .*console-boot1.log"
	"no_address_randomization | --no-memdebug | cat /proc/sys/kernel/randomize_va_space | 0 | ^0$"
	"kfence_report_fails_panic_on_warn | --no-memdebug --panic-on-warn | grep -q panic_on_warn=1 /proc/cmdline && echo 'BUG: KFENCE: use-after-free read in x' >/dev/kmsg | 125 | BUG: KFENCE: use-after-free"
)

trim() { sed 's/^ *//; s/ *$//' <<<"$1"; }

vm_case() # OPTIONS COMMAND RC PATTERN
{
	local opts=$1 cmd=$2 want=$3 pat=$4 out rc
	local -a o=()

	[ -z "$opts" ] || read -ra o <<<"$opts"
	out=$("$vm" --timeout 300 "${o[@]}" -- bash -c "$cmd" 2>&1)
	rc=$?
	echo "$out" | tail -n 5
	# a failed run keeps its directory for a look: not this expected one
	sed -n 's/^vm: run directory kept: //p' <<<"$out" | xargs -r rm -rf
	[ "$rc" = "$want" ] || { echo "exit $rc, want $want"; return 1; }
	grep -qE "$pat" <<<"$out" || { echo "output does not match /$pat/"; return 1; }
}

# The guest's microseconds for 30 000 rounds of a bash loop, at --icount $1.
icount_loop_us()
{
	"$vm" --timeout 300 --no-memdebug --icount "$1" -- bash -c '
		i=0; t0=${EPOCHREALTIME/./}
		while [ $i -lt 30000 ]; do i=$((i + 1)); done
		echo "loop_us $((${EPOCHREALTIME/./} - t0))"' 2>&1 | sed -n 's/^loop_us //p'
}

icount_case()
{
	local a b

	a=$(icount_loop_us 0) b=$(icount_loop_us 2)
	echo "icount 0: $a us, icount 2: $b us"
	[ -n "$a" ] && [ -n "$b" ] || { echo "a guest printed no time"; return 1; }
	# 4x within 10 %: timer interrupts are instructions too
	[ $((b * 10)) -ge $((a * 36)) ] && [ $((b * 10)) -le $((a * 44)) ] ||
		{ echo "ratio $b/$a is not 4 within 10 %"; return 1; }
}

ktap_header $((${#cases[@]} + 1))
for c in "${cases[@]}"; do
	IFS='|' read -r name opts cmd rc pat <<<"$c"
	run_test "$(trim "$name")" vm_case "$(trim "$opts")" "$(trim "$cmd")" "$(trim "$rc")" \
		"$(trim "$pat")"
done
run_test icount_clock icount_case
ktap_finish
