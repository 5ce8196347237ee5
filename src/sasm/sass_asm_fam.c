/* Operands of the instruction families beyond the surface slice in SASS text (integer bit operations,
 * double precision, barriers, warp operations), the inverse of
 * sm50/sass_disasm_fam.c. */
#include "sasm/sass_asm_internal.h"

#include <string.h>

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

/* F2F Rd[.CC], -|B[.H1]|: a register or constant source, .H1 the high
 * half of an F16 one. */
static bool match_f2f(SasmMatch *m)
{
	if (!sasm_take_rd_cc(m))
		return false;
	const SasmOperand *op = sasm_take_next(m, "source");
	if (op == NULL)
		return false;
	bool want_const = m->f->bkind == SASS_B_CONST;
	if (op->kind != (want_const ? SOK_CONST : SOK_REG))
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "F2F: expected a %s source",
		                       want_const ? "constant" : "register");
	Suffixes sfx;
	bool half = sass_values_get(&m->v, SR_STYPE, 0) == 1;
	if (!sasm_no_prefix(m, op, true, false, false, true) ||
	    !sasm_read_suffixes(m, op, half ? SUF_H1 : 0, &sfx))
		return false;
	sass_values_set(&m->v, SR_NEGB, op->neg);
	sass_values_set(&m->v, SR_ABSB, op->abs);
	sass_values_set(&m->v, SR_HB, sfx.h1);
	return want_const ? sasm_set_const(m, op) : sasm_set_value(m, SR_RB, op->reg, op->loc, "source register");
}

/* BAR.op A[, B]: immediates or registers as the form says; an absent
 * count is 0 (all threads). */
static bool match_bar(SasmMatch *m)
{
	bool id_imm = sass_form_field(m->f, SR_BARID) != NULL;
	if (!(id_imm ? sasm_take_imm(m, SR_BARID, "barrier") : sasm_take_reg(m, SR_RA, -1, 0, NULL, "barrier")))
		return false;
	if (sass_form_field(m->f, SR_RB))
		return sasm_take_reg(m, SR_RB, -1, 0, NULL, "thread count");
	if (m->next < m->s->nops)
		return sasm_take_imm(m, SR_BARCNT, "thread count");
	sass_values_set(&m->v, SR_BARCNT, 0);
	return true;
}

/* ctrl: BAR.RED.op id[, count], [!]Pc; B2R.RESULT Rd[, Pd] (PT when absent). */
static bool match_bar_red(SasmMatch *m)
{
	if (!sasm_take_imm(m, SR_BARID, "barrier"))
		return false;
	sass_values_set(&m->v, SR_BARCNT, 0);
	if (m->next + 1 < m->s->nops && !sasm_take_imm(m, SR_BARCNT, "thread count"))
		return false;
	return sasm_take_pred(m, SR_PC, SR_PC_NOT, "reduced predicate");
}

static bool match_b2r(SasmMatch *m)
{
	if (!sasm_take_reg(m, SR_RD, -1, 0, NULL, "destination"))
		return false;
	if (m->next < m->s->nops)
		return sasm_take_pred(m, SR_PD, SR_COUNT, "predicate destination");
	sass_values_set(&m->v, SR_PD, 7);
	return true;
}

/* MUFU.fn Rd, -|Ra| and RRO.op Rd, -|B|. */
static bool match_mufu_rro(SasmMatch *m)
{
	bool is_rro = m->f->op == SOP_RRO, want_const = m->f->bkind == SASS_B_CONST;
	if (!sasm_take_reg(m, SR_RD, -1, 0, NULL, "destination"))
		return false;
	const SasmOperand *op = sasm_take_next(m, "source");
	if (op == NULL)
		return false;
	if (op->kind != (want_const ? SOK_CONST : SOK_REG))
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected a %s source",
		                       sass_op_mnemonic(m->f->op), want_const ? "constant" : "register");
	Suffixes sfx;
	if (!sasm_no_prefix(m, op, true, false, false, true) ||
	    !sasm_read_suffixes(m, op, is_rro && !want_const ? SUF_REUSE : 0, &sfx))
		return false;
	sass_values_set(&m->v, is_rro ? SR_NEGB : SR_NEGA, op->neg);
	sass_values_set(&m->v, is_rro ? SR_ABSB : SR_ABSA, op->abs);
	if (sfx.reuse)
		m->reuse |= 2;
	if (want_const)
		return sasm_set_const(m, op);
	return sasm_set_value(m, is_rro ? SR_RB : SR_RA, op->reg, op->loc, "source register");
}

/* texcache: CCTL{.E}.op / CCTLL.op [Ra+offset]: the text's byte offset
 * is stored as 4-byte words (sass_forms.def). */
static bool match_cctl(SasmMatch *m)
{
	if (!sasm_address(m, m->f->op == SOP_CCTL ? 32 : 24))
		return false;
	int64_t off = sass_values_get(&m->v, SR_IMM, 0);
	if (off % 4 != 0)
		return sasm_match_fail(m, m->s->ops[m->next - 1].loc, RULE_SASS_RANGE,
		                       "%s: offset %s0x%llx is not a multiple of 4 (the field counts words)",
		                       sass_op_mnemonic(m->f->op), off < 0 ? "-" : "",
		                       (unsigned long long)(off < 0 ? -off : off));
	sass_values_set(&m->v, SR_IMM, off / 4);
	return true;
}

bool sasm_match_fam(SasmMatch *m)
{
	switch (m->f->op) {
	case SOP_POPC: case SOP_FLO: return match_count_bits(m);
	case SOP_PRMT: return match_prmt(m);
	case SOP_F2F: return match_f2f(m);
	case SOP_BAR: return match_bar(m);
	case SOP_BAR_RED: return match_bar_red(m);
	case SOP_B2R: return match_b2r(m);
	case SOP_MEMBAR: return true;
	case SOP_CCTL: case SOP_CCTLL: return match_cctl(m);
	case SOP_MUFU: case SOP_RRO: return match_mufu_rro(m);
	default: return false;
	}
}
