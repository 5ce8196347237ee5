/* Lowering of testp (divrn): the class of an f32 or f64 value from its
 * bits, as ptxas 11.8 decides it -- unsigned compares of the magnitude
 * word (the value without its sign; for .f64 the high word, with the low
 * word where the class depends on it) against the bits of +INF and of the
 * smallest normal, the constants in .nv.constant2:
 *   finite      |x| <  INF          infinite  |x| == INF
 *   number      |x| <= INF          notanumber |x| > INF
 *   normal      |x| < INF, not subnormal (zero is normal, as PTX says)
 *   subnormal   0 < |x| < MIN
 * (for .f64, |x| == INF, |x| > INF and zero look at the low word too).
 * testp without a test (ptxas accepts it; --rules=strict warns,
 * testp-without-test) is no code at all in ptxas 11.8's output, -O0 and
 * -O3: the predicate keeps the value it had. */
#include "lower/lower_internal.h"

enum { CMP_LT = 1, CMP_EQ = 2, CMP_LE = 3, CMP_GT = 4, CMP_NE = 5, CMP_GE = 6 };
enum { BOP_AND = 0, BOP_OR = 1 };
enum { LOP_AND = 0, LOP_OR = 1 };
enum { RZ = 255, PT = 7 };

enum {
	F32_INF = 0x7f800000,
	F32_MIN_NORMAL = 0x00800000,
	F64_INF_HI = 0x7ff00000,
	F64_MIN_NORMAL_HI = 0x00100000,
	MAGNITUDE = 0x7fffffff,
};

/* ISETP.cmp.U32.bop p, PT, a, (value < 0: RZ, else c[0x2][value]), [q] */
static void isetp_u32(LowerCtx *c, uint32_t p, uint32_t a, unsigned asub, unsigned cmp, int64_t value,
                      unsigned bop, int q)
{
	LInsn *op = lw_emit(c, value < 0 ? SF_ISETP_R : SF_ISETP_C);
	lw_op_pred(op, SR_PD, (int)p, true);
	linsn_set(op, SR_PQ, PT);
	linsn_ref(op, SR_RA, a, asub, 1, false);
	if (value < 0) {
		linsn_set(op, SR_RB, RZ);
	} else {
		linsn_set(op, SR_CBANK, LK_CONST2_BANK);
		linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, (uint32_t)value) / 4);
	}
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_SIGNED, 0);
	linsn_set(op, SR_BOP, bop);
	lw_op_pred(op, SR_PC, q, false);
}

bool lower_testp(LowerCtx *c, const Instr *in)
{
	PtxTy ty = lw_instr_type(in);
	const char *test = NULL;
	for (uint32_t i = 0; i < in->nmods; i++)
		if (!lw_streq(in->mods[i], ".f32") && !lw_streq(in->mods[i], ".f64"))
			test = in->mods[i];
	if (!ty.is_float || (ty.bits != 32 && ty.bits != 64))
		return lw_unsupported(c, in->loc, "this testp form (.f32 and .f64 are supported)");
	uint32_t d;
	Opnd o;
	if (!lw_pred(c, in->ops[0], &d) || !lw_opnd(c, in->ops[1], &o))
		return false;
	if (test == NULL)
		return true;    /* no test: ptxas 11.8 writes no code (-O0 and -O3), p keeps what it held */
	bool wide = ty.bits == 64;
	uint32_t hv, lv = 0;
	unsigned hs, ls = 0;
	lw_opnd_part(c, &o, wide ? 1 : 0, &hv, &hs);
	if (wide)
		lw_opnd_part(c, &o, 0, &lv, &ls);
	uint32_t inf = wide ? F64_INF_HI : F32_INF, min = wide ? F64_MIN_NORMAL_HI : F32_MIN_NORMAL;
	uint32_t m = lw_temp(c, 1), t = lkernel_new_vreg(c->k, LRC_PRED, 1, true);
	LInsn *op = lw_op_def(c, SF_LOP32I, (int)m);
	linsn_ref(op, SR_RA, hv, hs, 1, false);
	linsn_set(op, SR_IMM, MAGNITUDE);
	linsn_set(op, SR_LOPOP, LOP_AND);
	if (lw_streq(test, ".finite")) {
		isetp_u32(c, d, m, 0, CMP_LT, inf, BOP_AND, -1);
	} else if (lw_streq(test, ".normal") || lw_streq(test, ".subnormal")) {
		uint32_t any = m;     /* zero or not: for .f64 both words */
		if (wide) {
			any = lw_temp(c, 1);
			op = lw_op_def(c, SF_LOP_R, (int)any);
			lw_op_use(op, SR_RA, (int)m);
			linsn_ref(op, SR_RB, lv, ls, 1, false);
			linsn_set(op, SR_LOPOP, LOP_OR);
		}
		if (lw_streq(test, ".normal")) {
			uint32_t u = lkernel_new_vreg(c->k, LRC_PRED, 1, true);
			isetp_u32(c, t, m, 0, CMP_GE, min, BOP_AND, -1);
			isetp_u32(c, u, any, 0, CMP_EQ, -1, BOP_OR, (int)t);
			isetp_u32(c, d, m, 0, CMP_LT, inf, BOP_AND, (int)u);
		} else {
			isetp_u32(c, t, any, 0, CMP_NE, -1, BOP_AND, -1);
			isetp_u32(c, d, m, 0, CMP_LT, min, BOP_AND, (int)t);
		}
	} else if (!wide) {
		unsigned cmp = lw_streq(test, ".infinite") ? CMP_EQ : lw_streq(test, ".number") ? CMP_LE
		             : lw_streq(test, ".notanumber") ? CMP_GT : 0;
		if (cmp == 0)
			return lw_unsupported(c, in->loc, "testp modifier '%s'", test);
		isetp_u32(c, d, m, 0, cmp, inf, BOP_AND, -1);
	} else if (lw_streq(test, ".infinite")) {
		isetp_u32(c, t, lv, ls, CMP_EQ, -1, BOP_AND, -1);
		isetp_u32(c, d, m, 0, CMP_EQ, inf, BOP_AND, (int)t);
	} else if (lw_streq(test, ".number") || lw_streq(test, ".notanumber")) {
		/* |x| == INF counts by its low word: zero is infinity, else NaN */
		bool nan = lw_streq(test, ".notanumber");
		uint32_t u = lkernel_new_vreg(c->k, LRC_PRED, 1, true);
		isetp_u32(c, t, lv, ls, nan ? CMP_NE : CMP_EQ, -1, BOP_AND, -1);
		isetp_u32(c, u, m, 0, CMP_EQ, inf, BOP_AND, (int)t);
		isetp_u32(c, d, m, 0, nan ? CMP_GT : CMP_LT, inf, BOP_OR, (int)u);
	} else {
		return lw_unsupported(c, in->loc, "testp modifier '%s'", test);
	}
	return true;
}
