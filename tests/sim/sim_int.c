/* The integer families of the simulator: moves, adds with the condition
 * code, shifts, logic, compares, XMAD, bit fields, min/max, select, funnel
 * shifts, LEA, IADD3, I2I and predicate logic. Semantics follow the
 * project's Maxwell notes (docs/encoding.md) and PTX's definition of the
 * operation each form implements; a modifier outside what is modelled
 * stops the run. */
#include "sim.h"

#include <string.h>

static bool no(SimMachine *m, const SimInsn *in, const char *what)
{
	return sim_fail(m, in, "%s is not modelled", what), true;
}

/* Sets the condition code after an add whose 33-bit sum is `sum` of a and
 * b (b already inverted for a subtraction); an extended (.X) add keeps
 * zero only when the lower words were zero too. */
void sim_set_cc(SimThread *t, uint32_t a, uint32_t b, uint64_t sum, bool extended)
{
	uint32_t r = (uint32_t)sum;
	t->cc.z = r == 0 && (!extended || t->cc.z);
	t->cc.s = r >> 31;
	t->cc.c = (sum >> 32) & 1;
	t->cc.c_hi = (sum >> 33) & 1;
	t->cc.o = (~(a ^ b) & (a ^ r)) >> 31;
	t->cc.co_unknown = false;
}

/* sim4: the condition code of a result that is no sum (I2I.CC, LOP.CC):
 * zero and sign; what they leave in carry and overflow is not established. */
void sim_set_cc_result(SimThread *t, uint32_t r)
{
	t->cc.z = r == 0;
	t->cc.s = r >> 31;
	t->cc.co_unknown = true;
}

static uint32_t sat_s32(int64_t v)
{
	return v > INT32_MAX ? (uint32_t)INT32_MAX : v < INT32_MIN ? (uint32_t)INT32_MIN : (uint32_t)v;
}

/* IADD/IADD32I/ISCADD: a + b with the negation field (1: -B, 2: -A,
 * 3: .PO, plus one), carry in on .X, carry out on .CC, .SAT signed. */
static void exec_add(SimMachine *m, const SimInsn *in, SimThread *t, uint32_t a, uint32_t b)
{
	int64_t neg = sim_val(in, SR_NEG, sim_val(in, SR_NEGA, 0) ? 2 : 0);
	bool x = sim_val(in, SR_X, 0);
	uint64_t cin = x ? t->cc.c : 0;
	int64_t sa = (int32_t)a, sb = (int32_t)b;
	if (neg == 1) { b = ~b; cin = x ? t->cc.c : 1; sb = -sb; }
	if (neg == 2) { a = ~a; cin = x ? t->cc.c : 1; sa = -sa; }
	if (neg == 3) { cin = 1; sa += 1; }
	if (in->form->op == SOP_ISCADD) {
		unsigned sh = (unsigned)sim_val(in, SR_SHIFT, 0);
		/* -A negates the scaled value: B - (A << shift) (a is ~A here) */
		a = neg == 2 ? ~(~a << sh) : a << sh;
	}
	uint64_t sum = (uint64_t)a + b + cin;
	if (sim_val(in, SR_SAT, 0)) {
		if (x)
			return (void)no(m, in, "IADD.SAT.X");
		sum = sat_s32(sa + sb);
	}
	if (sim_val(in, SR_CC, 0))
		sim_set_cc(t, a, b, sum, x);
	sim_set(t, sim_val(in, SR_RD, 255), (uint32_t)sum);
}

static bool cmp_int(int64_t cmp, bool lt, bool eq)
{
	switch (cmp) {
	case 1: return lt;
	case 2: return eq;
	case 3: return lt || eq;
	case 4: return !lt && !eq;
	case 5: return !eq;
	case 6: return !lt;
	case 7: return true;
	default: return false;
	}
}

static bool combine(int64_t bop, bool r, bool c)
{
	return bop == 0 ? (r && c) : bop == 1 ? (r || c) : (r != c);
}

static void set_pred(SimThread *t, int64_t p, bool v)
{
	if (p < SIM_NPREDS)
		t->p[p] = v;
}

/* ISETP and ISET: .X compares the upper words of a 64-bit comparison whose
 * lower words set the condition code (IADD RZ.CC, lo_a, -lo_b). */
