/* Unit tests for the --fix-version/--fix-target text rewriter (Check). */
#include "front/ast.h"
#include "base/diag.h"
#include "driver/fixup.h"
#include "front/parse.h"
#include "check_main.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *out;
static size_t outlen;
static char err[256];

static void teardown(void)
{
	free(out);
	out = NULL;
	outlen = 0;
	err[0] = 0;
}

static int rewrite(const char *src, const FixupEdit *e, size_t n)
{
	return fixup_rewrite(src, strlen(src), e, n, &out, &outlen, err, sizeof err);
}

static SrcLoc range(int line, int first, int last)
{
	SrcLoc r = { line, first, line, last };
	return r;
}

START_TEST(offsets)
{
	const char *s = "ab\r\ncd\nef";
	size_t n = strlen(s);
	ck_assert_int_eq(fixup_offset(s, n, 1, 1), 0);
	ck_assert_int_eq(fixup_offset(s, n, 1, 3), 2);    /* the '\r' */
	ck_assert_int_eq(fixup_offset(s, n, 1, 4), 3);    /* one past: the '\n' */
	ck_assert_int_eq(fixup_offset(s, n, 1, 5), -1);
	ck_assert_int_eq(fixup_offset(s, n, 2, 1), 4);
	ck_assert_int_eq(fixup_offset(s, n, 3, 3), 9);    /* end of a file without final newline */
	ck_assert_int_eq(fixup_offset(s, n, 4, 1), -1);
	ck_assert_int_eq(fixup_offset(s, n, 0, 1), -1);
}
END_TEST

START_TEST(replaces_version_only)
{
	const char *src = "// header\n.version 6.0 // old\n.target sm_50\n";
	FixupEdit e = { range(2, 10, 13), "7.8" };
	ck_assert_int_eq(rewrite(src, &e, 1), 0);
	ck_assert_str_eq(out, "// header\n.version 7.8 // old\n.target sm_50\n");
	ck_assert_uint_eq(outlen, strlen(out));
}
END_TEST

START_TEST(keeps_crlf_and_missing_final_newline)
{
	const char *src = ".version 6.0\r\n.target sm_20, texmode_independent\r\n\t/* c */ .entry k() { ret; }";
	FixupEdit e[] = {
		{ range(2, 9, 35), "sm_50" },
		{ range(1, 10, 13), "8.0" },
	};
	ck_assert_int_eq(rewrite(src, e, 2), 0);
	ck_assert_str_eq(out, ".version 8.0\r\n.target sm_50\r\n\t/* c */ .entry k() { ret; }");
}
END_TEST

START_TEST(longer_and_shorter_replacements)
{
	const char *src = ".version 7.0\n.target sm_52\n";
	FixupEdit e[] = {
		{ range(1, 10, 13), "10.0" },
		{ range(2, 9, 14), "sm_100a, debug" },
	};
	ck_assert_int_eq(rewrite(src, e, 2), 0);
	ck_assert_str_eq(out, ".version 10.0\n.target sm_100a, debug\n");
	FixupEdit shorter = { range(2, 9, 14), "" };
	free(out);
	ck_assert_int_eq(rewrite(src, &shorter, 1), 0);
	ck_assert_str_eq(out, ".version 7.0\n.target \n");
}
END_TEST

START_TEST(no_edits_copies_every_byte)
{
	const char src[] = "a\0b\r\n";    /* embedded NUL: lengths, not strings */
	ck_assert_int_eq(fixup_rewrite(src, sizeof src - 1, NULL, 0, &out, &outlen, err, sizeof err), 0);
	ck_assert_uint_eq(outlen, sizeof src - 1);
	ck_assert_int_eq(memcmp(out, src, outlen), 0);
	ck_assert_int_eq(out[outlen], 0);
}
END_TEST

START_TEST(refuses_missing_directive)
{
	FixupEdit e = { { 0, 0, 0, 0 }, ".version 8.0" };
	ck_assert_int_eq(rewrite(".target sm_50\n", &e, 1), -1);
	ck_assert_ptr_null(out);
	ck_assert_ptr_nonnull(strstr(err, "missing"));
}
END_TEST

START_TEST(refuses_out_of_range_and_overlap)
{
	const char *src = ".version 7.0\n";
	FixupEdit outside = { range(3, 1, 2), "x" };
	ck_assert_int_eq(rewrite(src, &outside, 1), -1);
	ck_assert_ptr_nonnull(strstr(err, "not in the file"));
	FixupEdit past_line_end = { range(1, 10, 20), "x" };
	ck_assert_int_eq(rewrite(src, &past_line_end, 1), -1);
	FixupEdit backwards = { { 1, 12, 1, 10 }, "x" };
	ck_assert_int_eq(rewrite(src, &backwards, 1), -1);
	FixupEdit overlap[] = { { range(1, 10, 13), "8.0" }, { range(1, 12, 13), "1" } };
	ck_assert_int_eq(rewrite(src, overlap, 2), -1);
	ck_assert_ptr_nonnull(strstr(err, "overlaps"));
	ck_assert_ptr_null(out);
}
END_TEST

/* The ranges the driver passes come from the parser: the location of the
 * .version number token and those of the .target names. */
START_TEST(ranges_from_the_parser)
{
	const char *text = "  .version   6.5 \r\n.target  sm_30 ,sm_35\r\n.entry k() { ret; }";
	size_t n = strlen(text);
	char *buf = malloc(n + 2);
	memcpy(buf, text, n + 1);
	buf[n + 1] = 0;
	Module m;
	DiagSink d;
	module_init(&m, "t.ptx");
	diag_init(&d, "t.ptx", buf, n);
	ptx_parse_buffer(&m, &d, buf, n);
	ck_assert_uint_eq(diag_errors(&d), 0);
	const Item *ver = m.items, *tgt = ver->next;
	ck_assert_int_eq(ver->kind, IT_VERSION);
	ck_assert_int_eq(tgt->kind, IT_TARGET);
	FixupEdit e[] = {
		{ ver->u.version.text_loc, "8.0" },
		{ srcloc_span(tgt->u.target.locs[0], tgt->u.target.locs[tgt->u.target.n - 1]), "sm_50" },
	};
	ck_assert_int_eq(fixup_rewrite(buf, n, e, 2, &out, &outlen, err, sizeof err), 0);
	ck_assert_str_eq(out, "  .version   8.0 \r\n.target  sm_50\r\n.entry k() { ret; }");
	diag_fini(&d);
	module_fini(&m);
	free(buf);
}
END_TEST

static Suite *fixup_suite(void)
{
	Suite *s = suite_create("fixup");
	TCase *tc = tcase_create("rewrite");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, offsets);
	tcase_add_test(tc, replaces_version_only);
	tcase_add_test(tc, keeps_crlf_and_missing_final_newline);
	tcase_add_test(tc, longer_and_shorter_replacements);
	tcase_add_test(tc, no_edits_copies_every_byte);
	tcase_add_test(tc, refuses_missing_directive);
	tcase_add_test(tc, refuses_out_of_range_and_overlap);
	tcase_add_test(tc, ranges_from_the_parser);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(fixup_suite)
