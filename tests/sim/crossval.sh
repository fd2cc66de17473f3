#!/usr/bin/env bash
# crossval.sh BUILD [quick]: the simulator against the emulator. The
# scenario runs with the same seed once in network namespaces (`reckond
# run`: bridge, real agents, root) and once in virtual time (`reckond
# sim`), and the two result directories are compared.
#
# Full (ctest sim_crossval, labels sim and long): scenarios/quickstart.ini
# as shipped (seed 1, 3 repetitions of 64 s, about 3.5 minutes emulated),
# its observer recording every frame (--samples 64, see check 3).
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
#     veth (no ARP either: reckond gives every host permanent entries for
#     its peers, so the first datagrams do not queue for a reply while
#     later ones overtake them; tests/daemon/order.sh), so the bridge sees
#     the simulator's order and every datagram gets the same loss draw. Nothing else can drop one: no rate, the
#     queue limit (1000) is never near, and the observer lingers 1 s
#     after the last frame, far beyond the 50 ms +- 10 ms of delay. (It
#     would not hold with several senders on one link, rate limits,
#     slots or late arrivals, whose outcome depends on real timing. An
#     observer binds its sockets before it builds the truth, so updates
#     that arrive while a loaded machine builds it wait in the socket
#     buffers rather than meeting a closed port.)
#     Hence summary.csv's delivery (received / sent), with its interval,
#     is equal too, digit for digit.
#  3. the error figures agree PAIRWISE, per repetition, lane and
#     entity, within a bound derived from the arrival times measured in
#     that very run. The observer runs with --samples 64, so both modes
#     record every frame's error sample (frames-obs.csv, errors to 0.01 u)
#     and every update's arrival (arrivals-obs.csv, to the microsecond).
#     What can differ: the truth, the updates (1) and which of them
#     arrive (2) are the same, and a frame is sampled at its tick time in
#     both modes (the observer runs the frames due before an arrival
#     first, so a late timer changes nothing). Only the arrival times
#     differ: in the emulator an update arrives later by the sender's
#     timer lateness, the bridge's and the observer's wake-up, by a
#     shift d_i that the two arrival files give for every update.
#     The display. Both lanes converge by projective velocity blending
#     (dis: convergence=pvb; led: eq. 3-6/10 of Steele's paper 000): an
#     update that arrives at a shows
#         Q(t) = (1 - f) X(t) + f N(t),   f = min((t - a) / B, 1),
#         X = P0 + Vb tau + A tau^2 / 2,  Vb = V0 + (V1 - V0) f,
#     tau = t - a, where N is the update's own model (extrapolated from
#     its send time), (P0, V0) the display's position and blended
#     velocity at a, and B the convergence time (dis: blend; led:
#     K / eta in [B_min, B_max] = [K / eta_max, K / eta_min]).
#     (a) Exact: once f = 1, Q = N, which depends on no arrival time. So
#     when the last update applied has converged in both modes (t >= the
#     later arrival + B_max) the two samples are EQUAL (to the 0.01 of
#     the file). Checked on every such sample.
#     (b) One arrival moved by d: Q(t; a + d) and Q(t - d; a) have the
#     same tau and f, and differ by (1 - f)[O(a + d) - O(a) + (1 - f) tau
#     (V0(a + d) - V0(a))] + f [N(t) - N(t - d)], where O is the display
#     before the arrival; and |Q(t - d; a) - Q(t; a)| <= d |Q'|. The
#     O and N terms are a convex combination, at most d S; (1 - f)^2 tau
#     <= 4 B / 27 (its largest value, at tau = B / 3), and |V0'| =
#     |V1 - V0| / B_old <= 2 S / B_old, so
#         |Q(t; a + d) - Q(t; a)| <= K d,   K = S (2 + 8 B_max / (27 B_min)),
#     S the largest speed of the display and of the truth, in either
#     mode, over the frames from B_max before the update's arrival to
#     B_max after it (steps between consecutive frames, plus 10 u/s for
#     the 0.1 u rounding of the positions). Assumption: S bounds the
#     model's speed |N'| too, as each model is what the display shows
#     once it has converged. For a frame between the two arrivals one
#     mode shows the new blend and the other still O, and a blend can
#     turn sharply within a frame (V0 is the old blend's velocity, which
#     the display does not show): there D(t) is at least the bound at the
#     frame before (both showed O) plus how far each display moved since,
#     by the triangle inequality (plus 0.3 u for the rounding).
#     (c) Differences carried into (P0, V0) from earlier updates shrink
#     with (1 - f): D(t) = K d + g (cP + g tau cV) and the velocity bound
#     g cV + 2 S d / B_min, g = 1 - max(0, (t - later arrival) / B_max)
#     >= 1 - f, (cP, cV) both bounds at the update's arrival
#     (tests/sim/crossval_bound.awk).
#     The truth is the same in both modes, so two error samples differ
#     by at most their displays do: every paired sample must have
#     |err_emu - err_sim| <= D(t) + 0.01. Then the figures of
#     metrics-obs.csv: the mean moves by at most sum(D_k) / n. For the
#     order statistics (err_p50, err_p95, err_max: nearest rank), each
#     emulated sample lies in [y_k - D_k, y_k + D_k] around its simulated
#     twin y_k, and order statistics are monotone in every value, so the
#     r-th smallest emulated sample lies between the r-th smallest of the
#     lower ends and of the upper ends: |q_emu - q_sim| <= the larger of
#     U(r) - Y(r) and Y(r) - L(r) (Y, L, U: the y_k, y_k - D_k and
#     y_k + D_k sorted), which only the D_k of samples near rank r
#     widen. A frame sampled in one mode only (an arrival crossed the
#     first frame of a path, blind in the later mode) moves the mean by
#     at most 2 m E / n more (E the larger err_max) and a quantile's rank
#     by at most m (the bound then spans ranks r - m to r; beyond the
#     paired ranks, the unpaired samples themselves). over_s: one
#     tick per sample within D of the 20 u threshold or unpaired.
#     Nothing here is a constant: D scales with the shifts measured in
#     the run, so a loaded machine widens it where the shifts are, and a
#     several-fold error still fails (most bounds are a few percent of
#     the figures, see the table).
#     A (lane, entity) whose modes applied different updates (jitter
#     reordered two of its updates in one mode only, so one was stale
#     there) is outside the argument and is left out with a note; at
#     least half of the rows must be compared. Self-test: the comparison
#     of the first repetition against copies of the simulated one with
#     led's figures doubled, and with led's error samples doubled, must
#     fail.
#     updates/s and bytes/s are equal counts (1) over the seconds each
#     player covered, which differ by less than a tick (the emulated
#     player ends as late as its timer fires, capped at the trace's end):
#     the summary's rates agree to the fourth digit and are not checked.
#
# Quick (ctest sim_crossval_quick, label sim, about 30 s): the quickstart
# cut to 15 s of movement and one repetition: checks 1, 2 and 3 (with
# its self-test), and the corruption model:
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

