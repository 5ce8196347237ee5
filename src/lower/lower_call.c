/* Device functions and direct calls (issue 15).
 *
 * A .func is lowered once, when its body is read, into a fragment: code
 * with its own virtual registers whose parameters and results are vregs
 * (ld.param/st.param of them are register copies) and whose `ret` is RET.
 * A call copies its argument block into placeholder vregs, CALs, and
 * copies the result placeholders out. Linking a kernel appends the
 * fragments it calls (transitively, each once) after its code, as ptxas
 * places a kernel's internal functions in its .text, points every CAL at
 * its callee and renames the placeholders to the callee's parameter and
 * result vregs. The register allocator sees CAL as a jump to the callee
 * and RET as a jump to every return site, so a value live across a call
 * is live through the callee and no register needs saving. A recursive
 * function is placed once too; its body reads its parameters only through
 * copies made at its entry (a call of itself writes them), and every call
 * of it saves the values live across the call on the stack below R1
 * (call_save.c), since its own invocation reuses its registers. */
#include "lower/lower_internal.h"
#include "lower/pred_spill.h"

#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- register-held .param variables ----------------------------------------- */

static PtxTy param_type(const VarDecl *d, bool *vec, bool *opaque)
{
	PtxTy t = { 0 };
	*vec = *opaque = false;
	for (uint32_t i = 0; i < d->nspecs; i++) {
		const char *w = d->specs[i].word;
		PtxTy u = ptx_type_of_word(w);
		if (u.bits)
			t = u;
		*vec |= strcmp(w, ".v2") == 0 || strcmp(w, ".v4") == 0;
		*opaque |= strcmp(w, ".surfref") == 0 || strcmp(w, ".texref") == 0 || strcmp(w, ".samplerref") == 0 ||
		           strcmp(w, ".ptr") == 0;
	}
	return t;
}

/* A .param held in registers is one 32-bit vreg per word, consecutive
 * ids from the returned one (an access of any width at a word boundary is
 * then a copy per word). */
static uint32_t preg_words(LKernel *k, uint32_t words)
{
	uint32_t first = lkernel_new_vreg(k, LRC_GPR, 1, false);
	for (uint32_t i = 1; i < words; i++)
		lkernel_new_vreg(k, LRC_GPR, 1, false);
	return first;
}

void lw_param_regs_declare(LowerCtx *c, const VarDecl *d, uint32_t block, uint32_t **order, uint32_t *n)
{
	bool vec, opaque;
	PtxTy t = param_type(d, &vec, &opaque);
	for (uint32_t i = 0; i < d->ndecls; i++) {
		const Declarator *dc = &d->decls[i];
		uint32_t bytes = t.bits / 8;
		bool unsized = false;
		for (uint32_t q = 0; q < dc->ndims; q++) {
			bytes *= dc->dims[q] > 0 ? (uint32_t)dc->dims[q] : 0;
			unsized |= dc->dims[q] < 0;
		}
		/* byte arrays (llc's aggregates) take whole registers; an
		 * unsized array (`.param .b32 a[]`) has no words: a call
		 * passing anything to it, or an access, is diagnosed */
		bytes = (bytes + 3) / 4 * 4;
		bool wide = bytes > 4 * LPARAM_MAX_WORDS;
		if (wide && !vec && !opaque && t.bits != 1 && c->declaring) {
			if (!c->declaring->wide_param) {           /* refused if a kernel links it */
				c->declaring->wide_param = dc->name;
				c->declaring->wide_param_loc = dc->loc;
			}
		} else if (vec || opaque || t.bits == 1 || (bytes == 0 && !unsized) || wide) {
			lw_unsupported(c, dc->loc, ".param '%s' of this type in a call (scalars and arrays of up to "
			               "%d bytes are supported)", dc->name, 4 * LPARAM_MAX_WORDS);
			bytes = 4;
		}
		const char *key = lw_scoped_name(c, dc->name, block);
		if (lmap_find(&c->pregs, key)) {
			lw_unsupported(c, dc->loc, ".param '%s' declared twice in one block", dc->name);
			continue;
		}
		uint32_t v = preg_words(c->k, bytes / 4);
		lmap_put(&c->pregs, key, v, bytes);
		if (order) {
			*order = xrealloc(*order, (*n + 2) * sizeof **order);
			(*order)[(*n)++] = v;
			(*order)[(*n)++] = bytes / 4;
		}
	}
}

/* ---- .reg parameters and results of a function -------------------------------- */

typedef struct LRegParam {
	const VarDecl *decl;
	uint32_t words;         /* the first of its 32-bit word vregs */
	uint32_t nwords;
	bool result;
	bool pred;              /* a .pred one: its word is 0 or 0xffffffff */
} LRegParam;

/* A .pred parameter or result crosses a call in a word (ptxas 11.8
 * disables its ABI for such a function and passes it as it likes): PSET
 * w = p ? 0xffffffff : 0 on one side, ISETP.NE p = w != 0 on the other,
 * the pair pred_spill.c keeps predicates in registers with. */
