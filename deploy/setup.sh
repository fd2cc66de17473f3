#!/usr/bin/env bash
# deploy/setup.sh: the set-up both README commands share. Installs the Debian
# packages reckon needs (as root with apt-get; as a normal user it prints the
# exact command and stops), then configures and builds into build/.
# Idempotent: with everything installed it goes straight to an incremental
# build.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${RECKON_BUILD:-$here/build}

# Build and run dependencies, then what the tests use (tools we did not
# write, driven through the emulator; chromium renders the results pages
# headless in tests/daemon/index_html.sh).
pkgs=(build-essential cmake pkg-config libevent-dev libnl-3-dev
	libnl-route-3-dev libpcap-dev libiniparser-dev libcriterion-dev
	iproute2 iputils-ping iperf3 tshark gnuplot-nox procps chromium)

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
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
fi

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
