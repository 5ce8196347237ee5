/* ptxsurf-as: command-line driver. Reads each input, runs the passes
 * (parse -> check -> ...), renders the diagnostics and writes the output. */
#include "driver/api_internal.h"
#include "driver/compat.h"
#include "driver/file_pool.h"
#include "driver/lsp.h"
#include "base/input.h"
#include "driver/options.h"
#include "base/output.h"
#include "front/parse.h"
#include "front/print.h"
#include "driver/rules_doc.h"
#include "sasm/sass_asm.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void print_summary(const char *filename, ApiStats st, const DiagSink *d, FILE *out)
{
	fprintf(out, "%s: %u entr%s, %u function%s, %u module variable%s, %u instruction%s; "
		"%u error%s, %u warning%s\n",
		filename, st.entries, st.entries == 1 ? "y" : "ies", st.funcs - st.entries,
		st.funcs - st.entries == 1 ? "" : "s", st.vars, st.vars == 1 ? "" : "s",
		st.instrs, st.instrs == 1 ? "" : "s", d->count[SEV_ERROR],
		d->count[SEV_ERROR] == 1 ? "" : "s", d->count[SEV_WARNING],
		d->count[SEV_WARNING] == 1 ? "" : "s");
}

static int emit_ptx(const Module *m, const Options *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem) {
		fprintf(stderr, "ptxsurf-as: error: out of memory\n");
		return EXIT_USAGE;
	}
	ptx_print_module(m, mem);
	fclose(mem);
	char err[512];
	int rc = output_write_atomic(o->output ? o->output : "-", buf, len, err, sizeof err);
	free(buf);
	if (rc != 0) {
		fprintf(stderr, "ptxsurf-as: error: %s\n", err);
		return EXIT_USAGE;
	}
	return EXIT_CLEAN;
}

/* kernel.ptx -> kernel.cubin (or .bin for raw streams), next to the input. */
static char *default_output(const char *input, AsmFormat format)
{
	const char *ext = format == ASM_RAW ? ".bin" : ".cubin";
	size_t n = strlen(input);
	const char *slash = strrchr(input, '/');
	const char *dot = strrchr(input, '.');
	if (dot && (!slash || dot > slash) && dot != input && (!slash || dot > slash + 1))
		n = (size_t)(dot - input);
	char *out = malloc(n + strlen(ext) + 1);
	if (out) {
		memcpy(out, input, n);
		strcpy(out + n, ext);
	}
	return out;
}

/* Writes an assembled image and listing: the listing to stdout, the image
 * to -o, or next to the input unless only a listing was asked for. */
static int write_outputs(const Options *o, const char *input, const uint8_t *image, size_t len,
			 const char *listing)
{
	char err[512];
	if (listing && output_write_atomic("-", listing, strlen(listing), err, sizeof err) != 0) {
		fprintf(stderr, "ptxsurf-as: error: %s\n", err);
		return EXIT_USAGE;
	}
	char *dflt = NULL;
	const char *dest = o->output;
	int status = EXIT_CLEAN;
	if (!dest && !o->listing) {
		if (strcmp(input, "-") == 0) {
			fprintf(stderr, "ptxsurf-as: error: the input is standard input: name the output with -o FILE\n");
			return EXIT_USAGE;
		}
		dest = dflt = default_output(input, o->format);
	}
	if (dest && output_write_atomic(dest, image, len, err, sizeof err) != 0) {
		fprintf(stderr, "ptxsurf-as: error: %s\n", err);
		status = EXIT_USAGE;
	}
	free(dflt);
	return status;
}

static bool is_sass_input(const char *path, const Options *o)
{
	if (o->input_sass >= 0)
		return o->input_sass == 1;
	size_t n = strlen(path);
	return n > 5 && strcmp(path + n - 5, ".sass") == 0;
}

/* A .sass file: Maxwell assembly text, assembled as written. */
static int process_sass(InputFile *in, const char *path, const Options *o, Report *rep)
{
	DiagSink d;
	diag_init(&d, in->name, in->data, in->len);
	d.limit = o->max_errors;
	d.policy = &o->policy;
	SasmOptions so = { .cubin = o->format == ASM_CUBIN,
			      .schedule = o->schedule_auto ? SASM_SCHEDULE_AUTO : SASM_SCHEDULE_KEEP,
			      .want_listing = o->listing, .verify_sched = o->verify_sched };
	uint8_t *image = NULL;
	size_t len = 0;
	char *listing = NULL;
	int rc = sasm_assemble_buffer(in->name, in->data, in->len, &d, &so, &image, &len, &listing);
	int status = rc != 0 || diag_errors(&d) ? EXIT_DIAGNOSTICS : EXIT_CLEAN;
	if (status == EXIT_CLEAN && o->mode == MODE_ASSEMBLE)
		status = write_outputs(o, path, image, len, listing);
	report_file(rep, &d);
	free(image);
	free(listing);
	diag_fini(&d);
	return status;
}

