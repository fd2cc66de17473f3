#!/bin/bash
# emu_vs_sim.sh: one 30 s thesis match (lagcomp-thesis.ini's set-up:
# twelve bots on dust, a TLC and an ALC fps-server, twelve fps-clients
# each) run by `reckond run` in network namespaces and by `reckond sim`
# in virtual time with the same seed; the servers' shot and SBC counts
# must agree.
#
# Where timing cannot change them. Server and clients tick on one grid,
# T = 1/60 s, from one t0. The one-way delays are 6.25 ms (3T/8) for the
# even players and 118.75 ms (7T + T/8) for the odd ones instead of the
# thesis's 8 and 133 ms, so that every datagram of the match lands at
# least T/8 = 2.08 ms from a tick of its receiver: states and shots at
# the server and snapshots at a client arrive 3T/8 or T/8 after a tick;
# a hit reaches its victim d_s + d_v after the shooter's tick, 3T/4, T/2
# or T/4; an ALC reply reaches the server at 9T/8, 7T/8, 5T/8 or T/8.
# The RTTs, 12.5 and 237.5 ms, are 0.75 and 14.25 ticks, a quarter tick
# (4.17 ms) from lround's boundary that picks the rewind, and far from
# lowPing (50 ms). The clients' reaction time and rate of fire count in
# nominal tick time. So as long as every wake-up's lateness plus the
# bridge's forwarding time stays under 2.08 ms, each datagram meets the
# same tick in both hosts, and the counts are equal exactly.
#
# Otherwise. A datagram that crosses a tick changes what a client saw or
# when it fired, and the match diverges from there; the emulated and the
# simulated match are then two draws of the same movement. For the
# counts compared, each the sum of many rare, nearly independent events,
# a Poisson model gives Var(e - s) <= e + s (the shared movement makes
# the draws positively correlated, so the variance of the difference is
# smaller, the bound conservative), and |e - s| <= 3.29 sqrt(e + s) + 1
# fails with probability under 0.1% (two-sided normal at 3.29 sigma, +1
# for the counts' discreteness). The test tells which case the run met
# from the emulated RTT estimates and the agents' timer lateness
# (timing-HOST.csv): every non-zero estimate within 2.08 ms of its
# nominal value and no wake-up later than 2.08 ms are necessary for
# exactness, and then exact equality is required; else the bound.
#
# usage: emu_vs_sim.sh BUILD_DIR   (exit 77 = skipped, reason printed)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../agents/lib.sh"
need_root

ini=$tmp/thesis30.ini
{
	printf '[scenario]\nname = lagcomp-thesis-30s\nduration = 33s\n'
	printf 'seed = 11\nresults = %s/results\n\n' "$tmp"
	for m in tlc alc; do
		printf '[host srv-%s]\nrole = fps-server\n' $m
		printf 'args = --mode %s --map dust --port 47100 --duration 30 ' $m
		printf -- '--tick-hz 60 --ping ue4 --alc-low-ping-ms 50\n\n'
	done
	for m in t a; do
		for e in $(seq 0 11); do
			s=srv-tlc
			[ $m = a ] && s=srv-alc
			printf '[host %s%d]\nrole = fps-client\n' $m "$e"
			printf 'args = --entity %d --server {addr:%s}:47100 ' "$e" $s
			printf -- '--map dust --bots 12 --duration 30 --tick-hz 60\n\n'
		done
	done
	printf '[defaults]\nlink = delay 6250us\n\n'
	for m in t a; do
		s=srv-tlc
		[ $m = a ] && s=srv-alc
		for e in 1 3 5 7 9 11; do
			printf '[link %s %s%d]\nboth = delay 118750us\n\n' $s $m "$e"
		done
	done
} >"$ini"
"$reckond" -n "$ini" 2>"$tmp/err" || fail "scenario refused"

mkdir -p "$tmp/sim"
(cd "$tmp/sim" && "$reckond" -q sim "$ini") >"$tmp/sim.out" 2>"$tmp/err" ||
	fail "reckond sim failed"
simdir=$(sed -n 's/^results: //p' "$tmp/sim.out")
run_scenario "$ini"
[ "$rc" -eq 0 ] || fail "reckond run exited $rc"
emudir=$rundir

# value FILE COLUMN: the metrics row's COLUMN
value() { awk -F, -v c="$(col "$1" "$2")" 'NR == 2 { print $c }' "$1"; }

# the largest |RTT estimate - nominal| of the emulated shots, in ms
worst=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$1 == "host" { next }
	{
		for (k = 0; k < 2; k++) {
			r = $c[k ? "victim_rtt_ms" : "shooter_rtt_ms"]
			if (r == 0 || (k && $c["victim"] < 0)) continue
			d = r < 100 ? r - 12.5 : r - 237.5
			if (d < 0) d = -d
			if (d > w) w = d
		}
	}
	END { printf "%.3f", w + 0 }' "$emudir"/shots-srv-*.csv)
# the latest any emulated agent's timer fired (timing-HOST.csv), in ms;
# 1e9 when no agent wrote its timing
late=$(awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ if ($c["late_max_ms"] > m) m = $c["late_max_ms"]; n++ }
	END { printf "%.3f", n ? m : 1e9 }' "$emudir"/timing-*.csv)
exact=$(awk -v w="$worst" -v l="$late" 'BEGIN { print (w < 2.083 && l < 2.083) ? 1 : 0 }')
echo "emulated RTT estimates: worst deviation $worst ms from nominal;" \
	"agents' timers at most $late ms late" \
	"($([ "$exact" = 1 ] && echo "both within" || echo "beyond") the 2.08 ms margin)"

bad=0
printf '%-8s %-12s %8s %8s\n' server count emulated simulated
for h in srv-tlc srv-alc; do
	for c in shots screen_hits registered hits_low hits_high sbc_low sbc_high; do
		e=$(value "$emudir/lagcomp-$h.csv" $c)
		s=$(value "$simdir/lagcomp-$h.csv" $c)
		[ -n "$e" ] && [ -n "$s" ] || fail "$h: no $c"
		printf '%-8s %-12s %8d %8d\n' $h $c "$e" "$s"
		case $c in shots | sbc_low | sbc_high) ;; *) continue ;; esac
		if [ "$exact" = 1 ]; then
			[ "$e" -eq "$s" ] || { echo "  $h $c differs"; bad=1; }
		else
			awk -v e="$e" -v s="$s" 'BEGIN {
				d = e - s; if (d < 0) d = -d
				exit !(d <= 3.29 * sqrt(e + s) + 1) }' ||
				{ echo "  $h $c beyond the bound"; bad=1; }
		fi
	done
done
[ $bad -eq 0 ] || fail "emulated and simulated counts disagree"
pass "emulated and simulated thesis match agree ($([ "$exact" = 1 ] && echo exactly || echo "within the bound"))"
