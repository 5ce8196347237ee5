/* Unit tests of the back end: lowering, register allocation, scheduling and
 * the hazard verifier (including schedules broken on purpose, which the
 * verifier must reject), and the assembled image. */
#include <check.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assemble.h"
#include "lower.h"
#include "parse.h"
#include "regalloc.h"
#include "sched.h"

/* ---- helpers -------------------------------------------------------------- */

static Module M;
static DiagSink D;
static char *buf;

static void parse_str(const char *src)
{
	size_t n = strlen(src);
	buf = malloc(n + 2);
	memcpy(buf, src, n);
	buf[n] = buf[n + 1] = 0;
	module_init(&M, "t.ptx");
	diag_init(&D, "t.ptx", buf, n);
	ck_assert_uint_eq(ptx_parse_buffer(&M, &D, buf, n), 0);
}

static void teardown(void)
{
	diag_fini(&D);
	module_fini(&M);
	free(buf);
	buf = NULL;
}

#define PTX_HEAD ".version 7.8\n.target sm_50\n.address_size 64\n"

/* A hand-made kernel whose registers are already physical. */
static LKernel K;

static void kernel_reset(void)
{
	free(K.insns);
	free(K.vregs);
	free(K.label_pos);
	memset(&K, 0, sizeof K);
	K.name = "k";
}

/* A GPR vreg pinned to physical register r. */
static uint32_t gpr(int r, unsigned width)
{
	uint32_t v = lkernel_new_vreg(&K, LRC_GPR, width, false);
	K.vregs[v].phys = r;
	return v;
}

static LInsn *add(const char *form)
{
	return lkernel_append(&K, form, (SrcLoc){ 1, 1, 1, 1 });
}

static void finish(void)
{
	for (size_t i = 0; i < K.ninsns; i++) {
		LInsn *in = &K.insns[i];
		for (unsigned r = 0; r < in->nrefs; r++)
			sass_values_set(&in->vals, in->refs[r].role, K.vregs[in->refs[r].vreg].phys + in->refs[r].sub);
		linsn_fill_defaults(in);
	}
}

static int find_form(const char *name, size_t from)
{
	for (size_t i = from; i < K.ninsns; i++)
		if (strcmp(K.insns[i].form->name, name) == 0)
			return (int)i;
	return -1;
}

/* ---- register allocation -------------------------------------------------- */

START_TEST(test_regalloc_groups_aligned)
{
	kernel_reset();
	/* a .128 group, a 64-bit pair and a scalar, all live at once */
	uint32_t g = lkernel_new_vreg(&K, LRC_GPR, 4, false);
	uint32_t p = lkernel_new_vreg(&K, LRC_GPR, 2, false);
	uint32_t s = lkernel_new_vreg(&K, LRC_GPR, 1, false);
	LInsn *in = add("S2R");
	linsn_ref(in, SR_RD, s, 0, 1, true);
	for (unsigned i = 0; i < 4; i++) {
		in = add("S2R");
		linsn_ref(in, SR_RD, g, i, 1, true);
	}
	for (unsigned i = 0; i < 2; i++) {
		in = add("S2R");
		linsn_ref(in, SR_RD, p, i, 1, true);
	}
	in = add("STG");
	linsn_ref(in, SR_RA, p, 0, 2, false);
	linsn_ref(in, SR_RB, g, 0, 4, false);
	in = add("STG");
	linsn_ref(in, SR_RA, p, 0, 2, false);
	linsn_ref(in, SR_RB, s, 0, 1, false);
	add("EXIT");
	char err[128];
	ck_assert_int_eq(regalloc_kernel(&K, err, sizeof err), 0);
	int rg = K.vregs[g].phys, rp = K.vregs[p].phys, rs = K.vregs[s].phys;
	ck_assert_int_eq(rg % 4, 0);
	ck_assert_int_eq(rp % 2, 0);
	/* disjoint, and never the stack pointer R1 */
	for (int r = 0; r < 4; r++) {
		ck_assert_int_ne(rg + r, REGALLOC_STACK_REG);
		ck_assert(rg + r != rp && rg + r != rp + 1 && rg + r != rs);
	}
	ck_assert(rp != rs && rp + 1 != rs);
	ck_assert_int_ne(rs, REGALLOC_STACK_REG);
	ck_assert_int_ne(rp, REGALLOC_STACK_REG);
	int top = rg + 3 > rp + 1 ? rg + 3 : rp + 1;
	if (rs > top)
		top = rs;
	ck_assert_uint_eq(K.regcount, (unsigned)top + 1);
	kernel_reset();
}
END_TEST

START_TEST(test_regalloc_reuses_dead_registers)
{
	kernel_reset();
	/* a chain a -> b -> c: each value dies where the next is defined */
	uint32_t v[3];
	for (int i = 0; i < 3; i++)
		v[i] = lkernel_new_vreg(&K, LRC_GPR, 1, false);
	LInsn *in = add("S2R");
	linsn_ref(in, SR_RD, v[0], 0, 1, true);
	for (int i = 1; i < 3; i++) {
		in = add("IADD_R");
		linsn_ref(in, SR_RD, v[i], 0, 1, true);
		linsn_ref(in, SR_RA, v[i - 1], 0, 1, false);
		linsn_ref(in, SR_RB, v[i - 1], 0, 1, false);
	}
	uint32_t addr = lkernel_new_vreg(&K, LRC_GPR, 2, false);
	in = add("MOV_R");
	linsn_ref(in, SR_RD, addr, 0, 1, true);
	in = add("MOV_R");
	linsn_ref(in, SR_RD, addr, 1, 1, true);
	in = add("STG");
	linsn_ref(in, SR_RA, addr, 0, 2, false);
	linsn_ref(in, SR_RB, v[2], 0, 1, false);
	add("EXIT");
	char err[128];
	ck_assert_int_eq(regalloc_kernel(&K, err, sizeof err), 0);
	ck_assert_int_eq(K.vregs[v[0]].phys, K.vregs[v[1]].phys);
	ck_assert_int_eq(K.vregs[v[1]].phys, K.vregs[v[2]].phys);
	kernel_reset();
}
END_TEST

START_TEST(test_regalloc_removes_dead_code)
{
	kernel_reset();
	uint32_t a = lkernel_new_vreg(&K, LRC_GPR, 1, false);
	LInsn *in = add("MOV32I");
	linsn_ref(in, SR_RD, a, 0, 1, true);
	sass_values_set(&in->vals, SR_IMM, 5);
	add("EXIT");
	char err[128];
	ck_assert_int_eq(regalloc_kernel(&K, err, sizeof err), 0);
	ck_assert_uint_eq(K.ninsns, 1);
	ck_assert_int_eq(K.insns[0].form->op, SOP_EXIT);
	kernel_reset();
}
END_TEST

