/* Unit tests of lower/liveness.c: the range sets (membership, union of a
 * short set into a long one, copy-out of pooled sets) and liveness of a
 * kernel with a loop, checked against the dataflow equations computed the
 * slow way, an instruction at a time, and the scoped liveness of calls. */
#include <check.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lower/liveness.h"
#include "check_main.h"

/* ---- range sets ------------------------------------------------------------- */

static LiveSet set_of(const LiveRange *r, size_t n)
{
	LiveSet s = { NULL, 0, 0 };
	for (size_t i = 0; i < n; i++)
		live_set_append(&s, r[i].lo, r[i].hi);
	return s;
}

static void assert_ranges(const LiveSet *s, const LiveRange *want, size_t n)
{
	ck_assert_uint_eq(s->n, n);
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_eq(s->r[i].lo, want[i].lo);
		ck_assert_uint_eq(s->r[i].hi, want[i].hi);
	}
}

START_TEST(test_set_membership)
{
	LiveSet s = set_of((LiveRange[]){ { 2, 4 }, { 7, 8 } }, 2);
	bool want[10] = { [2] = true, [3] = true, [7] = true };
	for (size_t i = 0; i < 10; i++)
		ck_assert_int_eq(live_set_has(&s, i), want[i]);
	LiveSet empty = { NULL, 0, 0 };
	ck_assert(!live_set_has(&empty, 0));
	live_set_free(&s);
}
END_TEST

START_TEST(test_set_append_joins)
{
	/* touching and overlapping ranges become one */
	LiveSet s = set_of((LiveRange[]){ { 1, 3 }, { 3, 5 }, { 4, 6 }, { 8, 9 } }, 4);
	assert_ranges(&s, (LiveRange[]){ { 1, 6 }, { 8, 9 } }, 2);
	live_set_free(&s);
}
END_TEST

START_TEST(test_set_union_window)
{
	LiveSet scratch = { NULL, 0, 0 };
	/* a long set; the short one overlaps [20, 30) and touches [40, 50) */
	LiveSet d = set_of((LiveRange[]){ { 0, 10 }, { 20, 30 }, { 40, 50 }, { 60, 70 }, { 80, 90 } }, 5);
	LiveSet s = set_of((LiveRange[]){ { 25, 35 }, { 38, 40 } }, 2);
	live_set_union(&d, &s, &scratch);
	assert_ranges(&d, (LiveRange[]){ { 0, 10 }, { 20, 35 }, { 38, 50 }, { 60, 70 }, { 80, 90 } }, 5);
	/* after everything, and into a gap */
	LiveSet tail = set_of((LiveRange[]){ { 95, 99 } }, 1);
	live_set_union(&d, &tail, &scratch);
	LiveSet gap = set_of((LiveRange[]){ { 72, 75 } }, 1);
	live_set_union(&d, &gap, &scratch);
	assert_ranges(&d, (LiveRange[]){ { 0, 10 }, { 20, 35 }, { 38, 50 }, { 60, 70 }, { 72, 75 }, { 80, 90 },
	                                 { 95, 99 } }, 7);
	/* one range swallowing several */
	LiveSet wide = set_of((LiveRange[]){ { 15, 85 } }, 1);
	live_set_union(&d, &wide, &scratch);
	assert_ranges(&d, (LiveRange[]){ { 0, 10 }, { 15, 90 }, { 95, 99 } }, 3);
	/* before everything */
	LiveSet late = set_of((LiveRange[]){ { 50, 60 } }, 1), early = set_of((LiveRange[]){ { 1, 2 } }, 1);
	live_set_union(&late, &early, &scratch);
	assert_ranges(&late, (LiveRange[]){ { 1, 2 }, { 50, 60 } }, 2);
	live_set_free(&late);
	live_set_free(&early);
	/* into an empty set */
	LiveSet e = { NULL, 0, 0 };
	live_set_union(&e, &s, &scratch);
	assert_ranges(&e, (LiveRange[]){ { 25, 35 }, { 38, 40 } }, 2);
	live_set_free(&e);
	live_set_free(&wide);
	live_set_free(&gap);
	live_set_free(&tail);
	live_set_free(&s);
	live_set_free(&d);
	live_set_free(&scratch);
}
END_TEST

START_TEST(test_set_union_copies_pooled)
{
	/* a set that does not own its ranges is copied out, the pool stays */
	LiveRange pool[2] = { { 0, 2 }, { 5, 6 } };
	LiveSet d = { pool, 2, 0 };
	LiveSet s = set_of((LiveRange[]){ { 2, 3 } }, 1), scratch = { NULL, 0, 0 };
	live_set_union(&d, &s, &scratch);
	assert_ranges(&d, (LiveRange[]){ { 0, 3 }, { 5, 6 } }, 2);
	ck_assert_uint_eq(pool[0].hi, 2);
	ck_assert(d.r != pool);
	live_set_free(&d);
	live_set_free(&s);
	live_set_free(&scratch);
}
END_TEST

