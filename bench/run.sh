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
cc -O2 -o "$out/measure" bench/measure.c

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
	done
done

# Assembly: ptxsurf-as -> sm_50 cubin against ptxas 11.8 -O0 -arch=sm_50 on
# the same surface-heavy sm_50 input.
ASM_SIZES=${BENCH_ASM_SIZES:-"1000 100000 1000000 10000000"}
PTXAS118=${PTXAS118:-}
if [ -z "$PTXAS118" ] && bin=$(sh tests/oracle/fetch-nvidia-tools.sh 2>/dev/null); then
	PTXAS118=$bin/ptxas
fi
echo
printf '%-8s %10s %9s %9s %8s %9s %12s %9s %8s\n' assemble bytes "ours(s)" "cpu(s)" "MB/s" "peak(MB)" "ptxas-O0(s)" "cpu(s)" ratio
for size in $ASM_SIZES; do
	f="$out/asm-$size.ptx"
	[ -f "$f" ] || sh bench/gen-ptx.sh surface "$size" sm_50 >"$f"
	bytes=$(wc -c <"$f")
	set -- $(best 3 "$PROG" "$f" -o "$out/asm-$size.cubin")
	ours=$1 ocpu=$2 orss=$3
	[ "$4" = 0 ] || echo "WARNING: ptxsurf-as exited $4 on $f"
	pt="-" pcpu="-" ratio="-"
	if [ -n "$PTXAS118" ] && [ -x "$PTXAS118" ]; then
		set -- $(best 1 "$PTXAS118" -O0 -arch=sm_50 "$f" -o "$out/asm-$size.ptxas.cubin")
		pt=$1 pcpu=$2
		[ "$4" = 0 ] || echo "WARNING: ptxas 11.8 exited $4 on $f"
		ratio=$(awk -v a="$pt" -v b="$ours" 'BEGIN { printf "%.1fx", (b > 0 ? a / b : 0) }')
	fi
	mbs=$(awk -v s="$bytes" -v t="$ours" 'BEGIN { printf "%.1f", (t > 0 ? s / t / 1e6 : 0) }')
	printf '%-8s %10s %9s %9s %8s %9s %12s %9s %8s\n' surface "$bytes" "$ours" "$ocpu" "$mbs" \
		"$((orss / 1024))" "$pt" "$pcpu" "$ratio"
done
[ -n "$PTXAS118" ] || echo "NOTE: CUDA 11.8 ptxas not available: assembly ratios skipped"
