#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make install / uninstall / install-dkms into a temporary DESTDIR
# (Documentation/deployment.rst, "Installing"): the exact file list with
# modes, PREFIX and SYSCONFDIR substituted into the systemd unit, the
# installed spritzctl runs (--version, --help, paths; it carries its BPF
# object, so nothing else is installed for it), a second install over
# the first is fine, uninstall leaves nothing of Spritz's behind (but keeps
# a configuration file), and install-dkms lays out the DKMS source tree with
# its version.  Host only: nothing outside the temporary directory changes.
source "$(dirname "$0")/../lib/lib.sh"

ctl=$SPRITZ_OUT/spritzctl
[ -x "$ctl" ] || { echo "# $ctl not built (make)"; exit $KSFT_FAIL; }
version=$(sed -n 's/^#define SPRITZ_VERSION "\(.*\)"/\1/p' "$SPRITZ_TOP/include/spritz/abi.h")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/root

# make in the checkout; -o: never rebuild (the test installs what was built)
mk()
{
	make -s -C "$SPRITZ_TOP" OUT="$SPRITZ_OUT" -o "$ctl" "$@"
}

# "MODE PATH [-> TARGET]" for every file and link under $1, sorted
listing()
{
	(cd "$1" && find . \( -type f -o -type l \) -printf '%m %P %l\n') | sed 's/ $//' | sort
}

expected()
{
	local f

	{
		echo "755 usr/sbin/spritzctl"
		echo "644 usr/share/man/man8/spritzctl.8"
		echo "644 usr/lib/systemd/system/spritz@.service"
		for f in README.md "$SPRITZ_TOP"/Documentation/*.rst packaging/spritz.conf.example; do
			echo "644 usr/share/doc/spritz/$(basename "$f")"
		done
	} | sort
}

install_list()
{
	mk install DESTDIR="$dest" PREFIX=/usr || return 1
	diff <(expected) <(listing "$dest") || return 1
	[ -d "$dest/etc/spritz" ] || { echo "no /etc/spritz"; return 1; }
	cmp "$ctl" "$dest/usr/sbin/spritzctl"
}

unit_paths()
{
	local u=$dest/usr/lib/systemd/system/spritz@.service

	grep -q '@[A-Z]*@' "$u" && { echo "unsubstituted: $(grep '@[A-Z]*@' "$u")"; return 1; }
	grep -qx 'ExecStart=/usr/sbin/spritzctl up --dev %I .*' "$u" &&
	grep -qx 'ExecStop=/usr/sbin/spritzctl down --dev %I' "$u" &&
	grep -qx 'EnvironmentFile=/etc/spritz/%I.conf' "$u" ||
		{ echo "paths not substituted:"; grep -E '^(Exec|Env)' "$u"; return 1; }
}

runs()
{
	local out

	out=$("$dest/usr/sbin/spritzctl" --version) || return 1
	[ "$out" = "spritzctl $version (ABI $(sed -n 's/^#define SPRITZ_ABI_VERSION \([0-9]*\).*/\1/p' \
		"$SPRITZ_TOP/include/spritz/abi.h"))" ] || { echo "--version: $out"; return 1; }
	"$dest/usr/sbin/spritzctl" --help | grep -q '^usage: spritzctl' || { echo "--help"; return 1; }
	# the same table as the build tree's binary: 8 paths to switch 5
	out=$("$dest/usr/sbin/spritzctl" paths dragonfly:p=2,a=4,h=2 --switch 3 --dst 5) || return 1
	[ "$out" = "$("$ctl" paths dragonfly:p=2,a=4,h=2 --switch 3 --dst 5)" ] ||
		{ echo "paths differ"; return 1; }
	[ "$(grep -c ' 3-.*-5$' <<<"$out")" -gt 0 ] || { echo "paths: $out"; return 1; }
}

default_prefix()
{
	local d=$tmp/local

	mk install DESTDIR="$d" || return 1
	[ -x "$d/usr/local/sbin/spritzctl" ] &&
	[ -f "$d/usr/local/share/man/man8/spritzctl.8" ] &&
	grep -qx 'ExecStart=/usr/local/sbin/spritzctl up .*' \
		"$d/usr/local/lib/systemd/system/spritz@.service" || { listing "$d"; return 1; }
	mk uninstall DESTDIR="$d" && [ -z "$(find "$d" -type f -o -type l)" ]
}

reinstall()
{
	mk install DESTDIR="$dest" PREFIX=/usr && diff <(expected) <(listing "$dest")
}

uninstall()
{
	echo "TOPO=x" >"$dest/etc/spritz/eth9.conf"
	mk uninstall DESTDIR="$dest" PREFIX=/usr || return 1
	[ "$(listing "$dest")" = "644 etc/spritz/eth9.conf" ] || { listing "$dest"; return 1; }
	[ ! -e "$dest/usr/share/doc/spritz" ] ||
		{ echo "directories left"; return 1; }
	# a second uninstall finds nothing to do and still succeeds
	mk uninstall DESTDIR="$dest" PREFIX=/usr
}

dkms_tree()
{
	local d=$tmp/dkms src want

	mk install-dkms DESTDIR="$d" || return 1
	src=$d/usr/src/spritz-$version
	want=$(cd "$SPRITZ_TOP" && { ls Kbuild kmod/*.c kmod/*.h include/spritz/*.h |
		sed 's/^/644 /'; echo "755 scripts/kbuild-prep"; echo "755 packaging/dkms-build";
		echo "644 dkms.conf"; } | sort)
	diff <(echo "$want") <(listing "$src") || return 1
	grep -qx "PACKAGE_VERSION=\"$version\"" "$src/dkms.conf" || { echo "version"; return 1; }
	diff <(grep -v PACKAGE_VERSION "$SPRITZ_TOP/packaging/dkms.conf") \
		<(grep -v PACKAGE_VERSION "$src/dkms.conf") || return 1
	mk uninstall-dkms DESTDIR="$d" && [ ! -e "$src" ]
}

ktap_header 7
run_test install_file_list install_list
run_test unit_paths_substituted unit_paths
run_test installed_spritzctl_runs runs
run_test default_prefix_usr_local default_prefix
run_test install_twice reinstall
run_test uninstall_leaves_nothing uninstall
run_test install_dkms_tree dkms_tree
ktap_finish
