/* Checks of a cubin module description (see cubin_internal.h): everything
 * cubin_write() relies on is validated here, so the writer itself never
 * meets an out-of-range value. */
#include "emit/cubin_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int cubin_fail(char *err, size_t errlen, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

ptrdiff_t cubin_surfref_index(const CubinModule *m, const char *name)
{
	for (size_t i = 0; i < m->nsurfrefs; i++)
		if (strcmp(m->surfrefs[i], name) == 0)
			return (ptrdiff_t)i;
	return -1;
}

/* Field widths bound the values: .nv.info sizes and offsets are u16, the
 * KPARAM_INFO size field has 14 bits, and constant bank 0 is 64 KiB. */
static int check_params(const CubinKernel *k, char *err, size_t errlen)
{
	if (k->nparams && !k->params)
		return cubin_fail(err, errlen, "kernel %s: params is NULL", k->name);
	if (k->nparams > 0xffff)
		return cubin_fail(err, errlen, "kernel %s: too many parameters", k->name);
	for (size_t i = 0; i < k->nparams; i++) {
		const SassParam *p = &k->params[i];
		if (p->size == 0 || p->size >= (1u << 14) || p->offset > 0xffff)
			return cubin_fail(err, errlen, "kernel %s: parameter %zu has size %u at offset %u",
			            k->name, i, p->size, p->offset);
	}
	if (SASS_PARAM_CBANK_BASE + sass_param_bytes(k->params, k->nparams) > 0xffff)
		return cubin_fail(err, errlen, "kernel %s: parameters exceed constant bank 0", k->name);
	return 0;
}

static int check_slots(const CubinModule *m, const CubinKernel *k, char *err, size_t errlen)
{
	if (k->nslots && !k->slots)
		return cubin_fail(err, errlen, "kernel %s: slots is NULL", k->name);
	uint32_t first = sass_first_slot_offset(k->params, k->nparams);
	for (size_t i = 0; i < k->nslots; i++) {
		const CubinSurfaceSlot *s = &k->slots[i];
		ptrdiff_t h = s->surfref ? cubin_handle_index(k, s->surfref) : -1;
		if (!s->surfref || (h < 0 && cubin_surfref_index(m, s->surfref) < 0))
			return cubin_fail(err, errlen, "kernel %s: slot %zu names an undeclared surfref",
			            k->name, i);
		ptrdiff_t smp = s->sampler ? cubin_handle_index(k, s->sampler) : -1;
		if (s->sampler && (h < 0 || k->handle_params[h].space != CUBIN_HANDLE_TEXREF || smp < 0 ||
		                   k->handle_params[smp].space != CUBIN_HANDLE_SAMPLERREF))
			return cubin_fail(err, errlen, "kernel %s: slot %zu pairs %s with %s, not a texture and "
			                  "sampler parameter", k->name, i, s->surfref, s->sampler);
		if (s->cbank_offset % 4 || s->cbank_offset < first || s->cbank_offset > 0xfffc)
			return cubin_fail(err, errlen, "kernel %s: surface slot for %s at bad offset 0x%x",
			            k->name, s->surfref, s->cbank_offset);
		for (size_t j = 0; j < i; j++) {
			if (k->slots[j].cbank_offset == s->cbank_offset)
				return cubin_fail(err, errlen, "kernel %s: two surface slots at 0x%x",
				            k->name, s->cbank_offset);
			const char *sj = k->slots[j].sampler;
			if (strcmp(k->slots[j].surfref, s->surfref) == 0 &&
			    (sj == s->sampler || (sj && s->sampler && strcmp(sj, s->sampler) == 0)))
				return cubin_fail(err, errlen, "kernel %s: surfref %s has two slots",
				            k->name, s->surfref);
		}
	}
	return 0;
}

/* Instruction offsets listed in .nv.info: 8-aligned, not a control word,
 * and few enough for the u16 record size. */
