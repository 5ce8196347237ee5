/* The rules reference (docs/rules.md), generated from the rule registry
 * (rules.def), the requirement table (requirements.def), the operand
 * signatures (operand_sigs.def) and the target table (targets.def) only,
 * so it cannot drift from what the checker does. */
#ifndef PTXSURF_RULES_DOC_H
#define PTXSURF_RULES_DOC_H

#include <stdio.h>

void rules_doc_markdown(FILE *out);
/* rules_doc_sigs.c: the operand-signature section. */
void rules_doc_operand_sigs(FILE *out);

#endif
