#!/bin/sh
# --verify-sched on every golden kernel: each tests/cases/encode/*.ptx that
# assembles must also assemble with --verify-sched, without a sched-hazard.
# (tests/unit/test_sched_verify.c feeds the verifier broken control words.)
PROG=${PROG:-./ptxsurf-as}
pass=0 fail=0
err=$(mktemp)
trap 'rm -f "$err"' EXIT
for f in tests/cases/encode/*.ptx; do
	"$PROG" --color=never -o /dev/null "$f" >/dev/null 2>&1 || continue
	if "$PROG" --color=never --verify-sched -o /dev/null "$f" >/dev/null 2>"$err" &&
	   ! grep -q 'sched-hazard' "$err"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $f"
		head -n 4 "$err"
	fi
done
echo "verify-sched: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