static int check_offsets(const CubinKernel *k, const uint32_t *offsets, size_t n,
                         const char *what, char *err, size_t errlen)
{
	if (n && !offsets)
		return cubin_fail(err, errlen, "kernel %s: %s offsets are NULL", k->name, what);
	if (n > 0xffff / 4)
		return cubin_fail(err, errlen, "kernel %s: too many %s offsets", k->name, what);
	for (size_t i = 0; i < n; i++)
		if (offsets[i] >= k->code_size || offsets[i] % 8 || offsets[i] % 32 == 0)
			return cubin_fail(err, errlen, "kernel %s: %s offset 0x%x is not an instruction",
			            k->name, what, offsets[i]);
	return 0;
}

static int check_kernel(const CubinModule *m, size_t ki, char *err, size_t errlen)
{
	const CubinKernel *k = &m->kernels[ki];
	if (!k->name || !k->name[0])
		return cubin_fail(err, errlen, "kernel %zu has no name", ki);
	for (size_t j = 0; j < ki; j++)
		if (strcmp(m->kernels[j].name, k->name) == 0)
			return cubin_fail(err, errlen, "kernel %s defined twice", k->name);
	if (cubin_surfref_index(m, k->name) >= 0)
		return cubin_fail(err, errlen, "kernel %s has the name of a surfref", k->name);
	/* nvdisasm reads .text in 32-byte groups: a control word and 3 instructions. */
	if (!k->code || k->code_size == 0 || k->code_size % 32 || k->code_size > UINT32_MAX)
		return cubin_fail(err, errlen, "kernel %s: code size %zu is not a nonzero multiple of 32",
		            k->name, k->code_size);
	if (k->regcount > 255)
		return cubin_fail(err, errlen, "kernel %s: register count %u exceeds 255",
		            k->name, k->regcount);
	if (check_params(k, err, errlen) || check_slots(m, k, err, errlen))
		return -1;
	if (check_offsets(k, k->exit_offsets, k->nexit_offsets, "exit", err, errlen) ||
	    check_offsets(k, k->ctaid_offsets, k->nctaid_offsets, "S2R SR_CTAID", err, errlen))
		return -1;
	if ((k->ndesc_fields && !k->desc_fields) || k->ndesc_fields > 0x4000)
		return cubin_fail(err, errlen, "kernel %s: bad .nv.constant2 word list", k->name);
	if (k->nconst2_refs && (!m->relocatable || !k->const2_refs))
		return cubin_fail(err, errlen, "kernel %s: pool operand relocations outside a relocatable object", k->name);
	for (size_t i = 0; i < k->nconst2_refs; i++) {
		const CubinConst2Ref *r = &k->const2_refs[i];
		if ((r->table ? r->size == 0 || r->size % 4 : r->size != 4 && r->size != 8) || r->pool_offset % 4 || r->offset % 8 || r->offset >= k->code_size ||
		    r->pool_offset / 4 + r->size / 4 > k->ndesc_fields)
			return cubin_fail(err, errlen, "kernel %s: pool operand %zu outside .nv.constant2 or .text", k->name, i);
	}
	if (k->nbindless_refs && (!m->relocatable || !k->bindless_refs))
		return cubin_fail(err, errlen, "kernel %s: bound handle relocations outside a relocatable object", k->name);
	for (size_t i = 0; i < k->nbindless_refs; i++) {
		const CubinBindlessRef *r = &k->bindless_refs[i];
		if (!r->surfref || cubin_surfref_index(m, r->surfref) < 0 || r->offset % 8 || r->offset % 32 == 0 ||
		    r->offset >= k->code_size)
			return cubin_fail(err, errlen, "kernel %s: bound handle relocation %zu names no surfref or "
			                  "no instruction", k->name, i);
	}
	if (k->nconst_var_refs && (!m->relocatable || !k->const_var_refs))
		return cubin_fail(err, errlen, "kernel %s: .const operand relocations outside a relocatable object", k->name);
	for (size_t i = 0; i < k->nconst_var_refs; i++) {
		const CubinConstVarRef *r = &k->const_var_refs[i];
		const CubinVar *v = r->var < m->nvars ? &m->vars[r->var] : NULL;
		/* a .shared address may point past its variable (ptxas takes it) */
		if (v == NULL || (r->shared ? !v->shared : !v->is_const || r->addend >= v->size) ||
		    r->offset % 8 || r->offset % 32 == 0 || r->offset >= k->code_size)
			return cubin_fail(err, errlen, "kernel %s: .const or .shared operand relocation %zu names no "
			                  "such variable or no instruction", k->name, i);
	}
	if (check_offsets(k, k->desc_size_offsets, k->ndesc_size_offsets, "descriptor size",
	                  err, errlen))
		return -1;
	if (k->ndesc_size_offsets && !k->desc_size_kinds)
		return cubin_fail(err, errlen, "kernel %s: descriptor-size relocations without their kinds", k->name);
	for (size_t i = 0; i < k->ndesc_size_offsets; i++)
		if (k->desc_size_kinds[i] >= CUBIN_DESC_KINDS)
			return cubin_fail(err, errlen, "kernel %s: bad descriptor kind %u", k->name, k->desc_size_kinds[i]);
	if (k->ndesc_size_symbols > CUBIN_DESC_KINDS)
		return cubin_fail(err, errlen, "kernel %s: %zu descriptor-size symbols", k->name, k->ndesc_size_symbols);
	for (size_t i = 0; i < k->ndesc_size_symbols; i++)
		if (k->desc_size_symbols[i] >= CUBIN_DESC_KINDS)
			return cubin_fail(err, errlen, "kernel %s: bad descriptor kind %u", k->name, k->desc_size_symbols[i]);
	if (k->nsync_target_words && !k->sync_targets)
		return cubin_fail(err, errlen, "kernel %s: bad SYNC target list", k->name);
	/* entries {offset, 0, n, n targets}, each within one record */
	for (size_t i = 0; i < k->nsync_target_words; i += 3 + k->sync_targets[i + 2])
		if (i + 3 > k->nsync_target_words || k->sync_targets[i + 2] > CUBIN_INFO_MAX_WORDS - 3 ||
		    i + 3 + k->sync_targets[i + 2] > k->nsync_target_words)
			return cubin_fail(err, errlen, "kernel %s: bad SYNC target list", k->name);
	/* the other lists are one record each */
	if (k->nexit_offsets > CUBIN_INFO_MAX_WORDS || k->nctaid_offsets > CUBIN_INFO_MAX_WORDS)
		return cubin_fail(err, errlen, "kernel %s: more than %d EXIT or S2R SR_CTAID instructions", k->name,
		                  CUBIN_INFO_MAX_WORDS);
	if (k->maxreg_count > 255)
		return cubin_fail(err, errlen, "kernel %s: .maxnreg %u exceeds 255", k->name, k->maxreg_count);
	return 0;
}

