/* PTX -> sm_50 lowering. Every .entry becomes a list of SASS instructions
 * (a form of sass_table.h plus its field values) whose register fields
 * still name *virtual* registers; regalloc.c replaces them with physical
 * ones and sched.c adds the control words.
 *
 * A virtual register is 1..4 consecutive 32-bit parts (a 64-bit PTX
 * register is 2 parts, a .128 surface data group 4) or one predicate.
 * Instructions name the parts they touch, so liveness is tracked per part
 * and groups land in aligned consecutive physical registers. */
#ifndef PTXSURF_LOWER_H
#define PTXSURF_LOWER_H

#include "front/ast.h"
#include "sm50/sass_abi.h"
#include "base/diag.h"
#include "sm50/sass_encode.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { LIR_MAX_REFS = 6, LIR_NO_LABEL = -1 };

typedef enum LRegClass { LRC_GPR, LRC_PRED } LRegClass;

typedef struct LVReg {
	LRegClass cls;
	uint8_t width;      /* 32-bit parts (GPR); 1 for predicates */
	bool temp;          /* made by the lowering: every use is under the guard of its defs */
	int phys;           /* after allocation: first register / predicate */
	bool fixed;         /* phys is fixed before allocation (the calling convention's registers) */
	bool call_result;   /* a function's result: a call defines it, nothing saves it across the call */
	bool call_param;    /* a recursive function's parameter word: its caller writes it, its
	                     * entry copies it (lower_call.c copy_params) */
} LVReg;

/* One register operand: parts [sub, sub+count) of vreg, placed in the field
 * of `role` as the register of part `sub`. Eight bytes: every pass walks
 * the references of every instruction. */
typedef struct LRegRef {
	uint32_t vreg;
	uint8_t role;           /* SassRole */
	uint8_t sub;
	uint8_t count;
	bool def;
} LRegRef;

/* LRegRef.role of a register the instruction reads or writes without a
 * field for it: a JCAL's arguments and results in the calling convention's
 * registers (issue 15, lower_extern.c). */
enum { LROLE_ABI = SR_COUNT };

/* A relocation on an instruction's immediate (filled in by the driver). */
typedef enum LReloc {
	LRELOC_NONE,
	LRELOC_DESC_SIZE,       /* MOV32I of .nv.surfrefDescSize, R_CUDA_ABS32_20 */
	LRELOC_TEX_DESC_SIZE,   /* MOV32I of .nv.unified.texrefDescSize, R_CUDA_ABS32_20 */
	LRELOC_DATA_LO,         /* MOV32I of a module variable's address, low word: R_CUDA_ABS32_LO_32 */
	LRELOC_DATA_HI,         /* its high word: R_CUDA_ABS32_HI_32 */
	LRELOC_EXTERN_CALL,     /* JCAL of an external function (-c): R_CUDA_ABS32_20 */
	LRELOC_KERNEL_LO,       /* fnptr: MOV32I of a kernel's address (-c), low word: R_CUDA_FUNC_DESC32_LO_32 */
	LRELOC_KERNEL_HI,       /* its high word: R_CUDA_FUNC_DESC32_HI_32 */
	LRELOC_DATA_ABS32,      /* MOV32I of a module variable's 32-bit address (.address_size 32): R_CUDA_ABS32_20 */
	/* ---- fnaddr: a .func's address under -c (lower_fnaddr.c) ---- */
	LRELOC_FUNC_LO,         /* MOV32I, low word: R_CUDA_ABS32_LO_32 of the function's symbol */
	LRELOC_FUNC_HI,         /* its high word: R_CUDA_ABS32_HI_32 */
	LRELOC_CONST_ADDR,      /* MOV32I of a .const variable's bank offset (-c): R_CUDA_ABS16_20 */
} LReloc;

/* The kind of a descriptor-table lookup (suq / txq queries): which size
 * symbol its MOV32I loads (the values of CubinDescKind). */
