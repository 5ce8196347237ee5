#!/bin/sh
# make bench: ptxsurf-as --check throughput and peak memory on generated PTX
# of growing size, against NVIDIA ptxas 13 parsing the same file
# (-arch=compute_75: parse and check, no code generation).
#   BENCH_SIZES="1000 1000000 50000000"   sizes in bytes (default: 1 KB to 200 MB)
#   BENCH_QUICK=1                         quick run: 1 KB, 1 MB and 10 MB only
#   BENCH_KINDS="surface nvcc"            generators (bench/gen-ptx.sh)
#   PTXAS=/path/to/ptxas                  ptxas 13 (default /usr/local/cuda/bin/ptxas)
#   PTXAS118=/path/to/ptxas               CUDA 11.8 ptxas for the assembly table
#                                         (default: tests/oracle/fetch-nvidia-tools.sh)
#   BENCH_ASM_SIZES="1000 1000000"        sizes for the assembly table
#   BENCH_FULL=1                          shapes table at 20 MB instead of 2 MB
# Times are wall-clock seconds, best of 3 runs for ptxsurf-as (1 run for
# ptxas above 10 MB); "cpu" is user+system time. Ratios are ptxas / ours
# (wall, then CPU: the CPU ratio is the steadier one on a busy machine).
# --check streams the module one function at a time, so "over(MB)" (peak
# memory minus the input, which is read whole) should stay flat as the
# input grows, and "scale" (seconds per byte against the first row of at
# least 1 MB) near 1.0 when time is linear in the input.
set -e
PROG=${PROG:-./ptxsurf-as}
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
if [ -n "${BENCH_QUICK:-}" ]; then
	SIZES=${BENCH_SIZES:-"1000 1000000 10000000"}
else
	SIZES=${BENCH_SIZES:-"1000 100000 1000000 10000000 50000000 200000000"}
fi
KINDS=${BENCH_KINDS:-"surface nvcc"}
out=${BENCH_DIR:-bench/out}
mkdir -p "$out"
CC=${CC:-cc}
cc -O2 -o "$out/measure" bench/measure.c
# The phase tools (see the "where the time goes" table below): a flex
# scanner with PTX's token classes and nothing else, and our own front end
# taken apart (needs the library `make` built in $B).
B=${B:-build}
have_phases=0
if ${FLEX:-flex} -o "$out/scan-floor.c" bench/scan-floor.l &&
	$CC -O2 -o "$out/scan-floor" "$out/scan-floor.c" &&
	$CC ${BENCH_CFLAGS:--std=c11 -D_POSIX_C_SOURCE=200809L -O2} -iquote src -iquote "$B/gen" \
		-o "$out/phases" bench/phases.c "$B/libptxsurf.a"; then
	have_phases=1
else
	echo "NOTE: the phase tools did not build: the phase table is skipped"
fi
results="$out/results.txt"
: >"$results"

have_ptxas=1
[ -x "$PTXAS" ] || { have_ptxas=0; echo "NOTE: $PTXAS not found: ptxas columns skipped"; }

best() { # best wall time of N runs: best N CMD...
	n=$1; shift
	b=""
	i=0
	while [ $i -lt "$n" ]; do
		r=$("$out/measure" "$@")
		if [ -z "$b" ] || [ "$(echo "$r $b" | awk '{print ($1 < $5)}')" = 1 ]; then b=$r; fi
		i=$((i + 1))
	done
	echo "$b"
}

printf '%-8s %10s %9s %9s %8s %9s %10s %9s %8s %8s %8s %6s\n' kind bytes "ours(s)" "cpu(s)" "MB/s" "peak(MB)" \
	"ptxas(s)" "cpu(s)" ratio "cpu-ratio" "over(MB)" scale
for kind in $KINDS; do
	ref=""
	for size in $SIZES; do
		f="$out/$kind-$size.ptx"
		[ -f "$f" ] || sh bench/gen-ptx.sh "$kind" "$size" >"$f"
		bytes=$(wc -c <"$f")
		set -- $(best 3 "$PROG" --check "$f")
		ours=$1 ocpu=$2 orss=$3 orc=$4
		[ "$orc" = 0 ] || echo "WARNING: ptxsurf-as exited $orc on $f"
		pt="-" pcpu="-" ratio="-" cratio="-"
		if [ $have_ptxas = 1 ]; then
			runs=3
			[ "$bytes" -gt 10000000 ] && runs=1
			set -- $(best $runs "$PTXAS" -arch=compute_75 "$f" -o /dev/null)
			pt=$1 pcpu=$2
			[ "$4" = 0 ] || echo "WARNING: ptxas exited $4 on $f"
			ratio=$(awk -v a="$pt" -v b="$ours" 'BEGIN { printf "%.1fx", (b > 0 ? a / b : 0) }')
			cratio=$(awk -v a="$pcpu" -v b="$ocpu" 'BEGIN { printf "%.1fx", (b > 0 ? a / b : 0) }')
		fi
		mbs=$(awk -v s="$bytes" -v t="$ours" 'BEGIN { printf "%.1f", (t > 0 ? s / t / 1e6 : 0) }')
		over=$(awk -v r="$orss" -v s="$bytes" 'BEGIN { printf "%.1f", r / 1024 - s / 1048576 }')
		# CPU seconds per byte, against the first row of at least 1 MB
		# (smaller inputs measure process start-up, not throughput).
		[ -z "$ref" ] && [ "$size" -ge 1000000 ] && ref="$ocpu $bytes"
		scale=$(echo "$ref" | awk -v t="$ocpu" -v s="$bytes" \
			'NF == 2 && $1 > 0 { printf "%.2f", (t / s) / ($1 / $2); next } { printf "-" }')
		printf '%-8s %10s %9s %9s %8s %9s %10s %9s %8s %8s %8s %6s\n' "$kind" "$bytes" "$ours" "$ocpu" "$mbs" \
			"$((orss / 1024))" "$pt" "$pcpu" "$ratio" "$cratio" "$over" "$scale"
		echo "$kind $size $bytes $ocpu $pcpu" >>"$results"
	done
