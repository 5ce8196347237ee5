/* The Maxwell (sm_50) instruction table: one row per encoding form, in the
 * style of envytools. A row is {name, value, mask, fields}: a word belongs to
 * the form when (word & mask) == value, and every bit outside the mask is
 * owned by exactly one field. The encoder, the decoder and the oracle test
 * all read these rows, so a bit layout is written down exactly once.
 *
 * Field values are exchanged by *role* (what the field means: destination
 * register, cache operator, ...) rather than by position, so the printer and
 * an assembler can ask for "the cache operator" of any form that has one. */
#ifndef PTXSURF_SASS_TABLE_H
#define PTXSURF_SASS_TABLE_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

/* What a field means. Values are indices into SassValues.v (sass_encode.h). */
typedef enum SassRole {
	SR_PG,          /* guard predicate P0..P6, 7 = PT */
	SR_PG_NOT,      /* guard predicate negated (@!P) */
	SR_RD,          /* destination register */
	SR_RA,          /* first source / address register */
	SR_RB,          /* second source, or the data register of a store */
	SR_RC,          /* third source, or the surface index register */
	SR_IMM,         /* immediate operand (value in the unit the text shows) */
	SR_CBANK,       /* constant bank of a c[bank][off] operand */
	SR_COFF,        /* constant offset, in 4-byte words for ALU operands */
	SR_SUIDX,       /* immediate surface / texture header index */
	SR_BA,          /* surface .BA: x coordinate in bytes */
	SR_SIZE,        /* access size (.U8 ... .128) */
	SR_COP,         /* cache operator */
	SR_CLAMP,       /* surface out-of-bounds behaviour */
	SR_GEOM,        /* surface geometry */
	SR_RGBA,        /* formatted surface component mask */
	SR_SUOP,        /* surface reduction operation */
	SR_SUTYPE,      /* surface reduction data type */
	SR_UNUSED,      /* bits the hardware ignores in this form; kept for round trips */
	SR_E,           /* .E: 64-bit address in {Ra+1, Ra} */
	SR_LDCMODE,     /* LDC addressing mode */
	SR_LANEMASK,    /* MOV lane mask, 0xf = all lanes */
	SR_SREG,        /* S2R special register */
	SR_SAT,         /* .SAT */
	SR_NEG,         /* IADD/ISCADD negation: none, -B, -A, .PO */
	SR_NEGA,        /* IADD32I: negate A */
	SR_CC,          /* .CC: write the condition code */
	SR_X,           /* .X: extended precision (add carry) */
	SR_SHIFT,       /* ISCADD shift amount */
	SR_W,           /* SHL/SHR .W: wrap the shift amount */
	SR_SIGNED,      /* SHR/ISETP: signed (0 prints .U32) */
	SR_BREV,        /* SHR .BREV */
	SR_LOPOP,       /* LOP operation */
	SR_INVA,        /* LOP: invert A */
	SR_INVB,        /* LOP: invert B */
	SR_CMP,         /* ISETP comparison */
	SR_BOP,         /* ISETP predicate combination */
	SR_PD,          /* ISETP first predicate destination */
	SR_PQ,          /* ISETP second predicate destination */
	SR_PC,          /* ISETP predicate source; LD/ST: the predicate of the generic address */
	SR_PC_NOT,      /* ISETP predicate source negated */
	SR_HA,          /* XMAD: use the high half of A */
	SR_HB,          /* XMAD: use the high half of B */
	SR_SA,          /* XMAD: A is signed */
	SR_SB,          /* XMAD: B is signed */
	SR_CMODE,       /* XMAD C operand mode */
	SR_MRG,         /* XMAD .MRG */
	SR_PSL,         /* XMAD .PSL */
	SR_COND,        /* BRA condition code test, 0xf = always */
	SR_U,           /* BRA .U: uniform; LDS .U (ptxas sets it on every LDS) */
	SR_NODEP,       /* TXQ .NODEP */
	SR_QUERY,       /* TXQ query */
	SR_QMASK,       /* TXQ component mask */
	SR_LE,          /* DEPBAR .LE */
	SR_SCOREBOARD,  /* DEPBAR scoreboard */
	SR_CNT,         /* DEPBAR count */
	SR_WMASK,       /* DEPBAR wait mask {n,...} */
	SR_NEGB,        /* negate B (IADD3, I2I) */
	SR_NEGC,        /* negate C (IADD3) */
	SR_ABS,         /* I2I: absolute value of the source */
	SR_BYTESEL,     /* I2I: source byte B0..B3 */
	SR_DTYPE,       /* I2I destination type */
	SR_STYPE,       /* I2I source type */
	SR_XMODE,       /* IMNMX extended mode (.XLO ...) */
	SR_HI,          /* SHF .HI */
	SR_MAXSHIFT,    /* SHF shift width (.U64, .S64) */
	SR_SHIFTMODE,   /* IADD3 .RS / .LS */
	SR_HSEL_A,      /* IADD3: half of A (.H0 / .H1) */
	SR_HSEL_B,      /* IADD3: half of B */
	SR_HSEL_C,      /* IADD3: half of C */
	SR_PA,          /* PSETP first predicate source */
	SR_PA_NOT,
	SR_PB,          /* PSETP second predicate source */
	SR_PB_NOT,
	SR_BOP2,        /* PSETP second combination */
	SR_ABSA,        /* float ops: |A| */
	SR_ABSB,        /* float ops: |B| */
	SR_FTZ,         /* float ops: flush denormals to zero */
	SR_FMZ,         /* FMUL/FFMA: .FTZ or .FMZ (0 * anything = 0) */
	SR_RND,         /* float rounding (RN RM RP RZ; F2I: FLOOR CEIL TRUNC) */
	SR_SCALE,       /* FMUL result scale (.D2 ... .M2) */
	/* ---- instruction families (integer, float, barriers, warp) ---- */
	SR_SH,          /* FLO .SH: the shift amount instead of the bit position */
	SR_PMODE,       /* PRMT byte-select mode (.F4E ... .RC16) */
	SR_RNDINT,      /* F2F: round to an integral value (.ROUND .FLOOR .CEIL .TRUNC) */
	SR_BARMODE,     /* BAR operation (.SYNC .ARV) */
	SR_BARID,       /* BAR immediate barrier number */
	SR_BARCNT,      /* BAR immediate thread count (0: all, omitted by .SYNC) */
	SR_MBLEVEL,     /* MEMBAR scope (.CTA .GL .SYS .VC) */
	SR_IVALL,       /* MEMBAR cache invalidation (.IVALLD ...) */
	SR_MUFUOP,      /* MUFU function (.COS .SIN .EX2 .LG2 .RCP .RSQ ...) */
	SR_RROOP,       /* RRO range reduction (.SINCOS .EX2) */
	SR_TRIG,        /* NOP .TRIG: signals the performance monitors its immediate's events (pmevent) */
	/* issue 17 part 1: atomics and warp operations */
	SR_ATOMOP,      /* ATOM/ATOMS/RED operation (.ADD ... .EXCH) */
	SR_ATOMSIZE,    /* ATOM/ATOMS/RED data type (U32 prints nothing, .S32 .U64 ...) */
	SR_CAS64,       /* ATOM.CAS/ATOMS.CAS width: .CAS (0) or .CAS.64 (1) */
	SR_WOFF,        /* ATOMS offset in 4-byte words */
	SR_SHFLMODE,    /* SHFL .IDX .UP .DOWN .BFLY */
	SR_SHFLC,       /* SHFL immediate clamp and segment mask (C) */
	SR_VOTEMODE,    /* VOTE .ALL .ANY .EQ */
	/* ---- decoder-only forms ptxas emits (IMUL, IMAD, LOP3, ...) ---- */
	SR_LUT,         /* LOP3 lookup table */
	SR_BF,          /* PSET .BF: 1.0f for true instead of all ones */
	/* ---- issue 17: textures ---- */
	SR_TEXLOD,      /* TEX level-of-detail mode (.LZ .LB .LL .LLA); TLD .LZ/.LL */
	SR_NDV,         /* TEX/TLD4 .NDV */
	SR_DC,          /* TEX/TLD4 .DC (depth compare) */
	SR_AOFFI,       /* TEX/TLD .AOFFI; TLD4 offset mode (.AOFFI .PTP) */
	SR_MS,          /* TLD .MS (multisample) */
	SR_CL,          /* TLD .CL */
	SR_GATHER,      /* TLD4 gathered component (.R .G .B .A) */
	/* issue 17: division and square-root sequences */
	SR_LOPTEST,     /* LOP with a predicate output: the result test (.Z, .NZ) */
	/* ---- sim4: compact textures (TEXS TLDS TLD4S), VABSDIFF ---- */
	SR_RD2,         /* TEXS/TLDS/TLD4S: the register pair of the third and fourth components */
	SR_TEXSTARGET,  /* TEXS/TLDS: geometry and mode in one code (sass_texs_target) */
	SR_TEXSMASK,    /* TEXS/TLDS: write-mask code (sass_texs_mask) */
	SR_VFMT_A,      /* VABSDIFF: A's part and signedness: selection 0-3 bytes, 4-5 halves, 6 word; +8 signed */
	SR_VFMT_B,      /* VABSDIFF: B's */
	SR_VMODE,       /* VABSDIFF: the second operation with C (.ACC .MIN .MAX .MRG_*; 7 none) */
	SR_SD,          /* VABSDIFF .SD: a signed result (for .SAT) */
	/* ---- divrn ---- */
	SR_CHKMODE,     /* FCHK check (.DIVIDE) */
	/* ---- legacy2: set on .f64 sources into a register, slct on an .f32 selector ---- */
#define SASS_OPS_LEGACY2(X) X(DSET, "DSET") X(FCMP, "FCMP")

/* ---- ctrl: barrier reductions ---- */
	SR_BARRED,      /* BAR.RED reduction (.POPC .AND .OR) */
	/* ---- video: the four-lane SIMD video form (VABSDIFF4) ---- */
	SR_VSEL_A,      /* VABSDIFF4: A's byte selection (4 prints nothing: bytes 3210) */
	SR_VSEL_B,      /* VABSDIFF4: B's byte selection (4 prints nothing: bytes 7654 of {B, A}) */
	SR_VLANES,      /* VABSDIFF4: the lanes written (.X .Y .Z .W; 0xf prints nothing) */
	SR_VRED,        /* VABSDIFF4: .ACC: C plus the sum of the lanes' results */
	/* ---- video2: the scalar video forms (VADD VMNMX VSET VSHL VSHR VMAD) ---- */
	SR_VMAX,        /* VMNMX .MX: the maximum (clear: the minimum) */
	SR_VSCALE,      /* VMAD: the final right shift (.SHR_7 .SHR_15) */
	/* ---- texcache: cache control (CCTL, CCTLL) ---- */
	SR_CCTLOP,      /* CCTL/CCTLL operation (.PF1 .PF2: prefetch to L1 / L2) */
	SR_COUNT
} SassRole;

