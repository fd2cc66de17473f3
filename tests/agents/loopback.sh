#!/usr/bin/env bash
# loopback.sh: the three roles over real UDP sockets on 127.0.0.1, no
# namespaces (runs without root). Client-server: the player sends to the
# relay, which forwards to the observer; two lanes (dis and led).
#
#   player --lane 0,1--> relay 127.0.0.1:BASE+100+L --> observer 127.0.0.1:BASE+L
#
# Checks: the player's updates per entity equal `reckon-agent replay` on
# the same trace (the sender never depends on the network); everything
# sent is forwarded and received on loopback; a malformed datagram sent
# to the observer is counted as truncated and changes nothing else; the
# metrics files are complete CSV.
. "$(dirname "$0")/lib.sh"
need_tool ss

"$agent" trace gen --map dust --bots 6 --duration 6 --seed 3 \
	-o "$tmp/t.csv" >/dev/null 2>&1 || fail "trace gen failed"
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
grep -qx 'obs,0,truncated,1' "$tmp/rejects-obs.csv" ||
	fail "the malformed datagram was not counted: $(cat "$tmp/rejects-obs.csv")"
awk -F, 'NR > 1 && $3 != "ok" && $3 != "truncated" && $4 != 0 { exit 1 }' \
	"$tmp/rejects-obs.csv" || fail "unexpected rejects"
pass "roles on loopback: $tot updates sent, relayed and received; 1 malformed counted"
