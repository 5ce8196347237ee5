/* Kernel parameters in the cubin: the EIATTR_KPARAM_INFO records of the
 * data parameters and of the texmode-independent handle parameters
 * (.param .texref/.samplerref/.surfref), and what a handle parameter's
 * symbol and slot relocations are, as ptxas 11.8 writes them for sm_50. */
#include "emit/cubin_internal.h"

#include <string.h>

ptrdiff_t cubin_handle_index(const CubinKernel *k, const char *name)
{
	for (size_t i = 0; i < k->nhandle_params; i++)
		if (strcmp(k->handle_params[i].name, name) == 0)
			return (ptrdiff_t)i;
	return -1;
}

uint8_t cubin_handle_symbol_type(uint8_t space)
{
	return space == CUBIN_HANDLE_TEXREF ? CUBIN_STT_CUDA_TEXTURE
	     : space == CUBIN_HANDLE_SAMPLERREF ? CUBIN_STT_CUDA_SAMPLER : CUBIN_STT_CUDA_SURFACE;
}

uint32_t cubin_handle_reloc_type(uint8_t space)
{
	return space == CUBIN_HANDLE_TEXREF ? CUBIN_R_CUDA_TEX_HEADER_INDEX
	     : space == CUBIN_HANDLE_SAMPLERREF ? CUBIN_R_CUDA_SAMP_HEADER_INDEX : CUBIN_R_CUDA_SURF_HEADER_INDEX;
}

static void kparam_record(ByteBuf *b, uint32_t sym, uint32_t ordinal, uint16_t offset, uint32_t size, uint32_t space)
{
	cubin_info_record(b, CUBIN_EIFMT_SVAL, CUBIN_EIATTR_KPARAM_INFO, 12);
	cubin_buf_u32(b, sym);                    /* a handle's symbol, else 0 */
	cubin_buf_u16(b, (uint16_t)ordinal);
	cubin_buf_u16(b, offset);
	/* size in bits 31:18, 0x1f in 16:12 (constant bank 0, as ptxas writes
	 * every parameter), the handle's space in 11:8 */
	cubin_buf_u32(b, (size << 18) | (0x1fu << 12) | (space << 8));
}

/* Last ordinal first; a handle parameter's offset is 0xffff and its index
 * its symbol's. */
void cubin_kparam_infos(const CubinKernel *k, size_t first_handle_sym, ByteBuf *b)
{
	size_t total = k->nparams + k->nhandle_params, data = k->nparams, handle = k->nhandle_params;
	for (size_t ord = total; ord-- > 0;) {
		if (handle && k->handle_params[handle - 1].ordinal == ord) {
			handle--;
			kparam_record(b, (uint32_t)(first_handle_sym + handle), (uint32_t)ord, 0xffff, 0,
			              k->handle_params[handle].space);
		} else if (data) {
			data--;
			kparam_record(b, 0, (uint32_t)ord, (uint16_t)k->params[data].offset, k->params[data].size, 0);
		}
	}
}
