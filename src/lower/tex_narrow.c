/* Texture results narrowed to the components a kernel reads (texs).
 *
 * A TEX/TLD/TLD4 writes the components of its mask packed into Rd, Rd+1,
 * ...; TEXS/TLDS the first two into the pair Rd and the rest into the pair
 * Rd2 (RZ: none), with a mask code that names the set (sass_texs_mask):
 * one pair R G B A RG RA GA BA, two pairs RGB RGA RBA GBA RGBA. ptxas
 * 11.8 writes only the components that are read (measured at -O0 and -O3:
 * tex.2d read in x alone is `TEXS RZ, R0, ..., R`, in x and z `TEX ...
 * 0x5`). For a set the compact code cannot name (R and B, G and B) and a
 * partial TLD4S gather ptxas writes the general form with that mask:
 * tex_general rewrites those (their sources copied into the general
 * form's groups). The lowering gives each instruction fresh destination
 * vregs, so a component's references are the reads of its copy. */
#include "lower/tex_narrow.h"

#include "sm50/sass_table.h"

#include <string.h>

/* A component's place: a part of a destination vreg. */
typedef struct Place {
	uint32_t vreg;
	unsigned sub;
} Place;

static int ref_of(const LInsn *in, SassRole role)
{
	for (unsigned r = 0; r < in->nrefs; r++)
		if (in->refs[r].role == role && in->refs[r].def)
			return (int)r;
	return -1;
}

/* The compact mask code of `mask` with or without the second pair, -1 none. */
static int compact_code(unsigned mask, bool pair2)
{
	for (int code = 0; code < 8; code++)
		if (sass_texs_mask(code, pair2) == mask)
			return code;
	return -1;
}

static unsigned popcount4(unsigned m)
{
	return (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1);
}

/* Where the components of `mask` land: rank r in place r of a group
 * (general), or of the pairs d, d2 (compact). */
static void places(const LInsn *in, bool compact, unsigned mask, int d, int d2, Place out[4])
{
	for (unsigned c = 0, r = 0; c < 4; c++) {
		if (!(mask >> c & 1))
			continue;
		const LRegRef *ref = &in->refs[compact && r >= 2 ? d2 : d];
		out[c] = (Place){ ref->vreg, ref->sub + (compact ? r % 2 : r) };
		r++;
	}
}

bool tex_narrow(LKernel *k, size_t i, const Liveness *lv)
{
	LInsn *in = &k->insns[i];
	if (!in->tex_result)
		return false;
	SassOp op = in->form->op;
	bool compact = op == SOP_TEXS || op == SOP_TLDS || op == SOP_TLD4S;
	int d = ref_of(in, SR_RD), d2 = ref_of(in, SR_RD2);
	if (d < 0)
		return false;
	unsigned mask = op == SOP_TLD4S ? (d2 >= 0 ? 0xf : 0x3)
	              : compact ? sass_texs_mask(linsn_get(in, SR_TEXSMASK, -1), d2 >= 0)
	                        : (unsigned)linsn_get(in, SR_QMASK, 0);
	Place old[4];
	places(in, compact, mask, d, d2, old);
	unsigned live = 0;
	for (unsigned c = 0; c < 4; c++)
		if (mask >> c & 1 && live_out(lv, lv->first_part[old[c].vreg] + old[c].sub, i))
			live |= 1u << c;
	unsigned n = popcount4(live);
	int code = op == SOP_TLD4S ? -1 : compact ? compact_code(live, n > 2) : 0;
	in->tex_general = 0;
	if (live == mask || live == 0)
		return false;
	if (code < 0) {
		in->tex_general = (uint8_t)live;
		return false;
	}
	/* every other reference to a component must be a single part */
	for (size_t j = 0; j < k->ninsns; j++)
		for (unsigned r = 0; j != i && r < k->insns[j].nrefs; r++) {
			const LRegRef *ref = &k->insns[j].refs[r];
			bool ours = ref->vreg == in->refs[d].vreg || (d2 >= 0 && ref->vreg == in->refs[d2].vreg);
			if (ours && ref->count != 1)
				return false;
		}
	Place now[4];
	places(in, compact, live, d, d2, now);
	for (size_t j = 0; j < k->ninsns; j++)
		for (unsigned r = 0; j != i && r < k->insns[j].nrefs; r++) {
			LRegRef *ref = &k->insns[j].refs[r];
			for (unsigned c = 0; c < 4; c++)
				if (live >> c & 1 && ref->vreg == old[c].vreg && ref->sub == old[c].sub) {
					ref->vreg = now[c].vreg;
					ref->sub = (uint8_t)now[c].sub;
					break;
				}
		}
	if (!compact) {
		linsn_set(in, SR_QMASK, live);
		in->refs[d].count = (uint8_t)n;
		return true;
	}
	linsn_set(in, SR_TEXSMASK, code);
	in->refs[d].count = (uint8_t)(n < 2 ? n : 2);
	if (n <= 2 && d2 >= 0) {
		memmove(&in->refs[d2], &in->refs[d2 + 1], (in->nrefs - (unsigned)d2 - 1) * sizeof in->refs[0]);
		in->nrefs--;
		linsn_set(in, SR_RD2, 255);
	}
	return true;
}