START_TEST(test_regalloc_loop_keeps_value_live)
{
	kernel_reset();
	/* x is defined before a loop and read inside it; t is defined and read
	 * inside: t must not take x's register (the back edge keeps x live). */
	uint32_t x = lkernel_new_vreg(&K, LRC_GPR, 1, false);
	uint32_t t = lkernel_new_vreg(&K, LRC_GPR, 1, false);
	uint32_t p = lkernel_new_vreg(&K, LRC_PRED, 1, false);
	K.nlabels = 1;
	K.label_pos = calloc(1, sizeof *K.label_pos);
	LInsn *in = add("S2R");
	linsn_ref(in, SR_RD, x, 0, 1, true);
	K.label_pos[0] = K.ninsns;
	in = add("IADD_R");
	linsn_ref(in, SR_RD, t, 0, 1, true);
	linsn_ref(in, SR_RA, x, 0, 1, false);
	linsn_ref(in, SR_RB, x, 0, 1, false);
	in = add("ISETP_R");
	linsn_ref(in, SR_PD, p, 0, 1, true);
	linsn_ref(in, SR_RA, t, 0, 1, false);
	linsn_ref(in, SR_RB, t, 0, 1, false);
	in = add("BRA");
	linsn_ref(in, SR_PG, p, 0, 1, false);
	in->target = 0;
	add("EXIT");
	char err[128];
	ck_assert_int_eq(regalloc_kernel(&K, err, sizeof err), 0);
	ck_assert_int_ne(K.vregs[x].phys, K.vregs[t].phys);
	kernel_reset();
}
END_TEST

/* A copy whose source dies is coalesced away; one whose source stays live
 * while the destination is redefined is kept. */
START_TEST(test_regalloc_coalesces_copies)
{
	kernel_reset();
	uint32_t a = lkernel_new_vreg(&K, LRC_GPR, 2, false), b = lkernel_new_vreg(&K, LRC_GPR, 2, false);
	uint32_t x = lkernel_new_vreg(&K, LRC_GPR, 1, false), y = lkernel_new_vreg(&K, LRC_GPR, 1, false);
	LInsn *in;
	for (unsigned p = 0; p < 2; p++) {
		in = add("MOV_C");
		linsn_ref(in, SR_RD, a, p, 1, true);
	}
	for (unsigned p = 0; p < 2; p++) {      /* b = a, a dead afterwards */
		in = add("MOV_R");
		linsn_ref(in, SR_RD, b, p, 1, true);
		linsn_ref(in, SR_RB, a, p, 1, false);
	}
	in = add("S2R");
	linsn_ref(in, SR_RD, x, 0, 1, true);
	in = add("MOV_R");                      /* y = x; then y changes while x is still read */
	linsn_ref(in, SR_RD, y, 0, 1, true);
	linsn_ref(in, SR_RB, x, 0, 1, false);
	in = add("IADD_R");
	linsn_ref(in, SR_RD, y, 0, 1, true);
	linsn_ref(in, SR_RA, y, 0, 1, false);
	linsn_ref(in, SR_RB, y, 0, 1, false);
	for (unsigned r = 0; r < 2; r++) {
		in = add("STG");
		linsn_ref(in, SR_RA, b, 0, 2, false);
		linsn_ref(in, SR_RB, r ? y : x, 0, 1, false);
	}
	add("EXIT");
	char err[128];
	ck_assert_int_eq(regalloc_kernel(&K, err, sizeof err), 0);
	int movs = 0;
	for (size_t i = 0; i < K.ninsns; i++)
		movs += strcmp(K.insns[i].form->name, "MOV_R") == 0;
	ck_assert_int_eq(movs, 1);
	ck_assert_uint_eq(K.ninsns, 8);
	kernel_reset();
}
END_TEST

/* ---- scheduling and the verifier ------------------------------------------ */

/* S2R R0; IADD R2, R0, R0; MOV R4/R5 (address); STG [R4], R2; MOV R2, RZ; EXIT */
static void build_varlat_kernel(void)
{
	kernel_reset();
	uint32_t r0 = gpr(0, 1), r2 = gpr(2, 1), r4 = gpr(4, 2);
	LInsn *in = add("S2R");
	linsn_ref(in, SR_RD, r0, 0, 1, true);
	sass_values_set(&in->vals, SR_SREG, 0x21);
	in = add("IADD_R");
	linsn_ref(in, SR_RD, r2, 0, 1, true);
	linsn_ref(in, SR_RA, r0, 0, 1, false);
	linsn_ref(in, SR_RB, r0, 0, 1, false);
	for (unsigned p = 0; p < 2; p++) {
		in = add("MOV_C");
		linsn_ref(in, SR_RD, r4, p, 1, true);
		sass_values_set(&in->vals, SR_COFF, 0x50 + p);
	}
	in = add("STG");
	linsn_ref(in, SR_RA, r4, 0, 2, false);
	linsn_ref(in, SR_RB, r2, 0, 1, false);
	sass_values_set(&in->vals, SR_SIZE, 4);
	sass_values_set(&in->vals, SR_E, 1);
	in = add("MOV_R");       /* overwrites the STG's data register */
	linsn_ref(in, SR_RD, r2, 0, 1, true);
	in = add("STG");
	linsn_ref(in, SR_RA, r4, 0, 2, false);
	linsn_ref(in, SR_RB, r2, 0, 1, false);
	sass_values_set(&in->vals, SR_SIZE, 4);
	sass_values_set(&in->vals, SR_E, 1);
	add("EXIT");
	finish();
}

START_TEST(test_sched_barriers_and_stalls)
{
	build_varlat_kernel();
	SassCtrl ctrl[16];
	char err[256];
	sched_kernel(&K, ctrl);
	ck_assert_msg(sched_verify(&K, ctrl, err, sizeof err) == 0, "%s", err);
	int s2r = find_form("S2R", 0), iadd = find_form("IADD_R", 0), stg = find_form("STG", 0);
	int mov = find_form("MOV_R", 0);
	/* S2R sets a write barrier and IADD waits for it */
	ck_assert_uint_lt(ctrl[s2r].wbar, SCHED_NBARRIERS);
	ck_assert(ctrl[iadd].wait & (1u << ctrl[s2r].wbar));
	/* the STG whose data register is overwritten sets a read barrier ... */
	ck_assert_uint_lt(ctrl[stg].rbar, SCHED_NBARRIERS);
	ck_assert_uint_eq(ctrl[stg].wbar, SASS_CTRL_NO_BARRIER);
	/* ... that the overwriting MOV waits for */
	ck_assert(ctrl[mov].wait & (1u << ctrl[stg].rbar));
	/* the MOVs feeding the STG's address are ALU results: stall >= 6 cycles in total */
	unsigned cycles = 0;
	for (int i = stg - 1; i < stg; i++)
		cycles += ctrl[i].stall;
	ck_assert_uint_ge(cycles, SCHED_ALU_LATENCY);
	ck_assert_uint_eq(ctrl[K.ninsns - 1].stall, SCHED_FLOW_STALL);
	kernel_reset();
}
END_TEST

START_TEST(test_verify_rejects_missing_wait)
{
	build_varlat_kernel();
	SassCtrl ctrl[16];
	char err[256];
	sched_kernel(&K, ctrl);
	ctrl[find_form("IADD_R", 0)].wait = 0;
	ck_assert_int_eq(sched_verify(&K, ctrl, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "reads R0 before its variable-latency producer") != NULL, "%s", err);
	kernel_reset();
}
END_TEST

