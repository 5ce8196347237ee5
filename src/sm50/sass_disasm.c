/* sm_50 disassembly in nvdisasm's exact text. The spelling rules below
 * (modifier order, operand forms, column layout) were read off nvdisasm 11.8
 * output and are checked by tests/oracle/sass-forms.sh. */
#include "sm50/sass_disasm.h"

#include "sm50/sass_ctrl.h"
#include "sm50/sass_disasm_fam.h"
#include "sm50/sass_disasm_ptxas.h"
#include "sm50/sass_disasm_text.h"
#include "sm50/sass_float.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- the families --------------------------------------------------------- */

static void print_surface_tail(Text *t, const SassForm *f, const SassValues *v)
{
	if (sass_form_field(f, SR_SUIDX))
		put(t, "0x%x", (unsigned)get(v, SR_SUIDX));
	else
		put_reg(t, get(v, SR_RC));
}

/* Formatted-surface component mask: letters of the set bits, nothing for all
 * four; nvdisasm has no spelling for an empty mask. */
static void put_rgba(Text *t, unsigned mask)
{
	if (mask == 0xf)
		return;
	if (mask == 0) {
		put(t, ".???0");
		return;
	}
	put(t, ".");
	for (unsigned i = 0; i < 4; i++)
		if ((mask >> i) & 1)
			put(t, "%c", "RGBA"[i]);
}

static void print_surface(Text *t, const SassForm *f, const SassValues *v)
{
	bool raw = f->op == SOP_SUST_D || f->op == SOP_SULD_D || f->op == SOP_SURED_D;
	const char *name = f->op == SOP_SUST_D || f->op == SOP_SUST_P ? "SUST" :
	                   f->op == SOP_SULD_D || f->op == SOP_SULD_P ? "SULD" : "SURED";
	put(t, "%s%s", name, raw ? ".D" : ".P");
	if (raw)
		put_flag(t, v, SR_BA, ".BA");
	put_enum(t, f, v, SR_GEOM);
	if (sass_form_field(f, SR_SUOP))
		put_enum(t, f, v, SR_SUOP);
	else
		put_enum(t, f, v, SR_COP);
	if (sass_form_field(f, SR_SIZE))
		put_enum(t, f, v, SR_SIZE);
	else if (sass_form_field(f, SR_SUTYPE))
		put_enum(t, f, v, SR_SUTYPE);
	else if (sass_form_field(f, SR_RGBA))
		put_rgba(t, (unsigned)get(v, SR_RGBA));
	put_enum(t, f, v, SR_CLAMP);

	if (f->op == SOP_SULD_D || f->op == SOP_SULD_P) {
		put(t, " ");
		put_reg(t, get(v, SR_RD));
		put(t, ", [");
		put_reg(t, get(v, SR_RA));
		put(t, "], ");
	} else {
		put(t, " [");
		put_reg(t, get(v, SR_RA));
		put(t, "], ");
		put_reg(t, get(v, SR_RB));
		put(t, ", ");
	}
	print_surface_tail(t, f, v);
}

static void print_txq(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	static const char *const phase[] = { "", ".T", ".P", ".INVALIDPHASE3" };
	SassCtrl c;
	sass_ctrl_unpack_slot(slot, &c);
	put(t, f->op == SOP_TXQ_B ? "TXQ.B" : "TXQ");
	put_flag(t, v, SR_NODEP, ".NODEP");
	put(t, "%s ", phase[c.reuse & 3]);
	put_reg(t, get(v, SR_RD));
	put(t, ", ");
	put_reg(t, get(v, SR_RA));
	put(t, ", ");
	put_enum_value(t, sass_form_field(f, SR_QUERY)->values, (unsigned)get(v, SR_QUERY), "");
	put(t, ", 0x%x, 0x%x", (unsigned)get(v, SR_SUIDX), (unsigned)get(v, SR_QMASK));
}

static void print_global(Text *t, const SassForm *f, const SassValues *v)
{
	put(t, f->op == SOP_STG ? "STG" : "LDG");
	put_flag(t, v, SR_E, ".E");
	put_enum(t, f, v, SR_COP);
	put_enum(t, f, v, SR_SIZE);
	put(t, " ");
	if (f->op == SOP_STG) {
		put_global_address(t, v, 24);
		put(t, ", ");
		put_reg(t, get(v, SR_RB));
	} else {
		put_reg(t, get(v, SR_RD));
		put(t, ", ");
		put_global_address(t, v, 24);
	}
}

