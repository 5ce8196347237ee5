/* Modifier classes (modifier_classes.def): an instruction takes at most one
 * word of each class its opcode has a row for (one rounding, one
 * comparison, one state space...), no word of a class twice, and exactly
 * one of the classes it needs (its type). ptxas 13 rejects all three
 * ("Multiple rounding modifiers specified", "Unexpected instruction types
 * specified"), so both rules modes report them. */
#include "check/check_internal.h"
#include "isa/opcodes.h"
#include "base/once.h"
#include "base/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct ClassRow {
	const char *opcode, *noun, *words;
	int needed;             /* EXACTLY_ONE: a word of the class is required (1);
	                         * DOC_ONE: by the PTX ISA document alone (2) */
	int from;               /* EXACTLY_ONE_FROM: required from this PTX version */
} ClassRow;

static const ClassRow rows[] = {
#define ONE_OF(op, noun, words, target, example) { op, noun, words, 0, 0 },
#define EXACTLY_ONE(op, noun, words, target, example) { op, noun, words, 1, 0 },
#define DOC_ONE(op, noun, words, target, example) { op, noun, words, 2, 0 },
#define EXACTLY_ONE_FROM(op, noun, words, target, example, major, minor) \
	{ op, noun, words, 1, PTX_VERSION_OF(major, minor) },
#include "isa/modifier_classes.def"
#undef ONE_OF
#undef EXACTLY_ONE
#undef DOC_ONE
#undef EXACTLY_ONE_FROM
};
#define NROWS (sizeof rows / sizeof rows[0])

/* Every instruction is checked, so the table is turned on first use into
 * one list per opcode of the words its rows name, each with the rows it
 * belongs to as a bit mask, grouped by the letter after the dot: an
 * instruction then compares each modifier with the few words of its
 * opcode that start like it, instead of every row's word list. */
enum { MAX_OPCODES = 256, MAX_ROWS_PER_OPCODE = 32, BUCKETS = 32 };

typedef struct ClassWord {
	const char *word;
	size_t len;
	uint32_t rows;          /* bit k: the opcode's k-th row */
} ClassWord;

typedef struct OpcodeClasses {
	uint16_t row[MAX_ROWS_PER_OPCODE];      /* indices into rows[] */
	uint32_t nrows, nwords;
	ClassWord *words;
	uint16_t bucket[BUCKETS + 1];           /* words[bucket[b] .. bucket[b+1]) */
} OpcodeClasses;

static OpcodeClasses classes[MAX_OPCODES];
static OnceFlag index_built;

static void add_word(OpcodeClasses *oc, const char *w, size_t len, uint32_t bit)
{
	for (uint32_t i = 0; i < oc->nwords; i++)
		if (oc->words[i].len == len && memcmp(oc->words[i].word, w, len) == 0) {
			oc->words[i].rows |= bit;
			return;
		}
	oc->words = xrealloc(oc->words, (oc->nwords + 1) * sizeof *oc->words);
	oc->words[oc->nwords++] = (ClassWord){ w, len, bit };
}

/* Row i for opcode id: its words go to the opcode's list. A "*" row is
 * added to every opcode that takes one of its words. */
static void add_row(int id, size_t i)
{
	OpcodeClasses *oc = &classes[id];
	if (oc->nrows == MAX_ROWS_PER_OPCODE)
		xdie("modifier_classes.def: more than %d rows for %s", MAX_ROWS_PER_OPCODE, opcode_name(id));
	uint32_t bit = 1u << oc->nrows;
	bool any = false;
	for (const char *p = rows[i].words; *p; p += strspn(p, " ")) {
		size_t n = strcspn(p, " ");
		char word[64];
		snprintf(word, sizeof word, "%.*s", (int)n, p);
		if (strcmp(rows[i].opcode, "*") != 0 || opcode_has_modifier(id, word)) {
			add_word(oc, p, n, bit);
			any = true;
		}
		p += n;
	}
	if (any)
		oc->row[oc->nrows++] = (uint16_t)i;
}

static unsigned bucket_of(const char *word)
{
	return (unsigned char)word[1] % BUCKETS;
}

/* Orders the opcode's words by bucket (a counting sort) and notes where
 * each bucket starts. */
static void sort_words(OpcodeClasses *oc)
{
	if (oc->nwords == 0)
		return;
	ClassWord *sorted = xmalloc(oc->nwords * sizeof *sorted);
	uint16_t fill[BUCKETS + 1] = { 0 };
	for (uint32_t i = 0; i < oc->nwords; i++)
		fill[bucket_of(oc->words[i].word) + 1]++;
	for (unsigned b = 0; b < BUCKETS; b++)
		fill[b + 1] += fill[b];
	memcpy(oc->bucket, fill, sizeof oc->bucket);
	for (uint32_t i = 0; i < oc->nwords; i++)
		sorted[fill[bucket_of(oc->words[i].word)]++] = oc->words[i];
	free(oc->words);
	oc->words = sorted;
}