/* Module variables: names, alignments, relocation targets (issue 15). */
static int check_vars(const CubinModule *m, char *err, size_t errlen)
{
	if (m->nvars && !m->vars)
		return cubin_fail(err, errlen, "variable array is NULL");
	for (size_t i = 0; i < m->nvars; i++) {
		if (m->vars[i].shared && !m->relocatable)
			return cubin_fail(err, errlen, ".shared variable %s outside a relocatable object", m->vars[i].name);
		const CubinVar *v = &m->vars[i];
		if (!v->name || !v->name[0])
			return cubin_fail(err, errlen, "variable %zu has no name", i);
		/* a .shared one packed by size (-c), or dynamic (align 0) */
		if ((v->align == 0 && !v->shared) || (v->align & (v->align - 1)) ||
		    (!v->shared && v->offset % v->align))
			return cubin_fail(err, errlen, "variable %s: bad alignment", v->name);
		for (size_t r = 0; r < v->nrelocs; r++)
			/* a 32-bit module's address words are 4 bytes (still R_CUDA_G64); a
			 * mask() one is 1 byte, of at most 8 */
			if (v->relocs[r].var >= (v->relocs[r].func ? m->nfunc_addrs : m->nvars) ||
			    v->relocs[r].byte > 8 ||
			    (uint64_t)v->relocs[r].offset + (v->relocs[r].byte ? 1 : m->address64 ? 8 : 4) > v->size)
				return cubin_fail(err, errlen, "variable %s: bad initialiser relocation", v->name);
	}
	for (size_t k = 0; k < m->nkernels; k++)
		for (size_t f = 0; f < m->kernels[k].ndata_fixups; f++)
			if (m->kernels[k].data_fixups[f].extern_entry
			    ? m->kernels[k].data_fixups[f].var >= m->nexterns || !m->extern_is_entry ||
			      !m->extern_is_entry[m->kernels[k].data_fixups[f].var]
			    : m->kernels[k].data_fixups[f].fnaddr ? m->kernels[k].data_fixups[f].var >= m->nfunc_addrs
			    : m->kernels[k].data_fixups[f].func ? m->kernels[k].data_fixups[f].var >= m->nkernels
			    : m->kernels[k].data_fixups[f].var >= m->nvars ||
			      m->vars[m->kernels[k].data_fixups[f].var].shared ||
			      (m->vars[m->kernels[k].data_fixups[f].var].is_const && !m->relocatable))
				return cubin_fail(err, errlen, "kernel %s: bad data relocation", m->kernels[k].name);
	return 0;
}

