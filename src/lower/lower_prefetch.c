/* prefetch{.global,.local}.L1/.L2 [a] and prefetchu.L1 [a] -> CCTL / CCTLL
 * (texcache), as ptxas 11.8 writes them for sm_50:
 *  - a generic or global address: CCTL.E.PF1 / .PF2 [Ra+offset] on the
 *    64-bit address (ptxas does not convert a generic address first);
 *    prefetchu.L1 is CCTL.E.PF1 as well;
 *  - a local address: CCTLL.PF1 / .PF2 [Ra+offset] in the 32-bit local
 *    window (a .local variable: the stack pointer plus its offset);
 *  - the offset is a count of 4-byte words: ptxas drops the low two bits
 *    of the byte offset ([a+3] prefetches [a]); one that does not fit the
 *    field (30 bits of words for CCTL, 22 for CCTLL) is added to the
 *    address register first.
 * A prefetch only moves data between caches: it reads its address
 * register and writes nothing. */
#include "lower/lower_internal.h"

#include <string.h>

enum { CCTL_PF1 = 1, CCTL_PF2 = 3 };

/* The byte offset in words, rounded down as ptxas rounds it. */
static int64_t offset_words(int64_t off)
{
	return off >= 0 ? off / 4 : -((-off + 3) / 4);
}

/* prefetch.local: the window address, its offset in signed 24 bits. */
static bool local_prefetch(LowerCtx *c, const Instr *in, unsigned op)
{
	int base;
	int64_t off;
	if (!lw_window_address(c, in->ops[0], LVAR_LOCAL, &base, &off))
		return false;
	if (base >= 0)
		base = (int)lw_fold_offset(c, (uint32_t)base, 1, &off, 24);
	else if (off < -0x800000 || off > 0x7fffff)
		return lw_unsupported(c, in->ops[0]->loc, "a .local prefetch offset outside the signed 24-bit range");
	LInsn *pf = lw_emit(c, SF_CCTLL);
	lw_window_base(c, pf, base, &off);
	linsn_set(pf, SR_CCTLOP, op);
	linsn_set(pf, SR_IMM, offset_words(off));
	return true;
}

/* prefetch{.global} and prefetchu: [reg+offset] or a .global variable. */
static bool global_prefetch(LowerCtx *c, const Instr *in, unsigned op)
{
	const Expr *a = in->ops[0];
	int64_t voff;
	int space;
	if (a->kind == EX_ADDRESS && a->nelems == 1 && lw_var_address(c, a->elems[0], &voff, &space))
		return lw_unsupported(c, a->loc, "a %s of a .local or .shared variable's generic address "
		                      "(prefetch.local or a register address is supported)", in->opcode);
	uint32_t base;
	unsigned bw;
	int64_t off;
	if (!lw_global_address(c, a, &base, &bw, &off) || !lw_address_width(c, a->loc, bw))
		return false;
	base = lw_fold_offset(c, base, bw, &off, 32);
	LInsn *pf = lw_emit(c, SF_CCTL);
	linsn_ref(pf, SR_RA, base, 0, bw, false);
	linsn_set(pf, SR_E, bw == 2);
	linsn_set(pf, SR_CCTLOP, op);
	linsn_set(pf, SR_IMM, offset_words(off));
	return true;
}

bool lower_prefetch(LowerCtx *c, const Instr *in)
{
	bool local = false, uniform = lw_streq(in->opcode, "prefetchu");
	int op = -1;
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		if (lw_streq(w, ".L1"))
			op = CCTL_PF1;
		else if (lw_streq(w, ".L2") && !uniform)
			op = CCTL_PF2;
		else if (lw_streq(w, ".local") && !uniform)
			local = true;
		else if (!lw_streq(w, ".global") || uniform)
			return lw_unsupported(c, in->mod_locs[i], "%s modifier '%s' (.global/.local with .L1/.L2, "
			                      "prefetchu.L1 are supported)", in->opcode, w);
	}
	if (op < 0)
		return lw_unsupported(c, in->loc, "%s without a cache level (.L1 or .L2)", in->opcode);
	return local ? local_prefetch(c, in, (unsigned)op) : global_prefetch(c, in, (unsigned)op);
}