START_TEST(test_verify_rejects_missing_write_barrier)
{
	build_varlat_kernel();
	SassCtrl ctrl[16];
	char err[256];
	sched_kernel(&K, ctrl);
	ctrl[find_form("S2R", 0)].wbar = SASS_CTRL_NO_BARRIER;
	ck_assert_int_eq(sched_verify(&K, ctrl, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "without a write barrier") != NULL, "%s", err);
	kernel_reset();
}
END_TEST

START_TEST(test_verify_rejects_short_stall)
{
	build_varlat_kernel();
	SassCtrl ctrl[16];
	char err[256];
	sched_kernel(&K, ctrl);
	/* the second address MOV is read by the STG right after it */
	ctrl[find_form("STG", 0) - 1].stall = 1;
	ck_assert_int_eq(sched_verify(&K, ctrl, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "too early") != NULL, "%s", err);
	kernel_reset();
}
END_TEST

START_TEST(test_verify_rejects_missing_read_barrier)
{
	build_varlat_kernel();
	SassCtrl ctrl[16];
	char err[256];
	sched_kernel(&K, ctrl);
	ctrl[find_form("MOV_R", 0)].wait = 0;
	ck_assert_int_eq(sched_verify(&K, ctrl, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "overwrites R2 while a variable-latency read") != NULL, "%s", err);
	/* and with no read barrier at all, the overwrite is never safe */
	sched_kernel(&K, ctrl);
	ctrl[find_form("STG", 0)].rbar = SASS_CTRL_NO_BARRIER;
	ck_assert_int_eq(sched_verify(&K, ctrl, err, sizeof err), -1);
	kernel_reset();
}
END_TEST

START_TEST(test_verify_rejects_barrier_on_alu)
{
	build_varlat_kernel();
	SassCtrl ctrl[16];
	char err[256];
	sched_kernel(&K, ctrl);
	ctrl[find_form("IADD_R", 0)].wbar = 2;
	ck_assert_int_eq(sched_verify(&K, ctrl, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "control slot not allowed") != NULL, "%s", err);
	kernel_reset();
}
END_TEST

/* A result produced before a branch and read at its target: the verifier
 * follows the branch edge, not only the fall-through order. */
START_TEST(test_verify_follows_branches)
{
	kernel_reset();
	uint32_t r0 = gpr(0, 1), r2 = gpr(2, 1), p0 = lkernel_new_vreg(&K, LRC_PRED, 1, false);
	K.vregs[p0].phys = 0;
	K.nlabels = 1;
	K.label_pos = calloc(1, sizeof *K.label_pos);
	LInsn *in = add("S2R");
	linsn_ref(in, SR_RD, r0, 0, 1, true);
	in = add("ISETP_R");
	linsn_ref(in, SR_PD, p0, 0, 1, true);
	sass_values_set(&in->vals, SR_RA, 255);
	sass_values_set(&in->vals, SR_RB, 255);
	in = add("BRA");
	linsn_ref(in, SR_PG, p0, 0, 1, false);
	in->target = 0;
	add("EXIT");
	K.label_pos[0] = K.ninsns;
	in = add("IADD_R");
	linsn_ref(in, SR_RD, r2, 0, 1, true);
	linsn_ref(in, SR_RA, r0, 0, 1, false);
	linsn_ref(in, SR_RB, r0, 0, 1, false);
	add("EXIT");
	finish();
	SassCtrl ctrl[16];
	char err[256];
	sched_kernel(&K, ctrl);
	ck_assert_msg(sched_verify(&K, ctrl, err, sizeof err) == 0, "%s", err);
	/* the branch target waits; without that wait the S2R result is unsafe */
	ctrl[K.label_pos[0]].wait = 0;
	ck_assert_int_eq(sched_verify(&K, ctrl, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "reads R0") != NULL, "%s", err);
	/* and the predicate needs its latency before the branch reads it */
	sched_kernel(&K, ctrl);
	ctrl[1].stall = 1;
	ck_assert_int_eq(sched_verify(&K, ctrl, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "reads P0") != NULL, "%s", err);
	kernel_reset();
}
END_TEST

/* ---- lowering ------------------------------------------------------------- */

static void lower_str(const char *src, LModule *lm, unsigned expect_errors)
{
	parse_str(src);
	ck_assert_uint_eq(lower_module(&M, &D, lm), expect_errors);
}

START_TEST(test_lower_surface_array_index_last)
{
	LModule lm;
	lower_str(PTX_HEAD ".global .surfref s;\n"
	          ".visible .entry k(.param .u64 a, .param .u32 b)\n{\n .reg .b32 %r<6>;\n"
	          " mov.u32 %r1, %tid.x;\n mov.u32 %r2, %tid.y;\n mov.u32 %r3, %ctaid.x;\n"
	          " suld.b.a2d.v2.b32.zero {%r4, %r5}, [s, {%r3, %r1, %r2, %r2}];\n"
	          " sust.b.a2d.v2.b32.zero [s, {%r3, %r1, %r2, %r2}], {%r5, %r4};\n ret;\n}\n", &lm, 0);
	ck_assert_uint_eq(lm.nkernels, 1);
	LKernel *k = &lm.kernels[0];
	ck_assert_uint_eq(k->nslots, 1);
	ck_assert_str_eq(k->slot_surfrefs[0], "s");
	/* params end at 0x14c: slot at 0x14c, index 0x53 */
	ck_assert_uint_eq(k->first_slot_offset, 0x14c);
	int i = -1;
	for (size_t j = 0; j < k->ninsns; j++)
		if (k->insns[j].form->op == SOP_SULD_D)
			i = (int)j;
	ck_assert_int_ge(i, 3);
	const LInsn *ld = &k->insns[i];
	ck_assert_int_eq(sass_values_get(&ld->vals, SR_SUIDX, -1), 0x53);
	ck_assert_int_eq(sass_values_get(&ld->vals, SR_GEOM, -1), 4);
	ck_assert_int_eq(sass_values_get(&ld->vals, SR_SIZE, -1), 5);
	ck_assert_int_eq(sass_values_get(&ld->vals, SR_CLAMP, -1), 0);
	/* the three MOVs before it build {x, y, layer}: the layer (%ctaid.x) last */
	uint32_t group = 0;
	for (unsigned r = 0; r < ld->nrefs; r++)
		if (ld->refs[r].role == SR_RA) {
			group = ld->refs[r].vreg;
			ck_assert_uint_eq(ld->refs[r].count, 3);
		}
	ck_assert_uint_eq(k->vregs[group].width, 4);
	const LInsn *last = &k->insns[i - 1];
	ck_assert_str_eq(last->form->name, "MOV_R");
	ck_assert_uint_eq(last->refs[0].sub, 2);
	/* its source is the register first defined by S2R SR_CTAID.X */
	uint32_t layer = last->refs[1].vreg;
	bool from_ctaid = false;
	for (size_t j = 0; j < k->ninsns; j++)
		if (k->insns[j].form->op == SOP_S2R && k->insns[j].refs[0].vreg == layer)
			from_ctaid = sass_values_get(&k->insns[j].vals, SR_SREG, 0) == 0x25;
	ck_assert(from_ctaid);
	lower_module_free(&lm);
	teardown();
}
END_TEST

