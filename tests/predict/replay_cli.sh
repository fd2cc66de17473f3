#!/usr/bin/env bash
# replay_cli.sh: end-to-end test of `reckon-agent replay` on a hand-made
# trace: Steele's two control paths (standing still; constant velocity
# along one axis) give no update and zero error with the "dis" and "led"
# predictors, JSON output carries the same, and bad input (unknown
# predictor, out-of-range parameter, missing or malformed trace) fails
# with a clear message and exit status. Usage: replay_cli.sh BUILD_DIR
set -u
export LC_ALL=C
build=${1:?usage: replay_cli.sh BUILD_DIR}
agent=$build/agents/reckon-agent
if [ ! -x "$agent" ]; then
	echo "SKIP: $agent not built"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # check DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@"; then echo "ok   $what"; else echo "FAIL $what"; fail=1; fi
}

# 64 Hz, 10 s: entity 1 stands at (2300, 0, 200); entity 2 moves along +y
# by 625/36 u per tick at (2300, y, 200) with the matching velocity.
{
	echo "# reckon trace v1"
	echo "# map=control"
	echo "# seed=0"
	echo "# tick_ns=15625000"
	echo "t,entity,team,alive,x,y,z,vx,vy,vz,yaw,health,armor,ammo,stance"
	awk 'BEGIN {
		for (k = 0; k < 640; k++) {
			t = k * 0.015625
			printf "%.9f,1,1,1,2300.0000,0.0000,200.0000,0.000,0.000,0.000,0.000,100,0,0,0\n", t
			printf "%.9f,2,1,1,2300.0000,%.4f,200.0000,0.000,%.4f,0.000,90.000,100,0,0,0\n", t, k * 625 / 36, 625 / 36 * 64
		}
	}'
} >"$tmp/control.csv"

out=$("$agent" replay --trace "$tmp/control.csv" --predictor dis \
	--param heartbeat=0 2>&1)
echo "$out"
check "dis: control paths, no update, zero error" \
	grep -Eq '^all +2 +20\.0 +0\.000 +0\.0 +0\.000 +0\.000 +0\.000$' <<<"$out"

out=$("$agent" replay --trace "$tmp/control.csv" --predictor led --json 2>&1)
echo "$out"
check "led --json: overall has 0 updates" \
	grep -q '"entity": "all", "paths": 2, "ticks": 1280, "duration_s": 20.000, "updates": 0,' <<<"$out"
# positions and velocities are printed with 4 decimals: error < 1e-3
check "led --json: zero error" \
	grep -Eq '"entity": "all", .*"err_max": 0\.000[0-9]}' <<<"$out"

out=$("$agent" replay --trace "$tmp/control.csv" --experiment led \
	--subjects 2 --seed 3 2>&1)
echo "$out"
check "experiment: no update for either method" \
	grep -Eq '^updates_per_s +0\.0000 ± 0\.0000 +0\.0000 ± 0\.0000' <<<"$out"

"$agent" replay --trace "$tmp/control.csv" --predictor nope >"$tmp/o" 2>&1
check "unknown predictor: exit 2" test $? -eq 2
check "unknown predictor: message" grep -q "unknown predictor 'nope'" "$tmp/o"

"$agent" replay --trace "$tmp/control.csv" --predictor dis \
	--param heartbeat=-1 >"$tmp/o" 2>&1
check "out-of-range parameter: exit 2" test $? -eq 2
check "out-of-range parameter: message" \
	grep -q -- "--param heartbeat=-1: out of range" "$tmp/o"

"$agent" replay --trace "$tmp/control.csv" --predictor dis \
	--param nosuch=1 >"$tmp/o" 2>&1
check "unknown parameter: exit 2" test $? -eq 2

"$agent" replay --trace "$tmp/missing.csv" --predictor dis >"$tmp/o" 2>&1
check "missing trace: exit 1" test $? -eq 1
check "missing trace: message" grep -q "No such file" "$tmp/o"

head -6 "$tmp/control.csv" >"$tmp/bad.csv"
echo "0.1,1,1,1,not-a-number,0,0,0,0,0,0,100,0,0,0" >>"$tmp/bad.csv"
"$agent" replay --trace "$tmp/bad.csv" --predictor dis >"$tmp/o" 2>&1
check "malformed trace: exit 1" test $? -eq 1
check "malformed trace: names the line" grep -q "line" "$tmp/o"

out=$("$agent" replay --list 2>&1)
check "--list: dis and led tables" \
	bash -c 'grep -q "^### \`dis\`" <<<"$0" && grep -q "^### \`led\`" <<<"$0"' "$out"

exit $fail
