/* Instruction modifiers of SASS text. Enum modifiers are spelled by the form
 * table itself (its value names, the same ones the disassembler prints);
 * this file only lists, per printer family, which roles appear as
 * modifiers, the spelling of the one-bit flags, and the documented aliases
 * of default values (STG.WB, STG.32, ...). Modifiers may come in any
 * order; a default may be written or left out. */
#include "sasm/sass_asm_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool sasm_match_fail(SasmMatch *m, SrcLoc loc, RuleId rule, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m->err, sizeof m->err, fmt, ap);
	va_end(ap);
	m->err_loc = loc;
	m->err_rule = rule;
	return false;
}

/* A modifier: an enum field (spelling NULL: the field's value names), or
 * a spelled flag that sets role (and role2) to `on`, and to `off` when it is
 * absent and nothing else set the role. SR_COUNT as role: the TXQ phase,
 * which lives in the reuse bits of the control slot. */
typedef struct ModSpec {
	const char *spelling;
	SassRole role;
	int64_t on, off;
	SassRole role2;
	int64_t on2;
} ModSpec;

#define ENUM_MOD(r)          { NULL, r, 0, 0, SR_COUNT, 0 }
#define FLAG_MOD(s, r)       { s, r, 1, 0, SR_COUNT, 0 }
#define VALUE_MOD(s, r, v, d) { s, r, v, d, SR_COUNT, 0 }
#define PAIR_MOD(s, r, v, r2, v2) { s, r, v, 0, r2, v2 }
/* ... whose two roles are `d` when no spelling of theirs is written */
#define PAIR_MOD_DEFAULT(s, r, v, r2, v2, d) { s, r, v, d, r2, v2 }
#define END_MODS             { NULL, SR_COUNT, 0, 0, SR_COUNT, 0 }

static const ModSpec surface_mods[] = {
	FLAG_MOD("BA", SR_BA), ENUM_MOD(SR_GEOM), ENUM_MOD(SR_SUOP), ENUM_MOD(SR_COP),
	ENUM_MOD(SR_SIZE), ENUM_MOD(SR_SUTYPE), ENUM_MOD(SR_RGBA), ENUM_MOD(SR_CLAMP), END_MODS,
};
static const ModSpec txq_mods[] = {
	FLAG_MOD("NODEP", SR_NODEP), VALUE_MOD("T", SR_COUNT, 1, 0), VALUE_MOD("P", SR_COUNT, 2, 0),
	VALUE_MOD("INVALIDPHASE3", SR_COUNT, 3, 0), END_MODS,
};
/* issue 17: textures (TLD4's offset mode is an enum, TEX/TLD's a flag) */
static const ModSpec tex_mods[] = {
	ENUM_MOD(SR_TEXLOD), ENUM_MOD(SR_GATHER), FLAG_MOD("AOFFI", SR_AOFFI), VALUE_MOD("PTP", SR_AOFFI, 2, 0),
	FLAG_MOD("DC", SR_DC), FLAG_MOD("NDV", SR_NDV), FLAG_MOD("MS", SR_MS), FLAG_MOD("CL", SR_CL),
	FLAG_MOD("NODEP", SR_NODEP), VALUE_MOD("T", SR_COUNT, 1, 0), VALUE_MOD("P", SR_COUNT, 2, 0),
	VALUE_MOD("INVALIDPHASE3", SR_COUNT, 3, 0), END_MODS,
};
/* sim4: the compact texture forms (TEXS/TLDS: the mode spellings of the
 * target; the geometry operand then picks the target, sass_asm_insn.c) */
static const ModSpec texs_mods[] = {
	ENUM_MOD(SR_TEXSTARGET), ENUM_MOD(SR_GATHER), FLAG_MOD("AOFFI", SR_AOFFI), FLAG_MOD("DC", SR_DC),
	FLAG_MOD("NODEP", SR_NODEP), VALUE_MOD("T", SR_COUNT, 1, 0), VALUE_MOD("P", SR_COUNT, 2, 0),
	VALUE_MOD("INVALIDPHASE3", SR_COUNT, 3, 0), END_MODS,
};
/* sim4: VABSDIFF's formats (A's, then B's; sass_asm_insn.c writes the
 * .S32.S32 nvdisasm leaves out) */
