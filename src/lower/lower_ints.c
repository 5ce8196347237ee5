/* Lowering of the wider integer families (issue 17, part 2): 64-bit
 * multiplies (mul.lo.64, mad.lo.64), mad.wide.{u,s}32, mul/mad.wide of
 * 16-bit values, 64-bit min/max, funnel shifts and the carry chains
 * (add.cc, addc, sub.cc, subc). The sequences are ptxas 11.8's at -O3 for
 * sm_50: a 32x32->64 product is seven XMAD-family instructions sharing the
 * low partial product (XMAD, XMAD.MRG, XMAD.CHI, XMAD.PSL.CBCC and an
 * IADD3.RS for the high word), 64-bit min/max an IMNMX.XHI that sets the
 * carry flag for the IMNMX.U32.XLO of the low words, and the carry chains
 * IADD.CC / IADD.X with subtraction as IADD of the negated (.cc) or
 * inverted (subc, LOP.PASS_B ~b) operand; mad.hi and the multiply-add
 * carry forms (mad.cc, madc) are the 32-bit product followed by that
 * IADD, or with the addend inside the product's XMADs for plain mad.hi. */
#include "lower/lower_internal.h"

#include <string.h>

/* A 32-bit part of a value: a virtual register and its part; RZ when
 * v is NO_REG. */
typedef struct Part {
	uint32_t v;
	unsigned s;
} Part;

#define NO_REG UINT32_MAX

/* A commutative operation takes its immediate as the second operand (the
 * B slot of the ALU forms). */
static void imm_second(Opnd o[2])
{
	if (o[0].kind == OPND_IMM) {
		Opnd x = o[0];
		o[0] = o[1];
		o[1] = x;
	}
}

static Part part_of(LowerCtx *c, const Opnd *o, unsigned sub)
{
	Part p;
	if (o->kind == OPND_IMM && (uint32_t)((uint64_t)o->imm >> (32 * sub)) == 0)
		return (Part){ NO_REG, 0 };
	lw_opnd_part(c, o, sub, &p.v, &p.s);
	return p;
}

static Part temp_part(LowerCtx *c)
{
	return (Part){ lw_temp(c, 1), 0 };
}

static void ref(LInsn *in, SassRole role, Part p, bool def)
{
	if (p.v == NO_REG)
		linsn_set(in, role, 255);
	else
		linsn_ref(in, role, p.v, p.s, 1, def);
}

/* XMAD d, a[.H1], b[.H1], c (c RZ when NO_REG). */
static LInsn *xmad(LowerCtx *c, Part d, Part a, bool ha, Part b, bool hb, Part cc)
{
	LInsn *x = lw_emit(c, SF_XMAD_R);
	ref(x, SR_RD, d, true);
	ref(x, SR_RA, a, false);
	ref(x, SR_RB, b, false);
	ref(x, SR_RC, cc, false);
	linsn_set(x, SR_HA, ha);
	linsn_set(x, SR_HB, hb);
	return x;
}

static LInsn *iadd3(LowerCtx *c, Part d, Part a, Part b, Part cc)
{
	LInsn *in = lw_emit(c, SF_IADD3_R);
	ref(in, SR_RD, d, true);
	ref(in, SR_RA, a, false);
	ref(in, SR_RB, b, false);
	ref(in, SR_RC, cc, false);
	return in;
}

/* The low 32 bits of a*b + addend: XMAD t, a, b, addend; XMAD.MRG m, a,
 * b.H1; XMAD.PSL.CBCC d, a.H1, m.H1, t. */
static void mul_lo_add(LowerCtx *c, Part d, Part a, Part b, Part addend)
{
	Part t = temp_part(c), m = temp_part(c);
	xmad(c, t, a, false, b, false, addend);
	linsn_set(xmad(c, m, a, false, b, true, (Part){ NO_REG, 0 }), SR_MRG, 1);
	LInsn *f = xmad(c, d, a, true, m, true, t);
	linsn_set(f, SR_PSL, 1);
	linsn_set(f, SR_CMODE, 4);    /* CBCC: c + (b << 16) */
}

static void mul_lo(LowerCtx *c, Part d, Part a, Part b)
{
	mul_lo_add(c, d, a, b, (Part){ NO_REG, 0 });
}

