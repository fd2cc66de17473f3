#!/usr/bin/env bash
# crossval.sh: the simulator against the emulator. quickstart15.ini, a
# copy of scenarios/quickstart.ini cut to 15 s of movement and one
# repetition (made here, so it follows the quickstart's hosts, predictors
# and links), runs with seed 1 once in network namespaces (`reckond run`,
# root) and once in virtual time (`reckond sim`), and:
#  - every player's updates sent, per lane and entity, are EQUAL: the
#    senders do not depend on the network and both hosts run the same
#    machines on the same truth;
#  - per predictor, the 95% confidence intervals of the mean error and of
#    the p95 error overlap. With one repetition the samples are the
#    observer's per-entity rows: n entities, mean m, sample deviation s,
#    half-width t(0.975, n - 1) s / sqrt(n); overlap means |m_emu - m_sim|
#    <= h_emu + h_sim;
#  - in each mode, the observer received what the links delivered, and
#    each link lost 2% within 5 binomial standard deviations
#    (sqrt(p (1 - p) / n) for n datagrams in). Whether the received
#    counts of the two modes are equal is printed, not required: the
#    link's loss draws are made per datagram in arrival order, which is
#    the sender's order in both modes for these one-sender links;
#  - on a one-sender link with corrupt 10% and duplicate 5%, the copies
#    delivered, corrupted and duplicated, and what the observer took
#    (corrupted copies are dropped by the receiving kernel unless the bit
#    is in the Ethernet source address) are equal in both modes.
#
#   p1 --delay 50ms 10ms loss 2%--\
#                                  >-- obs    (namespaces, then virtual time)
#   p2 --delay 50ms 10ms loss 2%--/
. "$(dirname "$0")/lib.sh"
need_root

qs=$tmp/quickstart15.ini
sed -e 's/^name = quickstart$/name = quickstart15/' \
	-e 's/^duration = 64s$/duration = 19s/' -e 's/--duration 60 /--duration 15 /' \
	-e 's/^repetitions = 3$/repetitions = 1/' -e 's/^seed = .*/seed = 1/' \
	"$src/scenarios/quickstart.ini" >"$qs"
[ "$(grep -c -- '--duration 15 ' "$qs")" -eq 3 ] && grep -q '^duration = 19s' "$qs" &&
	grep -q '^repetitions = 1' "$qs" ||
	fail "could not cut scenarios/quickstart.ini to 15 s (did its layout change?)"
reckond_do sim sim "$qs"
[ "$rc" -eq 0 ] || fail "reckond sim exited with $rc"
sim=$rundir
reckond_do emu run "$qs"
[ "$rc" -eq 0 ] || fail "reckond run exited with $rc"
emu=$rundir
for d in "$sim" "$emu"; do
	for h in p1 p2 obs; do
		[ -s "$d/metrics-$h.csv" ] || fail "no metrics-$h.csv in $d"
	done
done

# 1. updates sent: equal per lane and entity
for h in p1 p2; do
	keyed "$sim/metrics-$h.csv" "lane predictor entity" sent >"$tmp/s.$h"
	keyed "$emu/metrics-$h.csv" "lane predictor entity" sent >"$tmp/e.$h"
	[ -s "$tmp/s.$h" ] || fail "no rows in $sim/metrics-$h.csv"
	diff "$tmp/e.$h" "$tmp/s.$h" >"$tmp/diff.err" ||
		fail "$h: updates sent differ (emulated < > simulated)"
done
cat "$tmp"/s.p1 "$tmp"/s.p2 | awk '{ split($1, k, ":"); n[k[2]] += $2 }
	END { for (p in n) printf "sent: %s %d updates in both modes\n", p, n[p] }' | sort

# 2. error statistics: per-entity 95% CIs overlap
ci() { # FILE STAT -> "predictor n mean half" per predictor
	awk -F, -v stat="$2" '
		function t975(df) {
			# two-sided 95% Student t quantiles (standard tables)
			split("12.7062 4.3027 3.1824 2.7764 2.5706 2.4469 2.3646 " \
			      "2.3060 2.2622 2.2281 2.2010 2.1788 2.1604 2.1448 " \
			      "2.1314 2.1199 2.1098 2.1009 2.0930 2.0860", t, " ")
			return df <= 20 ? t[df] : 1.96 + 2.4 / df
		}
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["frames"] > 0 {
			p = $c["predictor"]; x = $c[stat]
			n[p]++; s[p] += x; q[p] += x * x
		}
		END {
			for (p in n) {
				m = s[p] / n[p]
				v = n[p] > 1 ? (q[p] - n[p] * m * m) / (n[p] - 1) : 0
				if (v < 0) v = 0
				h = n[p] > 1 ? t975(n[p] - 1) * sqrt(v / n[p]) : 0
				printf "%s %d %.4f %.4f\n", p, n[p], m, h
			}
		}' "$1" | sort
}
for stat in err_mean err_p95; do
	ci "$sim/metrics-obs.csv" $stat >"$tmp/ci.sim"
	ci "$emu/metrics-obs.csv" $stat >"$tmp/ci.emu"
	[ "$(wc -l <"$tmp/ci.sim")" -eq 2 ] || fail "expected 2 predictors: $(cat "$tmp/ci.sim")"
	join "$tmp/ci.emu" "$tmp/ci.sim" >"$tmp/ci.both"
	[ "$(wc -l <"$tmp/ci.both")" -eq 2 ] || fail "the modes have different predictors"
	while read -r p ne me he ns ms hs; do
		printf "%s %s: emulated %.3f +- %.3f (n %d), simulated %.3f +- %.3f (n %d)\n" \
			"$p" "$stat" "$me" "$he" "$ne" "$ms" "$hs" "$ns"
		awk -v a="$me" -v ha="$he" -v b="$ms" -v hb="$hs" 'BEGIN {
			d = a - b; if (d < 0) d = -d; exit !(d <= ha + hb) }' ||
			fail "$p $stat: the 95% confidence intervals do not overlap"
	done <"$tmp/ci.both"
