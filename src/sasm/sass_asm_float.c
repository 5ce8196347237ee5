/* Operands of the float families in SASS text (FADD, FMUL, FFMA, FMNMX,
 * FSETP and their double-precision twins DADD, DMUL, DFMA, DMNMX, DSETP),
 * the inverse of their printers in
 * sass_disasm.c: registers and constants negated and wrapped as -|x|,
 * float immediates with .NEG/.ABS suffixes. The conversions I2F/F2I share
 * I2I's operand syntax (sass_asm_insn.c). */
#include "sasm/sass_asm_internal.h"

#include <string.h>

/* Reuse flag of each source; FADD reuses its B register through the third
 * flag (see sass_disasm.c). */
static int reuse_bit_b(const SasmMatch *m)
{
	return m->f->op == SOP_FADD || m->f->op == SOP_DADD ? 2 : 1;
}

static bool is_double(const SasmMatch *m)
{
	SassOp op = m->f->op;
	return op == SOP_DADD || op == SOP_DMUL || op == SOP_DFMA || op == SOP_DMNMX || op == SOP_DSETP ||
	       op == SOP_DSET;
}

/* The top 20 bits of a double immediate (its low 44 bits must be zero). */
static bool double_imm20(SasmMatch *m, const SasmOperand *op, int64_t *field)
{
	uint64_t bits;
	if (op->kind == SOK_FLOAT) {
		bits = (uint64_t)op->value;
	} else if (op->kind == SOK_IMM && op->value >= 0 && (int64_t)(double)op->value == op->value) {
		double d = (double)op->value;
		memcpy(&bits, &d, sizeof bits);
	} else {
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected a float immediate",
		                       sass_op_mnemonic(m->f->op));
	}
	if (op->neg)
		bits ^= UINT64_C(1) << 63;
	if (bits & ((UINT64_C(1) << 44) - 1))
		return sasm_match_fail(m, op->loc, RULE_SASS_RANGE,
		                       "%s: this double needs more than the 20-bit immediate's 8 mantissa bits",
		                       sass_op_mnemonic(m->f->op));
	*field = (int64_t)(bits >> 44);
	return true;
}

/* The f32 bits of a float operand: a float literal, or an integer that a
 * float holds exactly ("1", "100000"); a '-' prefix flips the sign. */
static bool float_value(SasmMatch *m, const SasmOperand *op, uint32_t *bits)
{
	if (op->kind == SOK_FLOAT) {
		double d;
		uint64_t b64 = (uint64_t)op->value;
		memcpy(&d, &b64, sizeof d);
		float f = (float)d;
		memcpy(bits, &f, sizeof *bits);
	} else if (op->kind == SOK_IMM && op->value >= 0 && op->value <= (int64_t)UINT32_MAX &&
	           (int64_t)(float)op->value == op->value) {
		float f = (float)op->value;
		memcpy(bits, &f, sizeof *bits);
	} else {
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected a float immediate",
		                       sass_op_mnemonic(m->f->op));
	}
	if (op->neg)
		*bits ^= 0x80000000u;
	return true;
}

/* A float immediate into SR_IMM: all 32 bits, or the top 20 of the 20-bit
 * field (the low 12 must be zero: such a float needs the 32I form). */
static bool float_imm(SasmMatch *m, const SasmOperand *op, SassRole neg, SassRole abs)
{
	Suffixes sfx;
	uint32_t bits = 0;
	int64_t dfield = 0;
	if (!sasm_no_prefix(m, op, true, false, false, false) ||
	    !sasm_read_suffixes(m, op, (neg != SR_COUNT ? SUF_NEG : 0) | (abs != SR_COUNT ? SUF_ABS : 0), &sfx) ||
	    !(is_double(m) ? double_imm20(m, op, &dfield) : float_value(m, op, &bits)))
		return false;
	if (neg != SR_COUNT)
		sass_values_set(&m->v, neg, sfx.neg);
	if (abs != SR_COUNT)
		sass_values_set(&m->v, abs, sfx.abs);
	if (is_double(m)) {
		sass_values_set(&m->v, SR_IMM, dfield);
		return true;
	}
	if (m->f->bkind == SASS_B_NONE) {
		sass_values_set(&m->v, SR_IMM, bits);
		return true;
	}
	if (bits & 0xfff)
		return sasm_match_fail(m, op->loc, RULE_SASS_RANGE,
		                       "%s: this float needs more than the 20-bit immediate's 11 mantissa bits",
		                       sass_op_mnemonic(m->f->op));
	sass_values_set(&m->v, SR_IMM, bits >> 12);
	return true;
}

/* A source: A (always a register) or B by the form's B kind; neg/abs are
 * the roles of its modifiers, SR_COUNT where the form has none. */
