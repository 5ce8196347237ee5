/* match and redux without .sync (always an error), vote and shfl without
 * .sync: PTX ISA 6.4 removed these warp-implicit
 * forms for sm_70 and later (independent thread scheduling leaves no
 * implicit warp), and ptxas 13 rejects them when both the .version and
 * the .target are that new; older files only get its warning (rule
 * sync-deprecated). Also bar/barrier without their operation or with a
 * barrier number or thread count ptxas refuses (rule operand-type), .loc
 * without .file (ptxas 13 warns: line information may be incomplete), and
 * in strict mode integer literals ptxas truncates to 64 bits silently. */
#include "check/check_internal.h"

#include <string.h>

static const char *const sync_required[] = { "vote", "shfl" };
/* Warp instructions born with .sync (PTX ISA 6.0, 7.0): ptxas 13 requires
 * it in every version (".sync modifier required for instruction 'match'"). */
static const char *const sync_always[] = { "match", "redux" };

enum { DEPRECATED_IN = PTX_VERSION_OF(6, 0), REMOVED_IN = PTX_VERSION_OF(6, 4), REMOVED_FROM_SM = 70 };

static bool has_word(const Instr *in, const char *word)
{
	for (uint32_t i = 0; i < in->nmods; i++)
		if (strcmp(in->mods[i], word) == 0)
			return true;
	return false;
}

static void check_barrier_modifier(CheckCtx *c, const Instr *in)
{
	/* barrier.cluster.arrive/.wait is an instruction of its own. */
	if (has_word(in, ".sync") || has_word(in, ".arrive") || has_word(in, ".red") || has_word(in, ".cluster"))
		return;
	check_error(c, in->opcode_loc, RULE_BARRIER_MODIFIER, "Barrier modifier required for instruction '%s' (write "
		"%s.sync, %s.arrive or %s.red)", in->opcode, in->opcode, in->opcode, in->opcode);
}

/* The barrier number (an immediate 0-15) and the thread count (an
 * immediate multiple of the warp size), each a 32-bit register otherwise,
 * as ptxas 13 checks them ("Barrier number '16' out of range", "Number of
 * threads participating in barrier must be in multiple of warp size",
 * "Arguments mismatch"). bar.red d, a{, b}, {!}c names them after d.
 * It reads operands, so check_body.c runs it on every instruction, not
 * once per shape as check_sync_required. */
void check_barrier_operands(CheckCtx *c, const Instr *in)
{
	/* bar.warp.sync takes a member mask, barrier.cluster no number */
	if (in->opcode[0] != 'b' || (!opcode_is(in, "bar") && !opcode_is(in, "barrier")) || has_word(in, ".warp") ||
	    has_word(in, ".cluster"))
		return;
	bool red = has_word(in, ".red");
	uint32_t id = red ? 1 : 0, count = red ? (in->nops == 4 ? 2 : 0) : 1;
	for (uint32_t i = id; i < in->nops && (i == id || i == count); i++) {
		const Expr *e = in->ops[i];
		int64_t v;
		if (check_is_immediate(e) && expr_const_int(e, &v)) {
			if (i == id && (v < 0 || v > 15))
				check_error(c, e->loc, RULE_OPERAND_TYPE, "Barrier number '%s' out of range, expected to be in "
					"range [0..15]", check_expr_text(c, e));
			else if (i == count && v % 32 != 0)
				check_error(c, e->loc, RULE_OPERAND_TYPE, "Number of threads participating in barrier must be "
					"in multiple of warp size ('%s': write a multiple of 32)", check_expr_text(c, e));
		} else if (e->kind == EX_NAME && !e->component && check_lookup(c, e) && check_lookup(c, e)->kind == SYM_REG &&
		           type_info(check_register_type(c, e))->bits != 32) {
			check_error(c, e->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' ('%s' is %s; the "
				"barrier number and thread count are 32-bit)", in->opcode, e->text,
				type_info(check_register_type(c, e))->word);
		}
	}
}

void check_sync_required(CheckCtx *c, const Instr *in)
{
	if (in->opcode[0] == 'b' && (opcode_is(in, "bar") || opcode_is(in, "barrier"))) {
		check_barrier_modifier(c, in);
		return;
	}
	for (size_t i = 0; i < sizeof sync_always / sizeof sync_always[0]; i++)
		if (strcmp(in->opcode, sync_always[i]) == 0 && !has_word(in, ".sync")) {
			check_error(c, in->opcode_loc, RULE_SYNC_REQUIRED, ".sync modifier required for instruction '%s' "
				"(write %s.sync with a member mask)", in->opcode, in->opcode);
			return;
		}
	bool listed = false;
	for (size_t i = 0; i < sizeof sync_required / sizeof sync_required[0]; i++)
		listed |= strcmp(in->opcode, sync_required[i]) == 0;
	if (!listed || has_word(in, ".sync"))
		return;
	if (!c->has_version || c->version < REMOVED_IN || !c->target || c->target->sm < REMOVED_FROM_SM) {
		if (c->has_version && c->version >= DEPRECATED_IN)
			check_warning(c, in->opcode_loc, RULE_SYNC_DEPRECATED, "Instruction '%s' without '.sync' is deprecated "
				"since PTX ISA version 6.0 and may produce unpredictable results on sm_70 and later "
				"architectures (use %s.sync with a member mask)", in->opcode, in->opcode);
		return;
	}
	Diag *d = check_error(c, in->opcode_loc, RULE_SYNC_REQUIRED, "Instruction '%s' without '.sync' is not supported on "
		".target sm_%d and higher from PTX ISA version 6.4 (use %s.sync with a member mask)", in->opcode,
		REMOVED_FROM_SM, in->opcode);
	check_note_target(c, d);
}

/* Literals wider than 64 bits the parser kept the low bits of, as ptxas
 * 13 does silently: strict mode says so. */
static void check_truncated_literals(CheckCtx *c)
{
	if (c->rules != RULES_STRICT || !c->m)
		return;
	for (uint32_t i = 0; i < c->m->ntruncated_literals; i++)
		check_warning(c, c->m->truncated_literals[i], RULE_LITERAL_TRUNCATED, "integer literal does not fit in 64 "
			"bits: its low 64 bits are used, as ptxas 13 does silently (write at most 16 hex digits)");
}

void check_loc_file(CheckCtx *c)
{
	check_truncated_literals(c);
	if (c->has_loc && !c->has_file)
		check_warning(c, c->first_loc, RULE_LOC_WITHOUT_FILE, ".loc directive without .file directive is found, line "
			"information in generated binary may not be complete (declare the file: .file 1 \"name.cu\")");
}
