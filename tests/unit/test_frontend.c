/* Unit tests for the scanner, the parser and the AST (Check). */
#include "base/arena.h"
#include "front/ast.h"
#include "base/diag.h"
#include "base/intern.h"
#include "base/rules.h"
#include "front/parse.h"
#include "front/print.h"
#include "check_main.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_helper.h"

static const Item *item(int k)
{
	const Item *it = M.items;
	while (it && k--)
		it = it->next;
	ck_assert_ptr_nonnull(it);
	return it;
}

static const Stmt *body_stmt(int k)
{
	const Item *it = M.items;
	while (it && it->kind != IT_FUNC)
		it = it->next;
	ck_assert_ptr_nonnull(it);
	const Stmt *s = it->u.func.body;
	while (s && k--)
		s = s->next;
	ck_assert_ptr_nonnull(s);
	return s;
}

static char *render(void)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	DiagTextOptions o = { .color = false, .caret = true };
	diag_render_text(&D, f, &o);
	fclose(f);
	return out;
}

/* ---- scanner ---- */

START_TEST(integer_literals)
{
	parse_str(".global .u64 a[6] = {0x1F, 017, 0b101, 42U, 18446744073709551615, 0};");
	ck_assert_uint_eq(diag_errors(&D), 0);
	const Expr *init = item(0)->u.var.decls[0].init;
	ck_assert_int_eq(init->kind, EX_VECTOR);
	ck_assert_uint_eq(init->nelems, 6);
	ck_assert_uint_eq(init->elems[0]->ival, 31);
	ck_assert_uint_eq(init->elems[1]->ival, 15);
	ck_assert_uint_eq(init->elems[2]->ival, 5);
	ck_assert_uint_eq(init->elems[3]->ival, 42);
	ck_assert_str_eq(init->elems[3]->text, "42U");
	ck_assert(init->elems[4]->ival == UINT64_MAX);
	ck_assert(!init->elems[4]->ival_overflow);
}
END_TEST

START_TEST(integer_overflow_is_diagnosed)
{
	/* ptxas 13 refuses a literal once a digit follows a value of 2^63 or
	 * more (lexer/ptx.l) ... */
	parse_str(".global .u64 a = 92233720368547758080;");
	ck_assert_uint_eq(diag_errors(&D), 1);
	ck_assert_str_eq(D.head->rule, "lexical");
	ck_assert(strstr(D.head->msg, "does not fit in 64 bits") != NULL);
	ck_assert_int_eq(D.head->loc.first_line, 1);
	ck_assert_int_eq(D.head->loc.first_column, 18);
}
END_TEST

START_TEST(wide_integer_keeps_low_bits)
{
	/* ... and otherwise keeps the low 64 bits of a wider one silently; the
	 * module lists it for strict mode's literal-truncated warning. */
	parse_str(".global .u64 a[2] = {18446744073709551617, 0x1FFFFFFFFFFFFFFFF};");
	ck_assert_uint_eq(diag_errors(&D), 0);
	const Expr *init = item(0)->u.var.decls[0].init;
	ck_assert_uint_eq(init->elems[0]->ival, 1);
	ck_assert(init->elems[0]->ival_overflow);
	ck_assert(init->elems[1]->ival == UINT64_MAX);
	ck_assert_uint_eq(M.ntruncated_literals, 2);
	ck_assert_int_eq(M.truncated_literals[1].first_column, 44);
}
END_TEST

START_TEST(float_literals)
{
	parse_str(".global .f32 a[4] = {0f3F800000, 0d3FF0000000000000, 1.5, 1e3};");
	ck_assert_uint_eq(diag_errors(&D), 0);
	const Expr *init = item(0)->u.var.decls[0].init;
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(init->elems[i]->kind, EX_FLOAT);
	ck_assert_str_eq(init->elems[1]->text, "0d3FF0000000000000");
}
END_TEST

START_TEST(malformed_hex_float)
{
	parse_str(".global .f32 a = 0f3F80;");
	ck_assert_uint_eq(diag_errors(&D), 1);
	ck_assert(strstr(D.head->msg, "exactly 8 hex digits") != NULL);
}
END_TEST

