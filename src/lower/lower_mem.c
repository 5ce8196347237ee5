/* st.global -> STG and ld.global -> LDG, and the packing of sub-word vector
 * elements that they and the surface instructions share. ptxas picks the
 * size by the total bytes of the access (v2.u8 -> .U16, v4.u8 -> 32, ...)
 * and keeps the signedness only for scalar 8/16-bit accesses. */
#include "lower/lower_internal.h"

#include <string.h>

/* STG cache operators: the st_cop column of isa/surface_words.def (-1: none). */
static const struct { const char *word; int cop; } st_cops[] = {
#define SW(word, su, st, sass) { word, sass },
#define SASS(geom, coords, arrayed, redop, clamp, ld_cop, st_cop) st_cop
#define SQ(word, gate, texture_only, txq, desc_offset)
#include "isa/surface_words.def"
#undef SW
#undef SASS
#undef SQ
};

/* The address [reg], [reg+imm] or [reg-imm]. */
static bool st_address(LowerCtx *c, const Expr *a, uint32_t *base, unsigned *bw, int64_t *off)
{
	if (a->kind != EX_ADDRESS || a->nelems != 1)
		return lw_unsupported(c, a->loc, "this address");
	const Expr *e = a->elems[0];
	*off = 0;
	if (e->kind == EX_BINARY && (e->op == '+' || e->op == '-') && expr_const_int(e->rhs, off)) {
		if (e->op == '-')
			*off = -*off;
		e = e->lhs;
	}
	if (e->kind != EX_NAME)
		return lw_unsupported(c, a->loc, "this address (register plus constant offset is supported)");
	if (lmap_find(&c->module_surfrefs, e->text) || lmap_find(&c->params, e->text) ||
	    !(e->text[0] == '%'))
		return lw_unsupported(c, e->loc, "stores to a named variable ('%s'); use a register address",
		                      e->text);
	return lw_reg(c, e, base, bw);
}

/* Offsets beyond the signed 24-bit field are added to the address first. */
static uint32_t fold_offset(LowerCtx *c, uint32_t base, unsigned bw, int64_t *off)
{
	if (*off >= -0x800000 && *off <= 0x7fffff)
		return base;
	uint32_t a2 = lw_temp(c, bw);
	for (unsigned p = 0; p < bw; p++) {
		LInsn *add = lw_emit(c, SF_IADD32I);
		linsn_ref(add, SR_RD, a2, p, 1, true);
		linsn_ref(add, SR_RA, base, p, 1, false);
		linsn_set(add, SR_IMM, (uint32_t)((uint64_t)*off >> (32 * p)));
		if (bw == 2) {
			linsn_set(add, p ? SR_X : SR_CC, 1);
			add->writes_cc = p == 0;
			add->reads_cc = p == 1;
		}
	}
	*off = 0;
	return a2;
}

bool lower_st(LowerCtx *c, const Instr *in)
{
	if (!lw_has_mod(in, ".global"))
		return lw_unsupported(c, in->loc, "st outside the .global state space");
	int cop = 0;
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		bool known = strcmp(w, ".global") == 0 || strcmp(w, ".v2") == 0 || strcmp(w, ".v4") == 0 ||
		             ptx_type_of_word(w).bits != 0;
		for (size_t j = 0; j < sizeof st_cops / sizeof st_cops[0]; j++)
			if (st_cops[j].cop >= 0 && strcmp(w, st_cops[j].word) == 0) {
				cop = st_cops[j].cop;
				known = true;
			}
		if (!known)
			return lw_unsupported(c, in->mod_locs[i], "st.global modifier '%s' (cache operators "
			                      ".wb/.cg/.cs/.wt are supported)", w);
	}
	PtxTy t = lw_instr_type(in);
	unsigned vec = lw_vec_width(in);
	int size = vec == 1 && t.bits == 8 ? (t.is_signed ? 1 : 0)
	         : vec == 1 && t.bits == 16 ? (t.is_signed ? 3 : 2)
	         : sass_size_code(vec * t.bits / 8);
	if (size < 0 || t.bits < 8)
		return lw_unsupported(c, in->loc, "st.global of %u bytes", vec * t.bits / 8);
	uint32_t base;
	unsigned bw;
	int64_t off;
	if (!st_address(c, in->ops[0], &base, &bw, &off))
		return false;
	bool e64 = c->lm->address64;
	if ((e64 && bw != 2) || (!e64 && bw != 1))
		return lw_unsupported(c, in->ops[0]->loc, "a %u-bit address register with .address_size %u",
		                      32 * bw, e64 ? 64 : 32);
	uint32_t data = 0;
	unsigned nregs;
	bool rz;
	if (!lw_store_data(c, in->ops[1], vec, t.bits, &data, &nregs, &rz))
		return false;
	base = fold_offset(c, base, bw, &off);
	LInsn *stg = lw_emit(c, SF_STG);
	linsn_ref(stg, SR_RA, base, 0, bw, false);
	if (rz)
		linsn_set(stg, SR_RB, 255);
	else
		linsn_ref(stg, SR_RB, data, 0, nregs, false);
	linsn_set(stg, SR_SIZE, size);
	linsn_set(stg, SR_COP, cop);
	linsn_set(stg, SR_E, e64);
	linsn_set(stg, SR_IMM, off);
	return true;
}

