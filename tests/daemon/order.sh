#!/usr/bin/env bash
# order.sh: one host's datagrams arrive in the order it sent them, across
# its sockets, through a delay-only link, and no host waits for ARP.
#
#   ns tx eth0 ==veth== rk1 [hub: bridge; tx>rx delay 5ms] rk0 ==veth== eth0 ns rx
#                            rk2 ==veth== eth0 ns peer (lists its neighbours)
#
# tx (udp_blast send, two sockets in turn) sends 2,000 numbered datagrams
# in bursts of 50, 5 us apart, every 10 ms from its first instant; rx
# counts those that arrive after a higher number. A fixed delay keeps the
# order, as netem's does, so the count must be 0 in each of 8
# repetitions. Before reckond gave every host permanent ARP entries for
# its peers, a host's first datagrams queued for the ARP round trip and
# were flushed while later ones went straight out: 30 to 44 arrived out
# of order in 5 of 24 repetitions (at least one in each of 3 runs of 8),
# none in 24 with the entries.
# peer's `ip neigh` must list both others as PERMANENT at their MACs.
. "$(dirname "$0")/lib.sh"
need_root
need_tool ip
blast=$build/tests/bridge/bridge_udp_blast
[ -x "$blast" ] || fail "$blast not built"

n=2000
reps=8
cat >"$tmp/order.ini" <<INI
[scenario]
name = order
duration = 8s
seed = 1
repetitions = $reps

[host rx]
exec = $blast recv 9000 $n 5 5000000

[host tx]
exec = "sh -c 'sleep 0.5; exec $blast send {addr:rx} 9000 5000 $n 64 2 50 5'"

[host peer]
exec = ip -4 neigh show dev eth0

[link tx rx]
forward = delay 5ms
INI
run_fg "$tmp/order.ini"
[ "$rc" -eq 0 ] || fail "reckond exited with $rc"
mac() { printf '02:72:6b:00:%02x:01' "$1"; }
for rep in $(seq $reps); do
	d=$rundir/rep-$rep/hosts
	line=$(grep '^received=' "$d/rx.log") || fail "repetition $rep: rx printed no result"
	echo "repetition $rep: $line"
	case $line in
	"received=$n "*) ;;
	*) fail "repetition $rep: not all $n datagrams arrived: $line" ;;
	esac
	case $line in
	*" out_of_order=0") ;;
	*) fail "repetition $rep: datagrams arrived out of their order: $line" ;;
	esac
	# host indices follow the file: rx 0, tx 1, peer 2
	for h in "10.77.0.1 $(mac 0)" "10.77.0.2 $(mac 1)"; do
		set -- $h
		grep -q "^$1 lladdr $2 PERMANENT" "$d/peer.log" ||
			fail "repetition $rep: peer has no permanent entry for $1 at $2: $(cat "$d/peer.log")"
	done
done
pass "$n datagrams from two sockets in order in each of $reps repetitions; permanent neighbour entries"