static void build_index(void)
{
	size_t nops = opcode_count() < MAX_OPCODES ? opcode_count() : MAX_OPCODES;
	for (size_t i = 0; i < NROWS; i++) {
		if (strcmp(rows[i].opcode, "*") == 0) {
			for (size_t id = 0; id < nops; id++)
				add_row((int)id, i);
			continue;
		}
		int id = opcode_lookup(rows[i].opcode);
		if (id >= 0 && (size_t)id < nops)
			add_row(id, i);
	}
	for (size_t id = 0; id < nops; id++)
		sort_words(&classes[id]);
}

/* The rows of the opcode that the modifier is a word of (bit mask). */
static uint32_t rows_of_word(const OpcodeClasses *oc, const char *mod, size_t len)
{
	unsigned b = bucket_of(mod);
	for (uint32_t i = oc->bucket[b]; i < oc->bucket[b + 1]; i++) {
		const ClassWord *w = &oc->words[i];
		if (w->len == len && memcmp(w->word, mod, len) == 0)
			return w->rows;
	}
	return 0;
}

/* The class index of the instruction's opcode (built on first use). */
static const OpcodeClasses *classes_of(const Instr *in)
{
	if (in->opcode_id < 0 || in->opcode_id >= MAX_OPCODES)
		return NULL;
	ONCE(&index_built, build_index());
	return &classes[in->opcode_id];
}

/* The bit of the opcode's row named `noun` (its words in *words), or 0. */
static uint32_t class_bit(const OpcodeClasses *oc, const char *noun, const char **words)
{
	for (uint32_t k = 0; oc && k < oc->nrows; k++)
		if (rows[oc->row[k]].noun[0] == noun[0] && strcmp(rows[oc->row[k]].noun, noun) == 0) {
			if (words)
				*words = rows[oc->row[k]].words;
			return 1u << k;
		}
	return 0;
}

/* Where word ends in the space-separated list (at ' ', ':' before a
 * row's count, or the end), NULL if the list lacks it. */
const char *check_word_in_list(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = strstr(list, word); p; p = strstr(p + 1, word))
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == ':' || !p[n]))
			return p + n;
	return NULL;
}

int modifier_of_class(const Instr *in, const char *noun)
{
	const OpcodeClasses *oc = classes_of(in);
	uint32_t bit = class_bit(oc, noun, NULL);
	for (uint32_t i = 0; bit && i < in->nmods; i++)
		if (rows_of_word(oc, in->mods[i], strlen(in->mods[i])) & bit)
			return (int)i;
	return -1;
}

const char *modifier_class_words(const Instr *in, const char *noun)
{
	const char *words = NULL;
	class_bit(classes_of(in), noun, &words);
	return words;
}

/* One report per class and instruction, at the second word (the first one
 * is what the writer most likely meant) or, for a missing word, at the
 * opcode. */
void check_modifier_classes(CheckCtx *c, const Instr *in)
{
	const OpcodeClasses *oc = classes_of(in);
	if (!oc || oc->nrows == 0)
		return;
	int first[MAX_ROWS_PER_OPCODE];
	uint32_t seen = 0, reported = 0;
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *mod = in->mods[i];
		uint32_t mask = rows_of_word(oc, mod, strlen(mod));
		for (uint32_t k = 0; mask; k++, mask >>= 1) {
			if (!(mask & 1))
				continue;
			if (!(seen & (1u << k))) {
				seen |= 1u << k;
				first[k] = (int)i;
				continue;
			}
			if (reported & (1u << k))
				continue;
			reported |= 1u << k;
			const ClassRow *r = &rows[oc->row[k]];
			const char *was = in->mods[first[k]];
			if (strcmp(was, mod) == 0)
				check_error(c, check_mod_loc(in, i), RULE_MODIFIER_CLASS, "Duplicate %s modifier for instruction '%s'",
					mod, in->opcode);
			else
				check_error(c, check_mod_loc(in, i), RULE_MODIFIER_CLASS, "Multiple %s modifiers specified for "
					"instruction '%s' ('%s' and '%s'; at most one of %s)", r->noun, in->opcode, was, mod,
					r->words);
		}
	}
	for (uint32_t k = 0; k < oc->nrows; k++) {
		const ClassRow *r = &rows[oc->row[k]];
		if (r->needed == 1 && !(seen & (1u << k)) && r->from && (!c->has_version || c->version < r->from))
			continue;
		if (r->needed == 1 && !(seen & (1u << k)) && r->from)
			check_error(c, in->opcode_loc, RULE_MODIFIER_CLASS, "Missing %s modifier for instruction '%s': PTX "
				"ISA %d.%d and later require %s", r->noun, in->opcode, r->from / 10, r->from % 10, r->words);
		else if (r->needed == 1 && !(seen & (1u << k)))
			check_error(c, in->opcode_loc, RULE_MODIFIER_CLASS, "Missing %s modifier for instruction '%s' (it "
				"takes one of %s)", r->noun, in->opcode, r->words);
		else if (r->needed == 2 && !(seen & (1u << k)) && c->rules == RULES_STRICT)
			check_warning(c, in->opcode_loc, RULE_MODIFIER_CLASS, "Missing %s modifier for instruction '%s': "
				"the PTX ISA names one of %s; ptxas accepts none and 11.8 writes no code for it", r->noun,
				in->opcode, r->words);
	}
}
