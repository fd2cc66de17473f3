#!/usr/bin/env bash
# k8s.sh BUILD: deploy/k8s against the Kubernetes API, offline.
# tests/deploy/k8s/check.js validates every document with the npm package
# kubernetes-models 4.x (types, enums, required fields) and walks it
# against the models' declared field names (unknown fields). The packages
# of tests/deploy/k8s/package.json are installed with npm into
# BUILD/tests/deploy/k8s-npm (kept for reruns); Node.js and npm come from
# the optional package group k8s when missing. Then:
# 1. every manifest of deploy/k8s passes;
# 2. broken copies fail, each naming the field: an unknown field, a
#    missing required field, a value outside an enum, a wrong type;
# 3. the sweep Job's SHARDS equals its completions, as its comment asks.
# Skips (77) when node or the npm packages cannot be had.
set -euo pipefail
build=$(cd "${1:?usage: k8s.sh BUILD_DIR}" && pwd)
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	[ "$(id -u)" -eq 0 ] || skip "no node/npm, and only root can install them"
	echo "installing the package group k8s (deploy/setup.sh --packages k8s)"
	"$src/deploy/setup.sh" --packages k8s >/dev/null 2>&1 ||
		skip "could not install nodejs and npm"
fi
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 14 ] || skip "node $(node --version) is older than kubernetes-models 4 needs (14)"

npmdir=$build/tests/deploy/k8s-npm
mkdir -p "$npmdir"
want=$(node -p "require('$src/tests/deploy/k8s/package.json').dependencies['kubernetes-models']")
have=$(node -p "require('$npmdir/node_modules/kubernetes-models/package.json').version" 2>/dev/null || true)
if [ "$have" != "$want" ] || ! cmp -s "$src/tests/deploy/k8s/package.json" "$npmdir/package.json"; then
	cp "$src/tests/deploy/k8s/package.json" "$npmdir/package.json"
	(cd "$npmdir" && npm install --no-audit --no-fund --no-package-lock --loglevel=error) \
		>"$npmdir/install.log" 2>&1 ||
		skip "npm install of kubernetes-models and yaml failed: $(tail -n 3 "$npmdir/install.log")"
fi
tmp=$(mktemp -d /tmp/reckon-k8s.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
check() { (cd "$npmdir" && node "$src/tests/deploy/k8s/check.js" "$@"); }

# 1. the manifests
check "$src"/deploy/k8s/*.yaml >"$tmp/ok.log" || { cat "$tmp/ok.log"; fail "deploy/k8s does not pass"; }
cat "$tmp/ok.log"
n=$(grep -c '^ok: ' "$tmp/ok.log")
[ "$n" -eq "$(cat "$src"/deploy/k8s/*.yaml | grep -c '^kind:')" ] || fail "checked $n documents"

# 2. broken copies: SED-SCRIPT FILE EXPECTED-MESSAGE
broken() {
	sed "$1" "$src/deploy/k8s/$2" >"$tmp/$2"
	cmp -s "$tmp/$2" "$src/deploy/k8s/$2" && fail "sed '$1' changed nothing in $2"
	if check "$tmp/$2" >"$tmp/bad.log"; then
		fail "check.js accepted $2 with '$1'"
	fi
	grep -qF -- "$3" "$tmp/bad.log" || fail "no '$3' for '$1': $(cat "$tmp/bad.log")"
}
broken 's/^\( *\)image: reckon:latest/&\n\1imagePullPolicyy: Never/' sweep-job.yaml \
	'containers[0].imagePullPolicyy: unknown field (not in Container)'
broken 's/mountPath: \/scenario/mountPth: \/scenario/' sweep-job.yaml \
	'must have required property mountPath'
broken 's/completionMode: Indexed/completionMode: Indexd/' sweep-job.yaml \
	'spec.completionMode: must be equal to one of the allowed values'
broken 's/backoffLimit: 0/backoffLimit: "none"/' merge-job.yaml \
	'spec.backoffLimit: must be integer'
broken 's/^  accessModes:/  accesModes:/' sweep-job.yaml \
	'spec.accesModes: unknown field (not in PersistentVolumeClaimSpec)'
echo "5 broken copies refused, each naming its field"

# 3. SHARDS = completions
(cd "$npmdir" && node -e '
	const YAML = require("yaml"), fs = require("fs");
	for (const d of YAML.parseAllDocuments(fs.readFileSync(process.argv[1], "utf8"))) {
		const j = d.toJS();
		if (j.kind !== "Job") continue;
		const env = j.spec.template.spec.containers[0].env || [];
		const shards = env.find((e) => e.name === "SHARDS");
		if (!shards || Number(shards.value) !== j.spec.completions) {
			console.log(`SHARDS ${shards && shards.value} != completions ${j.spec.completions}`);
			process.exit(1);
		}
	}' "$src/deploy/k8s/sweep-job.yaml") || fail "sweep-job.yaml: SHARDS and completions differ"
echo "PASS: $n documents valid against kubernetes-models $want, unknown fields caught"
