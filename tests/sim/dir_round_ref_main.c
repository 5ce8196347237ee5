/* Reference check of the directed-rounding div, rcp and sqrt on the
 * simulator (run by tests/sim/dir-round-check.sh): reads `ptxsurf-sim
 * --dump` of one kernel of the goldens div-dir-f32, rcp-dir-f32,
 * sqrt-dir-f32 (param1 the operands a, param2 the divisors b or the
 * results, div's param3 the quotients; f32 words) or sqrt-dir-f64,
 * rcp-dir-f64 (param1 the operands, param2 the results; f64 pairs) and
 * checks the first COUNT results against the host's IEEE arithmetic in
 * the same rounding mode (fesetround: one correctly rounded SSE operation
 * each, no double rounding); bit for bit, any NaN for a NaN.
 * Usage: dir-round-ref OP MODE COUNT, OP div|rcp|sqrt|drcp|dsqrt, MODE
 * rm|rp|rz. Exit 0 all equal, 1 a difference (each printed), 2 bad input. */
#include <fenv.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump_words.h"

#pragma STDC FENV_ACCESS ON

enum { WORDS = 1024, BUFFERS = 3 };

static uint32_t words[BUFFERS][WORDS];


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

static uint64_t double_bits(double d)
{
	uint64_t v;
	memcpy(&v, &d, 8);
	return v;
}

/* volatile operands: the operation runs at run time, in the mode set */
static int check32(const char *op, unsigned i)
{
	volatile float a = word_float(words[0][i]), b = word_float(words[1][i]);
	float want = strcmp(op, "div") == 0 ? a / b : strcmp(op, "rcp") == 0 ? 1.0f / a : sqrtf(a);
	uint32_t got = words[strcmp(op, "div") == 0 ? 2 : 1][i];
	if (isnan(want) ? isnan(word_float(got)) : got == float_word(want))
		return 0;
	printf("%s word %u: a=0x%08x b=0x%08x: 0x%08x, IEEE 0x%08x\n", op, i, words[0][i], words[1][i], got,
	       float_word(want));
	return 1;
}

static int check64(const char *op, unsigned i)
{
	volatile double a = as_double(pair(0, i));
	double want = strcmp(op, "drcp") == 0 ? 1.0 / a : sqrt(a);
	uint64_t got = pair(1, i);
	if (isnan(want) ? isnan(as_double(got)) : got == double_bits(want))
		return 0;
	printf("%s element %u: a=0x%016llx: 0x%016llx, IEEE 0x%016llx\n", op, i, (unsigned long long)pair(0, i),
	       (unsigned long long)got, (unsigned long long)double_bits(want));
	return 1;
}

int main(int argc, char **argv)
{
	static const struct { const char *name; int mode; } modes[] = {
		{ "rm", FE_DOWNWARD }, { "rp", FE_UPWARD }, { "rz", FE_TOWARDZERO },
	};
	static const char *const ops[] = { "div", "rcp", "sqrt", "drcp", "dsqrt" };
	int mode = -1;
	const char *op = NULL;
	for (unsigned k = 0; argc == 4 && k < 3; k++)
		if (strcmp(argv[2], modes[k].name) == 0)
			mode = modes[k].mode;
	for (unsigned k = 0; argc == 4 && k < 5; k++)
		if (strcmp(argv[1], ops[k]) == 0)
			op = ops[k];
	unsigned count = argc == 4 ? (unsigned)strtoul(argv[3], NULL, 10) : 0;
	bool wide = op && op[0] == 'd' && op[1] != 'i';
	if (!op || mode < 0 || count == 0 || count > (wide ? WORDS / 2 : WORDS) ||
	    dump_words(&words[0][0], BUFFERS, WORDS, 2) != 0) {
		fprintf(stderr, "usage: dir-round-ref div|rcp|sqrt|drcp|dsqrt rm|rp|rz COUNT < ptxsurf-sim --dump output\n");
		return 2;
	}
	fesetround(mode);
	int bad = 0;
	for (unsigned i = 0; i < count; i++)
		bad += wide ? check64(op, i) : check32(op, i);
	printf("dir-round-ref: %u %s.%s results, %d differ from IEEE\n", count, op, argv[2], bad);
	return bad != 0;
}
