/* Unit tests for the cubin writer (cubin.c) and reader (cubin_read.c).
 *
 * The expected layouts below are those of cubins ptxas 11.8 wrote for the
 * same kernels (`ptxas -arch=sm_50`, inspected with readelf); the byte-exact
 * comparison against ptxas itself lives in tests/oracle/cubin-ptxas.sh. */
#include <check.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emit/cubin.h"
#include "emit/cubin_read.h"
#include "check_main.h"

/* ---- a tiny independent ELF inspector for the checks ------------------- */

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

typedef struct Image {
	uint8_t *data;
	size_t len;
} Image;

static const uint8_t *shdr(const Image *im, size_t i)
{
	return im->data + rd64(im->data + 40) + 64 * i;
}

static size_t shnum(const Image *im) { return rd16(im->data + 60); }
static uint32_t sh_type(const Image *im, size_t i) { return rd32(shdr(im, i) + 4); }
static uint64_t sh_offset(const Image *im, size_t i) { return rd64(shdr(im, i) + 24); }
static uint64_t sh_size(const Image *im, size_t i) { return rd64(shdr(im, i) + 32); }
static uint32_t sh_link(const Image *im, size_t i) { return rd32(shdr(im, i) + 40); }
static uint32_t sh_info(const Image *im, size_t i) { return rd32(shdr(im, i) + 44); }
static const uint8_t *sh_data(const Image *im, size_t i) { return im->data + sh_offset(im, i); }

static const char *sh_name(const Image *im, size_t i)
{
	return (const char *)sh_data(im, 1) + rd32(shdr(im, i));
}

static size_t section_named(const Image *im, const char *name)
{
	for (size_t i = 1; i < shnum(im); i++)
		if (strcmp(sh_name(im, i), name) == 0)
			return i;
	return 0;
}

static const uint8_t *sym(const Image *im, size_t i)
{
	return sh_data(im, 3) + 24 * i;
}

static const char *sym_name(const Image *im, size_t i)
{
	return (const char *)sh_data(im, 2) + rd32(sym(im, i));
}

static size_t nsyms(const Image *im) { return sh_size(im, 3) / 24; }

/* Whether the string table section holds exactly these strings, in order. */
static void assert_strings(const Image *im, size_t sec, const char *const *want)
{
	const char *p = (const char *)sh_data(im, sec);
	const char *end = p + sh_size(im, sec);
	size_t i = 0;
	for (; p < end; p += strlen(p) + 1, i++) {
		ck_assert_ptr_nonnull(want[i]);
		ck_assert_str_eq(p, want[i]);
	}
	ck_assert_ptr_null(want[i]);
}

/* ---- module fixtures ---------------------------------------------------- */

static uint8_t code128[128];
static uint8_t code64[64];

/* The shape of ptxas's cubin for
 *   .global .surfref s1;
 *   .entry k(.param .u64 out, .param .u32 n) { ... sust [s1, ...] ... }  */
static const SassParam k1_params[] = { { 0, 8 }, { 8, 4 } };
static const CubinSurfaceSlot k1_slots[] = { { "s1", 0x14c, NULL } };
static const uint32_t k1_exits[] = { 0x50 };
static const char *const one_surfref[] = { "s1" };

static CubinKernel k1_kernel(void)
{
	return (CubinKernel){
		.name = "k", .code = code128, .code_size = sizeof code128, .regcount = 3,
		.params = k1_params, .nparams = 2, .slots = k1_slots, .nslots = 1,
		.exit_offsets = k1_exits, .nexit_offsets = 1, .uses_surfaces = true,
	};
}

static CubinModule module_of(const CubinKernel *kernels, size_t nk,
                             const char *const *surfrefs, size_t ns)
{
	return (CubinModule){ .sm = 50, .address64 = true, .kernels = kernels, .nkernels = nk,
	                      .surfrefs = surfrefs, .nsurfrefs = ns };
}

static Image write_ok(const CubinModule *m)
{
	Image im;
	char err[200] = "";
	int rc = cubin_write(m, &im.data, &im.len, err, sizeof err);
	ck_assert_msg(rc == 0, "cubin_write failed: %s", err);
	ck_assert_ptr_nonnull(im.data);
	return im;
}

static void fill_code(void)
{
	for (size_t i = 0; i < sizeof code128; i++)
		code128[i] = (uint8_t)(i * 7 + 1);
	for (size_t i = 0; i < sizeof code64; i++)
		code64[i] = (uint8_t)(0xa0 + i);
}

/* ---- writer ------------------------------------------------------------ */

START_TEST(elf_header_fields)
{
	CubinKernel k = k1_kernel();
	CubinModule m = module_of(&k, 1, one_surfref, 1);
	Image im = write_ok(&m);
	static const uint8_t ident[16] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0x33, 7 };
	ck_assert_mem_eq(im.data, ident, 16);
	ck_assert_uint_eq(rd16(im.data + 16), 2);          /* ET_EXEC */
	ck_assert_uint_eq(rd16(im.data + 18), 190);        /* EM_CUDA */
	ck_assert_uint_eq(rd32(im.data + 20), 0x76);
	ck_assert_uint_eq(rd64(im.data + 24), 0);
	ck_assert_uint_eq(rd32(im.data + 48), 0x320532);
	ck_assert_uint_eq(rd16(im.data + 52), 64);
	ck_assert_uint_eq(rd16(im.data + 54), 56);
	ck_assert_uint_eq(rd16(im.data + 56), 3);
	ck_assert_uint_eq(rd16(im.data + 58), 64);
	ck_assert_uint_eq(rd16(im.data + 62), 1);
	free(im.data);
}
END_TEST

