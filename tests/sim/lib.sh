# tests/sim/lib.sh: what the simulator's script tests share: the
# binaries of the build directory given as $1, skip/fail helpers, a
# private temporary directory removed by an exit trap, a helper that runs
# reckond (sim or run) with results under it, and CSV column helpers.
set -u
build=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../.." && pwd)
reckond=$build/daemon/reckond
export RECKON_AGENT=$build/agents/reckon-agent
export RECKON_MAP_DIR=$src/scenarios/maps

skip() { echo "SKIP: $*"; exit 77; }
fail() {
	echo "FAIL: $*"
	for f in "$tmp"/*.err; do
		[ -f "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }
	done
	exit 1
}
pass() { echo "PASS: $*"; }
need_root() { [ "$(id -u)" -eq 0 ] || skip "needs root to create network namespaces (the emulated half)"; }

[ -x "$reckond" ] || { echo "FAIL: no reckond in $build/daemon"; exit 1; }
tmp=$(mktemp -d /tmp/reckon-sim-test.XXXXXX)
chmod 755 "$tmp"

cleanup() { [ -n "${KEEP:-}" ] || rm -rf "$tmp"; }
trap cleanup EXIT

# reckond_do TAG CMD FILE: `reckond CMD FILE` from $tmp, output in
# $tmp/TAG.out and $tmp/TAG.err; sets rc and rundir.
reckond_do() {
	local tag=$1 cmd=$2 file=$3
	(cd "$tmp" && "$reckond" -s "$tmp/$tag.sock" "$cmd" "$file") \
		>"$tmp/$tag.out" 2>"$tmp/$tag.err" </dev/null
	rc=$?
	rundir=$(sed -n 's/^results: //p' "$tmp/$tag.out")
	[ -n "$rundir" ] || rundir=/nonexistent
}

# col FILE NAME: the column number of NAME in a CSV header.
col() {
	head -n 1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1
}

# keyed FILE KEYCOLS VALCOL: "key value" lines (key columns joined by
# ':'), sorted, header skipped.
keyed() {
	awk -F, -v keys="$2" -v val="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			n = split(keys, k, " "); key = ""
			for (i = 1; i <= n; i++) key = key (i > 1 ? ":" : "") $c[k[i]]
			print key, $c[val]
		}' "$1" | sort
}
