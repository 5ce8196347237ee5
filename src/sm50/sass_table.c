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
/* LDL's cache operators: .LU (last use) where LDG has .CG. */
static const char *const e_cop_ldl_names[] = { "", "LU", "CI", "CV" };
ENUM(e_cop_ldl, NULL);

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

/* issue 17: LOP's predicate output tests the result (bit 45 set: .Z, .NZ) */
static const char *const e_loptest_names[] = { "Z", "NZ" };
ENUM(e_loptest, NULL);
/* ---- ctrl: BAR.RED reductions (3 prints INVALIDBARMODE3 in nvdisasm) ---- */
static const char *const e_barred_names[] = { "POPC", "AND", "OR" };
ENUM(e_barred, NULL);

/* divrn: FCHK's check; nvdisasm names the other values INVALIDCHKMODEn */
static const char *const e_chkmode_names[] = { "DIVIDE" };
ENUM(e_chkmode, "INVALIDCHKMODE%u");

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

/* ---- issue 17: textures ----
 * Geometry of TEX/TLD/TLD4 (bits 30:28), as nvdisasm 11.8 names them. */
static const char *const e_texgeom_names[] = {
	"1D", "ARRAY_1D", "2D", "ARRAY_2D", "3D", NULL, "CUBE", "ARRAY_CUBE",
};
ENUM(e_texgeom, NULL);
/* TEX level of detail: none, .LZ (level 0), .LB (bias), .LL (level); .LLA
 * the level with an array (nvdisasm calls 4 INVALIDBLOD4). */
static const char *const e_texlod_names[] = { "", "LZ", "LB", "LL", NULL, NULL, NULL, "LLA" };
ENUM(e_texlod, NULL);
/* TLD: level 0 or a level register. */
static const char *const e_tldlod_names[] = { "LZ", "LL" };
ENUM(e_tldlod, NULL);
/* TLD4 offsets: none, one per instruction (.AOFFI), per pixel (.PTP). */
static const char *const e_texoff_names[] = { "", "AOFFI", "PTP" };
ENUM(e_texoff, NULL);
static const char *const e_gather_names[] = { "R", "G", "B", "A" };
ENUM(e_gather, NULL);

/* ---- sim4: the compact texture forms (TEXS, TLDS) ----
 * One code names geometry and mode (nvdisasm 11.8's tables Tex2D4 and
 * Tld2D4; the codes it rejects are NULL). The value names are the mode
 * modifiers; sass_texs_target gives the rest. */
static const char *const e_texs_target_names[] = {
	"LZ", "", "LZ", "LL", "DC", "LL.DC", "LZ.DC", "", "LZ", "LZ.DC", "", "LZ", "", "LL",
};
ENUM(e_texs_target, NULL);
static const char *const e_tlds_target_names[] = {
	"LZ", "LL", "LZ", NULL, "LZ.AOFFI", "LL", "LZ.MS", "LZ", "LZ", NULL, NULL, NULL, "LL.AOFFI",
};
ENUM(e_tlds_target, NULL);

/* sim4: VABSDIFF's operand formats (selection | signed << 3; nvdisasm
 * prints the part as a register suffix, .B1 ... .H1) and second operation. */
static const char *const e_vfmt_names[] = {
	"U8", "U8", "U8", "U8", "U16", "U16", "U32", NULL, "S8", "S8", "S8", "S8", "S16", "S16", "S32", NULL,
};
ENUM(e_vfmt, NULL);
static const char *const e_vmode_names[] = { "MRG_16H", "MRG_16L", "MRG_8B0", "MRG_8B2", "ACC", "MIN", "MAX", "" };
ENUM(e_vmode, NULL);

/* video: VABSDIFF4's lane formats (both S8 print nothing, the printer's
 * choice), byte selections (nvdisasm's digits, the result lane 3 first;
 * B's bytes are numbered 4-7; B's code 15 is the immediate form, no row),
 * written lanes and accumulation. */