enum { LDESC_SURFACE, LDESC_TEXTURE, LDESC_KINDS };

/* The non-register field values are kept by position in the form
 * (val[i] is the value of form->fields[i] when bit i of `set` is on), not
 * in a SassValues with a slot for every role: that made an instruction
 * 792 bytes, and allocation, scheduling and encoding copy or walk every
 * instruction several times. Access them with linsn_set/get/has. */
typedef struct LInsn {
	const SassForm *form;
	LRegRef refs[LIR_MAX_REFS];
	int64_t val[SASS_MAX_FIELDS];
	uint32_t set;
	uint8_t nrefs;
	/* 1 + the lowest role set that the form has no field for (0: none):
	 * a lowering bug that encoding reports as sass_encode() would */
	uint8_t stray;
	bool reads_cc, writes_cc;
	bool keep;              /* never removed as dead code (volatile loads) */
	uint8_t narrow_parts;   /* vector SULD: 32-bit parts per PTX element (0: keep its size) */
	bool tex_result;        /* texs: a texture sample or fetch whose destination vregs hold
	                         * only its components, narrowed to those read (tex_narrow.c) */
	uint8_t tex_general;    /* a compact texture form whose read components (this mask) it
	                         * cannot write: rewritten as TEX/TLD/TLD4 (tex_narrow.c) */
	uint8_t reloc;          /* LReloc */
	uint8_t stack_reg;      /* LSTACK_*: reads / writes the stack pointer R1 (a fixed field) */
	bool save_live;         /* CAL of a recursive function: save what lives across it (call_save.c) */
	bool call_frame;        /* call_save.c's frame push/pop or save-area access around such a
	                         * CAL: moved down when spill slots grow the frame (call_save_shift) */
	uint16_t shared_sym;    /* varaddr: in a function's code, 1 + the index of the .shared
	                         * variable (LowerCtx.module_shared) whose offset in the kernel
	                         * linking it is added to SR_IMM (lower_shared_link.c); 0: none.
	                         * -c: kept for a module variable (LModule.shared), whose
	                         * address the linker writes (R_CUDA_ABS24_20, SR_IMM the addend) */
	uint16_t handle_slot;   /* 1 + the index of the bound handle (LKernel.slot_surfrefs) whose
	                         * c[0x0] word SR_SUIDX or SR_COFF names: moved when the kernel
	                         * links a function that uses handles (lower_handles_link.c); 0: none */
	uint16_t reloc_var;     /* LRELOC_DATA_*, LRELOC_CONST_ADDR: the variable, an index of LModule.vars;
	                         * LRELOC_EXTERN_CALL: the function, an index of LModule.externs;
	                         * LRELOC_KERNEL_*: the kernel, an index of LModule.kernel_addrs;
	                         * LRELOC_FUNC_*: the function, an index of LModule.func_addrs */
	int target;             /* BRA: label id */
	SrcLoc loc;             /* PTX instruction it came from */
} LInsn;

/* LInsn.stack_reg: the scheduler orders these accesses of R1 too.
 * LSTACK_OUT: an access of the outgoing argument area at the bottom of the
 * frame (lower_extern_stack.c), whose offset stays when the frame's other
 * contents move up above it; LSTACK_IN: a function of its own reading an
 * argument its caller passed on the stack, at R1 + offset on entry (the
 * offset grows by every frame the prologue makes, lkernel_incoming_offsets). */
enum { LSTACK_READ = 1, LSTACK_WRITE = 2, LSTACK_OUT = 4, LSTACK_IN = 8 };

/* ---- issue 15: calls ----
 * A direct call of the kernel or of a device function: the CAL instruction
 * and the placeholder vregs its argument and result copies use; linking
 * (lower_call.c) renames them to the callee's parameter vregs. */
