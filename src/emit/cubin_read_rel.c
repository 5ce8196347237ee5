/* The cubin reader's module data and relocations (see cubin_read.h):
 * .nv.constant3/.nv.global.init/.nv.global variables with their
 * initialiser relocations, the relocated MOV32I of their addresses, the
 * JCALs of external functions and of functions in other code sections. */
#include "emit/cubin_read_internal.h"

#include <stdlib.h>

#include "base/xalloc.h"

static size_t section_named(const Reader *r, const char *name, uint32_t type)
{
	for (size_t i = 1; i < r->shnum; i++)
		if (r->sh[i].type == type && strcmp(section_name(r, i), name) == 0)
			return i;
	return 0;
}

/* The variable whose symbol is sym, or -1. */
static ptrdiff_t var_of_symbol(const size_t *var_sym, size_t nvars, uint64_t sym)
{
	for (size_t v = 0; v < nvars; v++)
		if (var_sym[v] == sym)
			return (ptrdiff_t)v;
	return -1;
}

/* The relocations of section rel (entry size ent) that fall in variable v
 * of the .nv.global.init section (of .nv.constant3 for a .const one),
 * appended to *out. */
static int read_init_relocs(Reader *r, size_t rel, size_t ent, CubinImage *img, const size_t *var_sym,
                            size_t v, CubinInitReloc *out, size_t *n)
{
	const SectionHeader *s = &r->sh[rel];
	if (s->size % ent)
		return cubin_read_fail(r, "bad cubin: relocation section %zu has a partial entry", rel);
	const uint8_t *d = section_data(r, rel);
	CubinVar *var = &img->vars[v];
	if (!var->init)
		return 0;
	for (uint64_t pos = 0; pos < s->size; pos += ent) {
		uint64_t offset = rd64(d + pos), info = rd64(d + pos + 8);
		if (offset < var->offset || offset >= (uint64_t)var->offset + var->size)
			continue;
		ptrdiff_t target = var_of_symbol(var_sym, img->nvars, info >> 32);
		uint32_t kind = (uint32_t)info;
		if ((kind == CUBIN_R_CUDA_32 || (kind >= CUBIN_R_CUDA_8_0 && kind < CUBIN_R_CUDA_8_0 + 8)) &&
		    is_func(r, info >> 32))
			continue;     /* a .func's address or byte of it (-c): cubin_read_func_inits */
		uint32_t type = (uint32_t)info;
		bool byte = type >= CUBIN_R_CUDA_G8_0 && type < CUBIN_R_CUDA_G8_0 + 8;
		if ((type != CUBIN_R_CUDA_G64 && !byte) || target < 0)
			return cubin_read_fail(r, "bad cubin: unknown initialiser relocation in section %zu", rel);
		out[(*n)++] = (CubinInitReloc){ (uint32_t)(offset - var->offset), (uint32_t)target,
		                                ent == RELA_SIZE ? (int64_t)rd64(d + pos + 16) : 0, false,
		                                byte ? (uint8_t)(type - CUBIN_R_CUDA_G8_0 + 1) : 0 };
	}
	return 0;
}

/* The entries of every kernel's .rel.text.<k>: a bound for the stores of
 * what they relocate. */
static size_t rel_text_entries(const Reader *r, const CubinImage *img)
{
	size_t n = 0;
	for (size_t k = 0; k < img->nkernels; k++) {
		size_t t = r->rel_text_of[img->kernels[k].text_section];
		n += t ? r->sh[t].size / REL_SIZE : 0;
	}
	return n;
}

/* Kernel k's .rel.text.<k> when it has whole entries: its bytes and
 * (*size) length; else NULL. */
static const uint8_t *kernel_rel_text(const Reader *r, const CubinImage *img, size_t k, uint64_t *size)
{
	size_t t = r->rel_text_of[img->kernels[k].text_section];
	if (!t || r->sh[t].size % REL_SIZE)
		return NULL;
	*size = r->sh[t].size;
	return section_data(r, t);
}

