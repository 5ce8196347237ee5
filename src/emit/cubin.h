/* The sm_50 cubin (CUDA ELF) writer.
 *
 * cubin_write() turns an in-memory description of a module (kernels with
 * their finished machine code, parameters, bound-surface slots and exit
 * offsets, plus the module's .global .surfref declarations) into the ELF
 * image ptxas 11.8 writes for `-arch=sm_50`.  Given ptxas's own code bytes,
 * register counts, parameters and slots, the image is byte-identical to
 * ptxas's: same section order, string-table order, symbol order, .nv.info
 * records and layout.  The whole image is built in memory so the caller can
 * write it atomically.
 *
 * Layout rules reproduced (observed on ptxas 11.8 output):
 *  - ptxas processes entries in reverse source order; that order decides the
 *    order of the per-kernel sections, section symbols and strings.  The
 *    module-wide .nv.info lists kernels in source order.
 *  - Symbols are created per processed kernel (FUNC, SECTION .text,
 *    SECTION .nv.constant0) and then split into locals and globals, each
 *    group keeping that order.  The surfrefs are created right after the
 *    first processed kernel's FUNC: first the ones that kernel binds (in
 *    its order of first use, CubinSurfaceSlot.first_use, textures and
 *    surfaces mixed), then the rest in declaration order.  Declared but unused
 *    surfrefs still get a symbol.
 *  - A kernel with a descriptor lookup (suq/txq) adds .rel.text.<k> (after
 *    .nv.rel.action) and, with field offsets, .nv.constant2.<k> (before its
 *    .nv.constant0.<k>); symbols: the weak .nv.surfrefDescSize and
 *    .nv.unified.texrefDescSize (each once, among the locals, after SECTION
 *    .text.<k> of the first processed kernel using it, in that kernel's
 *    order of first use) and SECTION .nv.constant2.<k>.
 *  - String tables keep ptxas's creation order, including names that no
 *    symbol or section uses (.symtab_shndx, .nv.shared.<k>, _param/_SREG,
 *    $BINDLESS$<k>$<surf>); identical strings are stored once.
 *
 *  - A kernel with static shared memory has a NOBITS .nv.shared.<k>
 *    (after every .text, in processing order; size and alignment of its
 *    variables) with a SECTION symbol after SECTION .text.<k>, and the
 *    image gets a third LOAD segment (RW, no file bytes) spanning them.
 *    Under -c (relocatable) the .shared variables are the linker's:
 *    module ones in .nv_debug.shared, a kernel body's in .nv.shared.<k>
 *    (both SHT_CUDA_SHARED), each a symbol (CubinVar.shared).
 *
 * Not supported (the assembler does not emit them): calls (the maximum
 * stack size is always 0), .const banks, textures and
 * samplers, .func and .param .surfref.  cubin_write() writes ELF64 only, as ptxas does by default
 * (--machine 64) also for .address_size 32.
 */
#ifndef PTXSURF_CUBIN_H
#define PTXSURF_CUBIN_H

#include "sm50/sass_abi.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- constants shared by the writer and the reader -------------------- */

#define CUBIN_ELFOSABI_CUDA        0x33
#define CUBIN_ELFABIVERSION        7
#define CUBIN_EM_CUDA              190
/* CUDA toolkit 11.8: stored as e_version and as EIATTR_CUDA_API_VERSION. */
#define CUBIN_CUDA_API_VERSION     118

#define CUBIN_EF_TEXMODE_UNIFIED     0x100u
#define CUBIN_EF_TEXMODE_INDEPENDENT 0x200u
#define CUBIN_EF_64BIT_ADDRESS       0x400u