/* LDS/STS/LDL/STL: the 32-bit shared or local window. nvdisasm spells the
 * default 32-bit size of an LDS.U as ".32" (LDS.U.32), and nothing else. */
static void print_window(Text *t, const SassForm *f, const SassValues *v)
{
	bool store = f->op == SOP_STS || f->op == SOP_STL;
	put(t, "%s", sass_op_mnemonic(f->op));
	put_flag(t, v, SR_U, ".U");
	put_enum(t, f, v, SR_COP);
	if (get(v, SR_U) == 1 && get(v, SR_SIZE) == 4)
		put(t, ".32");
	else
		put_enum(t, f, v, SR_SIZE);
	put(t, " ");
	if (store) {
		put_global_address(t, v, 24);
		put(t, ", ");
		put_reg(t, get(v, SR_RB));
	} else {
		put_reg(t, get(v, SR_RD));
		put(t, ", ");
		put_global_address(t, v, 24);
	}
}

/* LD/ST: the generic address, then its predicate (LD.E R0, [R2], P0). */
static void print_generic(Text *t, const SassForm *f, const SassValues *v)
{
	put(t, "%s", sass_op_mnemonic(f->op));
	put_flag(t, v, SR_E, ".E");
	put_enum(t, f, v, SR_COP);
	put_enum(t, f, v, SR_SIZE);
	put(t, " ");
	if (f->op == SOP_ST) {
		put_global_address(t, v, 32);
		put(t, ", ");
		put_reg(t, get(v, SR_RB));
	} else {
		put_reg(t, get(v, SR_RD));
		put(t, ", ");
		put_global_address(t, v, 32);
	}
	if (get(v, SR_PC) != 7) {   /* nvdisasm leaves out PT */
		put(t, ", ");
		put_pred(t, get(v, SR_PC), false);
	}
}

static void print_ldc(Text *t, const SassForm *f, const SassValues *v)
{
	int64_t ra = get(v, SR_RA), off = get(v, SR_COFF);
	put(t, "LDC");
	put_enum(t, f, v, SR_SIZE);
	put_enum(t, f, v, SR_LDCMODE);
	put(t, " ");
	put_reg(t, get(v, SR_RD));
	put(t, ", c[0x%x][", (unsigned)get(v, SR_CBANK));
	if (ra == 255) {
		put_signed_hex(t, off);
	} else {
		put_reg(t, ra);
		if (off != 0) {
			put(t, "+");
			put_signed_hex(t, off);
		}
	}
	put(t, "]");
}

static void print_mov(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, "MOV ");
	put_reg(t, get(v, SR_RD));
	put_b_plain(t, f, v, slot);
	if (get(v, SR_LANEMASK) != 0xf)
		put(t, ", 0x%x", (unsigned)get(v, SR_LANEMASK));
}

static void print_mov32i(Text *t, const SassValues *v)
{
	put(t, "MOV32I ");
	put_reg(t, get(v, SR_RD));
	put(t, ", 0x%x", (unsigned)get(v, SR_IMM));
	if (get(v, SR_LANEMASK) != 0xf)
		put(t, ", 0x%x", (unsigned)get(v, SR_LANEMASK));
}

static void print_s2r(Text *t, const SassForm *f, const SassValues *v)
{
	put(t, "S2R ");
	put_reg(t, get(v, SR_RD));
	put(t, ", ");
	put_enum_value(t, sass_form_field(f, SR_SREG)->values, (unsigned)get(v, SR_SREG), "");
}

/* IADD/ISCADD negation field: 1 negates B, 2 negates A, 3 is .PO (plus one). */
enum { NEG_B = 1, NEG_A = 2, NEG_PO = 3 };

static void print_iadd(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	int64_t neg = get(v, SR_NEG);
	put(t, "IADD");
	if (neg == NEG_PO)
		put(t, ".PO");
	put_flag(t, v, SR_SAT, ".SAT");
	put_flag(t, v, SR_X, ".X");
	put(t, " ");
	put_rd_cc(t, v);
	put_ra(t, v, slot, neg == NEG_A ? ", -" : ", ");
	put_b(t, f, v, slot, neg == NEG_B, "-", ".NEG");
}

static void print_iadd32i(Text *t, const SassValues *v, uint32_t slot)
{
	put(t, "IADD32I");
	put_flag(t, v, SR_SAT, ".SAT");
	put_flag(t, v, SR_X, ".X");
	put(t, " ");
	put_rd_cc(t, v);
	put_ra(t, v, slot, get(v, SR_NEGA) ? ", -" : ", ");
	put(t, ", ");
	put_signed_hex(t, (int32_t)(uint32_t)get(v, SR_IMM));
}

