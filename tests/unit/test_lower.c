/* Unit tests of the back end: lowering, register allocation, scheduling and
 * the hazard verifier (including schedules broken on purpose, which the
 * verifier must reject), and the assembled image. The lowered sequences
 * run on the interpreter are in test_lower_exec.c. */
#include <check.h>
#include <math.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/assemble.h"
#include "lower/lower.h"
#include "front/parse.h"
#include "lower/regalloc.h"
#include "lower/sched.h"
#include "lower/kernel_code.h"
#include "sm50/sass_ctrl.h"
#include "check_main.h"
#include "parse_helper.h"

/* ---- helpers -------------------------------------------------------------- */

#include "parse_helper.h"

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

static LInsn *add(SassFormId form)
{
	return lkernel_append(&K, form, (SrcLoc){ 1, 1, 1, 1 });
}

static void finish(void)
{
	for (size_t i = 0; i < K.ninsns; i++) {
		LInsn *in = &K.insns[i];
		for (unsigned r = 0; r < in->nrefs; r++)
			linsn_set(in, in->refs[r].role, K.vregs[in->refs[r].vreg].phys + in->refs[r].sub);
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
	LInsn *in = add(SF_S2R);
	linsn_ref(in, SR_RD, s, 0, 1, true);
	for (unsigned i = 0; i < 4; i++) {
		in = add(SF_S2R);
		linsn_ref(in, SR_RD, g, i, 1, true);
	}
	for (unsigned i = 0; i < 2; i++) {
		in = add(SF_S2R);
		linsn_ref(in, SR_RD, p, i, 1, true);
	}
	in = add(SF_STG);
	linsn_ref(in, SR_RA, p, 0, 2, false);
	linsn_ref(in, SR_RB, g, 0, 4, false);
	in = add(SF_STG);
	linsn_ref(in, SR_RA, p, 0, 2, false);
	linsn_ref(in, SR_RB, s, 0, 1, false);
	add(SF_EXIT);
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
	LInsn *in = add(SF_S2R);
	linsn_ref(in, SR_RD, v[0], 0, 1, true);
	for (int i = 1; i < 3; i++) {
		in = add(SF_IADD_R);
		linsn_ref(in, SR_RD, v[i], 0, 1, true);
		linsn_ref(in, SR_RA, v[i - 1], 0, 1, false);
		linsn_ref(in, SR_RB, v[i - 1], 0, 1, false);
	}
	uint32_t addr = lkernel_new_vreg(&K, LRC_GPR, 2, false);
	in = add(SF_MOV_R);
	linsn_ref(in, SR_RD, addr, 0, 1, true);
	in = add(SF_MOV_R);
	linsn_ref(in, SR_RD, addr, 1, 1, true);
	in = add(SF_STG);
	linsn_ref(in, SR_RA, addr, 0, 2, false);
	linsn_ref(in, SR_RB, v[2], 0, 1, false);
	add(SF_EXIT);
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
	LInsn *in = add(SF_MOV32I);
	linsn_ref(in, SR_RD, a, 0, 1, true);
	linsn_set(in, SR_IMM, 5);
	add(SF_EXIT);
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
	LInsn *in = add(SF_S2R);
	linsn_ref(in, SR_RD, x, 0, 1, true);
	K.label_pos[0] = K.ninsns;
	in = add(SF_IADD_R);
	linsn_ref(in, SR_RD, t, 0, 1, true);
	linsn_ref(in, SR_RA, x, 0, 1, false);
	linsn_ref(in, SR_RB, x, 0, 1, false);
	in = add(SF_ISETP_R);
	linsn_ref(in, SR_PD, p, 0, 1, true);
	linsn_ref(in, SR_RA, t, 0, 1, false);
	linsn_ref(in, SR_RB, t, 0, 1, false);
	in = add(SF_BRA);
	linsn_ref(in, SR_PG, p, 0, 1, false);
	in->target = 0;
	add(SF_EXIT);
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
		in = add(SF_MOV_C);
		linsn_ref(in, SR_RD, a, p, 1, true);
	}
	for (unsigned p = 0; p < 2; p++) {      /* b = a, a dead afterwards */
		in = add(SF_MOV_R);
		linsn_ref(in, SR_RD, b, p, 1, true);
		linsn_ref(in, SR_RB, a, p, 1, false);
	}
	in = add(SF_S2R);
	linsn_ref(in, SR_RD, x, 0, 1, true);
	in = add(SF_MOV_R);                      /* y = x; then y changes while x is still read */
	linsn_ref(in, SR_RD, y, 0, 1, true);
	linsn_ref(in, SR_RB, x, 0, 1, false);
	in = add(SF_IADD_R);
	linsn_ref(in, SR_RD, y, 0, 1, true);
	linsn_ref(in, SR_RA, y, 0, 1, false);
	linsn_ref(in, SR_RB, y, 0, 1, false);
	for (unsigned r = 0; r < 2; r++) {
		in = add(SF_STG);
		linsn_ref(in, SR_RA, b, 0, 2, false);
		linsn_ref(in, SR_RB, r ? y : x, 0, 1, false);
	}
	add(SF_EXIT);
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
	LInsn *in = add(SF_S2R);
	linsn_ref(in, SR_RD, r0, 0, 1, true);
	linsn_set(in, SR_SREG, 0x21);
	in = add(SF_IADD_R);
	linsn_ref(in, SR_RD, r2, 0, 1, true);
	linsn_ref(in, SR_RA, r0, 0, 1, false);
	linsn_ref(in, SR_RB, r0, 0, 1, false);
	for (unsigned p = 0; p < 2; p++) {
		in = add(SF_MOV_C);
		linsn_ref(in, SR_RD, r4, p, 1, true);
		linsn_set(in, SR_COFF, 0x50 + p);
	}
	in = add(SF_STG);
	linsn_ref(in, SR_RA, r4, 0, 2, false);
	linsn_ref(in, SR_RB, r2, 0, 1, false);
	linsn_set(in, SR_SIZE, 4);
	linsn_set(in, SR_E, 1);
	in = add(SF_MOV_R);       /* overwrites the STG's data register */
	linsn_ref(in, SR_RD, r2, 0, 1, true);
	in = add(SF_STG);
	linsn_ref(in, SR_RA, r4, 0, 2, false);
	linsn_ref(in, SR_RB, r2, 0, 1, false);
	linsn_set(in, SR_SIZE, 4);
	linsn_set(in, SR_E, 1);
	add(SF_EXIT);
	finish();
}

