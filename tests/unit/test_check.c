/* Unit tests for the checker's tables (targets, requirements, types, symbol
 * scopes) and for check_module() on small modules (Check). */
#include "check/check.h"
#include "isa/ptx_types.h"
#include "base/diag.h"
#include "front/parse.h"
#include "isa/requirements.h"
#include "check/symtab.h"
#include "isa/targets.h"
#include "check_main.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tables ---- */

START_TEST(test_versions_sorted_and_legal)
{
	size_t n;
	const PtxVersion *v = ptx_versions(&n);
	ck_assert_uint_gt(n, 40);
	for (size_t i = 1; i < n; i++)
		ck_assert_int_lt(v[i - 1], v[i]);
	ck_assert(ptx_version_is_legal(PTX_VERSION_OF(1, 5)));
	ck_assert(ptx_version_is_legal(PTX_VERSION_OF(9, 0)));
	ck_assert(!ptx_version_is_legal(PTX_VERSION_OF(1, 6)));
	ck_assert(!ptx_version_is_legal(PTX_VERSION_OF(9, 1)));
	ck_assert_int_eq(ptx_version_newest(), v[n - 1]);
	char buf[8];
	ck_assert_str_eq(ptx_version_str(PTX_VERSION_OF(8, 1), buf, sizeof buf), "8.1");
}
END_TEST

START_TEST(test_targets_lookup)
{
	const TargetInfo *t = ptx_target_lookup("sm_88");
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(t->sm, 88);
	/* ptxas quirk: sm_88 is accepted from 7.3, below sm_87's 7.4 */
	ck_assert_int_lt(t->min_version, ptx_target_lookup("sm_87")->min_version);
	const TargetInfo *c = ptx_target_lookup("compute_75");
	ck_assert_ptr_eq(c, ptx_target_lookup("sm_75"));
	ck_assert_int_eq(ptx_target_lookup("sm_90a")->family, 'a');
	ck_assert_int_eq(ptx_target_lookup("sm_120f")->family, 'f');
	ck_assert_ptr_null(ptx_target_lookup("sm_99"));
	ck_assert(ptx_target_name_is_arch_shaped("sm_99"));
	ck_assert(ptx_target_name_is_arch_shaped("compute_75a"));
	ck_assert(!ptx_target_name_is_arch_shaped("foo"));
	ck_assert(!ptx_target_name_is_arch_shaped("sm_"));
	ck_assert_int_eq(ptx_target_option("texmode_independent"), TOPT_TEXMODE_INDEPENDENT);
	ck_assert_int_eq(ptx_target_option("sm_20"), TOPT_NONE);
}
END_TEST

START_TEST(test_targets_every_min_version_is_legal)
{
	size_t n;
	const TargetInfo *t = ptx_targets(&n);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(ptx_version_is_legal(t[i].min_version), "%s", t[i].name);
}
END_TEST

START_TEST(test_requirement_rows_consistent)
{
	size_t n;
	const ReqRow *r = req_rows(&n);
	ck_assert_uint_eq(n, REQ_COUNT);
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_eq(r[i].id, (ReqId)i);
		ck_assert_ptr_eq(req_row(r[i].id), &r[i]);
		ck_assert_msg(r[i].min_version || r[i].min_sm, "%s gates nothing", r[i].id_name);
		if (r[i].min_version)
			ck_assert_msg(ptx_version_is_legal(r[i].min_version), "%s", r[i].id_name);
		/* ptxas never enforces more than its message states */
		ck_assert_int_le(r[i].ptxas_version, r[i].min_version);
		ck_assert(r[i].feature[0] && r[i].doc[0]);
		if (r[i].min_sm) {
			char name[16];
			snprintf(name, sizeof name, "sm_%d", r[i].min_sm);
			ck_assert_msg(ptx_target_lookup(name), "%s: no target %s", r[i].id_name, name);
		}
	}
}
END_TEST

