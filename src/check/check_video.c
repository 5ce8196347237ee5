/* Rule operand-type, the scalar video instructions' forms (VIDEO rows of
 * isa/operand_sigs.def): where a byte or half-word selector may stand,
 * when the secondary operation's operand c is needed, and vshl/vshr's
 * .u32 shift type, as ptxas 13 words them. Operand widths are the OPSIG
 * rows' (check_signature.c). */
#include "check/check_internal.h"
#include "isa/ptx_types.h"

#include <string.h>

typedef struct VideoRow {
	const char *opcode;
	char shape;
} VideoRow;

static const VideoRow video_rows[] = {
#define VIDEO(opcode, shape) { opcode, shape },
#include "isa/operand_sigs.def"
};

/* The register's selector (".b0", ".h1"), through a negation; NULL if none. */
static const char *selector_of(const Expr *e)
{
	if (e && e->kind == EX_UNARY)
		e = e->lhs;
	return e && e->kind == EX_NAME ? e->component : NULL;
}

/* .b0-.b3, .h0, .h1: the scalar forms' byte and half-word selectors */
static bool is_scalar_selector(const char *sel)
{
	return sel[0] == '.' && ((sel[1] == 'b' && sel[2] >= '0' && sel[2] <= '3') ||
	                         (sel[1] == 'h' && (sel[2] == '0' || sel[2] == '1'))) && !sel[3];
}

static int secondary_operation(const Instr *in)
{
	for (uint32_t i = 0; i < in->nmods; i++)
		if (strcmp(in->mods[i], ".add") == 0 || strcmp(in->mods[i], ".min") == 0 || strcmp(in->mods[i], ".max") == 0)
			return (int)i;
	return -1;
}

/* vshl/vshr: the third type names the shift amount, always .u32. */
static void check_shift_type(CheckCtx *c, const Instr *in)
{
	int n = 0;
	for (uint32_t i = 0; i < in->nmods; i++) {
		PtxType t = type_from_word(in->mods[i]);
		if (t == TY_NONE)
			continue;
		if (++n == 3 && t != TY_U32)
			check_error(c, check_mod_loc(in, (int)i), RULE_OPERAND_TYPE, "Operation requires .u32 type for "
				"instruction '%s' (the third type is the shift amount's: write .u32, not %s)", in->opcode,
				in->mods[i]);
	}
}

/* A SIMD lane selection: 'k' known and right for the operand, 'w' a
 * known selector word of the wrong shape, 'u' unknown (a letter other
 * than b/h, or a lane number out of range). */
static char simd_selector(const char *sel, unsigned lanes, bool mask)
{
	size_t n = strlen(sel);
	if (n < 3 || (sel[1] != 'b' && sel[1] != 'h'))
		return 'u';
	unsigned top = sel[1] == 'h' ? 3 : 7, last = 8;
	bool descending = true;
	for (size_t i = 2; i < n; i++) {
		if (sel[i] < '0' || sel[i] > (char)('0' + top))
			return 'u';
		descending = descending && (unsigned)(sel[i] - '0') < last;
		last = (unsigned)(sel[i] - '0');
	}
	char letter = lanes == 2 ? 'h' : 'b';
	if (sel[1] != letter)
		return 'w';
	if (mask)
		return descending && (unsigned)(sel[2] - '0') < lanes ? 'k' : 'w';
	return n == 2 + lanes ? 'k' : 'w';
}

