/* Rule operand-type: what kind of operand an instruction takes where,
 * in ptxas 13's wording. One file for the rule, one section per case:
 *   guard           the guard is a predicate register
 *   special regs    read only through mov and integer cvt, never written,
 *                   an address only of a scalar ld/ldu
 *   destination     a register, not a variable, where the result goes
 *   ld/ldu result   a .vN register or {...} as wide as the .vN
 *   ld.param        an .entry body's .param that no call returns into
 *   guarded param   no guard on ld/st.param of a body's .param
 * check_body.c calls each at its place in check_instr. */
#include "check/check_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A guard must name a predicate register (an unknown name is
 * undefined-symbol, check_body.c). */
void check_guard_type(CheckCtx *c, const Instr *in)
{
	if (in->has_guard && in->guard && check_lookup(c, in->guard) &&
	    check_register_type(c, in->guard) != TY_PRED)
		check_error(c, in->guard->loc, RULE_OPERAND_TYPE, "Predicate expression expected (guard '%s')",
			in->guard->text);
}

/* ---- special registers ---- */
/* A cvt between integer types is the one conversion ptxas lets read a
 * special register (cvt.u64.u32 %rd1, %tid.x); float ones are refused. */
static bool cvt_is_integer(const Instr *in)
{
	for (uint32_t i = 0; i < in->nmods; i++) {
		PtxType t = type_from_word(in->mods[i]);
		if (t && type_info(t)->cls != TC_BIT && type_info(t)->cls != TC_UNSIGNED &&
		    type_info(t)->cls != TC_SIGNED)
			return false;
	}
	return true;
}

/* ptxas 13 takes a special register as the address of a scalar ld or ldu
 * only; atom, red, prefetch and vector ld accept it and then die with
 * SIGSEGV (st: see check_st.c). */
static void check_special_address(CheckCtx *c, const Instr *in, const Expr *base)
{
	bool vector = false;
	for (uint32_t i = 0; i < in->nmods; i++)
		vector |= in->mods[i][1] == 'v' && isdigit((unsigned char)in->mods[i][2]);
	if ((opcode_is(in, "ld") || opcode_is(in, "ldu")) && !vector)
		return;
	check_error(c, base->loc, RULE_OPERAND_TYPE, "Special register '%s' as the address of '%s' (ptxas 13 crashes on "
		"this input; only a scalar ld or ldu takes one: copy it into a register with mov first)",
		check_expr_text(c, base), in->opcode);
}

/* The type a source operand is read as: the last type word (cvt's source
 * type; the only one for most opcodes). */
static PtxType source_type(const Instr *in)
{
	PtxType t = TY_NONE;
	for (uint32_t i = 0; i < in->nmods; i++) {
		PtxType m = type_from_word(in->mods[i]);
		if (m != TY_NONE)
			t = m;
	}
	return t;
}

/* WARP_SZ is an integer immediate to ptxas 13: any instruction reads it,
 * except as a float (add.f32 %f1, WARP_SZ, %f2 is an argument mismatch). */
static void check_constant_operand(CheckCtx *c, const Instr *in, const Expr *e)
{
	PtxType t = source_type(in);
	if (type_info(t)->cls == TC_FLOAT)
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' ('%s' is an integer "
			"constant, instruction type %s)", in->opcode, e->text, type_info(t)->word);
}

/* ptxas 13 reads special registers only through mov and integer cvt, and
 * never writes them; as vector elements they count as plain registers.
 * The surface and st checkers word their own cases. */
void check_special_operands(CheckCtx *c, const Instr *in)
{
	bool is_mov = opcode_is(in, "mov"), is_cvt = opcode_is(in, "cvt");
	bool reads = is_mov || (is_cvt && cvt_is_integer(in));
	for (uint32_t i = 0; i < in->nops; i++) {
		const Expr *e = in->ops[i], *base = check_address_base(e);
		const Symbol *b = base ? check_lookup(c, base) : NULL;
		if (b && b->kind == SYM_SPECIAL)
			check_special_address(c, in, base);
		const Symbol *s = e->kind == EX_NAME ? check_lookup(c, e) : NULL;
		if (!s || s->kind != SYM_SPECIAL)
			continue;
		if (s->is_constant && !((is_mov || is_cvt) && i == 0)) {
			check_constant_operand(c, in, e);
			continue;
		}
		if ((is_mov || is_cvt) && i == 0)
			check_error(c, e->loc, RULE_OPERAND_TYPE, "Read-only special register cannot be destination argument "
				"('%s')", check_expr_text(c, e));
		else if (!reads)
			check_error(c, e->loc, RULE_OPERAND_TYPE, "Special register argument not allowed for instruction '%s' "
				"('%s': copy it into a register with mov first)", in->opcode, check_expr_text(c, e));
	}
}

