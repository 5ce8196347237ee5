/* Unit tests for the ISA gate table (isa_gates.def): row consistency,
 * matching of instructions, directives, special registers and types, the
 * target-family rule, and check_isa_gate's diagnostics (Check). */
#include "check/check_isa.h"
#include "base/diag.h"
#include "check/isa_gates.h"
#include "isa/opcodes.h"
#include "front/parse.h"
#include "isa/targets.h"
#include "check_main.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const IsaGate *row_named(const char *id)
{
	size_t n;
	const IsaGate *g = isa_gates(&n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(g[i].id_name, id) == 0)
			return &g[i];
	ck_abort_msg("no row %s", id);
	return NULL;
}

static const TargetInfo *T(const char *name)
{
	const TargetInfo *t = ptx_target_lookup(name);
	ck_assert_msg(t != NULL, "unknown target %s", name);
	return t;
}

/* ---- the table ---- */

START_TEST(test_rows_consistent)
{
	size_t n;
	const IsaGate *g = isa_gates(&n);
	ck_assert_uint_gt(n, 300);
	size_t indexed = 0;
	for (size_t i = 0; i < opcode_count(); i++) {
		const IsaGate *const *rows;
		size_t k = isa_gates_of_opcode((int)i, &rows);
		for (size_t j = 0; j < k; j++)
			ck_assert_str_eq(rows[j]->match, opcode_name((int)i));
		indexed += k;
	}
	for (size_t i = 0; i < n; i++) {
		const IsaGate *r = &g[i];
		ck_assert_int_eq(r->id, (int)i);
		ck_assert_ptr_eq(isa_gate(r->id), r);
		for (size_t k = 0; k < i; k++)
			ck_assert_msg(strcmp(g[k].id_name, r->id_name) != 0, "duplicate id %s", r->id_name);
		/* Every row gates something, with legal versions and known targets. */
		ck_assert_msg(r->min_version || *r->targets, "%s gates nothing", r->id_name);
		if (r->min_version)
			ck_assert_msg(ptx_version_is_legal(r->min_version) && ptx_version_is_legal(r->ptxas_version),
				"%s: version not in targets.def", r->id_name);
		size_t pos = 0, ntargets = 0, words = 0;
		PtxVersion since;
		while (isa_gate_next_target_since(r, &pos, &since)) {
			ntargets++;
			ck_assert_msg(!since || ptx_version_is_legal(since), "%s: bad @version", r->id_name);
		}
		for (const char *p = r->targets; *p; p++)
			if (*p != ' ' && (p == r->targets || p[-1] == ' '))
				words++;
		ck_assert_msg(ntargets == words, "%s: target not in targets.def", r->id_name);
		ck_assert_msg(ntargets <= 6, "%s: isa_gates.c resolves at most six targets", r->id_name);
		ck_assert_msg(strlen(r->example) > 2 && strchr("MFB", r->example[0]) && r->example[1] == ':',
			"%s: example without place", r->id_name);
		ck_assert_ptr_nonnull(r->doc);
		/* isa_gates.c splits at most six required modifiers per row. */
		size_t nmods = 0;
		for (const char *p = r->mods; *p; p++)
			if (*p != ' ' && (p == r->mods || p[-1] == ' '))
				nmods++;
		ck_assert_msg(r->kind != IGK_INSTR || nmods <= 6, "%s: too many modifiers", r->id_name);
		/* The checker finds instruction rows through the opcode table. */
		if (r->kind == IGK_INSTR)
			ck_assert_msg(opcode_lookup(r->match) >= 0, "%s: opcode unknown to opcodes.def", r->id_name);
	}
	size_t ninstr = 0, nkinds = 0;
	for (size_t i = 0; i < n; i++)
		ninstr += g[i].kind == IGK_INSTR;
	ck_assert_uint_eq(indexed, ninstr);
	for (int kind = IGK_INSTR; kind <= IGK_SECTION; kind++) {
		const IsaGate *const *rows;
		size_t k = isa_gates_of_kind((IsaGateKind)kind, &rows);
		for (size_t j = 0; j < k; j++)
			ck_assert_int_eq(rows[j]->kind, kind);
		nkinds += k;
	}
	ck_assert_uint_eq(nkinds, n);
}
END_TEST

