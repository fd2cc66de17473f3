#!/usr/bin/env bash
# hostile.sh: hostile datagrams at every agent port while a client-server
# run goes on over loopback (no root needed).
#
#   player --lane 0,1--> relay 127.0.0.1:BASE+100+L --> observer 127.0.0.1:BASE+L
#   hostile_send ------> every one of those four ports
#
# hostile_send (see there) sends truncated, oversized (up to 65000
# octets), bad-version, bad-pdu-type, random and forged (valid DIS, site 9,
# replayed) datagrams to each lane of the observer and the relay, and
# prints what each lane must count. Checks: every agent exits 0 in time (a
# crash or a stall fails); each lane's rejects file counts each hostile
# datagram under its reason, exactly; the relay forwards exactly the
# forged PDUs (the decoder accepts them) and the observer counts them, the
# ones it got directly and the ones relayed, as not-reckon-update; and the
# run itself is untouched: every update the player sent was received.
. "$(dirname "$0")/../agents/lib.sh"
need_tool ss
send=$build/tests/hostile/hostile_send
[ -x "$send" ] || fail "no $send"
pdu=$src/tests/fuzz/corpus/espdu/update-00-lane0

"$agent" trace gen --map dust --bots 4 --duration 5 --seed 5 \
	-o "$tmp/t.csv" >/dev/null 2>&1 || fail "trace gen failed"
base=$((24000 + ($$ % 2000) * 16))
lanes=(--predictor dis --predictor led)
t0=$(( $("$agent" now) + 1500000000 ))
common=(--trace "$tmp/t.csv" "${lanes[@]}" --run-dir "$tmp" --start-ns "$t0"
	--topology client-server --condition hostile)

"$agent" observer "${common[@]}" --bind 127.0.0.1 --port "$base" \
	--host obs --linger 0.5 >"$tmp/obs.log" 2>&1 &
obs=$!
pids="$pids $obs"
"$agent" relay "${lanes[@]}" --run-dir "$tmp" --start-ns "$t0" \
	--bind 127.0.0.1 --port $((base + 100)) --to 127.0.0.1:"$base" \
	--host relay --stop-after 6 >"$tmp/relay.log" 2>&1 &
relay=$!
pids="$pids $relay"
for _ in $(seq 100); do
	n=$(ss -Hlun "( sport = :$base or sport = :$((base + 1)) or sport = :$((base + 100)) or sport = :$((base + 101)) )" 2>/dev/null | wc -l)
	[ "$n" -ge 4 ] && break
	sleep 0.05
done
[ "$n" -ge 4 ] || fail "observer and relay did not bind their 4 ports"
"$send" "$pdu" 127.0.0.1 "$base" $((base + 1)) $((base + 100)) $((base + 101)) \
	>"$tmp/expect" 2>"$tmp/err" || fail "hostile_send failed"
"$agent" player "${common[@]}" --to 127.0.0.1:$((base + 100)) \
	--host pl >"$tmp/pl.log" 2>&1 || fail "player exited with $?"
wait "$obs" || fail "observer exited with $? (crash or error under hostile input)"
wait "$relay" || fail "relay exited with $? (crash or error under hostile input)"
pids=

# count HOST LANE REASON: from rejects-HOST.csv
count() { awk -F, -v l="$2" -v r="$3" '$2 == l && $3 == r { print $4 }' "$tmp/rejects-$1.csv"; }
checked=0
while read -r port verdict n; do
	case $port in
	"$base") host=obs lane=0 ;; $((base + 1))) host=obs lane=1 ;;
	$((base + 100))) host=relay lane=0 ;; $((base + 101))) host=relay lane=1 ;;
	*) fail "hostile_send printed port $port" ;;
	esac
	[ "$verdict" = ok ] && continue	# forged: checked below
	got=$(count $host $lane "$verdict")
	[ "$got" = "$n" ] || fail "$host lane $lane: $verdict counted ${got:-none}, $n sent"
	checked=$((checked + n))
done <"$tmp/expect"
forged=$(awk '$2 == "ok" { print $3; exit }' "$tmp/expect")
[ -n "$forged" ] || fail "no forged PDUs in $(cat "$tmp/expect")"
for lane in 0 1; do
	# the relay accepted the forged PDUs besides the player's updates
	ok_relay=$(count relay $lane ok)
	ok_obs=$(count obs $lane ok)
	foreign=$(count obs $lane not-reckon-update)
	[ "$foreign" = $((2 * forged)) ] ||
		fail "observer lane $lane: not-reckon-update $foreign, expected $((2 * forged)) (direct + relayed)"
	# the observer's decoder also accepted the forged PDUs sent to it
	[ "$ok_obs" = $((ok_relay + forged)) ] ||
		fail "lane $lane: relay accepted $ok_relay, observer $ok_obs, expected $((ok_relay + forged))"
done
sent=$(sum_by "lane entity" sent "$tmp/metrics-pl.csv")
recv=$(sum_by "lane entity" received "$tmp/metrics-obs.csv")
[ "$sent" = "$recv" ] || fail "observer received $recv, player sent $sent"
tot=$(awk '{ s += $2 } END { print s }' <<<"$sent")
pass "$checked hostile datagrams counted by reason at 4 ports, $((4 * forged)) forged counted as not-reckon-update, $tot updates all received; no agent crashed or stalled"
