/* The back-end driver: lower -> allocate -> schedule -> verify -> encode,
 * then lay each kernel out in 32-byte groups (control word + 3
 * instructions), add ptxas's tail (EXIT, BRA to itself, NOPs up to a
 * multiple of 64 bytes) and write a cubin or the raw stream. */
#include "driver/assemble.h"

#include "driver/job_pool.h"

#include "emit/cubin.h"
#include "lower/kernel_code.h"
#include "lower/lower.h"
#include "lower/regalloc.h"
#include "sm50/sass_ctrl.h"
#include "sm50/sass_disasm.h"
#include "lower/sched.h"
#include "sm50/sched_verify.h"
#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The encoder, lister or cubin writer failed on code the lowering made:
 * for the user, a construct the sm_50 back end does not assemble. */
static void internal_error(DiagSink *sink, const LKernel *k, const char *what, const char *msg)
{
	diag_add(sink, SEV_ERROR, k->loc, RULE_ENCODER_UNSUPPORTED, "kernel '%s': %s: %s", k->name, what, msg);
}

/* ptxas starts every kernel by loading the stack pointer, and makes room
 * for the stack frame below it. */
static void prepend_stack_init(LKernel *k)
{
	/* append, then rotate it to the front and move the labels along */
	LInsn *mov = lkernel_append(k, SF_MOV_C, k->loc);
	linsn_set(mov, SR_RD, REGALLOC_STACK_REG);
	linsn_set(mov, SR_CBANK, 0);
	linsn_set(mov, SR_COFF, 0x20 / 4);
	mov->stack_reg = LSTACK_WRITE;
	LInsn first = *mov;
	memmove(k->insns + 1, k->insns, (k->ninsns - 1) * sizeof *k->insns);
	k->insns[0] = first;
	for (size_t l = 0; l < k->nlabels; l++)
		k->label_pos[l]++;
	/* the stack frame of the .local variables: R1 -= frame size */
	if (k->frame_size)
		lkernel_frame_adjust(k);
}

/* --verify-sched: the finished code, with each instruction's PTX location. */
static int verify_code(const LKernel *k, const KernelCode *kc, DiagSink *sink)
{
	SrcLoc *locs = xcalloc(k->ninsns + 1, sizeof *locs);
	for (size_t i = 0; i < k->ninsns; i++)
		locs[i] = k->insns[i].loc;
	SchedVerifyKernel v = { .name = k->name, .loc = k->loc, .code = kc->code, .size = kc->size,
	                        .insn_locs = locs, .nlocs = k->ninsns };
	unsigned n = sched_verify_code(&v, sink);
	free(locs);
	return n ? -1 : 0;
}

static int encode_kernel(LKernel *k, DiagSink *sink, KernelCode *out)
{
	char err[256];
	memset(out, 0, sizeof *out);
	if (!k->abi_func)     /* fnaddr: a function of its own runs on its caller's stack */
		prepend_stack_init(k);
	int rc = regalloc_kernel(k, err, sizeof err);
	if (rc == REGALLOC_OVER_LIMIT) {     /* pointed at the directive that sets the limit */
		diag_add(sink, SEV_ERROR, k->maxreg_loc, RULE_ENCODER_UNSUPPORTED, "%s", err);
		return -1;
	}
	if (rc != 0) {
		diag_add(sink, SEV_ERROR, k->loc, RULE_ENCODER_UNSUPPORTED, "not supported by the sm_50 encoder: %s", err);
		return -1;
	}
	lkernel_compact_const2(k);
	if (k->abi_func)      /* its stack arguments: above the frames its prologue made */
		lkernel_incoming_offsets(k);
	for (size_t i = 0; i < k->ninsns; i++)
		linsn_fill_defaults(&k->insns[i]);
	SassCtrl *ctrl;
	sched_kernel(k, &ctrl);

	rc = kernel_code_build(k, ctrl, out, err, sizeof err);
	if (rc != 0)
		internal_error(sink, k, "encoding", err);
	free(ctrl);
	return rc;
}

/* Each kernel is listed from address 0, as in its cubin section. */
static int write_listing(const LModule *lm, const KernelCode *codes, DiagSink *sink, char **listing)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (f == NULL)
		xdie("out of memory");
	int rc = 0;
	for (size_t i = 0; i < lm->nkernels && rc == 0; i++) {
		char err[256];
		fprintf(f, "\n\t\tFunction : %s\n", lm->kernels[i].name);
		rc = sass_disasm_stream(codes[i].code, codes[i].size, 0, f, err, sizeof err);
		if (rc != 0)
			internal_error(sink, &lm->kernels[i], "listing", err);
	}
	fclose(f);
	if (rc != 0) {
		free(buf);
		return -1;
	}
	*listing = buf;
	return 0;
}

