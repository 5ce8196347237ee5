#!/bin/sh
# Runs every test suite and ends with one "N passed, N failed, N skipped"
# line. Suites print "NAME: N passed, M failed" (unit suites print Check's
# summary); a suite that exits 77 was skipped and says why.
#
# The suites are independent (each works in its own mktemp directory), so
# they run JOBS at a time (default: the machine's cores), the longest
# first; each suite's output is printed whole when it ends, headed by its
# name and time, and a table of the times closes the run. JOBS=1 runs them
# one after the other in the order below.
PROG=${PROG:-./ptxsurf-as}
B=${B:-build}
export PROG B
jobs=${JOBS:-$(nproc 2>/dev/null || echo 1)}
here=$(cd "$(dirname "$0")" && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/run-all.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
list=$work/suites

# suite NAME COMMAND...: one line "NAME<TAB>COMMAND" of the list, in the
# order they start: the long oracle sweeps and the simulator first, so
# that the short suites fill the other lanes around them.
suite() {
	name=$1
	shift
	printf '%s\t%s\n' "$name" "$*" >>"$list"
}

suite sim sh tests/sim/sim-diff.sh
for t in forms-sweep surface-diff sass-forms kernel-sweep float-forms-sweep encode-ptxas mutation-sweep \
	real-ptx-measure cubin-ptxas sass-roundtrip disasm-nvdisasm; do
	suite "$t" sh "tests/oracle/$t.sh"
done
suite cases sh tests/run-cases.sh
suite jobs sh tests/jobs.sh
suite check-pipe sh tests/check-pipe.sh
for t in tests/oracle/*.sh; do
	case $t in */fetch-*) continue ;; esac
	n=$(basename "$t" .sh)
	grep -q "^$n	" "$list" || suite "$n" sh "$t"
done
for t in "$B"/tests/test_*; do
	[ -x "$t" ] || continue
	suite "$(basename "$t")" env CK_FORK="${CK_FORK:-}" "$t"
done
suite corpus sh tests/run-corpus.sh
suite layering sh tests/layering.sh
suite link-layering sh tests/link-layering.sh "$B/obj"
suite libapi sh tests/libapi.sh
suite lsp-protocol sh tests/lsp/protocol.sh
suite lsp-client sh tests/lsp/client.sh
suite completions sh tests/completions.sh
for t in tests/run-io.sh tests/docs-fresh.sh tests/rule-coverage.sh tests/sig-cases.sh tests/verify-sched.sh; do
	[ -f "$t" ] && suite "$(basename "$t" .sh)" sh "$t"
done
suite opcodes sh tests/opcodes/check-opcodes.sh tests/corpus/*.ptx
suite sim-selftest sh tests/sim/sim-selftest.sh
suite div-rn-check sh tests/sim/div-rn-check.sh # div.rn/rcp.rn.f32 against IEEE
suite dir-round-check sh tests/sim/dir-round-check.sh # directed div/rcp/sqrt against IEEE
suite idiv-check sh tests/sim/idiv-check.sh     # div/rem .u16/.s16/.u64/.s64 against the host

# Each suite N leaves N.log (its output), N.rc and N.sec; the lock keeps
# two suites' outputs from interleaving.
n=$(wc -l <"$list")
: >"$work/lock"
seq 1 "$n" | xargs -P "$jobs" -n 1 sh "$here/run-suite.sh" "$list" "$work"

passed=0 failed=0 skipped=0 bad_suites=""
i=0
while IFS='	' read -r name cmd; do
	i=$((i + 1))
	log=$work/$i.log
	rc=$(cat "$work/$i.rc" 2>/dev/null || echo 2)
	printf '%6s s  %s\n' "$(cat "$work/$i.sec" 2>/dev/null || echo '?')" "$name" >>"$work/times"
	if [ "$rc" -eq 77 ]; then
		skipped=$((skipped + 1))
		continue
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
	if [ "$rc" -ne 0 ]; then
		bad_suites="$bad_suites $name"
		[ -z "$counts" ] && failed=$((failed + 1))
	fi
done <"$list"

echo "=========================================="
echo "suite times ($jobs at a time), longest first:"
sort -rn "$work/times" | head -n 12
[ -n "$bad_suites" ] && echo "failing suites:$bad_suites"
echo "total: $passed passed, $failed failed, $skipped skipped"
[ -z "$bad_suites" ] && [ "$failed" -eq 0 ]
