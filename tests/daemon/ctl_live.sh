#!/usr/bin/env bash
# ctl_live.sh: reckonctl status -j describes the running scenario (hosts,
# links, specs, counters), reckonctl set changes a link live (RTT goes from
# 20 ms to 110 ms), the change is logged in changes.csv, a bad request is
# rejected with a reason, and reckonctl stop ends the run early.
#
#   ns a (10.77.0.1) ==veth== [hub: a>b delay 10ms -> 100ms, b>a 10ms] ==veth== ns b (10.77.0.2)
#
. "$(dirname "$0")/lib.sh"
need_root
need_tool ping

run_bg ctl-live.ini
sleep 1
st=$("$reckonctl" -s "$sock" status -j) || fail "status -j failed"
echo "$st" | grep -q '"link": "a>b", "spec": "delay 10ms[ \"]' || fail "status lacks link a>b: $st"
echo "$st" | grep -q '"name": "b", "addr": "10.77.0.2", "state": "running"' || fail "status lacks host b: $st"
in1=$(echo "$st" | sed -n 's/.*"link": "a>b"[^}]*"in": \([0-9]*\).*/\1/p')
[ "${in1:-0}" -gt 5 ] || fail "a>b counted ${in1:-0} frames after 1 s of pings"
if "$reckonctl" -s "$sock" set 'a>nosuch' 'delay 1ms' 2>"$tmp/bad"; then
	fail "set on an unknown host succeeded"
fi
grep -q 'no such link' "$tmp/bad" || fail "unknown host not explained: $(cat "$tmp/bad")"
if "$reckonctl" -s "$sock" set 'a>b' 'delay 10 parsecs' 2>"$tmp/bad"; then
	fail "a malformed spec was accepted"
fi
"$reckonctl" -s "$sock" set 'a>b' 'delay 100ms' >/dev/null || fail "set failed"
"$reckonctl" -s "$sock" status -j | grep -q '"link": "a>b", "spec": "delay 100ms[ \"]' ||
	fail "status does not show the new spec"
sleep 1.5
"$reckonctl" -s "$sock" stop >/dev/null || fail "stop failed"
wait "$bg_pid"; rc=$?; bg_pid=
[ "$rc" -eq 0 ] || fail "reckond exited with $rc after stop"
grep -q ',ctl,a,b,"delay 100ms[ \"]' "$rundir/changes.csv" || fail "changes.csv lacks the change"
rtts=$(sed -n 's/.*time=\([0-9.]*\) ms.*/\1/p' "$rundir/hosts/a.log")
early=$(echo "$rtts" | head -n 5 | sort -n | sed -n 3p)
late=$(echo "$rtts" | tail -n 5 | sort -n | sed -n 3p)
# 20 ms before, 110 ms after: never less (netem is never early); a loaded
# machine only adds, so the upper bounds are loose: under the midpoint
# (65 ms) before, under 200 ms after
awk -v e="$early" -v l="$late" 'BEGIN { exit !(e >= 19.5 && e < 65 && l >= 109.5 && l < 200) }' ||
	fail "median RTT before/after the change: $early / $late ms, expected ~20 / ~110"
pass "status -j, set (RTT $early -> $late ms), changes.csv, stop"