typedef struct LCallSite {
	size_t insn;            /* index of the CAL */
	const char *callee;     /* interned */
	SrcLoc loc;
	uint32_t *vregs;        /* {first vreg, words} of nargs argument placeholders, then nrets result ones */
	uint32_t nargs, nrets;
	bool divergent;         /* only some threads of a warp may make it (reconverge.c) */
	/* the callee's variadic block is passed as its address, one word (a
	 * function of its own's wrapper, lower_fnaddr.c), not as its words */
	bool vararg_address;
} LCallSite;

/* A .param .texref/.samplerref/.surfref kernel parameter (texmode
 * independent): no bytes of the parameter area, its own KPARAM_INFO record
 * whose space is the LPARAM_* value, as ptxas 11.8 writes it. */
enum { LPARAM_TEXREF = 6, LPARAM_SURFREF = 7, LPARAM_SAMPLERREF = 8 };
typedef struct LHandleParam {
	const char *name;       /* interned */
	uint32_t ordinal;       /* position among all the kernel's parameters */
	uint8_t space;          /* LPARAM_* */
} LHandleParam;

/* ---- brx: a .branchtargets table of brx.idx, one .nv.constant2 word per
 * target holding its .text offset (filled when the code is laid out) ---- */
enum { LBRX_MAX_TARGETS = 256 };
typedef struct LBrxTable {
	int *labels;            /* the targets' label ids */
	uint32_t n;
	uint32_t word;          /* its first word in .nv.constant2 (lkernel_compact_const2) */
	/* -c: SASS_BRX_TABLE_BIAS, which the code adds to the index before
	 * the LDC and its offset takes off again (0 without -c) */
	uint32_t bias;
} LBrxTable;

