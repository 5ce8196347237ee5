/* ptxsurf.h: the ptxsurf-as library. Checks NVIDIA PTX the way ptxas does,
 * reports what a module needs (.version, .target), rewrites its header,
 * assembles it to Maxwell sm_50 code and disassembles such code, in
 * process and without a CUDA toolkit.
 *
 * Link with `pkg-config --cflags --libs ptxsurf` (libptxsurf.so.1, or
 * libptxsurf.a with `--static`). docs/library.md has a walk-through.
 *
 * Conventions
 * - Every object is opaque and reached through a pointer. A context holds
 *   the options; a result holds what one call produced (diagnostics, code,
 *   listing) and stays valid until ptxsurf_result_free(), independent of
 *   the context and of the caller's input buffer.
 * - Thread safety: the library has no mutable global state. Separate
 *   contexts (and their results) may be used from separate threads at the
 *   same time; one context, or one result, must not be used by two threads
 *   at once (reading a result's diagnostics sorts them on first use).
 * - The library never prints and never exits. Calls that can fail return
 *   a ptxsurf_status; ptxsurf_context_error() tells why in a sentence.
 *   Out of memory inside a call makes it return PTXSURF_ERROR_NOMEM (what
 *   that call had allocated is not reclaimed).
 * - Lines and columns are 1-based; a column counts bytes of the line (a tab
 *   is one column); last_column is one past the range's last byte.
 * - Buffers the library returns are freed with ptxsurf_free().
 *
 * Versioning: PTXSURF_VERSION_* is the release; the shared object's
 * SONAME (libptxsurf.so.PTXSURF_ABI_VERSION) changes only when a call is
 * removed or changes meaning. New calls and enum values may be added in a
 * minor release. */
#ifndef PTXSURF_H
#define PTXSURF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PTXSURF_VERSION_MAJOR 0
#define PTXSURF_VERSION_MINOR 1
#define PTXSURF_VERSION_PATCH 0
#define PTXSURF_ABI_VERSION 1

#if defined(PTXSURF_BUILDING) && defined(__GNUC__)
#define PTXSURF_API __attribute__((visibility("default")))
#else
#define PTXSURF_API
#endif

/* The version of the library actually loaded, as "0.1.0"; compare
 * with the PTXSURF_VERSION_* the program was built with. The three numbers
 * go to *major, *minor, *patch when those are not NULL. */
PTXSURF_API const char *ptxsurf_version(int *major, int *minor, int *patch);

typedef enum ptxsurf_status {
	PTXSURF_OK = 0,
	PTXSURF_ERROR_INVALID = 1,   /* a bad argument or option value */
	PTXSURF_ERROR_NOMEM = 2,     /* out of memory */
	PTXSURF_ERROR_IO = 3,        /* a file could not be read */
	PTXSURF_ERROR_INPUT = 4,     /* the input cannot be processed (see the diagnostics or the message) */
} ptxsurf_status;

typedef enum ptxsurf_rules {
	PTXSURF_RULES_STRICT = 0,    /* reject what the PTX ISA documents or ptxas forbid (default) */
	PTXSURF_RULES_PTXAS = 1,     /* mirror the verdicts of NVIDIA ptxas 13 exactly */
} ptxsurf_rules;

typedef enum ptxsurf_severity {
	PTXSURF_SEVERITY_NOTE = 0,
	PTXSURF_SEVERITY_WARNING = 1,
	PTXSURF_SEVERITY_ERROR = 2,
} ptxsurf_severity;

typedef enum ptxsurf_format {
	PTXSURF_FORMAT_CUBIN = 0,    /* an ELF cubin, as ptxas -arch sm_50 writes */
	PTXSURF_FORMAT_RAW = 1,      /* the bare instruction stream of every kernel */
} ptxsurf_format;

typedef struct ptxsurf_range {
	int first_line, first_column;
	int last_line, last_column;  /* exclusive; first_line == 0: no position */
} ptxsurf_range;

typedef struct ptxsurf_context ptxsurf_context;
typedef struct ptxsurf_result ptxsurf_result;
typedef struct ptxsurf_diagnostic ptxsurf_diagnostic;

