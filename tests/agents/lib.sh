# tests/agents/lib.sh: what the reckon-agent script tests share: the
# binaries of the build directory given as $1, skip/fail helpers, a
# private temporary directory removed by an exit trap, helpers that run
# a scenario through `reckond run` and read the agents' metrics files.
set -u
build=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../.." && pwd)
agent=$build/agents/reckon-agent
reckond=$build/daemon/reckond
export RECKON_AGENT=$agent
export RECKON_MAP_DIR=$src/scenarios/maps

skip() { echo "SKIP: $*"; exit 77; }
fail() {
	echo "FAIL: $*"
	for f in "$tmp"/err "$tmp"/*.log "$rundir"/hosts/*.log; do
		[ -f "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }
	done
	exit 1
}
pass() { echo "PASS: $*"; }
need_root() { [ "$(id -u)" -eq 0 ] || skip "needs root to create network namespaces"; }
need_tool() { command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed"; }

[ -x "$agent" ] || { echo "FAIL: no reckon-agent in $build/agents"; exit 1; }
tmp=$(mktemp -d /tmp/reckon-agents-test.XXXXXX)
chmod 755 "$tmp"
rundir=/nonexistent
pids=

cleanup() {
	for p in $pids; do
		kill -TERM "$p" 2>/dev/null
	done
	for p in $pids; do
		wait "$p" 2>/dev/null
	done
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT

# run_scenario FILE: reckond run FILE with results under $tmp; sets rc
# and rundir.
run_scenario() {
	[ -x "$reckond" ] || fail "no reckond in $build/daemon"
	(cd "$tmp" && "$reckond" -q -s "$tmp/reckond.sock" run "$1") \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	rundir=$(sed -n 's/^results: //p' "$tmp/out")
	[ -n "$rundir" ] || rundir=/nonexistent
}

# col FILE NAME: the column number of NAME in a CSV header.
col() {
	head -n 1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1
}

# sum_by FILES... -- KEYCOLS VALCOL: "key value" lines, value summed over
# rows with the same key columns (header lines skipped).
sum_by() {
	local keys=$1 val=$2
	shift 2
	awk -F, -v keys="$keys" -v val="$val" '
		FNR == 1 { delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			n = split(keys, k, " "); key = ""
			for (i = 1; i <= n; i++) key = key (i > 1 ? ":" : "") $c[k[i]]
			s[key] += $c[val]
		}
		END { for (key in s) print key, s[key] }' "$@" | sort
}

# replay_updates TRACE PREDICTOR [KV...]: "lane:entity updates" lines of
# `reckon-agent replay --json` for lane LANE (set $lane).
replay_updates() {
	local trace=$1 pred=$2
	shift 2
	local args=()
	for kv in "$@"; do args+=(--param "$kv"); done
	"$agent" replay --trace "$trace" --predictor "$pred" "${args[@]}" --json |
		sed -n 's/.*{"entity": \([0-9]*\), .*"updates": \([0-9]*\),.*/\1 \2/p' |
		awk -v l="$lane" '{ print l ":" $1, $2 }' | sort
}
