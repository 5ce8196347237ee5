/* Which registers, predicates and condition code an sm_50 instruction
 * reads and writes, from its form's roles and values (sass_regs.h). Widths
 * follow the access size (.64 a pair, .128 a quad, .E a 64-bit address
 * pair). */
#include "sm50/sass_regs.h"

#include <string.h>

static void add_regs(uint64_t set[4], int64_t first, unsigned count)
{
	if (first < 0 || first >= 255)
		return;
	for (unsigned i = 0; i < count && first + i < 255; i++)
		set[(first + i) / 64] |= UINT64_C(1) << ((first + i) % 64);
}

static void add_pred(uint8_t *set, int64_t p)
{
	if (p >= 0 && p < 7)
		*set |= (uint8_t)(1u << p);
}

static int64_t get(const SassValues *v, SassRole r)
{
	return sass_values_get(v, r, -1);
}

/* Registers of a memory access of the size field's value. */
static unsigned size_regs(const SassForm *f, int64_t size)
{
	if (f->op == SOP_SURED_D || f->op == SOP_SURED_P)
		return 1;
	return size == 5 ? 2 : size >= 6 ? 4 : 1;
}

static unsigned popcount4(int64_t mask)
{
	unsigned n = 0;
	for (int i = 0; i < 4; i++)
		n += (unsigned)((mask >> i) & 1);
	return n;
}

/* Coordinate registers of a surface access by geometry. */
static unsigned geom_regs(int64_t geom)
{
	static const unsigned regs[] = { 1, 1, 2, 2, 3, 3 };
	return geom >= 0 && geom < 6 ? regs[geom] : 1;
}

static unsigned data_regs(const SassForm *f, const SassValues *in)
{
	if (sass_form_field(f, SR_RGBA))
		return popcount4(get(in, SR_RGBA));
	if (sass_form_field(f, SR_SUTYPE)) {
		int64_t t = get(in, SR_SUTYPE);
		return t == 2 || t == 5 || t == 7 ? 2 : 1;
	}
	if (sass_form_field(f, SR_SIZE))
		return size_regs(f, get(in, SR_SIZE));
	if (f->op == SOP_TXQ || f->op == SOP_TXQ_B)
		return popcount4(get(in, SR_QMASK));
	return 1;
}

/* I2F/F2I: a 64-bit integer or an F64 is a register pair (integer types
 * are signed | log2(bytes) << 1, float formats 1 F16, 2 F32, 3 F64). */
static unsigned conv_regs(const SassForm *f, const SassValues *in, SassRole r)
{
	int64_t t = get(in, r);
	bool is_int = (f->op == SOP_I2F) == (r == SR_STYPE);
	return (is_int ? t >> 1 == 3 : t == 3) ? 2 : 1;
}

/* The FP64 unit's operands are aligned register pairs. */
static bool is_fp64(SassOp op)
{
	return op == SOP_DADD || op == SOP_DMUL || op == SOP_DFMA || op == SOP_DMNMX || op == SOP_DSETP ||
	       op == SOP_DSET;
}

/* F2F: an F64 (format 3) is a pair. */
static unsigned f2f_regs(const SassValues *in, SassRole r)
{
	return get(in, r) == 3 ? 2 : 1;
}

/* ---- issue 17 part 1: atomics ----
 * Registers per value: 64-bit types (U64 2, S64 5; ATOMS: 2 and 3) are
 * pairs; CAS reads compare and new value (two registers, .64 four). */
static bool atomic_regs(const SassForm *f, const SassValues *in, SassRegUse *u)
{
	int64_t size = get(in, SR_ATOMSIZE);
	unsigned width;
	switch (f->op) {
	case SOP_ATOM: case SOP_RED: width = size == 2 || size == 5 ? 2 : size == 4 ? 4 : 1; break;
	case SOP_ATOMS: width = size >= 2 ? 2 : 1; break;
	case SOP_ATOM_CAS: case SOP_ATOMS_CAS: width = get(in, SR_CAS64) == 1 ? 2 : 1; break;
	default: return false;
	}
	bool cas = f->op == SOP_ATOM_CAS || f->op == SOP_ATOMS_CAS;
	add_regs(u->reads, get(in, SR_RA), get(in, SR_E) == 1 ? 2 : 1);
	add_regs(u->reads, get(in, SR_RB), cas ? 2 * width : width);
	add_regs(u->writes, get(in, SR_RD), width);
	return true;
}