START_TEST(test_requirement_subjects)
{
	char buf[128];
	ck_assert_str_eq(req_subject(req_row(REQ_SUST_P), REQ_FORM_INSTRUCTION, NULL, buf, sizeof buf),
		"Instruction 'sust.p'");
	ck_assert_str_eq(req_subject(req_row(REQ_CACHE_OPERATION), REQ_FORM_INSTRUCTION_USE, "suld.b", buf, sizeof buf),
		"Instruction 'suld.b'");
	ck_assert_str_eq(req_subject(req_row(REQ_L1_EVICT_LAST), REQ_FORM_MODIFIER_ON, "st", buf, sizeof buf),
		"Modifier '.evict_last' on 'st'");
	ck_assert_str_eq(req_subject(req_row(REQ_L1_EVICT_LAST), REQ_FORM_MODIFIER_ON_USE, "mbarrier.arrive", buf,
		sizeof buf), "Modifier '.evict_last' on 'mbarrier.arrive'");
	ck_assert_str_eq(req_subject(req_row(REQ_L1_EVICT_LAST), REQ_FORM_FEATURE_USE, "mbarrier.inval", buf, sizeof buf),
		"Feature 'mbarrier.inval'");
	ck_assert_str_eq(req_source_name(REQ_SRC_DOC), "document");
	ck_assert_int_eq(req_row(REQ_ST_RELAXED)->ptxas_version, PTX_VERSION_OF(5, 1));
}
END_TEST

START_TEST(test_type_register_fits)
{
	ck_assert(type_register_fits(TY_B8, TY_F64, FIT_RELAXED));
	ck_assert(type_register_fits(TY_U32, TY_U64, FIT_RELAXED));
	ck_assert(type_register_fits(TY_U32, TY_F16X2, FIT_RELAXED));
	ck_assert(!type_register_fits(TY_U32, TY_F32, FIT_RELAXED));
	ck_assert(!type_register_fits(TY_U32, TY_B16, FIT_RELAXED));
	ck_assert(type_register_fits(TY_F32, TY_B64, FIT_RELAXED));
	ck_assert(!type_register_fits(TY_F32, TY_F64, FIT_RELAXED));
	ck_assert(!type_register_fits(TY_F32, TY_U32, FIT_RELAXED));
	ck_assert(!type_register_fits(TY_B32, TY_PRED, FIT_RELAXED));
	ck_assert(type_register_fits(TY_B32, TY_F32, FIT_SIZE_EXACT));
	ck_assert(!type_register_fits(TY_B32, TY_U64, FIT_SIZE_EXACT));
	ck_assert_int_eq(type_from_word(".f16x2"), TY_F16X2);
	ck_assert_int_eq(type_from_word(".surfref"), TY_SURFREF);
	ck_assert_int_eq(type_from_word(".x"), TY_NONE);
}
END_TEST

START_TEST(test_scope_ranges_and_shadowing)
{
	Arena a;
	arena_init(&a);
	Scope *outer = scope_new(&a, NULL), *inner = scope_new(&a, outer);
	Symbol r = { .kind = SYM_REG, .name = "%r", .range = 10, .type = TY_B32 };
	Symbol x = { .kind = SYM_REG, .name = "%x", .range = -1, .type = TY_U64 };
	Symbol x2 = { .kind = SYM_REG, .name = "%x", .range = -1, .type = TY_U32 };
	Symbol r5 = { .kind = SYM_REG, .name = "%r5", .range = -1 };
	ck_assert_ptr_eq(scope_add(outer, &r), &r);
	ck_assert_ptr_eq(scope_add(outer, &x), &x);
	ck_assert_ptr_eq(scope_lookup(inner, "%r9"), &r);
	ck_assert_ptr_null(scope_lookup(inner, "%r10"));
	ck_assert_ptr_null(scope_lookup(inner, "%r"));
	ck_assert_ptr_null(scope_lookup(inner, "%r01"));
	ck_assert_ptr_eq(scope_add(outer, &r5), &r);  /* clash with the range */
	ck_assert_ptr_eq(scope_add(inner, &x2), &x2); /* shadowing is fine */
	ck_assert_ptr_eq(scope_lookup(inner, "%x"), &x2);
	ck_assert_ptr_eq(scope_lookup(outer, "%x"), &x);
	char names[64][8];
	Symbol many[64];
	for (int i = 0; i < 64; i++) {
		snprintf(names[i], sizeof names[i], "v%d", i);
		many[i] = (Symbol){ .kind = SYM_VAR, .name = names[i], .range = -1 };
		ck_assert_ptr_eq(scope_add(inner, &many[i]), &many[i]);
	}
	for (int i = 0; i < 64; i++)
		ck_assert_ptr_eq(scope_lookup(inner, names[i]), &many[i]);
	arena_free(&a);
}
END_TEST

