#!/usr/bin/env bash
# kill9.sh: SIGKILL the daemon mid-run; nothing may survive it. Before the
# kill the test records every pid the daemon reports (reckonctl status -j:
# each host's shim and every process in its namespace) and every network
# namespace the daemon holds (its hub and host namespace descriptors,
# /proc/PID/fd -> net:[inode]). Afterwards none of those processes may
# exist, no process may be in or hold any of those namespaces, and no
# reckon interface or named namespace may be left.
#
#   ns a ==veth== [hub: reckond, bridge] ==veth== ns b
#                        ||veth
#                        ns c (sh + 2 background sleeps)
#
. "$(dirname "$0")/lib.sh"
need_root
need_tool ping

run_bg kill9.ini
sleep 1
st=$("$reckonctl" -s "$sock" status -j) || fail "status -j failed"
pids=$(echo "$st" | grep -o '"pids": \[[0-9, ]*\]' | grep -o '[0-9][0-9]*' | sort -u)
[ "$(echo "$pids" | wc -l)" -ge 7 ] || fail "expected >= 7 host processes (3 shims, ping, sleep, sh, 2 sleeps): $pids"
# (minus the namespace the daemon itself lives in: it keeps a descriptor of
# the one it started from)
own=$(stat -L -c %i /proc/"$bg_pid"/ns/net)
inodes=$(for f in /proc/"$bg_pid"/fd/*; do readlink "$f"; done 2>/dev/null |
	sed -n 's/^net:\[\([0-9]*\)\]$/\1/p' | grep -vx "$own" | sort -u)
[ "$(echo "$inodes" | wc -l)" -ge 4 ] || fail "expected the daemon to hold >= 4 namespaces (hub + 3 hosts): $inodes"

kill -KILL "$bg_pid"
wait "$bg_pid" 2>/dev/null
bg_pid=

# namespaces and processes go away asynchronously, but quickly
left=
for _ in $(seq 50); do
	left=
	for p in $pids; do
		[ -e /proc/"$p" ] || continue
		ino=$(stat -L -c %i /proc/"$p"/ns/net 2>/dev/null) || continue
		echo "$inodes" | grep -qx "$ino" && left="$left $p"
	done
	for f in /proc/[0-9]*/ns/net /proc/[0-9]*/fd/*; do
		l=$(readlink "$f" 2>/dev/null) || continue
		case $l in net:\[*) echo "$inodes" | grep -qx "${l//[^0-9]/}" && left="$left $f" ;; esac
	done
	[ -z "$left" ] && break
	sleep 0.1
done
[ -z "$left" ] || fail "left behind after kill -9:$left"
if ip -br link 2>/dev/null | grep -Eq '^(rk[0-9]+|rkbr|reckon-)'; then
	fail "reckon interfaces left in the root namespace: $(ip -br link)"
fi
ls /run/netns 2>/dev/null | grep -q '^reckon-' && fail "named reckon namespaces left"
pass "$(echo "$pids" | wc -l) processes and $(echo "$inodes" | wc -l) namespaces gone after kill -9"