/* The module variables as the cubin writer takes them (issue 15); under
 * -c the module .shared ones follow (packed by size in .nv_debug.shared,
 * as ptxas -c writes it): shared_at[i] is the index of lm->shared[i]. */
static CubinVar *cubin_vars_of(const LModule *lm, uint32_t *shared_at, size_t *nvars)
{
	CubinVar *vars = xcalloc(lm->nvars + lm->nshared + 1, sizeof *vars);
	*nvars = lm->nvars;
	uint32_t packed = 0, step = (uint32_t)lm->nshared + 1;
	for (size_t i = 0; i < lm->nshared; i++) {
		const LModShared *v = &lm->shared[i];
		if (v->body)    /* a function body's: laid out in each kernel */
			continue;
		shared_at[i] = (uint32_t)*nvars;
		/* declared among the .global/.const ones (a kernel body's: with its kernel) */
		vars[(*nvars)++] = (CubinVar){ .name = v->name, .shared = true, .global = v->align == 0,
		                               .kernel_body = v->kernel >= 0 ? (uint32_t)v->kernel + 1 : 0,
		                               .decl = v->before_var * step + (uint32_t)i,
		                               .offset = v->kernel >= 0 ? 0 : packed, .size = v->size, .align = v->align };
		if (v->kernel < 0)
			packed += v->size;
	}
	for (size_t i = 0; i < lm->nvars; i++) {
		const LDataVar *v = &lm->vars[i];
		CubinInitReloc *r = xcalloc(v->nrelocs + 1, sizeof *r);
		for (size_t j = 0; j < v->nrelocs; j++)
			r[j] = (CubinInitReloc){ v->relocs[j].offset, v->relocs[j].var, v->relocs[j].addend,
			                         v->relocs[j].func, v->relocs[j].byte };
		/* ptxas names a .common variable with the .visible ones */
		vars[i] = (CubinVar){ .name = v->name, .is_const = v->space == LDATA_CONST,
		                      .visible = v->visible || v->common,
		                      .global = v->bind == LBIND_GLOBAL,
		                      .weak = v->bind == LBIND_WEAK,
		                      .common = lm->relocatable && v->common && !v->init,
		                      .offset = v->offset, .size = v->size, .align = v->align, .init = v->init,
		                      .relocs = r, .nrelocs = v->nrelocs,
		                      .decl = (uint32_t)i * ((uint32_t)lm->nshared + 1) + (uint32_t)lm->nshared };
	}
	return vars;
}

static void cubin_vars_free(CubinVar *vars, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free((void *)vars[i].relocs);
	free(vars);
}

/* -c: the pool operands and the brx.idx jump-table reads of k's code
 * (n of them), in code order: a table read's bytes are its table's. */
static CubinConst2Ref *pool_operands(const LKernel *k, const SassCodeFacts *f, size_t n)
{
	CubinConst2Ref *refs = xcalloc(n + 1, sizeof *refs);
	size_t a = 0, t = 0;
	for (size_t r = 0; r < n; r++) {
		bool table = t < f->ntable_reads && (a == f->nconst2_reads || f->table_reads[t].addr < f->const2_reads[a].addr);
		if (!table) {
			refs[r] = (CubinConst2Ref){ f->const2_reads[a].addr, f->const2_reads[a].offset, f->const2_reads[a].size,
			                            false };
			a++;
			continue;
		}
		uint32_t at = (uint32_t)((int32_t)f->table_reads[t].offset + SASS_BRX_TABLE_BIAS), bytes = 4;
		for (size_t b = 0; b < k->nbrx; b++)
			if (4 * k->brx[b].word == at)
				bytes = 4 * k->brx[b].n;
		refs[r] = (CubinConst2Ref){ f->table_reads[t].addr, at, bytes, .table = true };
		t++;
	}
	return refs;
}

typedef struct ExternList {
	const char **names;
	bool *is_entry;
	size_t n;
} ExternList;

/* The index of name in the -c externals (lm's external functions, then the
 * kernels whose address is taken but which the module does not define),
 * added as an undefined kernel when missing. */
static uint32_t extern_entry_index(ExternList *x, const char *name)
{
	size_t e = 0;
	while (e < x->n && strcmp(x->names[e], name) != 0)
		e++;
	if (e == x->n) {
		x->names = xrealloc(x->names, (x->n + 1) * sizeof *x->names);
		x->is_entry = xrealloc(x->is_entry, (x->n + 1) * sizeof *x->is_entry);
		x->names[x->n] = name;
		x->is_entry[x->n++] = true;
	}
	return (uint32_t)e;
}

