#!/bin/sh
# Sweep of random kernels (gen_kernels.c; with --whole also device
# functions and calls, module data in every state space and textures; with
# --video the video instructions and fns)
# against NVIDIA's CUDA 11.8 tools: the encoder meets shapes the goldens
# never showed it. For each seed:
#  1. ptxas -arch=sm_50 accepts the module at -O3 and -O0 (else the
#     generator left the subset: a failure of this test);
#  2. ptxsurf-as assembles it, and --verify-sched proves it hazard-free;
#  3. every distinct SULD/SUST/SURED/TXQ word and TEX/TLD/TLD4/TEXS/TLDS/
#     TLD4S word (registers masked as in encode-ptxas.sh, .NODEP too) is
#     one ptxas emits for that kernel at -O3 or -O0: same opcode,
#     modifiers, size, clamp, cache operator, surface or texture slot,
#     geometry, level mode and write mask;
#  4. the .nv.info records ptxas and we both decide from the PTX (parameter
#     bank, sizes and offsets, EXPLICIT_CACHING, BINDLESS_SURFACE_BANK,
#     BINDLESS_TEXTURE_BANK, CTAIDZ_USED, MAXREG_COUNT) and the surface-
#     and texture-slot relocations of .rel.nv.constant0 equal those of
#     ptxas -O3;
# then tests/oracle/encode-ptxas.sh runs on all of them: nvdisasm decodes
# every word to our listing's text and cuobjdump -sass accepts every cubin
# (its per-word STG/LDG comparison is only reported here: ptxas -O3 folds
# address arithmetic into offsets, merges stores and unrolls loops).
#
# Usage: tests/oracle/kernel-sweep.sh            (seeds 1..40, --whole 1..12, --video 1..8)
#        SWEEP_SEEDS=500 SWEEP_WHOLE_SEEDS=100 SWEEP_VIDEO_SEEDS=100 SWEEP_FIRST=1000 tests/oracle/kernel-sweep.sh
# Environment: PROG, CC, PTXSURF_ORACLE_DIR, JOBS (parallel seeds, default
# 2), SWEEP_KEEP=1 keeps the work directory (the generated .ptx files are
# the reproducers: gen_kernels SEED).
# Exit: 0 all passed, 1 failures, 77 skipped (tools absent), 2 setup error.
set -u

