/* nvdisasm's text for the instruction families beyond the surface slice; the spellings were read off
 * nvdisasm 11.8 and are checked by tests/oracle/sass-forms.sh. */
#include "sm50/sass_disasm_fam.h"

#include "sm50/sass_float.h"

/* nvdisasm shows no reuse flag on the one source of POPC and FLO: their
 * B is printed as if the slot had none. */
static void print_popc(Text *t, const SassForm *f, const SassValues *v)
{
	put(t, "POPC ");
	put_reg(t, get(v, SR_RD));
	put_b(t, f, v, 0, get(v, SR_INVB) != 0, "~", ".INV");
}

static void print_flo(Text *t, const SassForm *f, const SassValues *v)
{
	put(t, "FLO");
	if (!get(v, SR_SIGNED))
		put(t, ".U32");
	put_flag(t, v, SR_SH, ".SH");
	put(t, " ");
	put_rd_cc(t, v);
	put_b(t, f, v, 0, get(v, SR_INVB) != 0, "~", ".INV");
}

static void print_prmt(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, "PRMT");
	put_enum(t, f, v, SR_PMODE);
	put(t, " ");
	put_reg(t, get(v, SR_RD));
	put_ra(t, v, slot, ", ");
	put_b_plain(t, f, v, slot);
	put_c(t, f, v, slot);
}

/* ---- double precision and F2F ---- */

/* A double source: put_fp_src's, with a double's immediate. */
static void put_dsrc(Text *t, const SassForm *f, const SassValues *v, uint32_t slot, bool is_a,
                     bool neg, bool abs)
{
	put_fp_src(t, f, v, slot, is_a, neg, abs, true);
}

/* nvdisasm prints no reuse flags on DMNMX (nor on DSETP) */
static void print_dadd_dmnmx(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	if (f->op == SOP_DMNMX)
		slot = 0;
	put(t, "%s", sass_op_mnemonic(f->op));
	put_enum(t, f, v, SR_RND);
	put(t, " ");
	put_rd_cc(t, v);
	put_dsrc(t, f, v, slot, true, get(v, SR_NEGA) != 0, get(v, SR_ABSA) != 0);
	put_dsrc(t, f, v, slot, false, get(v, SR_NEGB) != 0, get(v, SR_ABSB) != 0);
	if (f->op == SOP_DMNMX) {
		put(t, ", ");
		put_pred(t, get(v, SR_PC), get(v, SR_PC_NOT) != 0);
	}
}

/* DMUL and DFMA: B's negation is the product's; DFMA adds C. */
static void print_dmul_dfma(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, "%s", sass_op_mnemonic(f->op));
	put_enum(t, f, v, SR_RND);
	put(t, " ");
	put_rd_cc(t, v);
	put_dsrc(t, f, v, slot, true, false, false);
	put_dsrc(t, f, v, slot, false, get(v, SR_NEGB) != 0, false);
	if (f->op != SOP_DFMA)
		return;
	put(t, "%s", get(v, SR_NEGC) ? ", -" : ", ");
	if (f->bkind == SASS_B_RC) {
		put_const(t, v, "");
	} else {
		put_reg(t, get(v, SR_RC));
		put_reuse(t, slot, REUSE_C);
	}
}

static void print_dsetp(Text *t, const SassForm *f, const SassValues *v)
{
	put(t, "DSETP");
	put_enum(t, f, v, SR_CMP);
	put_enum(t, f, v, SR_BOP);
	put(t, " ");
	put_pred(t, get(v, SR_PD), false);
	put(t, ", ");
	put_pred(t, get(v, SR_PQ), false);
	/* nvdisasm prints no reuse flags on DSETP */
	put_dsrc(t, f, v, 0, true, get(v, SR_NEGA) != 0, get(v, SR_ABSA) != 0);
	put_dsrc(t, f, v, 0, false, get(v, SR_NEGB) != 0, get(v, SR_ABSB) != 0);
	put(t, ", ");
	put_pred(t, get(v, SR_PC), get(v, SR_PC_NOT) != 0);
}

