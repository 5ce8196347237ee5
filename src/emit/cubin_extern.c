/* What a relocatable object (-c) adds for its calls of external functions,
 * as ptxas 11.8 -c writes it: R_CUDA_ABS32_20 on each JCAL, EIATTR_EXTERNS
 * per kernel, and the call graph (.nv.callgraph: {0,-1}, then a
 * {caller, callee} pair per kernel and external function it calls, then
 * {0,-2}, a {kernel, 0} pair per kernel whose address is taken and a
 * {function, prototype} pair per function whose address is taken, then
 * {0,-3}) with a prototype per external function
 * (.nv.prototype: {symbol, .strtab offset of its prototype string, e.g.
 * "#lil"}). Also the symbols of the functions whose address is relocated
 * (fnaddr), and which external functions each kernel creates the symbols
 * of. */
#include "emit/cubin_internal.h"

#include "base/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void cubin_extern_rel_text(const CubinKernel *k, const size_t *sym_extern, ByteBuf *b)
{
	for (size_t i = 0; i < k->nextern_calls; i++) {
		const CubinDataFixup *f = &k->extern_calls[i];
		cubin_buf_u64(b, f->offset);
		cubin_buf_u64(b, ((uint64_t)sym_extern[f->var] << 32) | CUBIN_R_CUDA_ABS32_20);
	}
}

/* Whether k calls external function e. */
static bool calls_extern(const CubinKernel *k, size_t e)
{
	for (size_t i = 0; i < k->nextern_calls; i++)
		if (k->extern_calls[i].var == e)
			return true;
	return false;
}

ptrdiff_t cubin_extern_definition(const CubinModule *m, size_t e)
{
	for (size_t q = 0; q < m->nkernels; q++)
		if (m->kernels[q].abi_func && strcmp(m->kernels[q].name, m->externs[e]) == 0)
			return (ptrdiff_t)q;
	return -1;
}

/* Whether a call of e has no .nv.prototype entry: e is a LOCAL function
 * of the module (ptxas -c writes one for a .visible or .weak one, which
 * another module may define instead). */
static bool local_definition(const CubinModule *m, size_t e)
{
	ptrdiff_t q = cubin_extern_definition(m, e);
	return q >= 0 && m->kernels[q].local_symbol;
}

bool *cubin_externs_defined(const CubinModule *m)
{
	bool *defined = xcalloc(m->nexterns + 1, sizeof *defined);
	for (size_t e = 0; e < m->nexterns; e++)
		defined[e] = cubin_extern_definition(m, e) >= 0;
	return defined;
}

/* Whether k calls external function e or takes its address (fnaddr); a
 * function the module defines is no external one (EIATTR_EXTERNS). */
static bool uses_extern(const CubinModule *m, const CubinKernel *k, size_t e)
{
	if (cubin_extern_definition(m, e) >= 0)
		return false;
	for (size_t i = 0; i < k->ndata_fixups; i++)
		if ((k->data_fixups[i].fnaddr && strcmp(m->func_addrs[k->data_fixups[i].var], m->externs[e]) == 0) ||
		    (k->data_fixups[i].extern_entry && k->data_fixups[i].var == e))
			return true;
	return calls_extern(k, e);
}

ptrdiff_t cubin_proto_index(const CubinModule *m, const char *name)
{
	for (size_t i = 0; i < m->nprotos; i++)
		if (strcmp(m->protos[i].name, name) == 0)
			return (ptrdiff_t)i;
	return -1;
}

size_t cubin_kernel_externs(const CubinModule *m, const CubinKernel *k, bool *done, size_t *out)
{
	size_t n = 0;
	for (size_t i = 0; i < m->nprotos; i++)
		for (size_t e = 0; e < m->nexterns; e++)
			if (!done[e] && strcmp(m->protos[i].name, m->externs[e]) == 0 && uses_extern(m, k, e)) {
				done[e] = true;
				out[n++] = e;
			}
	return n;
}

/* Whether kernel q is a .visible or .weak function of its own: ptxas -c
 * writes its prototype, called or not (another module may call it). */
static bool global_function(const CubinModule *m, size_t q)
{
	return m->kernels[q].abi_func && !m->kernels[q].local_symbol;
}

