#!/usr/bin/env bash
# bench_setup.sh: how long reckond takes to build and tear down a run of N
# hosts (namespaces, veths, addresses, bridge) when every host exits at
# once, for N = 2, 8, 32, 64. Prints seconds per run (median of 3). A
# benchmark: it prints figures and never fails on them.
set -u
build=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
reckond=$build/daemon/reckond
if [ "$(id -u)" -ne 0 ] || [ ! -x "$reckond" ]; then
	echo "bench_setup: skipped (needs root and $reckond)"
	exit 0
fi
tmp=$(mktemp -d /tmp/reckon-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
printf '%-6s %s\n' hosts "set-up + tear-down (s, median of 3)"
for n in 2 8 32 64; do
	{
		printf '[scenario]\nname = bench%d\nduration = 60s\n' "$n"
		for i in $(seq "$n"); do printf '[host h%d]\nexec = true\n' "$i"; done
	} >"$tmp/b$n.ini"
	times=
	for _ in 1 2 3; do
		t0=$(date +%s.%N)
		(cd "$tmp" && "$reckond" -q -s "$tmp/s" run "$tmp/b$n.ini") >/dev/null 2>&1 ||
			echo "bench_setup: run with $n hosts failed"
		t1=$(date +%s.%N)
		times="$times $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')"
	done
	printf '%-6s %s\n' "$n" "$(echo $times | tr ' ' '\n' | sort -n | sed -n 2p)"
done
