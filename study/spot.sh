#!/usr/bin/env bash
# spot.sh [BUILD] OUT: the study's emulated spot checks (docs/STUDY.md).
# One grid point of scenarios/study/predictors.ini (every predictor, one
# run) and one of scenarios/study/lagcomp.ini (every lag-compensation
# mode) run twice with the same seed: in network namespaces through the
# userspace bridge (`reckond run`, real agents and sockets; root) and in
# the simulator (`reckond sim`). The point is RTT 100 ms, jitter 10 ms,
# random loss 5% (point 30 of both grids), with 3 repetitions of the
# predictor grid and 1 of the lag-compensation grid.
#
# Printed as markdown, repetition by repetition (paired by seed):
#  - predictors: per predictor, the updates sent and received (summed
#    over the entities), which must be equal in both modes (the senders
#    do not depend on the network, and each link draws its loss per
#    datagram in the order its one sender sends; tests/sim/crossval.sh),
#    and the mean error in each mode with the difference;
#  - lag compensation: per mode, the shots, registered hits, SBC and
#    accuracy in each mode. These depend on real timing (60 Hz ticks of
#    28 agents on one machine), so they are compared, not required equal.
# Exit status 1 when a count that must be equal differs or a run fails.
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ $# -eq 2 ]; then
	build=$1
	out=$2
elif [ $# -eq 1 ]; then
	build=$root/build
	out=$1
else
	echo "usage: spot.sh [BUILD] OUT" >&2
	exit 2
fi
reckond=$build/daemon/reckond
[ -x "$reckond" ] || { echo "spot.sh: $reckond is not built" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "spot.sh: the emulated runs need root" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
point=30
bad=0

# scenario GRID REPS: point $point of the grid, REPS repetitions, results
# under $out/GRID, in the mode each command asks for (`reckond run`
# emulates, `reckond sim` simulates)
scenario() {
	"$reckond" sweep --point "$point" "$root/scenarios/study/$1.ini" |
		sed "s|^repetitions = .*|repetitions = $2|; s|^results = .*|results = $out/$1|;
		     s|^mode = simulate\$|mode = emulate|" >"$out/$1.ini"
	grep -q -- '--condition delay=50ms_jitter=10ms_loss=5%' "$out/$1.ini" || {
		echo "spot.sh: point $point of $1.ini is not RTT 100, jitter 10, loss 5%" >&2
		exit 1
	}
}

# run MODE GRID: reckond run|sim of $out/GRID.ini; prints the run directory
run() {
	local log=$out/$2-$1.log dir want
	"$reckond" "$1" "$out/$2.ini" >"$log" 2>&1 || {
		echo "spot.sh: reckond $1 $2 failed, see $log" >&2
		exit 1
	}
	dir=$(sed -n 's/^results: //p' "$log" | tail -n 1)
	want=emulation
	[ "$1" = sim ] && want=simulation
	grep -q "\"mode\": *\"$want\"" "$dir/run.json" || {
		echo "spot.sh: $dir/run.json: not a $want" >&2
		exit 1
	}
	echo "$dir"
}

# sums FILE KEY...: per predictor, the sums of columns KEY over entities
sums() {
	local f=$1
	shift
	awk -F, -v keys="$*" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ n = split(keys, k, " "); p = $c["predictor"]
		  if (!(p in seen)) { seen[p] = 1; order[++np] = p }
		  for (j = 1; j <= n; j++) s[p, j] += $c[k[j]] }
		END { for (i = 1; i <= np; i++) { printf "%s", order[i]
			for (j = 1; j <= n; j++) printf " %s", s[order[i], j]
			printf "\n" } }' "$f"
}

# mean error per predictor over the observer's entity rows, weighted by
# the frames each entity was seen (err_mean of metrics-obs.csv)
errs() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ p = $c["predictor"]; f = $c["frames"] - $c["frames_blind"]
		  if (!(p in seen)) { seen[p] = 1; order[++np] = p }
		  s[p] += f * $c["err_mean"]; n[p] += f }
		END { for (i = 1; i <= np; i++)
			printf "%s %.3f\n", order[i], n[order[i]] ? s[order[i]] / n[order[i]] : 0 }' "$1"
}

# pair GRID REPS: the point run emulated, then simulated (sets emu, sim)
pair() {
	echo "== $1: scenarios/study/$1.ini point $point, $2 repetition(s)"
	scenario "$1" "$2"
	emu=$(run run "$1")
	sim=$(run sim "$1")
	echo
}

where() {
	printf '\nemulated: %s\nsimulated: %s\n\n' "$emu" "$sim"
}

pair predictors 3
echo "| rep | predictor | sent (both) | received emulated | received simulated | error mean emulated (u) | simulated (u) | difference |"
echo "|---|---|---|---|---|---|---|---|"
for r in 1 2 3; do
	e=$emu/rep-$r
	s=$sim/rep-$r
	sums "$e/metrics-p1.csv" sent >"$out/e.sent"
	sums "$s/metrics-p1.csv" sent >"$out/s.sent"
	sums "$e/metrics-obs.csv" received >"$out/e.recv"
	sums "$s/metrics-obs.csv" received >"$out/s.recv"
	errs "$e/metrics-obs.csv" >"$out/e.err"
	errs "$s/metrics-obs.csv" >"$out/s.err"
	cmp -s "$out/e.sent" "$out/s.sent" || { echo "rep $r: updates sent differ" >&2; bad=1; }
	cmp -s "$out/e.recv" "$out/s.recv" || { echo "rep $r: updates received differ" >&2; bad=1; }
	paste -d' ' "$out/s.sent" "$out/e.recv" "$out/s.recv" "$out/e.err" "$out/s.err" |
		awk -v r="$r" '{ printf "| %d | %s | %d | %d | %d | %.2f | %.2f | %+.2f |\n",
			r, $1, $2, $4, $6, $8, $10, $8 - $10 }'
done
where
pair lagcomp 1
echo "| mode | shots emu / sim | registered emu / sim | accuracy emu / sim | SBC emu / sim |"
echo "|---|---|---|---|---|"
lc() { # DIR: mode shots registered accuracy sbc
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["predictor"] ~ /^lagcomp-/ { m = $c["predictor"]; sub(/^lagcomp-/, "", m)
		  printf "%s %d %d %.3f %d\n", m, $c["lc_shots"], $c["lc_registered"],
			$c["lc_reg_accuracy"], $c["lc_sbc_low"] + $c["lc_sbc_high"] }' "$1/summary.csv" | sort
}
join <(lc "$emu") <(lc "$sim") |
	awk '{ printf "| %s | %d / %d | %d / %d | %.3f / %.3f | %d / %d |\n",
		$1, $2, $6, $3, $7, $4, $8, $5, $9 }'
where
exit $bad
