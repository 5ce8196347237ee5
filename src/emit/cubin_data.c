/* The sections of module .global and .const data (issue 15), as ptxas
 * 11.8 writes them: .nv.constant3 (PROGBITS, A), .nv.global.init
 * (PROGBITS, WA: the variables with an initialiser), .nv.global (NOBITS,
 * WA), each as large as its last variable ends and aligned as its most
 * aligned one; and the R_CUDA_G64 (mask(): R_CUDA_G8_<8k>) relocations
 * of address initialisers, in .rel.nv.global.init (no addend) and
 * .rela.nv.global.init, and for .const variables in .rel.nv.constant3 and
 * .rela.nv.constant3. */
#include "emit/cubin_internal.h"

#include "base/xalloc.h"

#include <stdlib.h>

#include <string.h>

bool cubin_var_in(const CubinVar *v, CubinDataSection s)
{
	switch (s) {
	case CUBIN_DATA_CONST3: return v->is_const;
	case CUBIN_DATA_GLOBAL_INIT: return !v->is_const && v->init;
	case CUBIN_DATA_GLOBAL: return !v->is_const && !v->init && !v->common && !v->shared;
	case CUBIN_DATA_SHARED: return v->shared && v->align && !v->kernel_body;
	case CUBIN_DATA_SECTIONS: break;
	}
	return false;
}

void cubin_data_extent(const CubinModule *m, CubinDataSection s, uint64_t *size, uint64_t *align)
{
	*size = 0;
	*align = 0;
	for (size_t i = 0; i < m->nvars; i++) {
		const CubinVar *v = &m->vars[i];
		if (!cubin_var_in(v, s))
			continue;
		if ((uint64_t)v->offset + v->size > *size)
			*size = (uint64_t)v->offset + v->size;
		if (v->align > *align)
			*align = v->align;
	}
}

uint8_t *cubin_data_bytes(const CubinModule *m, CubinDataSection s, uint64_t size)
{
	uint8_t *b = xcalloc(size ? size : 1, 1);
	for (size_t i = 0; i < m->nvars; i++) {
		const CubinVar *v = &m->vars[i];
		if (cubin_var_in(v, s) && v->init)
			memcpy(b + v->offset, v->init, v->size);
	}
	return b;
}

static void put_u64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* one variable's relocations, last offset first */
static int by_offset_down(const void *a, const void *b)
{
	uint64_t x = 0, y = 0;
	for (int i = 7; i >= 0; i--) {
		x = x << 8 | ((const uint8_t *)a)[i];
		y = y << 8 | ((const uint8_t *)b)[i];
	}
	return (x < y) - (x > y);
}

/* The variables of section s (.nv.constant3 or .nv.global.init) whose
 * initialiser relocations have (rela) or lack an addend: as ptxas 11.8
 * lists them, the variables in their order, each one's last word first. */
uint8_t *cubin_init_relocs(const CubinModule *m, CubinDataSection s, const size_t *sym_of_var,
                           const size_t *sym_of_fnaddr, bool rela, size_t *len)
{
	size_t n = 0, ent = rela ? 24 : 16;
	for (size_t i = 0; i < m->nvars; i++)
		for (size_t r = 0; r < m->vars[i].nrelocs && cubin_var_in(&m->vars[i], s); r++)
			n += (m->vars[i].relocs[r].addend != 0) == rela;
	uint8_t *b = xcalloc(n ? n * ent : 1, 1);
	*len = n * ent;
	size_t k = 0;
	for (size_t i = 0; i < m->nvars; i++) {
		if (!cubin_var_in(&m->vars[i], s))
			continue;
		size_t first = k;
		for (size_t r = 0; r < m->vars[i].nrelocs; r++) {
			const CubinInitReloc *x = &m->vars[i].relocs[r];
			if ((x->addend != 0) != rela)
				continue;
			uint8_t *e = b + ent * k++;
			uint32_t type = x->func ? (x->byte ? CUBIN_R_CUDA_8_0 + x->byte - 1u : CUBIN_R_CUDA_32)
			                        : (x->byte ? CUBIN_R_CUDA_G8_0 + x->byte - 1u : CUBIN_R_CUDA_G64);
			put_u64(e, (uint64_t)m->vars[i].offset + x->offset);
			put_u64(e + 8, ((uint64_t)(x->func ? sym_of_fnaddr[x->var] : sym_of_var[x->var]) << 32) | type);
			if (rela)
				put_u64(e + 16, (uint64_t)x->addend);
		}
		qsort(b + ent * first, k - first, ent, by_offset_down);
	}
	return b;
}

size_t cubin_init_reloc_order(const CubinModule *m, int order[4])
{
	size_t n = 0;
	bool seen[4] = { false };
	for (size_t i = m->nvars; i-- > 0;) {
		const CubinVar *v = &m->vars[i];
		bool cst = cubin_var_in(v, CUBIN_DATA_CONST3);
		if (!cst && !cubin_var_in(v, CUBIN_DATA_GLOBAL_INIT))
			continue;
		/* its first word's kind, then the other */
		const CubinInitReloc *lowest = NULL;
		for (size_t r = 0; r < v->nrelocs; r++)
			if (!lowest || v->relocs[r].offset < lowest->offset)
				lowest = &v->relocs[r];
		for (int pass = 0; lowest && pass < 2; pass++)
			for (size_t r = 0; r < v->nrelocs; r++) {
				bool rela = v->relocs[r].addend != 0;
				int q = (cst ? 2 : 0) + rela;
				if ((rela == (lowest->addend != 0)) == (pass == 0) && !seen[q]) {
					seen[q] = true;
					order[n++] = q;
				}
			}
	}
	return n;
}

bool cubin_has_init_relocs(const CubinModule *m, CubinDataSection s, bool rela)
{
	for (size_t i = 0; i < m->nvars; i++)
		for (size_t r = 0; r < m->vars[i].nrelocs && cubin_var_in(&m->vars[i], s); r++)
			if ((m->vars[i].relocs[r].addend != 0) == rela)
				return true;
	return false;
}

bool cubin_has_data(const CubinModule *m, CubinDataSection s)
{
	for (size_t i = 0; i < m->nvars; i++)
		if (cubin_var_in(&m->vars[i], s))
			return true;
	return false;
}
