#!/bin/bash
# tests/view/bench_view.sh BUILD: what `reckonctl view` costs on a
# 10-minute run (tests/view/view600.ini: 8 bots, 600 s, dis and led,
# --samples 10) in the simulator: the recording's bytes per entity-second,
# the page's size, the time reckonctl takes to write it, and the time
# headless Chromium takes to load, draw and screenshot it (wall clock,
# and the page's own render_ms from script start to the first report).
# Prints figures; asserts nothing.
set -u
build=${1:-build}
build=$(cd "$build" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
"$build/daemon/reckond" sim "$src/tests/view/view600.ini" >sim.log 2>&1 ||
	{ cat sim.log; exit 1; }
run=$(ls -d "$tmp"/results/view600-*)
ents=$(awk -F, 'NR > 1 { e[$2] = 1 } END { print length(e) }' "$run/frames-obs.csv")
lanes=$(awk -F, 'NR > 1 { l[$1] = 1 } END { print length(l) }' "$run/frames-obs.csv")
dur=600
for f in frames arrivals grid; do
	b=$(stat -c %s "$run/$f-obs.csv")
	printf '%-9s %9d bytes  %6.1f bytes per entity-second, %6.1f per lane and entity-second (%d entities, %d lanes, %d s)\n' \
		"$f" "$b" "$(echo "$b / ($ents * $dur)" | bc -l)" \
		"$(echo "$b / ($ents * $lanes * $dur)" | bc -l)" "$ents" "$lanes" "$dur"
done
t0=$(date +%s.%N)
"$build/daemon/reckonctl" view "$run" >/dev/null || exit 1
t1=$(date +%s.%N)
printf 'view.html %9d bytes, written in %.2f s\n' "$(stat -c %s "$run/view.html")" \
	"$(echo "$t1 - $t0" | bc -l)"
chrome=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chrome" ] || { echo "no chromium: no render time"; exit 0; }
echo '<!DOCTYPE html><html><body></body></html>' >blank.html
for i in 1 2 3; do
	t0=$(date +%s.%N)
	timeout 300 "$chrome" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$tmp/prof" --dump-dom "file://$tmp/blank.html" \
		>/dev/null 2>&1
	t1=$(date +%s.%N)
	printf 'chromium on a blank page %.2f s (wall)\n' "$(echo "$t1 - $t0" | bc -l)"
done
for h in '' '#trail=10&t=0.5' '#ent=0&t=0.5'; do
	t0=$(date +%s.%N)
	rep=$(timeout 300 "$chrome" --headless --no-sandbox --disable-gpu \
		--hide-scrollbars --window-size=940,1000 \
		--user-data-dir="$tmp/prof" --dump-dom "file://$run/view.html$h" \
		2>/dev/null | sed -n 's/.*<pre id="report">\([^<]*\)<.*/\1/p')
	t1=$(date +%s.%N)
	printf 'chromium load+draw+dump %s %.2f s (wall); page report %s\n' "${h:-(whole run)}" \
		"$(echo "$t1 - $t0" | bc -l)" "$rep"
done
t0=$(date +%s.%N)
timeout 300 "$chrome" --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--window-size=940,1000 --user-data-dir="$tmp/prof" \
	--screenshot="$tmp/s.png" "file://$run/view.html" 2>/dev/null
t1=$(date +%s.%N)
printf 'chromium screenshot %.2f s (wall)\n' "$(echo "$t1 - $t0" | bc -l)"
