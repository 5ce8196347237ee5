/* Rule operand-type, wmma.load, wmma.store and wmma.mma: the fragment
 * {...} a matrix of a type and shape moves, by the WMMAFRAG rows of
 * isa/operand_sigs.def (the type a matrix takes, the shapes of that type,
 * how many registers of which types, the layout), and the type lists of
 * wmma.mma by its WMMAMMA rows, as ptxas 13 judges them. */
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

/* ---- wmma.mma ---- */
typedef struct WmmaMma {
	const char *types, *ab;
	char rounds, ops, sat;
	const char *regs[2];    /* A, B: "" the WMMAFRAG row's */
} WmmaMma;

static const WmmaMma mmas[] = {
#define WMMAMMA(types, ab, rounds, ops, sat, aregs, bregs) { types, ab, rounds, ops, sat, { aregs, bregs } },
#include "isa/operand_sigs.def"
};

/* The WMMAFRAG row of a matrix (".a" ... ".d") and a type, or NULL. */
static const WmmaFrag *frag_row(const char *matrix, const char *type, size_t type_len)
{
	for (size_t r = 0; r < sizeof frags / sizeof frags[0]; r++)
		if (check_word_in_list(frags[r].matrices, matrix) && strlen(frags[r].type) == type_len &&
		    strncmp(frags[r].type, type, type_len) == 0)
			return &frags[r];
	return NULL;
}

typedef struct MmaWords {
	char types[64];
	int first_type, shape, rounding, sat, layout[2];
	bool op;
} MmaWords;

static MmaWords mma_words(const Instr *in)
{
	MmaWords w = { "", -1, -1, -1, -1, { -1, -1 }, false };
	int nlayouts = 0;
	for (uint32_t i = 1; i < in->nmods; i++) {
		const char *m = in->mods[i];
		if (type_from_word(m) != TY_NONE || check_is_other_type_word(m)) {
			size_t used = strlen(w.types);
			snprintf(w.types + used, sizeof w.types - used, "%s%s", used ? " " : "", m);
			if (w.first_type < 0)
				w.first_type = (int)i;
		} else if (strcmp(m, ".row") == 0 || strcmp(m, ".col") == 0) {
			if (nlayouts < 2)
				w.layout[nlayouts++] = (int)i;
		} else if (m[1] == 'm' && m[2] >= '0' && m[2] <= '9') {
			w.shape = (int)i;
		} else if (strcmp(m, ".rn") == 0 || strcmp(m, ".rz") == 0 || strcmp(m, ".rm") == 0 || strcmp(m, ".rp") == 0) {
			w.rounding = (int)i;
		} else if (strcmp(m, ".satfinite") == 0) {
			w.sat = (int)i;
		} else if (strcmp(m, ".popc") == 0) {
			w.op = true;
		}
	}
	return w;
}

/* The modifiers of a known type list: rounding, .satfinite, the .b1
 * operation. False when one was refused. */
static bool check_mma_modifiers(CheckCtx *c, const Instr *in, const MmaWords *w, const WmmaMma *row)
{
	const char *shape = in->mods[w->shape];
	if (w->rounding >= 0 && row->rounds != 'R') {
		check_error(c, check_mod_loc(in, w->rounding), RULE_OPERAND_TYPE, "Illegal rounding modifier for instruction "
			"'wmma.mma' (%s: only wmma.mma .f64 takes one)", in->mods[w->rounding]);
		return false;
	}
	if (w->sat >= 0 && row->sat == 'F' && c->has_version && c->version >= PTX_VERSION_OF(6, 5)) {
		check_error(c, check_mod_loc(in, w->sat), RULE_OPERAND_TYPE, "Instruction 'wmma.mma' with floating point "
			"type with '.satfinite' is not supported starting from PTX ISA version 6.5 (the file declares .version "
			"%u.%u; drop .satfinite)", PTX_VERSION_MAJOR(c->version), PTX_VERSION_MINOR(c->version));
		return false;
	}
	if (w->sat >= 0 && row->sat == '-') {
		check_error(c, check_mod_loc(in, w->sat), RULE_OPERAND_TYPE, "%s for instruction 'wmma.mma' (%s takes no "
			".satfinite)", row->rounds == 'R' ? "Unexpected instruction types specified" :
			"Illegal modifier '.satfinite'", row->types);
		return false;
	}
	if (row->ops == 'P' && !w->op) {
		check_error(c, check_mod_loc(in, w->shape), RULE_OPERAND_TYPE, "Unexpected number of operations specified for "
			"wmma.mma with shape '%s' (.b1 needs .xor.popc or .and.popc: wmma.mma.xor.popc.sync...)", shape);
		return false;
	}
	return true;
}

