#include "base/word_index.h"
#include "base/hash.h"
#include "base/intern.h"

#include <string.h>

static const char *word_at(const void *table, size_t stride, size_t offset, size_t i)
{
	const char *const *p = (const void *)((const char *)table + i * stride + offset);
	return *p;
}

int word_index_find(WordIndex *ix, const void *table, size_t n, size_t stride, size_t offset, const char *w)
{
	/* The index stays at most half full, so every probe sequence ends
	 * at an empty slot; a table too big for it is scanned. */
	if (n * 2 > WORD_INDEX_CAP) {
		for (size_t i = 0; i < n; i++) {
			const char *s = word_at(table, stride, offset, i);
			if (*s && strcmp(s, w) == 0)
				return (int)i;
		}
		return -1;
	}
	if (once_claim(&ix->ready)) {
		for (size_t i = 0; i < n; i++) {
			const char *s = word_at(table, stride, offset, i);
			if (!*s)
				continue;
			size_t j = hash_bytes(s, strlen(s)) & (WORD_INDEX_CAP - 1);
			bool dup = false;
			for (; ix->row[j]; j = (j + 1) & (WORD_INDEX_CAP - 1))
				if (strcmp(word_at(table, stride, offset, (size_t)ix->row[j] - 1), s) == 0)
					dup = true;
			if (!dup)
				ix->row[j] = (int16_t)(i + 1);
		}
		once_done(&ix->ready);
	}
	size_t j = hash_bytes(w, strlen(w)) & (WORD_INDEX_CAP - 1);
	for (; ix->row[j]; j = (j + 1) & (WORD_INDEX_CAP - 1))
		if (strcmp(word_at(table, stride, offset, (size_t)ix->row[j] - 1), w) == 0)
			return ix->row[j] - 1;
	return -1;
}
