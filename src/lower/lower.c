/* The lowering of one kernel's or function's body: lays out kernel
 * parameters, maps PTX registers and labels to virtual registers and label
 * ids, and hands each instruction to the handler of its opcode (the table
 * below). lower_stream.c drives it over a module. */
#include "lower/lower_internal.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- the opcode table ----------------------------------------------------- */

typedef bool (*LowerFn)(LowerCtx *, const Instr *);

/* Which rows of an opcode apply: a handler serves one kind of operation,
 * and the table, not the handler, picks it by the instruction's types and
 * state space (the first row that selects the instruction wins). */
typedef enum LowerSel {
	SEL_ANY,
	SEL_FLOAT,      /* the instruction type is a float type (add.f32) */
	SEL_PRED,       /* the instruction type is .pred (and.pred, mov.pred) */
	SEL_GLOBAL,     /* the .global state space */
	SEL_SHARED,     /* the .shared state space */
	SEL_LOCAL,      /* the .local state space */
	SEL_CONST,      /* the .const state space */
	SEL_GENERIC,    /* no state space: a generic address */
	SEL_CVT_FLOAT,  /* either type of a conversion is a float type */
	SEL_HI,         /* the .hi modifier (mul.hi, mad.hi) */
	SEL_F64,        /* the instruction type is .f64 */
	SEL_CVT_F2F,    /* a conversion with an .f64 side, or between two float types */
	/* ---- issue 17: integer families (lower_ints.c) ---- */
	SEL_INT64,      /* the instruction type is a 64-bit integer type */
	SEL_WIDE16,     /* .wide of a 16-bit type (mul.wide.u16) */
	SEL_HI16,       /* .hi of a 16-bit type (mul.hi.u16) */
	SEL_MAD_WIDE32, /* mad.wide of a 32-bit type */
	SEL_CC,         /* the .cc modifier (add.cc) */
	SEL_CLOCK64,    /* mov of the 64-bit clock or global timer */
	/* ---- issue 17: division and square root (lower_divsqrt.c) ---- */
	SEL_RN_F32,     /* .rn of an .f32 instruction without .ftz (sqrt.rn.f32) */
	SEL_RN_F64,     /* .rn of an .f64 instruction (rcp.rn.f64, sqrt.rn.f64) */
	/* ---- int64: integer abs, rcp.approx.ftz.f64 (lower_int64.c) ---- */
	SEL_INT,        /* the instruction type is an integer type (abs.s32) */
	SEL_APPROX_F64, /* .approx of an .f64 instruction (rcp.approx.ftz.f64) */
	/* ---- ctrl ---- */
	SEL_RED,        /* the .red modifier (bar.red) */
	/* ---- legacy2 ---- */
	SEL_RN_FTZ_F32, /* .rn.ftz of an .f32 instruction (sqrt.rn.ftz.f32) */
	/* ---- float-forms ---- */
	SEL_CVT_STAGED, /* a cvt ptxas builds in steps (lower_cvt_staged.c) */
	SEL_DIR_F64,    /* .rm/.rp/.rz of an .f64 instruction (div.rm.f64) */
	SEL_DIR_F32,    /* .rm/.rp/.rz of an .f32 instruction (sqrt.rm.f32) */
} LowerSel;

/* Operand counts are checked here, before any lowering function indexes
 * in->ops[]: an instruction with too few operands would be read past its
 * end, one with too many would lose the extra ones without a word. */
