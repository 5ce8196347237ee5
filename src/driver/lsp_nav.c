/* Hover, go-to-definition and the document outline, from the module the
 * document parses to: what lies under the cursor (an instruction's opcode
 * or modifier, a register, variable, label or function name, a type word,
 * a directive) and, for names, the declaration it refers to. Instruction,
 * type, directive and special-register hovers list the rows of the gate
 * table (isa/isa_gates.def) and the requirement table (isa/requirements.def)
 * that apply: the minimum PTX ISA version and target, as the checker
 * enforces them. */
#include "driver/lsp_internal.h"
#include "base/json.h"
#include "check/isa_gates.h"
#include "isa/cuda_releases.h"
#include "isa/opcodes.h"
#include "isa/requirements.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef enum HitKind {
	HIT_NONE, HIT_OPCODE, HIT_NAME, HIT_DECL, HIT_FUNC, HIT_LABEL, HIT_SPEC, HIT_DIRECTIVE,
	HIT_VERSION, HIT_TARGET,    /* the module header */
} HitKind;

typedef struct Hit {
	HitKind kind;
	const Func *func;           /* the function around the position */
	const Instr *instr;         /* HIT_OPCODE */
	const Expr *name;           /* HIT_NAME */
	const Declarator *decl;     /* HIT_DECL */
	const VarDecl *vd;          /* ... and its declaration */
	bool param;                 /* ... of a parameter */
	const Stmt *label;          /* HIT_LABEL */
	const DeclSpec *spec;       /* HIT_SPEC */
	const Directive *dir;       /* HIT_DIRECTIVE */
	const Item *header;         /* HIT_VERSION, HIT_TARGET */
	const char *target;         /* HIT_TARGET: the name */
	SrcLoc loc;
} Hit;

typedef struct Pos {
	int line, col;
} Pos;

static bool contains(SrcLoc l, Pos p)
{
	if (l.first_line <= 0)
		return false;
	if (p.line < l.first_line || p.line > l.last_line)
		return false;
	if (p.line == l.first_line && p.col < l.first_column)
		return false;
	if (p.line == l.last_line && p.col >= l.last_column)
		return false;
	return true;
}

static bool find_expr(const Expr *e, Pos p, Hit *h)
{
	if (!e || (!contains(e->loc, p) && e->kind != EX_LIST && e->kind != EX_CALL))
		return false;
	switch (e->kind) {
	case EX_NAME:
		h->kind = HIT_NAME;
		h->name = e;
		h->loc = e->loc;
		return true;
	case EX_UNARY:
	case EX_FIELD:
		return find_expr(e->lhs, p, h);
	case EX_BINARY:
		return find_expr(e->lhs, p, h) || find_expr(e->rhs, p, h);
	case EX_VECTOR:
	case EX_ADDRESS:
	case EX_LIST:
	case EX_CALL:
		for (uint32_t i = 0; i < e->nelems; i++)
			if (find_expr(e->elems[i], p, h))
				return true;
		return false;
	default:
		return false;
	}
}

static bool find_vardecl(const VarDecl *v, Pos p, Hit *h)
{
	for (uint32_t i = 0; i < v->ndecls; i++) {
		if (contains(v->decls[i].loc, p)) {
			h->kind = HIT_DECL;
			h->decl = &v->decls[i];
			h->vd = v;
			h->loc = v->decls[i].loc;
			return true;
		}
		if (find_expr(v->decls[i].init, p, h))
			return true;
	}
	for (uint32_t i = 0; i < v->nspecs; i++)
		if (contains(v->specs[i].loc, p)) {
			h->kind = HIT_SPEC;
			h->spec = &v->specs[i];
			h->loc = v->specs[i].loc;
			return true;
		}
	return false;
}

static bool find_directive(const Directive *d, Pos p, Hit *h)
{
	for (uint32_t i = 0; i < d->nargs; i++)
		if (find_expr(d->args[i], p, h))
			return true;
	if (!contains(d->loc, p))
		return false;
	h->kind = HIT_DIRECTIVE;
	h->dir = d;
	h->loc = d->loc;
	return true;
}

