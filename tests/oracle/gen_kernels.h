/* What the random-kernel generator's files share (gen_kernels.c: the
 * generator, its value pools and statements; gen_loops.c: counted loops,
 * and the divergent ones of --diverge; gen_families.c: issue 17's
 * instruction families; gen_calls.c, gen_data.c, gen_tex.c: device
 * functions and calls, module data and state spaces, textures; gen_video.c:
 * video instructions and fns). */
#ifndef PTXSURF_GEN_KERNELS_H
#define PTXSURF_GEN_KERNELS_H

#include <stdbool.h>
#include <stdint.h>

uint32_t rnd(uint32_t n);
bool chance(uint32_t percent);
uint32_t rnd_side(uint32_t n);   /* the second stream (gen_kernels.c) */
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
extern int loop_depth;           /* counted loops around the statement */
void gen_fam(int nest);
void gen_ints(void);

/* --calls, --data, --tex (--whole: all three), each off by default so
 * that the modules of the other options stay as they were */
extern bool calls_enabled, data_enabled, tex_enabled;
void gen_functions(void);           /* module: the .func definitions */
void gen_call(void);                /* statement: a direct or indirect call */
void gen_module_data(void);         /* module: .const, .global, .shared data */
void gen_kernel_data_decl(void);    /* kernel: its .local array */
void gen_kernel_data(void);         /* kernel: slot addresses, the array written */
void gen_data_stmt(void);           /* statement: an access to the data */
void data_read_in_function(int r);  /* a function's read of module data */
void gen_module_tex(void);          /* module: the .texrefs */
void gen_kernel_tex_param(int k);   /* kernel: its bindless handle parameter */
void gen_kernel_tex(int k);         /* kernel: the handle loaded */
void gen_tex_stmt(void);            /* statement: tex, tld4, txq */
/* --video (not part of --whole: its modules stay as they were) */
extern bool video_enabled;
void gen_video_stmt(void);          /* statement: a video instruction or fns */

#endif