/* The index of the kernel named `name` (nkernels: none). */
static uint32_t kernel_index(const LModule *lm, const char *name)
{
	size_t i = 0;
	while (i < lm->nkernels && strcmp(lm->kernels[i].name, name) != 0)
		i++;
	return (uint32_t)i;
}

_Static_assert((int)LPARAM_TEXREF == (int)CUBIN_HANDLE_TEXREF && (int)LPARAM_SAMPLERREF == (int)CUBIN_HANDLE_SAMPLERREF &&
               (int)LPARAM_SURFREF == (int)CUBIN_HANDLE_SURFREF, "handle parameter spaces");
_Static_assert((int)LDESC_SURFACE == (int)CUBIN_DESC_SURFACE && (int)LDESC_TEXTURE == (int)CUBIN_DESC_TEXTURE &&
               (int)LDESC_KINDS == (int)CUBIN_DESC_KINDS, "descriptor kinds");

/* Whether slot s of k holds a bound module .texref/.surfref (not a handle
 * parameter, nor a texture paired with a sampler). */
static bool slot_is_bound(const LKernel *k, size_t s)
{
	if (k->slot_samplers[s])
		return false;
	for (size_t h = 0; h < k->nhandle_params; h++)
		if (strcmp(k->handle_params[h].name, k->slot_surfrefs[s]) == 0)
			return false;
	return true;
}

/* -c (as ptxas -c): a bound handle has no c[0x0] slot; each instruction
 * naming one is relocated (its field 0 in code) and the kernel's slots
 * keep the others. Returns the relocations, *nrefs of them. */
static CubinBindlessRef *bindless_refs(const LKernel *k, const KernelCode *kc, uint8_t *code,
                                       CubinSurfaceSlot *slots, size_t *nslots, size_t *nrefs)
{
	CubinBindlessRef *refs = xcalloc(kc->nhandle_reads + 1, sizeof *refs);
	*nrefs = 0;
	for (size_t i = 0; i < kc->nhandle_reads; i++) {
		const KernelHandleRead *r = &kc->handle_reads[i];
		if (!slot_is_bound(k, r->slot))
			continue;
		sass_code_unbind(code, r->offset, r->operand ? SR_COFF : SR_SUIDX);
		refs[(*nrefs)++] = (CubinBindlessRef){ r->offset, k->slot_surfrefs[r->slot], r->operand,
		                                       k->first_slot_offset };
	}
	/* the kept slots first, the bound ones after them */
	CubinSurfaceSlot *bound = xmalloc((k->nslots + 1) * sizeof *bound);
	size_t n = 0, nbound = 0;
	for (size_t s = 0; s < k->nslots; s++) {
		if (slot_is_bound(k, s))
			bound[nbound++] = slots[s];
		else
			slots[n++] = slots[s];
	}
	memcpy(slots + n, bound, nbound * sizeof *bound);
	free(bound);
	*nslots = n;
	return refs;
}

/* -c (as ptxas -c): each operand of a .const variable is relocated
 * against it (its c[0x3] operand 0 in code). Returns the relocations,
 * *nrefs of them. */
static CubinConstVarRef *const_var_refs(const LModule *lm, const SassCodeFacts *facts, uint8_t *code,
                                        size_t *nrefs)
{
	CubinConstVarRef *refs = xcalloc(facts->nconst3_reads + 1, sizeof *refs);
	*nrefs = 0;
	for (size_t i = 0; i < facts->nconst3_reads; i++) {
		const SassConst3Read *r = &facts->const3_reads[i];
		size_t v = 0;
		while (v < lm->nvars && !(lm->vars[v].space == LDATA_CONST && r->offset >= lm->vars[v].offset &&
		                          r->offset - lm->vars[v].offset < lm->vars[v].size))
			v++;
		if (v == lm->nvars)   /* a literal address past the variables */
			continue;
		sass_code_unbind(code, r->addr, SR_COFF);
		refs[(*nrefs)++] = (CubinConstVarRef){ r->addr, (uint32_t)v, r->offset - lm->vars[v].offset, r->ldc, false };
	}
	return refs;
}

/* -c: the .const operands and the module .shared addresses of a kernel
 * (KernelCode.shared_refs, their immediates zeroed in code) as the
 * writer's relocations against vars, in code order. */
