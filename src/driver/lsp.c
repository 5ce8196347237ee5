/* The language server's message loop: JSON-RPC 2.0 with Content-Length
 * framing on stdin/stdout, the lifecycle (initialize, shutdown, exit) and
 * the dispatch of document notifications and requests. A malformed
 * message gets an error response (or is dropped, for a notification),
 * never a crash: the server keeps serving. */
#include "driver/lsp.h"
#include "driver/lsp_internal.h"
#include "base/json.h"
#include "base/version.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
	RPC_PARSE_ERROR = -32700,
	RPC_INVALID_REQUEST = -32600,
	RPC_METHOD_NOT_FOUND = -32601,
	RPC_INVALID_PARAMS = -32602,
	RPC_INTERNAL_ERROR = -32603,
	RPC_SERVER_NOT_INITIALIZED = -32002,
};

/* Messages larger than this are read and dropped with an error. */
static const size_t max_message = (size_t)1 << 30;

static FILE *begin_response(LspOut *o, const JsonValue *id)
{
	FILE *f = lsp_begin(o);
	fputs("{\"jsonrpc\":\"2.0\",\"id\":", f);
	if (id)
		json_write(f, id);
	else
		fputs("null", f);
	return f;
}

static void respond_error(LspServer *s, const JsonValue *id, int code, const char *msg)
{
	LspOut o;
	FILE *f = begin_response(&o, id);
	fprintf(f, ",\"error\":{\"code\":%d,\"message\":", code);
	json_string(f, msg);
	fputs("}}", f);
	lsp_send(s, &o);
}

/* ---- requests ---- */

static bool wants_utf8(const JsonValue *params)
{
	const JsonValue *encs = json_get(json_get(json_get(params, "capabilities"), "general"), "positionEncodings");
	if (!encs || encs->kind != JSON_ARRAY)
		return false;
	for (size_t i = 0; i < encs->len; i++) {
		const char *e = json_str(encs->items[i]);
		if (e && strcmp(e, "utf-8") == 0)
			return true;
	}
	return false;
}

static void initialize(LspServer *s, const JsonValue *id, const JsonValue *params)
{
	char err[200];
	const JsonValue *opts = json_get(params, "initializationOptions");
	/* {"ptxsurf": {...}} as in workspace settings, or the settings themselves */
	if (json_get(opts, "ptxsurf"))
		opts = json_get(opts, "ptxsurf");
	if (!lsp_settings_apply(&s->defaults, opts, err, sizeof err)) {
		respond_error(s, id, RPC_INVALID_PARAMS, err);
		return;
	}
	s->utf8 = wants_utf8(params);
	s->initialized = true;
	LspOut o;
	FILE *f = begin_response(&o, id);
	fprintf(f, ",\"result\":{\"capabilities\":{\"positionEncoding\":\"%s\","
		"\"textDocumentSync\":{\"openClose\":true,\"change\":2},"
		"\"hoverProvider\":true,\"definitionProvider\":true,\"documentSymbolProvider\":true},"
		"\"serverInfo\":{\"name\":\"ptxsurf-as\",\"version\":\"%s\"}}}",
		s->utf8 ? "utf-8" : "utf-16", PTXSURF_VERSION);
	lsp_send(s, &o);
}

static LspDoc *doc_of(LspServer *s, const JsonValue *params)
{
	const char *uri = json_str(json_get(json_get(params, "textDocument"), "uri"));
	return uri ? lsp_doc_find(s, uri) : NULL;
}

/* hover and definition: the position in params as a 1-based line and
 * byte column; -1 when malformed, 0 when past the document's end. */
static int position_of(LspServer *s, LspDoc *d, const JsonValue *params, int *line1, int *col1)
{
	const JsonValue *pos = json_get(params, "position");
	long long line, ch;
	if (!json_int(json_get(pos, "line"), 0, 1LL << 31, &line) ||
	    !json_int(json_get(pos, "character"), 0, 1LL << 31, &ch))
		return -1;
	if (!d || (size_t)line >= d->nlines)
		return 0;
	size_t off = lsp_offset_of(s, d, line, ch);
	*line1 = (int)line + 1;
	*col1 = (int)(off - d->lines[line]) + 1;
	return 1;
}

