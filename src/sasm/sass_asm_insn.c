/* Matching one instruction's text to a form of the sm_50 table: the
 * inverse of sass_format_insn (sass_disasm.c), family by family, in the
 * operand order nvdisasm prints. Every form whose mnemonic stem fits is
 * tried; the first that takes the modifiers and operands wins, otherwise
 * the complaint of the attempt that got furthest is reported. */
#include "sasm/sass_asm_internal.h"

#include <string.h>

static bool match_guard(SasmMatch *m)
{
	const SasmStmt *s = m->s;
	/* issue 15: CAL and BPT have no guard field */
	if (!s->has_guard && sass_form_field(m->f, SR_PG) == NULL)
		return true;
	if (sass_form_field(m->f, SR_PG) == NULL)
		return sasm_match_fail(m, s->guard_loc, RULE_SASS_SYNTAX, "%s has no guard predicate",
		                       sass_op_mnemonic(m->f->op));
	if (!s->has_guard) {
		sass_values_set(&m->v, SR_PG, 7);
		sass_values_set(&m->v, SR_PG_NOT, 0);
		return true;
	}
	SasmOperand p;
	if (!sasm_classify_reg(s->guard_name, &p) || p.kind != SOK_PRED || strchr(s->guard_name, '.'))
		return sasm_match_fail(m, s->guard_loc, RULE_SASS_SYNTAX,
		                       "guard '%s' is no predicate: write @P0..@P6, @PT or @!Pn", s->guard_name);
	sass_values_set(&m->v, SR_PG, p.reg);
	sass_values_set(&m->v, SR_PG_NOT, s->guard_not);
	return true;
}

/* The memory operand of the surface instructions: [Ra]. */
static bool surface_address(SasmMatch *m)
{
	const SasmOperand *op = sasm_take_next(m, "[Ra]");
	if (op == NULL)
		return false;
	if (op->kind != SOK_MEM || op->reg == SASM_NO_REG || op->value != 0 || op->nsuffix)
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected the coordinate register as [Ra]",
		                       sass_op_mnemonic(m->f->op));
	return sasm_set_value(m, SR_RA, op->reg, op->loc, "coordinate register");
}

static bool match_surface(SasmMatch *m)
{
	bool load = m->f->op == SOP_SULD_D || m->f->op == SOP_SULD_P;
	if (sass_form_field(m->f, SR_UNUSED))
		sass_values_set(&m->v, SR_UNUSED, 0);
	if (load) {
		if (!sasm_take_reg(m, SR_RD, -1, 0, NULL, "destination") || !surface_address(m))
			return false;
	} else if (!surface_address(m) || !sasm_take_reg(m, SR_RB, -1, 0, NULL, "data register")) {
		return false;
	}
	if (sass_form_field(m->f, SR_SUIDX))
		return sasm_take_imm(m, SR_SUIDX, "surface index");
	return sasm_take_reg(m, SR_RC, -1, 0, NULL, "surface register");
}

static bool match_txq(SasmMatch *m)
{
	if (!sasm_take_reg(m, SR_RD, -1, 0, NULL, "destination") ||
	    !sasm_take_reg(m, SR_RA, -1, 0, NULL, "source") || !sasm_take_name(m, SR_QUERY, "query"))
		return false;
	if (m->f->op == SOP_TXQ) {
		if (!sasm_take_imm(m, SR_SUIDX, "texture index"))
			return false;
	} else {
		const SasmOperand *op = sasm_take_next(m, "0x0");
		if (op == NULL)
			return false;
		if (op->kind != SOK_IMM || op->value != 0)
			return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "TXQ.B takes its header from Ra: write 0x0 here");
	}
	return sasm_take_imm(m, SR_QMASK, "component mask");
}

/* ---- issue 17: textures ----
 * Rd, Ra{, Rb}, index, GEOMETRY, mask; the .B forms write 0x0 as the index
 * and take the handle from a register. */
