/* Liveness, dead-code removal and linear-scan register allocation. */
#include "lower/regalloc.h"

#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool linsn_is_unconditional_jump(const LInsn *in)
{
	if (in->form->op != SOP_BRA && in->form->op != SOP_EXIT && in->form->op != SOP_RET)
		return false;
	for (unsigned r = 0; r < in->nrefs; r++)
		if (in->refs[r].role == SR_PG)
			return false;
	int64_t pg = linsn_get(in, SR_PG, 7), neg = linsn_get(in, SR_PG_NOT, 0);
	return pg == 7 && !neg;
}

unsigned lkernel_successors(const LKernel *k, size_t i, size_t succ[2])
{
	const LInsn *in = &k->insns[i];
	unsigned n = 0;
	/* issue 15: CAL goes to the callee; its return sites follow the
	 * callee's RETs (lkernel_return_sites) */
	if (in->form->op == SOP_CAL) {
		if (in->target >= 0)
			succ[n++] = k->label_pos[in->target];
		return n;
	}
	if (!linsn_is_unconditional_jump(in) && i + 1 < k->ninsns)
		succ[n++] = i + 1;
	if (in->form->op == SOP_BRA && in->target >= 0)
		succ[n++] = k->label_pos[in->target];
	return n;
}

/* issue 15: the instructions a RET returns to: those after each CAL of its
 * function (RET.target and CAL.target name the function's entry label). */
static bool returns_to(const LKernel *k, const LInsn *ret, size_t cal)
{
	return ret->form->op == SOP_RET && ret->target >= 0 && k->insns[cal].form->op == SOP_CAL &&
	       k->insns[cal].target == ret->target && cal + 1 < k->ninsns;
}

static bool is_guarded(const LInsn *in)
{
	for (unsigned r = 0; r < in->nrefs; r++)
		if (in->refs[r].role == SR_PG)
			return true;
	return false;
}

/* ---- liveness ------------------------------------------------------------- */

/* Live sets are kept per part, not per instruction: row b has one bit per
 * instruction (bit i of `in`: part b is live before instruction i, of
 * `out`: after it). A coalescing merge then ors two rows a word at a time,
 * and a live interval is a row's first and last bit. */
typedef struct Liveness {
	size_t nbits, words;        /* parts, words per row */
	size_t *first_bit;          /* vreg -> its first part */
	uint64_t *in, *out;         /* nbits rows of `words` words each */
} Liveness;

static inline void bit_set(uint64_t *s, size_t b) { s[b / 64] |= UINT64_C(1) << (b % 64); }
static inline bool bit_get(const uint64_t *s, size_t b) { return (s[b / 64] >> (b % 64)) & 1; }

static inline uint64_t *live_row(const Liveness *lv, uint64_t *sets, size_t part)
{
	return sets + part * lv->words;
}

static inline bool live_out(const Liveness *lv, size_t part, size_t i)
{
	return bit_get(lv->out + part * lv->words, i);
}

static void liveness_free(Liveness *lv)
{
	free(lv->first_bit);
	free(lv->in);
	free(lv->out);
}

/* A def kills the old value unless it is guarded: then the old value may
 * survive, except in temporaries, which are only read under the same guard. */
static bool def_kills(const LKernel *k, const LInsn *in, const LRegRef *r)
{
	return !is_guarded(in) || k->vregs[r->vreg].temp;
}

/* A list per part or per instruction, packed (CSR): the entries of list x
 * are item[start[x] .. start[x + 1]). */
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
} Blocks;

