#!/usr/bin/env bash
# client_server.sh: the client-server topology through reckond. A player
# sends to the relay, which forwards every valid update to two observers,
# so each update crosses two impaired links. Counters must agree at every
# hop: the relay accepts what the p1>srv link delivered, forwards each
# accepted update once per observer (= what entered srv>obs1 and
# srv>obs2), and each observer receives what its link delivered.
#
#   ns p1 --loss 5%--> ns srv (relay) --loss 5%--> ns obs1
#                                     --delay 20ms--> ns obs2
. "$(dirname "$0")/lib.sh"
need_root
need_tool ip

"$agent" trace gen --map dust --bots 4 --duration 6 --seed 9 \
	-o "$tmp/t.csv" >/dev/null 2>&1 || fail "trace gen failed"
lanes="--predictor dis:pos_threshold=5 --predictor led"
cat >"$tmp/cs.ini" <<INI
[scenario]
name = agents-client-server
duration = 12s
seed = 9

[host p1]
role = player
args = --trace $tmp/t.csv $lanes --topology client-server --to {addr:srv}

[host srv]
role = relay
args = $lanes --to {addr:obs1} --to {addr:obs2} --stop-after 8

[host obs1]
role = observer
args = --trace $tmp/t.csv $lanes --topology client-server --linger 1

[host obs2]
role = observer
args = --trace $tmp/t.csv $lanes --topology client-server --linger 1

[link p1 srv]
forward = loss 5%

[link srv obs1]
forward = loss 5%

[link srv obs2]
forward = delay 20ms
INI
run_scenario "$tmp/cs.ini"
[ "$rc" -eq 0 ] || fail "reckond exited with $rc"
c=$rundir/counters.csv
counter() {
	awk -F, -v s="$1" -v d="$2" -v k="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["src"] == s && $col["dst"] == d { print $col[k] }' "$c"
}
total() { # total FILE COLUMN
	awk -F, -v c="$(col "$1" "$2")" 'NR > 1 { s += $c } END { print s + 0 }' "$1"
}
for h in p1 srv obs1 obs2; do
	[ -s "$rundir/metrics-$h.csv" ] || fail "no metrics-$h.csv"
done
sent=$(total "$rundir/metrics-p1.csv" datagrams)
relay_in=$(total "$rundir/metrics-srv.csv" received)
relay_out=$(total "$rundir/metrics-srv.csv" datagrams)
[ "$sent" -gt 100 ] || fail "player sent only $sent"
[ "$sent" -eq "$(counter p1 srv in)" ] || fail "sent $sent != p1>srv in"
[ "$relay_in" -eq "$(counter p1 srv delivered)" ] ||
	fail "relay accepted $relay_in, p1>srv delivered $(counter p1 srv delivered)"
[ "$relay_out" -eq $((2 * relay_in)) ] || fail "relay sent $relay_out for $relay_in"
for o in obs1 obs2; do
	got=$(total "$rundir/metrics-$o.csv" received)
	[ "$(counter srv "$o" in)" -eq "$relay_in" ] ||
		fail "srv>$o in = $(counter srv "$o" in), relay accepted $relay_in"
	[ "$got" -eq "$(counter srv "$o" delivered)" ] ||
		fail "$o received $got, srv>$o delivered $(counter srv "$o" delivered)"
	echo "$o: received $got of $relay_in relayed ($sent sent)"
done
pass "client-server: counts agree at both hops"
