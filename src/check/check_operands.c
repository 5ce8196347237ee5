/* Operand counts (operand_counts.def): an instruction with more or fewer
 * operands than any form of it takes is ptxas's "Arguments mismatch for
 * instruction 'add'", so both rules modes report it. The surface
 * instructions and st check their counts with their forms and have no row. */
#include "check/check_internal.h"
#include "isa/opcodes.h"
#include "base/once.h"
#include "isa/operand_counts.h"

#include <stdint.h>
#include <string.h>

static const OperandCountRow rows[] = {
#define OPERANDS(op, mods, min, max, target, source, example) { op, mods, min, max, example },
#define NAMED(op, words)
#include "isa/operand_counts.def"
#undef OPERANDS
#undef NAMED
};
#define NROWS (sizeof rows / sizeof rows[0])

static const struct { const char *opcode, *words; } names[] = {
#define OPERANDS(op, mods, min, max, target, source, example)
#define NAMED(op, words) { op, words },
#include "isa/operand_counts.def"
#undef OPERANDS
#undef NAMED
};

const OperandCountRow *operand_count_rows(size_t *n)
{
	*n = NROWS;
	return rows;
}

const char *operand_count_name_words(const char *opcode)
{
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(names[i].opcode, opcode) == 0)
			return names[i].words;
	return NULL;
}

/* Row indices grouped by opcode id, file order kept inside a group (the
 * first matching row decides), built on first use: an instruction then
 * looks at its own few rows only. */
enum { MAX_OPCODES = 256 };
static uint16_t by_opcode[NROWS];
static uint16_t group_start[MAX_OPCODES + 1];
static OnceFlag index_built;

static void build_index(void)
{
	size_t n = opcode_count() < MAX_OPCODES ? opcode_count() : MAX_OPCODES;
	uint16_t fill[MAX_OPCODES] = { 0 };
	int ids[NROWS];
	for (size_t i = 0; i < NROWS; i++) {
		ids[i] = opcode_lookup(rows[i].opcode);
		if (ids[i] >= 0 && (size_t)ids[i] < n)
			group_start[ids[i] + 1]++;
	}
	for (size_t k = 0; k < n; k++)
		group_start[k + 1] += group_start[k];
	for (size_t k = n + 1; k <= MAX_OPCODES; k++)
		group_start[k] = group_start[n];
	for (size_t i = 0; i < NROWS; i++)
		if (ids[i] >= 0 && (size_t)ids[i] < n)
			by_opcode[group_start[ids[i]] + fill[ids[i]]++] = (uint16_t)i;
}

/* Is `word` (length len) one of the space-separated words of `list`? */
static bool in_list(const char *list, const char *word, size_t len)
{
	for (const char *p = list; *p;) {
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, " ");
		if (n && n == len && strncmp(p, word, len) == 0)
			return true;
		p += n;
	}
	return false;
}

static bool has_mod(const Instr *in, const char *word, size_t len)
{
	for (uint32_t i = 0; i < in->nmods; i++)
		if (strncmp(in->mods[i], word, len) == 0 && in->mods[i][len] == '\0')
			return true;
	return false;
}

static bool row_matches(const OperandCountRow *r, const Instr *in)
{
	for (const char *p = r->mods; *p;) {
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, " ");
		if (n && !has_mod(in, p, n))
			return false;
		p += n;
	}
	return true;
}

/* The instruction as ptxas names it in the message (NAMED rows). */
static const char *instr_name(CheckCtx *c, const Instr *in)
{
	const char *words = operand_count_name_words(in->opcode);
	size_t len = strlen(in->opcode), nmods = 0;
	while (words && nmods < in->nmods) {
		const char *m = in->mods[nmods];
		const char *sub = strstr(m, "::");
		size_t n = sub ? (size_t)(sub - m) : strlen(m);
		if (!in_list(words, m, n))
			break;
		len += n;
		nmods++;
	}
	char *name = arena_alloc(&c->arena, len + 1);
	char *p = name + strlen(strcpy(name, in->opcode));
	for (size_t i = 0; i < nmods; i++) {
		const char *sub = strstr(in->mods[i], "::");
		size_t n = sub ? (size_t)(sub - in->mods[i]) : strlen(in->mods[i]);
		memcpy(p, in->mods[i], n);
		p += n;
	}
	*p = 0;
	return name;
}

void check_operand_count(CheckCtx *c, const Instr *in)
{
	if (in->opcode_id < 0 || in->opcode_id >= MAX_OPCODES)
		return;
	ONCE(&index_built, build_index());
	for (size_t k = group_start[in->opcode_id]; k < group_start[in->opcode_id + 1]; k++) {
		const OperandCountRow *r = &rows[by_opcode[k]];
		if (!row_matches(r, in))
			continue;
		if (in->nops >= (uint32_t)r->min && in->nops <= (uint32_t)r->max)
			return;
		const char *name = instr_name(c, in);
		const char *s = in->nops == 1 ? "" : "s";
		if (r->min == r->max)
			check_error(c, in->opcode_loc, RULE_OPERAND_COUNT, "Arguments mismatch for instruction '%s' "
				"(%u operand%s, expected %u)", name, (unsigned)in->nops, s, (unsigned)r->min);
		else
			check_error(c, in->opcode_loc, RULE_OPERAND_COUNT, "Arguments mismatch for instruction '%s' "
				"(%u operand%s, expected %u to %u)", name, (unsigned)in->nops, s, (unsigned)r->min,
				(unsigned)r->max);
		return;
	}
}
