/* The checker's entry: one CheckCtx for the module, the header rules
 * (check_module.c), then every item (check_body.c). check_internal.h gives
 * the reading order of the other files. */
#include "check/check_internal.h"

#include <string.h>

void check_module(Module *m, DiagSink *sink, const CheckOptions *opt)
{
	CheckCtx c;
	memset(&c, 0, sizeof c);
	c.m = m;
	c.sink = sink;
	c.rules = opt ? opt->rules : RULES_STRICT;
	c.assembling = opt && opt->assembling;
	c.address_bits = 64;
	arena_init(&c.arena);
	arena_init(&c.item_arena);
	c.module_scope = scope_new(&c.arena, NULL);
	c.scope = c.module_scope;
	check_header(&c);
	check_module_items(&c);
	arena_free(&c.arena);
	arena_free(&c.item_arena);
}