/* The 64-bit product of two 32-bit values into lo (NO_REG: only the high
 * word is wanted), hi: ptxas's seven
 * instructions, the low partial product shared by both halves; signed
 * operands take the signed high halves (XMAD.U16.S16, .S16.S16.CSFU,
 * .S16.U16.CHI). */
static void mul_wide32(LowerCtx *c, Part lo, Part hi, Part a, Part b, bool is_signed)
{
	Part rz = { NO_REG, 0 };
	Part t0 = temp_part(c), m = temp_part(c), p1 = temp_part(c), p3 = temp_part(c), p2 = temp_part(c);
	xmad(c, t0, a, false, b, false, rz);
	if (lo.v != NO_REG)
		linsn_set(xmad(c, m, a, false, b, true, rz), SR_MRG, 1);
	linsn_set(xmad(c, p1, a, false, b, true, rz), SR_SB, is_signed);
	LInsn *x3 = xmad(c, p3, a, true, b, true, rz);
	if (is_signed) {
		linsn_set(x3, SR_SA, 1);
		linsn_set(x3, SR_SB, 1);
		linsn_set(x3, SR_CMODE, 3);    /* CSFU */
	}
	LInsn *x2 = xmad(c, p2, a, true, b, false, t0);
	linsn_set(x2, SR_SA, is_signed);
	linsn_set(x2, SR_CMODE, 2);        /* CHI */
	if (lo.v != NO_REG) {
		LInsn *l = xmad(c, lo, a, true, m, true, t0);
		linsn_set(l, SR_PSL, 1);
		linsn_set(l, SR_CMODE, 4);
	}
	linsn_set(iadd3(c, hi, p2, p1, p3), SR_SHIFTMODE, 1);    /* .RS */
}

void lw_mul_wide32(LowerCtx *c, uint32_t lo, uint32_t hi, uint32_t a, uint32_t b, bool is_signed)
{
	mul_wide32(c, (Part){ lo, 0 }, (Part){ hi, 0 }, (Part){ a, 0 }, (Part){ b, 0 }, is_signed);
}

/* IADD d, a, b with the carry flag: .CC writes it, .X reads it. */
static void iadd_cc(LowerCtx *c, Part d, Part a, Part b, bool cc, bool x)
{
	LInsn *in = lw_emit(c, SF_IADD_R);
	ref(in, SR_RD, d, true);
	ref(in, SR_RA, a, false);
	ref(in, SR_RB, b, false);
	linsn_set(in, SR_CC, cc);
	linsn_set(in, SR_X, x);
	in->writes_cc = cc;
	in->reads_cc = x;
}

/* d.lo.CC = a + b.lo; d.hi = c.hi + b.hi + CC: the 64-bit sum of an
 * addend (a, c) and a product (b); carry_out: the high word sets the
 * carry too (mad.cc). */
static void add64(LowerCtx *c, Part dlo, Part dhi, Part alo, Part ahi, Part blo, Part bhi, bool carry_out)
{
	LInsn *l = lw_emit(c, SF_IADD_R);
	ref(l, SR_RD, dlo, true);
	ref(l, SR_RA, alo, false);
	ref(l, SR_RB, blo, false);
	linsn_set(l, SR_CC, 1);
	l->writes_cc = true;
	LInsn *h = lw_emit(c, SF_IADD_R);
	ref(h, SR_RD, dhi, true);
	ref(h, SR_RA, ahi, false);
	ref(h, SR_RB, bhi, false);
	linsn_set(h, SR_X, 1);
	linsn_set(h, SR_CC, carry_out);
	h->reads_cc = true;
	h->writes_cc = carry_out;
}

static bool operands(LowerCtx *c, const Instr *in, unsigned n, uint32_t *d, unsigned *dw, Opnd *o)
{
	if (!lw_reg(c, in->ops[0], d, dw))
		return false;
	for (unsigned i = 1; i < n; i++)
		if (!lw_opnd(c, in->ops[i], &o[i - 1]))
			return false;
	return true;
}

/* A register part of o (an immediate 0 stays RZ, others are moved). */
static Part reg_of(LowerCtx *c, const Opnd *o, unsigned sub)
{
	return part_of(c, o, sub);
}

