/* The lowering's driver over a module (lower.h): one item at a time as
 * the parser hands them over (lower_stream_*), or a whole module
 * (lower_module*). It keeps the module-scope state a kernel needs (header,
 * bound handles, module data, functions) and finishes each item's lowering
 * (reconvergence, linking calls, handing it to the back end) once the
 * parser has freed the item's syntax tree. The lowering of one kernel or
 * function body is lower.c's. */
#include "lower/lower_internal.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

static bool var_is_global_surfref(const VarDecl *v)
{
	return lw_decl_has(v, ".global") && lw_decl_has(v, ".surfref");
}

/* issue 17: a bound texture of unified mode (independent mode's texrefs
 * and samplers are laid out otherwise by ptxas) */
static bool var_is_global_texref(const LModule *lm, const VarDecl *v)
{
	return lw_decl_has(v, ".global") && lw_decl_has(v, ".texref") && !lm->texmode_independent;
}

/* A .global or .const variable holding data (not an opaque handle). */
static bool var_is_module_data(const VarDecl *v)
{
	return (lw_decl_has(v, ".global") || lw_decl_has(v, ".const")) && !lw_decl_has(v, ".surfref") &&
	       !lw_decl_has(v, ".texref") && !lw_decl_has(v, ".samplerref");
}

/* One item at a time (see lower.h): the module-scope state a kernel needs
 * (header, bound surfaces declared so far) lives in the stream. */
struct LowerStream {
	LowerCtx c;
	LKernelDone done;
	void *arg;
	size_t kernels_cap, surfrefs_cap;
	/* issue 15: kernels from this one on wait for lower_stream_end (a
	 * callee's body follows them); done() keeps module order */
	size_t first_deferred;
	bool deferring;
	/* per kernel: its calls are linked (a deferred kernel's are linked
	 * at the end; one that linked at once must not be linked again, which
	 * placed its callees a second time, empty: sim5, found by the
	 * simulator on a corpus file) */
	bool *linked;
	/* the last item's kernel or function waits here for the rest of its
	 * lowering, which no longer reads the syntax tree: it runs once the
	 * parser has freed the item (lower_stream_settle) */
	enum { PENDING_NONE, PENDING_KERNEL, PENDING_FUNC } pending;
};

LowerStream *lower_stream_begin(DiagSink *sink, LModule *out, LKernelDone done, void *arg)
{
	LowerStream *s = xcalloc(1, sizeof *s);
	memset(out, 0, sizeof *out);
	s->c.sink = sink;
	s->c.lm = out;
	s->done = done;
	s->arg = arg;
	out->address64 = false;     /* no .address_size: 32 (ptxas 11.8, lower_addr32.c) */
	out->target_sm = 50;
	lmap_init(&s->c.module_surfrefs);
	lmap_init(&s->c.data_vars);
	lmap_init(&s->c.func_decls);
	return s;
}

void lower_stream_relocatable(LowerStream *s)
{
	s->c.lm->relocatable = true;
}

static void read_target(LModule *lm, const Item *it)
{
	for (uint32_t i = 0; i < it->u.target.n; i++) {
		const char *t = it->u.target.names[i];
		if (strncmp(t, "sm_", 3) == 0)
			lm->target_sm = atoi(t + 3);
		if (strcmp(t, "texmode_independent") == 0)
			lm->texmode_independent = true;
	}
}

static void add_surfrefs(LowerStream *s, const VarDecl *v, bool texture)
{
	LModule *lm = s->c.lm;
	for (uint32_t i = 0; i < v->ndecls; i++) {
		if (lm->nsurfrefs == s->surfrefs_cap) {
			s->surfrefs_cap = s->surfrefs_cap ? 2 * s->surfrefs_cap : 8;
			lm->surfrefs = xrealloc(lm->surfrefs, s->surfrefs_cap * sizeof *lm->surfrefs);
			lm->surfref_is_texture = xrealloc(lm->surfref_is_texture,
			                                  s->surfrefs_cap * sizeof *lm->surfref_is_texture);
		}
		/* names are interned: they outlive the item */
		const char *name = v->decls[i].name;
		lmap_put(&s->c.module_surfrefs, name, (int64_t)lm->nsurfrefs,
		         texture ? LHANDLE_TEXTURE : LHANDLE_SURFACE);
		lm->surfref_is_texture[lm->nsurfrefs] = texture;
		lm->surfrefs[lm->nsurfrefs++] = name;
	}
}

