/* Shared by the SASS assembler's files: the result of matching one
 * instruction's text to a form of the sm_50 table, and the matching
 * context. */
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
typedef struct SassAsmInsn {
	const SassStmt *stmt;
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
} SassAsmInsn;

/* Matches statement s to a form; on failure reports the closest form's
 * complaint into d and returns false. */
bool sass_asm_select(const SassStmt *s, SassAsmInsn *out, DiagSink *d);

/* ---- the matching context (sass_asm_insn.c, sass_asm_mods.c) ---- */

typedef struct SassMatch {
	const SassStmt *s;
	const SassForm *f;
	SassValues v;
	unsigned reuse;
	unsigned next;          /* next operand */
	const char *mods;       /* the mnemonic's modifiers, from the first '.' */
	SassAsmInsn *out;
	/* the complaint of a failed attempt */
	char err[256];
	SrcLoc err_loc;
	RuleId err_rule;
} SassMatch;

/* The base mnemonic of a form ("SUST.D", "IADD32I", "SHF.L"). */
const char *sass_form_stem(const SassForm *f);

/* Matches m->mods against the modifiers of m->f's family; false with a
 * complaint in m when one is unknown or a required one is missing. */
bool sass_match_modifiers(SassMatch *m);

/* The value of enum field fld spelled `text` (nvdisasm's spelling or an
 * accepted alias), or -1. */
int64_t sass_enum_value(const SassForm *f, const SassField *fld, const char *text, size_t len);

/* Records a complaint; always returns false. */
bool sass_match_fail(SassMatch *m, SrcLoc loc, RuleId rule, const char *fmt, ...)
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

const SassOperand *sass_take_next(SassMatch *m, const char *what);
bool sass_read_suffixes(SassMatch *m, const SassOperand *op, unsigned allow, Suffixes *out);
bool sass_no_prefix(SassMatch *m, const SassOperand *op, bool neg_ok, bool inv_ok, bool not_ok, bool abs_ok);
bool sass_set_value(SassMatch *m, SassRole r, int64_t value, SrcLoc loc, const char *what);
bool sass_take_reg(SassMatch *m, SassRole r, int reuse_bit, unsigned allow, Suffixes *sfx, const char *what);
bool sass_take_pred(SassMatch *m, SassRole r, SassRole not_role, const char *what);
bool sass_take_imm(SassMatch *m, SassRole r, const char *what);
bool sass_take_imm32(SassMatch *m, SassRole r, const char *what);
bool sass_set_const(SassMatch *m, const SassOperand *op);
bool sass_take_b(SassMatch *m, bool prefix_neg, bool prefix_inv, unsigned suffix_flag,
                 unsigned reg_allow, bool *modified, Suffixes *sfx_out);
bool sass_take_c(SassMatch *m);
bool sass_take_rd_cc(SassMatch *m);
bool sass_take_name(SassMatch *m, SassRole r, const char *what);
/* Operands of the float families (sass_asm_float.c). */
bool sass_match_float(SassMatch *m);

/* ---- kernels (sass_asm.c) ---- */

typedef struct SassKernelText {
	const char *name;       /* NULL: the implicit kernel of a raw stream */
	SrcLoc loc;
	SassAsmInsn *insns;
	size_t ninsns, cap;
	uint64_t *group_ctrl;   /* control word the text gives for group g ... */
	bool *group_has_ctrl;   /* ... when this is set */
	size_t ngroups;
	bool *block_start;      /* per instruction: a label points at it */
	CubinParam *params;
	size_t nparams;
	const char **surfaces;  /* bound slots in order */
	size_t nsurfaces;
	uint32_t regcount;
	bool has_regcount;
	uint32_t *slots;        /* the final control slots */
	uint8_t *code;
	size_t code_size;
} SassKernelText;

/* ---- register footprint (sass_asm_regs.c) ---- */

void sass_insn_regs(const SassAsmInsn *in, SassRegUse *u);
/* Registers per thread the kernel needs: highest GPR used + 1. */
uint32_t sass_kernel_regcount(const SassKernelText *k);

/* ---- checks (sass_asm_check.c) ---- */

/* Alignment of offsets and register pairs/quads; diagnostics into d. */
void sass_check_insn(const SassAsmInsn *in, DiagSink *d);

/* ---- scheduling (sass_asm_sched.c) ---- */

/* Control slots (no reuse bits) for every instruction of k. */
void sass_sched_auto(const SassKernelText *k, uint32_t *slots);
/* Replays slots against the hazards of k's code; each violation is a
 * "sass-hazard" warning. Returns the number found. */
unsigned sass_sched_verify(const SassKernelText *k, const uint32_t *slots, DiagSink *d);

#endif
