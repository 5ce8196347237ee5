/* Operands of the decoder-only forms ptxas emits in SASS text (IMUL,
 * IMUL32I, IMAD, LOP3, SSY, PBK, SYNC, BRK, ICMP, PSET,
 * SHFL), the
 * inverse of sm50/sass_disasm_ptxas.c. */
#include "sasm/sass_asm_internal.h"

#include <string.h>

/* "[-]Ra[.reuse]" or "[-]Rc[.reuse]" / "[-]c[bank][off]" (the RC layout's
 * C): whether it was negated goes to *neg. */
static bool take_signed(SasmMatch *m, SassRole r, int reuse_bit, bool constant, bool *neg)
{
	if (m->next >= m->s->nops)
		return sasm_take_reg(m, r, reuse_bit, 0, NULL, r == SR_RA ? "A" : "C");
	const SasmOperand *op = &m->s->ops[m->next];
	if (!sasm_no_prefix(m, op, true, false, false, false))
		return false;
	*neg = op->neg;
	if (!constant)
		return sasm_take_reg(m, r, reuse_bit, 0, NULL, r == SR_RA ? "A" : "C");
	op = sasm_take_next(m, "C");
	if (op == NULL)
		return false;
	if (op->kind != SOK_CONST || op->nsuffix)
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "IMAD: expected a constant c[bank][offset] as C");
	return sasm_set_const(m, op);
}

/* IMUL[types][.HI] Rd[.CC], Ra, B and IMUL32I with a 32-bit immediate. */
static bool match_imul(SasmMatch *m)
{
	bool mod;
	if (!sasm_take_rd_cc(m) || !sasm_take_reg(m, SR_RA, 0, 0, NULL, "A"))
		return false;
	if (m->f->op == SOP_IMUL32I)
		return sasm_take_imm32(m, SR_IMM, "immediate");
	return sasm_take_b(m, false, false, 0, 0, &mod, NULL);
}

/* IMAD[types][.HI][.PO][.SAT][.X] Rd[.CC], [-]Ra, B, [-]C: -A negates the
 * product and -C the addend (both at once is spelled .PO). */
static bool match_imad(SasmMatch *m)
{
	bool mod, neg_a = false, neg_c = false, po = sass_values_get(&m->v, SR_NEGA, 0);
	if (!sasm_take_rd_cc(m) || !take_signed(m, SR_RA, 0, false, &neg_a) ||
	    !sasm_take_b(m, false, false, 0, 0, &mod, NULL) ||
	    !take_signed(m, SR_RC, 2, m->f->bkind == SASS_B_RC, &neg_c))
		return false;
	if (po && (neg_a || neg_c))
		return sasm_match_fail(m, m->s->loc, RULE_SASS_SYNTAX, "IMAD: -A or -C with .PO");
	if (!po) {
		sass_values_set(&m->v, SR_NEGA, neg_a);
		sass_values_set(&m->v, SR_NEGC, neg_c);
	}
	return true;
}

bool sasm_take_result_test_pd(SasmMatch *m)
{
	if (m->next < m->s->nops && m->s->ops[m->next].kind == SOK_PRED)
		return sasm_take_pred(m, SR_PD, SR_COUNT, "predicate destination");
	sass_values_set(&m->v, SR_PD, 7);
	return true;
}

/* LOP3.LUT[.Z|.NZ] [Pd,] Rd[.CC], Ra, B, C, lut (divrn: Pd with .Z/.NZ; PT unwritten). */
static bool match_lop3(SasmMatch *m)
{
	bool mod;
	if (!sass_values_get(&m->v, SR_LUT, 0))
		return sasm_match_fail(m, m->s->mnemonic_loc, RULE_SASS_SYNTAX, "LOP3 needs its .LUT modifier");
	if (sass_form_field(m->f, SR_LOPTEST) && !sasm_take_result_test_pd(m))
		return false;
	return sasm_take_rd_cc(m) && sasm_take_reg(m, SR_RA, 0, 0, NULL, "A") &&
	       sasm_take_b(m, false, false, 0, 0, &mod, NULL) && sasm_take_c(m) &&
	       sasm_take_imm(m, SR_LUT, "lookup table");
}