int cubin_read_vars(Reader *r, CubinImage *img)
{
	static const char *const names[3] = { ".nv.constant3", ".nv.global.init", ".nv.global" };
	static const uint32_t types[3] = { SHT_PROGBITS, SHT_PROGBITS, SHT_NOBITS };
	/* ptxas 11.8 -c: SHT_CUDA_CONSTANT3, SHT_CUDA_GLOBAL_INIT, SHT_CUDA_GLOBAL */
	static const uint32_t reloc_types[3] = { CUBIN_SHT_CUDA_CONSTANT3, CUBIN_SHT_CUDA_GLOBAL_INIT,
	                                         CUBIN_SHT_CUDA_GLOBAL };
	size_t sec[3];
	for (int d = 0; d < 3; d++)
		if (!(sec[d] = section_named(r, names[d], types[d])))
			sec[d] = section_named(r, names[d], reloc_types[d]);
	img->vars = xcalloc(r->nsyms + 1, sizeof *img->vars);
	size_t *var_sym = xcalloc(r->nsyms + 1, sizeof *var_sym);
	uint64_t global_end = 0;    /* where the last variable of .nv.global ends */
	for (int global = 1; global >= 0; global--)
		for (size_t i = 1; i < r->nsyms; i++) {
			const uint8_t *sym = symbol(r, i);
			uint16_t shndx = rd16(sym + 6);
			int d = 0;
			while (d < 3 && (!sec[d] || sec[d] != shndx))
				d++;
			if (((sym[4] & 0xf) != STT_OBJECT && (sym[4] & 0xf) != STT_CUDA_OBJECT) || d == 3 || ((sym[4] >> 4) == STB_GLOBAL) != (bool)global)
				continue;
			uint64_t value = rd64(sym + 8), size = rd64(sym + 16);
			const SectionHeader *s = &r->sh[shndx];
			/* .nv.global's sh_size is its size modulo 4 GiB (ptxas 11.8):
			 * checked against the end of its last variable below */
			bool nobits = d == 2;
			if (value + size < value || (!nobits && (value + size > s->size || size > UINT32_MAX)) ||
			    (nobits && value > UINT32_MAX)) {
				free(var_sym);
				return cubin_read_fail(r, "bad cubin: variable %s lies outside its section", symbol_name(r, i));
			}
			if (nobits && value + size > global_end)
				global_end = value + size;
			/* the alignment is not recorded: the section's for the variable at
			 * 0, else the largest power of two the offset allows */
			uint64_t align = s->align ? s->align : 1;
			while (value % align)
				align >>= 1;
			var_sym[img->nvars] = i;
			img->vars[img->nvars++] = (CubinVar){
				.name = symbol_name(r, i), .is_const = d == 0, .visible = global, .global = global,
				.weak = (sym[4] >> 4) == STB_WEAK, .offset = value, .size = size,
				.align = (uint32_t)align, .init = d != 2 ? section_data(r, shndx) + value : NULL };
		}
	if (global_end > (sec[2] ? r->sh[sec[2]].size : 0) &&
	    (global_end <= UINT32_MAX || (uint32_t)global_end != r->sh[sec[2]].size)) {
		free(var_sym);
		return cubin_read_fail(r, "bad cubin: the variables of .nv.global end at 0x%llx, past its size",
		                       (unsigned long long)global_end);
	}
	/* [0] .nv.global.init's, [1] .nv.constant3's */
	size_t rel[2] = { section_named(r, ".rel.nv.global.init", SHT_REL), section_named(r, ".rel.nv.constant3", SHT_REL) };
	size_t rela[2] = { section_named(r, ".rela.nv.global.init", SHT_RELA),
	                   section_named(r, ".rela.nv.constant3", SHT_RELA) };
	size_t cap = 0;
	for (int q = 0; q < 2; q++)
		cap += (rel[q] ? r->sh[rel[q]].size / REL_SIZE : 0) + (rela[q] ? r->sh[rela[q]].size / RELA_SIZE : 0);
	img->init_reloc_store = xcalloc(cap + 1, sizeof *img->init_reloc_store);
	size_t n = 0;
	int rc = 0;
	for (size_t v = 0; v < img->nvars && rc == 0; v++) {
		CubinInitReloc *first = img->init_reloc_store + n;
		size_t before = n;
		int q = img->vars[v].is_const;
		if (rel[q])
			rc = read_init_relocs(r, rel[q], REL_SIZE, img, var_sym, v, img->init_reloc_store, &n);
		if (rela[q] && rc == 0)
			rc = read_init_relocs(r, rela[q], RELA_SIZE, img, var_sym, v, img->init_reloc_store, &n);
		img->vars[v].relocs = first;
		img->vars[v].nrelocs = n - before;
	}
	/* .rel.text.<k>: the MOV32I of variable addresses, listed last first */
	size_t nfix = rel_text_entries(r, img);
	img->fixup_store = xcalloc(nfix + 1, sizeof *img->fixup_store);
	nfix = 0;
	for (size_t k = 0; k < img->nkernels && rc == 0; k++) {
		size_t t = r->rel_text_of[img->kernels[k].text_section];
		if (!t || r->sh[t].size % REL_SIZE)
			continue;
		const uint8_t *d = section_data(r, t);
		CubinKernel *ck = &img->kernels[k].k;
		ck->data_fixups = img->fixup_store + nfix;
		for (uint64_t pos = r->sh[t].size; pos >= REL_SIZE; pos -= REL_SIZE) {
			uint64_t offset = rd64(d + pos - REL_SIZE), info = rd64(d + pos - REL_SIZE + 8);
			uint32_t type = (uint32_t)info;
			ptrdiff_t var = var_of_symbol(var_sym, img->nvars, info >> 32);
			if (type != CUBIN_R_CUDA_ABS32_LO_32 && type != CUBIN_R_CUDA_ABS32_HI_32 &&
			    (type != CUBIN_R_CUDA_ABS32_20 || var < 0))
				continue;
			if (var < 0 && is_func(r, info >> 32))
				continue;     /* a .func's address (-c): read_extern_calls */
			if (var < 0 || offset > UINT32_MAX) {
				rc = cubin_read_fail(r, "bad cubin: relocation of an unknown variable in section %zu", t);
				break;
			}
			img->fixup_store[nfix++] = (CubinDataFixup){ (uint32_t)offset, (uint32_t)var,
			                                             type == CUBIN_R_CUDA_ABS32_HI_32, false,
			                                             type == CUBIN_R_CUDA_ABS32_20, false, false, 0 };
			ck->ndata_fixups++;
		}
	}
	free(var_sym);
	return rc;
}

