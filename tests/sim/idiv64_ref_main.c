/* Reference check of div/rem .u64/.s64 on the simulator (run by
 * tests/sim/idiv64-check.sh): reads `ptxsurf-sim --dump` of kernel ref of
 * tests/cases/encode/idiv64.ptx -- buffers param1..param6 hold the
 * dividends, divisors, and the results of div.u64, rem.u64, div.s64 and
 * rem.s64 -- and checks all PAIRS results against the host's / and %.
 * PTX leaves division by zero undefined; ptxas 11.8's code gives all ones
 * (quotient and remainder, both signs), which is checked too, and
 * INT64_MIN / -1 gives INT64_MIN, remainder 0 (the two's complement
 * wrap). Exit 0 all equal, 1 a difference (each printed), 2 bad input. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump_words.h"

enum { PAIRS = 512, BUFFERS = 6, WORDS = 2 * PAIRS };

static uint32_t words[BUFFERS][WORDS];

static uint64_t value(unsigned buffer, unsigned i)
{
	return (uint64_t)words[buffer][2 * i + 1] << 32 | words[buffer][2 * i];
}

static uint64_t want_of(unsigned op, uint64_t a, uint64_t b)
{
	if (b == 0)
		return ~0ull;
	if (op < 2)
		return op == 0 ? a / b : a % b;
	int64_t sa = (int64_t)a, sb = (int64_t)b;
	if (sa == INT64_MIN && sb == -1)
		return op == 2 ? a : 0;
	return op == 2 ? (uint64_t)(sa / sb) : (uint64_t)(sa % sb);
}

int main(int argc, char **argv)
{
	unsigned count = argc == 2 ? (unsigned)strtoul(argv[1], NULL, 10) : 0;
	if (count == 0 || count > PAIRS || dump_words(&words[0][0], BUFFERS, WORDS, BUFFERS) != 0) {
		fprintf(stderr, "usage: idiv64-ref COUNT < ptxsurf-sim --dump output of kernel ref\n");
		return 2;
	}
	static const char *const names[4] = { "div.u64", "rem.u64", "div.s64", "rem.s64" };
	int bad = 0, zero = 0, small = 0;
	for (unsigned i = 0; i < count; i++) {
		uint64_t a = value(0, i), b = value(1, i);
		zero += b == 0;
		small += (a >> 32 == 0 && b >> 32 == 0);
		for (unsigned op = 0; op < 4; op++) {
			uint64_t got = value(2 + op, i), want = want_of(op, a, b);
			if (got != want) {
				printf("%s pair %u: a=0x%016" PRIx64 " b=0x%016" PRIx64 ": 0x%016" PRIx64 ", host 0x%016" PRIx64
				       "\n", names[op], i, a, b, got, want);
				bad++;
			}
		}
	}
	printf("idiv64-ref: %u pairs (%d with b == 0, %d with both under 2^32), 4 results each, %d differ\n", count,
	       zero, small, bad);
	return bad != 0;
}