static bool int_compare(const SimInsn *in, SimThread *t, uint32_t a, uint32_t b)
{
	bool sg = sim_val(in, SR_SIGNED, 0), lt, eq;
	if (sim_val(in, SR_X, 0)) {
		uint64_t sum = (uint64_t)a + (uint32_t)~b + t->cc.c;
		uint32_t r = (uint32_t)sum;
		bool ovf = ((a ^ b) & (a ^ r)) >> 31;
		lt = sg ? ((r >> 31) != ovf) : !((sum >> 32) & 1);
		eq = r == 0 && t->cc.z;
	} else {
		lt = sg ? (int32_t)a < (int32_t)b : a < b;
		eq = a == b;
	}
	return cmp_int(sim_val(in, SR_CMP, 0), lt, eq);
}

/* The predicate pair of a test r (ISETP, CSETP): Pd = r bop Pc,
 * Pq = !r bop Pc. */
void sim_set_test_preds(SimThread *t, const SimInsn *in, bool r)
{
	bool c = sim_pred(t, sim_val(in, SR_PC, 7), sim_val(in, SR_PC_NOT, 0));
	int64_t bop = sim_val(in, SR_BOP, 0);
	set_pred(t, sim_val(in, SR_PD, 7), combine(bop, r, c));
	set_pred(t, sim_val(in, SR_PQ, 7), combine(bop, !r, c));
}

static void exec_isetp(SimMachine *m, const SimInsn *in, SimThread *t, uint32_t a, uint32_t b)
{
	sim_set_test_preds(t, in, int_compare(in, t, a, b));
}

/* issue 15 (misc): ISET Rd = ((A cmp B) bop Pc) ? (BF: 1.0f, else
 * 0xffffffff) : 0. Rd.CC sets the condition code from that result, as
 * LOP.CC does: ptxas -O3 writes `ISET.LT.AND RZ.CC, Ra, imm, PT` and then
 * `BRA CC.NEU` for a loop test (HeCBench bitpacking). */
static void exec_iset(SimMachine *m, const SimInsn *in, SimThread *t, uint32_t a, uint32_t b)
{
	(void)m;
	bool c = sim_pred(t, sim_val(in, SR_PC, 7), sim_val(in, SR_PC_NOT, 0));
	bool r = combine(sim_val(in, SR_BOP, 0), int_compare(in, t, a, b), c);
	uint32_t v = !r ? 0 : sim_val(in, SR_BF, 0) ? 0x3f800000u : 0xffffffffu;
	sim_set(t, sim_val(in, SR_RD, 255), v);
	if (sim_val(in, SR_CC, 0))
		sim_set_cc_result(t, v);
}

static void exec_psetp(SimThread *t, const SimInsn *in)
{
	bool pa = sim_pred(t, sim_val(in, SR_PA, 7), sim_val(in, SR_PA_NOT, 0));
	bool pb = sim_pred(t, sim_val(in, SR_PB, 7), sim_val(in, SR_PB_NOT, 0));
	bool pc = sim_pred(t, sim_val(in, SR_PC, 7), sim_val(in, SR_PC_NOT, 0));
	int64_t bop = sim_val(in, SR_BOP, 0), bop2 = sim_val(in, SR_BOP2, 0);
	set_pred(t, sim_val(in, SR_PD, 7), combine(bop2, combine(bop, pa, pb), pc));
	set_pred(t, sim_val(in, SR_PQ, 7), combine(bop2, combine(bop, !pa, pb), pc));
}

/* XMAD: a 16x16-bit product plus C, with the C modes and .PSL/.MRG; .CC
 * and .X carry through the final add. */