/* mul.lo.{u,s,b}64 and mad.lo.{u,s}64: the 64-bit product of a0*b0 plus
 * the two cross products a1*b0 and a0*b1 (low words) added to its high
 * word by one IADD3; mad adds the addend with an IADD.CC / IADD.X pair
 * after it. */
static bool mul_lo64(LowerCtx *c, const Instr *in, bool mad)
{
	uint32_t d;
	unsigned dw;
	Opnd o[3];
	if (!operands(c, in, mad ? 4 : 3, &d, &dw, o))
		return false;
	imm_second(o);
	Part a0 = reg_of(c, &o[0], 0), a1 = reg_of(c, &o[0], 1);
	Part b0 = reg_of(c, &o[1], 0), b1 = reg_of(c, &o[1], 1);
	Part dlo = { d, 0 }, dhi = { d, dw == 2 ? 1 : 0 };
	/* the low word goes straight to d unless d is also a source: the
	 * cross products still read a0 and b0 after it is written */
	bool aliased = (o[0].kind == OPND_REG && o[0].vreg == d) || (o[1].kind == OPND_REG && o[1].vreg == d);
	Part lo = mad || aliased ? temp_part(c) : dlo, hi = temp_part(c);
	Part c1 = temp_part(c), c2 = temp_part(c);
	mul_wide32(c, lo, hi, a0, b0, false);
	mul_lo(c, c1, a1, b0);
	mul_lo(c, c2, a0, b1);
	if (!mad) {
		iadd3(c, dhi, c2, hi, c1);
		if (aliased)
			lw_mov(c, d, 0, lo.v, lo.s);
		return true;
	}
	Part sum = temp_part(c);
	iadd3(c, sum, c2, hi, c1);
	add64(c, dlo, dhi, reg_of(c, &o[2], 0), reg_of(c, &o[2], 1), lo, sum, lw_has_mod(in, ".cc"));
	return true;
}

/* The low 64 bits of a*b as ptxas's division subroutines build them: the
 * cross products' low words accumulate through the XMADs' addends,
 * hi = lo(a1*b0) + (lo(a0*b1) + hi(a0*b0)), with no IADD3. */
void lw_mul_lo64(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b)
{
	Part lo = { d, 0 }, hi = { d, 1 }, h = temp_part(c), y = temp_part(c);
	Part a0 = { a, 0 }, a1 = { a, 1 }, b0 = { b, 0 }, b1 = { b, 1 };
	mul_wide32(c, lo, h, a0, b0, false);
	mul_lo_add(c, y, a0, b1, h);
	mul_lo_add(c, hi, a1, b0, y);
}

/* ---- issue 17: mul.hi.s64 (arith) ---- */

/* LOP.op d, a, b (op: 0 AND, 3 PASS_B; inv_b: ~b) */
static void lop(LowerCtx *c, unsigned op, Part d, Part a, Part b, bool inv_b)
{
	LInsn *in = lw_emit(c, SF_LOP_R);
	ref(in, SR_RD, d, true);
	ref(in, SR_RA, a, false);
	ref(in, SR_RB, b, false);
	linsn_set(in, SR_LOPOP, op);
	linsn_set(in, SR_INVB, inv_b);
}

/* mul.hi.s64 from the unsigned high word u of the same operands:
 * d = u - (a < 0 ? b : 0) - (b < 0 ? a : 0) (mod 2^64), as
 * d = ~(~u + t) with t the two corrections' 64-bit sum (ptxas negates
 * with LOP.PASS_B ~ too). */