#define CUBIN_SHT_CUDA_INFO        0x70000000u
#define CUBIN_SHT_CUDA_RELOCINFO   0x7000000bu
#define CUBIN_SHT_CUDA_CALLGRAPH   0x70000001u
#define CUBIN_SHT_CUDA_PROTOTYPE   0x70000002u
#define CUBIN_SHT_CUDA_CONSTANT0   0x70000064u   /* ptxas -c's .nv.constant0.<k> */
#define CUBIN_SHT_CUDA_CONSTANT2   0x70000066u   /* ptxas -c's .nv.constant2.<k> */
#define CUBIN_SHT_CUDA_CONSTANT3   0x70000067u   /* ... .nv.constant3 */
#define CUBIN_SHT_CUDA_GLOBAL_INIT 0x70000008u   /* ... .nv.global.init */
#define CUBIN_SHT_CUDA_GLOBAL      0x70000007u   /* ... .nv.global (no file bytes) */
#define CUBIN_STO_CUDA_ENTRY       0x10
#define CUBIN_STT_CUDA_SURFACE     12
#define CUBIN_STT_CUDA_OBJECT      13    /* -c: a pool operand's bytes, _param, _SREG */
#define CUBIN_STO_CUDA_CONSTANT_INTERNAL 0x81   /* STO_CUDA_CONSTANT | STV_INTERNAL */
#define CUBIN_STO_CUDA_CONSTANT    0x80   /* -c: a .const variable's symbol */
#define CUBIN_STO_CUDA_GLOBAL      0x20   /* -c: a .global variable's symbol */
#define CUBIN_R_CUDA_SURF_HEADER_INDEX 52
/* issue 17: bound textures (unified mode) */
#define CUBIN_STT_CUDA_TEXTURE     10
#define CUBIN_STT_CUDA_SAMPLER     11
#define CUBIN_R_CUDA_SAMP_HEADER_INDEX 7
#define CUBIN_R_CUDA_TEX_HEADER_INDEX 6
#define CUBIN_R_CUDA_ABS32_20      42
#define CUBIN_R_CUDA_G64           4
#define CUBIN_R_CUDA_G8_0          84    /* mask(): byte k of a generic address, R_CUDA_G8_0 + k */
#define CUBIN_R_CUDA_32            1     /* fnaddr (-c): a .func's address in an initialiser word */
#define CUBIN_R_CUDA_8_0           76    /* mask() (-c): byte k of a .func's address, R_CUDA_8_0 + k */
#define CUBIN_R_CUDA_ABS32_LO_32   43
#define CUBIN_R_CUDA_ABS32_HI_32   44
#define CUBIN_R_CUDA_FUNC_DESC32_LO_32 48
#define CUBIN_R_CUDA_FUNC_DESC32_HI_32 49
#define CUBIN_R_CUDA_CONST_FIELD19_20 50   /* -c: a c[0x2] operand's bank and offset (nvdisasm: c[`(sym)]) */
#define CUBIN_SHN_COMMON 0xfff2      /* -c: a .common variable's symbol */
#define CUBIN_R_CUDA_BINDLESSOFF13_36 51   /* -c: a bound handle's slot in a TEX/SULD/... field */
#define CUBIN_R_CUDA_CONST_FIELD21_20 54   /* -c: an LDC's c[0x2] offset, a jump table's (RELA) */
#define CUBIN_R_CUDA_ABS24_20      45    /* -c: a .shared variable's address in an LDS/STS/MOV32I */
#define CUBIN_R_CUDA_ABS16_20      46    /* -c: a .const variable's bank offset in a MOV32I */
#define CUBIN_STO_CUDA_SHARED      0x40  /* -c: a .shared variable's symbol */
#define CUBIN_SHT_CUDA_SHARED      0x7000000au   /* -c: .nv_debug.shared (no file bytes) */
#define CUBIN_BRX_TABLE_ADDEND (-0x8000)   /* its addend, as ptxas -c writes it */
/* The weak objects whose values the driver patches into the MOV32I of a
 * descriptor lookup: the byte size of one surface descriptor (suq) or
 * texture descriptor (txq). */
#define CUBIN_SURFREF_DESC_SIZE_SYMBOL ".nv.surfrefDescSize"
#define CUBIN_TEXREF_DESC_SIZE_SYMBOL ".nv.unified.texrefDescSize"
typedef enum CubinDescKind { CUBIN_DESC_SURFACE, CUBIN_DESC_TEXTURE, CUBIN_DESC_KINDS } CubinDescKind;

