/* Which function directives an .entry, a .func and a .callprototype take.
 * ptxas 13 parses the launch-bound and cluster directives only after an
 * .entry header and the calling-convention ones only after a .func header
 * or a call prototype: anywhere else each is a syntax error to it. A
 * function that returns values cannot be .noreturn. */
#include "check_internal.h"

#include <string.h>

static const struct {
	const char *name;
	bool on_entry;      /* else on .func and .callprototype */
	bool no_rets;       /* not with return parameters */
} func_dirs[] = {
	{ ".maxntid", true, false }, { ".reqntid", true, false }, { ".minnctapersm", true, false },
	{ ".maxnctapersm", true, false }, { ".maxnreg", true, false }, { ".reqnctapercluster", true, false },
	{ ".explicitcluster", true, false }, { ".maxclusterrank", true, false }, { ".blocksareclusters", true, false },
	{ ".noreturn", false, true }, { ".abi_preserve", false, false }, { ".abi_preserve_control", false, false },
};

static void check_dirs(CheckCtx *c, const char *kind, const char *name, bool is_entry, uint32_t nrets,
	uint32_t ndirs, const Directive *dirs)
{
	for (uint32_t i = 0; i < ndirs; i++) {
		const Directive *d = &dirs[i];
		for (size_t k = 0; k < sizeof func_dirs / sizeof func_dirs[0]; k++) {
			if (strcmp(func_dirs[k].name, d->name) != 0)
				continue;
			if (func_dirs[k].on_entry != is_entry)
				check_error(c, d->loc, "func-directive", "Directive '%s' applies only to %s, not to %s '%s'",
					d->name, func_dirs[k].on_entry ? ".entry functions" : ".func functions and call prototypes",
					kind, name);
			else if (func_dirs[k].no_rets && nrets)
				check_error(c, d->loc, "func-directive", "Invalid directive '%s' for %s '%s' (it has return "
					"parameters)", d->name, kind, name);
			break;
		}
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
