/* Module .global and .const variables (issue 15): their sizes, initialiser
 * bytes and address relocations, their places in .nv.global.init /
 * .nv.global / .nv.constant3, and ld.const (their names as operands are
 * in lower_ctx.c).
 *
 * What ptxas 11.8 does, read from its sm_50 cubins:
 * - .const variables live in .nv.constant3 (c[0x3]), the .visible ones
 *   first, then the others, each group in declaration order at its
 *   alignment (-c: in .nv.global's order); code reads them as
 *   c[0x3][offset] with no relocation (-c: relocated, driver/assemble.c),
 *   and `mov.u64 %rd, cvar` is the bank offset.
 * - .global variables with an initialiser live in .nv.global.init (the
 *   rest in .nv.global, NOBITS), ordered as global_before says.
 * - .weak variables are STB_WEAK symbols, .visible and .common ones
 *   STB_GLOBAL (-c: a .common one without initialiser SHN_COMMON, not
 *   placed); without -c an .extern variable is defined here as ptxas
 *   does then (it warns "ignoring extern qualifier").
 * - code takes a .global variable's address with two MOV32I, relocated
 *   R_CUDA_ABS32_LO_32 / R_CUDA_ABS32_HI_32 against its symbol (the field
 *   holds 0), and adds an offset with IADD32I.CC / IADD.X (or folds it
 *   into the LDG/STG offset).
 * - an initialiser word `sym`, `generic(sym)` or `generic(sym)+off` is 0
 *   in the section and relocated R_CUDA_G64: in .rel.nv.global.init when
 *   there is no addend, else in .rela.nv.global.init.
 * - a mask() byte `0xFF00(sym)` (any of the above, the mask 0xFF << 8k;
 *   llc writes pointers in packed aggregates so) is 0 and relocated
 *   R_CUDA_G8_<8k> (types 84 + k) at its element's start (.u8, .u32 or
 *   .u64), the same way; a function's byte is a byte of its id, or under
 *   -c relocated R_CUDA_8_<8k> (types 76 + k) against its symbol, as
 *   ptxas 11.8 -c writes it. */
#include "lower/lower_internal.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

static bool has_word(const VarDecl *d, const char *word)
{
	for (uint32_t i = 0; i < d->nspecs; i++)
		if (strcmp(d->specs[i].word, word) == 0)
			return true;
	return false;
}

/* The element type of the declaration: its bytes (0: none we place). */
static unsigned elem_bytes(const VarDecl *d, PtxTy *ty)
{
	unsigned bytes = 0;
	for (uint32_t s = 0; s < d->nspecs; s++) {
		PtxTy t = ptx_type_of_word(d->specs[s].word);
		if (t.bits >= 8) {
			bytes = t.bits / 8;
			*ty = t;
		}
	}
	return bytes;
}

/* ---- initialisers ---- */

typedef struct InitWriter {
	LowerCtx *c;
	LDataVar *v;
	PtxTy ty;
	unsigned elem;
	uint32_t pos;       /* next element's byte offset */
} InitWriter;

static void put_le(uint8_t *p, uint64_t value, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (uint8_t)(value >> (8 * i));
}

static bool add_reloc(InitWriter *w, LDataReloc r)
{
	LDataVar *v = w->v;
	v->relocs = xrealloc(v->relocs, (v->nrelocs + 1) * sizeof *v->relocs);
	v->relocs[v->nrelocs++] = r;
	return true;
}

/* mask(): 1 + k when e is `M(...)` with M = 0xFF << 8k, else 0. */
static uint8_t mask_byte(const Expr *e)
{
	uint64_t m;
	if (!expr_is_mask_call(e) || !int_literal_value(e->text, &m))
		return 0;
	for (unsigned k = 0; k < 8; k++)
		if (m == 0xFFull << (8 * k))
			return (uint8_t)(k + 1);
	return 0;
}

/* `sym`, `generic(sym)`, either + or - a constant; `byte`: inside a
 * mask(), byte - 1 of that address (a 1-byte element). */
