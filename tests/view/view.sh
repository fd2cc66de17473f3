#!/bin/bash
# tests/view/view.sh BUILD: `reckonctl view` end to end. A 12 s run of
# tests/view/view.ini in the simulator (no namespaces) with the observer
# recording --samples 10, and a 6 s run of reckon-agent over loopback;
# checks the recordings (decimation, errors within the metrics' maxima,
# arrivals against the metrics' counts), writes the page, checks that it is self-contained,
# then opens it in headless Chromium: the page's own report of drawn
# pixels, a screenshot decoded with zlib (tests/view/png_pixels.py)
# against a blank page, and the picture after the slider is moved by
# script (the URL hash sets the slider and fires its input event).
set -u
build=${1:?build dir}
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
obs=
trap '[ -n "$obs" ] && kill "$obs" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cd "$tmp" || exit 1
"$build/daemon/reckond" sim "$src/tests/view/view.ini" >sim.log 2>&1 ||
	{ cat sim.log; fail "reckond sim"; }
run=$(ls -d "$tmp"/results/view-*)
for f in frames arrivals grid; do
	[ -s "$run/$f-obs.csv" ] || fail "no $f-obs.csv"
done

check_recording() { # DIR: the observer obs's recording in DIR
	# Decimation: at most one sample per 0.1 s slot [k/10, (k+1)/10) per
	# (lane, entity): a sample is the first frame at or after a multiple of
	# 0.1 s. Frames fall on multiples of 1/64 s, at least 1/320 s from any
	# slot edge they are not on, so the file's 1 ms rounding cannot move a
	# sample into another slot.
	awk -F, 'NR > 1 { k = $1 ":" $2; s = int($3 * 10 + 1e-9)
			if (k in last && s <= last[k]) { print "same slot:", k, $3; bad = 1 }
			last[k] = s; n++ }
		END { exit bad || n == 0 }' "$1/frames-obs.csv" || fail "$1: decimation"
	# Every recorded error is one of the observer's frames, so it is at most
	# the err_max of its lane and entity in metrics-obs.csv (0.01 u: the
	# frames file rounds to 2 decimals).
	awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) c[FILENAME, $i] = i; next }
		FILENAME ~ /metrics/ { k = $c[FILENAME, "lane"] ":" $c[FILENAME, "entity"]
			m[k] = $c[FILENAME, "err_max"]; next }
		{ k = $1 ":" $2; if (!(k in m) || $8 > m[k] + 0.01) { print k, $8; bad = 1 } }
		END { exit bad }' "$1/metrics-obs.csv" "$1/frames-obs.csv" ||
		fail "$1: a recorded error exceeds the metrics maximum"

	# arrivals-obs.csv has a row for each update the observer counted as
	# received, and its results are the metrics' applied, stale, unmatched
	# and rejected counts, lane by lane and entity by entity.
	awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) c[FILENAME, $i] = i; next }
		FILENAME ~ /metrics/ { k = $c[FILENAME, "lane"] ":" $c[FILENAME, "entity"]
			want[k] = $c[FILENAME, "received"] " " $c[FILENAME, "applied"] " " \
				$c[FILENAME, "stale"] " " $c[FILENAME, "unmatched"] " " \
				$c[FILENAME, "rejected"]; next }
		{ k = $1 ":" $2; n[k]++; r[k, $8]++ }
		END { for (k in want) {
			got = (n[k] + 0) " " (r[k, "applied"] + 0) " " (r[k, "stale"] + 0) \
				" " (r[k, "unmatched"] + 0) " " (r[k, "rejected"] + 0)
			if (got != want[k]) { print k, "arrivals", got, "metrics", want[k]; bad = 1 }
			tot += n[k] }
		      exit bad || tot == 0 }' "$1/metrics-obs.csv" "$1/arrivals-obs.csv" ||
		fail "$1: arrivals-obs.csv disagrees with metrics-obs.csv"
}
check_recording "$run"

# The emulator's observer runs in reckon-agent's libevent shell, not the
# simulator: the same recording over real UDP on loopback (2 bots, 6 s;
# the port comes from the PID so that parallel runs do not collide).
agent=$build/agents/reckon-agent
mkdir -p "$tmp/agent"
t0=$(($("$agent" now) + 700000000))
port=$((20000 + ($$ % 4000) * 8))
common=(--map dust --bots 2 --duration 6 --predictor dis --predictor led
	--port "$port" --start-ns "$t0" --run-dir "$tmp/agent")
"$agent" observer "${common[@]}" --bind 127.0.0.1 --samples 10 --linger 0.5 \
	--host obs 2>"$tmp/agent/obs.err" &
