/* Helpers shared by the lowering handlers: diagnostics, PTX types and
 * modifiers, operands (registers by declaration, immediates), and short
 * instruction sequences used everywhere (moves, ALU ops with operand B as
 * register or immediate). */
#include "lower/lower_internal.h"
#include "lower/regalloc.h"

#include "base/xalloc.h"
#include "isa/ptx_types.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool lw_unsupported(LowerCtx *c, SrcLoc loc, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	diag_add(c->sink, SEV_ERROR, loc, RULE_ENCODER_UNSUPPORTED, "not supported by the sm_50 encoder: %s", msg);
	c->errors++;
	return false;
}

PtxTy ptx_type_of_word(const char *w)
{
	PtxTy t = { 0 };
	const TypeInfo *ti = type_info(type_from_word(w));
	switch (ti->cls) {
	case TC_PRED:
		t.bits = 1;
		break;
	case TC_BIT:
	case TC_UNSIGNED:
	case TC_SIGNED:
		if (ti->bits <= 64) {
			t.bits = (unsigned)ti->bits;
			t.is_signed = ti->cls == TC_SIGNED;
			t.is_bits = ti->cls == TC_BIT;
		}
		break;
	case TC_FLOAT:
		/* sm_50 has no bfloat16: .bf16 is no .f16 to the lowering */
		if (ti->type != TY_BF16) {
			t.bits = (unsigned)ti->bits;
			t.is_float = true;
		}
		break;
	default:
		break;
	}
	return t;
}

PtxTy lw_instr_type(const Instr *in)
{
	PtxTy t = { 0 };
	for (uint32_t i = 0; i < in->nmods; i++) {
		PtxTy u = ptx_type_of_word(in->mods[i]);
		if (u.bits)
			t = u;
	}
	return t;
}

bool lw_has_mod(const Instr *in, const char *mod)
{
	for (uint32_t i = 0; i < in->nmods; i++)
		if (lw_streq(in->mods[i], mod))
			return true;
	return false;
}

const Instr *lw_instr_mod_replaced(LowerCtx *c, const Instr *in, const char *from, const char *to)
{
	const char **mods = NULL;
	for (uint32_t i = 0; i < in->nmods; i++) {
		if (strcmp(in->mods[i], from) != 0)
			continue;
		if (!mods) {
			mods = lw_own(c, xcalloc(in->nmods, sizeof *mods));
			memcpy(mods, in->mods, in->nmods * sizeof *mods);
		}
		mods[i] = to;
	}
	if (!mods)
		return in;
	Instr *out = lw_own(c, xmalloc(sizeof *out));
	*out = *in;
	out->mods = mods;
	return out;
}

const Instr *lw_space_alias_instr(LowerCtx *c, const Instr *in)
{
	return lw_instr_mod_replaced(c, in, ".shared::cta", ".shared");
}

unsigned lw_vec_width(const Instr *in)
{
	if (lw_has_mod(in, ".v4"))
		return 4;
	if (lw_has_mod(in, ".v2"))
		return 2;
	return 1;
}

/* The declaration of register `name` with the block suffix sfx ("" at
 * kernel scope, "@B" in nested block B): exact, or a %r<N> range. */
static const LMapEntry *find_reg_decl(const LowerCtx *c, const char *name, const char *sfx)
{
	char key[280];
	size_t n = strlen(name), sl = strlen(sfx);
	if (n + sl >= sizeof key)
		return NULL;
	const LMapEntry *e;
	if (sl == 0) {
		e = lmap_find(&c->regdecl, name);
	} else {
		memcpy(key, name, n);
		memcpy(key + n, sfx, sl + 1);
		e = lmap_find(&c->regdecl, key);
	}
	if (e && e->extra < 0)
		return e;
	size_t p = n;
	while (p > 0 && name[p - 1] >= '0' && name[p - 1] <= '9')
		p--;
	if (p == n || p == 0)
		return NULL;
	memcpy(key, name, p);
	memcpy(key + p, sfx, sl + 1);
	e = lmap_find(&c->regdecl, key);
	if (e == NULL || e->extra < 0)
		return NULL;
	if (n - p > 1 && name[p] == '0')
		return NULL;
	long idx = strtol(name + p, NULL, 10);
	return idx < e->extra ? e : NULL;
}

/* A name as a key of c->regs: itself at kernel scope, name@B for a
 * register of nested block B (a copy the kernel owns). */
