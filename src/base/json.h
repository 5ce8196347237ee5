/* Minimal JSON output helpers for the machine-readable reports. */
#ifndef PTXSURF_JSON_H
#define PTXSURF_JSON_H

#include <stddef.h>
#include <stdio.h>

/* Writes s as a JSON string literal. Bytes that are not valid UTF-8 are
 * written as \u00XX so the output is always valid JSON. */
void json_string(FILE *out, const char *s);
/* The same for len bytes that may include NULs (written as \u0000). */
void json_string_n(FILE *out, const char *s, size_t len);

#endif
