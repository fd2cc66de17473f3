#!/usr/bin/env bash
# deploy/quickstart.sh BUILD [SCENARIO]: the quickstart that deploy/run.sh
# runs. It checks the scenario (reckond -n), runs it through the emulator
# (as root, or rootless in a user namespace where the kernel allows it),
# and prints the results table. Only if this machine cannot emulate at all
# (no network namespace can be made, as root or in a user namespace, or
# no veth pair inside one: probed first, with unshare and ip) does it say
# why and run the same scenario in the simulator instead. Any failure of
# an emulated run is a failure (exit status non-zero), never a fallback.
# A run whose directory lacks summary.csv or summary.json (reckond's own
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

# can_emulate: 0 if a network namespace with a veth pair can be made the
# way reckond will make it (as root, or rootless in a user namespace);
# else 1 with the reason in $why.
can_emulate() {
	local u= msg
	[ "$(id -u)" -eq 0 ] || u=-Ur
	# Without the probe's tools, reckond's own run decides.
	command -v unshare >/dev/null 2>&1 && command -v ip >/dev/null 2>&1 ||
		return 0
	if ! msg=$(unshare $u -n true 2>&1); then
		why="no network namespace can be created${u:+ in a user namespace} ($msg)"
		return 1
	fi
	if ! msg=$(unshare $u -n ip link add rkprobe0 type veth peer name rkprobe1 2>&1); then
		why="network namespaces work, but no veth pair can be made in one ($msg)"
		return 1
	fi
	return 0
}

"$reckond" -n "$scenario"
cd "$here"
why=
if ! can_emulate; then
	echo "reckon: this machine cannot emulate: $why." >&2
	echo "reckon: running the same scenario in the simulator (virtual time) instead." >&2
	run sim
	[ "$rc" -eq 0 ] || exit "$rc"
	check_summary
	exit 0
fi
echo "reckon: running $(basename "$scenario") in real namespaces (about 3.5 minutes; Ctrl-C stops cleanly)" >&2
run run
if [ "$rc" -eq 0 ]; then
	check_summary
	exit 0
fi
if [ "$rc" -lt 128 ]; then
	echo "reckon: the emulated run failed (status $rc; reasons above)." >&2
fi
exit "$rc"
