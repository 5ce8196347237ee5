#!/bin/sh
# The input shapes of issue 18, each against NVIDIA's tools (run by
# bench/run.sh after the size tables; also alone: sh bench/shapes.sh):
#   huge   one function of SIZE bytes            --check vs ptxas 13 -arch=compute_75
#   many   SIZE bytes of ~500-byte kernels       --check vs ptxas 13
#   tree   the files of tests/corpus, one command (-j 1 and -j 2) vs ptxas 13
#          run once per file
#   asm    one kernel of 0.25, 1 and 2 MB assembled to sm_50 vs ptxas 11.8
#          -O0 and -O3 -arch=sm_50
# SIZE is 2 MB, 20 MB with BENCH_FULL=1. Columns: wall and CPU (user +
# system) seconds, peak memory (MB, getrusage of the process and what it
# waited for), the ratios ptxas / ours (wall, CPU) and the 1-minute load
# average when the row was measured (the machine is shared: a load above
# its cores makes wall times what a process happened to get). Then -j 2
# against -j 1 (wall) on trees of files: the corpus, 16 generated 1 MB nvcc
# files (--check) and 8 generated 250 KB sm_50 files (assembly), and on one
# file of many kernels (assembly: the kernels' back ends on threads). In
# between, the split of --check's CPU between parsing and checking on the
# huge and many shapes, which bounds -j across the functions of one file.
# Nothing here asserts a time: the numbers go to docs/performance.md.
set -e
PROG=${PROG:-./ptxsurf-as}
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
out=${BENCH_DIR:-bench/out}
mkdir -p "$out"
[ -x "$out/measure" ] || ${CC:-cc} -O2 -o "$out/measure" bench/measure.c
SIZE=2000000
[ -n "${BENCH_FULL:-}" ] && SIZE=20000000
PTXAS118=${PTXAS118:-}
if [ -z "$PTXAS118" ] && bin=$(sh tests/oracle/fetch-nvidia-tools.sh 2>/dev/null); then
	PTXAS118=$bin/ptxas
fi
have() { [ -n "$1" ] && [ -x "$1" ]; }

# best N CMD...: the run with the least wall time, as measure prints it
best() {
	n=$1
	shift
	b=""
	i=0
	while [ $i -lt "$n" ]; do
		r=$("$out/measure" "$@")
		if [ -z "$b" ] || [ "$(echo "$r $b" | awk '{print ($1 < $5)}')" = 1 ]; then b=$r; fi
		i=$((i + 1))
	done
	echo "$b"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b <= 0) print "-"; else printf "%.1fx", a / b }'; }
mb() { awk -v k="$1" 'BEGIN { if (k == "-") print "-"; else printf "%.0f", k / 1024 }'; }
gen() { # gen KIND SIZE [TARGET] -> path
	f="$out/$1-$2${3:+-$3}.ptx"
	[ -f "$f" ] || sh bench/gen-ptx.sh "$1" "$2" ${3:-} >"$f"
	echo "$f"
}
load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo -; }
# row SHAPE BYTES OURS-MEASURE THEIRS-MEASURE
row() {
	set -- "$1" "$2" $3 $4
	printf '%-14s %9s %8s %8s %8s %10s %8s %8s %8s %9s %5s\n' "$1" "$2" "$3" "$4" "$(mb "$5")" \
		"${7:--}" "${8:--}" "$(mb "${9:--}")" "$(ratio "${7:--}" "$3")" "$(ratio "${8:--}" "$4")" "$(load)"
}
printf '%-14s %9s %8s %8s %8s %10s %8s %8s %8s %9s %5s\n' shape bytes "ours(s)" "cpu(s)" "peak(MB)" \
	"theirs(s)" "cpu(s)" "peak(MB)" ratio cpu-ratio load

for kind in huge many; do
	f=$(gen $kind $SIZE)
	ours=$(best 3 "$PROG" --check "$f")
	theirs="- - - -"
	have "$PTXAS" && theirs=$(best 1 "$PTXAS" -arch=compute_75 "$f" -o /dev/null)
	row "$kind/check" "$(wc -c <"$f")" "$ours" "$theirs"
done