/* DSET[.BF].cmp.bop Rd[.CC], A, B, Pc: set on .f64 sources (nvdisasm
 * prints no reuse flags on it, as on DSETP) */
static void print_dset(Text *t, const SassForm *f, const SassValues *v)
{
	uint32_t slot = 0;
	put(t, "DSET");
	put_flag(t, v, SR_BF, ".BF");
	put_enum(t, f, v, SR_CMP);
	put_enum(t, f, v, SR_BOP);
	put(t, " ");
	put_rd_cc(t, v);
	put_dsrc(t, f, v, slot, true, get(v, SR_NEGA) != 0, get(v, SR_ABSA) != 0);
	put_dsrc(t, f, v, slot, false, get(v, SR_NEGB) != 0, get(v, SR_ABSB) != 0);
	put(t, ", ");
	put_pred(t, get(v, SR_PC), get(v, SR_PC_NOT) != 0);
}

/* F2F rounding: to an integral value (RNDINT) only between equal types;
 * otherwise a mode between equal types is .PASS. */
static void print_f2f(Text *t, const SassForm *f, const SassValues *v)
{
	static const char *const rndint[] = { ".ROUND", ".FLOOR", ".CEIL", ".TRUNC" };
	bool neg = get(v, SR_NEGB) != 0, abs = get(v, SR_ABSB) != 0;
	bool same = get(v, SR_STYPE) == get(v, SR_DTYPE);
	int64_t rnd = get(v, SR_RND);
	put(t, "F2F");
	put_flag(t, v, SR_FTZ, ".FTZ");
	put_enum(t, f, v, SR_DTYPE);
	put_enum(t, f, v, SR_STYPE);
	if (same && get(v, SR_RNDINT))
		put(t, "%s", rndint[rnd & 3]);
	else if (same && rnd != 0)
		put(t, ".PASS");
	else
		put_enum(t, f, v, SR_RND);
	put_flag(t, v, SR_SAT, ".SAT");
	put(t, " ");
	put_rd_cc(t, v);
	put(t, ", %s%s", neg ? "-" : "", abs ? "|" : "");
	/* an F16 source constant is spelled with a space, as XMAD's */
	if (f->bkind == SASS_B_CONST)
		put_const(t, v, get(v, SR_STYPE) == 1 ? " " : "");
	else
		put_reg(t, get(v, SR_RB));
	if (get(v, SR_STYPE) == 1 && get(v, SR_HB))
		put(t, ".H1");
	put(t, "%s", abs ? "|" : "");
}

/* ---- barriers and fences ---- */

/* BAR.op A[, B]: .SYNC leaves out an immediate count of 0 (all threads). */
static void print_bar(Text *t, const SassForm *f, const SassValues *v)
{
	put(t, "BAR");
	put_enum(t, f, v, SR_BARMODE);
	put(t, " ");
	if (sass_form_field(f, SR_BARID))
		put(t, "0x%x", (unsigned)get(v, SR_BARID));
	else
		put_reg(t, get(v, SR_RA));
	if (sass_form_field(f, SR_RB)) {
		put(t, ", ");
		put_reg(t, get(v, SR_RB));
	} else if (get(v, SR_BARCNT) != 0 || get(v, SR_BARMODE) != 0) {
		put(t, ", 0x%x", (unsigned)get(v, SR_BARCNT));
	}
}

/* ---- ctrl: BAR.RED.op id[, count], [!]Pc (a zero count, all threads, is
 * left out as by .SYNC) and B2R.RESULT Rd[, Pd] (PT left out) ---- */
static void print_bar_red(Text *t, const SassForm *f, const SassValues *v)
{
	put(t, "BAR.RED");
	put_enum(t, f, v, SR_BARRED);
	put(t, " 0x%x", (unsigned)get(v, SR_BARID));
	if (get(v, SR_BARCNT) != 0)
		put(t, ", 0x%x", (unsigned)get(v, SR_BARCNT));
	put(t, ", ");
	put_pred(t, get(v, SR_PC), get(v, SR_PC_NOT) != 0);
}

