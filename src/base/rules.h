/* The rule registry (rules.def): every diagnostic's rule id with its default
 * severity and descriptions. */
#ifndef PTXSURF_RULES_H
#define PTXSURF_RULES_H

#include "base/diag.h"
#include "base/rule_id.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct RuleInfo {
	const char *id;
	Severity level;
	const char *short_desc;
	const char *full_desc;
	bool fatal;          /* cannot be silenced: nothing after it makes sense */
} RuleInfo;

/* The rows in rules.def order: rules_all()[id - 1] is rule id's. */
const RuleInfo *rules_all(size_t *n);
const RuleInfo *rule_find(const char *id);   /* NULL if unknown */
int rule_index(const char *id);              /* -1 if unknown */
/* The printed id of a rule ("operand-type"); NULL for RULE_NONE. */
const char *rule_name(RuleId rule);
bool rule_is_fatal(RuleId rule);             /* syntax, lexical, io */

#endif
