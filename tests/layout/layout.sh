#!/usr/bin/env bash
# layout.sh BUILD_DIR: the layering check (check_layout.py) on the project,
# after showing on fixtures that each of its checks fails when it should:
# two .c files that call each other, two headers that include each other,
# and a pure-layer file that includes a daemon header.
set -euo pipefail
build=$(cd "${1:?usage: layout.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../.." && pwd)
check="python3 $here/check_layout.py"
command -v python3 >/dev/null || { echo "skip: python3 not found"; exit 77; }
command -v nm >/dev/null || { echo "skip: nm not found"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Fixture 1: a.c calls b.c and b.c calls a.c; c.c calls a.c only.
cat >"$tmp/a.c" <<'C'
int b(int);
int a(int x) { return x ? b(x - 1) : 0; }
C
cat >"$tmp/b.c" <<'C'
int a(int);
int b(int x) { return a(x); }
C
cat >"$tmp/c.c" <<'C'
int a(int);
int c(void) { return a(3); }
C
for f in a b c; do cc -c -o "$tmp/$f.o" "$tmp/$f.c"; done
out=$($check --calls "$tmp/a.o" "$tmp/b.o" "$tmp/c.o") && {
	echo "FAIL: the call ring a.c <-> b.c was not found"; exit 1; }
[ "$out" = "call cycle: a b" ] || { echo "FAIL: got '$out'"; exit 1; }
$check --calls "$tmp/a.o" "$tmp/c.o" >/dev/null ||
	{ echo "FAIL: a one-way call reported as a cycle"; exit 1; }

# Fixture 2: x.h includes y.h, y.h includes x.h.
mkdir "$tmp/inc"
printf '#include "y.h"\n' >"$tmp/inc/x.h"
printf '#include "x.h"\n' >"$tmp/inc/y.h"
printf '#include "x.h"\n' >"$tmp/inc/z.c"
out=$($check --includes "$tmp/inc") && {
	echo "FAIL: the include ring x.h <-> y.h was not found"; exit 1; }
[ "$out" = "include cycle: x.h y.h" ] || { echo "FAIL: got '$out'"; exit 1; }

# Fixture 3: a copy of the tree's netem/ and daemon/log/ where one netem
# file includes the daemon's log.h and one includes <pcap.h>.
mkdir -p "$tmp/tree"
cp -r "$src/netem" "$tmp/tree/"
mkdir -p "$tmp/tree/daemon/log" && cp "$src/daemon/log/log.h" "$tmp/tree/daemon/log/"
printf '#include "log.h"\n#include <pcap.h>\n' >>"$tmp/tree/netem/units.c"
mkdir -p "$tmp/tree/build" && echo '[]' >"$tmp/tree/build/compile_commands.json"
out=$($check "$tmp/tree" "$tmp/tree/build" || true)
grep -q 'pure layer includes a daemon header: netem/units.c -> daemon/log/log.h' \
	<<<"$out" || { echo "FAIL: netem -> daemon/log/log.h not found: $out"; exit 1; }
grep -q 'pure layer includes <pcap.h>: netem/units.c' <<<"$out" ||
	{ echo "FAIL: netem -> <pcap.h> not found: $out"; exit 1; }
echo "fixtures: call ring, include ring and pure-layer includes are caught"

# The project itself.
if ! out=$($check "$src" "$build"); then
	echo "FAIL: layering violations:"
	echo "$out"
	exit 1
fi
echo "layout: no include or call cycle, folders one way, pure layers clean"
