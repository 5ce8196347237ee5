/* The one string hash of the project (FNV-1a, 32 bits): interning, the
 * opcode and word indexes, scopes, the lowering's name maps, the cubin's
 * string tables and the form-name lookup all use it, so a change of hash is
 * made once. */
#ifndef PTXSURF_HASH_H
#define PTXSURF_HASH_H

#include <stddef.h>
#include <stdint.h>

static inline uint32_t hash_bytes(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static inline uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

#endif
