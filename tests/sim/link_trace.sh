#!/usr/bin/env bash
# link_trace.sh: a [link] trace in the simulator, no root needed. The
# quickstart, cut to 20 s and one repetition, runs twice with the same
# seed: as shipped, and with a trace on p1 -- obs that raises the loss
# from 2% to 100% at 10 s. The untouched link p2 -> obs must count exactly
# the same (streams are per link), p1 sends the same datagrams (the
# sender does not see losses), and p1 -> obs delivers nothing sent after
# 10 s: at most the datagrams of the first 10.5 s of its 20 s of play
# (the hosts' t0 is 0.575 s in), against at least 90% of all without it.
#
#   p1 --(trace: 2% then 100% loss)--> obs <--(delay 50ms 10ms loss 2%)-- p2
. "$(dirname "$0")/lib.sh"

# a 24 s scenario plays 20 s ([game] duration: the scenario's less 4 s)
sed -e 's/^repetitions = 3/repetitions = 1/' -e 's/^duration = 64s/duration = 24s/' \
	"$src/scenarios/quickstart.ini" >"$tmp/base.ini"
cp "$tmp/base.ini" "$tmp/trace.ini"
printf 'time_ms,loss_pct\n0,2\n10000,100\n' >"$tmp/cut.csv"
cat >>"$tmp/trace.ini" <<INI

[link p1 obs]
both = delay 50ms 10ms loss 2%
trace = cut.csv
INI
for s in base trace; do
	(cd "$tmp" && "$reckond" -q sim "$s.ini") >"$tmp/$s.out" 2>"$tmp/$s.err" ||
		fail "reckond sim $s.ini failed"
	dir=$(sed -n 's/^results: //p' "$tmp/$s.out")
	[ -f "$dir/counters.csv" ] || fail "$s: no counters.csv in '$dir'"
	cp "$dir/counters.csv" "$tmp/$s.csv"
done
row() { awk -F, -v s="$2" '$2 == "p1" && $3 == "obs" && s == "p1" || $2 == "p2" && $3 == "obs" && s == "p2"' "$1"; }
[ "$(row "$tmp/base.csv" p2)" = "$(row "$tmp/trace.csv" p2)" ] ||
	fail "p2>obs changed: $(row "$tmp/base.csv" p2) vs $(row "$tmp/trace.csv" p2)"
IFS=, read -r _ _ _ in_b del_b _ < <(row "$tmp/base.csv" p1)
IFS=, read -r _ _ _ in_t del_t _ < <(row "$tmp/trace.csv" p1)
[ "$in_b" = "$in_t" ] || fail "p1 sent $in_b without the trace, $in_t with it"
awk -v i="$in_b" -v b="$del_b" -v t="$del_t" 'BEGIN { exit !(b >= 0.9 * i && t <= i * 10.5 / 20) }' ||
	fail "p1>obs delivered $del_b of $in_b without the trace, $del_t with it"
pass "p1>obs delivered $del_b of $in_b without the trace, $del_t with loss 100% from 10 s; p2>obs unchanged"
