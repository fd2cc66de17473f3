#!/usr/bin/env bash
# run.sh [-j N] [--shard I/N] [-o OUT] [BUILD]: the whole study of
# docs/STUDY.md and docs/REPRODUCTION.md in one command, in order:
#  1. the papers' experiments on our data (study/papers.sh), into
#     OUT/papers and OUT/papers.md;
#  2. the four grids of scenarios/study/ (predictors, predictors-burst,
#     lagcomp, lagcomp-burst) through the simulator (`reckond sweep`,
#     which shows its progress), into OUT/GRID;
#  3. the emulated spot checks (study/spot.sh, root), into OUT/spot and
#     OUT/spot.md (a count that differs is reported, the study goes on,
#     and run.sh exits 1 at the end);
#  4. every table of docs/STUDY.md (study/tables.sh), into OUT/tables.md,
#     and its figures (study/plots.sh), into OUT/plots.
# Each step prints its time, and the total is printed at the end.
#
# OUT defaults to results/study; BUILD to build/. -j N runs N grid points
# at once (default: one per CPU). Everything is seeded: the same command
# gives the same numbers (the spot checks' emulated figures excepted:
# they come from real timing).
#
# Sharded onto a cluster: `run.sh --shard I/N -o OUT_I` on node I runs
# only the grid points k with k % N == I (step 2 alone); then, on one
# machine with every OUT_I, `study/merge.sh OUT OUT_0 ... OUT_N-1`
# merges the grids (reckonctl merge: byte for byte the unsharded
# result) and prints the tables. Steps 1 and 3 then run with
# `run.sh --papers-only -o OUT` and `study/spot.sh OUT/spot`.
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=$(nproc)
shard=
out=$root/results/study
build=$root/build
only=
usage() {
	echo "usage: run.sh [-j N] [--shard I/N | --papers-only] [-o OUT] [BUILD]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	-j) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
	--shard) [ $# -ge 2 ] || usage; shard=$2; shift 2 ;;
	--papers-only) only=papers; shift ;;
	-o) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
	-h | --help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) usage ;;
	*) build=$1; shift ;;
	esac
done
build=$(cd "$build" && pwd)
reckond=$build/daemon/reckond
[ -x "$reckond" ] || { echo "run.sh: $reckond is not built (cmake --build build)" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
. "$root/study/grids.sh"
grids=$STUDY_GRIDS
t0=$(date +%s)

# step NAME CMD...: run CMD, then print how long it took
step() {
	local name=$1 s
	shift
	s=$(date +%s)
	echo "== $name"
	"$@"
	echo "== $name: $(( $(date +%s) - s )) s"
}

grid() { # GRID: one sweep, replacing an earlier result of it
	local args=(-j "$jobs")
	[ -n "$shard" ] && args+=(--shard "$shard")
	rm -rf "${out:?}/$1"
	"$reckond" sweep "${args[@]}" -o "$out/$1" "$root/scenarios/study/$1.ini" \
		>"$out/$1.log"
	tail -n 1 "$out/$1.log"
}

papers() {
	"$root/study/papers.sh" "$build" "$out/papers" | tee "$out/papers.md"
}

if [ "$only" = papers ]; then
	step papers papers
	exit 0
fi
[ -z "$shard" ] && step papers papers
for g in $grids; do
	step "grid $g" grid "$g"
done
if [ -n "$shard" ]; then
	echo "shard $shard done in $(( $(date +%s) - t0 )) s; merge with study/merge.sh"
	exit 0
fi
spot_ok=1
if [ "$(id -u)" -eq 0 ]; then
	step "spot checks" bash -c 'set -o pipefail; "$1/study/spot.sh" "$2" "$3/spot" | tee "$3/spot.md"' \
		_ "$root" "$build" "$out" || spot_ok=0
else
	echo "== spot checks skipped: the emulated runs need root (study/spot.sh)"
fi
step tables bash -c '"$1/study/tables.sh" "$2" >"$2/tables.md"' _ "$root" "$out"
if command -v gnuplot >/dev/null; then
	step plots "$root/study/plots.sh" "$out"
else
	echo "== plots skipped: gnuplot is not installed"
fi
echo "study: $(( $(date +%s) - t0 )) s in all; tables in $out/tables.md"
if [ "$spot_ok" = 0 ]; then
	echo "study: the spot checks found a count that differs between the" \
		"emulated and the simulated run (OUT/spot.md); exit 1" >&2
	exit 1
fi
