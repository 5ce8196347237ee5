/* Lowering of the integer bit operations: popc, clz, bfind,
 * brev, bfe, bfi, prmt, and the high half of 32-bit multiplies. The
 * sequences are ptxas 11.8's at -O3 for sm_50: POPC and FLO for counting,
 * BFE.U32.BREV for bit reversal, BFE/BFI with a packed position/length
 * operand (built by BFI into 0x808 when not constant), PRMT with its
 * selector as operand B, and the XMAD/IADD3.RS sequence of mul.hi. */
#include "lower/lower_internal.h"

/* A register holding part `sub` of o (immediates materialized). */
static uint32_t reg_part(LowerCtx *c, const Opnd *o, unsigned sub)
{
	uint32_t v;
	unsigned s;
	lw_opnd_part(c, o, sub, &v, &s);
	if (s == 0)
		return v;
	uint32_t t = lw_temp(c, 1);
	lw_mov(c, t, 0, v, s);
	return t;
}

/* Operand B of a form without an A operand (POPC, FLO): immediate,
 * parameter word from c[0x0], or register. */
static LInsn *emit_b_only(LowerCtx *c, SassAluForms forms, uint32_t d, const Opnd *b, unsigned bsub)
{
	LInsn *in;
	int64_t part = b->kind == OPND_IMM ? (int32_t)(uint32_t)((uint64_t)b->imm >> (32 * bsub)) : 0;
	int64_t cword = b->kind == OPND_REG && bsub == 0 ? lw_vreg_cword(c, b->vreg) : -1;
	if (b->kind == OPND_IMM && fits_simm20(part)) {
		in = lw_emit(c, forms.i);
		linsn_set(in, SR_IMM, part);
	} else if (cword >= 0) {
		in = lw_emit(c, forms.c);
		linsn_set(in, SR_CBANK, 0);
		linsn_set(in, SR_COFF, cword / 4);
	} else {
		uint32_t bv;
		unsigned bs;
		lw_opnd_part(c, b, bsub, &bv, &bs);
		in = lw_emit(c, forms.r);
		linsn_ref(in, SR_RB, bv, bs, 1, false);
	}
	linsn_ref(in, SR_RD, d, 0, 1, true);
	return in;
}

static bool dst_and_src(LowerCtx *c, const Instr *in, uint32_t *d, unsigned *dw, Opnd *a)
{
	return lw_reg(c, in->ops[0], d, dw) && lw_opnd(c, in->ops[1], a);
}

bool lower_popc(LowerCtx *c, const Instr *in)
{
	unsigned bits = lw_instr_type(in).bits;
	uint32_t d;
	unsigned dw;
	Opnd a;
	if (bits != 32 && bits != 64)
		return lw_unsupported(c, in->loc, "popc on %u-bit values", bits);
	if (!dst_and_src(c, in, &d, &dw, &a))
		return false;
	if (bits == 32) {
		emit_b_only(c, SASS_ALU_FORMS(POPC), d, &a, 0);
		return true;
	}
	/* ptxas: one POPC per half, then IADD */
	uint32_t lo = lw_temp(c, 1), hi = lw_temp(c, 1);
	emit_b_only(c, SASS_ALU_FORMS(POPC), lo, &a, 0);
	emit_b_only(c, SASS_ALU_FORMS(POPC), hi, &a, 1);
	LInsn *sum = lw_emit(c, SF_IADD_R);
	linsn_ref(sum, SR_RD, d, 0, 1, true);
	linsn_ref(sum, SR_RA, lo, 0, 1, false);
	linsn_ref(sum, SR_RB, hi, 0, 1, false);
	return true;
}

/* clz.b32: 31 - FLO.U32 (FLO gives -1 for 0, so clz(0) = 32). */
bool lower_clz(LowerCtx *c, const Instr *in)
{
	unsigned bits = lw_instr_type(in).bits;
	uint32_t d;
	unsigned dw;
	Opnd a;
	if (bits != 32)
		return lw_unsupported(c, in->loc, "clz on %u-bit values (clz.b32 is supported)", bits);
	if (!dst_and_src(c, in, &d, &dw, &a))
		return false;
	uint32_t pos = lw_temp(c, 1);
	linsn_set(emit_b_only(c, SASS_ALU_FORMS(FLO), pos, &a, 0), SR_SIGNED, 0);
	LInsn *sub = lw_emit(c, SF_IADD32I);
	linsn_ref(sub, SR_RD, d, 0, 1, true);
	linsn_ref(sub, SR_RA, pos, 0, 1, false);
	linsn_set(sub, SR_NEGA, 1);
	linsn_set(sub, SR_IMM, 31);
	return true;
}

