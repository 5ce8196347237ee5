/* Random PTX kernels inside the sm_50 encoder's subset (README, "What the
 * sm_50 encoder assembles"), for kernel-sweep.sh: the shapes hand-written
 * and nvcc/clang-generated surface kernels have (parameter loads, a thread
 * index, a bounds check, address arithmetic, surface and global memory
 * operations, guards, diamonds and counted loops), so the sweep meets code
 * the goldens never showed the encoder.
 *
 * Usage: gen_kernels [--defined] [--diverge] [--calls] [--data] [--tex] [--whole] [--video] SEED > FILE.ptx. The same seed always gives
 * the same module (a private xorshift generator, no libc rand), so a failing
 * seed is a reproducible test case.
 *
 * --defined writes kernels whose results are defined for the simulator's
 * differential tests (tests/sim/sim-diff.sh), launched as 1D grids of at
 * most 32 threads: every global and surface access of a thread stays in its
 * own stripe (thread (idx & 31) owns bytes [128*i, 128*i+128) of every
 * buffer and the texels at x bytes [64*i, 64*i+64) of every surface), so
 * no two threads touch one byte; no register is read before it is set on
 * every path; no .reqntid (ptxas may fold %ntid into a constant).
 *
 * --diverge makes most loops divergent (gen_loops.c): a trip count and a
 * break from the thread's index, then a vote of the whole warp.
 *
 * --calls adds device functions and calls (gen_calls.c), --data module
 * .const/.global/.shared data, a .local array and generic addresses
 * (gen_data.c), --tex textures (gen_tex.c); --whole all three. --video
 * adds the video instructions and fns (gen_video.c), alone or with the
 * others. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_kernels.h"

/* xorshift64: one step of a stream, a number below n (0 if n is 0) */
static uint32_t xorshift(uint64_t *state, uint32_t n)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return n ? (uint32_t)((*state >> 11) % n) : 0;
}

static uint64_t rng_state;

uint32_t rnd(uint32_t n) { return xorshift(&rng_state, n); }

bool chance(uint32_t percent) { return rnd(100) < percent; }

/* A second stream for choices added after the sweep's seeds were fixed
 * (texel offsets): drawing from it leaves every rnd() choice, and so the
 * kernels make check sweeps, as they were. */
static uint64_t side_state;

uint32_t rnd_side(uint32_t n) { return xorshift(&side_state, n); }


void out(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

bool has_sync_forms, diverge_mode, calls_enabled;

/* ---- values a kernel has defined ----------------------------------------
 * Each class is a stack of register numbers; a block (diamond arm, loop
 * body) restores the stack depth on exit so later code reads only values
 * defined on every path. */
const char *const class_prefix[NCLASS] = { "%r", "%rd", "%rs", "%p", "%rd", "%rd" };
int pool[NCLASS][MAXV], depth[NCLASS];
int next_r, next_rd, next_rs, next_p, next_label;

int fresh(int cls)
{
	int n = cls == C_R ? ++next_r : cls == C_RS ? ++next_rs : cls == C_P ? ++next_p : ++next_rd;
	if (depth[cls] < MAXV)
		pool[cls][depth[cls]++] = n;
	return n;
}

static int use(int cls) { return pool[cls][rnd((uint32_t)depth[cls])]; }

/* A source operand of class cls: a register, or (when imm_ok) a constant. */
void src(char *buf, size_t n, int cls, bool imm_ok)
{
	if (imm_ok && (depth[cls] == 0 || chance(25))) {
		static const int64_t imms[] = { 0, 1, 2, 3, 4, 7, 8, 15, 16, 255, 1024, 0xffff, 65536, -1, -4, 0x12345 };
		snprintf(buf, n, "%" PRId64, PICK(imms));
		return;
	}
	snprintf(buf, n, "%s%d", class_prefix[cls], use(cls));
}

/* ---- module-wide choices ------------------------------------------------ */
static int nsurfrefs;
static const char *const ptx_versions[] = { "6.0", "6.5", "7.0", "5.0", "4.3" };

/* ---- one kernel ---------------------------------------------------------- */
typedef struct Param {
	char name[32];
	int kind; /* 0 pointer, 1 surface handle, 2 u32, 3 u64 value */
} Param;
static Param params[8];
static int nparams;
int kernel_no, idx_reg;
bool defined_mode;         /* --defined: race-free, in-bounds kernels */
/* --defined: the thread's surface x coordinate in bytes (.b) and in
 * texels (.p), and a small coordinate for y, z and layers */
static int stripe_bx, stripe_px, small_coord;
static int budget;         /* statements left in this kernel */


static const char *const geoms[] = { "1d", "2d", "3d", "a1d", "a2d" };
static bool have_handle(void);
static int coord_count(const char *g)
{
	return strcmp(g, "1d") == 0 ? 1 : strcmp(g, "2d") == 0 || strcmp(g, "a1d") == 0 ? 2 : 4;
}

/* "[handle, {coords}]" (or "[handle]" without a geometry) for a surface
 * instruction: a bound surfref or a .u64 register loaded from a parameter
 * (ptxas rejects a parameter named directly). */
static void surf_addr(char *buf, size_t n, const char *geom, bool formatted)
{
	char h[48];
	int choice = rnd(2);
	if (choice == 0 && nsurfrefs > 0)
		snprintf(h, sizeof h, "surf%u", rnd((uint32_t)nsurfrefs));
	else if (depth[C_SURF] > 0 && (choice != 0 || nsurfrefs == 0))
		snprintf(h, sizeof h, "%%rd%d", use(C_SURF));
	else if (nsurfrefs > 0)
		snprintf(h, sizeof h, "surf%u", rnd((uint32_t)nsurfrefs));
	else
		snprintf(h, sizeof h, "%%rd%d", use(C_SURF));
	if (!geom) {
		snprintf(buf, n, "[%s]", h);
		return;
	}
	int nc = coord_count(geom);
	size_t len = (size_t)snprintf(buf, n, "[%s, {", h);
	for (int i = 0; i < nc; i++) {
		char c[24];
		/* PTX puts an array's layer first: x is coordinate 1 there */
		int x_at = geom[0] == 'a' ? 1 : 0;
		if (defined_mode)
			snprintf(c, sizeof c, "%%r%d", i != x_at ? small_coord : formatted ? stripe_px : stripe_bx);
		else
			src(c, sizeof c, C_R, false);
		len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? ", " : "", c);
	}
	snprintf(buf + len, n - len, "}]");
}

