/* libFuzzer target over the whole pipeline, as the command-line driver
 * runs it: parse, render the diagnostics, check in both rule modes and,
 * for a module that checks clean, assemble it (cubin and raw), read the
 * cubin back, disassemble every result, and print the module as PTX and
 * parse that text again. The streaming path (stream.h: one top-level item
 * at a time, the LAC-free parser first; for --check also with the checker
 * on a second thread) must report exactly what the whole-module path
 * reports, and assemble exactly the same bytes. Any crash, leak or undefined behaviour on the
 * way is a bug: every stage must cope with whatever the previous one
 * accepted. */
#include "driver/assemble.h"
#include "check/check.h"
#include "emit/cubin_read.h"
#include "base/diag.h"
#include "front/parse.h"
#include "front/print.h"
#include "driver/report.h"
#include "sm50/sass_disasm.h"
#include "driver/stream.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The scanner scans in place and writes into its buffer, and it needs two
 * NUL bytes after the text: libFuzzer's data is read-only and has neither. */
static char *scan_copy(const void *data, size_t size)
{
	char *buf = malloc(size + 2);
	if (!buf)
		abort();
	if (size)
		memcpy(buf, data, size);
	buf[size] = 0;
	buf[size + 1] = 0;
	return buf;
}

/* Renders the sink as the driver can: text with carets, JSON and SARIF.
 * Output goes to memory: writing to a file would slow the fuzzer down,
 * and the text is only produced to run the formatting and escaping code. */
static void render(DiagSink *d)
{
	static const ReportFormat formats[] = { REPORT_TEXT, REPORT_JSON, REPORT_SARIF };
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		if (!f)
			abort();
		Report r;
		report_begin(&r, formats[i], f, true);
		report_file(&r, d);
		report_end(&r);
		fclose(f);
		free(text);
	}
}

/* Disassembles what the assembler produced. The back end only emits code
 * it can list, so a failure here is itself a bug worth a crash report.
 * A module without kernels assembles to no code at all, which the
 * disassembler rightly refuses as a stream, so there is nothing to list. */
static void disasm_or_die(const uint8_t *code, size_t n, uint64_t base)
{
	if (n == 0)
		return;
	char err[256];
	FILE *sink = fopen("/dev/null", "w");
	if (!sink)
		abort();
	int rc = sass_disasm_stream(code, n, base, sink, err, sizeof err);
	fclose(sink);
	if (rc != 0) {
		fprintf(stderr, "fuzz_pipeline: assembled code does not disassemble: %s\n", err);
		abort();
	}
}

/* The sink as text, for comparing two paths' diagnostics. */
static char *diag_text(DiagSink *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		abort();
	DiagTextOptions opt = { .color = false, .caret = true };
	diag_render_text(d, f, &opt);
	fclose(f);
	return text;
}

/* A module as the driver streams it (stream.h: the fast parser, then the
 * exact one after a syntax error), checking and, with `ao`, assembling;
 * with `threads` 2, --check runs the checker on a thread of its own behind
 * the parser (check_pipe.h), every body statement by statement or
 * (`whole_bodies`) every item whole through the pipe. Returns the
 * diagnostics text, or NULL when the module needs the whole-module path
 * (the driver then takes that path); the assembled image, if any, is left
 * in *job. */
static char *run_streamed_on(const uint8_t *data, size_t size, RulesMode rules, const AssembleOptions *ao,
                             StreamJob *job, bool fast, unsigned threads, bool whole_bodies)
{
	char *buf = scan_copy(data, size);
	Module m;
	DiagSink d;
	module_init(&m, "fuzz.ptx");
	diag_init(&d, "fuzz.ptx", buf, size);
	CheckOptions co = { .rules = rules };
	/* every body statement by statement (the driver waits for long ones) */
	*job = (StreamJob){ .check = &co, .assemble = ao, .body_min_stmts = whole_bodies ? 1u << 30 : 1,
	                    .threads = threads };
	StreamResult r = stream_module(&m, &d, buf, size, fast, job);
	char *text = r == STREAM_DONE ? diag_text(&d) : NULL;
	diag_fini(&d);
	module_fini(&m);
	free(buf);
	if (r == STREAM_AGAIN && fast)
		return run_streamed_on(data, size, rules, ao, job, false, threads, whole_bodies);
	return text;
}

static char *run_streamed(const uint8_t *data, size_t size, RulesMode rules, const AssembleOptions *ao,
                          StreamJob *job, bool fast)
{
	return run_streamed_on(data, size, rules, ao, job, fast, 1, false);
}

static char *check_streamed(const uint8_t *data, size_t size, RulesMode rules, unsigned threads, bool whole_bodies)
{
	StreamJob job;
	return run_streamed_on(data, size, rules, NULL, &job, true, threads, whole_bodies);
}

/* Streaming assembly must write exactly what assemble_module() wrote for
 * the module (a listing included), with the same diagnostics. */
static void compare_streamed_assembly(const uint8_t *data, size_t size, const AssembleOptions *ao, int rc,
                                      const uint8_t *image, size_t len, const char *listing, DiagSink *whole)
{
	StreamJob job;
	char *streamed = run_streamed(data, size, RULES_STRICT, ao, &job, true);
	if (!streamed)
		return;
	char *expected = diag_text(whole);
	bool same_image = (rc == 0) == (job.image != NULL) &&
	                  (rc != 0 || (job.image_len == len && memcmp(job.image, image, len) == 0));
	bool same_listing = (rc != 0 && !job.listing) ||
	                    (rc == 0 && listing && job.listing && strcmp(listing, job.listing) == 0);
	if (strcmp(streamed, expected) != 0 || !same_image || !same_listing) {
		fprintf(stderr, "fuzz_pipeline: streaming assembly differs from the whole-module path "
		        "(image %s, listing %s):\n--- whole module ---\n%s--- streamed ---\n%s",
		        same_image ? "same" : "differs", same_listing ? "same" : "differs", expected, streamed);
		abort();
	}
	free(expected);
	free(streamed);
	free(job.image);
	free(job.listing);
}

