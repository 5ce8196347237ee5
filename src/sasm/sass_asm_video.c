/* Operands and default formats of the video forms in SASS text: VABSDIFF's
 * operand parts and the scalar video forms (VADD VMNMX VSET VSHL VSHR
 * VMAD), the inverse of sm50/sass_disasm_video.c:
 *   OP{.UD}{.fa.fb}{.PO}{.MX|.W}{.SHR_n}{.SAT}{.mode} Rd[.CC], [-]Ra{.part}, [-]B{.part}, [-]Rc
 * -A and -B are VADD's (both at once .PO), -A and -C VMAD's. */
#include "sasm/sass_asm_internal.h"

#include <stdio.h>
#include <string.h>

static const char *const formats[] = { "U8", "U16", "U32", "S8", "S16", "S32" };

/* The index in formats of the modifier of length len at p, or -1. */
static int format_index(const char *p, size_t len)
{
	for (int i = 0; i < (int)(sizeof formats / sizeof formats[0]); i++)
		if (strlen(formats[i]) == len && strncmp(formats[i], p, len) == 0)
			return i;
	return -1;
}

bool sasm_has_video_format(const char *mods)
{
	for (const char *p = mods; *p == '.'; ) {
		const char *end = strchr(p + 1, '.');
		size_t len = end ? (size_t)(end - p - 1) : strlen(p + 1);
		if (format_index(p + 1, len) >= 0)
			return true;
		if (!end)
			break;
		p = end;
	}
	return false;
}

/* VABSDIFF (sim4) has the scalar video layout and nvdisasm's rules for
 * its formats and immediate B (signed when S16) */
static bool is_scalar_video(SassOp op)
{
	return op == SOP_VADD || op == SOP_VMNMX || op == SOP_VSET || op == SOP_VSHL || op == SOP_VSHR ||
	       op == SOP_VMAD || op == SOP_VABSDIFF;
}

const char *sasm_video_mods(const SassForm *f, const char *mods, char *buf, size_t n)
{
	if (!is_scalar_video(f->op) || strlen(mods) + 10 > n)
		return mods;
	bool shift = f->op == SOP_VSHL || f->op == SOP_VSHR, imm = f->bkind == SASS_B_IMM;
	if (!sasm_has_video_format(mods)) {
		snprintf(buf, n, "%s.S32%s", mods, shift ? (imm ? "" : ".U32") : imm ? ".S16" : ".S32");
		return buf;
	}
	if (!(shift && imm))
		return mods;
	/* a shift's immediate B: the second format (U16) has no field */
	size_t out = 0;
	int seen = 0;
	for (const char *p = mods; *p == '.'; ) {
		const char *end = strchr(p + 1, '.');
		size_t len = end ? (size_t)(end - p - 1) : strlen(p + 1);
		bool is_fmt = format_index(p + 1, len) >= 0;
		if (!(is_fmt && ++seen == 2 && len == 3 && strncmp(p + 1, "U16", 3) == 0)) {
			memcpy(buf + out, p, len + 1);
			out += len + 1;
		}
		if (!end)
			break;
		p = end;
	}
	buf[out] = '\0';
	return buf;
}

bool sasm_video_source(SasmMatch *m, SassRole r, SassRole fmt_role, int reuse_bit, const char *what)
{
	Suffixes sfx;
	if (m->next >= m->s->nops)
		return sasm_take_reg(m, r, reuse_bit, SUF_BYTE | SUF_H1, &sfx, what);
	SrcLoc loc = m->s->ops[m->next].loc;
	if (!sasm_take_reg(m, r, reuse_bit, SUF_BYTE | SUF_H1, &sfx, what))
		return false;
	int64_t fmt = sass_values_get(&m->v, fmt_role, 14), base = fmt & 7;
	if (!sfx.bytesel && !sfx.h1)
		return true;
	if ((sfx.h1 && base != 4) || (sfx.bytesel && base != 0))
		return sasm_match_fail(m, loc, RULE_SASS_SYNTAX, "%s: %s selects %s of another size than its format",
		                       sass_op_mnemonic(m->f->op), what, sfx.h1 ? ".H1" : "a byte");
	sass_values_set(&m->v, fmt_role, fmt + (sfx.h1 ? 1 : sfx.bytesel));
	return true;
}

