/* Unit tests of the choices that make our cubin match ptxas 11.8's for
 * kernels the random sweep (tests/oracle/kernel-sweep.sh) found diverging:
 * the .nv.info facts decided at lowering (BINDLESS_SURFACE_BANK,
 * EXPLICIT_CACHING, MAXREG_COUNT), the .nv.constant2 pool, and what
 * dead-code removal does to SULDs and to the pool. */
#include <check.h>

#include <stdlib.h>
#include <string.h>

#include "lower/lower.h"
#include "front/parse.h"
#include "lower/regalloc.h"
#include "check_main.h"
#include "parse_helper.h"

static LModule LM;

#define PTX_HEAD ".version 7.0\n.target sm_50\n.address_size 64\n.global .surfref s;\n"

/* Lowers a one-kernel module (no errors expected) and returns its kernel. */
static LKernel *lower1(const char *src)
{
	ck_assert_uint_eq(parse_str(src), 0);
	ck_assert_uint_eq(lower_module(&M, &D, &LM), 0);
	ck_assert_uint_eq(LM.nkernels, 1);
	return &LM.kernels[0];
}

static void done(void)
{
	lower_module_free(&LM);
	teardown();
}

static LKernel *lower_body(const char *directives, const char *body)
{
	static char src[4096];
	snprintf(src, sizeof src, PTX_HEAD ".visible .entry k(.param .u64 out, .param .u64 h)\n%s{\n"
	         " .reg .pred %%p<4>;\n .reg .b16 %%h<8>;\n .reg .b32 %%r<16>;\n .reg .b64 %%rd<8>;\n"
	         " ld.param.u64 %%rd1, [out];\n ld.param.u64 %%rd2, [h];\n mov.u32 %%r1, %%tid.x;\n"
	         "%s ret;\n}\n", directives, body);
	return lower1(src);
}

static const LInsn *find_op(const LKernel *k, SassOp op, int nth)
{
	for (size_t i = 0; i < k->ninsns; i++)
		if (k->insns[i].form->op == op && nth-- == 0)
			return &k->insns[i];
	return NULL;
}

START_TEST(test_bindless_only_for_bound_surfrefs)
{
	/* a parameter handle (folded to an immediate index) or a register
	 * handle: ptxas records no EIATTR_BINDLESS_SURFACE_BANK */
	LKernel *k = lower_body("", " sust.b.1d.b32.trap [%rd2, {%r1}], %r1;\n"
	                        " add.s64 %rd3, %rd2, 1;\n sust.b.1d.b32.trap [%rd3, {%r1}], %r1;\n");
	ck_assert(!k->uses_surfaces);
	done();
	/* suq.width of a bound surfref (TXQ) counts as a use of it */
	k = lower_body("", " suq.width.b32 %r2, [s];\n st.global.u32 [%rd1], %r2;\n");
	ck_assert(k->uses_surfaces);
	done();
	k = lower_body("", " sured.b.add.1d.u32.trap [s, {%r1}], %r1;\n");
	ck_assert(k->uses_surfaces);
	done();
}
END_TEST

START_TEST(test_explicit_caching_from_ld_ca)
{
	/* recorded for ld.global.ca even when the load is dead */
	LKernel *k = lower_body("", " ld.global.ca.u32 %r2, [%rd1];\n");
	ck_assert(k->explicit_caching);
	done();
	k = lower_body("", " ld.global.cg.u32 %r2, [%rd1];\n st.global.u32 [%rd1], %r2;\n"
	               " ld.global.cv.u32 %r3, [%rd1];\n st.global.u32 [%rd1], %r3;\n");
	ck_assert(!k->explicit_caching);
	done();
}
END_TEST

