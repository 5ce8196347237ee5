/* What lies behind include/ptxsurf.h, for the library's own files and for
 * the command line (main.c), which runs its checks and assemblies through
 * the same code: api_run() is the one pipeline for both. */
#ifndef PTXSURF_API_INTERNAL_H
#define PTXSURF_API_INTERNAL_H

#define PTXSURF_BUILDING 1
#include <ptxsurf.h>     /* -Iinclude */

#include "driver/assemble.h"
#include "driver/fixup.h"
#include "check/check.h"
#include "base/diag.h"
#include "isa/cuda_releases.h"
#include "isa/targets.h"
#include "base/xalloc.h"

#include <stdbool.h>

struct ptxsurf_context {
	CheckOptions check;
	DiagPolicy policy;          /* rule ids point into the rules table */
	unsigned max_errors;
	PtxVersion ptx_version;     /* 0: the module's own */
	const TargetInfo *target;   /* NULL: the module's own */
	const CudaRelease *cuda;
	char error[256];
};

typedef struct ApiStats {
	unsigned funcs, entries, instrs, vars;
} ApiStats;

struct ptxsurf_result {
	char *owned_name;           /* NULL when the name is borrowed */
	char *owned_src;            /* NULL when the source is borrowed */
	DiagSink sink;              /* its filename and src are the two above (or borrowed) */
	Diag **sorted;              /* built on the first diagnostic access */
	size_t nsorted;
	uint8_t *image;
	size_t image_len;
	char *listing;
	ApiStats stats;
};

/* One run of the pipeline: parse, check (as the context says), and
 * assemble when `assemble` is not NULL. */
typedef struct ApiRun {
	const CheckOptions *check;
	const DiagPolicy *policy;
	unsigned limit;             /* errors kept (0: all) */
	const AssembleOptions *assemble;
	bool want_stats;            /* count entries, functions, variables, instructions */
	int check_threads;          /* --check: 2 or more pipes the checker behind the parser (StreamJob.threads) */
	PtxVersion ptx_version;     /* overrides: checked as if the header said so */
	const TargetInfo *target;
	const CudaRelease *cuda;
} ApiRun;

ApiStats api_count_items(const Item *items);

/* Runs on buf (len bytes + 2 NULs, scanned in place and borrowed, like
 * name, for the result's lifetime). Only out-of-memory fails (xdie): the
 * caller holds an XdieTrap. */
ptxsurf_result *api_run(const ApiRun *run, const char *name, char *buf, size_t len);
/* The run a context describes. */
ApiRun api_run_of(const ptxsurf_context *ctx, const AssembleOptions *assemble);
/* A result holding only diagnostics, to be added to its sink. */
ptxsurf_result *api_result_new(const char *name, char *buf, size_t len, const ptxsurf_context *ctx);
/* A copy of text with the two NULs the scanner needs; NULL when out of memory. */
char *api_copy_source(const char *text, size_t len);

/* What CUDA release r's ptxas refuses before looking at the body: a
 * .version v newer than it knows, a target t it does not support. */
void api_check_cuda(DiagSink *s, const CudaRelease *r, PtxVersion v, const TargetInfo *t, SrcLoc vloc, SrcLoc tloc);
/* The module's first item of a kind (its .version, its .target), or NULL. */
const Item *api_header_item(const Module *m, ItemKind kind);
/* The header edits --fix-version (fix_target: --fix-target too) makes:
 * vtext (8 bytes) receives the version. False, with the reason in d, when
 * no version or target satisfies the module. */
bool api_fix_edits(Module *m, DiagSink *d, const CheckOptions *check, bool fix_target, char vtext[8],
		   FixupEdit edits[2]);

/* Entry points: the status, with the message in ctx->error. */
ptxsurf_status api_fail(ptxsurf_context *ctx, ptxsurf_status s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Every public call that allocates runs between API_ENTER and API_LEAVE:
 * an xdie() inside (out of memory) returns PTXSURF_ERROR_NOMEM from it. */
#define API_ENTER(ctx)                                                          \
	XdieTrap api_trap_;                                                     \
	XdieTrap *api_prev_trap_ = xdie_trap(NULL);                             \
	if (setjmp(api_trap_.env)) {                                            \
		xdie_trap(api_prev_trap_);                                      \
		return api_fail((ctx), PTXSURF_ERROR_NOMEM, "%s", api_trap_.msg); \
	}                                                                       \
	xdie_trap(&api_trap_)
#define API_LEAVE() xdie_trap(api_prev_trap_)

#endif
