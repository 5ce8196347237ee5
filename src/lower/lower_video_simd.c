/* Lowering of the SIMD video instructions lane by lane (issue 17):
 *   vop2.dtype.atype.btype{.sat|.add} d{.mask}, a{.asel}, b{.bsel}, c
 *   vop4 (the same with bytes), vset2/vset4.atype.btype.cmp{.add}
 * sm_50 has no SIMD video instruction but VABSDIFF4, so ptxas 11.8 expands
 * them, and so do we, in its shape:
 *   1. the selected lanes of {b, a}: PRMT a, sel, b (skipped for a's and
 *      b's own lanes in order, the defaults);
 *   2. each lane sign- or zero-extended by its operand's type: BFE/BFE.U32
 *      (ptxas: PRMT 0x765i, RZ then BFE 0x800, or SHR/LOP32I for halves);
 *   3. the operation on 32-bit values, where no lane overflows:
 *        vadd/vsub IADD, vmin/vmax IMNMX, vabsdiff IADD -b + I2I |x|,
 *        vavrg IADD then +1 when the sum is >= 0 (ISETP/IADD32I/SEL; just
 *        IADD32I when both sources are unsigned), SHR by 1,
 *        vset ISET.cmp and LOP32I.AND 1 (0 or 1 per lane);
 *   4. .sat: I2I.{U8,S8,U16,S16}.S32.SAT to the destination lane type
 *      (with .ABS folded in for vabsdiff, as ptxas does);
 *   5. the secondary operation: .add sums the masked lanes' full values
 *      into c (IADD chain); else each masked lane's low byte or half-word
 *      goes into its place with PRMT over c (unmasked lanes keep c's), or
 *      over the first lane when every lane is written, as ptxas does.
 * Lanes outside the mask are not computed (ptxas computes and drops them).
 * vavrg2.u32.u32.u32 with every lane in order is ptxas's whole-word
 * average instead (average_u16x2).
 * The whole-word vadd/vsub sequences and VABSDIFF4 stay in lower_video.c
 * for the forms they cover. */
#include "lower/lower_internal.h"

#include <string.h>

typedef enum { SIMD_ADD, SIMD_SUB, SIMD_AVRG, SIMD_ABSDIFF, SIMD_MIN, SIMD_MAX, SIMD_SET } SimdOp;

typedef struct SimdForm {
	SimdOp op;
	unsigned lanes, bits;        /* 2 x 16 or 4 x 8 */
	bool sa, sb, sd;             /* the types' signedness (sd: dtype, not vset) */
	bool sat, add;
	int64_t cmp;                 /* vset's e_cmp code */
	uint32_t asel, bsel;         /* PRMT selectors over {b, a} */
	unsigned mask;               /* lanes written or summed, bit i lane i */
} SimdForm;

enum { PT = 7, RZ = 255, CMP_GE = 6, LOP_AND = 0, I2I_U8 = 0, I2I_S32 = 5 };

static const struct {
	const char *name;
	SimdOp op;
} simd_ops[] = {
	{ "vadd", SIMD_ADD }, { "vsub", SIMD_SUB }, { "vavrg", SIMD_AVRG }, { "vabsdiff", SIMD_ABSDIFF },
	{ "vmin", SIMD_MIN }, { "vmax", SIMD_MAX }, { "vset", SIMD_SET },
};

/* A source selector as the PRMT selector over {b, a}: .hxy (two lanes:
 * lane 1 half x, lane 0 half y of a0 a1 b0 b1) or .bxyzw (four: the bytes
 * of a then b); def when there is none; false if malformed. */
static bool source_selector(const char *sel, unsigned lanes, uint32_t def, uint32_t *out)
{
	*out = def;
	if (sel == NULL)
		return true;
	size_t n = strlen(sel);
	if (n != 2 + lanes || sel[1] != (lanes == 2 ? 'h' : 'b'))
		return false;
	uint32_t s = 0;
	for (size_t i = 2; i < n; i++) {
		unsigned v = (unsigned)(sel[i] - '0');
		if (v > (lanes == 2 ? 3u : 7u))
			return false;
		s = lanes == 2 ? (s << 8) | ((2 * v + 1) << 4) | (2 * v) : (s << 4) | v;
	}
	*out = s;
	return true;
}

