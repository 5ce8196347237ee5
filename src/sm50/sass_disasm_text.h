/* The text builder and the operand spellings the sm_50 printers share
 * (sass_disasm.c and the per-family printer files): nvdisasm's way of
 * writing registers, predicates, reuse flags, constants and operand B.
 * Static inline: each printer file gets its own copy and no short global
 * names (put, get) leak into the program. */
#ifndef PTXSURF_SASS_DISASM_TEXT_H
#define PTXSURF_SASS_DISASM_TEXT_H

#include "sm50/sass_ctrl.h"
#include "sm50/sass_encode.h"
#include "sm50/sass_float.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

/* ---- a bounded string builder ------------------------------------------- */

typedef struct Text {
	char *buf;
	size_t cap, len;
	bool overflow;
} Text;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static inline void put(Text *t, const char *fmt, ...)
{
	if (t->overflow)
		return;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	if (k < 0 || (size_t)k >= t->cap - t->len)
		t->overflow = true;
	else
		t->len += (size_t)k;
}

/* ---- operands and modifiers --------------------------------------------- */

static inline int64_t get(const SassValues *v, SassRole r)
{
	return sass_values_get(v, r, 0);
}

/* The spelling of enum value `value`: its name, or the fallback spelling.
 * Values the decoder would reject (possible only when the caller built the
 * values by hand) print as "?n" rather than crash. */
static inline void put_enum_value(Text *t, const SassEnum *e, unsigned value, const char *dot)
{
	if (value < e->count && e->names[value] != NULL) {
		if (e->names[value][0] != '\0')
			put(t, "%s%s", dot, e->names[value]);
	} else if (e->fallback != NULL) {
		char tmp[48];
		snprintf(tmp, sizeof tmp, e->fallback, value);
		put(t, "%s%s", dot, tmp);
	} else {
		put(t, "%s?%u", dot, value);
	}
}

/* ".NAME" of the form's enum field with role r; nothing for the default. */
static inline void put_enum(Text *t, const SassForm *f, const SassValues *v, SassRole r)
{
	const SassField *fld = sass_form_field(f, r);
	if (fld != NULL)
		put_enum_value(t, fld->values, (unsigned)get(v, r), ".");
}

static inline void put_flag(Text *t, const SassValues *v, SassRole r, const char *text)
{
	if (get(v, r))
		put(t, "%s", text);
}

/* an f32 as nvdisasm spells it (255, 0.5, +INF, 1.0000001e-05...) */
static inline void put_float(Text *t, uint32_t bits)
{
	char tmp[48];
	sass_float_text(bits, tmp, sizeof tmp);
	put(t, "%s", tmp);
}

static inline void put_reg(Text *t, int64_t reg)
{
	if (reg == 255)
		put(t, "RZ");
	else
		put(t, "R%d", (int)reg);
}

static inline void put_pred(Text *t, int64_t pred, bool negated)
{
	put(t, "%s", negated ? "!" : "");
	if (pred == 7)
		put(t, "PT");
	else
		put(t, "P%d", (int)pred);
}

/* Hex with a leading minus for negative values, as nvdisasm writes them. */
static inline void put_signed_hex(Text *t, int64_t value)
{
	if (value < 0)
		put(t, "-0x%" PRIx64, (uint64_t)0 - (uint64_t)value);
	else
		put(t, "0x%" PRIx64, (uint64_t)value);
}

static inline void put_reuse(Text *t, uint32_t slot, unsigned operand)
{
	SassCtrl c;
	sass_ctrl_unpack_slot(slot, &c);
	if ((c.reuse >> operand) & 1)
		put(t, ".reuse");
}

enum { REUSE_A = 0, REUSE_B = 1, REUSE_C = 2 };

/* c[bank][offset] of an ALU operand: the offset field counts 4-byte words.
 * XMAD's B operand is printed with a space between the brackets. */
static inline void put_const(Text *t, const SassValues *v, const char *gap)
{
	put(t, "c[0x%x]%s[", (unsigned)get(v, SR_CBANK), gap);
	put_signed_hex(t, get(v, SR_COFF) * 4);
	put(t, "]");
}

/* Operand B of the _R/_C/_I ALU forms. A negated or inverted register or
 * constant gets a prefix ("-", "~"); an immediate keeps its value and gets
 * a suffix instead (".NEG", ".INV"). */
