/* The pipeline behind ptxsurf_check and ptxsurf_assemble, which the
 * command line runs too: each top-level item streamed through the parser,
 * checker and assembler (stream.h), or the whole module when the stream
 * cannot take it or the context overrides the header. */
#include "driver/api_internal.h"
#include "driver/stream.h"
#include "check/req_report.h"
#include "front/parse.h"

#include <stdlib.h>
#include <string.h>

static void count_stmts(const Stmt *s, ApiStats *st)
{
	for (; s; s = s->next) {
		if (s->kind == ST_INSTR)
			st->instrs++;
		else if (s->kind == ST_BLOCK)
			count_stmts(s->u.block, st);
	}
}

static void count_item(const Item *it, ApiStats *st)
{
	if (it->kind == IT_VAR)
		st->vars += it->u.var.ndecls;
	if (it->kind == IT_FUNC) {
		st->funcs++;
		st->entries += it->u.func.is_entry;
		count_stmts(it->u.func.body, st);
	}
}

ApiStats api_count_items(const Item *items)
{
	ApiStats st = { 0 };
	for (const Item *it = items; it; it = it->next)
		count_item(it, &st);
	return st;
}

typedef struct Streamed {
	ptxsurf_result *r;
	StreamJob job;
} Streamed;

static void count_streamed(void *ctx, const Item *it)
{
	Streamed *st = ctx;
	count_item(it, &st->r->stats);
}

static void restart_count(void *ctx)
{
	Streamed *st = ctx;
	st->r->stats = (ApiStats){ 0 };
}

/* The stream's sink dies with it: its diagnostics move to the result's. */
static void streamed_done(void *ctx, Module *m, DiagSink *d)
{
	Streamed *st = ctx;
	diag_init_like(&st->r->sink, d);
	diag_append(&st->r->sink, d);
	st->r->sink.truncated = d->truncated;
}

static bool run_streaming(const ApiRun *run, ptxsurf_result *r, const char *name, char *buf, size_t len)
{
	Streamed st = { .r = r, .job = { .check = run->check, .assemble = run->assemble,
	                                 .threads = run->check_threads > 0 ? (unsigned)run->check_threads : 1 } };
	if (run->want_stats) {
		st.job.observe = count_streamed;
		st.job.restart = restart_count;
		st.job.observe_ctx = &st;
	}
	if (!stream_file(name, buf, len, run->limit, run->policy, &st.job, streamed_done, &st)) {
		free(st.job.image);
		free(st.job.listing);
		r->stats = (ApiStats){ 0 };
		return false;
	}
	r->image = st.job.image;
	r->image_len = st.job.image_len;
	r->listing = st.job.listing;
	return true;
}

const Item *api_header_item(const Module *m, ItemKind kind)
{
	for (const Item *it = m->items; it; it = it->next)
		if (it->kind == kind)
			return it;
	return NULL;
}

/* What a CUDA release's ptxas would refuse before looking at the body. */
void api_check_cuda(DiagSink *s, const CudaRelease *r, PtxVersion v, const TargetInfo *t,
		       SrcLoc vloc, SrcLoc tloc)
{
	char buf[8], maxbuf[8];
	if (v > r->max_ptx)
		diag_add(s, SEV_ERROR, vloc, RULE_CUDA_VERSION,
			 "CUDA %s accepts PTX ISA up to .version %s; the module is checked as .version %s",
			 r->version, ptx_version_str(r->max_ptx, maxbuf, sizeof maxbuf),
			 ptx_version_str(v, buf, sizeof buf));
	if (!cuda_release_supports(r, t)) {
		const TargetInfo *lo = cuda_release_min_target(r), *hi = cuda_release_max_target(r);
		diag_add(s, SEV_ERROR, tloc, RULE_CUDA_TARGET, "CUDA %s does not support .target %s (it supports %s to %s)",
			 r->version, t->name, lo ? lo->name : "?", hi ? hi->name : "?");
	}
}

/* The module checked as if its header named the context's version and
 * target, and against its CUDA release, as --ptx-version and --cuda do. */
static void check_overridden(const ApiRun *run, Module *m, DiagSink *d)
{
	const Item *ver = api_header_item(m, IT_VERSION), *tgt = api_header_item(m, IT_TARGET);
	if (!ver || !tgt || tgt->u.target.n == 0) {
		diag_add(d, SEV_ERROR, (SrcLoc){ 1, 1, 1, 1 }, RULE_MODULE_HEADER,
			 "checking against another .version or .target needs a module with .version and .target lines");
		return;
	}
	const TargetInfo *target = run->target ? run->target : ptx_target_lookup(tgt->u.target.names[0]);
	if (!target) {
		diag_add(d, SEV_ERROR, tgt->loc, RULE_TARGET_UNKNOWN, "unknown .target '%s'", tgt->u.target.names[0]);
		return;
	}
	PtxVersion version = run->ptx_version ? run->ptx_version
		: PTX_VERSION_OF(ver->u.version.major, ver->u.version.minor);
	if (run->cuda)
		api_check_cuda(d, run->cuda, version, target, ver->loc, tgt->loc);
	check_module_as(m, d, run->check, version, target);
}

