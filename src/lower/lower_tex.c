/* tex / tld4 / txq -> TEX, TLD, TLD4, TXQ (issue 17), in unified texture
 * mode, with the operand layout ptxas 11.8 uses for sm_50:
 *  - the texture: a module .global .texref is bound, its header index in a
 *    c[0x0] slot after the parameters (as a bound surfref; the slot is
 *    relocated with R_CUDA_TEX_HEADER_INDEX) and named by the immediate; a
 *    .u64 register that only ever holds a kernel parameter names that
 *    parameter's c[0x0] word (ptxas -O3 does the same); any other .u64
 *    register is a bindless handle: the .B form, the handle first in Rb;
 *  - Ra: the array index (I2I.U16.U32.SAT, as ptxas clamps it), then the
 *    coordinates; Rb: handle, then the level of tex.level (.LL), RZ when
 *    there is neither;
 *  - float coordinates sample (TEX, TLD4), integer coordinates fetch texels
 *    (TLD.LZ, TLD.LL with a level) -- with an independent-mode sampler they
 *    are converted and sampled, as ptxas does;
 *  - Rb after the level: the offsets word e, then the depth reference f
 *    (.DC);
 *  - the four components land in a group of four (write mask 0xf) and are
 *    copied to the destination vector.
 * txq.width/.height/.depth are TXQ queries of the level-0 dimensions, the
 * other txq queries loads from the driver's texture descriptor table. */
#include "lower/lower_internal.h"

#include <string.h>

/* A PTX texture geometry: SASS geometry code, coordinates, array index. */
typedef struct TexGeom {
	const char *word;
	int sass;
	unsigned ncoords;
	bool arrayed;
	bool ms;          /* multisample: the sample index comes first, goes to Rb */
} TexGeom;

static const TexGeom geoms[] = {
	{ ".1d", 0, 1, false, false }, { ".2d", 2, 2, false, false }, { ".3d", 4, 3, false, false },
	{ ".a1d", 1, 1, true, false }, { ".a2d", 3, 2, true, false },
	{ ".cube", 6, 3, false, false }, { ".acube", 7, 3, true, false },
	{ ".2dms", 2, 2, false, true }, { ".a2dms", 3, 2, true, true },
};
enum { GEOM_3D = 4, GEOM_CUBE = 6, GEOM_ARRAY_CUBE = 7 };

enum {
	TEX_LOD_NONE = 0, TEX_LOD_LZ = 1, TEX_LOD_LL = 3,   /* TEX level-of-detail modes */
	TEXS_MASK_RGBA = 4,                 /* TEXS/TLDS mask code of four components (sass_texs_mask) */
	TLD_LZ = 0, TLD_LL = 1,             /* TLD */
	I2I_U16 = 2, I2I_U32 = 4,
	MUFU_RCP = 4, PT = 7,
	RZ = 255,
};

typedef struct TexMods {
	const TexGeom *geom;
	bool level, grad;
	int gather;          /* tld4 component, -1 none */
	PtxTy dtype, ctype;  /* element and coordinate types */
	unsigned ntypes;
	bool v4;
	const char *query;   /* txq */
} TexMods;