static int elem_class(int bits) { return bits == 64 ? C_RD : bits == 32 ? C_R : chance(75) ? C_RS : C_R; }

static const char *vec_word(int v) { return v == 1 ? "" : v == 2 ? ".v2" : ".v4"; }

/* {a, b, ...} or a lone register of the element class; fresh destinations
 * when dst. */
static void data_list(char *buf, size_t n, int vec, int cls, bool dst)
{
	size_t len = 0;
	if (vec > 1)
		len += (size_t)snprintf(buf, n, "{");
	for (int i = 0; i < vec; i++) {
		int r = dst ? fresh(cls) : use(cls);
		len += (size_t)snprintf(buf + len, n - len, "%s%s%d", i ? ", " : "", class_prefix[cls], r);
	}
	if (vec > 1)
		snprintf(buf + len, n - len, "}");
}

void ensure(int cls)
{
	if (depth[cls] > 0)
		return;
	int r = fresh(cls);
	if (cls == C_P)
		out("\tsetp.ne.u32 %%p%d, %%r%d, %u;\n", r, idx_reg, rnd(8));
	else if (cls == C_RS)
		out("\tcvt.u16.u32 %%rs%d, %%r%d;\n", r, idx_reg);
	else if (cls == C_RD)
		out("\tcvt.u64.u32 %%rd%d, %%r%d;\n", r, idx_reg);
	else
		out("\tadd.s32 %%r%d, %%r%d, %u;\n", r, idx_reg, rnd(100));
}

/* An optional guard for the next instruction. */
static void guard(char *buf, size_t n)
{
	buf[0] = 0;
	if (depth[C_P] > 0 && chance(15))
		snprintf(buf, n, "@%s%%p%d ", chance(40) ? "!" : "", use(C_P));
}

static void gen_suld(void)
{
	static const int bits[] = { 8, 16, 32, 64 };
	static const char *const clamps[] = { ".trap", ".clamp", ".zero" };
	static const char *const cops[] = { "", "", "", ".ca", ".cg", ".cs", ".cv" };
	const char *g = PICK(geoms);
	int b = PICK(bits), vec = 1 << rnd(3);
	if (b == 64 && vec == 4)
		vec = 2;
	int cls = elem_class(b);
	char a[160], d[96], gd[16];
	guard(gd, sizeof gd);
	surf_addr(a, sizeof a, g, false);
	if (gd[0])       /* a guarded load may leave its destination unset */
		for (int i = 0; i < vec; i++)
			ensure(cls);
	data_list(d, sizeof d, vec, cls, true);
	/* --defined: set the destinations first, as a false guard keeps them */
	for (int i = 0; defined_mode && gd[0] && i < vec; i++)
		out("\tmov.b%d %s%d, 0;\n", cls == C_RD ? 64 : cls == C_RS ? 16 : 32, class_prefix[cls],
		    pool[cls][depth[cls] - vec + i]);
	out("\t%ssuld.b.%s%s%s.b%d%s %s, %s;\n", gd, g, PICK(cops), vec_word(vec), b, PICK(clamps), d, a);
}

static void gen_sust(void)
{
	static const int bits[] = { 8, 16, 32, 64 };
	static const char *const clamps[] = { ".trap", ".clamp", ".zero" };
	static const char *const cops[] = { "", "", "", ".wb", ".cg", ".cs", ".wt" };
	bool formatted = chance(20);
	/* the PTX ISA has no array geometry for sust.p */
	const char *g = formatted ? geoms[rnd(3)] : PICK(geoms);
	int b = formatted ? 32 : PICK(bits), vec = 1 << rnd(3);
	if (b == 64 && vec == 4)
		vec = 2;
	int cls = elem_class(b);
	ensure(cls);
	char a[160], d[96], gd[16];
	guard(gd, sizeof gd);
	surf_addr(a, sizeof a, g, formatted);
	data_list(d, sizeof d, vec, cls, false);
	out("\t%ssust.%s.%s%s%s.b%d%s %s, %s;\n", gd, formatted ? "p" : "b", g, formatted ? "" : PICK(cops),
	    vec_word(vec), b, PICK(clamps), a, d);
}

