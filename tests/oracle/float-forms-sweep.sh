#!/bin/sh
# Census of the floating-point instruction forms (issue 17): which forms
# ptxas 11.8 compiles for -arch=sm_50 and ptxsurf-as refuses.
# For every float opcode (add sub mul fma mad div rcp sqrt rsqrt sin cos ex2
# lg2 tanh min max abs neg cvt testp copysign setp set selp slct), type (f32
# f64 f16 f16x2 bf16; cvt also every integer type) and combination of
# rounding, .ftz, .sat, .approx/.full modifiers, plus the integer mul24/mad24
# forms, one tiny kernel (inputs loaded from a global buffer, the result
# stored) is generated; then
#  1. ptxas 13 -arch=sm_75 reads all of them with `.target sm_50` (one run:
#     every refused form is an error on its own line): the forms PTX allows;
#  2. ptxas 11.8 -arch=sm_50 compiles those (one run, each form alone when
#     an error names no line): the forms ptxas compiles;
#  3. ptxsurf-as assembles each of those alone.
# A form ptxas compiles and we refuse is a failure unless it is listed in
# float-forms-gaps.txt (then it is counted as a known gap); a listed form
# that now assembles fails too (the list must shrink with the code).
# Prints every gap and "float-forms-sweep: N passed, M failed".
#
# Usage: tests/oracle/float-forms-sweep.sh
# Environment: PROG (default ./ptxsurf-as), PTXAS13 (default
# /usr/local/cuda/bin/ptxas), PTXSURF_ORACLE_DIR, FLOAT_SWEEP_KEEP=1 keeps
# the work directory. Exit: 0 passed, 1 failures, 77 skipped (tools absent).
set -u

here=$(cd "$(dirname "$0")" && pwd)
prog=${PROG:-./ptxsurf-as}
ptxas13=${PTXAS13:-/usr/local/cuda/bin/ptxas}
gaps_file=$here/float-forms-gaps.txt

. "$here/lib/cuda118.sh"
bin=
cuda118_setup float-forms-sweep "no floating-point form was compared with ptxas 11.8"
if [ ! -x "$ptxas13" ]; then
	echo "SKIP: float-forms-sweep: ptxas 13 ($ptxas13) not found: no floating-point form was compared"
	exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/float-forms.XXXXXX") || exit 2
if [ "${FLOAT_SWEEP_KEEP:-0}" = 1 ]; then
	echo "float-forms-sweep: keeping $work"
else
	trap 'rm -rf "$work"' EXIT
fi

# --- the candidate forms: "SHAPE OPCODE.MODS.TYPES" lines ---------------
# SHAPE names the operands: un (d, a), bin (d, a, b), tern (d, a, b, c),
# cvt (d of the first type, a of the second), testp (p, a), setp (p, a, b),
# setpb (p, a, b, q), set (d, a, b), setb (d, a, b, q), selp (d, a, b, q),
# slct (d, a, b, c of the second type).
rnd=". .rn .rz .rm .rp"
ftz=". .ftz"
sat=". .sat"
ftypes="f32 f64 f16 f16x2 bf16"
cmps="eq ne lt le gt ge equ neu ltu leu gtu geu num nan"
ints="u8 s8 u16 s16 u32 s32 u64 s64"
cat_mods() { # prints OP plus every non-"." modifier
	out=$1; shift
	for m in "$@"; do [ "$m" = . ] || out=$out$m; done
	echo "$out"
}
{
	for op in add sub mul; do for r in $rnd; do for z in $ftz; do for s in $sat; do for t in $ftypes; do
		echo "bin $(cat_mods $op $r $z $s).$t"
	done; done; done; done; done
	for op in fma mad; do for r in $rnd; do for z in $ftz; do for s in $sat; do for t in $ftypes; do
		echo "tern $(cat_mods $op $r $z $s).$t"
	done; done; done; done; done
	for r in . .approx .full .rn .rz .rm .rp; do for z in $ftz; do for t in f32 f64; do
		echo "bin $(cat_mods div $r $z).$t"
	done; done; done
	for op in rcp sqrt; do for r in . .approx .rn .rz .rm .rp; do for z in $ftz; do for t in f32 f64; do
		echo "un $(cat_mods $op $r $z).$t"
	done; done; done; done
	for op in rsqrt sin cos ex2 lg2 tanh; do for r in . .approx; do for z in $ftz; do for t in f32 f64 f16; do
		echo "un $(cat_mods $op $r $z).$t"
	done; done; done; done
	for op in min max; do for z in $ftz; do for n in . .NaN; do for t in $ftypes; do
		echo "bin $(cat_mods $op $z $n).$t"
	done; done; done; done
	for op in abs neg; do for z in $ftz; do for t in $ftypes; do
		echo "un $(cat_mods $op $z).$t"
	done; done; done
	for t in f32 f64; do
		echo "bin copysign.$t"
		echo "selp selp.$t"
		for c in finite infinite number notanumber normal subnormal; do echo "testp testp.$c.$t"; done
	done
	for c in $cmps; do for z in $ftz; do for t in f32 f64 f16; do
		echo "setp $(cat_mods setp.$c $z).$t"
		for b in and or xor; do echo "setpb $(cat_mods setp.$c.$b $z).$t"; done
		for d in u32 s32 f32; do
			echo "set $(cat_mods set.$c $z).$d.$t"
			echo "setb $(cat_mods set.$c.and $z).$d.$t"
		done
	done; done; done
	for z in $ftz; do for d in f32 f64; do for c in s32 f32; do
		echo "slct $(cat_mods slct $z).$d.$c"
	done; done; done
	# cvt: float <-> float and float <-> integer, every rounding
	for r in . .rn .rz .rm .rp .rni .rzi .rmi .rpi; do for z in $ftz; do for s in $sat; do
		for d in f16 f32 f64; do
			for a in f16 f32 f64 $ints; do echo "cvt $(cat_mods cvt $r $z $s).$d.$a"; done
		done
		for d in $ints; do for a in f16 f32 f64; do
			echo "cvt $(cat_mods cvt $r $z $s).$d.$a"
		done; done
	done; done; done
	# the 24-bit integer multiplies issue 17 names with the float gaps
	for h in hi lo; do for t in u32 s32; do
		echo "bin mul24.$h.$t"
		echo "tern mad24.$h.$t"
		echo "tern mad24.$h.sat.$t"
	done; done
} >"$work/forms"

