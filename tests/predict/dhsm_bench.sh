#!/usr/bin/env bash
# dhsm_bench.sh: how long `reckon-agent replay` takes with dhsm against
# dis fpw on the same trace, 10 bots x 600 s on arena at 64 Hz (384,000
# samples), best of 3 runs each, and the ratio dhsm / dis (the budget is
# 3x: dhsm runs two models per tick plus the goal of every sample and a
# line-of-sight walk on breaches). Prints figures; not pass/fail.
# Usage: dhsm_bench.sh [BUILD_DIR]
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
build=$(cd "$build" && pwd)
agent=$build/agents/reckon-agent
[ -x "$agent" ] || { echo "dhsm_bench.sh: $agent not built" >&2; exit 1; }
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$agent" trace gen --map arena --bots 10 --duration 600 --seed 1 \
	-o "$tmp/arena.csv" >/dev/null 2>&1

best() { # best LABEL ARGS...: the best wall time of 3 replays, in s
	local label=$1 b="" t0 t1 s
	shift
	for _ in 1 2 3; do
		t0=$(date +%s%N)
		"$agent" replay --trace "$tmp/arena.csv" "$@" >/dev/null
		t1=$(date +%s%N)
		s=$(( (t1 - t0) / 1000 ))
		if [ -z "$b" ] || [ "$s" -lt "$b" ]; then b=$s; fi
	done
	echo "$b"
}
dis=$(best dis --predictor dis --param algorithm=fpw --param pos_threshold=20)
dhsm=$(best dhsm --predictor dhsm --param tau=20)
awk -v a="$dis" -v b="$dhsm" 'BEGIN {
	printf "replay, arena 10 bots x 600 s, 64 Hz: dis fpw %.3f s, dhsm %.3f s," \
		" ratio %.2f (budget 3)\n", a / 1e6, b / 1e6, b / a }'