/* ---- issue 17: textures ----
 * Ra: the array index and the coordinates (cube maps: three); Rb: the
 * bindless handle, then the level or bias, the offsets and the depth
 * reference, as each is present; Rd: one register per component of the
 * write mask. */
static bool texture_regs(const SassForm *f, const SassValues *in, SassRegUse *u)
{
	static const unsigned coords[] = { 1, 2, 2, 3, 3, 4, 3, 4 };
	if (f->op == SOP_TXD || f->op == SOP_TXD_B) {
		/* Ra: (.B: the handle,) the coordinates, (.AOFFI:) the offsets
		 * word (ptxas 11.8's TXD.AOFFI); Rb: two derivatives each */
		unsigned n = coords[get(in, SR_GEOM) & 7];
		add_regs(u->reads, get(in, SR_RA), n + (f->op == SOP_TXD_B) + (get(in, SR_AOFFI) == 1));
		add_regs(u->reads, get(in, SR_RB), 2 * n);
		add_regs(u->writes, get(in, SR_RD), popcount4(get(in, SR_QMASK)));
		return true;
	}
	if (f->op != SOP_TEX && f->op != SOP_TEX_B && f->op != SOP_TLD && f->op != SOP_TLD_B &&
	    f->op != SOP_TLD4 && f->op != SOP_TLD4_B)
		return false;
	bool tld = f->op == SOP_TLD || f->op == SOP_TLD_B;
	int64_t lod = get(in, SR_TEXLOD);
	unsigned rb = (f->op == SOP_TEX_B || f->op == SOP_TLD_B || f->op == SOP_TLD4_B) +
	              (tld ? lod == 1 : lod >= 2) + (get(in, SR_AOFFI) > 0) + (get(in, SR_DC) == 1) +
	              (get(in, SR_MS) == 1);
	add_regs(u->reads, get(in, SR_RA), coords[get(in, SR_GEOM) & 7]);
	add_regs(u->reads, get(in, SR_RB), rb);
	add_regs(u->writes, get(in, SR_RD), popcount4(get(in, SR_QMASK)));
	return true;
}

/* ---- sim4: TEXS/TLDS/TLD4S ----
 * Their n source values (the array index, the coordinates, then the level
 * or depth reference) fill Ra, then Rb, then Ra+1, Rb+1: one value each
 * in Ra and Rb up to two, Ra and Ra+1 first from three on (the layouts
 * of the targets ptxas 11.8 writes for the tests are confirmed by sim-diff:
 * its code and ours write the same bytes). The components
 * land two in Rd, the rest in Rd2. */
static bool compact_texture_regs(const SassForm *f, const SassValues *in, SassRegUse *u)
{
	unsigned n;
	bool pair2 = get(in, SR_RD2) != 255;
	unsigned comps = 4;
	if (f->op == SOP_TLD4S) {
		n = 2 + (get(in, SR_AOFFI) == 1) + (get(in, SR_DC) == 1);
		comps = pair2 ? 4 : 2;
	} else if (f->op == SOP_TEXS || f->op == SOP_TLDS) {
		const SassTexsTarget *tg = sass_texs_target(f->op, get(in, SR_TEXSTARGET));
		static const unsigned coords[] = { 1, 2, 2, 3, 3, 4, 3, 4 };
		n = tg ? coords[tg->geom & 7] + (tg->lod == 3) + tg->dc + tg->aoffi + tg->ms : 1;
		comps = popcount4(sass_texs_mask(get(in, SR_TEXSMASK), pair2));
	} else {
		return false;
	}
	/* TLDS ARRAY_2D is the exception: the layer in Ra, x and y in Rb, Rb+1 */
	bool tlds_array = f->op == SOP_TLDS && get(in, SR_TEXSTARGET) == 8;
	add_regs(u->reads, get(in, SR_RA), n >= 3 && !tlds_array ? 2 : 1);
	add_regs(u->reads, get(in, SR_RB), n >= 4 || tlds_array ? 2 : n >= 2 ? 1 : 0);
	add_regs(u->writes, get(in, SR_RD), comps < 2 ? comps : 2);
	add_regs(u->writes, get(in, SR_RD2), comps > 2 ? comps - 2 : 0);
	return true;
}

