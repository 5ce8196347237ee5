/* Unit tests of the SASS assembler: every STG form of NVIDIA's STG page
 * (its four examples included), every form of the sm_50 table through a
 * disassemble -> reassemble round trip of random words and control slots,
 * the diagnostics, the control-word annotations, the scheduler with the
 * hazard verifier, and the kernel header into a cubin. */
#include <check.h>

#include <dirent.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/assemble.h"
#include "emit/cubin_read.h"
#include "base/diag.h"
#include "emit/disasm_file.h"
#include "front/parse.h"
#include "sasm/sass_asm.h"
#include "sm50/sass_ctrl.h"
#include "sm50/sass_disasm.h"
#include "sm50/sass_encode.h"
#include "sm50/sass_table.h"
#include "check_main.h"

/* ---- helpers ------------------------------------------------------------------ */

typedef struct Result {
	int rc;
	uint8_t *image;
	size_t len;
	char *listing;
	DiagSink sink;
	char *buf;
} Result;

static void assemble(Result *r, const char *text, bool cubin, SasmSchedule sched)
{
	size_t n = strlen(text);
	r->buf = calloc(n + 2, 1);
	memcpy(r->buf, text, n);
	diag_init(&r->sink, "t.sass", NULL, 0);
	SasmOptions o = { .cubin = cubin, .schedule = sched, .want_listing = true };
	r->rc = sasm_assemble_buffer("t.sass", r->buf, n, &r->sink, &o, &r->image, &r->len, &r->listing);
}

static void release(Result *r)
{
	free(r->image);
	free(r->listing);
	free(r->buf);
	diag_fini(&r->sink);
}

static uint64_t word_at(const Result *r, size_t index)
{
	uint64_t w = 0;
	for (int b = 7; b >= 0; b--)
		w = w << 8 | r->image[8 * index + (size_t)b];
	return w;
}

/* The word of the i-th instruction (skipping control words). */
static uint64_t insn_word(const Result *r, size_t i)
{
	return word_at(r, 4 * (i / 3) + i % 3 + 1);
}

static uint32_t insn_slot(const Result *r, size_t i)
{
	uint32_t slots[3];
	sass_ctrl_unpack_word(word_at(r, 4 * (i / 3)), slots);
	return slots[i % 3];
}

static bool has_rule(Result *r, const char *rule, Severity sev)
{
	for (const Diag *d = r->sink.head; d; d = d->next)
		if (d->rule && strcmp(d->rule, rule) == 0 && d->sev == sev)
			return true;
	return false;
}

static void dump_diags(Result *r)
{
	for (const Diag *d = r->sink.head; d; d = d->next)
		fprintf(stderr, "  %d:%d [%s] %s\n", d->loc.first_line, d->loc.first_column,
		        d->rule ? d->rule : "", d->msg);
}

/* ---- STG: every form of the documentation ------------------------------------ */

typedef struct Golden { const char *text; uint64_t word; } Golden;

/* The four examples of the STG page, then every .cop, every .sz, every
 * address form; words checked against nvdisasm (tests/oracle/sass-roundtrip.sh). */