typedef struct LKernel {
	const char *name;
	bool local_symbol;
	bool weak_symbol;       /* -c: a .weak function of its own, an STB_WEAK FUNC symbol */
	SrcLoc loc;
	LInsn *insns;
	size_t ninsns, cap;
	LVReg *vregs;
	size_t nvregs, vcap;
	size_t *label_pos;      /* label id -> index of the instruction it precedes */
	size_t nlabels;
	SassParam *params;
	size_t nparams;
	const char **slot_surfrefs;   /* bound surfrefs (or handle parameters): the textures', then the
	                               * surfaces', each in order of first use */
	const char **slot_samplers;   /* per slot: the .param .samplerref paired with it, or NULL */
	uint32_t *slot_first_use;     /* per slot: its rank in the order of first use, which the
	                               * slots (textures first) do not keep; NULL: the slots' order */
	LHandleParam *handle_params;  /* declaration order */
	size_t nhandle_params;
	size_t nslots;
	uint32_t first_slot_offset;   /* c[0x0] byte offset of slot 0 */
	uint32_t *desc_fields;        /* .nv.constant2 words (suq field offsets, mad.lo addends), first use first */
	size_t ndesc_fields;
	/* a single word ptxas puts ahead of the f64 pairs (its
	 * __cuda_sm20_dsqrt_{rd,ru,rz}_f64 reads -1 first): lkernel_const2_lead */
	uint32_t const2_lead;
	bool has_const2_lead;
	/* the LDESC_* kinds of the lookups lowered, first use first, even if
	 * later removed as dead (ptxas keeps their size symbols) */
	uint8_t desc_size_symbols[LDESC_KINDS];
	size_t ndesc_size_symbols;
	bool uses_surfaces;
	bool uses_textures;            /* a bound texref: EIATTR_BINDLESS_TEXTURE_BANK */
	bool uses_ctaid_z;
	bool explicit_caching;        /* an ld.global.ca: ptxas records EIATTR_EXPLICIT_CACHING */
	uint32_t shared_size;         /* bytes of static .shared memory (.nv.shared.<k>) */
	uint32_t shared_align;        /* the largest alignment among them; 0: no .nv.shared.<k> */
	char **shared_strings;        /* their names as ptxas writes them to .strtab, in layout order */
	uint32_t frame_size;          /* bytes of .local variables below the stack pointer R1 */
	size_t nshared_strings;
	/* varaddr: 1 + the offset of each module .shared variable (an index of
	 * LowerCtx.module_shared) the kernel placed, 0: not placed; its dynamic
	 * ones (.extern, no size) are at the section's end, shared_size */
	uint32_t *shared_sym_at;
	size_t nshared_sym_at;
	bool shared_dynamic;
	uint32_t max_threads[3], req_ntid[3];
	uint32_t maxreg_count;        /* the register limit (reg_limit.c): .maxnreg, else what the
	                               * thread count leaves; 0 = none. The allocator's budget */
	SrcLoc maxreg_loc;            /* the directive it comes from */
	const char *maxreg_from;      /* its name: ".maxnreg", ".maxntid", ".reqntid", ".minnctapersm" */
	LCallSite *calls;             /* issue 15: direct calls (kernel and linked functions) */
	size_t ncalls, calls_cap;
	uint32_t call_depth;          /* the longest chain of nested calls (CRS stack entries) */
	bool recursive;               /* calls a recursive function: the stack depth is unknown */
	uint32_t call_save_base;      /* where call_save.c's save areas start in a call's frame
	                               * (the .local frame rounded up to 16 bytes when it ran) */
	/* ---- fnptr: calls through a register (lower_fnptr.c), expanded
	 * into a dispatch over the module's address-taken functions when the
	 * kernel is linked ---- */
	struct LIndirectCall *indirect;
	size_t nindirect;
	uint32_t crs_nesting;         /* SSY regions nested at most (reconverge.c), plus those of
	                               * every linked function: an upper bound */
	bool crs_loop;                /* a loop reconverges (reconverge.c): ptxas 11.8 then records
	                               * at least SASS_CRS_LOOP_BYTES of CRS stack */
	bool crs_divergent_jcal;      /* a JCAL (a callee not linked in: external, system, -c)
	                               * that only some threads of a warp may make, also in a
	                               * linked function: SASS_CRS_DIVERGENT_CALL_BYTES */
	/* ---- brx: the jump tables of brx.idx (lower_brx.c); a BRX's target
	 * is its table's index here, the LDC reading it has the index as its
	 * c[0x2] offset until lkernel_compact_const2 ---- */
	struct LBrxTable *brx;
	size_t nbrx;
	/* ---- fnaddr: -c, an address-taken .func compiled as a function of
	 * its own (lower_fnaddr.c): arguments and results in the calling
	 * convention's registers, RET, no stack-pointer load; it may use
	 * R0 and R3..R15 only (its callers keep values in R2 and R16 up) */
	bool abi_func;
	/* ---- calls whose arguments or results do not fit R4..R15
	 * (lower_extern_stack.c): the stores, loads and result pointers
	 * waiting to be placed around their JCAL (or the entry and RET of a
	 * function of its own) when linking ends, and the bytes of the
	 * outgoing argument area at R1 + 0 of the frame ---- */
	struct LStackOp *stack_ops;
	size_t nstack_ops;
	uint32_t call_area;
	/* filled by later passes */
	uint32_t regcount;
} LKernel;

/* A module .global or .const variable (lower_data.c). Its initialiser is
 * `size` bytes (NULL: none, zero-filled) whose 64-bit words at the offsets
 * of `relocs` hold the generic address of another variable plus an addend,
 * patched by the driver through R_CUDA_G64. */
typedef enum LDataSpace { LDATA_GLOBAL, LDATA_CONST } LDataSpace;
typedef enum LDataBind { LBIND_LOCAL, LBIND_GLOBAL, LBIND_WEAK } LDataBind;

typedef struct LDataReloc {
	uint32_t offset;        /* byte offset in the initialiser */
	uint32_t var;           /* the variable whose address is stored, an index of LModule.vars */
	int64_t addend;
	bool func;              /* fnaddr (-c): var is an index of LModule.func_addrs; R_CUDA_32 */
	uint8_t byte;           /* mask() (0xFF << 8 k): 1 + k, the one byte k of the address
	                         * (R_CUDA_G8_<8k>, a function's R_CUDA_8_<8k>); 0: the whole word */
} LDataReloc;