static void navigate(LspServer *s, const JsonValue *id, const char *method, const JsonValue *params)
{
	if (!json_str(json_get(json_get(params, "textDocument"), "uri"))) {
		respond_error(s, id, RPC_INVALID_PARAMS, "params.textDocument.uri is missing");
		return;
	}
	LspDoc *d = doc_of(s, params);
	int line1 = 0, col1 = 0, at = 1;
	bool symbols = strcmp(method, "textDocument/documentSymbol") == 0;
	if (!symbols && (at = position_of(s, d, params, &line1, &col1)) < 0) {
		respond_error(s, id, RPC_INVALID_PARAMS, "params.position needs a line and a character");
		return;
	}
	LspOut o;
	FILE *f = begin_response(&o, id);
	fputs(",\"result\":", f);
	if (!d || at == 0)
		fputs(symbols ? "[]" : "null", f);   /* not open, or past its end */
	else if (symbols)
		lsp_document_symbols(s, d, f);
	else if (strcmp(method, "textDocument/hover") == 0)
		lsp_hover(s, d, line1, col1, f);
	else
		lsp_definition(s, d, line1, col1, f);
	fputc('}', f);
	lsp_send(s, &o);
}

static void request(LspServer *s, const JsonValue *id, const char *method, const JsonValue *params)
{
	if (strcmp(method, "initialize") == 0) {
		if (s->initialized)
			respond_error(s, id, RPC_INVALID_REQUEST, "initialize was already sent");
		else
			initialize(s, id, params);
		return;
	}
	if (!s->initialized) {
		respond_error(s, id, RPC_SERVER_NOT_INITIALIZED, "the server is not initialized yet");
		return;
	}
	if (s->shutting_down) {
		respond_error(s, id, RPC_INVALID_REQUEST, "the server is shutting down");
		return;
	}
	if (strcmp(method, "shutdown") == 0) {
		s->shutting_down = true;
		LspOut o;
		FILE *f = begin_response(&o, id);
		fputs(",\"result\":null}", f);
		lsp_send(s, &o);
	} else if (strcmp(method, "textDocument/hover") == 0 || strcmp(method, "textDocument/definition") == 0 ||
		   strcmp(method, "textDocument/documentSymbol") == 0) {
		navigate(s, id, method, params);
	} else {
		char msg[200];
		snprintf(msg, sizeof msg, "method '%.120s' is not supported", method);
		respond_error(s, id, RPC_METHOD_NOT_FOUND, msg);
	}
}

/* ---- notifications ---- */

static void did_open(LspServer *s, const JsonValue *params)
{
	const JsonValue *td = json_get(params, "textDocument");
	const char *uri = json_str(json_get(td, "uri"));
	const JsonValue *text = json_get(td, "text");
	long long version = 0;
	json_int(json_get(td, "version"), -(1LL << 53), 1LL << 53, &version);
	if (!uri || !text || text->kind != JSON_STRING)
		return;
	lsp_publish(s, lsp_doc_open(s, uri, text->str, text->len, version));
}

static void did_change(LspServer *s, const JsonValue *params)
{
	LspDoc *d = doc_of(s, params);
	const JsonValue *changes = json_get(params, "contentChanges");
	if (!d || !changes || changes->kind != JSON_ARRAY)
		return;
	json_int(json_get(json_get(params, "textDocument"), "version"), -(1LL << 53), 1LL << 53, &d->version);
	for (size_t i = 0; i < changes->len; i++) {
		const JsonValue *c = changes->items[i], *text = json_get(c, "text"), *range = json_get(c, "range");
		if (!text || text->kind != JSON_STRING)
			continue;
		if (!range) {
			lsp_doc_edit(d, 0, d->len, text->str, text->len);
			continue;
		}
		long long l0, c0, l1, c1;
		const JsonValue *a = json_get(range, "start"), *b = json_get(range, "end");
		if (!json_int(json_get(a, "line"), 0, 1LL << 31, &l0) || !json_int(json_get(a, "character"), 0, 1LL << 31, &c0) ||
		    !json_int(json_get(b, "line"), 0, 1LL << 31, &l1) || !json_int(json_get(b, "character"), 0, 1LL << 31, &c1))
			continue;
		lsp_doc_edit(d, lsp_offset_of(s, d, l0, c0), lsp_offset_of(s, d, l1, c1), text->str, text->len);
	}
	lsp_publish(s, d);
}

