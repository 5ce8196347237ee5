/* Unit tests of the hazard verifier of finished code (sched_verify.c):
 * hand-made streams with control words broken on purpose must be rejected,
 * correct ones and real ptxas 11.8 code (DEPBAR.LE, dual issue) accepted. */
#include <check.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "sm50/sass_ctrl.h"
#include "sm50/sched_verify.h"
#include "check_main.h"

/* Instruction words (ptxas 11.8 encodings, see docs/encoding.md). */
#define W_S2R_R0       UINT64_C(0xf0c8000002170000)   /* S2R R0, SR_TID.X */
#define W_MOV32I_R0    UINT64_C(0x010000000557f000)   /* MOV32I R0, 0x55 */
#define W_STG_R2_R0    UINT64_C(0xeedc200000070200)   /* STG.E [R2], R0 */
#define W_STG_R2_R4    UINT64_C(0xeedc200000070204)   /* STG.E [R2], R4 */
#define W_STG_R2_R6    UINT64_C(0xeedc200000070206)   /* STG.E [R2], R6 */
#define W_LDG_R4       UINT64_C(0xeed4a00000070404)   /* LDG.E.CI R4, [R4] */
#define W_LDG_R6       UINT64_C(0xeed4a00000070606)   /* LDG.E.CI R6, [R6] */
#define W_DEPBAR_LE5_1 UINT64_C(0xf0f0000034170000)   /* DEPBAR.LE SB5, 0x1 */
#define W_BRA_P0_SKIP1 UINT64_C(0xe24000000100000f)   /* @P0 BRA at 0x10 to 0x28 (over 0x18) */
#define W_STG_R2_R1    UINT64_C(0xeedc200000070201)   /* STG.E [R2], R1 */
#define W_I2F_R0       UINT64_C(0x5cb8000000472a00)   /* I2F.F32.S32 R0, R4 */
#define W_F2I_R0       UINT64_C(0x5cb0018000471a00)   /* F2I.S32.F32.TRUNC R0, R4 */
#define W_F2I_R1       UINT64_C(0x5cb0000000470a01)   /* F2I.U32.F32 R1, R4 */
#define W_I2I_R1       UINT64_C(0x5ce2000000473a01)   /* I2I.S32.S32 R1, |R4| */
#define W_F2I_R0_64    UINT64_C(0x5cb0008000471b00)   /* F2I.S64.F32.FLOOR R0, R4: writes R0, R1 */
#define W_FADD_R0      UINT64_C(0x5c58000000570400)   /* FADD R0, R4, R5 */
#define W_NOP          UINT64_C(0x50b0000000070f00)
#define W_EXIT         UINT64_C(0xe30000000007000f)
#define W_BRA_SELF     UINT64_C(0xe2400fffff87000f)
#define W_FADD_R8_R0   UINT64_C(0x5c58000000570008)   /* FADD R8, R0, R5: reads when it issues */
#define W_CAL_TO_5     UINT64_C(0xe260000002000040)   /* CAL at 0x10 to 0x38 (op 5) */
#define W_RET          UINT64_C(0xe32000000007000f)

typedef struct Op {
	uint64_t word;
	unsigned stall, wbar, rbar, wait;     /* barriers 7 = none */
} Op;

/* Lays ops out as .text (control word + 3 instructions), padded with NOPs,
 * runs the verifier and returns the number of hazards it reports. */
static unsigned verify_ops(const Op *ops, size_t n)
{
	size_t groups = (n + 2) / 3;
	uint8_t *code = calloc(groups, 32);
	for (size_t g = 0; g < groups; g++) {
		uint32_t slots[3];
		uint64_t words[4];
		for (size_t j = 0; j < 3; j++) {
			size_t i = 3 * g + j;
			Op op = i < n ? ops[i] : (Op){ W_NOP, 1, 7, 7, 0 };
			SassCtrl c = sass_ctrl_default(op.stall);
			c.wbar = op.wbar;
			c.rbar = op.rbar;
			c.wait = op.wait;
			ck_assert_int_eq(sass_ctrl_pack_slot(&c, &slots[j]), 0);
			words[j + 1] = op.word;
		}
		words[0] = sass_ctrl_pack_word(slots);
		for (size_t w = 0; w < 4; w++)
			for (size_t b = 0; b < 8; b++)
				code[32 * g + 8 * w + b] = (uint8_t)(words[w] >> (8 * b));
	}
	DiagSink d;
	diag_init(&d, "test", "", 0);
	SchedVerifyKernel k = { .name = "k", .code = code, .size = groups * 32 };
	unsigned found = sched_verify_code(&k, &d);
	ck_assert_uint_eq(found, diag_errors(&d));
	diag_fini(&d);
	free(code);
	return found;
}