here=$(cd "$(dirname "$0")" && pwd)
prog=${PROG:-./ptxsurf-as}
case $prog in /*) ;; *) prog=$(pwd)/$prog ;; esac

. "$here/lib/cuda118.sh"

# A worker (--one SEED) gets bin, prog and work from the main process.
[ "${1:-}" = "--one" ] || bin=
cuda118_setup kernel-sweep "no random kernel was compared"

if [ "${1:-}" != "--one" ]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/kernel-sweep.XXXXXX") || exit 2
	if [ "${SWEEP_KEEP:-0}" = 1 ]; then
		echo "kernel-sweep: keeping $work"
	else
		trap 'rm -rf "$work"' EXIT
	fi
	${CC:-cc} -std=c11 -O1 -o "$work/gen" "$here/gen_kernels.c" "$here/gen_loops.c" "$here/gen_families.c" \
		"$here/gen_calls.c" "$here/gen_data.c" "$here/gen_tex.c" "$here/gen_video.c" || exit 2
fi

first=${SWEEP_FIRST:-1}
count=${SWEEP_SEEDS:-$((40 / ${STEP:-1}))}   # STEP > 1 (check-sanitize): fewer seeds
# seeds of gen_kernels --whole (functions and calls, module data in every
# state space, textures), from SWEEP_FIRST too
whole=${SWEEP_WHOLE_SEEDS:-$((12 / ${STEP:-1}))}
# seeds of gen_kernels --video (video instructions and fns), from SWEEP_FIRST too
video=${SWEEP_VIDEO_SEEDS:-$((8 / ${STEP:-1}))}

# Surface and texture words of a listing (nvdisasm -hex or ours), masked
# as in encode-ptxas.sh: "KERNEL<TAB>MASKEDHEX<TAB>TEXT", one per distinct
# word. The .NODEP bit (49) of TXQ, TEX, TLD, TLD4, TEXS, TLDS and TLD4S is
# masked too: ptxas -O3 sets it where a texture result goes only into
# surface instructions, as we do (lower/tex_nodep.c), but it also merges
# identical txq queries into one TXQ, whose merged uses change the bit,
# and -O0 never sets it; a texture instruction without it is always
# correct. TXD (tex.grad) is compared by encode-ptxas on the goldens, not here.
su_words() {
	sass_lines "$1" >"$1.tsv"
	sass_masked "$1.tsv" | awk -F '\t' '
	function hv(c) { return index("0123456789abcdef", c) - 1 }
	function hc(v) { return substr("0123456789abcdef", v + 1, 1) }
	$2 ~ /^(SULD|SUST|SURED|TXQ|TEX|TLD|TLD4|TEXS|TLDS|TLD4S)$/ {
		h = $3
		n = hv(substr(h, 4, 1)); n -= int(n / 2) % 2 * 2; h = substr(h, 1, 3) hc(n) substr(h, 5)
		if (!seen[$1 "\t" h]++) print $1 "\t" h "\t" $4
	}'
}

# Whether the texture word HEX (masked) of kernel K matches a word of the
# .ref.su file REF but for a write mask that is narrower there: ptxas -O3
# removes a dead store of a texture component (to a .local array no load
# reads) and narrows the mask to the rest. TEX, TLD and TLD4 only (the mask
# is bits 34:31); a compact form's mask code (and Rd2) is not compared so.
tex_narrowed() {
	awk -F '\t' -v k="$1" -v ours="$2" '
	function hv(c) { return index("0123456789abcdef", c) - 1 }
	# the mask, and the word without it (bits 34:32 in digit 8, 31 in digit 9)
	function mask(h) { return (hv(substr(h, 8, 1)) % 8) * 2 + int(hv(substr(h, 9, 1)) / 8) }
	function bare(h) { return substr(h, 1, 7) (hv(substr(h, 8, 1)) - hv(substr(h, 8, 1)) % 8) (hv(substr(h, 9, 1)) % 8) substr(h, 10) }
	BEGIN { m = mask(ours); b = bare(ours) }
	$1 == k && bare($2) == b { t = mask($2); n = 0
		for (i = 0; i < 4; i++) if (int(t / 2 ^ i) % 2 && !(int(m / 2 ^ i) % 2)) n++
		if (n == 0) found = 1 }
	END { exit !found }' "$3"
}

# Whether the texture word HEX (masked) of kernel K matches a word of the
# .ref.su file REF but for a write mask that is wider there, each extra
# component the destination of a tex/tld4 of K in the module PTX that only
# st.param reads (a call argument): ptxas fetches it, while our dead code
# removal, across the call, proved the callee never reads it (gen_kernels
# --whole 22: f1's result is dead in every caller; sim-diff runs the
# kernels). A component anything else reads is not accepted.
tex_call_only() {
	awk -F '\t' -v k="$1" -v ours="$2" -v ptx="$4" '
	function hv(c) { return index("0123456789abcdef", c) - 1 }
	function mask(h) { return (hv(substr(h, 8, 1)) % 8) * 2 + int(hv(substr(h, 9, 1)) / 8) }
	function bare(h) { return substr(h, 1, 7) (hv(substr(h, 8, 1)) - hv(substr(h, 8, 1)) % 8) (hv(substr(h, 9, 1)) % 8) substr(h, 10) }
	BEGIN { m = mask(ours); b = bare(ours)
		# the kernel: its tex/tld4 destinations and every other register read
		while ((getline l < ptx) > 0) {
			if (l ~ /^\.(visible )?\.?entry /) { in_k = index(l, " " k "(") > 0; continue }
			if (!in_k) continue
			if (l ~ /^}/) { in_k = 0; continue }
			if (l ~ /^[ \t]*(@!?%p[0-9]+ )?(tex|tld4)\./) {
				d = l; sub(/^[^{]*\{/, "", d); sub(/\}.*/, "", d); gsub(/ /, "", d)
				ntex++; dest[ntex] = d; sub(/^[^}]*\}/, "", l)   # the rest reads
			}
			if (l ~ /^[ \t]*st\.param/) continue
			while (match(l, /%[a-z]+[0-9]+/)) { read[substr(l, RSTART, RLENGTH)] = 1; l = substr(l, RSTART + RLENGTH) }
		}
	}
	$1 == k && bare($2) == b { t = mask($2); extra = 0
		for (i = 0; i < 4; i++) {
			if (int(m / 2 ^ i) % 2 && !(int(t / 2 ^ i) % 2)) extra = -1
			if (extra >= 0 && int(t / 2 ^ i) % 2 && !(int(m / 2 ^ i) % 2)) extra += 2 ^ i
		}
		if (extra > 0) for (j = 1; j <= ntex; j++) {
			n = split(dest[j], r, ","); ok = n == 4
			for (i = 0; ok && i < 4; i++) if (int(extra / 2 ^ i) % 2 && (r[i + 1] in read)) ok = 0
			if (ok) found = 1
		} }
	END { exit !found }' "$3"
}

