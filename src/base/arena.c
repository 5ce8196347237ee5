#include "base/arena.h"
#include "base/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK_MIN = 64 * 1024 };

void arena_init(Arena *a)
{
	a->head = NULL;
	a->total = 0;
}

static void free_chunks(ArenaChunk *c)
{
	while (c) {
		ArenaChunk *next = c->next;
		free(c);
		c = next;
	}
}

void arena_free(Arena *a)
{
	free_chunks(a->head);
	a->head = NULL;
	a->total = 0;
}

void arena_reset(Arena *a)
{
	ArenaChunk *keep = a->head;
	if (!keep)
		return;
	free_chunks(keep->next);
	keep->next = NULL;
	keep->used = 0;
	a->head = keep;
	a->total = 0;
}

void arena_adopt(Arena *dst, Arena *src)
{
	ArenaChunk *last = src->head;
	if (!last)
		return;
	while (last->next)
		last = last->next;
	/* Behind dst's current chunk, which keeps serving allocations. */
	if (dst->head) {
		last->next = dst->head->next;
		dst->head->next = src->head;
	} else {
		dst->head = src->head;
	}
	dst->total += src->total;
	src->head = NULL;
	src->total = 0;
}

/* size is already rounded up to the alignment (see arena_alloc). */
void *arena_alloc_chunk(Arena *a, size_t size)
{
	ArenaChunk *c = a->head;
	size_t cap = size > CHUNK_MIN ? size : CHUNK_MIN;
	/* Chunks double up to 4 MiB so huge inputs need few mallocs. */
	if (c && c->cap * 2 > cap)
		cap = c->cap * 2 < 4u << 20 ? c->cap * 2 : (cap > 4u << 20 ? cap : 4u << 20);
	c = xmalloc(sizeof(ArenaChunk) + cap);
	c->used = 0;
	c->cap = cap;
	c->next = a->head;
	a->head = c;
	void *p = (char *)c->data + c->used;
	c->used += size;
	a->total += size;
	return p;
}

void *arena_zalloc(Arena *a, size_t size)
{
	return memset(arena_alloc(a, size), 0, size);
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *arena_strdup(Arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

void *arena_grow(Arena *a, void *old, size_t old_count, size_t new_count, size_t elem)
{
	if (new_count && elem > SIZE_MAX / new_count)
		xdie("arena: allocation size overflow");
	void *p = arena_alloc(a, new_count * elem);
	if (old && old_count)
		memcpy(p, old, old_count * elem);
	return p;
}
