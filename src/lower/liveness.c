/* Control flow, live-range sets and liveness per part (see liveness.h). */
#include "lower/liveness.h"

#include "lower/call_scope.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

bool linsn_is_guarded(const LInsn *in)
{
	for (unsigned r = 0; r < in->nrefs; r++)
		if (in->refs[r].role == SR_PG)
			return true;
	return false;
}

bool linsn_is_unconditional_jump(const LInsn *in)
{
	if (in->form->op != SOP_BRA && in->form->op != SOP_EXIT && in->form->op != SOP_RET &&
	    in->form->op != SOP_SYNC && in->form->op != SOP_BRK && in->form->op != SOP_BRX)
		return false;
	if (linsn_is_guarded(in))
		return false;
	int64_t pg = linsn_get(in, SR_PG, 7), neg = linsn_get(in, SR_PG_NOT, 0);
	return pg == 7 && !neg;
}

unsigned lkernel_successors(const LKernel *k, size_t i, size_t succ[LK_MAX_SUCC])
{
	const LInsn *in = &k->insns[i];
	unsigned n = 0;
	/* issue 15: CAL goes to the callee; its return sites follow the
	 * callee's RETs (returns_to) */
	if (in->form->op == SOP_CAL) {
		if (in->target >= 0)
			succ[n++] = k->label_pos[in->target];
		return n;
	}
	if (!linsn_is_unconditional_jump(in) && i + 1 < k->ninsns)
		succ[n++] = i + 1;
	/* a SYNC goes on at its SSY's join point, a BRK at its PBK's
	 * (reconverge.c sets target) */
	if ((in->form->op == SOP_BRA || in->form->op == SOP_SYNC || in->form->op == SOP_BRK) &&
	    in->target >= 0)
		succ[n++] = k->label_pos[in->target];
	if (in->form->op == SOP_BRX)      /* brx.idx: every target of its table */
		n += lkernel_brx_targets(k, in, succ + n);
	return n;
}

/* ---- range sets ------------------------------------------------------------ */

