#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# DKMS (packaging/dkms.conf, make install-dkms / uninstall-dkms) for every
# installed Debian kernel with headers, then the result in a VM per kernel.
#
# On the host, with DKMS's trees redirected into a scratch directory under
# $OUT (--sourcetree, --dkmstree, --installtree, --no-depmod), so nothing
# of the system's DKMS state or /lib/modules changes: "make install-dkms"
# adds, builds and installs spritz.ko for each kernel; each installed module
# must carry .BTF and list its kfuncs against that kernel's BTF (bpftool
# -B); "make install-dkms" again (for the oldest kernel) replaces the old
# registration; "dkms autoinstall -k KVER" (what DKMS's kernel postinst
# hook runs when a kernel is installed) builds and installs it for each
# other kernel (AUTOINSTALL); "make uninstall-dkms" removes modules,
# registration and sources.  Then, per kernel, selftests/vm/run boots it
# (without memory debugging, one vCPU) and dkms-guest.sh modprobes the
# DKMS-built module there, and "spritzctl up" loads it by modprobe.  A host
# suite that boots guests itself, because the guest half needs the host
# half's build (building in TCG takes minutes).
# DKMS signs modules with /var/lib/dkms/mok.key, which its first build
# creates (DKMS's own behaviour; Debian kernels do not enforce signatures).
source "$(dirname "$0")/../lib/lib.sh"

require_root
command -v dkms >/dev/null || { echo "# SKIP: dkms not installed (scripts/deps install)"; exit $KSFT_SKIP; }
kernels=$(cd "$SPRITZ_TOP" && scripts/kernels)
[ -n "$kernels" ] || { echo "# SKIP: no kernel with headers installed"; exit $KSFT_SKIP; }
version=$(sed -n 's/^#define SPRITZ_VERSION "\(.*\)"/\1/p' "$SPRITZ_TOP/include/spritz/abi.h")
arch=$(uname -m)

t=$SPRITZ_OUT/packaging-dkms
rm -rf "$t"
mkdir -p "$t/src" "$t/dkms"
for k in $kernels; do
	mkdir -p "$t/modules/$k"
done
trap 'rm -rf "$t"' EXIT
DKMS="dkms --sourcetree $t/src --dkmstree $t/dkms --installtree $t/modules --no-depmod"

mk() # TARGET: make TARGET against the scratch trees
{
	make -s -C "$SPRITZ_TOP" OUT="$SPRITZ_OUT" DKMS="$DKMS" DKMS_SRCDIR="$t/src/spritz-$version" \
		DKMS_KVERS="$kernels" "$@"
}

installed() # KVER: the module DKMS installed for KVER
{
	ls "$t/modules/$1/updates/dkms/"spritz.ko* 2>/dev/null
}

status_is() # WANT: dkms status, one "KVER: state" per kernel
{
	local want=$1 got

	got=$($DKMS status spritz/"$version" 2>/dev/null)
	[ "$got" = "$want" ] || { echo "dkms status:"; echo "$got"; echo "want:"; echo "$want"; return 1; }
}

all_installed()
{
	local k

	for k in $kernels; do
		echo "spritz/$version, $k, $arch: installed"
	done
}

build()
{
	local k s e

	s=$(date +%s)
	mk install-dkms || return 1
	e=$(date +%s)
	echo "install-dkms for $(wc -w <<<"$kernels") kernel(s): $((e - s)) s"
	status_is "$(all_installed)" || return 1
	for k in $kernels; do
		[ -n "$(installed "$k")" ] || { echo "nothing installed for $k"; return 1; }
	done
}

