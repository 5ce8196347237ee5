/* The language server's pieces: the message loop (lsp.c), outgoing
 * messages (lsp_out.c), settings (lsp_settings.c), the open documents and
 * their positions (lsp_docs.c), diagnostics (lsp_diag.c), hover,
 * definition and document symbols (lsp_nav.c). */
#ifndef PTXSURF_LSP_INTERNAL_H
#define PTXSURF_LSP_INTERNAL_H

#include "driver/api_internal.h"
#include "base/json_read.h"
#include "front/ast.h"

#include <stdbool.h>
#include <stdio.h>

/* What the client or a `// ptxsurf:` comment may set. Empty strings: the
 * module's own .version / .target, no CUDA release. */
typedef struct LspSettings {
	ptxsurf_rules rules;
	char target[24];
	char ptx_version[8];
	char cuda[8];
} LspSettings;

typedef struct LspDoc LspDoc;
struct LspDoc {
	char *uri;
	char *name;             /* the path of a file: URI, else the URI */
	char *text;             /* len bytes + 2 NULs (the scanner's convention) */
	size_t len, cap;
	long long version;
	size_t *lines;          /* byte offset of each line's start */
	size_t nlines;
	bool parsed;            /* mod holds the current text */
	Module mod;
	char *mod_text;         /* the copy mod was parsed from */
	LspDoc *next;
};

typedef struct LspServer {
	FILE *out;
	bool initialized, shutting_down;
	bool utf8;              /* positions count bytes, else UTF-16 code units */
	LspSettings defaults;
	LspDoc *docs;
} LspServer;

/* ---- messages (lsp_out.c) and settings (lsp_settings.c) ---- */
/* The body of a message: a memstream the caller writes the JSON into. */
typedef struct LspOut {
	char *buf;
	size_t len;
	FILE *f;
} LspOut;
FILE *lsp_begin(LspOut *o);
void lsp_send(LspServer *s, LspOut *o);
/* A notification with `params` written by the caller after this prefix. */
FILE *lsp_begin_notification(LspOut *o, const char *method);
/* Settings from a JSON object ({"rules": "ptxas", "target": "sm_80", ...});
 * false with a message when a value is not understood. */
bool lsp_settings_apply(LspSettings *st, const JsonValue *obj, char *err, size_t errlen);
bool lsp_setting(LspSettings *st, const char *key, size_t keylen, const char *val, size_t vallen);

/* ---- documents (lsp_docs.c) ---- */
LspDoc *lsp_doc_find(LspServer *s, const char *uri);
LspDoc *lsp_doc_open(LspServer *s, const char *uri, const char *text, size_t len, long long version);
void lsp_doc_close(LspServer *s, LspDoc *d);
void lsp_doc_free(LspDoc *d);
/* Replaces [from, to) (byte offsets) by text[0..n). */
void lsp_doc_edit(LspDoc *d, size_t from, size_t to, const char *text, size_t n);
/* LSP position <-> byte offset and 1-based line/column. */
size_t lsp_offset_of(const LspServer *s, const LspDoc *d, long long line, long long character);
void lsp_write_position(const LspServer *s, const LspDoc *d, FILE *f, int line1, int col1);
void lsp_write_range(const LspServer *s, const LspDoc *d, FILE *f, SrcLoc loc);
/* The module parsed from the current text (for navigation). */
const Module *lsp_doc_module(LspDoc *d);

/* ---- diagnostics (lsp_diag.c) ---- */
void lsp_publish(LspServer *s, LspDoc *d);
void lsp_publish_empty(LspServer *s, const char *uri);

/* ---- navigation (lsp_nav.c): write the result value ---- */
void lsp_hover(LspServer *s, LspDoc *d, int line1, int col1, FILE *f);
void lsp_definition(LspServer *s, LspDoc *d, int line1, int col1, FILE *f);
void lsp_document_symbols(LspServer *s, LspDoc *d, FILE *f);

#endif