static const char *const e_v4fmt_names[] = { "U8", "S8" };
ENUM(e_v4fmt, NULL);
static const char *const e_vsel4a_names[] = {
	"0000", "1111", "2222", "3333", "", "4321", "5432", "6543",
	"3201", "3012", "0213", "3120", "1230", "2310",
};
ENUM(e_vsel4a, "INVALIDASEL4%X");
static const char *const e_vsel4b_names[] = {
	"4444", "5555", "6666", "7777", "", "6543", "5432", "4321",
	"4567", "6745", "5476", "INVALIDBSEL4B", "INVALIDBSEL4C", "INVALIDBSEL4D", "INVALIDBSEL4E",
};
ENUM(e_vsel4b, NULL);
static const char *const e_vlanes_names[] = {
	"???0", "X", "Y", "XY", "Z", "XZ", "YZ", "XYZ", "W", "XW", "YW", "XYW", "ZW", "XZW", "YZW", "",
};
ENUM(e_vlanes, NULL);
static const char *const e_vred_names[] = { "", "ACC" };
ENUM(e_vred, "INVALIDRED%u");
/* video2: the format of a scalar video form's 16-bit immediate B (bit 49,
 * B's sign) and VMAD's final shift. */
static const char *const e_vimmfmt_names[] = { "U16", "S16" };
ENUM(e_vimmfmt, NULL);
static const char *const e_vscale_names[] = { "", "SHR_7", "SHR_15" };
ENUM(e_vscale, "INVALIDVMADSCALE%u");

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
/* legacy2: FCMP's comparisons, FSETP's but GT (4), which nvdisasm 11.8
 * leaves out (the SASS assembler's default). */
static const char *const e_fcmp_sel_names[] = {
	"F", "LT", "EQ", "LE", "", "NE", "GE", "NUM",
	"NAN", "LTU", "EQU", "LEU", "GTU", "NEU", "GEU", "T",
};
ENUM(e_fcmp_sel, NULL);
/* I2F source and F2I destination integer types: signed | size << 1. */
static const char *const e_int_type_names[] = { "U8", "S8", "U16", "S16", "U32", "S32", "U64", "S64" };
ENUM(e_int_type, NULL);
/* F2I has no 8-bit destination. */
static const char *const e_f2i_type_names[] = { NULL, NULL, "U16", "S16", "U32", "S32", "U64", "S64" };
ENUM(e_f2i_type, "INVALID%u");
/* Float format of I2F's destination and F2I's source; 0 has no name. */
static const char *const e_float_type_names[] = { NULL, "F16", "F32", "F64" };
ENUM(e_float_type, NULL);

/* ---- value names of the instruction families ---- */

/* PRMT byte-select modes; 0 (the selector register's four nibbles) prints
 * nothing, 7 is nvdisasm's INVALIDPMODE7. */
static const char *const e_pmode_names[] = { "", "F4E", "B4E", "RC8", "ECL", "ECR", "RC16" };
ENUM(e_pmode, "INVALIDPMODE%u");

/* BAR operations the table models; RED (2) and SCAN (3) take a predicate
 * and a reduction, which these rows hold at PT and 0. */
static const char *const e_barmode_names[] = { "SYNC", "ARV" };
ENUM(e_barmode, NULL);
static const char *const e_mblevel_names[] = { "CTA", "GL", "SYS", "VC" };
ENUM(e_mblevel, NULL);
static const char *const e_ivall_names[] = { "", "IVALLD", "IVALLT", "IVALLTD" };
ENUM(e_ivall, NULL);

/* ---- texcache: cache control ----
 * CCTL/CCTLL operations as nvdisasm 11.8 names them: 1 .PF1, 3 .PF2 (the
 * prefetches ptxas writes for prefetch{u} .L1/.L2). The other codes
 * (QRY1, PF1.5, WB, IV, RS, RSLB; 6 and 8 nvdisasm refuses) are no PTX
 * instruction's on sm_50 and are not modelled. */
static const char *const e_cctlop_names[] = { NULL, "PF1", NULL, "PF2" };
ENUM(e_cctlop, NULL);
static const char *const e_mufuop_names[] = { "COS", "SIN", "EX2", "LG2", "RCP", "RSQ", "RCP64H", "RSQ64H" };
ENUM(e_mufuop, NULL);   /* 8-15: nvdisasm names them INVALIDMUFUOPCODEn */
static const char *const e_rroop_names[] = { "SINCOS", "EX2" };
ENUM(e_rroop, NULL);

