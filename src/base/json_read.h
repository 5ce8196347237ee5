/* A JSON reader (RFC 8259) for the language server's messages: the text
 * becomes a tree in an arena. Any byte sequence is safe to pass; what is
 * not JSON gets a message with its byte offset. */
#ifndef PTXSURF_JSON_READ_H
#define PTXSURF_JSON_READ_H

#include "base/arena.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum JsonKind { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } JsonKind;

typedef struct JsonValue JsonValue;
struct JsonValue {
	JsonKind kind;
	bool boolean;
	double number;
	const char *str;        /* JSON_STRING: decoded UTF-8, NUL-terminated (may hold NULs: see len) */
	size_t len;             /* string length; element or member count */
	JsonValue **items;      /* array elements; object member values */
	const char **keys;      /* object member names (decoded) */
};

/* Nesting deeper than this is refused (the reader recurses). */
enum { JSON_MAX_DEPTH = 200 };

/* The value spelled by text[0..len) (and nothing after it but white
 * space), or NULL with a message in err. */
JsonValue *json_parse(Arena *a, const char *text, size_t len, char *err, size_t errlen);

/* Member `key` of an object (the last of duplicates), or NULL for a
 * missing member or a value that is not an object. */
const JsonValue *json_get(const JsonValue *obj, const char *key);
/* A string's text, or NULL when v is not a string. */
const char *json_str(const JsonValue *v);
/* A number with an integer value in [min, max] into *out; false otherwise. */
bool json_int(const JsonValue *v, long long min, long long max, long long *out);
/* Writes v back as JSON (numbers with integer values without a fraction). */
void json_write(FILE *out, const JsonValue *v);

#endif