/* .nv.info record formats and the attributes this project reads/writes. */
enum {
	CUBIN_EIFMT_NVAL = 1,   /* no value: 2 zero bytes */
	CUBIN_EIFMT_BVAL = 2,   /* one byte value + 1 pad byte */
	CUBIN_EIFMT_HVAL = 3,   /* u16 value */
	CUBIN_EIFMT_SVAL = 4,   /* u16 payload size + payload */
};
enum {
	CUBIN_EIATTR_CTAIDZ_USED           = 0x04,
	CUBIN_EIATTR_MAX_THREADS           = 0x05,
	CUBIN_EIATTR_PARAM_CBANK           = 0x0a,
	CUBIN_EIATTR_EXTERNS               = 0x0f,
	CUBIN_EIATTR_REQNTID               = 0x10,
	CUBIN_EIATTR_FRAME_SIZE            = 0x11,
	CUBIN_EIATTR_MIN_STACK_SIZE        = 0x12,
	CUBIN_EIATTR_BINDLESS_TEXTURE_BANK = 0x15,
	CUBIN_EIATTR_BINDLESS_SURFACE_BANK = 0x16,
	CUBIN_EIATTR_KPARAM_INFO           = 0x17,
	CUBIN_EIATTR_CBANK_PARAM_SIZE      = 0x19,
	CUBIN_EIATTR_MAXREG_COUNT          = 0x1b,
	CUBIN_EIATTR_EXPLICIT_CACHING      = 0x21,
	CUBIN_EIATTR_EXIT_INSTR_OFFSETS    = 0x1c,
	CUBIN_EIATTR_S2RCTAID_INSTR_OFFSETS = 0x1d,
	CUBIN_EIATTR_CRS_STACK_SIZE        = 0x1e,
	CUBIN_EIATTR_MAX_STACK_SIZE        = 0x23,
	CUBIN_EIATTR_SW1850030_WAR         = 0x2a,
	CUBIN_EIATTR_REGCOUNT              = 0x2f,
	CUBIN_EIATTR_SW2393858_WAR         = 0x30,
	CUBIN_EIATTR_INDIRECT_BRANCH_TARGETS = 0x34,
	CUBIN_EIATTR_CUDA_API_VERSION      = 0x37,
};

/* ---- the module description ------------------------------------------- */

/* A 4-byte constant-bank slot the driver fills with the surface header
 * index of a bound .global .surfref; the SUST/SULD/SURED/TXQ immediate is
 * cbank_offset / 4.  Each slot gets an R_CUDA_SURF_HEADER_INDEX relocation
 * in .rel.nv.constant0.<kernel>.  ptxas places slot i (order of first use)
 * at align4(0x140 + param bytes) + 4*i; the writer orders a kernel's slots
 * by cbank_offset, so that order must be first-use order. */
typedef struct CubinSurfaceSlot {
	const char *surfref;     /* must name one of CubinModule.surfrefs or of the kernel's handle_params */
	uint32_t cbank_offset;   /* byte offset in c[0x0]; 4-aligned, after the parameters */
	/* texmode independent: the .param .samplerref sampled with the texture
	 * handle parameter `surfref` (R_CUDA_SAMP_HEADER_INDEX on the same
	 * slot, listed before the texture's), NULL for none */
	const char *sampler;
	/* the kernel's order of first use of its handles (any increasing key):
	 * the slots put the textures first, but the first processed kernel's
	 * bound .texref/.surfref symbols follow first use, as in ptxas 11.8 */
	uint32_t first_use;
} CubinSurfaceSlot;

/* A .param .texref/.samplerref/.surfref kernel parameter (texmode
 * independent): no bytes of the parameter area; ptxas 11.8 gives it an
 * EIATTR_KPARAM_INFO record (offset 0xffff, size 0, space 6 texref, 7 surfref, 8 samplerref) and a
 * LOCAL STT_CUDA_TEXTURE/SAMPLER/SURFACE symbol in the kernel's .text. */
enum { CUBIN_HANDLE_TEXREF = 6, CUBIN_HANDLE_SURFREF = 7, CUBIN_HANDLE_SAMPLERREF = 8 };
typedef struct CubinHandleParam {
	const char *name;
	uint32_t ordinal;        /* among all the kernel's parameters; the data
	                          * parameters take the other ordinals in order */
	uint8_t space;           /* CUBIN_HANDLE_* */
} CubinHandleParam;

/* A relocated MOV32I of a module variable's address (issue 15): its byte
 * offset in .text and which half of the address it loads. */
typedef struct CubinDataFixup {
	uint32_t offset;
	/* index of CubinModule.vars (func: of CubinModule.kernels); -c: a
	 * .const one's bank offset, R_CUDA_ABS16_20 */
	uint32_t var;
	bool hi;                 /* R_CUDA_ABS32_HI_32, else R_CUDA_ABS32_LO_32 */
	bool func;               /* fnptr: a kernel's address, R_CUDA_FUNC_DESC32_HI_32/LO_32 */
	bool abs32;              /* the whole 32-bit address (.address_size 32): R_CUDA_ABS32_20 */
	bool fnaddr;             /* -c: a .func's address (var: of CubinModule.func_addrs), ABS32_HI/LO_32 */
	bool extern_entry;       /* -c: the address of a kernel the module does not define (var: of
	                          * CubinModule.externs), R_CUDA_FUNC_DESC32_HI_32/LO_32 */
	uint8_t byte;            /* a read image's function address in an initialiser (-c): 1 + k,
	                          * byte k of it (R_CUDA_8_<8k>); 0: the word (R_CUDA_32) */
} CubinDataFixup;

