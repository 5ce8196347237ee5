/* nvdisasm's text for the decoder-only forms ptxas emits; the spellings
 * were read off nvdisasm 11.8 and are checked by tests/oracle/sass-forms.sh. */
#include "sm50/sass_disasm_ptxas.h"
#include "sm50/sass_disasm_video.h"

/* The operand types of IMUL/IMAD: nothing for S32.S32, else A's then B's. */
static void put_mul_types(Text *t, const SassValues *v)
{
	bool sa = get(v, SR_SA) != 0, sb = get(v, SR_SB) != 0;
	if (!(sa && sb))
		put(t, ".%s32.%s32", sa ? "S" : "U", sb ? "S" : "U");
	put_flag(t, v, SR_HI, ".HI");
}

static void print_imul(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, "%s", sass_op_mnemonic(f->op));
	put_mul_types(t, v);
	put(t, " ");
	put_rd_cc(t, v);
	put_ra(t, v, slot, ", ");
	if (f->op == SOP_IMUL32I) {
		put(t, ", ");
		put_signed_hex(t, (int32_t)(uint32_t)get(v, SR_IMM));
	} else {
		put_b_plain(t, f, v, slot);
	}
}

/* IMAD: -A negates the product, -C the addend; both are .PO. */
static void print_imad(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	bool na = get(v, SR_NEGA) != 0, nc = get(v, SR_NEGC) != 0, po = na && nc;
	put(t, "IMAD");
	put_mul_types(t, v);
	if (po)
		put(t, ".PO");
	put_flag(t, v, SR_SAT, ".SAT");
	put_flag(t, v, SR_X, ".X");
	put(t, " ");
	put_rd_cc(t, v);
	put_ra(t, v, slot, na && !po ? ", -" : ", ");
	put_b_plain(t, f, v, slot);
	if (nc && !po) {
		put(t, ", -");
		if (f->bkind == SASS_B_RC) {
			put_const(t, v, "");
		} else {
			put_reg(t, get(v, SR_RC));
			put_reuse(t, slot, REUSE_C);
		}
	} else {
		put_c(t, f, v, slot);
	}
}

static void print_lop3(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, "LOP3.LUT");
	/* divrn: the predicate-output form, LOP3.LUT.Z/.NZ [Pd,] Rd, ... */
	if (sass_form_field(f, SR_LOPTEST)) {
		put_enum(t, f, v, SR_LOPTEST);
		if (get(v, SR_PD) != 7) {    /* nvdisasm leaves PT out */
			put(t, " ");
			put_pred(t, get(v, SR_PD), false);
			put(t, ",");
		}
	}
	put(t, " ");
	put_rd_cc(t, v);
	put_ra(t, v, slot, ", ");
	put_b_plain(t, f, v, slot);
	put_c(t, f, v, slot);
	put(t, ", 0x%x", (unsigned)get(v, SR_LUT));
}

/* SSY/PBK target, SYNC/BRK [CC.cond]: like BRA's */
static void print_flow(Text *t, const SassForm *f, const SassValues *v, uint64_t addr)
{
	put(t, "%s", sass_op_mnemonic(f->op));
	if (f->op == SOP_SSY || f->op == SOP_PBK) {
		put(t, " ");
		put_signed_hex(t, (int64_t)(addr + 8 + (uint64_t)get(v, SR_IMM)));
	} else if (get(v, SR_COND) != 0xf) {
		put(t, " CC");
		put_enum(t, f, v, SR_COND);
	}
}

static void print_icmp(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, "ICMP");
	put_enum(t, f, v, SR_CMP);
	if (!get(v, SR_SIGNED))
		put(t, ".U32");
	put(t, " ");
	put_reg(t, get(v, SR_RD));
	put_ra(t, v, slot, ", ");
	put_b_plain(t, f, v, slot);
	put_c(t, f, v, slot);
}

static void print_pset(Text *t, const SassForm *f, const SassValues *v)
{
	put(t, "PSET");
	put_flag(t, v, SR_BF, ".BF");
	put_enum(t, f, v, SR_BOP);
	put_enum(t, f, v, SR_BOP2);
	put(t, " ");
	put_rd_cc(t, v);
	put(t, ", ");
	put_pred(t, get(v, SR_PA), get(v, SR_PA_NOT) != 0);
	put(t, ", ");
	put_pred(t, get(v, SR_PB), get(v, SR_PB_NOT) != 0);
	put(t, ", ");
	put_pred(t, get(v, SR_PC), get(v, SR_PC_NOT) != 0);
}

