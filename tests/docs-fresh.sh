#!/bin/sh
# Fails when a generated document is stale: docs/rules.md must be exactly
# what `ptxsurf-as --print-rules-reference` writes from the rule registry,
# the requirement table and the target table.
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
	echo "FAIL: docs/rules.md is stale (src/rules.def, src/requirements.def or src/targets.def changed):"
	diff -u docs/rules.md "$tmp" | head -n 40
	echo "regenerate it with:  $PROG --print-rules-reference > docs/rules.md"
	failed=$((failed + 1))
fi

echo "docs-fresh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
