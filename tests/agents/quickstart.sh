#!/usr/bin/env bash
# quickstart.sh: scenarios/quickstart.ini, shortened to a 10 s trace and
# one repetition, run through reckond in namespaces. Every host exits 0;
# the players and the observer write their metrics; the observer's
# received updates equal what the links delivered (counters.csv); every
# entity has error samples on both lanes (dis and led); and when the
# daemon has written summary.csv it has one row per predictor.
#
#   ns p1 --delay 50ms 10ms loss 2%--\
#                                     [hub: reckond bridge] --> ns obs
#   ns p2 --delay 50ms 10ms loss 2%--/
. "$(dirname "$0")/lib.sh"
need_root
need_tool ip

qs=$src/scenarios/quickstart.ini
[ -f "$qs" ] || fail "no $qs"
sed -e 's/^duration = 64s/duration = 14s/' -e 's/--duration 60/--duration 10/' \
	-e 's/^repetitions = 3/repetitions = 1/' "$qs" >"$tmp/quickstart.ini"
grep -q -- '--duration 10' "$tmp/quickstart.ini" || fail "could not shorten $qs"
run_scenario "$tmp/quickstart.ini"
[ "$rc" -eq 0 ] || fail "reckond exited with $rc"
for h in p1 p2 obs; do
	[ -s "$rundir/metrics-$h.csv" ] || fail "no metrics-$h.csv"
done
c=$rundir/counters.csv
del=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["dst"] == "obs" { s += $col["delivered"] } END { print s }' "$c")
obs=$rundir/metrics-obs.csv
got=$(awk -F, -v r="$(col "$obs" received)" 'NR > 1 { s += $r } END { print s }' "$obs")
[ "$got" -eq "$del" ] || fail "observer received $got, links delivered $del"
rows=$(awk -F, -v f="$(col "$obs" frames)" -v m="$(col "$obs" err_mean)" \
	'NR > 1 && $f > 0 && $m == $m + 0 { n++ } END { print n + 0 }' "$obs")
[ "$rows" -eq 16 ] || fail "$rows of 16 lane x entity rows have error samples"
if [ ! -f "$rundir/summary.csv" ]; then
	echo "note: the daemon wrote no summary.csv; running summary_write here"
	"$build/tests/agents/agents_summary_cli" "$rundir" 1 ||
		fail "summary_write failed"
fi
for p in dis led; do
	grep -q "^$p,.*,delay50ms-10ms-loss2pct,1," "$rundir/summary.csv" ||
		fail "summary.csv has no $p row: $(cat "$rundir/summary.csv")"
done
grep -q '"malformed_rows": 0' "$rundir/summary.json" || fail "summary.json reports malformed rows"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ n[$c["predictor"]] += $c["frames"]; e[$c["predictor"]] += $c["err_mean"] * $c["frames"]; r[$c["predictor"]] += $c["received"] }
	END { for (p in n) printf "%s: %d updates received, mean error %.2f u over %d frames\n", p, r[p], e[p] / n[p], n[p] }' "$obs"
pass "quickstart (10 s): $got updates received = delivered, errors measured on both lanes"