/* ---- contexts: the options of the calls made with them ----------------- */

/* NULL only when out of memory. Defaults: strict rules, the module's own
 * .version and .target, no CUDA release, every rule on, no error limit. */
PTXSURF_API ptxsurf_context *ptxsurf_context_create(void);
PTXSURF_API void ptxsurf_context_destroy(ptxsurf_context *ctx);
/* The reason of the last call on ctx that did not return PTXSURF_OK ("" if none). */
PTXSURF_API const char *ptxsurf_context_error(const ptxsurf_context *ctx);

PTXSURF_API ptxsurf_status ptxsurf_set_rules(ptxsurf_context *ctx, ptxsurf_rules rules);
/* Check as if the module declared `.version X.Y` ("7.8"); NULL: its own. */
PTXSURF_API ptxsurf_status ptxsurf_set_ptx_version(ptxsurf_context *ctx, const char *version);
/* Check as if the module declared `.target NAME` ("sm_75"); NULL: its own. */
PTXSURF_API ptxsurf_status ptxsurf_set_target(ptxsurf_context *ctx, const char *target);
/* Also reject what CUDA release X.Y ("12.4") cannot compile: a newer
 * .version, a target it does not support. NULL: no release. */
PTXSURF_API ptxsurf_status ptxsurf_set_cuda_release(ptxsurf_context *ctx, const char *release);
/* Turns a rule's diagnostics off (enabled = 0) or back on, as -Wno-RULE
 * and -WRULE do. Syntax, lexical and io cannot be turned off. */
PTXSURF_API ptxsurf_status ptxsurf_set_rule_enabled(ptxsurf_context *ctx, const char *rule, int enabled);
/* Report warnings as errors: all of them (rule NULL, as -Werror) or one
 * rule's (as -Werror=RULE). */
PTXSURF_API ptxsurf_status ptxsurf_set_warning_as_error(ptxsurf_context *ctx, const char *rule);
/* Keep at most n errors per call (0: all); the others are counted only. */
PTXSURF_API void ptxsurf_set_max_errors(ptxsurf_context *ctx, unsigned n);

/* ---- checking ------------------------------------------------------------ */

/* Parses and checks PTX text (len bytes, no terminator needed); name
 * labels the diagnostics ("kernel.ptx"). On PTXSURF_OK *out is a result to
 * free, whatever the verdict: see ptxsurf_result_error_count(). */
PTXSURF_API ptxsurf_status ptxsurf_check(ptxsurf_context *ctx, const char *name, const char *text, size_t len,
					 ptxsurf_result **out);
/* The same for a file ("-": standard input). */
PTXSURF_API ptxsurf_status ptxsurf_check_file(ptxsurf_context *ctx, const char *path, ptxsurf_result **out);

/* ---- results --------------------------------------------------------------- */

PTXSURF_API void ptxsurf_result_free(ptxsurf_result *r);
PTXSURF_API unsigned ptxsurf_result_error_count(const ptxsurf_result *r);
PTXSURF_API unsigned ptxsurf_result_warning_count(const ptxsurf_result *r);
/* Nonzero when errors beyond ptxsurf_set_max_errors() were dropped. */
PTXSURF_API int ptxsurf_result_truncated(const ptxsurf_result *r);
/* The diagnostics in source order; notes hang off their diagnostic. */
PTXSURF_API size_t ptxsurf_result_diagnostic_count(const ptxsurf_result *r);
PTXSURF_API const ptxsurf_diagnostic *ptxsurf_result_diagnostic(const ptxsurf_result *r, size_t i);
/* The diagnostics as ptxsurf-as prints them on a terminal (file:line:col:
 * severity: message [rule], the source line, a caret), malloc'ed. */
PTXSURF_API char *ptxsurf_result_text(const ptxsurf_result *r, int color);
/* Assembly results (NULL and 0 after a check, or when there were errors). */
PTXSURF_API const uint8_t *ptxsurf_result_image(const ptxsurf_result *r, size_t *len);
PTXSURF_API const char *ptxsurf_result_listing(const ptxsurf_result *r);

