/* The writer's .nv.info (per-function resources), .nv.info.<k> (each
 * kernel's attributes) and .nv.constant2.<k> (its constant pool). */
#include "emit/cubin_layout.h"
#include "base/xalloc.h"

#include <stdlib.h>

/* .nv.info lists the per-function resource records in source order. */
void cubin_build_nv_info(const Layout *L, ByteBuf *b)
{
	static const uint8_t per_function[] = {
		CUBIN_EIATTR_REGCOUNT, CUBIN_EIATTR_MAX_STACK_SIZE,
		CUBIN_EIATTR_MIN_STACK_SIZE, CUBIN_EIATTR_FRAME_SIZE,
	};
	for (size_t i = 0; i < L->nk; i++) {
		size_t p = L->nk - 1 - i;
		for (size_t r = 0; r < sizeof per_function; r++) {
			/* ptxas -c writes no minimum stack size */
			if ((L->m->relocatable || kernel_at(L, p)->abi_func) && per_function[r] == CUBIN_EIATTR_MIN_STACK_SIZE)
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

/* EIATTR_INDIRECT_BRANCH_TARGETS, entries {offset, 0, n, n targets}: a
 * record's size is 16 bits, so a long list is cut between entries into
 * pieces of at most 0xffff bytes, and ptxas 11.8 writes the last piece
 * first (probed on a 1 MB kernel with 8,472 one-target entries: records
 * of 282, 4,095 and 4,095 entries, the first holding the highest
 * offsets). cubin_check has made sure every entry fits a record. */
static void branch_target_records(ByteBuf *b, const uint32_t *w, size_t n)
{
	size_t npieces = 0, *start = xmalloc((n / 4 + 2) * sizeof *start);
	for (size_t i = 0; i < n;) {
		size_t at = i;
		do
			i += 3 + w[i + 2];
		while (i < n && i + 3 + w[i + 2] - at <= CUBIN_INFO_MAX_WORDS);
		start[npieces++] = at;
	}
	start[npieces] = n;
	for (size_t p = npieces; p-- > 0;)
		cubin_info_u32_list(b, CUBIN_EIATTR_INDIRECT_BRANCH_TARGETS, w + start[p], start[p + 1] - start[p]);
	free(start);
}

/* Record order observed in ptxas 11.8 output. */
void cubin_build_nv_info_kernel(const Layout *L, size_t p, ByteBuf *b)
{
	const CubinKernel *k = kernel_at(L, p);
	uint32_t param_bytes = sass_param_bytes(k->params, k->nparams);

	cubin_info_record(b, CUBIN_EIFMT_SVAL, CUBIN_EIATTR_CUDA_API_VERSION, 4);
	cubin_buf_u32(b, CUBIN_CUDA_API_VERSION);
	cubin_info_record(b, CUBIN_EIFMT_NVAL, CUBIN_EIATTR_SW2393858_WAR, 0);
	cubin_info_record(b, CUBIN_EIFMT_NVAL, CUBIN_EIATTR_SW1850030_WAR, 0);
	if (k->abi_func) {     /* fnaddr: the externals its body calls, as ptxas -c lists them */
		cubin_extern_info(L->m, k, L->sym_extern, L->sym_func, L->nk, b);
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
	cubin_extern_info(L->m, k, L->sym_extern, L->sym_func, L->nk, b);
	if (k->uses_surfaces)
		cubin_info_record(b, CUBIN_EIFMT_BVAL, CUBIN_EIATTR_BINDLESS_SURFACE_BANK, 0);
	if (k->uses_textures)
		cubin_info_record(b, CUBIN_EIFMT_BVAL, CUBIN_EIATTR_BINDLESS_TEXTURE_BANK, 0);
	if (k->uses_surfaces && L->m->relocatable)   /* ptxas -c records the surface bank twice */
		cubin_info_record(b, CUBIN_EIFMT_BVAL, CUBIN_EIATTR_BINDLESS_SURFACE_BANK, 0);
	cubin_info_u32_list(b, CUBIN_EIATTR_S2RCTAID_INSTR_OFFSETS, k->ctaid_offsets, k->nctaid_offsets);
	cubin_info_u32_list(b, CUBIN_EIATTR_EXIT_INSTR_OFFSETS, k->exit_offsets, k->nexit_offsets);
	branch_target_records(b, k->sync_targets, k->nsync_target_words);
	if (k->uses_ctaid_z)
		cubin_info_record(b, CUBIN_EIFMT_NVAL, CUBIN_EIATTR_CTAIDZ_USED, 0);
	if (k->max_threads[0] || k->max_threads[1] || k->max_threads[2])
		cubin_info_u32_list(b, CUBIN_EIATTR_MAX_THREADS, k->max_threads, 3);
	if (k->req_ntid[0] || k->req_ntid[1] || k->req_ntid[2])
		cubin_info_u32_list(b, CUBIN_EIATTR_REQNTID, k->req_ntid, 3);
	if (k->crs_stack_size)
		cubin_info_u32_list(b, CUBIN_EIATTR_CRS_STACK_SIZE, &k->crs_stack_size, 1);
}

void cubin_build_const2(const Layout *L, size_t p, ByteBuf *b)
{
	const CubinKernel *k = kernel_at(L, p);
	for (size_t i = 0; i < k->ndesc_fields; i++)
		cubin_buf_u32(b, k->desc_fields[i]);
}