/* An initialiser word holding the generic address of vars[var] + addend
 * (R_CUDA_G64; in .rel.nv.global.init without an addend, else .rela). */
typedef struct CubinInitReloc {
	uint32_t offset;         /* in the variable */
	uint32_t var;
	int64_t addend;
	bool func;               /* -c: var is of CubinModule.func_addrs, R_CUDA_32 of its symbol */
	uint8_t byte;            /* mask(): 1 + k, byte k of the address (R_CUDA_G8_<8k>; of a
	                          * function's, R_CUDA_8_<8k>); 0: all */
} CubinInitReloc;

/* A module .global or .const variable: .nv.constant3, or .nv.global.init
 * with an initialiser, else .nv.global (NOBITS). */
typedef struct CubinVar {
	const char *name;
	bool is_const;
	bool visible;            /* .visible: its symbols are created first */
	bool global;             /* an STB_GLOBAL symbol (.visible, .extern, .common) */
	bool weak;               /* an STB_WEAK symbol, listed among the locals as ptxas does */
	/* -c: a .common variable without initialiser, as ptxas -c writes it:
	 * SHN_COMMON, its value its alignment, no bytes of .nv.global */
	bool common;
	/* -c: a module .shared variable, as ptxas -c leaves it to the linker:
	 * in .nv_debug.shared (offset: the sum of the sizes before it), its
	 * symbol's value its alignment, st_other STO_CUDA_SHARED; align 0 (an
	 * .extern one without size): an undefined global symbol */
	bool shared;
	/* -c: a kernel body's .shared variable: 1 + the index of its kernel
	 * (in .nv.shared.<k>, its symbol created with the kernel's); 0: none */
	uint32_t kernel_body;
	/* the order ptxas declares (creates the symbols of) the variables in,
	 * an increasing key (all 0: the array's order) */
	uint32_t decl;
	uint64_t offset, size;   /* .nv.global's may pass 4 GiB (lower_data.c) */
	uint32_t align;
	const uint8_t *init;     /* NULL: none */
	const CubinInitReloc *relocs;
	size_t nrelocs;
} CubinVar;

/* An operand read from the kernel's .nv.constant2 pool (-c). */
typedef struct CubinConst2Ref {
	uint32_t offset;         /* the instruction's, in .text */
	uint32_t pool_offset;    /* the operand's bytes in .nv.constant2.<k> */
	uint32_t size;           /* 4, or 8 for an FP64 pair; a table's bytes */
	/* a brx.idx jump table read by `LDC c[0x2][Ri + table - 0x8000]`
	 * (after IADD32I Ri, Ri, 0x8000): ptxas -c relocates its offset with
	 * R_CUDA_CONST_FIELD21_20, addend -0x8000, in .rela.text.<k> */
	bool table;
} CubinConst2Ref;

/* -c: an instruction naming a bound .texref/.surfref, as ptxas -c
 * relocates it instead of giving the handle a c[0x0] slot: the slot field
 * of TEX/TLD/TLD4/TXQ/SULD/SUST/SURED (0) R_CUDA_BINDLESSOFF13_36 in
 * .rel.text.<k>, a constant operand reading the slot (c[0x0][0x0])
 * R_CUDA_CONST_FIELD19_20 with the addend `addend` in .rela.text.<k>. */
typedef struct CubinBindlessRef {
	uint32_t offset;         /* the instruction's, in .text */
	const char *surfref;     /* one of CubinModule.surfrefs */
	bool operand;            /* the constant operand, else the slot field */
	uint32_t addend;         /* operand: where the slots would start (align4(0x140 + params)) */
} CubinBindlessRef;

/* -c: an operand of a module .const variable in .nv.constant3, as ptxas
 * -c relocates it (the operand c[0x0][0x0] in code): R_CUDA_CONST_FIELD19_20
 * (an ALU operand) or R_CUDA_CONST_FIELD21_20 (an LDC) against the
 * variable, in .rel.text.<k> without an addend, else .rela.text.<k>. */