START_TEST(test_lower_param_handle_folded)
{
	LModule lm;
	lower_str(PTX_HEAD ".visible .entry k(.param .u32 a, .param .u64 h)\n{\n .reg .b32 %r<4>;\n"
	          " .reg .b64 %rd<4>;\n ld.param.u64 %rd1, [h];\n mov.u32 %r1, %tid.x;\n"
	          " sust.b.1d.b32.trap [%rd1, {%r1}], {%r1};\n mov.b64 %rd2, %rd1;\n"
	          " sust.b.1d.b32.trap [%rd2, {%r1}], {%r1};\n ret;\n}\n", &lm, 0);
	LKernel *k = &lm.kernels[0];
	int n = 0;
	for (size_t j = 0; j < k->ninsns; j++) {
		if (k->insns[j].form->op != SOP_SUST_D)
			continue;
		if (n++ == 0) {
			/* the parameter at 0x8: index (0x140 + 8) / 4 */
			ck_assert_str_eq(k->insns[j].form->name, "SUST_D");
			ck_assert_int_eq(sass_values_get(&k->insns[j].vals, SR_SUIDX, -1), 0x52);
		} else {
			ck_assert_str_eq(k->insns[j].form->name, "SUST_D_R");
		}
	}
	ck_assert_int_eq(n, 2);
	ck_assert(k->uses_surfaces);
	lower_module_free(&lm);
	teardown();
}
END_TEST

START_TEST(test_lower_unsupported_diagnosed)
{
	LModule lm;
	lower_str(PTX_HEAD ".visible .entry k()\n{\n .reg .f32 %f<3>;\n .reg .b32 %r<3>;\n"
	          " add.f32 %f1, %f2, %f2;\n mov.u32 %r1, %tid.x;\n"
	          " fma.rn.f32 %f1, %f1, %f1, %f1;\n ret;\n}\n", &lm, 2);
	size_t n;
	Diag **ds = diag_sorted(&D, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(ds[0]->rule, "encoder-unsupported");
	ck_assert_int_eq(ds[0]->loc.first_line, 8);
	ck_assert(strstr(ds[0]->msg, "not supported by the sm_50 encoder: add.f32") != NULL);
	ck_assert_int_eq(ds[1]->loc.first_line, 10);
	ck_assert(strstr(ds[1]->msg, "instruction 'fma'") != NULL);
	lower_module_free(&lm);
	teardown();
}
END_TEST

/* ---- the whole back end --------------------------------------------------- */

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int b = 7; b >= 0; b--)
		v = v << 8 | p[b];
	return v;
}

START_TEST(test_assemble_raw_layout)
{
	parse_str(PTX_HEAD ".global .surfref s;\n.visible .entry k(.param .u64 o)\n{\n .reg .b32 %r<4>;\n"
	          " .reg .b64 %rd<3>;\n mov.u32 %r1, %tid.x;\n suld.b.1d.b32.trap {%r2}, [s, {%r1}];\n"
	          " ld.param.u64 %rd1, [o];\n st.global.u32 [%rd1+8], %r2;\n ret;\n}\n");
	AssembleOptions o = { ASM_RAW, true };
	uint8_t *img;
	size_t len;
	char *listing;
	ck_assert_int_eq(assemble_module(&M, &D, &o, &img, &len, &listing), 0);
	ck_assert_uint_eq(len % 64, 0);
	/* first instruction: MOV R1, c[0x0][0x20] */
	ck_assert(le64(img + 8) == UINT64_C(0x4c98078000870001));
	/* an EXIT, then BRA to itself, then only NOPs */
	size_t n = len / 8, bra = 0;
	for (size_t i = 0; i < n; i++)
		if (i % 4 && le64(img + 8 * i) == UINT64_C(0xe2400fffff87000f))
			bra = i;
	ck_assert_uint_gt(bra, 0);
	size_t prev = (bra - 1) % 4 == 0 ? bra - 2 : bra - 1;   /* skip a control word */
	ck_assert(le64(img + 8 * prev) == UINT64_C(0xe30000000007000f));
	for (size_t i = bra + 1; i < n; i++)
		if (i % 4)
			ck_assert(le64(img + 8 * i) == UINT64_C(0x50b0000000070f00));
	ck_assert(strstr(listing, "Function : k") != NULL);
	ck_assert(strstr(listing, "SULD.D.BA.1D.TRAP") != NULL);
	ck_assert(strstr(listing, "STG.E [") != NULL);
	free(img);
	free(listing);
	teardown();
}
END_TEST

START_TEST(test_assemble_cubin)
{
	parse_str(PTX_HEAD ".global .surfref s;\n.visible .entry k(.param .u32 v)\n{\n .reg .b32 %r<4>;\n"
	          " mov.u32 %r1, %tid.x;\n ld.param.u32 %r2, [v];\n"
	          " sust.b.1d.b32.trap [s, {%r1}], {%r2};\n ret;\n}\n");
	AssembleOptions o = { ASM_CUBIN, false };
	uint8_t *img;
	size_t len;
	char *listing;
	ck_assert_int_eq(assemble_module(&M, &D, &o, &img, &len, &listing), 0);
	ck_assert_ptr_null(listing);
	ck_assert_uint_gt(len, 64);
	ck_assert(memcmp(img, "\177ELF", 4) == 0);
	free(img);
	teardown();
}
END_TEST


/* ---- execution of the assembled code -------------------------------------- */

/* A one-thread interpreter of the decoded sm_50 words, following the
 * semantics the lowering assumes (maxas/envytools descriptions of XMAD,
 * IADD carries, clamped shifts). It checks that the emitted sequences
 * compute what the PTX says, for chosen parameter values: the hardware
 * semantics themselves can only be checked on a Maxwell GPU. */
enum { EMU_MEM = 4096, EMU_MEM_BASE = 0x10000, EMU_SURF = 4096, EMU_SURF_W = 64, EMU_SURF_H = 16 };

typedef struct Emu {
	uint32_t r[256];
	bool p[8];
	uint32_t cc;
	uint8_t cbank[0x400];
	uint8_t mem[EMU_MEM];
	uint8_t surf[4][EMU_SURF];
	uint32_t tid[3], ctaid[3];
} Emu;

static uint32_t emu_reg(const Emu *e, int64_t r) { return r == 255 ? 0 : e->r[r]; }
static void emu_set(Emu *e, int64_t r, uint32_t v) { if (r != 255) e->r[r] = v; }
static bool emu_pred(const Emu *e, int64_t p) { return p == 7 ? true : e->p[p]; }

static uint32_t cword(const Emu *e, uint32_t off)
{
	uint32_t v;
	memcpy(&v, e->cbank + off, 4);
	return v;
}

