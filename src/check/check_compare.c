/* Rule operand-type, set and setp: the source types set takes with its
 * result type (SETTYPES rows of isa/operand_sigs.def), and the comparison
 * operator and .ftz a source type takes (CMPOPS rows), as ptxas 13 judges
 * them ("Unexpected instruction types specified for 'set'", "Mismatch
 * between instruction type and comparison qualifier", "Illegal modifier
 * '.ftz' for instruction 'setp'"). The PTX ISA gives the same, so both
 * rule sets read the rows. */
#include "check/check_internal.h"

#include <stdint.h>
#include <string.h>

typedef struct SetTypesRow {
	const char *dtype, *stypes;
} SetTypesRow;

static const SetTypesRow set_types_rows[] = {
#define SETTYPES(dtype, stypes) { dtype, stypes },
#include "isa/operand_sigs.def"
};

typedef struct CmpOpsRow {
	const char *types, *ops;
	char ftz;
} CmpOpsRow;

static const CmpOpsRow cmp_ops_rows[] = {
#define CMPOPS(types, ops, ftz) { types, ops, ftz },
#include "isa/operand_sigs.def"
};

/* The index of the n-th (0-based) type word among the modifiers, or -1;
 * *count is set to how many there are. */
static int type_word(const Instr *in, int n, int *count)
{
	int found = -1, k = 0;
	for (uint32_t i = 0; i < in->nmods; i++)
		if (type_from_word(in->mods[i]) != TY_NONE && k++ == n)
			found = (int)i;
	*count = k;
	return found;
}

/* The comparison operator's index among the modifiers (a word of some
 * CMPOPS row), or -1. */
static int comparison(const Instr *in)
{
	for (uint32_t i = 0; i < in->nmods; i++)
		for (size_t r = 0; r < sizeof cmp_ops_rows / sizeof cmp_ops_rows[0]; r++)
			if (check_word_in_list(cmp_ops_rows[r].ops, in->mods[i]))
				return (int)i;
	return -1;
}

/* set: the SETTYPES row of the result type must hold the source type. */
static void check_set_pair(CheckCtx *c, const Instr *in, int d, int s)
{
	const char *dtype = in->mods[d], *stype = in->mods[s];
	for (size_t r = 0; r < sizeof set_types_rows / sizeof set_types_rows[0]; r++)
		if (strcmp(set_types_rows[r].dtype, dtype) == 0) {
			if (!check_word_in_list(set_types_rows[r].stypes, stype))
				check_error(c, check_mod_loc(in, s), RULE_OPERAND_TYPE, "Unexpected instruction types "
					"specified for 'set' (set%s compares %s, not %s)", dtype, set_types_rows[r].stypes, stype);
			return;
		}
	check_error(c, check_mod_loc(in, d), RULE_OPERAND_TYPE, "Unexpected instruction types specified for 'set' "
		"(set writes no %s result)", dtype);
}

void check_compare(CheckCtx *c, const Instr *in)
{
	bool is_set = strcmp(in->opcode, "set") == 0;
	if (!is_set && strcmp(in->opcode, "setp") != 0)
		return;
	int ntypes, s = type_word(in, is_set ? 1 : 0, &ntypes);
	if (ntypes != (is_set ? 2 : 1) || s < 0)
		return;
	if (is_set)
		check_set_pair(c, in, type_word(in, 0, &ntypes), s);
	const char *stype = in->mods[s];
	const CmpOpsRow *row = NULL;
	for (size_t r = 0; r < sizeof cmp_ops_rows / sizeof cmp_ops_rows[0] && !row; r++)
		if (check_word_in_list(cmp_ops_rows[r].types, stype))
			row = &cmp_ops_rows[r];
	if (!row)
		return;
	int op = comparison(in);
	if (op >= 0 && !check_word_in_list(row->ops, in->mods[op]))
		check_error(c, check_mod_loc(in, op), RULE_OPERAND_TYPE, "Mismatch between instruction type and "
			"comparison qualifier (%s on %s sources: %s compares with %s)", in->mods[op], stype, stype, row->ops);
	for (uint32_t i = 0; i < in->nmods; i++)
		if (strcmp(in->mods[i], ".ftz") == 0 && row->ftz != 'F')
			check_error(c, check_mod_loc(in, (int)i), RULE_OPERAND_TYPE, "Illegal modifier '.ftz' for "
				"instruction '%s' (%s sources take no .ftz)",
				in->opcode, stype);
}
