/* The sm_50 disassembler. Its output is meant to be byte-for-byte what
 * `nvdisasm -b SM50 -hex -novliw` prints for the same raw code, so that the
 * encoder can be checked against NVIDIA's tool line by line
 * (tests/oracle/sass-forms.sh). */
#ifndef PTXSURF_SASS_DISASM_H
#define PTXSURF_SASS_DISASM_H

#include "sm50/sass_encode.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Whether nvdisasm accepts control slot `slot` on an instruction of form f:
 * fixed-latency ops take no scoreboard barrier, ALU ops no reuse bit 3. */
bool sass_slot_allowed(const SassForm *f, uint32_t slot);

/* The guard prefix ("@!P0 ", "" when always) into buf; returns its length. */
int sass_format_guard(const SassValues *vals, char *buf, size_t n);

/* The instruction text without guard and ';', e.g. "MOV R1, c[0x0][0x20]".
 * `slot` supplies the reuse flags, `addr` (the instruction's own address)
 * the base of branch targets. Returns the length, or -1 if buf is too small. */
int sass_format_insn(const SassForm *f, const SassValues *vals, uint32_t slot,
                     uint64_t addr, char *buf, size_t n);

/* Disassembles raw code: little-endian 64-bit words, a control word at every
 * 32-byte boundary followed by three instructions; the first byte is at
 * address `base` (a multiple of 32). Writes nvdisasm's listing to `out`.
 * On a length that is not a multiple of 32, an undecodable instruction or a
 * control slot nvdisasm rejects, writes nothing and returns -1 with a
 * message in err. */
int sass_disasm_stream(const uint8_t *bytes, size_t n, uint64_t base, FILE *out,
                       char *err, size_t errlen);

#endif