static void notification(LspServer *s, const char *method, const JsonValue *params)
{
	if (!s->initialized || s->shutting_down)
		return;     /* dropped, as the protocol says */
	if (strcmp(method, "textDocument/didOpen") == 0) {
		did_open(s, params);
	} else if (strcmp(method, "textDocument/didChange") == 0) {
		did_change(s, params);
	} else if (strcmp(method, "textDocument/didClose") == 0) {
		LspDoc *d = doc_of(s, params);
		if (d) {
			char *uri = xstrdup(d->uri);
			lsp_doc_close(s, d);
			lsp_publish_empty(s, uri);
			free(uri);
		}
	} else if (strcmp(method, "workspace/didChangeConfiguration") == 0) {
		const JsonValue *st = json_get(json_get(params, "settings"), "ptxsurf");
		char err[200];
		if (st && lsp_settings_apply(&s->defaults, st, err, sizeof err))
			for (LspDoc *d = s->docs; d; d = d->next)
				lsp_publish(s, d);
	}
	/* initialized, didSave, $/cancelRequest, $/setTrace...: nothing to do */
}

/* ---- framing ---- */

/* Reads one header block; returns the Content-Length, -1 at the end of
 * input, -2 for a block without a usable Content-Length. */
static long long read_header(FILE *in)
{
	char line[1024];
	long long len = -2;
	bool any = false;
	while (fgets(line, sizeof line, in)) {
		any = true;
		size_t n = strlen(line);
		bool complete = n && line[n - 1] == '\n';
		while (!complete) {     /* an overlong header line: skip its rest */
			int c;
			while ((c = fgetc(in)) != EOF && c != '\n')
				;
			if (c == EOF)
				return -1;
			complete = true;
			line[0] = 'x';
		}
		if (strcmp(line, "\r\n") == 0 || strcmp(line, "\n") == 0)
			return len;
		if (strncasecmp(line, "Content-Length:", 15) == 0) {
			char *end;
			long long v = strtoll(line + 15, &end, 10);
			while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
				end++;
			len = v >= 0 && !*end ? v : -2;
		}
	}
	return any ? -2 : -1;
}

static bool skip_bytes(FILE *in, size_t n)
{
	char buf[4096];
	while (n) {
		size_t k = fread(buf, 1, n < sizeof buf ? n : sizeof buf, in);
		if (k == 0)
			return false;
		n -= k;
	}
	return true;
}

static void handle(LspServer *s, const char *body, size_t len, bool *exit_now)
{
	Arena a;
	arena_init(&a);
	char err[200];
	const JsonValue *msg = json_parse(&a, body, len, err, sizeof err);
	if (!msg) {
		respond_error(s, NULL, RPC_PARSE_ERROR, err);
		arena_free(&a);
		return;
	}
	const JsonValue *id = json_get(msg, "id");
	const char *method = json_str(json_get(msg, "method"));
	bool id_ok = id && (id->kind == JSON_NUMBER || id->kind == JSON_STRING);
	if (msg->kind != JSON_OBJECT || (id && !id_ok && id->kind != JSON_NULL)) {
		respond_error(s, NULL, RPC_INVALID_REQUEST, "a message must be an object with a string or number id");
	} else if (!method) {
		/* a response to a request of ours (we send none), or junk */
		if (!id && !json_get(msg, "result") && !json_get(msg, "error"))
			respond_error(s, NULL, RPC_INVALID_REQUEST, "the message has no method");
	} else if (strcmp(method, "exit") == 0) {
		*exit_now = true;
	} else if (id_ok) {
		request(s, id, method, json_get(msg, "params"));
	} else {
		notification(s, method, json_get(msg, "params"));
	}
	arena_free(&a);
}

int lsp_serve(FILE *in, FILE *out)
{
	/* Out of memory leaves through the caller's XdieTrap. */
	LspServer s = { .out = out };
	char *body = NULL;
	int status = 1;
	for (;;) {
		long long len = read_header(in);
		if (len == -1)
			break;
		if (len == -2) {
			respond_error(&s, NULL, RPC_PARSE_ERROR, "a message header without a Content-Length");
			continue;
		}
		if ((size_t)len > max_message) {
			respond_error(&s, NULL, RPC_INVALID_REQUEST, "the message is too large");
			if (!skip_bytes(in, (size_t)len))
				break;
			continue;
		}
		body = xrealloc(body, (size_t)len + 1);
		if (fread(body, 1, (size_t)len, in) != (size_t)len)
			break;
		bool exit_now = false;
		handle(&s, body, (size_t)len, &exit_now);
		if (exit_now) {
			status = s.shutting_down ? 0 : 1;
			break;
		}
	}
	free(body);
	while (s.docs)
		lsp_doc_close(&s, s.docs);
	return status;
}