static bool match_tex(SasmMatch *m)
{
	if (!sasm_take_reg(m, SR_RD, -1, 0, NULL, "destination") ||
	    !sasm_take_reg(m, SR_RA, -1, 0, NULL, "coordinates"))
		return false;
	if (m->next < m->s->nops && m->s->ops[m->next].kind == SOK_REG) {
		if (!sasm_take_reg(m, SR_RB, -1, 0, NULL, "second source"))
			return false;
	} else {
		sass_values_set(&m->v, SR_RB, 255);
	}
	if (sass_form_field(m->f, SR_SUIDX)) {
		if (!sasm_take_imm(m, SR_SUIDX, "texture index"))
			return false;
	} else {
		const SasmOperand *op = sasm_take_next(m, "0x0");
		if (op == NULL)
			return false;
		if (op->kind != SOK_IMM || op->value != 0)
			return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX,
			                       "%s takes its texture from a register: write 0x0 here",
			                       sass_op_mnemonic(m->f->op));
	}
	return sasm_take_name(m, SR_GEOM, "geometry") && sasm_take_imm(m, SR_QMASK, "component mask");
}

/* ---- sim4: TEXS/TLDS/TLD4S ----
 * Rd2, Rd, Ra{, Rb}, index{, GEOMETRY, mask} (TLD4S: Rb always, no
 * geometry or mask). The mode modifiers chose the first target of their
 * spelling; the geometry picks the target of that spelling and geometry. */
static bool texs_name(SasmMatch *m, const char *what, const char **name, SrcLoc *loc)
{
	const SasmOperand *op = sasm_take_next(m, what);
	if (op == NULL)
		return false;
	if (op->kind != SOK_NAME || op->neg || op->inv || op->not_ || op->abs)
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected a name (%s)",
		                       sass_op_mnemonic(m->f->op), what);
	*name = op->name;
	*loc = op->loc;
	return true;
}

static bool texs_target(SasmMatch *m)
{
	const char *geom, *mask;
	SrcLoc gloc, mloc;
	if (!texs_name(m, "geometry", &geom, &gloc) || !texs_name(m, "component mask", &mask, &mloc))
		return false;
	const SassEnum *e = sass_form_field(m->f, SR_TEXSTARGET)->values;
	const char *mode = e->names[sass_values_get(&m->v, SR_TEXSTARGET, 1)];
	bool found = false;
	for (unsigned t = 0; t < e->count && !found; t++) {
		const SassTexsTarget *tg = sass_texs_target(m->f->op, t);
		if (tg && strcmp(e->names[t], mode) == 0 && strcmp(tg->geometry, geom) == 0) {
			sass_values_set(&m->v, SR_TEXSTARGET, t);
			found = true;
		}
	}
	if (!found)
		return sasm_match_fail(m, gloc, RULE_SASS_SYNTAX, "%s%s%s has no %s geometry", sass_op_mnemonic(m->f->op),
		                       mode[0] ? "." : "", mode, geom);
	bool pair2 = sass_values_get(&m->v, SR_RD2, 255) != 255;
	for (unsigned c = 0; c < 8; c++)
		if (strcmp(sass_texs_mask_name(c, pair2), mask) == 0)
			return sass_values_set(&m->v, SR_TEXSMASK, c), true;
	return sasm_match_fail(m, mloc, RULE_SASS_SYNTAX, "%s: '%s' is not a component mask %s",
	                       sass_op_mnemonic(m->f->op), mask, pair2 ? "of two pairs (RGB ... RGBA)" :
	                       "of one pair (R ... BA; RGB and more need a second pair)");
}

