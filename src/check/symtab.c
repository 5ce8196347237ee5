#include "check/symtab.h"
#include "base/hash.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

Scope *scope_new(Arena *a, Scope *parent)
{
	Scope *s = ARENA_NEW(a, Scope);
	s->parent = parent;
	s->arena = a;
	return s;
}

/* Plain names and parameterized ranges are separate name spaces: `.param p`
 * and `.reg .pred p<4>` (p0..p3) coexist, as ptxas allows. */
static Symbol *find_exact(const Scope *s, const char *name, size_t len, uint32_t hash, bool range)
{
	if (!s->cap)
		return NULL;
	uint32_t mask = s->cap - 1;
	for (uint32_t i = hash & mask;; i = (i + 1) & mask) {
		Symbol *sym = s->slots[i];
		if (!sym)
			return NULL;
		if ((sym->range >= 0) == range && strncmp(sym->name, name, len) == 0 && sym->name[len] == 0)
			return sym;
	}
}

/* A name looked up in several scopes: hashed and split once. %r17 is
 * declared by %r<N> when N > 17, so a name with a decimal index is also
 * tried as its base (`base` bytes long) in the range name space. */
typedef struct NameKey {
	const char *name;
	size_t len, base;
	uint32_t hash, base_hash;
	int64_t index;          /* -1: no usable index */
} NameKey;

static NameKey name_key(const char *name)
{
	NameKey k = { .name = name, .len = strlen(name), .index = -1 };
	k.hash = hash_name(name, k.len);
	size_t p = k.len;
	while (p > 0 && isdigit((unsigned char)name[p - 1]))
		p--;
	/* At most 18 digits: the index fits in int64_t. */
	if (p == k.len || p == 0 || k.len - p > 18 || (k.len - p > 1 && name[p] == '0'))
		return k;
	k.base = p;
	k.base_hash = hash_name(name, p);
	k.index = 0;
	for (size_t i = p; i < k.len; i++)
		k.index = k.index * 10 + (name[i] - '0');
	return k;
}

static Symbol *find_key(const Scope *s, const NameKey *k)
{
	Symbol *sym = find_exact(s, k->name, k->len, k->hash, false);
	if (sym || k->index < 0)
		return sym;
	Symbol *base = find_exact(s, k->name, k->base, k->base_hash, true);
	if (base && base->range >= 0 && k->index < base->range)
		return base;
	return NULL;
}

Symbol *scope_find_local(const Scope *s, const char *name)
{
	NameKey k = name_key(name);
	return find_key(s, &k);
}

Symbol *scope_lookup(const Scope *s, const char *name)
{
	NameKey k = name_key(name);
	for (; s; s = s->parent) {
		Symbol *sym = find_key(s, &k);
		if (sym)
			return sym;
	}
	return NULL;
}

Symbol *scope_lookup_before(const Scope *s, const char *name, uint32_t seq)
{
	NameKey k = name_key(name);
	for (; s; s = s->parent) {
		Symbol *sym = find_key(s, &k);
		if (sym && sym->seq <= seq)
			return sym;
	}
	return NULL;
}

static void insert(Scope *s, Symbol *sym)
{
	uint32_t mask = s->cap - 1;
	uint32_t i = hash_name(sym->name, strlen(sym->name)) & mask;
	while (s->slots[i])
		i = (i + 1) & mask;
	s->slots[i] = sym;
	s->count++;
}

/* A plain name of this scope that the range base<N> also declares: %f2
 * before .reg .f32 %f<4> is one register twice (ptxas 13: Duplicate
 * definition). The cheaper of trying each index and reading each slot. */
static Symbol *plain_in_range(const Scope *s, const char *base, int64_t range)
{
	size_t len = strlen(base);
	char name[64];
	if (range < (int64_t)s->cap && len < 40) {
		for (int64_t i = 0; i < range; i++) {
			int n = snprintf(name, sizeof name, "%s%lld", base, (long long)i);
			Symbol *old = find_exact(s, name, (size_t)n, hash_name(name, (size_t)n), false);
			if (old)
				return old;
		}
		return NULL;
	}
	for (uint32_t i = 0; i < s->cap; i++) {
		Symbol *old = s->slots[i];
		if (!old || old->range >= 0 || strncmp(old->name, base, len) != 0)
			continue;
		NameKey k = name_key(old->name);
		if (k.index >= 0 && k.base == len && k.index < range)
			return old;
	}
	return NULL;
}

Symbol *scope_add(Scope *s, Symbol *sym)
{
	size_t len = strlen(sym->name);
	Symbol *old = find_exact(s, sym->name, len, hash_name(sym->name, len), sym->range >= 0);
	if (!old && sym->range < 0)
		old = scope_find_local(s, sym->name);
	if (!old && sym->range > 0 && s->count)
		old = plain_in_range(s, sym->name, sym->range);
	if (old)
		return old;
	if ((s->count + 1) * 4 > s->cap * 3) {
		Symbol **old_slots = s->slots;
		uint32_t old_cap = s->cap;
		s->cap = old_cap ? old_cap * 2 : 16;
		s->slots = arena_zalloc(s->arena, s->cap * sizeof *s->slots);
		s->count = 0;
		for (uint32_t i = 0; i < old_cap; i++)
			if (old_slots[i])
				insert(s, old_slots[i]);
	}
	insert(s, sym);
	return sym;
}
