/* A function body checked statement by statement as the parser reduces
 * them (ptx_parse_stream_body), so --check of one huge function needs
 * memory for its names, not its length, and walks it once.
 *
 * check_item emits a function's diagnostics in this order: its header, the
 * ISA gates of the header and of every body statement, the header's
 * directives, then per block the duplicate labels (a block's labels are
 * entered before its statements, so a branch may name one further down)
 * followed by its statements. Here every run that fills out of order has a
 * sink of its own (a Part), kept in emission order and appended at the
 * function's end, so text, order and the --max-errors cut are the same.
 *
 * A statement naming something not declared yet may name a label further
 * down: it waits, copied, in a Part of its own, and is checked when that
 * label comes (or at the end, when what is still unknown is an error),
 * seeing the labels of its blocks and only the registers and variables
 * declared before it (CheckCtx.visible_seq). A resolved Part is merged
 * into the one before it, so waiting costs memory only while it waits. */
#include "check/check_internal.h"
#include "check/check_isa.h"
#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef enum PartKind {
	PART_FIXED,     /* gates, directives: filled out of statement order */
	PART_PLAIN,     /* statements in order */
	PART_LABELS,    /* an open block's duplicate labels */
	PART_STMT,      /* a statement waiting for a label */
	PART_PARAM,     /* an ld.param whose verdict waits for the end */
} PartKind;

typedef struct Pending Pending;
typedef struct Part Part;
struct Part {
	Part *prev, *next;
	PartKind kind;
	DiagSink sink;
	Pending *pending;       /* PART_STMT */
	const char *param;      /* PART_PARAM */
	SrcLoc param_loc;
};

struct Pending {
	Pending *next_free;
	Arena arena;            /* the statement's copy */
	Stmt stmt;
	Scope *scope, *labels;
	uint32_t seq;           /* CheckCtx.decl_seq when it came */
	unsigned waits;         /* names still unknown */
	Part *part;
};

typedef struct Wait Wait;
struct Wait {
	Wait *next;
	const char *name;
	Pending *p;
};

typedef struct Block Block;
struct Block {
	Block *outer;
	Scope *outer_scope, *outer_labels;
	Part *labels;
};

typedef struct Returned Returned;
struct Returned {
	Returned *next;
	const char *name;
};

enum { WAIT_BUCKETS = 256 };

/* One per checker, reused by its functions: the free lists keep the
 * pending statements' arenas and the parts from going back to malloc. */
struct BodyStream {
	CheckCtx *c;
	bool open;              /* a function's body is coming */
	Part *free_parts;
	DiagSink *into;
	Part *head, *cur;       /* cur: where the next statement's diagnostics go */
	Part *gates;
	Block *block;           /* innermost open block */
	Block *free_blocks;
	Wait *waits[WAIT_BUCKETS];
	Wait *free_waits;
	Pending *free_pending;
	unsigned npending;
	unsigned nwaits;        /* waits made in this function (the buckets need clearing) */
	Returned *returned;     /* names some call of the body returns into */
	Symbol *last_label;     /* the label of the statement just before, if that was one */
};

/* ---- parts ---- */

static Part *part_new(BodyStream *b, PartKind kind, Part *after)
{
	Part *p = b->free_parts;
	if (p)
		b->free_parts = p->next;
	else
		p = xmalloc(sizeof *p);
	*p = (Part){ .kind = kind };
	diag_init_like(&p->sink, b->into);
	p->prev = after;
	if (after) {
		p->next = after->next;
		if (after->next)
			after->next->prev = p;
		after->next = p;
	} else {
		b->head = p;
	}
	return p;
}

static void part_unlink(BodyStream *b, Part *p)
{
	if (p->prev)
		p->prev->next = p->next;
	else
		b->head = p->next;
	if (p->next)
		p->next->prev = p->prev;
	if (b->cur == p)
		b->cur = p->prev;
	diag_fini(&p->sink);
	p->next = b->free_parts;
	b->free_parts = p;
}

/* A part that will get no more diagnostics joins the plain part before
 * it, and a plain part after it joins too. */
static void part_settle(BodyStream *b, Part *p)
{
	p->kind = PART_PLAIN;
	Part *prev = p->prev;
	if (prev && prev->kind == PART_PLAIN) {
		diag_append(&prev->sink, &p->sink);
		part_unlink(b, p);
		p = prev;
	}
	Part *next = p->next;
	if (next && next->kind == PART_PLAIN) {
		diag_append(&p->sink, &next->sink);
		part_unlink(b, next);
	}
}

