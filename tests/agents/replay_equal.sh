#!/usr/bin/env bash
# replay_equal.sh: a run through reckond with zero latency and zero loss
# (no [link] sections: the bridge forwards unimpaired) must send exactly
# the updates of `reckon-agent replay` on the same trace, entity by entity
# and lane by lane, and the observer must receive every one of them.
#
#   ns p1 (10.77.0.1) --\                      /-- 2 lanes: dis, led
#                        [hub: reckond bridge]
#   ns p2 (10.77.0.2) --/          |
#                           ns obs (10.77.0.3)
. "$(dirname "$0")/lib.sh"
need_root
need_tool ip

"$agent" trace gen --map dust --bots 8 --duration 8 --seed 11 \
	-o "$tmp/t.csv" >/dev/null 2>&1 || fail "trace gen failed"
lanes="--predictor dis:pos_threshold=20 --predictor led:eta_min=5,eta_max=35"
cat >"$tmp/zero.ini" <<INI
[scenario]
name = agents-zero
duration = 14s
seed = 11

[host p1]
role = player
args = --trace $tmp/t.csv $lanes --player-index 0 --players 2 --to {addr:obs}

[host p2]
role = player
args = --trace $tmp/t.csv $lanes --player-index 1 --players 2 --to {addr:obs}

[host obs]
role = observer
args = --trace $tmp/t.csv $lanes --linger 1
INI
run_scenario "$tmp/zero.ini"
[ "$rc" -eq 0 ] || fail "reckond exited with $rc"
m=("$rundir"/metrics-p1.csv "$rundir"/metrics-p2.csv)
[ -s "${m[0]}" ] && [ -s "${m[1]}" ] && [ -s "$rundir/metrics-obs.csv" ] ||
	fail "metrics files missing in $rundir"

lane=0 replay_updates "$tmp/t.csv" dis pos_threshold=20 >"$tmp/want"
lane=1 replay_updates "$tmp/t.csv" led eta_min=5 eta_max=35 >>"$tmp/want"
sort -o "$tmp/want" "$tmp/want"
[ "$(wc -l <"$tmp/want")" -eq 16 ] || fail "replay gave $(wc -l <"$tmp/want") rows, not 8 entities x 2 lanes"
awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $c["lane"] ":" $c["entity"], $c["sent"] - $c["sent_init"] }' \
	"${m[@]}" | sort >"$tmp/got"
diff "$tmp/want" "$tmp/got" >"$tmp/err" || fail "updates per entity differ from replay"

sent=$(sum_by "lane entity" sent "${m[@]}")
recv=$(sum_by "lane entity" received "$rundir/metrics-obs.csv")
[ "$sent" = "$recv" ] || fail "observer did not receive every update"
stale=$(awk -F, -v c="$(col "$rundir/metrics-obs.csv" stale)" 'NR > 1 { s += $c } END { print s }' "$rundir/metrics-obs.csv")
[ "$stale" -eq 0 ] || fail "$stale stale updates without reordering"
pass "zero latency, zero loss: $(awk '{ s += $2 } END { print s }' "$tmp/got") updates per entity equal replay, all received"
