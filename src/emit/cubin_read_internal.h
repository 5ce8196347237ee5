/* The cubin reader's shared state and the bounds-checked accessors every
 * part of it reads the input through (cubin_read.c: ELF structure and
 * kernels; cubin_read_rel.c: module data and relocations). Private to
 * emit/. */
#ifndef PTXSURF_EMIT_CUBIN_READ_INTERNAL_H
#define PTXSURF_EMIT_CUBIN_READ_INTERNAL_H

#include "emit/cubin_read.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { SHT_NULL = 0, SHT_PROGBITS = 1, SHT_SYMTAB = 2, SHT_STRTAB = 3, SHT_RELA = 4, SHT_REL = 9,
       SHT_NOBITS = 8 };
enum { STB_LOCAL = 0, STB_GLOBAL = 1, STB_WEAK = 2, STT_OBJECT = 1, STT_FUNC = 2, STT_SECTION = 3,
       STT_CUDA_OBJECT = 13 /* ptxas -c: a variable the code relocates */ };
enum { EHDR_SIZE = 64, SHDR_SIZE = 64, SYM_SIZE = 24, REL_SIZE = 16, RELA_SIZE = 24 };

typedef struct SectionHeader {
	uint32_t name, type, link, info;
	uint64_t flags, addr, offset, size, align, entsize;
} SectionHeader;

typedef struct Reader {
	const uint8_t *buf;
	size_t len;
	SectionHeader *sh;
	size_t shnum;
	size_t shstrndx;
	size_t symtab;        /* section index, 0 = none */
	size_t nsyms;
	size_t *info_of;      /* per code section: its .nv.info.<name>, 0 = none */
	size_t *rel_of;       /* per code section: .rel.nv.constant0.<name>, 0 = none */
	size_t *rel_text_of;  /* per code section: .rel.text.<name>, 0 = none */
	size_t *rela_text_of; /* ... .rela.text.<name> (-c: jump-table reads) */
	size_t *const2_of;    /* per code section: .nv.constant2.<name>, 0 = none */
	size_t *shared_of;    /* per code section: .nv.shared.<name> (NOBITS), 0 = none */
	bool *entry;          /* per section: an entry FUNC symbol is defined in it */
	bool *local_entry;    /* ... and that symbol is STB_LOCAL */
	/* per code section: the weak descriptor-size symbols after its SECTION
	 * symbol (ptxas creates them there), CubinDescKind in symbol order */
	uint8_t (*desc_kinds_of)[CUBIN_DESC_KINDS];
	size_t *ndesc_kinds_of;
	char *err;
	size_t errlen;
} Reader;

static inline uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t rd32(const uint8_t *p) { return rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static inline uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static inline bool in_bounds(uint64_t off, uint64_t size, uint64_t limit)
{
	return off <= limit && size <= limit - off;
}

/* Writes the reason into r->err; returns -1. (Inline: both parts of the
 * reader fail through it, and neither calls into the other for it.) */
__attribute__((format(printf, 2, 3)))
static inline int cubin_read_fail(Reader *r, const char *fmt, ...)
{
	if (r->err && r->errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(r->err, r->errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static inline bool has_file_data(const SectionHeader *s)
{
	return s->type != SHT_NULL && s->type != SHT_NOBITS && s->type != CUBIN_SHT_CUDA_GLOBAL;
}

static inline const uint8_t *section_data(const Reader *r, size_t i)
{
	return r->buf + r->sh[i].offset;
}

/* ELF string tables end with a NUL byte; checking that once makes every
 * in-range offset a terminated string, with no per-string scan (scans
 * would make crafted files with many symbols quadratic). */
static inline bool is_string_table(const Reader *r, size_t sec)
{
	const SectionHeader *s = &r->sh[sec];
	return s->type == SHT_STRTAB && s->size > 0 && section_data(r, sec)[s->size - 1] == 0;
}

/* The string at off inside string table sec, or NULL. */
static inline const char *table_string(const Reader *r, size_t sec, uint64_t off)
{
	if (!is_string_table(r, sec) || off >= r->sh[sec].size)
		return NULL;
	return (const char *)section_data(r, sec) + off;
}

static inline const char *section_name(const Reader *r, size_t i)
{
	return table_string(r, r->shstrndx, r->sh[i].name);
}

static inline const uint8_t *symbol(const Reader *r, size_t i)
{
	return section_data(r, r->symtab) + i * SYM_SIZE;
}

static inline const char *symbol_name(const Reader *r, size_t i)
{
	return table_string(r, r->sh[r->symtab].link, rd32(symbol(r, i)));
}

static inline bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* CubinDescKind of a descriptor-size symbol's name, -1 for any other. */
static inline int desc_kind_of_name(const char *name)
{
	if (name && strcmp(name, CUBIN_SURFREF_DESC_SIZE_SYMBOL) == 0)
		return CUBIN_DESC_SURFACE;
	if (name && strcmp(name, CUBIN_TEXREF_DESC_SIZE_SYMBOL) == 0)
		return CUBIN_DESC_TEXTURE;
	return -1;
}

/* A FUNC symbol: what a JCAL calls (its R_CUDA_ABS32_20 relocation is
 * not a descriptor-size one); undefined: an external function (-c code). */
static inline bool is_func(const Reader *r, uint64_t sym)
{
	return r->symtab && sym > 0 && sym < r->nsyms && (symbol(r, (size_t)sym)[4] & 0xf) == 2;
}

/* A data object defined in a section of the module: a 32-bit module's
 * variable, whose address a MOV32I takes through R_CUDA_ABS32_20 too
 * (cubin_read_vars), where a descriptor size's symbol is undefined. */
static inline bool is_defined_object(const Reader *r, uint64_t sym)
{
	return r->symtab && sym > 0 && sym < r->nsyms && (symbol(r, (size_t)sym)[4] & 0xf) == 1 &&
	       rd16(symbol(r, (size_t)sym) + 6) != 0;
}

static inline bool is_extern_func(const Reader *r, uint64_t sym)
{
	return is_func(r, sym) && rd16(symbol(r, (size_t)sym) + 6) == 0;
}

/* ---- cubin_read_rel.c ---- */
/* Module .global/.const variables, their initialiser relocations and the
 * MOV32I of their addresses in .rel.text.<k>. */
int cubin_read_vars(Reader *r, CubinImage *img);
/* The external functions and each kernel's JCALs of them and of functions
 * in other code sections, and the MOV32I halves of their addresses. */
void cubin_read_extern_calls(const Reader *r, CubinImage *img);
/* The R_CUDA_32 words of .nv.global.init holding a function's address. */
void cubin_read_func_inits(const Reader *r, CubinImage *img);
/* -c: each kernel's pool operands (const2_refs), in code order. */
int cubin_read_const2_refs(Reader *r, CubinImage *img);

#endif