static void exec_xmad(SimMachine *m, const SimInsn *in, SimThread *t, uint32_t a)
{
	uint32_t b, c;
	if (in->form->bkind == SASS_B_RC) {
		b = sim_reg(t, sim_val(in, SR_RB, 255));
		c = sim_operand_b(m, in, t);
	} else {
		b = sim_operand_b(m, in, t);
		c = sim_reg(t, sim_val(in, SR_RC, 255));
	}
	uint32_t a16 = sim_val(in, SR_HA, 0) ? a >> 16 : a & 0xffff;
	uint32_t b16 = sim_val(in, SR_HB, 0) ? b >> 16 : b & 0xffff;
	int64_t x = sim_val(in, SR_SA, 0) ? (int16_t)a16 : (int64_t)a16;
	int64_t y = sim_val(in, SR_SB, 0) ? (int16_t)b16 : (int64_t)b16;
	uint32_t prod = (uint32_t)(x * y);
	if (sim_val(in, SR_PSL, 0))
		prod <<= 16;
	switch (sim_val(in, SR_CMODE, 0)) {
	case 0: break;
	case 1: c &= 0xffff; break;
	case 2: c >>= 16; break;
	case 3: {
		/* .CSFU: C less 2^16 for each signed partial product of the
		 * other halves (a.lo * b.hi, a.hi * b.lo) that is negative: the
		 * sign fix-up of the high word, which IADD3.RS sums as unsigned
		 * 33-bit values (ptxas's mul.hi.s32 and mul.wide.s32) */
		bool neg_a = sim_val(in, SR_SA, 0) && (a16 >> 15), neg_b = sim_val(in, SR_SB, 0) && (b16 >> 15);
		uint32_t other_a = sim_val(in, SR_HA, 0) ? a & 0xffff : a >> 16;
		uint32_t other_b = sim_val(in, SR_HB, 0) ? b & 0xffff : b >> 16;
		c -= ((uint32_t)(neg_a && other_b) + (uint32_t)(neg_b && other_a)) << 16;
		break;
	}
	case 4: c += b << 16; break;
	default: return (void)no(m, in, "this XMAD C mode");
	}
	bool xf = sim_val(in, SR_X, 0);
	uint64_t sum = (uint64_t)prod + c + (xf ? t->cc.c : 0);
	if (sim_val(in, SR_CC, 0))
		sim_set_cc(t, prod, c, sum, xf);
	uint32_t r = (uint32_t)sum;
	if (sim_val(in, SR_MRG, 0))
		r = (r & 0xffff) | (b << 16);
	sim_set(t, sim_val(in, SR_RD, 255), r);
}

static uint32_t brev(uint32_t v)
{
	uint32_t r = 0;
	for (int i = 0; i < 32; i++, v >>= 1)
		r = r << 1 | (v & 1);
	return r;
}

/* BFE: B holds the position (bits 7:0) and length (15:8), PTX bfe. */
static uint32_t bfe(uint32_t a, uint32_t b, bool sg)
{
	uint32_t pos = b & 0xff, len = (b >> 8) & 0xff;
	if (len == 0)
		return 0;
	if (pos >= 32)
		return sg && (a >> 31) ? 0xffffffffu : 0;
	uint32_t end = pos + len > 32 ? 32 : pos + len;
	uint32_t v = a >> pos;
	unsigned w = end - pos;
	if (w < 32)
		v &= (1u << w) - 1;
	if (sg && w < 32 && (v >> (w - 1) & 1))
		v |= ~0u << w;
	return v;
}

/* BFI: A's low bits into C at B's position and length, PTX bfi. */
static uint32_t bfi(uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t pos = b & 0xff, len = (b >> 8) & 0xff;
	if (len == 0 || pos >= 32)
		return c;
	uint64_t mask = (((uint64_t)1 << (len > 32 ? 32 : len)) - 1) << pos;
	return (uint32_t)(((uint64_t)c & ~mask) | (((uint64_t)a << pos) & mask));
}

static void exec_shf(SimMachine *m, const SimInsn *in, SimThread *t, uint32_t a, uint32_t s)
{
	int64_t ms = sim_val(in, SR_MAXSHIFT, 0);
	if (sim_val(in, SR_X, 0) || sim_val(in, SR_CC, 0) || ms == 1)
		return (void)no(m, in, "SHF with .X, .CC or this shift width");
	unsigned max = ms ? 64 : 32;
	s = sim_val(in, SR_W, 0) ? s & (max - 1) : (s > max ? max : s);
	uint64_t v = (uint64_t)sim_reg(t, sim_val(in, SR_RC, 255)) << 32 | a;
	uint32_t r;
	if (in->form->op == SOP_SHF_L) {
		if (sim_val(in, SR_HI, 0))
			return (void)no(m, in, "SHF.L.HI");
		r = (uint32_t)((s >= 64 ? 0 : v << s) >> 32);
	} else {
		uint64_t sh = s >= 64 ? (ms == 3 && (v >> 63) ? ~0ull : 0)
		            : ms == 3 ? (uint64_t)((int64_t)v >> s) : v >> s;
		r = sim_val(in, SR_HI, 0) ? (uint32_t)(sh >> 32) : (uint32_t)sh;
	}
	sim_set(t, sim_val(in, SR_RD, 255), r);
}

