#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# spritzctl reload and show (Documentation/spritzctl.8) on two network
# namespaces joined by a veth pair: the sender (switch 3) runs Spritz on its
# eth0, entered with nsenter --net, with a --hosts file of IPv6 and IPv4
# entries.  An IPv6 TCP transfer runs while reload swaps the table six
# times (every table, one device's with another link model, one switch's
# with the directory refreshed, the algorithm changed and back): it ends
# with the exact byte count and checksum, without a reset, steered, and the
# table generation went up by at least six.  A reload to a topology with
# other EVs from switch 3 to switch 5, during a Scout transfer: packets on
# EVs only the old list has before it (captured after tc), none once it
# has returned.  Refused reloads change nothing; a device moved to another
# switch takes its flows along.  show paths, flows and stats -j match the
# documented schema (types and keys, checked with jq); IPv4 UDP to a
# carrier port is steered, IPv4 TCP is not.  Runs in the VM as root,
# module not loaded.
source "$(dirname "$0")/spritzctl-lib.sh"

py=/usr/bin/python3
[ -x $py ] || { echo "# SKIP: no python3"; exit $KSFT_SKIP; }
hosts=/tmp/spritz-hosts
cat >$hosts <<HOSTS
# switch 3: the sender, switch 5: the receiver
fd00:3::/64 3
fd00:5::/64 5
10.0.3.0/24 3
10.0.5.0/24 5
HOSTS

setup()
{
	local ma mb

	ip netns add spza && ip netns add spzb || return 1
	ip link add name eth0 index 3301 netns spza type veth peer name eth0 index 3302 \
		netns spzb || return 1
	ns spza ip link set eth0 up && ns spzb ip link set eth0 up || return 1
	ns spza ip addr add fd00:3::1/128 dev eth0 nodad
	ns spza ip addr add 10.0.3.1/32 dev eth0
	ns spza ip route add fd00:5::/64 dev eth0
	ns spza ip route add 10.0.5.0/24 dev eth0
	ns spzb ip addr add fd00:5::1/128 dev eth0 nodad
	ns spzb ip addr add 10.0.5.1/32 dev eth0
	ns spzb ip route add fd00:3::/64 dev eth0
	ns spzb ip route add 10.0.3.0/24 dev eth0
	ns spza "$ctl" up --dev eth0 --topo $topo --switch 3 --hosts $hosts || return 1
	[ "$(tables | cut -d: -f1)" = 3 ] || { echo "tables: $(tables)"; return 1; }
	[ "$(devs)" = 3301:3 ] || { echo "devs: $(devs)"; return 1; }
	# static neighbours: no resolution delay on the first packets
	ma=$(ns spza ip -j link show eth0 | jq -r '.[0].address')
	mb=$(ns spzb ip -j link show eth0 | jq -r '.[0].address')
	ns spza ip neigh add fd00:5::1 lladdr $mb dev eth0 nud permanent &&
	ns spza ip neigh add 10.0.5.1 lladdr $mb dev eth0 nud permanent &&
	ns spzb ip neigh add fd00:3::1 lladdr $ma dev eth0 nud permanent &&
	ns spzb ip neigh add 10.0.3.1 lladdr $ma dev eth0 nud permanent
}

gen3()
{
	"$ctl" show paths --switch 3 -j | jq '.tables[0].generation'
}

# The transfer: 16 KiB every 2 ms, at least 1 MiB, until the stop file
# exists; both ends print byte count and SHA-256.
tx_cmd=("$stream" tx fd00:5::1 5001 --stop /tmp/spritz-stop
	--every 2 --min $((1 << 20)))