static const Golden stg_forms[] = {
	{ "STG.32 [R1 + 20], R3;", 0xeedc000001470103 },
	{ "STG.E [R2 + 0x1234], R5;", 0xeedc200123470205 },
	{ "STG.64 [R1 + 24], R4;", 0xeedd000001870104 },
	{ "STG.8 [R1 + 24], R4;", 0xeed8000001870104 },
	{ "STG [R1 + 20], R3;", 0xeedc000001470103 },
	{ "STG.WB.32 [R1+0x14], R3;", 0xeedc000001470103 },
	{ "STG.E.WB [R2+0x1234], R5;", 0xeedc200123470205 },
	{ "STG.CG [R1], R3;", 0xeedc400000070103 },
	{ "STG.CS [R1], R3;", 0xeedc800000070103 },
	{ "STG.WT [R1], R3;", 0xeedcc00000070103 },
	{ "STG.U8 [R1], R3;", 0xeed8000000070103 },
	{ "STG.S8 [R1], R3;", 0xeed9000000070103 },
	{ "STG.16 [R1], R3;", 0xeeda000000070103 },
	{ "STG.U16 [R1], R3;", 0xeeda000000070103 },
	{ "STG.S16 [R1], R3;", 0xeedb000000070103 },
	{ "STG.128 [R1], R4;", 0xeede000000070104 },
	{ "STG.E.CG.64 [R2+0x8], R4;", 0xeedd600000870204 },
	{ "STG [R1 - 0x10], R3;", 0xeedc0fffff070103 },
	{ "STG [R1 + -0x10], R3;", 0xeedc0fffff070103 },
	{ "STG [R1+-0x10], R3;", 0xeedc0fffff070103 },
	{ "STG [R1 + 0x7ffffc], R3;", 0xeedc07ffffc70103 },
	{ "STG [R1 - 0x800000], R3;", 0xeedc080000070103 },
	{ "STG [0x100], R1;", 0xeedc00001007ff01 },
	{ "STG [RZ + 0x100], R1;", 0xeedc00001007ff01 },
	{ "STG [0xfffffc], R1;", 0xeedc0fffffc7ff01 },
	{ "STG [RZ], R1;", 0xeedc00000007ff01 },
	{ "@P0 STG [R1], R3;", 0xeedc000000000103 },
	{ "@!P0 STG [R1], R3;", 0xeedc000000080103 },
	{ "@!PT STG [R1], R3;", 0xeedc0000000f0103 },
	{ "@P6 STG.E.CS.S16 [R4+0x2], R9;", 0xeedba00000260409 },
};

START_TEST(test_stg_forms)
{
	const Golden *g = &stg_forms[_i];
	Result r;
	assemble(&r, g->text, false, SASM_SCHEDULE_AUTO);
	if (r.rc != 0)
		dump_diags(&r);
	ck_assert_msg(r.rc == 0, "%s does not assemble", g->text);
	ck_assert_msg(insn_word(&r, 0) == g->word, "%s: 0x%016" PRIx64 ", expected 0x%016" PRIx64,
	              g->text, insn_word(&r, 0), g->word);
	release(&r);
}
END_TEST

/* ---- every table form: disassemble, reassemble, same bytes ------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static int64_t align_down(int64_t v, int64_t to)
{
	return v - (((v % to) + to) % to);
}

/* Makes a random word one the checker accepts: memory offsets aligned to
 * the access size, 64/128-bit data in aligned register pairs/quads, .E
 * addresses in pairs (register 255 is RZ and stays). */
static void make_valid(const SassForm *f, SassValues *v)
{
	static const int64_t bytes[] = { 1, 1, 2, 2, 4, 8, 16, 16 };
	int64_t size = sass_form_field(f, SR_SIZE) ? bytes[sass_values_get(v, SR_SIZE, 4) & 7] : 4;
	if (f->op == SOP_STG || f->op == SOP_LDG) {
		if (sass_values_get(v, SR_RA, 0) == 255)
			sass_values_set(v, SR_IMM, align_down(sass_values_get(v, SR_IMM, 0) & 0x7fffff, size));
		else
			sass_values_set(v, SR_IMM, align_down(sass_values_get(v, SR_IMM, 0), size));
		if (sass_values_get(v, SR_E, 0) && sass_values_get(v, SR_RA, 0) != 255)
			sass_values_set(v, SR_RA, sass_values_get(v, SR_RA, 0) & ~1);
	}
	if (f->op == SOP_LDC)
		sass_values_set(v, SR_COFF, align_down(sass_values_get(v, SR_COFF, 0), size));
	/* CAS operands at or past R255 print as ???255 (not reassemblable text) */
	if (sass_form_field(f, SR_CAS64) && sass_values_get(v, SR_RB, 0) >= 251)
		sass_values_set(v, SR_RB, sass_values_get(v, SR_RB, 0) - 8);
	if (sass_form_field(f, SR_SIZE) && size >= 8) {
		SassRole r = sass_form_field(f, SR_RD) ? SR_RD : SR_RB;
		int64_t reg = sass_values_get(v, r, 0);
		if (reg != 255)
			sass_values_set(v, r, reg & ~(size / 4 - 1));
	}
}

