/* st.global -> STG and ld.global -> LDG, ld/st.shared -> LDS/STS, ld/st.local ->
 * LDL/STL, generic ld/st -> LD/ST, and the packing of sub-word vector
 * elements that they and the surface instructions share. ptxas picks the
 * size by the total bytes of the access (v2.u8 -> .U16, v4.u8 -> 32, ...)
 * and keeps the signedness only for scalar 8/16-bit accesses. */
#include "lower/lower_internal.h"
#include "lower/regalloc.h"

#include <stdint.h>
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

/* ptxas 11.8 writes st.volatile (global and generic) as a write-through
 * store, the .WT of st.wt (sm_50 has no other volatile store). */
static const int st_volatile_cop = 3;

/* The address [reg], [reg+imm] or [reg-imm]. */
bool lw_global_address(LowerCtx *c, const Expr *a, uint32_t *base, unsigned *bw, int64_t *off)
{
	if (a->kind != EX_ADDRESS || a->nelems != 1)
		return lw_unsupported(c, a->loc, "this address");
	const Expr *e = a->elems[0];
	/* a module .global variable: its relocated address + the offset */
	int data = lw_data_global(c, e, base, off);
	if (data) {
		*bw = c->lm->address64 ? 2 : 1;
		return data > 0;
	}
	*off = 0;
	if (e->kind == EX_BINARY && (e->op == '+' || e->op == '-') && expr_const_int(e->rhs, off)) {
		if (e->op == '-')
			*off = -*off;
		e = e->lhs;
	}
	if (e->kind != EX_NAME)
		return lw_unsupported(c, a->loc, "this address (register plus constant offset is supported)");
	if (lmap_find(&c->module_surfrefs, e->text) || lmap_find(&c->params, e->text) ||
	    !lw_is_reg_name(c, e))
		return lw_unsupported(c, e->loc, "stores to a named variable ('%s'); use a register address",
		                      e->text);
	return lw_reg(c, e, base, bw);
}

