#include "front/print.h"

#include <string.h>

static void print_exprs(Expr *const *v, uint32_t n, FILE *out)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			fputs(", ", out);
		ptx_print_expr(v[i], out);
	}
}

/* A one-character operator is spelled into `one`, the caller's. */
static const char *op_text(int op, char one[2])
{
	switch (op) {
	case OP_SHL: return "<<";
	case OP_SHR: return ">>";
	case OP_ANDAND: return "&&";
	case OP_OROR: return "||";
	}
	one[0] = (char)op;
	one[1] = 0;
	return one;
}

/* Parentheses the source wrote are EX_LIST nodes, and the parser only builds
 * trees that respect precedence, so printing operands as they are
 * reproduces the same tree. */
void ptx_print_expr(const Expr *e, FILE *out)
{
	char one[2];
	switch (e->kind) {
	case EX_INT:
	case EX_FLOAT:
	case EX_STRING:
	case EX_SECTION:
		fputs(e->text, out);
		break;
	case EX_NAME:
		fputs(e->text, out);
		if (e->component)
			fputs(e->component, out);
		break;
	case EX_UNARY:
		fputs(op_text(e->op, one), out);
		ptx_print_expr(e->lhs, out);
		break;
	case EX_BINARY:
		ptx_print_expr(e->lhs, out);
		/* `7%3` would scan as 7 and the identifier %3: keep % apart */
		fputs(e->op == '%' ? " % " : op_text(e->op, one), out);
		ptx_print_expr(e->rhs, out);
		break;
	case EX_VECTOR:
		fputc('{', out);
		print_exprs(e->elems, e->nelems, out);
		fputc('}', out);
		break;
	case EX_ADDRESS:
		fputc('[', out);
		print_exprs(e->elems, e->nelems, out);
		fputc(']', out);
		break;
	case EX_LIST:
		fputc('(', out);
		print_exprs(e->elems, e->nelems, out);
		fputc(')', out);
		break;
	case EX_CALL:
		fprintf(out, "%s(", e->text);
		print_exprs(e->elems, e->nelems, out);
		fputc(')', out);
		break;
	case EX_FIELD:
		fprintf(out, "%s = ", e->text);
		ptx_print_expr(e->lhs, out);
		break;
	}
}

static void print_specs(const DeclSpec *specs, uint32_t n, FILE *out)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			fputc(' ', out);
		fputs(specs[i].word, out);
		if (specs[i].has_value)
			fprintf(out, " %lld", (long long)specs[i].value);
		if (specs[i].args)
			ptx_print_expr(specs[i].args, out);
	}
}

static void print_declarator(const Declarator *d, FILE *out)
{
	fputs(d->name, out);
	if (d->range >= 0)
		fprintf(out, "<%lld>", (long long)d->range);
	for (uint32_t i = 0; i < d->ndims; i++) {
		if (d->dims[i] < 0)
			fputs("[]", out);
		else
			fprintf(out, "[%lld]", (long long)d->dims[i]);
	}
	if (d->init) {
		fputs(" = ", out);
		ptx_print_expr(d->init, out);
	}
}

static void print_var(const VarDecl *v, FILE *out)
{
	print_specs(v->specs, v->nspecs, out);
	for (uint32_t i = 0; i < v->ndecls; i++) {
		fputs(i ? ", " : " ", out);
		print_declarator(&v->decls[i], out);
	}
}

static void print_params(const VarDecl *p, uint32_t n, FILE *out, const char *sep)
{
	fputc('(', out);
	for (uint32_t i = 0; i < n; i++) {
		fputs(sep, out);
		print_var(&p[i], out);
		if (i + 1 < n)
			fputc(',', out);
	}
	fputs(n && sep[0] == '\n' ? "\n)" : ")", out);
}

static void print_directive(const Directive *d, FILE *out)
{
	fputs(d->name, out);
	if (d->nargs) {
		fputc(' ', out);
		/* `.loc F L C` is blank-separated and `.file N "name", ts, size`
		 * is blank-separated up to the name; the rest use commas. */
		uint32_t blanks = strcmp(d->name, ".loc") == 0 ? d->nargs
			: strcmp(d->name, ".file") == 0 ? 2 : 0;
		for (uint32_t i = 0; i < d->nargs; i++) {
			if (i)
				fputs(i < blanks ? " " : ", ", out);
			ptx_print_expr(d->args[i], out);
		}
	}
	for (uint32_t i = 0; i < d->nattrs; i++) {
		fprintf(out, ", %s", d->attrs[i].name);
		for (uint32_t k = 0; k < d->attrs[i].nargs; k++) {
			fputc(' ', out);
			ptx_print_expr(d->attrs[i].args[k], out);
		}
	}
}