START_TEST(test_maxreg_from_thread_count)
{
	static const struct { const char *dirs; uint32_t regs; } cases[] = {
		{ "", 0 },                                   /* 0xff in .nv.info */
		{ ".maxntid 512, 1, 1\n", 128 },
		{ ".maxntid 1024, 1, 1\n", 64 },
		{ ".maxntid 384, 1, 1\n", 168 },
		{ ".maxntid 300, 1, 1\n", 168 },             /* 10 warps allocated as 12 */
		{ ".maxntid 96, 4, 2\n", 80 },
		{ ".maxntid 160, 1, 1\n", 0 },               /* 256 would exceed 255 */
		{ ".reqntid 640, 1, 1\n", 96 },
		{ ".maxntid 512, 1, 1\n.maxnreg 200\n", 200 }, /* .maxnreg wins */
		/* .minnctapersm: warps of all the blocks, allocated four at a time
		 * (ptxas 11.8, .maxntid 32..1024 x .minnctapersm 1..32: 1024/1024 equal) */
		{ ".maxntid 32, 1, 1\n.minnctapersm 8\n", 0 },      /* 8 warps: 256 */
		{ ".maxntid 32, 1, 1\n.minnctapersm 9\n", 168 },    /* 9 warps as 12 */
		{ ".maxntid 256, 1, 1\n.minnctapersm 8\n", 32 },
		{ ".reqntid 1024, 1, 1\n.minnctapersm 2\n", 32 },
		{ ".maxntid 65, 1, 1\n.minnctapersm 21\n", 32 },    /* 63 warps as 64 */
		{ ".maxntid 65, 1, 1\n.minnctapersm 22\n", 0 },     /* 66 warps > 64: ignored */
		{ ".maxntid 1024, 1, 1\n.minnctapersm 3\n", 64 },   /* ignored */
		{ ".maxntid 32, 1, 1\n.minnctapersm 33\n", 0 },     /* above 32: ignored */
		{ ".minnctapersm 4\n", 0 },                          /* no thread count */
		{ ".maxntid 2048, 1, 1\n", 32 },
		{ ".maxntid 4096, 1, 1\n", 0 },                      /* above 64 warps: ignored */
		{ ".maxnreg 8\n", 16 },                              /* raised to 16 */
		{ ".maxnreg 17\n", 17 },
		{ ".reqntid 1024, 1, 1\n.maxnreg 256\n", 0 },       /* ignored, and the thread count too */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		LKernel *k = lower_body(cases[i].dirs, "");
		ck_assert_msg(k->maxreg_count == cases[i].regs, "%s: %u, expected %u", cases[i].dirs,
		              k->maxreg_count, cases[i].regs);
		done();
	}
}
END_TEST

START_TEST(test_suld_narrowed_to_last_read_element)
{
	char err[256];
	/* v4.b32 with only the second element read: a 64-bit SULD */
	LKernel *k = lower_body("", " suld.b.1d.v4.b32.trap {%r2, %r3, %r4, %r5}, [s, {%r1}];\n"
	                        " st.global.u32 [%rd1], %r3;\n"
	                        /* v2.b64, first element: 64 bits */
	                        " suld.b.1d.v2.b64.trap {%rd4, %rd5}, [s, {%r1}];\n"
	                        " st.global.u64 [%rd1], %rd4;\n"
	                        /* v4.b16, first element: 32 bits (not U16) */
	                        " suld.b.1d.v4.b16.trap {%h1, %h2, %h3, %h4}, [s, {%r1}];\n"
	                        " st.global.u16 [%rd1], %h1;\n"
	                        /* v4.b32, third element: still 128 bits */
	                        " suld.b.1d.v4.b32.trap {%r6, %r7, %r8, %r9}, [s, {%r1}];\n"
	                        " st.global.u32 [%rd1], %r8;\n"
	                        /* never read: removed */
	                        " suld.b.1d.b32.trap {%r10}, [s, {%r1}];\n");
	ck_assert_int_eq(regalloc_kernel(k, err, sizeof err), 0);
	static const int sizes[] = { 5, 5, 4, 6 };
	for (int i = 0; i < 4; i++) {
		const LInsn *ld = find_op(k, SOP_SULD_D, i);
		ck_assert_ptr_nonnull(ld);
		ck_assert_int_eq(linsn_get(ld, SR_SIZE, -1), sizes[i]);
	}
	ck_assert_ptr_null(find_op(k, SOP_SULD_D, 4));
	done();
}
END_TEST

