/* Variables in the 32-bit shared and local windows: their sizes,
 * alignments and the offsets ptxas 11.8 gives them, and their names as
 * operands.
 *
 * A kernel's stack frame holds its body's .local variables, the most
 * aligned first (the last declared first within one alignment), unused
 * ones too;
 * its size is rounded up to 8 and the kernel starts with R1 -= size. A
 * local variable's address is R1 + its offset.
 *
 * A kernel's static shared memory (.nv.shared.<k>) holds first the .shared
 * variables declared in its body, in declaration order, then the module's
 * .shared variables the kernel names, in declaration order (ones it does
 * not name take no space); each at its alignment (.align, else the
 * element size). Dynamic shared memory (module .extern .shared arrays
 * without a size) starts after them at a 16-byte boundary, which is then
 * the section's size (it may be 0) and alignment; every such variable the
 * kernel names has that offset. ptxas then addresses them as immediates:
 * [sym+off] is [RZ+offset], `mov.u32 r, sym` a MOV32I of the offset.
 * It also records each placed variable's name in .strtab, unused by any
 * symbol: `$__<name>__<line of the declaration>` for a body variable,
 * `$<kernel>$<name>` for a module one. */
#include "lower/lower_internal.h"
#include "lower/regalloc.h"

#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool spec_has(const VarDecl *d, const char *word)
{
	for (uint32_t i = 0; i < d->nspecs; i++)
		if (strcmp(d->specs[i].word, word) == 0)
			return true;
	return false;
}

bool lw_var_layout(LowerCtx *c, const VarDecl *d, uint32_t i, uint32_t *size, uint32_t *align)
{
	unsigned elem = 0, vec = spec_has(d, ".v4") ? 4 : spec_has(d, ".v2") ? 2 : 1;
	*align = 0;
	for (uint32_t s = 0; s < d->nspecs; s++) {
		PtxTy t = ptx_type_of_word(d->specs[s].word);
		if (t.bits >= 8)
			elem = t.bits / 8;
		if (strcmp(d->specs[s].word, ".align") == 0 && d->specs[s].has_value)
			*align = (uint32_t)d->specs[s].value;
	}
	const Declarator *dc = &d->decls[i];
	if (elem == 0)
		return lw_unsupported(c, dc->loc, "variable '%s' of this type (8- to 64-bit integer and "
		                      "float types are supported)", dc->name);
	uint64_t n = (uint64_t)elem * vec;
	for (uint32_t q = 0; q < dc->ndims; q++) {
		if (dc->dims[q] < 0)
			return lw_unsupported(c, dc->loc, "variable '%s' without a size (of unsized arrays, "
			                      "dynamic .extern .shared memory is supported; not a variadic "
			                      "function's .param array)", dc->name);
		n *= (uint64_t)dc->dims[q];
	}
	if (n > 0xffffff)
		return lw_unsupported(c, dc->loc, "variable '%s' of %llu bytes (beyond the 24-bit "
		                      "address offsets)", dc->name, (unsigned long long)n);
	if (dc->init)
		return lw_unsupported(c, dc->loc, "an initialiser on .shared variable '%s'", dc->name);
	*size = (uint32_t)n;
	if (*align == 0)
		*align = elem * vec;
	return true;
}

/* `.extern .shared .b8 name[]`: dynamic shared memory. */
static bool is_dynamic(const VarDecl *d, uint32_t i)
{
	const Declarator *dc = &d->decls[i];
	return spec_has(d, ".extern") && dc->ndims == 1 && dc->dims[0] < 0;
}

void lw_module_shared_add(LowerCtx *c, const VarDecl *d)
{
	for (uint32_t i = 0; i < d->ndecls; i++) {
		uint32_t size = 0, align = 0;
		if (!is_dynamic(d, i) && !lw_var_layout(c, d, i, &size, &align))
			continue;
		/* names are interned: they outlive the item */
		lw_shared_var_append(c, (LSharedVar){ d->decls[i].name, size, align, NULL, -1, (uint32_t)c->lm->nvars });
	}
}

size_t lw_shared_var_append(LowerCtx *c, LSharedVar v)
{
	if (c->nmodule_shared == c->module_shared_cap) {
		c->module_shared_cap = c->module_shared_cap ? 2 * c->module_shared_cap : 8;
		c->module_shared = xrealloc(c->module_shared, c->module_shared_cap * sizeof *c->module_shared);
	}
	c->module_shared[c->nmodule_shared] = v;
	return c->nmodule_shared++;
}

static void record_string(LKernel *k, const char *a, const char *b, const char *c, const char *d)
{
	size_t n = strlen(a) + strlen(b) + strlen(c) + strlen(d) + 1;
	char *str = xmalloc(n);
	snprintf(str, n, "%s%s%s%s", a, b, c, d);
	k->shared_strings = xrealloc(k->shared_strings, (k->nshared_strings + 1) * sizeof *k->shared_strings);
	k->shared_strings[k->nshared_strings++] = str;
}

