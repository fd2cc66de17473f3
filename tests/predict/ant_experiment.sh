#!/usr/bin/env bash
# ant_experiment.sh: the AntReckoning figures of docs/predictors.md
# (paper 001 §6 on our synthetic arena traces), as a reproducible
# benchmark (it prints figures; it is not a pass/fail test): the trace
# (10 bots, 600 s, seed 1, 64 Hz), the accuracy table at the horizons
# delta = 5..80 frames of 50 ms and the updates at matched thresholds
# (reckon-agent replay --experiment ant), the same with the exact source
# set (reach=0) to show the window changes nothing, and the replay cost
# against DIS FPW (predict_bench_ant). It runs from any directory (it
# changes to the repository root, where the map files are). Usage:
# ant_experiment.sh [BUILD_DIR]   (default: the repository's build/)
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
build=$(cd "$build" && pwd)
agent=$build/agents/reckon-agent
bench=$build/tests/predict/predict_bench_ant
if [ ! -x "$agent" ]; then
	echo "ant_experiment.sh: $agent not built" >&2
	exit 1
fi
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== trace: reckon-agent trace gen --map arena --bots 10" \
	"--duration 600 --seed 1 -o arena.csv"
"$agent" trace gen --map arena --bots 10 --duration 600 --seed 1 \
	-o "$tmp/arena.csv"
echo "== reckon-agent replay --trace arena.csv --experiment ant"
"$agent" replay --trace "$tmp/arena.csv" --experiment ant
echo "== the same with every source depositing (--ant-params reach=0)"
"$agent" replay --trace "$tmp/arena.csv" --experiment ant \
	--ant-params reach=0
if [ -x "$bench" ]; then
	echo "== predict_bench_ant"
	"$bench"
else
	echo "== predict_bench_ant not built (cmake --build build --target" \
		"predict_bench_ant)"
fi