START_TEST(test_dead_suq_lookup_drops_its_word)
{
	char err[256];
	LKernel *k = lower_body("", " suq.depth.b32 %r2, [s];\n suq.channel_order.b32 %r3, [s];\n"
	                        " suq.array_size.b32 %r4, [s];\n st.global.u32 [%rd1], %r3;\n");
	ck_assert_uint_eq(k->ndesc_fields, 3);
	ck_assert_int_eq(regalloc_kernel(k, err, sizeof err), 0);
	lkernel_compact_const2(k);
	/* only channel_order (0x10) is left, read as c[0x2][0x0] */
	ck_assert_uint_eq(k->ndesc_fields, 1);
	ck_assert_uint_eq(k->desc_fields[0], 0x10);
	const LInsn *x = NULL;
	for (size_t i = 0; i < k->ninsns && !x; i++)
		if (strcmp(k->insns[i].form->name, "XMAD_RC") == 0 && linsn_get(&k->insns[i], SR_CBANK, 0) == 2)
			x = &k->insns[i];
	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(linsn_get(x, SR_COFF, -1), 0);
	ck_assert_uint_eq(k->ndesc_size_symbols, 1);
	ck_assert_uint_eq(k->desc_size_symbols[0], LDESC_SURFACE);
	done();
	/* all dead: no word at all, but the weak symbol is still declared */
	k = lower_body("", " suq.depth.b32 %r2, [s];\n");
	ck_assert_int_eq(regalloc_kernel(k, err, sizeof err), 0);
	lkernel_compact_const2(k);
	ck_assert_uint_eq(k->ndesc_fields, 0);
	ck_assert_uint_eq(k->ndesc_size_symbols, 1);
	ck_assert_uint_eq(k->desc_size_symbols[0], LDESC_SURFACE);
	done();
}
END_TEST

START_TEST(test_mad_addend_in_constant_pool)
{
	char err[256];
	/* a register mad's 32-bit addend is a .nv.constant2 word shared with an
	 * equal descriptor field offset (16 = channel_order's 0x10); 0 is RZ */
	LKernel *k = lower_body("", " mov.u32 %r2, %tid.y;\n mad.lo.s32 %r3, %r1, %r2, 74565;\n"
	                        " suq.channel_order.b32 %r4, [s];\n mad.lo.u32 %r5, %r3, %r4, 16;\n"
	                        " mad.lo.s32 %r6, %r5, %r2, 0;\n st.global.u32 [%rd1], %r6;\n");
	ck_assert_int_eq(regalloc_kernel(k, err, sizeof err), 0);
	lkernel_compact_const2(k);
	ck_assert_uint_eq(k->ndesc_fields, 2);
	ck_assert_uint_eq(k->desc_fields[0], 74565);
	ck_assert_uint_eq(k->desc_fields[1], 0x10);
	done();
}
END_TEST

static Suite *parity_suite(void)
{
	Suite *s = suite_create("ptxas_parity");
	TCase *tc = tcase_create("nv_info");
	tcase_add_test(tc, test_bindless_only_for_bound_surfrefs);
	tcase_add_test(tc, test_explicit_caching_from_ld_ca);
	tcase_add_test(tc, test_maxreg_from_thread_count);
	suite_add_tcase(s, tc);
	tc = tcase_create("dead_code");
	tcase_add_test(tc, test_suld_narrowed_to_last_read_element);
	tcase_add_test(tc, test_dead_suq_lookup_drops_its_word);
	tcase_add_test(tc, test_mad_addend_in_constant_pool);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(parity_suite)
