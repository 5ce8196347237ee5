/* Calls of external functions (issue 15, -c): a function whose body is
 * not in the module is called as ptxas -c calls it, through the ABI:
 *
 *   JCAL `(name)        ; R_CUDA_ABS32_20 of the function in bits 20-51
 *
 * with the arguments in R4..R15 (each .param in consecutive registers from
 * the next one its size aligns to: a .b64 at an even register) and the
 * results from R4 the same way; what does not fit goes on the stack
 * (lower_extern_stack.c). The callee may change R0, R2..R15 and the
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

/* Renames every reference to the one-word vreg `from` to part `sub` of `to`
 * (the pending stack operations' too). */
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
	lw_stack_ops_rename(k, from, to, sub);
}

enum { ON_STACK = 0x80000000u, NO_STACK = UINT32_MAX };

/* Places a list of .param placeholders (arguments or results) as ptxas
 * 11.8 does: each in the registers from the next slot (a word from R4,
 * starting at `s`) its alignment allows while it fits below R16, else on
 * the stack at the next offset its alignment allows (*stack: the bytes so
 * far), the register slot staying where it was, so a later, smaller one
 * still takes registers (R15 after a .b64 that did not fit). slot[j]: the
 * register slot, or ON_STACK | the byte offset; used[s]: slot s holds a
 * word. 1: placed; 0: one does not fit and stack is NULL; -1: diagnosed. */
static int place_words(LowerCtx *c, const LCallSite *cs, uint32_t first, uint32_t n, uint32_t s, uint32_t *slot,
                       bool *used, uint32_t *stack)
{
	/* an aggregate (.align 4 .b8 p[12]) starts at the next register its
	 * .align in the declaration allows, as ptxas places it (R6..R8 after
	 * a .b64 in R4:R5); a scalar at a multiple of its size */
	const uint8_t *align = lw_func_param_align(c, cs->callee);
	int va = first == 0 ? lw_func_vararg(c, cs->callee) : -1;
	for (uint32_t j = 0; j < n; j++) {
		uint32_t words = cs->vregs[2 * (first + j) + 1];
		if ((int)j == va) {
			/* a variadic block: on the stack after the other stack
			 * arguments, registers free or not (lower_vararg.c); passed
			 * as its address, it takes no bytes */
			uint32_t a = align ? align[j] : 2;
			*stack = (*stack + 4 * a - 1) / (4 * a) * (4 * a);
			slot[j] = ON_STACK | *stack;
			*stack += cs->vararg_address ? 0 : 4 * words;
			continue;
		}
		if (words == 0 && n == 1) {    /* a sink result `_`: nothing to read back */
			slot[j] = 0;
			continue;
		}
		uint32_t a = words <= 2 ? words : align ? align[first + j] : 0;
		if (a == 0) {
			lw_unsupported(c, cs->loc, "call of the external function '%s' with a .param of "
			               "more than 8 bytes and no declaration", cs->callee);
			return -1;
		}
		uint32_t at = (s + a - 1) / a * a;
		if (at + words <= ABI_WORDS) {
			slot[j] = at;
			for (uint32_t q = 0; q < words; q++)
				used[at + q] = true;
			s = at + words;
			continue;
		}
		if (!stack)
			return 0;
		*stack = (*stack + 4 * a - 1) / (4 * a) * (4 * a);
		slot[j] = ON_STACK | *stack;
		*stack += 4 * words;
	}
	return 1;
}

/* Adds to jcal one reference per run of used slots of each window, and
 * renames the placeholders in registers to the window parts (`hidden`, if
 * not NO_STACK, to slot 0: the result pointer). */
