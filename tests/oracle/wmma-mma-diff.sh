#!/bin/sh
# wmma.mma, ptxas 13 against `ptxsurf-as --check --rules=ptxas`, one probe
# module per cell (.version 8.0, .target sm_80) of four grids:
#   types      7 shapes x 24 type lists (.dtype.ctype of the f16 forms,
#              .dtype.atype.btype.ctype of the others, valid and not),
#              each fragment with the registers the PTX ISA gives it
#   counts     each valid shape/type cell with one fragment of another
#              register count (1, 2, 4 or 8)
#   registers  each valid cell with one fragment all of another register
#              type (.b32 .u32 .s32 .f32 .f16x2 .b16 .b64 .f64), and with
#              one element of another type among the natural ones
#   modifiers  each valid cell with other layouts, .satfinite, a
#              rounding, and the .b1 operations (.xor.popc, .and.popc,
#              none)
# Ends with "wmma-mma: N passed, M failed"; exit 77 without ptxas.
# Environment: PROG, PTXAS, JOBS, FILTER (an ERE on the case text: types,
# counts, registers, modifiers), STEP, KEEP=DIR keeps the probes, MSGS=1
# adds each tool's first error to a FAIL line.
set -u

. "$(dirname "$0")/lib/ptxas-probe.sh"

if [ "${1:-}" = "--one" ]; then
	oracle_compare "$2"
	exit 0
fi

