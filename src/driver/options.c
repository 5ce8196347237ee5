#include "driver/options.h"
#include "isa/cuda_releases.h"
#include "base/rules.h"
#include "base/version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	"  -c, --compile-only   write a relocatable object (ET_REL) as ptxas -c does; calls\n"
	"                       of functions without a body become relocated JCALs\n"
	"  --input=ptx|sass     input language (default: .sass files are SASS)\n"
	"  --schedule=keep|auto SASS input: keep the written control words (default) or\n"
	"                       compute them all\n"
	"  -S, --listing        print the SASS listing (as nvdisasm prints it) on standard\n"
	"                       output; without -o no binary is written\n"
	"  --verify-sched       prove the control words of the assembled code free of\n"
	"                       hazards (barriers, stalls) before writing it\n"
	"  --print-requirements print the lowest .version and .target the file needs, and\n"
	"                       the line and feature forcing each (JSON with\n"
	"                       --diagnostics-format=json)\n"
	"  --targets LIST       check against each target of LIST (sm_20,sm_50, ranges\n"
	"                       sm_50-sm_90, or all) and print a summary table\n"
	"  --ptx-version X.Y    check as if the file declared .version X.Y\n"
	"  --cuda X.Y           check against what CUDA release X.Y supports (newest PTX\n"
	"                       ISA version, targets)\n"
	"  --fix-version        rewrite .version to the lowest value the file needs (in\n"
	"                       place, or to -o FILE); --fix-target also lowers .target\n"
	"  --disassemble FILE   print a cubin or raw sm_50 stream as nvdisasm -hex does\n"
	"  --print-rules-reference  print the rule and requirement tables (docs/rules.md)\n"
	"  --lsp                serve the Language Server Protocol on standard input and\n"
	"                       output (docs/lsp.md)\n"
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
	"  -j N, --jobs=N       check and assemble up to N input files at once (default:\n"
	"                       the number of online CPUs; -j 1 one after another), or\n"
	"                       the kernels of a single file on N threads (checking\n"
	"                       one file: its parser and checker on two); the output\n"
	"                       is the same, in input order, whatever N\n"
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
static bool add_target(Options *o, const TargetInfo *t)
{
	for (size_t i = 0; i < o->ntargets; i++)
		if (o->targets[i] == t)
			return true;
	size_t n;
	ptx_targets(&n);
	if (!o->targets && !(o->targets = calloc(n, sizeof *o->targets)))
		return false;
	o->targets[o->ntargets++] = t;
	return true;
}

/* "sm_20,sm_50-sm_90,compute_75" or "all": ranges take every plain target
 * whose number lies between the two ends (family targets only by name). */
static int parse_target_list(const char *list, Options *o)
{
	size_t n;
	const TargetInfo *all = ptx_targets(&n);
	char item[64];
	const char *p = list;
	while (*p) {
		size_t len = strcspn(p, ",");
		if (len == 0 || len >= sizeof item)
			return usage_error("malformed --targets list '%s'", list);
		memcpy(item, p, len);
		item[len] = 0;
		p += len + (p[len] == ',');
		if (strcmp(item, "all") == 0) {
			for (size_t i = 0; i < n; i++)
				add_target(o, &all[i]);
			continue;
		}
		char *dash = strchr(item, '-');
		if (dash) {
			*dash = 0;
			const TargetInfo *lo = ptx_target_lookup(item), *hi = ptx_target_lookup(dash + 1);
			if (!lo)
				return usage_error("unknown target '%s' in --targets", item);
			if (!hi)
				return usage_error("unknown target '%s' in --targets", dash + 1);
			for (size_t i = 0; i < n; i++)
				if ((all[i].family == 0 || &all[i] == lo || &all[i] == hi) &&
				    all[i].sm >= lo->sm && all[i].sm <= hi->sm)
					add_target(o, &all[i]);
			continue;
		}
		const TargetInfo *t = ptx_target_lookup(item);
		if (!t)
			return usage_error("unknown target '%s' in --targets (for example sm_50, compute_75, sm_90a)", item);
		add_target(o, t);
	}
	if (o->ntargets == 0)
		return usage_error("empty --targets list '%s'", list);
	return -1;
}