static void pred_to_word(LowerCtx *c, uint32_t w, uint32_t p)
{
	pred_word_store(lw_emit(c, SF_PSET), w, p);
}

static void word_to_pred(LowerCtx *c, uint32_t p, uint32_t w)
{
	pred_word_load(lw_emit(c, SF_ISETP_R), p, w);
}

void lw_reg_param_declare(LowerCtx *c, const VarDecl *d, bool result, uint32_t **order, uint32_t *n)
{
	bool vec, opaque;
	PtxTy t = param_type(d, &vec, &opaque);
	if (vec || (t.bits < 16 && t.bits != 1) || d->ndecls != 1 || d->decls[0].ndims) {
		lw_unsupported(c, d->loc, "this .reg parameter (a scalar .pred or register of 16 to 64 bits is "
		               "supported)");
		return;
	}
	uint32_t nw = t.bits == 64 ? 2 : 1, v = preg_words(c->k, nw);
	c->reg_params = xrealloc(c->reg_params, (c->nreg_params + 1) * sizeof *c->reg_params);
	c->reg_params[c->nreg_params++] = (LRegParam){ d, v, nw, result, t.bits == 1 };
	*order = xrealloc(*order, (*n + 2) * sizeof **order);
	(*order)[(*n)++] = v;
	(*order)[(*n)++] = nw;
}

/* The body's register of a .reg parameter. */
static bool reg_param_vreg(LowerCtx *c, const LRegParam *p, uint32_t *v)
{
	Expr e;
	memset(&e, 0, sizeof e);
	e.kind = EX_NAME;
	e.text = p->decl->decls[0].name;
	e.loc = p->decl->loc;
	unsigned w;
	return p->pred ? lw_pred(c, &e, v) : lw_reg(c, &e, v, &w);
}

void lw_reg_params_enter(LowerCtx *c)
{
	for (size_t i = 0; i < c->nreg_params; i++) {
		uint32_t v;
		const LRegParam *p = &c->reg_params[i];
		if (!p->result && p->pred && reg_param_vreg(c, p, &v))
			word_to_pred(c, v, p->words);
		else if (!p->result && reg_param_vreg(c, p, &v))
			for (uint32_t q = 0; q < p->nwords; q++)
				lw_mov(c, v, q, p->words + q, 0);
	}
}

void lw_reg_results_leave(LowerCtx *c)
{
	for (size_t i = 0; i < c->nreg_params; i++) {
		uint32_t v;
		const LRegParam *p = &c->reg_params[i];
		if (p->result && p->pred && reg_param_vreg(c, p, &v))
			pred_to_word(c, p->words, v);
		else if (p->result && reg_param_vreg(c, p, &v))
			for (uint32_t q = 0; q < p->nwords; q++)
				lw_mov(c, p->words + q, 0, v, q);
	}
}

/* The register-held .param `name` visible here (innermost block first). */
static const LMapEntry *find_preg(const LowerCtx *c, const char *name)
{
	char key[280];
	for (unsigned i = c->nscope; i-- > 0;) {
		snprintf(key, sizeof key, "%s@%u", name, (unsigned)c->scope[i]);
		const LMapEntry *e = lmap_find(&c->pregs, key);
		if (e)
			return e;
	}
	return lmap_find(&c->pregs, name);
}

/* [name] or [name+imm] of an ld/st operand naming a register-held .param,
 * else NULL; *off: the byte offset, -1 when it is no constant. */
static const LMapEntry *preg_address(const LowerCtx *c, const Expr *a, const Expr **name, int64_t *off)
{
	if (a->kind != EX_ADDRESS || a->nelems != 1)
		return NULL;
	const Expr *e = a->elems[0];
	*off = 0;
	if (e->kind == EX_BINARY && (e->op == '+' || e->op == '-') && e->lhs->kind == EX_NAME) {
		if (!expr_const_int(e->rhs, off))
			*off = -1;
		else if (e->op == '-')
			*off = -*off;
		e = e->lhs;
	}
	if (e->kind != EX_NAME)
		return NULL;
	*name = e;
	return find_preg(c, e->text);
}

/* The registers of an ld/st data operand: one element or a { } vector. */
static unsigned data_elems(const Expr *e, const Expr **elems)
{
	if (e->kind != EX_VECTOR) {
		elems[0] = e;
		return 1;
	}
	unsigned n = e->nelems < 4 ? e->nelems : 4;
	for (unsigned i = 0; i < n; i++)
		elems[i] = e->elems[i];
	return n;
}

