/* issue 15: vector registers (`.reg .v2 .f32 %v;`, `.reg .v4 .u32 v;`).
 * ptxas 11.8 keeps no vector in a register: its code for a vector register
 * is the code of its elements as scalar registers (measured: golden
 * vecreg-*). So the lowering declares each element as a scalar register of
 * its own, named `v.x`, `v.y`, `v.z`, `v.w`, and rewrites each
 * instruction before lowering it: an element operand (`v.y`, or `v.g` in
 * the .r/.g/.b/.a spelling) names its register, the whole vector is the
 * brace list of its elements (`ld.v4.u32 v, [a]` is `ld.v4.u32
 * {v.x, v.y, v.z, v.w}, [a]`), spliced into a call's ( ... ) list. A
 * function's vector .reg parameter is its elements' .reg parameters in
 * order, so a call binds them one by one. `mov.v2`/`mov.v4` between two
 * brace lists copies element by element, every source read first. */
#include "lower/lower_internal.h"

#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const elem_suffix[4] = { ".x", ".y", ".z", ".w" };

static unsigned decl_vec(const VarDecl *d)
{
	for (uint32_t i = 0; i < d->nspecs; i++) {
		if (strcmp(d->specs[i].word, ".v2") == 0)
			return 2;
		if (strcmp(d->specs[i].word, ".v4") == 0)
			return 4;
	}
	return 1;
}

static const char *elem_name(LowerCtx *c, const char *name, unsigned i)
{
	size_t n = strlen(name) + 3;
	char *s = lw_own(c, xmalloc(n));
	snprintf(s, n, "%s%s", name, elem_suffix[i]);
	return s;
}

VarDecl *lw_vecreg_split(LowerCtx *c, const VarDecl *d, uint32_t block, unsigned *n)
{
	*n = decl_vec(d);
	if (*n == 1)
		return NULL;
	VarDecl *out = lw_own(c, xcalloc(*n, sizeof *out));
	DeclSpec *specs = lw_own(c, xcalloc(d->nspecs, sizeof *specs));
	uint32_t ns = 0;
	for (uint32_t i = 0; i < d->nspecs; i++)
		if (strcmp(d->specs[i].word, ".v2") != 0 && strcmp(d->specs[i].word, ".v4") != 0)
			specs[ns++] = d->specs[i];
	for (unsigned k = 0; k < *n; k++) {
		out[k].loc = d->loc;
		out[k].nspecs = ns;
		out[k].specs = specs;
		out[k].ndecls = d->ndecls;
		out[k].decls = lw_own(c, xcalloc(d->ndecls ? d->ndecls : 1, sizeof *out[k].decls));
	}
	for (uint32_t i = 0; i < d->ndecls; i++) {
		const Declarator *dc = &d->decls[i];
		if (dc->range >= 0 || dc->ndims || dc->init)
			lw_unsupported(c, dc->loc, "vector register '%s' declared as a range, array or with an "
			               "initialiser (single vector registers are supported)", dc->name);
		lmap_put(&c->vecregs, lw_scoped_name(c, dc->name, block), *n, 0);
		for (unsigned k = 0; k < *n; k++) {
			out[k].decls[i] = *dc;
			out[k].decls[i].name = elem_name(c, dc->name, k);
			out[k].decls[i].range = -1;
			out[k].decls[i].ndims = 0;
			out[k].decls[i].init = NULL;
		}
	}
	return out;
}

/* The vector register `name` visible here (innermost block first): its
 * element count, 0 when it names none. */
static unsigned find_vec(const LowerCtx *c, const char *name)
{
	char key[280];
	for (unsigned i = c->nscope; i-- > 0;) {
		snprintf(key, sizeof key, "%s@%u", name, (unsigned)c->scope[i]);
		const LMapEntry *e = lmap_find(&c->vecregs, key);
		if (e)
			return (unsigned)e->value;
	}
	const LMapEntry *e = lmap_find(&c->vecregs, name);
	return e ? (unsigned)e->value : 0;
}

/* .x/.r 0, .y/.g 1, .z/.b 2, .w/.a 3; -1 for anything else. */
static int comp_index(const char *comp)
{
	static const char xyzw[] = "xyzw", rgba[] = "rgba";
	if (comp[0] != '.' || comp[1] == '\0' || comp[2] != '\0')
		return -1;
	for (int i = 0; i < 4; i++)
		if (comp[1] == xyzw[i] || comp[1] == rgba[i])
			return i;
	return -1;
}

static Expr *new_expr(LowerCtx *c, const Expr *like)
{
	Expr *e = lw_own(c, xmalloc(sizeof *e));
	*e = *like;
	return e;
}

static Expr *elem_expr(LowerCtx *c, const Expr *v, unsigned i)
{
	Expr *e = new_expr(c, v);
	e->component = NULL;
	e->text = elem_name(c, v->text, i);
	return e;
}

static Expr *rewrite(LowerCtx *c, Expr *e);

/* The elements of a list, each rewritten; a whole vector register in a
 * ( ... ) list (splice) is its elements there. */