#define TAIL { W_EXIT, 15, 7, 7, 0 }, { W_BRA_SELF, 15, 7, 7, 0 }

/* Hand-made streams: each must pass, or must show at least one hazard. */
#define OPS(...) { __VA_ARGS__, TAIL }
static const Op waited[] = OPS({ W_S2R_R0, 1, 0, 7, 0 }, { W_STG_R2_R0, 1, 7, 7, 0x01 });
static const Op unwaited[] = OPS({ W_S2R_R0, 1, 0, 7, 0 }, { W_STG_R2_R0, 1, 7, 7, 0 });
static const Op wrong_barrier[] = OPS({ W_S2R_R0, 1, 0, 7, 0 }, { W_STG_R2_R0, 1, 7, 7, 0x02 });
static const Op no_write_barrier[] = OPS({ W_S2R_R0, 1, 7, 7, 0 }, { W_STG_R2_R0, 1, 7, 7, 0x3f });
static const Op stall_enough[] = OPS({ W_MOV32I_R0, 6, 7, 7, 0 }, { W_STG_R2_R0, 1, 7, 7, 0 });
static const Op stall_short[] = OPS({ W_MOV32I_R0, 1, 7, 7, 0 }, { W_STG_R2_R0, 1, 7, 7, 0 });
/* the STG reads R0 late: its writer waits on the store's read barrier */
static const Op store_read_waited[] = OPS({ W_STG_R2_R0, 1, 7, 0, 0 }, { W_MOV32I_R0, 6, 7, 7, 0x01 });
static const Op store_read_unwaited[] = OPS({ W_STG_R2_R0, 1, 7, 0, 0 }, { W_MOV32I_R0, 6, 7, 7, 0 });
static const Op store_no_read_barrier[] = OPS({ W_STG_R2_R0, 1, 7, 7, 0 }, { W_MOV32I_R0, 6, 7, 7, 0x3f });
/* two loads on SB5; DEPBAR.LE SB5, 1 retires the older one only */
static const Op depbar_older[] = OPS({ W_LDG_R4, 1, 5, 7, 0 }, { W_LDG_R6, 1, 5, 7, 0 },
                                     { W_DEPBAR_LE5_1, 1, 7, 7, 0 }, { W_STG_R2_R4, 1, 7, 7, 0 });
static const Op depbar_younger[] = OPS({ W_LDG_R4, 1, 5, 7, 0 }, { W_LDG_R6, 1, 5, 7, 0 },
                                       { W_DEPBAR_LE5_1, 1, 7, 7, 0 }, { W_STG_R2_R6, 1, 7, 7, 0 });
/* the NOP waits, but the branch around it reaches the STG unwaited */
static const Op path_unwaited[] = OPS({ W_S2R_R0, 1, 0, 7, 0 }, { W_BRA_P0_SKIP1, 15, 7, 7, 0 },
                                      { W_NOP, 1, 7, 7, 0x01 }, { W_STG_R2_R0, 1, 7, 7, 0 });
static const Op paths_waited[] = OPS({ W_S2R_R0, 1, 0, 7, 0 }, { W_BRA_P0_SKIP1, 15, 7, 7, 0x01 },
                                     { W_NOP, 1, 7, 7, 0 }, { W_STG_R2_R0, 1, 7, 7, 0 });
static const Op barrier_on_alu[] = OPS({ W_MOV32I_R0, 6, 2, 7, 0 }, { W_STG_R2_R0, 1, 7, 7, 0 });
static const Op unknown_word[] = OPS({ UINT64_C(0xffffffffffffffff), 1, 7, 7, 0 });
/* conversions are variable-latency; like loads they complete in issue order,
 * so a later conversion's barrier covers an earlier one without its own */
static const Op conv_waited[] = OPS({ W_I2F_R0, 1, 0, 7, 0 }, { W_STG_R2_R0, 1, 7, 7, 0x01 });
static const Op conv_unwaited[] = OPS({ W_I2F_R0, 1, 0, 7, 0 }, { W_STG_R2_R0, 1, 7, 7, 0 });
static const Op conv_in_order[] = OPS({ W_F2I_R0, 1, 7, 7, 0 }, { W_F2I_R1, 1, 1, 7, 0 },
                                      { W_STG_R2_R0, 1, 7, 7, 0x02 });