/* Operand B of an ALU form: register, constant or sign-extended immediate. */
static uint32_t emu_b(const Emu *e, const SassForm *f, const SassValues *v)
{
	switch (f->bkind) {
	case SASS_B_REG: return emu_reg(e, sass_values_get(v, SR_RB, 255));
	case SASS_B_CONST: return cword(e, 4 * (uint32_t)sass_values_get(v, SR_COFF, 0));
	default: return (uint32_t)sass_values_get(v, SR_IMM, 0);
	}
}

static uint8_t *surf_cell(Emu *e, const SassValues *v, uint32_t idx, uint32_t bytes)
{
	int64_t ra = sass_values_get(v, SR_RA, 255), geom = sass_values_get(v, SR_GEOM, 0);
	uint32_t x = emu_reg(e, ra), y = 0, z = 0;
	if (geom == 3 || geom == 4 || geom == 5)
		y = emu_reg(e, ra + 1);
	if (geom == 2)
		z = emu_reg(e, ra + 1);
	if (geom == 4 || geom == 5)
		z = emu_reg(e, ra + 2);
	if (!sass_values_get(v, SR_BA, 1))
		x *= 4;     /* element addressing of 32-bit texels */
	uint32_t off = x + y * EMU_SURF_W + z * EMU_SURF_W * EMU_SURF_H;
	ck_assert_uint_le(off + bytes, EMU_SURF);
	return e->surf[idx % 4] + off;
}

static uint32_t size_bytes(int64_t size)
{
	static const uint32_t b[] = { 1, 1, 2, 2, 4, 8, 16 };
	return b[size];
}

static int64_t sext(uint32_t v, unsigned bits)
{
	return bits >= 32 ? (int32_t)v : (int32_t)(v << (32 - bits)) >> (32 - bits);
}

