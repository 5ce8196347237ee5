#!/bin/sh
# Oracle test of the PTX -> sm_50 lowering against NVIDIA's CUDA 11.8 tools.
# For every golden tests/cases/encode/*.ptx that ptxsurf-as assembles:
#  (a) nvdisasm decodes every word of our raw code (0 decode errors) with
#      exactly the text of our listing (-S);
#  (b) each SULD/SUST/SURED/TXQ/STG/LDG/LDS/STS/LDL/STL/LD/ST word, each float or min/max word
#      (FADD FADD32I FMUL FMUL32I FFMA FMNMX FSETP I2F F2I IMNMX) and each
#      word of issue 17's families (POPC FLO PRMT BFE BFI DADD DMUL DFMA
#      DMNMX DSETP DSET FCMP F2F BAR (BAR.RED too) B2R MEMBAR MUFU RRO, and SHF IADD3 of the wider
#      integer families, VABSDIFF VABSDIFF4 VADD VMNMX VSET VSHL VSHR VMAD of
#      the video instructions with registers B and C masked; CCTL CCTLL of
#      prefetch with their operation kept; lib/cuda118.sh) equals one
#      that ptxas -arch=sm_50 -O3 emits for the same PTX in the same kernel,
#      once register and predicate fields are masked (bits 19:0 but FSETP's
#      neg/abs bits 7:6, the index register 46:39 of register-form surface
#      instructions, register B 27:20 of the register forms, the C (or RC
#      layout's B) register 46:39 of FFMA, DFMA, BFI, PRMT, SHF, IADD3 and FCMP), and each
#      PSETP word one of ptxas -O0 (predicate registers other than PT
#      masked); instructions are paired per kernel and opcode;
#  (c) cuobjdump -sass accepts the cubin we write.
# A golden whose line "// encode-ptxas: not compared: OP... (reason)" names
# opcodes leaves their words out of (b) on both sides: code ptxas builds
# another way by design (the stack frames of recursive calls).
#
# Usage: tests/oracle/encode-ptxas.sh [FILE.ptx...]
# Environment: PROG (default ./ptxsurf-as), PTXSURF_ORACLE_DIR (see
# fetch-nvidia-tools.sh), ENCODE_PTXAS_KEEP=1 keeps the work directory,
# ENCODE_PTXAS_VERBOSE=1 prints every compared pair.
# Exit: 0 all passed, 1 failures, 77 skipped (tools absent), 2 setup error.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
prog=${PROG:-./ptxsurf-as}

. "$here/lib/cuda118.sh"

bin=
cuda118_setup encode-ptxas "no kernel was compared with ptxas"

work=$(mktemp -d "${TMPDIR:-/tmp}/encode-ptxas.XXXXXX") || exit 2
if [ "${ENCODE_PTXAS_KEEP:-0}" = 1 ]; then
	echo "encode-ptxas: keeping $work"
else
	trap 'rm -rf "$work"' EXIT
fi