/* A JCAL of a function defined at the start of a code section (ptxas -O0
 * -g: one section per function): the index of its img->kernels entry, or
 * img->nkernels. */
static size_t section_callee(const Reader *r, const CubinImage *img, uint64_t sym)
{
	const uint8_t *s = symbol(r, (size_t)sym);
	if (is_extern_func(r, sym) || rd64(s + 8) != 0)
		return img->nkernels;
	size_t k = 0;
	while (k < img->nkernels && img->kernels[k].text_section != rd16(s + 6))
		k++;
	return k;
}

/* The external functions (undefined FUNC symbols, symbol order) and each
 * kernel's JCALs of them (extern_calls), then its JCALs of functions in
 * other code sections (section_calls), then its MOV32I halves of their
 * addresses (section_addrs) and the R_CUDA_32 words of .nv.global.init
 * holding them (func_inits) -- sim5: the simulator models the driver's
 * vprintf and links the sections. */
void cubin_read_extern_calls(const Reader *r, CubinImage *img)
{
	img->externs = xmalloc((r->nsyms ? r->nsyms : 1) * sizeof *img->externs);
	for (size_t i = 1; i < r->nsyms; i++)
		if (is_extern_func(r, i))
			img->externs[img->nexterns++] = symbol_name(r, i);
	img->extern_call_store = xcalloc(rel_text_entries(r, img) + 1, sizeof *img->extern_call_store);
	size_t n = 0;
	for (size_t k = 0; k < img->nkernels; k++) {
		uint64_t size;
		const uint8_t *d = kernel_rel_text(r, img, k, &size);
		if (!d)
			continue;
		CubinReadKernel *rk = &img->kernels[k];
		for (int pass = 0; pass < 3; pass++) {
			if (pass == 0)
				rk->k.extern_calls = img->extern_call_store + n;
			else if (pass == 1)
				rk->section_calls = img->extern_call_store + n;
			else
				rk->section_addrs = img->extern_call_store + n;
			for (uint64_t pos = 0; pos + REL_SIZE <= size; pos += REL_SIZE) {
				uint64_t offset = rd64(d + pos), info = rd64(d + pos + 8), sym = info >> 32;
				uint32_t type = (uint32_t)info;
				bool half = type == CUBIN_R_CUDA_ABS32_LO_32 || type == CUBIN_R_CUDA_ABS32_HI_32;
				if ((pass == 2 ? !half : type != CUBIN_R_CUDA_ABS32_20) || !is_func(r, sym) || offset > UINT32_MAX)
					continue;
				size_t target = img->nexterns;
				if (pass == 2 && (target = section_callee(r, img, sym)) < img->nkernels) {
					img->extern_call_store[n++] = (CubinDataFixup){ (uint32_t)offset, (uint32_t)target,
					                                                type == CUBIN_R_CUDA_ABS32_HI_32, false, false, true, false,
					                                                0 };
					rk->nsection_addrs++;
					continue;
				}
				if (pass == 0 && is_extern_func(r, sym)) {
					target = 0;
					while (target < img->nexterns && img->externs[target] != symbol_name(r, (size_t)sym))
						target++;
					rk->k.nextern_calls++;
				} else if (pass == 1 && (target = section_callee(r, img, sym)) < img->nkernels) {
					rk->nsection_calls++;
				} else {
					continue;
				}
				img->extern_call_store[n++] = (CubinDataFixup){ (uint32_t)offset, (uint32_t)target, false, pass == 1, false,
				                                                   false, false, 0 };
			}
		}
	}
}