# How many instructions of family FAM (SULD, SUST, ...) kernel K of a
# listing's .tsv (kernel, address, text, word) has.
fam_count() {
	awk -F '\t' -v k="$2" -v f="$3" '$1 == k { t = $3; sub(/^@!?P[0-9T] /, "", t); sub(/[. ].*/, "", t)
		if (t == f) n++ } END { print n + 0 }' "$1"
}

# "KERNEL<TAB>OPCODE.MODIFIERS" of the instructions of a listing; every TXQ
# form is "TXQ" (-O0 reads a parameter handle with TXQ.B).
su_opcodes() {
	awk -F '\t' '{ t = $3; sub(/^@!?P[0-9T] /, "", t); sub(/ .*/, "", t); if (t ~ /^TXQ/) t = "TXQ"; print $1 "\t" t }' "$1"
}

# The .nv.info records and slot relocations both sides decide from the PTX,
# per kernel, from cuobjdump -elf.
elf_facts() {
	"$bin/cuobjdump" -elf "$1" | awk '
	/^\.nv\.info\./ { k = $1; sub(/^\.nv\.info\./, "", k); next }
	/^\.nv\.info$/ || /^\.(text|nv\.constant|nv\.rel|rel)/ { k = "" }
	# cuobjdump prints a relocation section as ".section .rel.NAME	REL"
	/^\.section \.rel\.nv\.constant0\./ { r = $2; sub(/^\.rel\.nv\.constant0\./, "", r); inrel = 1; next }
	/^\./ { inrel = 0 }
	inrel && /R_CUDA_(SURF|TEX)_HEADER_INDEX/ { print r "\treloc\t" $0; next }
	k != "" && /Attribute:/ { a = $2; keepit = a ~ /PARAM_CBANK|CBANK_PARAM_SIZE|KPARAM_INFO|EXPLICIT_CACHING|BINDLESS_SURFACE_BANK|BINDLESS_TEXTURE_BANK|CTAIDZ_USED|MAXREG_COUNT|MAX_THREADS|REQNTID/; if (keepit) print k "\t" a; next }
	# PARAM_CBANK starts with the symbol index of .nv.constant0.<k>, which
	# moves with symbols ptxas -O3 adds for its own constants
	k != "" && keepit && /Value:|Pointee/ { v = $0; if (a ~ /PARAM_CBANK/) sub(/Value:[ \t]*0x[0-9a-f]+/, "Value: sym", v); print k "\t" a "\t" v }'
}

