/* The library's contexts: options, versions, errors (include/ptxsurf.h). */
#include "driver/api_internal.h"
#include "base/rules.h"
#include "base/version.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(PTXSURF_VERSION_MAJOR * 10000 + PTXSURF_VERSION_MINOR * 100 + PTXSURF_VERSION_PATCH >= 0,
	       "version numbers");

PTXSURF_API const char *ptxsurf_version(int *major, int *minor, int *patch)
{
	if (major)
		*major = PTXSURF_VERSION_MAJOR;
	if (minor)
		*minor = PTXSURF_VERSION_MINOR;
	if (patch)
		*patch = PTXSURF_VERSION_PATCH;
	return PTXSURF_VERSION;
}

ptxsurf_status api_fail(ptxsurf_context *ctx, ptxsurf_status s, const char *fmt, ...)
{
	if (ctx) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(ctx->error, sizeof ctx->error, fmt, ap);
		va_end(ap);
	}
	return s;
}

static ptxsurf_status ok(ptxsurf_context *ctx)
{
	ctx->error[0] = 0;
	return PTXSURF_OK;
}

PTXSURF_API ptxsurf_context *ptxsurf_context_create(void)
{
	size_t nrules;
	rules_all(&nrules);
	ptxsurf_context *ctx = calloc(1, sizeof *ctx);
	if (!ctx)
		return NULL;
	/* a rule is listed at most once in each list */
	ctx->policy.disabled = calloc(nrules, sizeof(char *));
	ctx->policy.as_error = calloc(nrules, sizeof(char *));
	if (!ctx->policy.disabled || !ctx->policy.as_error) {
		ptxsurf_context_destroy(ctx);
		return NULL;
	}
	ctx->check.rules = RULES_STRICT;
	return ctx;
}

PTXSURF_API void ptxsurf_context_destroy(ptxsurf_context *ctx)
{
	if (!ctx)
		return;
	free(ctx->policy.disabled);
	free(ctx->policy.as_error);
	free(ctx);
}

PTXSURF_API const char *ptxsurf_context_error(const ptxsurf_context *ctx)
{
	return ctx ? ctx->error : "no context";
}

PTXSURF_API ptxsurf_status ptxsurf_set_rules(ptxsurf_context *ctx, ptxsurf_rules rules)
{
	if (rules != PTXSURF_RULES_STRICT && rules != PTXSURF_RULES_PTXAS)
		return api_fail(ctx, PTXSURF_ERROR_INVALID, "unknown rules mode %d (valid: strict 0, ptxas 1)",
				(int)rules);
	ctx->check.rules = rules == PTXSURF_RULES_PTXAS ? RULES_PTXAS : RULES_STRICT;
	return ok(ctx);
}

PTXSURF_API ptxsurf_status ptxsurf_set_ptx_version(ptxsurf_context *ctx, const char *version)
{
	if (!version) {
		ctx->ptx_version = 0;
		return ok(ctx);
	}
	unsigned major, minor;
	char tail;
	if (sscanf(version, "%u.%u%c", &major, &minor, &tail) != 2 || major > 99 || minor > 9 ||
	    !ptx_version_is_legal(PTX_VERSION_OF((int)major, (int)minor)))
		return api_fail(ctx, PTXSURF_ERROR_INVALID, "'%s' is not a PTX ISA version ptxas 13 knows", version);
	ctx->ptx_version = PTX_VERSION_OF((int)major, (int)minor);
	return ok(ctx);
}

PTXSURF_API ptxsurf_status ptxsurf_set_target(ptxsurf_context *ctx, const char *target)
{
	const TargetInfo *t = target ? ptx_target_lookup(target) : NULL;
	if (target && !t)
		return api_fail(ctx, PTXSURF_ERROR_INVALID, "unknown target '%s' (for example sm_50, compute_75, sm_90a)",
				target);
	ctx->target = t;
	return ok(ctx);
}

PTXSURF_API ptxsurf_status ptxsurf_set_cuda_release(ptxsurf_context *ctx, const char *release)
{
	const CudaRelease *r = release ? cuda_release_find(release) : NULL;
	if (release && !r)
		return api_fail(ctx, PTXSURF_ERROR_INVALID, "unknown CUDA release '%s'", release);
	ctx->cuda = r;
	return ok(ctx);
}

static bool listed(const char **v, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == id)
			return true;
	return false;
}

PTXSURF_API ptxsurf_status ptxsurf_set_rule_enabled(ptxsurf_context *ctx, const char *rule, int enabled)
{
	const RuleInfo *ri = rule ? rule_find(rule) : NULL;
	if (!ri)
		return api_fail(ctx, PTXSURF_ERROR_INVALID, "unknown rule '%s'", rule ? rule : "(null)");
	DiagPolicy *p = &ctx->policy;
	if (!enabled && !listed(p->disabled, p->ndisabled, ri->id))
		p->disabled[p->ndisabled++] = ri->id;
	if (enabled)
		for (size_t k = 0; k < p->ndisabled; k++)
			if (p->disabled[k] == ri->id)
				p->disabled[k--] = p->disabled[--p->ndisabled];
	return ok(ctx);
}

PTXSURF_API ptxsurf_status ptxsurf_set_warning_as_error(ptxsurf_context *ctx, const char *rule)
{
	if (!rule) {
		ctx->policy.werror = true;
		return ok(ctx);
	}
	const RuleInfo *ri = rule_find(rule);
	if (!ri)
		return api_fail(ctx, PTXSURF_ERROR_INVALID, "unknown rule '%s'", rule);
	if (!listed(ctx->policy.as_error, ctx->policy.nas_error, ri->id))
		ctx->policy.as_error[ctx->policy.nas_error++] = ri->id;
	return ok(ctx);
}

PTXSURF_API void ptxsurf_set_max_errors(ptxsurf_context *ctx, unsigned n)
{
	ctx->max_errors = n;
}

PTXSURF_API void ptxsurf_free(void *p)
{
	free(p);
}
