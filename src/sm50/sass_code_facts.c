/* The cubin facts of finished sm_50 code (see sass_code_facts.h). */
#include "sm50/sass_code_facts.h"

#include "sm50/sass_ctrl.h"
#include "sm50/sass_encode.h"
#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

bool sass_op_reads_f64_const(SassOp op)
{
	return op == SOP_DFMA || op == SOP_DADD || op == SOP_DMUL || op == SOP_DSETP || op == SOP_DMNMX ||
	       op == SOP_DSET;
}

enum { REG_RZ = 255 };   /* a register field's RZ */

/* An operand of the pool (the LDC of a brx.idx jump table reads its table
 * by address, not as an operand). */
static bool reads_const2(const SassForm *f, const SassValues *v)
{
	return sass_form_field(f, SR_CBANK) && sass_values_get(v, SR_CBANK, 0) == SASS_CONST2_BANK &&
	       f->op != SOP_LDC;
}

void sass_code_facts(const uint8_t *code, size_t ninsns, SassCodeFacts *out)
{
	memset(out, 0, sizeof *out);
	out->exits = xcalloc(ninsns + 1, sizeof *out->exits);
	out->ctaids = xcalloc(ninsns + 1, sizeof *out->ctaids);
	out->const2_reads = xcalloc(ninsns + 1, sizeof *out->const2_reads);
	out->table_reads = xcalloc(ninsns + 1, sizeof *out->table_reads);
	out->const3_reads = xcalloc(ninsns + 1, sizeof *out->const3_reads);
	for (size_t i = 0; i < ninsns; i++) {
		uint32_t addr = (uint32_t)sass_insn_addr(i);
		SassValues v;
		const SassForm *f = sass_decode(sass_load_word(code + addr), &v);
		if (f == NULL)
			continue;
		if (reads_const2(f, &v))
			out->const2_reads[out->nconst2_reads++] = (SassConst2Read){
				addr, 4 * (uint32_t)sass_values_get(&v, SR_COFF, 0), sass_op_reads_f64_const(f->op) ? 8 : 4 };
		else if (f->op == SOP_LDC && sass_values_get(&v, SR_CBANK, 0) == SASS_CONST2_BANK)
			out->table_reads[out->ntable_reads++] = (SassConst2Read){
				addr, (uint32_t)sass_values_get(&v, SR_COFF, 0), 4 };
		if (sass_form_field(f, SR_CBANK) && sass_values_get(&v, SR_CBANK, 0) == SASS_CONST3_BANK) {
			bool ldc = f->op == SOP_LDC;
			int64_t off = sass_values_get(&v, SR_COFF, 0);
			if (!ldc || sass_values_get(&v, SR_RA, 0) == REG_RZ)
				out->const3_reads[out->nconst3_reads++] = (SassConst3Read){
					addr, (uint32_t)(ldc ? off : 4 * off) & 0xffffu, ldc };
		}
		if (f->op == SOP_EXIT)
			out->exits[out->nexits++] = addr;
		if (f->op == SOP_S2R) {
			int64_t sr = sass_values_get(&v, SR_SREG, 0);
			if (sr >= SASS_SR_CTAID_X && sr <= SASS_SR_CTAID_Z)
				out->ctaids[out->nctaids++] = addr;
			out->uses_ctaid_z |= sr == SASS_SR_CTAID_Z;
		}
	}
}

void sass_code_facts_free(SassCodeFacts *f)
{
	free(f->exits);
	free(f->ctaids);
	free(f->const2_reads);
	free(f->table_reads);
	free(f->const3_reads);
	memset(f, 0, sizeof *f);
}

void sass_code_unbind(uint8_t *code, uint32_t addr, SassRole role)
{
	uint8_t *at = code + addr;
	SassValues v;
	const SassForm *form = sass_decode(sass_load_word(at), &v);
	uint64_t word;
	if (role == SR_COFF)
		sass_values_set(&v, SR_CBANK, 0);
	sass_values_set(&v, role, 0);
	if (form && sass_encode(form, &v, &word, NULL, 0) == 0)
		sass_store_word(at, word);
}

void sass_code_unbind_const2(uint8_t *code, const SassCodeFacts *f)
{
	for (size_t i = 0; i < f->nconst2_reads + f->ntable_reads; i++)
		sass_code_unbind(code, i < f->nconst2_reads ? f->const2_reads[i].addr
		                                            : f->table_reads[i - f->nconst2_reads].addr, SR_COFF);
}
