/* Lowering of fns.b32 d, mask, base, offset (find the offset-th set bit of
 * mask at or above bit base; below it for a negative offset) with a
 * constant offset, as ptxas 11.8 -O0 writes it for sm_50 (sm_50 has no
 * FNS instruction). An offset of 0 keeps the bit at base alone (SHL of 1,
 * LOP.AND) and searches for offset 1; a negative one reverses the mask
 * (BFE.U32.BREV 0x2000), mirrors base (31 - base) and the result, and
 * searches for -offset. Then, with k the offset:
 *   m = mask & (0xffffffff << base) (MOV32I, SHL, LOP.AND);
 *   p0 = POPC(m) < k (ISETP.LT, signed): fewer set bits than k, d = -1;
 *   a binary search over the halves of 16, 8, 4, 2 and 1 bits: c = the set
 *   bits of m's low half (POPC of BFE.U32 m, width << 8; for 2 bits the
 *   two BFE.U32 of one bit added; for 1 bit that bit), p = c < k
 *   (ISETP.LT.U32): then the bit is above the half, so m >>= width,
 *   k -= c and pos += width (SHR.U32, IADD, IADD32I, each taken by SEL);
 *   d = p0 ? -1 : pos (SEL pos, -1, !p0).
 * ptxas 11.8 -O3 folds the same search into guarded updates. A register
 * offset (fns_register_offset) takes the three cases' operands by SEL and
 * runs the same search. */
#include "lower/lower_internal.h"

enum { CMP_LT = 1 };
enum { LOP_AND = 0 };

static uint32_t ri(LowerCtx *c, SassFormId form, uint32_t a, int64_t imm)
{
	uint32_t d = lw_temp(c, 1);
	LInsn *op = lw_emit(c, form);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	if (a == UINT32_MAX)
		linsn_set(op, SR_RA, 255);
	else
		linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_set(op, SR_IMM, imm);
	return d;
}

static uint32_t bfe_u32(LowerCtx *c, uint32_t a, unsigned ctrl)
{
	uint32_t d = ri(c, SF_BFE_I, a, ctrl);
	return d;
}

static uint32_t popc(LowerCtx *c, uint32_t a)
{
	uint32_t d = lw_temp(c, 1);
	LInsn *op = lw_emit(c, SF_POPC_R);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RB, a, 0, 1, false);
	return d;
}

static uint32_t isetp_lt(LowerCtx *c, uint32_t a, uint32_t b, bool is_signed)
{
	uint32_t p = lw_pred_temp(c);
	LInsn *op = lw_emit(c, SF_ISETP_R);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	linsn_set(op, SR_PQ, 7);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_ref(op, SR_RB, b, 0, 1, false);
	linsn_set(op, SR_CMP, CMP_LT);
	linsn_set(op, SR_SIGNED, is_signed);
	linsn_set(op, SR_PC, 7);
	return p;
}

/* SEL d, a, b (b == UINT32_MAX: RZ), p */
static uint32_t sel(LowerCtx *c, uint32_t a, uint32_t b, uint32_t p)
{
	uint32_t d = lw_temp(c, 1);
	LInsn *op = lw_emit(c, SF_SEL_R);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	if (b == UINT32_MAX)
		linsn_set(op, SR_RB, 255);
	else
		linsn_ref(op, SR_RB, b, 0, 1, false);
	linsn_ref(op, SR_PC, p, 0, 1, false);
	return d;
}

/* IADD32I d, -a, 0x1f: bit a counted from the other end */
static void mirror(LowerCtx *c, uint32_t d, uint32_t a, unsigned asub)
{
	LInsn *op = lw_emit(c, SF_IADD32I);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, a, asub, 1, false);
	linsn_set(op, SR_IMM, 31);
	linsn_set(op, SR_NEGA, 1);
}

/* BFE.U32.BREV d, a, 0x2000: the 32 bits reversed */
static uint32_t reverse(LowerCtx *c, uint32_t a, unsigned asub)
{
	LInsn *rev = lw_emit(c, SF_BFE_I);
	uint32_t r = lw_temp(c, 1);
	linsn_ref(rev, SR_RD, r, 0, 1, true);
	linsn_ref(rev, SR_RA, a, asub, 1, false);
	linsn_set(rev, SR_IMM, 32 << 8);
	linsn_set(rev, SR_SIGNED, 0);
	linsn_set(rev, SR_BREV, 1);
	return r;
}

