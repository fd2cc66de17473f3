#!/usr/bin/env bash
# tables.sh OUT: every table of docs/STUDY.md, in its order, as markdown,
# from the study's output directory OUT (study/run.sh): OUT/predictors,
# OUT/predictors-burst, OUT/lagcomp and OUT/lagcomp-burst are the sweep
# directories. Each table is followed by the command that prints it.
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:?usage: tables.sh OUT}
P=$out/predictors
B=$out/predictors-burst
L=$out/lagcomp
LB=$out/lagcomp-burst

# show TITLE TABLE DIR...: a titled table and its command
show() {
	local title=$1
	shift
	printf '### %s\n\n' "$title"
	"$here/table.sh" "$@"
	printf '\n`study/table.sh %s' "$1"
	shift
	for d in "$@"; do printf ' %s' "${d/#$out/OUT}"; done
	printf '`\n\n'
}

show "Which predictor has the lowest mean error (jitter 10 ms)" best "$P" "$B"
show "What each predictor sends (any network)" cost "$P"
show "Mean error against RTT (no jitter, no loss)" rtt "$P"
show "Mean error against loss (RTT 100 ms, jitter 10 ms)" loss "$P" "$B"
show "95th-percentile error against loss (RTT 100 ms, jitter 10 ms)" p95 "$P" "$B"
show "Mean error against jitter (RTT 100 ms, 1% random loss)" jitter "$P"
show "Hit-registration accuracy against RTT (jitter 10 ms, no loss)" lc-rtt-acc "$L"
show "SBC per 100 registered hits against RTT (jitter 10 ms, no loss)" lc-rtt-sbc "$L"
show "Hit-registration accuracy against loss (RTT 100 ms, jitter 10 ms)" lc-acc "$L" "$LB"
show "SBC per 100 registered hits against loss (RTT 100 ms, jitter 10 ms)" lc-sbc "$L" "$LB"
show "Every point: mean error per predictor" all "$P" "$B"