START_TEST(stray_bytes)
{
	static const char src[] = ".version 7.0\n\x01 # \xc3\n";
	parse_str(src);
	ck_assert_uint_eq(diag_errors(&D), 3);
	ck_assert(strstr(D.head->msg, "control character 0x01") != NULL);
	ck_assert(strstr(D.head->next->msg, "character '#'") != NULL);
	ck_assert(strstr(D.tail->msg, "byte 0xc3") != NULL);
}
END_TEST

START_TEST(crlf_and_no_final_newline)
{
	parse_str(".version 7.0\r\n.target sm_50\r\n.address_size 64");
	ck_assert_uint_eq(diag_errors(&D), 0);
	ck_assert_uint_eq(M.nitems, 3);
	ck_assert_int_eq(item(2)->u.address_size.bits, 64);
	ck_assert_int_eq(item(2)->loc.first_line, 3);
}
END_TEST

/* ---- parser ---- */

START_TEST(header_directives)
{
	parse_str(".version 7.8\n.target sm_90a, texmode_independent, debug\n.address_size 64\n");
	ck_assert_uint_eq(diag_errors(&D), 0);
	ck_assert_int_eq(item(0)->kind, IT_VERSION);
	ck_assert_int_eq(item(0)->u.version.major, 7);
	ck_assert_int_eq(item(0)->u.version.minor, 8);
	ck_assert_int_eq(item(1)->kind, IT_TARGET);
	ck_assert_uint_eq(item(1)->u.target.n, 3);
	ck_assert_str_eq(item(1)->u.target.names[2], "debug");
	ck_assert_int_eq(item(1)->u.target.locs[1].first_column, 17);
}
END_TEST

START_TEST(version_needs_minor)
{
	parse_str(".version 7\n");
	ck_assert_uint_eq(diag_errors(&D), 1);
	ck_assert(strstr(D.head->msg, "MAJOR.MINOR") != NULL);
}
END_TEST

START_TEST(declarators)
{
	parse_str(".entry k()\n{\n\t.reg .b32 %r<100>, %x;\n\t.local .align 8 .b8 d[4][];\n}\n");
	ck_assert_uint_eq(diag_errors(&D), 0);
	const Stmt *s = body_stmt(0);
	ck_assert_int_eq(s->kind, ST_DECL);
	ck_assert_uint_eq(s->u.decl.ndecls, 2);
	ck_assert_int_eq(s->u.decl.decls[0].range, 100);
	ck_assert_int_eq(s->u.decl.decls[1].range, -1);
	s = s->next;
	ck_assert_uint_eq(s->u.decl.nspecs, 3);
	ck_assert(s->u.decl.specs[1].has_value);
	ck_assert_int_eq(s->u.decl.specs[1].value, 8);
	ck_assert_uint_eq(s->u.decl.decls[0].ndims, 2);
	ck_assert_int_eq(s->u.decl.decls[0].dims[0], 4);
	ck_assert_int_eq(s->u.decl.decls[0].dims[1], -1);
}
END_TEST

START_TEST(surface_instruction)
{
	parse_str(".entry k()\n{\n@!%p1 suld.b.2d.v4.b32.trap {%r1,%r2,%r3,_}, [surf, {%r5, %r6}];\n}\n");
	ck_assert_uint_eq(diag_errors(&D), 0);
	const Instr *in = &body_stmt(0)->u.instr;
	ck_assert(in->has_guard);
	ck_assert(in->guard_negated);
	ck_assert_str_eq(in->guard->text, "%p1");
	ck_assert_str_eq(in->opcode, "suld");
	ck_assert_uint_eq(in->nmods, 5);
	ck_assert_str_eq(in->mods[4], ".trap");
	ck_assert_int_eq(in->mod_locs[1].first_column, 13);
	ck_assert_uint_eq(in->nops, 2);
	ck_assert_int_eq(in->ops[0]->kind, EX_VECTOR);
	ck_assert_str_eq(in->ops[0]->elems[3]->text, "_");
	ck_assert_int_eq(in->ops[1]->kind, EX_ADDRESS);
	ck_assert_uint_eq(in->ops[1]->nelems, 2);
	ck_assert_int_eq(in->ops[1]->elems[1]->kind, EX_VECTOR);
	ck_assert_int_eq(in->opcode_id >= 0, 1);
}
END_TEST

