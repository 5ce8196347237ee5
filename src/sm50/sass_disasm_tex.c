/* The printers of the texture instructions (issue 17: TEX, TLD, TLD4 and
 * their .B forms) in nvdisasm 11.8's spelling:
 *   TEX{.B}{.LZ|.LB|.LL|.LLA}{.AOFFI}{.DC}{.NDV}{.NODEP}{.T|.P} Rd, Ra{, Rb}, idx, GEOM, mask
 *   TLD{.B}.LZ|.LL{.AOFFI}{.MS}{.CL}{.NODEP}{.T|.P}              Rd, Ra{, Rb}, idx, GEOM, mask
 *   TLD4.R|.G|.B|.A{.B}{.AOFFI|.PTP}{.DC}{.NDV}{.NODEP}{.T|.P}  Rd, Ra{, Rb}, idx, GEOM, mask
 *   TXD{.B}{.AOFFI}{.NODEP}{.T|.P}                               Rd, Ra, Rb, idx, GEOM, mask
 * Rb is left out when it is RZ (but TXD's); the .B forms print 0x0 as the index. The
 * phase (.T/.P) lives in the reuse bits of the control slot, as for TXQ.
 * sim4: the compact forms print their second pair first:
 *   TEXS{.mode}{.NODEP}{.T|.P}  Rd2, Rd, Ra{, Rb}, idx, GEOM, mask   (mode: .LZ .LL .DC ...)
 *   TLDS{.mode}{.NODEP}{.T|.P}  Rd2, Rd, Ra{, Rb}, idx, GEOM, mask
 *   TLD4S.R|.G|.B|.A{.AOFFI}{.DC}{.NODEP}{.T|.P}  Rd2, Rd, Ra, Rb, idx */
#include "sm50/sass_disasm_fam.h"

static void put_tex_operands(Text *t, const SassForm *f, const SassValues *v)
{
	put(t, " ");
	put_reg(t, get(v, SR_RD));
	put(t, ", ");
	put_reg(t, get(v, SR_RA));
	/* TXD always has its derivatives */
	if (get(v, SR_RB) != 255 || f->op == SOP_TXD || f->op == SOP_TXD_B) {
		put(t, ", ");
		put_reg(t, get(v, SR_RB));
	}
	put(t, ", 0x%x", (unsigned)get(v, SR_SUIDX));
	put_enum_value(t, sass_form_field(f, SR_GEOM)->values, (unsigned)get(v, SR_GEOM), ", ");
	put(t, ", 0x%x", (unsigned)get(v, SR_QMASK));
}

static const char *const phase[] = { "", ".T", ".P", ".INVALIDPHASE3" };

static void put_phase(Text *t, uint32_t slot)
{
	SassCtrl c;
	sass_ctrl_unpack_slot(slot, &c);
	put(t, "%s", phase[c.reuse & 3]);
}

/* ---- sim4: TEXS, TLDS, TLD4S ---- */
static bool format_compact(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	if (f->op != SOP_TEXS && f->op != SOP_TLDS && f->op != SOP_TLD4S)
		return false;
	put(t, "%s", sass_op_mnemonic(f->op));
	if (f->op == SOP_TLD4S) {
		put_enum(t, f, v, SR_GATHER);
		put_flag(t, v, SR_AOFFI, ".AOFFI");
		put_flag(t, v, SR_DC, ".DC");
	} else {
		put_enum(t, f, v, SR_TEXSTARGET);
	}
	put_flag(t, v, SR_NODEP, ".NODEP");
	put_phase(t, slot);
	put(t, " ");
	put_reg(t, get(v, SR_RD2));
	put(t, ", ");
	put_reg(t, get(v, SR_RD));
	put(t, ", ");
	put_reg(t, get(v, SR_RA));
	/* TLD4S always has Rb (its y coordinate) */
	if (get(v, SR_RB) != 255 || f->op == SOP_TLD4S) {
		put(t, ", ");
		put_reg(t, get(v, SR_RB));
	}
	put(t, ", 0x%x", (unsigned)get(v, SR_SUIDX));
	if (f->op != SOP_TLD4S) {
		const SassTexsTarget *tg = sass_texs_target(f->op, get(v, SR_TEXSTARGET));
		put(t, ", %s, %s", tg ? tg->geometry : "?", sass_texs_mask_name(get(v, SR_TEXSMASK), get(v, SR_RD2) != 255));
	}
	return true;
}

bool sass_format_tex(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	bool bindless = f->op == SOP_TEX_B || f->op == SOP_TLD_B || f->op == SOP_TLD4_B || f->op == SOP_TXD_B;
	switch (f->op) {
	case SOP_TEX: case SOP_TEX_B:
		put(t, "TEX%s", bindless ? ".B" : "");
		put_enum(t, f, v, SR_TEXLOD);
		put_flag(t, v, SR_AOFFI, ".AOFFI");
		put_flag(t, v, SR_DC, ".DC");
		put_flag(t, v, SR_NDV, ".NDV");
		break;
	case SOP_TLD: case SOP_TLD_B:
		put(t, "TLD%s", bindless ? ".B" : "");
		put_enum(t, f, v, SR_TEXLOD);
		put_flag(t, v, SR_AOFFI, ".AOFFI");
		put_flag(t, v, SR_MS, ".MS");
		put_flag(t, v, SR_CL, ".CL");
		break;
	case SOP_TLD4: case SOP_TLD4_B:
		put(t, "TLD4");
		put_enum(t, f, v, SR_GATHER);
		put(t, "%s", bindless ? ".B" : "");
		put_enum(t, f, v, SR_AOFFI);
		put_flag(t, v, SR_DC, ".DC");
		put_flag(t, v, SR_NDV, ".NDV");
		break;
	case SOP_TXD: case SOP_TXD_B:
		put(t, "TXD%s", bindless ? ".B" : "");
		put_flag(t, v, SR_AOFFI, ".AOFFI");
		break;
	default:
		return format_compact(t, f, v, slot);
	}
	put_flag(t, v, SR_NODEP, ".NODEP");
	put_phase(t, slot);
	put_tex_operands(t, f, v);
	return true;
}