static bool address_init(InitWriter *w, const Expr *e, uint8_t byte)
{
	int64_t add = 0;
	if (e->kind == EX_BINARY && (e->op == '+' || e->op == '-') && expr_const_int(e->rhs, &add)) {
		if (e->op == '-')
			add = -add;
		e = e->lhs;
	}
	if (e->kind == EX_CALL && e->text && strcmp(e->text, "generic") == 0 && e->nelems == 1)
		e = e->elems[0];
	if (e->kind != EX_NAME || e->component)
		return false;
	if (byte) {
		/* a function's address is its id (lower_fnptr.c): its byte, a constant */
		int64_t id;
		uint32_t fa;
		bool fn_c = w->c->lm->relocatable && add == 0 && lw_fnaddr_init(w->c, e, &fa);
		int fn = fn_c || add != 0 ? 0 : lw_fnptr_address(w->c, e, &id);
		if (fn > 0)
			w->v->init[w->pos] = (uint8_t)((uint64_t)id >> (8 * (byte - 1)));
		if (fn)
			return fn > 0;
		const LMapEntry *t = fn_c ? NULL : lmap_find(&w->c->data_vars, e->text);
		if (!t && !fn_c)
			return lw_unsupported(w->c, e->loc, "a mask() initialiser naming '%s' (a byte of the "
			                      "address of a module .global or .const variable is supported)", e->text);
		/* .u32/.u64 elements: the byte is relocated at the element's start */
		if (w->elem != 1 && w->elem != 4 && w->elem != 8)
			return lw_unsupported(w->c, e->loc, "a mask() initialiser in a %u-byte element (1-, 4- and "
			                      "8-byte elements are supported)", w->elem);
		/* -c: a function's byte is relocated R_CUDA_8_<8k> against its symbol */
		return add_reloc(w, fn_c ? (LDataReloc){ w->pos, fa, 0, true, byte }
		                         : (LDataReloc){ w->pos, (uint32_t)t->value, add, false, byte });
	}
	/* -c: a function's address is relocated R_CUDA_32 (lower_fnaddr.c) */
	uint32_t fa;
	if (add == 0 && lw_fnaddr_init(w->c, e, &fa)) {
		return add_reloc(w, (LDataReloc){ w->pos, fa, 0, true, 0 });
	}
	/* else a function's address is its id, a constant (lower_fnptr.c) */
	int64_t id;
	int fn = add == 0 ? lw_fnptr_address(w->c, e, &id) : 0;
	if (fn > 0)
		put_le(w->v->init + w->pos, (uint64_t)id, w->elem);
	if (fn)
		return fn > 0;
	const LMapEntry *t = lmap_find(&w->c->data_vars, e->text);
	if (!t)
		return lw_unsupported(w->c, e->loc, "an initialiser naming '%s' (the address of a module "
		                      ".global or .const variable or of a .func declared before is supported)",
		                      e->text);
	/* .address_size 32: 4-byte elements, still relocated R_CUDA_G64 (ptxas 11.8) */
	if (w->elem != (w->c->lm->address64 ? 8u : 4u))
		return lw_unsupported(w->c, e->loc, "an address initialiser in a %u-byte element (%u-byte "
		                      "elements with .address_size %u are supported)", w->elem,
		                      w->c->lm->address64 ? 8 : 4, w->c->lm->address64 ? 64 : 32);
	return add_reloc(w, (LDataReloc){ w->pos, (uint32_t)t->value, add, false, 0 });
}

