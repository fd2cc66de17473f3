#!/usr/bin/env bash
# index_html.sh: a results page worth opening. Simulates page.ini (three
# predictor lanes, two repetitions) and a small sweep (tests/sweep/
# tiny.ini), then checks the run's index.html names the scenario, date,
# seed and links, carries the narrow summary table (predictor x condition:
# updates/s, bytes/s, error mean and p95, each with its CI) and links the
# raw CSV; and headless Chromium, in a window 1200 px wide, lays out both
# pages with the summary table inside the window and no horizontal scroll.
# Skipped (77) only when chromium is not installed. No root needed.
. "$(dirname "$0")/lib.sh"
src=$(cd "$here/../.." && pwd)
export RECKON_MAP_DIR=$src/scenarios/maps

(cd "$tmp" && "$reckond" -q sim "$here/page.ini") >"$tmp/out" 2>"$tmp/err" ||
	fail "reckond sim page.ini failed"
rundir=$(sed -n 's/^results: //p' "$tmp/out")
page=$rundir/index.html
[ -f "$page" ] || fail "no index.html"
grep -q '<title>reckon run: page-check, 20[0-9-]* [0-9:]* UTC</title>' "$page" ||
	fail "title does not name the scenario and date: $(grep -o '<title>.*</title>' "$page")"
for fact in '<dt>seed</dt><dd>11</dd>' '<dt>scenario</dt><dd>page-check</dd>' \
	"<dt>links</dt><dd>p&lt;&gt;obs 'delay 50ms 10ms loss 2%" \
	'<dt>status</dt><dd>complete</dd>' '<a href="summary.csv">summary.csv</a>'; do
	grep -qF "$fact" "$page" || fail "index.html lacks $fact"
done
# the summary table: 3 rows of 7 columns, each metric as mean ± CI
rows=$(sed -n '/<table id=summary>/,/<\/table>/p' "$page" | grep -c '^<tr><td')
[ "$rows" -eq 3 ] || fail "summary table has $rows rows, expected 3"
hdr=$(sed -n '/<table id=summary>/{n;p}' "$page")
[ "$(echo "$hdr" | grep -o '<th[ >]' | wc -l)" -eq 7 ] || fail "summary table header: $hdr"
for h in 'updates/s per entity' 'bytes/s per entity' 'error mean (u)' 'error p95 (u)'; do
	echo "$hdr" | grep -qF "$h" || fail "summary table lacks '$h'"
done
sed -n '/<table id=summary>/,/<\/table>/p' "$page" | grep -q 'pos_threshold=30' ||
	fail "the two dis rows are not told apart by their threshold"
[ "$(sed -n '/<table id=summary>/,/<\/table>/p' "$page" | grep -o '± ' | wc -l)" -eq 12 ] ||
	fail "metrics lack their confidence intervals"

"$reckond" -q sweep -j2 -o "$tmp/sweep" "$src/tests/sweep/tiny.ini" >/dev/null 2>"$tmp/err" ||
	fail "sweep failed: $(cat "$tmp/err")"
grep -q '<title>reckon sweep: tiny<' "$tmp/sweep/index.html" || fail "the sweep's page does not name its scenario"

command -v chromium >/dev/null 2>&1 || skip "chromium is not installed (deploy/setup.sh installs it)"

# measure DIR: render DIR/index.html at 1200x900 with a script appended
# that writes the summary table's right edge and the page's scroll width
# into the DOM; prints "table_right page_width window".
measure() {
	cp "$1/index.html" "$1/measure.html"
	cat >>"$1/measure.html" <<'JS'
<script>
var t = document.getElementById('summary');
document.body.setAttribute('data-measure', [
	t ? Math.ceil(t.getBoundingClientRect().right) : -1,
	document.documentElement.scrollWidth, window.innerWidth].join(' '));
</script>
JS
	timeout 90 chromium --headless --no-sandbox --disable-gpu \
		--user-data-dir="$tmp/chromium" --window-size=1200,900 \
		--run-all-compositor-stages-before-draw --virtual-time-budget=3000 \
		--dump-dom "file://$1/measure.html" 2>"$tmp/chromium.err" |
		sed -n 's/.*data-measure="\([0-9 -]*\)".*/\1/p'
}

for d in "$rundir" "$tmp/sweep"; do
	m=$(measure "$d")
	[ -n "$m" ] || fail "chromium rendered nothing for $d: $(tail -n 3 "$tmp/chromium.err")"
	read -r right width win <<<"$m"
	[ "$right" -gt 0 ] || fail "$d: no summary table in the rendered page"
	[ "$right" -le "$win" ] || fail "$d: the summary table ends at $right px, past the $win px window"
	[ "$width" -le "$win" ] || fail "$d: the page is $width px wide in a $win px window"
	echo "$d: table ends at $right px, page $width px, window $win px"
done
pass "index.html names the run and its narrow table fits 1200 px"
