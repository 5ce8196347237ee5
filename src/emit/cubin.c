/* The sm_50 cubin writer: see cubin.h for the layout rules it reproduces.
 *
 * The image is assembled in three steps: check the module, build every
 * section's bytes (string tables first, in ptxas's creation order, because
 * all other sections refer to their offsets), then place the sections one
 * after another and append the section and program header tables. */
#include "emit/cubin_layout.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* ---- numbering ------------------------------------------------------- */

/* The suq/txq descriptor lookup: .rel.text.<k> and a descriptor-size
 * symbol. .nv.constant2.<k> holds ptxas -O3's constant pool: the lookup's
 * field offsets (-O0 adds them as immediates instead) and mad addends. */
static bool has_desc(const CubinKernel *k)
{
	return k->ndesc_size_offsets > 0;
}

/* .rel.text.<k>: the lookup's or module variable addresses' MOV32I. */
static bool has_rel_text(const CubinKernel *k)
{
	return has_desc(k) || k->ndata_fixups > 0 || k->nextern_calls > 0 || k->nconst2_refs > 0;
}

static bool has_const2(const CubinKernel *k)
{
	return k->ndesc_fields > 0;
}

/* -c: the code reads an FP64 pair of its pool. */
static bool reads_pair(const CubinKernel *k)
{
	for (size_t i = 0; i < k->nconst2_refs; i++)
		if (k->const2_refs[i].size == 8)
			return true;
	return false;
}

static size_t sec_nv_info(void)              { return 4; }
static size_t sec_nv_info_k(size_t p)        { return 5 + p; }
static size_t sec_rel_action(const Layout *L) { return L->nk ? 5 + L->nk : 4; }

/* -c: ptxas 11.8 -c writes no .nv.rel.action; .nv.callgraph takes its
 * place, then .nv.prototype when a function is called or addressed
 * through one (an external function, an address-taken .func). */
static bool has_prototype(const CubinModule *m)
{
	return m->nexterns > 0 || m->nfunc_addrs > 0;
}
static size_t sec_const0(const Layout *L, size_t p) { return L->s_const0[p]; }
static size_t sec_text(const Layout *L, size_t p)   { return L->s_text[p]; }

/* After .nv.rel.action: .rel.text.<k> of the kernels with a descriptor
 * lookup, .rel.nv.constant0.<k> of the kernels with surface slots, then
 * per kernel .nv.constant2.<k> (constant pool only) and .nv.constant0.<k>, then
 * every .text.<k>, then the .nv.shared.<k> of the kernels with static
 * shared memory; each group in processing order. */
static void number_sections(Layout *L)
{
	size_t nk = L->nk ? L->nk : 1;
	L->s_rel_text = xcalloc(nk, sizeof *L->s_rel_text);
	L->s_rel_const0 = xcalloc(nk, sizeof *L->s_rel_const0);
	L->s_const2 = xcalloc(nk, sizeof *L->s_const2);
	L->s_const0 = xcalloc(nk, sizeof *L->s_const0);
	L->s_text = xcalloc(nk, sizeof *L->s_text);
	size_t next = sec_rel_action(L) + 1;
	if (L->m->relocatable) {
		L->s_callgraph = sec_rel_action(L);
		L->s_proto = has_prototype(L->m) ? next++ : 0;
	}
	for (size_t p = 0; p < L->nk; p++)
		if (has_rel_text(kernel_at(L, p)))
			L->s_rel_text[p] = next++;
	if (cubin_has_init_relocs(L->m, false))
		L->s_rel_ginit = next++;
	if (cubin_has_init_relocs(L->m, true))
		L->s_rela_ginit = next++;
	for (size_t p = 0; p < L->nk; p++)
		if (kernel_at(L, p)->nslots)
			L->s_rel_const0[p] = next++;
	if (cubin_has_data(L->m, CUBIN_DATA_CONST3))
		L->s_data[CUBIN_DATA_CONST3] = next++;
	for (size_t p = 0; p < L->nk; p++) {
		if (has_const2(kernel_at(L, p)))
			L->s_const2[p] = next++;
		L->s_const0[p] = kernel_at(L, p)->abi_func ? 0 : next++;
	}
	for (size_t p = 0; p < L->nk; p++)
		L->s_text[p] = next++;
	/* the first processed kernel's .nv.shared, the data, the other .nv.shared */
	L->s_shared = xcalloc(nk, sizeof *L->s_shared);
	for (size_t p = 0; p < L->nk; p++) {
		if (kernel_at(L, p)->shared_align)
			L->s_shared[p] = next++;
		if (p == 0)
			for (int d = CUBIN_DATA_GLOBAL_INIT; d <= CUBIN_DATA_GLOBAL; d++)
				if (cubin_has_data(L->m, (CubinDataSection)d))
					L->s_data[d] = next++;
	}
	if (L->nk == 0)
		for (int d = CUBIN_DATA_GLOBAL_INIT; d <= CUBIN_DATA_GLOBAL; d++)
			if (cubin_has_data(L->m, (CubinDataSection)d))
				L->s_data[d] = next++;
	L->nsec = next;
}

/* ptxas creates symbols in this order -- per processed kernel its FUNC
 * (followed, for the first kernel, by every surfref), SECTION .text.<k>,
 * [the weak descriptor-size symbols, each once, and SECTION .nv.constant2.<k>
 * for a kernel with a lookup / a constant pool], SECTION .nv.constant0.<k>;
 * finally SECTION .nv.rel.action -- and then
 * moves the locals before the globals without reordering either group
 * (ELF wants locals first).  A .entry without .visible is a LOCAL FUNC. */
typedef enum SymKind {
	SYM_FUNC, SYM_SURFREF, SYM_TEXT, SYM_SHARED, SYM_DESC_SIZE, SYM_CONST2, SYM_CONST0, SYM_REL_ACTION,
	SYM_DATA_SEC, SYM_VAR, SYM_CALLGRAPH, SYM_PROTO, SYM_EXTERN, SYM_HANDLE,
	SYM_CONST_OPT, SYM_PARAM   /* -c: a pool operand's bytes; the parameters' (or _SREG) */
} SymKind;

typedef struct SymPlan {
	SymKind kind;
	size_t which;   /* processed-kernel position, or symbol-order surfref index */
	bool global;
} SymPlan;