START_TEST(operands)
{
	parse_str(".entry k()\n{\nmov.u32 %r1, %tid.x;\nld.global.u32 %r2, [%rd1+-4];\n"
		  "call.uni (retval0), foo, (p0, p1);\nsetp.lt.s32 %p1|%p2, %r1, -1;\nfence.proxy.alias;\n}\n");
	ck_assert_uint_eq(diag_errors(&D), 0);
	const Expr *tid = body_stmt(0)->u.instr.ops[1];
	ck_assert_str_eq(tid->text, "%tid");
	ck_assert_str_eq(tid->component, ".x");
	const Expr *addr = body_stmt(1)->u.instr.ops[1];
	ck_assert_int_eq(addr->kind, EX_ADDRESS);
	ck_assert_int_eq(addr->elems[0]->kind, EX_BINARY);
	ck_assert_int_eq(addr->elems[0]->rhs->kind, EX_UNARY);
	const Instr *call = &body_stmt(2)->u.instr;
	ck_assert_int_eq(call->ops[0]->kind, EX_LIST);
	ck_assert_int_eq(call->ops[1]->kind, EX_NAME);
	ck_assert_uint_eq(call->ops[2]->nelems, 2);
	const Expr *pair = body_stmt(3)->u.instr.ops[0];
	ck_assert_int_eq(pair->kind, EX_BINARY);
	ck_assert_int_eq(pair->op, '|');
	/* a directive keyword used as a modifier */
	ck_assert_str_eq(body_stmt(4)->u.instr.mods[1], ".alias");
}
END_TEST

START_TEST(functions_and_prototypes)
{
	parse_str(".extern .func (.param .b32 r) f (.param .b32 a, .param .u64 .ptr .global .align 16 b);\n"
		  ".visible .entry k(.param .u64 p)\n.maxntid 256, 1, 1\n.minnctapersm 2\n{\nret;\n}\n");
	ck_assert_uint_eq(diag_errors(&D), 0);
	const Func *f = &item(0)->u.func;
	ck_assert(!f->is_entry);
	ck_assert(!f->has_body);
	ck_assert_uint_eq(f->nrets, 1);
	ck_assert_uint_eq(f->nparams, 2);
	ck_assert_uint_eq(f->params[1].nspecs, 5);
	const Func *k = &item(1)->u.func;
	ck_assert(k->is_entry);
	ck_assert_uint_eq(k->ndirs, 2);
	ck_assert_str_eq(k->dirs[0].name, ".maxntid");
	ck_assert_uint_eq(k->dirs[0].nargs, 3);
}
END_TEST

START_TEST(debug_info)
{
	parse_str(".file 1 \"a.cu\", 1700000000, 1234\n.entry k()\n{\n.loc 1 5 3, function_name $L__s0, "
		  "inlined_at 1 20 3\nret;\n}\n.section .debug_info\n{\n$L__info:\n.b32 .debug_abbrev\n"
		  ".b8 1, 2\n.b64 $L__func_begin0+8\n}\n");
	ck_assert_uint_eq(diag_errors(&D), 0);
	ck_assert_uint_eq(item(0)->u.dir.nargs, 4);
	const Directive *loc = &body_stmt(0)->u.dir;
	ck_assert_str_eq(loc->name, ".loc");
	ck_assert_uint_eq(loc->nattrs, 2);
	ck_assert_str_eq(loc->attrs[1].name, "inlined_at");
	ck_assert_uint_eq(loc->attrs[1].nargs, 3);
	ck_assert_int_eq(body_stmt(1)->kind, ST_INSTR);
	const Section *sec = &item(2)->u.section;
	ck_assert_str_eq(sec->name, ".debug_info");
	ck_assert_int_eq(sec->items->kind, ST_LABEL);
	ck_assert_int_eq(sec->items->next->u.dir.args[0]->kind, EX_SECTION);
	ck_assert_uint_eq(sec->items->next->next->u.dir.nargs, 2);
}
END_TEST

START_TEST(opaque_initializer)
{
	parse_str(".global .surfref s = { width = 64, height = 32 };");
	ck_assert_uint_eq(diag_errors(&D), 0);
	const Expr *init = item(0)->u.var.decls[0].init;
	ck_assert_int_eq(init->kind, EX_VECTOR);
	ck_assert_int_eq(init->elems[1]->kind, EX_FIELD);
	ck_assert_str_eq(init->elems[1]->text, "height");
	ck_assert_uint_eq(init->elems[1]->lhs->ival, 32);
}
END_TEST

