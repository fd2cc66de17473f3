#!/usr/bin/env bash
# hsm_emulated.sh: a dhsm lane in an emulated run (reckond, network
# namespaces, real UDP, the agents load the loop map named in the trace
# for dhsm's line-of-sight gate). With zero latency and loss the player
# must send exactly the updates of `reckon-agent replay` on the same
# trace, entity by entity, the observer must receive all of them, and no
# applied update may reveal a missed model switch (stale_model 0).
#
#   ns p (10.77.0.1) -- [hub: reckond bridge] -- ns obs (10.77.0.2)
. "$(dirname "$0")/lib.sh"
need_root
need_tool ip

"$agent" trace gen --map loop --bots 4 --duration 20 --seed 5 \
	-o "$tmp/t.csv" >/dev/null 2>&1 || fail "trace gen failed"
lanes="--predictor dhsm:tau=30"
cat >"$tmp/zero.ini" <<INI
[scenario]
name = agents-dhsm
duration = 26s
seed = 5

[host p]
role = player
args = --trace $tmp/t.csv $lanes --to {addr:obs}

[host obs]
role = observer
args = --trace $tmp/t.csv $lanes --linger 1
INI
run_scenario "$tmp/zero.ini"
[ "$rc" -eq 0 ] || fail "reckond exited with $rc"
[ -s "$rundir/metrics-p.csv" ] && [ -s "$rundir/metrics-obs.csv" ] ||
	fail "metrics files missing in $rundir"

lane=0 replay_updates "$tmp/t.csv" dhsm tau=30 >"$tmp/want"
[ "$(wc -l <"$tmp/want")" -eq 4 ] || fail "replay gave $(wc -l <"$tmp/want") rows, not 4"
awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $c["lane"] ":" $c["entity"], $c["sent"] - $c["sent_init"] }' \
	"$rundir/metrics-p.csv" | sort >"$tmp/got"
diff "$tmp/want" "$tmp/got" >"$tmp/err" || fail "dhsm updates per entity differ from replay"
sent=$(sum_by "lane entity" sent "$rundir/metrics-p.csv")
recv=$(sum_by "lane entity" applied "$rundir/metrics-obs.csv")
[ "$sent" = "$recv" ] || fail "observer did not apply every update"
stale=$(awk -F, -v c="$(col "$rundir/metrics-obs.csv" stale_model)" \
	'NR > 1 { s += $c } END { print s + 0 }' "$rundir/metrics-obs.csv")
[ "$stale" -eq 0 ] || fail "stale_model $stale without loss"
pass "dhsm emulated: $(awk '{ s += $2 } END { print s }' "$tmp/got") updates per entity equal replay, all applied, stale_model 0"
