#!/bin/sh
# Golden CLI tests: every tests/cases/**/NAME.ptx (or .sass) is run through
#   ptxsurf-as --check --color=never [RUN-FLAGS] NAME.ptx
# or, when its first line is "// RUN-ARGS: ARGS", through
#   ptxsurf-as --color=never ARGS NAME.ptx
# NAME.expected holds "exit: N", then standard error, then (only if not
# empty) a line "--- stdout ---" and standard output. RUN-FLAGS: add flags
# to --check. UPDATE=1 rewrites the .expected files.
PROG=${PROG:-./ptxsurf-as}
pass=0 fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for f in $(find tests/cases -name '*.ptx' -o -name '*.sass' | sort); do
	exp=${f%.*}.expected
	flags=$(sed -n '1s|^// RUN-FLAGS: *||p' "$f")
	args=$(sed -n '1s|^// RUN-ARGS: *||p' "$f")
	# shellcheck disable=SC2086
	if [ -n "$args" ]; then
		"$PROG" --color=never $args "$f" 2>"$out.err" >"$out.std"
	else
		"$PROG" --check --color=never $flags "$f" 2>"$out.err" >"$out.std"
	fi
	rc=$?
	{
		echo "exit: $rc"
		cat "$out.err"
		if [ -s "$out.std" ]; then echo "--- stdout ---"; cat "$out.std"; fi
	} >"$out"
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
rm -f "$out.err" "$out.std"
echo "cases: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
