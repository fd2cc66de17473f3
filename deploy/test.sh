#!/usr/bin/env bash
# deploy/test.sh: set-up, then the whole test suite through ctest. Each
# Criterion binary's summary line is listed under the test's name, then
# every Criterion test that skipped (a skipped Criterion test counts as
# passed in ctest), and the last line counts the ctest results. A test
# whose binary is missing ("Not Run") counts as failed. Integration tests
# that need root or a kernel feature this machine lacks say why and are
# reported as skipped. Extra arguments go to ctest (e.g. -R netem,
# -L integration).
#
# With CI=true (or RECKON_CI_EXTRA=1) two more stages follow the suite:
#   fuzz       a clang -DRECKON_FUZZ=ON build in build-fuzz/, every
#              libFuzzer target run for RECKON_FUZZ_SECONDS (default 30)
#              by tests/fuzz/run_fuzz.sh; executions per target printed
#   sanitize   a -DRECKON_SANITIZE=ON (ASan + UBSan) build in build-asan/
#              running every test not labelled integration, long or vm,
#              then RECKON_ASAN_TESTS, a regular
#              expression of integration tests (default below)
# Any failure in any stage fails the script.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${RECKON_BUILD:-$here/build}
"$here/deploy/setup.sh"
jobs=$(nproc 2>/dev/null || echo 2)

# summarize BUILD_DIR LOG: the Criterion and ctest summary lines of a run.
summarize() {
	local dir=$1 log=$2 passed failed skipped notrun
	echo
	echo "Criterion summaries:"
	awk '/^[0-9]+\/[0-9]+ Testing: / { name = $3 }
	     /^\[====\] Synthesis/ { sub(/[ \t]+$/, ""); printf "  %-28s %s\n", name, $0 }' \
		"$dir/Testing/Temporary/LastTest.log" 2>/dev/null || true
	echo "Criterion skips:"
	awk '/^[0-9]+\/[0-9]+ Testing: / { name = $3 }
	     /^\[SKIP\]/ { n++; printf "  %-28s %s\n", name, $0 }
	     END { if (!n) print "  none" }' \
		"$dir/Testing/Temporary/LastTest.log" 2>/dev/null || true
	passed=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* Passed' "$log" || true)
	failed=$(grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' "$log" |
		grep -cvE 'Passed|Skipped' || true)
	skipped=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*Skipped' "$log" || true)
	notrun=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*Not Run' "$log" || true)
	echo
	echo "ctest: $passed passed, $failed failed ($notrun not run: missing binary), $skipped skipped"
	[ "$failed" -eq 0 ]
}

rc=0
cd "$build"
ctest --output-on-failure --timeout 1200 "$@" 2>&1 | tee "$build/ctest.log" ||
	rc=$?
summarize "$build" "$build/ctest.log" || rc=1

if [ "${CI:-}" = true ] || [ "${RECKON_CI_EXTRA:-}" = 1 ]; then
	echo
	echo "== fuzz: libFuzzer targets, ${RECKON_FUZZ_SECONDS:-30} s each"
	fz=$here/build-fuzz
	mkdir -p "$fz"
	# clang warns where gcc does not (-Wformat-nonliteral on vsnprintf in
	# daemon/log.c); the gcc builds keep CI's -Werror, this one reports.
	if env -u CI CC=clang cmake -S "$here" -B "$fz" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DRECKON_FUZZ=ON >/dev/null &&
		env -u CI cmake --build "$fz" -j "$jobs" --target netem_fuzz_spec scenario_fuzz fuzz_control \
			proto_fuzz_espdu fuzz_roles fuzz_world_map fuzz_world_trace \
			>/dev/null 2>"$fz/build.err"; then
		bash "$here/tests/fuzz/run_fuzz.sh" "$fz" "${RECKON_FUZZ_SECONDS:-30}" || rc=1
	else
		cat "$fz/build.err" >&2 2>/dev/null || true
		echo "fuzz: build failed" >&2
		rc=1
	fi

	echo
	echo "== sanitize: ASan + UBSan build, unit tests and selected integration tests"
	as=$here/build-asan
	mkdir -p "$as"
	sel=${RECKON_ASAN_TESTS:-^(bridge_netns|daemon_ping_loss|daemon_capture_counts|daemon_host_fail|daemon_ctl_live|daemon_sigterm|daemon_kill9|daemon_service|faults_agent_killed|agents_hostile|deploy_no_fallback)$}
	if cmake -S "$here" -B "$as" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DRECKON_SANITIZE=ON >/dev/null &&
		cmake --build "$as" -j "$jobs" >/dev/null 2>"$as/build.err"; then
		cd "$as"
		# Leaks fail too; halt_on_error makes the first report fatal.
		# Reports go to files, not stderr: ASan warns once on stderr
		# when a host shim (a clone on its own stack) execs, which
		# would land in host logs the tests read. Every file with an
		# ERROR is printed and fails the stage.
		rm -rf "$as/sanitizer-log"; mkdir -p "$as/sanitizer-log"
		export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=1:log_path=$as/sanitizer-log/asan
		# known leaks, each with its bug named there
		export LSAN_OPTIONS=suppressions=$here/tests/deploy/lsan.supp
		export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$as/sanitizer-log/ubsan
		ctest --output-on-failure --timeout 1200 -LE "^(integration|long|vm)$" 2>&1 | tee "$as/ctest-unit.log" || rc=1
		summarize "$as" "$as/ctest-unit.log" || rc=1
		ctest --output-on-failure --timeout 1200 -R "$sel" 2>&1 | tee "$as/ctest-int.log" || rc=1
		summarize "$as" "$as/ctest-int.log" || rc=1
		if grep -l -E 'ERROR|runtime error' "$as"/sanitizer-log/* 2>/dev/null; then
			cat $(grep -l -E 'ERROR|runtime error' "$as"/sanitizer-log/*)
			echo "sanitize: reports above" >&2
			rc=1
		else
			echo "sanitize: no ASan, LSan or UBSan report"
		fi
	else
		cat "$as/build.err" >&2 2>/dev/null || true
		echo "sanitize: build failed" >&2
		rc=1
	fi
fi
exit "$rc"
