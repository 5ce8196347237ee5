/* Reading operands of SASS text into field values: registers with their
 * suffixes, predicates, immediates (range-checked against the form's field),
 * constants, the B and C operands of the ALU forms. The family code in
 * sass_asm_insn.c strings these together in nvdisasm's operand order. */
#include "sasm/sass_asm_internal.h"

#include <string.h>


const SasmOperand *sasm_take_next(SasmMatch *m, const char *what)
{
	if (m->next >= m->s->nops) {
		sasm_match_fail(m, m->s->loc, RULE_SASS_SYNTAX, "%s: missing operand (%s)",
		                sass_op_mnemonic(m->f->op), what);
		return NULL;
	}
	const SasmOperand *op = &m->s->ops[m->next++];
	if (op->kind == SOK_IMM && op->overflow) {
		sasm_match_fail(m, op->loc, RULE_SASS_RANGE, "%s: the number does not fit any field (more than 63 bits)",
		                sass_op_mnemonic(m->f->op));
		return NULL;
	}
	return op;
}

bool sasm_read_suffixes(SasmMatch *m, const SasmOperand *op, unsigned allow, Suffixes *out)
{
	memset(out, 0, sizeof *out);
	for (unsigned i = 0; i < op->nsuffix; i++) {
		const char *s = op->suffix[i];
		if ((allow & SUF_REUSE) && strcmp(s, ".reuse") == 0) out->reuse = true;
		else if ((allow & SUF_CC) && strcmp(s, ".CC") == 0) out->cc = true;
		else if ((allow & SUF_H1) && strcmp(s, ".H1") == 0) out->h1 = true;
		else if ((allow & SUF_BYTE) && strcmp(s, ".B1") == 0) out->bytesel = 1;
		else if ((allow & SUF_BYTE) && strcmp(s, ".B2") == 0) out->bytesel = 2;
		else if ((allow & SUF_BYTE) && strcmp(s, ".B3") == 0) out->bytesel = 3;
		else if ((allow & SUF_BYTE) && strcmp(s, ".H1") == 0) out->bytesel = 2;
		else if ((allow & SUF_NEG) && strcmp(s, ".NEG") == 0) out->neg = true;
		else if ((allow & SUF_INV) && strcmp(s, ".INV") == 0) out->inv = true;
		else if ((allow & SUF_ABS) && strcmp(s, ".ABS") == 0) out->abs = true;
		else if ((allow & SUF_OTHER) && out->other == NULL) out->other = s;
		else
			return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: unexpected suffix '%s' on this operand",
			                       sass_op_mnemonic(m->f->op), s);
	}
	return true;
}

bool sasm_no_prefix(SasmMatch *m, const SasmOperand *op, bool neg_ok, bool inv_ok, bool not_ok, bool abs_ok)
{
	if ((op->neg && !neg_ok) || (op->inv && !inv_ok) || (op->not_ && !not_ok) || (op->abs && !abs_ok))
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: this operand takes no %s",
		                       sass_op_mnemonic(m->f->op), op->neg ? "'-'" : op->inv ? "'~'" : op->not_ ? "'!'" : "|...|");
	return true;
}

/* Sets role r, checking that the field holds the value. */
bool sasm_set_value(SasmMatch *m, SassRole r, int64_t value, SrcLoc loc, const char *what)
{
	const SassField *fld = sass_form_field(m->f, r);
	if (fld == NULL)
		return sasm_match_fail(m, loc, RULE_SASS_SYNTAX, "%s has no %s", sass_op_mnemonic(m->f->op), what);
	if (!sass_field_accepts(fld, value)) {
		int bits = fld->width + fld->hi_width;
		return sasm_match_fail(m, loc, RULE_SASS_RANGE, "%s %s 0x%llx%s does not fit its %d-bit %s field",
		                       sass_op_mnemonic(m->f->op), what, (unsigned long long)(value < 0 ? -value : value),
		                       value < 0 ? " (negative)" : "", bits,
		                       fld->kind == SASS_FK_SIMM ? "signed" : "unsigned");
	}
	sass_values_set(&m->v, r, value);
	return true;
}