START_TEST(test_set_union_shrinks_pooled)
{
	/* a union that merges a pooled set's ranges into fewer: the copy out
	 * of the pool holds all of them before they move down (a call-heavy
	 * function's coalescing hit this, a heap overflow) */
	LiveRange pool[6] = { { 0, 1 }, { 2, 3 }, { 4, 5 }, { 6, 7 }, { 8, 9 }, { 20, 21 } };
	LiveSet d = { pool, 6, 0 };
	LiveSet s = set_of((LiveRange[]){ { 0, 10 } }, 1), scratch = { NULL, 0, 0 };
	live_set_union(&d, &s, &scratch);
	assert_ranges(&d, (LiveRange[]){ { 0, 10 }, { 20, 21 } }, 2);
	ck_assert(d.r != pool);
	live_set_free(&d);
	live_set_free(&s);
	live_set_free(&scratch);
}
END_TEST

/* ---- liveness of a kernel ---------------------------------------------------- */

static LKernel K;

static void kernel_reset(void)
{
	free(K.insns);
	free(K.vregs);
	free(K.label_pos);
	memset(&K, 0, sizeof K);
	K.name = "k";
}

static LInsn *add(SassFormId form)
{
	return lkernel_append(&K, form, (SrcLoc){ 1, 1, 1, 1 });
}

/* The equations solved by iterating over instructions until nothing
 * changes: in[i] = use[i] | (out[i] & ~kill[i]), out[i] = union of in[succ]. */
static void slow_liveness(size_t part_of_vreg_first[], size_t nparts, bool *in, bool *out)
{
	size_t n = K.ninsns;
	memset(in, 0, nparts * n);
	memset(out, 0, nparts * n);
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t i = n; i-- > 0;) {
			size_t succ[LK_MAX_SUCC];
			unsigned ns = lkernel_successors(&K, i, succ);
			const LInsn *li = &K.insns[i];
			for (size_t b = 0; b < nparts; b++) {
				bool o = false, use = false, kill = false;
				for (unsigned s = 0; s < ns; s++)
					o |= in[b * n + succ[s]];
				for (unsigned r = 0; r < li->nrefs; r++) {
					const LRegRef *ref = &li->refs[r];
					size_t first = part_of_vreg_first[ref->vreg] + ref->sub;
					if (b < first || b >= first + ref->count)
						continue;
					if (!ref->def)
						use = true;
					else if (!linsn_is_guarded(li) || K.vregs[ref->vreg].temp)
						kill = true;
				}
				bool x = use || (o && !kill);
				if (o != out[b * n + i] || x != in[b * n + i]) {
					out[b * n + i] = o;
					in[b * n + i] = x;
					changed = true;
				}
			}
		}
	}
}

START_TEST(test_liveness_loop_and_guard)
{
	kernel_reset();
	/* x (2 parts) lives around a loop; t is redefined in it under a guard
	 * (the old value survives a guarded def); q is a temp whose guarded def
	 * kills it; p steers the loop. */
	uint32_t x = lkernel_new_vreg(&K, LRC_GPR, 2, false);
	uint32_t t = lkernel_new_vreg(&K, LRC_GPR, 1, false);
	uint32_t q = lkernel_new_vreg(&K, LRC_GPR, 1, true);
	uint32_t p = lkernel_new_vreg(&K, LRC_PRED, 1, false);
	K.nlabels = 2;
	K.label_pos = calloc(2, sizeof *K.label_pos);
	LInsn *in = add(SF_S2R);
	linsn_ref(in, SR_RD, x, 0, 1, true);
	in = add(SF_S2R);
	linsn_ref(in, SR_RD, x, 1, 1, true);
	in = add(SF_S2R);
	linsn_ref(in, SR_RD, t, 0, 1, true);
	K.label_pos[0] = K.ninsns;      /* loop head */
	in = add(SF_ISETP_R);
	linsn_ref(in, SR_PD, p, 0, 1, true);
	linsn_ref(in, SR_RA, t, 0, 1, false);
	linsn_ref(in, SR_RB, x, 1, 1, false);
	in = add(SF_IADD_R);
	linsn_ref(in, SR_PG, p, 0, 1, false);
	linsn_ref(in, SR_RD, t, 0, 1, true);
	linsn_ref(in, SR_RA, x, 0, 1, false);
	linsn_ref(in, SR_RB, t, 0, 1, false);
	in = add(SF_MOV_R);
	linsn_ref(in, SR_PG, p, 0, 1, false);
	linsn_ref(in, SR_RD, q, 0, 1, true);
	linsn_ref(in, SR_RB, t, 0, 1, false);
	in = add(SF_STG);
	linsn_ref(in, SR_PG, p, 0, 1, false);
	linsn_ref(in, SR_RA, x, 0, 2, false);
	linsn_ref(in, SR_RB, q, 0, 1, false);
	in = add(SF_BRA);
	linsn_ref(in, SR_PG, p, 0, 1, false);
	in->target = 0;
	K.label_pos[1] = K.ninsns;
	add(SF_EXIT);

	Liveness lv;
	liveness_compute(&K, &lv);
	ck_assert_uint_eq(lv.nparts, 5);
	size_t n = K.ninsns;
	bool *in_slow = malloc(lv.nparts * n), *out_slow = malloc(lv.nparts * n);
	slow_liveness(lv.first_part, lv.nparts, in_slow, out_slow);
	for (size_t b = 0; b < lv.nparts; b++)
		for (size_t i = 0; i < n; i++) {
			ck_assert_msg(live_set_has(&lv.in[b], i) == in_slow[b * n + i], "in: part %zu, insn %zu", b, i);
			ck_assert_msg(live_out(&lv, b, i) == out_slow[b * n + i], "out: part %zu, insn %zu", b, i);
		}
	/* spot checks of what the equations say: x.lo is live across the back
	 * edge, t survives its guarded def, q dies at its guarded def */
	ck_assert(live_out(&lv, lv.first_part[x], 7));
	ck_assert(live_set_has(&lv.in[lv.first_part[t]], 4));
	ck_assert(!live_set_has(&lv.in[lv.first_part[q]], 5));
	free(in_slow);
	free(out_slow);
	liveness_free(&lv);
	kernel_reset();
}
END_TEST

