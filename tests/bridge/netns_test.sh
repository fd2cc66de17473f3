#!/usr/bin/env bash
# netns_test.sh: end-to-end test of the userspace impairment bridge. It
# builds three host namespaces whose veth peers sit in a hub namespace,
# runs tests/bridge's bridge_harness (the real bridge: AF_PACKET, netem
# engine, libevent timers, libpcap) in the hub, drives traffic with ping and
# checks what came out: RTT under "delay 25ms" each way, that frames were
# read from the TPACKET_V3 ring, loss counters against ping's own count,
# ARP and broadcast passthrough, duplicate and corrupt counters, malformed
# and oversized frames counted, due frames leaving in sendmmsg batches, and
# that the before/after pcaps open in tshark with the counts the counters
# report. Needs root; exits 77 (skipped) otherwise.
#
# The receive backend is RECKON_BRIDGE_RX (pcap, the default, or ring):
# ctest runs the script once for each (bridge_netns, bridge_netns_ring).
# With pcap every veth end gets its offloads turned off first (through
# daemon/ns/netns.c's netns_offloads_off, as reckond does), since libpcap
# carries no virtio-net header; the ring run keeps them on and so checks
# the checksum completion and GSO paths of the header. Commands run in a
# namespace through nsenter --net, which (unlike ip netns exec) works in
# a chroot whose / is not a mount point.
#
#   ns A                        ns H (hub)                        ns B
#  +-----------+       +---------------------------+       +-----------+
#  | a0        |=======| ha    bridge_harness    hb|=======| b0        |
#  | 10.99.0.1 |  veth |           |               |  veth | 10.99.0.2 |
#  +-----------+       |          hc               |       +-----------+
#                      +-----------||--------------+
#                                  || veth
#                            +-----------+
#                            | c0  ns C  |  (only sees broadcasts)
#                            | 10.99.0.3 |
#                            +-----------+
#
# usage: netns_test.sh BUILD_DIR
set -u

build=${1:?usage: netns_test.sh BUILD_DIR}
harness=$build/tests/bridge/bridge_harness
blast=$build/tests/bridge/bridge_udp_blast

skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces, AF_PACKET)"
for x in "$harness" "$blast"; do
	[ -x "$x" ] || { echo "FAIL: $x not built"; exit 1; }
done
command -v ip >/dev/null || skip "iproute2 (ip) not installed"
command -v ping >/dev/null || skip "ping not installed"
command -v tshark >/dev/null || skip "tshark not installed"
command -v nsenter >/dev/null || skip "nsenter (util-linux) not installed"
rx=${RECKON_BRIDGE_RX:-pcap}
case $rx in pcap|ring) ;; *) echo "FAIL: RECKON_BRIDGE_RX=$rx: not pcap or ring"; exit 1 ;; esac
export RECKON_BRIDGE_RX=$rx
echo "receive backend: $rx"
# nsx NS CMD...: run CMD in network namespace NS.
nsx() { local ns=$1; shift; nsenter --net=/run/netns/"$ns" "$@"; }

p=rkb$$
A=${p}a B=${p}b C=${p}c H=${p}h
work=$(mktemp -d /tmp/reckon-bridge-test.XXXXXX)
hpid=

