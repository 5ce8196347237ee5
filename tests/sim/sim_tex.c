/* The texture model (issue 17): TEX, TLD and TLD4 and their .B forms on
 * the simulator's RGBA32 surfaces (sim.h: a texture is the region whose
 * header index a bound slot or a bindless handle names, as for surfaces),
 * with the sampler state of a texref's defaults: unnormalised coordinates,
 * nearest-texel (point) sampling, clamp to the edge, one mip level.
 *  - TLD: integer texel coordinates, clamped;
 *  - TEX: float coordinates, texel floor(c) clamped (a NaN reads texel 0);
 *    .LZ/.LL levels read level 0, the only one;
 *  - TXD: as TEX (the derivatives select a level; there is one); TXD.B
 *    has its handle first in Ra;
 *  - TLD4: the 2x2 footprint of (x - 0.5, y - 0.5) as gather returns it:
 *    (x0, y1), (x1, y1), (x1, y0), (x0, y0), component .R/.G/.B/.A;
 *  - Ra: array layer first (ARRAY_1D/ARRAY_2D), then x, y, z; Rb: the
 *    bindless handle first; the results of the write mask's components land
 *    in consecutive registers from Rd.
 *  - CUBE/ARRAY_CUBE (Ra: the layer, then the direction x, y, z): the face
 *    of the direction's major axis (ties go to z, then y), with the face
 *    coordinates of the usual cube-map table (+x: -z, -y; -x: z, -y; +y:
 *    x, z; -y: x, -z; +z: x, -y; -z: -x, -y) divided by the major
 *    magnitude and normalised ((c + 1) / 2 of the width and height, the one
 *    normalised case of the model); face f of layer L is slice 6L + f of
 *    the region (clamped to its depth).
 *  - TLD.MS (multisample, the sample index last in Rb): a region has one
 *    sample per texel, so the index is read and every sample is that texel.
 *  - .AOFFI: the texel offsets word after the handle and level in Rb
 *    (TXD: after the coordinates in Ra), added to the texel (sim_tex_args.c);
 *    TLD.CL (ptxas's tex.level with integer coordinates) clamps the level
 *    to the texture's levels: the one level, as every TLD.LL reads.
 * .NODEP (ptxas -O3's mark of a texture whose results go only into
 * surface instructions) changes no result: read and ignored.
 * .DC (TEX, TLD4, TEXS, TLD4S): each component compared with the depth
 * reference (sim_tex_args.c: 1.0f when reference <= texel word, else 0).
 * Depth compare of TLD/TXD, per-pixel offsets (.PTP), bias and derivative
 * modes are not modelled and fail the run. ptxas's compact forms TEXS/TLDS/TLD4S (sim4) read the
 * same texels. */
#include "sim.h"

#include <math.h>
#include <string.h>

static bool is_texture_op(SassOp op)
{
	return op == SOP_TEX || op == SOP_TEX_B || op == SOP_TLD || op == SOP_TLD_B ||
	       op == SOP_TLD4 || op == SOP_TLD4_B || op == SOP_TXD || op == SOP_TXD_B;
}

static bool bindless(SassOp op)
{
	return op == SOP_TEX_B || op == SOP_TLD_B || op == SOP_TLD4_B || op == SOP_TXD_B;
}

static SimRegion *texture_of(SimMachine *m, const SimInsn *in, const SimThread *t)
{
	/* TXD.B has the handle first in Ra, the other .B forms in Rb */
	SassRole at = in->form->op == SOP_TXD_B ? SR_RA : SR_RB;
	uint32_t handle = bindless(in->form->op) ? sim_reg(t, sim_val(in, at, 255))
	                                         : sim_cword(m, in, 0, 4 * sim_val(in, SR_SUIDX, 0));
	return m->failed ? NULL : sim_surface(m, in, handle);
}

static int32_t clampi(int64_t v, uint32_t n)
{
	return v < 0 ? 0 : v >= (int64_t)n ? (int32_t)n - 1 : (int32_t)v;
}

