/* Lowering of cvt between .f32 and integers, as ptxas 11.8 emits it for
 * sm_50: I2F.F32.<int> with the rounding of .rn/.rz/.rm/.rp, and
 * F2I.<int>.F32 with the integer rounding of .rni/.rzi/.rmi/.rpi
 * (nearest, TRUNC, FLOOR, CEIL) and .ftz. A 64-bit integer is a register
 * pair; 8- and 16-bit sources are read from the low bits of their
 * register. F2I has no 8-bit destination: an 8-bit result is F2I to 32
 * bits of its signedness, then I2I.SAT to 8 bits (ptxas 11.8). .sat on a
 * conversion to an integer is what F2I does anyway (PTX clamps every
 * float-to-integer conversion to the destination's range). */
#include "lower/lower_internal.h"

#include <string.h>

unsigned lw_cvt_int_type(PtxTy t)
{
	unsigned size = t.bits == 8 ? 0 : t.bits == 16 ? 1 : t.bits == 32 ? 2 : 3;
	return (t.is_signed ? 1u : 0u) | size << 1;
}

enum { FLOAT_TYPE_F32 = 2 };

bool lower_cvt_float(LowerCtx *c, const Instr *in)
{
	static const struct { const char *word; bool to_int; unsigned rnd; } rnds[] = {
		{ ".rn", false, 0 }, { ".rm", false, 1 }, { ".rp", false, 2 }, { ".rz", false, 3 },
		{ ".rni", true, 0 }, { ".rmi", true, 1 }, { ".rpi", true, 2 }, { ".rzi", true, 3 },
	};
	PtxTy ty[2];
	unsigned n = 0, rnd = 0;
	int rnd_to_int = -1;
	bool ftz = false, sat = false;
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		PtxTy u = ptx_type_of_word(w);
		bool known = u.bits != 0 && n < 2;
		if (known)
			ty[n++] = u;
		for (size_t j = 0; j < sizeof rnds / sizeof rnds[0]; j++)
			if (lw_streq(w, rnds[j].word)) {
				rnd = rnds[j].rnd;
				rnd_to_int = rnds[j].to_int;
				known = true;
			}
		if (lw_streq(w, ".ftz"))
			known = ftz = true;
		if (lw_streq(w, ".sat"))
			known = sat = true;
		if (!known)
			return lw_unsupported(c, in->mod_locs[i], "cvt modifier '%s' with a float type", w);
	}
	if (n != 2 || ty[0].is_float == ty[1].is_float || (ty[0].is_float ? ty[0] : ty[1]).bits != 32)
		return lw_unsupported(c, in->loc, "cvt between these types (float conversions between .f32 and "
		                      "integers are supported)");
	bool to_int = ty[0].bits != 32 || !ty[0].is_float;
	PtxTy it = to_int ? ty[0] : ty[1];
	if (rnd_to_int < 0)
		return lw_unsupported(c, in->loc, "cvt between .f32 and an integer without a rounding modifier "
		                      "(ptxas requires one)");
	if (rnd_to_int != to_int)
		return lw_unsupported(c, in->loc, "this rounding modifier for cvt %s", to_int ? "to an integer" : "to .f32");
	uint32_t d, s;
	unsigned dw, sw;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_reg(c, in->ops[1], &s, &sw))
		return false;
	unsigned dparts = to_int && it.bits == 64 ? 2 : 1, sparts = !to_int && it.bits == 64 ? 2 : 1;
	if (dw < dparts || sw < sparts)
		return lw_unsupported(c, in->loc, "cvt with a 64-bit integer in a 32-bit register");
	PtxTy ft = it;
	uint32_t fd = d;
	if (to_int && it.bits == 8) {
		ft.bits = 32;
		fd = lw_temp(c, 1);
	}
	LInsn *op = lw_emit(c, to_int ? SF_F2I_R : SF_I2F_R);
	linsn_ref(op, SR_RD, fd, 0, dparts, true);
	linsn_ref(op, SR_RB, s, 0, sparts, false);
	linsn_set(op, to_int ? SR_DTYPE : SR_STYPE, lw_cvt_int_type(ft));
	linsn_set(op, to_int ? SR_STYPE : SR_DTYPE, FLOAT_TYPE_F32);
	linsn_set(op, SR_RND, rnd);
	if (to_int)
		linsn_set(op, SR_FTZ, ftz);
	if (fd != d)
		return lw_cvt_sat_int(c, in, it, ft, d, dw, fd, 1);
	if (dw == 2 && dparts == 1)
		lw_mov_rz(c, d, 1);
	return true;
}