bool sass_varlat(const SassForm *f, int64_t vfmt_a, int64_t vfmt_b)
{
	if (f->op == SOP_VMAD)
		return (vfmt_a & 7) == 6 || (f->bkind == SASS_B_REG && (vfmt_b & 7) == 6);
	return f->cls == SASS_CLASS_VARLAT || f->cls == SASS_CLASS_VARLAT_ALU;
}

void sass_form_regs(const SassForm *f, const SassValues *in, SassRegUse *u)
{
	memset(u, 0, sizeof *u);
	u->varlat = sass_varlat(f, get(in, SR_VFMT_A), get(in, SR_VFMT_B));
	add_pred(&u->pred_reads, get(in, SR_PG));
	if (atomic_regs(f, in, u) || texture_regs(f, in, u) || compact_texture_regs(f, in, u))
		return;
	unsigned ra_regs = 1;
	switch (f->op) {
	case SOP_STG: case SOP_LDG: ra_regs = get(in, SR_E) == 1 ? 2 : 1; break;
	case SOP_ST: case SOP_LD: ra_regs = get(in, SR_E) == 1 ? 2 : 1; break;
	case SOP_CCTL: ra_regs = get(in, SR_E) == 1 ? 2 : 1; break;
	case SOP_SUST_D: case SOP_SUST_P: case SOP_SULD_D: case SOP_SULD_P:
	case SOP_SURED_D: case SOP_SURED_P: ra_regs = geom_regs(get(in, SR_GEOM)); break;
	case SOP_TXQ_B: ra_regs = 2; break;
	default: ra_regs = is_fp64(f->op) ? 2 : 1; break;
	}
	add_regs(u->reads, get(in, SR_RA), ra_regs);
	bool store = f->op == SOP_STG || f->op == SOP_STS || f->op == SOP_STL || f->op == SOP_ST ||
	             f->op == SOP_SUST_D || f->op == SOP_SUST_P ||
	             f->op == SOP_SURED_D || f->op == SOP_SURED_P;
	bool conv = f->op == SOP_I2F || f->op == SOP_F2I;
	unsigned pair = is_fp64(f->op) ? 2 : 1;
	add_regs(u->reads, get(in, SR_RB), store ? data_regs(f, in) : conv ? conv_regs(f, in, SR_STYPE) :
	                                   f->op == SOP_F2F ? f2f_regs(in, SR_STYPE) : pair);
	add_regs(u->reads, get(in, SR_RC), pair);
	add_regs(u->writes, get(in, SR_RD), conv ? conv_regs(f, in, SR_DTYPE) :
	                                    f->op == SOP_F2F ? f2f_regs(in, SR_DTYPE) :
	                                    pair > 1 && f->op != SOP_DSET ? pair :
	                                    data_regs(f, in));
	add_pred(&u->pred_writes, get(in, SR_PD));
	add_pred(&u->pred_writes, get(in, SR_PQ));
	add_pred(&u->pred_reads, get(in, SR_PC));
	add_pred(&u->pred_reads, get(in, SR_PA));
	add_pred(&u->pred_reads, get(in, SR_PB));
	/* P2R/R2P move the flags of the condition code or, r2p14, the
	 * predicates of the mask (P0-P6: mask bits 0-6) */
	bool pr = sass_moves_pr(f);
	uint8_t mask_preds = (uint8_t)(get(in, SR_IMM) & 0x7f);
	if (pr && f->op == SOP_R2P)
		u->pred_writes |= mask_preds;
	if (pr && f->op == SOP_P2R)
		u->pred_reads |= mask_preds;
	u->cc_write = get(in, SR_CC) == 1 || (f->op == SOP_R2P && !pr);
	u->cc_read = get(in, SR_X) == 1 || (f->op == SOP_BRA && get(in, SR_COND) != 0xf) || f->op == SOP_CSETP ||
	             (f->op == SOP_P2R && !pr);
}
