/* The writer's plan of an image: the section numbering and the symbol
 * table's order (ptxas's creation order, locals before globals), the
 * bound surfrefs' symbol order and each kernel's slots and pool operands. */
#include "emit/cubin_layout.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* -c: ptxas 11.8 -c writes no .nv.rel.action; .nv.callgraph takes its
 * place, then .nv.prototype when it has an entry: a called external
 * function, a .visible/.weak .func of the module (an address taken, of a
 * LOCAL .func, an external function or a kernel, writes no .nv.prototype,
 * not even an empty one). */
static bool has_prototype(const CubinModule *m)
{
	return cubin_writes_prototypes(m);
}

typedef struct DataOrder {
	int sec[CUBIN_DATA_SECTIONS];
	size_t n;
} DataOrder;

static void data_section_created(void *arg, ptrdiff_t var, int sec)
{
	DataOrder *o = arg;
	if (var < 0 && sec != CUBIN_DATA_CONST3)
		o->sec[o->n++] = sec;
}

/* -c, as ptxas 11.8 -c numbers them: the first processed kernel's
 * .nv.shared.<k> and the writable data sections in the order their
 * symbols are created (.nv.global, .nv.global.init, .nv_debug.shared),
 * by falling alignment (stable), then the other kernels' .nv.shared.<k>.
 * Returns the next section number. */
static size_t number_relocatable_data(Layout *L, size_t next)
{
	DataOrder o = { .n = 0 };
	bool seen[CUBIN_DATA_SECTIONS] = { false };
	cubin_walk_data_symbols(L->m, 1, seen, data_section_created, &o);
	cubin_walk_data_symbols(L->m, 0, seen, data_section_created, &o);
	/* -1: the first processed kernel's .nv.shared */
	int sec[CUBIN_DATA_SECTIONS + 1];
	uint64_t align[CUBIN_DATA_SECTIONS + 1];
	size_t n = 0;
	if (L->nk && kernel_at(L, 0)->shared_align) {
		sec[n] = -1;
		align[n++] = kernel_at(L, 0)->shared_align;
	}
	for (size_t i = 0; i < o.n; i++) {
		uint64_t size, a;
		cubin_data_extent(L->m, (CubinDataSection)o.sec[i], &size, &a);
		size_t j = n++;
		for (; j > 0 && align[j - 1] < a; j--) {
			sec[j] = sec[j - 1];
			align[j] = align[j - 1];
		}
		sec[j] = o.sec[i];
		align[j] = a;
	}
	for (size_t i = 0; i < n; i++) {
		if (sec[i] < 0)
			L->s_shared[0] = next++;
		else
			L->s_data[sec[i]] = next++;
	}
	for (size_t p = 1; p < L->nk; p++)
		if (kernel_at(L, p)->shared_align)
			L->s_shared[p] = next++;
	return next;
}

/* After .nv.rel.action: .rel.text.<k> of the kernels with a descriptor
 * lookup, .rel.nv.constant0.<k> of the kernels with surface slots, then
 * per kernel .nv.constant2.<k> (constant pool only) and .nv.constant0.<k>, then
 * every .text.<k>, then the .nv.shared.<k> of the kernels with static
 * shared memory; each group in processing order. */
