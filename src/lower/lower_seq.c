/* Short instruction sequences that several handler files share (declared in
 * lower_internal.h under "lower_seq.c"): predicate pairs of setp, value
 * copies and extensions, the multiply-add with a constant-bank addend,
 * packing and unpacking of sub-word vector elements, store data. Handlers
 * call these and lower_ctx.c, never each other: the table in lower.c picks
 * the handler. */
#include "lower/lower_internal.h"

#include <string.h>

bool lw_setp_preds(LowerCtx *c, const Instr *in, bool has_bop, SetpPreds *sp)
{
	memset(sp, 0, sizeof *sp);
	/* destinations: p or p|q (EX_BINARY '|') */
	const Expr *de = in->ops[0];
	if (de->kind == EX_BINARY && de->op == '|') {
		if (!lw_pred(c, de->lhs, &sp->pd) || !lw_pred(c, de->rhs, &sp->pq))
			return false;
		sp->has_q = true;
	} else if (!lw_pred(c, de, &sp->pd)) {
		return false;
	}
	if (has_bop) {
		const Expr *ce = in->ops[3];
		if (ce->kind == EX_UNARY && ce->op == '!') {
			sp->pc_not = true;
			ce = ce->lhs;
		}
		if (!lw_pred(c, ce, &sp->pc))
			return false;
		sp->has_pc = true;
	}
	return true;
}

void lw_setp_combine(LInsn *op, const SetpPreds *sp, unsigned bop)
{
	if (!sp->has_pc)
		return;
	linsn_ref(op, SR_PC, sp->pc, 0, 1, false);
	linsn_set(op, SR_PC_NOT, sp->pc_not);
	linsn_set(op, SR_BOP, bop);
}

/* Copies a register or immediate of `parts` 32-bit parts into d. */
void lw_copy_value(LowerCtx *c, uint32_t d, const Opnd *src, unsigned parts)
{
	for (unsigned p = 0; p < parts; p++) {
		if (src->kind == OPND_IMM)
			lw_mov32i(c, d, p, (uint32_t)((uint64_t)src->imm >> (32 * p)));
		else if (p < src->width)
			lw_mov(c, d, p, src->vreg, p);
		else
			lw_mov_rz(c, d, p);
	}
}

/* txq.width/.height/.depth and suq.width/.height/.depth: TXQ
 * TEX_HEADER_DIMENSION of level 0 (mask: x 1, y 2, z 4). A bound handle is
 * the immediate header index with Ra = 0 (ptxas: MOV Ra, RZ); a bindless
 * one is TXQ.B with Ra = {handle, 0}. */
void lw_txq_dimension(LowerCtx *c, const LDescLookup *h, uint32_t d, unsigned mask)
{
	enum { TEX_HEADER_DIMENSION = 1 };
	LInsn *q;
	if (h->immediate) {
		uint32_t lod = lw_temp(c, 1);
		lw_mov_rz(c, lod, 0);
		q = lw_emit(c, SF_TXQ);
		linsn_ref(q, SR_RA, lod, 0, 1, false);
		lw_set_handle_word(c, q, SR_SUIDX, h->idx);
	} else {
		uint32_t g = lw_temp(c, 2);
		lw_mov(c, g, 0, h->vreg, 0);
		lw_mov_rz(c, g, 1);
		q = lw_emit(c, SF_TXQ_B);
		linsn_ref(q, SR_RA, g, 0, 2, false);
	}
	linsn_ref(q, SR_RD, d, 0, 1, true);
	linsn_set(q, SR_QUERY, TEX_HEADER_DIMENSION);
	linsn_set(q, SR_QMASK, mask);
	linsn_set(q, SR_NODEP, 0);
}

/* A descriptor query (suq.depth etc., txq.num_mipmap_levels ...): ptxas
 * 11.8 loads the field from the driver's descriptor table,
 *   d = *(c[0x0][table] + (handle & 0xfffff) * descsize + field):
 *   MOV32I s, `(.nv.surfrefDescSize or .nv.unified.texrefDescSize);
 *   LOP32I.AND i, h, 0xfffff;
 *   XMAD/XMAD.MRG/XMAD.PSL.CBCC a = i * s + c[0x2][slot] (+ RZ for field 0);
 *   IADD a.CC, a, c[0x0][table]; IADD.X a+1, RZ, c[0x0][table+4]; LDG.E.CI d, [a]
 * suq and txq lookups may share a module and a kernel: each MOV32I is
 * relocated against its own symbol. */