bool lower_st(LowerCtx *c, const Instr *in)
{
	if (!lw_has_mod(in, ".global"))
		return lw_unsupported(c, in->loc, "st outside the .global, .shared and .local state spaces");
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
		if (strcmp(w, ".volatile") == 0) {
			cop = st_volatile_cop;
			known = true;
		}
		if (!known)
			return lw_unsupported(c, in->mod_locs[i], "st.global modifier '%s' (cache operators "
			                      ".wb/.cg/.cs/.wt and .volatile are supported)", w);
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
	if (!lw_global_address(c, in->ops[0], &base, &bw, &off))
		return false;
	bool e64 = bw == 2;
	if (!lw_address_width(c, in->ops[0]->loc, bw))
		return false;
	uint32_t data = 0;
	unsigned nregs;
	bool rz;
	if (!lw_store_data(c, in->ops[1], vec, t.bits, &data, &nregs, &rz))
		return false;
	base = lw_fold_offset(c, base, bw, &off, 24);
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

/* The registers a load of `vec` elements writes; *wide: a scalar load of
 * at most 32 bits into a 64-bit register (ld.s32 %rd, ...). */
static bool load_dests(LowerCtx *c, const Instr *in, unsigned vec, uint32_t elems[4], bool *wide)
{
	const Expr *de = in->ops[0];
	if (vec > 1 && (de->kind != EX_VECTOR || de->nelems != vec))
		return lw_unsupported(c, de->loc, "this destination vector");
	*wide = false;
	for (unsigned i = 0; i < vec; i++) {
		unsigned w;
		const Expr *e = vec > 1 ? de->elems[i] : de;
		if (vec > 1 && e->kind == EX_NAME && strcmp(e->text, "_") == 0) {
			/* the sink `_`: an element nothing reads (a dead temporary) */
			elems[i] = lw_temp(c, lw_instr_type(in).bits == 64 ? 2 : 1);
			continue;
		}
		if (!lw_reg(c, e, &elems[i], &w))
			return false;
		*wide = vec == 1 && w == 2 && lw_instr_type(in).bits <= 32;
	}
	return true;
}

/* A vector load went to the consecutive parts of dst: into its elements.
 * A scalar one into a wider register: PTX sign-extends a signed type into
 * the high word, zero-extends the others (sim5: the high word was left
 * unwritten; ptxas writes it). */
static void spread_load(LowerCtx *c, uint32_t dst, unsigned vec, PtxTy t, const uint32_t *elems, bool wide)
{
	if (vec == 1 && wide) {
		if (t.is_signed)
			lw_sign_high(c, elems[0], 1, elems[0], 0);
		else
			lw_mov_rz(c, elems[0], 1);
	}
	if (vec == 1)
		return;
	if (t.bits < 32) {
		lw_unpack(c, dst, vec, t.bits, elems);
		return;
	}
	unsigned per = t.bits / 32;
	for (unsigned i = 0; i < vec; i++)
		for (unsigned p = 0; p < per; p++)
			lw_mov(c, elems[i], p, dst, i * per + p);
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
	if (!lw_global_address(c, in->ops[1], &base, &bw, &off))
		return false;
	bool e64 = bw == 2;
	if (!lw_address_width(c, in->ops[1]->loc, bw))
		return false;
	uint32_t elems[4];
	bool wide;
	if (!load_dests(c, in, vec, elems, &wide))
		return false;
	base = lw_fold_offset(c, base, bw, &off, 24);
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
	spread_load(c, dst, vec, t, elems, wide);
	return true;
}

/* ---- the 32-bit shared and local windows: LDS/STS, LDL/STL (issue 15) ---- */

/* Where a window access finds its address: a register, RZ (shared
 * variables and absolute offsets) or the stack pointer R1 (local ones). */

/* [reg], [reg+imm], [var], [var+imm] or [imm]; a 64-bit register gives its
 * low word. A variable of the other window is diagnosed. */
bool lw_window_address(LowerCtx *c, const Expr *a, int want_space, int *base, int64_t *off)
{
	if (a->kind != EX_ADDRESS || a->nelems != 1)
		return lw_unsupported(c, a->loc, "this address");
	const Expr *e = a->elems[0];
	int space;
	if (lw_var_address(c, e, off, &space)) {
		bool sym = space == LVAR_SHARED_SYM;
		if ((sym ? LVAR_SHARED : space) != want_space)
			return lw_unsupported(c, a->loc, "an access to a %s variable through another state space",
			                      space == LVAR_LOCAL ? ".local" : ".shared");
		*base = sym ? BASE_SHARED_SYM0 - (int)lw_var_shared_sym(c, e)
		      : space == LVAR_LOCAL ? BASE_STACK : BASE_RZ;
		return true;
	}
	*base = BASE_RZ;
	if (e->kind != EX_NAME && expr_const_int(e, off))
		return true;
	*off = 0;
	if (e->kind == EX_BINARY && (e->op == '+' || e->op == '-') && expr_const_int(e->rhs, off)) {
		if (e->op == '-')
			*off = -*off;
		e = e->lhs;
	}
	if (e->kind != EX_NAME || !lw_is_reg_name(c, e))
		return lw_unsupported(c, a->loc, "this %s address (a register or variable, plus a "
		                      "constant offset, is supported)", want_space == LVAR_LOCAL ? ".local" : ".shared");
	uint32_t r;
	unsigned bw;
	if (!lw_reg(c, e, &r, &bw))
		return false;
	*base = (int)r;
	return true;
}

/* The base of a window access with an offset that fits the signed 24-bit
 * field (a larger one is added to a register address first). */
void lw_window_base(LowerCtx *c, LInsn *op, int base, int64_t *off)
{
	if (base >= 0 && (*off < -0x800000 || *off > 0x7fffff)) {
		uint32_t a2 = lw_temp(c, 1);
		LInsn *add = lw_emit(c, SF_IADD32I);
		linsn_ref(add, SR_RD, a2, 0, 1, true);
		linsn_ref(add, SR_RA, (uint32_t)base, 0, 1, false);
		linsn_set(add, SR_IMM, (uint32_t)*off);
		base = (int)a2;
		*off = 0;
	}
	if (LW_BASE_IS_SHARED_SYM(base)) {
		/* RZ + the offset, completed when the function is linked */
		linsn_set(op, SR_RA, 255);
		op->shared_sym = (uint16_t)(BASE_SHARED_SYM0 - base + 1);
	} else if (base == BASE_RZ)
		linsn_set(op, SR_RA, 255);
	else if (base == BASE_STACK) {
		linsn_set(op, SR_RA, REGALLOC_STACK_REG);
		op->stack_reg = LSTACK_READ;
	}
	else
		linsn_ref(op, SR_RA, (uint32_t)base, 0, 1, false);
}

static int window_size(PtxTy t, unsigned vec)
{
	if (vec == 1 && t.bits == 8)
		return t.is_signed ? 1 : 0;
	if (vec == 1 && t.bits == 16)
		return t.is_signed ? 3 : 2;
	return sass_size_code(vec * t.bits / 8);
}

/* The state space of an ld/st the table sent here (.shared or .local). */
/* The window of the variable a generic address names (`st.u64 [local_x],
 * %rd`: ptxas 11.8 writes STL, as for st.local), 0 for any other address. */
static int generic_var_space(const LowerCtx *c, const Expr *a)
{
	int64_t off;
	int space;
	if (a->kind != EX_ADDRESS || a->nelems != 1 || !lw_var_address(c, a->elems[0], &off, &space))
		return 0;
	return space == LVAR_SHARED_SYM ? LVAR_SHARED : space;
}

/* A cache operator word of ld (load) or st: ptxas 11.8 ignores them on
 * .shared, .local and .const (plain LDS.U/STS, LDL/STL, constant reads). */
bool lw_cache_op_word(const char *w, bool load)
{
	static const char *const ld_ops[] = { ".ca", ".cg", ".cs", ".lu", ".cv" }, *const st_ops[] = { ".wb", ".cg", ".cs", ".wt" };
	const char *const *ops = load ? ld_ops : st_ops;
	size_t n = load ? sizeof ld_ops / sizeof ld_ops[0] : sizeof st_ops / sizeof st_ops[0];
	for (size_t i = 0; i < n; i++)
		if (strcmp(w, ops[i]) == 0)
			return true;
	return false;
}

static int window_space(LowerCtx *c, const Instr *in, const char *op, const char **name)
{
	int space = lw_has_mod(in, ".local") ? LVAR_LOCAL : lw_has_mod(in, ".shared") ? LVAR_SHARED
	          : generic_var_space(c, in->ops[strcmp(op, "ld") == 0 ? 1 : 0]);
	*name = space == LVAR_LOCAL ? ".local" : ".shared";
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		if (strcmp(w, *name) != 0 && strcmp(w, ".v2") != 0 && strcmp(w, ".v4") != 0 &&
		    strcmp(w, ".volatile") != 0 && strcmp(w, ".weak") != 0 && ptx_type_of_word(w).bits == 0 &&
		    !lw_cache_op_word(w, strcmp(op, "ld") == 0)) {
			lw_unsupported(c, in->mod_locs[i], "%s%s modifier '%s'", op, *name, w);
			return 0;
		}
	}
	return space;
}

