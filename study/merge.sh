#!/usr/bin/env bash
# merge.sh [-b BUILD] OUT SHARD_OUT...: joins the grids of a sharded
# study (`study/run.sh --shard I/N -o SHARD_OUT` on each node) into OUT
# with `reckonctl merge` (byte for byte the unsharded sweeps), then
# prints every table into OUT/tables.md (study/tables.sh).
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build
if [ "${1:-}" = -b ]; then
	build=${2:?usage: merge.sh [-b BUILD] OUT SHARD_OUT...}
	shift 2
fi
[ $# -ge 2 ] || { echo "usage: merge.sh [-b BUILD] OUT SHARD_OUT..." >&2; exit 2; }
out=$1
shift
ctl=$build/daemon/reckonctl
[ -x "$ctl" ] || ctl=$(find "$build" -name reckonctl -type f -perm -u+x | head -n 1)
[ -x "$ctl" ] || { echo "merge.sh: reckonctl is not built in $build" >&2; exit 1; }
mkdir -p "$out"
. "$root/study/grids.sh"
for g in $STUDY_GRIDS; do
	shards=()
	for s in "$@"; do shards+=("$s/$g"); done
	rm -rf "${out:?}/$g"
	"$ctl" merge "$out/$g" "${shards[@]}"
done
"$root/study/tables.sh" "$out" >"$out/tables.md"
echo "merged into $out; tables in $out/tables.md"
