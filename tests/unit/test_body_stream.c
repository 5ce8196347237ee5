/* A function body handed over statement by statement (issue 18):
 * ptx_parse_stream_body's calls, and --check through it (stream_module
 * without assembly) against the whole-module check, diagnostic for
 * diagnostic in emission order, with and without an error limit. */
#include "check_main.h"
#include "driver/stream.h"
#include "front/parse.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the parser's calls ---- */

typedef struct Calls {
	char log[512];
	int body_items;         /* functions handed over with body NULL */
} Calls;

static void add(Calls *c, const char *what)
{
	strncat(c->log, what, sizeof c->log - strlen(c->log) - 1);
}

static void on_item(void *ctx, const Item *it)
{
	Calls *c = ctx;
	if (it->kind == IT_FUNC) {
		add(c, "F ");
		c->body_items += it->u.func.has_body && !it->u.func.body;
	}
}

static void on_func(void *ctx, const Item *it)
{
	add(ctx, "{ ");
}

static void on_stmt(void *ctx, const Stmt *s)
{
	add(ctx, s->kind == ST_LABEL ? "L " : s->kind == ST_INSTR ? "I " : s->kind == ST_DECL ? "D " : "? ");
}

static void on_block(void *ctx, SrcLoc open)
{
	add(ctx, "[ ");
}

static void on_block_end(void *ctx, SrcLoc block)
{
	add(ctx, "] ");
}

static const BodyFns calls = { 1, on_func, on_stmt, on_block, on_block_end };
static const BodyFns calls_after3 = { 3, on_func, on_stmt, on_block, on_block_end };

START_TEST(parser_hands_over_statements)
{
	char src[] = ".version 7.0\n.target sm_75\n.func f();\n"
		     ".entry k() { .reg .b32 %r<2>; bra L; { mov.u32 %r1, 1; { L2: } } L: ret; }\n\0";
	Module m;
	module_init(&m, "b.ptx");
	DiagSink d;
	diag_init(&d, "b.ptx", src, strlen(src));
	Calls c = { 0 };
	ck_assert_int_eq(ptx_parse_stream_body(&m, &d, src, strlen(src), on_item, &calls, &c, true), 0);
	ck_assert_str_eq(c.log, "F { D I [ I [ L ] ] L I F ");
	ck_assert_int_eq(c.body_items, 1);
	diag_fini(&d);
	module_fini(&m);
}
END_TEST

START_TEST(short_bodies_come_whole)
{
	/* k has 2 statements: whole; k2 streams from its third on (the
	 * block's two count), the first three at once */
	char src[] = ".version 7.0\n.target sm_75\n.entry k() { bra L; L: }\n"
		     ".entry k2() { .reg .b32 %r; { mov.u32 %r, 1; } ret; bra E; E: }\n\0";
	Module m;
	module_init(&m, "b.ptx");
	DiagSink d;
	diag_init(&d, "b.ptx", src, strlen(src));
	Calls c = { 0 };
	ck_assert_int_eq(ptx_parse_stream_body(&m, &d, src, strlen(src), on_item, &calls_after3, &c, true), 0);
	ck_assert_str_eq(c.log, "F { D [ I ] I I L F ");
	ck_assert_int_eq(c.body_items, 1);
	diag_fini(&d);
	module_fini(&m);
}
END_TEST

/* ---- --check through it ---- */

/* The diagnostics in emission order, one line each. */
static char *emitted(const DiagSink *d)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	for (const Diag *g = d->head; g; g = g->next) {
		fprintf(f, "%d:%d %s [%s] %s\n", g->loc.first_line, g->loc.first_column,
			g->sev == SEV_ERROR ? "error" : g->sev == SEV_WARNING ? "warning" : "note", g->rule, g->msg);
		for (const Diag *n = g->notes; n; n = n->next)
			fprintf(f, "  %d:%d note %s\n", n->loc.first_line, n->loc.first_column, n->msg);
	}
	fprintf(f, "truncated=%d errors=%u\n", d->truncated, diag_errors(d));
	fclose(f);
	return out;
}

