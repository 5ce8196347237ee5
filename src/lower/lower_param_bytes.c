/* 8- and 16-bit elements inside a word of a register-held .param (issue
 * 15): `ld.param.v4.b8 {a, b, c, d}, [retval0+52]`, `st.param.b8
 * [param0+1], %rs1`, as nvcc and llc pass small structs and chars.
 *
 * A register-held .param is one 32-bit vreg per word (lower_call.c); an
 * element narrower than a word lives in bits 8*(offset % 4) up. A load
 * extracts it with BFE (signed or not, as the type says); a store inserts
 * it with BFI, keeping the word's other bytes. The first store into a word
 * (in lowering order) at byte 0 writes the whole word, as a scalar
 * argument is passed; at a higher byte it first clears the word, so that no
 * vreg is read before it is written. */
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
	LInsn *bfe = lw_emit(c, SF_BFE_I);
	linsn_ref(bfe, SR_RD, d, 0, 1, true);
	linsn_ref(bfe, SR_RA, word, 0, 1, false);
	linsn_set(bfe, SR_SIGNED, t.is_signed);
	linsn_set(bfe, SR_IMM, t.bits << 8 | 8 * byte);
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
	if (!seen)
		lw_mov_rz(c, word, 0);
	LInsn *bfi = lw_emit(c, SF_BFI_I);
	linsn_ref(bfi, SR_RD, word, 0, 1, true);
	linsn_ref(bfi, SR_RA, v, sub, 1, false);
	linsn_set(bfi, SR_IMM, bits << 8 | 8 * byte);
	linsn_ref(bfi, SR_RC, word, 0, 1, false);
}
