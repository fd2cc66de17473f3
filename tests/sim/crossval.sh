#!/usr/bin/env bash
# crossval.sh BUILD [quick]: the simulator against the emulator. The
# scenario runs with the same seed once in network namespaces (`reckond
# run`: bridge, real agents, root) and once in virtual time (`reckond
# sim`), and the two result directories are compared.
#
# Full (ctest sim_crossval, labels sim and long): scenarios/quickstart.ini
# as shipped (seed 1, 3 repetitions of 64 s, about 3.5 minutes emulated).
#  1. updates sent are EQUAL in every repetition, per player, lane and
#     entity, and so per predictor: the senders do not depend on the
#     network, and both hosts run the same machines on the same truth.
#  2. datagrams received are EQUAL in every repetition, per lane and
#     entity, and every link's counters (in, delivered, lost, ...) are
#     equal. This holds by construction: every netem link draws from its
#     own streams seeded from (repetition seed, link id, purpose) and
#     makes its draws per datagram in arrival order. Each quickstart link
#     has one sender, which sends in a fixed order (ticks, then lanes,
#     then entities), and one thread's sends are not reordered on its
#     veth, so the bridge sees the simulator's order and every datagram
#     gets the same loss draw. Nothing else can drop one: no rate, the
#     queue limit (1000) is never near, and the observer lingers 1 s
#     after the last frame, far beyond the 50 ms +- 10 ms of delay. (It
#     would not hold with several senders on one link, rate limits,
#     slots or late arrivals, whose outcome depends on real timing.)
#     Hence summary.csv's delivery (received / sent), with its interval,
#     is equal too, digit for digit.
#  3. for each predictor, the 95% confidence intervals over repetitions
#     in summary.csv (mean +- t(0.975, n-1) s / sqrt(n), n = 3) of the
#     error statistics err_mean, err_p50, err_p95, err_max and over_frac,
#     and of updates/s and bytes/s, overlap: |m_emu - m_sim| <= h_emu +
#     h_sim. The error statistics are not equal: the emulator delivers a
#     datagram at its real arrival plus the drawn delay and samples a
#     frame when its timer fires, both late by tens to hundreds of
#     microseconds, so an update can land on the other side of a frame.
#     The rates divide equal counts by the seconds a player covered,
#     taken when it ends after its last tick: in the emulator that is
#     as late as its timer fired (capped at the trace's end, one 1/64 s
#     tick later), so the rates differ from the fifth digit on.
#
# Quick (ctest sim_crossval_quick, label sim, about 30 s): the quickstart
# cut to 15 s of movement and one repetition: checks 1 and 2 (no
# interval over repetitions exists with one), and the corruption model:
# on a one-sender link with corrupt 10% and duplicate 5% the copies
# delivered, corrupted and duplicated, and what the observer took
# (corrupted copies are dropped by the receiving kernel unless the bit is
# in the Ethernet source address), are equal in both modes.
#
#   p1 --delay 50ms 10ms loss 2%--\
#                                  >-- obs    (namespaces, then virtual time)
#   p2 --delay 50ms 10ms loss 2%--/
. "$(dirname "$0")/lib.sh"
export LC_ALL=C
variant=${2:-full}
case $variant in
full | quick) ;;
*) fail "usage: $0 BUILD_DIR [quick]" ;;
esac
need_root

# counter DIR SRC DST KEY: one column of counters.csv
counter() {
	awk -F, -v s="$2" -v d="$3" -v k="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["src"] == s && $col["dst"] == d { print $col[k] }' "$1/counters.csv"
}

# received_from DIR PLAYER: what the observer took of the player's entities
received_from() {
	awk -F, 'FNR == 1 { delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
		FILENAME ~ /metrics-p/ { mine[$c["entity"]] = 1; next }
		($c["entity"] in mine) { s += $c["received"] }
		END { print s + 0 }' "$1/metrics-$2.csv" "$1/metrics-obs.csv"
}

# compare_rep EMU_DIR SIM_DIR LABEL: checks 1 and 2 on one repetition
compare_rep() {
	local e=$1 s=$2 what=$3 h k
	for d in "$e" "$s"; do
		for h in p1 p2 obs; do
			[ -s "$d/metrics-$h.csv" ] || fail "no metrics-$h.csv in $d"
		done
	done
	# 1. updates sent, per player, lane and entity
	for h in p1 p2; do
		keyed "$e/metrics-$h.csv" "lane predictor entity" sent >"$tmp/e.$h"
		keyed "$s/metrics-$h.csv" "lane predictor entity" sent >"$tmp/s.$h"
		[ -s "$tmp/s.$h" ] || fail "no rows in $s/metrics-$h.csv"
		diff "$tmp/e.$h" "$tmp/s.$h" >"$tmp/diff.err" ||
			fail "$what: $h: updates sent differ (emulated < > simulated)"
	done
	cat "$tmp"/s.p1 "$tmp"/s.p2 | awk -v w="$what" '
		{ split($1, k, ":"); n[k[2]] += $2 }
		END { for (p in n) printf "%s: %s sent %d updates in both modes\n", w, p, n[p] }' |
		sort
	# 2. received per lane and entity, and the links' counters
	keyed "$e/metrics-obs.csv" "lane predictor entity" received >"$tmp/e.obs"
	keyed "$s/metrics-obs.csv" "lane predictor entity" received >"$tmp/s.obs"
	[ -s "$tmp/s.obs" ] || fail "no rows in $s/metrics-obs.csv"
	diff "$tmp/e.obs" "$tmp/s.obs" >"$tmp/diff.err" ||
		fail "$what: the observer received different counts (emulated < > simulated)"
	for h in p1 p2; do
		for k in in delivered drop_loss drop_limit duplicated corrupted bytes_in bytes_delivered; do
			[ "$(counter "$e" $h obs $k)" = "$(counter "$s" $h obs $k)" ] ||
				fail "$what: $h>obs $k: emulated $(counter "$e" $h obs $k)," \
					"simulated $(counter "$s" $h obs $k)"
		done
		[ "$(received_from "$s" $h)" -eq "$(counter "$s" $h obs delivered)" ] ||
			fail "$what: simulated observer took $(received_from "$s" $h) from $h," \
				"the link delivered $(counter "$s" $h obs delivered)"
		echo "$what: $h>obs delivered $(counter "$s" $h obs delivered) of" \
			"$(counter "$s" $h obs in) in both modes; the observer received them all"
	done
}