# the installed module (after DKMS's strip, signature and compression) has
# module BTF whose kfuncs resolve against the kernel's BTF
btf()
{
	local k m ko rc=0

	for k in $kernels; do
		m=$(installed "$k") && [ -n "$m" ] || { echo "$k: no module"; rc=1; continue; }
		ko=$t/check-$k.ko
		case $m in
		*.xz) xz -dc "$m" >"$ko" ;;
		*.zst) zstd -q -dc "$m" >"$ko" ;;
		*.gz) gzip -dc "$m" >"$ko" ;;
		*) cp "$m" "$ko" ;;
		esac
		[ -f "$SPRITZ_OUT/kdir/$k/vmlinux" ] ||
			scripts/kbuild-prep "$k" "$SPRITZ_OUT/kdir/$k" || { rc=1; continue; }
		echo "$k: $(basename "$m"), $(modinfo -F vermagic "$ko")"
		readelf -S "$ko" | grep '\.BTF ' >/dev/null || { echo "$k: no .BTF"; rc=1; continue; }
		bpftool btf dump file "$ko" -B "$SPRITZ_OUT/kdir/$k/vmlinux" | grep "FUNC 'bpf_spritz" ||
			{ echo "$k: no kfunc in module BTF"; rc=1; continue; }
		[ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$k" ] || { echo "$k: vermagic"; rc=1; }
	done
	return $rc
}

# again, for the oldest kernel only (each build is half a minute): the old
# registration, built for every kernel, is replaced whole
reinstall()
{
	local k=${kernels%% *}

	mk install-dkms DKMS_KVERS="$k" &&
		status_is "spritz/$version, $k, $arch: installed" && [ -n "$(installed "$k")" ]
}

# A module tree for KVER as "dkms install" + "depmod -a" leave it: the
# kernel's modules (linked), the module DKMS installed, and the index depmod
# makes of them; built here because depmod over every module takes minutes
# in the TCG guest, seconds on the host.
index() # KVER ROOT
{
	local k=$1 m=$2/lib/modules/$1 e

	mkdir -p "$m/updates/dkms" || return 1
	for e in /lib/modules/"$k"/*; do
		case ${e##*/} in
		build|source|updates|modules.*.bin|modules.dep|modules.symbols|modules.alias|\
		modules.softdep|modules.devname|modules.weakdep) ;;
		modules.*) cp "$e" "$m/" ;;
		*) ln -s "$e" "$m/" ;;
		esac
	done
	cp "$(installed "$k")" "$m/updates/dkms/" && depmod -b "$2" "$k" || return 1
	grep "^updates/dkms/spritz.ko" "$m/modules.dep"
}

# a kernel upgrade: DKMS's hook runs "dkms autoinstall -k KVER" for a
# kernel the module is registered but not built for (every kernel but the
# oldest, after reinstall)
autoinstall()
{
	local k others=${kernels#* }

	# a single kernel: its build removed first
	if [ "$others" = "$kernels" ]; then
		$DKMS remove spritz/"$version" -k "$kernels" >/dev/null 2>&1 ||
			{ echo "remove -k $kernels"; return 1; }
	fi
	for k in $others; do
		[ -z "$(installed "$k")" ] || { echo "$k: module installed before"; return 1; }
		$DKMS autoinstall -k "$k" >"$t/autoinstall.log" 2>&1 ||
			{ cat "$t/autoinstall.log"; return 1; }
	done
	status_is "$(all_installed)"
}

guest() # KVER
{
	local s e

	index "$1" "$t/root-$1" || return 1
	s=$(date +%s)
	# what is checked is that the module loads, not its memory: a lean guest
	selftests/vm/run --kernel "$1" --timeout 1800 --no-memdebug --cpus 1 -- \
		selftests/packaging/dkms-guest.sh "$t/root-$1/lib/modules/$1"
	e=$?
	echo "VM: $(($(date +%s) - s)) s"
	return $e
}

uninstall()
{
	mk uninstall-dkms || return 1
	status_is "" || return 1
	[ ! -e "$t/src/spritz-$version" ] || { echo "sources left"; return 1; }
	[ -z "$(find "$t/modules" -name 'spritz.ko*')" ] || { echo "modules left"; return 1; }
	[ ! -e "$t/dkms/spritz" ] || { echo "left: $(ls "$t/dkms/spritz")"; return 1; }
}

cd "$SPRITZ_TOP" || exit $KSFT_FAIL
ktap_header $((5 + $(wc -w <<<"$kernels")))
run_test install_dkms_all_kernels build
run_test module_btf_kfuncs btf
run_test install_dkms_again reinstall
run_test autoinstall_on_kernel_upgrade autoinstall
for k in $kernels; do
	run_test "modprobe_in_vm_$k" guest "$k"
done
run_test uninstall_dkms uninstall
ktap_finish
