#!/bin/bash
# tables.sh: study/table.sh and study/tables.sh on the study's four grids
# cut down (scenarios/study/*.ini with 12 s of play, 3 repetitions for
# the predictors and 2 for lag compensation; RTT 0 and 100 ms, jitter
# 10 ms, loss 0 and 5% random, 5% bursty), run by `reckond sweep`:
#  - `loss`: a row per predictor, and each cell is sweep.csv's err_mean
#    and its half-width at that point, as printed with one decimal;
#  - `lc-rtt-acc`: the RTT columns the grid lacks say n/a;
#  - `best`: the bold predictor of each cell has the smallest err_mean
#    of sweep.csv at that point, and every predictor listed beside it
#    overlaps it (|m - m_best| <= h + h_best);
#  - `lc-acc`: a row per lag-compensation mode, cells from sweep.csv;
#  - the grids run in two shards and joined by study/merge.sh give the
#    same sweep.csv files, byte for byte, and the same tables;
#  - tables.sh prints every table, twice the same (seeded grids), and
#    plots.sh draws the figures whose slice the grid has (gnuplot) and
#    names the one it has not.
# usage: tables.sh BUILD_DIR   (exit 77 = skipped, reason printed)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../agents/lib.sh"
. "$src/study/grids.sh"
[ -x "$reckond" ] || fail "no reckond in $build/daemon"
table() { "$src/study/table.sh" "$@"; }
out=$tmp/study
mkdir -p "$out"

# cut_grid GRID AXIS VALUES: the grid with short plays and few points
cut_grid() {
	local reps=3
	case $1 in lagcomp*) reps=2 ;; esac
	sed -e 's/^duration = 6[24]s/duration = 16s/' \
		-e "s/^repetitions = .*/repetitions = $reps/" \
		-e 's/--duration 60/--duration 12/' \
		-e 's/^link.delay = .*/link.delay = 0ms 50ms/' \
		-e 's/^link.jitter = .*/link.jitter = 10ms/' \
		-e "s/^link.$2 = .*/link.$2 = ${3}/" \
		"$src/scenarios/study/$1.ini" >"$tmp/$1.ini"
	grep -q '^duration = 16s' "$tmp/$1.ini" && grep -q "^link.$2 = $3\$" "$tmp/$1.ini" ||
		fail "could not cut scenarios/study/$1.ini (did its layout change?)"
	"$reckond" -q sweep -j 2 --no-plots -o "$out/$1" "$tmp/$1.ini" >/dev/null 2>"$tmp/err" ||
		fail "sweep of $1 failed: $(cat "$tmp/err")"
}
cut_grid predictors loss "0% 5%"
cut_grid predictors-burst burst_rate "5%"
cut_grid lagcomp loss "0% 5%"
cut_grid lagcomp-burst burst_rate "5%"
P=$out/predictors
B=$out/predictors-burst

# csv SWEEP DELAY LOSS NAME COLUMN: a value of sweep.csv (jitter 10 ms)
csv() {
	awk -F, -v d="$2" -v l="$3" -v n="$4" -v k="$5" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ loss = ("link.loss" in c) ? $c["link.loss"] : $c["link.burst_rate"] }
		$c["link.delay"] == d && loss == l && $c["predictor"] == n { print $c[k] }' "$1/sweep.csv"
}

table loss "$P" "$B" >"$tmp/loss.md" || fail "table loss failed"
[ "$(tail -n +3 "$tmp/loss.md" | grep -c '^| ')" -eq 7 ] || fail "loss: want 7 predictor rows: $(cat "$tmp/loss.md")"
for n in dis led dhsm ekb is ant dr2; do
	row=$(grep "^| $n |" "$tmp/loss.md")
	want0=$(printf '%.1f ± %.1f' "$(csv "$P" 50ms 0% $n err_mean)" "$(csv "$P" 50ms 0% $n err_mean_ci95)")
	want5b=$(printf '%.1f ± %.1f' "$(csv "$B" 50ms 5% $n err_mean)" "$(csv "$B" 50ms 5% $n err_mean_ci95)")
	[ "$(echo "$row" | awk -F' [|] ' '{ print $2 }')" = "$want0" ] ||
		fail "loss: $n at 0%: '$row', want '$want0' first"
	[ "$(echo "$row" | awk -F' [|] ' '{ print $7 }')" = "$want5b" ] ||
		fail "loss: $n at 5% bursty: '$row', want '$want5b'"
done
echo "loss: 7 rows, cells equal to sweep.csv"

