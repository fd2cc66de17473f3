#!/usr/bin/env bash
# link_trace.sh: a [link] trace moves the delay at 3 s from 10 ms to 40 ms
# each way, from the run's start (the hosts' common t0). Pings sent every
# 50 ms: those sent well before 3 s must see a median RTT of at least
# 20 ms, those sent well after it at least 80 ms (netem never delivers
# early). A busy machine only adds to them, so the upper bounds are loose,
# half-way to the next value: under 50 ms before (the 80 ms after, or a
# change applied early, fails) and under 110 ms after.
#
#   ns a (10.77.0.1) eth0 ==veth== rk0 [hub: bridge, trace] rk1 ==veth== eth0 ns b (10.77.0.2)
#
. "$(dirname "$0")/lib.sh"
need_root
need_tool ping

run_fg link-trace.ini
[ "$rc" -eq 0 ] || fail "reckond exited with $rc"
log=$rundir/hosts/a.log
# median FIRST LAST: the median RTT of replies to icmp_seq FIRST..LAST
median() {
	sed -n 's/.*icmp_seq=\([0-9]*\) .*time=\([0-9.]*\) ms.*/\1 \2/p' "$log" |
		awk -v a="$1" -v b="$2" '$1 >= a && $1 <= b { print $2 }' | sort -n |
		awk '{ v[NR] = $1 } END { if (!NR) print -1; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# Sequence 1 leaves at about t0; seq k about 0.05 (k - 1) s later. Keep
# half a second clear of the change on either side.
early=$(median 1 40)
late=$(median 72 120)
awk -v m="$early" 'BEGIN { exit !(m >= 20 && m < 50) }' ||
	fail "median RTT before the change $early ms, expected 20 ms (in [20, 50))"
awk -v m="$late" 'BEGIN { exit !(m >= 80 && m < 110) }' ||
	fail "median RTT after the change $late ms, expected 80 ms (in [80, 110))"
pass "median RTT $early ms before the trace's change at 3 s, $late ms after (expected 20 and 80 ms; never below)"