static void print_iscadd(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	int64_t neg = get(v, SR_NEG);
	put(t, "ISCADD");
	if (neg == NEG_PO)
		put(t, ".PO");
	put(t, " ");
	put_rd_cc(t, v);
	put_ra(t, v, slot, neg == NEG_A ? ", -" : ", ");
	put_b(t, f, v, slot, neg == NEG_B, "-", ".NEG");
	put(t, ", 0x%x", (unsigned)get(v, SR_SHIFT));
}

static void print_shift(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	if (f->op == SOP_SHL) {
		put(t, "SHL");
	} else {
		put(t, "SHR");
		if (!get(v, SR_SIGNED))
			put(t, ".U32");
	}
	put_flag(t, v, SR_W, ".W");
	put_flag(t, v, SR_X, ".X");
	put_flag(t, v, SR_BREV, ".BREV");
	put(t, " ");
	put_rd_cc(t, v);
	put_ra(t, v, slot, ", ");
	put_b_plain(t, f, v, slot);
}

static void print_lop(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, f->op == SOP_LOP ? "LOP" : "LOP32I");
	put_enum(t, f, v, SR_LOPOP);
	put_enum(t, f, v, SR_LOPTEST);
	put(t, " ");
	if (sass_values_has(v, SR_LOPTEST) && get(v, SR_PD) != 7) {   /* issue 17: a predicate output (PT: none) */
		put_pred(t, get(v, SR_PD), false);
		put(t, ", ");
	}
	put_rd_cc(t, v);
	put_ra(t, v, slot, get(v, SR_INVA) ? ", ~" : ", ");
	if (f->op == SOP_LOP)
		put_b(t, f, v, slot, get(v, SR_INVB) != 0, "~", ".INV");
	else
		put(t, ", 0x%x%s", (unsigned)get(v, SR_IMM), get(v, SR_INVB) ? ".INV" : "");
}

/* " Pd, Pq" of the predicate-setting comparisons (ISETP, FSETP, PSETP). */
static void put_pd_pq(Text *t, const SassValues *v)
{
	put(t, " ");
	put_pred(t, get(v, SR_PD), false);
	put(t, ", ");
	put_pred(t, get(v, SR_PQ), false);
}

static void print_isetp(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, "ISETP");
	put_enum(t, f, v, SR_CMP);
	if (!get(v, SR_SIGNED))
		put(t, ".U32");
	put_flag(t, v, SR_X, ".X");
	put_enum(t, f, v, SR_BOP);
	put_pd_pq(t, v);
	put_ra(t, v, slot, ", ");
	put_b_plain(t, f, v, slot);
	put(t, ", ");
	put_pred(t, get(v, SR_PC), get(v, SR_PC_NOT) != 0);
}

static void print_xmad(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	bool b_is_const = f->bkind == SASS_B_CONST;
	put(t, "XMAD");
	if (get(v, SR_SA) || get(v, SR_SB))
		put(t, ".%s.%s", get(v, SR_SA) ? "S16" : "U16", get(v, SR_SB) ? "S16" : "U16");
	put_flag(t, v, SR_PSL, ".PSL");
	put_enum(t, f, v, SR_CMODE);
	put_flag(t, v, SR_MRG, ".MRG");
	put_flag(t, v, SR_X, ".X");
	put(t, " ");
	put_rd_cc(t, v);
	put(t, ", ");
	put_reg(t, get(v, SR_RA));
	put_flag(t, v, SR_HA, ".H1");
	put_reuse(t, slot, REUSE_A);
	put(t, ", ");
	if (b_is_const) {
		put_const(t, v, " ");
		put_flag(t, v, SR_HB, ".H1");
	} else if (f->bkind == SASS_B_IMM) {
		/* The 16-bit immediate is shown signed when B is signed. */
		int64_t imm = get(v, SR_IMM);
		put_signed_hex(t, get(v, SR_SB) ? (int16_t)(uint16_t)imm : imm);
	} else {
		put_reg(t, get(v, SR_RB));
		put_flag(t, v, SR_HB, ".H1");
		put_reuse(t, slot, REUSE_B);
	}
	put_c(t, f, v, slot);
}

static void print_bfe(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, "BFE");
	if (!get(v, SR_SIGNED))
		put(t, ".U32");
	put_flag(t, v, SR_BREV, ".BREV");
	put(t, " ");
	put_rd_cc(t, v);
	put_ra(t, v, slot, ", ");
	put_b_plain(t, f, v, slot);
}