table lc-rtt-acc "$out/lagcomp" >"$tmp/rtt.md" || fail "table lc-rtt-acc failed"
grep '^| tlc |' "$tmp/rtt.md" | grep -Eq '^\| tlc \| [0-9.]+ ± [0-9.]+ \| n/a \| [0-9.]+ ± [0-9.]+ \| n/a \| n/a \|$' ||
	fail "lc-rtt-acc: want RTT 0 and 100 ms, n/a for 50, 200, 300: $(cat "$tmp/rtt.md")"

table best "$P" "$B" >"$tmp/best.md" || fail "table best failed"
for cell in "0% 2" "5% 4" "5%b 7"; do
	set -- $cell
	l=${1%b}
	d=$P
	[ "$l" != "$1" ] && d=$B
	got=$(grep '^| 100 ms |' "$tmp/best.md" | awk -F' [|] ' -v k="$2" '{ print $k }')
	bold=$(echo "$got" | sed -n 's/^\*\*\([a-z0-9]*\)\*\*.*/\1/p')
	min=$(for n in dis led dhsm ekb is ant dr2; do echo "$n $(csv "$d" 50ms "$l" $n err_mean)"; done |
		sort -g -k2 | head -n 1 | cut -d' ' -f1)
	[ -n "$bold" ] && [ "$bold" = "$min" ] || fail "best at RTT 100, $1: '$got', want $min"
	for n in $(echo "$got" | sed -n 's/.*(≈ \(.*\))$/\1/p' | tr -d ','); do
		awk -v a="$(csv "$d" 50ms "$l" "$n" err_mean)" -v ha="$(csv "$d" 50ms "$l" "$n" err_mean_ci95)" \
			-v b="$(csv "$d" 50ms "$l" "$bold" err_mean)" -v hb="$(csv "$d" 50ms "$l" "$bold" err_mean_ci95)" \
			'BEGIN { exit !(a - b <= ha + hb) }' || fail "best at RTT 100, $1: $n does not overlap $bold"
	done
done
echo "best: the smallest mean, ties overlapping"

table lc-acc "$out/lagcomp" "$out/lagcomp-burst" >"$tmp/lc.md" || fail "table lc-acc failed"
for m in none tlc clc alc; do
	want=$(printf '%.3f ± %.3f' "$(csv "$out/lagcomp" 50ms 0% lagcomp-$m lc_reg_accuracy)" \
		"$(csv "$out/lagcomp" 50ms 0% lagcomp-$m lc_reg_accuracy_ci95)")
	[ "$(grep "^| $m |" "$tmp/lc.md" | awk -F' [|] ' '{ print $2 }')" = "$want" ] ||
		fail "lc-acc: $m: $(grep "^| $m |" "$tmp/lc.md"), want '$want' first"
done
echo "lc-acc: 4 modes, cells equal to sweep.csv"

# the same grids in two shards, merged by study/merge.sh: sweep.csv byte
# for byte the unsharded one's, and the same tables
for i in 0 1; do
	for g in $STUDY_GRIDS; do
		"$reckond" -q sweep -j 2 --no-plots --shard $i/2 -o "$tmp/s$i/$g" "$tmp/$g.ini" \
			>/dev/null 2>"$tmp/err" || fail "shard $i/2 of $g failed: $(cat "$tmp/err")"
	done
done
"$src/study/merge.sh" -b "$build" "$tmp/merged" "$tmp/s0" "$tmp/s1" >/dev/null 2>"$tmp/err" ||
	fail "merge.sh failed: $(cat "$tmp/err")"
for g in $STUDY_GRIDS; do
	cmp -s "$out/$g/sweep.csv" "$tmp/merged/$g/sweep.csv" || fail "merged $g/sweep.csv differs"
done
"$src/study/tables.sh" "$out" >"$tmp/t1.md" || fail "tables.sh failed"
cmp -s "$tmp/t1.md" "$tmp/merged/tables.md" || fail "the merged study prints other tables"
echo "two shards merged: every sweep.csv and table the same"
"$src/study/tables.sh" "$out" >"$tmp/t2.md"
cmp -s "$tmp/t1.md" "$tmp/t2.md" || fail "tables.sh printed two different pages"
[ "$(grep -c '^### ' "$tmp/t1.md")" -eq 11 ] || fail "tables.sh: want 11 tables"
if command -v gnuplot >/dev/null; then
	"$src/study/plots.sh" "$out" "$tmp/plots" >/dev/null 2>"$tmp/err" || fail "plots.sh failed: $(cat "$tmp/err")"
	# the cut grid has no jitter-0 point, so no error_vs_rtt figure
	for f in error_vs_loss accuracy_vs_rtt accuracy_vs_loss; do
		head -c 2000 "$tmp/plots/$f.svg" | grep -q '<svg' || fail "plots.sh: no $f.svg"
	done
	grep -q "error_vs_rtt: no point" "$tmp/err" || fail "plots.sh: an empty slice not reported"
fi
pass "study tables from cut-down grids"
