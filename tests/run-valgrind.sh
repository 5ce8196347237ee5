#!/bin/sh
# Runs every Check suite under valgrind in one process (CK_FORK=no), so
# leaks and invalid accesses inside the tests are seen. Zero reports needed.
dir=${1:?usage: run-valgrind.sh DIR-WITH-TEST-BINARIES}
if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind: SKIP: valgrind is not installed (apt-get install valgrind)"
	exit 77
fi
pass=0 fail=0
for t in "$dir"/test_*; do
	[ -x "$t" ] || continue
	if CK_FORK=no valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		"$t" >/dev/null 2>"$t.valgrind"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $t under valgrind"; head -n 30 "$t.valgrind"
	fi
done
echo "valgrind: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