static void print_bfi(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, "BFI ");
	put_rd_cc(t, v);
	put_ra(t, v, slot, ", ");
	put_b_plain(t, f, v, slot);
	put_c(t, f, v, slot);
}

static void put_pc(Text *t, const SassValues *v)
{
	put(t, ", ");
	put_pred(t, get(v, SR_PC), get(v, SR_PC_NOT) != 0);
}

static void print_imnmx(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, "IMNMX");
	if (!get(v, SR_SIGNED))
		put(t, ".U32");
	put_enum(t, f, v, SR_XMODE);
	put(t, " ");
	put_rd_cc(t, v);
	put_ra(t, v, slot, ", ");
	put_b_plain(t, f, v, slot);
	put_pc(t, v);
}

static void print_sel(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, "SEL ");
	put_reg(t, get(v, SR_RD));
	put_ra(t, v, slot, ", ");
	put_b_plain(t, f, v, slot);
	put_pc(t, v);
}

static void print_shf(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	bool x = get(v, SR_X) != 0, hi = get(v, SR_HI) != 0;
	put(t, f->op == SOP_SHF_L ? "SHF.L" : "SHF.R");
	put_flag(t, v, SR_W, ".W");
	put_enum(t, f, v, SR_MAXSHIFT);
	/* .X and .HI together are spelled .XHI. */
	put(t, "%s", x && hi ? ".XHI" : x ? ".X" : hi ? ".HI" : "");
	put(t, " ");
	put_rd_cc(t, v);
	put_ra(t, v, slot, ", ");
	if (f->bkind == SASS_B_IMM)
		put(t, ", 0x%x", (unsigned)get(v, SR_IMM));
	else
		put_b_plain(t, f, v, slot);
	put_c(t, f, v, slot);
}

static void print_lea(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, f->op == SOP_LEA_HI ? "LEA.HI" : "LEA");
	put_flag(t, v, SR_X, ".X");
	put(t, " ");
	/* The predicate output is not shown when it is PT. */
	if (get(v, SR_PD) != 7) {
		put_pred(t, get(v, SR_PD), false);
		put(t, ", ");
	}
	put_rd_cc(t, v);
	put_ra(t, v, slot, get(v, SR_NEGA) ? ", -" : ", ");
	put_b_plain(t, f, v, slot);
	if (f->op == SOP_LEA_HI)
		put_c(t, f, v, slot);
	if (get(v, SR_SHIFT))
		put(t, ", 0x%x", (unsigned)get(v, SR_SHIFT));
}

static void print_iadd3(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, "IADD3");
	put_enum(t, f, v, SR_SHIFTMODE);
	put_flag(t, v, SR_X, ".X");
	put(t, " ");
	put_rd_cc(t, v);
	put(t, ", %s", get(v, SR_NEGA) ? "-" : "");
	put_reg(t, get(v, SR_RA));
	put_enum(t, f, v, SR_HSEL_A);
	put_reuse(t, slot, REUSE_A);
	switch (f->bkind) {
	case SASS_B_REG:
		put(t, ", %s", get(v, SR_NEGB) ? "-" : "");
		put_reg(t, get(v, SR_RB));
		put_enum(t, f, v, SR_HSEL_B);
		put_reuse(t, slot, REUSE_B);
		break;
	default:
		put_b(t, f, v, slot, get(v, SR_NEGB) != 0, "-", ".NEG");
		break;
	}
	put(t, ", %s", get(v, SR_NEGC) ? "-" : "");
	put_reg(t, get(v, SR_RC));
	put_enum(t, f, v, SR_HSEL_C);
	put_reuse(t, slot, REUSE_C);
}

/* I2I source byte: halves for 16-bit sources, bytes otherwise. */
static void put_i2i_bytesel(Text *t, const SassValues *v)
{
	static const char *const bytes[] = { "", ".B1", ".B2", ".B3" };
	static const char *const halves[] = { "", ".INVALIDSIZE1", ".H1", ".INVALIDSIZE3" };
	bool half = (get(v, SR_STYPE) >> 1) == 1;
	put(t, "%s", (half ? halves : bytes)[get(v, SR_BYTESEL) & 3]);
}

/* I2I never shows reuse flags. A register or constant source is wrapped as
 * -|x|; an immediate gets .NEG and .ABS suffixes instead. */
