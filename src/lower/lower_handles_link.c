/* Bound textures and surfaces named in device functions (issues 15, 17).
 *
 * A bound .texref/.surfref's header index is in a c[0x0] slot after the
 * kernel's parameters (lower_handles.c), so where it is depends on the
 * kernel: ptxas 11.8 (-O0 and -O3, measured) compiles a function into
 * each kernel that calls it (`$<kernel>$<function>` in its .text) and
 * names the slot that kernel gives the handle. A kernel's slots are
 * numbered in first-use order, a function's uses counting at the call,
 * depth first: a kernel that calls f (using t0, t2) before it samples t1
 * has t0, t2, t1; one that samples t1 first has t1, t0, t2. The kernel
 * records the handles as if its callees were inline (EIATTR_BINDLESS_*,
 * the slots' R_CUDA_*_HEADER_INDEX relocations), also when only a callee
 * uses one.
 *
 * All the textures' slots (bound .texref, .param .texref with its
 * sampler) come before all the surfaces', each kind in that order (also in
 * a kernel without calls: a kernel that reads s1, t1, s0, t0 has t1 t0 s1
 * s0, ptxas -O0 and -O3).
 *
 * A function's code is lowered once, its slots numbered in its own
 * fragment (first_slot_offset 0); each instruction naming a slot carries
 * LInsn.handle_slot. Placing the fragment into a kernel maps its slots to
 * the kernel's (lw_handle_place); when all its callees are placed (or it
 * has none), lw_handle_slots_order renumbers the kernel's slots into the
 * order above and rewrites every marked word. */
#include "lower/lower_internal.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* The field that holds the word: SR_SUIDX of TEX/TLD/TLD4/TXQ/SULD/SUST/
 * SURED/SUQ, SR_COFF of the MOV and LOP reading the slot. */
static SassRole slot_role(const SassForm *f)
{
	return sass_form_field(f, SR_SUIDX) ? SR_SUIDX : SR_COFF;
}

static void set_slot(const LKernel *k, LInsn *in, size_t slot)
{
	linsn_set(in, slot_role(in->form), k->first_slot_offset / 4 + (uint32_t)slot);
	in->handle_slot = (uint16_t)(slot + 1);
}

void lw_handle_place(LKernel *k, const LKernel *fr, LInsn *in)
{
	size_t s = in->handle_slot - 1u;
	set_slot(k, in, lkernel_handle_slot(k, fr->slot_surfrefs[s], fr->slot_samplers[s]));
}

void lw_handle_flags_adopt(LKernel *k, const LKernel *fr)
{
	k->uses_textures |= fr->uses_textures;
	k->uses_surfaces |= fr->uses_surfaces;
	for (size_t i = 0; i < fr->ndesc_size_symbols; i++)
		lkernel_desc_size_symbol(k, fr->desc_size_symbols[i]);
}

/* The depth-first walk: code[i] is the start of a placed function (code
 * [0] the kernel's own, 0), in increasing order; a function runs to the
 * next start. */
typedef struct SlotWalk {
	const LKernel *k;
	const size_t *code;
	size_t ncode;
	bool *walked;           /* per code[] entry */
	bool *seen;             /* per slot */
	size_t *order;          /* old slot indices in their new order */
	size_t norder;
} SlotWalk;

static size_t code_at(const SlotWalk *w, size_t insn)
{
	size_t i = 0;
	while (i + 1 < w->ncode && w->code[i + 1] <= insn)
		i++;
	return i;
}

static void walk(SlotWalk *w, size_t part)
{
	const LKernel *k = w->k;
	w->walked[part] = true;
	size_t end = part + 1 < w->ncode ? w->code[part + 1] : k->ninsns;
	for (size_t i = w->code[part]; i < end; i++) {
		const LInsn *in = &k->insns[i];
		if (in->handle_slot && !w->seen[in->handle_slot - 1u]) {
			w->seen[in->handle_slot - 1u] = true;
			w->order[w->norder++] = in->handle_slot - 1u;
		}
		if (in->form->op == SOP_CAL && in->target >= 0 && (size_t)in->target < k->nlabels) {
			size_t callee = code_at(w, k->label_pos[in->target]);
			if (!w->walked[callee])
				walk(w, callee);
		}
	}
}