static const ModSpec vabsdiff_mods[] = {
	FLAG_MOD("SD", SR_SD), ENUM_MOD(SR_VFMT_A), ENUM_MOD(SR_VFMT_B), FLAG_MOD("SAT", SR_SAT),
	ENUM_MOD(SR_VMODE), END_MODS,
};
/* video: VABSDIFF4's lane formats (A's, then B's; sass_asm_insn.c writes
 * the .S8.S8 nvdisasm leaves out), accumulation and written lanes */
static const ModSpec vabsdiff4_mods[] = {
	FLAG_MOD("SD", SR_SD), ENUM_MOD(SR_SA), ENUM_MOD(SR_SB), FLAG_MOD("SAT", SR_SAT),
	ENUM_MOD(SR_VRED), ENUM_MOD(SR_VLANES), END_MODS,
};
/* video2: the scalar video forms (.UD an unsigned result; the formats
 * nvdisasm leaves out are written by sasm_video_mods; .PO is VADD's -A -B
 * and VMAD's -A -C at once) */
static const ModSpec video_mods[] = {
	ENUM_MOD(SR_CMP), VALUE_MOD("UD", SR_SD, 0, 1), ENUM_MOD(SR_VFMT_A), ENUM_MOD(SR_VFMT_B),
	VALUE_MOD("PO", SR_NEG, 3, 0), PAIR_MOD("PO", SR_NEGA, 1, SR_NEGC, 1), FLAG_MOD("MX", SR_VMAX),
	FLAG_MOD("W", SR_W), ENUM_MOD(SR_VSCALE), FLAG_MOD("SAT", SR_SAT), ENUM_MOD(SR_VMODE), END_MODS,
};
static const ModSpec csetp_mods[] = { ENUM_MOD(SR_COND), ENUM_MOD(SR_BOP), END_MODS };
/* r2p14: P2R's byte of Rd (P2R of PR only: the CC row has no byte field) */
static const ModSpec p2r_mods[] = {
	VALUE_MOD("B1", SR_BYTESEL, 1, 0), VALUE_MOD("B2", SR_BYTESEL, 2, 0), VALUE_MOD("B3", SR_BYTESEL, 3, 0),
	END_MODS,
};
static const ModSpec global_mods[] = { FLAG_MOD("E", SR_E), ENUM_MOD(SR_COP), ENUM_MOD(SR_SIZE), END_MODS };
static const ModSpec window_mods[] = { FLAG_MOD("U", SR_U), ENUM_MOD(SR_COP), ENUM_MOD(SR_SIZE), END_MODS };
static const ModSpec ldc_mods[] = { ENUM_MOD(SR_SIZE), ENUM_MOD(SR_LDCMODE), END_MODS };
static const ModSpec no_mods[] = { END_MODS };
static const ModSpec iadd_mods[] = {
	VALUE_MOD("PO", SR_NEG, 3, 0), FLAG_MOD("SAT", SR_SAT), FLAG_MOD("X", SR_X), END_MODS,
};
static const ModSpec iadd32i_mods[] = { FLAG_MOD("SAT", SR_SAT), FLAG_MOD("X", SR_X), END_MODS };
static const ModSpec iscadd_mods[] = { VALUE_MOD("PO", SR_NEG, 3, 0), END_MODS };
static const ModSpec shift_mods[] = {
	VALUE_MOD("U32", SR_SIGNED, 0, 1), FLAG_MOD("W", SR_W), FLAG_MOD("X", SR_X),
	FLAG_MOD("BREV", SR_BREV), END_MODS,
};
static const ModSpec lop_mods[] = { ENUM_MOD(SR_LOPOP), ENUM_MOD(SR_LOPTEST), END_MODS };
static const ModSpec isetp_mods[] = {
	ENUM_MOD(SR_CMP), VALUE_MOD("U32", SR_SIGNED, 0, 1), FLAG_MOD("X", SR_X), ENUM_MOD(SR_BOP), END_MODS,
};
static const ModSpec xmad_mods[] = {
	PAIR_MOD("U16.U16", SR_SA, 0, SR_SB, 0), PAIR_MOD("S16.U16", SR_SA, 1, SR_SB, 0),
	PAIR_MOD("U16.S16", SR_SA, 0, SR_SB, 1), PAIR_MOD("S16.S16", SR_SA, 1, SR_SB, 1),
	FLAG_MOD("PSL", SR_PSL), ENUM_MOD(SR_CMODE), FLAG_MOD("MRG", SR_MRG), FLAG_MOD("X", SR_X), END_MODS,
};
static const ModSpec bra_mods[] = { FLAG_MOD("U", SR_U), END_MODS };
static const ModSpec depbar_mods[] = { FLAG_MOD("LE", SR_LE), END_MODS };
static const ModSpec nop_mods[] = { FLAG_MOD("TRIG", SR_TRIG), END_MODS };
static const ModSpec bfe_mods[] = { VALUE_MOD("U32", SR_SIGNED, 0, 1), FLAG_MOD("BREV", SR_BREV), END_MODS };
static const ModSpec imnmx_mods[] = { VALUE_MOD("U32", SR_SIGNED, 0, 1), ENUM_MOD(SR_XMODE), END_MODS };
static const ModSpec shf_mods[] = {
	FLAG_MOD("W", SR_W), ENUM_MOD(SR_MAXSHIFT), PAIR_MOD("XHI", SR_X, 1, SR_HI, 1),
	FLAG_MOD("X", SR_X), FLAG_MOD("HI", SR_HI), END_MODS,
};
static const ModSpec lea_mods[] = { FLAG_MOD("X", SR_X), END_MODS };
static const ModSpec iadd3_mods[] = { ENUM_MOD(SR_SHIFTMODE), FLAG_MOD("X", SR_X), END_MODS };
static const ModSpec i2i_mods[] = { ENUM_MOD(SR_DTYPE), ENUM_MOD(SR_STYPE), FLAG_MOD("SAT", SR_SAT), END_MODS };
static const ModSpec psetp_mods[] = { ENUM_MOD(SR_BOP), ENUM_MOD(SR_BOP2), END_MODS };
static const ModSpec fadd_mods[] = { FLAG_MOD("FTZ", SR_FTZ), ENUM_MOD(SR_RND), FLAG_MOD("SAT", SR_SAT), END_MODS };
static const ModSpec fmul_mods[] = {
	ENUM_MOD(SR_FMZ), ENUM_MOD(SR_SCALE), ENUM_MOD(SR_RND), FLAG_MOD("SAT", SR_SAT), END_MODS,
};
static const ModSpec fsetp_mods[] = { ENUM_MOD(SR_CMP), FLAG_MOD("FTZ", SR_FTZ), ENUM_MOD(SR_BOP), END_MODS };
static const ModSpec conv_mods[] = {
	FLAG_MOD("FTZ", SR_FTZ), ENUM_MOD(SR_DTYPE), ENUM_MOD(SR_STYPE), ENUM_MOD(SR_RND), END_MODS,
};
/* the instruction families beyond the surface slice */
static const ModSpec flo_mods[] = { VALUE_MOD("U32", SR_SIGNED, 0, 1), FLAG_MOD("SH", SR_SH), END_MODS };
static const ModSpec prmt_mods[] = { ENUM_MOD(SR_PMODE), END_MODS };
static const ModSpec bar_mods[] = { ENUM_MOD(SR_BARMODE), END_MODS };
static const ModSpec bar_red_mods[] = { ENUM_MOD(SR_BARRED), END_MODS };    /* ctrl */
static const ModSpec membar_mods[] = { ENUM_MOD(SR_MBLEVEL), ENUM_MOD(SR_IVALL), END_MODS };
static const ModSpec mufu_mods[] = { ENUM_MOD(SR_MUFUOP), FLAG_MOD("SAT", SR_SAT), END_MODS };
static const ModSpec rro_mods[] = { ENUM_MOD(SR_RROOP), END_MODS };
static const ModSpec dfloat_mods[] = { ENUM_MOD(SR_RND), END_MODS };
static const ModSpec dsetp_mods[] = { ENUM_MOD(SR_CMP), ENUM_MOD(SR_BOP), END_MODS };
/* F2F's integral roundings set RND and RNDINT; .PASS is a mode between
 * equal types (RM) */
