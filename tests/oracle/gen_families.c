/* The random-kernel generator's issue-17 instruction families (split from
 * gen_kernels.c): integer bit operations, mul.hi, div/rem of every width,
 * the special functions and the IEEE f32/f64 sequences, double precision,
 * barriers and fences (gen_fam), and the wider integer forms (gen_ints). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gen_kernels.h"

/* Issue 17's families: integer bit operations, mul.hi, div/rem, the
 * special functions and double precision (float values made from and
 * turned back into %r values with cvt), barriers and fences. */

static void pos_len(char *buf, size_t n)
{
	if (chance(40))
		src(buf, n, C_R, false);
	else
		snprintf(buf, n, "%u", rnd(33));
}

/* div/rem.{u,s}{32,64,16}, the width from the register count: no new random choice (kernels without
 * division stay as they were); 64- and 16-bit operands are a and b converted, the result joins its pool */
static void gen_divrem(const char *op, const char *su, const char *a, const char *b)
{
	int w = b[0] != '%' ? 32 : next_r % 4 == 1 ? 64 : next_r % 4 == 3 ? 16 : 32, cls = w == 64 ? C_RD : C_RS;
	int x = w == 32 ? 0 : fresh(cls), y = w == 32 ? 0 : fresh(cls);
	const char *p = class_prefix[cls];
	if (w == 32) {
		out("\t%s.%s32 %%r%d, %s, %s;\n", op, su, fresh(C_R), a, b);
		return;
	}
	out("\tcvt.%s%d.%s32 %s%d, %s;\n\tcvt.%s%d.%s32 %s%d, %s;\n", su, w, su, p, x, a, su, w, su, p, y, b);
	out("\t%s.%s%d %s%d, %s%d, %s%d;\n", op, su, w, p, fresh(cls), p, x, p, y);
}

/* --defined: results PTX defines only -- a divisor that is positive and
 * nonzero (division by zero and INT_MIN / -1 are machine-specific) and
 * bar.sync only where every thread of the block reaches it (not inside a
 * branch or loop arm: nest 0). */