static CubinConstVarRef *var_refs_with_shared(const KernelCode *kc, const uint32_t *shared_at, uint8_t *code,
                                              CubinConstVarRef *consts, size_t *nrefs)
{
	CubinConstVarRef *refs = xcalloc(*nrefs + kc->nshared_refs + 1, sizeof *refs);
	size_t n = 0, c = 0;
	for (size_t s = 0; s <= kc->nshared_refs; s++) {
		uint32_t at = s < kc->nshared_refs ? kc->shared_refs[s].offset : UINT32_MAX;
		while (c < *nrefs && consts[c].offset < at)
			refs[n++] = consts[c++];
		if (s == kc->nshared_refs)
			break;
		sass_code_unbind(code, at, SR_IMM);
		refs[n++] = (CubinConstVarRef){ at, shared_at[kc->shared_refs[s].var], (uint32_t)kc->shared_refs[s].addend,
		                                .shared = true };
	}
	free(consts);
	*nrefs = n;
	return refs;
}

/* -c: kernel i's .nv.shared.<k> with its body's .shared variables, which
 * the linker places (ptxas -c: the sum of their sizes, aligned as the
 * most aligned of them and of the module's). */
static void kernel_body_shared(const CubinVar *vars, size_t nvars, size_t i, uint32_t *size, uint32_t *align)
{
	uint32_t module_align = 0, body_align = 0, body = 0;
	for (size_t v = 0; v < nvars; v++) {
		if (!vars[v].shared)
			continue;
		if (!vars[v].kernel_body && vars[v].align > module_align)
			module_align = vars[v].align;
		if (vars[v].kernel_body == i + 1) {
			body += vars[v].size;
			body_align = vars[v].align > body_align ? vars[v].align : body_align;
		}
	}
	if (!body_align)
		return;
	*size += body;
	*align = *align > body_align ? *align : body_align;
	*align = *align > module_align ? *align : module_align;
}

/* The CRS stack: 16 bytes per call level, 0x20 per nested SSY region, at
 * least SASS_CRS_LOOP_BYTES when a loop reconverges, and at least
 * SASS_CRS_DIVERGENT_CALL_BYTES (and 0x10 per region) when some threads of
 * a warp may call a function not linked in. */
static uint32_t crs_bytes(const LKernel *k)
{
	uint32_t n = SASS_CRS_CALL_BYTES * k->call_depth + SASS_CRS_SSY_BYTES * k->crs_nesting;
	uint32_t divergent_call = SASS_CRS_DIVERGENT_CALL_BYTES + SASS_CRS_DIVERGENT_CALL_SSY_BYTES * k->crs_nesting;
	if (k->crs_divergent_jcal && n < divergent_call)
		n = divergent_call;
	return k->crs_loop && n < SASS_CRS_LOOP_BYTES ? SASS_CRS_LOOP_BYTES : n;
}