/* Assembles a module that checked clean into `into`, the sink its check
 * filled, as the driver does; with `compare`, the streaming path must
 * agree. */
static void assemble_and_read_back(const uint8_t *data, size_t size, const Module *m, DiagSink *into,
                                   AsmFormat format, bool compare)
{
	AssembleOptions opt = { .format = format, .want_listing = true };
	uint8_t *image = NULL;
	size_t len = 0;
	char *listing = NULL;
	int rc = assemble_module(m, into, &opt, &image, &len, &listing);
	if (compare)
		compare_streamed_assembly(data, size, &opt, rc, image, len, listing, into);
	if (rc == 0) {
		if (format == ASM_RAW) {
			disasm_or_die(image, len, 0);
		} else {
			CubinImage img;
			char err[256];
			if (cubin_read(image, len, &img, err, sizeof err) != 0) {
				fprintf(stderr, "fuzz_pipeline: own cubin does not read back: %s\n", err);
				abort();
			}
			for (size_t k = 0; k < img.nkernels; k++)
				disasm_or_die(img.kernels[k].k.code, img.kernels[k].k.code_size,
				              img.kernels[k].address);
			cubin_image_free(&img);
		}
	}
	render(into);
	free(image);
	free(listing);
}


/* The streamed --check, on one thread and piped over two (bodies
 * streamed statement by statement or whole), says what the whole-module
 * check says. */
static void compare_streamed(const uint8_t *data, size_t size, RulesMode rules, DiagSink *whole)
{
	static const struct { unsigned threads; bool whole_bodies; const char *name; } ways[] = {
		{ 1, false, "streaming --check" },
		{ 2, false, "--check piped over two threads" },
		{ 2, true, "--check piped over two threads, bodies whole," },
	};
	char *expected = diag_text(whole);
	for (size_t i = 0; i < sizeof ways / sizeof ways[0]; i++) {
		char *streamed = check_streamed(data, size, rules, ways[i].threads, ways[i].whole_bodies);
		if (streamed && strcmp(streamed, expected) != 0) {
			fprintf(stderr, "fuzz_pipeline: %s differs from the whole-module check:\n"
			        "--- whole module ---\n%s--- streamed ---\n%s", ways[i].name, expected, streamed);
			abort();
		}
		free(streamed);
	}
	free(expected);
}

/* Parses and checks one buffer; returns whether it came out clean. */
static int parse_and_check(Module *m, DiagSink *d, char *buf, size_t len, RulesMode rules)
{
	module_init(m, "fuzz.ptx");
	diag_init(d, "fuzz.ptx", buf, len);
	ptx_parse_buffer(m, d, buf, len);
	if (diag_errors(d) == 0) {
		CheckOptions co = { .rules = rules };
		check_module(m, d, &co);
	}
	render(d);
	return diag_errors(d) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The ptxas mode is checked on its own fresh parse: the checker may
	 * annotate the tree, and each mode must see what the driver gives it. */
	char *buf = scan_copy(data, size);
	Module m;
	DiagSink d;
	parse_and_check(&m, &d, buf, size, RULES_PTXAS);
	compare_streamed(data, size, RULES_PTXAS, &d);
	diag_fini(&d);
	module_fini(&m);
	free(buf);

	buf = scan_copy(data, size);
	int clean = parse_and_check(&m, &d, buf, size, RULES_STRICT);
	compare_streamed(data, size, RULES_STRICT, &d);
	if (clean) {
		/* The raw stream gets a sink of its own: the cubin run's
		 * diagnostics are in d now. */
		DiagSink raw;
		diag_init(&raw, "fuzz.ptx", buf, size);
		assemble_and_read_back(data, size, &m, &d, ASM_CUBIN, true);
		assemble_and_read_back(data, size, &m, &raw, ASM_RAW, false);
		diag_fini(&raw);

		char *text = NULL;
		size_t tlen = 0;
		FILE *f = open_memstream(&text, &tlen);
		if (!f)
			abort();
		ptx_print_module(&m, f);
		fclose(f);
		/* A module that parsed clean prints as PTX that parses clean:
		 * the round-trip tests rely on it for the corpus, the fuzzer
		 * extends it to everything the grammar accepts. */
		char *again = scan_copy(text, tlen);
		Module m2;
		DiagSink d2;
		module_init(&m2, "fuzz-printed.ptx");
		diag_init(&d2, "fuzz-printed.ptx", again, tlen);
		ptx_parse_buffer(&m2, &d2, again, tlen);
		if (diag_errors(&d2) != 0) {
			fprintf(stderr, "fuzz_pipeline: printed module does not parse again:\n%.*s\n",
			        (int)(tlen > 4000 ? 4000 : tlen), text);
			DiagTextOptions opt = { .color = false, .caret = true };
			diag_render_text(&d2, stderr, &opt);
			abort();
		}
		diag_fini(&d2);
		module_fini(&m2);
		free(again);
		free(text);
	}
	diag_fini(&d);
	module_fini(&m);
	free(buf);
	return 0;
}
