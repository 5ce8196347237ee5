/* Lowering of the PTX video instructions (issue 17). Where ptxas 11.8
 * writes one sm_50 instruction, the same one:
 *   vabsdiff.dtype.atype.btype{.op2} d, a{.sel}, b{.sel}{, c}
 *       VABSDIFF{.SD}.fa.fb{.ACC|.MIN|.MAX} d, a{.part}, b{.part}, c|RZ
 *   vabsdiff4.u32.atype.btype{.add} d, a, b, c
 *       VABSDIFF4{.U8,.S8}{.U8,.S8}{.ACC} d, a, b, c
 * vadd2/vadd4/vsub2/vsub4 without .sat, .add, masks or selections as
 * whole-word carry tricks (ptxas's -O0 code for vadd; its signed vsub goes
 * lane by lane with the same results); vadd, vsub, vmin, vmax, vshl, vshr,
 * vmad and vset as one VADD/VMNMX/VSHL/VSHR/VMAD/VSET each
 * (lower_video_scalar.c). The rest of the SIMD family (.sat, .add, masks,
 * selections, vavrg, vmin, vmax, vset, vabsdiff4 with a signed dtype)
 * goes lane by lane
 * as ptxas emulates it (lower_video_simd.c). vabsdiff's b is the 16-bit
 * immediate when ptxas writes one (lw_video_imm). Refused by name: vabsdiff
 * with a destination merge, which has no simulator model to check it
 * against. */
#include "lower/lower_internal.h"

#include <string.h>

/* The instruction's type words in order (dtype, atype, btype); false
 * unless there are exactly three. */
static bool video_types(const Instr *in, PtxTy t[3])
{
	unsigned n = 0;
	for (uint32_t i = 0; i < in->nmods; i++) {
		PtxTy ty = ptx_type_of_word(in->mods[i]);
		if (ty.bits == 0)
			continue;
		if (n == 3)
			return false;
		t[n++] = ty;
	}
	return n == 3;
}

LInsn *lw_vabsdiff(LowerCtx *c, uint32_t d, uint32_t a, unsigned asub, uint32_t b, unsigned bsub, int cv,
                   unsigned csub, int64_t fa, int64_t fb, int64_t mode, bool sd)
{
	LInsn *op = lw_emit(c, SF_VABSDIFF);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, a, asub, 1, false);
	linsn_ref(op, SR_RB, b, bsub, 1, false);
	if (cv >= 0)
		linsn_ref(op, SR_RC, (uint32_t)cv, csub, 1, false);
	else
		linsn_set(op, SR_RC, 255);
	linsn_set(op, SR_VFMT_A, fa);
	linsn_set(op, SR_VFMT_B, fb);
	linsn_set(op, SR_VMODE, mode);
	linsn_set(op, SR_SD, sd);
	return op;
}

