/* Unit tests for the lowering's view of PTX types (lower_ctx.c's
 * ptx_type_of_word), which derives from the checker's type table
 * (isa/ptx_types.c): every type word the sm_50 lowering handles keeps its
 * width, signedness and float-ness, every other word is no type to it. */
#include "lower/lower_internal.h"
#include "isa/ptx_types.h"
#include "check_main.h"

#include <check.h>

START_TEST(test_handled_types)
{
	static const struct { PtxType t; unsigned bits; bool is_signed, is_float; } want[] = {
		{ TY_PRED, 1, false, false },
		{ TY_B8, 8, false, false }, { TY_B16, 16, false, false }, { TY_B32, 32, false, false },
		{ TY_B64, 64, false, false }, { TY_U8, 8, false, false }, { TY_U16, 16, false, false },
		{ TY_U32, 32, false, false }, { TY_U64, 64, false, false }, { TY_S8, 8, true, false },
		{ TY_S16, 16, true, false }, { TY_S32, 32, true, false }, { TY_S64, 64, true, false },
		{ TY_F16, 16, false, true }, { TY_F32, 32, false, true }, { TY_F64, 64, false, true },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		PtxTy t = ptx_type_of_word(type_info(want[i].t)->word);
		ck_assert_msg(t.bits == want[i].bits && t.is_signed == want[i].is_signed &&
			      t.is_float == want[i].is_float, "%s", type_info(want[i].t)->word);
	}
}
END_TEST

START_TEST(test_other_words_are_no_type)
{
	static const char *const words[] = {
		".b128", ".bf16", ".bf16x2", ".f16x2", ".surfref", ".texref", ".samplerref",
		".f8", ".u032", ".s+8", ".u", ".global", "", ".",
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		ck_assert_msg(ptx_type_of_word(words[i]).bits == 0, "'%s'", words[i]);
}
END_TEST

static Suite *lower_types_suite(void)
{
	Suite *s = suite_create("lower_types");
	TCase *t = tcase_create("ptx_type_of_word");
	tcase_add_test(t, test_handled_types);
	tcase_add_test(t, test_other_words_are_no_type);
	suite_add_tcase(s, t);
	return s;
}

CHECK_MAIN(lower_types_suite)
