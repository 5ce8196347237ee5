/* The writer's string tables: .shstrtab and .strtab in ptxas's creation
 * order (names no symbol or section uses included), and the offsets the
 * other sections refer to. */
#include "emit/cubin_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

static const char *const data_section_names[CUBIN_DATA_SECTIONS] = { ".nv.constant3", ".nv.global.init",
                                                                      ".nv.global", ".nv_debug.shared" };

/* shstr NULL: the symbol names into str; else the section names into shstr. */
typedef struct DataNamesArg {
	const CubinModule *m;
	ByteBuf *shstr, *str;
	Names *n;
} DataNamesArg;

static void data_names(void *arg, ptrdiff_t var, int sec)
{
	DataNamesArg *a = arg;
	if (a->shstr && var < 0)
		a->n->sh_data[sec] = cubin_strtab_add(a->shstr, data_section_names[sec]);
	else if (!a->shstr && var >= 0)
		a->n->st_var[var] = cubin_strtab_add(a->str, a->m->vars[var].name);
	else if (!a->shstr)
		a->n->st_data_sec[sec] = cubin_strtab_add(a->str, data_section_names[sec]);
}

/* -c: whether processed kernel p's body declares .shared variables. */
static bool has_body_shared(const Layout *L, size_t p)
{
	for (size_t v = 0; v < L->m->nvars; v++)
		if (L->m->vars[v].kernel_body == L->nk - p)
			return true;
	return false;
}

/* -c, a kernel with .shared variables of its body: ptxas 11.8 -c names
 * its relocation sections and those variables as its code relocates
 * them, in code order (a variable before the section of its first
 * relocation); the variables no instruction names last. */
static void relocation_names_in_code_order(const Layout *L, size_t p, ByteBuf *str, Names *n)
{
	const CubinKernel *k = kernel_at(L, p);
	for (size_t f = 0, v = 0; f < k->ndata_fixups || v < k->nconst_var_refs;) {
		if (f < k->ndata_fixups && (v == k->nconst_var_refs || k->data_fixups[f].offset < k->const_var_refs[v].offset)) {
			cubin_strtab_add_kernel_name(str, ".rel.text.", k->name);
			f++;
			continue;
		}
		const CubinConstVarRef *r = &k->const_var_refs[v++];
		if (L->m->vars[r->var].kernel_body)
			n->st_var[r->var] = cubin_strtab_add(str, L->m->vars[r->var].name);
		cubin_strtab_add_kernel_name(str, r->addend ? ".rela.text." : ".rel.text.", k->name);
	}
	for (size_t v = 0; v < L->m->nvars; v++)
		if (L->m->vars[v].kernel_body == L->nk - p)
			n->st_var[v] = cubin_strtab_add(str, L->m->vars[v].name);
}