/* A random word of form f that nvdisasm prints (decodes to f). */
static bool random_word(const SassForm *f, uint64_t *w)
{
	for (int tries = 0; tries < 200; tries++) {
		SassValues v;
		char err[100];
		*w = f->value | (rnd() & ~f->mask);
		if (sass_decode(*w, &v) != f)
			continue;
		make_valid(f, &v);
		if (sass_encode(f, &v, w, err, sizeof err) == 0 && sass_decode(*w, &v) == f)
			return true;
	}
	return false;
}

static uint32_t random_slot(const SassForm *f)
{
	for (;;) {
		uint32_t slot = (uint32_t)rnd() & 0x1fffff;
		SassCtrl c;
		sass_ctrl_unpack_slot(slot, &c);
		if (c.wbar == 6 || c.rbar == 6)
			continue;
		if (sass_slot_allowed(f, slot))
			return slot;
	}
}

/* The listing without the hex comments after instructions (control-word
 * lines stay); trailing blanks go too. */
static char *without_insn_hex(const char *text)
{
	char *out = malloc(strlen(text) + 1);
	size_t n = 0;
	for (const char *line = text; *line; ) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *hex = NULL;
		for (const char *p = line; p + 5 <= line + len; p++)
			if (memcmp(p, "/* 0x", 5) == 0)
				hex = p;
		bool insn = memchr(line, ';', len) != NULL;
		size_t keep = insn && hex ? (size_t)(hex - line) : len;
		while (keep > 0 && line[keep - 1] == ' ')
			keep--;
		memcpy(out + n, line, keep);
		n += keep;
		out[n++] = '\n';
		line += len + (end != NULL);
	}
	out[n] = '\0';
	return out;
}

/* Drops the control-word lines (they hold the reuse bits nvdisasm does not
 * print for some forms). */
static void strip_control_lines(char *text)
{
	char *w = text;
	for (char *line = text; *line; ) {
		char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
		const char *p = line;
		while (*p == ' ')
			p++;
		if (strncmp(p, "/* 0x", 5) != 0) {
			memmove(w, line, len);
			w += len;
		}
		line += len;
	}
	*w = '\0';
}

START_TEST(test_round_trip_every_form)
{
	const SassForm *f = &sass_forms[_i];
	enum { GROUPS = 40 };
	uint8_t code[GROUPS * 32];
	for (size_t g = 0; g < GROUPS; g++) {
		uint32_t slots[3];
		uint64_t words[4];
		for (size_t j = 0; j < 3; j++) {
			ck_assert_msg(random_word(f, &words[j + 1]), "%s: no valid random word", f->name);
			slots[j] = random_slot(f);
		}
		/* Keep branches inside the code: BRA targets are printed as
		 * absolute addresses that must stay 24-bit offsets. */
		words[0] = sass_ctrl_pack_word(slots);
		for (size_t w = 0; w < 4; w++)
			for (size_t b = 0; b < 8; b++)
				code[32 * g + 8 * w + b] = (uint8_t)(words[w] >> (8 * b));
	}
	char *text = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&text, &n);
	char err[200];
	int drc = sass_disasm_stream(code, sizeof code, 0, out, err, sizeof err);
	fclose(out);
	ck_assert_msg(drc == 0, "%s: %s", f->name, err);
	Result r;
	assemble(&r, text, false, SASM_SCHEDULE_KEEP);
	if (r.rc != 0)
		dump_diags(&r);
	ck_assert_msg(r.rc == 0, "%s: the listing does not reassemble", f->name);
	ck_assert_int_eq(r.len, sizeof code);
	for (size_t i = 0; i < sizeof code / 8; i++)
		ck_assert_msg(word_at(&r, i) == word_at(&(Result){ .image = code }, i),
		              "%s: word %zu is 0x%016" PRIx64 ", expected 0x%016" PRIx64, f->name, i,
		              word_at(&r, i), word_at(&(Result){ .image = code }, i));
	ck_assert_str_eq(r.listing, text);
	release(&r);
	/* Without the instruction hex comments the text alone must give the
	 * same instructions (bits the text does not show become zero). */
	char *bare = without_insn_hex(text);
	assemble(&r, bare, false, SASM_SCHEDULE_KEEP);
	if (r.rc != 0)
		dump_diags(&r);
	ck_assert_msg(r.rc == 0, "%s: the listing without hex comments does not reassemble", f->name);
	char *a = without_insn_hex(text), *b = without_insn_hex(r.listing);
	strip_control_lines(a);
	strip_control_lines(b);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	free(bare);
	release(&r);
	free(text);
}
END_TEST

