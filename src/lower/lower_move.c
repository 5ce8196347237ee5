/* Lowering of moves: mov (registers, immediates, special registers: S2R for
 * %tid/%ctaid, c[0x0] words for %ntid/%nctaid as ptxas does), cvta to the
 * global space, ld.param (c[0x0][0x140 + offset] operands; LDC for
 * sub-word parameters) and integer width conversions. */
#include "lower/lower_internal.h"

#include <string.h>

/* ---- mov / cvta / ld.param ------------------------------------------------ */

static void mov_const_bank(LowerCtx *c, uint32_t d, unsigned dsub, uint32_t byte_off)
{
	LInsn *in = lw_emit(c, SF_MOV_C);
	linsn_ref(in, SR_RD, d, dsub, 1, true);
	linsn_set(in, SR_CBANK, 0);
	linsn_set(in, SR_COFF, byte_off / 4);
}

enum { LOP_OR = 1 };

/* mov.b32 d, {lo, hi} of two 16-bit registers or constants (elements
 * base and base + 1; word dsub of d: mov.b64 of four halves packs two):
 * d = (lo & 0xffff) | hi << 16 (a 16-bit register's upper half is undefined). */
static bool pack_halves(LowerCtx *c, uint32_t d, unsigned dsub, const Expr *src, unsigned base)
{
	Opnd lo, hi;
	if (!lw_opnd(c, src->elems[base], &lo) || !lw_opnd(c, src->elems[base + 1], &hi))
		return false;
	uint32_t low = lw_temp(c, 1);
	if (lo.kind == OPND_IMM)
		lw_mov32i(c, low, 0, (uint32_t)lo.imm & 0xffff);
	else
		lw_extend32(c, low, lo.vreg, 16, false);
	Opnd high = { .kind = OPND_IMM, .vreg = 0, .width = 1, .imm = (int64_t)(((uint32_t)hi.imm & 0xffff) << 16) };
	if (hi.kind == OPND_REG) {
		Opnd sixteen = { .kind = OPND_IMM, .vreg = 0, .width = 1, .imm = 16 };
		uint32_t h = lw_temp(c, 1);
		lw_alu(c, SASS_ALU_FORMS(SHL), h, 0, hi.vreg, 0, &sixteen, 0);
		high = (Opnd){ .kind = OPND_REG, .vreg = h, .width = 1, .imm = 0 };
	}
	LInsn *op = lw_alu(c, SASS_ALU_FORMS(LOP), d, dsub, low, 0, &high, 0);
	linsn_set(op, SR_LOPOP, LOP_OR);
	return true;
}

/* An element of a vector destination: its register (1), the sink `_` (0),
 * or -1 (diagnosed). */
static int dst_elem(LowerCtx *c, const Expr *e, uint32_t *vreg)
{
	unsigned w;
	if (e->kind == EX_NAME && strcmp(e->text, "_") == 0)
		return 0;
	return lw_reg(c, e, vreg, &w) ? 1 : -1;
}

/* mov.b32 {lo, hi}, r into two 16-bit registers (elements base and
 * base + 1; word sub of s: mov.b64 into four halves splits two): lo = r
 * (its upper half is undefined in a 16-bit register), hi = r >> 16; `_`
 * takes nothing. */
static bool split_halves(LowerCtx *c, const Expr *dst, const Opnd *s, unsigned sub, unsigned base)
{
	for (unsigned i = 0; i < 2; i++) {
		uint32_t e;
		int k = dst_elem(c, dst->elems[base + i], &e);
		if (k < 0)
			return false;
		if (k == 0)
			continue;
		if (i == 0) {
			lw_mov(c, e, 0, s->vreg, sub);
		} else {
			Opnd sixteen = { .kind = OPND_IMM, .vreg = 0, .width = 1, .imm = 16 };
			lw_alu(c, SASS_ALU_FORMS(SHR), e, 0, s->vreg, sub, &sixteen, 0);
		}
	}
	return true;
}

