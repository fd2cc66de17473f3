#!/usr/bin/env bash
# ping_delay.sh: the bridge delays each direction by 25 ms, so ping's
# median round trip must be within 1 ms of 50 ms.
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
median=$(sed -n 's/.*time=\([0-9.]*\) ms.*/\1/p' "$log" | sort -n |
	awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
awk -v m="$median" 'BEGIN { exit !(m >= 49 && m <= 51) }' ||
	fail "median RTT $median ms, expected 50 +- 1 ms"
pass "median RTT $median ms over $n replies (expected 50 +- 1 ms)"