/* ---- diagnostics ------------------------------------------------------------- */

typedef struct BadCase { const char *text; const char *rule; } BadCase;

static const BadCase bad_cases[] = {
	{ "STG [R1 + 0x800000], R3;", "sass-range" },
	{ "STG [R1 - 0x800004], R3;", "sass-range" },
	{ "STG [0x1000000], R3;", "sass-range" },
	{ "STG [R1 + 2], R3;", "sass-align" },
	{ "STG.64 [R1 + 4], R4;", "sass-align" },
	{ "STG.128 [R1 + 8], R4;", "sass-align" },
	{ "STG.16 [R1 + 1], R4;", "sass-align" },
	{ "STG.64 [R1], R3;", "sass-regalign" },
	{ "STG.128 [R1], R6;", "sass-regalign" },
	{ "STG.E [R1], R2;", "sass-regalign" },
	{ "LDG.E.64 R3, [R2];", "sass-regalign" },
	{ "STG.FOO [R1], R3;", "sass-syntax" },
	{ "STG.CG.CS [R1], R3;", "sass-syntax" },
	{ "STG [R1], R3 &req_6;", "sass-barrier" },
	{ "STG [R1], R3 &rd7;", "sass-barrier" },
	{ "--:6:-:-:1 STG [R1], R3;", "sass-barrier" },
	{ "STG [R1], R3 ?WAIT16;", "sass-range" },
	{ "MOV R1, R2 &wr1;", "sass-ctrl" },
	{ "FROB R1, R2;", "sass-syntax" },
	{ "MOV R1;", "sass-syntax" },
	{ "@P7 STG [R1], R3;", "sass-syntax" },
	{ "BRA nowhere;", "sass-label" },
	{ "x: EXIT;\nx: EXIT;", "sass-label" },
	{ "MOV32I R1, 0x100000000;", "sass-range" },
	{ "IADD R1, R2, 0x100000;", "sass-range" },
	{ "STG [R1], R3", "syntax" },
	{ "EXIT;\n/* 0x001fc400fe2007f6 */\nEXIT;", "sass-syntax" },
	{ "/* 0x001fc400fe2007f6 */\n/* 0x001fc400fe2007f6 */\nEXIT;", "sass-ctrl" },
	{ ".param 0\nEXIT;", "sass-kernel" },
};

START_TEST(test_diagnostics)
{
	const BadCase *c = &bad_cases[_i];
	Result r;
	assemble(&r, c->text, false, SASM_SCHEDULE_KEEP);
	if (!has_rule(&r, c->rule, SEV_ERROR))
		dump_diags(&r);
	ck_assert_msg(r.rc != 0, "'%s' assembles", c->text);
	ck_assert_msg(has_rule(&r, c->rule, SEV_ERROR), "'%s': no [%s] error", c->text, c->rule);
	release(&r);
}
END_TEST

/* ---- control words ------------------------------------------------------------- */