# --- one kernel per form ---------------------------------------------------
# reg CLASS-OF-TYPE: f32 -> %f, f64 -> %fd, 16-bit -> %h, 32-bit -> %r,
# 64-bit -> %rl; loads and stores by width.
awk '
function cls(t) {
	if (t == "f32") return "f"
	if (t == "f64") return "fd"
	if (t ~ /^(f16|bf16|u16|s16|u8|s8)$/) return "h"
	if (t ~ /^(u64|s64)$/) return "rl"
	return "r"
}
function width(c) { return c == "f" ? "f32" : c == "fd" ? "f64" : c == "h" ? "b16" : c == "rl" ? "b64" : "b32" }
function load(t, i, off,   c) { c = cls(t); printf "\tld.global.%s %%%s%d, [%%rd1+%d];\n", width(c), c, i, off; return "%" c i }
function store(t, v) { printf "\tst.global.%s [%%rd1+64], %s;\n", width(cls(t)), v }
{
	shape = $1; form = $2; n = split(form, part, ".")
	t = part[n]; t2 = part[n - 1]
	printf ".visible .entry k%d(.param .u64 p)\n{\n", NR
	print "\t.reg .f32 %f<8>;\n\t.reg .f64 %fd<8>;\n\t.reg .b16 %h<8>;\n\t.reg .b32 %r<8>;"
	print "\t.reg .b64 %rl<8>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<4>;"
	print "\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd1, %rd1;"
	if (shape ~ /^(setpb|setb|selp)$/) { print "\tld.global.u32 %r6, [%rd1+48];\n\tsetp.ne.s32 %p2, %r6, 0;" }
	if (shape == "un") { a = load(t, 1, 0); ins = form " " "%" cls(t) "0, " a; dt = t }
	else if (shape == "bin") { a = load(t, 1, 0); b = load(t, 2, 8); ins = form " %" cls(t) "0, " a ", " b; dt = t }
	else if (shape == "tern") { a = load(t, 1, 0); b = load(t, 2, 8); c = load(t, 3, 16); ins = form " %" cls(t) "0, " a ", " b ", " c; dt = t }
	else if (shape == "cvt") { a = load(t, 1, 0); ins = form " %" cls(t2) "0, " a; dt = t2 }
	else if (shape == "testp") { a = load(t, 1, 0); ins = form " %p1, " a; dt = "" }
	else if (shape == "setp") { a = load(t, 1, 0); b = load(t, 2, 8); ins = form " %p1, " a ", " b; dt = "" }
	else if (shape == "setpb") { a = load(t, 1, 0); b = load(t, 2, 8); ins = form " %p1, " a ", " b ", %p2"; dt = "" }
	else if (shape == "set") { a = load(t, 1, 0); b = load(t, 2, 8); ins = form " %" cls(t2) "0, " a ", " b; dt = t2 }
	else if (shape == "setb") { a = load(t, 1, 0); b = load(t, 2, 8); ins = form " %" cls(t2) "0, " a ", " b ", %p2"; dt = t2 }
	else if (shape == "selp") { a = load(t, 1, 0); b = load(t, 2, 8); ins = form " %" cls(t) "0, " a ", " b ", %p2"; dt = t }
	else if (shape == "slct") { a = load(t2, 1, 0); b = load(t2, 2, 8); c = load(t, 3, 16); ins = form " %" cls(t2) "0, " a ", " b ", " c; dt = t2 }
	print "\t" ins ";"
	line[NR] = lines + 0
	if (dt == "") { print "\tselp.u32 %r0, 1, 0, %p1;"; store("u32", "%r0") }
	else store(dt, "%" cls(dt) "0")
	print "\tret;\n}"
}' "$work/forms" >"$work/body"
# the line of each form's instruction: the one line of its kernel with a space-separated form name
awk 'NR == FNR { form[NR] = $2; next }
     /^\.visible \.entry k/ { k = substr($3, 2); sub(/\(.*/, "", k) }
     /^\t[a-z]/ && k != "" && index($0, "\t" form[k] " ") == 1 { print FNR + 3 "\t" k "\t" form[k] }' \
	"$work/forms" "$work/body" >"$work/lines"
header='.version 7.0
.target sm_50
.address_size 64
'
printf '%s' "$header" >"$work/all.ptx"
cat "$work/body" >>"$work/all.ptx"
# the header is 3 lines: check that the recorded lines are the instructions
first=$(sed -n 1p "$work/lines" | cut -f1)
case $(sed -n "${first}p" "$work/all.ptx") in
*"$(sed -n 1p "$work/lines" | cut -f3) "*) ;;
*) echo "float-forms-sweep: internal error: instruction lines are off"; exit 2 ;;
esac
total=$(wc -l <"$work/forms")

