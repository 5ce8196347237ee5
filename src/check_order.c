/* Memory orders and scopes of ld and mbarrier, as ptxas 13 pairs them (the
 * PTX ISA grammar says the same: ld.sem.scope, mbarrier.op.sem.scope). An
 * order that synchronises needs a scope and a scope needs an order; .weak
 * and .volatile take none; each operation takes only its own orders; a
 * load with an order takes no cache operator and no state space an order
 * cannot apply to; .mmio is .relaxed.sys only. st has the same rules with
 * its other modifiers in check_st.c. */
#include "check_internal.h"
#include "opcodes.h"

#include <stdio.h>
#include <string.h>

/* One instruction, or one mbarrier operation (its first modifier). */
typedef struct OrderRow {
	const char *opcode;
	const char *operation;  /* "" : any */
	const char *orders;     /* the memory orders it takes */
	const char *scopes;     /* the scopes it takes (with an order); "": none */
	const char *noun;       /* what ptxas calls an order: "... requires memory order with 'ld'" */
	bool load;              /* ld: cache operators, state spaces, .mmio */
} OrderRow;

static const OrderRow order_rows[] = {
	{ "ld", "", ".weak .volatile .relaxed .acquire", ".cta .cluster .gpu .sys", "memory order", true },
	{ "mbarrier", ".arrive", ".release .relaxed", ".cta .cluster", "order", false },
	{ "mbarrier", ".arrive_drop", ".release .relaxed", ".cta .cluster", "order", false },
	{ "mbarrier", ".expect_tx", ".relaxed", ".cta .cluster", "order", false },
	{ "mbarrier", ".complete_tx", ".relaxed", ".cta .cluster", "order", false },
	{ "mbarrier", ".test_wait", ".acquire .relaxed", ".cta .cluster", "order", false },
	{ "mbarrier", ".try_wait", ".acquire .relaxed", ".cta .cluster", "order", false },
	{ "mbarrier", ".init", "", "", "order", false },
	{ "mbarrier", ".inval", "", "", "order", false },
	{ "mbarrier", ".pending_count", "", "", "order", false },
};

/* Every word PTX uses as a memory order; the first two take no scope. */
static const char *const all_orders[] = { ".weak", ".volatile", ".relaxed", ".acquire", ".release", ".acq_rel", ".sc" };
static const char *const all_scopes[] = { ".cta", ".cluster", ".gpu", ".sys" };
static const char *const cache_operators[] = { ".ca", ".cg", ".cs", ".lu", ".cv", ".nc" };
/* The state spaces of ld; ordered loads reach the first four only
 * (ptxas: "cannot be applied to" the others). */
static const char *const ld_spaces[] = { ".global", ".shared", ".shared::cta", ".shared::cluster",
                                          ".local", ".param", ".param::entry", ".param::func", ".const" };
enum { ORDERED_SPACES = 4 };

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int find_word(const char *const *set, size_t n, const char *w)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(set[i], w) == 0)
			return (int)i;
	return -1;
}