/* A destination mask (.h10, .h1, .b320, ...) as lane bits; all lanes when
 * there is none; false if malformed. */
static bool lane_mask(const char *sel, unsigned lanes, unsigned *out)
{
	*out = (1u << lanes) - 1;
	if (sel == NULL)
		return true;
	size_t n = strlen(sel);
	if (n < 3 || sel[1] != (lanes == 2 ? 'h' : 'b'))
		return false;
	unsigned m = 0, last = lanes;
	for (size_t i = 2; i < n; i++) {
		unsigned v = (unsigned)(sel[i] - '0');
		if (v >= last)
			return false;
		m |= 1u << v;
		last = v;
	}
	*out = m;
	return true;
}

static uint32_t prmt(LowerCtx *c, uint32_t d, uint32_t a, uint32_t sel, uint32_t second)
{
	if (d == LW_NO_DST)
		d = lw_temp(c, 1);
	LInsn *op = lw_emit(c, SF_PRMT_I);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_set(op, SR_IMM, sel);
	if (second == RZ)
		linsn_set(op, SR_RC, RZ);
	else
		linsn_ref(op, SR_RC, second, 0, 1, false);
	return d;
}

/* Lane i of s, extended to 32 bits (BFE, BFE.U32). */
static uint32_t lane(LowerCtx *c, const SimdForm *f, uint32_t s, unsigned i, bool is_signed)
{
	uint32_t d = lw_temp(c, 1);
	LInsn *op = lw_emit(c, SF_BFE_I);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, s, 0, 1, false);
	linsn_set(op, SR_SIGNED, is_signed);
	linsn_set(op, SR_IMM, (f->bits << 8) | (f->bits * i));
	return d;
}

/* I2I.dtype.S32{.SAT} [|x|]. */
static uint32_t i2i(LowerCtx *c, uint32_t x, int64_t dtype, bool sat, bool abs)
{
	uint32_t d = lw_temp(c, 1);
	LInsn *op = lw_emit(c, SF_I2I_R);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RB, x, 0, 1, false);
	linsn_set(op, SR_DTYPE, dtype);
	linsn_set(op, SR_STYPE, I2I_S32);
	linsn_set(op, SR_SAT, sat);
	linsn_set(op, SR_ABS, abs);
	return d;
}

/* (s + (s >= 0)) >> 1, the PTX rounding of vavrg. */
static uint32_t average(LowerCtx *c, const SimdForm *f, uint32_t x, uint32_t y)
{
	uint32_t s = lw_iadd(c, LW_NO_DST, x, y, false), up = lw_alu_imm(c, SF_IADD32I, s, 1);
	if (f->sa || f->sb) {
		uint32_t p = lkernel_new_vreg(c->k, LRC_PRED, 1, true);
		LInsn *cmp = lw_emit(c, SF_ISETP_R);
		linsn_ref(cmp, SR_PD, p, 0, 1, true);
		linsn_set(cmp, SR_PQ, PT);
		linsn_ref(cmp, SR_RA, s, 0, 1, false);
		linsn_set(cmp, SR_RB, RZ);
		linsn_set(cmp, SR_CMP, CMP_GE);
		linsn_set(cmp, SR_SIGNED, 1);
		linsn_set(cmp, SR_PC, PT);
		uint32_t t = lw_temp(c, 1);
		LInsn *sel = lw_emit(c, SF_SEL_R);
		linsn_ref(sel, SR_RD, t, 0, 1, true);
		linsn_ref(sel, SR_RA, up, 0, 1, false);
		linsn_ref(sel, SR_RB, s, 0, 1, false);
		linsn_ref(sel, SR_PC, p, 0, 1, false);
		up = t;
	}
	uint32_t d = lw_temp(c, 1);
	lw_shr_imm(c, d, 0, up, 0, 1, true);
	return d;
}

