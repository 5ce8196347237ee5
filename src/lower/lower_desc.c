/* The .nv.constant2 words: ptxas 11.8 -O3's constant pool for the field
 * offsets of the suq descriptor lookups (lower_surface.c), the 32-bit
 * addends of mad.lo (lower_arith.c) and the constant bit-field positions
 * of bfe/bfi (lower_bits.c), and what dead-code removal leaves. */
#include "lower/lower.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* One word per distinct value, shared by every use (a field offset 0x10
 * and an addend 16 are one word, as in ptxas), in order of first use. */
uint32_t lkernel_const2_slot(LKernel *k, uint32_t value)
{
	for (size_t i = 0; i < k->ndesc_fields; i++)
		if (k->desc_fields[i] == value)
			return 4 * (uint32_t)i;
	k->desc_fields = xrealloc(k->desc_fields, (k->ndesc_fields + 1) * sizeof *k->desc_fields);
	k->desc_fields[k->ndesc_fields] = value;
	return 4 * (uint32_t)k->ndesc_fields++;
}

/* ptxas 11.8 -O3 allocates a .nv.constant2 word only to a value code that
 * is kept reads, in order of first use, so a lookup or mad that regalloc's
 * dead-code removal dropped must not keep its word: the surviving reads of
 * c[0x2] (XMAD_RC, BFI_RC: every constant operand in bank 2 comes from
 * lkernel_const2_slot) are renumbered in program order and the word list
 * is rebuilt from them. (The weak .nv.surfrefDescSize symbol stays:
 * k->desc_size_symbol.) */
void lkernel_compact_const2(LKernel *k)
{
	if (k->ndesc_fields == 0)
		return;
	size_t n = 0;
	uint32_t *kept = xcalloc(k->ndesc_fields, sizeof *kept);
	for (size_t i = 0; i < k->ninsns; i++) {
		LInsn *in = &k->insns[i];
		if (!sass_form_field(in->form, SR_CBANK) || linsn_get(in, SR_CBANK, 0) != LK_CONST2_BANK)
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
	free(kept);
}
