#!/usr/bin/env bash
# host_fail.sh: a host that exits with a failure ends the run early with a
# report naming the host, its exit status and the line of its log that
# says why (an exec host's last line; a reckon-agent's one-line usage
# error, not its usage text), and reckond exits with that status;
# hosts.csv records every outcome.
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
grep -q 'host b failed: exit status 3: cannot open the map file' "$tmp/err" || fail "report lacks the last line of b's log"
[ "$took" -lt 20 ] || fail "run took $took s; a failing host should end it before the 30 s duration"
grep -q '^1,b,10.77.0.2,[0-9]*,3,failed$' "$rundir/hosts.csv" || fail "hosts.csv lacks b's failure"
grep -q '^1,a,10.77.0.1,[0-9]*,[0-9]*,stopped$' "$rundir/hosts.csv" || fail "hosts.csv lacks a stopped"

PATH=$build/agents:$PATH run_fg host-usage.ini
[ "$rc" -eq 2 ] || fail "host-usage: reckond exited with $rc, expected the agent's usage status 2"
grep -q "host p failed: exit status 2: reckon-agent player: unknown predictor 'lde'" "$tmp/err" ||
	fail "host-usage: the report does not show the agent's error line"
grep -q 'usage: reckon-agent' "$tmp/err" && fail "host-usage: the report shows usage text"
pass "exit 3 after $took s, report and hosts.csv name host b; an agent's usage error is shown as its one line"