static bool lower_vabsdiff(LowerCtx *c, const Instr *in)
{
	PtxTy t[3];
	uint32_t d, a, b = 0, cv = 255;
	const char *dsel, *asel, *bsel = NULL, *csel = NULL;
	if (!video_types(in, t))
		return lw_unsupported(c, in->loc, "vabsdiff without its three types (dtype.atype.btype)");
	int64_t imm = 0;
	bool is_imm = lw_video_imm(c, in->ops[2], t[2].is_signed, &imm);
	if (!lw_video_reg(c, in->ops[0], &d, &dsel) || !lw_video_reg(c, in->ops[1], &a, &asel) ||
	    (!is_imm && !lw_video_reg(c, in->ops[2], &b, &bsel)) ||
	    (in->nops == 4 && !lw_video_reg(c, in->ops[3], &cv, &csel)))
		return false;
	if (dsel != NULL)
		return lw_unsupported(c, in->ops[0]->loc, "vabsdiff with a destination selector ('%s': the merge "
		                      "into c; vabsdiff d, a, b{, c} without it is supported)", dsel);
	int64_t fa = lw_video_format(asel, t[1].is_signed), fb = lw_video_format(bsel, t[2].is_signed);
	if (fa < 0 || fb < 0)
		return lw_unsupported(c, in->ops[fa < 0 ? 1 : 2]->loc, "the video selector '%s' (.b0-.b3, .h0, .h1 "
		                      "are the scalar selectors)", fa < 0 ? asel : bsel);
	int64_t mode = lw_video_mode(in);
	/* ptxas passes c even without a secondary operation, which ignores it */
	int cvreg = in->nops == 4 ? (int)cv : -1;
	if (is_imm) {
		/* VABSDIFF Rd, Ra, imm16, Rc: U16 or S16 by b's type */
		LInsn *op = lw_emit(c, SF_VABSDIFF_I);
		linsn_ref(op, SR_RD, d, 0, 1, true);
		linsn_ref(op, SR_RA, a, 0, 1, false);
		linsn_set(op, SR_IMM, imm);
		if (cvreg >= 0)
			linsn_ref(op, SR_RC, cv, 0, 1, false);
		else
			linsn_set(op, SR_RC, 255);
		linsn_set(op, SR_VFMT_A, fa);
		linsn_set(op, SR_VFMT_B, t[2].is_signed);      /* e_vimmfmt: U16 0, S16 1 */
		linsn_set(op, SR_VMODE, mode);
		linsn_set(op, SR_SD, t[0].is_signed);
		linsn_set(op, SR_SAT, lw_has_mod(in, ".sat"));
		return true;
	}
	LInsn *op = lw_vabsdiff(c, d, a, 0, b, 0, cvreg, 0, fa, fb, mode, t[0].is_signed);
	linsn_set(op, SR_SAT, lw_has_mod(in, ".sat"));
	return true;
}

/* Whether a SIMD operand names lanes (a destination mask or a source
 * selection): those go lane by lane (lower_video_simd.c). */
static bool selected(const Instr *in)
{
	for (uint32_t i = 0; i < in->nops; i++)
		if (in->ops[i]->kind == EX_NAME && in->ops[i]->component)
			return true;
	return false;
}

static bool lower_vabsdiff4(LowerCtx *c, const Instr *in)
{
	PtxTy t[3];
	uint32_t d, a, b, cv;
	const char *dsel, *asel, *bsel, *csel;
	if (!video_types(in, t))
		return lw_unsupported(c, in->loc, "vabsdiff4 without its three types (dtype.atype.btype)");
	if (t[0].is_signed || lw_has_mod(in, ".sat") || selected(in))
		return lw_video_simd(c, in);
	if (!lw_video_reg(c, in->ops[0], &d, &dsel) || !lw_video_reg(c, in->ops[1], &a, &asel) ||
	    !lw_video_reg(c, in->ops[2], &b, &bsel) || !lw_video_reg(c, in->ops[3], &cv, &csel))
		return false;
	LInsn *op = lw_emit(c, SF_VABSDIFF4);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_ref(op, SR_RB, b, 0, 1, false);
	linsn_ref(op, SR_RC, cv, 0, 1, false);
	linsn_set(op, SR_SA, t[1].is_signed);   /* e_v4fmt: U8 0, S8 1 */
	linsn_set(op, SR_SB, t[2].is_signed);
	linsn_set(op, SR_VSEL_A, 4);
	linsn_set(op, SR_VSEL_B, 4);
	linsn_set(op, SR_VLANES, 0xf);
	linsn_set(op, SR_VRED, lw_has_mod(in, ".add"));
	return true;
}

/* ---- vadd2/vadd4/vsub2/vsub4 without .sat: whole-word carry tricks ---- */

enum { LOP_AND = 0, LOP_OR = 1, LOP_XOR = 2 };

static uint32_t lop_rr(LowerCtx *c, uint32_t a, uint32_t b, int64_t op, bool invb)
{
	uint32_t d = lw_temp(c, 1);
	LInsn *in = lw_emit(c, SF_LOP_R);
	linsn_ref(in, SR_RD, d, 0, 1, true);
	linsn_ref(in, SR_RA, a, 0, 1, false);
	linsn_ref(in, SR_RB, b, 0, 1, false);
	linsn_set(in, SR_LOPOP, op);
	linsn_set(in, SR_INVB, invb);
	return d;
}

