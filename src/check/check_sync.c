/* vote and shfl without .sync: PTX ISA 6.4 removed these warp-implicit
 * forms for sm_70 and later (independent thread scheduling leaves no
 * implicit warp), and ptxas 13 rejects them when both the .version and
 * the .target are that new; older files only get its warning (rule
 * sync-deprecated). Also bar/barrier without their operation, and .loc
 * without .file (ptxas 13 warns: line information may be incomplete), and
 * in strict mode integer literals ptxas truncates to 64 bits silently. */
#include "check/check_internal.h"

#include <string.h>

static const char *const sync_required[] = { "vote", "shfl" };

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

void check_sync_required(CheckCtx *c, const Instr *in)
{
	if (in->opcode[0] == 'b' && (opcode_is(in, "bar") || opcode_is(in, "barrier"))) {
		check_barrier_modifier(c, in);
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
