/* The checker one top-level item at a time (see check.h), so --check needs
 * memory for the largest function, not for the whole module.
 *
 * check_module emits in three runs: header rules over the whole module, the
 * ISA gates of every module-scope item, then the items in order. Each run
 * gets a sink of its own here and the three are appended in that order at
 * the end, so the diagnostics, their order and the --max-errors cut are the
 * same. The header must be known before the first other item is judged: a
 * header directive after one makes check_stream_item ask for the
 * whole-module path. */
#include "check/check_internal.h"
#include "check/check_isa.h"
#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

struct CheckStream {
	CheckCtx c;
	DiagSink *sink;         /* read when the stream begins, appended to at its end */
	unsigned parse_errors;  /* check_stream_parse_errors */
	Arena kept;             /* keep_item's copies, the module's at the end */
	DiagSink header, gates, items;
	bool started;           /* an item other than a header directive came */
	BodyStream *body;       /* for functions whose statements come one by one */
};

CheckStream *check_stream_begin(Module *m, DiagSink *sink, const CheckOptions *opt)
{
	CheckStream *s = xcalloc(1, sizeof *s);
	CheckCtx *c = &s->c;
	c->m = m;
	c->rules = opt ? opt->rules : RULES_STRICT;
	c->assembling = opt && opt->assembling;
	c->address_bits = 64;
	arena_init(&c->arena);
	arena_init(&c->item_arena);
	arena_init(&s->kept);
	c->module_scope = scope_new(&c->arena, NULL);
	c->scope = c->module_scope;
	s->sink = sink;
	diag_init_like(&s->header, sink);
	diag_init_like(&s->gates, sink);
	diag_init_like(&s->items, sink);
	return s;
}

static bool is_header(const Item *it)
{
	return it->kind == IT_VERSION || it->kind == IT_TARGET || it->kind == IT_ADDRESS_SIZE;
}

/* What check_header reads of an item outlives the item: header directives
 * whole, sections by name (.target debug asks for a .debug_* section).
 * The copies go to an arena of the stream's own, not the module's, where
 * the parser, which may run on another thread, interns names. */
static void keep_item(CheckStream *s, const Item *it)
{
	Module *m = s->c.m;
	Arena *a = &s->kept;
	Item *k = ARENA_NEW(a, Item);
	*k = *it;
	k->next = NULL;
	if (it->kind == IT_VERSION) {
		k->u.version.text = arena_strdup(a, it->u.version.text);
	} else if (it->kind == IT_TARGET) {
		uint32_t n = it->u.target.n;
		k->u.target.names = arena_alloc(a, n * sizeof *k->u.target.names);
		for (uint32_t i = 0; i < n; i++)
			k->u.target.names[i] = arena_strdup(a, it->u.target.names[i]);
		if (it->u.target.locs) {
			k->u.target.locs = arena_alloc(a, n * sizeof *k->u.target.locs);
			memcpy(k->u.target.locs, it->u.target.locs, n * sizeof *k->u.target.locs);
		}
	} else if (it->kind == IT_SECTION) {
		k->u.section.name = it->u.section.name ? arena_strdup(a, it->u.section.name) : NULL;
		k->u.section.items = NULL;
	}
	if (m->items_tail)
		m->items_tail->next = k;
	else
		m->items = k;
	m->items_tail = k;
}

/* Header state (version, target, address size) as check_header leaves it,
 * starting from scratch. */
static void run_header(CheckCtx *c, DiagSink *into)
{
	c->has_version = false;
	c->version = 0;
	c->version_text = NULL;
	c->version_loc = (SrcLoc){ 0 };
	c->target = NULL;
	c->target_name = NULL;
	c->target_loc = (SrcLoc){ 0 };
	c->texmode = TOPT_NONE;
	c->address_bits = 64;
	c->sink = into;
	check_header(c);
}

/* Header state for the first item that is not a header directive. */
static void start(CheckStream *s)
{
	CheckCtx *c = &s->c;
	c->past_header = true;
	if (!s->started) {
		/* The header's own diagnostics wait for the end (they depend on
		 * sections still to come); the gates need its state now. */
		DiagSink scratch;
		diag_init_like(&scratch, &s->header);
		run_header(c, &scratch);
		diag_fini(&scratch);
		s->started = true;
	}
}

void check_stream_parse_errors(CheckStream *s, unsigned n)
{
	s->parse_errors = n;
}

bool check_stream_item(CheckStream *s, const Item *it)
{
	CheckCtx *c = &s->c;
	if (s->body && body_stream_open(s->body)) {
		/* the function whose statements came one by one */
		if (s->parse_errors)
			body_stream_abandon(s->body);
		else
			body_stream_end(s->body);
		if (it->kind == IT_FUNC)
			return true;
	}
	/* After a syntax error nothing of the checker is shown. */
	if (s->parse_errors)
		return true;
	if (is_header(it)) {
		if (s->started)
			return false;
		keep_item(s, it);
		return true;
	}
	start(s);
	c->sink = &s->gates;
	check_isa_item(c, it);
	c->sink = &s->items;
	check_item(c, it);
	if (it->kind == IT_SECTION)
		keep_item(s, it);
	return true;
}

void check_stream_func_begin(CheckStream *s, const Item *it)
{
	if (s->parse_errors)
		return;
	start(s);
	/* check_item's start (a function has no module-scope gates) */
	check_forget_lookups(&s->c);
	if (!s->body)
		s->body = body_stream_new(&s->c);
	body_stream_begin(s->body, &it->u.func, &s->items);
}

/* After a syntax error nothing more is checked (as check_stream_item
 * does for items): the statements may be what the parser refused, such as
 * an expression too deep to walk. */
static bool body_open(const CheckStream *s)
{
	return s->body && body_stream_open(s->body) && !s->parse_errors;
}

void check_stream_stmt(CheckStream *s, const Stmt *st)
{
	if (body_open(s))
		body_stream_stmt(s->body, st);
}

void check_stream_block_begin(CheckStream *s)
{
	if (body_open(s))
		body_stream_block_begin(s->body);
}

void check_stream_block_end(CheckStream *s)
{
	if (body_open(s))
		body_stream_block_end(s->body);
}

unsigned check_stream_errors(const CheckStream *s)
{
	return diag_errors(&s->gates) + diag_errors(&s->items);
}

void check_stream_end(CheckStream *s, bool keep)
{
	if (s->body)
		body_stream_free(s->body);
	if (keep) {
		s->c.sink = &s->items;
		check_loc_file(&s->c);
		check_undefined_funcs(&s->c);
		run_header(&s->c, &s->header);
		diag_append(s->sink, &s->header);
		diag_append(s->sink, &s->gates);
		diag_append(s->sink, &s->items);
	}
	diag_fini(&s->header);
	diag_fini(&s->gates);
	diag_fini(&s->items);
	/* the kept items are the module's (m->items) */
	arena_adopt(&s->c.m->arena, &s->kept);
	arena_free(&s->c.arena);
	arena_free(&s->c.item_arena);
	free(s);
}
