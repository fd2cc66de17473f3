#!/usr/bin/env bash
# papers.sh: regenerates every table of docs/REPRODUCTION.md, the five
# papers' experiments on our synthetic data, and prints each table as
# markdown on stdout (also written to OUT_DIR/tables.md); progress goes
# to stderr. For each paper it runs the scenario of scenarios/papers/ in
# the simulator (reckond sim or sweep, fixed seeds in the files) and the
# offline replay that follows the paper's own method (reckon-agent trace
# gen and replay, fixed seeds here), then formats the results with
# study/papers_tables.py. Everything is seeded and the simulator runs in
# virtual time, so two runs print the same tables, digit for digit; no
# timing is printed except the elapsed time on stderr. The replays'
# benchmark parts (tests/predict/*_experiment.sh) are skipped
# (RECKON_NO_BENCH=1). PAPERS="000 003" runs a subset.
# Usage: study/papers.sh [BUILD_DIR] [OUT_DIR]
#   BUILD_DIR: default the repository's build/
#   OUT_DIR:   default a new directory under /tmp, kept at the end
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
out=${2:-$(mktemp -d /tmp/reckon-papers.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
papers=${PAPERS:-000 001 002 003 004}
reckond=$build/daemon/reckond
agent=$build/agents/reckon-agent
for x in "$reckond" "$agent"; do
	[ -x "$x" ] || { echo "papers.sh: $x not built" >&2; exit 1; }
done
cd "$root" # the map files are found from here
t_start=$(date +%s)
: >"$out/tables.md"

say() { # progress on stderr, with the elapsed time
	echo "papers.sh [$(($(date +%s) - t_start)) s] $*" >&2
}
emit() { # a line of the tables: stdout and tables.md
	echo "$@" | tee -a "$out/tables.md"
}
table() { # table ARGS...: papers_tables.py ARGS, on stdout and in tables.md
	python3 "$root/study/papers_tables.py" "$@" | tee -a "$out/tables.md"
}
sim() { # sim NAME: reckond sim of scenarios/papers/NAME.ini into OUT/NAME
	local d=$out/$1
	rm -rf "$d" && mkdir -p "$d"
	(cd "$d" && "$reckond" -q sim "$root/scenarios/papers/$1.ini") \
		>"$d/sim.out" 2>"$d/sim.err" ||
		{ cat "$d/sim.err" >&2; exit 1; }
	sed -n 's/^results: //p' "$d/sim.out"
}
sweep() { # sweep NAME: reckond sweep of scenarios/papers/NAME.ini
	local d=$out/$1
	rm -rf "$d"
	"$reckond" -q sweep --no-plots -o "$d" \
		"$root/scenarios/papers/$1.ini" >"$out/$1.out" 2>"$out/$1.err" ||
		{ cat "$out/$1.err" >&2; exit 1; }
	echo "$d"
}

for p in $papers; do
	case $p in
	000)
		say "000: reckond sim scenarios/papers/000-led.ini (10 x 120 s)"
		run=$(sim 000-led)
		emit "### 000 led reckoning: live run, zero latency" \
			"(scenarios/papers/000-led.ini)"
		emit
		table predictors "$run" dr
		say "000: replay, 20 bots x 1500 s of dust, 500 subjects"
		"$agent" trace gen --map dust --bots 20 --duration 1500 \
			--seed 7 --tick-hz 60 -o "$out/dust.csv" >/dev/null 2>&1
		"$agent" replay --trace "$out/dust.csv" --experiment led \
			--subjects 500 --seed 1 >"$out/000-replay.out"
		emit
		emit "### 000 led reckoning: the paper's method (replay," \
			"500 subject paths, Welch's t)"
		emit
		table led "$out/000-replay.out"
		emit
		;;
	001)
		say "001: reckond sim scenarios/papers/001-ant.ini (10 x 120 s)"
		run=$(sim 001-ant)
		emit "### 001 AntReckoning: live run at eta = 50 u, zero" \
			"latency (scenarios/papers/001-ant.ini)"
		emit
		table predictors "$run" dr2
		say "001: replay, 10 bots x 600 s of arena, fixed rate and" \
			"thresholds"
		"$agent" trace gen --map arena --bots 10 --duration 600 \
			--seed 1 -o "$out/arena.csv" >/dev/null 2>&1
		emit
		emit "### 001 AntReckoning: the paper's method (replay of every" \
			"entity together, Figs. 9d and 11)"
		"$agent" replay --trace "$out/arena.csv" --experiment ant |
			sed -n '/^## /,$p' | sed 's/^## \(.*\)/\n#### \1\n/' |
			tee -a "$out/tables.md"
		emit
		;;
	002)
		say "002: reckond sim scenarios/papers/002-lagcomp.ini" \
			"(10 x 120 s, 26 hosts)"
		run=$(sim 002-lagcomp)
		emit "### 002 lag compensation: TLC against ALC at +250 ms" \
			"(scenarios/papers/002-lagcomp.ini)"
		emit
		table lagcomp "$run"
		emit
		;;
	003)
		say "003: reckond sweep scenarios/papers/003-ekb.ini" \
			"(8 lags x 10 x 120 s)"
		sw=$(sweep 003-ekb)
		emit "### 003 play patterns: live run, mean displayed error" \
			"(u) by one-way delay (scenarios/papers/003-ekb.ini)"
		emit
		table lags "$sw"
		say "003: replay --lag, 5 seeds x 10 bots x 300 s of field"
		emit
		emit "### 003 play patterns: the paper's method (replay --lag," \
			"5 seeds)"
		TRACES=$out RECKON_NO_BENCH=1 \
			bash "$root/tests/predict/ekb_experiment.sh" "$build" 5 \
			2>/dev/null | sed -n '/^== AEE/,$p' |
			sed 's/^== \(.*\)/\n#### \1\n/' | tee -a "$out/tables.md"
		say "003: how the bots of the same 5 traces move"
		emit
		emit "#### how the bots move (the 5 field traces, every living" \
			"sample)"
		emit
		table patterns "$out"/f[1-5].csv
		emit
		;;
	004)
		say "004: reckond sweep scenarios/papers/004-dhsm.ini" \
			"(2 x 20 thresholds x 10 x 600 s)"
		sw=$(sweep 004-dhsm)
		emit "### 004 DHSM: live run, the pursuer on loop, zero latency" \
			"(scenarios/papers/004-dhsm.ini)"
		emit
		table tau "$sw" 17.857142857
		say "004: replay, the pursuer on loop, loop2, loop3 (600 s," \
			"20 Hz)"
		emit
		emit "### 004 DHSM: the paper's method (replay of one session" \
			"per map)"
		emit
		TRACES=$out bash "$root/tests/predict/dhsm_offline.sh" \
			"$build" 2>/dev/null |
			sed 's/^== \(.*\)/\n#### \1\n/; s/^\( *tau .*\)/```\n\1/; s/^pursuer ticks\(.*\)/```\n\npursuer ticks\1/' |
			tee -a "$out/tables.md"
		say "004: the line-of-sight gate variants on the loop trace"
		emit
		emit "#### 004 DHSM: the gate variants (loop, replay; packets," \
			"mean error in u)"
		emit
		emit "| τ (u) | DR | DHSM (gate dr-to-sp, fov 90°: ours) |" \
			"gate off | gate strict | fov 0 |"
		emit "|---:|---:|---:|---:|---:|---:|"
		for tau in 17.857 44.643 89.286 178.571; do
			row="| $tau"
			for v in "models=dr" "models=dr+sp" \
				"models=dr+sp --param los_gate=off" \
				"models=dr+sp --param los_gate=strict" \
				"models=dr+sp --param fov=0"; do
				# shellcheck disable=SC2086
				row="$row | $("$agent" replay --trace "$out/loop.csv" \
					--predictor dhsm --param $v --param tau="$tau" \
					--json | sed -n 's/.*"entity": 1, .*"paths": \([0-9]*\), .*"updates": \([0-9]*\), .*"err_mean": \([0-9.]*\),.*/\1 \2 \3/p' |
					awk '{ printf "%d, %.2f", $1 + $2, $3 }')"
			done
			emit "$row |"
		done
		emit
		;;
	*)
		echo "papers.sh: unknown paper '$p' (000 ... 004)" >&2
		exit 1
		;;
	esac
done
say "done; tables in $out/tables.md"
