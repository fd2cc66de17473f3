#!/usr/bin/env bash
# deploy/setup.sh: the set-up both README commands share. Installs the Debian
# packages reckon needs (as root with apt-get; as a normal user it prints the
# exact command and stops), then configures and builds into build/.
# Idempotent: with everything installed it goes straight to an incremental
# build.
#
# deploy/setup.sh --packages GROUP...: installs the packages of the named
# groups only, and builds nothing. The default set is the groups build, run
# and test; the optional groups are installed by the tests that need them, on
# demand (tests/deploy). The image of deploy/Containerfile installs build
# and run.
#   container  podman, runc and debootstrap: the image of deploy/Containerfile
#   cluster    Slurm (slurmctld, slurmd, client) and munge: deploy/slurm
#   k8s        Node.js and npm, when no node is on PATH: deploy/k8s checks
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${RECKON_BUILD:-$here/build}

# group_pkgs GROUP: the Debian packages of GROUP
group_pkgs() {
	case $1 in
	# what compiles reckon
	build) echo build-essential cmake pkg-config libevent-dev libnl-3-dev \
		libnl-route-3-dev libpcap-dev libiniparser-dev libcriterion-dev ;;
	# what runs beside it: the shipped scenarios' tools, sweep figures,
	# the study's and the papers' table scripts (study/, python3)
	run) echo iproute2 procps iputils-ping iperf3 gnuplot-nox python3 ;;
	# what only the tests use (tshark reads captures; man and
	# systemd-analyze check the man pages and the unit; strace shows what
	# tc sends; qemu-system-x86, busybox-static and cpio boot Debian's
	# kernel for the sch_netem test, tests/vm; clang builds the libFuzzer
	# targets CI runs; chromium renders `reckonctl view` pages and the
	# results page headless)
	test) echo tshark man-db groff-base systemd strace qemu-system-x86 \
		busybox-static cpio clang chromium ;;
	container) echo podman runc debootstrap ;;
	cluster) echo slurmctld slurmd slurm-client munge ;;
	k8s) command -v node >/dev/null && command -v npm >/dev/null ||
		echo nodejs npm ;;
	*) echo "reckon: unknown package group '$1'" >&2; return 1 ;;
	esac
}

groups=(build run test)
build_too=1
if [ "${1:-}" = --packages ]; then
	shift
	groups=("$@")
	build_too=0
	[ ${#groups[@]} -gt 0 ] || { echo "usage: setup.sh --packages GROUP..." >&2; exit 2; }
fi
pkgs=()
for g in "${groups[@]}"; do
	list=$(group_pkgs "$g") || exit 2
	pkgs+=($list)
done

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
	if [ "$(id -u)" -ne 0 ]; then
		echo "reckon: missing packages: ${missing[*]}" >&2
		echo "reckon: as root, run:  $cmd" >&2
		exit 1
	fi
	echo "reckon: installing ${missing[*]}" >&2
	# tshark asks whether non-root users may capture; answer it up front.
	echo "wireshark-common wireshark-common/install-setuid boolean false" |
		debconf-set-selections 2>/dev/null || true
	export DEBIAN_FRONTEND=noninteractive
	# another apt (unattended upgrades) may hold the lock for a while
	apt-get update -qq -o DPkg::Lock::Timeout=300
	apt-get install -y -qq --no-install-recommends \
		-o DPkg::Lock::Timeout=300 "${missing[@]}" </dev/null
fi
[ "$build_too" = 1 ] || exit 0

jobs=$(nproc 2>/dev/null || echo 2)
if [ ! -f "$build/CMakeCache.txt" ]; then
	cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" -j "$jobs" >/dev/null 2>"$build/build.err" || {
	cat "$build/build.err" >&2
	echo "reckon: build failed" >&2
	exit 1
}
echo "reckon: built in $build" >&2
