/* Operands of the atomics, reductions and warp operations in SASS text
 * (ATOM, ATOM.CAS, RED, ATOMS, ATOMS.CAS, SHFL, VOTE, CS2R), the inverse
 * of sm50/sass_disasm_warp.c. */
#include "sasm/sass_asm_internal.h"

/* CAS's third register is implied: Rb+1 (.CAS.64: Rb+2); the text must
 * name it so. */
static bool cas_new_value(SasmMatch *m)
{
	const SasmOperand *op = sasm_take_next(m, "new value");
	if (op == NULL)
		return false;
	int64_t want = sass_values_get(&m->v, SR_RB, 0) + (sass_values_get(&m->v, SR_CAS64, 0) ? 2 : 1);
	if (op->kind != SOK_REG || op->nsuffix || op->reg != want)
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX,
		                       "%s.CAS: the new value is the register after the compare value (R%d)",
		                       sass_op_mnemonic(m->f->op), (int)want);
	return true;
}

/* ATOMS addresses the shared window with an offset in 4-byte words. */
static bool shared_word_address(SasmMatch *m)
{
	const SasmOperand *op = m->next < m->s->nops ? &m->s->ops[m->next] : NULL;
	if (!sasm_address(m, 24))
		return false;
	int64_t off = sass_values_get(&m->v, SR_IMM, 0);
	sass_values_unset(&m->v, SR_IMM);
	if (off % 4 != 0)
		return sasm_match_fail(m, op->loc, RULE_SASS_ALIGN, "ATOMS: the offset must be a multiple of 4");
	sass_values_set(&m->v, SR_WOFF, off / 4);
	return true;
}

static bool match_atom(SasmMatch *m)
{
	bool shared = m->f->op == SOP_ATOMS || m->f->op == SOP_ATOMS_CAS;
	bool cas = m->f->op == SOP_ATOM_CAS || m->f->op == SOP_ATOMS_CAS;
	if (m->f->op != SOP_RED && !sasm_take_reg(m, SR_RD, -1, 0, NULL, "destination"))
		return false;
	if (!(shared ? shared_word_address(m) : sasm_address(m, 20)) ||
	    !sasm_take_reg(m, SR_RB, -1, 0, NULL, cas ? "compare value" : "data register"))
		return false;
	return !cas || cas_new_value(m);
}

/* SHFL.mode Pd, Rd, Ra, lane, mask: registers or immediates as the form says. */
static bool match_shfl(SasmMatch *m)
{
	if (!sasm_take_pred(m, SR_PD, SR_COUNT, "predicate destination") ||
	    !sasm_take_reg(m, SR_RD, -1, 0, NULL, "destination") || !sasm_take_reg(m, SR_RA, -1, 0, NULL, "source"))
		return false;
	bool lane_ok = sass_form_field(m->f, SR_RB) ? sasm_take_reg(m, SR_RB, -1, 0, NULL, "lane")
	                                            : sasm_take_imm(m, SR_IMM, "lane");
	if (!lane_ok)
		return false;
	return sass_form_field(m->f, SR_RC) ? sasm_take_reg(m, SR_RC, -1, 0, NULL, "clamp mask")
	                                    : sasm_take_imm(m, SR_SHFLC, "clamp mask");
}

/* VOTE.mode [Rd,] Pd, [!]Pc: an absent ballot register is RZ. */
static bool match_vote(SasmMatch *m)
{
	if (m->next < m->s->nops && m->s->ops[m->next].kind == SOK_REG) {
		if (!sasm_take_reg(m, SR_RD, -1, 0, NULL, "ballot destination"))
			return false;
	} else {
		sass_values_set(&m->v, SR_RD, 255);
	}
	return sasm_take_pred(m, SR_PD, SR_COUNT, "predicate destination") &&
	       sasm_take_pred(m, SR_PC, SR_PC_NOT, "source predicate");
}

bool sasm_match_warp(SasmMatch *m)
{
	switch (m->f->op) {
	case SOP_ATOM: case SOP_ATOM_CAS: case SOP_RED: case SOP_ATOMS: case SOP_ATOMS_CAS: return match_atom(m);
	case SOP_SHFL: return match_shfl(m);
	case SOP_VOTE: return match_vote(m);
	case SOP_CS2R:
		return sasm_take_reg(m, SR_RD, -1, 0, NULL, "destination") &&
		       sasm_take_name(m, SR_SREG, "special register");
	default: return false;
	}
}