/* A new kernel at the end of the module's list. */
static LKernel *new_kernel(LowerStream *s)
{
	LModule *lm = s->c.lm;
	if (lm->nkernels == s->kernels_cap) {
		s->kernels_cap = s->kernels_cap ? 2 * s->kernels_cap : 8;
		lm->kernels = xrealloc(lm->kernels, s->kernels_cap * sizeof *lm->kernels);
	}
	s->linked = xrealloc(s->linked, s->kernels_cap * sizeof *s->linked);
	return &lm->kernels[lm->nkernels++];
}

static void add_kernel(LowerStream *s, const Func *f)
{
	LowerCtx *c = &s->c;
	LKernel *k = new_kernel(s);
	lw_module_data_freeze_const(c);
	lw_lower_kernel(c, f, k);
	s->pending = PENDING_KERNEL;
}

/* The last kernel: its reconvergence, its calls linked unless a callee's
 * body follows (then lower_stream_end links it), and handed over. */
static void kernel_settle(LowerStream *s)
{
	LowerCtx *c = &s->c;
	LModule *lm = c->lm;
	LKernel *k = &lm->kernels[lm->nkernels - 1];
	lw_reconverge(c, k);
	bool linked = lw_link_calls(c, k, false);
	s->linked[lm->nkernels - 1] = linked;
	if (!linked && !s->deferring) {
		s->deferring = true;
		s->first_deferred = lm->nkernels - 1;
	}
	if (s->done && c->errors == 0 && !s->deferring)
		s->done(k, s->arg);
}

/* The last function: its reconvergence and the .shared variables it and
 * its callees name. */
static void function_settle(LowerStream *s)
{
	LowerCtx *c = &s->c;
	LFunc *f = &c->funcs[c->nfuncs - 1];
	lw_reconverge(c, &f->frag);
	lw_func_shared_finish(c, f);
}

void lower_stream_settle(LowerStream *s)
{
	if (s->pending == PENDING_KERNEL)
		kernel_settle(s);
	else if (s->pending == PENDING_FUNC)
		function_settle(s);
	s->pending = PENDING_NONE;
}

void lower_stream_item(LowerStream *s, const Item *it)
{
	LowerCtx *c = &s->c;
	lower_stream_settle(s);
	switch (it->kind) {
	case IT_ADDRESS_SIZE:
		c->lm->address64 = it->u.address_size.bits == 64;
		break;
	case IT_TARGET:
		read_target(c->lm, it);
		break;
	case IT_VAR:
		if (var_is_global_surfref(&it->u.var))
			add_surfrefs(s, &it->u.var, false);
		else if (var_is_global_texref(c->lm, &it->u.var))
			add_surfrefs(s, &it->u.var, true);
		else if (lw_decl_has(&it->u.var, ".shared"))
			lw_module_shared_add(c, &it->u.var);
		else if (var_is_module_data(&it->u.var))
			lw_module_data_add(c, &it->u.var, it->loc);
		else
			lw_unsupported(c, it->loc, "module-scope variables other than .global/.const data, "
			               ".global .surfref/.texref (unified texture mode) and .shared");
		break;
	case IT_FUNC:
		lw_fnptr_declare(c, &it->u.func);
		if (!it->u.func.has_body)
			break;
		if (!it->u.func.is_entry) {
			if (c->nfuncs == c->funcs_cap) {
				c->funcs_cap = c->funcs_cap ? 2 * c->funcs_cap : 8;
				c->funcs = xrealloc(c->funcs, c->funcs_cap * sizeof *c->funcs);
			}
			lw_module_data_freeze_const(c);   /* c[0x3] offsets are final in code */
			lw_lower_function(c, &it->u.func, &c->funcs[c->nfuncs++]);
			s->pending = PENDING_FUNC;
			break;
		}
		add_kernel(s, &it->u.func);
		break;
	default:
		break;
	}
}

