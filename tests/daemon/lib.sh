# tests/daemon/lib.sh: what every reckond integration test shares: the
# binaries of the build directory given as $1, skip/fail helpers, a private
# temporary directory (results and control socket go there, so tests can
# run in parallel) and a cleanup trap that stops any reckond the test
# started and removes the directory.
set -u
build=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
reckond=$build/daemon/reckond
reckonctl=$build/daemon/reckonctl

skip() { echo "SKIP: $*"; exit 77; }
fail() {
	echo "FAIL: $*"
	for f in "$tmp"/err "$rundir"/hosts/*.log; do
		[ -f "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }
	done
	exit 1
}
pass() { echo "PASS: $*"; }
need_root() { [ "$(id -u)" -eq 0 ] || skip "needs root to create network namespaces"; }
need_tool() { command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed"; }

[ -x "$reckond" ] && [ -x "$reckonctl" ] || { echo "FAIL: no reckond/reckonctl in $build/daemon"; exit 1; }
tmp=$(mktemp -d /tmp/reckon-test.XXXXXX)
chmod 755 "$tmp"
sock=$tmp/reckond.sock
rundir=/nonexistent
bg_pid=

cleanup() {
	if [ -n "$bg_pid" ] && kill -0 "$bg_pid" 2>/dev/null; then
		kill -TERM "$bg_pid" 2>/dev/null
		for _ in $(seq 50); do kill -0 "$bg_pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$bg_pid" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

# run_fg FILE: reckond run FILE in $tmp (results under $tmp/results);
# sets rc and rundir.
run_fg() {
	local f=$1
	case $f in /*) ;; *) f=$here/$f ;; esac
	(cd "$tmp" && "$reckond" -q -s "$sock" run "$f") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	rundir=$(sed -n 's/^results: //p' "$tmp/out")
	[ -n "$rundir" ] || rundir=/nonexistent
}

# run_bg FILE: the same in the background; waits until the control socket
# reports the hosts running.
run_bg() {
	(cd "$tmp" && exec "$reckond" -q -s "$sock" run "$here/$1") >"$tmp/out" 2>"$tmp/err" &
	bg_pid=$!
	for _ in $(seq 100); do
		if "$reckonctl" -s "$sock" status -j 2>/dev/null | grep -q '"state": "running"'; then
			rundir=$("$reckonctl" -s "$sock" status -j | sed -n 's/.*"run_dir": "\([^"]*\)".*/\1/p')
			return 0
		fi
		sleep 0.1
	done
	fail "reckond did not start"
}

# csv_field FILE SRC DST COLUMN: one counter from counters.csv.
csv_field() {
	awk -F, -v s="$2" -v d="$3" -v c="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$2 == s && $3 == d { print $col[c] }' "$1"
}
