#!/bin/bash
# fps_udp.sh: `reckon-agent fps-server` and four `reckon-agent fps-client`
# play 20 s of a bot game on dust over real UDP on loopback (127.0.0.1,
# a port chosen free), the server in ALC mode. Checks that the server
# wrote lagcomp-srv.csv and shots-srv.csv with one row per shot, that the
# clients fired and the server judged and registered hits, that every
# client's datagrams were accepted (none refused), that the server judged
# every shot a client fired but at most the one of its last tick (the
# server ends at its last tick, which has the same nominal time as the
# clients' last; a shot fired then races the server's end, while any
# earlier shot leaves at least one tick, 16.7 ms, before it on a
# loopback path of microseconds), and that a client's
# count of hits confirmed to it matches the server's registered hits by
# that shooter; then that a client given a game file that is not one
# (RECKON_FPS_GAME) refuses to start, naming the file and why. No timing
# is asserted; only loopback traffic.
#
# usage: fps_udp.sh BUILD_DIR   (exit 77 = skipped, reason printed)
set -euo pipefail

build=${1:?usage: fps_udp.sh BUILD_DIR}
agent=$build/agents/reckon-agent
[ -x "$agent" ] || { echo "FAIL: $agent is not built"; exit 1; }

tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
secs=20
start=$(( $("$agent" now) + 1500000000 ))
common=(--duration "$secs" --start-ns "$start" --seed 20261125 --bots 4)

"$agent" fps-server --mode alc --bind 127.0.0.1 --port "$port" \
	--run-dir "$tmp" --host srv "${common[@]}" 2>"$tmp/srv.err" &
srv=$!
pids+=("$srv")
for e in 0 1 2 3; do
	"$agent" fps-client --entity "$e" --server "127.0.0.1:$port" \
		--run-dir "$tmp" --host "c$e" "${common[@]}" >"$tmp/c$e.out" 2>"$tmp/c$e.err" &
	pids+=("$!")
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
pids=()
if [ "$rc" -ne 0 ]; then
	echo "FAIL: an agent exited with an error"
	cat "$tmp"/*.err
	exit 1
fi

for f in lagcomp-srv.csv shots-srv.csv; do
	[ -s "$tmp/$f" ] || { echo "FAIL: $f missing"; exit 1; }
done

# metrics row by column name
col() {
	awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i }
		NR == 2 { print $h[c] }' "$tmp/lagcomp-srv.csv"
}
shots=$(col shots)
registered=$(col registered)
mode=$(col mode)
rows=$(($(wc -l <"$tmp/shots-srv.csv") - 1))
echo "server: mode $mode, $shots shots, $registered registered"
[ "$mode" = alc ] || { echo "FAIL: mode $mode"; exit 1; }
[ "$shots" -gt 0 ] || { echo "FAIL: no shots reached the server"; exit 1; }
[ "$rows" -eq "$shots" ] || { echo "FAIL: $rows verdict rows, $shots shots"; exit 1; }
[ "$registered" -gt 0 ] || { echo "FAIL: no hit registered"; exit 1; }
grep -q ' 0 refused' "$tmp/srv.err" || {
	echo "FAIL: the server refused datagrams:"
	cat "$tmp/srv.err"
	exit 1
}

# shots by client = shots judged by the server for that shooter
for e in 0 1 2 3; do
	sent=$(sed -n 's/.* shots=\([0-9]*\).*/\1/p' "$tmp/c$e.out")
	judged=$(awk -F, -v e="$e" 'NR > 1 && $3 == e' "$tmp/shots-srv.csv" |
		wc -l)
	if [ "$judged" -gt "$sent" ] || [ "$judged" -lt $((sent - 1)) ]; then
		echo "FAIL: client $e sent $sent shots, server judged $judged"
		exit 1
	fi
done
# A game file that is not one (RECKON_FPS_GAME, as reckond sets it)
# fails the client at its start, saying why.
head -c 1000 /dev/zero >"$tmp/junk.bin"
if RECKON_FPS_GAME=$tmp/junk.bin "$agent" fps-client --entity 0 \
	--server "127.0.0.1:$port" "${common[@]}" 2>"$tmp/junk.err"; then
	echo "FAIL: a client started on a junk game file"
	exit 1
fi
grep -q "junk.bin: not an fps game file (bad magic)" "$tmp/junk.err" || {
	echo "FAIL: the junk game file's refusal: $(cat "$tmp/junk.err")"
	exit 1
}
echo "ok: fps-server and 4 fps-clients over UDP, every shot judged; a junk game file refused"