static void plan_symbol(SymPlan *created, size_t *n, SymKind kind, size_t which, bool global)
{
	created[(*n)++] = (SymPlan){ .kind = kind, .which = which, .global = global };
}

static CubinDataSection var_section(const CubinVar *v)
{
	return v->is_const ? CUBIN_DATA_CONST3 : v->init ? CUBIN_DATA_GLOBAL_INIT : CUBIN_DATA_GLOBAL;
}

/* Module variables as ptxas creates their symbols: the .visible ones (pass
 * 1; the surfrefs follow them), then the others (pass 0, .extern and
 * .common ones too), in declaration order, each after its section's symbol
 * when that is new (seen[] carries over from pass 1 to pass 0). f(var, -1)
 * is a variable, f(-1, section) a section symbol. */
static void walk_data_symbols(const CubinModule *m, int pass, bool seen[3],
                              void (*f)(void *, ptrdiff_t, int), void *arg)
{
	for (int visible = pass; visible == pass; visible = -1)
		for (size_t i = 0; i < m->nvars; i++) {
			const CubinVar *v = &m->vars[i];
			if (v->visible != (bool)visible)
				continue;
			CubinDataSection d = var_section(v);
			if (!seen[d])
				f(arg, -1, (int)d);
			seen[d] = true;
			f(arg, (ptrdiff_t)i, -1);
		}
}

typedef struct PlanArg {
	const CubinModule *m;
	SymPlan *created;
	size_t *n;
} PlanArg;

static void plan_data_symbol(void *arg, ptrdiff_t var, int sec)
{
	PlanArg *a = arg;
	if (var < 0)
		plan_symbol(a->created, a->n, SYM_DATA_SEC, (size_t)sec, false);
	else
		plan_symbol(a->created, a->n, SYM_VAR, (size_t)var, a->m->vars[var].global);
}

static void plan_symbols(Layout *L)
{
	/* null, .nv.rel.action, desc size, data sections, call graph sections */
	size_t total = 8 + 6 * L->nk + L->ns + L->m->nvars + L->m->nexterns;
	for (size_t p = 0; p < L->nk; p++)
		total += kernel_at(L, p)->nhandle_params + kernel_at(L, p)->nconst2_refs + 1;
	SymPlan *created = xmalloc(total * sizeof *created);
	size_t n = 0;
	bool desc_size_planned[CUBIN_DESC_KINDS] = { false, false };
	bool seen[3] = { false, false, false };
	PlanArg pa = { L->m, created, &n };
	for (size_t p = 0; p < L->nk; p++) {
		plan_symbol(created, &n, SYM_FUNC, p, !kernel_at(L, p)->local_symbol);
		plan_symbol(created, &n, SYM_TEXT, p, false);
		if (kernel_at(L, p)->shared_size)   /* an empty one has none */
			plan_symbol(created, &n, SYM_SHARED, p, false);
		for (size_t j = 0; j < kernel_at(L, p)->nhandle_params; j++)
			plan_symbol(created, &n, SYM_HANDLE, p, false);
		if (p == 0) {
			walk_data_symbols(L->m, 1, seen, plan_data_symbol, &pa);
			for (size_t j = 0; j < L->ns; j++)
				plan_symbol(created, &n, SYM_SURFREF, j, true);
			walk_data_symbols(L->m, 0, seen, plan_data_symbol, &pa);
		}
		uint8_t kinds[CUBIN_DESC_KINDS];
		for (size_t j = 0, nkinds = cubin_desc_symbols(kernel_at(L, p), kinds); j < nkinds; j++) {
			if (!desc_size_planned[kinds[j]])
				plan_symbol(created, &n, SYM_DESC_SIZE, kinds[j], false);
			desc_size_planned[kinds[j]] = true;
		}
		if (has_const2(kernel_at(L, p)))
			plan_symbol(created, &n, SYM_CONST2, p, false);
		for (size_t j = 0; j < L->const_opts[p].n; j++)
			plan_symbol(created, &n, SYM_CONST_OPT, p, false);
		if (!kernel_at(L, p)->abi_func)
			plan_symbol(created, &n, SYM_CONST0, p, false);
		if (!kernel_at(L, p)->abi_func && L->m->relocatable)
			plan_symbol(created, &n, SYM_PARAM, p, false);
	}
	if (L->nk == 0) {
		walk_data_symbols(L->m, 1, seen, plan_data_symbol, &pa);
		for (size_t j = 0; j < L->ns; j++)
			plan_symbol(created, &n, SYM_SURFREF, j, true);
		walk_data_symbols(L->m, 0, seen, plan_data_symbol, &pa);
	}
	if (!L->m->relocatable)
		plan_symbol(created, &n, SYM_REL_ACTION, 0, false);
	if (L->m->relocatable)
		plan_symbol(created, &n, SYM_CALLGRAPH, 0, false);
	if (L->s_proto)
		plan_symbol(created, &n, SYM_PROTO, 0, false);
	for (size_t e = 0; e < L->m->nexterns; e++)
		plan_symbol(created, &n, SYM_EXTERN, e, true);

	L->syms = xmalloc(total * sizeof *L->syms);
	L->nsyms = 1;   /* index 0 is the null symbol */
	for (int global = 0; global <= 1; global++) {
		if (global)
			L->first_global = L->nsyms;
		for (size_t i = 0; i < n; i++)
			if (created[i].global == (bool)global)
				L->syms[L->nsyms++] = created[i];
	}
	free(created);

	size_t nk = L->nk ? L->nk : 1;
	L->sym_func = xmalloc(nk * sizeof *L->sym_func);
	L->sym_const0 = xcalloc(nk, sizeof *L->sym_const0);
	L->sym_surf = xmalloc((L->ns ? L->ns : 1) * sizeof *L->sym_surf);
	L->sym_handle = xcalloc(nk, sizeof *L->sym_handle);
	L->sym_var = xcalloc(L->m->nvars ? L->m->nvars : 1, sizeof *L->sym_var);
	L->sym_extern = xcalloc(L->m->nexterns + 1, sizeof *L->sym_extern);
	for (size_t i = 1; i < L->nsyms; i++) {
		if (L->syms[i].kind == SYM_CONST_OPT && L->const_opts[L->syms[i].which].first_sym == 0)
			L->const_opts[L->syms[i].which].first_sym = i;
		if (L->syms[i].kind == SYM_EXTERN)
			L->sym_extern[L->syms[i].which] = i;
		if (L->syms[i].kind == SYM_HANDLE && L->sym_handle[L->syms[i].which] == 0)
			L->sym_handle[L->syms[i].which] = i;
		if (L->syms[i].kind == SYM_VAR)
			L->sym_var[L->syms[i].which] = i;
		else if (L->syms[i].kind == SYM_DATA_SEC)
			L->sym_data_sec[L->syms[i].which] = i;
		if (L->syms[i].kind == SYM_FUNC)
			L->sym_func[L->syms[i].which] = i;
		else if (L->syms[i].kind == SYM_CONST0)
			L->sym_const0[L->syms[i].which] = i;
		else if (L->syms[i].kind == SYM_SURFREF)
			L->sym_surf[L->syms[i].which] = i;
		else if (L->syms[i].kind == SYM_DESC_SIZE)
			L->sym_desc_size[L->syms[i].which] = i;
	}
	L->sym_fnaddr = cubin_fnaddr_symbols(L->m, L->sym_func, L->nk, L->sym_extern);
}

