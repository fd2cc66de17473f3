#!/usr/bin/env bash
# deploy/test.sh: set-up, then the whole test suite through ctest. Criterion
# prints a summary line per test binary; ctest prints the totals.
# Integration tests that need root or a kernel feature this machine lacks
# print why and are reported as skipped.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${RECKON_BUILD:-$here/build}
"$here/deploy/setup.sh"
cd "$build"
ctest --output-on-failure --timeout 1200 "$@" 2>&1 | tee "$build/ctest.log"
rc=${PIPESTATUS[0]}
echo
echo "Criterion summaries:"
grep -h '^\[====\] Synthesis' Testing/Temporary/LastTest.log 2>/dev/null || true
exit "$rc"