/* ICMP.cmp[.U32] Rd, Ra, B, C. */
static bool match_icmp(SasmMatch *m)
{
	bool mod;
	return sasm_take_reg(m, SR_RD, -1, 0, NULL, "destination") && sasm_take_reg(m, SR_RA, 0, 0, NULL, "A") &&
	       sasm_take_b(m, false, false, 0, 0, &mod, NULL) && sasm_take_c(m);
}

/* PSET[.BF].bop.bop2 Rd[.CC], Pa, Pb, Pc. */
static bool match_pset(SasmMatch *m)
{
	return sasm_take_rd_cc(m) && sasm_take_pred(m, SR_PA, SR_PA_NOT, "A") &&
	       sasm_take_pred(m, SR_PB, SR_PB_NOT, "B") && sasm_take_pred(m, SR_PC, SR_PC_NOT, "C");
}

/* ISET[.BF].cmp[.U32][.X].bop Rd[.CC], Ra, B, Pc. */
static bool match_iset(SasmMatch *m)
{
	bool mod;
	return sasm_take_rd_cc(m) && sasm_take_reg(m, SR_RA, 0, 0, NULL, "A") &&
	       sasm_take_b(m, false, false, 0, 0, &mod, NULL) && sasm_take_pred(m, SR_PC, SR_PC_NOT, "C");
}

/* ---- int64: the condition code as an operand ("CC"); r2p14: the
 * predicate register ("PR") ---- */
static bool take_flags(SasmMatch *m, const char *name)
{
	const SasmOperand *op = sasm_take_next(m, name);
	if (op == NULL)
		return false;
	if (op->kind != SOK_NAME || strcmp(op->name, name) != 0 || op->nsuffix || op->neg || op->inv || op->not_ ||
	    op->abs) {
		/* P2R/R2P move either; name the other unless it was written */
		bool either = m->f->op != SOP_CSETP && !(op->kind == SOK_NAME && (!strcmp(op->name, "PR") || !strcmp(op->name, "CC")));
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected %s", sass_op_mnemonic(m->f->op),
		                       either ? "PR or CC" : name);
	}
	return true;
}

static bool take_cc(SasmMatch *m)
{
	return take_flags(m, "CC");
}

/* R2P's source Ra{.B1-.B3} (the byte of Ra whose bits become P0-P6); .H1,
 * which the byte suffixes of I2I also accept, is not one. */
static bool take_r2p_source(SasmMatch *m)
{
	Suffixes sfx;
	if (!sasm_take_reg(m, SR_RA, 0, SUF_BYTE, &sfx, "A"))
		return false;
	const SasmOperand *op = &m->s->ops[m->next - 1];
	for (unsigned i = 0; i < op->nsuffix; i++)
		if (strcmp(op->suffix[i], ".H1") == 0)
			return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "R2P: the byte of A is .B1, .B2 or .B3, not .H1");
	sass_values_set(&m->v, SR_BYTESEL, sfx.bytesel);
	return true;
}

/* CSETP.test.bop Pd, Pq, CC, Pc; P2R Rd, CC, Ra, mask; R2P CC, Ra, mask;
 * P2R{.B1-.B3} Rd, PR, Ra, mask; R2P PR, Ra{.B1-.B3}, mask. */
static bool match_cc_forms(SasmMatch *m)
{
	if (m->f->op == SOP_CSETP)
		return sasm_take_pred(m, SR_PD, SR_COUNT, "destination") && sasm_take_pred(m, SR_PQ, SR_COUNT, "second destination") &&
		       take_cc(m) && sasm_take_pred(m, SR_PC, SR_PC_NOT, "C");
	if (m->f->op == SOP_P2R && !sasm_take_reg(m, SR_RD, -1, 0, NULL, "destination"))
		return false;
	if (!sass_moves_pr(m->f))
		return take_cc(m) && sasm_take_reg(m, SR_RA, 0, 0, NULL, "A") && sasm_take_imm(m, SR_IMM, "mask");
	if (!take_flags(m, "PR"))
		return false;
	bool source = m->f->op == SOP_P2R ? sasm_take_reg(m, SR_RA, 0, 0, NULL, "A") : take_r2p_source(m);
	return source && sasm_take_imm(m, SR_IMM, "mask");
}