/* ---- statements that wait ---- */

static unsigned name_hash(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h % WAIT_BUCKETS;
}

static Expr *copy_expr(Arena *a, const Expr *e)
{
	if (!e)
		return NULL;
	Expr *n = arena_alloc(a, sizeof *n);
	*n = *e;
	/* Names are interned for the whole module; literal texts may sit in
	 * the statement's arena. */
	if (e->text && e->kind != EX_NAME)
		n->text = arena_strdup(a, e->text);
	switch (e->kind) {
	case EX_UNARY:
	case EX_BINARY:
	case EX_FIELD:
		n->lhs = copy_expr(a, e->lhs);
		n->rhs = e->kind == EX_BINARY ? copy_expr(a, e->rhs) : e->rhs;
		break;
	case EX_VECTOR:
	case EX_ADDRESS:
	case EX_LIST:
	case EX_CALL:
		n->elems = e->nelems ? arena_alloc(a, e->nelems * sizeof *n->elems) : NULL;
		for (uint32_t i = 0; i < e->nelems; i++)
			n->elems[i] = copy_expr(a, e->elems[i]);
		break;
	default:
		break;
	}
	return n;
}

static void copy_instr(Arena *a, Instr *to, const Instr *in)
{
	*to = *in;
	to->guard = copy_expr(a, in->guard);
	if (in->nmods) {
		to->mods = arena_alloc(a, in->nmods * sizeof *to->mods);
		memcpy(to->mods, in->mods, in->nmods * sizeof *to->mods);
		if (in->mod_locs) {
			to->mod_locs = arena_alloc(a, in->nmods * sizeof *to->mod_locs);
			memcpy(to->mod_locs, in->mod_locs, in->nmods * sizeof *to->mod_locs);
		}
	}
	to->ops = in->nops ? arena_alloc(a, in->nops * sizeof *to->ops) : NULL;
	for (uint32_t i = 0; i < in->nops; i++)
		to->ops[i] = copy_expr(a, in->ops[i]);
}

typedef struct NameScan {
	BodyStream *b;
	Pending *p;             /* NULL: only count */
	unsigned unknown;
} NameScan;

static void scan_name(void *ctx, const Expr *e)
{
	NameScan *ns = ctx;
	CheckCtx *c = ns->b->c;
	if (check_is_sink(e) || check_lookup(c, e))
		return;
	ns->unknown++;
	if (!ns->p)
		return;
	BodyStream *b = ns->b;
	Wait *w = b->free_waits;
	if (w)
		b->free_waits = w->next;
	else
		w = ARENA_NEW(&c->item_arena, Wait);
	unsigned h = name_hash(e->text);
	*w = (Wait){ .next = b->waits[h], .name = e->text, .p = ns->p };
	b->waits[h] = w;
	b->nwaits++;
	ns->p->waits++;
}

static unsigned scan_names(BodyStream *b, const Instr *in, Pending *p)
{
	NameScan ns = { .b = b, .p = p };
	if (in->has_guard && in->guard)
		scan_name(&ns, in->guard);
	for (uint32_t i = 0; i < in->nops; i++)
		expr_for_each_name(in->ops[i], scan_name, &ns);
	return ns.unknown;
}

static void defer(BodyStream *b, const Stmt *s)
{
	CheckCtx *c = b->c;
	Pending *p = b->free_pending;
	if (p) {
		b->free_pending = p->next_free;
		arena_reset(&p->arena);
	} else {
		p = xcalloc(1, sizeof *p);
		arena_init(&p->arena);
	}
	p->stmt = *s;
	p->stmt.next = NULL;
	copy_instr(&p->arena, &p->stmt.u.instr, &s->u.instr);
	p->scope = c->scope;
	p->labels = c->labels;
	p->seq = c->decl_seq;
	p->waits = 0;
	p->part = part_new(b, PART_STMT, b->cur);
	p->part->pending = p;
	b->cur = part_new(b, PART_PLAIN, p->part);
	b->npending++;
	scan_names(b, &p->stmt.u.instr, p);
}