/* ptxas 11.8 sets .U on every LDS it writes, ld.volatile.shared too; its
 * LDL/STL have no cache operator for these loads and stores. */
bool lower_ld_window(LowerCtx *c, const Instr *in)
{
	const char *sname;
	int space = window_space(c, in, "ld", &sname);
	if (!space)
		return false;
	PtxTy t = lw_instr_type(in);
	unsigned vec = lw_vec_width(in), bytes = vec * t.bits / 8;
	int size = window_size(t, vec);
	if (size < 0 || t.bits < 8)
		return lw_unsupported(c, in->loc, "ld%s of %u bytes", sname, bytes);
	int base;
	int64_t off;
	uint32_t elems[4];
	bool wide;
	if (!lw_window_address(c, in->ops[1], space, &base, &off) || !load_dests(c, in, vec, elems, &wide))
		return false;
	unsigned nregs = bytes <= 4 ? 1 : bytes / 4;
	uint32_t dst = vec == 1 ? elems[0] : lw_temp(c, nregs);
	LInsn *ld = lw_emit(c, space == LVAR_LOCAL ? SF_LDL : SF_LDS);
	linsn_ref(ld, SR_RD, dst, 0, nregs, true);
	lw_window_base(c, ld, base, &off);
	linsn_set(ld, SR_SIZE, size);
	if (space == LVAR_SHARED)
		linsn_set(ld, SR_U, 1);
	linsn_set(ld, SR_IMM, off);
	ld->keep = lw_has_mod(in, ".volatile");
	spread_load(c, dst, vec, t, elems, wide);
	return true;
}

