/* The .nv.constant2 words of the suq descriptor lookups that survive
 * dead-code removal (see lower_surface.c, lower_suq_descriptor). */
#include "lower.h"

#include <string.h>

/* ptxas 11.8 -O3 allocates a .nv.constant2 word only to a query whose
 * result is used, in order of first use, so a lookup that regalloc's
 * dead-code removal dropped must not keep its word: the surviving XMAD_RC
 * reads of c[0x2] are renumbered in program order and the field list is
 * rebuilt from them. (The weak .nv.surfrefDescSize symbol stays:
 * k->desc_size_symbol.) Only the lookup addresses bank 2. */
void lkernel_compact_desc_fields(LKernel *k)
{
	enum { DESC_FIELD_BANK = 2 };
	if (k->ndesc_fields == 0)
		return;
	size_t n = 0;
	uint32_t kept[16];
	for (size_t i = 0; i < k->ninsns; i++) {
		LInsn *in = &k->insns[i];
		if (strcmp(in->form->name, "XMAD_RC") != 0 || linsn_get(in, SR_CBANK, 0) != DESC_FIELD_BANK)
			continue;
		uint32_t field = k->desc_fields[linsn_get(in, SR_COFF, 0)];
		size_t slot = 0;
		while (slot < n && kept[slot] != field)
			slot++;
		if (slot == n)
			kept[n++] = field;
		linsn_set(in, SR_COFF, (int64_t)slot);
	}
	memcpy(k->desc_fields, kept, n * sizeof *kept);
	k->ndesc_fields = n;
}
