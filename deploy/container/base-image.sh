#!/usr/bin/env bash
# deploy/container/base-image.sh [ENGINE]: makes the Debian 12 base image
# that deploy/Containerfile builds on, without a container registry:
# debootstrap a minimal bookworm root from this machine's own apt mirror
# and import it as localhost/reckon-base:bookworm with ENGINE (podman, the
# default, or docker). An image already there is kept (debootstrap takes
# minutes); RECKON_BASE_REBUILD=1 makes it anew. Needs root and debootstrap
# (deploy/setup.sh --packages container).
set -euo pipefail
engine=${1:-podman}
tag=${RECKON_BASE_IMAGE:-localhost/reckon-base:bookworm}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/engine.sh"

if [ "${RECKON_BASE_REBUILD:-0}" != 1 ] && engine image exists "$tag"; then
	echo "reckon: base image $tag exists" >&2
	exit 0
fi
[ "$(id -u)" -eq 0 ] || { echo "reckon: debootstrap needs root" >&2; exit 1; }
command -v debootstrap >/dev/null ||
	{ echo "reckon: debootstrap is missing: deploy/setup.sh --packages container" >&2; exit 1; }

# The Debian mirror apt uses here: the first URIs of a deb822 source or the
# first deb line, whichever this machine has.
mirror=$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\).*/\1/p' \
	/etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -n 1)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $0 !~ /security/ {
	for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' \
	/etc/apt/sources.list 2>/dev/null)
[ -n "$mirror" ] || { echo "reckon: no Debian mirror in /etc/apt/sources.list*" >&2; exit 1; }

root=$(mktemp -d /var/tmp/reckon-base.XXXXXX)
trap 'rm -rf "$root"' EXIT
echo "reckon: debootstrap bookworm from $mirror (a few minutes)" >&2
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.log" 2>&1 || {
	tail -n 20 "$root.log" >&2
	rm -f "$root.log"
	echo "reckon: debootstrap failed" >&2
	exit 1
}
rm -f "$root.log"
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
tar -C "$root" --numeric-owner -c . |
	engine import --change 'CMD ["/bin/bash"]' - "$tag" >/dev/null
echo "reckon: imported $tag" >&2
