#!/usr/bin/env bash
# dhsm_offline.sh: the offline DHSM experiment of paper 004 (McCoy et
# al., Tables 1 and 2) on our own synthetic traces, as a benchmark that
# prints figures (never pass/fail). It regenerates the tables of the
# "Offline results" part of the dhsm section of docs/predictors.md.
# For each map (loop, and the loop2/loop3 environments) it generates one
# 1-vs-1 session: the non-reactive loop bot (entity 0) and one pursuer
# (entity 1, the paper's human subject), 600 s at the paper's 20 Hz, seed
# 1. It then replays the pursuer at zero latency with DR (dhsm
# models=dr, which is dis fpw with snap convergence, update for update)
# and with DHSM (models=dr+sp, LOS gate on the map, fov 90) at the
# paper's 20 thresholds 0.5 ... 10, scaled from Torque units to ours by
# the ratio of run speeds, 250 u/s / 14 units/s = 17.857 u per Torque
# unit. Packets count every update including the initial state (notes
# A9); E is the mean error per tick; %Red = 100 (DHSM - DR) / DR, negative
# when DHSM does better. Runs from any directory in a few seconds.
# Usage: dhsm_offline.sh [BUILD_DIR]   (default: the repository's build/);
# TRACES=DIR keeps the three traces there (MAP.csv) instead of in a
# temporary directory.
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
build=$(cd "$build" && pwd)
agent=$build/agents/reckon-agent
if [ ! -x "$agent" ]; then
	echo "dhsm_offline.sh: $agent not built" >&2
	exit 1
fi
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
traces=${TRACES:-$tmp}
mkdir -p "$traces"
scale=17.857142857 # u per Torque unit: 250 u/s / 14 units/s

# subject TRACE MODELS TAU_U: "packets err_mean" of entity 1
subject() {
	"$agent" replay --trace "$1" --predictor dhsm --param models="$2" \
		--param tau="$3" --json |
		sed -n 's/.*"entity": 1, .*"paths": \([0-9]*\), .*"updates": \([0-9]*\), .*"err_mean": \([0-9.]*\),.*/\1 \2 \3/p' |
		awk '{ print $1 + $2, $3 }'
}

for map in loop loop2 loop3; do
	trace=$traces/$map.csv
	echo "== $map: reckon-agent trace gen --map $map --bots 2" \
		"--duration 600 --seed 1 --tick-hz 20 (synthetic, not the paper's data)"
	"$agent" trace gen --map "$map" --bots 2 --duration 600 --seed 1 \
		--tick-hz 20 -o "$trace" >/dev/null 2>&1
	printf '%6s %8s %7s %7s %7s %8s %8s %7s\n' tau tau_u DR DHSM %Red \
		E_DR E_DHSM %Red
	for i in $(seq 1 20); do
		tp=$(awk -v i="$i" 'BEGIN { printf "%.1f", i / 2 }')
		tu=$(awk -v t="$tp" -v s="$scale" 'BEGIN { printf "%.3f", t * s }')
		read -r pd ed <<<"$(subject "$trace" dr "$tu")"
		read -r ph eh <<<"$(subject "$trace" dr+sp "$tu")"
		awk -v tp="$tp" -v tu="$tu" -v pd="$pd" -v ph="$ph" \
			-v ed="$ed" -v eh="$eh" 'BEGIN {
			printf "%6s %8s %7d %7d %+7.2f %8.3f %8.3f %+7.2f\n",
				tp, tu, pd, ph, 100 * (ph - pd) / pd, ed, eh,
				100 * (eh - ed) / ed }'
	done
	# how the pursuer moves relative to the bot, every tick (no LOS test)
	awk -F, '/^[0-9]/ {
		if ($2 == 0) { gx = $5; gy = $6; next }
		if ($2 != 1 || $4 != 1) next
		n++; sp = sqrt($8 * $8 + $9 * $9)
		if (sp < 50) { still++; next }
		dx = gx - $5; dy = gy - $6; d = sqrt(dx * dx + dy * dy)
		if (d <= 0) next
		c = ($8 * dx + $9 * dy) / (sp * d)
		if (c > 0.9) to++; else if (c < 0) away++
	} END {
		printf "pursuer ticks: %.1f%% still (< 50 u/s), %.1f%% running at" \
			" the bot (cos > 0.9), %.1f%% running away from it (cos < 0)\n",
			100 * still / n, 100 * to / n, 100 * away / n
	}' "$trace"
	echo
done