reload_tcp()
{
	local g0 g1 i rc=0 rx tx variants

	variants=(
		"ns spza $ctl reload --topo $topo"
		"ns spza $ctl reload --dev eth0 --topo $topo --global-ns 700"
		"$ctl reload --switch 3 --topo $topo --hosts $hosts"
		"$ctl reload --topo $topo --algorithm spray"
		"ns spza $ctl reload --dev eth0 --topo $topo --switch 3 --global-ns 900"
		"$ctl reload --topo $topo --algorithm scout"
	)
	g0=$(gen3)
	rm -f /tmp/spritz-stop
	rx_start 5001 /tmp/spritz-rx
	rx=$!
	listening 5001 || rc=1
	ns spza "${tx_cmd[@]}" >/tmp/spritz-tx &
	tx=$!
	receiving 5001 || rc=1
	for i in "${!variants[@]}"; do
		kill -0 $tx 2>/dev/null || { echo "sender ended before reload $i"; rc=1; }
		${variants[$i]} || { echo "reload $i failed: ${variants[$i]}"; rc=1; }
		sleep 0.3
	done
	touch /tmp/spritz-stop
	wait $tx
	wait $rx
	g1=$(gen3)
	echo "sent: $(cat /tmp/spritz-tx); received: $(cat /tmp/spritz-rx); generation $g0 -> $g1"
	read -r txn _ txh txe </tmp/spritz-tx
	read -r rxn rxh rxe </tmp/spritz-rx
	[ "$txe" = ok ] && [ "$rxe" = eof ] || { echo "connection failed"; rc=1; }
	[ -n "$txn" ] && [ "$txn" = "$rxn" ] && [ "$txh" = "$rxh" ] ||
		{ echo "bytes differ"; rc=1; }
	[ "$g1" -ge $((g0 + ${#variants[@]})) ] || { echo "generation $g0 -> $g1"; rc=1; }
	# the transfer was steered: the flow with its switches, label writes
	"$ctl" show flows -j | jq -e '[.flows[] | select(.proto == "tcp" and
		.saddr == "fd00:3::1" and .daddr == "fd00:5::1" and .dport == 5001 and
		.src_switch == 3 and .dst_switch == 5 and .packets > 0 and
		(.last_ev | type == "number"))] | length == 1' >/dev/null ||
		{ echo "flow: $("$ctl" show flows)"; rc=1; }
	[ "$(counter eg_rewrites)" -gt 0 ] || { echo "no EV written"; rc=1; }
	[ "$(cat /sys/kernel/spritz/algorithm)" = scout ] || { echo "algorithm"; rc=1; }
	rm -f /tmp/spritz-stop /tmp/spritz-rx /tmp/spritz-tx
	return $rc
}

# Outgoing IPv6 TCP data to port 5001 on eth0 (AF_PACKET, as the device
# hands them to the wire, after tc): "REALTIME_S FLOW_LABEL" per packet,
# until /tmp/spritz-cap-stop exists.  The stamp is taken in the same RCU
# section as the egress program's run.
cap_py='
import os, socket, struct
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))  # ETH_P_ALL: outgoing too
s.bind(("eth0", 0)); s.setsockopt(socket.SOL_SOCKET, 35, 1)  # SO_TIMESTAMPNS
s.settimeout(0.2)
print("ready", flush=True)
while not os.path.exists("/tmp/spritz-cap-stop"):
    try: d, anc, _, addr = s.recvmsg(256, 64)
    except socket.timeout: continue
    if addr[2] != socket.PACKET_OUTGOING or len(d) < 74 or d[12:14] != b"\x86\xdd" or d[20] != 6: continue
    if struct.unpack("!H", d[56:58])[0] != 5001: continue
    plen = struct.unpack("!H", d[18:20])[0]; doff = (d[66] >> 4) * 4
    if plen <= doff: continue
    ts = [struct.unpack("qq", c[2][:16]) for c in anc if c[0] == socket.SOL_SOCKET and c[1] == 35]
    if not ts: continue
    print("%d.%09d %d" % (ts[0][0], ts[0][1], struct.unpack("!I", d[14:18])[0] & 0xfffff), flush=True)'

evs() # TOPO: the EVs of switch 3 to switch 5, one a line
{
	"$ctl" -j paths "$1" --switch 3 --dst 5 | jq '.paths[].ev'
}

