#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# dkms-guest.sh MODDIR: the guest half of selftests/packaging/dkms.sh.
# MODDIR is /lib/modules/KVER as "dkms install" leaves it for the running
# kernel (made on the host): spritz.ko as DKMS built, stripped, signed and
# compressed it in updates/dkms/, and depmod's index.  Puts both in place,
# then checks that modprobe loads that module with module BTF and
# registered kfuncs (a tc program calling one runs), that it unloads, and
# that "spritzctl up", given no other module, loads it through modprobe.
# Runs in the VM as root: every write outside the checkout vanishes with
# the VM.
source "$(dirname "$0")/../lib/lib.sh"

require_root
src=${1:?usage: dkms-guest.sh MODDIR}
kver=$(uname -r)
mod=$(ls "$src"/updates/dkms/spritz.ko*)
dst=/lib/modules/$kver/updates/dkms/$(basename "$mod")
version=$(sed -n 's/^#define SPRITZ_VERSION "\(.*\)"/\1/p' "$SPRITZ_TOP/include/spritz/abi.h")
[ -f "$mod" ] || { echo "# no module in $src"; exit $KSFT_FAIL; }
[ -d /sys/module/spritz ] && { echo "# spritz already loaded"; exit $KSFT_FAIL; }

place()
{
	install -D -m 0644 "$mod" "$dst" && cp "$src"/modules.* "/lib/modules/$kver/" || return 1
	[ "$(modinfo -n spritz)" = "$dst" ] || { echo "modinfo -n: $(modinfo -n spritz)"; return 1; }
}

probe()
{
	modprobe spritz || return 1
	[ "$(cat /sys/module/spritz/version)" = "$version" ] &&
	[ "$(cat /sys/kernel/spritz/version)" = "$version" ] ||
		{ echo "version: $(cat /sys/module/spritz/version)"; return 1; }
}

kfuncs()
{
	local n

	[ -e /sys/kernel/btf/spritz ] || { echo "no /sys/kernel/btf/spritz"; return 1; }
	bpftool btf dump file /sys/kernel/btf/spritz | grep "FUNC 'bpf_spritz"
	n=$(bpftool btf dump file /sys/kernel/btf/spritz | grep -c "FUNC 'bpf_spritz")
	[ "$n" -ge 4 ] || { echo "$n kfuncs in module BTF"; return 1; }
	! dmesg | grep -i 'spritz.*missing module BTF' || return 1
	"$SPRITZ_OUT/selftests/bpf/kfunc"
}

unload()
{
	local _

	for ((_n = 1; _n <= 20; _n++)); do
		modprobe -r spritz 2>/dev/null && break
		sleep 0.1
	done
	[ ! -d /sys/module/spritz ] && [ ! -e /sys/kernel/btf/spritz ]
}

# spritzctl up's first step, modprobe (SPRITZ_KO: no fallback module)
ctl_up()
{
	local dev=spzdk0 rc=0 ctl=$SPRITZ_OUT/spritzctl

	ip link add $dev type dummy && ip link set $dev up || return 1
	SPRITZ_KO=/nonexistent/spritz.ko "$ctl" up --dev $dev --topo dragonfly:p=2,a=4,h=2 \
		--switch 3 --addr-plan fd00::/16 || rc=1
	[ $rc -eq 0 ] && { [ -e /sys/kernel/btf/spritz ] && [ -e /sys/fs/bpf/spritz/spritz_dir ] ||
		{ echo "not up"; rc=1; }; }
	"$ctl" down || rc=1
	[ ! -d /sys/module/spritz ] || { echo "module left"; rc=1; }
	ip link del $dev
	return $rc
}

ktap_header 5
run_test installed_where_dkms_puts_it place
run_test modprobe_loads_it probe
run_test module_btf_and_kfuncs kfuncs
run_test modprobe_r unload
run_test spritzctl_up_modprobes_it ctl_up
ktap_finish