static int compare_slot_offset(const void *a, const void *b)
{
	uint32_t x = ((const CubinSurfaceSlot *)a)->cbank_offset;
	uint32_t y = ((const CubinSurfaceSlot *)b)->cbank_offset;
	return (x > y) - (x < y);
}

/* first use, then slot (a texture's pairs with several samplers share one use) */
static int compare_slot_first_use(const void *a, const void *b)
{
	uint32_t x = ((const CubinSurfaceSlot *)a)->first_use, y = ((const CubinSurfaceSlot *)b)->first_use;
	return x != y ? (x > y) - (x < y) : compare_slot_offset(a, b);
}

static void layout_init(Layout *L, const CubinModule *m)
{
	memset(L, 0, sizeof *L);
	L->m = m;
	L->nk = m->nkernels;
	L->ns = m->nsurfrefs;
	L->slots = xcalloc(L->nk ? L->nk : 1, sizeof *L->slots);
	for (size_t p = 0; p < L->nk; p++) {
		const CubinKernel *k = kernel_at(L, p);
		L->nrel += k->nslots > 0;
		L->ndesc += has_desc(k);
		L->slots[p] = xmalloc((k->nslots ? k->nslots : 1) * sizeof **L->slots);
		if (k->nslots)
			memcpy(L->slots[p], k->slots, k->nslots * sizeof **L->slots);
		qsort(L->slots[p], k->nslots, sizeof **L->slots, compare_slot_offset);
	}
	L->const_opts = xcalloc(L->nk ? L->nk : 1, sizeof *L->const_opts);
	for (size_t p = 0; p < L->nk; p++)
		cubin_const_opts(kernel_at(L, p), &L->const_opts[p]);

	/* Surfrefs and texrefs bound by the first processed kernel, in its
	 * order of first use (its slots put the textures first), then the
	 * others in declaration order. */
	L->surf_order = xmalloc((L->ns ? L->ns : 1) * sizeof *L->surf_order);
	bool *placed = xcalloc(L->ns ? L->ns : 1, sizeof *placed);
	size_t n = 0;
	if (L->nk) {
		size_t nslots = kernel_at(L, 0)->nslots;
		CubinSurfaceSlot *used = xmalloc((nslots ? nslots : 1) * sizeof *used);
		if (nslots)
			memcpy(used, L->slots[0], nslots * sizeof *used);
		qsort(used, nslots, sizeof *used, compare_slot_first_use);
		for (size_t i = 0; i < nslots; i++) {
			ptrdiff_t decl = cubin_surfref_index(m, used[i].surfref);
			if (decl < 0 || placed[decl])   /* a handle parameter */
				continue;
			size_t d = (size_t)decl;
			placed[d] = true;
			L->surf_order[n++] = d;
		}
		free(used);
	}
	for (size_t d = 0; d < L->ns; d++)
		if (!placed[d])
			L->surf_order[n++] = d;
	free(placed);
	number_sections(L);
	plan_symbols(L);
}

static void layout_free(Layout *L)
{
	free(L->syms);
	free(L->sym_func);
	free(L->sym_const0);
	free(L->sym_surf);
	free(L->sym_handle);
	free(L->sym_var);
	free(L->sym_extern);
	free(L->sym_fnaddr);
	free(L->s_rel_text);
	free(L->s_rel_const0);
	free(L->s_const2);
	free(L->s_const0);
	free(L->s_text);
	free(L->s_shared);
	for (size_t p = 0; p < L->nk; p++) {
		free(L->slots[p]);
		cubin_const_opts_free(&L->const_opts[p]);
	}
	free(L->slots);
	free(L->const_opts);
	free(L->surf_order);
}

/* ---- section contents ------------------------------------------------ */

/* String offsets every other section refers to. */
typedef struct Names {
	uint32_t sh_shstrtab, sh_strtab, sh_symtab, sh_nv_info, sh_rel_action;
	uint32_t *sh_text, *sh_info_k, *sh_const0, *sh_rel;   /* per processed kernel */
	uint32_t *sh_shared, *st_shared;                      /* per processed kernel */
	uint32_t *sh_const2, *sh_rel_text;                    /* per processed kernel */
	uint32_t st_rel_action, st_desc_size[CUBIN_DESC_KINDS];
	uint32_t *st_func, *st_text, *st_const0, *st_const2;  /* per processed kernel */
	uint32_t *st_surf;                                    /* per symbol-order surfref */
	uint32_t **st_handle;                                 /* per processed kernel, per handle parameter */
	uint32_t **st_const_opt, st_param, st_sreg;           /* -c: per processed kernel, per pool operand */
	uint32_t *st_var, st_data_sec[3], sh_data[3];         /* module data */
	uint32_t sh_rel_ginit, sh_rela_ginit;
	uint32_t *st_extern, sh_callgraph, sh_proto, st_callgraph, st_proto, st_ill;   /* -c */
} Names;

static const char *const data_section_names[3] = { ".nv.constant3", ".nv.global.init", ".nv.global" };

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

