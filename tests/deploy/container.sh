#!/usr/bin/env bash
# container.sh BUILD: the image of deploy/Containerfile runs a scenario.
# Installs the optional package group `container` (podman, runc,
# debootstrap) when it is missing, makes the Debian 12 base image from
# this machine's mirror (kept once made, under
# localhost/reckon-base:bookworm), builds the image as
# localhost/reckon:test (the package layer stays cached, so a rerun only
# recompiles), then:
# 1. `reckond run scenarios/ping.ini` in a container with every capability
#    dropped but SYS_ADMIN, NET_ADMIN and NET_RAW writes its results into
#    a mounted directory: both hosts ok, ping got its 5 replies, the
#    bridge counted 5 requests and 5 replies each way;
# 2. without SYS_ADMIN the same run fails at set-up (reckond cannot
#    create a namespace), so the capability is really needed;
# 3. a simulated sweep (tests/sweep/tiny.ini) runs with no capability at
#    all and equals, file for file, the same sweep run by the host's build;
# 4. reckond.service under systemd: the image with systemd as PID 1
#    (deploy/container/Containerfile.systemd) boots, the installed unit
#    starts as the user reckon with its sandbox (empty bounding set,
#    no_new_privs, seccomp), runs ping.ini queued with reckonctl into
#    /var/lib/reckon, and stops cleanly, its socket removed.
# Skips (77), saying what is missing, when not root, when the packages
# cannot be installed, or when this kernel cannot run a container.
# RECKON_ENGINE=docker uses docker instead of podman.
set -euo pipefail
build=$(cd "${1:?usage: container.sh BUILD_DIR}" && pwd)
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
engine=${RECKON_ENGINE:-podman}
tag=localhost/reckon:test
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
. "$src/deploy/container/engine.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root (debootstrap and a rootful $engine)"

if ! command -v "$engine" >/dev/null || ! command -v debootstrap >/dev/null; then
	echo "installing the package group container (deploy/setup.sh --packages container)"
	if [ "$engine" = docker ]; then
		pk=(docker.io debootstrap)
		apt-get install -y -qq --no-install-recommends "${pk[@]}" </dev/null >/dev/null 2>&1 ||
			skip "could not install ${pk[*]}"
	else
		"$src/deploy/setup.sh" --packages container >/dev/null 2>&1 ||
			skip "could not install the package group container (podman runc debootstrap)"
	fi
fi
tmp=$(mktemp -d /tmp/reckon-container.XXXXXX)
ctr=
cleanup() {
	[ -z "$ctr" ] || engine rm -f "$ctr" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT

t0=$(date +%s)
"$src/deploy/container/base-image.sh" "$engine" 2>"$tmp/base.log" ||
	skip "no base image: $(tail -n 5 "$tmp/base.log")"
# can this machine run a container at all?
engine run --rm --cap-drop=all localhost/reckon-base:bookworm true 2>"$tmp/probe.log" ||
	skip "$engine cannot run a container here: $(tail -n 3 "$tmp/probe.log")"
t1=$(date +%s)
"$src/deploy/container/build.sh" "$engine" "$tag" >"$tmp/build.log" 2>&1 || {
	tail -n 30 "$tmp/build.log"
	fail "the image did not build"
}
t2=$(date +%s)
echo "base image ready in $((t1 - t0)) s, reckon image built in $((t2 - t1)) s"

# 1. a scenario with three capabilities, results on a volume
mkdir "$tmp/out"
engine run --rm --cap-drop=all --cap-add=SYS_ADMIN,NET_ADMIN,NET_RAW \
	-v "$tmp/out:/data" -w /data "$tag" \
	reckond -q run /opt/reckon/scenarios/ping.ini >"$tmp/run.out" 2>"$tmp/run.err" ||
	fail "reckond run in the container failed: $(tail -n 20 "$tmp/run.err")"
run=$(ls -d "$tmp"/out/results/ping-* 2>/dev/null | head -n 1)
[ -n "$run" ] || fail "no results/ping-* on the volume: $(cat "$tmp/run.out")"
grep -qx "results: /data/results/$(basename "$run")" "$tmp/run.out" ||
	fail "reckond named another directory: $(cat "$tmp/run.out")"
grep -q '^1,a,10.77.0.1,[0-9]*,0,ok$' "$run/hosts.csv" || fail "host a: $(cat "$run/hosts.csv")"
grep -q '5 packets transmitted, 5 received' "$run/hosts/a.log" ||
	fail "ping: $(cat "$run/hosts/a.log")"
# ICMP echo requests a->b and replies b->a: at least the 5 pings each way
# (ARP frames count too), nothing dropped on an unimpaired-loss link
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ if ($col["in"] < 5 || $col["delivered"] != $col["in"]) bad++ }
	END { exit bad || NR < 3 }' "$run/counters.csv" ||
	fail "counters: $(cat "$run/counters.csv")"
echo "ping.ini in the container (SYS_ADMIN NET_ADMIN NET_RAW): results on the volume"

# 2. SYS_ADMIN is needed
if engine run --rm --cap-drop=all --cap-add=NET_ADMIN,NET_RAW -w /tmp "$tag" \
	reckond -q run /opt/reckon/scenarios/ping.ini >"$tmp/nosys.out" 2>&1; then
	fail "reckond ran without CAP_SYS_ADMIN"