static bool bind_windows(LowerCtx *c, LKernel *k, const LCallSite *cs, uint32_t first, uint32_t n,
                         const uint32_t *slot, const bool *used, bool def, uint32_t hidden)
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
	if (hidden != NO_STACK)
		rename_word(k, hidden, window[0], 0);
	for (uint32_t j = 0; j < n; j++) {
		if (slot[j] & ON_STACK)
			continue;
		for (uint32_t q = 0; q < cs->vregs[2 * (first + j) + 1]; q++) {
			uint32_t s = slot[j] + q;
			rename_word(k, cs->vregs[2 * (first + j)] + q, window[s / ABI_WINDOW], s % ABI_WINDOW);
		}
	}
	return true;
}

/* Where a call's arguments and results go. hidden: a result pointer in R4
 * (the results do not fit the registers), else NO_STACK. */
typedef struct Placement {
	uint32_t *slot;
	bool arg_used[ABI_WORDS], ret_used[ABI_WORDS];
	bool memory_result;
	uint32_t area;          /* bytes of the outgoing area (arguments, then the result) */
	uint32_t result_at;     /* the result area's offset in it */
	uint32_t vararg;        /* the callee's variadic block's argument index, else UINT32_MAX */
} Placement;

static bool place_call(LowerCtx *c, const LCallSite *cs, Placement *pl)
{
	memset(pl, 0, sizeof *pl);
	int va = lw_func_vararg(c, cs->callee);
	pl->vararg = va >= 0 ? (uint32_t)va : UINT32_MAX;
	pl->slot = xcalloc(cs->nargs + cs->nrets + 1, sizeof *pl->slot);
	uint32_t *rslot = pl->slot + cs->nargs, stack = 0;
	int r = place_words(c, cs, cs->nargs, cs->nrets, 0, rslot, pl->ret_used, NULL);
	if (r < 0)
		return false;
	pl->memory_result = r == 0;
	pl->arg_used[0] = pl->memory_result;
	if (place_words(c, cs, 0, cs->nargs, pl->memory_result ? 1 : 0, pl->slot, pl->arg_used, &stack) < 0)
		return false;
	if (pl->memory_result) {
		uint32_t before = stack;
		memset(pl->ret_used, 0, sizeof pl->ret_used);
		place_words(c, cs, cs->nargs, cs->nrets, ABI_WORDS, rslot, pl->ret_used, &stack);
		pl->result_at = cs->nrets ? rslot[0] & ~ON_STACK : before;
	}
	pl->area = (stack + 7) / 8 * 8;
	return true;
}

/* Each word of the list first..first+n placed on the stack: a store (load)
 * next to instruction at, from (to) R1 + offset, or base + offset.
 * written: NULL (store every word), or which vregs hold a computed value;
 * a word no instruction computes (a part of a .param array the caller left
 * undefined) is not stored, as ptxas stores only what st.param wrote, so
 * that it takes no register from the kernel's start to the call. */
static void stack_words(LKernel *k, const LCallSite *cs, const Placement *pl, uint32_t first, uint32_t n,
                        size_t at, bool after, bool load, uint32_t base, uint32_t minus, uint8_t flags,
                        const bool *written)
{
	for (uint32_t j = first; j < first + n; j++) {
		if (!(pl->slot[j] & ON_STACK))
			continue;
		if (j == pl->vararg && cs->vararg_address) {
			/* the callee's variadic block: the address of the words */
			lw_stack_address(k, at, after, cs->vregs[2 * j], pl->slot[j] & ~ON_STACK, flags, cs->loc);
			continue;
		}
		for (uint32_t q = 0; q < cs->vregs[2 * j + 1]; q++) {
			uint32_t v = cs->vregs[2 * j] + q;
			if (!load && written && !written[v])
				continue;
			lw_stack_word(k, at, after, load, v, base, (pl->slot[j] & ~ON_STACK) + 4 * q - minus, flags,
			              cs->loc);
		}
	}
}

/* Whether instruction in is a plain copy d <- s of whole 32-bit words (lw_written_vregs). */
static bool word_copy(const LInsn *in)
{
	return in->form == &sass_forms[SF_MOV_R] && in->nrefs == 2 && in->refs[0].def && !in->refs[1].def;
}

