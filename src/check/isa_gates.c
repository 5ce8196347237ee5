#include "check/isa_gates.h"

#include "isa/opcodes.h"
#include "base/once.h"
#include "base/xalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const IsaGate gates[] = {
#define ISA_GATE(id, kind, match, mods, feat, vf, tf, ord, vmaj, vmin, pmaj, pmin, tgt, src, doc, ex)      \
	{ IG_##id, #id, IGK_##kind, match, mods, feat, REQ_FORM_##vf, REQ_FORM_##tf, REQ_ORDER_##ord,     \
	  PTX_VERSION_OF(vmaj, vmin), PTX_VERSION_OF(pmaj, pmin), tgt, REQ_SRC_##src, doc, ex },
#include "isa/isa_gates.def"
#undef ISA_GATE
};

const IsaGate *isa_gates(size_t *n)
{
	*n = sizeof gates / sizeof gates[0];
	return gates;
}

const IsaGate *isa_gate(IsaGateId id)
{
	return &gates[id];
}

/* Instruction rows ordered by opcode id, built on first use. */
static const IsaGate *by_opcode[IG_COUNT];
static int by_opcode_id[IG_COUNT];
static size_t n_by_opcode;
/* Rows of opcode id k: by_opcode[opcode_start[k]] up to opcode_start[k + 1]
 * (every instruction asks, so no search). */
static size_t *opcode_start;
static OnceFlag by_opcode_built;

static void build_opcode_index(void)
{
	for (size_t i = 0; i < IG_COUNT; i++) {
		if (gates[i].kind != IGK_INSTR)
			continue;
		int id = opcode_lookup(gates[i].match);
		if (id < 0)
			continue;
		/* Insertion keeps table order among rows of one opcode. */
		size_t k = n_by_opcode++;
		while (k > 0 && by_opcode_id[k - 1] > id) {
			by_opcode[k] = by_opcode[k - 1];
			by_opcode_id[k] = by_opcode_id[k - 1];
			k--;
		}
		by_opcode[k] = &gates[i];
		by_opcode_id[k] = id;
	}
	size_t nops = opcode_count();
	opcode_start = xcalloc(nops + 1, sizeof *opcode_start);
	size_t k = 0;
	for (size_t id = 0; id <= nops; id++) {
		while (k < n_by_opcode && (size_t)by_opcode_id[k] < id)
			k++;
		opcode_start[id] = k;
	}
}

size_t isa_gates_of_opcode(int opcode_id, const IsaGate *const **rows)
{
	ONCE(&by_opcode_built, build_opcode_index());
	if (opcode_id < 0 || (size_t)opcode_id >= opcode_count()) {
		*rows = by_opcode;
		return 0;
	}
	*rows = by_opcode + opcode_start[opcode_id];
	return opcode_start[opcode_id + 1] - opcode_start[opcode_id];
}

/* Rows grouped by kind, built on first use. */
static const IsaGate *by_kind[IG_COUNT];
static size_t kind_start[IGK_SECTION + 2];
static OnceFlag by_kind_built;

static void build_kind_index(void)
{
	size_t k = 0;
	for (int kind = IGK_INSTR; kind <= IGK_SECTION; kind++) {
		kind_start[kind] = k;
		for (size_t i = 0; i < IG_COUNT; i++)
			if ((int)gates[i].kind == kind)
				by_kind[k++] = &gates[i];
	}
	kind_start[IGK_SECTION + 1] = k;
}

size_t isa_gates_of_kind(IsaGateKind kind, const IsaGate *const **rows)
{
	ONCE(&by_kind_built, build_kind_index());
	*rows = by_kind + kind_start[kind];
	return kind_start[kind + 1] - kind_start[kind];
}

/* Directive and type rows by match word (table order among equals), built
 * on first use: every declaration specifier is looked up. */
static const IsaGate *by_word[IG_COUNT];
static size_t n_by_word;
/* Every directive row (with or without a condition), for gate_dir: each
 * .loc or .maxntid used to be tried against all rows. */
static const IsaGate *by_dir[IG_COUNT];
static size_t n_by_dir;
static OnceFlag by_word_built;

/* By spelling, then table order, so rows of one spelling keep the order in
 * which a scan of the whole table would meet them. */
static int cmp_word_row(const void *a, const void *b)
{
	const IsaGate *x = *(const IsaGate *const *)a, *y = *(const IsaGate *const *)b;
	int r = strcmp(x->match, y->match);
	return r ? r : (x > y) - (x < y);
}

