#!/usr/bin/env bash
# bench_sweep.sh BUILD: how fast a simulated sweep runs. A benchmark (run
# by `cmake --build BUILD --target bench`), never a pass/fail test: it
# prints wall-clock figures for tests/sweep/tiny.ini (8 points x 2
# repetitions of 6 s of movement, synthetic bots) with 1 and 2 workers,
# without plots, then the time the plots add.
set -euo pipefail
build=${1:?usage: bench_sweep.sh BUILD_DIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
reckond=$build/daemon/reckond
[ -x "$reckond" ] || { echo "bench_sweep: $reckond is not built"; exit 0; }
tmp=$(mktemp -d /tmp/reckon-sweep-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
for j in 1 2; do
	t0=$(now)
	"$reckond" -q sweep -j$j --no-plots -o "$tmp/j$j" "$here/tiny.ini" >/dev/null 2>&1
	t1=$(now)
	awk -v a="$t0" -v b="$t1" -v j="$j" 'BEGIN {
		printf "sweep_bench: tiny.ini, 8 points x 2 reps, -j%d: %.3f s (%.1f points/s)\n",
			j, b - a, 8 / (b - a) }'
done
if command -v gnuplot >/dev/null; then
	t0=$(now)
	"$reckond" -q sweep -j2 -o "$tmp/plots" "$here/tiny.ini" >/dev/null 2>&1
	t1=$(now)
	awk -v a="$t0" -v b="$t1" 'BEGIN {
		printf "sweep_bench: the same with plots (4 sweep + 8 CDF figures), -j2: %.3f s\n", b - a }'
fi