bool lower_mov(LowerCtx *c, const Instr *in)
{
	PtxTy t = lw_instr_type(in);
	if (t.bits == 0 || in->nops != 2)
		return lw_unsupported(c, in->loc, "mov of this type (integer and float register moves are supported)");
	const Expr *dst = in->ops[0], *src = in->ops[1];
	/* {k} of a constant is k itself (ptxas takes mov.b32 a, {0}: nvcc's
	 * inline half code). ptxas 11.8 compiles a one-element brace around a
	 * register to code that keeps only part of it (mov.b32 a, {%r}: its low
	 * 16 bits; mov.b32 {a}, %r: its low byte; mov.b64 a, {%rd}: 16-bit
	 * pieces), which no one means: refused, rather than guessed. */
	if (dst->kind == EX_VECTOR && dst->nelems == 1)
		return lw_unsupported(c, dst->loc, "mov into a one-element {...} (ptxas 11.8 keeps only part of the "
		                      "value there); write the register without braces");
	if (src->kind == EX_VECTOR && src->nelems == 1) {
		if (src->elems[0]->kind != EX_INT && src->elems[0]->kind != EX_FLOAT)
			return lw_unsupported(c, src->loc, "mov from a one-element {...} of a register (ptxas 11.8 "
			                      "keeps only part of it); write the register without braces");
		if (t.bits > 32)    /* mov.b64 a, {0x100000000}: 0 in ptxas 11.8's code */
			return lw_unsupported(c, src->loc, "mov.b64 from a one-element {...} (ptxas 11.8 keeps only "
			                      "part of the constant); write the constant without braces");
		src = src->elems[0];
	}
	uint32_t d;
	unsigned dw;
	if (lw_vec_width(in) > 1)
		return lw_mov_vector(c, in, lw_vec_width(in));
	/* mov.b32 {lo, hi}, %rd splits a 64-bit register; the sink `_` (llc's
	 * {_, %r} for the high word) takes no copy. */
	if (dst->kind == EX_VECTOR) {
		Opnd s;
		if (!lw_opnd(c, src, &s))
			return false;
		if (dst->nelems == 2 && t.bits == 32 && s.kind == OPND_REG)
			return split_halves(c, dst, &s, 0, 0);
		if (dst->nelems == 4 && t.bits == 64 && s.kind == OPND_REG && s.width == 2)
			return split_halves(c, dst, &s, 0, 0) && split_halves(c, dst, &s, 1, 2);
		if (dst->nelems != 2 || t.bits != 64 || s.kind != OPND_REG || s.width != 2)
			return lw_unsupported(c, in->loc, "mov with a vector destination other than mov.b64 {lo, hi}, "
			                      "%%rd, mov.b64 {a, b, c, d}, %%rd and mov.b32 {lo, hi}, %%r");
		for (uint32_t i = 0; i < dst->nelems; i++) {
			uint32_t e;
			int k = dst_elem(c, dst->elems[i], &e);
			if (k < 0)
				return false;
			if (k > 0)
				lw_mov(c, e, 0, s.vreg, i);
		}
		return true;
	}
	if (!lw_reg(c, dst, &d, &dw))
		return false;
	if (src->kind == EX_VECTOR && src->nelems == 2 && t.bits == 32)
		return pack_halves(c, d, 0, src, 0);
	if (src->kind == EX_VECTOR && src->nelems == 4 && t.bits == 64 && dw == 2)
		return pack_halves(c, d, 0, src, 0) && pack_halves(c, d, 1, src, 2);
	if (src->kind == EX_VECTOR) {
		if (src->nelems != 2 || t.bits != 64)
			return lw_unsupported(c, in->loc, "mov with a vector source other than mov.b64 %%rd, {lo, hi}, mov.b64 %%rd, {a, b, c, d} and mov.b32 %%r, {lo, hi}");
		uint32_t parts[2];
		for (unsigned i = 0; i < 2; i++) {
			unsigned w;
			if (!lw_reg(c, src->elems[i], &parts[i], &w))
				return false;
		}
		uint32_t tmp = lw_temp(c, 2);
		lw_mov(c, tmp, 0, parts[0], 0);
		lw_mov(c, tmp, 1, parts[1], 0);
		lw_mov(c, d, 0, tmp, 0);
		lw_mov(c, d, 1, tmp, 1);
		return true;
	}
	if (lw_read_special(c, src, d)) {
		if (dw == 2 && !lw_read_special_hi(c, src, d))
			lw_mov_rz(c, d, 1);
		return true;
	}
	const LMapEntry *handle = src->kind == EX_NAME ? lmap_find(&c->module_surfrefs, src->text) : NULL;
	if (handle && dw == 2) {
		lw_bound_handle(c, src->text, handle->extra == LHANDLE_TEXTURE, d);
		return true;
	}
	if (handle)
		return lw_unsupported(c, src->loc, "the handle of a .surfref/.texref in a 32-bit register");
	const LMapEntry *kp = src->kind == EX_NAME ? lmap_find(&c->params, src->text) : NULL;
	if (kp) {
		/* the address of a kernel parameter: its offset in the .param
		 * space, as ptxas 11.8 gives it (ld.param through it: below) */
		Opnd at = { .kind = OPND_IMM, .vreg = 0, .width = 2, .imm = kp->value };
		lw_copy_value(c, d, &at, t.bits == 64 ? 2 : 1);
		return true;
	}
	Opnd s;
	if (!lw_opnd(c, src, &s))
		return false;
	if (s.kind == OPND_REG && s.vreg == d)
		return true;
	lw_copy_value(c, d, &s, t.bits == 64 ? 2 : 1);
	return true;
}