bool lw_param_reg_access(LowerCtx *c, const Instr *in)
{
	bool ld = lw_streq(in->opcode, "ld");
	if ((!ld && !lw_streq(in->opcode, "st")) || !lw_has_mod(in, ".param") || in->nops != 2)
		return false;
	const Expr *addr = in->ops[ld ? 1 : 0], *name = NULL;
	int64_t off;
	const LMapEntry *p = preg_address(c, addr, &name, &off);
	if (!p)
		return false;
	PtxTy t = lw_instr_type(in);
	const Expr *elems[4];
	unsigned n = data_elems(in->ops[ld ? 0 : 1], elems), parts = t.bits < 32 ? 1 : t.bits / 32;
	unsigned stride = t.bits / 8;
	/* elements of 32 or 64 bits at word boundaries; 8/16-bit ones within
	 * a word (lower_param_bytes.c). An offset off its alignment (llc 14's
	 * packed structs by value: a .b16 at byte 3, a .b32 at byte 1) is
	 * undefined in PTX; we do what ptxas 11.8's code does (sim-diff): a
	 * .b32 is the word the offset falls in (`[a+1]` reads word 0), a .b64
	 * the pair of its 8 bytes, a .b16 at byte 3 of a word is cut at the
	 * word's end (its low byte alone; lw_param_byte_load/store). */
	if (off > 0 && t.bits >= 32 && off % 4)
		off -= off % (t.bits == 64 ? 8 : 4);
	if (t.bits < 8 || off < 0 || (uint64_t)off + n * stride > (uint64_t)p->extra)
		return lw_unsupported(c, in->loc, "this access to .param '%s' held in registers (8- to 64-bit "
		                      "elements within its declared size are supported)", name->text) || true;
	uint32_t preg = (uint32_t)p->value;
	for (unsigned e = 0; t.bits < 32 && e < n; e++) {
		unsigned at = (unsigned)off + e * stride;
		Opnd o;
		memset(&o, 0, sizeof o);
		uint32_t d;
		unsigned w;
		if (ld && !lw_reg(c, elems[e], &d, &w))
			return true;
		if (ld)
			lw_param_byte_load(c, preg + at / 4, at % 4, t, d);
		else if (!lw_opnd(c, elems[e], &o))
			return true;
		else
			lw_param_byte_store(c, preg + at / 4, at % 4, t.bits, &o);
	}
	for (unsigned e = 0; t.bits >= 32 && e < n; e++) {
		unsigned first = (unsigned)off / 4 + e * parts;
		if (ld) {
			uint32_t d;
			unsigned w;
			if (!lw_reg(c, elems[e], &d, &w))
				return true;
			for (unsigned i = 0; i < w && i < parts; i++)
				lw_mov(c, d, i, preg + first + i, 0);
			continue;
		}
		Opnd o;
		memset(&o, 0, sizeof o);
		if (!lw_opnd(c, elems[e], &o))
			return true;
		for (unsigned i = 0; i < parts; i++) {
			uint32_t v;
			unsigned sub;
			lw_opnd_part(c, &o, i, &v, &sub);
			lw_mov(c, preg + first + i, 0, v, sub);
			lw_param_word_stored(c, preg + first + i);
		}
	}
	return true;
}

/* ---- call and ret ---------------------------------------------------------- */

/* The names of a call's ( ... ) list (a bare name is a list of one). */
static bool call_list(LowerCtx *c, const Expr *e, const Expr *const **items, uint32_t *n)
{
	if (e->kind == EX_LIST) {
		*items = (const Expr *const *)e->elems;
		*n = e->nelems;
		return true;
	}
	if (e->kind == EX_NAME) {
		static const Expr *one;
		one = e;
		*items = &one;
		*n = 1;
		return true;
	}
	return lw_unsupported(c, e->loc, "this call operand (a list of .param names is expected)");
}

/* The vreg of each .param named by a call list, as placeholders to be
 * renamed: copies from (args) or to (results) the caller's .param vregs. */
enum { ARG_PARAM, ARG_REG, ARG_PRED };       /* what a call list item names */

