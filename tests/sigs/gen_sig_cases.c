/* Derives pass and fail cases from the rows of src/isa/operand_sigs.def:
 * for each OPSIG row the valid example of the same instruction form in
 * src/isa/operand_counts.def is the pass case, and each operand the row's
 * role letters judge, swapped for a register of the wrong width or kind
 * (or, when written, an immediate; a judged source for an address [%rd9];
 * an address for a register, a label for a register), is a fail case;
 * for each OPTYPES row
 * the example with a type the row does not list is a fail case. One file
 * per case in DIR, starting with
 *   "// case: <row> <opcode> [<form>] <what changed> (table: accept|reject)"
 * for tests/sig-cases.sh, which checks ptxsurf-as (and ptxas 13 when
 * present) against the verdicts the table gives.
 *
 * Build from the repository root: cc -std=c11 -iquote src -o gen
 * tests/sigs/gen_sig_cases.c; run: gen DIR. */
#include <stdio.h>
#include <string.h>

typedef struct Sig {
	const char *opcode, *form, *roles;
	char rounding, sat;
} Sig;

static const Sig sigs[] = {
#define OPSIG(opcode, form, roles, rounding, sat) { opcode, form, roles, rounding, sat },
#include "isa/operand_sigs.def"
};

typedef struct FormTypes {
	const char *opcode, *form, *types;
	char wording;
} FormTypes;

static const FormTypes form_types[] = {
#define OPTYPES(opcode, form, types, wording) { opcode, form, types, wording },
#include "isa/operand_sigs.def"
};

typedef struct Example {
	const char *opcode, *mods, *target, *example;
} Example;

static const Example examples[] = {
#define OPERANDS(op, mods, min, max, target, source, example) { op, mods, target, example },
#define NAMED(op, words)
#include "isa/operand_counts.def"
#undef OPERANDS
#undef NAMED
};

enum { NSIGS = sizeof sigs / sizeof sigs[0], NEXAMPLES = sizeof examples / sizeof examples[0], MAXOPS = 16 };

/* True if the instruction head "op.a.b" has the modifier word w (".a"). */
static int head_has(const char *head, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = strchr(head, '.'); p; p = strchr(p + 1, '.'))
		if (strncmp(p, w, n) == 0 && (p[n] == '.' || p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

/* The OPSIG row an instruction head selects: the opcode's first row whose
 * form it has (as check_signature.c picks it). */
static int sig_of_head(const char *opcode, const char *head)
{
	for (int i = 0; i < NSIGS; i++)
		if (strcmp(sigs[i].opcode, opcode) == 0 && (!sigs[i].form[0] || head_has(head, sigs[i].form)))
			return i;
	return -1;
}

/* Splits "head a, {b, c}, [d]" at its top-level commas (as the
 * operand-count probe generator does). */
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

/* The example of operand_counts.def for a row: the last instruction (the
 * opcode's rows go from the most specific form to the general one) whose
 * head selects exactly this OPSIG row (its longer form, before " || "). */
static int example_of(int sig, char *buf, size_t size)
{
	for (int i = NEXAMPLES - 1; i >= 0; i--) {
		const Example *e = &examples[i];
		if (strcmp(e->opcode, sigs[sig].opcode) != 0)
			continue;
		const char *alt = strstr(e->example, " || ");
		snprintf(buf, size, "%.*s", alt ? (int)(alt - e->example) : (int)strlen(e->example), e->example);
		char head[256];
		snprintf(head, sizeof head, "%.*s", (int)strcspn(buf, " "), buf);
		if (sig_of_head(sigs[sig].opcode, head) == sig)
			return i;
	}
	return -1;
}

/* The register class of a plain register operand ("%rd3" -> "rd"), or
 * NULL for anything else (immediates, vectors, addresses, %r1|%p1). */
static const char *reg_class(const char *op)
{
	static const char *const classes[] = { "rd", "fd", "r", "f", "h", "p", "b" };
	if (op[0] == '!')
		op++;
	if (op[0] != '%')
		return NULL;
	for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
		size_t n = strlen(classes[i]);
		if (strncmp(op + 1, classes[i], n) == 0 && op[1 + n] >= '0' && op[1 + n] <= '9' &&
		    strspn(op + 1 + n, "0123456789") == strlen(op + 1 + n))
			return classes[i];
	}
	return NULL;
}

/* The register of the wrong width or kind for a role: exact roles get
 * the other width, relaxed ones (c, C, l take wider registers) a narrower
 * one, predicate roles a .b32 register. NULL: no swap. */
static const char *wrong_register(char role, const char *cls)
{
	if (role == 'P' || role == 'p')
		return strcmp(cls, "p") == 0 ? "%r9" : NULL;
	int relaxed = role == 'c' || role == 'C' || role == 'l';
	static const struct { const char *cls, *exact, *narrower; } swaps[] = {
		{ "r", "%rd9", "%h9" }, { "rd", "%r9", "%r9" }, { "f", "%fd9", "%h9" }, { "fd", "%f9", "%f9" },
		{ "h", "%r9", "%b9" }, { "p", "%r9", "%r9" },
	};
	for (size_t i = 0; i < sizeof swaps / sizeof swaps[0]; i++)
		if (strcmp(cls, swaps[i].cls) == 0)
			return relaxed ? swaps[i].narrower : swaps[i].exact;
	return NULL;
}

static int written(char role)
{
	return strchr("dDWUPcl", role) != NULL;
}

static int ncases;

static int write_case(const char *dir, const char *target, const char *desc, int accept, const char *head,
		      char *ops[], int n, int at, const char *with)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/case%04d.ptx", dir, ncases++);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	fprintf(f, "// case: %s (table: %s)\n", desc, accept ? "accept" : "reject");
	fprintf(f, ".version 9.0\n.target %s\n.address_size 64\n.global .texref tex0;\n", *target ? target : "sm_80");
	fprintf(f, ".visible .entry k()\n{\n.reg .b32 %%r<20>;\n.reg .b64 %%rd<20>;\n.reg .pred %%p<20>;\n"
		".reg .f32 %%f<20>;\n.reg .f64 %%fd<20>;\n.reg .b16 %%h<20>;\n.reg .b8 %%b<20>;\n"
		".shared .align 16 .b8 smem[1024];\n.global .align 16 .b8 gmem[1024];\n");
	fprintf(f, "%s", head);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s %s", i ? "," : "", i == at ? with : ops[i]);
	fprintf(f, ";\nL0:\nret;\n}\n");   /* L0: bra's example's target */
	return fclose(f) != 0;
}

