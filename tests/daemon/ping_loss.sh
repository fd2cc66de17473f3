#!/usr/bin/env bash
# ping_loss.sh: 10% loss each way over 2000 pings. A round trip needs both
# the request and the reply, so P(lost) = 1 - 0.9^2 = 0.19. The number of
# lost round trips is binomial(n = 2000, p = 0.19): the measured fraction
# must lie within 5 sigma, sigma = sqrt(p (1 - p) / n) = 0.0088, so within
# 0.19 +- 0.044. The link counters must also add up exactly: every request
# that was delivered was answered, every reply delivered was received.
#
#   ns a (10.77.0.1) eth0 ==veth== rk0 [hub: bridge, loss 10% each way] rk1 ==veth== eth0 ns b (10.77.0.2)
#
. "$(dirname "$0")/lib.sh"
need_root
need_tool ping

run_fg ping-loss.ini
[ "$rc" -eq 0 ] || fail "reckond exited with $rc"
stats=$(grep 'packets transmitted' "$rundir/hosts/a.log")
sent=$(echo "$stats" | sed -n 's/^\([0-9]*\) packets transmitted.*/\1/p')
recv=$(echo "$stats" | sed -n 's/.* \([0-9]*\) received.*/\1/p')
[ "$sent" = 2000 ] || fail "ping sent '$sent' requests, expected 2000"
read -r lo hi frac < <(awk -v n="$sent" -v r="$recv" 'BEGIN {
	p = 1 - 0.9 * 0.9; s = sqrt(p * (1 - p) / n)
	printf "%.5f %.5f %.5f\n", p - 5 * s, p + 5 * s, (n - r) / n }')
awk -v f="$frac" -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(f >= lo && f <= hi) }' ||
	fail "round-trip loss $frac outside [$lo, $hi]"

c=$rundir/counters.csv
ab_in=$(csv_field "$c" a b in); ab_del=$(csv_field "$c" a b delivered)
ba_in=$(csv_field "$c" b a in); ba_del=$(csv_field "$c" b a delivered)
[ "$ab_in" = "$sent" ] || fail "a>b counted $ab_in frames in, ping sent $sent"
[ "$ba_in" = "$ab_del" ] || fail "b answered $ba_in but a>b delivered $ab_del"
[ "$ba_del" = "$recv" ] || fail "b>a delivered $ba_del but ping received $recv"
pass "round-trip loss $frac in [$lo, $hi]; counters $ab_in/$ab_del/$ba_in/$ba_del consistent"