/* FLO{.U32} d, a.sub{~} */
static void flo(LowerCtx *c, uint32_t d, uint32_t a, unsigned sub, bool is_signed)
{
	LInsn *op = lw_emit(c, SF_FLO_R);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RB, a, sub, 1, false);
	linsn_set(op, SR_SIGNED, is_signed);
}

/* bfind.{u,s}64 d, a: the high word's FLO (signed for .s64: its highest
 * bit unlike the sign) plus 32 when it finds one, else FLO.U32 of the low
 * word (for a negative .s64 of ~lo: lo XOR the high word's sign). ptxas
 * 11.8 branches between the two FLOs of the low word; here ISETP.NE.U32
 * fh, -1 and SEL. A constant is folded (MOV32I). */
static bool bfind64(LowerCtx *c, const Instr *in, PtxTy t, uint32_t d, const Opnd *a)
{
	enum { CMP_NE = 5, BOP_AND = 0, PT = 7 };
	if (lw_has_mod(in, ".shiftamt"))
		return lw_unsupported(c, in->loc, "bfind.shiftamt on 64-bit values (bfind.{u,s}64 without it and "
		                      "bfind.shiftamt.{u,s}32 are supported)");
	if (a->kind == OPND_IMM) {
		uint64_t v = (uint64_t)a->imm;
		if (t.is_signed && (int64_t)v < 0)
			v = ~v;
		uint32_t r = 0xffffffffu;
		for (unsigned i = 64; i-- > 0;)
			if (v >> i & 1) {
				r = i;
				break;
			}
		lw_mov32i(c, d, 0, r);
		return true;
	}
	uint32_t fh = lw_temp(c, 1), fl = lw_temp(c, 1), hi32 = lw_temp(c, 1);
	uint32_t lo = a->vreg;
	unsigned losub = 0;
	flo(c, fh, a->vreg, 1, t.is_signed);
	if (t.is_signed) {
		uint32_t x = lw_temp(c, 1);
		lw_shr_imm(c, x, 0, a->vreg, 1, 31, true);
		LInsn *op = lw_emit(c, SF_LOP_R);
		linsn_ref(op, SR_RD, x, 0, 1, true);
		linsn_ref(op, SR_RA, a->vreg, 0, 1, false);
		linsn_ref(op, SR_RB, x, 0, 1, false);
		linsn_set(op, SR_LOPOP, 2);    /* XOR */
		lo = x;
	}
	flo(c, fl, lo, losub, false);
	LInsn *add = lw_emit(c, SF_IADD32I);
	linsn_ref(add, SR_RD, hi32, 0, 1, true);
	linsn_ref(add, SR_RA, fh, 0, 1, false);
	linsn_set(add, SR_IMM, 32);
	uint32_t p = lkernel_new_vreg(c->k, LRC_PRED, 1, true);
	LInsn *cmp = lw_emit(c, SF_ISETP_I);
	linsn_ref(cmp, SR_PD, p, 0, 1, true);
	linsn_set(cmp, SR_PQ, PT);
	linsn_ref(cmp, SR_RA, fh, 0, 1, false);
	linsn_set(cmp, SR_IMM, -1);
	linsn_set(cmp, SR_CMP, CMP_NE);
	linsn_set(cmp, SR_SIGNED, 0);
	linsn_set(cmp, SR_BOP, BOP_AND);
	linsn_set(cmp, SR_PC, PT);
	LInsn *sel = lw_emit(c, SF_SEL_R);
	linsn_ref(sel, SR_RD, d, 0, 1, true);
	linsn_ref(sel, SR_RA, hi32, 0, 1, false);
	linsn_ref(sel, SR_RB, fl, 0, 1, false);
	linsn_ref(sel, SR_PC, p, 0, 1, false);
	return true;
}