/* mask & (1 << base): the bit at base alone (MOV32I, SHL, LOP.AND) */
static uint32_t base_bit(LowerCtx *c, uint32_t mask, unsigned ms, uint32_t base, unsigned bs)
{
	uint32_t one = lw_temp(c, 1), bit = lw_temp(c, 1), m0 = lw_temp(c, 1);
	lw_mov32i(c, one, 0, 1);
	LInsn *op = lw_emit(c, SF_SHL_R);
	linsn_ref(op, SR_RD, bit, 0, 1, true);
	linsn_ref(op, SR_RA, one, 0, 1, false);
	linsn_ref(op, SR_RB, base, bs, 1, false);
	op = lw_emit(c, SF_LOP_R);
	linsn_ref(op, SR_RD, m0, 0, 1, true);
	linsn_ref(op, SR_RA, mask, ms, 1, false);
	linsn_ref(op, SR_RB, bit, 0, 1, false);
	linsn_set(op, SR_LOPOP, LOP_AND);
	return m0;
}

/* The position of the k-th set bit of mask at or above base (k > 0);
 * *none: the predicate of too few set bits. */
static uint32_t search(LowerCtx *c, uint32_t mask, unsigned ms, uint32_t base, unsigned bs, uint32_t k,
                       uint32_t *none)
{
	uint32_t ones = lw_temp(c, 1), above = lw_temp(c, 1), m = lw_temp(c, 1);
	lw_mov32i(c, ones, 0, 0xffffffffu);
	LInsn *shl = lw_emit(c, SF_SHL_R);
	linsn_ref(shl, SR_RD, above, 0, 1, true);
	linsn_ref(shl, SR_RA, ones, 0, 1, false);
	linsn_ref(shl, SR_RB, base, bs, 1, false);
	LInsn *and = lw_emit(c, SF_LOP_R);
	linsn_ref(and, SR_RD, m, 0, 1, true);
	linsn_ref(and, SR_RA, mask, ms, 1, false);
	linsn_ref(and, SR_RB, above, 0, 1, false);
	linsn_set(and, SR_LOPOP, LOP_AND);
	*none = isetp_lt(c, popc(c, m), k, true);
	uint32_t pos = UINT32_MAX;      /* RZ until the first step */
	for (unsigned w = 16; w >= 1; w /= 2) {
		uint32_t cnt;
		if (w >= 4) {
			cnt = popc(c, bfe_u32(c, m, w << 8));
		} else if (w == 2) {
			uint32_t b0 = bfe_u32(c, m, 0x100), b1 = bfe_u32(c, m, 0x101);
			cnt = lw_temp(c, 1);
			LInsn *add = lw_emit(c, SF_IADD_R);
			linsn_ref(add, SR_RD, cnt, 0, 1, true);
			linsn_ref(add, SR_RA, b0, 0, 1, false);
			linsn_ref(add, SR_RB, b1, 0, 1, false);
		} else {
			cnt = bfe_u32(c, m, 0x100);
		}
		uint32_t p = isetp_lt(c, cnt, k, false);
		uint32_t up = 0, rest = 0;
		if (w > 1) {
			LInsn *shr = lw_emit(c, SF_SHR_I);
			up = lw_temp(c, 1);
			linsn_ref(shr, SR_RD, up, 0, 1, true);
			linsn_ref(shr, SR_RA, m, 0, 1, false);
			linsn_set(shr, SR_IMM, w);
			linsn_set(shr, SR_SIGNED, 0);
			rest = lw_temp(c, 1);
			LInsn *sub = lw_emit(c, SF_IADD_R);
			linsn_ref(sub, SR_RD, rest, 0, 1, true);
			linsn_ref(sub, SR_RA, k, 0, 1, false);
			linsn_ref(sub, SR_RB, cnt, 0, 1, false);
			linsn_set(sub, SR_NEG, 1);
		}
		uint32_t next = ri(c, SF_IADD32I, pos, w);
		if (w > 1) {
			m = sel(c, up, m, p);
			k = sel(c, rest, k, p);
		}
		pos = sel(c, next, pos, p);
	}
	return pos;
}

/* A register offset: ptxas 11.8 branches three ways on its sign (0: the
 * bit at base alone, searched for offset 1; negative: the reversed mask
 * from 31 - base, searched for -offset) into the one search. Here each
 * operand of the search is chosen by SEL on the two predicates instead
 * (ISETP.EQ/ISETP.LT of the offset against RZ), so that the code has no
 * branch for a warp to diverge on; -offset is I2I.S32.S32 |offset|, so
 * 0x80000000 is searched for as ptxas's IADD -offset leaves it. */