static void build_string_tables(const Layout *L, ByteBuf *shstr, ByteBuf *str, Names *n)
{
	size_t nk = L->nk ? L->nk : 1;
	n->sh_text = xmalloc(nk * sizeof(uint32_t));
	n->sh_info_k = xmalloc(nk * sizeof(uint32_t));
	n->sh_const0 = xmalloc(nk * sizeof(uint32_t));
	n->sh_rel = xcalloc(nk, sizeof(uint32_t));
	n->st_desc_size[CUBIN_DESC_SURFACE] = n->st_desc_size[CUBIN_DESC_TEXTURE] = 0;
	n->sh_const2 = xcalloc(nk, sizeof(uint32_t));
	n->sh_rel_text = xcalloc(nk, sizeof(uint32_t));
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

	DataNamesArg sec_names = { L->m, shstr, str, n }, sym_names = { L->m, NULL, str, n };
	bool sh_seen[3] = { false, false, false }, st_seen[3] = { false, false, false };
	if (L->nk == 0) {
		walk_data_symbols(L->m, 1, sh_seen, data_names, &sec_names);
		walk_data_symbols(L->m, 0, sh_seen, data_names, &sec_names);
		walk_data_symbols(L->m, 1, st_seen, data_names, &sym_names);
		for (size_t j = 0; j < L->ns; j++)
			n->st_surf[j] = cubin_strtab_add(str, L->m->surfrefs[L->surf_order[j]]);
		walk_data_symbols(L->m, 0, st_seen, data_names, &sym_names);
	}

	for (size_t p = 0; p < L->nk; p++) {
		const CubinKernel *k = kernel_at(L, p);
		n->sh_text[p] = cubin_strtab_add_kernel_name(shstr, ".text.", k->name);
		n->sh_info_k[p] = cubin_strtab_add_kernel_name(shstr, ".nv.info.", k->name);
		n->sh_shared[p] = cubin_strtab_add_kernel_name(shstr, ".nv.shared.", k->name);
		if (p == 0) {
			walk_data_symbols(L->m, 1, sh_seen, data_names, &sec_names);
			walk_data_symbols(L->m, 0, sh_seen, data_names, &sec_names);
		}
		if (has_const2(k))
			n->sh_const2[p] = cubin_strtab_add_kernel_name(shstr, ".nv.constant2.", k->name);
		if (has_rel_text(k))
			n->sh_rel_text[p] = cubin_strtab_add_kernel_name(shstr, ".rel.text.", k->name);
		n->sh_const0[p] = cubin_strtab_add_kernel_name(shstr, ".nv.constant0.", k->name);

		n->st_func[p] = cubin_strtab_add(str, k->name);
		n->st_text[p] = cubin_strtab_add_kernel_name(str, ".text.", k->name);
		cubin_strtab_add_kernel_name(str, ".nv.info.", k->name);
		n->st_shared[p] = cubin_strtab_add_kernel_name(str, ".nv.shared.", k->name);
		n->st_handle[p] = xcalloc(k->nhandle_params + 1, sizeof **n->st_handle);
		for (size_t j = 0; j < k->nhandle_params; j++)
			n->st_handle[p][j] = cubin_strtab_add(str, k->handle_params[j].name);
		if (p == 0) {
			walk_data_symbols(L->m, 1, st_seen, data_names, &sym_names);
			for (size_t j = 0; j < L->ns; j++)
				n->st_surf[j] = cubin_strtab_add(str, L->m->surfrefs[L->surf_order[j]]);
			walk_data_symbols(L->m, 0, st_seen, data_names, &sym_names);
		}
		/* a data relocation creates .rel.text.<k> before the shared names */
		if (k->ndata_fixups)
			cubin_strtab_add_kernel_name(str, ".rel.text.", k->name);
		for (size_t i = 0; i < k->nshared_strings; i++)
			cubin_strtab_add(str, k->shared_strings[i]);
		uint8_t kinds[CUBIN_DESC_KINDS];
		for (size_t j = 0, nkinds = cubin_desc_symbols(k, kinds); j < nkinds; j++)
			n->st_desc_size[kinds[j]] = cubin_strtab_add(str, kinds[j] == CUBIN_DESC_TEXTURE
			                                                      ? CUBIN_TEXREF_DESC_SIZE_SYMBOL
			                                                      : CUBIN_SURFREF_DESC_SIZE_SYMBOL);
		const ConstOpts *co = &L->const_opts[p];
		n->st_const_opt[p] = xcalloc(co->n + 1, sizeof **n->st_const_opt);
		if (has_const2(k))
			n->st_const2[p] = cubin_strtab_add_kernel_name(str, ".nv.constant2.", k->name);
		if (has_const2(k) && co->n == 0)
			cubin_strtab_add(str, "__ocg_const");
		/* -c: ptxas creates .rel.text.<k> with the first pool operand's symbol */
		for (size_t j = 0; j < co->n; j++) {
			char tail[48];
			snprintf(tail, sizeof tail, ".const_opt.%u.%u", (unsigned)co->distinct[j]->pool_offset,
			         (unsigned)(co->distinct[j]->pool_offset + co->distinct[j]->size));
			n->st_const_opt[p][j] = cubin_strtab_add_kernel_name(str, k->name, tail);
			if (j == 0)
				cubin_strtab_add_kernel_name(str, ".rel.text.", k->name);
		}
		if (has_rel_text(k))
			cubin_strtab_add_kernel_name(str, ".rel.text.", k->name);
		n->st_const0[p] = cubin_strtab_add_kernel_name(str, ".nv.constant0.", k->name);
		if (k->nparams || k->nhandle_params)
			n->st_param = cubin_strtab_add(str, "_param");
		else
			n->st_sreg = cubin_strtab_add(str, "_SREG");
		for (size_t i = 0; i < k->nslots; i++) {
			const CubinSurfaceSlot *sl = &L->slots[p][i];
			cubin_strtab_add_concat(str, (const char *const[]){
				"$BINDLESS$", k->name, "$", sl->surfref, sl->sampler ? "$" : NULL, sl->sampler, NULL });
		}
	}
	if (L->s_rel_ginit) {
		n->sh_rel_ginit = cubin_strtab_add(shstr, ".rel.nv.global.init");
		cubin_strtab_add(str, ".rel.nv.global.init");
	}
	if (L->s_rela_ginit) {
		n->sh_rela_ginit = cubin_strtab_add(shstr, ".rela.nv.global.init");
		cubin_strtab_add(str, ".rela.nv.global.init");
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
	n->st_extern = xcalloc(L->m->nexterns + 1, sizeof *n->st_extern);
	for (size_t e = 0; e < L->m->nexterns; e++)
		n->st_extern[e] = cubin_strtab_add(str, L->m->externs[e]);
	if (L->m->relocatable) {
		n->st_ill = cubin_strtab_add(str, "#ill");
		n->sh_callgraph = cubin_strtab_add(shstr, ".nv.callgraph");
		n->st_callgraph = cubin_strtab_add(str, ".nv.callgraph");
		if (L->s_proto) {
			n->sh_proto = cubin_strtab_add(shstr, ".nv.prototype");
			n->st_proto = cubin_strtab_add(str, ".nv.prototype");
		}
	}
}

static void names_free(Names *n, size_t nk)
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
	free(n->st_const2);
	free(n->st_func);
	free(n->st_text);
	free(n->st_const0);
	free(n->st_surf);
	free(n->st_var);
	free(n->st_extern);
}