static bool parse_mods(LowerCtx *c, const Instr *in, TexMods *m)
{
	memset(m, 0, sizeof *m);
	m->gather = -1;
	bool is_tld4 = lw_streq(in->opcode, "tld4"), is_txq = lw_streq(in->opcode, "txq");
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		bool known = false;
		for (size_t j = 0; j < sizeof geoms / sizeof geoms[0]; j++)
			if (lw_streq(w, geoms[j].word)) {
				m->geom = &geoms[j];
				known = true;
			}
		if (is_tld4 && w[0] == '.' && w[1] && strchr("rgba", w[1]) && w[2] == '\0') {
			m->gather = (int)(strchr("rgba", w[1]) - "rgba");
			known = true;
		} else if (lw_streq(w, ".level") && !is_txq) {
			m->level = known = true;
		} else if (lw_streq(w, ".grad") && !is_txq && !is_tld4) {
			m->grad = known = true;
		} else if (lw_streq(w, ".v4")) {
			m->v4 = known = true;
		} else if (ptx_type_of_word(w).bits) {
			if (m->ntypes == 0)
				m->dtype = ptx_type_of_word(w);
			else
				m->ctype = ptx_type_of_word(w);
			m->ntypes++;
			known = true;
		} else if (is_txq && !known && m->query == NULL) {
			m->query = w;
			known = true;
		}
		if (!known)
			return lw_unsupported(c, in->mod_locs[i], "%s modifier '%s'", in->opcode, w);
	}
	if (is_txq)
		return true;
	if (m->geom == NULL)
		return lw_unsupported(c, in->loc, "%s without a geometry", in->opcode);
	if (!m->v4 || m->ntypes != 2 || m->dtype.bits != 32 || m->ctype.bits != 32)
		return lw_unsupported(c, in->loc, "%s other than .v4 with 32-bit element and coordinate types",
		                      in->opcode);
	if (m->geom->ms && (is_tld4 || m->ctype.is_float || m->level || m->grad))
		return lw_unsupported(c, in->loc, "%s of a multisample texture other than a texel fetch "
		                      "(tex.2dms/.a2dms with .s32 coordinates)", in->opcode);
	if (m->geom->sass >= GEOM_CUBE && !m->ctype.is_float)
		return lw_unsupported(c, in->loc, "%s of a cube map with integer coordinates", in->opcode);
	if (m->grad && (m->geom->arrayed || m->geom->ncoords > 2 || !m->ctype.is_float))
		return lw_unsupported(c, in->loc, "tex.grad other than .1d/.2d with .f32 coordinates");
	/* TLD4 gathers from a 2D image: .2d, .a2d, .cube, .acube */
	if (is_tld4 && (m->gather < 0 || !m->ctype.is_float || m->geom->ncoords == 1 || m->geom->sass == GEOM_3D))
		return lw_unsupported(c, in->loc, "tld4 other than .r/.g/.b/.a with .2d/.a2d/.cube/.acube "
		                      "and .f32 coordinates");
	return true;
}

/* Where the texture header comes from. */
typedef struct TexRef {
	bool bindless;
	uint32_t idx;       /* bound: c[0x0] word index */
	uint32_t handle;    /* bindless: the .u64 register (part 0 = header index) */
} TexRef;

/* sampler: the .param .samplerref of tex/tld4 [texture, sampler, coords],
 * NULL otherwise (a txq takes the sampler its texture is first sampled with). */
static bool texture_ref(LowerCtx *c, const Expr *t, const Expr *sampler, TexRef *r)
{
	memset(r, 0, sizeof *r);
	if (t->kind != EX_NAME)
		return lw_unsupported(c, t->loc, "this texture operand");
	if (sampler && (sampler->kind != EX_NAME || lw_ref_param(c, sampler->text) != LPARAM_SAMPLERREF))
		return lw_unsupported(c, sampler->loc, "a separate sampler other than a .param .samplerref");
	int space = lw_ref_param(c, t->text);
	if (space == LPARAM_TEXREF) {
		const char *smp = sampler ? sampler->text : lw_texture_sampler(c, t->text);
		r->idx = lw_handle_slot(c, t->text, smp) / 4;
		c->k->uses_textures = true;
		return true;
	}
	if (space)
		return lw_unsupported(c, t->loc, "a .param .%s as a texture",
		                      space == LPARAM_SURFREF ? "surfref" : "samplerref");
	if (sampler)
		return lw_unsupported(c, sampler->loc, "a separate sampler of a texture that is not a .param .texref");
	const LMapEntry *m = lmap_find(&c->module_surfrefs, t->text);
	if (m && m->extra == LHANDLE_TEXTURE) {
		r->idx = lw_bound_slot(c, t->text) / 4;
		c->k->uses_textures = true;
		return true;
	}
	if (m)
		return lw_unsupported(c, t->loc, "a .surfref as a texture");
	const LMapEntry *p = lmap_find(&c->param_handles, t->text);
	if (p) {
		r->idx = (SASS_PARAM_CBANK_BASE + (uint32_t)p->value) / 4;
		return true;
	}
	unsigned w;
	if (!lw_reg(c, t, &r->handle, &w))
		return false;
	if (w != 2)
		return lw_unsupported(c, t->loc, "a texture handle that is not a .u64/.b64 register");
	r->bindless = true;
	return true;
}

