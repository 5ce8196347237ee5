/* Unit tests for the operand-count table (operand_counts.def): every row
 * names a known opcode and modifiers of it, no row is hidden behind an
 * earlier, more general one, and the NAMED words exist (Check). What each
 * row accepts is tested against ptxas by tests/oracle/operand-count-diff.sh
 * and by the golden tests tests/cases/check/operand-count-*. */
#include "isa/opcodes.h"
#include "isa/operand_counts.h"
#include "check_main.h"

#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const OperandCountRow *rows;
static size_t nrows;

static void load(void)
{
	rows = operand_count_rows(&nrows);
}

/* Calls f on each space-separated word of list; stops at the first false. */
static bool each_word(const char *list, bool (*f)(const char *w, size_t n, const void *ctx), const void *ctx)
{
	for (const char *p = list; *p;) {
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, " ");
		if (n && !f(p, n, ctx))
			return false;
		p += n;
	}
	return true;
}

static bool is_modifier(const char *w, size_t n, const void *ctx)
{
	char word[128];
	snprintf(word, sizeof word, "%.*s", (int)n, w);
	return opcode_has_modifier(*(const int *)ctx, word);
}

/* A NAMED word may stand for modifiers that continue with "::...". */
static bool names_modifier(const char *w, size_t n, const void *ctx)
{
	const char *const *mods;
	size_t k = opcode_modifiers(*(const int *)ctx, &mods);
	for (size_t i = 0; i < k; i++)
		if (strncmp(mods[i], w, n) == 0 && (mods[i][n] == 0 || strncmp(mods[i] + n, "::", 2) == 0))
			return true;
	return false;
}

static bool in_mods(const char *w, size_t n, const void *ctx)
{
	const char *list = ctx;
	for (const char *p = list; *p;) {
		while (*p == ' ')
			p++;
		size_t m = strcspn(p, " ");
		if (m == n && strncmp(p, w, n) == 0)
			return true;
		p += m;
	}
	return false;
}

START_TEST(test_rows_name_known_words)
{
	ck_assert_uint_gt(nrows, 150);
	/* check_operands.c indexes the rows by opcode id below 256. */
	ck_assert_uint_lt(opcode_count(), 256);
	for (size_t i = 0; i < nrows; i++) {
		const OperandCountRow *r = &rows[i];
		int id = opcode_lookup(r->opcode);
		ck_assert_msg(id >= 0, "row %zu: unknown opcode %s", i, r->opcode);
		ck_assert_msg(r->min >= 0 && r->min <= r->max && r->max < 16, "row %zu (%s): bad range", i, r->opcode);
		ck_assert_msg(each_word(r->mods, is_modifier, &id), "row %zu (%s): '%s' has a word %s does not take", i,
			r->opcode, r->mods, r->opcode);
		/* The example is an instruction of the row's own opcode. */
		size_t n = strlen(r->opcode);
		ck_assert_msg(strncmp(r->example, r->opcode, n) == 0 && (r->example[n] == '.' || r->example[n] == ' ' ||
			r->example[n] == 0), "row %zu: example of another opcode", i);
		/* The surface instructions and st check their counts themselves,
		 * and call has its own syntax. */
		static const char *const own[] = { "suld", "sust", "sured", "suq", "st", "call" };
		for (size_t k = 0; k < sizeof own / sizeof own[0]; k++)
			ck_assert_msg(strcmp(r->opcode, own[k]) != 0, "row %zu: %s has its own checker", i, r->opcode);
	}
}
END_TEST

/* The first matching row decides: a row after one of the same opcode whose
 * modifiers are a subset of its own could never match. */
START_TEST(test_no_row_is_shadowed)
{
	for (size_t i = 0; i < nrows; i++)
		for (size_t k = 0; k < i; k++)
			if (strcmp(rows[k].opcode, rows[i].opcode) == 0)
				ck_assert_msg(!each_word(rows[k].mods, in_mods, rows[i].mods),
					"row %zu (%s '%s') is hidden by row %zu ('%s')", i, rows[i].opcode, rows[i].mods, k,
					rows[k].mods);
}
END_TEST

/* Every NAMED word is (the part before "::" of) a modifier of its opcode. */
START_TEST(test_named_words_exist)
{
	size_t named = 0;
	for (size_t i = 0; i < opcode_count(); i++) {
		int id = (int)i;
		const char *words = operand_count_name_words(opcode_name(id));
		if (!words)
			continue;
		named++;
		ck_assert_msg(each_word(words, names_modifier, &id), "NAMED %s: a word is no modifier of it", opcode_name(id));
	}
	ck_assert_uint_gt(named, 20);
}
END_TEST

static Suite *operand_count_suite(void)
{
	Suite *s = suite_create("operand_counts");
	TCase *t = tcase_create("table");
	tcase_add_unchecked_fixture(t, load, NULL);
	tcase_add_test(t, test_rows_name_known_words);
	tcase_add_test(t, test_no_row_is_shadowed);
	tcase_add_test(t, test_named_words_exist);
	suite_add_tcase(s, t);
	return s;
}

CHECK_MAIN(operand_count_suite)