static void print_i2i(Text *t, const SassForm *f, const SassValues *v)
{
	bool neg = get(v, SR_NEGB) != 0, abs = get(v, SR_ABS) != 0;
	put(t, "I2I");
	put_enum(t, f, v, SR_DTYPE);
	put_enum(t, f, v, SR_STYPE);
	put_flag(t, v, SR_SAT, ".SAT");
	put(t, " ");
	put_rd_cc(t, v);
	put(t, ", ");
	if (f->bkind == SASS_B_IMM) {
		put_signed_hex(t, get(v, SR_IMM));
		put(t, "%s%s", neg ? ".NEG" : "", abs ? ".ABS" : "");
		put_i2i_bytesel(t, v);
		return;
	}
	put(t, "%s%s", neg ? "-" : "", abs ? "|" : "");
	if (f->bkind == SASS_B_CONST)
		put_const(t, v, " ");       /* spelled with a space, as in XMAD */
	else
		put_reg(t, get(v, SR_RB));
	put_i2i_bytesel(t, v);
	put(t, "%s", abs ? "|" : "");
}

/* ---- single-precision float ------------------------------------------------ */

static void print_fadd(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, f->op == SOP_FADD32I ? "FADD32I" : "FADD");
	put_flag(t, v, SR_FTZ, ".FTZ");
	put_enum(t, f, v, SR_RND);
	put_flag(t, v, SR_SAT, ".SAT");
	put(t, " ");
	put_rd_cc(t, v);
	put_fsrc(t, f, v, slot, true, get(v, SR_NEGA) != 0, get(v, SR_ABSA) != 0);
	put_fsrc(t, f, v, slot, false, get(v, SR_NEGB) != 0, get(v, SR_ABSB) != 0);
}

/* FMUL, FMUL32I and FFMA: B's negation is the product's; FFMA adds C. */
static void print_fmul_ffma(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, f->op == SOP_FFMA ? "FFMA" : f->op == SOP_FMUL32I ? "FMUL32I" : "FMUL");
	put_enum(t, f, v, SR_FMZ);
	put_enum(t, f, v, SR_SCALE);
	put_enum(t, f, v, SR_RND);
	put_flag(t, v, SR_SAT, ".SAT");
	put(t, " ");
	put_rd_cc(t, v);
	put_fsrc(t, f, v, slot, true, false, false);
	put_fsrc(t, f, v, slot, false, get(v, SR_NEGB) != 0, false);
	if (f->op != SOP_FFMA)
		return;
	put(t, "%s", get(v, SR_NEGC) ? ", -" : ", ");
	if (f->bkind == SASS_B_RC) {
		put_const(t, v, "");
	} else {
		put_reg(t, get(v, SR_RC));
		put_reuse(t, slot, REUSE_C);
	}
}

static void print_fmnmx(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, "FMNMX");
	put_flag(t, v, SR_FTZ, ".FTZ");
	put(t, " ");
	put_rd_cc(t, v);
	put_fsrc(t, f, v, slot, true, get(v, SR_NEGA) != 0, get(v, SR_ABSA) != 0);
	put_fsrc(t, f, v, slot, false, get(v, SR_NEGB) != 0, get(v, SR_ABSB) != 0);
	put_pc(t, v);
}

static void print_fsetp(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, "FSETP");
	put_enum(t, f, v, SR_CMP);
	put_flag(t, v, SR_FTZ, ".FTZ");
	put_enum(t, f, v, SR_BOP);
	put_pd_pq(t, v);
	put_fsrc(t, f, v, slot, true, get(v, SR_NEGA) != 0, get(v, SR_ABSA) != 0);
	put_fsrc(t, f, v, slot, false, get(v, SR_NEGB) != 0, get(v, SR_ABSB) != 0);
	put_pc(t, v);
}

/* divrn: FSET[.BF].cmp[.FTZ].bop Rd[.CC], A, B, Pc (the sources as FSETP's) */
static void print_fset(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, "FSET");
	put_flag(t, v, SR_BF, ".BF");
	put_enum(t, f, v, SR_CMP);
	put_flag(t, v, SR_FTZ, ".FTZ");
	put_enum(t, f, v, SR_BOP);
	put(t, " ");
	put_rd_cc(t, v);
	put_fsrc(t, f, v, slot, true, get(v, SR_NEGA) != 0, get(v, SR_ABSA) != 0);
	put_fsrc(t, f, v, slot, false, get(v, SR_NEGB) != 0, get(v, SR_ABSB) != 0);
	put_pc(t, v);
}

/* legacy2: FCMP.cmp[.FTZ] Rd, Ra, B, Rc: B as ICMP's, but an immediate is
 * a float's top 20 bits */
