#!/usr/bin/env bash
# refused.sh: a scenario that fails `reckond -n` is refused by `reckond
# run` and `reckond sim` before anything is started or built: for every
# tests/scenario/broken/*.ini both exit non-zero, print the same problems
# as -n, create no results directory, and (run, as root) leave the list
# of network namespaces as it was. Usage: refused.sh BUILD_DIR.
set -u
build=$(cd "${1:?usage: refused.sh BUILD_DIR}" && pwd) || exit 1
src=$(cd "$(dirname "$0")/../.." && pwd)
reckond=$build/daemon/reckond
[ -x "$reckond" ] || { echo "FAIL: no $reckond"; exit 1; }
tmp=$(mktemp -d /tmp/reckon-refused.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
root=0
[ "$(id -u)" -eq 0 ] && command -v ip >/dev/null && root=1
[ $root = 1 ] && ip netns list | sort >"$tmp/ns.before"

cd "$src/tests/scenario/broken" || exit 1
for ini in *.ini; do
	"$reckond" -n "$ini" 2>"$tmp/n.err"
	for cmd in sim run; do
		[ "$cmd" = run ] && [ $root = 0 ] && continue
		n=$((n + 1))
		# from the files' directory, as -n ran: relative paths in args
		# are the agents', which run in reckond's working directory
		"$reckond" -s "$tmp/r.sock" "$cmd" "$ini" >"$tmp/out" 2>"$tmp/err" </dev/null
		rc=$?
		if [ $rc -eq 0 ]; then
			echo "FAIL $ini: reckond $cmd exited 0"
			fail=1
		fi
		# the messages name the file by the path given; compare the rest
		grep -F -x -f "$tmp/n.err" "$tmp/err" >"$tmp/same"
		if [ "$(wc -l <"$tmp/same")" -ne "$(wc -l <"$tmp/n.err")" ]; then
			echo "FAIL $ini: reckond $cmd does not report what -n reports:"
			cat "$tmp/err"
			fail=1
		fi
		# a results directory (default: results/ here) would be new
		if [ -e results ]; then
			echo "FAIL $ini: reckond $cmd made results/$(ls results)"
			fail=1
			rm -rf results
		fi
	done
done
if [ $root = 1 ]; then
	ip netns list | sort >"$tmp/ns.after"
	if ! diff "$tmp/ns.before" "$tmp/ns.after"; then
		echo "FAIL: network namespaces changed"
		fail=1
	fi
fi
echo "refused.sh: $n refusals checked$([ $root = 0 ] && echo ' (run skipped: not root)'), $([ $fail = 0 ] && echo all passed || echo FAILURES)"
exit $fail
