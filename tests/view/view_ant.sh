#!/bin/bash
# tests/view/view_ant.sh BUILD: a run with an AntReckoning lane leaves
# its pheromone map for `reckonctl view`. A 6 s run of
# tests/view/view_ant.ini in the simulator (player and observer with
# --samples 5), then a 6 s run of reckon-agent over loopback: each
# player's grid-HOST.csv holds one grid of kind pheromone with non-zero
# cells, named after the ant lane and the first entity it plays, on the
# map's bounds; the page's embedded data carries that grid, merged with
# the observer's recording from the other host's files.
set -u
build=${1:?build dir}
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
obs=
trap '[ -n "$obs" ] && kill "$obs" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# check_grid FILE: one pheromone grid, "ant pheromone entity 0", every
# row in it, at least one non-zero cell, every cell inside nx x ny.
check_grid() {
	[ -s "$1" ] || fail "no $1"
	awk -F, 'NR == 1 { if ($0 != "grid,kind,x0,y0,x1,y1,nx,ny,ix,iy,value,u,v") bad = 1; next }
		{ if ($1 != "ant pheromone entity 0" || $2 != "pheromone") bad = 1
		  if ($9 < 0 || $9 >= $7 || $10 < 0 || $10 >= $8) bad = 1
		  if ($11 != 0) nz++ }
		END { print FILENAME ": " nz + 0 " non-zero cells"; exit bad || nz == 0 }' "$1" ||
		fail "$1: not one non-empty pheromone grid"
}

# page_has_grid PAGE: the embedded JSON names the pheromone grid, with
# kind pheromone and cells, and the observer's frames are there too.
page_has_grid() {
	python3 - "$1" <<'PY' || fail "$1: no pheromone grid in the page"
import json, re, sys
s = open(sys.argv[1]).read()
d = json.loads(re.search(r'<script id="data"[^>]*>(.*?)</script>', s,
                         re.S).group(1))['d']
g = [g for g in d['grids'] if g['name'] == 'ant pheromone entity 0']
assert len(g) == 1, [x['name'] for x in d['grids']]
assert g[0]['kind'] == 'pheromone' and len(g[0]['c']) >= 5, g[0]['kind']
assert any(v != 0 for v in g[0]['c'][2::5]), 'all cells zero'
assert d['fr'], 'no frames from the observer'
print('page grid:', g[0]['nx'], 'x', g[0]['ny'], len(g[0]['c']) // 5, 'cells')
PY
}

cd "$tmp" || exit 1
"$build/daemon/reckond" sim "$src/tests/view/view_ant.ini" >sim.log 2>&1 ||
	{ cat sim.log; fail "reckond sim"; }
run=$(ls -d "$tmp"/results/viewant-*)
check_grid "$run/grid-p1.csv"
[ -s "$run/frames-obs.csv" ] || fail "no frames-obs.csv"
# the simulator's player plays arena, whose bounds the grid covers
awk -F, 'NR == 2 { exit !($3 == 0 && $4 == 0 && $5 > $3 && $6 > $4) }' \
	"$run/grid-p1.csv" || fail "grid bounds"
"$build/daemon/reckonctl" view "$run" >view.log 2>&1 ||
	{ cat view.log; fail "reckonctl view"; }
page_has_grid "$run/view.html"


# The agent's libevent shell over real UDP on loopback: the same file
# from reckon-agent player (the port comes from the PID so that parallel
# runs do not collide).
agent=$build/agents/reckon-agent
mkdir -p "$tmp/agent"
t0=$(($("$agent" now) + 700000000))
port=$((24000 + ($$ % 4000) * 8))
common=(--map arena --bots 2 --duration 6 --predictor dis
	--predictor ant:region=100000 --port "$port" --start-ns "$t0")
"$agent" observer "${common[@]}" --run-dir "$tmp/agent" --bind 127.0.0.1 \
	--samples 5 --linger 0.5 --host obs 2>"$tmp/agent/obs.err" &
obs=$!
"$agent" player "${common[@]}" --run-dir "$tmp/agent" --to 127.0.0.1 \
	--samples 5 --host p1 2>"$tmp/agent/p1.err" ||
	fail "reckon-agent player: $(cat "$tmp/agent/p1.err")"
wait "$obs" || fail "reckon-agent observer: $(cat "$tmp/agent/obs.err")"
obs=
check_grid "$tmp/agent/grid-p1.csv"
"$build/daemon/reckonctl" view --map arena "$tmp/agent" >view.log 2>&1 ||
	{ cat view.log; fail "reckonctl view on the agent's run"; }
page_has_grid "$tmp/agent/view.html"
echo "PASS"
