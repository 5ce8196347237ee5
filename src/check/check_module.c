/* Module header rules: .version, .target, .address_size. */
#include "check/check_internal.h"

#include <stdio.h>
#include <string.h>

static bool has_mod(const Instr *in, const char *word)
{
	for (uint32_t i = 0; i < in->nmods; i++)
		if (strcmp(in->mods[i], word) == 0)
			return true;
	return false;
}

/* ptxas 11.8 compiles these into calls of subroutines of its own (its
 * PTX of them has a header of its own), and a module with one is no
 * longer judged by its .version against its .target: a .version 2.1 file
 * retargeted to .target sm_50 compiles then, and not without one (old
 * nvopencc output, much of the public PTX there is, so retargeted).
 * Measured with ptxas 11.8 -arch=sm_50 on .version 2.1 .target sm_50: div
 * and rem of .s16/.u16/.s64/.u64; div, sqrt, rcp with .rn/.rz/.rm/.rp of
 * .f32 or .f64; rsqrt.approx.f64. Not: div/rem .s32/.u32, div.full or
 * div.approx, sqrt.approx, rcp.approx (.f32, .ftz.f64), ex2, cvt. ptxas 13
 * refuses all of them. */
bool check_builtin_routine(const Instr *in)
{
	bool div = opcode_is(in, "div");
	if (div || opcode_is(in, "rem"))
		if (has_mod(in, ".s16") || has_mod(in, ".u16") || has_mod(in, ".s64") || has_mod(in, ".u64"))
			return true;
	if (div || opcode_is(in, "sqrt") || opcode_is(in, "rcp"))
		return (has_mod(in, ".f32") || has_mod(in, ".f64")) &&
		       (has_mod(in, ".rn") || has_mod(in, ".rz") || has_mod(in, ".rm") || has_mod(in, ".rp"));
	return opcode_is(in, "rsqrt") && has_mod(in, ".approx") && has_mod(in, ".f64");
}

/* Whether a body, nested blocks included, has such an instruction. */
static bool body_has_builtin_routine(const Stmt *s)
{
	for (; s; s = s->next)
		if ((s->kind == ST_INSTR && check_builtin_routine(&s->u.instr)) ||
		    (s->kind == ST_BLOCK && body_has_builtin_routine(s->u.block)))
			return true;
	return false;
}

bool check_module_has_builtin_routine(const Module *m)
{
	for (const Item *it = m->items; it; it = it->next)
		if (it->kind == IT_FUNC && it->u.func.has_body && body_has_builtin_routine(it->u.func.body))
			return true;
	return false;
}

static void check_version(CheckCtx *c, const Item *it)
{
	PtxVersion v = PTX_VERSION_OF(it->u.version.major, it->u.version.minor);
	const char *text = it->u.version.text;
	char buf[8];
	if (it->u.version.minor < 0 || it->u.version.minor > 9 || !ptx_version_is_legal(v)) {
		check_error(c, it->loc, RULE_VERSION_UNSUPPORTED, "Unsupported .version %s; current version is '%s'",
			text, ptx_version_str(ptx_version_newest(), buf, sizeof buf));
		return;
	}
	c->has_version = true;
	c->version = v;
	c->version_text = text;
	c->version_loc = it->loc;
}

static bool has_debug_sections(const CheckCtx *c)
{
	for (const Item *it = c->m->items; it; it = it->next)
		if (it->kind == IT_SECTION && it->u.section.name && strncmp(it->u.section.name, ".debug", 6) == 0)
			return true;
	return false;
}

static void check_target_option(CheckCtx *c, TargetOption opt, SrcLoc loc, const char *name)
{
	switch (opt) {
	case TOPT_TEXMODE_UNIFIED:
	case TOPT_TEXMODE_INDEPENDENT:
		if (c->texmode && c->texmode != opt)
			check_error(c, loc, RULE_TARGET_OPTION, "texmode_unified and texmode_independent are mutually exclusive");
		c->texmode = opt;
		check_gate(c, opt == TOPT_TEXMODE_UNIFIED ? REQ_TEXMODE_UNIFIED : REQ_TEXMODE_INDEPENDENT, loc, NULL);
		break;
	case TOPT_DEBUG:
		if (check_gate(c, REQ_TARGET_DEBUG, loc, NULL) && !has_debug_sections(c))
			check_error(c, loc, RULE_TARGET_OPTION, "Debug information not found in presence of .target debug "
				"(no .section .debug_* in the module)");
		break;
	case TOPT_MAP_F64_TO_F32: {
		/* Only meaningful for targets without double precision. */
		const TargetInfo *first_f64 = ptx_target_lookup("sm_13");
		if (c->target && c->target->sm >= first_f64->sm) {
			Diag *d = check_error(c, loc, RULE_TARGET_OPTION, "Directive %s is not supported with .target %s or "
				"higher (the file declares .target %s)", name, first_f64->name, c->target_name);
			check_note_target(c, d);
		}
		break;
	}
	case TOPT_NONE:
		break;
	}
}

