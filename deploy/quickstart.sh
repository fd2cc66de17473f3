#!/usr/bin/env bash
# deploy/quickstart.sh BUILD [SCENARIO]: the quickstart that deploy/run.sh
# runs. It checks the scenario (reckond -n), runs it through the emulator
# (as root, or rootless in a user namespace where the kernel allows it),
# and prints the results table. If this machine cannot emulate at all, it
# says why and runs the same scenario in the simulator instead. A run
# whose directory lacks summary.csv or summary.json (reckond's own
# aggregation failed) is a failure, whatever reckond's exit status.
set -euo pipefail
build=${1:?usage: quickstart.sh BUILD [SCENARIO]}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
scenario=${2:-$here/scenarios/quickstart.ini}
reckond=$build/daemon/reckond
out=$(mktemp "${TMPDIR:-/tmp}/reckon-quickstart.XXXXXX")
trap 'rm -f "$out"' EXIT

# run MODE: reckond MODE SCENARIO, its stdout (table, "results: DIR")
# shown and kept in $out; sets rc to reckond's status
run() {
	rc=0
	{ "$reckond" "$1" "$scenario" | tee "$out"; rc=${PIPESTATUS[0]}; } || true
}

# The run directory reckond printed must hold the summary it writes.
check_summary() {
	local dir
	dir=$(sed -n 's/^results: //p' "$out" | tail -n 1)
	if [ -z "$dir" ] || [ ! -s "$dir/summary.csv" ] || [ ! -s "$dir/summary.json" ]; then
		echo "reckon: reckond wrote no summary.csv/summary.json${dir:+ in $dir} (see reckond.log there)" >&2
		exit 1
	fi
}

"$reckond" -n "$scenario"
cd "$here"
echo "reckon: running $(basename "$scenario") in real namespaces (about 3.5 minutes; Ctrl-C stops cleanly)" >&2
run run
if [ "$rc" -eq 0 ]; then
	check_summary
	exit 0
fi
if [ "$rc" -ge 128 ]; then
	exit "$rc"	# interrupted
fi
echo "reckon: the emulated run failed (status $rc; reasons above)." >&2
echo "reckon: running the same scenario in the simulator (virtual time) instead." >&2
run sim
[ "$rc" -eq 0 ] || exit "$rc"
check_summary