uint32_t lw_shared_alloc(LKernel *k, uint32_t size, uint32_t align)
{
	uint32_t off = (k->shared_size + align - 1) / align * align;
	k->shared_size = off + size;
	if (align > k->shared_align)
		k->shared_align = align;
	return off;
}

void lw_shared_record(LKernel *k, const LSharedVar *v)
{
	if (v->label)
		record_string(k, "$", k->name, "$", v->label);
	else
		record_string(k, "$", k->name, "$", v->name);
}

static void place(LowerCtx *c, const char *name, uint32_t size, uint32_t align)
{
	lmap_put(&c->vars, name, lw_shared_alloc(c->k, size, align), LVAR_SHARED);
}

/* The kernel's offset of module_shared[i], for the functions it links. */
static void place_sym(LKernel *k, size_t i, uint32_t off)
{
	k->shared_sym_at[i] = off + 1;
}

void lw_body_shared_add(LowerCtx *c, const VarDecl *d)
{
	for (uint32_t i = 0; i < d->ndecls; i++) {
		uint32_t size, align;
		if (!lw_var_layout(c, d, i, &size, &align))
			continue;
		char line[24];
		snprintf(line, sizeof line, "__%u", (unsigned)d->decls[i].loc.first_line);
		if (c->lm->relocatable) {
			/* -c: the linker's to place in .nv.shared.<k>, named
			 * `$__<name>__<line>` (ptxas -c's symbol) and relocated */
			size_t n = strlen(d->decls[i].name) + sizeof line + 4;
			char *label = xmalloc(n);
			snprintf(label, n, "$__%s%s", d->decls[i].name, line);
			size_t at = lw_shared_var_append(c, (LSharedVar){ d->decls[i].name, size, align, label,
			                                                  (int32_t)(c->k - c->lm->kernels), 0 });
			LMapEntry *e = lmap_put(&c->vars, d->decls[i].name, (int64_t)at, LVAR_SHARED_SYM);
			e->value = (int64_t)at;
			e->extra = LVAR_SHARED_SYM;
			continue;
		}
		place(c, d->decls[i].name, size, align);
		record_string(c->k, "$__", d->decls[i].name, line, "");
	}
}

static void mark_names(const Expr *e, LMap *named)
{
	if (!e)
		return;
	switch (e->kind) {
	case EX_NAME:
		lmap_put(named, e->text, 0, 0);
		return;
	case EX_UNARY: case EX_FIELD:
		mark_names(e->lhs, named);
		return;
	case EX_BINARY:
		mark_names(e->lhs, named);
		mark_names(e->rhs, named);
		return;
	case EX_VECTOR: case EX_ADDRESS: case EX_LIST: case EX_CALL:
		for (uint32_t i = 0; i < e->nelems; i++)
			mark_names(e->elems[i], named);
		return;
	default:
		return;
	}
}

static void named_in(const Stmt *s, LMap *named)
{
	for (; s; s = s->next) {
		if (s->kind == ST_BLOCK)
			named_in(s->u.block, named);
		else if (s->kind == ST_INSTR)
			for (uint32_t i = 0; i < s->u.instr.nops; i++)
				mark_names(s->u.instr.ops[i], named);
	}
}

/* Marks (mark[i]) the module_shared variables of the functions named in a
 * kernel's body (LFunc.shared_syms), so that the kernel lays them out
 * with its own. */
static void kernel_shared_callees(const LowerCtx *c, const LMap *named, bool *mark)
{
	for (size_t j = 0; j < c->nfuncs; j++) {
		const LFunc *g = &c->funcs[j];
		if (lmap_find(named, g->name))
			for (size_t q = 0; q < g->nshared_syms; q++)
				mark[g->shared_syms[q]] = true;
	}
}

void lw_module_shared_place(LowerCtx *c, const Stmt *body)
{
	if (c->nmodule_shared == 0)
		return;
	LKernel *k = c->k;
	LMap named;
	lmap_init(&named);
	named_in(body, &named);
	/* varaddr: with those the functions it calls name (as ptxas 11.8 lays
	 * them out: all in declaration order) */
	bool *callee = xcalloc(c->nmodule_shared, sizeof *callee);
	kernel_shared_callees(c, &named, callee);
	k->shared_sym_at = xcalloc(c->nmodule_shared, sizeof *k->shared_sym_at);
	k->nshared_sym_at = c->nmodule_shared;
	bool dynamic = false;
	for (size_t i = 0; i < c->nmodule_shared; i++) {
		const LSharedVar *v = &c->module_shared[i];
		/* a body declaration of the same name hides the module's */
		bool by_name = !v->label && lmap_find(&named, v->name) && !lmap_find(&c->vars, v->name);
		if (!by_name && !callee[i])
			continue;
		if (c->lm->relocatable && !v->label) {
			/* -c: the linker places it; the code names it (a relocation) */
			if (by_name)
				lmap_put(&c->vars, v->name, (int64_t)i, LVAR_SHARED_SYM);
			continue;
		}
		if (v->align) {
			uint32_t off = lw_shared_alloc(k, v->size, v->align);
			if (by_name)
				lmap_put(&c->vars, v->name, off, LVAR_SHARED);
			place_sym(k, i, off);
			lw_shared_record(k, v);
		} else {
			dynamic = true;
		}
	}
	if (dynamic) {
		k->shared_size = (k->shared_size + 15) / 16 * 16;
		if (k->shared_align < 16)
			k->shared_align = 16;
		k->shared_dynamic = true;
		for (size_t i = 0; i < c->nmodule_shared; i++) {
			const LSharedVar *v = &c->module_shared[i];
			bool by_name = !v->label && lmap_find(&named, v->name) && !lmap_find(&c->vars, v->name);
			if (v->align == 0 && (by_name || callee[i]) && !(c->lm->relocatable && !v->label)) {
				if (by_name)
					lmap_put(&c->vars, v->name, k->shared_size, LVAR_SHARED);
				place_sym(k, i, k->shared_size);
				lw_shared_record(k, v);
			}
		}
	}
	free(callee);
	lmap_fini(&named);
}

