#!/usr/bin/env bash
# deploy/container/build.sh [ENGINE] [TAG]: the reckon image from scratch:
# the base image (base-image.sh, kept once made), then deploy/Containerfile
# built from the repository root as TAG (default localhost/reckon). ENGINE
# is podman (default) or docker. The previous image of TAG is removed when
# the build replaced it, so reruns do not pile up images.
set -euo pipefail
engine=${1:-podman}
tag=${2:-localhost/reckon}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../.." && pwd)
. "$here/engine.sh"

"$here/base-image.sh" "$engine"
engine_build "$tag" --build-arg "BASE=${RECKON_BASE_IMAGE:-localhost/reckon-base:bookworm}" \
	-f "$src/deploy/Containerfile" "$src"
