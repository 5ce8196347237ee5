/* Lowering of the cvt forms ptxas 11.8 builds in steps for sm_50 (issue
 * 17, the float-forms sweep): each as ptxas -O3 writes it.
 *   integer -> .f16: I2F.F16 from an 8/16-bit integer (.sat: then
 *     F2F.F16.F16.PASS.SAT), else I2F.F32 and F2F.F16.F32[.SAT], both
 *     with the cvt's rounding;
 *   .f16 -> integer: F2I from .F16 into 16/32 bits; a 64-bit one via
 *     F2F.F32.F16 (exact) and F2I from .F32; an 8-bit one F2I to 32 bits
 *     and I2I.SAT (lw_cvt_sat_int);
 *   8-bit integer -> .f64: I2F.F32 then F2F.F64.F32;
 *   .f64 -> .f16: F2F.F32.F64 then F2F.F16.F32[.SAT] with the rounding;
 *     .rn rounds to f32 by rounding to odd first (below), so that the
 *     second rounding is the only one;
 *   .f16 -> .f64: the same round-to-odd step to f32 (exact for an f16),
 *     then F2F.F64.F32;
 *   .sat of an integer -> .f32: I2F then FADD.SAT d, t, -RZ (.ftz has no
 *     effect there: an integer is never subnormal);
 *   .sat of an integer or .f16 -> .f64: the conversion, then DMNMX with 0
 *     (max, NaN: 0) and with 1.0 (min).
 * Round to odd: rp = F2F.RP x, rm = F2F.RM x, rz = F2F.RZ x; when rp !=
 * rm (inexact) bit 0 of rz is set (BFI with c[0x2] 0x100: one bit at 0). */
#include "lower/lower_f64seq.h"

enum { FT_F16 = 1, FT_F32 = 2, FT_F64 = 3 };
enum { RND_RN = 0, RND_RM = 1, RND_RP = 2, RND_RZ = 3 };
enum { BFI_BIT0 = 0x100, F64_ONE_HI20 = 0x3ff00, FSETP_NE = 5, PT = 7, RZ = 255 };

typedef struct CvtSpec {
	PtxTy dt, st;
	unsigned rnd;
	bool sat, ftz;
} CvtSpec;

static bool is_int(PtxTy t) { return !t.is_float && t.bits >= 8; }
static bool is_fl(PtxTy t, unsigned bits) { return t.is_float && t.bits == bits; }

/* The two types and the modifiers of a cvt; false when it has not two. */
static bool cvt_spec(const Instr *in, CvtSpec *s)
{
	static const char *const rnd_words[] = { ".rn", ".rm", ".rp", ".rz", ".rni", ".rmi", ".rpi", ".rzi" };
	unsigned n = 0;
	*s = (CvtSpec){ .rnd = RND_RN };
	for (uint32_t i = 0; i < in->nmods; i++) {
		PtxTy u = ptx_type_of_word(in->mods[i]);
		if (u.bits && n < 2)
			*(n++ == 0 ? &s->dt : &s->st) = u;
		for (unsigned j = 0; j < 8; j++)
			if (lw_streq(in->mods[i], rnd_words[j]))
				s->rnd = j % 4;
		s->sat |= lw_streq(in->mods[i], ".sat");
		s->ftz |= lw_streq(in->mods[i], ".ftz");
	}
	return n == 2;
}

bool lw_cvt_is_staged(const Instr *in)
{
	CvtSpec s;
	if (!cvt_spec(in, &s))
		return false;
	return (is_fl(s.dt, 16) && is_int(s.st)) || (is_int(s.dt) && is_fl(s.st, 16)) ||
	       (is_fl(s.dt, 64) && is_int(s.st) && (s.st.bits == 8 || s.sat)) ||
	       (is_fl(s.dt, 16) && is_fl(s.st, 64)) || (is_fl(s.dt, 64) && is_fl(s.st, 16)) ||
	       (is_fl(s.dt, 32) && is_int(s.st) && (s.sat || s.ftz));
}