/* IADD3: three 32-bit terms, each optionally negated, each optionally a
 * 16-bit half (.H0/.H1, zero-extended); .RS adds C to the 33-bit sum of A
 * and B shifted right by 16, .LS to that sum shifted left by 16 (the
 * partial products of ptxas's mul.hi sequence). */
static uint32_t half_of(uint32_t v, int64_t hsel)
{
	return hsel == 1 ? v & 0xffff : hsel == 2 ? v >> 16 : v;
}

static void exec_iadd3(SimMachine *m, const SimInsn *in, SimThread *t, uint32_t a, uint32_t b)
{
	int64_t shift = sim_val(in, SR_SHIFTMODE, 0);
	bool na = sim_val(in, SR_NEGA, 0), nb = sim_val(in, SR_NEGB, 0), nc = sim_val(in, SR_NEGC, 0);
	bool x = sim_val(in, SR_X, 0), cc = sim_val(in, SR_CC, 0);
	if (shift == 3 || (shift && (na || nb || x || cc)) || ((x || cc) && (na || nb || nc)))
		return (void)no(m, in, "IADD3 with a shift of negated terms, or .X/.CC with negated terms");
	uint32_t c = sim_reg(t, sim_val(in, SR_RC, 255));
	a = half_of(a, sim_val(in, SR_HSEL_A, 0));
	b = half_of(b, sim_val(in, SR_HSEL_B, 0));
	c = half_of(c, sim_val(in, SR_HSEL_C, 0));
	if (na) a = -a;
	if (nb) b = -b;
	if (nc) c = -c;
	uint64_t ab = (uint64_t)a + b;
	if (shift) {
		uint32_t s = shift == 1 ? (uint32_t)(ab >> 16) : (uint32_t)(ab << 16);
		sim_set(t, sim_val(in, SR_RD, 255), s + c);
		return;
	}
	/* .X adds the carry a previous .CC left (up to 2 after three terms) */
	uint64_t sum = ab + c + (x ? (uint64_t)t->cc.c + 2u * t->cc.c_hi : 0);
	if (cc)
		sim_set_cc(t, a, b, sum, x);
	sim_set(t, sim_val(in, SR_RD, 255), (uint32_t)sum);
}

/* LEA: (A << shift) + B; LEA.HI: the high word of C:A shifted left by
 * shift, plus B (the upper half of a 64-bit scaled index); .X adds the
 * carry, .CC sets it. */
static void exec_lea(SimMachine *m, const SimInsn *in, SimThread *t, uint32_t a, uint32_t b)
{
	if (sim_val(in, SR_NEGA, 0))
		return (void)no(m, in, "LEA with -A");
	unsigned sh = (unsigned)sim_val(in, SR_SHIFT, 0);
	uint32_t v;
	if (in->form->op == SOP_LEA) {
		v = a << sh;
	} else {
		uint64_t ca = (uint64_t)sim_reg(t, sim_val(in, SR_RC, 255)) << 32 | a;
		v = (uint32_t)((ca << sh) >> 32);
	}
	bool x = sim_val(in, SR_X, 0);
	uint64_t sum = (uint64_t)v + b + (x ? t->cc.c : 0);
	if (sim_val(in, SR_CC, 0))
		sim_set_cc(t, v, b, sum, x);
	/* The predicate output: both assemblers write it only in ptxas's
	 * generic address sequence (LEA.HI.X P, ...; LD/ST [..], P), and ptxas
	 * 11.8 branches on it before a generic atomic: ATOM.E when it is true,
	 * its shared-window path (ATOMS at the low 24 bits) when it is false.
	 * So the simulator makes it "the address C:A is outside the shared
	 * window" (sim_window.c's test); LD/ST do not read it. In 32-bit code
	 * (issue 15) ptxas writes it with the one LEA P, t, a, RZ of a 32-bit
	 * generic address, and branches on it the same way: "the 32-bit
	 * address is outside the shared window". */
	int64_t pd = sim_val(in, SR_PD, 7);
	if (pd < SIM_NPREDS) {
		uint32_t hi = sim_reg(t, sim_val(in, SR_RC, 255));
		t->p[pd] = in->form->op == SOP_LEA_HI ? hi != 0 || (a & 0xff000000u) != SIM_SHARED_WINDOW
		                                      : ((uint32_t)sum & 0xff000000u) != SIM_SHARED_WINDOW;
	}
	sim_set(t, sim_val(in, SR_RD, 255), (uint32_t)sum);
}