START_TEST(test_sched_barriers_and_stalls)
{
	build_varlat_kernel();
	SassCtrl *ctrl;
	char err[256];
	sched_kernel(&K, &ctrl);
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
	free(ctrl);
	kernel_reset();
}
END_TEST

START_TEST(test_verify_rejects_missing_wait)
{
	build_varlat_kernel();
	SassCtrl *ctrl;
	char err[256];
	sched_kernel(&K, &ctrl);
	ctrl[find_form("IADD_R", 0)].wait = 0;
	ck_assert_int_eq(sched_verify(&K, ctrl, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "reads R0 before the variable-latency S2R") != NULL, "%s", err);
	free(ctrl);
	kernel_reset();
}
END_TEST

START_TEST(test_verify_rejects_missing_write_barrier)
{
	build_varlat_kernel();
	SassCtrl *ctrl;
	char err[256];
	sched_kernel(&K, &ctrl);
	ctrl[find_form("S2R", 0)].wbar = SASS_CTRL_NO_BARRIER;
	ck_assert_int_eq(sched_verify(&K, ctrl, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "without a write barrier") != NULL, "%s", err);
	free(ctrl);
	kernel_reset();
}
END_TEST

START_TEST(test_verify_rejects_short_stall)
{
	build_varlat_kernel();
	SassCtrl *ctrl;
	char err[256];
	sched_kernel(&K, &ctrl);
	/* the second address MOV is read by the STG right after it */
	ctrl[find_form("STG", 0) - 1].stall = 1;
	ck_assert_int_eq(sched_verify(&K, ctrl, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "too short") != NULL, "%s", err);
	free(ctrl);
	kernel_reset();
}
END_TEST

START_TEST(test_verify_rejects_missing_read_barrier)
{
	build_varlat_kernel();
	SassCtrl *ctrl;
	char err[256];
	sched_kernel(&K, &ctrl);
	ctrl[find_form("MOV_R", 0)].wait = 0;
	ck_assert_int_eq(sched_verify(&K, ctrl, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "overwrites R2 before the STG") != NULL, "%s", err);
	/* and with no read barrier at all, the overwrite is never safe */
	free(ctrl);
	sched_kernel(&K, &ctrl);
	ctrl[find_form("STG", 0)].rbar = SASS_CTRL_NO_BARRIER;
	ck_assert_int_eq(sched_verify(&K, ctrl, err, sizeof err), -1);
	free(ctrl);
	kernel_reset();
}
END_TEST

