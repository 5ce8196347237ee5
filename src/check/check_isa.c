/* Evaluation of the ISA gate table (isa_gates.def) on instructions,
 * directives, declarations and special registers. Diagnostics keep ptxas
 * 13's wording and the rule ids of check_gate (version-gate, target-gate,
 * and their -doc variants for document-only rows), with notes on the
 * .version/.target lines, so that the requirements report and the rule
 * documentation treat both tables alike. */
#include "check/check_isa.h"

#include <stdio.h>
#include <string.h>

/* The row's own version threshold (check_gate_threshold). */
static PtxVersion version_threshold(const CheckCtx *c, const IsaGate *g)
{
	return check_gate_threshold(c, g->min_version, g->ptxas_version);
}

/* The version a target entry "sm_NN@v" adds for the module's target (0:
 * none). It is ptxas's own rule, so both modes apply it. */
static PtxVersion target_version(const CheckCtx *c, const IsaGate *g)
{
	PtxVersion since = c->target ? isa_gate_target_since(g, c->target) : 0;
	return since > 0 ? since : 0;
}

static bool version_fails(const CheckCtx *c, const IsaGate *g)
{
	if (!check_gate_applies(c, g->source) || !c->has_version)
		return false;
	return (g->min_version && c->version < version_threshold(c, g)) || c->version < target_version(c, g);
}

static bool target_fails(const CheckCtx *c, const IsaGate *g)
{
	return check_gate_applies(c, g->source) && c->target && !isa_gate_target_ok(g, c->target);
}

bool check_isa_gate_fails(const CheckCtx *c, const IsaGate *g)
{
	return version_fails(c, g) || target_fails(c, g);
}

static bool strict_only(const CheckCtx *c, const IsaGate *g, bool version)
{
	return check_gate_strict_only(c, g->source, g->ptxas_version, version);
}

/* req_subject words messages from a requirement row; the fields it reads
 * are the same in both tables. */
static const char *subject(const IsaGate *g, ReqForm form, const char *use, char *buf, size_t size)
{
	ReqRow r;
	memset(&r, 0, sizeof r);
	r.id = REQ_COUNT;
	r.id_name = g->id_name;
	r.feature = g->feature;
	return req_subject(&r, form, use, buf, size);
}

static void emit_version(CheckCtx *c, const IsaGate *g, SrcLoc loc, const char *use)
{
	char subj[200], have[8], need[8];
	PtxVersion tv = target_version(c, g);
	bool by_target = c->version < tv && !(g->min_version && c->version < version_threshold(c, g));
	bool so = !by_target && strict_only(c, g, true);
	subject(g, g->version_form, use, subj, sizeof subj);
	ptx_version_str(by_target ? tv : g->min_version, need, sizeof need);
	ptx_version_str(c->version, have, sizeof have);
	Diag *d = diag_add(c->sink, SEV_ERROR, loc, check_gate_rule(g->source, true),
		"%s requires PTX ISA .version %s or later%s%s (the file declares .version %s)%s", subj, need,
		by_target ? " on .target " : "", by_target ? c->target_name : "", have,
		so ? "; PTX ISA rule, ptxas 13 accepts it" : "");
	check_note_version(c, d);
	if (so)
		diag_note(c->sink, d, loc, "%s", g->doc);
}

/* ptxas words a missing architecture-specific or family target as "not
 * supported on .target 'sm_90'", a too-old one as "requires .target sm_N
 * or higher". */
static void emit_target(CheckCtx *c, const IsaGate *g, SrcLoc loc, const char *use)
{
	char subj[200];
	bool so = strict_only(c, g, false);
	const char *tail = so ? "; PTX ISA rule, ptxas 13 accepts it" : "";
	subject(g, g->target_form, use, subj, sizeof subj);
	Diag *d;
	if (isa_gate_family_only(g))
		d = diag_add(c->sink, SEV_ERROR, loc, check_gate_rule(g->source, false),
			"%s not supported on .target '%s' (it needs one of: %s)%s", subj, c->target_name, g->targets, tail);
	else
		d = diag_add(c->sink, SEV_ERROR, loc, check_gate_rule(g->source, false),
			"%s requires .target sm_%d or higher (the file declares .target %s)%s", subj, isa_gate_min_sm(g),
			c->target_name, tail);
	check_note_target(c, d);
	if (so)
		diag_note(c->sink, d, loc, "%s", g->doc);
}

bool check_isa_gate(CheckCtx *c, const IsaGate *g, SrcLoc loc, const char *use)
{
	bool vf = version_fails(c, g), tf = target_fails(c, g);
	if (g->order == REQ_ORDER_TFIRST && tf)
		emit_target(c, g, loc, use);
	if (vf)
		emit_version(c, g, loc, use);
	if (g->order == REQ_ORDER_VFIRST && tf)
		emit_target(c, g, loc, use);
	return !vf && !tf;
}

/* ---- special registers ---- */