/* I2I: integer to integer of the encoded sizes: |x|, then -x, then .SAT
 * clamps to the destination's range. Types: signed | size << 1 (8, 16, 32 bits). */
static void exec_i2i(SimMachine *m, const SimInsn *in, SimThread *t, uint32_t b)
{
	int64_t st = sim_val(in, SR_STYPE, 4), dt = sim_val(in, SR_DTYPE, 4);
	b >>= 8 * sim_val(in, SR_BYTESEL, 0);
	unsigned sbits = 8u << (st >> 1), dbits = 8u << (dt >> 1);
	int64_t v = sbits >= 32 ? ((st & 1) ? (int64_t)(int32_t)b : (int64_t)b)
	          : (st & 1) ? (int64_t)((int32_t)(b << (32 - sbits)) >> (32 - sbits))
	          : (int64_t)(b & ((1u << sbits) - 1));
	if (sim_val(in, SR_ABS, 0) && v < 0)
		v = -v;
	if (sim_val(in, SR_NEGB, 0))
		v = -v;
	if (sim_val(in, SR_SAT, 0)) {
		int64_t lo = (dt & 1) ? -((int64_t)1 << (dbits - 1)) : 0;
		int64_t hi = (dt & 1) ? ((int64_t)1 << (dbits - 1)) - 1 : ((int64_t)1 << dbits) - 1;
		v = v < lo ? lo : v > hi ? hi : v;
	}
	uint32_t r = (uint32_t)v;
	if (dbits < 32)
		r = (dt & 1) ? (uint32_t)((int32_t)(r << (32 - dbits)) >> (32 - dbits))
		             : r & ((1u << dbits) - 1);
	if (sim_val(in, SR_CC, 0))
		sim_set_cc_result(t, r);
	sim_set(t, sim_val(in, SR_RD, 255), r);
}

