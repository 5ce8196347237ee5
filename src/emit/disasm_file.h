/* `ptxsurf-as --disassemble FILE`: a listing of a cubin or of raw sm_50 code
 * in exactly the text NVIDIA's nvdisasm 11.8 prints for it.
 *
 * An ELF file (it starts with the ELF magic) is read as a cubin and listed
 * as `nvdisasm -c -hex FILE` does: the header flags, every code section with
 * its symbols, instructions, dual-issue groups and branch labels, and the
 * SYMBOLS section with the undefined (surface, texture, ...) symbols.  Any
 * other input is raw code -- 64-bit words, a control word before every
 * three instructions -- listed as `nvdisasm -b SM50 -hex -novliw` does.
 *
 * The listing is checked against nvdisasm by tests/oracle/disasm-nvdisasm.sh. */
#ifndef PTXSURF_DISASM_FILE_H
#define PTXSURF_DISASM_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Disassembles bytes[0..len) to `out`.  Returns 0, or -1 with a one-line
 * reason in err when the input cannot be listed: a corrupt or truncated
 * cubin, code for another architecture, an instruction word outside the
 * sm_50 form table (the message names the word and its address), or a
 * construct whose nvdisasm spelling is not known.  On failure nothing is
 * written to `out`.  Any byte sequence is safe to pass. */
int disasm_file(const uint8_t *bytes, size_t len, FILE *out, char *err, size_t errlen);

#endif