/* cvta.shared / cvta.local: the generic address is the window offset
 * ORed with the window's base, c[0x0][0x0] (shared) or c[0x0][0x4]
 * (local), high word 0; cvta.to.shared / .local keeps the low 24 bits. */
static bool cvta_window(LowerCtx *c, const Instr *in, bool shared)
{
	uint32_t d;
	unsigned dw;
	Opnd s;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &s))
		return false;
	uint32_t a;
	unsigned asub;
	lw_opnd_part(c, &s, 0, &a, &asub);
	if (lw_has_mod(in, ".to")) {
		LInsn *and = lw_emit(c, SF_LOP32I);
		linsn_ref(and, SR_RD, d, 0, 1, true);
		linsn_ref(and, SR_RA, a, asub, 1, false);
		linsn_set(and, SR_LOPOP, 0);
		linsn_set(and, SR_IMM, 0xffffff);
	} else {
		LInsn *or = lw_emit(c, SF_LOP_C);
		linsn_ref(or, SR_RD, d, 0, 1, true);
		linsn_ref(or, SR_RA, a, asub, 1, false);
		linsn_set(or, SR_LOPOP, 1);
		linsn_set(or, SR_CBANK, 0);
		linsn_set(or, SR_COFF, shared ? 0 : 1);
	}
	if (dw == 2)
		lw_mov_rz(c, d, 1);
	return true;
}

/* cvta.const: the generic address of a constant-bank offset is the offset
 * plus the constant window's base, c[0x0][0xd0] (its high word
 * c[0x0][0xd4]); cvta.to.const subtracts it. ptxas 11.8 (-O0 and -O3):
 *   IADD d.lo.CC, a.lo, c[0x0][0xd0]; IADD.X d.hi, a.hi, c[0x0][0xd4]
 * (-c[0x0][...] for .to; a variable's offset in a register first, and
 * .address_size 32: IADD d, a, c[0x0][0xd0] alone). */
static bool cvta_const(LowerCtx *c, const Instr *in)
{
	uint32_t d;
	unsigned dw;
	Opnd s;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &s))
		return false;
	LwWord a[2] = { { LW_RZ, 0 }, { LW_RZ, 0 } };
	for (unsigned p = 0; p < dw; p++) {
		bool rz = s.kind == OPND_REG ? p >= s.width : p == 1 && (uint64_t)s.imm >> 32 == 0;
		if (!rz)
			lw_opnd_part(c, &s, p, &a[p].vreg, &a[p].sub);     /* an offset: MOV32I first */
	}
	lw_add_cword(c, d, dw, a, SASS_CONST_WINDOW_CWORD, lw_has_mod(in, ".to"));
	return true;
}

bool lower_cvta(LowerCtx *c, const Instr *in)
{
	if (in->nops == 2 && (lw_has_mod(in, ".shared") || lw_has_mod(in, ".local")))
		return cvta_window(c, in, lw_has_mod(in, ".shared"));
	if (in->nops == 2 && lw_has_mod(in, ".const"))
		return cvta_const(c, in);
	/* Generic and global addresses coincide on sm_50 (ptxas emits nothing). */
	if (!lw_has_mod(in, ".global") || in->nops != 2)
		return lw_unsupported(c, in->loc, "cvta for state spaces other than .global, .shared, .local "
		                      "and .const");
	uint32_t d;
	unsigned dw;
	Opnd s;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &s))
		return false;
	if (s.kind == OPND_REG && s.vreg == d)
		return true;
	lw_copy_value(c, d, &s, dw);
	return true;
}

