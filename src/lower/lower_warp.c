/* Lowering of the warp operations as ptxas 11.8 emits them for sm_50:
 * shfl{.sync}.mode.b32 -> SHFL.mode (lane and mask as registers or
 * immediates, the predicate output or PT), vote{.sync}.all/.any/.uni.pred
 * -> VOTE.ALL/.ANY/.EQ with an RZ ballot, vote.ballot.b32 -> VOTE.ANY Rd,
 * PT, and mov of %clock64 / %globaltimer / %pm0_64..%pm7_64 -> ptxas's CS2R
 * sequence (high, low, and the high word again when the low one has
 * wrapped: lw_read_special64). shfl.sync's member mask is not encoded
 * (sm_50 runs a warp in lockstep). vote.sync's is, when it is not the
 * immediate 0xffffffff, as ptxas 11.8 computes it (measured): the ballot
 * keeps only the mask's lanes (VOTE.ANY, LOP.AND), .any tests that
 * ballot, and .all/.uni compare it with the ballot of the active lanes in
 * the mask (a lane outside the mask votes in neither). */
#include "lower/lower_f32seq.h"

#include <string.h>

enum { SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_BFLY };
enum { VOTE_ALL, VOTE_ANY, VOTE_EQ };

static int mode_of(const Instr *in, const char *const *words, unsigned n)
{
	for (uint32_t i = 0; i < in->nmods; i++)
		for (unsigned k = 0; k < n; k++)
			if (strcmp(in->mods[i], words[k]) == 0)
				return (int)k;
	return -1;
}

/* shfl.mode.b32 d[|p], a, b, c{, membermask} */
bool lower_shfl(LowerCtx *c, const Instr *in)
{
	static const char *const modes[] = { ".idx", ".up", ".down", ".bfly" };
	int mode = mode_of(in, modes, 4);
	bool sync = lw_has_mod(in, ".sync");
	if (mode < 0 || in->nops != (sync ? 5u : 4u))
		return lw_unsupported(c, in->loc, "this shfl form");
	const Expr *d = in->ops[0], *p = NULL;
	if (d->kind == EX_BINARY && d->op == '|') {
		p = d->rhs;
		d = d->lhs;
	}
	uint32_t dst, src, pv = 0;
	unsigned dw;
	Opnd a, b, cm;
	if (!lw_reg(c, d, &dst, &dw) || !lw_opnd(c, in->ops[1], &a) || (p && !lw_pred(c, p, &pv)) ||
	    !lw_opnd(c, in->ops[2], &b) || !lw_opnd(c, in->ops[3], &cm))
		return false;
	if (a.kind == OPND_IMM) {
		src = lw_temp(c, 1);
		lw_mov32i(c, src, 0, (uint32_t)a.imm);
	} else {
		src = a.vreg;
	}
	if ((b.kind == OPND_IMM && (b.imm < 0 || b.imm > 31)) || (cm.kind == OPND_IMM && (cm.imm < 0 || cm.imm > 0x1fff)))
		return lw_unsupported(c, in->loc, "a shfl lane above 31 or mask above 0x1fff");
	/* ptxas writes a zero mask as RZ */
	bool cm_imm = cm.kind == OPND_IMM && cm.imm != 0;
	SassFormId f = b.kind == OPND_IMM ? (cm_imm ? SF_SHFL_II : SF_SHFL_IR) : (cm_imm ? SF_SHFL_RI : SF_SHFL_RR);
	LInsn *op = lw_emit(c, f);
	linsn_set(op, SR_SHFLMODE, mode);
	linsn_ref(op, SR_RD, dst, 0, 1, true);
	linsn_ref(op, SR_RA, src, 0, 1, false);
	if (b.kind == OPND_IMM)
		linsn_set(op, SR_IMM, b.imm);
	else
		linsn_ref(op, SR_RB, b.vreg, 0, 1, false);
	if (cm_imm)
		linsn_set(op, SR_SHFLC, cm.imm);
	else if (cm.kind == OPND_IMM)
		linsn_set(op, SR_RC, 255);
	else
		linsn_ref(op, SR_RC, cm.vreg, 0, 1, false);
	if (p)
		linsn_ref(op, SR_PD, pv, 0, 1, true);
	else
		linsn_set(op, SR_PD, 7);
	return true;
}

