#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# spritz.ko on the running kernel: loads, carries module BTF, registers its
# kfuncs (a tc program calling one runs), creates /sys/kernel/spritz, and
# unloads cleanly after the program is gone.  Runs in the VM (selftests/run).
source "$(dirname "$0")/../lib/lib.sh"

require_root
ko=$(spritz_ko)
[ -f "$ko" ] || { echo "# $ko not built (make kmod KVER=$(uname -r))"; exit $KSFT_FAIL; }

expect_version=$(sed -n 's/^#define SPRITZ_VERSION "\(.*\)"/\1/p' "$SPRITZ_TOP/include/spritz/abi.h")

ktap_header 8

run_test insmod insmod "$ko"
run_test module_btf test -e /sys/kernel/btf/spritz
run_test btf_lists_kfunc sh -c "bpftool btf dump file /sys/kernel/btf/spritz | grep -q \"FUNC 'bpf_spritz_abi_version'\""
run_test no_btf_warning sh -c "! dmesg | grep -i 'spritz.*missing module BTF'"
run_test sysfs_version sh -c "[ \"\$(cat /sys/kernel/spritz/version)\" = '$expect_version' ]"
run_test kfunc_prog "$SPRITZ_OUT/selftests/bpf/kfunc"
run_test rmmod spritz_rmmod
run_test sysfs_gone sh -c '! test -e /sys/kernel/spritz && ! test -e /sys/kernel/btf/spritz'

ktap_finish