bool live_set_has(const LiveSet *s, size_t i)
{
	/* the last range starting at or before i */
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (s->r[mid].lo <= i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && i < s->r[lo - 1].hi;
}

static void live_set_reserve(LiveSet *s, size_t n)
{
	/* the ranges held now are kept: a union that merges ranges asks for
	 * fewer than the set has before it moves them down */
	if (n < s->n)
		n = s->n;
	if (s->cap >= n && s->cap > 0)
		return;
	size_t cap = s->cap ? s->cap : 4;
	while (cap < n)
		cap *= 2;
	if (cap > UINT32_MAX)
		xdie("live range set too large");
	LiveRange *r = xmalloc(cap * sizeof *r);
	if (s->n)
		memcpy(r, s->r, s->n * sizeof *r);
	if (s->cap)
		free(s->r);
	s->r = r;
	s->cap = (uint32_t)cap;
}

void live_set_append(LiveSet *s, uint32_t lo, uint32_t hi)
{
	if (s->n > 0 && lo <= s->r[s->n - 1].hi) {
		if (hi > s->r[s->n - 1].hi)
			s->r[s->n - 1].hi = hi;
		return;
	}
	live_set_reserve(s, (size_t)s->n + 1);
	s->r[s->n++] = (LiveRange){ lo, hi };
}

void live_set_union(LiveSet *dst, const LiveSet *src, LiveSet *scratch)
{
	if (src->n == 0)
		return;
	uint32_t lo = src->r[0].lo, hi = src->r[src->n - 1].hi;
	/* dst[a, z): the ranges of dst that overlap or touch [lo, hi) */
	size_t a = 0, z = dst->n, l = 0, h = dst->n;
	while (l < h) {
		size_t mid = (l + h) / 2;
		if (dst->r[mid].hi < lo)
			l = mid + 1;
		else
			h = mid;
	}
	a = l;
	h = dst->n;
	while (l < h) {
		size_t mid = (l + h) / 2;
		if (dst->r[mid].lo <= hi)
			l = mid + 1;
		else
			h = mid;
	}
	z = l;
	scratch->n = 0;
	size_t x = a, y = 0;
	while (x < z || y < src->n) {
		const LiveRange *next = y == src->n || (x < z && dst->r[x].lo <= src->r[y].lo) ? &dst->r[x++] : &src->r[y++];
		live_set_append(scratch, next->lo, next->hi);
	}
	size_t tail = dst->n - z, n = a + scratch->n + tail;
	live_set_reserve(dst, n);
	memmove(dst->r + a + scratch->n, dst->r + z, tail * sizeof *dst->r);
	memcpy(dst->r + a, scratch->r, scratch->n * sizeof *dst->r);
	dst->n = (uint32_t)n;
}

void live_set_free(LiveSet *s)
{
	if (s->cap)
		free(s->r);
	*s = (LiveSet){ NULL, 0, 0 };
}

/* Pushes [lo, hi) onto ranges produced backwards through one block (each
 * ends where the one before it starts or earlier). */
static void push_descending(LiveSet *s, size_t lo, size_t hi)
{
	if (lo >= hi)
		return;
	if (s->n > 0 && s->r[s->n - 1].lo == hi) {
		s->r[s->n - 1].lo = (uint32_t)lo;
		return;
	}
	live_set_reserve(s, (size_t)s->n + 1);
	s->r[s->n++] = (LiveRange){ (uint32_t)lo, (uint32_t)hi };
}

static int by_lo(const void *a, const void *b)
{
	const LiveRange *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* A growing store of ranges; sets refer to it by offset until it stops
 * moving. */
typedef struct Pool {
	LiveRange *r;
	size_t n, cap;
} Pool;

/* Sorts and joins the ranges of `raw` (each block's, in no block order)
 * into the pool; returns their offset there and sets *count. */
static size_t pool_add(Pool *p, LiveSet *raw, uint32_t *count)
{
	bool sorted = true;
	for (size_t i = 1; i < raw->n && sorted; i++)
		sorted = raw->r[i - 1].lo < raw->r[i].lo;
	if (!sorted)
		qsort(raw->r, raw->n, sizeof *raw->r, by_lo);
	size_t off = p->n;
	if (p->cap < p->n + raw->n) {
		p->cap = p->cap ? p->cap : 1024;
		while (p->cap < p->n + raw->n)
			p->cap *= 2;
		p->r = xrealloc(p->r, p->cap * sizeof *p->r);
	}
	for (size_t i = 0; i < raw->n; i++) {
		if (p->n > off && raw->r[i].lo <= p->r[p->n - 1].hi) {
			if (raw->r[i].hi > p->r[p->n - 1].hi)
				p->r[p->n - 1].hi = raw->r[i].hi;
		} else {
			p->r[p->n++] = raw->r[i];
		}
	}
	*count = (uint32_t)(p->n - off);
	raw->n = 0;
	return off;
}

/* ---- blocks and events ------------------------------------------------------ */

/* A def kills the old value unless it is guarded: then the old value may
 * survive, except in temporaries, which are only read under the same guard. */
static bool def_kills(const LKernel *k, const LInsn *in, const LRegRef *r)
{
	return !linsn_is_guarded(in) || k->vregs[r->vreg].temp;
}

/* A list per part or per block, packed (CSR): the entries of list x are
 * item[start[x] .. start[x + 1]). */
typedef struct Lists {
	size_t *start;
	uint32_t *item;
} Lists;

static void lists_free(Lists *l)
{
	free(l->start);
	free(l->item);
}

/* Turns the counts in start[1..n] into offsets and sizes item[]; the
 * caller fills it through `fill` (a copy of the offsets). */
static size_t *lists_alloc(Lists *l, size_t n)
{
	for (size_t x = 0; x < n; x++)
		l->start[x + 1] += l->start[x];
	l->item = xmalloc((l->start[n] + 1) * sizeof *l->item);
	size_t *fill = xmalloc((n + 1) * sizeof *fill);
	memcpy(fill, l->start, (n + 1) * sizeof *fill);
	return fill;
}

/* Basic blocks: an instruction's only predecessor inside its block is the
 * one before it. */
typedef struct Blocks {
	size_t n;
	uint32_t *first;        /* block -> its first instruction; first[n] = ninsns */
	uint32_t *block_of;     /* instruction -> block */
	Lists pred;             /* block -> predecessor blocks */
	/* precise calls only (call_scope.c): per pred entry, 0 for an ordinary
	 * edge, +f for the edge from a CAL to the entry of function region f,
	 * -f for the edge from a CAL past its callee f to its return site */
	int32_t *edge;
	const CallScope *scope; /* NULL: every edge carries every part */
} Blocks;

/* issue 15: the instructions a RET returns to: those after each CAL of its
 * function (RET.target and CAL.target name the function's entry label). */
static bool returns_to(const LKernel *k, const LInsn *ret, size_t cal)
{
	return ret->form->op == SOP_RET && ret->target >= 0 && k->insns[cal].form->op == SOP_CAL &&
	       k->insns[cal].target == ret->target && cal + 1 < k->ninsns;
}

static void blocks_build(const LKernel *k, Blocks *bl, const CallScope *scope)
{
	bl->scope = scope;
	bl->edge = NULL;
	size_t n = k->ninsns, succ[LK_MAX_SUCC];
	bool *leader = xcalloc(n + 1, sizeof *leader);
	leader[0] = true;
	for (size_t l = 0; l < k->nlabels; l++)
		leader[k->label_pos[l] < n ? k->label_pos[l] : n] = true;
	for (size_t i = 0; i < n; i++) {
		unsigned ns = lkernel_successors(k, i, succ);
		/* a guarded RET ends its block too: its edges to the returns
		 * are the block's (varaddr: a result stored before `@p ret`
		 * was dead to the liveness, and its store removed) */
		if (ns != 1 || succ[0] != i + 1 || k->insns[i].form->op == SOP_RET)
			leader[i + 1] = true;
	}
	bl->n = 0;
	for (size_t i = 0; i < n; i++)
		bl->n += leader[i];
	bl->first = xmalloc((bl->n + 1) * sizeof *bl->first);
	bl->block_of = xmalloc((n + 1) * sizeof *bl->block_of);
	size_t b = 0;
	for (size_t i = 0; i < n; i++) {
		if (leader[i])
			bl->first[b++] = (uint32_t)i;
		bl->block_of[i] = (uint32_t)(b - 1);
	}
	bl->first[bl->n] = (uint32_t)n;
	free(leader);
	bl->pred.start = xcalloc(bl->n + 2, sizeof *bl->pred.start);
	for (int pass = 0; pass < 2; pass++) {
		size_t *fill = pass ? lists_alloc(&bl->pred, bl->n) : NULL;
		if (pass && scope)
			bl->edge = xcalloc(bl->pred.start[bl->n] + 1, sizeof *bl->edge);
		for (size_t x = 0; x < bl->n; x++) {
			size_t last = bl->first[x + 1] - 1;
			bool cal = scope && k->insns[last].form->op == SOP_CAL && k->insns[last].target >= 0;
			int32_t f = cal ? (int32_t)call_scope_region_at(scope, k->label_pos[k->insns[last].target]) : 0;
			for (unsigned s = 0, ns = lkernel_successors(k, last, succ); s < ns; s++) {
				if (succ[s] >= n)
					continue;
				uint32_t to = bl->block_of[succ[s]];
				if (pass) {
					if (bl->edge)
						bl->edge[fill[to]] = f;
					bl->pred.item[fill[to]++] = (uint32_t)x;
				} else {
					bl->pred.start[to + 1]++;
				}
			}
			if (cal && last + 1 < n) {      /* past the callee, for the parts it does not touch */
				uint32_t to = bl->block_of[last + 1];
				if (pass) {
					bl->edge[fill[to]] = -f;
					bl->pred.item[fill[to]++] = (uint32_t)x;
				} else {
					bl->pred.start[to + 1]++;
				}
			}
			for (size_t cal = 0; k->insns[last].form->op == SOP_RET && cal < n; cal++) {
				if (!returns_to(k, &k->insns[last], cal))
					continue;
				uint32_t to = bl->block_of[cal + 1];
				if (pass) {
					/* back into the callee only what it touches, unless a
					 * recursive call needs the plain solution (call_scope.h) */
					if (bl->edge && scope->returns)
						bl->edge[fill[to]] = (int32_t)call_scope_region_at(scope, last);
					bl->pred.item[fill[to]++] = (uint32_t)x;
				} else {
					bl->pred.start[to + 1]++;
				}
			}
		}
		free(fill);
	}
}

static void blocks_free(Blocks *bl)
{
	free(bl->first);
	free(bl->block_of);
	free(bl->edge);
	lists_free(&bl->pred);
}

/* Per part, the instructions that read it (2i) or kill it (2i + 1), in
 * instruction order. */
static void part_events(const LKernel *k, const Liveness *lv, Lists *ev)
{
	ev->start = xcalloc(lv->nparts + 2, sizeof *ev->start);
	for (int pass = 0; pass < 2; pass++) {
		size_t *fill = pass ? lists_alloc(ev, lv->nparts) : NULL;
		for (size_t i = 0; i < k->ninsns; i++) {
			const LInsn *in = &k->insns[i];
			for (unsigned r = 0; r < in->nrefs; r++) {
				const LRegRef *ref = &in->refs[r];
				bool kill = ref->def && def_kills(k, in, ref);
				if (ref->def && !kill)
					continue;
				for (unsigned p = 0; p < ref->count; p++) {
					size_t b = lv->first_part[ref->vreg] + ref->sub + p;
					if (pass)
						ev->item[fill[b]++] = (uint32_t)(2 * i + kill);
					else
						ev->start[b + 1]++;
				}
			}
		}
		free(fill);
	}
}

/* ---- the solution ------------------------------------------------------------ */

/* Per-block state of the part being solved; a field counts for part b
 * only while its stamp is b + 1, so nothing is cleared between parts. */
typedef struct BlockState {
	uint32_t ev_stamp, in_stamp, out_stamp, fill_stamp;
	bool exposed;           /* a read before any kill in the block */
	bool kills;
	uint32_t first_kill;    /* instruction of the block's first kill */
	uint32_t ev_lo, ev_hi;  /* the block's entries in the part's event list */
} BlockState;

/* What solving one part needs besides the kernel. */
typedef struct Solver {
	Blocks bl;
	const size_t *first_part;
	Lists ev;
	BlockState *st;
	uint32_t *stack, *touched;
	LiveSet raw_in, raw_out;        /* the part's ranges, block by block */
} Solver;

/* The blocks part b is live into and out of: a walk backwards from the
 * blocks that read it before killing it. Returns how many blocks are in
 * sv->touched (those with events of b, then those b is live through). */
static size_t solve_blocks(Solver *sv, size_t b, uint32_t vreg)
{
	uint32_t tag = (uint32_t)b + 1;
	BlockState *st = sv->st;
	size_t ntouched = 0, top = 0;
	for (size_t e = sv->ev.start[b]; e < sv->ev.start[b + 1]; e++) {
		uint32_t i = sv->ev.item[e] / 2, xb = sv->bl.block_of[i];
		BlockState *x = &st[xb];
		if (x->ev_stamp != tag) {
			*x = (BlockState){ .ev_stamp = tag, .in_stamp = x->in_stamp, .out_stamp = x->out_stamp,
			                   .fill_stamp = x->fill_stamp, .ev_lo = (uint32_t)e };
			sv->touched[ntouched++] = xb;
		}
		x->ev_hi = (uint32_t)e + 1;
		if (sv->ev.item[e] & 1) {
			if (!x->kills)
				x->first_kill = i;
			x->kills = true;
		} else if (!x->kills || x->first_kill == i) {
			x->exposed = true;  /* a read and a kill in one instruction: the read counts */
		}
	}
	for (size_t t = 0; t < ntouched; t++)
		if (st[sv->touched[t]].exposed) {
			st[sv->touched[t]].in_stamp = tag;
			sv->stack[top++] = sv->touched[t];
		}
	size_t nlive = ntouched;
	while (top > 0) {
		uint32_t x = sv->stack[--top];
		for (size_t e = sv->bl.pred.start[x]; e < sv->bl.pred.start[x + 1]; e++) {
			uint32_t pb = sv->bl.pred.item[e];
			if (sv->bl.edge && sv->bl.edge[e] != 0 &&
			    call_scope_touches(sv->bl.scope, vreg, (uint32_t)abs(sv->bl.edge[e])) != (sv->bl.edge[e] > 0))
				continue;
			BlockState *p = &st[pb];
			if (p->out_stamp == tag)
				continue;
			p->out_stamp = tag;
			if (p->ev_stamp != tag)
				sv->touched[nlive++] = pb;      /* live through, no events */
			if (!(p->ev_stamp == tag && p->kills) && p->in_stamp != tag) {
				p->in_stamp = tag;
				sv->stack[top++] = pb;
			}
		}
	}
	return nlive;
}

/* The ranges of part b, backwards through each block it is live in from
 * the block's live-out, between its reads and kills. */
static void solve_ranges(Solver *sv, size_t b, size_t nlive)
{
	uint32_t tag = (uint32_t)b + 1;
	const Lists *ev = &sv->ev;
	for (size_t t = 0; t < nlive; t++) {
		uint32_t xb = sv->touched[t];
		BlockState *x = &sv->st[xb];
		if (x->fill_stamp == tag)
			continue;
		x->fill_stamp = tag;
		bool live = x->out_stamp == tag;
		size_t end = sv->bl.first[xb + 1];      /* ranges from `end` on are done */
		if (x->ev_stamp == tag) {
			size_t e = x->ev_hi;
			while (e > x->ev_lo) {
				uint32_t i = ev->item[e - 1] / 2;
				bool use = false, kill = false;
				for (; e > x->ev_lo && ev->item[e - 1] / 2 == i; e--) {
					use |= !(ev->item[e - 1] & 1);
					kill |= ev->item[e - 1] & 1;
				}
				if (live) {
					push_descending(&sv->raw_out, i, end);
					push_descending(&sv->raw_in, i + 1, end);
				}
				live = use || (live && !kill);
				if (live)
					push_descending(&sv->raw_in, i, i + 1);
				end = i;
			}
		}
		if (live) {
			push_descending(&sv->raw_out, sv->bl.first[xb], end);
			push_descending(&sv->raw_in, sv->bl.first[xb], end);
		}
	}
}

/* Each part is solved on its own, so the cost follows the events and the
 * blocks the part is live in, not instructions times parts. */
static void compute(const LKernel *k, Liveness *lv, const CallScope *scope)
{
	memset(lv, 0, sizeof *lv);
	lv->first_part = xcalloc(k->nvregs + 1, sizeof *lv->first_part);
	size_t nparts = 0;
	for (size_t v = 0; v < k->nvregs; v++) {
		lv->first_part[v] = nparts;
		nparts += k->vregs[v].width;
	}
	lv->first_part[k->nvregs] = nparts;
	lv->nparts = nparts;
	lv->in = xcalloc(nparts + 1, sizeof *lv->in);
	lv->out = xcalloc(nparts + 1, sizeof *lv->out);
	Solver sv;
	memset(&sv, 0, sizeof sv);
	blocks_build(k, &sv.bl, scope);
	part_events(k, lv, &sv.ev);
	sv.st = xcalloc(sv.bl.n + 1, sizeof *sv.st);
	sv.stack = xmalloc((sv.bl.n + 1) * sizeof *sv.stack);
	sv.touched = xmalloc((sv.bl.n + 1) * sizeof *sv.touched);
	Pool pool = { NULL, 0, 0 };
	size_t *off = xmalloc(2 * (nparts + 1) * sizeof *off);
	uint32_t vreg = 0;
	for (size_t b = 0; b < nparts; b++) {
		while (lv->first_part[vreg + 1] <= b)
			vreg++;
		solve_ranges(&sv, b, solve_blocks(&sv, b, vreg));
		off[2 * b] = pool_add(&pool, &sv.raw_in, &lv->in[b].n);
		off[2 * b + 1] = pool_add(&pool, &sv.raw_out, &lv->out[b].n);
	}
	/* the pool has stopped moving */
	lv->pool = pool.r;
	for (size_t b = 0; b < nparts; b++) {
		lv->in[b].r = pool.r ? pool.r + off[2 * b] : NULL;
		lv->out[b].r = pool.r ? pool.r + off[2 * b + 1] : NULL;
	}
	free(off);
	live_set_free(&sv.raw_in);
	live_set_free(&sv.raw_out);
	free(sv.touched);
	free(sv.stack);
	free(sv.st);
	lists_free(&sv.ev);
	blocks_free(&sv.bl);
}

void liveness_compute(const LKernel *k, Liveness *lv)
{
	compute(k, lv, NULL);
}

void liveness_compute_scoped(const LKernel *k, Liveness *lv, const CallScope *scope)
{
	compute(k, lv, scope);
}

void liveness_free(Liveness *lv)
{
	for (size_t b = 0; b < lv->nparts; b++) {
		live_set_free(&lv->in[b]);
		live_set_free(&lv->out[b]);
	}
	free(lv->in);
	free(lv->out);
	free(lv->pool);
	free(lv->first_part);
	live_set_free(&lv->scratch);
}