static void print_iset(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, "ISET");
	put_flag(t, v, SR_BF, ".BF");
	put_enum(t, f, v, SR_CMP);
	if (!get(v, SR_SIGNED))
		put(t, ".U32");
	put_flag(t, v, SR_X, ".X");
	put_enum(t, f, v, SR_BOP);
	put(t, " ");
	put_rd_cc(t, v);
	put_ra(t, v, slot, ", ");
	put_b_plain(t, f, v, slot);
	put(t, ", ");
	put_pred(t, get(v, SR_PC), get(v, SR_PC_NOT) != 0);
}

/* ---- int64: CSETP.test.bop Pd, Pq, CC, Pc; P2R Rd, CC, Ra, mask;
 * R2P CC, Ra, mask; r2p14: P2R{.B1-.B3} Rd, PR, Ra, mask and
 * R2P PR, Ra{.B1-.B3}, mask (the byte on the opcode in P2R, on Ra in R2P) ---- */
static void print_cc_forms(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, "%s", sass_op_mnemonic(f->op));
	if (f->op == SOP_CSETP) {
		put_enum(t, f, v, SR_COND);
		put_enum(t, f, v, SR_BOP);
		put(t, " ");
		put_pred(t, get(v, SR_PD), false);
		put(t, ", ");
		put_pred(t, get(v, SR_PQ), false);
		put(t, ", CC, ");
		put_pred(t, get(v, SR_PC), get(v, SR_PC_NOT) != 0);
		return;
	}
	static const char *const bytes[4] = { "", ".B1", ".B2", ".B3" };
	bool pr = sass_moves_pr(f);
	const char *byte = pr ? bytes[get(v, SR_BYTESEL) & 3] : "";
	const char *flags = pr ? "PR" : "CC";
	if (f->op == SOP_P2R) {
		put(t, "%s ", byte);
		put_reg(t, get(v, SR_RD));
		put(t, ", %s, ", flags);
		put_reg(t, get(v, SR_RA));
	} else {
		put(t, " %s, ", flags);
		put_reg(t, get(v, SR_RA));
		put(t, "%s", byte);
	}
	put_reuse(t, slot, REUSE_A);
	put(t, ", 0x%x", (unsigned)get(v, SR_IMM));
}

/* fnptr: PRET target (an address, as CAL's); BRX and JMX [CC.cond, ]Ra[ offset] */
static void print_indirect(Text *t, const SassForm *f, const SassValues *v, uint64_t addr)
{
	put(t, "%s ", sass_op_mnemonic(f->op));
	if (f->op == SOP_PRET) {
		put_signed_hex(t, (int64_t)(addr + 8 + (uint64_t)get(v, SR_IMM)));
		return;
	}
	if (get(v, SR_COND) != 0xf) {
		put(t, "CC");
		put_enum(t, f, v, SR_COND);
		put(t, ", ");
	}
	put_reg(t, get(v, SR_RA));
	if (get(v, SR_IMM) != 0) {
		put(t, " ");
		put_signed_hex(t, get(v, SR_IMM));
	}
}

/* sim4: VABSDIFF; the formats are left out when A is S32 and B the
 * default, S32 (a register) or S16 (an immediate); an S16 immediate prints
 * signed, a U16 one as its 16 bits (nvdisasm 11.8 on crafted words) */
static void put_vpart(Text *t, int64_t fmt)
{
	static const char *const part[8] = { "", ".B1", ".B2", ".B3", "", ".H1", "", "" };
	put(t, "%s", part[fmt & 7]);
}

static void print_vabsdiff(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	bool imm = f->bkind == SASS_B_IMM;
	int64_t fa = get(v, SR_VFMT_A), fb = get(v, SR_VFMT_B);
	put(t, "VABSDIFF");
	put_flag(t, v, SR_SD, ".SD");
	if (fa != 14 || fb != (imm ? 1 : 14)) {
		put_enum(t, f, v, SR_VFMT_A);
		put_enum(t, f, v, SR_VFMT_B);
	}
	put_flag(t, v, SR_SAT, ".SAT");
	put_enum(t, f, v, SR_VMODE);
	put(t, " ");
	put_rd_cc(t, v);
	put(t, ", ");
	put_reg(t, get(v, SR_RA));
	put_vpart(t, fa);
	put_reuse(t, slot, REUSE_A);
	put(t, ", ");
	if (imm && fb == 1) {
		put_signed_hex(t, (int16_t)(uint16_t)get(v, SR_IMM));
	} else if (imm) {
		put(t, "0x%x", (unsigned)get(v, SR_IMM));
	} else {
		put_reg(t, get(v, SR_RB));
		put_vpart(t, fb);
		put_reuse(t, slot, REUSE_B);
	}
	put(t, ", ");
	put_reg(t, get(v, SR_RC));
	put_reuse(t, slot, REUSE_C);
}