static void build_word_index(void)
{
	for (size_t i = 0; i < IG_COUNT; i++) {
		if ((gates[i].kind == IGK_DIRECTIVE && !*gates[i].mods) || gates[i].kind == IGK_TYPE)
			by_word[n_by_word++] = &gates[i];
		if (gates[i].kind == IGK_DIRECTIVE)
			by_dir[n_by_dir++] = &gates[i];
	}
	qsort(by_word, n_by_word, sizeof by_word[0], cmp_word_row);
	qsort(by_dir, n_by_dir, sizeof by_dir[0], cmp_word_row);
}

static size_t rows_spelled(const IsaGate *const *index, size_t n, const char *word, const IsaGate *const **rows)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(index[mid]->match, word) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t end = lo;
	while (end < n && strcmp(index[end]->match, word) == 0)
		end++;
	*rows = index + lo;
	return end - lo;
}

size_t isa_gates_of_word(const char *word, const IsaGate *const **rows)
{
	ONCE(&by_word_built, build_word_index());
	return rows_spelled(by_word, n_by_word, word, rows);
}

size_t isa_gates_of_directive(const char *name, const IsaGate *const **rows)
{
	ONCE(&by_word_built, build_word_index());
	return rows_spelled(by_dir, n_by_dir, name, rows);
}

const char *isa_gate_kind_name(IsaGateKind k)
{
	switch (k) {
	case IGK_INSTR: return "instruction";
	case IGK_DIRECTIVE: return "directive";
	case IGK_SREG: return "special register";
	case IGK_TYPE: return "type";
	case IGK_INIT: return "initializer";
	case IGK_SECTION: return "section data";
	}
	return "?";
}

/* A row's required modifiers, split once: matching runs for every
 * instruction of a module. */
#define MAX_ROW_MODS 8
typedef struct RowWords {
	uint8_t n;
	uint8_t len[MAX_ROW_MODS];
	bool absent[MAX_ROW_MODS];      /* "!.w": the instruction must not have .w */
	const char *word[MAX_ROW_MODS];
	int16_t more_than;      /* "+N": more than N operands; -1 when absent */
} RowWords;

static RowWords row_words[IG_COUNT];
static OnceFlag row_words_built;

static void build_row_words(void)
{
	for (size_t i = 0; i < IG_COUNT; i++) {
		RowWords *w = &row_words[i];
		w->more_than = -1;
		for (const char *p = gates[i].mods; *p && w->n < MAX_ROW_MODS;) {
			while (*p == ' ')
				p++;
			size_t n = strcspn(p, " ");
			if (n && *p == '+' && gates[i].kind == IGK_INSTR) {
				w->more_than = (int16_t)strtol(p + 1, NULL, 10);
			} else if (n > 1 && *p == '!' && gates[i].kind == IGK_INSTR) {
				w->absent[w->n] = true;
				w->word[w->n] = p + 1;
				w->len[w->n++] = (uint8_t)(n - 1);
			} else if (n) {
				w->word[w->n] = p;
				w->len[w->n++] = (uint8_t)n;
			}
			p += n;
		}
	}
}

/* Is the n-byte word w one of the instruction's modifiers? */
static bool has_word(const Instr *in, const char *w, size_t n)
{
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *m = in->mods[i];
		/* Every modifier starts with '.'; the second byte tells most apart. */
		if (m[1] == w[1] && strncmp(m, w, n) == 0 && m[n] == '\0')
			return true;
	}
	return false;
}

bool isa_gate_matches_instr(const IsaGate *g, const Instr *in)
{
	if (g->kind != IGK_INSTR || !in->opcode || strcmp(in->opcode, g->match) != 0)
		return false;
	return isa_gate_matches_mods(g, in);
}

bool isa_gate_matches_mods(const IsaGate *g, const Instr *in)
{
	ONCE(&row_words_built, build_row_words());
	const RowWords *w = &row_words[g->id];
	if (w->more_than >= 0 && in->nops <= (uint32_t)w->more_than)
		return false;
	for (uint8_t i = 0; i < w->n; i++)
		if (has_word(in, w->word[i], w->len[i]) == w->absent[i])
			return false;
	return true;
}

bool isa_gate_matches_directive(const IsaGate *g, const char *name)
{
	return g->kind == IGK_DIRECTIVE && !*g->mods && name && strcmp(g->match, name) == 0;
}

/* Does the string literal (with its quotes) start with the word w? */
static bool string_starts_with_word(const char *lit, const char *w)
{
	if (!lit || *lit != '"')
		return false;
	size_t n = strlen(w);
	return strncmp(lit + 1, w, n) == 0 && (lit[1 + n] == '"' || lit[1 + n] == ' ');
}

