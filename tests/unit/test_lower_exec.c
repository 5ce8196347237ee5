/* Unit tests that run the back end's output: PTX assembled to raw sm_50
 * words and executed by the one-thread interpreter (sass_emu.h), each
 * result compared with C's own arithmetic. */
#include <check.h>
#include <math.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/assemble.h"
#include "front/parse.h"
#include "sass_emu.h"
#include "check_main.h"
#include "parse_helper.h"

#define PTX_HEAD ".version 7.8\n.target sm_50\n.address_size 64\n"

/* ---- execution of the assembled code -------------------------------------- */

static Emu EMU;

/* Assembles src (one kernel whose first parameter is the output pointer),
 * loads the 32-bit words `params` after it and runs thread `tid`. */
static void exec_ptx(const char *src, const uint32_t *params, size_t nparams, uint32_t tx)
{
	ck_assert_uint_eq(parse_str(src), 0);
	AssembleOptions o = { ASM_RAW, false, false, 0, false };
	uint8_t *img;
	size_t len;
	char *listing;
	int rc = assemble_module(&M, &D, &o, &img, &len, &listing);
	if (rc != 0) {
		diag_render_text(&D, stderr, &(DiagTextOptions){ false, true });
		ck_abort_msg("assembly failed");
	}
	memset(&EMU, 0, sizeof EMU);
	for (size_t i = 0; i < EMU_MEM / 2; i++)
		EMU.mem[EMU_MEM / 2 + i] = (uint8_t)(i * 37 + 11);     /* input data for loads */
	uint64_t out = EMU_MEM_BASE;
	memcpy(EMU.cbank + 0x140, &out, 8);
	memcpy(EMU.cbank + 0x148, params, 4 * nparams);
	EMU.tid[0] = tx;
	EMU.tid[1] = 2;
	EMU.tid[2] = 3;
	emu_run(&EMU, img, len);
	free(img);
	teardown();
}

static uint32_t mem32(size_t off)
{
	uint32_t v;
	memcpy(&v, EMU.mem + off, 4);
	return v;
}

static uint64_t mem64(size_t off)
{
	uint64_t v;
	memcpy(&v, EMU.mem + off, 8);
	return v;
}

/* Issue 17: the bit operations, mul.hi.u32 and the 32-bit division
 * sequences, run by the interpreter against C's operators. */