/* VOTE.ANY d, PT, [!]p: the ballot of p over the active lanes (p -1: PT). */
static void vote_any(LowerCtx *c, uint32_t d, int p, bool neg)
{
	LInsn *op = lw_emit(c, SF_VOTE);
	linsn_set(op, SR_VOTEMODE, VOTE_ANY);
	lw_op_pred(op, SR_PC, p, false);
	linsn_set(op, SR_PC_NOT, neg);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_set(op, SR_PD, 7);
}

/* vote.sync with member mask m (a register): see the file comment. */
static void vote_masked(LowerCtx *c, int mode, uint32_t d, int pa, bool neg, uint32_t m)
{
	/* the ballot goes to a temporary: d may be the mask's own register */
	uint32_t b = lw_temp(c, 1);
	vote_any(c, b, pa, neg);
	if (mode == 3) {                                    /* .ballot: ballot & m */
		fseq_lop(c, d, b, m, LOP_AND);
		return;
	}
	if (mode == VOTE_ANY) {                             /* (ballot & m) != 0 */
		fseq_lop_nz(c, d, b, m, LOP_AND, false);
		return;
	}
	uint32_t a = lw_temp(c, 1);
	vote_any(c, a, -1, false);                          /* the active lanes */
	fseq_lop(c, a, a, m, LOP_AND);
	fseq_lop(c, b, b, a, LOP_AND);
	if (mode == VOTE_ALL) {                             /* every member votes p */
		fseq_isetp_r(c, d, b, (int)a, CMP_EQ, false, BOP_AND, -1);
		return;
	}
	uint32_t same = lw_pred_temp(c);                    /* .uni: all or none */
	fseq_isetp_r(c, same, b, (int)a, CMP_EQ, false, BOP_AND, -1);
	fseq_isetp_r(c, d, b, -1, CMP_EQ, false, BOP_OR, (int)same);
}

/* vote.mode.pred d, [!]a and vote.ballot.b32 d, [!]a {, membermask} */
bool lower_vote(LowerCtx *c, const Instr *in)
{
	static const char *const modes[] = { ".all", ".any", ".uni", ".ballot" };
	int mode = mode_of(in, modes, 4);
	bool sync = lw_has_mod(in, ".sync");
	if (mode < 0 || in->nops != (sync ? 3u : 2u))
		return lw_unsupported(c, in->loc, "this vote form");
	int pa;
	bool neg;
	uint32_t d;
	unsigned dw;
	if (!lw_pred_value(c, in->ops[1], &pa, &neg))
		return false;
	bool ballot = mode == 3;
	if (ballot ? !lw_reg(c, in->ops[0], &d, &dw) : !lw_pred(c, in->ops[0], &d))
		return false;
	if (sync) {
		Opnd m;
		if (!lw_opnd(c, in->ops[2], &m))
			return false;
		if (m.kind == OPND_REG || (uint32_t)m.imm != 0xffffffffu) {
			uint32_t mr = m.vreg;
			if (m.kind == OPND_IMM) {
				mr = lw_temp(c, 1);
				lw_mov32i(c, mr, 0, (uint32_t)m.imm);
			}
			vote_masked(c, mode, d, pa, neg, mr);
			return true;
		}
	}
	LInsn *op = lw_emit(c, SF_VOTE);
	linsn_set(op, SR_VOTEMODE, ballot ? VOTE_ANY : mode == 2 ? VOTE_EQ : mode);
	lw_op_pred(op, SR_PC, pa, false);
	linsn_set(op, SR_PC_NOT, neg);
	if (ballot) {
		linsn_ref(op, SR_RD, d, 0, 1, true);
		linsn_set(op, SR_PD, 7);
	} else {
		linsn_set(op, SR_RD, 255);
		linsn_ref(op, SR_PD, d, 0, 1, true);
	}
	return true;
}

/* mov.u64 d, %clock64 / %globaltimer / %pm0_64..%pm7_64: ptxas's CS2R
 * reads (lw_read_special64). */
bool lower_clock64(LowerCtx *c, const Instr *in)
{
	const Expr *s = in->ops[1];
	uint32_t d;
	unsigned dw;
	if (!lw_reg(c, in->ops[0], &d, &dw))
		return false;
	if (dw != 2)
		return lw_unsupported(c, in->loc, "%s into a %u-bit register", s->text, 32 * dw);
	return lw_read_special64(c, s, d);
}
