#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The installed package on the running kernel, driven the way systemd
# drives spritz@IFACE.service: "make install" into the guest's root
# (PREFIX=/usr/local; the guest's root is a throwaway overlay), the example
# configuration copied to /etc/spritz/IFACE.conf, spritz.ko inserted before
# each start as systemd-modules-load.service would (modprobe of a
# DKMS-installed module is selftests/packaging/dkms.sh's; indexing
# /lib/modules here, depmod -a, takes minutes under TCG); then the unit's
# ExecStart and ExecStop lines, read from the installed unit and expanded
# as systemd does (Environment= defaults, EnvironmentFile= overriding them,
# %I, ${VAR} as one argument, $VAR split into words), run in an empty
# environment.  Checks: systemd-analyze verify accepts the unit; ExecStart
# brings Spritz up on the device with the file's settings and ExecStop
# leaves nothing behind (the table flushed; the module, which the test
# inserted, may stay); a missing ALGORITHM falls back to the unit's
# default; ADDRESSES=--hosts FILE fills the directory from that file;
# uninstall removes the package.  The device is named spz-u0 so that its instance
# name is escaped (spritz@spz\x2du0), as systemd-escape makes it.  Runs in
# the VM as root, module not loaded.
source "$(dirname "$0")/../lib/lib.sh"

require_root
ko=$(spritz_ko)
ctl=$SPRITZ_OUT/spritzctl
for f in "$ko" "$ctl"; do
	[ -e "$f" ] || { echo "# $f not built"; exit $KSFT_FAIL; }
done
[ -d /sys/module/spritz ] && { echo "# spritz already loaded"; exit $KSFT_FAIL; }
[ -e /usr/local/sbin/spritzctl ] && { echo "# spritzctl already installed"; exit $KSFT_FAIL; }

dev=spz-u0
inst='spz\x2du0'	# systemd-escape spz-u0
prefix=/usr/local
unit=$prefix/lib/systemd/system/spritz@.service
conf=/etc/spritz/$dev.conf
pins=/sys/fs/bpf/spritz

mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf
ip link del $dev 2>/dev/null
ip link add $dev type dummy && ip link set $dev up || exit $KSFT_FAIL

# ---------------------------------------------------------------- the unit
# systemd's reading of the unit, for the subset the unit uses; anything
# outside that subset (quotes, escapes, command prefixes) fails loudly
# rather than being read differently from systemd.

unit_keys() # KEY: every value of KEY= in [Service], in order
{
	sed -n '/^\[Service\]/,/^\[/p' "$unit" | sed -n "s/^$1=//p"
}