static void mul_hi_s64_fix(LowerCtx *c, uint32_t d, const Part *u, const Part *a, const Part *b)
{
	Part rz = { NO_REG, 0 };
	Part sa = temp_part(c), sb = temp_part(c), t[2][2];
	for (unsigned i = 0; i < 2; i++) {
		LInsn *sh = lw_emit(c, SF_SHR_I);
		ref(sh, SR_RD, i ? sb : sa, true);
		ref(sh, SR_RA, i ? b[1] : a[1], false);
		linsn_set(sh, SR_IMM, 31);
		linsn_set(sh, SR_SIGNED, 1);
	}
	for (unsigned w = 0; w < 2; w++) {
		t[0][w] = temp_part(c);
		t[1][w] = temp_part(c);
		lop(c, 0, t[0][w], sa, b[w], false);
		lop(c, 0, t[1][w], sb, a[w], false);
	}
	Part sum[2] = { temp_part(c), temp_part(c) }, nu[2] = { temp_part(c), temp_part(c) };
	iadd_cc(c, sum[0], t[0][0], t[1][0], true, false);
	iadd_cc(c, sum[1], t[0][1], t[1][1], false, true);
	for (unsigned w = 0; w < 2; w++)
		lop(c, 3, nu[w], rz, u[w], true);
	Part r[2] = { temp_part(c), temp_part(c) };
	iadd_cc(c, r[0], nu[0], sum[0], true, false);
	iadd_cc(c, r[1], nu[1], sum[1], false, true);
	for (unsigned w = 0; w < 2; w++)
		lop(c, 3, (Part){ d, w }, rz, r[w], true);
}

/* The high 64 bits of a*b into u (u[0].v NO_REG: new temporaries, as
 * u is written back): the high words of the four 32x32 products summed
 * with the carries of the middle words, ptxas's chain: s = hi(a0*b0) +
 * lo(a1*b0), x = hi(a1*b0) + carry; y = hi(a0*b1) + lo(a1*b1), z =
 * hi(a1*b1) + carry; the carry of lo(a0*b1) + s; u = (z:y) + x + that
 * carry. */
static void mul_hi_u64_parts(LowerCtx *c, Part *u, const Part *a, const Part *b)
{
	Part rz = { NO_REG, 0 };
	Part h00 = temp_part(c), l10 = temp_part(c), h10 = temp_part(c), l01 = temp_part(c), h01 = temp_part(c);
	Part l11 = temp_part(c), h11 = temp_part(c);
	mul_wide32(c, rz, h00, a[0], b[0], false);
	mul_wide32(c, l10, h10, a[1], b[0], false);
	mul_wide32(c, l01, h01, a[0], b[1], false);
	mul_wide32(c, l11, h11, a[1], b[1], false);
	Part s = temp_part(c), x = temp_part(c), y = temp_part(c), z = temp_part(c);
	iadd_cc(c, s, h00, l10, true, false);
	iadd_cc(c, x, rz, h10, false, true);
	iadd_cc(c, y, h01, l11, true, false);
	iadd_cc(c, z, rz, h11, false, true);
	iadd_cc(c, rz, l01, s, true, false);
	if (u[0].v == NO_REG)
		u[0] = temp_part(c), u[1] = temp_part(c);
	iadd_cc(c, u[0], x, y, true, true);
	iadd_cc(c, u[1], rz, z, false, true);
}

void lw_mul_hi_u64(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b)
{
	Part u[2] = { { d, 0 }, { d, 1 } }, pa[2] = { { a, 0 }, { a, 1 } }, pb[2] = { { b, 0 }, { b, 1 } };
	mul_hi_u64_parts(c, u, pa, pb);
}

/* mul.hi.u64 (and .s64, corrected by mul_hi_s64_fix): mul_hi_u64_parts;
 * mad.hi{.cc}.{u,s}64: that product into a temporary, then add64 of the
 * addend, as ptxas 11.8 (-O0 and -O3: IADD.CC, IADD.X{.CC}). */