/* Where one source value of a texture instruction goes: a part of a group. */
typedef struct TexSlot {
	uint32_t vreg;
	unsigned sub;
} TexSlot;

/* A cube map's direction, in slots d[0..2], scaled as ptxas 11.8 does
 * before sampling: divided by its largest magnitude (FMNMX |x|, |y|;
 * FMNMX with |z|; MUFU.RCP; three FMULs), so that the major axis is +-1
 * and the other two select the texel of that face. */
static void cube_direction(LowerCtx *c, const TexSlot d[3])
{
	uint32_t t = lw_temp(c, 1);
	for (unsigned i = 0; i < 2; i++) {
		LInsn *mx = lw_emit(c, SF_FMNMX_R);
		linsn_ref(mx, SR_RD, t, 0, 1, true);
		if (i == 0)
			linsn_ref(mx, SR_RA, d[0].vreg, d[0].sub, 1, false);
		else
			linsn_ref(mx, SR_RA, t, 0, 1, false);
		linsn_ref(mx, SR_RB, d[1 + i].vreg, d[1 + i].sub, 1, false);
		linsn_set(mx, SR_ABSA, i == 0);
		linsn_set(mx, SR_ABSB, 1);
		linsn_set(mx, SR_PC, PT);
		linsn_set(mx, SR_PC_NOT, 1);   /* !PT: the maximum */
	}
	LInsn *rcp = lw_emit(c, SF_MUFU);
	linsn_ref(rcp, SR_RD, t, 0, 1, true);
	linsn_ref(rcp, SR_RA, t, 0, 1, false);
	linsn_set(rcp, SR_MUFUOP, MUFU_RCP);
	for (unsigned i = 0; i < 3; i++) {
		LInsn *mul = lw_emit(c, SF_FMUL_R);
		linsn_ref(mul, SR_RD, d[i].vreg, d[i].sub, 1, true);
		linsn_ref(mul, SR_RA, d[i].vreg, d[i].sub, 1, false);
		linsn_ref(mul, SR_RB, t, 0, 1, false);
	}
}

/* One source value into its slot: an immediate, the array index (clamped
 * to 16 bits, I2I.U16.U32.SAT, as ptxas), or a copy; to_float: an
 * integer coordinate converted (I2F.F32.S32) to be sampled. e NULL: 0 (the
 * y of a 1D lookup ptxas samples as 2D). */
enum { I2F_F32 = 2, I2F_S32 = 5 };

static bool put_value(LowerCtx *c, const Expr *e, TexSlot s, bool layer, bool to_float)
{
	if (e == NULL) {
		lw_mov32i(c, s.vreg, s.sub, 0);
		return true;
	}
	Opnd o;
	memset(&o, 0, sizeof o);
	if (!lw_opnd(c, e, &o))
		return false;
	if (o.kind == OPND_REG && o.width != 1)
		return lw_unsupported(c, e->loc, "a 64-bit texture coordinate");
	if (o.kind == OPND_IMM && to_float) {
		float f = (float)(int32_t)o.imm;
		uint32_t bits;
		memcpy(&bits, &f, 4);
		lw_mov32i(c, s.vreg, s.sub, bits);
	} else if (o.kind == OPND_IMM) {
		lw_mov32i(c, s.vreg, s.sub, (uint32_t)o.imm);
	} else if (to_float) {
		LInsn *cv = lw_emit(c, SF_I2F_R);
		linsn_ref(cv, SR_RD, s.vreg, s.sub, 1, true);
		linsn_ref(cv, SR_RB, o.vreg, 0, 1, false);
		linsn_set(cv, SR_DTYPE, I2F_F32);
		linsn_set(cv, SR_STYPE, I2F_S32);
	} else if (layer) {
		LInsn *cv = lw_emit(c, SF_I2I_R);
		linsn_ref(cv, SR_RD, s.vreg, s.sub, 1, true);
		linsn_ref(cv, SR_RB, o.vreg, 0, 1, false);
		linsn_set(cv, SR_DTYPE, I2I_U16);
		linsn_set(cv, SR_STYPE, I2I_U32);
		linsn_set(cv, SR_SAT, 1);
	} else {
		lw_mov(c, s.vreg, s.sub, o.vreg, 0);
	}
	return true;
}

