#!/bin/bash
# bench_sim_players.sh: the simulator's speed on a crowded lag-compensation
# match. One TLC fps-server and N fps-clients (default 64: with the
# server, the scenario's 65-host limit) play SECS seconds (default 10) of
# an N-bot game on dust at 60 Hz over 8 ms links, RUNS times (default 5:
# a shared machine's runs of one binary differ by a third); prints each
# run's progress line (virtual seconds, wall seconds, speed over real
# time, datagrams) and the CPU time it took, then the wall times' min,
# median and max with their speeds. SNAP_HZ=H in the environment gives
# the server --snapshot-hz H. Prints; asserts nothing.
#
# usage: [RUNS=R] bench_sim_players.sh BUILD_DIR [N [SECS]]
build=$(cd "${1:?usage: $0 BUILD_DIR [N [SECS]]}" && pwd)
n=${2:-64}
secs=${3:-10}
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export RECKON_MAP_DIR=$src/scenarios/maps
{
	printf '[scenario]\nname = lc-players-%d\nduration = %ds\nseed = 3\n' \
		"$n" $((secs + 1))
	printf 'results = %s/results\n\n[host srv]\nrole = fps-server\n' "$tmp"
	printf 'args = --mode tlc --map dust --port 47100 --duration %d%s\n\n' \
		"$secs" "${SNAP_HZ:+ --snapshot-hz $SNAP_HZ}"
	for e in $(seq 0 $((n - 1))); do
		printf '[host c%d]\nrole = fps-client\n' "$e"
		printf 'args = --entity %d --server {addr:srv}:47100 --map dust ' "$e"
		printf -- '--bots %d --duration %d\n\n' "$n" "$secs"
	done
	printf '[defaults]\nlink = delay 8ms\n'
} >"$tmp/players.ini"
TIMEFORMAT='  CPU %U s user + %S s system, %R s wall'
for r in $(seq "${RUNS:-5}"); do
	rm -rf "$tmp/results"
	{ time "$build/daemon/reckond" sim "$tmp/players.ini" 2>&1 |
		grep ': rep '; } 2>&1 | tee -a "$tmp/runs"
done
# the progress lines' wall seconds: "... simulated in W s (...)"
sed -n 's/.* simulated in \([0-9.]*\) s .*/\1/p' "$tmp/runs" | sort -n |
	awk -v v=$((secs + 1)) '{ w[NR] = $1 }
	END {
		if (!NR) exit 1
		m = w[int((NR + 1) / 2)]
		printf "%d runs: wall min %.3f s (%.0fx), median %.3f s " \
			"(%.0fx), max %.3f s\n", NR, w[1], v / w[1], m, v / m,
			w[NR]
	}'