# Where --check's CPU goes on these shapes: the scanner and parser building
# each item (bench/phases.c, no checking) and the rest, the checker. Two
# threads for the functions of one file (parser and checker as a pipeline:
# the checker must see the module scope in order) could reach at most
# check / max(parse, check - parse).
B=${B:-build}
[ -x "$out/phases" ] || ${CC:-cc} -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -iquote src -iquote "$B/gen" \
	-o "$out/phases" bench/phases.c "$B/libptxsurf.a" -pthread 2>/dev/null || true
if [ -x "$out/phases" ]; then
	echo
	printf '%-14s %9s %9s %9s %9s %9s %5s\n' split bytes "parse(s)" "check(s)" "checker%" "2-thr max" load
	for kind in huge many; do
		f=$(gen $kind $SIZE)
		parse=$("$out/phases" "$f" | cut -d' ' -f2)
		check=$(best 3 "$PROG" --check "$f" | cut -d' ' -f2)
		awk -v k="$kind" -v b="$(wc -c <"$f")" -v p="$parse" -v c="$check" -v l="$(load)" 'BEGIN {
			r = c - p; m = p > r ? p : r
			printf "%-14s %9s %9.3f %9.3f %8.0f%% %8.2fx %5s\n", k, b, p, c, 100 * r / c, c / m, l }'
	done
fi

tree=$(ls tests/corpus/*.ptx)
tbytes=$(cat $tree | wc -c)
theirs="- - - -"
if have "$PTXAS"; then
	# ptxas reads one file a command: once per file, as a build would
	printf '#!/bin/sh\nfor f in %s; do "%s" -arch=compute_75 "$f" -o /dev/null; done; exit 0\n' \
		"$(echo $tree)" "$PTXAS" >"$out/ptxas-tree.sh"
	theirs=$(best 1 sh "$out/ptxas-tree.sh")
fi
for j in 1 2; do
	row "tree/check-j$j" "$tbytes" "$(best 3 "$PROG" -j $j --check $tree)" "$theirs"
done

for size in 250000 1000000 2000000; do
	f=$(gen huge $size sm_50)
	ours=$(best 1 "$PROG" "$f" -o "$out/asm-huge.cubin")
	for o in O0 O3; do
		theirs="- - - -"
		have "$PTXAS118" && theirs=$(best 1 "$PTXAS118" -$o -arch=sm_50 "$f" -o "$out/asm-huge.ptxas.cubin")
		row "asm/ptxas-$o" "$(wc -c <"$f")" "$ours" "$theirs"
	done
done
have "$PTXAS" || echo "NOTE: $PTXAS not found: ptxas 13 columns empty"
have "$PTXAS118" || echo "NOTE: CUDA 11.8 ptxas not available: assembly columns empty"

# -j 2 against -j 1, wall seconds (best of 3), on trees of files.
echo
printf '%-22s %6s %10s %9s %9s %8s %5s\n' "tree (-j)" files bytes "j1(s)" "j2(s)" speedup load
jrow() { # jrow NAME ARGS... (the files last)
	name=$1
	shift
	j1=$(best 3 "$PROG" -j 1 "$@" | cut -d' ' -f1)
	j2=$(best 3 "$PROG" -j 2 "$@" | cut -d' ' -f1)
	n=0 bytes=0
	for a in "$@"; do
		[ -f "$a" ] && n=$((n + 1)) && bytes=$((bytes + $(wc -c <"$a")))
	done
	printf '%-22s %6s %10s %9s %9s %8s %5s\n' "$name" "$n" "$bytes" "$j1" "$j2" "$(ratio "$j1" "$j2")" "$(load)"
}
jrow "corpus --check" --check $tree
set --
for i in $(seq 1 16); do
	f="$out/tree-nvcc-$i.ptx"
	[ -f "$f" ] || sh bench/gen-ptx.sh nvcc 1000000 | sed "s/nv_k/nv${i}_k/" >"$f"
	set -- "$@" "$f"
done
jrow "16 x 1 MB --check" --check "$@"
set --
for i in $(seq 1 8); do
	f="$out/tree-asm-$i.ptx"
	[ -f "$f" ] || sh bench/gen-ptx.sh surface 250000 sm_50 >"$f"
	set -- "$@" "$f"
done
jrow "8 x 250 KB assemble" "$@"
f=$(gen surface $SIZE sm_50)
jrow "1 file of kernels, asm" -o /dev/null "$f"