static Expr **rewrite_elems(LowerCtx *c, Expr *e, bool splice, uint32_t *n, bool *changed)
{
	uint32_t cap = 0;
	for (uint32_t i = 0; i < e->nelems; i++) {
		const Expr *x = e->elems[i];
		unsigned nv = splice && x->kind == EX_NAME && !x->component ? find_vec(c, x->text) : 0;
		cap += nv ? nv : 1;
	}
	Expr **out = lw_own(c, xcalloc(cap ? cap : 1, sizeof *out));
	*n = 0;
	*changed = cap != e->nelems;
	for (uint32_t i = 0; i < e->nelems; i++) {
		Expr *x = e->elems[i];
		unsigned nv = splice && x->kind == EX_NAME && !x->component ? find_vec(c, x->text) : 0;
		for (unsigned k = 0; k < nv; k++)
			out[(*n)++] = elem_expr(c, x, k);
		if (nv)
			continue;
		out[*n] = rewrite(c, x);
		*changed |= out[*n] != x;
		(*n)++;
	}
	return out;
}

/* e with every vector register rewritten (e itself when it names none). */
static Expr *rewrite(LowerCtx *c, Expr *e)
{
	switch (e->kind) {
	case EX_NAME: {
		unsigned nv = find_vec(c, e->text);
		if (nv == 0)
			return e;
		if (e->component) {
			int i = comp_index(e->component);
			if (i < 0 || (unsigned)i >= nv) {
				lw_unsupported(c, e->loc, "element '%s' of vector register '%s' (it has %u)", e->component,
				               e->text, nv);
				return e;
			}
			return elem_expr(c, e, (unsigned)i);
		}
		Expr *v = new_expr(c, e);
		v->kind = EX_VECTOR;
		v->text = NULL;
		v->component = NULL;
		v->nelems = nv;
		v->elems = lw_own(c, xcalloc(nv, sizeof *v->elems));
		for (unsigned k = 0; k < nv; k++)
			v->elems[k] = elem_expr(c, e, k);
		return v;
	}
	case EX_UNARY:
	case EX_BINARY: {
		Expr *l = rewrite(c, e->lhs), *r = e->kind == EX_BINARY ? rewrite(c, e->rhs) : NULL;
		if (l == e->lhs && r == e->rhs)
			return e;
		Expr *x = new_expr(c, e);
		x->lhs = l;
		x->rhs = r;
		return x;
	}
	case EX_VECTOR:
	case EX_ADDRESS:
	case EX_LIST: {
		bool changed;
		uint32_t n;
		Expr **elems = rewrite_elems(c, e, e->kind == EX_LIST, &n, &changed);
		if (!changed)
			return e;
		Expr *x = new_expr(c, e);
		x->elems = elems;
		x->nelems = n;
		return x;
	}
	default:
		return e;
	}
}

const Instr *lw_vecreg_instr(LowerCtx *c, const Instr *in)
{
	if (c->vecregs.count == 0)
		return in;
	Expr **ops = NULL;
	for (uint32_t i = 0; i < in->nops; i++) {
		Expr *x = rewrite(c, in->ops[i]);
		if (x == in->ops[i] && !ops)
			continue;
		if (!ops) {
			ops = lw_own(c, xcalloc(in->nops, sizeof *ops));
			memcpy(ops, in->ops, in->nops * sizeof *ops);
		}
		ops[i] = x;
	}
	if (!ops)
		return in;
	Instr *out = lw_own(c, xmalloc(sizeof *out));
	*out = *in;
	out->ops = ops;
	return out;
}

bool lw_mov_vector(LowerCtx *c, const Instr *in, unsigned n)
{
	const Expr *dst = in->ops[0], *src = in->ops[1];
	if (dst->kind != EX_VECTOR || src->kind != EX_VECTOR || dst->nelems != n || src->nelems != n)
		return lw_unsupported(c, in->loc, "mov.v%u other than between two lists of %u registers", n, n);
	/* every source into a temporary first: the lists may overlap
	 * ({a, b} <- {b, a}); the allocator joins the copies it can */
	uint32_t tmp[4], d[4];
	unsigned w[4], dw;
	for (unsigned i = 0; i < n; i++) {
		Opnd s;
		memset(&s, 0, sizeof s);
		if (!lw_opnd(c, src->elems[i], &s))
			return false;
		w[i] = s.kind == OPND_REG ? s.width : lw_instr_type(in).bits == 64 ? 2 : 1;
		tmp[i] = lw_temp(c, w[i]);
		lw_copy_value(c, tmp[i], &s, w[i]);
	}
	for (unsigned i = 0; i < n; i++) {
		if (dst->elems[i]->kind == EX_NAME && strcmp(dst->elems[i]->text, "_") == 0)
			continue;
		if (!lw_reg(c, dst->elems[i], &d[i], &dw))
			return false;
		for (unsigned q = 0; q < dw && q < w[i]; q++)
			lw_mov(c, d[i], q, tmp[i], q);
	}
	return true;
}
