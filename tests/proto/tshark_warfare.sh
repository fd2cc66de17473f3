#!/bin/bash
# tshark_warfare.sh: cross-checks reckon's Fire and Detonation PDUs
# against Wireshark's DIS dissector. proto_warfare_pcap writes a pcap of
# seeded rounds (a Fire PDU and a Detonation PDU to UDP port 3000, an ALC
# reply to port 3001) and the values each frame must show; tshark reads
# the file, with no help beyond "port 3000 is DIS", and must decode every
# DIS frame as a DIS 7 Fire or Detonation PDU with the same firing and
# target entity ids, event number, fire mission index, world location,
# velocity, range, detonation result, record count and type (242 = the
# reckon hit record) and length, with good checksums and no malformed or
# expert items. No traffic is sent: tshark only reads the file (-r).
#
# usage: tshark_warfare.sh BUILD_DIR   (exit 77 = skipped, reason printed)
set -euo pipefail

build=${1:?usage: tshark_warfare.sh BUILD_DIR}
gen=$build/tests/proto/proto_warfare_pcap
n=100

if ! command -v tshark >/dev/null 2>&1; then
	echo "SKIP: tshark is not installed (apt-get install tshark)"
	exit 77
fi
if [ ! -x "$gen" ]; then
	echo "FAIL: $gen is not built"
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$gen" "$tmp/w.pcap" "$tmp/expect.tsv" "$n" 20261125
grep -v '^lcreply' "$tmp/expect.tsv" >"$tmp/expect_dis.tsv"

opts=(-n -r "$tmp/w.pcap" -d udp.port==3000,dis
	-o ip.check_checksum:TRUE -o udp.check_checksum:TRUE)

tshark "${opts[@]}" -Y dis -T fields -E separator=/t -E occurrence=a \
	-e dis.proto_ver -e dis.pdu_type -e dis.entity_id_site \
	-e dis.entity_id_application -e dis.entity_id_entity \
	-e dis.event_number -e dis.fire.mission_index -e dis.fire.location.x \
	-e dis.detonation.location.x -e dis.linear_velocity.x \
	-e dis.linear_velocity.z -e dis.range -e dis.detonation.result \
	-e dis.num_articulation_params -e dis.variable_parameter_type \
	-e dis.pdu_length -e ip.checksum.status -e udp.checksum.status \
	>"$tmp/got.tsv" 2>"$tmp/tshark.err" || {
	echo "FAIL: tshark exited with an error:"
	cat "$tmp/tshark.err"
	exit 1
}

got_n=$(wc -l <"$tmp/got.tsv")
if [ "$got_n" -ne $((2 * n)) ]; then
	echo "FAIL: tshark decoded $got_n DIS frames, expected $((2 * n))"
	exit 1
fi

bad=$(tshark "${opts[@]}" -Y 'dis && (_ws.malformed || _ws.expert)' \
	2>/dev/null | wc -l)
if [ "$bad" -ne 0 ]; then
	echo "FAIL: $bad DIS frames carry malformed-packet or expert items"
	exit 1
fi

# expect (fire):       kind firing target event mission locx velx velz range len
# expect (detonation): kind firing target event result locx velx velz hit len
paste "$tmp/expect_dis.tsv" "$tmp/got.tsv" | awk -F'\t' '
function fail(what) {
	printf "FAIL frame %d (%s): %s\n", NR, $1, what
	bad++
}
function ids(  s, a, e) {
	split($13, s, ",")
	split($14, a, ",")
	split($15, e, ",")
	firing = s[1] ":" a[1] ":" e[1]
	target = s[2] ":" a[2] ":" e[2]
}
{
	ids()
	if ($11 != 7) fail("version " $11)
	if ($1 == "fire") {
		if ($12 != 2) fail("pdu type " $12)
		if ($17 != $5) fail("mission " $17 " want " $5)
		if ($18 + 0 != $6 + 0) fail("location x " $18 " want " $6)
		if ($22 + 0 != $9 + 0) fail("range " $22 " want " $9)
	} else {
		if ($12 != 3) fail("pdu type " $12)
		if ($23 != $5) fail("result " $23 " want " $5)
		if ($19 + 0 != $6 + 0) fail("location x " $19 " want " $6)
		if ($24 != $9) fail("records " $24 " want " $9)
		if ($9 == 1 && $25 != 242) fail("record type " $25)
	}
	if (firing != $2) fail("firing " firing " want " $2)
	if (target != $3) fail("target " target " want " $3)
	if ($16 != $4) fail("event " $16 " want " $4)
	if ($20 + 0 != $7 + 0 || $21 + 0 != $8 + 0)
		fail("velocity " $20 "," $21 " want " $7 "," $8)
	if ($26 != $10) fail("length " $26 " want " $10)
	if ($27 != 1 || $28 != 1) fail("checksums ip " $27 " udp " $28)
}
END {
	if (bad) exit 1
	printf "ok: %d frames decoded by tshark as DIS 7 Fire/Detonation PDUs\n", NR
}'
