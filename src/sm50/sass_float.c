/* nvdisasm's spelling of float immediates, read off its output for every
 * class of value (tests/oracle/sass-forms.sh compares random ones):
 * infinities and NaNs by name, a negative zero as "-0.0", magnitudes below
 * 1e9 in the shortest exact-or-20-digit %g form, larger ones in %e with 20
 * fraction digits. The named values are followed by a blank. */
#include "sm50/sass_float.h"

#include <stdio.h>
#include <string.h>

int sass_float_text(uint32_t bits, char *buf, size_t n)
{
	const char *sign = (bits >> 31) ? "-" : "+";
	uint32_t exp = (bits >> 23) & 0xff, mant = bits & 0x7fffff;
	if (exp == 0xff)
		return snprintf(buf, n, "%s%s ", sign, mant ? "QNAN" : "INF");
	if (bits == 0x80000000u)
		return snprintf(buf, n, "-0.0 ");
	float f;
	memcpy(&f, &bits, sizeof f);
	double d = f, mag = d < 0 ? -d : d;
	return snprintf(buf, n, mag >= 1e9 ? "%.20e" : "%.20g", d);
}

int sass_double_text(uint64_t bits, char *buf, size_t n)
{
	const char *sign = (bits >> 63) ? "-" : "+";
	uint64_t exp = (bits >> 52) & 0x7ff, mant = bits & ((UINT64_C(1) << 52) - 1);
	/* unlike the f32 spelling, a double NaN without the quiet bit is SNAN */
	if (exp == 0x7ff)
		return snprintf(buf, n, "%s%s ", sign, !mant ? "INF" : mant >> 51 ? "QNAN" : "SNAN");
	if (bits == UINT64_C(1) << 63)
		return snprintf(buf, n, "-0.0 ");
	double d, mag;
	memcpy(&d, &bits, sizeof d);
	mag = d < 0 ? -d : d;
	return snprintf(buf, n, mag >= 1e9 ? "%.20e" : "%.20g", d);
}