START_TEST(test_exec_bits_and_division)
{
	static const char src[] = PTX_HEAD
		".visible .entry k(.param .u64 o, .param .u32 pa, .param .u32 pb, .param .u32 pc)\n{\n"
		" .reg .b32 %r<32>;\n .reg .b64 %rd<4>;\n"
		" ld.param.u64 %rd1, [o];\n ld.param.u32 %r1, [pa];\n ld.param.u32 %r2, [pb];\n"
		" ld.param.u32 %r3, [pc];\n"
		" div.u32 %r4, %r1, %r2;\n st.global.u32 [%rd1], %r4;\n"
		" rem.u32 %r5, %r1, %r2;\n st.global.u32 [%rd1+4], %r5;\n"
		" div.s32 %r6, %r1, %r2;\n st.global.u32 [%rd1+8], %r6;\n"
		" rem.s32 %r7, %r1, %r2;\n st.global.u32 [%rd1+12], %r7;\n"
		" popc.b32 %r8, %r1;\n st.global.u32 [%rd1+16], %r8;\n"
		" clz.b32 %r9, %r2;\n st.global.u32 [%rd1+20], %r9;\n"
		" brev.b32 %r10, %r1;\n st.global.u32 [%rd1+24], %r10;\n"
		" bfind.u32 %r11, %r1;\n st.global.u32 [%rd1+28], %r11;\n"
		" bfind.s32 %r12, %r2;\n st.global.u32 [%rd1+32], %r12;\n"
		" bfind.shiftamt.u32 %r13, %r1;\n st.global.u32 [%rd1+36], %r13;\n"
		" and.b32 %r14, %r3, 31;\n bfe.u32 %r15, %r1, %r14, 7;\n st.global.u32 [%rd1+40], %r15;\n"
		" bfe.s32 %r16, %r2, %r14, 5;\n st.global.u32 [%rd1+44], %r16;\n"
		" bfi.b32 %r17, %r1, %r2, %r14, 9;\n st.global.u32 [%rd1+48], %r17;\n"
		" prmt.b32 %r18, %r1, %r2, 0x7531;\n st.global.u32 [%rd1+52], %r18;\n"
		" prmt.b32 %r19, %r1, %r2, %r3;\n st.global.u32 [%rd1+56], %r19;\n"
		" mul.hi.u32 %r20, %r1, %r2;\n st.global.u32 [%rd1+60], %r20;\n"
		" ret;\n}\n";
	static const uint32_t cases[][3] = {
		{ 100, 7, 5 }, { 0xffffffff, 3, 0x3210 }, { 0x80000000, 0xffffffff, 17 }, { 12345, 0, 0xba98 },
		{ 0x7fffffff, 0x10000, 40 }, { 0xdeadbeef, 0x00c0ffee, 0x4c1d }, { 5, 0xfffffff9, 0x8f0e },
		{ 0, 1, 0 }, { 0x9e3779b9, 0x12345, 0x1234 }, { 1, 1, 31 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint32_t a = cases[i][0], b = cases[i][1], c = cases[i][2];
		int32_t sa = (int32_t)a, sb = (int32_t)b;
		exec_ptx(src, cases[i], 3, 0);
		/* PTX leaves x / 0 undefined; the sequence gives ~0 for the quotient */
		if (b != 0) {
			ck_assert_uint_eq(mem32(0), a / b);
			ck_assert_uint_eq(mem32(4), a % b);
			if (!(sa == INT32_MIN && sb == -1)) {
				ck_assert_uint_eq(mem32(8), (uint32_t)(sa / sb));
				ck_assert_uint_eq(mem32(12), (uint32_t)(sa % sb));
			}
		}
		ck_assert_uint_eq(mem32(16), (uint32_t)__builtin_popcount(a));
		ck_assert_uint_eq(mem32(20), (b ? (uint32_t)__builtin_clz(b) : 32u));
		uint32_t rev = 0;
		for (int k = 0; k < 32; k++)
			rev |= ((a >> k) & 1) << (31 - k);
		ck_assert_uint_eq(mem32(24), rev);
		ck_assert_uint_eq(mem32(28), (a ? 31u - (uint32_t)__builtin_clz(a) : 0xffffffffu));
		uint32_t sbits = sb < 0 ? ~b : b;
		ck_assert_uint_eq(mem32(32), (sbits ? 31u - (uint32_t)__builtin_clz(sbits) : 0xffffffffu));
		ck_assert_uint_eq(mem32(36), (a ? (uint32_t)__builtin_clz(a) : 0xffffffffu));
		uint32_t pos = c & 31;
		uint32_t n = pos + 7 > 32 ? 32 - pos : 7;
		ck_assert_uint_eq(mem32(40), (a >> pos) & ((1u << n) - 1));
		uint32_t sn = pos + 5 > 32 ? 32 - pos : 5, field = (b >> pos) & ((1u << sn) - 1);
		if ((field >> (sn - 1)) & 1)
			field |= ~((1u << sn) - 1);
		ck_assert_uint_eq(mem32(44), field);
		uint32_t bn = pos + 9 > 32 ? 32 - pos : 9, mask = ((1u << bn) - 1) << pos;
		ck_assert_uint_eq(mem32(48), (b & ~mask) | ((a << pos) & mask));
		uint64_t bytes = (uint64_t)b << 32 | a;
		for (int sel_i = 0; sel_i < 2; sel_i++) {
			uint32_t sel = sel_i ? c : 0x7531, r = 0;
			for (int k = 0; k < 4; k++) {
				uint32_t s = (sel >> (4 * k)) & 0xf, byte = (uint32_t)(bytes >> (8 * (s & 7))) & 0xff;
				if (s & 8)
					byte = (byte & 0x80) ? 0xff : 0;
				r |= byte << (8 * k);
			}
			ck_assert_uint_eq(mem32(52 + 4 * (size_t)sel_i), r);
		}
		ck_assert_uint_eq(mem32(60), (uint32_t)(((uint64_t)a * b) >> 32));
	}
}
END_TEST

START_TEST(test_exec_integer_sequences)
{
	static const char src[] = PTX_HEAD
		".visible .entry k(.param .u64 o, .param .u32 pa, .param .u32 pb, .param .u32 pc)\n{\n"
		" .reg .pred %p<4>;\n .reg .b16 %h<4>;\n .reg .b32 %r<24>;\n .reg .b64 %rd<16>;\n"
		" ld.param.u64 %rd1, [o];\n ld.param.u32 %r1, [pa];\n ld.param.u32 %r2, [pb];\n"
		" ld.param.u32 %r3, [pc];\n"
		" mul.lo.s32 %r4, %r1, %r2;\n st.global.u32 [%rd1], %r4;\n"
		" mad.lo.s32 %r5, %r1, %r2, %r3;\n st.global.u32 [%rd1+4], %r5;\n"
		" mul.wide.u32 %rd2, %r1, %r2;\n st.global.u64 [%rd1+8], %rd2;\n"
		" mul.wide.s32 %rd3, %r1, %r2;\n st.global.u64 [%rd1+16], %rd3;\n"
		" mul.wide.s32 %rd4, %r1, 8;\n st.global.u64 [%rd1+24], %rd4;\n"
		" add.s64 %rd5, %rd3, %rd2;\n sub.s64 %rd5, %rd5, 0x123456789;\n st.global.u64 [%rd1+32], %rd5;\n"
		" shl.b64 %rd6, %rd3, 13;\n st.global.u64 [%rd1+40], %rd6;\n"
		" shr.s64 %rd7, %rd3, 37;\n st.global.u64 [%rd1+48], %rd7;\n"
		" shr.u64 %rd8, %rd3, 5;\n st.global.u64 [%rd1+56], %rd8;\n"
		" cvt.u16.u32 %h1, %r1;\n cvt.s64.s16 %rd9, %h1;\n st.global.u64 [%rd1+64], %rd9;\n"
		" cvt.s32.s8 %r6, %r2;\n st.global.u32 [%rd1+72], %r6;\n"
		" setp.lt.s32 %p1, %r1, %r2;\n selp.b32 %r7, %r3, 99, %p1;\n st.global.u32 [%rd1+76], %r7;\n"
		" neg.s64 %rd10, %rd3;\n st.global.u64 [%rd1+80], %rd10;\n"
		" shr.s32 %r8, %r1, %r3;\n st.global.u32 [%rd1+88], %r8;\n"
		" xor.b32 %r9, %r1, 0xdeadbeef;\n not.b32 %r9, %r9;\n st.global.u32 [%rd1+92], %r9;\n"
		" setp.ge.u32 %p2, %r1, %r2;\n or.pred %p3, %p1, %p2;\n selp.u32 %r10, 1, 0, %p3;\n"
		" xor.pred %p3, %p1, %p2;\n selp.u32 %r11, 2, 0, %p3;\n add.s32 %r10, %r10, %r11;\n"
		" and.pred %p3, %p1, %p2;\n selp.u32 %r11, 4, 0, %p3;\n add.s32 %r10, %r10, %r11;\n"
		" st.global.u32 [%rd1+96], %r10;\n"
		/* mov.pred constants, not.pred, a guarded or.pred (PSETP) */
		" mov.pred %p3, 0;\n @%p1 or.pred %p3, %p2, 1;\n selp.u32 %r14, 1, 0, %p3;\n"
		" mov.pred %p3, -1;\n not.pred %p3, %p3;\n selp.u32 %r15, 2, 0, %p3;\n add.s32 %r14, %r14, %r15;\n"
		" mov.pred %p3, %p2;\n selp.u32 %r15, 4, 0, %p3;\n add.s32 %r14, %r14, %r15;\n"
		" st.global.u32 [%rd1+104], %r14;\n"
		" mov.u32 %r12, 0;\n mov.u32 %r13, 0;\nLOOP:\n add.s32 %r13, %r13, %r12;\n"
		" add.s32 %r12, %r12, 1;\n setp.lt.u32 %p1, %r12, %r3;\n @%p1 bra LOOP;\n"
		" st.global.u32 [%rd1+100], %r13;\n ret;\n}\n";
	static const uint32_t cases[][3] = {
		{ 7, 9, 5 }, { 0x12345678, 0x9abcdef1, 3 }, { 0xfffffff3, 0x7fff1234, 17 },
		{ 0x80000000, 0xffffffff, 31 }, { 65535, 65537, 1 }, { 0xdeadbeef, 0x00c0ffee, 40 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint32_t a = cases[i][0], b = cases[i][1], c = cases[i][2];
		exec_ptx(src, cases[i], 3, 0);
		int32_t sa = (int32_t)a, sb = (int32_t)b;
		ck_assert_uint_eq(mem32(0), a * b);
		ck_assert_uint_eq(mem32(4), a * b + c);
		ck_assert(mem64(8) == (uint64_t)a * b);
		int64_t ws = (int64_t)sa * sb;
		ck_assert(mem64(16) == (uint64_t)ws);
		ck_assert(mem64(24) == (uint64_t)((int64_t)sa * 8));
		ck_assert(mem64(32) == (uint64_t)ws + (uint64_t)a * b - 0x123456789u);
		ck_assert(mem64(40) == (uint64_t)ws << 13);
		ck_assert(mem64(48) == (uint64_t)(ws >> 37));
		ck_assert(mem64(56) == (uint64_t)ws >> 5);
		ck_assert(mem64(64) == (uint64_t)(int64_t)(int16_t)a);
		ck_assert_uint_eq(mem32(72), (uint32_t)(int32_t)(int8_t)b);
		ck_assert_uint_eq(mem32(76), sa < sb ? c : 99);
		ck_assert(mem64(80) == (uint64_t)-ws);
		ck_assert_uint_eq(mem32(88), (uint32_t)(sa >> (c > 31 ? 31 : c)));
		ck_assert_uint_eq(mem32(92), ~(a ^ 0xdeadbeefu));
		bool p1 = sa < sb, p2 = a >= b;
		ck_assert_uint_eq(mem32(96), (p1 || p2 ? 1u : 0u) + (p1 != p2 ? 2u : 0u) + (p1 && p2 ? 4u : 0u));
		uint32_t sum = 0, j = 0;
		do
			sum += j++;
		while (j < c);
		ck_assert_uint_eq(mem32(100), sum);
		ck_assert_uint_eq(mem32(104), (p1 ? 1u : 0u) + (p2 ? 4u : 0u));
	}
}
END_TEST

START_TEST(test_exec_surfaces)
{
	static const char src[] = PTX_HEAD ".global .surfref s;\n"
		".visible .entry k(.param .u64 o, .param .u32 pa, .param .u64 h)\n{\n"
		" .reg .b16 %h<10>;\n .reg .b32 %r<24>;\n .reg .b64 %rd<8>;\n"
		" ld.param.u64 %rd1, [o];\n ld.param.u32 %r1, [pa];\n ld.param.u64 %rd2, [h];\n"
		" mov.u32 %r2, %tid.x;\n shl.b32 %r3, %r2, 2;\n"
		" cvt.u16.u32 %h1, %r1;\n shr.u32 %r4, %r1, 8;\n cvt.u16.u32 %h2, %r4;\n"
		" shr.u32 %r4, %r1, 16;\n cvt.u16.u32 %h3, %r4;\n shr.u32 %r4, %r1, 24;\n cvt.u16.u32 %h4, %r4;\n"
		" sust.b.1d.v4.b8.trap [s, {%r3}], {%h4, %h3, %h2, %h1};\n"
		" suld.b.1d.v4.b8.trap {%h5, %h6, %h7, %h8}, [s, {%r3}];\n"
		" st.global.v4.u16 [%rd1], {%h5, %h6, %h7, %h8};\n"
		" mov.u32 %r5, %tid.y;\n mov.u32 %r6, %tid.z;\n add.s32 %r7, %r1, 1;\n"
		" sust.b.a2d.v2.b32.trap [s, {%r6, %r3, %r5, %r5}], {%r1, %r7};\n"
		" suld.b.a2d.v2.b32.trap {%r8, %r9}, [s, {%r6, %r3, %r5, %r5}];\n"
		" st.global.v2.u32 [%rd1+8], {%r8, %r9};\n"
		" sured.b.add.2d.u32.trap [%rd2, {%r3, %r5}], %r1;\n"
		" sured.b.add.2d.u32.trap [%rd2, {%r3, %r5}], %r7;\n"
		" suld.b.2d.b32.trap {%r10}, [%rd2, {%r3, %r5}];\n st.global.u32 [%rd1+16], %r10;\n"
		" suq.width.b32 %r11, [s];\n suq.height.b32 %r12, [%rd2];\n"
		" st.global.v2.u32 [%rd1+20], {%r11, %r12};\n ret;\n}\n";
	uint32_t params[3] = { 0xa1b2c3d4, 0, 0 };
	exec_ptx(src, params, 3, 5);
	uint16_t h[4];
	memcpy(h, EMU.mem, 8);
	ck_assert_uint_eq(h[0], 0xa1);
	ck_assert_uint_eq(h[1], 0xb2);
	ck_assert_uint_eq(h[2], 0xc3);
	ck_assert_uint_eq(h[3], 0xd4);
	/* the byte at x = 4*5 holds the first vector element */
	uint32_t slot_idx = 0x158 / 4;     /* params end at 0x158 */
	ck_assert_uint_eq(EMU.surf[slot_idx % 4][20], 0xa1);
	ck_assert_uint_eq(mem32(8), 0xa1b2c3d4);
	ck_assert_uint_eq(mem32(12), 0xa1b2c3d5);
	/* a2d: x = 20 bytes, y = tid.y = 2, layer = tid.z = 3 */
	uint32_t word;
	memcpy(&word, EMU.surf[slot_idx % 4] + 20 + 2 * EMU_SURF_W + 3 * EMU_SURF_W * EMU_SURF_H, 4);
	ck_assert_uint_eq(word, 0xa1b2c3d4);
	ck_assert_uint_eq(mem32(16), 2 * 0xa1b2c3d4u + 1);
	ck_assert_uint_eq(mem32(20), EMU_SURF_W);
	ck_assert_uint_eq(mem32(24), EMU_SURF_H);
}
END_TEST

static float memf(size_t off)
{
	return emu_f(mem32(off));
}

/* Equal bits, or both NaN (the hardware's NaN is canonical, C's is not). */
static bool same_float(float x, float y)
{
	return (isnan(x) && isnan(y)) || emu_bits(x) == emu_bits(y);
}

/* The float lowering run on the interpreter: operand order and negation of
 * sub (register and immediate on either side), neg/abs, fma with a
 * parameter addend, min/max, the FSETP comparisons, .sat, and the
 * conversions with their rounding and saturation. */
START_TEST(test_exec_float_sequences)
{
	static const char src[] = PTX_HEAD
		".visible .entry k(.param .u64 o, .param .f32 pa, .param .f32 pb, .param .f32 pc)\n{\n"
		" .reg .pred %p<4>;\n .reg .f32 %f<24>;\n .reg .b32 %r<12>;\n .reg .b64 %rd<4>;\n"
		" ld.param.u64 %rd1, [o];\n ld.param.f32 %f1, [pa];\n ld.param.f32 %f2, [pb];\n"
		" ld.param.f32 %f3, [pc];\n"
		" add.f32 %f4, %f1, %f2;\n st.global.f32 [%rd1], %f4;\n"
		" sub.f32 %f5, %f1, %f2;\n st.global.f32 [%rd1+4], %f5;\n"
		" sub.f32 %f6, 0f3FC00000, %f1;\n st.global.f32 [%rd1+8], %f6;\n"
		" sub.f32 %f7, %f2, 0f3DCCCCCD;\n st.global.f32 [%rd1+12], %f7;\n"
		" mul.f32 %f8, %f1, %f2;\n mul.f32 %f8, 0f40400000, %f8;\n st.global.f32 [%rd1+16], %f8;\n"
		" fma.rn.f32 %f9, %f1, %f2, %f3;\n st.global.f32 [%rd1+20], %f9;\n"
		" neg.f32 %f10, %f1;\n abs.f32 %f11, %f10;\n add.f32 %f11, %f11, %f10;\n"
		" st.global.f32 [%rd1+24], %f10;\n st.global.f32 [%rd1+28], %f11;\n"
		" min.f32 %f12, %f1, %f2;\n max.f32 %f13, %f1, 0f00000000;\n"
		" st.global.f32 [%rd1+32], %f12;\n st.global.f32 [%rd1+36], %f13;\n"
		" add.sat.f32 %f14, %f1, %f2;\n st.global.f32 [%rd1+40], %f14;\n"
		" setp.lt.f32 %p1, %f1, %f2;\n setp.gtu.f32 %p2, %f3, 0f40000000;\n"
		" setp.nan.or.f32 %p3, %f2, %f3, %p2;\n"
		" selp.u32 %r1, 1, 0, %p1;\n selp.u32 %r2, 2, 0, %p2;\n selp.u32 %r3, 4, 0, %p3;\n"
		" add.s32 %r1, %r1, %r2;\n add.s32 %r1, %r1, %r3;\n st.global.u32 [%rd1+44], %r1;\n"
		" cvt.rzi.s32.f32 %r4, %f1;\n st.global.u32 [%rd1+48], %r4;\n"
		" cvt.rmi.s32.f32 %r5, %f1;\n st.global.u32 [%rd1+52], %r5;\n"
		" cvt.rni.u32.f32 %r6, %f2;\n st.global.u32 [%rd1+56], %r6;\n"
		" cvt.rn.f32.s32 %f15, %r5;\n st.global.f32 [%rd1+60], %f15;\n"
		" cvt.rpi.s64.f32 %rd2, %f3;\n st.global.u64 [%rd1+64], %rd2;\n"
		" cvt.rn.f32.s64 %f16, %rd2;\n st.global.f32 [%rd1+72], %f16;\n"
		" max.s32 %r7, %r4, -3;\n min.u32 %r8, %r6, %r5;\n"
		" st.global.u32 [%rd1+76], %r7;\n st.global.u32 [%rd1+80], %r8;\n"
		" sub.f32 %f17, %f1, %f4;\n st.global.f32 [%rd1+84], %f17;\n"
		" sub.f32 %f18, %f4, %f2;\n st.global.f32 [%rd1+88], %f18;\n ret;\n}\n";
	static const float cases[][3] = {
		{ 1.5f, 2.25f, -7.75f }, { -3.7f, 0.1f, 2.5f }, { 1e30f, -1e30f, 3e9f },
		{ 0.25f, NAN, -0.0f }, { -2.5f, -2.5f, 1e-3f },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		float a = cases[i][0], b = cases[i][1], c = cases[i][2];
		uint32_t params[3] = { emu_bits(a), emu_bits(b), emu_bits(c) };
		exec_ptx(src, params, 3, 0);
		ck_assert_msg(same_float(memf(0), a + b), "offset 0, case %zu", i);
		ck_assert_msg(same_float(memf(4), a - b), "offset 4, case %zu", i);
		ck_assert_msg(same_float(memf(8), 1.5f - a), "offset 8, case %zu", i);
		ck_assert_msg(same_float(memf(12), b - 0.1f), "offset 12, case %zu", i);
		ck_assert_msg(same_float(memf(16), 3.0f * (a * b)), "offset 16, case %zu", i);
		ck_assert_msg(same_float(memf(20), fmaf(a, b, c)), "offset 20, case %zu", i);
		ck_assert_msg(same_float(memf(24), -a), "offset 24, case %zu", i);
		ck_assert_msg(same_float(memf(28), fabsf(a) + -a), "offset 28, case %zu", i);
		ck_assert_msg(same_float(memf(32), fminf(a, b)), "offset 32, case %zu", i);
		ck_assert_msg(same_float(memf(36), fmaxf(a, 0.0f)), "offset 36, case %zu", i);
		float s = a + b;
		ck_assert_msg(same_float(memf(40), isnan(s) || s < 0 ? 0.0f : s > 1 ? 1.0f : s), "offset 40, case %zu", i);
		bool p1 = a < b, p2 = !(c <= 2.0f), p3 = isnan(b) || isnan(c) || p2;
		ck_assert_uint_eq(mem32(44), (p1 ? 1u : 0u) + (p2 ? 2u : 0u) + (p3 ? 4u : 0u));
		int32_t rz = (int32_t)truncf(a), rm = (int32_t)floorf(a);
		uint32_t rn = isnan(b) || b < 0 ? 0 : (uint32_t)rintf(b);
		int64_t rp = c > 9.2e18f ? INT64_MAX : (int64_t)ceilf(c);
		ck_assert_uint_eq(mem32(48), (uint32_t)(fabsf(a) > 2.1e9f ? (a < 0 ? INT32_MIN : INT32_MAX) : rz));
		ck_assert_uint_eq(mem32(52), (uint32_t)(fabsf(a) > 2.1e9f ? (a < 0 ? INT32_MIN : INT32_MAX) : rm));
		ck_assert_uint_eq(mem32(56), rn);
		ck_assert_msg(same_float(memf(60), (float)(int32_t)mem32(52)), "offset 60, case %zu", i);
		ck_assert(mem64(64) == (uint64_t)rp);
		ck_assert_msg(same_float(memf(72), (float)rp), "offset 72, case %zu", i);
		ck_assert_uint_eq(mem32(76), (uint32_t)((int32_t)mem32(48) > -3 ? (int32_t)mem32(48) : -3));
		ck_assert_uint_eq(mem32(80), mem32(56) < mem32(52) ? mem32(56) : mem32(52));
		/* a parameter operand is moved second: the negation must follow */
		ck_assert_msg(same_float(memf(84), a - (a + b)), "sub param - reg, case %zu", i);
		ck_assert_msg(same_float(memf(88), (a + b) - b), "sub reg - param, case %zu", i);
	}
}
END_TEST

START_TEST(test_exec_global_loads)
{
	static const char src[] = PTX_HEAD
		".visible .entry k(.param .u64 o, .param .u64 in)\n{\n"
		" .reg .b16 %h<4>;\n .reg .b32 %r<24>;\n .reg .b64 %rd<8>;\n"
		" ld.param.u64 %rd1, [o];\n ld.param.u64 %rd2, [in];\n"
		" ld.global.u32 %r1, [%rd2];\n ld.global.s8 %r2, [%rd2+5];\n ld.global.nc.u16 %h1, [%rd2+6];\n"
		" ld.global.v4.u32 {%r3, %r4, %r5, %r6}, [%rd2+16];\n ld.global.cg.v2.u8 {%h2, %h3}, [%rd2+34];\n"
		" ld.global.volatile.u64 %rd3, [%rd2+40];\n ld.global.u32 %r7, [%rd2+16777220];\n"
		" st.global.u32 [%rd1], %r1;\n st.global.u32 [%rd1+4], %r2;\n st.global.u16 [%rd1+8], %h1;\n"
		" st.global.v4.u32 [%rd1+16], {%r6, %r5, %r4, %r3};\n st.global.v2.u16 [%rd1+32], {%h3, %h2};\n"
		" st.global.u64 [%rd1+40], %rd3;\n ret;\n}\n";
	uint32_t in[2] = { EMU_MEM_BASE + EMU_MEM / 2, 0 };
	exec_ptx(src, in, 2, 0);
	const uint8_t *src_mem = EMU.mem + EMU_MEM / 2;
	uint32_t w;
	memcpy(&w, src_mem, 4);
	ck_assert_uint_eq(mem32(0), w);
	ck_assert_uint_eq(mem32(4), (uint32_t)(int32_t)(int8_t)src_mem[5]);
	ck_assert_uint_eq(EMU.mem[8] | EMU.mem[9] << 8, src_mem[6] | src_mem[7] << 8);
	for (int i = 0; i < 4; i++) {
		memcpy(&w, src_mem + 16 + 4 * i, 4);
		ck_assert_uint_eq(mem32(16 + 4 * (3 - i)), w);
	}
	ck_assert_uint_eq(EMU.mem[32], src_mem[35]);
	ck_assert_uint_eq(EMU.mem[34], src_mem[34]);
	ck_assert(memcmp(EMU.mem + 40, src_mem + 40, 8) == 0);
}
END_TEST

/* Issue 17's wider integer families (lower_ints.c) on the interpreter:
 * 64-bit multiplies, mad.wide, mul.hi.u64, mad.hi, 64-bit min/max and the
 * carry chains, against C's operators. */
START_TEST(test_exec_wide_integers)
{
	static const char src[] = PTX_HEAD
		".visible .entry k(.param .u64 o, .param .u32 pa, .param .u32 pb, .param .u32 pc, .param .u32 pd)\n{\n"
		" .reg .b32 %r<32>;\n .reg .b64 %rd<16>;\n"
		" ld.param.u64 %rd1, [o];\n ld.param.u32 %r1, [pa];\n ld.param.u32 %r2, [pb];\n"
		" ld.param.u32 %r3, [pc];\n ld.param.u32 %r4, [pd];\n"
		" mov.b64 %rd2, {%r1, %r2};\n mov.b64 %rd3, {%r3, %r4};\n"
		" mul.lo.u64 %rd4, %rd2, %rd3;\n st.global.u64 [%rd1], %rd4;\n"
		" mad.lo.u64 %rd5, %rd2, %rd3, %rd2;\n st.global.u64 [%rd1+8], %rd5;\n"
		" mad.wide.u32 %rd6, %r1, %r3, %rd3;\n st.global.u64 [%rd1+16], %rd6;\n"
		" mul.hi.u64 %rd7, %rd2, %rd3;\n st.global.u64 [%rd1+24], %rd7;\n"
		" min.u64 %rd8, %rd2, %rd3;\n st.global.u64 [%rd1+32], %rd8;\n"
		" max.s64 %rd9, %rd2, %rd3;\n st.global.u64 [%rd1+40], %rd9;\n"
		" mad.hi.u32 %r5, %r1, %r2, %r3;\n st.global.u32 [%rd1+48], %r5;\n"
		" add.cc.u32 %r6, %r1, %r3;\n addc.u32 %r7, %r2, %r4;\n"
		" st.global.u32 [%rd1+52], %r6;\n st.global.u32 [%rd1+56], %r7;\n"
		" sub.cc.u32 %r8, %r1, %r3;\n subc.u32 %r9, %r2, %r4;\n"
		" st.global.u32 [%rd1+60], %r8;\n st.global.u32 [%rd1+64], %r9;\n"
		" mad.lo.cc.u32 %r10, %r1, %r2, %r3;\n madc.hi.u32 %r11, %r1, %r2, %r4;\n"
		" st.global.u32 [%rd1+68], %r10;\n st.global.u32 [%rd1+72], %r11;\n"
		" ret;\n}\n";
	static const uint32_t cases[][4] = {
		{ 100, 7, 5, 3 }, { 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff }, { 0x80000000, 0, 0x7fffffff, 0 },
		{ 0xdeadbeef, 0x00c0ffee, 0x12345678, 0x9abcdef0 }, { 0, 0, 0, 0 }, { 5, 0xfffffff9, 5, 0xfffffff9 },
		{ 0x9e3779b9, 0x7f4a7c15, 0xf39cc060, 0x5ced1e0b }, { 1, 0x80000000, 2, 0x80000000 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint32_t a = cases[i][0], b = cases[i][1], c = cases[i][2], d = cases[i][3];
		uint64_t x = (uint64_t)b << 32 | a, y = (uint64_t)d << 32 | c;
		exec_ptx(src, cases[i], 4, 0);
		ck_assert_uint_eq(mem64(0), x * y);
		ck_assert_uint_eq(mem64(8), x * y + x);
		ck_assert_uint_eq(mem64(16), (uint64_t)a * c + y);
		ck_assert_uint_eq(mem64(24), (uint64_t)(((unsigned __int128)x * y) >> 64));
		ck_assert_uint_eq(mem64(32), x < y ? x : y);
		ck_assert_uint_eq(mem64(40), (int64_t)x > (int64_t)y ? x : y);
		ck_assert_uint_eq(mem32(48), (uint32_t)((((uint64_t)a * b) >> 32) + c));
		uint64_t s = (uint64_t)x + y;
		ck_assert_uint_eq(mem32(52), (uint32_t)s);
		ck_assert_uint_eq(mem32(56), (uint32_t)(b + d + (((uint64_t)a + c) >> 32)));
		ck_assert_uint_eq(mem32(60), a - c);
		ck_assert_uint_eq(mem32(64), b - d - (a < c));
		uint64_t lo = (uint64_t)(uint32_t)(a * b) + c;
		ck_assert_uint_eq(mem32(68), (uint32_t)lo);
		ck_assert_uint_eq(mem32(72), (uint32_t)((((uint64_t)a * b) >> 32) + d + (lo >> 32)));
	}
}
END_TEST

static Suite *lower_exec_suite(void)
{
	Suite *s = suite_create("lower_exec");
	TCase *tc = tcase_create("exec");
	tcase_add_test(tc, test_exec_integer_sequences);
	tcase_add_test(tc, test_exec_surfaces);
	tcase_add_test(tc, test_exec_global_loads);
	tcase_add_test(tc, test_exec_float_sequences);
	tcase_add_test(tc, test_exec_bits_and_division);
	tcase_add_test(tc, test_exec_wide_integers);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(lower_exec_suite)