static int sig_cases(const char *dir, int sig)
{
	char buf[1024], desc[1400], with[32];
	char *head, *ops[MAXOPS];
	const Sig *s = &sigs[sig];
	int ex = example_of(sig, buf, sizeof buf);
	if (ex < 0)
		return 0;
	int n = split(buf, &head, ops), bad = 0;
	snprintf(desc, sizeof desc, "sig%03d %s [%s] example", sig, s->opcode, s->form);
	bad |= write_case(dir, examples[ex].target, desc, 1, head, ops, n, -1, "");
	for (int i = 0; i < n && s->roles[i]; i++) {
		char role = s->roles[i];
		const char *cls = reg_class(ops[i]);
		if (role == 'a' && ops[i][0] == '[') {
			/* an address letter: the address's register without [] */
			snprintf(desc, sizeof desc, "sig%03d %s [%s] operand %d 'a': %%rd9 for %s", sig, s->opcode, s->form, i + 1,
				ops[i]);
			bad |= write_case(dir, examples[ex].target, desc, 0, head, ops, n, i, "%rd9");
			continue;
		}
		if (role == 'L') {
			/* a label letter: a register in its place */
			snprintf(desc, sizeof desc, "sig%03d %s [%s] operand %d 'L': %%r9 for %s", sig, s->opcode, s->form, i + 1,
				ops[i]);
			bad |= write_case(dir, examples[ex].target, desc, 0, head, ops, n, i, "%r9");
			continue;
		}
		if (role != '-' && !written(role) && cls) {
			/* no judged source is an address */
			snprintf(desc, sizeof desc, "sig%03d %s [%s] operand %d '%c': [%%rd9] for %s", sig, s->opcode, s->form,
				i + 1, role, ops[i]);
			bad |= write_case(dir, examples[ex].target, desc, 0, head, ops, n, i, "[%rd9]");
		}
		if (role == '-' || !cls)
			continue;
		const char *reg = wrong_register(role, cls);
		if (reg) {
			snprintf(with, sizeof with, "%s%s", ops[i][0] == '!' ? "!" : "", reg);
			snprintf(desc, sizeof desc, "sig%03d %s [%s] operand %d '%c': %s for %s", sig, s->opcode, s->form, i + 1,
				role, with, ops[i]);
			bad |= write_case(dir, examples[ex].target, desc, 0, head, ops, n, i, with);
		}
		if (written(role)) {
			snprintf(desc, sizeof desc, "sig%03d %s [%s] operand %d '%c': 1 for %s", sig, s->opcode, s->form, i + 1,
				role, ops[i]);
			bad |= write_case(dir, examples[ex].target, desc, 0, head, ops, n, i, "1");
		}
	}
	return bad;
}

