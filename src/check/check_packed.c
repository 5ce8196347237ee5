/* The operands of arithmetic on packed types (.f16x2, .bf16x2, .f32x2):
 * ptxas 13 takes only a register of the packed type or a .bN register of
 * its width (.b32 for the 16x2 types, .b64 for .f32x2), measured on add,
 * sub, mul, fma, neg, abs, min, max, ex2, tanh, atom, red and setp's
 * sources: an .u32/.s32/.f32 register, another width or any constant (1,
 * 1.0, 0f3F800000) is "Arguments mismatch". The type table's rule
 * (check_signature.c) leaves packed types to this file. */
#include "check/check_internal.h"

#include <string.h>

/* The packed type word of the instruction and its width (0: none). */
static int packed_width(const Instr *in, const char **word)
{
	static const struct { const char *word; int bits; } packed[] = {
		{ ".f16x2", 32 }, { ".bf16x2", 32 }, { ".f32x2", 64 },
	};
	for (uint32_t i = 0; i < in->nmods; i++)
		for (size_t p = 0; p < sizeof packed / sizeof packed[0]; p++)
			if (strcmp(in->mods[i], packed[p].word) == 0) {
				*word = packed[p].word;
				return packed[p].bits;
			}
	return 0;
}

/* The first operand judged: setp's are its predicates' sources, a and b
 * (its c, after a boolean operation, is a predicate). */
static int first_packed_operand(const Instr *in)
{
	static const char *const all[] = { "add", "sub", "mul", "fma", "neg", "abs", "min", "max", "ex2", "tanh", "atom",
		"red" };
	if (strcmp(in->opcode, "setp") == 0)
		return 1;
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		if (strcmp(in->opcode, all[i]) == 0)
			return 0;
	return -1;
}

void check_packed_operands(CheckCtx *c, const Instr *in)
{
	const char *word = NULL;
	int bits = packed_width(in, &word);
	int from = bits ? first_packed_operand(in) : -1;
	if (from < 0)
		return;
	uint32_t end = strcmp(in->opcode, "setp") == 0 && in->nops > 3 ? 3 : in->nops;
	for (uint32_t i = (uint32_t)from; i < end; i++) {
		const Expr *e = in->ops[i];
		if (check_is_sink(e))
			continue;
		/* a constant result is check_destination's to refuse */
		if (check_is_immediate(e) && i > 0) {
			check_error(c, e->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' (constant '%s': "
				"%s operands are registers)", in->opcode, check_expr_text(c, e), word);
			return;
		}
		const TypeInfo *ti = check_scalar_register(c, e);
		if (!ti)
			continue;
		bool fits = strcmp(ti->word, word) == 0 || (ti->cls == TC_BIT && ti->bits == bits);
		if (!fits) {
			check_error(c, e->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' ('%s' is %s; %s "
				"operands are %s or .b%d registers)", in->opcode, e->text, ti->word, word, word, bits);
			return;
		}
	}
}
