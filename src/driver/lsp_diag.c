/* textDocument/publishDiagnostics: the document checked through the
 * library (include/ptxsurf.h) with the server's settings and those of a
 * `// ptxsurf: key=value ...` comment in the document, which win. */
#include "driver/lsp_internal.h"
#include "base/json.h"

#include <stdlib.h>
#include <string.h>

static const char directive[] = "// ptxsurf:";

static const char *find(const char *hay, size_t n, const char *needle, size_t k)
{
	for (const char *p = hay, *end = hay + n; (size_t)(end - p) >= k && (p = memchr(p, needle[0], (size_t)(end - p)));
	     p++)
		if ((size_t)(end - p) >= k && memcmp(p, needle, k) == 0)
			return p;
	return NULL;
}

/* A word of the comment that is no setting: where, and why. */
typedef struct DirectiveProblem {
	SrcLoc loc;
	char why[160];
} DirectiveProblem;

/* The comment's settings over the server's (the first such comment). */
static void apply_directive(const LspDoc *d, LspSettings *st, DirectiveProblem *bad)
{
	bad->loc.first_line = 0;
	const char *at = find(d->text, d->len, directive, sizeof directive - 1);
	if (!at)
		return;
	const char *p = at + sizeof directive - 1, *end = d->text + d->len;
	size_t line = 0;
	while (line + 1 < d->nlines && d->lines[line + 1] <= (size_t)(at - d->text))
		line++;
	while (p < end && *p != '\n' && *p != '\r') {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		const char *w = p;
		while (p < end && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
			p++;
		if (p == w)
			break;
		const char *eq = memchr(w, '=', (size_t)(p - w));
		if (!eq || !lsp_setting(st, w, (size_t)(eq - w), eq + 1, (size_t)(p - eq - 1))) {
			if (bad->loc.first_line == 0) {
				int col = (int)(w - (d->text + d->lines[line])) + 1;
				bad->loc = (SrcLoc){ (int)line + 1, col, (int)line + 1, col + (int)(p - w) };
				snprintf(bad->why, sizeof bad->why,
					 "ptxsurf: '%.*s' is not a setting (rules=strict|ptxas, target=sm_NN, "
					 "ptx-version=X.Y, cuda=X.Y)", (int)(p - w > 60 ? 60 : p - w), w);
			}
		}
	}
}

static ptxsurf_context *context_for(const LspSettings *st)
{
	ptxsurf_context *ctx = ptxsurf_context_create();
	if (!ctx)
		return NULL;
	ptxsurf_set_rules(ctx, st->rules);
	/* values were validated when they were set */
	if (st->target[0])
		ptxsurf_set_target(ctx, st->target);
	if (st->ptx_version[0])
		ptxsurf_set_ptx_version(ctx, st->ptx_version);
	if (st->cuda[0])
		ptxsurf_set_cuda_release(ctx, st->cuda);
	return ctx;
}

static int lsp_severity(ptxsurf_severity s)
{
	return s == PTXSURF_SEVERITY_ERROR ? 1 : s == PTXSURF_SEVERITY_WARNING ? 2 : 3;
}

static SrcLoc loc_of(const ptxsurf_diagnostic *g)
{
	ptxsurf_range r = ptxsurf_diagnostic_range(g);
	return (SrcLoc){ r.first_line, r.first_column, r.last_line, r.last_column };
}

static void write_diag(LspServer *s, LspDoc *d, FILE *f, const ptxsurf_diagnostic *g)
{
	fputs("{\"range\":", f);
	lsp_write_range(s, d, f, loc_of(g));
	fprintf(f, ",\"severity\":%d", lsp_severity(ptxsurf_diagnostic_severity(g)));
	if (ptxsurf_diagnostic_rule(g)[0]) {
		fputs(",\"code\":", f);
		json_string(f, ptxsurf_diagnostic_rule(g));
	}
	fputs(",\"source\":\"ptxsurf-as\",\"message\":", f);
	json_string(f, ptxsurf_diagnostic_message(g));
	size_t nnotes = ptxsurf_diagnostic_note_count(g);
	if (nnotes) {
		fputs(",\"relatedInformation\":[", f);
		for (size_t i = 0; i < nnotes; i++) {
			const ptxsurf_diagnostic *n = ptxsurf_diagnostic_note(g, i);
			fputs(i ? ",{\"location\":{\"uri\":" : "{\"location\":{\"uri\":", f);
			json_string(f, d->uri);
			fputs(",\"range\":", f);
			lsp_write_range(s, d, f, loc_of(n));
			fputs("},\"message\":", f);
			json_string(f, ptxsurf_diagnostic_message(n));
			fputc('}', f);
		}
		fputc(']', f);
	}
	fputc('}', f);
}

void lsp_publish(LspServer *s, LspDoc *d)
{
	LspSettings st = s->defaults;
	DirectiveProblem bad;
	apply_directive(d, &st, &bad);
	ptxsurf_context *ctx = context_for(&st);
	ptxsurf_result *r = NULL;
	char *why = NULL;
	if (!ctx || ptxsurf_check(ctx, d->name, d->text, d->len, &r) != PTXSURF_OK)
		why = ctx ? xstrdup(ptxsurf_context_error(ctx)) : xstrdup("out of memory");
	LspOut o;
	FILE *f = lsp_begin_notification(&o, "textDocument/publishDiagnostics");
	fputs("{\"uri\":", f);
	json_string(f, d->uri);
	fprintf(f, ",\"version\":%lld,\"diagnostics\":[", d->version);
	bool first = true;
	if (bad.loc.first_line) {
		fputs("{\"range\":", f);
		lsp_write_range(s, d, f, bad.loc);
		fputs(",\"severity\":2,\"source\":\"ptxsurf-as\",\"message\":", f);
		json_string(f, bad.why);
		fputc('}', f);
		first = false;
	}
	if (why) {
		fprintf(f, "%s{\"range\":{\"start\":{\"line\":0,\"character\":0},\"end\":{\"line\":0,\"character\":0}},"
			"\"severity\":1,\"source\":\"ptxsurf-as\",\"message\":", first ? "" : ",");
		json_string(f, why);
		fputc('}', f);
		free(why);
		first = false;
	}
	size_t n = r ? ptxsurf_result_diagnostic_count(r) : 0;
	for (size_t i = 0; i < n; i++) {
		if (!first)
			fputc(',', f);
		first = false;
		write_diag(s, d, f, ptxsurf_result_diagnostic(r, i));
	}
	fputs("]}}", f);
	ptxsurf_result_free(r);
	ptxsurf_context_destroy(ctx);
	lsp_send(s, &o);
}

void lsp_publish_empty(LspServer *s, const char *uri)
{
	LspOut o;
	FILE *f = lsp_begin_notification(&o, "textDocument/publishDiagnostics");
	fputs("{\"uri\":", f);
	json_string(f, uri);
	fputs(",\"diagnostics\":[]}}", f);
	lsp_send(s, &o);
}
