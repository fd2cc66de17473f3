#!/usr/bin/env bash
# systemd.sh BUILD: deploy/systemd/reckond.service as systemd reads it, and
# the privilege model it relies on.
# 1. The whole project is installed with DESTDIR into a temporary root,
#    with a copy of this machine's systemd units beside it (for the
#    targets the unit names); systemd-sysusers creates the user reckon in
#    that root from the installed sysusers.d entry.
# 2. `systemd-analyze verify --root` loads the installed unit (its man
#    pages found in the root, its ExecStart the installed reckond) and
#    prints nothing: no unknown key, no missing binary or page.
# 3. `systemd-analyze security --offline` confirms what the unit's
#    comment promises: no capability in the bounding set, no new
#    privileges, no mount/ipc/uts/cgroup namespaces, user/net/pid allowed.
# 4. The unit's command runs a queued scenario as an unprivileged user
#    with an empty capability bounding set and no_new_privs (setpriv), as
#    the unit starts it: reckond holds its capabilities only inside its
#    own user namespace. (Where PID 1 is not systemd the unit cannot be
#    started here; deploy_container starts it under systemd in the image.)
set -euo pipefail
build=$(cd "${1:?usage: systemd.sh BUILD_DIR}" && pwd)
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" -eq 0 ] || skip "needs root (setpriv to another user)"
for t in systemd-analyze systemd-sysusers setpriv ping; do
	command -v $t >/dev/null || fail "$t is not installed (deploy/setup.sh installs systemd, util-linux, iputils-ping)"
