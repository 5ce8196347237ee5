/* Registers declared .v2/.v4 as the data of st or the result of ld and
 * ldu: ptxas 13 takes one for the whole {...} when its width is the
 * instruction's .vN, with element types by the vector rule (FIT_VECTOR);
 * ld without .vN writes one element of it (%v.x). */
#include "check/check_internal.h"

#include <string.h>

bool check_vector_register(CheckCtx *c, bool *template_failed, const Expr *e, int n, PtxType type,
	const char *opcode, const char *rule)
{
	const Symbol *sym = e->kind == EX_NAME && !e->component ? check_lookup(c, e) : NULL;
	if (!sym || sym->kind != SYM_REG || !sym->vec)
		return false;
	if (sym->vec != n && n)
		check_template_error(c, template_failed, e->loc, rule, "Argument vector size mismatch for instruction "
			"'%s' ('%s' is a .v%d register, instruction .v%d)", opcode, e->text, sym->vec, n);
	else if (sym->vec != n)
		check_template_error(c, template_failed, e->loc, rule, "Argument vector size mismatch for instruction "
			"'%s' ('%s' is a .v%d register, no .vN modifier)", opcode, e->text, sym->vec);
	else if (type != TY_NONE && !type_register_fits(type, sym->type, FIT_VECTOR))
		check_template_error(c, template_failed, e->loc, rule, "Arguments mismatch for instruction '%s' ('%s' is "
			".v%d%s, instruction type %s)", opcode, e->text, n, type_info(sym->type)->word, type_info(type)->word);
	return true;
}

/* The result operand of ld and ldu: a whole vector register, {...} of
 * scalars, or with no .vN one scalar (a vector register's element too). */
void check_load_vector(CheckCtx *c, const Instr *in)
{
	if ((strcmp(in->opcode, "ld") != 0 && strcmp(in->opcode, "ldu") != 0) || in->nops < 2)
		return;
	int vec_at = modifier_of_class(in, "vector"), type_at = modifier_of_class(in, "type");
	int n = vec_at >= 0 ? in->mods[vec_at][2] - '0' : 0;
	PtxType type = type_at >= 0 ? type_from_word(in->mods[type_at]) : TY_NONE;
	bool failed = false;
	const Expr *d = in->ops[0];
	if (d->kind == EX_VECTOR) {
		for (uint32_t i = 0; i < d->nelems; i++) {
			const Expr *el = d->elems[i];
			const Symbol *sym = el->kind == EX_NAME && !el->component ? check_lookup(c, el) : NULL;
			if (sym && sym->kind == SYM_REG && sym->vec)
				check_error(c, el->loc, "operand-type", "Illegal expression '%s' (a .v%d register is the whole "
					"result or one element, %s.x)", el->text, sym->vec, el->text);
		}
		return;
	}
	if (d->kind != EX_NAME || check_vector_register(c, &failed, d, n, type, in->opcode, "operand-type") || !n)
		return;
	const Symbol *sym = check_lookup(c, d);
	if (sym && sym->kind == SYM_REG)
		check_error(c, d->loc, "operand-type", "Result vector expected for '%s.v%d' ('%s' is one register)",
			in->opcode, n, check_expr_text(c, d));
}