static void check_sreg_name(void *ctx, const Expr *e)
{
	CheckCtx *c = ctx;
	if (!isa_sreg_may_match(e->text))
		return;
	/* The name first: the lookup, needed only to tell a declared
	 * register from a special one, costs more. */
	const IsaGate *const *rows;
	size_t n = isa_gates_of_kind(IGK_SREG, &rows);
	for (size_t i = 0; i < n; i++) {
		/* Every pattern spells at least two characters after '%':
		 * most operands (%r1, %rd2) differ there. */
		const char *m = rows[i]->match;
		if (e->text[1] != m[1] || e->text[2] != m[2] || !isa_gate_matches_sreg(rows[i], e->text))
			continue;
		const Symbol *s = check_lookup(c, e);
		if (s && s->kind != SYM_SPECIAL)
			return;
		check_isa_gate(c, rows[i], e->loc, NULL);
	}
}

void check_isa_operand_sreg(CheckCtx *c, const Expr *e)
{
	expr_for_each_name(e, check_sreg_name, c);
}

/* ---- instructions ---- */

static bool has_form(const IsaGate *g, ReqForm f)
{
	return g->version_form == f || g->target_form == f;
}

/* What ptxas calls the operation an instruction performs, for the *_USE
 * message forms: the feature of the most specific matching row spelled
 * "<opcode>.<...>" ("mbarrier.test_wait.parity"), else the opcode and its
 * first modifier ("mbarrier.init"). */
static const char *operation_name(const Instr *in, const IsaGate *const *matched, size_t n, char *buf, size_t size)
{
	size_t oplen = strlen(in->opcode);
	const char *best = NULL;
	for (size_t i = 0; i < n; i++) {
		const char *f = matched[i]->feature;
		if (has_form(matched[i], REQ_FORM_FEATURE) && strncmp(f, in->opcode, oplen) == 0 && f[oplen] == '.' &&
		    (!best || strlen(f) > strlen(best)))
			best = f;
	}
	if (best)
		return best;
	snprintf(buf, size, "%s%s", in->opcode, in->nmods ? in->mods[0] : "");
	return buf;
}

void check_isa_instr(CheckCtx *c, const Instr *in)
{
	const IsaGate *const *rows;
	size_t n = in->opcode_id >= 0 ? isa_gates_of_opcode(in->opcode_id, &rows) : 0;
	const IsaGate *matched[64];     /* more than any opcode has rows (atom: 26) */
	size_t nmatched = 0;
	for (size_t i = 0; i < n && nmatched < sizeof matched / sizeof matched[0]; i++)
		if (isa_gate_matches_mods(rows[i], in))
			matched[nmatched++] = rows[i];
	char first_two[128], operation[128];
	const char *op = NULL;
	for (size_t i = 0; i < nmatched; i++) {
		const IsaGate *g = matched[i];
		const char *use = in->opcode;
		/* ptxas names an instruction family by its first two words
		 * ("Instruction 'wgmma.fence'", "'setmaxnreg.inc'"). */
		if (has_form(g, REQ_FORM_INSTRUCTION_USE)) {
			snprintf(first_two, sizeof first_two, "%s%s", in->opcode, in->nmods ? in->mods[0] : "");
			use = first_two;
		} else if (has_form(g, REQ_FORM_FEATURE_USE) || has_form(g, REQ_FORM_MODIFIER_ON_USE)) {
			if (!op)
				op = operation_name(in, matched, nmatched, operation, sizeof operation);
			use = op;
		}
		check_isa_gate(c, g, in->opcode_loc, use);
	}
}

void check_isa_instr_sregs(CheckCtx *c, const Instr *in)
{
	for (uint32_t i = 0; i < in->nops; i++)
		check_isa_operand_sreg(c, in->ops[i]);
}

/* ---- directives and declarations ---- */

/* A directive known only by its name (.callprototype, .section). */
static void gate_directive(CheckCtx *c, const char *name, SrcLoc loc)
{
	size_t n;
	const IsaGate *gates = isa_gates(&n);
	for (size_t i = 0; i < n; i++)
		if (isa_gate_matches_directive(&gates[i], name))
			check_isa_gate(c, &gates[i], loc, NULL);
}

static void gate_dir(CheckCtx *c, const Directive *d)
{
	const IsaGate *const *rows;
	size_t n = d->name ? isa_gates_of_directive(d->name, &rows) : 0;
	for (size_t i = 0; i < n; i++)
		if (isa_gate_matches_dir(rows[i], d))
			check_isa_gate(c, rows[i], d->loc, NULL);
}

static bool is_space_word(const char *w)
{
	static const char *const spaces[] = {
		".reg", ".sreg", ".const", ".global", ".local", ".param", ".shared", ".tex",
	};
	/* the second byte (read only after the first matched) rejects most */
	for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
		if (w[0] == spaces[i][0] && w[1] == spaces[i][1] && strcmp(w, spaces[i]) == 0)
			return true;
	return false;
}