bool cubin_writes_prototypes(const CubinModule *m)
{
	for (size_t q = 0; q < m->nkernels; q++)
		if (global_function(m, q))
			return true;
	for (size_t q = 0; q < m->nkernels; q++)
		for (size_t i = 0; i < m->kernels[q].nextern_calls; i++)
			if (!local_definition(m, m->kernels[q].extern_calls[i].var))
				return true;
	return false;
}

bool cubin_has_prototype(const CubinModule *m, const char *name)
{
	for (size_t q = 0; q < m->nkernels; q++)
		if (global_function(m, q) && strcmp(m->kernels[q].name, name) == 0)
			return true;
	for (size_t i = 0; i < m->nfunc_addrs; i++)
		if (strcmp(m->func_addrs[i], name) == 0)
			return true;
	for (size_t e = 0; e < m->nexterns; e++)
		for (size_t q = 0; q < m->nkernels; q++)
			if (strcmp(m->externs[e], name) == 0 && calls_extern(&m->kernels[q], e) &&
			    !local_definition(m, e))
				return true;
	return false;
}

/* -c: whether k takes the address of kernel q of the module (a device-side
 * launch: ptxas 11.8 -c lists it with the external functions and puts a
 * {kernel, 0} pair in the call graph, as for an undefined kernel). */
bool cubin_takes_kernels(const CubinModule *m, const CubinKernel *k)
{
	if (!m->relocatable)
		return false;
	for (size_t i = 0; i < k->ndata_fixups; i++)
		if (k->data_fixups[i].func)
			return true;
	return false;
}

bool cubin_takes_kernel(const CubinModule *m, const CubinKernel *k, size_t q)
{
	if (!m->relocatable || m->kernels[q].abi_func)
		return false;
	for (size_t i = 0; i < k->ndata_fixups; i++)
		if (k->data_fixups[i].func && k->data_fixups[i].var == q)
			return true;
	return false;
}

