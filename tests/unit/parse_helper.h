/* Parsing a PTX string in a unit test: the parser wants its input followed
 * by two NUL bytes, so the text is copied into a buffer the test frees
 * after the module (and the diagnostics that point into it). */
#ifndef PTXSURF_PARSE_HELPER_H
#define PTXSURF_PARSE_HELPER_H

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

/* Parses src into m with diagnostics in d; returns the buffer to free. */
static inline char *parse_test_string(Module *m, DiagSink *d, const char *src, unsigned expect_errors)
{
	size_t n = strlen(src);
	char *buf = malloc(n + 2);
	memcpy(buf, src, n);
	buf[n] = buf[n + 1] = 0;
	module_init(m, "t.ptx");
	diag_init(d, "t.ptx", buf, n);
	ck_assert_uint_eq(ptx_parse_buffer(m, d, buf, n), expect_errors);
	return buf;
}

#endif