static void gate_specs(CheckCtx *c, uint32_t nspecs, const DeclSpec *specs)
{
	const char *space = NULL;
	for (uint32_t i = 0; i < nspecs; i++)
		if (is_space_word(specs[i].word))
			space = specs[i].word;
	for (uint32_t i = 0; i < nspecs; i++) {
		const DeclSpec *s = &specs[i];
		const IsaGate *const *rows;
		size_t n = s->word ? isa_gates_of_word(s->word, &rows) : 0;
		for (size_t k = 0; k < n; k++) {
			const IsaGate *g = rows[k];
			if (isa_gate_matches_directive(g, s->word) || isa_gate_matches_type(g, s->word, space))
				check_isa_gate(c, g, s->loc, NULL);
		}
	}
}

/* Opaque-type fields (filter_mode = nearest) name values, not symbols:
 * the walk does not enter them. */
static void gate_init(CheckCtx *c, const Expr *e)
{
	if (!e)
		return;
	const IsaGate *const *rows;
	size_t n = isa_gates_of_kind(IGK_INIT, &rows);
	for (size_t i = 0; i < n; i++)
		if (isa_gate_matches_init(rows[i], e))
			check_isa_gate(c, rows[i], e->loc, NULL);
	switch (e->kind) {
	case EX_UNARY:
		gate_init(c, e->lhs);
		return;
	case EX_BINARY:
		gate_init(c, e->lhs);
		gate_init(c, e->rhs);
		return;
	case EX_VECTOR:
	case EX_LIST:
	case EX_CALL:
		for (uint32_t i = 0; i < e->nelems; i++)
			gate_init(c, e->elems[i]);
		return;
	default:
		return;
	}
}

static void gate_var_decls(CheckCtx *c, uint32_t n, const VarDecl *d)
{
	for (uint32_t i = 0; i < n; i++) {
		gate_specs(c, d[i].nspecs, d[i].specs);
		for (uint32_t k = 0; k < d[i].ndecls; k++)
			gate_init(c, d[i].decls[k].init);
	}
}

static void gate_section(CheckCtx *c, const Section *sec)
{
	gate_directive(c, ".section", sec->loc);
	const IsaGate *const *rows;
	size_t n = isa_gates_of_kind(IGK_SECTION, &rows);
	for (const Stmt *s = sec->items; s; s = s->next)
		for (size_t i = 0; i < n; i++)
			if (isa_gate_matches_section_stmt(rows[i], s))
				check_isa_gate(c, rows[i], s->loc, NULL);
}

void check_isa_stmt(CheckCtx *c, const Stmt *s)
{
	switch (s->kind) {
	case ST_DIRECTIVE:
		gate_dir(c, &s->u.dir);
		break;
	case ST_PROTO:
		gate_directive(c, ".callprototype", s->u.proto.loc);
		gate_var_decls(c, s->u.proto.nrets, s->u.proto.rets);
		gate_var_decls(c, s->u.proto.nparams, s->u.proto.params);
		for (uint32_t i = 0; i < s->u.proto.ndirs; i++)
			gate_dir(c, &s->u.proto.dirs[i]);
		break;
	case ST_DECL:
		gate_var_decls(c, 1, &s->u.decl);
		break;
	default:
		break;
	}
}

static void gate_body(CheckCtx *c, const Stmt *s)
{
	for (; s; s = s->next) {
		if (s->kind == ST_BLOCK)
			gate_body(c, s->u.block);
		else
			check_isa_stmt(c, s);
	}
}

void check_isa_func(CheckCtx *c, const Func *f)
{
	/* A kernel's parameter list is gated like an argument list of .entry. */
	if (f->is_entry) {
		Directive entry = { .loc = f->name_loc, .name = ".entry", .nargs = f->nparams };
		gate_dir(c, &entry);
	} else {
		/* A .func's .param return values are gated like arguments of
		 * ".func" (older code returned through .reg). */
		uint32_t param_rets = 0;
		for (uint32_t i = 0; i < f->nrets; i++)
			for (uint32_t k = 0; k < f->rets[i].nspecs; k++)
				param_rets += f->rets[i].specs[k].word && strcmp(f->rets[i].specs[k].word, ".param") == 0;
		Directive rets = { .loc = f->nrets ? f->rets[0].loc : f->name_loc, .name = ".func", .nargs = param_rets };
		if (param_rets)
			gate_dir(c, &rets);
	}
	gate_specs(c, f->nspecs, f->specs);
	gate_var_decls(c, f->nrets, f->rets);
	gate_var_decls(c, f->nparams, f->params);
	for (uint32_t i = 0; i < f->ndirs; i++)
		gate_dir(c, &f->dirs[i]);
	if (f->has_body)
		gate_body(c, f->body);
}

void check_isa_item(CheckCtx *c, const Item *it)
{
	if (it->kind == IT_DIRECTIVE)
		gate_dir(c, &it->u.dir);
	else if (it->kind == IT_SECTION)
		gate_section(c, &it->u.section);
	else if (it->kind == IT_VAR)
		gate_var_decls(c, 1, &it->u.var);
}

void check_isa_module(CheckCtx *c)
{
	for (const Item *it = c->m->items; it; it = it->next)
		check_isa_item(c, it);
}