typedef struct CubinConstVarRef {
	uint32_t offset;         /* the instruction's, in .text */
	uint32_t var;            /* index of CubinModule.vars (a .const one) */
	uint32_t addend;         /* the operand's byte offset in the variable */
	bool ldc;
	/* -c: the variable is .shared: an LDS/STS offset or a MOV32I of its
	 * address, R_CUDA_ABS24_20 */
	bool shared;
} CubinConstVarRef;

typedef struct CubinKernel {
	const char *name;
	bool local_symbol;        /* .entry without .visible: an STB_LOCAL FUNC symbol */
	bool weak_symbol;         /* -c: a .weak function: STB_WEAK, among the local symbols, as ptxas orders it */
	uint32_t source_line;     /* -c: where it is defined (the order of kernels and functions, cubin_order.c) */
	const uint8_t *code;      /* finished .text: control words + instructions */
	size_t code_size;         /* a nonzero multiple of 32 (ptxas pads to 64) */
	uint32_t regcount;        /* registers per thread, 0..255 */
	const SassParam *params; /* in declaration order; may be NULL when nparams = 0 */
	size_t nparams;
	const CubinSurfaceSlot *slots;
	size_t nslots;
	const CubinHandleParam *handle_params;   /* declaration order */
	size_t nhandle_params;
	const uint32_t *exit_offsets; /* byte offsets of the EXIT instructions in code */
	size_t nexit_offsets;
	/* The kernel executes a surface instruction (bound, parameter or
	 * register handle): ptxas then emits EIATTR_BINDLESS_SURFACE_BANK. */
	bool uses_surfaces;
	/* The kernel samples a bound .texref: EIATTR_BINDLESS_TEXTURE_BANK. */
	bool uses_textures;
	/* byte offsets of the S2R SR_CTAID.{X,Y,Z} instructions */
	const uint32_t *ctaid_offsets;
	size_t nctaid_offsets;
	bool uses_ctaid_z;        /* reads %ctaid.z: EIATTR_CTAIDZ_USED */
	bool explicit_caching;    /* has an ld.global.ca (even a dead one): EIATTR_EXPLICIT_CACHING */
	uint32_t maxreg_count;    /* .maxnreg; 0 means none (recorded as 0xff) */
	uint32_t max_threads[3];  /* .maxntid x, y, z; all 0 means none */
	uint32_t req_ntid[3];     /* .reqntid x, y, z; all 0 means none */
	uint32_t crs_stack_size;  /* bytes of SSY/SYNC stack; 0 means none */
	uint32_t frame_size;      /* bytes of the stack frame (.local): EIATTR_MIN_STACK_SIZE, FRAME_SIZE */
	bool stack_unknown;       /* recursion: EIATTR_MIN_STACK_SIZE is all ones, as ptxas writes it */
	uint32_t shared_size;     /* bytes of static .shared memory (may be 0 with dynamic) */
	uint32_t shared_align;    /* its alignment (the largest of its variables); 0: none */
	/* ptxas's .strtab names of those variables (no symbol uses them),
	 * written after ".nv.shared.<k>" */
	const char *const *shared_strings;
	size_t nshared_strings;
	/* EIATTR_INDIRECT_BRANCH_TARGETS payload as u32 words: per SYNC
	 * {offset, 0, target count, targets...} (as ptxas writes them). */
	const uint32_t *sync_targets;
	size_t nsync_target_words;
	/* The words of .nv.constant2.<k>, ptxas -O3's constant pool (the field
	 * offsets of the descriptor lookups and 32-bit mad.lo addends, in
	 * first-use order; the code reads them as c[0x2][4*i]), and the byte
	 * offsets of the MOV32I instructions of the suq/txq lookups that load
	 * a descriptor size, each relocated with R_CUDA_ABS32_20 in
	 * .rel.text.<k> (in this order) against the symbol of its
	 * desc_size_kinds[i]. Either may come without the other (ptxas -O0 adds
	 * the field offsets as immediates; a mad needs no lookup). */
	const uint32_t *desc_fields;
	size_t ndesc_fields;
	const uint32_t *desc_size_offsets;
	const uint8_t *desc_size_kinds;   /* CubinDescKind per offset */
	size_t ndesc_size_offsets;
	/* The descriptor-size symbols ptxas created while compiling the kernel,
	 * in order of first use, also for lookups all removed as dead code (no
	 * relocation then); kinds only its relocations name come after them. */
	uint8_t desc_size_symbols[CUBIN_DESC_KINDS];   /* CubinDescKind */
	size_t ndesc_size_symbols;
	/* -c only (cubin_check refuses them otherwise): the operands the code
	 * reads from .nv.constant2.<k> (code order), whose words hold
	 * c[0x0][0x0]; as ptxas -c writes them, each distinct (offset, size)
	 * gets a symbol "<k>.const_opt.<offset>.<offset+size>" (LOCAL,
	 * STT_CUDA_OBJECT, STO_CUDA_CONSTANT | STV_INTERNAL) after the
	 * section's, first read first, and each read a relocation
	 * R_CUDA_CONST_FIELD19_20 (0x32) against it in .rel.text.<k> */
	const CubinConst2Ref *const2_refs;
	size_t nconst2_refs;
	/* -c: the slots bound handles would have had (first_use counts: it
	 * orders the first processed kernel's handle symbols) */
	const CubinSurfaceSlot *bound_slots;
	size_t nbound_slots;
	/* -c: the instructions naming a bound handle (code order) */
	const CubinBindlessRef *bindless_refs;
	size_t nbindless_refs;
	/* -c: the operands of .const variables (code order) */
	const CubinConstVarRef *const_var_refs;
	size_t nconst_var_refs;
	/* MOV32I of module variable addresses, relocated in .rel.text.<k> */
	const CubinDataFixup *data_fixups;
	size_t ndata_fixups;
	/* -c: JCAL of external functions (var: index of CubinModule.externs),
	 * each relocated with R_CUDA_ABS32_20 in .rel.text.<k> */
	const CubinDataFixup *extern_calls;
	size_t nextern_calls;
	/* -c: an address-taken .func compiled as a function of its own: a
	 * FUNC symbol without STO_CUDA_ENTRY, no .nv.constant0, .nv.info.<f>
	 * with the API version only, REGCOUNT/MAX_STACK_SIZE/FRAME_SIZE in
	 * .nv.info, as ptxas -c writes it */
	bool abi_func;
} CubinKernel;

