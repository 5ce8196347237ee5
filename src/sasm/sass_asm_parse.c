/* Runs the SASS scanner and parser over one buffer, and the small builders
 * the grammar calls: operand words and scheduling annotations. */
#include "sasm/sass_asm_ast.h"
#include "sass.tab.h"
#define YYSTYPE SASS_STYPE
#define YYLTYPE SrcLoc
#include "sass.lex.h"

#include "base/xalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

unsigned sasm_parse_buffer(SasmParseState *ps, char *buf, size_t len)
{
	intern_init(&ps->names, ps->arena);
	unsigned before = diag_errors(ps->diag);
	yyscan_t scanner;
	if (sass_lex_init_extra(ps, &scanner) != 0) {
		diag_add(ps->diag, SEV_ERROR, (SrcLoc){ 0 }, RULE_IO, "cannot initialise the scanner");
		return 1;
	}
	YY_BUFFER_STATE b = sass__scan_buffer(buf, len + 2, scanner);
	if (!b) {
		diag_add(ps->diag, SEV_ERROR, (SrcLoc){ 0 }, RULE_IO, "cannot set up the scan buffer");
	} else {
		sass_parse(scanner, ps);
		sass__delete_buffer(b, scanner);
	}
	sass_lex_destroy(scanner);
	return diag_errors(ps->diag) - before;
}

void sasm_parse_fini(SasmParseState *ps)
{
	intern_fini(&ps->names);
	free(ps->stmts);
	ps->stmts = NULL;
	ps->nstmts = ps->cap = 0;
}

void sasm_push_stmt(SasmParseState *ps, const SasmStmt *s)
{
	if (ps->nstmts == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 64;
		ps->stmts = xrealloc(ps->stmts, ps->cap * sizeof *ps->stmts);
	}
	ps->stmts[ps->nstmts++] = *s;
}

/* "R12" -> 12, "RZ" -> 255, "P3" -> 3, "PT" -> 7 (kind set), followed by
 * dot suffixes. Register numbers above the 255 the encoding holds are no
 * registers. */
bool sasm_classify_reg(const char *word, SasmOperand *op)
{
	const char *dot = strchr(word, '.');
	size_t n = dot ? (size_t)(dot - word) : strlen(word);
	char c = word[0];
	if (n < 2 || (c != 'R' && c != 'P'))
		return false;
	long num;
	if (n == 2 && word[1] == (c == 'R' ? 'Z' : 'T')) {
		num = c == 'R' ? 255 : 7;
	} else {
		num = 0;
		for (size_t i = 1; i < n; i++) {
			if (!isdigit((unsigned char)word[i]) || (i == 1 && word[i] == '0' && n > 2))
				return false;
			num = num * 10 + (word[i] - '0');
			if (num > 1000)
				return false;
		}
		if ((c == 'R' && num > 254) || (c == 'P' && num > 6))
			return false;
	}
	op->kind = c == 'R' ? SOK_REG : SOK_PRED;
	op->reg = (int)num;
	op->nsuffix = 0;
	return true;
}

SasmOperand sasm_operand_word(SasmParseState *ps, const char *word, SrcLoc loc)
{
	SasmOperand op = { .kind = SOK_NAME, .loc = loc, .name = word, .reg = SASM_NO_REG };
	if (!sasm_classify_reg(word, &op))
		return op;
	const char *p = strchr(word, '.');
	while (p != NULL) {
		const char *next = strchr(p + 1, '.');
		size_t n = next ? (size_t)(next - p) : strlen(p);
		if (op.nsuffix < SASM_MAX_SUFFIXES)
			op.suffix[op.nsuffix++] = intern(&ps->names, p, n);
		else
			diag_add(ps->diag, SEV_ERROR, loc, RULE_SASS_SYNTAX, "too many suffixes on '%s'", word);
		p = next;
	}
	return op;
}

/* Parses the unsigned decimal number at s (whole rest of the string). */
static bool parse_index(const char *s, int *out)
{
	if (*s == '=')
		s++;
	if (!isdigit((unsigned char)*s))
		return false;
	long v = strtol(s, (char **)&s, 10);
	if (*s != '\0' || v > 1000)
		return false;
	*out = (int)v;
	return true;
}

static void barrier_error(SasmParseState *ps, SrcLoc loc, const char *text)
{
	diag_add(ps->diag, SEV_ERROR, loc, RULE_SASS_BARRIER,
	         "scoreboard barrier in '%s' is out of range: barriers are 0 to 5", text);
}

/* &req_N (wait for barrier N), &rdN / &wrN (set the read / write barrier),
 * ?WAITn[_END_GROUP] (stall n cycles), ?YIELD, and wait:rbar:wbar:Y:stall. */
void sasm_add_annotation(SasmParseState *ps, const char *text, SrcLoc loc)
{
	SasmSchedText *s = &ps->cur.sched;
	if (!s->any)
		s->loc = loc;
	s->any = true;
	int n;
	if (text[0] != '&' && text[0] != '?') {
		if (s->has_notation)
			diag_add(ps->diag, SEV_ERROR, loc, RULE_SASS_SYNTAX,
			         "the control notation '%s' is given twice for one instruction", text);
		else if (sass_ctrl_parse(text, &s->notation) != 0)
			diag_add(ps->diag, SEV_ERROR, loc, RULE_SASS_BARRIER,
			         "bad control notation '%s': expected wait:rbar:wbar:Y:stall with barriers 0-5", text);
		else if ((s->notation.rbar > 5 && s->notation.rbar != 7) ||
		         (s->notation.wbar > 5 && s->notation.wbar != 7) || s->notation.wait > 0x3f)
			barrier_error(ps, loc, text);
		else
			s->has_notation = true;
		return;
	}
	if (strncmp(text, "&req_", 5) == 0 && parse_index(text + 5, &n)) {
		if (n > 5)
			barrier_error(ps, loc, text);
		else
			s->req_mask |= 1u << n;
	} else if ((strncmp(text, "&rd", 3) == 0 || strncmp(text, "&wr", 3) == 0) &&
	           parse_index(text + 3, &n)) {
		int *slot = text[1] == 'r' ? &s->rd : &s->wr;
		if (n > 5)
			barrier_error(ps, loc, text);
		else if (*slot >= 0 && *slot != n)
			diag_add(ps->diag, SEV_ERROR, loc, RULE_SASS_BARRIER,
			         "an instruction sets one %s barrier; '%s' contradicts &%.2s%d",
			         text[1] == 'r' ? "read" : "write", text, text + 1, *slot);
		else
			*slot = n;
	} else if (strncmp(text, "?WAIT", 5) == 0 && isdigit((unsigned char)text[5])) {
		char *end;
		long v = strtol(text + 5, &end, 10);
		if ((*end != '\0' && strcmp(end, "_END_GROUP") != 0) || v > 15)
			diag_add(ps->diag, SEV_ERROR, loc, RULE_SASS_RANGE,
			         "'%s': the stall count is 0 to 15 (?WAIT0 ... ?WAIT15)", text);
		else
			s->stall = (int)v;
	} else if (strcmp(text, "?YIELD") == 0) {
		s->yield = true;
	} else {
		diag_add(ps->diag, SEV_ERROR, loc, RULE_SASS_SYNTAX,
		         "unknown scheduling annotation '%s' (expected &req_N, &rdN, &wrN, ?WAITn or ?YIELD)", text);
	}
}