typedef enum SassFieldKind {
	SASS_FK_REG,    /* 8-bit general register, 255 = RZ */
	SASS_FK_PRED,   /* 3-bit predicate, 7 = PT */
	SASS_FK_UIMM,   /* unsigned integer */
	SASS_FK_SIMM,   /* two's complement integer */
	SASS_FK_ENUM,   /* named values (SassEnum) */
	SASS_FK_FLAG,   /* one bit */
} SassFieldKind;

/* Named values of an enum field. names[v] == NULL means v has no name: it is
 * printed with `fallback` (a printf format taking the value as unsigned) when
 * nvdisasm accepts it, and is an invalid encoding when fallback is NULL. */
typedef struct SassEnum {
	const char *const *names;
	unsigned count;
	const char *fallback;
} SassEnum;

/* A field occupies bits [lo, lo+width) of the word; a value wider than one
 * range continues in [hi_lo, hi_lo+hi_width) (the sign bit 56 of the 20-bit
 * ALU immediates, the size bits of the I2I types). The value is the
 * concatenation, low part first. */
typedef struct SassField {
	SassRole role;
	SassFieldKind kind;
	uint8_t lo, width;
	uint8_t hi_lo, hi_width;
	const SassEnum *values;     /* SASS_FK_ENUM only */
} SassField;