/* A function or kernel the module declares and ptxas's prototype string
 * of its signature (e.g. "#lil"; -c: the .strtab name of its
 * .nv.prototype and .nv.callgraph entries). */
typedef struct CubinFuncProto {
	const char *name;
	const char *sig;      /* NULL: a kernel */
} CubinFuncProto;

typedef struct CubinModule {
	int sm;                    /* SASS target, e.g. 50 */
	int ptx_target_sm;         /* the PTX .target; 0 means "same as sm" */
	bool address64;            /* .address_size 64 */
	bool texmode_independent;  /* .texmode independent (else unified) */
	const CubinKernel *kernels;   /* in PTX source order */
	size_t nkernels;
	const char *const *surfrefs;  /* every .global .surfref and .texref, in declaration order */
	const bool *surfref_is_texture; /* per surfrefs[i] (NULL: none is): a .texref
	                                 * (STT_CUDA_TEXTURE, R_CUDA_TEX_HEADER_INDEX) */
	size_t nsurfrefs;
	const CubinVar *vars;         /* module .global/.const variables, declaration order */
	size_t nvars;
	/* -c (as ptxas -c): an ET_REL object without program headers, with an
	 * undefined FUNC symbol per external function, .nv.callgraph and
	 * .nv.prototype */
	bool relocatable;
	const char *const *externs;
	size_t nexterns;
	/* per externs: a kernel (.extern .entry) whose address is taken, an
	 * undefined symbol marked STO_CUDA_ENTRY as ptxas -c writes it; NULL:
	 * none */
	const bool *extern_is_entry;
	/* -c: the functions whose address is relocated (each an abi_func
	 * kernel or one of externs) */
	const char *const *func_addrs;
	size_t nfunc_addrs;
	/* every .func and .entry declared, in declaration order; under -c
	 * each called external function and each of func_addrs must have a
	 * sig. ptxas creates an external function's undefined symbol and name
	 * with the first processed kernel calling it or taking its address
	 * (several: in this order), and the prototype strings last to first */
	const CubinFuncProto *protos;
	size_t nprotos;
} CubinModule;

/* Builds the cubin image.  On success returns 0 and stores a malloc'd
 * buffer in *out (free() it) and its size in *outlen.  On an invalid module
 * returns -1, leaves *out NULL and writes a one-line reason into err. */
int cubin_write(const CubinModule *m, uint8_t **out, size_t *outlen,
                char *err, size_t errlen);

#endif