void cubin_build_names(const Layout *L, ByteBuf *shstr, ByteBuf *str, Names *n)
{
	size_t nk = L->nk ? L->nk : 1;
	n->sh_text = xmalloc(nk * sizeof(uint32_t));
	n->sh_info_k = xmalloc(nk * sizeof(uint32_t));
	n->sh_const0 = xmalloc(nk * sizeof(uint32_t));
	n->sh_rel = xcalloc(nk, sizeof(uint32_t));
	n->st_desc_size[CUBIN_DESC_SURFACE] = n->st_desc_size[CUBIN_DESC_TEXTURE] = 0;
	n->sh_const2 = xcalloc(nk, sizeof(uint32_t));
	n->sh_rel_text = xcalloc(nk, sizeof(uint32_t));
	n->sh_rela_text = xcalloc(nk, sizeof(uint32_t));
	n->st_const2 = xcalloc(nk, sizeof(uint32_t));
	n->st_func = xmalloc(nk * sizeof(uint32_t));
	n->st_text = xmalloc(nk * sizeof(uint32_t));
	n->st_const0 = xmalloc(nk * sizeof(uint32_t));
	n->st_surf = xmalloc((L->ns ? L->ns : 1) * sizeof(uint32_t));
	n->st_var = xcalloc(L->m->nvars ? L->m->nvars : 1, sizeof(uint32_t));
	n->sh_shared = xmalloc(nk * sizeof(uint32_t));
	n->st_shared = xmalloc(nk * sizeof(uint32_t));
	n->st_handle = xcalloc(nk, sizeof *n->st_handle);
	n->st_const_opt = xcalloc(nk, sizeof *n->st_const_opt);

	static const char *const leading[] = {
		"", ".shstrtab", ".strtab", ".symtab", ".symtab_shndx", ".nv.info",
	};
	for (size_t i = 0; i < sizeof leading / sizeof *leading; i++) {
		cubin_strtab_add(shstr, leading[i]);
		cubin_strtab_add(str, leading[i]);
	}
	n->sh_shstrtab = cubin_strtab_add(shstr, ".shstrtab");
	n->sh_strtab = cubin_strtab_add(shstr, ".strtab");
	n->sh_symtab = cubin_strtab_add(shstr, ".symtab");
	n->sh_nv_info = cubin_strtab_add(shstr, ".nv.info");

	bool *extern_done = cubin_externs_defined(L->m);   /* a defined one: no name of its own */
	size_t *externs = xcalloc(L->m->nexterns + 1, sizeof *externs);
	n->st_extern = xcalloc(L->m->nexterns + 1, sizeof *n->st_extern);
	DataNamesArg sec_names = { L->m, shstr, str, n }, sym_names = { L->m, NULL, str, n };
	bool sh_seen[CUBIN_DATA_SECTIONS] = { false }, st_seen[CUBIN_DATA_SECTIONS] = { false };
	if (L->nk == 0) {
		cubin_walk_data_symbols(L->m, 1, sh_seen, data_names, &sec_names);
		cubin_walk_data_symbols(L->m, 0, sh_seen, data_names, &sec_names);
		cubin_walk_data_symbols(L->m, 1, st_seen, data_names, &sym_names);
		for (size_t j = 0; j < L->ns; j++)
			n->st_surf[j] = cubin_strtab_add(str, L->m->surfrefs[L->surf_order[j]]);
		cubin_walk_data_symbols(L->m, 0, st_seen, data_names, &sym_names);
	}

	for (size_t p = 0; p < L->nk; p++) {
		const CubinKernel *k = kernel_at(L, p);
		n->sh_text[p] = cubin_strtab_add_kernel_name(shstr, ".text.", k->name);
		/* a function of its own (-c): its .nv.info after the data, no
		 * .nv.shared or .nv.constant0 */
		if (!k->abi_func)
			n->sh_info_k[p] = cubin_strtab_add_kernel_name(shstr, ".nv.info.", k->name);
		if (!k->abi_func || k->shared_align)
			n->sh_shared[p] = cubin_strtab_add_kernel_name(shstr, ".nv.shared.", k->name);
		if (p == 0) {
			cubin_walk_data_symbols(L->m, 1, sh_seen, data_names, &sec_names);
			cubin_walk_data_symbols(L->m, 0, sh_seen, data_names, &sec_names);
		}
		if (k->abi_func)
			n->sh_info_k[p] = cubin_strtab_add_kernel_name(shstr, ".nv.info.", k->name);
		/* -c: a bound handle's relocation names .rel/.rela.text.<k> before the pool */
		if (reads_bindless(k, false))
			n->sh_rel_text[p] = cubin_strtab_add_kernel_name(shstr, ".rel.text.", k->name);
		if (reads_bindless(k, true))
			n->sh_rela_text[p] = cubin_strtab_add_kernel_name(shstr, ".rela.text.", k->name);
		if (has_const2(k))
			n->sh_const2[p] = cubin_strtab_add_kernel_name(shstr, ".nv.constant2.", k->name);
		bool rela_first = cubin_rela_text_first(k);
		if (has_rela_text(k) && rela_first)
			n->sh_rela_text[p] = cubin_strtab_add_kernel_name(shstr, ".rela.text.", k->name);
		if (has_rel_text(k))
			n->sh_rel_text[p] = cubin_strtab_add_kernel_name(shstr, ".rel.text.", k->name);
		if (has_rela_text(k))
			n->sh_rela_text[p] = cubin_strtab_add_kernel_name(shstr, ".rela.text.", k->name);
		if (!k->abi_func)
			n->sh_const0[p] = cubin_strtab_add_kernel_name(shstr, ".nv.constant0.", k->name);

		n->st_func[p] = cubin_strtab_add(str, k->name);
		n->st_text[p] = cubin_strtab_add_kernel_name(str, ".text.", k->name);
		if (!k->abi_func) {   /* a function of its own has no .nv.shared or .nv.constant0 */
			cubin_strtab_add_kernel_name(str, ".nv.info.", k->name);
			n->st_shared[p] = cubin_strtab_add_kernel_name(str, ".nv.shared.", k->name);
		}
		n->st_handle[p] = xcalloc(k->nhandle_params + 1, sizeof **n->st_handle);
		for (size_t j = 0; j < k->nhandle_params; j++)
			n->st_handle[p][j] = cubin_strtab_add(str, k->handle_params[j].name);
		if (p == 0) {
			cubin_walk_data_symbols(L->m, 1, st_seen, data_names, &sym_names);
			for (size_t j = 0; j < L->ns; j++)
				n->st_surf[j] = cubin_strtab_add(str, L->m->surfrefs[L->surf_order[j]]);
			cubin_walk_data_symbols(L->m, 0, st_seen, data_names, &sym_names);
		}
		for (size_t j = 0, ne = cubin_kernel_externs(L->m, k, extern_done, externs); j < ne; j++)
			n->st_extern[externs[j]] = cubin_strtab_add(str, L->m->externs[externs[j]]);
		for (size_t q = 0; q < L->m->nkernels && cubin_takes_kernels(L->m, k); q++)    /* ...and the kernels it launches */
			if (cubin_takes_kernel(L->m, k, q))
				cubin_strtab_add(str, L->m->kernels[q].name);
		if (p == 0)   /* the data creates the functions its initialisers name */
			for (size_t v = 0; v < L->m->nvars; v++)
				for (size_t r = 0; r < L->m->vars[v].nrelocs; r++)
					if (L->m->vars[v].relocs[r].func)
						cubin_strtab_add(str, L->m->func_addrs[L->m->vars[v].relocs[r].var]);
		if (k->abi_func)
			cubin_strtab_add_kernel_name(str, ".nv.info.", k->name);
		/* a data relocation creates .rel.text.<k> before the shared names,
		 * a .const (or module .shared) operand's also .rela.text.<k> (first
		 * in code first); a kernel body's .shared variable's after them */
		if (!has_body_shared(L, p)) {
			if (k->nconst_var_refs && reads_const_var(k, true) && rela_first)
				cubin_strtab_add_kernel_name(str, ".rela.text.", k->name);
			if (k->ndata_fixups || reads_const_var(k, false))
				cubin_strtab_add_kernel_name(str, ".rel.text.", k->name);
			if (reads_const_var(k, true))
				cubin_strtab_add_kernel_name(str, ".rela.text.", k->name);
		} else {
			relocation_names_in_code_order(L, p, str, n);
		}
		for (size_t i = 0; i < k->nshared_strings; i++)
			cubin_strtab_add(str, k->shared_strings[i]);
		uint8_t kinds[CUBIN_DESC_KINDS];
		for (size_t j = 0, nkinds = cubin_desc_symbols(k, kinds); j < nkinds; j++)
			n->st_desc_size[kinds[j]] = cubin_strtab_add(str, kinds[j] == CUBIN_DESC_TEXTURE
			                                                      ? CUBIN_TEXREF_DESC_SIZE_SYMBOL
			                                                      : CUBIN_SURFREF_DESC_SIZE_SYMBOL);
		if (reads_bindless(k, false))
			cubin_strtab_add_kernel_name(str, ".rel.text.", k->name);
		if (reads_bindless(k, true))
			cubin_strtab_add_kernel_name(str, ".rela.text.", k->name);
		const ConstOpts *co = &L->const_opts[p];
		n->st_const_opt[p] = xcalloc(co->n + 1, sizeof **n->st_const_opt);
		if (has_const2(k))
			n->st_const2[p] = cubin_strtab_add_kernel_name(str, ".nv.constant2.", k->name);
		if (has_const2(k) && co->n == 0)
			cubin_strtab_add(str, "__ocg_const");
		/* -c: ptxas creates .rel.text.<k> with the first pool operand's
		 * symbol, .rela.text.<k> with the first jump table's */
		bool rel_named[2] = { false, false };
		for (size_t j = 0; j < co->n; j++) {
			char tail[48];
			snprintf(tail, sizeof tail, ".const_opt.%u.%u", (unsigned)co->distinct[j]->pool_offset,
			         (unsigned)(co->distinct[j]->pool_offset + co->distinct[j]->size));
			n->st_const_opt[p][j] = cubin_strtab_add_kernel_name(str, k->name, tail);
			bool table = co->distinct[j]->table;
			if (!rel_named[table])
				cubin_strtab_add_kernel_name(str, table ? ".rela.text." : ".rel.text.", k->name);
			rel_named[table] = true;
		}
		if (has_rel_text(k))
			cubin_strtab_add_kernel_name(str, ".rel.text.", k->name);
		if (!k->abi_func)
			n->st_const0[p] = cubin_strtab_add_kernel_name(str, ".nv.constant0.", k->name);
		if (!k->abi_func && (k->nparams || k->nhandle_params))
			n->st_param = cubin_strtab_add(str, "_param");
		else if (!k->abi_func)
			n->st_sreg = cubin_strtab_add(str, "_SREG");
		for (size_t i = 0; i < k->nslots; i++) {
			const CubinSurfaceSlot *sl = &L->slots[p][i];
			cubin_strtab_add_concat(str, (const char *const[]){
				"$BINDLESS$", k->name, "$", sl->surfref, sl->sampler ? "$" : NULL, sl->sampler, NULL });
		}
	}
	/* -c: the prototype strings, last declared first */
	n->st_proto_of = xcalloc(L->m->nexterns + L->m->nfunc_addrs + L->m->nkernels + 1, sizeof *n->st_proto_of);
	for (size_t i = L->m->nprotos; L->m->relocatable && i-- > 0;) {
		if (!L->m->protos[i].sig || !cubin_has_prototype(L->m, L->m->protos[i].name))
			continue;
		uint32_t sig = cubin_strtab_add(str, L->m->protos[i].sig);
		for (size_t e = 0; e < L->m->nexterns; e++)
			if (strcmp(L->m->externs[e], L->m->protos[i].name) == 0)
				n->st_proto_of[e] = sig;
		for (size_t f = 0; f < L->m->nfunc_addrs; f++)
			if (strcmp(L->m->func_addrs[f], L->m->protos[i].name) == 0)
				n->st_proto_of[L->m->nexterns + f] = sig;
		for (size_t q = 0; q < L->m->nkernels; q++)
			if (L->m->kernels[q].abi_func && strcmp(L->m->kernels[q].name, L->m->protos[i].name) == 0)
				n->st_proto_of[L->m->nexterns + L->m->nfunc_addrs + q] = sig;
	}
	static const char *const init_rel_names[4] = { ".rel.nv.global.init", ".rela.nv.global.init",
	                                               ".rel.nv.constant3", ".rela.nv.constant3" };
	uint32_t *init_rel_sh[4] = { &n->sh_rel_ginit, &n->sh_rela_ginit, &n->sh_rel_const3, &n->sh_rela_const3 };
	int order[4];
	for (size_t i = 0, k = cubin_init_reloc_order(L->m, order); i < k; i++) {
		*init_rel_sh[order[i]] = cubin_strtab_add(shstr, init_rel_names[order[i]]);
		cubin_strtab_add(str, init_rel_names[order[i]]);
	}
	for (size_t p = 0; p < L->nk; p++) {
		const CubinKernel *k = kernel_at(L, p);
		if (k->nslots) {
			n->sh_rel[p] = cubin_strtab_add_kernel_name(shstr, ".rel.nv.constant0.", k->name);
			cubin_strtab_add_kernel_name(str, ".rel.nv.constant0.", k->name);
		}
	}
	if (!L->m->relocatable) {
		n->sh_rel_action = cubin_strtab_add(shstr, ".nv.rel.action");
		n->st_rel_action = cubin_strtab_add(str, ".nv.rel.action");
	}
	for (size_t e = 0; e < L->m->nexterns; e++)
		if (!extern_done[e])
			n->st_extern[e] = cubin_strtab_add(str, L->m->externs[e]);
	free(extern_done);
	free(externs);
	if (L->m->relocatable) {
		n->sh_callgraph = cubin_strtab_add(shstr, ".nv.callgraph");
		n->st_callgraph = cubin_strtab_add(str, ".nv.callgraph");
		/* named also when ptxas writes no .nv.prototype (nothing called) */
		n->sh_proto = cubin_strtab_add(shstr, ".nv.prototype");
		n->st_proto = cubin_strtab_add(str, ".nv.prototype");
	}
}

void cubin_names_free(Names *n, size_t nk)
{
	for (size_t p = 0; p < nk; p++) {
		free(n->st_handle[p]);
		free(n->st_const_opt[p]);
	}
	free(n->st_handle);
	free(n->st_const_opt);
	free(n->sh_shared);
	free(n->st_shared);
	free(n->sh_text);
	free(n->sh_info_k);
	free(n->sh_const0);
	free(n->sh_rel);
	free(n->sh_const2);
	free(n->sh_rel_text);
	free(n->sh_rela_text);
	free(n->st_const2);
	free(n->st_func);
	free(n->st_text);
	free(n->st_const0);
	free(n->st_surf);
	free(n->st_var);
	free(n->st_extern);
	free(n->st_proto_of);
}
