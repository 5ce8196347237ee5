/* Command-line options of ptxsurf-as: what the user asked for, parsed once
 * and read by the driver (main.c) and the compatibility modes (compat.c). */
#ifndef PTXSURF_OPTIONS_H
#define PTXSURF_OPTIONS_H

#include "driver/assemble.h"
#include "check/check.h"
#include "base/diag.h"
#include "driver/report.h"
#include "isa/targets.h"

#include <stdbool.h>

enum { EXIT_CLEAN = 0, EXIT_DIAGNOSTICS = 1, EXIT_USAGE = 2 };

typedef enum Mode {
	MODE_ASSEMBLE, MODE_CHECK, MODE_EMIT_PTX, MODE_REQUIREMENTS, MODE_TARGETS, MODE_FIX,
	MODE_DISASSEMBLE, MODE_RULES_REFERENCE, MODE_LSP,
} Mode;

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
	bool verify_sched;          /* --verify-sched */
	bool relocatable;           /* -c */
	int input_sass;             /* -1: by extension (.sass), 0: PTX, 1: SASS */
	bool schedule_auto;         /* SASS input: --schedule=auto */
	/* --targets / --ptx-version */
	const TargetInfo **targets;
	size_t ntargets;
	PtxVersion ptx_version;     /* 0: the file's own */
	const struct CudaRelease *cuda;   /* --cuda X.Y */
	bool fix_version, fix_target;
	const char *disassemble;    /* --disassemble FILE */
	int jobs;                   /* -j N: files checked/assembled at once (>= 1) */
	/* the threads inside one file (the kernels assembled, --check's
	 * parser/checker pipeline): main.c sets it to `jobs` when the files
	 * themselves are not spread over threads, else 1 */
	int kernel_jobs;
	const char **inputs;
	int ninputs;
} Options;

/* Returns -1 to go on, otherwise the exit status (after --help, or a
 * usage error already reported on stderr). */
int options_parse(int argc, char **argv, Options *o);
void options_free(Options *o);

#endif
