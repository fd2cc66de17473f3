#!/usr/bin/env bash
# run_fuzz.sh BUILD SECONDS [TARGET...]: runs each libFuzzer target of a
# -DRECKON_FUZZ=ON build for SECONDS, starting from a copy of its seed
# corpus (the source tree is never written), and prints the executions
# per target and in total. A crash, leak or sanitizer report fails the
# run; libFuzzer leaves the input as crash-* (or leak-*, timeout-*) in
# BUILD/fuzz-out/TARGET, and it belongs in tests/fuzz/regress/NAME/ with
# the fix. Targets: spec scenario espdu roles map trace control
# (default: all).
set -euo pipefail
build=$(cd "${1:?usage: $0 BUILD SECONDS [TARGET...]}" && pwd)
secs=${2:?usage: $0 BUILD SECONDS [TARGET...]}
shift 2
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
t=$src/tests

# name  binary (relative to BUILD)  corpus directories
targets() {
	cat <<EOT
spec tests/netem/netem_fuzz_spec $t/fuzz/corpus/spec
scenario tests/scenario/scenario_fuzz $t/scenario/valid $t/scenario/broken $src/scenarios
espdu tests/proto/proto_fuzz_espdu $t/fuzz/corpus/espdu
roles tests/fuzz/fuzz_roles $t/fuzz/corpus/espdu
map tests/world/fuzz_world_map $src/scenarios/maps
trace tests/world/fuzz_world_trace $t/fuzz/corpus/trace
control tests/fuzz/fuzz_control $t/fuzz/corpus/control
EOT
}
want=" ${*:-spec scenario espdu roles map trace control} "
total=0
rc=0
while read -r name bin corpus; do
	case $want in *" $name "*) ;; *) continue ;; esac
	[ -x "$build/$bin" ] || { echo "FAIL: $name: no $build/$bin (configure with CC=clang -DRECKON_FUZZ=ON)"; rc=1; continue; }
	out=$build/fuzz-out/$name
	rm -rf "$out"; mkdir -p "$out/corpus"
	for d in $corpus $t/fuzz/regress/$name; do
		[ -d "$d" ] && find "$d" -maxdepth 1 -type f -exec cp {} "$out/corpus/" \;
	done
	log=$out/log
	if (cd "$out" && "$build/$bin" -max_total_time="$secs" -print_final_stats=1 \
		-max_len=8192 -timeout=10 -rss_limit_mb=1024 corpus) >"$log" 2>&1; then
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
		cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1)
		printf "  %-9s %12s execs in %ss, %s, corpus %s\n" "$name" "${execs:-?}" "$secs" "${cov:-cov: ?}" \
			"$(ls "$out/corpus" | wc -l)"
		total=$((total + ${execs:-0}))
	else
		echo "FAIL: $name: libFuzzer found a problem; input under $out:"
		ls "$out" | grep -E '^(crash|leak|timeout|oom|slow-unit)-' || true
		grep -E 'ERROR|SUMMARY|==[0-9]+==' "$log" | head -n 20
		rc=1
	fi
done < <(targets)
echo "fuzz: $total executions in total"
exit "$rc"