# samples_ok FILE: the observer of FILE records every frame (check 3)
# and keeps the 20 u threshold that over_s counts against
samples_ok() {
	local a
	a=$("$reckond" -nv "$1" | sed -n '/^\[host obs\]/,/^\[/p' | grep '^# agent options:')
	case $a in
	*"--samples 64"*--threshold* | *--threshold*"--samples 64"*)
		fail "$1: check 3 counts over_s against the default 20 u threshold" ;;
	*"--samples 64"*) ;;
	*) fail "$1: could not give the observer --samples 64 (did quickstart.ini change?)" ;;
	esac
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

# lane_blend DIR: "lane predictor Bmin Bmax" per lane of metrics-obs.csv,
# the shortest and longest convergence time the lane's receivers can use
# (dis pvb: blend; led: K / eta with K = blend (eta_min + eta_max) / 2
# and eta in [eta_min, eta_max]); "lane predictor -" when the derivation
# does not cover the predictor as configured.
lane_blend() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		!($c["lane"] in seen) {
			seen[$c["lane"]] = 1; p = $c["predictor"]
			n = split($c["params"], kv, " "); delete v
			for (i = 1; i <= n; i++) { split(kv[i], x, "="); v[x[1]] = x[2] }
			if (p == "dis" && v["convergence"] == "pvb" && v["snap_distance"] == 0)
				print $c["lane"], p, v["blend"], v["blend"]
			else if (p == "led" && v["eta_min"] > 0) {
				k = v["blend"] * (v["eta_min"] + v["eta_max"]) / 2
				print $c["lane"], p, k / v["eta_max"], k / v["eta_min"]
			} else
				print $c["lane"], p, "-"
		}' "$1/metrics-obs.csv"
}