static void gen_sured(void)
{
	static const char *const b_forms[] = { "add.u32", "add.s32", "add.u64", "min.u32", "min.s32",
		"max.u32", "max.s32", "and.b32", "or.b32" };
	static const char *const p_forms[] = { "add", "min", "max", "and", "or" };
	static const char *const rgeoms[] = { "1d", "2d", "3d" };
	static const char *const clamps[] = { ".trap", ".clamp", ".zero" };
	bool p = chance(30);
	const char *g = PICK(rgeoms);
	char form[16], a[160], d[24], gd[16];
	if (p)
		snprintf(form, sizeof form, "%s.%s.b32", PICK(p_forms), g);
	else {
		const char *f = PICK(b_forms);
		const char *dot = strchr(f, '.');
		snprintf(form, sizeof form, "%.*s.%s%s", (int)(dot - f), f, g, dot);
	}
	int cls = strstr(form, "64") && !strstr(form, "b32") ? C_RD : C_R;
	ensure(cls);
	guard(gd, sizeof gd);
	surf_addr(a, sizeof a, g, p);
	src(d, sizeof d, cls, false);
	out("\t%ssured.%s.%s%s %s, %s;\n", gd, p ? "p" : "b", form, PICK(clamps), a, d);
}

/* Whether a surface operand can be formed. */
static bool have_handle(void) { return nsurfrefs > 0 || depth[C_SURF] > 0; }

static void gen_suq(void)
{
	static const char *const dims[] = { "width", "height" };
	static const char *const desc[] = { "depth", "channel_data_type", "channel_order", "array_size",
		"memory_layout" };
	bool descriptor = true && chance(30);
	char a[64];
	surf_addr(a, sizeof a, NULL, false);
	out("\tsuq.%s.b32 %%r%d, %s;\n", descriptor ? PICK(desc) : PICK(dims), fresh(C_R), a);
}

/* A global address: a pointer plus idx * size, nvcc style; --defined: the
 * thread's stripe, (idx & 31) * 128. */
int gen_address(int size)
{
	int off = fresh(C_RD), addr = fresh(C_RD);
	char i[24];
	src(i, sizeof i, C_R, false);
	if (defined_mode) {
		int lane = fresh(C_R);
		out("\tand.b32 %%r%d, %%r%d, 31;\n", lane, idx_reg);
		snprintf(i, sizeof i, "%%r%d", lane);
		size = 128;
	}
	if (chance(50))
		out("\tmul.wide.%s32 %%rd%d, %s, %d;\n", chance(50) ? "s" : "u", off, i, size);
	else {
		out("\tcvt.u64.u32 %%rd%d, %s;\n", off, i);
		out("\tshl.b64 %%rd%d, %%rd%d, %d;\n", off, off,
		    size == 128 ? 7 : size == 16 ? 4 : size == 8 ? 3 : size == 4 ? 2 : 1);
	}
	out("\tadd.s64 %%rd%d, %%rd%d, %%rd%d;\n", addr, use(C_PTR), off);
	return addr;
}

static const char *const st_types[] = { "u8", "s8", "u16", "s16", "b16", "u32", "s32", "b32", "f32", "u64",
	"s64", "b64", "f64" };

static int type_bits(const char *t) { return atoi(t + 1); }

static int type_class(const char *t)
{
	int b = type_bits(t);
	return b == 64 ? C_RD : b == 32 ? C_R : C_RS;
}

static void gen_st(void)
{
	static const char *const cops[] = { "", "", "", ".wb", ".cg", ".cs", ".wt" };
	const char *t = PICK(st_types);
	int b = type_bits(t), vec = 1 << rnd(3);
	if (b == 64 && vec == 4)
		vec = 2;
	if (t[0] == 'f')
		t = b == 32 ? "b32" : "b64";   /* float registers are outside the subset */
	int cls = type_class(t), size = vec * b / 8;
	ensure(cls);
	int addr = gen_address(size >= 4 ? size : 4);
	char d[96], gd[16];
	static const int offs[] = { 0, 0, 0, 16, 32, 64, 256, 4096, -16 };
	static const int defined_offs[] = { 0, 0, 16, 32, 64, 96 };
	int off = (defined_mode ? PICK(defined_offs) : PICK(offs)) / size * size;
	bool zero = vec == 1 && b >= 32 && chance(10);
	if (zero)
		snprintf(d, sizeof d, "0");
	else
		data_list(d, sizeof d, vec, cls, false);
	guard(gd, sizeof gd);
	if (off)
		out("\t%sst.global%s%s.%s [%%rd%d+%d], %s;\n", gd, PICK(cops), vec_word(vec), t, addr, off, d);
	else
		out("\t%sst.global%s%s.%s [%%rd%d], %s;\n", gd, PICK(cops), vec_word(vec), t, addr, d);
}

static void gen_ld(void)
{
	static const char *const cops[] = { "", "", "", ".ca", ".cg", ".cs", ".lu", ".cv" };
	static const char *const lt[] = { "u8", "s8", "u16", "s16", "u32", "s32", "b32", "u64", "s64", "b64" };
	const char *t = PICK(lt);
	int b = type_bits(t), vec = 1 << rnd(3);
	if (b < 32 || (b == 64 && vec == 4))
		vec = b < 32 ? 1 : 2;
	int cls = type_class(t);
	if (b < 32 && chance(50))
		cls = C_R;
	int addr = gen_address(vec * b / 8 >= 4 ? vec * b / 8 : 4);
	char d[96];
	data_list(d, sizeof d, vec, cls, true);
	out("\tld.global%s%s.%s %s, [%%rd%d];\n", PICK(cops), vec_word(vec), t, d, addr);
}