static bool mul_hi_u64(LowerCtx *c, const Instr *in, bool mad)
{
	uint32_t d;
	unsigned dw;
	Opnd o[3];
	if (!operands(c, in, mad ? 4 : 3, &d, &dw, o))
		return false;
	uint32_t sum = d;
	if (mad)
		d = lw_temp(c, 2);
	Part a[2], b[2];
	for (unsigned i = 0; i < 2; i++) {
		a[i] = reg_of(c, &o[0], i);
		b[i] = reg_of(c, &o[1], i);
	}
	for (unsigned i = 0; i < 2; i++) {
		/* an immediate zero word still needs a register for the XMADs */
		Part *p[2] = { &a[i], &b[i] };
		for (unsigned j = 0; j < 2; j++)
			if (p[j]->v == NO_REG) {
				*p[j] = temp_part(c);
				lw_mov_rz(c, p[j]->v, 0);
			}
	}
	bool is_signed = lw_instr_type(in).is_signed;
	/* signed: the unsigned high word first (d may be a or b) */
	Part u[2] = { { d, 0 }, { d, 1 } };
	if (is_signed)
		u[0].v = u[1].v = NO_REG;
	mul_hi_u64_parts(c, u, a, b);
	if (is_signed)
		mul_hi_s64_fix(c, d, u, a, b);
	if (mad)
		add64(c, (Part){ sum, 0 }, (Part){ sum, 1 }, reg_of(c, &o[2], 0), reg_of(c, &o[2], 1), (Part){ d, 0 },
		      (Part){ d, 1 }, lw_has_mod(in, ".cc"));
	return true;
}

static bool emit_wide16(LowerCtx *c, uint32_t d, Opnd *o, bool mad, bool is_signed, bool no_shift);

/* mul.wide.{u,s}16: one XMAD of the low halves (signed: .S16.S16), plus
 * the addend as C for mad.wide.{u,s}16; mul.hi.{u,s}16: that product
 * shifted right by 16 (SHR.U32 / SHR), as ptxas. */
static bool wide16(LowerCtx *c, const Instr *in, bool mad, bool is_signed)
{
	uint32_t d;
	unsigned dw;
	Opnd o[3];
	if (!operands(c, in, mad ? 4 : 3, &d, &dw, o))
		return false;
	if (!mad && lw_has_mod(in, ".hi")) {
		uint32_t p = lw_temp(c, 1);
		emit_wide16(c, p, o, false, is_signed, true);
		lw_shr_imm(c, d, 0, p, 0, 16, is_signed);
		return true;
	}
	return emit_wide16(c, d, o, mad, is_signed, false);
}

/* The product of wide16 into d (o: the sources, the addend third);
 * no_shift keeps a power of two a multiply (mul.hi). */
static bool emit_wide16(LowerCtx *c, uint32_t d, Opnd *o, bool mad, bool is_signed, bool no_shift)
{
	imm_second(o);
	Part a = reg_of(c, &o[0], 0);
	if (a.v == NO_REG) {
		/* 0 * b (+ c): still one XMAD, with a zero register */
		a = temp_part(c);
		lw_mov_rz(c, a.v, 0);
	}
	int64_t k = o[1].kind == OPND_IMM ? o[1].imm & 0xffff : -1;
	if (!mad && !no_shift && !is_signed && k > 0 && (k & (k - 1)) == 0) {
		/* ptxas: a power of two is a shift */
		unsigned n = 0;
		while ((k >> n) != 1)
			n++;
		LInsn *s = lw_emit(c, SF_SHL_I);
		ref(s, SR_RD, (Part){ d, 0 }, true);
		ref(s, SR_RA, a, false);
		linsn_set(s, SR_IMM, n);
		return true;
	}
	Part cc = mad ? reg_of(c, &o[2], 0) : (Part){ NO_REG, 0 };
	LInsn *x;
	if (k >= 0 && !(is_signed && (k & 0x8000))) {
		/* a non-negative 16-bit immediate: XMAD d, a, imm16, c (the
		 * immediate's half unsigned, as ptxas) */
		x = lw_emit(c, SF_XMAD_I);
		ref(x, SR_RD, (Part){ d, 0 }, true);
		ref(x, SR_RA, a, false);
		linsn_set(x, SR_IMM, k);
		ref(x, SR_RC, cc, false);
		linsn_set(x, SR_SA, is_signed);
		return true;
	}
	Part b = reg_of(c, &o[1], 0);
	x = xmad(c, (Part){ d, 0 }, a, false, b, false, cc);
	linsn_set(x, SR_SA, is_signed);
	linsn_set(x, SR_SB, is_signed);
	return true;
}

