/* The random-kernel generator's video instructions and fns (--video,
 * issue 17):
 *   scalar vadd, vsub, vabsdiff, vmin, vmax, vshl, vshr (.clamp, .wrap),
 *   vmad and vset with .u32/.s32 types, byte and half-word selectors
 *   (.b0-.b3, .h0, .h1) on a and b, .sat, a secondary operation (.add,
 *   .min, .max) with c, constants a and b (16 bits and wider); vmad with
 *   negated operands, .po, .shr7/.shr15, a constant c;
 *   SIMD vadd2/4, vsub2/4, vavrg2/4, vabsdiff2/4, vmin2/4, vmax2/4,
 *   vset2/4 with .sat or .add, destination lane masks and source lane
 *   selections;
 *   fns.b32 with a constant or register mask, base and offset.
 * Left out are the forms ptxsurf-as refuses by name (a scalar
 * destination selector: the merge into c) and those ptxas
 * rejects (a negated operand outside vmad; vmad's negated product with
 * -c, vmad.po's negations but -a with -b).
 *
 * Every one is a defined function of its inputs, but for fns with a base
 * above 31: --defined keeps the base in 0..31 (a constant, or a register
 * ANDed with 31). fns needs PTX ISA 6.0: in an older module the statement
 * is a scalar video instruction instead. */
#include <stdio.h>
#include <string.h>

#include "gen_kernels.h"

bool video_enabled;

static const char *sign(void) { return chance(50) ? "u32" : "s32"; }

/* A register source, "%rN". */
static void reg(char *buf, size_t n)
{
	ensure(C_R);
	src(buf, n, C_R, false);
}

/* A scalar source with a byte or half-word selector (or none) */
static void scalar_source(char *buf, size_t n)
{
	static const char *const sels[] = { ".b0", ".b1", ".b2", ".b3", ".h0", ".h1" };
	reg(buf, n);
	if (chance(50))
		strncat(buf, PICK(sels), n - strlen(buf) - 1);
}

static void gen_scalar(void)
{
	static const char *const ops[] = { "vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr", "vmad",
		"vset" };
	static const char *const op2s[] = { ".add", ".min", ".max" };
	static const char *const cmps[] = { "eq", "ne", "lt", "le", "gt", "ge" };
	static const char *const imms[] = { "0", "1", "7", "100", "1000", "0x7fff", "0x8000", "0xffff", "-3",
		"0x12345" };
	const char *op = PICK(ops);
	bool vmad = strcmp(op, "vmad") == 0, vset = strcmp(op, "vset") == 0, shift = op[1] == 's' && op[2] == 'h';
	char mods[64], a[32], b[32], c[32];
	/* a: a register, sometimes a constant */
	if (chance(10))
		snprintf(a, sizeof a, "%s", PICK(imms));
	else
		scalar_source(a, sizeof a);
	const char *dt = sign(), *at = sign(), *bt = shift ? "u32" : sign();
	if (vset)
		snprintf(mods, sizeof mods, ".%s.%s.%s", dt, at, PICK(cmps));
	else
		snprintf(mods, sizeof mods, ".%s.%s.%s", dt, at, bt);
	/* b: a constant (not vset's: ptxas 11.8 writes a word for it that its
	 * own nvdisasm misreads, and we take a register) or a register.
	 * --defined: no constant 0x8000..0xffff for a signed b, which ptxas
	 * 11.8 writes as the S16 immediate of that bit pattern: 0xffff
	 * becomes -1 (we write the value, through a register) */
	bool konst = !vset && chance(20);
	if (konst) {
		const char *k = PICK(imms);
		if (shift)
			snprintf(b, sizeof b, "%u", rnd(40));
		else if (defined_mode && bt[0] == 's' && (strcmp(k, "0x8000") == 0 || strcmp(k, "0xffff") == 0))
			snprintf(b, sizeof b, "0x7fff");
		else
			snprintf(b, sizeof b, "%s", k);
	} else {
		scalar_source(b, sizeof b);
	}
	/* in the PTX ISA's order: vmad's .po first, .sat (vset has none),
	 * vshl/vshr's mode */
	bool po = vmad && chance(20);
	if (po)
		strcat(mods, ".po");
	if (!vset && chance(35))
		strcat(mods, ".sat");
	if (shift)
		strcat(mods, chance(50) ? ".clamp" : ".wrap");
	if (vmad) {
		if (chance(30))
			strcat(mods, chance(50) ? ".shr7" : ".shr15");
		if (chance(15))
			snprintf(c, sizeof c, "%s", PICK(imms));
		else
			reg(c, sizeof c);
		/* negated registers as ptxas 11.8 allows them: -a or -b (or both)
		 * or -c, not a negated product with -c; with .po only -a with -b */
		bool neg_a = a[0] == '%' && chance(25), neg_b = b[0] == '%' && chance(25);
		bool neg_c = c[0] == '%' && neg_a == neg_b && chance(25);
		if (po && (neg_a != neg_b || neg_c))
			neg_a = neg_b = neg_c = false;
		char na[40], nb[40], nc[40];
		snprintf(na, sizeof na, "%s%s", neg_a ? "-" : "", a);
		snprintf(nb, sizeof nb, "%s%s", neg_b ? "-" : "", b);
		snprintf(nc, sizeof nc, "%s%s", neg_c ? "-" : "", c);
		out("\tvmad%s %%r%d, %s, %s, %s;\n", mods, fresh(C_R), na, nb, nc);
		return;
	}
	if (chance(45)) {
		strcat(mods, PICK(op2s));
		reg(c, sizeof c);
		out("\t%s%s %%r%d, %s, %s, %s;\n", op, mods, fresh(C_R), a, b, c);
	} else {
		out("\t%s%s %%r%d, %s, %s;\n", op, mods, fresh(C_R), a, b);
	}
}