static bool match_texs(SasmMatch *m)
{
	if (!sasm_take_reg(m, SR_RD2, -1, 0, NULL, "second destination pair") ||
	    !sasm_take_reg(m, SR_RD, -1, 0, NULL, "destination") ||
	    !sasm_take_reg(m, SR_RA, -1, 0, NULL, "coordinates"))
		return false;
	if (m->f->op == SOP_TLD4S || (m->next < m->s->nops && m->s->ops[m->next].kind == SOK_REG)) {
		if (!sasm_take_reg(m, SR_RB, -1, 0, NULL, "second source"))
			return false;
	} else {
		sass_values_set(&m->v, SR_RB, 255);
	}
	if (!sasm_take_imm(m, SR_SUIDX, "texture index"))
		return false;
	return m->f->op == SOP_TLD4S || texs_target(m);
}

static bool global_address(SasmMatch *m)
{
	return sasm_address(m, 24);
}

static bool match_global(SasmMatch *m)
{
	if (m->f->op == SOP_STG || m->f->op == SOP_STS || m->f->op == SOP_STL)
		return global_address(m) && sasm_take_reg(m, SR_RB, -1, 0, NULL, "data register");
	return sasm_take_reg(m, SR_RD, -1, 0, NULL, "destination") && global_address(m);
}

/* LD/ST: as STG/LDG with a 32-bit offset, then the address predicate
 * (nvdisasm leaves out PT). */
static bool match_generic(SasmMatch *m)
{
	bool st = m->f->op == SOP_ST;
	if (!(st ? sasm_address(m, 32) && sasm_take_reg(m, SR_RB, -1, 0, NULL, "data register")
	         : sasm_take_reg(m, SR_RD, -1, 0, NULL, "destination") && sasm_address(m, 32)))
		return false;
	if (m->next < m->s->nops)
		return sasm_take_pred(m, SR_PC, SR_COUNT, "address predicate");
	sass_values_set(&m->v, SR_PC, 7);
	return true;
}

static bool match_ldc(SasmMatch *m)
{
	if (!sasm_take_reg(m, SR_RD, -1, 0, NULL, "destination"))
		return false;
	const SasmOperand *op = sasm_take_next(m, "c[bank][offset]");
	if (op == NULL)
		return false;
	if (op->kind != SOK_CONST || op->nsuffix)
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "LDC: expected c[bank][Ra + offset]");
	return sasm_set_value(m, SR_CBANK, op->bank, op->loc, "constant bank") &&
	       sasm_set_value(m, SR_RA, op->reg == SASM_NO_REG ? 255 : op->reg, op->loc, "register") &&
	       sasm_set_value(m, SR_COFF, op->value, op->loc, "constant offset");
}

/* MOV and MOV32I end with an optional lane mask, 0xf when left out. */
static bool lane_mask(SasmMatch *m)
{
	if (m->next < m->s->nops)
		return sasm_take_imm(m, SR_LANEMASK, "lane mask");
	sass_values_set(&m->v, SR_LANEMASK, 0xf);
	return true;
}

static bool match_mov(SasmMatch *m)
{
	bool mod;
	if (!sasm_take_reg(m, SR_RD, -1, 0, NULL, "destination"))
		return false;
	if (m->f->op == SOP_MOV32I) {
		if (!sasm_take_imm32(m, SR_IMM, "immediate"))
			return false;
	} else if (!sasm_take_b(m, false, false, 0, 0, &mod, NULL)) {
		return false;
	}
	return lane_mask(m);
}

/* IADD/ISCADD negation: -B is 1, -A is 2, .PO is 3; only one at a time. */
static bool set_neg(SasmMatch *m, bool neg_a, bool neg_b)
{
	int64_t mod = sass_values_get(&m->v, SR_NEG, 0);
	if ((neg_a && neg_b) || ((neg_a || neg_b) && mod == 3))
		return sasm_match_fail(m, m->s->loc, RULE_SASS_SYNTAX,
		                       "%s negates one operand at most, and not with .PO", sass_op_mnemonic(m->f->op));
	sass_values_set(&m->v, SR_NEG, neg_a ? 2 : neg_b ? 1 : mod);
	return true;
}