/* A register operand; `reuse_bit` >= 0: .reuse allowed, it sets that bit. */
bool sasm_take_reg(SasmMatch *m, SassRole r, int reuse_bit, unsigned allow, Suffixes *sfx,
                        const char *what)
{
	const SasmOperand *op = sasm_take_next(m, what);
	if (op == NULL)
		return false;
	if (op->kind != SOK_REG)
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected a register (%s)",
		                       sass_op_mnemonic(m->f->op), what);
	Suffixes local;
	if (sfx == NULL)
		sfx = &local;
	if (!sasm_read_suffixes(m, op, allow | (reuse_bit >= 0 ? SUF_REUSE : 0), sfx))
		return false;
	if (sfx->reuse)
		m->reuse |= 1u << reuse_bit;
	return sasm_set_value(m, r, op->reg, op->loc, what);
}

bool sasm_take_pred(SasmMatch *m, SassRole r, SassRole not_role, const char *what)
{
	const SasmOperand *op = sasm_take_next(m, what);
	if (op == NULL)
		return false;
	if (op->kind != SOK_PRED || op->nsuffix)
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected a predicate (%s)",
		                       sass_op_mnemonic(m->f->op), what);
	if (!sasm_no_prefix(m, op, false, false, not_role != SR_COUNT, false))
		return false;
	if (not_role != SR_COUNT)
		sass_values_set(&m->v, not_role, op->not_);
	return sasm_set_value(m, r, op->reg, op->loc, what);
}

/* The next operand as a plain number (no suffix, no prefix but '-'). */
static const SasmOperand *take_number(SasmMatch *m, const char *what)
{
	const SasmOperand *op = sasm_take_next(m, what);
	if (op == NULL)
		return NULL;
	if (op->kind != SOK_IMM || op->nsuffix || !sasm_no_prefix(m, op, true, false, false, false)) {
		sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected a number (%s)", sass_op_mnemonic(m->f->op), what);
		return NULL;
	}
	return op;
}

bool sasm_take_imm(SasmMatch *m, SassRole r, const char *what)
{
	const SasmOperand *op = take_number(m, what);
	return op && sasm_set_value(m, r, op->neg ? -op->value : op->value, op->loc, what);
}

static bool set_imm32(SasmMatch *m, SassRole r, const SasmOperand *op, const char *what)
{
	int64_t v = op->neg ? -op->value : op->value;
	if (v < INT32_MIN || v > (int64_t)UINT32_MAX)
		return sasm_match_fail(m, op->loc, RULE_SASS_RANGE, "%s: %s does not fit 32 bits",
		                       sass_op_mnemonic(m->f->op), what);
	sass_values_set(&m->v, r, (int64_t)(uint32_t)v);
	return true;
}

/* A 32-bit immediate: written unsigned or negative. */
bool sasm_take_imm32(SasmMatch *m, SassRole r, const char *what)
{
	const SasmOperand *op = take_number(m, what);
	return op && set_imm32(m, r, op, what);
}

/* A 32-bit immediate that may carry ".INV" (LOP32I's inverted B, bit 56):
 * inv_role is set to whether it does. */
bool sasm_take_imm32_inv(SasmMatch *m, SassRole r, SassRole inv_role, const char *what)
{
	const SasmOperand *op = sasm_take_next(m, what);
	Suffixes sfx;
	if (op == NULL)
		return false;
	if (op->kind != SOK_IMM || !sasm_no_prefix(m, op, true, false, false, false))
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected a number (%s)",
		                       sass_op_mnemonic(m->f->op), what);
	if (!sasm_read_suffixes(m, op, SUF_INV, &sfx))
		return false;
	sass_values_set(&m->v, inv_role, sfx.inv);
	return set_imm32(m, r, op, what);
}

/* c[bank][off] of an ALU operand: the field counts 4-byte words. */
bool sasm_set_const(SasmMatch *m, const SasmOperand *op)
{
	if (op->reg != SASM_NO_REG)
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: this constant operand takes no register",
		                       sass_op_mnemonic(m->f->op));
	if (op->value % 4 != 0)
		return sasm_match_fail(m, op->loc, RULE_SASS_ALIGN, "%s: constant offset 0x%llx is not a multiple of 4",
		                       sass_op_mnemonic(m->f->op), (unsigned long long)op->value);
	return sasm_set_value(m, SR_CBANK, op->bank, op->loc, "constant bank") &&
	       sasm_set_value(m, SR_COFF, op->value / 4, op->loc, "constant offset");
}