bool lower_bfind(LowerCtx *c, const Instr *in)
{
	PtxTy t = lw_instr_type(in);
	uint32_t d;
	unsigned dw;
	Opnd a;
	if (t.bits != 32 && t.bits != 64)
		return lw_unsupported(c, in->loc, "bfind on %u-bit values (bfind.{u,s}32 and .{u,s}64 are supported)",
		                      t.bits);
	if (!dst_and_src(c, in, &d, &dw, &a))
		return false;
	if (t.bits == 64) {
		if (a.kind == OPND_REG && a.width != 2)
			return lw_unsupported(c, in->ops[1]->loc, "bfind.{u,s}64 of a register narrower than 64 bits");
		return bfind64(c, in, t, d, &a);
	}
	LInsn *flo = emit_b_only(c, SASS_ALU_FORMS(FLO), d, &a, 0);
	linsn_set(flo, SR_SIGNED, t.is_signed);
	linsn_set(flo, SR_SH, lw_has_mod(in, ".shiftamt"));
	return true;
}

/* BFE.U32.BREV d, a, 0x2000: the reversed 32 bits from position 0. */
static void brev32(LowerCtx *c, uint32_t d, unsigned dsub, uint32_t a, unsigned asub)
{
	LInsn *op = lw_emit(c, SF_BFE_I);
	linsn_ref(op, SR_RD, d, dsub, 1, true);
	linsn_ref(op, SR_RA, a, asub, 1, false);
	linsn_set(op, SR_IMM, 32 << 8);
	linsn_set(op, SR_SIGNED, 0);
	linsn_set(op, SR_BREV, 1);
}

bool lower_brev(LowerCtx *c, const Instr *in)
{
	unsigned bits = lw_instr_type(in).bits;
	uint32_t d;
	unsigned dw;
	Opnd a;
	if (bits != 32 && bits != 64)
		return lw_unsupported(c, in->loc, "brev on %u-bit values", bits);
	if (!dst_and_src(c, in, &d, &dw, &a))
		return false;
	if (bits == 32) {
		brev32(c, d, 0, reg_part(c, &a, 0), 0);
		return true;
	}
	/* each half reversed into the other; through a temporary when d is a */
	uint32_t alo, ahi;
	unsigned los = 0, his = 0;
	if (a.kind == OPND_REG) {
		alo = ahi = a.vreg;
		his = a.width == 2 ? 1 : 0;
	} else {
		alo = reg_part(c, &a, 0);
		ahi = reg_part(c, &a, 1);
	}
	if (a.kind == OPND_REG && a.vreg == d) {
		uint32_t t = lw_temp(c, 1);
		brev32(c, t, 0, ahi, his);
		brev32(c, d, 1, alo, los);
		lw_mov(c, d, 0, t, 0);
		return true;
	}
	brev32(c, d, 0, ahi, his);
	brev32(c, d, 1, alo, los);
	return true;
}

/* Operand C of BFE/BFI/PRMT-style forms: sets C (a register) or, when the
 * value is a parameter word or a constant, switches form to its RC layout
 * (B then moves to bits 46:39) with C from c[0x0] or c[0x2]. */
typedef struct ThirdOpnd {
	bool in_const;          /* C is a constant-bank word */
	unsigned bank;
	uint32_t off;           /* byte offset */
	uint32_t vreg;          /* C register when !in_const */
	unsigned sub;
} ThirdOpnd;

static ThirdOpnd third_opnd(LowerCtx *c, const Opnd *o, bool imm_to_const2)
{
	ThirdOpnd t = { false, 0, 0, 0, 0 };
	if (o->kind == OPND_IMM && imm_to_const2) {
		t.in_const = true;
		t.bank = LK_CONST2_BANK;
		t.off = lkernel_const2_slot(c->k, (uint32_t)o->imm);
		return t;
	}
	int64_t cword = o->kind == OPND_REG ? lw_vreg_cword(c, o->vreg) : -1;
	if (cword >= 0) {
		t.in_const = true;
		t.off = (uint32_t)cword;
		return t;
	}
	lw_opnd_part(c, o, 0, &t.vreg, &t.sub);
	return t;
}

/* Emits a three-source op d = op(a, b, C) in the R (b register, C
 * register), C (b constant, C register), RC (b register, C constant) or I
 * (b immediate, C register) layout as the operands allow, ptxas's choice:
 * a constant C wins the constant slot, then a constant b. */