START_TEST(elf_flags_variants)
{
	CubinKernel k = k1_kernel();
	CubinModule m = module_of(&k, 1, one_surfref, 1);
	m.address64 = false;
	Image im = write_ok(&m);
	ck_assert_uint_eq(rd32(im.data + 48), 0x320132);
	free(im.data);

	m.texmode_independent = true;
	im = write_ok(&m);
	ck_assert_uint_eq(rd32(im.data + 48), 0x320232);
	free(im.data);

	m = module_of(&k, 1, one_surfref, 1);
	m.sm = 52;
	m.ptx_target_sm = 50;
	im = write_ok(&m);
	ck_assert_uint_eq(rd32(im.data + 48), 0x320534);
	free(im.data);
}
END_TEST

/* Offsets, sizes, links and infos of ptxas's cubin for the same kernel. */
START_TEST(single_kernel_layout_matches_ptxas)
{
	CubinKernel k = k1_kernel();
	CubinModule m = module_of(&k, 1, one_surfref, 1);
	Image im = write_ok(&m);
	static const struct {
		const char *name;
		uint32_t type;
		uint64_t offset, size;
		uint32_t link, info;
	} want[] = {
		{ "", 0, 0, 0, 0, 0 },
		{ ".shstrtab", 3, 0x40, 0x85, 0, 0 },
		{ ".strtab", 3, 0xc5, 0xa0, 0, 0 },
		{ ".symtab", 2, 0x168, 0x90, 2, 4 },
		{ ".nv.info", 0x70000000, 0x1f8, 0x30, 3, 0 },
		{ ".nv.info.k", 0x70000000, 0x228, 0x50, 3, 9 },
		{ ".nv.rel.action", 0x7000000b, 0x278, 0xe0, 0, 0 },
		{ ".rel.nv.constant0.k", 9, 0x358, 0x10, 3, 8 },
		{ ".nv.constant0.k", 1, 0x368, 0x150, 0, 9 },
		{ ".text.k", 1, 0x4c0, 0x80, 3, 0x03000004 },
	};
	ck_assert_uint_eq(im.len, 2152);
	ck_assert_uint_eq(rd64(im.data + 40), 1344);
	ck_assert_uint_eq(rd64(im.data + 32), 1984);
	ck_assert_uint_eq(shnum(&im), 10);
	for (size_t i = 0; i < 10; i++) {
		ck_assert_str_eq(sh_name(&im, i), want[i].name);
		ck_assert_uint_eq(sh_type(&im, i), want[i].type);
		ck_assert_uint_eq(sh_offset(&im, i), want[i].offset);
		ck_assert_uint_eq(sh_size(&im, i), want[i].size);
		ck_assert_uint_eq(sh_link(&im, i), want[i].link);
		ck_assert_uint_eq(sh_info(&im, i), want[i].info);
	}
	ck_assert_mem_eq(sh_data(&im, 9), code128, sizeof code128);
	/* PHDR, LOAD (constant bank + code), LOAD */
	const uint8_t *ph = im.data + 1984;
	ck_assert_uint_eq(rd32(ph), 6);
	ck_assert_uint_eq(rd64(ph + 8), 1984);
	ck_assert_uint_eq(rd64(ph + 32), 0xa8);
	ck_assert_uint_eq(rd32(ph + 56), 1);
	ck_assert_uint_eq(rd64(ph + 56 + 8), 0x368);
	ck_assert_uint_eq(rd64(ph + 56 + 32), 0x4c0 + 0x80 - 0x368);
	ck_assert_uint_eq(rd32(ph + 112), 1);
	ck_assert_mem_eq(ph + 112 + 4, ph + 4, 52);   /* the second LOAD repeats PHDR */
	free(im.data);
}
END_TEST

START_TEST(string_tables_in_ptxas_order)
{
	CubinKernel k = k1_kernel();
	CubinModule m = module_of(&k, 1, one_surfref, 1);
	Image im = write_ok(&m);
	static const char *const shstr[] = {
		"", ".shstrtab", ".strtab", ".symtab", ".symtab_shndx", ".nv.info", ".text.k",
		".nv.info.k", ".nv.shared.k", ".nv.constant0.k", ".rel.nv.constant0.k",
		".nv.rel.action", NULL,
	};
	static const char *const str[] = {
		"", ".shstrtab", ".strtab", ".symtab", ".symtab_shndx", ".nv.info", "k", ".text.k",
		".nv.info.k", ".nv.shared.k", "s1", ".nv.constant0.k", "_param", "$BINDLESS$k$s1",
		".rel.nv.constant0.k", ".nv.rel.action", NULL,
	};
	assert_strings(&im, 1, shstr);
	assert_strings(&im, 2, str);
	free(im.data);
}
END_TEST