static bool float_src(SasmMatch *m, bool is_a, SassRole neg, SassRole abs)
{
	const SasmOperand *op = sasm_take_next(m, is_a ? "A" : "B");
	if (op == NULL)
		return false;
	if (!is_a && (m->f->bkind == SASS_B_IMM || m->f->bkind == SASS_B_NONE))
		return float_imm(m, op, neg, abs);
	bool want_const = !is_a && m->f->bkind == SASS_B_CONST;
	if (op->kind != (want_const ? SOK_CONST : SOK_REG))
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected a %s as %s", sass_op_mnemonic(m->f->op),
		                       want_const ? "constant c[bank][offset]" : "register", is_a ? "A" : "B");
	Suffixes sfx;
	if (!sasm_no_prefix(m, op, neg != SR_COUNT, false, false, abs != SR_COUNT) ||
	    !sasm_read_suffixes(m, op, want_const ? 0 : SUF_REUSE, &sfx))
		return false;
	if (neg != SR_COUNT)
		sass_values_set(&m->v, neg, op->neg);
	if (abs != SR_COUNT)
		sass_values_set(&m->v, abs, op->abs);
	if (sfx.reuse)
		m->reuse |= 1u << (is_a ? 0 : reuse_bit_b(m));
	if (want_const)
		return sasm_set_const(m, op);
	return sasm_set_value(m, is_a ? SR_RA : SR_RB, op->reg, op->loc, is_a ? "register A" : "register B");
}

static bool match_ffma_c(SasmMatch *m)
{
	const SasmOperand *op = sasm_take_next(m, "C");
	if (op == NULL)
		return false;
	bool want_const = m->f->bkind == SASS_B_RC;
	if (op->kind != (want_const ? SOK_CONST : SOK_REG))
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected a %s as C",
		                       sass_op_mnemonic(m->f->op), want_const ? "constant c[bank][offset]" : "register");
	Suffixes sfx;
	if (!sasm_no_prefix(m, op, true, false, false, false) ||
	    !sasm_read_suffixes(m, op, want_const ? 0 : SUF_REUSE, &sfx))
		return false;
	sass_values_set(&m->v, SR_NEGC, op->neg);
	if (sfx.reuse)
		m->reuse |= 4;
	return want_const ? sasm_set_const(m, op) : sasm_set_value(m, SR_RC, op->reg, op->loc, "register C");
}

/* A float source as FADD's, for forms outside this family (divrn's
 * FCHK.DIVIDE Pd, [-][|]Ra[|], [-][|]B[|]); SR_COUNT: no such modifier. */
bool sasm_take_float_src(SasmMatch *m, bool is_a, SassRole neg, SassRole abs)
{
	return float_src(m, is_a, neg, abs);
}

bool sasm_match_float(SasmMatch *m)
{
	switch (m->f->op) {
	case SOP_FADD: case SOP_FADD32I: case SOP_DADD:
		return sasm_take_rd_cc(m) && float_src(m, true, SR_NEGA, SR_ABSA) &&
		       float_src(m, false, SR_NEGB, SR_ABSB);
	case SOP_FMUL: case SOP_FMUL32I: case SOP_DMUL:
		return sasm_take_rd_cc(m) && float_src(m, true, SR_COUNT, SR_COUNT) &&
		       float_src(m, false, m->f->op != SOP_FMUL32I ? SR_NEGB : SR_COUNT, SR_COUNT);
	case SOP_FFMA: case SOP_DFMA:
		return sasm_take_rd_cc(m) && float_src(m, true, SR_COUNT, SR_COUNT) &&
		       float_src(m, false, SR_NEGB, SR_COUNT) && match_ffma_c(m);
	case SOP_FMNMX: case SOP_DMNMX:
		return sasm_take_rd_cc(m) && float_src(m, true, SR_NEGA, SR_ABSA) &&
		       float_src(m, false, SR_NEGB, SR_ABSB) &&
		       sasm_take_pred(m, SR_PC, SR_PC_NOT, "predicate source");
	case SOP_FCMP:    /* legacy2: FCMP Rd, Ra, B (a float immediate), Rc */
		return sasm_take_reg(m, SR_RD, -1, 0, NULL, "destination") &&
		       sasm_take_reg(m, SR_RA, 0, 0, NULL, "A") && float_src(m, false, SR_COUNT, SR_COUNT) &&
		       sasm_take_c(m);
	case SOP_FSET: case SOP_DSET:    /* divrn, legacy2 */
		return sasm_take_rd_cc(m) && float_src(m, true, SR_NEGA, SR_ABSA) &&
		       float_src(m, false, SR_NEGB, SR_ABSB) &&
		       sasm_take_pred(m, SR_PC, SR_PC_NOT, "predicate source");
	case SOP_FSETP: case SOP_DSETP:
		return sasm_take_pred(m, SR_PD, SR_COUNT, "first destination") &&
		       sasm_take_pred(m, SR_PQ, SR_COUNT, "second destination") &&
		       float_src(m, true, SR_NEGA, SR_ABSA) && float_src(m, false, SR_NEGB, SR_ABSB) &&
		       sasm_take_pred(m, SR_PC, SR_PC_NOT, "predicate source");
	default:
		return false;
	}
}