/* vadd2 ... vset4: the lane masks and selections, .sat with .add. */
static void check_simd(CheckCtx *c, const Instr *in, unsigned lanes)
{
	int sat = -1, add = -1;
	for (uint32_t i = 0; i < in->nmods; i++) {
		if (strcmp(in->mods[i], ".sat") == 0)
			sat = (int)i;
		if (strcmp(in->mods[i], ".add") == 0)
			add = (int)i;
	}
	if (sat >= 0 && add >= 0)
		check_error(c, check_mod_loc(in, add > sat ? add : sat), RULE_OPERAND_TYPE, "Illegal combination of .sat "
			"and .add modifiers for instruction '%s' (.sat clamps the lanes merged into d, .add sums them into c: "
			"drop one)", in->opcode);
	static const char *const shapes[2][2] = {
		{ "a lane selection .hxy, x and y from 0-3 (half-words of a, then b)",
		  "a lane selection .bxyzw, each from 0-7 (bytes of a, then b)" },
		{ "a lane mask .h0, .h1 or .h10", "a lane mask .b and lanes 3-0 in descending order (.b3210, .b20)" },
	};
	for (uint32_t i = 0; i < 3 && i < in->nops; i++) {
		const char *sel = selector_of(in->ops[i]);
		char k = sel ? simd_selector(sel, lanes, i == 0) : 'k';
		if (k == 'u')
			check_error(c, in->ops[i]->loc, RULE_OPERAND_TYPE, "Unknown video selector: '%s' (operand %u of "
				"instruction '%s': write %s)", sel, i, in->opcode, shapes[i == 0][lanes == 4]);
		else if (k == 'w')
			check_error(c, in->ops[i]->loc, RULE_OPERAND_TYPE, "Incorrect video selector for operand %u of "
				"instruction '%s' ('%s': write %s)", i, in->opcode, sel, shapes[i == 0][lanes == 4]);
	}
}

static const VideoRow *video_row(const Instr *in)
{
	if (in->opcode[0] != 'v')
		return NULL;
	for (size_t i = 0; i < sizeof video_rows / sizeof video_rows[0]; i++)
		if (strcmp(video_rows[i].opcode, in->opcode) == 0)
			return &video_rows[i];
	return NULL;
}

bool check_is_video(const Instr *in)
{
	return video_row(in) != NULL;
}

void check_video_form(CheckCtx *c, const Instr *in)
{
	const VideoRow *row = in->nops < 3 ? NULL : video_row(in);
	if (!row)
		return;
	if (row->shape == '2' || row->shape == '4')
		check_simd(c, in, row->shape == '2' ? 2 : 4);
	const char *dsel = selector_of(in->ops[0]);
	bool simd = row->shape == '2' || row->shape == '4';
	int op2 = row->shape == 'M' || simd ? -1 : secondary_operation(in);
	if (dsel && row->shape == 'M')
		check_error(c, in->ops[0]->loc, RULE_OPERAND_TYPE, "Video selector is not allowed on destination for "
			"instruction 'vmad' ('%s': vmad writes the whole register)", dsel);
	else if (dsel && op2 >= 0)
		check_error(c, in->ops[0]->loc, RULE_OPERAND_TYPE, "Video instruction cannot have destination selector and "
			"secondary operation ('%s' with %s: drop one)", dsel, in->mods[op2]);
	else if (dsel && in->nops < 4 && !simd)
		check_error(c, in->ops[0]->loc, RULE_OPERAND_TYPE, "Video selector is not allowed on destination for "
			"instruction '%s' ('%s' merges into operand c: write %s d%s, a, b, c)", in->opcode, dsel, in->opcode, dsel);
	else if (op2 >= 0 && in->nops < 4)
		check_error(c, check_mod_loc(in, op2), RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' (%s is "
			"applied with the fourth operand c: write %s d, a, b, c)", in->opcode, in->mods[op2], in->opcode);
	if (in->nops >= 4 && selector_of(in->ops[3]))
		check_error(c, in->ops[3]->loc, RULE_OPERAND_TYPE, "Video selector is not allowed on 'source C' operand of "
			"instruction '%s' ('%s': c is read whole)", in->opcode, selector_of(in->ops[3]));
	if (!simd)
		for (uint32_t i = 0; i < 3; i++) {
			const char *sel = selector_of(in->ops[i]);
			if (sel && !is_scalar_selector(sel))
				check_error(c, in->ops[i]->loc, RULE_OPERAND_TYPE, "Unknown video selector: '%s' (operand %u of "
					"instruction '%s': write .b0-.b3, .h0 or .h1)", sel, i, in->opcode);
		}
	if (row->shape == 'H')
		check_shift_type(c, in);
}
