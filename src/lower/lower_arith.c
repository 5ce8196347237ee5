/* Lowering of integer arithmetic, shifts and logic. Sequences follow
 * ptxas 11.8 -O3 for sm_50 where it uses only forms of the encoder table:
 * XMAD triples for 32-bit multiplies, IADD.CC/IADD.X pairs for 64-bit
 * adds, SHL/SHR.U32 for multiplies by powers of two. */
#include "lower/lower_internal.h"

#include <string.h>

/* ---- add / sub ------------------------------------------------------------ */

static bool int_type(LowerCtx *c, const Instr *in, PtxTy *t)
{
	*t = lw_instr_type(in);
	if (t->bits < 16 || t->is_float)
		return lw_unsupported(c, in->loc, "%s.%s%u (integer types only)", in->opcode,
		                      t->is_float ? "f" : "b", t->bits);
	return true;
}

bool lower_add_sub(LowerCtx *c, const Instr *in)
{
	PtxTy t;
	if (!int_type(c, in, &t))
		return false;
	bool sub = strcmp(in->opcode, "sub") == 0, sat = lw_has_mod(in, ".sat");
	for (uint32_t i = 0; i < in->nmods; i++)
		if (strcmp(in->mods[i], ".sat") != 0 && ptx_type_of_word(in->mods[i]).bits == 0)
			return lw_unsupported(c, in->mod_locs[i], "%s modifier '%s'", in->opcode, in->mods[i]);
	if (sat && !(t.bits == 32 && t.is_signed))
		return lw_unsupported(c, in->loc, "%s.sat other than .s32", in->opcode);
	uint32_t d;
	unsigned dw;
	Opnd a, b;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &a) || !lw_opnd(c, in->ops[2], &b))
		return false;
	if (a.kind == OPND_IMM && b.kind == OPND_IMM) {
		Opnd r = { OPND_IMM, 0, 2, sub ? a.imm - b.imm : a.imm + b.imm };
		lw_copy_value(c, d, &r, dw);
		return true;
	}
	if (a.kind == OPND_IMM && !sub) {
		Opnd x = a;
		a = b;
		b = x;
	}
	uint32_t av;
	unsigned as;
	lw_opnd_part(c, &a, 0, &av, &as);
	uint32_t ahi = av;
	unsigned ahs = as;
	if (t.bits == 64)
		lw_opnd_part(c, &a, 1, &ahi, &ahs);
	bool neg = false;
	if (sub && b.kind == OPND_IMM)
		b.imm = -b.imm;
	else if (sub)
		neg = true;
	unsigned parts = t.bits == 64 ? 2 : 1;
	for (unsigned p = 0; p < parts; p++) {
		LInsn *op;
		bool big_imm = b.kind == OPND_IMM &&
			!fits_simm20((int32_t)(uint32_t)((uint64_t)b.imm >> (32 * p)));
		if (big_imm) {
			op = lw_emit(c, SF_IADD32I);
			linsn_ref(op, SR_RD, d, p, 1, true);
			linsn_ref(op, SR_RA, p ? ahi : av, p ? ahs : as, 1, false);
			linsn_set(op, SR_IMM, (uint32_t)((uint64_t)b.imm >> (32 * p)));
		} else {
			op = lw_alu(c, SASS_ALU_FORMS(IADD), d, p, p ? ahi : av, p ? ahs : as, &b, p);
			linsn_set(op, SR_NEG, neg ? 1 : 0);
		}
		linsn_set(op, SR_SAT, sat);
		if (parts == 2) {
			linsn_set(op, p ? SR_X : SR_CC, 1);
			op->writes_cc = p == 0;
			op->reads_cc = p == 1;
		}
	}
	if (dw == 2 && parts == 1)
		lw_mov_rz(c, d, 1);
	return true;
}

/* ---- multiplication ------------------------------------------------------- */

