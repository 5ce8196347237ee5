/* The instruction forms of tests/oracle/forms-sweep.sh (issue 17: no file
 * ptxas 11.8 compiles for sm_50 may fail with "not supported by the sm_50
 * encoder"). The forms come from the ISA tables, so the sweep grows with
 * them:
 *   - every example of a special-register or instruction row of
 *     src/isa/isa_gates.def ("B:" body text);
 *   - for the integer, bit and predicate instructions, every type word of
 *     the opcode's row of src/isa/ptx_opcodes.def with no, one or two of its
 *     other modifier words, the operands from the opcode's first matching
 *     row of src/isa/operand_sigs.def (and once more with the last source an
 *     immediate);
 *   - setp/set/slct/cvt and the memory, atomic, barrier, warp and texture
 *     instructions from their rows' words, with the operand shapes of
 *     their syntax (which the tables do not spell).
 * Floating-point rounding forms and the video instructions are left to
 * their own sweeps. Many forms are invalid: ptxas 13 decides which are PTX.
 *
 * Usage: gen_forms DIR  writes DIR/head.ptx (the module's header, data and
 * functions), DIR/f_N.ptx (the kernel of form N: a module is head.ptx and
 * any number of them) and DIR/forms.tsv ("N<TAB>FORM"). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct opcode_row {
	const char *name, *mods;
};
static const struct opcode_row opcodes[] = {
#define PTX_OPCODE(name, mods) { name, mods },
#include "../../src/isa/ptx_opcodes.def"
#undef PTX_OPCODE
};

struct sig_row {
	const char *opcode, *form, *roles;
};
static const struct sig_row sigs[] = {
#define OPSIG(opcode, form, roles, rounding, sat) { opcode, form, roles },
#include "../../src/isa/operand_sigs.def"
};

struct gate_row {
	const char *kind, *example;
};
static const struct gate_row gates[] = {
#define ISA_GATE(id, kind, match, mods, feature, vform, tform, order, vmaj, vmin, pmaj, pmin, target, source, doc, \
		 example)                                                                                         \
	{ #kind, example },
#include "../../src/isa/isa_gates.def"
#undef ISA_GATE
};

#define MAXFORMS 8192
static char *forms[MAXFORMS];
static int nforms;

static void add_form(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void add_form(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	for (int i = 0; i < nforms; i++)
		if (strcmp(forms[i], buf) == 0)
			return;
	if (nforms == MAXFORMS) {
		fprintf(stderr, "gen_forms: more than %d forms\n", MAXFORMS);
		exit(2);
	}
	forms[nforms++] = strdup(buf);
}

/* ---- words and registers ---- */

