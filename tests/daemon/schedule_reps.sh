#!/usr/bin/env bash
# schedule_reps.sh: repetitions and [schedule]. Two repetitions write
# rep-1/ and rep-2/, the first with the scenario seed (42), the second with
# a different derived seed; in both the scheduled change of a>b to 60 ms
# happens 2 s after the start (changes.csv) and ping sees the round trip go
# from 20 ms to 70 ms.
#
#   ns a (10.77.0.1) ==veth== [hub: a>b 10ms, at 2s 60ms; b>a 10ms] ==veth== ns b (10.77.0.2)
#
. "$(dirname "$0")/lib.sh"
need_root
need_tool ping

run_fg schedule.ini
[ "$rc" -eq 0 ] || fail "reckond exited with $rc"
seeds=
for r in 1 2; do
	d=$rundir/rep-$r
	[ -f "$d/counters.json" ] || fail "no $d/counters.json"
	seeds="$seeds $(sed -n 's/.*"seed": \([0-9]*\).*/\1/p' "$d/counters.json")"
	t=$(awk -F, '$2 == "schedule" && $3 == "a" && $4 == "b" { print $1 }' "$d/changes.csv")
	# never early; late only by event-loop latency (bound: half a second)
	awk -v t="$t" 'BEGIN { exit !(t >= 2.0 && t < 2.5) }' || fail "rep $r: change at '$t' s, expected 2 s"
	rtts=$(sed -n 's/.*time=\([0-9.]*\) ms.*/\1/p' "$d/hosts/a.log")
	early=$(echo "$rtts" | head -n 9 | sort -n | sed -n 5p)
	late=$(echo "$rtts" | tail -n 9 | sort -n | sed -n 5p)
	# never less than 20 and 70 ms (netem is never early); a loaded
	# machine only adds: under the midpoint (45 ms) before, 140 ms after
	awk -v e="$early" -v l="$late" 'BEGIN { exit !(e >= 19.5 && e < 45 && l >= 69.5 && l < 140) }' ||
		fail "rep $r: median RTT $early -> $late ms, expected ~20 -> ~70"
	echo "rep $r: change at $t s, RTT $early -> $late ms"
done
set -- $seeds
[ "$1" = 42 ] || fail "rep 1 seed $1, expected the scenario seed 42"
[ -n "${2:-}" ] && [ "$2" != 42 ] || fail "rep 2 seed '${2:-}' not derived"
grep -q "repetition 2/2, seed $2" "$rundir/reckond.log" || fail "reckond.log lacks rep 2's seed"
pass "2 repetitions (seeds $1, $2), schedule applied at 2 s in each"