static bool call_copies(LowerCtx *c, const Expr *const *items, uint32_t n, bool result, uint32_t *out,
                        uint32_t *from, unsigned char *reg)
{
	for (uint32_t i = 0; i < n; i++) {
		if (result && items[i]->kind == EX_NAME && strcmp(items[i]->text, "_") == 0) {
			/* the sink `_`: a result nobody reads (0 words: bound to
			 * whatever the callee declares) */
			out[2 * i] = 0;
			out[2 * i + 1] = 0;
			from[i] = 0;
			continue;
		}
		const LMapEntry *p = items[i]->kind == EX_NAME ? find_preg(c, items[i]->text) : NULL;
		unsigned w;
		if (!p && items[i]->kind == EX_NAME && lw_reg_bits(c, items[i]) == 1 && lw_pred(c, items[i], &from[i])) {
			/* a predicate (a function's .pred .reg parameters): one word */
			reg[i] = ARG_PRED;
			out[2 * i] = preg_words(c->k, 1);
			out[2 * i + 1] = 1;
			if (!result)
				pred_to_word(c, out[2 * i], from[i]);
			continue;
		}
		if (!p && items[i]->kind == EX_NAME && lw_reg_bits(c, items[i]) >= 16 &&
		    lw_reg(c, items[i], &from[i], &w)) {
			/* a register (a function's .reg parameters): its words */
			reg[i] = ARG_REG;
			out[2 * i] = preg_words(c->k, w);
			out[2 * i + 1] = w;
			if (!result)
				for (unsigned q = 0; q < w; q++)
					lw_mov(c, out[2 * i] + q, 0, from[i], q);
			continue;
		}
		if (!p)
			return lw_unsupported(c, items[i]->loc, "this call argument (a .param variable of the "
			                      "calling block, a .pred or a register of 16 to 64 bits is expected)");
		unsigned words = (unsigned)p->extra / 4;
		out[2 * i] = preg_words(c->k, words);
		out[2 * i + 1] = words;
		from[i] = (uint32_t)p->value;
		if (!result)
			for (unsigned q = 0; q < words; q++)
				lw_mov(c, out[2 * i] + q, 0, from[i] + q, 0);
	}
	return true;
}

/* A call's result word q into the .param's word vreg or the register's part q. */
static void result_copy(LowerCtx *c, uint32_t to, unsigned char reg, unsigned q, uint32_t word)
{
	if (reg == ARG_PRED)
		word_to_pred(c, to, word);
	else if (reg == ARG_REG)
		lw_mov(c, to, q, word, 0);
	else
		lw_mov(c, to + q, 0, word, 0);
}

static bool call_unguarded(LowerCtx *c, const Instr *in)
{
	unsigned at = 0;
	const Expr *const *rets = NULL, *const *args = NULL;
	uint32_t nrets = 0, nargs = 0;
	if (in->ops[0]->kind == EX_LIST && !call_list(c, in->ops[at++], &rets, &nrets))
		return false;
	if (at >= in->nops || in->ops[at]->kind != EX_NAME)
		return lw_unsupported(c, in->loc, "this call (a function name is expected)");
	const Expr *callee = in->ops[at++];
	bool indirect = lw_reg_bits(c, callee) != 0;     /* a register, named with % or not */
	if (at < in->nops && (in->ops[at]->kind == EX_LIST || !indirect) && !call_list(c, in->ops[at++], &args, &nargs))
		return false;
	if (indirect && at + 1 == in->nops && in->ops[at]->kind == EX_NAME)
		at++;       /* the .callprototype label: the candidates are matched by their .params */
	if (at < in->nops)
		return lw_unsupported(c, in->ops[at]->loc, "calls with a list of call targets");
	uint32_t *v = xcalloc(2 * (nargs + nrets) + 1, sizeof *v), *from = xcalloc(nargs + nrets + 1, sizeof *from);
	unsigned char *reg = xcalloc(nargs + nrets + 1, sizeof *reg);
	bool ok = call_copies(c, args, nargs, false, v, from, reg) &&
	          call_copies(c, rets, nrets, true, v + 2 * nargs, from + nargs, reg + nargs);
	for (uint32_t i = 0; ok && indirect && i < nrets; i++)
		if (v[2 * (nargs + i) + 1] == 0)
			ok = lw_unsupported(c, rets[i]->loc, "the sink '_' as the result of a call through a register");
	if (ok && indirect) {
		ok = lw_call_indirect(c, callee, v, nargs, nrets);
		for (uint32_t i = 0; ok && i < nrets; i++)
			for (unsigned q = 0; q < v[2 * (nargs + i) + 1]; q++)
				result_copy(c, from[nargs + i], reg[nargs + i], q, v[2 * (nargs + i)] + q);
		v = NULL;
	} else if (ok) {
		LKernel *k = c->k;
		LInsn *cal = lw_emit(c, SF_CAL);
		cal->keep = true;
		if (k->ncalls == k->calls_cap) {
			k->calls_cap = k->calls_cap ? 2 * k->calls_cap : 4;
			k->calls = xrealloc(k->calls, k->calls_cap * sizeof *k->calls);
		}
		k->calls[k->ncalls++] = (LCallSite){ k->ninsns - 1, callee->text, callee->loc, v, nargs, nrets, false, false };
		for (uint32_t i = 0; i < nrets; i++)
			for (unsigned q = 0; q < v[2 * (nargs + i) + 1]; q++)
				result_copy(c, from[nargs + i], reg[nargs + i], q, v[2 * (nargs + i)] + q);
		v = NULL;
	}
	free(v);
	free(from);
	free(reg);
	return ok;
}

/* CAL has no predicate: a guarded call (its argument and result copies
 * too) is branched around, `@!p BRA over` (ptxas 11.8, -O0 and -O3). */