static void print_fcmp(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, "FCMP");
	put_enum(t, f, v, SR_CMP);
	put_flag(t, v, SR_FTZ, ".FTZ");
	put(t, " ");
	put_reg(t, get(v, SR_RD));
	put_ra(t, v, slot, ", ");
	if (f->bkind == SASS_B_IMM) {
		put(t, ", ");
		put_float(t, sass_fimm20_bits(get(v, SR_IMM)));
	} else {
		put_b_plain(t, f, v, slot);
	}
	put_c(t, f, v, slot);
}

/* Like I2I: no reuse flags, a constant spelled with a space, the byte
 * select inside the |..| of an absolute value. */
static void print_i2f_f2i(Text *t, const SassForm *f, const SassValues *v)
{
	bool neg = get(v, SR_NEGB) != 0, abs = get(v, SR_ABSB) != 0;
	put(t, f->op == SOP_I2F ? "I2F" : "F2I");
	put_flag(t, v, SR_FTZ, ".FTZ");
	put_enum(t, f, v, SR_DTYPE);
	put_enum(t, f, v, SR_STYPE);
	put_enum(t, f, v, SR_RND);
	put(t, " ");
	put_rd_cc(t, v);
	if (f->bkind == SASS_B_IMM) {      /* I2F_I: as I2I's immediate */
		put(t, ", ");
		put_signed_hex(t, get(v, SR_IMM));
		put(t, "%s%s", neg ? ".NEG" : "", abs ? ".ABS" : "");
		put_i2i_bytesel(t, v);
		return;
	}
	put(t, ", %s%s", neg ? "-" : "", abs ? "|" : "");
	if (f->bkind == SASS_B_CONST)
		put_const(t, v, " ");
	else
		put_reg(t, get(v, SR_RB));
	if (sass_form_field(f, SR_BYTESEL))
		put_i2i_bytesel(t, v);
	put(t, "%s", abs ? "|" : "");
}

static void print_psetp(Text *t, const SassForm *f, const SassValues *v)
{
	put(t, "PSETP");
	put_enum(t, f, v, SR_BOP);
	put_enum(t, f, v, SR_BOP2);
	put_pd_pq(t, v);
	put(t, ", ");
	put_pred(t, get(v, SR_PA), get(v, SR_PA_NOT) != 0);
	put(t, ", ");
	put_pred(t, get(v, SR_PB), get(v, SR_PB_NOT) != 0);
	put_pc(t, v);
}

static void print_bra(Text *t, const SassForm *f, const SassValues *v, uint64_t addr)
{
	put(t, "BRA");
	put_flag(t, v, SR_U, ".U");
	put(t, " ");
	if (get(v, SR_COND) != 0xf) {
		put(t, "CC");
		put_enum(t, f, v, SR_COND);
		put(t, ", ");
	}
	/* Targets below zero are shown negative. */
	put_signed_hex(t, (int64_t)(addr + 8 + (uint64_t)get(v, SR_IMM)));
}

static void print_depbar(Text *t, const SassForm *f, const SassValues *v)
{
	unsigned wmask = (unsigned)get(v, SR_WMASK);
	bool le = get(v, SR_LE) != 0;
	put(t, "DEPBAR");
	if (le) {
		put(t, ".LE ");
		put_enum_value(t, sass_form_field(f, SR_SCOREBOARD)->values,
		               (unsigned)get(v, SR_SCOREBOARD), "");
		put(t, ", 0x%x", (unsigned)get(v, SR_CNT));
	}
	if (wmask) {
		const char *sep = "";
		put(t, le ? ", {" : " {");
		for (int i = 5; i >= 0; i--)
			if ((wmask >> i) & 1) {
				put(t, "%s%d", sep, i);
				sep = ",";
			}
		put(t, "}");
	}
}