/* Operand B of an ALU form by the form's B kind. A register or constant
 * written with `prefix` ('-' or '~') or an immediate with the `suffix_flag`
 * suffix (.NEG / .INV) sets *modified. */
bool sasm_take_b(SasmMatch *m, bool prefix_neg, bool prefix_inv, unsigned suffix_flag,
                      unsigned reg_allow, bool *modified, Suffixes *sfx_out)
{
	const SasmOperand *op = sasm_take_next(m, "B");
	if (op == NULL)
		return false;
	Suffixes sfx;
	bool mod = false;
	switch (m->f->bkind) {
	case SASS_B_REG:
	case SASS_B_RC:
		if (op->kind != SOK_REG)
			return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected a register as B",
			                       sass_op_mnemonic(m->f->op));
		if (!sasm_no_prefix(m, op, prefix_neg, prefix_inv, false, false) ||
		    !sasm_read_suffixes(m, op, SUF_REUSE | reg_allow, &sfx))
			return false;
		if (sfx.reuse)
			m->reuse |= 2;
		mod = op->neg || op->inv;
		if (!sasm_set_value(m, SR_RB, op->reg, op->loc, "register B"))
			return false;
		break;
	case SASS_B_CONST:
		if (op->kind != SOK_CONST)
			return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected a constant c[bank][offset] as B",
			                       sass_op_mnemonic(m->f->op));
		if (!sasm_no_prefix(m, op, prefix_neg, prefix_inv, false, false) ||
		    !sasm_read_suffixes(m, op, reg_allow & SUF_H1, &sfx) || !sasm_set_const(m, op))
			return false;
		mod = op->neg || op->inv;
		break;
	case SASS_B_IMM:
		if (op->kind != SOK_IMM)
			return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected an immediate as B",
			                       sass_op_mnemonic(m->f->op));
		if (!sasm_no_prefix(m, op, true, false, false, false) || !sasm_read_suffixes(m, op, suffix_flag, &sfx))
			return false;
		mod = sfx.neg || sfx.inv;
		if (!sasm_set_value(m, SR_IMM, op->neg ? -op->value : op->value, op->loc, "immediate"))
			return false;
		break;
	case SASS_B_NONE:
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s takes no B operand", sass_op_mnemonic(m->f->op));
	}
	*modified = mod;
	if (sfx_out)
		*sfx_out = sfx;
	return true;
}

/* The C operand: Rc, or the constant of the RC layouts. */
bool sasm_take_c(SasmMatch *m)
{
	if (m->f->bkind != SASS_B_RC)
		return sasm_take_reg(m, SR_RC, 2, 0, NULL, "C");
	const SasmOperand *op = sasm_take_next(m, "C");
	if (op == NULL)
		return false;
	if (op->kind != SOK_CONST || !sasm_no_prefix(m, op, false, false, false, false))
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected a constant c[bank][offset] as C",
		                       sass_op_mnemonic(m->f->op));
	return sasm_set_const(m, op);
}

/* Rd with an optional .CC. */
bool sasm_take_rd_cc(SasmMatch *m)
{
	Suffixes sfx;
	if (!sasm_take_reg(m, SR_RD, -1, SUF_CC, &sfx, "destination"))
		return false;
	if (sass_form_field(m->f, SR_CC))
		sass_values_set(&m->v, SR_CC, sfx.cc);
	else if (sfx.cc)
		return sasm_match_fail(m, m->s->loc, RULE_SASS_SYNTAX, "%s cannot write the condition code",
		                       sass_op_mnemonic(m->f->op));
	return true;
}

/* A named value (S2R SR_TID.X, TXQ query, DEPBAR SBn): a word or, for names
 * that are numbers ("3"), a number. */
bool sasm_take_name(SasmMatch *m, SassRole r, const char *what)
{
	const SasmOperand *op = sasm_take_next(m, what);
	if (op == NULL)
		return false;
	char buf[32];
	const char *text = op->name;
	if (op->kind == SOK_IMM && !op->neg && op->nsuffix == 0) {
		snprintf(buf, sizeof buf, "%lld", (long long)op->value);
		text = buf;
	} else if (op->kind != SOK_NAME || op->neg || op->inv || op->not_ || op->abs) {
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected a name (%s)", sass_op_mnemonic(m->f->op), what);
	}
	int64_t v = sasm_enum_value(m->f, sass_form_field(m->f, r), text, strlen(text));
	if (v < 0)
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: unknown %s '%s'", sass_op_mnemonic(m->f->op), what, text);
	sass_values_set(&m->v, r, v);
	return true;
}

