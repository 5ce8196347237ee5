#include "base/intern.h"
#include "base/hash.h"
#include "base/xalloc.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void intern_init(InternTable *t, Arena *a)
{
	t->arena = a;
	t->cap = 1024;
	t->count = 0;
	t->slots = xcalloc(t->cap, sizeof *t->slots);
}

void intern_fini(InternTable *t)
{
	free(t->slots);
	t->slots = NULL;
}

static void grow(InternTable *t)
{
	size_t cap = t->cap * 2;
	InternSlot *slots = xcalloc(cap, sizeof *slots);
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->slots[i].str)
			continue;
		size_t j = t->slots[i].hash & (cap - 1);
		while (slots[j].str)
			j = (j + 1) & (cap - 1);
		slots[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
}

static inline bool same_name(const char *e, const char *s, size_t n)
{
	if (n > 16)
		return memcmp(e, s, n) == 0;
	uint64_t a1, b1, a2, b2;
	hash_short_words(e, n, &a1, &b1);
	hash_short_words(s, n, &a2, &b2);
	return a1 == a2 && b1 == b2;
}

const char *intern(InternTable *t, const char *s, size_t n)
{
	if (t->count * 4 >= t->cap * 3)
		grow(t);
	uint32_t h = hash_name(s, n);
	size_t i = h & (t->cap - 1);
	for (; t->slots[i].str; i = (i + 1) & (t->cap - 1)) {
		const InternSlot *e = &t->slots[i];
		if (e->hash == h && e->len == n && same_name(e->str, s, n))
			return e->str;
	}
	const char *p = arena_strndup(t->arena, s, n);
	t->slots[i] = (InternSlot){ p, h, (uint32_t)n };
	t->count++;
	return p;
}
