/* Lowering of the scalar video instructions (video2): ptxas 11.8 writes
 * one sm_50 instruction for each, and so do we:
 *   vadd/vsub.dtype.atype.btype{.sat}{.op2} d, a{.sel}, b{.sel}{, c}
 *       VADD{.UD}.fa.fb{.SAT}{.ACC|.MIN|.MAX} d, a, [-]b, c|RZ
 *   vmin/vmax (same)                      VMNMX{.UD}.fa.fb{.MX}...
 *   vshl/vshr.dtype.atype.u32{.sat}.mode{.op2}  VSHL/VSHR{.UD}.fa.fb{.W}...
 *   vset.atype.btype.cmp{.op2} d, a, b{, c}     VSET.cmp.fa.fb{.mode}
 *   vmad.dtype.atype.btype{.po}{.sat}{.shr7|.shr15} d, {-}a, {-}b, {-}c
 *       VMAD.fa.fb{.PO}{.SHR_7|.SHR_15}{.SAT} d, [-]a, b, [-]c
 * The formats are the operands' parts (.b0-.b3, .h0, .h1, the word) and
 * types' signedness, .UD an unsigned dtype (vmad's dtype is not in the
 * word: its result is signed when anything is, as ptxas writes it). A
 * constant b that fits 16 bits (0..0xffff unsigned, 0..0x7fff signed) is
 * the immediate form, as ptxas writes it; vset's is not: ptxas 11.8 writes
 * a word for it that its own nvdisasm reads as ST.E.S16, so it goes
 * through a register. Refused: a destination selector (the merge into c),
 * and negated operands where ptxas rejects them (the others; vmad's -a or
 * -b with -c; vmad.po's, but -a with -b). */
#include "lower/lower_internal.h"
#include "isa/vmad_negation.h"

#include <string.h>

typedef struct VideoOp {
	const char *name;
	SassFormId reg, imm;
	unsigned ntypes;        /* 2: vset (atype.btype), else dtype.atype.btype */
} VideoOp;

static const VideoOp video_ops[] = {
	{ "vadd", SF_VADD_R, SF_VADD_I, 3 },   { "vsub", SF_VADD_R, SF_VADD_I, 3 },
	{ "vmin", SF_VMNMX_R, SF_VMNMX_I, 3 }, { "vmax", SF_VMNMX_R, SF_VMNMX_I, 3 },
	{ "vshl", SF_VSHL_R, SF_VSHL_I, 3 },   { "vshr", SF_VSHR_R, SF_VSHR_I, 3 },
	{ "vmad", SF_VMAD_R, SF_VMAD_I, 3 },   { "vset", SF_VSET_R, SF_VSET_R, 2 },
};

/* A source: "-x" sets *neg; the register in *vreg with its selector. */
static bool video_source(LowerCtx *c, const Expr *e, uint32_t *vreg, const char **sel, bool *neg)
{
	*neg = false;
	if (e->kind == EX_UNARY && e->op == '-' && e->lhs->kind == EX_NAME) {
		*neg = true;
		e = e->lhs;
	}
	return lw_video_reg(c, e, vreg, sel);
}