static const Op conv_no_barrier[] = OPS({ W_F2I_R0, 1, 7, 7, 0 }, { W_STG_R2_R0, 1, 7, 7, 0x3f });
/* I2I is of the same in-order unit: ptxas 11.8 -O3 (golden idiv, two s32
 * divisions) waits for an F2I without a barrier on a later I2I's */
static const Op conv_i2i_in_order[] = OPS({ W_F2I_R0, 1, 7, 7, 0 }, { W_I2I_R1, 1, 1, 7, 0 },
                                          { W_STG_R2_R0, 1, 7, 7, 0x02 });
static const Op conv_i2i_unwaited[] = OPS({ W_F2I_R0, 1, 7, 7, 0 }, { W_I2I_R1, 1, 1, 7, 0 },
                                          { W_STG_R2_R0, 1, 7, 7, 0 });
/* a 64-bit F2I result is a pair: its high register is pending too */
static const Op conv_pair_waited[] = OPS({ W_F2I_R0_64, 1, 0, 7, 0 }, { W_STG_R2_R1, 1, 7, 7, 0x01 });
static const Op conv_pair_unwaited[] = OPS({ W_F2I_R0_64, 1, 0, 7, 0 }, { W_STG_R2_R1, 1, 7, 7, 0 });
/* FADD is a fixed-latency ALU operation (6 cycles) */
static const Op fadd_stall_enough[] = OPS({ W_FADD_R0, 6, 7, 7, 0 }, { W_STG_R2_R0, 1, 7, 7, 0 });
static const Op fadd_stall_short[] = OPS({ W_FADD_R0, 1, 7, 7, 0 }, { W_STG_R2_R0, 1, 7, 7, 0 });
static const Op fadd_barrier[] = OPS({ W_FADD_R0, 6, 0, 7, 0 }, { W_STG_R2_R0, 1, 7, 7, 0x01 });

/* Calls: a function at op 5 (after the kernel's EXIT), called at op 1;
 * the caller's FADD at op 2 runs after the callee's RET, not after the CAL */
#define CALL_THEN_ADD { W_CAL_TO_5, 1, 7, 7, 0 }, { W_FADD_R8_R0, 1, 7, 7, 0 }, TAIL
#define RETURN { W_RET, 1, 7, 7, 0 }
/* the caller's MOV32I ages by the callee's cycles (a CAL stall of 1 is enough) */
static const Op call_long_callee[] = { { W_MOV32I_R0, 1, 7, 7, 0 }, CALL_THEN_ADD, { W_NOP, 6, 7, 7, 0 }, RETURN };
static const Op call_short_callee[] = { { W_MOV32I_R0, 1, 7, 7, 0 }, CALL_THEN_ADD, { W_NOP, 1, 7, 7, 0 }, RETURN };
/* what the callee writes just before its RET reaches the caller's next op */
static const Op callee_result_stalled[] = { { W_NOP, 1, 7, 7, 0 }, CALL_THEN_ADD, { W_MOV32I_R0, 6, 7, 7, 0 }, RETURN };
static const Op callee_result_short[] = { { W_NOP, 1, 7, 7, 0 }, CALL_THEN_ADD, { W_MOV32I_R0, 1, 7, 7, 0 }, RETURN };
static const Op callee_load_unwaited[] = { { W_NOP, 1, 7, 7, 0 }, CALL_THEN_ADD, { W_S2R_R0, 1, 0, 7, 0 }, RETURN };
#define CASE(ops, hazard) { #ops, ops, sizeof ops / sizeof *ops, hazard }
static const struct { const char *name; const Op *ops; size_t n; bool hazard; } cases[] = {
	CASE(waited, false), CASE(unwaited, true), CASE(wrong_barrier, true),
	CASE(no_write_barrier, true), CASE(stall_enough, false), CASE(stall_short, true),
	CASE(store_read_waited, false), CASE(store_read_unwaited, true), CASE(store_no_read_barrier, true),
	CASE(depbar_older, false), CASE(depbar_younger, true), CASE(path_unwaited, true),
	CASE(paths_waited, false), CASE(barrier_on_alu, true), CASE(unknown_word, true),
	CASE(conv_waited, false), CASE(conv_unwaited, true), CASE(conv_in_order, false),
	CASE(conv_no_barrier, true), CASE(conv_pair_waited, false), CASE(conv_pair_unwaited, true),
	CASE(conv_i2i_in_order, false), CASE(conv_i2i_unwaited, true),
	CASE(fadd_stall_enough, false), CASE(fadd_stall_short, true), CASE(fadd_barrier, true),
	CASE(call_long_callee, false), CASE(call_short_callee, true), CASE(callee_result_stalled, false),
	CASE(callee_result_short, true), CASE(callee_load_unwaited, true),
};