obs=$!
"$agent" player "${common[@]}" --to 127.0.0.1 --host p1 2>"$tmp/agent/p1.err" ||
	fail "reckon-agent player: $(cat "$tmp/agent/p1.err")"
wait "$obs" || fail "reckon-agent observer: $(cat "$tmp/agent/obs.err")"
obs=
check_recording "$tmp/agent"
"$build/daemon/reckonctl" view --map dust "$tmp/agent" >view.log 2>&1 &&
	grep -q '<svg' "$tmp/agent/view.html" ||
	{ cat view.log; fail "reckonctl view on the agent's run"; }

# An events file in the documented format (docs/viewer.md): two shots,
# one of them shot behind cover, drawn as rays.
cat >"$run/events-obs.csv" <<'EOF'
t_s,kind,shooter,victim,x0,y0,x1,y1,vx,vy
2.000,sbc,0,1,1000.0,1000.0,2000.0,1500.0,2000.0,1500.0
3.000,hit,1,0,2000.0,1500.0,3000.0,800.0,3000.0,800.0
EOF

"$build/daemon/reckonctl" view "$run" >view.log 2>&1 ||
	{ cat view.log; fail "reckonctl view"; }
page=$run/view.html
[ -s "$page" ] || fail "no view.html"
# self-contained: nothing fetched (no src=, href=, url(), @import)
if grep -Eiq '<script[^>]* src=|<link |<img |url\(|@import|<iframe' "$page"; then
	fail "the page loads something from outside"
fi
grep -q '<svg' "$page" || fail "no map in the page"

