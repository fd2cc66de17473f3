#!/usr/bin/env bash
# plots.sh OUT [DEST]: the figures of docs/STUDY.md, as SVG, from the
# study's sweeps in OUT (study/run.sh), written to DEST (default
# OUT/plots). Each is one slice of a grid, one curve per predictor or
# lag-compensation mode, error bars the 95% confidence half-widths of
# sweep.csv:
#   error_vs_rtt.svg       mean error against RTT (no jitter, no loss)
#   error_vs_loss.svg      mean error against random and bursty loss
#                          (RTT 100 ms, jitter 10 ms)
#   accuracy_vs_rtt.svg    hit-registration accuracy against RTT
#                          (jitter 10 ms, no loss)
#   accuracy_vs_loss.svg   the same against random loss (RTT 100 ms,
#                          jitter 10 ms)
# Needs gnuplot (deploy/setup.sh installs gnuplot-nox).
set -euo pipefail
export LC_ALL=C
out=${1:?usage: plots.sh OUT [DEST]}
dest=${2:-$out/plots}
command -v gnuplot >/dev/null || { echo "plots.sh: gnuplot is not installed" >&2; exit 1; }
mkdir -p "$dest"

# slice CSV... -- X_COL Y_COL FILTER: gnuplot data blocks, one per
# predictor ("# NAME" then "x y ci" lines), x from the named column with
# its unit and % stripped, burst-rate columns written as loss
slice() {
	local files=()
	while [ "$1" != -- ]; do files+=("$1"); shift; done
	shift
	awk -F, -v xc="$1" -v yc="$2" -v filt="$3" '
	FNR == 1 { delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
	{
		d = $c["link.delay"] + 0; j = $c["link.jitter"] + 0
		burst = "link.burst_rate" in c
		l = burst ? $c["link.burst_rate"] + 0 : $c["link.loss"] + 0
		if (filt == "j0l0" && !(j == 0 && l == 0 && !burst)) next
		if (filt == "j10l0" && !(j == 10 && l == 0 && !burst)) next
		if (filt == "rtt100j10" && !(d == 50 && j == 10)) next
		if (filt == "rtt100j10r" && !(d == 50 && j == 10 && !burst)) next
		if (filt == "rtt100j10b" && !(d == 50 && j == 10 && (burst || l == 0))) next
		x = xc == "rtt" ? 2 * d : l
		p = $c["predictor"]; sub(/^lagcomp-/, "", p)
		if (!(p in seen)) { seen[p] = 1; order[++np] = p }
		v[p] = v[p] sprintf("%g %s %s\n", x, $c[yc], $c[yc "_ci95"])
	}
	END { for (i = 1; i <= np; i++) printf "# %s\n%s\n\n", order[i], v[order[i]] }' \
		"${files[@]}"
}

# figure NAME XLABEL YLABEL DATA [DATA2 LABEL2]: one SVG; with DATA2, its
# curves are drawn dashed with LABEL2 after each name
figure() {
	local name=$1 xl=$2 yl=$3 data=$4 data2=${5:-} l2=${6:-}
	local n i plot=""
	n=$(grep -c '^# ' "$data" || true)
	if [ "$n" -eq 0 ]; then
		echo "plots.sh: $name: no point of the grid in this slice" >&2
		return 0
	fi
	for ((i = 0; i < n; i++)); do
		t=$(grep '^# ' "$data" | sed -n "$((i + 1))p" | cut -c3-)
		plot+="'$data' index $i using 1:2:3 with yerrorlines lt $((i + 1)) title '$t', "
		if [ -n "$data2" ]; then
			plot+="'$data2' index $i using 1:2:3 with yerrorlines lt $((i + 1)) dt 2 title '$t $l2', "
		fi
	done
	gnuplot <<EOF 2>>"$dest/gnuplot.log"
set terminal svg size 760,520 noenhanced font "sans,12"
set output '$dest/$name.svg'
set xlabel '$xl'
set ylabel '$yl'
set key outside right top
set grid
set offsets graph 0.03, graph 0.03, 0, 0
plot ${plot%, }
EOF
}

P=$out/predictors/sweep.csv
B=$out/predictors-burst/sweep.csv
L=$out/lagcomp/sweep.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
slice "$P" -- rtt err_mean j0l0 >"$tmp/rtt.dat"
figure error_vs_rtt "RTT (ms); no jitter, no loss" "mean position error (u)" "$tmp/rtt.dat"
slice "$P" -- loss err_mean rtt100j10r >"$tmp/loss.dat"
slice "$P" "$B" -- loss err_mean rtt100j10b >"$tmp/burst.dat"
figure error_vs_loss "loss (%); RTT 100 ms, jitter 10 ms; dashed: bursty (mean burst 4)" \
	"mean position error (u)" "$tmp/loss.dat" "$tmp/burst.dat" "(bursty)"
slice "$L" -- rtt lc_reg_accuracy j10l0 >"$tmp/lrtt.dat"
figure accuracy_vs_rtt "RTT (ms); jitter 10 ms, no loss" "hit-registration accuracy" "$tmp/lrtt.dat"
slice "$L" -- loss lc_reg_accuracy rtt100j10r >"$tmp/lloss.dat"
figure accuracy_vs_loss "random loss (%); RTT 100 ms, jitter 10 ms" "hit-registration accuracy" "$tmp/lloss.dat"
ls "$dest"/*.svg 2>/dev/null || true
