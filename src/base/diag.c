#include "base/diag.h"
#include "base/rules.h"
#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

void diag_init(DiagSink *s, const char *filename, const char *src, size_t len)
{
	memset(s, 0, sizeof *s);
	arena_init(&s->arena);
	s->filename = filename;
	s->src = src;
	s->srclen = len;
}

void diag_init_like(DiagSink *s, const DiagSink *like)
{
	diag_init(s, like->filename, like->src, like->srclen);
	s->limit = like->limit;
	s->policy = like->policy;
}

void diag_fini(DiagSink *s)
{
	arena_free(&s->arena);
	free(s->line_start);
	s->line_start = NULL;
	s->head = s->tail = NULL;
}

static const char *vformat(Arena *a, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		n = 0;
	char *buf = arena_alloc(a, (size_t)n + 1);
	vsnprintf(buf, (size_t)n + 1, fmt, ap);
	return buf;
}

static bool listed(const char *const *v, size_t n, const char *rule)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], rule) == 0)
			return true;
	return false;
}

/* Applies the policy; false means the diagnostic is dropped. */
static bool apply_policy(const DiagPolicy *p, RuleId rule, Severity *sev)
{
	const char *name = rule_name(rule);
	if (!p || !name)
		return true;
	if (!rule_is_fatal(rule) && listed(p->disabled, p->ndisabled, name))
		return false;
	if (*sev == SEV_WARNING && (p->werror || listed(p->as_error, p->nas_error, name)))
		*sev = SEV_ERROR;
	return true;
}

static void link(DiagSink *s, Diag *d)
{
	if (s->tail)
		s->tail->next = d;
	else
		s->head = d;
	s->tail = d;
}

Diag *diag_vadd(DiagSink *s, Severity sev, SrcLoc loc, RuleId rule, const char *fmt, va_list ap)
{
	Diag *d = ARENA_NEW(&s->arena, Diag);
	s->tried++;
	if (!apply_policy(s->policy, rule, &sev)) {
		/* Dropped: a detached node, so callers may still attach notes. */
		d->sev = sev;
		d->msg = "";
		return d;
	}
	d->sev = sev;
	d->loc = loc;
	d->id = rule;
	d->rule = rule_name(rule);
	d->msg = vformat(&s->arena, fmt, ap);
	d->seq = s->seq++;
	s->count[sev]++;
	if (s->limit && sev == SEV_ERROR && s->count[SEV_ERROR] > s->limit) {
		/* Counted but not kept: a runaway input cannot exhaust memory. */
		s->truncated = true;
		return d;
	}
	link(s, d);
	return d;
}

Diag *diag_add(DiagSink *s, Severity sev, SrcLoc loc, RuleId rule, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	Diag *d = diag_vadd(s, sev, loc, rule, fmt, ap);
	va_end(ap);
	return d;
}

void diag_append(DiagSink *dst, DiagSink *src)
{
	unsigned errors = dst->count[SEV_ERROR];
	for (Diag *d = src->head, *next; d; d = next) {
		next = d->next;
		d->next = NULL;
		d->seq = dst->seq++;
		/* src kept its first `limit` errors; dst keeps fewer when it
		 * already holds some. */
		if (d->sev == SEV_ERROR && dst->limit && ++errors > dst->limit) {
			dst->truncated = true;
			continue;
		}
		link(dst, d);
	}
	for (int i = 0; i < 3; i++)
		dst->count[i] += src->count[i];
	dst->truncated = dst->truncated || src->truncated;
	arena_adopt(&dst->arena, &src->arena);
	src->head = src->tail = NULL;
	memset(src->count, 0, sizeof src->count);
}

void diag_note(DiagSink *s, Diag *parent, SrcLoc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	Diag *n = ARENA_NEW(&s->arena, Diag);
	n->sev = SEV_NOTE;
	n->loc = loc;
	n->msg = vformat(&s->arena, fmt, ap);
	va_end(ap);
	Diag **p = &parent->notes;
	while (*p)
		p = &(*p)->next;
	*p = n;
}