/* The printer families and their mnemonics: forms of one family share
 * their text syntax and their base mnemonic ("SUST.D", "SHF.L"). */
#define SASS_OPS(X) \
	X(SUST_D, "SUST.D") X(SUST_P, "SUST.P") X(SULD_D, "SULD.D") X(SULD_P, "SULD.P") \
	X(SURED_D, "SURED.D") X(SURED_P, "SURED.P") X(TXQ, "TXQ") X(TXQ_B, "TXQ.B") \
	X(STG, "STG") X(LDG, "LDG") X(LDC, "LDC") X(MOV, "MOV") \
	X(MOV32I, "MOV32I") X(S2R, "S2R") X(IADD, "IADD") X(IADD32I, "IADD32I") \
	X(ISCADD, "ISCADD") X(SHL, "SHL") X(SHR, "SHR") X(LOP, "LOP") \
	X(LOP32I, "LOP32I") X(ISETP, "ISETP") X(XMAD, "XMAD") X(BRA, "BRA") \
	X(EXIT, "EXIT") X(NOP, "NOP") X(DEPBAR, "DEPBAR") X(BFE, "BFE") \
	X(BFI, "BFI") X(IMNMX, "IMNMX") X(SEL, "SEL") X(SHF_L, "SHF.L") \
	X(SHF_R, "SHF.R") X(LEA, "LEA") X(LEA_HI, "LEA.HI") X(IADD3, "IADD3") \
	X(I2I, "I2I") X(PSETP, "PSETP") X(FADD, "FADD") X(FADD32I, "FADD32I") \
	X(FMUL, "FMUL") X(FMUL32I, "FMUL32I") X(FFMA, "FFMA") X(FMNMX, "FMNMX") \
	X(FSETP, "FSETP") X(I2F, "I2F") X(F2I, "F2I") \
	X(LDS, "LDS") X(STS, "STS") X(LDL, "LDL") X(STL, "STL") X(LD, "LD") X(ST, "ST") \
	SASS_OPS_FAM(X) SASS_OPS_CALLS(X) SASS_OPS_RELOC(X) SASS_OPS_PTXAS(X) SASS_OPS_TEX(X) \
	SASS_OPS_INT64(X) SASS_OPS_FNPTR(X) SASS_OPS_SIM4(X) SASS_OPS_DIVRN(X) SASS_OPS_CTRL(X) \
	SASS_OPS_LEGACY2(X) SASS_OPS_RELOC2(X) SASS_OPS_VIDEO(X) SASS_OPS_CACHE(X)