bool lower_call(LowerCtx *c, const Instr *in)
{
	if (c->guard_vreg < 0)
		return call_unguarded(c, in);
	int over = lw_label_new(c->k);
	lw_branch(c, c->guard_vreg, !c->guard_neg, over);
	bool ok = call_unguarded(c, in);
	lw_label_place(c->k, over);
	return ok;
}

bool lower_ret(LowerCtx *c, const Instr *in)
{
	if (c->in_func)
		lw_reg_results_leave(c);
	lw_emit(c, c->in_func ? SF_RET : SF_EXIT);
	return true;
}

/* trap and brkpt: BPT.TRAP 0x1 as ptxas 11.8 writes both. BPT has no guard:
 * a guarded trap is branched around (`@!p BRA over`), as ptxas inverts it. */
bool lower_trap(LowerCtx *c, const Instr *in)
{
	LKernel *k = c->k;
	int over = -1;
	if (c->guard_vreg >= 0) {
		over = (int)k->nlabels;
		k->label_pos = xrealloc(k->label_pos, (k->nlabels + 1) * sizeof *k->label_pos);
		k->nlabels++;
		c->guard_neg = !c->guard_neg;
		LInsn *b = lw_emit(c, SF_BRA);
		b->target = over;
		c->guard_vreg = -1;
	}
	LInsn *t = lw_emit(c, SF_BPT_TRAP);
	linsn_set(t, SR_IMM, 1);
	t->keep = true;
	if (over >= 0)
		k->label_pos[over] = k->ninsns;
	return true;
}

/* ---- linking ----------------------------------------------------------------- */

static LFunc *find_func(LowerCtx *c, const char *name)
{
	for (size_t i = 0; i < c->nfuncs; i++)
		if (strcmp(c->funcs[i].name, name) == 0)
			return &c->funcs[i];
	return NULL;
}

/* Whether f or a function it calls directly names bound textures or
 * surfaces (depth bounds the walk, as in reaches()). */
static bool names_handles(LowerCtx *c, const LFunc *f, size_t depth)
{
	if (f->frag.nslots)
		return true;
	for (size_t i = 0; i < f->frag.ncalls && depth <= c->nfuncs; i++) {
		const LFunc *g = find_func(c, f->frag.calls[i].callee);
		if (g && names_handles(c, g, depth + 1))
			return true;
	}
	return false;
}

bool lw_func_own(LowerCtx *c, const LFunc *f)
{
	return c->lm->relocatable && !names_handles(c, f, 0);
}

/* The i-th function f may call: its direct callees (NULL for one without
 * a body, or a JCAL under -c), then the candidates of its calls through a
 * register (fnptr). */
static const LFunc *callee_at(LowerCtx *c, const LFunc *f, size_t i)
{
	if (i < f->frag.ncalls) {
		const LFunc *g = find_func(c, f->frag.calls[i].callee);
		return g && lw_func_own(c, g) ? NULL : g;
	}
	return lw_indirect_may_call(c, &f->frag, &c->funcs[i - f->frag.ncalls]) ? &c->funcs[i - f->frag.ncalls]
	                                                                       : NULL;
}

static size_t ncallees(const LowerCtx *c, const LFunc *f)
{
	return f->frag.ncalls + (f->frag.nindirect ? c->nfuncs : 0);
}

/* Whether f calls target, directly or through other functions (depth
 * bounds the walk: a longer chain than there are functions is a cycle). */
static bool reaches(LowerCtx *c, const LFunc *f, const LFunc *target, size_t depth)
{
	if (depth > c->nfuncs)
		return true;
	for (size_t i = 0; i < ncallees(c, f); i++) {
		const LFunc *g = callee_at(c, f, i);
		if (g == target || (g && reaches(c, g, target, depth + 1)))
			return true;
	}
	return false;
}

typedef struct Placed {
	const LFunc *f;
	int entry;              /* label id of its first instruction */
	uint32_t vbase;         /* its vreg 0 in the kernel */
} Placed;

/* A recursive function's entry copies its parameter words into new vregs,
 * which its body reads instead (map: fragment vreg -> kernel vreg). */
static size_t copy_params(LKernel *k, const LFunc *f, uint32_t vbase, uint32_t *map)
{
	size_t n = 0;
	for (size_t j = 0; j < f->nparams; j += 2)
		for (uint32_t q = 0; q < f->params[j + 1]; q++, n++) {
			uint32_t pv = vbase + f->params[j] + q, nv = lkernel_new_vreg(k, LRC_GPR, 1, false);
			map[f->params[j] + q] = nv;
			k->vregs[pv].call_param = true;
			LInsn *mov = lkernel_append(k, SF_MOV_R, f->loc);
			linsn_ref(mov, SR_RD, nv, 0, 1, true);
			linsn_ref(mov, SR_RB, pv, 0, 1, false);
		}
	return n;
}

