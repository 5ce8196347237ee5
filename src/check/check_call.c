/* Rule call-arguments: a direct call against the callee's declaration, an
 * indirect one (through a register) against its .callprototype, as
 * ptxas 13 checks it: as many return values and arguments as the
 * prototype has ("Call has wrong number of parameters"), and each
 * argument of the formal's type ("Type of argument does not match formal
 * parameter 'a'"): a scalar of the same width whose kind fits (a .bN
 * formal takes any kind, an integer one no float, a float one no
 * integer), an array for an array of as many bytes, a .param variable of
 * the formal's alignment ("Alignment of argument does not match formal
 * parameter"); an unsized last formal (a variadic block) may be left
 * out; an indirect call
 * names its prototype's label (or a .calltargets list) last ("Label
 * expected"). Immediates are left alone. */
#include "check/check_internal.h"

#include <string.h>

/* The kinds a formal of type f takes from an argument of type a. */
static bool kinds_fit(PtxType f, PtxType a)
{
	TypeClass fc = type_info(f)->cls, ac = type_info(a)->cls;
	bool f_int = fc == TC_UNSIGNED || fc == TC_SIGNED, a_int = ac == TC_UNSIGNED || ac == TC_SIGNED;
	if (fc == TC_BIT || ac == TC_BIT)
		return true;
	if (f_int)
		return ac != TC_FLOAT;
	return fc != TC_FLOAT || !a_int;
}

static int64_t bytes_of(PtxType t, int64_t elems)
{
	return elems < 0 ? -1 : elems * (type_info(t)->bits / 8);
}

/* One argument (or return variable) against its formal. */
static void check_argument(CheckCtx *c, const Expr *arg, const Formal *formal)
{
	if (arg->kind != EX_NAME || arg->component || check_is_sink(arg) || formal->type == TY_NONE)
		return;
	const Symbol *s = check_lookup(c, arg);
	if (!s || (s->kind != SYM_REG && s->kind != SYM_VAR) || s->vec || s->type == TY_NONE)
		return;
	const TypeInfo *ft = type_info(formal->type), *at = type_info(s->type);
	if (ft->cls == TC_OPAQUE || at->cls == TC_OPAQUE || ft->cls == TC_PRED || at->cls == TC_PRED)
		return;
	/* ptxas 13 matches arrays of one element (nvcc's .b8 x[1] for an empty
	 * struct) with arrays only, not with scalars */
	bool formal_array = formal->is_array || formal->elems != 1, arg_array = s->kind == SYM_VAR && s->is_array;
	bool fits;
	if (formal_array || arg_array) {
		int64_t fb = bytes_of(formal->type, formal->elems), ab = arg_array ? bytes_of(s->type, s->elems) : -2;
		fits = formal_array && arg_array ? fb < 0 || ab < 0 || fb == ab : false;
	} else {
		fits = ft->bits == at->bits && kinds_fit(formal->type, s->type);
	}
	if (!fits)
		check_error(c, arg->loc, RULE_CALL_ARGUMENTS, "Type of argument does not match formal parameter '%s' ('%s' "
			"is %s%s%s; the callee declares %s%s)", formal->name, arg->text, at->word,
			arg_array ? " array" : "", s->kind == SYM_REG ? " register" : "", ft->word,
			formal_array ? " array" : "");
	/* a register aligned as its type, a .param variable as its .align or type */
	if (formal->is_param && s->align_log2 != formal->align_log2)
		check_error(c, arg->loc, RULE_CALL_ARGUMENTS, "Alignment of argument does not match formal parameter '%s' "
			"('%s' is aligned to %llu bytes%s; the callee declares %llu)", formal->name, arg->text,
			1ull << s->align_log2, s->kind == SYM_REG ? ", its type's size" : "", 1ull << formal->align_log2);
}

/* An indirect call's last operand, after the argument list at `at`: the
 * label of a .callprototype (returned) or of a .calltargets list. */
static const Symbol *indirect_prototype(CheckCtx *c, const Instr *in, uint32_t at, const Expr *callee)
{
	const Expr *last = at < in->nops ? in->ops[in->nops - 1] : NULL;
	const Symbol *s = last && last->kind == EX_NAME ? check_lookup(c, last) : NULL;
	if (!last || (s && s->kind != SYM_LABEL)) {
		check_error(c, last ? last->loc : callee->loc, RULE_CALL_ARGUMENTS, "Label expected for the last operand of "
			"instruction 'call' (a call through '%s' names the label of its .callprototype or .calltargets)",
			callee->text);
		return NULL;
	}
	return s;
}

/* The lists of `call (rets), f, (args)` or `call f, (args)`: rets is NULL
 * without a return list; args NULL without an argument list. */
void check_call_arguments(CheckCtx *c, const Instr *in)
{
	if (in->nops == 0)
		return;
	uint32_t at = 0;
	const Expr *rets = NULL, *args = NULL;
	if (in->ops[0]->kind == EX_LIST)
		rets = in->ops[at++];
	if (at >= in->nops || in->ops[at]->kind != EX_NAME)
		return;
	const Expr *callee = in->ops[at++];
	if (at < in->nops && in->ops[at]->kind == EX_LIST)
		args = in->ops[at++];
	const Symbol *f = check_lookup(c, callee);
	if (f && f->kind == SYM_REG)
		f = indirect_prototype(c, in, at, callee);
	if (!f || (f->kind != SYM_FUNC && f->kind != SYM_LABEL) || !f->formals)
		return;
	const Formals *fs = f->formals;
	uint32_t nrets = rets ? rets->nelems : 0, nargs = args ? args->nelems : 0;
	/* a last parameter without a size (a variadic block) may be left out */
	bool optional_last = fs->nparams > 0 && fs->params[fs->nparams - 1].elems < 0 &&
	                     fs->params[fs->nparams - 1].is_array;
	if (nrets != fs->nrets || (nargs != fs->nparams && !(optional_last && nargs + 1 == fs->nparams))) {
		check_error(c, callee->loc, RULE_CALL_ARGUMENTS, "Call has wrong number of parameters (%s'%s' returns %u and "
			"takes %u; this call has %u and %u)", f->kind == SYM_LABEL ? "the prototype " : "", f->name, fs->nrets, fs->nparams, nrets, nargs);
		return;
	}
	for (uint32_t i = 0; i < nrets; i++)
		check_argument(c, rets->elems[i], &fs->rets[i]);
	for (uint32_t i = 0; i < nargs; i++)
		check_argument(c, args->elems[i], &fs->params[i]);
}