START_TEST(test_annotations)
{
	Result r;
	assemble(&r,
	         "STG.E [R2], R5 &req_0 &req_3 &rd1 ?WAIT4;\n"
	         "03:1:0:Y:f SULD.D.2D.64 R4, [R2], 0x53;\n"
	         "LDG.E R7, [R2] &wr5 ?WAIT2 ?YIELD;\n"
	         "IADD R1, R2.reuse, R3.reuse;\n",
	         false, SASM_SCHEDULE_KEEP);
	if (r.rc != 0)
		dump_diags(&r);
	ck_assert_int_eq(r.rc, 0);
	SassCtrl c;
	sass_ctrl_unpack_slot(insn_slot(&r, 0), &c);
	ck_assert_uint_eq(c.wait, 0x09);
	ck_assert_uint_eq(c.rbar, 1);
	ck_assert_uint_eq(c.stall, 4);
	sass_ctrl_unpack_slot(insn_slot(&r, 1), &c);
	ck_assert_uint_eq(c.wait, 0x03);
	ck_assert_uint_eq(c.rbar, 1);
	ck_assert_uint_eq(c.wbar, 0);
	ck_assert_uint_eq(c.yield, 0);
	ck_assert_uint_eq(c.stall, 15);
	sass_ctrl_unpack_slot(insn_slot(&r, 2), &c);
	ck_assert_uint_eq(c.wbar, 5);
	ck_assert_uint_eq(c.stall, 2);
	ck_assert_uint_eq(c.yield, 0);
	sass_ctrl_unpack_slot(insn_slot(&r, 3), &c);
	ck_assert_uint_eq(c.reuse, 3);
	release(&r);
}
END_TEST

/* The control-word lines of a listing are kept as they are, reuse bits on
 * stores (which nvdisasm does not print) included. */
START_TEST(test_control_word_lines)
{
	Result r;
	assemble(&r,
	         "/* 0x001fd800fe2207f1 */\n"
	         "STG [R1], R3 ; /* 0xeedc000000070103 */\n"
	         "EXIT ;\n"
	         "BRA 0x18 ;\n",
	         false, SASM_SCHEDULE_KEEP);
	if (r.rc != 0)
		dump_diags(&r);
	ck_assert_int_eq(r.rc, 0);
	ck_assert(word_at(&r, 0) == 0x001fd800fe2207f1);
	ck_assert(insn_word(&r, 2) == 0xe2400fffff87000f);
	release(&r);
}
END_TEST

/* ---- scheduling ------------------------------------------------------------------ */

static const char *sched_program =
	".kernel k\n"
	".param 8\n"
	"MOV R1, c[0x0][0x20];\n"
	"S2R R0, SR_TID.X;\n"
	"ISCADD R2.CC, R0, c[0x0][0x140], 0x2;\n"
	"IADD.X R3, RZ, c[0x0][0x144];\n"
	"LDG.E R4, [R2];\n"
	"IADD32I R4, R4, 0x1;\n"
	"STG.E [R2], R4;\n"
	"MOV R4, RZ;\n"
	"ISETP.EQ.U32.AND P0, PT, R0, RZ, PT;\n"
	"@P0 BRA done;\n"
	"STG.E [R2+0x4], R4;\n"
	"done:\n"
	"EXIT;\n";

START_TEST(test_auto_schedule_is_hazard_free)
{
	Result r;
	assemble(&r, sched_program, false, SASM_SCHEDULE_AUTO);
	if (r.rc != 0 || r.sink.count[SEV_WARNING])
		dump_diags(&r);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(r.sink.count[SEV_WARNING], 0);
	SassCtrl c;
	sass_ctrl_unpack_slot(insn_slot(&r, 4), &c);      /* LDG sets a write barrier */
	ck_assert_uint_lt(c.wbar, 6);
	unsigned ldg_bar = c.wbar;
	sass_ctrl_unpack_slot(insn_slot(&r, 5), &c);      /* its consumer waits on it */
	ck_assert(c.wait & (1u << ldg_bar));
	release(&r);
}
END_TEST

