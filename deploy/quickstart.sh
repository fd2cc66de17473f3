#!/usr/bin/env bash
# deploy/quickstart.sh BUILD [SCENARIO]: the quickstart that deploy/run.sh
# runs. It checks the scenario (reckond -n), runs it through the emulator
# (as root, or rootless in a user namespace where the kernel allows it),
# and prints the results table. If this machine cannot emulate at all, it
# says why and runs the same scenario in the simulator instead.
set -euo pipefail
build=${1:?usage: quickstart.sh BUILD [SCENARIO]}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
scenario=${2:-$here/scenarios/quickstart.ini}
reckond=$build/daemon/reckond

"$reckond" -n "$scenario"
cd "$here"
echo "reckon: running $(basename "$scenario") in real namespaces (about 3.5 minutes; Ctrl-C stops cleanly)" >&2
rc=0
"$reckond" run "$scenario" || rc=$?
if [ "$rc" -eq 0 ]; then
	exit 0
fi
if [ "$rc" -ge 128 ]; then
	exit "$rc"	# interrupted
fi
echo "reckon: the emulated run failed (status $rc; reasons above)." >&2
echo "reckon: running the same scenario in the simulator (virtual time) instead." >&2
exec "$reckond" sim "$scenario"
