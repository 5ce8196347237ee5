/* Function addresses and calls through a register (issue 15).
 *
 * Without -c, a .func whose address is taken (`mov.u64 %rd, f`,
 * `.u64 ops[2] = {f, g}`) gets a module-wide id, 8 * (i + 1) for the i-th
 * function named so, as ptxas 11.8 numbers function pointers in a module
 * with several kernels
 * (its .nv.global.init holds 0x8, 0x10, 0x18 for `{sq, neg, half}`; it
 * maps them to code offsets through a per-kernel table in .nv.constant2).
 * The id is a constant: no relocation, the same in every kernel, never 0
 * (a null pointer names no function).
 *
 * `call (r), %rd, (a), proto` in a kernel is a BRA to a dispatch block
 * placed after the kernel's code when it is linked, and a return point
 * after the BRA. The dispatch compares %rd with the id of each
 * address-taken function whose parameters and results have the call's
 * sizes (ISETP.EQ.U32 on each word), branches to a direct call of the one
 * it names (its own argument copies, CAL, result copies, BRA back) and
 * traps (BPT.TRAP 0x1) when it names none. The direct calls are linked as
 * any other (lower_call.c), so liveness, allocation, scheduling and the
 * verifier see ordinary CAL/RET control flow, and a value live across the
 * call is kept in a register no candidate touches. ptxas 11.8 instead
 * loads the target's code offset (LDC c[0x2][Rid]) and calls it with
 * PRET + BRX; the two compute the same results (tests/sim/sim-diff.sh runs
 * both), while the words differ.
 *
 * A kernel's address (-c only: dynamic parallelism launches it) is two
 * MOV32I relocated R_CUDA_FUNC_DESC32_LO_32/HI_32 of its symbol, as
 * ptxas writes it.
 *
 * A call through a register inside a .func is recorded in the function's
 * fragment and adopted, with the fragment, by each kernel that links the
 * function (lw_indirect_adopt): its dispatch is expanded there like the
 * kernel's own. Linking counts its candidates as callees of the function
 * (lw_indirect_may_call), for recursion and the call depth.
 *
 * In a relocatable object (-c) a function's address is relocated instead
 * (a MOV32I pair, R_CUDA_ABS32_LO_32/HI_32; R_CUDA_32 in an initialiser,
 * against the function's symbol: its own .text, lower_fnaddr.c) and the
 * dispatch compares the pointer with each candidate's relocated address. */
#include "lower/lower_internal.h"

#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ISETP field values (e_cmp, e_bop of sass_forms.def; predicate 7 is PT) */
enum { PT = 7, CMP_EQ = 2, BOP_AND = 0 };

typedef struct LIndirectCall {
	uint32_t ptr;           /* the register holding the address */
	unsigned ptr_words;
	uint32_t *v;            /* placeholders: {first vreg, words} per argument, then per result */
	uint32_t nargs, nrets;
	int dispatch, back;     /* label ids */
	SrcLoc loc;
} LIndirectCall;

/* A .param's alignment in words: .align, else its element size. */
static uint8_t param_align_words(const VarDecl *d)
{
	int64_t bytes = 4;
	for (uint32_t s = 0; s < d->nspecs; s++) {
		PtxTy t = ptx_type_of_word(d->specs[s].word);
		if (t.bits >= 8)
			bytes = t.bits / 8;
	}
	for (uint32_t s = 0; s < d->nspecs; s++)
		if (strcmp(d->specs[s].word, ".align") == 0 && d->specs[s].has_value)
			bytes = d->specs[s].value;
	return (uint8_t)(bytes >= 8 ? (bytes >= 16 ? 4 : 2) : 1);
}

bool lw_param_is_vararg(const Func *f, uint32_t i)
{
	if (i + 1 != f->nparams)
		return false;
	const VarDecl *d = &f->params[i];
	bool param = false;
	for (uint32_t s = 0; s < d->nspecs; s++)
		param |= strcmp(d->specs[s].word, ".param") == 0;
	return param && d->ndecls == 1 && d->decls[0].ndims == 1 && d->decls[0].dims[0] < 0;
}

