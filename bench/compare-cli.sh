#!/bin/sh
# Two builds of ptxsurf-as on the same inputs, runs interleaved (so a busy
# machine slows both alike), best CPU time (user+system) of N runs each:
#   bench/compare-cli.sh OLD_PROG NEW_PROG [RUNS]
# Used to show what a change costs the command line; docs/library.md has
# the numbers for the library (issue 19).
set -e
old=${1:?usage: compare-cli.sh OLD_PROG NEW_PROG [RUNS]}
new=${2:?usage: compare-cli.sh OLD_PROG NEW_PROG [RUNS]}
runs=${3:-7}
out=${BENCH_DIR:-bench/out}
mkdir -p "$out"
cc -O2 -o "$out/measure" bench/measure.c
[ -f "$out/cmp-nvcc-10m.ptx" ] || sh bench/gen-ptx.sh nvcc 10000000 >"$out/cmp-nvcc-10m.ptx"
[ -f "$out/cmp-surface-10m.ptx" ] || sh bench/gen-ptx.sh surface 10000000 >"$out/cmp-surface-10m.ptx"
[ -f "$out/cmp-sm50-1m.ptx" ] || sh bench/gen-ptx.sh surface 1000000 sm_50 >"$out/cmp-sm50-1m.ptx"
cpu() { "$out/measure" "$@" | awk '{ print $2 }'; }
row() { # label args...
	label=$1; shift
	bo="" bn=""
	i=0
	while [ $i -lt "$runs" ]; do
		o=$(cpu "$old" "$@"); n=$(cpu "$new" "$@")
		bo=$(echo "$o ${bo:-$o}" | awk '{ print ($1 < $2) ? $1 : $2 }')
		bn=$(echo "$n ${bn:-$n}" | awk '{ print ($1 < $2) ? $1 : $2 }')
		i=$((i + 1))
	done
	echo "$bo $bn" | awk -v l="$label" '{ printf "%-34s %8.3f %8.3f %+7.1f%%\n", l, $1, $2, ($2 - $1) / $1 * 100 }'
}
printf '%-34s %8s %8s %8s\n' "best CPU seconds of $runs" old new change
row "--check nvcc 10MB" --check "$out/cmp-nvcc-10m.ptx"
row "--check surface 10MB" --check "$out/cmp-surface-10m.ptx"
row "assemble sm_50 1MB (-o /dev/null)" -o /dev/null "$out/cmp-sm50-1m.ptx"
row "--check -v nvcc 10MB" --check -v "$out/cmp-nvcc-10m.ptx"
