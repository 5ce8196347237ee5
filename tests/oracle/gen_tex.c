/* The random-kernel generator's texture instructions (--tex, issue 17):
 * tex (1d, 2d, 3d, a1d, a2d; .s32/.u32/.f32 results, .s32/.f32
 * coordinates), tex.level, tex.grad, tld4 and txq, some with PTX's texel
 * offsets operand (immediates in range or %r values), some with a depth
 * reference (tex of float coordinates but 3d, tex.level, tld4: the .DC
 * forms), through the module's
 * bound .texrefs (unified texture mode) and a bindless .u64 handle, a
 * kernel parameter of its own.
 *
 * The textures are read-only: the .texrefs sort after the .surfrefs (the
 * simulator gives them surfaces of their own, tests/sim/sim_main.c) and
 * the handle parameter is used for nothing else, so no texture fetch
 * reads bytes a surface store of the kernel writes. Results are bits
 * (float ones moved to %r values), so any coordinate is defined: the
 * default sampler clamps to the edge. */
#include <stdio.h>
#include <string.h>

#include "gen_kernels.h"

bool tex_enabled;
static int ntexrefs;
static int handle_reg;   /* this kernel's bindless handle (%rd), 0 for none */

void gen_module_tex(void)
{
	ntexrefs = 1 + (int)rnd(2);
	for (int i = 0; i < ntexrefs; i++)
		out(".global .texref tref%d;\n", i);
}

void gen_kernel_tex_param(int k) { out(",\n\t.param .u64 k%d_tex", k); }

void gen_kernel_tex(int k)
{
	handle_reg = ++next_rd;
	out("\tld.param.u64 %%rd%d, [k%d_tex];\n", handle_reg, k);
}

static void handle(char *buf, size_t n)
{
	if (chance(50))
		snprintf(buf, n, "tref%u", rnd((uint32_t)ntexrefs));
	else
		snprintf(buf, n, "%%rd%d", handle_reg);
}

/* A float value made from a %r value. */
static int float_of_int(void)
{
	char a[24];
	src(a, sizeof a, C_R, false);
	out("\tcvt.rn.f32.s32 %%f%d, %s;\n", ++next_f, a);
	return next_f;
}

/* "{c, ...}" of n coordinates (float or int), the array layer (an int)
 * first when layered, the last repeated to fill a 4-vector; `last` gets
 * the last coordinate (the depth reference's candidate). */
static void coords(char *buf, size_t size, int n, bool fl, bool layered, char last[24])
{
	last[0] = '\0';
	size_t len = (size_t)snprintf(buf, size, "{");
	int total = n + layered, slots = total == 3 ? 4 : total;
	for (int i = 0; i < slots; i++) {
		char c[24];
		if (layered && i == 0)
			src(c, sizeof c, C_R, false);
		else if (i >= total || (fl && last[0] && chance(30)))
			snprintf(c, sizeof c, "%s", last);
		else if (fl)
			snprintf(c, sizeof c, "%%f%d", float_of_int());
		else
			src(c, sizeof c, C_R, false);
		if (!(layered && i == 0))
			snprintf(last, 24, "%s", c);
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "", c);
	}
	snprintf(buf + len, size - len, "}");
}

/* The four results: %r registers, or %f ones moved to %r values. */
static void results(char *buf, size_t size, bool fl, int f[4])
{
	if (fl) {
		for (int i = 0; i < 4; i++)
			f[i] = ++next_f;
		snprintf(buf, size, "{%%f%d, %%f%d, %%f%d, %%f%d}", f[0], f[1], f[2], f[3]);
	} else {
		int r[4];
		for (int i = 0; i < 4; i++)
			r[i] = fresh(C_R);
		snprintf(buf, size, "{%%r%d, %%r%d, %%r%d, %%r%d}", r[0], r[1], r[2], r[3]);
	}
}

/* ", {dx, ...}" of n texel offsets (3d: four, the last repeated), each an
 * immediate in the field's range (4 bits; tld4: 6) or a %r value of the
 * pool; "" for none (seven lookups in ten). Drawn from the second stream
 * (rnd_side), so the other choices of a seed stay as they were. */