static const struct { const char *opcode; LowerSel sel; LowerFn fn; uint8_t min_ops, max_ops; } lower_table[] = {
	/* ---- int64: integer abs, activemask and rcp.approx.ftz.f64
	 * (lower_int64.c), ahead of the float abs and MUFU rows ---- */
	/* ---- oldops: PTX 1.x set, mul24/mad24 (lower_legacy.c) ---- */
	{ "set", SEL_ANY, lower_set, 3, 4 }, { "cnot", SEL_ANY, lower_cnot, 2, 2 }, { "mul24", SEL_ANY, lower_mul24, 3, 3 },
	{ "mad24", SEL_ANY, lower_mul24, 4, 4 }, { "slct", SEL_ANY, lower_slct, 4, 4 },
	{ "abs", SEL_INT, lower_abs_int, 2, 2 }, { "rcp", SEL_APPROX_F64, lower_rcp_approx_f64, 2, 2 },
	{ "activemask", SEL_ANY, lower_activemask, 1, 1 },
	/* ---- f64div: div.rn.f64 (lower_ddiv.c), rsqrt.approx[.ftz].f64
	 * (lower_drsqrt.c), ahead of the MUFU and f32 division rows ---- */
	{ "div", SEL_RN_F64, lower_div_rn_f64, 3, 3 }, { "rsqrt", SEL_F64, lower_rsqrt_f64, 2, 2 },
	/* ---- float-forms: div.rm/.rp/.rz.f64 (lower_ddiv_dir.c) ---- */
	{ "div", SEL_DIR_F64, lower_div_dir_f64, 3, 3 },
	{ "sqrt", SEL_DIR_F64, lower_sqrt_dir_f64, 2, 2 },   /* lower_dsqrt_dir.c */
	/* ---- issue 17: 64-bit clz and bfi (lower_bits64.c), ahead of the
	 * 32-bit rows of lower_bits.c ---- */
	{ "clz", SEL_INT64, lower_clz64, 2, 2 }, { "bfi", SEL_INT64, lower_bfi64, 5, 5 },
	/* ---- issue 17: integer families (lower_ints.c); ahead of the general
	 * add/sub/mul/mad/min/max rows they narrow ---- */
	{ "mul", SEL_INT64, lower_mul_ext, 3, 3 }, { "mad", SEL_INT64, lower_mul_ext, 4, 4 },
	{ "mul", SEL_WIDE16, lower_mul_ext, 3, 3 }, { "mad", SEL_WIDE16, lower_mul_ext, 4, 4 },
	{ "mul", SEL_HI16, lower_mul_ext, 3, 3 },
	{ "mad", SEL_MAD_WIDE32, lower_mul_ext, 4, 4 },
	{ "min", SEL_INT64, lower_minmax64, 3, 3 }, { "max", SEL_INT64, lower_minmax64, 3, 3 },
	{ "add", SEL_CC, lower_carry, 3, 3 }, { "sub", SEL_CC, lower_carry, 3, 3 },
	{ "addc", SEL_ANY, lower_carry, 3, 3 }, { "subc", SEL_ANY, lower_carry, 3, 3 },
	{ "shf", SEL_ANY, lower_shf, 4, 4 },
	{ "mad", SEL_CC, lower_mad_carry, 4, 4 }, { "madc", SEL_ANY, lower_mad_carry, 4, 4 },
	{ "mad", SEL_HI, lower_mad_carry, 4, 4 },
	{ "mov", SEL_PRED, lower_pred_logic, 2, 2 }, { "mov", SEL_CLOCK64, lower_clock64, 2, 2 },
	{ "mov", SEL_ANY, lower_mov, 2, 2 },
	{ "cvta", SEL_ANY, lower_cvta, 2, 2 },
	{ "ld", SEL_GLOBAL, lower_ld_global, 2, 2 }, { "ld", SEL_SHARED, lower_ld_window, 2, 2 },
	{ "ld", SEL_LOCAL, lower_ld_window, 2, 2 },
	/* ---- issue 15: module data ---- */
	{ "ld", SEL_CONST, lower_ld_const, 2, 2 }, { "ldu", SEL_GLOBAL, lower_ld_global, 2, 2 },
	{ "ld", SEL_GENERIC, lower_ld_generic, 2, 2 }, { "st", SEL_GENERIC, lower_st_generic, 2, 2 },
	{ "ld", SEL_ANY, lower_ld, 2, 2 }, { "st", SEL_SHARED, lower_st_window, 2, 2 },
	{ "st", SEL_LOCAL, lower_st_window, 2, 2 },
	{ "cvt", SEL_CVT_STAGED, lower_cvt_staged, 2, 2 }, { "cvt", SEL_CVT_F2F, lower_cvt_f2f, 2, 2 },
	{ "cvt", SEL_CVT_FLOAT, lower_cvt_float, 2, 2 }, { "cvt", SEL_ANY, lower_cvt, 2, 2 },
	{ "add", SEL_F64, lower_dadd, 3, 3 }, { "sub", SEL_F64, lower_dadd, 3, 3 },
	{ "mul", SEL_F64, lower_dmul, 3, 3 }, { "fma", SEL_F64, lower_dfma, 4, 4 },
	{ "mad", SEL_F64, lower_dfma, 4, 4 }, { "neg", SEL_F64, lower_dneg_abs, 2, 2 },
	{ "abs", SEL_F64, lower_dneg_abs, 2, 2 }, { "min", SEL_F64, lower_dminmax, 3, 3 },
	{ "max", SEL_F64, lower_dminmax, 3, 3 }, { "setp", SEL_F64, lower_dsetp, 3, 4 },
	{ "add", SEL_FLOAT, lower_fadd, 3, 3 }, { "add", SEL_ANY, lower_add_sub, 3, 3 },
	{ "sub", SEL_FLOAT, lower_fadd, 3, 3 }, { "sub", SEL_ANY, lower_add_sub, 3, 3 },
	{ "mul", SEL_FLOAT, lower_fmul, 3, 3 }, { "mul", SEL_HI, lower_mul_hi, 3, 3 },
	{ "mul", SEL_ANY, lower_mul, 3, 3 },
	/* probe: mad.f32 is fma.f32 (lower_ffma; the old mad.f32 with no
	 * rounding word is mad.rn.f32, as ptxas 11.8 compiles it: FFMA) */
	{ "mad", SEL_FLOAT, lower_ffma, 4, 4 },
	{ "mad", SEL_ANY, lower_mad, 4, 4 },
	{ "shl", SEL_ANY, lower_shift, 3, 3 }, { "shr", SEL_ANY, lower_shift, 3, 3 },
	{ "and", SEL_PRED, lower_pred_logic, 3, 3 }, { "and", SEL_ANY, lower_logic, 3, 3 },
	{ "or", SEL_PRED, lower_pred_logic, 3, 3 }, { "or", SEL_ANY, lower_logic, 3, 3 },
	{ "xor", SEL_PRED, lower_pred_logic, 3, 3 }, { "xor", SEL_ANY, lower_logic, 3, 3 },
	{ "not", SEL_PRED, lower_pred_logic, 2, 2 }, { "not", SEL_ANY, lower_not, 2, 2 },
	{ "setp", SEL_FLOAT, lower_fsetp, 3, 4 }, { "setp", SEL_ANY, lower_setp, 3, 4 },
	{ "selp", SEL_ANY, lower_selp, 4, 4 },
	{ "neg", SEL_FLOAT, lower_fneg_abs, 2, 2 }, { "neg", SEL_ANY, lower_neg, 2, 2 },
	{ "fma", SEL_ANY, lower_ffma, 4, 4 }, { "abs", SEL_ANY, lower_fneg_abs, 2, 2 },
	{ "min", SEL_ANY, lower_minmax, 3, 3 }, { "max", SEL_ANY, lower_minmax, 3, 3 },
	{ "bra", SEL_ANY, lower_bra, 1, 1 }, { "ret", SEL_ANY, lower_ret, 0, 0 },
	{ "exit", SEL_ANY, lower_exit, 0, 0 },
	{ "st", SEL_ANY, lower_st, 2, 2 }, { "suld", SEL_ANY, lower_suld, 2, 2 },
	{ "sust", SEL_ANY, lower_sust, 2, 2 }, { "sured", SEL_ANY, lower_sured, 2, 2 },
	{ "suq", SEL_ANY, lower_suq, 2, 2 },
	/* ---- issue 17: textures ---- */
	{ "tex", SEL_ANY, lower_tex, 2, 5 }, { "tld4", SEL_ANY, lower_tld4, 2, 4 },
	{ "txq", SEL_ANY, lower_txq, 2, 2 },
	/* ---- integer bit operations (lower_bits.c) ---- */
	{ "popc", SEL_ANY, lower_popc, 2, 2 }, { "clz", SEL_ANY, lower_clz, 2, 2 },
	{ "bfind", SEL_ANY, lower_bfind, 2, 2 }, { "brev", SEL_ANY, lower_brev, 2, 2 },
	{ "bfe", SEL_ANY, lower_bfe, 4, 4 }, { "bfi", SEL_ANY, lower_bfi, 5, 5 }, { "fns", SEL_ANY, lower_fns, 4, 4 },
	{ "prmt", SEL_ANY, lower_prmt, 4, 4 }, { "lop3", SEL_ANY, lower_lop3, 5, 5 },
	/* ---- barriers and fences (lower_sync.c) ---- */
	/* ---- ctrl: barrier reductions (lower_sync.c), ahead of bar's rows ---- */
	{ "bar", SEL_RED, lower_bar_red, 3, 4 }, { "barrier", SEL_RED, lower_bar_red, 3, 4 },
	{ "bar", SEL_ANY, lower_bar, 1, 2 }, { "barrier", SEL_ANY, lower_bar, 1, 2 },
	{ "membar", SEL_ANY, lower_membar, 0, 0 }, { "pmevent", SEL_ANY, lower_pmevent, 1, 1 },
	/* ---- texcache: prefetch (lower_prefetch.c) ---- */
	{ "prefetch", SEL_ANY, lower_prefetch, 1, 1 }, { "prefetchu", SEL_ANY, lower_prefetch, 1, 1 },
	/* ---- issue 17: division and square root (lower_divsqrt.c,
	 * lower_divsqrt64.c), ahead of the MUFU rows; copysign and sad
	 * (lower_bits64.c) ---- */
	{ "sqrt", SEL_RN_F32, lower_sqrt_f32, 2, 2 }, { "sqrt", SEL_RN_F64, lower_sqrt_rn_f64, 2, 2 },
	{ "rcp", SEL_RN_F64, lower_rcp_rn_f64, 2, 2 },
	{ "copysign", SEL_ANY, lower_copysign, 3, 3 }, { "sad", SEL_ANY, lower_sad, 4, 4 },
	/* ---- legacy2: sqrt.rn.ftz.f32 (lower_divsqrt.c), ahead of the MUFU rows ---- */
	{ "sqrt", SEL_RN_FTZ_F32, lower_sqrt_f32, 2, 2 },
	/* ---- floatdr: sqrt.rm/.rp/.rz[.ftz].f32 (lower_divsqrt.c) ---- */
	{ "sqrt", SEL_DIR_F32, lower_sqrt_f32, 2, 2 },
	/* ---- floatdr: rcp.rn.ftz.f32 and rcp.rm/.rp/.rz[.ftz].f32 (lower_frcp.c) ---- */
	{ "rcp", SEL_RN_FTZ_F32, lower_rcp_f32, 2, 2 }, { "rcp", SEL_DIR_F32, lower_rcp_f32, 2, 2 },
	/* ---- floatdr: div.rm/.rp/.rz[.ftz].f32 (lower_fdiv_dir.c) ---- */
	{ "div", SEL_DIR_F32, lower_div_dir_f32, 3, 3 },
	/* ---- divrn: div.rn.f32 and rcp.rn.f32 (lower_divrn.c), testp ---- */
	{ "div", SEL_RN_F32, lower_div_rn_f32, 3, 3 }, { "rcp", SEL_RN_F32, lower_rcp_f32, 2, 2 },
	{ "testp", SEL_ANY, lower_testp, 2, 2 },   /* lower_testp.c */
	/* ---- fmisc: div.rn.ftz.f32 (lower_divrn.c: the ftz slow path) ---- */
	{ "div", SEL_RN_FTZ_F32, lower_div_rn_f32, 3, 3 },
	/* ---- fmisc: rcp.rz/.rm/.rp.f64 (lower_drcp_dir.c), after rcp.rn.f64 and rcp.approx.f64 ---- */
	{ "rcp", SEL_F64, lower_rcp_dir_f64, 2, 2 },
	/* ---- special functions (lower_sfu.c) ---- */
	{ "sin", SEL_ANY, lower_sfu, 2, 2 }, { "cos", SEL_ANY, lower_sfu, 2, 2 },
	{ "ex2", SEL_ANY, lower_sfu, 2, 2 }, { "lg2", SEL_ANY, lower_sfu, 2, 2 },
	{ "rcp", SEL_ANY, lower_sfu, 2, 2 }, { "sqrt", SEL_ANY, lower_sfu, 2, 2 },
	{ "rsqrt", SEL_ANY, lower_sfu, 2, 2 }, { "div", SEL_FLOAT, lower_fdiv, 3, 3 },
	/* ---- integer division (lower_div.c) ---- */
	{ "div", SEL_ANY, lower_idiv, 3, 3 }, { "rem", SEL_ANY, lower_idiv, 3, 3 },
	/* ---- issue 15: calls (lower_call.c) ---- */
	{ "call", SEL_ANY, lower_call, 1, 4 }, { "trap", SEL_ANY, lower_trap, 0, 0 },
	/* ---- issue 17 part 1: atomics and warp operations (lower_atom.c, lower_warp.c) ---- */
	{ "atom", SEL_ANY, lower_atom, 3, 4 }, { "red", SEL_ANY, lower_red, 2, 2 },
	{ "shfl", SEL_ANY, lower_shfl, 4, 5 }, { "vote", SEL_ANY, lower_vote, 2, 3 },
	/* ---- issue 15/17 (misc): handle kinds and address windows (lower_istypep.c,
	 * lower_isspacep.c) ---- */
	{ "istypep", SEL_ANY, lower_istypep, 2, 2 }, { "isspacep", SEL_ANY, lower_isspacep, 2, 2 },
	/* ---- ctrl: brkpt (BPT.TRAP 0x1, the word ptxas 11.8 writes for trap) ---- */
	{ "brkpt", SEL_ANY, lower_trap, 0, 0 },
	/* ---- brx: brx.idx through a .branchtargets table (lower_brx.c) ---- */
	{ "brx", SEL_ANY, lower_brx_idx, 2, 2 },
	/* ---- video: vabsdiff, vabsdiff4, vadd2/4, vsub2/4 (lower_video.c; the
	 * other SIMD ones refused by name), the scalar ones one instruction
	 * each (lower_video_scalar.c) ---- */
	{ "vabsdiff", SEL_ANY, lower_video, 3, 4 }, { "vabsdiff4", SEL_ANY, lower_video, 4, 4 },
	{ "vadd", SEL_ANY, lw_video_scalar, 3, 4 }, { "vsub", SEL_ANY, lw_video_scalar, 3, 4 },
	{ "vmin", SEL_ANY, lw_video_scalar, 3, 4 }, { "vmax", SEL_ANY, lw_video_scalar, 3, 4 },
	{ "vshl", SEL_ANY, lw_video_scalar, 3, 4 }, { "vshr", SEL_ANY, lw_video_scalar, 3, 4 },
	{ "vmad", SEL_ANY, lw_video_scalar, 4, 4 }, { "vset", SEL_ANY, lw_video_scalar, 3, 4 },
	{ "vadd2", SEL_ANY, lower_video, 4, 4 }, { "vsub2", SEL_ANY, lower_video, 4, 4 },
	{ "vavrg2", SEL_ANY, lower_video, 4, 4 }, { "vabsdiff2", SEL_ANY, lower_video, 4, 4 },
	{ "vmin2", SEL_ANY, lower_video, 4, 4 }, { "vmax2", SEL_ANY, lower_video, 4, 4 },
	{ "vset2", SEL_ANY, lower_video, 4, 4 }, { "vadd4", SEL_ANY, lower_video, 4, 4 },
	{ "vsub4", SEL_ANY, lower_video, 4, 4 }, { "vavrg4", SEL_ANY, lower_video, 4, 4 },
	{ "vmin4", SEL_ANY, lower_video, 4, 4 }, { "vmax4", SEL_ANY, lower_video, 4, 4 },
	{ "vset4", SEL_ANY, lower_video, 4, 4 },
};

