#!/usr/bin/env bash
# tshark_dis.sh: the bridge's capture of an agents run, read by tshark with
# the agents' ports decoded as DIS (udp.port 47000 and 47001, one per
# lane): every UDP datagram on the player -> observer link must be a DIS 7
# Entity State PDU, with no malformed-packet items, and as many as the
# link delivered.
#
#   ns p1 --delay 5ms--> [hub: bridge, pcap/p1-obs.after.pcap] --> ns obs
. "$(dirname "$0")/lib.sh"
need_root
need_tool ip
need_tool tshark

"$agent" trace gen --map dust --bots 4 --duration 6 --seed 2 \
	-o "$tmp/t.csv" >/dev/null 2>&1 || fail "trace gen failed"
lanes="--predictor dis --predictor led"
cat >"$tmp/cap.ini" <<INI
[scenario]
name = agents-capture
duration = 10s
seed = 2

[host p1]
role = player
args = --trace $tmp/t.csv $lanes --to {addr:obs}

[host obs]
role = observer
args = --trace $tmp/t.csv $lanes --linger 0.5

[link p1 obs]
forward = delay 5ms

[capture]
enabled = yes
INI
run_scenario "$tmp/cap.ini"
[ "$rc" -eq 0 ] || fail "reckond exited with $rc"
pcap=$rundir/pcap/p1-obs.after.pcap
[ -s "$pcap" ] || fail "no $pcap"
opts=(-n -r "$pcap" -d udp.port==47000,dis -d udp.port==47001,dis)
udp=$(tshark "${opts[@]}" -Y udp 2>/dev/null | wc -l)
es=$(tshark "${opts[@]}" -Y 'dis.proto_ver == 7 && dis.pdu_type == 1' 2>/dev/null | wc -l)
bad=$(tshark "${opts[@]}" -Y '_ws.malformed' 2>/dev/null | wc -l)
del=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["src"] == "p1" && $col["dst"] == "obs" { print $col["delivered"] }' "$rundir/counters.csv")
[ "$udp" -gt 0 ] || fail "no UDP in the capture"
[ "$es" -eq "$udp" ] || fail "$es of $udp datagrams decode as DIS Entity State"
[ "$bad" -eq 0 ] || fail "$bad malformed frames"
[ "$udp" -eq "$del" ] || fail "$udp datagrams captured, link delivered $del"
pass "tshark decodes all $udp captured datagrams as DIS 7 Entity State PDUs"
