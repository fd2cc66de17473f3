#!/bin/bash
# tshark_espdu.sh: cross-checks reckon's wire format against an independent
# DIS decoder. proto_espdu_pcap writes a pcap of Ethernet/IPv4/UDP frames
# to port 3000, each carrying one seeded random Entity State PDU, plus the
# values every frame must show; tshark (Wireshark's DIS dissector) reads
# the file and must decode each frame as a DIS 7 Entity State PDU with the
# same entity id, velocity, DR algorithm, marking, length, variable
# parameter records (240 = reckon time, 241 = predictor) and send time,
# with good IP/UDP checksums and no malformed-packet or expert items.
# No traffic is sent: tshark only reads the file (-r).
#
#   proto_espdu_pcap --> espdu.pcap + expect.tsv
#   tshark -r espdu.pcap -d udp.port==3000,dis --> got.tsv
#   awk: got.tsv == expect.tsv, field by field
#
# usage: tshark_espdu.sh BUILD_DIR   (exit 77 = skipped, reason printed)
set -euo pipefail

build=${1:?usage: tshark_espdu.sh BUILD_DIR}
gen=$build/tests/proto/proto_espdu_pcap
n=200

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

"$gen" "$tmp/espdu.pcap" "$tmp/expect.tsv" "$n" 20261121

# Wireshark 4.0 registers the DR algorithm under a misnamed abbreviation
# (dis.entity_marking_character_set, shared with the marking character
# set); find it by its label so a fixed Wireshark works too.
drf=$(tshark -G fields 2>/dev/null |
	awk -F'\t' '$1 == "F" && $2 == "Dead Reckoning Algorithm" &&
		$3 ~ /^dis\./ { print $3; exit }')
if [ -z "$drf" ]; then
	echo "FAIL: this tshark has no DIS 'Dead Reckoning Algorithm' field"
	exit 1
fi

opts=(-n -r "$tmp/espdu.pcap" -d udp.port==3000,dis
	-o ip.check_checksum:TRUE -o udp.check_checksum:TRUE)

tshark "${opts[@]}" -T fields -E separator=/t -E occurrence=a \
	-e frame.protocols -e dis.proto_ver -e dis.pdu_type \
	-e dis.entity_id_site -e dis.entity_id_application \
	-e dis.entity_id_entity -e dis.entity_linear_velocity.x \
	-e dis.entity_linear_velocity.y -e dis.entity_linear_velocity.z \
	-e "$drf" -e dis.entity_marking -e dis.pdu_length \
	-e dis.num_articulation_params -e dis.variable_parameter_type \
	-e dis.str_data -e ip.checksum.status -e udp.checksum.status \
	>"$tmp/got.tsv" 2>"$tmp/tshark.err" || {
	echo "FAIL: tshark exited with an error:"
	cat "$tmp/tshark.err"
	exit 1
}

got_n=$(wc -l <"$tmp/got.tsv")
if [ "$got_n" -ne "$n" ]; then
	echo "FAIL: tshark decoded $got_n frames, expected $n"
	exit 1
fi

bad=$(tshark "${opts[@]}" -Y '_ws.malformed || _ws.expert' 2>/dev/null |
	wc -l)
if [ "$bad" -ne 0 ]; then
	echo "FAIL: $bad frames carry malformed-packet or expert items:"
	tshark "${opts[@]}" -Y '_ws.malformed || _ws.expert' -V 2>/dev/null |
		grep -iE 'expert|malformed' | head -20
	exit 1
fi

# expect.tsv: pdu_type site app entity vx vy vz drm marking len send_ns_hex
paste "$tmp/expect.tsv" "$tmp/got.tsv" | awk -F'\t' '
function fail(what) {
	printf "FAIL frame %d: %s\n", NR, what
	bad++
}
{
	split($21, first_dr, ",")
	nvp = ($10 - 144) / 16
	want_types = "240"
	for (i = 1; i < nvp; i++)
		want_types = want_types ",241"
	split($26, data, ",")
	hex = data[1]
	gsub(":", "", hex)
	if ($12 !~ /(^|:)dis$/) fail("protocols " $12)
	if ($13 != 7) fail("version " $13)
	if ($14 != $1) fail("pdu type " $14 " want " $1)
	if ($15 != $2 || $16 != $3 || $17 != $4)
		fail("entity " $15 ":" $16 ":" $17 " want " $2 ":" $3 ":" $4)
	if ($18 + 0 != $5 + 0 || $19 + 0 != $6 + 0 || $20 + 0 != $7 + 0)
		fail("velocity " $18 "," $19 "," $20 " want " $5 "," $6 "," $7)
	if (first_dr[1] != $8) fail("DR algorithm " $21 " want " $8)
	if ($22 != $9) fail("marking \"" $22 "\" want \"" $9 "\"")
	if ($23 != $10) fail("length " $23 " want " $10)
	if ($24 != nvp) fail("records " $24 " want " nvp)
	if ($25 != want_types) fail("record types " $25 " want " want_types)
	if (substr(hex, length(hex) - 15) != $11)
		fail("time record " hex " does not end in send_ns " $11)
	if ($27 != 1 || $28 != 1) fail("checksums ip " $27 " udp " $28)
}
END {
	if (bad) exit 1
	printf "ok: %d frames decoded by tshark as DIS 7 Entity State PDUs\n", NR
}'