/* The options of the library's pipeline (api_run) for --check and
 * assembly; `ao` must outlive the run. */
static ApiRun pipeline_run(const Options *o, AssembleOptions *ao)
{
	*ao = (AssembleOptions){ .format = o->format, .want_listing = o->listing,
	                         .verify_sched = o->verify_sched, .relocatable = o->relocatable,
	                         .kernel_threads = o->kernel_jobs };
	return (ApiRun){ .check = &o->check, .policy = &o->policy, .limit = o->max_errors,
	                 .assemble = o->mode == MODE_ASSEMBLE ? ao : NULL, .want_stats = o->verbose,
	                 .check_threads = o->kernel_jobs };
}

/* --check and assembly: the pipeline's result (made here, or by a -j
 * worker), then the outputs written and the diagnostics reported. */
static int finish_pipeline(ptxsurf_result *r, const char *name, const char *path, const Options *o,
                           Report *rep)
{
	int status = diag_errors(&r->sink) ? EXIT_DIAGNOSTICS : EXIT_CLEAN;
	if (o->mode == MODE_ASSEMBLE && status == EXIT_CLEAN)
		status = write_outputs(o, path, r->image, r->image_len, r->listing);
	report_file(rep, &r->sink);
	if (o->verbose)
		print_summary(name, r->stats, &r->sink, stderr);
	ptxsurf_result_free(r);
	return status;
}

static int report_read_error(const char *path, const char *err, Report *rep)
{
	/* through the sink, so JSON and SARIF reports carry it too */
	DiagSink d;
	diag_init(&d, path, "", 0);
	diag_add(&d, SEV_ERROR, (SrcLoc){ 0 }, RULE_IO, "%s", err);
	report_file(rep, &d);
	diag_fini(&d);
	return EXIT_USAGE;
}

/* A file a -j worker read and ran through the pipeline. */
static int finish_pooled(FileResult fr, const char *path, const Options *o, Report *rep)
{
	if (fr.fatal[0]) {
		fflush(stdout);
		fprintf(stderr, "ptxsurf-as: fatal: %s\n", fr.fatal);
		exit(2);
	}
	if (fr.read_failed)
		return report_read_error(path, fr.err, rep);
	int status = finish_pipeline(fr.result, fr.in.name, path, o, rep);
	input_free(&fr.in);
	return status;
}

/* The files a -j worker can take: --check and assembly of PTX. The other
 * modes print as they go and stay on the main thread. */
static bool pooled_mode(const char *path, const Options *o)
{
	return (o->mode == MODE_CHECK || o->mode == MODE_ASSEMBLE) && !is_sass_input(path, o);
}

static int process(const char *path, const Options *o, Report *rep)
{
	InputFile in;
	char err[512];
	if (input_read(&in, path, err, sizeof err) != 0)
		return report_read_error(path, err, rep);
	if (is_sass_input(path, o)) {
		int status = process_sass(&in, path, o, rep);
		input_free(&in);
		return status;
	}
	if (o->mode == MODE_CHECK || o->mode == MODE_ASSEMBLE) {
		AssembleOptions ao;
		ApiRun run = pipeline_run(o, &ao);
		int status = finish_pipeline(api_run(&run, in.name, in.data, in.len), in.name, path, o, rep);
		input_free(&in);
		return status;
	}
	int status = EXIT_CLEAN;
	Module m;
	module_init(&m, in.name);
	DiagSink d;
	diag_init(&d, in.name, in.data, in.len);
	d.limit = o->max_errors;
	d.policy = &o->policy;

	ptx_parse_buffer(&m, &d, in.data, in.len);
	/* Semantic rules only make sense on a module that parsed cleanly, and
	 * only a module the checker accepts is assembled. */
	if (diag_errors(&d) == 0 && o->mode == MODE_REQUIREMENTS)
		status = compat_requirements(&m, &d, o, stdout);
	else if (diag_errors(&d) == 0 && o->mode == MODE_TARGETS)
		status = compat_targets(&m, &d, o, stdout);
	else if (diag_errors(&d) == 0 && o->mode == MODE_FIX)
		status = compat_fix(&m, &d, o, path);
	else if (diag_errors(&d) == 0)
		check_module(&m, &d, &o->check);
	if (diag_errors(&d))
		status = EXIT_DIAGNOSTICS;

	report_file(rep, &d);
	if (o->verbose) {
		ApiStats st = api_count_items(m.items);
		print_summary(m.filename, st, &d, stderr);
	}

	if (diag_errors(&d) && status == EXIT_CLEAN)
		status = EXIT_DIAGNOSTICS;
	if (status == EXIT_CLEAN && o->mode == MODE_EMIT_PTX)
		status = emit_ptx(&m, o);

	diag_fini(&d);
	module_fini(&m);
	input_free(&in);
	return status;
}

