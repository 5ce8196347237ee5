/* The semantic checker: PTX ISA version and target rules. It never prints;
 * every finding goes to the diagnostic sink. */
#ifndef PTXSURF_CHECK_H
#define PTXSURF_CHECK_H

#include "ast.h"
#include "diag.h"

typedef enum RulesMode {
	RULES_STRICT,   /* reject what the PTX ISA documents or ptxas forbid */
	RULES_PTXAS,    /* mirror ptxas 13's verdicts exactly */
} RulesMode;

typedef struct CheckOptions {
	RulesMode rules;
} CheckOptions;

void check_module(Module *m, DiagSink *sink, const CheckOptions *opt);

#endif
