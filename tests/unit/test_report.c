/* Unit tests for the JSON and SARIF renderings of diagnostics (Check): the
 * documents must be well-formed JSON (checked by a strict RFC 8259 reader
 * below, UTF-8 included), carry the key fields, escape whatever bytes a
 * message or a file name holds, write relative or file:// URIs, and keep
 * SARIF fingerprints stable when the code around a finding moves. */
#include "front/ast.h"
#include "base/diag.h"
#include "front/parse.h"
#include "driver/report.h"
#include "check_main.h"

#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- a strict JSON reader: accepts exactly RFC 8259 documents ---- */

static bool json_value(const char **p, int depth);

static void json_ws(const char **p)
{
	while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r')
		(*p)++;
}

/* One UTF-8 sequence at s: shortest form, no surrogates, at most U+10FFFF. */
static size_t utf8_seq(const unsigned char *s)
{
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (s[0] >= 0xe0 && s[0] <= 0xef) {
		unsigned lo = s[0] == 0xe0 ? 0xa0 : 0x80, hi = s[0] == 0xed ? 0x9f : 0xbf;
		return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 ? 3 : 0;
	}
	if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		unsigned lo = s[0] == 0xf0 ? 0x90 : 0x80, hi = s[0] == 0xf4 ? 0x8f : 0xbf;
		return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 && (s[3] & 0xc0) == 0x80 ? 4 : 0;
	}
	return 0;
}

static bool json_str(const char **p)
{
	const unsigned char *s = (const unsigned char *)*p;
	if (*s++ != '"')
		return false;
	for (;;) {
		if (*s == '"')
			break;
		if (*s < 0x20)
			return false;
		if (*s == '\\') {
			s++;
			if (*s == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", s[i]) || !s[i])
						return false;
				s += 5;
			} else if (*s && strchr("\"\\/bfnrt", *s)) {
				s++;
			} else {
				return false;
			}
		} else if (*s >= 0x80) {
			size_t n = utf8_seq(s);
			if (!n)
				return false;
			s += n;
		} else {
			s++;
		}
	}
	*p = (const char *)s + 1;
	return true;
}

static bool json_num(const char **p)
{
	const char *s = *p;
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return false;
	if (*s == '.') {
		if (!(*++s >= '0' && *s <= '9'))
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!(*s >= '0' && *s <= '9'))
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	*p = s;
	return true;
}

static bool json_seq(const char **p, char close, bool members, int depth)
{
	(*p)++;
	json_ws(p);
	if (**p == close) {
		(*p)++;
		return true;
	}
	for (;;) {
		json_ws(p);
		if (members) {
			if (!json_str(p))
				return false;
			json_ws(p);
			if (*(*p)++ != ':')
				return false;
		}
		if (!json_value(p, depth + 1))
			return false;
		json_ws(p);
		char c = *(*p)++;
		if (c == close)
			return true;
		if (c != ',')
			return false;
	}
}

static bool json_value(const char **p, int depth)
{
	if (depth > 64)
		return false;
	json_ws(p);
	switch (**p) {
	case '{': return json_seq(p, '}', true, depth);
	case '[': return json_seq(p, ']', false, depth);
	case '"': return json_str(p);
	case 't': return strncmp(*p, "true", 4) == 0 && (*p += 4);
	case 'f': return strncmp(*p, "false", 5) == 0 && (*p += 5);
	case 'n': return strncmp(*p, "null", 4) == 0 && (*p += 4);
	default: return json_num(p);
	}
}

static bool json_document_ok(const char *doc)
{
	const char *p = doc;
	if (!json_value(&p, 0))
		return false;
	json_ws(&p);
	return *p == 0;
}

START_TEST(the_json_reader_is_strict)
{
	ck_assert(json_document_ok("{\"a\": [1, -2.5e3, true, null, \"\\u00e9\\n\"]}"));
	ck_assert(json_document_ok("\"\xc3\xa9\xf0\x9f\x98\x80\""));
	ck_assert(!json_document_ok("{\"a\": 1,}"));
	ck_assert(!json_document_ok("\"tab\there\""));
	ck_assert(!json_document_ok("\"\\x41\""));
	ck_assert(!json_document_ok("\"\xff\""));
	ck_assert(!json_document_ok("\"\xc0\xaf\""));          /* overlong '/' */
	ck_assert(!json_document_ok("\"\xed\xa0\x80\""));      /* a surrogate */
	ck_assert(!json_document_ok("{} {}"));
	ck_assert(!json_document_ok("01"));
}
END_TEST