# refused LOG: the kernel numbers whose instruction line LOG names in an error
refused() {
	sed -n 's/.*line \([0-9]*\); error.*/\1/p' "$1" | sort -u >"$work/errlines"
	awk 'NR == FNR { bad[$1] = 1; next } ($1 in bad) { print $2 }' "$work/errlines" "$work/lines"
}
# kernels FILE K...: writes the kernels K of all.ptx (with the header) to FILE
kernels() {
	out=$1; shift
	printf '%s\n' "$@" >"$work/want"
	{ printf '%s' "$header"
	  awk 'NR == FNR { w[$1] = 1; next }
	       /^\.visible \.entry k/ { k = substr($3, 2); sub(/\(.*/, "", k); on = (k in w) }
	       on' "$work/want" "$work/body"; } >"$out"
}

# 1. what PTX allows for .target sm_50 (ptxas 13)
"$ptxas13" -arch=sm_75 "$work/all.ptx" -o "$work/all13.cubin" >"$work/p13.log" 2>&1
refused "$work/p13.log" >"$work/refused13"
if grep -q 'error' "$work/p13.log" && [ ! -s "$work/refused13" ]; then
	echo "float-forms-sweep: ptxas 13 failed without naming lines: $(head -n 2 "$work/p13.log")"
	exit 2
fi
cut -f2 "$work/lines" | grep -vxF -f "$work/refused13" >"$work/allowed"
allowed=$(wc -l <"$work/allowed")

# 2. what ptxas 11.8 compiles for sm_50
kernels "$work/allowed.ptx" $(cat "$work/allowed")
: >"$work/compiled"
if "$bin/ptxas" -arch=sm_50 "$work/allowed.ptx" -o "$work/allowed.cubin" >"$work/p11.log" 2>&1; then
	cp "$work/allowed" "$work/compiled"
else
	for k in $(cat "$work/allowed"); do
		kernels "$work/one.ptx" "$k"
		"$bin/ptxas" -arch=sm_50 "$work/one.ptx" -o "$work/one.cubin" >/dev/null 2>&1 && echo "$k" >>"$work/compiled"
	done
fi
compiled=$(wc -l <"$work/compiled")

# 3. what we assemble
: >"$work/gaps"
ours=0
for k in $(cat "$work/compiled"); do
	kernels "$work/one.ptx" "$k"
	form=$(awk -v k="$k" '$2 == k { print $3 }' "$work/lines")
	if "$prog" --color=never -o "$work/one.cubin" "$work/one.ptx" >"$work/ours.err" 2>&1; then
		ours=$((ours + 1))
		echo "$form" >>"$work/assembled"
	else
		printf '%s\t%s\n' "$form" "$(grep -m1 'error' "$work/ours.err" | sed 's/^[^ ]* //')" >>"$work/gaps"
	fi
done
: >>"$work/assembled"

pass=0 fail=0 known=0
while IFS="$(printf '\t')" read -r form why; do
	if grep -qxF "$form" "$gaps_file" 2>/dev/null; then
		known=$((known + 1))
		echo "known gap: $form: $why"
	else
		fail=$((fail + 1))
		echo "FAIL: $form: ptxas 11.8 compiles it for sm_50, we refuse it: $why"
	fi
done <"$work/gaps"
for form in $(grep -v '^#' "$gaps_file" 2>/dev/null); do
	if grep -qxF "$form" "$work/assembled"; then
		fail=$((fail + 1))
		echo "FAIL: $form is listed in float-forms-gaps.txt but assembles now: take it off the list"
	fi
done
pass=$ours
echo "float-forms-sweep: $total candidate forms, $allowed allowed by ptxas 13 for .target sm_50," \
     "$compiled compiled by ptxas 11.8 -arch=sm_50, $ours assembled by us, $known known gaps"
echo "float-forms-sweep: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