# errcheck EMU_DIR SIM_DIR LABEL: check 3 on one repetition (see the
# header): every error sample within D of its twin, and err_mean,
# err_p50, err_p95, err_max and over_s of metrics-obs.csv within the
# bounds derived from D. Prints the side-by-side table; returns 1 on
# any figure or sample out of bounds (callers decide to fail).
errcheck() {
	local e=$1 s=$2 what=$3 w=$tmp/ec f m d tick
	rm -rf "$w" && mkdir -p "$w"
	for f in arrivals frames metrics; do
		[ -s "$e/$f-obs.csv" ] && [ -s "$s/$f-obs.csv" ] ||
			{ echo "$what: no $f-obs.csv (the observer needs --samples 64)"; return 1; }
	done
	# the frame interval: the truth's tick
	tick=$(awk -F, 'NR == 2 { print $6 / 1000 }' "$s/timing-obs.csv")
	lane_blend "$s" >"$w/lanes"
	if grep -q ' -$' "$w/lanes"; then
		echo "$what: no bound derived for lane $(grep ' -$' "$w/lanes")"
		return 1
	fi
	# the updates, matched by (lane, entity, sequence number)
	for m in e s; do
		d=$e; [ $m = s ] && d=$s
		awk -F, 'NR > 1 { print $1 ":" $2 ":" $3, $5, $8 }' "$d/arrivals-obs.csv" |
			sort >"$w/arr.$m"
	done
	join -v1 -v2 "$w/arr.e" "$w/arr.s" >"$w/arr.lone"
	if [ -s "$w/arr.lone" ]; then
		echo "$what: updates that arrived in one mode only:"; head -n 5 "$w/arr.lone"
		return 1
	fi
	# A lane entity lo hi: an update applied in both modes, arrived at
	# lo in the earlier mode and hi in the later (recv_s has 1 ms steps:
	# each side widened by half of one); X lane entity: the modes made
	# different choices on one of the entity's updates
	join "$w/arr.e" "$w/arr.s" | awk '{ split($1, k, ":") }
		$3 != $5 { print "X", k[1], k[2]; next }
		$3 == "applied" { lo = $2 < $4 ? $2 : $4; hi = $2 < $4 ? $4 : $2
			printf "A %s %s %.7f %.7f\n", k[1], k[2], lo - 0.0000005, hi + 0.0000005 }' >"$w/ev"
	# F lane entity t err_e err_s shown_e(x y) shown_s(x y) true(x y):
	# a frame sampled in both modes; U lane entity t e|s err: sampled in
	# one only
	for m in e s; do
		d=$e; [ $m = s ] && d=$s
		awk -F, 'NR > 1 { print $1 ":" $2 ":" $3, $8, $4, $5, $6, $7 }' "$d/frames-obs.csv" |
			sort >"$w/fr.$m"
	done
	join -a1 -a2 -e NA -o 0,1.2,2.2,1.3,1.4,2.3,2.4,2.5,2.6 "$w/fr.e" "$w/fr.s" |
		awk -v tick="$tick" '{
			# frame times are ticks, written to the millisecond
			split($1, k, ":"); t = sprintf("%.0f", k[3] / tick) * tick }
			$2 == "NA" { printf "U %s %s %.7f s %s\n", k[1], k[2], t, $3; next }
			$3 == "NA" { printf "U %s %s %.7f e %s\n", k[1], k[2], t, $2; next }
			{ printf "F %s %s %.7f", k[1], k[2], t
			  print "", $2, $3, $4, $5, $6, $7, $8, $9 }' >>"$w/ev"
	sort -k2,2n -k3,3n -k4,4g -k1,1 "$w/ev" >"$w/ev.sorted"
	awk -v lanes="$w/lanes" -v thr=20 -v tick="$tick" -v ranges="$w/ranges" \
		-f "$here/crossval_bound.awk" "$w/lanes" \
		pass=1 "$w/ev.sorted" pass=2 "$w/ev.sorted" >"$w/rows" || return 1
	# the simulated samples, and the ranges' lower and upper ends, each
	# sorted, for the order statistics
	sort -k1,1n -k2,2n -k3,3g "$w/ranges" | cut -d' ' -f1-3 >"$w/y"
	sort -k1,1n -k2,2n -k4,4g "$w/ranges" | cut -d' ' -f1,2,4 >"$w/lo"
	sort -k1,1n -k2,2n -k5,5g "$w/ranges" | cut -d' ' -f1,2,5 >"$w/hi"
	for m in e s; do
		d=$e; [ $m = s ] && d=$s
		keyed "$d/metrics-obs.csv" "lane entity" predictor >"$w/pred"
		for f in frames err_mean err_p50 err_p95 err_max over_s; do
			keyed "$d/metrics-obs.csv" "lane entity" $f >"$w/$f"
			join "$w/pred" "$w/$f" >"$w/pred.tmp" && mv "$w/pred.tmp" "$w/pred"
		done
		mv "$w/pred" "$w/met.$m"
	done
	join "$w/met.e" "$w/met.s" | tr ':' ' ' | sort -k1,1n -k2,2n >"$w/met"
	awk -v what="$what" -v tick="$tick" -f "$here/crossval_figs.awk" \
		"$w/rows" "$w/met" "$w/y" "$w/lo" "$w/hi"
}