static const ModSpec f2f_mods[] = {
	FLAG_MOD("FTZ", SR_FTZ), ENUM_MOD(SR_DTYPE), ENUM_MOD(SR_STYPE), ENUM_MOD(SR_RND),
	PAIR_MOD("ROUND", SR_RND, 0, SR_RNDINT, 1), PAIR_MOD("FLOOR", SR_RND, 1, SR_RNDINT, 1),
	PAIR_MOD("CEIL", SR_RND, 2, SR_RNDINT, 1), PAIR_MOD("TRUNC", SR_RND, 3, SR_RNDINT, 1),
	VALUE_MOD("PASS", SR_RND, 1, 0), FLAG_MOD("SAT", SR_SAT), END_MODS,
};
/* the decoder-only forms ptxas emits: S32.S32 is the default of IMUL/IMAD */
#define MUL_TYPES \
	PAIR_MOD_DEFAULT("U32.U32", SR_SA, 0, SR_SB, 0, 1), PAIR_MOD_DEFAULT("U32.S32", SR_SA, 0, SR_SB, 1, 1), \
	PAIR_MOD_DEFAULT("S32.U32", SR_SA, 1, SR_SB, 0, 1), PAIR_MOD_DEFAULT("S32.S32", SR_SA, 1, SR_SB, 1, 1)