# A data packet captured after time T (seconds), within 30 s.
captured_after() # T
{
	local i

	for ((i = 1; i <= 300; i++)); do
		awk -v t="$1" '$1 != "ready" && $1 + 0 > t { f = 1 } END { exit !f }' \
			/tmp/spritz-cap && return 0
		sleep 0.1
	done
	return 1
}

# reload to a topology that shares no EV from switch 3 to switch 5 with
# the old one, while a Scout flow (good paths cached) runs: every packet
# before the reload has an EV the new list lacks; once reload has
# returned, none does, and the transfer completes.
reload_stale_ev()
{
	local new=dragonfly:p=2,a=3,h=2 cap rx tx t0 t1 rc=0 old_only before after

	old_only=$(comm -23 <(evs $topo | sort) <(evs $new | sort) | xargs)
	[ "$old_only" = "$(evs $topo | sort | xargs)" ] ||
		{ echo "EV lists of $topo and $new share EVs"; return 1; }
	"$ctl" set algorithm scout || return 1
	rm -f /tmp/spritz-stop /tmp/spritz-cap-stop
	ns spza $py -u -c "$cap_py" >/tmp/spritz-cap &
	cap=$!
	rx_start 5001 /tmp/spritz-rx
	rx=$!
	for ((_n = 1; _n <= 50; _n++)); do grep -q ready /tmp/spritz-cap && break; sleep 0.1; done
	listening 5001 || rc=1
	ns spza "${tx_cmd[@]}" >/tmp/spritz-tx &
	tx=$!
	captured_after 0 || { echo "no packet captured before the reload"; rc=1; }
	sleep 0.5
	t0=$(date +%s.%N)
	ns spza "$ctl" reload --dev eth0 --topo $new || { echo "reload failed"; rc=1; }
	t1=$(date +%s.%N)
	captured_after "$t1" || { echo "no packet captured after the reload"; rc=1; }
	sleep 0.5
	touch /tmp/spritz-stop
	wait $tx
	wait $rx
	touch /tmp/spritz-cap-stop
	wait $cap
	read -r txn _ txh txe </tmp/spritz-tx
	read -r rxn rxh rxe </tmp/spritz-rx
	[ "$txe" = ok ] && [ "$rxe" = eof ] && [ "$txn" = "$rxn" ] && [ "$txh" = "$rxh" ] ||
		{ echo "transfer: sent $(cat /tmp/spritz-tx); received $(cat /tmp/spritz-rx)"; rc=1; }
	# old-only EVs before the reload (the flow used them, so the check
	# below can fail: the lists share nothing), none once it has returned
	before=$(awk -v t="$t0" -v o=" $old_only " '$1 + 0 < t && index(o, " " $2 " ")' \
		/tmp/spritz-cap | wc -l)
	after=$(awk -v t="$t1" -v o=" $old_only " '$1 + 0 > t && index(o, " " $2 " ")' \
		/tmp/spritz-cap | wc -l)
	echo "old-only EVs ($old_only): $before packets before the reload, $after after;" \
		"$(awk -v t="$t1" '$1 + 0 > t' /tmp/spritz-cap | wc -l) packets after"
	[ "$before" -gt 0 ] || { echo "no packet on an old-only EV before the reload"; rc=1; }
	[ "$after" -eq 0 ] || { echo "stale EVs after the reload:";
		awk -v t="$t1" -v o=" $old_only " '$1 + 0 > t && index(o, " " $2 " ")' \
			/tmp/spritz-cap | head -5; rc=1; }
	ns spza "$ctl" reload --dev eth0 --topo $topo || rc=1
	rm -f /tmp/spritz-stop /tmp/spritz-rx /tmp/spritz-tx /tmp/spritz-cap /tmp/spritz-cap-stop
	return $rc
}

counter() # NAME
{
	"$ctl" show stats -j | jq ".counters.$1"
}