static bool scalar_init(InitWriter *w, const Expr *e)
{
	if (w->pos + w->elem > w->v->size)
		return lw_unsupported(w->c, e->loc, "an initialiser with more elements than '%s' has",
		                      w->v->name);
	uint8_t *p = w->v->init + w->pos;
	int64_t iv;
	if (e->kind == EX_FLOAT && e->text && e->text[0] == '0' && strchr("fFdD", e->text[1])) {
		put_le(p, strtoull(e->text + 2, NULL, 16), w->elem);
	} else if (e->kind == EX_FLOAT || (w->ty.is_float && expr_const_int(e, &iv))) {
		double d = e->kind == EX_FLOAT ? strtod(e->text, NULL) : (double)iv;
		if (w->elem == 4) {
			float f = (float)d;
			uint32_t bits;
			memcpy(&bits, &f, 4);
			put_le(p, bits, 4);
		} else if (w->elem == 8) {
			uint64_t bits;
			memcpy(&bits, &d, 8);
			put_le(p, bits, 8);
		} else {
			return lw_unsupported(w->c, e->loc, "a float initialiser of %u bytes", w->elem);
		}
	} else if (expr_const_int(e, &iv)) {
		put_le(p, (uint64_t)iv, w->elem);
	} else if (mask_byte(e) ? !address_init(w, e->elems[0], mask_byte(e)) : !address_init(w, e, 0)) {
		return w->c->errors ? false
		     : lw_unsupported(w->c, e->loc, "this initialiser (constants, `sym`, `generic(sym)`, "
		                      "those plus an offset and their bytes through mask() are supported)");
	}
	w->pos += w->elem;
	return true;
}

/* Braces nest per dimension; elements fill in row-major order. */
static bool walk_init(InitWriter *w, const Expr *e)
{
	if (e->kind != EX_VECTOR)
		return scalar_init(w, e);
	for (uint32_t i = 0; i < e->nelems; i++)
		if (!walk_init(w, e->elems[i]))
			return false;
	return true;
}

/* ---- declarations ---- */

/* The largest module .global variable (without initialiser): 256 TiB,
 * the 48-bit virtual address space; it keeps sizes and offsets far from
 * 64-bit overflow (ptxas 11.8 writes st_size 0x1fffffffffffffff for a
 * .b8 array of 2^63 - 1, measured). */
#define MODULE_GLOBAL_MAX (1ull << 48)

static LDataVar *new_var(LowerCtx *c, const char *name)
{
	LModule *lm = c->lm;
	if (lm->nvars == c->data_vars_cap) {
		c->data_vars_cap = c->data_vars_cap ? 2 * c->data_vars_cap : 8;
		lm->vars = xrealloc(lm->vars, c->data_vars_cap * sizeof *lm->vars);
	}
	LDataVar *v = &lm->vars[lm->nvars];
	memset(v, 0, sizeof *v);
	v->name = name;
	lmap_put(&c->data_vars, name, (int64_t)lm->nvars, 0);
	lm->nvars++;
	return v;
}

void lw_module_data_add(LowerCtx *c, const VarDecl *d, SrcLoc loc)
{
	bool is_const = has_word(d, ".const");
	/* without -c, ptxas defines an .extern variable here (and warns) */
	uint8_t bind = has_word(d, ".weak") ? LBIND_WEAK
	             : has_word(d, ".visible") || has_word(d, ".extern") || has_word(d, ".common") ? LBIND_GLOBAL
	             : LBIND_LOCAL;
	PtxTy ty = { 0 };
	unsigned elem = elem_bytes(d, &ty);
	unsigned vec = has_word(d, ".v4") ? 4 : has_word(d, ".v2") ? 2 : 1;
	uint32_t align = 0;
	for (uint32_t s = 0; s < d->nspecs; s++)
		if (strcmp(d->specs[s].word, ".align") == 0 && d->specs[s].has_value)
			align = (uint32_t)d->specs[s].value;
	for (uint32_t i = 0; i < d->ndecls; i++) {
		const Declarator *dc = &d->decls[i];
		if (elem == 0) {
			lw_unsupported(c, dc->loc, "module variable '%s' of this type (8- to 64-bit integer and "
			               "float types are supported)", dc->name);
			continue;
		}
		if (c->lm->nvars >= UINT16_MAX) {
			lw_unsupported(c, dc->loc, "more than %u module .global/.const variables", UINT16_MAX - 1);
			return;
		}
		uint64_t n = (uint64_t)elem * vec;
		bool sized = true;
		for (uint32_t q = 0; q < dc->ndims; q++) {
			/* `x[] = {...}`: as many rows as the initializer has (ptxas 11.8) */
			int64_t dim = q == 0 && dc->dims[0] < 0 && dc->init && dc->init->kind == EX_VECTOR
			            ? (int64_t)dc->init->nelems : dc->dims[q];
			sized &= dim >= 0;
			/* past the largest size: counted as 0, refused below */
			n = dim <= 0 || n > MODULE_GLOBAL_MAX / (uint64_t)dim ? 0 : n * (uint64_t)dim;
		}
		if (!sized || n == 0 || n > (is_const ? 0x10000u : dc->init ? 0x7fffffffu : MODULE_GLOBAL_MAX)) {
			if (dc->init && !is_const && sized && n > 0x7fffffffu)
				lw_unsupported(c, dc->loc, "module variable '%s' of this size with an initializer (up to "
				               "2 GiB is supported: ptxas 11.8 writes every byte of one into the cubin, and "
				               "fails writing a 4.5 GiB one)", dc->name);
			else
				lw_unsupported(c, dc->loc, "module variable '%s' of this size (a fixed size up to %s is "
				               "supported)", dc->name, is_const ? "64 KiB in .const" : "256 TiB");
			continue;
		}
		LDataVar *v = new_var(c, dc->name);
		v->space = is_const ? LDATA_CONST : LDATA_GLOBAL;
		v->bind = bind;
		v->visible = has_word(d, ".visible");
		v->common = has_word(d, ".common");
		v->size = n;
		v->align = align ? align : elem * vec;
		v->loc = dc->loc;
		if (dc->init) {
			v->init = xcalloc(v->size, 1);
			InitWriter w = { c, v, ty, elem, 0 };
			walk_init(&w, dc->init);
		}
	}
}

