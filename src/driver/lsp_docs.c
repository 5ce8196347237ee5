/* The open documents: their text, kept current through full or
 * incremental changes, the line table that turns LSP positions (0-based
 * lines, characters in UTF-16 code units or bytes) into byte offsets and
 * back, and the module parsed for navigation. */
#include "driver/lsp_internal.h"
#include "front/parse.h"

#include <stdlib.h>
#include <string.h>

LspDoc *lsp_doc_find(LspServer *s, const char *uri)
{
	for (LspDoc *d = s->docs; d; d = d->next)
		if (strcmp(d->uri, uri) == 0)
			return d;
	return NULL;
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* file:///dir/k%20a.ptx -> /dir/k a.ptx; other schemes stay as they are. */
static char *name_of_uri(const char *uri)
{
	if (strncmp(uri, "file://", 7) != 0)
		return xstrdup(uri);
	const char *p = uri + 7;
	char *out = xmalloc(strlen(p) + 1), *o = out;
	for (; *p; p++) {
		int hi, lo;
		if (*p == '%' && (hi = hex_digit(p[1])) >= 0 && (lo = hex_digit(p[2])) >= 0 && (hi || lo)) {
			*o++ = (char)(hi * 16 + lo);
			p += 2;
		} else {
			*o++ = *p;
		}
	}
	*o = 0;
	return out;
}

static void index_lines(LspDoc *d)
{
	size_t n = 1;
	for (const char *p = d->text, *end = d->text + d->len; (p = memchr(p, '\n', (size_t)(end - p))); p++)
		n++;
	d->lines = xrealloc(d->lines, n * sizeof *d->lines);
	d->nlines = 0;
	d->lines[d->nlines++] = 0;
	for (const char *p = d->text, *end = d->text + d->len; (p = memchr(p, '\n', (size_t)(end - p))); p++)
		d->lines[d->nlines++] = (size_t)(p - d->text) + 1;
}

static void forget_module(LspDoc *d)
{
	if (d->parsed) {
		module_fini(&d->mod);
		free(d->mod_text);
		d->mod_text = NULL;
		d->parsed = false;
	}
}

static void set_text(LspDoc *d, const char *text, size_t len)
{
	if (len + 2 > d->cap) {
		d->cap = len + 2 + len / 4;
		d->text = xrealloc(d->text, d->cap);
	}
	if (len)
		memmove(d->text, text, len);
	d->len = len;
	d->text[len] = d->text[len + 1] = 0;
	index_lines(d);
	forget_module(d);
}

LspDoc *lsp_doc_open(LspServer *s, const char *uri, const char *text, size_t len, long long version)
{
	LspDoc *d = lsp_doc_find(s, uri);
	if (!d) {
		d = xcalloc(1, sizeof *d);
		d->uri = xstrdup(uri);
		d->name = name_of_uri(uri);
		d->next = s->docs;
		s->docs = d;
	}
	set_text(d, text, len);
	d->version = version;
	return d;
}

void lsp_doc_free(LspDoc *d)
{
	forget_module(d);
	free(d->uri);
	free(d->name);
	free(d->text);
	free(d->lines);
	free(d);
}

void lsp_doc_close(LspServer *s, LspDoc *d)
{
	for (LspDoc **p = &s->docs; *p; p = &(*p)->next)
		if (*p == d) {
			*p = d->next;
			break;
		}
	lsp_doc_free(d);
}

void lsp_doc_edit(LspDoc *d, size_t from, size_t to, const char *text, size_t n)
{
	if (from > d->len)
		from = d->len;
	if (to > d->len)
		to = d->len;
	if (to < from)
		to = from;
	size_t len = d->len - (to - from) + n;
	if (len + 2 > d->cap) {
		d->cap = len + 2 + len / 4;
		d->text = xrealloc(d->text, d->cap);
	}
	memmove(d->text + from + n, d->text + to, d->len - to);
	memcpy(d->text + from, text, n);
	d->len = len;
	d->text[len] = d->text[len + 1] = 0;
	index_lines(d);
	forget_module(d);
}

/* Line `line` (0-based) as [*b, *e), without its line end. */
static bool line_span(const LspDoc *d, long long line, size_t *b, size_t *e)
{
	if (line < 0 || (size_t)line >= d->nlines)
		return false;
	*b = d->lines[line];
	*e = (size_t)line + 1 < d->nlines ? d->lines[line + 1] - 1 : d->len;
	if (*e > *b && d->text[*e - 1] == '\r')
		(*e)--;
	return true;
}

/* UTF-16 code units of the UTF-8 bytes [b, e): four-byte sequences are
 * two units; a malformed byte counts as one. */
static size_t utf16_units(const char *t, size_t b, size_t e)
{
	size_t n = 0;
	for (size_t i = b; i < e; i++) {
		unsigned char c = (unsigned char)t[i];
		if ((c & 0xc0) != 0x80)
			n += c >= 0xf0 ? 2 : 1;
	}
	return n;
}

size_t lsp_offset_of(const LspServer *s, const LspDoc *d, long long line, long long character)
{
	size_t b, e;
	if (line < 0)
		return 0;
	if (!line_span(d, line, &b, &e))
		return d->len;
	if (character <= 0)
		return b;
	if (s->utf8)
		return (size_t)character < e - b ? b + (size_t)character : e;
	size_t units = 0, i = b;
	while (i < e && units < (size_t)character) {
		unsigned char c = (unsigned char)d->text[i];
		size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
		units += n == 4 ? 2 : 1;
		i += n;
	}
	return i < e ? i : e;
}

void lsp_write_position(const LspServer *s, const LspDoc *d, FILE *f, int line1, int col1)
{
	size_t b, e;
	long long line = line1 > 0 ? line1 - 1 : 0;
	size_t ch = 0;
	if (line_span(d, line, &b, &e)) {
		size_t at = col1 > 1 ? b + (size_t)(col1 - 1) : b;
		if (at > e)
			at = e;
		ch = s->utf8 ? at - b : utf16_units(d->text, b, at);
	}
	fprintf(f, "{\"line\":%lld,\"character\":%zu}", line, ch);
}

void lsp_write_range(const LspServer *s, const LspDoc *d, FILE *f, SrcLoc loc)
{
	if (loc.first_line <= 0)
		loc = (SrcLoc){ 1, 1, 1, 1 };
	if (loc.last_line < loc.first_line || (loc.last_line == loc.first_line && loc.last_column < loc.first_column)) {
		loc.last_line = loc.first_line;
		loc.last_column = loc.first_column;
	}
	fputs("{\"start\":", f);
	lsp_write_position(s, d, f, loc.first_line, loc.first_column);
	fputs(",\"end\":", f);
	lsp_write_position(s, d, f, loc.last_line, loc.last_column);
	fputc('}', f);
}

const Module *lsp_doc_module(LspDoc *d)
{
	if (d->parsed)
		return &d->mod;
	d->mod_text = xmalloc(d->len + 2);
	memcpy(d->mod_text, d->text, d->len + 2);
	module_init(&d->mod, d->name);
	/* navigation works on what parsed; the diagnostics come from the check */
	DiagSink sink;
	diag_init(&sink, d->name, d->mod_text, d->len);
	sink.limit = 1;
	ptx_parse_buffer(&d->mod, &sink, d->mod_text, d->len);
	diag_fini(&sink);
	d->parsed = true;
	return &d->mod;
}
