#!/usr/bin/env bash
# host_fail.sh: a host that exits with a failure ends the run early with a
# report naming the host, its exit status and the last lines of its log,
# and reckond exits with that status; hosts.csv records every outcome.
#
#   ns a (10.77.0.1) ==veth== [hub] ==veth== ns b (10.77.0.2, exits 3)
#
. "$(dirname "$0")/lib.sh"
need_root

start=$(date +%s)
run_fg host-fail.ini
took=$(( $(date +%s) - start ))
[ "$rc" -eq 3 ] || fail "reckond exited with $rc, expected the host's status 3"
grep -q 'host b failed: exit status 3' "$tmp/err" || fail "no report naming host b and status 3"
grep -q 'cannot open the map file' "$tmp/err" || fail "report lacks the last lines of b's log"
[ "$took" -lt 20 ] || fail "run took $took s; a failing host should end it before the 30 s duration"
grep -q '^1,b,10.77.0.2,[0-9]*,3,failed$' "$rundir/hosts.csv" || fail "hosts.csv lacks b's failure"
grep -q '^1,a,10.77.0.1,[0-9]*,[0-9]*,stopped$' "$rundir/hosts.csv" || fail "hosts.csv lacks a stopped"
pass "exit 3 after $took s, report and hosts.csv name host b"