static bool selects(LowerSel sel, const Instr *in)
{
	switch (sel) {
	case SEL_ANY: return true;
	case SEL_FLOAT: return lw_instr_type(in).is_float;
	case SEL_PRED: return lw_instr_type(in).bits == 1;
	case SEL_GLOBAL: return lw_has_mod(in, ".global");
	case SEL_SHARED: return lw_has_mod(in, ".shared");
	case SEL_LOCAL: return lw_has_mod(in, ".local");
	case SEL_CONST: return lw_has_mod(in, ".const");
	case SEL_GENERIC:
		return !lw_has_mod(in, ".global") && !lw_has_mod(in, ".shared") && !lw_has_mod(in, ".local") &&
		       !lw_has_mod(in, ".param") && !lw_has_mod(in, ".const");
	case SEL_HI: return lw_has_mod(in, ".hi");
	case SEL_F64: return lw_instr_type(in).is_float && lw_instr_type(in).bits == 64;
	case SEL_CVT_F2F: {
		unsigned floats = 0;
		bool f64 = false;
		for (uint32_t i = 0; i < in->nmods; i++) {
			PtxTy t = ptx_type_of_word(in->mods[i]);
			floats += t.is_float;
			f64 |= t.is_float && t.bits == 64;
		}
		return f64 || floats == 2;
	}
	case SEL_INT64: return !lw_instr_type(in).is_float && lw_instr_type(in).bits == 64;
	case SEL_WIDE16: return lw_has_mod(in, ".wide") && lw_instr_type(in).bits == 16;
	case SEL_HI16: return lw_has_mod(in, ".hi") && lw_instr_type(in).bits == 16;
	case SEL_MAD_WIDE32: return lw_has_mod(in, ".wide") && lw_instr_type(in).bits == 32;
	case SEL_CC: return lw_has_mod(in, ".cc");
	case SEL_CLOCK64:
		return in->nops == 2 && lw_is_special64(in->ops[1]);
	case SEL_RN_F32:
		return lw_has_mod(in, ".rn") && !lw_has_mod(in, ".ftz") && lw_instr_type(in).is_float &&
		       lw_instr_type(in).bits == 32;
	case SEL_RN_F64:
		return lw_has_mod(in, ".rn") && lw_instr_type(in).is_float && lw_instr_type(in).bits == 64;
	case SEL_RN_FTZ_F32:
		return lw_has_mod(in, ".rn") && lw_has_mod(in, ".ftz") && lw_instr_type(in).is_float &&
		       lw_instr_type(in).bits == 32;
	case SEL_INT: return !lw_instr_type(in).is_float && lw_instr_type(in).bits >= 8;
	case SEL_APPROX_F64:
		return lw_has_mod(in, ".approx") && lw_instr_type(in).is_float && lw_instr_type(in).bits == 64;
	case SEL_RED: return lw_has_mod(in, ".red");
	case SEL_CVT_STAGED: return lw_cvt_is_staged(in);
	case SEL_DIR_F64:
		return (lw_has_mod(in, ".rm") || lw_has_mod(in, ".rp") || lw_has_mod(in, ".rz")) &&
		       lw_instr_type(in).is_float && lw_instr_type(in).bits == 64;
	case SEL_DIR_F32:
		return (lw_has_mod(in, ".rm") || lw_has_mod(in, ".rp") || lw_has_mod(in, ".rz")) &&
		       lw_instr_type(in).is_float && lw_instr_type(in).bits == 32;
	case SEL_CVT_FLOAT:
		for (uint32_t i = 0; i < in->nmods; i++)
			if (ptx_type_of_word(in->mods[i]).is_float)
				return true;
		return false;
	}
	return false;
}

