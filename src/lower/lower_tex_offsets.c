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
#include <string.h>

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

/* ---- PTX's explicit offsets operand (tex/tld4 ..., e) ----
 * ptxas 11.8 (-O0 and -O3) packs e = {x, y, z} into one word: x whole,
 * then BFI inserts y's low field at 4 (0x404) and z's at 8 (0x408); tld4's
 * fields are 6 bits a byte apart (0x608). Immediates fold to one MOV32I of
 * the same value (-O3: {-1, 2} is 0xffffff2f, x's high bits kept). TXD
 * takes the word's 12 bits at bit 16 (BFI t, w, 0xc10, RZ). Only the
 * geometry's components are read (3D's fourth element is not). */
enum { RZ_REG = 255 };

static uint32_t bfi(uint32_t into, uint32_t v, unsigned pos, unsigned len)
{
	uint32_t mask = ((1u << len) - 1) << pos;
	return (into & ~mask) | (v << pos & mask);
}

static void emit_bfi(LowerCtx *c, uint32_t dv, unsigned ds, uint32_t av, unsigned as, unsigned pos, unsigned len,
                     bool rc_zero, uint32_t cv, unsigned cs)
{
	LInsn *b = lw_emit(c, SF_BFI_I);
	linsn_set(b, SR_CC, 0);
	linsn_ref(b, SR_RA, av, as, 1, false);
	linsn_set(b, SR_IMM, len << 8 | pos);
	if (rc_zero)
		linsn_set(b, SR_RC, RZ_REG);
	else
		linsn_ref(b, SR_RC, cv, cs, 1, false);
	linsn_ref(b, SR_RD, dv, ds, 1, true);
}

bool lw_tex_offset_word(LowerCtx *c, const Expr *e, unsigned ncomp, unsigned bits, bool shift16, uint32_t vreg,
                        unsigned sub)
{
	const Expr *const *elems = (const Expr *const *)&e;
	unsigned n = 1;
	if (e->kind == EX_VECTOR) {
		elems = (const Expr *const *)e->elems;
		n = e->nelems;
	}
	if (n < ncomp)
		return lw_unsupported(c, e->loc, "an offsets vector of %u elements (this geometry takes %u)", n, ncomp);
	unsigned stride = bits == 6 ? 8 : 4;
	Opnd o[3];
	memset(o, 0, sizeof o);
	bool all_imm = true;
	for (unsigned i = 0; i < ncomp && i < 3; i++) {
		if (!lw_opnd(c, elems[i], &o[i]))
			return false;
		if (o[i].kind == OPND_REG && o[i].width != 1)
			return lw_unsupported(c, elems[i]->loc, "a 64-bit texture offset");
		if (o[i].kind != OPND_IMM && o[i].kind != OPND_REG)
			return lw_unsupported(c, elems[i]->loc, "this texture offset");
		all_imm &= o[i].kind == OPND_IMM;
	}
	if (all_imm) {
		uint32_t w = (uint32_t)o[0].imm;
		for (unsigned i = 1; i < ncomp; i++)
			w = bfi(w, (uint32_t)o[i].imm, stride * i, bits);
		lw_mov32i(c, vreg, sub, shift16 ? (w & 0xfff) << 16 : w);
		return true;
	}
	/* registers: x into the word, then each further field inserted */
	uint32_t wv = shift16 ? lw_temp(c, 1) : vreg;
	unsigned ws = shift16 ? 0 : sub;
	if (o[0].kind == OPND_IMM)
		lw_mov32i(c, wv, ws, (uint32_t)o[0].imm);
	else
		lw_mov(c, wv, ws, o[0].vreg, 0);
	for (unsigned i = 1; i < ncomp; i++) {
		uint32_t fv = o[i].vreg;
		if (o[i].kind == OPND_IMM) {
			fv = lw_temp(c, 1);
			lw_mov32i(c, fv, 0, (uint32_t)o[i].imm);
		}
		emit_bfi(c, wv, ws, fv, 0, stride * i, bits, false, wv, ws);
	}
	if (shift16)
		emit_bfi(c, vreg, sub, wv, ws, 16, 12, true, 0, 0);
	return true;
}
