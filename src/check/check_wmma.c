/* Rule operand-type, wmma.load and wmma.store: the fragment {...} a matrix
 * of a type and shape moves, by the WMMAFRAG rows of isa/operand_sigs.def
 * (the type a matrix takes, the shapes of that type, how many registers
 * of which types, the layout), as ptxas 13 judges them. */
#include "check/check_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct WmmaFrag {
	const char *matrices, *type, *shapes, *regs, *layout;
	char join;
} WmmaFrag;

static const WmmaFrag frags[] = {
#define WMMAFRAG(matrices, type, shapes, regs, layout, join) { matrices, type, shapes, regs, layout, join },
#include "isa/operand_sigs.def"
};

typedef struct WmmaWords {
	int matrix, layout, shape, type;
} WmmaWords;

static WmmaWords wmma_words(const Instr *in)
{
	WmmaWords w = { -1, -1, -1, -1 };
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *m = in->mods[i];
		if (m[1] && !m[2] && m[1] >= 'a' && m[1] <= 'd')
			w.matrix = (int)i;
		else if (strcmp(m, ".row") == 0 || strcmp(m, ".col") == 0)
			w.layout = (int)i;
		else if (m[1] == 'm' && m[2] >= '0' && m[2] <= '9')
			w.shape = (int)i;
		else if (type_from_word(m) != TY_NONE || check_is_other_type_word(m)) {
			if (w.type >= 0)
				return (WmmaWords){ -1, -1, -1, -1 };
			w.type = (int)i;
		}
	}
	return w;
}

/* A {...} element that is a scalar register, else NULL. */
static const Symbol *fragment_reg(CheckCtx *c, const Expr *el)
{
	const Symbol *s = el->kind == EX_NAME && !el->component ? check_lookup(c, el) : NULL;
	return s && s->kind == SYM_REG && !s->vec ? s : NULL;
}

/* The {...} registers against the row: count, then the registers' types. */
static void check_fragment_regs(CheckCtx *c, const Instr *in, const Expr *frag, const WmmaFrag *row, int count,
	const char *name)
{
	if (frag->kind != EX_VECTOR) {
		check_error(c, frag->loc, RULE_OPERAND_TYPE, "Vector expected for the fragment of '%s' (a {...} of %d "
			"register%s)", name, count, count == 1 ? "" : "s");
		return;
	}
	/* 3 and 5-7 elements: check_vector_sizes has said so */
	if (frag->nelems == 3 || (frag->nelems >= 5 && frag->nelems <= 7))
		return;
	if (frag->nelems != (uint32_t)count) {
		check_error(c, frag->loc, RULE_OPERAND_TYPE, "Argument vector size mismatch for instruction '%s' ({...} has "
			"%u elements; %s with this shape takes %d)", name, frag->nelems, row->type, count);
		return;
	}
	/* join 'J': the kinds of the elements other than .bN (integer, float,
	 * packed) are one, and a .bN element the row lists holds them all */
	TypeClass kind = TC_BIT;
	bool bit_holds = false;
	for (uint32_t i = 0; row->join == 'J' && i < frag->nelems; i++) {
		const Symbol *s = fragment_reg(c, frag->elems[i]);
		if (!s)
			continue;
		const TypeInfo *ti = type_info(s->type);
		TypeClass k = ti->cls == TC_SIGNED ? TC_UNSIGNED : ti->cls;
		if (k == TC_BIT) {
			bit_holds |= check_word_in_list(row->regs, ti->word) != NULL;
			continue;
		}
		if (kind != TC_BIT && k != kind) {
			check_error(c, frag->elems[i]->loc, RULE_OPERAND_TYPE, "Vector with elements of different types are not "
				"allowed in %s instruction ('%s' is %s)", name, frag->elems[i]->text, ti->word);
			return;
		}
		kind = k;
	}
	if (bit_holds)
		return;
	for (uint32_t i = 0; i < frag->nelems; i++) {
		const Expr *el = frag->elems[i];
		const Symbol *s = fragment_reg(c, el);
		if (!s)
			continue;
		const char *word = type_info(s->type)->word;
		if (!check_word_in_list(row->regs, word))
			check_error(c, el->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' ('%s' is %s; a %s "
				"fragment is held in %s registers)", name, el->text, word, row->type, row->regs);
	}
}

void check_wmma_fragment(CheckCtx *c, const Instr *in)
{
	bool load = in->nmods && strcmp(in->mods[0], ".load") == 0;
	if ((!load && !(in->nmods && strcmp(in->mods[0], ".store") == 0)) || in->nops < 2)
		return;
	WmmaWords w = wmma_words(in);
	if (w.matrix < 0 || w.shape < 0 || w.type < 0)
		return;
	const char *matrix = in->mods[w.matrix], *shape = in->mods[w.shape], *type = in->mods[w.type];
	char name[32];
	snprintf(name, sizeof name, "wmma%s%s", in->mods[0], matrix);
	const WmmaFrag *row = NULL;
	bool matrix_known = false;
	for (size_t r = 0; r < sizeof frags / sizeof frags[0]; r++) {
		if (!check_word_in_list(frags[r].matrices, matrix))
			continue;
		matrix_known = true;
		if (strcmp(frags[r].type, type) == 0)
			row = &frags[r];
	}
	if (!matrix_known)
		return;
	SrcLoc type_loc = check_mod_loc(in, w.type);
	if (!row) {
		check_error(c, type_loc, RULE_OPERAND_TYPE, "Illegal type for %s (%s: no %s fragment of that type)", name,
			type, matrix + 1);
		return;
	}
	const char *at = check_word_in_list(row->shapes, shape);
	if (!at || *at != ':') {
		check_error(c, check_mod_loc(in, w.shape), RULE_OPERAND_TYPE, "Incorrect instruction type specified for %s "
			"with shape '%s' (%s takes the shapes:registers %s)", name, shape, type, row->shapes);
		return;
	}
	if (row->layout[0] && w.layout >= 0 && strcmp(in->mods[w.layout], row->layout) != 0) {
		check_error(c, check_mod_loc(in, w.layout), RULE_OPERAND_TYPE, "Illegal %slayout '%s' for instruction '%s' "
			"(a %s fragment of %s is %s)", matrix + 1, in->mods[w.layout], name, type, matrix + 1, row->layout);
		return;
	}
	check_fragment_regs(c, in, in->ops[load ? 0 : 1], row, atoi(at + 1), name);
}