static void offsets(char *buf, size_t size, int n, bool gather)
{
	buf[0] = '\0';
	if (rnd_side(100) >= 30 || depth[C_R] == 0)
		return;
	int slots = n == 3 ? 4 : n, span = gather ? 64 : 16;
	size_t len = (size_t)snprintf(buf, size, ", {");
	char last[24] = "";
	for (int i = 0; i < slots; i++) {
		char c[24];
		if (i >= n)
			snprintf(c, sizeof c, "%s", last);
		else if (rnd_side(2))
			snprintf(c, sizeof c, "%d", (int)rnd_side((uint32_t)span) - span / 2);
		else
			snprintf(c, sizeof c, "%%r%d", pool[C_R][rnd_side((uint32_t)depth[C_R])]);
		snprintf(last, sizeof last, "%s", c);
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "", c);
	}
	snprintf(buf + len, size - len, "}");
}

/* ", f": the depth reference of a float lookup (one in four), a float
 * coordinate's register: the simulator's compare (reference <= texel)
 * then sees values on both sides of the texels. Drawn from the second
 * stream, as the offsets. */
static void depth_ref(char *buf, size_t size, const char *last)
{
	buf[0] = '\0';
	if (rnd_side(100) < 25)
		snprintf(buf, size, ", %s", last);
}

static void float_results_to_pool(bool fl, const int f[4])
{
	for (int i = 0; fl && i < 4; i++)
		if (i == 0 || chance(50))
			out("\tmov.b32 %%r%d, %%f%d;\n", fresh(C_R), f[i]);
}

void gen_tex_stmt(void)
{
	static const char *const geoms[] = { "1d", "2d", "3d", "a1d", "a2d" };
	static const char *const dtypes[] = { "s32", "u32", "f32" };
	char h[24], c[96], d[96], o[96], last[24], dc[32] = "";
	int f[4];
	ensure(C_R);
	handle(h, sizeof h);
	int kind = (int)rnd(8);
	const char *dt = PICK(dtypes);
	bool fl = strcmp(dt, "f32") == 0;
	if (kind < 4) {
		const char *g = PICK(geoms);
		int n = g[0] == 'a' ? (g[1] == '1' ? 1 : 2) : g[0] - '0';
		bool fc = chance(60);
		coords(c, sizeof c, n, fc, g[0] == 'a', last);
		offsets(o, sizeof o, n, false);
		if (fc && n != 3)
			depth_ref(dc, sizeof dc, last);
		results(d, sizeof d, fl, f);
		out("\ttex.%s.v4.%s.%s %s, [%s, %s]%s%s;\n", g, dt, fc ? "f32" : "s32", d, h, c, o, dc);
	} else if (kind == 4) {
		int n = 1 + (int)rnd(2);
		bool fc = chance(60);
		char lv[24];
		coords(c, sizeof c, n, fc, false, last);
		if (fc)
			snprintf(lv, sizeof lv, "%s", chance(50) ? "0f00000000" : "0f3f800000");
		else
			src(lv, sizeof lv, C_R, true);
		offsets(o, sizeof o, n, false);
		if (fc)
			depth_ref(dc, sizeof dc, last);
		results(d, sizeof d, fl, f);
		out("\ttex.level.%dd.v4.%s.%s %s, [%s, %s], %s%s%s;\n", n, dt, fc ? "f32" : "s32", d, h, c, lv, o, dc);
	} else if (kind == 5) {
		int n = 1 + (int)rnd(2);
		char gx[48], gy[48];
		coords(c, sizeof c, n, true, false, last);
		coords(gx, sizeof gx, n, true, false, last);
		coords(gy, sizeof gy, n, true, false, last);
		offsets(o, sizeof o, n, false);
		fl = true;
		results(d, sizeof d, fl, f);
		out("\ttex.grad.%dd.v4.f32.f32 %s, [%s, %s], %s, %s%s;\n", n, d, h, c, gx, gy, o);
	} else if (kind == 6) {
		static const char *const comps[] = { "r", "g", "b", "a" };
		coords(c, sizeof c, 2, true, false, last);
		offsets(o, sizeof o, 2, true);
		depth_ref(dc, sizeof dc, last);
		results(d, sizeof d, fl, f);
		out("\ttld4.%s.2d.v4.%s.f32 %s, [%s, %s]%s%s;\n", PICK(comps), dt, d, h, c, o, dc);
	} else {
		static const char *const q[] = { "width", "height", "depth" };
		out("\ttxq.%s.b32 %%r%d, [%s];\n", PICK(q), fresh(C_R), h);
		return;
	}
	float_results_to_pool(fl, f);
}