START_TEST(test_verify_rejects_barrier_on_alu)
{
	build_varlat_kernel();
	SassCtrl *ctrl;
	char err[256];
	sched_kernel(&K, &ctrl);
	ctrl[find_form("IADD_R", 0)].wbar = 2;
	ck_assert_int_eq(sched_verify(&K, ctrl, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "is not allowed for this form") != NULL, "%s", err);
	free(ctrl);
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
	LInsn *in = add(SF_S2R);
	linsn_ref(in, SR_RD, r0, 0, 1, true);
	in = add(SF_ISETP_R);
	linsn_ref(in, SR_PD, p0, 0, 1, true);
	linsn_set(in, SR_RA, 255);
	linsn_set(in, SR_RB, 255);
	in = add(SF_BRA);
	linsn_ref(in, SR_PG, p0, 0, 1, false);
	in->target = 0;
	add(SF_EXIT);
	K.label_pos[0] = K.ninsns;
	in = add(SF_IADD_R);
	linsn_ref(in, SR_RD, r2, 0, 1, true);
	linsn_ref(in, SR_RA, r0, 0, 1, false);
	linsn_ref(in, SR_RB, r0, 0, 1, false);
	add(SF_EXIT);
	finish();
	SassCtrl *ctrl;
	char err[256];
	sched_kernel(&K, &ctrl);
	ck_assert_msg(sched_verify(&K, ctrl, err, sizeof err) == 0, "%s", err);
	/* the branch target waits; without that wait the S2R result is unsafe */
	ctrl[K.label_pos[0]].wait = 0;
	ck_assert_int_eq(sched_verify(&K, ctrl, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "reads R0") != NULL, "%s", err);
	/* and the predicate needs its latency before the branch reads it */
	free(ctrl);
	sched_kernel(&K, &ctrl);
	ctrl[1].stall = 1;
	ck_assert_int_eq(sched_verify(&K, ctrl, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "reads P0") != NULL, "%s", err);
	free(ctrl);
	kernel_reset();
}
END_TEST

/* ---- lowering ------------------------------------------------------------- */

static void lower_str(const char *src, LModule *lm, unsigned expect_errors)
{
	ck_assert_uint_eq(parse_str(src), 0);
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
	ck_assert_int_eq(linsn_get(ld, SR_SUIDX, -1), 0x53);
	ck_assert_int_eq(linsn_get(ld, SR_GEOM, -1), 4);
	ck_assert_int_eq(linsn_get(ld, SR_SIZE, -1), 5);
	ck_assert_int_eq(linsn_get(ld, SR_CLAMP, -1), 0);
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
			from_ctaid = linsn_get(&k->insns[j], SR_SREG, 0) == 0x25;
	ck_assert(from_ctaid);
	lower_module_free(&lm);
	teardown();
}
END_TEST

START_TEST(test_lower_param_handle_folded)
{
	LModule lm;
	/* a copy of the parameter register is folded too (as ptxas -O3); a
	 * handle chosen at run time (selp) stays a register */
	lower_str(PTX_HEAD ".visible .entry k(.param .u32 a, .param .u64 h)\n{\n .reg .b32 %r<4>;\n"
	          " .reg .pred %p<2>;\n .reg .b64 %rd<4>;\n ld.param.u64 %rd1, [h];\n mov.u32 %r1, %tid.x;\n"
	          " mov.b64 %rd2, %rd1;\n sust.b.1d.b32.trap [%rd2, {%r1}], {%r1};\n"
	          " setp.eq.u32 %p1, %r1, 0;\n selp.b64 %rd3, %rd1, 0, %p1;\n"
	          " sust.b.1d.b32.trap [%rd3, {%r1}], {%r1};\n ret;\n}\n", &lm, 0);
	LKernel *k = &lm.kernels[0];
	int n = 0;
	for (size_t j = 0; j < k->ninsns; j++) {
		if (k->insns[j].form->op != SOP_SUST_D)
			continue;
		if (n++ == 0) {
			/* the parameter at 0x8: index (0x140 + 8) / 4 */
			ck_assert_str_eq(k->insns[j].form->name, "SUST_D");
			ck_assert_int_eq(linsn_get(&k->insns[j], SR_SUIDX, -1), 0x52);
		} else {
			ck_assert_str_eq(k->insns[j].form->name, "SUST_D_R");
		}
	}
	ck_assert_int_eq(n, 2);
	/* no bound surfref: ptxas records no EIATTR_BINDLESS_SURFACE_BANK */
	ck_assert(!k->uses_surfaces);
	lower_module_free(&lm);
	teardown();
}
END_TEST

