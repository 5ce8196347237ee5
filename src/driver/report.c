#include "driver/report.h"
#include "base/hash.h"
#include "base/intern.h"
#include "base/json.h"
#include "base/rules.h"
#include "base/version.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *level_name(Severity s)
{
	return s == SEV_ERROR ? "error" : s == SEV_WARNING ? "warning" : "note";
}

/* SARIF wants a rule's name to differ from its id: the name is the short
 * description in PascalCase ("Unknown modifier" -> "UnknownModifier"). */
static const char *camel_case(const char *text, char *buf, size_t size)
{
	size_t w = 0;
	bool upper = true;
	for (const char *p = text; *p && w + 1 < size; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))) {
			upper = true;
			continue;
		}
		buf[w++] = upper && *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;
		upper = false;
	}
	buf[w] = 0;
	return buf;
}

void report_begin(Report *r, ReportFormat format, FILE *out, bool color)
{
	memset(r, 0, sizeof *r);
	r->format = format;
	r->out = out;
	r->color = color;
	if (format == REPORT_JSON) {
		fprintf(out, "{\n  \"tool\": \"ptxsurf-as\",\n  \"version\": \"%s\",\n  \"files\": [", PTXSURF_VERSION);
	} else if (format == REPORT_SARIF) {
		fputs("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
		      "  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n"
		      "      \"tool\": {\n        \"driver\": {\n"
		      "          \"name\": \"ptxsurf-as\",\n", out);
		fprintf(out, "          \"version\": \"%s\",\n          \"semanticVersion\": \"%s\",\n",
			PTXSURF_VERSION, PTXSURF_VERSION);
		fputs("          \"rules\": [", out);
		size_t n;
		const RuleInfo *rules = rules_all(&n);
		for (size_t i = 0; i < n; i++) {
			fprintf(out, "%s\n            {\n              \"id\": ", i ? "," : "");
			json_string(out, rules[i].id);
			char name[128];
			fputs(",\n              \"name\": ", out);
			json_string(out, camel_case(rules[i].short_desc, name, sizeof name));
			fputs(",\n              \"shortDescription\": { \"text\": ", out);
			json_string(out, rules[i].short_desc);
			fputs(" },\n              \"fullDescription\": { \"text\": ", out);
			json_string(out, rules[i].full_desc);
			fputs(" },\n              \"help\": { \"text\": ", out);
			char help[1024];
			if (rules[i].fatal)
				snprintf(help, sizeof help, "%s See docs/rules.md, rule '%s'.",
					 rules[i].full_desc, rules[i].id);
			else
				snprintf(help, sizeof help, "%s See docs/rules.md, rule '%s'; silence it with -Wno-%s.",
					 rules[i].full_desc, rules[i].id, rules[i].id);
			json_string(out, help);
			fprintf(out, " },\n              \"defaultConfiguration\": { \"level\": \"%s\" }\n            }",
				level_name(rules[i].level));
		}
		fputs("\n          ]\n        }\n      },\n"
		      "      \"columnKind\": \"utf16CodeUnits\",\n"
		      "      \"originalUriBaseIds\": { \"%SRCROOT%\": { \"description\": { \"text\": \"The directory ptxsurf-as ran in.\" } } },\n"
		      "      \"results\": [", out);
	}
}

static void json_region(FILE *out, SrcLoc loc)
{
	fprintf(out, "\"line\": %d, \"column\": %d, \"endLine\": %d, \"endColumn\": %d",
		loc.first_line, loc.first_column, loc.last_line, loc.last_column);
}

static void json_file(Report *r, DiagSink *s)
{
	FILE *out = r->out;
	size_t n;
	Diag **v = diag_sorted(s, &n);
	fprintf(out, "%s\n    {\n      \"file\": ", r->nfiles ? "," : "");
	json_string(out, s->filename);
	fprintf(out, ",\n      \"errors\": %u,\n      \"warnings\": %u,\n      \"diagnostics\": [",
		s->count[SEV_ERROR], s->count[SEV_WARNING]);
	for (size_t i = 0; i < n; i++) {
		const Diag *d = v[i];
		fprintf(out, "%s\n        { \"severity\": \"%s\", \"rule\": ", i ? "," : "", level_name(d->sev));
		json_string(out, d->rule ? d->rule : "");
		fputs(", \"message\": ", out);
		json_string(out, d->msg);
		fputs(", ", out);
		json_region(out, d->loc);
		fputs(", \"notes\": [", out);
		for (const Diag *note = d->notes; note; note = note->next) {
			fprintf(out, "%s{ \"message\": ", note == d->notes ? "" : ", ");
			json_string(out, note->msg);
			fputs(", ", out);
			json_region(out, note->loc);
			fputs(" }", out);
		}
		fputs("] }", out);
	}
	fputs(n ? "\n      ]\n    }" : "]\n    }", out);
}

/* SARIF wants a URI: relative to the working directory when the file lies
 * below it (GitHub resolves it against the repository root), else file://. */
static void sarif_uri(FILE *out, const char *path, bool *relative)
{
	char cwd[4096];
	const char *p = path;
	*relative = true;
	if (path[0] == '/') {
		size_t n;
		if (getcwd(cwd, sizeof cwd) && (n = strlen(cwd)) && strncmp(path, cwd, n) == 0 && path[n] == '/') {
			p = path + n + 1;
		} else {
			*relative = false;
		}
	}
	while (*relative && p[0] == '.' && p[1] == '/')
		p += 2;
	/* percent-encode what a URI cannot hold */
	fputc('"', out);
	if (!*relative)
		fputs("file://", out);
	for (const unsigned char *c = (const unsigned char *)p; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		    strchr("/-._~", *c))
			fputc(*c, out);
		else
			fprintf(out, "%%%02X", *c);
	}
	fputc('"', out);
}