/* [param] or [param+off]: the parameter's byte offset in the parameter area. */
static bool param_address(LowerCtx *c, const Expr *a, int64_t *off)
{
	if (a->kind != EX_ADDRESS || a->nelems != 1)
		return false;
	const Expr *e = a->elems[0];
	int64_t add = 0;
	if (e->kind == EX_BINARY && (e->op == '+' || e->op == '-') && expr_const_int(e->rhs, &add)) {
		if (e->op == '-')
			add = -add;
		e = e->lhs;
	}
	if (e->kind != EX_NAME)
		return false;
	const LMapEntry *p = lmap_find(&c->params, e->text);
	if (p == NULL)
		return false;
	*off = p->value + add;
	return true;
}

/* ld.param [reg+imm] in a kernel: reg holds a parameter's address (its
 * offset in the .param space, mov above), so LDC c[0x0][reg + 0x140 +
 * imm] per element, as ptxas 11.8 reads a parameter it cannot place.
 * In a function, a parameter whose address is taken lives in the frame
 * too (lw_param_addr_locals: its address is a .local one), so the load
 * is an ld.local through the register (llc -O0 reads a by-value struct
 * argument so: `mov.b64 %rd1, f_param_1; ld.param.f32 %f2, [%rd1+12]`;
 * ptxas 11.8 reads the stored copy with LDL too). */
static bool ld_param_reg(LowerCtx *c, const Instr *in, PtxTy t)
{
	if (c->in_func)
		return lower_ld_window(c, lw_instr_mod_replaced(c, in, ".param", ".local"));
	const Expr *a = in->ops[1], *e = a->kind == EX_ADDRESS && a->nelems == 1 ? a->elems[0] : NULL;
	int64_t off = 0;
	if (e && e->kind == EX_BINARY && e->op == '+' && expr_const_int(e->rhs, &off))
		e = e->lhs;
	if (!e || e->kind != EX_NAME || lw_reg_bits(c, e) < 32 || t.bits < 8)
		return lw_unsupported(c, in->loc, "this ld.param address (a kernel parameter, optionally + offset, "
		                      "or a register holding one's address)");
	uint32_t base;
	unsigned bw;
	if (!lw_reg(c, e, &base, &bw))
		return false;
	unsigned n = lw_vec_width(in), bytes = t.bits / 8;
	if (n > 1 && (in->ops[0]->kind != EX_VECTOR || in->ops[0]->nelems != n))
		return lw_unsupported(c, in->ops[0]->loc, "this ld.param destination (a list of %u registers)", n);
	for (unsigned i = 0; i < n; i++) {
		const Expr *de = n > 1 ? in->ops[0]->elems[i] : in->ops[0];
		uint32_t d;
		unsigned dw;
		if (!lw_reg(c, de, &d, &dw))
			return false;
		lw_ldc(c, 0, (int)base, SASS_PARAM_CBANK_BASE + off + i * bytes, bytes,
		       t.is_signed && lw_reg_bits(c, de) > t.bits, d, 0);
		if (dw == 2 && bytes < 8)
			lw_mov_rz(c, d, 1);
	}
	return true;
}