static int64_t texel_of_float(uint32_t bits)
{
	float f;
	memcpy(&f, &bits, 4);
	if (isnan(f))
		return 0;
	double d = floor((double)f);
	return d < -1e9 ? -1000000000 : d > 1e9 ? 1000000000 : (int64_t)d;
}

/* Word c of the texel (x, y, z), each clamped to the texture. */
static uint32_t texel_word(const SimRegion *s, int64_t x, int64_t y, int64_t z, unsigned c)
{
	uint32_t w = s->width_bytes / SIM_TEXEL_BYTES;
	uint64_t off = (uint64_t)clampi(x, w) * SIM_TEXEL_BYTES + (uint64_t)clampi(y, s->height) * s->width_bytes +
	               (uint64_t)clampi(z, s->depth) * s->width_bytes * s->height + 4 * c;
	uint32_t v;
	memcpy(&v, s->bytes + off, 4);
	return v;
}

/* The modes this model leaves out. */
static bool unmodelled(SimMachine *m, const SimInsn *in)
{
	SassOp op = in->form->op;
	int64_t lod = sim_val(in, SR_TEXLOD, 0);
	bool tld = op == SOP_TLD || op == SOP_TLD_B;
	/* offsets (.AOFFI, not TLD4's per-pixel .PTP) and TLD's .CL are
	 * modelled (sim_tex_args.c; .CL clamps the level to the texture's
	 * levels: the one level, which TLD reads) */
	int64_t geom = sim_val(in, SR_GEOM, 0);
	bool txd = op == SOP_TXD || op == SOP_TXD_B;
	if ((sim_val(in, SR_DC, 0) && (tld || txd)) || sim_val(in, SR_AOFFI, 0) > 1 ||
	    (sim_val(in, SR_AOFFI, 0) && geom >= 6) || (!tld && sim_val(in, SR_CL, 0)) ||
	    (!tld && lod != 0 && lod != 1 && lod != 3))
		return sim_fail(m, in, "%s: depth compare of a fetch or TXD, per-pixel or cube offsets and bias "
		                "are not modelled", in->form->name), true;
	if (geom == 5 || (geom >= 6 && (op == SOP_TLD || op == SOP_TLD_B || op == SOP_TXD || op == SOP_TXD_B)))
		return sim_fail(m, in, "%s: this geometry is not modelled", in->form->name), true;
	return false;
}

static float as_float(uint32_t bits)
{
	float f;
	memcpy(&f, &bits, 4);
	return f;
}

static uint32_t float_bits(float f)
{
	uint32_t b;
	memcpy(&b, &f, 4);
	return b;
}

/* A cube map direction (raw[0..2]) -> texel-space x, y of its face in
 * raw[0..1] and the face's slice of `layer`. */
static int64_t cube_face(const SimRegion *s, uint32_t raw[3], int64_t layer)
{
	float x = as_float(raw[0]), y = as_float(raw[1]), z = as_float(raw[2]);
	float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), ma, sc, tc;
	int face;
	if (az >= ax && az >= ay)
		face = z < 0 ? 5 : 4, ma = az, sc = z < 0 ? -x : x, tc = -y;
	else if (ay >= ax)
		face = y < 0 ? 3 : 2, ma = ay, sc = x, tc = y < 0 ? -z : z;
	else
		face = x < 0 ? 1 : 0, ma = ax, sc = x < 0 ? z : -z, tc = -y;
	float w = (float)(s->width_bytes / SIM_TEXEL_BYTES), h = (float)s->height;
	raw[0] = float_bits((sc / ma + 1.0f) * 0.5f * w);
	raw[1] = float_bits((tc / ma + 1.0f) * 0.5f * h);
	return 6 * layer + face;
}

/* The components of texel (c[0], c[1], z) -- a gather's four texels'
 * component k when gather >= 0 -- for float or (fetch) integer
 * coordinates raw[]; a cube map's direction picks its face first. */