unsigned lower_stream_end(LowerStream *s)
{
	LowerCtx *c = &s->c;
	lower_stream_settle(s);
	for (size_t i = s->first_deferred; s->deferring && i < c->lm->nkernels; i++) {
		LKernel *k = &c->lm->kernels[i];
		if (!s->linked[i])
			lw_link_calls(c, k, true);
		if (s->done && c->errors == 0)
			s->done(k, s->arg);
	}
	/* -c: each function with a body, compiled as a function of its own
	 * after the kernels, in definition order (as ptxas 11.8 -c compiles
	 * every .func, called or not; lw_func_own: one naming bound handles
	 * is linked into its callers, and diagnosed when its address is taken) */
	for (size_t j = 0; c->lm->relocatable && j < c->nfuncs; j++) {
		bool addressed = false;
		for (size_t i = 0; i < c->lm->nfunc_addrs; i++)
			addressed |= strcmp(c->lm->func_addrs[i], c->funcs[j].name) == 0;
		if (!addressed && !lw_func_own(c, &c->funcs[j]))
			continue;
		LKernel *k = new_kernel(s);
		if (lw_fnaddr_function(c, &c->funcs[j], k) && s->done && c->errors == 0)
			s->done(k, s->arg);
	}
	if (c->lm->relocatable)
		lw_fnaddr_externs(c);
	else
		lw_fnptr_bodies(c);
	if (c->lm->target_sm > 50) {
		SrcLoc none = { 0, 0, 0, 0 };
		lw_unsupported(c, none, ".target sm_%d (only sm_50 SASS is generated)", c->lm->target_sm);
	}
	lmap_fini(&c->module_surfrefs);
	lw_module_data_finish(c);
	if (c->lm->relocatable) {    /* -c: the variables the relocations name */
		c->lm->shared = xcalloc(c->nmodule_shared + 1, sizeof *c->lm->shared);
		for (size_t i = 0; i < c->nmodule_shared; i++) {
			const LSharedVar *v = &c->module_shared[i];
			c->lm->shared[i] = (LModShared){ v->label ? xstrdup(v->label) : v->name, v->size, v->align,
			                                 v->label != NULL && v->kernel < 0, v->kernel, v->before_var };
		}
		c->lm->nshared = c->nmodule_shared;
	}
	for (size_t i = 0; i < c->nmodule_shared; i++)
		free(c->module_shared[i].label);
	free(c->module_shared);
	lw_funcs_free(c);
	lw_fnptr_free(c);
	unsigned errors = c->errors;
	free(s->linked);
	free(s);
	return errors;
}

unsigned lower_module_each(const Module *m, DiagSink *sink, LModule *out, LKernelDone done, void *arg)
{
	LowerStream *s = lower_stream_begin(sink, out, done, arg);
	for (const Item *it = m->items; it; it = it->next)
		lower_stream_item(s, it);
	return lower_stream_end(s);
}

unsigned lower_module(const Module *m, DiagSink *sink, LModule *out)
{
	return lower_module_each(m, sink, out, NULL, NULL);
}

void lower_module_free(LModule *lm)
{
	for (size_t i = 0; i < lm->nshared; i++)
		if (lm->shared[i].body || lm->shared[i].kernel >= 0)
			free((char *)lm->shared[i].name);
	free(lm->shared);
	lm->shared = NULL;
	lm->nshared = 0;
	free(lm->externs);
	free(lm->kernel_addrs);
	free(lm->func_addrs);
	for (size_t i = 0; i < lm->nprotos; i++)
		free(lm->protos[i].sig);
	free(lm->protos);
	lm->protos = NULL;
	lm->nprotos = 0;
	lm->externs = NULL;
	lm->nexterns = 0;
	for (size_t i = 0; i < lm->nkernels; i++) {
		LKernel *k = &lm->kernels[i];
		free(k->insns);
		free(k->vregs);
		free(k->label_pos);
		free(k->params);
		free(k->slot_surfrefs);
		free(k->slot_samplers);
		free(k->slot_first_use);
		free(k->handle_params);
		free(k->desc_fields);
		for (size_t j = 0; j < k->nshared_strings; j++)
			free(k->shared_strings[j]);
		free(k->shared_strings);
		free(k->shared_sym_at);
		lkernel_free_calls(k);
		lkernel_brx_free(k);
	}
	free(lm->kernels);
	free(lm->surfrefs);
	free(lm->surfref_is_texture);
	lower_module_data_free(lm);
	memset(lm, 0, sizeof *lm);
}