/* ---- texcache: cache control (prefetch) on a generic/global address
 * (CCTL) and in the local window (CCTLL) ---- */
#define SASS_OPS_CACHE(X) X(CCTL, "CCTL") X(CCTLL, "CCTLL")

/* ---- video2: the scalar video instructions, one form each ---- */
#define SASS_OPS_VIDEO(X) \
	X(VADD, "VADD") X(VMNMX, "VMNMX") X(VSET, "VSET") X(VSHL, "VSHL") X(VSHR, "VSHR") X(VMAD, "VMAD")

/* ---- ctrl: barrier reductions (BAR.RED, B2R.RESULT); P2R/R2P are int64's ---- */
#define SASS_OPS_CTRL(X) X(BAR_RED, "BAR.RED") X(B2R, "B2R.RESULT")

/* The instruction families beyond the surface slice (integer bit operations, double precision, barriers,
 * warp operations), kept apart so parallel additions merge cleanly. */
#define SASS_OPS_FAM(X) \
	X(POPC, "POPC") X(FLO, "FLO") X(PRMT, "PRMT") \
	X(DADD, "DADD") X(DMUL, "DMUL") X(DFMA, "DFMA") X(DMNMX, "DMNMX") X(DSETP, "DSETP") \
	X(F2F, "F2F") X(BAR, "BAR") X(MEMBAR, "MEMBAR") \
	X(MUFU, "MUFU") X(RRO, "RRO") \
	SASS_OPS_WARP(X)