typedef struct Forms3 { SassFormId r, cb, rc, i; } Forms3;

static LInsn *emit3(LowerCtx *c, Forms3 forms, uint32_t d, uint32_t a, const Opnd *b, ThirdOpnd cc)
{
	/* (b is materialized before the op is appended: an LInsn pointer is
	 * only valid until the next append) */
	LInsn *op;
	int64_t bimm = b->kind == OPND_IMM ? (int32_t)(uint32_t)b->imm : 0;
	if (b->kind == OPND_IMM && fits_simm20(bimm) && !cc.in_const) {
		op = lw_emit(c, forms.i);
		linsn_set(op, SR_IMM, bimm);
	} else if (cc.in_const) {
		uint32_t bv = reg_part(c, b, 0);
		op = lw_emit(c, forms.rc);
		linsn_ref(op, SR_RB, bv, 0, 1, false);
		linsn_set(op, SR_CBANK, cc.bank);
		linsn_set(op, SR_COFF, cc.off / 4);
	} else {
		int64_t cword = b->kind == OPND_REG ? lw_vreg_cword(c, b->vreg) : -1;
		if (cword >= 0) {
			op = lw_emit(c, forms.cb);
			linsn_set(op, SR_CBANK, 0);
			linsn_set(op, SR_COFF, cword / 4);
		} else {
			uint32_t bv = reg_part(c, b, 0);
			op = lw_emit(c, forms.r);
			linsn_ref(op, SR_RB, bv, 0, 1, false);
		}
	}
	if (!cc.in_const)
		linsn_ref(op, SR_RC, cc.vreg, cc.sub, 1, false);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	return op;
}

static const Forms3 bfi_forms = { SF_BFI_R, SF_BFI_C, SF_BFI_RC, SF_BFI_I };
static const Forms3 prmt_forms = { SF_PRMT_R, SF_PRMT_C, SF_PRMT_RC, SF_PRMT_I };

/* The packed position/length operand of BFE and BFI (pos in bits 7:0, len
 * in 15:8): an immediate when both are constant, else ptxas's
 * BFI packed, len, 0x808, pos (len inserted at bit 8, 8 bits wide), with
 * 0x808 as the immediate unless pos is a constant (then 0x808 is moved
 * into a register and pos read from c[0x0] or c[0x2]). */
static Opnd field_control(LowerCtx *c, const Opnd *pos, const Opnd *len)
{
	if (pos->kind == OPND_IMM && len->kind == OPND_IMM)
		return (Opnd){ OPND_IMM, 0, 1, ((len->imm & 0xff) << 8) | (pos->imm & 0xff) };
	uint32_t packed = lw_temp(c, 1);
	uint32_t lv = reg_part(c, len, 0);
	Opnd k = { OPND_IMM, 0, 1, 0x808 };
	emit3(c, bfi_forms, packed, lv, &k, third_opnd(c, pos, true));
	return (Opnd){ OPND_REG, packed, 1, 0 };
}

bool lower_bfe(LowerCtx *c, const Instr *in)
{
	PtxTy t = lw_instr_type(in);
	if (t.bits == 64)
		return lower_bfe64(c, in);
	if (t.bits != 32)
		return lw_unsupported(c, in->loc, "bfe on %u-bit values (bfe.{u,s}32 and .{u,s}64 are supported)", t.bits);
	uint32_t d;
	unsigned dw;
	Opnd a, pos, len;
	if (!dst_and_src(c, in, &d, &dw, &a) || !lw_opnd(c, in->ops[2], &pos) || !lw_opnd(c, in->ops[3], &len))
		return false;
	Opnd ctl = field_control(c, &pos, &len);
	LInsn *op = lw_alu(c, SASS_ALU_FORMS(BFE), d, 0, reg_part(c, &a, 0), 0, &ctl, 0);
	linsn_set(op, SR_SIGNED, t.is_signed);
	return true;
}