static void put_symbol_at(ByteBuf *b, uint32_t name, uint8_t info, uint8_t other,
                          uint16_t shndx, uint64_t value, uint64_t size)
{
	cubin_buf_u32(b, name);
	cubin_buf_u8(b, info);
	cubin_buf_u8(b, other);
	cubin_buf_u16(b, shndx);
	cubin_buf_u64(b, value);
	cubin_buf_u64(b, size);
}

/* Every symbol but a module variable sits at its section's start. */
static void put_symbol(ByteBuf *b, uint32_t name, uint8_t info, uint8_t other,
                       uint16_t shndx, uint64_t size)
{
	put_symbol_at(b, name, info, other, shndx, 0, size);
}

enum { STB_LOCAL = 0, STB_GLOBAL = 1, STB_WEAK = 2, STT_OBJECT = 1, STT_FUNC = 2, STT_SECTION = 3 };
#define ST_INFO(bind, type) ((uint8_t)(((bind) << 4) | (type)))

static uint32_t const0_size(const Layout *L, size_t p);

static void build_symtab(const Layout *L, const Names *n, ByteBuf *b)
{
	const uint8_t section = ST_INFO(STB_LOCAL, STT_SECTION);
	put_symbol(b, 0, 0, 0, 0, 0);
	for (size_t i = 1; i < L->nsyms; i++) {
		size_t w = L->syms[i].which;
		switch (L->syms[i].kind) {
		case SYM_FUNC:
			put_symbol(b, n->st_func[w],
			           ST_INFO(L->syms[i].global ? STB_GLOBAL : STB_LOCAL, STT_FUNC),
			           kernel_at(L, w)->abi_func ? 0 : CUBIN_STO_CUDA_ENTRY, (uint16_t)sec_text(L, w),
			           kernel_at(L, w)->code_size);
			break;
		case SYM_SURFREF:
			put_symbol(b, n->st_surf[w], ST_INFO(STB_GLOBAL, is_texture(L->m, L->surf_order[w])
			                                    ? CUBIN_STT_CUDA_TEXTURE : CUBIN_STT_CUDA_SURFACE), 0, 0, 0);
			break;
		case SYM_TEXT:
			put_symbol(b, n->st_text[w], section, 0, (uint16_t)sec_text(L, w), 0);
			break;
		case SYM_HANDLE: {
			size_t j = i - L->sym_handle[w];
			put_symbol(b, n->st_handle[w][j],
			           ST_INFO(STB_LOCAL, cubin_handle_symbol_type(kernel_at(L, w)->handle_params[j].space)),
			           0, (uint16_t)sec_text(L, w), 0);
			break;
		}
		case SYM_SHARED:
			put_symbol(b, n->st_shared[w], section, 0, (uint16_t)L->s_shared[w], 0);
			break;
		case SYM_DESC_SIZE:
			put_symbol(b, n->st_desc_size[w], ST_INFO(STB_WEAK, STT_OBJECT), 0, 0, 4);
			break;
		case SYM_CONST2:
			put_symbol(b, n->st_const2[w], section, 0, (uint16_t)L->s_const2[w], 0);
			break;
		case SYM_CONST0:
			put_symbol(b, n->st_const0[w], section, 0, (uint16_t)sec_const0(L, w), 0);
			break;
		case SYM_CONST_OPT: {
			const CubinConst2Ref *r = L->const_opts[w].distinct[i - L->const_opts[w].first_sym];
			put_symbol_at(b, n->st_const_opt[w][i - L->const_opts[w].first_sym],
			              ST_INFO(STB_LOCAL, CUBIN_STT_CUDA_OBJECT), CUBIN_STO_CUDA_CONSTANT_INTERNAL,
			              (uint16_t)L->s_const2[w], r->pool_offset, r->size);
			break;
		}
		case SYM_PARAM: {   /* the parameters, else the driver's words (_SREG) */
			const CubinKernel *k = kernel_at(L, w);
			bool params = k->nparams || k->nhandle_params;
			put_symbol_at(b, params ? n->st_param : n->st_sreg, ST_INFO(STB_LOCAL, CUBIN_STT_CUDA_OBJECT),
			              CUBIN_STO_CUDA_CONSTANT_INTERNAL, (uint16_t)sec_const0(L, w),
			              params ? SASS_PARAM_CBANK_BASE : 0,
			              params ? const0_size(L, w) - SASS_PARAM_CBANK_BASE : SASS_PARAM_CBANK_BASE);
			break;
		}
		case SYM_REL_ACTION:
			put_symbol(b, n->st_rel_action, section, 0, (uint16_t)sec_rel_action(L), 0);
			break;
		case SYM_DATA_SEC:
			put_symbol(b, n->st_data_sec[w], section, 0, (uint16_t)L->s_data[w], 0);
			break;
		case SYM_CALLGRAPH:
			put_symbol(b, n->st_callgraph, section, 0, (uint16_t)L->s_callgraph, 0);
			break;
		case SYM_PROTO:
			put_symbol(b, n->st_proto, section, 0, (uint16_t)L->s_proto, 0);
			break;
		case SYM_EXTERN:    /* undefined: the linker resolves it */
			put_symbol(b, n->st_extern[w], ST_INFO(STB_GLOBAL, STT_FUNC),
			           L->m->extern_is_entry && L->m->extern_is_entry[w] ? CUBIN_STO_CUDA_ENTRY : 0, 0, 0);
			break;
		case SYM_VAR: {
			const CubinVar *v = &L->m->vars[w];
			put_symbol_at(b, n->st_var[w],
			              ST_INFO(L->syms[i].global ? STB_GLOBAL : v->weak ? STB_WEAK : STB_LOCAL,
			                      STT_OBJECT), 0,
			              (uint16_t)L->s_data[var_section(v)], v->offset, v->size);
			break;
		}
		}
	}
}

