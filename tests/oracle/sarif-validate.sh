#!/bin/sh
# Validates ptxsurf-as's SARIF output against the SARIF 2.1.0 schema and the
# SARIF rules of Microsoft's SARIF Multitool (npm @microsoft/sarif-multitool),
# over tests/corpus/*.ptx (clean files: no results) and every
# tests/cases/**/*.ptx (most have errors, so results, notes and related
# locations are present). Validation errors fail the test; warnings are
# listed but allowed. Ends with
#   sarif-validate: N passed, M failed
# Exit 77 (skip) when the multitool cannot be installed.
#
# Environment: PROG (default ./ptxsurf-as), PTXSURF_ORACLE_DIR (cache,
# default ~/.cache/ptxsurf-oracles; the multitool goes to its npm/),
# KEEP=DIR keeps the SARIF files and the validator's output.
set -u

PROG=${PROG:-./ptxsurf-as}
cache=${PTXSURF_ORACLE_DIR:-${HOME:-/tmp}/.cache/ptxsurf-oracles}
npmdir=$cache/npm
pkg=@microsoft/sarif-multitool
native=$npmdir/node_modules/@microsoft/sarif-multitool-linux

skip() {
	echo "sarif-validate: SKIP: $*"
	exit 77
}

case $PROG in /*) ;; */*) PROG=$(pwd)/$PROG ;; *) PROG=$(command -v "$PROG" || echo "$PROG") ;; esac
cd "$(dirname "$0")/../.." || exit 2
[ -x "$PROG" ] || { echo "sarif-validate: $PROG is not built"; exit 2; }

# ---- the validator ---------------------------------------------------------
if [ ! -x "$npmdir/node_modules/.bin/sarif-multitool" ]; then
	command -v npm >/dev/null 2>&1 || skip "npm is not installed (apt-get install npm), cannot install $pkg"
	mkdir -p "$npmdir" || skip "cannot create $npmdir"
	echo "sarif-validate: installing $pkg into $npmdir"
	# --ignore-scripts: the package's postinstall only makes the native
	# binary executable, which is done below, and npm may refuse to run it.
	if ! npm install --prefix "$npmdir" --no-audit --no-fund --ignore-scripts "$pkg" >"$npmdir/install.log" 2>&1; then
		tail -n 5 "$npmdir/install.log"
		skip "npm install $pkg failed (offline?); log in $npmdir/install.log"
	fi
fi
case $(uname -s) in
Linux) ;;
*) skip "the multitool's native binary is installed for Linux only here" ;;
esac
[ -f "$native/Sarif.Multitool" ] || skip "$native/Sarif.Multitool is missing (unsupported CPU?)"
chmod u+x "$native/Sarif.Multitool" 2>/dev/null
schema=$native/sarif-2.1.0.json
[ -f "$schema" ] || skip "$schema is missing"
multitool=$npmdir/node_modules/.bin/sarif-multitool

# Without -j the multitool checks only its SARIF rules, not the schema.
validate() {
	"$multitool" validate -j "$schema" "$@" 2>&1
}

work=${KEEP:-}
if [ -n "$work" ]; then
	mkdir -p "$work" || exit 2
else
	work=$(mktemp -d) || exit 2
	trap 'rm -rf "$work"' EXIT