static int power_of_two(int64_t v)
{
	if (v <= 0 || (v & (v - 1)))
		return -1;
	int k = 0;
	while ((v >> k) != 1)
		k++;
	return k;
}

/* d = a * b + addend (mod 2^32), the three-XMAD sequence of ptxas. */
static void mul_lo32(LowerCtx *c, uint32_t d, unsigned dsub, uint32_t a, uint32_t b, int addend,
                     unsigned addsub)
{
	uint32_t t0 = lw_temp(c, 1);
	lw_xmad(c, t0, a, false, b, false, addend, addsub);
	lw_mul_lo32_tail(c, d, dsub, a, b, t0);
}

/* A register holding part 0 of o (immediates materialized). */
static uint32_t in_reg(LowerCtx *c, const Opnd *o)
{
	uint32_t v;
	unsigned s;
	lw_opnd_part(c, o, 0, &v, &s);
	if (s == 0)
		return v;
	uint32_t t = lw_temp(c, 1);
	lw_mov(c, t, 0, v, s);
	return t;
}

static void shift_imm(LowerCtx *c, SassFormId form, uint32_t d, unsigned dsub, uint32_t a, unsigned asub,
                      unsigned amount, bool is_signed)
{
	LInsn *in = lw_emit(c, form);
	linsn_ref(in, SR_RD, d, dsub, 1, true);
	linsn_ref(in, SR_RA, a, asub, 1, false);
	linsn_set(in, SR_IMM, amount);
	if (form == SF_SHR_I)
		linsn_set(in, SR_SIGNED, is_signed);
}

static LInsn *iadd_rr(LowerCtx *c, uint32_t d, unsigned dsub, uint32_t a, unsigned asub, uint32_t b,
                      unsigned bsub)
{
	LInsn *in = lw_emit(c, SF_IADD_R);
	linsn_ref(in, SR_RD, d, dsub, 1, true);
	linsn_ref(in, SR_RA, a, asub, 1, false);
	linsn_ref(in, SR_RB, b, bsub, 1, false);
	return in;
}

/* 64-bit product of two 32-bit values from four 16x16 partial products:
 * p0 + (p1 + p2) << 16 + p3 << 32, added with carry chains. For .s32 the
 * high halves are signed, so p1..p3 are signed and shifted arithmetically. */
static void mul_wide(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b, bool is_signed)
{
	uint32_t p0 = lw_temp(c, 1), p1 = lw_temp(c, 1), p2 = lw_temp(c, 1), p3 = lw_temp(c, 1);
	/* (an LInsn pointer is only valid until the next instruction is appended) */
	lw_xmad(c, p0, a, false, b, false, -1, 0);
	linsn_set(lw_xmad(c, p1, a, false, b, true, -1, 0), SR_SB, is_signed);
	linsn_set(lw_xmad(c, p2, a, true, b, false, -1, 0), SR_SA, is_signed);
	LInsn *x3 = lw_xmad(c, p3, a, true, b, true, -1, 0);
	linsn_set(x3, SR_SA, is_signed);
	linsn_set(x3, SR_SB, is_signed);
	uint32_t parts[2] = { p1, p2 };
	uint32_t lo = p0, hi = p3;
	for (unsigned i = 0; i < 2; i++) {
		uint32_t sl = lw_temp(c, 1), sr = lw_temp(c, 1);
		shift_imm(c, SF_SHL_I, sl, 0, parts[i], 0, 16, false);
		shift_imm(c, SF_SHR_I, sr, 0, parts[i], 0, 16, is_signed);
		LInsn *l = iadd_rr(c, d, 0, lo, 0, sl, 0);
		linsn_set(l, SR_CC, 1);
		l->writes_cc = true;
		LInsn *h = iadd_rr(c, d, 1, hi, i ? 1 : 0, sr, 0);
		linsn_set(h, SR_X, 1);
		h->reads_cc = true;
		/* the second round adds into parts 0 and 1 of d */
		lo = d;
		hi = d;
	}
}