/* One fact, one table: the surface instructions and st's own rows live in
 * requirements.def. */
START_TEST(test_no_row_restates_a_requirement)
{
	static const char *const own[] = { "suld", "sust", "sured", "suq" };
	size_t n;
	const IsaGate *g = isa_gates(&n);
	for (size_t i = 0; i < n; i++) {
		if (g[i].kind != IGK_INSTR)
			continue;
		for (size_t k = 0; k < sizeof own / sizeof own[0]; k++)
			ck_assert_msg(strcmp(g[i].match, own[k]) != 0, "%s restates a surface gate", g[i].id_name);
		if (strcmp(g[i].match, "st") == 0)
			ck_assert_msg(strstr(g[i].mods, ".async") || strstr(g[i].mods, ".bulk"),
				"%s restates an st gate", g[i].id_name);
	}
}
END_TEST

/* ---- matching ---- */

static Instr instr(const char *opcode, uint32_t nmods, const char **mods)
{
	Instr in;
	memset(&in, 0, sizeof in);
	in.opcode = opcode;
	in.nmods = nmods;
	in.mods = mods;
	return in;
}

START_TEST(test_instr_matching)
{
	const char *bulk[] = { ".async", ".bulk", ".shared::cluster", ".global" };
	const char *plain[] = { ".async", ".ca", ".shared", ".global" };
	Instr b = instr("cp", 4, bulk), p = instr("cp", 4, plain);
	ck_assert(isa_gate_matches_instr(row_named("CP_ASYNC"), &b));
	ck_assert(isa_gate_matches_instr(row_named("CP_ASYNC_BULK"), &b));
	ck_assert(isa_gate_matches_instr(row_named("CP_ASYNC"), &p));
	ck_assert(!isa_gate_matches_instr(row_named("CP_ASYNC_BULK"), &p));
	/* Whole words only: .bf16x2 is not .bf16, .arrive_drop is not .arrive. */
	const char *x2[] = { ".bf16x2" };
	Instr a = instr("add", 1, x2);
	ck_assert(!isa_gate_matches_instr(row_named("BF16_ADD"), &a));
	ck_assert(isa_gate_matches_instr(row_named("BF16X2_ADD"), &a));
	/* Modifiers in any order; the opcode must be equal, not a prefix. */
	const char *xs[] = { ".abs", ".f32", ".xorsign" };
	Instr m = instr("min", 3, xs), mx = instr("max", 3, xs);
	ck_assert(isa_gate_matches_instr(row_named("MIN_XORSIGN"), &m));
	ck_assert(!isa_gate_matches_instr(row_named("MIN_XORSIGN"), &mx));
	Instr v2 = instr("vadd2", 0, NULL);
	ck_assert(!isa_gate_matches_instr(row_named("VADD"), &v2));
	ck_assert(isa_gate_matches_instr(row_named("VADD2"), &v2));
	/* Rows without modifiers match every form of the opcode. */
	const char *fence[] = { ".fence" };
	Instr wg = instr("wgmma", 1, fence);
	ck_assert(isa_gate_matches_instr(row_named("WGMMA"), &wg));
}
END_TEST

