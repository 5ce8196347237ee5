/* Counted loops for gen_kernels.c: i = 0; do { body; i++ } while (i < n).
 * --diverge: loops whose trip count depends on the thread (so a warp's
 * threads leave at different turns), some with a break, each followed by
 * a vote of the whole warp whose result the thread stores: wrong on the
 * hardware (and tests/sim's model of it) unless the loop reconverges. */
#include <string.h>

#include "gen_kernels.h"

int loop_depth;

/* A counted loop: i = 0; do { body; i++ } while (i < n); --diverge: n is
 * (idx & 7) + c and a break may leave when i == (idx >> 1 & 3). */
void gen_loop(int nest)
{
	int saved[NCLASS];
	int l = next_label++;
	int i = fresh(C_R);
	bool diverge = diverge_mode && chance(70);
	int n = 0, brk = -1, l_exit = -1;
	if (diverge) {
		n = fresh(C_R);
		out("\tand.b32 %%r%d, %%r%d, 7;\n\tadd.u32 %%r%d, %%r%d, %u;\n", n, idx_reg, n, n, 1 + rnd(3));
		if (chance(50)) {
			brk = fresh(C_R);
			l_exit = next_label++;
			out("\tshr.u32 %%r%d, %%r%d, 1;\n\tand.b32 %%r%d, %%r%d, 3;\n", brk, idx_reg, brk, brk);
		}
	}
	out("\tmov.u32 %%r%d, 0;\n", i);
	memcpy(saved, depth, sizeof saved);
	out("$L__k%d_%d:\n", kernel_no, l);
	loop_depth++;
	stmt_list(1 + (int)rnd(6), nest + 1);
	loop_depth--;
	memcpy(depth, saved, sizeof saved);
	int p = fresh(C_P);
	depth[C_P]--;        /* the exit test is not a value the code after reads */
	if (brk >= 0) {
		int pb = fresh(C_P);
		depth[C_P]--;
		out("\tsetp.eq.u32 %%p%d, %%r%d, %%r%d;\n\t@%%p%d bra $L__k%d_%d;\n", pb, i, brk, pb, kernel_no,
		    l_exit);
	}
	out("\tadd.s32 %%r%d, %%r%d, 1;\n", i, i);
	if (diverge)
		out("\tsetp.lt.u32 %%p%d, %%r%d, %%r%d;\n", p, i, n);
	else {
		unsigned t = 2 + rnd(30);
		/* --whole, --video: an inner loop turns at most 7 times (the
		 * same draw): up to 31 * 31 turns of a long body take ptxas
		 * -O0's code past the simulator's step limit of an edge input
		 * set (2^16 issues per block) where ours and -O3's finish
		 * (--whole seeds 120, 154; --video 31: 30 * 12 turns) */
		if ((calls_enabled || data_enabled || tex_enabled || video_enabled) && loop_depth > 0)
			t = 2 + t % 6;
		out("\tsetp.lt.u32 %%p%d, %%r%d, %u;\n", p, i, t);
	}
	out("\t@%%p%d bra $L__k%d_%d;\n", p, kernel_no, l);
	if (l_exit >= 0)
		out("$L__k%d_%d:\n", kernel_no, l_exit);
	if (diverge) {      /* the whole warp again: a ballot of a thread-dependent predicate */
		int q = fresh(C_P), b = fresh(C_R);
		depth[C_P]--;
		out("\tsetp.gt.u32 %%p%d, %%r%d, %%r%d;\n", q, i, n);
		out("\tand.b32 %%r%d, %%r%d, 1;\n\tsetp.ne.u32 %%p%d, %%r%d, 0;\n", b, idx_reg, q, b);
		out(has_sync_forms ? "\tvote.sync.ballot.b32 %%r%d, %%p%d, 0xffffffff;\n"
		                   : "\tvote.ballot.b32 %%r%d, %%p%d;\n", b, q);
		out("\tst.global.u32 [%%rd%d], %%r%d;\n", gen_address(4), b);
	}
}