bool lw_desc_lookup(LowerCtx *c, const LDescLookup *q, uint32_t d)
{
	LKernel *k = c->k;
	/* the table pointer is 64-bit (LDG.E) also with .address_size 32 */
	uint32_t h = lw_temp(c, 1);
	if (q->immediate) {
		/* the bound handle's slot holds its header index */
		LInsn *mv = lw_emit(c, SF_MOV_C);
		linsn_ref(mv, SR_RD, h, 0, 1, true);
		linsn_set(mv, SR_CBANK, 0);
		lw_set_handle_word(c, mv, SR_COFF, q->idx);
	} else {
		lw_mov(c, h, 0, q->vreg, 0);
	}
	uint32_t size = lw_temp(c, 1);
	lkernel_desc_size_symbol(k, q->texture ? LDESC_TEXTURE : LDESC_SURFACE);
	LInsn *mi = lw_emit(c, SF_MOV32I);
	linsn_ref(mi, SR_RD, size, 0, 1, true);
	linsn_set(mi, SR_IMM, 0);
	mi->reloc = q->texture ? LRELOC_TEX_DESC_SIZE : LRELOC_DESC_SIZE;
	uint32_t idx = lw_temp(c, 1);
	LInsn *and = lw_emit(c, SF_LOP32I);
	linsn_ref(and, SR_RD, idx, 0, 1, true);
	linsn_ref(and, SR_RA, h, 0, 1, false);
	linsn_set(and, SR_LOPOP, 0);
	linsn_set(and, SR_IMM, 0xfffff);     /* the header index bits of a handle */
	uint32_t off = lw_temp(c, 1), addr = lw_temp(c, 2);
	if (q->field == 0) {
		/* texcache: a field at offset 0 (txq.force_unnormalized_coords)
		 * has no c[0x2] word: ptxas 11.8 -O3 adds RZ */
		uint32_t t0 = lw_temp(c, 1);
		lw_xmad(c, t0, idx, false, size, false, -1, 0);
		lw_mul_lo32_tail(c, off, 0, idx, size, t0);
	} else {
		lw_mul_lo32_cadd(c, off, idx, size, LK_CONST2_BANK, lkernel_const2_slot(k, q->field));
	}
	lw_add_cword(c, addr, 2, (LwWord[2]){ { off, 0 }, { LW_RZ, 0 } }, q->table_cword, false);
	LInsn *ldg = lw_emit(c, SF_LDG);
	linsn_ref(ldg, SR_RD, d, 0, 1, true);
	linsn_ref(ldg, SR_RA, addr, 0, 2, false);
	linsn_set(ldg, SR_SIZE, 4);
	linsn_set(ldg, SR_COP, 2);     /* .CI */
	linsn_set(ldg, SR_E, 1);
	linsn_set(ldg, SR_IMM, 0);
	return true;
}

void lw_bound_handle(LowerCtx *c, const char *name, bool texture, uint32_t d)
{
	uint32_t flag = lw_temp(c, 1);
	lw_mov32i(c, flag, 0, 0x80000000u);
	LInsn *or = lw_emit(c, SF_LOP_C);
	linsn_ref(or, SR_RD, d, 0, 1, true);
	linsn_ref(or, SR_RA, flag, 0, 1, false);
	linsn_set(or, SR_LOPOP, 1);
	linsn_set(or, SR_INVA, 0);
	linsn_set(or, SR_INVB, 0);
	linsn_set(or, SR_CBANK, 0);
	lw_set_handle_word(c, or, SR_COFF, lw_bound_slot(c, name) / 4);
	/* the high word tags the kind, as ptxas 11.8 writes it (a sampler
	 * would be 0x40000000): only values stored or compared see it */
	lw_mov32i(c, d, 1, texture ? 0x20000000u : 0x80000000u);
	if (texture)
		c->k->uses_textures = true;
	else
		c->k->uses_surfaces = true;
}

