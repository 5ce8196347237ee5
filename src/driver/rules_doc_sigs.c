/* The operand-signature section of the rules reference (docs/rules.md):
 * every row of isa/operand_sigs.def, its role letters spelled out, so the
 * reference states exactly what rule operand-type checks. */
#include "driver/rules_doc.h"

#include <string.h>

typedef struct SigRow {
	const char *opcode, *form, *roles;
	char rounding, sat;
} SigRow;

static const SigRow sig_rows[] = {
#define OPSIG(opcode, form, roles, rounding, sat) { opcode, form, roles, rounding, sat },
#include "isa/operand_sigs.def"
};

typedef struct TypeRow {
	const char *opcode, *form, *types;
	char wording;
} TypeRow;

static const TypeRow type_rows[] = {
#define OPTYPES(opcode, form, types, wording) { opcode, form, types, wording },
#include "isa/operand_sigs.def"
};

typedef struct HalfDocRow {
	const char *opcode, *types, *roundings;
	char required;
	const char *takes;
} HalfDocRow;

static const HalfDocRow half_rows[] = {
#define HALF(opcode, types, roundings, required, takes) { opcode, types, roundings, required, takes },
#include "isa/operand_sigs.def"
};

typedef struct CountDocRow {
	const char *opcode, *form;
	int count;
} CountDocRow;

static const CountDocRow count_rows[] = {
#define TYPECOUNT(opcode, form, count) { opcode, form, count },
#include "isa/operand_sigs.def"
};

typedef struct VideoDocRow {
	const char *opcode;
	char shape;
} VideoDocRow;

static const VideoDocRow video_rows[] = {
#define VIDEO(opcode, shape) { opcode, shape },
#include "isa/operand_sigs.def"
};

typedef struct MmaDocRow {
	const char *atype, *shapes;
} MmaDocRow;

static const MmaDocRow mma_rows[] = {
#define MMASHAPE(atype, shapes) { atype, shapes },
#include "isa/operand_sigs.def"
};

/* One word per role letter; the legend below the table says more. */
static const char *role_word(char role)
{
	switch (role) {
	case 'd': return "result";
	case 's': return "source";
	case 'W': return "result (2x)";
	case 'w': return "source (2x)";
	case 'u': return "32-bit int";
	case 'U': return "32-bit int result";
	case 'i': return "integer immediate";
	case 'r': return "32-bit int register";
	case 'P': return "pred result";
	case 'p': return "pred";
	case 'a': return "address";
	case 'L': return "label";
	case 'c': return "result (first type)";
	case 'D': return "result (first type, exact)";
	case 'C': return "source (last type)";
	case 'l': return "loaded value";
	default: return "-";
	}
}

static const char *rounding_text(char r)
{
	switch (r) {
	case 'C': return "cvt rule";
	case 'I': return "none on integer types";
	case 'L': return "none; integer types only";
	case 'F': return ".f32/.f64 need one";
	case 'A': return "float: one, or .approx";
	case 'D': return "float: one, .approx or .full";
	case 'X': return ".approx (PTX ISA 1.4 on)";
	case 'M': return "integer types need .lo/.hi/.wide";
	case 'N': return "integer types need .lo/.hi/.wide; float need one";
	default: return "-";
	}
}

static const char *sat_text(char s)
{
	switch (s) {
	case 'A': return ".s32 and floats but .f64";
	case 'F': return "floats but .f64";
	case 'C': return "when the conversion can overflow";
	case 'N': return "never";
	default: return "-";
	}
}

