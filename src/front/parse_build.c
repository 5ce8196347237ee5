#include "front/parse_build.h"
#include "isa/opcodes.h"
#include "base/xalloc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define A (ps->arena)

/* Sets e's depth from its children and reports the first level past the
 * limit: a million-term `a+a+...` chain parses iteratively, but the checker
 * and printer walk it recursively. */
static Expr *with_depth(ParseState *ps, Expr *e, unsigned child_depth)
{
	unsigned d = child_depth + 1;
	e->depth = d > UINT16_MAX ? UINT16_MAX : (uint16_t)d;
	if (d == EXPR_MAX_DEPTH + 1)
		diag_add(ps->diag, SEV_ERROR, e->loc, RULE_SYNTAX,
			 "expression nested or chained more than %d levels deep", EXPR_MAX_DEPTH);
	return e;
}

static unsigned max_depth(Expr *const *v, uint32_t n)
{
	unsigned d = 0;
	for (uint32_t i = 0; i < n; i++)
		if (v[i]->depth > d)
			d = v[i]->depth;
	return d;
}

Expr *build_unary(ParseState *ps, int op, Expr *x, SrcLoc loc)
{
	return with_depth(ps, expr_unary(A, op, x, loc), x->depth);
}

Expr *build_binary(ParseState *ps, int op, Expr *l, Expr *r, SrcLoc loc)
{
	return with_depth(ps, expr_binary(A, op, l, r, loc), l->depth > r->depth ? l->depth : r->depth);
}

Expr *build_int(ParseState *ps, const char *text, uint64_t val, bool overflow, SrcLoc loc)
{
	Expr *e = expr_new(A, EX_INT, loc);
	e->text = text;
	e->ival = val;
	e->ival_overflow = overflow;
	if (overflow && ps->mod)
		module_note_truncated_literal(ps->mod, loc);
	return e;
}

Expr *build_float(ParseState *ps, const char *text, SrcLoc loc)
{
	Expr *e = expr_new(A, EX_FLOAT, loc);
	e->text = text;
	return e;
}

Expr *build_string(ParseState *ps, const char *text, SrcLoc loc)
{
	Expr *e = expr_new(A, EX_STRING, loc);
	e->text = text;
	return e;
}

Expr *build_name(ParseState *ps, const char *name, const char *component, SrcLoc loc)
{
	Expr *e = expr_new(A, EX_NAME, loc);
	e->text = name;
	e->component = component;
	return e;
}

Expr *build_list(ParseState *ps, ExprKind kind, ExprVec *elems, SrcLoc loc)
{
	Expr *e = expr_new(A, kind, loc);
	e->elems = elems->v;
	e->nelems = elems->n;
	return with_depth(ps, e, max_depth(e->elems, e->nelems));
}

Expr *build_call(ParseState *ps, const char *name, ExprVec *args, SrcLoc loc)
{
	Expr *e = build_list(ps, EX_CALL, args, loc);
	e->text = name;
	return e;
}

Expr *build_field(ParseState *ps, const char *name, Expr *value, SrcLoc loc)
{
	Expr *e = expr_new(A, EX_FIELD, loc);
	e->text = name;
	e->lhs = value;
	return with_depth(ps, e, value->depth);
}

Expr *build_section_ref(ParseState *ps, const char *name, SrcLoc loc)
{
	Expr *e = expr_new(A, EX_SECTION, loc);
	e->text = name;
	return e;
}

/* ptxas caps parameterized register counts well below this; the limit only
 * keeps later passes from expanding absurd ranges. */
enum { MAX_RANGE = 1 << 24 };

int64_t build_range(ParseState *ps, uint64_t val, bool overflow, SrcLoc loc)
{
	if (overflow || val == 0 || val > MAX_RANGE) {
		diag_add(ps->diag, SEV_ERROR, loc, RULE_SYNTAX,
			 "register range <%llu> must be between 1 and %d", (unsigned long long)val, MAX_RANGE);
		return 1;
	}
	return (int64_t)val;
}

int64_t build_dim(ParseState *ps, uint64_t val, bool overflow, SrcLoc loc)
{
	if (overflow || val > (uint64_t)INT64_MAX / 2) {
		diag_add(ps->diag, SEV_ERROR, loc, RULE_SYNTAX, "array dimension is too large");
		return 1;
	}
	return (int64_t)val;
}

