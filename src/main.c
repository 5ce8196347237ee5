/* ptxsurf-as: command-line driver. Reads each input, runs the passes
 * (parse -> check -> ...), renders the diagnostics and writes the output. */
#include "assemble.h"
#include "check.h"
#include "diag.h"
#include "input.h"
#include "output.h"
#include "parse.h"
#include "print.h"
#include "report.h"
#include "rules.h"
#include "version.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { EXIT_CLEAN = 0, EXIT_DIAGNOSTICS = 1, EXIT_USAGE = 2 };

typedef enum Mode { MODE_ASSEMBLE, MODE_CHECK, MODE_EMIT_PTX } Mode;

typedef struct Options {
	Mode mode;
	const char *output;
	CheckOptions check;
	bool color;
	bool verbose;
	unsigned max_errors;
	ReportFormat report;
	DiagPolicy policy;
	AsmFormat format;
	bool listing;
	const char **inputs;
	int ninputs;
} Options;

static const char usage_text[] =
	"usage: ptxsurf-as [options] FILE...\n"
	"\n"
	"Assemble and validate NVIDIA PTX. FILE may be '-' for standard input.\n"
	"By default every .entry is assembled to Maxwell sm_50 code, written as a cubin\n"
	"next to the input (kernel.ptx -> kernel.cubin) or to -o FILE.\n"
	"\n"
	"  --check              parse and check only; write nothing\n"
	"  --emit=ptx           print the parsed module back as canonical PTX\n"
	"  -o FILE              write the output to FILE ('-' = standard output)\n"
	"  --format=cubin|raw   cubin ELF (default) or the bare instruction stream\n"
	"  -S, --listing        print the SASS listing (as nvdisasm prints it) on standard\n"
	"                       output; without -o no binary is written\n"
	"  --rules=strict       reject what the PTX ISA documents or ptxas forbid (default)\n"
	"  --rules=ptxas        mirror the verdicts of NVIDIA ptxas 13 exactly\n"
	"  --diagnostics-format=text|json|sarif\n"
	"                       text (default) goes to standard error; json and SARIF 2.1.0\n"
	"                       go to standard output, or to -o FILE with --check\n"
	"  -Werror              treat warnings as errors; -Werror=RULE for one rule\n"
	"  -Wno-RULE, -WRULE    silence / restore the diagnostics of RULE\n"
	"  --color=WHEN         colour diagnostics: auto (default), always, never;\n"
	"                       the NO_COLOR environment variable means never\n"
	"  --max-errors=N       stop listing errors after N per file (0 = no limit)\n"
	"  -v, --verbose        print a summary of each file\n"
	"  -h, --help           show this help\n"
	"  --version            show the version\n"
	"\n"
	"Exit status: 0 no errors, 1 errors found, 2 usage or I/O error.\n";

static int usage_error(const char *fmt, const char *arg)
{
	fputs("ptxsurf-as: error: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\n(run 'ptxsurf-as --help' for usage)\n", stderr);
	return EXIT_USAGE;
}

static bool starts_with(const char *s, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);
	if (strncmp(s, prefix, n) != 0)
		return false;
	*rest = s + n;
	return true;
}

