/* The string map of the lowering (registers, labels, parameters, surface
 * slots): open addressing with FNV-1a hashes; keys are not copied. */
#include "lower/lower_internal.h"
#include "base/hash.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

void lmap_init(LMap *m)
{
	m->cap = 64;
	m->count = 0;
	m->slots = xcalloc(m->cap, sizeof *m->slots);
}

void lmap_fini(LMap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->count = 0;
}

LMapEntry *lmap_find(const LMap *m, const char *key)
{
	for (size_t i = hash_str(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (m->slots[i].key == NULL)
			return NULL;
		/* names are interned by the parser, so most hits are the same pointer */
		if (m->slots[i].key == key || strcmp(m->slots[i].key, key) == 0)
			return &m->slots[i];
	}
}

LMapEntry *lmap_put(LMap *m, const char *key, int64_t value, int64_t extra)
{
	LMapEntry *e = lmap_find(m, key);
	if (e)
		return e;
	if (2 * (m->count + 1) > m->cap) {
		LMap bigger = { xcalloc(m->cap * 2, sizeof(LMapEntry)), m->cap * 2, 0 };
		for (size_t i = 0; i < m->cap; i++)
			if (m->slots[i].key)
				lmap_put(&bigger, m->slots[i].key, m->slots[i].value, m->slots[i].extra);
		free(m->slots);
		*m = bigger;
	}
	size_t i = hash_str(key) & (m->cap - 1);
	while (m->slots[i].key)
		i = (i + 1) & (m->cap - 1);
	m->slots[i] = (LMapEntry){ key, value, extra };
	m->count++;
	return &m->slots[i];
}

