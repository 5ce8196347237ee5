/* Single-precision immediates of the sm_50 float instructions, spelled as
 * nvdisasm 11.8 spells them, and read back by the SASS text front end. */
#ifndef PTXSURF_SASS_FLOAT_H
#define PTXSURF_SASS_FLOAT_H

#include <stddef.h>
#include <stdint.h>

/* The text of the f32 whose bits are `bits`: "1", "0.5", "-2", values of
 * 1e9 and more as "%.20e", the rest as "%.20g"; "+INF ", "-QNAN ", "-0.0 "
 * carry the trailing blank nvdisasm prints after them. Returns snprintf's
 * count. */
int sass_float_text(uint32_t bits, char *buf, size_t n);

/* The 20-bit immediate field of FADD/FMUL/FFMA/FMNMX/FSETP holds the top
 * 20 bits of the f32 (sign, exponent, 11 mantissa bits). */
static inline uint32_t sass_fimm20_bits(int64_t field)
{
	return (uint32_t)field << 12;
}

/* The text of the f64 whose bits are `bits`, by the same rules as
 * sass_float_text but for "SNAN" (a NaN without the quiet bit) (the double-precision immediates of DADD/DMUL/DFMA/
 * DMNMX/DSETP, whose 20-bit field holds the top 20 bits of the f64). */
int sass_double_text(uint64_t bits, char *buf, size_t n);

static inline uint64_t sass_dimm20_bits(int64_t field)
{
	return (uint64_t)field << 44;
}

#endif