START_TEST(test_sreg_directive_type_matching)
{
	ck_assert(isa_sreg_may_match("%clock64"));
	ck_assert(isa_sreg_may_match("%pm0_64"));
	ck_assert(!isa_sreg_may_match("%r1"));
	ck_assert(!isa_sreg_may_match("%rd12"));
	ck_assert(!isa_sreg_may_match("%p"));
	ck_assert(!isa_sreg_may_match("clock64"));
	size_t n;
	const IsaGate *g = isa_gates(&n);
	for (size_t i = 0; i < n; i++)
		if (g[i].kind == IGK_SREG)
			ck_assert_msg(isa_sreg_may_match(g[i].match), "%s", g[i].id_name);
	ck_assert(isa_gate_matches_sreg(row_named("SREG_CLOCK64"), "%clock64"));
	ck_assert(!isa_gate_matches_sreg(row_named("SREG_CLOCK64"), "%clock"));
	ck_assert(isa_gate_matches_sreg(row_named("SREG_ENVREG"), "%envreg31"));
	ck_assert(!isa_gate_matches_sreg(row_named("SREG_ENVREG"), "%envreg"));
	ck_assert(isa_gate_matches_sreg(row_named("SREG_PM64"), "%pm3_64"));
	ck_assert(!isa_gate_matches_sreg(row_named("SREG_PM64"), "%pm3"));
	ck_assert(isa_gate_matches_sreg(row_named("SREG_PM4"), "%pm3"));
	ck_assert(!isa_gate_matches_sreg(row_named("SREG_PM4"), "%pm3_64"));
	ck_assert(isa_gate_matches_sreg(row_named("SREG_RESERVED_SMEM_N"), "%reserved_smem_offset_1"));
	ck_assert(!isa_gate_matches_sreg(row_named("SREG_RESERVED_SMEM_N"), "%reserved_smem_offset_end"));

	ck_assert(isa_gate_matches_directive(row_named("DIR_COMMON"), ".common"));
	ck_assert(!isa_gate_matches_directive(row_named("DIR_COMMON"), ".weak"));
	/* Argument-constrained rows need the directive itself. */
	ck_assert(!isa_gate_matches_directive(row_named("DIR_PRAGMA_FREQUENCY"), ".pragma"));
	Expr freq = { .kind = EX_STRING, .text = "\"frequency 10\"" };
	Expr unroll = { .kind = EX_STRING, .text = "\"nounroll\"" };
	Expr *fargs[] = { &freq }, *uargs[] = { &unroll };
	Directive pf = { .name = ".pragma", .nargs = 1, .args = fargs };
	Directive pu = { .name = ".pragma", .nargs = 1, .args = uargs };
	ck_assert(isa_gate_matches_dir(row_named("DIR_PRAGMA_FREQUENCY"), &pf));
	ck_assert(!isa_gate_matches_dir(row_named("DIR_PRAGMA_FREQUENCY"), &pu));
	ck_assert(isa_gate_matches_dir(row_named("DIR_PRAGMA"), &pu));
	Expr one = { .kind = EX_INT, .text = "1" }, name = { .kind = EX_STRING, .text = "\"a.cu\"" };
	Expr *file2[] = { &one, &name }, *file4[] = { &one, &name, &one, &one };
	Directive f2 = { .name = ".file", .nargs = 2, .args = file2 };
	Directive f4 = { .name = ".file", .nargs = 4, .args = file4 };
	ck_assert(!isa_gate_matches_dir(row_named("DIR_FILE_TIMESTAMP"), &f2));
	ck_assert(isa_gate_matches_dir(row_named("DIR_FILE_TIMESTAMP"), &f4));

	Expr gv = { .kind = EX_NAME, .text = "gv" };
	Expr *gargs[] = { &gv };
	Expr gen = { .kind = EX_CALL, .text = "generic", .nelems = 1, .elems = gargs };
	ck_assert(isa_gate_matches_init(row_named("INIT_ADDRESS"), &gv));
	ck_assert(!isa_gate_matches_init(row_named("INIT_ADDRESS"), &gen));
	ck_assert(isa_gate_matches_init(row_named("INIT_GENERIC"), &gen));
	ck_assert(!isa_gate_matches_init(row_named("INIT_GENERIC"), &one));
	Stmt label = { .kind = ST_LABEL };
	ck_assert(isa_gate_matches_section_stmt(row_named("SECTION_LABEL"), &label));
	ck_assert(!isa_gate_matches_section_stmt(row_named("SECTION_LABEL_IMM"), &label));
	LocAttr inl = { .name = "inlined_at" };
	Directive loc = { .name = ".loc", .nargs = 3, .args = file4, .nattrs = 1, .attrs = &inl };
	ck_assert(isa_gate_matches_dir(row_named("DIR_LOC_INLINED_AT"), &loc));
	ck_assert(!isa_gate_matches_dir(row_named("DIR_LOC_FUNCTION_NAME"), &loc));
	ck_assert(isa_gate_matches_type(row_named("TYPE_F16"), ".f16", ".reg"));
	ck_assert(isa_gate_matches_type(row_named("TYPE_F16"), ".f16", NULL));
	ck_assert(!isa_gate_matches_type(row_named("TYPE_F16"), ".f16x2", ".reg"));
}
END_TEST