oracle_setup wmma-mma
oracle_workdir
awk -v dir="$work/cases" '
# count[frag, type, shape]: the registers of a fragment (frag a, b, or
# cd for c and d) by the PTX ISA 9.7.14.4 fragment tables; cls[type]
# the register class that holds the type.
function setc(frag, type, shapes, counts,    ns, s, c, i) {
	ns = split(shapes, s, " "); split(counts, c, " ")
	for (i = 1; i <= ns; i++) count[frag, type, s[i]] = c[i]
}
function natural(frag, type, shape) {
	if ((frag, type, shape) in count) return count[frag, type, shape]
	return 8
}
function regs(n, cl, odd, oddcl,    s, i) {
	s = "{"
	for (i = 0; i < n; i++) s = s (i ? ", " : "") "%" (i == odd ? oddcl : cl) (next_reg++ % 40)
	return s "}"
}
function emit(grp, desc, mods, shape, rnd, types, ops) {
	file = sprintf("%s/%s_%04d.ptx", dir, grp, n++)
	printf "// case: %s %s\n.version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n", grp, desc >file
	printf ".reg .b32 %%r<40>;\n.reg .u32 %%u<40>;\n.reg .s32 %%s<40>;\n.reg .f32 %%f<40>;\n" >file
	printf ".reg .f16x2 %%x<40>;\n.reg .b16 %%h<40>;\n.reg .b64 %%rd<40>;\n.reg .f64 %%fd<40>;\n" >file
	printf "wmma.mma%s.sync.aligned%s.%s%s%s %s;\nret;\n}\n", opword, mods, shape, rnd, types, ops >file
	close(file)
}
# the four operands of one cell: fragment `bad` (1 d, 2 a, 3 b, 4 c) with
# count badn (< 0: its own) and class badcl ("": its own; odd >= 0: only
# that element of class badcl); rnd before the types, post after them
function cell(grp, desc, mods, shape, rnd, tl, post, bad, badn, badcl, odd,    ty, f, fr, n, cl, o, ops) {
	for (f = 1; f <= 4; f++) ty[f] = typeof(tl, f)
	split("cd a b cd", fr, " ")
	ops = ""
	for (f = 1; f <= 4; f++) {
		n = natural(fr[f], ty[f], shape); cl = cls[ty[f]]; o = -1
		if (f == bad) {
			if (odd >= 0) o = odd
			else {
				if (badn >= 0) n = badn
				if (badcl != "") cl = badcl
			}
		}
		ops = ops (f > 1 ? ", " : "") regs(n, cl, o, badcl)
	}
	emit(grp, desc, mods, shape, rnd, tl post, ops)
}
# the type of fragment f (1 d, 2 a, 3 b, 4 c) in a type list
function typeof(tl, f,    t, nt) {
	nt = split(tl, t, ".")
	if (nt == 3) return f == 1 ? t[2] : f == 4 ? t[3] : "f16"
	return t[f + 1]
}
BEGIN {
	setc("a", "f16", "m16n16k16 m32n8k16 m8n32k16", "8 8 8"); setc("b", "f16", "m16n16k16 m32n8k16 m8n32k16", "8 8 8")
	setc("cd", "f16", "m16n16k16 m32n8k16 m8n32k16", "4 4 4"); setc("cd", "f32", "m16n16k16 m32n8k16 m8n32k16 m16n16k8", "8 8 8 8")
	setc("a", "s8", "m16n16k16 m32n8k16 m8n32k16", "2 4 1"); setc("b", "s8", "m16n16k16 m32n8k16 m8n32k16", "2 1 4")
	setc("a", "u8", "m16n16k16 m32n8k16 m8n32k16", "2 4 1"); setc("b", "u8", "m16n16k16 m32n8k16 m8n32k16", "2 1 4")
	setc("cd", "s32", "m16n16k16 m32n8k16 m8n32k16 m8n8k32 m8n8k128", "8 8 8 2 2")
	setc("a", "bf16", "m16n16k16 m32n8k16 m8n32k16", "4 8 2"); setc("b", "bf16", "m16n16k16 m32n8k16 m8n32k16", "4 2 8")
	setc("a", "tf32", "m16n16k8", "4"); setc("b", "tf32", "m16n16k8", "4")
	setc("a", "f64", "m8n8k4", "1"); setc("b", "f64", "m8n8k4", "1"); setc("cd", "f64", "m8n8k4", "2")
	setc("a", "s4", "m8n8k32", "1"); setc("b", "s4", "m8n8k32", "1"); setc("a", "u4", "m8n8k32", "1"); setc("b", "u4", "m8n8k32", "1")
	setc("a", "b1", "m8n8k128", "1"); setc("b", "b1", "m8n8k128", "1")
	split("f16 s8 u8 bf16 tf32 s4 u4 b1 s32", c, " "); for (i in c) cls[c[i]] = "r"
	cls["f32"] = "f"; cls["f64"] = "fd"
	nshapes = split("m16n16k16 m32n8k16 m8n32k16 m16n16k8 m8n8k4 m8n8k32 m8n8k128", shapes, " ")
	ntl = split(".f16.f16 .f32.f16 .f16.f32 .f32.f32 .s32.s8.s8.s32 .s32.u8.u8.s32 .s32.s8.u8.s32 .s32.u8.s8.s32 " \
		".s32.s4.s4.s32 .s32.u4.u4.s32 .s32.s4.u4.s32 .s32.b1.b1.s32 .f32.bf16.bf16.f32 .f32.tf32.tf32.f32 " \
		".f64.f64.f64.f64 .f32.f16.f16.f32 .f16.bf16.bf16.f16 .f32.s8.s8.s32 .s32.s8.s8.f32 .s32.s32 .f64.f64 " \
		".bf16.bf16 .f32.f32.f32.f32 .s32.s8.s4.s32", tls, " ")
	# valid[k]: shape SEP type list of a cell the PTX ISA gives
	for (s = 1; s <= nshapes; s++)
		for (t = 1; t <= ntl; t++) {
			sh = shapes[s]; tl = tls[t]
			opword = tl ~ /b1/ ? ".xor.popc" : ""
			cell("types", sh " " tl, ".row.col", sh, "", tl, "", 0, -1, "", -1)
			split(tl, p, ".")
			ok = 0
			if (sh ~ /^m(16n16k16|32n8k16|8n32k16)$/ && tl ~ /^\.f(16|32)\.f(16|32)$/) ok = 1
			if (sh ~ /^m(16n16k16|32n8k16|8n32k16)$/ && tl ~ /^\.s32\.(s8\.s8|u8\.u8)\.s32$/) ok = 1
			if (sh ~ /^m(16n16k16|32n8k16|8n32k16)$/ && tl == ".f32.bf16.bf16.f32") ok = 1
			if (sh == "m16n16k8" && tl == ".f32.tf32.tf32.f32") ok = 1
			if (sh == "m8n8k4" && tl == ".f64.f64.f64.f64") ok = 1
			if (sh == "m8n8k32" && tl ~ /^\.s32\.(s4\.s4|u4\.u4)\.s32$/) ok = 1
			if (sh == "m8n8k128" && tl == ".s32.b1.b1.s32") ok = 1
			if (ok) valid[nvalid++] = sh SUBSEP tl
		}
	nclasses = split("r u s f x h rd fd", classes, " ")
	split("d a b c", fname, " ")
	for (v = 0; v < nvalid; v++) {
		split(valid[v], q, SUBSEP); sh = q[1]; tl = q[2]
		opword = tl ~ /b1/ ? ".xor.popc" : ""
		for (f = 1; f <= 4; f++) {
			for (k = 1; k <= 8; k *= 2)
				if (k != natural(f == 1 || f == 4 ? "cd" : fname[f], typeof(tl, f), sh))
					cell("counts", sh " " tl " " fname[f] " of " k, ".row.col", sh, "", tl, "", f, k, "", -1)
			for (k = 1; k <= nclasses; k++) {
				cell("registers", sh " " tl " " fname[f] " all %" classes[k], ".row.col", sh, "", tl, "", f,
					-1, classes[k], -1)
				cell("registers", sh " " tl " " fname[f] " one %" classes[k], ".row.col", sh, "", tl, "", f,
					-1, classes[k], 0)
			}
		}
		nl = split(".row.row .col.col .col.row", lays, " ")
		for (k = 1; k <= nl; k++)
			cell("modifiers", sh " " tl " " lays[k], lays[k], sh, "", tl, "", 0, -1, "", -1)
		cell("modifiers", sh " " tl " satfinite", ".row.col", sh, "", tl, ".satfinite", 0, -1, "", -1)
		nr = split(".rn .rz .rm .rp", rnds, " ")
		for (k = 1; k <= nr; k++)
			cell("modifiers", sh " " tl " " rnds[k], ".row.col", sh, rnds[k], tl, "", 0, -1, "", -1)
		if (tl ~ /b1/) {
			opword = ".and.popc"; cell("modifiers", sh " " tl " and.popc", ".row.col", sh, "", tl, "", 0, -1, "", -1)
			opword = ""; cell("modifiers", sh " " tl " no op", ".row.col", sh, "", tl, "", 0, -1, "", -1)
		}
	}
}'
oracle_run "$0"
oracle_summary wmma-mma