START_TEST(test_verifier_finds_hazards)
{
	Result r;
	assemble(&r,
	         "--:-:-:-:1 LDG.E R4, [R2];\n"
	         "--:-:-:-:1 IADD32I R5, R4, 0x1;\n"
	         "--:-:-:-:1 IADD32I R6, R5, 0x1;\n"
	         "--:-:-:-:f EXIT;\n",
	         false, SASM_SCHEDULE_KEEP);
	ck_assert_int_eq(r.rc, 0);
	ck_assert(has_rule(&r, "sass-hazard", SEV_WARNING));
	release(&r);
	assemble(&r,
	         "--:-:-:-:1 LDG.E R4, [R2];\n"
	         "--:-:-:-:1 IADD32I R5, R4, 0x1;\n"
	         "--:-:-:-:1 IADD32I R6, R5, 0x1;\n"
	         "--:-:-:-:f EXIT;\n",
	         false, SASM_SCHEDULE_AUTO);
	ck_assert_int_eq(r.rc, 0);
	ck_assert(!has_rule(&r, "sass-hazard", SEV_WARNING));
	release(&r);
}
END_TEST

/* ---- the kernel header ------------------------------------------------------------ */

START_TEST(test_kernel_header_cubin)
{
	Result r;
	assemble(&r,
	         ".surfref surf\n"
	         ".kernel write_surface\n"
	         ".param 8\n"
	         ".param 4\n"
	         ".surface surf\n"
	         "MOV R1, c[0x0][0x20];\n"
	         "S2R R0, SR_CTAID.X;\n"
	         "MOV R2, c[0x0][0x148];\n"
	         "SUST.D.BA.1D.TRAP [R0], R2, 0x53;\n"
	         "EXIT;\n",
	         true, SASM_SCHEDULE_AUTO);
	if (r.rc != 0)
		dump_diags(&r);
	ck_assert_int_eq(r.rc, 0);
	ck_assert(r.len > 64);
	ck_assert(memcmp(r.image, "\177ELF", 4) == 0);
	CubinImage ci;
	char err[200];
	ck_assert_msg(cubin_read(r.image, r.len, &ci, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(ci.nkernels, 1);
	const CubinKernel *k = &ci.kernels[0].k;
	ck_assert_str_eq(k->name, "write_surface");
	ck_assert_uint_eq(k->nparams, 2);
	ck_assert_uint_eq(k->params[0].offset, 0);
	ck_assert_uint_eq(k->params[0].size, 8);
	ck_assert_uint_eq(k->params[1].offset, 8);
	ck_assert_uint_eq(k->params[1].size, 4);
	ck_assert_uint_eq(k->nslots, 1);
	ck_assert_uint_eq(k->slots[0].cbank_offset, 0x14c);
	ck_assert_uint_eq(k->nexit_offsets, 1);
	ck_assert_uint_eq(k->exit_offsets[0], 0x30);
	ck_assert_uint_eq(k->regcount, 3);
	ck_assert_uint_eq(ci.nsurfrefs, 1);
	cubin_image_free(&ci);
	release(&r);
}
END_TEST

/* ---- every cubin of the test suite: listing -> SASS -> the same code -------- */

static char *read_text(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = calloc((size_t)len + 2, 1);
	*n = fread(b, 1, (size_t)len, f);
	fclose(f);
	return b;
}

/* Builds the cubin of a PTX file with the project's own back end; false
 * when the file is not one the back end assembles. */
static bool ptx_to_cubin(const char *path, uint8_t **img, size_t *len)
{
	size_t n;
	char *src = read_text(path, &n);
	if (src == NULL)
		return false;
	Module m;
	DiagSink d;
	module_init(&m, path);
	diag_init(&d, path, src, n);
	char *listing = NULL;
	AssembleOptions o = { ASM_CUBIN, false, false, 0, false };
	bool ok = ptx_parse_buffer(&m, &d, src, n) == 0 && assemble_module(&m, &d, &o, img, len, &listing) == 0;
	free(listing);
	diag_fini(&d);
	module_fini(&m);
	free(src);
	return ok;
}

/* Reassembles `text` as a raw stream and compares it with `code`. */
static bool reassembles_to(const char *text, const uint8_t *code, size_t len, const char *what)
{
	Result r;
	assemble(&r, text, false, SASM_SCHEDULE_KEEP);
	bool same = r.rc == 0 && r.len == len && memcmp(r.image, code, len) == 0;
	if (!same) {
		fprintf(stderr, "%s: %s\n", what, r.rc ? "does not reassemble" : "different bytes");
		dump_diags(&r);
	}
	release(&r);
	return same;
}

static unsigned cubin_round_trips(const char *dir)
{
	DIR *dp = opendir(dir);
	unsigned done = 0;
	if (dp == NULL)
		return 0;
	struct dirent *e;
	while ((e = readdir(dp)) != NULL) {
		size_t nl = strlen(e->d_name);
		if (nl < 5 || strcmp(e->d_name + nl - 4, ".ptx") != 0)
			continue;
		char path[512];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		uint8_t *img;
		size_t len;
		if (!ptx_to_cubin(path, &img, &len))
			continue;
		CubinImage ci;
		char err[200];
		ck_assert_msg(cubin_read(img, len, &ci, err, sizeof err) == 0, "%s: %s", path, err);
		/* nvdisasm -c -hex text of the whole cubin: the code of every
		 * section, in section order */
		char *text = NULL;
		size_t tn = 0;
		FILE *out = open_memstream(&text, &tn);
		int drc = disasm_file(img, len, out, err, sizeof err);
		fclose(out);
		ck_assert_msg(drc == 0, "%s: %s", path, err);
		size_t total = 0;
		for (size_t k = 0; k < ci.nkernels; k++)
			total += ci.kernels[k].k.code_size;
		uint8_t *all = malloc(total + 1);
		total = 0;
		for (size_t k = 0; k < ci.nkernels; k++) {
			memcpy(all + total, ci.kernels[k].k.code, ci.kernels[k].k.code_size);
			total += ci.kernels[k].k.code_size;
			/* nvdisasm -b SM50 -hex -novliw text of each kernel's code */
			char *raw = NULL;
			size_t rn = 0;
			FILE *ro = open_memstream(&raw, &rn);
			int rrc = sass_disasm_stream(ci.kernels[k].k.code, ci.kernels[k].k.code_size, 0, ro,
			                             err, sizeof err);
			fclose(ro);
			ck_assert_msg(rrc == 0, "%s: %s", path, err);
			ck_assert_msg(reassembles_to(raw, ci.kernels[k].k.code, ci.kernels[k].k.code_size, path),
			              "%s: the raw listing of kernel %zu does not round-trip", path, k);
			free(raw);
		}
		/* a relocated operand (`(.nv.surfrefDescSize) of the suq descriptor
		 * lookup) is not SASS the front end reads: only the raw listings
		 * (the immediate 0x0) round-trip then, as in sass-roundtrip.sh */
		if (strstr(text, "`(") == NULL)
			ck_assert_msg(reassembles_to(text, all, total, path), "%s: the cubin listing does not "
			              "round-trip", path);
		free(all);
		free(text);
		cubin_image_free(&ci);
		free(img);
		done++;
	}
	closedir(dp);
	return done;
}

START_TEST(test_suite_cubins_round_trip)
{
	unsigned n = cubin_round_trips("tests/cases/encode") + cubin_round_trips("examples");
	fprintf(stderr, "sass_asm: %u cubins of the test suite round-trip\n", n);
	ck_assert_uint_gt(n, 10);
}
END_TEST

Suite *sass_asm_suite(void)
{
	Suite *s = suite_create("sass_asm");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_stg_forms, 0, (int)(sizeof stg_forms / sizeof stg_forms[0]));
	tcase_add_loop_test(tc, test_round_trip_every_form, 0, (int)sass_form_count);
	tcase_add_loop_test(tc, test_diagnostics, 0, (int)(sizeof bad_cases / sizeof bad_cases[0]));
	tcase_add_test(tc, test_annotations);
	tcase_add_test(tc, test_control_word_lines);
	tcase_add_test(tc, test_auto_schedule_is_hazard_free);
	tcase_add_test(tc, test_verifier_finds_hazards);
	tcase_add_test(tc, test_kernel_header_cubin);
	tcase_add_test(tc, test_suite_cubins_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(sass_asm_suite)
