/* Liveness, dead-code removal and linear-scan register allocation. */
#include "regalloc.h"

#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool linsn_is_unconditional_jump(const LInsn *in)
{
	if (in->form->op != SOP_BRA && in->form->op != SOP_EXIT)
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
	if (!linsn_is_unconditional_jump(in) && i + 1 < k->ninsns)
		succ[n++] = i + 1;
	if (in->form->op == SOP_BRA && in->target >= 0)
		succ[n++] = k->label_pos[in->target];
	return n;
}

static bool is_guarded(const LInsn *in)
{
	for (unsigned r = 0; r < in->nrefs; r++)
		if (in->refs[r].role == SR_PG)
			return true;
	return false;
}

/* ---- liveness ------------------------------------------------------------- */

typedef struct Liveness {
	size_t nbits, words;
	size_t *first_bit;      /* vreg -> first bit */
	uint64_t *in, *out;     /* per instruction, `words` each */
} Liveness;

static inline void bit_set(uint64_t *s, size_t b) { s[b / 64] |= UINT64_C(1) << (b % 64); }
static inline void bit_clear(uint64_t *s, size_t b) { s[b / 64] &= ~(UINT64_C(1) << (b % 64)); }
static inline bool bit_get(const uint64_t *s, size_t b) { return (s[b / 64] >> (b % 64)) & 1; }

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

