/* Shared by the SASS text assembler's files: the result of matching one
 * instruction's text to a form of the sm_50 table, and the matching
 * context.
 *
 * Reading order: sass_asm.c (entry: parse, select, schedule, encode, cubin)
 * -> sass_asm_parse.c with lexer/sass.l and grammar/sass.y (the statement
 * list of sass_asm_ast.h) -> sass_asm_insn.c (one statement to one form)
 * -> sass_asm_mods.c, sass_asm_operands.c, sass_asm_float.c (modifiers and
 * operands by role) -> sass_asm_check.c (alignment, ranges) ->
 * sass_asm_sched.c and sass_asm_regs.c (control words, register count).
 * Everything here is named sasm_/Sasm: the sass_/Sass names belong to the
 * sm_50 core below (src/sm50), which this folder only uses. */
#ifndef PTXSURF_SASS_ASM_INTERNAL_H
#define PTXSURF_SASS_ASM_INTERNAL_H

#include "sm50/sass_regs.h"
#include "emit/cubin.h"
#include "sasm/sass_asm_ast.h"
#include "sm50/sass_encode.h"

#include <stdbool.h>
#include <stdint.h>

/* One instruction after matching: form, field values (branch offset still
 * to be filled in from the target), the reuse flags the text wrote. */
typedef struct SasmInsn {
	const SasmStmt *stmt;
	const SassForm *form;
	SassValues vals;
	unsigned reuse;
	bool has_target;        /* BRA: target_label or target_addr */
	const char *target_label;
	int64_t target_addr;
	SrcLoc target_loc;
	uint64_t addr;          /* byte address in the kernel's code */
	bool has_word;          /* the text gives the instruction word in hex */
	uint64_t word;
} SasmInsn;

/* Matches statement s to a form; on failure reports the closest form's
 * complaint into d and returns false. */
bool sasm_select(const SasmStmt *s, SasmInsn *out, DiagSink *d);

/* ---- the matching context (sass_asm_insn.c, sass_asm_mods.c) ---- */

typedef struct SasmMatch {
	const SasmStmt *s;
	const SassForm *f;
	SassValues v;
	unsigned reuse;
	unsigned next;          /* next operand */
	const char *mods;       /* the mnemonic's modifiers, from the first '.' */
	SasmInsn *out;
	/* the complaint of a failed attempt */
	char err[256];
	SrcLoc err_loc;
	RuleId err_rule;
} SasmMatch;


/* Matches m->mods against the modifiers of m->f's family; false with a
 * complaint in m when one is unknown or a required one is missing. */
bool sasm_match_modifiers(SasmMatch *m);

/* The value of enum field fld spelled `text` (nvdisasm's spelling or an
 * accepted alias), or -1. */
int64_t sasm_enum_value(const SassForm *f, const SassField *fld, const char *text, size_t len);

