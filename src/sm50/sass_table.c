/* The sm_50 form table. Bit positions come from the project's Maxwell
 * encoding notes and were checked form by form against nvdisasm 11.8 with
 * tests/oracle/sass-forms.sh; value names are nvdisasm's spelling. */
#include "sm50/sass_table.h"
#include "base/once.h"

#include <stdbool.h>
#include <string.h>

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define ENUM(id, fallback) \
	static const SassEnum id = { id##_names, COUNT_OF(id##_names), fallback }

/* ---- value names --------------------------------------------------------- */

/* Memory access size; 4 is the default 32 bits and prints nothing. */
static const char *const e_size_names[] = { "U8", "S8", "U16", "S16", "", "64", "128" };
ENUM(e_size, "INVALIDSIZE%u");

/* LDG spells size 7 as a 128-bit load; LDC has no 128-bit size. */
static const char *const e_ldg_size_names[] = { "U8", "S8", "U16", "S16", "", "64", "128", "U.128" };
ENUM(e_ldg_size, NULL);
static const char *const e_ldc_size_names[] = { "U8", "S8", "U16", "S16", "", "64" };
ENUM(e_ldc_size, "INVALIDSIZE%u");

static const char *const e_cop_store_names[] = { "", "CG", "CS", "WT" };
ENUM(e_cop_store, NULL);
static const char *const e_cop_load_names[] = { "", "CG", "CI", "CV" };
ENUM(e_cop_load, NULL);

/* Surface clamp: 1 (PTX .clamp) is the default and prints nothing. */
static const char *const e_clamp_names[] = { "IGN", "", "TRAP" };
ENUM(e_clamp, "INVALIDSURFACECLAMP%u");

static const char *const e_geom_names[] = {
	"1D", "1D_BUFFER", "1D_ARRAY", "2D", "2D_ARRAY", "3D",
};
ENUM(e_geom, "INVALIDSURFACEDIM%u");

static const char *const e_suop_names[] = {
	"ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR",
};
ENUM(e_suop, NULL);

/* SURED.D data type; 0 (U32) prints nothing. */
static const char *const e_sutype_names[] = {
	"", "S32", "U64", "F32.FTZ.RN", NULL, "S64", "SD32", "SD64",
};
ENUM(e_sutype, "INVALIDATOMICSIZE%u");

static const char *const e_ldcmode_names[] = { "", "IL", "IS", "ISL" };
ENUM(e_ldcmode, NULL);

static const char *const e_lop_names[] = { "AND", "OR", "XOR", "PASS_B" };
ENUM(e_lop, NULL);

static const char *const e_cmp_names[] = { "F", "LT", "EQ", "LE", "GT", "NE", "GE", "T" };
ENUM(e_cmp, NULL);

static const char *const e_bop_names[] = { "AND", "OR", "XOR" };
ENUM(e_bop, "INVALIDBOP%u");

/* XMAD C-operand mode; 0 prints nothing. 5..7 are printed as ???n. */
static const char *const e_cmode_names[] = { "", "CLO", "CHI", "CSFU", "CBCC" };
ENUM(e_cmode, "???%u");

/* DEPBAR scoreboards. 6 and 7 do not exist; nvdisasm prints them as "???n"
 * padded to an unpredictable column, so they are treated as invalid. */
static const char *const e_scoreboard_names[] = { "SB0", "SB1", "SB2", "SB3", "SB4", "SB5" };
ENUM(e_scoreboard, NULL);

/* Condition-code tests of BRA; 15 (T, always) prints nothing. */
static const char *const e_cond_names[] = {
	"F", "LT", "EQ", "LE", "GT", "NE", "GE", "NUM",
	"NAN", "LTU", "EQU", "LEU", "GTU", "NEU", "GEU", "T",
	"OFF", "LO", "SFF", "LS", "HI", "SFT", "HS", "OFT",
	"CSM_TA", "CSM_TR", "CSM_MX", "FCSM_TA", "FCSM_TR", "FCSM_MX", "RLE", "RGT",
};
ENUM(e_cond, NULL);

/* TXQ queries. nvdisasm rejects odd codes other than 1 and 5; the even codes
 * without a symbolic name print as code/2. */
static const char *const e_query_names[] = {
	[1] = "TEX_HEADER_DIMENSION", [2] = "TEX_HEADER_TEXTURE_TYPE",
	[5] = "TEX_HEADER_SAMPLER_POS",
	[6] = "3", [8] = "4", [10] = "5", [12] = "6", [14] = "7",
	[16] = "TEX_SAMPLER_FILTER", [18] = "TEX_SAMPLER_LOD",
	[20] = "TEX_SAMPLER_WRAP", [22] = "TEX_SAMPLER_BORDER_COLOR",
	[24] = "12", [26] = "13", [28] = "14", [30] = "15",
	[32] = "16", [34] = "17", [36] = "18", [38] = "19",
	[40] = "20", [42] = "21", [44] = "22", [46] = "23",
	[48] = "24", [50] = "25", [52] = "26", [54] = "27",
	[56] = "28", [58] = "29", [60] = "30", [62] = "31",
};
ENUM(e_query, NULL);

/* Special registers; the unnamed ones print as SRn. */
static const char *const e_sreg_names[] = {
	[0x00] = "SR_LANEID", [0x01] = "SR_CLOCK", [0x02] = "SR_VIRTCFG",
	[0x03] = "SR_VIRTID", [0x04] = "SR_PM0", [0x05] = "SR_PM1",
	[0x06] = "SR_PM2", [0x07] = "SR_PM3", [0x08] = "SR_PM4",
	[0x09] = "SR_PM5", [0x0a] = "SR_PM6", [0x0b] = "SR_PM7",
	[0x10] = "SR_PRIM_TYPE", [0x11] = "SR_INVOCATION_ID",
	[0x12] = "SR_Y_DIRECTION", [0x13] = "SR_THREAD_KILL",
	[0x14] = "SM_SHADER_TYPE", [0x15] = "SR_DIRECTCBEWRITEADDRESSLOW",
	[0x16] = "SR_DIRECTCBEWRITEADDRESSHIGH", [0x17] = "SR_DIRECTCBEWRITEENABLED",
	[0x18] = "SR_MACHINE_ID_0", [0x19] = "SR_MACHINE_ID_1",
	[0x1a] = "SR_MACHINE_ID_2", [0x1b] = "SR_MACHINE_ID_3",
	[0x1c] = "SR_AFFINITY", [0x1d] = "SR_INVOCATION_INFO",
	[0x1e] = "SR_WSCALEFACTOR_XY", [0x1f] = "SR_WSCALEFACTOR_Z",
	[0x20] = "SR_TID", [0x21] = "SR_TID.X", [0x22] = "SR_TID.Y",
	[0x23] = "SR_TID.Z", [0x24] = "SR_CTA_PARAM", [0x25] = "SR_CTAID.X",
	[0x26] = "SR_CTAID.Y", [0x27] = "SR_CTAID.Z", [0x28] = "SR_NTID",
	[0x29] = "SR_CirQueueIncrMinusOne", [0x2a] = "SR_NLATC",
	[0x30] = "SR_SWINLO", [0x31] = "SR_SWINSZ", [0x32] = "SR_SMEMSZ",
	[0x33] = "SR_SMEMBANKS", [0x34] = "SR_LWINLO", [0x35] = "SR_LWINSZ",
	[0x36] = "SR_LMEMLOSZ", [0x37] = "SR_LMEMHIOFF", [0x38] = "SR_EQMASK",
	[0x39] = "SR_LTMASK", [0x3a] = "SR_LEMASK", [0x3b] = "SR_GTMASK",
	[0x3c] = "SR_GEMASK", [0x3d] = "SR_REGALLOC", [0x3e] = "SR_CTXADDR",
	[0x40] = "SR_GLOBALERRORSTATUS", [0x42] = "SR_WARPERRORSTATUS",
	[0x43] = "SR_WARPERRORSTATUSCLEAR",
	[0x48] = "SR_PM_HI0", [0x49] = "SR_PM_HI1", [0x4a] = "SR_PM_HI2",
	[0x4b] = "SR_PM_HI3", [0x4c] = "SR_PM_HI4", [0x4d] = "SR_PM_HI5",
	[0x4e] = "SR_PM_HI6", [0x4f] = "SR_PM_HI7",
	[0x50] = "SR_CLOCKLO", [0x51] = "SR_CLOCKHI",
	[0x52] = "SR_GLOBALTIMERLO", [0x53] = "SR_GLOBALTIMERHI",
	[0x60] = "SR_HWTASKID", [0x61] = "SR_CIRCULARQUEUEENTRYINDEX",
	[0x62] = "SR_CIRCULARQUEUEENTRYADDRESSLOW",
	[0x63] = "SR_CIRCULARQUEUEENTRYADDRESSHIGH",
};
ENUM(e_sreg, "SR%u");

/* IMNMX extended (64-bit) modes. */
static const char *const e_xmode_names[] = { "", "XLO", "XMED", "XHI" };
ENUM(e_xmode, NULL);

/* SHF shift width; 1 has no meaning and nvdisasm calls it INVALIDMAXSHIFT3. */
static const char *const e_maxshift_names[] = { "", "INVALIDMAXSHIFT3", "U64", "S64" };
ENUM(e_maxshift, NULL);

static const char *const e_shiftmode_names[] = { "", "RS", "LS" };
ENUM(e_shiftmode, "???%u");
static const char *const e_hsel_names[] = { "", "H0", "H1" };
ENUM(e_hsel, "???%u");

/* I2I types: the value is signed | size << 1 (size 0 8 bits, 1 16, 2 32). */
static const char *const e_i2i_type_names[] = { "U8", "S8", "U16", "S16", "U32", "S32" };
static const SassEnum e_i2i_dtype = { e_i2i_type_names, COUNT_OF(e_i2i_type_names), "???%u" };
static const SassEnum e_i2i_stype = { e_i2i_type_names, COUNT_OF(e_i2i_type_names), "INVALID%u" };

/* Float rounding; 0 (round to nearest even) prints nothing. F2I spells the
 * same field as the integer rounding direction. */
static const char *const e_rnd_names[] = { "", "RM", "RP", "RZ" };
ENUM(e_rnd, NULL);
static const char *const e_f2i_rnd_names[] = { "", "FLOOR", "CEIL", "TRUNC" };
ENUM(e_f2i_rnd, NULL);
/* FMUL/FFMA denormal handling: .FTZ flushes, .FMZ also makes 0 * x = 0. */
static const char *const e_fmz_names[] = { "", "FTZ", "FMZ" };
ENUM(e_fmz, "INVALIDFMZ%u");
/* FMUL result scale: divide or multiply by 2, 4, 8. */
static const char *const e_scale_names[] = { "", "D2", "D4", "D8", "M8", "M4", "M2" };
ENUM(e_scale, "INVALIDSCALE3%u");
/* FSETP comparisons, ordered then unordered (U suffix: true on NaN). */
static const char *const e_fcmp_names[] = {
	"F", "LT", "EQ", "LE", "GT", "NE", "GE", "NUM",
	"NAN", "LTU", "EQU", "LEU", "GTU", "NEU", "GEU", "T",
};
ENUM(e_fcmp, NULL);
/* I2F source and F2I destination integer types: signed | size << 1. */
static const char *const e_int_type_names[] = { "U8", "S8", "U16", "S16", "U32", "S32", "U64", "S64" };
ENUM(e_int_type, NULL);
/* F2I has no 8-bit destination. */
static const char *const e_f2i_type_names[] = { NULL, NULL, "U16", "S16", "U32", "S32", "U64", "S64" };
ENUM(e_f2i_type, "INVALID%u");
/* Float format of I2F's destination and F2I's source; 0 has no name. */
static const char *const e_float_type_names[] = { NULL, "F16", "F32", "F64" };
ENUM(e_float_type, NULL);

/* ---- field shorthands ---------------------------------------------------- */

#define FLD(role, kind, lo, w)  { role, kind, lo, w, 0, 0, NULL }
#define REG(role, lo)           FLD(role, SASS_FK_REG, lo, 8)
#define PRED(role, lo)          FLD(role, SASS_FK_PRED, lo, 3)
#define FLAG(role, bit)         FLD(role, SASS_FK_FLAG, bit, 1)
#define UIMM(role, lo, w)       FLD(role, SASS_FK_UIMM, lo, w)
#define SIMM(role, lo, w)       FLD(role, SASS_FK_SIMM, lo, w)
#define ENUMF(role, lo, w, e)   { role, SASS_FK_ENUM, lo, w, 0, 0, &e }
/* An enum whose value is bit `lo` plus two more bits at hi_lo (I2I types). */
#define ENUM_SPLIT(role, lo, hi_lo, e) { role, SASS_FK_ENUM, lo, 1, hi_lo, 2, &e }

#define GUARD        PRED(SR_PG, 16), FLAG(SR_PG_NOT, 19)
/* Operand B of the ALU forms. */
#define B_REG        REG(SR_RB, 20)
#define B_CONST      UIMM(SR_CBANK, 34, 5), SIMM(SR_COFF, 20, 14)
#define B_IMM20      { SR_IMM, SASS_FK_SIMM, 20, 19, 56, 1, NULL }

#define ROW(name, op, cls, bk, value, mask, ...) \
	{ name, op, cls, bk, value, mask, \
	  sizeof((SassField[]){ __VA_ARGS__ }) / sizeof(SassField), { __VA_ARGS__ } }

/* ---- surface forms ------------------------------------------------------- */

/* Shared by SUST/SULD/SURED: bit 52 selects .D (raw) or .P (formatted), bit 51
 * the immediate index (bits 48:36) or the index register (bits 46:39). */
#define SU_COMMON    ENUMF(SR_CLAMP, 49, 2, e_clamp), ENUMF(SR_GEOM, 33, 3, e_geom), \
                     GUARD, REG(SR_RA, 8)
#define SU_IDX       UIMM(SR_SUIDX, 36, 13)
#define SU_RC        REG(SR_RC, 39)
#define SU_D_FMT     FLAG(SR_BA, 23), ENUMF(SR_SIZE, 20, 3, e_size)
#define SU_P_FMT     UIMM(SR_RGBA, 20, 4)
#define SURED_D_FMT  FLAG(SR_BA, 23), ENUMF(SR_SUTYPE, 20, 3, e_sutype)
#define SURED_P_FMT  UIMM(SR_UNUSED, 20, 4)
#define SUST_COP     ENUMF(SR_COP, 24, 2, e_cop_store)
#define SULD_COP     ENUMF(SR_COP, 24, 2, e_cop_load)
#define SURED_OP     ENUMF(SR_SUOP, 24, 3, e_suop)

#define V SASS_CLASS_VARLAT
#define A SASS_CLASS_ALU
#define C SASS_CLASS_FLOW

const SassForm sass_forms[] = {
	ROW("SUST_D",    SOP_SUST_D,  V, SASS_B_NONE, 0xeb38000000000000, 0xfff80001fc000000,
	    SU_COMMON, SU_IDX, SUST_COP, SU_D_FMT, REG(SR_RB, 0)),
	ROW("SUST_P",    SOP_SUST_P,  V, SASS_B_NONE, 0xeb28000000000000, 0xfff80001fc000000,
	    SU_COMMON, SU_IDX, SUST_COP, SU_P_FMT, REG(SR_RB, 0)),
	ROW("SUST_D_R",  SOP_SUST_D,  V, SASS_B_NONE, 0xeb30000000000000, 0xfff98071fc000000,
	    SU_COMMON, SU_RC, SUST_COP, SU_D_FMT, REG(SR_RB, 0)),
	ROW("SUST_P_R",  SOP_SUST_P,  V, SASS_B_NONE, 0xeb20000000000000, 0xfff98071fc000000,
	    SU_COMMON, SU_RC, SUST_COP, SU_P_FMT, REG(SR_RB, 0)),
	ROW("SULD_D",    SOP_SULD_D,  V, SASS_B_NONE, 0xeb18000000000000, 0xfff80001fc000000,
	    SU_COMMON, SU_IDX, SULD_COP, SU_D_FMT, REG(SR_RD, 0)),
	ROW("SULD_P",    SOP_SULD_P,  V, SASS_B_NONE, 0xeb08000000000000, 0xfff80001fc000000,
	    SU_COMMON, SU_IDX, SULD_COP, SU_P_FMT, REG(SR_RD, 0)),
	ROW("SULD_D_R",  SOP_SULD_D,  V, SASS_B_NONE, 0xeb10000000000000, 0xfff98071fc000000,
	    SU_COMMON, SU_RC, SULD_COP, SU_D_FMT, REG(SR_RD, 0)),
	ROW("SULD_P_R",  SOP_SULD_P,  V, SASS_B_NONE, 0xeb00000000000000, 0xfff98071fc000000,
	    SU_COMMON, SU_RC, SULD_COP, SU_P_FMT, REG(SR_RD, 0)),
	ROW("SURED_D",   SOP_SURED_D, V, SASS_B_NONE, 0xeb58000000000000, 0xfff80001f8000000,
	    SU_COMMON, SU_IDX, SURED_OP, SURED_D_FMT, REG(SR_RB, 0)),
	ROW("SURED_P",   SOP_SURED_P, V, SASS_B_NONE, 0xeb48000000000000, 0xfff80001f8000000,
	    SU_COMMON, SU_IDX, SURED_OP, SURED_P_FMT, REG(SR_RB, 0)),
	ROW("SURED_D_R", SOP_SURED_D, V, SASS_B_NONE, 0xeb50000000000000, 0xfff98071f8000000,
	    SU_COMMON, SU_RC, SURED_OP, SURED_D_FMT, REG(SR_RB, 0)),
	ROW("SURED_P_R", SOP_SURED_P, V, SASS_B_NONE, 0xeb40000000000000, 0xfff98071f8000000,
	    SU_COMMON, SU_RC, SURED_OP, SURED_P_FMT, REG(SR_RB, 0)),

	/* ---- texture queries (suq) ---- */
	ROW("TXQ",   SOP_TXQ,   V, SASS_B_NONE, 0xdf48000000000000, 0xfffc000870300000,
	    FLAG(SR_NODEP, 49), UIMM(SR_SUIDX, 36, 13), UIMM(SR_QMASK, 31, 4),
	    ENUMF(SR_QUERY, 22, 6, e_query), GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("TXQ_B", SOP_TXQ_B, V, SASS_B_NONE, 0xdf50000000000000, 0xfffdfff870300000,
	    FLAG(SR_NODEP, 49), UIMM(SR_QMASK, 31, 4),
	    ENUMF(SR_QUERY, 22, 6, e_query), GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),

	/* ---- global memory and constants ---- */
	ROW("STG", SOP_STG, V, SASS_B_NONE, 0xeed8000000000000, 0xfff8100000000000,
	    ENUMF(SR_SIZE, 48, 3, e_size), ENUMF(SR_COP, 46, 2, e_cop_store), FLAG(SR_E, 45),
	    SIMM(SR_IMM, 20, 24), GUARD, REG(SR_RA, 8), REG(SR_RB, 0)),
	ROW("LDG", SOP_LDG, V, SASS_B_NONE, 0xeed0000000000000, 0xfff8100000000000,
	    ENUMF(SR_SIZE, 48, 3, e_ldg_size), ENUMF(SR_COP, 46, 2, e_cop_load), FLAG(SR_E, 45),
	    SIMM(SR_IMM, 20, 24), GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("LDC", SOP_LDC, V, SASS_B_NONE, 0xef90000000000000, 0xfff8ce0000000000,
	    ENUMF(SR_SIZE, 48, 3, e_ldc_size), ENUMF(SR_LDCMODE, 44, 2, e_ldcmode),
	    UIMM(SR_CBANK, 36, 5), SIMM(SR_COFF, 20, 16), GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),

	/* ---- moves ---- */
	ROW("MOV_R", SOP_MOV, A, SASS_B_REG,   0x5c98000000000000, 0xfffff87ff000ff00,
	    UIMM(SR_LANEMASK, 39, 4), B_REG, GUARD, REG(SR_RD, 0)),
	ROW("MOV_C", SOP_MOV, A, SASS_B_CONST, 0x4c98000000000000, 0xfffff8000000ff00,
	    UIMM(SR_LANEMASK, 39, 4), B_CONST, GUARD, REG(SR_RD, 0)),
	ROW("MOV_I", SOP_MOV, A, SASS_B_IMM,   0x3898000000000000, 0xfefff8000000ff00,
	    UIMM(SR_LANEMASK, 39, 4), B_IMM20, GUARD, REG(SR_RD, 0)),
	ROW("MOV32I", SOP_MOV32I, A, SASS_B_NONE, 0x0100000000000000, 0xfff0000000000f00,
	    UIMM(SR_IMM, 20, 32), GUARD, UIMM(SR_LANEMASK, 12, 4), REG(SR_RD, 0)),
	ROW("S2R", SOP_S2R, V, SASS_B_NONE, 0xf0c8000000000000, 0xfffffffff000ff00,
	    ENUMF(SR_SREG, 20, 8, e_sreg), GUARD, REG(SR_RD, 0)),

	/* ---- integer arithmetic ---- */
#define IADD_MODS FLAG(SR_SAT, 50), UIMM(SR_NEG, 48, 2), FLAG(SR_CC, 47), FLAG(SR_X, 43)
	ROW("IADD_R", SOP_IADD, A, SASS_B_REG,   0x5c10000000000000, 0xfff877fff0000000,
	    IADD_MODS, B_REG, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("IADD_C", SOP_IADD, A, SASS_B_CONST, 0x4c10000000000000, 0xfff8778000000000,
	    IADD_MODS, B_CONST, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("IADD_I", SOP_IADD, A, SASS_B_IMM,   0x3810000000000000, 0xfef8778000000000,
	    IADD_MODS, B_IMM20, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("IADD32I", SOP_IADD32I, A, SASS_B_NONE, 0x1c00000000000000, 0xfe80000000000000,
	    FLAG(SR_NEGA, 56), FLAG(SR_SAT, 54), FLAG(SR_X, 53), FLAG(SR_CC, 52),
	    UIMM(SR_IMM, 20, 32), GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
#define ISCADD_MODS UIMM(SR_NEG, 48, 2), FLAG(SR_CC, 47), UIMM(SR_SHIFT, 39, 5)
	ROW("ISCADD_R", SOP_ISCADD, A, SASS_B_REG,   0x5c18000000000000, 0xfffc707ff0000000,
	    ISCADD_MODS, B_REG, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("ISCADD_C", SOP_ISCADD, A, SASS_B_CONST, 0x4c18000000000000, 0xfffc700000000000,
	    ISCADD_MODS, B_CONST, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("ISCADD_I", SOP_ISCADD, A, SASS_B_IMM,   0x3818000000000000, 0xfefc700000000000,
	    ISCADD_MODS, B_IMM20, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
#define SHL_MODS FLAG(SR_CC, 47), FLAG(SR_X, 43), FLAG(SR_W, 39)
	ROW("SHL_R", SOP_SHL, A, SASS_B_REG,   0x5c48000000000000, 0xffff777ff0000000,
	    SHL_MODS, B_REG, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("SHL_C", SOP_SHL, A, SASS_B_CONST, 0x4c48000000000000, 0xffff770000000000,
	    SHL_MODS, B_CONST, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("SHL_I", SOP_SHL, A, SASS_B_IMM,   0x3848000000000000, 0xfeff770000000000,
	    SHL_MODS, B_IMM20, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
#define SHR_MODS FLAG(SR_SIGNED, 48), FLAG(SR_CC, 47), FLAG(SR_X, 44), FLAG(SR_BREV, 40), \
                 FLAG(SR_W, 39)
	ROW("SHR_R", SOP_SHR, A, SASS_B_REG,   0x5c28000000000000, 0xfffe6e7ff0000000,
	    SHR_MODS, B_REG, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("SHR_C", SOP_SHR, A, SASS_B_CONST, 0x4c28000000000000, 0xfffe6e0000000000,
	    SHR_MODS, B_CONST, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("SHR_I", SOP_SHR, A, SASS_B_IMM,   0x3828000000000000, 0xfefe6e0000000000,
	    SHR_MODS, B_IMM20, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	/* Bits 50:48 = 7: the predicate output of LOP is PT (not modelled). */
#define LOP_MODS ENUMF(SR_LOPOP, 41, 2, e_lop), FLAG(SR_INVB, 40), FLAG(SR_INVA, 39)
	ROW("LOP_R", SOP_LOP, A, SASS_B_REG,   0x5c47000000000000, 0xfffff87ff0000000,
	    LOP_MODS, B_REG, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("LOP_C", SOP_LOP, A, SASS_B_CONST, 0x4c47000000000000, 0xfffff80000000000,
	    LOP_MODS, B_CONST, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("LOP_I", SOP_LOP, A, SASS_B_IMM,   0x3847000000000000, 0xfefff80000000000,
	    LOP_MODS, B_IMM20, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("LOP32I", SOP_LOP32I, A, SASS_B_NONE, 0x0400000000000000, 0xff10000000000000,
	    FLAG(SR_INVA, 55), ENUMF(SR_LOPOP, 53, 2, e_lop),
	    UIMM(SR_IMM, 20, 32), GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
#define ISETP_MODS ENUMF(SR_CMP, 49, 3, e_cmp), FLAG(SR_SIGNED, 48), ENUMF(SR_BOP, 45, 2, e_bop), \
                   FLAG(SR_X, 43), FLAG(SR_PC_NOT, 42), PRED(SR_PC, 39)
#define ISETP_DST  GUARD, REG(SR_RA, 8), PRED(SR_PD, 3), PRED(SR_PQ, 0)
	ROW("ISETP_R", SOP_ISETP, A, SASS_B_REG,   0x5b60000000000000, 0xfff0907ff00000c0,
	    ISETP_MODS, B_REG, ISETP_DST),
	ROW("ISETP_C", SOP_ISETP, A, SASS_B_CONST, 0x4b60000000000000, 0xfff09000000000c0,
	    ISETP_MODS, B_CONST, ISETP_DST),
	ROW("ISETP_I", SOP_ISETP, A, SASS_B_IMM,   0x3660000000000000, 0xfef09000000000c0,
	    ISETP_MODS, B_IMM20, ISETP_DST),

	/* ---- XMAD: 16x16-bit multiply-add; four operand layouts ---- */
	ROW("XMAD_R", SOP_XMAD, A, SASS_B_REG, 0x5b00000000000000, 0xffc00007f0000000,
	    FLAG(SR_HA, 53), ENUMF(SR_CMODE, 50, 3, e_cmode), FLAG(SR_SB, 49), FLAG(SR_SA, 48),
	    FLAG(SR_CC, 47), REG(SR_RC, 39), FLAG(SR_X, 38), FLAG(SR_MRG, 37), FLAG(SR_PSL, 36),
	    FLAG(SR_HB, 35), B_REG, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("XMAD_I", SOP_XMAD, A, SASS_B_IMM, 0x3600000000000000, 0xffc0000000000000,
	    FLAG(SR_HA, 53), ENUMF(SR_CMODE, 50, 3, e_cmode), FLAG(SR_SB, 49), FLAG(SR_SA, 48),
	    FLAG(SR_CC, 47), REG(SR_RC, 39), FLAG(SR_X, 38), FLAG(SR_MRG, 37), FLAG(SR_PSL, 36),
	    UIMM(SR_IMM, 20, 16), GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("XMAD_C", SOP_XMAD, A, SASS_B_CONST, 0x4e00000000000000, 0xfe00000000000000,
	    FLAG(SR_MRG, 56), FLAG(SR_PSL, 55), FLAG(SR_X, 54), FLAG(SR_HA, 53), FLAG(SR_HB, 52),
	    ENUMF(SR_CMODE, 50, 2, e_cmode), FLAG(SR_SB, 49), FLAG(SR_SA, 48), FLAG(SR_CC, 47),
	    REG(SR_RC, 39), B_CONST, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	/* B is a register (bits 46:39), C the constant. */
	ROW("XMAD_RC", SOP_XMAD, A, SASS_B_RC, 0x5100000000000000, 0xff80000000000000,
	    FLAG(SR_X, 54), FLAG(SR_HA, 53), FLAG(SR_HB, 52), ENUMF(SR_CMODE, 50, 2, e_cmode),
	    FLAG(SR_SB, 49), FLAG(SR_SA, 48), FLAG(SR_CC, 47), REG(SR_RB, 39), B_CONST,
	    GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),

	/* ---- bit fields, min/max, select, funnel shift, LEA, 3-input add ---- */
#define BFE_MODS FLAG(SR_SIGNED, 48), FLAG(SR_CC, 47), FLAG(SR_BREV, 40)
	ROW("BFE_R", SOP_BFE, A, SASS_B_REG,   0x5c00000000000000, 0xfffe7efff0000000,
	    BFE_MODS, B_REG, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("BFE_C", SOP_BFE, A, SASS_B_CONST, 0x4c00000000000000, 0xfffe7e8000000000,
	    BFE_MODS, B_CONST, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("BFE_I", SOP_BFE, A, SASS_B_IMM,   0x3800000000000000, 0xfefe7e8000000000,
	    BFE_MODS, B_IMM20, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("BFI_R", SOP_BFI, A, SASS_B_REG,   0x5bf0000000000000, 0xffff007ff0000000,
	    FLAG(SR_CC, 47), REG(SR_RC, 39), B_REG, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("BFI_C", SOP_BFI, A, SASS_B_CONST, 0x4bf0000000000000, 0xffff000000000000,
	    FLAG(SR_CC, 47), REG(SR_RC, 39), B_CONST, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	/* B is a register (bits 46:39), C the constant. */
	ROW("BFI_RC", SOP_BFI, A, SASS_B_RC,   0x53f0000000000000, 0xffff000000000000,
	    FLAG(SR_CC, 47), REG(SR_RB, 39), B_CONST, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("BFI_I", SOP_BFI, A, SASS_B_IMM,   0x36f0000000000000, 0xfeff000000000000,
	    FLAG(SR_CC, 47), REG(SR_RC, 39), B_IMM20, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
#define IMNMX_MODS FLAG(SR_SIGNED, 48), FLAG(SR_CC, 47), ENUMF(SR_XMODE, 43, 2, e_xmode), \
                   FLAG(SR_PC_NOT, 42), PRED(SR_PC, 39)
	ROW("IMNMX_R", SOP_IMNMX, A, SASS_B_REG,   0x5c20000000000000, 0xfffe607ff0000000,
	    IMNMX_MODS, B_REG, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("IMNMX_C", SOP_IMNMX, A, SASS_B_CONST, 0x4c20000000000000, 0xfffe600000000000,
	    IMNMX_MODS, B_CONST, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("IMNMX_I", SOP_IMNMX, A, SASS_B_IMM,   0x3820000000000000, 0xfefe600000000000,
	    IMNMX_MODS, B_IMM20, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("SEL_R", SOP_SEL, A, SASS_B_REG,   0x5ca0000000000000, 0xfffff87ff0000000,
	    FLAG(SR_PC_NOT, 42), PRED(SR_PC, 39), B_REG, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("SEL_C", SOP_SEL, A, SASS_B_CONST, 0x4ca0000000000000, 0xfffff80000000000,
	    FLAG(SR_PC_NOT, 42), PRED(SR_PC, 39), B_CONST, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("SEL_I", SOP_SEL, A, SASS_B_IMM,   0x38a0000000000000, 0xfefff80000000000,
	    FLAG(SR_PC_NOT, 42), PRED(SR_PC, 39), B_IMM20, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	/* Funnel shifts have no constant form; the immediate is 6 bits. */
#define SHF_MODS FLAG(SR_W, 50), FLAG(SR_X, 49), FLAG(SR_HI, 48), FLAG(SR_CC, 47), \
                 REG(SR_RC, 39), ENUMF(SR_MAXSHIFT, 37, 2, e_maxshift)
	ROW("SHF_L_R", SOP_SHF_L, A, SASS_B_REG, 0x5bf8000000000000, 0xfff8001ff0000000,
	    SHF_MODS, B_REG, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("SHF_L_I", SOP_SHF_L, A, SASS_B_IMM, 0x36f8000000000000, 0xfff8001ffc000000,
	    SHF_MODS, UIMM(SR_IMM, 20, 6), GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("SHF_R_R", SOP_SHF_R, A, SASS_B_REG, 0x5cf8000000000000, 0xfff8001ff0000000,
	    SHF_MODS, B_REG, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("SHF_R_I", SOP_SHF_R, A, SASS_B_IMM, 0x38f8000000000000, 0xfff8001ffc000000,
	    SHF_MODS, UIMM(SR_IMM, 20, 6), GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
#define LEA_MODS PRED(SR_PD, 48), FLAG(SR_CC, 47), FLAG(SR_X, 46), FLAG(SR_NEGA, 45), \
                 UIMM(SR_SHIFT, 39, 5)
	ROW("LEA_R", SOP_LEA, A, SASS_B_REG,   0x5bd0000000000000, 0xfff8107ff0000000,
	    LEA_MODS, B_REG, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("LEA_C", SOP_LEA, A, SASS_B_CONST, 0x4bd0000000000000, 0xfff8100000000000,
	    LEA_MODS, B_CONST, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("LEA_I", SOP_LEA, A, SASS_B_IMM,   0x36d0000000000000, 0xfef8100000000000,
	    LEA_MODS, B_IMM20, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	/* LEA.HI: Rd = Ra:Rc shifted right by 32 - shift, plus B. */
	ROW("LEA_HI_R", SOP_LEA_HI, A, SASS_B_REG, 0x5bd8000000000000, 0xfff8001e00000000,
	    PRED(SR_PD, 48), FLAG(SR_CC, 47), REG(SR_RC, 39), FLAG(SR_X, 38), FLAG(SR_NEGA, 37),
	    UIMM(SR_SHIFT, 28, 5), B_REG, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("LEA_HI_C", SOP_LEA_HI, A, SASS_B_CONST, 0x1800000000000000, 0xfc00000000000000,
	    FLAG(SR_X, 57), FLAG(SR_NEGA, 56), UIMM(SR_SHIFT, 51, 5), PRED(SR_PD, 48),
	    FLAG(SR_CC, 47), REG(SR_RC, 39), B_CONST, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
#define IADD3_MODS FLAG(SR_NEGA, 51), FLAG(SR_NEGB, 50), FLAG(SR_NEGC, 49), FLAG(SR_X, 48), \
                   FLAG(SR_CC, 47), REG(SR_RC, 39)
	/* Only the register form has the shift and half-select modifiers; the
	 * immediate is 20 bits, unsigned. */
	ROW("IADD3_R", SOP_IADD3, A, SASS_B_REG,   0x5cc0000000000000, 0xfff0000070000000,
	    IADD3_MODS, ENUMF(SR_SHIFTMODE, 37, 2, e_shiftmode), ENUMF(SR_HSEL_A, 35, 2, e_hsel),
	    ENUMF(SR_HSEL_B, 33, 2, e_hsel), ENUMF(SR_HSEL_C, 31, 2, e_hsel),
	    B_REG, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("IADD3_C", SOP_IADD3, A, SASS_B_CONST, 0x4cc0000000000000, 0xfff0000000000000,
	    IADD3_MODS, B_CONST, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("IADD3_I", SOP_IADD3, A, SASS_B_IMM,   0x38c0000000000000, 0xfef0000000000000,
	    IADD3_MODS, { SR_IMM, SASS_FK_UIMM, 20, 19, 56, 1, NULL },
	    GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	/* I2I has no A operand: bits 13:8 hold the two types. */
#define I2I_MODS FLAG(SR_SAT, 50), FLAG(SR_ABS, 49), FLAG(SR_CC, 47), FLAG(SR_NEGB, 45), \
                 UIMM(SR_BYTESEL, 41, 2), ENUM_SPLIT(SR_STYPE, 13, 10, e_i2i_stype), \
                 ENUM_SPLIT(SR_DTYPE, 12, 8, e_i2i_dtype)
	ROW("I2I_R", SOP_I2I, V, SASS_B_REG,   0x5ce0000000000000, 0xfff959fff000c000,
	    I2I_MODS, B_REG, GUARD, REG(SR_RD, 0)),
	ROW("I2I_C", SOP_I2I, V, SASS_B_CONST, 0x4ce0000000000000, 0xfff959800000c000,
	    I2I_MODS, B_CONST, GUARD, REG(SR_RD, 0)),
	ROW("I2I_I", SOP_I2I, V, SASS_B_IMM,   0x38e0000000000000, 0xfef959800000c000,
	    I2I_MODS, B_IMM20, GUARD, REG(SR_RD, 0)),
	ROW("PSETP", SOP_PSETP, A, SASS_B_NONE, 0x5090000000000000, 0xffff987e1cf00fc0,
	    ENUMF(SR_BOP2, 45, 2, e_bop), FLAG(SR_PC_NOT, 42), PRED(SR_PC, 39),
	    FLAG(SR_PB_NOT, 32), PRED(SR_PB, 29), ENUMF(SR_BOP, 24, 2, e_bop), GUARD,
	    FLAG(SR_PA_NOT, 15), PRED(SR_PA, 12), PRED(SR_PD, 3), PRED(SR_PQ, 0)),

	/* ---- single-precision float ---- */
	/* B_FIMM20: the top 20 bits of an f32 (bits 30:12 in 38:20, the sign in 56). */
#define B_FIMM20     { SR_IMM, SASS_FK_UIMM, 20, 19, 56, 1, NULL }
#define FADD_MODS FLAG(SR_SAT, 50), FLAG(SR_ABSB, 49), FLAG(SR_NEGA, 48), FLAG(SR_CC, 47), \
                  FLAG(SR_ABSA, 46), FLAG(SR_NEGB, 45), FLAG(SR_FTZ, 44), ENUMF(SR_RND, 39, 2, e_rnd)
	ROW("FADD_R", SOP_FADD, A, SASS_B_REG,   0x5c58000000000000, 0xfff80e7ff0000000,
	    FADD_MODS, B_REG, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("FADD_C", SOP_FADD, A, SASS_B_CONST, 0x4c58000000000000, 0xfff80e0000000000,
	    FADD_MODS, B_CONST, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("FADD_I", SOP_FADD, A, SASS_B_IMM,   0x3858000000000000, 0xfef80e0000000000,
	    FADD_MODS, B_FIMM20, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("FADD32I", SOP_FADD32I, A, SASS_B_NONE, 0x0800000000000000, 0xfc00000000000000,
	    FLAG(SR_ABSB, 57), FLAG(SR_NEGA, 56), FLAG(SR_FTZ, 55), FLAG(SR_ABSA, 54),
	    FLAG(SR_NEGB, 53), FLAG(SR_CC, 52), UIMM(SR_IMM, 20, 32), GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
#define FMUL_MODS FLAG(SR_SAT, 50), FLAG(SR_NEGB, 48), FLAG(SR_CC, 47), ENUMF(SR_FMZ, 44, 2, e_fmz), \
                  ENUMF(SR_SCALE, 41, 3, e_scale), ENUMF(SR_RND, 39, 2, e_rnd)
	ROW("FMUL_R", SOP_FMUL, A, SASS_B_REG,   0x5c68000000000000, 0xfffa407ff0000000,
	    FMUL_MODS, B_REG, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("FMUL_C", SOP_FMUL, A, SASS_B_CONST, 0x4c68000000000000, 0xfffa400000000000,
	    FMUL_MODS, B_CONST, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("FMUL_I", SOP_FMUL, A, SASS_B_IMM,   0x3868000000000000, 0xfefa400000000000,
	    FMUL_MODS, B_FIMM20, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("FMUL32I", SOP_FMUL32I, A, SASS_B_NONE, 0x1e00000000000000, 0xff00000000000000,
	    FLAG(SR_SAT, 55), ENUMF(SR_FMZ, 53, 2, e_fmz), FLAG(SR_CC, 52),
	    UIMM(SR_IMM, 20, 32), GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	/* NEGB negates the product, NEGC the addend. */
#define FFMA_MODS ENUMF(SR_FMZ, 53, 2, e_fmz), ENUMF(SR_RND, 51, 2, e_rnd), FLAG(SR_SAT, 50), \
                  FLAG(SR_NEGC, 49), FLAG(SR_NEGB, 48), FLAG(SR_CC, 47)
	ROW("FFMA_R", SOP_FFMA, A, SASS_B_REG,   0x5980000000000000, 0xff80007ff0000000,
	    FFMA_MODS, REG(SR_RC, 39), B_REG, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("FFMA_C", SOP_FFMA, A, SASS_B_CONST, 0x4980000000000000, 0xff80000000000000,
	    FFMA_MODS, REG(SR_RC, 39), B_CONST, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	/* B is a register (bits 46:39), C the constant. */
	ROW("FFMA_RC", SOP_FFMA, A, SASS_B_RC,   0x5180000000000000, 0xff80000000000000,
	    FFMA_MODS, REG(SR_RB, 39), B_CONST, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("FFMA_I", SOP_FFMA, A, SASS_B_IMM,   0x3280000000000000, 0xfe80000000000000,
	    FFMA_MODS, REG(SR_RC, 39), B_FIMM20, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
#define FMNMX_MODS FLAG(SR_ABSB, 49), FLAG(SR_NEGA, 48), FLAG(SR_CC, 47), FLAG(SR_ABSA, 46), \
                   FLAG(SR_NEGB, 45), FLAG(SR_FTZ, 44), FLAG(SR_PC_NOT, 42), PRED(SR_PC, 39)
	ROW("FMNMX_R", SOP_FMNMX, A, SASS_B_REG,   0x5c60000000000000, 0xfffc087ff0000000,
	    FMNMX_MODS, B_REG, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("FMNMX_C", SOP_FMNMX, A, SASS_B_CONST, 0x4c60000000000000, 0xfffc080000000000,
	    FMNMX_MODS, B_CONST, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
	ROW("FMNMX_I", SOP_FMNMX, A, SASS_B_IMM,   0x3860000000000000, 0xfefc080000000000,
	    FMNMX_MODS, B_FIMM20, GUARD, REG(SR_RA, 8), REG(SR_RD, 0)),
#define FSETP_MODS ENUMF(SR_CMP, 48, 4, e_fcmp), FLAG(SR_FTZ, 47), ENUMF(SR_BOP, 45, 2, e_bop), \
                   FLAG(SR_ABSB, 44), FLAG(SR_NEGA, 43), FLAG(SR_PC_NOT, 42), PRED(SR_PC, 39)
#define FSETP_DST  GUARD, REG(SR_RA, 8), FLAG(SR_ABSA, 7), FLAG(SR_NEGB, 6), PRED(SR_PD, 3), \
                   PRED(SR_PQ, 0)
	ROW("FSETP_R", SOP_FSETP, A, SASS_B_REG,   0x5bb0000000000000, 0xfff0007ff0000000,
	    FSETP_MODS, B_REG, FSETP_DST),
	ROW("FSETP_C", SOP_FSETP, A, SASS_B_CONST, 0x4bb0000000000000, 0xfff0000000000000,
	    FSETP_MODS, B_CONST, FSETP_DST),
	ROW("FSETP_I", SOP_FSETP, A, SASS_B_IMM,   0x36b0000000000000, 0xfef0000000000000,
	    FSETP_MODS, B_FIMM20, FSETP_DST),
	/* Conversions have no A operand; bits 13:8 hold the two types. They
	 * go through the multi-function unit: variable latency. */
#define I2F_MODS FLAG(SR_ABSB, 49), FLAG(SR_CC, 47), FLAG(SR_NEGB, 45), UIMM(SR_BYTESEL, 41, 2), \
                 ENUMF(SR_RND, 39, 2, e_rnd), ENUM_SPLIT(SR_STYPE, 13, 10, e_int_type), \
                 ENUMF(SR_DTYPE, 8, 2, e_float_type)
	ROW("I2F_R", SOP_I2F, V, SASS_B_REG,   0x5cb8000000000000, 0xfffd587ff000d000,
	    I2F_MODS, B_REG, GUARD, REG(SR_RD, 0)),
	ROW("I2F_C", SOP_I2F, V, SASS_B_CONST, 0x4cb8000000000000, 0xfffd58000000d000,
	    I2F_MODS, B_CONST, GUARD, REG(SR_RD, 0)),
#define F2I_MODS FLAG(SR_ABSB, 49), FLAG(SR_CC, 47), FLAG(SR_NEGB, 45), FLAG(SR_FTZ, 44), \
                 ENUMF(SR_RND, 39, 2, e_f2i_rnd), ENUM_SPLIT(SR_DTYPE, 12, 8, e_f2i_type), \
                 ENUMF(SR_STYPE, 10, 2, e_float_type)
	ROW("F2I_R", SOP_F2I, V, SASS_B_REG,   0x5cb0000000000000, 0xfffd4e7ff000e000,
	    F2I_MODS, B_REG, GUARD, REG(SR_RD, 0)),
	ROW("F2I_C", SOP_F2I, V, SASS_B_CONST, 0x4cb0000000000000, 0xfffd4e000000e000,
	    F2I_MODS, B_CONST, GUARD, REG(SR_RD, 0)),

	/* ---- control ---- */
	ROW("BRA", SOP_BRA, C, SASS_B_NONE, 0xe240000000000000, 0xfffff0000000ff60,
	    SIMM(SR_IMM, 20, 24), GUARD, FLAG(SR_U, 7), ENUMF(SR_COND, 0, 5, e_cond)),
	ROW("EXIT", SOP_EXIT, C, SASS_B_NONE, 0xe30000000000000f, 0xfffffffffff0ffff,
	    GUARD),
	ROW("NOP", SOP_NOP, A, SASS_B_NONE, 0x50b0000000000f00, 0xfffffff00000ffff,
	    UIMM(SR_IMM, 20, 16), GUARD),
	ROW("DEPBAR", SOP_DEPBAR, C, SASS_B_NONE, 0xf0f0000000000000, 0xffffffffc000ffc0,
	    FLAG(SR_LE, 29), ENUMF(SR_SCOREBOARD, 26, 3, e_scoreboard), UIMM(SR_CNT, 20, 6), GUARD, UIMM(SR_WMASK, 0, 6)),
};

#undef V
#undef A
#undef C

const size_t sass_form_count = COUNT_OF(sass_forms);

/* The lowering looks forms up by name for every instruction it emits: an
 * open-addressing hash of the names, built on first use. */
enum { NAME_HASH_SIZE = 512 };

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

const SassForm *sass_form_by_name(const char *name)
{
	static int16_t table[NAME_HASH_SIZE];
	static OnceFlag built;
	if (once_claim(&built)) {
		for (size_t h = 0; h < NAME_HASH_SIZE; h++)
			table[h] = -1;
		for (size_t i = 0; i < sass_form_count && i < NAME_HASH_SIZE / 2; i++) {
			uint32_t h = name_hash(sass_forms[i].name) % NAME_HASH_SIZE;
			while (table[h] >= 0 && strcmp(sass_forms[table[h]].name, sass_forms[i].name) != 0)
				h = (h + 1) % NAME_HASH_SIZE;
			if (table[h] < 0)
				table[h] = (int16_t)i;
		}
		once_done(&built);
	}
	for (uint32_t h = name_hash(name) % NAME_HASH_SIZE; table[h] >= 0; h = (h + 1) % NAME_HASH_SIZE)
		if (strcmp(sass_forms[table[h]].name, name) == 0)
			return &sass_forms[table[h]];
	return NULL;
}

int sass_form_field_index(const SassForm *f, SassRole r)
{
	/* position + 1 of each role's field in each form (0: none), built on
	 * first use: the lowering sets a field value by role for every operand
	 * it emits, and a search of up to 16 fields each time adds up */
	static uint8_t pos[COUNT_OF(sass_forms)][SR_COUNT];
	static OnceFlag built;
	if (once_claim(&built)) {
		for (size_t i = 0; i < sass_form_count; i++)
			for (unsigned j = 0; j < sass_forms[i].nfields; j++)
				pos[i][sass_forms[i].fields[j].role] = (uint8_t)(j + 1);
		once_done(&built);
	}
	return (int)pos[f - sass_forms][r] - 1;
}

const SassField *sass_form_field(const SassForm *f, SassRole r)
{
	for (unsigned i = 0; i < f->nfields; i++)
		if (f->fields[i].role == r)
			return &f->fields[i];
	return NULL;
}

static const char *const role_names[SR_COUNT] = {
	[SR_PG] = "pg", [SR_PG_NOT] = "pg_not", [SR_RD] = "rd", [SR_RA] = "ra",
	[SR_RB] = "rb", [SR_RC] = "rc", [SR_IMM] = "imm", [SR_CBANK] = "cbank",
	[SR_COFF] = "coff", [SR_SUIDX] = "suidx", [SR_BA] = "ba", [SR_SIZE] = "size",
	[SR_COP] = "cop", [SR_CLAMP] = "clamp", [SR_GEOM] = "geom", [SR_RGBA] = "rgba",
	[SR_SUOP] = "suop", [SR_SUTYPE] = "sutype", [SR_UNUSED] = "unused", [SR_E] = "e",
	[SR_LDCMODE] = "ldcmode", [SR_LANEMASK] = "lanemask", [SR_SREG] = "sreg",
	[SR_SAT] = "sat", [SR_NEG] = "neg", [SR_NEGA] = "nega", [SR_CC] = "cc", [SR_X] = "x",
	[SR_SHIFT] = "shift", [SR_W] = "w", [SR_SIGNED] = "signed", [SR_BREV] = "brev",
	[SR_LOPOP] = "lopop", [SR_INVA] = "inva", [SR_INVB] = "invb", [SR_CMP] = "cmp",
	[SR_BOP] = "bop", [SR_PD] = "pd", [SR_PQ] = "pq", [SR_PC] = "pc",
	[SR_PC_NOT] = "pc_not", [SR_HA] = "ha", [SR_HB] = "hb", [SR_SA] = "sa",
	[SR_SB] = "sb", [SR_CMODE] = "cmode", [SR_MRG] = "mrg", [SR_PSL] = "psl",
	[SR_COND] = "cond", [SR_U] = "u", [SR_NODEP] = "nodep", [SR_QUERY] = "query",
	[SR_QMASK] = "qmask", [SR_LE] = "le", [SR_SCOREBOARD] = "scoreboard", [SR_CNT] = "cnt",
	[SR_WMASK] = "wmask", [SR_NEGB] = "negb", [SR_NEGC] = "negc", [SR_ABS] = "abs",
	[SR_BYTESEL] = "bytesel", [SR_DTYPE] = "dtype", [SR_STYPE] = "stype",
	[SR_XMODE] = "xmode", [SR_HI] = "hi", [SR_MAXSHIFT] = "maxshift",
	[SR_SHIFTMODE] = "shiftmode", [SR_HSEL_A] = "hsel_a", [SR_HSEL_B] = "hsel_b",
	[SR_HSEL_C] = "hsel_c", [SR_PA] = "pa", [SR_PA_NOT] = "pa_not", [SR_PB] = "pb",
	[SR_PB_NOT] = "pb_not", [SR_BOP2] = "bop2", [SR_ABSA] = "absa", [SR_ABSB] = "absb",
	[SR_FTZ] = "ftz", [SR_FMZ] = "fmz", [SR_RND] = "rnd", [SR_SCALE] = "scale",
};

const char *sass_role_name(SassRole r)
{
	if ((unsigned)r >= SR_COUNT || role_names[r] == NULL)
		return "?";
	return role_names[r];
}