bool isa_gate_matches_dir(const IsaGate *g, const Directive *d)
{
	if (g->kind != IGK_DIRECTIVE || !d->name || strcmp(g->match, d->name) != 0)
		return false;
	if (!*g->mods)
		return true;
	if (g->mods[0] == '+') {
		long more = strtol(g->mods + 1, NULL, 10);
		return d->nargs > (uint32_t)more;
	}
	for (uint32_t i = 0; i < d->nattrs; i++)
		if (d->attrs[i].name && strcmp(d->attrs[i].name, g->mods) == 0)
			return true;
	return d->nargs > 0 && d->args[0]->kind == EX_STRING && string_starts_with_word(d->args[0]->text, g->mods);
}

bool isa_gate_matches_init(const IsaGate *g, const Expr *e)
{
	if (g->kind != IGK_INIT || !e)
		return false;
	if (e->kind == EX_NAME)
		return strcmp(g->match, "address") == 0;
	if (e->kind == EX_CALL)
		return strcmp(g->match, e->text && strcmp(e->text, "generic") == 0 ? "generic()" : "mask()") == 0;
	return false;
}

/* Does the expression add to or subtract from a name? */
static bool names_plus_imm(const Expr *e)
{
	if (!e || e->kind != EX_BINARY)
		return false;
	const Expr *l = e->lhs, *r = e->rhs;
	return l->kind == EX_NAME || l->kind == EX_SECTION || r->kind == EX_NAME || r->kind == EX_SECTION ||
		names_plus_imm(l) || names_plus_imm(r);
}

static bool is_name(const Expr *e)
{
	return e && (e->kind == EX_NAME || e->kind == EX_SECTION);
}

/* Does the expression subtract one name from another? */
static bool name_minus_name(const Expr *e)
{
	if (!e || e->kind != EX_BINARY)
		return false;
	if (e->op == '-' && is_name(e->lhs) && is_name(e->rhs))
		return true;
	return name_minus_name(e->lhs) || name_minus_name(e->rhs);
}

bool isa_gate_matches_section_stmt(const IsaGate *g, const Stmt *s)
{
	if (g->kind != IGK_SECTION || !s)
		return false;
	if (s->kind == ST_LABEL)
		return strcmp(g->match, "label") == 0;
	if (s->kind != ST_DIRECTIVE)
		return false;
	bool (*form)(const Expr *) = strcmp(g->match, "label+imm") == 0 ? names_plus_imm
		: strcmp(g->match, "label-label") == 0 ? name_minus_name : NULL;
	for (uint32_t i = 0; form && i < s->u.dir.nargs; i++)
		if (form(s->u.dir.args[i]))
			return true;
	return false;
}

/* `pat` with '*' standing for one or more digits. */
static bool glob_digits(const char *pat, const char *s)
{
	for (; *pat; pat++) {
		if (*pat != '*') {
			if (*s++ != *pat)
				return false;
			continue;
		}
		if (!isdigit((unsigned char)*s))
			return false;
		while (isdigit((unsigned char)*s))
			s++;
	}
	return *s == '\0';
}

/* Which (second, third) character pairs of a name some SREG row spells. */
static uint8_t sreg_pairs[256 * 256 / 8];
static OnceFlag sreg_pairs_built;

static void build_sreg_pairs(void)
{
	for (size_t i = 0; i < IG_COUNT; i++) {
		const char *m = gates[i].match;
		if (gates[i].kind != IGK_SREG || !m[0] || !m[1])
			continue;
		unsigned key = (unsigned char)m[1] << 8 | (unsigned char)m[2];
		sreg_pairs[key / 8] |= (uint8_t)(1u << (key % 8));
	}
}

bool isa_sreg_may_match(const char *name)
{
	if (!name || name[0] != '%' || !name[1])
		return false;
	ONCE(&sreg_pairs_built, build_sreg_pairs());
	unsigned key = (unsigned char)name[1] << 8 | (unsigned char)name[2];
	return sreg_pairs[key / 8] & (1u << (key % 8));
}

bool isa_gate_matches_sreg(const IsaGate *g, const char *name)
{
	return g->kind == IGK_SREG && name && glob_digits(g->match, name);
}

bool isa_gate_matches_type(const IsaGate *g, const char *type_word, const char *space_word)
{
	if (g->kind != IGK_TYPE || !type_word || strcmp(g->match, type_word) != 0)
		return false;
	return !*g->mods || (space_word && strcmp(g->mods, space_word) == 0);
}