START_TEST(callprototype_and_targets)
{
	parse_str(".entry k()\n{\nproto: .callprototype (.param .b32 _) _ (.param .b64 _);\n"
		  "ts: .branchtargets L0, L1;\nL0:\nL1:\nret;\n}\n");
	ck_assert_uint_eq(diag_errors(&D), 0);
	ck_assert_int_eq(body_stmt(1)->kind, ST_PROTO);
	ck_assert_uint_eq(body_stmt(1)->u.proto.nparams, 1);
	ck_assert_str_eq(body_stmt(3)->u.dir.name, ".branchtargets");
}
END_TEST

START_TEST(recovery_reports_every_error)
{
	parse_str(".entry k()\n{\nadd.s32 %r1, , %r2;\nmov.u32 %r1 %r2;\n{\nret ];\n}\nret;\n}\n"
		  ".entry j()\n{\nexit\n@%p1 bra L;\n}\n");
	ck_assert_uint_eq(diag_errors(&D), 4);
	int lines[4], k = 0;
	for (const Diag *d = D.head; d; d = d->next)
		lines[k++] = d->loc.first_line;
	ck_assert_int_eq(lines[0], 3);
	ck_assert_int_eq(lines[1], 4);
	ck_assert_int_eq(lines[2], 6);
	ck_assert_int_eq(lines[3], 12);
	ck_assert_int_eq(D.tail->loc.first_column, 5);
	ck_assert(strstr(D.tail->msg, "expected ';'") != NULL);
	/* both functions survive recovery */
	ck_assert_uint_eq(M.nitems, 2);
}
END_TEST

START_TEST(unexpected_eof)
{
	parse_str(".entry k()\n{\nret;\n");
	ck_assert_uint_eq(diag_errors(&D), 1);
	ck_assert(strstr(D.head->msg, "unexpected end of file") != NULL);
}
END_TEST

START_TEST(deep_nesting_is_an_error_not_a_crash)
{
	size_t depth = 200000;
	char *src = malloc(depth * 2 + 64);
	strcpy(src, ".entry k()\n{\n");
	size_t n = strlen(src);
	memset(src + n, '{', depth);
	memset(src + n + depth, '}', depth);
	strcpy(src + n + 2 * depth, "\n}\n");
	parse_str(src);
	free(src);
	ck_assert_uint_ge(diag_errors(&D), 1);
	ck_assert(strstr(D.head->msg, "nested too deeply") != NULL);
}
END_TEST

/* ---- AST and helpers ---- */

START_TEST(constant_expressions)
{
	parse_str(".global .u32 a = (1<<4)+2*3-(8/2) % 3;");
	int64_t v;
	ck_assert(expr_const_int(item(0)->u.var.decls[0].init, &v));
	ck_assert_int_eq(v, 21);
}
END_TEST

START_TEST(printer_canonical_output)
{
	parse_str(".version 7.0\n.target sm_50\n.global .surfref s;\n.visible .entry k(.param .u64 p)\n{\n"
		  "  .reg .b32 %r<4>;\n@%p1 bra $L1;\n$L1:\n  suld.b.1d.b32.trap %r1, [s, {%r2}];\n}\n");
	ck_assert_uint_eq(diag_errors(&D), 0);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	ptx_print_module(&M, f);
	fclose(f);
	ck_assert_str_eq(out, ".version 7.0\n.target sm_50\n.global .surfref s;\n\n"
			      ".visible .entry k(\n\t.param .u64 p\n)\n{\n\t.reg .b32 %r<4>;\n"
			      "\t@%p1 bra $L1;\n$L1:\n\tsuld.b.1d.b32.trap %r1, [s, {%r2}];\n}\n");
	free(out);
}
END_TEST

START_TEST(diagnostics_render_gcc_style)
{
	parse_str(".entry k()\n{\n\tmov.u33 %r1, 5;\n}\n");
	ck_assert_uint_eq(diag_errors(&D), 1);
	char *out = render();
	ck_assert_str_eq(out, "t.ptx:3:5: error: unknown modifier '.u33' for 'mov'; did you mean "
			      "'.u32'? [unknown-modifier]\n"
			      "     3 | \tmov.u33 %r1, 5;\n"
			      "       | \t   ^~~~\n");
	free(out);
}
END_TEST

