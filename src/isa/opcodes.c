#include "isa/opcodes.h"
#include "base/hash.h"
#include "base/intern.h"
#include "base/once.h"
#include "base/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct OpcodeRow {
	const char *name;
	const char *modifiers;  /* space separated */
} OpcodeRow;

static const OpcodeRow rows[] = {
#define PTX_OPCODE(name, mods) { name, mods },
#include "isa/ptx_opcodes.def"
#undef PTX_OPCODE
};
enum { NROWS = sizeof rows / sizeof rows[0] };

/* Split modifier lists and a hash set of (opcode, modifier) pairs, built on
 * first use: membership is one hash probe per modifier on the hot path. */
typedef struct ModSet {
	const char **mods;
	size_t n;
} ModSet;

typedef struct PairSlot {
	const char *mod;        /* NULL: empty */
	int op;
	uint32_t hash;
} PairSlot;

static struct {
	OnceFlag ready;
	ModSet sets[NROWS];
	PairSlot *slots;
	size_t cap;
	/* Opcode ids by name hash (open addressing, -1: empty): every
	 * instruction looks its opcode up once, and a binary search costs
	 * about eight strcmp calls where this costs one. */
	int by_name[1024];
} T;

static uint32_t pair_hash(int op, const char *mod, size_t n)
{
	return hash_bytes(mod, n) ^ ((uint32_t)op * 2654435761u);
}

_Static_assert(NROWS * 2 <= 1024, "the opcode name table must stay at most half full");

static void build_tables(void)
{
	size_t total = 0;
	for (int i = 0; i < NROWS; i++) {
		const char *s = rows[i].modifiers;
		size_t n = 0;
		for (const char *p = s; *p; p++)
			if (*p == '.' && (p == s || p[-1] == ' '))
				n++;
		T.sets[i].mods = xcalloc(n ? n : 1, sizeof(char *));
		const char *p = s;
		while (*p) {
			while (*p == ' ')
				p++;
			if (!*p)
				break;
			const char *e = p;
			while (*e && *e != ' ')
				e++;
			char *w = xmalloc((size_t)(e - p) + 1);
			memcpy(w, p, (size_t)(e - p));
			w[e - p] = 0;
			T.sets[i].mods[T.sets[i].n++] = w;
			p = e;
		}
		total += T.sets[i].n;
	}
	T.cap = 16;
	while (T.cap < total * 2)
		T.cap *= 2;
	T.slots = xcalloc(T.cap, sizeof *T.slots);
	for (int i = 0; i < NROWS; i++) {
		for (size_t k = 0; k < T.sets[i].n; k++) {
			const char *m = T.sets[i].mods[k];
			uint32_t h = pair_hash(i, m, strlen(m));
			size_t j = h & (T.cap - 1);
			while (T.slots[j].mod && !(T.slots[j].op == i && strcmp(T.slots[j].mod, m) == 0))
				j = (j + 1) & (T.cap - 1);
			T.slots[j] = (PairSlot){ m, i, h };
		}
	}
	enum { NAME_CAP = sizeof T.by_name / sizeof T.by_name[0] };
	for (size_t j = 0; j < NAME_CAP; j++)
		T.by_name[j] = -1;
	for (int i = 0; i < NROWS; i++) {
		size_t j = hash_bytes(rows[i].name, strlen(rows[i].name)) & (NAME_CAP - 1);
		while (T.by_name[j] >= 0)
			j = (j + 1) & (NAME_CAP - 1);
		T.by_name[j] = i;
	}
}

static void init_tables(void)
{
	ONCE(&T.ready, build_tables());
}

size_t opcode_count(void) { return NROWS; }

const char *opcode_name(int id)
{
	return id >= 0 && id < NROWS ? rows[id].name : NULL;
}

int opcode_lookup(const char *name)
{
	init_tables();
	enum { NAME_CAP = sizeof T.by_name / sizeof T.by_name[0] };
	size_t j = hash_bytes(name, strlen(name)) & (NAME_CAP - 1);
	for (; T.by_name[j] >= 0; j = (j + 1) & (NAME_CAP - 1))
		if (strcmp(name, rows[T.by_name[j]].name) == 0)
			return T.by_name[j];
	return -1;
}

bool opcode_has_modifier(int id, const char *mod)
{
	init_tables();
	if (id < 0 || id >= NROWS)
		return false;
	size_t n = strlen(mod);
	uint32_t h = pair_hash(id, mod, n);
	for (size_t j = h & (T.cap - 1); T.slots[j].mod; j = (j + 1) & (T.cap - 1))
		if (T.slots[j].hash == h && T.slots[j].op == id && strcmp(T.slots[j].mod, mod) == 0)
			return true;
	return false;
}

size_t opcode_modifiers(int id, const char *const **mods)
{
	init_tables();
	if (id < 0 || id >= NROWS) {
		*mods = NULL;
		return 0;
	}
	*mods = T.sets[id].mods;
	return T.sets[id].n;
}

/* Levenshtein distance, capped: names are short. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 63 || lb > 63)
		return 99;
	size_t prev[64], cur[64];
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		memcpy(prev, cur, (lb + 1) * sizeof cur[0]);
	}
	return prev[lb];
}

static const char *closest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t best_d = 0;
	size_t limit = strlen(word) <= 4 ? 1 : 2;
	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(word, cands[i]);
		if (d <= limit && (!best || d < best_d)) {
			best = cands[i];
			best_d = d;
		}
	}
	return best;
}

const char *opcode_suggest(const char *name)
{
	init_tables();
	const char *names[NROWS];
	for (int i = 0; i < NROWS; i++)
		names[i] = rows[i].name;
	return closest(name, names, NROWS);
}

const char *modifier_suggest(int id, const char *mod)
{
	const char *const *mods;
	size_t n = opcode_modifiers(id, &mods);
	return closest(mod, mods, n);
}