/* [Ra + off], [Ra - off], [Ra + -off], [off] and [RZ + off]: with no Ra or
 * RZ the offset is an absolute unsigned `bits`-bit address, stored in the same
 * field as the signed offset. */
bool sasm_address(SasmMatch *m, unsigned bits)
{
	const SasmOperand *op = sasm_take_next(m, "address");
	if (op == NULL)
		return false;
	if (op->kind != SOK_MEM || op->nsuffix)
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected an address [Ra + offset]",
		                       sass_op_mnemonic(m->f->op));
	int64_t off = op->value;
	if (op->reg == SASM_NO_REG || op->reg == 255) {
		if (off < 0 || off > (int64_t)((UINT64_C(1) << bits) - 1))
			return sasm_match_fail(m, op->loc, RULE_SASS_RANGE,
			                       "%s: absolute address %s0x%llx is outside the unsigned %u-bit range 0x0-0x%llx",
			                       sass_op_mnemonic(m->f->op), off < 0 ? "-" : "",
			                       (unsigned long long)(off < 0 ? -off : off), bits,
			                       (unsigned long long)((UINT64_C(1) << bits) - 1));
		if (off >= (int64_t)(UINT64_C(1) << (bits - 1)))
			off -= (int64_t)(UINT64_C(1) << bits);
		sass_values_set(&m->v, SR_RA, 255);
	} else {
		if (off < -(int64_t)(UINT64_C(1) << (bits - 1)) || off >= (int64_t)(UINT64_C(1) << (bits - 1)))
			return sasm_match_fail(m, op->loc, RULE_SASS_RANGE,
			                       "%s: offset %s0x%llx is outside the signed %u-bit range -0x%llx..0x%llx",
			                       sass_op_mnemonic(m->f->op), off < 0 ? "-" : "",
			                       (unsigned long long)(off < 0 ? -off : off), bits,
			                       (unsigned long long)(UINT64_C(1) << (bits - 1)),
			                       (unsigned long long)((UINT64_C(1) << (bits - 1)) - 1));
		sass_values_set(&m->v, SR_RA, op->reg);
	}
	sass_values_set(&m->v, SR_IMM, off);
	return true;
}

/* An optional condition-code test "CC.cond" (0xf, T, when absent), taken
 * only when `after` more operands follow it. */
bool sasm_take_cond(SasmMatch *m, size_t after)
{
	sass_values_set(&m->v, SR_COND, 0xf);
	if (m->next + after >= m->s->nops)
		return true;
	const SasmOperand *op = &m->s->ops[m->next];
	if (op->kind != SOK_NAME || strncmp(op->name, "CC.", 3) != 0)
		return true;
	m->next++;
	const SassField *fld = sass_form_field(m->f, SR_COND);
	int64_t v = sasm_enum_value(m->f, fld, op->name + 3, strlen(op->name + 3));
	if (v < 0)
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: unknown condition '%s'",
		                       sass_op_mnemonic(m->f->op), op->name);
	sass_values_set(&m->v, SR_COND, v);
	return true;
}

/* A branch target: a label, `(label) or an absolute address; the offset
 * is resolved when the addresses are known (SR_IMM 0 until then). */
bool sasm_take_target(SasmMatch *m)
{
	const SasmOperand *op = sasm_take_next(m, "target");
	if (op == NULL)
		return false;
	m->out->has_target = true;
	m->out->target_loc = op->loc;
	if (op->kind == SOK_IMM && op->nsuffix == 0 && !op->inv && !op->not_ && !op->abs) {
		m->out->target_addr = op->neg ? -op->value : op->value;
	} else if (op->kind == SOK_NAME && !op->neg && !op->inv && !op->not_ && !op->abs) {
		m->out->target_label = op->name;
	} else {
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected a label or an address as target",
		                       sass_op_mnemonic(m->f->op));
	}
	sass_values_set(&m->v, SR_IMM, 0);
	return true;
}
