/* libFuzzer target for the readers of untrusted machine code: the cubin
 * reader must describe or reject any byte buffer without reading outside
 * it, and the disassemblers (the raw-stream one and the --disassemble
 * front end over whole files) must list or reject any input. Each input
 * is tried every way: as a cubin, as raw code (whole, then with its first
 * eight bytes as the base address) and as a file to --disassemble, so one
 * corpus covers all the readers. */
#include "emit/cubin_read.h"
#include "emit/disasm_file.h"
#include "sm50/sass_disasm.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *null_out(void)
{
	FILE *f = fopen("/dev/null", "w");
	if (!f)
		abort();
	return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	FILE *out = null_out();

	/* Whole input as a cubin; then every kernel it finds through the
	 * disassembler, as cuobjdump would. */
	CubinImage img;
	if (cubin_read(data, size, &img, err, sizeof err) == 0) {
		for (size_t k = 0; k < img.nkernels; k++) {
			const CubinReadKernel *rk = &img.kernels[k];
			sass_disasm_stream(rk->k.code, rk->k.code_size, rk->address & ~(uint64_t)31,
			                   out, err, sizeof err);
		}
		/* Rebuilding the module description walks the recovered
		 * attributes once more. */
		CubinKernel *ks = calloc(img.nkernels + 1, sizeof *ks);
		if (!ks)
			abort();
		CubinModule cm;
		cubin_image_module(&img, &cm, ks);
		free(ks);
	}
	cubin_image_free(&img);

	/* Whole input as raw code: a copy of exactly `size` bytes so that
	 * ASan sees any read past the end. */
	uint8_t *copy = malloc(size ? size : 1);
	if (!copy)
		abort();
	if (size)
		memcpy(copy, data, size);
	sass_disasm_stream(copy, size, 0, out, err, sizeof err);
	/* And as `ptxsurf-as --disassemble FILE` reads it: a cubin when it
	 * starts with the ELF magic, raw code otherwise. */
	disasm_file(copy, size, out, err, sizeof err);
	free(copy);
	/* And the 32-byte-aligned rest after eight bytes, which the length
	 * check does not reject, with those bytes as the base so branch
	 * targets vary; again an exact-size copy. */
	if (size >= 8) {
		uint64_t base = 0;
		memcpy(&base, data, 8);
		base &= ~(uint64_t)31;
		size_t n = (size - 8) & ~(size_t)31;
		copy = malloc(n ? n : 1);
		if (!copy)
			abort();
		if (n)
			memcpy(copy, data + 8, n);
		sass_disasm_stream(copy, n, base, out, err, sizeof err);
		free(copy);
	}
	fclose(out);
	return 0;
}