void cubin_read_func_inits(const Reader *r, CubinImage *img)
{
	size_t rel = section_named(r, ".rel.nv.global.init", SHT_REL);
	size_t n = rel && r->sh[rel].size % REL_SIZE == 0 ? r->sh[rel].size / REL_SIZE : 0;
	img->func_inits = xcalloc(n + 1, sizeof *img->func_inits);
	for (size_t i = 0; i < n; i++) {
		const uint8_t *d = section_data(r, rel) + i * REL_SIZE;
		uint64_t offset = rd64(d), info = rd64(d + 8);
		uint32_t type = (uint32_t)info;
		bool byte = type >= CUBIN_R_CUDA_8_0 && type < CUBIN_R_CUDA_8_0 + 8;
		size_t target = (type == CUBIN_R_CUDA_32 || byte) && is_func(r, info >> 32)
		              ? section_callee(r, img, info >> 32) : img->nkernels;
		if (target < img->nkernels && offset <= UINT32_MAX)
			img->func_inits[img->nfunc_inits++] = (CubinDataFixup){ (uint32_t)offset, (uint32_t)target,
			                                                          false, false, false, true, false,
			                                                          byte ? (uint8_t)(type - CUBIN_R_CUDA_8_0 + 1) : 0 };
	}
}

static int compare_ref_offset(const void *a, const void *b)
{
	const CubinConst2Ref *x = a, *y = b;
	return (x->offset > y->offset) - (x->offset < y->offset);
}