/* Zero- or sign-extends the low `bits` of src part 0 into d part 0. */
void lw_extend32(LowerCtx *c, uint32_t d, uint32_t s, unsigned bits, bool is_signed)
{
	if (!is_signed) {
		LInsn *in = lw_emit(c, SF_LOP32I);
		linsn_ref(in, SR_RD, d, 0, 1, true);
		linsn_ref(in, SR_RA, s, 0, 1, false);
		linsn_set(in, SR_LOPOP, 0);
		linsn_set(in, SR_IMM, (1u << bits) - 1);
		return;
	}
	LInsn *shl = lw_emit(c, SF_SHL_I);
	linsn_ref(shl, SR_RD, d, 0, 1, true);
	linsn_ref(shl, SR_RA, s, 0, 1, false);
	linsn_set(shl, SR_IMM, 32 - bits);
	LInsn *shr = lw_emit(c, SF_SHR_I);
	linsn_ref(shr, SR_RD, d, 0, 1, true);
	linsn_ref(shr, SR_RA, d, 0, 1, false);
	linsn_set(shr, SR_IMM, 32 - bits);
	linsn_set(shr, SR_SIGNED, 1);
}

void lw_shr_imm(LowerCtx *c, uint32_t d, unsigned dsub, uint32_t s, unsigned ssub, unsigned amount,
                bool is_signed)
{
	LInsn *in = lw_emit(c, SF_SHR_I);
	linsn_ref(in, SR_RD, d, dsub, 1, true);
	linsn_ref(in, SR_RA, s, ssub, 1, false);
	linsn_set(in, SR_IMM, amount);
	linsn_set(in, SR_SIGNED, is_signed);
}

void lw_sign_high(LowerCtx *c, uint32_t d, unsigned dsub, uint32_t s, unsigned ssub)
{
	lw_shr_imm(c, d, dsub, s, ssub, 31, true);
}

uint32_t lw_iadd(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b, bool negb)
{
	if (d == LW_NO_DST)
		d = lw_temp(c, 1);
	LInsn *in = lw_emit(c, SF_IADD_R);
	linsn_ref(in, SR_RD, d, 0, 1, true);
	linsn_ref(in, SR_RA, a, 0, 1, false);
	linsn_ref(in, SR_RB, b, 0, 1, false);
	linsn_set(in, SR_NEG, negb ? 1 : 0);
	return d;
}

uint32_t lw_alu_imm(LowerCtx *c, SassFormId form, uint32_t a, int64_t imm)
{
	uint32_t d = lw_temp(c, 1);
	LInsn *op = lw_emit(c, form);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_set(op, SR_IMM, imm);
	return d;
}

void lw_iabs(LowerCtx *c, uint32_t d, uint32_t a, bool neg)
{
	enum { I2I_S32 = 5 };   /* the I2I type field's .S32 */
	LInsn *op = lw_emit(c, SF_I2I_R);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RB, a, 0, 1, false);
	linsn_set(op, SR_DTYPE, I2I_S32);
	linsn_set(op, SR_STYPE, I2I_S32);
	linsn_set(op, SR_ABS, 1);
	linsn_set(op, SR_NEGB, neg);
}

LInsn *lw_xmad(LowerCtx *c, uint32_t d, uint32_t a, bool ha, uint32_t b, bool hb, int cvreg,
                unsigned csub)
{
	int64_t cword = lw_vreg_cword(c, b);
	LInsn *x = lw_emit(c, cword >= 0 ? SF_XMAD_C : SF_XMAD_R);
	linsn_ref(x, SR_RD, d, 0, 1, true);
	linsn_ref(x, SR_RA, a, 0, 1, false);
	if (cword >= 0) {
		/* b only ever holds a parameter: read it from c[0x0] as ptxas does */
		linsn_set(x, SR_CBANK, 0);
		linsn_set(x, SR_COFF, cword / 4);
	} else {
		linsn_ref(x, SR_RB, b, 0, 1, false);
	}
	if (cvreg >= 0)
		linsn_ref(x, SR_RC, (uint32_t)cvreg, csub, 1, false);
	else
		linsn_set(x, SR_RC, 255);
	linsn_set(x, SR_HA, ha);
	linsn_set(x, SR_HB, hb);
	return x;
}

/* The last two XMADs of a 32-bit multiply: t1 = MRG(a.lo*b.hi, b);
 * d = (a.hi*t1.hi << 16) + t0 + (t1 << 16), t0 = a.lo*b.lo + addend. */