const char *lw_scoped_name(LowerCtx *c, const char *name, uint32_t block)
{
	if (block == 0)
		return name;
	size_t n = strlen(name) + 16;
	char *key = xmalloc(n);
	snprintf(key, n, "%s@%u", name, (unsigned)block);
	return lw_own(c, key);
}

void *lw_own(LowerCtx *c, void *p)
{
	c->owned = xrealloc(c->owned, (c->nowned + 1) * sizeof *c->owned);
	c->owned[c->nowned++] = p;
	return p;
}

/* map[v] = off, growing the map (-1 where nothing is recorded). */
static void record_cword(int64_t **map, size_t *n, uint32_t v, int64_t off)
{
	if (v >= *n) {
		size_t m = 2 * (size_t)v + 16;
		*map = xrealloc(*map, m * sizeof **map);
		for (size_t i = *n; i < m; i++)
			(*map)[i] = -1;
		*n = m;
	}
	(*map)[v] = off;
}

static bool lookup_reg(LowerCtx *c, const Expr *e, PtxTy *ty, uint32_t *vreg)
{
	ty->bits = 0;
	if (e->kind != EX_NAME || e->component)
		return false;
	/* the innermost enclosing block that declares it, else the kernel */
	const LMapEntry *d = NULL;
	char sfx[16] = "";
	uint32_t block = 0;
	for (unsigned i = c->nscope; i-- > 0 && !d;) {
		snprintf(sfx, sizeof sfx, "@%u", (unsigned)c->scope[i]);
		d = find_reg_decl(c, e->text, sfx);
		block = c->scope[i];
	}
	if (!d) {
		d = find_reg_decl(c, e->text, "");
		block = 0;
	}
	if (d == NULL)
		return false;
	char key[280];
	const char *k = e->text;
	if (block) {
		snprintf(key, sizeof key, "%s@%u", e->text, (unsigned)block);
		k = key;
	}
	LMapEntry *have = lmap_find(&c->regs, k);
	ty->bits = (unsigned)(d->value & 0xff);
	ty->is_signed = (d->value >> 8) & 1;
	ty->is_float = (d->value >> 9) & 1;
	ty->is_bits = (d->value >> 10) & 1;
	if (have == NULL) {
		uint32_t v = ty->bits == 1
			? lkernel_new_vreg(c->k, LRC_PRED, 1, false)
			: lkernel_new_vreg(c->k, LRC_GPR, ty->bits == 64 ? 2 : 1, false);
		have = lmap_put(&c->regs, lw_scoped_name(c, e->text, block), v, 0);
		const LMapEntry *pw = block ? NULL : lmap_find(&c->param_words, e->text);
		if (pw)
			record_cword(&c->vreg_cword, &c->nvreg_cword, v, SASS_PARAM_CBANK_BASE + pw->value);
		const LMapEntry *ph = block || ty->bits != 64 ? NULL : lmap_find(&c->param_handles, e->text);
		if (ph)
			record_cword(&c->vreg_cpair, &c->nvreg_cpair, v, SASS_PARAM_CBANK_BASE + ph->value);
	}
	*vreg = (uint32_t)have->value;
	return true;
}

bool lw_reg_type(LowerCtx *c, const Expr *e, PtxTy *ty)
{
	uint32_t v;
	return lookup_reg(c, e, ty, &v);
}

unsigned lw_reg_bits(LowerCtx *c, const Expr *e)
{
	PtxTy ty;
	uint32_t v;
	return lookup_reg(c, e, &ty, &v) ? ty.bits : 0;
}

bool lw_is_reg_name(LowerCtx *c, const Expr *e)
{
	return e->text[0] == '%' || lw_reg_bits(c, e) != 0;
}