/* -c: kernel k's jump-table reads, R_CUDA_CONST_FIELD21_20 of its
 * .rela.text.<k> against the table's bytes, added to the store at *n. */
static int read_table_refs(Reader *r, CubinImage *img, size_t k, size_t *n)
{
	size_t t = r->rela_text_of[img->kernels[k].text_section];
	if (!t || r->sh[t].size % RELA_SIZE)
		return 0;
	const uint8_t *d = section_data(r, t);
	CubinKernel *ck = &img->kernels[k].k;
	for (uint64_t pos = 0; pos + RELA_SIZE <= r->sh[t].size; pos += RELA_SIZE) {
		uint64_t offset = rd64(d + pos), info = rd64(d + pos + 8), sym = info >> 32;
		int64_t addend = (int64_t)rd64(d + pos + 16);
		if ((uint32_t)info != CUBIN_R_CUDA_CONST_FIELD21_20)
			continue;
		if (sym == 0 || sym >= r->nsyms || offset > UINT32_MAX || addend != CUBIN_BRX_TABLE_ADDEND)
			return cubin_read_fail(r, "bad cubin: jump-table relocation out of range in kernel %s", ck->name);
		uint64_t value = rd64(symbol(r, (size_t)sym) + 8), size = rd64(symbol(r, (size_t)sym) + 16);
		if (value > UINT32_MAX || size == 0 || size > 0x10000 || size % 4)
			return cubin_read_fail(r, "bad cubin: jump-table symbol %s out of range", symbol_name(r, (size_t)sym));
		img->const2_ref_store[(*n)++] = (CubinConst2Ref){ (uint32_t)offset, (uint32_t)value, (uint32_t)size, true };
		ck->nconst2_refs++;
	}
	return 0;
}

int cubin_read_const2_refs(Reader *r, CubinImage *img)
{
	size_t cap = rel_text_entries(r, img);
	for (size_t k = 0; k < img->nkernels; k++) {
		size_t t = r->rela_text_of[img->kernels[k].text_section];
		cap += t ? r->sh[t].size / RELA_SIZE : 0;
	}
	img->const2_ref_store = xcalloc(cap + 1, sizeof *img->const2_ref_store);
	size_t n = 0;
	for (size_t k = 0; k < img->nkernels; k++) {
		uint64_t size = 0;
		const uint8_t *d = kernel_rel_text(r, img, k, &size);
		CubinKernel *ck = &img->kernels[k].k;
		ck->const2_refs = img->const2_ref_store + n;
		for (uint64_t pos = 0; d && pos + REL_SIZE <= size; pos += REL_SIZE) {
			uint64_t offset = rd64(d + pos), info = rd64(d + pos + 8), sym = info >> 32;
			if ((uint32_t)info != CUBIN_R_CUDA_CONST_FIELD19_20)
				continue;
			if (sym == 0 || sym >= r->nsyms || offset > UINT32_MAX)
				return cubin_read_fail(r, "bad cubin: pool operand relocation out of range in kernel %s",
				                       img->kernels[k].k.name);
			uint64_t value = rd64(symbol(r, (size_t)sym) + 8), size = rd64(symbol(r, (size_t)sym) + 16);
			if (value > UINT32_MAX || size > 8)
				return cubin_read_fail(r, "bad cubin: pool operand symbol %s out of range", symbol_name(r, (size_t)sym));
			img->const2_ref_store[n++] = (CubinConst2Ref){ (uint32_t)offset, (uint32_t)value, (uint32_t)size, false };
			ck->nconst2_refs++;
		}
		if (read_table_refs(r, img, k, &n))
			return -1;
		qsort(img->const2_ref_store + (n - ck->nconst2_refs), ck->nconst2_refs, sizeof *img->const2_ref_store,
		      compare_ref_offset);
	}
	return 0;
}