# what reload may change
snapshot()
{
	tables
	devs
	bpftool map dump pinned $pins/spritz_dir
	cat /sys/kernel/spritz/algorithm
}

reload_refused()
{
	local a rc=0 bad=/tmp/spritz-hosts-bad

	a=$(snapshot)
	printf 'fd00:3::/64 3\nfd00:5::/64 5 x\n' >$bad
	expect 2 "failed to reload switch 99: switch id out of range (topology has 36" \
		"$ctl" reload --topo $topo --switch 99 || rc=1
	expect 1 "no device is up with switch 7" "$ctl" reload --topo $topo --switch 7 || rc=1
	expect 2 "failed to parse hosts file $bad:2: expected" \
		"$ctl" reload --topo $topo --hosts $bad || rc=1
	expect 1 "failed to reload spritz on lo: not up on lo" \
		ns spza "$ctl" reload --dev lo --topo $topo || rc=1
	expect 1 "failed to find device nosuch" "$ctl" reload --dev nosuch --topo $topo || rc=1
	expect 2 "failed to parse topology" "$ctl" reload --topo dragonfly:p=2 || rc=1
	expect 2 "failed to parse reload arguments: --topo is required" "$ctl" reload || rc=1
	expect 2 "exclude each other" "$ctl" reload --topo $topo --hosts $hosts \
		--addr-plan fd00::/16 || rc=1
	expect 1 "failed to reload spritz: permission denied (must be root)" \
		nobody "$ctl" reload --topo $topo || rc=1
	# a topology without switch 5: the directory still maps fd00:5::/64 to it
	expect 2 "the directory maps a prefix to switch 5" \
		"$ctl" reload --topo dragonfly:p=1,a=1,h=3 --switch 3 || rc=1
	[ "$a" = "$(snapshot)" ] || { echo "state changed:"; diff <(echo "$a") <(snapshot); rc=1; }
	rm -f $bad
	return $rc
}

# IPv4: UDP to a carrier port is steered (source port = EV), TCP is not.
ipv4()
{
	local udp0 tcp0 rc=0

	udp0=$(counter eg_managed_udp)
	tcp0=$(counter un_tcp4)
	ns spza $py -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("10.0.3.1", 40000))
for i in range(4): s.sendto(b"x" * 64, ("10.0.5.1", 4789))
t = socket.socket(socket.AF_INET); t.settimeout(2)
try: t.connect(("10.0.5.1", 5002))
except Exception: pass' || return 1
	[ "$(counter eg_managed_udp)" -ge $((udp0 + 4)) ] || { echo "udp not managed"; rc=1; }
	[ "$(counter un_tcp4)" -gt "$tcp0" ] || { echo "tcp4 not counted"; rc=1; }
	"$ctl" show flows -j | jq -e '[.flows[] | select(.proto == "udp" and
		.saddr == "10.0.3.1" and .sport == 40000 and .daddr == "10.0.5.1" and
		.dport == 4789 and .src_switch == 3 and .dst_switch == 5 and
		.packets == 4)] | length == 1' >/dev/null ||
		{ echo "udp flow: $("$ctl" show flows)"; rc=1; }
	return $rc
}

