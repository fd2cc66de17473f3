#!/usr/bin/env bash
# ekb_cli.sh: end-to-end test of `reckon-agent replay --lag` with the EKB
# family on generated traces: a 20 s field trace gives, for every lag of
# the list, the paper's figures (predictions, AEE, median, hits) and ours
# (frames, error, updates/s, bytes/s) in the JSON and the table; OAEKB
# loads the trace's map; avoid=1 with a map that does not exist fails
# naming it; a deathmatch trace (arena, team 0) prints the fallback notice
# once; a malformed --lag list is refused; a simulated run (reckond sim)
# of ekb lanes on arena warns once per host that EKB falls back to TDM
# and on field does not. Usage: ekb_cli.sh BUILD_DIR
set -u
export LC_ALL=C
build=${1:?usage: ekb_cli.sh BUILD_DIR}
build=$(cd "$build" && pwd)
agent=$build/agents/reckon-agent
if [ ! -x "$agent" ]; then
	echo "SKIP: $agent not built"
	exit 77
fi
if ! command -v python3 >/dev/null; then
	echo "SKIP: python3 (JSON check) not installed"
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

"$agent" trace gen --map field --bots 6 --duration 20 --seed 2 \
	-o "$tmp/field.csv" >/dev/null 2>&1 || { echo "FAIL trace gen"; exit 1; }
"$agent" trace gen --map arena --bots 4 --duration 20 --seed 2 \
	-o "$tmp/arena.csv" >/dev/null 2>&1 || { echo "FAIL trace gen"; exit 1; }

"$agent" replay --trace "$tmp/field.csv" --predictor ekb --param avoid=1 \
	--param hybrid=1 --lag 300,900 --stride 2 --json \
	>"$tmp/o.json" 2>"$tmp/o.err"
check "ekb --lag exits 0" test $? -eq 0
check "no notice on a team trace" test ! -s "$tmp/o.err"
check "JSON has both lags with paper and ours figures" python3 - "$tmp/o.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["predictor"] == "ekb" and "avoid=on" in d["params"]
assert [l["lag_ms"] for l in d["lags"]] == [300, 900]
for l in d["lags"]:
    p, o = l["paper"], l["ours"]
    assert p["predictions"] > 1000 and 0 <= p["hits"] <= p["predictions"]
    assert p["aee"] > 0 and p["median"] > 0 and p["p95"] >= p["median"]
    assert o["frames"] > 1000 and o["updates"] > 0
    assert abs(o["bytes_per_s"] - 160 * o["updates_per_s"]) < 0.01
# longer lag, larger error
assert d["lags"][1]["paper"]["aee"] > d["lags"][0]["paper"]["aee"]
assert 0 <= d["total_hit_pct"] <= 100
PY
# --displays: one row per scored display, whose errors against the trace
# give the JSON's figures (positions written to 0.001 u)
"$agent" replay --trace "$tmp/field.csv" --predictor ekb --lag 300,900 \
	--stride 2 --displays "$tmp/disp.csv" --json >"$tmp/d.json"
check "--displays exits 0" test $? -eq 0
check "--displays rows give the JSON's counts and mean errors" \
	python3 - "$tmp/d.json" "$tmp/disp.csv" "$tmp/field.csv" <<'PY'
import csv, json, math, sys
d = json.load(open(sys.argv[1]))
truth = {}
for line in open(sys.argv[3]):
    if line[0] in "#t":
        continue
    f = line.split(",")
    truth[(int(f[1]), round(float(f[0]) * 1e9))] = (float(f[4]), float(f[5]))
err = {}
for r in csv.DictReader(open(sys.argv[2])):
    x, y = truth[(int(r["entity"]), int(r["t_ns"]))]
    e = math.hypot(float(r["x"]) - x, float(r["y"]) - y)
    err.setdefault((r["mode"], int(r["lag_ms"])), []).append(e)
for l in d["lags"]:
    p, o = err[("paper", l["lag_ms"])], err[("ours", l["lag_ms"])]
    assert len(p) == l["paper"]["predictions"], (len(p), l)
    assert len(o) == l["ours"]["frames"], (len(o), l)
    assert abs(sum(p) / len(p) - l["paper"]["aee"]) < 2e-3, l
    assert abs(sum(o) / len(o) - l["ours"]["err_mean"]) < 2e-3, l
PY
"$agent" replay --trace "$tmp/field.csv" --predictor ekb --displays x.csv \
	>/dev/null 2>"$tmp/dl.err"
check "--displays without --lag refused" test $? -eq 2
check "... saying it goes with --lag" grep -q -- "--displays goes with --lag" "$tmp/dl.err"

"$agent" replay --trace "$tmp/field.csv" --predictor is --lag 600 \
	>"$tmp/t.txt" 2>&1
check "table row for 600 ms" grep -Eq '^ +600 +[0-9]+ ' "$tmp/t.txt"

"$agent" replay --trace "$tmp/field.csv" --predictor ekb --param avoid=1 \
	--map no_such_map --lag 300 >/dev/null 2>"$tmp/m.err"
check "avoid=1 with a missing map fails" test $? -ne 0
check "... naming the map" grep -q "no_such_map" "$tmp/m.err"

"$agent" replay --trace "$tmp/arena.csv" --predictor ekb --lag 300 \
	>/dev/null 2>"$tmp/d.err"
check "deathmatch trace still replays" test $? -eq 0
check "... with the TDM fallback notice once" \
	test "$(grep -c 'no teams (deathmatch).*falls back to first-order' \
		"$tmp/d.err")" -eq 1

"$agent" replay --trace "$tmp/field.csv" --predictor ekb --lag 300,x \
	>/dev/null 2>"$tmp/l.err"
check "malformed --lag refused" test $? -eq 2
check "... saying what --lag wants" grep -q -- "--lag wants" "$tmp/l.err"

# reckond sim: ekb lanes on a deathmatch map warn at start-up, on a team
# map they do not (runs in $tmp: the results directory goes there)
reckond=$build/daemon/reckond
root=$(pwd)
if [ -x "$reckond" ]; then
	for m in arena field; do
		cat >"$tmp/$m.ini" <<INI
[scenario]
name = ekb-$m
duration = 10s
seed = 1
repetitions = 1

[host p1]
role = player
args = --map $m --bots 4 --duration 8 --predictor ekb \\
 --predictor ekb:avoid=1,hybrid=1 --to {addr:obs}

[host obs]
role = observer
args = --map $m --bots 4 --duration 8 --threshold 32 --linger 1 \\
 --predictor ekb --predictor ekb:avoid=1,hybrid=1

[defaults]
link = delay 50ms
INI
		(cd "$tmp" && RECKON_MAP_DIR=$root/scenarios/maps \
			"$reckond" sim "$m.ini" >"$tmp/$m.out" 2>&1)
		rc=$?
		[ $rc -eq 0 ] || tail -5 "$tmp/$m.out"
		check "reckond sim ekb lanes on $m" test $rc -eq 0
	done
	check "arena: each host warns once that EKB falls back to TDM" \
		test "$(grep -c 'warning: ekb: the trace has no teams' \
			"$tmp/arena.out")" -eq 2
	check "field: no such warning" \
		test "$(grep -c 'no teams' "$tmp/field.out")" -eq 0
else
	echo "skip reckond sim checks: $reckond not built"
fi
exit $fail
