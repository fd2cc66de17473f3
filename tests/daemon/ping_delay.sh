#!/usr/bin/env bash
# ping_delay.sh: the bridge delays each direction by 25 ms. netem never
# delivers early, so every round trip takes at least 50 ms; scheduling on
# a busy machine only makes it later, so the upper bound is loose: the
# median must stay under 75 ms, which a delay applied twice (100 ms) or in
# one direction only (25 ms) fails. How close it gets to 50 ms is a figure
# (tests/bridge/bench_delay.sh), not a pass/fail check.
#
#   ns a (10.77.0.1) eth0 ==veth== rk0 [hub: bridge, delay 25ms] rk1 ==veth== eth0 ns b (10.77.0.2)
#
. "$(dirname "$0")/lib.sh"
need_root
need_tool ping

run_fg ping-delay.ini
[ "$rc" -eq 0 ] || fail "reckond exited with $rc"
log=$rundir/hosts/a.log
n=$(grep -c 'time=' "$log")
[ "$n" -ge 95 ] || fail "only $n replies of 100 (no loss configured)"
min=$(sed -n 's/.*time=\([0-9.]*\) ms.*/\1/p' "$log" | sort -n | head -n 1)
median=$(sed -n 's/.*time=\([0-9.]*\) ms.*/\1/p' "$log" | sort -n |
	awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
awk -v a="$min" -v m="$median" 'BEGIN { exit !(a >= 50 && m < 75) }' ||
	fail "RTT min $min ms, median $median ms: expected min >= 50 ms, median < 75 ms"
pass "RTT min $min ms, median $median ms over $n replies (min >= 50 ms, median < 75 ms)"
