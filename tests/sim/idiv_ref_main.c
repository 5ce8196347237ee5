/* Reference check of div/rem .u16/.s16/.u64/.s64 on the simulator (run by
 * tests/sim/idiv-check.sh): reads `ptxsurf-sim --dump` of kernel ref of
 * tests/cases/encode/idiv16.ptx or idiv64.ptx (BITS 16 or 64) -- buffers
 * param1..param6 hold the dividends, divisors, and the results of div.u,
 * rem.u, div.s and rem.s -- and checks the first COUNT pairs' results
 * against the host's / and %. PTX leaves division by zero undefined;
 * ptxas 11.8's code gives all ones (quotient and remainder, both signs),
 * which is checked too, and MIN / -1 gives MIN, remainder 0 (the two's
 * complement wrap). Exit 0 all equal, 1 a difference (each printed), 2 bad
 * input. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump_words.h"

enum { PAIRS = 512, BUFFERS = 6, WORDS = 1024 };

static uint32_t words[BUFFERS][WORDS];
static unsigned bits;

/* operand or result i of a buffer, of `bits` bits */
static uint64_t value(unsigned buffer, unsigned i)
{
	if (bits == 16)
		return words[buffer][i / 2] >> 16 * (i % 2) & 0xffff;
	return (uint64_t)words[buffer][2 * i + 1] << 32 | words[buffer][2 * i];
}

static uint64_t want_of(unsigned op, uint64_t a, uint64_t b)
{
	uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
	if (b == 0)
		return mask;
	if (op < 2)
		return op == 0 ? a / b : a % b;
	int64_t sa = bits == 64 ? (int64_t)a : (int16_t)a, sb = bits == 64 ? (int64_t)b : (int16_t)b;
	if (sa == INT64_MIN && sb == -1)
		return op == 2 ? a : 0;
	return (op == 2 ? (uint64_t)(sa / sb) : (uint64_t)(sa % sb)) & mask;
}

int main(int argc, char **argv)
{
	bits = argc == 3 ? (unsigned)strtoul(argv[1], NULL, 10) : 0;
	unsigned count = argc == 3 ? (unsigned)strtoul(argv[2], NULL, 10) : 0;
	if ((bits != 16 && bits != 64) || count == 0 || count > PAIRS ||
	    dump_words(&words[0][0], BUFFERS, WORDS, BUFFERS) != 0) {
		fprintf(stderr, "usage: idiv-ref 16|64 COUNT < ptxsurf-sim --dump output of kernel ref\n");
		return 2;
	}
	static const char *const names[4] = { "div.u", "rem.u", "div.s", "rem.s" };
	int bad = 0, zero = 0, small = 0;
	for (unsigned i = 0; i < count; i++) {
		uint64_t a = value(0, i), b = value(1, i);
		zero += b == 0;
		small += (a >> bits / 2 == 0 && b >> bits / 2 == 0);
		for (unsigned op = 0; op < 4; op++) {
			uint64_t got = value(2 + op, i), want = want_of(op, a, b);
			if (got != want) {
				printf("%s%u pair %u: a=0x%" PRIx64 " b=0x%" PRIx64 ": 0x%" PRIx64 ", host 0x%" PRIx64 "\n",
				       names[op], bits, i, a, b, got, want);
				bad++;
			}
		}
	}
	printf("idiv-ref: %u %u-bit pairs (%d with b == 0, %d with both under 2^%u), 4 results each, %d differ\n",
	       count, bits, zero, small, bits / 2, bad);
	return bad != 0;
}