/* ---- issue 17 part 1: atomics and warp operations ---- */
static const char *const e_atomop_names[] = {
	"ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "EXCH", NULL, "SAFEADD",
};
ENUM(e_atomop, "INVALIDATOMOP%u");
static const char *const e_atomsop_names[] = { "ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "EXCH" };
ENUM(e_atomsop, "INVALIDATOMSOP%u");
static const char *const e_atomsize_names[] = { "", "S32", "U64", "F32.FTZ.RN", "U128", "S64" };
ENUM(e_atomsize, "INVALIDATOMICSIZE%u");
static const char *const e_atomssize_names[] = { "", "S32", "U64", "S64" };
ENUM(e_atomssize, NULL);
/* The CAS forms' width: .CAS or .CAS.64 (one spelling, so that the text
 * assembler needs one). */
static const char *const e_cas_names[] = { "CAS", "CAS.64" };
ENUM(e_cas, NULL);
static const char *const e_shflmode_names[] = { "IDX", "UP", "DOWN", "BFLY" };
ENUM(e_shflmode, NULL);
static const char *const e_votemode_names[] = { "ALL", "ANY", "EQ" };
ENUM(e_votemode, "INVALIDVMODE%u");
/* ---- value names of the decoder-only forms ptxas emits ---- */


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
#define W SASS_CLASS_VARLAT_ALU
#define A SASS_CLASS_ALU
#define C SASS_CLASS_FLOW

#define ROW(id, op, cls, bk, value, mask, ...) \
	[SF_##id] = { #id, op, cls, bk, value, mask, \
	              sizeof((SassField[]){ __VA_ARGS__ }) / sizeof(SassField), { __VA_ARGS__ } }

const SassForm sass_forms[SF_COUNT] = {
#include "sm50/sass_forms.def"
};
#undef ROW

#undef V
#undef W
#undef A
#undef C

const size_t sass_form_count = COUNT_OF(sass_forms);

int sass_size_code(unsigned bytes)
{
	switch (bytes) {
	case 1: return 0;
	case 2: return 2;
	case 4: return 4;
	case 8: return 5;
	case 16: return 6;
	default: return -1;
	}
}

const char *sass_op_mnemonic(SassOp op)
{
	static const char *const mnemonics[] = {
#define X(id, mnemonic) [SOP_##id] = mnemonic,
		SASS_OPS(X)
#undef X
	};
	return mnemonics[op];
}

/* By name, for tools and tests (gen_sass_words, the unit tests): the
 * assemblers select forms by id (SF_*) or by matching words and text. */
const SassForm *sass_form_by_name(const char *name)
{
	for (size_t i = 0; i < sass_form_count; i++)
		if (strcmp(sass_forms[i].name, name) == 0)
			return &sass_forms[i];
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
	[SR_COND] = "cond", [SR_TRIG] = "trig", [SR_U] = "u", [SR_NODEP] = "nodep", [SR_QUERY] = "query",
	[SR_QMASK] = "qmask", [SR_LE] = "le", [SR_SCOREBOARD] = "scoreboard", [SR_CNT] = "cnt",
	[SR_WMASK] = "wmask", [SR_NEGB] = "negb", [SR_NEGC] = "negc", [SR_ABS] = "abs",
	[SR_BYTESEL] = "bytesel", [SR_DTYPE] = "dtype", [SR_STYPE] = "stype",
	[SR_XMODE] = "xmode", [SR_HI] = "hi", [SR_MAXSHIFT] = "maxshift",
	[SR_SHIFTMODE] = "shiftmode", [SR_HSEL_A] = "hsel_a", [SR_HSEL_B] = "hsel_b",
	[SR_HSEL_C] = "hsel_c", [SR_PA] = "pa", [SR_PA_NOT] = "pa_not", [SR_PB] = "pb",
	[SR_PB_NOT] = "pb_not", [SR_BOP2] = "bop2", [SR_ABSA] = "absa", [SR_ABSB] = "absb",
	[SR_FTZ] = "ftz", [SR_FMZ] = "fmz", [SR_RND] = "rnd", [SR_SCALE] = "scale",
	[SR_SH] = "sh", [SR_PMODE] = "pmode", [SR_RNDINT] = "rndint",
	[SR_BARMODE] = "barmode", [SR_BARID] = "barid", [SR_BARCNT] = "barcnt", [SR_MBLEVEL] = "mblevel",
	[SR_IVALL] = "ivall", [SR_MUFUOP] = "mufuop", [SR_RROOP] = "rroop",
	[SR_ATOMOP] = "atomop", [SR_ATOMSIZE] = "atomsize", [SR_CAS64] = "cas64", [SR_WOFF] = "woff",
	[SR_SHFLMODE] = "shflmode", [SR_SHFLC] = "shflc", [SR_VOTEMODE] = "votemode",
	[SR_LUT] = "lut", [SR_BF] = "bf",
	[SR_TEXLOD] = "lod", [SR_NDV] = "ndv", [SR_DC] = "dc", [SR_AOFFI] = "offset", [SR_MS] = "ms",
	[SR_CL] = "cl", [SR_GATHER] = "component",
	[SR_RD2] = "rd2", [SR_TEXSTARGET] = "target", [SR_TEXSMASK] = "mask",
	[SR_VFMT_A] = "format_a", [SR_VFMT_B] = "format_b", [SR_VMODE] = "vmode", [SR_SD] = "sd",
	[SR_CHKMODE] = "chkmode",
	[SR_BARRED] = "barred",
	[SR_VSEL_A] = "select_a", [SR_VSEL_B] = "select_b", [SR_VLANES] = "lanes", [SR_VRED] = "red",
	[SR_VMAX] = "max", [SR_VSCALE] = "scale",
	[SR_CCTLOP] = "cctlop",
};

const char *sass_role_name(SassRole r)
{
	if ((unsigned)r >= SR_COUNT || role_names[r] == NULL)
		return "?";
	return role_names[r];
}

/* ---- sim4: the compact texture forms ---- */
const SassTexsTarget *sass_texs_target(SassOp op, int64_t target)
{
	/* geometry, e_texgeom, lod, dc, aoffi, ms */
	static const SassTexsTarget texs[] = {
		{ "1D", 0, 1, false, false, false }, { "2D", 2, 0, false, false, false },
		{ "2D", 2, 1, false, false, false }, { "2D", 2, 3, false, false, false },
		{ "2D", 2, 0, true, false, false }, { "2D", 2, 3, true, false, false },
		{ "2D", 2, 1, true, false, false }, { "ARRAY_2D", 3, 0, false, false, false },
		{ "ARRAY_2D", 3, 1, false, false, false }, { "ARRAY_2D", 3, 1, true, false, false },
		{ "3D", 4, 0, false, false, false }, { "3D", 4, 1, false, false, false },
		{ "CUBE", 6, 0, false, false, false }, { "CUBE", 6, 3, false, false, false },
	};
	static const SassTexsTarget tlds[] = {
		{ "1D", 0, 1, false, false, false }, { "1D", 0, 3, false, false, false },
		{ "2D", 2, 1, false, false, false }, { NULL, -1, 0, false, false, false },
		{ "2D", 2, 1, false, true, false }, { "2D", 2, 3, false, false, false },
		{ "2D", 2, 1, false, false, true }, { "3D", 4, 1, false, false, false },
		{ "ARRAY_2D", 3, 1, false, false, false }, { NULL, -1, 0, false, false, false },
		{ NULL, -1, 0, false, false, false }, { NULL, -1, 0, false, false, false },
		{ "2D", 2, 3, false, true, false },
	};
	const SassTexsTarget *t = NULL;
	if (op == SOP_TEXS && target >= 0 && (size_t)target < COUNT_OF(texs))
		t = &texs[target];
	else if (op == SOP_TLDS && target >= 0 && (size_t)target < COUNT_OF(tlds))
		t = &tlds[target];
	return t != NULL && t->geometry != NULL ? t : NULL;
}

/* nvdisasm's spelling; the components in the order they land in Rd, Rd+1,
 * then Rd2, Rd2+1. */
unsigned sass_texs_mask(int64_t code, bool pair2)
{
	static const unsigned one_pair[8] = { 0x1, 0x2, 0x4, 0x8, 0x3, 0x9, 0xa, 0xc };
	static const unsigned two_pairs[8] = { 0x7, 0xb, 0xd, 0xe, 0xf, 0, 0, 0 };
	return code < 0 || code > 7 ? 0 : pair2 ? two_pairs[code] : one_pair[code];
}

const char *sass_texs_mask_name(int64_t code, bool pair2)
{
	static const char *const one_pair[8] = { "R", "G", "B", "A", "RG", "RA", "GA", "BA" };
	static const char *const two_pairs[8] = { "RGB", "RGA", "RBA", "GBA", "RGBA", "INVALID5", "INVALID6", "INVALID7" };
	return code < 0 || code > 7 ? "?" : pair2 ? two_pairs[code] : one_pair[code];
}
