# SPDX-License-Identifier: GPL-2.0-only
# Sourced by selftests/vm/run and selftests/vm/batch.
#
# Kernel log lines that mean the run cannot be trusted: BUG/Oops/WARN, SLUB
# debug reports ("BUG kmalloc-64 (Tainted: ...): Poison overwritten"),
# KFENCE, list debugging, lockups and stalls.
splat_re='BUG:|BUG [^ ]+ \(|Oops|WARNING:|Call Trace:|general protection|double fault'
splat_re+='|UBSAN|KASAN|KFENCE|list_(add|del) corruption|Poison overwritten|Redzone'
splat_re+='|soft lockup|hung_task|rcu.*stall|Kernel panic|stack-protector|stack guard'
