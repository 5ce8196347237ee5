/* Rule operand-type: the component after a name (%tid.x, %r1.h0, %v.y),
 * as ptxas 13 reads it (probed one form at a time):
 *   - a .v4 special register (%tid, %ctaid ...) is read one component at
 *     a time, .x to .w, or whole only by a .v4 instruction ("Argument
 *     vector size mismatch"); a scalar one takes none ("Unknown field");
 *   - a scalar register takes a byte or half-word selector (.b0-.b3,
 *     .h0, .h1 and the SIMD lane forms) only in a video instruction
 *     ("Video selector is not allowed on source operand"), where
 *     check_video.c checks the selector itself; any other word is
 *     "Unknown field";
 *   - a .vN register takes .x .y .z .w (.r .g .b .a) within its width;
 *   - a variable, function or label takes none.
 * Names in addresses and in {...} vectors follow the same rules. */
#include "check/check_internal.h"

#include <stdbool.h>
#include <string.h>

/* .b0 .h1 .b3210 .h10 ...: a video selector's shape */
static bool is_selector(const char *comp)
{
	if (comp[0] != '.' || (comp[1] != 'b' && comp[1] != 'h') || !comp[2])
		return false;
	for (const char *p = comp + 2; *p; p++)
		if (*p < '0' || *p > '7')
			return false;
	return true;
}

/* .x .y .z .w or .r .g .b .a: the element index, -1 if none of them */
static int element_of(const char *comp)
{
	static const char xyzw[] = "xyzw", rgba[] = "rgba";
	if (comp[0] != '.' || !comp[1] || comp[2])
		return -1;
	const char *p = strchr(xyzw, comp[1]), *q = strchr(rgba, comp[1]);
	return p ? (int)(p - xyzw) : q ? (int)(q - rgba) : -1;
}

/* the N of the instruction's .vN modifier, 0 if none */
static unsigned vector_width(const Instr *in)
{
	for (uint32_t i = 0; i < in->nmods; i++)
		if (strcmp(in->mods[i], ".v2") == 0 || strcmp(in->mods[i], ".v4") == 0)
			return (unsigned)(in->mods[i][2] - '0');
	return 0;
}

static void check_name(CheckCtx *c, const Instr *in, const Expr *e, bool video)
{
	const Symbol *s = check_is_sink(e) ? NULL : check_lookup(c, e);
	if (!s || s->is_constant)
		return;
	const char *comp = e->component;
	if (s->kind == SYM_SPECIAL && s->vec && !comp && vector_width(in) != s->vec)
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Argument vector size mismatch for instruction '%s' ('%s' is a "
			".v%u special register: read one component, %s.x)", in->opcode, e->text, s->vec, e->text);
	if (!comp)
		return;
	int elem = element_of(comp);
	if ((s->kind == SYM_SPECIAL || s->kind == SYM_REG) && s->vec) {
		if (elem < 0 || elem >= s->vec)
			check_error(c, e->loc, RULE_OPERAND_TYPE, "Unknown field '%s' ('%s' is .v%u: .x to %s)", comp, e->text,
				s->vec, s->vec == 2 ? ".y" : ".w");
	} else if (s->kind == SYM_REG && video) {
		return;
	} else if (s->kind == SYM_REG && is_selector(comp)) {
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Video selector is not allowed on source operand for instruction "
			"'%s' ('%s%s': only the video instructions select bytes and half-words; extract them with bfe or "
			"cvt)", in->opcode, e->text, comp);
	} else {
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Unknown field '%s' ('%s' is %s)", comp, e->text,
			s->kind == SYM_SPECIAL ? "a scalar special register" : s->kind == SYM_REG ? "a scalar register" :
			"no register");
	}
}

static void walk(CheckCtx *c, const Instr *in, const Expr *e, bool video)
{
	if (!e)
		return;
	switch (e->kind) {
	case EX_NAME:
		check_name(c, in, e, video);
		break;
	case EX_UNARY:
		walk(c, in, e->lhs, video);
		break;
	case EX_BINARY:
		walk(c, in, e->lhs, video);
		walk(c, in, e->rhs, video);
		break;
	case EX_VECTOR:
	case EX_ADDRESS:
		for (uint32_t k = 0; k < e->nelems; k++)
			walk(c, in, e->elems[k], video);
		break;
	default:
		break;
	}
}

void check_operand_components(CheckCtx *c, const Instr *in)
{
	/* a video instruction's selectors are check_video.c's */
	bool video = check_is_video(in);
	for (uint32_t i = 0; i < in->nops; i++)
		walk(c, in, in->ops[i], video);
}
