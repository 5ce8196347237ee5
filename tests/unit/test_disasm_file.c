/* Unit tests for the cubin and raw-code listings (disasm_file.c).
 *
 * The expected listing is what nvdisasm 11.8 prints (`nvdisasm -c -hex`)
 * for the cubin built here; the comparison against nvdisasm on ptxas's own
 * cubins lives in tests/oracle/disasm-nvdisasm.sh.  The rest checks that
 * truncated, corrupt and random inputs give an error and never a crash
 * (run these under ASan/valgrind: make check-sanitize). */
#include <check.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/cubin.h"
#include "emit/disasm_file.h"
#include "check_main.h"

/* ---- inputs --------------------------------------------------------------- */

/* A visible kernel with a dual-issue pair, a forward branch and ptxas's
 * closing self-loop; a hidden one; an unused surface reference. */
static const uint64_t visible_code[] = {
	0x001c7c00fe0007f6, 0x4c98078000870001, 0x4c98078005270005, 0xf0c8000002170003,
	0x001ffc00fd8007ef, 0xe24000000187000f, 0x50b0000000070f00, 0xe30000000007000f,
	0x001f8000fc0007ff, 0xe2400fffff07000f, 0x50b0000000070f00, 0x50b0000000070f00,
};
static const uint64_t hidden_code[] = {
	0x001ffc00fd8007ef, 0x4c98078000870001, 0x50b0000000070f00, 0xe30000000007000f,
};

static const char expected_listing[] =
	"\t.headerflags\t@\"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM50 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM50)\"\n"
	"\t.elftype\t@\"ET_EXEC\"\n"
	"\n"
	"\n"
	"//--------------------- .text.helper              --------------------------\n"
	"\t.section\t.text.helper,\"ax\",@progbits\n"
	"\t.sectioninfo\t@\"SHI_REGISTERS=2\"\n"
	"\t.align\t32\n"
	".text.helper:\n"
	"        .type           helper,@function\n"
	"        .size           helper,(.L_x_1 - helper)\n"
	"        .other          helper,@\"STO_CUDA_ENTRY STV_DEFAULT\"\n"
	"helper:\n"
	"                                                             /* 0x001ffc00fd8007ef */\n"
	"        /*0008*/                   MOV R1, c[0x0][0x20] ;    /* 0x4c98078000870001 */\n"
	"        /*0010*/                   NOP ;                     /* 0x50b0000000070f00 */\n"
	"        /*0018*/                   EXIT ;                    /* 0xe30000000007000f */\n"
	".L_x_1:\n"
	"\n"
	"\n"
	"//--------------------- .text.k                   --------------------------\n"
	"\t.section\t.text.k,\"ax\",@progbits\n"
	"\t.sectioninfo\t@\"SHI_REGISTERS=6\"\n"
	"\t.align\t32\n"
	"        .global         k\n"
	"        .type           k,@function\n"
	"        .size           k,(.L_x_2 - k)\n"
	"        .other          k,@\"STO_CUDA_ENTRY STV_DEFAULT\"\n"
	"k:\n"
	".text.k:\n"
	"                                                             /* 0x001c7c00fe0007f6 */\n"
	"        /*0008*/                   MOV R1, c[0x0][0x20] ;    /* 0x4c98078000870001 */\n"
	"        /*0010*/         {         MOV R5, c[0x0][0x148] ;   /* 0x4c98078005270005 */\n"
	"        /*0018*/                   S2R R3, SR_TID.X         }\n"
	"                                                             /* 0xf0c8000002170003 */\n"
	"                                                             /* 0x001ffc00fd8007ef */\n"
	"        /*0028*/                   BRA `(.L_x_0) ;           /* 0xe24000000187000f */\n"
	"        /*0030*/                   NOP ;                     /* 0x50b0000000070f00 */\n"
	"        /*0038*/                   EXIT ;                    /* 0xe30000000007000f */\n"
	".L_x_0:\n"
	"                                                             /* 0x001f8000fc0007ff */\n"
	"        /*0048*/                   BRA `(.L_x_0) ;           /* 0xe2400fffff07000f */\n"
	"        /*0050*/                   NOP;                      /* 0x50b0000000070f00 */\n"
	"        /*0058*/                   NOP;                      /* 0x50b0000000070f00 */\n"
	".L_x_2:\n"
	"\n"
	"\n"
	"//--------------------- SYMBOLS --------------------------\n"
	"\n"
	"\t.type\t\timg,@\"STT_CUDA_SURFACE\"\n";