static void lower_instr(LowerCtx *c, const Instr *in)
{
	in = lw_offsets_folded_instr(c, lw_space_alias_instr(c, lw_vecreg_instr(c, in)));
	c->cur = in;
	c->guard_vreg = -1;
	c->guard_neg = false;
	if (in->has_guard) {
		uint32_t p;
		if (!lw_pred(c, in->guard, &p))
			return;
		c->guard_vreg = (int)p;
		c->guard_neg = in->guard_negated;
	}
	/* issue 15: ld/st of a .param held in registers (calls) */
	if (c->pregs.count && lw_param_reg_access(c, in))
		return;
	for (size_t i = 0; i < sizeof lower_table / sizeof lower_table[0]; i++)
		if (lw_streq(lower_table[i].opcode, in->opcode) && selects(lower_table[i].sel, in)) {
			if (in->nops < lower_table[i].min_ops || in->nops > lower_table[i].max_ops) {
				lw_unsupported(c, in->loc, "'%s' with %u operand%s", in->opcode, in->nops,
				               in->nops == 1 ? "" : "s");
				return;
			}
			lower_table[i].fn(c, in);
			return;
		}
	lw_unsupported(c, in->opcode_loc, "instruction '%s'", in->opcode);
}

/* ---- declarations --------------------------------------------------------- */