int sass_format_insn(const SassForm *f, const SassValues *v, uint32_t slot,
                     uint64_t addr, char *buf, size_t n)
{
	Text t = { buf, n, 0, n == 0 };
	if (n)
		buf[0] = '\0';
	switch (f->op) {
	case SOP_SUST_D: case SOP_SUST_P: case SOP_SULD_D: case SOP_SULD_P:
	case SOP_SURED_D: case SOP_SURED_P:
		print_surface(&t, f, v);
		break;
	case SOP_TXQ: case SOP_TXQ_B: print_txq(&t, f, v, slot); break;
	case SOP_STG: case SOP_LDG: print_global(&t, f, v); break;
	case SOP_LDC: print_ldc(&t, f, v); break;
	case SOP_LDS: case SOP_STS: case SOP_LDL: case SOP_STL: print_window(&t, f, v); break;
	case SOP_LD: case SOP_ST: print_generic(&t, f, v); break;
	case SOP_MOV: print_mov(&t, f, v, slot); break;
	case SOP_MOV32I: print_mov32i(&t, v); break;
	case SOP_S2R: print_s2r(&t, f, v); break;
	case SOP_IADD: print_iadd(&t, f, v, slot); break;
	case SOP_IADD32I: print_iadd32i(&t, v, slot); break;
	case SOP_ISCADD: print_iscadd(&t, f, v, slot); break;
	case SOP_SHL: case SOP_SHR: print_shift(&t, f, v, slot); break;
	case SOP_LOP: case SOP_LOP32I: print_lop(&t, f, v, slot); break;
	case SOP_ISETP: print_isetp(&t, f, v, slot); break;
	case SOP_XMAD: print_xmad(&t, f, v, slot); break;
	case SOP_BRA: print_bra(&t, f, v, addr); break;
	case SOP_EXIT: put(&t, "EXIT"); break;
	case SOP_CAL: put(&t, "CAL "); put_signed_hex(&t, (int64_t)(addr + 8 + (uint64_t)get(v, SR_IMM))); break;
	case SOP_RET: put(&t, "RET"); break;
	case SOP_JCAL: put(&t, "JCAL 0x%x", (unsigned)get(v, SR_IMM)); break;
	case SOP_BPT:
		put(&t, "BPT.TRAP");
		if (get(v, SR_IMM))     /* nvdisasm omits a 0 code */
			put(&t, " 0x%x", (unsigned)get(v, SR_IMM));
		break;
	case SOP_NOP:
		put(&t, "NOP");
		put_flag(&t, v, SR_TRIG, ".TRIG");
		if (get(v, SR_IMM))
			put(&t, " 0x%x", (unsigned)get(v, SR_IMM));
		break;
	case SOP_DEPBAR: print_depbar(&t, f, v); break;
	case SOP_BFE: print_bfe(&t, f, v, slot); break;
	case SOP_BFI: print_bfi(&t, f, v, slot); break;
	case SOP_IMNMX: print_imnmx(&t, f, v, slot); break;
	case SOP_SEL: print_sel(&t, f, v, slot); break;
	case SOP_SHF_L: case SOP_SHF_R: print_shf(&t, f, v, slot); break;
	case SOP_LEA: case SOP_LEA_HI: print_lea(&t, f, v, slot); break;
	case SOP_IADD3: print_iadd3(&t, f, v, slot); break;
	case SOP_I2I: print_i2i(&t, f, v); break;
	case SOP_PSETP: print_psetp(&t, f, v); break;
	case SOP_FADD: case SOP_FADD32I: print_fadd(&t, f, v, slot); break;
	case SOP_FMUL: case SOP_FMUL32I: case SOP_FFMA: print_fmul_ffma(&t, f, v, slot); break;
	case SOP_FMNMX: print_fmnmx(&t, f, v, slot); break;
	case SOP_FSETP: print_fsetp(&t, f, v, slot); break;
	case SOP_FSET: print_fset(&t, f, v, slot); break;
	case SOP_FCMP: print_fcmp(&t, f, v, slot); break;
	case SOP_I2F: case SOP_F2I: print_i2f_f2i(&t, f, v); break;
	default:
		if (!sass_format_fam(&t, f, v, slot) && !sass_format_tex(&t, f, v, slot))
			sass_format_ptxas(&t, f, v, slot, addr);
		break;
	}
	return t.overflow ? -1 : (int)t.len;
}

int sass_format_guard(const SassValues *v, char *buf, size_t n)
{
	Text t = { buf, n, 0, n == 0 };
	if (n)
		buf[0] = '\0';
	int64_t pg = sass_values_get(v, SR_PG, 7);
	bool neg = sass_values_get(v, SR_PG_NOT, 0) != 0;
	if (pg != 7 || neg) {
		put(&t, "@");
		put_pred(&t, pg, neg);
		put(&t, " ");
	}
	return t.overflow ? -1 : (int)t.len;
}

bool sass_slot_allowed(const SassForm *f, uint32_t slot)
{
	SassCtrl c;
	sass_ctrl_unpack_slot(slot, &c);
	bool barriers = c.wbar != SASS_CTRL_NO_BARRIER || c.rbar != SASS_CTRL_NO_BARRIER;
	/* VMAD: fixed-latency in our tables (its stall counts suffice on the
	 * simulator), but ptxas 11.8 sets write and read barriers on some
	 * formats (-O3: a write barrier; -O0: both), which nvdisasm takes
	 * there and refuses on others ('uC' unit): its barriers are allowed */
	if (f->op == SOP_VMAD)
		return !(c.reuse & 8);
	switch (f->cls) {
	case SASS_CLASS_ALU: return !barriers && !(c.reuse & 8);
	case SASS_CLASS_FLOW: return !barriers;
	case SASS_CLASS_VARLAT: return true;
	case SASS_CLASS_VARLAT_ALU: return !(c.reuse & 8);
	}
	return false;
}