static void blocks_build(const LKernel *k, Blocks *bl)
{
	size_t n = k->ninsns, succ[2];
	bool *leader = xcalloc(n + 1, sizeof *leader);
	leader[0] = true;
	for (size_t l = 0; l < k->nlabels; l++)
		leader[k->label_pos[l] < n ? k->label_pos[l] : n] = true;
	for (size_t i = 0; i < n; i++) {
		unsigned ns = lkernel_successors(k, i, succ);
		if (ns != 1 || succ[0] != i + 1)
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
		for (size_t x = 0; x < bl->n; x++) {
			size_t last = bl->first[x + 1] - 1;
			for (unsigned s = 0, ns = lkernel_successors(k, last, succ); s < ns; s++) {
				if (succ[s] >= n)
					continue;
				uint32_t to = bl->block_of[succ[s]];
				if (pass)
					bl->pred.item[fill[to]++] = (uint32_t)x;
				else
					bl->pred.start[to + 1]++;
			}
			for (size_t cal = 0; k->insns[last].form->op == SOP_RET && cal < n; cal++) {
				if (!returns_to(k, &k->insns[last], cal))
					continue;
				uint32_t to = bl->block_of[cal + 1];
				if (pass)
					bl->pred.item[fill[to]++] = (uint32_t)x;
				else
					bl->pred.start[to + 1]++;
			}
		}
		free(fill);
	}
}

static void blocks_free(Blocks *bl)
{
	free(bl->first);
	free(bl->block_of);
	lists_free(&bl->pred);
}

/* Per part, the instructions that read it (2i) or kill it (2i + 1), in
 * instruction order. */