/* ld.global cache operators as ptxas 11.8 maps them for sm_50. */
/* u128: a 128-bit load is .U.128 (size 7) at -O3, else .128. */
static const struct { const char *word; int cop; bool u128; } ld_cops[] = {
	{ ".ca", 0, true }, { ".cs", 0, false }, { ".weak", 0, true }, { ".cg", 1, false },
	{ ".lu", 1, false }, { ".nc", 2, true }, { ".cv", 3, false }, { ".volatile", 3, false },
};

bool lower_ld_global(LowerCtx *c, const Instr *in)
{
	int cop = 0;
	bool u128 = true;
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		bool known = strcmp(w, ".global") == 0 || strcmp(w, ".v2") == 0 || strcmp(w, ".v4") == 0 ||
		             ptx_type_of_word(w).bits != 0;
		for (size_t j = 0; j < sizeof ld_cops / sizeof ld_cops[0]; j++)
			if (strcmp(w, ld_cops[j].word) == 0) {
				cop = ld_cops[j].cop;
				u128 = ld_cops[j].u128;
				known = true;
				/* recorded at lowering: ptxas keeps it for a dead load too */
				c->k->explicit_caching |= strcmp(w, ".ca") == 0;
			}
		if (!known)
			return lw_unsupported(c, in->mod_locs[i], "ld.global modifier '%s'", w);
	}
	PtxTy t = lw_instr_type(in);
	unsigned vec = lw_vec_width(in), bytes = vec * t.bits / 8;
	/* ptxas -O3: 128-bit loads without .cg/.lu/.cs/.cv are .U.128 (size 7) */
	int size = vec == 1 && t.bits == 8 ? (t.is_signed ? 1 : 0)
	         : vec == 1 && t.bits == 16 ? (t.is_signed ? 3 : 2)
	         : bytes == 16 && u128 ? 7 : sass_size_code(bytes);
	if (size < 0 || t.bits < 8)
		return lw_unsupported(c, in->loc, "ld.global of %u bytes", bytes);
	uint32_t base;
	unsigned bw;
	int64_t off;
	if (!st_address(c, in->ops[1], &base, &bw, &off))
		return false;
	bool e64 = c->lm->address64;
	if ((e64 && bw != 2) || (!e64 && bw != 1))
		return lw_unsupported(c, in->ops[1]->loc, "a %u-bit address register with .address_size %u",
		                      32 * bw, e64 ? 64 : 32);
	const Expr *de = in->ops[0];
	uint32_t elems[4];
	if (vec > 1 && (de->kind != EX_VECTOR || de->nelems != vec))
		return lw_unsupported(c, de->loc, "this destination vector");
	for (unsigned i = 0; i < vec; i++) {
		unsigned w;
		if (!lw_reg(c, vec > 1 ? de->elems[i] : de, &elems[i], &w))
			return false;
	}
	base = fold_offset(c, base, bw, &off);
	unsigned nregs = bytes <= 4 ? 1 : bytes / 4;
	uint32_t dst = vec == 1 ? elems[0] : lw_temp(c, nregs);
	LInsn *ldg = lw_emit(c, SF_LDG);
	linsn_ref(ldg, SR_RD, dst, 0, nregs, true);
	linsn_ref(ldg, SR_RA, base, 0, bw, false);
	linsn_set(ldg, SR_SIZE, size);
	linsn_set(ldg, SR_COP, cop);
	linsn_set(ldg, SR_E, e64);
	linsn_set(ldg, SR_IMM, off);
	ldg->keep = lw_has_mod(in, ".volatile");
	if (vec == 1)
		return true;
	if (t.bits < 32) {
		lw_unpack(c, dst, vec, t.bits, elems);
		return true;
	}
	unsigned per = t.bits / 32;
	for (unsigned i = 0; i < vec; i++)
		for (unsigned p = 0; p < per; p++)
			lw_mov(c, elems[i], p, dst, i * per + p);
	return true;
}