/* "[-]Ra[.reuse]": returns whether it was negated via *neg. */
static bool ra_operand(SasmMatch *m, bool neg_ok, bool inv_ok, bool *neg, unsigned allow, Suffixes *sfx)
{
	if (m->next >= m->s->nops)
		return sasm_take_reg(m, SR_RA, 0, allow, sfx, "A");
	const SasmOperand *op = &m->s->ops[m->next];
	if (!sasm_no_prefix(m, op, neg_ok, inv_ok, false, false))
		return false;
	*neg = op->neg || op->inv;
	return sasm_take_reg(m, SR_RA, 0, allow, sfx, "A");
}

static bool match_iadd(SasmMatch *m)
{
	bool neg_a = false, neg_b = false;
	if (!sasm_take_rd_cc(m) || !ra_operand(m, true, false, &neg_a, 0, NULL))
		return false;
	if (m->f->op == SOP_IADD32I) {
		sass_values_set(&m->v, SR_NEGA, neg_a);
		return sasm_take_imm32(m, SR_IMM, "immediate");     /* IADD32I has no .INV */
	}
	if (!sasm_take_b(m, true, false, SUF_NEG, 0, &neg_b, NULL) || !set_neg(m, neg_a, neg_b))
		return false;
	if (m->f->op == SOP_ISCADD)
		return sasm_take_imm(m, SR_SHIFT, "shift");
	return true;
}

static bool match_shift(SasmMatch *m)
{
	bool mod, neg = false;
	return sasm_take_rd_cc(m) && ra_operand(m, false, false, &neg, 0, NULL) &&
	       sasm_take_b(m, false, false, 0, 0, &mod, NULL);
}

static bool match_lop(SasmMatch *m)
{
	bool inv_a = false, inv_b = false;
	/* issue 17: LOP.Z/.NZ's predicate output (nvdisasm omits PT) */
	if (sass_form_field(m->f, SR_LOPTEST) && !sasm_take_result_test_pd(m))
		return false;
	if (!sasm_take_rd_cc(m) || !ra_operand(m, false, true, &inv_a, 0, NULL))
		return false;
	sass_values_set(&m->v, SR_INVA, inv_a);
	if (m->f->op == SOP_LOP32I)
		return sasm_take_imm32_inv(m, SR_IMM, SR_INVB, "immediate");
	if (!sasm_take_b(m, false, true, SUF_INV, 0, &inv_b, NULL))
		return false;
	sass_values_set(&m->v, SR_INVB, inv_b);
	return true;
}

static bool match_isetp(SasmMatch *m)
{
	bool mod, neg = false;
	return sasm_take_pred(m, SR_PD, SR_COUNT, "first destination") &&
	       sasm_take_pred(m, SR_PQ, SR_COUNT, "second destination") &&
	       ra_operand(m, false, false, &neg, 0, NULL) && sasm_take_b(m, false, false, 0, 0, &mod, NULL) &&
	       sasm_take_pred(m, SR_PC, SR_PC_NOT, "predicate source");
}

static bool match_xmad(SasmMatch *m)
{
	bool neg = false, mod;
	Suffixes sa, sb = { 0 };
	if (!sasm_take_rd_cc(m) || !ra_operand(m, false, false, &neg, SUF_H1, &sa))
		return false;
	sass_values_set(&m->v, SR_HA, sa.h1);
	if (m->f->bkind == SASS_B_IMM) {
		/* The 16-bit immediate is shown signed when B is signed. */
		const SasmOperand *op = sasm_take_next(m, "B");
		if (op == NULL)
			return false;
		if (op->kind != SOK_IMM || op->nsuffix)
			return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "XMAD: expected an immediate as B");
		int64_t v = op->neg ? -op->value : op->value;
		if (v < -0x8000 || v > 0xffff || (v < 0 && !sass_values_get(&m->v, SR_SB, 0)))
			return sasm_match_fail(m, op->loc, RULE_SASS_RANGE, "XMAD: immediate B does not fit 16 bits");
		sass_values_set(&m->v, SR_IMM, v & 0xffff);
	} else if (!sasm_take_b(m, false, false, 0, SUF_H1, &mod, &sb)) {
		return false;
	}
	if (sass_form_field(m->f, SR_HB))
		sass_values_set(&m->v, SR_HB, sb.h1);
	else if (sb.h1)
		return sasm_match_fail(m, m->s->loc, RULE_SASS_SYNTAX, "XMAD: this form has no .H1 on B");
	return sasm_take_c(m);
}