bool lw_reg(LowerCtx *c, const Expr *e, uint32_t *vreg, unsigned *width)
{
	PtxTy ty;
	if (lookup_reg(c, e, &ty, vreg) && ty.bits != 1) {
		*width = c->k->vregs[*vreg].width;
		return true;
	}
	/* a special register as a direct operand: read into a temporary (a
	 * 64-bit one with ptxas's high-low-high reads) */
	if (lw_is_special64(e)) {
		*vreg = lw_temp(c, 2);
		*width = 2;
		c->k->vregs[*vreg].temp = false;
		return lw_read_special64(c, e, *vreg);
	}
	if (e->kind == EX_NAME && lw_is_special(e)) {
		*vreg = lw_temp(c, 1);
		*width = 1;
		return lw_read_special(c, e, *vreg);
	}
	if (e->kind == EX_NAME && e->component)
		return lw_unsupported(c, e->loc, "operand '%s%s' here (special registers are read with mov)",
		                      e->text, e->component);
	if (e->kind == EX_NAME && ty.bits != 1 && e->text[0] != '%')
		return lw_unsupported(c, e->loc, "operand '%s' (the address of a variable or symbol; only "
		                      "registers and integer constants are supported)", e->text);
	if (e->kind == EX_NAME)
		return lw_unsupported(c, e->loc, "operand '%s' here (a general register is expected)", e->text);
	return lw_unsupported(c, e->loc, "this operand (a general register is expected here)");
}

bool lw_pred(LowerCtx *c, const Expr *e, uint32_t *vreg)
{
	PtxTy ty;
	if (!lookup_reg(c, e, &ty, vreg) || ty.bits != 1)
		return lw_unsupported(c, e->loc, "this operand (a predicate register is expected here)");
	return true;
}

bool lw_pred_value(LowerCtx *c, const Expr *e, int *vreg, bool *negated)
{
	int64_t v;
	*negated = false;
	if (e->kind == EX_UNARY && e->op == '!') {
		*negated = true;
		e = e->lhs;
	}
	if (e->kind != EX_NAME && expr_const_int(e, &v)) {
		*vreg = -1;
		*negated = (v == 0) != *negated;
		return true;
	}
	uint32_t p;
	if (!lw_pred(c, e, &p))
		return false;
	*vreg = (int)p;
	return true;
}

LInsn *lw_emit(LowerCtx *c, SassFormId form)
{
	LInsn *in = lkernel_append(c->k, form, c->cur ? c->cur->loc : c->k->loc);
	if (c->guard_vreg >= 0) {
		linsn_ref(in, SR_PG, (uint32_t)c->guard_vreg, 0, 1, false);
		linsn_set(in, SR_PG_NOT, c->guard_neg);
	}
	return in;
}

uint32_t lw_temp(LowerCtx *c, unsigned width)
{
	return lkernel_new_vreg(c->k, LRC_GPR, width, true);
}

void lw_mov(LowerCtx *c, uint32_t dst, unsigned dsub, uint32_t src, unsigned ssub)
{
	LInsn *in = lw_emit(c, SF_MOV_R);
	linsn_ref(in, SR_RD, dst, dsub, 1, true);
	linsn_ref(in, SR_RB, src, ssub, 1, false);
}

void lw_mov_rz(LowerCtx *c, uint32_t dst, unsigned dsub)
{
	LInsn *in = lw_emit(c, SF_MOV_R);
	linsn_ref(in, SR_RD, dst, dsub, 1, true);
	linsn_set(in, SR_RB, 255);
}

void lw_mov32i(LowerCtx *c, uint32_t dst, unsigned dsub, uint32_t imm)
{
	if (imm == 0) {
		lw_mov_rz(c, dst, dsub);    /* ptxas: MOV Rd, RZ */
		return;
	}
	LInsn *in = lw_emit(c, SF_MOV32I);
	linsn_ref(in, SR_RD, dst, dsub, 1, true);
	linsn_set(in, SR_IMM, imm);
}

void lw_opnd_part(LowerCtx *c, const Opnd *o, unsigned sub, uint32_t *vreg, unsigned *rsub)
{
	if (o->kind == OPND_REG) {
		*vreg = o->vreg;
		*rsub = sub < o->width ? sub : 0;
		return;
	}
	*vreg = lw_temp(c, 1);
	*rsub = 0;
	lw_mov32i(c, *vreg, 0, (uint32_t)((uint64_t)o->imm >> (32 * sub)));
}

int64_t lw_vreg_cword(const LowerCtx *c, uint32_t vreg)
{
	return vreg < c->nvreg_cword ? c->vreg_cword[vreg] : -1;
}

int64_t lw_vreg_cpair(const LowerCtx *c, uint32_t vreg)
{
	return vreg < c->nvreg_cpair ? c->vreg_cpair[vreg] : -1;
}

bool fits_simm20(int64_t v)
{
	return v >= -0x80000 && v <= 0x7ffff;
}

