/* Rule atomic-form: .noftz and the vector widths of atom and red, by the
 * rows of isa/atomic_forms.def (ptxas 13 requires .noftz on the 16-bit
 * float forms and refuses it elsewhere; only some float forms have
 * vector widths, and those address .global or generic memory). The
 * operation and type themselves are the OPTYPES rows' (check_signature.c);
 * the version and target gates are isa_gates.def's. */
#include "check/check_internal.h"

#include <stdint.h>
#include <string.h>

typedef struct AtomicForm {
	const char *op, *types;
	char noftz;
	const char *vectors;
	char scalar;
} AtomicForm;

static const AtomicForm forms[] = {
#define ATOMFORM(op, types, noftz, vectors, scalar) { op, types, noftz, vectors, scalar },
#include "isa/atomic_forms.def"
#undef ATOMFORM
};

/* Where the words the rows judge stand among the modifiers (-1: absent). */
typedef struct AtomicWords {
	int op, type, noftz, vector;
} AtomicWords;

static AtomicWords atomic_words(const Instr *in)
{
	static const char ops[] = ".and .or .xor .cas .exch .add .inc .dec .min .max";
	AtomicWords w = { -1, -1, -1, -1 };
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *m = in->mods[i];
		if (strcmp(m, ".noftz") == 0)
			w.noftz = (int)i;
		else if (strcmp(m, ".v2") == 0 || strcmp(m, ".v4") == 0 || strcmp(m, ".v8") == 0)
			w.vector = (int)i;
		else if (check_word_in_list(ops, m))
			w.op = (int)i;
		else if (type_from_word(m) != TY_NONE)
			w.type = (int)i;
	}
	return w;
}

static const AtomicForm *form_of(const Instr *in, AtomicWords w)
{
	if (w.op < 0 || w.type < 0)
		return NULL;
	for (size_t r = 0; r < sizeof forms / sizeof forms[0]; r++)
		if (strcmp(forms[r].op, in->mods[w.op]) == 0 && check_word_in_list(forms[r].types, in->mods[w.type]))
			return &forms[r];
	return NULL;
}

void check_atomic_form(CheckCtx *c, const Instr *in)
{
	/* red.async has forms of its own; a missing operation or type is
	 * modifier-class's to report */
	AtomicWords w = atomic_words(in);
	if (w.op < 0 || w.type < 0)
		return;
	for (uint32_t i = 0; i < in->nmods; i++)
		if (strcmp(in->mods[i], ".async") == 0)
			return;
	const AtomicForm *f = form_of(in, w);
	const char *op = in->mods[w.op], *type = in->mods[w.type];
	if (w.noftz >= 0 && (!f || f->noftz != 'R'))
		check_error(c, check_mod_loc(in, w.noftz), RULE_ATOMIC_FORM, "Illegal modifier '.noftz' for instruction "
			"'%s' (%s%s%s: drop it; .noftz is for .f16, .bf16, .f16x2 and .bf16x2)", in->opcode, in->opcode, op,
			type);
	else if (w.noftz < 0 && f && f->noftz == 'R')
		check_error(c, in->opcode_loc, RULE_ATOMIC_FORM, "'.noftz' modifier required for instruction '%s' with "
			"type '%s' (write %s%s.noftz%s)", in->opcode, type, in->opcode, op, type);
	if (w.vector < 0) {
		if (f && f->scalar == 'V')
			check_error(c, in->opcode_loc, RULE_ATOMIC_FORM, "Vector modifier required for instruction "
				"'%s%s%s' (it has only the vector forms %s, e.g. %s.global.v2%s%s.noftz)", in->opcode, op,
				type, f->vectors, in->opcode, type, op);
		return;
	}
	const char *vec = in->mods[w.vector];
	if (!f || !f->vectors[0]) {
		check_error(c, check_mod_loc(in, w.vector), RULE_ATOMIC_FORM, "Vector qualifier is not allowed for "
			"instruction '%s' (%s%s%s has no vector form; vectors are .add of .f32, .f16, .bf16 and their x2 "
			"types, and .min/.max of the 16-bit ones)", in->opcode, in->opcode, op, type);
		return;
	}
	if (!check_word_in_list(f->vectors, vec))
		check_error(c, check_mod_loc(in, w.vector), RULE_ATOMIC_FORM, "Only the vector widths %s are supported "
			"with type %s on %s operation for %s instruction with vector types (not %s)", f->vectors, type, op,
			in->opcode, vec);
	for (uint32_t i = 0; i < in->nmods; i++)
		if (strncmp(in->mods[i], ".shared", 7) == 0)
			check_error(c, check_mod_loc(in, (int)i), RULE_ATOMIC_FORM, "State space incorrect for feature "
				"'%s instruction with vector types' (vector %s addresses .global or generic memory, not %s)",
				in->opcode, in->opcode, in->mods[i]);
}