static void sample(const SimRegion *s, uint32_t raw[3], const int32_t off[3], int64_t layer, unsigned ncoords,
                   bool fetch, bool cube, int gather, uint32_t comp[4])
{
	int64_t c[3] = { 0, 0, 0 };
	for (unsigned i = 0; i < ncoords; i++)
		c[i] = (fetch ? (int32_t)raw[i] : texel_of_float(raw[i])) + off[i];
	int64_t z = ncoords == 3 ? c[2] : layer;
	if (cube) {
		z = cube_face(s, raw, layer);
		c[0] = texel_of_float(raw[0]);
		c[1] = texel_of_float(raw[1]);
	}
	if (gather >= 0) {
		int64_t x0 = texel_of_float(float_bits(as_float(raw[0]) - 0.5f)) + off[0];
		int64_t y0 = texel_of_float(float_bits(as_float(raw[1]) - 0.5f)) + off[1];
		unsigned k = (unsigned)gather;
		comp[0] = texel_word(s, x0, y0 + 1, z, k);
		comp[1] = texel_word(s, x0 + 1, y0 + 1, z, k);
		comp[2] = texel_word(s, x0 + 1, y0, z, k);
		comp[3] = texel_word(s, x0, y0, z, k);
	} else {
		for (unsigned k = 0; k < 4; k++)
			comp[k] = texel_word(s, c[0], c[1], z, k);
	}
}

static void exec_texture(SimMachine *m, const SimInsn *in, SimThread *t)
{
	if (unmodelled(m, in))
		return;
	SimRegion *s = texture_of(m, in, t);
	if (!s)
		return;
	SassOp op = in->form->op;
	int64_t ra = sim_val(in, SR_RA, 255), geom = sim_val(in, SR_GEOM, 0);
	bool arrayed = geom == 1 || geom == 3 || geom == 7;
	unsigned ncoords = geom >= 4 ? 3 : geom >= 2 ? 2 : 1;
	int64_t layer = 0;
	int64_t r = in->form->op == SOP_TXD_B && ra != 255 ? ra + 1 : ra;
	if (arrayed) {
		layer = sim_reg(t, r);
		r = r == 255 ? 255 : r + 1;
	}
	bool fetch = op == SOP_TLD || op == SOP_TLD_B, gather = op == SOP_TLD4 || op == SOP_TLD4_B;
	uint32_t raw[3] = { 0, 0, 0 };
	for (unsigned i = 0; i < ncoords; i++) {
		raw[i] = sim_reg(t, r);
		r = r == 255 ? 255 : r + 1;
	}
	int32_t off[3];
	sim_tex_offsets(in, t, off, ncoords);
	uint32_t comp[4];
	sample(s, raw, off, layer, ncoords, fetch, geom >= 6, gather ? (int)sim_val(in, SR_GATHER, 0) : -1, comp);
	if (sim_val(in, SR_DC, 0))
		sim_tex_depth_compare(sim_tex_depth_ref(in, t), comp);
	uint32_t mask = (uint32_t)sim_val(in, SR_QMASK, 0xf);
	int64_t rd = sim_val(in, SR_RD, 255);
	for (uint32_t k = 0, n = 0; k < 4; k++)
		if (mask >> k & 1)
			sim_set(t, rd == 255 ? 255 : rd + n++, comp[k]);
}

/* ---- sim4: TEXS, TLDS, TLD4S (bound textures, two destination pairs) ----
 * The source values -- array layer, coordinates, then a level -- fill Ra
 * and Rb one each up to two, Ra and Ra+1 then Rb from three on (sass_regs.c).
 * Levels read level 0 (the only one); TEXS CUBE takes its face as TEX
 * CUBE; TLDS .MS reads its sample index after the coordinates (sim5);
 * TLDS ARRAY_2D has its layer alone in Ra, x and y in Rb, Rb+1; TLDS
 * and TLD4S .AOFFI's offsets word follows the coordinates and level
 * (sim_tex_args.c); .DC's reference comes after them. TLDS depth compare
 * and TEXS offsets stop the run. */
