/* The string hashes of the project. hash_bytes/hash_str (FNV-1a, 32
 * bits): the opcode and word indexes, the lowering's name maps, the
 * cubin's string tables, the form-name lookup and the diagnostics'
 * fingerprints (so it must not change). hash_name: the hot tables keyed
 * by short names, interning and scopes. A change of hash is made here. */
#ifndef PTXSURF_HASH_H
#define PTXSURF_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* Two words that together hold all of a name of 1-16 bytes (the loads
 * overlap when it is shorter than both), read without going past its
 * end. */
static inline void hash_short_words(const char *s, size_t n, uint64_t *a, uint64_t *b)
{
	if (n >= 8) {
		memcpy(a, s, 8);
		memcpy(b, s + n - 8, 8);
	} else if (n >= 4) {
		uint32_t x, y;
		memcpy(&x, s, 4);
		memcpy(&y, s + n - 4, 4);
		*a = x;
		*b = y;
	} else if (n > 0) {
		*a = (uint64_t)(unsigned char)s[0] | (uint64_t)(unsigned char)s[n / 2] << 8
			| (uint64_t)(unsigned char)s[n - 1] << 16;
		*b = 0;
	} else {
		*a = *b = 0;
	}
}

/* The hash of the tables keyed by names that never leave the process
 * and are never walked in hash order (interning, scopes): a name of at
 * most 16 bytes, nearly every register, label and dot-word, is its two
 * words folded by one 64x64->128-bit multiplication (wyhash's mix), a
 * longer one FNV-1a. A byte-at-a-time hash of each name the scanner
 * interns or the checker looks up was a few percent of `--check`. */
static inline uint32_t hash_name(const char *s, size_t n)
{
	if (n > 16)
		return hash_bytes(s, n);
	uint64_t a, b;
	hash_short_words(s, n, &a, &b);
	unsigned __int128 m = (unsigned __int128)(a ^ 0xa0761d6478bd642fu) * (b ^ 0xe7037ed1a0b428dbu ^ (uint64_t)n);
	uint64_t x = (uint64_t)m ^ (uint64_t)(m >> 64);
	return (uint32_t)(x ^ (x >> 32));
}

#endif