bool lw_video_scalar(LowerCtx *c, const Instr *in)
{
	const VideoOp *op = NULL;
	for (size_t i = 0; i < sizeof video_ops / sizeof video_ops[0]; i++)
		if (strcmp(in->opcode, video_ops[i].name) == 0)
			op = &video_ops[i];
	bool sg[3], vmad = op->reg == SF_VMAD_R, vset = op->reg == SF_VSET_R;
	bool shift = op->reg == SF_VSHL_R || op->reg == SF_VSHR_R;
	if (!lw_video_signs(in, op->ntypes, sg))
		return lw_unsupported(c, in->loc, "%s without its %s types", in->opcode,
		                      vset ? "two (atype.btype)" : "three (dtype.atype.btype)");
	bool dsigned = !vset && sg[0], asigned = sg[op->ntypes - 2], bsigned = !shift && sg[op->ntypes - 1];
	uint32_t d, a, b = 0, cv = 255;
	const char *dsel, *asel, *bsel = NULL, *csel = NULL;
	bool neg_d, neg_a, neg_b = false, neg_c = false;
	if (!video_source(c, in->ops[0], &d, &dsel, &neg_d) || !video_source(c, in->ops[1], &a, &asel, &neg_a))
		return false;
	if (dsel != NULL)
		return lw_unsupported(c, in->ops[0]->loc, "%s with a destination selector ('%s': the merge into c; %s "
		                      "d, a, b%s without it is supported)", in->opcode, dsel, in->opcode,
		                      vmad ? ", c" : "{, c}");
	int64_t imm = 0;
	bool is_imm = !vset && in->ops[2]->kind != EX_UNARY && lw_video_imm(c, in->ops[2], bsigned, &imm);
	if (!is_imm && !video_source(c, in->ops[2], &b, &bsel, &neg_b))
		return false;
	int64_t mode = vmad ? 7 : lw_video_mode(in);
	bool has_c = vmad || mode != 7;
	if (has_c && in->nops == 4 && !video_source(c, in->ops[3], &cv, &csel, &neg_c))
		return false;
	int64_t fa = lw_video_format(asel, asigned), fb = lw_video_format(bsel, bsigned);
	if (fa < 0 || fb < 0)
		return lw_unsupported(c, in->ops[fa < 0 ? 1 : 2]->loc, "the video selector '%s' (.b0-.b3, .h0, .h1 "
		                      "are the scalar selectors)", fa < 0 ? asel : bsel);
	bool po = lw_has_mod(in, ".po");
	if (neg_d)
		return lw_unsupported(c, in->ops[0]->loc, "a negated destination (ptxas 11.8: \"Operand negation limited "
		                      "to either (source A xor source B) or source C\")");
	VmadNegation fault = vmad ? vmad_negation(po, neg_a, neg_b, neg_c) : VMAD_NEG_FITS;
	if (fault == VMAD_NEG_PRODUCT_AND_C)
		return lw_unsupported(c, in->loc, "vmad with a negated product and a negated c (ptxas 11.8: \"%s\")",
		                      vmad_negation_ptxas_message(fault));
	if (fault == VMAD_NEG_WITH_PO)
		return lw_unsupported(c, in->loc, "vmad.po with a negated operand (ptxas 11.8: \"%s\"; -a with -b is the "
		                      "product itself)", vmad_negation_ptxas_message(fault));
	if (!vmad && (neg_a || neg_b || neg_c))
		return lw_unsupported(c, in->loc, "%s with a negated operand (ptxas 11.8: \"Operand negation not allowed "
		                      "for instruction '%s'\"; vmad negates)", in->opcode, in->opcode);

	LInsn *vi = lw_emit(c, is_imm ? op->imm : op->reg);
	linsn_ref(vi, SR_RD, d, 0, 1, true);
	linsn_ref(vi, SR_RA, a, 0, 1, false);
	if (is_imm) {
		linsn_set(vi, SR_IMM, imm);
		if (!shift)
			linsn_set(vi, SR_VFMT_B, bsigned);       /* e_vimmfmt: U16 0, S16 1 */
	} else {
		linsn_ref(vi, SR_RB, b, 0, 1, false);
		linsn_set(vi, SR_VFMT_B, fb);
	}
	if (has_c && cv != 255)
		linsn_ref(vi, SR_RC, cv, 0, 1, false);
	else
		linsn_set(vi, SR_RC, 255);
	linsn_set(vi, SR_VFMT_A, fa);
	if (vmad) {
		int64_t scale = lw_has_mod(in, ".shr7") ? 1 : lw_has_mod(in, ".shr15") ? 2 : 0;
		linsn_set(vi, SR_NEGA, po || (neg_a != neg_b));
		linsn_set(vi, SR_NEGC, po || neg_c);
		linsn_set(vi, SR_VSCALE, scale);
		linsn_set(vi, SR_SAT, lw_has_mod(in, ".sat"));
		return true;
	}
	linsn_set(vi, SR_VMODE, mode);
	if (vset) {
		linsn_set(vi, SR_CMP, lw_video_cmp(in));
		return true;
	}
	linsn_set(vi, SR_SAT, lw_has_mod(in, ".sat"));
	linsn_set(vi, SR_SD, dsigned);
	if (op->reg == SF_VADD_R)
		linsn_set(vi, SR_NEG, strcmp(in->opcode, "vsub") == 0);
	else if (op->reg == SF_VMNMX_R)
		linsn_set(vi, SR_VMAX, strcmp(in->opcode, "vmax") == 0);
	else
		linsn_set(vi, SR_W, lw_has_mod(in, ".wrap"));
	return true;
}
