#!/usr/bin/env bash
# loopback.sh: the three roles over real UDP sockets on 127.0.0.1, no
# namespaces (runs without root). Client-server: the player sends to the
# relay, which forwards to the observer; two lanes (dis and led).
#
#   player --lane 0,1--> relay 127.0.0.1:BASE+100+L --> observer 127.0.0.1:BASE+L
#
# The trace keeps its own clock, as an imported one does: it starts at
# 3600.000000007 s, no multiple of the tick, and the agents must still
# stamp updates in ns after t0 and find every update's path.
#
# Checks: the player's updates per entity equal `reckon-agent replay` on
# the same trace (the sender never depends on the network); everything
# sent is forwarded and received on loopback; no update is unmatched and
# every lane x entity has error samples; a malformed datagram sent to
# the observer is counted as truncated and changes nothing else; the
# metrics files are complete CSV. Then an observer whose truth puts
# every update outside its paths (its trace starts 7 s earlier) must
# say so and exit non-zero.
. "$(dirname "$0")/lib.sh"
need_tool ss

"$agent" trace gen --map dust --bots 6 --duration 6 --seed 3 \
	-o "$tmp/t0.csv" >/dev/null 2>&1 || fail "trace gen failed"
# t -> t + 3600 s + 7 ns, in integer arithmetic on the text
awk -F, -v OFS=, '/^#/ || $1 == "t" { print; next }
	{ split($1, p, "."); $1 = (p[1] + 3600) "." sprintf("%09d", p[2] + 7); print }' \
	"$tmp/t0.csv" >"$tmp/t.csv"
grep -q '^3600\.000000007,' "$tmp/t.csv" || fail "could not shift the trace"
base=$((20000 + ($$ % 2000) * 16))
lanes=(--predictor dis:pos_threshold=20 --predictor led:eta_min=5,eta_max=35)
t0=$(( $("$agent" now) + 1500000000 ))
common=(--trace "$tmp/t.csv" "${lanes[@]}" --run-dir "$tmp" --start-ns "$t0"
	--topology client-server --condition loopback)

"$agent" observer "${common[@]}" --bind 127.0.0.1 --port "$base" \
	--host obs --linger 0.5 >"$tmp/obs.log" 2>&1 &
obs=$!
pids="$pids $obs"
"$agent" relay "${lanes[@]}" --run-dir "$tmp" --start-ns "$t0" \
	--bind 127.0.0.1 --port $((base + 100)) --to 127.0.0.1:"$base" \
	--host relay --stop-after 7 >"$tmp/relay.log" 2>&1 &
relay=$!
pids="$pids $relay"
# wait until the observer and the relay have bound their lanes
for _ in $(seq 100); do
	n=$(ss -Hlun "( sport = :$base or sport = :$((base + 101)) )" 2>/dev/null | wc -l)
	[ "$n" -ge 2 ] && break
	sleep 0.05
done
[ "$n" -ge 2 ] || fail "observer and relay did not bind their ports"
# a malformed datagram (10 octets) to lane 0 of the observer
printf 'not-a-pdu!' >/dev/udp/127.0.0.1/"$base"
"$agent" player "${common[@]}" --to 127.0.0.1:$((base + 100)) \
	--host pl >"$tmp/pl.log" 2>&1 || fail "player exited with $?"
wait "$obs" || fail "observer exited with $?"
wait "$relay" || fail "relay exited with $?"
pids=

for h in pl obs relay; do
	f=$tmp/metrics-$h.csv
	[ -s "$f" ] || fail "no $f"
	nf=$(head -n 1 "$f" | awk -F, '{ print NF }')
	awk -F, -v n="$nf" 'NF != n { exit 1 }' "$f" || fail "$f: ragged rows"
done

lane=0 replay_updates "$tmp/t.csv" dis pos_threshold=20 >"$tmp/want"
lane=1 replay_updates "$tmp/t.csv" led eta_min=5 eta_max=35 >>"$tmp/want"
sort -o "$tmp/want" "$tmp/want"
[ "$(wc -l <"$tmp/want")" -ge 12 ] || fail "replay gave $(wc -l <"$tmp/want") rows"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $c["lane"] ":" $c["entity"], $c["sent"] - $c["sent_init"] }' \
	"$tmp/metrics-pl.csv" | sort >"$tmp/got"
