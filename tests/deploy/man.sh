#!/usr/bin/env bash
# man.sh BUILD: the man pages in deploy/man against the code they describe.
# 1. reckon.ini(5)'s key reference, regenerated from the key table by
#    reckon_ini_man, equals the committed page byte for byte.
# 2. man(1) renders each page with groff's warnings on and prints none.
# 3. Every command and option in the usage texts of reckond (and of
#    `reckond sweep --help`), reckonctl and reckon-agent (and of its
#    player role) appears in the rendered page of that program.
# 4. `cmake --install --component man` puts each page where man finds it.
set -euo pipefail
build=$(cd "${1:?usage: man.sh BUILD_DIR}" && pwd)
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
pages=$src/deploy/man
tmp=$(mktemp -d /tmp/reckon-man.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export LC_ALL=C.UTF-8 MANWIDTH=80

command -v man >/dev/null ||
	fail "man is not installed (deploy/setup.sh installs man-db and groff-base)"
for b in tests/deploy/reckon_ini_man tests/scenario/scenario_keys_md daemon/reckond daemon/reckonctl agents/reckon-agent; do
	[ -x "$build/$b" ] || fail "$build/$b is not built"
done

# 1. generated key reference
"$build/tests/deploy/reckon_ini_man" "$pages/reckon.ini.5" >"$tmp/reckon.ini.5"
diff -u "$pages/reckon.ini.5" "$tmp/reckon.ini.5" >"$tmp/ini.diff" || {
	head -n 40 "$tmp/ini.diff"
	fail "deploy/man/reckon.ini.5 differs from the key table; regenerate it:" \
		"$build/tests/deploy/reckon_ini_man deploy/man/reckon.ini.5 > /tmp/p && mv /tmp/p deploy/man/reckon.ini.5"
}
nkeys=$(grep -c '^\.TP$' <(sed -n '/BEGIN KEYS/,/END KEYS/p' "$pages/reckon.ini.5"))
# one paragraph per row of the table docs/scenario.md carries
nmd=$("$build/tests/scenario/scenario_keys_md" | grep -c '^| `')
[ "$nkeys" -eq "$nmd" ] || fail "$nkeys keys between the KEYS markers, the table has $nmd"

# 2. no warnings
for p in "$pages"/*.[158]; do
	w=$(man --warnings -l "$p" 2>&1 >/dev/null) || fail "man -l $p failed: $w"
	[ -z "$w" ] || fail "$(basename "$p"): $w"
done

# 3. usage texts against the pages. Rendered wide, so no word is broken.
render() { MANWIDTH=400 man -l "$pages/$1" 2>/dev/null | col -bx; }
# words: every --long option, -x short option and the command word after
# the program name on each usage line
words() {
	grep -oE -- '(^|[ [|])--?[a-z][a-z-]*' | sed 's/^[ [|]//'
}
check() { # PAGE PROGRAM: stdin is the usage text
	local text usage w n=0
	usage=$(cat)
	text=$(render "$1")
	for w in $(printf '%s\n' "$usage" | words | sort -u) \
		$(printf '%s\n' "$usage" | sed -nE "s/^(usage: +| +)$2 +(\[[^]]*\] +)*([a-z][a-z-]+).*/\3/p" | sort -u); do
		case $w in --help | -h) continue ;; esac
		grep -qF -- "$w" <<<"$text" || fail "$1 does not mention '$w' of $2's usage"
		n=$((n + 1))
	done
	[ "$n" -ge 3 ] || fail "found only $n words in $2's usage: $usage"
	echo "$1: $n commands and options of the usage text present"
}
{ "$build/daemon/reckond" --help; "$build/daemon/reckond" sweep --help; } | check reckond.8 reckond
{ "$build/daemon/reckonctl" 2>&1 || true; } | check reckonctl.8 reckonctl
{ "$build/agents/reckon-agent" 2>&1 || true
  "$build/agents/reckon-agent" player --help 2>&1 || true; } | check reckon-agent.1 reckon-agent

# 4. installed where man looks
cmake --install "$build" --prefix "$tmp/inst" --component man >/dev/null
for p in reckond.8 reckonctl.8 reckon-agent.1 reckon.ini.5; do
	sec=${p##*.} name=${p%.*}
	cmp "$tmp/inst/share/man/man$sec/$p" "$pages/$p" || fail "$p not installed in man$sec"
	man -M "$tmp/inst/share/man" -w "$sec" "$name" >/dev/null ||
		fail "man -M ... $sec $name does not find the installed page"
done
echo "PASS: $nkeys keys generated, 4 pages render without warnings and install"