/* Family of an architecture: the generation digits (sm_100 and sm_103 are
 * one family, sm_110 another), as ptxas 13 groups 'f' targets. */
static int family_of(int sm)
{
	return sm / 10;
}

bool isa_target_satisfies(const TargetInfo *have, const TargetInfo *need)
{
	switch (need->family) {
	case 0:
		return have->sm >= need->sm;
	case 'a':
		return have->sm == need->sm && have->family == 'a';
	case 'f':
		return (have->family == 'a' || have->family == 'f') && family_of(have->sm) == family_of(need->sm) &&
			have->sm >= need->sm;
	default:
		/* Other suffixes ('b') are only ever the module's target. */
		return have->sm == need->sm && have->family == need->family;
	}
}

/* "8.1" into a PtxVersion; 0 if malformed. */
static PtxVersion parse_version(const char *p, size_t n)
{
	if (n != 3 || !isdigit((unsigned char)p[0]) || p[1] != '.' || !isdigit((unsigned char)p[2]))
		return 0;
	return PTX_VERSION_OF(p[0] - '0', p[2] - '0');
}

const TargetInfo *isa_gate_next_target_since(const IsaGate *g, size_t *pos, PtxVersion *since)
{
	const char *p = g->targets + *pos;
	while (*p) {
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, " ");
		size_t name_len = strcspn(p, " @");
		char name[32];
		const TargetInfo *t = NULL;
		if (name_len && name_len < sizeof name) {
			memcpy(name, p, name_len);
			name[name_len] = '\0';
			t = ptx_target_lookup(name);
		}
		PtxVersion v = name_len < n ? parse_version(p + name_len + 1, n - name_len - 1) : 0;
		p += n;
		if (t) {
			*pos = (size_t)(p - g->targets);
			if (since)
				*since = v;
			return t;
		}
	}
	*pos = (size_t)(p - g->targets);
	return NULL;
}

const TargetInfo *isa_gate_next_target(const IsaGate *g, size_t *pos)
{
	return isa_gate_next_target_since(g, pos, NULL);
}

/* A row's targets, resolved once: gates are evaluated for every matching
 * instruction. */
#define MAX_ROW_TARGETS 6
typedef struct RowTargets {
	uint8_t n;
	const TargetInfo *target[MAX_ROW_TARGETS];
	PtxVersion since[MAX_ROW_TARGETS];
} RowTargets;

static RowTargets row_targets[IG_COUNT];
static OnceFlag row_targets_built;

static void build_row_targets(void)
{
	for (size_t i = 0; i < IG_COUNT; i++) {
		RowTargets *rt = &row_targets[i];
		size_t pos = 0;
		PtxVersion since;
		const TargetInfo *t;
		while (rt->n < MAX_ROW_TARGETS && (t = isa_gate_next_target_since(&gates[i], &pos, &since))) {
			rt->target[rt->n] = t;
			rt->since[rt->n++] = since;
		}
	}
}

PtxVersion isa_gate_target_since(const IsaGate *g, const TargetInfo *have)
{
	ONCE(&row_targets_built, build_row_targets());
	const RowTargets *rt = &row_targets[g->id];
	if (!rt->n)
		return 0;
	PtxVersion best = -1;
	for (uint8_t i = 0; i < rt->n; i++)
		if (isa_target_satisfies(have, rt->target[i]) && (best < 0 || rt->since[i] < best))
			best = rt->since[i];
	return best;
}

bool isa_gate_target_ok(const IsaGate *g, const TargetInfo *have)
{
	return isa_gate_target_since(g, have) >= 0;
}

bool isa_gate_family_only(const IsaGate *g)
{
	size_t pos = 0;
	bool any = false;
	for (const TargetInfo *t = isa_gate_next_target(g, &pos); t; t = isa_gate_next_target(g, &pos)) {
		if (t->family == 0)
			return false;
		any = true;
	}
	return any;
}

int isa_gate_min_sm(const IsaGate *g)
{
	size_t pos = 0;
	int sm = 0, late_sm = 0;
	PtxVersion since;
	for (const TargetInfo *t = isa_gate_next_target_since(g, &pos, &since); t;
	     t = isa_gate_next_target_since(g, &pos, &since)) {
		int *best = since ? &late_sm : &sm;
		if (t->family == 0 && (!*best || t->sm < *best))
			*best = t->sm;
	}
	/* ptxas names the target that suffices at every version. */
	return sm ? sm : late_sm;
}