void lw_mul_lo32_tail(LowerCtx *c, uint32_t d, unsigned dsub, uint32_t a, uint32_t b, uint32_t t0)
{
	uint32_t t1 = lw_temp(c, 1);
	LInsn *m = lw_xmad(c, t1, a, false, b, true, -1, 0);
	linsn_set(m, SR_MRG, 1);
	LInsn *f = lw_emit(c, SF_XMAD_R);
	linsn_ref(f, SR_RD, d, dsub, 1, true);
	linsn_ref(f, SR_RA, a, 0, 1, false);
	linsn_ref(f, SR_RB, t1, 0, 1, false);
	linsn_ref(f, SR_RC, t0, 0, 1, false);
	linsn_set(f, SR_HA, 1);
	linsn_set(f, SR_HB, 1);
	linsn_set(f, SR_PSL, 1);
	linsn_set(f, SR_CMODE, 4);    /* CBCC: c + (b << 16) */
}

void lw_mul_lo32_cadd(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b, unsigned bank, uint32_t off)
{
	uint32_t t0 = lw_temp(c, 1);
	LInsn *x = lw_emit(c, SF_XMAD_RC);
	linsn_ref(x, SR_RD, t0, 0, 1, true);
	linsn_ref(x, SR_RA, a, 0, 1, false);
	linsn_ref(x, SR_RB, b, 0, 1, false);
	linsn_set(x, SR_CBANK, bank);
	linsn_set(x, SR_COFF, off / 4);
	lw_mul_lo32_tail(c, d, 0, a, b, t0);
}

void lw_pack(LowerCtx *c, const uint32_t *elems, unsigned n, unsigned bits, uint32_t dst)
{
	unsigned per_word = 32 / bits;
	for (unsigned w = 0; w * per_word < n; w++) {
		unsigned first = w * per_word, last = first + per_word < n ? first + per_word : n;
		uint32_t acc = 0;
		bool have = false;
		for (unsigned i = first; i < last; i++) {
			unsigned shift = (i - first) * bits;
			uint32_t piece = lw_temp(c, 1);
			/* the top element needs no mask: its high bits shift out */
			if (shift + bits < 32) {
				LInsn *m = lw_emit(c, SF_LOP32I);
				linsn_ref(m, SR_RD, piece, 0, 1, true);
				linsn_ref(m, SR_RA, elems[i], 0, 1, false);
				linsn_set(m, SR_LOPOP, 0);
				linsn_set(m, SR_IMM, (1u << bits) - 1);
			} else {
				lw_mov(c, piece, 0, elems[i], 0);
			}
			if (shift) {
				LInsn *s = lw_emit(c, SF_SHL_I);
				linsn_ref(s, SR_RD, piece, 0, 1, true);
				linsn_ref(s, SR_RA, piece, 0, 1, false);
				linsn_set(s, SR_IMM, shift);
			}
			if (!have) {
				acc = piece;
				have = true;
				continue;
			}
			uint32_t sum = lw_temp(c, 1);
			LInsn *o = lw_emit(c, SF_LOP_R);
			linsn_ref(o, SR_RD, sum, 0, 1, true);
			linsn_ref(o, SR_RA, acc, 0, 1, false);
			linsn_ref(o, SR_RB, piece, 0, 1, false);
			linsn_set(o, SR_LOPOP, 1);
			acc = sum;
		}
		lw_mov(c, dst, w, acc, 0);
	}
}

void lw_unpack(LowerCtx *c, uint32_t src, unsigned n, unsigned bits, const uint32_t *elems)
{
	unsigned per_word = 32 / bits;
	for (unsigned i = 0; i < n; i++) {
		unsigned w = i / per_word, shift = (i % per_word) * bits;
		uint32_t cur = src;
		unsigned sub = w;
		if (shift) {
			uint32_t t = lw_temp(c, 1);
			LInsn *s = lw_emit(c, SF_SHR_I);
			linsn_ref(s, SR_RD, t, 0, 1, true);
			linsn_ref(s, SR_RA, src, w, 1, false);
			linsn_set(s, SR_IMM, shift);
			linsn_set(s, SR_SIGNED, 0);
			cur = t;
			sub = 0;
		}
		if (shift + bits < 32) {
			LInsn *m = lw_emit(c, SF_LOP32I);
			linsn_ref(m, SR_RD, elems[i], 0, 1, true);
			linsn_ref(m, SR_RA, cur, sub, 1, false);
			linsn_set(m, SR_LOPOP, 0);
			linsn_set(m, SR_IMM, (1u << bits) - 1);
		} else {
			lw_mov(c, elems[i], 0, cur, sub);
		}
	}
}