static bool has_word(const char *list, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = list; (p = strstr(p, w)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

static const char *row_of(const char *op)
{
	for (size_t i = 0; i < sizeof opcodes / sizeof opcodes[0]; i++)
		if (strcmp(opcodes[i].name, op) == 0)
			return opcodes[i].mods;
	fprintf(stderr, "gen_forms: no row for %s in ptx_opcodes.def\n", op);
	exit(2);
}

/* The words of OP's row, split: WORDS[i] each with its dot. */
static int row_words(const char *op, char words[][40], int max)
{
	const char *p = row_of(op);
	int n = 0;
	while (*p && n < max) {
		while (*p == ' ')
			p++;
		int k = 0;
		while (*p && *p != ' ' && k < 39)
			words[n][k++] = *p++;
		words[n][k] = '\0';
		if (k)
			n++;
	}
	return n;
}

static const char *const int_types[] = { ".u8", ".s8", ".b8", ".u16", ".s16", ".b16", ".u32", ".s32", ".b32",
	".u64", ".s64", ".b64", ".pred" };

static bool is_int_type(const char *w)
{
	for (size_t i = 0; i < sizeof int_types / sizeof int_types[0]; i++)
		if (strcmp(w, int_types[i]) == 0)
			return true;
	return false;
}

static bool is_float_type(const char *w)
{
	return strcmp(w, ".f32") == 0 || strcmp(w, ".f64") == 0;
}

/* Words of floating-point forms (the float sweeps' concern) and of types
 * sm_50 has no registers or units for. */
static bool is_float_word(const char *w)
{
	static const char *const fw[] = { ".rn", ".rz", ".rm", ".rp", ".rna", ".rs", ".ftz", ".approx", ".full", ".relu",
		".NaN", ".xorsign", ".abs", ".oob", ".satfinite", ".f16", ".bf16", ".tf32", ".noftz" };
	for (size_t i = 0; i < sizeof fw / sizeof fw[0]; i++)
		if (strcmp(w, fw[i]) == 0)
			return true;
	return strstr(w, "x2") != NULL || strstr(w, "x4") != NULL;
}

static int type_bits(const char *t)
{
	if (strcmp(t, ".pred") == 0)
		return 1;
	return atoi(t + 2);
}

/* Register number N of type T: %h (8 and 16 bits), %r, %rd, %f, %fd, %p. */
static const char *reg(const char *t, int n)
{
	static char buf[8][16];
	static int k;
	char *b = buf[k++ % 8];
	int bits = type_bits(t);
	const char *cls = bits == 1 ? "%p" : t[1] == 'f' ? (bits == 64 ? "%fd" : "%f") : bits <= 16 ? "%h" : bits == 32 ? "%r" : "%rd";
	snprintf(b, 16, "%s%d", cls, n);
	return b;
}

static const char *wider(const char *t)
{
	static char buf[8];
	snprintf(buf, sizeof buf, ".%c%d", t[1], type_bits(t) * 2);
	return buf;
}

static const char *imm_of(const char *t)
{
	return strcmp(t, ".f32") == 0 ? "0f3F800000" : strcmp(t, ".f64") == 0 ? "0d3FF0000000000000" : "3";
}

/* ---- forms from the tables ---- */

static void gate_forms(void)
{
	for (size_t i = 0; i < sizeof gates / sizeof gates[0]; i++)
		if ((strcmp(gates[i].kind, "INSTR") == 0 || strcmp(gates[i].kind, "SREG") == 0) &&
		    strncmp(gates[i].example, "B:", 2) == 0)
			add_form("%s", gates[i].example + 2);
}

static const char *const alu_ops[] = { "add", "sub", "addc", "subc", "mul", "mad", "mul24", "mad24", "sad", "div",
	"rem", "abs", "neg", "min", "max", "popc", "clz", "bfind", "brev", "bfe", "bfi", "prmt", "shf", "shl", "shr", "and",
	"or", "xor", "not", "cnot", "lop3", "testp", "copysign", "selp" };

static const char *roles_of(const char *op, const char *mods)
{
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		if (strcmp(sigs[i].opcode, op) == 0 && (!sigs[i].form[0] || has_word(mods, sigs[i].form)))
			return sigs[i].roles;
	if (strcmp(op, "lop3") == 0)
		return "dsssi"; /* the truth table: an immediate */
	return NULL;
}

/* One ALU form: OP MODS TYPE with operands from ROLES; IMM: the last
 * source an immediate. */
static void alu_form(const char *op, const char *mods, const char *t, const char *roles, bool imm)
{
	char ops[256] = "";
	int src = 2, last = -1;
	char parts[8][40];
	int n = 0;
	for (const char *r = roles; *r && n < 8; r++, n++) {
		const char *o;
		switch (*r) {
		case 'd': o = reg(t, 9); break;
		case 's': o = reg(t, src++); last = n; break;
		case 'W': o = reg(wider(t), 9); break;
		case 'w': o = reg(wider(t), 4); break;
		case 'u': o = reg(".u32", src++); last = n; break;
		case 'U': o = "%r9"; break;
		case 'P': o = "%p3"; break;
		case 'p': o = "%p1"; break;
		case 'i': o = "0x96"; break;
		default: return;
		}
		snprintf(parts[n], sizeof parts[n], "%s", o);
	}
	if (imm) {
		if (last < 0 || strcmp(t, ".pred") == 0)
			return;
		snprintf(parts[last], sizeof parts[last], "%s", roles[last] == 'u' ? "3" : imm_of(t));
	}
	for (int i = 0; i < n; i++) {
		strcat(ops, i ? ", " : " ");
		strcat(ops, parts[i]);
	}
	add_form("%s%s%s%s;", op, mods, t, ops);
}

static void alu_forms(void)
{
	char w[96][40];
	for (size_t o = 0; o < sizeof alu_ops / sizeof alu_ops[0]; o++) {
		const char *op = alu_ops[o];
		bool floats = strcmp(op, "testp") == 0 || strcmp(op, "copysign") == 0 || strcmp(op, "selp") == 0;
		int n = row_words(op, w, 96);
		const char *types[16], *mods[48];
		int nt = 0, nm = 0;
		for (int i = 0; i < n; i++) {
			if (is_int_type(w[i]) || (floats && is_float_type(w[i]))) {
				if (nt < 16)
					types[nt++] = w[i];
			} else if (!is_float_word(w[i]) && !is_float_type(w[i]) && nm < 48)
				mods[nm++] = w[i];
		}
		for (int t = 0; t < nt; t++)
			for (int a = -1; a < nm; a++)
				for (int b = a < 0 ? -1 : a + 1; b < nm; b++) {
					char m[96];
					snprintf(m, sizeof m, "%s%s", a < 0 ? "" : mods[a], b < 0 ? "" : mods[b]);
					const char *roles = roles_of(op, m);
					if (!roles)
						continue;
					alu_form(op, m, types[t], roles, false);
					alu_form(op, m, types[t], roles, true);
					if (a < 0)
						break;
				}
	}
}

static void compare_forms(void)
{
	char w[96][40];
	int n = row_words("setp", w, 96);
	const char *cmps[24], *types[16], *bools[4];
	int nc = 0, nt = 0, nb = 0;
	for (int i = 0; i < n; i++) {
		if (is_int_type(w[i]) || is_float_type(w[i]))
			types[nt++] = w[i];
		else if (!strcmp(w[i], ".and") || !strcmp(w[i], ".or") || !strcmp(w[i], ".xor"))
			bools[nb++] = w[i];
		else if (!is_float_word(w[i]))
			cmps[nc++] = w[i];
	}
	for (int t = 0; t < nt; t++) {
		const char *T = types[t];
		for (int c = 0; c < nc; c++) {
			add_form("setp%s%s %%p3, %s, %s;", cmps[c], T, reg(T, 2), reg(T, 3));
			add_form("setp%s%s %%p3, %s, %s;", cmps[c], T, reg(T, 2), imm_of(T));
			if (is_float_type(T) && strcmp(T, ".f32") == 0)
				add_form("setp%s.ftz%s %%p3, %s, %s;", cmps[c], T, reg(T, 2), reg(T, 3));
		}
		add_form("setp.lt%s %%p3|%%p4, %s, %s;", T, reg(T, 2), reg(T, 3));
		add_form("setp.ne%s %%p3|%%p4, %s, %s;", T, reg(T, 2), reg(T, 3));
		for (int b = 0; b < nb; b++) {
			add_form("setp.ne%s%s %%p3, %s, %s, %%p1;", bools[b], T, reg(T, 2), reg(T, 3));
			add_form("setp.eq%s%s %%p3|%%p4, %s, %s, !%%p1;", bools[b], T, reg(T, 2), reg(T, 3));
		}
	}
	for (int c = 0; c < nc; c++)
		for (int b = 0; b < nb; b++)
			add_form("setp%s%s.s32 %%p3, %%r2, %%r3, %%p1;", cmps[c], bools[b]);
	/* set.CMP{.BOOL}.DTYPE.STYPE: the result types are the row's .u32, .s32, .f32 */
	static const char *const dts[] = { ".u32", ".s32", ".f32" };
	for (int d = 0; d < 3; d++)
		for (int t = 0; t < nt; t++) {
			const char *T = types[t];
			for (int c = 0; c < nc; c++)
				add_form("set%s%s%s %s, %s, %s;", cmps[c], dts[d], T, reg(dts[d], 9), reg(T, 2), reg(T, 3));
			for (int b = 0; b < nb; b++)
				add_form("set.lt%s%s%s %s, %s, %s, %%p1;", bools[b], dts[d], T, reg(dts[d], 9), reg(T, 2), reg(T, 3));
		}
	n = row_words("slct", w, 96);
	for (int i = 0; i < n; i++)
		if (is_int_type(w[i]) || is_float_type(w[i])) {
			add_form("slct%s.s32 %s, %s, %s, %%r4;", w[i], reg(w[i], 9), reg(w[i], 2), reg(w[i], 3));
			add_form("slct%s.f32 %s, %s, %s, %%f4;", w[i], reg(w[i], 9), reg(w[i], 2), reg(w[i], 3));
			add_form("slct.ftz%s.f32 %s, %s, %s, %%f4;", w[i], reg(w[i], 9), reg(w[i], 2), reg(w[i], 3));
		}
}

static void cvt_forms(void)
{
	char w[96][40];
	int n = row_words("cvt", w, 96);
	const char *types[16], *rnd[16];
	int nt = 0, nr = 0;
	for (int i = 0; i < n; i++) {
		if ((is_int_type(w[i]) && strcmp(w[i], ".pred")) || is_float_type(w[i]))
			types[nt++] = w[i];
		else if (w[i][1] == 'r' && strlen(w[i]) <= 4 && strcmp(w[i], ".rs") && strcmp(w[i], ".rna"))
			rnd[nr++] = w[i];
	}
	for (int d = 0; d < nt; d++)
		for (int s = 0; s < nt; s++) {
			const char *D = types[d], *S = types[s];
			if (is_float_type(D) && is_float_type(S))
				continue; /* float-to-float: the float sweep's */
			const char *dr = reg(D, 9), *sr = reg(S, 2);
			add_form("cvt%s%s %s, %s;", D, S, dr, sr);
			add_form("cvt.sat%s%s %s, %s;", D, S, dr, sr);
			if (!is_float_type(D) && !is_float_type(S))
				continue;
			for (int r = 0; r < nr; r++) {
				add_form("cvt%s%s%s %s, %s;", rnd[r], D, S, dr, sr);
				add_form("cvt%s.sat%s%s %s, %s;", rnd[r], D, S, dr, sr);
				if (!strcmp(S, ".f32") || !strcmp(D, ".f32"))
					add_form("cvt%s.ftz%s%s %s, %s;", rnd[r], D, S, dr, sr);
			}
		}
	/* an 8- or 16-bit value in a 32-bit register, as nvcc writes it */
	add_form("cvt.u32.u8 %%r9, %%r2;");
	add_form("cvt.s32.s8 %%r9, %%r2;");
	add_form("cvt.u32.u16 %%r9, %%r2;");
	add_form("cvt.s32.s16 %%r9, %%r2;");
	add_form("cvt.u8.u32 %%r9, %%r2;");
	add_form("cvt.s64.s8 %%rd9, %%r2;");
	add_form("cvt.u64.u16 %%rd9, %%h2;");
	add_form("cvt.rn.f32.u8 %%f9, %%r2;");
	add_form("cvt.rzi.s8.f32 %%r9, %%f2;");
}

/* ---- data movement ---- */

static const char *const sregs[] = { "%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z", "%ctaid.x",
	"%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z", "%laneid", "%warpid", "%nwarpid", "%smid",
	"%nsmid", "%gridid", "%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt", "%clock",
	"%clock_hi", "%clock64", "%pm0", "%pm3", "%pm7", "%pm0_64", "%envreg0", "%envreg31", "%globaltimer",
	"%globaltimer_lo", "%globaltimer_hi", "%total_smem_size", "%dynamic_smem_size", "WARP_SZ" };

static void mov_forms(void)
{
	char w[96][40];
	int n = row_words("mov", w, 96);
	for (int i = 0; i < n; i++)
		if (is_int_type(w[i]) || is_float_type(w[i])) {
			add_form("mov%s %s, %s;", w[i], reg(w[i], 9), reg(w[i], 2));
			if (strcmp(w[i], ".pred"))
				add_form("mov%s %s, %s;", w[i], reg(w[i], 9), imm_of(w[i]));
		}
	add_form("mov.pred %%p3, 1;");
	add_form("mov.b64 %%rd9, {%%r2, %%r3};");
	add_form("mov.b64 {%%r9, %%r10}, %%rd2;");
	add_form("mov.b32 %%r9, {%%h2, %%h3};");
	add_form("mov.b32 {%%h9, %%h10}, %%r2;");
	add_form("mov.b64 {%%h9, %%h10, %%h11, %%h12}, %%rd2;");
	add_form("mov.b64 %%rd9, {%%h2, %%h3, %%h4, %%h1};");
	add_form("mov.b64 {%%r9, _}, %%rd2;");
	add_form("mov.b32 {_, %%h10}, %%r2;");
	add_form("mov.f64 %%fd9, 0dFFF0000000000000;");
	add_form("mov.b64 %%fd9, %%rd2;");
	add_form("mov.b32 %%f9, %%r2;");
	add_form("mov.u64 %%rd9, smem;");
	add_form("mov.u64 %%rd9, gbuf;");
	add_form("mov.u64 %%rd9, cbuf;");
	add_form("mov.u64 %%rd9, lmem;");
	add_form("mov.u64 %%rd9, smem+16;");
	add_form("mov.u32 %%r9, smem;");
	add_form("mov.u64 %%rd9, fnone;");
	for (size_t i = 0; i < sizeof sregs / sizeof sregs[0]; i++) {
		add_form("mov.u32 %%r9, %s;", sregs[i]);
		add_form("mov.u64 %%rd9, %s;", sregs[i]);
		add_form("mov.u16 %%h9, %s;", sregs[i]);
		add_form("cvt.u64.u32 %%rd9, %s;", sregs[i]);
		add_form("add.u32 %%r9, %s, %%r2;", sregs[i]);
	}
	add_form("cvt.u32.u16 %%r9, %%tid.x;");
}

struct space {
	const char *word, *addr;
};
/* The addresses the wrapper sets up: %rd1 a generic pointer to global
 * scratch, %rd7 the same as a global address, %rd8 smem's and %rd11
 * lmem's addresses in their windows. */
static const struct space spaces[] = { { "", "[%rd1+8]" }, { ".global", "[%rd7+8]" }, { ".shared", "[%rd8+8]" },
	{ ".local", "[%rd11+8]" }, { ".const", "[cbuf+8]" }, { ".param", "[pa]" } };

static void vec_regs(char *buf, size_t n, const char *vec, const char *t, int first)
{
	int k = !strcmp(vec, ".v2") ? 2 : !strcmp(vec, ".v4") ? 4 : 1;
	if (k == 1) {
		snprintf(buf, n, "%s", reg(t, first));
		return;
	}
	snprintf(buf, n, "{%s, %s%s%s%s%s}", reg(t, first), reg(t, first + 1), k == 4 ? ", " : "", k == 4 ? reg(t, first + 2) : "",
		 k == 4 ? ", " : "", k == 4 ? reg(t, first + 3) : "");
}

static void ldst_forms(void)
{
	static const char *const vecs[] = { "", ".v2", ".v4" };
	static const char *const order[] = { ".volatile", ".weak", ".relaxed.cta", ".relaxed.gpu", ".relaxed.sys",
		".acquire.cta", ".acquire.gpu", ".acquire.sys", ".release.gpu", ".mmio.relaxed.sys" };
	const char *sts[2] = { "ld", "st" };
	for (int k = 0; k < 2; k++) {
		const char *op = sts[k];
		char w[128][40];
		int n = row_words(op, w, 128);
		const char *types[20], *cache[24];
		int nt = 0, nc = 0;
		for (int i = 0; i < n; i++) {
			if ((is_int_type(w[i]) && strcmp(w[i], ".pred")) || is_float_type(w[i]))
				types[nt++] = w[i];
			else if (w[i][1] == 'c' || w[i][1] == 'w' || w[i][1] == 'l' || w[i][1] == 'n' || w[i][1] == 'L')
				if (strlen(w[i]) == 3 || w[i][1] == 'L')
					cache[nc++] = w[i];
		}
		for (size_t s = 0; s < sizeof spaces / sizeof spaces[0]; s++) {
			const char *sp = spaces[s].word, *a = spaces[s].addr;
			if (k == 1 && (!strcmp(sp, ".const") || !strcmp(sp, ".param")))
				continue;
			for (int t = 0; t < nt; t++)
				for (int v = 0; v < 3; v++) {
					char r[96];
					if (!strcmp(sp, ".param") && v)
						continue;
					vec_regs(r, sizeof r, vecs[v], types[t], k ? 1 : 9);
					if (k == 0)
						add_form("ld%s%s%s %s, %s;", sp, vecs[v], types[t], r, a);
					else
						add_form("st%s%s%s %s, %s;", sp, vecs[v], types[t], a, r);
				}
			for (size_t q = 0; q < sizeof order / sizeof order[0] + (size_t)nc; q++) {
				const char *qw = q < sizeof order / sizeof order[0] ? order[q] : cache[q - sizeof order / sizeof order[0]];
				if (k == 0) {
					add_form("ld%s%s.u32 %%r9, %s;", qw, sp, a);
					add_form("ld%s%s.v2.u64 {%%rd9, %%rd10}, %s;", qw, sp, a);
					add_form("ld%s%s.v4.f32 {%%f9, %%f10, %%f11, %%f12}, %s;", qw, sp, a);
				} else {
					add_form("st%s%s.u32 %s, %%r2;", qw, sp, a);
					add_form("st%s%s.v2.u64 %s, {%%rd2, %%rd3};", qw, sp, a);
				}
			}
		}
		if (k == 1) {
			add_form("st.global.u32 [%%rd7], 5;");
			add_form("st.global.v2.u32 [%%rd7], {%%r2, 7};");
			add_form("st.shared.u8 [%%rd8], %%r2;");
			add_form("st.global.u16 [%%rd7], %%r2;");
			add_form("st.global.u64 [gbuf+8], %%rd2;");
			add_form("st.shared.u32 [smem+4], %%r2;");
			add_form("st.global.b32 [%%rd7], %%f2;");
			add_form("st.local.u32 [lmem], %%r2;");
			add_form("st.u32 [%%rd1+-4], %%r2;");
		}
	}
	/* ld.global.nc: every type and vector width (nvcc's __ldg) */
	char w[128][40];
	int n = row_words("ld", w, 128);
	for (int i = 0; i < n; i++)
		if ((is_int_type(w[i]) && strcmp(w[i], ".pred")) || is_float_type(w[i]))
			for (int v = 0; v < 3; v++) {
				char r[96];
				vec_regs(r, sizeof r, vecs[v], w[i], 9);
				add_form("ld.global.nc%s%s %s, [%%rd7+8];", vecs[v], w[i], r);
				add_form("ldu.global%s%s %s, [%%rd7+8];", vecs[v], w[i], r);
			}
	add_form("ld.global.u8 %%r9, [%%rd7];");
	add_form("ld.global.s8 %%r9, [%%rd7];");
	add_form("ld.global.s16 %%r9, [%%rd7];");
	add_form("ld.global.u32 %%rd9, [%%rd7];");
	add_form("ld.global.s32 %%rd9, [%%rd7];");
	add_form("ld.shared.u32 %%r9, [smem+4];");
	add_form("ld.global.u32 %%r9, [gbuf+4];");
	add_form("ld.const.u32 %%r9, [cbuf];");
	add_form("ld.global.b32 %%f9, [%%rd7];");
	add_form("ld.local.u32 %%r9, [lmem+4];");
	add_form("ld.u32 %%r9, [%%rd1+-4];");
	add_form("ld.global.u32 %%r9, [%%rd7+-8];");
	add_form("ld.param.u32 %%r9, [pw];");
	add_form("ld.param.v2.u32 {%%r9, %%r10}, [pa];");
	add_form("ld.param.u8 %%h9, [pw];");
	add_form("ld.param.s32 %%rd9, [pw];");
}

static void address_forms(void)
{
	char w[64][40];
	int n = row_words("cvta", w, 64);
	for (int i = 0; i < n; i++) {
		if (strchr(w[i], ':') || w[i][1] == 'u' || !strcmp(w[i], ".to"))
			continue;
		add_form("cvta%s.u64 %%rd9, %%rd2;", w[i]);
		add_form("cvta.to%s.u64 %%rd9, %%rd2;", w[i]);
		add_form("cvta%s.u32 %%r9, %%r2;", w[i]);
		add_form("cvta.to%s.u32 %%r9, %%r2;", w[i]);
	}
	add_form("cvta.shared.u64 %%rd9, smem;");
	add_form("cvta.global.u64 %%rd9, gbuf;");
	add_form("cvta.const.u64 %%rd9, cbuf;");
	add_form("cvta.local.u64 %%rd9, lmem;");
	add_form("cvta.param.u64 %%rd9, pa;");
	n = row_words("isspacep", w, 64);
	for (int i = 0; i < n; i++)
		if (!strchr(w[i], ':'))
			add_form("isspacep%s %%p3, %%rd2;", w[i]);
	n = row_words("prefetch", w, 64);
	for (int i = 0; i < n; i++)
		if (w[i][1] == 'L') {
			add_form("prefetch%s [%%rd1];", w[i]);
			add_form("prefetch.global%s [%%rd7+8];", w[i]);
			add_form("prefetch.local%s [%%rd11];", w[i]);
		}
	add_form("prefetchu.L1 [%%rd1];");
}

static void atomic_forms(void)
{
	char w[96][40];
	static const char *const sems[] = { ".relaxed", ".acquire", ".release", ".acq_rel" };
	static const char *const scopes[] = { ".cta", ".gpu", ".sys" };
	for (int k = 0; k < 2; k++) {
		const char *op = k ? "red" : "atom";
		int n = row_words(op, w, 96);
		const char *ops[16], *types[16];
		int no = 0, nt = 0;
		for (int i = 0; i < n; i++) {
			if (is_int_type(w[i]) || is_float_type(w[i]))
				types[nt++] = w[i];
			else if (!strcmp(w[i], ".and") || !strcmp(w[i], ".or") || !strcmp(w[i], ".xor") || !strcmp(w[i], ".cas") ||
				 !strcmp(w[i], ".exch") || !strcmp(w[i], ".add") || !strcmp(w[i], ".inc") || !strcmp(w[i], ".dec") ||
				 !strcmp(w[i], ".min") || !strcmp(w[i], ".max"))
				ops[no++] = w[i];
		}
		static const struct space asp[] = { { "", "[%rd1]" }, { ".global", "[%rd7+8]" }, { ".shared", "[%rd8+8]" } };
		for (int s = 0; s < 3; s++)
			for (int o = 0; o < no; o++)
				for (int t = 0; t < nt; t++) {
					const char *T = types[t];
					bool cas = !strcmp(ops[o], ".cas");
					if (k == 0)
						add_form("atom%s%s%s %s, %s, %s%s%s;", asp[s].word, ops[o], T, reg(T, 9), asp[s].addr, reg(T, 2),
							 cas ? ", " : "", cas ? reg(T, 3) : "");
					else if (!cas)
						add_form("red%s%s%s %s, %s;", asp[s].word, ops[o], T, asp[s].addr, reg(T, 2));
					if (!cas && !is_float_type(T)) {
						if (k == 0)
							add_form("atom%s%s%s %s, %s, 1;", asp[s].word, ops[o], T, reg(T, 9), asp[s].addr);
						else
							add_form("red%s%s%s %s, 1;", asp[s].word, ops[o], T, asp[s].addr);
					}
				}
		for (int m = -1; m < 4; m++)
			for (int c = -1; c < 3; c++) {
				const char *sm = m < 0 ? "" : sems[m], *sc = c < 0 ? "" : scopes[c];
				if (k == 0) {
					add_form("atom%s%s.global.add.u32 %%r9, [%%rd7], %%r2;", sm, sc);
					add_form("atom%s%s.cas.b32 %%r9, [%%rd1], %%r2, %%r3;", sm, sc);
					add_form("atom%s%s.shared.exch.b64 %%rd9, [%%rd8], %%rd2;", sm, sc);
				} else {
					add_form("red%s%s.global.add.u32 [%%rd7], %%r2;", sm, sc);
					add_form("red%s%s.global.add.f32 [%%rd7], %%f2;", sm, sc);
				}
			}
	}
}

/* ---- synchronization, warp, texture, control ---- */

static void sync_forms(void)
{
	static const char *const bars[] = { "bar", "barrier", "bar.cta", "barrier.cta" };
	static const char *const al[] = { "", ".aligned" };
	for (int b = 0; b < 4; b++)
		for (int a = 0; a < 2; a++) {
			const char *B = bars[b], *A = al[a];
			add_form("%s.sync%s 0;", B, A);
			add_form("%s.sync%s 1, 64;", B, A);
			add_form("%s.sync%s %%r2;", B, A);
			add_form("%s.sync%s %%r2, %%r3;", B, A);
			add_form("%s.arrive%s 1, 64;", B, A);
			add_form("%s.arrive%s %%r2, %%r3;", B, A);
			add_form("%s.red.popc%s.u32 %%r9, 0, %%p1;", B, A);
			add_form("%s.red.popc%s.u32 %%r9, 1, 64, !%%p1;", B, A);
			add_form("%s.red.and%s.pred %%p3, 0, %%p1;", B, A);
			add_form("%s.red.or%s.pred %%p3, 0, !%%p1;", B, A);
		}
	add_form("bar.warp.sync -1;");
	add_form("bar.warp.sync %%r2;");
	char w[64][40];
	int n = row_words("membar", w, 64);
	for (int i = 0; i < n; i++)
		add_form("membar%s;", w[i]);
	n = row_words("fence", w, 64);
	static const char *const fsem[] = { ".sc", ".acq_rel" };
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < n; i++)
			if (!strcmp(w[i], ".cta") || !strcmp(w[i], ".gpu") || !strcmp(w[i], ".sys") || !strcmp(w[i], ".cluster"))
				add_form("fence%s%s;", fsem[s], w[i]);
	add_form("fence.proxy.alias;");
}

static void warp_forms(void)
{
	static const char *const modes[] = { ".up", ".down", ".bfly", ".idx" };
	for (int m = 0; m < 4; m++) {
		add_form("shfl%s.b32 %%r9, %%r2, 1, 0x1f;", modes[m]);
		add_form("shfl%s.b32 %%r9|%%p3, %%r2, %%r3, %%r4;", modes[m]);
		add_form("shfl%s.b32 %%r9, %%r2, %%r3, 0x1c1f;", modes[m]);
		add_form("shfl.sync%s.b32 %%r9, %%r2, 1, 0x1f, 0xffffffff;", modes[m]);
		add_form("shfl.sync%s.b32 %%r9|%%p3, %%r2, %%r3, %%r4, %%r1;", modes[m]);
		add_form("shfl.sync%s.b32 %%r9, %%f2, 1, 0x1f, -1;", modes[m]);
	}
	static const char *const votes[] = { ".all", ".any", ".uni" };
	for (int v = 0; v < 3; v++) {
		add_form("vote%s.pred %%p3, %%p1;", votes[v]);
		add_form("vote%s.pred %%p3, !%%p1;", votes[v]);
		add_form("vote.sync%s.pred %%p3, %%p1, 0xffffffff;", votes[v]);
		add_form("vote.sync%s.pred %%p3, !%%p1, %%r2;", votes[v]);
	}
	add_form("vote.ballot.b32 %%r9, %%p1;");
	add_form("vote.ballot.b32 %%r9, !%%p1;");
	add_form("vote.sync.ballot.b32 %%r9, %%p1, 0xffffffff;");
	add_form("vote.sync.ballot.b32 %%r9, %%p1, %%r2;");
}

struct geometry {
	const char *word, *icoords, *fcoords;
};
static const struct geometry geoms[] = {
	{ ".1d", "{%r2}", "{%f2}" },
	{ ".2d", "{%r2, %r3}", "{%f2, %f3}" },
	{ ".3d", "{%r2, %r3, %r4, %r1}", "{%f2, %f3, %f4, %f1}" },
	{ ".a1d", "{%r2, %r3}", "{%r2, %f2}" },
	{ ".a2d", "{%r2, %r3, %r4, %r1}", "{%r2, %f2, %f3, %f4}" },
	{ ".cube", NULL, "{%f2, %f3, %f4, %f1}" },
	{ ".acube", NULL, "{%r2, %f2, %f3, %f4}" },
};

static void texture_forms(void)
{
	static const char *const dts[] = { ".s32", ".u32", ".f32" };
	for (size_t g = 0; g < sizeof geoms / sizeof geoms[0]; g++)
		for (int d = 0; d < 3; d++) {
			const char *D = dts[d], *r = d == 2 ? "{%f9, %f10, %f11, %f12}" : "{%r9, %r10, %r11, %r12}";
			if (geoms[g].icoords)
				add_form("tex%s.v4%s.s32 %s, [tref, %s];", geoms[g].word, D, r, geoms[g].icoords);
			add_form("tex%s.v4%s.f32 %s, [tref, %s];", geoms[g].word, D, r, geoms[g].fcoords);
			add_form("tex.level%s.v4%s.f32 %s, [tref, %s], %%f1;", geoms[g].word, D, r, geoms[g].fcoords);
			add_form("tex%s.v4%s.f32 %s, [%%rd2, %s];", geoms[g].word, D, r, geoms[g].fcoords);
			if (g == 1 || g == 4 || g == 5 || g == 6) {
				add_form("tld4.r%s.v4%s.f32 %s, [tref, %s];", geoms[g].word, D, r, geoms[g].fcoords);
				add_form("tld4.a%s.v4%s.f32 %s, [%%rd2, %s];", geoms[g].word, D, r, geoms[g].fcoords);
			}
		}
	add_form("tex.grad.2d.v4.f32.f32 {%%f9, %%f10, %%f11, %%f12}, [tref, {%%f2, %%f3}], {%%f4, %%f1}, {%%f1, %%f4};");
	add_form("tex.1d.v4.f32.s32 {%%f9, %%f10, %%f11, %%f12}, [tref, %%r2];");
	char w[64][40];
	int n = row_words("txq", w, 64);
	for (int i = 0; i < n; i++)
		if (strcmp(w[i], ".b32") && strcmp(w[i], ".level")) {
			add_form("txq%s.b32 %%r9, [tref];", w[i]);
			add_form("txq%s.b32 %%r9, [%%rd2];", w[i]);
		}
	n = row_words("suq", w, 64);
	for (int i = 0; i < n; i++)
		if (strcmp(w[i], ".b32")) {
			add_form("suq%s.b32 %%r9, [sref];", w[i]);
			add_form("suq%s.b32 %%r9, [%%rd2];", w[i]);
		}
	static const char *const st[] = { ".b8", ".b16", ".b32", ".b64" };
	static const char *const clamps[] = { ".trap", ".clamp", ".zero" };
	for (size_t g = 0; g < 5; g++)
		for (int t = 0; t < 4; t++)
			for (int v = 0; v < 3; v++)
				for (int c = 0; c < 3; c++) {
					static const char *const vecs[] = { "", ".v2", ".v4" };
					char r[96];
					vec_regs(r, sizeof r, vecs[v], t == 3 ? ".b64" : ".b32", 9);
					add_form("suld.b%s%s%s%s %s, [sref, %s];", geoms[g].word, vecs[v], st[t], clamps[c], r, geoms[g].icoords);
					vec_regs(r, sizeof r, vecs[v], t == 3 ? ".b64" : ".b32", 1);
					add_form("sust.b%s%s%s%s [sref, %s], %s;", geoms[g].word, vecs[v], st[t], clamps[c], geoms[g].icoords, r);
				}
	add_form("sust.p.2d.v4.b32.trap [sref, {%%r2, %%r3}], {%%r1, %%r2, %%r3, %%r4};");
	add_form("suld.b.2d.b32.trap %%r9, [%%rd2, {%%r2, %%r3}];");
	add_form("sust.b.2d.b32.trap [%%rd2, {%%r2, %%r3}], %%r1;");
	add_form("sured.b.add.2d.u32.trap [sref, {%%r2, %%r3}], %%r1;");
}

static void control_forms(void)
{
	add_form("{ .reg .b32 t; ts: .branchtargets LA, LB; and.b32 t, %%r2, 1; brx.idx t, ts; LA: add.u32 %%r9, %%r2, 1; bra.uni LC; LB: add.u32 %%r9, %%r3, 1; LC: }");
	add_form("{ .param .b32 a0; .param .b32 r0; st.param.b32 [a0], %%r2; call.uni (r0), fadd1, (a0); ld.param.b32 %%r9, [r0]; }");
	add_form("{ .param .b32 a0; .param .b32 r0; st.param.b32 [a0], %%r2; call (r0), fadd1, (a0); ld.param.b32 %%r9, [r0]; }");
	add_form("call fnone;");
	add_form("call.uni fnone;");
	add_form("@%%p1 call fnone;");
	add_form("{ .reg .b64 fp; mov.u64 fp, fnone; pt: .callprototype _ (); call fp, pt; }");
	add_form("{ .reg .b64 fp; .param .b32 a0; .param .b32 r0; pta: .callprototype (.param .b32 _) _ (.param .b32 _); mov.u64 fp, fadd1; st.param.b32 [a0], %%r2; call (r0), fp, (a0), pta; ld.param.b32 %%r9, [r0]; }");
	add_form("pmevent 1;");
	add_form("pmevent.mask 3;");
	add_form("@%%p1 trap;");
	add_form("@%%p1 brkpt;");
	add_form("@%%p1 exit;");
	add_form("@!%%p1 ret;");
	add_form("nanosleep.u32 %%r2;");
	add_form("@%%p1 bra.uni LX; add.u32 %%r9, %%r2, 1; LX:");
	add_form("@%%p1 bra LX; add.u32 %%r9, %%r2, 1; LX:");
}

/* ---- the kernels ---- */

static const char module_head[] =
	".version 7.8\n.target sm_50\n.address_size 64\n"
	".global .align 16 .b8 gbuf[256];\n.const .align 16 .b8 cbuf[256];\n"
	".global .texref tref;\n.global .surfref sref;\n"
	".func (.param .b32 rv) fadd1(.param .b32 a)\n{\n\t.reg .b32 t;\n\tld.param.b32 t, [a];\n"
	"\tadd.u32 t, t, 1;\n\tst.param.b32 [rv], t;\n\tret;\n}\n"
	".func fnone()\n{\n\tret;\n}\n";

/* Register classes of the wrapper: prefix, load/store type, size. */
static const struct {
	const char *prefix, *type;
	int size, base;
} classes[] = { { "%r", ".u32", 4, 0 }, { "%rd", ".u64", 8, 32 }, { "%f", ".f32", 4, 96 }, { "%fd", ".f64", 8, 128 },
		{ "%h", ".u16", 2, 192 } };
static const int live[] = { 1, 2, 3, 4, 9, 10, 11, 12 };

/* Kernel f_N around FORM: every register the forms read is loaded from
 * the input buffer (the second parameter; 1 KiB), every register they
 * write is stored to the output buffer (the first), so nothing is dead. */
static void kernel(FILE *f, int n, const char *form)
{
	fprintf(f, ".visible .entry f_%d(.param .u64 pout, .param .u64 pin, .param .u64 pa, .param .u32 pw)\n{\n", n);
	fprintf(f, "\t.reg .b64 %%ia, %%oa;\n\t.reg .b32 %%r<16>;\n\t.reg .b64 %%rd<16>;\n\t.reg .pred %%p<8>;\n"
		   "\t.reg .f32 %%f<16>;\n\t.reg .f64 %%fd<16>;\n\t.reg .b16 %%h<16>;\n"
		   "\t.shared .align 16 .b8 smem[256];\n\t.local .align 16 .b8 lmem[256];\n");
	fprintf(f, "\tld.param.u64 %%ia, [pin];\n\tcvta.to.global.u64 %%ia, %%ia;\n"
		   "\tld.param.u64 %%oa, [pout];\n\tcvta.to.global.u64 %%oa, %%oa;\n");
	for (size_t c = 0; c < sizeof classes / sizeof classes[0]; c++)
		for (size_t i = 0; i < sizeof live / sizeof live[0]; i++)
			fprintf(f, "\tld.global%s %s%d, [%%ia+%zu];\n", classes[c].type, classes[c].prefix, live[i],
				classes[c].base + i * classes[c].size);
	fprintf(f, "\tadd.u64 %%rd1, %%ia, 512;\n\tadd.u64 %%rd7, %%ia, 512;\n\tmov.u64 %%rd8, smem;\n\tmov.u64 %%rd11, lmem;\n"
		   "\tsetp.ne.u32 %%p1, %%r1, 0;\n\tsetp.lt.u32 %%p2, %%r2, %%r3;\n\tsetp.gt.s32 %%p3, %%r3, %%r4;\n"
		   "\tsetp.eq.u32 %%p4, %%r4, 5;\n");
	fprintf(f, "\t%s\n", form);
	for (size_t c = 0; c < sizeof classes / sizeof classes[0]; c++)
		for (size_t i = 0; i < sizeof live / sizeof live[0]; i++)
			fprintf(f, "\tst.global%s [%%oa+%zu], %s%d;\n", classes[c].type, classes[c].base + i * classes[c].size,
				classes[c].prefix, live[i]);
	for (int p = 1; p <= 4; p++)
		fprintf(f, "\tselp.u32 %%r14, 1, 0, %%p%d;\n\tst.global.u32 [%%oa+%d], %%r14;\n", p, 208 + 4 * (p - 1));
	fprintf(f, "\tret;\n}\n");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen_forms DIR\n");
		return 2;
	}
	gate_forms();
	alu_forms();
	compare_forms();
	cvt_forms();
	mov_forms();
	ldst_forms();
	address_forms();
	atomic_forms();
	sync_forms();
	warp_forms();
	texture_forms();
	control_forms();
	char path[4096];
	snprintf(path, sizeof path, "%s/head.ptx", argv[1]);
	FILE *head = fopen(path, "w");
	snprintf(path, sizeof path, "%s/forms.tsv", argv[1]);
	FILE *idx = fopen(path, "w");
	if (!head || !idx) {
		perror("gen_forms");
		return 2;
	}
	fputs(module_head, head);
	fclose(head);
	for (int i = 0; i < nforms; i++) {
		snprintf(path, sizeof path, "%s/f_%d.ptx", argv[1], i);
		FILE *one = fopen(path, "w");
		if (!one) {
			perror(path);
			return 2;
		}
		kernel(one, i, forms[i]);
		fclose(one);
		fprintf(idx, "%d\t%s\n", i, forms[i]);
	}
	fclose(idx);
	return 0;
}
