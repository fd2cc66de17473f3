#!/usr/bin/env bash
# capture_counts.sh: tshark reads the bridge's pcap files, and the number
# of IPv4 packets in each must equal what the link counters report: the
# "before" file holds every frame offered to the link (counter `in`), the
# "after" file every copy delivered (counter `delivered`).
#
#   ns a (10.77.0.1) eth0 ==veth== rk0 [hub: bridge, pcap/a-b.{before,after}.pcap] rk1 ==veth== eth0 ns b (10.77.0.2)
#
. "$(dirname "$0")/lib.sh"
need_root
need_tool ping
need_tool tshark

run_fg capture.ini
[ "$rc" -eq 0 ] || fail "reckond exited with $rc"
c=$rundir/counters.csv
for pair in "a b" "b a"; do
	set -- $pair
	for side in before:in after:delivered; do
		file=$rundir/pcap/$1-$2.${side%%:*}.pcap
		[ -s "$file" ] || fail "missing $file"
		got=$(tshark -n -r "$file" -Y ip 2>/dev/null | wc -l)
		want=$(csv_field "$c" "$1" "$2" "${side#*:}")
		[ "$got" -eq "$want" ] ||
			fail "$file has $got IPv4 packets, counters.csv says ${side#*:} = $want"
		echo "$file: $got packets = ${side#*:}"
	done
done
[ "$(csv_field "$c" a b in)" -eq 300 ] || fail "a>b in is not the 300 pings sent"
pass "tshark counts match counters.csv on both directions, before and after"
