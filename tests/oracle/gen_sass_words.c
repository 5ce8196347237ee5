/* Oracle-test generator for tests/oracle/sass-forms.sh: random valid field
 * values for one form of the sm_50 table, encoded into a raw code stream
 * (with random valid control slots), plus our own disassembly of it. The
 * script feeds the stream to nvdisasm and compares the two listings.
 *
 *   gen_sass_words --list                      form names, one per line
 *   gen_sass_words FORM COUNT SEED OUT.bin OUT.txt
 */
#include "sm50/sass_ctrl.h"
#include "sm50/sass_disasm.h"
#include "sm50/sass_encode.h"
#include "sm50/sass_table.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

/* xorshift64*: fast, seedable, good enough to spread field values. */
static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * UINT64_C(2685821657736338717);
}

static int64_t random_value(const SassField *fld)
{
	unsigned bits = (unsigned)fld->width + fld->hi_width;
	for (;;) {
		uint64_t raw = rng() & ((UINT64_C(1) << bits) - 1);
		/* Small magnitudes and the special registers are where the
		 * spelling changes (zero offsets, RZ, PT), so favour them. */
		switch (rng() % 8) {
		case 0: raw = 0; break;
		case 1: raw &= 0xf; break;
		case 2: raw = ~UINT64_C(0); break;
		default: break;
		}
		raw &= (UINT64_C(1) << bits) - 1;
		int64_t value = (int64_t)raw;
		if (fld->kind == SASS_FK_SIMM) {
			uint64_t sign = UINT64_C(1) << (bits - 1);
			value = (int64_t)(raw ^ sign) - (int64_t)sign;
		}
		if (sass_field_accepts(fld, value))
			return value;
	}
}

static uint32_t random_slot(const SassForm *f)
{
	bool plain = rng() % 4 == 0;      /* the "text;" case: only reuse flags */
	for (;;) {
		uint32_t slot = (uint32_t)rng() & 0x1fffff;
		if (plain)
			slot = (slot & ~(uint32_t)SASS_CTRL_SCHED_MASK) | 0x7e0;
		/* VMAD may carry barriers only in some formats (ptxas sets them on
		 * the 32-bit ones; nvdisasm refuses them on others): random
		 * words keep to its barrier-free slots */
		if (f->op == SOP_VMAD && (((slot >> 5) & 7) != 7 || ((slot >> 8) & 7) != 7))
			continue;
		if (sass_slot_allowed(f, slot))
			return slot;
	}
}

static void store_le64(uint8_t *p, uint64_t w)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(w >> (8 * i));
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (size_t i = 0; i < sass_form_count; i++)
			printf("%s\n", sass_forms[i].name);
		return 0;
	}
	if (argc != 6) {
		fprintf(stderr, "usage: %s --list | FORM COUNT SEED OUT.bin OUT.txt\n", argv[0]);
		return 2;
	}
	const SassForm *f = sass_form_by_name(argv[1]);
	if (f == NULL) {
		fprintf(stderr, "unknown form %s\n", argv[1]);
		return 2;
	}
	size_t count = strtoul(argv[2], NULL, 0);
	rng_state = strtoull(argv[3], NULL, 0) * UINT64_C(0x9e3779b97f4a7c15) + 1;
	size_t groups = (count + 2) / 3;
	size_t nbytes = groups * 32;
	uint8_t *code = calloc(nbytes ? nbytes : 1, 1);
	if (code == NULL)
		return 2;

	for (size_t g = 0; g < groups; g++) {
		uint32_t slots[3];
		for (int i = 0; i < 3; i++) {
			SassValues vals;
			sass_values_clear(&vals);
			for (unsigned j = 0; j < f->nfields; j++)
				sass_values_set(&vals, f->fields[j].role, random_value(&f->fields[j]));
			/* CAS operands at or past R255 print as ???255 with a column
			 * layout of nvdisasm's own; ptxas never writes them */
			while (sass_form_field(f, SR_CAS64) &&
			       sass_values_get(&vals, SR_RB, 0) + (sass_values_get(&vals, SR_CAS64, 0) ? 2 : 1) >= 255)
				sass_values_set(&vals, SR_RB, random_value(sass_form_field(f, SR_RB)));
			uint64_t word;
			char err[160];
			if (sass_encode(f, &vals, &word, err, sizeof err) != 0) {
				fprintf(stderr, "encode failed: %s\n", err);
				return 1;
			}
			slots[i] = random_slot(f);
			store_le64(code + 32 * g + 8 * (i + 1), word);
		}
		store_le64(code + 32 * g, sass_ctrl_pack_word(slots));
	}

	FILE *bin = fopen(argv[4], "wb");
	FILE *txt = fopen(argv[5], "w");
	if (bin == NULL || txt == NULL || fwrite(code, 1, nbytes, bin) != nbytes) {
		fprintf(stderr, "cannot write %s / %s\n", argv[4], argv[5]);
		return 2;
	}
	char err[200];
	int rc = sass_disasm_stream(code, nbytes, 0, txt, err, sizeof err);
	if (rc != 0)
		fprintf(stderr, "our disassembler: %s\n", err);
	fclose(bin);
	fclose(txt);
	free(code);
	return rc != 0;
}