/* One .param's letters in a prototype string (see LFuncProto). */
static void prototype_param(const VarDecl *d, char *out, size_t cap)
{
	PtxTy t = { .bits = 32 };
	for (uint32_t s = 0; s < d->nspecs; s++)
		if (ptx_type_of_word(d->specs[s].word).bits)
			t = ptx_type_of_word(d->specs[s].word);
	int64_t n = 1;
	const Declarator *x = d->ndecls ? &d->decls[0] : NULL;
	for (uint32_t i = 0; x && i < x->ndims; i++)
		n *= x->dims[i] > 0 ? x->dims[i] : 0;
	size_t len = strlen(out);
	if (x && x->ndims)
		snprintf(out + len, cap - len, "b%lld", (long long)(n * (t.bits / 8)));
	else
		snprintf(out + len, cap - len, "%c", t.is_float ? (t.bits == 64 ? 'd' : 'f') : t.bits == 64 ? 'l' : 'i');
}

static char *prototype_of(const Func *f)
{
	size_t cap = 24 * ((size_t)f->nparams + f->nrets + 1);
	char *sig = xcalloc(cap, 1);
	strcpy(sig, "#");
	if (f->nrets == 0)
		strcat(sig, "v");
	for (uint32_t i = 0; i < f->nrets; i++)
		prototype_param(&f->rets[i], sig, cap);
	for (uint32_t i = 0; i < f->nparams; i++)
		prototype_param(&f->params[i], sig, cap);
	return sig;
}

void lw_fnptr_declare(LowerCtx *c, const Func *f)
{
	LModule *lm = c->lm;
	if (f->name && !lmap_find(&c->func_decls, f->name)) {   /* declaration order, kernels too */
		lm->protos = xrealloc(lm->protos, (lm->nprotos + 1) * sizeof *lm->protos);
		lm->protos[lm->nprotos++] = (LFuncProto){ f->name, f->is_entry ? NULL : prototype_of(f) };
	}
	if (f->name && f->is_entry && !lmap_find(&c->func_decls, f->name))
		lmap_put(&c->func_decls, f->name, -1, 0);     /* a kernel */
	if (f->is_entry || !f->name || lmap_find(&c->func_decls, f->name))
		return;
	uint8_t *align = xcalloc((size_t)f->nparams + f->nrets + 1, 1);
	for (uint32_t i = 0; i < f->nparams; i++)
		align[i] = param_align_words(&f->params[i]);
	for (uint32_t i = 0; i < f->nrets; i++)
		align[f->nparams + i] = param_align_words(&f->rets[i]);
	c->decl_align = xrealloc(c->decl_align, (c->ndecl_align + 1) * sizeof *c->decl_align);
	c->decl_align[c->ndecl_align] = align;
	c->decl_vararg = xrealloc(c->decl_vararg, (c->ndecl_align + 1) * sizeof *c->decl_vararg);
	c->decl_vararg[c->ndecl_align] = f->nparams && lw_param_is_vararg(f, f->nparams - 1) ? (int32_t)f->nparams - 1 : -1;
	lmap_put(&c->func_decls, f->name, (int64_t)c->ndecl_align++, 0);
}

const uint8_t *lw_func_param_align(const LowerCtx *c, const char *name)
{
	const LMapEntry *e = lmap_find((LMap *)&c->func_decls, name);
	return e && e->value >= 0 ? c->decl_align[e->value] : NULL;
}

int lw_func_vararg(const LowerCtx *c, const char *name)
{
	const LMapEntry *e = lmap_find((LMap *)&c->func_decls, name);
	return e && e->value >= 0 ? c->decl_vararg[e->value] : -1;
}

size_t lw_name_index(const char ***list, size_t *n, const char *name)
{
	size_t i = 0;
	while (i < *n && strcmp((*list)[i], name) != 0)
		i++;
	if (i == *n) {
		*list = xrealloc(*list, (*n + 1) * sizeof **list);
		(*list)[(*n)++] = name;
	}
	return i;
}

/* The index of `name` among the address-taken functions, appended (taken
 * at loc) at its first use. */
static size_t fptr_index(LowerCtx *c, const char *name, SrcLoc loc)
{
	size_t n = c->nfptrs, i = lw_name_index(&c->fptrs, &c->nfptrs, name);
	if (c->nfptrs > n) {
		c->fptr_locs = xrealloc(c->fptr_locs, c->nfptrs * sizeof *c->fptr_locs);
		c->fptr_locs[i] = loc;
	}
	return i;
}

/* The declaration e names (value -1: a kernel), else NULL. */
static const LMapEntry *decl_of(LowerCtx *c, const Expr *e)
{
	return e->kind != EX_NAME || e->component || e->text[0] == '%' ? NULL : lmap_find(&c->func_decls, e->text);
}

int lw_fnptr_address(LowerCtx *c, const Expr *e, int64_t *value)
{
	const LMapEntry *d = decl_of(c, e);
	if (!d || d->value < 0)
		return 0;
	*value = 8 * ((int64_t)fptr_index(c, e->text, e->loc) + 1);
	return 1;
}

