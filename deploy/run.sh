#!/usr/bin/env bash
# deploy/run.sh: set-up, then the quickstart. With the daemon built this runs
# scenarios/quickstart.ini through reckond (rootless where the kernel allows
# it) and prints the results table.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${RECKON_BUILD:-$here/build}
"$here/deploy/setup.sh"
exec "$here/deploy/quickstart.sh" "$build" "$@"
