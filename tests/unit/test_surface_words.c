/* Unit tests for the surface and st word table (isa/surface_words.def):
 * every word the opcode table (ptx_opcodes.def) lists for suld, sust,
 * sured, suq and st has a row that gives it a class there, each word has
 * one row, and the SASS columns are consistent (a geometry code comes with
 * its coordinate count, the arrayed ones lead with the array index). What
 * each class means is tested by the golden tests tests/cases/check/surface-*
 * and st-*, the codes by tests/cases/encode. */
#include "isa/opcodes.h"
#include "isa/ptx_types.h"
#include "check_main.h"

#include <check.h>
#include <stdbool.h>
#include <string.h>

typedef struct Row {
	const char *word, *su, *st;
	int geom, coords, arrayed, redop, clamp, ld_cop, st_cop;
} Row;

static const Row rows[] = {
#define SW(word, su, st, sass) { word, su, st, sass },
#define SU(cls, value) #cls
#define ST(cls, value, gate) #cls
#define SASS(geom, coords, arrayed, redop, clamp, ld_cop, st_cop) geom, coords, arrayed, redop, clamp, ld_cop, st_cop
#define SQ(word, gate, texture_only, txq, desc_offset)
#include "isa/surface_words.def"
#undef SW
#undef SU
#undef ST
#undef SASS
#undef SQ
};
enum { NROWS = sizeof rows / sizeof rows[0] };

static const char *const queries[] = {
#define SW(word, su, st, sass)
#define SQ(word, gate, texture_only, txq, desc_offset) word,
#include "isa/surface_words.def"
#undef SW
#undef SQ
};

static const Row *find(const char *w)
{
	for (size_t i = 0; i < NROWS; i++)
		if (strcmp(rows[i].word, w) == 0)
			return &rows[i];
	return NULL;
}

static bool is_query(const char *w)
{
	for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++)
		if (strcmp(queries[i], w) == 0)
			return true;
	return false;
}

/* The opcode's words that are no type: the vocabulary the table owns. */
static void each_word(const char *opcode, void (*f)(const char *opcode, const char *w))
{
	const char *const *mods;
	size_t n = opcode_modifiers(opcode_lookup(opcode), &mods);
	ck_assert_uint_gt(n, 0);
	for (size_t i = 0; i < n; i++)
		if (type_from_word(mods[i]) == TY_NONE)
			f(opcode, mods[i]);
}

static void has_surface_class(const char *opcode, const char *w)
{
	if (strcmp(opcode, "suq") == 0) {
		ck_assert_msg(is_query(w), "suq%s: no SQ row", w);
		return;
	}
	const Row *r = find(w);
	ck_assert_msg(r && strcmp(r->su, "NONE") != 0 && strcmp(r->su, "OTHER") != 0,
		      "%s%s: no surface class in surface_words.def", opcode, w);
}

/* st.async and st.bulk are other instructions to the checker. */
static void has_st_class(const char *opcode, const char *w)
{
	if (strcmp(w, ".async") == 0 || strcmp(w, ".bulk") == 0 || strncmp(w, ".mbarrier::", 11) == 0)
		return;
	const Row *r = find(w);
	ck_assert_msg(r && strcmp(r->st, "NONE") != 0, "st%s: no st class in surface_words.def", w);
}

START_TEST(test_opcode_words_have_rows)
{
	each_word("suld", has_surface_class);
	each_word("sust", has_surface_class);
	each_word("sured", has_surface_class);
	each_word("suq", has_surface_class);
	each_word("st", has_st_class);
}
END_TEST

START_TEST(test_one_row_per_word)
{
	for (size_t i = 0; i < NROWS; i++)
		for (size_t j = i + 1; j < NROWS; j++)
			ck_assert_msg(strcmp(rows[i].word, rows[j].word) != 0, "%s has two rows", rows[i].word);
}
END_TEST

START_TEST(test_sass_columns)
{
	for (size_t i = 0; i < NROWS; i++) {
		const Row *r = &rows[i];
		bool geom = r->geom >= 0;
		ck_assert_msg(geom ? r->coords >= 1 && r->coords <= 3 : r->coords == 0 && r->arrayed == 0,
			      "%s: coordinates without a geometry or a geometry without them", r->word);
		ck_assert_msg(!geom || strcmp(r->su, "GEOM") == 0, "%s: a SASS geometry of a %s word", r->word, r->su);
		ck_assert_msg(r->redop < 0 || strcmp(r->su, "REDOP") == 0, "%s: a SURED operation of a %s word", r->word,
			      r->su);
		ck_assert_msg(r->clamp < 0 || strcmp(r->su, "CLAMP") == 0, "%s: a clamp code of a %s word", r->word, r->su);
		ck_assert_msg((r->ld_cop < 0 && r->st_cop < 0) || strcmp(r->su, "COP") == 0,
			      "%s: a cache operation code of a %s word", r->word, r->su);
	}
	ck_assert_int_eq(find(".a2d")->arrayed, 1);
	ck_assert_int_eq(find(".2d")->arrayed, 0);
}
END_TEST

static Suite *surface_words_suite(void)
{
	Suite *s = suite_create("surface_words");
	TCase *t = tcase_create("table");
	tcase_add_test(t, test_opcode_words_have_rows);
	tcase_add_test(t, test_one_row_per_word);
	tcase_add_test(t, test_sass_columns);
	suite_add_tcase(s, t);
	return s;
}

CHECK_MAIN(surface_words_suite)
