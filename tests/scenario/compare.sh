#!/usr/bin/env bash
# compare.sh: scenarios/compare-predictors.ini as shipped, cut short. The
# scenario's duration is set to 14 s (the [game] play follows: 10 s) and
# two repetitions; nothing else is touched. Usage: compare.sh BUILD_DIR
# sim|emulate. `sim` runs it in the simulator; `emulate` (root) runs it in
# namespaces. Either way the agents were built from the file's sections:
# every host's metrics carry the same three lanes (dis20, dis40, led, in
# file order) with the same parameters, the like-for-like settings reached
# every lane (one 20 u threshold where not overridden, position-only
# triggers, a 5 s heartbeat, pvb over 0.25 s), the condition is the
# scenario's label, and reckond's summary has one row per instance over
# the two repetitions.
. "$(dirname "$0")/../sim/lib.sh"
mode=${2:?usage: compare.sh BUILD_DIR sim|emulate}
case $mode in
sim) cmd=sim ;;
emulate) need_root; command -v ip >/dev/null || skip "ip is not installed"; cmd=run ;;
*) fail "mode must be sim or emulate" ;;
esac

ini=$tmp/compare.ini
sed -e 's/^duration = 64s$/duration = 14s/' -e 's/^repetitions = 3$/repetitions = 2/' \
	"$src/scenarios/compare-predictors.ini" >"$ini"
grep -q '^duration = 14s' "$ini" && grep -q '^repetitions = 2' "$ini" ||
	fail "could not shorten scenarios/compare-predictors.ini (did its layout change?)"
"$reckond" -nv "$ini" >"$tmp/canon.ini" 2>"$tmp/n.err" || fail "reckond -n refuses it: $(cat "$tmp/n.err")"
[ "$(grep -c -- '--duration 10 ' "$tmp/canon.ini")" -eq 3 ] ||
	fail "the agents do not all play 10 s: $(grep 'agent options' "$tmp/canon.ini")"

reckond_do run "$cmd" "$ini"
[ "$rc" -eq 0 ] || fail "reckond $cmd exited with $rc: $(tail -5 "$tmp/run.err")"
label=delay150ms-burstloss2pct
want="0 dis20 algorithm=fpw pos_threshold=20 orient_threshold=0 heartbeat=5 convergence=pvb blend=0.25 snap_distance=0
1 dis40 algorithm=fpw pos_threshold=40 orient_threshold=0 heartbeat=5 convergence=pvb blend=0.25 snap_distance=0
2 led eta_min=5 eta_max=35 blend=0.25 trigger=projection correlation=cosine s_ref=250 lookup=actual empty_c=0 accel=on heartbeat=5"
for r in 1 2; do
	for h in p1 p2 obs; do
		m=$rundir/rep-$r/metrics-$h.csv
		[ -s "$m" ] || fail "no rep-$r/metrics-$h.csv"
		got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ print $c["lane"], $c["predictor"], $c["params"] }' "$m" | sort -u)
		[ "$got" = "$want" ] || fail "rep $r host $h runs other lanes:
$got
want
$want"
		bad=$(awk -F, -v l="$label" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["condition"] != l || $c["topology"] != "p2p" { n++ } END { print n + 0 }' "$m")
		[ "$bad" -eq 0 ] || fail "rep $r host $h: $bad rows with another condition or topology"
	done
done
sum=$rundir/summary.csv
[ -s "$sum" ] || fail "reckond wrote no summary.csv"
for p in dis20 dis40 led; do
	grep -q "^$p,.*,$label,2," "$sum" || fail "summary.csv has no $p row over 2 repetitions: $(cat "$sum")"
done
[ "$(wc -l <"$sum")" -eq 4 ] || fail "summary.csv has other rows: $(cat "$sum")"
sed -n '/^predictor /,/^(mean/p' "$tmp/run.out"
pass "compare-predictors ($cmd, 10 s play, 2 repetitions): every agent ran dis20, dis40 and led like for like"
