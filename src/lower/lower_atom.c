/* Lowering of atomics and reductions as ptxas 11.8 emits them where the
 * hardware has a direct form: atom/red .global -> ATOM.E / RED.E (and
 * ATOM.E.CAS), atom/red .shared -> ATOMS (and ATOMS.CAS; a reduction
 * writes RZ). The compare and new values of a CAS are copied into an
 * adjacent register pair (quad for .b64), which is how the forms read them.
 * A generic address takes both forms under complementary predicates: the
 * shared one when the address is in the shared window (isspacep.shared's
 * test), with the window offset (its low 24 bits), the global one
 * otherwise; ptxas 11.8 branches between the same two forms (and at -O3
 * first combines a warp's equal additions with VOTE/POPC, an optimisation
 * we do not make). Shared .f32 add and 64-bit arithmetic have no ATOMS
 * form: a CAS loop (lower_atom_cas.c), as in ptxas's code. */
#include "lower/lower_atom.h"
#include "lower/lower_internal.h"

#include <string.h>


static const struct { const char *word; int op; } atom_ops[] = {
	{ ".add", AOP_ADD }, { ".min", AOP_MIN }, { ".max", AOP_MAX }, { ".inc", AOP_INC },
	{ ".dec", AOP_DEC }, { ".and", AOP_AND }, { ".or", AOP_OR }, { ".xor", AOP_XOR },
	{ ".exch", AOP_EXCH }, { ".cas", AOP_CAS },
};


static bool atom_shape(LowerCtx *c, const Instr *in, AtomShape *s)
{
	s->op = -1;
	s->shared = lw_has_mod(in, ".shared");
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		bool known = strcmp(w, ".global") == 0 || strcmp(w, ".shared") == 0 || strcmp(w, ".relaxed") == 0 ||
		             strcmp(w, ".gpu") == 0 || ptx_type_of_word(w).bits != 0;
		for (size_t j = 0; j < sizeof atom_ops / sizeof atom_ops[0]; j++)
			if (strcmp(w, atom_ops[j].word) == 0) {
				s->op = atom_ops[j].op;
				known = true;
			}
		if (!known)
			return lw_unsupported(c, in->mod_locs[i], "%s modifier '%s'", in->opcode, w);
	}
	PtxTy t = lw_instr_type(in);
	if (s->op < 0 || (t.bits != 32 && t.bits != 64))
		return lw_unsupported(c, in->loc, "this %s operation or type", in->opcode);
	s->parts = t.bits / 32;
	if (t.is_float)
		s->type = t.bits == 32 && s->op == AOP_ADD ? AT_F32 : -1;
	else if (t.bits == 64)
		s->type = t.is_signed ? AT_S64 : AT_U64;
	else
		s->type = t.is_signed && (s->op == AOP_MIN || s->op == AOP_MAX) ? AT_S32 : AT_U32;
	if (s->type < 0)
		return lw_unsupported(c, in->loc, "%s on this floating-point type", in->opcode);
	return true;
}

/* An operand in a register of `parts` parts (immediates are moved in). */
static bool value_reg(LowerCtx *c, const Expr *e, unsigned parts, uint32_t *v)
{
	Opnd o;
	if (!lw_opnd(c, e, &o))
		return false;
	if (o.kind == OPND_REG && o.width == parts) {
		*v = o.vreg;
		return true;
	}
	*v = lw_temp(c, parts);
	lw_copy_value(c, *v, &o, parts);
	return true;
}

/* The data operand(s): one value, or the CAS compare and new values in
 * one adjacent group. */
static bool data_regs(LowerCtx *c, const Instr *in, unsigned first, const AtomShape *s, uint32_t *data)
{
	if (s->op != AOP_CAS)
		return value_reg(c, in->ops[first], s->parts, data);
	Opnd cmp, nv;
	if (!lw_opnd(c, in->ops[first], &cmp) || !lw_opnd(c, in->ops[first + 1], &nv))
		return false;
	*data = lw_temp(c, 2 * s->parts);
	for (unsigned p = 0; p < s->parts; p++) {
		for (unsigned k = 0; k < 2; k++) {
			const Opnd *o = k ? &nv : &cmp;
			unsigned dsub = k * s->parts + p;
			if (o->kind == OPND_IMM)
				lw_mov32i(c, *data, dsub, (uint32_t)((uint64_t)o->imm >> (32 * p)));
			else
				lw_mov(c, *data, dsub, o->vreg, p);
		}
	}
	return true;
}

