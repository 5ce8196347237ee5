/* The diagnostic sink. Passes never print: they append diagnostics here and
 * the driver renders them (text now; JSON/SARIF render from the same list). */
#ifndef PTXSURF_DIAG_H
#define PTXSURF_DIAG_H

#include "base/arena.h"
#include "base/rule_id.h"
#include "base/srcloc.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum Severity { SEV_NOTE, SEV_WARNING, SEV_ERROR } Severity;

typedef struct Diag Diag;
struct Diag {
	Severity sev;
	SrcLoc loc;          /* loc.first_line == 0: not tied to a line */
	RuleId id;           /* the rule (rules.def) */
	const char *rule;    /* its stable text, printed as [rule]: rule_name(id) */
	const char *msg;
	Diag *notes;         /* attached notes, in order */
	Diag *next;
	unsigned seq;        /* insertion order, keeps sorting stable */
};

/* What the command line asks for: -Wno-<rule> drops a rule's diagnostics,
 * -Werror turns warnings into errors, -Werror=<rule> one rule's. Lexical and
 * syntax errors cannot be dropped: nothing after them would make sense. */
typedef struct DiagPolicy {
	bool werror;
	const char **disabled;
	size_t ndisabled;
	const char **as_error;
	size_t nas_error;
} DiagPolicy;

typedef struct DiagSink {
	Arena arena;
	const char *filename;
	const char *src;     /* the source buffer, for caret lines (may be NULL) */
	size_t srclen;
	Diag *head, *tail;
	unsigned count[3];   /* per severity */
	unsigned seq;
	/* every diag_vadd, kept, dropped by the policy or over the limit
	 * alike: the checker's shape memo (check_shape.c) tells "nothing to
	 * say" from "said, and filtered" by it */
	unsigned long tried;
	unsigned limit;      /* stop recording errors after this many (0 = none) */
	bool truncated;
	const DiagPolicy *policy;   /* NULL: report everything as emitted */
	/* lazily built line-start table for rendering */
	size_t *line_start;
	size_t nlines;
} DiagSink;

void diag_init(DiagSink *s, const char *filename, const char *src, size_t len);
/* A sink for diagnostics that wait to be appended to `like` (diag_append):
 * the same file, source, error limit and policy. */
void diag_init_like(DiagSink *s, const DiagSink *like);
void diag_fini(DiagSink *s);

Diag *diag_add(DiagSink *s, Severity sev, SrcLoc loc, RuleId rule, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
Diag *diag_vadd(DiagSink *s, Severity sev, SrcLoc loc, RuleId rule, const char *fmt, va_list ap);
void diag_note(DiagSink *s, Diag *parent, SrcLoc loc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Moves src's diagnostics behind dst's as if they had been emitted into
 * dst in the same order (same counts, same --max-errors cut); src must
 * share dst's policy and ends empty. */
void diag_append(DiagSink *dst, DiagSink *src);

static inline unsigned diag_errors(const DiagSink *s) { return s->count[SEV_ERROR]; }

/* Diagnostics in source order (stable for equal locations). */
Diag **diag_sorted(DiagSink *s, size_t *n);

/* Text of line `line` (1-based) without its newline; NULL if unknown. */
const char *diag_line_text(DiagSink *s, int line, size_t *len);

typedef struct DiagTextOptions {
	bool color;
	bool caret;          /* print the source line and a caret */
} DiagTextOptions;

void diag_render_text(DiagSink *s, FILE *out, const DiagTextOptions *opt);

#endif
