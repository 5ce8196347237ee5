/* Building the lowered IR: virtual registers and instructions. */
#include "lower/lower.h"
#include "lower/regalloc.h"

#include "base/xalloc.h"

#include <string.h>

uint32_t lkernel_new_vreg(LKernel *k, LRegClass cls, unsigned width, bool temp)
{
	if (k->nvregs == k->vcap) {
		k->vcap = k->vcap ? 2 * k->vcap : 64;
		k->vregs = xrealloc(k->vregs, k->vcap * sizeof *k->vregs);
	}
	k->vregs[k->nvregs] = (LVReg){ .cls = cls, .width = (uint8_t)width, .temp = temp, .phys = -1 };
	return (uint32_t)k->nvregs++;
}

LInsn *lkernel_append(LKernel *k, SassFormId form, SrcLoc loc)
{
	const SassForm *f = &sass_forms[form];
	if (k->ninsns == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 64;
		k->insns = xrealloc(k->insns, k->cap * sizeof *k->insns);
	}
	LInsn *in = &k->insns[k->ninsns++];
	memset(in, 0, sizeof *in);
	in->form = f;
	in->target = LIR_NO_LABEL;
	in->loc = loc;
	return in;
}

void linsn_ref(LInsn *in, SassRole role, uint32_t vreg, unsigned sub, unsigned count, bool def)
{
	if (in->nrefs == LIR_MAX_REFS)
		xdie("internal error: too many register operands on %s", in->form->name);
	in->refs[in->nrefs++] = (LRegRef){ vreg, (uint8_t)role, (uint8_t)sub, (uint8_t)count, def };
}

void linsn_set(LInsn *in, SassRole r, int64_t value)
{
	int i = sass_form_field_index(in->form, r);
	if (i < 0) {
		if (in->stray == 0 || (unsigned)r + 1 < in->stray)
			in->stray = (uint8_t)(r + 1);
		return;
	}
	in->val[i] = value;
	in->set |= 1u << i;
}

/* A stray role's value is not kept: only the encoder's error reads it,
 * and that message names the role, not the value. */
int64_t linsn_get(const LInsn *in, SassRole r, int64_t dflt)
{
	int i = sass_form_field_index(in->form, r);
	return i >= 0 && ((in->set >> i) & 1) ? in->val[i] : dflt;
}

int linsn_encode(const LInsn *in, const int64_t *imm, uint64_t *word, char *err, size_t errlen)
{
	const SassForm *f = in->form;
	int at = imm ? sass_form_field_index(f, SR_IMM) : -1;
	if (in->stray == 0 && (imm == NULL || at >= 0)) {
		if (imm == NULL)
			return sass_encode_fields(f, in->val, in->set, word, err, errlen);
		int64_t val[SASS_MAX_FIELDS];
		memcpy(val, in->val, sizeof val);
		val[at] = *imm;
		return sass_encode_fields(f, val, in->set | (1u << at), word, err, errlen);
	}
	/* a role the form lacks: sass_encode() words the error */
	SassValues v;
	sass_values_clear(&v);
	for (unsigned i = 0; i < f->nfields; i++)
		if ((in->set >> i) & 1)
			sass_values_set(&v, f->fields[i].role, in->val[i]);
	if (in->stray)
		sass_values_set(&v, (SassRole)(in->stray - 1), 0);
	if (imm)
		sass_values_set(&v, SR_IMM, *imm);
	return sass_encode(f, &v, word, err, errlen);
}

void linsn_fill_defaults(LInsn *in)
{
	for (unsigned i = 0; i < in->form->nfields; i++) {
		const SassField *f = &in->form->fields[i];
		if ((in->set >> i) & 1)
			continue;
		int64_t v = 0;
		if (f->kind == SASS_FK_REG)
			v = 255;
		else if (f->kind == SASS_FK_PRED)
			v = 7;
		else if (f->role == SR_LANEMASK)
			v = 0xf;
		else if (f->role == SR_COND)
			v = 0xf;
		in->val[i] = v;
		in->set |= 1u << i;
	}
}

static bool is_frame_adjust(const LInsn *in)
{
	return in->form == &sass_forms[SF_IADD32I] && in->stack_reg == (LSTACK_READ | LSTACK_WRITE) &&
	       linsn_get(in, SR_RD, -1) == REGALLOC_STACK_REG;
}

void lkernel_incoming_offsets(LKernel *k)
{
	uint32_t frame = 0;
	for (size_t i = 0; i < k->ninsns; i++) {
		LInsn *in = &k->insns[i];
		if (is_frame_adjust(in))
			frame -= (uint32_t)linsn_get(in, SR_IMM, 0);
		else if (in->stack_reg & LSTACK_IN)
			linsn_set(in, SR_IMM, linsn_get(in, SR_IMM, 0) + frame);
		else if (in->form->op == SOP_CAL || in->form->op == SOP_RET || in->form->op == SOP_BRA)
			break;     /* the prologue ends */
	}
}

void lkernel_frame_adjust(LKernel *k)
{
	if (k->ninsns > 1 && is_frame_adjust(&k->insns[1])) {
		linsn_set(&k->insns[1], SR_IMM, (uint32_t)-k->frame_size);
		return;
	}
	LInsn *sub = lkernel_append(k, SF_IADD32I, k->loc);
	linsn_set(sub, SR_RD, REGALLOC_STACK_REG);
	linsn_set(sub, SR_RA, REGALLOC_STACK_REG);
	linsn_set(sub, SR_IMM, (uint32_t)-k->frame_size);
	sub->stack_reg = LSTACK_READ | LSTACK_WRITE;
	LInsn adjust = *sub;
	memmove(k->insns + 2, k->insns + 1, (k->ninsns - 2) * sizeof *k->insns);
	k->insns[1] = adjust;
	for (size_t l = 0; l < k->nlabels; l++)
		if (k->label_pos[l] >= 1)
			k->label_pos[l]++;
}