/* The fragment type of operand k (0 d, 1 a, 2 b, 3 c) in a row's list. */
static const char *mma_fragment_type(const WmmaMma *row, int k, size_t *len)
{
	const char *p = row->types;
	int nwords = 1;
	for (const char *q = p; *q; q++)
		nwords += *q == ' ';
	int want = nwords == 4 ? k : k == 0 ? 0 : k == 3 ? 1 : -1;
	if (want < 0) {
		*len = strlen(row->ab);
		return row->ab;
	}
	for (int i = 0; i < want; i++)
		p = strchr(p, ' ') + 1;
	*len = strcspn(p, " ");
	return p;
}

void check_wmma_mma(CheckCtx *c, const Instr *in)
{
	if (!in->nmods || strcmp(in->mods[0], ".mma") != 0 || in->nops != 4)
		return;
	MmaWords w = mma_words(in);
	if (w.shape < 0 || w.first_type < 0)
		return;
	const WmmaMma *row = NULL;
	for (size_t r = 0; r < sizeof mmas / sizeof mmas[0] && !row; r++)
		if (strcmp(mmas[r].types, w.types) == 0)
			row = &mmas[r];
	if (!row) {
		check_error(c, check_mod_loc(in, w.first_type), RULE_OPERAND_TYPE, "Unexpected instruction types specified "
			"for 'wmma.mma' (%s; it takes .dtype.ctype of .f16/.f32, or .s32.s8.s8.s32, .s32.u8.u8.s32, "
			".s32.s4.s4.s32, .s32.u4.u4.s32, .s32.b1.b1.s32, .f32.bf16.bf16.f32, .f32.tf32.tf32.f32, "
			".f64.f64.f64.f64)", w.types);
		return;
	}
	static const char *const matrices[4] = { ".d", ".a", ".b", ".c" };
	const WmmaFrag *frag[4];
	int count[4];
	const char *shape = in->mods[w.shape];
	bool shape_ok = true;
	for (int k = 0; k < 4; k++) {
		size_t len;
		const char *type = mma_fragment_type(row, k, &len);
		frag[k] = frag_row(matrices[k], type, len);
		const char *at = frag[k] ? check_word_in_list(frag[k]->shapes, shape) : NULL;
		shape_ok &= at && *at == ':';
		count[k] = at && *at == ':' ? atoi(at + 1) : 0;
	}
	if (!shape_ok) {
		size_t len;
		const char *atype = mma_fragment_type(row, 1, &len);
		/* ptxas 13 takes these (its own fragment checks then say nothing
		 * about them); the PTX ISA gives .s4/.u4 .m8n8k32 only and .f64
		 * .m8n8k4 only */
		bool ptxas_takes = ((strncmp(atype, ".s4", len) == 0 || strncmp(atype, ".u4", len) == 0) &&
			strcmp(shape, ".m8n8k128") != 0) || (strncmp(atype, ".f64", len) == 0 && strcmp(shape, ".m16n16k16") == 0);
		if (ptxas_takes)
			check_strict(c, check_mod_loc(in, w.shape), RULE_OPERAND_TYPE, "PTX ISA 9.7.14.4.14 wmma.mma: .s4/.u4 "
				"take .m8n8k32, .f64 .m8n8k4", "Incorrect shape '%s' for wmma.mma with %s", shape, w.types);
		else
			check_error(c, check_mod_loc(in, w.shape), RULE_OPERAND_TYPE, "Incorrect instruction type specified for "
				"wmma.mma with shape '%s' (%s: no such shape for these types)", shape, w.types);
		return;
	}
	if (!check_mma_modifiers(c, in, &w, row))
		return;
	for (int k = 1; k <= 2; k++)
		if (frag[k]->layout[0] && w.layout[k - 1] >= 0 &&
		    strcmp(in->mods[w.layout[k - 1]], frag[k]->layout) != 0) {
			check_error(c, check_mod_loc(in, w.layout[k - 1]), RULE_OPERAND_TYPE, "Illegal %slayout '%s' for "
				"instruction 'wmma.mma' (the %s fragment of %s is %s)", matrices[k] + 1, in->mods[w.layout[k - 1]],
				k == 1 ? "A" : "B", frag[k]->type, frag[k]->layout);
			return;
		}
	for (int k = 0; k < 4; k++) {
		WmmaFrag own = *frag[k];
		if ((k == 1 || k == 2) && row->regs[k - 1][0]) {
			own.regs = row->regs[k - 1];
			own.join = 'E';
		}
		check_fragment_regs(c, in, in->ops[k], &own, count[k], "wmma.mma");
	}
}
