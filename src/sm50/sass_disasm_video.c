/* nvdisasm's text for the scalar video forms (VADD VMNMX VSET VSHL VSHR
 * VMAD), read off nvdisasm 11.8 and checked by tests/oracle/sass-forms.sh:
 *   OP{.UD}{.fa.fb}{.PO}{.MX|.W}{.SHR_n}{.SAT}{.mode} Rd[.CC], [-]Ra{.part}, [-]B{.part}, [-]Rc
 * (VSET: VSET.cmp{.fa.fb}{.mode}). An immediate B prints as its 16 bits
 * (-0x0 as 0x0), signed when S16 in VMNMX and VSET. The formats are left out when A is
 * S32 and B the default: S32 (a register) or S16 (an immediate); for the
 * shifts, whose B is unsigned, U32 or any immediate. */
#include "sm50/sass_disasm_video.h"

static bool is_shift(const SassForm *f)
{
	return f->op == SOP_VSHL || f->op == SOP_VSHR;
}

static void put_formats(Text *t, const SassForm *f, const SassValues *v)
{
	bool imm = f->bkind == SASS_B_IMM;
	int64_t fa = get(v, SR_VFMT_A), fb = get(v, SR_VFMT_B);
	bool b_default = is_shift(f) ? (imm || fb == 6) : imm ? fb == 1 : fb == 14;
	if (fa == 14 && b_default)
		return;
	put_enum(t, f, v, SR_VFMT_A);
	if (is_shift(f) && imm)
		put(t, ".U16");
	else
		put_enum(t, f, v, SR_VFMT_B);
}

/* The register's part suffix of a format (byte 1-3, half 1); none for
 * byte 0, half 0 and the word. */
static void put_part(Text *t, int64_t fmt)
{
	static const char *const part[8] = { "", ".B1", ".B2", ".B3", "", ".H1", "", "" };
	put(t, "%s", part[fmt & 7]);
}

bool sass_format_video(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	if (f->op != SOP_VADD && f->op != SOP_VMNMX && f->op != SOP_VSET && !is_shift(f) && f->op != SOP_VMAD)
		return false;
	bool vmad = f->op == SOP_VMAD;
	/* nvdisasm prints no reuse flags on a VMAD with a 32-bit operand */
	bool bare = vmad && ((get(v, SR_VFMT_A) & 7) == 6 || (f->bkind == SASS_B_REG && (get(v, SR_VFMT_B) & 7) == 6));
	if (bare)
		slot = 0;
	int64_t neg = get(v, SR_NEG);      /* VADD: 1 -B, 2 -A, 3 .PO */
	if (vmad)
		neg = get(v, SR_NEGA) * 2 + get(v, SR_NEGC);     /* VMAD: 2 -A, 1 -C, 3 .PO */
	put(t, "%s", sass_op_mnemonic(f->op));
	put_enum(t, f, v, SR_CMP);
	if (sass_form_field(f, SR_SD) && !get(v, SR_SD))
		put(t, ".UD");
	put_formats(t, f, v);
	if (neg == 3)
		put(t, ".PO");
	put_flag(t, v, SR_VMAX, ".MX");
	put_flag(t, v, SR_W, ".W");
	put_enum(t, f, v, SR_VSCALE);
	put_flag(t, v, SR_SAT, ".SAT");
	put_enum(t, f, v, SR_VMODE);
	put(t, " ");
	put_rd_cc(t, v);
	put(t, neg == 2 ? ", -" : ", ");
	put_reg(t, get(v, SR_RA));
	put_part(t, get(v, SR_VFMT_A));
	put_reuse(t, slot, REUSE_A);
	bool imm = f->bkind == SASS_B_IMM;
	put(t, neg == 1 && !vmad && !(imm && get(v, SR_IMM) == 0) ? ", -" : ", ");
	if (imm && (f->op == SOP_VMNMX || f->op == SOP_VSET) && get(v, SR_VFMT_B) == 1) {
		put_signed_hex(t, (int16_t)(uint16_t)get(v, SR_IMM));
	} else if (imm) {
		put(t, "0x%x", (unsigned)get(v, SR_IMM));
	} else {
		put_reg(t, get(v, SR_RB));
		put_part(t, get(v, SR_VFMT_B));
		put_reuse(t, slot, REUSE_B);
	}
	put(t, neg == 1 && vmad ? ", -" : ", ");
	put_reg(t, get(v, SR_RC));
	put_reuse(t, slot, REUSE_C);
	return true;
}