/* Records a complaint; always returns false. */
bool sasm_match_fail(SasmMatch *m, SrcLoc loc, RuleId rule, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

enum {
	SUF_REUSE = 1 << 0, SUF_CC = 1 << 1, SUF_H1 = 1 << 2,
	SUF_BYTE = 1 << 4, SUF_NEG = 1 << 5, SUF_INV = 1 << 6, SUF_ABS = 1 << 7,
	SUF_OTHER = 1 << 8,   /* one more suffix, left to the caller */
};

/* What the suffixes of one operand said. */
typedef struct Suffixes {
	bool reuse, cc, h1, neg, inv, abs;
	int bytesel;    /* .B1-.B3 / .H1 (I2I), 0 none */
	const char *other;  /* SUF_OTHER: the suffix nothing else took, with its '.' */
} Suffixes;

const SasmOperand *sasm_take_next(SasmMatch *m, const char *what);
bool sasm_read_suffixes(SasmMatch *m, const SasmOperand *op, unsigned allow, Suffixes *out);
bool sasm_no_prefix(SasmMatch *m, const SasmOperand *op, bool neg_ok, bool inv_ok, bool not_ok, bool abs_ok);
bool sasm_set_value(SasmMatch *m, SassRole r, int64_t value, SrcLoc loc, const char *what);
bool sasm_take_reg(SasmMatch *m, SassRole r, int reuse_bit, unsigned allow, Suffixes *sfx, const char *what);
bool sasm_take_pred(SasmMatch *m, SassRole r, SassRole not_role, const char *what);
bool sasm_take_imm(SasmMatch *m, SassRole r, const char *what);
bool sasm_take_imm32(SasmMatch *m, SassRole r, const char *what);
bool sasm_take_imm32_inv(SasmMatch *m, SassRole r, SassRole inv_role, const char *what);
bool sasm_set_const(SasmMatch *m, const SasmOperand *op);
bool sasm_take_b(SasmMatch *m, bool prefix_neg, bool prefix_inv, unsigned suffix_flag,
                 unsigned reg_allow, bool *modified, Suffixes *sfx_out);
bool sasm_take_c(SasmMatch *m);
bool sasm_take_rd_cc(SasmMatch *m);
bool sasm_take_name(SasmMatch *m, SassRole r, const char *what);
/* [Ra + off] with a signed `bits`-bit offset (or an absolute address) into
 * SR_RA and SR_IMM. */
bool sasm_address(SasmMatch *m, unsigned bits);
/* BRA-like operands (sass_asm_insn.c): an optional CC.cond followed by
 * `after` more operands, a branch target. */
bool sasm_take_cond(SasmMatch *m, size_t after);
bool sasm_take_target(SasmMatch *m);
/* Operands of the float families (sass_asm_float.c). */
bool sasm_match_float(SasmMatch *m);
bool sasm_take_float_src(SasmMatch *m, bool is_a, SassRole neg, SassRole abs);
/* Operands of the instruction families beyond the surface slice (sass_asm_fam.c). */
bool sasm_match_fam(SasmMatch *m);
/* Operands of the atomics and warp operations (sass_asm_warp.c). */
bool sasm_match_warp(SasmMatch *m);
/* Operands of the decoder-only forms ptxas emits (sass_asm_ptxas.c). */
bool sasm_match_ptxas(SasmMatch *m);
/* Operands of the scalar video forms (sass_asm_video.c): false when m->f
 * is not one. */
bool sasm_match_video(SasmMatch *m);
/* A video operand "Rn{.B1-.B3|.H1}[.reuse]": the format modifier gave the
 * size (U8 byte 0, U16 half 0); the suffix picks another part of it. */
bool sasm_video_source(SasmMatch *m, SassRole r, SassRole fmt_role, int reuse_bit, const char *what);
/* Whether a modifier string (".U32.S8.SAT") names a video operand format. */
bool sasm_has_video_format(const char *mods);
/* The modifiers of a scalar video form as its fields spell them: nvdisasm
 * leaves out the default formats (A S32, B S32/S16, a shift's B U32) and
 * writes a shift's immediate as U16, which has no field; mods itself for
 * the other forms. */
const char *sasm_video_mods(const SassForm *f, const char *mods, char *buf, size_t n);
/* The predicate destination of a result test (LOP/LOP3 .Z/.NZ): a written
 * Pd, or PT, which nvdisasm leaves out (sass_asm_ptxas.c). */
bool sasm_take_result_test_pd(SasmMatch *m);

/* ---- kernels (sass_asm.c) ---- */

typedef struct SasmKernelText {
	const char *name;       /* NULL: the implicit kernel of a raw stream */
	SrcLoc loc;
	SasmInsn *insns;
	size_t ninsns, cap;
	uint64_t *group_ctrl;   /* control word the text gives for group g ... */
	bool *group_has_ctrl;   /* ... when this is set */
	size_t ngroups;
	bool *block_start;      /* per instruction: a label points at it */
	SassParam *params;
	size_t nparams;
	const char **surfaces;  /* bound slots in order */
	size_t nsurfaces;
	uint32_t regcount;
	bool has_regcount;
	uint32_t *slots;        /* the final control slots */
	uint8_t *code;
	size_t code_size;
} SasmKernelText;

/* ---- register footprint (sass_asm_regs.c) ---- */

void sasm_insn_regs(const SasmInsn *in, SassRegUse *u);
/* Registers per thread the kernel needs: highest GPR used + 1. */
uint32_t sasm_kernel_regcount(const SasmKernelText *k);

/* ---- checks (sass_asm_check.c) ---- */

/* Alignment of offsets and register pairs/quads; diagnostics into d. */
void sasm_check_insn(const SasmInsn *in, DiagSink *d);

/* ---- scheduling (sass_asm_sched.c) ---- */

/* Control slots (no reuse bits) for every instruction of k. */
void sasm_sched_auto(const SasmKernelText *k, uint32_t *slots);

#endif
