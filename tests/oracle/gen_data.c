/* The random-kernel generator's module data and state spaces (--data,
 * issue 15): module .const arrays with initialisers read by ld.const
 * (immediate and register addresses, vectors, 64-bit words), module
 * .global arrays with initialisers (one read-only, one each thread reads
 * and writes in its own slot), a module static .shared array, a kernel
 * .local array (ld/st.shared and ld/st.local through [var+off] and
 * register addresses), and generic ld/st through addresses made by cvta
 * from each of them (and back with cvta.to).
 *
 * Every access stays inside its variable, and in a thread's own slot
 * where threads write (--defined: thread (idx & 31) owns 16 bytes of
 * xsh and of gdat), so the kernels stay race-free; the .local array is
 * written whole before anything reads it. */
#include <stdio.h>
#include <string.h>

#include "gen_kernels.h"

bool data_enabled;
/* this kernel's registers: the shared slot's 32-bit address, the gdat
 * slot's 64-bit address and the lane times 16 as a 64-bit value (kept out
 * of the pools: no other statement changes them) */
static int sh_slot, g_slot, lane16_64;

static void word_list(int n)
{
	out("{");
	for (int i = 0; i < n; i++)
		out("%s%u", i ? ", " : "", rnd(4) == 0 ? rnd(8) : (rnd(65536) << 16 | rnd(65536)));
	out("}");
}

void gen_module_data(void)
{
	out(".const .align 8 .b32 cdat[32] = ");
	word_list(24 + (int)rnd(9));   /* the rest of the array is zero */
	out(";\n.const .align 8 .u64 cdat64[4] = {%u, %u, 0x123456789abcdef, %u};\n", rnd(1000), rnd(65536) << 16,
	    rnd(7));
	out(".global .align 4 .b32 grod[16] = ");
	word_list(16);
	out(";\n.global .align 16 .b32 gdat[128] = ");
	word_list(128);
	out(";\n.shared .align 16 .b8 xsh[512];\n");
}

/* The kernel's .local array and slot addresses, after its thread index. */
void gen_kernel_data(void)
{
	int lane = fresh(C_R), l16 = ++next_r, z = ++next_r;
	sh_slot = ++next_r, g_slot = ++next_rd, lane16_64 = ++next_rd;
	out("\tand.b32 %%r%d, %%r%d, 31;\n\tshl.b32 %%r%d, %%r%d, 4;\n", lane, idx_reg, l16, lane);
	out("\tmov.u32 %%r%d, xsh;\n\tadd.s32 %%r%d, %%r%d, %%r%d;\n", sh_slot, sh_slot, sh_slot, l16);
	out("\tcvt.u64.u32 %%rd%d, %%r%d;\n\tmov.u64 %%rd%d, gdat;\n\tadd.s64 %%rd%d, %%rd%d, %%rd%d;\n", lane16_64,
	    l16, g_slot, g_slot, g_slot, lane16_64);
	/* the local array and the shared slot written whole first */
	out("\tadd.s32 %%r%d, %%r%d, %u;\n", z, idx_reg, rnd(1000));
	for (int i = 0; i < 64; i += 16)
		out("\tst.local.v4.u32 [k%dxl+%d], {%%r%d, %%r%d, %%r%d, %%r%d};\n", kernel_no, i, z, lane, idx_reg, z);
	out("\tst.shared.v4.u32 [%%r%d], {%%r%d, %%r%d, %%r%d, %%r%d};\n", sh_slot, lane, z, z, idx_reg);
}

void gen_kernel_data_decl(void) { out("\t.local .align 16 .b8 k%dxl[64];\n", kernel_no); }

/* A load or store of `size` bytes (1, 2, 4, 8 (v2.u32), 16 (v4.u32)) in
 * space sp at address text a. */
static void access(const char *sp, const char *a, int size, bool store)
{
	const char *t = size == 1 ? "u8" : size == 2 ? "u16" : "u32";
	int vec = size <= 4 ? 1 : size / 4;
	const char *v = vec == 1 ? "" : vec == 2 ? ".v2" : ".v4";
	char d[96];
	size_t len = 0;
	ensure(C_R);
	if (vec > 1)
		len += (size_t)snprintf(d, sizeof d, "{");
	for (int i = 0; i < vec; i++) {
		char r[24];
		if (store)
			src(r, sizeof r, C_R, false);
		else
			snprintf(r, sizeof r, "%%r%d", fresh(C_R));
		len += (size_t)snprintf(d + len, sizeof d - len, "%s%s", i ? ", " : "", r);
	}
	if (vec > 1)
		snprintf(d + len, sizeof d - len, "}");
	if (store)
		out("\tst%s%s.%s [%s], %s;\n", sp, v, t, a, d);
	else
		out("\tld%s%s.%s %s, [%s];\n", sp, v, t, d, a);
}

static int pick_size(void)
{
	static const int sizes[] = { 1, 2, 4, 4, 4, 8, 16 };
	return PICK(sizes);
}

