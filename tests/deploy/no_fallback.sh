#!/usr/bin/env bash
# no_fallback.sh: deploy/quickstart.sh falls back to the simulator only
# when the machine cannot emulate at all. On a machine that can (root, or
# a working user namespace, with veth), a scenario whose host fails must
# make quickstart.sh fail with the emulated run's status, without
# running the simulator.
set -u
build=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../.." && pwd)
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; echo "--- output"; cat "$tmp/log"; exit 1; }
[ "$(id -u)" -eq 0 ] || skip "needs root to create network namespaces"
unshare -n ip link add rkprobe0 type veth peer name rkprobe1 2>/dev/null ||
	skip "this machine cannot emulate (no netns with veth), the fallback case"
tmp=$(mktemp -d /tmp/reckon-deploy.XXXXXX)
cleanup() {
	# quickstart.sh runs from the source tree: remove the run it made there
	local d
	d=$(sed -n 's/^results: //p' "$tmp/log" 2>/dev/null | tail -n 1)
	case $d in */results/host-fails-*) rm -rf "$d" ;; esac
	rm -rf "$tmp"
}
trap cleanup EXIT
cp "$here/host-fails.ini" "$tmp/"
(cd "$tmp" && TMPDIR=$tmp bash "$src/deploy/quickstart.sh" "$build" "$tmp/host-fails.ini") >"$tmp/log" 2>&1
rc=$?
[ "$rc" -ne 0 ] || fail "quickstart.sh exited 0 although the host failed"
grep -q 'the emulated run failed' "$tmp/log" || fail "no 'the emulated run failed' message"
grep -q 'simulator' "$tmp/log" && fail "quickstart.sh fell back to the simulator on a machine that can emulate"
echo "PASS: quickstart.sh exited $rc on a failed emulated run, no simulator fallback"