static void check_target(CheckCtx *c, const Item *it)
{
	const char *arch = NULL;
	for (uint32_t i = 0; i < it->u.target.n; i++) {
		const char *name = it->u.target.names[i];
		SrcLoc loc = it->u.target.locs ? it->u.target.locs[i] : it->loc;
		if (ptx_target_option(name) != TOPT_NONE) {
			if (i == 0)
				check_error(c, loc, RULE_TARGET_UNKNOWN, "Target architecture not defined at start of file (the "
					".target list must start with the architecture, not '%s')", name);
			continue;
		}
		const TargetInfo *t = ptx_target_lookup(name);
		if (!t) {
			if (ptx_target_name_is_arch_shaped(name))
				check_error(c, loc, RULE_TARGET_UNKNOWN, "Unsupported .target '%s'", name);
			else
				check_error(c, loc, RULE_TARGET_UNKNOWN,
					"Target architecture not defined at start of file ('%s' is no sm_NN or compute_NN name)",
					name);
			continue;
		}
		if (arch) {
			check_error(c, loc, RULE_TARGET_UNKNOWN, "Multiple architectures in .target ('%s' and '%s')", arch, name);
			continue;
		}
		arch = name;
		c->target = t;
		c->target_name = name;
		c->target_loc = loc;
	}
	/* Options are judged against the architecture, wherever it stands. */
	for (uint32_t i = 0; i < it->u.target.n; i++) {
		TargetOption opt = ptx_target_option(it->u.target.names[i]);
		if (opt != TOPT_NONE)
			check_target_option(c, opt, it->u.target.locs ? it->u.target.locs[i] : it->loc, it->u.target.names[i]);
	}
}

static void check_address_size(CheckCtx *c, const Item *it)
{
	check_gate(c, REQ_ADDRESS_SIZE, it->loc, NULL);
	int64_t bits = it->u.address_size.bits;
	if (bits != 32 && bits != 64) {
		check_error(c, it->loc, RULE_ADDRESS_SIZE, "Illegal value for .address_size directive (must be 32 or 64)");
		return;
	}
	c->address_bits = (int)bits;
	if (bits == 32) {
		/* ptxas 13 parses the module and then refuses to compile it. */
		Diag *d = check_addr32(c, it->loc, RULE_ADDRESS_SIZE,
			"32-Bit compilation is no longer supported (ptxas 13 rejects .address_size 32)");
		check_note_target(c, d);
	}
}

void check_header(CheckCtx *c)
{
	const Item *version = NULL, *target = NULL, *asize = NULL;
	bool body = c->past_header;
	for (const Item *it = c->m->items; it; it = it->next) {
		body |= it->kind != IT_VERSION && it->kind != IT_TARGET && it->kind != IT_ADDRESS_SIZE;
		switch (it->kind) {
		case IT_VERSION:
			if (version)
				check_error(c, it->loc, RULE_MODULE_HEADER, "Duplicate .version directive");
			else
				version = it;
			break;
		case IT_TARGET:
			if (target)
				check_error(c, it->loc, RULE_MODULE_HEADER, "Duplicate .target directive");
			else
				target = it;
			break;
		case IT_ADDRESS_SIZE:
			if (asize)
				check_error(c, it->loc, RULE_MODULE_HEADER, "Duplicate .address_size directive");
			else
				asize = it;
			break;
		default:
			break;
		}
	}
	SrcLoc nowhere = { 0, 0, 0, 0 };
	if (!version)
		check_error(c, nowhere, RULE_MODULE_HEADER, "Missing .version directive at start of file");
	else
		check_version(c, version);
	if (!target)
		check_error(c, nowhere, RULE_MODULE_HEADER, "Target architecture not defined at start of file");
	else
		check_target(c, target);
	/* An assembler follows ptxas 11.8 (check_builtin_routine). ptxas 13
	 * pairs .version and .target when it reads what follows the header:
	 * a module of the header alone (llc's for a module without code)
	 * passes. */
	bool skipped = (c->assembling && c->builtin_routine) || !body;
	if (c->has_version && c->target && c->version < c->target->min_version && !skipped) {
		char need[8];
		Diag *d = check_error(c, c->target_loc, RULE_TARGET_VERSION,
			"PTX .version %s does not support .target %s (needs .version %s or later)", c->version_text,
			c->target_name, ptx_version_str(c->target->min_version, need, sizeof need));
		check_note_version(c, d);
	}
	if (asize)
		check_address_size(c, asize);
}