/* fnptr: BRX [CC.cond, ]Ra[ offset] (nvdisasm writes the offset after the
 * register without a comma; it is 0 when left out). */
static bool match_brx(SasmMatch *m)
{
	if (!sasm_take_cond(m, 1) || !sasm_take_reg(m, SR_RA, 0, 0, NULL, "A"))
		return false;
	if (m->next == m->s->nops) {
		sass_values_set(&m->v, SR_IMM, 0);
		return true;
	}
	return sasm_take_imm(m, SR_IMM, "offset");
}

/* video: VABSDIFF4 Rd[.CC], Ra{.sel}, Rb{.sel}, Rc: a byte selection is
 * nvdisasm's digits after the register (R2.4321); none is the default. */
static bool vabsdiff4_source(SasmMatch *m, SassRole r, SassRole sel_role, int reuse_bit, const char *what)
{
	Suffixes sfx;
	SrcLoc loc = m->next < m->s->nops ? m->s->ops[m->next].loc : m->s->loc;
	if (!sasm_take_reg(m, r, reuse_bit, SUF_OTHER, &sfx, what))
		return false;
	if (sfx.other == NULL) {
		sass_values_set(&m->v, sel_role, 4);     /* the bytes in order: prints nothing */
		return true;
	}
	int64_t sel = sasm_enum_value(m->f, sass_form_field(m->f, sel_role), sfx.other + 1, strlen(sfx.other + 1));
	if (sel < 0)
		return sasm_match_fail(m, loc, RULE_SASS_SYNTAX, "VABSDIFF4: '%s' is not a byte selection of %s "
		                       "(nvdisasm's spellings: %s)", sfx.other, what,
		                       sel_role == SR_VSEL_A ? ".0000 ... .3333, .4321, .5432, .6543, .3201, .3012, .0213, "
		                       ".3120, .1230, .2310" : ".4444 ... .7777, .6543, .5432, .4321, .4567, .6745, .5476");
	sass_values_set(&m->v, sel_role, sel);
	return true;
}

static bool match_vabsdiff4(SasmMatch *m)
{
	return sasm_take_rd_cc(m) && vabsdiff4_source(m, SR_RA, SR_VSEL_A, 0, "A") &&
	       vabsdiff4_source(m, SR_RB, SR_VSEL_B, 1, "B") && sasm_take_reg(m, SR_RC, 2, 0, NULL, "C");
}

/* divrn: FCHK.mode Pd, A, B (B a register, constant or float immediate),
 * each source negated or absolute as FADD's. */
static bool match_fchk(SasmMatch *m)
{
	return sasm_take_pred(m, SR_PD, SR_COUNT, "predicate destination") &&
	       sasm_take_float_src(m, true, SR_NEGA, SR_ABSA) && sasm_take_float_src(m, false, SR_NEGB, SR_ABSB);
}

/* divrn: ISCADD32I Rd[.CC], Ra, imm32, shift. */
static bool match_iscadd32i(SasmMatch *m)
{
	return sasm_take_rd_cc(m) && sasm_take_reg(m, SR_RA, 0, 0, NULL, "A") &&
	       sasm_take_imm32(m, SR_IMM, "immediate") && sasm_take_imm(m, SR_SHIFT, "shift");
}

bool sasm_match_ptxas(SasmMatch *m)
{
	switch (m->f->op) {
	case SOP_PRET: return sasm_take_target(m);
	case SOP_BRX: case SOP_JMX: return match_brx(m);
	case SOP_SSY: case SOP_PBK: return sasm_take_target(m);
	case SOP_SYNC: case SOP_BRK: return sasm_take_cond(m, 0);
	case SOP_IMUL: case SOP_IMUL32I: return match_imul(m);
	case SOP_IMAD: return match_imad(m);
	case SOP_LOP3: return match_lop3(m);
	case SOP_ICMP: return match_icmp(m);
	case SOP_PSET: return match_pset(m);
	case SOP_ISET: return match_iset(m);
	case SOP_CSETP: case SOP_P2R: case SOP_R2P: return match_cc_forms(m);
	case SOP_VABSDIFF4: return match_vabsdiff4(m);
	case SOP_FCHK: return match_fchk(m);
	case SOP_ISCADD32I: return match_iscadd32i(m);
	default: return sasm_match_video(m);
	}
}
