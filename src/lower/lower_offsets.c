/* Constant offsets after a name, folded into one before lowering: ptxas
 * reads gv+8+4 (and [gv+4+4], %rd1+8+-4) as gv+12, and every lowering
 * that takes an address or an immediate address reads name+constant one
 * level deep. (name+(8+4) is one level already: its right side is a
 * constant expression.) */
#include "lower/lower_internal.h"
#include "base/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static bool is_offset_step(const Expr *e, int64_t *add)
{
	if (e->kind != EX_BINARY || (e->op != '+' && e->op != '-') || !expr_const_int(e->rhs, add))
		return false;
	if (e->op == '-')
		*add = (int64_t)(0 - (uint64_t)*add);
	return true;
}

/* name+c1+c2... as one name+c, or e itself. */
static const Expr *fold(LowerCtx *c, const Expr *e)
{
	int64_t sum = 0, add;
	unsigned steps = 0;
	const Expr *base = e;
	while (is_offset_step(base, &add)) {
		sum = (int64_t)((uint64_t)sum + (uint64_t)add);
		base = base->lhs;
		steps++;
	}
	if (steps < 2 || base->kind != EX_NAME)
		return e;
	Expr *k = lw_own(c, xmalloc(sizeof *k));
	memset(k, 0, sizeof *k);
	k->kind = EX_INT;
	k->loc = e->rhs->loc;
	k->ival = (uint64_t)sum;
	char text[24];
	snprintf(text, sizeof text, "%" PRId64, sum);
	k->text = lw_own(c, strcpy(xmalloc(strlen(text) + 1), text));
	Expr *x = lw_own(c, xmalloc(sizeof *x));
	*x = *e;
	x->op = '+';
	x->lhs = (Expr *)base;
	x->rhs = k;
	return x;
}

static const Expr *fold_operand(LowerCtx *c, const Expr *e)
{
	if (e->kind == EX_BINARY)
		return fold(c, e);
	if (e->kind != EX_ADDRESS || e->nelems != 1 || e->elems[0]->kind != EX_BINARY)
		return e;
	const Expr *inner = fold(c, e->elems[0]);
	if (inner == e->elems[0])
		return e;
	Expr *x = lw_own(c, xmalloc(sizeof *x));
	*x = *e;
	x->elems = lw_own(c, xmalloc(sizeof *x->elems));
	x->elems[0] = (Expr *)inner;
	return x;
}

const Instr *lw_offsets_folded_instr(LowerCtx *c, const Instr *in)
{
	Expr **ops = NULL;
	for (uint32_t i = 0; i < in->nops; i++) {
		const Expr *x = fold_operand(c, in->ops[i]);
		if (x == in->ops[i])
			continue;
		if (!ops) {
			ops = lw_own(c, xcalloc(in->nops, sizeof *ops));
			memcpy(ops, in->ops, in->nops * sizeof *ops);
		}
		ops[i] = (Expr *)x;
	}
	if (!ops)
		return in;
	Instr *out = lw_own(c, xmalloc(sizeof *out));
	*out = *in;
	out->ops = ops;
	return out;
}
