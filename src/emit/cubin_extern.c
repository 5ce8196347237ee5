/* What a relocatable object (-c) adds for its calls of external functions,
 * as ptxas 11.8 -c writes it: R_CUDA_ABS32_20 on each JCAL, EIATTR_EXTERNS
 * per kernel, and the call graph (.nv.callgraph: {0,-1}, then a
 * {caller, callee} pair per kernel and external function it calls, then
 * {0,-2} and {0,-3}) with a prototype per external function
 * (.nv.prototype: {symbol, .strtab offset of "#ill"}, ptxas's word for a
 * prototype it does not describe). */
#include "emit/cubin_internal.h"

#include "base/xalloc.h"

#include <stdlib.h>

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

void cubin_extern_info(const CubinModule *m, const CubinKernel *k, const size_t *sym_extern, ByteBuf *b)
{
	size_t n = 0;
	for (size_t e = 0; e < m->nexterns; e++)
		n += calls_extern(k, e);
	if (n == 0)
		return;
	cubin_info_record(b, CUBIN_EIFMT_SVAL, CUBIN_EIATTR_EXTERNS, (uint16_t)(4 * n));
	for (size_t e = 0; e < m->nexterns; e++)
		if (calls_extern(k, e))
			cubin_buf_u32(b, (uint32_t)sym_extern[e]);
}

static void pair(ByteBuf *b, uint32_t x, uint32_t y)
{
	cubin_buf_u32(b, x);
	cubin_buf_u32(b, y);
}

void cubin_extern_callgraph(const CubinModule *m, const size_t *sym_func, size_t nk, const size_t *sym_extern,
                            uint32_t ill_name, ByteBuf *graph, ByteBuf *proto)
{
	pair(graph, 0, (uint32_t)-1);
	for (size_t p = 0; p < nk; p++)
		for (size_t e = 0; e < m->nexterns; e++)
			if (calls_extern(&m->kernels[nk - 1 - p], e))
				pair(graph, (uint32_t)sym_func[p], (uint32_t)sym_extern[e]);
	pair(graph, 0, (uint32_t)-2);
	pair(graph, 0, (uint32_t)-3);
	for (size_t e = 0; e < m->nexterns; e++)
		pair(proto, (uint32_t)sym_extern[e], ill_name);
}
