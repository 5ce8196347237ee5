/* The c[0x0] layout of an sm_50 kernel (see sass_abi.h). */
#include "sm50/sass_abi.h"

uint32_t sass_param_bytes(const SassParam *params, size_t nparams)
{
	uint32_t end = 0;
	for (size_t i = 0; i < nparams; i++)
		if (params[i].offset + params[i].size > end)
			end = params[i].offset + params[i].size;
	return end;
}

uint32_t sass_first_slot_offset(const SassParam *params, size_t nparams)
{
	return (SASS_PARAM_CBANK_BASE + sass_param_bytes(params, nparams) + 3u) & ~3u;
}
