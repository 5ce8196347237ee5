/* The PTX opcode table (src/isa/ptx_opcodes.def): every instruction name and the
 * modifier tokens that may follow it. The parser (front/parse_build.c) uses it to
 * reject unknown opcodes and modifiers with a suggestion; the checker refines it per form. */
#ifndef PTXSURF_OPCODES_H
#define PTXSURF_OPCODES_H

#include <stdbool.h>
#include <stddef.h>

int opcode_lookup(const char *name);             /* -1 if unknown */
const char *opcode_name(int id);
size_t opcode_count(void);
bool opcode_has_modifier(int id, const char *mod);
/* Modifier tokens of an opcode, in table order. */
size_t opcode_modifiers(int id, const char *const **mods);

/* Closest known spelling within a small edit distance, or NULL. */
const char *opcode_suggest(const char *name);
const char *modifier_suggest(int id, const char *mod);

#endif