bool lower_st_window(LowerCtx *c, const Instr *in)
{
	const char *sname;
	int space = window_space(c, in, "st", &sname);
	if (!space)
		return false;
	PtxTy t = lw_instr_type(in);
	unsigned vec = lw_vec_width(in);
	int size = window_size(t, vec);
	if (size < 0 || t.bits < 8)
		return lw_unsupported(c, in->loc, "st%s of %u bytes", sname, vec * t.bits / 8);
	int base;
	int64_t off;
	if (!lw_window_address(c, in->ops[0], space, &base, &off))
		return false;
	uint32_t data = 0;
	unsigned nregs;
	bool rz;
	if (!lw_store_data(c, in->ops[1], vec, t.bits, &data, &nregs, &rz))
		return false;
	LInsn *st = lw_emit(c, space == LVAR_LOCAL ? SF_STL : SF_STS);
	lw_window_base(c, st, base, &off);
	if (rz)
		linsn_set(st, SR_RB, 255);
	else
		linsn_ref(st, SR_RB, data, 0, nregs, false);
	linsn_set(st, SR_SIZE, size);
	linsn_set(st, SR_IMM, off);
	return true;
}

/* ---- generic addresses: LD/ST (issue 15) ---- */

/* ptxas 11.8 turns every generic access into LEA t.CC, a.lo, RZ;
 * LEA.HI.X P, t.hi, a.lo, RZ, a.hi and LD.E/ST.E [t+off], P; the offset
 * is the instruction's signed 32-bit one. Returns t and the predicate;
 * *wide false: a 32-bit address (lower_addr32.c). */
static bool generic_address(LowerCtx *c, const Expr *a, uint32_t *t, uint32_t *pred, int64_t *off, bool *wide)
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
	if (e->kind != EX_NAME || !lw_is_reg_name(c, e) || *off < INT32_MIN || *off > INT32_MAX)
		return lw_unsupported(c, a->loc, "this generic address (a register plus a 32-bit "
		                      "constant offset is supported)");
	uint32_t base;
	unsigned bw;
	if (!lw_reg(c, e, &base, &bw))
		return false;
	if (!lw_address_width(c, a->loc, bw))
		return false;
	*t = lw_temp(c, bw);
	*pred = lkernel_new_vreg(c->k, LRC_PRED, 1, true);
	*wide = bw == 2;
	if (bw == 1) {
		lw_generic_address32(c, base, *t, *pred);
		return true;
	}
	LInsn *lo = lw_emit(c, SF_LEA_R);
	linsn_ref(lo, SR_RD, *t, 0, 1, true);
	linsn_ref(lo, SR_RA, base, 0, 1, false);
	linsn_set(lo, SR_RB, 255);
	linsn_set(lo, SR_PD, 7);
	linsn_set(lo, SR_CC, 1);
	lo->writes_cc = true;
	LInsn *hi = lw_emit(c, SF_LEA_HI_R);
	linsn_ref(hi, SR_RD, *t, 1, 1, true);
	linsn_ref(hi, SR_RA, base, 0, 1, false);
	linsn_ref(hi, SR_RC, base, 1, 1, false);
	linsn_set(hi, SR_RB, 255);
	linsn_ref(hi, SR_PD, *pred, 0, 1, true);
	linsn_set(hi, SR_X, 1);
	hi->reads_cc = true;
	return true;
}

static const struct { const char *word; int cop; } generic_ld_cops[] = {
	{ ".ca", 0 }, { ".weak", 0 }, { ".cg", 1 }, { ".cs", 0 }, { ".lu", 1 }, { ".cv", 3 }, { ".volatile", 3 },
};

