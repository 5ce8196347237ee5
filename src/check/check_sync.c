/* vote and shfl without .sync: PTX ISA 6.4 removed these warp-implicit
 * forms for sm_70 and later (independent thread scheduling leaves no
 * implicit warp), and ptxas 13 rejects them when both the .version and
 * the .target are that new; older files only get its warning. */
#include "check/check_internal.h"

#include <string.h>

static const char *const sync_required[] = { "vote", "shfl" };

enum { REMOVED_IN = PTX_VERSION_OF(6, 4), REMOVED_FROM_SM = 70 };

void check_sync_required(CheckCtx *c, const Instr *in)
{
	if (!c->has_version || c->version < REMOVED_IN || !c->target || c->target->sm < REMOVED_FROM_SM)
		return;
	bool listed = false;
	for (size_t i = 0; i < sizeof sync_required / sizeof sync_required[0]; i++)
		listed |= strcmp(in->opcode, sync_required[i]) == 0;
	if (!listed)
		return;
	for (uint32_t i = 0; i < in->nmods; i++)
		if (strcmp(in->mods[i], ".sync") == 0)
			return;
	Diag *d = check_error(c, in->opcode_loc, RULE_SYNC_REQUIRED, "Instruction '%s' without '.sync' is not supported on "
		".target sm_%d and higher from PTX ISA version 6.4 (use %s.sync with a member mask)", in->opcode,
		REMOVED_FROM_SM, in->opcode);
	check_note_target(c, d);
}
