#!/usr/bin/env bash
# partial.sh: a run says whether it is complete. One player and one
# observer (tests/daemon/play.ini) play a short match four ways:
#   play 8 s in 30 s       every host exits by itself: complete
#   reckonctl stop         partial, "stopped through the control socket"
#   SIGINT to reckond      partial, "interrupted (SIGINT)", exit 130
#   play 30 s in 3 s       partial, the play did not fit the duration
# Each time the terminal table, summary.json, run.json and index.html say
# the same, and hosts.csv tells hosts that ended by themselves (ok) or at
# the duration (ended) from hosts stopped early (stopped). Last, the
# player's processes are stopped (SIGSTOP) for 0.4 s in the middle of a
# complete run: its timer fires at least that late, more than the 15.6 ms
# tick, and the run says "emulation accuracy degraded" with the figure.
. "$(dirname "$0")/lib.sh"
need_root
src=$(cd "$here/../.." && pwd)
export RECKON_MAP_DIR=$src/scenarios/maps
[ -x "$build/agents/reckon-agent" ] || fail "no reckon-agent in $build/agents"

# scenario NAME PLAY DURATION: $tmp/NAME.ini from play.ini
scenario() {
	sed "s/PLAY/$2/; s/DURATION/$3/" "$here/play.ini" >"$tmp/$1.ini"
}

# start NAME: reckond run in the background until its hosts run
start() {
	(cd "$tmp" && exec "$reckond" -q -s "$sock" run "$tmp/$1.ini") >"$tmp/out" 2>"$tmp/err" &
	bg_pid=$!
	for _ in $(seq 100); do
		"$reckonctl" -s "$sock" status -j 2>/dev/null | grep -q '"state": "running"' && return 0
		sleep 0.1
	done
	fail "reckond did not start"
}

# finish WANT_RC: wait for reckond, check its status, set rundir
finish() {
	wait "$bg_pid"; rc=$?; bg_pid=
	rundir=$(sed -n 's/^results: //p' "$tmp/out")
	[ -n "$rundir" ] || { rundir=/nonexistent; fail "no results line"; }
	[ "$rc" -eq "$1" ] || fail "reckond exited with $rc, expected $1"
}

# marked STATUS REASON_REGEX: every place says STATUS (and the reason)
marked() {
	grep -q "\"status\": \"$1\"" "$rundir/summary.json" || fail "summary.json: not $1"
	grep -q "\"status\": \"$1\"" "$rundir/run.json" || fail "run.json: not $1"
	if [ "$1" = partial ]; then
		grep -q "^PARTIAL RUN: $2" "$tmp/out" || fail "table lacks 'PARTIAL RUN: $2': $(head -n 3 "$tmp/out")"
		grep -q "\"partial_reason\": \"$2" "$rundir/summary.json" || fail "summary.json: reason is not '$2'"
		grep -q "Partial run:</b> $2" "$rundir/index.html" || fail "index.html lacks the partial banner"
		grep -q "PARTIAL ($2" "$tmp/err" || fail "log does not say PARTIAL"
		grep -q '; results in' "$tmp/err" && grep -q ': finished; results' "$tmp/err" &&
			fail "log says finished"
	else
		grep -q 'PARTIAL' "$tmp/out" "$rundir/index.html" && fail "complete run marked partial"
		grep -q '"partial_reason": null' "$rundir/summary.json" || fail "summary.json has a partial reason"
		grep -q ': finished; results' "$tmp/err" || fail "log does not say finished"
	fi
	grep -q '^dis  *delay20ms' "$tmp/out" || fail "no table row for dis"
}

# outcomes WANT: the outcome column of hosts.csv, both hosts
outcomes() {
	got=$(tail -n +2 "$rundir/hosts.csv" | cut -d, -f6 | sort -u | tr '\n' ' ')
	[ "$got" = "$1 " ] || fail "hosts.csv outcomes '$got', expected '$1'"
}

scenario fits 8 30s
start fits
finish 0
marked complete
outcomes ok
echo "play fits: complete, hosts ok"

scenario long 30 60s
start long
sleep 1
"$reckonctl" -s "$sock" stop >/dev/null || fail "reckonctl stop failed"
finish 0
marked partial "stopped through the control socket"
outcomes stopped
echo "reckonctl stop: partial, hosts stopped"

start long
sleep 1
kill -INT "$bg_pid"
finish 130
marked partial "interrupted (SIGINT)"
outcomes stopped
echo "SIGINT: partial, exit 130, hosts stopped"

scenario cut 30 3s
start cut
finish 0
marked partial "the play did not fit the scenario's duration"
outcomes ended
grep -q 'played [0-9.]* of 30.0 s' "$rundir/run.json" || fail "run.json does not say how much was played"
echo "duration cuts the play: partial, hosts ended"

start fits
sleep 2
ppids=$("$reckonctl" -s "$sock" status -j | sed 's/"name": /\n/g' | grep '^"p"' |
	grep -o '"pids": \[[0-9, ]*\]' | grep -o '[0-9][0-9]*')
[ -n "$ppids" ] || fail "no pids for host p"
kill -STOP $ppids
sleep 0.4
kill -CONT $ppids
finish 0
marked complete
grep -q '^emulation accuracy degraded: agent timers fired up to [0-9.]* ms late (host p)' "$tmp/out" ||
	fail "table lacks the degraded line: $(tail -n 3 "$tmp/out")"
late=$(sed -n 's/.*"timer_lateness_max_ms": \([0-9.]*\).*/\1/p' "$rundir/run.json")
# the timer was due at most one tick (15.625 ms) after the stop began and
# fired only after the 400 ms stop: at least 400 - 15.625 ms late
awk -v l="$late" 'BEGIN { exit !(l >= 384.375) }' || fail "lateness $late ms, the stop lasted 400 ms"
grep -q '"degraded": true' "$rundir/summary.json" || fail "summary.json: not degraded"
grep -q 'Emulation accuracy degraded' "$rundir/index.html" || fail "index.html: not degraded"
grep -q 'emulation accuracy degraded' "$tmp/err" || fail "log: not degraded"
echo "a host stalled 0.4 s: complete, emulation accuracy degraded ($late ms late)"
pass "complete, stopped, interrupted, cut-short and degraded runs are marked as such"
