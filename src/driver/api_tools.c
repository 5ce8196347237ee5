/* The library's other services: the requirements report, the
 * --fix-version rewrite and the disassembler. */
#include "driver/api_internal.h"
#include "driver/fixup.h"
#include "check/req_report.h"
#include "emit/disasm_file.h"
#include "front/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ptxsurf_requirements {
	bool ok;
	const char *why;
	char min_version[8];
	const char *min_target;
	ptxsurf_result version_reasons, target_reasons;   /* their sinks are the report's */
	char *owned_name, *owned_src;
};

/* A parsed module of copied text, or PTXSURF_ERROR_INPUT with the syntax
 * errors handed to *diags. */
typedef struct Parsed {
	char *name, *src;
	size_t len;
	Module m;
	ptxsurf_result *r;      /* the parse's diagnostics */
} Parsed;

static ptxsurf_status parse_copy(ptxsurf_context *ctx, const char *name, const char *text, size_t len, Parsed *p)
{
	memset(p, 0, sizeof *p);
	if (!ctx || (!text && len))
		return api_fail(ctx, PTXSURF_ERROR_INVALID, "a context and the text are needed");
	p->name = strdup(name ? name : "<input>");
	p->src = api_copy_source(text ? text : "", len);
	p->len = len;
	if (!p->name || !p->src) {
		free(p->name);
		free(p->src);
		return api_fail(ctx, PTXSURF_ERROR_NOMEM, "out of memory");
	}
	module_init(&p->m, p->name);
	p->r = api_result_new(p->name, p->src, len, ctx);
	ptx_parse_buffer(&p->m, &p->r->sink, p->src, len);
	return PTXSURF_OK;
}

/* Hands the diagnostics (and the copies they point into) to the caller. */
static void give_diags(Parsed *p, ptxsurf_result **diags)
{
	p->r->sink.policy = NULL;
	p->r->owned_name = p->name;
	p->r->owned_src = p->src;
	if (diags)
		*diags = p->r;
	else
		ptxsurf_result_free(p->r);
	p->name = p->src = NULL;
	p->r = NULL;
}

PTXSURF_API ptxsurf_status ptxsurf_requirements_compute(ptxsurf_context *ctx, const char *name, const char *text,
							size_t len, ptxsurf_requirements **out,
							ptxsurf_result **diags)
{
	if (diags)
		*diags = NULL;
	if (!out)
		return api_fail(ctx, PTXSURF_ERROR_INVALID, "a place for the report is needed");
	*out = NULL;
	API_ENTER(ctx);
	Parsed p;
	ptxsurf_status s = parse_copy(ctx, name, text, len, &p);
	if (s != PTXSURF_OK) {
		API_LEAVE();
		return s;
	}
	if (diag_errors(&p.r->sink)) {
		module_fini(&p.m);
		give_diags(&p, diags);
		API_LEAVE();
		return api_fail(ctx, PTXSURF_ERROR_INPUT, "the text does not parse");
	}
	ReqReport rep;
	req_report_compute(&p.m, p.name, p.src, p.len, &ctx->check, &rep);
	module_fini(&p.m);
	ptxsurf_requirements *q = xcalloc(1, sizeof *q);
	q->ok = rep.ok;
	q->why = rep.why;
	if (rep.ok) {
		ptx_version_str(rep.min_version, q->min_version, sizeof q->min_version);
		q->min_target = rep.min_target->name;
	}
	q->version_reasons.sink = rep.version_reasons;
	q->target_reasons.sink = rep.target_reasons;
	q->owned_name = p.name;
	q->owned_src = p.src;
	p.r->owned_name = p.r->owned_src = NULL;
	ptxsurf_result_free(p.r);
	API_LEAVE();
	*out = q;
	ctx->error[0] = 0;
	return PTXSURF_OK;
}

PTXSURF_API void ptxsurf_requirements_free(ptxsurf_requirements *q)
{
	if (!q)
		return;
	diag_fini(&q->version_reasons.sink);
	diag_fini(&q->target_reasons.sink);
	free(q->owned_name);
	free(q->owned_src);
	free(q);
}

PTXSURF_API int ptxsurf_requirements_ok(const ptxsurf_requirements *q)
{
	return q && q->ok;
}

PTXSURF_API const char *ptxsurf_requirements_why(const ptxsurf_requirements *q)
{
	return q && q->why ? q->why : "";
}

PTXSURF_API const char *ptxsurf_requirements_min_version(const ptxsurf_requirements *q)
{
	return q && q->ok ? q->min_version : NULL;
}

PTXSURF_API const char *ptxsurf_requirements_min_target(const ptxsurf_requirements *q)
{
	return q && q->ok ? q->min_target : NULL;
}

PTXSURF_API const ptxsurf_result *ptxsurf_requirements_version_reasons(const ptxsurf_requirements *q)
{
	return q ? &q->version_reasons : NULL;
}