START_TEST(test_hand_made_streams)
{
	unsigned found = verify_ops(cases[_i].ops, cases[_i].n);
	ck_assert_msg(cases[_i].hazard ? found >= 1 : found == 0, "%s: %u hazard(s)", cases[_i].name, found);
}
END_TEST

/* ptxas 11.8 -O3, sm_50: six suq descriptor lookups (LDG.E.CI on SB5,
 * dual-issued pairs) drained with DEPBAR.LE SB5, 0x4 and 0x2. */
static const uint64_t ptxas_six_lookups[] = {
	0x001fc400fe2007f6, 0x4c98078000870001, 0x4c98078005470000,
	0x010000000007f009, 0x001fd000fe4007f4, 0x4c9807800557000a,
	0x040000fffff70000, 0x040000fffff70a0a, 0x181fc4c0fe2007e1,
	0x5100048800070002, 0x5b007fa800970003, 0x5100048800170006,
	0x181fc4c0fe2407f1, 0x5100048800370005, 0x5100048800270a08,
	0x5b007fa800970a0b, 0x181fc4c0fe2007e1, 0x5100048800470a0c,
	0x5b30011800370002, 0x5b30031800370006, 0x001fc4c0fe2007f2,
	0x5b30029800370000, 0x5b30041800b70a08, 0x5b30061800b70a0c,
	0x001fc000fe4007e6, 0x4c10800003070202, 0x4c1008000317ff03,
	0x4c10800003070606, 0x001fc000fe4007b6, 0xeed4a00000070203,
	0x4c1008000317ff07, 0x4c10800003070004, 0x001f8800fea007b1,
	0xeed4a00000070607, 0x5100048800070a00, 0x4c1008000317ff05,
	0x001fd400f62007f0, 0x4c10800003070808, 0xeed4a00000070404,
	0x5b30001800b70a0a, 0x001ed800fe0007f2, 0x4c1008000317ff09,
	0x4c10800003070c0c, 0xeed4a00000070808, 0x001ed800fe0007f2,
	0x4c1008000317ff0d, 0x4c10800003070a0e, 0xeed4a00000070c0c,
	0x001fc400f62007e2, 0x4c1008000317ff0f, 0xeed4a00000070e0f,
	0x4c9807800507000a, 0x001fc400fe6007f3, 0x4c9807800517000b,
	0xf0f0000034470000, 0xeedc200000070a03, 0x001fc400fe6007f1,
	0xeedc200000470a07, 0xf0f0000034270000, 0xeedc200000c70a04,
	0x001fc420fe2007f1, 0xeedc200000870a08, 0xeedc200001070a0c,
	0xeedc200001470a0f, 0x001f8000ffe007ff, 0xe30000000007000f,
	0xe2400fffff87000f, 0x50b0000000070f00, 0x001f8000fc0007e0,
	0x50b0000000070f00, 0x50b0000000070f00, 0x50b0000000070f00,
};

static unsigned verify_words(const uint64_t *w, size_t n, unsigned patch_index, uint64_t patch)
{
	uint8_t *code = calloc(n, 8);
	for (size_t i = 0; i < n; i++)
		for (size_t b = 0; b < 8; b++)
			code[8 * i + b] = (uint8_t)((i == patch_index ? patch : w[i]) >> (8 * b));
	DiagSink d;
	diag_init(&d, "test", "", 0);
	SchedVerifyKernel k = { .name = "k", .code = code, .size = n * 8 };
	unsigned found = sched_verify_code(&k, &d);
	diag_fini(&d);
	free(code);
	return found;
}

START_TEST(test_ptxas_code_passes)
{
	size_t n = sizeof ptxas_six_lookups / sizeof *ptxas_six_lookups;
	ck_assert_uint_eq(verify_words(ptxas_six_lookups, n, UINT32_MAX, 0), 0);
	/* the first DEPBAR.LE SB5, 0x4 weakened to 0x5: the first STG's R3 is not ready */
	ck_assert_uint_ge(verify_words(ptxas_six_lookups, n, 54, UINT64_C(0xf0f0000034570000)), 1);
}
END_TEST

static Suite *sched_verify_suite(void)
{
	Suite *s = suite_create("sched_verify");
	TCase *tc = tcase_create("core");
	tcase_add_loop_test(tc, test_hand_made_streams, 0, sizeof cases / sizeof *cases);
	tcase_add_test(tc, test_ptxas_code_passes);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(sched_verify_suite)