LInsn *lw_alu(LowerCtx *c, SassAluForms forms, uint32_t d, unsigned dsub, uint32_t a, unsigned asub,
              const Opnd *b, unsigned bsub)
{
	LInsn *in;
	int64_t part = 0;
	bool imm = false;
	if (b->kind == OPND_IMM) {
		part = bsub ? (int64_t)((uint64_t)b->imm >> 32) : b->imm;
		/* The 20-bit field is sign-extended by the hardware: a 32-bit
		 * part whose value is that extension fits. */
		int64_t s = (int32_t)(uint32_t)part;
		imm = fits_simm20(s);
		part = s;
	}
	int64_t cword = b->kind == OPND_REG && bsub == 0 ? lw_vreg_cword(c, b->vreg) : -1;
	if (imm) {
		in = lw_emit(c, forms.i);
		linsn_set(in, SR_IMM, part);
	} else if (cword >= 0) {
		/* a register that only ever holds a parameter: read the parameter */
		in = lw_emit(c, forms.c);
		linsn_set(in, SR_CBANK, 0);
		linsn_set(in, SR_COFF, cword / 4);
	} else {
		uint32_t bv;
		unsigned bs;
		lw_opnd_part(c, b, bsub, &bv, &bs);
		in = lw_emit(c, forms.r);
		linsn_ref(in, SR_RB, bv, bs, 1, false);
	}
	if (d != LW_NO_DST)
		linsn_ref(in, SR_RD, d, dsub, 1, true);
	linsn_ref(in, SR_RA, a, asub, 1, false);
	return in;
}

/* ---- variables and special registers as operands ---- */

bool lw_var_address(const LowerCtx *c, const Expr *e, int64_t *off, int *space)
{
	int64_t add = 0;
	if (e->kind == EX_BINARY && (e->op == '+' || e->op == '-') && expr_const_int(e->rhs, &add)) {
		if (e->op == '-')
			add = -add;
		e = e->lhs;
	}
	if (e->kind != EX_NAME || e->component)
		return false;
	const LMapEntry *v = lmap_find(&c->vars, e->text);
	if (!v)
		return false;
	/* a function's .shared variable: the offset is the linking kernel's */
	*off = v->extra == LVAR_SHARED_SYM ? add : v->value + add;
	*space = (int)v->extra;
	return true;
}

uint32_t lw_var_shared_sym(const LowerCtx *c, const Expr *e)
{
	if (e->kind == EX_BINARY)
		e = e->lhs;
	const LMapEntry *v = lmap_find(&c->vars, e->text);
	return (uint32_t)v->value;
}

typedef struct SpecialReg {
	const char *name, *component;
	int sreg;           /* S2R code, or -1 */
	int cbank_off;      /* c[0x0] byte offset, or -1 */
	int bfe;            /* BFE.U32 control (len << 8 | pos) applied to the S2R value, or 0 */
	int cbank_hi;       /* a 64-bit register's high word's c[0x0] byte offset, or 0 */
	bool is_const;      /* the register is `value` on every sm_50 (MOV32I) */
	uint32_t value;
} SpecialReg;

/* %envreg<32>: c[0x0][0x30 + 4n], as ptxas 11.8 reads them */
#define ENVREG(n) { "%envreg" #n, NULL, -1, 0x30 + 4 * (n), 0, 0, false, 0 }