static LInsn *emit_global(LowerCtx *c, const Expr *addr, const AtomShape *s, bool red, bool *ok)
{
	uint32_t base;
	unsigned bw;
	int64_t off;
	*ok = false;
	if (!lw_global_address(c, addr, &base, &bw, &off))
		return NULL;
	bool e64 = bw == 2;
	if (!lw_address_width(c, addr->loc, bw))
		return NULL;
	base = lw_fold_offset(c, base, bw, &off, 20);
	LInsn *op = lw_emit(c, s->op == AOP_CAS ? SF_ATOM_CAS : red ? SF_RED : SF_ATOM);
	linsn_ref(op, SR_RA, base, 0, bw, false);
	linsn_set(op, SR_E, e64);
	linsn_set(op, SR_IMM, off);
	*ok = true;
	return op;
}

static LInsn *emit_shared(LowerCtx *c, const Expr *addr, const AtomShape *s, bool *ok)
{
	int base;
	int64_t off;
	*ok = false;
	if (!lw_window_address(c, addr, LVAR_SHARED, &base, &off))
		return NULL;
	if (off % 4 != 0) {
		lw_unsupported(c, addr->loc, "a shared atomic offset that is not a multiple of 4");
		return NULL;
	}
	base = lw_shared_atoms_base(c, base);
	LInsn *op = lw_emit(c, s->op == AOP_CAS ? SF_ATOMS_CAS : SF_ATOMS);
	lw_window_base(c, op, base, &off);
	linsn_set(op, SR_WOFF, off / 4);
	*ok = true;
	return op;
}

/* The generic form: an address register (*aw words: 2, or 1 with
 * .address_size 32) plus a constant offset. */
static bool generic_base(LowerCtx *c, const Expr *addr, uint32_t *a, unsigned *aw)
{
	uint32_t base;
	int64_t off;
	if (!lw_global_address(c, addr, &base, aw, &off) || !lw_address_width(c, addr->loc, *aw))
		return false;
	*a = lw_fold_offset(c, base, *aw, &off, 1);     /* the whole address, for the window test */
	return true;
}

/* Guards the next instruction by g' AND (p or !p), g' the statement's own
 * guard (none: p alone). */
static void guard_by(LowerCtx *c, int g, bool g_neg, uint32_t p, bool p_neg)
{
	if (g < 0) {
		c->guard_vreg = (int)p;
		c->guard_neg = p_neg;
		return;
	}
	uint32_t q = lkernel_new_vreg(c->k, LRC_PRED, 1, true);
	c->guard_vreg = -1;
	lw_pred_and(c, q, (uint32_t)g, g_neg, p, p_neg);
	c->guard_vreg = (int)q;
	c->guard_neg = false;
}

/* The generic form's two paths: the global ATOM/RED returned (its fields
 * the caller's), then, where the address is in the shared window, the
 * ATOMS at the window offset (*shared) or, for the operations shared
 * memory has no form for, the CAS loop on it (*shared NULL). */
/* The two are returned as indices: each lw_emit may move the instructions. */
static bool emit_generic_pair(LowerCtx *c, const Expr *addr, const AtomShape *s, bool red, uint32_t data,
                              uint32_t dst, size_t *glob_at, size_t *shared_at)
{
	int g = c->guard_vreg;
	bool g_neg = c->guard_neg;
	uint32_t a = 0;
	*shared_at = SIZE_MAX;
	c->guard_vreg = -1;
	unsigned aw = 2;
	if (!generic_base(c, addr, &a, &aw))
		return c->guard_vreg = g, c->guard_neg = g_neg, false;
	uint32_t in_shared = lw_shared_window_pred(c, a, aw);
	uint32_t woff = lw_temp(c, 1);
	LInsn *and = lw_emit(c, SF_LOP32I);
	linsn_ref(and, SR_RD, woff, 0, 1, true);
	linsn_ref(and, SR_RA, a, 0, 1, false);
	linsn_set(and, SR_LOPOP, 0);
	linsn_set(and, SR_IMM, 0x00ffffff);
	guard_by(c, g, g_neg, in_shared, true);
	LInsn *glob = lw_emit(c, s->op == AOP_CAS ? SF_ATOM_CAS : red ? SF_RED : SF_ATOM);
	*glob_at = (size_t)(glob - c->k->insns);
	linsn_ref(glob, SR_RA, a, 0, aw, false);
	linsn_set(glob, SR_E, aw == 2);
	linsn_set(glob, SR_IMM, 0);
	guard_by(c, g, g_neg, in_shared, false);
	if (atom_needs_cas_loop(s)) {
		lw_atom_cas_loop(c, s, (int)woff, 0, data, dst);
	} else {
		LInsn *sh = lw_emit(c, s->op == AOP_CAS ? SF_ATOMS_CAS : SF_ATOMS);
		*shared_at = (size_t)(sh - c->k->insns);
		linsn_ref(sh, SR_RA, woff, 0, 1, false);
		linsn_set(sh, SR_WOFF, 0);
	}
	c->guard_vreg = g;
	c->guard_neg = g_neg;
	return true;
}