static int compare_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* Whether slot s of k is a texture's: a (texture, sampler) pair, a
 * .param .texref, or a bound .texref (a handle parameter hides a module
 * handle of its name, as in the lowering). */
static bool slot_is_texture(const LModule *lm, const LKernel *k, size_t s)
{
	const char *name = k->slot_surfrefs[s];
	if (k->slot_samplers[s])
		return true;
	for (size_t i = 0; i < k->nhandle_params; i++)
		if (strcmp(k->handle_params[i].name, name) == 0)
			return k->handle_params[i].space == LPARAM_TEXREF;
	for (size_t i = 0; i < lm->nsurfrefs; i++)
		if (strcmp(lm->surfrefs[i], name) == 0)
			return lm->surfref_is_texture[i];
	return false;
}

/* The walk's order with the textures' slots first (stable). */
static void textures_first(const LModule *lm, const LKernel *k, size_t *order)
{
	size_t *surfaces = xmalloc(k->nslots * sizeof *surfaces), n = 0, nsurfaces = 0;
	for (size_t i = 0; i < k->nslots; i++) {
		if (slot_is_texture(lm, k, order[i]))
			order[n++] = order[i];
		else
			surfaces[nsurfaces++] = order[i];
	}
	memcpy(order + n, surfaces, nsurfaces * sizeof *surfaces);
	free(surfaces);
}

void lw_handle_slots_order(const LModule *lm, LKernel *k, const size_t *starts, size_t nstarts)
{
	if (k->nslots < 2)
		return;
	SlotWalk w = { k, NULL, nstarts + 1, NULL, NULL, NULL, 0 };
	size_t *code = xmalloc((nstarts + 1) * sizeof *code);
	code[0] = 0;
	for (size_t i = 0; i < nstarts; i++)
		code[i + 1] = starts[i];
	qsort(code + 1, nstarts, sizeof *code, compare_size);
	w.code = code;
	w.walked = xcalloc(nstarts + 1, sizeof *w.walked);
	w.seen = xcalloc(k->nslots, sizeof *w.seen);
	w.order = xmalloc(k->nslots * sizeof *w.order);
	walk(&w, 0);
	/* slots no walk reached (a function only a dispatch through a
	 * register calls) keep their relative order at the end */
	for (size_t s = 0; s < k->nslots; s++)
		if (!w.seen[s])
			w.order[w.norder++] = s;
	size_t *rank = xmalloc(k->nslots * sizeof *rank);   /* old slot -> rank of first use */
	for (size_t i = 0; i < k->nslots; i++)
		rank[w.order[i]] = i;
	textures_first(lm, k, w.order);
	free(k->slot_first_use);
	k->slot_first_use = xmalloc(k->nslots * sizeof *k->slot_first_use);
	for (size_t i = 0; i < k->nslots; i++)
		k->slot_first_use[i] = (uint32_t)rank[w.order[i]];
	free(rank);
	size_t *renumber = xmalloc(k->nslots * sizeof *renumber);
	const char **names = xmalloc(k->nslots * sizeof *names), **samplers = xmalloc(k->nslots * sizeof *samplers);
	for (size_t i = 0; i < k->nslots; i++) {
		renumber[w.order[i]] = i;
		names[i] = k->slot_surfrefs[w.order[i]];
		samplers[i] = k->slot_samplers[w.order[i]];
	}
	memcpy(k->slot_surfrefs, names, k->nslots * sizeof *names);
	memcpy(k->slot_samplers, samplers, k->nslots * sizeof *samplers);
	for (size_t i = 0; i < k->ninsns; i++)
		if (k->insns[i].handle_slot)
			set_slot(k, &k->insns[i], renumber[k->insns[i].handle_slot - 1u]);
	free(names);
	free(samplers);
	free(renumber);
	free(w.order);
	free(w.seen);
	free(w.walked);
	free(code);
}