static void fns_register_offset(LowerCtx *c, uint32_t mask, unsigned ms, uint32_t base, unsigned bs,
                                uint32_t off, unsigned os, uint32_t *pos, uint32_t *none)
{
	enum { CMP_EQ = 2 };
	uint32_t down = lw_pred_temp(c), zero = lw_pred_temp(c);
	LInsn *op;
	for (int i = 0; i < 2; i++) {
		op = lw_emit(c, SF_ISETP_R);
		linsn_ref(op, SR_PD, i ? zero : down, 0, 1, true);
		linsn_set(op, SR_PQ, 7);
		linsn_ref(op, SR_RA, off, os, 1, false);
		linsn_set(op, SR_RB, 255);
		linsn_set(op, SR_CMP, i ? CMP_EQ : CMP_LT);
		linsn_set(op, SR_SIGNED, 1);
		linsn_set(op, SR_PC, 7);
	}
	uint32_t mb = lw_temp(c, 1), k = lw_temp(c, 1), one = lw_temp(c, 1);
	mirror(c, mb, base, bs);
	/* m: the reversed mask going down, the base bit alone at 0, else mask;
	 * b: 31 - base going down, else base */
	uint32_t m = lw_temp(c, 1), b = lw_temp(c, 1);
	uint32_t alone = base_bit(c, mask, ms, base, bs), rev = reverse(c, mask, ms);
	op = lw_emit(c, SF_SEL_R);
	linsn_ref(op, SR_RD, m, 0, 1, true);
	linsn_ref(op, SR_RA, alone, 0, 1, false);
	linsn_ref(op, SR_RB, mask, ms, 1, false);
	linsn_ref(op, SR_PC, zero, 0, 1, false);
	m = sel(c, rev, m, down);
	op = lw_emit(c, SF_SEL_R);
	linsn_ref(op, SR_RD, b, 0, 1, true);
	linsn_ref(op, SR_RA, mb, 0, 1, false);
	linsn_ref(op, SR_RB, base, bs, 1, false);
	linsn_ref(op, SR_PC, down, 0, 1, false);
	lw_iabs(c, k, off, false);
	lw_mov32i(c, one, 0, 1);
	k = sel(c, one, k, zero);
	uint32_t p = search(c, m, 0, b, 0, k, none);
	uint32_t up = lw_temp(c, 1);
	mirror(c, up, p, 0);
	*pos = sel(c, up, p, down);
}

bool lower_fns(LowerCtx *c, const Instr *in)
{
	uint32_t d;
	unsigned dw, ms, bs;
	Opnd o[3];
	if (!lw_reg(c, in->ops[0], &d, &dw))
		return false;
	for (unsigned i = 0; i < 3; i++)
		if (!lw_opnd(c, in->ops[1 + i], &o[i]))
			return false;
	if (o[2].kind == OPND_IMM && (o[2].imm < -0x7fffffff || o[2].imm > 0x7fffffff))
		return lw_unsupported(c, in->ops[3]->loc, "fns with the offset %lld (an offset of -0x7fffffff.."
		                      "0x7fffffff or a register is supported)", (long long)o[2].imm);
	uint32_t mask, base, pos, none;
	lw_opnd_part(c, &o[0], 0, &mask, &ms);
	lw_opnd_part(c, &o[1], 0, &base, &bs);
	if (o[2].kind != OPND_IMM) {
		uint32_t off;
		unsigned os;
		lw_opnd_part(c, &o[2], 0, &off, &os);
		fns_register_offset(c, mask, ms, base, bs, off, os, &pos, &none);
	} else {
		int64_t off = o[2].imm;
		if (off < 0) {
			/* searching down: the mask reversed (BFE.U32.BREV, 32 bits)
			 * and the base mirrored, 31 - base */
			uint32_t b = lw_temp(c, 1);
			mask = reverse(c, mask, ms);
			mirror(c, b, base, bs);
			ms = 0, base = b, bs = 0;
		} else if (off == 0) {
			/* the bit at base alone, then the first set bit from there */
			mask = base_bit(c, mask, ms, base, bs), ms = 0, off = 1;
		}
		uint32_t k = lw_temp(c, 1);
		lw_mov32i(c, k, 0, (uint32_t)(off < 0 ? -off : off));
		pos = search(c, mask, ms, base, bs, k, &none);
		if (o[2].imm < 0) {
			uint32_t up = lw_temp(c, 1);
			mirror(c, up, pos, 0);
			pos = up;
		}
	}
	LInsn *op = lw_emit(c, SF_SEL_I);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, pos, 0, 1, false);
	linsn_set(op, SR_IMM, -1);
	linsn_ref(op, SR_PC, none, 0, 1, false);
	linsn_set(op, SR_PC_NOT, 1);
	return true;
}
