#!/usr/bin/env bash
# docs_params.sh: docs/predictors.md must hold every parameter row that
# `reckon-agent replay --list` prints (generated from the predictors'
# tables by predict_params_doc), verbatim: a parameter added, renamed or
# redocumented in code without the docs fails here. Usage:
# docs_params.sh BUILD_DIR
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
agent=${1:?build dir}/agents/reckon-agent
doc=$root/docs/predictors.md
[ -x "$agent" ] || { echo "docs_params.sh: $agent not built"; exit 77; }
list=$("$agent" replay --list)
missing=0
rows=0
while IFS= read -r line; do
	case "$line" in
	'| `'*)
		rows=$((rows + 1))
		if ! grep -qxF -- "$line" "$doc"; then
			echo "docs/predictors.md lacks: $line"
			missing=$((missing + 1))
		fi
		;;
	esac
done <<<"$list"
[ "$rows" -gt 0 ] || { echo "replay --list printed no parameter rows"; exit 1; }
if [ "$missing" -gt 0 ]; then
	echo "docs_params.sh: $missing of $rows rows missing; paste them from" \
		"'reckon-agent replay --list'"
	exit 1
fi
echo "docs_params.sh: all $rows parameter rows documented"