static Placed place(LowerCtx *c, LKernel *k, const LFunc *f, bool recursive)
{
	const LKernel *fr = &f->frag;
	Placed p = { f, (int)k->nlabels, (uint32_t)k->nvregs };
	size_t ibase = k->ninsns;
	/* the function's .local variables get their own part of the kernel's
	 * frame (below R1, as ptxas -O3 merges them): no call chain reuses it,
	 * since the call graph has no cycles */
	uint32_t fbase = (k->frame_size + LFRAME_ALIGN - 1) / LFRAME_ALIGN * LFRAME_ALIGN;
	if (fr->frame_size)
		k->frame_size = fbase + fr->frame_size;
	for (size_t i = 0; i < fr->nvregs; i++) {
		LVReg r = fr->vregs[i];
		lkernel_new_vreg(k, r.cls, r.width, r.temp);
	}
	for (size_t j = 0; j < f->nrets; j += 2)
		for (uint32_t q = 0; q < f->rets[j + 1]; q++)
			k->vregs[p.vbase + f->rets[j] + q].call_result = true;
	uint32_t *map = xcalloc(fr->nvregs + 1, sizeof *map);
	for (size_t i = 0; i < fr->nvregs; i++)
		map[i] = p.vbase + (uint32_t)i;
	if (recursive)
		copy_params(k, f, p.vbase, map);
	k->crs_nesting += fr->crs_nesting;
	k->crs_loop |= fr->crs_loop;
	k->label_pos = xrealloc(k->label_pos, (k->nlabels + fr->nlabels + 1) * sizeof *k->label_pos);
	k->label_pos[k->nlabels++] = ibase;     /* the entry: the copies, then the body */
	ibase = k->ninsns;
	size_t lbase = k->nlabels;
	for (size_t l = 0; l < fr->nlabels; l++)
		k->label_pos[k->nlabels++] = ibase + fr->label_pos[l];
	size_t tbase = lw_brx_tables_adopt(k, fr, lbase);     /* brx: its jump tables */
	lw_indirect_adopt(k, fr, map, lbase);                   /* fnptr: its calls through a register */
	for (size_t i = 0; i < fr->ninsns; i++) {
		LInsn *in = lkernel_append(k, SF_NOP, fr->insns[i].loc);
		*in = fr->insns[i];
		lw_brx_adopt(in, tbase);
		for (unsigned r = 0; r < in->nrefs; r++)
			in->refs[r].vreg = map[in->refs[r].vreg];
		lkernel_const2_adopt(k, fr, in);
		if (in->shared_sym)     /* a .shared variable: its offset in k */
			lw_shared_link(c, k, in);
		if (in->handle_slot)    /* a bound texture or surface: its slot in k */
			lw_handle_place(k, fr, in);
		if (in->stack_reg & LSTACK_READ)     /* R1 + offset in the function's frame */
			linsn_set(in, SR_IMM, linsn_get(in, SR_IMM, 0) + fbase);
		if ((in->form->op == SOP_BRA || in->form->op == SOP_SSY || in->form->op == SOP_SYNC ||
		     in->form->op == SOP_PBK || in->form->op == SOP_BRK) &&
		    in->target >= 0)
			in->target += (int)lbase;
		if (in->form->op == SOP_RET)
			in->target = p.entry;
	}
	for (size_t i = 0; i < fr->ncalls; i++) {
		const LCallSite *cs = &fr->calls[i];
		uint32_t n = cs->nargs + cs->nrets;
		uint32_t *v = xcalloc(2 * n + 1, sizeof *v);
		for (uint32_t j = 0; j < n; j++) {
			v[2 * j] = cs->vregs[2 * j] + p.vbase;
			v[2 * j + 1] = cs->vregs[2 * j + 1];
		}
		if (k->ncalls == k->calls_cap) {
			k->calls_cap = k->calls_cap ? 2 * k->calls_cap : 4;
			k->calls = xrealloc(k->calls, k->calls_cap * sizeof *k->calls);
		}
		k->calls[k->ncalls++] = (LCallSite){ cs->insn + ibase, cs->callee, cs->loc, v, cs->nargs, cs->nrets,
		                                       cs->divergent, cs->vararg_address };
	}
	free(map);
	k->uses_ctaid_z |= fr->uses_ctaid_z;
	k->explicit_caching |= fr->explicit_caching;
	lw_handle_flags_adopt(k, fr);
	return p;
}

/* A linked call's variadic block, stored once the placeholders are
 * renamed (what st.param left unwritten is known then). */
typedef struct VarargSite {
	LCallSite cs;
	uint32_t arg;           /* the block's argument index (cs.nargs: left out) */
	uint32_t callee_word;   /* the callee's vreg of its address */
} VarargSite;

/* The callee's vregs for a call's placeholders; false (diagnosed) when the
 * lists do not match its declaration. A variadic block is noted in *va
 * (va->arg UINT32_MAX: none). */
