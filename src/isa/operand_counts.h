/* The operand-count table (operand_counts.def) as data, for the checker
 * (check_operands.c) and the table's unit tests. */
#ifndef PTXSURF_OPERAND_COUNTS_H
#define PTXSURF_OPERAND_COUNTS_H

#include <stddef.h>

typedef struct OperandCountRow {
	const char *opcode;
	const char *mods;       /* required modifiers, space separated; "" = any form */
	int min, max;
	const char *example;    /* "MAX-FORM" or "MAX-FORM || MIN-FORM" */
} OperandCountRow;

/* Every row, in file order (the first matching row of an opcode decides). */
const OperandCountRow *operand_count_rows(size_t *n);
/* The NAMED words of an opcode (how ptxas names it), or NULL. */
const char *operand_count_name_words(const char *opcode);

#endif