cleanup() {
	[ -n "$hpid" ] && kill -TERM "$hpid" 2>/dev/null && wait "$hpid" 2>/dev/null
	for n in $A $B $C $H; do ip netns del "$n" 2>/dev/null; done
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

ip netns add "$H" 2>/dev/null || skip "cannot create network namespaces here"
n=0
for x in a b c; do
	n=$((n + 1))
	ns=${p}$x
	ip netns add "$ns" || exit 1
	ip -n "$H" link add h$x type veth peer name ${x}0 netns "$ns" || exit 1
	ip -n "$ns" link set ${x}0 address 02:00:00:99:00:0$n
	nsx "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip -n "$ns" addr add 10.99.0.$n/24 dev ${x}0
	ip -n "$ns" link set lo up
	ip -n "$ns" link set ${x}0 up
	ip -n "$H" link set h$x up
	if [ "$rx" = pcap ]; then
		nsx "$ns" "$harness" -x ${x}0 || exit 1
		nsx "$H" "$harness" -x h$x || exit 1
	fi
done
nsx "$H" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
ports="a=ha,02:00:00:99:00:01,10.99.0.1 b=hb,02:00:00:99:00:02,10.99.0.2 c=hc,02:00:00:99:00:03,10.99.0.3"

fails=0
check() { # check DESCRIPTION COMMAND...
	if "${@:2}"; then echo "ok:   $1"; else echo "FAIL: $1"; fails=$((fails + 1)); fi
}

# start_harness LOG ARGS...: run the bridge in the hub, wait for "ready".
start_harness() {
	local log=$1
	shift
	# nsenter itself, not the nsx function: it execs the harness, so
	# $! is the harness (a function would be a subshell in between).
	nsenter --net=/run/netns/"$H" "$harness" "$@" $ports >"$log" 2>&1 &
	hpid=$!
	for _ in $(seq 100); do
		grep -q '^ready' "$log" && return 0
		kill -0 "$hpid" 2>/dev/null || break
		sleep 0.05
	done
	echo "FAIL: harness did not start:"; cat "$log"; exit 1
}
stop_harness() {
	kill -TERM "$hpid"; wait "$hpid"; hpid=
}
# cnt LOG LINK KEY: one counter from the harness's exit report.
cnt() { sed -n "s/^link $2 .* $3=\([0-9]*\).*/\1/p; s/^link $2 $3=\([0-9]*\).*/\1/p" "$1" | head -1; }
bstat() { sed -n "s/^bridge .*\b$2=\([0-9]*\).*/\1/p" "$1"; }
npk() { tshark -r "$1" -T fields -e frame.number 2>/dev/null | wc -l; }
flush_arp() { for ns in $A $B $C; do ip -n "$ns" neigh flush all; done; }
# rxpk NS IF: received packets of IF in NS (/proc/net is the reader's
# namespace; /sys would need a remount, as ip netns exec does).
rxpk() { nsx "$1" awk -v i="$2:" '$1 == i {print $3}' /proc/net/dev; }

# --- 1. delay 25ms each way: RTT, ARP/broadcast passthrough, pcaps ----
log=$work/delay.log
mkdir -p "$work/pcap1"
start_harness "$log" -s 7 -p "$work/pcap1" -l "a:b:delay 25ms"
crx0=$(rxpk "$C" c0)
nsx "$A" ping -c 20 -i 0.05 -n 10.99.0.2 >"$work/ping1" 2>&1
crx1=$(rxpk "$C" c0)
stop_harness
cat "$log"
med=$(sed -n 's/.*time=\([0-9.]*\) ms/\1/p' "$work/ping1" | sort -n |
	awk '{v[NR]=$1} END {if (NR == 0) print -1; else if (NR % 2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}')
min=$(sed -n 's/.*time=\([0-9.]*\) ms/\1/p' "$work/ping1" | sort -n | head -n 1)
echo "median RTT: $med ms, min $min ms (20 pings)"
# netem never delivers early: no RTT under 50 ms. A busy machine only adds
# to it, so the median's bound is loose (under 75 ms fails a delay applied
# twice or one way only); how close to 50 ms it gets is bench_delay.sh's.
check "RTT min $min ms >= 50 ms, median $med ms < 75 ms" \
	awk -v a="${min:--1}" -v m="$med" 'BEGIN {exit !(a >= 50 && m < 75)}'
check "ARP passed (ping got replies)" grep -q ' 0% packet loss' "$work/ping1"
check "passthrough counted ARP (>= 2 frames)" \
	test "$(bstat "$log" passthrough)" -ge 2
check "broadcast ARP reached the third host C ($crx0 -> $crx1 frames)" test "$crx1" -gt "$crx0"
check "a->b: in=20 delivered=20" \
	test "$(cnt "$log" 'a->b' in)/$(cnt "$log" 'a->b' delivered)" = 20/20
check "b->a: in=20 delivered=20" \
	test "$(cnt "$log" 'b->a' in)/$(cnt "$log" 'b->a' delivered)" = 20/20
check "a->c carried nothing" test "$(cnt "$log" 'a->c' in)" = 0
check "a-b.before.pcap has in=20 frames" test "$(npk "$work/pcap1/a-b.before.pcap")" = 20
check "a-b.after.pcap has delivered=20 frames" test "$(npk "$work/pcap1/a-b.after.pcap")" = 20
check "b-a.after.pcap holds ICMP echo replies" \
	test "$(tshark -r "$work/pcap1/b-a.after.pcap" -Y 'icmp.type == 0' -T fields -e frame.number 2>/dev/null | wc -l)" = 20
# The capture timestamps show the impairment: no echo request left before
# its 25 ms were up (a property, not a timing tolerance: a late frame on a
# loaded machine still passes; 1 s only guards against pairing errors).
tshark -r "$work/pcap1/a-b.before.pcap" -T fields -e frame.time_epoch 2>/dev/null >"$work/t0"
tshark -r "$work/pcap1/a-b.after.pcap" -T fields -e frame.time_epoch 2>/dev/null >"$work/t1"
check "every a->b frame held >= 25 ms between before and after pcap" \
	awk 'NR == FNR {t[FNR] = $1; next} {d = ($1 - t[FNR]) * 1000; if (d < 25 || d > 1000) bad++; n++}
	     END {exit !(n == 20 && bad == 0)}' "$work/t0" "$work/t1"
check "no malformed/unknown/send errors" \
	test "$(bstat "$log" malformed)$(bstat "$log" unknown_dst)$(bstat "$log" send_errors)" = 000
check "harness ran the $rx backend" grep -q "^ready rx=$rx\$" "$log"
# The frames came through the chosen backend: the 40 ICMP frames and the
# passthrough ARP frames were read by it, and none by the other; ring:
# in blocks handed back to the kernel (at least one, at most one per
# frame); pcap: in pcap_dispatch calls (at least one, at most one per
# frame).
rb=$(bstat "$log" ring_blocks) rf=$(bstat "$log" ring_frames)
pr=$(bstat "$log" pcap_reads) pf=$(bstat "$log" pcap_frames)
if [ "$rx" = ring ]; then
	check "ring path: ring_frames ($rf) == 40 ICMP + passthrough" \
		test "$rf" = $((40 + $(bstat "$log" passthrough)))
	check "ring path: 1 <= ring_blocks ($rb) <= ring_frames" \
		test "$rb" -ge 1 -a "$rb" -le "$rf"
	check "ring path: nothing read through libpcap" test "$pf" = 0
else
	check "pcap path: pcap_frames ($pf) == 40 ICMP + passthrough" \
		test "$pf" = $((40 + $(bstat "$log" passthrough)))
	check "pcap path: 1 <= pcap_reads ($pr) <= pcap_frames" \
		test "$pr" -ge 1 -a "$pr" -le "$pf"
	check "pcap path: nothing read from a TPACKET_V3 ring" test "$rf$rb" = 00
fi

# --- 1b. unimpaired link: RTT without the ring's block timeout ---------
# With the ring backend a frame is read when its TPACKET_V3 block fills
# or its 1 ms retire timeout (tp_retire_blk_tov, the smallest the kernel
# takes) closes it, so at ping rates every hop waits up to 1 ms and the
# RTT (four bridge hops' worth of reads: request and reply, each read
# once) lands between 1 and 2 ms. libpcap in immediate mode wakes the
# bridge per frame, so the median RTT staying under that 1 ms is the
# property that tells the backends apart (a veth round trip through the
# bridge costs about 0.1 ms here). It is a timing figure, so it is printed
# here and measured by bench_delay.sh, not checked: two busy loops beside
# the suite push it over 1 ms.
log=$work/clean.log
flush_arp
start_harness "$log" -s 8
nsx "$A" ping -c 1 -W 1 -q -n 10.99.0.2 >/dev/null 2>&1
nsx "$A" ping -c 20 -i 0.05 -n 10.99.0.2 >"$work/ping0" 2>&1
stop_harness
med0=$(sed -n 's/.*time=\([0-9.]*\) ms/\1/p' "$work/ping0" | sort -n |
	awk '{v[NR]=$1} END {if (NR == 0) print -1; else if (NR % 2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}')
echo "unimpaired median RTT ($rx): $med0 ms (20 pings)"
check "unimpaired: 20 pings answered" grep -q ' 0% packet loss' "$work/ping0"

# --- 2. loss 10% on a->b only: counters agree with ping's loss ---------
# lost_seqs LOG DIR SEED: one run; writes the ICMP sequence numbers that
# are in the before-pcap but not the after-pcap to DIR/lost.
N=400
lost_seqs() {
	mkdir -p "$2"
	flush_arp
	start_harness "$1" -s "$3" -p "$2" -d "a:b:loss 10%"
	nsx "$A" ping -c $N -i 0.005 -W 1 -n 10.99.0.2 >"$2/ping" 2>&1
	stop_harness
	tshark -r "$2/a-b.before.pcap" -T fields -e icmp.seq 2>/dev/null | sort >"$2/in"
	tshark -r "$2/a-b.after.pcap" -T fields -e icmp.seq 2>/dev/null | sort >"$2/out"
	comm -23 "$2/in" "$2/out" | sort -n >"$2/lost"
}
log=$work/loss.log
lost_seqs "$log" "$work/loss1" 11
cp "$work/loss1/ping" "$work/ping2"
cat "$log"; tail -n 3 "$work/ping2"
# What ping saw against what the bridge dropped, request by request. The
# last 5 probes are left out: once it has replies, ping waits only 2 x
# its largest RTT for the last ones, and a ring block's 1 ms retirement on
# each hop can hold a reply longer (the pcap check below covers them all).
K=$((N - 5))
sed -n 's/.*icmp_seq=\([0-9]*\) .*/\1/p' "$work/ping2" | sort -u >"$work/replied"
seq 1 $K | sort >"$work/probes"
lost=$(comm -23 "$work/probes" "$work/replied" | wc -l)
dlk=$(awk -v k=$K '$1 <= k' "$work/loss1/lost" | wc -l)
check "probes 1..$K: ping's lost ($lost) == dropped by the bridge ($dlk)" test "$lost" = "$dlk"
dl=$(cnt "$log" 'a->b' drop_loss)
check "a->b in == $N" test "$(cnt "$log" 'a->b' in)" = $N
check "b->a lost nothing" test "$(cnt "$log" 'b->a' drop_loss)" = 0
# Binomial(N=400, p=0.1): mean 40, sigma = sqrt(N p (1-p)) = 6, so 5
# sigma is [10, 70]. Computed here from N and p.
check "loss count $dl within 5 sigma of N*p" awk -v n=$N -v p=0.1 -v k="$dl" \
	'BEGIN {m = n*p; s = sqrt(n*p*(1-p)); exit !(k >= m - 5*s && k <= m + 5*s)}'
check "the pcaps name exactly drop_loss=$dl lost echo requests" \
	test "$(wc -l <"$work/loss1/lost")" = "$dl"
# Same seed, same decisions: a second run loses the same requests; another
# seed loses others (equal sets by chance: about C(400,40)^-1).
lost_seqs "$work/loss2.log" "$work/loss2" 11
lost_seqs "$work/loss3.log" "$work/loss3" 12
check "seed 11 twice: the same $dl requests lost" cmp -s "$work/loss1/lost" "$work/loss2/lost"
check "seed 12: a different set lost" \
	sh -c '! cmp -s "$1" "$2"' _ "$work/loss1/lost" "$work/loss3/lost"

# --- 3. duplicate and corrupt on a->b: counters and pcaps ---------------
log=$work/dup.log
mkdir -p "$work/pcap3"
flush_arp
start_harness "$log" -s 5 -p "$work/pcap3" -d "a:b:duplicate 20% corrupt 20%"
nsx "$A" ping -c $N -i 0.005 -W 1 -q -n 10.99.0.2 >"$work/ping3" 2>&1
stop_harness
cat "$log" "$work/ping3"
in=$(cnt "$log" 'a->b' in)
dup=$(cnt "$log" 'a->b' duplicated)
cor=$(cnt "$log" 'a->b' corrupted)
del=$(cnt "$log" 'a->b' delivered)
check "a->b in == $N" test "$in" = $N
check "a->b delivered ($del) == in + duplicated ($in + $dup)" test "$del" = $((in + dup))
# Binomial(400, 0.2): mean 80, sigma 8, 5 sigma [40, 120]. Corruption is
# decided per copy in netem, so its mean lies between in*p and
# (in+dup)*p: the bounds take 5 sigma below the first, above the second.
check "duplicated $dup within 5 sigma of in*0.2" awk -v n="$in" -v p=0.2 -v k="$dup" \
	'BEGIN {m = n*p; s = sqrt(n*p*(1-p)); exit !(k >= m - 5*s && k <= m + 5*s)}'
check "corrupted $cor within 5 sigma of copies*0.2" awk -v a="$in" -v b="$del" -v p=0.2 -v k="$cor" \
	'BEGIN {lo = a*p - 5*sqrt(a*p*(1-p)); hi = b*p + 5*sqrt(b*p*(1-p)); exit !(k >= lo && k <= hi)}'
check "ping saw duplicates" grep -q 'duplicates' "$work/ping3"
check "a-b.before.pcap has in=$in frames" test "$(npk "$work/pcap3/a-b.before.pcap")" = "$in"
check "a-b.after.pcap has delivered=$del frames" test "$(npk "$work/pcap3/a-b.after.pcap")" = "$del"
# Every copy in the after-pcap that differs from its original is a
# corrupted one: count frames whose bytes are not in the before-pcap.
tshark -r "$work/pcap3/a-b.before.pcap" -T fields -e frame.md5_hash -o frame.generate_md5_hash:TRUE 2>/dev/null | sort -u >"$work/h0"
tshark -r "$work/pcap3/a-b.after.pcap" -T fields -e frame.md5_hash -o frame.generate_md5_hash:TRUE 2>/dev/null | sort >"$work/h1"
if [ -s "$work/h0" ]; then
	diffs=$(grep -cvxFf "$work/h0" "$work/h1")
	check "after-pcap differs from before-pcap in corrupted=$cor frames ($diffs)" test "$diffs" = "$cor"
fi

# --- 4. ecn: losses of ECN-capable packets become CE marks ------------
log=$work/ecn.log
mkdir -p "$work/pcap5"
flush_arp
start_harness "$log" -s 9 -p "$work/pcap5" -d "a:b:loss 30% ecn"
# -Q 2: TOS byte ECT(0), so every loss on a->b is a CE mark instead.
nsx "$A" ping -Q 2 -c 100 -i 0.005 -W 1 -q -n 10.99.0.2 >"$work/ping5" 2>&1
stop_harness
cat "$log"
ecn=$(cnt "$log" 'a->b' ecn_marked)
check "ECT packets: none lost on a->b" test "$(cnt "$log" 'a->b' drop_loss)" = 0
check "ECT packets: ping lost none" grep -q ' 0% packet loss' "$work/ping5"
check "ecn_marked ($ecn) > 0" test "$ecn" -gt 0
check "after-pcap has ecn_marked=$ecn CE frames" \
	test "$(tshark -r "$work/pcap5/a-b.after.pcap" -Y 'ip.dsfield.ecn == 3' -T fields -e frame.number 2>/dev/null | wc -l)" = "$ecn"
# Binomial(100, 0.3): mean 30, sigma 4.6, 5 sigma [7, 53].
check "ecn_marked $ecn within 5 sigma of 100*0.3" awk -v n=100 -v p=0.3 -v k="$ecn" \
	'BEGIN {m = n*p; s = sqrt(n*p*(1-p)); exit !(k >= m - 5*s && k <= m + 5*s)}'
check "every after-pcap frame has a good IPv4 header checksum" \
	test "$(tshark -r "$work/pcap5/a-b.after.pcap" -o ip.check_checksum:TRUE -Y 'ip.checksum.status == 1' -T fields -e frame.number 2>/dev/null | wc -l)" = "$(cnt "$log" 'a->b' delivered)"

# --- 5. malformed and misaddressed frames are counted and rejected ----
log=$work/bad.log
start_harness "$log" -s 17 -l "a:b:delay 1ms"
bmac=02:00:00:99:00:02
raw() { nsx "$A" "$blast" raw a0 "$@"; }
raw $bmac 0800 44000020000000004011000a6300010a630002  # IHL 4 < 5
raw $bmac 0800 650000200000000040110000a6300010a630002 # version 6 as IPv4
raw $bmac 0800 4500ffff000000004011000a6300010a630002  # total length > frame
raw 02:00:00:99:00:77 0800 45000014000000004011000a6300010a630002 # no such host
raw 02:00:00:99:00:01 0806 0001                        # to the sender itself
stop_harness
cat "$log"
check "3 malformed IPv4 frames counted" test "$(bstat "$log" malformed)" = 3
check "2 misaddressed frames counted as unknown_dst" test "$(bstat "$log" unknown_dst)" = 2
# Oversized: with a 65535-byte MTU on every veth end of a-b a 65549-byte
# frame reaches the hub, one byte over the bridge's 64 KiB frame slots; a
# 9014-byte jumbo frame (IPv4, unknown protocol 253) still fits, and fits
# hb's MTU too. The MTUs are set before the bridge starts, since it reads
# each port's MTU (and libpcap sizes its ring) when it opens the port.
for l in "$A a0" "$H ha" "$H hb" "$B b0"; do set -- $l; ip -n "$1" link set "$2" mtu 65535; done
start_harness "$log.2" -s 17 -l "a:b:delay 1ms"
raw $bmac 0800 4500ffff0000000040fd00000a6300010a630002 65549
raw $bmac 0800 450023280000000040fd00000a6300010a630002 9014
# The same jumbo to C, whose hub end hc keeps MTU 1500: the kernel would
# refuse to inject it (a GSO super-frame read without its header is the
# real case), so it is counted oversize before it reaches a link.
raw 02:00:00:99:00:03 0800 450023280000000040fd00000a6300010a630003 9014
nsx "$A" ping -c 3 -i 0.05 -q -n 10.99.0.2 >"$work/ping7" 2>&1
stop_harness
for l in "$A a0" "$H ha" "$H hb" "$B b0"; do set -- $l; ip -n "$1" link set "$2" mtu 1500; done
cat "$log.2"
check "2 oversized frames (65549 bytes; 9014 for hc) counted and dropped" \
	test "$(bstat "$log.2" oversize)" = 2
check "the jumbo for C never reached a->c" test "$(cnt "$log.2" 'a->c' in)" = 0
check "nothing was refused by the kernel" test "$(bstat "$log.2" send_errors)" = 0
x=$(cnt "$log.2" "a->b" in)
check "only the jumbo frame and 3 pings reached a->b (in = $x)" test "$x" = 4
check "the bridge kept forwarding after bad input" grep -q ' 0% packet loss' "$work/ping7"

# --- 6. pcap size cap --------------------------------------------------
log=$work/cap.log
mkdir -p "$work/pcap4"
flush_arp
# File header 24 B + 5 records of 16 + 98 B (ICMP echo frames).
start_harness "$log" -s 3 -B -p "$work/pcap4" -M $((24 + 5 * (16 + 98))) -l "a:b:delay 1ms"
nsx "$A" ping -c 10 -i 0.01 -q -n 10.99.0.2 >/dev/null 2>&1
stop_harness
cat "$log"
check "size cap: 5 records written" test "$(npk "$work/pcap4/a-b.before.pcap")" = 5
check "size cap: 5 records counted as skipped" test "$(bstat "$log" capture_skipped)" -ge 5
check "before-only capture wrote no after file" test ! -e "$work/pcap4/a-b.after.pcap"

# --- 6b. batching: frames due together leave in few sendmmsg calls ---
# The harness is stopped while 100 datagrams arrive on an unimpaired
# link, so when it resumes all of them are due at once: whatever the
# machine's timing, they leave in ceil(100/64) = 2 sendmmsg calls, plus
# a few for ARP and the priming ping. Per-frame sends would need >= 100.
log=$work/batch.log
flush_arp
start_harness "$log" -s 21
nsx "$A" ping -c 1 -W 1 -q -n 10.99.0.2 >/dev/null 2>&1
nsx "$B" "$blast" recv 9001 100 5 0 >"$work/recvb" 2>&1 &
rpid=$!
for _ in $(seq 100); do grep -q listening "$work/recvb" && break; sleep 0.02; done
kill -STOP "$hpid"
nsx "$A" "$blast" send 10.99.0.2 9001 100000 100 64 >/dev/null
sleep 0.3
kill -CONT "$hpid"
wait $rpid
stop_harness
cat "$log" "$work/recvb"
tb=$(bstat "$log" tx_batches)
check "100 datagrams delivered after the stop" grep -q '^received=100 ' "$work/recvb"
check "and in the order they were sent" grep -q ' out_of_order=0$' "$work/recvb"
check "they left in batches: tx_batches ($tb) < 25" test "$tb" -lt 25

# --- 7. UDP checksums, TCP (GSO super-frames with ring) ----------------
# Last: TCP may still retransmit its FIN after the harness is gone.
# ring (offloads on): UDP checksums arrive partial and the bridge
# completes them from the virtio-net header; TCP comes as GSO super-frames
# the kernel segments on injection. pcap (offloads off, as in reckond):
# every frame is complete and MTU-sized, so nothing needs completing.
log=$work/offload.log
mkdir -p "$work/pcap6"
flush_arp
start_harness "$log" -s 13 -p "$work/pcap6" -S 128 -l "a:b:delay 2ms"
nsx "$B" "$blast" recv 9000 200 5 0 >"$work/recv6" 2>&1 &
rpid=$!
for _ in $(seq 100); do grep -q listening "$work/recv6" && break; sleep 0.02; done
nsx "$A" "$blast" send 10.99.0.2 9000 2000 200 64 >/dev/null
wait $rpid
tcp=skip
if command -v iperf3 >/dev/null; then
	nsx "$B" iperf3 -s -1 -D -p 5299 >/dev/null 2>&1
	sleep 0.2
	# -w 256K: at most 512 KiB in flight (the kernel doubles it), 8
	# super-frames, so the pool's 64 large slots cannot fill however
	# late the bridge runs; unbounded, the window grew to 8 MB while a
	# loaded machine held the bridge back, and the pool filled
	nsx "$A" timeout 20 iperf3 -c 10.99.0.2 -p 5299 -t 1 -w 256K >"$work/iperf" 2>&1 && tcp=ok || tcp=fail
fi
stop_harness
cat "$log" "$work/recv6"
check "200 UDP datagrams crossed the bridge" grep -q '^received=200 ' "$work/recv6"
check "in the order they were sent (a delay-only link)" grep -q ' out_of_order=0$' "$work/recv6"
if [ "$rx" = ring ]; then
	check "partial UDP checksums were completed (>= 200)" \
		test "$(bstat "$log" csum_completed)" -ge 200
else
	check "offloads off: no partial checksums to complete" \
		test "$(bstat "$log" csum_completed)" = 0
fi
check "every UDP datagram in a-b.after.pcap has a good checksum" \
	test "$(tshark -r "$work/pcap6/a-b.after.pcap" -o udp.check_checksum:TRUE -Y 'udp.port == 9000 && udp.checksum.status == 1' -T fields -e frame.number 2>/dev/null | wc -l)" = 200
if [ "$tcp" != skip ]; then
	cat "$work/iperf"
	check "TCP through the bridge" test "$tcp" = ok
	check "no oversize, pool or send errors" \
		test "$(bstat "$log" oversize)$(bstat "$log" pool_full)$(bstat "$log" send_errors)" = 000
fi

if [ "$fails" -ne 0 ]; then
	echo "$fails check(s) failed"
	exit 1
fi
echo "all bridge netns checks passed"
