/* brx: the jump tables of brx.idx as data of the IR (see lower.h's
 * LBrxTable): the successors a BRX has, where its table's words go in
 * .nv.constant2, and what linking a function's tables into a kernel
 * moves. ptxas 11.8 reads the table with `LDC Rt, c[0x2][Ri + table]`
 * from words holding the targets' .text offsets (lower_desc.c places the
 * tables, kernel_code.c fills them in once the code is laid out). Nothing
 * here lowers or calls the lowering's helpers: liveness and linking use
 * it too. */
#include "lower/lower_internal.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

static bool reads_table(const LInsn *in)
{
	return in->form->op == SOP_LDC && linsn_get(in, SR_CBANK, 0) == LK_CONST2_BANK;
}

unsigned lkernel_brx_targets(const LKernel *k, const LInsn *brx, size_t *succ)
{
	if (brx->target < 0 || (size_t)brx->target >= k->nbrx)
		return 0;
	const LBrxTable *t = &k->brx[brx->target];
	for (uint32_t j = 0; j < t->n; j++)
		succ[j] = k->label_pos[t->labels[j]];
	return t->n;
}

size_t lw_brx_tables_adopt(LKernel *k, const LKernel *fr, size_t lbase)
{
	size_t tbase = k->nbrx;
	if (fr->nbrx == 0)
		return tbase;
	k->brx = xrealloc(k->brx, (k->nbrx + fr->nbrx) * sizeof *k->brx);
	for (size_t t = 0; t < fr->nbrx; t++) {
		LBrxTable *to = &k->brx[k->nbrx++];
		*to = fr->brx[t];
		to->labels = xcalloc(to->n ? to->n : 1, sizeof *to->labels);
		for (uint32_t j = 0; j < to->n; j++)
			to->labels[j] = fr->brx[t].labels[j] + (int)lbase;
	}
	return tbase;
}

void lw_brx_adopt(LInsn *in, size_t tbase)
{
	if (in->form->op == SOP_BRX && in->target >= 0)
		in->target += (int)tbase;
	if (reads_table(in))
		linsn_set(in, SR_COFF, linsn_get(in, SR_COFF, 0) + (int64_t)tbase);
}

void lkernel_brx_free(LKernel *k)
{
	for (size_t t = 0; t < k->nbrx; t++)
		free(k->brx[t].labels);
	free(k->brx);
	k->brx = NULL;
	k->nbrx = 0;
}