done
[ -d /usr/lib/systemd/system ] || fail "no /usr/lib/systemd/system to copy the targets from"
tmp=$(mktemp -d /tmp/reckon-systemd.XXXXXX)
chmod 755 "$tmp"
svc_pid=
cleanup() {
	if [ -n "$svc_pid" ] && kill -0 "$svc_pid" 2>/dev/null; then
		kill -TERM "$svc_pid"
		for _ in $(seq 50); do kill -0 "$svc_pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$svc_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

# 1. install into a root of our own
root=$tmp/root
DESTDIR=$root cmake --install "$build" >"$tmp/install.log"
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")
unit=$root$prefix/lib/systemd/system/reckond.service
[ -f "$unit" ] || fail "cmake --install put no reckond.service in $prefix/lib/systemd/system"
grep -qx "ExecStart=$prefix/bin/reckond -d -s /run/reckon/reckond.sock" "$unit" ||
	fail "ExecStart does not name the installed reckond: $(grep ExecStart "$unit")"
mkdir -p "$root/etc" "$root/usr/lib/systemd"
cp -a /usr/lib/systemd/system "$root/usr/lib/systemd/"
systemd-sysusers --root="$root" "$root$prefix/lib/sysusers.d/reckon.conf" 2>"$tmp/sysusers.log" ||
	fail "systemd-sysusers: $(cat "$tmp/sysusers.log")"
grep -q '^reckon:x:[0-9]*:[0-9]*:.*:/var/lib/reckon:' "$root/etc/passwd" ||
	fail "no user reckon in the root's passwd: $(cat "$root/etc/passwd")"

# 2. verify
export MANPATH=$root$prefix/share/man
(cd "$tmp" && systemd-analyze verify --root="$root" reckond.service) >"$tmp/verify.log" 2>&1 ||
	fail "systemd-analyze verify failed: $(cat "$tmp/verify.log")"
[ ! -s "$tmp/verify.log" ] || fail "systemd-analyze verify complained: $(cat "$tmp/verify.log")"
echo "systemd-analyze verify: reckond.service loads cleanly"

# 3. the sandbox's promises
(cd "$tmp" && systemd-analyze security --offline=yes --root="$root" --no-pager reckond.service) \
	>"$tmp/security.log" 2>&1 || fail "systemd-analyze security: $(tail -n 5 "$tmp/security.log")"
has() { grep -qE "^$1 $2 " "$tmp/security.log" || fail "security: expected '$1 $2': $(grep -F "$2" "$tmp/security.log")"; }
caps=$(grep -cE '^✗ CapabilityBoundingSet=' "$tmp/security.log" || true)
[ "$caps" -eq 0 ] || fail "the bounding set keeps capabilities: $(grep -E '^✗ CapabilityBoundingSet=' "$tmp/security.log")"
has ✓ 'NoNewPrivileges='
has ✓ 'PrivateNetwork='
has ✓ 'ProtectSystem='
for ns in mnt ipc uts cgroup; do has ✓ "RestrictNamespaces=~$ns"; done
for ns in user net pid; do has ✗ "RestrictNamespaces=~$ns"; done
grep -F 'Overall exposure level' "$tmp/security.log"

# 4. the privilege model: the unit's user and capabilities, by hand
state=$tmp/state
mkdir -m 700 "$state" "$state/run"
chown nobody:nogroup "$state" "$state/run"
cp "$src/scenarios/ping.ini" "$state/ping.ini"
chown nobody:nogroup "$state/ping.ini"
sock=$state/run/reckond.sock
(cd "$state" && exec setpriv --reuid=nobody --regid=nogroup --clear-groups \
	--bounding-set=-all --inh-caps=-all --no-new-privs \
	"$root$prefix/bin/reckond" -d -s "$sock") >"$tmp/svc.out" 2>"$tmp/svc.err" &
svc_pid=$!
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
if [ ! -S "$sock" ]; then
	if grep -q 'user namespaces are unavailable' "$tmp/svc.err"; then
		skip "unprivileged user namespaces are disabled here, which the unit needs: $(cat "$tmp/svc.err")"
	fi
	fail "the service made no socket: $(cat "$tmp/svc.err")"
fi
grep -q 'unprivileged user namespace' "$tmp/svc.err" || fail "not in a user namespace: $(cat "$tmp/svc.err")"
# its capabilities (a full set) are those of uid 0 in its own user
# namespace; on the machine it is nobody
[ "$(readlink /proc/$svc_pid/ns/user)" != "$(readlink /proc/self/ns/user)" ] ||
	fail "the service shares this user namespace"
grep -qE '^Uid:[[:space:]]+65534[[:space:]]' /proc/$svc_pid/status ||
	fail "the service is not nobody: $(grep Uid /proc/$svc_pid/status)"
(cd "$state" && "$root$prefix/bin/reckonctl" -s "$sock" run ping.ini) >"$tmp/queue.out" ||
	fail "queueing ping.ini failed: $(cat "$tmp/queue.out")"
for _ in $(seq 300); do
	"$root$prefix/bin/reckonctl" -s "$sock" status -j | grep -q '"done": 1' && break
	sleep 0.1
done
"$root$prefix/bin/reckonctl" -s "$sock" status -j | grep -q '"done": 1, "failed": 0' ||
	fail "the run did not finish: $("$root$prefix/bin/reckonctl" -s "$sock" status -j; cat "$tmp/svc.err")"
run=$(ls -d "$state"/results/ping-* | head -n 1)
grep -q '^1,a,10.77.0.1,[0-9]*,0,ok$' "$run/hosts.csv" || fail "ping did not succeed: $(cat "$run/hosts.csv")"
[ "$(stat -c %U "$run/hosts.csv")" = nobody ] || fail "results not owned by the service's user"
grep -q '5 received' "$run/hosts/a.log" || fail "ping lost replies: $(cat "$run/hosts/a.log")"
"$root$prefix/bin/reckonctl" -s "$sock" shutdown >/dev/null
wait "$svc_pid" || fail "the service exited with $?"
svc_pid=
echo "service as nobody, no capabilities, no_new_privs: ping.ini ran, results owned by nobody"
if [ "$(cat /proc/1/comm)" != systemd ]; then
	echo "note: PID 1 is $(cat /proc/1/comm), not systemd: deploy_container starts the unit under systemd"
fi
echo "PASS: reckond.service verified, sandbox as documented, privilege model runs a scenario"
