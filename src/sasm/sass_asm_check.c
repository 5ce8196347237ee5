/* Checks on a matched instruction that the field ranges do not catch:
 * offsets aligned to the access size (NVIDIA: misaligned addresses are
 * forced down to the access size, so a misaligned constant offset is an
 * error), 64-bit and 128-bit data in aligned register pairs and quads, the
 * .E address in an aligned pair. */
#include "sasm/sass_asm_internal.h"

#include <inttypes.h>

/* Bytes of a memory access by the size field's value (U8 ... 128). */
static unsigned access_bytes(int64_t size)
{
	static const unsigned bytes[] = { 1, 1, 2, 2, 4, 8, 16, 16 };
	return size >= 0 && size < 8 ? bytes[size] : 4;
}

static void check_reg_group(const SasmInsn *in, SassRole r, unsigned count, const char *what, DiagSink *d)
{
	int64_t reg = sass_values_get(&in->vals, r, 255);
	if (count < 2 || reg == 255 || reg % count == 0)
		return;
	diag_add(d, SEV_ERROR, in->stmt->loc, RULE_SASS_REGALIGN,
	         "%s: the %s R%d is not %s-aligned: a %s starts at a register number divisible by %u",
	         sass_op_mnemonic(in->form->op), what, (int)reg, count == 2 ? "pair" : "quad",
	         count == 2 ? "register pair" : "register quad", count);
}

void sasm_check_insn(const SasmInsn *in, DiagSink *d)
{
	const SassForm *f = in->form;
	bool global = f->op == SOP_STG || f->op == SOP_LDG;
	bool has_size = sass_form_field(f, SR_SIZE) != NULL;
	int64_t size = sass_values_get(&in->vals, SR_SIZE, 4);
	unsigned bytes = access_bytes(size);
	if (global) {
		int64_t off = sass_values_get(&in->vals, SR_IMM, 0);
		if (sass_values_get(&in->vals, SR_RA, 255) == 255)
			off &= 0xffffff;
		if (off % (int64_t)bytes != 0)
			diag_add(d, SEV_ERROR, in->stmt->loc, RULE_SASS_ALIGN,
			         "%s: offset %s0x%" PRIx64 " is not a multiple of the %u-byte access size "
			         "(the hardware would align the address down)",
			         sass_op_mnemonic(f->op), off < 0 ? "-" : "", (uint64_t)(off < 0 ? -off : off), bytes);
		if (sass_values_get(&in->vals, SR_E, 0))
			check_reg_group(in, SR_RA, 2, "64-bit address register", d);
	}
	if (f->op == SOP_LDC) {
		int64_t off = sass_values_get(&in->vals, SR_COFF, 0);
		if (off % (int64_t)bytes != 0)
			diag_add(d, SEV_ERROR, in->stmt->loc, RULE_SASS_ALIGN,
			         "LDC: constant offset 0x%" PRIx64 " is not a multiple of the %u-byte access size",
			         (uint64_t)off, bytes);
	}
	if (!has_size || bytes < 8)
		return;
	unsigned count = bytes / 4;
	if (sass_form_field(f, SR_RD))
		check_reg_group(in, SR_RD, count, "destination", d);
	else
		check_reg_group(in, SR_RB, count, "data register", d);
}
