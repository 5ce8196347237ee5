/* Constant word tables (type spellings, surface modifiers) looked up by
 * hash: the checker classifies every modifier of every instruction, and a
 * linear scan with strcmp was a visible share of --check. */
#ifndef PTXSURF_WORD_INDEX_H
#define PTXSURF_WORD_INDEX_H

#include "base/once.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { WORD_INDEX_CAP = 256 };

/* Zero-initialised (static) and built on the first lookup. */
typedef struct WordIndex {
	OnceFlag ready;
	int16_t row[WORD_INDEX_CAP];    /* row number + 1; 0: empty */
} WordIndex;

/* Row of `table` (n rows of `stride` bytes, each holding its spelling as a
 * `const char *` at byte `offset`) spelled exactly `w`, or -1. The first of
 * duplicate spellings wins, as in a linear scan; empty spellings are never
 * found. */
int word_index_find(WordIndex *ix, const void *table, size_t n, size_t stride, size_t offset, const char *w);

/* For an array `table` of struct `Row` whose spelling is member `field`. */
#define WORD_INDEX_FIND(ix, table, Row, field, w)                                          \
	word_index_find((ix), (table), sizeof(table) / sizeof((table)[0]), sizeof(Row), \
			offsetof(Row, field), (w))

#endif