/* .nv.constant3 is laid out when the first kernel needs it (code reads
 * fixed offsets): the .visible variables declared so far first, then the
 * others; later declarations follow them. */
static void place_const(LowerCtx *c, LDataVar *v)
{
	v->offset = (c->const_size + v->align - 1) / v->align * v->align;
	c->const_size = v->offset + v->size;
	v->placed = true;
}

/* ptxas 11.8's order within .nv.global.init and .nv.global: falling
 * alignment, then growing size, then .visible/.weak before file-local,
 * then the last declared first. */
static bool global_before(const LModule *lm, size_t a, size_t b)
{
	const LDataVar *x = &lm->vars[a], *y = &lm->vars[b];
	if (x->align != y->align)
		return x->align > y->align;
	if (x->size != y->size)
		return x->size < y->size;
	if ((x->bind != LBIND_LOCAL) != (y->bind != LBIND_LOCAL))
		return x->bind != LBIND_LOCAL;
	return a > b;
}

/* The variables of `space` in order, sorted by global_before; returns how many. */
static size_t sorted_vars(const LModule *lm, uint8_t space, size_t *order)
{
	size_t n = 0;
	for (size_t i = 0; i < lm->nvars; i++)
		if (lm->vars[i].space == space)
			order[n++] = i;
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && global_before(lm, order[j], order[j - 1]); j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	return n;
}

void lw_module_data_freeze_const(LowerCtx *c)
{
	LModule *lm = c->lm;
	if (lm->relocatable) {
		/* -c: ordered as .nv.global (ptxas -c, measured; the linker
		 * relocates the operands) */
		size_t *order = xmalloc((lm->nvars ? lm->nvars : 1) * sizeof *order);
		size_t n = sorted_vars(lm, LDATA_CONST, order);
		for (size_t i = 0; i < n; i++)
			if (!lm->vars[order[i]].placed)
				place_const(c, &lm->vars[order[i]]);
		free(order);
		return;
	}
	for (int visible = 1; visible >= 0; visible--)
		for (size_t i = 0; i < lm->nvars; i++) {
			LDataVar *v = &lm->vars[i];
			if (v->space == LDATA_CONST && v->visible == (bool)visible && !v->placed)
				place_const(c, v);
		}
}

