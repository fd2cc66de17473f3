#!/bin/bash
# tshark_bundle.sh: what Wireshark's DIS dissector makes of the fps
# snapshot bundles (several Entity State PDUs back to back in one UDP
# datagram, fps.h). lagcomp_bundle_pcap writes bundles of 1, 2, 5 and 9
# PDUs (entities 1..n) and the expected entity list of each frame;
# tshark reads the file (-r, no traffic) and, for every frame, must show
# UDP with the whole bundle as payload, DIS as the top protocol, no
# malformed-packet or expert items, and the PDUs it decodes must be the
# bundle's first ones in order, each 160 octets long with its entity
# number. Wireshark 4.0 decodes only the first PDU of a datagram and
# leaves the rest undissected; the script prints how many it decoded, so
# a dissector that walks bundles passes too (all PDUs are then checked).
#
# usage: tshark_bundle.sh BUILD_DIR   (exit 77 = skipped, reason printed)
set -euo pipefail

build=${1:?usage: tshark_bundle.sh BUILD_DIR}
gen=$build/tests/lagcomp/lagcomp_bundle_pcap
if ! command -v tshark >/dev/null 2>&1; then
	echo "SKIP: tshark is not installed (apt-get install tshark)"
	exit 77
fi
[ -x "$gen" ] || { echo "FAIL: $gen is not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$gen" "$tmp/b.pcap" "$tmp/expect.tsv"
tshark -n -r "$tmp/b.pcap" -d udp.port==3000,dis -T fields -E separator=/t \
	-E occurrence=a -E aggregator=, -e frame.number -e frame.protocols \
	-e udp.length -e dis.pdu_length -e dis.entity_id_entity \
	-e _ws.malformed -e _ws.expert >"$tmp/got.tsv" 2>"$tmp/err" || {
	echo "FAIL: tshark exited with an error:"
	cat "$tmp/err"
	exit 1
}
awk -F'\t' 'NR == FNR { n[$1] = $2; len[$1] = $3; ents[$1] = $4; next }
	{
		f = $1
		if (!(f in n)) { print "FAIL: unexpected frame " f; bad = 1; next }
		seen[f] = 1
		if ($2 != "eth:ethertype:ip:udp:dis") {
			print "FAIL: frame " f " protocols " $2; bad = 1 }
		if ($3 != len[f] + 8) {
			print "FAIL: frame " f " udp.length " $3 ", want " len[f] + 8; bad = 1 }
		if ($6 != "" || $7 != "") {
			print "FAIL: frame " f " malformed/expert: " $6 " " $7; bad = 1 }
		k = split($5, got, ","); split(ents[f], want, ",")
		split($4, pl, ",")
		if (k < 1 || k > n[f]) {
			print "FAIL: frame " f " decoded " k " PDUs of " n[f]; bad = 1 }
		for (i = 1; i <= k; i++) {
			if (got[i] != want[i] || pl[i] != 160) {
				print "FAIL: frame " f " PDU " i ": entity " got[i] \
					" length " pl[i] ", want " want[i] " 160"; bad = 1 }
		}
		dec += k; all += n[f]
		printf "frame %d: bundle of %d PDUs, tshark decoded %d\n", f, n[f], k
	}
	END {
		for (f in n) if (!(f in seen)) { print "FAIL: frame " f " missing"; bad = 1 }
		if (bad) exit 1
		printf "PASS: tshark decoded %d of %d bundled PDUs, each as sent\n", dec, all
	}' "$tmp/expect.tsv" "$tmp/got.tsv"
