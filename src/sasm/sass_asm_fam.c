/* Operands of issue 17's families in SASS text (integer bit operations,
 * double precision, barriers, warp operations), the inverse of
 * sm50/sass_disasm_fam.c. */
#include "sasm/sass_asm_internal.h"

/* POPC Rd, [~]B and FLO[.U32][.SH] Rd[.CC], [~]B (.INV after an immediate). */
static bool match_count_bits(SasmMatch *m)
{
	bool inv = false;
	bool rd = m->f->op == SOP_FLO ? sasm_take_rd_cc(m) : sasm_take_reg(m, SR_RD, -1, 0, NULL, "destination");
	if (!rd || !sasm_take_b(m, false, true, SUF_INV, 0, &inv, NULL))
		return false;
	sass_values_set(&m->v, SR_INVB, inv);
	return true;
}

/* PRMT[.mode] Rd, Ra, B, C. */
static bool match_prmt(SasmMatch *m)
{
	bool mod;
	return sasm_take_reg(m, SR_RD, -1, 0, NULL, "destination") &&
	       sasm_take_reg(m, SR_RA, 0, 0, NULL, "A") &&
	       sasm_take_b(m, false, false, 0, 0, &mod, NULL) && sasm_take_c(m);
}

bool sasm_match_fam(SasmMatch *m)
{
	switch (m->f->op) {
	case SOP_POPC: case SOP_FLO: return match_count_bits(m);
	case SOP_PRMT: return match_prmt(m);
	default: return false;
	}
}