/* ---- destination ---- */
/* A bare variable name in the first operand position: every instruction
 * that names one there writes it, and ptxas 13 writes registers only
 * ("Argument 0 of instruction 'ld': must be register"). Instructions that
 * write memory take an [address] there, calls a (list), branches a label. */
void check_destination(CheckCtx *c, const Instr *in)
{
	if (in->nops == 0 || in->ops[0]->kind != EX_NAME)
		return;
	const Symbol *sym = check_lookup(c, in->ops[0]);
	if (sym && sym->kind == SYM_VAR)
		check_error(c, in->ops[0]->loc, RULE_OPERAND_TYPE, "Argument 0 of instruction '%s': must be register ('%s' is "
			"a %s variable)", in->opcode, sym->name, sym->space == SP_PARAM ? ".param" : "memory");
}

/* A bare variable name as a source: its address is an operand of mov and
 * cvta (to generic) only; ptxas 13 and 11.8 refuse it anywhere else
 * ("Argument 1 of instruction 'add': must be register"), while an address
 * expression (g+4) is an immediate they take; mapa takes a .shared one. Opaque variables have
 * their own rule (check_opaque_operands), st its own (st-operand), and
 * operand 0 is the destination's. */
void check_variable_sources(CheckCtx *c, const Instr *in)
{
	if (opcode_is(in, "mov") || opcode_is(in, "st"))
		return;
	if (opcode_is(in, "cvta")) {
		bool to = false;
		for (uint32_t m = 0; m < in->nmods; m++)
			to |= strcmp(in->mods[m], ".to") == 0;
		if (!to)
			return;
	}
	for (uint32_t i = 1; i < in->nops; i++) {
		const Expr *e = in->ops[i];
		if (e->kind != EX_NAME || e->component)
			continue;
		const Symbol *sym = check_lookup(c, e);
		/* mapa maps a .shared variable's address to another CTA's;
		 * a variable of another space is ptxas 13's "State space
		 * mismatch" */
		if (sym && sym->kind == SYM_VAR && i == 1 && opcode_is(in, "mapa")) {
			if (sym->space != SP_SHARED)
				check_error(c, e->loc, RULE_OPERAND_TYPE, "State space mismatch between instruction and address in "
					"instruction 'mapa' ('%s' is not a .shared variable)", sym->name);
			continue;
		}
		if (sym && sym->kind == SYM_VAR && !type_is_opaque(sym->type))
			check_error(c, e->loc, RULE_OPERAND_TYPE, "Argument %u of instruction '%s': must be register ('%s' is "
				"a %s variable: take its address with mov or cvta first)", i, in->opcode, sym->name,
				sym->space == SP_PARAM ? ".param" : "memory");
	}
}

/* ---- initializer forms ---- */
/* generic(x) and mask() (0xFF(x)) exist only in initializers: in an
 * instruction operand ptxas 13's grammar has no place for them. */
static const Expr *find_call_form(const Expr *e)
{
	if (!e)
		return NULL;
	if (e->kind == EX_CALL)
		return e;
	if (e->kind == EX_UNARY)
		return find_call_form(e->lhs);
	if (e->kind == EX_BINARY) {
		const Expr *l = find_call_form(e->lhs);
		return l ? l : find_call_form(e->rhs);
	}
	if (e->kind == EX_VECTOR || e->kind == EX_ADDRESS || e->kind == EX_LIST)
		for (uint32_t i = 0; i < e->nelems; i++) {
			const Expr *f = find_call_form(e->elems[i]);
			if (f)
				return f;
		}
	return NULL;
}

