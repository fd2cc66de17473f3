#!/usr/bin/env bash
# merge.sh BUILD: a sharded sweep merges into exactly the unsharded one.
# Runs tests/sweep/tiny.ini (8 points, simulated) once whole and once as
# 3 shards (--shard 0/3, 1/3, 2/3), merges the shards with `reckonctl
# merge`, and compares the two directory trees file by file with cmp:
# sweep.csv, sweep.json, grid.csv, scenario.ini, index.html, the sweep's
# figures (.dat data, .gp scripts, .svg, .png, gnuplot.log) and every
# file of every point (repetitions, summaries, rows.csv, error CDFs,
# index.html). Only shard.txt, which says which slice a run was, is left
# out. Without gnuplot there are no figures and the rest is compared.
# Then the merge must refuse a missing shard, a point present twice and
# a shard of another sweep. Nothing leaves /tmp; no network, no root
# needed.
set -euo pipefail
build=${1:?usage: merge.sh BUILD_DIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
reckond=$build/daemon/reckond
reckonctl=$build/daemon/reckonctl
[ -x "$reckond" ] || { echo "SKIP: $reckond is not built"; exit 77; }
[ -x "$reckonctl" ] || { echo "SKIP: $reckonctl is not built"; exit 77; }
merge=("$reckonctl" merge)
tmp=$(mktemp -d /tmp/reckon-sweep-merge.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cp "$here/tiny.ini" "$tmp/tiny.ini" # one path: scenario.ini names it

fail() { echo "FAIL: $*"; exit 1; }

"$reckond" -q sweep -j2 -o "$tmp/full" "$tmp/tiny.ini" >/dev/null
for i in 0 1 2; do
	"$reckond" -q sweep -j1 --shard $i/3 -o "$tmp/s$i" "$tmp/tiny.ini"
done
[ -f "$tmp/s0/sweep.csv" ] && fail "a shard wrote sweep.csv"
# the shards hold 3, 3 and 2 of the 8 points, none twice
n0=$(ls "$tmp/s0/points" | wc -l); n1=$(ls "$tmp/s1/points" | wc -l)
n2=$(ls "$tmp/s2/points" | wc -l)
[ "$n0 $n1 $n2" = "3 3 2" ] || fail "shard sizes $n0 $n1 $n2, want 3 3 2"

"${merge[@]}" "$tmp/merged" "$tmp/s0" "$tmp/s1" "$tmp/s2" >"$tmp/merge.out"
grep -q '^point  delay  loss  dis.pos_threshold  predictor' "$tmp/merge.out" ||
	fail "merge printed no table: $(cat "$tmp/merge.out")"

rows=$(($(wc -l <"$tmp/full/sweep.csv") - 1))
[ "$rows" -eq 16 ] || fail "sweep.csv has $rows rows, want 8 points x 2 predictors"
# every row measured something: err_mean is a number for both predictors
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "err_mean") c = i; next }
	$c == "" || $c !~ /^[0-9.e+-]+$/ { bad++ } END { exit bad || !c }' \
	"$tmp/full/sweep.csv" || fail "a row of sweep.csv has no err_mean"
[ "$(cut -d, -f5 "$tmp/full/sweep.csv" | sort | uniq -c | awk '{print $1 $2}' | tr '\n' ' ')" = \
	"8dis 8led 1predictor " ] || fail "want 8 rows of dis and 8 of led"
# the two trees hold the same files (but shard.txt), byte for byte
list() { (cd "$1" && find . -type f ! -path ./shard.txt | sort); }
[ "$(list "$tmp/full")" = "$(list "$tmp/merged")" ] ||
	fail "the trees differ: $(diff <(list "$tmp/full") <(list "$tmp/merged") | head)"
count=0
while IFS= read -r f; do
	cmp "$tmp/full/$f" "$tmp/merged/$f" || fail "$f differs"
	count=$((count + 1))
done < <(list "$tmp/full")
for f in sweep.csv sweep.json grid.csv scenario.ini index.html; do
	[ -s "$tmp/merged/$f" ] || fail "no $f"
done
[ "$(list "$tmp/full" | grep -c '^./points/p[0-9]*/index.html$')" -eq 8 ] ||
	fail "want an index.html in each of the 8 points"
if command -v gnuplot >/dev/null; then
	for f in error_vs_link_delay updates_vs_predictor_dis_pos_threshold; do
		for x in dat gp svg png; do
			[ -s "$tmp/merged/plots/$f.$x" ] || fail "no plots/$f.$x"
		done
	done
	[ -s "$tmp/merged/points/p000007/plots/error_cdf.dat" ] || fail "no error CDF of point 7"
fi
echo "merged = unsharded: $count files byte for byte:" \
	"$(list "$tmp/full" | sed -n 's/.*\.\([a-z]*\)$/\1/p' | sort | uniq -c | awk '{ printf "%s %s, ", $1, $2 }')"

# refusals, each naming the problem
if "${merge[@]}" --no-plots "$tmp/bad1" "$tmp/s0" "$tmp/s2" 2>"$tmp/err"; then
	fail "merge without shard 1 succeeded"
fi
grep -q "point 1 is in no shard" "$tmp/err" || fail "missing shard: $(cat "$tmp/err")"
if "${merge[@]}" --no-plots "$tmp/bad2" "$tmp/s0" "$tmp/s1" "$tmp/s2" "$tmp/full" 2>"$tmp/err"; then
	fail "merge with a point twice succeeded"
fi
grep -q "is in both" "$tmp/err" || fail "point twice: $(cat "$tmp/err")"
sed 's/^seed = 3/seed = 4/' "$tmp/tiny.ini" >"$tmp/other.ini"
"$reckond" -q sweep -j2 --no-plots --shard 1/3 -o "$tmp/o1" "$tmp/other.ini"
if "${merge[@]}" --no-plots "$tmp/bad3" "$tmp/s0" "$tmp/o1" "$tmp/s2" 2>"$tmp/err"; then
	fail "merge of two different sweeps succeeded"
fi
grep -q "not shards of the same sweep" "$tmp/err" || fail "other sweep: $(cat "$tmp/err")"
echo "PASS"