static PtxTy decl_type(const VarDecl *d)
{
	PtxTy t = { 0 };
	for (uint32_t i = 0; i < d->nspecs; i++) {
		PtxTy u = ptx_type_of_word(d->specs[i].word);
		if (u.bits)
			t = u;
	}
	return t;
}

bool lw_decl_has(const VarDecl *d, const char *word)
{
	for (uint32_t i = 0; i < d->nspecs; i++)
		if (strcmp(d->specs[i].word, word) == 0)
			return true;
	return false;
}

static void declare_regs(LowerCtx *c, const VarDecl *d)
{
	PtxTy t = decl_type(d);
	unsigned nv;
	const VarDecl *elems = t.bits > 1 ? lw_vecreg_split(c, d, c->nscope ? c->scope[c->nscope - 1] : 0, &nv) : NULL;
	for (unsigned i = 0; elems && i < nv; i++)
		declare_regs(c, &elems[i]);
	if (elems)
		return;
	if (t.bits == 0 || lw_decl_has(d, ".v2") || lw_decl_has(d, ".v4")) {
		lw_unsupported(c, d->loc, "this register declaration (scalar .pred and 16/32/64-bit "
		               "integer or float registers are supported)");
		return;
	}
	int64_t packed = t.bits | (t.is_signed << 8) | (t.is_float << 9) | ((int64_t)t.is_bits << 10);
	/* a nested block's registers are its own (name@B), also where they
	 * hide an outer register of the same name */
	uint32_t block = c->nscope ? c->scope[c->nscope - 1] : 0;
	for (uint32_t i = 0; i < d->ndecls; i++) {
		const char *key = lw_scoped_name(c, d->decls[i].name, block);
		if (lmap_find(&c->regdecl, key)) {
			lw_unsupported(c, d->decls[i].loc, "register '%s' declared twice in one block", d->decls[i].name);
			continue;
		}
		lmap_put(&c->regdecl, key, packed, d->decls[i].range);
	}
}