void check_initializer_forms(CheckCtx *c, const Instr *in)
{
	for (uint32_t i = 0; i < in->nops; i++) {
		const Expr *f = find_call_form(in->ops[i]);
		if (f) {
			check_error(c, f->loc, RULE_OPERAND_TYPE, "Illegal expression '%s(...)' in an operand of '%s' (ptxas 13: "
				"syntax error; generic() and mask() belong in variable initializers)", f->text ? f->text : "",
				in->opcode);
			return;
		}
	}
}

/* ---- ld/ldu result ---- */
/* The registers of a {...} result (and of mov.vN's {...}: check_mov.c)
 * are one width (ptxas 13: Incompatible elements of vector expression)
 * and not both integer and float (Vector with elements of different
 * types); .bN mixes with either. `what` names the {...} in the message. */
bool check_vector_elements(CheckCtx *c, const Instr *in, const Expr *d, const char *what)
{
	const TypeInfo *first = NULL;
	for (uint32_t i = 0; i < d->nelems; i++) {
		const Expr *el = d->elems[i];
		const TypeInfo *ti = check_scalar_register(c, el);
		if (!ti)
			continue;
		if (!first) {
			first = ti;
			continue;
		}
		if (ti->bits != first->bits) {
			check_error(c, el->loc, RULE_OPERAND_TYPE, "Incompatible elements of vector expression ('%s' is %s, an "
				"earlier element %s: every element of %s is one width)", el->text, ti->word, first->word, what);
			return false;
		}
		bool fi = first->cls == TC_FLOAT, ff = ti->cls == TC_FLOAT;
		bool ii = first->cls == TC_UNSIGNED || first->cls == TC_SIGNED, ti_int = ti->cls == TC_UNSIGNED || ti->cls == TC_SIGNED;
		if ((fi && ti_int) || (ii && ff)) {
			check_error(c, el->loc, RULE_OPERAND_TYPE, "Vector with elements of different types are not allowed in %s "
				"instruction ('%s' is %s, an earlier element %s)", in->opcode, el->text, ti->word, first->word);
			return false;
		}
	}
	return true;
}

/* The fragments of the matrix instructions: registers of one width
 * (ptxas 13: Incompatible elements of vector expression). */
static void check_matrix_elements(CheckCtx *c, const Expr *e)
{
	int bits = 0;
	for (uint32_t i = 0; i < e->nelems; i++) {
		const Expr *el = e->elems[i];
		if (el->kind != EX_NAME || el->component || check_is_sink(el))
			continue;
		const Symbol *s = check_lookup(c, el);
		if (!s || s->kind != SYM_REG || s->vec)
			continue;
		const TypeInfo *ti = type_info(s->type);
		if (!bits)
			bits = ti->bits;
		else if (ti->bits != bits) {
			check_error(c, el->loc, RULE_OPERAND_TYPE, "Incompatible elements of vector expression ('%s' is %s; the "
				"fragment's other registers are %d-bit)", el->text, ti->word, bits);
			return;
		}
	}
}

/* Braced operands of 5, 6 or 7 elements: no instruction takes one, nor
 * one of 3 a matrix instruction (ptxas 13: Illegal vector size). mov's
 * packing words its own message. */
void check_vector_sizes(CheckCtx *c, const Instr *in)
{
	if (opcode_is(in, "mov"))
		return;
	/* tex.v2/.v4: the braced result holds as many registers. */
	if (opcode_is(in, "tex") && in->nops && in->ops[0]->kind == EX_VECTOR) {
		int vec_at = modifier_of_class(in, "vector");
		int n = vec_at >= 0 ? in->mods[vec_at][2] - '0' : 0;
		if (n && in->ops[0]->nelems != (uint32_t)n)
			check_error(c, in->ops[0]->loc, RULE_OPERAND_TYPE, "Argument vector size mismatch for instruction '%s' "
				"({...} has %u elements, %s takes %d)", in->opcode, in->ops[0]->nelems, in->mods[vec_at], n);
	}
	check_texture_types(c, in);
	if (opcode_is(in, "tex") || opcode_is(in, "tld4"))
		check_texture_offsets(c, in);
	bool matrix = opcode_is(in, "mma") || opcode_is(in, "wmma") || opcode_is(in, "ldmatrix") ||
		opcode_is(in, "stmatrix") || opcode_is(in, "movmatrix");
	for (uint32_t i = 0; i < in->nops; i++) {
		const Expr *e = in->ops[i];
		if (e->kind != EX_VECTOR)
			continue;
		if ((e->nelems >= 5 && e->nelems <= 7) || (matrix && e->nelems == 3))
			check_error(c, e->loc, RULE_OPERAND_TYPE, "Illegal vector size: %u (braced operands have 1, 2, 4, 8 or "
				"more elements as the instruction's shape needs)", e->nelems);
		else if (matrix)
			check_matrix_elements(c, e);
	}
	if (in->opcode[0] == 'w' && opcode_is(in, "wmma")) {
		check_wmma_fragment(c, in);
		check_wmma_mma(c, in);
	}
}