/* Modifiers of one instruction are collected in a scratch vector that is
 * reused for every instruction (modifier lists never nest), and copied to the
 * arena at their exact size when the instruction is built. */
void word_push(ParseState *ps, WordVec *v, const char *word, SrcLoc loc)
{
	if (v->n == 0)
		ps->mods_scratch.n = 0;
	WordVec *s = &ps->mods_scratch;
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		s->v = xrealloc(s->v, s->cap * sizeof *s->v);
		s->locs = xrealloc(s->locs, s->cap * sizeof *s->locs);
	}
	s->v[s->n] = word;
	s->locs[s->n] = loc;
	s->n++;
	v->n = s->n;
}

void stmt_append(StmtList *l, Stmt *s)
{
	if (!s)
		return;
	if (l->tail)
		l->tail->next = s;
	else
		l->head = s;
	l->tail = s;
}

static Item *new_item(ParseState *ps, ItemKind kind, SrcLoc loc)
{
	Item *it = ARENA_NEW(A, Item);
	it->kind = kind;
	it->loc = loc;
	ps->last_item = it;
	Module *m = ps->mod;
	m->nitems++;
	if (ps->stream)
		return it;
	if (m->items_tail)
		m->items_tail->next = it;
	else
		m->items = it;
	m->items_tail = it;
	return it;
}

void build_version(ParseState *ps, const char *text, SrcLoc text_loc, SrcLoc loc)
{
	Item *it = new_item(ps, IT_VERSION, loc);
	it->u.version.text = text;
	it->u.version.text_loc = text_loc;
	const char *dot = strchr(text, '.');
	bool ok = dot && dot != text && dot[1];
	for (const char *p = text; ok && *p; p++)
		if (!isdigit((unsigned char)*p) && p != dot)
			ok = false;
	if (!ok || dot - text > 4 || strlen(dot + 1) > 4) {
		diag_add(ps->diag, SEV_ERROR, loc, RULE_SYNTAX,
			 "malformed .version '%s': expected MAJOR.MINOR, for example '.version 7.0'", text);
		return;
	}
	it->u.version.major = atoi(text);
	it->u.version.minor = atoi(dot + 1);
}

void build_target(ParseState *ps, ExprVec *names, SrcLoc loc)
{
	Item *it = new_item(ps, IT_TARGET, loc);
	it->u.target.n = names->n;
	it->u.target.names = arena_alloc(A, names->n * sizeof(char *));
	it->u.target.locs = arena_alloc(A, names->n * sizeof(SrcLoc));
	for (uint32_t i = 0; i < names->n; i++) {
		it->u.target.names[i] = names->v[i]->text;
		it->u.target.locs[i] = names->v[i]->loc;
	}
}

void build_address_size(ParseState *ps, uint64_t bits, SrcLoc loc)
{
	Item *it = new_item(ps, IT_ADDRESS_SIZE, loc);
	it->u.address_size.bits = bits > INT64_MAX ? -1 : (int64_t)bits;
}

static Directive make_directive(const char *name, ExprVec *args, SrcLoc loc)
{
	Directive d = { .loc = loc, .name = name };
	if (args) {
		d.nargs = args->n;
		d.args = args->v;
	}
	return d;
}

void build_module_directive(ParseState *ps, const char *name, ExprVec *args, SrcLoc loc)
{
	Item *it = new_item(ps, IT_DIRECTIVE, loc);
	it->u.dir = make_directive(name, args, loc);
}

void build_section(ParseState *ps, const char *name, Stmt *items, SrcLoc loc)
{
	Item *it = new_item(ps, IT_SECTION, loc);
	it->u.section.loc = loc;
	it->u.section.name = name;
	it->u.section.items = items;
}

static VarDecl make_var(SpecVec *specs, DeclaratorVec *decls, SrcLoc loc)
{
	VarDecl v = { .loc = loc, .nspecs = specs->n, .specs = specs->v, .ndecls = decls->n, .decls = decls->v };
	return v;
}