/* One group of three NOPs and its -novliw listing. */
static const uint64_t nop_group[] = {
	0x001ffc00fd8007ef, 0x50b0000000070f00, 0x50b0000000070f00, 0x50b0000000070f00,
};
static const char expected_raw[] =
	"\t.headerflags    @\"EF_CUDA_SM50 EF_CUDA_PTX_SM(EF_CUDA_SM50)\"\n"
	"                                          /* 0x001ffc00fd8007ef */\n"
	"        /*0008*/                   NOP ;  /* 0x50b0000000070f00 */\n"
	"        /*0010*/                   NOP ;  /* 0x50b0000000070f00 */\n"
	"        /*0018*/                   NOP ;  /* 0x50b0000000070f00 */\n";

static void store_words(uint8_t *p, const uint64_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 8; b++)
			p[8 * i + b] = (uint8_t)(w[i] >> (8 * b));
}

typedef struct Buffer {
	uint8_t *data;
	size_t len;
} Buffer;

/* The test cubin; `replace`, when nonzero, is put in place of the visible
 * kernel's word at byte offset `at`. */
static Buffer build_cubin(size_t at, uint64_t replace)
{
	static uint8_t visible[sizeof visible_code], hidden[sizeof hidden_code];
	store_words(visible, visible_code, sizeof visible_code / 8);
	store_words(hidden, hidden_code, sizeof hidden_code / 8);
	if (replace)
		store_words(visible + at, &replace, 1);
	CubinKernel k[2];
	memset(k, 0, sizeof k);
	k[0] = (CubinKernel){ .name = "k", .code = visible, .code_size = sizeof visible,
	                      .regcount = 6 };
	k[1] = (CubinKernel){ .name = "helper", .local_symbol = true, .code = hidden,
	                      .code_size = sizeof hidden, .regcount = 2 };
	static const char *const surfrefs[] = { "img" };
	CubinModule m = { .sm = 50, .ptx_target_sm = 50, .address64 = true, .kernels = k,
	                  .nkernels = 2, .surfrefs = surfrefs, .nsurfrefs = 1 };
	Buffer b = { NULL, 0 };
	char err[200];
	ck_assert_msg(cubin_write(&m, &b.data, &b.len, err, sizeof err) == 0, "%s", err);
	return b;
}

/* Runs disasm_file; returns its result, the text in *text (free it). */
static int run(const uint8_t *bytes, size_t len, char **text, char *err, size_t errlen)
{
	size_t size = 0;
	FILE *out = open_memstream(text, &size);
	ck_assert_ptr_nonnull(out);
	err[0] = '\0';
	int rc = disasm_file(bytes, len, out, err, errlen);
	fclose(out);
	if (rc != 0) {
		ck_assert_msg(size == 0, "output written on failure");
		ck_assert_msg(err[0] != '\0', "failure without a message");
	}
	return rc;
}

/* ---- listings ---------------------------------------------------------------- */