/* The scalar type words an example may carry. */
static int is_type_word(const char *w)
{
	static const char *const types[] = { "b32", "b64", "u32", "u64", "s32", "s64", "f32", "f64" };
	for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
		if (strcmp(w, types[k]) == 0)
			return 1;
	return 0;
}

/* OPTYPES rows: the opcode's general example (its last one in
 * operand_counts.def, atom.global.add.u32) with the row's form for its
 * operation word (vote's mode word likewise); given the listed type of the example type's width it
 * is a pass case, with the example's own type (when unlisted) a fail case. */
static int form_type_cases(const char *dir, size_t row)
{
	const FormTypes *t = &form_types[row];
	/* the example of the row's form (atom.cas), else the general one */
	int ex = -1;
	for (int i = 0; i < NEXAMPLES; i++)
		if (strcmp(examples[i].opcode, t->opcode) == 0 && (ex < 0 || strcmp(examples[ex].mods, t->form) != 0))
			ex = i;
	if (ex < 0)
		return 0;
	char buf[1024], words[512], desc[1400];
	char *head, *ops[MAXOPS];
	snprintf(buf, sizeof buf, "%.*s", (int)strcspn(examples[ex].example, "|"), examples[ex].example);
	int n = split(buf, &head, ops), bad = 0;
	for (int listed = 1; listed >= 0; listed--) {
		char out[1024];
		snprintf(words, sizeof words, "%s", head);
		snprintf(out, sizeof out, "%s", t->opcode);
		int usable = 1, typed = 0;
		for (char *w = strtok(words + strlen(t->opcode), "."); w; w = strtok(NULL, ".")) {
			static const char *const op_words[] = { "add", "inc", "dec", "min", "max", "exch", "cas", "and", "or", "xor",
				"all", "any", "uni", "ballot" };
			int is_op = 0;
			for (size_t k = 0; k < sizeof op_words / sizeof op_words[0]; k++)
				is_op |= strcmp(w, op_words[k]) == 0;
			char type[8] = "";
			if (is_type_word(w)) {
				typed = 1;
				/* the listed type of this width (".b32" of ".b32 .b64" for u32) */
				for (const char *p = t->types; *p; p += strspn(p, " ")) {
					size_t len = strcspn(p, " ");
					if (len == strlen(w) + 1 && strncmp(p + 2, w + 1, len - 2) == 0)
						snprintf(type, sizeof type, "%.*s", (int)len - 1, p + 1);
					p += len;
				}
				char dotted[8];
				snprintf(dotted, sizeof dotted, ".%s", w);
				if (!listed && strstr(t->types, dotted))
					usable = 0;
				if (listed && !type[0])
					usable = 0;
			}
			strcat(out, ".");
			strcat(out, is_op ? t->form + 1 : is_type_word(w) && listed ? type : w);
		}
		/* an example without a type word the table knows (vote's .pred)
		 * gives no pass case */
		if (!usable || (listed && !typed))
			continue;
		snprintf(desc, sizeof desc, "types%02zu %s [%s] %s", row, t->opcode, t->form, listed ? "listed type" :
			"unlisted type");
		bad |= write_case(dir, examples[ex].target, desc, listed, out, ops, n, -1, "");
	}
	return bad;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	int bad = 0, rows_with_cases = 0;
	for (int i = 0; i < NSIGS; i++) {
		int before = ncases;
		bad |= sig_cases(argv[1], i);
		rows_with_cases += ncases > before;
	}
	for (size_t i = 0; i < sizeof form_types / sizeof form_types[0]; i++)
		bad |= form_type_cases(argv[1], i);
	printf("%d cases from %d of %d OPSIG rows and %zu OPTYPES rows\n", ncases, rows_with_cases, NSIGS,
		sizeof form_types / sizeof form_types[0]);
	return bad;
}
