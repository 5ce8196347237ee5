/* Shared by the cubin writer (cubin.c) and its module checks (cubin_check.c). */
#ifndef PTXSURF_CUBIN_INTERNAL_H
#define PTXSURF_CUBIN_INTERNAL_H

#include "emit/cubin.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Writes the message into err (when given); returns -1. */
int cubin_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Index of the surfref `name` in m->surfrefs, or -1. */
ptrdiff_t cubin_surfref_index(const CubinModule *m, const char *name);

/* Validates a module description before anything is built: names, sizes,
 * offsets and field ranges.  0, or -1 with a reason in err. */
int cubin_check_module(const CubinModule *m, char *err, size_t errlen);

/* ---- cubin_buf.c: growable little-endian byte buffers and string tables ---- */
typedef struct ByteBuf {
	uint8_t *data;
	size_t len, cap;
	/* string tables only: open-addressing index of string offsets + 1 */
	uint32_t *index;
	size_t index_cap, index_count;
} ByteBuf;
void cubin_buf_put(ByteBuf *b, const void *p, size_t n);
void cubin_buf_zeros(ByteBuf *b, size_t n);
void cubin_buf_u8(ByteBuf *b, uint8_t v);
void cubin_buf_u16(ByteBuf *b, uint16_t v);
void cubin_buf_u32(ByteBuf *b, uint32_t v);
void cubin_buf_u64(ByteBuf *b, uint64_t v);
void cubin_buf_align(ByteBuf *b, size_t align);
/* The offset of s in the string table t, added unless present. */
uint32_t cubin_strtab_add(ByteBuf *t, const char *s);
/* Adds the concatenation of a NULL-terminated list of parts. */
uint32_t cubin_strtab_add_concat(ByteBuf *t, const char *const *parts);
/* "<prefix><kernel>", e.g. ".text.k" */
uint32_t cubin_strtab_add_kernel_name(ByteBuf *t, const char *prefix, const char *kernel);
/* An .nv.info record header (format, attribute, value or size); an SVAL
 * record of n u32 values (nothing when n is 0). */
void cubin_info_record(ByteBuf *b, uint8_t format, uint8_t attr, uint16_t value);
/* A record's payload size is 16 bits: at most this many words. */
#define CUBIN_INFO_MAX_WORDS (0xffff / 4)
void cubin_info_u32_list(ByteBuf *b, uint8_t attr, const uint32_t *values, size_t n);

/* ---- cubin_data.c: module .global/.const data sections ---- */
typedef enum CubinDataSection {
	CUBIN_DATA_CONST3, CUBIN_DATA_GLOBAL_INIT, CUBIN_DATA_GLOBAL,
	CUBIN_DATA_SHARED,      /* -c: .nv_debug.shared */
	CUBIN_DATA_SECTIONS
} CubinDataSection;
bool cubin_var_in(const CubinVar *v, CubinDataSection s);
bool cubin_has_data(const CubinModule *m, CubinDataSection s);
/* The section's size (end of its last variable) and alignment. */
void cubin_data_extent(const CubinModule *m, CubinDataSection s, uint64_t *size, uint64_t *align);
/* Its bytes (malloc'd): the initialisers at their offsets, zeros elsewhere. */
uint8_t *cubin_data_bytes(const CubinModule *m, CubinDataSection s, uint64_t size);
/* The entries of .rel.<s> (rela false) or .rela.<s>, s .nv.global.init or
 * .nv.constant3: its variables' address initialisers. */
uint8_t *cubin_init_relocs(const CubinModule *m, CubinDataSection s, const size_t *sym_of_var,
                           const size_t *sym_of_fnaddr, bool rela, size_t *len);
bool cubin_has_init_relocs(const CubinModule *m, CubinDataSection s, bool rela);
/* The order ptxas 11.8 creates those relocation sections in (and names
 * them): walking the variables last declared first, each one's first
 * word's kind, then its other; kinds q = 2 (.nv.constant3) + 1 (rela).
 * Returns how many there are. */
size_t cubin_init_reloc_order(const CubinModule *m, int order[4]);

/* ---- cubin_rel_action.c: the bytes of .nv.rel.action ---- */
enum { CUBIN_NV_REL_ACTION_SIZE = 0xe0 };
extern const uint8_t cubin_nv_rel_action[CUBIN_NV_REL_ACTION_SIZE];

/* ---- cubin_handles.c: kernel parameters, texmode-independent handles ---- */
/* Index of the handle parameter `name` of k, or -1. */
ptrdiff_t cubin_handle_index(const CubinKernel *k, const char *name);
/* The STT_CUDA_* symbol type and R_CUDA_*_HEADER_INDEX relocation of a
 * handle parameter of CUBIN_HANDLE_* space. */