static unsigned ty_value(PtxTy t)
{
	if (t.is_float)
		return t.bits == 16 ? FT_F16 : t.bits == 32 ? FT_F32 : FT_F64;
	return lw_cvt_int_type(t);
}

static unsigned parts(PtxTy t) { return t.bits == 64 ? 2 : 1; }

/* form d, s: I2F/F2I/F2F of dt from st with rounding rnd */
static LInsn *conv(LowerCtx *c, SassFormId form, uint32_t d, PtxTy dt, uint32_t s, PtxTy st, unsigned rnd)
{
	LInsn *op = lw_emit(c, form);
	linsn_ref(op, SR_RD, d, 0, parts(dt), true);
	linsn_ref(op, SR_RB, s, 0, parts(st), false);
	linsn_set(op, SR_DTYPE, ty_value(dt));
	linsn_set(op, SR_STYPE, ty_value(st));
	linsn_set(op, SR_RND, rnd);
	return op;
}

static const PtxTy F16 = { .bits = 16, .is_float = true };
static const PtxTy F32 = { .bits = 32, .is_float = true };
static const PtxTy F64 = { .bits = 64, .is_float = true };

/* the f32 of x (an f16 or f64 of type st) rounded to odd */
static uint32_t round_to_odd_f32(LowerCtx *c, uint32_t x, PtxTy st)
{
	uint32_t rp = lw_temp(c, 1), rm = lw_temp(c, 1), rz = lw_temp(c, 1), p = lw_pred_temp(c),
	         one = lw_temp(c, 1), odd = dseq_value(c, 1), r = lw_temp(c, 1);
	conv(c, SF_F2F_R, rp, F32, x, st, RND_RP);
	conv(c, SF_F2F_R, rm, F32, x, st, RND_RM);
	conv(c, SF_F2F_R, rz, F32, x, st, RND_RZ);
	LInsn *op = lw_emit(c, SF_FSETP_R);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	linsn_set(op, SR_PQ, PT);
	linsn_ref(op, SR_RA, rp, 0, 1, false);
	linsn_ref(op, SR_RB, rm, 0, 1, false);
	linsn_set(op, SR_CMP, FSETP_NE);
	linsn_set(op, SR_PC, PT);
	lw_mov32i(c, one, 0, 1);
	lw_guard(c, (int)p, false);
	op = lw_emit(c, SF_BFI_C);
	linsn_ref(op, SR_RD, odd, 0, 1, true);
	linsn_ref(op, SR_RA, one, 0, 1, false);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, BFI_BIT0) / 4);
	linsn_ref(op, SR_RC, rz, 0, 1, false);
	lw_guard(c, -1, false);
	op = lw_emit(c, SF_SEL_R);
	linsn_ref(op, SR_RD, r, 0, 1, true);
	linsn_ref(op, SR_RA, rz, 0, 1, false);
	linsn_ref(op, SR_RB, odd, 0, 1, false);
	linsn_ref(op, SR_PC, p, 0, 1, false);
	linsn_set(op, SR_PC_NOT, 1);
	return r;
}

/* d = min(max(t, 0), 1.0) of the f64 t (DMNMX: NaN gives 0) */
static void clamp_f64(LowerCtx *c, uint32_t d, uint32_t t)
{
	uint32_t m = lw_temp(c, 2);
	LInsn *op = lw_emit(c, SF_DMNMX_R);
	linsn_ref(op, SR_RD, m, 0, 2, true);
	linsn_set(op, SR_RA, RZ);
	linsn_ref(op, SR_RB, t, 0, 2, false);
	linsn_set(op, SR_PC, PT);
	linsn_set(op, SR_PC_NOT, 1);
	op = lw_emit(c, SF_DMNMX_I);
	linsn_ref(op, SR_RD, d, 0, 2, true);
	linsn_ref(op, SR_RA, m, 0, 2, false);
	linsn_set(op, SR_IMM, F64_ONE_HI20);
	linsn_set(op, SR_PC, PT);
}

/* F2F.F16.dt-of-t.rnd[.SAT] d, t (F2F.F16.F16.PASS.SAT: rnd RZ) */
static void to_f16(LowerCtx *c, uint32_t d, uint32_t t, PtxTy tt, unsigned rnd, bool sat)
{
	linsn_set(conv(c, SF_F2F_R, d, F16, t, tt, rnd), SR_SAT, sat);
}

