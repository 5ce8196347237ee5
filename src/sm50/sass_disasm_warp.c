/* nvdisasm's text for the atomics, reductions and warp operations of
 * issue 17 (ATOM, ATOM.CAS, RED, ATOMS, ATOMS.CAS, SHFL, VOTE, CS2R), read
 * off nvdisasm 11.8 and checked by tests/oracle/sass-forms.sh. */
#include "sm50/sass_disasm_fam.h"

/* CAS's register operands: Rb and the implied Rb+1 (.64: Rb+2). nvdisasm
 * names neither with RZ: an operand at or past R255 prints as ???255. */
static void put_cas_regs(Text *t, int64_t rb, int step)
{
	if (rb >= 255)
		put(t, "???255");
	else
		put_reg(t, rb);
	put(t, ", ");
	if (rb + step >= 255)
		put(t, "???255");
	else
		put_reg(t, rb + step);
}

/* [Ra+off] of ATOMS: the offset field counts 4-byte words. */
static void put_shared_address(Text *t, const SassValues *v)
{
	SassValues bytes = *v;
	sass_values_set(&bytes, SR_IMM, get(v, SR_WOFF) * 4);
	put_global_address(t, &bytes, 24);
}

/* ATOM{.E}.op{.type} Rd, [Ra+off], Rb and ATOM{.E}.CAS{.64} Rd, [Ra+off],
 * Rb, Rb+1 (Rb+2); ATOMS likewise on the shared window. */
static void print_atom(Text *t, const SassForm *f, const SassValues *v)
{
	bool cas = f->op == SOP_ATOM_CAS || f->op == SOP_ATOMS_CAS;
	bool shared = f->op == SOP_ATOMS || f->op == SOP_ATOMS_CAS;
	put(t, "%s", sass_op_mnemonic(f->op));
	put_flag(t, v, SR_E, ".E");
	put_enum(t, f, v, SR_CAS64);
	put_enum(t, f, v, SR_ATOMOP);
	put_enum(t, f, v, SR_ATOMSIZE);
	put(t, " ");
	put_reg(t, get(v, SR_RD));
	put(t, ", ");
	if (shared)
		put_shared_address(t, v);
	else
		put_global_address(t, v, 20);
	put(t, ", ");
	if (cas)
		put_cas_regs(t, get(v, SR_RB), get(v, SR_CAS64) ? 2 : 1);
	else
		put_reg(t, get(v, SR_RB));
}

static void print_red(Text *t, const SassForm *f, const SassValues *v)
{
	put(t, "RED");
	put_flag(t, v, SR_E, ".E");
	put_enum(t, f, v, SR_ATOMOP);
	put_enum(t, f, v, SR_ATOMSIZE);
	put(t, " ");
	put_global_address(t, v, 20);
	put(t, ", ");
	put_reg(t, get(v, SR_RB));
}

/* SHFL.mode Pd, Rd, Ra, lane, mask: lane and mask registers or immediates. */
static void print_shfl(Text *t, const SassForm *f, const SassValues *v)
{
	put(t, "SHFL");
	put_enum(t, f, v, SR_SHFLMODE);
	put(t, " ");
	put_pred(t, get(v, SR_PD), false);
	put(t, ", ");
	put_reg(t, get(v, SR_RD));
	put(t, ", ");
	put_reg(t, get(v, SR_RA));
	put(t, ", ");
	if (sass_form_field(f, SR_RB))
		put_reg(t, get(v, SR_RB));
	else
		put(t, "0x%x", (unsigned)get(v, SR_IMM));
	put(t, ", ");
	if (sass_form_field(f, SR_RC))
		put_reg(t, get(v, SR_RC));
	else
		put(t, "0x%x", (unsigned)get(v, SR_SHFLC));
}

/* VOTE.mode [Rd,] Pd, [!]Pc: nvdisasm leaves out an RZ ballot. */
static void print_vote(Text *t, const SassForm *f, const SassValues *v)
{
	put(t, "VOTE");
	put_enum(t, f, v, SR_VOTEMODE);
	put(t, " ");
	if (get(v, SR_RD) != 255) {
		put_reg(t, get(v, SR_RD));
		put(t, ", ");
	}
	put_pred(t, get(v, SR_PD), false);
	put(t, ", ");
	put_pred(t, get(v, SR_PC), get(v, SR_PC_NOT) != 0);
}

bool sass_format_warp(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	(void)slot;
	switch (f->op) {
	case SOP_ATOM: case SOP_ATOM_CAS: case SOP_ATOMS: case SOP_ATOMS_CAS: print_atom(t, f, v); return true;
	case SOP_RED: print_red(t, f, v); return true;
	case SOP_SHFL: print_shfl(t, f, v); return true;
	case SOP_VOTE: print_vote(t, f, v); return true;
	case SOP_CS2R:
		put(t, "CS2R ");
		put_reg(t, get(v, SR_RD));
		put(t, ", ");
		put_enum_value(t, sass_form_field(f, SR_SREG)->values, (unsigned)get(v, SR_SREG), "");
		return true;
	default: return false;
	}
}
