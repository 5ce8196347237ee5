/* The cubin facts of finished sm_50 code (see sass_code_facts.h). */
#include "sm50/sass_code_facts.h"

#include "sm50/sass_ctrl.h"
#include "sm50/sass_encode.h"
#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

void sass_code_facts(const uint8_t *code, size_t ninsns, SassCodeFacts *out)
{
	memset(out, 0, sizeof *out);
	out->exits = xcalloc(ninsns + 1, sizeof *out->exits);
	out->ctaids = xcalloc(ninsns + 1, sizeof *out->ctaids);
	for (size_t i = 0; i < ninsns; i++) {
		uint32_t addr = (uint32_t)sass_insn_addr(i);
		SassValues v;
		const SassForm *f = sass_decode(sass_load_word(code + addr), &v);
		if (f == NULL)
			continue;
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
	memset(f, 0, sizeof *f);
}