bool lw_store_data(LowerCtx *c, const Expr *e, unsigned vec, unsigned bits, uint32_t *out,
                   unsigned *nregs, bool *is_rz)
{
	unsigned bytes = vec * bits / 8;
	*nregs = bytes <= 4 ? 1 : bytes / 4;
	*is_rz = false;
	if (vec == 1 && e->kind == EX_VECTOR && e->nelems == 1)
		e = e->elems[0];    /* {%r1}: the scalar form of the surface instructions */
	if (vec == 1) {
		Opnd o;
		if (!lw_opnd(c, e, &o))
			return false;
		if (o.kind == OPND_IMM && o.imm == 0 && bits <= 32) {
			*is_rz = true;
			return true;
		}
		if (o.kind == OPND_REG) {
			*out = o.vreg;
			return true;
		}
		*out = lw_temp(c, *nregs);
		for (unsigned p = 0; p < *nregs; p++)
			lw_mov32i(c, *out, p, (uint32_t)((uint64_t)o.imm >> (32 * p)));
		return true;
	}
	if (e->kind != EX_VECTOR || e->nelems != vec)
		return lw_unsupported(c, e->loc, "this vector operand");
	uint32_t elems[4];
	for (unsigned i = 0; i < vec; i++) {
		Opnd o;
		if (!lw_opnd(c, e->elems[i], &o))
			return false;
		if (o.kind == OPND_IMM) {
			elems[i] = lw_temp(c, bits == 64 ? 2 : 1);
			for (unsigned p = 0; p < (bits == 64 ? 2u : 1u); p++)
				lw_mov32i(c, elems[i], p, (uint32_t)((uint64_t)o.imm >> (32 * p)));
		} else {
			elems[i] = o.vreg;
		}
	}
	*out = lw_temp(c, *nregs == 3 ? 4 : *nregs);
	if (bits < 32) {
		lw_pack(c, elems, vec, bits, *out);
		return true;
	}
	unsigned per = bits / 32;
	for (unsigned i = 0; i < vec; i++)
		for (unsigned p = 0; p < per; p++)
			lw_mov(c, *out, i * per + p, elems[i], p);
	return true;
}

/* d = the high 32 bits of a * b (+ addend when addend >= 0), ptxas's four
 * partial products of 16-bit halves (mul.hi, div, rem):
 *   t0 = a.lo*b.lo, t1 = a.lo*b.hi, t3 = a.hi*b.lo + t0.hi (.CHI),
 *   t2 = a.hi*b.hi (+ addend; signed: .CSFU), d = ((t3 + t1) >> 16) + t2. */
void lw_mul_hi32(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b, bool is_signed, int addend)
{
	uint32_t t0 = lw_temp(c, 1), t1 = lw_temp(c, 1), t2 = lw_temp(c, 1), t3 = lw_temp(c, 1);
	lw_xmad(c, t0, a, false, b, false, -1, 0);
	linsn_set(lw_xmad(c, t1, a, false, b, true, -1, 0), SR_SB, is_signed);
	LInsn *x3 = lw_xmad(c, t3, a, true, b, false, (int)t0, 0);
	linsn_set(x3, SR_SA, is_signed);
	linsn_set(x3, SR_CMODE, 2);
	LInsn *x2 = lw_xmad(c, t2, a, true, b, true, addend, 0);
	if (is_signed) {
		linsn_set(x2, SR_SA, 1);
		linsn_set(x2, SR_SB, 1);
		linsn_set(x2, SR_CMODE, 3);
	}
	LInsn *sum = lw_emit(c, SF_IADD3_R);
	linsn_ref(sum, SR_RD, d, 0, 1, true);
	linsn_ref(sum, SR_RA, t3, 0, 1, false);
	linsn_ref(sum, SR_RB, t1, 0, 1, false);
	linsn_ref(sum, SR_RC, t2, 0, 1, false);
	linsn_set(sum, SR_SHIFTMODE, 1);
}

