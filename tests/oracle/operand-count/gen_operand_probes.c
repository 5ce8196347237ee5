/* Writes the boundary probes of every row of src/operand_counts.def into
 * DIR: the row's example cut to min-1 and min operands and grown to max and
 * max+1 (the last operand repeated). Each file starts with
 * "// case: <row> <opcode> [<mods>] <n> operands (<verdict the row gives>)"
 * for tests/oracle/operand-count-diff.sh, which compares ptxas 13 with
 * ptxsurf-as on them.
 *
 * Build from the repository root: cc -std=c11 -iquote src -o gen
 * tests/oracle/operand-count/gen_operand_probes.c; run: gen DIR. */
#include <stdio.h>
#include <string.h>

typedef struct Row {
	const char *opcode, *mods;
	int min, max;
	const char *target, *example;
} Row;

static const Row rows[] = {
#define OPERANDS(op, mods, min, max, target, source, example) { op, mods, min, max, target, example },
#define NAMED(op, words)
#include "operand_counts.def"
#undef OPERANDS
#undef NAMED
};

enum { MAXOPS = 16 };

/* Splits "head a, {b, c}, [d]" at its top-level commas: the operand texts
 * go to ops[] (pointers into buf), the instruction head to *head. */
static int split(char *buf, char **head, char *ops[MAXOPS])
{
	char *p = strchr(buf, ' ');
	*head = buf;
	if (!p)
		return 0;
	*p++ = 0;
	int n = 0, depth = 0;
	ops[n++] = p;
	for (; *p; p++) {
		if (*p == '{' || *p == '[' || *p == '(')
			depth++;
		else if (*p == '}' || *p == ']' || *p == ')')
			depth--;
		else if (*p == ',' && depth == 0 && n < MAXOPS) {
			*p = 0;
			while (p[1] == ' ')
				p++;
			ops[n++] = p + 1;
		}
	}
	return n;
}

/* An example "MAX || MIN" gives the min form separately, for rows whose
 * shorter form is not a prefix of the longer one. */
static int write_probe(const char *dir, size_t row, const Row *r, int count)
{
	char buf[1024], path[4096];
	char *head, *ops[MAXOPS];
	const char *alt = strstr(r->example, " || ");
	int use_min = alt && count <= r->min;
	if (use_min)
		snprintf(buf, sizeof buf, "%s", alt + 4);
	else
		snprintf(buf, sizeof buf, "%.*s", alt ? (int)(alt - r->example) : (int)strlen(r->example), r->example);
	int n = split(buf, &head, ops), want = use_min ? r->min : r->max;
	if (n != want) {
		fprintf(stderr, "row %zu (%s %s): example has %d operands, expected %d\n", row, r->opcode, r->mods, n, want);
		return 1;
	}
	snprintf(path, sizeof path, "%s/row%03zu-%s-%d.ptx", dir, row, r->opcode, count);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	fprintf(f, "// case: row%03zu %s [%s] %d operands (table: %s)\n", row, r->opcode, r->mods, count,
		count >= r->min && count <= r->max ? "accept" : "reject");
	fprintf(f, ".version 9.0\n.target %s\n.address_size 64\n.global .texref tex0;\n", *r->target ? r->target : "sm_75");
	fprintf(f, ".visible .entry k()\n{\n.reg .b32 %%r<20>;\n.reg .b64 %%rd<20>;\n.reg .pred %%p<8>;\n"
		".reg .f32 %%f<20>;\n.reg .f64 %%fd<20>;\n.reg .b16 %%h<20>;\n.shared .align 16 .b8 smem[1024];\n"
		"L0:\nts: .branchtargets L0;\n%s", head);
	for (int i = 0; i < count; i++)
		fprintf(f, "%s %s", i ? "," : "", i < n ? ops[i] : n ? ops[n - 1] : "%r1");
	fprintf(f, ";\nret;\n}\n");
	return fclose(f) != 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	int bad = 0, files = 0;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const Row *r = &rows[i];
		int counts[] = { r->min - 1, r->min, r->max, r->max + 1 };
		for (size_t k = 0; k < 4; k++) {
			if (counts[k] < 0 || (k == 2 && r->max == r->min))
				continue;
			bad |= write_probe(argv[1], i, r, counts[k]);
			files++;
		}
	}
	printf("%d probes\n", files);
	return bad;
}