/* ---- compact forms rewritten as general ones ---- */

/* Inserts the n instructions of `ins` before k's instruction i (labels
 * on i stay on the first of them). */
static void insert_before(LKernel *k, size_t i, const LInsn *ins, size_t n)
{
	for (size_t j = 0; j < n; j++)
		lkernel_append(k, SF_MOV_R, k->insns[i].loc);
	memmove(&k->insns[i + n], &k->insns[i], (k->ninsns - n - i) * sizeof *k->insns);
	memcpy(&k->insns[i], ins, n * sizeof *ins);
	for (size_t l = 0; l < k->nlabels; l++)
		if (k->label_pos[l] > i)
			k->label_pos[l] += n;
}

static LInsn copy_insn(const LInsn *at, uint32_t dst, unsigned dsub, uint32_t src, unsigned ssub)
{
	LInsn mov;
	memset(&mov, 0, sizeof mov);
	mov.form = &sass_forms[SF_MOV_R];
	mov.target = LIR_NO_LABEL;
	mov.loc = at->loc;
	linsn_ref(&mov, SR_RD, dst, dsub, 1, true);
	linsn_ref(&mov, SR_RB, src, ssub, 1, false);
	return mov;
}

/* TEXS/TLDS/TLD4S i as TEX/TLD/TLD4 writing the components in `live`:
 * the source values (Ra's parts, then Rb's) copied into Ra = the array
 * index and coordinates, Rb = the level or sample index; the components
 * into a fresh group, their readers renumbered. */