static int write_cubin(const LModule *lm, const KernelCode *codes, DiagSink *sink, uint8_t **image,
                       size_t *len)
{
	CubinKernel *ks = xcalloc(lm->nkernels + 1, sizeof *ks);
	CubinSurfaceSlot **slots = xcalloc(lm->nkernels + 1, sizeof *slots);
	CubinHandleParam **handles = xcalloc(lm->nkernels + 1, sizeof *handles);
	CubinDataFixup **fixups = xcalloc(lm->nkernels + 1, sizeof *fixups);
	CubinDataFixup **calls = xcalloc(lm->nkernels + 1, sizeof *calls);
	CubinConst2Ref **pool_refs = xcalloc(lm->nkernels + 1, sizeof *pool_refs);
	uint8_t **unbound = xcalloc(lm->nkernels + 1, sizeof *unbound);
	CubinBindlessRef **bindless = xcalloc(lm->nkernels + 1, sizeof *bindless);
	CubinConstVarRef **const_vars = xcalloc(lm->nkernels + 1, sizeof *const_vars);
	uint32_t *shared_at = xcalloc(lm->nshared + 1, sizeof *shared_at);
	size_t nvars;
	CubinVar *vars = cubin_vars_of(lm, shared_at, &nvars);
	ExternList ext = { xcalloc(lm->nexterns + 1, sizeof *ext.names), xcalloc(lm->nexterns + 1, sizeof *ext.is_entry),
	                   lm->nexterns };
	for (size_t e = 0; e < lm->nexterns; e++)
		ext.names[e] = lm->externs[e];
	for (size_t i = 0; i < lm->nkernels; i++) {
		const LKernel *k = &lm->kernels[i];
		fixups[i] = xcalloc(codes[i].ndata_fixups + 1, sizeof **fixups);
		for (size_t f = 0; f < codes[i].ndata_fixups; f++)
			fixups[i][f] = (CubinDataFixup){ codes[i].data_fixups[f].offset, codes[i].data_fixups[f].var,
			                                 codes[i].data_fixups[f].hi, codes[i].data_fixups[f].func,
			                                 codes[i].data_fixups[f].abs32, codes[i].data_fixups[f].fnaddr, false, 0 };
		for (size_t f = 0; f < codes[i].ndata_fixups; f++)
			if (fixups[i][f].func) {    /* fnptr: the kernel named, by its index */
				const char *name = lm->kernel_addrs[fixups[i][f].var];
				fixups[i][f].var = kernel_index(lm, name);
				if (fixups[i][f].var == lm->nkernels) {   /* -c: an .extern .entry */
					fixups[i][f].func = false;
					fixups[i][f].extern_entry = true;
					fixups[i][f].var = extern_entry_index(&ext, name);
				}
			}
		calls[i] = xcalloc(codes[i].nextern_calls + 1, sizeof **calls);
		for (size_t f = 0; f < codes[i].nextern_calls; f++)
			calls[i][f] = (CubinDataFixup){ codes[i].extern_calls[f].offset, codes[i].extern_calls[f].var, false, false,
			                                false, false, false, 0 };
		slots[i] = xcalloc(k->nslots + 1, sizeof **slots);
		for (size_t s = 0; s < k->nslots; s++)
			slots[i][s] = (CubinSurfaceSlot){ k->slot_surfrefs[s], k->first_slot_offset + 4 * (uint32_t)s,
			                                  k->slot_samplers[s],
			                                  k->slot_first_use ? k->slot_first_use[s] : (uint32_t)s };
		/* -c: the pool operands become relocations over c[0x0][0x0], the
		 * bound handles' slots relocations of their instructions */
		const SassCodeFacts *facts = &codes[i].facts;
		size_t npool = lm->relocatable ? facts->nconst2_reads + facts->ntable_reads : 0;
		pool_refs[i] = pool_operands(k, facts, npool);
		if (lm->relocatable) {
			unbound[i] = xmalloc(codes[i].size);
			memcpy(unbound[i], codes[i].code, codes[i].size);
			sass_code_unbind_const2(unbound[i], facts);
		}
		size_t nslots = k->nslots, nbindless = 0, nconst_vars = 0;
		const_vars[i] = lm->relocatable ? const_var_refs(lm, facts, unbound[i], &nconst_vars) : NULL;
		if (lm->relocatable)
			const_vars[i] = var_refs_with_shared(&codes[i], shared_at, unbound[i], const_vars[i], &nconst_vars);
		bindless[i] = lm->relocatable ? bindless_refs(k, &codes[i], unbound[i], slots[i], &nslots, &nbindless)
		                              : NULL;
		handles[i] = xcalloc(k->nhandle_params + 1, sizeof **handles);
		for (size_t h = 0; h < k->nhandle_params; h++)   /* LPARAM_* are the CUBIN_HANDLE_* spaces */
			handles[i][h] = (CubinHandleParam){ k->handle_params[h].name, k->handle_params[h].ordinal,
			                                    k->handle_params[h].space };
		ks[i] = (CubinKernel){
			.name = k->name, .local_symbol = k->local_symbol, .weak_symbol = k->weak_symbol,
			.source_line = (uint32_t)k->loc.first_line,
			.code = unbound[i] ? unbound[i] : codes[i].code, .code_size = codes[i].size, .regcount = k->regcount,
			.params = k->params, .nparams = k->nparams, .slots = slots[i], .nslots = nslots,
			.handle_params = handles[i], .nhandle_params = k->nhandle_params,
			.exit_offsets = codes[i].facts.exits, .nexit_offsets = codes[i].facts.nexits,
			.sync_targets = codes[i].sync_targets, .nsync_target_words = codes[i].nsync_target_words,
			.uses_surfaces = k->uses_surfaces, .uses_textures = k->uses_textures,
			.ctaid_offsets = codes[i].facts.ctaids, .nctaid_offsets = codes[i].facts.nctaids,
			.uses_ctaid_z = k->uses_ctaid_z, .explicit_caching = k->explicit_caching,
			.shared_size = k->shared_size, .shared_align = k->shared_align, .frame_size = k->frame_size,
			/* recursion: the depth is unknown; ptxas 11.8 then records a
			 * 0x600-byte CRS stack and an unknown (all ones) stack size */
			.crs_stack_size = k->recursive ? SASS_CRS_RECURSIVE_BYTES : crs_bytes(k),
			.stack_unknown = k->recursive,
			.shared_strings = (const char *const *)k->shared_strings, .nshared_strings = k->nshared_strings,
			.maxreg_count = k->maxreg_count,
			.desc_fields = k->desc_fields, .ndesc_fields = k->ndesc_fields,
			.ndesc_size_symbols = k->ndesc_size_symbols,   /* LDESC_* are the CubinDescKind values */
			.desc_size_offsets = codes[i].desc_relocs, .desc_size_kinds = codes[i].desc_reloc_kinds,
			.ndesc_size_offsets = codes[i].ndesc_relocs,
			.data_fixups = fixups[i], .ndata_fixups = codes[i].ndata_fixups,
			.extern_calls = calls[i], .nextern_calls = codes[i].nextern_calls,
			.const2_refs = pool_refs[i], .nconst2_refs = npool,
			.bindless_refs = bindless[i], .nbindless_refs = nbindless,
			.const_var_refs = const_vars[i], .nconst_var_refs = nconst_vars,
			.bound_slots = slots[i] + nslots, .nbound_slots = k->nslots - nslots,
			.abi_func = k->abi_func,
		};
		if (lm->relocatable)
			kernel_body_shared(vars, nvars, i, &ks[i].shared_size, &ks[i].shared_align);
		memcpy(ks[i].desc_size_symbols, k->desc_size_symbols, sizeof ks[i].desc_size_symbols);
		memcpy(ks[i].max_threads, k->max_threads, sizeof k->max_threads);
		memcpy(ks[i].req_ntid, k->req_ntid, sizeof k->req_ntid);
	}
	CubinFuncProto *protos = xcalloc(lm->nprotos + 1, sizeof *protos);
	for (size_t i = 0; i < lm->nprotos; i++)
		protos[i] = (CubinFuncProto){ lm->protos[i].name, lm->protos[i].sig };
	CubinModule cm = {
		.sm = 50, .ptx_target_sm = lm->target_sm, .address64 = lm->address64,
		.texmode_independent = lm->texmode_independent, .kernels = ks, .nkernels = lm->nkernels,
		.surfrefs = lm->surfrefs, .surfref_is_texture = lm->surfref_is_texture, .nsurfrefs = lm->nsurfrefs,
		.vars = vars, .nvars = nvars,
		.relocatable = lm->relocatable, .externs = ext.names, .nexterns = ext.n, .extern_is_entry = ext.is_entry,
		.func_addrs = lm->func_addrs, .nfunc_addrs = lm->nfunc_addrs, .protos = protos, .nprotos = lm->nprotos,
	};
	char err[256];
	int rc = cubin_write(&cm, image, len, err, sizeof err);
	if (rc != 0) {
		SrcLoc none = { 0, 0, 0, 0 };
		diag_add(sink, SEV_ERROR, none, RULE_ENCODER_UNSUPPORTED, "cubin writer: %s", err);
	}
	for (size_t i = 0; i < lm->nkernels; i++) {
		free(slots[i]);
		free(handles[i]);
		free(fixups[i]);
		free(calls[i]);
		free(pool_refs[i]);
		free(unbound[i]);
		free(bindless[i]);
		free(const_vars[i]);
	}
	free(pool_refs);
	free(unbound);
	free(bindless);
	free(const_vars);
	free(slots);
	free(handles);
	free(fixups);
	free(calls);
	free(protos);
	free(ext.names);
	free(ext.is_entry);
	free(ks);
	cubin_vars_free(vars, nvars);
	free(shared_at);
	return rc;
}

