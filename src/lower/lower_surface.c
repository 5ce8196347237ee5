/* suld / sust / sured / suq -> SULD / SUST / SURED / TXQ, with the mapping
 * ptxas 11.8 uses for sm_50 (.b -> .D.BA; sust.p -> SUST.P with an RGBA
 * mask; sured.p -> SURED.D in element units; access size by total bytes;
 * array index last in the coordinate group; suq.width/height -> TXQ, the
 * other suq queries -> a load from the driver's surface-descriptor table). */
#include "lower/lower_internal.h"

#include "base/xalloc.h"

#include <string.h>

typedef enum SurfKind { SK_SULD, SK_SUST, SK_SURED, SK_SUQ } SurfKind;

/* The modifiers of a surface instruction, classified. */
typedef struct SurfMods {
	bool is_p;          /* .p (formatted) */
	int geom;           /* SASS geometry, -1 = none given */
	unsigned ncoords;   /* coordinates SASS reads */
	bool arrayed;
	int cop;
	int clamp;
	int redop;          /* SURED operation, -1 none */
	unsigned vec;
	PtxTy type;
	int query;          /* suq: TXQ mask, 0 = a descriptor query (field >= 0) or unknown */
	int field;          /* suq: descriptor field byte offset, -1 = not one */
	const char *query_word;
} SurfMods;

/* The SASS columns of isa/surface_words.def: geometry (with the
 * coordinates SASS reads and whether the array index moves last), SURED
 * operation, clamp mode and cache operation codes; -1: not that kind of
 * word for the lowering. suld: .ca/.cs/none -> 0, .cg -> CG, .cv -> CV;
 * sust: .wb/none -> 0, .cg .cs .wt. */
typedef struct SurfWordCodes {
	const char *word;
	int geom;
	unsigned ncoords;
	bool arrayed;
	int redop, clamp, suld, sust;
} SurfWordCodes;

static const SurfWordCodes words[] = {
#define SW(word, su, st, sass) { word, sass },
#define SASS(geom, coords, arrayed, redop, clamp, ld_cop, st_cop) geom, coords, arrayed, redop, clamp, ld_cop, st_cop
#define SQ(word, gate, texture_only, txq, desc_offset)
#include "isa/surface_words.def"
#undef SW
#undef SASS
#undef SQ
};

/* suq queries (isa/surface_words.def): .width and .height are TXQ queries;
 * the others ptxas 11.8 answers from the surface descriptor the driver
 * keeps at c[0x0][0xc0] (one .nv.surfrefDescSize-byte entry per header
 * index), at the byte offset of the field in an entry. */
static const struct { const char *word; int txq, offset; } queries[] = {
#define SW(word, su, st, sass)
#define SQ(word, gate, texture_only, txq, desc_offset) { word, txq, desc_offset },
#include "isa/surface_words.def"
#undef SW
#undef SQ
};

enum {
	DESC_TABLE_CWORD = 0xc0,      /* c[0x0][0xc0]: 64-bit pointer to the descriptor table */
};

static bool parse_mods(LowerCtx *c, const Instr *in, SurfKind kind, SurfMods *m)
{
	memset(m, 0, sizeof *m);
	m->geom = -1;
	m->clamp = 2;   /* .trap when none is written */
	m->redop = -1;
	m->vec = 1;
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		SrcLoc at = in->mod_locs[i];
		bool known = false;
		if (lw_streq(w, ".b") || lw_streq(w, ".p")) {
			m->is_p = w[1] == 'p';
			known = true;
		}
		for (size_t j = 0; j < sizeof words / sizeof words[0]; j++) {
			const SurfWordCodes *sw = &words[j];
			if (!lw_streq(w, sw->word))
				continue;
			if (sw->geom >= 0) {
				m->geom = sw->geom;
				m->ncoords = sw->ncoords;
				m->arrayed = sw->arrayed;
				known = true;
			}
			if (kind == SK_SURED && sw->redop >= 0) {
				m->redop = sw->redop;
				known = true;
			}
			if (sw->clamp >= 0) {
				m->clamp = sw->clamp;
				known = true;
			}
			if (sw->suld >= 0 || sw->sust >= 0) {
				int v = kind == SK_SULD ? sw->suld : kind == SK_SUST ? sw->sust : -1;
				if (v < 0)
					return lw_unsupported(c, at, "%s cache operator '%s'", in->opcode, w);
				m->cop = v;
				known = true;
			}
		}
		if (lw_streq(w, ".v2") || lw_streq(w, ".v4")) {
			m->vec = w[2] - '0';
			known = true;
		}
		if (ptx_type_of_word(w).bits) {
			m->type = ptx_type_of_word(w);
			known = true;
		}
		if (kind == SK_SUQ && !known) {
			m->query_word = w;
			m->query = 0;
			m->field = -1;
			for (size_t j = 0; j < sizeof queries / sizeof queries[0]; j++)
				if (lw_streq(w, queries[j].word)) {
					m->query = queries[j].txq;
					m->field = queries[j].offset;
				}
			known = true;
		}
		if (!known)
			return lw_unsupported(c, at, "%s modifier '%s'", in->opcode, w);
	}
	if (kind != SK_SUQ && m->geom < 0)
		return lw_unsupported(c, in->loc, "%s without a 1d/2d/3d/a1d/a2d geometry", in->opcode);
	return true;
}