# One seed: its messages, then "RESULT pass|fail KERNELS WORDS O0ONLY GENBAD".
one_seed() {
	s=$1
	name=s$s
	f="$work/$name.ptx"
	case $s in
	w*) "$work/gen" --whole "${s#w}" ;;   # wN: gen_kernels --whole N
	v*) "$work/gen" --video "${s#v}" ;;   # vN: gen_kernels --video N
	*) "$work/gen" "$s" ;;
	esac >"$f" || { echo "RESULT fail 0 0 0 0"; return; }
	ok=1 gen_bad=0 o0_only=0 nwords=0 dead=0 narrowed=0 call_only=0
	kernels=$(grep -c '^\.visible \.entry' "$f")
	for o in 3 0; do
		if ! "$bin/ptxas" -arch=sm_50 -O$o "$f" -o "$work/$name.O$o.cubin" 2>"$work/$name.O$o.err"; then
			echo "FAIL: $name: ptxas -O$o rejects the generated kernel (generator bug):" \
			     "$(head -n 1 "$work/$name.O$o.err")"
			gen_bad=$((gen_bad + 1)); ok=0
		fi
	done
	if ! "$prog" --color=never -S -o "$work/$name.cubin" "$f" >"$work/$name.lst" 2>"$work/$name.err"; then
		echo "FAIL: $name: ptxsurf-as: $(grep -m 1 error "$work/$name.err")"
		echo "RESULT fail $kernels 0 0 $gen_bad"
		return
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
		nwords=$(wc -l <"$work/$name.su")
		# A word ptxas -O3 does not have because it removed the instruction
		# (code it proved unreachable or dead) can only be matched with -O0,
		# which keeps a parameter handle in a register: then the same opcode
		# and modifiers at -O0 is accepted, and counted.
		su_opcodes "$work/$name.O0.lst.tsv" | sort -u >"$work/$name.ref.ops"
		missing=$(cut -f1,2 "$work/$name.su" | sort -u | comm -23 - "$work/$name.ref.su")
		for kh in $(echo "$missing" | tr '\t' ':'); do
			line=$(grep "^${kh%%:*}	${kh#*:}	" "$work/$name.su" | head -n 1)
			k=${kh%%:*}
			fam=$(echo "$line" | cut -f3 | sed 's/^@!*P[0-9T] //; s/[. ].*//')
			if echo "$line" | su_opcodes /dev/stdin | grep -qxF -f - "$work/$name.ref.ops"; then
				o0_only=$((o0_only + 1))
			elif echo "$fam" | grep -qxE 'TEX|TLD|TLD4' && tex_narrowed "$k" "${kh#*:}" "$work/$name.ref.su"; then
				narrowed=$((narrowed + 1))
			elif echo "$fam" | grep -qxE 'TEX|TLD|TLD4' && tex_call_only "$k" "${kh#*:}" "$work/$name.ref.su" "$f"; then
				call_only=$((call_only + 1))
			elif [ "$(fam_count "$work/$name.O0.lst.tsv" "$k" "$fam")" -lt \
			       "$(fam_count "$work/$name.lst.tsv" "$k" "$fam")" ]; then
				# ptxas -O0 removes a load whose value is dead too (an
				# integer chain that is never stored): nothing to match
				dead=$((dead + 1))
			else
				[ "$ok" = 1 ] && echo "FAIL: $name: surface/texture words ptxas does not emit for that kernel:"
				echo "    ours: $line"
				ok=0
			fi
		done
		elf_facts "$work/$name.O3.cubin" | sort >"$work/$name.ref.facts"
		elf_facts "$work/$name.cubin" | sort >"$work/$name.facts"
		if ! cmp -s "$work/$name.facts" "$work/$name.ref.facts"; then
			echo "FAIL: $name: .nv.info/slot relocations differ from ptxas -O3 (< ours, > ptxas):"
			diff "$work/$name.facts" "$work/$name.ref.facts" | grep '^[<>]' | head -n 6
			ok=0
		fi
	fi
	if [ "$ok" = 1 ]; then r=pass; else r=fail; fi
	echo "RESULT $r $kernels $nwords $o0_only $gen_bad $dead $narrowed $call_only"
}

