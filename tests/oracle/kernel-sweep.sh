#!/bin/sh
# Sweep of random kernels (gen_kernels.c) against NVIDIA's CUDA 11.8 tools:
# the encoder meets shapes the goldens never showed it. For each seed:
#  1. ptxas -arch=sm_50 accepts the module at -O3 and -O0 (else the
#     generator left the subset: a failure of this test);
#  2. ptxsurf-as assembles it, and --verify-sched proves it hazard-free;
#  3. every distinct SULD/SUST/SURED/TXQ word (registers masked as in
#     encode-ptxas.sh) is one ptxas emits for that kernel at -O3 or -O0:
#     same opcode, modifiers, size, clamp, cache operator and surface slot;
#  4. the .nv.info records ptxas and we both decide from the PTX (parameter
#     bank, sizes and offsets, EXPLICIT_CACHING, BINDLESS_SURFACE_BANK,
#     CTAIDZ_USED, MAXREG_COUNT) and the surface-slot relocations of
#     .rel.nv.constant0 equal those of ptxas -O3;
# then tests/oracle/encode-ptxas.sh runs on all of them: nvdisasm decodes
# every word to our listing's text and cuobjdump -sass accepts every cubin
# (its per-word STG/LDG comparison is only reported here: ptxas -O3 folds
# address arithmetic into offsets, merges stores and unrolls loops).
#
# Usage: tests/oracle/kernel-sweep.sh            (seeds 1..48, under a minute)
#        SWEEP_SEEDS=500 SWEEP_FIRST=1000 tests/oracle/kernel-sweep.sh
# Environment: PROG, CC, PTXSURF_ORACLE_DIR, SWEEP_KEEP=1 keeps the work
# directory (the generated .ptx files are the reproducers).
# Exit: 0 all passed, 1 failures, 77 skipped (tools absent), 2 setup error.
set -u

