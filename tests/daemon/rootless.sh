#!/usr/bin/env bash
# rootless.sh: user `nobody` runs ping-delay.ini with no privileges: reckond
# enters an unprivileged user namespace and builds the same hub and hosts
# inside it. Skipped where unprivileged user namespaces are disabled or
# nobody cannot reach the build tree.
#
#   [user ns of nobody] ns a ==veth== [hub: bridge, 25 ms each way] ==veth== ns b
#
. "$(dirname "$0")/lib.sh"
need_root
need_tool setpriv
need_tool ping
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
id nobody >/dev/null 2>&1 || skip "no user nobody"
getent group nogroup >/dev/null || skip "no group nogroup"
as_nobody unshare -Urn true 2>/dev/null ||
	skip "unprivileged user namespaces are disabled (sysctl kernel.unprivileged_userns_clone / user.max_user_namespaces)"
as_nobody test -x "$reckond" -a -r "$here/ping-delay.ini" ||
	skip "user nobody cannot reach $reckond or $here"

mkdir "$tmp/u" && chown nobody:nogroup "$tmp/u"
(cd "$tmp/u" && as_nobody env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$tmp/u" \
	"$reckond" -q -s "$tmp/u/sock" run "$here/ping-delay.ini") >"$tmp/out" 2>"$tmp/err"
rc=$?
rundir=$(sed -n 's/^results: //p' "$tmp/out")
[ "$rc" -eq 0 ] || fail "reckond as nobody exited with $rc"
grep -q 'unprivileged user namespace' "$tmp/err" || fail "reckond did not say it ran rootless"
[ "$(stat -c %U "$rundir/hosts.csv")" = nobody ] || fail "results not owned by nobody"
median=$(sed -n 's/.*time=\([0-9.]*\) ms.*/\1/p' "$rundir/hosts/a.log" | sort -n |
	awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
# netem never delivers early; a busy machine only adds (ping_delay.sh)
awk -v m="$median" 'BEGIN { exit !(m >= 50 && m < 75) }' ||
	fail "median RTT '$median' ms as nobody, expected 50 ms (in [50, 75))"
pass "nobody ran the scenario rootless; median RTT $median ms"