START_TEST(test_liveness_scoped_calls)
{
	kernel_reset();
	/* a lives across the first call of f, b across the second; f reads
	 * only its own t. The plain solution lets a live back from the second
	 * call and through f's body; the scoped one keeps it to its own call. */
	uint32_t a = lkernel_new_vreg(&K, LRC_GPR, 1, false);
	uint32_t b = lkernel_new_vreg(&K, LRC_GPR, 1, false);
	uint32_t t = lkernel_new_vreg(&K, LRC_GPR, 1, false);
	K.nlabels = 1;
	K.label_pos = calloc(1, sizeof *K.label_pos);
	LInsn *in = add(SF_S2R);                /* 0 */
	linsn_ref(in, SR_RD, a, 0, 1, true);
	add(SF_CAL)->target = 0;                /* 1 */
	in = add(SF_STG);                       /* 2 */
	linsn_ref(in, SR_RA, a, 0, 1, false);
	in = add(SF_S2R);                       /* 3 */
	linsn_ref(in, SR_RD, b, 0, 1, true);
	add(SF_CAL)->target = 0;                /* 4 */
	in = add(SF_STG);                       /* 5 */
	linsn_ref(in, SR_RA, b, 0, 1, false);
	add(SF_EXIT);                           /* 6 */
	K.label_pos[0] = K.ninsns;              /* f */
	in = add(SF_S2R);                       /* 7 */
	linsn_ref(in, SR_RD, t, 0, 1, true);
	in = add(SF_STG);                       /* 8 */
	linsn_ref(in, SR_RA, t, 0, 1, false);
	add(SF_RET)->target = 0;                /* 9 */

	Liveness plain;
	liveness_compute(&K, &plain);
	ck_assert(live_out(&plain, plain.first_part[a], 3));
	ck_assert(live_set_has(&plain.in[plain.first_part[a]], 8));
	liveness_free(&plain);

	CallScope cs;
	call_scope_build(&K, &cs);
	ck_assert_uint_eq(cs.nentries, 1);
	ck_assert_uint_eq(call_scope_region_at(&cs, 6), 0);
	ck_assert_uint_eq(call_scope_region_at(&cs, 7), 1);
	ck_assert(call_scope_touches(&cs, t, 1) && !call_scope_touches(&cs, a, 1));
	Liveness lv;
	liveness_compute_scoped(&K, &lv, &cs);
	size_t pa = lv.first_part[a], pb = lv.first_part[b], pt = lv.first_part[t];
	ck_assert(live_out(&lv, pa, 1) && live_set_has(&lv.in[pa], 2));
	ck_assert(!live_out(&lv, pa, 3) && !live_out(&lv, pa, 4));
	for (size_t i = 7; i < 10; i++)
		ck_assert(!live_set_has(&lv.in[pa], i) && !live_set_has(&lv.in[pb], i));
	ck_assert(live_out(&lv, pb, 4) && !live_out(&lv, pb, 1));
	ck_assert(live_out(&lv, pt, 7));
	liveness_free(&lv);
	call_scope_free(&cs);
	kernel_reset();
}
END_TEST

static Suite *liveness_suite(void)
{
	Suite *s = suite_create("liveness");
	TCase *tc = tcase_create("sets");
	tcase_add_test(tc, test_set_membership);
	tcase_add_test(tc, test_set_append_joins);
	tcase_add_test(tc, test_set_union_window);
	tcase_add_test(tc, test_set_union_copies_pooled);
	tcase_add_test(tc, test_set_union_shrinks_pooled);
	suite_add_tcase(s, tc);
	tc = tcase_create("kernel");
	tcase_add_test(tc, test_liveness_loop_and_guard);
	tcase_add_test(tc, test_liveness_scoped_calls);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(liveness_suite)
