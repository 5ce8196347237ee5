#!/bin/sh
# set and setp, ptxas 13 against `ptxsurf-as --check --rules=ptxas`, one
# probe module per cell (.version 8.0, .target sm_90, every register of
# the type its operand is written with; .bf16 in .b16 and .bf16x2 in .b32
# registers, as ptxas 13 declares no .bf16 register):
#   set    dtype (.u32 .s32 .f32) x stype (the integer, bit and float
#          types, .f16x2, .bf16, .bf16x2) x the 18 comparison operators,
#          plain, and with .ftz, a boolean operation (.and, .or, .xor in
#          turn, c or !c in turn) or both, one dtype in turn; the other
#          dtypes (.f16 .bf16 .u16 .s16 .f16x2 .bf16x2 .b32 .b16 .u64 .f64
#          .pred) with set.eq and every stype
#   setp   the same for its one type, each variant (its results p|q
#          when the type is packed)
# Ends with "set-grid: N passed, M failed"; exit 77 without ptxas.
# Environment: PROG, PTXAS, JOBS, FILTER (an ERE on the case text: set,
# setp), STEP, KEEP=DIR keeps the probes, MSGS=1 adds each tool's first
# error to a FAIL line.
set -u

. "$(dirname "$0")/lib/ptxas-probe.sh"

if [ "${1:-}" = "--one" ]; then
	oracle_compare "$2"
	exit 0
fi

oracle_setup set-grid
oracle_workdir
awk -v dir="$work/cases" '
function emit(grp, desc, line) {
	file = sprintf("%s/%s_%05d.ptx", dir, grp, n++)
	printf "// case: %s %s\n.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n", grp, desc >file
	for (t = 1; t <= nall; t++)
		printf ".reg %s %%%s<4>;\n", all[t], reg[all[t]] >file
	printf ".reg .pred %%p<4>;\n%s;\nret;\n}\n", line >file
	close(file)
}
# the optional .ftz and boolean operation of cell k, and its operand c
function extras(k, ftz, withbool) {
	bool = ""; c = ""
	if (withbool) {
		bool = bools[k % 3 + 1]
		c = ", " (int(k / 3) % 2 ? "!" : "") "%p3"
	}
	return bool (ftz ? ".ftz" : "")
}
BEGIN {
	nall = split(".u32 .s32 .f32 .b32 .u16 .s16 .b16 .f16 .u64 .s64 .b64 .f64 .f16x2", all, " ")
	reg[".bf16"] = "h"; reg[".bf16x2"] = "r"; reg[".pred"] = "p"
	split("u s f r uh sh h hf ud sd rd fd hx", names, " ")
	for (t = 1; t <= nall; t++) reg[all[t]] = names[t]
	nops = split(".eq .ne .lt .le .gt .ge .lo .ls .hi .hs .equ .neu .ltu .leu .gtu .geu .num .nan", ops, " ")
	split(".and .or .xor", bools, " ")
	nd = split(".u32 .s32 .f32", dtypes, " ")
	nx = split(".f16 .bf16 .u16 .s16 .f16x2 .bf16x2 .b32 .b16 .u64 .f64 .pred", xdtypes, " ")
	ns = split(".b16 .b32 .b64 .u16 .u32 .u64 .s16 .s32 .s64 .f16 .f32 .f64 .f16x2 .bf16 .bf16x2", stypes, " ")
	k = 0
	for (s = 1; s <= ns; s++) {
		st = stypes[s]; a = "%" reg[st] "1, %" reg[st] "2"
		dst = st ~ /x2$/ ? "%p1|%p2" : "%p1"
		for (o = 1; o <= nops; o++) {
			# plain with every dtype; .ftz, a boolean operation and both
			# with one dtype in turn
			for (v = 0; v < 4; v++) {
				m = extras(k++, v % 2, v >= 2)
				for (d = 1; d <= nd; d++) {
					dt = dtypes[d]
					if (v == 0 || (k + d) % nd == 0)
						emit("set", "set" ops[o] m dt st, "set" ops[o] m dt st " %" reg[dt] "1, " a c)
				}
				emit("setp", "setp" ops[o] m st, "setp" ops[o] m st " " dst ", " a c)
			}
		}
		for (d = 1; d <= nx; d++) {
			dt = xdtypes[d]
			emit("set", "set.eq" dt st, "set.eq" dt st " %" reg[dt] "1, " a)
		}
	}
}'
oracle_run "$0"
oracle_summary set-grid