# -j schemas of spritzctl.8: required keys with their types.
show_json()
{
	local out names rc=0

	out=$("$ctl" show paths -j) || return 1
	jq -e 'keys == ["tables"] and (.tables | length == 1) and all(.tables[];
		(keys == ["destinations", "generation", "num_switches", "src_switch"]) and
		(.src_switch == 3) and (.num_switches == 36) and (.generation | type == "number") and
		(.destinations | length == 35) and all(.destinations[];
			(keys == ["dst", "paths"]) and (.dst | type == "number") and
			(.paths | length > 0) and all(.paths[];
				(keys == ["base_weight", "disabled_ms", "disables", "ev", "ev1",
					  "ev2", "lat_class", "picks", "timeouts", "weight"]) and
				all(.[]; type == "number") and .ev == .ev1 * 256 + .ev2 and
				.base_weight >= 1)))' <<<"$out" >/dev/null ||
		{ echo "paths: $(head -c 600 <<<"$out")"; rc=1; }
	jq -e '[.tables[].destinations[].paths[].picks] | add > 0' <<<"$out" >/dev/null ||
		{ echo "no picks counted"; rc=1; }
	out=$("$ctl" show paths -j --switch 3 --dst 5) || return 1
	jq -e '[.tables[].destinations[].dst] == [5]' <<<"$out" >/dev/null ||
		{ echo "--dst 5: $out"; rc=1; }
	out=$("$ctl" show paths -j --switch 4) || return 1
	[ "$out" = '{"tables":[]}' ] || { echo "--switch 4: $out"; rc=1; }
	out=$("$ctl" show flows -j) || return 1
	jq -e 'keys == ["flows"] and (.flows | length >= 2) and all(.flows[];
		(keys == ["algorithm", "buffer", "bytes", "daddr", "dport", "dst_switch",
			  "inflight", "last_ev", "last_lat_class", "packets", "proto", "saddr",
			  "slot", "sport", "src_switch"]) and
		(.proto | IN("tcp", "udp")) and (.saddr | type == "string") and
		(.daddr | type == "string") and (.algorithm | type == "string") and
		all(.sport, .dport, .src_switch, .dst_switch, .packets, .bytes, .inflight, .slot;
		    type == "number") and (.slot >= 0 and .slot < 65536) and
		(.last_ev | type | IN("number", "null")) and
		(.last_lat_class | type | IN("number", "null")) and
		(.buffer | type == "array") and all(.buffer[];
			keys == ["ecn_count", "ev", "lat_class"] and all(.[]; type == "number")))' \
		<<<"$out" >/dev/null || { echo "flows: $(head -c 600 <<<"$out")"; rc=1; }
	# no path disabled here, so no peer counted (kmod/failover counts one)
	out=$("$ctl" show peers -j) || return 1
	[ "$out" = '{"peers":[]}' ] || { echo "peers: $out"; rc=1; }
	out=$("$ctl" show stats -j) || return 1
	# every counter of struct spritz_stats in include/spritz/maps.h, in order
	names=$(sed -n '/^struct spritz_stats {/,/^};/s/^\t__u64 \([a-z0-9_]*\);.*/\1/p' \
		"$SPRITZ_TOP/include/spritz/maps.h")
	jq -e 'keys == ["counters", "cpus"] and (.cpus | type == "number") and .cpus >= 1 and
		all(.counters[]; type == "number" and . >= 0) and .counters.eg_packets > 0' \
		<<<"$out" >/dev/null || { echo "stats: $out"; rc=1; }
	[ "$(jq -r '.counters | keys_unsorted[]' <<<"$out")" = "$names" ] ||
		{ echo "counter names differ from maps.h"; rc=1; }
	return $rc
}

show_human()
{
	local out rc=0

	out=$("$ctl" show paths --switch 3 --dst 5) || return 1
	head -2 <<<"$out" | grep -q '^table of switch 3: generation [0-9]*, 36 switches$' ||
		{ echo "$out"; rc=1; }
	[ "$(tail -n +3 <<<"$out" | awk '{print $1}' | sort -u)" = 5 ] || { echo "$out"; rc=1; }
	out=$("$ctl" show flows) || return 1
	grep -q '^tcp *\[fd00:3::1\]:[0-9]* *\[fd00:5::1\]:5001 *3>5 ' <<<"$out" ||
		{ echo "$out"; rc=1; }
	grep -q '^udp *10.0.3.1:40000 *10.0.5.1:4789 *3>5 ' <<<"$out" || { echo "$out"; rc=1; }
	out=$("$ctl" show stats) || return 1
	grep -Eq '^eg_rewrites +[1-9][0-9]*$' <<<"$out" || { echo "$out"; rc=1; }
	return $rc
}

