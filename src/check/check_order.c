/* Memory orders and scopes of ld, mbarrier and fence, as ptxas 13 pairs them (the
 * PTX ISA grammar says the same: ld.sem.scope, mbarrier.op.sem.scope). An
 * order that synchronises needs a scope and a scope needs an order; .weak
 * and .volatile take none; each operation takes only its own orders; a
 * load with an order takes no cache operator and no state space an order
 * cannot apply to; .mmio is .relaxed.sys only. st has the same rules with
 * its other modifiers in check_st.c. */
#include "check/check_internal.h"
#include "isa/opcodes.h"

#include <stdio.h>
#include <string.h>

/* One instruction, or one mbarrier operation (its first modifier). Which
 * words are orders, scopes, state spaces and cache operators at all is in
 * modifier_classes.def; these rows say what each operation accepts. */
typedef struct OrderRow {
	const char *opcode;
	const char *operation;  /* "" : any */
	const char *orders;     /* the memory orders it takes */
	bool scoped;            /* it takes a scope (with an order) */
	const char *noun;       /* what ptxas calls an order: "... requires memory order with 'ld'" */
	bool load;              /* ld: cache operators, state spaces, .mmio */
} OrderRow;

static const OrderRow order_rows[] = {
	{ "ld", "", ".weak .volatile .relaxed .acquire", true, "memory order", true },
	{ "mbarrier", ".arrive", ".release .relaxed", true, "order", false },
	{ "mbarrier", ".arrive_drop", ".release .relaxed", true, "order", false },
	{ "mbarrier", ".expect_tx", ".relaxed", true, "order", false },
	{ "mbarrier", ".complete_tx", ".relaxed", true, "order", false },
	{ "mbarrier", ".test_wait", ".acquire .relaxed", true, "order", false },
	{ "mbarrier", ".try_wait", ".acquire .relaxed", true, "order", false },
	{ "mbarrier", ".init", "", false, "order", false },
	{ "mbarrier", ".inval", "", false, "order", false },
	{ "mbarrier", ".pending_count", "", false, "order", false },
};

/* Orders that take no scope. */
static const char scopeless_orders[] = ".weak .volatile";
/* State spaces no ordered load reaches (ptxas: "cannot be applied to"). */
static const char unordered_spaces[] = ".local .param .param::entry .param::func .const";

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

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

static int find_mod(const Instr *in, const char *w)
{
	for (uint32_t i = 0; i < in->nmods; i++)
		if (strcmp(in->mods[i], w) == 0)
			return (int)i;
	return -1;
}

/* .nc (the non-coherent texture path) counts as a cache operator here. */
static Found find_modifiers(const Instr *in)
{
	Found f = { modifier_of_class(in, "memory order"), modifier_of_class(in, "scope"),
	            modifier_of_class(in, "cache operation"), modifier_of_class(in, "state space"),
	            find_mod(in, ".mmio") };
	if (f.cop < 0)
		f.cop = find_mod(in, ".nc");
	return f;
}

/* The load-only rules; .nc is a cache operator that even .weak excludes
 * and that needs .global. */
static void check_load(CheckCtx *c, const Instr *in, const Found *f, const char *name)
{
	const char *order = f->order >= 0 ? in->mods[f->order] : NULL;
	const char *cop = f->cop >= 0 ? in->mods[f->cop] : NULL;
	const char *space = f->space >= 0 ? in->mods[f->space] : NULL;
	bool ordered = order && strcmp(order, ".weak") != 0;
	bool nc = cop && strcmp(cop, ".nc") == 0;
	if (cop && (ordered || (order && nc)))
		check_error(c, check_mod_loc(in, f->cop), RULE_MEMORY_ORDER, "Modifier '%s' cannot be combined with modifier '%s'",
			order, cop);
	if (nc && (!space || strcmp(space, ".global") != 0))
		check_error(c, check_mod_loc(in, f->cop), RULE_MEMORY_ORDER, "Modifier '.nc' requires .global space");
	bool unordered_space = space && word_in_list(unordered_spaces, space);
	if (ordered && unordered_space)
		check_error(c, check_mod_loc(in, f->space), RULE_MEMORY_ORDER, "Modifier '%s' cannot be applied to '%s' space", order,
			space);
	if (f->mmio < 0)
		return;
	SrcLoc at = check_mod_loc(in, f->mmio);
	if (!order || strcmp(order, ".relaxed") != 0)
		check_error(c, at, RULE_MEMORY_ORDER, "Modifier '.mmio' requires modifier '.relaxed' for instruction '%s'",
			name);
	if (f->scope < 0)
		check_error(c, at, RULE_MEMORY_ORDER, "Modifier '.mmio' requires scope with '%s' instruction (.sys)", name);
	else if (strcmp(in->mods[f->scope], ".sys") != 0)
		check_error(c, check_mod_loc(in, f->scope), RULE_MEMORY_ORDER, "Modifier '.mmio' cannot be combined with modifier "
			"'%s' (only .sys)", in->mods[f->scope]);
	if (space && strcmp(space, ".global") != 0)
		check_error(c, at, RULE_MEMORY_ORDER, "Modifier '.mmio' cannot be applied to '%s' space", space);
}

