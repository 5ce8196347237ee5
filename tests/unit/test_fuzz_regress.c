/* Regression tests for what tests/fuzz found that a golden file cannot pin
 * down without fixing the wording of a diagnostic first.
 *
 * Operand counts: the checker accepted instructions with too few or too
 * many operands (`add.s32 %r1, %r2;`, `ld.global.f32 4;`, `ret 1;`), and
 * the back end then read in->ops[] past its end (a crash in `ptxsurf-as
 * -o out.cubin`) or dropped the extra operands without a word. Each such
 * instruction must be rejected with an error, by the checker or at the
 * latest by the assembler, and never crash: each runs in its own test so
 * that one crash does not hide the others. */
#include "driver/assemble.h"
#include "front/ast.h"
#include "check/check.h"
#include "base/diag.h"
#include "front/parse.h"
#include "check_main.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const bad_arity[] = {
	/* too few operands: the back end read the missing ones */
	"ld.global.f32 %f1;",
	"ld.global.f32 4;",
	"ld.param.u64 %rd1;",
	"mov.u32 %r1;",
	"add.s32 %r1, %r2;",
	"sub.s32 %r1;",
	"mul.lo.s32 %r1, %r2;",
	"mul.wide.u32 %rd1, %r1;",
	"mad.lo.s32 %r1, %r2, %r2;",
	"cvta.to.global.u64 %rd1;",
	"cvt.u64.u32 %rd1;",
	"setp.lt.s32 %p1, %r1;",
	"selp.b32 %r1, 1, 2;",
	"and.b32 %r1, %r2;",
	"shl.b32 %r1, %r2;",
	"neg.s32 %r1;",
	"not.b32 %r1;",
	"bra;",
	/* too many: silently dropped, so the code did not say what was written */
	"ret 1;",
	"exit 1;",
	"add.s32 %r1, %r2, %r2, %r2;",
	"ld.global.f32 %f1, [%rd1], 5;",
};

/* Parses, checks and (when the checker is content) assembles one kernel
 * around `insn`; returns the number of errors reported on the way. */
static unsigned errors_for(const char *insn)
{
	char src[1024];
	int n = snprintf(src, sizeof src,
	                 ".version 7.0\n.target sm_50\n.address_size 64\n"
	                 ".visible .entry k()\n{\n"
	                 "\t.reg .pred %%p<2>;\n\t.reg .b32 %%r<3>;\n"
	                 "\t.reg .f32 %%f<3>;\n\t.reg .b64 %%rd<3>;\n"
	                 "\t%s\n\tret;\n}\n", insn);
	ck_assert(n > 0 && (size_t)n < sizeof src);
	/* the scanner needs two NUL bytes after the text and writes into it */
	char *buf = calloc((size_t)n + 2, 1);
	ck_assert_ptr_nonnull(buf);
	memcpy(buf, src, (size_t)n);
	Module m;
	DiagSink d;
	module_init(&m, "arity.ptx");
	diag_init(&d, "arity.ptx", buf, (size_t)n);
	ptx_parse_buffer(&m, &d, buf, (size_t)n);
	if (diag_errors(&d) == 0) {
		CheckOptions co = { .rules = RULES_STRICT };
		check_module(&m, &d, &co);
	}
	if (diag_errors(&d) == 0) {
		AssembleOptions ao = { .format = ASM_CUBIN };
		uint8_t *image = NULL;
		size_t len = 0;
		assemble_module(&m, &d, &ao, &image, &len, NULL);
		free(image);
	}
	unsigned errors = diag_errors(&d);
	diag_fini(&d);
	module_fini(&m);
	free(buf);
	return errors;
}

START_TEST(wrong_operand_count_is_an_error)
{
	const char *insn = bad_arity[_i];
	ck_assert_msg(errors_for(insn) > 0, "'%s' was accepted", insn);
}
END_TEST

/* The control: the same kernel with the right operand counts assembles
 * (so the errors above come from the counts, not from the frame). */
START_TEST(right_operand_count_is_accepted)
{
	ck_assert_uint_eq(errors_for("add.s32 %r1, %r2, 1;"), 0);
}
END_TEST

static Suite *fuzz_regress_suite(void)
{
	Suite *s = suite_create("fuzz_regress");
	TCase *tc = tcase_create("arity");
	tcase_add_loop_test(tc, wrong_operand_count_is_an_error, 0,
	                    (int)(sizeof bad_arity / sizeof bad_arity[0]));
	tcase_add_test(tc, right_operand_count_is_accepted);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(fuzz_regress_suite)