/* Destination and the two sources of a commutative operation, an
 * immediate source moved second (where SASS takes it). */
static bool commutative_operands(LowerCtx *c, const Instr *in, uint32_t *d, unsigned *dw, Opnd *a, Opnd *b)
{
	if (!lw_reg(c, in->ops[0], d, dw) || !lw_opnd(c, in->ops[1], a) || !lw_opnd(c, in->ops[2], b))
		return false;
	if (a->kind == OPND_IMM) {
		Opnd x = *a;
		*a = *b;
		*b = x;
	}
	return true;
}

bool lower_mul(LowerCtx *c, const Instr *in)
{
	PtxTy t;
	if (!int_type(c, in, &t))
		return false;
	bool wide = lw_has_mod(in, ".wide"), lo = lw_has_mod(in, ".lo");
	if (!(wide && t.bits == 32) && !(lo && (t.bits == 32 || t.bits == 16)))
		return lw_unsupported(c, in->loc, "mul%s (mul.lo.{u,s}32/16 and mul.wide.{u,s}32 are supported)",
		                      wide ? ".wide with this type" : lo ? ".lo.64" : ".hi");
	uint32_t d;
	unsigned dw;
	Opnd a, b;
	if (!commutative_operands(c, in, &d, &dw, &a, &b))
		return false;
	uint32_t av = in_reg(c, &a);
	int k = b.kind == OPND_IMM ? power_of_two(b.imm) : -1;
	if (wide) {
		if (k >= 1 && k < 32) {
			/* ptxas: SHL for the low word, SHR by 32-k for the high word */
			shift_imm(c, SF_SHR_I, d, 1, av, 0, 32 - (unsigned)k, t.is_signed);
			shift_imm(c, SF_SHL_I, d, 0, av, 0, (unsigned)k, false);
			return true;
		}
		mul_wide(c, d, av, in_reg(c, &b), t.is_signed);
		return true;
	}
	if (k >= 0 && k < 32) {
		shift_imm(c, SF_SHL_I, d, 0, av, 0, (unsigned)k, false);
	} else {
		mul_lo32(c, d, 0, av, in_reg(c, &b), -1, 0);
	}
	if (dw == 2)
		lw_mov_rz(c, d, 1);
	return true;
}

bool lower_mad(LowerCtx *c, const Instr *in)
{
	PtxTy t;
	if (!int_type(c, in, &t))
		return false;
	if (!lw_has_mod(in, ".lo") || t.bits > 32)
		return lw_unsupported(c, in->loc, "this mad form (mad.lo.{u,s}{16,32} is supported)");
	uint32_t d;
	unsigned dw;
	Opnd a, b, e;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &a) || !lw_opnd(c, in->ops[2], &b) ||
	    !lw_opnd(c, in->ops[3], &e))
		return false;
	uint32_t av = in_reg(c, &a), bv = in_reg(c, &b);
	if (t.bits == 32 && a.kind == OPND_REG && b.kind == OPND_REG && e.kind == OPND_IMM) {
		/* ptxas -O3: a 32-bit addend is a .nv.constant2 word, 0 is RZ */
		if ((uint32_t)e.imm == 0)
			mul_lo32(c, d, 0, av, bv, -1, 0);
		else
			lw_mul_lo32_cadd(c, d, av, bv, LK_CONST2_BANK, lkernel_const2_slot(c->k, (uint32_t)e.imm));
		return true;
	}
	mul_lo32(c, d, 0, av, bv, (int)in_reg(c, &e), 0);
	return true;
}

/* ---- shifts and logic ----------------------------------------------------- */