/* A source that may be written negated: whether it was goes to *neg. */
static bool take_negatable(SasmMatch *m, bool neg_ok, bool *neg)
{
	if (m->next < m->s->nops) {
		const SasmOperand *op = &m->s->ops[m->next];
		if (!sasm_no_prefix(m, op, neg_ok, false, false, false))
			return false;
		*neg = op->neg;
	}
	return true;
}

/* B as a 16-bit immediate: VMNMX and VSET write an S16 one signed, VADD's
 * '-' is its negation (neg_b). */
static bool take_imm16(SasmMatch *m, bool *neg_b)
{
	const SasmOperand *op = sasm_take_next(m, "B");
	if (op == NULL)
		return false;
	if (op->kind != SOK_IMM || op->nsuffix)
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: expected a 16-bit immediate as B",
		                       sass_op_mnemonic(m->f->op));
	bool signed_imm = m->f->op == SOP_VMNMX || m->f->op == SOP_VSET || m->f->op == SOP_VABSDIFF;
	bool signed_b = signed_imm && sass_values_get(&m->v, SR_VFMT_B, 0) == 1;
	if (op->neg && !signed_b && m->f->op != SOP_VADD)
		return sasm_match_fail(m, op->loc, RULE_SASS_SYNTAX, "%s: B takes no '-'%s", sass_op_mnemonic(m->f->op),
		                       signed_imm ? " (an S16 immediate may be negative)" : "");
	int64_t v = op->value;
	if (op->neg && signed_b) {
		if (v > 0x8000)
			return sasm_match_fail(m, op->loc, RULE_SASS_RANGE, "%s: -0x%llx does not fit a signed 16-bit B",
			                       sass_op_mnemonic(m->f->op), (unsigned long long)v);
		v = (-v) & 0xffff;
	}
	*neg_b = op->neg && !signed_b;
	return sasm_set_value(m, SR_IMM, v, op->loc, "immediate");
}

bool sasm_match_video(SasmMatch *m)
{
	SassOp op = m->f->op;
	if (!is_scalar_video(op))
		return false;
	bool vadd = op == SOP_VADD, vmad = op == SOP_VMAD, po;
	bool neg_a = false, neg_b = false, neg_c = false;
	po = vadd ? sass_values_get(&m->v, SR_NEG, 0) == 3 : vmad && sass_values_get(&m->v, SR_NEGA, 0);
	if (!sasm_take_rd_cc(m) || !take_negatable(m, vadd || vmad, &neg_a) ||
	    !sasm_video_source(m, SR_RA, SR_VFMT_A, 0, "A"))
		return false;
	if (m->f->bkind == SASS_B_IMM) {
		if (!take_imm16(m, &neg_b))
			return false;
	} else if (!take_negatable(m, vadd, &neg_b) || !sasm_video_source(m, SR_RB, SR_VFMT_B, 1, "B")) {
		return false;
	}
	if (!take_negatable(m, vmad, &neg_c) || !sasm_take_reg(m, SR_RC, 2, 0, NULL, "C"))
		return false;
	if (po && (neg_a || neg_b || neg_c))
		return sasm_match_fail(m, m->s->loc, RULE_SASS_SYNTAX, "%s: a negated operand with .PO", sass_op_mnemonic(op));
	if (vadd && !po)
		sass_values_set(&m->v, SR_NEG, neg_a * 2 + neg_b);
	if (vmad && !po) {
		sass_values_set(&m->v, SR_NEGA, neg_a);
		sass_values_set(&m->v, SR_NEGC, neg_c);
	}
	return true;
}
