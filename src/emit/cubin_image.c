/* What a CubinImage (cubin_read.c) owns, and the image described again as
 * the CubinModule cubin_write() takes. */
#include "emit/cubin_read.h"

#include <stdlib.h>
#include <string.h>

void cubin_image_free(CubinImage *img)
{
	free(img->kernels);
	free(img->surfrefs);
	free(img->surfref_is_texture);
	free(img->param_store);
	free(img->handle_store);
	free(img->slot_store);
	free(img->offset_store);
	free(img->desc_store);
	free(img->desc_kind_store);
	free(img->string_store);
	free(img->vars);
	free(img->init_reloc_store);
	free(img->fixup_store);
	free(img->externs);
	free(img->extern_call_store);
	free(img->func_inits);
	free(img->const2_ref_store);
	memset(img, 0, sizeof *img);
}

void cubin_image_module(const CubinImage *img, CubinModule *m, CubinKernel *kernels)
{
	for (size_t i = 0; i < img->nkernels; i++)
		kernels[i] = img->kernels[img->nkernels - 1 - i].k;
	*m = (CubinModule){
		.sm = img->sm,
		.ptx_target_sm = img->ptx_target_sm,
		.address64 = img->address64,
		.texmode_independent = img->texmode_independent,
		.kernels = kernels,
		.nkernels = img->nkernels,
		.surfrefs = img->surfrefs,
		.surfref_is_texture = img->surfref_is_texture,
		.nsurfrefs = img->nsurfrefs,
		.vars = img->vars,
		.nvars = img->nvars,
		.externs = img->externs,
		.nexterns = img->nexterns,
	};
}