/* Numbers the next block (pre-order, the same in both walks) and makes it
 * the innermost scope; false (diagnosed) past the nesting the lowering
 * keeps. */
static bool enter_block(LowerCtx *c, const Stmt *s)
{
	if (c->nscope == sizeof c->scope / sizeof c->scope[0]) {
		lw_unsupported(c, s->loc, "blocks nested more than %zu deep", sizeof c->scope / sizeof c->scope[0]);
		return false;
	}
	c->scope[c->nscope++] = ++c->nblocks;
	return true;
}

/* Registers and labels first: a branch may name a later label. */
static void collect(LowerCtx *c, const Stmt *s)
{
	for (; s; s = s->next) {
		if (s->kind == ST_LABEL && s->next && s->next->kind == ST_DIRECTIVE &&
		    strcmp(s->next->u.dir.name, ".branchtargets") == 0)
			lw_brx_collect(c, s);       /* brx: a table brx.idx names */
		if (s->kind == ST_BLOCK && enter_block(c, s))
			collect(c, s->u.block), c->nscope--;
		else if (s->kind == ST_BLOCK)
			continue;
		else if (s->kind == ST_LABEL && lmap_find(&c->labels, s->u.label))
			/* labels are block-scoped; this lowering keeps one per kernel */
			lw_unsupported(c, s->loc, "label '%s' defined again in another block", s->u.label);
		else if (s->kind == ST_LABEL)
			lmap_put(&c->labels, s->u.label, (int64_t)c->labels.count, 0);
		else if (s->kind == ST_DECL && lw_decl_has(&s->u.decl, ".reg"))
			declare_regs(c, &s->u.decl);
		else if (s->kind == ST_DECL && lw_decl_has(&s->u.decl, ".shared") && c->in_func)
			lw_func_shared_body_add(c, &s->u.decl);
		else if (s->kind == ST_DECL && lw_decl_has(&s->u.decl, ".shared"))
			lw_body_shared_add(c, &s->u.decl);
		else if (s->kind == ST_DECL && lw_decl_has(&s->u.decl, ".local"))
			lw_body_local_add(c, &s->u.decl);
		else if (s->kind == ST_DECL && lw_decl_has(&s->u.decl, ".param"))
			lw_param_regs_declare(c, &s->u.decl, c->nscope ? c->scope[c->nscope - 1] : 0, NULL, NULL);
		else if (s->kind == ST_DECL)
			lw_unsupported(c, s->loc, "variables declared inside a kernel (.reg, .shared and .local "
			               "are supported)");
	}
}

enum { DEF_COPY = -3 };   /* the one definition is a 64-bit register copy */

/* `mov.b64 d, %q` (unguarded): the register copy find_param_values follows. */
static const char *copy64_source(const Instr *in)
{
	if (!in || strcmp(in->opcode, "mov") != 0 || in->has_guard || in->nops != 2 ||
	    lw_instr_type(in).bits != 64 || in->ops[1]->kind != EX_NAME || in->ops[1]->text[0] != '%')
		return NULL;
	return in->ops[1]->text;
}

static void count_def(LMap *defs, const Expr *e, const Instr *in, const LowerCtx *c)
{
	if (e->kind == EX_VECTOR) {
		for (uint32_t i = 0; i < e->nelems; i++)
			count_def(defs, e->elems[i], NULL, c);
		return;
	}
	if (e->kind != EX_NAME)
		return;
	int64_t param_off = -1, bits = 0;
	if (in && strcmp(in->opcode, "ld") == 0 && !in->has_guard && lw_has_mod(in, ".param") &&
	    lw_vec_width(in) == 1 && in->nops == 2 && in->ops[1]->kind == EX_ADDRESS &&
	    in->ops[1]->nelems == 1 && in->ops[1]->elems[0]->kind == EX_NAME) {
		const LMapEntry *p = lmap_find(&c->params, in->ops[1]->elems[0]->text);
		bits = lw_instr_type(in).bits;
		if (p && (bits == 64 || (bits == 32 && p->value % 4 == 0)))
			param_off = p->value;
	} else if (copy64_source(in)) {
		param_off = DEF_COPY;
		bits = 64;
	}
	LMapEntry *d = lmap_find(defs, e->text);
	if (d) {
		d->value = -1;
		return;
	}
	lmap_put(defs, e->text, param_off, bits);
}

static void scan_defs(const Stmt *s, LMap *defs, const LowerCtx *c)
{
	for (; s; s = s->next) {
		if (s->kind == ST_BLOCK)
			scan_defs(s->u.block, defs, c);
		else if (s->kind == ST_INSTR && lw_writes_first_operand(&s->u.instr))
			count_def(defs, s->u.instr.ops[0], &s->u.instr, c);
	}
}

/* A register whose one definition copies a 64-bit parameter register holds
 * that parameter too; returns whether one more was found. */
static bool follow_copies(const Stmt *s, LMap *defs)
{
	bool found = false;
	for (; s; s = s->next) {
		if (s->kind == ST_BLOCK) {
			found |= follow_copies(s->u.block, defs);
			continue;
		}
		const char *from = s->kind == ST_INSTR ? copy64_source(&s->u.instr) : NULL;
		if (!from || s->u.instr.ops[0]->kind != EX_NAME)
			continue;
		LMapEntry *d = lmap_find(defs, s->u.instr.ops[0]->text);
		const LMapEntry *src = lmap_find(defs, from);
		if (d && d->value == DEF_COPY && src && src->value >= 0 && src->extra == 64) {
			d->value = src->value;
			found = true;
		}
	}
	return found;
}