# selftest EMU_DIR SIM_DIR LABEL: check 3 must fail against copies of the
# simulated repetition with led's figures doubled, and with led's error
# samples doubled
selftest() {
	local e=$1 s=$2 what=$3 d=$tmp/doctored n f led
	for f in figures samples; do
		rm -rf "$d" && mkdir -p "$d" && cp "$s"/*-obs.csv "$d/"
		if [ $f = figures ]; then
			awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
				$c["predictor"] == "led" { for (i = c["err_mean"]; i <= c["err_max"]; i++)
					$i = sprintf("%.6f", 2 * $i) } { print }' \
				"$s/metrics-obs.csv" >"$d/metrics-obs.csv"
		else
			led=$(awk '$2 == "led" { print $1 }' "$tmp/ec/lanes")
			awk -F, -v OFS=, -v l="$led" 'NR > 1 && $1 == l { $8 = sprintf("%.2f", 2 * $8) } { print }' \
				"$s/frames-obs.csv" >"$d/frames-obs.csv"
		fi
		if errcheck "$e" "$d" "$what, led's $f doubled" >"$tmp/selftest.out"; then
			cat "$tmp/selftest.out"
			fail "$what: check 3 passed with led's $f doubled in a copy of the simulated results"
		fi
		n=$(grep -c ' OUT$' "$tmp/selftest.out")
		echo "$what: self-test: with led's $f doubled in a copy of the simulated results," \
			"check 3 fails: $n of $(grep -c '  led  e.*  err_' "$tmp/selftest.out") led" \
			"error figures and the samples of" \
			"$(grep -c 'led entity .* samples out of their bound' "$tmp/selftest.out") led rows out of bound"
	done
}

if [ "$variant" = full ]; then
	# the quickstart as shipped, its observer recording every frame
	qs=$tmp/quickstart.ini
	sed 's/^role = observer$/&\nargs = --samples 64/' "$src/scenarios/quickstart.ini" >"$qs"
	samples_ok "$qs"
	reps=$(sed -n 's/^repetitions = //p' "$qs")
	[ "${reps:-0}" -ge 2 ] || fail "$qs: want repetitions >= 2, has '${reps:-}'"
	reckond_do sim sim "$qs"
	[ "$rc" -eq 0 ] || fail "reckond sim exited with $rc"
	sim=$rundir
	reckond_do emu run "$qs"
	[ "$rc" -eq 0 ] || fail "reckond run exited with $rc"
	emu=$rundir
	for r in $(seq 1 "$reps"); do
		compare_rep "$emu/rep-$r" "$sim/rep-$r" "rep $r"
	done
	for r in $(seq 1 "$reps"); do
		errcheck "$emu/rep-$r" "$sim/rep-$r" "rep $r" ||
			fail "rep $r: error figures or samples out of their bounds (check 3)"
	done
	selftest "$emu/rep-1" "$sim/rep-1" "rep 1"
	pass "quickstart, $reps repetitions: updates sent and received equal," \
		"error samples and figures within their derived bounds"
	exit 0
fi

# ---- quick: the quickstart cut to 15 s and one repetition ----
qs=$tmp/quickstart15.ini
sed -e 's/^name = quickstart$/name = quickstart15/' \
	-e 's/^duration = 64s$/duration = 19s/' \
	-e 's/^repetitions = 3$/repetitions = 1/' -e 's/^seed = .*/seed = 1/' \
	-e 's/^role = observer$/&\nargs = --samples 64/' \
	"$src/scenarios/quickstart.ini" >"$qs"
samples_ok "$qs"
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
errcheck "$emu" "$sim" "15 s" || fail "15 s: error figures or samples out of their bounds (check 3)"
selftest "$emu" "$sim" "15 s"

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
pass "15 s quickstart and corruption: updates sent and received equal in both modes," \
	"error samples and figures within their derived bounds"
