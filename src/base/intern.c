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

static inline uint64_t load64(const char *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

static inline uint64_t load32(const char *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

/* Two words that together hold all of a name of 1-16 bytes (the two
 * loads overlap when it is shorter than both), read without going past
 * its end: the scanner interns about one name per 5 bytes of input, and
 * a byte-at-a-time hash and memcmp were a twentieth of `--check`. */
static inline void short_words(const char *s, size_t n, uint64_t *a, uint64_t *b)
{
	if (n >= 8) {
		*a = load64(s);
		*b = load64(s + n - 8);
	} else if (n >= 4) {
		*a = load32(s);
		*b = load32(s + n - 4);
	} else if (n > 0) {
		*a = (uint64_t)(unsigned char)s[0] | (uint64_t)(unsigned char)s[n / 2] << 8
			| (uint64_t)(unsigned char)s[n - 1] << 16;
		*b = 0;
	} else {
		*a = *b = 0;
	}
}

/* The table's own hash (nothing outside this file sees it, and nothing
 * walks the table in hash order): the two words of a short name folded by
 * one 64x64->128-bit multiplication (wyhash's mix), FNV-1a for a longer
 * one. */
static inline uint32_t name_hash(const char *s, size_t n)
{
	if (n > 16)
		return hash_bytes(s, n);
	uint64_t a, b;
	short_words(s, n, &a, &b);
	unsigned __int128 m = (unsigned __int128)(a ^ 0xa0761d6478bd642fu)
		* (b ^ 0xe7037ed1a0b428dbu ^ (uint64_t)n);
	uint64_t h = (uint64_t)m ^ (uint64_t)(m >> 64);
	return (uint32_t)(h ^ (h >> 32));
}

static inline bool same_name(const char *e, const char *s, size_t n)
{
	if (n > 16)
		return memcmp(e, s, n) == 0;
	uint64_t a1, b1, a2, b2;
	short_words(e, n, &a1, &b1);
	short_words(s, n, &a2, &b2);
	return a1 == a2 && b1 == b2;
}

const char *intern(InternTable *t, const char *s, size_t n)
{
	if (t->count * 4 >= t->cap * 3)
		grow(t);
	uint32_t h = name_hash(s, n);
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