static const LFunc *find_func(const LowerCtx *c, const char *name);

void lw_fnptr_bodies(LowerCtx *c)
{
	/* a body may come after the address is taken: judged at the end */
	for (size_t i = 0; i < c->nfptrs; i++)
		if (c->fptr_locs[i].first_line && !find_func(c, c->fptrs[i]))
			lw_unsupported(c, c->fptr_locs[i], "the address of function '%s', which has no body in this "
			               "module (ptxas: Cannot take address of function): assemble with -c, a relocatable "
			               "object, to leave it to the linker", c->fptrs[i]);
}

void lw_fnptr_note(LowerCtx *c, const char *name)
{
	fptr_index(c, name, (SrcLoc){ 0, 0, 0, 0 });
}

/* ---- relocated addresses (kernels; .func under -c: lower_fnaddr.c) ---- */

uint32_t lw_fnaddr_load(LKernel *k, LModule *lm, SrcLoc loc, const char *name, unsigned word)
{
	uint32_t v = lkernel_new_vreg(k, LRC_GPR, 1, true);
	LInsn *mov = lkernel_append(k, SF_MOV32I, loc);
	linsn_ref(mov, SR_RD, v, 0, 1, true);
	linsn_set(mov, SR_IMM, 0);
	mov->reloc = word ? LRELOC_FUNC_HI : LRELOC_FUNC_LO;
	mov->reloc_var = (uint16_t)lw_name_index(&lm->func_addrs, &lm->nfunc_addrs, name);
	return v;
}

void lw_reloc_pair(LowerCtx *c, Opnd *o, LReloc lo, LReloc hi, size_t var)
{
	o->kind = OPND_REG;
	o->vreg = lw_temp(c, 2);
	o->width = 2;
	for (unsigned p = 0; p < 2; p++) {
		LInsn *mov = lw_emit(c, SF_MOV32I);
		linsn_ref(mov, SR_RD, o->vreg, p, 1, true);
		linsn_set(mov, SR_IMM, 0);
		mov->reloc = (uint8_t)(p ? hi : lo);
		mov->reloc_var = (uint16_t)var;
	}
}

/* The declaration e names when it is a .func with an index in
 * LModule.func_addrs (-c only), else -1. */
static int func_addr_index(LowerCtx *c, const Expr *e)
{
	if (!c->lm->relocatable || e->kind != EX_NAME || e->component || e->text[0] == '%')
		return -1;
	const LMapEntry *d = lmap_find(&c->func_decls, e->text);
	if (!d || d->value < 0)
		return -1;
	lw_fnptr_note(c, e->text);     /* a candidate of calls through a register */
	return (int)lw_name_index(&c->lm->func_addrs, &c->lm->nfunc_addrs, e->text);
}

int lw_fnaddr_operand(LowerCtx *c, const Expr *e, Opnd *o)
{
	int i = func_addr_index(c, e);
	if (i >= 0)
		lw_reloc_pair(c, o, LRELOC_FUNC_LO, LRELOC_FUNC_HI, (size_t)i);
	return i >= 0;
}

int lw_fnaddr_init(LowerCtx *c, const Expr *e, uint32_t *index)
{
	int i = func_addr_index(c, e);
	if (i >= 0)
		*index = (uint32_t)i;
	return i >= 0;
}

int lw_kernel_address(LowerCtx *c, const Expr *e, Opnd *o)
{
	const LMapEntry *d = decl_of(c, e);
	if (!d || d->value >= 0)
		return 0;
	if (!c->lm->relocatable) {
		lw_unsupported(c, e->loc, "the address of kernel '%s' without -c (ptxas relocates it as a "
		               "function descriptor, which the driver's linker resolves)", e->text);
		return -1;
	}
	size_t i = lw_name_index(&c->lm->kernel_addrs, &c->lm->nkernel_addrs, e->text);
	lw_reloc_pair(c, o, LRELOC_KERNEL_LO, LRELOC_KERNEL_HI, i);
	return 1;
}

/* A label placed before the next instruction. */
static int new_label(LKernel *k)
{
	int l = lw_label_new(k);
	lw_label_place(k, l);
	return l;
}

