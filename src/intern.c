#include "intern.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

uint32_t intern_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

void intern_init(InternTable *t, Arena *a)
{
	t->arena = a;
	t->cap = 1024;
	t->count = 0;
	t->slots = xcalloc(t->cap, sizeof *t->slots);
	t->hashes = xcalloc(t->cap, sizeof *t->hashes);
}

void intern_fini(InternTable *t)
{
	free(t->slots);
	free(t->hashes);
	t->slots = NULL;
	t->hashes = NULL;
}

static void grow(InternTable *t)
{
	size_t cap = t->cap * 2;
	const char **slots = xcalloc(cap, sizeof *slots);
	uint32_t *hashes = xcalloc(cap, sizeof *hashes);
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->slots[i])
			continue;
		size_t j = t->hashes[i] & (cap - 1);
		while (slots[j])
			j = (j + 1) & (cap - 1);
		slots[j] = t->slots[i];
		hashes[j] = t->hashes[i];
	}
	free(t->slots);
	free(t->hashes);
	t->slots = slots;
	t->hashes = hashes;
	t->cap = cap;
}

const char *intern(InternTable *t, const char *s, size_t n)
{
	if (t->count * 2 >= t->cap)
		grow(t);
	uint32_t h = intern_hash(s, n);
	size_t i = h & (t->cap - 1);
	for (; t->slots[i]; i = (i + 1) & (t->cap - 1)) {
		if (t->hashes[i] == h && strncmp(t->slots[i], s, n) == 0 && t->slots[i][n] == 0)
			return t->slots[i];
	}
	const char *p = arena_strndup(t->arena, s, n);
	t->slots[i] = p;
	t->hashes[i] = h;
	t->count++;
	return p;
}