bool lower_ld(LowerCtx *c, const Instr *in)
{
	if (!lw_has_mod(in, ".param"))
		return lw_unsupported(c, in->loc, "ld outside the .param, .global, .shared and .local state spaces");
	PtxTy t = lw_instr_type(in);
	int64_t off = 0;
	if (!param_address(c, in->ops[1], &off))
		return ld_param_reg(c, in, t);
	unsigned n = lw_vec_width(in);
	const Expr *dst = in->ops[0];
	for (unsigned i = 0; i < n; i++) {
		const Expr *de = n > 1 ? dst->elems[i] : dst;
		uint32_t d;
		unsigned dw;
		if (!lw_reg(c, de, &d, &dw))
			return false;
		uint32_t byte = SASS_PARAM_CBANK_BASE + (uint32_t)off + i * t.bits / 8;
		if (t.bits >= 32 && byte % 4 == 0) {
			for (unsigned p = 0; p < t.bits / 32; p++)
				mov_const_bank(c, d, p, byte + 4 * p);
			if (t.bits == 32 && dw == 2)
				lw_mov_rz(c, d, 1);
			continue;
		}
		if (t.bits > 16)
			return lw_unsupported(c, in->loc, "a misaligned ld.param");
		/* Sub-word parameters: LDC.U8/.U16, a signed one then BFE (ptxas 11.8) */
		LInsn *ldc = lw_emit(c, SF_LDC);
		linsn_ref(ldc, SR_RD, d, 0, 1, true);
		linsn_set(ldc, SR_SIZE, t.bits == 8 ? 0 : 2);
		linsn_set(ldc, SR_LDCMODE, 0);
		linsn_set(ldc, SR_CBANK, 0);
		linsn_set(ldc, SR_COFF, byte);
		linsn_set(ldc, SR_RA, 255);
		if (t.is_signed && lw_reg_bits(c, de) > t.bits)
			lw_sign_extend_low(c, d, 0, t.bits);
		if (dw == 2)
			lw_mov_rz(c, d, 1);
	}
	return true;
}

/* ---- cvt ------------------------------------------------------------------ */

/* The I2I type code: signed | log2(bytes) << 1. */
static unsigned i2i_type(PtxTy t)
{
	return (t.is_signed ? 1u : 0u) | (t.bits == 8 ? 0u : t.bits == 16 ? 2u : 4u);
}

/* s (a 64-bit pair) saturated to 32 bits of the same signedness, as
 * ptxas 11.8 clamps it before an I2I.SAT:
 *   signed:   t = (lo >> 31) ^ hi  (0 when hi only extends lo's sign);
 *             m = (hi >> 31) ^ 0x7fffffff  (the bound on hi's side);
 *             ICMP.NE d, m, lo, t  (t != 0 ? m : lo)
 *   unsigned: ICMP.NE d, 0xffffffff, lo, hi
 * to_u32 (a signed source into .u32, whose range s32 does not hold): the
 * unsigned clamp, then ICMP.LT d, RZ, d, hi (0 for a negative source). */
/* ICMP.cmp d, a (RZ when a < 0), b, cv.csub: d = (cv cmp 0) ? a : b */
static void icmp_sel(LowerCtx *c, unsigned cmp, bool is_signed, uint32_t d, int a, uint32_t b, uint32_t cv,
                     unsigned csub)
{
	LInsn *op = lw_emit(c, SF_ICMP_R);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	if (a < 0)
		linsn_set(op, SR_RA, 255);
	else
		linsn_ref(op, SR_RA, (uint32_t)a, 0, 1, false);
	linsn_ref(op, SR_RB, b, 0, 1, false);
	linsn_ref(op, SR_RC, cv, csub, 1, false);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_SIGNED, is_signed);
}

static uint32_t sat64_to32(LowerCtx *c, uint32_t s, bool is_signed, bool to_u32)
{
	enum { LOP_XOR = 2, CMP_LT = 1, CMP_NE = 5 };
	if (to_u32) {
		uint32_t d = sat64_to32(c, s, false, false);
		icmp_sel(c, CMP_LT, true, d, -1, d, s, 1);
		return d;
	}
	uint32_t d = lw_temp(c, 1), m = lw_temp(c, 1), t = 0;
	if (is_signed) {
		t = lw_temp(c, 1);
		lw_sign_high(c, t, 0, s, 0);
		LInsn *x = lw_emit(c, SF_LOP_R);
		linsn_ref(x, SR_RD, t, 0, 1, true);
		linsn_ref(x, SR_RA, t, 0, 1, false);
		linsn_ref(x, SR_RB, s, 1, 1, false);
		linsn_set(x, SR_LOPOP, LOP_XOR);
		lw_sign_high(c, m, 0, s, 1);
		LInsn *b = lw_emit(c, SF_LOP32I);
		linsn_ref(b, SR_RD, m, 0, 1, true);
		linsn_ref(b, SR_RA, m, 0, 1, false);
		linsn_set(b, SR_LOPOP, LOP_XOR);
		linsn_set(b, SR_IMM, 0x7fffffff);
	} else {
		lw_mov32i(c, m, 0, 0xffffffffu);
	}
	icmp_sel(c, CMP_NE, false, d, (int)m, s, is_signed ? t : s, is_signed ? 0 : 1);
	return d;
}