static bool find_stmts(const Stmt *s, Pos p, Hit *h)
{
	for (; s; s = s->next) {
		if (!contains(s->loc, p) && s->kind != ST_BLOCK)
			continue;
		switch (s->kind) {
		case ST_INSTR: {
			const Instr *in = &s->u.instr;
			if (in->has_guard && find_expr(in->guard, p, h))
				return true;
			bool on_opcode = contains(in->opcode_loc, p);
			for (uint32_t i = 0; i < in->nmods && !on_opcode; i++)
				on_opcode = contains(in->mod_locs[i], p);
			if (on_opcode) {
				h->kind = HIT_OPCODE;
				h->instr = in;
				h->loc = in->opcode_loc;
				return true;
			}
			for (uint32_t i = 0; i < in->nops; i++)
				if (find_expr(in->ops[i], p, h))
					return true;
			break;
		}
		case ST_LABEL:
			h->kind = HIT_LABEL;
			h->label = s;
			h->loc = s->loc;
			return true;
		case ST_DECL:
			if (find_vardecl(&s->u.decl, p, h))
				return true;
			break;
		case ST_BLOCK:
			if (find_stmts(s->u.block, p, h))
				return true;
			break;
		case ST_DIRECTIVE:
			if (find_directive(&s->u.dir, p, h))
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

static bool find_at(const Module *m, Pos p, Hit *h)
{
	memset(h, 0, sizeof *h);
	for (const Item *it = m->items; it; it = it->next) {
		if (!contains(it->loc, p))
			continue;
		if (it->kind == IT_VAR)
			return find_vardecl(&it->u.var, p, h);
		if (it->kind == IT_DIRECTIVE)
			return find_directive(&it->u.dir, p, h);
		if (it->kind == IT_VERSION) {
			*h = (Hit){ .kind = HIT_VERSION, .header = it, .loc = it->loc };
			return true;
		}
		if (it->kind == IT_TARGET) {
			for (uint32_t i = 0; i < it->u.target.n; i++)
				if (contains(it->u.target.locs[i], p)) {
					*h = (Hit){ .kind = HIT_TARGET, .header = it, .target = it->u.target.names[i],
						    .loc = it->u.target.locs[i] };
					return true;
				}
			return false;
		}
		if (it->kind != IT_FUNC)
			return false;
		const Func *f = &it->u.func;
		h->func = f;
		if (contains(f->name_loc, p)) {
			h->kind = HIT_FUNC;
			h->loc = f->name_loc;
			return true;
		}
		for (uint32_t i = 0; i < f->nparams; i++)
			if (find_vardecl(&f->params[i], p, h))
				return h->param = true;
		for (uint32_t i = 0; i < f->nrets; i++)
			if (find_vardecl(&f->rets[i], p, h))
				return h->param = true;
		for (uint32_t i = 0; i < f->ndirs; i++)
			if (find_directive(&f->dirs[i], p, h))
				return true;
		return find_stmts(f->body, p, h);
	}
	return false;
}

/* The cursor right after a word ("%r1|") means the word. */
static bool find_near(const Module *m, int line1, int col1, Hit *h)
{
	return find_at(m, (Pos){ line1, col1 }, h) || (col1 > 1 && find_at(m, (Pos){ line1, col1 - 1 }, h));
}

/* ---- declarations ---- */

typedef enum DefKind { DEF_NONE, DEF_VAR, DEF_PARAM, DEF_LABEL, DEF_FUNC } DefKind;

typedef struct Def {
	DefKind kind;
	SrcLoc loc;                 /* the name */
	const VarDecl *vd;
	const Declarator *decl;
	const Func *func;
} Def;

/* %r<40> declares %r0 ... %r39. */
static bool declares(const Declarator *d, const char *name)
{
	if (!d->name)
		return false;   /* after a syntax error */
	if (d->range < 0)
		return strcmp(d->name, name) == 0;
	size_t n = strlen(d->name);
	if (strncmp(d->name, name, n) != 0 || !name[n])
		return false;
	long long v = 0;
	for (const char *p = name + n; *p; p++) {
		if (!isdigit((unsigned char)*p) || v > d->range)
			return false;
		v = v * 10 + (*p - '0');
	}
	return v < d->range && (name[n] != '0' || !name[n + 1]);
}

static bool in_vardecl(const VarDecl *v, const char *name, DefKind kind, Def *out)
{
	for (uint32_t i = 0; i < v->ndecls; i++)
		if (declares(&v->decls[i], name)) {
			*out = (Def){ kind, v->decls[i].loc, v, &v->decls[i], NULL };
			return true;
		}
	return false;
}

static bool in_stmts(const Stmt *s, const char *name, Def *out)
{
	for (; s; s = s->next) {
		if (s->kind == ST_LABEL && s->u.label && strcmp(s->u.label, name) == 0) {
			*out = (Def){ DEF_LABEL, s->loc, NULL, NULL, NULL };
			return true;
		}
		if (s->kind == ST_DECL && in_vardecl(&s->u.decl, name, DEF_VAR, out))
			return true;
		if (s->kind == ST_BLOCK && in_stmts(s->u.block, name, out))
			return true;
	}
	return false;
}

static bool resolve(const Module *m, const Func *fn, const char *name, Def *out)
{
	if (fn) {
		if (in_stmts(fn->body, name, out))
			return true;
		for (uint32_t i = 0; i < fn->nparams; i++)
			if (in_vardecl(&fn->params[i], name, DEF_PARAM, out))
				return true;
		for (uint32_t i = 0; i < fn->nrets; i++)
			if (in_vardecl(&fn->rets[i], name, DEF_PARAM, out))
				return true;
	}
	const Func *proto = NULL;
	for (const Item *it = m->items; it; it = it->next) {
		if (it->kind == IT_VAR && in_vardecl(&it->u.var, name, DEF_VAR, out))
			return true;
		if (it->kind == IT_FUNC && it->u.func.name && strcmp(it->u.func.name, name) == 0) {
			if (it->u.func.has_body) {
				*out = (Def){ DEF_FUNC, it->u.func.name_loc, NULL, NULL, &it->u.func };
				return true;
			}
			if (!proto)
				proto = &it->u.func;
		}
	}
	if (proto) {
		*out = (Def){ DEF_FUNC, proto->name_loc, NULL, NULL, proto };
		return true;
	}
	return false;
}

static const char *hit_name(const Hit *h)
{
	switch (h->kind) {
	case HIT_NAME: return h->name->text;
	case HIT_DECL: return h->decl->name;
	case HIT_LABEL: return h->label->u.label;
	case HIT_FUNC: return h->func->name;
	default: return NULL;
	}
}

/* What the name under the cursor refers to; a declaration refers to itself. */
static bool resolve_hit(const Module *m, const Hit *h, Def *def)
{
	if (h->kind == HIT_DECL) {
		*def = (Def){ h->param ? DEF_PARAM : DEF_VAR, h->decl->loc, h->vd, h->decl, NULL };
		return true;
	}
	const char *name = hit_name(h);
	return name && resolve(m, h->func, name, def);
}

static void write_location(LspServer *s, LspDoc *d, FILE *f, SrcLoc loc)
{
	fputs("{\"uri\":", f);
	json_string(f, d->uri);
	fputs(",\"range\":", f);
	lsp_write_range(s, d, f, loc);
	fputc('}', f);
}

void lsp_definition(LspServer *s, LspDoc *d, int line1, int col1, FILE *f)
{
	const Module *m = lsp_doc_module(d);
	Hit h;
	Def def;
	if (!find_near(m, line1, col1, &h) || !resolve_hit(m, &h, &def)) {
		fputs("null", f);
		return;
	}
	/* a label's statement spans "L:"; a register range's declarator "%r<40>" */
	write_location(s, d, f, def.loc);
}

/* ---- hover ---- */

static void source_line(LspDoc *d, int line1, FILE *md)
{
	if (line1 < 1 || (size_t)line1 > d->nlines)
		return;
	size_t b = d->lines[line1 - 1];
	size_t e = (size_t)line1 < d->nlines ? d->lines[line1] - 1 : d->len;
	while (b < e && (d->text[b] == ' ' || d->text[b] == '\t'))
		b++;
	while (e > b && (d->text[e - 1] == '\r' || d->text[e - 1] == ' ' || d->text[e - 1] == '\t'))
		e--;
	if (e - b > 400)
		e = b + 400;
	fputs("```ptx\n", md);
	fwrite(d->text + b, 1, e - b, md);
	fputs("\n```\n", md);
}

static void version_text(PtxVersion v, char *buf)
{
	ptx_version_str(v, buf, 8);
}

static void write_gate(const IsaGate *g, bool applies, FILE *md)
{
	char a[8], b[8];
	fprintf(md, "- **%s**", g->feature);
	if (g->mods && *g->mods)
		fprintf(md, " (`%s`)", g->mods);
	if (g->min_version) {
		version_text(g->min_version, a);
		fprintf(md, ": PTX ISA %s or later", a);
		if (g->ptxas_version && g->ptxas_version != g->min_version) {
			version_text(g->ptxas_version, b);
			fprintf(md, " (ptxas 13 enforces %s)", b);
		}
	} else {
		fputs(": any PTX ISA version", md);
	}
	if (g->targets && *g->targets)
		fprintf(md, "; `.target` %s", g->targets);
	else
		fputs("; any `.target`", md);
	if (applies)
		fputs(" — *applies here*", md);
	/* examples start with where they stand: "B:" body, "F:" header, "M:" module */
	const char *ex = g->example;
	if (ex && ex[0] && ex[1] == ':')
		ex += 2;
	if (ex && *ex)
		fprintf(md, "  \n  e.g. `%s`", ex);
	fputc('\n', md);
}

/* requirements.def rows named after an opcode or word (the surface
 * instructions, st, the packed types); returns how many. */
static size_t write_req_rows(const char *opcode, FILE *md)
{
	size_t shown = 0;
	size_t n, k = strlen(opcode);
	const ReqRow *rows = req_rows(&n);
	for (size_t i = 0; i < n; i++) {
		const ReqRow *r = &rows[i];
		if (strncmp(r->feature, opcode, k) != 0 || (r->feature[k] && r->feature[k] != '.' && r->feature[k] != ' '))
			continue;
		char a[8];
		fprintf(md, "- **%s**", r->feature);
		if (r->min_version) {
			version_text(r->min_version, a);
			fprintf(md, ": PTX ISA %s or later", a);
		}
		if (r->min_sm)
			fprintf(md, "; `.target` sm_%d or later", r->min_sm);
		fputc('\n', md);
		shown++;
	}
	return shown;
}

static void hover_instr(LspDoc *d, const Instr *in, FILE *md)
{
	source_line(d, in->loc.first_line, md);
	if (in->opcode_id < 0) {
		fprintf(md, "`%s` is not a PTX instruction.\n", in->opcode);
		return;
	}
	fprintf(md, "**%s", in->opcode);
	for (uint32_t i = 0; i < in->nmods; i++)
		fputs(in->mods[i], md);
	fputs("**: PTX instruction", md);
	const IsaGate *const *rows;
	size_t n = isa_gates_of_opcode(in->opcode_id, &rows);
	fputs(n ? ". Version and target gates (isa_gates.def); those marked *applies here* gate this instruction:\n\n"
		: "; no version or target gate of its own in isa_gates.def.\n\n", md);
	/* the rows that apply, then other variants of the opcode, a few */
	enum { OTHERS_SHOWN = 6 };
	size_t others = 0;
	for (size_t i = 0; i < n; i++)
		if (isa_gate_matches_mods(rows[i], in))
			write_gate(rows[i], true, md);
	for (size_t i = 0; i < n; i++)
		if (!isa_gate_matches_mods(rows[i], in) && others++ < OTHERS_SHOWN)
			write_gate(rows[i], false, md);
	if (others > OTHERS_SHOWN)
		fprintf(md, "- ... and %zu more variants of `%s`\n", others - OTHERS_SHOWN, in->opcode);
	write_req_rows(in->opcode, md);
}

static void hover_rows(const char *what, const char *word, const IsaGate *const *rows, size_t n, FILE *md)
{
	fprintf(md, "**%s** %s\n\n", word, what);
	for (size_t i = 0; i < n; i++)
		write_gate(rows[i], true, md);
	if (!write_req_rows(word, md) && !n)
		fputs("No version or target gate.\n", md);
}

static void hover_sreg(const char *name, FILE *md)
{
	const IsaGate *const *rows;
	size_t n = isa_gates_of_kind(IGK_SREG, &rows), k = 0;
	const IsaGate *hits[16];
	for (size_t i = 0; i < n && k < 16; i++)
		if (isa_gate_matches_sreg(rows[i], name))
			hits[k++] = rows[i];
	hover_rows("special register", name, hits, k, md);
}

/* .version X.Y: the CUDA release that first accepts it (cuda_releases.def) */
static void hover_version(const Item *it, FILE *md)
{
	PtxVersion v = PTX_VERSION_OF(it->u.version.major, it->u.version.minor);
	char buf[8];
	ptx_version_str(v, buf, sizeof buf);
	const CudaRelease *r = cuda_release_first_for_ptx(v);
	fprintf(md, "**.version %s**: PTX ISA %s", buf, buf);
	if (r)
		fprintf(md, ", accepted from CUDA %s on", r->version);
	else if (!ptx_version_is_legal(v))
		fputs(", not a version ptxas 13 knows", md);
	fputs(" (`src/isa/cuda_releases.def`)\n", md);
}

/* .target sm_NN: the oldest .version that accepts it (targets.def) */
static void hover_target(const char *name, FILE *md)
{
	const TargetInfo *t = ptx_target_lookup(name);
	if (!t) {
		fprintf(md, "**%s**: not a target ptxas 13 knows\n", name);
		return;
	}
	char buf[8];
	fprintf(md, "**.target %s**: needs `.version %s` or later (`src/isa/targets.def`)%s\n", t->name,
		ptx_version_str(t->min_version, buf, sizeof buf),
		t->family == 'a' ? "; architecture-specific: its features run on this GPU only"
		: t->family == 'f' ? "; family-specific: its features run on this family only" : "");
}

static void hover_def(LspDoc *d, const char *name, const Def *def, FILE *md)
{
	source_line(d, def->loc.first_line, md);
	static const char *const what[] = { "", "variable", "parameter", "label", "function" };
	const char *kind = what[def->kind];
	if (def->kind == DEF_VAR && def->vd)
		for (uint32_t i = 0; i < def->vd->nspecs; i++)
			if (strcmp(def->vd->specs[i].word, ".reg") == 0)
				kind = "register";
	if (def->decl && def->decl->range >= 0)
		fprintf(md, "`%s`: %s, one of `%s<%lld>` (declared at line %d)\n", name, kind, def->decl->name,
			(long long)def->decl->range, def->loc.first_line);
	else if (def->func)
		fprintf(md, "`%s`: %s (%s, line %d)\n", name, def->func->is_entry ? "kernel" : kind,
			def->func->is_entry ? ".entry" : def->func->has_body ? ".func" : ".func declaration",
			def->loc.first_line);
	else
		fprintf(md, "`%s`: %s (declared at line %d)\n", name, kind, def->loc.first_line);
}

void lsp_hover(LspServer *s, LspDoc *d, int line1, int col1, FILE *f)
{
	const Module *m = lsp_doc_module(d);
	Hit h;
	if (!find_near(m, line1, col1, &h)) {
		fputs("null", f);
		return;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *md = open_memstream(&buf, &len);
	if (!md)
		xdie("out of memory");
	const IsaGate *const *rows;
	Def def;
	const char *name = hit_name(&h);
	if (h.kind == HIT_OPCODE) {
		hover_instr(d, h.instr, md);
	} else if (h.kind == HIT_VERSION) {
		hover_version(h.header, md);
	} else if (h.kind == HIT_TARGET) {
		hover_target(h.target, md);
	} else if (h.kind == HIT_SPEC) {
		size_t n = isa_gates_of_word(h.spec->word, &rows);
		hover_rows("(declaration word)", h.spec->word, rows, n, md);
	} else if (h.kind == HIT_DIRECTIVE) {
		size_t n = isa_gates_of_directive(h.dir->name, &rows);
		hover_rows("directive", h.dir->name, rows, n, md);
	} else if (resolve_hit(m, &h, &def)) {
		hover_def(d, name, &def, md);
	} else if (name && name[0] == '%') {
		hover_sreg(name, md);
	} else if (name) {
		fprintf(md, "`%s`: not declared in this module\n", name);
	}
	if (fclose(md) != 0)
		xdie("out of memory");
	if (!len) {
		fputs("null", f);
	} else {
		fputs("{\"contents\":{\"kind\":\"markdown\",\"value\":", f);
		json_string_n(f, buf, len);
		fputs("},\"range\":", f);
		lsp_write_range(s, d, f, h.loc);
		fputc('}', f);
	}
	free(buf);
}

/* ---- document symbols ---- */

enum { SYMBOL_FUNCTION = 12, SYMBOL_VARIABLE = 13, SYMBOL_CONSTANT = 14 };

static void write_symbol_head(LspServer *s, LspDoc *d, FILE *f, const char *name, const char *detail, int kind,
			      SrcLoc range, SrcLoc sel)
{
	/* the range must hold the selection range */
	if (sel.first_line <= 0 || !contains(range, (Pos){ sel.first_line, sel.first_column }))
		range = sel;
	fputs("{\"name\":", f);
	json_string(f, name && *name ? name : "?");
	fputs(",\"detail\":", f);
	json_string(f, detail);
	fprintf(f, ",\"kind\":%d,\"range\":", kind);
	lsp_write_range(s, d, f, range);
	fputs(",\"selectionRange\":", f);
	lsp_write_range(s, d, f, sel);
}

static void specs_text(const VarDecl *v, char *buf, size_t size)
{
	size_t w = 0;
	buf[0] = 0;
	for (uint32_t i = 0; i < v->nspecs && w + 1 < size; i++) {
		int k = snprintf(buf + w, size - w, "%s%s", i ? " " : "", v->specs[i].word);
		if (k < 0)
			break;
		w += (size_t)k;
	}
	if (w >= size)
		buf[size - 1] = 0;
}

static bool is_const(const VarDecl *v)
{
	for (uint32_t i = 0; i < v->nspecs; i++)
		if (strcmp(v->specs[i].word, ".const") == 0)
			return true;
	return false;
}

static bool write_vardecl_symbols(LspServer *s, LspDoc *d, FILE *f, const VarDecl *v, SrcLoc range, bool first)
{
	char detail[160];
	specs_text(v, detail, sizeof detail);
	for (uint32_t i = 0; i < v->ndecls; i++) {
		if (!first)
			fputc(',', f);
		first = false;
		write_symbol_head(s, d, f, v->decls[i].name, detail, is_const(v) ? SYMBOL_CONSTANT : SYMBOL_VARIABLE,
				  range.first_line ? range : v->decls[i].loc, v->decls[i].loc);
		fputc('}', f);
	}
	return first;
}

void lsp_document_symbols(LspServer *s, LspDoc *d, FILE *f)
{
	const Module *m = lsp_doc_module(d);
	bool first = true;
	fputc('[', f);
	for (const Item *it = m->items; it; it = it->next) {
		if (it->kind == IT_VAR) {
			first = write_vardecl_symbols(s, d, f, &it->u.var, it->loc, first);
			continue;
		}
		if (it->kind != IT_FUNC)
			continue;
		const Func *fn = &it->u.func;
		if (!first)
			fputc(',', f);
		first = false;
		write_symbol_head(s, d, f, fn->name,
				  fn->is_entry ? ".entry" : fn->has_body ? ".func" : ".func (declaration)",
				  SYMBOL_FUNCTION, it->loc, fn->name_loc);
		fputs(",\"children\":[", f);
		bool first_child = true;
		for (uint32_t i = 0; i < fn->nrets; i++)
			first_child = write_vardecl_symbols(s, d, f, &fn->rets[i], (SrcLoc){ 0 }, first_child);
		for (uint32_t i = 0; i < fn->nparams; i++)
			first_child = write_vardecl_symbols(s, d, f, &fn->params[i], (SrcLoc){ 0 }, first_child);
		fputs("]}", f);
	}
	fputc(']', f);
}
