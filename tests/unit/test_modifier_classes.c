/* Unit tests for the modifier-class table (modifier_classes.def): every row
 * names a known opcode and words it takes, the rows of one opcode stand
 * together (check_mods.c indexes them as one run per opcode), and each
 * example has exactly one word of its class, which the oracle
 * (tests/oracle/modifier-class-diff.sh) doubles. What each row rejects is
 * tested against ptxas by that oracle and by the golden tests
 * tests/cases/check/modifier-class-*. */
#include "isa/opcodes.h"
#include "check_main.h"

#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct Row {
	const char *opcode, *noun, *words, *target, *example;
} Row;

static const Row rows[] = {
#define ONE_OF(op, noun, words, target, example) { op, noun, words, target, example },
#define EXACTLY_ONE(op, noun, words, target, example) { op, noun, words, target, example },
#define DOC_ONE(op, noun, words, target, example) { op, noun, words, target, example },
#define EXACTLY_ONE_FROM(op, noun, words, target, example, major, minor) { op, noun, words, target, example },
#include "isa/modifier_classes.def"
#undef ONE_OF
#undef EXACTLY_ONE
#undef DOC_ONE
#undef EXACTLY_ONE_FROM
};
#define NROWS (sizeof rows / sizeof rows[0])

/* The opcode the row's words belong to: its own, or its example's for a
 * "*" row. */
static int row_opcode(const Row *r)
{
	char op[64];
	const char *name = r->opcode;
	if (strcmp(name, "*") == 0) {
		snprintf(op, sizeof op, "%.*s", (int)strcspn(r->example, ". "), r->example);
		name = op;
	}
	return opcode_lookup(name);
}

/* How many modifiers of the example's head are words of the class. */
static int class_words_in_example(const Row *r)
{
	int count = 0;
	const char *head_end = r->example + strcspn(r->example, " ");
	for (const char *p = strchr(r->example, '.'); p && p < head_end; p = strchr(p + 1, '.')) {
		size_t len = strcspn(p + 1, ". ") + 1;
		for (const char *w = r->words; *w; w += strspn(w, " ")) {
			size_t n = strcspn(w, " ");
			if (n == len && strncmp(w, p, n) == 0)
				count++;
			w += n;
		}
	}
	return count;
}

START_TEST(test_rows_name_known_words)
{
	ck_assert_uint_gt(NROWS, 140);
	/* check_mods.c indexes the rows by opcode id below 256. */
	ck_assert_uint_lt(opcode_count(), 256);
	for (size_t i = 0; i < NROWS; i++) {
		const Row *r = &rows[i];
		int id = row_opcode(r);
		ck_assert_msg(id >= 0, "row %zu: unknown opcode %s", i, r->opcode);
		for (const char *w = r->words; *w; w += strspn(w, " ")) {
			char word[64];
			size_t n = strcspn(w, " ");
			snprintf(word, sizeof word, "%.*s", (int)n, w);
			ck_assert_msg(opcode_has_modifier(id, word), "row %zu (%s %s): %s takes no %s", i, r->opcode,
				r->noun, opcode_name(id), word);
			w += n;
		}
		ck_assert_msg(class_words_in_example(r) == 1, "row %zu (%s %s): the example needs one word of the class",
			i, r->opcode, r->noun);
		/* st and the surface instructions check their modifiers with
		 * their forms. */
		static const char *const own[] = { "suld", "sust", "sured", "suq", "st" };
		for (size_t k = 0; k < sizeof own / sizeof own[0]; k++)
			ck_assert_msg(strcmp(r->opcode, own[k]) != 0, "row %zu: %s has its own checker", i, r->opcode);
	}
}
END_TEST

START_TEST(test_rows_of_an_opcode_stand_together)
{
	for (size_t i = 1; i < NROWS; i++) {
		if (strcmp(rows[i].opcode, rows[i - 1].opcode) == 0)
			continue;
		for (size_t k = 0; k + 1 < i; k++)
			ck_assert_msg(strcmp(rows[k].opcode, rows[i].opcode) != 0, "row %zu (%s) is apart from row %zu", i,
				rows[i].opcode, k);
	}
}
END_TEST

static Suite *modifier_class_suite(void)
{
	Suite *s = suite_create("modifier_classes");
	TCase *t = tcase_create("table");
	tcase_add_test(t, test_rows_name_known_words);
	tcase_add_test(t, test_rows_of_an_opcode_stand_together);
	suite_add_tcase(s, t);
	return s;
}

CHECK_MAIN(modifier_class_suite)