done

# 3. received against the links' loss, in each mode; equal across modes?
counter() { # DIR SRC DST KEY
	awk -F, -v s="$2" -v d="$3" -v k="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["src"] == s && $col["dst"] == d { print $col[k] }' "$1/counters.csv"
}
received_from() { # DIR PLAYER: observer rows of the player's entities
	awk -F, 'FNR == 1 { delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
		FILENAME ~ /metrics-p/ { mine[$c["entity"]] = 1; next }
		($c["entity"] in mine) { s += $c["received"] }
		END { print s + 0 }' "$1/metrics-$2.csv" "$1/metrics-obs.csv"
}
same=1
for p in p1 p2; do
	for d in "$emu" "$sim"; do
		in=$(counter "$d" "$p" obs in)
		del=$(counter "$d" "$p" obs delivered)
		got=$(received_from "$d" "$p")
		[ "$got" -eq "$del" ] ||
			fail "$d: observer received $got from $p, link delivered $del"
		awk -v n="$in" -v d="$del" 'BEGIN { p = 0.02; f = (n - d) / n
			sd = sqrt(p * (1 - p) / n)
			exit !(n >= 50 && f > p - 5 * sd && f < p + 5 * sd) }' ||
			fail "$p>obs lost $((in - del)) of $in in $d: not 2% within 5 sd"
	done
	re=$(received_from "$emu" "$p")
	rs=$(received_from "$sim" "$p")
	echo "received from $p: emulated $re, simulated $rs of $(counter "$sim" "$p" obs in) sent"
	[ "$re" -eq "$rs" ] || same=0
done
if [ $same -eq 1 ]; then
	echo "received counts are equal: same per-link datagram order, same loss draws"
else
	echo "received counts differ: the emulator's datagram order on a link differed"
fi

# 4. corruption and duplication on a one-sender link: the simulator's
# model (a corrupted copy reaches the application only when the flipped
# octet is in the Ethernet source address; the receiving kernel drops
# the rest on the MAC, IPv4 or UDP checksum) must give the observer
# exactly the emulator's count, since the draws are the same
cat >"$tmp/corrupt.ini" <<INI
[scenario]
name = corrupt
duration = 9s
seed = 3
[host p]
role = player
args = --map dust --bots 4 --duration 6 --predictor led:eta_min=5,eta_max=35 --to {addr:obs}
[host obs]
role = observer
args = --map dust --bots 4 --duration 6 --predictor led:eta_min=5,eta_max=35
[link p obs]
forward = delay 5ms corrupt 10% duplicate 5%
INI
reckond_do csim sim "$tmp/corrupt.ini"
[ "$rc" -eq 0 ] || fail "reckond sim (corrupt) exited with $rc"
csim=$rundir
reckond_do cemu run "$tmp/corrupt.ini"
[ "$rc" -eq 0 ] || fail "reckond run (corrupt) exited with $rc"
cemu=$rundir
for k in delivered corrupted duplicated; do
	a=$(counter "$cemu" p obs $k)
	b=$(counter "$csim" p obs $k)
	[ "$a" -eq "$b" ] || fail "p>obs $k: emulated $a, simulated $b"
done
re=$(received_from "$cemu" p)
rs=$(received_from "$csim" p)
echo "corrupt 10% duplicate 5%: $(counter "$csim" p obs delivered) copies delivered," \
	"$(counter "$csim" p obs corrupted) corrupted; observer took emulated $re, simulated $rs"
[ "$re" -eq "$rs" ] || fail "corrupted copies: the observer took $re emulated, $rs simulated"
[ "$re" -lt "$(counter "$csim" p obs delivered)" ] || fail "no corrupted copy was dropped"
pass "simulator and emulator agree (updates sent equal, error CIs overlap, corruption model)"
