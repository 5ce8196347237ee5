#!/bin/sh
# Every rule id in src/base/rules.def has a golden test that breaks it and one
# that passes it:
#   fails: some tests/cases/*/*.expected shows "[ID]" (for the SASS
#          scheduling rules checked by unit tests: a test_*.c names "ID");
#   passes: a case that expects exit 0 without "[ID]" in its output and is
#          named ID-pass*, or is the -pass twin (the same name with "fail"
#          replaced by "pass") of a failing case, or says so in a comment
#          line "// passes: ID ID ..." near its top.
# And every "[ID]" a golden test shows is a registered rule.
# Ends with "rule-coverage: N passed, M failed".
set -u
cd "$(dirname "$0")/.." || exit 2
passed=0 failed=0
ids=$(sed -n 's/^RULE([A-Z0-9_]*, "\([a-z0-9-]*\)",.*/\1/p' src/base/rules.def)
[ -n "$ids" ] || { echo "rule-coverage: no rules read from src/base/rules.def"; echo "rule-coverage: 0 passed, 1 failed"; exit 1; }

clean_pass() { # clean_pass EXPECTED ID
	[ -f "$1" ] && [ "$(head -n 1 "$1")" = "exit: 0" ] && ! grep -q -F "[$2]" "$1"
}

for id in $ids; do
	fails=$(grep -l -F "[$id]" tests/cases/*/*.expected 2>/dev/null)
	[ -z "$fails" ] && grep -q -F "\"$id\"" tests/unit/test_*.c && fails=unit
	pass=""
	for e in tests/cases/*/"$id"-pass*.expected; do
		clean_pass "$e" "$id" && { pass=$e; break; }
	done
	if [ -z "$pass" ]; then
		for f in $(grep -l -E "^// passes:.* $id( |\$)" tests/cases/*/*.ptx tests/cases/*/*.sass 2>/dev/null); do
			clean_pass "${f%.*}.expected" "$id" && { pass=$f; break; }
		done
	fi
	if [ -z "$pass" ]; then
		for e in $fails; do
			twin=$(echo "$e" | sed 's/fail/pass/')
			[ "$twin" != "$e" ] && clean_pass "$twin" "$id" && { pass=$twin; break; }
		done
	fi
	if [ -n "$fails" ] && [ -n "$pass" ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		[ -z "$fails" ] && echo "FAIL: rule $id: no golden test breaks it"
		[ -z "$pass" ] && echo "FAIL: rule $id: no golden test passes it (add tests/cases/*/$id-pass*.ptx)"
	fi
done
# ... and every rule id a golden test shows is registered in src/base/rules.def
for id in $(sed -n 's/.*\[\([a-z0-9-]*\)\]$/\1/p' tests/cases/*/*.expected | sort -u); do
	if echo "$ids" | grep -q -x -F "$id"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL: rule id [$id] appears in a golden test but not in src/base/rules.def"
	fi
done
echo "rule-coverage: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