uint8_t cubin_handle_symbol_type(uint8_t space);
uint32_t cubin_handle_reloc_type(uint8_t space);
/* Every EIATTR_KPARAM_INFO record of k, last ordinal first; the symbols
 * of its handle parameters follow one another from first_handle_sym. */
void cubin_kparam_infos(const CubinKernel *k, size_t first_handle_sym, ByteBuf *b);

/* ---- ELF headers (cubin_elf.c) ---- */
enum { SEC_SHSTRTAB = 1, SEC_STRTAB = 2, SEC_SYMTAB = 3 };

typedef struct Section {
	uint32_t name, type, link, info;
	uint64_t flags, align, entsize;
	const uint8_t *data;   /* NULL: size zero bytes (constant banks) */
	uint64_t size, offset;
} Section;

void cubin_put_elf_header(ByteBuf *b, const CubinModule *m, uint64_t phoff, uint64_t shoff,
                          uint16_t phnum, uint16_t shnum);
void cubin_put_section_header(ByteBuf *b, const Section *s);
void cubin_put_program_header(ByteBuf *b, uint32_t type, uint32_t flags, uint64_t offset,
                              uint64_t filesz, uint64_t memsz);

/* ---- -c: calls of external functions (cubin_extern.c) ---- */
/* R_CUDA_ABS32_20 of each JCAL in .rel.text.<k>, sym_extern[i] the symbol of m->externs[i]. */
void cubin_extern_rel_text(const CubinKernel *k, const size_t *sym_extern, ByteBuf *b);
/* -c: k takes the address of kernel q of the module (a device-side launch). */
bool cubin_takes_kernel(const CubinModule *m, const CubinKernel *k, size_t q);
/* ...any kernel at all: the cheap test before a loop over the kernels
 * (without it a module of n kernels pays n * n calls). */
bool cubin_takes_kernels(const CubinModule *m, const CubinKernel *k);
/* EIATTR_EXTERNS: the symbols of the external functions k calls and of the
 * kernels whose address it takes, in symbol order. */
void cubin_extern_info(const CubinModule *m, const CubinKernel *k, const size_t *sym_extern, const size_t *sym_func,
                       size_t nk, ByteBuf *b);
/* .nv.callgraph and .nv.prototype of a relocatable object. */
/* -c: the symbol of each of m->func_addrs: its function's FUNC symbol
 * (sym_func per processed kernel, nk kernels), else its undefined one. */
size_t *cubin_fnaddr_symbols(const CubinModule *m, const size_t *sym_func, size_t nk, const size_t *sym_extern);
/* The info word of f's relocation when it is a .func's address
 * (R_CUDA_ABS32_HI_32/LO_32 of its symbol) or an undefined kernel's
 * (R_CUDA_FUNC_DESC32_HI_32/LO_32): true, else nothing (false). */
bool cubin_fnaddr_rel(const CubinDataFixup *f, const size_t *sym_fnaddr, const size_t *sym_extern, ByteBuf *b);
/* proto_name: the .strtab offsets of the prototype strings of each of
 * m->externs, then of each of m->func_addrs. */
void cubin_extern_callgraph(const CubinModule *m, const size_t *sym_func, size_t nk, const size_t *sym_extern,
                            const size_t *sym_fnaddr, const uint32_t *proto_name, ByteBuf *graph, ByteBuf *proto);
/* The index of name's prototype in m->protos, or -1. */
ptrdiff_t cubin_proto_index(const CubinModule *m, const char *name);
/* The external functions whose symbol and name k creates: those it calls
 * or takes the address of that are not done[] yet, in the declaration
 * order of m->protos (externals it does not name are left to the end);
 * marks them done, stores them in out, returns how many. */
size_t cubin_kernel_externs(const CubinModule *m, const CubinKernel *k, bool *done, size_t *out);
/* -c: whether name has an entry of .nv.prototype or .nv.callgraph (a
 * called external function, an address-taken function). */
bool cubin_has_prototype(const CubinModule *m, const char *name);
/* -c: the kernel (a function of its own, abi_func) that defines
 * m->externs[e], a called .func with a body (its JCALs are relocated
 * against its FUNC symbol), else -1 (an undefined symbol). */
ptrdiff_t cubin_extern_definition(const CubinModule *m, size_t e);
/* A new array: per m->externs, whether the module defines it. */
bool *cubin_externs_defined(const CubinModule *m);
/* -c with functions of their own: a copy of m in the order ptxas 11.8
 * -c processes them (cubin_order.c), true; else false (out unset). */
bool cubin_order_functions(const CubinModule *m, CubinModule *out);
void cubin_order_free(CubinModule *ordered);
/* -c: whether .nv.prototype is written: a kernel or function calls an
 * external function or a .visible/.weak .func of the module, or the
 * module defines a .visible/.weak .func (an entry per such function). */
bool cubin_writes_prototypes(const CubinModule *m);

#endif