static void exec_compact(SimMachine *m, const SimInsn *in, SimThread *t)
{
	SassOp op = in->form->op;
	const SassTexsTarget *tg = op == SOP_TLD4S ? NULL : sass_texs_target(op, sim_val(in, SR_TEXSTARGET, 0));
	if (op != SOP_TLD4S && tg == NULL)
		return (void)sim_fail(m, in, "%s: target code %lld is undefined", in->form->name,
		                      (long long)sim_val(in, SR_TEXSTARGET, 0));
	bool dc = tg ? tg->dc : sim_val(in, SR_DC, 0) != 0, aoffi = tg ? tg->aoffi : sim_val(in, SR_AOFFI, 0) != 0;
	int geom = tg ? tg->geom : 2;
	if ((dc && op == SOP_TLDS) || (aoffi && op == SOP_TEXS) || (geom == 6 && op != SOP_TEXS) || geom == 5 ||
	    geom > 6)
		return (void)sim_fail(m, in, "%s: depth compare of a fetch and TEXS offsets are not modelled",
		                      in->form->name);
	SimRegion *s = sim_surface(m, in, sim_cword(m, in, 0, 4 * sim_val(in, SR_SUIDX, 0)));
	if (m->failed || !s)
		return;
	bool arrayed = geom == 3;
	unsigned ncoords = geom >= 4 ? 3 : geom >= 2 ? 2 : 1;
	/* the level, TLDS's offsets word, then a multisample fetch's sample
	 * index (read: one sample per texel) */
	unsigned lvl = tg && tg->lod == 3, n = ncoords + arrayed + lvl + aoffi + dc + (tg && tg->ms);
	int64_t src[4];
	sim_texs_sources(in, n, op == SOP_TLDS && arrayed, src);
	uint32_t v[4];
	for (unsigned i = 0; i < 4; i++)
		v[i] = i < n ? sim_reg(t, src[i]) : 0;
	uint32_t raw[3] = { v[arrayed], v[arrayed + 1], v[arrayed + 2] };
	if (ncoords < 3)
		raw[2] = 0;
	if (ncoords < 2)
		raw[1] = 0;
	int32_t off[3] = { 0, 0, 0 };
	if (aoffi)
		sim_tex_offset_word(v[arrayed + ncoords + lvl], op == SOP_TLD4S ? 6 : 4, off, ncoords);
	uint32_t comp[4];
	sample(s, raw, off, arrayed ? (int64_t)v[0] : 0, ncoords, op == SOP_TLDS, geom == 6,
	       op == SOP_TLD4S ? (int)sim_val(in, SR_GATHER, 0) : -1, comp);
	if (dc)   /* the reference after the coordinates, level and offsets */
		sim_tex_depth_compare(v[arrayed + ncoords + lvl + aoffi], comp);
	int64_t rd = sim_val(in, SR_RD, 255), rd2 = sim_val(in, SR_RD2, 255);
	unsigned mask = op == SOP_TLD4S ? (rd2 != 255 ? 0xf : 0x3) : sass_texs_mask(sim_val(in, SR_TEXSMASK, 0), rd2 != 255);
	if (mask == 0)
		return (void)sim_fail(m, in, "%s: write-mask code %lld is undefined", in->form->name,
		                      (long long)sim_val(in, SR_TEXSMASK, 0));
	for (unsigned k = 0, i = 0; k < 4; k++) {
		if (!(mask >> k & 1))
			continue;
		int64_t base = i < 2 ? rd : rd2;
		sim_set(t, base == 255 ? 255 : base + (i & 1), comp[k]);
		i++;
	}
}

bool sim_exec_tex(SimMachine *m, const SimInsn *in, SimThread *t)
{
	if (in->form->op == SOP_TEXS || in->form->op == SOP_TLDS || in->form->op == SOP_TLD4S)
		return exec_compact(m, in, t), true;
	if (!is_texture_op(in->form->op))
		return false;
	exec_texture(m, in, t);
	return true;
}
