/* What the SASS parser builds: a flat list of statements (labels, kernel
 * header directives, control words, instructions) in source order. Operands
 * are kept close to their spelling; sass_asm_insn.c maps them onto a form
 * of the sm_50 table. */
#ifndef PTXSURF_SASS_ASM_AST_H
#define PTXSURF_SASS_ASM_AST_H

#include "base/arena.h"
#include "base/diag.h"
#include "base/intern.h"
#include "sm50/sass_ctrl.h"
#include "base/srcloc.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum SasmOperandKind {
	SOK_REG,        /* R0..R254, RZ (255) */
	SOK_PRED,       /* P0..P6, PT (7) */
	SOK_IMM,        /* integer */
	SOK_FLOAT,      /* float literal (1.5, 2.5e+09, +INF, -QNAN): value = its f64 bits */
	SOK_NAME,       /* any other word: SR_TID.X, CC.LT, a query, a label */
	SOK_CONST,      /* c[bank][Ra + off] */
	SOK_MEM,        /* [Ra + off], [off] */
	SOK_LIST,       /* {n, ...} */
} SasmOperandKind;

enum { SASM_MAX_SUFFIXES = 4, SASM_MAX_OPERANDS = 8, SASM_NO_REG = -1 };

typedef struct SasmOperand {
	SasmOperandKind kind;
	SrcLoc loc;
	bool neg, inv, not_, abs;       /* written prefixes: - ~ ! |x| */
	int reg;                        /* REG/PRED number; CONST/MEM base or SASM_NO_REG */
	int64_t value;                  /* IMM value, CONST/MEM offset */
	int64_t bank;                   /* CONST bank */
	bool overflow;                  /* IMM did not fit 64 bits */
	bool target_syntax;             /* NAME written as `(name) */
	uint32_t list;                  /* LIST: bit n for each element n; bit 31 for n >= 31 */
	const char *name;               /* NAME: the word */
	const char *suffix[SASM_MAX_SUFFIXES];  /* .reuse, .H1, .CC, .NEG ... in order */
	unsigned nsuffix;
} SasmOperand;

/* The scheduling the text gives for one instruction. */
typedef struct SasmSchedText {
	bool has_notation;      /* wait:rbar:wbar:Y:stall */
	SassCtrl notation;
	unsigned req_mask;      /* &req_N */
	int rd, wr;             /* &rdN / &wrN, -1 when not given */
	int stall;              /* ?WAITn, -1 when not given */
	bool yield;             /* ?YIELD */
	SrcLoc loc;             /* of the first annotation */
	bool any;
} SasmSchedText;

typedef enum SasmStmtKind {
	SST_LABEL,
	SST_CTRL_WORD,          /* a hex comment on its own line: a control word,
	                         * the word of the instruction before, or an
	                         * instruction nvdisasm shows as a word only */
	SST_INSN,
	SST_KERNEL,             /* .kernel name */
	SST_PARAM,              /* .param size[, align] */
	SST_SURFACE,            /* .surface name: binds the kernel's next slot */
	SST_SURFREF,            /* .surfref name: module-level declaration */
	SST_REGCOUNT,           /* .regcount n */
} SasmStmtKind;

typedef struct SasmStmt {
	SasmStmtKind kind;
	SrcLoc loc;
	const char *name;       /* LABEL, KERNEL, SURFACE, SURFREF */
	uint64_t word;          /* CTRL_WORD; INSN: the word of a trailing hex comment */
	bool has_word;
	int64_t num[2];         /* PARAM size, align (0 = natural); REGCOUNT */
	/* SST_INSN */
	bool has_guard, guard_not;
	const char *guard_name;
	SrcLoc guard_loc;
	const char *mnemonic;   /* with its modifiers, e.g. "STG.E.64" */
	SrcLoc mnemonic_loc;
	SasmOperand ops[SASM_MAX_OPERANDS];
	unsigned nops;
	SasmSchedText sched;
	bool closes_pair;       /* "insn }": its hex comment is on the next line */
} SasmStmt;

typedef struct SasmParseState {
	DiagSink *diag;
	Arena *arena;
	InternTable names;
	SasmStmt *stmts;
	size_t nstmts, cap;
	SasmStmt cur;           /* the instruction being parsed */
	bool line_has_token;    /* the scanner has returned a token on this line */
	SrcLoc comment_start;
	SrcLoc last_loc;        /* of the previous token, for "expected ';'" */
} SasmParseState;

/* Parses buf (len + 2 NULs) into ps->stmts; returns the number of errors. */
unsigned sasm_parse_buffer(SasmParseState *ps, char *buf, size_t len);
void sasm_parse_fini(SasmParseState *ps);

/* Builder helpers the grammar calls. */
void sasm_push_stmt(SasmParseState *ps, const SasmStmt *s);
SasmOperand sasm_operand_word(SasmParseState *ps, const char *word, SrcLoc loc);
void sasm_add_annotation(SasmParseState *ps, const char *text, SrcLoc loc);
/* Splits "R1.reuse" into kind/number/suffixes; false when it is no register. */
bool sasm_classify_reg(const char *word, SasmOperand *op);

#endif