/* ---- targets ---- */

START_TEST(test_target_rule)
{
	/* Plain: any newer target, suffixed ones included. */
	ck_assert(isa_target_satisfies(T("sm_90a"), T("sm_80")));
	ck_assert(isa_target_satisfies(T("sm_100f"), T("sm_90")));
	ck_assert(!isa_target_satisfies(T("sm_75"), T("sm_80")));
	/* 'a': exactly that architecture-specific target. */
	ck_assert(isa_target_satisfies(T("sm_90a"), T("sm_90a")));
	ck_assert(!isa_target_satisfies(T("sm_90"), T("sm_90a")));
	ck_assert(!isa_target_satisfies(T("sm_100a"), T("sm_90a")));
	/* 'f': 'f' or 'a' targets of the family at or above it. */
	ck_assert(isa_target_satisfies(T("sm_100f"), T("sm_100f")));
	ck_assert(isa_target_satisfies(T("sm_100a"), T("sm_100f")));
	ck_assert(isa_target_satisfies(T("sm_103f"), T("sm_100f")));
	ck_assert(isa_target_satisfies(T("sm_103a"), T("sm_100f")));
	ck_assert(!isa_target_satisfies(T("sm_100"), T("sm_100f")));
	ck_assert(!isa_target_satisfies(T("sm_110f"), T("sm_100f")));
	ck_assert(!isa_target_satisfies(T("sm_120a"), T("sm_100f")));
	ck_assert(isa_target_satisfies(T("sm_121f"), T("sm_120f")));
	ck_assert(!isa_target_satisfies(T("sm_120f"), T("sm_121f")));
}
END_TEST

/* Target sets as ptxas 13 applies them (probed in the oracle). */
START_TEST(test_target_sets)
{
	const IsaGate *tc = row_named("TCGEN05"), *wg = row_named("WGMMA"), *smr = row_named("SETMAXNREG");
	ck_assert(isa_gate_target_ok(tc, T("sm_100a")));
	ck_assert(isa_gate_target_ok(tc, T("sm_103f")));
	ck_assert(isa_gate_target_ok(tc, T("sm_110f")));
	ck_assert(!isa_gate_target_ok(tc, T("sm_100")));
	ck_assert(!isa_gate_target_ok(tc, T("sm_120f")));
	ck_assert(isa_gate_target_ok(wg, T("sm_90a")));
	ck_assert(!isa_gate_target_ok(wg, T("sm_100a")));
	ck_assert(isa_gate_target_ok(smr, T("sm_121a")));
	ck_assert(!isa_gate_target_ok(smr, T("sm_120")));
	ck_assert(isa_gate_family_only(tc));
	ck_assert(!isa_gate_family_only(row_named("CP_ASYNC")));
	ck_assert(!isa_gate_family_only(row_named("SREG_ENVREG")));
	ck_assert_int_eq(isa_gate_min_sm(row_named("CP_ASYNC")), 80);
	ck_assert(isa_gate_target_ok(row_named("SREG_ENVREG"), T("sm_10")));
	const IsaGate *e4 = row_named("CVT_E4M3X2");
	ck_assert_int_eq(isa_gate_target_since(e4, T("sm_90")), 0);
	ck_assert_int_eq(isa_gate_target_since(e4, T("sm_89")), PTX_VERSION_OF(8, 1));
	ck_assert_int_eq(isa_gate_target_since(e4, T("sm_88")), -1);
	ck_assert_int_eq(isa_gate_min_sm(e4), 90);
}
END_TEST