/* Where the surface header index comes from. */
typedef struct SurfIndex {
	bool immediate;
	bool bound;         /* a .global .surfref (its slot in c[0x0]) */
	uint32_t idx;       /* immediate: c[0x0] word index */
	uint32_t vreg;      /* register form: the handle (part 0 = header index) */
} SurfIndex;

static bool surface_index(LowerCtx *c, const Expr *h, SurfIndex *si)
{
	memset(si, 0, sizeof *si);
	if (h->kind != EX_NAME)
		return lw_unsupported(c, h->loc, "this surface operand");
	int ref = lw_ref_param(c, h->text);
	if (ref && ref != LPARAM_SURFREF)
		return lw_unsupported(c, h->loc, "a .param .%s as a surface",
		                      ref == LPARAM_TEXREF ? "texref" : "samplerref");
	if (ref || lmap_find(&c->module_surfrefs, h->text)) {
		si->immediate = si->bound = true;
		si->idx = lw_bound_slot(c, h->text) / 4;
		return true;
	}
	const LMapEntry *p = lmap_find(&c->param_handles, h->text);
	if (p) {
		si->immediate = true;
		si->idx = (SASS_PARAM_CBANK_BASE + (uint32_t)p->value) / 4;
		return true;
	}
	unsigned w;
	if (!lw_reg(c, h, &si->vreg, &w))
		return false;
	if (w != 2)
		return lw_unsupported(c, h->loc, "a surface handle that is not a .u64/.b64 register");
	return true;
}

static void set_index(const LowerCtx *c, LInsn *in, const SurfIndex *si)
{
	if (si->immediate)
		lw_set_handle_word(c, in, SR_SUIDX, si->idx);
	else
		linsn_ref(in, SR_RC, si->vreg, 0, 1, false);
}

/* The surface tuple [h, {coords}]: index and coordinate group (array
 * index moved last; the unused 4th element of 3d/a2d dropped). */
static bool surface_address(LowerCtx *c, const Expr *a, const SurfMods *m, SurfIndex *si,
                            uint32_t *coords)
{
	if (a->kind != EX_ADDRESS || a->nelems != 2)
		return lw_unsupported(c, a->loc, "this surface address (expected [surface, {coordinates}])");
	if (!surface_index(c, a->elems[0], si))
		return false;
	const Expr *ce = a->elems[1];
	const Expr *const *elems = (const Expr *const *)&a->elems[1];
	unsigned n = 1;
	if (ce->kind == EX_VECTOR) {
		elems = (const Expr *const *)ce->elems;
		n = ce->nelems;
	}
	if (n < m->ncoords)
		return lw_unsupported(c, ce->loc, "a coordinate vector with %u elements", n);
	Opnd o[3];
	for (unsigned i = 0; i < m->ncoords; i++) {
		/* PTX: array index first; SASS: last */
		unsigned from = m->arrayed ? (i + 1 == m->ncoords ? 0 : i + 1) : i;
		if (!lw_opnd(c, elems[from], &o[i]))
			return false;
		if (o[i].kind == OPND_REG && o[i].width != 1)
			return lw_unsupported(c, elems[from]->loc, "a 64-bit surface coordinate");
	}
	if (m->ncoords == 1 && o[0].kind == OPND_REG) {
		*coords = o[0].vreg;
		return true;
	}
	*coords = lw_temp(c, m->ncoords == 3 ? 4 : m->ncoords);
	for (unsigned i = 0; i < m->ncoords; i++) {
		if (o[i].kind == OPND_IMM)
			lw_mov32i(c, *coords, i, (uint32_t)o[i].imm);
		else
			lw_mov(c, *coords, i, o[i].vreg, 0);
	}
	return true;
}

