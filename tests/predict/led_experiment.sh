#!/usr/bin/env bash
# led_experiment.sh: Steele's led reckoning experiment (paper 000 §VI) on
# our own synthetic dust traces, as a reproducible benchmark (it prints
# figures; it is not a pass/fail test). It regenerates every figure of the
# experiment section of docs/predictors.md, in the order they appear
# there: the trace (20 bots, 1500 s, 60 Hz, seed 7) and its path count;
# the main table (500 distinct subjects, seed 1, DR at eta = 20 u against
# led with eta in [5, 35] u, trend maps from the rest of the subject's
# team); the blend-time sweep rows; trigger=projection (A6 mode L); no
# team filter (--all-teams); the back-to-back shares (b2b%) of DR at
# several blend times and of led at its defaults, over all paths; and the
# default run with seed 2. It runs from any directory (it changes to the
# repository root, where the map files are) in about a minute. Usage:
# led_experiment.sh [BUILD_DIR]   (default: the repository's build/)
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
build=$(cd "$build" && pwd) # relative to the caller's directory
agent=$build/agents/reckon-agent
if [ ! -x "$agent" ]; then
	echo "led_experiment.sh: $agent not built" >&2
	exit 1
fi
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trace=$tmp/dust.csv
blends="0.05 0.1 0.25 0.5 1.0"

experiment() { # experiment SEED [ARG...]
	local seed=$1
	shift
	"$agent" replay --trace "$trace" --experiment led --subjects 500 \
		--seed "$seed" "$@"
}

echo "== trace: reckon-agent trace gen --map dust --bots 20" \
	"--duration 1500 --seed 7 --tick-hz 60"
"$agent" trace gen --map dust --bots 20 --duration 1500 --seed 7 \
	--tick-hz 60 -o "$trace"

echo
echo "== main table: led reckoning vs DR, seed 1 (synthetic data, not the" \
	"paper's)"
experiment 1

echo
echo "== blend sweep (B at eta = 20; 0.25 s is the default), seed 1"
for b in $blends; do
	echo "-- blend $b s"
	experiment 1 --param blend="$b" | tail -2
done

echo
echo "== trigger = projection (Algorithm 1 literal, A6 mode L), seed 1"
experiment 1 --param trigger=projection | tail -2

echo
echo "== trend maps from both teams (--all-teams), seed 1"
experiment 1 --all-teams | tail -2

echo
echo "== back-to-back updates (b2b%) and updates/s over all paths"
b2b_row() { # b2b_row LABEL [ARG...]: the overall row of one replay
	local label=$1 row paths secs ups b2b mean p95 max
	shift
	row=$("$agent" replay --trace "$trace" --predictor led "$@" | tail -1)
	read -r _ paths secs ups b2b mean p95 max <<<"$row"
	printf '%-22s %6s %10s %8s %6s %9s %9s %9s\n' "$label" "$paths" \
		"$secs" "$ups" "$b2b" "$mean" "$p95" "$max"
}
printf '%-22s %6s %10s %8s %6s %9s %9s %9s\n' run paths seconds upd/s \
	b2b% err_mean err_p95 err_max
for b in $blends; do
	b2b_row "DR eta=20 blend=$b" --param eta_min=20 --param eta_max=20 \
		--param blend="$b"
done
b2b_row "led defaults"

echo
echo "== main table with seed 2"
experiment 2 | tail -2
