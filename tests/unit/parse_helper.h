/* The module under test of the unit suites that start from PTX text:
 * parse_str() parses a string into M (diagnostics in D), teardown() frees
 * both. One module at a time; include once per suite. */
#ifndef PTXSURF_TEST_PARSE_HELPER_H
#define PTXSURF_TEST_PARSE_HELPER_H

#include "base/diag.h"
#include "front/parse.h"

#include <stdlib.h>
#include <string.h>

static Module M;
static DiagSink D;
static char *buf;

/* The scanner scans in place and needs two NULs after the text. Returns
 * the number of syntax errors. */
static unsigned parse_str(const char *src)
{
	size_t n = strlen(src);
	buf = malloc(n + 2);
	if (!buf)
		abort();
	memcpy(buf, src, n);
	buf[n] = buf[n + 1] = 0;
	module_init(&M, "t.ptx");
	diag_init(&D, "t.ptx", buf, n);
	return ptx_parse_buffer(&M, &D, buf, n);
}

static void teardown(void)
{
	diag_fini(&D);
	module_fini(&M);
	free(buf);
	buf = NULL;
}

#endif