static void liveness_compute(const LKernel *k, Liveness *lv)
{
	lv->first_bit = xcalloc(k->nvregs + 1, sizeof *lv->first_bit);
	size_t nbits = 0;
	for (size_t v = 0; v < k->nvregs; v++) {
		lv->first_bit[v] = nbits;
		nbits += k->vregs[v].width;
	}
	lv->nbits = nbits;
	lv->words = (nbits + 63) / 64 ? (nbits + 63) / 64 : 1;
	size_t n = k->ninsns;
	lv->in = xcalloc(n * lv->words + 1, sizeof(uint64_t));
	lv->out = xcalloc(n * lv->words + 1, sizeof(uint64_t));
	uint64_t *tmp = xcalloc(lv->words, sizeof(uint64_t));
	bool changed = true;
	while (changed) {
		changed = false;
		for (size_t i = n; i-- > 0;) {
			const LInsn *in = &k->insns[i];
			uint64_t *out = lv->out + i * lv->words, *lin = lv->in + i * lv->words;
			size_t succ[2];
			unsigned ns = lkernel_successors(k, i, succ);
			memset(tmp, 0, lv->words * sizeof(uint64_t));
			for (unsigned s = 0; s < ns; s++)
				for (size_t w = 0; w < lv->words; w++)
					tmp[w] |= lv->in[succ[s] * lv->words + w];
			if (memcmp(tmp, out, lv->words * sizeof(uint64_t)) != 0) {
				memcpy(out, tmp, lv->words * sizeof(uint64_t));
				changed = true;
			}
			for (unsigned r = 0; r < in->nrefs; r++) {
				const LRegRef *ref = &in->refs[r];
				if (ref->def && def_kills(k, in, ref))
					for (unsigned p = 0; p < ref->count; p++)
						bit_clear(tmp, lv->first_bit[ref->vreg] + ref->sub + p);
			}
			for (unsigned r = 0; r < in->nrefs; r++) {
				const LRegRef *ref = &in->refs[r];
				if (!ref->def)
					for (unsigned p = 0; p < ref->count; p++)
						bit_set(tmp, lv->first_bit[ref->vreg] + ref->sub + p);
			}
			if (memcmp(tmp, lin, lv->words * sizeof(uint64_t)) != 0) {
				memcpy(lin, tmp, lv->words * sizeof(uint64_t));
				changed = true;
			}
		}
	}
	free(tmp);
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
		if (!dead[i])
			k->insns[j++] = k->insns[i];
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
	case SOP_STG: case SOP_SUST_D: case SOP_SUST_P: case SOP_SURED_D: case SOP_SURED_P:
	case SOP_SULD_D: case SOP_SULD_P: case SOP_BRA: case SOP_EXIT: case SOP_NOP: case SOP_DEPBAR:
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

static bool remove_dead(LKernel *k)
{
	Liveness lv;
	liveness_compute(k, &lv);
	bool *dead = xcalloc(k->ninsns + 1, sizeof *dead);
	bool any = false;
	for (size_t i = 0; i < k->ninsns; i++) {
		if (has_side_effects(k, i))
			continue;
		const LInsn *in = &k->insns[i];
		const uint64_t *out = lv.out + i * lv.words;
		bool live = false;
		for (unsigned r = 0; r < in->nrefs && !live; r++)
			if (in->refs[r].def)
				for (unsigned p = 0; p < in->refs[r].count; p++)
					live |= bit_get(out, lv.first_bit[in->refs[r].vreg] + in->refs[r].sub + p);
		dead[i] = !live;
		any |= dead[i];
	}
	liveness_free(&lv);
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

/* Each vreg's interval covers every point where one of its parts is live
 * and every reference; only the set bits of the live sets are visited. */
static void build_intervals(const LKernel *k, const Liveness *lv, Interval *iv)
{
	uint32_t *vreg_of = xmalloc((lv->nbits + 1) * sizeof *vreg_of);
	for (size_t v = 0; v < k->nvregs; v++) {
		iv[v] = (Interval){ -1, -1, (uint32_t)v };
		for (unsigned p = 0; p < k->vregs[v].width; p++)
			vreg_of[lv->first_bit[v] + p] = (uint32_t)v;
	}
	for (size_t i = 0; i < k->ninsns; i++) {
		for (int q = 0; q < 2; q++) {
			const uint64_t *set = (q ? lv->out : lv->in) + i * lv->words;
			for (size_t w = 0; w < lv->words; w++)
				for (uint64_t bits = set[w]; bits; bits &= bits - 1)
					extend(&iv[vreg_of[64 * w + (size_t)__builtin_ctzll(bits)]], (long)(2 * i + (size_t)q));
		}
		const LInsn *in = &k->insns[i];
		for (unsigned r = 0; r < in->nrefs; r++) {
			const LRegRef *ref = &in->refs[r];
			extend(&iv[ref->vreg], ref->def ? (long)(2 * i + 1) : (long)(2 * i));
		}
	}
	free(vreg_of);
}

/* ---- copy coalescing ------------------------------------------------------ */

static unsigned alignment_of(unsigned width);

/* Whether instruction i copies part b of one vreg into part a of another:
 * MOV_R a <- b, unguarded. */
static const SassForm *copy_form(void)
{
	static const SassForm *mov_r;
	if (!mov_r)
		mov_r = sass_form_by_name("MOV_R");
	return mov_r;
}

static bool copy_parts(const LKernel *k, const Liveness *lv, const LInsn *in, size_t *a, size_t *b)
{
	if (in->form != copy_form() || is_guarded(in) || in->nrefs != 2)
		return false;
	const LRegRef *d = &in->refs[0], *s = &in->refs[1];
	if (d->role != SR_RD || s->role != SR_RB || !d->def || s->def)
		return false;
	if (k->vregs[d->vreg].cls != LRC_GPR || k->vregs[s->vreg].cls != LRC_GPR)
		return false;
	*a = lv->first_bit[d->vreg] + d->sub;
	*b = lv->first_bit[s->vreg] + s->sub;
	return true;
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
static bool def_clashes(const LKernel *k, const Liveness *lv, size_t i, size_t a, size_t b)
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
	size_t ca, cb;
	/* a copy between the two, or one left behind by a merge (x <- x), defines nothing new */
	if (copy_parts(k, lv, in, &ca, &cb) && ((ca == a && cb == b) || (ca == b && cb == a) || ca == cb))
		return false;
	return bit_get(lv->out + i * lv->words, b);
}

/* Chaitin's test: parts a and b interfere when one is defined while the
 * other is live afterwards, unless the definition is a copy between them. */
static bool defs_clash(const LKernel *k, const Liveness *lv, const DefSites *ds, size_t a, size_t b)
{
	size_t x = a;
	do {
		for (size_t e = ds->start[x]; e < ds->start[x + 1]; e++)
			if (def_clashes(k, lv, ds->site[e], a, b))
				return true;
		x = ds->ring[x];
	} while (x != a);
	return false;
}

static bool parts_interfere(const LKernel *k, const Liveness *lv, const DefSites *ds, size_t a, size_t b)
{
	return defs_clash(k, lv, ds, a, b) || defs_clash(k, lv, ds, b, a);
}

/* Part src joins part dst: dst is live wherever either was, and has the
 * definitions of both (the liveness stays exact for non-interfering parts). */
static void merge_parts(Liveness *lv, DefSites *ds, size_t dst, size_t src, const Interval *span)
{
	for (size_t i = (size_t)span->start / 2; i <= (size_t)span->end / 2; i++) {
		uint64_t *in = lv->in + i * lv->words, *out = lv->out + i * lv->words;
		if (bit_get(in, src))
			bit_set(in, dst);
		if (bit_get(out, src))
			bit_set(out, dst);
	}
	size_t t = ds->ring[dst];
	ds->ring[dst] = ds->ring[src];
	ds->ring[src] = t;
}

/* Renames every use of src to parts [off, off + width) of dst. */
static void rename_vreg(LKernel *k, uint32_t src, uint32_t dst, unsigned off, const Interval *span)
{
	for (size_t i = (size_t)span->start / 2; i <= (size_t)span->end / 2; i++)
		for (unsigned r = 0; r < k->insns[i].nrefs; r++) {
			LRegRef *ref = &k->insns[i].refs[r];
			if (ref->vreg == src) {
				ref->vreg = dst;
				ref->sub = (uint8_t)(ref->sub + off);
			}
		}
	k->vregs[dst].temp = k->vregs[dst].temp && k->vregs[src].temp;
}

/* One round: merges the source of every copy into its destination when no
 * part of the two interferes (a copy into a coordinate or data group makes
 * the source live in the group directly). Liveness and definitions are
 * updated per merge, so chains of copies merge in one round. Returns
 * whether anything merged. */
static bool coalesce_round(LKernel *k)
{
	Liveness lv;
	liveness_compute(k, &lv);
	DefSites ds;
	def_sites_build(k, &lv, &ds);
	/* where each vreg is live or referenced: a merge only touches that span */
	Interval *span = xcalloc(k->nvregs + 1, sizeof *span);
	build_intervals(k, &lv, span);
	bool merged = false;
	for (size_t i = 0; i < k->ninsns; i++) {
		const LInsn *in = &k->insns[i];
		size_t a, b;
		if (!copy_parts(k, &lv, in, &a, &b))
			continue;
		uint32_t d = in->refs[0].vreg, s = in->refs[1].vreg;
		int off = (int)in->refs[0].sub - (int)in->refs[1].sub;
		unsigned sw = k->vregs[s].width;
		if (d == s || off < 0 || (unsigned)off + sw > k->vregs[d].width ||
		    off % (int)alignment_of(sw) != 0)
			continue;
		bool clash = false;
		for (unsigned p = 0; p < sw && !clash; p++)
			clash = parts_interfere(k, &lv, &ds, lv.first_bit[d] + (unsigned)off + p, lv.first_bit[s] + p);
		if (clash)
			continue;
		for (unsigned p = 0; p < sw; p++)
			merge_parts(&lv, &ds, lv.first_bit[d] + (unsigned)off + p, lv.first_bit[s] + p, &span[s]);
		rename_vreg(k, s, d, (unsigned)off, &span[s]);
		if (span[s].start >= 0) {
			extend(&span[d], span[s].start);
			extend(&span[d], span[s].end);
		}
		merged = true;
	}
	free(span);
	def_sites_free(&ds);
	liveness_free(&lv);
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

int regalloc_kernel(LKernel *k, char *err, size_t errlen)
{
	while (remove_dead(k))
		;
	for (int round = 0; round < 16 && coalesce_round(k); round++)
		;
	Liveness lv;
	liveness_compute(k, &lv);
	Interval *iv = xcalloc(k->nvregs + 1, sizeof *iv);
	build_intervals(k, &lv, iv);
	liveness_free(&lv);
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