fi
grep -q 'Operation not permitted' "$tmp/nosys.out" ||
	fail "without SYS_ADMIN reckond failed for another reason: $(cat "$tmp/nosys.out")"
echo "without SYS_ADMIN: $(grep -m1 'Operation not permitted' "$tmp/nosys.out")"

# 3. a simulated sweep with no capability, equal to the host's
mkdir "$tmp/sweep"
cp "$src/tests/sweep/tiny.ini" "$tmp/sweep/tiny.ini"
engine run --rm --cap-drop=all -v "$tmp/sweep:/data" -w /data "$tag" \
	reckond -q sweep -j 2 -o /data/in-container /data/tiny.ini >/dev/null 2>"$tmp/sweep.err" ||
	fail "sweep in the container: $(tail -n 10 "$tmp/sweep.err")"
"$build/daemon/reckond" -q sweep -j 2 -o "$tmp/sweep/on-host" "$tmp/sweep/tiny.ini" >/dev/null
for f in sweep.csv grid.csv; do
	cmp "$tmp/sweep/in-container/$f" "$tmp/sweep/on-host/$f" || fail "$f differs between the container and the host"
done
echo "simulated sweep with no capability: sweep.csv and grid.csv equal the host's"

# 4. the systemd unit under systemd (podman's --systemd mode sets up the
# mounts systemd needs as PID 1; docker has no such mode)
if [ "$engine" != podman ]; then
	echo "PASS: image built, ping.ini ran with 3 capabilities, SYS_ADMIN needed, sweep equals the host's (the unit under systemd needs podman)"
	exit 0
fi
engine_build "${tag%:*}-systemd:test" --build-arg "BASE=$tag" \
	-f "$src/deploy/container/Containerfile.systemd" "$src/deploy/container" \
	>"$tmp/sd-build.log" 2>&1 || { tail -n 20 "$tmp/sd-build.log"; fail "the systemd image did not build"; }
ctr=$(engine run -d --privileged --systemd=always "${tag%:*}-systemd:test" /sbin/init) ||
	fail "systemd did not start in a container"
inside() { engine exec "$ctr" sh -c "$1"; }
for _ in $(seq 100); do
	st=$(inside 'systemctl is-system-running' 2>/dev/null || true)
	case $st in running | degraded) break ;; esac
	sleep 0.2
done
case $st in running | degraded) ;; *) fail "systemd in the container: '$st'" ;; esac
inside 'systemd-sysusers && systemctl daemon-reload && systemctl start reckond' ||
	fail "systemctl start reckond: $(inside 'journalctl -u reckond --no-pager | tail -n 20')"
pid=$(inside 'systemctl show -p MainPID --value reckond')
[ "$(inside "stat -c %U /proc/$pid")" = reckon ] || fail "reckond does not run as reckon"
inside "grep -q '^NoNewPrivs:[[:space:]]*1' /proc/$pid/status && grep -q '^Seccomp:[[:space:]]*2' /proc/$pid/status" ||
	fail "no no_new_privs or seccomp: $(inside "grep -E 'NoNewPrivs|Seccomp' /proc/$pid/status")"
[ "$(inside 'systemctl show -p CapabilityBoundingSet --value reckond')" = "" ] ||
	fail "the unit keeps capabilities"
inside 'cp /opt/reckon/scenarios/ping.ini /var/lib/reckon/ && cd /var/lib/reckon &&
	reckonctl -s /run/reckon/reckond.sock run ping.ini' >/dev/null || fail "reckonctl run through the unit's socket"
for _ in $(seq 150); do
	inside 'reckonctl -s /run/reckon/reckond.sock status -j' | grep -q '"done": 1' && break
	sleep 0.2
done
inside 'reckonctl -s /run/reckon/reckond.sock status -j' | grep -q '"done": 1, "failed": 0' ||
	fail "the service did not run ping.ini: $(inside 'journalctl -u reckond --no-pager | tail -n 20')"
inside 'grep -q "^1,a,10.77.0.1,[0-9]*,0,ok$" /var/lib/reckon/results/ping-*/hosts.csv &&
	grep -q "5 received" /var/lib/reckon/results/ping-*/hosts/a.log &&
	[ "$(stat -c %U /var/lib/reckon/results/ping-*/hosts.csv)" = reckon ]' ||
	fail "ping.ini under the unit: $(inside 'cat /var/lib/reckon/results/ping-*/hosts.csv /var/lib/reckon/results/ping-*/hosts/a.log')"
inside 'systemctl stop reckond && ! systemctl is-active -q reckond && [ ! -e /run/reckon/reckond.sock ]' ||
	fail "reckond did not stop cleanly: $(inside 'journalctl -u reckond --no-pager | tail -n 5')"
echo "reckond.service under systemd (in the image): sandboxed as reckon, ran ping.ini, stopped"
engine rm -f "$ctr" >/dev/null
ctr=
echo "PASS: image built, ping.ini ran with 3 capabilities, SYS_ADMIN needed, sweep equals the host's, the unit runs under systemd"