static bool word_in_list(const char *list, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = list; (p = strstr(p, w)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

static const OrderRow *row_of(const Instr *in)
{
	/* Every instruction comes here: two bytes rule out nearly all of them
	 * before a strcmp. */
	const char *op = in->opcode;
	for (size_t i = 0; i < COUNT(order_rows); i++) {
		const OrderRow *r = &order_rows[i];
		if (op[0] != r->opcode[0] || op[1] != r->opcode[1] || strcmp(op, r->opcode) != 0)
			continue;
		if (!*r->operation || (in->nmods && strcmp(in->mods[0], r->operation) == 0))
			return r;
	}
	return NULL;
}

/* The modifiers that matter here, with where they stand. */
typedef struct Found {
	int order, scope, cop, space, mmio;     /* modifier index, -1: none */
} Found;

static Found find_modifiers(const Instr *in)
{
	Found f = { -1, -1, -1, -1, -1 };
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		if (f.order < 0 && find_word(all_orders, COUNT(all_orders), w) >= 0)
			f.order = (int)i;
		else if (f.scope < 0 && find_word(all_scopes, COUNT(all_scopes), w) >= 0)
			f.scope = (int)i;
		else if (f.cop < 0 && find_word(cache_operators, COUNT(cache_operators), w) >= 0)
			f.cop = (int)i;
		else if (f.space < 0 && find_word(ld_spaces, COUNT(ld_spaces), w) >= 0)
			f.space = (int)i;
		else if (strcmp(w, ".mmio") == 0)
			f.mmio = (int)i;
	}
	return f;
}

static SrcLoc mod_loc(const Instr *in, int i)
{
	return in->mod_locs ? in->mod_locs[i] : in->opcode_loc;
}

/* The load-only rules; .nc (the non-coherent texture path) is a cache
 * operator here, but one that even .weak excludes and that needs .global. */
static void check_load(CheckCtx *c, const Instr *in, const Found *f, const char *name)
{
	const char *order = f->order >= 0 ? in->mods[f->order] : NULL;
	const char *cop = f->cop >= 0 ? in->mods[f->cop] : NULL;
	const char *space = f->space >= 0 ? in->mods[f->space] : NULL;
	bool ordered = order && strcmp(order, ".weak") != 0;
	bool nc = cop && strcmp(cop, ".nc") == 0;
	if (cop && (ordered || (order && nc)))
		check_error(c, mod_loc(in, f->cop), "memory-order", "Modifier '%s' cannot be combined with modifier '%s'",
			order, cop);
	if (nc && (!space || strcmp(space, ".global") != 0))
		check_error(c, mod_loc(in, f->cop), "memory-order", "Modifier '.nc' requires .global space");
	bool unordered_space = space && find_word(ld_spaces, ORDERED_SPACES, space) < 0;
	if (ordered && unordered_space)
		check_error(c, mod_loc(in, f->space), "memory-order", "Modifier '%s' cannot be applied to '%s' space", order,
			space);
	if (f->mmio < 0)
		return;
	SrcLoc at = mod_loc(in, f->mmio);
	if (!order || strcmp(order, ".relaxed") != 0)
		check_error(c, at, "memory-order", "Modifier '.mmio' requires modifier '.relaxed' for instruction '%s'",
			name);
	if (f->scope < 0)
		check_error(c, at, "memory-order", "Modifier '.mmio' requires scope with '%s' instruction (.sys)", name);
	else if (strcmp(in->mods[f->scope], ".sys") != 0)
		check_error(c, mod_loc(in, f->scope), "memory-order", "Modifier '.mmio' cannot be combined with modifier "
			"'%s' (only .sys)", in->mods[f->scope]);
	if (space && strcmp(space, ".global") != 0)
		check_error(c, at, "memory-order", "Modifier '.mmio' cannot be applied to '%s' space", space);
}

void check_memory_order(CheckCtx *c, const Instr *in)
{
	const OrderRow *r = row_of(in);
	if (!r)
		return;
	Found f = find_modifiers(in);
	if (f.order < 0 && f.scope < 0 && f.mmio < 0 && !(r->load && f.cop >= 0))
		return;
	/* ptxas names an mbarrier operation by its first two words */
	char name[64];
	check_concat(name, sizeof name, in->opcode, *r->operation ? r->operation : "");
	const char *order = f.order >= 0 ? in->mods[f.order] : NULL;
	const char *scope = f.scope >= 0 ? in->mods[f.scope] : NULL;
	bool scopeless = order && find_word(all_orders, 2, order) >= 0;
	if (order && !word_in_list(r->orders, order))
		check_error(c, mod_loc(in, f.order), "memory-order", "Illegal modifier '%s' for instruction '%s'%s%s%s",
			order, name, *r->orders ? " (it takes " : " (it takes no memory order)", r->orders,
			*r->orders ? ")" : "");
	if (scope && !*r->scopes) {
		check_error(c, mod_loc(in, f.scope), "memory-order", "Illegal modifier '%s' for instruction '%s' (it takes "
			"no scope)", scope, name);
	} else if (*r->scopes) {
		if (order && !scopeless && !scope)
			check_error(c, mod_loc(in, f.order), "memory-order", "Modifier '%s' requires scope with '%s' "
				"instruction (%s)", order, name, r->scopes);
		if (order && scopeless && scope)
			check_error(c, mod_loc(in, f.scope), "memory-order", "Modifier '%s' cannot be combined with "
				"modifier '%s'", order, scope);
		if (scope && !order && f.mmio < 0)
			check_error(c, mod_loc(in, f.scope), "memory-order", "Modifier '%s' requires %s with '%s' "
				"instruction (%s)", scope, r->noun, name, r->orders);
	}
	if (r->load)
		check_load(c, in, &f, name);
}
