/* What the random-kernel generator's files share (gen_kernels.c: the
 * generator, its value pools and statements; gen_loops.c: counted loops,
 * and the divergent ones of --diverge; gen_families.c: issue 17's
 * instruction families). */
#ifndef PTXSURF_GEN_KERNELS_H
#define PTXSURF_GEN_KERNELS_H

#include <stdbool.h>
#include <stdint.h>

uint32_t rnd(uint32_t n);
bool chance(uint32_t percent);
void out(const char *fmt, ...);
#define PICK(a) ((a)[rnd(sizeof(a) / sizeof((a)[0]))])

/* The register classes: a stack of defined register numbers each. */
enum { C_R, C_RD, C_RS, C_P, C_PTR, C_SURF, NCLASS };
#define MAXV 512
extern int pool[NCLASS][MAXV], depth[NCLASS];
extern int next_r, next_rd, next_rs, next_p, next_label;
int fresh(int cls);
extern const char *const class_prefix[NCLASS];
/* ensure: gives cls a defined register when it has none; src: a source
 * operand of class cls, a defined register or (when imm_ok) a constant. */
void ensure(int cls);
void src(char *buf, size_t n, int cls, bool imm_ok);
extern int next_f, next_fd;     /* %f and %fd registers used so far */

extern int kernel_no, idx_reg;  /* the kernel's number; the thread's linear index (a %r) */
extern bool has_sync_forms;     /* .version 6.0 or later: shfl.sync, vote.sync */
extern bool diverge_mode;       /* --diverge */
extern bool defined_mode;       /* --defined */
int gen_address(int size);
void stmt_list(int n, int nest);
void gen_loop(int nest);
void gen_fam(int nest);
void gen_ints(void);

#endif