/* id > 0 and msg: a related location (the notes of a diagnostic). */
static void sarif_location(FILE *out, const char *file, SrcLoc loc, const char *indent, int id, const char *msg)
{
	bool relative;
	fputs(indent, out);
	fputc('{', out);
	if (id > 0) {
		fprintf(out, " \"id\": %d, \"message\": { \"text\": ", id);
		json_string(out, msg);
		fputs(" },", out);
	}
	fputs(" \"physicalLocation\": { \"artifactLocation\": { \"uri\": ", out);
	sarif_uri(out, file, &relative);
	if (relative)
		fputs(", \"uriBaseId\": \"%SRCROOT%\"", out);
	fputs(" }", out);
	if (loc.first_line > 0) {
		int end_col = loc.last_line == loc.first_line && loc.last_column <= loc.first_column
			? loc.first_column + 1 : loc.last_column;
		fprintf(out, ", \"region\": { \"startLine\": %d, \"startColumn\": %d, \"endLine\": %d, \"endColumn\": %d }",
			loc.first_line, loc.first_column > 0 ? loc.first_column : 1,
			loc.last_line >= loc.first_line ? loc.last_line : loc.first_line, end_col > 0 ? end_col : 1);
	}
	fputs(" } }", out);
}

/* A fingerprint that survives lines moving: the rule, the message and the
 * text of the line, plus an occurrence counter for identical ones. */
static uint32_t fingerprint(DiagSink *s, const Diag *d)
{
	size_t len = 0;
	const char *line = diag_line_text(s, d->loc.first_line, &len);
	uint32_t h = hash_bytes(d->rule ? d->rule : "", d->rule ? strlen(d->rule) : 0);
	h ^= hash_bytes(d->msg, strlen(d->msg)) * 31u;
	if (line) {
		while (len && (*line == ' ' || *line == '\t')) {
			line++;
			len--;
		}
		h ^= hash_bytes(line, len) * 131u;
	}
	return h;
}

/* How many times each fingerprint has been seen so far: an open-addressing
 * table sized for all n diagnostics (linear, where a scan of the earlier
 * ones would be quadratic in files with very many diagnostics). */
typedef struct FpCount {
	uint32_t fp, count;
} FpCount;

static unsigned next_occurrence(FpCount *tab, size_t cap, uint32_t fp)
{
	if (!tab)
		return 1;
	for (size_t i = fp & (cap - 1);; i = (i + 1) & (cap - 1)) {
		if (tab[i].count == 0)
			tab[i].fp = fp;
		if (tab[i].fp == fp)
			return ++tab[i].count;
	}
}

static void sarif_file(Report *r, DiagSink *s)
{
	FILE *out = r->out;
	size_t n;
	Diag **v = diag_sorted(s, &n);
	size_t cap = 16;
	while (cap < 2 * n)
		cap *= 2;
	FpCount *seen = calloc(cap, sizeof *seen);
	for (size_t i = 0; i < n; i++) {
		const Diag *d = v[i];
		uint32_t fp = fingerprint(s, d);
		unsigned occurrence = next_occurrence(seen, cap, fp);
		fprintf(out, "%s\n        {\n          \"ruleId\": ", r->nresults++ ? "," : "");
		json_string(out, d->rule ? d->rule : "io");
		int idx = rule_index(d->rule);
		if (idx >= 0)
			fprintf(out, ",\n          \"ruleIndex\": %d", idx);
		fprintf(out, ",\n          \"level\": \"%s\",\n          \"message\": { \"text\": ", level_name(d->sev));
		json_string(out, d->msg);
		fputs(" },\n          \"locations\": [\n", out);
		sarif_location(out, s->filename, d->loc, "            ", 0, NULL);
		fputs("\n          ]", out);
		if (d->notes) {
			fputs(",\n          \"relatedLocations\": [", out);
			int id = 1;
			for (const Diag *note = d->notes; note; note = note->next, id++) {
				fputs(note == d->notes ? "\n" : ",\n", out);
				sarif_location(out, s->filename, note->loc, "            ", id, note->msg);
			}
			fputs("\n          ]", out);
		}
		fprintf(out, ",\n          \"partialFingerprints\": { \"primaryLocationLineHash\": \"%08x:%u\" }\n        }",
			fp, occurrence);
	}
	free(seen);
}

void report_file(Report *r, DiagSink *sink)
{
	switch (r->format) {
	case REPORT_TEXT: {
		DiagTextOptions o = { .color = r->color, .caret = true };
		diag_render_text(sink, r->out, &o);
		break;
	}
	case REPORT_JSON:
		json_file(r, sink);
		break;
	case REPORT_SARIF:
		sarif_file(r, sink);
		break;
	}
	r->nfiles++;
}

void report_end(Report *r)
{
	if (r->format == REPORT_JSON)
		fputs(r->nfiles ? "\n  ]\n}\n" : "]\n}\n", r->out);
	else if (r->format == REPORT_SARIF)
		fputs(r->nresults ? "\n      ]\n    }\n  ]\n}\n" : "]\n    }\n  ]\n}\n", r->out);
}
