#!/usr/bin/env bash
# hsm_stale_model.sh: a dhsm lane end to end through `reckond sim` (the
# agents' state machines over the netem engine in virtual time, no root).
# A player replays 4 bots on the loop map with dhsm (los_gate on, so the
# agents load the map for line of sight) next to a dis lane, to one
# observer. Without loss the observer applies every update and none of
# them reveals a missed model switch: stale_model == 0 on every row. With
# 30% seeded loss on the link some switch updates are lost, and the next
# update of that entity shows it: stale_model > 0 in total, and never
# more than the applied updates. dis never counts one. The run is
# repeated with the same seed and must give the same metrics bytes.
. "$(dirname "$0")/lib.sh"

[ -x "$reckond" ] || fail "no reckond in $build/daemon"
lanes="--predictor dhsm:tau=45 --predictor dis:pos_threshold=45"
truth="--map loop --bots 4 --duration 300 --seed 3"

# scenario LOSS FILE
scenario() {
	cat >"$2" <<INI
[scenario]
name = hsm-stale
duration = 305s
seed = 11

[host p]
role = player
args = $truth $lanes --to {addr:o} --condition loss$1

[host o]
role = observer
args = $truth $lanes --condition loss$1

[defaults]
link = delay 10ms loss $1%
INI
}

# run TAG LOSS: simulate, leave the observer's metrics in $tmp/TAG.csv
run() {
	scenario "$2" "$tmp/$1.ini"
	(cd "$tmp" && "$reckond" -s "$tmp/$1.sock" sim "$tmp/$1.ini") \
		>"$tmp/$1.out" 2>"$tmp/err" </dev/null || fail "reckond sim ($1)"
	rundir=$(sed -n 's/^results: //p' "$tmp/$1.out")
	[ -s "$rundir/metrics-o.csv" ] || fail "no metrics-o.csv ($1)"
	cp "$rundir/metrics-o.csv" "$tmp/$1.csv"
}

# sum FILE PREDICTOR COLUMN
sum() {
	awk -F, -v p="$2" -v name="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["predictor"] == p { s += $c[name] }
		END { print s + 0 }' "$1"
}

run clean 0
run lossy 30
run again 30

[ "$(sum "$tmp/clean.csv" dhsm applied)" -gt 0 ] || fail "no dhsm update applied"
clean=$(sum "$tmp/clean.csv" dhsm stale_model)
lossy=$(sum "$tmp/lossy.csv" dhsm stale_model)
applied=$(sum "$tmp/lossy.csv" dhsm applied)
[ "$clean" -eq 0 ] || fail "stale_model $clean without loss"
[ "$lossy" -gt 0 ] || fail "stale_model 0 with 30% loss"
[ "$lossy" -le "$applied" ] || fail "stale_model $lossy > applied $applied"
[ "$(sum "$tmp/lossy.csv" dis stale_model)" -eq 0 ] || fail "dis counted stale_model"
cmp -s "$tmp/lossy.csv" "$tmp/again.csv" || fail "same seed, different metrics"
pass "dhsm stale_model: 0 without loss, $lossy of $applied applied updates with 30% loss"