static const SpecialReg special_regs[] = {
	{ "%tid", ".x", 0x21, -1, 0, 0, false, 0 },
	{ "%tid", ".y", 0x22, -1, 0, 0, false, 0 },
	{ "%tid", ".z", 0x23, -1, 0, 0, false, 0 },
	{ "%ctaid", ".x", 0x25, -1, 0, 0, false, 0 },
	{ "%ctaid", ".y", 0x26, -1, 0, 0, false, 0 },
	{ "%ctaid", ".z", 0x27, -1, 0, 0, false, 0 },
	{ "%ntid", ".x", -1, 0x8, 0, 0, false, 0 },
	{ "%ntid", ".y", -1, 0xc, 0, 0, false, 0 },
	{ "%ntid", ".z", -1, 0x10, 0, 0, false, 0 },
	{ "%nctaid", ".x", -1, 0x14, 0, 0, false, 0 },
	{ "%nctaid", ".y", -1, 0x18, 0, 0, false, 0 },
	{ "%nctaid", ".z", -1, 0x1c, 0, 0, false, 0 },
	/* the vectors' .w (llvm.nvvm.read.ptx.sreg.tid.w and kin): ptxas
	 * 11.8 reads 0 for each */
	{ "%tid", ".w", -1, -1, 0, 0, true, 0 },
	{ "%ctaid", ".w", -1, -1, 0, 0, true, 0 },
	{ "%ntid", ".w", -1, -1, 0, 0, true, 0 },
	{ "%nctaid", ".w", -1, -1, 0, 0, true, 0 },
	{ "%laneid", NULL, 0x00, -1, 0, 0, false, 0 },
	{ "%clock", NULL, 0x50, -1, 0, 0, false, 0 },
	{ "%clock_hi", NULL, 0x51, -1, 0, 0, false, 0 },
	/* the lane masks, and the fields of SR_VIRTID/SR_VIRTCFG
	 * ptxas extracts for %smid, %warpid and %nsmid */
	{ "%lanemask_eq", NULL, 0x38, -1, 0, 0, false, 0 },
	{ "%lanemask_lt", NULL, 0x39, -1, 0, 0, false, 0 },
	{ "%lanemask_le", NULL, 0x3a, -1, 0, 0, false, 0 },
	{ "%lanemask_gt", NULL, 0x3b, -1, 0, 0, false, 0 },
	{ "%lanemask_ge", NULL, 0x3c, -1, 0, 0, false, 0 },
	{ "%smid", NULL, 0x03, -1, 0x914, 0, false, 0 },
	{ "%warpid", NULL, 0x03, -1, 0x608, 0, false, 0 },
	{ "%nsmid", NULL, 0x02, -1, 0x914, 0, false, 0 },
	/* forms-sweep: what ptxas 11.8 reads for the rest (-O0 and -O3 alike):
	 * the performance counters and the timer's halves with CS2R, the
	 * block's shared memory size from SR_SMEMSZ, the dynamic part and the
	 * grid id from c[0x0], and 64 warps per SM */
	{ "%pm0", NULL, 0x04, -1, 0, 0, false, 0 },
	{ "%pm1", NULL, 0x05, -1, 0, 0, false, 0 },
	{ "%pm2", NULL, 0x06, -1, 0, 0, false, 0 },
	{ "%pm3", NULL, 0x07, -1, 0, 0, false, 0 },
	{ "%pm4", NULL, 0x08, -1, 0, 0, false, 0 },
	{ "%pm5", NULL, 0x09, -1, 0, 0, false, 0 },
	{ "%pm6", NULL, 0x0a, -1, 0, 0, false, 0 },
	{ "%pm7", NULL, 0x0b, -1, 0, 0, false, 0 },
	{ "%globaltimer_lo", NULL, 0x52, -1, 0, 0, false, 0 },
	{ "%globaltimer_hi", NULL, 0x53, -1, 0, 0, false, 0 },
	{ "%total_smem_size", NULL, 0x32, -1, 0, 0, false, 0 },
	{ "%dynamic_smem_size", NULL, -1, 0xfc, 0, 0, false, 0 },
	{ "%gridid", NULL, -1, 0x28, 0, 0x2c, false, 0 },
	{ "%nwarpid", NULL, -1, -1, 0, 0, true, 64 },
	ENVREG(0), ENVREG(1), ENVREG(2), ENVREG(3), ENVREG(4), ENVREG(5), ENVREG(6), ENVREG(7),
	ENVREG(8), ENVREG(9), ENVREG(10), ENVREG(11), ENVREG(12), ENVREG(13), ENVREG(14), ENVREG(15),
	ENVREG(16), ENVREG(17), ENVREG(18), ENVREG(19), ENVREG(20), ENVREG(21), ENVREG(22), ENVREG(23),
	ENVREG(24), ENVREG(25), ENVREG(26), ENVREG(27), ENVREG(28), ENVREG(29), ENVREG(30), ENVREG(31),
};

/* The 64-bit special registers ptxas 11.8 reads with a CS2R pair: the low
 * word's code and the high word's. */
typedef struct SpecialPair {
	const char *name;
	unsigned lo, hi;
} SpecialPair;

static const SpecialPair special_pairs[] = {
	{ "%clock64", 0x50, 0x51 }, { "%globaltimer", 0x52, 0x53 },
	{ "%pm0_64", 0x04, 0x48 }, { "%pm1_64", 0x05, 0x49 }, { "%pm2_64", 0x06, 0x4a }, { "%pm3_64", 0x07, 0x4b },
	{ "%pm4_64", 0x08, 0x4c }, { "%pm5_64", 0x09, 0x4d }, { "%pm6_64", 0x0a, 0x4e }, { "%pm7_64", 0x0b, 0x4f },
};