bool sim_exec_int(SimMachine *m, const SimInsn *in, SimThread *t)
{
	int64_t rd = sim_val(in, SR_RD, 255);
	uint32_t a = sim_reg(t, sim_val(in, SR_RA, 255));
	bool pc = sim_pred(t, sim_val(in, SR_PC, 7), sim_val(in, SR_PC_NOT, 0));
	switch (in->form->op) {
	case SOP_MOV:
		if (sim_val(in, SR_LANEMASK, 0xf) != 0xf)
			return no(m, in, "a MOV lane mask");
		sim_set(t, rd, sim_operand_b(m, in, t));
		return true;
	case SOP_MOV32I:
		if (sim_val(in, SR_LANEMASK, 0xf) != 0xf)
			return no(m, in, "a MOV32I lane mask");
		sim_set(t, rd, (uint32_t)sim_val(in, SR_IMM, 0));
		return true;
	case SOP_IADD: case SOP_IADD32I: case SOP_ISCADD:
		exec_add(m, in, t, a, sim_operand_b(m, in, t));
		return true;
	case SOP_SHL: case SOP_SHR: {
		uint32_t b = sim_operand_b(m, in, t), r;
		if (sim_val(in, SR_X, 0) || sim_val(in, SR_CC, 0))
			return no(m, in, "shifts with .X or .CC");
		if (sim_val(in, SR_W, 0))
			b &= 31;
		if (in->form->op == SOP_SHL) {
			r = b >= 32 ? 0 : a << b;
		} else {
			if (sim_val(in, SR_BREV, 0))
				a = brev(a);
			r = sim_val(in, SR_SIGNED, 0) ? (uint32_t)((int32_t)a >> (b >= 32 ? 31 : b))
			                              : b >= 32 ? 0 : a >> b;
		}
		sim_set(t, rd, r);
		return true;
	}
	case SOP_LOP: case SOP_LOP32I: {
		uint32_t b = sim_operand_b(m, in, t);
		if (sim_val(in, SR_INVA, 0)) a = ~a;
		if (sim_val(in, SR_INVB, 0)) b = ~b;
		int64_t op = sim_val(in, SR_LOPOP, 0);
		uint32_t r = op == 0 ? (a & b) : op == 1 ? (a | b) : op == 2 ? (a ^ b) : b;
		if (sim_val(in, SR_CC, 0))
			sim_set_cc_result(t, r);
		sim_set(t, rd, r);
		/* issue 17: LOP.Z/.NZ Pd (the predicate output of the slow paths) */
		int64_t test = sim_val(in, SR_LOPTEST, -1);
		if (test >= 0)
			set_pred(t, sim_val(in, SR_PD, 7), test == 1 ? r != 0 : r == 0);
		return true;
	}
	case SOP_ISETP: exec_isetp(m, in, t, a, sim_operand_b(m, in, t)); return true;
	case SOP_ISET: exec_iset(m, in, t, a, sim_operand_b(m, in, t)); return true;
	case SOP_PSETP: exec_psetp(t, in); return true;
	case SOP_XMAD: exec_xmad(m, in, t, a); return true;
	case SOP_BFE:
		if (sim_val(in, SR_CC, 0))
			return no(m, in, "BFE.CC");
		if (sim_val(in, SR_BREV, 0))
			a = brev(a);
		sim_set(t, rd, bfe(a, sim_operand_b(m, in, t), sim_val(in, SR_SIGNED, 0)));
		return true;
	case SOP_BFI: {
		if (sim_val(in, SR_CC, 0))
			return no(m, in, "BFI.CC");
		uint32_t b = in->form->bkind == SASS_B_RC ? sim_reg(t, sim_val(in, SR_RB, 255)) : sim_operand_b(m, in, t);
		uint32_t c = in->form->bkind == SASS_B_RC ? sim_operand_b(m, in, t) : sim_reg(t, sim_val(in, SR_RC, 255));
		sim_set(t, rd, bfi(a, b, c));
		return true;
	}
	case SOP_IMNMX: {
		uint32_t b = sim_operand_b(m, in, t);
		int64_t xmode = sim_val(in, SR_XMODE, 0);
		bool cc = sim_val(in, SR_CC, 0);
		if (xmode == 2 || (xmode == 3) != cc)
			return no(m, in, "IMNMX.XMED, or .CC other than on .XHI");
		bool less = sim_val(in, SR_SIGNED, 0) ? (int32_t)a < (int32_t)b : a < b;
		/* 64-bit min/max (issue 17): .XHI.CC compares the high words and
		 * passes (equal, less) to the .XLO of the low words in the
		 * condition code (z, c: the simulator's own encoding of the
		 * pair, which is all ptxas's code relies on) */
		if (xmode == 1 && !t->cc.z)
			less = t->cc.c;
		if (xmode == 3) {
			t->cc.z = a == b;
			t->cc.c = less;
		}
		sim_set(t, rd, pc == less ? a : b);
		return true;
	}
	case SOP_SEL: sim_set(t, rd, pc ? a : sim_operand_b(m, in, t)); return true;
	case SOP_SHF_L: case SOP_SHF_R: exec_shf(m, in, t, a, sim_operand_b(m, in, t)); return true;
	case SOP_LEA: case SOP_LEA_HI: exec_lea(m, in, t, a, sim_operand_b(m, in, t)); return true;
	case SOP_IADD3: {
		/* the 20-bit immediate is sign-extended: ptxas 11.8 -O3 adds -2 and
		 * -1 to a 64-bit value as IADD3.CC ..., 0xffffe and IADD3.X ...,
		 * 0xfffff (golden int64-shift-setp); nvdisasm, and the table, print
		 * its 20 bits unsigned */
		uint32_t b = sim_operand_b(m, in, t);
		if (in->form->bkind == SASS_B_IMM && (b & 0x80000))
			b |= 0xfff00000u;
		exec_iadd3(m, in, t, a, b);
		return true;
	}
	case SOP_I2I: exec_i2i(m, in, t, sim_operand_b(m, in, t)); return true;
	default: return false;
	}
}