/* ld/st on the shared and local windows (the module's msh when declared,
 * the kernel's own ksh<k> and klo<k>, 128 bytes each) through [var+off]
 * or [reg+off] with a register address kept inside the variable; generic
 * ld/st through a global pointer. */
static bool module_shared;

static void gen_window(void)
{
	static const char *const wt[] = { "u8", "s8", "u16", "s16", "u32", "b32", "u64", "b64" };
	const char *t = PICK(wt);
	int b = type_bits(t), vec = b < 32 ? 1 : 1 << rnd(3);
	if (b == 64 && vec == 4)
		vec = 2;
	int size = vec * b / 8, cls = type_class(t);
	if (b < 32)
		cls = C_R;
	bool local = chance(40), store = chance(50);
	char var[16];
	if (!local && module_shared && chance(40))
		snprintf(var, sizeof var, "msh");
	else
		snprintf(var, sizeof var, "k%d%s", kernel_no, local ? "lo" : "sh");
	char a[64], d[96], gd[16];
	if (chance(50)) {
		snprintf(a, sizeof a, "%s+%d", var, (int)rnd((uint32_t)(128 / size)) * size);
	} else {
		int m = fresh(C_R), base = fresh(C_R);
		out("\tand.b32 %%r%d, %%r%d, %d;\n", m, idx_reg, (64 / size - 1) * size);
		out("\tmov.u32 %%r%d, %s;\n\tadd.s32 %%r%d, %%r%d, %%r%d;\n", base, var, base, base, m);
		snprintf(a, sizeof a, "%%r%d+%d", base, (int)rnd((uint32_t)(64 / size)) * size);
	}
	const char *sp = local ? "local" : "shared";
	if (store) {
		ensure(cls);
		data_list(d, sizeof d, vec, cls, false);
		guard(gd, sizeof gd);
		out("\t%sst.%s%s.%s [%s], %s;\n", gd, sp, vec_word(vec), t, a, d);
	} else {
		data_list(d, sizeof d, vec, cls, true);
		out("\tld.%s%s.%s %s, [%s];\n", sp, vec_word(vec), t, d, a);
	}
}

static void gen_generic(void)
{
	static const char *const gt[] = { "u8", "s16", "u32", "b32", "u64" };
	const char *t = PICK(gt);
	int b = type_bits(t), vec = b < 32 ? 1 : 1 << rnd(2);
	int cls = b < 32 ? C_R : type_class(t), size = vec * b / 8;
	int addr = gen_address(size >= 4 ? size : 4);
	char d[96];
	if (chance(50)) {
		ensure(cls);
		data_list(d, sizeof d, vec, cls, false);
		out("\tst%s.%s [%%rd%d], %s;\n", vec_word(vec), t, addr, d);
	} else {
		data_list(d, sizeof d, vec, cls, true);
		out("\tld%s.%s %s, [%%rd%d+%d];\n", vec_word(vec), t, d, addr, 4 * size);
	}
}

static void gen_alu32(void)
{
	static const char *const ops[] = { "add.s32", "add.u32", "sub.s32", "sub.u32", "mul.lo.s32", "mul.lo.u32",
		"mad.lo.s32", "mad.lo.u32", "shl.b32", "shr.u32", "shr.s32", "and.b32", "or.b32", "xor.b32",
		"not.b32", "neg.s32", "selp.b32", "selp.u32", "min.none", "add.u16", "sub.s16", "mul.lo.u16",
		"and.b16", "mov.u32", "mov.b32" };
	const char *op = PICK(ops);
	char a[24], b[24], c[24];
	if (strcmp(op, "min.none") == 0)
		op = "add.s32";
	bool h = strstr(op, "16") != NULL;
	int cls = h ? C_RS : C_R;
	ensure(cls);
	src(a, sizeof a, cls, false);
	if (strncmp(op, "not", 3) == 0 || strncmp(op, "neg", 3) == 0) {
		out("\t%s %%r%d, %s;\n", op, fresh(C_R), a);
	} else if (strncmp(op, "mov", 3) == 0) {
		src(a, sizeof a, C_R, true);
		out("\t%s %%r%d, %s;\n", op, fresh(C_R), a);
	} else if (strncmp(op, "selp", 4) == 0) {
		ensure(C_P);
		src(b, sizeof b, C_R, true);
		out("\t%s %%r%d, %s, %s, %%p%d;\n", op, fresh(C_R), a, b, use(C_P));
	} else if (strncmp(op, "sh", 2) == 0) {
		if (chance(60))
			snprintf(b, sizeof b, "%u", rnd(32));
		else
			src(b, sizeof b, C_R, false);
		out("\t%s %%r%d, %s, %s;\n", op, fresh(C_R), a, b);
	} else {
		src(b, sizeof b, cls, true);
		if (strncmp(op, "mad", 3) == 0) {
			src(c, sizeof c, cls, true);
			out("\t%s %s%d, %s, %s, %s;\n", op, class_prefix[cls], fresh(cls), a, b, c);
		} else {
			out("\t%s %s%d, %s, %s;\n", op, class_prefix[cls], fresh(cls), a, b);
		}
	}
}