static int by_value(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

void cubin_extern_info(const CubinModule *m, const CubinKernel *k, const size_t *sym_extern, const size_t *sym_func,
                       size_t nk, ByteBuf *b)
{
	size_t *syms = xcalloc(m->nexterns + m->nkernels + 1, sizeof *syms), n = 0;
	for (size_t e = 0; e < m->nexterns; e++)
		if (uses_extern(m, k, e))
			syms[n++] = sym_extern[e];
	for (size_t q = 0; q < m->nkernels && cubin_takes_kernels(m, k); q++)
		if (cubin_takes_kernel(m, k, q))
			syms[n++] = sym_func[nk - 1 - q];     /* processed last to first */
	if (n > 0) {
		/* in symbol order, as ptxas lists them */
		qsort(syms, n, sizeof *syms, by_value);
		cubin_info_record(b, CUBIN_EIFMT_SVAL, CUBIN_EIATTR_EXTERNS, (uint16_t)(4 * n));
		for (size_t j = 0; j < n; j++)
			cubin_buf_u32(b, (uint32_t)syms[j]);
	}
	free(syms);
}

static void pair(ByteBuf *b, uint32_t x, uint32_t y)
{
	cubin_buf_u32(b, x);
	cubin_buf_u32(b, y);
}

void cubin_extern_callgraph(const CubinModule *m, const size_t *sym_func, size_t nk, const size_t *sym_extern,
                            const size_t *sym_fnaddr, const uint32_t *proto_name, ByteBuf *graph, ByteBuf *proto)
{
	pair(graph, 0, (uint32_t)-1);
	for (size_t p = 0; p < nk; p++)
		for (size_t e = 0; e < m->nexterns; e++)
			if (calls_extern(&m->kernels[nk - 1 - p], e))
				pair(graph, (uint32_t)sym_func[p], (uint32_t)sym_extern[e]);
	pair(graph, 0, (uint32_t)-2);
	/* fnaddr: every function whose address is taken, with its prototype
	 * (ptxas's order: those the code takes, then the initialisers', last
	 * first) */
	bool *listed = xcalloc(m->nfunc_addrs + 1, sizeof *listed);
	bool *entry_listed = xcalloc(m->nexterns + 1, sizeof *entry_listed);
	bool *kernel_listed = xcalloc(m->nkernels + 1, sizeof *kernel_listed);
	for (size_t q = 0; q < nk; q++)
		for (size_t i = 0; i < m->kernels[q].ndata_fixups; i++) {
			const CubinDataFixup *f = &m->kernels[q].data_fixups[i];
			if (f->extern_entry && !entry_listed[f->var])   /* a kernel: no prototype (0) */
				pair(graph, (uint32_t)sym_extern[f->var], 0);
			if (f->extern_entry)
				entry_listed[f->var] = true;
			if (f->func && cubin_takes_kernel(m, &m->kernels[q], f->var) && !kernel_listed[f->var]) {
				pair(graph, (uint32_t)sym_func[nk - 1 - f->var], 0);
				kernel_listed[f->var] = true;
			}
			if (!f->fnaddr)    /* var names a data variable or an undefined kernel then */
				continue;
			if (!listed[f->var])
				pair(graph, (uint32_t)sym_fnaddr[f->var], proto_name[m->nexterns + f->var]);
			listed[f->var] = true;
		}
	for (size_t v = m->nvars; v-- > 0;)
		for (size_t r = m->vars[v].nrelocs; r-- > 0;) {
			const CubinInitReloc *x = &m->vars[v].relocs[r];
			if (!x->func)
				continue;
			if (!listed[x->var])
				pair(graph, (uint32_t)sym_fnaddr[x->var], proto_name[m->nexterns + x->var]);
			listed[x->var] = true;
		}
	free(listed);
	free(entry_listed);
	free(kernel_listed);
	pair(graph, 0, (uint32_t)-3);
	for (size_t e = 0; e < m->nexterns; e++) {
		/* an address only needs no prototype, nor a call of a LOCAL
		 * function of the module */
		bool called = false;
		if (local_definition(m, e))
			continue;
		for (size_t q = 0; q < nk && !called; q++)
			called = calls_extern(&m->kernels[q], e);
		if (called)
			pair(proto, (uint32_t)sym_extern[e], proto_name[e]);
	}
	/* a .visible/.weak function of its own nothing here calls */
	for (size_t p = 0; p < nk; p++) {
		size_t q = nk - 1 - p;
		bool called = false;
		for (size_t e = 0; e < m->nexterns && !called; e++)
			if (cubin_extern_definition(m, e) == (ptrdiff_t)q)
				for (size_t c = 0; c < nk && !called; c++)
					called = calls_extern(&m->kernels[c], e);
		if (global_function(m, q) && !called)
			pair(proto, (uint32_t)sym_func[p], proto_name[m->nexterns + m->nfunc_addrs + q]);
	}
}

size_t *cubin_fnaddr_symbols(const CubinModule *m, const size_t *sym_func, size_t nk, const size_t *sym_extern)
{
	size_t *sym = xcalloc(m->nfunc_addrs + 1, sizeof *sym);
	for (size_t i = 0; i < m->nfunc_addrs; i++) {
		for (size_t q = 0; q < nk; q++)
			if (m->kernels[q].abi_func && strcmp(m->kernels[q].name, m->func_addrs[i]) == 0)
				sym[i] = sym_func[nk - 1 - q];     /* processed last to first */
		for (size_t e = 0; e < m->nexterns && !sym[i]; e++)
			if (strcmp(m->externs[e], m->func_addrs[i]) == 0)
				sym[i] = sym_extern[e];
	}
	return sym;
}

bool cubin_fnaddr_rel(const CubinDataFixup *f, const size_t *sym_fnaddr, const size_t *sym_extern, ByteBuf *b)
{
	if (f->fnaddr)
		cubin_buf_u64(b, ((uint64_t)sym_fnaddr[f->var] << 32) |
		                 (f->hi ? CUBIN_R_CUDA_ABS32_HI_32 : CUBIN_R_CUDA_ABS32_LO_32));
	else if (f->extern_entry)    /* an undefined kernel's address */
		cubin_buf_u64(b, ((uint64_t)sym_extern[f->var] << 32) |
		                 (f->hi ? CUBIN_R_CUDA_FUNC_DESC32_HI_32 : CUBIN_R_CUDA_FUNC_DESC32_LO_32));
	return f->fnaddr || f->extern_entry;
}
