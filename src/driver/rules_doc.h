/* The rules reference (docs/rules.md), generated from the rule registry
 * (rules.def), the requirement table (requirements.def) and the target
 * table (targets.def) only, so it cannot drift from what the checker does. */
#ifndef PTXSURF_RULES_DOC_H
#define PTXSURF_RULES_DOC_H

#include <stdio.h>

void rules_doc_markdown(FILE *out);

#endif