typedef struct LDataVar {
	const char *name;       /* interned */
	uint8_t space;          /* LDataSpace */
	uint8_t bind;           /* LDataBind: its symbol's binding */
	bool visible;           /* .visible (ptxas places and lists these first) */
	uint64_t size;          /* a .global one without initialiser may pass 4 GiB */
	uint32_t align;
	uint8_t *init;          /* NULL: no initialiser */
	LDataReloc *relocs;
	size_t nrelocs;
	uint64_t offset;        /* in its section: .nv.constant3 (c[0x3]), .nv.global.init or .nv.global */
	SrcLoc loc;             /* its declarator, for a diagnostic of its placement */
	bool placed;            /* offset assigned */
	bool common;            /* .common: -c leaves its place to the linker (SHN_COMMON) */
} LDataVar;

/* -c: a declared .func and ptxas -c's prototype string of it, the
 * .strtab name .nv.prototype and .nv.callgraph give its signature by: "#",
 * the result, then each parameter: i/l a 32/64-bit integer, f/d .f32/.f64,
 * b<N> an N-byte array, v no result ("#lil": .b64 f(.b32, .b64)). */
typedef struct LFuncProto {
	const char *name;     /* interned */
	char *sig;            /* NULL: a kernel */
} LFuncProto;

/* -c: a .shared variable (an index of it is LInsn.shared_sym - 1) of the
 * module or of a kernel body; align 0: dynamic (.extern, no size); body:
 * declared in a function body (its label the name), laid out in each
 * kernel as without -c. */
typedef struct LModShared {
	const char *name;        /* interned, or the label */
	uint32_t size, align;
	bool body;
	int32_t kernel;          /* a kernel body's (named by its label): its index of kernels; -1: none */
	uint32_t before_var;     /* module-scope: how many of vars were declared before it */
} LModShared;

typedef struct LModule {
	bool address64;
	int target_sm;
	bool texmode_independent;
	LKernel *kernels;
	size_t nkernels;
	const char **surfrefs;        /* every .global .surfref and .texref, declaration order */
	bool *surfref_is_texture;     /* per surfrefs[i]: a .texref */
	size_t nsurfrefs;
	LDataVar *vars;               /* module .global/.const variables, declaration order */
	size_t nvars;
	/* issue 15, -c: calls of functions without a body become JCALs of
	 * these external functions (interned names, first call first) */
	bool relocatable;
	const char **externs;
	size_t nexterns;
	/* fnptr, -c: kernels whose address the code takes (interned names) */
	const char **kernel_addrs;
	size_t nkernel_addrs;
	/* fnaddr, -c: functions whose address the code or data takes
	 * (interned names); each is an abi_func kernel or one of externs */
	const char **func_addrs;
	size_t nfunc_addrs;
	LFuncProto *protos;      /* every .func and .entry, declaration order (once each; a kernel's sig NULL) */
	size_t nprotos;
	/* -c: the module .shared variables (declaration order), which the code
	 * names through relocations (LInsn.shared_sym) as ptxas -c does */
	LModShared *shared;
	size_t nshared;
} LModule;

/* Lowers every .entry of m. Constructs outside the supported subset get an
 * `encoder-unsupported` error at their location; returns the number of such
 * errors (0 = *out is complete). */
unsigned lower_module(const Module *m, DiagSink *sink, LModule *out);
void lower_module_free(LModule *lm);
/* lower_module(), calling done(kernel, arg) after each kernel while there
 * are no errors yet, so a caller can encode and free a kernel's
 * instructions before the next is lowered. */
typedef void (*LKernelDone)(LKernel *k, void *arg);
unsigned lower_module_each(const Module *m, DiagSink *sink, LModule *out, LKernelDone done, void *arg);

