#!/usr/bin/env bash
# agent_killed.sh: an agent killed mid-run (SIGKILL to the player's
# reckon-agent) is reported, not lost: reckond names the host and the
# signal, ends the run early and exits non-zero, and hosts.csv records
# the player's outcome as failed with status 137 (128 + SIGKILL) while
# the observer's is stopped or ok.
#
#   ns pl (player) ==veth== [hub: bridge, delay 20ms] ==veth== ns obs (observer)
#
. "$(dirname "$0")/../daemon/lib.sh"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
need_root
export RECKON_AGENT=$build/agents/reckon-agent
export RECKON_MAP_DIR=$here/../../scenarios/maps

run_bg agent-killed.ini
sleep 2
st=$("$reckonctl" -s "$sock" status -j) || fail "status -j failed"
# the player's processes: its shim ("pid"), then the agent it runs
pl=$(grep -o '"name": "pl"[^}]*' <<<"$st")
shim=$(sed -n 's/.*"pid": \([0-9]*\),.*/\1/p' <<<"$pl")
agent=$(grep -o '"pids": \[[0-9, ]*\]' <<<"$pl" | grep -o '[0-9][0-9]*' | grep -vx "$shim" | head -n 1)
[ -n "$agent" ] && grep -q 'reckon-agent' /proc/"$agent"/cmdline 2>/dev/null ||
	fail "no running player agent among pl's processes: $pl"
kill -KILL "$agent"
wait "$bg_pid"
rc=$?
bg_pid=
[ "$rc" -ne 0 ] || fail "reckond exited 0 although an agent was killed"
msg=$(grep "host pl failed" "$tmp/err") ||
	fail "reckond's report does not name the failed host"
grep -q "killed by signal 9" <<<"$msg" ||
	fail "reckond's report does not say the agent was killed: $msg"
rundir=$(sed -n 's/^results: //p' "$tmp/out")
h=$(ls "$rundir"/hosts.csv "$rundir"/rep-1/hosts.csv 2>/dev/null | head -n 1)
[ -n "$h" ] || fail "no hosts.csv in $rundir"
grep -q '^.*pl,.*failed' "$h" || fail "hosts.csv does not record pl as failed: $(cat "$h")"
pass "killed agent reported (reckond exited $rc): ${msg%%;*}"