void rules_doc_operand_sigs(FILE *out)
{
	fputs("## Operand signatures\n\n"
	      "What rule `operand-type` checks of each operand, one row per opcode form of\n"
	      "`src/isa/operand_sigs.def` (the first row whose form the instruction has decides).\n"
	      "*result*/*source*: a register of the instruction type (same width; same kind or\n"
	      ".bN), a source may be an immediate of the type's kind; *2x*: twice the type's\n"
	      "width (mul.wide); *32-bit int*: a 32-bit integer or .b32 register or an integer\n"
	      "immediate (*32-bit int register*: no immediate); *pred*: a .pred register; *first/last type*, *loaded value*: a register\n"
	      "that holds the type (wider integer and .bN registers too); *address*: a memory\n"
	      "address [...], *label*: a label (both whatever the types); *-*: not judged here;\n"
	      "*first type, exact*: a result of the first type by the *result* rule (set.dtype.stype).\n"
	      "No judged source is an address [...].\n"
	      "*Rounding* and *.sat* say which rounding modifiers and which types with `.sat` the\n"
	      "form takes. tests/sig-cases.sh derives a pass and fail case from every row.\n\n"
	      "| opcode | form | operands | rounding | .sat |\n"
	      "| --- | --- | --- | --- | --- |\n", out);
	for (size_t i = 0; i < sizeof sig_rows / sizeof sig_rows[0]; i++) {
		const SigRow *r = &sig_rows[i];
		fprintf(out, "| `%s` | %s%s%s | ", r->opcode, r->form[0] ? "`" : "", r->form[0] ? r->form : "any",
			r->form[0] ? "`" : "");
		for (const char *p = r->roles; *p; p++)
			fprintf(out, "%s%s", p == r->roles ? "" : ", ", role_word(*p));
		fprintf(out, " | %s | %s |\n", rounding_text(r->rounding), sat_text(r->sat));
	}
	fputs("\nForms that take only some types:\n\n"
	      "| opcode | form | types |\n"
	      "| --- | --- | --- |\n", out);
	for (size_t i = 0; i < sizeof type_rows / sizeof type_rows[0]; i++)
		fprintf(out, "| `%s` | `%s` | %s |\n", type_rows[i].opcode, type_rows[i].form, type_rows[i].types);
	fputs("\nRoundings, `.sat` and `.ftz` with 16-bit float types (`.relu` never with `.sat`):\n\n"
	      "| opcode | types | roundings | rounding needed | takes |\n"
	      "| --- | --- | --- | --- | --- |\n", out);
	for (size_t i = 0; i < sizeof half_rows / sizeof half_rows[0]; i++)
		fprintf(out, "| `%s` | %s | %s | %s | %s |\n", half_rows[i].opcode, half_rows[i].types, half_rows[i].roundings,
			half_rows[i].required == 'R' ? "yes" : "no", half_rows[i].takes[0] ? half_rows[i].takes : "-");
	fputs("\nForms that name exactly so many types:\n\n"
	      "| opcode | form | types |\n"
	      "| --- | --- | --- |\n", out);
	for (size_t i = 0; i < sizeof count_rows / sizeof count_rows[0]; i++)
		fprintf(out, "| `%s` | %s%s%s | %d |\n", count_rows[i].opcode, count_rows[i].form[0] ? "`" : "",
			count_rows[i].form[0] ? count_rows[i].form : "any", count_rows[i].form[0] ? "`" : "", count_rows[i].count);
	fputs("\nScalar video instructions: a destination selector or a secondary operation needs operand c, "
	      "not both; c takes no selector; vmad takes no destination selector; vshl and vshr shift by a .u32:\n\n"
	      "| opcode | shape |\n"
	      "| --- | --- |\n", out);
	for (size_t i = 0; i < sizeof video_rows / sizeof video_rows[0]; i++)
		fprintf(out, "| `%s` | %s |\n", video_rows[i].opcode, video_rows[i].shape == 'M' ? "vmad: no selector on d or c" :
			video_rows[i].shape == 'H' ? "selectors and c as the others; third type .u32" :
			video_rows[i].shape == '2' ? "SIMD: d mask .h0/.h1/.h10, a and b .hxy (0-3), no .sat with .add" :
			video_rows[i].shape == '4' ? "SIMD: d mask .b3210 or lanes descending, a and b .bxyzw (0-7), "
			"no .sat with .add" :
			"selector on d or secondary operation needs c, not both");
	fputs("\nShapes of mma.sync (not .sp, .kind or .block_scale) by the A type:\n\n"
	      "| A type | shapes |\n"
	      "| --- | --- |\n", out);
	for (size_t i = 0; i < sizeof mma_rows / sizeof mma_rows[0]; i++)
		fprintf(out, "| `%s` | %s |\n", mma_rows[i].atype, mma_rows[i].shapes);
	fputc('\n', out);
}