/* Checks a waiting statement where it stood. */
static void run_pending(BodyStream *b, Pending *p)
{
	CheckCtx *c = b->c;
	Scope *scope = c->scope, *labels = c->labels;
	Part *cur = b->cur;
	c->scope = p->scope;
	c->labels = p->labels;
	c->visible_seq = p->seq;
	c->sink = &p->part->sink;
	/* an ld.param verdict splits the part after it (body_stream_param_read) */
	b->cur = p->part;
	check_stmt(c, &p->stmt);
	c->visible_seq = 0;
	c->scope = scope;
	c->labels = labels;
	b->cur = cur;
	p->part->pending = NULL;
	part_settle(b, p->part);
	c->sink = &b->cur->sink;
	p->next_free = b->free_pending;
	b->free_pending = p;
	b->npending--;
}

/* Is `labels` (a waiting statement's block) inside `block` (or it)? */
static bool within(const Scope *labels, const Scope *block)
{
	for (; labels; labels = labels->parent)
		if (labels == block)
			return true;
	return false;
}

/* The label `name` was entered in the current block: statements of this
 * block or of blocks closed inside it that waited for it see it now. */
static void resolve(BodyStream *b, const char *name)
{
	Wait **link = &b->waits[name_hash(name)];
	Pending *ready = NULL;
	while (*link) {
		Wait *w = *link;
		if (strcmp(w->name, name) != 0 || !within(w->p->labels, b->c->labels)) {
			link = &w->next;
			continue;
		}
		*link = w->next;
		w->next = b->free_waits;
		b->free_waits = w;
		if (--w->p->waits == 0) {
			w->p->next_free = ready;
			ready = w->p;
		}
	}
	/* in the order they came, as check_item would meet them */
	Pending *order = NULL;
	while (ready) {
		Pending *p = ready;
		ready = p->next_free;
		p->next_free = order;
		order = p;
	}
	while (order) {
		Pending *p = order;
		order = p->next_free;
		run_pending(b, p);
	}
}

static void note_returns(BodyStream *b, const Instr *in)
{
	const Expr *rets = check_call_returns(in);
	for (uint32_t i = 0; rets && i < rets->nelems; i++) {
		const Expr *r = rets->elems[i];
		if (r->kind != EX_NAME)
			continue;
		Returned *k = b->returned;
		while (k && strcmp(k->name, r->text) != 0)
			k = k->next;
		if (k)
			continue;
		k = ARENA_NEW(&b->c->item_arena, Returned);
		*k = (Returned){ .next = b->returned, .name = r->text };
		b->returned = k;
	}
}

static bool returned_into(const BodyStream *b, const char *name)
{
	for (const Returned *k = b->returned; k; k = k->next)
		if (strcmp(k->name, name) == 0)
			return true;
	return false;
}

/* check_param_read on a streamed body (CheckCtx.param_read_waits):
 * whether some call of the body returns into `name` is known only at its
 * end. */
static void param_read_waits(CheckCtx *c, const char *name, SrcLoc loc)
{
	BodyStream *b = c->body_stream;
	if (returned_into(b, name))
		return;
	Part *p = part_new(b, PART_PARAM, b->cur);
	p->param = name;
	p->param_loc = loc;
	b->cur = part_new(b, PART_PLAIN, p);
	c->sink = &b->cur->sink;
}

/* ---- blocks ---- */

static void block_open(BodyStream *b, bool new_scopes)
{
	CheckCtx *c = b->c;
	Block *k = b->free_blocks;
	if (k)
		b->free_blocks = k->outer;
	else
		k = ARENA_NEW(&c->item_arena, Block);
	k->outer = b->block;
	k->outer_scope = c->scope;
	k->outer_labels = c->labels;
	if (new_scopes) {
		c->scope = scope_new(&c->item_arena, c->scope);
		c->labels = scope_new(&c->item_arena, c->labels);
	}
	k->labels = part_new(b, PART_LABELS, b->cur);
	b->cur = part_new(b, PART_PLAIN, k->labels);
	b->block = k;
}

static void block_close(BodyStream *b)
{
	CheckCtx *c = b->c;
	Block *k = b->block;
	c->scope = k->outer_scope;
	c->labels = k->outer_labels;
	Part *labels = k->labels;
	b->block = k->outer;
	k->outer = b->free_blocks;
	b->free_blocks = k;
	part_settle(b, labels);
}

/* ---- the interface ---- */