static int write_raw(const KernelCode *codes, size_t n, uint8_t **image, size_t *len)
{
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += codes[i].size;
	*image = xmalloc(total ? total : 1);
	*len = 0;
	for (size_t i = 0; i < n; i++) {
		memcpy(*image + *len, codes[i].code, codes[i].size);
		*len += codes[i].size;
	}
	return 0;
}

/* The back end of one kernel (allocation to encoding), run after the
 * lowering hands the kernel over: on a worker thread of the job pool
 * (AssembleOptions.kernel_threads > 1) while the main thread goes on with
 * the next item, or by the main thread while it waits for the pool, or in
 * the main thread before the next item is lowered (no pool). The
 * job owns a copy of the kernel (lm->kernels may move meanwhile) and its
 * own diagnostic sink; the main thread takes both back in kernel order. */
typedef struct KernelJob {
	LKernel k;
	DiagSink sink;
	const AssembleOptions *o;
	KernelCode code;
	int rc;
	char fatal[256];        /* an xdie message, raised again by the main thread */
	struct KernelJob *batch_next;   /* the next job of its batch (pool) */
} KernelJob;

static void run_kernel_job(void *arg)
{
	KernelJob *volatile j = arg;    /* read again after a longjmp */
	XdieTrap trap;
	XdieTrap *prev = xdie_trap(NULL);
	if (setjmp(trap.env)) {
		xdie_trap(prev);
		snprintf(j->fatal, sizeof j->fatal, "%s", trap.msg[0] ? trap.msg : "out of memory");
		j->rc = 1;
		return;
	}
	xdie_trap(&trap);
	LKernel *k = &j->k;
	if (encode_kernel(k, &j->sink, &j->code) != 0 || (j->o->verify_sched && verify_code(k, &j->code, &j->sink) != 0))
		j->rc = 1;
	/* only the encoded words outlive the job */
	free(k->insns);
	free(k->vregs);
	k->insns = NULL;
	k->vregs = NULL;
	k->ninsns = k->cap = k->nvregs = k->vcap = 0;
	xdie_trap(prev);
}

