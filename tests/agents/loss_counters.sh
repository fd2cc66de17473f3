#!/usr/bin/env bash
# loss_counters.sh: with 10% loss on the links to the observer, the
# observer's received updates from each player must equal what the
# bridge's link counters say it delivered on that link (counters.csv),
# what each player sent must equal what entered its link, and the loss
# must be plausible: dropped / in within 5 binomial standard deviations
# of 10% (sd = sqrt(n p (1 - p)) / n for n datagrams in).
#
#   ns p1 --10% loss--> [hub: reckond bridge] <--10% loss-- ns p2
#                               | (unimpaired back)
#                            ns obs
. "$(dirname "$0")/lib.sh"
need_root
need_tool ip

"$agent" trace gen --map dust --bots 8 --duration 8 --seed 5 \
	-o "$tmp/t.csv" >/dev/null 2>&1 || fail "trace gen failed"
lanes="--predictor dis:pos_threshold=5 --predictor led:eta_min=5,eta_max=35"
cat >"$tmp/loss.ini" <<INI
[scenario]
name = agents-loss
duration = 14s
seed = 5

[host p1]
role = player
args = --trace $tmp/t.csv $lanes --entities 0,1,2,3 --to {addr:obs}

[host p2]
role = player
args = --trace $tmp/t.csv $lanes --entities 4,5,6,7 --to {addr:obs}

[host obs]
role = observer
args = --trace $tmp/t.csv $lanes --linger 1

[link p1 obs]
forward = loss 10%

[link p2 obs]
forward = loss 10%
INI
run_scenario "$tmp/loss.ini"
[ "$rc" -eq 0 ] || fail "reckond exited with $rc"
c=$rundir/counters.csv
[ -s "$c" ] || fail "no counters.csv in $rundir"
counter() {
	awk -F, -v s="$1" -v d="$2" -v k="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["src"] == s && $col["dst"] == d { print $col[k] }' "$c"
}
obs=$rundir/metrics-obs.csv
ent=$(col "$obs" entity)
rcv=$(col "$obs" received)
for p in p1 p2; do
	[ "$p" = p1 ] && lo=0 || lo=4
	sent=$(awk -F, -v c="$(col "$rundir/metrics-$p.csv" datagrams)" \
		'NR > 1 { s += $c } END { print s }' "$rundir/metrics-$p.csv")
	got=$(awk -F, -v e="$ent" -v r="$rcv" -v lo="$lo" '
		NR > 1 && $e >= lo && $e <= lo + 3 { s += $r }
		END { print s + 0 }' "$obs")
	in=$(counter "$p" obs in)
	del=$(counter "$p" obs delivered)
	[ "$sent" -eq "$in" ] || fail "$p sent $sent datagrams, link $p>obs counted in = $in"
	[ "$got" -eq "$del" ] || fail "observer received $got from $p, link $p>obs delivered $del"
	awk -v n="$in" -v d="$del" 'BEGIN {
		p = 0.1; f = (n - d) / n; sd = sqrt(p * (1 - p) / n)
		exit !(n > 100 && f > p - 5 * sd && f < p + 5 * sd) }' ||
		fail "$p>obs lost $((in - del)) of $in: not 10% within 5 sd"
	echo "$p>obs: sent $sent = in; received $got = delivered (lost $((in - del)))"
done
pass "received updates match the link counters under 10% loss"
