#!/usr/bin/env bash
# bench_valgrind.sh BUILD: reckond under valgrind (memcheck, full leak
# check) for a short emulated run (valgrind-short.ini: namespaces, the
# userspace bridge, ping through a delayed, lossy, rate-limited link).
# Prints valgrind's error and leak summary and the run's result; exits
# non-zero when valgrind reports an error or a definite leak. The hosts'
# own programs (ping, sleep) are not traced; the host shims (forked, not
# yet exec'd) are, and report separately. valgrind.supp explains its one
# suppression. Needs root and valgrind.
# Run it with `cmake --build build --target bench` or directly.
set -u
build=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ "$(id -u)" -eq 0 ] || { echo "bench_valgrind: needs root"; exit 0; }
command -v valgrind >/dev/null || { echo "bench_valgrind: valgrind is not installed"; exit 0; }
tmp=$(mktemp -d /tmp/reckon-vg.XXXXXX)
trap '[ -n "${RECKON_KEEP:-}" ] && cp "$tmp/vg.log" "$RECKON_KEEP"; rm -rf "$tmp"' EXIT
t0=$(date +%s)
(cd "$tmp" && valgrind --tool=memcheck --leak-check=full --errors-for-leak-kinds=definite \
	--suppressions="$here/valgrind.supp" --error-exitcode=99 --trace-children=no --log-file="$tmp/vg.log" \
	"$build/daemon/reckond" -q -s "$tmp/sock" run "$here/valgrind-short.ini") >"$tmp/out" 2>"$tmp/err"
rc=$?
t1=$(date +%s)
echo "reckond under valgrind: exit $rc in $((t1 - t0)) s"
grep -E 'ERROR SUMMARY|definitely lost|indirectly lost|possibly lost|still reachable|in use at exit' "$tmp/vg.log" | sed 's/^==[0-9]*== /  /'
run=$(sed -n "s/^results: //p" "$tmp/out")
[ -n "$run" ] && grep -h -A1 "packets transmitted" "$run/hosts/a.log" 2>/dev/null | sed "s/^/  ping: /"
[ "$rc" -eq 0 ] || { tail -n 40 "$tmp/vg.log"; cat "$tmp/err"; exit 1; }
