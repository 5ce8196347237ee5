/* The semantic checker: PTX ISA version and target rules. It never prints;
 * every finding goes to the diagnostic sink. */
#ifndef PTXSURF_CHECK_H
#define PTXSURF_CHECK_H

#include "front/ast.h"
#include "base/diag.h"

typedef enum RulesMode {
	RULES_STRICT,   /* reject what the PTX ISA documents or ptxas forbid */
	RULES_PTXAS,    /* mirror ptxas 13's verdicts exactly */
} RulesMode;

typedef struct CheckOptions {
	RulesMode rules;
	/* Judged for assembly (sm_50 code), not --check: where ptxas 11.8, the
	 * sm_50 compiler, accepts what ptxas 13 refuses, the assembler follows
	 * ptxas 11.8 (check_header's target-version rule), and what only newer
	 * releases refuse for a .target sm_50 (32-bit addressing) is a
	 * warning, not an error. */
	bool assembling;
} CheckOptions;

void check_module(Module *m, DiagSink *sink, const CheckOptions *opt);

/* The same checks one top-level item at a time, as the parser completes
 * them (ptx_parse_stream), with identical diagnostics in identical order:
 * they are collected apart and appended to `sink` by check_stream_end
 * (header rules, then the ISA gates of module-scope items, then the items),
 * the order check_module emits them in. Only the header items and section
 * names are kept (m->items holds copies of them); module symbols live in
 * the checker. */
typedef struct CheckStream CheckStream;
/* The stream reads `sink`'s settings (limit, policy) here and appends to
 * it in check_stream_end; in between it never touches it, so the parser
 * may report into it on another thread. */
CheckStream *check_stream_begin(Module *m, DiagSink *sink, const CheckOptions *opt);
/* The errors the parser had reported when the item or statement of the
 * next call was handed over (0 at the start): after a syntax error nothing
 * more is checked, and the calls below say so by this count. */
void check_stream_parse_errors(CheckStream *s, unsigned n);
/* False when the module cannot be checked in stream order (a .version,
 * .target or .address_size after other items changes how the earlier ones
 * are judged): the caller must then check the whole module instead. */
bool check_stream_item(CheckStream *s, const Item *it);
/* Errors the items handed over so far have drawn (header rules, which wait
 * for the end, aside): an assembler lowers an item only while this is 0. */
unsigned check_stream_errors(const CheckStream *s);
/* Appends the collected diagnostics to the sink when `keep` (the module
 * parsed cleanly: semantic rules apply only then), and frees the stream. */
void check_stream_end(CheckStream *s, bool keep);

/* Below the function (ptx_parse_stream_body's BodyFns): a function's
 * header, each statement of its body and its nested blocks' ends as the
 * parser reduces them; check_stream_item then gets the function itself
 * (body NULL) and finishes it. Only its names, its labels and statements
 * waiting for a label further down outlive a statement, so memory is
 * bounded by what a function declares, not by its length. */
void check_stream_func_begin(CheckStream *s, const Item *it);
void check_stream_stmt(CheckStream *s, const Stmt *st);
void check_stream_block_begin(CheckStream *s);
void check_stream_block_end(CheckStream *s);

#endif
