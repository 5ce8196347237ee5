#!/bin/sh
# Runs every test suite and ends with one "N passed, N failed, N skipped"
# line. Suites print "NAME: N passed, M failed" (unit suites print Check's
# summary); a suite that exits 77 was skipped and says why.
PROG=${PROG:-./ptxsurf-as}
B=${B:-build}
export PROG B
passed=0 failed=0 skipped=0 bad_suites=""
log=$(mktemp)
trap 'rm -f "$log"' EXIT

run_suite() {
	name=$1
	shift
	"$@" >"$log" 2>&1
	rc=$?
	cat "$log"
	if [ $rc -eq 77 ]; then
		skipped=$((skipped + 1))
		return
	fi
	# Check prints "100%: Checks: 12, Failures: 0, Errors: 0"
	counts=$(sed -n 's/.*Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\).*/\1 \2 \3/p' "$log" | tail -n 1)
	if [ -n "$counts" ]; then
		set -- $counts
		passed=$((passed + $1 - $2 - $3))
		failed=$((failed + $2 + $3))
	else
		counts=$(sed -n 's/^[A-Za-z0-9_.-]*: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p' "$log" | tail -n 1)
		if [ -n "$counts" ]; then
			set -- $counts
			passed=$((passed + $1))
			failed=$((failed + $2))
		fi
	fi
	if [ $rc -ne 0 ]; then
		bad_suites="$bad_suites $name"
		[ -z "$counts" ] && failed=$((failed + 1))
	fi
}

for t in "$B"/tests/test_*; do
	[ -x "$t" ] || continue
	run_suite "$(basename "$t")" env CK_FORK="${CK_FORK:-}" "$t"
done
run_suite cases sh tests/run-cases.sh
run_suite corpus sh tests/run-corpus.sh
run_suite layering sh tests/layering.sh
run_suite link-layering sh tests/link-layering.sh "$B/obj"
run_suite libapi sh tests/libapi.sh
run_suite lsp-protocol sh tests/lsp/protocol.sh
run_suite lsp-client sh tests/lsp/client.sh
run_suite completions sh tests/completions.sh
run_suite jobs sh tests/jobs.sh
for t in tests/run-io.sh tests/docs-fresh.sh tests/rule-coverage.sh tests/sig-cases.sh tests/verify-sched.sh; do
	[ -f "$t" ] && run_suite "$(basename "$t" .sh)" sh "$t"
done
run_suite opcodes sh tests/opcodes/check-opcodes.sh tests/corpus/*.ptx
run_suite sim-selftest sh tests/sim/sim-selftest.sh
run_suite sim sh tests/sim/sim-diff.sh
run_suite div-rn-check sh tests/sim/div-rn-check.sh   # divrn: div.rn/rcp.rn.f32 against IEEE
run_suite idiv-check sh tests/sim/idiv-check.sh   # idiv: div/rem .u16/.s16/.u64/.s64 against the host
for t in tests/oracle/*.sh; do
	case $t in */fetch-*) continue ;; esac
	[ -f "$t" ] || continue
	run_suite "$(basename "$t" .sh)" sh "$t"
done

echo "=========================================="
[ -n "$bad_suites" ] && echo "failing suites:$bad_suites"
echo "total: $passed passed, $failed failed, $skipped skipped"
[ -z "$bad_suites" ] && [ "$failed" -eq 0 ]