START_TEST(arena_alignment_and_growth)
{
	Arena a;
	arena_init(&a);
	for (int i = 1; i < 5000; i++) {
		char *p = arena_alloc(&a, (size_t)i % 97 + 1);
		ck_assert_uint_eq((uintptr_t)p % _Alignof(max_align_t), 0);
		p[0] = 1;
	}
	char *big = arena_alloc(&a, 10u << 20);
	big[(10u << 20) - 1] = 1;
	arena_free(&a);
}
END_TEST

START_TEST(arena_reset_and_adopt)
{
	Arena a, b;
	arena_init(&a);
	arena_init(&b);
	for (int i = 0; i < 3; i++) {
		char *p = arena_alloc(&a, 100u << 10);
		p[0] = 1;
	}
	arena_reset(&a);
	ck_assert_uint_eq(a.total, 0);
	ck_assert_ptr_nonnull(a.head);
	char *s = arena_strdup(&b, "kept");
	arena_alloc(&a, 16);
	arena_adopt(&a, &b);
	ck_assert_ptr_null(b.head);
	ck_assert_str_eq(s, "kept");
	arena_free(&a);
}
END_TEST

/* Every RuleId names its own rules.def row: the printed text, the index
 * SARIF uses and the fatal flag come from the table through the enum. */
START_TEST(rule_ids_name_their_rows)
{
	size_t n;
	const RuleInfo *all = rules_all(&n);
	ck_assert_uint_eq(n, RULE_COUNT - 1);
	for (int id = RULE_NONE + 1; id < RULE_COUNT; id++) {
		ck_assert_str_eq(rule_name((RuleId)id), all[id - 1].id);
		ck_assert_int_eq(rule_index(rule_name((RuleId)id)), id - 1);
	}
	ck_assert_ptr_null(rule_name(RULE_NONE));
	ck_assert_str_eq(rule_name(RULE_OPERAND_TYPE), "operand-type");
	ck_assert_str_eq(rule_name(RULE_SCHED_HAZARD), "sched-hazard");
	ck_assert(rule_is_fatal(RULE_SYNTAX) && !rule_is_fatal(RULE_OPERAND_TYPE));
	DiagSink s;
	diag_init(&s, "x.ptx", NULL, 0);
	const Diag *d = diag_add(&s, SEV_ERROR, (SrcLoc){ 1, 1, 1, 2 }, RULE_ST_OPERAND, "m");
	ck_assert_int_eq(d->id, RULE_ST_OPERAND);
	ck_assert_str_eq(d->rule, "st-operand");
	diag_fini(&s);
}
END_TEST

/* Appending a sink behaves as if its diagnostics had been emitted into the
 * destination: same order, same counts, same --max-errors cut. */
START_TEST(diag_append_keeps_order_and_limit)
{
	DiagSink dst, src;
	diag_init(&dst, "x.ptx", NULL, 0);
	diag_init(&src, "x.ptx", NULL, 0);
	dst.limit = src.limit = 2;
	diag_add(&dst, SEV_ERROR, (SrcLoc){ 5, 1, 5, 2 }, RULE_SYNTAX, "first");
	diag_add(&src, SEV_WARNING, (SrcLoc){ 1, 1, 1, 2 }, RULE_SYNTAX, "warn");
	diag_add(&src, SEV_ERROR, (SrcLoc){ 2, 1, 2, 2 }, RULE_SYNTAX, "second");
	diag_add(&src, SEV_ERROR, (SrcLoc){ 3, 1, 3, 2 }, RULE_SYNTAX, "third");
	diag_append(&dst, &src);
	ck_assert_uint_eq(dst.count[SEV_ERROR], 3);
	ck_assert_uint_eq(dst.count[SEV_WARNING], 1);
	ck_assert(dst.truncated);
	const char *want[] = { "first", "warn", "second" };
	int n = 0;
	for (const Diag *d = dst.head; d; d = d->next, n++) {
		ck_assert_int_lt(n, 3);
		ck_assert_str_eq(d->msg, want[n]);
	}
	ck_assert_int_eq(n, 3);
	diag_fini(&src);
	diag_fini(&dst);
}
END_TEST

