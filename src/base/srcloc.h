/* A source range. Lines and columns are 1-based; last_column is one past the
 * last character (exclusive), so an empty range has first == last. The field
 * names match bison's YYLTYPE so the parser can use this type directly. */
#ifndef PTXSURF_SRCLOC_H
#define PTXSURF_SRCLOC_H

typedef struct SrcLoc {
	int first_line, first_column;
	int last_line, last_column;
} SrcLoc;

static inline SrcLoc srcloc_span(SrcLoc a, SrcLoc b)
{
	SrcLoc r = { a.first_line, a.first_column, b.last_line, b.last_column };
	return r;
}

#endif
