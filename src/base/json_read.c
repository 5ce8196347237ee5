#include "base/json_read.h"
#include "base/json.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct Reader {
	Arena *a;
	const unsigned char *p, *start, *end;
	char *err;
	size_t errlen;
	bool failed;
} Reader;

static JsonValue *fail(Reader *r, const char *what)
{
	if (!r->failed)
		snprintf(r->err, r->errlen, "invalid JSON at byte %zu: %s", (size_t)(r->p - r->start), what);
	r->failed = true;
	return NULL;
}

static void skip_space(Reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

static bool literal(Reader *r, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
		return false;
	r->p += n;
	return true;
}

static int hex4(Reader *r)
{
	if (r->end - r->p < 4)
		return -1;
	int v = 0;
	for (int i = 0; i < 4; i++) {
		int c = r->p[i], d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		v = v * 16 + d;
	}
	r->p += 4;
	return v;
}

static size_t put_utf8(char *o, uint32_t c)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xc0 | c >> 6);
		o[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xe0 | c >> 12);
		o[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		o[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | c >> 18);
	o[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	o[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* At the opening quote. Escapes never grow the text (a \u escape is 6 bytes
 * for at most 3, a surrogate pair 12 for 4), so the raw length bounds it. */
static const char *string(Reader *r, size_t *len)
{
	const unsigned char *q = ++r->p;
	while (q < r->end && *q != '"')
		q += *q == '\\' && q + 1 < r->end ? 2 : 1;
	if (q >= r->end)
		return fail(r, "unterminated string"), NULL;
	char *out = arena_alloc(r->a, (size_t)(q - r->p) + 1), *o = out;
	while (*r->p != '"') {
		unsigned char c = *r->p;
		if (c < 0x20)
			return fail(r, "control character in a string"), NULL;
		if (c != '\\') {
			*o++ = (char)c;
			r->p++;
			continue;
		}
		r->p++;
		c = *r->p++;
		switch (c) {
		case '"': case '\\': case '/': *o++ = (char)c; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u': {
			int u = hex4(r);
			if (u < 0)
				return fail(r, "bad \\u escape"), NULL;
			uint32_t cp = (uint32_t)u;
			if (u >= 0xd800 && u <= 0xdbff && r->end - r->p >= 6 && r->p[0] == '\\' && r->p[1] == 'u') {
				const unsigned char *save = r->p;
				r->p += 2;
				int lo = hex4(r);
				if (lo >= 0xdc00 && lo <= 0xdfff)
					cp = 0x10000 + (((uint32_t)u - 0xd800) << 10) + ((uint32_t)lo - 0xdc00);
				else
					r->p = save;
			}
			if (cp >= 0xd800 && cp <= 0xdfff)
				cp = 0xfffd;    /* a lone surrogate */
			o += put_utf8(o, cp);
			break;
		}
		default:
			r->p--;
			return fail(r, "bad escape in a string"), NULL;
		}
	}
	r->p++;
	*o = 0;
	*len = (size_t)(o - out);
	return out;
}

static JsonValue *number(Reader *r)
{
	const unsigned char *s = r->p;
	if (r->p < r->end && *r->p == '-')
		r->p++;
	if (r->p >= r->end || *r->p < '0' || *r->p > '9')
		return fail(r, "expected a value");
	if (*r->p == '0')
		r->p++;
	else
		while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
			r->p++;
	if (r->p < r->end && *r->p == '.') {
		r->p++;
		if (r->p >= r->end || *r->p < '0' || *r->p > '9')
			return fail(r, "expected a digit after '.'");
		while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
			r->p++;
	}
	if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
		r->p++;
		if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
			r->p++;
		if (r->p >= r->end || *r->p < '0' || *r->p > '9')
			return fail(r, "expected a digit in the exponent");
		while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
			r->p++;
	}
	char buf[64];
	size_t n = (size_t)(r->p - s);
	JsonValue *v = ARENA_NEW(r->a, JsonValue);
	v->kind = JSON_NUMBER;
	if (n < sizeof buf) {
		memcpy(buf, s, n);
		buf[n] = 0;
		v->number = strtod(buf, NULL);
	} else {
		char *big = arena_strndup(r->a, (const char *)s, n);
		v->number = strtod(big, NULL);
	}
	return v;
}

static JsonValue *value(Reader *r, int depth);

/* Elements (or members) are collected in a growing arena vector. */
static JsonValue *container(Reader *r, int depth, bool object)
{
	JsonValue *v = ARENA_NEW(r->a, JsonValue);
	v->kind = object ? JSON_OBJECT : JSON_ARRAY;
	char close = object ? '}' : ']';
	size_t cap = 0;
	r->p++;
	skip_space(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return v;
	}
	for (;;) {
		const char *key = NULL;
		if (object) {
			skip_space(r);
			if (r->p >= r->end || *r->p != '"')
				return fail(r, "expected a member name");
			size_t klen;
			if (!(key = string(r, &klen)))
				return NULL;
			skip_space(r);
			if (r->p >= r->end || *r->p != ':')
				return fail(r, "expected ':'");
			r->p++;
		}
		JsonValue *item = value(r, depth + 1);
		if (!item)
			return NULL;
		if (v->len == cap) {
			size_t ncap = cap ? cap * 2 : 4;
			v->items = arena_grow(r->a, v->items, cap, ncap, sizeof *v->items);
			if (object)
				v->keys = arena_grow(r->a, v->keys, cap, ncap, sizeof *v->keys);
			cap = ncap;
		}
		if (object)
			v->keys[v->len] = key;
		v->items[v->len++] = item;
		skip_space(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == close) {
			r->p++;
			return v;
		}
		return fail(r, object ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static JsonValue *value(Reader *r, int depth)
{
	if (depth > JSON_MAX_DEPTH)
		return fail(r, "nested too deeply");
	skip_space(r);
	if (r->p >= r->end)
		return fail(r, "unexpected end of input");
	JsonValue *v;
	switch (*r->p) {
	case '{':
		return container(r, depth, true);
	case '[':
		return container(r, depth, false);
	case '"': {
		size_t len;
		const char *s = string(r, &len);
		if (!s)
			return NULL;
		v = ARENA_NEW(r->a, JsonValue);
		v->kind = JSON_STRING;
		v->str = s;
		v->len = len;
		return v;
	}
	case 't': case 'f': case 'n':
		v = ARENA_NEW(r->a, JsonValue);
		if (literal(r, "true")) {
			v->kind = JSON_BOOL;
			v->boolean = true;
		} else if (literal(r, "false")) {
			v->kind = JSON_BOOL;
		} else if (literal(r, "null")) {
			v->kind = JSON_NULL;
		} else {
			return fail(r, "expected a value");
		}
		return v;
	default:
		return number(r);
	}
}

JsonValue *json_parse(Arena *a, const char *text, size_t len, char *err, size_t errlen)
{
	Reader r = { .a = a, .p = (const unsigned char *)text, .start = (const unsigned char *)text,
		     .end = (const unsigned char *)text + len, .err = err, .errlen = errlen };
	JsonValue *v = value(&r, 0);
	if (!v)
		return NULL;
	skip_space(&r);
	if (r.p != r.end)
		return fail(&r, "text after the value");
	return v;
}

const JsonValue *json_get(const JsonValue *obj, const char *key)
{
	if (!obj || obj->kind != JSON_OBJECT)
		return NULL;
	for (size_t i = obj->len; i-- > 0;)
		if (strcmp(obj->keys[i], key) == 0)
			return obj->items[i];
	return NULL;
}

const char *json_str(const JsonValue *v)
{
	return v && v->kind == JSON_STRING ? v->str : NULL;
}

bool json_int(const JsonValue *v, long long min, long long max, long long *out)
{
	if (!v || v->kind != JSON_NUMBER || !(v->number >= (double)min && v->number <= (double)max) ||
	    (double)(long long)v->number != v->number)
		return false;
	*out = (long long)v->number;
	return true;
}

void json_write(FILE *out, const JsonValue *v)
{
	switch (v->kind) {
	case JSON_NULL: fputs("null", out); break;
	case JSON_BOOL: fputs(v->boolean ? "true" : "false", out); break;
	case JSON_NUMBER:
		if (v->number > -1e15 && v->number < 1e15 && (double)(long long)v->number == v->number)
			fprintf(out, "%lld", (long long)v->number);
		else
			fprintf(out, "%.17g", v->number);   /* strtod gives no NaN or infinity from JSON */
		break;
	case JSON_STRING: json_string_n(out, v->str, v->len); break;
	case JSON_ARRAY:
	case JSON_OBJECT:
		fputc(v->kind == JSON_ARRAY ? '[' : '{', out);
		for (size_t i = 0; i < v->len; i++) {
			if (i)
				fputc(',', out);
			if (v->kind == JSON_OBJECT) {
				json_string(out, v->keys[i]);
				fputc(':', out);
			}
			json_write(out, v->items[i]);
		}
		fputc(v->kind == JSON_ARRAY ? ']' : '}', out);
		break;
	}
}