static inline void put_b(Text *t, const SassForm *f, const SassValues *v, uint32_t slot,
                  bool modified, const char *prefix, const char *suffix)
{
	switch (f->bkind) {
	case SASS_B_REG:
	case SASS_B_RC:
		put(t, ", %s", modified ? prefix : "");
		put_reg(t, get(v, SR_RB));
		put_reuse(t, slot, REUSE_B);
		break;
	case SASS_B_CONST:
		put(t, ", %s", modified ? prefix : "");
		put_const(t, v, "");
		break;
	case SASS_B_IMM:
		put(t, ", ");
		put_signed_hex(t, get(v, SR_IMM));
		put(t, "%s", modified ? suffix : "");
		break;
	case SASS_B_NONE:
		break;
	}
}

static inline void put_b_plain(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put_b(t, f, v, slot, false, "", "");
}

static inline void put_ra(Text *t, const SassValues *v, uint32_t slot, const char *prefix)
{
	put(t, "%s", prefix);
	put_reg(t, get(v, SR_RA));
	put_reuse(t, slot, REUSE_A);
}

/* A float or double source (dbl): -|Rx| around a register or constant;
 * an immediate keeps its own sign in the value and shows the modifiers as
 * .NEG/.ABS suffixes. */
static inline void put_fp_src(Text *t, const SassForm *f, const SassValues *v, uint32_t slot, bool is_a,
                              bool neg, bool abs, bool dbl)
{
	put(t, ", ");
	if (!is_a && (f->bkind == SASS_B_IMM || f->bkind == SASS_B_NONE)) {
		if (dbl) {
			char tmp[48];
			sass_double_text(sass_dimm20_bits(get(v, SR_IMM)), tmp, sizeof tmp);
			put(t, "%s", tmp);
		} else {
			put_float(t, f->bkind == SASS_B_IMM ? sass_fimm20_bits(get(v, SR_IMM)) : (uint32_t)get(v, SR_IMM));
		}
		put(t, "%s%s", neg ? ".NEG" : "", abs ? ".ABS" : "");
		return;
	}
	put(t, "%s%s", neg ? "-" : "", abs ? "|" : "");
	if (!is_a && f->bkind == SASS_B_CONST) {
		put_const(t, v, "");
		put(t, "%s", abs ? "|" : "");
		return;
	}
	put_reg(t, get(v, is_a ? SR_RA : SR_RB));
	put(t, "%s", abs ? "|" : "");
	/* FADD's and DADD's B register is reused through the third operand's
	 * flag (nvdisasm 11.8 agrees; FMUL, FMNMX and FSETP use the second) */
	put_reuse(t, slot, is_a ? REUSE_A : f->op == SOP_FADD || f->op == SOP_DADD ? REUSE_C : REUSE_B);
}

static inline void put_fsrc(Text *t, const SassForm *f, const SassValues *v, uint32_t slot, bool is_a,
                            bool neg, bool abs)
{
	put_fp_src(t, f, v, slot, is_a, neg, abs, false);
}

/* C operand of the forms with a third source: Rc, or the constant of the
 * "RC" layouts. */
static inline void put_c(Text *t, const SassForm *f, const SassValues *v, uint32_t slot)
{
	put(t, ", ");
	if (f->bkind == SASS_B_RC) {
		put_const(t, v, "");
	} else {
		put_reg(t, get(v, SR_RC));
		put_reuse(t, slot, REUSE_C);
	}
}

static inline void put_rd_cc(Text *t, const SassValues *v)
{
	put_reg(t, get(v, SR_RD));
	put_flag(t, v, SR_CC, ".CC");
}

/* [Ra+off]; with Ra = RZ the offset is an absolute, zero-extended address. */
static inline void put_global_address(Text *t, const SassValues *v, unsigned offset_bits)
{
	int64_t ra = get(v, SR_RA), off = get(v, SR_IMM);
	put(t, "[");
	if (ra == 255) {
		if (off == 0)
			put(t, "RZ");
		else
			put(t, "0x%" PRIx64, (uint64_t)off & ((UINT64_C(1) << offset_bits) - 1));
	} else {
		put_reg(t, ra);
		if (off != 0) {
			put(t, "+");
			put_signed_hex(t, off);
		}
	}
	put(t, "]");
}

#endif
