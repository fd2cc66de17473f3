#!/bin/bash
# tests/view/view_fps.sh BUILD: the lag-compensation events through the
# viewer. `reckon-agent fps-server` (ALC) and four fps-clients play 20 s
# of a bot game on dust over loopback UDP (the seed and length of
# tests/lagcomp/fps_udp.sh, which see shots fired); the server writes
# events-srv.csv beside shots-srv.csv. Checks one event per verdict with
# the kinds the verdicts imply, then draws the run with `reckonctl view`
# (events only: an fps run has no dead-reckoning observer) in headless
# Chromium and checks that the rays drew pixels.
set -u
build=${1:?build dir}
agent=$build/agents/reckon-agent
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

port=$(python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
start=$(($("$agent" now) + 1500000000))
common=(--duration 20 --start-ns "$start" --seed 20261125 --bots 4)
"$agent" fps-server --mode alc --bind 127.0.0.1 --port "$port" \
	--run-dir "$tmp" --host srv "${common[@]}" 2>"$tmp/srv.err" &
pids+=("$!")
for e in 0 1 2 3; do
	"$agent" fps-client --entity "$e" --server "127.0.0.1:$port" \
		--run-dir "$tmp" --host "c$e" "${common[@]}" >"$tmp/c$e.out" 2>"$tmp/c$e.err" &
	pids+=("$!")
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
pids=()
[ "$rc" = 0 ] || { cat "$tmp"/*.err; fail "an fps agent failed"; }
ev=$tmp/events-srv.csv
[ -s "$ev" ] || fail "no events-srv.csv"

# One event per verdict, in the same order, with the kind the verdict
# implies: miss (no victim), denied (not registered), sbc (registered,
# the victim's SBC test said behind cover), hit (registered otherwise).
python3 - "$tmp/shots-srv.csv" "$ev" <<'PY' || fail "events disagree with shots"
import csv, sys
shots = list(csv.DictReader(open(sys.argv[1])))
evs = list(csv.DictReader(open(sys.argv[2])))
assert len(shots) == len(evs) > 0, (len(shots), len(evs))
kinds = {}
for s, e in zip(shots, evs):
    assert s['shooter'] == e['shooter'] and s['victim'] == e['victim']
    assert abs(int(s['recv_ns']) / 1e9 - float(e['t_s'])) < 0.001
    want = ('miss' if int(s['victim']) < 0 else
            'denied' if s['registered'] != '1' else
            'sbc' if s['sbc'] == '1' else 'hit')
    assert e['kind'] == want, (s, e)
    kinds[want] = kinds.get(want, 0) + 1
print('events:', len(evs), kinds)
PY

"$build/daemon/reckonctl" view --map dust "$tmp" >"$tmp/view.log" 2>&1 ||
	{ cat "$tmp/view.log"; fail "reckonctl view"; }
chrome=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chrome" ] || { echo "SKIP: no chromium"; exit 77; }
rep=$(timeout 120 "$chrome" --headless --no-sandbox --disable-gpu \
	--user-data-dir="$tmp/prof" --virtual-time-budget=5000 \
	--dump-dom "file://$tmp/view.html#trail=0&t=1" 2>/dev/null |
	sed -n 's/.*<pre id="report">\([^<]*\)<.*/\1/p')
echo "page: $rep"
python3 -c '
import json, sys
d = json.loads(sys.argv[1]); n = int(sys.argv[2])
assert d["counts"]["events"] == n, d["counts"]
assert d["map_px"] > 0, "no ray drawn"
' "$rep" "$(($(wc -l <"$ev") - 1))" || fail "the page did not draw the events"
echo PASS
