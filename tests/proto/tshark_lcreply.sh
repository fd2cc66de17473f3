#!/bin/bash
# tshark_lcreply.sh: checks the Wireshark Lua dissector of the ALC
# confirm/deny message (deploy/wireshark/reckon-lcreply.lua) against
# reckon's encoder. proto_warfare_pcap writes seeded ALC replies to UDP
# port 3001 (between Fire and Detonation PDUs on port 3000) and the values
# each must show; tshark -X lua_script:... must find every reply, decode
# verdict, provisional flag, body part, hit id, victim, rendered tick,
# pose and stance to the same values, leave the DIS frames alone, and
# raise no malformed or expert items. No traffic is sent.
#
# usage: tshark_lcreply.sh BUILD_DIR   (exit 77 = skipped, reason printed)
set -euo pipefail

build=${1:?usage: tshark_lcreply.sh BUILD_DIR}
gen=$build/tests/proto/proto_warfare_pcap
lua=$(cd "$(dirname "$0")/../.." && pwd)/deploy/wireshark/reckon-lcreply.lua
n=100

if ! command -v tshark >/dev/null 2>&1; then
	echo "SKIP: tshark is not installed (apt-get install tshark)"
	exit 77
fi
if ! tshark -v 2>/dev/null | grep -qi 'with Lua'; then
	echo "SKIP: this tshark was built without Lua"
	exit 77
fi
if [ ! -x "$gen" ] || [ ! -r "$lua" ]; then
	echo "FAIL: $gen is not built or $lua is missing"
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$gen" "$tmp/w.pcap" "$tmp/expect.tsv" "$n" 20261125
grep '^lcreply' "$tmp/expect.tsv" >"$tmp/expect_lc.tsv"

opts=(-n -r "$tmp/w.pcap" -X "lua_script:$lua" -d udp.port==3000,dis)

tshark "${opts[@]}" -Y reckon_lcreply -T fields -E separator=/t \
	-e reckon_lcreply.verdict -e reckon_lcreply.provisional \
	-e reckon_lcreply.part -e reckon_lcreply.hit_id \
	-e reckon_lcreply.victim -e reckon_lcreply.rendered_tick \
	-e reckon_lcreply.x -e reckon_lcreply.y -e reckon_lcreply.yaw \
	-e reckon_lcreply.stance -e udp.dstport \
	>"$tmp/got.tsv" 2>"$tmp/tshark.err" || {
	echo "FAIL: tshark exited with an error:"
	cat "$tmp/tshark.err"
	exit 1
}
if grep -qi 'lua' "$tmp/tshark.err"; then
	echo "FAIL: the Lua script reported an error:"
	cat "$tmp/tshark.err"
	exit 1
fi

got_n=$(wc -l <"$tmp/got.tsv")
if [ "$got_n" -ne "$n" ]; then
	echo "FAIL: the dissector decoded $got_n replies, expected $n"
	exit 1
fi
if [ "$(tshark "${opts[@]}" -Y 'dis && reckon_lcreply' 2>/dev/null |
	wc -l)" -ne 0 ]; then
	echo "FAIL: the dissector claimed DIS frames"
	exit 1
fi
bad=$(tshark "${opts[@]}" -Y 'reckon_lcreply && (_ws.malformed || _ws.expert)' \
	2>/dev/null | wc -l)
if [ "$bad" -ne 0 ]; then
	echo "FAIL: $bad replies carry malformed-packet or expert items"
	exit 1
fi

# expect: lcreply verdict flags part hit_id victim tick x y yaw stance
paste "$tmp/expect_lc.tsv" "$tmp/got.tsv" | awk -F'\t' '
function fail(what) {
	printf "FAIL reply %d: %s\n", NR, what
	bad++
}
{
	if ($12 != $2) fail("verdict " $12 " want " $2)
	prov = ($13 == "1" || $13 == "True") ? 1 : 0
	if (prov != $3) fail("provisional " $13 " want " $3)
	if ($14 != $4) fail("part " $14 " want " $4)
	if ($15 != $5) fail("hit id " $15 " want " $5)
	if ($16 != $6) fail("victim " $16 " want " $6)
	if ($17 != $7) fail("tick " $17 " want " $7)
	if ($18 + 0 != $8 + 0 || $19 + 0 != $9 + 0 || $20 + 0 != $10 + 0)
		fail("pose " $18 "," $19 "," $20 " want " $8 "," $9 "," $10)
	if ($21 != $11) fail("stance " $21 " want " $11)
	if ($22 != 3001) fail("port " $22)
}
END {
	if (bad) exit 1
	printf "ok: %d ALC replies decoded by the Lua dissector\n", NR
}'