static void run_whole_module(const ApiRun *run, ptxsurf_result *r, const char *name, char *buf, size_t len)
{
	Module m;
	module_init(&m, name);
	diag_init(&r->sink, name, buf, len);
	r->sink.limit = run->limit;
	r->sink.policy = run->policy;
	ptx_parse_buffer(&m, &r->sink, buf, len);
	/* Semantic rules only make sense on a module that parsed cleanly, and
	 * only a module the checker accepts is assembled. */
	if (diag_errors(&r->sink) == 0) {
		if (run->ptx_version || run->target || run->cuda)
			check_overridden(run, &m, &r->sink);
		else
			check_module(&m, &r->sink, run->check);
	}
	if (diag_errors(&r->sink) == 0 && run->assemble &&
	    assemble_module(&m, &r->sink, run->assemble, &r->image, &r->image_len,
			    run->assemble->want_listing ? &r->listing : NULL) != 0) {
		free(r->image);
		free(r->listing);
		r->image = NULL;
		r->image_len = 0;
		r->listing = NULL;
	}
	if (run->want_stats)
		r->stats = api_count_items(m.items);
	module_fini(&m);
}

ptxsurf_result *api_run(const ApiRun *given, const char *name, char *buf, size_t len)
{
	/* Assembling, the checker judges as the sm_50 assembler ptxas 11.8
	 * does where it accepts more than ptxas 13 (CheckOptions.assembling). */
	CheckOptions check = given->check ? *given->check : (CheckOptions){ .rules = RULES_STRICT };
	check.assembling = given->assemble != NULL;
	ApiRun own = *given;
	own.check = &check;
	const ApiRun *run = &own;
	ptxsurf_result *r = xcalloc(1, sizeof *r);
	bool overridden = run->ptx_version || run->target || run->cuda;
	if (overridden || !run_streaming(run, r, name, buf, len))
		run_whole_module(run, r, name, buf, len);
	/* a module with errors yields no code */
	if (diag_errors(&r->sink)) {
		free(r->image);
		free(r->listing);
		r->image = NULL;
		r->image_len = 0;
		r->listing = NULL;
	}
	return r;
}

ApiRun api_run_of(const ptxsurf_context *ctx, const AssembleOptions *assemble)
{
	return (ApiRun){ .check = &ctx->check, .policy = &ctx->policy, .limit = ctx->max_errors,
			 .assemble = assemble, .ptx_version = ctx->ptx_version, .target = ctx->target,
			 .cuda = ctx->cuda };
}

char *api_copy_source(const char *text, size_t len)
{
	if (len > (size_t)-1 - 2)
		return NULL;
	char *buf = malloc(len + 2);
	if (!buf)
		return NULL;
	if (len)
		memcpy(buf, text, len);
	buf[len] = buf[len + 1] = 0;
	return buf;
}

ptxsurf_result *api_result_new(const char *name, char *buf, size_t len, const ptxsurf_context *ctx)
{
	ptxsurf_result *r = xcalloc(1, sizeof *r);
	diag_init(&r->sink, name, buf, len);
	r->sink.limit = ctx->max_errors;
	r->sink.policy = &ctx->policy;
	return r;
}

/* The public calls own copies of the name and the text. */
static ptxsurf_status run_public(ptxsurf_context *ctx, const char *name, const char *text, size_t len,
				 const AssembleOptions *ao, ptxsurf_result **out)
{
	if (!ctx || !out || (!text && len))
		return api_fail(ctx, PTXSURF_ERROR_INVALID, "a context, the text and a place for the result are needed");
	*out = NULL;
	char *nm = strdup(name ? name : "<input>");
	char *src = api_copy_source(text ? text : "", len);
	if (!nm || !src) {
		free(nm);
		free(src);
		return api_fail(ctx, PTXSURF_ERROR_NOMEM, "out of memory");
	}
	API_ENTER(ctx);
	ApiRun run = api_run_of(ctx, ao);
	ptxsurf_result *r = api_run(&run, nm, src, len);
	API_LEAVE();
	/* the context's policy may change after the call: the result needs none */
	r->sink.policy = NULL;
	r->owned_name = nm;
	r->owned_src = src;
	*out = r;
	ctx->error[0] = 0;
	return PTXSURF_OK;
}

PTXSURF_API ptxsurf_status ptxsurf_check(ptxsurf_context *ctx, const char *name, const char *text, size_t len,
					 ptxsurf_result **out)
{
	return run_public(ctx, name, text, len, NULL, out);
}

PTXSURF_API ptxsurf_status ptxsurf_assemble(ptxsurf_context *ctx, const char *name, const char *text, size_t len,
					    ptxsurf_format format, int want_listing, ptxsurf_result **out)
{
	if (format != PTXSURF_FORMAT_CUBIN && format != PTXSURF_FORMAT_RAW)
		return api_fail(ctx, PTXSURF_ERROR_INVALID, "unknown output format %d (cubin 0, raw 1)", (int)format);
	AssembleOptions ao = { .format = format == PTXSURF_FORMAT_RAW ? ASM_RAW : ASM_CUBIN,
			       .want_listing = want_listing != 0 };
	return run_public(ctx, name, text, len, &ao, out);
}