/* .nv.info lists the per-function resource records in source order. */
static void build_nv_info(const Layout *L, ByteBuf *b)
{
	static const uint8_t per_function[] = {
		CUBIN_EIATTR_REGCOUNT, CUBIN_EIATTR_MAX_STACK_SIZE,
		CUBIN_EIATTR_MIN_STACK_SIZE, CUBIN_EIATTR_FRAME_SIZE,
	};
	for (size_t i = 0; i < L->nk; i++) {
		size_t p = L->nk - 1 - i;
		for (size_t r = 0; r < sizeof per_function; r++) {
			if (kernel_at(L, p)->abi_func && per_function[r] == CUBIN_EIATTR_MIN_STACK_SIZE)
				continue;
			cubin_info_record(b, CUBIN_EIFMT_SVAL, per_function[r], 8);
			cubin_buf_u32(b, (uint32_t)L->sym_func[p]);
			const CubinKernel *k = kernel_at(L, p);
			cubin_buf_u32(b, per_function[r] == CUBIN_EIATTR_REGCOUNT ? k->regcount
			         : per_function[r] == CUBIN_EIATTR_MAX_STACK_SIZE ? 0
			         : per_function[r] == CUBIN_EIATTR_MIN_STACK_SIZE && k->stack_unknown ? UINT32_MAX
			         : k->frame_size);
		}
	}
}

/* Record order observed in ptxas 11.8 output. */
static void build_nv_info_kernel(const Layout *L, size_t p, ByteBuf *b)
{
	const CubinKernel *k = kernel_at(L, p);
	uint32_t param_bytes = sass_param_bytes(k->params, k->nparams);

	cubin_info_record(b, CUBIN_EIFMT_SVAL, CUBIN_EIATTR_CUDA_API_VERSION, 4);
	cubin_buf_u32(b, CUBIN_CUDA_API_VERSION);
	cubin_info_record(b, CUBIN_EIFMT_NVAL, CUBIN_EIATTR_SW2393858_WAR, 0);
	cubin_info_record(b, CUBIN_EIFMT_NVAL, CUBIN_EIATTR_SW1850030_WAR, 0);
	if (k->abi_func) {     /* fnaddr: the externals its body calls, as ptxas -c lists them */
		cubin_extern_info(L->m, k, L->sym_extern, b);
		return;
	}
	if (k->nparams || k->nhandle_params) {
		cubin_info_record(b, CUBIN_EIFMT_SVAL, CUBIN_EIATTR_PARAM_CBANK, 8);
		cubin_buf_u32(b, (uint32_t)L->sym_const0[p]);
		cubin_buf_u16(b, SASS_PARAM_CBANK_BASE);
		cubin_buf_u16(b, (uint16_t)param_bytes);
		if (k->nparams)   /* not for handle parameters only */
			cubin_info_record(b, CUBIN_EIFMT_HVAL, CUBIN_EIATTR_CBANK_PARAM_SIZE, (uint16_t)param_bytes);
		cubin_kparam_infos(k, L->sym_handle[p], b);
	}
	if (k->explicit_caching)
		cubin_info_record(b, CUBIN_EIFMT_NVAL, CUBIN_EIATTR_EXPLICIT_CACHING, 0);
	cubin_info_record(b, CUBIN_EIFMT_HVAL, CUBIN_EIATTR_MAXREG_COUNT,
	            (uint16_t)(k->maxreg_count ? k->maxreg_count : 0xff));
	cubin_extern_info(L->m, k, L->sym_extern, b);
	if (k->uses_surfaces)
		cubin_info_record(b, CUBIN_EIFMT_BVAL, CUBIN_EIATTR_BINDLESS_SURFACE_BANK, 0);
	if (k->uses_textures)
		cubin_info_record(b, CUBIN_EIFMT_BVAL, CUBIN_EIATTR_BINDLESS_TEXTURE_BANK, 0);
	cubin_info_u32_list(b, CUBIN_EIATTR_S2RCTAID_INSTR_OFFSETS, k->ctaid_offsets, k->nctaid_offsets);
	cubin_info_u32_list(b, CUBIN_EIATTR_EXIT_INSTR_OFFSETS, k->exit_offsets, k->nexit_offsets);
	cubin_info_u32_list(b, CUBIN_EIATTR_INDIRECT_BRANCH_TARGETS, k->sync_targets,
	              k->nsync_target_words);
	if (k->uses_ctaid_z)
		cubin_info_record(b, CUBIN_EIFMT_NVAL, CUBIN_EIATTR_CTAIDZ_USED, 0);
	if (k->max_threads[0] || k->max_threads[1] || k->max_threads[2])
		cubin_info_u32_list(b, CUBIN_EIATTR_MAX_THREADS, k->max_threads, 3);
	if (k->req_ntid[0] || k->req_ntid[1] || k->req_ntid[2])
		cubin_info_u32_list(b, CUBIN_EIATTR_REQNTID, k->req_ntid, 3);
	if (k->crs_stack_size)
		cubin_info_u32_list(b, CUBIN_EIATTR_CRS_STACK_SIZE, &k->crs_stack_size, 1);
}

static void build_const2(const Layout *L, size_t p, ByteBuf *b)
{
	const CubinKernel *k = kernel_at(L, p);
	for (size_t i = 0; i < k->ndesc_fields; i++)
		cubin_buf_u32(b, k->desc_fields[i]);
}

static uint32_t const0_size(const Layout *L, size_t p)
{
	const CubinKernel *k = kernel_at(L, p);
	uint32_t size = SASS_PARAM_CBANK_BASE + sass_param_bytes(k->params, k->nparams);
	for (size_t i = 0; i < k->nslots; i++)
		if (k->slots[i].cbank_offset + 4 > size)
			size = k->slots[i].cbank_offset + 4;
	return size;
}

/* ---- placement and headers --------------------------------------------- */

enum { SHT_PROGBITS = 1, SHT_SYMTAB = 2, SHT_STRTAB = 3, SHT_RELA = 4, SHT_NOBITS = 8, SHT_REL = 9 };
enum { SHF_WRITE = 1, SHF_ALLOC = 2, SHF_EXECINSTR = 4 };
enum { PT_LOAD = 1, PT_PHDR = 6, PF_X = 1, PF_W = 2, PF_R = 4 };

