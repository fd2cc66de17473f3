#!/bin/bash
# tables.sh: study/papers_tables.py on short runs of the shipped paper
# scenarios. scenarios/papers/001-ant.ini cut to a 12 s play and three
# repetitions runs in the simulator; the `predictors` table must have one
# row per lane, its means must be summary.csv's, and its paired change
# of ant against dr2 must equal the one recomputed here from the
# repetitions' metrics files (the players' `sent` summed per lane, 100
# (ant / dr2 - 1) per repetition, averaged; printed to one decimal, so
# the two must agree exactly after rounding). A second run of the same
# file must print the same table byte for byte (same seeds, virtual
# time). scenarios/papers/004-dhsm.ini cut to two thresholds, 30 s and
# two repetitions must give a `tau` table with one row per threshold
# whose DR rate is sweep.csv's. scenarios/papers/003-ekb.ini cut to
# lags 0 and 300 ms, 12 s and three repetitions must give a `lags` table
# whose paired change of ekb against tdm at 300 ms is the one
# recomputed here from the observers' metrics files (frame-weighted
# err_mean per repetition, 100 (ekb / tdm - 1), averaged).
# usage: tables.sh BUILD_DIR   (exit 77 = skipped, reason printed)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../agents/lib.sh"
[ -x "$reckond" ] || fail "no reckond in $build/daemon"
command -v python3 >/dev/null || skip "python3 is not installed"
tables() { python3 "$src/study/papers_tables.py" "$@"; }

sed 's/^duration = 124s/duration = 16s/; s/^repetitions = 10/repetitions = 3/' \
	"$src/scenarios/papers/001-ant.ini" >"$tmp/ant.ini"
grep -q '^repetitions = 3' "$tmp/ant.ini" ||
	fail "could not shorten 001-ant.ini (did its layout change?)"
sim() { # sim DIR: the results directory of a simulated run of ant.ini
	mkdir -p "$tmp/$1"
	(cd "$tmp/$1" && "$reckond" -q sim "$tmp/ant.ini") >"$tmp/$1.out" \
		2>"$tmp/err" || fail "reckond sim exited $?"
	sed -n 's/^results: //p' "$tmp/$1.out"
}
rundir=$(sim a)
[ -f "$rundir/summary.csv" ] || fail "no summary.csv"
tables predictors "$rundir" dr2 >"$tmp/t1" 2>"$tmp/err" ||
	fail "papers_tables.py predictors failed"
for p in dr2 ant ant-rho0; do
	grep -q "^| $p | 3 | " "$tmp/t1" || fail "no row for $p over 3 reps"
done
want=$(awk -F, -v c="$(col "$rundir/summary.csv" updates_per_s)" \
	'$1 == "ant" { printf "%.2f", $c }' "$rundir/summary.csv")
grep -q "^| ant | 3 | $want ± " "$tmp/t1" ||
	fail "ant's updates/s is not summary.csv's $want: $(grep '^| ant ' "$tmp/t1")"
want=$(for r in 1 2 3; do
	awk -F, 'FNR > 1 && $2 == "player" { s[$8] += $11 }
		END { print 100 * (s["ant"] / s["dr2"] - 1) }' \
		"$rundir"/rep-$r/metrics-p*.csv
done | awk '{ s += $1 } END { printf "%+.1f", s / NR }')
grep -q "^| ant | .* | $want ± [0-9.]* % | [-+][0-9.]* ± [0-9.]* % |$" \
	"$tmp/t1" || fail "ant's paired change is not $want %: $(grep '^| ant ' "$tmp/t1")"
tables predictors "$(sim b)" dr2 >"$tmp/t2" || fail "second table failed"
cmp -s "$tmp/t1" "$tmp/t2" || fail "two runs of one seed print different tables"

sed 's/^duration = 604s/duration = 34s/; s/^repetitions = 10/repetitions = 2/' \
	"$src/scenarios/papers/004-dhsm.ini" |
	awk '/^predictor.dhsm.tau/ { print "predictor.dhsm.tau = 17.857 89.286";
		skip = 1; next }
		skip && /^ / { next } { skip = 0; print }' >"$tmp/dhsm.ini"
"$reckond" -n "$tmp/dhsm.ini" 2>"$tmp/err" || fail "shortened 004-dhsm.ini is refused"
"$reckond" -q sweep -j 1 --no-plots -o "$tmp/sw" "$tmp/dhsm.ini" \
	>"$tmp/sw.out" 2>"$tmp/err" || fail "reckond sweep exited $?"
tables tau "$tmp/sw" 17.857142857 >"$tmp/t3" 2>"$tmp/err" ||
	fail "papers_tables.py tau failed"
[ "$(grep -c '^| [0-9]' "$tmp/t3")" -eq 2 ] || fail "tau table has not 2 rows"
want=$(awk -F, '$2 == "dr" && $3 == "89.286" { printf "%.3f", $8 }' "$tmp/sw/sweep.csv")
grep -q "^| 5.0 | 89.286 | $want ± " "$tmp/t3" ||
	fail "DR at tau 89.286 is not sweep.csv's $want: $(cat "$tmp/t3")"

sed 's/^duration = 124s/duration = 16s/; s/^repetitions = 10/repetitions = 3/;
	s/^link.delay = .*/link.delay = 0ms 300ms/' \
	"$src/scenarios/papers/003-ekb.ini" >"$tmp/ekb.ini"
grep -q '^link.delay = 0ms 300ms$' "$tmp/ekb.ini" ||
	fail "could not shorten 003-ekb.ini (did its layout change?)"
"$reckond" -q sweep -j 1 --no-plots -o "$tmp/ek" "$tmp/ekb.ini" \
	>"$tmp/ek.out" 2>"$tmp/err" || fail "reckond sweep of 003 exited $?"
tables lags "$tmp/ek" >"$tmp/t4" 2>"$tmp/err" ||
	fail "papers_tables.py lags failed"
paired=$(sed -n '/^error against tdm, paired/,/^updates/p' "$tmp/t4")
[ "$(grep -c '^| [a-z]* | [-+]' <<<"$paired")" -eq 5 ] ||
	fail "paired lags table has not one row per lane but tdm: $paired"
m=$tmp/ek/points/p000001/rep-1/metrics-obs.csv
[ -f "$m" ] || fail "no $m"
cp=$(col "$m" predictor) cf=$(col "$m" frames) ce=$(col "$m" err_mean)
want=$(for f in "$tmp"/ek/points/p000001/rep-*/metrics-obs.csv; do
	awk -F, -v cp="$cp" -v cf="$cf" -v ce="$ce" 'FNR > 1 {
		w[$cp] += $cf * $ce; n[$cp] += $cf }
		END { print 100 * (w["ekb"] / n["ekb"] / (w["tdm"] / n["tdm"]) - 1) }' "$f"
done | awk '{ s += $1 } END { printf "%+.1f", s / NR }')
grep -q "^| ekb | [-+][0-9.]* ± [0-9.]* % | $want ± " <<<"$paired" ||
	fail "ekb's paired change at 300 ms is not $want %: $(grep '^| ekb ' <<<"$paired")"
pass "papers_tables.py: means as summarised, paired changes recomputed, deterministic"