void build_module_var(ParseState *ps, SpecVec *specs, DeclaratorVec *decls, SrcLoc loc)
{
	Item *it = new_item(ps, IT_VAR, loc);
	it->u.var = make_var(specs, decls, loc);
}

void build_func(ParseState *ps, SpecVec *specs, const char *kw, ParamList *rets, const char *name,
		SrcLoc name_loc, ParamList *params, DirectiveVec *dirs, FuncBody *body, SrcLoc loc)
{
	if (ps->open_func) {
		/* Built at the body's '{' (parse_body_begin): its header and
		 * statements may have gone out already (BodyFns). */
		Item *it = ps->open_func;
		ps->open_func = NULL;
		ps->last_item = it;
		it->loc = it->u.func.loc = loc;
		it->u.func.body = body->stmts;   /* NULL if it streamed */
		it->u.func.body_loc = body->loc;
		return;
	}
	Item *it = new_item(ps, IT_FUNC, loc);
	Func *f = &it->u.func;
	f->loc = loc;
	f->name_loc = name_loc;
	f->is_entry = strcmp(kw, ".entry") == 0;
	f->nspecs = specs->n;
	f->specs = specs->v;
	f->name = name;
	f->has_rets = rets->has;
	f->nrets = rets->list.n;
	f->rets = rets->list.v;
	f->has_params = params->has;
	f->nparams = params->list.n;
	f->params = params->list.v;
	f->ndirs = dirs->n;
	f->dirs = dirs->v;
	f->has_body = body->has;
	f->body = body->stmts;
	f->body_loc = body->loc;
}

static Stmt *new_stmt(ParseState *ps, StmtKind kind, SrcLoc loc)
{
	Stmt *s = ARENA_NEW(A, Stmt);
	s->kind = kind;
	s->loc = loc;
	return s;
}

/* Short lists are shown whole; long ones (mma has hundreds) are not. */
enum { LIST_MAX = 16 };

static void describe_valid(char *buf, size_t size, int id)
{
	const char *const *mods;
	size_t n = opcode_modifiers(id, &mods);
	size_t w = 0;
	buf[0] = 0;
	if (n == 0) {
		snprintf(buf, size, "; '%s' takes no modifiers", opcode_name(id));
		return;
	}
	if (n > LIST_MAX)
		return;
	w += (size_t)snprintf(buf, size, "; valid modifiers are");
	for (size_t i = 0; i < n && w < size; i++)
		w += (size_t)snprintf(buf + w, size - w, " %s", mods[i]);
}

/* The checker validates every modifier of these instructions itself, with
 * ptxas's wording and per-form rules (illegal vs unknown, the crash-prone
 * sured operations), so the parser leaves their modifiers to it. */
static bool checker_owns_modifiers(const char *opcode)
{
	static const char *const owned[] = { "suld", "sust", "sured", "suq", "st" };
	if (opcode[0] != 's') /* all of them: most opcodes are out at once */
		return false;
	for (size_t i = 0; i < sizeof owned / sizeof owned[0]; i++)
		if (strcmp(opcode, owned[i]) == 0)
			return true;
	return false;
}

/* Interned words hash by address: arena strings are 16-byte aligned. */
static size_t known_slot(const char *word, size_t n)
{
	return ((uintptr_t)word >> 4) % n;
}

static int lookup_opcode(ParseState *ps, const char *opcode)
{
	size_t k = known_slot(opcode, PARSE_KNOWN_OPCODES);
	if (ps->known_opcode[k].opcode == opcode)
		return ps->known_opcode[k].id;
	int id = opcode_lookup(opcode);
	if (id >= 0) {
		ps->known_opcode[k].opcode = opcode;
		ps->known_opcode[k].id = id;
	}
	return id;
}

static bool has_modifier(ParseState *ps, int id, const char *mod)
{
	size_t k = known_slot(mod, PARSE_KNOWN_MODS) ^ ((size_t)id % PARSE_KNOWN_MODS);
	if (ps->known_mod[k].mod == mod && ps->known_mod[k].id == id)
		return true;
	if (!opcode_has_modifier(id, mod))
		return false;
	ps->known_mod[k].mod = mod;
	ps->known_mod[k].id = id;
	return true;
}