if [ "$variant" = full ]; then
	qs=$src/scenarios/quickstart.ini
	reps=$(sed -n 's/^repetitions = //p' "$qs")
	[ "${reps:-0}" -ge 2 ] || fail "$qs: want repetitions >= 2 for intervals, has '${reps:-}'"
	reckond_do sim sim "$qs"
	[ "$rc" -eq 0 ] || fail "reckond sim exited with $rc"
	sim=$rundir
	reckond_do emu run "$qs"
	[ "$rc" -eq 0 ] || fail "reckond run exited with $rc"
	emu=$rundir
	for r in $(seq 1 "$reps"); do
		compare_rep "$emu/rep-$r" "$sim/rep-$r" "rep $r"
	done

	# summary.csv: rates equal; error intervals over repetitions overlap
	summ() { # DIR: "predictor column mean ci95" lines
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i; n = NF; next }
			{ for (i = 1; i <= n; i++)
				if (h[i] !~ /_ci95$/ && h[i + 1] == h[i] "_ci95")
					print $1, h[i], $i, $(i + 1) }' "$1/summary.csv" | sort
	}
	summ "$emu" >"$tmp/sum.emu"
	summ "$sim" >"$tmp/sum.sim"
	[ "$(wc -l <"$tmp/sum.sim")" -ge 10 ] || fail "summary.csv: too few figures: $(cat "$tmp/sum.sim")"
	join -j 1 <(awk '{ print $1 ":" $2, $3, $4 }' "$tmp/sum.emu" | sort) \
		<(awk '{ print $1 ":" $2, $3, $4 }' "$tmp/sum.sim" | sort) >"$tmp/sum.both"
	[ "$(wc -l <"$tmp/sum.both")" -eq "$(wc -l <"$tmp/sum.sim")" ] ||
		fail "the summaries have different rows"
	checked=0
	while read -r key me he ms hs; do
		stat=${key#*:}
		case $stat in
		delivery)
			[ "$me $he" = "$ms $hs" ] ||
				fail "$key: emulated $me +- $he, simulated $ms +- $hs: want equal"
			echo "$key: $ms +- $hs in both modes"
			;;
		err_mean | err_p50 | err_p95 | err_max | over_frac | updates_per_s | bytes_per_s)
			[ -n "$he" ] && [ -n "$hs" ] || fail "$key: no interval"
			printf "%s: emulated %s +- %s, simulated %s +- %s\n" "$key" "$me" "$he" "$ms" "$hs"
			awk -v a="$me" -v ha="$he" -v b="$ms" -v hb="$hs" 'BEGIN {
				d = a - b; if (d < 0) d = -d; exit !(d <= ha + hb) }' ||
				fail "$key: the 95% confidence intervals do not overlap"
			checked=$((checked + 1))
			;;
		esac
	done <"$tmp/sum.both"
	[ "$checked" -eq 14 ] || fail "checked $checked intervals, want 7 x 2 predictors"
	pass "quickstart, $reps repetitions: updates sent and received equal, error CIs overlap"
	exit 0
fi

# ---- quick: the quickstart cut to 15 s and one repetition ----
qs=$tmp/quickstart15.ini
sed -e 's/^name = quickstart$/name = quickstart15/' \
	-e 's/^duration = 64s$/duration = 19s/' \
	-e 's/^repetitions = 3$/repetitions = 1/' -e 's/^seed = .*/seed = 1/' \
	"$src/scenarios/quickstart.ini" >"$qs"
# the play is [scenario] duration less the 4 s lead in every agent
[ "$("$build/daemon/reckond" -nv "$qs" | grep -c -- '--duration 15 ')" -eq 3 ] &&
	grep -q '^duration = 19s' "$qs" &&
	grep -q '^repetitions = 1' "$qs" ||
	fail "could not cut scenarios/quickstart.ini to 15 s (did its layout change?)"
reckond_do sim sim "$qs"
[ "$rc" -eq 0 ] || fail "reckond sim exited with $rc"
sim=$rundir
reckond_do emu run "$qs"
[ "$rc" -eq 0 ] || fail "reckond run exited with $rc"
emu=$rundir
compare_rep "$emu" "$sim" "15 s"

# the corruption model on a one-sender link: a corrupted copy reaches the
# application only when the flipped octet is in the Ethernet source
# address (the receiving kernel drops the rest on the MAC, IPv4 or UDP
# checksum), so the observer must take exactly the emulator's count
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
pass "15 s quickstart and corruption: updates sent and received equal in both modes"