/* issue 17 part 1: atomics, reductions and warp operations */
#define SASS_OPS_WARP(X) \
	X(ATOM, "ATOM") X(ATOM_CAS, "ATOM") X(RED, "RED") X(ATOMS, "ATOMS") X(ATOMS_CAS, "ATOMS") \
	X(SHFL, "SHFL") X(VOTE, "VOTE") X(CS2R, "CS2R")

/* ---- issue 15: calls (CAL pushes a return address, RET pops it) ---- */
#define SASS_OPS_CALLS(X) X(CAL, "CAL") X(RET, "RET") X(BPT, "BPT.TRAP")

/* ---- issue 15: relocatable calls (JCAL of an external function) ---- */
#define SASS_OPS_RELOC(X) X(JCAL, "JCAL")

/* The decoder-only families: forms ptxas emits that ptxsurf-as does not
 * (sass_forms.def, "decoder-only forms ptxas emits"). */
#define SASS_OPS_PTXAS(X) \
	X(IMUL, "IMUL") X(IMUL32I, "IMUL32I") X(IMAD, "IMAD") X(LOP3, "LOP3") \
	X(SSY, "SSY") X(PBK, "PBK") X(SYNC, "SYNC") X(BRK, "BRK") X(ICMP, "ICMP") X(PSET, "PSET") \
	X(ISET, "ISET")

/* ---- fnptr: ptxas's calls through a register (decoder-only): PRET pushes
 * a return point, BRX Ra jumps to Ra + pc + 8 + offset ---- */
#define SASS_OPS_FNPTR(X) X(PRET, "PRET") X(BRX, "BRX")

/* ---- issue 17: textures (TLD4.B prints as TLD4.<component>.B) ---- */
#define SASS_OPS_TEX(X) \
	X(TEX, "TEX") X(TEX_B, "TEX.B") X(TLD, "TLD") X(TLD_B, "TLD.B") X(TLD4, "TLD4") X(TLD4_B, "TLD4.B") \
	X(TXD, "TXD") X(TXD_B, "TXD.B")

/* ---- int64: condition-code test and save/restore (abs.s64) ---- */
#define SASS_OPS_INT64(X) X(CSETP, "CSETP") X(P2R, "P2R") X(R2P, "R2P")
/* ---- sim4: forms ptxas 11.8 writes that the simulator runs: the compact
 * texture forms (bound textures, two destination pairs) and VABSDIFF
 * (sad); CSETP is int64's ---- */
#define SASS_OPS_SIM4(X) \
	X(TEXS, "TEXS") X(TLDS, "TLDS") X(TLD4S, "TLD4S") X(VABSDIFF, "VABSDIFF") \
	X(VABSDIFF4, "VABSDIFF4")
/* ---- divrn: the f32 division check, float set and ISCADD32I (div.rn.f32) ---- */
#define SASS_OPS_DIVRN(X) X(FCHK, "FCHK") X(FSET, "FSET") X(ISCADD32I, "ISCADD32I")
/* ---- reloc2: ptxas -c's call through a register jumps to Ra + offset ---- */
#define SASS_OPS_RELOC2(X) X(JMX, "JMX")

typedef enum SassOp {
#define X(id, mnemonic) SOP_##id,
	SASS_OPS(X)
#undef X
} SassOp;

/* The size field of a memory access (STG, LDG, SUST.D, SULD.D) for an
 * access of `bytes` unsigned bytes: U8 0, U16 2, 32 bits 4, 64 5, 128 6;
 * -1 for a size with no code. The signed 8/16-bit loads (S8 1, S16 3) are
 * the caller's choice. */
int sass_size_code(unsigned bytes);