/* ---- check_module on source text ---- */

#include "parse_helper.h"

static void check_str(const char *src, RulesMode rules)
{
	ck_assert_uint_eq(parse_str(src), 0);
	ck_assert_uint_eq(diag_errors(&D), 0);
	CheckOptions opt = { .rules = rules };
	check_module(&M, &D, &opt);
}

static const Diag *find_rule(const char *rule)
{
	for (const Diag *d = D.head; d; d = d->next)
		if (d->rule && strcmp(d->rule, rule) == 0)
			return d;
	return NULL;
}

#define KERNEL(version, target, body)                                                        \
	".version " version "\n.target " target "\n.global .surfref surf_A;\n"                   \
	".entry k()\n{\n.reg .b32 %r<4>;\n.reg .u64 %rd<4>;\n" body "\nret;\n}\n"

START_TEST(test_gate_version_message_and_note)
{
	check_str(KERNEL("2.0", "sm_20", "suld.b.3d.b32.trap %r1, [surf_A, {%r1, %r2, %r3, %r0}];"), RULES_STRICT);
	const Diag *d = find_rule("version-gate");
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->msg, "Feature 'surface instruction with .3d geometry' requires PTX ISA .version 3.0 or "
		"later (the file declares .version 2.0)");
	ck_assert_ptr_nonnull(d->notes);
	ck_assert_int_eq(d->notes->loc.first_line, 1);
	ck_assert_ptr_null(find_rule("target-gate"));
	teardown();
}
END_TEST

START_TEST(test_gate_target_instruction_wording)
{
	check_str(KERNEL("2.0", "sm_13", "sured.b.add.1d.u32.trap [surf_A, {%r1}], %r2;"), RULES_PTXAS);
	const Diag *d = find_rule("target-gate");
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->msg, "Instruction 'sured.b' requires .target sm_20 or higher (the file declares .target sm_13)");
	ck_assert_int_eq(d->notes->loc.first_line, 2);
	teardown();
}
END_TEST

/* One operation per mbarrier instruction, named as ptxas names it: a row
 * with "!.parity" leaves test_wait.parity to its own row. */
START_TEST(test_gate_names_the_operation)
{
	check_str(".version 7.0\n.target sm_75\n.entry k()\n{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n"
		  ".shared .b64 smem;\nmbarrier.test_wait.parity.shared.b64 %p1, [smem], %r1;\n"
		  "mbarrier.inval.shared.b64 [smem];\nret;\n}\n", RULES_PTXAS);
	const char *want[] = {
		"Feature 'mbarrier.test_wait.parity' requires PTX ISA .version 7.1 or later (the file declares .version 7.0)",
		"Feature 'mbarrier.test_wait.parity' requires .target sm_80 or higher (the file declares .target sm_75)",
		"Feature 'mbarrier.inval' requires .target sm_80 or higher (the file declares .target sm_75)",
	};
	size_t n = 0;
	for (const Diag *d = D.head; d; d = d->next, n++) {
		ck_assert_uint_lt(n, sizeof want / sizeof want[0]);
		ck_assert_str_eq(d->msg, want[n]);
	}
	ck_assert_uint_eq(n, sizeof want / sizeof want[0]);
	teardown();
}
END_TEST

