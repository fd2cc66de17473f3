#!/usr/bin/env bash
# cli.sh: `reckond sim FILE` end to end, no root needed. A two-repetition
# scenario with a relay makes the results directory the emulator makes
# (scenario.ini, reckond.log, rep-1/ and rep-2/ with the agents' metrics
# files, counters, hosts, changes, summary.csv and .json) and prints the
# progress lines and the table; `mode = simulate` makes `reckond run`
# simulate too; a scenario with an exec host is refused with its name
# and leaves no results directory; the run is complete, and the same
# play in 3 s is partial. `reckond --help` and `reckond COMMAND --help`
# print the usage on stdout and exit 0.
#
#   p --(delay 20ms loss 5%)--> srv --(same)--> o1, o2   (virtual time)
. "$(dirname "$0")/lib.sh"

lanes="--predictor dis:pos_threshold=20 --predictor led:eta_min=5,eta_max=35"
cat >"$tmp/cs.ini" <<INI
[scenario]
name = simcli
duration = 10s
seed = 9
repetitions = 2

[host p]
role = player
args = --map dust --bots 3 --duration 6 $lanes --to {addr:srv} \
 --topology client-server --condition cs-loss5

[host srv]
role = relay
args = $lanes --to {addr:o1} --to {addr:o2} --stop-after 8

[host o1]
role = observer
args = --map dust --bots 3 --duration 6 $lanes --condition cs-loss5

[host o2]
role = observer
args = --map dust --bots 3 --duration 6 $lanes --condition cs-loss5

[defaults]
link = delay 20ms loss 5%

[schedule]
at 4s p>srv = delay 20ms loss 50%
INI
reckond_do cs sim "$tmp/cs.ini"
[ "$rc" -eq 0 ] || fail "reckond sim exited with $rc"
[ -d "$rundir" ] || fail "no results line in the output"
cs_dir=$rundir
for f in scenario.ini reckond.log summary.csv summary.json; do
	[ -s "$rundir/$f" ] || fail "no $f in $rundir"
done
for r in 1 2; do
	d=$rundir/rep-$r
	for f in metrics-p.csv metrics-srv.csv metrics-o1.csv metrics-o2.csv \
		rejects-srv.csv rejects-o1.csv counters.csv counters.json \
		hosts.csv changes.csv hosts/p.log; do
		[ -s "$d/$f" ] || fail "no rep-$r/$f"
	done
	grep -q '^4.000000,schedule,p,srv,"delay 20ms loss 50%' "$d/changes.csv" ||
		fail "rep-$r/changes.csv: $(cat "$d/changes.csv")"
	grep -q ",srv,10.77.0.2,0,0,ok$" "$d/hosts.csv" ||
		fail "rep-$r/hosts.csv: $(cat "$d/hosts.csv")"
done
grep -q '^seed = 9' "$rundir/scenario.ini" || fail "scenario.ini has no seed"
for r in 1 2; do
	grep -q "rep $r/2: .* simulated in .*x real time), [0-9]* events, [0-9]* datagrams" \
		"$tmp/cs.err" || fail "no progress line for repetition $r"
done
for p in dis led; do
	grep -q "^$p,.*,cs-loss5,2," "$rundir/summary.csv" ||
		fail "summary.csv has no $p row: $(cat "$rundir/summary.csv")"
	grep -q "^$p  *cs-loss5  *2 " "$tmp/cs.out" || fail "no $p row in the table"
done
# the two repetitions have different seeds, so different losses
cmp -s "$rundir/rep-1/counters.csv" "$rundir/rep-2/counters.csv" &&
	fail "repetitions 1 and 2 have the same counters"

# mode = simulate: `reckond run` simulates (no root, no namespaces)
sed 's/^repetitions = 2/repetitions = 1\nmode = simulate/' "$tmp/cs.ini" >"$tmp/mode.ini"
reckond_do mode run "$tmp/mode.ini"
[ "$rc" -eq 0 ] || fail "reckond run (mode = simulate) exited with $rc"
[ -s "$rundir/metrics-o1.csv" ] || fail "mode = simulate wrote no metrics"
grep -q "simulated in" "$tmp/mode.err" || fail "reckond run did not simulate"

# an exec host cannot be simulated: refused, named, nothing written
cat >"$tmp/ex.ini" <<INI
[scenario]
name = simexec
[host a]
role = observer
args = --map dust
[host pinger]
exec = ping -c 1 {addr:a}
INI
reckond_do ex sim "$tmp/ex.ini"
[ "$rc" -ne 0 ] || fail "an exec host was simulated"
grep -q "host pinger: runs a command (exec = ...), which cannot be simulated" \
	"$tmp/ex.err" || fail "no clear refusal: $(cat "$tmp/ex.err")"
[ ! -d "$tmp/results" ] || ! ls "$tmp/results" | grep -q simexec ||
	fail "a refused scenario left a results directory"

# the simcli run played everything: complete; the same play in 3 s (its
# [schedule], the file's last section, dropped) is cut off by the
# duration: partial, in the table and summary.json
grep -q '"status": "complete"' "$cs_dir/summary.json" || fail "simcli: not complete"
sed 's/^duration = 10s/duration = 3s/; s/^name = simcli/name = simcut/; /^\[schedule\]/,$d' "$tmp/cs.ini" >"$tmp/cut.ini"
(cd "$tmp" && "$reckond" -q sim "$tmp/cut.ini") >"$tmp/cut.out" 2>"$tmp/cut.err" ||
	fail "reckond sim cut.ini failed"
grep -q "^PARTIAL RUN: the play did not fit the scenario's duration (3.0 s)" "$tmp/cut.out" ||
	fail "cut.ini: the table does not say PARTIAL: $(head -n 2 "$tmp/cut.out")"
cutdir=$(sed -n 's/^results: //p' "$tmp/cut.out")
grep -q '"status": "partial"' "$cutdir/summary.json" || fail "cut.ini: summary.json not partial"

# --help, alone and after each command: the usage on stdout, exit 0; a
# wrong option exits 2 naming it on stderr
for args in "--help" "-h" "run --help" "sim --help" "sweep --help" "cleanup --help"; do
	# shellcheck disable=SC2086 # the words are meant to split
	"$reckond" $args >"$tmp/help.out" 2>"$tmp/help.err" ||
		fail "reckond $args exited with $?"
	grep -q '^usage: reckond' "$tmp/help.out" || fail "reckond $args: no usage on stdout"
	[ ! -s "$tmp/help.err" ] || fail "reckond $args wrote to stderr: $(cat "$tmp/help.err")"
done
"$reckond" sweep --help | grep -q -- '-j, --jobs N' || fail "reckond sweep --help: no options"
"$reckond" --bogus >"$tmp/help.out" 2>"$tmp/help.err" && fail "reckond --bogus exited 0"
[ $? -eq 2 ] && grep -q "^reckond: unknown option '--bogus'" "$tmp/help.err" ||
	fail "reckond --bogus: want exit 2 and the option named on stderr"
pass "reckond sim: results directory, progress, table, mode = simulate, exec refused; --help"