START_TEST(nv_info_records)
{
	CubinKernel k = k1_kernel();
	CubinModule m = module_of(&k, 1, one_surfref, 1);
	Image im = write_ok(&m);
	static const uint8_t info[] = {
		0x04, 0x2f, 0x08, 0x00, 0x04, 0, 0, 0, 0x03, 0, 0, 0,   /* REGCOUNT k=3 */
		0x04, 0x23, 0x08, 0x00, 0x04, 0, 0, 0, 0, 0, 0, 0,      /* MAX_STACK_SIZE */
		0x04, 0x12, 0x08, 0x00, 0x04, 0, 0, 0, 0, 0, 0, 0,      /* MIN_STACK_SIZE */
		0x04, 0x11, 0x08, 0x00, 0x04, 0, 0, 0, 0, 0, 0, 0,      /* FRAME_SIZE */
	};
	static const uint8_t info_k[] = {
		0x04, 0x37, 0x04, 0x00, 0x76, 0, 0, 0,                  /* CUDA_API_VERSION */
		0x01, 0x30, 0, 0, 0x01, 0x2a, 0, 0,                     /* the two WARs */
		0x04, 0x0a, 0x08, 0x00, 0x02, 0, 0, 0, 0x40, 0x01, 0x0c, 0x00, /* PARAM_CBANK */
		0x03, 0x19, 0x0c, 0x00,                                 /* CBANK_PARAM_SIZE */
		0x04, 0x17, 0x0c, 0x00, 0, 0, 0, 0, 0x01, 0x00, 0x08, 0x00, 0x00, 0xf0, 0x11, 0x00,
		0x04, 0x17, 0x0c, 0x00, 0, 0, 0, 0, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x21, 0x00,
		0x03, 0x1b, 0xff, 0x00,                                 /* MAXREG_COUNT */
		0x02, 0x16, 0x00, 0x00,                                 /* BINDLESS_SURFACE_BANK */
		0x04, 0x1c, 0x04, 0x00, 0x50, 0, 0, 0,                  /* EXIT_INSTR_OFFSETS */
	};
	ck_assert_uint_eq(sh_size(&im, 4), sizeof info);
	ck_assert_mem_eq(sh_data(&im, 4), info, sizeof info);
	ck_assert_uint_eq(sh_size(&im, 5), sizeof info_k);
	ck_assert_mem_eq(sh_data(&im, 5), info_k, sizeof info_k);
	free(im.data);
}
END_TEST

/* Two bound surfrefs plus one declared but unused; the kernel uses s2
 * first, so ptxas orders the symbols s2, s1, s3. */
START_TEST(symbols_and_relocations)
{
	static const char *const decl[] = { "s1", "s2", "s3" };
	static const CubinSurfaceSlot slots[] = { { "s1", 0x15c, NULL }, { "s2", 0x158, NULL } };
	static const SassParam params[] = { { 0, 8 }, { 8, 4 }, { 12, 1 }, { 16, 8 } };
	CubinKernel k = { .name = "k", .code = code128, .code_size = 128, .regcount = 6,
	                  .params = params, .nparams = 4, .slots = slots, .nslots = 2,
	                  .uses_surfaces = true };
	CubinModule m = module_of(&k, 1, decl, 3);
	Image im = write_ok(&m);

	ck_assert_uint_eq(nsyms(&im), 8);
	static const char *const names[] = {
		"", ".text.k", ".nv.constant0.k", ".nv.rel.action", "k", "s2", "s1", "s3",
	};
	static const uint8_t infos[] = { 0, 3, 3, 3, 0x12, 0x1c, 0x1c, 0x1c };
	static const uint16_t shndx[] = { 0, 9, 8, 6, 9, 0, 0, 0 };
	for (size_t i = 0; i < 8; i++) {
		ck_assert_str_eq(sym_name(&im, i), names[i]);
		ck_assert_uint_eq(sym(&im, i)[4], infos[i]);
		ck_assert_uint_eq(rd16(sym(&im, i) + 6), shndx[i]);
	}
	ck_assert_uint_eq(sym(&im, 4)[5], 0x10);        /* STO_CUDA_ENTRY */
	ck_assert_uint_eq(rd64(sym(&im, 4) + 16), 128); /* st_size */

	size_t rel = section_named(&im, ".rel.nv.constant0.k");
	ck_assert_uint_eq(rel, 7);
	ck_assert_uint_eq(sh_size(&im, rel), 32);
	const uint8_t *r = sh_data(&im, rel);
	ck_assert_uint_eq(rd64(r), 0x15c);              /* last slot first */
	ck_assert_uint_eq(rd64(r + 8), (6ull << 32) | 52);
	ck_assert_uint_eq(rd64(r + 16), 0x158);
	ck_assert_uint_eq(rd64(r + 24), (5ull << 32) | 52);
	ck_assert_uint_eq(sh_size(&im, section_named(&im, ".nv.constant0.k")), 0x160);
	free(im.data);
}
END_TEST

START_TEST(kernel_without_params)
{
	CubinKernel k = { .name = "k", .code = code64, .code_size = 64, .regcount = 2,
	                  .exit_offsets = (const uint32_t[]){ 0x8 }, .nexit_offsets = 1 };
	CubinModule m = module_of(&k, 1, NULL, 0);
	Image im = write_ok(&m);
	static const char *const str[] = {
		"", ".shstrtab", ".strtab", ".symtab", ".symtab_shndx", ".nv.info", "k", ".text.k",
		".nv.info.k", ".nv.shared.k", ".nv.constant0.k", "_SREG", ".nv.rel.action", NULL,
	};
	assert_strings(&im, 2, str);
	static const uint8_t info_k[] = {
		0x04, 0x37, 0x04, 0x00, 0x76, 0, 0, 0, 0x01, 0x30, 0, 0, 0x01, 0x2a, 0, 0,
		0x03, 0x1b, 0xff, 0x00, 0x04, 0x1c, 0x04, 0x00, 0x08, 0, 0, 0,
	};
	size_t info = section_named(&im, ".nv.info.k");
	ck_assert_uint_eq(sh_size(&im, info), sizeof info_k);
	ck_assert_mem_eq(sh_data(&im, info), info_k, sizeof info_k);
	ck_assert_uint_eq(sh_size(&im, section_named(&im, ".nv.constant0.k")), 0x140);
	ck_assert_uint_eq(section_named(&im, ".rel.nv.constant0.k"), 0);
	free(im.data);
}
END_TEST