void lw_module_data_finish(LowerCtx *c)
{
	LModule *lm = c->lm;
	lw_module_data_freeze_const(c);
	/* .nv.global.init, then .nv.global, each sorted (see global_before) */
	size_t *order = xmalloc((lm->nvars ? lm->nvars : 1) * sizeof *order);
	size_t n = sorted_vars(lm, LDATA_GLOBAL, order);
	for (int with_init = 1; with_init >= 0; with_init--) {
		uint64_t size = 0;
		const LDataVar *last = NULL;
		for (size_t i = 0; i < n; i++) {
			LDataVar *v = &lm->vars[order[i]];
			/* -c: a .common variable without initialiser is the linker's to place */
			if ((v->init != NULL) != (bool)with_init || (lm->relocatable && v->common && !v->init))
				continue;
			v->offset = (size + v->align - 1) / v->align * v->align;
			size = v->offset + v->size;
			last = v;
			/* ptxas 11.8 (and 13.0) place in 32 bits: the variable after
			 * one that passes 4 GiB lands at the wrapped offset, inside it */
			if (v->offset > UINT32_MAX)
				lw_unsupported(c, v->loc, "module .global variable '%s' at offset 0x%llx of .nv.global "
				               "(ptxas 11.8 wraps offsets past 4 GiB to 32 bits, overlapping the "
				               "variables before; only the last one placed may end past 4 GiB)",
				               v->name, (unsigned long long)v->offset);
		}
		/* .nv.global's sh_size is its size modulo 4 GiB (cubin.c); 0
		 * there: ptxas drops the section's symbol, a layout not written here */
		if (last && size > UINT32_MAX && (uint32_t)size == 0)
			lw_unsupported(c, last->loc, "module .global data of 0x%llx bytes, a multiple of 4 GiB "
			               "(ptxas 11.8 writes .nv.global's size as 0 then)", (unsigned long long)size);
	}
	free(order);
	lmap_fini(&c->data_vars);
}

void lower_module_data_free(LModule *lm)
{
	for (size_t i = 0; i < lm->nvars; i++) {
		free(lm->vars[i].init);
		free(lm->vars[i].relocs);
	}
	free(lm->vars);
}

/* ---- ld.const, as ptxas 11.8 loads c[0x3] ---- */

/* One LDC of `bytes` (1, 2, 4, 8) at c[bank][base + off] into d.dsub: an offset
 * beyond the signed 16-bit field is split as ptxas splits it (the nearest
 * multiple of 0x10000 added to the register first). A sub-word is
 * LDC.U8/.U16, and a BFE when is_signed (sign-extended into a wider
 * register). */
void lw_ldc(LowerCtx *c, unsigned bank, int base, int64_t off, unsigned bytes, bool is_signed, uint32_t d,
            unsigned dsub)
{
	if (off < -0x8000 || off > 0x7fff) {
		int64_t hi = (int64_t)(((uint64_t)off + 0x8000) & ~(uint64_t)0xffff);
		uint32_t a2 = lw_temp(c, 1);
		LInsn *add = lw_emit(c, SF_IADD32I);
		linsn_ref(add, SR_RD, a2, 0, 1, true);
		if (base >= 0)
			linsn_ref(add, SR_RA, (uint32_t)base, 0, 1, false);
		else
			linsn_set(add, SR_RA, 255);
		linsn_set(add, SR_IMM, (uint32_t)hi);
		base = (int)a2;
		off -= hi;
	}
	LInsn *ldc = lw_emit(c, SF_LDC);
	linsn_ref(ldc, SR_RD, d, dsub, bytes == 8 ? 2 : 1, true);
	if (base >= 0)
		linsn_ref(ldc, SR_RA, (uint32_t)base, 0, 1, false);
	else
		linsn_set(ldc, SR_RA, 255);
	linsn_set(ldc, SR_SIZE, bytes == 8 ? 5 : bytes == 4 ? 4 : bytes == 1 ? 0 : 2);
	linsn_set(ldc, SR_LDCMODE, 0);
	linsn_set(ldc, SR_CBANK, bank);
	linsn_set(ldc, SR_COFF, off);
	if (bytes < 4 && is_signed)
		lw_sign_extend_low(c, d, dsub, bytes * 8);
}

/* A fixed address: MOV d, c[0x3][off] per aligned word (an unsigned byte
 * or half at a word boundary too, masked by LOP32I.AND); other sub-words
 * through LDC. */
