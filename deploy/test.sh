#!/usr/bin/env bash
# deploy/test.sh: set-up, then the whole test suite through ctest. Each
# Criterion binary's summary line is listed under the test's name, and the
# last line counts the ctest results. Integration tests that need root or
# a kernel feature this machine lacks say why and are reported as skipped.
# Extra arguments go to ctest (e.g. -R netem, -L integration).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${RECKON_BUILD:-$here/build}
"$here/deploy/setup.sh"
cd "$build"
rc=0
ctest --output-on-failure --timeout 1200 "$@" 2>&1 | tee "$build/ctest.log" ||
	rc=$?

echo
echo "Criterion summaries:"
awk '/^[0-9]+\/[0-9]+ Testing: / { name = $3 }
     /^\[====\] Synthesis/ { sub(/[ \t]+$/, ""); printf "  %-28s %s\n", name, $0 }' \
	Testing/Temporary/LastTest.log 2>/dev/null || true

passed=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* Passed' ctest.log || true)
failed=$(grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' ctest.log |
	grep -cvE 'Passed|Skipped' || true)
skipped=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*Skipped' ctest.log || true)
echo
echo "ctest: $passed passed, $failed failed, $skipped skipped"
exit "$rc"