/* The operation on one lane's extended values. */
static uint32_t lane_op(LowerCtx *c, const SimdForm *f, uint32_t x, uint32_t y)
{
	int64_t sat_type = I2I_U8 + (f->lanes == 2 ? 2 : 0) + (f->sd ? 1 : 0);
	uint32_t t;
	switch (f->op) {
	case SIMD_ADD:
	case SIMD_SUB:
		t = lw_iadd(c, LW_NO_DST, x, y, f->op == SIMD_SUB);
		break;
	case SIMD_ABSDIFF:
		t = lw_iadd(c, LW_NO_DST, x, y, true);
		return i2i(c, t, f->sat ? sat_type : I2I_S32, f->sat, true);
	case SIMD_AVRG:
		t = average(c, f, x, y);
		break;
	case SIMD_MIN:
	case SIMD_MAX: {
		t = lw_temp(c, 1);
		LInsn *op = lw_emit(c, SF_IMNMX_R);
		linsn_ref(op, SR_RD, t, 0, 1, true);
		linsn_ref(op, SR_RA, x, 0, 1, false);
		linsn_ref(op, SR_RB, y, 0, 1, false);
		linsn_set(op, SR_SIGNED, 1);     /* extended lanes compare as signed words */
		linsn_set(op, SR_PC, PT);
		linsn_set(op, SR_PC_NOT, f->op == SIMD_MAX);
		break;
	}
	case SIMD_SET:
	default: {
		uint32_t m = lw_temp(c, 1);
		LInsn *set = lw_emit(c, SF_ISET_R);
		linsn_ref(set, SR_RD, m, 0, 1, true);
		linsn_ref(set, SR_RA, x, 0, 1, false);
		linsn_ref(set, SR_RB, y, 0, 1, false);
		linsn_set(set, SR_CMP, f->cmp);
		linsn_set(set, SR_SIGNED, 1);
		linsn_set(set, SR_PC, PT);
		t = lw_temp(c, 1);
		LInsn *and = lw_emit(c, SF_LOP32I);
		linsn_ref(and, SR_RD, t, 0, 1, true);
		linsn_ref(and, SR_RA, m, 0, 1, false);
		linsn_set(and, SR_LOPOP, LOP_AND);
		linsn_set(and, SR_IMM, 1);
		return t;
	}
	}
	return f->sat ? i2i(c, t, sat_type, true, false) : t;
}

/* The PRMT selector that puts lane i of the first source (its low byte or
 * half-word) at lane i and keeps the other bytes of the second. */
static uint32_t insert_selector(const SimdForm *f, unsigned i)
{
	uint32_t s = 0;
	for (unsigned j = 0; j < 4; j++) {
		unsigned per = f->bits / 8;
		uint32_t nib = j / per == i ? j % per : 4 + j;
		s |= nib << (4 * j);
	}
	return s;
}

static void emit_simd(LowerCtx *c, const SimdForm *f, uint32_t d, uint32_t a, uint32_t b, uint32_t cv)
{
	uint32_t va = f->asel == 0x3210 ? a : f->asel == 0x7654 ? b : prmt(c, LW_NO_DST, a, f->asel, b);
	uint32_t vb = f->bsel == 0x3210 ? a : f->bsel == 0x7654 ? b : prmt(c, LW_NO_DST, a, f->bsel, b);
	uint32_t t[4];
	unsigned last = 0, first = f->lanes;
	for (unsigned i = 0; i < f->lanes; i++)
		if (f->mask & (1u << i)) {
			t[i] = lane_op(c, f, lane(c, f, va, i, f->sa), lane(c, f, vb, i, f->sb));
			last = i;
			if (first == f->lanes)
				first = i;
		}
	bool all = f->mask == (1u << f->lanes) - 1;
	uint32_t r = f->add || !all ? cv : t[first];
	for (unsigned i = (f->add || !all) ? first : first + 1; i <= last; i++) {
		if (!(f->mask & (1u << i)))
			continue;
		uint32_t to = i == last ? d : LW_NO_DST;
		r = f->add ? lw_iadd(c, to, r, t[i], false) : prmt(c, to, t[i], insert_selector(f, i), r);
	}
}