int options_parse(int argc, char **argv, Options *o)
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
		} else if (strcmp(a, "--print-requirements") == 0) {
			o->mode = MODE_REQUIREMENTS;
		} else if (strcmp(a, "--targets") == 0 || starts_with(a, "--targets=", &v)) {
			if (strcmp(a, "--targets") == 0) {
				if (++i >= argc)
					return usage_error("%s", "--targets needs a list, for example sm_50,sm_75 or all");
				v = argv[i];
			}
			int rc = parse_target_list(v, o);
			if (rc >= 0)
				return rc;
			o->mode = MODE_TARGETS;
		} else if (strcmp(a, "--ptx-version") == 0 || starts_with(a, "--ptx-version=", &v)) {
			if (strcmp(a, "--ptx-version") == 0) {
				if (++i >= argc)
					return usage_error("%s", "--ptx-version needs a version, for example 7.8");
				v = argv[i];
			}
			unsigned major, minor;
			char tail;
			if (sscanf(v, "%u.%u%c", &major, &minor, &tail) != 2 || minor > 9 ||
			    !ptx_version_is_legal(PTX_VERSION_OF((int)major, (int)minor)))
				return usage_error("--ptx-version '%s' is not a PTX ISA version ptxas 13 knows "
						   "(1.0 to 9.0)", v);
			o->ptx_version = PTX_VERSION_OF((int)major, (int)minor);
			if (o->mode != MODE_TARGETS)
				o->mode = MODE_TARGETS;
		} else if (strcmp(a, "--cuda") == 0 || starts_with(a, "--cuda=", &v)) {
			if (strcmp(a, "--cuda") == 0) {
				if (++i >= argc)
					return usage_error("%s", "--cuda needs a CUDA release, for example 12.4");
				v = argv[i];
			}
			if (!(o->cuda = cuda_release_find(v)))
				return usage_error("unknown CUDA release '%s' (see docs/cuda-releases.md)", v);
			o->mode = MODE_TARGETS;
		} else if (strcmp(a, "--fix-version") == 0) {
			o->fix_version = true;
			o->mode = MODE_FIX;
		} else if (strcmp(a, "--fix-target") == 0) {
			o->fix_target = true;
			o->fix_version = true;
			o->mode = MODE_FIX;
		} else if (strcmp(a, "--disassemble") == 0 || starts_with(a, "--disassemble=", &v)) {
			if (strcmp(a, "--disassemble") == 0) {
				if (++i >= argc)
					return usage_error("%s", "--disassemble needs a cubin or raw instruction file");
				v = argv[i];
			}
			o->disassemble = v;
			o->mode = MODE_DISASSEMBLE;
		} else if (strcmp(a, "--lsp") == 0) {
			o->mode = MODE_LSP;
		} else if (strcmp(a, "--print-rules-reference") == 0) {
			o->mode = MODE_RULES_REFERENCE;
		} else if (starts_with(a, "--format=", &v)) {
			if (strcmp(v, "cubin") == 0)
				o->format = ASM_CUBIN;
			else if (strcmp(v, "raw") == 0)
				o->format = ASM_RAW;
			else
				return usage_error("unknown --format '%s' (valid: cubin, raw)", v);
		} else if (starts_with(a, "--input=", &v)) {
			if (strcmp(v, "ptx") == 0)
				o->input_sass = 0;
			else if (strcmp(v, "sass") == 0)
				o->input_sass = 1;
			else
				return usage_error("unknown --input '%s' (valid: ptx, sass)", v);
		} else if (starts_with(a, "--schedule=", &v)) {
			if (strcmp(v, "keep") && strcmp(v, "auto"))
				return usage_error("unknown --schedule '%s' (valid: keep, auto)", v);
			o->schedule_auto = strcmp(v, "auto") == 0;
		} else if (strcmp(a, "--verify-sched") == 0) {
			o->verify_sched = true;
		} else if (strcmp(a, "-c") == 0 || strcmp(a, "--compile-only") == 0) {
			o->relocatable = true;
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
		} else if (strcmp(a, "-j") == 0 || starts_with(a, "--jobs=", &v) ||
			   (a[0] == '-' && a[1] == 'j' && a[2])) {
			if (strcmp(a, "-j") == 0) {
				if (++i >= argc)
					return usage_error("%s", "-j needs a number of jobs, for example -j 4");
				v = argv[i];
			} else if (a[1] == 'j') {
				v = a + 2;
			}
			char *end;
			unsigned long n = strtoul(v, &end, 10);
			if (!*v || *end || n < 1 || n > 1024)
				return usage_error("-j needs a number of jobs from 1 to 1024, not '%s'", v);
			o->jobs = (int)n;
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
	/* --targets, --ptx-version and --cuda say what to check against; a
	 * --check or assembly flag given with them does not undo that. */
	if ((o->ntargets || o->ptx_version || o->cuda) && (o->mode == MODE_CHECK || o->mode == MODE_ASSEMBLE))
		o->mode = MODE_TARGETS;
	if (o->mode == MODE_LSP && o->ninputs)
		return usage_error("%s", "--lsp takes no input files: the editor sends the documents");
	if (o->ninputs == 0 && o->mode != MODE_DISASSEMBLE && o->mode != MODE_RULES_REFERENCE && o->mode != MODE_LSP)
		return usage_error("%s", "no input files");
	if (o->output && o->ninputs > 1 && !(o->mode == MODE_CHECK && o->report != REPORT_TEXT))
		return usage_error("%s", "-o cannot be used with several input files");
	if (o->jobs == 0) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		o->jobs = cpus < 1 ? 1 : cpus > 1024 ? 1024 : (int)cpus;
	}
	if (strcmp(color, "always") == 0)
		o->color = true;
	else if (strcmp(color, "auto") == 0)
		o->color = !getenv("NO_COLOR") && isatty(STDERR_FILENO);
	return -1;
}

void options_free(Options *o)
{
	free(o->inputs);
	free(o->policy.disabled);
	free(o->policy.as_error);
	free(o->targets);
}