# %I: the instance unescaped (\xHH -> byte); %i: as is; %% -> %
specifiers()
{
	local s=$1 unesc

	unesc=$(printf '%b' "$inst")
	s=${s//%%/$'\001'}
	s=${s//%I/$unesc}
	s=${s//%i/$inst}
	printf '%s' "${s//$'\001'/%}"
}

declare -A env

# Environment= (word list of NAME=VALUE) then EnvironmentFile= (overrides)
load_env()
{
	local line w k v f

	env=()
	while read -r line; do
		[[ $line == *[\"\'\\]* ]] && { echo "unsupported Environment=$line"; return 1; }
		for w in $line; do
			env[${w%%=*}]=${w#*=}
		done
	done < <(unit_keys Environment)
	f=$(specifiers "$(unit_keys EnvironmentFile)")
	[[ $f == -* ]] && { echo "EnvironmentFile is optional in the unit: $f"; return 1; }
	[ -r "$f" ] || { echo "failed to read EnvironmentFile $f"; return 1; }
	while IFS= read -r line; do
		line=${line#"${line%%[![:space:]]*}"}
		case $line in ''|'#'*|';'*) continue ;; esac
		[[ $line == *=* ]] || { echo "$f: not KEY=VALUE: $line"; return 1; }
		k=${line%%=*}
		v=${line#*=}
		k=${k%"${k##*[![:space:]]}"}
		v=${v#"${v%%[![:space:]]*}"}
		v=${v%"${v##*[![:space:]]}"}
		if [[ $v =~ ^\"(.*)\"$ || $v =~ ^\'(.*)\'$ ]]; then
			v=${BASH_REMATCH[1]}
		fi
		[[ $v == *[\"\'\\]* ]] && { echo "$f: unsupported quoting: $line"; return 1; }
		env[$k]=$v
	done <"$f"
}

declare -a argv

# argv of the unit's KEY= (ExecStart, ExecStop) for the instance
command_line()
{
	local cmd w name

	argv=()
	cmd=$(unit_keys "$1")
	[ "$(wc -l <<<"$cmd")" -eq 1 ] || { echo "$1: not exactly one line"; return 1; }
	[[ $cmd == *[\"\'\\]* || $cmd == [-@+!:]* ]] && { echo "unsupported $1=$cmd"; return 1; }
	cmd=$(specifiers "$cmd")
	for w in $cmd; do
		if [[ $w =~ ^\$([A-Za-z_][A-Za-z0-9_]*)$ ]]; then
			name=${BASH_REMATCH[1]}
			# shellcheck disable=SC2206
			argv+=(${env[$name]:-})
		else
			while [[ $w =~ \$\{([A-Za-z_][A-Za-z0-9_]*)\} ]]; do
				name=${BASH_REMATCH[1]}
				w=${w//\$\{$name\}/${env[$name]:-}}
			done
			[[ $w == *'$'* ]] && { echo "unsupported variable use: $w"; return 1; }
			argv+=("$w")
		fi
	done
}

# run the unit's KEY= as systemd would: an empty environment but PATH
run_unit() # KEY
{
	load_env && command_line "$1" || return 1
	echo "$1: ${argv[*]}"
	env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${argv[@]}"
}

# ---------------------------------------------------------------- state

# nothing of Spritz's left but, perhaps, the module with an empty table
stopped()
{
	[ ! -e $pins ] || { echo "left: $(ls $pins)"; return 1; }
	[ ! -d /sys/module/spritz ] || [ "$(cat /sys/kernel/spritz/tables)" = 0 ] ||
		{ echo "table left"; return 1; }
	[ -z "$(tc filter show dev $dev ingress)" ] || { echo "ingress filter left"; return 1; }
	[ -z "$(tc filter show dev $dev egress)" ] || { echo "egress filter left"; return 1; }
	[ -z "$(bpftool prog list | grep spritz_)" ] || { echo "programs left"; return 1; }
	[ -z "$(bpftool link list)" ] || { echo "links left: $(bpftool link list)"; return 1; }
}

# stopped, and the module removed
clean()
{
	stopped && spritz_rmmod && [ ! -d /sys/module/spritz ]
}

# up on $dev with the example's settings, algorithm $1, $2 directory
# entries (default: the plan's, one per switch)
is_up()
{
	local m n i want=${2:-36}

	for m in spritz_dir spritz_udp spritz_flows spritz_stats; do
		[ -e $pins/$m ] || { echo "$m not pinned"; return 1; }
	done
	[ "$(cat /sys/kernel/spritz/tables)" -gt 0 ] || { echo "no table"; return 1; }
	[ "$(cat /sys/kernel/spritz/algorithm)" = "$1" ] ||
		{ echo "algorithm $(cat /sys/kernel/spritz/algorithm), want $1"; return 1; }
	# dragonfly:p=2,a=4,h=2 has 36 switches
	n=$(bpftool map dump pinned $pins/spritz_dir | grep -c dst_switch)
	[ "$n" -eq "$want" ] || { echo "directory: $n entries, want $want"; return 1; }
	# attached to the device: tcx links pinned per ifindex, or clsact filters
	i=$(cat /sys/class/net/$dev/ifindex)
	if [ ! -e $pins/link_${i}_egress ] || [ ! -e $pins/link_${i}_ingress ]; then
		tc filter show dev $dev egress | grep -q spritz_egress &&
		tc filter show dev $dev ingress | grep -q spritz_ingress ||
			{ echo "not attached to $dev: $(ls $pins)"; return 1; }
	fi
}

# ---------------------------------------------------------------- tests

install_pkg()
{
	make -s -C "$SPRITZ_TOP" OUT="$SPRITZ_OUT" -o "$ctl" install PREFIX=$prefix || return 1
	install -m 0644 $prefix/share/doc/spritz/spritz.conf.example "$conf"
}

verify()
{
	command -v systemd-analyze >/dev/null || { echo "no systemd-analyze"; return 4; }
	# the device unit exists only under a running systemd: that warning aside,
	# nothing may be reported
	systemd-analyze verify "spritz@$inst.service" 2>&1 | tee "$tmp/verify"
	[ "${PIPESTATUS[0]}" -eq 0 ] || return 1
	! grep -v "sys-subsystem-net-devices" "$tmp/verify" | grep -q .
}

expansion()
{
	load_env && command_line ExecStart || return 1
	local want=("$prefix/sbin/spritzctl" up --dev "$dev" --topo "dragonfly:p=2,a=4,h=2"
		--switch 3 --addr-plan fd00::/16 --algorithm scout)
	[ "${argv[*]}" = "${want[*]}" ] && [ ${#argv[@]} -eq ${#want[@]} ] ||
		{ echo "ExecStart: ${argv[*]}"; return 1; }
	command_line ExecStop && [ "${argv[*]}" = "$prefix/sbin/spritzctl down --dev $dev" ] ||
		{ echo "ExecStop: ${argv[*]}"; return 1; }
}

start_stop()
{
	sed -i 's/^ALGORITHM=.*/ALGORITHM=flicr/' "$conf"
	spritz_insmod && run_unit ExecStart || return 1
	is_up flicr || { run_unit ExecStop; return 1; }
	run_unit ExecStop && clean
}

default_algorithm()
{
	sed -i '/^ALGORITHM=/d' "$conf"
	spritz_insmod && run_unit ExecStart || return 1
	is_up scout || { run_unit ExecStop; return 1; }
	run_unit ExecStop && clean
}

# ADDRESSES=--hosts FILE instead of the plan
hosts_file()
{
	printf '%s\n' '# three peers' 'fd00:5::/64 5' 'fd00:7::/64 7' 'fd00:9::2 9' >/etc/spritz/hosts
	sed -i 's|^ADDRESSES=.*|ADDRESSES=--hosts /etc/spritz/hosts|' "$conf"
	spritz_insmod && run_unit ExecStart || return 1
	is_up scout 3 || { run_unit ExecStop; return 1; }
	run_unit ExecStop && clean
}

uninstall_pkg()
{
	make -s -C "$SPRITZ_TOP" OUT="$SPRITZ_OUT" uninstall PREFIX=$prefix || return 1
	[ ! -e $prefix/sbin/spritzctl ] && [ ! -e "$unit" ] ||
		{ echo "files left"; return 1; }
	# the configuration stays
	[ -f "$conf" ]
}

tmp=$(mktemp -d)
ktap_header 7
run_test install install_pkg
run_test systemd_analyze_verify verify
run_test exec_lines_expand expansion
run_test execstart_up_execstop_clean start_stop
run_test algorithm_defaults_to_scout default_algorithm
run_test addresses_hosts_file hosts_file
run_test uninstall uninstall_pkg
"$prefix/sbin/spritzctl" down >/dev/null 2>&1
ip link del $dev
rm -rf "$tmp"
ktap_finish