static const ModSpec imul_mods[] = { MUL_TYPES, FLAG_MOD("HI", SR_HI), END_MODS };
static const ModSpec imad_mods[] = {
	MUL_TYPES, FLAG_MOD("HI", SR_HI), PAIR_MOD("PO", SR_NEGA, 1, SR_NEGC, 1), FLAG_MOD("SAT", SR_SAT),
	FLAG_MOD("X", SR_X), END_MODS,
};
static const ModSpec lop3_mods[] = { VALUE_MOD("LUT", SR_LUT, 1, 0), ENUM_MOD(SR_LOPTEST), END_MODS };
static const ModSpec icmp_mods[] = { ENUM_MOD(SR_CMP), VALUE_MOD("U32", SR_SIGNED, 0, 1), END_MODS };
static const ModSpec fcmp_mods[] = { ENUM_MOD(SR_CMP), FLAG_MOD("FTZ", SR_FTZ), END_MODS };
static const ModSpec pset_mods[] = { FLAG_MOD("BF", SR_BF), ENUM_MOD(SR_BOP), ENUM_MOD(SR_BOP2), END_MODS };
static const ModSpec iset_mods[] = {
	FLAG_MOD("BF", SR_BF), ENUM_MOD(SR_CMP), VALUE_MOD("U32", SR_SIGNED, 0, 1), FLAG_MOD("X", SR_X),
	ENUM_MOD(SR_BOP), END_MODS,
};
/* divrn: the f32 division check and float set */
static const ModSpec fchk_mods[] = { ENUM_MOD(SR_CHKMODE), END_MODS };
static const ModSpec fset_mods[] = {
	FLAG_MOD("BF", SR_BF), ENUM_MOD(SR_CMP), FLAG_MOD("FTZ", SR_FTZ), ENUM_MOD(SR_BOP), END_MODS,
};
static const ModSpec dset_mods[] = { FLAG_MOD("BF", SR_BF), ENUM_MOD(SR_CMP), ENUM_MOD(SR_BOP), END_MODS };

/* issue 17 part 1: atomics and warp operations */
static const ModSpec atom_mods[] = {
	FLAG_MOD("E", SR_E), ENUM_MOD(SR_CAS64), ENUM_MOD(SR_ATOMOP), ENUM_MOD(SR_ATOMSIZE), END_MODS,
};
static const ModSpec shfl_mods[] = { ENUM_MOD(SR_SHFLMODE), END_MODS };
static const ModSpec vote_mods[] = { ENUM_MOD(SR_VOTEMODE), END_MODS };
/* texcache: cache control */
static const ModSpec cctl_mods[] = { FLAG_MOD("E", SR_E), ENUM_MOD(SR_CCTLOP), END_MODS };
static const ModSpec cctll_mods[] = { ENUM_MOD(SR_CCTLOP), END_MODS };