/* A register whose only definition is `ld.param r, [p]` (or a copy of such
 * a 64-bit register) always holds parameter p. For a 64-bit handle, surface
 * instructions name the parameter's constant-bank word as their immediate
 * index; a 32-bit value is read by ALU instructions as the
 * c[0x0][0x140 + offset] operand. Both are what ptxas -O3 does. */
static void find_param_values(LowerCtx *c, const Func *f)
{
	LMap defs;
	lmap_init(&defs);
	scan_defs(f->body, &defs, c);
	while (follow_copies(f->body, &defs))
		;
	for (size_t i = 0; i < defs.cap; i++) {
		const LMapEntry *d = &defs.slots[i];
		if (d->key && d->value >= 0)
			lmap_put(d->extra == 64 ? &c->param_handles : &c->param_words, d->key, d->value, 0);
	}
	lmap_fini(&defs);
}

static void lower_body(LowerCtx *c, const Stmt *s)
{
	for (; s; s = s->next) {
		if (s->kind == ST_BLOCK) {
			if (!enter_block(c, s))
				continue;
			lower_body(c, s->u.block);
			c->nscope--;
		} else if (s->kind == ST_LABEL) {
			const LMapEntry *e = lmap_find(&c->labels, s->u.label);
			c->k->label_pos[e->value] = c->k->ninsns;
		} else if (s->kind == ST_INSTR) {
			lower_instr(c, &s->u.instr);
		}
	}
}

static uint32_t align_up(uint32_t v, uint32_t a)
{
	return a ? (v + a - 1) / a * a : v;
}

static void layout_params(LowerCtx *c, const Func *f)
{
	LKernel *k = c->k;
	size_t n = 0;
	for (uint32_t i = 0; i < f->nparams; i++)
		n += f->params[i].ndecls;
	k->params = xcalloc(n ? n : 1, sizeof *k->params);
	uint32_t off = 0, ordinal = 0;
	for (uint32_t i = 0; i < f->nparams; i++) {
		const VarDecl *d = &f->params[i];
		PtxTy t = decl_type(d);
		uint32_t elem = t.bits / 8, align = elem;
		if (lw_handle_param(c, d, &ordinal))
			continue;
		if (t.bits == 0 || t.bits == 1) {
			lw_unsupported(c, d->loc, "this kernel parameter type");
			elem = align = 4;
		}
		if (lw_decl_has(d, ".v2") || lw_decl_has(d, ".v4")) {
			elem *= lw_decl_has(d, ".v4") ? 4 : 2;
			align = elem;
		}
		for (uint32_t s = 0; s < d->nspecs; s++)
			if (strcmp(d->specs[s].word, ".align") == 0 && d->specs[s].has_value)
				align = (uint32_t)d->specs[s].value;
		for (uint32_t j = 0; j < d->ndecls; j++) {
			const Declarator *dc = &d->decls[j];
			uint32_t size = elem;
			for (uint32_t q = 0; q < dc->ndims; q++)
				size *= dc->dims[q] > 0 ? (uint32_t)dc->dims[q] : 1;
			off = align_up(off, align);
			k->params[k->nparams++] = (SassParam){ off, size };
			ordinal++;
			lmap_put(&c->params, dc->name, off, size);
			off += size;
		}
	}
	k->first_slot_offset = sass_first_slot_offset(k->params, k->nparams);
}

static bool func_visible(const Func *f)
{
	for (uint32_t i = 0; i < f->nspecs; i++)
		if (strcmp(f->specs[i].word, ".visible") == 0 || strcmp(f->specs[i].word, ".extern") == 0 ||
		    strcmp(f->specs[i].word, ".weak") == 0)
			return true;
	return false;
}

static void ctx_begin(LowerCtx *c, const Func *f, LKernel *k)
{
	memset(k, 0, sizeof *k);
	k->name = f->name;
	k->loc = f->name_loc;
	k->local_symbol = !func_visible(f);
	c->k = k;
	c->cur = NULL;
	c->guard_vreg = -1;
	lmap_init(&c->pregs);
	lmap_init(&c->regdecl);
	lmap_init(&c->vecregs);
	lmap_init(&c->regs);
	lmap_init(&c->labels);
	lmap_init(&c->params);
	lmap_init(&c->param_handles);
	lmap_init(&c->param_words);
	lmap_init(&c->ref_params);
	lmap_init(&c->tex_samplers);
	lmap_init(&c->vars);
}

/* Whether the code ends in an unguarded `op` no label follows. */
static bool ends_in(const LKernel *k, SassOp op)
{
	bool ends = k->ninsns > 0 && k->insns[k->ninsns - 1].form->op == op && k->insns[k->ninsns - 1].nrefs == 0;
	for (size_t i = 0; i < k->nlabels; i++)
		ends &= k->label_pos[i] != k->ninsns;
	return ends;
}

static void ctx_end(LowerCtx *c);

/* The part of a kernel's lowering that reads its syntax tree; the rest
 * (reconvergence, linking) is kernel_settle's. */
