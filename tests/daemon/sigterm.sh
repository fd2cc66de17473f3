#!/usr/bin/env bash
# sigterm.sh: SIGTERM (and SIGINT) to `reckond run` is an orderly stop: the
# hosts get SIGTERM, the results are written, every host process and
# namespace is gone, and reckond exits with 128 + the signal.
#
#   ns a ==veth== [hub: reckond, bridge] ==veth== ns b ; ns c
#
. "$(dirname "$0")/lib.sh"
need_root
need_tool ping

for sig in TERM INT; do
	run_bg kill9.ini
	sleep 1
	pids=$("$reckonctl" -s "$sock" status -j | grep -o '"pids": \[[0-9, ]*\]' | grep -o '[0-9][0-9]*')
	kill -"$sig" "$bg_pid"
	start=$(date +%s)
	wait "$bg_pid"; rc=$?; bg_pid=
	took=$(( $(date +%s) - start ))
	want=$(( 128 + $(kill -l "$sig") ))
	[ "$rc" -eq "$want" ] || fail "SIG$sig: reckond exited with $rc, expected $want"
	# the scenario would run 60 s; an orderly stop takes at most the 2 s
	# grace time plus set-down, 20 s tells the two apart on any machine
	[ "$took" -le 20 ] || fail "SIG$sig: tear-down took $took s"
	[ "$(grep -c ',stopped$' "$rundir/hosts.csv")" -eq 3 ] || fail "SIG$sig: hosts.csv: $(cat "$rundir/hosts.csv")"
	[ -s "$rundir/counters.csv" ] || fail "SIG$sig: no counters.csv"
	for p in $pids; do
		[ -e /proc/"$p" ] && [ "$(stat -L -c %i /proc/"$p"/ns/net 2>/dev/null)" != "$(stat -L -c %i /proc/self/ns/net)" ] &&
			fail "SIG$sig: host process $p survived"
	done
	grep -q 'terminated\|interrupted' "$rundir/reckond.log" || fail "SIG$sig: reason not logged"
	echo "SIG$sig: exit $rc after $took s, results written"
done
pass "orderly stop on SIGTERM and SIGINT"