/* Whether cvt.sat into a 64-bit type clamps: a signed source into .u64,
 * or .u64 into .s64 (every other source value fits, and the checker
 * refuses .sat there, as ptxas does). */
static bool sat64_clamps(PtxTy dt, PtxTy st)
{
	return dt.bits == 64 && (dt.is_signed ? !st.is_signed && st.bits == 64 : st.is_signed);
}

/* cvt.sat into .u64 from a signed type, or into .s64 from .u64, as ptxas
 * 11.8 (-O0 and -O3):
 *   u64 from s8..s32: I2I.U32.stype.SAT d.lo, s; d.hi = RZ
 *   u64 from s64:     ISET.GE.AND t, s.hi, RZ, PT (all ones unless
 *                     negative); LOP.AND d.lo, t, s.lo; I2I.U32.S32.SAT d.hi, s.hi
 *   s64 from u64:     ISET.LT.AND t, s.hi, RZ, PT (all ones past the
 *                     range); LOP.OR d.lo, t, s.lo; I2I.S32.U32.SAT d.hi, s.hi */
static void cvt_sat64(LowerCtx *c, PtxTy dt, PtxTy st, uint32_t d, uint32_t s)
{
	enum { CMP_LT = 1, CMP_GE = 6, BOP_AND = 0, PT = 7, LOP_AND = 0, LOP_OR = 1 };
	PtxTy hi = st;
	if (st.bits == 64) {
		uint32_t t = lw_temp(c, 1);
		LInsn *set = lw_emit(c, SF_ISET_R);
		linsn_ref(set, SR_RD, t, 0, 1, true);
		linsn_ref(set, SR_RA, s, 1, 1, false);
		linsn_set(set, SR_RB, 255);
		linsn_set(set, SR_CMP, dt.is_signed ? CMP_LT : CMP_GE);
		linsn_set(set, SR_SIGNED, 1);
		linsn_set(set, SR_BOP, BOP_AND);
		linsn_set(set, SR_PC, PT);
		LInsn *lop = lw_emit(c, SF_LOP_R);
		linsn_ref(lop, SR_RD, d, 0, 1, true);
		linsn_ref(lop, SR_RA, t, 0, 1, false);
		linsn_ref(lop, SR_RB, s, 0, 1, false);
		linsn_set(lop, SR_LOPOP, dt.is_signed ? LOP_OR : LOP_AND);
		hi.bits = 32;
	}
	LInsn *op = lw_emit(c, SF_I2I_R);
	linsn_ref(op, SR_RD, d, st.bits == 64 ? 1 : 0, 1, true);
	linsn_ref(op, SR_RB, s, st.bits == 64 ? 1 : 0, 1, false);
	linsn_set(op, SR_DTYPE, i2i_type((PtxTy){ .bits = 32, .is_signed = dt.is_signed }));
	linsn_set(op, SR_STYPE, i2i_type(hi));
	linsn_set(op, SR_SAT, 1);
	if (st.bits < 64)
		lw_mov_rz(c, d, 1);
}

/* cvt.sat from an 8- to 64-bit integer type to one of at most 32 bits:
 * a 64-bit source is clamped to 32 bits first, then I2I.dtype.stype.SAT
 * d, s (as ptxas 11.8), then a destination narrower than the register
 * it is read from is extended (LOP32I.AND / BFE); into 64 bits:
 * cvt_sat64. */