static const SpecialPair *find_pair(const Expr *e)
{
	if (e->kind != EX_NAME || e->component)
		return NULL;
	for (size_t i = 0; i < sizeof special_pairs / sizeof special_pairs[0]; i++)
		if (strcmp(special_pairs[i].name, e->text) == 0)
			return &special_pairs[i];
	return NULL;
}

bool lw_is_special64(const Expr *e)
{
	return find_pair(e) != NULL;
}

static LInsn *cs2r(LowerCtx *c, uint32_t d, unsigned sub, unsigned sreg)
{
	LInsn *op = lw_emit(c, SF_CS2R);
	linsn_ref(op, SR_RD, d, sub, 1, true);
	linsn_set(op, SR_SREG, sreg);
	op->keep = true;
	return op;
}

bool lw_read_special64(LowerCtx *c, const Expr *e, uint32_t d)
{
	const SpecialPair *sp = find_pair(e);
	if (!sp)
		return false;
	if (c->guard_vreg >= 0)
		return lw_unsupported(c, e->loc, "%s under a guard", e->text);
	cs2r(c, d, 1, sp->hi);
	cs2r(c, d, 0, sp->lo);
	uint32_t p = lkernel_new_vreg(c->k, LRC_PRED, 1, true);
	LInsn *cmp = lw_emit(c, SF_ISETP_R);
	linsn_ref(cmp, SR_PD, p, 0, 1, true);
	linsn_set(cmp, SR_PQ, 7);
	linsn_ref(cmp, SR_RA, d, 0, 1, false);
	linsn_set(cmp, SR_RB, 255);
	linsn_set(cmp, SR_CMP, 1);
	linsn_set(cmp, SR_SIGNED, 1);
	linsn_set(cmp, SR_PC, 7);
	LInsn *again = cs2r(c, d, 1, sp->hi);
	linsn_ref(again, SR_PG, p, 0, 1, false);
	linsn_set(again, SR_PG_NOT, 1);
	return true;
}

static const SpecialReg *find_special(const Expr *e)
{
	if (e->kind != EX_NAME)
		return NULL;
	for (size_t i = 0; i < sizeof special_regs / sizeof special_regs[0]; i++) {
		const SpecialReg *s = &special_regs[i];
		if (strcmp(s->name, e->text) != 0)
			continue;
		if ((s->component == NULL) != (e->component == NULL))
			continue;
		if (s->component && strcmp(s->component, e->component) != 0)
			continue;
		return s;
	}
	return NULL;
}

bool lw_is_special(const Expr *e)
{
	return find_special(e) != NULL || find_pair(e) != NULL;
}

bool lw_read_special(LowerCtx *c, const Expr *e, uint32_t d)
{
	const SpecialReg *sr = find_special(e);
	const SpecialPair *sp = sr ? NULL : find_pair(e);
	if (sp) {
		/* the low word alone: CS2R, as ptxas 11.8 reads it for cvt */
		LInsn *op = lw_emit(c, SF_CS2R);
		linsn_ref(op, SR_RD, d, 0, 1, true);
		linsn_set(op, SR_SREG, sp->lo);
		return true;
	}
	if (!sr)
		return false;
	if (sr->is_const) {
		LInsn *in = lw_emit(c, SF_MOV32I);
		linsn_ref(in, SR_RD, d, 0, 1, true);
		linsn_set(in, SR_IMM, sr->value);
	} else if (sr->sreg >= 0) {
		/* ptxas 11.8 reads the clocks, the timer's halves and the
		 * performance counters with the fixed-latency CS2R */
		bool cs2r = (sr->sreg >= 0x50 && sr->sreg <= 0x53) || (sr->sreg >= 0x04 && sr->sreg <= 0x0b);
		LInsn *s2r = lw_emit(c, cs2r ? SF_CS2R : SF_S2R);
		linsn_ref(s2r, SR_RD, d, 0, 1, true);
		linsn_set(s2r, SR_SREG, sr->sreg);
		if (sr->sreg == 0x27)
			c->k->uses_ctaid_z = true;
		if (sr->bfe) {
			LInsn *f = lw_emit(c, SF_BFE_I);
			linsn_ref(f, SR_RD, d, 0, 1, true);
			linsn_ref(f, SR_RA, d, 0, 1, false);
			linsn_set(f, SR_IMM, sr->bfe);
		}
	} else {
		LInsn *in = lw_emit(c, SF_MOV_C);
		linsn_ref(in, SR_RD, d, 0, 1, true);
		linsn_set(in, SR_CBANK, 0);
		linsn_set(in, SR_COFF, (uint32_t)sr->cbank_off / 4);
	}
	return true;
}