/* Sets the operation, size, data and destination fields of one ATOM/RED/ATOMS. */
static void atom_fields(LInsn *op, const AtomShape *s, bool shared, bool red, bool as_atom, uint32_t data, uint32_t dst)
{
	if (s->op == AOP_CAS)
		linsn_set(op, SR_CAS64, s->parts == 2);
	else
		linsn_set(op, SR_ATOMOP, s->op);
	if (s->op != AOP_CAS)
		linsn_set(op, SR_ATOMSIZE, shared ? (s->type == AT_S64 ? 3 : s->type) : s->type);
	linsn_ref(op, SR_RB, data, 0, s->op == AOP_CAS ? 2 * s->parts : s->parts, false);
	if (as_atom)
		linsn_set(op, SR_RD, 255);
	else if (!red)
		linsn_ref(op, SR_RD, dst, 0, s->parts, true);
	op->keep = true;
}

/* atom{.space}.op.type d, [a], b{, c} and red{.space}.op.type [a], b. */
static bool lower_atomic(LowerCtx *c, const Instr *in, bool red)
{
	AtomShape s = { 0 };
	if (!atom_shape(c, in, &s))
		return false;
	bool generic = !lw_has_mod(in, ".global") && !s.shared;
	unsigned addr_op = red ? 0 : 1;
	if (in->nops != addr_op + (s.op == AOP_CAS ? 3u : 2u))
		return lw_unsupported(c, in->loc, "'%s' with %u operands", in->opcode, in->nops);
	if (red && (s.op == AOP_CAS || s.op == AOP_EXCH))
		return lw_unsupported(c, in->loc, "red.%s", s.op == AOP_CAS ? "cas" : "exch");
	uint32_t data, dst = 0;
	unsigned dw = 0;
	if (!red && !lw_reg(c, in->ops[0], &dst, &dw))
		return false;
	if (!data_regs(c, in, addr_op + 1, &s, &data))
		return false;
	/* RED has no 64-bit min/max: ptxas writes an ATOM to RZ */
	bool as_atom = red && (s.shared || (s.parts == 2 && (s.op == AOP_MIN || s.op == AOP_MAX)));
	if (generic) {
		/* RED has no shared form: the shared path is an ATOMS to RZ */
		size_t glob, sh;
		if (!emit_generic_pair(c, in->ops[addr_op], &s, red && !as_atom, data, red ? LW_NO_DST : dst,
		                       &glob, &sh))
			return false;
		atom_fields(&c->k->insns[glob], &s, false, red, as_atom, data, dst);
		if (sh != SIZE_MAX)
			atom_fields(&c->k->insns[sh], &s, true, red, as_atom || red, data, dst);
		return true;
	}
	if (s.shared && atom_needs_cas_loop(&s)) {
		int base;
		int64_t off;
		if (!lw_window_address(c, in->ops[addr_op], LVAR_SHARED, &base, &off))
			return false;
		if (off % (4 * s.parts) != 0)
			return lw_unsupported(c, in->ops[addr_op]->loc, "a shared atomic offset that is not a "
			                      "multiple of %u", 4 * s.parts);
		lw_atom_cas_loop(c, &s, lw_shared_atoms_base(c, base), off, data, red ? LW_NO_DST : dst);
		return true;
	}
	bool ok;
	LInsn *op = s.shared ? emit_shared(c, in->ops[addr_op], &s, &ok)
	                     : emit_global(c, in->ops[addr_op], &s, red && !as_atom, &ok);
	if (!ok)
		return false;
	atom_fields(op, &s, s.shared, red, as_atom, data, dst);
	return true;
}

bool lower_atom(LowerCtx *c, const Instr *in)
{
	return lower_atomic(c, in, false);
}

bool lower_red(LowerCtx *c, const Instr *in)
{
	return lower_atomic(c, in, true);
}