void lw_lower_kernel(LowerCtx *c, const Func *f, LKernel *k)
{
	ctx_begin(c, f, k);
	c->in_func = false;
	layout_params(c, f);
	lw_handle_pairs(c, f->body);
	lw_launch_bounds(c, k, f);
	c->nscope = 0;
	c->nblocks = 0;
	collect(c, f->body);
	c->nblocks = 0;    /* lower_body numbers the blocks again */
	lw_module_shared_place(c, f->body);
	lw_frame_place(c);
	k->nlabels = c->labels.count;
	k->label_pos = xcalloc(k->nlabels ? k->nlabels : 1, sizeof *k->label_pos);
	find_param_values(c, f);
	lw_find_tex_folds(c, f->body);
	lower_body(c, f->body);

	/* A kernel that runs off its end, or a label after the last
	 * instruction, needs an EXIT to land on. */
	if (!ends_in(k, SOP_EXIT)) {
		c->cur = NULL;
		c->guard_vreg = -1;
		lw_emit(c, SF_EXIT);
	}
	ctx_end(c);
}

/* A function's .reg parameter or result: its register, bound to the
 * call's words; a vector one is its elements', one after the other. */
static void reg_param_declare(LowerCtx *c, const VarDecl *d, bool result, uint32_t **order, uint32_t *n)
{
	unsigned nv;
	const VarDecl *elems = lw_vecreg_split(c, d, 0, &nv);
	for (unsigned i = 0; elems && i < nv; i++)
		reg_param_declare(c, &elems[i], result, order, n);
	if (elems)
		return;
	declare_regs(c, d);
	lw_reg_param_declare(c, d, result, order, n);
}

/* issue 15: a device function, lowered into a fragment the kernels that
 * call it link (lower_call.c). Its parameters and results are registers;
 * its .shared variables get their offsets in each kernel it is linked
 * into (lower_shared_link.c), its bound surfaces and textures their
 * c[0x0] slots (lower_handles_link.c); its .nv.constant2 words are adopted
 * by each kernel it is linked into (lower_call.c). As for a kernel, the
 * part after its syntax tree is function_settle's. */
void lw_lower_function(LowerCtx *c, const Func *f, LFunc *out)
{
	memset(out, 0, sizeof *out);
	out->name = f->name;
	out->loc = f->name_loc;
	out->visible = func_visible(f);
	for (uint32_t i = 0; i < f->nspecs; i++)
		out->weak |= strcmp(f->specs[i].word, ".weak") == 0;
	LKernel *k = &out->frag;
	ctx_begin(c, f, k);
	c->in_func = true;
	k->params = xcalloc(1, sizeof *k->params);
	c->declaring = c->lm->relocatable ? NULL : out;     /* -c: every function is kept */
	out->vararg = -1;
	for (uint32_t i = 0; i < f->nparams; i++)
		if (lw_decl_has(&f->params[i], ".reg"))
			reg_param_declare(c, &f->params[i], false, &out->params, &out->nparams);
		else if (lw_param_is_vararg(f, i)) {
			out->vararg = (int32_t)(out->nparams / 2);
			lw_vararg_declare(c, &f->params[i], &out->params, &out->nparams);
		} else
			lw_param_regs_declare(c, &f->params[i], 0, &out->params, &out->nparams);
	for (uint32_t i = 0; i < f->nrets; i++)
		if (lw_decl_has(&f->rets[i], ".reg"))
			reg_param_declare(c, &f->rets[i], true, &out->rets, &out->nrets);
		else
			lw_param_regs_declare(c, &f->rets[i], 0, &out->rets, &out->nrets);
	c->declaring = NULL;
	c->nscope = 0;
	c->nblocks = 0;
	lw_func_shared_begin(c);
	lw_param_addr_locals(c, f);
	collect(c, f->body);
	c->nblocks = 0;
	lw_frame_place(c);
	k->nlabels = c->labels.count;
	k->label_pos = xcalloc(k->nlabels ? k->nlabels : 1, sizeof *k->label_pos);
	lw_reg_params_enter(c);
	lw_param_addr_store(c, f);
	lower_body(c, f->body);
	if (!ends_in(k, SOP_RET)) {
		c->cur = NULL;
		c->guard_vreg = -1;
		lw_reg_results_leave(c);
		lw_emit(c, SF_RET);
	}
	free(c->reg_params);
	c->reg_params = NULL;
	c->nreg_params = 0;
	c->in_func = false;
	ctx_end(c);
}

static void ctx_end(LowerCtx *c)
{
	free(c->tex_folds);
	c->tex_folds = NULL;
	c->ntex_folds = c->tex_folds_cap = 0;
	lmap_fini(&c->pregs);
	free(c->preg_stored);
	c->preg_stored = NULL;
	c->npreg_stored = 0;
	lmap_fini(&c->regdecl);
	lmap_fini(&c->vecregs);
	lmap_fini(&c->regs);
	lmap_fini(&c->labels);
	lmap_fini(&c->params);
	lmap_fini(&c->param_handles);
	lmap_fini(&c->param_words);
	free(c->vreg_cword);
	c->vreg_cword = NULL;
	c->nvreg_cword = 0;
	free(c->vreg_cpair);
	c->vreg_cpair = NULL;
	c->nvreg_cpair = 0;
	lmap_fini(&c->ref_params);
	lmap_fini(&c->tex_samplers);
	lmap_fini(&c->vars);
	c->vararg_name = NULL;
	lw_brx_ctx_end(c);
	for (size_t i = 0; i < c->nowned; i++)
		free(c->owned[i]);
	free(c->owned);
	c->owned = NULL;
	c->nowned = 0;
}
