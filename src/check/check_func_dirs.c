/* Which function directives an .entry, a .func and a .callprototype take.
 * ptxas 13 parses the launch-bound and cluster directives only after an
 * .entry header and the calling-convention ones only after a .func header
 * or a call prototype: anywhere else each is a syntax error to it. A
 * function that returns values cannot be .noreturn; .maxnctapersm is gone
 * since PTX ISA 2.1; the cluster directives constrain each other. */
#include "check/check_internal.h"

#include <string.h>

static const struct {
	const char *name;
	bool on_entry;      /* else on .func and .callprototype */
	bool no_rets;       /* not with return parameters */
	PtxVersion removed_in;  /* ptxas 13 rejects it from this .version on; 0 = never */
} func_dirs[] = {
	{ ".maxntid", true, false, 0 }, { ".reqntid", true, false, 0 }, { ".minnctapersm", true, false, 0 },
	{ ".maxnctapersm", true, false, PTX_VERSION_OF(2, 1) }, { ".maxnreg", true, false, 0 },
	{ ".reqnctapercluster", true, false, 0 }, { ".explicitcluster", true, false, 0 },
	{ ".maxclusterrank", true, false, 0 }, { ".blocksareclusters", true, false, 0 },
	{ ".noreturn", false, true, 0 }, { ".abi_preserve", false, false, 0 }, { ".abi_preserve_control", false, false, 0 },
};

static const Directive *find_dir(uint32_t ndirs, const Directive *dirs, const char *name)
{
	for (uint32_t i = 0; i < ndirs; i++)
		if (strcmp(dirs[i].name, name) == 0)
			return &dirs[i];
	return NULL;
}

/* The launch bounds of one kernel (ptxas 13): each value positive
 * ("Positive non-zero value expected for maxntid"), and .maxntid and
 * .reqntid not both. */
static void check_bound_dirs(CheckCtx *c, uint32_t ndirs, const Directive *dirs)
{
	static const char *const bounds[] = { ".maxntid", ".reqntid", ".minnctapersm", ".maxnreg" };
	for (uint32_t i = 0; i < ndirs; i++)
		for (size_t k = 0; k < sizeof bounds / sizeof bounds[0]; k++) {
			if (strcmp(dirs[i].name, bounds[k]) != 0)
				continue;
			for (uint32_t a = 0; a < dirs[i].nargs; a++) {
				int64_t v;
				if (expr_const_int(dirs[i].args[a], &v) && v <= 0) {
					check_error(c, dirs[i].args[a]->loc, RULE_FUNC_DIRECTIVE, "Positive non-zero value expected "
						"for %s (%lld)", bounds[k] + 1, (long long)v);
					break;
				}
			}
		}
	const Directive *req = find_dir(ndirs, dirs, ".reqntid"), *max = find_dir(ndirs, dirs, ".maxntid");
	if (req && max)
		check_error(c, req > max ? req->loc : max->loc, RULE_FUNC_DIRECTIVE, "Conflicting directives: .maxntid and .reqntid cannot both "
			"be specified (.reqntid fixes the block size, which bounds it)");
}

/* The cluster directives of one kernel (ptxas 13). */
static void check_cluster_dirs(CheckCtx *c, uint32_t ndirs, const Directive *dirs)
{
	const Directive *bac = find_dir(ndirs, dirs, ".blocksareclusters");
	const Directive *req = find_dir(ndirs, dirs, ".reqnctapercluster");
	const Directive *rank = find_dir(ndirs, dirs, ".maxclusterrank");
	if (bac && (!req || !find_dir(ndirs, dirs, ".reqntid")))
		check_error(c, bac->loc, RULE_FUNC_DIRECTIVE, ".reqntid and .reqnctapercluster directive(s) required for "
			"directive '.blocksareclusters'");
	if (req && rank)
		check_error(c, rank->loc, RULE_FUNC_DIRECTIVE, "Conflicting directives: .reqnctapercluster and "
			".maxclusterrank cannot both be specified");
}

static void check_dirs(CheckCtx *c, const char *kind, const char *name, bool is_entry, uint32_t nrets,
	uint32_t ndirs, const Directive *dirs)
{
	for (uint32_t i = 0; i < ndirs; i++) {
		const Directive *d = &dirs[i];
		for (size_t k = 0; k < sizeof func_dirs / sizeof func_dirs[0]; k++) {
			if (strcmp(func_dirs[k].name, d->name) != 0)
				continue;
			if (func_dirs[k].on_entry != is_entry)
				check_error(c, d->loc, RULE_FUNC_DIRECTIVE, "Directive '%s' applies only to %s, not to %s '%s'",
					d->name, func_dirs[k].on_entry ? ".entry functions" : ".func functions and call prototypes",
					kind, name);
			else if (func_dirs[k].no_rets && nrets)
				check_error(c, d->loc, RULE_FUNC_DIRECTIVE, "Invalid directive '%s' for %s '%s' (it has return "
					"parameters)", d->name, kind, name);
			else if (func_dirs[k].removed_in && c->has_version && c->version >= func_dirs[k].removed_in)
				check_error(c, d->loc, RULE_FUNC_DIRECTIVE, "Deprecated feature: '%s directive' not supported as of "
					"PTX version %d.%d", d->name, PTX_VERSION_MAJOR(func_dirs[k].removed_in),
					PTX_VERSION_MINOR(func_dirs[k].removed_in));
			break;
		}
	}
	if (is_entry) {
		check_bound_dirs(c, ndirs, dirs);
		check_cluster_dirs(c, ndirs, dirs);
	}
}

void check_func_dirs(CheckCtx *c, const Func *f)
{
	check_dirs(c, f->is_entry ? ".entry" : ".func", f->name, f->is_entry, f->nrets, f->ndirs, f->dirs);
}

void check_proto_dirs(CheckCtx *c, const CallProto *p)
{
	check_dirs(c, ".callprototype", p->name, false, p->nrets, p->ndirs, p->dirs);
}
