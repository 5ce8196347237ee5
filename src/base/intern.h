/* String interning: every identifier and dot-word is stored once per module,
 * so the AST shares spellings (a 200 MB file repeats `%r1` and `.u32` millions
 * of times) and modifier comparisons could be pointer comparisons. */
#ifndef PTXSURF_INTERN_H
#define PTXSURF_INTERN_H

#include "base/arena.h"

#include <stddef.h>
#include <stdint.h>

/* One probe reads one 16-byte slot: the hash and the length decide almost
 * every mismatch, and a match is a memcmp of known length. */
typedef struct InternSlot {
	const char *str;        /* NULL: empty */
	uint32_t hash, len;
} InternSlot;

typedef struct InternTable {
	Arena *arena;
	InternSlot *slots;
	size_t cap, count;
} InternTable;

void intern_init(InternTable *t, Arena *a);
void intern_fini(InternTable *t);
const char *intern(InternTable *t, const char *s, size_t n);

#endif