bool lower_mul_ext(LowerCtx *c, const Instr *in)
{
	PtxTy t = lw_instr_type(in);
	bool mad = strcmp(in->opcode, "mad") == 0;
	if ((lw_has_mod(in, ".wide") || (!mad && lw_has_mod(in, ".hi"))) && t.bits == 16)
		return wide16(c, in, mad, t.is_signed);
	if (lw_has_mod(in, ".hi") && t.bits == 64)
		return mul_hi_u64(c, in, mad);    /* and mul.hi.s64 (issue 17), mad.hi{.cc} */
	if (lw_has_mod(in, ".lo") && t.bits == 64)
		return mul_lo64(c, in, mad);
	if (mad && lw_has_mod(in, ".wide") && t.bits == 32) {
		uint32_t d;
		unsigned dw;
		Opnd o[3];
		if (!operands(c, in, 4, &d, &dw, o))
			return false;
		imm_second(o);
		Part a = reg_of(c, &o[0], 0), b = reg_of(c, &o[1], 0);
		Part lo = temp_part(c), hi = temp_part(c);
		if (a.v == NO_REG || b.v == NO_REG) {
			Part z = temp_part(c);
			lw_mov_rz(c, z.v, 0);
			if (a.v == NO_REG)
				a = z;
			if (b.v == NO_REG)
				b = z;
		}
		mul_wide32(c, lo, hi, a, b, t.is_signed);
		add64(c, (Part){ d, 0 }, (Part){ d, 1 }, reg_of(c, &o[2], 0), reg_of(c, &o[2], 1), lo, hi, false);
		return true;
	}
	return lw_unsupported(c, in->loc, "%s on this type and width (64-bit mul/mad .lo and .hi, "
	                      "mad.wide.{u,s}32 and 16-bit mul/mad.wide are supported here)", in->opcode);
}

/* min/max.{u,s}64: IMNMX[.U32].XHI d.hi.CC, a.hi, b.hi then
 * IMNMX.U32.XLO d.lo, a.lo, b.lo (PT selects the minimum, !PT the
 * maximum). */
bool lower_minmax64(LowerCtx *c, const Instr *in)
{
	PtxTy t = lw_instr_type(in);
	uint32_t d;
	unsigned dw;
	Opnd o[2];
	if (!operands(c, in, 3, &d, &dw, o))
		return false;
	imm_second(o);
	bool max = strcmp(in->opcode, "max") == 0;
	for (unsigned p = 2; p-- > 0;) {
		uint32_t av;
		unsigned as;
		lw_opnd_part(c, &o[0], p, &av, &as);
		LInsn *op;
		int64_t cpair = o[1].kind == OPND_REG ? lw_vreg_cpair(c, o[1].vreg) : -1;
		if (cpair >= 0) {
			/* a 64-bit parameter: its words from c[0x0], as ptxas reads them */
			op = lw_emit(c, SF_IMNMX_C);
			linsn_set(op, SR_CBANK, 0);
			linsn_set(op, SR_COFF, cpair / 4 + p);
		} else if (o[1].kind == OPND_IMM && (uint32_t)((uint64_t)o[1].imm >> (32 * p)) == 0) {
			op = lw_emit(c, SF_IMNMX_R);
			linsn_set(op, SR_RB, 255);    /* a zero word: RZ */
		} else {
			op = lw_alu(c, SASS_ALU_FORMS(IMNMX), d, p, av, as, &o[1], p);
		}
		linsn_ref(op, SR_RD, d, p, 1, true);
		linsn_ref(op, SR_RA, av, as, 1, false);
		linsn_set(op, SR_SIGNED, p == 1 && t.is_signed);
		linsn_set(op, SR_XMODE, p == 1 ? 3 : 1);
		linsn_set(op, SR_PC, 7);
		linsn_set(op, SR_PC_NOT, max);
		if (p == 1) {
			linsn_set(op, SR_CC, 1);
			op->writes_cc = true;
		} else {
			op->reads_cc = true;
		}
	}
	return true;
}

/* shf.{l,r}.{wrap,clamp}.b32 d, a, b, n: SHF.{L,R}[.W] d, a, n, b (a the
 * low word, b the high word, n a register or a 6-bit immediate). */
