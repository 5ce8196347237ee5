/* The diagnostic and gate helpers every checker file uses: errors,
 * warnings and strict-only findings, the notes on the .version/.target
 * lines, and requirements.def gates. Gate messages keep ptxas 13's wording
 * ("Feature 'X' requires PTX ISA .version N or later") and add what the
 * file declares, with a note on the .version/.target line the verdict
 * depends on. */
#include "check/check_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static Diag *vreport(CheckCtx *c, Severity sev, SrcLoc loc, RuleId rule, const char *fmt, va_list ap)
{
	return diag_vadd(c->sink, sev, loc, rule, fmt, ap);
}

Diag *check_error(CheckCtx *c, SrcLoc loc, RuleId rule, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	Diag *d = vreport(c, SEV_ERROR, loc, rule, fmt, ap);
	va_end(ap);
	return d;
}

Diag *check_template_error(CheckCtx *c, bool *template_failed, SrcLoc loc, RuleId rule, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	Diag *d = vreport(c, SEV_ERROR, loc, rule, fmt, ap);
	va_end(ap);
	*template_failed = true;
	return d;
}

Diag *check_warning(CheckCtx *c, SrcLoc loc, RuleId rule, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	Diag *d = vreport(c, SEV_WARNING, loc, rule, fmt, ap);
	va_end(ap);
	return d;
}

Diag *check_addr32(CheckCtx *c, SrcLoc loc, RuleId rule, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (c->assembling && c->target && c->target->sm <= 50)     /* sm_50 runs sm_30 code too */
		return diag_add(c->sink, SEV_WARNING, loc, rule, "%s; assembled for sm_50 as CUDA 11.8's ptxas does",
		                msg);
	return diag_add(c->sink, SEV_ERROR, loc, rule, "%s", msg);
}

Diag *check_strict(CheckCtx *c, SrcLoc loc, RuleId rule, const char *doc, const char *fmt, ...)
{
	if (c->rules != RULES_STRICT)
		return NULL;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	Diag *d = diag_add(c->sink, SEV_ERROR, loc, rule, "%s (PTX ISA rule; ptxas 13 accepts it)", msg);
	diag_note(c->sink, d, loc, "%s", doc);
	return d;
}

void check_concat(char *buf, size_t size, const char *a, const char *b)
{
	if (!size)
		return;
	size_t na = strlen(a), nb = strlen(b);
	if (na > size - 1)
		na = size - 1;
	if (nb > size - 1 - na)
		nb = size - 1 - na;
	memcpy(buf, a, na);
	memcpy(buf + na, b, nb);
	buf[na + nb] = 0;
}

void check_note_version(CheckCtx *c, Diag *d)
{
	if (d && c->has_version)
		diag_note(c->sink, d, c->version_loc, ".version %s declared here", c->version_text);
}

void check_note_target(CheckCtx *c, Diag *d)
{
	if (d && c->target)
		diag_note(c->sink, d, c->target_loc, ".target %s declared here", c->target_name);
}

bool check_gate_applies(const CheckCtx *c, ReqSource source)
{
	return c->rules == RULES_STRICT || (source & REQ_SRC_PTXAS);
}

PtxVersion check_gate_threshold(const CheckCtx *c, PtxVersion stated, PtxVersion ptxas)
{
	if (c->rules == RULES_PTXAS)
		return ptxas;
	return stated > ptxas ? stated : ptxas;
}

RuleId check_gate_rule(ReqSource source, bool version)
{
	if (source == REQ_SRC_DOC)
		return version ? RULE_VERSION_GATE_DOC : RULE_TARGET_GATE_DOC;
	return version ? RULE_VERSION_GATE : RULE_TARGET_GATE;
}

bool check_gate_strict_only(const CheckCtx *c, ReqSource source, PtxVersion ptxas, bool version)
{
	if (source == REQ_SRC_DOC)
		return true;
	return version && c->version >= ptxas;
}

static bool version_fails(const CheckCtx *c, const ReqRow *r)
{
	return check_gate_applies(c, r->source) && c->has_version && r->min_version &&
	       c->version < check_gate_threshold(c, r->min_version, r->ptxas_version);
}

static bool target_fails(const CheckCtx *c, const ReqRow *r)
{
	return check_gate_applies(c, r->source) && c->target && r->min_sm && c->target->sm < r->min_sm;
}

bool check_gate_fails(const CheckCtx *c, ReqId id)
{
	const ReqRow *r = req_row(id);
	return version_fails(c, r) || target_fails(c, r);
}

static bool strict_only(const CheckCtx *c, const ReqRow *r, bool version)
{
	return check_gate_strict_only(c, r->source, r->ptxas_version, version);
}

static void emit_version(CheckCtx *c, const ReqRow *r, SrcLoc loc, const char *use)
{
	char subj[160], have[8], need[8];
	req_subject(r, r->version_form, use, subj, sizeof subj);
	ptx_version_str(r->min_version, need, sizeof need);
	ptx_version_str(c->version, have, sizeof have);
	Diag *d = diag_add(c->sink, SEV_ERROR, loc, check_gate_rule(r->source, true),
		"%s requires PTX ISA .version %s or later (the file declares .version %s)%s", subj, need, have,
		strict_only(c, r, true) ? "; PTX ISA rule, ptxas 13 accepts it" : "");
	check_note_version(c, d);
	if (strict_only(c, r, true))
		diag_note(c->sink, d, loc, "%s", r->doc);
}

static void emit_target(CheckCtx *c, const ReqRow *r, SrcLoc loc, const char *use)
{
	char subj[160];
	req_subject(r, r->target_form, use, subj, sizeof subj);
	Diag *d = diag_add(c->sink, SEV_ERROR, loc, check_gate_rule(r->source, false),
		"%s requires .target sm_%d or higher (the file declares .target %s)%s", subj, r->min_sm,
		c->target_name, strict_only(c, r, false) ? "; PTX ISA rule, ptxas 13 accepts it" : "");
	check_note_target(c, d);
	if (strict_only(c, r, false))
		diag_note(c->sink, d, loc, "%s", r->doc);
}

bool check_gate(CheckCtx *c, ReqId id, SrcLoc loc, const char *use)
{
	const ReqRow *r = req_row(id);
	bool vf = version_fails(c, r), tf = target_fails(c, r);
	if (r->order == REQ_ORDER_TFIRST && tf)
		emit_target(c, r, loc, use);
	if (vf)
		emit_version(c, r, loc, use);
	if (r->order == REQ_ORDER_VFIRST && tf)
		emit_target(c, r, loc, use);
	return !vf && !tf;
}
