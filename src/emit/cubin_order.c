/* -c: the order ptxas 11.8 -c processes a module's kernels and functions
 * of their own in (the order of their sections and symbols): the kernels
 * and .visible/.weak functions last defined first, each after the
 * functions it calls, in the order its code first calls them, each of
 * those after its own the same way (a depth-first walk, each function
 * once):
 *
 *   k1 calls quad, quad calls twice, k2 calls twice:
 *   .text.twice .text.k2 .text.quad .text.k1
 *
 * Before them the LOCAL functions no call from those reaches (never
 * called, or only through their address), last defined first, each after
 * its callees. The writer processes m->kernels last to first, so the
 * ordered copy holds them in the reverse of that order. */
#include "emit/cubin_internal.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct Ref {
	uint32_t offset;
	size_t kernel;
} Ref;

static int compare_ref(const void *a, const void *b)
{
	const Ref *x = a, *y = b;
	return (x->offset > y->offset) - (x->offset < y->offset);
}

typedef struct Walk {
	const CubinModule *m;
	bool *seen;
	size_t *order;          /* processing order: old kernel indices */
	size_t n;
} Walk;

static void visit(Walk *w, size_t q)
{
	const CubinKernel *k = &w->m->kernels[q];
	w->seen[q] = true;
	Ref *refs = xmalloc((k->nextern_calls + 1) * sizeof *refs);
	size_t n = 0;
	for (size_t i = 0; i < k->nextern_calls; i++) {
		ptrdiff_t f = cubin_extern_definition(w->m, k->extern_calls[i].var);
		if (f >= 0)
			refs[n++] = (Ref){ k->extern_calls[i].offset, (size_t)f };
	}
	qsort(refs, n, sizeof *refs, compare_ref);
	for (size_t i = 0; i < n; i++)
		if (!w->seen[refs[i].kernel])
			visit(w, refs[i].kernel);
	free(refs);
	w->order[w->n++] = q;
}

/* The kernels in m (roots: non-abi functions and, if with_local, the
 * LOCAL functions too; else the others), last defined first. */
static size_t last_defined_first(const CubinModule *m, bool roots, size_t *out)
{
	size_t n = 0;
	for (size_t q = 0; q < m->nkernels; q++)
		if (roots == (!m->kernels[q].abi_func || !m->kernels[q].local_symbol))
			out[n++] = q;
	for (size_t i = 1; i < n; i++)     /* insertion sort: source lines, falling */
		for (size_t j = i; j > 0 && m->kernels[out[j - 1]].source_line < m->kernels[out[j]].source_line; j--) {
			size_t t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

bool cubin_order_functions(const CubinModule *m, CubinModule *out)
{
	size_t nk = m->nkernels, nfuncs = 0;
	for (size_t q = 0; q < nk; q++)
		nfuncs += m->kernels[q].abi_func;
	if (!m->relocatable || nfuncs == 0)
		return false;
	Walk w = { m, xcalloc(nk, sizeof *w.seen), xmalloc(nk * sizeof *w.order), 0 };
	size_t *from = xmalloc(nk * sizeof *from);
	for (size_t i = 0, n = last_defined_first(m, true, from); i < n; i++)
		if (!w.seen[from[i]])
			visit(&w, from[i]);
	/* the LOCAL functions no root reaches, processed first */
	size_t reached = w.n, *walked = xmalloc((nk + 1) * sizeof *walked);
	memcpy(walked, w.order, reached * sizeof *walked);
	w.n = 0;
	for (size_t i = 0, n = last_defined_first(m, false, from); i < n; i++)
		if (!w.seen[from[i]])
			visit(&w, from[i]);
	memcpy(w.order + w.n, walked, reached * sizeof *walked);
	free(walked);
	free(from);

	size_t *new_index = xmalloc(nk * sizeof *new_index);
	CubinKernel *ks = xmalloc(nk * sizeof *ks);
	for (size_t j = 0; j < nk; j++) {
		new_index[w.order[j]] = nk - 1 - j;
		ks[nk - 1 - j] = m->kernels[w.order[j]];
	}
	/* the indices of kernels: their addresses (func), their .shared */
	for (size_t q = 0; q < nk; q++) {
		CubinDataFixup *fx = xmalloc((ks[q].ndata_fixups + 1) * sizeof *fx);
		for (size_t i = 0; i < ks[q].ndata_fixups; i++) {
			fx[i] = ks[q].data_fixups[i];
			if (fx[i].func)
				fx[i].var = (uint32_t)new_index[fx[i].var];
		}
		ks[q].data_fixups = fx;
	}
	CubinVar *vars = xmalloc((m->nvars + 1) * sizeof *vars);
	for (size_t v = 0; v < m->nvars; v++) {
		vars[v] = m->vars[v];
		if (vars[v].kernel_body)
			vars[v].kernel_body = (uint32_t)new_index[vars[v].kernel_body - 1] + 1;
	}
	*out = *m;
	out->kernels = ks;
	out->vars = vars;
	free(new_index);
	free(w.seen);
	free(w.order);
	return true;
}

void cubin_order_free(CubinModule *ordered)
{
	for (size_t q = 0; q < ordered->nkernels; q++)
		free((CubinDataFixup *)ordered->kernels[q].data_fixups);
	free((CubinKernel *)ordered->kernels);
	free((CubinVar *)ordered->vars);
}
