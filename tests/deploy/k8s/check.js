// check.js FILE.yaml...: checks Kubernetes manifests offline against the
// API types of the npm package kubernetes-models (4.x). Each document is
// validated with its model's validate() (types, enums, required fields),
// then walked against the property names of the model's TypeScript
// declarations, because validate() lets unknown fields through: a typo
// such as `imagePullPolicyy` would be dropped by the API server without a
// word. Prints one line per document and every problem with its path;
// exits 1 on any problem. Run from a directory whose node_modules holds
// the packages of package.json beside this file.
"use strict";
const fs = require("fs");
const path = require("path");
const modules = path.join(process.cwd(), "node_modules");
const YAML = require(path.join(modules, "yaml"));
const cache = new Map();

// The property types of the first interface declared in a .d.ts file,
// and the file each imported type name comes from.
function declarations(file) {
	if (cache.has(file))
		return cache.get(file);
	const text = fs.readFileSync(file, "utf8");
	const imports = {};
	for (const m of text.matchAll(/^import \{ ([^}]+) \} from "([^"]+)";$/gm)) {
		const from = m[2].startsWith(".") ?
			path.join(path.dirname(file), m[2]) : path.join(modules, m[2]);
		for (const name of m[1].split(",").map((s) => s.trim()))
			imports[name] = from + ".d.ts";
	}
	const props = {};
	const body = text.match(/^export interface \w+[^{]*\{\n([\s\S]*?)^\}/m);
	if (body) {
		// a property: `    "name"?: TYPE;`, or a map over three lines
		const re = /^ {4}"([^"]+)"\??: (.*?);?$\n?(?: {8}\[key: string\]: (.*);\n {4}\};)?/gm;
		for (const m of body[1].matchAll(re))
			props[m[1]] = m[3] !== undefined ? `Map<${m[3]}>` : m[2];
	}
	const d = { props, imports, isInterface: !!body };
	cache.set(file, d);
	return d;
}

// Walk value against type (an expression of a declaration in file).
function walk(value, type, file, where, problems) {
	let m;
	if ((m = type.match(/^Array<(.*)>$/)) && Array.isArray(value)) {
		value.forEach((v, i) => walk(v, m[1], file, `${where}[${i}]`, problems));
		return;
	}
	if ((m = type.match(/^Map<(.*)>$/)) && value && typeof value === "object") {
		for (const [k, v] of Object.entries(value))
			walk(v, m[1], file, `${where}.${k}`, problems);
		return;
	}
	const from = declarations(file).imports[type];
	if (!from || !value || typeof value !== "object" || Array.isArray(value))
		return; // a scalar, or a type without properties
	walkObject(value, from, where, problems);
}

function walkObject(value, file, where, problems) {
	const d = declarations(file);
	if (!d.isInterface)
		return;
	for (const [k, v] of Object.entries(value)) {
		if (!(k in d.props)) {
			problems.push(`${where}.${k}: unknown field (not in ` +
				`${path.basename(file, ".d.ts")})`);
			continue;
		}
		walk(v, d.props[k], file, `${where}.${k}`, problems);
	}
}

// The model module of apiVersion and kind: kubernetes-models/GROUP/VERSION/KIND
// (GROUP is left out for the core group, apiVersion "v1").
function modelPath(apiVersion, kind) {
	return path.join(modules, "kubernetes-models", apiVersion, kind);
}

function checkDocument(doc, name, problems) {
	if (!doc || typeof doc.apiVersion !== "string" || typeof doc.kind !== "string") {
		problems.push(`${name}: no apiVersion or kind`);
		return;
	}
	const base = modelPath(doc.apiVersion, doc.kind);
	if (!fs.existsSync(base + ".js")) {
		problems.push(`${name}: unknown type ${doc.apiVersion} ${doc.kind}`);
		return;
	}
	const Model = require(base)[doc.kind];
	try {
		new Model(doc).validate();
	} catch (e) {
		const errs = e.errors || [{ instancePath: "", message: e.message }];
		for (const err of errs)
			problems.push(`${name}${err.instancePath.replace(/\//g, ".")}: ` +
				err.message);
	}
	walkObject(doc, base + ".d.ts", name, problems);
}

let bad = 0;
for (const file of process.argv.slice(2)) {
	const docs = YAML.parseAllDocuments(fs.readFileSync(file, "utf8"));
	docs.forEach((d, i) => {
		const problems = d.errors.map((e) => `${file}: YAML: ${e.message}`);
		const doc = d.toJS();
		const name = `${path.basename(file)}#${i} ${doc && doc.kind}/` +
			`${doc && doc.metadata && doc.metadata.name}`;
		if (problems.length === 0)
			checkDocument(doc, name, problems);
		if (problems.length) {
			bad++;
			for (const p of problems)
				console.log(`problem: ${p}`);
		} else {
			console.log(`ok: ${name} (${doc.apiVersion})`);
		}
	});
}
process.exit(bad ? 1 : 0);