/* The four destination registers of a .v4 result. */
static bool destinations(LowerCtx *c, const Expr *de, uint32_t d[4])
{
	if (de->kind != EX_VECTOR || de->nelems != 4)
		return lw_unsupported(c, de->loc, "this texture destination (expected a vector of four)");
	for (unsigned i = 0; i < 4; i++) {
		unsigned w;
		if (!lw_reg(c, de->elems[i], &d[i], &w))
			return false;
	}
	return true;
}

/* Every field of a TEX/TLD/TLD4 form the lowering does not choose. */
static void set_defaults(const LowerCtx *c, LInsn *in, const TexRef *r, int geom)
{
	const SassForm *f = in->form;
	static const SassRole zero[] = { SR_TEXLOD, SR_AOFFI, SR_DC, SR_NODEP, SR_NDV, SR_MS, SR_CL, SR_GATHER };
	for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++)
		if (sass_form_field(f, zero[i]))
			linsn_set(in, zero[i], 0);
	if (!r->bindless)
		lw_set_handle_word(c, in, SR_SUIDX, r->idx);
	if (sass_form_field(f, SR_GEOM)) {
		linsn_set(in, SR_GEOM, geom);
		linsn_set(in, SR_QMASK, 0xf);
	}
}

/* tex.grad: TXD, Ra = (the bindless handle,) the coordinates; Rb = the
 * derivatives, coordinate by coordinate: dPdx.x, dPdy.x, dPdx.y, dPdy.y
 * (ptxas 11.8, measured with distinct values). In unified texture mode a
 * 1D texture is sampled as 2D, as by tex: y, dPdx.y and dPdy.y are 0. */
static bool lower_grad(LowerCtx *c, const Instr *in, const TexMods *m, const TexRef *r, const uint32_t d[4],
                       const Expr *coords, const Expr *offs)
{
	unsigned n = m->geom->ncoords;
	int geom = m->geom->sass;
	if (geom == 0 && !c->lm->texmode_independent) {
		geom = 2;
		n = 2;
	}
	unsigned nra = n + r->bindless + (offs != NULL);
	uint32_t ra = lw_temp(c, nra == 3 ? 4 : nra), rb = lw_temp(c, 2 * n);
	if (r->bindless)
		lw_mov(c, ra, 0, r->handle, 0);
	const Expr *groups[3] = { coords, in->ops[2], in->ops[3] };
	for (unsigned g = 0; g < 3; g++) {
		const Expr *e = groups[g];
		const Expr *const *elems = (const Expr *const *)&e;
		unsigned ne = 1;
		if (e->kind == EX_VECTOR) {
			elems = (const Expr *const *)e->elems;
			ne = e->nelems;
		}
		if (ne < m->geom->ncoords)
			return lw_unsupported(c, e->loc, "a vector with %u elements", ne);
		for (unsigned i = 0; i < n; i++) {
			TexSlot s = g == 0 ? (TexSlot){ ra, r->bindless + i } : (TexSlot){ rb, 2 * i + (g - 1) };
			if (!put_value(c, i < m->geom->ncoords ? elems[i] : NULL, s, false, false))
				return false;
		}
	}
	/* the offsets word after the coordinates in Ra, its fields at bit 16 */
	if (offs && !lw_tex_offset_word(c, offs, m->geom->ncoords, 4, true, ra, r->bindless + n))
		return false;
	uint32_t res = lw_temp(c, 4);
	LInsn *t = lw_emit(c, r->bindless ? SF_TXD_B : SF_TXD);
	t->tex_result = true;
	set_defaults(c, t, r, geom);
	if (offs)
		linsn_set(t, SR_AOFFI, 1);
	linsn_ref(t, SR_RA, ra, 0, nra, false);
	linsn_ref(t, SR_RB, rb, 0, 2 * n, false);
	linsn_ref(t, SR_RD, res, 0, 4, true);
	for (unsigned i = 0; i < 4; i++)
		lw_mov(c, d[i], 0, res, i);
	return true;
}