static bool match_alu3(SasmMatch *m)
{
	bool mod, neg = false;
	bool has_cc = m->f->op != SOP_SEL;
	if (!(has_cc ? sasm_take_rd_cc(m) : sasm_take_reg(m, SR_RD, -1, 0, NULL, "destination")) ||
	    !ra_operand(m, false, false, &neg, 0, NULL))
		return false;
	if (m->f->op == SOP_SHF_L || m->f->op == SOP_SHF_R) {
		if (m->f->bkind == SASS_B_IMM ? !sasm_take_imm(m, SR_IMM, "shift") :
		                                !sasm_take_b(m, false, false, 0, 0, &mod, NULL))
			return false;
	} else if (!sasm_take_b(m, false, false, 0, 0, &mod, NULL)) {
		return false;
	}
	switch (m->f->op) {
	case SOP_BFI: case SOP_SHF_L: case SOP_SHF_R: return sasm_take_c(m);
	case SOP_IMNMX: case SOP_SEL: return sasm_take_pred(m, SR_PC, SR_PC_NOT, "predicate source");
	default: return true;
	}
}

static bool match_lea(SasmMatch *m)
{
	bool nega = false, mod;
	if (m->next < m->s->nops && m->s->ops[m->next].kind == SOK_PRED) {
		if (!sasm_take_pred(m, SR_PD, SR_COUNT, "predicate destination"))
			return false;
	} else {
		sass_values_set(&m->v, SR_PD, 7);
	}
	if (!sasm_take_rd_cc(m) || !ra_operand(m, true, false, &nega, 0, NULL))
		return false;
	sass_values_set(&m->v, SR_NEGA, nega);
	if (!sasm_take_b(m, false, false, 0, 0, &mod, NULL))
		return false;
	if (m->f->op == SOP_LEA_HI && !sasm_take_c(m))
		return false;
	if (m->next < m->s->nops)
		return sasm_take_imm(m, SR_SHIFT, "shift");
	sass_values_set(&m->v, SR_SHIFT, 0);
	return true;
}

/* IADD3 operands: [-]R[.H0|.H1][.reuse]; B may be a constant or immediate. */
static bool iadd3_reg(SasmMatch *m, SassRole reg, SassRole neg, SassRole hsel, int reuse_bit, const char *what)
{
	if (m->next >= m->s->nops)
		return sasm_take_reg(m, reg, reuse_bit, 0, NULL, what);
	const SasmOperand *op = &m->s->ops[m->next];
	Suffixes sfx;
	bool has_hsel = sass_form_field(m->f, hsel) != NULL;
	if (!sasm_no_prefix(m, op, true, false, false, false) ||
	    !sasm_take_reg(m, reg, reuse_bit, has_hsel ? SUF_OTHER : 0, &sfx, what))
		return false;
	sass_values_set(&m->v, neg, op->neg);
	if (!has_hsel)
		return true;
	int64_t v = 0;
	if (sfx.other != NULL) {
		v = sasm_enum_value(m->f, sass_form_field(m->f, hsel), sfx.other + 1, strlen(sfx.other + 1));
		if (v < 0)
			return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "IADD3: unknown half select '%s'", sfx.other);
	}
	sass_values_set(&m->v, hsel, v);
	return true;
}