/* Returns -1 to continue, otherwise an exit status. */
static int parse_args(int argc, char **argv, Options *o)
{
	const char *color = "auto";
	bool inputs_only = false;
	o->inputs = calloc((size_t)argc, sizeof(char *));
	o->policy.disabled = calloc((size_t)argc, sizeof(char *));
	o->policy.as_error = calloc((size_t)argc, sizeof(char *));
	if (!o->inputs || !o->policy.disabled || !o->policy.as_error)
		return usage_error("%s", "out of memory");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		if (inputs_only || a[0] != '-' || strcmp(a, "-") == 0) {
			o->inputs[o->ninputs++] = a;
		} else if (strcmp(a, "--") == 0) {
			inputs_only = true;
		} else if (strcmp(a, "--check") == 0) {
			o->mode = MODE_CHECK;
		} else if (starts_with(a, "--emit=", &v)) {
			if (strcmp(v, "ptx") != 0)
				return usage_error("unknown --emit value '%s' (valid: ptx)", v);
			o->mode = MODE_EMIT_PTX;
		} else if (starts_with(a, "--format=", &v)) {
			if (strcmp(v, "cubin") == 0)
				o->format = ASM_CUBIN;
			else if (strcmp(v, "raw") == 0)
				o->format = ASM_RAW;
			else
				return usage_error("unknown --format '%s' (valid: cubin, raw)", v);
		} else if (strcmp(a, "-S") == 0 || strcmp(a, "--listing") == 0) {
			o->listing = true;
		} else if (strcmp(a, "-o") == 0) {
			if (++i >= argc)
				return usage_error("%s", "-o needs a file name");
			o->output = argv[i];
		} else if (starts_with(a, "--rules=", &v)) {
			if (strcmp(v, "strict") == 0)
				o->check.rules = RULES_STRICT;
			else if (strcmp(v, "ptxas") == 0)
				o->check.rules = RULES_PTXAS;
			else
				return usage_error("unknown --rules value '%s' (valid: strict, ptxas)", v);
		} else if (starts_with(a, "--diagnostics-format=", &v)) {
			if (strcmp(v, "text") == 0)
				o->report = REPORT_TEXT;
			else if (strcmp(v, "json") == 0)
				o->report = REPORT_JSON;
			else if (strcmp(v, "sarif") == 0)
				o->report = REPORT_SARIF;
			else
				return usage_error("unknown --diagnostics-format '%s' (valid: text, json, sarif)", v);
		} else if (strcmp(a, "-Werror") == 0) {
			o->policy.werror = true;
		} else if (starts_with(a, "-Werror=", &v)) {
			if (!rule_find(v))
				return usage_error("unknown rule '%s' in -Werror= (the rules are listed in docs/rules.md)", v);
			o->policy.as_error[o->policy.nas_error++] = v;
		} else if (starts_with(a, "-Wno-", &v)) {
			if (!rule_find(v))
				return usage_error("unknown rule '%s' in -Wno- (the rules are listed in docs/rules.md)", v);
			o->policy.disabled[o->policy.ndisabled++] = v;
		} else if (starts_with(a, "-W", &v) && *v) {
			if (!rule_find(v))
				return usage_error("unknown rule '%s' in -W (the rules are listed in docs/rules.md)", v);
			/* -WRULE undoes an earlier -Wno-RULE */
			for (size_t k = 0; k < o->policy.ndisabled; k++)
				if (strcmp(o->policy.disabled[k], v) == 0)
					o->policy.disabled[k--] = o->policy.disabled[--o->policy.ndisabled];
		} else if (starts_with(a, "--color=", &v)) {
			if (strcmp(v, "auto") && strcmp(v, "always") && strcmp(v, "never"))
				return usage_error("unknown --color value '%s' (valid: auto, always, never)", v);
			color = v;
		} else if (starts_with(a, "--max-errors=", &v)) {
			char *end;
			unsigned long n = strtoul(v, &end, 10);
			if (!*v || *end || n > 1000000)
				return usage_error("--max-errors needs a number from 0 to 1000000, not '%s'", v);
			o->max_errors = (unsigned)n;
		} else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
			o->verbose = true;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(usage_text, stdout);
			return EXIT_CLEAN;
		} else if (strcmp(a, "--version") == 0) {
			printf("ptxsurf-as %s\n", PTXSURF_VERSION);
			return EXIT_CLEAN;
		} else {
			return usage_error("unknown option '%s'", a);
		}
	}
	if (o->ninputs == 0)
		return usage_error("%s", "no input files");
	if (o->output && o->ninputs > 1 && !(o->mode == MODE_CHECK && o->report != REPORT_TEXT))
		return usage_error("%s", "-o cannot be used with several input files");
	if (strcmp(color, "always") == 0)
		o->color = true;
	else if (strcmp(color, "auto") == 0)
		o->color = !getenv("NO_COLOR") && isatty(STDERR_FILENO);
	return -1;
}

typedef struct Stats {
	unsigned funcs, entries, instrs, vars;
} Stats;

static void count_stmts(const Stmt *s, Stats *st)
{
	for (; s; s = s->next) {
		if (s->kind == ST_INSTR)
			st->instrs++;
		else if (s->kind == ST_BLOCK)
			count_stmts(s->u.block, st);
	}
}

