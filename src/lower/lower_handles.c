/* Texture, sampler and surface handles that live in c[0x0] slots after the
 * kernel parameters (issues 15 and 17): bound module .surfref/.texref
 * variables and, in texmode_independent, `.param .texref/.samplerref/
 * .surfref` kernel parameters. As ptxas 11.8 lays them out for sm_50:
 *  - a handle parameter takes no bytes of the parameter area; it is an
 *    EIATTR_KPARAM_INFO record of its own (offset 0xffff, size 0, space
 *    6 texref, 7 surfref, 8 samplerref) and a LOCAL STT_CUDA_TEXTURE/SAMPLER/SURFACE symbol;
 *  - a texture sampled with a separate sampler takes one slot for the pair
 *    (relocated twice: R_CUDA_TEX_HEADER_INDEX and R_CUDA_SAMP_HEADER_INDEX),
 *    and a txq of that texture names the same slot, even when the txq comes
 *    first (ptxas pairs a texture with the first sampler it is used with);
 *  - slots are numbered in first-use order while lowering; linking
 *    renumbers them as ptxas does, textures before surfaces and a
 *    function's uses at its call (lower_handles_link.c). */
#include "lower/lower_internal.h"

#include "base/xalloc.h"

#include <string.h>

/* The KPARAM_INFO space of a handle parameter, 0 for any other. */
static uint8_t handle_space(const VarDecl *d)
{
	for (uint32_t s = 0; s < d->nspecs; s++) {
		const char *w = d->specs[s].word;
		if (strcmp(w, ".texref") == 0)
			return LPARAM_TEXREF;
		if (strcmp(w, ".samplerref") == 0)
			return LPARAM_SAMPLERREF;
		if (strcmp(w, ".surfref") == 0)
			return LPARAM_SURFREF;
	}
	return 0;
}

bool lw_handle_param(LowerCtx *c, const VarDecl *d, uint32_t *ordinal)
{
	uint8_t space = handle_space(d);
	if (space == 0)
		return false;
	LKernel *k = c->k;
	if (!c->lm->texmode_independent)
		lw_unsupported(c, d->loc, ".param .surfref/.texref/.samplerref kernel parameters outside "
		               "texmode_independent");
	for (uint32_t j = 0; j < d->ndecls; j++) {
		k->handle_params = xrealloc(k->handle_params, (k->nhandle_params + 1) * sizeof *k->handle_params);
		k->handle_params[k->nhandle_params++] = (LHandleParam){ d->decls[j].name, (*ordinal)++, space };
		lmap_put(&c->ref_params, d->decls[j].name, space, (int64_t)k->nhandle_params - 1);
	}
	return true;
}

int lw_ref_param(const LowerCtx *c, const char *name)
{
	const LMapEntry *e = lmap_find(&c->ref_params, name);
	return e ? (int)e->value : 0;
}

/* tex/tld4 [texture, sampler, coordinates] of two handle parameters. */
static void note_pair(LowerCtx *c, const Instr *in)
{
	if ((strcmp(in->opcode, "tex") != 0 && strcmp(in->opcode, "tld4") != 0) || in->nops < 2)
		return;
	const Expr *a = in->ops[1];
	if (a->kind != EX_ADDRESS || a->nelems != 3 || a->elems[0]->kind != EX_NAME ||
	    a->elems[1]->kind != EX_NAME)
		return;
	const LMapEntry *smp = lmap_find(&c->ref_params, a->elems[1]->text);
	if (lw_ref_param(c, a->elems[0]->text) == LPARAM_TEXREF && smp && smp->value == LPARAM_SAMPLERREF &&
	    lmap_find(&c->tex_samplers, a->elems[0]->text) == NULL)
		lmap_put(&c->tex_samplers, a->elems[0]->text, smp->extra, 0);
}

void lw_handle_pairs(LowerCtx *c, const Stmt *s)
{
	if (c->ref_params.count == 0)
		return;
	for (; s; s = s->next) {
		if (s->kind == ST_BLOCK)
			lw_handle_pairs(c, s->u.block);
		else if (s->kind == ST_INSTR)
			note_pair(c, &s->u.instr);
	}
}

const char *lw_texture_sampler(const LowerCtx *c, const char *texture)
{
	const LMapEntry *e = lmap_find(&c->tex_samplers, texture);
	return e ? c->k->handle_params[e->value].name : NULL;
}

size_t lkernel_handle_slot(LKernel *k, const char *name, const char *sampler)
{
	size_t i = 0;
	while (i < k->nslots && !(strcmp(k->slot_surfrefs[i], name) == 0 &&
	                          (k->slot_samplers[i] == sampler ||
	                           (k->slot_samplers[i] && sampler && strcmp(k->slot_samplers[i], sampler) == 0))))
		i++;
	if (i == k->nslots) {
		k->slot_surfrefs = xrealloc(k->slot_surfrefs, (k->nslots + 1) * sizeof *k->slot_surfrefs);
		k->slot_samplers = xrealloc(k->slot_samplers, (k->nslots + 1) * sizeof *k->slot_samplers);
		k->slot_surfrefs[k->nslots] = name;
		k->slot_samplers[k->nslots] = sampler;
		k->nslots++;
	}
	return i;
}

uint32_t lw_handle_slot(LowerCtx *c, const char *name, const char *sampler)
{
	return c->k->first_slot_offset + 4 * (uint32_t)lkernel_handle_slot(c->k, name, sampler);
}

uint32_t lw_bound_slot(LowerCtx *c, const char *name)
{
	return lw_handle_slot(c, name, NULL);
}

void lw_set_handle_word(const LowerCtx *c, LInsn *in, SassRole role, uint32_t word)
{
	const LKernel *k = c->k;
	linsn_set(in, role, word);
	uint32_t first = k->first_slot_offset / 4;
	in->handle_slot = word >= first && word - first < k->nslots ? (uint16_t)(word - first + 1) : 0;
}