/* The base mnemonic of a family ("SUST.D", "IADD32I", "SHF.L"). */
const char *sass_op_mnemonic(SassOp op);

/* Which control-slot values nvdisasm accepts for a form (checked against it):
 * fixed-latency ALU ops may set no scoreboard barrier and no reuse bit 3,
 * control-flow ops no barrier, variable-latency ops anything. */
typedef enum SassClass {
	SASS_CLASS_ALU,
	SASS_CLASS_FLOW,
	SASS_CLASS_VARLAT,
	SASS_CLASS_VARLAT_ALU,  /* variable latency, but no reuse bit 3 (FP64 unit) */
} SassClass;

/* How the second ALU operand is encoded; decides which reuse bits print.
 * SASS_B_RC: B is a register in bits 46:39 and C is the constant operand. */
typedef enum SassBKind { SASS_B_NONE, SASS_B_REG, SASS_B_CONST, SASS_B_IMM, SASS_B_RC } SassBKind;

enum { SASS_MAX_FIELDS = 17 };   /* FSET_C has 17 */

typedef struct SassForm {
	const char *name;           /* unique, e.g. "IADD_C" */
	SassOp op;
	SassClass cls;
	SassBKind bkind;
	uint64_t value, mask;
	unsigned nfields;
	SassField fields[SASS_MAX_FIELDS];
} SassForm;

/* Form ids, one per row of sass_forms.def: sass_forms[SF_IADD_R]. */
typedef enum SassFormId {
#define ROW(id, ...) SF_##id
#include "sm50/sass_forms.def"
#undef ROW
	SF_COUNT
} SassFormId;

extern const SassForm sass_forms[SF_COUNT];
extern const size_t sass_form_count;

/* Whether a P2R/R2P form moves the predicates P0-P6 (PR) rather than the
 * condition code (r2p14: bit 40 of the word). */
static inline bool sass_moves_pr(const SassForm *f)
{
	return f == &sass_forms[SF_P2R_PR] || f == &sass_forms[SF_R2P_PR];
}

/* The register, constant-bank and immediate forms of an ALU family whose
 * operand B takes all three (lw_alu picks one by the operand). */
typedef struct SassAluForms {
	SassFormId r, c, i;
} SassAluForms;
#define SASS_ALU_FORMS(family) ((SassAluForms){ SF_##family##_R, SF_##family##_C, SF_##family##_I })

/* NULL when no form has that name. */
const SassForm *sass_form_by_name(const char *name);
/* The field of `f` with role `r`, or NULL. */
const SassField *sass_form_field(const SassForm *f, SassRole r);
/* The position of that field in f->fields (a form has each role at most
 * once), or -1. f must point into sass_forms[]. */
int sass_form_field_index(const SassForm *f, SassRole r);
/* Stable lower-case name of a role, for messages ("rd", "cop", ...). */
const char *sass_role_name(SassRole r);

/* ---- sim4: the compact texture forms ----
 * TEXS and TLDS code geometry and mode in one target field; nvdisasm prints
 * the mode as the modifiers SR_TEXSTARGET's value names spell (".LL.DC")
 * and the geometry after the index. NULL for a code nvdisasm rejects. */
typedef struct SassTexsTarget {
	const char *geometry;   /* "1D", "2D", "ARRAY_2D", "3D", "CUBE" */
	int8_t geom;            /* the same as an e_texgeom value (TEX's field) */
	int8_t lod;             /* 0 implicit, 1 level zero (.LZ), 3 a level register (.LL) */
	bool dc, aoffi, ms;     /* depth reference, offsets, sample index */
} SassTexsTarget;
const SassTexsTarget *sass_texs_target(SassOp op, int64_t target);
/* A write-mask code: the components it writes (bit 0 R ... bit 3 A, 0 for
 * the codes nvdisasm calls INVALIDn) and their spelling. With a second
 * pair (Rd2 not RZ) the codes name three or four components, else one or
 * two. */
unsigned sass_texs_mask(int64_t code, bool pair2);
const char *sass_texs_mask_name(int64_t code, bool pair2);

#endif