static void print_b2r(Text *t, const SassValues *v)
{
	put(t, "B2R.RESULT ");
	put_reg(t, get(v, SR_RD));
	if (get(v, SR_PD) != 7) {
		put(t, ", ");
		put_pred(t, get(v, SR_PD), false);
	}
}

/* ---- special functions ---- */

/* nvdisasm prints no reuse flag on MUFU's source */
static void print_mufu(Text *t, const SassForm *f, const SassValues *v)
{
	bool abs = get(v, SR_ABSA) != 0;
	put(t, "MUFU");
	put_enum(t, f, v, SR_MUFUOP);
	put_flag(t, v, SR_SAT, ".SAT");
	put(t, " ");
	put_reg(t, get(v, SR_RD));
	put(t, ", %s%s", get(v, SR_NEGA) ? "-" : "", abs ? "|" : "");
	put_reg(t, get(v, SR_RA));
	put(t, "%s", abs ? "|" : "");
}

static void print_rro(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	bool abs = get(v, SR_ABSB) != 0;
	put(t, "RRO");
	put_enum(t, f, v, SR_RROOP);
	put(t, " ");
	put_reg(t, get(v, SR_RD));
	put(t, ", %s%s", get(v, SR_NEGB) ? "-" : "", abs ? "|" : "");
	if (f->bkind == SASS_B_CONST)
		put_const(t, v, "");
	else
		put_reg(t, get(v, SR_RB));
	put(t, "%s", abs ? "|" : "");
	if (f->bkind == SASS_B_REG)
		put_reuse(t, slot, REUSE_B);
}

/* texcache: CCTL{.E}.op / CCTLL.op [Ra+offset]: the field counts 4-byte
 * words, nvdisasm shows bytes (an absolute address [RZ+x] unsigned, in 32
 * bits for CCTL and 24 for the local window). */
static void print_cctl(Text *t, const SassForm *f, const SassValues *v)
{
	put(t, "%s", sass_op_mnemonic(f->op));
	if (f->op == SOP_CCTL)
		put_flag(t, v, SR_E, ".E");
	put_enum(t, f, v, SR_CCTLOP);
	put(t, " ");
	SassValues bytes = *v;
	bytes.v[SR_IMM] = get(v, SR_IMM) * 4;
	put_global_address(t, &bytes, f->op == SOP_CCTL ? 32 : 24);
}

bool sass_format_fam(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	switch (f->op) {
	case SOP_POPC: print_popc(t, f, v); return true;
	case SOP_FLO: print_flo(t, f, v); return true;
	case SOP_PRMT: print_prmt(t, f, v, slot); return true;
	case SOP_DADD: case SOP_DMNMX: print_dadd_dmnmx(t, f, v, slot); return true;
	case SOP_DMUL: case SOP_DFMA: print_dmul_dfma(t, f, v, slot); return true;
	case SOP_DSETP: print_dsetp(t, f, v); return true;
	case SOP_DSET: print_dset(t, f, v); return true;
	case SOP_F2F: print_f2f(t, f, v); return true;
	case SOP_BAR: print_bar(t, f, v); return true;
	case SOP_BAR_RED: print_bar_red(t, f, v); return true;
	case SOP_B2R: print_b2r(t, v); return true;
	case SOP_MUFU: print_mufu(t, f, v); return true;
	case SOP_RRO: print_rro(t, f, v, slot); return true;
	case SOP_CCTL: case SOP_CCTLL: print_cctl(t, f, v); return true;
	case SOP_MEMBAR:
		put(t, "MEMBAR");
		put_enum(t, f, v, SR_MBLEVEL);
		put_enum(t, f, v, SR_IVALL);
		return true;
	default: return sass_format_warp(t, f, v, slot);
	}
}
