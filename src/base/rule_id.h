/* The rule ids as an enum, one constant per rules.def row: every
 * diagnostic names its rule with one (diag_add), so a misspelt or
 * unregistered rule is a compile error, and the printed text comes from
 * the table (rule_name, base/rules.h). Its own header because diag.h needs
 * the type and rules.h needs diag.h's Severity. */
#ifndef PTXSURF_RULE_ID_H
#define PTXSURF_RULE_ID_H

typedef enum RuleId {
	RULE_NONE,      /* no rule: a zeroed record that nothing has reported into */
#define RULE(name, id, level, s, f) RULE_##name,
#include "base/rules.def"
#undef RULE
	RULE_COUNT
} RuleId;

#endif