START_TEST(test_doc_only_gate_depends_on_mode)
{
	const char *src = KERNEL("2.0", "sm_13", "suld.b.1d.b32.clamp %r1, [surf_A, {%r1}];");
	check_str(src, RULES_STRICT);
	ck_assert_ptr_nonnull(find_rule("target-gate-doc"));
	ck_assert_uint_eq(diag_errors(&D), 1);
	teardown();
	check_str(src, RULES_PTXAS);
	ck_assert_uint_eq(diag_errors(&D), 0);
	teardown();
}
END_TEST

START_TEST(test_ptxas_threshold_below_stated_version)
{
	const char *src = ".version 5.1\n.target sm_70\n.entry k()\n{\n.reg .b32 %r1;\n.reg .u64 %rd1;\n"
			  "st.global.relaxed.gpu.u32 [%rd1], %r1;\nret;\n}\n";
	check_str(src, RULES_PTXAS);
	ck_assert_uint_eq(diag_errors(&D), 0);
	teardown();
	check_str(src, RULES_STRICT);
	const Diag *d = find_rule("version-gate");
	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(strstr(d->msg, "requires PTX ISA .version 6.0 or later"));
	ck_assert_ptr_nonnull(strstr(d->msg, "ptxas 13 accepts it"));
	teardown();
}
END_TEST

START_TEST(test_indirect_access_gates_mov_and_use)
{
	check_str(KERNEL("3.0", "sm_20", "mov.u64 %rd1, surf_A;\nsuq.width.b32 %r1, [%rd1];"), RULES_PTXAS);
	unsigned n = 0;
	for (const Diag *d = D.head; d; d = d->next)
		if (strstr(d->msg, "'indirect surface access'"))
			n++;
	ck_assert_uint_eq(n, 2);
	teardown();
}
END_TEST

START_TEST(test_sured_type_matrix)
{
	check_str(KERNEL("8.1", "sm_50", "sured.b.min.1d.s64.trap [surf_A, {%r1}], %rd1;\n"
					 "sured.b.add.1d.s64.trap [surf_A, {%r1}], %rd1;"), RULES_PTXAS);
	ck_assert_uint_eq(diag_errors(&D), 1);
	ck_assert_str_eq(find_rule("surface-type")->msg, "Incorrect type '.s64' for operation '.add' in instruction 'sured.b'");
	teardown();
}
END_TEST

START_TEST(test_header_rules)
{
	check_str(".version 7.0\n.target sm_90\n.address_size 64\n.entry k()\n{\nret;\n}\n", RULES_PTXAS);
	ck_assert_ptr_nonnull(find_rule("target-version"));
	teardown();
	check_str(".version 2.2\n.target sm_20, texmode_independent\n.address_size 64\n.entry k()\n{\nret;\n}\n",
		RULES_PTXAS);
	ck_assert_str_eq(find_rule("version-gate")->msg, "Feature '.address_size directive' requires PTX ISA .version "
		"2.3 or later (the file declares .version 2.2)");
	teardown();
}
END_TEST

START_TEST(test_symbols)
{
	check_str(KERNEL("9.0", "sm_90", "add.u32 %r1, %r4, %r3;\nL:\nL:\nbra.uni M;"), RULES_STRICT);
	unsigned undefined = 0, dup = 0;
	for (const Diag *d = D.head; d; d = d->next) {
		undefined += strcmp(d->rule, "undefined-symbol") == 0;
		dup += strcmp(d->rule, "duplicate-symbol") == 0;
	}
	ck_assert_uint_eq(undefined, 2); /* %r4 and M */
	ck_assert_uint_eq(dup, 1);
	teardown();
}
END_TEST

