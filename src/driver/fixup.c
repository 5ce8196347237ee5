#include "driver/fixup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long fixup_offset(const char *src, size_t len, int line, int column)
{
	if (line < 1 || column < 1)
		return -1;
	size_t pos = 0;
	for (int l = 1; l < line; l++) {
		const char *nl = memchr(src + pos, '\n', len - pos);
		if (!nl)
			return -1;
		pos = (size_t)(nl - src) + 1;
	}
	/* the scanner's columns count bytes, so column c is byte c - 1 of the
	 * line; one past the last byte (the '\n' or the end) is allowed */
	const char *nl = memchr(src + pos, '\n', len - pos);
	size_t line_len = (nl ? (size_t)(nl - src) : len) - pos;
	if ((size_t)column - 1 > line_len)
		return -1;
	return (long)(pos + (size_t)column - 1);
}

typedef struct Span {
	size_t start, end;
	const char *text;
} Span;

static int by_start(const void *a, const void *b)
{
	const Span *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int fail(char *err, size_t errlen, char **out, const char *msg, size_t k)
{
	if (err && errlen)
		snprintf(err, errlen, msg, k + 1);
	*out = NULL;
	return -1;
}

int fixup_rewrite(const char *src, size_t len, const FixupEdit *edits, size_t n,
		  char **out, size_t *outlen, char *err, size_t errlen)
{
	Span *spans = malloc((n ? n : 1) * sizeof *spans);
	if (!spans)
		return fail(err, errlen, out, "out of memory (edit %zu)", 0);
	size_t total = len;
	for (size_t k = 0; k < n; k++) {
		const SrcLoc *r = &edits[k].range;
		if (r->first_line == 0) {
			free(spans);
			return fail(err, errlen, out,
				    "edit %zu: the directive to fix is missing; add a .version/.target line by hand first", k);
		}
		long a = fixup_offset(src, len, r->first_line, r->first_column);
		long b = fixup_offset(src, len, r->last_line, r->last_column);
		if (a < 0 || b < 0 || b < a) {
			free(spans);
			return fail(err, errlen, out, "edit %zu: the source range is not in the file", k);
		}
		spans[k] = (Span){ (size_t)a, (size_t)b, edits[k].text ? edits[k].text : "" };
		total = total - spans[k].end + spans[k].start + strlen(spans[k].text);
	}
	qsort(spans, n, sizeof *spans, by_start);
	for (size_t k = 1; k < n; k++)
		if (spans[k].start < spans[k - 1].end) {
			free(spans);
			return fail(err, errlen, out, "edit %zu overlaps the one before it", k);
		}
	char *buf = malloc(total + 1);
	if (!buf) {
		free(spans);
		return fail(err, errlen, out, "out of memory (edit %zu)", 0);
	}
	size_t w = 0, from = 0;
	for (size_t k = 0; k < n; k++) {
		memcpy(buf + w, src + from, spans[k].start - from);
		w += spans[k].start - from;
		size_t tl = strlen(spans[k].text);
		memcpy(buf + w, spans[k].text, tl);
		w += tl;
		from = spans[k].end;
	}
	memcpy(buf + w, src + from, len - from);
	w += len - from;
	buf[w] = 0;
	free(spans);
	*out = buf;
	if (outlen)
		*outlen = w;
	return 0;
}