static bool match_iadd3(SasmMatch *m)
{
	if (!sasm_take_rd_cc(m) || !iadd3_reg(m, SR_RA, SR_NEGA, SR_HSEL_A, 0, "A"))
		return false;
	if (m->f->bkind == SASS_B_REG) {
		if (!iadd3_reg(m, SR_RB, SR_NEGB, SR_HSEL_B, 1, "B"))
			return false;
	} else {
		bool negb;
		if (!sasm_take_b(m, true, false, SUF_NEG, 0, &negb, NULL))
			return false;
		sass_values_set(&m->v, SR_NEGB, negb);
	}
	return iadd3_reg(m, SR_RC, SR_NEGC, SR_HSEL_C, 2, "C");
}

/* The conversions I2I, I2F, F2I: -|Rb.B1| for registers and constants,
 * 0x5.NEG.ABS.B1 for an immediate; no reuse flags. F2I has no byte select. */
static bool match_convert(SasmMatch *m)
{
	if (!sasm_take_rd_cc(m))
		return false;
	const SasmOperand *op = sasm_take_next(m, "source");
	if (op == NULL)
		return false;
	Suffixes sfx;
	const char *stem = sass_op_mnemonic(m->f->op);
	bool want_imm = m->f->bkind == SASS_B_IMM, has_bytesel = sass_form_field(m->f, SR_BYTESEL) != NULL;
	SasmOperandKind want = want_imm ? SOK_IMM : m->f->bkind == SASS_B_CONST ? SOK_CONST : SOK_REG;
	if (op->kind != want)
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected a %s source", stem,
		                       want_imm ? "immediate" : want == SOK_CONST ? "constant" : "register");
	if (!sasm_no_prefix(m, op, true, false, false, !want_imm) ||
	    !sasm_read_suffixes(m, op, (has_bytesel ? SUF_BYTE | SUF_OTHER : 0) |
	                               (want_imm ? SUF_NEG | SUF_ABS : 0), &sfx))
		return false;
	bool half = (sass_values_get(&m->v, SR_STYPE, 0) >> 1) == 1, spelled_half = false;
	for (unsigned i = 0; i < op->nsuffix; i++)
		spelled_half |= strcmp(op->suffix[i], ".H1") == 0;
	/* nvdisasm's names for the byte selects a 16-bit source cannot have */
	if (sfx.other != NULL && half && sfx.bytesel == 0 &&
	    (strcmp(sfx.other, ".INVALIDSIZE1") == 0 || strcmp(sfx.other, ".INVALIDSIZE3") == 0)) {
		sfx.bytesel = sfx.other[12] - '0';
		spelled_half = true;
	} else if (sfx.other != NULL) {
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: unexpected suffix '%s'", stem, sfx.other);
	}
	if (sfx.bytesel && half != spelled_half)
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX,
		                       "%s: a 16-bit source selects .H1, an 8-bit or 32-bit one .B1-.B3", stem);
	sass_values_set(&m->v, SR_NEGB, want_imm ? sfx.neg : op->neg);
	sass_values_set(&m->v, sass_form_field(m->f, SR_ABS) ? SR_ABS : SR_ABSB, want_imm ? sfx.abs : op->abs);
	if (has_bytesel)
		sass_values_set(&m->v, SR_BYTESEL, sfx.bytesel);
	if (want_imm)
		return sasm_set_value(m, SR_IMM, op->neg ? -op->value : op->value, op->loc, "immediate");
	if (want == SOK_CONST)
		return sasm_set_const(m, op);
	return sasm_set_value(m, SR_RB, op->reg, op->loc, "source register");
}

static bool match_psetp(SasmMatch *m)
{
	return sasm_take_pred(m, SR_PD, SR_COUNT, "first destination") &&
	       sasm_take_pred(m, SR_PQ, SR_COUNT, "second destination") &&
	       sasm_take_pred(m, SR_PA, SR_PA_NOT, "A") && sasm_take_pred(m, SR_PB, SR_PB_NOT, "B") &&
	       sasm_take_pred(m, SR_PC, SR_PC_NOT, "C");
}

/* BRA [CC.cond,] target. */
static bool match_bra(SasmMatch *m)
{
	return sasm_take_cond(m, 1) && sasm_take_target(m);
}