static char *whole(const char *text, unsigned limit)
{
	size_t len = strlen(text);
	char *buf = calloc(1, len + 2);
	memcpy(buf, text, len);
	Module m;
	module_init(&m, "w.ptx");
	DiagSink d;
	diag_init(&d, "w.ptx", buf, len);
	d.limit = limit;
	if (ptx_parse_buffer(&m, &d, buf, len) == 0)
		check_module(&m, &d, NULL);
	char *out = emitted(&d);
	diag_fini(&d);
	module_fini(&m);
	free(buf);
	return out;
}

static char *streamed_as(const char *text, unsigned limit, unsigned min_stmts, bool fast, StreamResult want)
{
	size_t len = strlen(text);
	char *buf = calloc(1, len + 2);
	memcpy(buf, text, len);
	Module m;
	module_init(&m, "w.ptx");
	DiagSink d;
	diag_init(&d, "w.ptx", buf, len);
	d.limit = limit;
	CheckOptions co = { .rules = RULES_STRICT };
	StreamJob job = { .check = &co, .body_min_stmts = min_stmts };
	ck_assert_int_eq(stream_module(&m, &d, buf, len, fast, &job), want);
	char *out = emitted(&d);
	diag_fini(&d);
	module_fini(&m);
	free(buf);
	return out;
}

static char *streamed(const char *text, unsigned limit, unsigned min_stmts)
{
	return streamed_as(text, limit, min_stmts, true, STREAM_DONE);
}

static void same(const char *text, int min_errors)
{
	for (unsigned limit = 0; limit < 4; limit++) {
		char *w = whole(text, limit);
		/* streamed from the first statement, from the fifth, not at all */
		for (unsigned min = 1; min <= 9; min += 4) {
			char *s = streamed(text, limit, min);
			ck_assert_str_eq(s, w);
			free(s);
		}
		if (limit == 0) {
			unsigned errors = 0;
			ck_assert_ptr_nonnull(strstr(w, "errors="));
			sscanf(strstr(w, "errors="), "errors=%u", &errors);
			ck_assert_uint_ge(errors, (unsigned)min_errors);
		}
		free(w);
	}
}

#define HEAD ".version 7.0\n.target sm_75\n.address_size 64\n"

START_TEST(forward_labels_resolve_in_place)
{
	/* branches to labels further down, in the same and in outer blocks,
	 * between errors of the statements around them */
	same(HEAD ".entry k()\n{\n.reg .b32 %r<4>;\n.reg .pred %p;\n"
	     "mov.u32 %r1, %nosuch;\n@%p bra DONE;\n{\nbra INNER;\nadd.u32 %r9, %r1, 1;\nINNER:\nbra DONE;\n}\n"
	     "mov.u32 %r2, %other;\nDONE:\nret;\n}\n", 3);
}
END_TEST

START_TEST(unknown_names_at_the_end)
{
	/* never declared: "Unknown symbol" where the statement stood; a
	 * register declared after its use stays unknown to it */
	same(HEAD ".entry k()\n{\n.reg .b32 %r<4>;\nbra NOWHERE;\nmov.u32 %late, 1;\nmov.u32 %r1, 2;\n"
	     ".reg .b32 %late;\nbra.uni L;\nL:\nret;\n}\n", 2);
}
END_TEST

START_TEST(duplicate_labels_first_in_their_block)
{
	/* a block's duplicate labels come before its statements' errors */
	same(HEAD ".entry k()\n{\n.reg .b32 %r<4>;\nmov.u32 %r1, %bad1;\nA:\n{\nmov.u32 %r1, %bad2;\nB:\nB:\n}\n"
	     "mov.u32 %r1, %bad3;\nA:\nret;\n}\n", 5);
}
END_TEST