void gen_fam(int nest)
{
	static const char *const prmt_modes[] = { "", "", "", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16" };
	static const char *const sfu[] = { "sin.approx", "cos.approx", "ex2.approx", "lg2.approx", "rcp.approx",
		"sqrt.approx", "rsqrt.approx" };
	static const char *const dops[] = { "add", "sub", "mul", "min", "max", "fma.rn", "neg", "abs" };
	char a[24], b[24], c[24], e[24];
	ensure(C_R);
	src(a, sizeof a, C_R, false);
	src(b, sizeof b, C_R, chance(20));
	const char *su = chance(50) ? "u" : "s";
	switch (rnd(12)) {
	case 0: out("\tpopc.b32 %%r%d, %s;\n", fresh(C_R), a); break;
	case 1: out("\tclz.b32 %%r%d, %s;\n", fresh(C_R), a); break;
	case 2: out("\tbrev.b32 %%r%d, %s;\n", fresh(C_R), a); break;
	case 3: out("\tbfind%s.%s32 %%r%d, %s;\n", chance(30) ? ".shiftamt" : "", su, fresh(C_R), a); break;
	case 4:
		pos_len(c, sizeof c);
		pos_len(e, sizeof e);
		out("\tbfe.%s32 %%r%d, %s, %s, %s;\n", su, fresh(C_R), a, c, e);
		break;
	case 5:
		pos_len(c, sizeof c);
		pos_len(e, sizeof e);
		out("\tbfi.b32 %%r%d, %s, %s, %s, %s;\n", fresh(C_R), a, b, c, e);
		break;
	case 6: {
		const char *m = PICK(prmt_modes);
		if (*m == '\0' && chance(50))
			snprintf(c, sizeof c, "%u", rnd(0x10000));
		else
			src(c, sizeof c, C_R, false);
		out("\tprmt.b32%s %%r%d, %s, %s, %s;\n", m, fresh(C_R), a, b, c);
		break;
	}
	case 7: out("\tmul.hi.%s32 %%r%d, %s, %s;\n", su, fresh(C_R), a, b); break;
	case 8:
		if (defined_mode) {
			int d = fresh(C_R);
			out("\tand.b32 %%r%d, %s, 32767;\n\tor.b32 %%r%d, %%r%d, 1;\n", d, b, d, d);
			snprintf(b, sizeof b, "%%r%d", d);
		}
		gen_divrem(chance(50) ? "div" : "rem", su, a, b);
		break;
	case 9: {
		int x = ++next_f, y = ++next_f, z = ++next_f;
		out("\tcvt.rn.f32.%s32 %%f%d, %s;\n", su, x, a);
		if (chance(25)) {
			src(b, sizeof b, C_R, false);
			out("\tcvt.rn.f32.s32 %%f%d, %s;\n", y, b);
			/* .rn on every second full division, .rn.ftz on every
			 * fourth: from z, not a new random choice, so the other
			 * kernels stay as they were */
			const char *m = chance(50) ? "approx" : z % 2 ? "full" : z % 4 ? "rn" : "rn.ftz";
			out("\tdiv.%s.f32 %%f%d, %%f%d, %%f%d;\n", m, z, x, y);
		} else {
			const char *op = PICK(sfu), *ftz = chance(40) ? ".ftz" : "";
			/* the IEEE forms (ptxas's Newton sequences and slow paths),
			 * again chosen from z */
			if (z % 2 == 0 && strcmp(op, "sqrt.approx") == 0)
				op = "sqrt.rn", ftz = "";
			else if (z % 2 == 0 && strcmp(op, "rcp.approx") == 0)
				op = "rcp.rn", ftz = "";
			out("\t%s%s.f32 %%f%d, %%f%d;\n", op, ftz, z, x);
		}
		out("\tcvt.rzi.%s32.f32 %%r%d, %%f%d;\n", su, fresh(C_R), z);
		break;
	}
	case 10: {
		int x = ++next_fd, y = ++next_fd, z = ++next_fd, w = ++next_fd;
		const char *op = PICK(dops);
		out("\tcvt.rn.f64.%s32 %%fd%d, %s;\n", su, x, a);
		src(b, sizeof b, C_R, false);
		out("\tcvt.rn.f64.u32 %%fd%d, %s;\n", y, b);
		/* every second operation (z is 3 mod 4: by z / 4) becomes one of the f64 sequences
		 * (div.rn, rcp.rn, sqrt.rn, rsqrt.approx), chosen from z and the
		 * operation drawn, not a new random choice */
		if (z / 4 % 2 == 0 && (strcmp(op, "mul") == 0 || strcmp(op, "min") == 0))
			out("\tdiv.rn.f64 %%fd%d, %%fd%d, %%fd%d;\n", z, x, y);
		else if (z / 4 % 2 == 0 && (strcmp(op, "add") == 0 || strcmp(op, "sub") == 0))
			out("\trcp.rn.f64 %%fd%d, %%fd%d;\n", z, x);
		else if (z / 4 % 2 == 0 && (strcmp(op, "neg") == 0 || strcmp(op, "max") == 0))
			out("\tsqrt.rn.f64 %%fd%d, %%fd%d;\n", z, x);
		else if (z / 4 % 2 == 0)
			out("\trsqrt.approx.f64 %%fd%d, %%fd%d;\n", z, x);
		else if (strcmp(op, "neg") == 0 || strcmp(op, "abs") == 0)
			out("\t%s.f64 %%fd%d, %%fd%d;\n", op, z, x);
		else if (strcmp(op, "fma.rn") == 0)
			out("\tfma.rn.f64 %%fd%d, %%fd%d, %%fd%d, %%fd%d;\n", z, x, y, x);
		else
			out("\t%s.f64 %%fd%d, %%fd%d, %%fd%d;\n", op, z, x, y);
		if (chance(30))
			out("\tsetp.%s.f64 %%p%d, %%fd%d, %%fd%d;\n", chance(50) ? "lt" : "geu", fresh(C_P), z, y);
		if (chance(30)) {
			out("\tcvt.rn.f32.f64 %%f%d, %%fd%d;\n", ++next_f, z);
			out("\tcvt.f64.f32 %%fd%d, %%f%d;\n", w, next_f);
			z = w;
		}
		out("\tcvt.rzi.%s32.f64 %%r%d, %%fd%d;\n", su, fresh(C_R), z);
		break;
	}
	default:
		if (chance(50) && (!defined_mode || nest == 0))
			out("\tbar.sync 0;\n");
		else
			out("\tmembar.%s;\n", chance(50) ? "cta" : "gl");
		break;
	}
}

/* issue 17's wider integer families (lower_ints.c): 64-bit multiplies,
 * mad.wide, 64-bit min/max, funnel shifts and carry chains (add.cc and its
 * addc/subc consumer kept adjacent, as the carry flag lives only between
 * them). */
void gen_ints(void)
{
	char a[24], b[24], c[24];
	ensure(C_RD);
	ensure(C_R);
	const char *su = chance(50) ? "u" : "s";
	switch (rnd(7)) {
	case 0:
		src(a, sizeof a, C_RD, false);
		src(b, sizeof b, C_RD, false);
		out("\tmul.lo.%s64 %%rd%d, %s, %s;\n", su, fresh(C_RD), a, b);
		break;
	case 1:
		src(a, sizeof a, C_RD, false);
		src(b, sizeof b, C_RD, false);
		src(c, sizeof c, C_RD, false);
		out("\tmad.lo.%s64 %%rd%d, %s, %s, %s;\n", su, fresh(C_RD), a, b, c);
		break;
	case 2: {
		src(a, sizeof a, C_R, false);
		src(b, sizeof b, C_R, false);
		src(c, sizeof c, C_RD, false);
		/* fmisc: every fourth destination a 64-bit shift of an immediate
		 * by a register instead, chosen from the register number, not a
		 * new random choice, so the other kernels stay as they were */
		int d = fresh(C_RD);
		if (d % 4 == 0)
			out("\t%s %%rd%d, %s, %s;\n", d % 8 ? "shl.b64" : *su == 'u' ? "shr.u64" : "shr.s64", d,
			    d % 3 ? "-5" : "0x123456789", a);
		else
			out("\tmad.wide.%s32 %%rd%d, %s, %s, %s;\n", su, d, a, b, c);
		break;
	}
	case 3:
		src(a, sizeof a, C_RD, false);
		src(b, sizeof b, C_RD, false);
		out("\tmul.hi.u64 %%rd%d, %s, %s;\n", fresh(C_RD), a, b);
		break;
	case 4:
		src(a, sizeof a, C_RD, false);
		src(b, sizeof b, C_RD, chance(20));
		out("\t%s.%s64 %%rd%d, %s, %s;\n", chance(50) ? "min" : "max", su, fresh(C_RD), a, b);
		break;
	case 5:
		src(a, sizeof a, C_R, false);
		src(b, sizeof b, C_R, false);
		if (chance(40))
			snprintf(c, sizeof c, "%u", rnd(40));
		else
			src(c, sizeof c, C_R, false);
		out("\tshf.%c.%s.b32 %%r%d, %s, %s, %s;\n", chance(50) ? 'l' : 'r', chance(50) ? "wrap" : "clamp",
		    fresh(C_R), a, b, c);
		break;
	default: {
		bool sub = chance(50);
		src(a, sizeof a, C_R, false);
		src(b, sizeof b, C_R, chance(20));
		out("\t%s.cc.u32 %%r%d, %s, %s;\n", sub ? "sub" : "add", fresh(C_R), a, b);
		src(a, sizeof a, C_R, false);
		src(b, sizeof b, C_R, false);
		out("\t%sc.u32 %%r%d, %s, %s;\n", sub ? "sub" : "add", fresh(C_R), a, b);
		break;
	}
	}
}