/* Defined by anything but a copy, or copied from such a vreg (the call's
 * argument words are copies of the .param words st.param wrote, and of
 * the others). */
bool *lw_written_vregs(const LKernel *k)
{
	bool *w = xcalloc(k->nvregs + 1, sizeof *w);
	for (size_t i = 0; i < k->ninsns; i++)
		for (unsigned r = 0; r < k->insns[i].nrefs && !word_copy(&k->insns[i]); r++)
			if (k->insns[i].refs[r].def)
				w[k->insns[i].refs[r].vreg] = true;
	for (bool grew = true; grew;) {
		grew = false;
		for (size_t i = 0; i < k->ninsns; i++) {
			const LInsn *in = &k->insns[i];
			if (word_copy(in) && w[in->refs[1].vreg] && !w[in->refs[0].vreg])
				grew = w[in->refs[0].vreg] = true;
		}
	}
	return w;
}

bool lw_extern_call(LowerCtx *c, LKernel *k, const LCallSite *cs)
{
	Placement pl;
	bool ok = place_call(c, cs, &pl);
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
		uint32_t hidden = NO_STACK;
		uint8_t out = LSTACK_READ | LSTACK_OUT;
		/* which words were written: asked only when some go on the stack
		 * (a scan of the kernel; printf's two arguments never do) */
		bool on_stack = false;
		for (uint32_t j = 0; j < cs->nargs && !on_stack; j++)
			on_stack = pl.slot[j] & ON_STACK;
		bool *written = on_stack ? lw_written_vregs(k) : NULL;
		stack_words(k, cs, &pl, 0, cs->nargs, cs->insn, false, false, NO_STACK, 0, out, written);
		free(written);
		if (pl.memory_result) {
			hidden = lkernel_new_vreg(k, LRC_GPR, 1, false);
			lw_stack_address(k, cs->insn, false, hidden, pl.result_at, out, cs->loc);
			stack_words(k, cs, &pl, cs->nargs, cs->nrets, cs->insn, true, true, NO_STACK, 0, out, NULL);
		}
		if (pl.area > k->call_area)
			k->call_area = pl.area;
		ok = bind_windows(c, k, cs, 0, cs->nargs, pl.slot, pl.arg_used, false, hidden) &&
		     bind_windows(c, k, cs, cs->nargs, cs->nrets, pl.slot + cs->nargs, pl.ret_used, true, NO_STACK);
	}
	free(pl.slot);
	return ok;
}

/* ---- fnaddr: the entry of a function compiled with the convention ---- */

bool lw_abi_entry(LowerCtx *c, LKernel *k, const LCallSite *cs, size_t ret)
{
	Placement pl;
	LCallSite at_ret = *cs;
	at_ret.insn = ret;
	bool ok = place_call(c, cs, &pl);
	uint32_t hidden = NO_STACK;
	if (ok) {
		/* the arguments on the stack: loads after the entry from the
		 * caller's R1 (lkernel_incoming_offsets adds the prologue's frames) */
		stack_words(k, cs, &pl, 0, cs->nargs, cs->insn, true, true, NO_STACK, 0, LSTACK_READ | LSTACK_IN, NULL);
		if (pl.memory_result) {
			/* the result pointer leaves R4 at once; the results are
			 * stored through it before the RET */
			hidden = lkernel_new_vreg(k, LRC_GPR, 1, false);
			uint32_t base = lkernel_new_vreg(k, LRC_GPR, 1, false);
			lw_stack_copy(k, cs->insn, base, hidden, cs->loc);
			stack_words(k, cs, &pl, cs->nargs, cs->nrets, ret, false, false, base, pl.result_at, 0, NULL);
		}
	}
	ok = ok && bind_windows(c, k, cs, 0, cs->nargs, pl.slot, pl.arg_used, true, hidden) &&
	     bind_windows(c, k, &at_ret, cs->nargs, cs->nrets, pl.slot + cs->nargs, pl.ret_used, false, NO_STACK);
	free(pl.slot);
	return ok;
}
