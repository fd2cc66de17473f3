#!/usr/bin/env bash
# plots.sh BUILD: the figures and index.html of a sweep. Runs
# tests/sweep/tiny.ini (8 simulated points) and checks that every figure
# the grid calls for exists as an SVG whose root element is <svg> and as a
# PNG (by its signature), that each point has its error CDF, and that the
# index pages show the figures and one table row per point x predictor.
# Then with RECKON_GNUPLOT pointing nowhere the same sweep must still
# succeed, warn that gnuplot is missing and write index.html without
# figures. A sweep with 20 curves against one axis must draw them all,
# as two figures of 16 and 4 curves. A lag-compensation run whose
# condition label holds a % (loss=5%, which gnuplot reads as a format in
# a tic label: point 2 of scenarios/study/lagcomp.ini, one repetition)
# must draw its figures against the condition, and a point printed by
# `sweep --point` from a scenario with [game] must load. Without gnuplot on the machine the
# parts that need it are skipped.
set -euo pipefail
build=${1:?usage: plots.sh BUILD_DIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
reckond=$build/daemon/reckond
[ -x "$reckond" ] || { echo "SKIP: $reckond is not built"; exit 77; }
tmp=$(mktemp -d /tmp/reckon-sweep-plots.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# An SVG document: optional XML declaration, doctype and comments, then
# the <svg> root, and the file ends with </svg>.
svg_ok() {
	head -c 4096 "$1" | tr '\n' ' ' |
		sed -E 's/<\?xml[^>]*\?>//; s/<!DOCTYPE[^>]*>//; s/<!--([^-]|-[^-])*-->//g' |
		grep -Eq '^[[:space:]]*<svg[[:space:]>]' || return 1
	[ "$(grep -v '^[[:space:]]*$' "$1" | tail -n 1 | tr -d '[:space:]')" = "</svg>" ]
}
png_ok() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }

# --- with gnuplot off: warned, skipped, index still written ---
RECKON_GNUPLOT=/nonexistent/gnuplot "$reckond" -q sweep -j2 -o "$tmp/nogp" \
	"$here/tiny.ini" 2>"$tmp/err" || fail "sweep failed without gnuplot: $(cat "$tmp/err")"
grep -q "gnuplot not found" "$tmp/err" || fail "no warning about gnuplot"
[ -f "$tmp/nogp/index.html" ] || fail "no index.html without gnuplot"
grep -q "No figures" "$tmp/nogp/index.html" || fail "index.html claims figures"
[ -z "$(find "$tmp/nogp" -name '*.svg')" ] || fail "SVG written without gnuplot"
[ -f "$tmp/nogp/sweep.csv" ] || fail "no sweep.csv without gnuplot"
echo "without gnuplot: warned, no figures, index.html and sweep.csv written"

if ! command -v gnuplot >/dev/null; then
	echo "SKIP: gnuplot is not installed (deploy/setup.sh installs gnuplot-nox)"
	exit 77
fi
"$reckond" -q sweep -j2 -o "$tmp/gp" "$here/tiny.ini" 2>"$tmp/err" ||
	fail "sweep failed: $(cat "$tmp/err")"
figs="error_vs_link_delay error_vs_link_loss error_vs_predictor_dis_pos_threshold
      updates_vs_predictor_dis_pos_threshold"
for f in $figs; do
	svg_ok "$tmp/gp/plots/$f.svg" || fail "$f.svg is not an SVG document"
	png_ok "$tmp/gp/plots/$f.png" || fail "$f.png is not a PNG"
	grep -q "plots/$f.svg" "$tmp/gp/index.html" || fail "index.html lacks $f"
done
# error against delay: one curve per predictor x loss x threshold = 8,
# each with the 2 delays
[ "$(grep -c '^# ' "$tmp/gp/plots/error_vs_link_delay.dat")" -eq 8 ] ||
	fail "error_vs_link_delay.dat: want 8 series"
[ "$(grep -c '^[0-9]' "$tmp/gp/plots/error_vs_link_delay.dat")" -eq 16 ] ||
	fail "error_vs_link_delay.dat: want 16 points"
# updates against the dis threshold: dis rows only
grep -q '^# led' "$tmp/gp/plots/updates_vs_predictor_dis_pos_threshold.dat" &&
	fail "led rows in the dis threshold figure"
[ "$(grep -c '<tr>' "$tmp/gp/index.html")" -eq 17 ] || fail "sweep table: want 1 + 16 rows"
for p in "$tmp"/gp/points/p*; do
	svg_ok "$p/plots/error_cdf.svg" || fail "$p: error_cdf.svg"
	png_ok "$p/plots/error_cdf.png" || fail "$p: error_cdf.png"
	grep -q 'plots/error_cdf.svg' "$p/index.html" || fail "$p/index.html"
	# the per-frame CDF: one series per predictor (dis, led), each a CDF
	# from 0 to 1 with every x on the log axis (>= 0.01 u)
	d=$p/plots/error_frame_cdf.dat
	svg_ok "$p/plots/error_frame_cdf.svg" || fail "$p: error_frame_cdf.svg"
	grep -q 'plots/error_frame_cdf.svg' "$p/index.html" || fail "$p/index.html: no frame CDF"
	[ "$(grep -cE '^# (dis|led)$' "$d")" -eq 2 ] || fail "$d: want 2 series"
	awk '/^#/ { if (seen && last != 1) bad = 1; seen = 0; prev = 0; next }
	     NF == 2 { if ($1 < 0.01 || $2 < prev) bad = 1; prev = $2; last = $2; seen = 1 }
	     END { exit bad || last != 1 }' "$d" || fail "$d: not a CDF on a log axis"
done

# --- more curves than a figure holds: split, none dropped ---
# 5 loss rates: error against delay has 2 predictors x 5 losses x 2
# thresholds = 20 curves, drawn as 16 + 4 in error_vs_link_delay and
# error_vs_link_delay-2, each curve with its 2 delays
sed 's/^link.loss = .*/link.loss = 0% 1% 2% 3% 4%/' "$here/tiny.ini" >"$tmp/wide.ini"
"$reckond" sweep -j2 -o "$tmp/wide" "$tmp/wide.ini" >/dev/null 2>"$tmp/err" ||
	fail "wide sweep failed: $(cat "$tmp/err")"
grep -q "plot error_vs_link_delay: 20 curves, drawn as 2 figures of at most 16" "$tmp/err" ||
	fail "the split was not logged: $(cat "$tmp/err")"
d=$tmp/wide/plots
for f in error_vs_link_delay error_vs_link_delay-2; do
	svg_ok "$d/$f.svg" || fail "$f.svg is not an SVG document"
	png_ok "$d/$f.png" || fail "$f.png is not a PNG"
	grep -q "plots/$f.svg" "$tmp/wide/index.html" || fail "index.html lacks $f"
done
[ -e "$d/error_vs_link_delay-3.dat" ] && fail "a third part for 20 curves"
[ "$(grep -c '^# ' "$d/error_vs_link_delay.dat")" -eq 16 ] || fail "part 1: want 16 curves"
[ "$(grep -c '^# ' "$d/error_vs_link_delay-2.dat")" -eq 4 ] || fail "part 2: want 4 curves"
[ "$(cat "$d"/error_vs_link_delay*.dat | grep -c '^[0-9]')" -eq 40 ] ||
	fail "want 20 curves x 2 delays = 40 points over the two parts"
[ "$(cat "$d"/error_vs_link_delay*.dat | grep '^# ' | sort -u | wc -l)" -eq 20 ] ||
	fail "a curve is drawn twice or not at all"
grep -q 'Curves 17 to 20 of 20' "$tmp/wide/index.html" || fail "no caption for part 2"
echo "20 curves: 16 + 4 in two figures, none dropped"
# --- a % in a tic label: the lag-compensation figures of a run ---
root=$(cd "$here/../.." && pwd)
"$reckond" sweep --point 2 "$root/scenarios/study/lagcomp.ini" |
	sed "s|^repetitions = .*|repetitions = 1|; s|^results = .*|results = $tmp/lc|" >"$tmp/lc.ini"
grep -q -- '--condition delay=0ms_jitter=0ms_loss=5%' "$tmp/lc.ini" || fail "point 2 is not loss 5%"
"$reckond" -q sim "$tmp/lc.ini" >/dev/null 2>"$tmp/err" || fail "lagcomp run failed: $(cat "$tmp/err")"
grep -q "plot .* failed" "$tmp/err" && fail "a figure failed: $(cat "$tmp/err")"
for f in hit_accuracy_vs_condition sbc_low_vs_condition; do
	svg_ok "$(echo "$tmp"/lc/study-lagcomp-*/plots/$f.svg)" ||
		fail "$f.svg (a condition with a %) is not an SVG document"
done
echo "a % in a condition label: the lag-compensation figures drawn"
# a printed point of a [game] scenario loads: its agents' args do not
# get --condition, which [game] owns
"$reckond" sweep --point 30 "$root/scenarios/study/predictors.ini" >"$tmp/p30.ini"
"$reckond" -n "$tmp/p30.ini" >"$tmp/err" 2>&1 || fail "point 30 does not load: $(cat "$tmp/err")"
echo "sweep --point of a [game] scenario: loads"
echo "PASS: $(find "$tmp/gp" -name '*.svg' | wc -l) SVG figures, each with its PNG"
