/* nvdisasm's text for issue 17's families; the spellings were read off
 * nvdisasm 11.8 and are checked by tests/oracle/sass-forms.sh. */
#include "sm50/sass_disasm_fam.h"

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

bool sass_format_fam(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	switch (f->op) {
	case SOP_POPC: print_popc(t, f, v); return true;
	case SOP_FLO: print_flo(t, f, v); return true;
	case SOP_PRMT: print_prmt(t, f, v, slot); return true;
	default: return false;
	}
}
