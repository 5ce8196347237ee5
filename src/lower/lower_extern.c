/* Calls of external functions (issue 15, -c): a function whose body is
 * not in the module is called as ptxas -c calls it, through the ABI:
 *
 *   JCAL `(name)        ; R_CUDA_ABS32_20 of the function in bits 20-51
 *
 * with the arguments in R4..R15 (each .param in consecutive registers from
 * the next one its size aligns to: a .b64 at an even register) and the
 * results from R4 the same way. The callee may change R0, R2..R15 and the
 * predicates; R16 and up (and R1, the stack pointer) survive the call, so
 * the register allocator gives a value live across a JCAL a register from
 * R16 up (regalloc.c). The call site's argument and result placeholders
 * (lower_call.c) become parts of vregs fixed to R4..R7, R8..R11 and
 * R12..R15, which the JCAL reads and writes. The functions the driver
 * provides (vprintf, malloc, free, __assertfail) are called this way
 * without -c too, as ptxas does: the loader resolves them. */
#include "lower/lower_internal.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

bool lw_is_system_call(const char *name)
{
	static const char *const names[] = { "vprintf", "malloc", "free", "__assertfail" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

enum { ABI_FIRST_REG = 4, ABI_WORDS = 12, ABI_WINDOW = 4, ABI_WINDOWS = ABI_WORDS / ABI_WINDOW };

uint16_t lw_extern_index(LModule *lm, const char *name)
{
	for (size_t i = 0; i < lm->nexterns; i++)
		if (lm->externs[i] == name || strcmp(lm->externs[i], name) == 0)
			return (uint16_t)i;
	lm->externs = xrealloc(lm->externs, (lm->nexterns + 1) * sizeof *lm->externs);
	lm->externs[lm->nexterns] = name;
	return (uint16_t)lm->nexterns++;
}

/* Renames every reference to the one-word vreg `from` to part `sub` of `to`. */
static void rename_word(LKernel *k, uint32_t from, uint32_t to, unsigned sub)
{
	for (size_t i = 0; i < k->ninsns; i++)
		for (unsigned r = 0; r < k->insns[i].nrefs; r++) {
			LRegRef *ref = &k->insns[i].refs[r];
			if (ref->vreg == from) {
				ref->vreg = to;
				ref->sub = (uint8_t)(ref->sub + sub);
			}
		}
}

/* The ABI slots (words from R4) of a list of .param placeholders: false
 * (diagnosed) when one does not fit the registers. used[s]: slot s holds a word. */
static bool place_words(LowerCtx *c, const LCallSite *cs, uint32_t first, uint32_t n, uint32_t *slot,
                        bool *used)
{
	/* an aggregate (.align 4 .b8 p[12]) starts at the next register its
	 * .align in the declaration allows, as ptxas places it (R6..R8 after
	 * a .b64 in R4:R5); a scalar at a multiple of its size */
	const uint8_t *align = lw_func_param_align(c, cs->callee);
	uint32_t s = 0;
	for (uint32_t j = 0; j < n; j++) {
		uint32_t words = cs->vregs[2 * (first + j) + 1];
		if (words == 0 && n == 1) {    /* a sink result `_`: nothing to read back */
			slot[j] = 0;
			continue;
		}
		uint32_t a = words <= 2 ? words : align ? align[first + j] : 0;
		if (a == 0)
			return lw_unsupported(c, cs->loc, "call of the external function '%s' with a .param of "
			                      "more than 8 bytes and no declaration", cs->callee);
		s = (s + a - 1) / a * a;
		if (s + words > ABI_WORDS)
			return lw_unsupported(c, cs->loc, "call of the external function '%s' with more than %d "
			                      "bytes of arguments or results (they would be passed on the stack)",
			                      cs->callee, 4 * ABI_WORDS);
		slot[j] = s;
		for (uint32_t q = 0; q < words; q++)
			used[s + q] = true;
		s += words;
	}
	return true;
}

/* Adds to jcal one reference per run of used slots of each window, and
 * renames the placeholders to the window parts. */
static bool bind_windows(LowerCtx *c, LKernel *k, const LCallSite *cs, uint32_t first, uint32_t n,
                         const uint32_t *slot, const bool *used, bool def)
{
	uint32_t window[ABI_WINDOWS] = { 0 };
	bool made[ABI_WINDOWS] = { false };
	for (unsigned w = 0; w < ABI_WINDOWS; w++) {
		for (unsigned p = 0; p < ABI_WINDOW; p++)
			made[w] |= used[w * ABI_WINDOW + p];
		if (!made[w])
			continue;
		window[w] = lkernel_new_vreg(k, LRC_GPR, ABI_WINDOW, false);
		k->vregs[window[w]].fixed = true;
		k->vregs[window[w]].phys = ABI_FIRST_REG + (int)(w * ABI_WINDOW);
		LInsn *jcal = &k->insns[cs->insn];
		for (unsigned p = 0; p < ABI_WINDOW; p++) {
			if (!used[w * ABI_WINDOW + p] || (p > 0 && used[w * ABI_WINDOW + p - 1]))
				continue;
			unsigned run = 1;
			while (p + run < ABI_WINDOW && used[w * ABI_WINDOW + p + run])
				run++;
			if (jcal->nrefs == LIR_MAX_REFS)
				return lw_unsupported(c, cs->loc, "call of the external function '%s' with this many "
				                      "separate arguments and results", cs->callee);
			jcal->refs[jcal->nrefs++] = (LRegRef){ window[w], LROLE_ABI, (uint8_t)p, (uint8_t)run, def };
		}
	}
	for (uint32_t j = 0; j < n; j++)
		for (uint32_t q = 0; q < cs->vregs[2 * (first + j) + 1]; q++) {
			uint32_t s = slot[j] + q;
			rename_word(k, cs->vregs[2 * (first + j)] + q, window[s / ABI_WINDOW], s % ABI_WINDOW);
		}
	return true;
}

bool lw_extern_call(LowerCtx *c, LKernel *k, const LCallSite *cs)
{
	uint32_t *slot = xcalloc(cs->nargs + cs->nrets + 1, sizeof *slot);
	bool arg_used[ABI_WORDS] = { false }, ret_used[ABI_WORDS] = { false };
	bool ok = place_words(c, cs, 0, cs->nargs, slot, arg_used) &&
	          place_words(c, cs, cs->nargs, cs->nrets, slot + cs->nargs, ret_used);
	if (ok) {
		LInsn *jcal = &k->insns[cs->insn];
		jcal->form = &sass_forms[SF_JCAL];
		jcal->set = 0;
		jcal->stray = 0;
		jcal->nrefs = 0;
		jcal->target = -1;
		jcal->keep = true;
		linsn_set(jcal, SR_IMM, 0);
		jcal->reloc = LRELOC_EXTERN_CALL;
		jcal->reloc_var = lw_extern_index(c->lm, cs->callee);
		ok = bind_windows(c, k, cs, 0, cs->nargs, slot, arg_used, false) &&
		     bind_windows(c, k, cs, cs->nargs, cs->nrets, slot + cs->nargs, ret_used, true);
	}
	free(slot);
	return ok;
}

/* ---- fnaddr: the entry of a function compiled with the convention ---- */

bool lw_abi_entry(LowerCtx *c, LKernel *k, const LCallSite *cs, size_t ret)
{
	uint32_t *slot = xcalloc(cs->nargs + cs->nrets + 1, sizeof *slot);
	bool arg_used[ABI_WORDS] = { false }, ret_used[ABI_WORDS] = { false };
	LCallSite at_ret = *cs;
	at_ret.insn = ret;
	bool ok = place_words(c, cs, 0, cs->nargs, slot, arg_used) &&
	          place_words(c, cs, cs->nargs, cs->nrets, slot + cs->nargs, ret_used) &&
	          bind_windows(c, k, cs, 0, cs->nargs, slot, arg_used, true) &&
	          bind_windows(c, k, &at_ret, cs->nargs, cs->nrets, slot + cs->nargs, ret_used, false);
	free(slot);
	return ok;
}