static void gen_alu64(void)
{
	char a[24], b[24];
	ensure(C_RD);
	src(a, sizeof a, C_RD, false);
	switch (rnd(9)) {
	case 0: src(b, sizeof b, C_RD, true); out("\tadd.s64 %%rd%d, %s, %s;\n", fresh(C_RD), a, b); break;
	case 1: src(b, sizeof b, C_RD, false); out("\tsub.s64 %%rd%d, %s, %s;\n", fresh(C_RD), a, b); break;
	case 2: out("\tshl.b64 %%rd%d, %s, %u;\n", fresh(C_RD), a, 1 + rnd(40)); break;
	case 3: out("\tshr.%c64 %%rd%d, %s, %u;\n", chance(50) ? 'u' : 's', fresh(C_RD), a, 1 + rnd(40)); break;
	case 4: src(b, sizeof b, C_RD, false); out("\t%s.b64 %%rd%d, %s, %s;\n", chance(50) ? "and" : "xor", fresh(C_RD), a, b); break;
	case 5: out("\tcvt.u32.u64 %%r%d, %s;\n", fresh(C_R), a); break;
	case 6: src(b, sizeof b, C_R, false); out("\tcvt.%c64.%c32 %%rd%d, %s;\n", chance(50) ? 'u' : 's', chance(50) ? 'u' : 's', fresh(C_RD), b); break;
	case 7: src(b, sizeof b, C_R, false); out("\tmul.wide.u32 %%rd%d, %s, %s;\n", fresh(C_RD), b, b); break;
	default: out("\tmov.b64 %%rd%d, %s;\n", fresh(C_RD), a); break;
	}
}

static void gen_cvt16(void)
{
	char a[24];
	if (chance(50)) {
		src(a, sizeof a, C_R, false);
		out("\tcvt.%c16.%c32 %%rs%d, %s;\n", chance(50) ? 'u' : 's', chance(50) ? 'u' : 's', fresh(C_RS), a);
	} else {
		ensure(C_RS);
		src(a, sizeof a, C_RS, false);
		out("\tcvt.%c32.%c16 %%r%d, %s;\n", chance(50) ? 'u' : 's', chance(50) ? 'u' : 's', fresh(C_R), a);
	}
}

static void gen_setp(void)
{
	static const char *const cmps[] = { "eq", "ne", "lt", "le", "gt", "ge" };
	static const char *const ucmps[] = { "lo", "ls", "hi", "hs" };
	char a[24], b[24];
	if (depth[C_RD] > 0 && chance(15)) {
		src(a, sizeof a, C_RD, false);
		src(b, sizeof b, C_RD, true);
		out("\tsetp.%s.u64 %%p%d, %s, %s;\n", chance(50) ? "eq" : "ne", fresh(C_P), a, b);
		return;
	}
	src(a, sizeof a, C_R, false);
	src(b, sizeof b, C_R, true);
	if (chance(25))
		out("\tsetp.%s.u32 %%p%d, %s, %s;\n", PICK(ucmps), fresh(C_P), a, b);
	else
		out("\tsetp.%s.%c32 %%p%d, %s, %s;\n", PICK(cmps), chance(50) ? 's' : 'u', fresh(C_P), a, b);
}

static void gen_pred_logic(void)
{
	static const char *const consts[] = { "0", "1", "-1" };
	ensure(C_P);
	int a = use(C_P), b = use(C_P);
	char g[16];
	guard(g, sizeof g);
	if (g[0]) {
		/* a guarded definition leaves the old value: give it one first */
		int d = fresh(C_P);
		out("\tmov.pred %%p%d, %%p%d;\n\t%sor.pred %%p%d, %%p%d, %%p%d;\n", d, a, g, d, b, a);
		return;
	}
	switch (rnd(6)) {
	case 0: out("\tand.pred %%p%d, %%p%d, %%p%d;\n", fresh(C_P), a, b); break;
	case 1: out("\tor.pred %%p%d, %%p%d, %%p%d;\n", fresh(C_P), a, b); break;
	case 2: out("\txor.pred %%p%d, %%p%d, %%p%d;\n", fresh(C_P), a, b); break;
	case 3: out("\tnot.pred %%p%d, %%p%d;\n", fresh(C_P), a); break;
	case 4: out("\tmov.pred %%p%d, %s;\n", fresh(C_P), PICK(consts)); break;
	default: out("\tmov.pred %%p%d, %%p%d;\n", fresh(C_P), a); break;
	}
}

/* Diamond: if (p) { A } else { B }, or a one-armed if. */
static void gen_diamond(int nest)
{
	int saved[NCLASS];
	int l_else = next_label++, l_join = next_label++;
	gen_setp();
	/* the arms do not read the branch predicate: ptxas -O3 knows its value
	 * there and drops what it guards, which leaves nothing to compare */
	int p = pool[C_P][--depth[C_P]];
	out("\t@%s%%p%d bra $L__k%d_%d;\n", chance(50) ? "!" : "", p, kernel_no, l_else);
	memcpy(saved, depth, sizeof saved);
	stmt_list(1 + (int)rnd(5), nest + 1);
	memcpy(depth, saved, sizeof saved);
	bool two = chance(60);
	if (two)
		out("\tbra.uni $L__k%d_%d;\n", kernel_no, l_join);
	out("$L__k%d_%d:\n", kernel_no, l_else);
	if (two) {
		stmt_list(1 + (int)rnd(4), nest + 1);
		memcpy(depth, saved, sizeof saved);
		out("$L__k%d_%d:\n", kernel_no, l_join);
	}
}