static const ModSpec *family_mods(SassOp op)
{
	switch (op) {
	case SOP_SUST_D: case SOP_SUST_P: case SOP_SULD_D: case SOP_SULD_P:
	case SOP_SURED_D: case SOP_SURED_P: return surface_mods;
	case SOP_TXQ: case SOP_TXQ_B: return txq_mods;
	case SOP_TEX: case SOP_TEX_B: case SOP_TLD: case SOP_TLD_B:
	case SOP_TLD4: case SOP_TLD4_B: case SOP_TXD: case SOP_TXD_B: return tex_mods;
	case SOP_STG: case SOP_LDG: case SOP_ST: case SOP_LD: return global_mods;
	case SOP_LDC: return ldc_mods;
	case SOP_LDS: case SOP_STS: case SOP_LDL: case SOP_STL: return window_mods;
	case SOP_IADD: return iadd_mods;
	case SOP_IADD32I: return iadd32i_mods;
	case SOP_ISCADD: return iscadd_mods;
	case SOP_SHL: case SOP_SHR: return shift_mods;
	case SOP_LOP: case SOP_LOP32I: return lop_mods;
	case SOP_ISETP: return isetp_mods;
	case SOP_XMAD: return xmad_mods;
	case SOP_BRA: return bra_mods;
	case SOP_DEPBAR: return depbar_mods;
	case SOP_NOP: return nop_mods;
	case SOP_BFE: return bfe_mods;
	case SOP_IMNMX: return imnmx_mods;
	case SOP_SHF_L: case SOP_SHF_R: return shf_mods;
	case SOP_LEA: case SOP_LEA_HI: return lea_mods;
	case SOP_IADD3: return iadd3_mods;
	case SOP_I2I: return i2i_mods;
	case SOP_PSETP: return psetp_mods;
	case SOP_FADD: case SOP_FADD32I: case SOP_FMNMX: return fadd_mods;
	case SOP_FMUL: case SOP_FMUL32I: case SOP_FFMA: return fmul_mods;
	case SOP_FSETP: return fsetp_mods;
	case SOP_I2F: case SOP_F2I: return conv_mods;
	case SOP_FLO: return flo_mods;
	case SOP_PRMT: return prmt_mods;
	case SOP_DADD: case SOP_DMUL: case SOP_DFMA: case SOP_DMNMX: return dfloat_mods;
	case SOP_DSETP: return dsetp_mods;
	case SOP_F2F: return f2f_mods;
	case SOP_BAR: return bar_mods;
	case SOP_BAR_RED: return bar_red_mods;
	case SOP_MEMBAR: return membar_mods;
	case SOP_CCTL: return cctl_mods;
	case SOP_CCTLL: return cctll_mods;
	case SOP_MUFU: return mufu_mods;
	case SOP_RRO: return rro_mods;
	case SOP_ATOM: case SOP_ATOM_CAS: case SOP_RED: case SOP_ATOMS: case SOP_ATOMS_CAS: return atom_mods;
	case SOP_SHFL: return shfl_mods;
	case SOP_VOTE: return vote_mods;
	case SOP_IMUL: case SOP_IMUL32I: return imul_mods;
	case SOP_IMAD: return imad_mods;
	case SOP_LOP3: return lop3_mods;
	case SOP_ICMP: return icmp_mods;
	case SOP_FCMP: return fcmp_mods;
	case SOP_PSET: return pset_mods;
	case SOP_ISET: return iset_mods;
	case SOP_TEXS: case SOP_TLDS: case SOP_TLD4S: return texs_mods;
	case SOP_CSETP: return csetp_mods;
	case SOP_P2R: return p2r_mods;
	case SOP_VABSDIFF: return vabsdiff_mods;
	case SOP_VABSDIFF4: return vabsdiff4_mods;
	case SOP_VADD: case SOP_VMNMX: case SOP_VSET: case SOP_VSHL: case SOP_VSHR: case SOP_VMAD: return video_mods;
	case SOP_FCHK: return fchk_mods;
	case SOP_FSET: return fset_mods;
	case SOP_DSET: return dset_mods;
	default: return no_mods;
	}
}