if [ "${1:-}" = "--one" ]; then
	one_seed "$2"
	exit 0
fi

# The seeds in parallel (JOBS, default 2), each seed's lines together.
export work bin prog
{ seq "$first" $((first + count - 1)); [ "$whole" -gt 0 ] && seq "$first" $((first + whole - 1)) | sed 's/^/w/'
  [ "$video" -gt 0 ] && seq "$first" $((first + video - 1)) | sed 's/^/v/'; } | xargs -n 1 -P "${JOBS:-2}" sh -c \
	'sh "$0" --one "$1" >"$work/result.$1" 2>&1' "$here/kernel-sweep.sh"
cat "$work"/result.* | grep -v '^RESULT'
eval "$(cat "$work"/result.* | awk '$1 == "RESULT" {
	if ($2 == "pass") p++; else f++; k += $3; w += $4; o += $5; g += $6; d += $7; n += $8; a += $9 }
	END { printf "pass=%d fail=%d kernels=%d su_words=%d o0_only=%d gen_bad=%d dead=%d narrowed=%d call_only=%d\n", p, f, k, w, o, g, d, n, a }')"

# Decoding, listing text and cubin acceptance of everything we assembled,
# in JOBS parallel runs of encode-ptxas.sh whose counts are added up.
ls "$work"/s*.ptx | xargs -n 25 -P "${JOBS:-2}" sh -c \
	'PROG=$prog sh "$0" "$@" >"$work/encode.$$.log" 2>&1' "$here/encode-ptxas.sh"
set -- $(cat "$work"/encode.*.log | sed -n 's/^encode-ptxas: \([0-9]*\) [a-zA-Z/ ]*compared, \([0-9]*\) mismatches, \([0-9]*\) decode errors, \([0-9]*\) listing differences, \([0-9]*\) cubins rejected.*/\1 \2 \3 \4 \5/p' |
	awk '{ for (i = 1; i <= 5; i++) t[i] += $i; n++ } END { print n + 0, t[1] + 0, t[2] + 0, t[3] + 0, t[4] + 0, t[5] + 0 }')
echo "kernel-sweep: encode-ptxas: $2 words compared ($3 differ: ptxas -O3 folds" \
     "address arithmetic into offsets, merges stores, unrolls and removes code), $4 decode errors," \
     "$5 listing differences, $6 cubins rejected"
if [ "$1" -eq 0 ] || [ "$2" -eq 0 ] || [ "$4" -ne 0 ] || [ "$5" -ne 0 ] || [ "$6" -ne 0 ]; then
	cat "$work"/encode.*.log | grep -E 'nvdisasm|differs|cuobjdump' | head -n 20
	fail=$((fail + 1))
fi
echo "kernel-sweep: seeds $first..$((first + count - 1)), --whole $first..$((first + whole - 1))" \
     "and --video $first..$((first + video - 1)): $kernels kernels, $su_words distinct surface and texture words" \
     "checked against ptxas ($o0_only matched by opcode at -O0 only: -O3 removed them;" \
     "$dead not checkable: ptxas -O0 removed them as dead code too;" \
     "$narrowed texture words equal to ptxas -O3's but for a write mask it narrowed after removing a dead store;" \
     "$call_only with a narrower mask than ptxas's: the components we left out go only into call arguments our dead code removal proved unread)," \
     "$gen_bad ptxas rejections of generated kernels"
echo "kernel-sweep: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