static void load_fixed(LowerCtx *c, int64_t off, unsigned bytes, bool is_signed, uint32_t d, unsigned dsub)
{
	if (off < 0 || off % 4 || off + (int64_t)bytes > 0x10000 || (bytes < 4 && is_signed)) {
		lw_ldc(c, LDATA_CONST_BANK, -1, off, bytes, is_signed, d, dsub);
		return;
	}
	for (unsigned p = 0; p < (bytes + 3) / 4; p++) {
		LInsn *mov = lw_emit(c, SF_MOV_C);
		linsn_ref(mov, SR_RD, d, dsub + p, 1, true);
		linsn_set(mov, SR_CBANK, LDATA_CONST_BANK);
		/* the 14-bit word field addresses the whole 64 KiB bank; nvdisasm
		 * reads it signed, so ptxas -O3 writes c[0x3][0xe504] as
		 * c[0x3][-0x1afc] (measured): offsets from 0x8000 up wrap */
		int64_t word = (off + 4 * p) / 4;
		linsn_set(mov, SR_COFF, word >= 0x2000 ? word - 0x4000 : word);
	}
	if (bytes < 4) {
		LInsn *and = lw_emit(c, SF_LOP32I);
		linsn_ref(and, SR_RD, d, dsub, 1, true);
		linsn_ref(and, SR_RA, d, dsub, 1, false);
		linsn_set(and, SR_LOPOP, 0);
		linsn_set(and, SR_IMM, bytes == 1 ? 0xff : 0xffff);
	}
}

bool lower_ld_const(LowerCtx *c, const Instr *in)
{
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		if (strcmp(w, ".const") != 0 && strcmp(w, ".v2") != 0 && strcmp(w, ".v4") != 0 &&
		    ptx_type_of_word(w).bits == 0 && !lw_cache_op_word(w, true))
			return lw_unsupported(c, in->mod_locs[i], "ld.const modifier '%s'", w);
	}
	PtxTy t = lw_instr_type(in);
	unsigned vec = lw_vec_width(in), ebytes = t.bits / 8;
	/* a vector is one load per element, as ptxas 11.8 writes it (-O0 and
	 * -O3: LDC.U8/.S8/.U16/.S16 each, no wider load of the whole vector) */
	if (t.bits < 8)
		return lw_unsupported(c, in->loc, "ld.const of this type (8- to 64-bit types are supported)");
	const Expr *a = in->ops[1];
	if (a->kind != EX_ADDRESS || a->nelems != 1)
		return lw_unsupported(c, a->loc, "this address");
	const Expr *e = a->elems[0];
	int64_t off = 0;
	int base = -1;
	if (!lw_data_const(c, e, &off) && !(e->kind != EX_NAME && expr_const_int(e, &off))) {
		if (e->kind == EX_BINARY && (e->op == '+' || e->op == '-') && expr_const_int(e->rhs, &off)) {
			if (e->op == '-')
				off = -off;
			e = e->lhs;
		}
		uint32_t r;
		unsigned bw;
		if (e->kind != EX_NAME || e->text[0] != '%')
			return lw_unsupported(c, a->loc, "this ld.const address (a .const variable or a register, "
			                      "plus a constant offset, is supported)");
		if (!lw_reg(c, e, &r, &bw))
			return false;
		base = (int)r;
	}
	const Expr *de = in->ops[0];
	if (vec > 1 && (de->kind != EX_VECTOR || de->nelems != vec))
		return lw_unsupported(c, de->loc, "this destination vector");
	for (unsigned i = 0; i < vec; i++) {
		uint32_t d;
		unsigned w;
		if (!lw_reg(c, vec > 1 ? de->elems[i] : de, &d, &w))
			return false;
		int64_t o = off + (int64_t)(i * ebytes);
		bool extend = t.is_signed && lw_reg_bits(c, vec > 1 ? de->elems[i] : de) > t.bits;
		if (base < 0)
			load_fixed(c, o, ebytes, extend, d, 0);
		else
			lw_ldc(c, LDATA_CONST_BANK, base, o, ebytes, extend, d, 0);
	}
	return true;
}