int cubin_check_module(const CubinModule *m, char *err, size_t errlen)
{
	if (m->sm != 50 && m->sm != 52 && m->sm != 53)
		return cubin_fail(err, errlen, "sm_%d is not a Maxwell target", m->sm);
	if (m->ptx_target_sm < 0 || m->ptx_target_sm > 255)
		return cubin_fail(err, errlen, "bad PTX target sm_%d", m->ptx_target_sm);
	if ((m->nkernels && !m->kernels) || (m->nsurfrefs && !m->surfrefs))
		return cubin_fail(err, errlen, "kernel or surfref array is NULL");
	/* At most 6 + 6 sections per kernel; indices must stay below
	 * SHN_LORESERVE (0xff00) as ptxas writes no extended numbering. */
	if (m->nkernels > (0xff00 - 6) / 6)
		return cubin_fail(err, errlen, "%zu kernels do not fit in one cubin", m->nkernels);
	for (size_t i = 0; i < m->nsurfrefs; i++) {
		if (!m->surfrefs[i] || !m->surfrefs[i][0])
			return cubin_fail(err, errlen, "surfref %zu has no name", i);
		if (cubin_surfref_index(m, m->surfrefs[i]) != (ptrdiff_t)i)
			return cubin_fail(err, errlen, "surfref %s declared twice", m->surfrefs[i]);
	}
	for (size_t i = 0; i < m->nkernels; i++)
		if (check_kernel(m, i, err, errlen))
			return -1;
	if (m->nprotos && !m->protos)
		return cubin_fail(err, errlen, "prototype array is NULL");
	for (size_t i = 0; i < m->nprotos; i++)
		if (!m->protos[i].name)
			return cubin_fail(err, errlen, "prototype %zu has no name", i);
	/* -c: .nv.prototype and .nv.callgraph name each function's signature */
	const char *const *lists[2] = { m->externs, m->func_addrs };
	size_t counts[2] = { m->nexterns, m->nfunc_addrs };
	for (int l = 0; l < 2 && m->relocatable; l++)
		for (size_t i = 0; i < counts[l]; i++) {
			ptrdiff_t p = cubin_proto_index(m, lists[l][i]);
			if ((p < 0 || !m->protos[p].sig) && cubin_has_prototype(m, lists[l][i]))
				return cubin_fail(err, errlen, "function %s has no prototype", lists[l][i]);
		}
	return check_vars(m, err, errlen);
}
