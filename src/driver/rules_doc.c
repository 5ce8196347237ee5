#include "driver/rules_doc.h"
#include "isa/requirements.h"
#include "base/rule_id.h"
#include "base/rules.h"
#include "isa/targets.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

static const char *severity_name(Severity s)
{
	return s == SEV_ERROR ? "error" : s == SEV_WARNING ? "warning" : "note";
}

/* Text inside a table cell: a '|' would end the cell (GFM unescapes "\\|"
 * even inside a code span), a newline the row, and outside code '*' or '<'
 * would start emphasis or HTML. */
static void cell_text(FILE *out, const char *s, bool code)
{
	for (; *s; s++) {
		if (*s == '|' || (!code && *s == '*'))
			fprintf(out, "\\%c", *s);
		else if (!code && *s == '<')
			fputs("&lt;", out);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', out);
		else
			fputc(*s, out);
	}
}

static void cell(FILE *out, const char *s)
{
	cell_text(out, s, false);
}

/* Inline code; feature names never contain a backtick, but a cell must
 * stay well formed whatever the table says, so fall back to plain text. */
static void code_cell(FILE *out, const char *s)
{
	for (const char *p = s; *p; p++)
		if (*p == '`') {
			cell(out, s);
			return;
		}
	fputc('`', out);
	cell_text(out, s, true);
	fputc('`', out);
}

static void version_cell(FILE *out, PtxVersion v)
{
	char buf[16];
	if (v == 0)
		fputs("-", out);
	else
		fputs(ptx_version_str(v, buf, sizeof buf), out);
}

/* The files that report each rule (base/rule_sites.def, generated from the
 * sources by tools/gen-rule-sites.sh). */
static const char *const rule_sites[] = {
#define RULE_SITE(name, files) [RULE_##name] = files,
#include "base/rule_sites.def"
#undef RULE_SITE
};

static void write_sites(FILE *out, RuleId id)
{
	const char *files = (size_t)id < sizeof rule_sites / sizeof rule_sites[0] ? rule_sites[id] : NULL;
	if (files == NULL || *files == '\0')
		return;
	fputs("Enforced in", out);
	for (const char *p = files; *p;) {
		size_t n = strcspn(p, " ");
		fprintf(out, "%s`%.*s`", p == files ? " " : ", ", (int)n, p);
		p += n;
		p += strspn(p, " ");
	}
	fputs(".\n\n", out);
}

static void write_rules(FILE *out)
{
	size_t n;
	const RuleInfo *rules = rules_all(&n);
	fputs("## Diagnostic rules\n\n"
	      "Every diagnostic ends with its rule id in brackets. `-Wno-RULE` drops a rule's\n"
	      "diagnostics, `-WRULE` brings them back, `-Werror=RULE` makes them errors and\n"
	      "`-Werror` makes every warning an error. Rules marked *fatal* cannot be silenced:\n"
	      "nothing after such an error would make sense.\n\n", out);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "### `%s`\n\n", rules[i].id);
		fprintf(out, "*%s*, default severity **%s**%s.\n\n", rules[i].short_desc,
			severity_name(rules[i].level), rules[i].fatal ? ", fatal" : "");
		fprintf(out, "%s\n\n", rules[i].full_desc);
		write_sites(out, (RuleId)(i + 1));
	}
}

static void write_requirements(FILE *out)
{
	size_t n;
	const ReqRow *rows = req_rows(&n);
	fputs("## Version and target requirements\n\n"
	      "One row per gate of `src/isa/requirements.def`. *.version* is the PTX ISA version\n"
	      "the diagnostic states; *ptxas enforces* is the version ptxas 13 really requires\n"
	      "(lower only where ptxas's own message overstates it); *target* is the minimum\n"
	      "`.target`. *Source* says who imposes the gate: rows from the `document` only,\n"
	      "and the versions between *ptxas enforces* and *.version*, are checked in\n"
	      "`--rules=strict` only (rule ids `version-gate-doc`, `target-gate-doc`); rows\n"
	      "from `ptxas` or `both` are checked in both rule sets (`version-gate`,\n"
	      "`target-gate`).\n\n"
	      "| row | feature | .version | ptxas enforces | target | source | note |\n"
	      "| --- | --- | --- | --- | --- | --- | --- |\n", out);
	for (size_t i = 0; i < n; i++) {
		const ReqRow *r = &rows[i];
		fprintf(out, "| `%s` | ", r->id_name);
		code_cell(out, r->feature);
		fputs(" | ", out);
		version_cell(out, r->min_version);
		fputs(" | ", out);
		version_cell(out, r->ptxas_version);
		if (r->min_sm)
			fprintf(out, " | sm_%d | ", r->min_sm);
		else
			fputs(" | - | ", out);
		fputs(req_source_name(r->source), out);
		fputs(" | ", out);
		cell(out, r->doc);
		fputs(" |\n", out);
	}
	fputc('\n', out);
}

static void write_targets(FILE *out)
{
	size_t n;
	char buf[16];
	const PtxVersion *versions = ptx_versions(&n);
	fputs("## PTX ISA versions and targets\n\n"
	      "Legal `.version` values (`src/isa/targets.def`):", out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? ", " : " ", ptx_version_str(versions[i], buf, sizeof buf));
	fputs(".\n\n"
	      "Each `.target` with the oldest `.version` that accepts it (`compute_NN` names\n"
	      "share the `sm_NN` row; the rule is `target-version`):\n\n"
	      "| target | kind | oldest .version |\n"
	      "| --- | --- | --- |\n", out);
	const TargetInfo *t = ptx_targets(&n);
	for (size_t i = 0; i < n; i++) {
		const char *kind = t[i].family == 'a' ? "architecture-specific"
			: t[i].family == 'f' ? "family-specific"
			: t[i].family ? "variant" : "architecture";
		fprintf(out, "| `%s` | %s | %s |\n", t[i].name, kind,
			ptx_version_str(t[i].min_version, buf, sizeof buf));
	}
}

void rules_doc_markdown(FILE *out)
{
	fputs("# ptxsurf-as rule reference\n\n"
	      "<!-- Generated by `ptxsurf-as --print-rules-reference` from src/base/rules.def,\n"
	      "     src/isa/requirements.def, src/isa/operand_sigs.def and src/isa/targets.def;\n"
	      "     do not edit by hand.\n"
	      "     tests/docs-fresh.sh fails when this file is stale. -->\n\n", out);
	write_rules(out);
	write_requirements(out);
	rules_doc_operand_sigs(out);
	write_targets(out);
}
