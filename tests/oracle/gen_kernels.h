/* What the random-kernel generator's files share (gen_kernels.c: the
 * generator, its value pools and statements; gen_loops.c: counted loops,
 * and the divergent ones of --diverge). */
#ifndef PTXSURF_GEN_KERNELS_H
#define PTXSURF_GEN_KERNELS_H

#include <stdbool.h>
#include <stdint.h>

uint32_t rnd(uint32_t n);
bool chance(uint32_t percent);
void out(const char *fmt, ...);

/* The register classes: a stack of defined register numbers each. */
enum { C_R, C_RD, C_RS, C_P, C_PTR, C_SURF, NCLASS };
#define MAXV 512
extern int pool[NCLASS][MAXV], depth[NCLASS];
extern int next_r, next_rd, next_rs, next_p, next_label;
int fresh(int cls);

extern int kernel_no, idx_reg;  /* the kernel's number; the thread's linear index (a %r) */
extern bool has_sync_forms;     /* .version 6.0 or later: shfl.sync, vote.sync */
extern bool diverge_mode;       /* --diverge */
int gen_address(int size);
void stmt_list(int n, int nest);
void gen_loop(int nest);

#endif