/* Spellings of default values that nvdisasm leaves out but NVIDIA's
 * documentation writes (STG{.cop}{.sz}: .WB*, .32*; .8/.16 store the low
 * bits whatever their sign). */
typedef struct EnumAlias { SassOp op; SassRole role; const char *spelling; int64_t value; } EnumAlias;
static const EnumAlias aliases[] = {
	{ SOP_STG, SR_COP, "WB", 0 }, { SOP_STG, SR_SIZE, "32", 4 },
	{ SOP_STG, SR_SIZE, "8", 0 }, { SOP_STG, SR_SIZE, "16", 2 },
	{ SOP_LDG, SR_COP, "CA", 0 }, { SOP_LDG, SR_SIZE, "32", 4 },
	{ SOP_LDC, SR_SIZE, "32", 4 },
	{ SOP_LDS, SR_SIZE, "32", 4 }, { SOP_STS, SR_SIZE, "32", 4 },
	{ SOP_LD, SR_SIZE, "32", 4 }, { SOP_ST, SR_SIZE, "32", 4 },
	{ SOP_LDL, SR_SIZE, "32", 4 }, { SOP_STL, SR_SIZE, "32", 4 },
	{ SOP_SUST_D, SR_COP, "WB", 0 }, { SOP_SULD_D, SR_COP, "CA", 0 },
	{ SOP_SUST_P, SR_COP, "WB", 0 }, { SOP_SULD_P, SR_COP, "CA", 0 },
	{ SOP_SUST_D, SR_SIZE, "32", 4 }, { SOP_SULD_D, SR_SIZE, "32", 4 },
	{ SOP_SUST_D, SR_CLAMP, "Z", 1 }, { SOP_SULD_D, SR_CLAMP, "Z", 1 },
	{ SOP_SURED_D, SR_CLAMP, "Z", 1 }, { SOP_SUST_P, SR_CLAMP, "Z", 1 },
	{ SOP_SULD_P, SR_CLAMP, "Z", 1 }, { SOP_SURED_P, SR_CLAMP, "Z", 1 },
};

/* Formatted-surface component masks: the letters of the set bits. */
static bool rgba_spelling(unsigned mask, char *buf)
{
	size_t n = 0;
	for (unsigned i = 0; i < 4; i++)
		if ((mask >> i) & 1)
			buf[n++] = "RGBA"[i];
	buf[n] = '\0';
	return n > 0;
}

static bool same(const char *spelling, const char *text, size_t len)
{
	return strlen(spelling) == len && memcmp(spelling, text, len) == 0;
}

int64_t sasm_enum_value(const SassForm *f, const SassField *fld, const char *text, size_t len)
{
	unsigned nvalues = 1u << (fld->width + fld->hi_width);
	char buf[48];
	if (fld->role == SR_RGBA) {
		if (same("???0", text, len))
			return 0;
		for (unsigned v = 1; v < 16; v++)
			if (rgba_spelling(v, buf) && same(buf, text, len))
				return v;
		return -1;
	}
	if (fld->kind != SASS_FK_ENUM)
		return -1;
	const SassEnum *e = fld->values;
	for (unsigned v = 0; v < nvalues; v++) {
		if (v < e->count && e->names[v] != NULL) {
			if (e->names[v][0] != '\0' && same(e->names[v], text, len))
				return v;
		} else if (e->fallback != NULL) {
			snprintf(buf, sizeof buf, e->fallback, v);
			if (same(buf, text, len))
				return v;
		}
	}
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (aliases[i].op == f->op && aliases[i].role == fld->role && same(aliases[i].spelling, text, len))
			return aliases[i].value;
	return -1;
}

/* The value of an enum field that prints as nothing, or -1. */
static int64_t enum_default(const SassField *fld)
{
	if (fld->role == SR_RGBA)
		return 0xf;
	if (fld->kind != SASS_FK_ENUM)
		return -1;
	for (unsigned v = 0; v < fld->values->count; v++)
		if (fld->values->names[v] != NULL && fld->values->names[v][0] == '\0')
			return v;
	return -1;
}

