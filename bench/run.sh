#!/bin/sh
# make bench: ptxsurf-as --check throughput and peak memory on generated PTX
# of growing size, against NVIDIA ptxas 13 parsing the same file
# (-arch=compute_75: parse and check, no code generation).
#   BENCH_SIZES="1000 1000000 50000000"   sizes in bytes (default below)
#   BENCH_KINDS="surface nvcc"            generators (bench/gen-ptx.sh)
#   PTXAS=/path/to/ptxas                  ptxas 13 (default /usr/local/cuda/bin/ptxas)
#   PTXAS118=/path/to/ptxas               CUDA 11.8 ptxas for the assembly table
#                                         (default: tests/oracle/fetch-nvidia-tools.sh)
#   BENCH_ASM_SIZES="1000 1000000"        sizes for the assembly table
# Times are wall-clock seconds, best of 3 runs for ptxsurf-as (1 run for
# ptxas above 10 MB); "cpu" is user+system time. Ratios are ptxas / ours.
set -e
PROG=${PROG:-./ptxsurf-as}
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
SIZES=${BENCH_SIZES:-"1000 100000 1000000 10000000 50000000"}
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

printf '%-8s %10s %9s %9s %8s %9s %10s %9s %8s\n' kind bytes "ours(s)" "cpu(s)" "MB/s" "peak(MB)" "ptxas(s)" "cpu(s)" ratio
for kind in $KINDS; do
	for size in $SIZES; do
		f="$out/$kind-$size.ptx"
		[ -f "$f" ] || sh bench/gen-ptx.sh "$kind" "$size" >"$f"
		bytes=$(wc -c <"$f")
		set -- $(best 3 "$PROG" --check "$f")
		ours=$1 ocpu=$2 orss=$3 orc=$4
		[ "$orc" = 0 ] || echo "WARNING: ptxsurf-as exited $orc on $f"
		pt="-" pcpu="-" ratio="-"
		if [ $have_ptxas = 1 ]; then
			runs=3
			[ "$bytes" -gt 10000000 ] && runs=1
			set -- $(best $runs "$PTXAS" -arch=compute_75 "$f" -o /dev/null)
			pt=$1 pcpu=$2
			[ "$4" = 0 ] || echo "WARNING: ptxas exited $4 on $f"
			ratio=$(awk -v a="$pt" -v b="$ours" 'BEGIN { printf "%.1fx", (b > 0 ? a / b : 0) }')
		fi
		mbs=$(awk -v s="$bytes" -v t="$ours" 'BEGIN { printf "%.1f", (t > 0 ? s / t / 1e6 : 0) }')
		printf '%-8s %10s %9s %9s %8s %9s %10s %9s %8s\n' "$kind" "$bytes" "$ours" "$ocpu" "$mbs" \
			"$((orss / 1024))" "$pt" "$pcpu" "$ratio"
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
