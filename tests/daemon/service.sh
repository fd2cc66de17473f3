#!/usr/bin/env bash
# service.sh: reckond as a service. Two scenarios queued with reckonctl run
# run one after the other and each leaves a results directory; a broken
# scenario is refused at submission with the parser's messages and does
# not disturb the queue; reckonctl shutdown ends the service.
#
#   reckonctl --unix socket--> reckond (queue) -> [ns a ==veth== hub ==veth== ns b] x 2
#
. "$(dirname "$0")/lib.sh"
need_root
need_tool ping

(cd "$tmp" && exec "$reckond" -d -s "$sock") >"$tmp/out" 2>"$tmp/err" &
bg_pid=$!
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || fail "service did not create $sock"
[ "$(stat -c %a "$sock")" = 600 ] || fail "socket mode is $(stat -c %a "$sock"), expected 600"

# a relative results directory is relative to the client's cwd
cd "$tmp"
"$reckonctl" -s "$sock" run "$here/quick.ini" | grep -q 'queued job #1' || fail "first submission"
"$reckonctl" -s "$sock" run "$here/quick.ini" | grep -q 'queued job #2: quick (position 2)' || fail "second submission"
if "$reckonctl" -s "$sock" run "$here/bad.ini" 2>"$tmp/bad"; then
	fail "a broken scenario was queued"
fi
grep -q 'bad.ini:[0-9]*:' "$tmp/bad" || fail "no file:line diagnostics for bad.ini: $(cat "$tmp/bad")"

for _ in $(seq 300); do
	"$reckonctl" -s "$sock" status -j | grep -q '"done": 2' && break
	sleep 0.1
done
"$reckonctl" -s "$sock" status -j | grep -q '"done": 2, "failed": 0, "queue": \[\], "rejected_requests": 0, "current": null' ||
	fail "queue did not finish: $("$reckonctl" -s "$sock" status -j)"
n=$(ls -d "$tmp"/results/quick-* | wc -l)
[ "$n" -eq 2 ] || fail "$n results directories, expected 2"
for d in "$tmp"/results/quick-*; do
	grep -q '^1,a,10.77.0.1,[0-9]*,0,ok$' "$d/hosts.csv" || fail "$d: host a did not succeed"
done
"$reckonctl" -s "$sock" shutdown >/dev/null || fail "shutdown"
wait "$bg_pid"; rc=$?; bg_pid=
[ "$rc" -eq 0 ] || fail "service exited with $rc"
[ ! -e "$sock" ] || fail "socket left behind"
pass "two queued runs, broken scenario refused, clean shutdown"