/* A pool job: kernels handed over together, so that small kernels do not
 * cost a thread wake-up each. */
static void run_kernel_batch(void *arg)
{
	for (KernelJob *j = arg; j; j = j->batch_next)
		run_kernel_job(j);
}

enum { BATCH_INSNS = 2000 };    /* about 2 ms of back end */

/* Memory holds the IR of the kernels whose jobs have not finished: one at
 * a time in the main thread, the pool's window of batches with workers. */
typedef struct Encoder {
	DiagSink *sink;
	const AssembleOptions *o;
	LModule *lm;
	JobPool *pool;
	bool pool_tried;
	KernelJob **jobs;       /* in kernel order */
	size_t njobs, cap;
	size_t ran;             /* without a pool: jobs run so far; with: jobs submitted */
	size_t batch_insns;     /* instructions of the jobs [ran, njobs) not yet submitted */
	size_t taken;           /* jobs whose results are back in lm, codes and sink */
	KernelCode *codes;
	int rc;
} Encoder;

/* Hands the jobs not yet submitted to the pool as one batch. */
static void submit_batch(Encoder *e)
{
	if (e->ran < e->njobs)
		job_pool_submit(e->pool, e->jobs[e->ran]);
	e->ran = e->njobs;
	e->batch_insns = 0;
}

static void encode_one(LKernel *k, void *arg)
{
	Encoder *e = arg;
	if (e->njobs == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 16;
		e->jobs = xrealloc(e->jobs, e->cap * sizeof *e->jobs);
	}
	KernelJob *j = xcalloc(1, sizeof *j);
	j->k = *k;
	j->o = e->o;
	diag_init_like(&j->sink, e->sink);
	/* the job frees the instructions */
	k->insns = NULL;
	k->vregs = NULL;
	k->ninsns = k->cap = k->nvregs = k->vcap = 0;
	e->jobs[e->njobs++] = j;
	if (!e->pool_tried && e->o->kernel_threads > 1) {
		e->pool_tried = true;
		/* the main thread is the N-th: it lowers, and runs jobs while it
		 * waits for room or for the end (job_pool.h) */
		e->pool = job_pool_start(e->o->kernel_threads - 1, 2 * e->o->kernel_threads + 2, run_kernel_batch);
	}
	if (e->pool) {
		if (e->njobs - 1 > e->ran)
			e->jobs[e->njobs - 2]->batch_next = j;
		e->batch_insns += j->k.ninsns;
		if (e->batch_insns >= BATCH_INSNS)
			submit_batch(e);
	}
}

/* Finishes every job handed over so far: runs those still waiting (no
 * pool) or waits for the workers. */
static void finish_jobs(Encoder *e)
{
	if (e->pool) {
		submit_batch(e);
		job_pool_wait(e->pool);
	} else {
		for (; e->ran < e->njobs; e->ran++)
			run_kernel_job(e->jobs[e->ran]);
	}
}

/* Takes the results of jobs [taken, upto) back, in kernel order. */
static void take_jobs(Encoder *e, size_t upto)
{
	finish_jobs(e);
	if (e->taken >= upto)
		return;
	e->codes = xrealloc(e->codes, e->njobs * sizeof *e->codes);
	char fatal[256] = "";
	for (; e->taken < upto; e->taken++) {
		KernelJob *j = e->jobs[e->taken];
		diag_append(e->sink, &j->sink);
		diag_fini(&j->sink);
		/* the kernels are lowered and handed over in module order */
		e->lm->kernels[e->taken] = j->k;
		e->codes[e->taken] = j->code;
		e->rc |= j->rc;
		if (j->fatal[0] && !fatal[0])
			snprintf(fatal, sizeof fatal, "%s", j->fatal);
		free(j);
		e->jobs[e->taken] = NULL;
	}
	if (fatal[0])
		xdie("%s", fatal);
}