START_TEST(test_lower_unsupported_diagnosed)
{
	LModule lm;
	lower_str(PTX_HEAD ".visible .entry k()\n{\n .reg .f64 %f<3>;\n .reg .b32 %r<3>;\n"
	          " bfind.shiftamt.u64 %r1, %f2;\n mov.u32 %r1, %tid.x;\n"
	          " vabsdiff.u32.u32.u32 %r1.h1, %r2, %r2, %r2;\n ret;\n}\n", &lm, 2);
	size_t n;
	Diag **ds = diag_sorted(&D, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(ds[0]->rule, "encoder-unsupported");
	ck_assert_int_eq(ds[0]->loc.first_line, 8);
	ck_assert(strstr(ds[0]->msg, "not supported by the sm_50 encoder: bfind.shiftamt on 64-bit values") != NULL);
	ck_assert_int_eq(ds[1]->loc.first_line, 10);
	ck_assert(strstr(ds[1]->msg, "vabsdiff with a destination selector") != NULL);
	lower_module_free(&lm);
	teardown();
}
END_TEST

/* ---- the whole back end --------------------------------------------------- */

START_TEST(test_assemble_raw_layout)
{
	ck_assert_uint_eq(parse_str(PTX_HEAD ".global .surfref s;\n.visible .entry k(.param .u64 o)\n{\n"
	          " .reg .b32 %r<4>;\n .reg .b64 %rd<3>;\n mov.u32 %r1, %tid.x;\n suld.b.1d.b32.trap {%r2}, [s, {%r1}];\n"
	          " ld.param.u64 %rd1, [o];\n st.global.u32 [%rd1+8], %r2;\n ret;\n}\n"), 0);
	AssembleOptions o = { ASM_RAW, true, false, 0, false };
	uint8_t *img;
	size_t len;
	char *listing;
	ck_assert_int_eq(assemble_module(&M, &D, &o, &img, &len, &listing), 0);
	ck_assert_uint_eq(len % 64, 0);
	/* first instruction: MOV R1, c[0x0][0x20] */
	ck_assert(sass_load_word(img + 8) == UINT64_C(0x4c98078000870001));
	/* an EXIT, then BRA to itself, then only NOPs */
	size_t n = len / 8, bra = 0;
	for (size_t i = 0; i < n; i++)
		if (i % 4 && sass_load_word(img + 8 * i) == UINT64_C(0xe2400fffff87000f))
			bra = i;
	ck_assert_uint_gt(bra, 0);
	size_t prev = (bra - 1) % 4 == 0 ? bra - 2 : bra - 1;   /* skip a control word */
	ck_assert(sass_load_word(img + 8 * prev) == UINT64_C(0xe30000000007000f));
	for (size_t i = bra + 1; i < n; i++)
		if (i % 4)
			ck_assert(sass_load_word(img + 8 * i) == UINT64_C(0x50b0000000070f00));
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
	ck_assert_uint_eq(parse_str(PTX_HEAD ".global .surfref s;\n.visible .entry k(.param .u32 v)\n{\n"
	          " .reg .b32 %r<4>;\n mov.u32 %r1, %tid.x;\n ld.param.u32 %r2, [v];\n"
	          " sust.b.1d.b32.trap [s, {%r1}], {%r2};\n ret;\n}\n"), 0);
	AssembleOptions o = { ASM_CUBIN, false, false, 0, false };
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


/* A NOBITS section last in the file (.nv.shared.k1 after .nv.global.init)
 * aligns the layout's position without writing bytes: the section headers
 * must still start where the ELF header says (cuobjdump 11.8 crashed on a
 * cubin 8 bytes short of it). */
START_TEST(test_assemble_cubin_nobits_last)
{
	ck_assert_uint_eq(parse_str(PTX_HEAD ".global .u32 g = 7;\n"
	          ".visible .entry k1(.param .u64 o)\n{\n .shared .align 16 .b8 s1[16];\n .reg .b32 %r<3>;\n"
	          " .reg .b64 %rd<2>;\n mov.u32 %r1, %tid.x;\n st.shared.u32 [s1], %r1;\n ld.shared.u32 %r2, [s1];\n"
	          " ld.param.u64 %rd1, [o];\n st.global.u32 [%rd1], %r2;\n ret;\n}\n"
	          ".visible .entry k2(.param .u64 o)\n{\n .shared .align 16 .b8 s2[16];\n .reg .b32 %r<3>;\n"
	          " .reg .b64 %rd<2>;\n ld.global.u32 %r1, [g];\n st.shared.u32 [s2], %r1;\n ld.shared.u32 %r2, [s2];\n"
	          " ld.param.u64 %rd1, [o];\n st.global.u32 [%rd1], %r2;\n ret;\n}\n"), 0);
	AssembleOptions o = { ASM_CUBIN, false, false, 0, false };
	uint8_t *img;
	size_t len;
	char *listing;
	ck_assert_int_eq(assemble_module(&M, &D, &o, &img, &len, &listing), 0);
	uint64_t phoff = 0, shoff = 0;
	for (int i = 7; i >= 0; i--) {
		phoff = phoff << 8 | img[32 + i];
		shoff = shoff << 8 | img[40 + i];
	}
	uint16_t phnum = (uint16_t)(img[56] | img[57] << 8), shnum = (uint16_t)(img[60] | img[61] << 8);
	ck_assert_uint_eq(shoff + 64u * shnum, phoff);
	ck_assert_uint_eq(phoff + 56u * phnum, len);
	ck_assert_uint_eq(img[shoff + 64 + 4], 3);       /* section 1: .shstrtab, SHT_STRTAB */
	free(img);
	teardown();
}
END_TEST

/* The streamed lowering stops after the walk of an item's syntax tree:
 * the kernel's reconvergence (an SSY before the divergent branch) and its
 * hand-over wait for lower_stream_settle, which the next item or the end
 * run first, so a caller can free the item before them (issue 18). */
static void count_done(LKernel *k, void *arg)
{
	(void)k;
	++*(unsigned *)arg;
}

static bool has_ssy(const LKernel *k)
{
	for (size_t i = 0; i < k->ninsns; i++)
		if (k->insns[i].form->op == SOP_SSY)
			return true;
	return false;
}

START_TEST(test_lower_stream_settles_after_item)
{
	ck_assert_uint_eq(parse_str(PTX_HEAD ".visible .entry k(.param .u64 a)\n{\n .reg .pred %p<2>;\n"
	                            " .reg .b32 %r<3>;\n .reg .b64 %rd<2>;\n ld.param.u64 %rd1, [a];\n"
	                            " mov.u32 %r1, %tid.x;\n setp.eq.u32 %p1, %r1, 0;\n @%p1 bra L;\n"
	                            " add.u32 %r1, %r1, 1;\nL:\n st.global.u32 [%rd1], %r1;\n ret;\n}\n"
	                            ".visible .entry k2()\n{\n ret;\n}\n"), 0);
	LModule lm;
	unsigned done = 0;
	LowerStream *s = lower_stream_begin(&D, &lm, count_done, &done);
	const Item *it = M.items;
	while (!(it->kind == IT_FUNC && it->u.func.is_entry))
		lower_stream_item(s, it), it = it->next;
	lower_stream_item(s, it);
	ck_assert_uint_eq(lm.nkernels, 1);
	ck_assert_uint_eq(done, 0);
	ck_assert(!has_ssy(&lm.kernels[0]));
	lower_stream_settle(s);
	ck_assert_uint_eq(done, 1);
	ck_assert(has_ssy(&lm.kernels[0]));
	lower_stream_settle(s);      /* nothing left to settle */
	ck_assert_uint_eq(done, 1);
	/* the next item settles the one before it first; the end the last */
	lower_stream_item(s, it->next);
	ck_assert_uint_eq(done, 1);
	ck_assert_uint_eq(lower_stream_end(s), 0);
	ck_assert_uint_eq(done, 2);
	ck_assert_uint_eq(lm.nkernels, 2);
	lower_module_free(&lm);
	teardown();
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
	tcase_add_test(tc, test_lower_stream_settles_after_item);
	tcase_add_test(tc, test_assemble_raw_layout);
	tcase_add_test(tc, test_assemble_cubin);
	tcase_add_test(tc, test_assemble_cubin_nobits_last);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(lower_suite)