static void emu_run(Emu *e, const uint8_t *code, size_t len)
{
	size_t pc = 8, steps = 0;
	while (pc < len) {
		ck_assert_uint_lt(++steps, 100000);
		uint64_t w = le64(code + pc);
		SassValues v;
		const SassForm *f = sass_decode(w, &v);
		ck_assert_ptr_nonnull(f);
		size_t next = pc + 8;
		if (next % 32 == 0)
			next += 8;
		bool guard = emu_pred(e, sass_values_get(&v, SR_PG, 7)) != (bool)sass_values_get(&v, SR_PG_NOT, 0);
		if (!guard) {
			pc = next;
			continue;
		}
		int64_t rd = sass_values_get(&v, SR_RD, 255), ra = sass_values_get(&v, SR_RA, 255);
		uint32_t a = emu_reg(e, ra), b;
		switch (f->op) {
		case SOP_MOV:
			emu_set(e, rd, emu_b(e, f, &v));
			break;
		case SOP_MOV32I:
			emu_set(e, rd, (uint32_t)sass_values_get(&v, SR_IMM, 0));
			break;
		case SOP_S2R: {
			int64_t sr = sass_values_get(&v, SR_SREG, 0);
			emu_set(e, rd, sr >= 0x21 && sr <= 0x23 ? e->tid[sr - 0x21] :
			               sr >= 0x25 && sr <= 0x27 ? e->ctaid[sr - 0x25] : 0);
			break;
		}
		case SOP_LDC: {
			int64_t size = sass_values_get(&v, SR_SIZE, 4);
			uint32_t off = a + (uint32_t)sass_values_get(&v, SR_COFF, 0), val = 0;
			memcpy(&val, e->cbank + off, size_bytes(size) > 4 ? 4 : size_bytes(size));
			if (size == 1 || size == 3)
				val = (uint32_t)sext(val, size == 1 ? 8 : 16);
			emu_set(e, rd, val);
			break;
		}
		case SOP_IADD: case SOP_IADD32I: {
			b = f->op == SOP_IADD32I ? (uint32_t)sass_values_get(&v, SR_IMM, 0) : emu_b(e, f, &v);
			int64_t neg = sass_values_get(&v, SR_NEG, 0);
			bool x = sass_values_get(&v, SR_X, 0);
			uint64_t cin = x ? e->cc : 0;
			if (neg == 1) { b = ~b; cin = x ? e->cc : 1; }
			if (neg == 2) { a = ~a; cin = x ? e->cc : 1; }
			uint64_t sum = (uint64_t)a + b + cin;
			if (sass_values_get(&v, SR_SAT, 0)) {
				int64_t ss = (int64_t)(int32_t)emu_reg(e, ra) + (int32_t)(neg == 1 ? -(int64_t)(int32_t)~b : (int32_t)b);
				sum = ss > INT32_MAX ? INT32_MAX : ss < INT32_MIN ? (uint32_t)INT32_MIN : (uint32_t)ss;
			}
			if (sass_values_get(&v, SR_CC, 0))
				e->cc = (uint32_t)(sum >> 32) & 1;
			emu_set(e, rd, (uint32_t)sum);
			break;
		}
		case SOP_SHL: case SOP_SHR: {
			b = emu_b(e, f, &v);
			uint32_t r;
			if (f->op == SOP_SHL)
				r = b >= 32 ? 0 : a << b;
			else if (sass_values_get(&v, SR_SIGNED, 0))
				r = (uint32_t)((int32_t)a >> (b >= 32 ? 31 : b));
			else
				r = b >= 32 ? 0 : a >> b;
			emu_set(e, rd, r);
			break;
		}
		case SOP_LOP: case SOP_LOP32I: {
			b = f->op == SOP_LOP32I ? (uint32_t)sass_values_get(&v, SR_IMM, 0) : emu_b(e, f, &v);
			if (sass_values_get(&v, SR_INVA, 0)) a = ~a;
			if (sass_values_get(&v, SR_INVB, 0)) b = ~b;
			int64_t op = sass_values_get(&v, SR_LOPOP, 0);
			emu_set(e, rd, op == 0 ? (a & b) : op == 1 ? (a | b) : op == 2 ? (a ^ b) : b);
			break;
		}
		case SOP_ISETP: {
			b = emu_b(e, f, &v);
			bool sg = sass_values_get(&v, SR_SIGNED, 0);
			int64_t x = sg ? (int32_t)a : (int64_t)a, y = sg ? (int32_t)b : (int64_t)b;
			bool r;
			switch (sass_values_get(&v, SR_CMP, 0)) {
			case 1: r = x < y; break;
			case 2: r = x == y; break;
			case 3: r = x <= y; break;
			case 4: r = x > y; break;
			case 5: r = x != y; break;
			case 6: r = x >= y; break;
			case 7: r = true; break;
			default: r = false; break;
			}
			bool c = emu_pred(e, sass_values_get(&v, SR_PC, 7)) != (bool)sass_values_get(&v, SR_PC_NOT, 0);
			int64_t bop = sass_values_get(&v, SR_BOP, 0);
			bool pd = bop == 0 ? (r && c) : bop == 1 ? (r || c) : (r != c);
			bool pq = bop == 0 ? (!r && c) : bop == 1 ? (!r || c) : (!r != c);
			int64_t d = sass_values_get(&v, SR_PD, 7), q = sass_values_get(&v, SR_PQ, 7);
			if (d != 7) e->p[d] = pd;
			if (q != 7) e->p[q] = pq;
			break;
		}
		case SOP_XMAD: {
			b = f->bkind == SASS_B_IMM ? (uint32_t)sass_values_get(&v, SR_IMM, 0) : emu_b(e, f, &v);
			ck_assert_msg(strcmp(f->name, "XMAD_RC") != 0, "XMAD_RC is not modelled");
			uint32_t cval = emu_reg(e, sass_values_get(&v, SR_RC, 255));
			uint32_t a16 = sass_values_get(&v, SR_HA, 0) ? a >> 16 : a & 0xffff;
			uint32_t b16 = sass_values_get(&v, SR_HB, 0) ? b >> 16 : b & 0xffff;
			int64_t x = sass_values_get(&v, SR_SA, 0) ? (int16_t)a16 : (int64_t)a16;
			int64_t y = sass_values_get(&v, SR_SB, 0) ? (int16_t)b16 : (int64_t)b16;
			uint32_t prod = (uint32_t)(x * y);
			if (sass_values_get(&v, SR_PSL, 0))
				prod <<= 16;
			int64_t cm = sass_values_get(&v, SR_CMODE, 0);
			if (cm == 1) cval &= 0xffff;
			if (cm == 2) cval >>= 16;
			if (cm == 4) cval += b << 16;
			uint32_t r = prod + cval;
			if (sass_values_get(&v, SR_MRG, 0))
				r = (r & 0xffff) | (b << 16);
			emu_set(e, rd, r);
			break;
		}
		case SOP_BRA:
			next = (size_t)((int64_t)pc + 8 + sass_values_get(&v, SR_IMM, 0));
			break;
		case SOP_EXIT:
			return;
		case SOP_STG: {
			uint64_t addr = a;
			if (sass_values_get(&v, SR_E, 0))
				addr |= (uint64_t)emu_reg(e, ra + 1) << 32;
			addr += (uint64_t)sass_values_get(&v, SR_IMM, 0);
			uint32_t n = size_bytes(sass_values_get(&v, SR_SIZE, 4));
			ck_assert(addr >= EMU_MEM_BASE && addr + n <= EMU_MEM_BASE + EMU_MEM);
			int64_t rb = sass_values_get(&v, SR_RB, 255);
			for (uint32_t i = 0; i < n; i++)
				e->mem[addr - EMU_MEM_BASE + i] = (uint8_t)(emu_reg(e, rb + i / 4) >> (8 * (i % 4)));
			break;
		}
		case SOP_LDG: {
			uint64_t addr = a;
			if (sass_values_get(&v, SR_E, 0))
				addr |= (uint64_t)emu_reg(e, ra + 1) << 32;
			addr += (uint64_t)sass_values_get(&v, SR_IMM, 0);
			int64_t size = sass_values_get(&v, SR_SIZE, 4);
			uint32_t n = size == 7 ? 16 : size_bytes(size);
			ck_assert(addr >= EMU_MEM_BASE && addr + n <= EMU_MEM_BASE + EMU_MEM);
			uint32_t words[4] = { 0, 0, 0, 0 };
			memcpy(words, e->mem + (addr - EMU_MEM_BASE), n);
			if (size == 1 || size == 3)
				words[0] = (uint32_t)sext(words[0], size == 1 ? 8 : 16);
			for (uint32_t i = 0; i < (n + 3) / 4; i++)
				emu_set(e, rd + i, words[i]);
			break;
		}
		case SOP_SUST_D: case SOP_SULD_D: case SOP_SURED_D: case SOP_SUST_P: {
			uint32_t idx = sass_values_has(&v, SR_SUIDX) ? (uint32_t)sass_values_get(&v, SR_SUIDX, 0)
			                                             : emu_reg(e, sass_values_get(&v, SR_RC, 255));
			int64_t rb = f->op == SOP_SULD_D ? rd : sass_values_get(&v, SR_RB, 255);
			uint32_t n = f->op == SOP_SURED_D ? 4 : f->op == SOP_SUST_P
				? 4 * (uint32_t)__builtin_popcountll(sass_values_get(&v, SR_RGBA, 1))
				: size_bytes(sass_values_get(&v, SR_SIZE, 4));
			uint8_t *cell = surf_cell(e, &v, idx, n);
			if (f->op == SOP_SURED_D) {
				uint32_t old, d = emu_reg(e, rb);
				memcpy(&old, cell, 4);
				int64_t op = sass_values_get(&v, SR_SUOP, 0);
				bool sg = sass_values_get(&v, SR_SUTYPE, 0) != 0;
				uint32_t mn = sg ? ((int32_t)old < (int32_t)d ? old : d) : (old < d ? old : d);
				uint32_t mx = sg ? ((int32_t)old > (int32_t)d ? old : d) : (old > d ? old : d);
				uint32_t nv = op == 0 ? old + d : op == 1 ? mn : op == 2 ? mx : op == 5 ? (old & d) : (old | d);
				memcpy(cell, &nv, 4);
			} else if (f->op == SOP_SULD_D) {
				for (uint32_t i = 0; i < (n + 3) / 4; i++)
					emu_set(e, rb + i, 0);
				for (uint32_t i = 0; i < n; i++)
					e->r[rb + i / 4] |= (uint32_t)cell[i] << (8 * (i % 4));
			} else {
				for (uint32_t i = 0; i < n; i++)
					cell[i] = (uint8_t)(emu_reg(e, rb + i / 4) >> (8 * (i % 4)));
			}
			break;
		}
		case SOP_TXQ: case SOP_TXQ_B:
			emu_set(e, rd, sass_values_get(&v, SR_QMASK, 1) == 1 ? EMU_SURF_W : EMU_SURF_H);
			break;
		default:
			ck_abort_msg("the interpreter does not model %s", f->name);
		}
		pc = next;
	}
	ck_abort_msg("ran off the end of the code");
}

static Emu EMU;

/* Assembles src (one kernel whose first parameter is the output pointer),
 * loads the 32-bit words `params` after it and runs thread `tid`. */
static void exec_ptx(const char *src, const uint32_t *params, size_t nparams, uint32_t tx)
{
	parse_str(src);
	AssembleOptions o = { ASM_RAW, false };
	uint8_t *img;
	size_t len;
	char *listing;
	int rc = assemble_module(&M, &D, &o, &img, &len, &listing);
	if (rc != 0) {
		diag_render_text(&D, stderr, &(DiagTextOptions){ false, true });
		ck_abort_msg("assembly failed");
	}
	memset(&EMU, 0, sizeof EMU);
	for (size_t i = 0; i < EMU_MEM / 2; i++)
		EMU.mem[EMU_MEM / 2 + i] = (uint8_t)(i * 37 + 11);     /* input data for loads */
	uint64_t out = EMU_MEM_BASE;
	memcpy(EMU.cbank + 0x140, &out, 8);
	memcpy(EMU.cbank + 0x148, params, 4 * nparams);
	EMU.tid[0] = tx;
	EMU.tid[1] = 2;
	EMU.tid[2] = 3;
	emu_run(&EMU, img, len);
	free(img);
	teardown();
}