/* A SIMD lane selection of a or b: .hxy (x, y 0-3) or .bxyzw (0-7). */
static void lane_selection(char *buf, size_t n, unsigned lanes)
{
	reg(buf, n);
	if (!chance(35))
		return;
	char s[8] = { '.', lanes == 2 ? 'h' : 'b' };
	for (unsigned i = 0; i < lanes; i++)
		s[2 + i] = (char)('0' + rnd(lanes == 2 ? 4 : 8));
	strncat(buf, s, n - strlen(buf) - 1);
}

/* A destination lane mask (.h0, .h1, .h10; .b and lanes 3-0 descending),
 * none most of the time. */
static void lane_mask(char *buf, size_t n, unsigned lanes)
{
	buf[0] = 0;
	if (!chance(35))
		return;
	unsigned m = 1 + rnd((1u << lanes) - 1), len = 0;
	buf[len++] = '.';
	buf[len++] = lanes == 2 ? 'h' : 'b';
	for (int i = (int)lanes - 1; i >= 0 && len + 2 < n; i--)
		if (m & (1u << i))
			buf[len++] = (char)('0' + i);
	buf[len] = 0;
}

static void gen_simd(void)
{
	static const char *const ops[] = { "vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax", "vset" };
	static const char *const cmps[] = { "eq", "ne", "lt", "le", "gt", "ge" };
	const char *op = PICK(ops);
	unsigned lanes = chance(50) ? 2 : 4;
	bool vset = strcmp(op, "vset") == 0;
	char mods[64], mask[8], a[32], b[32], c[32];
	if (vset)
		snprintf(mods, sizeof mods, ".%s.%s.%s", sign(), sign(), PICK(cmps));
	else
		snprintf(mods, sizeof mods, ".%s.%s.%s", sign(), sign(), sign());
	/* .sat or .add (never both: PTX has no such form); vset has no .sat */
	int r = (int)rnd(3);
	if (r == 1 && !vset)
		strcat(mods, ".sat");
	else if (r == 2)
		strcat(mods, ".add");
	lane_mask(mask, sizeof mask, lanes);
	lane_selection(a, sizeof a, lanes);
	lane_selection(b, sizeof b, lanes);
	reg(c, sizeof c);
	out("\t%s%u%s %%r%d%s, %s, %s, %s;\n", op, lanes, mods, fresh(C_R), mask, a, b, c);
}

/* fns.b32 d, mask, base, offset: any operand a register or a constant. */
static void gen_fns(void)
{
	static const char *const masks[] = { "0", "-1", "0xaaaaaaaa", "0x80000001", "0x00f0f000" };
	static const char *const offsets[] = { "0", "1", "2", "3", "17", "32", "-1", "-2", "-5", "-32" };
	char m[32], base[32], off[32];
	if (chance(20))
		snprintf(m, sizeof m, "%s", PICK(masks));
	else
		reg(m, sizeof m);
	if (chance(40)) {
		snprintf(base, sizeof base, "%u", rnd(defined_mode ? 32 : 40));
	} else if (defined_mode) {
		/* a base above 31 is undefined: keep a register's in 0..31 */
		char x[24];
		int t = fresh(C_R);
		reg(x, sizeof x);
		out("\tand.b32 %%r%d, %s, 31;\n", t, x);
		snprintf(base, sizeof base, "%%r%d", t);
	} else {
		reg(base, sizeof base);
	}
	if (chance(50)) {
		snprintf(off, sizeof off, "%s", PICK(offsets));
	} else if (chance(50)) {
		/* a small offset of either sign (0 often) from a register */
		char x[24];
		int t = fresh(C_R), u = fresh(C_R);
		reg(x, sizeof x);
		out("\tand.b32 %%r%d, %s, 7;\n\tadd.s32 %%r%d, %%r%d, -3;\n", t, x, u, t);
		snprintf(off, sizeof off, "%%r%d", u);
	} else {
		reg(off, sizeof off);
	}
	out("\tfns.b32 %%r%d, %s, %s, %s;\n", fresh(C_R), m, base, off);
}

void gen_video_stmt(void)
{
	int r = (int)rnd(10);
	if (r < 2 && has_sync_forms)
		gen_fns();
	else if (r < 6)
		gen_scalar();
	else
		gen_simd();
}
