#!/bin/sh
# Two builds of ptxsurf-as on the whole test corpus: every .ptx under tests/
# and SEEDS random kernels of tests/oracle/gen_kernels.c (plain and
# --defined), each checked (--check; also as SARIF under --rules=ptxas, as
# JSON cut by --max-errors=1, and --print-requirements) and
# assembled with --verify-sched (the cubin; listings are printed from it).
# Any difference in exit status, diagnostics or cubin bytes is printed. A performance change must leave all of them
# alone (issue 18):
#   tools/compare-builds.sh OLD_PROG NEW_PROG [SEEDS]
# Exit: 0 identical, 1 differences, 2 usage.
set -u
old=${1:?usage: compare-builds.sh OLD_PROG NEW_PROG [SEEDS]}
new=${2:?usage: compare-builds.sh OLD_PROG NEW_PROG [SEEDS]}
seeds=${3:-200}
work=$(mktemp -d "${TMPDIR:-/tmp}/compare-builds.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
${CC:-cc} -std=c11 -O1 -o "$work/gen" tests/oracle/gen_kernels.c tests/oracle/gen_loops.c tests/oracle/gen_families.c \
	tests/oracle/gen_calls.c tests/oracle/gen_data.c tests/oracle/gen_tex.c tests/oracle/gen_video.c || exit 2
mkdir -p "$work/gen-ptx"
i=1
while [ "$i" -le "$seeds" ]; do
	"$work/gen" "$i" >"$work/gen-ptx/k$i.ptx"
	"$work/gen" --defined "$i" >"$work/gen-ptx/d$i.ptx"
	i=$((i + 1))
done

# run PROG TAG FILE: what one build says and writes for FILE
run() {
	o="$work/$2"
	rm -f "$o".*
	"$1" --check "$3" >"$o.check" 2>&1
	echo "rc=$?" >>"$o.check"
	# the other renderings and cuts of the same diagnostics
	"$1" --check --rules=ptxas --diagnostics-format=sarif "$3" >"$o.sarif" 2>&1
	echo "rc=$?" >>"$o.sarif"
	"$1" --check --max-errors=1 --diagnostics-format=json "$3" >"$o.max1" 2>&1
	echo "rc=$?" >>"$o.max1"
	"$1" --print-requirements "$3" >"$o.req" 2>&1
	echo "rc=$?" >>"$o.req"
	"$1" --verify-sched "$3" -o "$o.cubin" >"$o.asm" 2>&1
	echo "rc=$?" >>"$o.asm"
}
n=0 bad=0
for f in $(find tests -name '*.ptx' | sort) "$work"/gen-ptx/*.ptx; do
	run "$old" old "$f"
	run "$new" new "$f"
	n=$((n + 1))
	for part in check sarif max1 req asm cubin; do
		if [ -f "$work/old.$part" ] || [ -f "$work/new.$part" ]; then
			if ! cmp -s "$work/old.$part" "$work/new.$part"; then
				echo "DIFFERS ($part): $f"
				bad=$((bad + 1))
			fi
		fi
	done
done
echo "compare-builds: $n inputs, $bad differences"
[ "$bad" -eq 0 ]