/* ptxas processes entries last to first: sections, section symbols and
 * strings follow that order; .nv.info lists the kernels in source order. */
START_TEST(three_kernels)
{
	static const char *const decl[] = { "s1", "s2" };
	static const SassParam pa[] = { { 0, 8 }, { 8, 4 } };
	static const SassParam pc[] = { { 0, 4 } };
	CubinKernel ks[3] = {
		{ .name = "alpha", .code = code128, .code_size = 128, .regcount = 3, .params = pa,
		  .nparams = 2, .slots = (const CubinSurfaceSlot[]){ { "s1", 0x14c, NULL } }, .nslots = 1,
		  .uses_surfaces = true },
		{ .name = "beta", .code = code128, .code_size = 128, .regcount = 2,
		  .slots = (const CubinSurfaceSlot[]){ { "s2", 0x140, NULL }, { "s1", 0x144, NULL } },
		  .nslots = 2, .uses_surfaces = true },
		{ .name = "gamma", .code = code64, .code_size = 64, .regcount = 3, .params = pc,
		  .nparams = 1, .slots = (const CubinSurfaceSlot[]){ { "s1", 0x144, NULL } }, .nslots = 1,
		  .uses_surfaces = true },
	};
	CubinModule m = module_of(ks, 3, decl, 2);
	Image im = write_ok(&m);
	static const char *const secs[] = {
		"", ".shstrtab", ".strtab", ".symtab", ".nv.info", ".nv.info.gamma", ".nv.info.beta",
		".nv.info.alpha", ".nv.rel.action", ".rel.nv.constant0.gamma",
		".rel.nv.constant0.beta", ".rel.nv.constant0.alpha", ".nv.constant0.gamma",
		".nv.constant0.beta", ".nv.constant0.alpha", ".text.gamma", ".text.beta",
		".text.alpha",
	};
	ck_assert_uint_eq(shnum(&im), 18);
	for (size_t i = 0; i < 18; i++)
		ck_assert_str_eq(sh_name(&im, i), secs[i]);
	static const char *const syms[] = {
		"", ".text.gamma", ".nv.constant0.gamma", ".text.beta", ".nv.constant0.beta",
		".text.alpha", ".nv.constant0.alpha", ".nv.rel.action", "gamma", "s1", "s2",
		"beta", "alpha",
	};
	ck_assert_uint_eq(nsyms(&im), 13);
	for (size_t i = 0; i < 13; i++)
		ck_assert_str_eq(sym_name(&im, i), syms[i]);
	ck_assert_uint_eq(sh_info(&im, 3), 8);
	/* REGCOUNT records: alpha (sym 12), beta (11), gamma (8) */
	const uint8_t *info = sh_data(&im, 4);
	ck_assert_uint_eq(rd32(info + 4), 12);
	ck_assert_uint_eq(rd32(info + 48 + 4), 11);
	ck_assert_uint_eq(rd32(info + 96 + 4), 8);
	ck_assert_uint_eq(sh_info(&im, 15), (3u << 24) | 8);
	ck_assert_uint_eq(sh_info(&im, 16), (2u << 24) | 11);
	/* "_param" is stored once though alpha and gamma both have params */
	const char *str = (const char *)sh_data(&im, 2);
	size_t n_param = 0;
	for (size_t off = 0; off < sh_size(&im, 2); off += strlen(str + off) + 1)
		n_param += strcmp(str + off, "_param") == 0;
	ck_assert_uint_eq(n_param, 1);
	free(im.data);
}
END_TEST

/* Kernels declared without .visible get LOCAL FUNC symbols, which ptxas
 * places among the locals in creation order: FUNC, .text, .nv.constant0. */