START_TEST(test_immediate_rule)
{
	check_str(KERNEL("9.0", "sm_90", "sust.b.1d.b32.trap [surf_A, {%r1}], 0f3F800000;\n"
					 "sust.b.1d.b64.trap [surf_A, {%r1}], 1.5;\n"
					 "sust.b.1d.b16.trap [surf_A, {%r1}], 0f3F800000;\n"
					 "st.global.u32 [%rd1], 1.5;\nst.global.f32 [%rd1], 0d3FF0000000000000;"), RULES_PTXAS);
	unsigned n = 0;
	for (const Diag *d = D.head; d; d = d->next)
		n += d->sev == SEV_ERROR && strstr(d->msg, "float immediate") != NULL;
	ck_assert_uint_eq(n, 2); /* .b16 with 0f, .u32 with 1.5 */
	teardown();
}
END_TEST

START_TEST(test_st_param_in_kernel_by_mode)
{
	const char *src = ".version 7.0\n.target sm_80\n.entry k()\n{\n.reg .b32 %r1;\n.reg .u64 %rd1;\n"
			  "st.param.u32 [%rd1], %r1;\nret;\n}\n";
	check_str(src, RULES_PTXAS);
	ck_assert_uint_eq(diag_errors(&D), 0);
	teardown();
	check_str(src, RULES_STRICT);
	ck_assert_ptr_nonnull(find_rule("st-operand"));
	teardown();
}
END_TEST

START_TEST(test_samplerref_needs_independent_mode)
{
	check_str(".version 9.0\n.target sm_90\n.global .samplerref s;\n", RULES_PTXAS);
	ck_assert_ptr_nonnull(find_rule("opaque-decl"));
	teardown();
	check_str(".version 9.0\n.target sm_90, texmode_independent\n.global .samplerref s;\n", RULES_PTXAS);
	ck_assert_uint_eq(diag_errors(&D), 0);
	teardown();
}
END_TEST

START_TEST(test_geometry_5d_is_a1d)
{
	const char *src = KERNEL("3.0", "sm_20", "suld.b.5d.b32.trap %r1, [surf_A, {%r1}];");
	check_str(src, RULES_PTXAS);
	const Diag *d = find_rule("surface-operand");
	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(strstr(d->msg, "takes 2 coordinates"));
	teardown();
}
END_TEST

static Suite *check_suite(void)
{
	Suite *s = suite_create("check");
	TCase *tables = tcase_create("tables");
	tcase_add_test(tables, test_versions_sorted_and_legal);
	tcase_add_test(tables, test_targets_lookup);
	tcase_add_test(tables, test_targets_every_min_version_is_legal);
	tcase_add_test(tables, test_requirement_rows_consistent);
	tcase_add_test(tables, test_requirement_subjects);
	tcase_add_test(tables, test_type_register_fits);
	tcase_add_test(tables, test_scope_ranges_and_shadowing);
	suite_add_tcase(s, tables);
	TCase *rules = tcase_create("rules");
	tcase_add_test(rules, test_gate_version_message_and_note);
	tcase_add_test(rules, test_gate_target_instruction_wording);
	tcase_add_test(rules, test_gate_names_the_operation);
	tcase_add_test(rules, test_doc_only_gate_depends_on_mode);
	tcase_add_test(rules, test_ptxas_threshold_below_stated_version);
	tcase_add_test(rules, test_indirect_access_gates_mov_and_use);
	tcase_add_test(rules, test_sured_type_matrix);
	tcase_add_test(rules, test_header_rules);
	tcase_add_test(rules, test_symbols);
	tcase_add_test(rules, test_immediate_rule);
	tcase_add_test(rules, test_st_param_in_kernel_by_mode);
	tcase_add_test(rules, test_samplerref_needs_independent_mode);
	tcase_add_test(rules, test_geometry_5d_is_a1d);
	suite_add_tcase(s, rules);
	return s;
}

CHECK_MAIN(check_suite)