struct AsmStream {
	Encoder e;
	LModule lm;
	LowerStream *lower;
	DiagSink item_sink;     /* the lowering's messages for one item */
	/* the last item's lowering is finished (lower_stream_settle) at the
	 * next item or the end, when the parser has freed its syntax tree;
	 * item_sink stays its own until then */
	bool item_open;
	size_t item_jobs_before; /* jobs handed over before that item */
};

/* The lowering's messages of an item come after the back end's of the
 * kernels before it, as when each kernel was encoded as soon as it was
 * lowered. */
static void append_item_sink(AsmStream *a, size_t jobs_before)
{
	DiagSink *s = &a->item_sink;
	if (s->head || s->count[SEV_ERROR] || s->count[SEV_WARNING] || s->count[SEV_NOTE] || s->truncated) {
		take_jobs(&a->e, jobs_before);
		diag_append(a->e.sink, s);
	}
	diag_fini(s);
}

AsmStream *asm_stream_begin(DiagSink *sink, const AssembleOptions *o)
{
	AsmStream *a = xcalloc(1, sizeof *a);
	a->e = (Encoder){ .sink = sink, .o = o, .lm = &a->lm };
	a->lower = lower_stream_begin(&a->item_sink, &a->lm, encode_one, &a->e);
	if (o->relocatable)
		lower_stream_relocatable(a->lower);
	return a;
}

/* The rest of the last item's lowering, its messages after it. */
static void settle_item(AsmStream *a)
{
	if (!a->item_open)
		return;
	lower_stream_settle(a->lower);
	append_item_sink(a, a->item_jobs_before);
	a->item_open = false;
}

void asm_stream_item(AsmStream *a, const Item *it)
{
	/* without workers, the previous kernel's reconvergence and back end
	 * run now: one kernel's IR in memory at a time, and for the last
	 * kernel only after the parser has freed the syntax tree */
	settle_item(a);
	if (!a->e.pool)
		finish_jobs(&a->e);
	a->item_jobs_before = a->e.njobs;
	diag_init_like(&a->item_sink, a->e.sink);
	lower_stream_item(a->lower, it);
	a->item_open = true;
}

int asm_stream_end(AsmStream *a, bool emit, uint8_t **image, size_t *image_len, char **listing)
{
	*image = NULL;
	*image_len = 0;
	if (listing)
		*listing = NULL;
	Encoder *e = &a->e;
	const AssembleOptions *o = e->o;
	LModule *lm = &a->lm;
	settle_item(a);
	/* the lowering's end hands over the kernels that waited for a
	 * function defined after them: their jobs join the others */
	diag_init_like(&a->item_sink, e->sink);
	bool lower_failed = lower_stream_end(a->lower) != 0;
	take_jobs(e, e->njobs);
	if (e->pool)
		job_pool_finish(e->pool);
	e->pool = NULL;
	free(e->jobs);
	e->jobs = NULL;
	int rc = lower_failed || e->rc != 0 || e->njobs != lm->nkernels;
	append_item_sink(a, e->njobs);
	if (!emit)
		rc = 1;
	if (rc == 0 && o->want_listing && listing)
		rc = write_listing(lm, e->codes, e->sink, listing) ? 1 : 0;
	if (rc == 0)
		rc = (o->format == ASM_RAW ? write_raw(e->codes, lm->nkernels, image, image_len)
		                            : write_cubin(lm, e->codes, e->sink, image, image_len)) ? 1 : 0;
	if (rc != 0 && listing) {
		free(*listing);
		*listing = NULL;
	}
	for (size_t i = 0; i < e->njobs; i++)
		kernel_code_free(&e->codes[i]);
	free(e->codes);
	lower_module_free(lm);
	free(a);
	return rc;
}

int assemble_module(const Module *m, DiagSink *sink, const AssembleOptions *o,
                    uint8_t **image, size_t *image_len, char **listing)
{
	AsmStream *a = asm_stream_begin(sink, o);
	for (const Item *it = m->items; it; it = it->next)
		asm_stream_item(a, it);
	return asm_stream_end(a, true, image, image_len, listing);
}
