#!/bin/sh
# Runs every Check suite under valgrind in one process (CK_FORK=no), so
# leaks and invalid accesses inside the tests are seen. Zero reports needed.
# A suite can fail two ways, reported apart: a test assertion failed (the
# suite's own output shows which; `make check` reports that too), or
# valgrind found memory errors or leaks (exit 99) in a suite whose tests
# all passed. With CK_FORK=no a failed assertion jumps out of its test and
# leaks what the test allocated, so leaks next to failures are not counted
# as valgrind findings.
dir=${1:?usage: run-valgrind.sh DIR-WITH-TEST-BINARIES}
if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind: SKIP: valgrind is not installed (apt-get install valgrind)"
	exit 77
fi
pass=0 fail=0
for t in "$dir"/test_*; do
	[ -x "$t" ] || continue
	case $t in *.valgrind | *.out) continue ;; esac
	CK_FORK=no valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		"$t" >"$t.out" 2>"$t.valgrind"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		pass=$((pass + 1))
	elif ! grep -q 'Failures: 0, Errors: 0' "$t.out"; then
		fail=$((fail + 1))
		echo "FAIL: $t: exit $rc under valgrind: tests failed or crashed (not a valgrind finding)"
		grep -v '^Running suite' "$t.out" | head -n 10
	elif [ "$rc" -eq 99 ]; then
		fail=$((fail + 1))
		echo "FAIL: $t: valgrind report"
		head -n 30 "$t.valgrind"
	else
		fail=$((fail + 1))
		echo "FAIL: $t: exit $rc under valgrind"
		head -n 10 "$t.valgrind"
	fi
done
echo "valgrind: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
