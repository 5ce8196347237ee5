#!/bin/sh
# Golden CLI tests: every tests/cases/**/NAME.ptx is run through
#   ptxsurf-as --check --color=never [RUN-FLAGS] NAME.ptx
# and its exit status and standard error must equal NAME.expected, whose
# first line is "exit: N". RUN-FLAGS come from a first line
# "// RUN-FLAGS: ..." in the .ptx. UPDATE=1 rewrites the .expected files.
PROG=${PROG:-./ptxsurf-as}
pass=0 fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for f in $(find tests/cases -name '*.ptx' | sort); do
	exp=${f%.ptx}.expected
	flags=$(sed -n '1s|^// RUN-FLAGS: *||p' "$f")
	# shellcheck disable=SC2086
	"$PROG" --check --color=never $flags "$f" 2>"$out.err" >/dev/null
	rc=$?
	{ echo "exit: $rc"; cat "$out.err"; } >"$out"
	if [ "${UPDATE:-}" = 1 ]; then
		cp "$out" "$exp"
	fi
	if [ -f "$exp" ] && cmp -s "$out" "$exp"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $f"
		if [ -f "$exp" ]; then diff -u "$exp" "$out" | head -n 20; else echo "  (no $exp)"; fi
	fi
done
rm -f "$out.err"
echo "cases: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
