#include "front/ast.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

void module_init(Module *m, const char *filename)
{
	memset(m, 0, sizeof *m);
	arena_init(&m->arena);
	m->filename = filename;
}

void module_fini(Module *m)
{
	free(m->truncated_literals);
	m->truncated_literals = NULL;
	m->ntruncated_literals = m->truncated_cap = 0;
	arena_free(&m->arena);
	m->items = m->items_tail = NULL;
}

void module_note_truncated_literal(Module *m, SrcLoc loc)
{
	if (m->ntruncated_literals == m->truncated_cap) {
		m->truncated_cap = m->truncated_cap ? 2 * m->truncated_cap : 8;
		m->truncated_literals = xrealloc(m->truncated_literals, m->truncated_cap * sizeof *m->truncated_literals);
	}
	m->truncated_literals[m->ntruncated_literals++] = loc;
}

Expr *expr_new(Arena *a, ExprKind k, SrcLoc loc)
{
	Expr *e = ARENA_NEW(a, Expr);
	e->kind = k;
	e->loc = loc;
	return e;
}

Expr *expr_unary(Arena *a, int op, Expr *x, SrcLoc loc)
{
	Expr *e = expr_new(a, EX_UNARY, loc);
	e->op = op;
	e->lhs = x;
	return e;
}

Expr *expr_binary(Arena *a, int op, Expr *l, Expr *r, SrcLoc loc)
{
	Expr *e = expr_new(a, EX_BINARY, loc);
	e->op = op;
	e->lhs = l;
	e->rhs = r;
	return e;
}

/* Recursion depth is bounded by EXPR_MAX_DEPTH, which the parser enforces. */
void expr_for_each_name(const Expr *e, void (*fn)(void *ctx, const Expr *name), void *ctx)
{
	if (!e)
		return;
	switch (e->kind) {
	case EX_NAME:
		fn(ctx, e);
		return;
	case EX_UNARY:
	case EX_FIELD:
		expr_for_each_name(e->lhs, fn, ctx);
		return;
	case EX_BINARY:
		expr_for_each_name(e->lhs, fn, ctx);
		expr_for_each_name(e->rhs, fn, ctx);
		return;
	case EX_VECTOR:
	case EX_ADDRESS:
	case EX_LIST:
	case EX_CALL:
		for (uint32_t i = 0; i < e->nelems; i++)
			expr_for_each_name(e->elems[i], fn, ctx);
		return;
	default:
		return;
	}
}

/* Arithmetic is done in uint64_t so overflow wraps (as in ptxas) instead of
 * being undefined behaviour. */
/* The value of an integer literal's text (0x, 0b, leading-0 octal or
 * decimal, an optional U suffix); false if it does not fit 64 bits. */
bool int_literal_value(const char *t, uint64_t *out)
{
	unsigned base = 10;
	if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
		base = 16, t += 2;
	else if (t[0] == '0' && (t[1] == 'b' || t[1] == 'B'))
		base = 2, t += 2;
	else if (t[0] == '0' && t[1])
		base = 8, t += 1;
	uint64_t v = 0;
	for (; *t && *t != 'U' && *t != 'u'; t++) {
		unsigned d = *t >= '0' && *t <= '9' ? (unsigned)(*t - '0') : (unsigned)((*t | 0x20) - 'a' + 10);
		if (d >= base || v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}

bool expr_is_mask_call(const Expr *e)
{
	return e && e->kind == EX_CALL && e->text && e->text[0] >= '0' && e->text[0] <= '9' && e->nelems == 1;
}

bool expr_const_int(const Expr *e, int64_t *out)
{
	int64_t a, b;
	switch (e->kind) {
	case EX_INT:
		/* ival holds the low 64 bits of a wider literal, as ptxas keeps them. */
		*out = (int64_t)e->ival;
		return true;
	case EX_LIST:
		return e->nelems == 1 && expr_const_int(e->elems[0], out);
	case EX_UNARY:
		if (!expr_const_int(e->lhs, &a))
			return false;
		switch (e->op) {
		case '-': *out = (int64_t)(0 - (uint64_t)a); return true;
		case '+': *out = a; return true;
		case '~': *out = ~a; return true;
		case '!': *out = !a; return true;
		}
		return false;
	case EX_BINARY:
		if (!expr_const_int(e->lhs, &a) || !expr_const_int(e->rhs, &b))
			return false;
		switch (e->op) {
		case '+': *out = (int64_t)((uint64_t)a + (uint64_t)b); return true;
		case '-': *out = (int64_t)((uint64_t)a - (uint64_t)b); return true;
		case '*': *out = (int64_t)((uint64_t)a * (uint64_t)b); return true;
		case '/':
		case '%':
			if (b == 0 || (a == INT64_MIN && b == -1))
				return false;
			*out = e->op == '/' ? a / b : a % b;
			return true;
		case '&': *out = a & b; return true;
		case '|': *out = a | b; return true;
		case '^': *out = a ^ b; return true;
		case OP_SHL: *out = b < 0 || b > 63 ? 0 : (int64_t)((uint64_t)a << b); return true;
		case OP_SHR: *out = b < 0 || b > 63 ? 0 : a >> b; return true;
		case OP_ANDAND: *out = a && b; return true;
		case OP_OROR: *out = a || b; return true;
		}
		return false;
	default:
		return false;
	}
}