/* ---- rendering ---- */

typedef struct Parsed {
	Module m;
	DiagSink d;
	char *buf;
} Parsed;

static void parse_into(Parsed *p, const char *filename, const char *src)
{
	size_t n = strlen(src);
	p->buf = malloc(n + 2);
	memcpy(p->buf, src, n);
	p->buf[n] = p->buf[n + 1] = 0;
	module_init(&p->m, filename);
	diag_init(&p->d, filename, p->buf, n);
	ptx_parse_buffer(&p->m, &p->d, p->buf, n);
}

static void parsed_free(Parsed *p)
{
	diag_fini(&p->d);
	module_fini(&p->m);
	free(p->buf);
}

/* Renders the sinks as one document; the caller frees it. */
static char *render(ReportFormat format, DiagSink **sinks, size_t n)
{
	char *doc = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&doc, &len);
	ck_assert_ptr_nonnull(f);
	Report r;
	report_begin(&r, format, f, false);
	for (size_t i = 0; i < n; i++)
		report_file(&r, sinks[i]);
	report_end(&r);
	fclose(f);
	ck_assert_msg(json_document_ok(doc), "not valid JSON:\n%s", doc);
	return doc;
}

static char *render_one(ReportFormat format, DiagSink *sink)
{
	return render(format, &sink, 1);
}

static const char unknown_modifier[] =
	".version 8.0\n.target sm_50\n.entry k()\n{\n\tmov.u33 %r1, 5;\n\tret;\n}\n";

START_TEST(json_key_fields)
{
	Parsed p;
	parse_into(&p, "dir/t.ptx", unknown_modifier);
	ck_assert_uint_eq(diag_errors(&p.d), 1);
	char *doc = render_one(REPORT_JSON, &p.d);
	ck_assert_ptr_nonnull(strstr(doc, "\"tool\": \"ptxsurf-as\""));
	ck_assert_ptr_nonnull(strstr(doc, "\"file\": \"dir/t.ptx\""));
	ck_assert_ptr_nonnull(strstr(doc, "\"errors\": 1"));
	ck_assert_ptr_nonnull(strstr(doc, "\"warnings\": 0"));
	ck_assert_ptr_nonnull(strstr(doc, "\"severity\": \"error\""));
	ck_assert_ptr_nonnull(strstr(doc, "\"rule\": \"unknown-modifier\""));
	ck_assert_ptr_nonnull(strstr(doc, "\"line\": 5, \"column\": 5, \"endLine\": 5, \"endColumn\": 9"));
	ck_assert_ptr_nonnull(strstr(doc, "did you mean '.u32'?"));
	free(doc);
	parsed_free(&p);
}
END_TEST

START_TEST(json_no_files_and_clean_files)
{
	char *doc = render(REPORT_JSON, NULL, 0);
	ck_assert_ptr_nonnull(strstr(doc, "\"files\": []"));
	free(doc);
	Parsed a, b;
	parse_into(&a, "a.ptx", ".version 8.0\n.target sm_50\n");
	parse_into(&b, "b.ptx", unknown_modifier);
	DiagSink *both[] = { &a.d, &b.d };
	doc = render(REPORT_JSON, both, 2);
	ck_assert_ptr_nonnull(strstr(doc, "\"diagnostics\": []"));
	const char *first = strstr(doc, "\"a.ptx\""), *second = strstr(doc, "\"b.ptx\"");
	ck_assert(first && second && first < second);
	free(doc);
	parsed_free(&a);
	parsed_free(&b);
}
END_TEST

START_TEST(sarif_key_fields)
{
	Parsed p;
	parse_into(&p, "dir/t.ptx", unknown_modifier);
	char *doc = render_one(REPORT_SARIF, &p.d);
	ck_assert_ptr_nonnull(strstr(doc, "\"version\": \"2.1.0\""));
	ck_assert_ptr_nonnull(strstr(doc, "\"name\": \"ptxsurf-as\""));
	/* the rule table lists every rule; results point into it */
	ck_assert_ptr_nonnull(strstr(doc, "\"id\": \"unknown-modifier\""));
	ck_assert_ptr_nonnull(strstr(doc, "\"name\": \"UnknownModifier\""));
	ck_assert_ptr_nonnull(strstr(doc, "\"ruleId\": \"unknown-modifier\""));
	ck_assert_ptr_nonnull(strstr(doc, "\"ruleIndex\": "));
	ck_assert_ptr_nonnull(strstr(doc, "\"level\": \"error\""));
	ck_assert_ptr_nonnull(strstr(doc, "\"startLine\": 5, \"startColumn\": 5, \"endLine\": 5, \"endColumn\": 9"));
	ck_assert_ptr_nonnull(strstr(doc, "\"primaryLocationLineHash\": \""));
	free(doc);
	parsed_free(&p);
}
END_TEST