bool lw_cvt_sat_int(LowerCtx *c, const Instr *in, PtxTy dt, PtxTy st, uint32_t d, unsigned dw, uint32_t s,
                    unsigned sw)
{
	if (sat64_clamps(dt, st) && dw == 2 && (st.bits < 64 || sw == 2)) {
		cvt_sat64(c, dt, st, d, s);
		return true;
	}
	if (dt.bits > 32 || dw != 1 || (st.bits == 64 && sw != 2))
		return lw_unsupported(c, in->loc, "cvt.sat between these integer types (8- to 64-bit types into "
		                      "a register of the destination type's width are supported)");
	if (st.bits == 64) {
		bool to_u32 = st.is_signed && !dt.is_signed && dt.bits == 32;
		s = sat64_to32(c, s, st.is_signed, to_u32);
		st.bits = 32;
		st.is_signed = st.is_signed && !to_u32;
		if (dt.bits == 32 && dt.is_signed == st.is_signed) {
			lw_mov(c, d, 0, s, 0);
			return true;
		}
	}
	LInsn *op = lw_emit(c, SF_I2I_R);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RB, s, 0, 1, false);
	linsn_set(op, SR_DTYPE, i2i_type(dt));
	linsn_set(op, SR_STYPE, i2i_type(st));
	linsn_set(op, SR_SAT, 1);
	if (dt.bits < 32 && lw_reg_bits(c, in->ops[0]) > dt.bits) {
		if (dt.is_signed)
			lw_sign_extend_low(c, d, 0, dt.bits);
		else
			lw_extend32(c, d, d, dt.bits, false);
	}
	return true;
}

bool lower_cvt(LowerCtx *c, const Instr *in)
{
	PtxTy ty[2];
	unsigned n = 0;
	bool sat = false;
	for (uint32_t i = 0; i < in->nmods; i++) {
		PtxTy u = ptx_type_of_word(in->mods[i]);
		if (u.bits && n < 2)
			ty[n++] = u;
		else if (lw_streq(in->mods[i], ".sat"))
			sat = true;
		else if (!u.bits)
			return lw_unsupported(c, in->mod_locs[i], "cvt modifier '%s' (integer width conversions "
			                      "only)", in->mods[i]);
	}
	if (n != 2 || ty[0].is_float || ty[1].is_float || ty[0].bits < 8 || ty[1].bits < 8)
		return lw_unsupported(c, in->loc, "cvt between these types (integer width conversions only)");
	PtxTy dt = ty[0], st = ty[1];
	uint32_t d, s;
	unsigned dw, sw;
	/* The value keeps min(dst, src) bits; it is extended by the source
	 * signedness when widening and by the destination's when narrowing
	 * into a sub-word destination register that is read as 32 bits. */
	unsigned keep = dt.bits < st.bits ? dt.bits : st.bits;
	bool sign = dt.bits <= st.bits ? dt.is_signed : st.is_signed;
	if (!lw_reg(c, in->ops[0], &d, &dw))
		return false;
	if (keep <= 32 && !sat && lw_is_special64(in->ops[1])) {
		/* the low word of %clock64, %globaltimer or %pm0_64..%pm7_64
		 * alone (one CS2R), as ptxas 11.8 reads it */
		s = lw_temp(c, 1);
		sw = 1;
		lw_read_special(c, in->ops[1], s);
	} else {
		Opnd o;
		if (!lw_opnd(c, in->ops[1], &o))
			return false;
		if (o.kind == OPND_IMM && !sat) {
			/* WARP_SZ: the converted constant, MOV32I per word as
			 * ptxas 11.8 writes it */
			uint64_t v = (uint64_t)o.imm;
			if (keep < 64) {
				v &= (1ull << keep) - 1;
				if (sign && (v >> (keep - 1)) & 1)
					v |= ~0ull << keep;
			}
			for (unsigned w = 0; w < dw; w++)
				lw_mov32i(c, d, w, (uint32_t)(v >> (32 * w)));
			return true;
		}
		if (o.kind == OPND_IMM)
			return lw_unsupported(c, in->ops[1]->loc, "cvt.sat of a constant (a register is expected)");
		s = o.vreg;
		sw = o.width;
	}
	if (sat)
		return lw_cvt_sat_int(c, in, dt, st, d, dw, s, sw);
	if (keep < 32)
		lw_extend32(c, d, s, keep, sign);
	else if (d != s)
		lw_mov(c, d, 0, s, 0);
	if (dw == 2) {
		if (keep == 64) {
			if (d != s)
				lw_mov(c, d, 1, s, 1);
		} else if (sign) {
			lw_sign_high(c, d, 1, d, 0);
		} else {
			lw_mov_rz(c, d, 1);
		}
	}
	return true;
}