/* The same one top-level item at a time, in module order, for a caller that
 * parses and checks a module as a stream: lower_stream_item() may be given
 * an item that is freed when it returns (the LModule keeps only interned
 * names). lower_stream_end() diagnoses the module as a whole, frees the
 * stream and returns the number of errors. */
typedef struct LowerStream LowerStream;
LowerStream *lower_stream_begin(DiagSink *sink, LModule *out, LKernelDone done, void *arg);
/* -c: calls of functions without a body are calls of external functions. */
void lower_stream_relocatable(LowerStream *s);
void lower_stream_item(LowerStream *s, const Item *it);
/* The rest of the last item's lowering, which reads nothing of the item
 * (a kernel's or function's reconvergence and linking, and a kernel's
 * done()): a caller that frees the item calls it after that, so the
 * syntax tree and the grown code are not held together. The next
 * lower_stream_item() and lower_stream_end() call it first. */
void lower_stream_settle(LowerStream *s);
unsigned lower_stream_end(LowerStream *s);

/* ---- helpers shared by the lowering files and the later passes ---- */

uint32_t lkernel_new_vreg(LKernel *k, LRegClass cls, unsigned width, bool temp);
LInsn *lkernel_append(LKernel *k, SassFormId form, SrcLoc loc);
/* The kernel's frame adjustment (IADD32I R1, R1, -frame_size after the
 * MOV R1 that starts it) set to k->frame_size: inserted, the labels behind
 * it moved along, when the kernel has none yet (assembly, after spilling). */
void lkernel_frame_adjust(LKernel *k);
/* A function of its own: each LSTACK_IN load's offset (from R1 on entry)
 * plus the frames the prologue before it makes (after allocation). */
void lkernel_incoming_offsets(LKernel *k);
void linsn_ref(LInsn *in, SassRole role, uint32_t vreg, unsigned sub, unsigned count, bool def);
/* Field values by role, as sass_values_set/get on a SassValues. */
void linsn_set(LInsn *in, SassRole r, int64_t value);
int64_t linsn_get(const LInsn *in, SassRole r, int64_t dflt);
/* The instruction word (sass_encode() of the form and values, with its
 * messages); imm, when not NULL, replaces the SR_IMM value. */
int linsn_encode(const LInsn *in, const int64_t *imm, uint64_t *word, char *err, size_t errlen);
/* Sets every field of in->form that is still unset to its neutral value
 * (registers RZ, predicates PT, lane mask 0xf, branch condition T, 0). */
void linsn_fill_defaults(LInsn *in);

/* The constant bank of .nv.constant2 (c[0x2]): only the words of
 * lkernel_const2_slot are read from it, which lets compaction renumber them. */
enum { LK_CONST2_BANK = 2 };
/* The .nv.constant2 byte offset of a word holding value (lower_desc.c). */
uint32_t lkernel_const2_slot(LKernel *k, uint32_t value);
/* As lkernel_const2_slot, and the word goes first in .nv.constant2, the
 * f64 pairs after it from the next even word (lower_desc.c). */
uint32_t lkernel_const2_lead(LKernel *k, uint32_t value);
/* A lookup of kind LDESC_* was lowered: the kernel declares its
 * descriptor-size symbol (lower_desc.c). */
void lkernel_desc_size_symbol(LKernel *k, int kind);
/* The word index of an f64 constant's low word in .nv.constant2 (issue 17). */
uint32_t lkernel_const2_pair(LKernel *k, uint32_t lo, uint32_t hi);
/* After dead-code removal: renumbers the .nv.constant2 words so that only
 * those code still reads keep one, after brx.idx's jump tables, which come
 * first (zero until kernel_code_build fills in the targets' offsets;
 * lower_desc.c). */
void lkernel_const2_adopt(LKernel *k, const LKernel *from, LInsn *in);
void lkernel_compact_const2(LKernel *k);
/* The successor instructions of a BRX (its table's targets). */
unsigned lkernel_brx_targets(const LKernel *k, const LInsn *brx, size_t *succ);
void lkernel_brx_free(LKernel *k);

#endif
