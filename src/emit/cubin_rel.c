/* The relocation sections of each kernel: the header indices of its
 * texture and surface slots in .nv.constant0.<k>, and the addresses its
 * code loads (module data, kernels, functions, extern symbols). */
#include "emit/cubin_layout.h"

#include <stdlib.h>

#include "base/xalloc.h"

static size_t sym_of_surfref(const Layout *L, const char *name)
{
	ptrdiff_t decl = cubin_surfref_index(L->m, name);
	size_t j = 0;
	while (L->surf_order[j] != (size_t)decl)
		j++;
	return L->sym_surf[j];
}

/* The header-index relocation of a slot's handle (a bound surfref or
 * texref, or a handle parameter of the kernel). */
static void rel_const0_entry(const Layout *L, size_t p, uint32_t offset, const char *name, ByteBuf *b)
{
	const CubinKernel *k = kernel_at(L, p);
	ptrdiff_t h = cubin_handle_index(k, name);
	size_t sym;
	uint32_t type;
	if (h >= 0) {
		sym = L->sym_handle[p] + (size_t)h;
		type = cubin_handle_reloc_type(k->handle_params[h].space);
	} else {
		sym = sym_of_surfref(L, name);
		type = is_texture(L->m, (size_t)cubin_surfref_index(L->m, name)) ? CUBIN_R_CUDA_TEX_HEADER_INDEX
		                                                                  : CUBIN_R_CUDA_SURF_HEADER_INDEX;
	}
	cubin_buf_u64(b, offset);
	cubin_buf_u64(b, ((uint64_t)sym << 32) | type);
}

/* Relocations are listed last slot first, as ptxas does. */
void cubin_build_rel_const0(const Layout *L, size_t p, ByteBuf *b)
{
	const CubinKernel *k = kernel_at(L, p);
	for (size_t i = k->nslots; i-- > 0;) {
		const CubinSurfaceSlot *s = &L->slots[p][i];
		/* a texture parameter's sampler, then the handle itself */
		if (s->sampler)
			rel_const0_entry(L, p, s->cbank_offset, s->sampler, b);
		rel_const0_entry(L, p, s->cbank_offset, s->surfref, b);
	}
}

static bool has_kind(const uint8_t *kinds, size_t n, uint8_t kind)
{
	for (size_t i = 0; i < n; i++)
		if (kinds[i] == kind)
			return true;
	return false;
}

/* Its own (first use first), then those only its relocations name. */
size_t cubin_desc_symbols(const CubinKernel *k, uint8_t kinds[CUBIN_DESC_KINDS])
{
	size_t n = 0;
	for (size_t i = 0; i < k->ndesc_size_symbols && i < CUBIN_DESC_KINDS; i++)
		if (!has_kind(kinds, n, k->desc_size_symbols[i]))
			kinds[n++] = k->desc_size_symbols[i];
	for (size_t i = 0; i < k->ndesc_size_offsets && n < CUBIN_DESC_KINDS; i++)
		if (!has_kind(kinds, n, k->desc_size_kinds[i]))
			kinds[n++] = k->desc_size_kinds[i];
	return n;
}

void cubin_const_opts(const CubinKernel *k, ConstOpts *o)
{
	o->distinct = xcalloc(k->nconst2_refs + 1, sizeof *o->distinct);
	o->ref_sym = xcalloc(k->nconst2_refs + 1, sizeof *o->ref_sym);
	o->n = o->first_sym = 0;
	for (size_t i = 0; i < k->nconst2_refs; i++) {
		const CubinConst2Ref *r = &k->const2_refs[i];
		size_t j = 0;
		while (j < o->n && !(o->distinct[j]->pool_offset == r->pool_offset && o->distinct[j]->size == r->size))
			j++;
		if (j == o->n)
			o->distinct[o->n++] = r;
		o->ref_sym[i] = j;
	}
}

void cubin_const_opts_free(ConstOpts *o)
{
	free(o->distinct);
	free(o->ref_sym);
}

static void const_var_rel(const Layout *L, const CubinConstVarRef *r, ByteBuf *b)
{
	cubin_buf_u64(b, r->offset);
	cubin_buf_u64(b, ((uint64_t)L->sym_var[r->var] << 32) |
	                 (r->shared ? CUBIN_R_CUDA_ABS24_20 : r->ldc ? CUBIN_R_CUDA_CONST_FIELD21_20
	                                                             : CUBIN_R_CUDA_CONST_FIELD19_20));
}

/* .rel.text.<k>: -c's pool operands (last first, as ptxas lists them),
 * R_CUDA_ABS32_20 of a descriptor-size symbol on each MOV32I. */