bool lower_shf(LowerCtx *c, const Instr *in)
{
	bool left = lw_has_mod(in, ".l"), wrap = lw_has_mod(in, ".wrap");
	if (!left && !lw_has_mod(in, ".r"))
		return lw_unsupported(c, in->loc, "shf without .l or .r");
	uint32_t d;
	unsigned dw;
	Opnd o[3];
	if (!operands(c, in, 4, &d, &dw, o))
		return false;
	Part lo = reg_of(c, &o[0], 0), hi = reg_of(c, &o[1], 0);
	LInsn *op;
	if (o[2].kind == OPND_IMM) {
		uint64_t n = (uint64_t)o[2].imm;
		/* wrap takes the amount mod 32; clamp saturates at 32 */
		n = wrap ? n & 31 : (n > 32 ? 32 : n);
		op = lw_emit(c, left ? SF_SHF_L_I : SF_SHF_R_I);
		linsn_set(op, SR_IMM, (int64_t)n);
	} else {
		Part n = reg_of(c, &o[2], 0);
		op = lw_emit(c, left ? SF_SHF_L_R : SF_SHF_R_R);
		ref(op, SR_RB, n, false);
	}
	ref(op, SR_RD, (Part){ d, 0 }, true);
	ref(op, SR_RA, lo, false);
	ref(op, SR_RC, hi, false);
	linsn_set(op, SR_W, wrap);
	return true;
}

/* ---- ctrl: 64-bit carry chains ---- */

/* add.cc, addc{.cc}, sub.cc, subc{.cc} .{u,s}64 as ptxas 11.8 writes them:
 * one IADD per word, the low word .CC (and .X with a carry in), the high
 * word .X (and .CC with a carry out). Subtraction is IADD with -b: with .X
 * the adder takes ~b + CC, without it ~b + 1, so the borrow chains through
 * the flag as for sub.u64. An immediate word is IADD32I: with .X its
 * complement (ptxas's IADD32I.X R, a, -0x4e for subc by 77), without .X
 * its negation; a zero low word of a subtrahend without carry in is -RZ
 * (~0 + 1 carries: no borrow, where IADD32I of 0 would not carry). */
static void carry64(LowerCtx *c, uint32_t d, const Opnd o[2], bool sub, bool carry_in, bool carry_out)
{
	Part a[2] = { reg_of(c, &o[0], 0), reg_of(c, &o[0], 1) };
	for (unsigned p = 0; p < 2; p++) {
		bool cc = p == 0 || carry_out, x = p == 1 || carry_in;
		uint32_t w = (uint32_t)((uint64_t)o[1].imm >> (32 * p));
		LInsn *op;
		if (o[1].kind == OPND_IMM && !(sub && !x && w == 0)) {
			op = lw_emit(c, SF_IADD32I);
			linsn_set(op, SR_IMM, !sub ? w : x ? ~w : (uint32_t)-w);
		} else {
			op = lw_emit(c, SF_IADD_R);
			ref(op, SR_RB, o[1].kind == OPND_IMM ? (Part){ NO_REG, 0 } : reg_of(c, &o[1], p), false);
			linsn_set(op, SR_NEG, sub);
		}
		ref(op, SR_RA, a[p], false);
		ref(op, SR_RD, (Part){ d, p }, true);
		linsn_set(op, SR_CC, cc);
		linsn_set(op, SR_X, x);
		op->writes_cc = cc;
		op->reads_cc = x;
	}
}

/* add.cc, addc[.cc], sub.cc, subc[.cc] on 32-bit values: IADD.CC (an
 * immediate: IADD32I.CC), IADD.X; sub.cc negates b, subc adds ~b
 * (LOP.PASS_B) with the carry, as ptxas does. addc/subc .u16/.s16 (ptxas
 * takes them, without .cc) are the same 32-bit sum: the upper half of a
 * 16-bit register is undefined, and the low 16 bits of the sum do not
 * depend on it. */