static void const_read(void)
{
	char a[48];
	if (chance(25)) {
		out("\tld.const.u64 %%rd%d, [cdat64+%u];\n", fresh(C_RD), rnd(4) * 8);
		return;
	}
	int size = chance(70) ? 4 : chance(50) ? 8 : 16;
	if (chance(50)) {
		snprintf(a, sizeof a, "cdat+%u", rnd((uint32_t)(128 / size)) * size);
	} else {
		/* a register address in the const space: cdat + (x & mask) */
		char x[24];
		src(x, sizeof x, C_R, false);
		int m = ++next_r, o = ++next_rd, b = ++next_rd;
		out("\tand.b32 %%r%d, %s, %d;\n\tcvt.u64.u32 %%rd%d, %%r%d;\n", m, x, 128 - size, o, m);
		out("\tmov.u64 %%rd%d, cdat;\n\tadd.s64 %%rd%d, %%rd%d, %%rd%d;\n", b, b, b, o);
		snprintf(a, sizeof a, "%%rd%d", b);
	}
	access(".const", a, size, false);
}

static void global_data(void)
{
	char a[48];
	if (chance(40)) {   /* the read-only table, read anywhere */
		int size = chance(70) ? 4 : 8;
		snprintf(a, sizeof a, "grod+%u", rnd((uint32_t)(64 / size)) * size);
		access(".global", a, size, false);
		return;
	}
	int size = pick_size();
	snprintf(a, sizeof a, "%%rd%d+%u", g_slot, rnd((uint32_t)(16 / size)) * size);
	access(".global", a, size, chance(50));
}

static void shared_data(void)
{
	char a[48];
	int size = pick_size();
	snprintf(a, sizeof a, "%%r%d+%u", sh_slot, rnd((uint32_t)(16 / size)) * size);
	access(".shared", a, size, chance(50));
}

static void local_data(void)
{
	char a[48];
	int size = pick_size();
	if (chance(50)) {
		snprintf(a, sizeof a, "k%dxl+%u", kernel_no, rnd((uint32_t)(64 / size)) * size);
	} else {
		/* a register address: k<n>xl + (x & mask), 32- or 64-bit */
		char x[24];
		src(x, sizeof x, C_R, false);
		int m = ++next_r;
		out("\tand.b32 %%r%d, %s, %d;\n", m, x, 64 - size);
		if (chance(50)) {
			int b = ++next_r;
			out("\tmov.u32 %%r%d, k%dxl;\n\tadd.s32 %%r%d, %%r%d, %%r%d;\n", b, kernel_no, b, b, m);
			snprintf(a, sizeof a, "%%r%d", b);
		} else {
			int o = ++next_rd, b = ++next_rd;
			out("\tcvt.u64.u32 %%rd%d, %%r%d;\n\tmov.u64 %%rd%d, k%dxl;\n\tadd.s64 %%rd%d, %%rd%d, %%rd%d;\n", o,
			    m, b, kernel_no, b, b, o);
			snprintf(a, sizeof a, "%%rd%d", b);
		}
	}
	access(".local", a, size, chance(50));
}

/* Generic ld/st through an address cvta made from a local, shared or
 * global variable (and sometimes back to its space with cvta.to). */
static void generic_data(void)
{
	char a[48];
	int size = pick_size(), g = ++next_rd, space = (int)rnd(3);
	bool store = chance(50);
	if (space == 0) {
		int o = ++next_rd;
		out("\tmov.u64 %%rd%d, k%dxl;\n\tcvta.local.u64 %%rd%d, %%rd%d;\n", g, kernel_no, g, g);
		out("\tadd.s64 %%rd%d, %%rd%d, %u;\n", o, g, rnd((uint32_t)(64 / 16)) * 16);
		g = o;
	} else if (space == 1) {
		int b = ++next_rd;
		out("\tmov.u64 %%rd%d, xsh;\n\tcvta.shared.u64 %%rd%d, %%rd%d;\n", b, b, b);
		out("\tadd.s64 %%rd%d, %%rd%d, %%rd%d;\n", g, b, lane16_64);
	} else {
		int b = ++next_rd;
		out("\tcvta.global.u64 %%rd%d, gdat;\n\tadd.s64 %%rd%d, %%rd%d, %%rd%d;\n", b, g, b, lane16_64);
	}
	if (chance(25)) {
		static const char *const sp[] = { ".local", ".shared", ".global" };
		int s = ++next_rd;
		out("\tcvta.to%s.u64 %%rd%d, %%rd%d;\n", sp[space], s, g);
		if (space == 1) {   /* a 32-bit shared address */
			int r = ++next_r;
			out("\tcvt.u32.u64 %%r%d, %%rd%d;\n", r, s);
			snprintf(a, sizeof a, "%%r%d+%u", r, rnd((uint32_t)(16 / size)) * size);
		} else {
			snprintf(a, sizeof a, "%%rd%d+%u", s, rnd((uint32_t)(16 / size)) * size);
		}
		access(sp[space], a, size, store);
		return;
	}
	snprintf(a, sizeof a, "%%rd%d+%u", g, rnd((uint32_t)(16 / size)) * size);
	access("", a, size, store);
}

void gen_data_stmt(void)
{
	switch (rnd(5)) {
	case 0: const_read(); break;
	case 1: global_data(); break;
	case 2: shared_data(); break;
	case 3: local_data(); break;
	default: generic_data(); break;
	}
}

/* A read of module data inside a function (its register r): the .const
 * or the read-only .global table at a fixed offset. */
void data_read_in_function(int r)
{
	if (chance(50))
		out("\tld.const.u32 %%r%d, [cdat+%u];\n", r, rnd(32) * 4);
	else
		out("\tld.global.u32 %%r%d, [grod+%u];\n", r, rnd(16) * 4);
}