/* Element types judged as the scalar result is (check_signature.c):
 * packed, .bf16 and opaque types have rules of their own. */
static bool judged_element_type(PtxType t)
{
	TypeClass cls = type_info(t)->cls;
	return t != TY_NONE && t != TY_BF16 && cls != TC_PACKED && cls != TC_OPAQUE;
}

/* The .bN type of a width (TY_NONE if none). */
PtxType check_bit_type(int bits)
{
	return bits == 8 ? TY_B8 : bits == 16 ? TY_B16 : bits == 32 ? TY_B32 : bits == 64 ? TY_B64 : TY_NONE;
}

/* An element of a {...} result: as the scalar result, and (ptxas 13
 * accepts it in vectors only) an integer register of a float type's width. */
static bool element_fits(PtxType type, PtxType reg)
{
	if (reg == TY_NONE)
		return true;
	const TypeInfo *t = type_info(type), *r = type_info(reg);
	if (t->cls == TC_FLOAT && (r->cls == TC_UNSIGNED || r->cls == TC_SIGNED) && r->bits == t->bits)
		return true;
	return type_register_fits(type, reg, FIT_RELAXED);
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
		if (d->nelems != (uint32_t)(n ? n : 1)) {
			check_error(c, d->loc, RULE_OPERAND_TYPE, "Argument vector size mismatch for instruction '%s' ({...} has "
				"%u elements, %s%s%s takes %d)", in->opcode, d->nelems, in->opcode, n ? " with " : " without .vN",
				n ? in->mods[vec_at] : "", n ? n : 1);
			return;
		}
		char what[24];
		snprintf(what, sizeof what, "%s's result", in->opcode);
		bool one_kind = check_vector_elements(c, in, d, what);
		/* ptxas 13 joins the elements' types first: one .bN element makes
		 * the whole {...} a .bN value ({%fd1, %b64} for .u64 is accepted;
		 * {%h1, %h2} for .u32 still is too narrow). */
		bool joined_bit = false;
		for (uint32_t i = 0; i < d->nelems; i++) {
			const Expr *el = d->elems[i];
			const Symbol *sym = el->kind == EX_NAME && !el->component ? check_lookup(c, el) : NULL;
			joined_bit |= sym && sym->kind == SYM_REG && !sym->vec && type_info(sym->type)->cls == TC_BIT;
		}
		for (uint32_t i = 0; i < d->nelems; i++) {
			const Expr *el = d->elems[i];
			const Symbol *sym = el->kind == EX_NAME && !el->component ? check_lookup(c, el) : NULL;
			if (sym && sym->kind == SYM_REG && sym->vec)
				check_error(c, el->loc, RULE_OPERAND_TYPE, "Illegal expression '%s' (a .v%d register is the whole "
					"result or one element, %s.x)", el->text, sym->vec, el->text);
			/* Each element holds one value of the type, as the scalar
			 * result does (isa/operand_sigs.def, role 'l'). */
			else if (one_kind && sym && sym->kind == SYM_REG && judged_element_type(type) &&
				 !element_fits(type, joined_bit ? check_bit_type(type_info(sym->type)->bits) : sym->type)) {
				check_error(c, el->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' ('%s' is %s; each "
					"element of %s%s needs a register that holds %s)", in->opcode, el->text,
					type_info(sym->type)->word, in->opcode, n ? in->mods[vec_at] : "", type_info(type)->word);
				one_kind = false;
			}
		}
		return;
	}
	if (d->kind != EX_NAME || check_vector_register(c, &failed, d, n, type, in->opcode, RULE_OPERAND_TYPE) || !n)
		return;
	const Symbol *sym = check_lookup(c, d);
	if (sym && sym->kind == SYM_REG)
		check_error(c, d->loc, RULE_OPERAND_TYPE, "Result vector expected for '%s.v%d' ('%s' is one register)",
			in->opcode, n, check_expr_text(c, d));
}