void lw_shift64_imm(LowerCtx *c, bool left, bool is_signed, uint32_t d, uint32_t a, unsigned k)
{
	if (k == 0) {
		if (d != a) {
			lw_mov(c, d, 0, a, 0);
			lw_mov(c, d, 1, a, 1);
		}
		return;
	}
	if (k >= 32) {
		if (left) {
			shift_imm(c, SF_SHL_I, d, 1, a, 0, k - 32, false);
			lw_mov_rz(c, d, 0);
		} else {
			shift_imm(c, SF_SHR_I, d, 0, a, 1, k - 32, is_signed);
			if (is_signed)
				lw_sign_high(c, d, 1, d, 0);
			else
				lw_mov_rz(c, d, 1);
		}
		return;
	}
	/* Both halves are computed into temps before d is written, so d may be a. */
	unsigned near = left ? 1 : 0, far = left ? 0 : 1;
	uint32_t x = lw_temp(c, 1), y = lw_temp(c, 1), z = lw_temp(c, 1);
	shift_imm(c, left ? SF_SHL_I : SF_SHR_I, x, 0, a, near, k, false);
	shift_imm(c, left ? SF_SHR_I : SF_SHL_I, y, 0, a, far, 32 - k, false);
	shift_imm(c, left ? SF_SHL_I : SF_SHR_I, z, 0, a, far, k, is_signed);
	LInsn *o = lw_emit(c, SF_LOP_R);
	linsn_ref(o, SR_RD, d, near, 1, true);
	linsn_ref(o, SR_RA, x, 0, 1, false);
	linsn_ref(o, SR_RB, y, 0, 1, false);
	linsn_set(o, SR_LOPOP, 1);
	lw_mov(c, d, far, z, 0);
}

bool lower_shift(LowerCtx *c, const Instr *in)
{
	PtxTy t = lw_instr_type(in);
	bool left = strcmp(in->opcode, "shl") == 0;
	if (t.bits < 16)
		return lw_unsupported(c, in->loc, "%s on %u-bit values", in->opcode, t.bits);
	uint32_t d;
	unsigned dw;
	Opnd a, b;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &a) || !lw_opnd(c, in->ops[2], &b))
		return false;
	uint32_t av = in_reg(c, &a);
	if (t.bits == 16 && !left) {
		/* the upper half of a 16-bit register is undefined: extend first */
		uint32_t x = lw_temp(c, 1);
		lw_extend32(c, x, av, 16, t.is_signed);
		av = x;
	}
	if (t.bits == 64) {
		uint32_t av64 = a.vreg;
		if (a.kind != OPND_REG) {
			/* ptxas 11.8 moves the value into a pair (MOV32I per
			 * word) and shifts it like a register */
			av64 = lw_temp(c, 2);
			for (unsigned p = 0; p < 2; p++)
				lw_mov32i(c, av64, p, (uint32_t)((uint64_t)a.imm >> (32 * p)));
		}
		if (b.kind != OPND_IMM) {
			lw_shift64_reg(c, left, t.is_signed, d, av64, &b);
			return true;
		}
		/* a negative literal is a .u32 amount above 63: clamped to 64 */
		lw_shift64_imm(c, left, t.is_signed, d, av64, b.imm < 0 || b.imm > 63 ? 64 : (unsigned)b.imm);
		return true;
	}
	if (b.kind == OPND_IMM && (b.imm < 0 || b.imm > 31)) {
		/* PTX clamps the amount: all bits shifted out (or sign copies). */
		if (left || !t.is_signed)
			lw_mov_rz(c, d, 0);
		else
			lw_sign_high(c, d, 0, av, 0);
		return true;
	}
	LInsn *op = lw_alu(c, left ? SASS_ALU_FORMS(SHL) : SASS_ALU_FORMS(SHR), d, 0, av, 0, &b, 0);
	if (!left)
		linsn_set(op, SR_SIGNED, t.is_signed);
	return true;
}