/* video: VABSDIFF4; the formats are left out when both are S8, a byte
 * selection other than the default prints after its register (R2.4321) */

static void print_vabsdiff4(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, "VABSDIFF4");
	put_flag(t, v, SR_SD, ".SD");
	if (get(v, SR_SA) != 1 || get(v, SR_SB) != 1) {
		put_enum(t, f, v, SR_SA);
		put_enum(t, f, v, SR_SB);
	}
	put_flag(t, v, SR_SAT, ".SAT");
	put_enum(t, f, v, SR_VRED);
	put_enum(t, f, v, SR_VLANES);
	put(t, " ");
	put_rd_cc(t, v);
	put(t, ", ");
	put_reg(t, get(v, SR_RA));
	put_enum(t, f, v, SR_VSEL_A);
	put_reuse(t, slot, REUSE_A);
	put(t, ", ");
	put_reg(t, get(v, SR_RB));
	put_enum(t, f, v, SR_VSEL_B);
	put_reuse(t, slot, REUSE_B);
	put(t, ", ");
	put_reg(t, get(v, SR_RC));
	put_reuse(t, slot, REUSE_C);
}

/* divrn: ISCADD32I Rd[.CC], Ra, imm32 (signed hex), shift */
static void print_iscadd32i(Text *t, const SassValues *v, uint32_t slot)
{
	put(t, "ISCADD32I ");
	put_rd_cc(t, v);
	put_ra(t, v, slot, ", ");
	put(t, ", ");
	put_signed_hex(t, (int32_t)(uint32_t)get(v, SR_IMM));
	put(t, ", 0x%x", (unsigned)get(v, SR_SHIFT));
}

/* divrn: FCHK.mode Pd, [-][|]Ra[|], [-][|]B[|] (an immediate B is a
 * float's top 20 bits), the sources as FADD's */
static void print_fchk(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, "FCHK");
	put_enum(t, f, v, SR_CHKMODE);
	put(t, " ");
	put_pred(t, get(v, SR_PD), false);
	put_fsrc(t, f, v, slot, true, get(v, SR_NEGA) != 0, get(v, SR_ABSA) != 0);
	put_fsrc(t, f, v, slot, false, get(v, SR_NEGB) != 0, get(v, SR_ABSB) != 0);
}

bool sass_format_ptxas(Text *t, const SassForm *f, const SassValues *v, uint32_t slot, uint64_t addr)
{
	switch (f->op) {
	case SOP_PRET: case SOP_BRX: case SOP_JMX: print_indirect(t, f, v, addr); return true;
	case SOP_SSY: case SOP_PBK: case SOP_SYNC: case SOP_BRK: print_flow(t, f, v, addr); return true;
	/* nvdisasm prints no reuse flags on IMUL and IMAD */
	case SOP_IMUL: case SOP_IMUL32I: print_imul(t, f, v, 0); return true;
	case SOP_IMAD: print_imad(t, f, v, 0); return true;
	case SOP_LOP3: print_lop3(t, f, v, slot); return true;
	case SOP_ICMP: print_icmp(t, f, v, slot); return true;
	case SOP_PSET: print_pset(t, f, v); return true;
	case SOP_ISET: print_iset(t, f, v, slot); return true;
	case SOP_CSETP: case SOP_P2R: case SOP_R2P: print_cc_forms(t, f, v, slot); return true;
	case SOP_VABSDIFF: print_vabsdiff(t, f, v, slot); return true;
	case SOP_VABSDIFF4: print_vabsdiff4(t, f, v, slot); return true;
	case SOP_FCHK: print_fchk(t, f, v, slot); return true;
	case SOP_ISCADD32I: print_iscadd32i(t, v, slot); return true;
	default: return sass_format_video(t, f, v, slot);
	}
}
