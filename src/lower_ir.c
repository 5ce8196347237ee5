/* Building the lowered IR: virtual registers and instructions. */
#include "lower.h"

#include "xalloc.h"

#include <string.h>

uint32_t lkernel_new_vreg(LKernel *k, LRegClass cls, unsigned width, bool temp)
{
	if (k->nvregs == k->vcap) {
		k->vcap = k->vcap ? 2 * k->vcap : 64;
		k->vregs = xrealloc(k->vregs, k->vcap * sizeof *k->vregs);
	}
	k->vregs[k->nvregs] = (LVReg){ cls, (uint8_t)width, temp, -1 };
	return (uint32_t)k->nvregs++;
}

LInsn *lkernel_append(LKernel *k, const char *form_name, SrcLoc loc)
{
	const SassForm *f = sass_form_by_name(form_name);
	if (f == NULL)
		xdie("internal error: no SASS form named %s", form_name);
	if (k->ninsns == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 64;
		k->insns = xrealloc(k->insns, k->cap * sizeof *k->insns);
	}
	LInsn *in = &k->insns[k->ninsns++];
	memset(in, 0, sizeof *in);
	in->form = f;
	in->target = LIR_NO_LABEL;
	in->loc = loc;
	sass_values_clear(&in->vals);
	return in;
}

void linsn_ref(LInsn *in, SassRole role, uint32_t vreg, unsigned sub, unsigned count, bool def)
{
	if (in->nrefs == LIR_MAX_REFS)
		xdie("internal error: too many register operands on %s", in->form->name);
	in->refs[in->nrefs++] = (LRegRef){ role, vreg, (uint8_t)sub, (uint8_t)count, def };
}

void linsn_fill_defaults(LInsn *in)
{
	for (unsigned i = 0; i < in->form->nfields; i++) {
		const SassField *f = &in->form->fields[i];
		if (sass_values_has(&in->vals, f->role))
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
		sass_values_set(&in->vals, f->role, v);
	}
}