/* ---- ld.param ---- */
/* ld.param inside an .entry from a .param variable the body declares:
 * ptxas 13 takes it when the variable receives a call's return value and
 * crashes (SIGSEGV, every target) when nothing but st.param writes it, so
 * such a file never assembles. A .func may use the same scratch freely. */

const Expr *check_call_returns(const Instr *in)
{
	if (strcmp(in->opcode, "call") != 0 || in->nops < 2 || in->ops[0]->kind != EX_LIST ||
	    in->ops[1]->kind != EX_NAME)
		return NULL;
	return in->ops[0];
}

/* True if some call in the statements names `name` in its return list. */
static bool returned_into(const Stmt *s, const char *name)
{
	for (; s; s = s->next) {
		if (s->kind == ST_BLOCK && returned_into(s->u.block, name))
			return true;
		const Expr *rets = s->kind == ST_INSTR ? check_call_returns(&s->u.instr) : NULL;
		for (uint32_t i = 0; rets && i < rets->nelems; i++)
			if (rets->elems[i]->kind == EX_NAME && strcmp(rets->elems[i]->text, name) == 0)
				return true;
	}
	return false;
}

void check_param_read_error(CheckCtx *c, const char *name, SrcLoc loc)
{
	check_error(c, loc, RULE_OPERAND_TYPE, "ld.param from '%s', a .param variable of the kernel body that no "
		"call returns into (ptxas 13 crashes on this input; keep the value in a register)", name);
}

void check_param_read(CheckCtx *c, const Instr *in)
{
	if (!c->func || !c->func->is_entry || !c->func->has_body || strcmp(in->opcode, "ld") != 0 || in->nops < 2)
		return;
	bool param = false;
	for (uint32_t i = 0; i < in->nmods; i++)
		param |= strcmp(in->mods[i], ".param") == 0;
	const Expr *base = param ? check_address_base(in->ops[1]) : NULL;
	const Symbol *sym = base ? check_lookup(c, base) : NULL;
	if (!sym || sym->kind != SYM_VAR || sym->space != SP_PARAM || sym->is_input_param)
		return;
	/* A body that comes statement by statement has not been seen whole:
	 * the verdict may wait for its end. */
	if (c->body_stream)
		c->param_read_waits(c, sym->name, base->loc);
	else if (!returned_into(c->func->body, sym->name))
		check_param_read_error(c, sym->name, base->loc);
}

/* ---- a guard on ld.param / st.param ---- */
/* ptxas 13 refuses a guard on ld.param or st.param of a .param variable a
 * function body declares -- a call's argument or return value: "Illegal
 * to predicate instruction 'ld.param' with operand 'r0'" (.entry and
 * .func alike). The function's own parameters and return values take one. */
static bool is_return_formal(const Func *f, const char *name)
{
	for (uint32_t i = 0; i < f->nrets; i++)
		for (uint32_t j = 0; j < f->rets[i].ndecls; j++)
			if (strcmp(f->rets[i].decls[j].name, name) == 0)
				return true;
	return false;
}

void check_param_guard(CheckCtx *c, const Instr *in)
{
	bool ld = strcmp(in->opcode, "ld") == 0;
	if (!in->has_guard || !c->func || (!ld && strcmp(in->opcode, "st") != 0) || in->nops < 2)
		return;
	bool param = false;
	for (uint32_t i = 0; i < in->nmods; i++)
		param |= strcmp(in->mods[i], ".param") == 0;
	const Expr *base = param ? check_address_base(in->ops[ld ? 1 : 0]) : NULL;
	const Symbol *sym = base ? check_lookup(c, base) : NULL;
	if (!sym || sym->kind != SYM_VAR || sym->space != SP_PARAM || sym->is_input_param ||
	    is_return_formal(c->func, sym->name))
		return;
	check_error(c, base->loc, RULE_OPERAND_TYPE, "Illegal to predicate instruction '%s.param' with operand '%s', "
		"a .param variable of the function body (a call's argument or return value): branch around the "
		"instruction instead", in->opcode, sym->name);
}