START_TEST(sarif_no_results)
{
	char *doc = render(REPORT_SARIF, NULL, 0);
	ck_assert_ptr_nonnull(strstr(doc, "\"results\": []"));
	free(doc);
}
END_TEST

/* Messages and file names carry whatever the source holds: quotes and
 * backslashes from string tokens, control bytes, bytes that are not UTF-8. */
START_TEST(escaping)
{
	Parsed p;
	parse_into(&p, "we\"ird\\name.ptx", ".version 8.0\n.target sm_50\n.entry k()\n{\n\tfrobnicate \"a\\\\b\";\n}\n");
	SrcLoc loc = { 6, 1, 6, 2 };
	diag_add(&p.d, SEV_WARNING, loc, RULE_SYNTAX, "ctl \x01\x1f\x7f tab\t nl\n cr\r end");
	diag_add(&p.d, SEV_WARNING, loc, RULE_SYNTAX, "bad \xff \xc3( \xc0\xaf \xe2\x82 ok \xc3\xa9");
	for (int format = REPORT_JSON; format <= REPORT_SARIF; format++) {
		char *doc = render_one((ReportFormat)format, &p.d);
		ck_assert_ptr_nonnull(strstr(doc, "'\\\"a\\\\\\\\b\\\"'"));   /* '"a\\b"' */
		ck_assert_ptr_nonnull(strstr(doc, "ctl \\u0001\\u001f\\u007f tab\\t nl\\n cr"));
		ck_assert(strstr(doc, " cr\\r end") || strstr(doc, " cr\\u000d end"));
		ck_assert_ptr_nonnull(strstr(doc, "ok \xc3\xa9"));
		if (format == REPORT_JSON)
			ck_assert_ptr_nonnull(strstr(doc, "\"file\": \"we\\\"ird\\\\name.ptx\""));
		else
			ck_assert_ptr_nonnull(strstr(doc, "\"uri\": \"we%22ird%5Cname.ptx\""));
		free(doc);
	}
	parsed_free(&p);
}
END_TEST

/* Byte sequences shaped like UTF-8 that RFC 3629 forbids: UTF-16
 * surrogates, overlong forms, code points above U+10FFFF. Passed through
 * as they are they make the document invalid JSON for strict readers. */
START_TEST(escaping_forbidden_utf8_forms)
{
	Parsed p;
	parse_into(&p, "t.ptx", ".version 8.0\n.target sm_50\n");
	SrcLoc loc = { 1, 1, 1, 2 };
	diag_add(&p.d, SEV_WARNING, loc, RULE_SYNTAX, "surrogate \xed\xa0\x80 overlong \xe0\x80\xaf \xf0\x80\x80\xaf"
		 " too big \xf4\x90\x80\x80 ok \xf0\x9f\x98\x80");
	for (int format = REPORT_JSON; format <= REPORT_SARIF; format++) {
		char *doc = render_one((ReportFormat)format, &p.d);
		ck_assert_ptr_nonnull(strstr(doc, "ok \xf0\x9f\x98\x80"));
		free(doc);
	}
	parsed_free(&p);
}
END_TEST

static char *sarif_for(const char *filename)
{
	Parsed p;
	parse_into(&p, filename, unknown_modifier);
	char *doc = render_one(REPORT_SARIF, &p.d);
	parsed_free(&p);
	return doc;
}