START_TEST(param_read_waits_for_the_body)
{
	/* ld.param from a body .param no call returns into is an error; one
	 * a later call returns into is not */
	same(HEAD ".func (.param .b32 r) f()\n{\nst.param.b32 [r], 1;\nret;\n}\n"
	     ".entry k()\n{\n.reg .b32 %r<4>;\n.param .b32 p;\n.param .b32 q;\n"
	     "ld.param.b32 %r1, [p];\nld.param.b32 %r2, [q];\nbra L;\nmov.u32 %r3, %bad;\nL:\n"
	     "call (p), f, ();\nret;\n}\n", 2);
}
END_TEST

START_TEST(many_functions_and_blocks)
{
	same(HEAD ".func g(.param .b32 a)\n{\n.reg .b32 %r;\nbra X;\nX:\nld.param.b32 %r, [a];\nret;\n}\n"
	     ".entry k1()\n{\n{\n{\nbra Y;\n}\nY:\n}\nbra Y;\nret;\n}\n"
	     ".entry k2()\n{\n.reg .b64 %rd;\nmov.u64 %rd, k1;\nbra Z;\nZ:\nZ:\nret;\n}\n", 2);
}
END_TEST

START_TEST(indirect_calls_meet_their_prototype)
{
	/* a streamed label gets the .callprototype after it (no s->next then):
	 * calls through a register are held against it, one with the wrong
	 * count is refused, in the whole and in every streamed form */
	same(HEAD ".func (.param .b32 r) callee(.param .b32 a)\n{\nst.param.b32 [r], 1;\nret;\n}\n"
	     ".entry k()\n{\n.reg .b64 %rd<2>;\n.reg .b32 %r<2>;\n"
	     "prot: .callprototype (.param .b32 _) _ (.param .b32 _);\nmov.u64 %rd1, callee;\n"
	     "{\n.param .b32 pa;\n.param .b32 rv;\nst.param.b32 [pa], 1;\n"
	     "call (rv), %rd1, (pa), prot;\ncall (rv), %rd1, (pa, pa), prot;\nld.param.b32 %r1, [rv];\n}\n"
	     "ret;\n}\n", 1);
}
END_TEST

START_TEST(nothing_checked_after_a_syntax_error)
{
	/* an expression too deep to walk is refused by the parser; the
	 * statements around it must not reach the checker (the exact parser
	 * goes on after the error) */
	enum { TERMS = 200000 };
	const char *head = HEAD ".entry k()\n{\n.reg .b32 %r<4>;\nbra L;\nmov.b32 %r1, 1";
	const char *tail = ";\nL:\nmov.u32 %r2, %bad;\nret;\n}\n";
	size_t n = strlen(head) + 2 * TERMS + strlen(tail) + 1;
	char *text = malloc(n);
	strcpy(text, head);
	char *p = text + strlen(head);
	for (int i = 0; i < TERMS; i++, p += 2)
		memcpy(p, "+1", 2);
	strcpy(p, tail);
	char *w = whole(text, 0);
	ck_assert_ptr_nonnull(strstr(w, "levels deep"));
	for (int exact = 0; exact < 2; exact++) {
		char *s = streamed_as(text, 0, 1, !exact, STREAM_DONE);
		ck_assert_str_eq(s, w);
		free(s);
	}
	free(w);
	free(text);
}
END_TEST

static Suite *body_stream_suite(void)
{
	Suite *s = suite_create("body_stream");
	TCase *t = tcase_create("body_stream");
	tcase_add_test(t, parser_hands_over_statements);
	tcase_add_test(t, short_bodies_come_whole);
	tcase_add_test(t, forward_labels_resolve_in_place);
	tcase_add_test(t, unknown_names_at_the_end);
	tcase_add_test(t, duplicate_labels_first_in_their_block);
	tcase_add_test(t, indirect_calls_meet_their_prototype);
	tcase_add_test(t, param_read_waits_for_the_body);
	tcase_add_test(t, many_functions_and_blocks);
	tcase_add_test(t, nothing_checked_after_a_syntax_error);
	suite_add_tcase(s, t);
	return s;
}

CHECK_MAIN(body_stream_suite)