START_TEST(hidden_entries)
{
	static const char *const decl[] = { "s1", "s2" };
	CubinKernel ks[3] = {
		{ .name = "a", .code = code64, .code_size = 64, .regcount = 2,
		  .slots = (const CubinSurfaceSlot[]){ { "s2", 0x140, NULL } }, .nslots = 1 },
		{ .name = "b", .local_symbol = true, .code = code64, .code_size = 64, .regcount = 2,
		  .params = k1_params, .nparams = 1,
		  .slots = (const CubinSurfaceSlot[]){ { "s1", 0x148, NULL } }, .nslots = 1 },
		{ .name = "c", .local_symbol = true, .code = code64, .code_size = 64, .regcount = 2,
		  .slots = (const CubinSurfaceSlot[]){ { "s2", 0x140, NULL } }, .nslots = 1 },
	};
	CubinModule m = module_of(ks, 3, decl, 2);
	Image im = write_ok(&m);
	static const char *const syms[] = {
		"", "c", ".text.c", ".nv.constant0.c", "b", ".text.b", ".nv.constant0.b", ".text.a",
		".nv.constant0.a", ".nv.rel.action", "s2", "s1", "a",
	};
	ck_assert_uint_eq(nsyms(&im), 13);
	for (size_t i = 0; i < 13; i++)
		ck_assert_str_eq(sym_name(&im, i), syms[i]);
	ck_assert_uint_eq(sym(&im, 1)[4], 0x02);   /* LOCAL FUNC */
	ck_assert_uint_eq(sym(&im, 1)[5], 0x10);
	ck_assert_uint_eq(sym(&im, 12)[4], 0x12);  /* GLOBAL FUNC */
	ck_assert_uint_eq(sh_info(&im, 3), 10);    /* first global */

	CubinImage img;
	char err[200] = "";
	ck_assert_msg(cubin_read(im.data, im.len, &img, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(img.kernels[0].k.name, "c");
	ck_assert(img.kernels[0].k.local_symbol);
	ck_assert(img.kernels[0].is_entry);
	ck_assert(!img.kernels[2].k.local_symbol);
	cubin_image_free(&img);
	free(im.data);
}
END_TEST

START_TEST(module_without_kernels)
{
	CubinModule m = module_of(NULL, 0, one_surfref, 1);
	Image im = write_ok(&m);
	ck_assert_uint_eq(rd16(im.data + 56), 2);
	ck_assert_uint_eq(shnum(&im), 5);
	ck_assert_str_eq(sh_name(&im, 4), ".nv.rel.action");
	ck_assert_uint_eq(nsyms(&im), 3);
	ck_assert_str_eq(sym_name(&im, 2), "s1");
	ck_assert_uint_eq(im.len, 0x330 + 0x70);
	free(im.data);
}
END_TEST

static void assert_write_fails(const CubinModule *m, const char *what)
{
	uint8_t *out = (uint8_t *)1;
	size_t len = 1;
	char err[200] = "";
	ck_assert_int_eq(cubin_write(m, &out, &len, err, sizeof err), -1);
	ck_assert_ptr_null(out);
	ck_assert_uint_eq(len, 0);
	ck_assert_msg(strstr(err, what) != NULL, "error \"%s\" lacks \"%s\"", err, what);
}

START_TEST(invalid_modules_are_rejected)
{
	CubinKernel k = k1_kernel();
	CubinModule m = module_of(&k, 1, one_surfref, 1);

	k.code_size = 100;
	assert_write_fails(&m, "multiple of 32");
	k = k1_kernel();
	k.regcount = 256;
	assert_write_fails(&m, "register count");
	k = k1_kernel();
	k.slots = (const CubinSurfaceSlot[]){ { "nosuch", 0x14c, NULL } };
	assert_write_fails(&m, "undeclared surfref");
	k = k1_kernel();
	k.slots = (const CubinSurfaceSlot[]){ { "s1", 0x148, NULL } };   /* overlaps param n */
	assert_write_fails(&m, "bad offset");
	k = k1_kernel();
	k.exit_offsets = (const uint32_t[]){ 0x40 };              /* a control word */
	assert_write_fails(&m, "exit offset");
	k = k1_kernel();
	m.sm = 70;
	assert_write_fails(&m, "Maxwell");
	m.sm = 50;
	CubinKernel twice[2] = { k1_kernel(), k1_kernel() };
	m.kernels = twice;
	m.nkernels = 2;
	assert_write_fails(&m, "defined twice");
	static const char *const dup[] = { "s1", "s1" };
	m = module_of(&k, 1, dup, 2);
	assert_write_fails(&m, "declared twice");
}
END_TEST

/* ---- reader ------------------------------------------------------------- */

START_TEST(read_back_single_kernel)
{
	static const char *const decl[] = { "s1", "s2", "s3" };
	static const CubinSurfaceSlot slots[] = { { "s2", 0x14c, NULL }, { "s1", 0x150, NULL } };
	static const uint32_t exits[] = { 0x48, 0x68 };
	CubinKernel k = k1_kernel();
	k.slots = slots;
	k.nslots = 2;
	k.exit_offsets = exits;
	k.nexit_offsets = 2;
	CubinModule m = module_of(&k, 1, decl, 3);
	Image im = write_ok(&m);

	CubinImage img;
	char err[200] = "";
	ck_assert_msg(cubin_read(im.data, im.len, &img, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(img.sm, 50);
	ck_assert_int_eq(img.ptx_target_sm, 50);
	ck_assert(img.address64);
	ck_assert(!img.texmode_independent);
	ck_assert_uint_eq(img.nkernels, 1);
	const CubinReadKernel *rk = &img.kernels[0];
	ck_assert_str_eq(rk->k.name, "k");
	ck_assert(rk->is_entry);
	ck_assert_uint_eq(rk->address, 0);
	ck_assert_uint_eq(rk->k.code_size, 128);
	ck_assert_mem_eq(rk->k.code, code128, 128);
	ck_assert_ptr_eq(rk->k.code, im.data + rk->file_offset);
	ck_assert_uint_eq(rk->k.regcount, 3);
	ck_assert_uint_eq(rk->k.nparams, 2);
	ck_assert_uint_eq(rk->k.params[0].offset, 0);
	ck_assert_uint_eq(rk->k.params[0].size, 8);
	ck_assert_uint_eq(rk->k.params[1].offset, 8);
	ck_assert_uint_eq(rk->k.params[1].size, 4);
	ck_assert_uint_eq(rk->k.nslots, 2);
	ck_assert_str_eq(rk->k.slots[0].surfref, "s2");
	ck_assert_uint_eq(rk->k.slots[0].cbank_offset, 0x14c);
	ck_assert_str_eq(rk->k.slots[1].surfref, "s1");
	ck_assert_uint_eq(rk->k.nexit_offsets, 2);
	ck_assert_uint_eq(rk->k.exit_offsets[1], 0x68);
	ck_assert(rk->k.uses_surfaces);
	ck_assert_uint_eq(img.nsurfrefs, 3);
	ck_assert_str_eq(img.surfrefs[0], "s2");
	ck_assert_str_eq(img.surfrefs[1], "s1");
	ck_assert_str_eq(img.surfrefs[2], "s3");
	cubin_image_free(&img);
	free(im.data);
}
END_TEST

/* Writing what was read reproduces the image (img stays for the caller). */
static void assert_rewrites_identically(const CubinImage *img, const Image *im, CubinKernel *again)
{
	CubinModule m2;
	cubin_image_module(img, &m2, again);
	Image im2 = write_ok(&m2);
	ck_assert_uint_eq(im2.len, im->len);
	ck_assert_mem_eq(im2.data, im->data, im->len);
	free(im2.data);
}

/* read -> describe -> write reproduces the image exactly. */
START_TEST(read_write_is_identity)
{
	static const char *const decl[] = { "s1", "s2", "s3" };
	CubinKernel ks[3] = {
		k1_kernel(),
		{ .name = "b", .code = code64, .code_size = 64, .regcount = 7,
		  .slots = (const CubinSurfaceSlot[]){ { "s3", 0x140, NULL }, { "s1", 0x144, NULL } }, .nslots = 2,
		  .exit_offsets = (const uint32_t[]){ 0x28 }, .nexit_offsets = 1,
		  .uses_surfaces = true },
		{ .name = "c", .code = code64, .code_size = 64, .regcount = 1 },
	};
	CubinModule m = module_of(ks, 3, decl, 3);
	m.address64 = false;
	Image im = write_ok(&m);

	CubinImage img;
	char err[200] = "";
	ck_assert_msg(cubin_read(im.data, im.len, &img, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(img.nkernels, 3);
	ck_assert_str_eq(img.kernels[0].k.name, "c");   /* section order */
	ck_assert_str_eq(img.kernels[2].k.name, "k");
	CubinKernel again[3];
	assert_rewrites_identically(&img, &im, again);
	ck_assert_str_eq(again[0].name, "k");          /* source order */
	cubin_image_free(&img);
	free(im.data);
}
END_TEST

/* A SYNC target list longer than one record's 0xffff bytes goes in
 * several records, cut between entries, the last piece first (as ptxas
 * 11.8 writes a 1 MB kernel's 8,472 entries: 282, 4,095, 4,095), and
 * reads back as the one list. */
START_TEST(long_branch_target_lists_split)
{
	enum { ENTRIES = 8472, PIECE = 4095 };
	static uint8_t code[8 * 2 * ENTRIES + 64];
	static uint32_t targets[4 * ENTRIES];
	for (uint32_t i = 0; i < ENTRIES; i++) {
		targets[4 * i] = 16 * i + 8;            /* the SYNC */
		targets[4 * i + 1] = 0;
		targets[4 * i + 2] = 1;
		targets[4 * i + 3] = 16 * i + 16;       /* its join */
	}
	CubinKernel k = { .name = "k", .code = code, .code_size = sizeof code, .regcount = 2,
	                  .sync_targets = targets, .nsync_target_words = 4 * ENTRIES };
	CubinModule m = module_of(&k, 1, NULL, 0);
	Image im = write_ok(&m);
	size_t sec = section_named(&im, ".nv.info.k");
	ck_assert_uint_ne(sec, 0);
	const uint8_t *p = sh_data(&im, sec), *end = p + sh_size(&im, sec);
	static const uint32_t want_first[] = { 2 * PIECE, PIECE, 0 };
	static const uint32_t want_entries[] = { ENTRIES - 2 * PIECE, PIECE, PIECE };
	size_t n = 0;
	while (p < end) {
		uint16_t size = p[0] == 0x04 ? rd16(p + 2) : 0;
		if (p[1] == CUBIN_EIATTR_INDIRECT_BRANCH_TARGETS) {
			ck_assert_uint_lt(n, 3);
			ck_assert_uint_eq(size, 16 * want_entries[n]);
			ck_assert_uint_eq(rd32(p + 4), targets[4 * want_first[n]]);
			n++;
		}
		p += 4 + size;
	}
	ck_assert_uint_eq(n, 3);

	CubinImage img;
	char err[200] = "";
	ck_assert_msg(cubin_read(im.data, im.len, &img, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(img.kernels[0].k.nsync_target_words, 4 * ENTRIES);
	ck_assert_mem_eq(img.kernels[0].k.sync_targets, targets, sizeof targets);
	CubinKernel again[1];
	assert_rewrites_identically(&img, &im, again);
	cubin_image_free(&img);
	free(im.data);
}
END_TEST

static void assert_read_fails(const uint8_t *buf, size_t len, const char *what)
{
	CubinImage img;
	char err[200] = "";
	ck_assert_int_eq(cubin_read(buf, len, &img, err, sizeof err), -1);
	ck_assert_uint_eq(img.nkernels, 0);
	ck_assert_ptr_null(img.kernels);
	ck_assert_msg(strstr(err, what) != NULL, "error \"%s\" lacks \"%s\"", err, what);
}

/* Either a clean result or a clean error: the reader may not crash (run
 * under a sanitizer to catch silent out-of-bounds reads). */
static void read_anything(const uint8_t *buf, size_t len)
{
	CubinImage img;
	char err[200] = "";
	if (cubin_read(buf, len, &img, err, sizeof err) == 0) {
		for (size_t i = 0; i < img.nkernels; i++) {
			const CubinKernel *k = &img.kernels[i].k;
			ck_assert(k->code >= buf && k->code + k->code_size <= buf + len);
			ck_assert(strlen(k->name) < len);
		}
		cubin_image_free(&img);
	} else {
		ck_assert_msg(err[0] != 0, "failure without a message");
	}
}

START_TEST(reader_rejects_non_cubins)
{
	assert_read_fails(NULL, 0, "shorter than an ELF header");
	assert_read_fails((const uint8_t *)"hello", 5, "shorter than an ELF header");
	uint8_t zeros[64] = { 0 };
	assert_read_fails(zeros, sizeof zeros, "no ELF magic");

	CubinKernel k = k1_kernel();
	CubinModule m = module_of(&k, 1, one_surfref, 1);
	Image im = write_ok(&m);
	im.data[4] = 1;                                   /* ELFCLASS32 */
	assert_read_fails(im.data, im.len, "64-bit little-endian");
	im.data[4] = 2;
	im.data[18] = 62;                                 /* EM_X86_64 */
	assert_read_fails(im.data, im.len, "EM_CUDA");
	free(im.data);
}
END_TEST

START_TEST(reader_rejects_bad_offsets)
{
	CubinKernel k = k1_kernel();
	CubinModule m = module_of(&k, 1, one_surfref, 1);
	Image im = write_ok(&m);
	uint8_t *copy = malloc(im.len);

#define MUTATE(stmt, what)                                   \
	do {                                                 \
		memcpy(copy, im.data, im.len);               \
		stmt;                                        \
		assert_read_fails(copy, im.len, what);       \
	} while (0)
#define PUT64(p, v) do { for (int b_ = 0; b_ < 8; b_++) (p)[b_] = (uint8_t)((uint64_t)(v) >> (8 * b_)); } while (0)

	size_t shoff = (size_t)rd64(im.data + 40);
	MUTATE(PUT64(copy + 40, im.len - 100), "section header table");
	MUTATE(PUT64(copy + 40, UINT64_MAX - 10), "section header table");
	MUTATE((copy[60] = 0xff, copy[61] = 0xff), "section header table");
	MUTATE((copy[60] = 0, copy[61] = 0), "no section headers");
	MUTATE((copy[62] = 77), "out of range");
	MUTATE((copy[58] = 40), "section header size");
	MUTATE(PUT64(copy + shoff + 9 * 64 + 24, im.len - 16), "lies outside");       /* .text offset */
	MUTATE(PUT64(copy + shoff + 9 * 64 + 32, UINT64_MAX), "lies outside");        /* .text size */
	MUTATE(PUT64(copy + shoff + 1 * 64 + 32, 3), "NUL-terminated");               /* .shstrtab size */
	MUTATE((copy[shoff + 1 * 64 + 4] = 1), "string table");
	MUTATE((copy[shoff + 64 + 0] = 0xf0), "bad name offset");                     /* section 1 name */
	MUTATE((copy[shoff + 3 * 64 + 56] = 20), "entry size");                       /* .symtab entsize */
	MUTATE((copy[shoff + 3 * 64 + 40] = 9), "no string table");                   /* .symtab link */
	MUTATE((copy[rd64(im.data + shoff + 3 * 64 + 24) + 24 * 4] = 0xff,
	        copy[rd64(im.data + shoff + 3 * 64 + 24) + 24 * 4 + 1] = 0xff), "symbol 4");
	size_t info_k = (size_t)rd64(im.data + shoff + 5 * 64 + 24);
	MUTATE((copy[info_k + 16 + 2] = 0xff), "overruns");                           /* PARAM_CBANK size */
	MUTATE((copy[info_k] = 9), "unknown attribute format");
	MUTATE(PUT64(copy + shoff + 5 * 64 + 32, 0x4a), "truncated attribute");
	size_t kparam = info_k + 0x20;
	MUTATE((copy[kparam + 8] = 1, copy[kparam + 16 + 8] = 1), "ordinals");
	size_t rel = (size_t)rd64(im.data + shoff + 7 * 64 + 24);
	MUTATE((copy[rel + 12] = 0x40), "does not exist");
	MUTATE(PUT64(copy + shoff + 7 * 64 + 32, 15), "partial entry");
#undef MUTATE
#undef PUT64
	free(copy);
	free(im.data);
}
END_TEST

/* A 4.5 GiB .global variable placed last (LLVM's global-variable-big.ll):
 * its symbol's st_size is whole, .nv.global's sh_size modulo 4 GiB, as
 * ptxas 11.8 writes them; the reader takes the sizes back 64-bit and
 * refuses a section size that is not the variables' end modulo 4 GiB. */
START_TEST(variable_past_4_gib)
{
	const CubinVar vars[2] = {
		{ .name = "small", .visible = true, .global = true, .offset = 0, .size = 4, .align = 4 },
		{ .name = "large", .visible = true, .global = true, .offset = 4, .size = 0x120000000ull, .align = 1 },
	};
	CubinModule m = module_of(NULL, 0, NULL, 0);
	m.vars = vars;
	m.nvars = 2;
	Image im = write_ok(&m);
	size_t g = section_named(&im, ".nv.global");
	ck_assert_uint_ne(g, 0);
	ck_assert_uint_eq(sh_size(&im, g), 0x20000004u);
	size_t large = 0;
	for (size_t i = 1; i < nsyms(&im); i++)
		if (strcmp(sym_name(&im, i), "large") == 0)
			large = i;
	ck_assert_uint_ne(large, 0);
	ck_assert_uint_eq(rd64(sym(&im, large) + 8), 4);
	ck_assert_uint_eq(rd64(sym(&im, large) + 16), 0x120000000ull);

	CubinImage img;
	char err[200] = "";
	ck_assert_msg(cubin_read(im.data, im.len, &img, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(img.nvars, 2);
	for (size_t v = 0; v < img.nvars; v++)
		if (strcmp(img.vars[v].name, "large") == 0)
			ck_assert_uint_eq(img.vars[v].size, 0x120000000ull);
	assert_rewrites_identically(&img, &im, NULL);
	cubin_image_free(&img);

	uint8_t *copy = malloc(im.len);
	size_t shoff = (size_t)rd64(im.data + 40);
	uint8_t *gsize = copy + shoff + 64 * g + 32, *value = copy + (sym(&im, large) - im.data) + 8;
	memcpy(copy, im.data, im.len);
	gsize[0] = 3;           /* 0x20000003: not where the variables end */
	assert_read_fails(copy, im.len, "past its size");
	memcpy(copy, im.data, im.len);
	value[4] = 1;           /* at 0x100000004: a start past 4 GiB */
	assert_read_fails(copy, im.len, "lies outside");
	free(copy);
	free(im.data);
}
END_TEST

START_TEST(reader_survives_truncation)
{
	CubinKernel ks[2] = { k1_kernel(), k1_kernel() };
	ks[1].name = "k2";
	CubinModule m = module_of(ks, 2, one_surfref, 1);
	Image im = write_ok(&m);
	for (size_t n = 0; n < im.len; n++) {
		uint8_t *prefix = malloc(n ? n : 1);   /* exact size: ASan sees overreads */
		memcpy(prefix, im.data, n);
		read_anything(prefix, n);
		free(prefix);
	}
	/* Cutting the section header table off is always an error. */
	assert_read_fails(im.data, (size_t)rd64(im.data + 40) + 64, "section header table");
	free(im.data);
}
END_TEST

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t next_random(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

START_TEST(reader_survives_random_bytes)
{
	for (int iter = 0; iter < 3000; iter++) {
		size_t n = (size_t)(next_random() % 600);
		uint8_t *buf = malloc(n ? n : 1);
		for (size_t i = 0; i < n; i++)
			buf[i] = (uint8_t)next_random();
		/* Give most inputs a plausible header so parsing goes deeper. */
		if (n >= 64 && iter % 4) {
			static const uint8_t ident[20] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0x33, 7, 0, 0, 0,
			                                   0, 0, 0, 0, 2, 0, 190, 0 };
			memcpy(buf, ident, sizeof ident);
			buf[40] = (uint8_t)(next_random() % n);
			for (int b = 41; b < 48; b++)
				buf[b] = 0;
			buf[58] = 64;
			buf[59] = 0;
			buf[60] = (uint8_t)(next_random() % 8);
			buf[61] = 0;
			buf[62] = (uint8_t)(next_random() % 8);
			buf[63] = 0;
		}
		read_anything(buf, n);
		free(buf);
	}
}
END_TEST

START_TEST(reader_survives_mutations)
{
	static const char *const decl[] = { "s1", "s2" };
	CubinKernel ks[2] = { k1_kernel(), k1_kernel() };
	ks[1].name = "k2";
	ks[1].slots = (const CubinSurfaceSlot[]){ { "s2", 0x14c, NULL }, { "s1", 0x150, NULL } };
	ks[1].nslots = 2;
	CubinModule m = module_of(ks, 2, decl, 2);
	Image im = write_ok(&m);
	uint8_t *copy = malloc(im.len);
	/* Every byte of the headers and metadata, set to a few telling values. */
	static const uint8_t values[] = { 0x00, 0x01, 0x7f, 0x80, 0xff };
	size_t code_start = (size_t)rd64(im.data + 40);   /* metadata precedes the code... */
	for (size_t pos = 0; pos < im.len; pos++) {
		if (pos >= 0x300 && pos < code_start)
			pos = code_start;                     /* ...skip most of the code */
		for (size_t v = 0; v < sizeof values; v++) {
			memcpy(copy, im.data, im.len);
			copy[pos] = values[v];
			read_anything(copy, im.len);
		}
	}
	/* And random multi-byte damage. */
	for (int iter = 0; iter < 2000; iter++) {
		memcpy(copy, im.data, im.len);
		for (int j = 0; j < 4; j++)
			copy[next_random() % im.len] = (uint8_t)next_random();
		read_anything(copy, im.len);
	}
	free(copy);
	free(im.data);
}
END_TEST

static Suite *cubin_suite(void)
{
	Suite *s = suite_create("cubin");
	TCase *w = tcase_create("writer");
	tcase_add_checked_fixture(w, fill_code, NULL);
	tcase_add_test(w, elf_header_fields);
	tcase_add_test(w, elf_flags_variants);
	tcase_add_test(w, single_kernel_layout_matches_ptxas);
	tcase_add_test(w, string_tables_in_ptxas_order);
	tcase_add_test(w, nv_info_records);
	tcase_add_test(w, symbols_and_relocations);
	tcase_add_test(w, kernel_without_params);
	tcase_add_test(w, three_kernels);
	tcase_add_test(w, hidden_entries);
	tcase_add_test(w, module_without_kernels);
	tcase_add_test(w, invalid_modules_are_rejected);
	suite_add_tcase(s, w);

	TCase *r = tcase_create("reader");
	tcase_add_checked_fixture(r, fill_code, NULL);
	tcase_set_timeout(r, 60);
	tcase_add_test(r, read_back_single_kernel);
	tcase_add_test(r, read_write_is_identity);
	tcase_add_test(r, long_branch_target_lists_split);
	tcase_add_test(r, reader_rejects_non_cubins);
	tcase_add_test(r, reader_rejects_bad_offsets);
	tcase_add_test(r, variable_past_4_gib);
	tcase_add_test(r, reader_survives_truncation);
	tcase_add_test(r, reader_survives_random_bytes);
	tcase_add_test(r, reader_survives_mutations);
	suite_add_tcase(s, r);
	return s;
}

CHECK_MAIN(cubin_suite)