bool lw_read_special_hi(LowerCtx *c, const Expr *e, uint32_t d)
{
	const SpecialReg *sr = find_special(e);
	if (!sr || !sr->cbank_hi)
		return false;
	LInsn *in = lw_emit(c, SF_MOV_C);
	linsn_ref(in, SR_RD, d, 1, 1, true);
	linsn_set(in, SR_CBANK, 0);
	linsn_set(in, SR_COFF, (uint32_t)sr->cbank_hi / 4);
	return true;
}

/* ---- module .global/.const variables as operands (issue 15) ---- */

/* `var`, `var+imm` or `var-imm` naming a module variable. */
static const LDataVar *data_name(const LowerCtx *c, const Expr *e, int64_t *add)
{
	*add = 0;
	if (e->kind == EX_BINARY && (e->op == '+' || e->op == '-') && expr_const_int(e->rhs, add)) {
		if (e->op == '-')
			*add = -*add;
		e = e->lhs;
	}
	if (e->kind != EX_NAME || e->component || lmap_find(&c->vars, e->text))
		return NULL;
	const LMapEntry *t = lmap_find(&c->data_vars, e->text);
	return t ? &c->lm->vars[t->value] : NULL;
}

bool lw_data_const(const LowerCtx *c, const Expr *e, int64_t *offset)
{
	int64_t add;
	const LDataVar *v = data_name(c, e, &add);
	if (!v || v->space != LDATA_CONST)
		return false;
	*offset = (int64_t)v->offset + add;
	return true;
}

/* The relocated MOV32I pair of the variable's address. */
static uint32_t global_base(LowerCtx *c, const LDataVar *v)
{
	uint32_t a = lw_temp(c, 2);
	for (unsigned p = 0; p < 2; p++) {
		LInsn *mov = lw_emit(c, SF_MOV32I);
		linsn_ref(mov, SR_RD, a, p, 1, true);
		linsn_set(mov, SR_IMM, 0);
		mov->reloc = p ? LRELOC_DATA_HI : LRELOC_DATA_LO;
		mov->reloc_var = (uint16_t)(v - c->lm->vars);
	}
	return a;
}

/* .address_size 32: one MOV32I relocated R_CUDA_ABS32_20 (lower_addr32.c). */
static uint32_t global_base32(LowerCtx *c, const LDataVar *v)
{
	uint32_t a = lw_temp(c, 1);
	LInsn *mov = lw_emit(c, SF_MOV32I);
	linsn_ref(mov, SR_RD, a, 0, 1, true);
	linsn_set(mov, SR_IMM, 0);
	mov->reloc = LRELOC_DATA_ABS32;
	mov->reloc_var = (uint16_t)(v - c->lm->vars);
	return a;
}

int lw_data_global(LowerCtx *c, const Expr *e, uint32_t *base, int64_t *add)
{
	const LDataVar *v = data_name(c, e, add);
	if (!v || v->space != LDATA_GLOBAL)
		return 0;
	*base = c->lm->address64 ? global_base(c, v) : global_base32(c, v);
	return 1;
}

/* -c: a .const variable's bank offset is the linker's, as ptxas -c
 * writes it: a MOV32I relocated R_CUDA_ABS16_20 (the high word 0), an
 * offset in it added after. */
static void const_address(LowerCtx *c, const LDataVar *v, int64_t add, Opnd *o)
{
	o->kind = OPND_REG;
	o->width = c->lm->address64 ? 2 : 1;
	o->imm = 0;
	o->vreg = lw_temp(c, o->width);
	LInsn *mov = lw_emit(c, SF_MOV32I);
	linsn_ref(mov, SR_RD, o->vreg, 0, 1, true);
	linsn_set(mov, SR_IMM, 0);
	mov->reloc = LRELOC_CONST_ADDR;
	mov->reloc_var = (uint16_t)(v - c->lm->vars);
	if (add) {
		LInsn *a = lw_emit(c, SF_IADD32I);
		linsn_ref(a, SR_RD, o->vreg, 0, 1, true);
		linsn_ref(a, SR_RA, o->vreg, 0, 1, false);
		linsn_set(a, SR_IMM, (uint32_t)add);
	}
	if (o->width == 2) {
		LInsn *hi = lw_emit(c, SF_MOV32I);
		linsn_ref(hi, SR_RD, o->vreg, 1, 1, true);
		linsn_set(hi, SR_IMM, 0);
	}
}