/* ---- diagnostics ---- */

static DiagSink D;
static CheckCtx C;

static void ctx(const char *version, PtxVersion v, const char *target, RulesMode rules)
{
	diag_init(&D, "t.ptx", NULL, 0);
	memset(&C, 0, sizeof C);
	C.sink = &D;
	C.rules = rules;
	C.has_version = true;
	C.version = v;
	C.version_text = version;
	C.version_loc = (SrcLoc){ 1, 1, 1, 10 };
	C.target = T(target);
	C.target_name = target;
	C.target_loc = (SrcLoc){ 2, 1, 2, 10 };
}

static const SrcLoc here = { 5, 1, 5, 4 };

START_TEST(test_gate_messages)
{
	ctx("7.8", PTX_VERSION_OF(7, 8), "sm_75", RULES_PTXAS);
	ck_assert(!check_isa_gate(&C, row_named("ELECT_SYNC"), here, "elect"));
	ck_assert_uint_eq(diag_errors(&D), 2);
	ck_assert_str_eq(D.head->rule, "version-gate");
	ck_assert_str_eq(D.head->msg,
		"Feature 'elect' requires PTX ISA .version 8.0 or later (the file declares .version 7.8)");
	ck_assert_ptr_nonnull(D.head->notes);
	ck_assert_str_eq(D.head->next->rule, "target-gate");
	ck_assert_str_eq(D.head->next->msg,
		"Feature 'elect' requires .target sm_90 or higher (the file declares .target sm_75)");
	diag_fini(&D);

	ctx("8.0", PTX_VERSION_OF(8, 0), "sm_90", RULES_PTXAS);
	ck_assert(!check_isa_gate(&C, row_named("WGMMA"), here, "wgmma.fence"));
	ck_assert_uint_eq(diag_errors(&D), 1);
	ck_assert_str_eq(D.head->msg,
		"Instruction 'wgmma.fence' not supported on .target 'sm_90' (it needs one of: sm_90a)");
	diag_fini(&D);

	/* A target that suffices only from a later version. */
	ctx("8.0", PTX_VERSION_OF(8, 0), "sm_89", RULES_PTXAS);
	ck_assert(!check_isa_gate(&C, row_named("CVT_E4M3X2"), here, "cvt"));
	ck_assert_uint_eq(diag_errors(&D), 1);
	ck_assert_str_eq(D.head->msg, "Feature 'cvt with .e4m3x2/.e5m2x2' requires PTX ISA .version 8.1 or later on "
		".target sm_89 (the file declares .version 8.0)");
	diag_fini(&D);
	ctx("7.8", PTX_VERSION_OF(7, 8), "sm_90", RULES_PTXAS);
	ck_assert(check_isa_gate(&C, row_named("CVT_E4M3X2"), here, "cvt"));
	diag_fini(&D);
}
END_TEST