bool lw_call_indirect(LowerCtx *c, const Expr *ptr, uint32_t *v, uint32_t nargs, uint32_t nrets)
{
	uint32_t p;
	unsigned words;
	if (!lw_reg(c, ptr, &p, &words)) {
		free(v);
		return false;
	}
	LKernel *k = c->k;
	LIndirectCall s = { p, words, v, nargs, nrets, new_label(k), -1, c->cur ? c->cur->loc : k->loc };
	LInsn *b = lw_emit(c, SF_BRA);
	b->target = s.dispatch;
	s.back = new_label(k);
	k->indirect = xrealloc(k->indirect, (k->nindirect + 1) * sizeof *k->indirect);
	k->indirect[k->nindirect++] = s;
	return true;
}

/* Whether f takes and returns .params of the sizes of the call's. */
static bool signature_matches(const LFunc *f, const LIndirectCall *s)
{
	/* a variadic block takes any number of words, or none */
	uint32_t va = f->vararg >= 0 ? (uint32_t)f->vararg : UINT32_MAX;
	if ((f->nparams != 2 * s->nargs && !(va == s->nargs && f->nparams == 2 * s->nargs + 2)) ||
	    f->nrets != 2 * s->nrets)
		return false;
	for (uint32_t j = 0; j < s->nargs + s->nrets; j++) {
		const uint32_t *decl = j < s->nargs ? &f->params[2 * j] : &f->rets[2 * (j - s->nargs)];
		if ((j != va || j >= s->nargs) && decl[1] != s->v[2 * j + 1])
			return false;
	}
	return true;
}

static const LFunc *find_func(const LowerCtx *c, const char *name)
{
	for (size_t i = 0; i < c->nfuncs; i++)
		if (strcmp(c->funcs[i].name, name) == 0)
			return &c->funcs[i];
	return NULL;
}

static void mov(LKernel *k, SrcLoc loc, uint32_t d, uint32_t s)
{
	LInsn *m = lkernel_append(k, SF_MOV_R, loc);
	linsn_ref(m, SR_RD, d, 0, 1, true);
	linsn_ref(m, SR_RB, s, 0, 1, false);
}

/* q = (word w of the pointer == value) && q_in (PT when q_in < 0); with
 * -c, value is that word of the relocated address of `name`
 * (lower_fnaddr.c) */
static uint32_t compare_word(LowerCtx *c, LKernel *k, const LIndirectCall *s, unsigned w, uint32_t value,
                             const char *name, int q_in)
{
	uint32_t addr = 0;
	if (c->lm->relocatable)
		addr = lw_fnaddr_load(k, c->lm, s->loc, name, w);
	value = c->lm->relocatable ? 0 : value;
	uint32_t q = lkernel_new_vreg(k, LRC_PRED, 1, true);
	LInsn *op = lkernel_append(k, value ? SF_ISETP_I : SF_ISETP_R, s->loc);
	linsn_ref(op, SR_PD, q, 0, 1, true);
	linsn_set(op, SR_PQ, PT);
	linsn_ref(op, SR_RA, s->ptr, w, 1, false);
	if (value)
		linsn_set(op, SR_IMM, value);
	else if (c->lm->relocatable)
		linsn_ref(op, SR_RB, addr, 0, 1, false);
	else
		linsn_set(op, SR_RB, 255);
	linsn_set(op, SR_CMP, CMP_EQ);
	if (q_in >= 0)
		linsn_ref(op, SR_PC, (uint32_t)q_in, 0, 1, false);
	else
		linsn_set(op, SR_PC, PT);
	linsn_set(op, SR_BOP, BOP_AND);
	return q;
}

/* The direct call of f for site s: argument copies, CAL, result copies,
 * BRA back. */
static void call_candidate(LKernel *k, const LIndirectCall *s, const char *name)
{
	uint32_t n = s->nargs + s->nrets;
	uint32_t *v = xcalloc(2 * n + 1, sizeof *v);
	for (uint32_t j = 0; j < n; j++) {
		uint32_t words = s->v[2 * j + 1];
		v[2 * j] = (uint32_t)k->nvregs;
		v[2 * j + 1] = words;
		for (uint32_t q = 0; q < words; q++)
			lkernel_new_vreg(k, LRC_GPR, 1, false);
		for (uint32_t q = 0; j < s->nargs && q < words; q++)
			mov(k, s->loc, v[2 * j] + q, s->v[2 * j] + q);
	}
	LInsn *cal = lkernel_append(k, SF_CAL, s->loc);
	cal->keep = true;
	if (k->ncalls == k->calls_cap) {
		k->calls_cap = k->calls_cap ? 2 * k->calls_cap : 4;
		k->calls = xrealloc(k->calls, k->calls_cap * sizeof *k->calls);
	}
	k->calls[k->ncalls++] = (LCallSite){ k->ninsns - 1, name, s->loc, v, s->nargs, s->nrets, false, false };
	for (uint32_t j = s->nargs; j < n; j++)
		for (uint32_t q = 0; q < s->v[2 * j + 1]; q++)
			mov(k, s->loc, s->v[2 * j] + q, v[2 * j] + q);
	LInsn *b = lkernel_append(k, SF_BRA, s->loc);
	b->target = s->back;
}