static uint32_t mem32(size_t off)
{
	uint32_t v;
	memcpy(&v, EMU.mem + off, 4);
	return v;
}

static uint64_t mem64(size_t off)
{
	uint64_t v;
	memcpy(&v, EMU.mem + off, 8);
	return v;
}

START_TEST(test_exec_integer_sequences)
{
	static const char src[] = PTX_HEAD
		".visible .entry k(.param .u64 o, .param .u32 pa, .param .u32 pb, .param .u32 pc)\n{\n"
		" .reg .pred %p<4>;\n .reg .b16 %h<4>;\n .reg .b32 %r<24>;\n .reg .b64 %rd<16>;\n"
		" ld.param.u64 %rd1, [o];\n ld.param.u32 %r1, [pa];\n ld.param.u32 %r2, [pb];\n"
		" ld.param.u32 %r3, [pc];\n"
		" mul.lo.s32 %r4, %r1, %r2;\n st.global.u32 [%rd1], %r4;\n"
		" mad.lo.s32 %r5, %r1, %r2, %r3;\n st.global.u32 [%rd1+4], %r5;\n"
		" mul.wide.u32 %rd2, %r1, %r2;\n st.global.u64 [%rd1+8], %rd2;\n"
		" mul.wide.s32 %rd3, %r1, %r2;\n st.global.u64 [%rd1+16], %rd3;\n"
		" mul.wide.s32 %rd4, %r1, 8;\n st.global.u64 [%rd1+24], %rd4;\n"
		" add.s64 %rd5, %rd3, %rd2;\n sub.s64 %rd5, %rd5, 0x123456789;\n st.global.u64 [%rd1+32], %rd5;\n"
		" shl.b64 %rd6, %rd3, 13;\n st.global.u64 [%rd1+40], %rd6;\n"
		" shr.s64 %rd7, %rd3, 37;\n st.global.u64 [%rd1+48], %rd7;\n"
		" shr.u64 %rd8, %rd3, 5;\n st.global.u64 [%rd1+56], %rd8;\n"
		" cvt.u16.u32 %h1, %r1;\n cvt.s64.s16 %rd9, %h1;\n st.global.u64 [%rd1+64], %rd9;\n"
		" cvt.s32.s8 %r6, %r2;\n st.global.u32 [%rd1+72], %r6;\n"
		" setp.lt.s32 %p1, %r1, %r2;\n selp.b32 %r7, %r3, 99, %p1;\n st.global.u32 [%rd1+76], %r7;\n"
		" neg.s64 %rd10, %rd3;\n st.global.u64 [%rd1+80], %rd10;\n"
		" shr.s32 %r8, %r1, %r3;\n st.global.u32 [%rd1+88], %r8;\n"
		" xor.b32 %r9, %r1, 0xdeadbeef;\n not.b32 %r9, %r9;\n st.global.u32 [%rd1+92], %r9;\n"
		" setp.ge.u32 %p2, %r1, %r2;\n or.pred %p3, %p1, %p2;\n selp.u32 %r10, 1, 0, %p3;\n"
		" xor.pred %p3, %p1, %p2;\n selp.u32 %r11, 2, 0, %p3;\n add.s32 %r10, %r10, %r11;\n"
		" and.pred %p3, %p1, %p2;\n selp.u32 %r11, 4, 0, %p3;\n add.s32 %r10, %r10, %r11;\n"
		" st.global.u32 [%rd1+96], %r10;\n"
		" mov.u32 %r12, 0;\n mov.u32 %r13, 0;\nLOOP:\n add.s32 %r13, %r13, %r12;\n"
		" add.s32 %r12, %r12, 1;\n setp.lt.u32 %p1, %r12, %r3;\n @%p1 bra LOOP;\n"
		" st.global.u32 [%rd1+100], %r13;\n ret;\n}\n";
	static const uint32_t cases[][3] = {
		{ 7, 9, 5 }, { 0x12345678, 0x9abcdef1, 3 }, { 0xfffffff3, 0x7fff1234, 17 },
		{ 0x80000000, 0xffffffff, 31 }, { 65535, 65537, 1 }, { 0xdeadbeef, 0x00c0ffee, 40 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint32_t a = cases[i][0], b = cases[i][1], c = cases[i][2];
		exec_ptx(src, cases[i], 3, 0);
		int32_t sa = (int32_t)a, sb = (int32_t)b;
		ck_assert_uint_eq(mem32(0), a * b);
		ck_assert_uint_eq(mem32(4), a * b + c);
		ck_assert(mem64(8) == (uint64_t)a * b);
		int64_t ws = (int64_t)sa * sb;
		ck_assert(mem64(16) == (uint64_t)ws);
		ck_assert(mem64(24) == (uint64_t)((int64_t)sa * 8));
		ck_assert(mem64(32) == (uint64_t)ws + (uint64_t)a * b - 0x123456789u);
		ck_assert(mem64(40) == (uint64_t)ws << 13);
		ck_assert(mem64(48) == (uint64_t)(ws >> 37));
		ck_assert(mem64(56) == (uint64_t)ws >> 5);
		ck_assert(mem64(64) == (uint64_t)(int64_t)(int16_t)a);
		ck_assert_uint_eq(mem32(72), (uint32_t)(int32_t)(int8_t)b);
		ck_assert_uint_eq(mem32(76), sa < sb ? c : 99);
		ck_assert(mem64(80) == (uint64_t)-ws);
		ck_assert_uint_eq(mem32(88), (uint32_t)(sa >> (c > 31 ? 31 : c)));
		ck_assert_uint_eq(mem32(92), ~(a ^ 0xdeadbeefu));
		bool p1 = sa < sb, p2 = a >= b;
		ck_assert_uint_eq(mem32(96), (p1 || p2 ? 1u : 0u) + (p1 != p2 ? 2u : 0u) + (p1 && p2 ? 4u : 0u));
		uint32_t sum = 0, j = 0;
		do
			sum += j++;
		while (j < c);
		ck_assert_uint_eq(mem32(100), sum);
	}
}
END_TEST

START_TEST(test_exec_surfaces)
{
	static const char src[] = PTX_HEAD ".global .surfref s;\n"
		".visible .entry k(.param .u64 o, .param .u32 pa, .param .u64 h)\n{\n"
		" .reg .b16 %h<10>;\n .reg .b32 %r<24>;\n .reg .b64 %rd<8>;\n"
		" ld.param.u64 %rd1, [o];\n ld.param.u32 %r1, [pa];\n ld.param.u64 %rd2, [h];\n"
		" mov.u32 %r2, %tid.x;\n shl.b32 %r3, %r2, 2;\n"
		" cvt.u16.u32 %h1, %r1;\n shr.u32 %r4, %r1, 8;\n cvt.u16.u32 %h2, %r4;\n"
		" shr.u32 %r4, %r1, 16;\n cvt.u16.u32 %h3, %r4;\n shr.u32 %r4, %r1, 24;\n cvt.u16.u32 %h4, %r4;\n"
		" sust.b.1d.v4.b8.trap [s, {%r3}], {%h4, %h3, %h2, %h1};\n"
		" suld.b.1d.v4.b8.trap {%h5, %h6, %h7, %h8}, [s, {%r3}];\n"
		" st.global.v4.u16 [%rd1], {%h5, %h6, %h7, %h8};\n"
		" mov.u32 %r5, %tid.y;\n mov.u32 %r6, %tid.z;\n add.s32 %r7, %r1, 1;\n"
		" sust.b.a2d.v2.b32.trap [s, {%r6, %r3, %r5, %r5}], {%r1, %r7};\n"
		" suld.b.a2d.v2.b32.trap {%r8, %r9}, [s, {%r6, %r3, %r5, %r5}];\n"
		" st.global.v2.u32 [%rd1+8], {%r8, %r9};\n"
		" sured.b.add.2d.u32.trap [%rd2, {%r3, %r5}], %r1;\n"
		" sured.b.add.2d.u32.trap [%rd2, {%r3, %r5}], %r7;\n"
		" suld.b.2d.b32.trap {%r10}, [%rd2, {%r3, %r5}];\n st.global.u32 [%rd1+16], %r10;\n"
		" suq.width.b32 %r11, [s];\n suq.height.b32 %r12, [%rd2];\n"
		" st.global.v2.u32 [%rd1+20], {%r11, %r12};\n ret;\n}\n";
	uint32_t params[3] = { 0xa1b2c3d4, 0, 0 };
	exec_ptx(src, params, 3, 5);
	uint16_t h[4];
	memcpy(h, EMU.mem, 8);
	ck_assert_uint_eq(h[0], 0xa1);
	ck_assert_uint_eq(h[1], 0xb2);
	ck_assert_uint_eq(h[2], 0xc3);
	ck_assert_uint_eq(h[3], 0xd4);
	/* the byte at x = 4*5 holds the first vector element */
	uint32_t slot_idx = 0x158 / 4;     /* params end at 0x158 */
	ck_assert_uint_eq(EMU.surf[slot_idx % 4][20], 0xa1);
	ck_assert_uint_eq(mem32(8), 0xa1b2c3d4);
	ck_assert_uint_eq(mem32(12), 0xa1b2c3d5);
	/* a2d: x = 20 bytes, y = tid.y = 2, layer = tid.z = 3 */
	uint32_t word;
	memcpy(&word, EMU.surf[slot_idx % 4] + 20 + 2 * EMU_SURF_W + 3 * EMU_SURF_W * EMU_SURF_H, 4);
	ck_assert_uint_eq(word, 0xa1b2c3d4);
	ck_assert_uint_eq(mem32(16), 2 * 0xa1b2c3d4u + 1);
	ck_assert_uint_eq(mem32(20), EMU_SURF_W);
	ck_assert_uint_eq(mem32(24), EMU_SURF_H);
}
END_TEST

START_TEST(test_exec_global_loads)
{
	static const char src[] = PTX_HEAD
		".visible .entry k(.param .u64 o, .param .u64 in)\n{\n"
		" .reg .b16 %h<4>;\n .reg .b32 %r<24>;\n .reg .b64 %rd<8>;\n"
		" ld.param.u64 %rd1, [o];\n ld.param.u64 %rd2, [in];\n"
		" ld.global.u32 %r1, [%rd2];\n ld.global.s8 %r2, [%rd2+5];\n ld.global.nc.u16 %h1, [%rd2+6];\n"
		" ld.global.v4.u32 {%r3, %r4, %r5, %r6}, [%rd2+16];\n ld.global.cg.v2.u8 {%h2, %h3}, [%rd2+34];\n"
		" ld.global.volatile.u64 %rd3, [%rd2+40];\n ld.global.u32 %r7, [%rd2+16777220];\n"
		" st.global.u32 [%rd1], %r1;\n st.global.u32 [%rd1+4], %r2;\n st.global.u16 [%rd1+8], %h1;\n"
		" st.global.v4.u32 [%rd1+16], {%r6, %r5, %r4, %r3};\n st.global.v2.u16 [%rd1+32], {%h3, %h2};\n"
		" st.global.u64 [%rd1+40], %rd3;\n ret;\n}\n";
	uint32_t in[2] = { EMU_MEM_BASE + EMU_MEM / 2, 0 };
	exec_ptx(src, in, 2, 0);
	const uint8_t *src_mem = EMU.mem + EMU_MEM / 2;
	uint32_t w;
	memcpy(&w, src_mem, 4);
	ck_assert_uint_eq(mem32(0), w);
	ck_assert_uint_eq(mem32(4), (uint32_t)(int32_t)(int8_t)src_mem[5]);
	ck_assert_uint_eq(EMU.mem[8] | EMU.mem[9] << 8, src_mem[6] | src_mem[7] << 8);
	for (int i = 0; i < 4; i++) {
		memcpy(&w, src_mem + 16 + 4 * i, 4);
		ck_assert_uint_eq(mem32(16 + 4 * (3 - i)), w);
	}
	ck_assert_uint_eq(EMU.mem[32], src_mem[35]);
	ck_assert_uint_eq(EMU.mem[34], src_mem[34]);
	ck_assert(memcmp(EMU.mem + 40, src_mem + 40, 8) == 0);
}
END_TEST

static Suite *lower_suite(void)
{
	Suite *s = suite_create("lower");
	TCase *tc = tcase_create("regalloc");
	tcase_add_test(tc, test_regalloc_groups_aligned);
	tcase_add_test(tc, test_regalloc_reuses_dead_registers);
	tcase_add_test(tc, test_regalloc_removes_dead_code);
	tcase_add_test(tc, test_regalloc_loop_keeps_value_live);
	tcase_add_test(tc, test_regalloc_coalesces_copies);
	suite_add_tcase(s, tc);
	tc = tcase_create("sched");
	tcase_add_test(tc, test_sched_barriers_and_stalls);
	tcase_add_test(tc, test_verify_rejects_missing_wait);
	tcase_add_test(tc, test_verify_rejects_missing_write_barrier);
	tcase_add_test(tc, test_verify_rejects_short_stall);
	tcase_add_test(tc, test_verify_rejects_missing_read_barrier);
	tcase_add_test(tc, test_verify_rejects_barrier_on_alu);
	tcase_add_test(tc, test_verify_follows_branches);
	suite_add_tcase(s, tc);
	tc = tcase_create("lower");
	tcase_add_test(tc, test_lower_surface_array_index_last);
	tcase_add_test(tc, test_lower_param_handle_folded);
	tcase_add_test(tc, test_lower_unsupported_diagnosed);
	tcase_add_test(tc, test_assemble_raw_layout);
	tcase_add_test(tc, test_assemble_cubin);
	suite_add_tcase(s, tc);
	tc = tcase_create("exec");
	tcase_add_test(tc, test_exec_integer_sequences);
	tcase_add_test(tc, test_exec_surfaces);
	tcase_add_test(tc, test_exec_global_loads);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(lower_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