bool lower_carry(LowerCtx *c, const Instr *in)
{
	PtxTy t = lw_instr_type(in);
	bool sub = in->opcode[0] == 's', carry_in = in->opcode[3] == 'c';
	bool carry_out = lw_has_mod(in, ".cc");
	bool half = t.bits == 16 && carry_in && !carry_out;
	if ((t.bits != 32 && t.bits != 64 && !half) || t.is_float)
		return lw_unsupported(c, in->loc, "%s on %u-bit values (.u32/.s32/.u64/.s64, and .u16/.s16 without "
		                      ".cc for addc and subc, are supported)", in->opcode, t.bits);
	uint32_t d;
	unsigned dw;
	Opnd o[2];
	if (!operands(c, in, 3, &d, &dw, o))
		return false;
	if (!sub)
		imm_second(o);
	if (t.bits == 64) {
		carry64(c, d, o, sub, carry_in, carry_out);
		return true;
	}
	Part a = reg_of(c, &o[0], 0);
	LInsn *op;
	if (o[1].kind == OPND_IMM && (uint32_t)o[1].imm == 0 && !sub && carry_in) {
		/* addc a, 0: ptxas's IADD.X d, RZ, a */
		op = lw_emit(c, SF_IADD_R);
		linsn_set(op, SR_RA, 255);
		ref(op, SR_RB, a, false);
	} else if (o[1].kind == OPND_IMM && !(sub && carry_in)) {
		op = lw_emit(c, SF_IADD32I);
		ref(op, SR_RA, a, false);
		linsn_set(op, SR_IMM, (uint32_t)(sub ? -(uint32_t)o[1].imm : (uint32_t)o[1].imm));
	} else {
		Part b = reg_of(c, &o[1], 0);
		if (sub && carry_in) {
			Part nb = temp_part(c);
			LInsn *inv = lw_emit(c, SF_LOP_R);
			ref(inv, SR_RD, nb, true);
			linsn_set(inv, SR_RA, 255);
			ref(inv, SR_RB, b, false);
			linsn_set(inv, SR_LOPOP, 3);    /* PASS_B */
			linsn_set(inv, SR_INVB, 1);
			b = nb;
		}
		op = lw_emit(c, SF_IADD_R);
		ref(op, SR_RA, a, false);
		ref(op, SR_RB, b, false);
		if (sub && !carry_in)
			linsn_set(op, SR_NEG, 1);    /* a + -b */
	}
	ref(op, SR_RD, (Part){ d, 0 }, true);
	linsn_set(op, SR_CC, carry_out);
	linsn_set(op, SR_X, carry_in);
	op->writes_cc = carry_out;
	op->reads_cc = carry_in;
	return true;
}

/* mad.hi.{u,s}32 (the addend in the product's high partial product, as
 * ptxas), mad{.lo,.hi}.cc and madc{.lo,.hi}{.cc} .{u,s}32: the product,
 * then IADD{.X}{.CC} d, c, product. */
bool lower_mad_carry(LowerCtx *c, const Instr *in)
{
	PtxTy t = lw_instr_type(in);
	if (t.bits != 32 || t.is_float)
		return lw_unsupported(c, in->loc, "%s on %u-bit values (.u32/.s32 are supported; the 64-bit product's "
		                      "own carry chain would overwrite the carry in)", in->opcode, t.bits);
	bool hi = lw_has_mod(in, ".hi"), carry_in = strcmp(in->opcode, "madc") == 0;
	bool carry_out = lw_has_mod(in, ".cc");
	if (!hi && !lw_has_mod(in, ".lo"))
		return lw_unsupported(c, in->loc, "%s without .lo or .hi", in->opcode);
	uint32_t d;
	unsigned dw;
	Opnd o[3];
	if (!operands(c, in, 4, &d, &dw, o))
		return false;
	imm_second(o);
	Part a = reg_of(c, &o[0], 0), b = reg_of(c, &o[1], 0), e = reg_of(c, &o[2], 0);
	Part *regs[3] = { &a, &b, &e };
	for (unsigned i = 0; i < 3; i++)
		if (regs[i]->v == NO_REG) {
			*regs[i] = temp_part(c);
			lw_mov_rz(c, regs[i]->v, 0);
		}
	if (hi && !carry_in && !carry_out) {
		lw_mul_hi32(c, d, a.v, b.v, t.is_signed, (int)e.v);
		return true;
	}
	Part p = temp_part(c);
	if (hi)
		lw_mul_hi32(c, p.v, a.v, b.v, t.is_signed, -1);
	else
		mul_lo(c, p, a, b);
	iadd_cc(c, (Part){ d, 0 }, e, p, carry_out, carry_in);
	return true;
}