bool lower_logic(LowerCtx *c, const Instr *in)
{
	PtxTy t = lw_instr_type(in);
	if (t.bits < 16)
		return lw_unsupported(c, in->loc, "%s on this type", in->opcode);
	unsigned lop = strcmp(in->opcode, "and") == 0 ? 0 : strcmp(in->opcode, "or") == 0 ? 1 : 2;
	uint32_t d;
	unsigned dw;
	Opnd a, b;
	if (!commutative_operands(c, in, &d, &dw, &a, &b))
		return false;
	unsigned parts = t.bits == 64 ? 2 : 1;
	uint32_t av[2];
	unsigned as[2];
	for (unsigned p = 0; p < parts; p++)
		lw_opnd_part(c, &a, p, &av[p], &as[p]);
	for (unsigned p = 0; p < parts; p++) {
		LInsn *op;
		uint32_t part = (uint32_t)((uint64_t)b.imm >> (32 * p));
		if (b.kind == OPND_IMM && !fits_simm20((int32_t)part)) {
			op = lw_emit(c, SF_LOP32I);
			linsn_ref(op, SR_RD, d, p, 1, true);
			linsn_ref(op, SR_RA, av[p], as[p], 1, false);
			linsn_set(op, SR_IMM, part);
		} else {
			op = lw_alu(c, SASS_ALU_FORMS(LOP), d, p, av[p], as[p], &b, p);
		}
		linsn_set(op, SR_LOPOP, lop);
	}
	if (dw == 2 && parts == 1)
		lw_mov_rz(c, d, 1);
	return true;
}

/* not/neg of a constant: folded to MOV32I of each word of the result (a
 * 16-bit one zero-extended), as ptxas folds it. */
static void fold_imm(LowerCtx *c, uint32_t d, PtxTy t, uint64_t v)
{
	if (t.bits == 16)
		v &= 0xffff;
	for (unsigned p = 0; p < (t.bits == 64 ? 2u : 1u); p++)
		lw_mov32i(c, d, p, (uint32_t)(v >> (32 * p)));
}

bool lower_not(LowerCtx *c, const Instr *in)
{
	PtxTy t = lw_instr_type(in);
	if (t.bits < 16)
		return lw_unsupported(c, in->loc, "not on this type");
	uint32_t d, a;
	unsigned dw;
	Opnd o;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &o))
		return false;
	if (o.kind == OPND_IMM) {
		fold_imm(c, d, t, ~(uint64_t)o.imm);
		return true;
	}
	a = o.vreg;
	for (unsigned p = 0; p < (t.bits == 64 ? 2u : 1u); p++) {
		LInsn *op = lw_emit(c, SF_LOP32I);
		linsn_ref(op, SR_RD, d, p, 1, true);
		linsn_ref(op, SR_RA, a, p, 1, false);
		linsn_set(op, SR_LOPOP, 2);
		linsn_set(op, SR_IMM, 0xffffffffu);
	}
	return true;
}

bool lower_neg(LowerCtx *c, const Instr *in)
{
	PtxTy t = lw_instr_type(in);
	if (t.bits < 16 || t.is_float || !t.is_signed)
		return lw_unsupported(c, in->loc, "neg on this type (signed integers only)");
	uint32_t d, a;
	unsigned dw;
	Opnd o;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &o))
		return false;
	if (o.kind == OPND_IMM) {
		fold_imm(c, d, t, -(uint64_t)o.imm);
		return true;
	}
	a = o.vreg;
	unsigned parts = t.bits == 64 ? 2 : 1;
	for (unsigned p = 0; p < parts; p++) {
		/* 0 - a: IADD d, RZ, -a (with carry for 64 bits, as ptxas does for sub.s64) */
		LInsn *op = lw_emit(c, SF_IADD_R);
		linsn_ref(op, SR_RD, d, p, 1, true);
		linsn_ref(op, SR_RB, a, p, 1, false);
		linsn_set(op, SR_RA, 255);
		linsn_set(op, SR_NEG, 1);
		if (parts == 2) {
			linsn_set(op, p ? SR_X : SR_CC, 1);
			op->writes_cc = p == 0;
			op->reads_cc = p == 1;
		}
	}
	return true;
}