static void print_summary(const Module *m, const DiagSink *d, FILE *out)
{
	Stats st = { 0 };
	for (const Item *it = m->items; it; it = it->next) {
		if (it->kind == IT_VAR)
			st.vars += it->u.var.ndecls;
		if (it->kind == IT_FUNC) {
			st.funcs++;
			st.entries += it->u.func.is_entry;
			count_stmts(it->u.func.body, &st);
		}
	}
	fprintf(out, "%s: %u entr%s, %u function%s, %u module variable%s, %u instruction%s; "
		"%u error%s, %u warning%s\n",
		m->filename, st.entries, st.entries == 1 ? "y" : "ies", st.funcs - st.entries,
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

static int assemble(const Module *m, DiagSink *d, const Options *o, const char *input)
{
	AssembleOptions ao = { .format = o->format, .want_listing = o->listing };
	uint8_t *image = NULL;
	size_t len = 0;
	char *listing = NULL;
	if (assemble_module(m, d, &ao, &image, &len, &listing) != 0) {
		free(image);
		free(listing);
		return EXIT_DIAGNOSTICS;
	}
	int status = EXIT_CLEAN;
	char err[512];
	if (listing && output_write_atomic("-", listing, strlen(listing), err, sizeof err) != 0) {
		fprintf(stderr, "ptxsurf-as: error: %s\n", err);
		status = EXIT_USAGE;
	}
	char *dflt = NULL;
	const char *dest = o->output;
	if (!dest && !o->listing) {
		if (strcmp(input, "-") == 0) {
			fprintf(stderr, "ptxsurf-as: error: the input is standard input: name the output with -o FILE\n");
			status = EXIT_USAGE;
		} else {
			dest = dflt = default_output(input, o->format);
		}
	}
	if (status == EXIT_CLEAN && dest && output_write_atomic(dest, image, len, err, sizeof err) != 0) {
		fprintf(stderr, "ptxsurf-as: error: %s\n", err);
		status = EXIT_USAGE;
	}
	free(dflt);
	free(image);
	free(listing);
	return status;
}

static int process(const char *path, const Options *o, Report *rep)
{
	InputFile in;
	char err[512];
	if (input_read(&in, path, err, sizeof err) != 0) {
		fprintf(stderr, "ptxsurf-as: error: %s\n", err);
		return EXIT_USAGE;
	}
	Module m;
	module_init(&m, in.name);
	DiagSink d;
	diag_init(&d, in.name, in.data, in.len);
	d.limit = o->max_errors;
	d.policy = &o->policy;

	ptx_parse_buffer(&m, &d, in.data, in.len);
	/* Semantic rules only make sense on a module that parsed cleanly, and
	 * only a module the checker accepts is assembled. */
	if (diag_errors(&d) == 0)
		check_module(&m, &d, &o->check);
	int status = diag_errors(&d) ? EXIT_DIAGNOSTICS : EXIT_CLEAN;
	if (status == EXIT_CLEAN && o->mode == MODE_ASSEMBLE)
		status = assemble(&m, &d, o, path);

	report_file(rep, &d);
	if (o->verbose)
		print_summary(&m, &d, stderr);

	if (diag_errors(&d) && status == EXIT_CLEAN)
		status = EXIT_DIAGNOSTICS;
	if (status == EXIT_CLEAN && o->mode == MODE_EMIT_PTX)
		status = emit_ptx(&m, o);

	diag_fini(&d);
	module_fini(&m);
	input_free(&in);
	return status;
}

int main(int argc, char **argv)
{
	Options o = { .mode = MODE_ASSEMBLE };
	int rc = parse_args(argc, argv, &o);
	if (rc >= 0) {
		free(o.inputs);
		free(o.policy.disabled);
		free(o.policy.as_error);
		return rc;
	}
	/* Machine-readable reports are one document for all inputs, built in
	 * memory and written at the end (atomically when it goes to a file). */
	char *doc = NULL;
	size_t doclen = 0;
	FILE *docf = NULL;
	if (o.report != REPORT_TEXT && !(docf = open_memstream(&doc, &doclen))) {
		fprintf(stderr, "ptxsurf-as: error: out of memory\n");
		return EXIT_USAGE;
	}
	Report rep;
	report_begin(&rep, o.report, docf ? docf : stderr, o.color);
	int worst = EXIT_CLEAN;
	for (int i = 0; i < o.ninputs; i++) {
		int r = process(o.inputs[i], &o, &rep);
		if (r > worst)
			worst = r;
	}
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
	free(o.inputs);
	free(o.policy.disabled);
	free(o.policy.as_error);
	return worst;
}