void lw_body_local_add(LowerCtx *c, const VarDecl *d)
{
	for (uint32_t i = 0; i < d->ndecls; i++) {
		uint32_t size, align;
		if (!lw_var_layout(c, d, i, &size, &align))
			continue;
		c->locals = xrealloc(c->locals, (c->nlocals + 1) * sizeof *c->locals);
		c->locals[c->nlocals++] = (LLocalVar){ d->decls[i].name, size, align };
	}
}

void lw_frame_place(LowerCtx *c)
{
	uint32_t off = 0, align = 1u << 31, frame_align = 8;
	/* alignments are powers of two: walk them from the largest down */
	for (; align; align >>= 1)
		for (size_t i = c->nlocals; i-- > 0;) {
			const LLocalVar *v = &c->locals[i];
			if (v->align != align)
				continue;
			if (align > frame_align)
				frame_align = align;
			off = (off + align - 1) / align * align;
			lmap_put(&c->vars, v->name, off, LVAR_LOCAL);
			off += v->size;
		}
	/* The frame keeps its largest alignment: R1 is the stack pointer less
	 * the frame, and a variable at R1+0 aligned to 16 needs a frame that is
	 * a multiple of 16 (as ptxas 11.8 sizes it; the simulator found the
	 * misaligned STL.128 of a 0x48-byte frame). */
	c->k->frame_size = (off + frame_align - 1) / frame_align * frame_align;
	free(c->locals);
	c->locals = NULL;
	c->nlocals = 0;
}

/* ---- a function's .param whose address is taken ---- */

/* Whether an instruction in s (blocks included) names `name` as a value
 * (`mov.b64 %rd, f_param_0`), not inside [ ]. */
static bool names_as_value(const Stmt *s, const char *name)
{
	for (; s; s = s->next) {
		if (s->kind == ST_BLOCK && names_as_value(s->u.block, name))
			return true;
		if (s->kind != ST_INSTR)
			continue;
		const Instr *in = &s->u.instr;
		for (uint32_t i = 1; i < in->nops; i++)
			if (in->ops[i]->kind == EX_NAME && strcmp(in->ops[i]->text, name) == 0)
				return true;
	}
	return false;
}

void lw_param_addr_locals(LowerCtx *c, const Func *f)
{
	for (uint32_t i = 0; i < f->nparams; i++) {
		const VarDecl *d = &f->params[i];
		if (!spec_has(d, ".param") || lw_param_is_vararg(f, i))     /* its address is a word (lower_vararg.c) */
			continue;
		for (uint32_t j = 0; j < d->ndecls; j++)
			if (names_as_value(f->body, d->decls[j].name)) {
				uint32_t size, align;
				if (!lw_var_layout(c, d, j, &size, &align))
					continue;
				/* whole words: lw_param_addr_store copies word by word */
				size = (size + 3) / 4 * 4;
				align = align < 4 ? 4 : align;
				c->locals = xrealloc(c->locals, (c->nlocals + 1) * sizeof *c->locals);
				c->locals[c->nlocals++] = (LLocalVar){ d->decls[j].name, size, align };
			}
	}
}

void lw_param_addr_store(LowerCtx *c, const Func *f)
{
	for (uint32_t i = 0; i < f->nparams; i++)
		for (uint32_t j = 0; j < f->params[i].ndecls; j++) {
			const char *name = f->params[i].decls[j].name;
			const LMapEntry *v = lmap_find(&c->vars, name), *p = lmap_find(&c->pregs, name);
			if (!v || v->extra != LVAR_LOCAL || !p)
				continue;
			for (uint32_t w = 0; w < (uint32_t)p->extra / 4; w++) {
				int64_t off = v->value + 4 * w;
				LInsn *st = lw_emit(c, SF_STL);
				linsn_set(st, SR_RA, REGALLOC_STACK_REG);     /* [R1 + off] */
				st->stack_reg = LSTACK_READ;
				linsn_ref(st, SR_RB, (uint32_t)p->value + w, 0, 1, false);
				linsn_set(st, SR_SIZE, sass_size_code(4));
				linsn_set(st, SR_IMM, off);
			}
		}
}