static void number_sections(Layout *L)
{
	size_t nk = L->nk ? L->nk : 1;
	L->s_rel_text = xcalloc(nk, sizeof *L->s_rel_text);
	L->s_rela_text = xcalloc(nk, sizeof *L->s_rela_text);
	L->s_rel_const0 = xcalloc(nk, sizeof *L->s_rel_const0);
	L->s_const2 = xcalloc(nk, sizeof *L->s_const2);
	L->s_const0 = xcalloc(nk, sizeof *L->s_const0);
	L->s_text = xcalloc(nk, sizeof *L->s_text);
	size_t next = sec_rel_action(L) + 1;
	if (L->m->relocatable) {
		L->s_callgraph = sec_rel_action(L);
		L->s_proto = has_prototype(L->m) ? next++ : 0;
	}
	for (size_t p = 0; p < L->nk; p++) {
		const CubinKernel *k = kernel_at(L, p);
		bool rela_first = cubin_rela_text_first(k);
		if (has_rela_text(k) && rela_first)
			L->s_rela_text[p] = next++;
		if (has_rel_text(k))
			L->s_rel_text[p] = next++;
		if (has_rela_text(k) && !rela_first)
			L->s_rela_text[p] = next++;
	}
	int order[4];
	for (size_t i = 0, n = cubin_init_reloc_order(L->m, order); i < n; i++)
		*cubin_init_rel_section(L, order[i]) = next++;
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
	if (L->m->relocatable) {
		next = number_relocatable_data(L, next);
		L->nsec = next;
		return;
	}
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


static void plan_symbol(SymPlan *created, size_t *n, SymKind kind, size_t which, bool global)
{
	created[(*n)++] = (SymPlan){ .kind = kind, .which = which, .global = global };
}

/* Module variables as ptxas creates their symbols: the .visible ones (pass
 * 1; the surfrefs follow them), then the others (pass 0, .extern and
 * .common ones too), in declaration order, each after its section's symbol
 * when that is new (seen[] carries over from pass 1 to pass 0). f(var, -1)
 * is a variable, f(-1, section) a section symbol. */
void cubin_walk_data_symbols(const CubinModule *m, int pass, bool seen[CUBIN_DATA_SECTIONS],
                             void (*f)(void *, ptrdiff_t, int), void *arg)
{
	/* declaration order: by decl, stable */
	size_t *order = xmalloc((m->nvars + 1) * sizeof *order);
	for (size_t i = 0; i < m->nvars; i++) {
		size_t j = i;
		for (; j > 0 && m->vars[order[j - 1]].decl > m->vars[i].decl; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (int visible = pass; visible == pass; visible = -1)
		for (size_t o = 0; o < m->nvars; o++) {
			size_t i = order[o];
			const CubinVar *v = &m->vars[i];
			if (v->visible != (bool)visible || v->kernel_body)   /* those with their kernel */
				continue;
			CubinDataSection d = var_section(v);
			if (!cubin_var_in(v, d))    /* -c: an .extern .shared one: undefined */
				;
			else if (!seen[d])
				f(arg, -1, (int)d);
			seen[d] |= cubin_var_in(v, d);
			f(arg, (ptrdiff_t)i, -1);
		}
	free(order);
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
	bool seen[CUBIN_DATA_SECTIONS] = { false };
	PlanArg pa = { L->m, created, &n };
	bool *extern_done = cubin_externs_defined(L->m);   /* a defined one: no name of its own */
	size_t *externs = xcalloc(L->m->nexterns + 1, sizeof *externs);
	bool *func_planned = xcalloc(L->nk + 1, sizeof *func_planned);
	for (size_t p = 0; p < L->nk; p++) {
		if (!func_planned[p])
			plan_symbol(created, &n, SYM_FUNC, p, !kernel_at(L, p)->local_symbol && !kernel_at(L, p)->weak_symbol);
		func_planned[p] = true;
		plan_symbol(created, &n, SYM_TEXT, p, false);
		if (kernel_at(L, p)->shared_size)   /* an empty one has none */
			plan_symbol(created, &n, SYM_SHARED, p, false);
		for (size_t j = 0; j < kernel_at(L, p)->nhandle_params; j++)
			plan_symbol(created, &n, SYM_HANDLE, p, false);
		if (p == 0) {
			cubin_walk_data_symbols(L->m, 1, seen, plan_data_symbol, &pa);
			for (size_t j = 0; j < L->ns; j++)
				plan_symbol(created, &n, SYM_SURFREF, j, true);
			cubin_walk_data_symbols(L->m, 0, seen, plan_data_symbol, &pa);
		}
		for (size_t v = 0; v < L->m->nvars; v++)   /* -c: the kernel body's .shared variables */
			if (L->m->vars[v].kernel_body == L->nk - p)
				plan_symbol(created, &n, SYM_VAR, v, false);
		for (size_t j = 0, ne = cubin_kernel_externs(L->m, kernel_at(L, p), extern_done, externs); j < ne; j++)
			plan_symbol(created, &n, SYM_EXTERN, externs[j], true);
		/* -c: a kernel it launches gets its symbol here, as ptxas -c
		 * creates it (in source order) */
		for (size_t q = 0; q < L->nk && cubin_takes_kernels(L->m, kernel_at(L, p)); q++) {
			size_t pq = L->nk - 1 - q;      /* processed last to first */
			if (cubin_takes_kernel(L->m, kernel_at(L, p), q) && !func_planned[pq]) {
				plan_symbol(created, &n, SYM_FUNC, pq, !kernel_at(L, pq)->local_symbol &&
				            !kernel_at(L, pq)->weak_symbol);
				func_planned[pq] = true;
			}
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
		cubin_walk_data_symbols(L->m, 1, seen, plan_data_symbol, &pa);
		for (size_t j = 0; j < L->ns; j++)
			plan_symbol(created, &n, SYM_SURFREF, j, true);
		cubin_walk_data_symbols(L->m, 0, seen, plan_data_symbol, &pa);
	}
	if (!L->m->relocatable)
		plan_symbol(created, &n, SYM_REL_ACTION, 0, false);
	if (L->m->relocatable)
		plan_symbol(created, &n, SYM_CALLGRAPH, 0, false);
	if (L->s_proto)
		plan_symbol(created, &n, SYM_PROTO, 0, false);
	for (size_t e = 0; e < L->m->nexterns; e++)
		if (!extern_done[e])
			plan_symbol(created, &n, SYM_EXTERN, e, true);
	free(extern_done);
	free(externs);
	free(func_planned);

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
	for (size_t e = 0; e < L->m->nexterns; e++) {    /* -c: a called .func of the module */
		ptrdiff_t q = cubin_extern_definition(L->m, e);
		if (q >= 0)
			L->sym_extern[e] = L->sym_func[L->nk - 1 - (size_t)q];   /* processed last to first */
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

void cubin_layout_init(Layout *L, const CubinModule *m)
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
		const CubinKernel *k0 = kernel_at(L, 0);
		size_t nslots = k0->nslots + k0->nbound_slots;
		CubinSurfaceSlot *used = xmalloc((nslots ? nslots : 1) * sizeof *used);
		if (k0->nslots)
			memcpy(used, L->slots[0], k0->nslots * sizeof *used);
		if (k0->nbound_slots)
			memcpy(used + k0->nslots, k0->bound_slots, k0->nbound_slots * sizeof *used);
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

void cubin_layout_free(Layout *L)
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
	free(L->s_rela_text);
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

uint32_t cubin_const0_size(const Layout *L, size_t p)
{
	const CubinKernel *k = kernel_at(L, p);
	uint32_t size = SASS_PARAM_CBANK_BASE + sass_param_bytes(k->params, k->nparams);
	for (size_t i = 0; i < k->nslots; i++)
		if (k->slots[i].cbank_offset + 4 > size)
			size = k->slots[i].cbank_offset + 4;
	return size;
}
