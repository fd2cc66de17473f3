#!/usr/bin/env bash
# led_experiment.sh: Steele's led reckoning experiment (paper 000 §VI) on
# our own synthetic dust traces, as a reproducible benchmark (it prints
# figures; it is not a pass/fail test). A 20-bot, 1500 s, 60 Hz dust trace
# (seed 7) is generated, then 500 distinct subject paths (seed 1) are run
# with DR (eta = 20 u) and led reckoning (eta in [5, 35] u), trend maps
# from the rest of the subject's team; then the blend time, which the
# paper does not give, is swept, and the trigger (A6) and team filter are
# varied. The figures are in docs/predictors.md. Usage:
# led_experiment.sh BUILD_DIR
set -eu
build=${1:?usage: led_experiment.sh BUILD_DIR}
agent=$build/agents/reckon-agent
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$agent" trace gen --map dust --bots 20 --duration 1500 --seed 7 \
	--tick-hz 60 -o "$tmp/dust.csv"
echo "== led reckoning vs DR, synthetic dust trace (not the paper's data)"
"$agent" replay --trace "$tmp/dust.csv" --experiment led --subjects 500 \
	--seed 1
for b in 0.05 0.1 0.5 1.0; do
	echo "== blend (B at eta = 20) = $b s"
	"$agent" replay --trace "$tmp/dust.csv" --experiment led \
		--subjects 500 --seed 1 --param blend=$b | tail -2
done
echo "== trigger = projection (Algorithm 1 literal, A6)"
"$agent" replay --trace "$tmp/dust.csv" --experiment led --subjects 500 \
	--seed 1 --param trigger=projection | tail -2
echo "== trend maps from both teams (no team filter)"
"$agent" replay --trace "$tmp/dust.csv" --experiment led --subjects 500 \
	--seed 1 --all-teams | tail -2
