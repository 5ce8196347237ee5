/* Text-level rewriting for --fix-version and --fix-target: replace the
 * bytes of a few source ranges (the .version number, the .target list) and
 * keep every other byte as it was: comments, blank lines, CRLF line ends, a
 * missing final newline. */
#ifndef PTXSURF_FIXUP_H
#define PTXSURF_FIXUP_H

#include "base/srcloc.h"

#include <stddef.h>

typedef struct FixupEdit {
	SrcLoc range;          /* 1-based lines and columns, last_column exclusive */
	const char *text;      /* the replacement, NUL-terminated */
} FixupEdit;

/* Replaces each edit's range of src (len bytes) by its text and stores a
 * malloc'ed, NUL-terminated result in *out (its length, without the NUL, in
 * *outlen). Edits may come in any order but must not overlap.
 *
 * A range with first_line == 0 means the token does not exist (a module
 * without .version or .target): inserting a directive is refused because
 * where it belongs depends on comments and other directives the caller
 * knows better; so are ranges that lie outside the buffer and overlapping
 * edits. On failure nothing is allocated, *out is NULL, err holds a message
 * and -1 is returned; 0 on success. */
int fixup_rewrite(const char *src, size_t len, const FixupEdit *edits, size_t n,
		  char **out, size_t *outlen, char *err, size_t errlen);

/* Byte offset of (line, column) in src, with the same 1-based convention;
 * the column may be one past the line's last character. Returns -1 when the
 * position is not in the buffer. A line ends at '\n' ("\r\n" counts its
 * '\r' as a character of the line, the way the scanner counts columns). */
long fixup_offset(const char *src, size_t len, int line, int column);

#endif