static void set_section(Section *s, uint32_t name, uint32_t type, uint64_t flags,
                        uint32_t link, uint32_t info, uint64_t align, uint64_t entsize,
                        const uint8_t *data, uint64_t size)
{
	*s = (Section){ .name = name, .type = type, .flags = flags, .link = link, .info = info,
	                .align = align, .entsize = entsize, .data = data, .size = size };
}

/* Sections follow the ELF header back to back, each at its alignment
 * (NOBITS sections take no file bytes); the section headers come next
 * (8-aligned), then the program headers: PHDR, a LOAD over the constant
 * banks and code, with shared memory a RW LOAD spanning the .nv.shared
 * sections as they are laid out in memory, and a LOAD repeating PHDR. */
static bool is_global_data(const Layout *L, size_t i)
{
	return i && (i == L->s_data[CUBIN_DATA_GLOBAL_INIT] || i == L->s_data[CUBIN_DATA_GLOBAL]);
}

/* NOBITS, or -c's SHT_CUDA_GLOBAL (.nv.global, uninitialised as NOBITS) */
static bool takes_no_bytes(const Section *s)
{
	return s->type == SHT_NOBITS || s->type == CUBIN_SHT_CUDA_GLOBAL;
}

static void emit_image(const Layout *L, Section *secs, size_t nsec, ByteBuf *out)
{
	/* one RW LOAD spans .nv.global.init (its file bytes run up to the first
	 * NOBITS section's start), .nv.global and the .nv.shared sections */
	uint64_t pos = 64, rw_off = 0, rw_file = 0, rw_mem = 0;
	bool rw = false, nobits_seen = false;
	for (size_t i = 1; i < nsec; i++) {
		uint64_t a = secs[i].align;
		pos = (pos + a - 1) / a * a;
		secs[i].offset = pos;
		bool nobits = takes_no_bytes(&secs[i]);
		if (!nobits && !is_global_data(L, i)) {
			pos += secs[i].size;
			continue;
		}
		if (!rw)
			rw_off = pos;
		rw = true;
		if (!nobits) {
			pos += secs[i].size;
			rw_file = rw_mem = pos - rw_off;
			continue;
		}
		if (!nobits_seen)
			rw_file = (rw_file + a - 1) / a * a;
		nobits_seen = true;
		rw_mem = (rw_mem + a - 1) / a * a + secs[i].size;
	}
	uint64_t shoff = (pos + 7) & ~(uint64_t)7;
	uint64_t phoff = shoff + 64 * nsec;
	uint16_t phnum = (uint16_t)((L->nk ? 3 : 2) + rw);
	if (L->m->relocatable)     /* ET_REL: no program headers */
		phoff = phnum = 0;

	cubin_put_elf_header(out, L->m, phoff, shoff, phnum, (uint16_t)nsec);
	for (size_t i = 1; i < nsec; i++) {
		if (takes_no_bytes(&secs[i]))
			continue;
		cubin_buf_zeros(out, secs[i].offset - out->len);
		if (secs[i].data)
			cubin_buf_put(out, secs[i].data, secs[i].size);
		else
			cubin_buf_zeros(out, secs[i].size);
	}
	/* to shoff: a last NOBITS section (.nv.shared) aligned pos, no bytes */
	cubin_buf_zeros(out, shoff - out->len);
	for (size_t i = 0; i < nsec; i++)
		cubin_put_section_header(out, &secs[i]);
	if (phnum == 0)
		return;

	cubin_put_program_header(out, PT_PHDR, PF_R | PF_X, phoff, 56u * phnum, 56u * phnum);
	if (L->nk) {
		size_t f0 = L->s_data[CUBIN_DATA_CONST3] ? L->s_data[CUBIN_DATA_CONST3]
		          : L->s_const2[0] ? L->s_const2[0] : sec_const0(L, 0);
		const Section *first = &secs[f0];
		const Section *last = &secs[sec_text(L, L->nk - 1)];
		uint64_t span = last->offset + last->size - first->offset;
		cubin_put_program_header(out, PT_LOAD, PF_R | PF_X, first->offset, span, span);
	}
	if (rw)
		cubin_put_program_header(out, PT_LOAD, PF_R | PF_W, rw_off, rw_file, rw_mem);
	cubin_put_program_header(out, PT_LOAD, PF_R | PF_X, phoff, 56u * phnum, 56u * phnum);
}