START_TEST(test_gate_modes)
{
	/* ptxas 13 accepts .weak on ld from 5.1; the document says 6.0. */
	const IsaGate *w = row_named("LD_WEAK");
	ctx("5.1", PTX_VERSION_OF(5, 1), "sm_70", RULES_PTXAS);
	ck_assert(check_isa_gate(&C, w, here, "ld"));
	ck_assert(!check_isa_gate_fails(&C, w));
	diag_fini(&D);
	ctx("5.1", PTX_VERSION_OF(5, 1), "sm_70", RULES_STRICT);
	ck_assert(!check_isa_gate(&C, w, here, "ld"));
	ck_assert_str_eq(D.head->rule, "version-gate");
	ck_assert(strstr(D.head->msg, "ptxas 13 accepts it") != NULL);
	diag_fini(&D);
	/* Document-only rows: nothing in ptxas mode, -doc rule ids in strict. */
	const IsaGate *f16 = row_named("TYPE_F16");
	ctx("4.1", PTX_VERSION_OF(4, 1), "sm_52", RULES_PTXAS);
	ck_assert(check_isa_gate(&C, f16, here, NULL));
	ck_assert_uint_eq(diag_errors(&D), 0);
	diag_fini(&D);
	ctx("4.1", PTX_VERSION_OF(4, 1), "sm_52", RULES_STRICT);
	ck_assert(!check_isa_gate(&C, f16, here, NULL));
	ck_assert_uint_eq(diag_errors(&D), 1);
	ck_assert_str_eq(D.head->rule, "version-gate-doc");
	diag_fini(&D);
	/* .f16 registers have no target gate: cvt converts them on sm_50 */
	ctx("4.2", PTX_VERSION_OF(4, 2), "sm_50", RULES_STRICT);
	ck_assert(check_isa_gate(&C, f16, here, NULL));
	ck_assert_uint_eq(diag_errors(&D), 0);
	diag_fini(&D);
	const IsaGate *proxy = row_named("MEMBAR_PROXY_TARGET");
	ctx("7.5", PTX_VERSION_OF(7, 5), "sm_60", RULES_PTXAS);
	ck_assert(check_isa_gate(&C, proxy, here, "membar"));
	ck_assert_uint_eq(diag_errors(&D), 0);
	diag_fini(&D);
	ctx("7.5", PTX_VERSION_OF(7, 5), "sm_60", RULES_STRICT);
	ck_assert(!check_isa_gate(&C, proxy, here, "membar"));
	ck_assert_uint_eq(diag_errors(&D), 1);
	ck_assert_str_eq(D.head->rule, "target-gate-doc");
	diag_fini(&D);
}
END_TEST

/* Every row's example, parsed, contains what the row matches. */
static bool stmts_match(const IsaGate *g, const Stmt *s)
{
	for (; s; s = s->next) {
		if (s->kind == ST_BLOCK && stmts_match(g, s->u.block))
			return true;
		if (s->kind == ST_INSTR && isa_gate_matches_instr(g, &s->u.instr))
			return true;
		if (s->kind == ST_DIRECTIVE && isa_gate_matches_dir(g, &s->u.dir))
			return true;
		if (s->kind == ST_PROTO && isa_gate_matches_directive(g, ".callprototype"))
			return true;
		if (s->kind == ST_DECL)
			for (uint32_t i = 0; i < s->u.decl.nspecs; i++)
				if (isa_gate_matches_type(g, s->u.decl.specs[i].word, NULL))
					return true;
		if (s->kind == ST_INSTR)
			for (uint32_t i = 0; i < s->u.instr.nops; i++) {
				const Expr *e = s->u.instr.ops[i];
				if (e->kind == EX_NAME && isa_gate_matches_sreg(g, e->text))
					return true;
			}
	}
	return false;
}

static bool init_matches(const IsaGate *g, const Expr *e)
{
	if (!e)
		return false;
	if (isa_gate_matches_init(g, e))
		return true;
	if (e->kind == EX_VECTOR || e->kind == EX_CALL)
		for (uint32_t i = 0; i < e->nelems; i++)
			if (init_matches(g, e->elems[i]))
				return true;
	return (e->kind == EX_BINARY || e->kind == EX_UNARY) && (init_matches(g, e->lhs) ||
		(e->kind == EX_BINARY && init_matches(g, e->rhs)));
}