void cubin_build_rel_text(const Layout *L, size_t p, ByteBuf *b)
{
	const CubinKernel *k = kernel_at(L, p);
	for (size_t i = k->nconst2_refs; i-- > 0;) {
		if (k->const2_refs[i].table)
			continue;
		cubin_buf_u64(b, k->const2_refs[i].offset);
		cubin_buf_u64(b, ((uint64_t)(L->const_opts[p].first_sym + L->const_opts[p].ref_sym[i]) << 32) |
		                 CUBIN_R_CUDA_CONST_FIELD19_20);
	}
	cubin_extern_rel_text(k, L->sym_extern, b);
	for (size_t i = 0; i < k->ndesc_size_offsets; i++) {
		cubin_buf_u64(b, k->desc_size_offsets[i]);
		cubin_buf_u64(b, ((uint64_t)L->sym_desc_size[k->desc_size_kinds[i]] << 32) | CUBIN_R_CUDA_ABS32_20);
	}
	for (size_t i = k->nconst_var_refs; i-- > 0;)   /* -c: .const variables' operands, last first */
		if (k->const_var_refs[i].addend == 0)
			const_var_rel(L, &k->const_var_refs[i], b);
	/* -c: the bound handles' slot fields, last first */
	for (size_t i = k->nbindless_refs; i-- > 0;)
		if (!k->bindless_refs[i].operand) {
			cubin_buf_u64(b, k->bindless_refs[i].offset);
			cubin_buf_u64(b, ((uint64_t)sym_of_surfref(L, k->bindless_refs[i].surfref) << 32) |
			                 CUBIN_R_CUDA_BINDLESSOFF13_36);
		}
	/* module variable addresses: last instruction first, as ptxas lists them */
	for (size_t i = k->ndata_fixups; i-- > 0;) {
		const CubinDataFixup *f = &k->data_fixups[i];
		cubin_buf_u64(b, f->offset);
		if (cubin_fnaddr_rel(f, L->sym_fnaddr, L->sym_extern, b))    /* -c: a .func's or extern kernel's address */
			continue;
		if (f->func) {      /* fnptr: a kernel's address (its FUNC symbol) */
			size_t q = 0;
			while (q + 1 < L->nk && kernel_at(L, q) != &L->m->kernels[f->var])
				q++;
			cubin_buf_u64(b, ((uint64_t)L->sym_func[q] << 32) |
			           (f->hi ? CUBIN_R_CUDA_FUNC_DESC32_HI_32 : CUBIN_R_CUDA_FUNC_DESC32_LO_32));
			continue;
		}
		cubin_buf_u64(b, ((uint64_t)L->sym_var[f->var] << 32) |
		           (L->m->vars[f->var].is_const ? CUBIN_R_CUDA_ABS16_20 : f->abs32 ? CUBIN_R_CUDA_ABS32_20
		            : f->hi ? CUBIN_R_CUDA_ABS32_HI_32 : CUBIN_R_CUDA_ABS32_LO_32));
	}
}

void cubin_build_rela_text(const Layout *L, size_t p, ByteBuf *b)
{
	const CubinKernel *k = kernel_at(L, p);
	for (size_t i = k->nconst2_refs; i-- > 0;) {
		if (!k->const2_refs[i].table)
			continue;
		cubin_buf_u64(b, k->const2_refs[i].offset);
		cubin_buf_u64(b, ((uint64_t)(L->const_opts[p].first_sym + L->const_opts[p].ref_sym[i]) << 32) |
		                 CUBIN_R_CUDA_CONST_FIELD21_20);
		cubin_buf_u64(b, (uint64_t)(int64_t)CUBIN_BRX_TABLE_ADDEND);
	}
	for (size_t i = k->nconst_var_refs; i-- > 0;)
		if (k->const_var_refs[i].addend != 0) {
			const_var_rel(L, &k->const_var_refs[i], b);
			cubin_buf_u64(b, k->const_var_refs[i].addend);
		}
	for (size_t i = k->nbindless_refs; i-- > 0;)   /* -c: the bound handles' constant operands */
		if (k->bindless_refs[i].operand) {
			cubin_buf_u64(b, k->bindless_refs[i].offset);
			cubin_buf_u64(b, ((uint64_t)sym_of_surfref(L, k->bindless_refs[i].surfref) << 32) |
			                 CUBIN_R_CUDA_CONST_FIELD19_20);
			cubin_buf_u64(b, k->bindless_refs[i].addend);
		}
}

static void lower_to(uint32_t *min, uint32_t offset)
{
	if (offset < *min)
		*min = offset;
}

/* ptxas creates .rel.text.<k> and .rela.text.<k> at their first
 * relocations in code order: whichever comes first is numbered first. */
bool cubin_rela_text_first(const CubinKernel *k)
{
	uint32_t rel = UINT32_MAX, rela = UINT32_MAX;
	for (size_t i = 0; i < k->ndesc_size_offsets; i++)
		lower_to(&rel, k->desc_size_offsets[i]);
	for (size_t i = 0; i < k->ndata_fixups; i++)
		lower_to(&rel, k->data_fixups[i].offset);
	for (size_t i = 0; i < k->nextern_calls; i++)
		lower_to(&rel, k->extern_calls[i].offset);
	for (size_t i = 0; i < k->nconst2_refs; i++)
		lower_to(k->const2_refs[i].table ? &rela : &rel, k->const2_refs[i].offset);
	for (size_t i = 0; i < k->nbindless_refs; i++)
		lower_to(k->bindless_refs[i].operand ? &rela : &rel, k->bindless_refs[i].offset);
	for (size_t i = 0; i < k->nconst_var_refs; i++)
		lower_to(k->const_var_refs[i].addend ? &rela : &rel, k->const_var_refs[i].offset);
	return rela < rel && rel != UINT32_MAX;
}