/* Reports an unknown opcode or modifier; returns the opcode id or -1. */
static int opcode_validate(ParseState *ps, const Instr *in)
{
	DiagSink *sink = ps->diag;
	int id = lookup_opcode(ps, in->opcode);
	if (id < 0) {
		const char *s = opcode_suggest(in->opcode);
		if (s)
			diag_add(sink, SEV_ERROR, in->opcode_loc, RULE_UNKNOWN_OPCODE,
				 "unknown instruction '%s'; did you mean '%s'?", in->opcode, s);
		else
			diag_add(sink, SEV_ERROR, in->opcode_loc, RULE_UNKNOWN_OPCODE,
				 "unknown instruction '%s'", in->opcode);
		return -1;
	}
	if (checker_owns_modifiers(in->opcode))
		return id;
	for (uint32_t i = 0; i < in->nmods; i++) {
		if (has_modifier(ps, id, in->mods[i]))
			continue;
		const char *s = modifier_suggest(id, in->mods[i]);
		char valid[512];
		describe_valid(valid, sizeof valid, id);
		if (s)
			diag_add(sink, SEV_ERROR, in->mod_locs[i], RULE_UNKNOWN_MODIFIER,
				 "unknown modifier '%s' for '%s'; did you mean '%s'?", in->mods[i], in->opcode, s);
		else
			diag_add(sink, SEV_ERROR, in->mod_locs[i], RULE_UNKNOWN_MODIFIER,
				 "unknown modifier '%s' for '%s'%s", in->mods[i], in->opcode, valid);
	}
	return id;
}

Stmt *build_instr(ParseState *ps, const char *opcode, SrcLoc opcode_loc, WordVec *mods,
		  ExprVec *ops, SrcLoc loc)
{
	Stmt *s = new_stmt(ps, ST_INSTR, loc);
	Instr *in = &s->u.instr;
	*in = (Instr){ .loc = loc, .opcode = opcode, .opcode_loc = opcode_loc };
	in->nmods = mods->n;
	if (mods->n) {
		in->mods = arena_alloc(A, mods->n * sizeof *in->mods);
		in->mod_locs = arena_alloc(A, mods->n * sizeof *in->mod_locs);
		memcpy(in->mods, ps->mods_scratch.v, mods->n * sizeof *in->mods);
		memcpy(in->mod_locs, ps->mods_scratch.locs, mods->n * sizeof *in->mod_locs);
	}
	in->nops = ops->n;
	in->ops = ops->v;
	in->opcode_id = opcode_validate(ps, in);
	return s;
}

Stmt *build_label(ParseState *ps, const char *name, SrcLoc loc)
{
	Stmt *s = new_stmt(ps, ST_LABEL, loc);
	s->u.label = name;
	return s;
}

Stmt *build_decl_stmt(ParseState *ps, SpecVec *specs, DeclaratorVec *decls, SrcLoc loc)
{
	Stmt *s = new_stmt(ps, ST_DECL, loc);
	s->u.decl = make_var(specs, decls, loc);
	return s;
}

Stmt *build_block(ParseState *ps, Stmt *first, SrcLoc loc)
{
	Stmt *s = new_stmt(ps, ST_BLOCK, loc);
	s->u.block = first;
	return s;
}

Stmt *build_dir_stmt(ParseState *ps, const char *name, ExprVec *args, LocAttrVec *attrs, SrcLoc loc)
{
	Stmt *s = new_stmt(ps, ST_DIRECTIVE, loc);
	s->u.dir = make_directive(name, args, loc);
	if (attrs) {
		s->u.dir.nattrs = attrs->n;
		s->u.dir.attrs = attrs->v;
	}
	return s;
}

Stmt *build_proto(ParseState *ps, ParamList *rets, const char *name, ParamList *params, DirectiveVec *dirs,
	SrcLoc loc)
{
	Stmt *s = new_stmt(ps, ST_PROTO, loc);
	CallProto *p = &s->u.proto;
	p->loc = loc;
	p->has_rets = rets->has;
	p->nrets = rets->list.n;
	p->rets = rets->list.v;
	p->name = name;
	p->has_params = params->has;
	p->nparams = params->list.n;
	p->params = params->list.v;
	p->ndirs = dirs->n;
	p->dirs = dirs->v;
	return s;
}
