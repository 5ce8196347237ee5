/* Function regions of a linked kernel and the vregs each touches (see
 * call_scope.h). */
#include "lower/call_scope.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

static int by_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

uint32_t call_scope_region_at(const CallScope *cs, size_t i)
{
	/* the number of entries at or before i */
	size_t lo = 0, hi = cs->nentries;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (cs->entry[mid] <= i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)lo;
}

static bool reach_has(const CallScope *cs, uint32_t f, uint32_t r)
{
	return cs->reach[(size_t)f * cs->words + r / 64] >> (r % 64) & 1;
}

static void reach_set(CallScope *cs, uint32_t f, uint32_t r)
{
	cs->reach[(size_t)f * cs->words + r / 64] |= (uint64_t)1 << (r % 64);
}

bool call_scope_touches(const CallScope *cs, uint32_t v, uint32_t f)
{
	for (size_t x = cs->ref_start[v]; x < cs->ref_start[v + 1]; x++)
		if (reach_has(cs, f, cs->ref_region[x]))
			return true;
	return false;
}

static void build_regions(const LKernel *k, CallScope *cs)
{
	cs->entry = xmalloc((k->ninsns + 1) * sizeof *cs->entry);
	cs->nentries = 0;
	for (size_t i = 0; i < k->ninsns; i++)
		if (k->insns[i].form->op == SOP_CAL && k->insns[i].target >= 0)
			cs->entry[cs->nentries++] = (uint32_t)k->label_pos[k->insns[i].target];
	qsort(cs->entry, cs->nentries, sizeof *cs->entry, by_u32);
	size_t n = 0;
	for (size_t x = 0; x < cs->nentries; x++)
		if (n == 0 || cs->entry[n - 1] != cs->entry[x])
			cs->entry[n++] = cs->entry[x];
	cs->nentries = n;
}

/* reach: each region's direct calls, then closed over the call graph (a
 * region count's worth of rounds at most; recursion ends when nothing grows). */
static void build_reach(const LKernel *k, CallScope *cs)
{
	size_t nreg = cs->nentries + 1;
	cs->words = (nreg + 63) / 64;
	cs->reach = xcalloc(nreg * cs->words + 1, sizeof *cs->reach);
	for (uint32_t f = 0; f < nreg; f++)
		reach_set(cs, f, f);
	for (size_t i = 0; i < k->ninsns; i++)
		if (k->insns[i].form->op == SOP_CAL && k->insns[i].target >= 0)
			reach_set(cs, call_scope_region_at(cs, i),
			          call_scope_region_at(cs, k->label_pos[k->insns[i].target]));
	for (bool grew = true; grew;) {
		grew = false;
		for (uint32_t f = 0; f < nreg; f++)
			for (uint32_t g = 0; g < nreg; g++) {
				if (g == f || !reach_has(cs, f, g))
					continue;
				for (size_t w = 0; w < cs->words; w++) {
					uint64_t *row = &cs->reach[(size_t)f * cs->words + w];
					uint64_t add = cs->reach[(size_t)g * cs->words + w] & ~*row;
					*row |= add;
					grew |= add != 0;
				}
			}
	}
}

/* Per vreg, the distinct regions referencing it (instructions are visited
 * in order, so a vreg's regions come sorted and a repeat is the last one). */
static void build_refs(const LKernel *k, CallScope *cs)
{
	cs->ref_start = xcalloc(k->nvregs + 2, sizeof *cs->ref_start);
	uint32_t *last = xmalloc((k->nvregs + 1) * sizeof *last);
	for (int pass = 0; pass < 2; pass++) {
		size_t *fill = NULL;
		if (pass) {
			for (size_t v = 0; v < k->nvregs; v++)
				cs->ref_start[v + 1] += cs->ref_start[v];
			cs->ref_region = xmalloc((cs->ref_start[k->nvregs] + 1) * sizeof *cs->ref_region);
			fill = xmalloc((k->nvregs + 1) * sizeof *fill);
			memcpy(fill, cs->ref_start, (k->nvregs + 1) * sizeof *fill);
		}
		memset(last, 0xff, (k->nvregs + 1) * sizeof *last);
		for (size_t i = 0; i < k->ninsns; i++) {
			uint32_t f = call_scope_region_at(cs, i);
			for (unsigned r = 0; r < k->insns[i].nrefs; r++) {
				uint32_t v = k->insns[i].refs[r].vreg;
				if (last[v] == f)
					continue;
				last[v] = f;
				if (pass)
					cs->ref_region[fill[v]++] = f;
				else
					cs->ref_start[v + 1]++;
			}
		}
		free(fill);
	}
	free(last);
}

void call_scope_build(const LKernel *k, CallScope *cs)
{
	memset(cs, 0, sizeof *cs);
	cs->returns = !k->recursive;
	build_regions(k, cs);
	build_reach(k, cs);
	build_refs(k, cs);
}

void call_scope_free(CallScope *cs)
{
	free(cs->entry);
	free(cs->reach);
	free(cs->ref_start);
	free(cs->ref_region);
	memset(cs, 0, sizeof *cs);
}