static int cmp_diag(const void *a, const void *b)
{
	const Diag *x = *(Diag *const *)a, *y = *(Diag *const *)b;
	if (x->loc.first_line != y->loc.first_line)
		return x->loc.first_line < y->loc.first_line ? -1 : 1;
	if (x->loc.first_column != y->loc.first_column)
		return x->loc.first_column < y->loc.first_column ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

Diag **diag_sorted(DiagSink *s, size_t *n)
{
	size_t k = 0;
	for (Diag *d = s->head; d; d = d->next)
		k++;
	Diag **v = arena_alloc(&s->arena, (k ? k : 1) * sizeof *v);
	k = 0;
	for (Diag *d = s->head; d; d = d->next)
		v[k++] = d;
	qsort(v, k, sizeof *v, cmp_diag);
	*n = k;
	return v;
}

static void build_lines(DiagSink *s)
{
	if (s->line_start || !s->src)
		return;
	size_t cap = 1024, n = 0;
	s->line_start = xmalloc(cap * sizeof *s->line_start);
	s->line_start[n++] = 0;
	for (size_t i = 0; i < s->srclen; i++) {
		if (s->src[i] == '\n') {
			if (n == cap)
				s->line_start = xrealloc(s->line_start, (cap *= 2) * sizeof *s->line_start);
			s->line_start[n++] = i + 1;
		}
	}
	s->nlines = n;
}

const char *diag_line_text(DiagSink *s, int line, size_t *len)
{
	build_lines(s);
	if (!s->line_start || line < 1 || (size_t)line > s->nlines)
		return NULL;
	/* The next line's start gives the end: no scan, so a thousand
	 * diagnostics on one megabyte line stay linear. */
	size_t b = s->line_start[line - 1];
	size_t e = (size_t)line < s->nlines ? s->line_start[line] - 1 : s->srclen;
	if (e > b && s->src[e - 1] == '\r')
		e--;
	*len = e - b;
	return s->src + b;
}

static const char *sev_name[] = { "note", "warning", "error" };
static const char *sev_color[] = { "\033[1;36m", "\033[1;35m", "\033[1;31m" };

/* Long lines (generated PTX can have megabyte lines) are shown as a window
 * around the caret so a diagnostic never floods the terminal. */
enum { SHOW_MAX = 160 };

static void render_caret(DiagSink *s, FILE *out, const Diag *d, bool color)
{
	size_t len;
	const char *text = diag_line_text(s, d->loc.first_line, &len);
	if (!text)
		return;
	size_t col = d->loc.first_column > 0 ? (size_t)d->loc.first_column - 1 : 0;
	size_t endc = col + 1;
	if (d->loc.last_line == d->loc.first_line && d->loc.last_column > d->loc.first_column)
		endc = (size_t)d->loc.last_column - 1;
	if (col > len)
		col = len;
	if (endc > len + 1)
		endc = len + 1;
	size_t from = 0;
	if (len > SHOW_MAX && col > SHOW_MAX / 2)
		from = col - SHOW_MAX / 2;
	size_t to = len - from > SHOW_MAX ? from + SHOW_MAX : len;
	fprintf(out, " %5d | %s", d->loc.first_line, from ? "..." : "");
	for (size_t i = from; i < to; i++) {
		unsigned char c = (unsigned char)text[i];
		fputc(c == '\t' || (c >= 0x20 && c != 0x7f) ? c : '?', out);
	}
	fprintf(out, "%s\n       | %s", to < len ? "..." : "", from ? "   " : "");
	if (color)
		fputs("\033[1;32m", out);
	for (size_t i = from; i < col && i < to; i++)
		fputc(text[i] == '\t' ? '\t' : ' ', out);
	fputc('^', out);
	for (size_t i = col + 1; i < endc && i < to; i++)
		fputc('~', out);
	if (color)
		fputs("\033[0m", out);
	fputc('\n', out);
}

/* Messages quote source text; control bytes (a terminal escape sequence in
 * a string literal) must not reach the terminal. */
static void put_sanitized(FILE *out, const char *msg)
{
	for (const unsigned char *p = (const unsigned char *)msg; *p; p++)
		fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, out);
}

static void render_one(DiagSink *s, FILE *out, const Diag *d, const DiagTextOptions *opt)
{
	if (opt->color)
		fputs("\033[1m", out);
	if (d->loc.first_line > 0)
		fprintf(out, "%s:%d:%d: ", s->filename, d->loc.first_line, d->loc.first_column);
	else
		fprintf(out, "%s: ", s->filename);
	if (opt->color)
		fprintf(out, "%s%s:\033[0m\033[1m ", sev_color[d->sev], sev_name[d->sev]);
	else
		fprintf(out, "%s: ", sev_name[d->sev]);
	put_sanitized(out, d->msg);
	if (d->rule)
		fprintf(out, " [%s]", d->rule);
	if (opt->color)
		fputs("\033[0m", out);
	fputc('\n', out);
	if (opt->caret && d->loc.first_line > 0)
		render_caret(s, out, d, opt->color);
}

void diag_render_text(DiagSink *s, FILE *out, const DiagTextOptions *opt)
{
	size_t n;
	Diag **v = diag_sorted(s, &n);
	for (size_t i = 0; i < n; i++) {
		render_one(s, out, v[i], opt);
		for (const Diag *note = v[i]->notes; note; note = note->next)
			render_one(s, out, note, opt);
	}
	if (s->truncated)
		fprintf(out, "%s: note: %u more errors not shown (limit %u)\n", s->filename,
			s->count[SEV_ERROR] - s->limit, s->limit);
}
