/* The printers of the texture instructions (issue 17: TEX, TLD, TLD4 and
 * their .B forms) in nvdisasm 11.8's spelling:
 *   TEX{.B}{.LZ|.LB|.LL|.LLA}{.AOFFI}{.DC}{.NDV}{.NODEP}{.T|.P} Rd, Ra{, Rb}, idx, GEOM, mask
 *   TLD{.B}.LZ|.LL{.AOFFI}{.MS}{.CL}{.NODEP}{.T|.P}              Rd, Ra{, Rb}, idx, GEOM, mask
 *   TLD4.R|.G|.B|.A{.B}{.AOFFI|.PTP}{.DC}{.NDV}{.NODEP}{.T|.P}  Rd, Ra{, Rb}, idx, GEOM, mask
 *   TXD{.B}{.AOFFI}{.NODEP}{.T|.P}                               Rd, Ra, Rb, idx, GEOM, mask
 * Rb is left out when it is RZ (but TXD's); the .B forms print 0x0 as the index. The
 * phase (.T/.P) lives in the reuse bits of the control slot, as for TXQ. */
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

bool sass_format_tex(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	static const char *const phase[] = { "", ".T", ".P", ".INVALIDPHASE3" };
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
		return false;
	}
	put_flag(t, v, SR_NODEP, ".NODEP");
	SassCtrl c;
	sass_ctrl_unpack_slot(slot, &c);
	put(t, "%s", phase[c.reuse & 3]);
	put_tex_operands(t, f, v);
	return true;
}