/* vavrg2.u32.u32.u32 d, a, b, c with every lane and no selection: ptxas
 * 11.8's whole-word rounding-up average, (a | b) - (((a ^ b) & 0xfffefffe)
 * >> 1) (the low lane's bit 0 of the difference kept out of the high
 * lane): LOP3.LUT t, a, 0xfffefffe, b, 0x48 ((a ^ b) & imm), LOP.OR,
 * SHR.U32, IADD as at -O3. */
static void average_u16x2(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b)
{
	enum { LUT_A_XOR_C_AND_B = 0x48, LOP_OR = 1 };
	uint32_t t = lw_temp(c, 1), o = lw_temp(c, 1), h = lw_temp(c, 1);
	LInsn *op = lw_emit(c, SF_LOP3_I);
	linsn_ref(op, SR_RD, t, 0, 1, true);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_set(op, SR_IMM, -0x10002);
	linsn_ref(op, SR_RC, b, 0, 1, false);
	linsn_set(op, SR_LUT, LUT_A_XOR_C_AND_B);
	op = lw_emit(c, SF_LOP_R);
	linsn_ref(op, SR_RD, o, 0, 1, true);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_ref(op, SR_RB, b, 0, 1, false);
	linsn_set(op, SR_LOPOP, LOP_OR);
	lw_shr_imm(c, h, 0, t, 0, 1, false);
	lw_iadd(c, d, o, h, true);
}

bool lw_video_simd(LowerCtx *c, const Instr *in)
{
	SimdForm f = { 0 };
	size_t n = strlen(in->opcode);
	f.lanes = in->opcode[n - 1] == '2' ? 2 : 4;
	f.bits = 32 / f.lanes;
	bool found = false;
	for (size_t i = 0; i < sizeof simd_ops / sizeof simd_ops[0]; i++)
		if (strlen(simd_ops[i].name) == n - 1 && strncmp(in->opcode, simd_ops[i].name, n - 1) == 0) {
			f.op = simd_ops[i].op;
			found = true;
		}
	bool sg[3];
	unsigned ntypes = f.op == SIMD_SET ? 2 : 3;
	if (!found || !lw_video_signs(in, ntypes, sg))
		return lw_unsupported(c, in->loc, "%s without its %s types", in->opcode,
		                      ntypes == 2 ? "two (atype.btype)" : "three (dtype.atype.btype)");
	f.sd = ntypes == 3 && sg[0];
	f.sa = sg[ntypes - 2];
	f.sb = sg[ntypes - 1];
	f.sat = lw_has_mod(in, ".sat");
	f.add = lw_has_mod(in, ".add");
	f.cmp = lw_video_cmp(in);
	uint32_t d, a, b, cv;
	const char *dsel, *asel, *bsel, *csel;
	if (!lw_video_reg(c, in->ops[0], &d, &dsel) || !lw_video_reg(c, in->ops[1], &a, &asel) ||
	    !lw_video_reg(c, in->ops[2], &b, &bsel) || !lw_video_reg(c, in->ops[3], &cv, &csel))
		return false;
	const char *lane_word = f.lanes == 2 ? ".hxy, x and y 0-3" : ".bxyzw, each 0-7";
	bool a_ok = source_selector(asel, f.lanes, 0x3210, &f.asel);
	if (!a_ok || !source_selector(bsel, f.lanes, 0x7654, &f.bsel))
		return lw_unsupported(c, in->ops[a_ok ? 2 : 1]->loc, "the %s selector '%s' (%s)", in->opcode,
		                      a_ok ? bsel : asel, lane_word);
	if (!lane_mask(dsel, f.lanes, &f.mask))
		return lw_unsupported(c, in->ops[0]->loc, "the %s lane mask '%s' (%s)", in->opcode, dsel,
		                      f.lanes == 2 ? ".h0, .h1, .h10" : ".b3210 or its lanes in descending order");
	if (f.op == SIMD_AVRG && f.lanes == 2 && !f.sd && !f.sa && !f.sb && !f.sat && !f.add && f.mask == 3 &&
	    f.asel == 0x3210 && f.bsel == 0x7654)
		average_u16x2(c, d, a, b);
	else
		emit_simd(c, &f, d, a, b, cv);
	return true;
}