int cubin_write(const CubinModule *m, uint8_t **out, size_t *outlen, char *err, size_t errlen)
{
	*out = NULL;
	*outlen = 0;
	if (!m)
		return cubin_fail(err, errlen, "no module");
	if (cubin_check_module(m, err, errlen))
		return -1;

	Layout L;
	layout_init(&L, m);
	Names names;
	ByteBuf shstr = { 0 }, str = { 0 }, symtab = { 0 }, nv_info = { 0 };
	build_string_tables(&L, &shstr, &str, &names);
	build_symtab(&L, &names, &symtab);
	build_nv_info(&L, &nv_info);
	size_t nk_alloc = L.nk ? L.nk : 1;
	ByteBuf *info_k = xcalloc(nk_alloc, sizeof *info_k);
	ByteBuf *rel = xcalloc(nk_alloc, sizeof *rel);
	ByteBuf *rel_text = xcalloc(nk_alloc, sizeof *rel_text);
	ByteBuf *const2 = xcalloc(nk_alloc, sizeof *const2);
	for (size_t p = 0; p < L.nk; p++) {
		build_nv_info_kernel(&L, p, &info_k[p]);
		cubin_build_rel_const0(&L, p, &rel[p]);
		cubin_build_rel_text(&L, p, &rel_text[p]);
		build_const2(&L, p, &const2[p]);
	}

	size_t nsec = L.nsec;
	Section *secs = xcalloc(nsec, sizeof *secs);
	set_section(&secs[SEC_SHSTRTAB], names.sh_shstrtab, SHT_STRTAB, 0, 0, 0, 1, 0,
	            shstr.data, shstr.len);
	set_section(&secs[SEC_STRTAB], names.sh_strtab, SHT_STRTAB, 0, 0, 0, 1, 0,
	            str.data, str.len);
	set_section(&secs[SEC_SYMTAB], names.sh_symtab, SHT_SYMTAB, 0, SEC_STRTAB,
	            (uint32_t)L.first_global, 8, 24, symtab.data, symtab.len);
	if (L.nk)
		set_section(&secs[sec_nv_info()], names.sh_nv_info, CUBIN_SHT_CUDA_INFO, 0,
		            SEC_SYMTAB, 0, 4, 0, nv_info.data, nv_info.len);
	if (!m->relocatable)
		set_section(&secs[sec_rel_action(&L)], names.sh_rel_action, CUBIN_SHT_CUDA_RELOCINFO,
		            0, 0, 0, 8, 8, cubin_nv_rel_action, CUBIN_NV_REL_ACTION_SIZE);
	for (size_t p = 0; p < L.nk; p++) {
		const CubinKernel *k = kernel_at(&L, p);
		uint32_t text = (uint32_t)sec_text(&L, p);
		set_section(&secs[sec_nv_info_k(p)], names.sh_info_k[p], CUBIN_SHT_CUDA_INFO, 0,
		            SEC_SYMTAB, text, 4, 0, info_k[p].data, info_k[p].len);
		if (k->nslots)
			set_section(&secs[L.s_rel_const0[p]], names.sh_rel[p], SHT_REL, 0,
			            SEC_SYMTAB, (uint32_t)sec_const0(&L, p), 8, 16,
			            rel[p].data, rel[p].len);
		if (has_rel_text(k))
			set_section(&secs[L.s_rel_text[p]], names.sh_rel_text[p], SHT_REL, 0,
			            SEC_SYMTAB, text, 8, 16, rel_text[p].data, rel_text[p].len);
		/* -c: the SHT_CUDA_CONSTANT types, a pool with an FP64 pair 8-aligned */
		if (has_const2(k))
			set_section(&secs[L.s_const2[p]], names.sh_const2[p],
			            m->relocatable ? CUBIN_SHT_CUDA_CONSTANT2 : SHT_PROGBITS, SHF_ALLOC, 0, text,
			            m->relocatable && reads_pair(k) ? 8 : 4, 0, const2[p].data, const2[p].len);
		if (!k->abi_func)
			set_section(&secs[sec_const0(&L, p)], names.sh_const0[p],
			            m->relocatable ? CUBIN_SHT_CUDA_CONSTANT0 : SHT_PROGBITS, SHF_ALLOC,
			            0, text, 4, 0, NULL, const0_size(&L, p));
		set_section(&secs[text], names.sh_text[p], SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR,
		            SEC_SYMTAB, (k->regcount << 24) | (uint32_t)L.sym_func[p], 32, 0,
		            k->code, k->code_size);
		if (k->shared_align)
			set_section(&secs[L.s_shared[p]], names.sh_shared[p], SHT_NOBITS, SHF_WRITE | SHF_ALLOC,
			            0, text, k->shared_align, 0, NULL, k->shared_size);
	}

	uint8_t *data_bytes[3] = { NULL, NULL, NULL }, *ginit_rel[2] = { NULL, NULL };
	for (int d = 0; d < 3; d++) {
		if (!L.s_data[d])
			continue;
		uint64_t size, align;
		cubin_data_extent(m, (CubinDataSection)d, &size, &align);
		data_bytes[d] = d == CUBIN_DATA_GLOBAL ? NULL : cubin_data_bytes(m, (CubinDataSection)d, size);
		/* -c: SHT_CUDA_CONSTANT3, SHT_CUDA_GLOBAL_INIT, SHT_CUDA_GLOBAL, as ptxas -c */
		static const uint32_t reloc_type[3] = { CUBIN_SHT_CUDA_CONSTANT3, CUBIN_SHT_CUDA_GLOBAL_INIT,
		                                        CUBIN_SHT_CUDA_GLOBAL };
		set_section(&secs[L.s_data[d]], names.sh_data[d],
		            m->relocatable ? reloc_type[d] : d == CUBIN_DATA_GLOBAL ? SHT_NOBITS : SHT_PROGBITS,
		            d == CUBIN_DATA_CONST3 ? SHF_ALLOC : SHF_WRITE | SHF_ALLOC, 0, 0, align, 0,
		            data_bytes[d], size);
	}
	for (int rela = 0; rela <= 1; rela++) {
		size_t sec = rela ? L.s_rela_ginit : L.s_rel_ginit, len;
		if (!sec)
			continue;
		ginit_rel[rela] = cubin_init_relocs(m, L.sym_var, L.sym_fnaddr, rela, &len);
		set_section(&secs[sec], rela ? names.sh_rela_ginit : names.sh_rel_ginit, rela ? SHT_RELA : SHT_REL,
		            0, SEC_SYMTAB, (uint32_t)L.s_data[CUBIN_DATA_GLOBAL_INIT], 8, rela ? 24 : 16,
		            ginit_rel[rela], len);
	}

	ByteBuf graph = { 0 }, proto = { 0 };
	if (m->relocatable) {
		cubin_extern_callgraph(m, L.sym_func, L.nk, L.sym_extern, L.sym_fnaddr, names.st_ill, &graph,
		                       &proto);
		set_section(&secs[L.s_callgraph], names.sh_callgraph, CUBIN_SHT_CUDA_CALLGRAPH, 0, SEC_SYMTAB, 0, 4, 8,
		            graph.data, graph.len);
		if (L.s_proto)
			set_section(&secs[L.s_proto], names.sh_proto, CUBIN_SHT_CUDA_PROTOTYPE, 0, SEC_SYMTAB, 0, 4, 8,
			            proto.data, proto.len);
	}
	ByteBuf image = { 0 };
	emit_image(&L, secs, nsec, &image);
	free(graph.data);
	free(proto.data);
	for (int d = 0; d < 3; d++)
		free(data_bytes[d]);
	free(ginit_rel[0]);
	free(ginit_rel[1]);

	for (size_t p = 0; p < L.nk; p++) {
		free(info_k[p].data);
		free(rel[p].data);
		free(rel_text[p].data);
		free(const2[p].data);
	}
	free(info_k);
	free(rel);
	free(rel_text);
	free(const2);
	free(secs);
	free(shstr.data);
	free(shstr.index);
	free(str.data);
	free(str.index);
	free(symtab.data);
	free(nv_info.data);
	names_free(&names, L.nk ? L.nk : 1);
	layout_free(&L);

	*out = image.data;
	*outlen = image.len;
	return 0;
}