# Without arguments: every golden, or every STEP-th under check-sanitize.
if [ $# -eq 0 ]; then
	set -- $(printf '%s\n' "$root"/tests/cases/encode/*.ptx | awk -v step="${STEP:-1}" '(NR - 1) % step == 0')
fi

pass=0 fail=0 skipped=0 words=0 mismatches=0 decode_errors=0 text_diffs=0 cubin_rejects=0 count_diffs=0
for f in "$@"; do
	name=$(basename "$f" .ptx)
	d="$work/$name"
	mkdir -p "$d"
	# a golden of forms ptxas takes and strict mode refuses is assembled
	# under ptxas's rules, as sim-diff.sh does (its `// SIM-DIFF: --rules=ptxas`)
	rules=
	grep -q '^// SIM-DIFF: --rules=ptxas$' "$f" && rules=--rules=ptxas
	if ! "$prog" --color=never $rules -S -o "$d/ours.cubin" "$f" >"$d/ours.lst" 2>"$d/ours.err"; then
		skipped=$((skipped + 1))      # diagnosed as unsupported: nothing to compare
		continue
	fi
	ok=1
	# (c) cuobjdump accepts our cubin
	if ! "$bin/cuobjdump" -sass "$d/ours.cubin" >"$d/ours.cuobjdump" 2>&1; then
		echo "FAIL: $name: cuobjdump rejects our cubin: $(head -n 2 "$d/ours.cuobjdump")"
		cubin_rejects=$((cubin_rejects + 1))
		ok=0
	fi
	# (a) nvdisasm decodes every kernel's raw code to our listing's text
	"$prog" --color=never $rules --format=raw -o "$d/ours.bin" "$f" 2>/dev/null
	sass_lines "$d/ours.lst" >"$d/ours.tsv"
	offset=0
	for k in $(cut -f1 "$d/ours.tsv" | uniq); do
		last=$(awk -F '\t' -v k="$k" '$1 == k { a = $2 } END { print a }' "$d/ours.tsv")
		size=$(( 0x$last + 8 ))
		dd if="$d/ours.bin" of="$d/$k.bin" bs=1 skip="$offset" count="$size" 2>/dev/null
		offset=$((offset + size))
		if ! "$bin/nvdisasm" -b SM50 -hex -novliw "$d/$k.bin" >"$d/$k.nv" 2>"$d/$k.nverr"; then
			echo "FAIL: $name: nvdisasm cannot decode kernel $k: $(head -n 1 "$d/$k.nverr")"
			decode_errors=$((decode_errors + 1))
			ok=0
			continue
		fi
		awk -v k="$k" '/\/\*[0-9a-f][0-9a-f][0-9a-f][0-9a-f]\*\// { print "Function : " k; exit }' "$d/$k.nv" >"$d/$k.hdr"
		cat "$d/$k.hdr" "$d/$k.nv" | sass_lines /dev/stdin >"$d/$k.theirs.tsv"
		awk -F '\t' -v k="$k" '$1 == k' "$d/ours.tsv" >"$d/$k.ours.tsv"
		if ! cmp -s "$d/$k.ours.tsv" "$d/$k.theirs.tsv"; then
			echo "FAIL: $name: kernel $k: our listing differs from nvdisasm:"
			diff "$d/$k.ours.tsv" "$d/$k.theirs.tsv" | head -n 6
			text_diffs=$((text_diffs + 1))
			ok=0
		fi
	done
	# (b) surface and STG words equal ptxas's, registers masked
	# a caller that already compiled FILE.ptx leaves FILE.O3.cubin (and
	# FILE.O0.cubin) next to it (kernel-sweep.sh)
	ref3=${f%.ptx}.O3.cubin ref0=${f%.ptx}.O0.cubin
	if [ -f "$ref3" ]; then
		cp "$ref3" "$d/ref.cubin"
	else
		"$bin/ptxas" -arch=sm_50 -O3 "$f" -o "$d/ref.cubin" 2>"$d/ref.err"
	fi
	if [ ! -s "$d/ref.cubin" ]; then
		echo "note: $name: ptxas rejects the file: $(head -n 1 "$d/ref.err")"
	else
		"$bin/nvdisasm" -hex "$d/ref.cubin" >"$d/ref.lst"
		sass_lines "$d/ref.lst" >"$d/ref.tsv"
		# opcodes the golden leaves out: "// encode-ptxas: not compared: STL LDL (...)"
		skip=$(sed -n 's|^// encode-ptxas: not compared: \([A-Z0-9 ]*\).*|\1|p' "$f" | head -n 1)
		sass_masked "$d/ours.tsv" | awk -F '\t' -v skip=" $skip " 'index(skip, " " $2 " ") == 0' >"$d/ours.m"
		# PSETP (predicate logic) is what -O0 writes; -O3 folds it into
		# the ISETPs, so those words come from ptxas -O0.
		sass_masked "$d/ref.tsv" | awk -F '\t' -v skip=" $skip " '$2 != "PSETP" && index(skip, " " $2 " ") == 0' >"$d/ref.m"
		if grep -q '	PSETP	' "$d/ours.m" &&
		   { cp "$ref0" "$d/ref0.cubin" 2>/dev/null ||
		     "$bin/ptxas" -arch=sm_50 -O0 "$f" -o "$d/ref0.cubin" 2>/dev/null; }; then
			"$bin/nvdisasm" -hex "$d/ref0.cubin" >"$d/ref0.lst"
			sass_lines "$d/ref0.lst" >"$d/ref0.tsv"
			sass_masked "$d/ref0.tsv" | awk -F '\t' '$2 == "PSETP"' >>"$d/ref.m"
		fi
		if [ "$(cut -f1,2 "$d/ours.m" | sort | uniq -c)" != "$(cut -f1,2 "$d/ref.m" | sort | uniq -c)" ]; then
			echo "note: $name: ptxas emits a different number of the compared instructions" \
			     "(ours: $(cut -f2 "$d/ours.m" | sort | uniq -c | tr -s ' \n' ' '); ptxas:" \
			     "$(cut -f2 "$d/ref.m" | sort | uniq -c | tr -s ' \n' ' '))"
			count_diffs=$((count_diffs + 1))
		fi
		# ptxas reorders independent stores, merges adjacent ones and unrolls
		# loops: each of our words must be one ptxas emitted for that kernel
		# and opcode (matched as a multiset).
		awk -F '\t' -v n="$name" -v verbose="${ENCODE_PTXAS_VERBOSE:-0}" '
			FILENAME == ARGV[1] { have[$1 "\t" $2 "\t" $3]++; seen[$1 "\t" $2] = seen[$1 "\t" $2] " " $3 " (" $4 ")"; next }
			{
				words++
				key = $1 "\t" $2 "\t" $3
				if (have[key] > 0) { have[key]--; if (verbose == 1) printf "  %s: %s matches ptxas\n", n, $4; next }
				bad++
				printf "FAIL: %s: %s: ours %s (%s); ptxas has:%s\n", n, $1, $3, $4, seen[$1 "\t" $2]
			}
			END { print "WORDS " words + 0 " " bad + 0 }' "$d/ref.m" "$d/ours.m" >"$d/cmp.out"
		grep -v '^WORDS ' "$d/cmp.out"
		counts=$(grep '^WORDS ' "$d/cmp.out")
		nwords=$(echo "$counts" | cut -d ' ' -f2)
		nbad=$(echo "$counts" | cut -d ' ' -f3)
		words=$((words + nwords))
		if [ "$nbad" -ne 0 ]; then
			mismatches=$((mismatches + nbad))
			ok=0
		fi
	fi
	if [ "$ok" = 1 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
done
echo "encode-ptxas: $words words compared, $mismatches mismatches, $decode_errors decode errors," \
     "$text_diffs listing differences, $cubin_rejects cubins rejected; $count_diffs files where ptxas emits" \
     "a different number of them (unrolling, store merging);" \
     "$skipped files not assembled (unsupported)"
echo "encode-ptxas: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