/* Many live values at once: loads and arithmetic first, all consumed after. */
static void gen_pressure(void)
{
	int n = 8 + (int)rnd(24), first = next_r + 1;
	int addr = gen_address(4);
	for (int i = 0; i < n; i++)
		out("\tld.global.u32 %%r%d, [%%rd%d+%d];\n", fresh(C_R), addr, 4 * i);
	int acc = fresh(C_R);
	out("\tadd.s32 %%r%d, %%r%d, %%r%d;\n", acc, first, first + 1);
	for (int i = 2; i < n; i++)
		out("\t%s.b32 %%r%d, %%r%d, %%r%d;\n", chance(50) ? "xor" : "and", acc, acc, first + i);
	out("\tst.global.u32 [%%rd%d], %%r%d;\n", addr, acc);
}

int next_f, next_fd;

/* ---- issue 17 part 1: atomics and warp operations ---- */

static void gen_warp(void)
{
	static const char *const ops32[] = { "add.u32", "min.s32", "max.u32", "inc.u32", "dec.u32", "and.b32",
		"or.b32", "xor.b32", "exch.b32", "cas.b32", "add.f32" };
	static const char *const ops64[] = { "add.u64", "min.s64", "max.u64", "and.b64", "exch.b64", "cas.b64" };
	static const char *const shfl_modes[] = { "idx", "up", "down", "bfly" };
	static const char *const votes[] = { "all", "any", "uni" };
	char a[24], b[24], gd[16];
	ensure(C_R);
	src(a, sizeof a, C_R, chance(20));
	switch (rnd(5)) {
	case 0: case 1: {
		bool wide = chance(25), red = chance(30);
		const char *op = wide ? PICK(ops64) : PICK(ops32);
		if (red && (strncmp(op, "cas", 3) == 0 || strncmp(op, "exch", 4) == 0))
			op = wide ? "add.u64" : "add.u32";
		int addr = gen_address(wide ? 8 : 4), off = (int)rnd(4) * (wide ? 8 : 4);
		const char *reg = wide ? "rd" : "r";
		if (wide) {
			ensure(C_RD);
			src(a, sizeof a, C_RD, false);
		}
		src(b, sizeof b, wide ? C_RD : C_R, false);
		bool f32 = strcmp(op, "add.f32") == 0;
		if (f32) {
			out("\tmov.b32 %%f%d, %s;\n", ++next_f, a);
			snprintf(a, sizeof a, "%%f%d", next_f);
		}
		guard(gd, sizeof gd);
		if (red)
			out("\t%sred.global.%s [%%rd%d+%d], %s;\n", gd, op, addr, off, a);
		else if (strncmp(op, "cas", 3) == 0)
			out("\t%satom.global.%s %%%s%d, [%%rd%d+%d], %s, %s;\n", gd, op, reg, fresh(wide ? C_RD : C_R),
			    addr, off, a, b);
		else if (f32)
			out("\t%satom.global.%s %%f%d, [%%rd%d+%d], %s;\n", gd, op, ++next_f, addr, off, a);
		else
			out("\t%satom.global.%s %%%s%d, [%%rd%d+%d], %s;\n", gd, op, reg, fresh(wide ? C_RD : C_R),
			    addr, off, a);
		break;
	}
	case 2: {
		const char *op = PICK(ops32);
		if (strcmp(op, "add.f32") == 0)
			op = "add.u32";
		int m = fresh(C_R), base = fresh(C_R);
		out("\tand.b32 %%r%d, %%r%d, 60;\n", m, idx_reg);
		out("\tmov.u32 %%r%d, k%dsh;\n\tadd.s32 %%r%d, %%r%d, %%r%d;\n", base, kernel_no, base, base, m);
		src(b, sizeof b, C_R, false);
		if (strncmp(op, "cas", 3) == 0)
			out("\tatom.shared.%s %%r%d, [%%r%d+%u], %s, %s;\n", op, fresh(C_R), base, rnd(16) * 4, a, b);
		else if (chance(25))
			out("\tred.shared.%s [%%r%d+%u], %s;\n", op[0] == 'e' ? "add.u32" : op, base, rnd(16) * 4, a);
		else
			out("\tatom.shared.%s %%r%d, [%%r%d+%u], %s;\n", op, fresh(C_R), base, rnd(16) * 4, a);
		break;
	}
	case 3: {
		char lane[24], mask[24];
		if (chance(50))
			snprintf(lane, sizeof lane, "%u", rnd(32));
		else
			src(lane, sizeof lane, C_R, false);
		if (chance(60))
			snprintf(mask, sizeof mask, "%s", chance(50) ? "31" : chance(50) ? "0" : "0x1c1f");
		else
			src(mask, sizeof mask, C_R, false);
		if (has_sync_forms && chance(50))
			out("\tshfl.sync.%s.b32 %%r%d, %s, %s, %s, -1;\n", PICK(shfl_modes), fresh(C_R), a, lane, mask);
		else
			out("\tshfl.%s.b32 %%r%d|%%p%d, %s, %s, %s;\n", PICK(shfl_modes), fresh(C_R), fresh(C_P), a, lane,
			    mask);
		break;
	}
	default: {
		ensure(C_P);
		char p[24];
		snprintf(p, sizeof p, "%s%%p%d", chance(30) ? "!" : "", use(C_P));
		if (chance(40))
			out("\tvote.ballot.b32 %%r%d, %s;\n", fresh(C_R), p);
		else
			out("\tvote.%s.pred %%p%d, %s;\n", PICK(votes), fresh(C_P), p);
		break;
	}
	}
}

