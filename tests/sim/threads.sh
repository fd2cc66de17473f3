#!/bin/bash
# threads.sh BUILD_DIR: the simulator's two threads change nothing. A
# lag-compensation match (an ALC server and 24 clients; every link loses,
# duplicates and corrupts, the even players' links have a fixed delay and
# a queue limit of two, so their datagrams arrive at the same instants
# and the server, listed last, sends its hit notices while a tick's
# snapshots are due and still queued; the odd players' are 250 ms further
# away with jitter and reordering) is simulated with RECKON_SIM_THREADS=1 and =2;
# every result file that does not hold a date or a wall time must be the
# same byte for byte, and the two-thread run must have run events side by
# side (its progress line says how many). A bad value is refused by name.
#
#   reckond sim (1 thread) ---\
#                              >-- cmp every result file
#   reckond sim (2 threads) --/
. "$(dirname "$0")/lib.sh" "$@"

n=24
{
	printf '[scenario]\nname = threads\nduration = 16s\nseed = 5\n'
	printf 'results = %s/results\n\n' "$tmp"
	for e in $(seq 0 $((n - 1))); do
		printf '[host c%d]\nrole = fps-client\n' "$e"
		printf 'args = --entity %d --server {addr:srv}:47100 ' "$e"
		printf -- '--map dust --bots %d --duration 12\n\n' "$n"
	done
	printf '[host srv]\nrole = fps-server\n'
	printf 'args = --mode alc --map dust --port 47100 --duration 12\n\n'
	printf '[defaults]\n'
	printf 'link = delay 8ms loss 3%% duplicate 1%% corrupt 0.5%% limit 2\n\n'
	for e in $(seq 1 2 $((n - 1))); do
		printf '[link srv c%d]\nboth = delay 133ms 30ms loss 5%% 25%% ' "$e"
		printf 'reorder 10%% corrupt 0.5%%\n\n'
	done
} >"$tmp/threads.ini"

for t in 1 2; do
	RECKON_SIM_THREADS=$t reckond_do t$t sim "$tmp/threads.ini"
	[ "$rc" -eq 0 ] || fail "reckond sim with $t thread(s) exited $rc"
	eval "dir$t=\$rundir"
done
line=$(grep ': rep 1/1: ' "$tmp/t2.err" "$tmp/t2.out" | head -n 1)
echo "two threads: $line"
echo "$line" | grep -q ' on two threads' ||
	fail "the two-thread run ran no event side by side"
grep -q ' on two threads' "$tmp/t1.err" "$tmp/t1.out" &&
	fail "the one-thread run says it used two"

files=0
for f in $(cd "$dir1" && find . -type f \( -name '*.csv' -o -name '*.log' \) \
	! -name reckond.log | sort); do
	cmp -s "$dir1/$f" "$dir2/$f" || fail "$f differs between 1 and 2 threads"
	files=$((files + 1))
done
[ "$files" -ge $((n + 4)) ] || fail "only $files result files compared"
sed -n 2p "$dir2/lagcomp-srv.csv" | grep -q . || fail "the server wrote no metrics"
pass "$files result files the same with one and two threads"

RECKON_SIM_THREADS=3 reckond_do bad sim "$tmp/threads.ini"
[ "$rc" -ne 0 ] || fail "RECKON_SIM_THREADS=3 was accepted"
grep -q "RECKON_SIM_THREADS='3': use 1 or 2" "$tmp/bad.err" "$tmp/bad.out" ||
	fail "RECKON_SIM_THREADS=3 refused without saying why"
pass "RECKON_SIM_THREADS=3 refused by name"
