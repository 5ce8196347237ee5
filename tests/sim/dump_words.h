/* Reads `ptxsurf-sim --dump` output from stdin for the reference checks
 * (div_rn_ref_main.c, dir_round_ref_main.c, idiv_ref_main.c): the bytes of the buffers of
 * parameters 1..buffers ("  paramN.buffer+OFFS: xx xx ..." lines, 32 bytes
 * each) into words[(N - 1) * per_buffer + OFFS / 4], little-endian 32-bit
 * words. 0 when at least min_buffers buffers' worth of lines were read,
 * -1 on malformed or short input. */
#ifndef PTXSURF_TESTS_SIM_DUMP_WORDS_H
#define PTXSURF_TESTS_SIM_DUMP_WORDS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* An f32 and its bits, both ways. */
static inline float word_float(uint32_t w)
{
	float f;
	memcpy(&f, &w, 4);
	return f;
}

static inline uint32_t float_word(float f)
{
	uint32_t w;
	memcpy(&w, &f, 4);
	return w;
}

static int dump_words(uint32_t *words, unsigned buffers, unsigned per_buffer, unsigned min_buffers)
{
	char line[512];
	unsigned lines = 0;
	while (fgets(line, sizeof line, stdin)) {
		unsigned n, off;
		int used;
		if (sscanf(line, " param%u.buffer+%x:%n", &n, &off, &used) != 2 || n < 1 || n > buffers)
			continue;
		const char *p = line + used;
		for (unsigned i = 0; i < 32; i++) {
			unsigned byte;
			int k;
			if (sscanf(p, " %2x%n", &byte, &k) != 1 || off + i >= per_buffer * 4)
				return -1;
			p += k;
			words[(n - 1) * per_buffer + (off + i) / 4] |= (uint32_t)byte << 8 * ((off + i) % 4);
		}
		lines++;
	}
	return lines >= min_buffers * per_buffer * 4 / 32 ? 0 : -1;
}

#endif