/* One statement of --calls, --data, --tex or --video, weighted among
 * those on. */
static void gen_whole(void)
{
	int w = (calls_enabled ? 4 : 0) + (data_enabled ? 4 : 0) + (tex_enabled ? 3 : 0) + (video_enabled ? 4 : 0);
	int r = (int)rnd((uint32_t)w);
	if (calls_enabled && (r -= 4) < 0)
		gen_call();
	else if (data_enabled && (r -= 4) < 0)
		gen_data_stmt();
	else if (tex_enabled && (r -= 3) < 0)
		gen_tex_stmt();
	else
		gen_video_stmt();
}

void stmt_list(int n, int nest)
{
	for (int i = 0; i < n && budget > 0; i++, budget--) {
		if (diverge_mode && nest < 2 && chance(12)) {
			gen_loop(nest);
			continue;
		}
		/* none in a loop inside a loop: 26 * 26 turns of a callee or of
		 * address arithmetic run into the simulator's step limit of an
		 * edge input set (2^16 issues per block), which ptxas -O3's
		 * shorter code stays under */
		if ((calls_enabled || data_enabled || tex_enabled || video_enabled) && loop_depth < 2 && chance(30)) {
			gen_whole();
			continue;
		}
		int r = (int)rnd(100);
		if (r < 40 && !have_handle())
			r += 40;
		if (r < 14) gen_suld();
		else if (r < 28) gen_sust();
		else if (r < 34) gen_sured();
		else if (r < 40) gen_suq();
		else if (r < 50) gen_st();
		else if (r < 53) gen_ld();
		else if (r < 56 && !defined_mode) gen_window();   /* the simulator has no shared/local memory yet */
		else if (r < 56) gen_ld();
		else if (r < 64) gen_alu32();
		else if (r < 70 && defined_mode) gen_fam(nest);
		else if (r < 70) {   /* the simulator has no model of these yet */
			int f = rnd(10);
			if (f < 3) gen_ints();
			else if (f < 6) gen_warp();
			else gen_fam(nest);
		}
		else if (r < 77) gen_alu64();
		else if (r < 80) gen_cvt16();
		else if (r < 85) gen_setp();
		else if (r < 88) gen_pred_logic();
		else if (r < 93 && nest < 2) gen_diamond(nest);
		else if (r < 96 && nest < 2) gen_loop(nest);
		else if (r < 98) gen_pressure();
		else if (defined_mode) gen_alu32();   /* shared/local/generic: not simulated yet */
		else if (chance(70)) gen_window();
		else gen_generic();
	}
}

