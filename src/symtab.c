#include "symtab.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static uint32_t hash_name(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

Scope *scope_new(Arena *a, Scope *parent)
{
	Scope *s = ARENA_NEW(a, Scope);
	s->parent = parent;
	s->arena = a;
	return s;
}

/* Plain names and parameterized ranges are separate name spaces: `.param p`
 * and `.reg .pred p<4>` (p0..p3) coexist, as ptxas allows. */
static Symbol *find_exact(const Scope *s, const char *name, size_t len, bool range)
{
	if (!s->cap)
		return NULL;
	uint32_t mask = s->cap - 1;
	for (uint32_t i = hash_name(name, len) & mask;; i = (i + 1) & mask) {
		Symbol *sym = s->slots[i];
		if (!sym)
			return NULL;
		if ((sym->range >= 0) == range && strlen(sym->name) == len && memcmp(sym->name, name, len) == 0)
			return sym;
	}
}

Symbol *scope_find_local(const Scope *s, const char *name)
{
	size_t len = strlen(name);
	Symbol *sym = find_exact(s, name, len, false);
	if (sym)
		return sym;
	/* %r17 is declared by %r<N> when N > 17: try the name without its
	 * trailing decimal index. */
	size_t p = len;
	while (p > 0 && isdigit((unsigned char)name[p - 1]))
		p--;
	if (p == len || p == 0 || len - p > 18)
		return NULL;
	if (len - p > 1 && name[p] == '0')
		return NULL;
	Symbol *base = find_exact(s, name, p, true);
	if (base && base->range >= 0 && strtoll(name + p, NULL, 10) < base->range)
		return base;
	return NULL;
}

Symbol *scope_lookup(const Scope *s, const char *name)
{
	for (; s; s = s->parent) {
		Symbol *sym = scope_find_local(s, name);
		if (sym)
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

Symbol *scope_add(Scope *s, Symbol *sym)
{
	Symbol *old = find_exact(s, sym->name, strlen(sym->name), sym->range >= 0);
	if (!old && sym->range < 0)
		old = scope_find_local(s, sym->name);
	if (old)
		return old;
	if ((s->count + 1) * 2 > s->cap) {
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