/* bfi.b32 d, f, b, pos, len: BFI d, f, control, b. */
bool lower_bfi(LowerCtx *c, const Instr *in)
{
	PtxTy t = lw_instr_type(in);
	if (t.bits != 32)
		return lw_unsupported(c, in->loc, "bfi on %u-bit values (bfi.b32 is supported)", t.bits);
	uint32_t d;
	unsigned dw;
	Opnd f, b, pos, len;
	if (!dst_and_src(c, in, &d, &dw, &f) || !lw_opnd(c, in->ops[2], &b) || !lw_opnd(c, in->ops[3], &pos) ||
	    !lw_opnd(c, in->ops[4], &len))
		return false;
	Opnd ctl = field_control(c, &pos, &len);
	uint32_t fv = reg_part(c, &f, 0);
	ThirdOpnd base = third_opnd(c, &b, false);
	if (ctl.kind == OPND_IMM && base.in_const) {
		/* the immediate form has no constant C: b goes to a register */
		base.in_const = false;
		base.vreg = reg_part(c, &b, 0);
	}
	emit3(c, bfi_forms, d, fv, &ctl, base);
	return true;
}

static const char *const prmt_modes[] = { NULL, ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16" };

/* prmt.b32{.mode} d, a, b, c: PRMT d, a, c (the selector), b. */
bool lower_prmt(LowerCtx *c, const Instr *in)
{
	unsigned mode = 0;
	for (unsigned m = 1; m < sizeof prmt_modes / sizeof prmt_modes[0]; m++)
		if (lw_has_mod(in, prmt_modes[m]))
			mode = m;
	uint32_t d;
	unsigned dw;
	Opnd a, b, sel;
	if (!dst_and_src(c, in, &d, &dw, &a) || !lw_opnd(c, in->ops[2], &b) || !lw_opnd(c, in->ops[3], &sel))
		return false;
	uint32_t av = reg_part(c, &a, 0);
	ThirdOpnd second = third_opnd(c, &b, false);
	/* ptxas keeps an immediate selector of the default mode and reads b
	 * from a register; with a mode, b stays in c[0x0] and the selector
	 * goes to a register */
	if (sel.kind == OPND_IMM && second.in_const && mode == 0) {
		second.in_const = false;
		second.vreg = reg_part(c, &b, 0);
	}
	if (sel.kind == OPND_IMM)
		sel.imm &= 0xffff;
	linsn_set(emit3(c, prmt_forms, d, av, &sel, second), SR_PMODE, mode);
	return true;
}

/* mul.hi.{u,s}32: ptxas's partial products (lw_mul_hi32). */
bool lower_mul_hi(LowerCtx *c, const Instr *in)
{
	PtxTy t = lw_instr_type(in);
	if (t.bits != 32 || t.is_float)
		return lw_unsupported(c, in->loc, "mul.hi on this type (mul.hi.{u,s}32 is supported)");
	uint32_t d;
	unsigned dw;
	Opnd a, b;
	if (!dst_and_src(c, in, &d, &dw, &a) || !lw_opnd(c, in->ops[2], &b))
		return false;
	if (a.kind == OPND_IMM) {
		Opnd x = a;
		a = b;
		b = x;
	}
	lw_mul_hi32(c, d, reg_part(c, &a, 0), reg_part(c, &b, 0), t.is_signed, -1);
	return true;
}

/* lop3.b32 d, a, b, c, lut: LOP3.LUT, as ptxas 11.8 writes it: b may be
 * an immediate or a parameter word (the I and C forms); an immediate a or
 * c is moved to a register first (MOV32I). */
bool lower_lop3(LowerCtx *c, const Instr *in)
{
	if (lw_instr_type(in).bits != 32)
		return lw_unsupported(c, in->loc, "lop3 on this type (lop3.b32 is supported)");
	uint32_t d;
	unsigned dw;
	Opnd a, b, third, lut;
	if (!dst_and_src(c, in, &d, &dw, &a) || !lw_opnd(c, in->ops[2], &b) || !lw_opnd(c, in->ops[3], &third) ||
	    !lw_opnd(c, in->ops[4], &lut))
		return false;
	if (lut.kind != OPND_IMM)
		return lw_unsupported(c, in->loc, "lop3 with a lookup table that is not an immediate");
	uint32_t av = reg_part(c, &a, 0), cv = reg_part(c, &third, 0);
	LInsn *op = lw_alu(c, SASS_ALU_FORMS(LOP3), d, 0, av, 0, &b, 0);
	linsn_ref(op, SR_RC, cv, 0, 1, false);
	linsn_set(op, SR_LUT, (uint32_t)lut.imm & 0xffu);
	return true;
}