# The viewer's loss count equals the sequence gaps in the arrivals
# files of both observers.
[ -s "$run/frames-obs2.csv" ] || fail "no frames-obs2.csv"
lost=0
for h in obs obs2; do
	n=$(sort -t, -k1,1n -k2,2n -k3,3n "$run/arrivals-$h.csv" | awk -F, '
		$1 == "lane" { next }
		{ k = $1 ":" $2; if (k == pk && $3 > ps + 1) n += $3 - ps - 1
		  if (k != pk || $3 > ps) ps = $3; pk = k }
		END { print n + 0 }')
	lost=$((lost + n))
done
grep -q '"hosts":\["obs","obs2"\]' "$page" || fail "the page lacks an observer"


# Bad input: a recording without a column the viewer needs is refused
# with the file and the column named; no arguments print the usage.
mkdir -p "$tmp/bad"
sed '1s/,err$/,error/' "$run/frames-obs.csv" >"$tmp/bad/frames-obs.csv"
if "$build/daemon/reckonctl" view "$tmp/bad" >bad.log 2>&1; then
	fail "a frames file without 'err' was accepted"
fi
grep -q "frames-obs.csv: no column 'err'" bad.log || { cat bad.log; fail "bad column not named"; }
"$build/daemon/reckonctl" view >bad.log 2>&1
[ $? = 2 ] && grep -q "usage: reckonctl view" bad.log || fail "no usage without arguments"

# --points N: every series of the page keeps at most N points, the
# first of each, and all the losses.
"$build/daemon/reckonctl" view --points 100 -o "$tmp/small.html" "$run" \
	>/dev/null 2>&1 || fail "reckonctl view --points 100"
python3 - "$tmp/small.html" "$page" <<'PY' || fail "--points decimation"
import json, re, sys
def data(p):
    s = open(p).read()
    return json.loads(re.search(r'<script id="data"[^>]*>(.*?)</script>', s,
                                re.S).group(1))['d']
small, full = data(sys.argv[1]), data(sys.argv[2])
assert small['counts']['lost'] == full['counts']['lost'], 'losses dropped'
for key in ('fr', 'ar'):
    for a, b in zip(small[key], full[key]):
        assert 0 < len(a['t']) <= 100, (key, len(a['t']))
        assert a['t'][0] == b['t'][0], 'the first point is kept'
        k = -(-len(b['t']) // 100)
        assert a['t'] == b['t'][::k], 'every k-th point'
print('decimation ok:', max(len(b['t']) for b in full['fr']), '-> <= 100')
PY

chrome=$(command -v chromium || command -v chromium-browser ||
	command -v google-chrome || true)
if [ -z "$chrome" ]; then
	echo "SKIP: no chromium (deploy/setup.sh installs it)"
	exit 77
fi
cr() {
	timeout 120 "$chrome" --headless --no-sandbox --disable-gpu \
		--hide-scrollbars --window-size=940,1000 --user-data-dir="$tmp/prof" \
		--virtual-time-budget=5000 "$@" 2>>chrome.log
}
report() { # URL -> the page's JSON report
	cr --dump-dom "$1" | sed -n 's/.*<pre id="report">\([^<]*\)<.*/\1/p'
}
field() { python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$@"; }

r1=$(report "file://$page#grid=-1&t=0.2")
r2=$(report "file://$page#grid=-1&t=0.9")
r3=$(report "file://$page#grid=-1&t=0.9&ent=0&lane=0")
[ -n "$r1" ] && [ -n "$r2" ] && [ -n "$r3" ] ||
	{ cat chrome.log; fail "no report from the page"; }
echo "t=0.2: $r1"
echo "t=0.9: $r2"
echo "entity 0, lane 0: $r3"
[ "$(field "$r2" "d['counts']['lost']")" = "$lost" ] ||
	fail "page counts $(field "$r2" "d['counts']['lost']") lost updates, arrivals-obs.csv has $lost gaps"
[ "$(field "$r2" "d['counts']['events']")" = 2 ] || fail "events not read"
# The paths are drawn up to the slider's time and the whole run's are
# longer than the first fifth's; one entity and one lane draw less than
# all of them; the strip has the error curves and ticks.
m1=$(field "$r1" "d['map_px']")
m2=$(field "$r2" "d['map_px']")
m3=$(field "$r3" "d['map_px']")
s2=$(field "$r2" "d['strip_px']")
[ "$m1" -gt 0 ] || fail "nothing drawn at t=0.2"
[ "$m2" -gt "$m1" ] || fail "moving the slider forward drew no more path"
[ "$m3" -gt 0 ] && [ "$m3" -lt "$m2" ] ||
	fail "one entity and lane should draw less than all"
[ "$s2" -gt 0 ] || fail "empty error strip"

# A run with events and no observer recording (an fps run): the map and
# the rays only. At the start (t = 2 s) only the first shot is drawn, at
# the end (3 s) both are (each is drawn for 2 s). The malformed row is
# counted and skipped.
mkdir -p "$tmp/fps"
{
	sed -n '1,3p' "$run/events-obs.csv"
	echo 'x,sbc,0,1,1,2,3,4,5,6'
} >"$tmp/fps/events-srv.csv"
"$build/daemon/reckonctl" view --map dust "$tmp/fps" >view.log 2>&1 ||
	{ cat view.log; fail "reckonctl view on an events-only run"; }
grep -q "1 malformed rows skipped" view.log || fail "malformed event row not reported"
e0=$(report "file://$tmp/fps/view.html#t=0")
e1=$(report "file://$tmp/fps/view.html#t=1")
echo "events only, t=2 s: $e0"
echo "events only, t=3 s: $e1"
[ "$(field "$e1" "d['counts']['events']")" = 2 ] || fail "events-only: count"
[ "$(field "$e1" "d['counts']['bad_rows']")" = 1 ] || fail "events-only: bad rows"
m0=$(field "$e0" "d['map_px']")
m1=$(field "$e1" "d['map_px']")
[ "$m0" -gt 0 ] && [ "$m1" -gt "$m0" ] || fail "rays: $m0 then $m1 pixels"

# Screenshots decoded independently of the page: the view against a
# blank page of the same size, and after the slider moved.
echo '<!DOCTYPE html><html><body></body></html>' >blank.html
cr --screenshot="$tmp/blank.png" "file://$tmp/blank.html"
cr --screenshot="$tmp/a.png" "file://$page#grid=-1&t=0.2"
cr --screenshot="$tmp/b.png" "file://$page#grid=-1&t=0.9"
for p in blank a b; do
	[ -s "$p.png" ] || { cat chrome.log; fail "no screenshot $p.png"; }
done
read -r nb _ <<<"$(python3 "$src/tests/view/png_pixels.py" blank.png)"
read -r na nb2 diff <<<"$(python3 "$src/tests/view/png_pixels.py" a.png b.png)"
echo "non-white pixels: blank $nb, t=0.2 $na, t=0.9 $nb2; differing $diff"
# The map alone (72x58 cells at 900 px wide, mostly walls and floor in
# grey and beige) covers most of the 940x1000 window: a drawn page has
# far more non-white pixels than the blank one.
[ "$na" -gt $((nb + 100000)) ] || fail "the page drew little over a blank one"
# Moving the slider moves the markers and extends the paths: the
# pictures differ in at least the markers' pixels (one 9 px disc per
# entity and an 8x8 square per lane and entity, 4 entities, 2 lanes).
[ "$diff" -gt $((4 * 60 + 8 * 64)) ] || fail "the slider did not change the picture"
echo "PASS"