static bool bind(LowerCtx *c, const LCallSite *cs, const Placed *p, uint32_t *rename, VarargSite *va_out)
{
	const LFunc *f = p->f;
	/* a variadic block is passed as its words, stored in the frame
	 * (lower_vararg.c), or left out */
	bool by_words = f->vararg >= 0 && !cs->vararg_address;
	uint32_t va = by_words ? (uint32_t)f->vararg : UINT32_MAX;
	*va_out = (VarargSite){ *cs, UINT32_MAX, 0 };
	if ((2 * cs->nargs != f->nparams && !(va == cs->nargs && 2 * cs->nargs + 2 == f->nparams)) ||
	    2 * cs->nrets != f->nrets)
		return lw_unsupported(c, cs->loc, "call to '%s' with %u argument%s and %u result%s (it declares "
		                      "%u and %u)", f->name, cs->nargs, cs->nargs == 1 ? "" : "s", cs->nrets,
		                      cs->nrets == 1 ? "" : "s", f->nparams / 2, f->nrets / 2);
	for (uint32_t j = 0; j < cs->nargs + cs->nrets; j++) {
		const uint32_t *decl = j < cs->nargs ? &f->params[2 * j] : &f->rets[2 * (j - cs->nargs)];
		if (j >= cs->nargs && cs->vregs[2 * j + 1] == 0)
			continue;       /* a sink result */
		if (j == va && j < cs->nargs) {
			*va_out = (VarargSite){ *cs, j, p->vbase + decl[0] };
			continue;
		}
		if (decl[1] != cs->vregs[2 * j + 1])
			return lw_unsupported(c, cs->loc, "call to '%s': a .param of another size than the "
			                      "function declares", f->name);
		for (uint32_t q = 0; q < decl[1]; q++)
			rename[cs->vregs[2 * j] + q] = p->vbase + decl[0] + q;
	}
	if (va == cs->nargs)
		*va_out = (VarargSite){ *cs, va, p->vbase + f->params[2 * va] };
	return true;
}

/* The longest chain of calls from f's code, f's own call counted. */
static uint32_t call_depth(LowerCtx *c, const LFunc *f, size_t bound)
{
	uint32_t d = 0;
	for (size_t i = 0; i < ncallees(c, f) && bound <= c->nfuncs; i++) {
		const LFunc *g = callee_at(c, f, i);
		uint32_t e = g ? call_depth(c, g, bound + 1) : 0;
		d = e > d ? e : d;
	}
	return d + 1;
}

/* Whether every function the calls reach, through other functions too,
 * has its body in the module by now and none of them calls through a
 * register (seen: one flag per c->funcs entry). */
static bool bodies_known(LowerCtx *c, const LCallSite *calls, size_t ncalls, unsigned char *seen)
{
	for (size_t i = 0; i < ncalls; i++) {
		const LFunc *g = find_func(c, calls[i].callee);
		if (!g || g->frag.nindirect)
			return false;
		size_t idx = (size_t)(g - c->funcs);
		if (seen[idx])
			continue;
		seen[idx] = 1;
		if (!bodies_known(c, g->frag.calls, g->frag.ncalls, seen))
			return false;
	}
	return true;
}

/* The function call site i of k links into k, or NULL when it is a JCAL:
 * under -c every call of a function of its own is one (lower.c), but the
 * CAL of a function of its own's body from its entry (lower_fnaddr.c: the
 * first call site) links it. */
static LFunc *linked_callee(LowerCtx *c, const LKernel *k, size_t i)
{
	LFunc *f = find_func(c, k->calls[i].callee);
	return f && lw_func_own(c, f) && !(k->abi_func && i == 0) ? NULL : f;
}

/* Whether only some threads of a warp may make a JCAL of k's code or of a
 * function it links (split: k's code itself runs so); bound as call_depth. */
static bool divergent_jcal(LowerCtx *c, const LKernel *k, bool split, size_t bound)
{
	for (size_t i = 0; i < k->ncalls && bound <= c->nfuncs; i++) {
		const LFunc *g = linked_callee(c, k, i);
		bool s = split || k->calls[i].divergent;
		if (g ? divergent_jcal(c, &g->frag, s, bound + 1) : s)
			return true;
	}
	return false;
}