/* A surface instruction's two forms: the surface index as an immediate,
 * and in a register (_R). */
typedef struct SuForms {
	SassFormId imm, reg;
} SuForms;
#define SU_FORMS(family) ((SuForms){ SF_##family, SF_##family##_R })

static LInsn *emit_su(LowerCtx *c, SuForms forms, const SurfIndex *si, const SurfMods *m,
                      uint32_t coords)
{
	LInsn *in = lw_emit(c, si->immediate ? forms.imm : forms.reg);
	linsn_ref(in, SR_RA, coords, 0, m->ncoords, false);
	set_index(c, in, si);
	linsn_set(in, SR_GEOM, m->geom);
	linsn_set(in, SR_CLAMP, m->clamp);
	/* ptxas records EIATTR_BINDLESS_SURFACE_BANK for a bound surfref only,
	 * not for a parameter or register handle */
	c->k->uses_surfaces |= si->bound;
	return in;
}

static bool data_bits_ok(LowerCtx *c, const Instr *in, const SurfMods *m)
{
	if (m->type.bits < 8 || m->type.bits > 64 || sass_size_code(m->vec * m->type.bits / 8) < 0)
		return lw_unsupported(c, in->loc, "%s with %u-bit %s data", in->opcode, m->vec * m->type.bits,
		                      m->vec > 1 ? "vector" : "scalar");
	return true;
}

bool lower_suld(LowerCtx *c, const Instr *in)
{
	SurfMods m;
	if (!parse_mods(c, in, SK_SULD, &m) || !data_bits_ok(c, in, &m))
		return false;
	if (m.is_p)
		return lw_unsupported(c, in->loc, "suld.p");
	SurfIndex si;
	uint32_t coords;
	if (!surface_address(c, in->ops[1], &m, &si, &coords))
		return false;
	unsigned bytes = m.vec * m.type.bits / 8, nregs = bytes <= 4 ? 1 : bytes / 4;
	const Expr *de = in->ops[0];
	uint32_t elems[4];
	unsigned n = m.vec;
	if (de->kind == EX_VECTOR) {
		if (de->nelems != n)
			return lw_unsupported(c, de->loc, "this destination vector");
		for (unsigned i = 0; i < n; i++) {
			unsigned w;
			if (!lw_reg(c, de->elems[i], &elems[i], &w))
				return false;
		}
	} else {
		unsigned w;
		if (n != 1 || !lw_reg(c, de, &elems[0], &w))
			return n != 1 ? lw_unsupported(c, de->loc, "this destination") : false;
	}
	/* a scalar lands directly in its register; vectors go through a group */
	uint32_t dst = n == 1 ? elems[0] : lw_temp(c, nregs == 3 ? 4 : nregs);
	LInsn *ld = emit_su(c, SU_FORMS(SULD_D), &si, &m, coords);
	linsn_ref(ld, SR_RD, dst, 0, nregs, true);
	linsn_set(ld, SR_BA, 1);
	linsn_set(ld, SR_SIZE, sass_size_code(m.vec * m.type.bits / 8));
	linsn_set(ld, SR_COP, m.cop);
	if (n == 1)
		return true;
	/* ptxas loads only up to the last element that is read (regalloc.c) */
	ld->narrow_parts = m.type.bits == 64 ? 2 : 1;
	if (m.type.bits < 32) {
		lw_unpack(c, dst, n, m.type.bits, elems);
		return true;
	}
	unsigned per = m.type.bits / 32;
	for (unsigned i = 0; i < n; i++)
		for (unsigned p = 0; p < per; p++)
			lw_mov(c, elems[i], p, dst, i * per + p);
	return true;
}

bool lower_sust(LowerCtx *c, const Instr *in)
{
	SurfMods m;
	if (!parse_mods(c, in, SK_SUST, &m) || !data_bits_ok(c, in, &m))
		return false;
	if (m.is_p && m.type.bits != 32)
		return lw_unsupported(c, in->loc, "sust.p with %u-bit elements", m.type.bits);
	SurfIndex si;
	uint32_t coords, data = 0;
	unsigned nregs;
	bool rz;
	if (!surface_address(c, in->ops[0], &m, &si, &coords))
		return false;
	if (!lw_store_data(c, in->ops[1], m.vec, m.type.bits, &data, &nregs, &rz))
		return false;
	LInsn *st = emit_su(c, m.is_p ? SU_FORMS(SUST_P) : SU_FORMS(SUST_D), &si, &m, coords);
	if (rz)
		linsn_set(st, SR_RB, 255);
	else
		linsn_ref(st, SR_RB, data, 0, nregs, false);
	linsn_set(st, SR_COP, m.cop);
	if (m.is_p) {
		linsn_set(st, SR_RGBA, m.vec == 1 ? 0x1 : m.vec == 2 ? 0x3 : 0xf);
	} else {
		linsn_set(st, SR_BA, 1);
		linsn_set(st, SR_SIZE, sass_size_code(m.vec * m.type.bits / 8));
	}
	return true;
}

