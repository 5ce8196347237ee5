#!/bin/sh
# Fails when a generated document is stale: docs/rules.md must be exactly
# what `ptxsurf-as --print-rules-reference` writes from the rule registry,
# the requirement table and the target table, and the golden tests
# tests/cases/check/operand-count-{pass,fail}-TARGET.ptx what
# `gen_operand_probes --cases` writes from src/isa/operand_counts.def,
# src/base/rule_sites.def what tools/gen-rule-sites.sh finds in the sources,
# and docs/architecture.md must name every file under src/.
# Usage: PROG=./ptxsurf-as sh tests/docs-fresh.sh
PROG=${PROG:-./ptxsurf-as}
case $PROG in /*) ;; */*) PROG=$(pwd)/$PROG ;; esac
cd "$(dirname "$0")/.." || exit 2
passed=0 failed=0
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.err"' EXIT

if ! "$PROG" --print-rules-reference >"$tmp" 2>"$tmp.err"; then
	if grep -q "unknown option" "$tmp.err"; then
		echo "SKIP: $PROG has no --print-rules-reference option yet"
		exit 77
	fi
	cat "$tmp.err"
	echo "FAIL: $PROG --print-rules-reference failed"
	failed=$((failed + 1))
elif cmp -s "$tmp" docs/rules.md; then
	passed=$((passed + 1))
else
	echo "FAIL: docs/rules.md is stale (src/base/rules.def, src/isa/requirements.def or src/isa/targets.def changed):"
	diff -u docs/rules.md "$tmp" | head -n 40
	echo "regenerate it with:  $PROG --print-rules-reference > docs/rules.md"
	failed=$((failed + 1))
fi

# The generated operand-count golden tests (CC builds the generator).
gdir=$(mktemp -d)
if ${CC:-cc} -std=c11 -iquote src -o "$gdir/gen" tests/oracle/operand-count/gen_operand_probes.c &&
	mkdir "$gdir/cases" && "$gdir/gen" --cases "$gdir/cases"; then
	stale=""
	for f in "$gdir"/cases/*.ptx tests/cases/check/operand-count-pass-*.ptx tests/cases/check/operand-count-fail-sm_*.ptx; do
		b=$(basename "$f")
		cmp -s "$gdir/cases/$b" "tests/cases/check/$b" 2>/dev/null || stale="$stale $b"
	done
	if [ -z "$stale" ]; then
		passed=$((passed + 1))
	else
		echo "FAIL: operand-count golden tests are stale (src/isa/operand_counts.def changed):$stale"
		echo "regenerate them with:  cc -std=c11 -iquote src -o gen tests/oracle/operand-count/gen_operand_probes.c &&"
		echo "  ./gen --cases tests/cases/check && UPDATE=1 sh tests/run-cases.sh  (then inspect the .expected diffs)"
		failed=$((failed + 1))
	fi
else
	echo "FAIL: could not build or run tests/oracle/operand-count/gen_operand_probes.c"
	failed=$((failed + 1))
fi
rm -rf "$gdir"

# Where each rule is reported (docs/rules.md prints it).
if sh tools/gen-rule-sites.sh >"$tmp" && cmp -s "$tmp" src/base/rule_sites.def; then
	passed=$((passed + 1))
else
	echo "FAIL: src/base/rule_sites.def is stale (a rule is reported from other files now):"
	diff -u src/base/rule_sites.def "$tmp" | head -n 20
	echo "regenerate it with:  sh tools/gen-rule-sites.sh > src/base/rule_sites.def"
	echo "  and then:  $PROG --print-rules-reference > docs/rules.md  (after rebuilding)"
	failed=$((failed + 1))
fi

# The architecture page's folder table names every source file.
missing=""
for f in src/*/*; do
	b=$(basename "$f")
	grep -q "\b${b%.*}\b" docs/architecture.md || missing="$missing ${f#src/}"
done
if [ -z "$missing" ]; then
	passed=$((passed + 1))
else
	echo "FAIL: docs/architecture.md does not name:$missing"
	failed=$((failed + 1))
fi

echo "docs-fresh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