diff "$tmp/want" "$tmp/got" >"$tmp/err" || fail "player updates differ from replay"
echo "player = replay: $(awk '{ s += $2 } END { print s }' "$tmp/got") updates on 2 lanes"

sent=$(sum_by "lane entity" sent "$tmp/metrics-pl.csv")
recv=$(sum_by "lane entity" received "$tmp/metrics-obs.csv")
[ "$sent" = "$recv" ] || fail "observer received differs from sent"
fwd=$(awk -F, 'NR > 1 { s += $15 } END { print s }' "$tmp/metrics-relay.csv")
tot=$(awk '{ s += $2 } END { print s }' <<<"$sent")
[ "$fwd" -eq "$tot" ] || fail "relay received $fwd of $tot"
obs=$tmp/metrics-obs.csv
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["unmatched"] != 0 || $c["frames"] == 0 ||
	$c["err_mean"] != $c["err_mean"] + 0 { bad++ }
	END { exit bad > 0 || NR < 13 }' "$obs" ||
	fail "time-shifted trace: unmatched updates or rows without error samples: $(cat "$obs")"
grep -qx 'obs,0,truncated,1' "$tmp/rejects-obs.csv" ||
	fail "the malformed datagram was not counted: $(cat "$tmp/rejects-obs.csv")"
awk -F, 'NR > 1 && $3 != "ok" && $3 != "truncated" && $4 != 0 { exit 1 }' \
	"$tmp/rejects-obs.csv" || fail "unexpected rejects"

# An observer that disagrees on the truth: an extra entity 9999 plays the
# 6 s before the others, so the observer's t0 is 7 s before the player's
# and every update the player sends falls outside the observer's paths.
awk -F, 'function ts(ns) { return int(ns / 1e9) "." sprintf("%09d", ns % 1e9) }
	{ print }
	$1 == "t" { for (k = 0; k < 384; k++)
		printf "%s,9999,1,1,100.0000,100.0000,0.0000,0.000,0.000,0.000,0.000,100,100,120,0\n",
			ts(3593000000007 + k * 15625000) }' "$tmp/t.csv" >"$tmp/early.csv"
mkdir -p "$tmp/bad"
t0=$(( $("$agent" now) + 1500000000 ))
"$agent" observer --trace "$tmp/early.csv" "${lanes[@]}" --run-dir "$tmp/bad" \
	--start-ns "$t0" --bind 127.0.0.1 --port $((base + 200)) --host obs2 \
	>"$tmp/obs2.log" 2>&1 &
obs2=$!
pids="$pids $obs2"
for _ in $(seq 100); do
	n=$(ss -Hlun "( sport = :$((base + 201)) )" 2>/dev/null | wc -l)
	[ "$n" -ge 1 ] && break
	sleep 0.05
done
"$agent" player --trace "$tmp/t.csv" "${lanes[@]}" --run-dir "$tmp/bad" \
	--start-ns "$t0" --to 127.0.0.1:$((base + 200)) --host pl2 \
	>"$tmp/pl2.log" 2>&1 || fail "player exited with $?"
sleep 0.3
kill -TERM "$obs2"
rc2=0
wait "$obs2" || rc2=$?
pids=
[ "$rc2" -ne 0 ] || fail "an observer that matched none of its updates exited 0"
grep -q 'matched no path' "$tmp/obs2.log" ||
	fail "no warning for all updates unmatched: $(cat "$tmp/obs2.log")"
um=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ r += $c["received"]; u += $c["unmatched"] } END { print (r > 0 && r == u) }' \
	"$tmp/bad/metrics-obs2.csv")
[ "$um" = 1 ] || fail "the mismatched observer's metrics: $(cat "$tmp/bad/metrics-obs2.csv")"
pass "roles on loopback, trace clock at 3600 s: $tot updates sent, relayed, received and matched; 1 malformed counted; a mismatched observer fails loudly"
