/* Constant coordinate offsets of texture fetches (issue 17), found before
 * a body is lowered: ptxas 11.8 -O3 folds `add r, base, imm` into the
 * fetch that reads r as a coordinate (TLDS.LZ.AOFFI, TLD...AOFFI, base as
 * the coordinate, imm in the offsets word) when imm is in -8..7 and that
 * fetch is r's only reader (measured: a second reader of r, a 1D fetch or
 * an offset of 9 keep the add; r twice in one fetch's coordinates, as a
 * 3D fetch's ignored fourth, folds). We fold only an add in the same straight
 * run of instructions as the fetch (no label, block edge or redefinition
 * of r or base between them), so base still holds the value it added;
 * which coordinates may fold is lower_tex.c's choice. */
#include "lower/lower_internal.h"

#include "base/xalloc.h"

#include <stdlib.h>

/* Every register name of e into m (value += 1). */
static void count_names(LMap *m, const Expr *e)
{
	if (!e || e->depth > 64)
		return;
	switch (e->kind) {
	case EX_NAME:
		if (e->text[0] == '%') {
			LMapEntry *x = lmap_find(m, e->text);
			if (x)
				x->value++;
			else
				lmap_put(m, e->text, 1, 0);
		}
		return;
	case EX_UNARY:
		count_names(m, e->lhs);
		return;
	case EX_BINARY:
		count_names(m, e->lhs);
		count_names(m, e->rhs);
		return;
	case EX_VECTOR: case EX_ADDRESS: case EX_LIST: case EX_CALL:
		for (uint32_t i = 0; i < e->nelems; i++)
			count_names(m, e->elems[i]);
		return;
	default:
		return;
	}
}

static int64_t count_of(const LMap *m, const char *name)
{
	const LMapEntry *x = lmap_find(m, name);
	return x ? x->value : 0;
}

/* Reads and writes of every register of the body, blocks included (a
 * shadowed name counts for both: fewer folds, never a wrong one). */
static void count_refs(const Stmt *s, LMap *reads, LMap *writes)
{
	for (; s; s = s->next) {
		if (s->kind == ST_BLOCK) {
			count_refs(s->u.block, reads, writes);
			continue;
		}
		if (s->kind != ST_INSTR)
			continue;
		const Instr *in = &s->u.instr;
		if (in->has_guard)
			count_names(reads, in->guard);
		for (uint32_t i = 0; i < in->nops; i++)
			count_names(i == 0 && lw_writes_first_operand(in) ? writes : reads, in->ops[i]);
	}
}

/* An add this run may fold: dst = base + imm. */
typedef struct Cand {
	const char *dst, *base;
	const Expr *base_expr;
	int imm;
} Cand;

enum { MAX_CANDS = 64 };

/* imm of `add.{s32,u32,b32} d, %base, imm` with imm in -8..7 (unguarded). */
static bool foldable_add(const Instr *in, int *imm)
{
	if (!lw_streq(in->opcode, "add") || in->has_guard || in->nops != 3 || in->nmods != 1)
		return false;
	PtxTy t = lw_instr_type(in);
	const Expr *d = in->ops[0], *a = in->ops[1], *b = in->ops[2];
	if (t.bits != 32 || t.is_float || d->kind != EX_NAME || a->kind != EX_NAME || a->text[0] != '%' ||
	    d->component || a->component)
		return false;
	int64_t v;
	if (b->kind == EX_INT && !b->ival_overflow)
		v = (int64_t)b->ival;
	else if (b->kind == EX_UNARY && b->op == '-' && b->lhs->kind == EX_INT && !b->lhs->ival_overflow &&
	         b->lhs->ival <= 8)
		v = -(int64_t)b->lhs->ival;
	else
		return false;
	if (v < -8 || v > 7)
		return false;
	*imm = (int)v;
	return true;
}

static void drop_named(Cand *c, unsigned *n, const char *name)
{
	for (unsigned i = 0; i < *n;)
		if (lw_streq(c[i].dst, name) || lw_streq(c[i].base, name))
			c[i] = c[--*n];
		else
			i++;
}

/* The register names an instruction writes (its first operand). */
static void drop_writes(Cand *c, unsigned *n, const Expr *e)
{
	if (!e || e->depth > 64)
		return;
	if (e->kind == EX_NAME)
		drop_named(c, n, e->text);
	else if (e->kind == EX_VECTOR || e->kind == EX_LIST)
		for (uint32_t i = 0; i < e->nelems; i++)
			drop_writes(c, n, e->elems[i]);
	else if (e->kind == EX_BINARY) {
		drop_writes(c, n, e->lhs);
		drop_writes(c, n, e->rhs);
	}
}

static void add_fold(LowerCtx *c, const Instr *tex, unsigned elem, const Cand *x)
{
	if (c->ntex_folds == c->tex_folds_cap) {
		c->tex_folds_cap = c->tex_folds_cap ? 2 * c->tex_folds_cap : 8;
		c->tex_folds = xrealloc(c->tex_folds, c->tex_folds_cap * sizeof *c->tex_folds);
	}
	c->tex_folds[c->ntex_folds++] = (LTexFold){ tex, elem, x->base_expr, x->imm };
}

static void scan_run(LowerCtx *c, const Stmt *s, const LMap *reads, const LMap *writes)
{
	Cand cands[MAX_CANDS];
	unsigned n = 0;
	for (; s; s = s->next) {
		if (s->kind == ST_BLOCK) {
			n = 0;
			scan_run(c, s->u.block, reads, writes);
			continue;
		}
		if (s->kind == ST_LABEL)
			n = 0;
		if (s->kind != ST_INSTR)
			continue;
		const Instr *in = &s->u.instr;
		const Expr *a = lw_streq(in->opcode, "tex") && in->nops >= 2 ? in->ops[1] : NULL;
		const Expr *coords = a && a->kind == EX_ADDRESS && a->nelems >= 2 ? a->elems[a->nelems - 1] : NULL;
		LMap here;      /* reads by this instruction: all of r's must be its (3D's w repeats z) */
		lmap_init(&here);
		if (coords)
			count_names(&here, in->ops[1]);
		for (uint32_t e = 0; coords && coords->kind == EX_VECTOR && e < coords->nelems; e++) {
			const Expr *x = coords->elems[e];
			for (unsigned i = 0; x->kind == EX_NAME && !x->component && i < n; i++)
				if (lw_streq(cands[i].dst, x->text) && count_of(reads, x->text) == count_of(&here, x->text) &&
				    count_of(writes, x->text) == 1)
					add_fold(c, in, e, &cands[i]);
		}
		lmap_fini(&here);
		if (lw_writes_first_operand(in))
			drop_writes(cands, &n, in->ops[0]);
		int imm;
		if (foldable_add(in, &imm) && !lw_streq(in->ops[0]->text, in->ops[1]->text) && n < MAX_CANDS)
			cands[n++] = (Cand){ in->ops[0]->text, in->ops[1]->text, in->ops[1], imm };
	}
}

void lw_find_tex_folds(LowerCtx *c, const Stmt *body)
{
	c->ntex_folds = 0;
	LMap reads, writes;
	lmap_init(&reads);
	lmap_init(&writes);
	count_refs(body, &reads, &writes);
	scan_run(c, body, &reads, &writes);
	lmap_fini(&reads);
	lmap_fini(&writes);
}

const LTexFold *lw_tex_fold(const LowerCtx *c, const Instr *tex, unsigned elem)
{
	for (size_t i = 0; i < c->ntex_folds; i++)
		if (c->tex_folds[i].tex == tex && c->tex_folds[i].elem == elem)
			return &c->tex_folds[i];
	return NULL;
}
