#!/bin/bash
# fps_netns.sh: the fps roles under emulation. `reckond run` starts an
# fps-server (ALC) and six fps-clients in network namespaces; the links
# of the odd clients to the server carry 133 ms each way (8 ms for the
# others), so their RTT is at least 266 ms. The server measures RTT only
# through the clients' echoes, and every error of that measurement
# (scheduling, the bridge) makes a sample longer, never shorter: so every
# non-zero RTT estimate of an odd shooter in shots-srv.csv must be >= 266
# ms and roll back >= round(266 / 16.67) = 16 frames, and every even
# shooter's estimate must be >= 16 ms. Also checks that the run wrote
# lagcomp-srv.csv with shots and registered hits, that the six clients
# (one game: same map, bots, seed, duration) loaded their tracks from
# the one game file reckond wrote for the repetition, and that the file
# is gone from the run directory at the end. Lower bounds only: no
# timing is asserted that a loaded machine could break.
#
# usage: fps_netns.sh BUILD_DIR   (exit 77 = skipped, reason printed)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../agents/lib.sh"
need_root

cat >"$tmp/fps.ini" <<INI
[scenario]
name = fps-netns
duration = 30s
seed = 3
results = $tmp/results

[host srv]
role = fps-server
args = --mode alc --port 47100 --duration 25

INI
for e in 0 1 2 3 4 5; do
	cat >>"$tmp/fps.ini" <<INI
[host c$e]
role = fps-client
args = --entity $e --server {addr:srv}:47100 --map dust --bots 6 --duration 25

INI
done
cat >>"$tmp/fps.ini" <<INI
[defaults]
link = delay 8ms

[link srv c1]
both = delay 133ms

[link srv c3]
both = delay 133ms

[link srv c5]
both = delay 133ms
INI

"$reckond" -n "$tmp/fps.ini" 2>"$tmp/err" || fail "scenario refused"
run_scenario "$tmp/fps.ini"
[ "$rc" -eq 0 ] || fail "reckond run exited $rc"
m=$rundir/lagcomp-srv.csv
s=$rundir/shots-srv.csv
[ -s "$m" ] && [ -s "$s" ] || fail "lagcomp-srv.csv or shots-srv.csv missing"

shots=$(awk -F, -v c="$(col "$m" shots)" 'NR == 2 { print $c }' "$m")
reg=$(awk -F, -v c="$(col "$m" registered)" 'NR == 2 { print $c }' "$m")
[ "$shots" -gt 0 ] || fail "no shots"
[ "$reg" -gt 0 ] || fail "no registered hits"

awk -F, -v sh="$(col "$s" shooter)" -v rtt="$(col "$s" shooter_rtt_ms)" \
	-v rb="$(col "$s" rollback)" '
NR == 1 || $rtt == 0 { next }
$sh % 2 == 1 {
	odd++
	if ($rtt < 266) { printf "odd shooter %d: RTT %s < 266\n", $sh, $rtt; bad++ }
	if ($rb < 16) { printf "odd shooter %d: %s frames < 16\n", $sh, $rb; bad++ }
}
$sh % 2 == 0 {
	even++
	if ($rtt < 16) { printf "even shooter %d: RTT %s < 16\n", $sh, $rtt; bad++ }
}
END {
	if (!odd || !even) { printf "shots with an RTT: odd %d even %d\n", odd, even; exit 1 }
	exit bad ? 1 : 0
}' "$s" >"$tmp/check" || fail "$(cat "$tmp/check")"
for e in 0 1 2 3 4 5; do
	grep -q "c$e: entity $e's track from $rundir/fps-game-0.bin (" \
		"$rundir/hosts/c$e.log" ||
		fail "c$e did not load its track from fps-game-0.bin: $(cat "$rundir/hosts/c$e.log")"
done
left=$(find "$rundir" -name 'fps-game-*')
[ -z "$left" ] || fail "game files left behind: $left"
pass "fps roles under emulation: $shots shots, $reg registered, RTT bounds hold"