static uint32_t lop_imm(LowerCtx *c, uint32_t a, int64_t op, uint32_t imm)
{
	uint32_t d = lw_temp(c, 1);
	LInsn *in = lw_emit(c, SF_LOP32I);
	linsn_ref(in, SR_RD, d, 0, 1, true);
	linsn_ref(in, SR_RA, a, 0, 1, false);
	linsn_set(in, SR_LOPOP, op);
	linsn_set(in, SR_IMM, imm);
	return d;
}

/* The lanes' sums or differences modulo 2^8 / 2^16 do not depend on the
 * lanes' signedness, so every type triple shares one sequence:
 *   vadd4: ((a & 0x7f7f7f7f) + (b & 0x7f7f7f7f)) ^ ((a ^ b) & 0x80808080)
 *   vsub4: ((a | 0x80808080) - (b & 0x7f7f7f7f)) ^ ((a ^ ~b) & 0x80808080)
 *   vadd2: s = a + b; s - ((a ^ b ^ s) & 0x10000)  (the low lane's carry out)
 *   vsub2: s = a - b; s + ((a ^ b ^ s) & 0x10000)  (the low lane's borrow)
 * vadd4 and vadd2 are ptxas 11.8's -O0 sequences; its vsub4/vsub2 of
 * signed lanes go lane by lane, with the same results. */
static void simd_add_sub(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b, bool sub, bool four)
{
	if (four) {
		uint32_t sign = lop_imm(c, lop_rr(c, a, b, LOP_XOR, sub), LOP_AND, 0x80808080u);
		uint32_t x = lop_imm(c, a, sub ? LOP_OR : LOP_AND, sub ? 0x80808080u : 0x7f7f7f7fu);
		uint32_t y = lop_imm(c, b, LOP_AND, 0x7f7f7f7fu);
		uint32_t sum = lw_iadd(c, LW_NO_DST, x, y, sub);
		LInsn *in = lw_emit(c, SF_LOP_R);
		linsn_ref(in, SR_RD, d, 0, 1, true);
		linsn_ref(in, SR_RA, sum, 0, 1, false);
		linsn_ref(in, SR_RB, sign, 0, 1, false);
		linsn_set(in, SR_LOPOP, LOP_XOR);
		return;
	}
	uint32_t s = lw_iadd(c, LW_NO_DST, a, b, sub);
	uint32_t carry = lop_imm(c, lop_rr(c, lop_rr(c, a, b, LOP_XOR, false), s, LOP_XOR, false), LOP_AND, 0x10000u);
	lw_iadd(c, d, s, carry, !sub);
}

static bool lower_simd_add_sub(LowerCtx *c, const Instr *in, bool sub, bool four)
{
	PtxTy t[3];
	uint32_t d, a, b, cv;
	const char *dsel, *asel, *bsel, *csel;
	if (!video_types(in, t))
		return lw_unsupported(c, in->loc, "%s without its three types (dtype.atype.btype)", in->opcode);
	if (lw_has_mod(in, ".sat") || lw_has_mod(in, ".add") || selected(in))
		return lw_video_simd(c, in);
	if (!lw_video_reg(c, in->ops[0], &d, &dsel) || !lw_video_reg(c, in->ops[1], &a, &asel) ||
	    !lw_video_reg(c, in->ops[2], &b, &bsel) || !lw_video_reg(c, in->ops[3], &cv, &csel))
		return false;
	simd_add_sub(c, d, a, b, sub, four);
	return true;
}

bool lower_video(LowerCtx *c, const Instr *in)
{
	if (strcmp(in->opcode, "vabsdiff") == 0)
		return lower_vabsdiff(c, in);
	if (strcmp(in->opcode, "vabsdiff4") == 0)
		return lower_vabsdiff4(c, in);
	if (strncmp(in->opcode, "vadd", 4) == 0 || strncmp(in->opcode, "vsub", 4) == 0)
		if (in->opcode[4] == '2' || in->opcode[4] == '4')
			return lower_simd_add_sub(c, in, in->opcode[1] == 's', in->opcode[4] == '4');
	/* the scalar ones (vadd vsub vmin vmax vshl vshr vmad vset) go straight
	 * to lower_video_scalar.c from lower.c's table, which uses this file's
	 * operand helpers: calls only one way */
	return lw_video_simd(c, in);
}
