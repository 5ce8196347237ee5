/* The .nv.constant2 words: ptxas 11.8 -O3's constant pool for the field
 * offsets of the suq descriptor lookups (lower_surface.c), the 32-bit
 * addends of mad.lo (lower_arith.c) and the constant bit-field positions
 * of bfe/bfi (lower_bits.c), and what dead-code removal leaves. */
#include "lower/lower.h"

#include "base/xalloc.h"
#include "sm50/sass_code_facts.h"

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

uint32_t lkernel_const2_lead(LKernel *k, uint32_t value)
{
	k->const2_lead = value;
	k->has_const2_lead = true;
	return lkernel_const2_slot(k, value);
}

/* A lookup of `kind` was lowered: its size symbol joins the kernel's
 * (first use first). */
void lkernel_desc_size_symbol(LKernel *k, int kind)
{
	for (size_t i = 0; i < k->ndesc_size_symbols; i++)
		if (k->desc_size_symbols[i] == kind)
			return;
	k->desc_size_symbols[k->ndesc_size_symbols++] = (uint8_t)kind;
}

/* ptxas 11.8 -O3 allocates a .nv.constant2 word only to a value code that
 * is kept reads, in order of first use, so a lookup or mad that regalloc's
 * dead-code removal dropped must not keep its word: the surviving reads of
 * c[0x2] (XMAD_RC, BFI_RC: every constant operand in bank 2 comes from
 * lkernel_const2_slot) are renumbered in program order and the word list
 * is rebuilt from them. (The weak descriptor-size symbols stay:
 * k->desc_size_symbols.) */
/* issue 17: an f64 constant as two words (lo at an even index after
 * compaction), read by the FP64 forms (ptxas's 1.0 of its rcp/sqrt
 * Newton steps). Returns the word index of lo. */
uint32_t lkernel_const2_pair(LKernel *k, uint32_t lo, uint32_t hi)
{
	k->desc_fields = xrealloc(k->desc_fields, (k->ndesc_fields + 2) * sizeof *k->desc_fields);
	k->desc_fields[k->ndesc_fields] = lo;
	k->desc_fields[k->ndesc_fields + 1] = hi;
	k->ndesc_fields += 2;
	return (uint32_t)k->ndesc_fields - 2;
}

/* A pool word read by an operand (the LDC of a brx.idx jump table reads
 * the table, placed after the pool: lower_brx_table.c). */
static bool reads_const2(const LInsn *in)
{
	return sass_form_field(in->form, SR_CBANK) && linsn_get(in, SR_CBANK, 0) == LK_CONST2_BANK &&
	       in->form->op != SOP_LDC;
}

static bool is_fp64_read(const LInsn *in)
{
	return sass_op_reads_f64_const(in->form->op);
}

/* The f64 pairs from kept[n] (n even), each at an even word (as ptxas
 * lays them out), shared by equal values; returns the end. */
static size_t compact_pairs(LKernel *k, uint32_t *kept, size_t n)
{
	size_t start = n;
	for (size_t i = 0; i < k->ninsns; i++) {
		LInsn *in = &k->insns[i];
		if (!reads_const2(in) || !is_fp64_read(in))
			continue;
		int64_t off = linsn_get(in, SR_COFF, 0);
		uint32_t lo = k->desc_fields[off], hi = k->desc_fields[off + 1];
		size_t slot = start;
		while (slot < n && !(kept[slot] == lo && kept[slot + 1] == hi))
			slot += 2;
		if (slot == n) {
			kept[n++] = lo;
			kept[n++] = hi;
		}
		linsn_set(in, SR_COFF, (int64_t)slot);
	}
	return n;
}

/* A function linked into a kernel brings its own .nv.constant2 words
 * (its mad.lo addends, bit-field positions, the 1.0 of its Newton steps):
 * an instruction copied from the function's fragment that reads c[0x2]
 * gets the kernel's word for the same value. */
void lkernel_const2_adopt(LKernel *k, const LKernel *from, LInsn *in)
{
	if (!reads_const2(in))
		return;
	int64_t off = linsn_get(in, SR_COFF, 0);
	if (is_fp64_read(in))
		linsn_set(in, SR_COFF, lkernel_const2_pair(k, from->desc_fields[off], from->desc_fields[off + 1]));
	else
		linsn_set(in, SR_COFF, lkernel_const2_slot(k, from->desc_fields[off]) / 4);
}

/* brx: ptxas 11.8 puts the jump tables of brx.idx first in .nv.constant2
 * (in program order, a target's word repeated where the table repeats
 * it), then the pool: the pool's reads move up by the tables' words, and
 * the LDC reading a table (its c[0x2] offset the table's index until now)
 * gets its byte offset. With f64 pairs in the pool an odd count of table
 * words is padded by one, keeping the pairs 8-byte aligned. */
static bool reads_table(const LInsn *in)
{
	return in->form->op == SOP_LDC && linsn_get(in, SR_CBANK, 0) == LK_CONST2_BANK;
}

static void place_brx_tables(LKernel *k, size_t pairs)
{
	size_t words = 0;
	for (size_t t = 0; t < k->nbrx; t++) {
		k->brx[t].word = (uint32_t)words;
		words += k->brx[t].n;
	}
	if (words == 0)
		return;
	words += pairs && words % 2;
	k->desc_fields = xrealloc(k->desc_fields, (words + k->ndesc_fields) * sizeof *k->desc_fields);
	memmove(k->desc_fields + words, k->desc_fields, k->ndesc_fields * sizeof *k->desc_fields);
	memset(k->desc_fields, 0, words * sizeof *k->desc_fields);
	k->ndesc_fields += words;
	for (size_t i = 0; i < k->ninsns; i++) {
		LInsn *in = &k->insns[i];
		int64_t off = linsn_get(in, SR_COFF, 0);
		if (reads_const2(in))
			linsn_set(in, SR_COFF, off + (int64_t)words);
		else if (reads_table(in) && off >= 0 && (size_t)off < k->nbrx)
			linsn_set(in, SR_COFF, 4 * (int64_t)k->brx[off].word - (int64_t)k->brx[off].bias);
	}
}

void lkernel_compact_const2(LKernel *k)
{
	if (k->ndesc_fields == 0) {
		place_brx_tables(k, 0);
		return;
	}
	uint32_t *kept = xcalloc(k->ndesc_fields + 3, sizeof *kept);
	/* the lead word (lkernel_const2_lead), when still read, then a zero
	 * word keeping the pairs even */
	size_t start = 0;
	for (size_t i = 0; i < k->ninsns && k->has_const2_lead && start == 0; i++) {
		const LInsn *in = &k->insns[i];
		if (reads_const2(in) && !is_fp64_read(in) &&
		    k->desc_fields[linsn_get(in, SR_COFF, 0)] == k->const2_lead) {
			kept[0] = k->const2_lead;
			start = 2;
		}
	}
	size_t pairs_end = compact_pairs(k, kept, start), n = pairs_end;
	bool pairs = pairs_end > start;
	if (!pairs && start)
		n = 1;
	for (size_t i = 0; i < k->ninsns; i++) {
		LInsn *in = &k->insns[i];
		if (!reads_const2(in) || is_fp64_read(in))
			continue;
		uint32_t field = k->desc_fields[linsn_get(in, SR_COFF, 0)];
		/* a word of a pair serves as well: ptxas's div.rn.f64 slow path
		 * reads 0x3ff00000 as the high word of the 1.0 at c[0x2][0x4] */
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
	place_brx_tables(k, pairs);
}