bool lw_link_calls(LowerCtx *c, LKernel *k, bool final)
{
	/* calls through a register: every function whose address the module
	 * takes is a candidate, so they wait for the module's end */
	if (k->nindirect && !final)
		return false;
	lw_indirect_expand(c, k);
	if (k->ncalls == 0) {
		lw_handle_slots_order(c->lm, k, NULL, 0);
		return true;
	}
	/* a callee whose body comes later in the module, a function a callee
	 * calls whose body does (a forward-declared .func), or one that calls
	 * through a register (its candidates are the module's): link at the
	 * module's end */
	if (!final) {
		unsigned char *seen = xcalloc(c->nfuncs + 1, 1);
		bool known = bodies_known(c, k->calls, k->ncalls, seen);
		free(seen);
		if (!known)
			return false;
	}
	for (size_t i = 0; i < k->ncalls; i++) {
		LFunc *f = linked_callee(c, k, i);
		if (f && f->wide_param) {     /* said once, at the parameter */
			if (!f->wide_param_told)
				lw_unsupported(c, f->wide_param_loc, ".param '%s' of this type in a call (scalars and "
				               "arrays of up to %d bytes are supported)", f->wide_param, 4 * LPARAM_MAX_WORDS);
			f->wide_param_told = true;
			c->errors++;
			return false;
		}
		/* a JCAL of an external function is not counted (its callee's
		 * depth is the linker's to add, as ptxas -c leaves it) */
		uint32_t d = f && !reaches(c, f, f, 0) ? call_depth(c, f, 0) : f || !(c->lm->relocatable || lw_is_system_call(k->calls[i].callee)) ? 1 : 0;
		k->call_depth = d > k->call_depth ? d : k->call_depth;
	}
	k->crs_divergent_jcal = divergent_jcal(c, k, false, 0);
	Placed *placed = NULL;
	size_t nplaced = 0;
	uint32_t *rename = NULL;
	size_t nrename = 0;
	VarargSite *varargs = NULL;
	size_t nvarargs = 0;
	for (size_t i = 0; i < k->ncalls; i++) {
		LCallSite cs = k->calls[i];
		LFunc *f = linked_callee(c, k, i);
		if (!f && (c->lm->relocatable || lw_is_system_call(cs.callee))) {
			lw_extern_call(c, k, &cs);
			continue;
		}
		if (!f) {
			lw_unsupported(c, cs.loc, "call to '%s': its body is not in this module (an external "
			               "function needs relocatable output, -c)", cs.callee);
			continue;
		}
		bool recursive = reaches(c, f, f, 0);
		k->recursive |= recursive;
		k->insns[cs.insn].save_live = recursive;
		size_t j = 0;
		while (j < nplaced && placed[j].f != f)
			j++;
		if (j == nplaced) {
			placed = xrealloc(placed, (nplaced + 1) * sizeof *placed);
			placed[nplaced++] = place(c, k, f, recursive);
			lw_indirect_expand(c, k);     /* its calls through a register: more call sites */
		}
		if (nrename < k->nvregs) {
			rename = xrealloc(rename, k->nvregs * sizeof *rename);
			for (size_t v = nrename; v < k->nvregs; v++)
				rename[v] = (uint32_t)v;
			nrename = k->nvregs;
		}
		k->insns[cs.insn].target = placed[j].entry;
		VarargSite va;
		if (bind(c, &cs, &placed[j], rename, &va) && va.arg != UINT32_MAX) {
			varargs = xrealloc(varargs, (nvarargs + 1) * sizeof *varargs);
			varargs[nvarargs++] = va;
		}
	}
	for (size_t i = 0; i < k->ninsns && rename; i++)
		for (unsigned r = 0; r < k->insns[i].nrefs; r++)
			if (k->insns[i].refs[r].vreg < nrename)
				k->insns[i].refs[r].vreg = rename[k->insns[i].refs[r].vreg];
	free(rename);
	bool *written = nvarargs ? lw_written_vregs(k) : NULL;
	for (size_t i = 0; i < nvarargs; i++)
		lw_vararg_bind(k, &varargs[i].cs, varargs[i].arg, varargs[i].callee_word, written);
	free(written);
	free(varargs);
	size_t *starts = xmalloc((nplaced + 1) * sizeof *starts);
	for (size_t j = 0; j < nplaced; j++)
		starts[j] = k->label_pos[placed[j].entry];
	lw_handle_slots_order(c->lm, k, starts, nplaced);
	free(starts);
	free(placed);
	lw_stack_ops_place(k);     /* arguments and results beyond R15 */
	return true;
}

void lkernel_free_calls(LKernel *k)
{
	lw_indirect_free(k);
	for (size_t i = 0; i < k->ncalls; i++)
		free(k->calls[i].vregs);
	free(k->calls);
	k->calls = NULL;
	k->ncalls = k->calls_cap = 0;
}

void lw_funcs_free(LowerCtx *c)
{
	for (size_t i = 0; i < c->nfuncs; i++) {
		LFunc *f = &c->funcs[i];
		lkernel_free_calls(&f->frag);
		lkernel_brx_free(&f->frag);
		free(f->frag.insns);
		free(f->frag.vregs);
		free(f->frag.label_pos);
		free(f->frag.params);
		free(f->frag.desc_fields);   /* its .nv.constant2 words, adopted by the kernels */
		free(f->frag.slot_surfrefs); /* its bound handles, placed in the kernels' slots */
		free(f->frag.slot_samplers);
		free(f->frag.slot_first_use);
		free(f->params);
		free(f->rets);
		free(f->shared_syms);
	}
	free(c->funcs);
	c->funcs = NULL;
	c->nfuncs = c->funcs_cap = 0;
}
