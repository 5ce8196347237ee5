/* Bump allocator for everything whose lifetime is one module (AST nodes, names,
 * diagnostics). Freed all at once: no per-token malloc/free churn, and memory
 * grows linearly with the input. */
#ifndef PTXSURF_ARENA_H
#define PTXSURF_ARENA_H

#include <stddef.h>

typedef struct ArenaChunk ArenaChunk;

/* In the header so that arena_alloc's common case (room in the newest
 * chunk) inlines: the parser and checker allocate about once per token. */
struct ArenaChunk {
	ArenaChunk *next;
	size_t used, cap;
	max_align_t data[];
};

typedef struct Arena {
	ArenaChunk *head;
	size_t total;   /* bytes handed out, for statistics */
} Arena;

void arena_init(Arena *a);
void arena_free(Arena *a);
/* Forgets everything allocated but keeps the newest (largest) chunk, so an
 * arena reused per function does not go back to malloc and fresh pages. */
void arena_reset(Arena *a);
/* Never returns NULL: out of memory aborts with a message (see xalloc.c).
 * arena_alloc_chunk takes a new chunk first; arena_alloc calls it only when
 * the newest chunk has no room. */
void *arena_alloc_chunk(Arena *a, size_t size);
static inline void *arena_alloc(Arena *a, size_t size)
{
	const size_t align = _Alignof(max_align_t);
	size = (size + align - 1) & ~(align - 1);
	ArenaChunk *c = a->head;
	if (!c || c->cap - c->used < size)
		return arena_alloc_chunk(a, size);
	void *p = (char *)c->data + c->used;
	c->used += size;
	a->total += size;
	return p;
}
void *arena_zalloc(Arena *a, size_t size);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
/* Moves every chunk of src into dst (src ends empty): what was allocated
 * in src now lives as long as dst. */
void arena_adopt(Arena *dst, Arena *src);
/* Grow a vector held in the arena; old storage is simply abandoned. */
void *arena_grow(Arena *a, void *old, size_t old_count, size_t new_count, size_t elem);

#define ARENA_NEW(a, T) ((T *)arena_zalloc((a), sizeof(T)))

#endif