show_non_root()
{
	nobody "$ctl" show paths -j >/dev/null || { echo "show paths as nobody"; return 1; }
	expect 1 "failed to show flows: permission denied (must be root)" \
		nobody "$ctl" show flows || return 1
	expect 1 "failed to show peers: permission denied (must be root)" \
		nobody "$ctl" show peers || return 1
	expect 1 "failed to show stats: permission denied (must be root)" \
		nobody "$ctl" show stats
}

# reload --dev --switch moves a device: the old table goes (no other
# device uses it), the device's flows restart from the new switch.
move()
{
	local rc=0

	ns spza "$ctl" reload --dev eth0 --topo $topo --switch 4 || return 1
	[ "$(devs)" = 3301:4 ] || { echo "devs: $(devs)"; rc=1; }
	[ "$(tables | cut -d: -f1 | xargs)" = 4 ] || { echo "tables: $(tables)"; rc=1; }
	"$ctl" show flows -j | jq -e '[.flows[] | select(.src_switch == 3)] | length == 0' \
		>/dev/null || { echo "flows of switch 3 left: $("$ctl" show flows)"; rc=1; }
	ns spza $py -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("10.0.3.1", 40001))
for i in range(3): s.sendto(b"x" * 64, ("10.0.5.1", 4789))' || rc=1
	"$ctl" show flows -j | jq -e '[.flows[] | select(.sport == 40001 and .src_switch == 4 and
		.dst_switch == 5 and .packets == 3 and (.last_ev | type == "number"))] |
		length == 1' >/dev/null || { echo "flow: $("$ctl" show flows)"; rc=1; }
	ns spza "$ctl" reload --dev eth0 --topo $topo --switch 3 || rc=1
	[ "$(tables | cut -d: -f1 | xargs)" = 3 ] || { echo "tables: $(tables)"; rc=1; }
	return $rc
}

# Every command: --help on stdout, exit 0, the exit codes named; an
# unknown option and an option without its value: exit 2, one error line
# in the documented form.
help()
{
	local c out

	for c in topo paths memory up down reload set get show; do
		out=$("$ctl" $c --help) || { echo "$c --help failed"; return 1; }
		grep -q "^usage: spritzctl $c" <<<"$out" && grep -q "^exit status: 0 ok, 1 failure, 2 usage" \
			<<<"$out" || { echo "$c --help: $out"; return 1; }
		expect 2 "^spritzctl: failed to parse $c arguments: unknown option \"--bogus\"" \
			"$ctl" $c --bogus || return 1
	done
	for c in "topo --speed" "paths --switch" "memory --packet" "up --dev" "down --dev" \
		"reload --topo" "show paths --dst"; do
		expect 2 "^spritzctl: failed to parse ${c%% *} arguments: option \"${c##* }\" needs a value" \
			"$ctl" $c || return 1
	done
	expect 2 "^spritzctl: failed to parse arguments: unknown command \"nosuch\"" "$ctl" nosuch ||
		return 1
	expect 2 "^spritzctl: failed to parse arguments: unknown option \"--bogus\"" "$ctl" --bogus
}

down_all()
{
	ns spza "$ctl" down || return 1
	expect 1 "failed to reload spritz: spritz is not up" "$ctl" reload --topo $topo || return 1
	expect 1 "failed to show flows: spritz is not up" "$ctl" show flows || return 1
	expect 1 "failed to show peers: spritz is not up" "$ctl" show peers || return 1
	clean
}

ktap_header 11
run_test setup setup || { ktap_finish; }
run_test reload_during_tcp reload_tcp
run_test reload_refused_changes_nothing reload_refused
run_test ipv4_udp_steered_tcp_not ipv4
run_test show_json show_json
run_test show_human show_human
run_test show_non_root show_non_root
run_test reload_no_stale_ev reload_stale_ev
run_test reload_moves_device move
run_test help help
run_test down down_all
ip netns del spza
ip netns del spzb
ip link del $dev
rm -f $hosts
ktap_finish