START_TEST(uris)
{
	char *doc = sarif_for("./sub dir/k.ptx");
	ck_assert_ptr_nonnull(strstr(doc, "\"uri\": \"sub%20dir/k.ptx\", \"uriBaseId\": \"%SRCROOT%\""));
	free(doc);

	char cwd[4096], path[4200];
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
	snprintf(path, sizeof path, "%s/below/k.ptx", cwd);
	doc = sarif_for(path);
	ck_assert_ptr_nonnull(strstr(doc, "\"uri\": \"below/k.ptx\", \"uriBaseId\": \"%SRCROOT%\""));
	free(doc);

	/* a sibling whose name starts with the working directory's is outside */
	snprintf(path, sizeof path, "%sx/k.ptx", cwd);
	doc = sarif_for(path);
	ck_assert_ptr_nonnull(strstr(doc, "\"uri\": \"file:///"));
	free(doc);

	doc = sarif_for("/nonexistent-ptxsurf/a b#1.ptx");
	ck_assert_ptr_nonnull(strstr(doc, "\"uri\": \"file:///nonexistent-ptxsurf/a%20b%231.ptx\" }"));
	ck_assert_ptr_null(strstr(doc, "\"uriBaseId\""));
	free(doc);
}
END_TEST

/* "primaryLocationLineHash": "HASH:N" of the k-th result (0-based). */
static void fingerprint(const char *doc, int k, char *out, size_t size)
{
	const char *key = "\"primaryLocationLineHash\": \"";
	const char *p = doc;
	for (int i = 0; i <= k; i++) {
		p = strstr(p, key);
		ck_assert_ptr_nonnull(p);
		p += strlen(key);
	}
	size_t n = strcspn(p, "\"");
	ck_assert_uint_lt(n, size);
	memcpy(out, p, n);
	out[n] = 0;
}

START_TEST(fingerprints_survive_moved_lines)
{
	Parsed a, b, c;
	parse_into(&a, "t.ptx", unknown_modifier);
	parse_into(&b, "t.ptx",
		   "// a comment\n\n.version 8.0\n.target sm_50\n.entry k()\n{\n\t\tmov.u33 %r1, 5;\n\tret;\n}\n");
	parse_into(&c, "t.ptx", ".version 8.0\n.target sm_50\n.entry k()\n{\n\tmov.u33 %r2, 5;\n\tret;\n}\n");
	char *da = render_one(REPORT_SARIF, &a.d), *db = render_one(REPORT_SARIF, &b.d),
	     *dc = render_one(REPORT_SARIF, &c.d);
	char fa[64], fb[64], fc[64];
	fingerprint(da, 0, fa, sizeof fa);
	fingerprint(db, 0, fb, sizeof fb);
	fingerprint(dc, 0, fc, sizeof fc);
	ck_assert_ptr_nonnull(strstr(db, "\"startLine\": 7"));   /* it did move */
	ck_assert_str_eq(fa, fb);                                /* moved and re-indented: same */
	ck_assert_str_ne(fa, fc);                                /* a different line: different */
	free(da);
	free(db);
	free(dc);
	parsed_free(&a);
	parsed_free(&b);
	parsed_free(&c);
}
END_TEST

START_TEST(fingerprints_count_identical_findings)
{
	Parsed p;
	parse_into(&p, "t.ptx",
		   ".version 8.0\n.target sm_50\n.entry k()\n{\n\tmov.u33 %r1, 5;\n"
		   "\tmov.u33 %r1, 5;\n\tret;\n}\n");
	ck_assert_uint_eq(diag_errors(&p.d), 2);
	char *doc = render_one(REPORT_SARIF, &p.d);
	char f1[64], f2[64];
	fingerprint(doc, 0, f1, sizeof f1);
	fingerprint(doc, 1, f2, sizeof f2);
	ck_assert_str_ne(f1, f2);
	ck_assert_int_eq(strcspn(f1, ":"), strcspn(f2, ":"));
	ck_assert_int_eq(strncmp(f1, f2, strcspn(f1, ":")), 0);   /* same hash ... */
	ck_assert_str_eq(strchr(f1, ':'), ":1");                  /* ... counted */
	ck_assert_str_eq(strchr(f2, ':'), ":2");
	free(doc);
	parsed_free(&p);
}
END_TEST

static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("render");
	tcase_add_test(tc, the_json_reader_is_strict);
	tcase_add_test(tc, json_key_fields);
	tcase_add_test(tc, json_no_files_and_clean_files);
	tcase_add_test(tc, sarif_key_fields);
	tcase_add_test(tc, sarif_no_results);
	tcase_add_test(tc, escaping);
	tcase_add_test(tc, escaping_forbidden_utf8_forms);
	tcase_add_test(tc, uris);
	tcase_add_test(tc, fingerprints_survive_moved_lines);
	tcase_add_test(tc, fingerprints_count_identical_findings);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(report_suite)