static void apply(SasmMatch *m, SassRole r, int64_t v)
{
	if (r == SR_COUNT)
		m->reuse = (unsigned)v;
	else
		sass_values_set(&m->v, r, v);
}

/* Length of the longest spelling of spec at p (p after the '.'), 0 if none;
 * the value goes to *value. A spelling must end at a '.' or the end. */
static size_t match_spec(const SasmMatch *m, const ModSpec *spec, const char *p, int64_t *value)
{
	size_t seg = strlen(p);
	if (spec->spelling != NULL) {
		size_t n = strlen(spec->spelling);
		if (spec->role != SR_COUNT && sass_form_field(m->f, spec->role) == NULL)
			return 0;
		if (n <= seg && memcmp(spec->spelling, p, n) == 0 && (p[n] == '.' || p[n] == '\0')) {
			*value = spec->on;
			return n;
		}
		return 0;
	}
	const SassField *fld = sass_form_field(m->f, spec->role);
	if (fld == NULL)
		return 0;
	size_t best = 0;
	/* Try every prefix that ends at a '.' boundary: names contain dots
	 * (F32.FTZ.RN, U.128). */
	for (size_t n = 1; n <= seg; n++) {
		if (p[n] != '.' && p[n] != '\0')
			continue;
		int64_t v = sasm_enum_value(m->f, fld, p, n);
		if (v >= 0) {
			best = n;
			*value = v;
		}
	}
	return best;
}

bool sasm_match_modifiers(SasmMatch *m)
{
	const ModSpec *specs = family_mods(m->f->op);
	size_t nspecs = 0;
	while (specs[nspecs].spelling != NULL || specs[nspecs].role != SR_COUNT)
		nspecs++;
	bool used[16] = { false };
	const char *p = m->mods;
	while (*p == '.') {
		size_t best = 0, best_i = 0;
		int64_t best_v = 0;
		for (size_t i = 0; i < nspecs; i++) {
			int64_t v;
			if (used[i] || (specs[i].role != SR_COUNT && sass_values_has(&m->v, specs[i].role)))
				continue;
			size_t n = match_spec(m, &specs[i], p + 1, &v);
			if (n > best) {
				best = n;
				best_i = i;
				best_v = v;
			}
		}
		if (best == 0) {
			const char *end = strchr(p + 1, '.');
			int len = end ? (int)(end - p) : (int)strlen(p);
			bool known = false;
			for (size_t i = 0; i < nspecs && !known; i++) {
				int64_t v;
				known = match_spec(m, &specs[i], p + 1, &v) > 0;
			}
			return sasm_match_fail(m, m->s->mnemonic_loc, RULE_SASS_SYNTAX,
			                       known ? "modifier '%.*s' conflicts with an earlier modifier of %s"
			                             : "unknown modifier '%.*s' for %s",
			                       len, p, sass_op_mnemonic(m->f->op));
		}
		const ModSpec *s = &specs[best_i];
		used[best_i] = true;
		apply(m, s->role, best_v);
		if (s->role2 != SR_COUNT)
			apply(m, s->role2, s->on2);
		p += 1 + best;
	}
	for (size_t i = 0; i < nspecs; i++) {
		const ModSpec *s = &specs[i];
		if (used[i] || s->role == SR_COUNT)
			continue;
		if (s->spelling != NULL) {
			if (sass_form_field(m->f, s->role) && !sass_values_has(&m->v, s->role))
				sass_values_set(&m->v, s->role, s->off);
			if (s->role2 != SR_COUNT && sass_form_field(m->f, s->role2) &&
			    !sass_values_has(&m->v, s->role2))
				sass_values_set(&m->v, s->role2, s->off);
			continue;
		}
		const SassField *fld = sass_form_field(m->f, s->role);
		if (fld == NULL || sass_values_has(&m->v, s->role))
			continue;
		int64_t d = enum_default(fld);
		if (d < 0)
			return sasm_match_fail(m, m->s->mnemonic_loc, RULE_SASS_SYNTAX, "%s needs a .%s modifier",
			                       sass_op_mnemonic(m->f->op), sass_role_name(s->role));
		sass_values_set(&m->v, s->role, d);
	}
	return true;
}
