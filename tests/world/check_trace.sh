#!/usr/bin/env bash
# check_trace.sh: `reckon-agent trace` end to end. Generates a dust trace
# with 6 bots for 30 s, expects `trace check` to pass, `trace stats` to
# read it, and the same seed to give the same bytes; then corrupts copies
# (a position inside a wall, time going backwards, a teleport while alive,
# a malformed number) and expects `trace check` to fail with exit 1 and
# name the corrupted line. Usage: check_trace.sh BUILD_DIR
set -euo pipefail

build=${1:?usage: check_trace.sh BUILD_DIR}
agent=$build/agents/reckon-agent
if [ ! -x "$agent" ]; then
	echo "check_trace: $agent not built" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "check_trace: FAIL: $*" >&2
	exit 1
}

"$agent" trace gen --map dust --bots 6 --duration 30 --seed 5 -o "$tmp/a.csv" 2>/dev/null
[ -s "$tmp/a.events.csv" ] || fail "no events file next to the trace"
"$agent" trace check "$tmp/a.csv" --map dust --radius 16 >/dev/null ||
	fail "clean trace rejected"
"$agent" trace stats "$tmp/a.csv" | grep -q 'path duration' ||
	fail "stats printed no path figures"
"$agent" trace gen --map dust --bots 6 --duration 30 --seed 5 -o "$tmp/b.csv" 2>/dev/null
cmp -s "$tmp/a.csv" "$tmp/b.csv" || fail "same seed, different trace"

# expect_fail NAME LINE: trace check must exit 1 and mention LINE
expect_fail() {
	local f=$1 line=$2 rc=0 out
	out=$("$agent" trace check "$f" --map dust 2>&1) || rc=$?
	[ "$rc" -eq 1 ] || fail "$(basename "$f"): exit $rc, want 1"
	grep -q ":$line:" <<<"$out" || fail "$(basename "$f"): line $line not named: $out"
}

# line 6 is the first sample (5 header lines); line 500 is mid-trace
# 1. a living entity put inside a wall: (32, 32) is in the border wall
awk -F, -v OFS=, 'NR==500 { $4=1; $5=32; $6=32 } { print }' "$tmp/a.csv" >"$tmp/wall.csv"
expect_fail "$tmp/wall.csv" 500
# 2. time going backwards
awk -F, -v OFS=, 'NR==500 { $1="0.000000000" } { print }' "$tmp/a.csv" >"$tmp/time.csv"
expect_fail "$tmp/time.csv" 500
# 3. a teleport while alive (and moving faster than 250 u/s)
awk -F, -v OFS=, 'NR==800 && $4==1 { $5=$5+300 } NR==800 && $4==0 { $4=1; $5=$5+300 } { print }' \
	"$tmp/a.csv" >"$tmp/jump.csv"
expect_fail "$tmp/jump.csv" 800
# 4. a malformed number: rejected at read time with its line
sed '700s/^\([^,]*,[^,]*,[^,]*,[^,]*\),[^,]*/\1,12abc/' "$tmp/a.csv" >"$tmp/bad.csv"
rc=0
out=$("$agent" trace check "$tmp/bad.csv" 2>&1) || rc=$?
[ "$rc" -eq 1 ] || fail "malformed number: exit $rc"
grep -q 'line 700' <<<"$out" || fail "malformed number: line not named: $out"
echo "check_trace: ok"
