#!/bin/bash
# sim_thesis.sh: scenarios/papers/lagcomp-thesis.ini in the simulator.
# `reckond sim` runs its three repetitions (two fps-servers, TLC and ALC,
# twelve fps-clients each) and must leave lagcomp-HOST.csv and
# shots-HOST.csv of both servers in every rep-N/, and a summary.csv and
# summary.json whose lag-compensation columns (SBC per 100 hits by victim
# class, hit-registration accuracy, result delay, ALC outcomes) each have
# a 95% CI column. The summary's SBC-per-100 means must equal the mean
# over repetitions of 100 x sbc / hits recomputed here from the servers'
# files (to the 6 significant digits summary.csv prints), and the
# simulation must be deterministic: a second run of the same seed gives
# byte-identical lagcomp and shots files.
#
# usage: sim_thesis.sh BUILD_DIR   (exit 77 = skipped, reason printed)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../agents/lib.sh"
[ -x "$reckond" ] || fail "no reckond in $build/daemon"
ini=$src/scenarios/papers/lagcomp-thesis.ini

sim() {
	(cd "$tmp/$1" && "$reckond" -q sim "$ini") >"$tmp/$1.out" \
		2>"$tmp/err" || fail "reckond sim exited $?"
	sed -n 's/^results: //p' "$tmp/$1.out"
}
mkdir -p "$tmp/a" "$tmp/b"
rundir=$(sim a)
[ -d "$rundir" ] || fail "no results directory"

for r in 1 2 3; do
	for h in srv-tlc srv-alc; do
		[ -s "$rundir/rep-$r/lagcomp-$h.csv" ] ||
			fail "rep-$r/lagcomp-$h.csv missing"
		[ "$(wc -l <"$rundir/rep-$r/shots-$h.csv")" -gt 100 ] ||
			fail "rep-$r/shots-$h.csv has under 100 shots"
	done
done

s=$rundir/summary.csv
[ -s "$s" ] || fail "no summary.csv"
for c in lc_shots lc_registered lc_reg_accuracy lc_hits_low lc_hits_high \
	lc_sbc_low lc_sbc_high lc_sbc100_low lc_sbc100_high lc_provisional \
	lc_denials lc_incorrect_denials lc_overruled lc_timeouts \
	lc_result_delay_ms lc_result_delay_p50_ms lc_result_delay_p95_ms; do
	[ -n "$(col "$s" "$c")" ] || fail "summary.csv has no $c column"
	[ -n "$(col "$s" "${c}_ci95")" ] || fail "summary.csv has no ${c}_ci95"
done
for m in tlc alc; do
	row=$(grep -c "^lagcomp-$m,.*,default,3," "$s")
	[ "$row" -eq 1 ] || fail "summary.csv: $row rows for lagcomp-$m over 3 reps"
	for c in lc_sbc100_high lc_reg_accuracy lc_shots; do
		v=$(awk -F, -v c="$(col "$s" "${c}_ci95")" -v m="lagcomp-$m" \
			'$1 == m { print $c }' "$s")
		[[ "$v" =~ ^[0-9.e+-]+$ ]] || fail "lagcomp-$m ${c}_ci95 is '$v'"
	done
	for k in low high; do
		want=$(for r in 1 2 3; do cat "$rundir/rep-$r/lagcomp-srv-$m.csv"; done |
			awk -F, -v k=$k 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$1 == "host" { next }
			{ if ($c["hits_" k] > 0) { s += 100 * $c["sbc_" k] / $c["hits_" k]; n++ } }
			END { if (n) printf "%.6g", s / n }')
		got=$(awk -F, -v c="$(col "$s" lc_sbc100_$k)" -v m="lagcomp-$m" \
			'$1 == m { print $c }' "$s")
		[ "$got" = "$want" ] ||
			fail "lagcomp-$m lc_sbc100_$k: summary $got, recomputed $want"
	done
done
grep -q '"lc_sbc100_high": {"mean": [0-9.e+-]*, "ci95": [0-9.e+-]*, "n": 3}' \
	"$rundir/summary.json" || fail "summary.json lacks lc_sbc100_high with a CI"

again=$(sim b)
for r in 1 2 3; do
	for f in lagcomp-srv-tlc lagcomp-srv-alc shots-srv-tlc shots-srv-alc; do
		cmp -s "$rundir/rep-$r/$f.csv" "$again/rep-$r/$f.csv" ||
			fail "rep-$r/$f.csv differs between two runs of one seed"
	done
done
pass "lagcomp-thesis.ini simulated: lagcomp columns with CIs, sums agree, deterministic"