here=$(cd "$(dirname "$0")" && pwd)
prog=${PROG:-./ptxsurf-as}
case $prog in /*) ;; *) prog=$(pwd)/$prog ;; esac

. "$here/lib/cuda118.sh"

bin=$(find_cuda118_bin)
if [ -z "$bin" ]; then
	echo "SKIP: kernel-sweep: ptxas/nvdisasm/cuobjdump 11.8 not found (\$PTXSURF_ORACLE_DIR/bin," \
	     "fetch-nvidia-tools.sh, /opt/nvidia-oracles/bin, PATH): no random kernel was compared"
	exit 77
fi
if [ ! -x "$prog" ]; then
	echo "kernel-sweep: $prog is not built" >&2
	exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/kernel-sweep.XXXXXX") || exit 2
if [ "${SWEEP_KEEP:-0}" = 1 ]; then
	echo "kernel-sweep: keeping $work"
else
	trap 'rm -rf "$work"' EXIT
fi
${CC:-cc} -std=c11 -O1 -o "$work/gen" "$here/gen_kernels.c" || exit 2

first=${SWEEP_FIRST:-1}
count=${SWEEP_SEEDS:-48}

# Surface words of a listing (nvdisasm -hex or ours), masked as in
# encode-ptxas.sh: "KERNEL<TAB>MASKEDHEX<TAB>TEXT", one per distinct word.
su_words() {
	sass_lines "$1" >"$1.tsv"
	sass_masked "$1.tsv" | awk -F '\t' '$2 ~ /^(SULD|SUST|SURED|TXQ)$/ && !seen[$1 "\t" $3]++ { print $1 "\t" $3 "\t" $4 }'
}

# The .nv.info records and slot relocations both sides decide from the PTX,
# per kernel, from cuobjdump -elf.
elf_facts() {
	"$bin/cuobjdump" -elf "$1" | awk '
	/^\.nv\.info\./ { k = $1; sub(/^\.nv\.info\./, "", k); next }
	/^\.nv\.info$/ || /^\.(text|nv\.constant|nv\.rel|rel)/ { k = "" }
	/^\.rel\.nv\.constant0\./ { r = $1; sub(/^\.rel\.nv\.constant0\./, "", r); inrel = 1; next }
	/^\./ { inrel = 0 }
	inrel && /R_CUDA_SURF_HEADER_INDEX/ { print r "\treloc\t" $0; next }
	k != "" && /Attribute:/ { a = $2; keepit = a ~ /PARAM_CBANK|CBANK_PARAM_SIZE|KPARAM_INFO|EXPLICIT_CACHING|BINDLESS_SURFACE_BANK|CTAIDZ_USED|MAXREG_COUNT|MAX_THREADS|REQNTID/; if (keepit) print k "\t" a; next }
	# PARAM_CBANK starts with the symbol index of .nv.constant0.<k>, which
	# moves with symbols ptxas -O3 adds for its own constants
	k != "" && keepit && /Value:|Pointee/ { v = $0; if (a ~ /PARAM_CBANK/) sub(/Value:[ \t]*0x[0-9a-f]+/, "Value: sym", v); print k "\t" a "\t" v }'
}

pass=0 fail=0 gen_bad=0 su_words=0 kernels=0
s=$first
while [ "$s" -lt $((first + count)) ]; do
	f="$work/s$s.ptx"
	"$work/gen" "$s" >"$f" || exit 2
	s=$((s + 1))
	name=$(basename "$f" .ptx)
	ok=1
	kernels=$((kernels + $(grep -c '^\.visible \.entry' "$f")))
	for o in 3 0; do
		if ! "$bin/ptxas" -arch=sm_50 -O$o "$f" -o "$work/$name.O$o.cubin" 2>"$work/$name.O$o.err"; then
			echo "FAIL: $name: ptxas -O$o rejects the generated kernel (generator bug):" \
			     "$(head -n 1 "$work/$name.O$o.err")"
			gen_bad=$((gen_bad + 1)); ok=0
		fi
	done
	if ! "$prog" --color=never -S -o "$work/$name.cubin" "$f" >"$work/$name.lst" 2>"$work/$name.err"; then
		echo "FAIL: $name: ptxsurf-as: $(grep -m 1 error "$work/$name.err")"
		fail=$((fail + 1)); continue
	fi
	if ! "$prog" --color=never --verify-sched -o /dev/null "$f" 2>"$work/$name.vs" >/dev/null ||
	   grep -q sched-hazard "$work/$name.vs"; then
		echo "FAIL: $name: --verify-sched: $(grep -m 1 error "$work/$name.vs")"
		ok=0
	fi
	if [ "$ok" = 1 ]; then
		for o in 3 0; do
			"$bin/nvdisasm" -hex "$work/$name.O$o.cubin" >"$work/$name.O$o.lst"
			su_words "$work/$name.O$o.lst"
		done | cut -f1,2 | sort -u >"$work/$name.ref.su"
		su_words "$work/$name.lst" >"$work/$name.su"
		su_words=$((su_words + $(wc -l <"$work/$name.su")))
		missing=$(cut -f1,2 "$work/$name.su" | sort -u | comm -23 - "$work/$name.ref.su")
		if [ -n "$missing" ]; then
			echo "FAIL: $name: surface words ptxas does not emit for that kernel:"
			echo "$missing" | while read -r k h; do
				grep "^$k	$h" "$work/$name.su" | sed 's/^/    ours: /'
			done
			ok=0
		fi
		elf_facts "$work/$name.O3.cubin" | sort >"$work/$name.ref.facts"
		elf_facts "$work/$name.cubin" | sort >"$work/$name.facts"
		if ! cmp -s "$work/$name.facts" "$work/$name.ref.facts"; then
			echo "FAIL: $name: .nv.info/slot relocations differ from ptxas -O3 (< ours, > ptxas):"
			diff "$work/$name.facts" "$work/$name.ref.facts" | grep '^[<>]' | head -n 6
			ok=0
		fi
	fi
	if [ "$ok" = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done

# Decoding, listing text and cubin acceptance of everything we assembled.
PROG=$prog sh "$here/encode-ptxas.sh" "$work"/s*.ptx >"$work/encode.log" 2>&1
summary=$(grep '^encode-ptxas: .* compared' "$work/encode.log")
echo "kernel-sweep: $summary"
bad=$(echo "$summary" | sed -n 's/.* \([0-9]*\) decode errors, \([0-9]*\) listing differences, \([0-9]*\) cubins rejected.*/\1 \2 \3/p')
set -- $bad
if [ "$#" -ne 3 ] || [ "$1" -ne 0 ] || [ "$2" -ne 0 ] || [ "$3" -ne 0 ]; then
	grep -E 'nvdisasm|differs|cuobjdump' "$work/encode.log" | head -n 20
	fail=$((fail + 1))
fi
echo "kernel-sweep: seeds $first..$((first + count - 1)): $kernels kernels, $su_words distinct surface words" \
     "checked against ptxas, $gen_bad ptxas rejections of generated kernels"
echo "kernel-sweep: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