/* fence: .sc, .acq_rel (the default), .acquire or .release, and always a
 * scope ("Scope modifier required for instruction 'fence'"), except the
 * bidirectional proxy fences fence.proxy.alias/.async, which take none
 * ("Illegal modifier '.gpu' for instruction 'fence.proxy'"). */
static void check_fence(CheckCtx *c, const Instr *in)
{
	static const char fence_orders[] = ".sc .acq_rel .acquire .release";
	Found f = find_modifiers(in);
	bool proxy = find_mod(in, ".proxy") >= 0;
	const char *name = proxy ? "fence.proxy" : "fence";
	if (f.order >= 0 && !word_in_list(fence_orders, in->mods[f.order]))
		check_error(c, check_mod_loc(in, f.order), RULE_MEMORY_ORDER, "Illegal modifier '%s' for instruction '%s' (it "
			"takes %s)", in->mods[f.order], name, fence_orders);
	if (proxy && f.order < 0) {
		if (f.scope >= 0)
			check_error(c, check_mod_loc(in, f.scope), RULE_MEMORY_ORDER, "Illegal modifier '%s' for instruction "
				"'fence.proxy' (a proxy fence without a memory order takes no scope)", in->mods[f.scope]);
	} else if (f.scope < 0) {
		check_error(c, in->opcode_loc, RULE_MEMORY_ORDER, "Scope modifier required for instruction '%s' (add one "
			"of .cta, .cluster, .gpu, .sys after the memory order)", name);
	}
}

void check_memory_order(CheckCtx *c, const Instr *in)
{
	if (opcode_is(in, "fence")) {
		check_fence(c, in);
		return;
	}
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
	bool scopeless = order && word_in_list(scopeless_orders, order);
	if (order && !word_in_list(r->orders, order))
		check_error(c, check_mod_loc(in, f.order), RULE_MEMORY_ORDER, "Illegal modifier '%s' for instruction '%s'%s%s%s",
			order, name, *r->orders ? " (it takes " : " (it takes no memory order)", r->orders,
			*r->orders ? ")" : "");
	if (scope && !r->scoped) {
		check_error(c, check_mod_loc(in, f.scope), RULE_MEMORY_ORDER, "Illegal modifier '%s' for instruction '%s' (it takes "
			"no scope)", scope, name);
	} else if (r->scoped) {
		const char *scopes = modifier_class_words(in, "scope");
		if (order && !scopeless && !scope)
			check_error(c, check_mod_loc(in, f.order), RULE_MEMORY_ORDER, "Modifier '%s' requires scope with '%s' "
				"instruction (%s)", order, name, scopes ? scopes : "");
		if (order && scopeless && scope)
			check_error(c, check_mod_loc(in, f.scope), RULE_MEMORY_ORDER, "Modifier '%s' cannot be combined with "
				"modifier '%s'", order, scope);
		if (scope && !order && f.mmio < 0)
			check_error(c, check_mod_loc(in, f.scope), RULE_MEMORY_ORDER, "Modifier '%s' requires %s with '%s' "
				"instruction (%s)", scope, r->noun, name, r->orders);
	}
	if (r->load)
		check_load(c, in, &f, name);
}
