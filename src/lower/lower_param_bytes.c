/* 8- and 16-bit elements inside a word of a register-held .param (issue
 * 15): `ld.param.v4.b8 {a, b, c, d}, [retval0+52]`, `st.param.b8
 * [param0+1], %rs1`, as nvcc and llc pass small structs and chars.
 *
 * A register-held .param is one 32-bit vreg per word (lower_call.c); an
 * element narrower than a word lives in bits 8*(offset % 4) up. A load
 * shifts it down and masks it (SHR.U32 + LOP32I.AND; signed: SHL + SHR),
 * as lw_unpack does; a store shifts and masks the value into place and ORs
 * it into the word with the element's bits cleared (SHL, LOP32I.AND, LOP.OR),
 * keeping the word's other bytes. The first store into a word (in lowering
 * order) writes the whole word: the value at byte 0, as a scalar argument
 * is passed, or the shifted element alone, so that no vreg is read before
 * it is written. A 16-bit element at byte 3 is cut at the word's end, as
 * ptxas 11.8's code cuts it (lower_call.c). (These calls use ptxsurf-as's own register convention;
 * ptxas's code for them differs, so the sequences follow lw_pack/lw_unpack.) */
#include "lower/lower_internal.h"

#include "base/xalloc.h"

#include <string.h>

/* Whether word vreg has been stored to in this kernel or function so far;
 * marks it. */
static bool seen_store(LowerCtx *c, uint32_t vreg)
{
	if (vreg >= c->npreg_stored) {
		size_t n = c->npreg_stored ? c->npreg_stored : 64;
		while (n <= vreg)
			n *= 2;
		c->preg_stored = xrealloc(c->preg_stored, n);
		memset(c->preg_stored + c->npreg_stored, 0, n - c->npreg_stored);
		c->npreg_stored = n;
	}
	bool seen = c->preg_stored[vreg];
	c->preg_stored[vreg] = 1;
	return seen;
}

void lw_param_word_stored(LowerCtx *c, uint32_t word)
{
	seen_store(c, word);
}

void lw_param_byte_load(LowerCtx *c, uint32_t word, unsigned byte, PtxTy t, uint32_t d)
{
	if (byte == 0) {
		lw_extend32(c, d, word, t.bits, t.is_signed);
		return;
	}
	unsigned shift = 8 * byte;
	/* a 16-bit element at byte 3 is cut at the word's end (ptxas 11.8):
	 * its low byte, zero-extended, whatever its signedness */
	if (t.is_signed && shift + t.bits <= 32) {   /* the element's sign bit to bit 31, then back */
		LInsn *shl = lw_emit(c, SF_SHL_I);
		linsn_ref(shl, SR_RD, d, 0, 1, true);
		linsn_ref(shl, SR_RA, word, 0, 1, false);
		linsn_set(shl, SR_IMM, 32 - shift - t.bits);
		LInsn *shr = lw_emit(c, SF_SHR_I);
		linsn_ref(shr, SR_RD, d, 0, 1, true);
		linsn_ref(shr, SR_RA, d, 0, 1, false);
		linsn_set(shr, SR_IMM, 32 - t.bits);
		linsn_set(shr, SR_SIGNED, 1);
		return;
	}
	LInsn *shr = lw_emit(c, SF_SHR_I);
	linsn_ref(shr, SR_RD, d, 0, 1, true);
	linsn_ref(shr, SR_RA, word, 0, 1, false);
	linsn_set(shr, SR_IMM, shift);
	linsn_set(shr, SR_SIGNED, 0);
	if (shift + t.bits < 32) {
		LInsn *and = lw_emit(c, SF_LOP32I);
		linsn_ref(and, SR_RD, d, 0, 1, true);
		linsn_ref(and, SR_RA, d, 0, 1, false);
		linsn_set(and, SR_LOPOP, 0);
		linsn_set(and, SR_IMM, (1u << t.bits) - 1);
	}
}

/* d = s AND imm (LOP32I). */
static void and_imm(LowerCtx *c, uint32_t d, uint32_t s, unsigned ssub, uint32_t imm)
{
	LInsn *and = lw_emit(c, SF_LOP32I);
	linsn_ref(and, SR_RD, d, 0, 1, true);
	linsn_ref(and, SR_RA, s, ssub, 1, false);
	linsn_set(and, SR_LOPOP, 0);
	linsn_set(and, SR_IMM, imm);
}

void lw_param_byte_store(LowerCtx *c, uint32_t word, unsigned byte, unsigned bits, const Opnd *value)
{
	uint32_t v;
	unsigned sub;
	bool seen = seen_store(c, word);
	lw_opnd_part(c, value, 0, &v, &sub);
	if (!seen && byte == 0) {
		lw_mov(c, word, 0, v, sub);
		return;
	}
	unsigned shift = 8 * byte;
	uint32_t mask = (uint32_t)(((uint64_t)1 << bits) - 1) << shift;
	/* piece = (v << shift) within the element's bits; word = word
	 * without them, OR piece (as lw_pack joins packed elements) */
	uint32_t piece = lw_temp(c, 1);
	LInsn *shl = lw_emit(c, SF_SHL_I);
	linsn_ref(shl, SR_RD, piece, 0, 1, true);
	linsn_ref(shl, SR_RA, v, sub, 1, false);
	linsn_set(shl, SR_IMM, shift);
	if (shift + bits < 32)
		and_imm(c, piece, piece, 0, mask);
	if (!seen) {
		lw_mov(c, word, 0, piece, 0);
		return;
	}
	and_imm(c, word, word, 0, ~mask);
	LInsn *or = lw_emit(c, SF_LOP_R);
	linsn_ref(or, SR_RD, word, 0, 1, true);
	linsn_ref(or, SR_RA, word, 0, 1, false);
	linsn_ref(or, SR_RB, piece, 0, 1, false);
	linsn_set(or, SR_LOPOP, 1);
}
