#include "driver/compat.h"
#include "driver/api_internal.h"
#include "isa/cuda_releases.h"
#include "driver/fixup.h"
#include "base/output.h"
#include "base/json.h"
#include "check/req_report.h"

#include <stdlib.h>
#include <string.h>

int compat_requirements(Module *m, DiagSink *d, const Options *o, FILE *out)
{
	ReqReport r;
	req_report_compute(m, d->filename, d->src, d->srclen, &o->check, &r);
	if (o->report == REPORT_JSON)
		req_report_print_json(&r, d->filename, out);
	else
		req_report_print_text(&r, out);
	int status = r.ok ? EXIT_CLEAN : EXIT_DIAGNOSTICS;
	req_report_fini(&r);
	return status;
}

typedef struct TargetResult {
	const TargetInfo *target;
	PtxVersion version;
	DiagSink sink;
} TargetResult;

static void print_table(TargetResult *res, size_t n, FILE *out)
{
	char buf[8];
	fprintf(out, "%-10s %-9s %-7s %6s %8s  %s\n", "target", ".version", "verdict", "errors", "warnings",
		"first problem");
	for (size_t i = 0; i < n; i++) {
		DiagSink *s = &res[i].sink;
		size_t nd;
		Diag **v = diag_sorted(s, &nd);
		const Diag *first = NULL;
		for (size_t k = 0; k < nd && !first; k++)
			if (v[k]->sev == SEV_ERROR)
				first = v[k];
		fprintf(out, "%-10s %-9s %-7s %6u %8u", res[i].target->name,
			ptx_version_str(res[i].version, buf, sizeof buf), first ? "FAIL" : "ok",
			s->count[SEV_ERROR], s->count[SEV_WARNING]);
		if (first)
			fprintf(out, "  %d:%d: %s [%s]", first->loc.first_line, first->loc.first_column, first->msg,
				first->rule ? first->rule : "");
		fputc('\n', out);
	}
}

static void print_json(TargetResult *res, size_t n, const char *file, FILE *out)
{
	char buf[8];
	fputs("{\n  \"file\": ", out);
	json_string(out, file);
	fputs(",\n  \"targets\": [", out);
	for (size_t i = 0; i < n; i++) {
		DiagSink *s = &res[i].sink;
		fprintf(out, "%s\n    { \"target\": \"%s\", \"version\": \"%s\", \"ok\": %s, \"errors\": %u, "
			"\"warnings\": %u, \"diagnostics\": [", i ? "," : "", res[i].target->name,
			ptx_version_str(res[i].version, buf, sizeof buf), s->count[SEV_ERROR] ? "false" : "true",
			s->count[SEV_ERROR], s->count[SEV_WARNING]);
		size_t nd;
		Diag **v = diag_sorted(s, &nd);
		for (size_t k = 0; k < nd; k++) {
			fprintf(out, "%s{ \"severity\": \"%s\", \"line\": %d, \"column\": %d, \"rule\": ", k ? ", " : "",
				v[k]->sev == SEV_ERROR ? "error" : v[k]->sev == SEV_WARNING ? "warning" : "note",
				v[k]->loc.first_line, v[k]->loc.first_column);
			json_string(out, v[k]->rule ? v[k]->rule : "");
			fputs(", \"message\": ", out);
			json_string(out, v[k]->msg);
			fputs(" }", out);
		}
		fputs("] }", out);
	}
	fputs(n ? "\n  ]\n}\n" : "]\n}\n", out);
}

int compat_targets(Module *m, DiagSink *d, const Options *o, FILE *out)
{
	const Item *ver = api_header_item(m, IT_VERSION), *tgt = api_header_item(m, IT_TARGET);
	if (!ver || !tgt || tgt->u.target.n == 0) {
		diag_add(d, SEV_ERROR, (SrcLoc){ 1, 1, 1, 1 }, RULE_MODULE_HEADER,
			 "--targets and --ptx-version need a module with .version and .target lines");
		return EXIT_DIAGNOSTICS;
	}
	const TargetInfo *own = ptx_target_lookup(tgt->u.target.names[0]);
	PtxVersion version = o->ptx_version ? o->ptx_version
		: PTX_VERSION_OF(ver->u.version.major, ver->u.version.minor);
	size_t n = o->ntargets ? o->ntargets : 1;
	if (!o->ntargets && !own) {
		diag_add(d, SEV_ERROR, tgt->loc, RULE_TARGET_UNKNOWN, "unknown .target '%s'", tgt->u.target.names[0]);
		return EXIT_DIAGNOSTICS;
	}
	TargetResult *res = calloc(n, sizeof *res);
	if (!res)
		return EXIT_USAGE;
	int status = EXIT_CLEAN;
	for (size_t i = 0; i < n; i++) {
		res[i].target = o->ntargets ? o->targets[i] : own;
		res[i].version = version;
		diag_init(&res[i].sink, d->filename, d->src, d->srclen);
		res[i].sink.policy = d->policy;
		if (o->cuda)
			api_check_cuda(&res[i].sink, o->cuda, version, res[i].target, ver->loc, tgt->loc);
		check_module_as(m, &res[i].sink, &o->check, version, res[i].target);
		if (diag_errors(&res[i].sink))
			status = EXIT_DIAGNOSTICS;
	}
	if (o->report == REPORT_JSON) {
		print_json(res, n, d->filename, out);
	} else {
		fprintf(out, "%s:\n", d->filename);
		print_table(res, n, out);
		if (o->verbose) {
			DiagTextOptions t = { .color = o->color, .caret = true };
			for (size_t i = 0; i < n; i++) {
				if (!diag_errors(&res[i].sink) && !res[i].sink.count[SEV_WARNING])
					continue;
				fprintf(out, "\n--- %s ---\n", res[i].target->name);
				diag_render_text(&res[i].sink, out, &t);
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		diag_fini(&res[i].sink);
	free(res);
	return status;
}

int compat_fix(Module *m, DiagSink *d, const Options *o, const char *path)
{
	char vtext[8];
	FixupEdit edits[2];
	if (!api_fix_edits(m, d, &o->check, o->fix_target, vtext, edits))
		return EXIT_DIAGNOSTICS;
	const Item *ver = api_header_item(m, IT_VERSION);
	char *out = NULL, err[512];
	size_t outlen = 0;
	if (fixup_rewrite(d->src, d->srclen, edits, o->fix_target ? 2 : 1, &out, &outlen, err, sizeof err) != 0) {
		diag_add(d, SEV_ERROR, ver->loc, RULE_IO, "cannot rewrite the header: %s", err);
		return EXIT_DIAGNOSTICS;
	}
	const char *dest = o->output ? o->output : path;
	if (strcmp(path, "-") == 0 && !o->output)
		dest = "-";
	int rc = output_write_atomic(dest, out, outlen, err, sizeof err);
	free(out);
	if (rc != 0) {
		fprintf(stderr, "ptxsurf-as: error: %s\n", err);
		return EXIT_USAGE;
	}
	if (o->verbose)
		fprintf(stderr, "%s: .version %s%s%s\n", d->filename, vtext, o->fix_target ? ", .target " : "",
			o->fix_target ? edits[1].text : "");
	return EXIT_CLEAN;
}
