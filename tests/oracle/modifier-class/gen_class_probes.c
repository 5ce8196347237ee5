/* Probe generator for tests/oracle/modifier-class-diff.sh: for every row of
 * src/isa/modifier_classes.def, the row's example (both tools must accept it),
 * the example with each word of the class added after the class word it
 * has (both must reject it: two words of one class, or one twice) and, for
 * an EXACTLY_ONE row, the example without its class word (rejected).
 *   gen_class_probes DIR   writes DIR/NNNN.ptx, each starting with
 *                          "// case: OPCODE NOUN: INSTRUCTION".
 * Build from the repository root: cc -std=c11 -iquote src -o gen
 * tests/oracle/modifier-class/gen_class_probes.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/probe_file.h"

typedef struct Row {
	const char *opcode, *noun, *words, *target, *example;
	int needed;
} Row;

static const Row rows[] = {
#define ONE_OF(op, noun, words, target, example) { op, noun, words, target, example, 0 },
#define EXACTLY_ONE(op, noun, words, target, example) { op, noun, words, target, example, 1 },
#define DOC_ONE(op, noun, words, target, example) { op, noun, words, target, example, 0 },  /* ptxas: ONE_OF */
#define EXACTLY_ONE_FROM(op, noun, words, target, example, major, minor) \
	{ op, noun, words, target, example, 1 },  /* probes are .version 9.0 */
#include "isa/modifier_classes.def"
#undef ONE_OF
#undef EXACTLY_ONE
#undef DOC_ONE
#undef EXACTLY_ONE_FROM
};

static int n;

static void probe(const char *dir, const Row *r, const char *stmt)
{
	FILE *f = probe_open(dir, &n);
	fprintf(f, "// case: %s %s: %s\n.version 9.0\n.target %s\n.address_size 64\n"
		".visible .entry k(.param .u64 pa)\n{\n\t.reg .b32 %%r<12>;\n\t.reg .b64 %%rd<8>;\n"
		"\t.reg .pred %%p<4>;\n\t.reg .f32 %%f<12>;\n\t.reg .f64 %%fd<4>;\n\t.reg .b16 %%h<4>;\n"
		"\t.shared .align 16 .b8 smem[64];\n\t%s;\n\tret;\n}\n", r->opcode, r->noun, stmt,
		*r->target ? r->target : "sm_90a", stmt);
	probe_close(f);
}

/* The first modifier of the example's head that is a word of the class,
 * its length in *len: a second one goes after it, a needed one is dropped. */
static const char *class_word(const Row *r, size_t *out_len)
{
	/* an instruction without operands (membar.gl) is all head */
	const char *head_end = strchr(r->example, ' ');
	if (!head_end)
		head_end = r->example + strlen(r->example);
	for (const char *p = strchr(r->example, '.'); p && p < head_end; p = strchr(p + 1, '.')) {
		size_t len = strcspn(p + 1, ". ") + 1;
		for (const char *w = r->words; *w; w += strspn(w, " ")) {
			size_t wl = strcspn(w, " ");
			if (wl == len && strncmp(w, p, len) == 0) {
				*out_len = len;
				return p;
			}
			w += wl;
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen_class_probes DIR\n");
		return 2;
	}
	char stmt[512];
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const Row *r = &rows[i];
		size_t len = 0;
		const char *word = class_word(r, &len);
		if (!word) {
			fprintf(stderr, "row %zu (%s %s): the example has no word of the class\n", i, r->opcode, r->noun);
			return 2;
		}
		const char *at = word + len;
		probe(argv[1], r, r->example);
		if (r->needed) {
			snprintf(stmt, sizeof stmt, "%.*s%s", (int)(word - r->example), r->example, at);
			probe(argv[1], r, stmt);
		}
		for (const char *w = r->words; *w; w += strspn(w, " ")) {
			size_t wl = strcspn(w, " ");
			snprintf(stmt, sizeof stmt, "%.*s%.*s%s", (int)(at - r->example), r->example, (int)wl, w, at);
			probe(argv[1], r, stmt);
			w += wl;
		}
	}
	printf("%d probes\n", n);
	return 0;
}