static bool module_matches(const IsaGate *g, const Module *m)
{
	for (const Item *it = m->items; it; it = it->next) {
		if (it->kind == IT_DIRECTIVE && isa_gate_matches_dir(g, &it->u.dir))
			return true;
		if (it->kind == IT_SECTION && isa_gate_matches_directive(g, ".section"))
			return true;
		if (it->kind == IT_SECTION)
			for (const Stmt *s = it->u.section.items; s; s = s->next)
				if (isa_gate_matches_section_stmt(g, s))
					return true;
		if (it->kind == IT_VAR)
			for (uint32_t i = 0; i < it->u.var.ndecls; i++)
				if (init_matches(g, it->u.var.decls[i].init))
					return true;
		const DeclSpec *specs = NULL;
		uint32_t nspecs = 0;
		if (it->kind == IT_VAR) {
			specs = it->u.var.specs;
			nspecs = it->u.var.nspecs;
		} else if (it->kind == IT_FUNC) {
			const Func *f = &it->u.func;
			Directive entry = { .name = ".entry", .nargs = f->nparams };
			if (f->is_entry && isa_gate_matches_dir(g, &entry))
				return true;
			/* a .func's return values, as check_isa.c gates them */
			Directive rets = { .name = ".func", .nargs = f->nrets };
			if (!f->is_entry && isa_gate_matches_dir(g, &rets))
				return true;
			for (uint32_t i = 0; i < f->ndirs; i++)
				if (isa_gate_matches_dir(g, &f->dirs[i]))
					return true;
			for (uint32_t i = 0; i < f->nparams; i++)
				for (uint32_t k = 0; k < f->params[i].nspecs; k++)
					if (isa_gate_matches_directive(g, f->params[i].specs[k].word))
						return true;
			specs = f->specs;
			nspecs = f->nspecs;
			if (f->has_body && stmts_match(g, f->body))
				return true;
		}
		for (uint32_t i = 0; i < nspecs; i++)
			if (isa_gate_matches_directive(g, specs[i].word))
				return true;
	}
	return false;
}

static void append_part(char *out, size_t size, const char *example, char where)
{
	for (const char *p = example; *p;) {
		const char *end = p + 1;
		while (*end && !(end[0] == '|' && strchr("MFB", end[1]) && end[1] && end[2] == ':'))
			end++;
		if (p[0] == where)
			snprintf(out + strlen(out), size - strlen(out), "%.*s\n", (int)(end - p - 2), p + 2);
		p = *end ? end + 1 : end;
	}
}

START_TEST(test_examples_match_their_rows)
{
	size_t n;
	const IsaGate *g = isa_gates(&n);
	for (size_t i = 0; i < n; i++) {
		char src[4096] = ".version 9.0\n.target sm_100a\n.address_size 64\n";
		append_part(src, sizeof src, g[i].example, 'M');
		strcat(src, ".visible .entry k(.param .u64 pa)\n");
		append_part(src, sizeof src, g[i].example, 'F');
		strcat(src, "{\n.reg .b32 %r<20>;\n.reg .b64 %rd<20>;\n.reg .pred %p<8>;\n.reg .f32 %f<20>;\n"
			".reg .f64 %fd<20>;\n.reg .b16 %h<20>;\n.shared .align 16 .b8 smem[1024];\n");
		append_part(src, sizeof src, g[i].example, 'B');
		strcat(src, "ret;\n}\n");
		size_t len = strlen(src);
		char *buf = malloc(len + 2);
		memcpy(buf, src, len + 1);
		buf[len + 1] = 0;
		Module m;
		DiagSink d;
		module_init(&m, "t.ptx");
		diag_init(&d, "t.ptx", buf, len);
		ptx_parse_buffer(&m, &d, buf, len);
		ck_assert_msg(diag_errors(&d) == 0, "%s: example does not parse", g[i].id_name);
		ck_assert_msg(module_matches(&g[i], &m), "%s: example does not match", g[i].id_name);
		diag_fini(&d);
		module_fini(&m);
		free(buf);
	}
}
END_TEST

static Suite *isa_suite(void)
{
	Suite *s = suite_create("isa_gates");
	TCase *t = tcase_create("table");
	/* It parses one module per row: slow under valgrind on a loaded host. */
	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_rows_consistent);
	tcase_add_test(t, test_no_row_restates_a_requirement);
	tcase_add_test(t, test_examples_match_their_rows);
	suite_add_tcase(s, t);
	TCase *m = tcase_create("matching");
	tcase_add_test(m, test_instr_matching);
	tcase_add_test(m, test_sreg_directive_type_matching);
	tcase_add_test(m, test_target_rule);
	tcase_add_test(m, test_target_sets);
	suite_add_tcase(s, m);
	TCase *g = tcase_create("diagnostics");
	tcase_add_test(g, test_gate_messages);
	tcase_add_test(g, test_gate_modes);
	suite_add_tcase(s, g);
	return s;
}

CHECK_MAIN(isa_suite)