/* The compact form ptxas 11.8 -O3 writes instead of TEX/TLD/TLD4, or
 * SF_COUNT: TEXS/TLDS when their target table (sass_texs_target) has the
 * geometry and mode, TLD4S for a 2D gather; never for a bindless handle
 * (they have no .B form) nor for TLD.LL, which ptxas marks .CL (clamp
 * the level), a bit TLDS does not have. Measured over every geometry,
 * mode and handle kind (docs/encoding.md). *target: the target code. */
static SassFormId compact_form(bool gather, bool fetch, int geom, int lod, bool ms, bool aoffi, bool dc,
                               const TexRef *r, int64_t *target)
{
	*target = 0;
	if (r->bindless)
		return SF_COUNT;
	if (gather)
		return geom == 2 ? SF_TLD4S : SF_COUNT;
	if (fetch && lod == TEX_LOD_LL)
		return SF_COUNT;
	SassOp op = fetch ? SOP_TLDS : SOP_TEXS;
	for (int64_t t = 0; t < 16; t++) {
		const SassTexsTarget *tg = sass_texs_target(op, t);
		if (tg && tg->geom == geom && tg->lod == lod && tg->dc == dc && tg->aoffi == aoffi && tg->ms == ms) {
			*target = t;
			return fetch ? SF_TLDS : SF_TEXS;
		}
	}
	return SF_COUNT;
}

/* The slots of the n source values of a compact form (the array index,
 * the coordinates, then the level or sample index), as ptxas lays them
 * out: one each in Ra and Rb up to two; from three on the pair Ra, Ra+1
 * then Rb (and Rb+1); TLDS ARRAY_2D has the layer alone in Ra and x, y in
 * the pair Rb. nb 0: Rb is RZ. */
static void compact_slots(LowerCtx *c, unsigned n, bool tlds_array, TexSlot *slot, uint32_t *ra, unsigned *na,
                          uint32_t *rb, unsigned *nb)
{
	*na = tlds_array || n <= 2 ? 1 : 2;
	*nb = n - *na;
	*ra = lw_temp(c, *na);
	*rb = *nb ? lw_temp(c, *nb) : 0;
	for (unsigned i = 0; i < n; i++)
		slot[i] = i < *na ? (TexSlot){ *ra, i } : (TexSlot){ *rb, i - *na };
}

/* Whether a scalar right after the coordinates is the depth reference.
 * ptxas 11.8 (measured; check_tex_offsets.c has the checker's side):
 * an .f32 or .b32 register or a float constant is, with float
 * coordinates; an integer register or constant, and anything with integer
 * coordinates, is taken and ignored, and so is any operand after such a
 * scalar (strict mode refuses all of these). */
static bool scalar_is_depth(LowerCtx *c, const Expr *x, bool float_coords)
{
	const Expr *v = x->kind == EX_UNARY && x->lhs ? x->lhs : x;
	if (!float_coords)
		return false;
	if (v->kind == EX_FLOAT)
		return true;
	PtxTy ty;
	return x->kind == EX_NAME && lw_reg_type(c, x, &ty) && (ty.is_float || ty.is_bits);
}

