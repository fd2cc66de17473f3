#!/bin/bash
# bench_fps_bridge.sh: a crowded lag-compensation match through the
# userspace bridge, then the same match in the simulator. One TLC
# fps-server and N fps-clients play SECS seconds (default 10) at 60 Hz over
# 8 ms links under `reckond run` (network namespaces; needs root). Prints:
#   - the agents' timer lateness (wake-up - due time, as each agent
#     prints it at its end): the server's p50/p99/max, and over the
#     clients the median p50, the largest p99 and the largest max;
#   - reckond's CPU time (user + system, /proc/PID/stat; the bridge runs
#     in it) per frame the bridge took in, frames from counters.csv;
#   - frames dropped: by the links' queue limits (drop_limit), the
#     server's failed sends (its socket buffer full), and snapshots lost
#     end to end (sent by the server - received by the clients, which
#     also counts those in flight at the end);
#   - whether reckond marked the run degraded (run.json: an agent's
#     timer fired more than one tick late, or the bridge lost frames);
#   - `reckond sim`'s progress line for the same file (speed over real
#     time).
# Prints; asserts nothing.
#
# N defaults to 64: with the server, the scenario's 65-host limit.
# LEAD (seconds, default 0) moves t0 to LEAD s after reckond starts, an
# absolute --start-ns for every agent, so that the start-up (namespaces,
# 64 clients generating the bot game) is over before play starts; 0
# leaves t0 to reckond (0.5 s + 25 ms per host after it starts the
# hosts). The simulated run always uses reckond's own start.
#
# The server host runs at SRV_NICE (scenario key nice; default -10), the
# clients at 0, reckond's bridge at RECKON_BRIDGE_NICE (default -10).
# KEEP=1 in the environment keeps the run's directory and prints it;
# FIFO=PRIO runs reckond (its bridge) under SCHED_FIFO PRIO, its agents
# as normal processes (chrt --reset-on-fork).
#
# usage: bench_fps_bridge.sh BUILD_DIR [N [SECS [LEAD]]]   (77: not root)
build=$(cd "${1:?usage: $0 BUILD_DIR [N [SECS [LEAD]]]}" && pwd)
n=${2:-64}
secs=${3:-10}
lead=${4:-0}
src=$(cd "$(dirname "$0")/../.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	if [ -n "$KEEP" ]; then echo "kept: $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
export RECKON_MAP_DIR=$src/scenarios/maps RECKON_AGENT=$build/agents/reckon-agent
# scenario START: START is "" or " --start-ns T0" for every host's args
scenario() {
	printf '[scenario]\nname = lc-bridge-%d\nduration = %ds\nseed = 3\n' \
		"$n" $((secs + 4 + lead))
	printf 'results = %s/results\n\n[host srv]\nrole = fps-server\n' "$tmp"
	printf 'nice = %d\n' "${SRV_NICE:--10}"
	printf 'args = --mode tlc --map dust --port 47100 --duration %d%s\n\n' \
		"$secs" "$1"
	for e in $(seq 0 $((n - 1))); do
		printf '[host c%d]\nrole = fps-client\n' "$e"
		printf 'args = --entity %d --server {addr:srv}:47100 --map dust ' "$e"
		printf -- '--bots %d --duration %d%s\n\n' "$n" "$secs" "$1"
	done
	printf '[defaults]\nlink = delay 8ms\n'
}
scenario "" >"$tmp/sim.ini"
start=
[ "$lead" -gt 0 ] && start=" --start-ns $(( $("$build/agents/reckon-agent" now) + lead * 1000000000 ))"
scenario "$start" >"$tmp/m.ini"

(cd "$tmp" && exec ${FIFO:+chrt -R -f "$FIFO"} "$build/daemon/reckond" -q -s "$tmp/s.sock" run "$tmp/m.ini") \
	>"$tmp/out" 2>"$tmp/err" &
pid=$!
tck=$(getconf CLK_TCK)
cpu=0
while kill -0 "$pid" 2>/dev/null; do
	c=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null) && cpu=$c
	sleep 0.2
done
wait "$pid"
rc=$?
pid=
dir=$(sed -n 's/^results: //p' "$tmp/out")
[ -d "$dir" ] || { echo "reckond run failed ($rc):"; tail "$tmp/err"; exit 1; }

echo "emulated: 1 server + $n clients, $secs s at 60 Hz, userspace bridge${start:+, t0 $lead s after reckond started}"
lat() { sed -n 's/.*timer lateness p50 \(-*[0-9]*\) us p99 \(-*[0-9]*\) us max \(-*[0-9]*\) us.*/\1 \2 \3/p' "$@"; }
read -r s50 s99 smax < <(lat "$dir/hosts/srv.log")
echo "  server timer lateness: p50 ${s50:-?} us, p99 ${s99:-?} us, max ${smax:-?} us"
lat "$dir"/hosts/c*.log | sort -n | awk '
	{ p50[NR] = $1; if ($2 > p99) p99 = $2; if ($3 > mx) mx = $3 }
	END { printf "  clients (%d) timer lateness: median p50 %d us, largest p99 %d us, largest max %d us\n",
		NR, p50[int((NR + 1) / 2)], p99, mx }'
awk -F, -v cpu="$cpu" -v tck="$tck" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ in_ += $c["in"]; lim += $c["drop_limit"] }
	END { printf "  bridge: %d frames in, reckond CPU %.2f s, %.1f us per frame; %d dropped by queue limits\n",
		in_, cpu / tck, in_ ? cpu / tck / in_ * 1e6 : 0, lim }' "$dir/counters.csv"
sent=$(sed -n 's/.* \([0-9]*\) snapshot PDUs, .*/\1/p' "$dir/hosts/srv.log")
dgrams=$(sed -n 's/.* \([0-9]*\) sent$/\1/p' "$dir/hosts/srv.log")
got=$(sed -n 's/.* snapshots=\([0-9]*\).*/\1/p' "$dir"/hosts/c*.log | awk '{ s += $1 } END { print s + 0 }')
failed=$(sed -n 's/.*: \([0-9]*\) sends failed$/\1/p' "$dir/hosts/srv.log")
echo "  snapshots: server sent ${sent:-?} player states in ${dgrams:-?} datagrams" \
	"(sendto failed ${failed:-0} times), clients received $got" \
	"(lost or in flight: $(( ${sent:-0} - got )))"
sed -n 's/.*"emulation": \(.*\),$/  run.json emulation: \1/p' "$dir/run.json"
mkdir -p "$tmp/sim"
echo "simulated, the same file:"
(cd "$tmp/sim" && "$build/daemon/reckond" sim "$tmp/sim.ini" 2>&1 | grep ': rep ')