void ptx_print_instr(const Instr *in, FILE *out)
{
	if (in->has_guard) {
		fputs(in->guard_negated ? "@!" : "@", out);
		ptx_print_expr(in->guard, out);
		fputc(' ', out);
	}
	fputs(in->opcode, out);
	for (uint32_t i = 0; i < in->nmods; i++)
		fputs(in->mods[i], out);
	if (in->nops) {
		fputc(' ', out);
		print_exprs(in->ops, in->nops, out);
	}
	fputc(';', out);
}

static void indent(int depth, FILE *out)
{
	for (int i = 0; i < depth; i++)
		fputc('\t', out);
}

static void print_proto(const CallProto *p, FILE *out)
{
	fputs(".callprototype ", out);
	if (p->has_rets) {
		print_params(p->rets, p->nrets, out, "");
		fputc(' ', out);
	}
	fputs(p->name, out);
	if (p->has_params) {
		fputc(' ', out);
		print_params(p->params, p->nparams, out, "");
	}
	for (uint32_t i = 0; i < p->ndirs; i++) {
		fputc(' ', out);
		print_directive(&p->dirs[i], out);
		if (strcmp(p->dirs[i].name, ".pragma") == 0)
			fputc(';', out);
	}
	fputc(';', out);
}

/* Nesting is bounded by the parser's stack depth, so recursion is safe. */
static void print_stmts(const Stmt *s, int depth, FILE *out)
{
	for (; s; s = s->next) {
		switch (s->kind) {
		case ST_LABEL:
			fprintf(out, "%s:\n", s->u.label);
			continue;
		case ST_INSTR:
			indent(depth, out);
			ptx_print_instr(&s->u.instr, out);
			break;
		case ST_DECL:
			indent(depth, out);
			print_var(&s->u.decl, out);
			fputc(';', out);
			break;
		case ST_BLOCK:
			indent(depth, out);
			fputs("{\n", out);
			print_stmts(s->u.block, depth + 1, out);
			indent(depth, out);
			fputc('}', out);
			break;
		case ST_DIRECTIVE:
			indent(depth, out);
			print_directive(&s->u.dir, out);
			/* .loc ends at the line end; the others with ';' */
			if (strcmp(s->u.dir.name, ".loc") != 0)
				fputc(';', out);
			break;
		case ST_PROTO:
			indent(depth, out);
			print_proto(&s->u.proto, out);
			break;
		}
		fputc('\n', out);
	}
}

static void print_func(const Func *f, FILE *out)
{
	if (f->nspecs) {
		print_specs(f->specs, f->nspecs, out);
		fputc(' ', out);
	}
	fputs(f->is_entry ? ".entry " : ".func ", out);
	if (f->has_rets) {
		print_params(f->rets, f->nrets, out, "");
		fputc(' ', out);
	}
	fputs(f->name, out);
	if (f->has_params)
		print_params(f->params, f->nparams, out, "\n\t");
	fputc('\n', out);
	for (uint32_t i = 0; i < f->ndirs; i++) {
		print_directive(&f->dirs[i], out);
		if (strcmp(f->dirs[i].name, ".pragma") == 0)
			fputc(';', out);
		fputc('\n', out);
	}
	if (!f->has_body) {
		fputs(";\n", out);
		return;
	}
	fputs("{\n", out);
	print_stmts(f->body, 1, out);
	fputs("}\n", out);
}

static void print_section(const Section *s, FILE *out)
{
	fprintf(out, ".section %s\n{\n", s->name);
	for (const Stmt *it = s->items; it; it = it->next) {
		if (it->kind == ST_LABEL) {
			fprintf(out, "%s:\n", it->u.label);
			continue;
		}
		fputc('\t', out);
		fputs(it->u.dir.name, out);
		fputc(' ', out);
		print_exprs(it->u.dir.args, it->u.dir.nargs, out);
		fputc('\n', out);
	}
	fputs("}\n", out);
}

void ptx_print_module(const Module *m, FILE *out)
{
	for (const Item *it = m->items; it; it = it->next) {
		switch (it->kind) {
		case IT_VERSION:
			fprintf(out, ".version %s\n", it->u.version.text);
			break;
		case IT_TARGET:
			fputs(".target ", out);
			for (uint32_t i = 0; i < it->u.target.n; i++)
				fprintf(out, "%s%s", i ? ", " : "", it->u.target.names[i]);
			fputc('\n', out);
			break;
		case IT_ADDRESS_SIZE:
			fprintf(out, ".address_size %lld\n", (long long)it->u.address_size.bits);
			break;
		case IT_DIRECTIVE:
			print_directive(&it->u.dir, out);
			if (strcmp(it->u.dir.name, ".file") != 0)
				fputc(';', out);
			fputc('\n', out);
			break;
		case IT_VAR:
			print_var(&it->u.var, out);
			fputs(";\n", out);
			break;
		case IT_FUNC:
			fputc('\n', out);
			print_func(&it->u.func, out);
			break;
		case IT_SECTION:
			print_section(&it->u.section, out);
			break;
		}
	}
}
