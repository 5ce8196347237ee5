/* Test driver for cubin-ptxas.sh: reads a cubin with cubin_read(), describes
 * it as a CubinModule and writes it again with cubin_write().
 *   rebuild IN.cubin OUT.cubin    exit 0 on success, 1 with a message */
#include <stdio.h>
#include <stdlib.h>

#include "emit/cubin.h"
#include "emit/cubin_read.h"

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint8_t *bigger = realloc(buf, cap *= 2);
			if (!bigger)
				free(buf);
			buf = bigger;
		}
	}
	fclose(f);
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s IN.cubin OUT.cubin\n", argv[0]);
		return 2;
	}
	size_t len;
	uint8_t *in = slurp(argv[1], &len);
	if (!in) {
		perror(argv[1]);
		return 1;
	}
	char err[256];
	CubinImage img;
	if (cubin_read(in, len, &img, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", argv[1], err);
		return 1;
	}
	CubinKernel *kernels = calloc(img.nkernels + 1, sizeof *kernels);
	CubinModule m;
	cubin_image_module(&img, &m, kernels);
	uint8_t *out;
	size_t outlen;
	if (!kernels || cubin_write(&m, &out, &outlen, err, sizeof err)) {
		fprintf(stderr, "%s: cannot rebuild: %s\n", argv[1], kernels ? err : "out of memory");
		return 1;
	}
	FILE *f = fopen(argv[2], "wb");
	if (!f || fwrite(out, 1, outlen, f) != outlen || fclose(f)) {
		perror(argv[2]);
		return 1;
	}
	free(out);
	free(kernels);
	cubin_image_free(&img);
	free(in);
	return 0;
}