/* issue 15: CAL target: a label or an absolute address, as BRA's. */
static bool match_cal(SasmMatch *m)
{
	return sasm_take_target(m);
}

/* DEPBAR [.LE SBn, count] [{barriers}]. */
static bool match_depbar(SasmMatch *m)
{
	if (sass_values_get(&m->v, SR_LE, 0)) {
		if (!sasm_take_name(m, SR_SCOREBOARD, "scoreboard") || !sasm_take_imm(m, SR_CNT, "count"))
			return false;
	} else {
		sass_values_set(&m->v, SR_SCOREBOARD, 0);
		sass_values_set(&m->v, SR_CNT, 0);
	}
	sass_values_set(&m->v, SR_WMASK, 0);
	if (m->next < m->s->nops) {
		const SasmOperand *op = sasm_take_next(m, "{barriers}");
		if (op->kind != SOK_LIST)
			return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "DEPBAR: expected a barrier list {n,...}");
		if (op->list & ~0x3fu)
			return sasm_match_fail(m, op->loc, RULE_SASS_BARRIER, "DEPBAR: barriers are 0 to 5");
		sass_values_set(&m->v, SR_WMASK, op->list);
	}
	return true;
}

static bool match_operands(SasmMatch *m)
{
	switch (m->f->op) {
	case SOP_SUST_D: case SOP_SUST_P: case SOP_SULD_D: case SOP_SULD_P:
	case SOP_SURED_D: case SOP_SURED_P: return match_surface(m);
	case SOP_TXQ: case SOP_TXQ_B: return match_txq(m);
	case SOP_TEX: case SOP_TEX_B: case SOP_TLD: case SOP_TLD_B:
	case SOP_TLD4: case SOP_TLD4_B: case SOP_TXD: case SOP_TXD_B: return match_tex(m);
	case SOP_TEXS: case SOP_TLDS: case SOP_TLD4S: return match_texs(m);
	case SOP_STG: case SOP_LDG: return match_global(m);
	case SOP_STS: case SOP_LDS: case SOP_STL: case SOP_LDL: return match_global(m);
	case SOP_ST: case SOP_LD: return match_generic(m);
	case SOP_LDC: return match_ldc(m);
	case SOP_MOV: case SOP_MOV32I: return match_mov(m);
	case SOP_S2R:
		return sasm_take_reg(m, SR_RD, -1, 0, NULL, "destination") &&
		       sasm_take_name(m, SR_SREG, "special register");
	case SOP_IADD: case SOP_IADD32I: case SOP_ISCADD: return match_iadd(m);
	case SOP_SHL: case SOP_SHR: case SOP_BFE: return match_shift(m);
	case SOP_LOP: case SOP_LOP32I: return match_lop(m);
	case SOP_ISETP: return match_isetp(m);
	case SOP_XMAD: return match_xmad(m);
	case SOP_BFI: case SOP_IMNMX: case SOP_SEL: case SOP_SHF_L: case SOP_SHF_R: return match_alu3(m);
	case SOP_LEA: case SOP_LEA_HI: return match_lea(m);
	case SOP_IADD3: return match_iadd3(m);
	case SOP_I2I: case SOP_I2F: case SOP_F2I: return match_convert(m);
	case SOP_PSETP: return match_psetp(m);
	case SOP_BRA: return match_bra(m);
	case SOP_EXIT: return true;
	case SOP_CAL: return match_cal(m);
	case SOP_JCAL: return sasm_take_imm(m, SR_IMM, "call address"); /* JCAL 0x0: nvdisasm's raw text */
	case SOP_RET: return true;
	case SOP_BPT:   /* BPT.TRAP [code] */
		if (m->next < m->s->nops)
			return sasm_take_imm(m, SR_IMM, "trap code");
		sass_values_set(&m->v, SR_IMM, 0);
		return true;
	case SOP_NOP:
		if (m->next < m->s->nops)
			return sasm_take_imm(m, SR_IMM, "immediate");
		sass_values_set(&m->v, SR_IMM, 0);
		return true;
	case SOP_DEPBAR: return match_depbar(m);
	case SOP_FADD: case SOP_FADD32I: case SOP_FMUL: case SOP_FMUL32I: case SOP_FFMA:
	case SOP_FMNMX: case SOP_FSETP: case SOP_FSET: case SOP_DSET: case SOP_FCMP: return sasm_match_float(m);
	case SOP_DADD: case SOP_DMUL: case SOP_DFMA: case SOP_DMNMX: case SOP_DSETP: return sasm_match_float(m);
	default: return sasm_match_fam(m) || sasm_match_warp(m) || sasm_match_ptxas(m);
	}
	return false;
}