static bool generic_mods(LowerCtx *c, const Instr *in, bool load, int *cop)
{
	*cop = 0;
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		bool known = strcmp(w, ".v2") == 0 || strcmp(w, ".v4") == 0 || ptx_type_of_word(w).bits != 0;
		for (size_t j = 0; load && j < sizeof generic_ld_cops / sizeof generic_ld_cops[0]; j++)
			if (strcmp(w, generic_ld_cops[j].word) == 0) {
				*cop = generic_ld_cops[j].cop;
				known = true;
			}
		for (size_t j = 0; !load && j < sizeof st_cops / sizeof st_cops[0]; j++)
			if (st_cops[j].cop >= 0 && strcmp(w, st_cops[j].word) == 0) {
				*cop = st_cops[j].cop;
				known = true;
			}
		if (!load && strcmp(w, ".volatile") == 0)
			*cop = st_volatile_cop;
		known |= strcmp(w, ".weak") == 0 || strcmp(w, ".volatile") == 0;
		if (!known)
			return lw_unsupported(c, in->mod_locs[i], "generic %s modifier '%s'", load ? "ld" : "st", w);
	}
	return true;
}

bool lower_ld_generic(LowerCtx *c, const Instr *in)
{
	if (generic_var_space(c, in->ops[1]))
		return lower_ld_window(c, in);
	int cop;
	if (!generic_mods(c, in, true, &cop))
		return false;
	PtxTy t = lw_instr_type(in);
	unsigned vec = lw_vec_width(in), bytes = vec * t.bits / 8;
	int size = window_size(t, vec);
	if (size < 0 || t.bits < 8)
		return lw_unsupported(c, in->loc, "generic ld of %u bytes", bytes);
	uint32_t addr, pred, elems[4];
	int64_t off;
	bool wide;
	bool addr64;
	if (!load_dests(c, in, vec, elems, &wide) || !generic_address(c, in->ops[1], &addr, &pred, &off, &addr64))
		return false;
	unsigned nregs = bytes <= 4 ? 1 : bytes / 4;
	uint32_t dst = vec == 1 ? elems[0] : lw_temp(c, nregs);
	LInsn *ld = lw_emit(c, SF_LD);
	linsn_ref(ld, SR_RD, dst, 0, nregs, true);
	linsn_ref(ld, SR_RA, addr, 0, addr64 ? 2 : 1, false);
	linsn_ref(ld, SR_PC, pred, 0, 1, false);
	linsn_set(ld, SR_E, addr64);
	linsn_set(ld, SR_SIZE, size);
	linsn_set(ld, SR_COP, cop);
	linsn_set(ld, SR_IMM, off);
	ld->keep = lw_has_mod(in, ".volatile");
	spread_load(c, dst, vec, t, elems, wide);
	return true;
}

bool lower_st_generic(LowerCtx *c, const Instr *in)
{
	if (generic_var_space(c, in->ops[0]))
		return lower_st_window(c, in);
	int cop;
	if (!generic_mods(c, in, false, &cop))
		return false;
	PtxTy t = lw_instr_type(in);
	unsigned vec = lw_vec_width(in);
	int size = window_size(t, vec);
	if (size < 0 || t.bits < 8)
		return lw_unsupported(c, in->loc, "generic st of %u bytes", vec * t.bits / 8);
	uint32_t data = 0, addr, pred;
	unsigned nregs;
	bool rz;
	int64_t off;
	bool wide;
	if (!lw_store_data(c, in->ops[1], vec, t.bits, &data, &nregs, &rz) ||
	    !generic_address(c, in->ops[0], &addr, &pred, &off, &wide))
		return false;
	LInsn *st = lw_emit(c, SF_ST);
	linsn_ref(st, SR_RA, addr, 0, wide ? 2 : 1, false);
	if (rz)
		linsn_set(st, SR_RB, 255);
	else
		linsn_ref(st, SR_RB, data, 0, nregs, false);
	linsn_ref(st, SR_PC, pred, 0, 1, false);
	linsn_set(st, SR_E, wide);
	linsn_set(st, SR_SIZE, size);
	linsn_set(st, SR_COP, cop);
	linsn_set(st, SR_IMM, off);
	return true;
}