static void expand(LowerCtx *c, LKernel *k, const LIndirectCall *s)
{
	k->label_pos[s->dispatch] = k->ninsns;
	const char **cand = xcalloc(c->nfptrs + 1, sizeof *cand);
	int *at = xcalloc(c->nfptrs + 1, sizeof *at);
	size_t *bra = xcalloc(c->nfptrs + 1, sizeof *bra);
	size_t n = 0;
	for (size_t i = 0; i < c->nfptrs; i++) {
		const LFunc *f = find_func(c, c->fptrs[i]);
		if (f && !signature_matches(f, s))
			continue;
		/* a function without a body is kept: linking its call says so */
		uint32_t q = compare_word(c, k, s, 0, (uint32_t)(8 * (i + 1)), c->fptrs[i], -1);
		if (s->ptr_words > 1)
			q = compare_word(c, k, s, 1, 0, c->fptrs[i], (int)q);
		LInsn *b = lkernel_append(k, SF_BRA, s->loc);
		linsn_ref(b, SR_PG, q, 0, 1, false);
		linsn_set(b, SR_PG_NOT, 0);
		bra[n] = k->ninsns - 1;
		cand[n++] = c->fptrs[i];
	}
	/* the register names no function of this signature */
	LInsn *t = lkernel_append(k, SF_BPT_TRAP, s->loc);
	linsn_set(t, SR_IMM, 1);
	t->keep = true;
	for (size_t j = 0; j < n; j++) {
		at[j] = new_label(k);
		k->insns[bra[j]].target = at[j];
		call_candidate(k, s, cand[j]);
	}
	free(cand);
	free(at);
	free(bra);
}

void lw_indirect_adopt(LKernel *k, const LKernel *fr, const uint32_t *map, size_t lbase)
{
	if (!fr->nindirect)
		return;
	k->indirect = xrealloc(k->indirect, (k->nindirect + fr->nindirect) * sizeof *k->indirect);
	for (size_t i = 0; i < fr->nindirect; i++) {
		const LIndirectCall *f = &fr->indirect[i];
		LIndirectCall s = *f;
		s.ptr = map[f->ptr];
		s.v = xcalloc(2 * (f->nargs + f->nrets) + 1, sizeof *s.v);
		for (uint32_t j = 0; j < f->nargs + f->nrets; j++) {
			s.v[2 * j] = map[f->v[2 * j]];
			s.v[2 * j + 1] = f->v[2 * j + 1];
		}
		s.dispatch = f->dispatch + (int)lbase;
		s.back = f->back + (int)lbase;
		k->indirect[k->nindirect++] = s;
	}
}

bool lw_indirect_may_call(const LowerCtx *c, const LKernel *fr, const LFunc *g)
{
	bool taken = false;
	for (size_t i = 0; i < c->nfptrs && !taken; i++)
		taken = strcmp(c->fptrs[i], g->name) == 0;
	for (size_t i = 0; taken && i < fr->nindirect; i++)
		if (signature_matches(g, &fr->indirect[i]))
			return true;
	return false;
}

void lw_indirect_expand(LowerCtx *c, LKernel *k)
{
	for (size_t i = 0; i < k->nindirect; i++)
		expand(c, k, &k->indirect[i]);
	lw_indirect_free(k);
}

void lw_indirect_free(LKernel *k)
{
	for (size_t i = 0; i < k->nindirect; i++)
		free(k->indirect[i].v);
	free(k->indirect);
	k->indirect = NULL;
	k->nindirect = 0;
}

void lw_fnptr_free(LowerCtx *c)
{
	lmap_fini(&c->func_decls);
	for (size_t i = 0; i < c->ndecl_align; i++)
		free(c->decl_align[i]);
	free(c->decl_align);
	free(c->decl_vararg);
	c->decl_align = NULL;
	c->decl_vararg = NULL;
	c->ndecl_align = 0;
	free(c->fptrs);
	free(c->fptr_locs);
	c->fptrs = NULL;
	c->fptr_locs = NULL;
	c->nfptrs = 0;
}
