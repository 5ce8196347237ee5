/* Reference check of div.rn.f32, rcp.rn.f32 and div.rn.f64 on the
 * simulator (run by tests/sim/div-rn-check.sh): reads `ptxsurf-sim --dump`
 * of the golden kernels of tests/cases/encode/div-rn-f32.ptx -- div_rn's
 * buffers param1..param3 hold the dividends, divisors and quotients,
 * rcp_rn's param1 and param2 the operands and reciprocals -- or of
 * div-rn-f64.ptx's div_rn (the same buffers of f64s: mode ddiv), and
 * checks the first COUNT results against the host's IEEE arithmetic: the
 * f32 quotient computed in binary64 and rounded to binary32 (53 >= 2*24 +
 * 2 bits, so the double rounding is exact for division), the f64 one the
 * host's binary64 division; bit for bit, any NaN for a NaN. Exit 0 all
 * equal, 1 a difference (each printed), 2 bad input. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump_words.h"

enum { WORDS = 1024, BUFFERS = 3 };

static uint32_t words[BUFFERS][WORDS];


static int read_dump(void)
{
	return dump_words(&words[0][0], BUFFERS, WORDS, 2);
}

static int check(const char *what, unsigned i, uint32_t b, uint32_t got, double exact)
{
	float want = (float)exact;
	if (isnan(want) ? isnan(word_float(got)) : got == float_word(want))
		return 0;
	printf("%s word %u: a=0x%08x b=0x%08x: 0x%08x, IEEE 0x%08x\n", what, i, words[0][i], b, got, float_word(want));
	return 1;
}

/* f64 element i of buffer b: words 2i (low) and 2i + 1 */
static uint64_t pair(unsigned b, unsigned i)
{
	return (uint64_t)words[b][2 * i + 1] << 32 | words[b][2 * i];
}

static double as_double(uint64_t v)
{
	double d;
	memcpy(&d, &v, 8);
	return d;
}

static int check64(unsigned i)
{
	double want = as_double(pair(0, i)) / as_double(pair(1, i));
	uint64_t got = pair(2, i), wbits;
	memcpy(&wbits, &want, 8);
	if (isnan(want) ? isnan(as_double(got)) : got == wbits)
		return 0;
	printf("div.rn.f64 element %u: a=0x%016llx b=0x%016llx: 0x%016llx, IEEE 0x%016llx\n", i,
	       (unsigned long long)pair(0, i), (unsigned long long)pair(1, i), (unsigned long long)got,
	       (unsigned long long)wbits);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "ddiv") == 0) {
		unsigned n = (unsigned)strtoul(argv[2], NULL, 10);
		if (n == 0 || n > WORDS / 2 || read_dump() != 0) {
			fprintf(stderr, "usage: div-rn-ref ddiv COUNT < ptxsurf-sim --dump output of div-rn-f64's div_rn\n");
			return 2;
		}
		int bad = 0;
		for (unsigned i = 0; i < n; i++)
			bad += check64(i);
		printf("div-rn-ref: %u div.rn.f64 results, %d differ from IEEE\n", n, bad);
		return bad != 0;
	}
	bool div = argc == 3 && strcmp(argv[1], "div") == 0, rcp = argc == 3 && strcmp(argv[1], "rcp") == 0;
	unsigned count = div || rcp ? (unsigned)strtoul(argv[2], NULL, 10) : 0;
	if (count == 0 || count > WORDS || read_dump() != 0) {
		fprintf(stderr, "usage: div-rn-ref div|rcp COUNT < ptxsurf-sim --dump output of div_rn or rcp_rn\n");
		return 2;
	}
	int bad = 0;
	for (unsigned i = 0; i < count; i++) {
		double a = word_float(words[0][i]);
		if (div)
			bad += check("div.rn.f32", i, words[1][i], words[2][i], a / (double)word_float(words[1][i]));
		else
			bad += check("rcp.rn.f32", i, 0, words[1][i], 1.0 / a);
	}
	printf("div-rn-ref: %u %s results, %d differ from IEEE\n", count, div ? "div.rn.f32" : "rcp.rn.f32", bad);
	return bad != 0;
}