/* ---- the listing ----------------------------------------------------------- */

enum {
	LINE_INDENT = 8,        /* before the address comment */
	OPCODE_GAP = 19,        /* address comment to opcode; the guard sits inside */
	HEX_GAP = 2,            /* longest line to the hex comment */
	TEXT_MAX = 160,
};

typedef struct Line {
	uint64_t word;
	bool is_ctrl;
	char addr[24];
	char guard[8];
	char text[TEXT_MAX];
} Line;

static int decode_line(Line *ln, uint64_t word, uint64_t addr, uint32_t slot,
                       char *err, size_t errlen)
{
	SassValues vals;
	const SassForm *f = sass_decode(word, &vals);
	if (f == NULL) {
		snprintf(err, errlen, "unrecognized instruction 0x%016" PRIx64 " at address 0x%08" PRIx64,
		         word, addr);
		return -1;
	}
	if (!sass_slot_allowed(f, slot)) {
		snprintf(err, errlen, "control slot 0x%05x not allowed for %s at address 0x%08" PRIx64,
		         (unsigned)slot, f->name, addr);
		return -1;
	}
	int k = sass_format_insn(f, &vals, slot, addr, ln->text, sizeof ln->text - 2);
	if (k < 0 || sass_format_guard(&vals, ln->guard, sizeof ln->guard) < 0) {
		snprintf(err, errlen, "instruction text too long at address 0x%08" PRIx64, addr);
		return -1;
	}
	strcat(ln->text, (slot & SASS_CTRL_SCHED_MASK) == SASS_CTRL_SLOT_PLAIN ? ";" : " ;");
	return 0;
}

static size_t line_width(const Line *ln)
{
	return LINE_INDENT + strlen(ln->addr) + OPCODE_GAP + strlen(ln->guard) + strlen(ln->text);
}

static void print_line(FILE *out, const Line *ln, size_t column)
{
	size_t used;
	if (ln->is_ctrl) {
		used = 0;
	} else {
		size_t gap = OPCODE_GAP - strlen(ln->guard);
		fprintf(out, "%*s%s%*s%s%s", LINE_INDENT, "", ln->addr, (int)gap, "", ln->guard, ln->text);
		used = LINE_INDENT + strlen(ln->addr) + gap + strlen(ln->guard) + strlen(ln->text);
	}
	fprintf(out, "%*s/* 0x%016" PRIx64 " */\n", (int)(column - used), "", ln->word);
}

int sass_disasm_stream(const uint8_t *bytes, size_t n, uint64_t base, FILE *out,
                       char *err, size_t errlen)
{
	if (n == 0 || n % 32 != 0) {
		snprintf(err, errlen, "code size %zu is not a positive multiple of 32 bytes", n);
		return -1;
	}
	if (base % 32 != 0) {
		snprintf(err, errlen, "base address 0x%" PRIx64 " is not 32-byte aligned", base);
		return -1;
	}
	size_t nlines = n / 8;
	Line *lines = calloc(nlines, sizeof *lines);
	if (lines == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	uint32_t slots[3] = { 0, 0, 0 };
	size_t widest = 0;
	int rc = 0;
	for (size_t i = 0; i < nlines && rc == 0; i++) {
		Line *ln = &lines[i];
		uint64_t addr = base + 8 * i;
		ln->word = sass_load_word(bytes + 8 * i);
		if (i % 4 == 0) {
			ln->is_ctrl = true;
			sass_ctrl_unpack_word(ln->word, slots);
			continue;
		}
		snprintf(ln->addr, sizeof ln->addr, "/*%04" PRIx64 "*/", addr);
		rc = decode_line(ln, ln->word, addr, slots[i % 4 - 1], err, errlen);
		if (line_width(ln) > widest)
			widest = line_width(ln);
	}
	if (rc == 0) {
		fprintf(out, "\t.headerflags    @\"EF_CUDA_SM50 EF_CUDA_PTX_SM(EF_CUDA_SM50)\"\n");
		for (size_t i = 0; i < nlines; i++)
			print_line(out, &lines[i], widest + HEX_GAP);
	}
	free(lines);
	return rc;
}