static void to_general(LKernel *k, size_t i)
{
	LInsn in = k->insns[i];
	unsigned live = in.tex_general;
	SassOp op = in.form->op;
	const SassTexsTarget *tg = op == SOP_TLD4S ? NULL : sass_texs_target(op, linsn_get(&in, SR_TEXSTARGET, 0));
	int geom = tg ? tg->geom : 2, lod = tg ? tg->lod : 0;
	int d = ref_of(&in, SR_RD), d2 = ref_of(&in, SR_RD2);
	unsigned mask = op == SOP_TLD4S ? (d2 >= 0 ? 0xf : 0x3) : sass_texs_mask(linsn_get(&in, SR_TEXSMASK, -1), d2 >= 0);
	Place old[4], v[4];
	places(&in, true, mask, d, d2, old);
	unsigned n = 0;
	static const SassRole src_roles[] = { SR_RA, SR_RB };
	for (unsigned s = 0; s < 2; s++)
		for (unsigned r = 0; r < in.nrefs; r++)
			if (in.refs[r].role == src_roles[s] && !in.refs[r].def)
				for (unsigned p = 0; p < in.refs[r].count && n < 4; p++)
					v[n++] = (Place){ in.refs[r].vreg, in.refs[r].sub + p };
	unsigned na = (geom & 1) + (geom >= 4 ? 3 : geom >= 2 ? 2 : 1), nb = n > na ? n - na : 0;
	uint32_t ra = lkernel_new_vreg(k, LRC_GPR, na == 3 ? 4 : na, true);
	uint32_t rb = nb ? lkernel_new_vreg(k, LRC_GPR, nb, true) : 0;
	unsigned ncomp = popcount4(live);
	uint32_t rd = lkernel_new_vreg(k, LRC_GPR, ncomp == 3 ? 4 : ncomp, true);
	LInsn movs[4];
	for (unsigned j = 0; j < n; j++)
		movs[j] = copy_insn(&in, j < na ? ra : rb, j < na ? j : j - na, v[j].vreg, v[j].sub);
	LInsn g = in;
	g.form = &sass_forms[op == SOP_TEXS ? SF_TEX : op == SOP_TLDS ? SF_TLD : SF_TLD4];
	g.set = 0;
	g.stray = 0;
	g.nrefs = 0;
	g.tex_general = 0;
	memset(g.val, 0, sizeof g.val);
	static const SassRole zero[] = { SR_AOFFI, SR_DC, SR_NODEP, SR_NDV, SR_MS, SR_CL, SR_GATHER, SR_TEXLOD };
	for (size_t z = 0; z < sizeof zero / sizeof zero[0]; z++)
		if (sass_form_field(g.form, zero[z]))
			linsn_set(&g, zero[z], 0);
	/* the index, guard, gather component and flags the forms share */
	for (unsigned f = 0; f < in.form->nfields; f++) {
		SassRole role = in.form->fields[f].role;
		if ((in.set >> f & 1) && sass_form_field(g.form, role) && role != SR_RA && role != SR_RB &&
		    role != SR_RD)
			linsn_set(&g, role, in.val[f]);
	}
	for (unsigned r = 0; r < in.nrefs; r++)
		if (in.refs[r].role != SR_RA && in.refs[r].role != SR_RB && in.refs[r].role != SR_RD &&
		    in.refs[r].role != SR_RD2)
			g.refs[g.nrefs++] = in.refs[r];
	linsn_set(&g, SR_GEOM, geom);
	linsn_set(&g, SR_QMASK, live);
	if (op == SOP_TLDS)
		linsn_set(&g, SR_TEXLOD, lod == 3);     /* TLD: .LZ 0, .LL 1 */
	else if (op == SOP_TEXS)
		linsn_set(&g, SR_TEXLOD, lod);
	if (tg && tg->ms)
		linsn_set(&g, SR_MS, 1);
	if (tg && tg->aoffi)
		linsn_set(&g, SR_AOFFI, 1);   /* the offsets word stays after the coordinates */
	if (tg && tg->dc)
		linsn_set(&g, SR_DC, 1);      /* the reference stays after the offsets */
	linsn_ref(&g, SR_RA, ra, 0, na, false);
	if (nb)
		linsn_ref(&g, SR_RB, rb, 0, nb, false);
	else
		linsn_set(&g, SR_RB, 255);
	linsn_ref(&g, SR_RD, rd, 0, ncomp, true);
	for (size_t j = 0; j < k->ninsns; j++)
		for (unsigned r = 0; j != i && r < k->insns[j].nrefs; r++) {
			LRegRef *ref = &k->insns[j].refs[r];
			for (unsigned c = 0, rank = 0; c < 4; c++) {
				if (!(live >> c & 1))
					continue;
				if (ref->vreg == old[c].vreg && ref->sub == old[c].sub) {
					ref->vreg = rd;
					ref->sub = (uint8_t)rank;
					break;
				}
				rank++;
			}
		}
	k->insns[i] = g;
	insert_before(k, i, movs, n);
}

bool tex_general(LKernel *k)
{
	bool any = false;
	for (size_t i = k->ninsns; i-- > 0;)
		if (k->insns[i].tex_general) {
			to_general(k, i);
			any = true;
		}
	return any;
}