/* --disassemble: a cubin or a raw sm_50 instruction stream, as nvdisasm. */
static int disassemble(const Options *o)
{
	InputFile in;
	char err[512];
	if (input_read(&in, o->disassemble, err, sizeof err) != 0) {
		fprintf(stderr, "ptxsurf-as: error: %s\n", err);
		return EXIT_USAGE;
	}
	ptxsurf_context *ctx = ptxsurf_context_create();
	char *text = NULL;
	size_t len = 0;
	ptxsurf_status rc = ctx ? ptxsurf_disassemble(ctx, in.data, in.len, &text, &len) : PTXSURF_ERROR_NOMEM;
	int status = EXIT_CLEAN;
	if (rc != PTXSURF_OK) {
		fprintf(stderr, "ptxsurf-as: error: %s: %s\n", in.name,
			rc == PTXSURF_ERROR_NOMEM ? "out of memory" : ptxsurf_context_error(ctx));
		status = EXIT_DIAGNOSTICS;
	} else if (output_write_atomic(o->output ? o->output : "-", text, len, err, sizeof err) != 0) {
		fprintf(stderr, "ptxsurf-as: error: %s\n", err);
		status = EXIT_USAGE;
	}
	ptxsurf_free(text);
	ptxsurf_context_destroy(ctx);
	input_free(&in);
	return status;
}

int main(int argc, char **argv)
{
	/* The library never exits: out of memory (or an internal limit) ends
	 * the command here. */
	static XdieTrap fatal;
	if (setjmp(fatal.env)) {
		fprintf(stderr, "ptxsurf-as: fatal: %s\n", fatal.msg);
		exit(2);
	}
	xdie_trap(&fatal);
	Options o = { .mode = MODE_ASSEMBLE, .input_sass = -1 };
	/* stderr is unbuffered by default: one write per character of every
	 * caret line. Diagnostics are flushed at exit. */
	static char errbuf[1 << 16];
	setvbuf(stderr, errbuf, _IOFBF, sizeof errbuf);
	int rc = options_parse(argc, argv, &o);
	if (rc < 0 && o.mode == MODE_DISASSEMBLE)
		rc = disassemble(&o);
	else if (rc < 0 && o.mode == MODE_LSP)
		rc = lsp_serve(stdin, stdout);
	else if (rc < 0 && o.mode == MODE_RULES_REFERENCE) {
		rules_doc_markdown(stdout);
		rc = EXIT_CLEAN;
	}
	if (rc >= 0) {
		options_free(&o);
		return rc;
	}
	/* Machine-readable reports are one document for all inputs, built in
	 * memory and written at the end (atomically when it goes to a file). */
	char *doc = NULL;
	size_t doclen = 0;
	FILE *docf = NULL;
	/* --print-requirements and --targets print their own JSON document(s);
	 * diagnostics of files that do not parse then go to stderr as text. */
	ReportFormat diag_format = o.mode == MODE_REQUIREMENTS || o.mode == MODE_TARGETS ? REPORT_TEXT : o.report;
	if (diag_format != REPORT_TEXT && !(docf = open_memstream(&doc, &doclen))) {
		fprintf(stderr, "ptxsurf-as: error: out of memory\n");
		return EXIT_USAGE;
	}
	Report rep;
	report_begin(&rep, diag_format, docf ? docf : stderr, o.color);
	int worst = EXIT_CLEAN;
	FilePool *pool = NULL;
	bool *pooled = NULL;
	AssembleOptions ao;
	int npooled = 0;
	if (o.jobs > 1 && o.ninputs > 1 && (pooled = calloc((size_t)o.ninputs, sizeof *pooled)))
		for (int i = 0; i < o.ninputs; i++)
			npooled += pooled[i] = pooled_mode(o.inputs[i], &o);
	/* threads for the files, or else for the kernels of the one file */
	o.kernel_jobs = npooled > 1 ? 1 : o.jobs;
	ApiRun run = pipeline_run(&o, &ao);
	if (npooled > 1)
		pool = file_pool_start(o.inputs, pooled, o.ninputs, o.jobs < npooled ? o.jobs : npooled, &run);
	for (int i = 0; i < o.ninputs; i++) {
		int r = pool && pooled[i] ? finish_pooled(file_pool_take(pool, i), o.inputs[i], &o, &rep)
		                          : process(o.inputs[i], &o, &rep);
		if (r > worst)
			worst = r;
	}
	if (pool)
		file_pool_finish(pool);
	free(pooled);
	report_end(&rep);
	if (docf) {
		fclose(docf);
		char err[512];
		const char *dest = o.mode == MODE_CHECK && o.output ? o.output : "-";
		if (output_write_atomic(dest, doc, doclen, err, sizeof err) != 0) {
			fprintf(stderr, "ptxsurf-as: error: %s\n", err);
			worst = EXIT_USAGE;
		}
		free(doc);
	}
	options_free(&o);
	return worst;
}