static void gen_kernel(int k)
{
	kernel_no = k;
	memset(depth, 0, sizeof depth);
	next_r = next_rd = next_rs = next_p = next_label = next_f = next_fd = 0;
	nparams = 1 + (int)rnd(6);
	for (int i = 0; i < nparams; i++) {
		int kind = i == 0 ? 0 : (int)rnd(4);
		params[i].kind = kind;
		snprintf(params[i].name, sizeof params[i].name, "k%d_param_%d", k, i);
	}
	out("\n.visible .entry k%d(\n", k);
	for (int i = 0; i < nparams; i++)
		out("\t.param .%s %s%s", params[i].kind == 2 ? "u32" : "u64", params[i].name, i + 1 < nparams ? ",\n" : "");
	if (tex_enabled)
		gen_kernel_tex_param(k);
	out("\n)\n");
	/* limits of 128 registers or more: with no spilling and no instruction
	 * reordering, a register-pressure block can need more than the 64 that
	 * ptxas fits it in (an encoder limit, reported as such) */
	static const char *const bounds[] = { ".maxntid 128, 1, 1", ".maxntid 256, 1, 1", ".maxntid 512, 1, 1",
		".maxntid 384, 1, 1", ".maxntid 16, 16, 1", ".reqntid 256, 1, 1", ".reqntid 320, 1, 1",
		".maxnreg 128", ".maxntid 512, 1, 1\n.maxnreg 200" };
	if (chance(25)) {
		const char *b = PICK(bounds);
		if (!defined_mode || !strstr(b, "reqntid"))
			out("%s\n", b);
	}
	out("{\n\t.reg .pred %%p<%d>;\n\t.reg .b16 %%rs<%d>;\n\t.reg .b32 %%r<%d>;\n\t.reg .b64 %%rd<%d>;\n"
	    "\t.reg .f32 %%f<%d>;\n\t.reg .f64 %%fd<%d>;\n\n", 400, 400, 600, 400, 400, 400);
	/* the windows gen_window uses (not in --defined kernels: a local
	 * frame makes ptxas -O0 read SR_LMEMHIOFF, which is not simulated) */
	if (!defined_mode)
		out("\t.shared .align 16 .b8 k%dsh[128];\n\t.local .align 16 .b8 k%dlo[128];\n\n", k, k);
	if (data_enabled)
		gen_kernel_data_decl();
	/* parameters, clang order (last first) or nvcc order */
	bool reverse = chance(50);
	int bound = -1;
	for (int j = 0; j < nparams; j++) {
		int i = reverse ? nparams - 1 - j : j;
		Param *p = &params[i];
		int cls = p->kind == 0 ? C_PTR : p->kind == 1 ? C_SURF : p->kind == 2 ? C_R : C_RD;
		int r = fresh(cls);
		out("\tld.param.%s %s%d, [%s];\n", p->kind == 2 ? "u32" : "u64", class_prefix[cls], r, p->name);
		if (p->kind == 0 && chance(60)) {
			int g = fresh(C_PTR);
			out("\tcvta.to.global.u64 %%rd%d, %%rd%d;\n", g, r);
		}
		if (p->kind == 2)
			bound = r;
		/* a copy of a handle (ptxas folds it like the parameter) */
		if (p->kind == 1 && chance(30)) {
			int h = fresh(C_SURF);
			out("\tmov.b64 %%rd%d, %%rd%d;\n", h, r);
		}
	}
	/* thread index */
	int t = fresh(C_R), c = fresh(C_R), n = fresh(C_R);
	out("\tmov.u32 %%r%d, %%tid.x;\n\tmov.u32 %%r%d, %%ctaid.x;\n\tmov.u32 %%r%d, %%ntid.x;\n", t, c, n);
	idx_reg = fresh(C_R);
	if (chance(50))
		out("\tmad.lo.s32 %%r%d, %%r%d, %%r%d, %%r%d;\n", idx_reg, c, n, t);
	else {
		int m = fresh(C_R);
		out("\tmul.lo.s32 %%r%d, %%r%d, %%r%d;\n\tadd.s32 %%r%d, %%r%d, %%r%d;\n", m, c, n, idx_reg, m, t);
	}
	if (defined_mode) {
		stripe_bx = fresh(C_R), stripe_px = fresh(C_R), small_coord = fresh(C_R);
		out("\tand.b32 %%r%d, %%r%d, 31;\n\tshl.b32 %%r%d, %%r%d, 2;\n\tshl.b32 %%r%d, %%r%d, 4;\n"
		    "\tand.b32 %%r%d, %%r%d, 3;\n", stripe_px, idx_reg, stripe_px, stripe_px, stripe_bx, stripe_px,
		    small_coord, idx_reg);
	}
	if (data_enabled)
		gen_kernel_data();
	if (tex_enabled)
		gen_kernel_tex(k);
	if (chance(40)) {
		static const char *const sr[] = { "%tid.y", "%tid.z", "%ctaid.y", "%nctaid.x", "%ntid.y" };
		out("\tmov.u32 %%r%d, %s;\n", fresh(C_R), PICK(sr));
	}
	/* a handle chosen at run time: the register forms (SUST/SULD Rc, TXQ.B) */
	if (depth[C_SURF] >= 2 && chance(40)) {
		int a = pool[C_SURF][0], b = pool[C_SURF][depth[C_SURF] - 1];
		out("\tsetp.ne.u32 %%p%d, %%r%d, 0;\n", ++next_p, idx_reg);
		out("\tselp.b64 %%rd%d, %%rd%d, %%rd%d, %%p%d;\n", fresh(C_SURF), a, b, next_p);
	}
	int exit_label = -1;
	if (bound >= 0 && chance(60)) {
		exit_label = next_label++;
		int p = fresh(C_P);
		depth[C_P]--;
		out("\tsetp.ge.s32 %%p%d, %%r%d, %%r%d;\n\t@%%p%d bra $L__k%d_%d;\n", p, idx_reg, bound, p, k, exit_label);
	}
	budget = 6 + (int)rnd(40);
	stmt_list(budget, 0);
	if (exit_label >= 0)
		out("$L__k%d_%d:\n", k, exit_label);
	out("\t%s;\n}\n", chance(80) ? "ret" : "exit");
}

int main(int argc, char **argv)
{
	int a = 1;
	for (; a < argc - 1; a++) {
		if (strcmp(argv[a], "--defined") == 0)
			defined_mode = true;
		else if (strcmp(argv[a], "--diverge") == 0)
			diverge_mode = true;
		else if (strcmp(argv[a], "--calls") == 0)
			calls_enabled = true;
		else if (strcmp(argv[a], "--data") == 0)
			data_enabled = true;
		else if (strcmp(argv[a], "--tex") == 0)
			tex_enabled = true;
		else if (strcmp(argv[a], "--whole") == 0)
			calls_enabled = data_enabled = tex_enabled = true;
		else if (strcmp(argv[a], "--video") == 0)
			video_enabled = true;
		else
			break;
	}
	if (a != argc - 1) {
		fprintf(stderr, "usage: gen_kernels [--defined] [--diverge] [--calls] [--data] [--tex] [--whole] [--video] SEED\n");
		return 2;
	}
	uint64_t seed = strtoull(argv[argc - 1], NULL, 0);
	rng_state = seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
	side_state = seed * 0xbf58476d1ce4e5b9ull + 0x94d049bb133111ebull;
	for (int i = 0; i < 4; i++)
		rnd(1);
	const char *version = PICK(ptx_versions);
	has_sync_forms = atof(version) >= 6.0;
	out("// gen_kernels %" PRIu64 "\n.version %s\n.target sm_50\n.address_size 64\n", seed, version);
	nsurfrefs = (int)rnd(4);
	for (int i = 0; i < nsurfrefs; i++)
		out(".global .surfref surf%d;\n", i);
	module_shared = chance(50);
	if (module_shared)
		out(".shared .align 16 .b8 msh[128];\n");
	if (tex_enabled)
		gen_module_tex();
	if (data_enabled)
		gen_module_data();
	if (calls_enabled)
		gen_functions();
	int nk = 1 + (int)rnd(3);
	for (int k = 0; k < nk; k++)
		gen_kernel(k);
	return 0;
}
