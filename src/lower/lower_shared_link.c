/* .shared variables named in device functions (varaddr, issue 15).
 *
 * A function is linked into each kernel that calls it (lower_call.c), and
 * ptxas 11.8 lays out a kernel's .nv.shared.<k> over the module .shared
 * variables the kernel and the functions it calls name, in declaration
 * order (a variable declared in a function body counts as a module one:
 * .strtab records it as `$<kernel>$$__<name>__<line>`). The same function
 * thus sees a variable at different offsets in different kernels: its
 * code names the variable (LInsn.shared_sym), and linking adds the
 * kernel's offset to the instruction's immediate -- of the LDS/STS/ATOMS
 * that address it ([RZ+offset], as ptxas writes them; ATOMS' is in words)
 * or of a MOV32I taking its address.
 *
 * A kernel lowered before a function it links (its body later in the
 * module) has not laid that function's variables out: linking places
 * them after the kernel's own.
 *
 * Under -c a module-scope variable is the linker's to place, as ptxas -c
 * leaves it: kernels name it as functions do, and the instruction keeps
 * shared_sym to the end, its immediate the addend of an R_CUDA_ABS24_20
 * relocation (driver/assemble.c). ptxas relocates no ATOMS: a shared
 * atomic's address is a relocated MOV32I into a register first. */
#include "lower/lower_internal.h"

#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lw_func_shared_begin(LowerCtx *c)
{
	for (size_t i = 0; i < c->nmodule_shared; i++)
		if (!c->module_shared[i].label)
			lmap_put(&c->vars, c->module_shared[i].name, (int64_t)i, LVAR_SHARED_SYM);
}

void lw_func_shared_body_add(LowerCtx *c, const VarDecl *d)
{
	for (uint32_t i = 0; i < d->ndecls; i++) {
		uint32_t size, align;
		const Declarator *dc = &d->decls[i];
		if (!lw_var_layout(c, d, i, &size, &align))
			continue;
		size_t n = strlen(dc->name) + 32;
		char *label = xmalloc(n);
		snprintf(label, n, "$__%s__%u", dc->name, (unsigned)dc->loc.first_line);
		size_t at = lw_shared_var_append(c, (LSharedVar){ dc->name, size, align, label, -1, 0 });
		/* hides a module variable of the same name */
		LMapEntry *e = lmap_put(&c->vars, dc->name, (int64_t)at, LVAR_SHARED_SYM);
		e->value = (int64_t)at;
		e->extra = LVAR_SHARED_SYM;
	}
}

static void add_sym(LFunc *f, bool *seen, uint32_t sym)
{
	if (seen[sym])
		return;
	seen[sym] = true;
	f->shared_syms = xrealloc(f->shared_syms, (f->nshared_syms + 1) * sizeof *f->shared_syms);
	f->shared_syms[f->nshared_syms++] = sym;
}

void lw_func_shared_finish(LowerCtx *c, LFunc *f)
{
	bool *seen = xcalloc(c->nmodule_shared + 1, sizeof *seen);
	const LKernel *fr = &f->frag;
	for (size_t i = 0; i < fr->ninsns; i++)
		if (fr->insns[i].shared_sym)
			add_sym(f, seen, fr->insns[i].shared_sym - 1u);
	/* a callee lowered before: its variables are linked with f */
	for (size_t i = 0; i < fr->ncalls; i++)
		for (size_t j = 0; j < c->nfuncs; j++) {
			const LFunc *g = &c->funcs[j];
			if (g != f && strcmp(g->name, fr->calls[i].callee) == 0)
				for (size_t q = 0; q < g->nshared_syms; q++)
					add_sym(f, seen, g->shared_syms[q]);
		}
	free(seen);
}

/* The kernel's offset of module_shared[sym], placed now if it has none. */
static uint32_t kernel_offset(LowerCtx *c, LKernel *k, uint32_t sym, SrcLoc loc)
{
	if (sym < k->nshared_sym_at && k->shared_sym_at[sym])
		return k->shared_sym_at[sym] - 1;
	if (sym >= k->nshared_sym_at) {
		k->shared_sym_at = xrealloc(k->shared_sym_at, (sym + 1) * sizeof *k->shared_sym_at);
		memset(k->shared_sym_at + k->nshared_sym_at, 0, (sym + 1 - k->nshared_sym_at) * sizeof *k->shared_sym_at);
		k->nshared_sym_at = sym + 1;
	}
	const LSharedVar *v = &c->module_shared[sym];
	uint32_t off;
	if (v->align == 0) {
		if (!k->shared_dynamic) {
			k->shared_size = (k->shared_size + 15) / 16 * 16;
			if (k->shared_align < 16)
				k->shared_align = 16;
			k->shared_dynamic = true;
		}
		off = k->shared_size;
	} else if (k->shared_dynamic) {
		/* its dynamic shared memory starts at the static part's end */
		lw_unsupported(c, loc, ".shared variable '%s' named only by a function whose body follows "
		               "kernel '%s', which has dynamic shared memory", v->name, k->name);
		return 0;
	} else {
		off = lw_shared_alloc(k, v->size, v->align);
	}
	k->shared_sym_at[sym] = off + 1;
	lw_shared_record(k, v);
	return off;
}

void lw_shared_link(LowerCtx *c, LKernel *k, LInsn *in)
{
	if (lw_shared_relocated(c, in->shared_sym - 1u))
		return;     /* -c: the linker's, relocated in the kernel's code */
	uint32_t off = kernel_offset(c, k, in->shared_sym - 1u, in->loc);
	in->shared_sym = 0;
	if (sass_form_field_index(in->form, SR_WOFF) >= 0) {
		/* ATOMS: a word offset (the access's own is a multiple of 4) */
		if (off % 4 != 0)
			lw_unsupported(c, in->loc, "a shared atomic on a variable at offset 0x%x, not a "
			               "multiple of 4", (unsigned)off);
		linsn_set(in, SR_WOFF, linsn_get(in, SR_WOFF, 0) + off / 4);
		return;
	}
	int64_t v = linsn_get(in, SR_IMM, 0) + off;
	linsn_set(in, SR_IMM, in->form->op == SOP_MOV32I ? (int64_t)(uint32_t)v : v);
}

bool lw_shared_relocated(const LowerCtx *c, uint32_t sym)
{
	return c->lm->relocatable && (!c->module_shared[sym].label || c->module_shared[sym].kernel >= 0);
}

int lw_shared_atoms_base(LowerCtx *c, int base)
{
	if (!LW_BASE_IS_SHARED_SYM(base) || !lw_shared_relocated(c, (uint32_t)(BASE_SHARED_SYM0 - base)))
		return base;
	return (int)lw_shared_sym_reg(c, (uint32_t)(BASE_SHARED_SYM0 - base), 0);
}

uint32_t lw_shared_sym_reg(LowerCtx *c, uint32_t sym, int64_t add)
{
	uint32_t r = lw_temp(c, 1);
	LInsn *mov = lw_emit(c, SF_MOV32I);
	linsn_ref(mov, SR_RD, r, 0, 1, true);
	linsn_set(mov, SR_IMM, (uint32_t)add);
	mov->shared_sym = (uint16_t)(sym + 1);
	return r;
}
