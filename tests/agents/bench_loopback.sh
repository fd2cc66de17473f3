#!/usr/bin/env bash
# bench_loopback.sh: timing figures of the socket shell, never pass/fail.
# A player and an observer on 127.0.0.1 play 10 s of 8 dust bots on two
# lanes (dis, led); prints how late the libevent timers fire against the
# trace ticks they were armed for, and the error the observer measured
# with loopback latency only.
. "$(dirname "$0")/lib.sh"

"$agent" trace gen --map dust --bots 8 --duration 10 --seed 1 \
	-o "$tmp/t.csv" >/dev/null 2>&1 || fail "trace gen failed"
base=$((24000 + ($$ % 1000) * 16))
t0=$(( $("$agent" now) + 1000000000 ))
common=(--trace "$tmp/t.csv" --predictor dis --predictor led
	--run-dir "$tmp" --start-ns "$t0" --port "$base")
"$agent" observer "${common[@]}" --bind 127.0.0.1 --host obs --linger 0.2 \
	2>"$tmp/obs.log" &
pids=$!
"$agent" player "${common[@]}" --to 127.0.0.1 --host pl 2>"$tmp/pl.log"
wait
pids=
echo "bench_loopback (8 bots, 10 s, 64 Hz ticks, 2 lanes, 127.0.0.1):"
sed 's/^/  /' "$tmp/pl.log" "$tmp/obs.log"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ n[$c["predictor"]] += $c["frames"]; e[$c["predictor"]] += $c["err_mean"] * $c["frames"]; r[$c["predictor"]] += $c["received"] }
	END { for (p in n) printf "  %s: %d updates received, mean error %.3f u\n", p, r[p], e[p] / n[p] }' \
	"$tmp/metrics-obs.csv"
