#!/usr/bin/env bash
# deploy/run.sh: set-up, then the quickstart. With the daemon built this runs
# scenarios/quickstart.ini through reckond (rootless where the kernel allows
# it) and prints the results table. It falls back to the simulator only
# when the machine cannot emulate at all, and says so; any other failure
# is a failure (see deploy/quickstart.sh).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${RECKON_BUILD:-$here/build}
"$here/deploy/setup.sh"
exec "$here/deploy/quickstart.sh" "$build" "$@"
