/* brx: `brx.idx i, tbl;` with `tbl: .branchtargets L0, L1, ...;` as ptxas
 * 11.8 writes it (-O0 and -O3): `SHL t, i, 0x2; LDC t, c[0x2][t + table];
 * BRX t -(pc + 8)`, the table one .nv.constant2 word per target holding
 * its .text offset (lower_brx_table.c, kernel_code.c), so the BRX lands
 * on Ri + pc + 8 - (pc + 8) = the target. reconverge.c gives the BRX an
 * SSY before it and SYNCs on the edges into the targets' join, as ptxas
 * does. An index out of the table's range is undefined in PTX (ptxas
 * reads whatever word follows). Under -c ptxas reads the table as
 * `IADD32I t, t, 0x8000; LDC t, c[0x2][t + table - 0x8000]`, the offset
 * relocated (R_CUDA_CONST_FIELD21_20 against the table's bytes, addend
 * -0x8000: the LDC's signed 16-bit offset then reaches all of a 64 KiB
 * bank wherever the linker puts the table); we do the same. */
#include "lower/lower_internal.h"

#include "sm50/sass_code_facts.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

void lw_brx_collect(LowerCtx *c, const Stmt *s)
{
	c->brx_decls = xrealloc(c->brx_decls, (c->nbrx_decls + 1) * sizeof *c->brx_decls);
	c->brx_decls[c->nbrx_decls++] = s;
}

void lw_brx_ctx_end(LowerCtx *c)
{
	free(c->brx_decls);
	c->brx_decls = NULL;
	c->nbrx_decls = 0;
}

static const Directive *table_named(const LowerCtx *c, const char *name)
{
	for (size_t i = 0; i < c->nbrx_decls; i++)
		if (strcmp(c->brx_decls[i]->u.label, name) == 0)
			return &c->brx_decls[i]->next->u.dir;
	return NULL;
}

/* The table's label ids, as a new table of the kernel; -1 when diagnosed. */
static int table_add(LowerCtx *c, const Directive *d)
{
	if (d->nargs == 0 || d->nargs > LBRX_MAX_TARGETS)
		return lw_unsupported(c, d->loc, ".branchtargets with %u targets (1 to %d are supported)", d->nargs,
		                      LBRX_MAX_TARGETS), -1;
	int *labels = xcalloc(d->nargs, sizeof *labels);
	for (uint32_t j = 0; j < d->nargs; j++) {
		const Expr *e = d->args[j];
		const LMapEntry *l = e->kind == EX_NAME ? lmap_find(&c->labels, e->text) : NULL;
		if (l == NULL) {
			free(labels);
			return lw_unsupported(c, e->loc, "a .branchtargets entry that is not a label of this function"), -1;
		}
		labels[j] = (int)l->value;
	}
	LKernel *k = c->k;
	k->brx = xrealloc(k->brx, (k->nbrx + 1) * sizeof *k->brx);
	k->brx[k->nbrx] = (LBrxTable){ .labels = labels, .n = d->nargs, .word = 0,
	                               .bias = c->lm->relocatable ? SASS_BRX_TABLE_BIAS : 0 };
	return (int)k->nbrx++;
}

bool lower_brx_idx(LowerCtx *c, const Instr *in)
{
	if (!lw_has_mod(in, ".idx") || in->ops[1]->kind != EX_NAME)
		return lw_unsupported(c, in->loc, "brx without .idx and a .branchtargets label");
	const Directive *d = table_named(c, in->ops[1]->text);
	if (d == NULL)
		return lw_unsupported(c, in->ops[1]->loc, "brx.idx table '%s' (no .branchtargets of this function "
		                      "by that name)", in->ops[1]->text);
	Opnd idx;
	if (!lw_opnd(c, in->ops[0], &idx))
		return false;
	int table = table_add(c, d);
	if (table < 0)
		return false;
	uint32_t iv;
	unsigned isub;
	lw_opnd_part(c, &idx, 0, &iv, &isub);
	uint32_t off = lw_temp(c, 1), to = lw_temp(c, 1);
	LInsn *shl = lw_emit(c, SF_SHL_I);
	linsn_ref(shl, SR_RD, off, 0, 1, true);
	linsn_ref(shl, SR_RA, iv, isub, 1, false);
	linsn_set(shl, SR_IMM, 2);
	if (c->k->brx[table].bias) {   /* -c: the relocated offset is the table's - 0x8000 */
		LInsn *add = lw_emit(c, SF_IADD32I);
		linsn_ref(add, SR_RD, off, 0, 1, true);
		linsn_ref(add, SR_RA, off, 0, 1, false);
		linsn_set(add, SR_IMM, c->k->brx[table].bias);
	}
	LInsn *ldc = lw_emit(c, SF_LDC);
	linsn_ref(ldc, SR_RD, to, 0, 1, true);
	linsn_ref(ldc, SR_RA, off, 0, 1, false);
	linsn_set(ldc, SR_SIZE, 4);
	linsn_set(ldc, SR_LDCMODE, 0);
	linsn_set(ldc, SR_CBANK, LK_CONST2_BANK);
	linsn_set(ldc, SR_COFF, table);     /* the table's index until lkernel_compact_const2 */
	LInsn *brx = lw_emit(c, SF_BRX);
	linsn_ref(brx, SR_RA, to, 0, 1, false);
	linsn_set(brx, SR_COND, 0xf);
	brx->target = table;
	brx->keep = true;
	return true;
}
