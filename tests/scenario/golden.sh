#!/bin/bash
# golden.sh: golden-file tests of `reckond -n` / `reckond -nv`, the
# scenario checker. broken/*.ini must fail with exit status 1 and exactly
# the messages of broken/*.expected on stderr; valid/*.ini must print
# exactly valid/*.expected; every scenarios/*.ini and scenarios/*/*.ini
# (globbed now, so new scenarios are covered) must pass -n, and its
# canonical form must load back to the same canonical form. Usage: golden.sh BUILD_DIR.
# RECKON_UPDATE_GOLDEN=1 rewrites the .expected files instead (review the
# diff before committing).
set -u
build=$(cd "${1:?usage: golden.sh BUILD_DIR}" && pwd) || exit 1
src=$(cd "$(dirname "$0")/../.." && pwd)
reckond=$build/daemon/reckond
if [ ! -x "$reckond" ]; then
	echo "golden.sh: $reckond is not built (cmake --build $build --target reckond)"
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
update=${RECKON_UPDATE_GOLDEN:-0}
fail=0
checked=0

# compare GOT EXPECTED LABEL (the source directory, which absolute trace
# paths name, is written SRC in the .expected files)
compare() {
	sed -i "s|$src/|SRC/|g" "$1"
	if [ "$update" = 1 ]; then
		cp "$1" "$2"
		return
	fi
	if [ ! -f "$2" ]; then
		echo "FAIL $3: missing $2"
		fail=1
	elif ! diff -u "$2" "$1" >"$tmp/diff"; then
		echo "FAIL $3: output differs from $2:"
		cat "$tmp/diff"
		fail=1
	fi
}

# Run from the files' directory so messages carry bare file names.
cd "$src/tests/scenario/broken" || exit 1
for ini in *.ini; do
	"$reckond" -n "$ini" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	checked=$((checked + 1))
	if [ $rc -ne 1 ]; then
		echo "FAIL broken/$ini: exit status $rc, want 1"
		fail=1
	fi
	if [ -s "$tmp/out" ]; then
		echo "FAIL broken/$ini: wrote to stdout"
		fail=1
	fi
	compare "$tmp/err" "${ini%.ini}.expected" "broken/$ini"
done

cd "$src/tests/scenario/valid" || exit 1
for ini in *.ini; do
	"$reckond" -nv "$ini" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	checked=$((checked + 1))
	if [ $rc -ne 0 ] || [ -s "$tmp/err" ]; then
		echo "FAIL valid/$ini: exit status $rc, stderr:"
		cat "$tmp/err"
		fail=1
	fi
	compare "$tmp/out" "${ini%.ini}.expected" "valid/$ini"
done

cd "$src" || exit 1
shopt -s nullglob
for ini in scenarios/*.ini scenarios/*/*.ini tests/scenario/valid/*.ini; do
	checked=$((checked + 1))
	if ! "$reckond" -n "$ini" 2>"$tmp/err"; then
		echo "FAIL $ini does not pass reckond -n:"
		cat "$tmp/err"
		fail=1
		continue
	fi
	# Round trip: the canonical form loads back to itself (the first
	# line names the file it came from, so it differs).
	if ! "$reckond" -nv "$ini" >"$tmp/c1.ini" 2>"$tmp/err" ||
		! "$reckond" -nv "$tmp/c1.ini" >"$tmp/c2.ini" 2>>"$tmp/err" ||
		! diff <(tail -n +2 "$tmp/c1.ini") <(tail -n +2 "$tmp/c2.ini") \
			>"$tmp/diff"; then
		echo "FAIL $ini: canonical form does not load back to itself:"
		cat "$tmp/err" "$tmp/diff"
		fail=1
	fi
done

if [ "$update" = 1 ]; then
	echo "golden.sh: rewrote the .expected files; review with git diff"
	exit 0
fi
echo "golden.sh: $checked checks, $([ $fail = 0 ] && echo all passed || echo FAILURES)"
exit $fail
