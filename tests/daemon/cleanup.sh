#!/usr/bin/env bash
# cleanup.sh: `reckond cleanup` removes what a dead daemon could leave: a
# named namespace /run/netns/reckon-* and reckon-* interfaces. It runs in a
# private network and mount namespace (own /run/netns) so it cannot touch
# anything outside the test.
#
#   [test netns] reckon-t$$ ==veth== reckon-u$$ ; /run/netns/reckon-cleanup (tmpfs)
#
. "$(dirname "$0")/lib.sh"
need_root
need_tool ip
need_tool unshare
# A private mount namespace keeps the test's /run/netns to itself. In a
# chroot whose / is not a mount point that cannot be had; say so.
unshare -m --propagation private true 2>/dev/null ||
	skip "cannot make a private mount namespace here (a chroot whose / is not a mount point?)"

unshare -n -m --propagation private bash -s "$reckond" <<'INNER' >"$tmp/err" 2>&1
set -e
reckond=$1
mkdir -p /run/netns
mount -t tmpfs reckon-test /run/netns
ip link set lo up
ip netns add reckon-cleanup
ip link add reckon-t$$ type veth peer name reckon-u$$
ip link add keep-me type veth peer name keep-me2
"$reckond" cleanup
! ip netns list | grep -q reckon-cleanup
! ip link show reckon-t$$ 2>/dev/null
! ip link show reckon-u$$ 2>/dev/null
ip link show keep-me >/dev/null
"$reckond" cleanup 2>&1 | grep -q 'removed 0 object'
echo inner-ok
INNER
grep -q inner-ok "$tmp/err" || fail "cleanup left objects or removed others"
grep -q 'removed 2 object' "$tmp/err" || fail "expected 2 objects removed (namespace, veth pair)"
pass "named namespace and veth pair removed, other interfaces kept"