PTXSURF_API const ptxsurf_result *ptxsurf_requirements_target_reasons(const ptxsurf_requirements *q)
{
	return q ? &q->target_reasons : NULL;
}

bool api_fix_edits(Module *m, DiagSink *d, const CheckOptions *check, bool fix_target, char vtext[8],
		      FixupEdit edits[2])
{
	const Item *ver = api_header_item(m, IT_VERSION), *tgt = api_header_item(m, IT_TARGET);
	if (!ver || !tgt || tgt->u.target.n == 0) {
		diag_add(d, SEV_ERROR, (SrcLoc){ 1, 1, 1, 1 }, RULE_MODULE_HEADER,
			 "--fix-version needs a module with .version and .target lines to rewrite");
		return false;
	}
	const TargetInfo *target = ptx_target_lookup(tgt->u.target.names[0]);
	if (!target) {
		diag_add(d, SEV_ERROR, tgt->u.target.locs[0], RULE_TARGET_UNKNOWN, "unknown .target '%s'",
			 tgt->u.target.names[0]);
		return false;
	}
	if (fix_target) {
		ReqReport r;
		req_report_compute(m, d->filename, d->src, d->srclen, check, &r);
		bool ok = r.ok;
		if (ok)
			target = r.min_target;
		req_report_fini(&r);
		if (!ok) {
			diag_add(d, SEV_ERROR, tgt->loc, RULE_TARGET_GATE, "no target satisfies the module's requirements");
			return false;
		}
	}
	PtxVersion v = req_min_version_for(m, check, target);
	if (!v) {
		diag_add(d, SEV_ERROR, ver->loc, RULE_VERSION_GATE,
			 "no PTX ISA version satisfies the module's requirements for .target %s", target->name);
		return false;
	}
	ptx_version_str(v, vtext, 8);
	edits[0] = (FixupEdit){ ver->u.version.text_loc, vtext };
	edits[1] = (FixupEdit){ tgt->u.target.locs[0], target->name };
	return true;
}

PTXSURF_API ptxsurf_status ptxsurf_fix_version(ptxsurf_context *ctx, const char *name, const char *text, size_t len,
					       int fix_target, char **fixed, size_t *fixed_len,
					       ptxsurf_result **diags)
{
	if (diags)
		*diags = NULL;
	if (!fixed || !fixed_len)
		return api_fail(ctx, PTXSURF_ERROR_INVALID, "places for the fixed text and its length are needed");
	*fixed = NULL;
	*fixed_len = 0;
	API_ENTER(ctx);
	Parsed p;
	ptxsurf_status s = parse_copy(ctx, name, text, len, &p);
	if (s != PTXSURF_OK) {
		API_LEAVE();
		return s;
	}
	char vtext[8];
	FixupEdit edits[2];
	char err[256];
	if (diag_errors(&p.r->sink) == 0 && api_fix_edits(&p.m, &p.r->sink, &ctx->check, fix_target, vtext, edits) &&
	    fixup_rewrite(p.src, p.len, edits, fix_target ? 2 : 1, fixed, fixed_len, err, sizeof err) != 0)
		diag_add(&p.r->sink, SEV_ERROR, api_header_item(&p.m, IT_VERSION)->loc, RULE_IO, "cannot rewrite the header: %s", err);
	module_fini(&p.m);
	bool failed = diag_errors(&p.r->sink) != 0;
	give_diags(&p, diags);
	API_LEAVE();
	if (failed) {
		free(*fixed);
		*fixed = NULL;
		*fixed_len = 0;
		return api_fail(ctx, PTXSURF_ERROR_INPUT, "the header cannot be rewritten (see the diagnostics)");
	}
	ctx->error[0] = 0;
	return PTXSURF_OK;
}

PTXSURF_API ptxsurf_status ptxsurf_disassemble(ptxsurf_context *ctx, const void *bytes, size_t len, char **text,
					       size_t *text_len)
{
	if (!ctx || !text || (!bytes && len))
		return api_fail(ctx, PTXSURF_ERROR_INVALID, "a context, the bytes and a place for the text are needed");
	*text = NULL;
	if (text_len)
		*text_len = 0;
	char *buf = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&buf, &n);
	if (!mem)
		return api_fail(ctx, PTXSURF_ERROR_NOMEM, "out of memory");
	char err[200];
	API_ENTER(ctx);
	int rc = disasm_file(bytes ? bytes : (const void *)"", len, mem, err, sizeof err);
	API_LEAVE();
	if (fclose(mem) != 0 && rc == 0) {
		free(buf);
		return api_fail(ctx, PTXSURF_ERROR_NOMEM, "out of memory");
	}
	if (rc != 0) {
		free(buf);
		return api_fail(ctx, PTXSURF_ERROR_INPUT, "%s", err);
	}
	*text = buf;
	if (text_len)
		*text_len = n;
	ctx->error[0] = 0;
	return PTXSURF_OK;
}
