/* Rule operand-type, the carry flag: the types with which an instruction
 * takes .cc, by the CARRY rows of isa/operand_sigs.def, as ptxas 13 judges
 * them ("Modifier '.cc' applies only to add integer types" for add.cc.u16,
 * "Illegal modifier '.cc' for instruction 'add'" for add.cc.f32); and in
 * strict mode the addc/subc/madc forms ptxas 13 takes but the PTX ISA
 * does not give (.u16/.s16, .sat). */
#include "check/check_internal.h"

#include <stdint.h>
#include <string.h>

typedef struct CarryRow {
	const char *opcode, *form, *types;
} CarryRow;

static const CarryRow carry_rows[] = {
#define CARRY(opcode, form, types) { opcode, form, types },
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

/* PTX ISA 9.7.2.2/9.7.2.4/9.7.2.6: addc, subc and madc have .type =
 * { .u32, .s32, .u64, .s64 } and no .sat; ptxas 13 takes .u16/.s16 and
 * .sat (on .s32) too. */
static void check_carry_documented(CheckCtx *c, const Instr *in)
{
	static const char doc[] = "PTX ISA 9.7.2 extended-precision arithmetic: addc, subc and madc take .u32, .s32, "
		".u64 or .s64, and no .sat";
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *m = in->mods[i];
		if (strcmp(m, ".u16") == 0 || strcmp(m, ".s16") == 0)
			check_strict(c, check_mod_loc(in, (int)i), RULE_OPERAND_TYPE, doc, "Type %s on %s: extended-precision "
				"arithmetic is 32 or 64 bits wide", m, in->opcode);
		else if (strcmp(m, ".sat") == 0)
			check_strict(c, check_mod_loc(in, (int)i), RULE_OPERAND_TYPE, doc, "Modifier .sat on %s: the carry "
				"chain does not saturate", in->opcode);
	}
}

void check_carry(CheckCtx *c, const Instr *in)
{
	if (opcode_is(in, "addc") || opcode_is(in, "subc") || opcode_is(in, "madc"))
		check_carry_documented(c, in);
	int cc = mod_index(in, ".cc"), type = -1;
	if (cc < 0)
		return;
	for (uint32_t i = 0; i < in->nmods && type < 0; i++)
		if (type_from_word(in->mods[i]) != TY_NONE)
			type = (int)i;
	if (type < 0)
		return;
	for (size_t r = 0; r < sizeof carry_rows / sizeof carry_rows[0]; r++) {
		const CarryRow *row = &carry_rows[r];
		if (strcmp(row->opcode, in->opcode) != 0 || (row->form[0] && mod_index(in, row->form) < 0))
			continue;
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
		return;
	}
}