typedef struct Seen { int items, funcs; char names[4][16]; } Seen;

static void see_item(void *ctx, const Item *it)
{
	Seen *s = ctx;
	if (it->kind == IT_FUNC && s->funcs < 4)
		snprintf(s->names[s->funcs++], sizeof s->names[0], "%s", it->u.func.name);
	s->items++;
}

START_TEST(stream_hands_over_items)
{
	char src[] = ".version 7.0\n.target sm_75\n.entry a() { ret; }\n.global .u32 g;\n"
		     ".entry b() { .reg .b32 %r<2>; mov.u32 %r1, 0f3F800000; ret; }\n\0";
	Module m;
	module_init(&m, "s.ptx");
	DiagSink d;
	diag_init(&d, "s.ptx", src, strlen(src));
	Seen seen = { 0 };
	ck_assert_int_eq(ptx_parse_stream(&m, &d, src, strlen(src), see_item, &seen, true), 0);
	ck_assert_int_eq(seen.items, 5);
	ck_assert_int_eq(seen.funcs, 2);
	ck_assert_str_eq(seen.names[0], "a");
	ck_assert_str_eq(seen.names[1], "b");
	ck_assert_ptr_null(m.items);
	diag_fini(&d);
	module_fini(&m);
}
END_TEST

START_TEST(interning_shares_spellings)
{
	Arena a;
	arena_init(&a);
	InternTable t;
	intern_init(&t, &a);
	const char *x = intern(&t, "%r1abc", 3);
	for (int i = 0; i < 10000; i++) {
		char name[16];
		int n = snprintf(name, sizeof name, "%%r%d", i);
		intern(&t, name, (size_t)n);
	}
	ck_assert_ptr_eq(intern(&t, "%r1", 3), x);
	ck_assert_str_eq(x, "%r1");
	intern_fini(&t);
	arena_free(&a);
}
END_TEST

static Suite *frontend_suite(void)
{
	Suite *s = suite_create("frontend");
	TCase *lex = tcase_create("scanner");
	tcase_add_checked_fixture(lex, NULL, teardown);
	tcase_add_test(lex, integer_literals);
	tcase_add_test(lex, integer_overflow_is_diagnosed);
	tcase_add_test(lex, wide_integer_keeps_low_bits);
	tcase_add_test(lex, float_literals);
	tcase_add_test(lex, malformed_hex_float);
	tcase_add_test(lex, stray_bytes);
	tcase_add_test(lex, crlf_and_no_final_newline);
	suite_add_tcase(s, lex);

	TCase *par = tcase_create("parser");
	tcase_add_checked_fixture(par, NULL, teardown);
	tcase_set_timeout(par, 30);
	tcase_add_test(par, header_directives);
	tcase_add_test(par, version_needs_minor);
	tcase_add_test(par, declarators);
	tcase_add_test(par, surface_instruction);
	tcase_add_test(par, operands);
	tcase_add_test(par, functions_and_prototypes);
	tcase_add_test(par, debug_info);
	tcase_add_test(par, opaque_initializer);
	tcase_add_test(par, callprototype_and_targets);
	tcase_add_test(par, recovery_reports_every_error);
	tcase_add_test(par, unexpected_eof);
	tcase_add_test(par, deep_nesting_is_an_error_not_a_crash);
	suite_add_tcase(s, par);

	TCase *ast = tcase_create("ast");
	tcase_add_checked_fixture(ast, NULL, teardown);
	tcase_add_test(ast, constant_expressions);
	tcase_add_test(ast, printer_canonical_output);
	tcase_add_test(ast, diagnostics_render_gcc_style);
	tcase_add_test(ast, arena_alignment_and_growth);
	tcase_add_test(ast, interning_shares_spellings);
	tcase_add_test(ast, arena_reset_and_adopt);
	tcase_add_test(ast, diag_append_keeps_order_and_limit);
	tcase_add_test(ast, rule_ids_name_their_rows);
	tcase_add_test(ast, stream_hands_over_items);
	suite_add_tcase(s, ast);
	return s;
}

CHECK_MAIN(frontend_suite)
