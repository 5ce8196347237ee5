/* Seeds for fuzz_disasm: assembles PTX files with the library and writes
 * each result as a cubin (NAME.cubin) and as raw code (NAME.bin) into a
 * directory. Random bytes almost never form an ELF header, so without
 * real cubins the fuzzer would spend its time on the reader's first
 * checks. Files that do not assemble are skipped quietly: the encoder is
 * not under test here.
 *   seed_code OUTDIR FILE.ptx... */
#include "driver/assemble.h"
#include "check/check.h"
#include "base/diag.h"
#include "base/input.h"
#include "front/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void write_file(const char *dir, const char *base, const char *ext, const uint8_t *p,
                       size_t n)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s%s", dir, base, ext);
	FILE *f = fopen(path, "wb");
	if (!f)
		return;
	fwrite(p, 1, n, f);
	fclose(f);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: seed_code OUTDIR FILE.ptx...\n", stderr);
		return 2;
	}
	int written = 0;
	for (int i = 2; i < argc; i++) {
		InputFile in;
		char err[512];
		if (input_read(&in, argv[i], err, sizeof err) != 0)
			continue;
		Module m;
		DiagSink d;
		module_init(&m, in.name);
		diag_init(&d, in.name, in.data, in.len);
		ptx_parse_buffer(&m, &d, in.data, in.len);
		CheckOptions co = { .rules = RULES_STRICT };
		if (diag_errors(&d) == 0)
			check_module(&m, &d, &co);
		const char *slash = strrchr(argv[i], '/');
		char base[1024];
		snprintf(base, sizeof base, "%s", slash ? slash + 1 : argv[i]);
		char *dot = strrchr(base, '.');
		if (dot && strcmp(dot, ".ptx") == 0)
			*dot = 0;
		for (int raw = 0; raw < 2 && diag_errors(&d) == 0; raw++) {
			AssembleOptions o = { .format = raw ? ASM_RAW : ASM_CUBIN };
			uint8_t *image = NULL;
			size_t len = 0;
			if (assemble_module(&m, &d, &o, &image, &len, NULL) == 0) {
				write_file(argv[1], base, raw ? ".bin" : ".cubin", image, len);
				written++;
			}
			free(image);
		}
		diag_fini(&d);
		module_fini(&m);
		input_free(&in);
	}
	printf("seed_code: %d seed files\n", written);
	return 0;
}
