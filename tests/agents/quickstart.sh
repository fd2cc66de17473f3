#!/usr/bin/env bash
# quickstart.sh: scenarios/quickstart.ini, shortened to a 10 s trace and
# two repetitions, run through reckond in namespaces. Every host exits 0;
# in each repetition the players and the observer write their metrics,
# the observer's received updates equal what the links delivered
# (counters.csv), and every entity has error samples on both lanes (dis
# and led). reckond itself must aggregate: summary.csv and summary.json
# in the run directory, one row per predictor over the 2 repetitions with
# finite confidence intervals, led with the 5 s heartbeat that makes the
# comparison like for like, and the end-of-run table on stdout with a
# "mean±half-width" cell in every column.
#
#   ns p1 --delay 50ms 10ms loss 2%--\
#                                     [hub: reckond bridge] --> ns obs
#   ns p2 --delay 50ms 10ms loss 2%--/
. "$(dirname "$0")/lib.sh"
need_root
need_tool ip

qs=$src/scenarios/quickstart.ini
[ -f "$qs" ] || fail "no $qs"
# [game] duration is unset: the play is the scenario's duration less the
# 4 s lead, so 14 s gives a 10 s play in every agent
sed -e 's/^duration = 64s/duration = 14s/' \
	-e 's/^repetitions = 3/repetitions = 2/' "$qs" >"$tmp/quickstart.ini"
[ "$("$build/daemon/reckond" -nv "$tmp/quickstart.ini" | grep -c -- '--duration 10 ')" -eq 3 ] ||
	fail "could not shorten $qs to a 10 s play"
grep -q '^repetitions = 2' "$tmp/quickstart.ini" || fail "could not set 2 repetitions"
run_scenario "$tmp/quickstart.ini"
[ "$rc" -eq 0 ] || fail "reckond exited with $rc"
total=0
for r in 1 2; do
	d=$rundir/rep-$r
	for h in p1 p2 obs; do
		[ -s "$d/metrics-$h.csv" ] || fail "no rep-$r/metrics-$h.csv"
	done
	del=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["dst"] == "obs" { s += $col["delivered"] } END { print s }' "$d/counters.csv")
	obs=$d/metrics-obs.csv
	got=$(awk -F, -v r="$(col "$obs" received)" 'NR > 1 { s += $r } END { print s }' "$obs")
	[ "$got" -eq "$del" ] || fail "rep $r: observer received $got, links delivered $del"
	rows=$(awk -F, -v f="$(col "$obs" frames)" -v m="$(col "$obs" err_mean)" \
		'NR > 1 && $f > 0 && $m == $m + 0 { n++ } END { print n + 0 }' "$obs")
	[ "$rows" -eq 16 ] || fail "rep $r: $rows of 16 lane x entity rows have error samples"
	total=$((total + got))
done

# reckond's own aggregation: no fallback here, a missing summary is a failure
for f in summary.csv summary.json; do
	[ -s "$rundir/$f" ] || fail "reckond wrote no $f (its aggregation failed; see $rundir/reckond.log)"
done
sum=$rundir/summary.csv
for p in dis led; do
	grep -q "^$p,.*,delay50ms-10ms-loss2pct,2," "$sum" ||
		fail "summary.csv has no $p row over 2 repetitions: $(cat "$sum")"
done
grep -q '^led,[^,]*heartbeat=5[ ,]' "$sum" || fail "led runs without the 5 s heartbeat: $(cat "$sum")"
# every figure the table shows has a finite CI over 2 repetitions
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ for (k in want) if ($c[want[k] "_ci95"] != $c[want[k] "_ci95"] + 0) bad++ }
	BEGIN { split("updates_per_s bytes_per_s err_mean err_p95 err_max", want, " ") }
	END { exit bad > 0 || NR != 3 }' "$sum" || fail "summary.csv lacks confidence intervals: $(cat "$sum")"
grep -q '"malformed_rows": 0' "$rundir/summary.json" || fail "summary.json reports malformed rows"
grep -q '"repetitions": 2' "$rundir/summary.json" || fail "summary.json: not 2 repetitions"

# the end-of-run table, on reckond's stdout
grep -q '^predictor .*upd/s/entity .*bytes/s/entity .*err_mean .*err_p95 .*err_max' "$tmp/out" ||
	fail "no results table on stdout: $(cat "$tmp/out")"
for p in dis led; do
	line=$(grep "^$p " "$tmp/out") || fail "the table has no $p row: $(cat "$tmp/out")"
	n=$(grep -o '[0-9.]*±[0-9.]*' <<<"$line" | wc -l)
	[ "$n" -eq 5 ] || fail "the $p row has $n of 5 cells with a CI: $line"
done
sed -n '/^predictor /,/^(mean/p' "$tmp/out"
pass "quickstart (10 s, 2 repetitions): $total updates received = delivered; reckond wrote summary.csv/json and the table with CIs"