fi
rm -f "$work"/*.sarif "$work"/*.json "$work"/*.err "$work"/map "$work"/validate.log

# The validator must still catch a broken document; otherwise a silent
# multitool (a changed command line, a crash) would pass everything.
printf '%s\n' '{ "version": "2.1.0", "runs": [ { "tool": { "driver": { "name": "x" } },' \
	'"results": [ { "message": { "text": "m" }, "ruleIndex": -5 } ] } ] }' >"$work/selftest.json"
if ! validate "$work/selftest.json" | grep -q ': error '; then
	validate "$work/selftest.json" | tail -n 5
	echo "sarif-validate: FAIL: the multitool did not report a schema error in a broken document"
	echo "sarif-validate: 0 passed, 1 failed"
	exit 1
fi
rm -f "$work/selftest.json"

# ---- our SARIF ---------------------------------------------------------------
# Every input gets its own run of ptxsurf-as (exit status, one document that
# must parse as JSON). The multitool starts slowly (seconds per document), so
# it validates two documents that hold the same results: one run over all
# corpus files and one over all case files. An error at runs[0].results[K]
# is charged to the file result K is about; any other error to every file
# of that document.
n=0
: >"$work/map"
for group in corpus cases; do
	list=$work/$group.list
	if [ "$group" = corpus ]; then
		ls tests/corpus/*.ptx >"$list" 2>/dev/null
	else
		find tests/cases -name '*.ptx' | LC_ALL=C sort >"$list"
	fi
	while IFS= read -r f; do
		n=$((n + 1))
		out=$(printf '%s/%05d.json' "$work" "$n")
		"$PROG" --check --diagnostics-format=sarif --color=never -o "$out" "$f" >/dev/null 2>"$out.err"
		printf '%s %s %s %s\n' "$group" "$out" "$?" "$f" >>"$work/map"
	done <"$list"
	# shellcheck disable=SC2046
	"$PROG" --check --diagnostics-format=sarif --color=never -o "$work/$group.sarif" \
		$(cat "$list") >/dev/null 2>"$work/$group.err"
	echo "$?" >"$work/$group.rc"
done

validate "$work/corpus.sarif" "$work/cases.sarif" >"$work/validate.log"
if grep -q 'ERROR(S):' "$work/validate.log"; then
	head -n 10 "$work/validate.log"
	echo "sarif-validate: FAIL: the multitool rejected its command line"
	echo "sarif-validate: 0 passed, 1 failed"
	exit 1
fi

# One node process judges every file. The multitool prints
# "PATH(LINE,COL): error|warning CODE: JSONPATH: message".
judge='
const fs = require("fs");
const work = process.argv[1];
const read = (f) => fs.readFileSync(f, "utf8");
const parse = (f) => {
	try {
		return [JSON.parse(read(f)), ""];
	} catch (e) {
		return [null, fs.existsSync(f) ? "not valid JSON: " + e.message : "no SARIF written"];
	}
};
/* per document: uri of every result, and the problems charged to uris */
const docs = {};
for (const group of ["corpus", "cases"]) {
	const path = work + "/" + group + ".sarif";
	const [doc, bad] = parse(path);
	const rc = Number(read(work + "/" + group + ".rc"));
	const whole = bad ? [bad] : rc > 1 ? ["ptxsurf-as exited with status " + rc] : [];
	const uris = doc ? doc.runs[0].results.map((r) =>
		r.locations && r.locations[0] ? r.locations[0].physicalLocation.artifactLocation.uri : "") : [];
	docs[path] = { group, whole, uris, byUri: new Map(), warnings: 0 };
}
const kinds = new Map();
for (const line of read(work + "/validate.log").split("\n")) {
	const m = /^(.*?)\([0-9,]*\): (error|warning) ([A-Z]*[0-9]*): (.*)$/.exec(line);
	if (!m || !docs[m[1]]) continue;
	const d = docs[m[1]];
	if (m[2] === "warning") {
		d.warnings++;
		if (!kinds.has(m[3])) kinds.set(m[3], (m[3] + " " + m[4]).slice(0, 200));
		continue;
	}
	const r = /^runs\[0\]\.results\[([0-9]+)\]/.exec(m[4]);
	if (r && d.uris[Number(r[1])] !== undefined) {
		const uri = d.uris[Number(r[1])];
		if (!d.byUri.has(uri)) d.byUri.set(uri, []);
		d.byUri.get(uri).push(m[3] + " " + m[4]);
	} else {
		d.whole.push(m[3] + " " + m[4]);
	}
}
const uriOf = (f) => encodeURI(f.replace(/^(\.\/)+/, "")).replace(/[!$&()*+,;=:@#?\[\]]/g,
	(c) => "%" + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0"));
let passed = 0, failed = 0;
for (const line of read(work + "/map").split("\n").filter(Boolean)) {
	const [group, out, rc, ...rest] = line.split(" ");
	const input = rest.join(" ");
	const d = docs[work + "/" + group + ".sarif"];
	const problems = [];
	if (Number(rc) > 1) {
		const err = fs.existsSync(out + ".err") ? read(out + ".err").split("\n")[0] : "";
		problems.push("ptxsurf-as exited with status " + rc + ": " + err);
	}
	const [, bad] = parse(out);
	if (bad) problems.push(bad);
	problems.push(...d.whole, ...(d.byUri.get(uriOf(input)) || []));
	if (problems.length) {
		console.log("FAIL " + input + ":\n  " + problems.slice(0, 10).join("\n  "));
		failed++;
	} else {
		passed++;
	}
}
const warned = Object.values(docs).reduce((n, d) => n + d.warnings, 0);
if (warned) {
	console.log("sarif-validate: " + warned + " warnings (allowed), one example per kind:");
	for (const w of kinds.values()) console.log("  " + w);
}
console.log("sarif-validate: " + passed + " passed, " + failed + " failed");
process.exit(failed ? 1 : 0);
'
node -e "$judge" "$work"