BodyStream *body_stream_new(CheckCtx *c)
{
	BodyStream *b = xcalloc(1, sizeof *b);
	b->c = c;
	return b;
}

void body_stream_begin(BodyStream *b, const Func *f, DiagSink *into)
{
	CheckCtx *c = b->c;
	b->open = true;
	b->last_label = NULL;
	b->into = into;
	b->gates = part_new(b, PART_FIXED, NULL);
	Part *dirs = part_new(b, PART_FIXED, b->gates);
	b->cur = dirs;
	check_func_begin(c, f, into, &b->gates->sink, &dirs->sink);
	block_open(b, false);
	c->body_stream = b;
	c->param_read_waits = param_read_waits;
}

bool body_stream_open(const BodyStream *b)
{
	return b->open;
}

void body_stream_stmt(BodyStream *b, const Stmt *s)
{
	CheckCtx *c = b->c;
	c->sink = &b->gates->sink;
	check_isa_stmt(c, s);
	if (s->kind == ST_LABEL) {
		c->sink = &b->block->labels->sink;
		b->last_label = check_label_decl(c, s);
		if (b->npending)
			resolve(b, s->u.label);
		return;
	}
	/* A streamed label has no s->next yet: its .callprototype, the
	 * statement right after it, is attached here. (A call through a
	 * register waiting for that label further down was resolved when the
	 * label came, without the formals: compilers write the prototype
	 * before the calls that use it.) */
	if (s->kind == ST_PROTO && b->last_label && !b->last_label->formals)
		b->last_label->formals = check_proto_formals(c, &s->u.proto);
	b->last_label = NULL;
	if (s->kind == ST_INSTR) {
		note_returns(b, &s->u.instr);
		if (scan_names(b, &s->u.instr, NULL)) {
			defer(b, s);
			return;
		}
	}
	c->sink = &b->cur->sink;
	check_stmt(c, s);
}

void body_stream_block_begin(BodyStream *b)
{
	block_open(b, true);
}

void body_stream_block_end(BodyStream *b)
{
	/* the function's own block closes in body_stream_end */
	if (b->block && b->block->outer)
		block_close(b);
}

/* The function is over: what lived in its arena (waits, blocks,
 * returned names) goes with it. */
static void body_close(BodyStream *b)
{
	while (b->head) {
		Part *p = b->head;
		b->head = p->next;
		diag_fini(&p->sink);
		p->next = b->free_parts;
		b->free_parts = p;
	}
	b->cur = b->gates = NULL;
	b->block = NULL;
	b->free_blocks = NULL;
	b->free_waits = NULL;
	if (b->nwaits) {
		memset(b->waits, 0, sizeof b->waits);
		b->nwaits = 0;
	}
	b->returned = NULL;
	b->npending = 0;
	b->open = false;
	CheckCtx *c = b->c;
	c->body_stream = NULL;
	check_func_end(c);
}

void body_stream_free(BodyStream *b)
{
	if (b->open)
		body_stream_abandon(b);
	while (b->free_pending) {
		Pending *p = b->free_pending;
		b->free_pending = p->next_free;
		arena_free(&p->arena);
		free(p);
	}
	while (b->free_parts) {
		Part *p = b->free_parts;
		b->free_parts = p->next;
		free(p);
	}
	free(b);
}

void body_stream_end(BodyStream *b)
{
	CheckCtx *c = b->c;
	while (b->block)
		block_close(b);
	/* What still waits names nothing declared: checked where it stood,
	 * it draws its "Unknown symbol" errors. */
	for (Part *p = b->head; p;) {
		if (p->kind == PART_STMT) {
			/* it merges into the part before it, which stays */
			Part *prev = p->prev;
			run_pending(b, p->pending);
			p = prev;
		}
		p = p->next;
	}
	for (Part *p = b->head; p; p = p->next) {
		if (p->kind == PART_PARAM && !returned_into(b, p->param)) {
			c->sink = &p->sink;
			check_param_read_error(c, p->param, p->param_loc);
		}
	}
	for (Part *p = b->head; p; p = p->next)
		diag_append(b->into, &p->sink);
	c->sink = b->into;
	body_close(b);
}

void body_stream_abandon(BodyStream *b)
{
	for (Part *p = b->head; p; p = p->next)
		if (p->kind == PART_STMT) {
			Pending *q = p->pending;
			q->next_free = b->free_pending;
			b->free_pending = q;
		}
	body_close(b);
}