void lw_sign_extend_low(LowerCtx *c, uint32_t d, unsigned dsub, unsigned bits)
{
	LInsn *f = lw_emit(c, SF_BFE_I);
	linsn_ref(f, SR_RD, d, dsub, 1, true);
	linsn_ref(f, SR_RA, d, dsub, 1, false);
	linsn_set(f, SR_SIGNED, 1);
	linsn_set(f, SR_IMM, bits << 8);
}

/* ---- idiv: the integer divisions' reciprocal estimate ---- */

/* t ~ 2^32 / b (2^64 / b when wide, b a pair): I2F.F32.{U,S}32.RP (|b|
 * when is_signed) or I2F.F32.U64.RP, MUFU.RCP, minus 2 ulp of the float
 * scaled by 2^32 or 2^64 (IADD32I 0xffffffe / 0x1ffffffe), then
 * F2I.FTZ.U32.F32.TRUNC or F2I.U64.F32.TRUNC. */
uint32_t lw_int_rcp_estimate(LowerCtx *c, uint32_t b, bool wide, bool is_signed)
{
	enum { FLOAT_F32 = 2, INT_U32 = 4, INT_S32 = 5, INT_U64 = 6, RND_RP = 2, RND_TRUNC = 3 };
	uint32_t f = lw_temp(c, 1), e = lw_temp(c, 1), t = lw_temp(c, wide ? 2 : 1);
	int64_t cword = wide ? -1 : lw_vreg_cword(c, b);
	LInsn *cv = lw_emit(c, cword >= 0 ? SF_I2F_C : SF_I2F_R);
	linsn_ref(cv, SR_RD, f, 0, 1, true);
	if (cword >= 0) {
		linsn_set(cv, SR_CBANK, 0);
		linsn_set(cv, SR_COFF, cword / 4);
	} else {
		linsn_ref(cv, SR_RB, b, 0, wide ? 2 : 1, false);
	}
	linsn_set(cv, SR_STYPE, wide ? INT_U64 : is_signed ? INT_S32 : INT_U32);
	linsn_set(cv, SR_DTYPE, FLOAT_F32);
	linsn_set(cv, SR_RND, RND_RP);
	linsn_set(cv, SR_ABSB, is_signed);
	LInsn *rcp = lw_emit(c, SF_MUFU);
	linsn_ref(rcp, SR_RD, f, 0, 1, true);
	linsn_ref(rcp, SR_RA, f, 0, 1, false);
	linsn_set(rcp, SR_MUFUOP, 4);
	c->k->vregs[f].temp = false;
	LInsn *dec = lw_emit(c, SF_IADD32I);
	linsn_ref(dec, SR_RD, e, 0, 1, true);
	linsn_ref(dec, SR_RA, f, 0, 1, false);
	linsn_set(dec, SR_IMM, wide ? 0x1ffffffe : 0xffffffe);
	LInsn *tr = lw_emit(c, SF_F2I_R);
	linsn_ref(tr, SR_RD, t, 0, wide ? 2 : 1, true);
	linsn_ref(tr, SR_RB, e, 0, 1, false);
	linsn_set(tr, SR_DTYPE, wide ? INT_U64 : INT_U32);
	linsn_set(tr, SR_STYPE, FLOAT_F32);
	linsn_set(tr, SR_RND, RND_TRUNC);
	linsn_set(tr, SR_FTZ, !wide);
	return t;
}

/* ---- addr32: a register plus a 64-bit word pair of c[0x0] ---- */

void lw_add_cword(LowerCtx *c, uint32_t d, unsigned dw, const LwWord a[2], uint32_t cword, bool neg)
{
	for (unsigned p = 0; p < dw; p++) {
		LInsn *add = lw_emit(c, SF_IADD_C);
		linsn_ref(add, SR_RD, d, p, 1, true);
		if (a[p].vreg == LW_RZ)
			linsn_set(add, SR_RA, 255);
		else
			linsn_ref(add, SR_RA, a[p].vreg, a[p].sub, 1, false);
		linsn_set(add, SR_CBANK, 0);
		linsn_set(add, SR_COFF, (cword + 4 * p) / 4);
		linsn_set(add, SR_NEG, neg);
		linsn_set(add, SR_CC, p == 0 && dw == 2);
		add->writes_cc = p == 0 && dw == 2;
		linsn_set(add, SR_X, p == 1);
		add->reads_cc = p == 1;
	}
}
