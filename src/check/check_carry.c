/* Rule operand-type, the carry flag: the types with which an instruction
 * takes .cc, by the CARRY rows of isa/operand_sigs.def, as ptxas 13 judges
 * them ("Modifier '.cc' applies only to add integer types" for add.cc.u16,
 * "Illegal modifier '.cc' for instruction 'add'" for add.cc.f32,
 * mad.wide.cc.u32); and in strict mode the type words and .sat outside a
 * row's isa_words (addc/subc/madc .u16/.s16 and .sat, which ptxas 13 takes
 * but the PTX ISA does not give). */
#include "check/check_internal.h"

#include <stdint.h>
#include <string.h>

typedef struct CarryRow {
	const char *opcode, *form, *types, *isa_words;
} CarryRow;

static const CarryRow carry_rows[] = {
#define CARRY(opcode, form, types, isa_words) { opcode, form, types, isa_words },
#include "isa/operand_sigs.def"
};

/* The index of word among the instruction's modifiers, or -1. */
static int mod_index(const Instr *in, const char *word)
{
	for (uint32_t i = 0; i < in->nmods; i++)
		if (strcmp(in->mods[i], word) == 0)
			return (int)i;
	return -1;
}

/* The first CARRY row for the instruction's opcode and form, or NULL. */
static const CarryRow *carry_row(const Instr *in)
{
	for (size_t r = 0; r < sizeof carry_rows / sizeof carry_rows[0]; r++) {
		const CarryRow *row = &carry_rows[r];
		if (strcmp(row->opcode, in->opcode) == 0 && (!row->form[0] || mod_index(in, row->form) >= 0))
			return row;
	}
	return NULL;
}

static const char carry_isa_doc[] = "PTX ISA 9.7.2 extended-precision arithmetic";

/* Strict mode: a type word or .sat the PTX ISA does not document for the
 * form (the row's isa_words), though ptxas 13 takes it. */
static void check_carry_documented(CheckCtx *c, const Instr *in, const CarryRow *row)
{
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *m = in->mods[i];
		int is_type = type_from_word(m) != TY_NONE;
		if ((!is_type && strcmp(m, ".sat") != 0) || check_word_in_list(row->isa_words, m))
			continue;
		SrcLoc loc = check_mod_loc(in, (int)i);
		if (is_type)
			check_strict(c, loc, RULE_OPERAND_TYPE, carry_isa_doc, "Type %s on %s%s: the PTX ISA gives %s only %s", m,
				in->opcode, row->form, in->opcode, row->isa_words);
		else
			check_strict(c, loc, RULE_OPERAND_TYPE, carry_isa_doc, "Modifier .sat on %s%s: the PTX ISA gives %s no .sat "
				"(types %s)", in->opcode, row->form, in->opcode, row->isa_words);
	}
}

void check_carry(CheckCtx *c, const Instr *in)
{
	const CarryRow *row = carry_row(in);
	if (!row)
		return;
	if (row->isa_words[0])
		check_carry_documented(c, in, row);
	int cc = mod_index(in, ".cc"), type = -1;
	if (cc < 0)
		return;
	for (uint32_t i = 0; i < in->nmods && type < 0; i++)
		if (type_from_word(in->mods[i]) != TY_NONE)
			type = (int)i;
	if (type < 0)
		return;
	const char *word = in->mods[type];
	if (check_word_in_list(row->types, word))
		return;
	TypeClass cls = type_info(type_from_word(word))->cls;
	SrcLoc loc = check_mod_loc(in, cc);
	if (row->types[0] && (cls == TC_SIGNED || cls == TC_UNSIGNED))
		check_error(c, loc, RULE_OPERAND_TYPE, "Modifier '.cc' applies only to %s%s integer types (%s "
			"carries for %s, not for %s)", in->opcode, row->form, in->opcode, row->types, word);
	else
		check_error(c, loc, RULE_OPERAND_TYPE, "Illegal modifier '.cc' for instruction '%s%s' (%s)", in->opcode,
			row->form, row->types[0] ? "only integer types of 32 or 64 bits carry" :
			"this form does not write the carry flag");
}