/* tex and tld4 share everything but the form. */
static bool lower_sample(LowerCtx *c, const Instr *in, bool gather)
{
	TexMods m;
	if (!parse_mods(c, in, &m))
		return false;
	/* after the fixed operands PTX allows the offsets e (a vector) and
	 * the depth reference f */
	unsigned nfixed = 2u + m.level + 2u * m.grad;
	const Expr *offs = NULL, *dref = NULL;
	if (in->nops > nfixed + 2)
		return lw_unsupported(c, in->ops[nfixed + 2]->loc, "%s operand after the offsets and the depth "
		                      "reference", in->opcode);
	if (in->nops > nfixed) {
		const Expr *e = in->ops[nfixed];
		if (e->kind == EX_VECTOR) {
			offs = e;
			if (in->nops == nfixed + 2)
				dref = in->ops[nfixed + 1];
		} else if (scalar_is_depth(c, e, m.ctype.is_float)) {
			dref = e;
		}
	}
	if (dref && dref->kind == EX_VECTOR)
		return lw_unsupported(c, dref->loc, "a depth reference that is a vector (expected one .f32 value)");
	if (dref && (m.grad || m.geom->ms || !m.ctype.is_float))
		return lw_unsupported(c, dref->loc, "a depth reference of %s", m.grad ? "tex.grad" :
		                      m.geom->ms ? "a multisample texture" : "a texel fetch (integer coordinates)");
	if (offs && (m.geom->sass >= GEOM_CUBE))
		return lw_unsupported(c, offs->loc, "texture offsets of a cube map");
	const Expr *a = in->ops[1];
	if (a->kind != EX_ADDRESS || (a->nelems != 2 && a->nelems != 3))
		return lw_unsupported(c, a->loc, "this texture address");
	/* [texture, coordinates] or, texmode_independent, [texture, sampler, coordinates] */
	const Expr *sampler = a->nelems == 3 ? a->elems[1] : NULL, *coords = a->elems[a->nelems - 1];
	TexRef r;
	uint32_t d[4];
	if (!texture_ref(c, a->elems[0], sampler, &r) || !destinations(c, in->ops[0], d))
		return false;
	if (m.grad)
		return lower_grad(c, in, &m, &r, d, coords, offs);
	const Expr *const *elems = (const Expr *const *)&coords;
	unsigned nelems = 1;
	if (coords->kind == EX_VECTOR) {
		elems = (const Expr *const *)coords->elems;
		nelems = coords->nelems;
	}
	unsigned need = m.geom->ncoords + m.geom->arrayed;
	if (nelems < need + m.geom->ms)
		return lw_unsupported(c, coords->loc, "a coordinate vector with %u elements", nelems);
	/* texmode independent: the sampler applies to integer coordinates
	 * too; ptxas 11.8 (-O0, -O3) converts them (I2F.F32.S32) and samples
	 * level 0 (TEXS.LZ, TEX.LZ ARRAY_1D, TEX.LZ.AOFFI), but fetches 1D
	 * (TLDS.LZ) and tex.level (TLD.LL.CL) */
	bool to_float = !gather && !m.ctype.is_float && sampler && m.geom->sass != 0 && !m.level && !m.geom->ms;
	bool fetch = !gather && !m.ctype.is_float && !to_float;
	/* the source values in order: the array index, the coordinates (a
	 * multisample texture's sample index comes first in PTX), the level,
	 * the sample index; NULL is a 0. In unified texture mode ptxas samples
	 * a 1D texture with float coordinates as 2D at y = 0 (in independent
	 * mode as 1D), and it takes tex.level of an immediate 0 as .LZ */
	const Expr *vals[6];
	unsigned n = 0;
	for (unsigned i = 0; i < need; i++)
		vals[n++] = elems[m.geom->ms + i];
	int geom = m.geom->sass;
	/* ptxas -O3 folds a fetch coordinate base + imm (-8..7) into the
	 * offsets word, 4 bits a coordinate (lower_tex_offsets.c): 2D,
	 * ARRAY_2D and 3D fetches, bound or bindless (measured; not 1D); not
	 * beside PTX's explicit offsets */
	uint32_t offsets = 0;
	bool aoffi = false;
	for (unsigned i = 0; !offs && fetch && geom >= 2 && geom <= GEOM_3D && i < m.geom->ncoords; i++) {
		const LTexFold *f = lw_tex_fold(c, in, m.geom->ms + m.geom->arrayed + i);
		if (f) {
			vals[m.geom->arrayed + i] = f->base;
			offsets |= ((uint32_t)f->imm & 0xf) << (4 * i);
			aoffi = true;
		}
	}
	if (geom == 0 && !fetch && !c->lm->texmode_independent) {
		geom = 2;
		vals[n++] = NULL;
	}
	unsigned ncoords = n - m.geom->arrayed;
	int lod = fetch ? (m.level ? TEX_LOD_LL : TEX_LOD_LZ) : to_float ? TEX_LOD_LZ : TEX_LOD_NONE;
	if (m.level) {
		Opnd lo;
		memset(&lo, 0, sizeof lo);
		if (!lw_opnd(c, in->ops[2], &lo))
			return false;
		lod = !fetch && lo.kind == OPND_IMM && lo.imm == 0 ? TEX_LOD_LZ : TEX_LOD_LL;
		if (lod == TEX_LOD_LL)
			vals[n++] = in->ops[2];
	}
	aoffi |= offs != NULL;
	unsigned offsets_at = aoffi ? n : 6;   /* the offsets word: after the level */
	if (aoffi)
		vals[n++] = NULL;
	if (dref)                              /* the depth reference: after the offsets */
		vals[n++] = dref;
	if (m.geom->ms)
		vals[n++] = elems[0];
	int64_t target;
	SassFormId form = compact_form(gather, fetch, geom, lod, m.geom->ms, aoffi, dref != NULL, &r, &target);
	bool compact = form != SF_COUNT;
	/* the slots: compact (compact_slots) or Ra = the array index and
	 * coordinates (a group of four for three), Rb = the handle, the level,
	 * the sample index */
	TexSlot slot[6];
	uint32_t ra, rb = 0;
	unsigned na, nb;
	if (compact) {
		compact_slots(c, n, form == SF_TLDS && geom == 3, slot, &ra, &na, &rb, &nb);
	} else {
		na = m.geom->arrayed + ncoords;
		nb = r.bindless + (n - na);
		ra = lw_temp(c, na == 3 ? 4 : na);
		rb = nb ? lw_temp(c, nb) : 0;
		for (unsigned i = 0; i < n; i++)
			slot[i] = i < na ? (TexSlot){ ra, i } : (TexSlot){ rb, r.bindless + i - na };
	}
	for (unsigned i = 0; i < n; i++)
		if (i == offsets_at && offs) {
			if (!lw_tex_offset_word(c, offs, m.geom->ncoords, gather ? 6 : 4, false, slot[i].vreg, slot[i].sub))
				return false;
		} else if (i == offsets_at)
			lw_mov32i(c, slot[i].vreg, slot[i].sub, offsets);
		else if (!put_value(c, vals[i], slot[i], i == 0 && m.geom->arrayed,
		                    to_float && i >= m.geom->arrayed && i < m.geom->arrayed + ncoords))
			return false;
	if (geom >= GEOM_CUBE)
		cube_direction(c, &slot[m.geom->arrayed]);
	if (r.bindless)
		lw_mov(c, rb, 0, r.handle, 0);
	if (!compact)
		form = gather ? (r.bindless ? SF_TLD4_B : SF_TLD4) :
		       fetch ? (r.bindless ? SF_TLD_B : SF_TLD) : (r.bindless ? SF_TEX_B : SF_TEX);
	LInsn *t = lw_emit(c, form);
	t->tex_result = true;
	set_defaults(c, t, &r, geom);
	linsn_ref(t, SR_RA, ra, 0, na, false);
	if (nb)
		linsn_ref(t, SR_RB, rb, 0, nb, false);
	else
		linsn_set(t, SR_RB, RZ);
	/* the four components: a group of four, or (compact) two pairs */
	uint32_t res = lw_temp(c, compact ? 2 : 4), res2 = compact ? lw_temp(c, 2) : 0;
	linsn_ref(t, SR_RD, res, 0, compact ? 2 : 4, true);
	if (compact) {
		linsn_ref(t, SR_RD2, res2, 0, 2, true);
		if (form != SF_TLD4S) {
			linsn_set(t, SR_TEXSTARGET, target);
			linsn_set(t, SR_TEXSMASK, TEXS_MASK_RGBA);
		}
	}
	if (gather)
		linsn_set(t, SR_GATHER, m.gather);
	else if (!compact && fetch)
		linsn_set(t, SR_TEXLOD, lod == TEX_LOD_LL ? TLD_LL : TLD_LZ);
	else if (!compact)
		linsn_set(t, SR_TEXLOD, lod);
	/* ptxas marks its TLD.LL .CL: the level clamped to the texture's */
	if (!compact && fetch && lod == TEX_LOD_LL)
		linsn_set(t, SR_CL, 1);
	if (!compact && fetch && m.geom->ms)
		linsn_set(t, SR_MS, 1);
	if ((!compact || form == SF_TLD4S) && aoffi)
		linsn_set(t, SR_AOFFI, 1);
	if (dref && sass_form_field(t->form, SR_DC))   /* TEXS: the target names .DC */
		linsn_set(t, SR_DC, 1);
	for (unsigned i = 0; i < 4; i++)
		lw_mov(c, d[i], 0, compact && i >= 2 ? res2 : res, compact ? i % 2 : i);
	return true;
}

