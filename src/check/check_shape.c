/* The shape memo: which of an instruction's checks found nothing to say,
 * remembered per instruction shape, so that the next instruction of the
 * same shape skips them.
 *
 * Real files repeat a few hundred shapes millions of times. Only the checks
 * whose verdict is a function of the shape alone are memoised (the list is
 * in check_internal.h, SHAPE_*): they read the opcode, the modifier words
 * in order and the operand count, and of the context only the header
 * state kept in ShapeMemo (rules mode, .version, .target, texmode, address
 * size). Only "nothing to say" is remembered: a check that emitted anything
 * (even a diagnostic the policy or the error limit then dropped: the sink's
 * `tried` count) runs again on every instruction, so each of its
 * diagnostics keeps its own location and place in the order. A check that
 * is skipped would have emitted nothing, so the output is unchanged. */
#include "check/check_internal.h"

#include <string.h>

enum {
	SHAPE_SLOTS = 1024,                     /* a power of two */
	SHAPE_FULL = SHAPE_SLOTS / 4 * 3,       /* then new shapes are not kept */
};

typedef struct Shape {
	uint64_t hash;          /* 0: an empty slot */
	int opcode_id;
	uint32_t nops, nmods;
	const char **mods;      /* copies in the check's arena: the parse's
	                         * names may go before the check does */
	unsigned clean;         /* SHAPE_* bits: checks that found nothing */
} Shape;

struct ShapeMemo {
	/* the header state the verdicts were reached under */
	RulesMode rules;
	bool has_version;
	PtxVersion version;
	const TargetInfo *target;
	TargetOption texmode;
	int address_bits;
	uint32_t used;
	Shape slot[SHAPE_SLOTS];
};

static bool same_header(const ShapeMemo *m, const CheckCtx *c)
{
	return m->rules == c->rules && m->has_version == c->has_version && m->version == c->version &&
	       m->target == c->target && m->texmode == c->texmode && m->address_bits == c->address_bits;
}

/* A new header (the streaming checker reruns it) starts an empty memo. */
static void reset(ShapeMemo *m, const CheckCtx *c)
{
	memset(m, 0, sizeof *m);
	m->rules = c->rules;
	m->has_version = c->has_version;
	m->version = c->version;
	m->target = c->target;
	m->texmode = c->texmode;
	m->address_bits = c->address_bits;
}

/* FNV-1a over the opcode, the operand count and the words with their
 * boundaries. */
static uint64_t shape_hash(const Instr *in)
{
	uint64_t h = 14695981039346656037ull;
	h = (h ^ (uint64_t)(uint32_t)in->opcode_id) * 1099511628211ull;
	h = (h ^ in->nops) * 1099511628211ull;
	for (uint32_t i = 0; i < in->nmods; i++) {
		for (const unsigned char *p = (const unsigned char *)in->mods[i]; *p; p++)
			h = (h ^ *p) * 1099511628211ull;
		h = (h ^ 0xffu) * 1099511628211ull;
	}
	return h ? h : 1;
}

static bool same_shape(const Shape *s, uint64_t h, const Instr *in)
{
	if (s->hash != h || s->opcode_id != in->opcode_id || s->nops != in->nops || s->nmods != in->nmods)
		return false;
	for (uint32_t i = 0; i < in->nmods; i++)
		if (strcmp(s->mods[i], in->mods[i]) != 0)
			return false;
	return true;
}

unsigned *check_shape_clean(CheckCtx *c, const Instr *in)
{
	/* an unknown opcode has no rows to skip */
	if (in->opcode_id < 0)
		return NULL;
	if (!c->shapes) {
		c->shapes = arena_alloc(&c->arena, sizeof *c->shapes);
		reset(c->shapes, c);
	} else if (!same_header(c->shapes, c)) {
		reset(c->shapes, c);
	}
	ShapeMemo *m = c->shapes;
	uint64_t h = shape_hash(in);
	for (uint32_t i = (uint32_t)h & (SHAPE_SLOTS - 1);; i = (i + 1) & (SHAPE_SLOTS - 1)) {
		Shape *s = &m->slot[i];
		if (s->hash == 0) {
			if (m->used >= SHAPE_FULL)
				return NULL;
			m->used++;
			s->hash = h;
			s->opcode_id = in->opcode_id;
			s->nops = in->nops;
			s->nmods = in->nmods;
			s->mods = in->nmods ? arena_alloc(&c->arena, in->nmods * sizeof *s->mods) : NULL;
			for (uint32_t k = 0; k < in->nmods; k++)
				s->mods[k] = arena_strdup(&c->arena, in->mods[k]);
			s->clean = 0;
			return &s->clean;
		}
		if (same_shape(s, h, in))
			return &s->clean;
	}
}

void check_shape_run(CheckCtx *c, unsigned *clean, unsigned bit, void (*check)(CheckCtx *, const Instr *),
	const Instr *in)
{
	if (clean && (*clean & bit))
		return;
	unsigned long tried = c->sink->tried;
	check(c, in);
	if (clean && c->sink->tried == tried)
		*clean |= bit;
}