START_TEST(cubin_listing_matches_nvdisasm)
{
	Buffer b = build_cubin(0, 0);
	char *text, err[256];
	ck_assert_msg(run(b.data, b.len, &text, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(text, expected_listing);
	free(text);
	free(b.data);
}
END_TEST

START_TEST(raw_stream_matches_nvdisasm)
{
	uint8_t raw[sizeof nop_group];
	store_words(raw, nop_group, 4);
	char *text, err[256];
	ck_assert_msg(run(raw, sizeof raw, &text, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(text, expected_raw);
	free(text);
}
END_TEST

START_TEST(unknown_instruction_is_named)
{
	/* A word of no sm_50 operation (nvdisasm 11.8: Unrecognized
	 * operation for functional unit 'uC'), so of no row in the table. */
	Buffer b = build_cubin(0x30, 0xfff8000000000000);
	char *text, err[256];
	ck_assert_int_eq(run(b.data, b.len, &text, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "0xfff8000000000000") && strstr(err, "0x00000030") &&
	              strstr(err, ".text.k"), "%s", err);
	free(text);
	free(b.data);
}
END_TEST

START_TEST(dual_issue_past_the_end_is_refused)
{
	/* Last slot: stall 0 with the yield bit set pairs with nothing. */
	Buffer b = build_cubin(0x40, 0x001fc000fc0007ff | (uint64_t)0x7f0 << 42);
	char *text, err[256];
	ck_assert_int_eq(run(b.data, b.len, &text, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "dual issue") != NULL, "%s", err);
	free(text);
	free(b.data);
}
END_TEST

START_TEST(bad_raw_inputs_are_refused)
{
	uint8_t raw[sizeof nop_group];
	store_words(raw, nop_group, 4);
	char *text, err[256];
	ck_assert_int_eq(run(raw, 24, &text, err, sizeof err), -1);
	free(text);
	ck_assert_int_eq(run(raw, 0, &text, err, sizeof err), -1);
	free(text);
	ck_assert_int_eq(disasm_file(NULL, 0, stdout, err, sizeof err), -1);
}
END_TEST

START_TEST(broken_elf_files_are_refused)
{
	/* The ELF magic makes it a cubin: it is not then read as raw code. */
	uint8_t elf[96] = { 0x7f, 'E', 'L', 'F' };
	char *text, err[256];
	ck_assert_int_eq(run(elf, sizeof elf, &text, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "cubin") != NULL, "%s", err);
	free(text);
	ck_assert_int_eq(run(elf, 4, &text, err, sizeof err), -1);
	free(text);
}
END_TEST

START_TEST(other_architectures_are_refused)
{
	Buffer b = build_cubin(0, 0);
	b.data[48] = 52;    /* e_flags: EF_CUDA_SM52 */
	char *text, err[256];
	ck_assert_int_eq(run(b.data, b.len, &text, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "sm_52") != NULL, "%s", err);
	free(text);
	free(b.data);
}
END_TEST

/* ---- robustness ------------------------------------------------------------------ */

START_TEST(truncated_cubins_fail_cleanly)
{
	Buffer b = build_cubin(0, 0);
	uint64_t shoff = 0;
	for (int i = 7; i >= 0; i--)
		shoff = shoff << 8 | b.data[40 + i];
	size_t headers_end = (size_t)shoff + 64 * (size_t)(b.data[60] | b.data[61] << 8);
	for (size_t len = 0; len < b.len; len++) {
		uint8_t *copy = malloc(len ? len : 1);
		memcpy(copy, b.data, len);
		char *text, err[256];
		/* A prefix that cuts into the section headers must be refused;
		 * one that only loses the program headers after them may be
		 * listed.  Either way nothing may be read past its end (ASan). */
		int rc = run(copy, len, &text, err, sizeof err);
		ck_assert_msg(rc == -1 || len >= headers_end, "a %zu-byte prefix was listed", len);
		free(text);
		free(copy);
	}
	free(b.data);
}
END_TEST

START_TEST(mutated_cubins_never_crash)
{
	Buffer b = build_cubin(0, 0);
	static const uint8_t values[] = { 0x00, 0x80, 0xff };
	uint8_t *copy = malloc(b.len);
	for (size_t i = 0; i < b.len; i++)
		for (size_t v = 0; v < sizeof values; v++) {
			memcpy(copy, b.data, b.len);
			copy[i] = values[v];
			char *text, err[256];
			(void)run(copy, b.len, &text, err, sizeof err);
			free(text);
		}
	free(copy);
	free(b.data);
}
END_TEST

/* A BRX whose EIATTR_INDIRECT_BRANCH_TARGETS entry names a target outside
 * its section (found by fuzz_disasm: the label lookup read past the
 * section's tables) is a malformed cubin: refused with a message. */
static int brx_listing(uint32_t target, char **text, char *err, size_t errlen)
{
	static const uint64_t code[] = {
		0x001ffc00fd8007ef, 0xe2500fffeb07050f, 0x50b0000000070f00, 0xe30000000007000f,
	};
	static uint8_t bytes[sizeof code];
	store_words(bytes, code, sizeof code / 8);
	uint32_t targets[4] = { 0x08, 0, 1, target };
	CubinKernel k = { .name = "k", .code = bytes, .code_size = sizeof bytes, .regcount = 6,
	                  .sync_targets = targets, .nsync_target_words = 4 };
	CubinModule m = { .sm = 50, .ptx_target_sm = 50, .address64 = true, .kernels = &k, .nkernels = 1 };
	Buffer b = { NULL, 0 };
	ck_assert_msg(cubin_write(&m, &b.data, &b.len, err, errlen) == 0, "%s", err);
	int rc = run(b.data, b.len, text, err, errlen);
	free(b.data);
	return rc;
}

START_TEST(brx_targets_outside_the_section_are_refused)
{
	char *text, err[256];
	ck_assert_int_eq(brx_listing(0x18, &text, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(text, "BRANCH_TARGETS"));
	free(text);
	ck_assert_int_eq(brx_listing(0xdc01c0, &text, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "outside its section"));
	free(text);
}
END_TEST

START_TEST(random_bytes_never_crash)
{
	uint64_t state = 0x9e3779b97f4a7c15u;
	for (int round = 0; round < 300; round++) {
		size_t len = (size_t)(state % 4096);
		uint8_t *buf = malloc(len ? len : 1);
		for (size_t i = 0; i < len; i++) {
			state ^= state << 13, state ^= state >> 7, state ^= state << 17;
			buf[i] = (uint8_t)state;
		}
		/* Half of the rounds look like ELF files, to get past the magic. */
		if (round % 2 && len >= 4)
			memcpy(buf, "\x7f" "ELF", 4);
		char *text, err[256];
		(void)run(buf, len, &text, err, sizeof err);
		free(text);
		free(buf);
		state = state * 6364136223846793005u + 1442695040888963407u;
	}
}
END_TEST

static Suite *disasm_file_suite(void)
{
	Suite *s = suite_create("disasm_file");
	TCase *listing = tcase_create("listing");
	tcase_add_test(listing, cubin_listing_matches_nvdisasm);
	tcase_add_test(listing, raw_stream_matches_nvdisasm);
	tcase_add_test(listing, unknown_instruction_is_named);
	tcase_add_test(listing, dual_issue_past_the_end_is_refused);
	tcase_add_test(listing, bad_raw_inputs_are_refused);
	tcase_add_test(listing, broken_elf_files_are_refused);
	tcase_add_test(listing, other_architectures_are_refused);
	suite_add_tcase(s, listing);
	TCase *robust = tcase_create("robustness");
	tcase_set_timeout(robust, 120);
	tcase_add_test(robust, truncated_cubins_fail_cleanly);
	tcase_add_test(robust, mutated_cubins_never_crash);
	tcase_add_test(robust, brx_targets_outside_the_section_are_refused);
	tcase_add_test(robust, random_bytes_never_crash);
	suite_add_tcase(s, robust);
	return s;
}

CHECK_MAIN(disasm_file_suite)
