/* Unit tests for the JSON reader the language server parses its messages
 * with (src/base/json_read.c): every value kind, escapes and surrogate
 * pairs, what RFC 8259 forbids, depth and byte-offset messages, and the
 * writer that echoes request ids back. */
#include "base/json_read.h"
#include "check_main.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static Arena arena;
static char err[200];

static void setup(void) { arena_init(&arena); err[0] = 0; }
static void teardown(void) { arena_free(&arena); }

static const JsonValue *parse(const char *text)
{
	return json_parse(&arena, text, strlen(text), err, sizeof err);
}

static char *written(const JsonValue *v)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	json_write(f, v);
	fclose(f);
	return buf;
}

START_TEST(values)
{
	const JsonValue *v = parse(" {\"a\": [1, -2.5e1, true, false, null, \"x\"], \"b\": {}, \"a2\": []} ");
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->kind, JSON_OBJECT);
	ck_assert_uint_eq(v->len, 3);
	const JsonValue *a = json_get(v, "a");
	ck_assert_int_eq(a->kind, JSON_ARRAY);
	ck_assert_uint_eq(a->len, 6);
	long long n;
	ck_assert(json_int(a->items[0], 0, 10, &n) && n == 1);
	ck_assert(!json_int(a->items[0], 2, 10, &n));           /* out of range */
	ck_assert(a->items[1]->number == -25.0 && json_int(a->items[1], -100, 100, &n) && n == -25);
	ck_assert(a->items[2]->kind == JSON_BOOL && a->items[2]->boolean);
	ck_assert(a->items[3]->kind == JSON_BOOL && !a->items[3]->boolean);
	ck_assert_int_eq(a->items[4]->kind, JSON_NULL);
	ck_assert_str_eq(json_str(a->items[5]), "x");
	ck_assert_ptr_null(json_str(a->items[0]));
	ck_assert_int_eq(json_get(v, "b")->kind, JSON_OBJECT);
	ck_assert_ptr_null(json_get(v, "missing"));
	ck_assert_ptr_null(json_get(a, "a"));                   /* not an object */
	ck_assert(!json_int(json_get(v, "b"), 0, 1, &n));
}
END_TEST

START_TEST(duplicate_members_the_last_wins)
{
	const JsonValue *v = parse("{\"k\": 1, \"k\": 2}");
	long long n;
	ck_assert(json_int(json_get(v, "k"), 0, 9, &n) && n == 2);
}
END_TEST

START_TEST(escapes)
{
	const JsonValue *v = parse("\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t \\u00e9 \\u20ac \\ud83d\\ude00 \\u0000z\"");
	ck_assert_ptr_nonnull(v);
	const char want[] = "q\" b\\ s/ \b\f\n\r\t \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \0z";
	ck_assert_uint_eq(v->len, sizeof want - 1);
	ck_assert(memcmp(v->str, want, sizeof want - 1) == 0);
	/* a lone surrogate becomes U+FFFD */
	v = parse("\"\\ud800x\"");
	ck_assert_str_eq(v->str, "\xef\xbf\xbdx");
}
END_TEST

START_TEST(rejects)
{
	static const struct { const char *text, *why; } bad[] = {
		{ "", "at byte 0: unexpected end of input" },
		{ "{", "at byte 1: expected a member name" },
		{ "{\"a\" 1}", "at byte 5: expected ':'" },
		{ "[1,]", "at byte 3: expected a value" },
		{ "[1 2]", "at byte 3: expected ',' or ']'" },
		{ "01", "at byte 1: text after the value" },
		{ "1.", "at byte 2: expected a digit after '.'" },
		{ "1e", "at byte 2: expected a digit in the exponent" },
		{ "\"abc", "at byte 1: unterminated string" },
		{ "\"a\tb\"", "at byte 2: control character in a string" },
		{ "\"\\x\"", "at byte 2: bad escape in a string" },
		{ "\"\\u12g4\"", "at byte 3: bad \\u escape" },
		{ "tru", "at byte 0: expected a value" },
		{ "nul", "at byte 0: expected a value" },
		{ "'a'", "at byte 0: expected a value" },
		{ "{\"a\":1}x", "at byte 7: text after the value" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_msg(parse(bad[i].text) == NULL, "accepted %s", bad[i].text);
		ck_assert_msg(strstr(err, bad[i].why), "%s: %s", bad[i].text, err);
	}
}
END_TEST

START_TEST(depth)
{
	char deep[2 * (JSON_MAX_DEPTH + 2) + 1];
	size_t n = JSON_MAX_DEPTH + 1;
	memset(deep, '[', n);
	memset(deep + n, ']', n);
	deep[2 * n] = 0;
	ck_assert_ptr_nonnull(parse(deep));     /* JSON_MAX_DEPTH + 1 brackets: depths 0..MAX */
	memset(deep, '[', n + 1);
	memset(deep + n + 1, ']', n + 1);
	deep[2 * n + 2] = 0;
	ck_assert_ptr_null(parse(deep));
	ck_assert(strstr(err, "nested too deeply"));
}
END_TEST

START_TEST(not_terminated_input)
{
	/* the reader stops at len: "[1]" of "[1]]]]" */
	const JsonValue *v = json_parse(&arena, "[1]]]]", 3, err, sizeof err);
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(v->len, 1);
	ck_assert_ptr_null(json_parse(&arena, "\"ab\"", 3, err, sizeof err));
}
END_TEST

START_TEST(write_back)
{
	const JsonValue *v = parse("{\"id\": 12, \"s\": \"a\\u0000\\\"\", \"f\": 0.5, \"l\": [null, true], \"big\": 1e300}");
	char *out = written(v);
	ck_assert_str_eq(out, "{\"id\":12,\"s\":\"a\\u0000\\\"\",\"f\":0.5,\"l\":[null,true],\"big\":1.0000000000000001e+300}");
	free(out);
}
END_TEST

static Suite *json_read_suite(void)
{
	Suite *s = suite_create("json_read");
	TCase *tc = tcase_create("read");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, values);
	tcase_add_test(tc, duplicate_members_the_last_wins);
	tcase_add_test(tc, escapes);
	tcase_add_test(tc, rejects);
	tcase_add_test(tc, depth);
	tcase_add_test(tc, not_terminated_input);
	tcase_add_test(tc, write_back);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(json_read_suite)