static void part_events(const LKernel *k, const Liveness *lv, Lists *ev)
{
	ev->start = xcalloc(lv->nbits + 2, sizeof *ev->start);
	for (int pass = 0; pass < 2; pass++) {
		size_t *fill = pass ? lists_alloc(ev, lv->nbits) : NULL;
		for (size_t i = 0; i < k->ninsns; i++) {
			const LInsn *in = &k->insns[i];
			for (unsigned r = 0; r < in->nrefs; r++) {
				const LRegRef *ref = &in->refs[r];
				bool kill = ref->def && def_kills(k, in, ref);
				if (ref->def && !kill)
					continue;
				for (unsigned p = 0; p < ref->count; p++) {
					size_t b = lv->first_bit[ref->vreg] + ref->sub + p;
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

/* Sets bits [lo, hi) of a row. */
static void set_range(uint64_t *row, size_t lo, size_t hi)
{
	if (lo >= hi)
		return;
	size_t wl = lo / 64, wh = (hi - 1) / 64;
	uint64_t ml = ~UINT64_C(0) << (lo % 64), mh = ~UINT64_C(0) >> (63 - (hi - 1) % 64);
	if (wl == wh) {
		row[wl] |= ml & mh;
		return;
	}
	row[wl] |= ml;
	for (size_t w = wl + 1; w < wh; w++)
		row[w] = ~UINT64_C(0);
	row[wh] |= mh;
}

/* Per-block state of the part being solved; a field counts for part b
 * only while its stamp is b + 1, so nothing is cleared between parts. */
typedef struct BlockState {
	uint32_t ev_stamp, in_stamp, out_stamp, fill_stamp;
	bool exposed;           /* a read before any kill in the block */
	bool kills;
	uint32_t first_kill;    /* instruction of the block's first kill */
	uint32_t ev_lo, ev_hi;  /* the block's entries in the part's event list */
} BlockState;

/* The least solution of in = use | (out & ~kill), out = the union of the
 * successors' in, which the classic iteration over all instructions
 * reaches too: part b is live before i when a path from i reaches a read
 * of b with no kill of b before it. Each part is solved on its own: which
 * blocks it is live into and out of (a walk backwards from the blocks
 * that read it), then the rows over each such block, a range of bits at
 * a time between the part's reads and kills. The cost follows the events
 * and live ranges, not instructions times parts. */
static void liveness_compute(const LKernel *k, Liveness *lv)
{
	lv->first_bit = xcalloc(k->nvregs + 1, sizeof *lv->first_bit);
	size_t nbits = 0;
	for (size_t v = 0; v < k->nvregs; v++) {
		lv->first_bit[v] = nbits;
		nbits += k->vregs[v].width;
	}
	size_t n = k->ninsns;
	lv->nbits = nbits;
	lv->words = (n + 63) / 64 ? (n + 63) / 64 : 1;
	lv->in = xcalloc(nbits * lv->words + 1, sizeof(uint64_t));
	lv->out = xcalloc(nbits * lv->words + 1, sizeof(uint64_t));
	Blocks bl;
	blocks_build(k, &bl);
	Lists ev;
	part_events(k, lv, &ev);
	BlockState *st = xcalloc(bl.n + 1, sizeof *st);
	uint32_t *stack = xmalloc((bl.n + 1) * sizeof *stack);
	uint32_t *touched = xmalloc((bl.n + 1) * sizeof *touched);
	for (size_t b = 0; b < nbits; b++) {
		uint32_t tag = (uint32_t)b + 1;
		size_t ntouched = 0, top = 0;
		/* the blocks that read or kill b */
		for (size_t e = ev.start[b]; e < ev.start[b + 1]; e++) {
			uint32_t i = ev.item[e] / 2;
			BlockState *x = &st[bl.block_of[i]];
			if (x->ev_stamp != tag) {
				*x = (BlockState){ .ev_stamp = tag, .in_stamp = x->in_stamp, .out_stamp = x->out_stamp,
				                   .fill_stamp = x->fill_stamp, .ev_lo = (uint32_t)e };
				touched[ntouched++] = bl.block_of[i];
			}
			x->ev_hi = (uint32_t)e + 1;
			if (ev.item[e] & 1) {
				if (!x->kills)
					x->first_kill = i;
				x->kills = true;
			} else if (!x->kills || x->first_kill == i) {
				x->exposed = true;  /* a read and a kill in one instruction: the read counts */
			}
		}
		/* the blocks b is live into and out of */
		for (size_t t = 0; t < ntouched; t++)
			if (st[touched[t]].exposed) {
				st[touched[t]].in_stamp = tag;
				stack[top++] = touched[t];
			}
		size_t nlive = ntouched;
		while (top > 0) {
			uint32_t x = stack[--top];
			for (size_t e = bl.pred.start[x]; e < bl.pred.start[x + 1]; e++) {
				BlockState *p = &st[bl.pred.item[e]];
				if (p->out_stamp == tag)
					continue;
				p->out_stamp = tag;
				if (p->ev_stamp != tag)
					touched[nlive++] = bl.pred.item[e];     /* live through, no events */
				if (!(p->ev_stamp == tag && p->kills) && p->in_stamp != tag) {
					p->in_stamp = tag;
					stack[top++] = bl.pred.item[e];
				}
			}
		}
		/* the rows, backwards through each block from its live-out */
		uint64_t *in = live_row(lv, lv->in, b), *out = live_row(lv, lv->out, b);
		for (size_t t = 0; t < nlive; t++) {
			uint32_t xb = touched[t];
			BlockState *x = &st[xb];
			if (x->fill_stamp == tag)
				continue;
			x->fill_stamp = tag;
			bool live = x->out_stamp == tag;
			size_t end = bl.first[xb + 1];       /* rows from `end` on are done */
			if (x->ev_stamp == tag) {
				size_t e = x->ev_hi;
				while (e > x->ev_lo) {
					uint32_t i = ev.item[e - 1] / 2;
					bool use = false, kill = false;
					for (; e > x->ev_lo && ev.item[e - 1] / 2 == i; e--) {
						use |= !(ev.item[e - 1] & 1);
						kill |= ev.item[e - 1] & 1;
					}
					if (live) {
						set_range(out, i, end);
						set_range(in, i + 1, end);
					}
					live = use || (live && !kill);
					if (live)
						bit_set(in, i);
					end = i;
				}
			}
			if (live) {
				set_range(out, bl.first[xb], end);
				set_range(in, bl.first[xb], end);
			}
		}
	}
	free(touched);
	free(stack);
	free(st);
	lists_free(&ev);
	blocks_free(&bl);
}

/* ---- dead code ------------------------------------------------------------ */

/* Drops the instructions marked in dead[], keeping labels on the
 * instruction that follows. */
static void delete_marked(LKernel *k, const bool *dead)
{
	size_t *newpos = xcalloc(k->ninsns + 1, sizeof *newpos);
	size_t j = 0;
	for (size_t i = 0; i < k->ninsns; i++) {
		newpos[i] = j;
		if (!dead[i]) {
			if (j != i)
				k->insns[j] = k->insns[i];
			j++;
		}
	}
	newpos[k->ninsns] = j;
	for (size_t l = 0; l < k->nlabels; l++)
		k->label_pos[l] = newpos[k->label_pos[l]];
	k->ninsns = j;
	free(newpos);
}

static bool has_side_effects(const LKernel *k, size_t i)
{
	const LInsn *in = &k->insns[i];
	switch (in->form->op) {
	case SOP_STG: case SOP_SUST_D: case SOP_SUST_P: case SOP_SURED_D: case SOP_SURED_P: case SOP_BRA: case SOP_EXIT: case SOP_NOP: case SOP_DEPBAR:
		return true;
	case SOP_CAL: case SOP_RET: case SOP_BPT:
		return true;
	case SOP_STS: case SOP_STL: case SOP_ST:
		return true;
	default:
		break;
	}
	if (in->keep || (in->writes_cc && i + 1 < k->ninsns && k->insns[i + 1].reads_cc))
		return true;
	for (unsigned r = 0; r < in->nrefs; r++)
		if (in->refs[r].def)
			return false;
	return true;    /* writes only fixed registers (MOV R1) */
}

/* A vector SULD whose last elements are never read loads less, as ptxas
 * 11.8 does (at -O0 too): the size becomes the smallest of 32, 64 and 128
 * bits that covers the last element read (a dead SULD is removed like any
 * other load). The destination is its first def reference. Returns whether
 * the size changed. */
static bool narrow_suld(LInsn *in, size_t i, const Liveness *lv)
{
	if (!in->narrow_parts || in->nrefs == 0)
		return false;
	LRegRef *d = NULL;
	for (unsigned r = 0; r < in->nrefs && !d; r++)
		if (in->refs[r].def)
			d = &in->refs[r];
	if (!d || d->count < 2)
		return false;
	unsigned need = 0;
	for (unsigned p = 0; p < d->count; p++)
		if (live_out(lv, lv->first_bit[d->vreg] + d->sub + p, i))
			need = p + 1;
	need = (need + in->narrow_parts - 1) / in->narrow_parts * in->narrow_parts;
	unsigned parts = need <= 1 ? 1 : need <= 2 ? 2 : 4;
	if (need == 0 || parts >= d->count)
		return false;
	d->count = (uint8_t)parts;
	linsn_set(in, SR_SIZE, parts == 1 ? 4 : 5);     /* 32 or 64 bits */
	return true;
}

/* Removes the instructions whose results lv (the kernel's liveness) shows
 * unread and narrows vector SULDs; returns whether anything changed (lv is
 * then out of date). */
static bool remove_dead(LKernel *k, const Liveness *lv)
{
	bool *dead = xcalloc(k->ninsns + 1, sizeof *dead);
	bool any = false;
	for (size_t i = 0; i < k->ninsns; i++) {
		if (has_side_effects(k, i))
			continue;
		const LInsn *in = &k->insns[i];
		bool live = false;
		for (unsigned r = 0; r < in->nrefs && !live; r++)
			if (in->refs[r].def)
				for (unsigned p = 0; p < in->refs[r].count; p++)
					live |= live_out(lv, lv->first_bit[in->refs[r].vreg] + in->refs[r].sub + p, i);
		dead[i] = !live;
		any |= dead[i] || (live && narrow_suld(&k->insns[i], i, lv));
	}
	if (any)
		delete_marked(k, dead);
	free(dead);
	return any;
}


/* ---- live intervals ------------------------------------------------------ */

typedef struct Interval {
	long start, end;        /* half-steps: 2i = read at i, 2i+1 = write at i */
	uint32_t vreg;
} Interval;

static int by_start(const void *a, const void *b)
{
	const Interval *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->vreg < y->vreg ? -1 : x->vreg > y->vreg;
}

static void extend(Interval *x, long pos)
{
	if (x->start < 0 || pos < x->start)
		x->start = pos;
	if (pos > x->end)
		x->end = pos;
}

/* Extends x over the first and last set bit of a live row; odd: an out row. */
static void extend_row(Interval *x, const uint64_t *row, size_t words, int odd)
{
	size_t w = 0;
	while (w < words && row[w] == 0)
		w++;
	if (w == words)
		return;
	extend(x, 2 * (long)(64 * w + (size_t)__builtin_ctzll(row[w])) + odd);
	w = words - 1;
	while (row[w] == 0)
		w--;
	extend(x, 2 * (long)(64 * w + 63 - (size_t)__builtin_clzll(row[w])) + odd);
}

/* Each vreg's interval covers every point where one of its parts is live
 * and every reference. */
static void build_intervals(const LKernel *k, const Liveness *lv, Interval *iv)
{
	for (size_t v = 0; v < k->nvregs; v++) {
		iv[v] = (Interval){ -1, -1, (uint32_t)v };
		for (unsigned p = 0; p < k->vregs[v].width; p++) {
			size_t b = lv->first_bit[v] + p;
			extend_row(&iv[v], live_row(lv, lv->in, b), lv->words, 0);
			extend_row(&iv[v], live_row(lv, lv->out, b), lv->words, 1);
		}
	}
	for (size_t i = 0; i < k->ninsns; i++) {
		const LInsn *in = &k->insns[i];
		for (unsigned r = 0; r < in->nrefs; r++) {
			const LRegRef *ref = &in->refs[r];
			extend(&iv[ref->vreg], ref->def ? (long)(2 * i + 1) : (long)(2 * i));
		}
	}
}

/* ---- copy coalescing ------------------------------------------------------ */

static unsigned alignment_of(unsigned width);

static const SassForm *copy_form(void)
{
	return &sass_forms[SF_MOV_R];
}

/* Whether the instruction is MOV_R a <- b, unguarded, between general
 * registers. Renaming one vreg to another of the same class keeps the
 * answer, so a coalescing round works it out once per instruction. */
static bool is_copy(const LKernel *k, const LInsn *in)
{
	if (in->form != copy_form() || is_guarded(in) || in->nrefs != 2)
		return false;
	const LRegRef *d = &in->refs[0], *s = &in->refs[1];
	if (d->role != SR_RD || s->role != SR_RB || !d->def || s->def)
		return false;
	return k->vregs[d->vreg].cls == LRC_GPR && k->vregs[s->vreg].cls == LRC_GPR;
}

/* The parts a copy writes (a) and reads (b). */
static void copy_parts(const Liveness *lv, const LInsn *in, size_t *a, size_t *b)
{
	*a = lv->first_bit[in->refs[0].vreg] + in->refs[0].sub;
	*b = lv->first_bit[in->refs[1].vreg] + in->refs[1].sub;
}

/* Per part, the instructions that define it (a CSR list), so that an
 * interference test looks at a part's definitions only instead of the
 * whole kernel. */
typedef struct DefSites {
	size_t *start;          /* part -> first entry in site[] (nbits + 1 entries) */
	uint32_t *site;
	size_t *ring;           /* parts merged into one value form a ring: part -> next */
} DefSites;

static void def_sites_build(const LKernel *k, const Liveness *lv, DefSites *ds)
{
	ds->start = xcalloc(lv->nbits + 2, sizeof *ds->start);
	for (size_t i = 0; i < k->ninsns; i++)
		for (unsigned r = 0; r < k->insns[i].nrefs; r++) {
			const LRegRef *ref = &k->insns[i].refs[r];
			if (ref->def && k->vregs[ref->vreg].cls == LRC_GPR)
				for (unsigned p = 0; p < ref->count; p++)
					ds->start[lv->first_bit[ref->vreg] + ref->sub + p + 1]++;
		}
	for (size_t b = 0; b < lv->nbits; b++)
		ds->start[b + 1] += ds->start[b];
	ds->site = xmalloc((ds->start[lv->nbits] + 1) * sizeof *ds->site);
	size_t *fill = xmalloc((lv->nbits + 1) * sizeof *fill);
	memcpy(fill, ds->start, (lv->nbits + 1) * sizeof *fill);
	for (size_t i = 0; i < k->ninsns; i++)
		for (unsigned r = 0; r < k->insns[i].nrefs; r++) {
			const LRegRef *ref = &k->insns[i].refs[r];
			if (ref->def && k->vregs[ref->vreg].cls == LRC_GPR)
				for (unsigned p = 0; p < ref->count; p++) {
					size_t b = lv->first_bit[ref->vreg] + ref->sub + p;
					ds->site[fill[b]++] = (uint32_t)i;
				}
		}
	free(fill);
	ds->ring = xmalloc((lv->nbits + 1) * sizeof *ds->ring);
	for (size_t b = 0; b <= lv->nbits; b++)
		ds->ring[b] = b;
}

static void def_sites_free(DefSites *ds)
{
	free(ds->start);
	free(ds->site);
	free(ds->ring);
}

/* Whether instruction i defines part `a` and, unless it is a copy between a
 * and b, leaves b live (or defines b as well). */
static bool def_clashes(const LKernel *k, const Liveness *lv, const bool *copy, size_t i, size_t a, size_t b)
{
	const LInsn *in = &k->insns[i];
	for (unsigned r = 0; r < in->nrefs; r++) {
		const LRegRef *ref = &in->refs[r];
		if (!ref->def || k->vregs[ref->vreg].cls != LRC_GPR)
			continue;
		size_t first = lv->first_bit[ref->vreg] + ref->sub;
		if (b >= first && b < first + ref->count)
			return true;
	}
	if (copy[i]) {
		size_t ca, cb;
		copy_parts(lv, in, &ca, &cb);
		/* a copy between the two, or one left behind by a merge (x <- x), defines nothing new */
		if ((ca == a && cb == b) || (ca == b && cb == a) || ca == cb)
			return false;
	}
	return live_out(lv, b, i);
}

/* Chaitin's test: parts a and b interfere when one is defined while the
 * other is live afterwards, unless the definition is a copy between them. */
static bool defs_clash(const LKernel *k, const Liveness *lv, const DefSites *ds, const bool *copy,
                       size_t a, size_t b)
{
	size_t x = a;
	do {
		for (size_t e = ds->start[x]; e < ds->start[x + 1]; e++)
			if (def_clashes(k, lv, copy, ds->site[e], a, b))
				return true;
		x = ds->ring[x];
	} while (x != a);
	return false;
}

static bool parts_interfere(const LKernel *k, const Liveness *lv, const DefSites *ds, const bool *copy,
                            size_t a, size_t b)
{
	return defs_clash(k, lv, ds, copy, a, b) || defs_clash(k, lv, ds, copy, b, a);
}

/* Part src joins part dst: dst is live wherever either was, and has the
 * definitions of both (the liveness stays exact for non-interfering parts).
 * src is live only inside span, the interval of its vreg. */
static void merge_parts(Liveness *lv, DefSites *ds, size_t dst, size_t src, const Interval *span)
{
	size_t w0 = (size_t)span->start / 2 / 64, w1 = (size_t)span->end / 2 / 64;
	uint64_t *din = live_row(lv, lv->in, dst), *dout = live_row(lv, lv->out, dst);
	const uint64_t *sin = live_row(lv, lv->in, src), *sout = live_row(lv, lv->out, src);
	for (size_t w = w0; w <= w1; w++) {
		din[w] |= sin[w];
		dout[w] |= sout[w];
	}
	size_t t = ds->ring[dst];
	ds->ring[dst] = ds->ring[src];
	ds->ring[src] = t;
}

/* Where each vreg is referenced: one list per vreg of (instruction,
 * operand) nodes, so that a merge renames exactly the references of its
 * source, and the lists join as the vregs do. */
typedef struct RefLists {
	uint32_t *head, *tail;  /* vreg -> first / last node, NO_NODE when none */
	uint32_t *next;         /* node -> next node of the same vreg */
	uint32_t *insn;         /* node -> instruction */
	uint8_t *slot;          /* node -> index in its refs[] */
} RefLists;

enum { NO_NODE = UINT32_MAX };

static void ref_lists_build(const LKernel *k, RefLists *rl)
{
	size_t nodes = 0;
	for (size_t i = 0; i < k->ninsns; i++)
		nodes += k->insns[i].nrefs;
	rl->head = xmalloc((k->nvregs + 1) * sizeof *rl->head);
	rl->tail = xmalloc((k->nvregs + 1) * sizeof *rl->tail);
	rl->next = xmalloc((nodes + 1) * sizeof *rl->next);
	rl->insn = xmalloc((nodes + 1) * sizeof *rl->insn);
	rl->slot = xmalloc(nodes + 1);
	for (size_t v = 0; v < k->nvregs; v++)
		rl->head[v] = rl->tail[v] = NO_NODE;
	uint32_t x = 0;
	for (size_t i = 0; i < k->ninsns; i++)
		for (unsigned r = 0; r < k->insns[i].nrefs; r++, x++) {
			uint32_t v = k->insns[i].refs[r].vreg;
			rl->insn[x] = (uint32_t)i;
			rl->slot[x] = (uint8_t)r;
			rl->next[x] = NO_NODE;
			if (rl->head[v] == NO_NODE)
				rl->head[v] = x;
			else
				rl->next[rl->tail[v]] = x;
			rl->tail[v] = x;
		}
}

static void ref_lists_free(RefLists *rl)
{
	free(rl->head);
	free(rl->tail);
	free(rl->next);
	free(rl->insn);
	free(rl->slot);
}

/* Renames every use of src to parts [off, off + width) of dst. */
static void rename_vreg(LKernel *k, RefLists *rl, uint32_t src, uint32_t dst, unsigned off)
{
	if (rl->head[src] != NO_NODE) {
		for (uint32_t x = rl->head[src]; x != NO_NODE; x = rl->next[x]) {
			LRegRef *ref = &k->insns[rl->insn[x]].refs[rl->slot[x]];
			ref->vreg = dst;
			ref->sub = (uint8_t)(ref->sub + off);
		}
		if (rl->head[dst] == NO_NODE)
			rl->head[dst] = rl->head[src];
		else
			rl->next[rl->tail[dst]] = rl->head[src];
		rl->tail[dst] = rl->tail[src];
		rl->head[src] = rl->tail[src] = NO_NODE;
	}
	k->vregs[dst].temp = k->vregs[dst].temp && k->vregs[src].temp;
}

/* One round over lv, the kernel's liveness, and span, its intervals:
 * merges the source of every copy into its destination when no part of
 * the two interferes (a copy into a coordinate or data group makes the
 * source live in the group directly). Liveness and definitions are
 * updated per merge, so chains of copies merge in one round. Returns
 * whether anything merged; lv and span are then out of date. */
static bool coalesce_round(LKernel *k, Liveness *lv, Interval *span)
{
	DefSites ds;
	def_sites_build(k, lv, &ds);
	RefLists rl;
	ref_lists_build(k, &rl);
	bool *copy = xcalloc(k->ninsns + 1, sizeof *copy);
	for (size_t i = 0; i < k->ninsns; i++)
		copy[i] = is_copy(k, &k->insns[i]);
	bool merged = false;
	for (size_t i = 0; i < k->ninsns; i++) {
		const LInsn *in = &k->insns[i];
		if (!copy[i])
			continue;
		uint32_t d = in->refs[0].vreg, s = in->refs[1].vreg;
		int off = (int)in->refs[0].sub - (int)in->refs[1].sub;
		unsigned sw = k->vregs[s].width;
		if (d == s || off < 0 || (unsigned)off + sw > k->vregs[d].width ||
		    off % (int)alignment_of(sw) != 0)
			continue;
		bool clash = false;
		for (unsigned p = 0; p < sw && !clash; p++)
			clash = parts_interfere(k, lv, &ds, copy, lv->first_bit[d] + (unsigned)off + p, lv->first_bit[s] + p);
		if (clash)
			continue;
		for (unsigned p = 0; p < sw; p++)
			merge_parts(lv, &ds, lv->first_bit[d] + (unsigned)off + p, lv->first_bit[s] + p, &span[s]);
		rename_vreg(k, &rl, s, d, (unsigned)off);
		if (span[s].start >= 0) {
			extend(&span[d], span[s].start);
			extend(&span[d], span[s].end);
		}
		merged = true;
	}
	ref_lists_free(&rl);
	def_sites_free(&ds);
	free(copy);
	if (!merged)
		return false;
	/* the copies are now MOV x <- x */
	bool *dead = xcalloc(k->ninsns + 1, sizeof *dead);
	for (size_t i = 0; i < k->ninsns; i++) {
		const LInsn *in = &k->insns[i];
		dead[i] = in->form == copy_form() && !is_guarded(in) && in->nrefs == 2 &&
		          in->refs[0].vreg == in->refs[1].vreg && in->refs[0].sub == in->refs[1].sub;
	}
	delete_marked(k, dead);
	free(dead);
	return true;
}

/* ---- allocation ----------------------------------------------------------- */

static unsigned alignment_of(unsigned width)
{
	return width == 1 ? 1 : width == 2 ? 2 : 4;
}

/* The kernel's liveness and intervals, computed again only after a pass
 * changed the instructions: removing dead code until none is left, and
 * coalescing until a round merges nothing, each end with a pass that
 * changed nothing and whose liveness the next one takes over. */
typedef struct Analysis {
	bool valid;
	Liveness lv;
	Interval *iv;
} Analysis;

static void analysis_update(const LKernel *k, Analysis *a)
{
	if (a->valid)
		return;
	liveness_compute(k, &a->lv);
	a->iv = xcalloc(k->nvregs + 1, sizeof *a->iv);
	build_intervals(k, &a->lv, a->iv);
	a->valid = true;
}

static void analysis_drop(Analysis *a)
{
	if (!a->valid)
		return;
	liveness_free(&a->lv);
	free(a->iv);
	a->valid = false;
}

int regalloc_kernel(LKernel *k, char *err, size_t errlen)
{
	Analysis an = { .valid = false };
	for (;;) {
		analysis_update(k, &an);
		if (!remove_dead(k, &an.lv))
			break;
		analysis_drop(&an);
	}
	for (int round = 0; round < 16; round++) {
		analysis_update(k, &an);
		if (!coalesce_round(k, &an.lv, an.iv))
			break;
		analysis_drop(&an);
	}
	analysis_update(k, &an);
	Interval *iv = an.iv;
	an.iv = NULL;
	analysis_drop(&an);
	qsort(iv, k->nvregs, sizeof *iv, by_start);

	long busy_gpr[REGALLOC_MAX_GPR + 1], busy_pred[REGALLOC_MAX_PRED + 1];
	for (int r = 0; r <= REGALLOC_MAX_GPR; r++)
		busy_gpr[r] = -1;
	for (int r = 0; r <= REGALLOC_MAX_PRED; r++)
		busy_pred[r] = -1;
	busy_gpr[REGALLOC_STACK_REG] = (long)1 << 60;
	int max_gpr = REGALLOC_STACK_REG;
	for (size_t n = 0; n < k->nvregs; n++) {
		Interval *x = &iv[n];
		LVReg *v = &k->vregs[x->vreg];
		if (x->start < 0)
			continue;
		bool pred = v->cls == LRC_PRED;
		long *busy = pred ? busy_pred : busy_gpr;
		int top = pred ? REGALLOC_MAX_PRED : REGALLOC_MAX_GPR;
		unsigned w = pred ? 1 : v->width, al = pred ? 1 : alignment_of(w);
		int found = -1;
		for (int b = 0; b + (int)w - 1 <= top && found < 0; b += (int)al) {
			bool ok = true;
			for (unsigned p = 0; p < w && ok; p++)
				ok = busy[b + (int)p] < x->start;
			if (ok)
				found = b;
		}
		if (found < 0) {
			snprintf(err, errlen, "kernel '%s' needs more than %d %s registers at once", k->name,
			         top + 1, pred ? "predicate" : "general");
			free(iv);
			return -1;
		}
		for (unsigned p = 0; p < w; p++)
			busy[found + (int)p] = x->end;
		v->phys = found;
		if (!pred && found + (int)w - 1 > max_gpr)
			max_gpr = found + (int)w - 1;
	}
	free(iv);

	for (size_t i = 0; i < k->ninsns; i++) {
		LInsn *in = &k->insns[i];
		for (unsigned r = 0; r < in->nrefs; r++) {
			const LRegRef *ref = &in->refs[r];
			linsn_set(in, ref->role, k->vregs[ref->vreg].phys + ref->sub);
		}
	}
	k->regcount = (uint32_t)max_gpr + 1;
	return 0;
}