bool sasm_select(const SasmStmt *s, SasmInsn *out, DiagSink *d)
{
	const char *dot = strchr(s->mnemonic, '.');
	SasmMatch best = { 0 };
	int best_progress = -1;
	bool stem_seen = false;
	/* nvdisasm writes the bindless TLD4 as TLD4.<component>.B: matched as
	 * the family TLD4.B with the component as its modifier */
	const char *mn = s->mnemonic;
	char tld4b[64];
	if (strncmp(mn, "TLD4.", 5) == 0 && mn[5] && strchr("RGBA", mn[5]) && strncmp(mn + 6, ".B", 2) == 0 &&
	    (mn[8] == '.' || mn[8] == '\0') && strlen(mn) < sizeof tld4b) {
		snprintf(tld4b, sizeof tld4b, "TLD4.B.%c%s", mn[5], mn + 8);
		mn = tld4b;
	}
	/* video: nvdisasm leaves out VABSDIFF4's formats when both are S8 (the
	 * scalar VABSDIFF's, per form: sasm_video_mods) */
	char vabs[64];
	if (strncmp(mn, "VABSDIFF4", 9) == 0 && (mn[9] == '.' || mn[9] == '\0') && !sasm_has_video_format(mn + 9) &&
	    strlen(mn) + 8 < sizeof vabs) {
		snprintf(vabs, sizeof vabs, "%s.S8.S8", mn);
		mn = vabs;
	}
	for (size_t i = 0; i < sass_form_count; i++) {
		const SassForm *f = &sass_forms[i];
		const char *stem = sass_op_mnemonic(f->op);
		size_t n = strlen(stem);
		if (strncmp(mn, stem, n) != 0 || (mn[n] != '.' && mn[n] != '\0'))
			continue;
		stem_seen = true;
		char vmods[64];
		SasmMatch m = { .s = s, .f = f, .mods = sasm_video_mods(f, mn + n, vmods, sizeof vmods), .out = out };
		sass_values_clear(&m.v);
		memset(out, 0, sizeof *out);
		bool ok = sasm_match_modifiers(&m) && match_guard(&m) && match_operands(&m);
		if (ok && m.next < s->nops)
			ok = sasm_match_fail(&m, s->ops[m.next].loc, RULE_SASS_SYNTAX, "%s: too many operands",
			                     sass_op_mnemonic(f->op));
		if (ok) {
			out->stmt = s;
			out->form = f;
			out->vals = m.v;
			out->reuse = m.reuse;
			return true;
		}
		int progress = (int)m.next * 2 + (m.err_rule && m.err_rule != RULE_SASS_SYNTAX);
		if (progress > best_progress) {
			best_progress = progress;
			best = m;
		}
	}
	if (!stem_seen) {
		int len = dot ? (int)(dot - s->mnemonic) : (int)strlen(s->mnemonic);
		diag_add(d, SEV_ERROR, s->mnemonic_loc, RULE_SASS_SYNTAX,
		         "unknown instruction '%.*s' (not in the sm_50 instruction table)", len, s->mnemonic);
		return false;
	}
	diag_add(d, SEV_ERROR, best.err_loc, best.err_rule, "%s", best.err);
	return false;
}