static bool to_int_from_f16(LowerCtx *c, const Instr *in, const CvtSpec *s, uint32_t d, unsigned dw, uint32_t x)
{
	PtxTy dt = s->dt;
	if (dt.bits == 64) {
		uint32_t t = lw_temp(c, 1);
		conv(c, SF_F2F_R, t, F32, x, F16, s->rnd);
		conv(c, SF_F2I_R, d, dt, t, F32, s->rnd);
		return true;
	}
	if (dt.bits == 8) {
		PtxTy wide = dt;
		wide.bits = 32;
		uint32_t t = lw_temp(c, 1);
		conv(c, SF_F2I_R, t, wide, x, F16, s->rnd);
		return lw_cvt_sat_int(c, in, dt, wide, d, dw, t, 1);
	}
	conv(c, SF_F2I_R, d, dt, x, F16, s->rnd);
	if (dw == 2)
		lw_mov_rz(c, d, 1);
	return true;
}

bool lower_cvt_staged(LowerCtx *c, const Instr *in)
{
	CvtSpec s;
	if (!cvt_spec(in, &s) || !lw_cvt_is_staged(in))
		return lw_unsupported(c, in->loc, "cvt between these types");
	if (s.ftz && !(is_fl(s.dt, 32) && is_int(s.st)))
		return lw_unsupported(c, in->loc, "cvt.ftz between these types");
	uint32_t d, x;
	unsigned dw, xw;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_reg(c, in->ops[1], &x, &xw))
		return false;
	if (dw < parts(s.dt) || xw < parts(s.st))
		return lw_unsupported(c, in->loc, "cvt with a 64-bit value in a 32-bit register");
	PtxTy dt = s.dt, st = s.st;
	if (is_int(dt))
		return to_int_from_f16(c, in, &s, d, dw, x);
	if (is_fl(dt, 16)) {
		if (is_int(st) && st.bits <= 16) {
			uint32_t t = s.sat ? lw_temp(c, 1) : d;
			conv(c, SF_I2F_R, t, F16, x, st, s.rnd);
			if (s.sat)
				to_f16(c, d, t, F16, RND_RZ, true);
			return true;
		}
		uint32_t t;
		if (is_fl(st, 64) && s.rnd == RND_RN) {
			t = round_to_odd_f32(c, x, st);
		} else {
			t = lw_temp(c, 1);
			conv(c, is_int(st) ? SF_I2F_R : SF_F2F_R, t, F32, x, st, s.rnd);
		}
		to_f16(c, d, t, F32, s.rnd, s.sat);
		return true;
	}
	if (is_fl(dt, 32)) {                   /* an integer, .sat or .ftz */
		uint32_t t = s.sat ? lw_temp(c, 1) : d;
		conv(c, SF_I2F_R, t, F32, x, st, s.rnd);
		if (s.sat) {
			LInsn *op = lw_emit(c, SF_FADD_R);
			linsn_ref(op, SR_RD, d, 0, 1, true);
			linsn_ref(op, SR_RA, t, 0, 1, false);
			linsn_set(op, SR_RB, RZ);
			linsn_set(op, SR_NEGB, 1);
			linsn_set(op, SR_SAT, 1);
		}
		return true;
	}
	/* .f64 from an integer or .f16 */
	uint32_t t = s.sat ? lw_temp(c, 2) : d;
	if (is_fl(st, 16)) {
		conv(c, SF_F2F_R, t, F64, round_to_odd_f32(c, x, st), F32, RND_RN);
	} else if (st.bits == 8) {
		uint32_t f = lw_temp(c, 1);
		conv(c, SF_I2F_R, f, F32, x, st, s.rnd);
		conv(c, SF_F2F_R, t, F64, f, F32, s.rnd);
	} else {
		conv(c, SF_I2F_R, t, F64, x, st, s.rnd);
	}
	if (s.sat)
		clamp_f64(c, d, t);
	return true;
}
