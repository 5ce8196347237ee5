/* disasm_elf.h -- the ELF reads of the cubin listing (disasm_file.c):
 * section header fields, the symbol table, bounds checks. Internal to
 * src/emit/disasm_*.c. */
#ifndef PTXSURF_EMIT_DISASM_ELF_H
#define PTXSURF_EMIT_DISASM_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- ELF access ----------------------------------------------------------
 * cubin_read() has validated the section headers, the section name table
 * and the symbol table before any of this runs; every read below is still
 * bounds-checked so that this file does not depend on how thorough it was. */

enum { SHT_SYMTAB = 2, SHT_RELA = 4, SHT_REL = 9, STT_SECTION = 3, STT_FUNC = 2, STT_OBJECT = 1 };
enum { STB_LOCAL = 0, STB_GLOBAL = 1, STB_WEAK = 2 };
enum { SHF_WRITE = 0x1, SHF_ALLOC = 0x2, SHF_EXECINSTR = 0x4 };
enum { SHF_BARRIERS_SHIFT = 20, SHF_BARRIERS_MASK = 0x1f };
enum { EHDR_SIZE = 64, SHDR_SIZE = 64, SYM_SIZE = 24, REL_SIZE = 16 };
/* The relocations ptxas puts on the 32-bit immediate (bit 20) of MOV32I:
 * an address or a size (`(sym)), and the two halves of a 64-bit address
 * of a .global variable (32@lo(sym), 32@hi(sym)); ABS32_20 also names a
 * JCAL's callee. */
enum { R_CUDA_ABS32_20 = 42, R_CUDA_ABS32_LO_20 = 43, R_CUDA_ABS32_HI_20 = 44 };
enum { CUDA_STT_TEXTURE = 10, CUDA_STT_SAMPLER = 11, CUDA_STT_SURFACE = 12,
       CUDA_STT_OBJECT = 13 };
enum { STO_CUDA_ENTRY = 0x10, STO_CUDA_GLOBAL = 0x20, STO_VISIBILITY = 0x3 };

typedef struct Elf {
	const uint8_t *buf;
	size_t len;
	uint64_t shoff;
	size_t shnum;
	size_t symtab;          /* section index; 0 = none */
	size_t nsyms;
	const uint8_t *syms;
	const char *strtab;     /* NUL-terminated at strtab_size - 1 */
	uint64_t strtab_size;
} Elf;

typedef struct Symbol {
	const char *name;
	unsigned bind, type, other;
	size_t shndx;
	uint64_t value, size;
} Symbol;

static inline uint64_t rd(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static inline bool in_bounds(uint64_t off, uint64_t size, uint64_t limit)
{
	return off <= limit && size <= limit - off;
}

/* Field at byte `field` of section header i, `n` bytes wide. */
static inline uint64_t sh_field(const Elf *e, size_t i, unsigned field, int n)
{
	return rd(e->buf + e->shoff + i * SHDR_SIZE + field, n);
}

static inline uint64_t sh_flags(const Elf *e, size_t i) { return sh_field(e, i, 8, 8); }
static inline uint64_t sh_offset(const Elf *e, size_t i) { return sh_field(e, i, 24, 8); }
static inline uint64_t sh_size(const Elf *e, size_t i) { return sh_field(e, i, 32, 8); }
static inline uint32_t sh_type(const Elf *e, size_t i) { return (uint32_t)sh_field(e, i, 4, 4); }
static inline uint32_t sh_link(const Elf *e, size_t i) { return (uint32_t)sh_field(e, i, 40, 4); }
static inline uint32_t sh_info(const Elf *e, size_t i) { return (uint32_t)sh_field(e, i, 44, 4); }
static inline uint64_t sh_align(const Elf *e, size_t i) { return sh_field(e, i, 48, 8); }

/* The symbol table and its strings, found and bounds-checked: 0, or -1. */
int elf_open(Elf *e, const uint8_t *buf, size_t len);
/* Symbol i (i < e->nsyms): 0, or -1 when its name is out of range. */
int elf_symbol(const Elf *e, size_t i, Symbol *s);

#endif