int lw_data_operand(LowerCtx *c, const Expr *e, Opnd *o)
{
	int64_t add;
	const LDataVar *cv = data_name(c, e, &add);
	if (c->lm->relocatable && cv && cv->space == LDATA_CONST) {
		const_address(c, cv, add, o);
		return 1;
	}
	if (lw_data_const(c, e, &add)) {
		o->kind = OPND_IMM;
		o->imm = add;
		o->width = 2;
		return 1;
	}
	uint32_t base;
	int r = lw_data_global(c, e, &base, &add);
	if (r <= 0)
		return r;
	o->kind = OPND_REG;
	o->width = c->lm->address64 ? 2 : 1;
	o->imm = 0;
	o->vreg = base;
	if (add == 0)
		return 1;
	o->vreg = lw_temp(c, o->width);
	if (o->width == 1) {
		LInsn *add32 = lw_emit(c, SF_IADD32I);
		linsn_ref(add32, SR_RD, o->vreg, 0, 1, true);
		linsn_ref(add32, SR_RA, base, 0, 1, false);
		linsn_set(add32, SR_IMM, (uint32_t)add);
		return 1;
	}
	LInsn *lo = lw_emit(c, SF_IADD32I);
	linsn_ref(lo, SR_RD, o->vreg, 0, 1, true);
	linsn_ref(lo, SR_RA, base, 0, 1, false);
	linsn_set(lo, SR_IMM, (uint32_t)add);
	linsn_set(lo, SR_CC, 1);
	lo->writes_cc = true;
	Opnd hi = { OPND_IMM, 0, 1, (int64_t)((uint64_t)add >> 32) };
	if (hi.imm) {
		LInsn *x = lw_alu(c, SASS_ALU_FORMS(IADD), o->vreg, 1, base, 1, &hi, 0);
		linsn_set(x, SR_X, 1);
		x->reads_cc = true;
	} else {
		LInsn *x = lw_emit(c, SF_IADD_R);
		linsn_ref(x, SR_RD, o->vreg, 1, 1, true);
		linsn_set(x, SR_RA, 255);
		linsn_ref(x, SR_RB, base, 1, 1, false);
		linsn_set(x, SR_X, 1);
		x->reads_cc = true;
	}
	return 1;
}

/* ---- labels, guards and branches of the sequences lowering writes itself ---- */

int lw_label_new(LKernel *k)
{
	k->label_pos = xrealloc(k->label_pos, (k->nlabels + 1) * sizeof *k->label_pos);
	k->label_pos[k->nlabels] = 0;
	return (int)k->nlabels++;
}

void lw_label_place(LKernel *k, int label)
{
	k->label_pos[label] = k->ninsns;
}

void lw_guard(LowerCtx *c, int p, bool negated)
{
	c->guard_vreg = p;
	c->guard_neg = negated;
}

void lw_branch(LowerCtx *c, int p, bool negated, int label)
{
	lw_guard(c, p, negated);
	LInsn *b = lw_emit(c, SF_BRA);
	b->target = label;
	lw_guard(c, -1, false);
}

/* Offsets beyond the signed `bits`-bit field are added to the address first. */
uint32_t lw_fold_offset(LowerCtx *c, uint32_t base, unsigned bw, int64_t *off, unsigned bits)
{
	if (*off >= -(INT64_C(1) << (bits - 1)) && *off < (INT64_C(1) << (bits - 1)))
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

bool lw_writes_first_operand(const Instr *in)
{
	static const char *const no_dest[] = { "st", "sust", "sured", "bra", "ret", "exit", "red", "call",
	                                        "bar", "barrier", "membar", "brx", "pmevent",
	                                        "prefetch", "prefetchu" };
	for (size_t i = 0; i < sizeof no_dest / sizeof no_dest[0]; i++)
		if (strcmp(in->opcode, no_dest[i]) == 0)
			return false;
	return in->nops > 0;
}