bool lower_tex(LowerCtx *c, const Instr *in)
{
	return lower_sample(c, in, false);
}

bool lower_tld4(LowerCtx *c, const Instr *in)
{
	return lower_sample(c, in, true);
}

/* txq queries ptxas 11.8 answers from the texture descriptor table the
 * driver keeps at c[0x0][0xb0] (one .nv.unified.texrefDescSize-byte entry
 * per header index): the field's byte offset in an entry. */
static const struct { const char *word; uint32_t field; } desc_queries[] = {
	{ ".addr_mode_0", 0x0c }, { ".addr_mode_1", 0x10 }, { ".addr_mode_2", 0x14 },
	{ ".filter_mode", 0x18 }, { ".normalized_coords", 0x1c }, { ".channel_data_type", 0x20 },
	{ ".channel_order", 0x24 }, { ".array_size", 0x28 }, { ".num_mipmap_levels", 0x2c },
	{ ".num_samples", 0x30 }, { ".force_unnormalized_coords", 0x00 },
};
enum { TEX_DESC_TABLE_CWORD = 0xb0 };

/* txq.width/.height/.depth: TXQ's level-0 dimension query, one component
 * (x, y, z) of its mask; the other queries: a descriptor-table lookup. */
bool lower_txq(LowerCtx *c, const Instr *in)
{
	TexMods m;
	if (!parse_mods(c, in, &m))
		return false;
	static const struct { const char *word; unsigned mask; } queries[] = {
		{ ".width", 0x1 }, { ".height", 0x2 }, { ".depth", 0x4 },
	};
	unsigned mask = 0;
	int64_t field = -1;
	for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++)
		if (m.query && lw_streq(m.query, queries[i].word))
			mask = queries[i].mask;
	for (size_t i = 0; i < sizeof desc_queries / sizeof desc_queries[0]; i++)
		if (m.query && lw_streq(m.query, desc_queries[i].word))
			field = desc_queries[i].field;
	if (mask == 0 && field < 0)
		return lw_unsupported(c, in->loc, "txq%s", m.query ? m.query : " without a query");
	const Expr *a = in->ops[1];
	if (in->nops != 2 || a->kind != EX_ADDRESS || a->nelems != 1)
		return lw_unsupported(c, in->loc, "this txq operand (expected [texture])");
	/* ptxas 11.8 takes this sampler query only through a .u64 handle
	 * ("Argument 1 of instruction 'txq': .samplerref expected" for a
	 * .texref), and sm_50's unified mode has no .samplerref to name */
	const Expr *t = a->elems[0];
	const LMapEntry *bound = t->kind == EX_NAME ? lmap_find(&c->module_surfrefs, t->text) : NULL;
	if (lw_streq(m.query, ".force_unnormalized_coords") && t->kind == EX_NAME &&
	    (lw_ref_param(c, t->text) || bound))
		return lw_unsupported(c, t->loc, "txq.force_unnormalized_coords of a .texref or .samplerref name "
		                      "(ptxas 11.8 takes it of a .u64 texture handle)");
	TexRef r;
	uint32_t d;
	unsigned dw;
	if (!texture_ref(c, t, NULL, &r) || !lw_reg(c, in->ops[0], &d, &dw))
		return false;
	LDescLookup dl = { .immediate = !r.bindless, .idx = r.idx, .vreg = r.handle,
	                   .table_cword = TEX_DESC_TABLE_CWORD, .field = (uint32_t)field, .texture = true };
	if (field >= 0)
		return lw_desc_lookup(c, &dl, d);
	lw_txq_dimension(c, &dl, d, mask);
	return true;
}