bool lower_sured(LowerCtx *c, const Instr *in)
{
	SurfMods m;
	if (!parse_mods(c, in, SK_SURED, &m))
		return false;
	if (m.redop < 0)
		return lw_unsupported(c, in->loc, "sured without an operation");
	PtxTy t = m.type;
	bool minmax = m.redop == 1 || m.redop == 2, bitwise = m.redop == 5 || m.redop == 6;
	int sutype = -1;
	if (m.is_p) {
		/* only .b32; ptxas uses the signed 32-bit type for min/max */
		if (t.bits == 32 && !t.is_signed && !t.is_float && m.vec == 1)
			sutype = minmax ? 6 : 0;
	} else if (t.bits == 32 && !t.is_float && m.vec == 1) {
		sutype = t.is_signed ? 1 : 0;
		if (bitwise && t.is_signed)
			sutype = -1;
	} else if (t.bits == 64 && m.redop == 0 && !t.is_signed && !t.is_float && m.vec == 1) {
		sutype = 2;
	}
	if (sutype < 0)
		return lw_unsupported(c, in->loc, "this sured operation/type combination (sured.b: "
		                      "add.{u32,s32,u64}, min/max.{u32,s32}, and/or.b32; sured.p: .b32)");
	SurfIndex si;
	uint32_t coords, data = 0;
	unsigned nregs;
	bool rz;
	if (!surface_address(c, in->ops[0], &m, &si, &coords))
		return false;
	if (!lw_store_data(c, in->ops[1], 1, t.bits, &data, &nregs, &rz))
		return false;
	LInsn *op = emit_su(c, SU_FORMS(SURED_D), &si, &m, coords);
	if (rz)
		linsn_set(op, SR_RB, 255);
	else
		linsn_ref(op, SR_RB, data, 0, nregs, false);
	linsn_set(op, SR_SUOP, m.redop);
	linsn_set(op, SR_SUTYPE, sutype);
	linsn_set(op, SR_BA, !m.is_p);
	return true;
}

/* suq.depth etc.: the surface descriptor table at c[0x0][0xc0] (lower_seq.c) */
static bool lower_suq_descriptor(LowerCtx *c, const SurfIndex *si, uint32_t field, uint32_t d)
{
	LDescLookup q = { .immediate = si->immediate, .idx = si->idx, .vreg = si->vreg,
	                  .table_cword = DESC_TABLE_CWORD, .field = field, .texture = false };
	/* ptxas records EIATTR_BINDLESS_SURFACE_BANK for a bound surfref's
	 * slot, not for a register handle */
	c->k->uses_surfaces |= si->bound;
	return lw_desc_lookup(c, &q, d);
}

bool lower_suq(LowerCtx *c, const Instr *in)
{
	SurfMods m;
	if (!parse_mods(c, in, SK_SUQ, &m))
		return false;
	if (m.query == 0 && m.field < 0)
		return lw_unsupported(c, in->loc, "suq%s", m.query_word ? m.query_word : " without a query");
	const Expr *a = in->ops[1];
	if (a->kind != EX_ADDRESS || a->nelems != 1)
		return lw_unsupported(c, a->loc, "this suq operand (expected [surface])");
	SurfIndex si;
	uint32_t d;
	unsigned dw;
	if (!surface_index(c, a->elems[0], &si) || !lw_reg(c, in->ops[0], &d, &dw))
		return false;
	if (m.field >= 0)
		return lower_suq_descriptor(c, &si, (uint32_t)m.field, d);
	LDescLookup h = { .immediate = si.immediate, .idx = si.idx, .vreg = si.vreg };
	lw_txq_dimension(c, &h, d, m.query);
	/* a query of a bound surfref counts like an SU* use of it */
	c->k->uses_surfaces |= si.bound;
	return true;
}
