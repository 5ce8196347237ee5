/* Target compatibility: what a module needs and how it fares on other
 * targets. Everything is derived from the checker itself, by checking the
 * module as if it declared another .version/.target, so the answers can
 * never disagree with --check (and follow --rules). */
#ifndef PTXSURF_REQ_REPORT_H
#define PTXSURF_REQ_REPORT_H

#include "front/ast.h"
#include "check/check.h"
#include "base/diag.h"
#include "isa/targets.h"

#include <stdbool.h>
#include <stdio.h>

/* Runs the checker on m as if its header said `.version v` and `.target t`
 * (other .target options kept). Returns false, leaving sink untouched, when
 * m has no .version or .target line to stand in for. */
bool check_module_as(Module *m, DiagSink *sink, const CheckOptions *opt, PtxVersion v, const TargetInfo *t);

/* The lowest .version and .target the module needs, and the diagnostics
 * (gates) that force each: those that fire one step below. */
typedef struct ReqReport {
	bool ok;                 /* false: no header, or no target satisfies the gates */
	const char *why;         /* when !ok */
	PtxVersion min_version;
	const TargetInfo *min_target;
	DiagSink version_reasons; /* the checker's gate diagnostics one version below */
	DiagSink target_reasons;  /* ... one target below */
} ReqReport;

void req_report_compute(Module *m, const char *filename, const char *src, size_t len,
			const CheckOptions *opt, ReqReport *r);
void req_report_fini(ReqReport *r);
/* The lowest .version (0 if none) that passes every version gate when the
 * module is checked with .target t. */
PtxVersion req_min_version_for(Module *m, const CheckOptions *opt, const TargetInfo *t);
void req_report_print_text(const ReqReport *r, FILE *out);
void req_report_print_json(const ReqReport *r, const char *filename, FILE *out);

/* Whether a diagnostic rule is a version gate or a target gate. */
bool rule_is_version_gate(RuleId rule);
bool rule_is_target_gate(RuleId rule);

#endif