done

# Where the time goes (CPU seconds, inputs of 1 MB and more), and the best
# CPU ratio against ptxas each phase would leave if everything after it
# cost nothing: "floor" is bench/scan-floor.l (flex with PTX's token
# classes and empty actions: the least any flex front end spends), "lex"
# our scanner (interning, numbers, locations), "parse" scanner + parser +
# AST, "check" the whole of --check.
if [ $have_phases = 1 ]; then
	echo
	printf '%-8s %10s %9s %9s %9s %9s %9s   %s\n' phases bytes "floor(s)" "lex(s)" "parse(s)" "check(s)" \
		"ptxas(s)" "ratio ceiling: floor lex parse check"
	while read -r kind size bytes ocpu pcpu; do
		[ "$size" -ge 1000000 ] || continue
		f="$out/$kind-$size.ptx"
		set -- $("$out/scan-floor" "$f")
		floor=$1
		set -- $("$out/phases" "$f")
		lex=$1 parse=$2
		ceil=$(awk -v p="$pcpu" -v a="$floor" -v b="$lex" -v c="$parse" -v d="$ocpu" 'BEGIN {
			if (p == "-") { print "-"; exit }
			printf "%.1fx %.1fx %.1fx %.1fx", p / a, p / b, p / c, p / d }')
		printf '%-8s %10s %9s %9s %9s %9s %9s   %s\n' "$kind" "$bytes" "$floor" "$lex" "$parse" "$ocpu" \
			"$pcpu" "$ceil"
	done <"$results"
fi

# Assembly: ptxsurf-as -> sm_50 cubin against ptxas 11.8 -O0 -arch=sm_50 on
# the same surface-heavy sm_50 input. Assembly streams like --check (one
# top-level item parsed, checked, lowered and encoded at a time), so
# "over(MB)" should stay flat too. "check(s)" is --check's CPU time on the
# same file, the front end every assembly pays: "ceiling" is the CPU ratio
# assembly would reach if the back end cost nothing.
ASM_SIZES=${BENCH_ASM_SIZES:-"1000 100000 1000000 10000000"}
PTXAS118=${PTXAS118:-}
if [ -z "$PTXAS118" ] && bin=$(sh tests/oracle/fetch-nvidia-tools.sh 2>/dev/null); then
	PTXAS118=$bin/ptxas
fi
echo
printf '%-8s %10s %9s %9s %8s %9s %8s %12s %9s %8s %9s %9s %8s\n' assemble bytes "ours(s)" "cpu(s)" "MB/s" \
	"peak(MB)" "over(MB)" "ptxas-O0(s)" "cpu(s)" ratio "cpu-ratio" "check(s)" ceiling
for size in $ASM_SIZES; do
	f="$out/asm-$size.ptx"
	[ -f "$f" ] || sh bench/gen-ptx.sh surface "$size" sm_50 >"$f"
	bytes=$(wc -c <"$f")
	set -- $(best 3 "$PROG" "$f" -o "$out/asm-$size.cubin")
	ours=$1 ocpu=$2 orss=$3
	[ "$4" = 0 ] || echo "WARNING: ptxsurf-as exited $4 on $f"
	set -- $(best 3 "$PROG" --check "$f")
	ccpu=$2
	pt="-" pcpu="-" ratio="-" cratio="-" ceiling="-"
	if [ -n "$PTXAS118" ] && [ -x "$PTXAS118" ]; then
		set -- $(best 1 "$PTXAS118" -O0 -arch=sm_50 "$f" -o "$out/asm-$size.ptxas.cubin")
		pt=$1 pcpu=$2
		[ "$4" = 0 ] || echo "WARNING: ptxas 11.8 exited $4 on $f"
		ratio=$(awk -v a="$pt" -v b="$ours" 'BEGIN { printf "%.1fx", (b > 0 ? a / b : 0) }')
		cratio=$(awk -v a="$pcpu" -v b="$ocpu" 'BEGIN { printf "%.1fx", (b > 0 ? a / b : 0) }')
		ceiling=$(awk -v a="$pcpu" -v b="$ccpu" 'BEGIN { printf "%.1fx", (b > 0 ? a / b : 0) }')
	fi
	mbs=$(awk -v s="$bytes" -v t="$ours" 'BEGIN { printf "%.1f", (t > 0 ? s / t / 1e6 : 0) }')
	over=$(awk -v r="$orss" -v s="$bytes" 'BEGIN { printf "%.1f", r / 1024 - s / 1048576 }')
	printf '%-8s %10s %9s %9s %8s %9s %8s %12s %9s %8s %9s %9s %8s\n' surface "$bytes" "$ours" "$ocpu" "$mbs" \
		"$((orss / 1024))" "$over" "$pt" "$pcpu" "$ratio" "$cratio" "$ccpu" "$ceiling"
done
[ -n "$PTXAS118" ] || echo "NOTE: CUDA 11.8 ptxas not available: assembly ratios skipped"

# The input shapes of issue 18 (one huge function, many functions, a tree
# of files, one big kernel to assemble) and -j 2 on trees of files.
echo
PROG="$PROG" PTXAS="$PTXAS" PTXAS118="$PTXAS118" BENCH_DIR="$out" sh bench/shapes.sh