PTXSURF_API ptxsurf_severity ptxsurf_diagnostic_severity(const ptxsurf_diagnostic *d);
/* The stable rule id ("version-gate", docs/rules.md); "" for a note. */
PTXSURF_API const char *ptxsurf_diagnostic_rule(const ptxsurf_diagnostic *d);
PTXSURF_API const char *ptxsurf_diagnostic_message(const ptxsurf_diagnostic *d);
PTXSURF_API ptxsurf_range ptxsurf_diagnostic_range(const ptxsurf_diagnostic *d);
PTXSURF_API size_t ptxsurf_diagnostic_note_count(const ptxsurf_diagnostic *d);
/* A note is a diagnostic of severity PTXSURF_SEVERITY_NOTE, without notes. */
PTXSURF_API const ptxsurf_diagnostic *ptxsurf_diagnostic_note(const ptxsurf_diagnostic *d, size_t i);

/* ---- requirements: the lowest .version and .target a module needs -------- */

typedef struct ptxsurf_requirements ptxsurf_requirements;

/* PTXSURF_OK with *out to free when the text parsed; otherwise
 * PTXSURF_ERROR_INPUT with the syntax errors in *diags (when diags is not
 * NULL; free it). Options of ctx apply (rules mode, disabled rules). */
PTXSURF_API ptxsurf_status ptxsurf_requirements_compute(ptxsurf_context *ctx, const char *name, const char *text,
							size_t len, ptxsurf_requirements **out,
							ptxsurf_result **diags);
PTXSURF_API void ptxsurf_requirements_free(ptxsurf_requirements *q);
/* Zero when no version and target satisfy the module (then see _why). */
PTXSURF_API int ptxsurf_requirements_ok(const ptxsurf_requirements *q);
PTXSURF_API const char *ptxsurf_requirements_why(const ptxsurf_requirements *q);
/* "7.8" and "sm_80" (NULL when not ok). */
PTXSURF_API const char *ptxsurf_requirements_min_version(const ptxsurf_requirements *q);
PTXSURF_API const char *ptxsurf_requirements_min_target(const ptxsurf_requirements *q);
/* The lines that force them: the diagnostics the checker gives one
 * version (one target) lower. Owned by q. */
PTXSURF_API const ptxsurf_result *ptxsurf_requirements_version_reasons(const ptxsurf_requirements *q);
PTXSURF_API const ptxsurf_result *ptxsurf_requirements_target_reasons(const ptxsurf_requirements *q);

/* ---- --fix-version: the same text with the lowest .version it needs ------ */

/* Rewrites the .version number (and with fix_target the first .target
 * name) to the lowest the module needs, keeping every other byte. On
 * PTXSURF_OK *fixed is malloc'ed (NUL-terminated, *fixed_len bytes). On
 * PTXSURF_ERROR_INPUT the reasons are diagnostics in *diags (when diags is
 * not NULL; free it). */
PTXSURF_API ptxsurf_status ptxsurf_fix_version(ptxsurf_context *ctx, const char *name, const char *text, size_t len,
					       int fix_target, char **fixed, size_t *fixed_len,
					       ptxsurf_result **diags);

/* ---- assembling and disassembling (Maxwell sm_50) -------------------------- */

/* Checks, then assembles every .entry; with want_listing also the SASS
 * listing as nvdisasm -hex prints it. PTXSURF_OK with *out to free; the
 * code is there when ptxsurf_result_error_count() is 0. */
PTXSURF_API ptxsurf_status ptxsurf_assemble(ptxsurf_context *ctx, const char *name, const char *text, size_t len,
					    ptxsurf_format format, int want_listing, ptxsurf_result **out);
/* A cubin or raw sm_50 code (bytes[0..len)) listed as nvdisasm -hex does;
 * *text malloc'ed. PTXSURF_ERROR_INPUT (reason in the context) for bytes
 * that are not such code. */
PTXSURF_API ptxsurf_status ptxsurf_disassemble(ptxsurf_context *ctx, const void *bytes, size_t len, char **text,
					       size_t *text_len);

/* Frees a buffer the library returned (text, listing copies, fixed text). */
PTXSURF_API void ptxsurf_free(void *p);

#ifdef __cplusplus
}
#endif

#endif
