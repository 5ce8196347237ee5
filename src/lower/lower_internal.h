/* State and helpers shared by the lowering files.
 *
 * Reading order, top-down: lower.c walks the module and picks, from its
 * opcode table, the handler of each instruction (by opcode, type and state
 * space); the handler files (lower_move, lower_arith, lower_float,
 * lower_fcvt, lower_flow, lower_mem, lower_surface) emit sm_50 forms through
 * the short shared sequences of lower_seq.c and the context helpers of
 * lower_ctx.c and lower_vars.c (variables in the shared window); lower_ir.c, lower_map.c and lower_desc.c are the data
 * structures underneath. Handlers never call each other. Prefixes:
 *   lower_   a handler (one PTX opcode family) or the driver (lower.h);
 *   lw_      a helper a handler calls (lower_ctx.c, lower_seq.c);
 *   lkernel_ / linsn_   the sm_50 IR of one kernel (lower_ir.c, lower_desc.c);
 *   lmap_    the string maps of names (lower_map.c). */
#ifndef PTXSURF_LOWER_INTERNAL_H
#define PTXSURF_LOWER_INTERNAL_H

#include "lower/lower.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* A PTX scalar type as the lowering needs it: the view ptx_type_of_word
 * takes of isa/ptx_types.c's table. */
typedef struct PtxTy {
	unsigned bits;      /* 8, 16, 32, 64; 1 for .pred; 0 = not a type word */
	bool is_signed;
	bool is_float;
	bool is_bits;       /* .b8 ... .b64: neither signed, unsigned nor float */
} PtxTy;

/* The kind of a module handle in LowerCtx.module_surfrefs (its extra). */
enum { LHANDLE_SURFACE = 0, LHANDLE_TEXTURE = 1 };

/* One name of a string map (registers, labels, parameters, surfrefs). */
typedef struct LMapEntry {
	const char *key;
	int64_t value;
	int64_t extra;
} LMapEntry;

typedef struct LMap {
	LMapEntry *slots;
	size_t cap, count;
} LMap;

void lmap_init(LMap *m);
void lmap_fini(LMap *m);
LMapEntry *lmap_find(const LMap *m, const char *key);
/* Inserts key (not copied) unless present; returns the entry. */
LMapEntry *lmap_put(LMap *m, const char *key, int64_t value, int64_t extra);

/* A source operand after classification. */
typedef enum OpndKind { OPND_REG, OPND_IMM } OpndKind;
typedef struct Opnd {
	OpndKind kind;
	uint32_t vreg;      /* OPND_REG */
	unsigned width;     /* parts of the vreg */
	int64_t imm;        /* OPND_IMM */
} Opnd;

/* A module-scope .shared variable (lower_vars.c); align 0: dynamic
 * (.extern, no size). One declared in a function body is laid out as a
 * module one (lower_shared_link.c): label is its .strtab name then,
 * `$__<name>__<line>`, and its name names it in that body only. */
typedef struct LSharedVar {
	const char *name;
	uint32_t size, align;
	char *label;        /* owned; NULL for a module-scope variable */
	/* -c: a kernel body's (as ptxas -c, relocated against its label):
	 * the kernel's index of lm->kernels; -1: none */
	int32_t kernel;
	uint32_t before_var;   /* module-scope: lm->nvars when declared */
} LSharedVar;

/* The state space of a variable of LowerCtx.vars (its `extra`);
 * LVAR_SHARED_SYM: a .shared variable named in a function, whose offset
 * is the linking kernel's (the value is its index of module_shared). */
enum { LVAR_SHARED = 1, LVAR_LOCAL = 2, LVAR_SHARED_SYM = 3 };

/* A .local variable of the kernel body, before the frame is laid out. */
typedef struct LLocalVar {
	const char *name;
	uint32_t size, align;
} LLocalVar;

/* tex: a fetch coordinate (element elem of tex's coordinate vector)
 * whose register is base + imm, foldable into the offsets word
 * (lower_tex_offsets.c). */
typedef struct LTexFold {
	const Instr *tex;
	unsigned elem;
	const Expr *base;
	int imm;
} LTexFold;

typedef struct LowerCtx {
	DiagSink *sink;
	LModule *lm;
	LKernel *k;
	unsigned errors;
	LMap regdecl;       /* register name or range prefix -> packed PtxTy; extra = range (-1) */
	LMap regs;          /* register name -> vreg */
	LMap labels;        /* label -> id */
	LMap params;        /* param name -> offset; extra = size */
	LMap param_handles; /* 64-bit register -> offset of the param it only ever holds */
	LMap param_words;   /* 32-bit register -> offset of the param it only ever holds */
	int64_t *vreg_cword;/* vreg -> c[0x0] byte offset of the param word it holds, or -1 */
	size_t nvreg_cword;
	int64_t *vreg_cpair;/* 64-bit vreg -> c[0x0] byte offset of the 64-bit param it holds, or -1 */
	size_t nvreg_cpair;
	LMap module_surfrefs;
	LMap ref_params;    /* .param .texref/.samplerref/.surfref -> LPARAM_*; extra = index of k->handle_params */
	LMap tex_samplers;  /* texture parameter -> index of k->handle_params of its first sampler */
	LTexFold *tex_folds;/* the kernel's foldable fetch coordinates (lower_tex_offsets.c) */
	size_t ntex_folds, tex_folds_cap;
	LMap vars;          /* variable of the kernel -> offset in its window; extra = LVAR_* */
	LSharedVar *module_shared;    /* module .shared variables, declaration order */
	size_t nmodule_shared, module_shared_cap;
	LMap data_vars;     /* module .global/.const variable -> index of lm->vars */
	size_t data_vars_cap;
	uint32_t const_size;/* bytes of .nv.constant3 placed so far */
	/* Registers of nested blocks are keyed name@B (B: the block's number
	 * in pre-order, from 1): the blocks enclosing the instruction lowered */
	uint32_t scope[64];
	unsigned nscope;
	uint32_t nblocks;   /* blocks numbered so far in the walk */
	void **owned;       /* name@B keys (and lower_vecreg.c's rewrites), freed with the kernel */
	LMap vecregs;       /* vector register (scoped name) -> its element count (lower_vecreg.c) */
	size_t nowned;
	LLocalVar *locals;  /* the body's .local variables, declaration order */
	size_t nlocals;
	/* issue 15: calls. .param variables held in registers (a device
	 * function's parameters and results, a call's argument blocks): scoped
	 * name -> vreg, extra = bytes. funcs: the device functions lowered so
	 * far, each a fragment linked into the kernels that call it. */
	LMap pregs;
	bool in_func;
	struct LFunc *declaring;  /* the function whose signature is being declared (else NULL) */
	/* varaddr: the function's .reg parameters and results (lower_call.c) */
	struct LRegParam *reg_params;
	size_t nreg_params;
	struct LFunc *funcs;
	/* register-held .param words stored to so far, by vreg
	 * (lower_param_bytes.c) */
	uint8_t *preg_stored;
	size_t npreg_stored;
	size_t nfuncs, funcs_cap;
	/* fnptr: every .func declared so far (name -> 0), and the functions
	 * whose address was taken, in order of first use: function i's
	 * address is the id 8 * (i + 1) (lower_fnptr.c) */
	LMap func_decls;
	const char **fptrs;
	SrcLoc *fptr_locs;  /* where each one's address was first taken (0: by a call) */
	size_t nfptrs;
	/* per declared .func (func_decls' value): the alignment in 32-bit
	 * words of each parameter, then of each result */
	uint8_t **decl_align;
	int32_t *decl_vararg;   /* the index of its variadic block among its parameters, or -1 */
	size_t ndecl_align;
	/* a variadic function's block (lower_vararg.c): its name in the body
	 * and the vreg of the one word holding its address (else NULL) */
	const char *vararg_name;
	uint32_t vararg_vreg;
	/* brx: the labels of the body's .branchtargets tables (each an
	 * ST_LABEL whose next statement is the directive), lower_brx.c */
	const Stmt **brx_decls;
	size_t nbrx_decls;
	/* the instruction being lowered */
	const Instr *cur;
	int guard_vreg;     /* -1: none */
	bool guard_neg;
} LowerCtx;

/* Diagnoses an unsupported construct at loc; always returns false. */
/* lower_handles.c. The c[0x0] byte offset of the slot of bound
 * surfref/texref (or handle parameter) `name` in this kernel, with
 * `sampler` (a .param .samplerref, or NULL) for a texture sampled with a
 * separate sampler (a new slot at its first use). */
uint32_t lw_bound_slot(LowerCtx *c, const char *name);
uint32_t lw_handle_slot(LowerCtx *c, const char *name, const char *sampler);
/* The index of k's slot of (name, sampler), added last at its first use. */
size_t lkernel_handle_slot(LKernel *k, const char *name, const char *sampler);
/* Sets `role` (SR_SUIDX, SR_COFF) of in to the c[0x0] word `word`; a word
 * of one of this kernel's slots (at and after first_slot_offset: the
 * parameters' words are all before it) marks in->handle_slot, which
 * linking renumbers (lower_handles_link.c). */
void lw_set_handle_word(const LowerCtx *c, LInsn *in, SassRole role, uint32_t word);
/* A kernel parameter declaration: when it is a .texref/.samplerref/.surfref
 * one, records it (ordinal *ordinal on, one per name) and returns true. */
bool lw_handle_param(LowerCtx *c, const VarDecl *d, uint32_t *ordinal);
/* LPARAM_* of a handle parameter's name, 0 for any other name. */
int lw_ref_param(const LowerCtx *c, const char *name);
/* Finds, in a kernel body, the first sampler each texture parameter is
 * sampled with; lw_texture_sampler() then names it (NULL: none). */
void lw_handle_pairs(LowerCtx *c, const Stmt *body);
const char *lw_texture_sampler(const LowerCtx *c, const char *texture);
/* Reads the kernel's .maxntid, .reqntid, .minnctapersm and .maxnreg: its
 * thread counts and its register limit (reg_limit.c). */
/* Warns (launch-bounds-adjusted) where ptxas 11.8 adjusts or ignores one. */
void lw_launch_bounds(LowerCtx *c, LKernel *k, const Func *f);
bool lw_unsupported(LowerCtx *c, SrcLoc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The types the sm_50 lowering handles: .pred (bits 1), .b/.u/.s of 8 to
 * 64 bits, .f16/.f32/.f64; bits 0 for any other word. */
PtxTy ptx_type_of_word(const char *w);
/* The last type word among the instruction's modifiers (bits 0 if none). */
PtxTy lw_instr_type(const Instr *in);
/* Whether the instruction writes its first operand (not st, bra, ...). */
bool lw_writes_first_operand(const Instr *in);
/* Finds the fetch coordinates of a kernel body that ptxas folds into
 * the offsets word (lower_tex_offsets.c); lw_tex_fold: the one of
 * element elem of tex's coordinates, or NULL. */
void lw_find_tex_folds(LowerCtx *c, const Stmt *body);
const LTexFold *lw_tex_fold(const LowerCtx *c, const Instr *tex, unsigned elem);
/* PTX's explicit offsets operand e of tex/tld4 packed into part sub of
 * vreg as ptxas 11.8 packs it (lower_tex_offsets.c): ncomp fields of
 * `bits` bits (4 for TEX/TLD/TXD, 6 a byte apart for TLD4); shift16: the
 * packed 12 bits moved to bit 16 (TXD's word). */
bool lw_tex_offset_word(LowerCtx *c, const Expr *e, unsigned ncomp, unsigned bits, bool shift16, uint32_t vreg,
                        unsigned sub);
bool lw_has_mod(const Instr *in, const char *mod);
/* in with the state-space spelling .shared::cta written .shared (PTX 7.8
 * names the same window both ways; ptxas 11.8 writes the same code): in
 * itself when it has none, else a copy the kernel owns. */
const Instr *lw_space_alias_instr(LowerCtx *c, const Instr *in);
/* lower_offsets.c: name+c1+c2 operands and addresses as name+(c1+c2) */
const Instr *lw_offsets_folded_instr(LowerCtx *c, const Instr *in);
/* in with each modifier `from` written `to`: in itself when it has none,
 * else a copy the kernel owns. */
const Instr *lw_instr_mod_replaced(LowerCtx *c, const Instr *in, const char *from, const char *to);
/* p (malloc'd), freed with the kernel. */
void *lw_own(LowerCtx *c, void *p);
/* .v2 / .v4 -> 2 / 4, else 1. */
unsigned lw_vec_width(const Instr *in);

/* The vreg of a register operand (EX_NAME naming a declared register);
 * diagnoses and returns false otherwise. */
bool lw_reg(LowerCtx *c, const Expr *e, uint32_t *vreg, unsigned *width);
/* The declared width in bits of the register e names (0: not a register). */
unsigned lw_reg_bits(LowerCtx *c, const Expr *e);
/* The declared PTX type of register operand e; false if e names none. */
bool lw_reg_type(LowerCtx *c, const Expr *e, PtxTy *ty);
/* Whether the name e (EX_NAME) is a register: written with '%' (special
 * registers included), or declared by .reg without one (hand-written PTX
 * names registers as it likes: `.reg .u64 in_addr;`). */
bool lw_is_reg_name(LowerCtx *c, const Expr *e);
/* name at kernel scope (block 0), else a kernel-owned "name@block". */
const char *lw_scoped_name(LowerCtx *c, const char *name, uint32_t block);
bool lw_pred(LowerCtx *c, const Expr *e, uint32_t *vreg);
/* A predicate source: a register, optionally negated (!p), or an integer
 * constant (0: false, else true), which is PT (vreg -1), negated for false. */
bool lw_pred_value(LowerCtx *c, const Expr *e, int *vreg, bool *negated);
/* A register or integer constant. */
bool lw_opnd(LowerCtx *c, const Expr *e, Opnd *o);

/* Appends an instruction under the current guard. */
LInsn *lw_emit(LowerCtx *c, SassFormId form);
uint32_t lw_temp(LowerCtx *c, unsigned width);

/* Common short sequences. */
void lw_mov(LowerCtx *c, uint32_t dst, unsigned dsub, uint32_t src, unsigned ssub);
void lw_mov_rz(LowerCtx *c, uint32_t dst, unsigned dsub);
void lw_mov32i(LowerCtx *c, uint32_t dst, unsigned dsub, uint32_t imm);
/* Part `sub` of o in a register (immediates go through MOV32I into a temp). */
void lw_opnd_part(LowerCtx *c, const Opnd *o, unsigned sub, uint32_t *vreg, unsigned *rsub);
enum { LW_NO_DST = UINT32_MAX };
/* ALU op with operand B as register, parameter word or 20-bit immediate:
 * one of the family's forms (SASS_ALU_FORMS(IADD) etc.).
 * Returns the instruction with rd (unless LW_NO_DST)/ra/rb set; the caller
 * sets modifiers. */
LInsn *lw_alu(LowerCtx *c, SassAluForms forms, uint32_t d, unsigned dsub, uint32_t a, unsigned asub,
              const Opnd *b, unsigned bsub);
bool fits_simm20(int64_t v);
/* The c[0x0] byte offset of the parameter word vreg always holds, or -1. */
int64_t lw_vreg_cword(const LowerCtx *c, uint32_t vreg);
/* The same for a 64-bit vreg and a 64-bit parameter (f64 operands). */
int64_t lw_vreg_cpair(const LowerCtx *c, uint32_t vreg);
/* ---- lower_seq.c: short sequences the handler files share ---- */

/* XMAD d = a(.H1 if ha) * b(.H1 if hb) + cvreg.csub (RZ when cvreg < 0); b
 * from c[0x0] when it only ever holds a parameter word. */
LInsn *lw_xmad(LowerCtx *c, uint32_t d, uint32_t a, bool ha, uint32_t b, bool hb, int cvreg,
               unsigned csub);
/* The last two XMADs of a 32-bit multiply (t0 = a.lo*b.lo + addend). */
void lw_mul_lo32_tail(LowerCtx *c, uint32_t d, unsigned dsub, uint32_t a, uint32_t b, uint32_t t0);
/* d = a * b + c[bank][off] (mod 2^32): XMAD with a constant C, XMAD.MRG,
 * XMAD.PSL.CBCC, as ptxas computes the suq descriptor address. */
void lw_mul_lo32_cadd(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b, unsigned bank, uint32_t off);
/* d = high 32 bits of a * b (+ addend vreg when addend >= 0): XMADs and
 * IADD3.RS. */
void lw_mul_hi32(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b, bool is_signed, int addend);
/* The 64-bit product of two 32-bit registers into lo, hi (lower_ints.c:
 * ptxas's seven XMAD-family instructions and IADD3.RS). */
void lw_mul_wide32(LowerCtx *c, uint32_t lo, uint32_t hi, uint32_t a, uint32_t b, bool is_signed);
/* Copies a register or immediate of `parts` 32-bit parts into d. */
void lw_copy_value(LowerCtx *c, uint32_t d, const Opnd *src, unsigned parts);
/* A descriptor-table query (lower_seq.c): the handle's slot word (immediate)
 * or register, the table pointer's c[0x0] byte offset (surfaces 0xc0,
 * textures 0xb0) and the field's byte offset in a descriptor. */
typedef struct LDescLookup {
	bool immediate;
	uint32_t idx, vreg;
	uint32_t table_cword, field;
	bool texture;
} LDescLookup;
bool lw_desc_lookup(LowerCtx *c, const LDescLookup *q, uint32_t d);
/* TXQ/TXQ.B TEX_HEADER_DIMENSION of the handle h names (immediate, idx,
 * vreg), mask 1/2/4 for width/height/depth, into d. */
void lw_txq_dimension(LowerCtx *c, const LDescLookup *h, uint32_t d, unsigned mask);
/* issue 17: the bindless handle of bound .surfref/.texref `name` (mov) in
 * the 64-bit d: 0x80000000 | its header index (the c[0x0] slot), as ptxas
 * 11.8 builds it (MOV32I, LOP.OR c[0x0][slot]); the high word 0x80000000
 * for a surface, 0x20000000 for a texture. */
void lw_bound_handle(LowerCtx *c, const char *name, bool texture, uint32_t d);
/* Zero- or sign-extends the low `bits` of s into d (LOP32I.AND or SHL+SHR). */
void lw_extend32(LowerCtx *c, uint32_t d, uint32_t s, unsigned bits, bool is_signed);
/* Sign-extends the low `bits` of d.dsub in place (BFE, as ptxas does after
 * an LDC.U8/.U16 of a signed value). */
void lw_sign_extend_low(LowerCtx *c, uint32_t d, unsigned dsub, unsigned bits);
/* d = [-]|a| over 32 bits (I2I.S32.S32 with .ABS), the signed division
 * sequences' operand prologue. */
void lw_iabs(LowerCtx *c, uint32_t d, uint32_t a, bool neg);
/* IADD d, a, {-}b (d == LW_NO_DST: into a new temporary); returns d. */
uint32_t lw_iadd(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b, bool negb);
/* a new temporary = form(a, imm): IADD32I, LOP32I, SHR/SHL with an immediate... */
uint32_t lw_alu_imm(LowerCtx *c, SassFormId form, uint32_t a, int64_t imm);
/* d.dsub = s.ssub >> amount (SHR, arithmetic when is_signed). */
void lw_shr_imm(LowerCtx *c, uint32_t d, unsigned dsub, uint32_t s, unsigned ssub, unsigned amount,
                bool is_signed);
/* d.dsub = the sign of s.ssub replicated (SHR by 31). */
void lw_sign_high(LowerCtx *c, uint32_t d, unsigned dsub, uint32_t s, unsigned ssub);

/* (lower_ctx.c) Reads the special register e (%tid.x, %ntid.y, %laneid, ...) into part 0
 * of d: S2R, CS2R, or MOV of its c[0x0] word, as ptxas does. False (nothing
 * emitted) when e is not one. */
bool lw_read_special(LowerCtx *c, const Expr *e, uint32_t d);
/* The high word of a 64-bit special register read from c[0x0] (%gridid)
 * into part 1 of d; false when it has none (the caller writes zero). */
bool lw_read_special_hi(LowerCtx *c, const Expr *e, uint32_t d);
/* (lower_mem.c) w is a cache operator of ld (load) or st (.ca, .wb, ...). */
bool lw_cache_op_word(const char *w, bool load);
bool lw_is_special(const Expr *e);
/* (lower_ctx.c) e is a 64-bit special register ptxas reads with a CS2R pair
 * (%clock64, %globaltimer, %pm0_64..%pm7_64); lw_read_special reads its
 * low word. lw_read_special64 reads all of it into d: the high word, the
 * low word, and the high word once more when the low one is below 2^31 (it
 * wrapped between the reads), as ptxas 11.8 reads them; false when e is
 * not one or under a guard (reported). */
bool lw_is_special64(const Expr *e);
bool lw_read_special64(LowerCtx *c, const Expr *e, uint32_t d);

/* Packs sub-word vector elements (each `bits` wide, in registers) into
 * 32-bit parts of dst (LOP/SHL/OR); unpacks the other way. */
void lw_pack(LowerCtx *c, const uint32_t *elems, unsigned n, unsigned bits, uint32_t dst);
void lw_unpack(LowerCtx *c, uint32_t src, unsigned n, unsigned bits, const uint32_t *elems);

/* The data operand of a store in `nregs` consecutive parts of *out (one
 * element per 32-bit part, packed when narrower); *is_rz for a zero scalar. */
bool lw_store_data(LowerCtx *c, const Expr *e, unsigned vec, unsigned bits, uint32_t *out,
                   unsigned *nregs, bool *is_rz);

/* The predicate operands of setp: destination p or p|q, and with a
 * combination (.and/.or/.xor) its source [!]c, operand 3. */
typedef struct SetpPreds {
	uint32_t pd, pq, pc;
	bool has_q, has_pc, pc_not;
} SetpPreds;
bool lw_setp_preds(LowerCtx *c, const Instr *in, bool has_bop, SetpPreds *sp);
/* Sets the predicate source and combination of an ISETP/FSETP (PT and AND
 * when there is none). */
void lw_setp_combine(LInsn *op, const SetpPreds *sp, unsigned bop);

/* ---- lower_vars.c: variables in the shared and local windows ---- */

/* Size and alignment of declarator i of d; diagnoses what has none. */
bool lw_var_layout(LowerCtx *c, const VarDecl *d, uint32_t i, uint32_t *size, uint32_t *align);
/* A module-scope .shared declaration (remembered for the kernels). */
void lw_module_shared_add(LowerCtx *c, const VarDecl *d);
/* A .shared declaration of the kernel body: placed now, in order. */
void lw_body_shared_add(LowerCtx *c, const VarDecl *d);
/* After the body's own: the module's .shared variables the body names. */
void lw_module_shared_place(LowerCtx *c, const Stmt *body);
/* A .local declaration of the kernel body (placed by lw_frame_place). */
void lw_body_local_add(LowerCtx *c, const VarDecl *d);
/* Lays out the stack frame: .local variables by falling alignment, the
 * last declared first within one alignment; k->frame_size. */
void lw_frame_place(LowerCtx *c);
/* (lower_ctx.c) `sym`, `sym+imm` or `sym-imm` naming a variable: its
 * offset in its window (shared: from 0; local: from the stack pointer R1;
 * LVAR_SHARED_SYM: from the variable), *space LVAR_*. */
bool lw_var_address(const LowerCtx *c, const Expr *e, int64_t *off, int *space);
/* The module_shared index of a variable lw_var_address found LVAR_SHARED_SYM. */
uint32_t lw_var_shared_sym(const LowerCtx *c, const Expr *e);
/* (lower_vars.c) Adds size bytes at align to the kernel's .nv.shared
 * section: their offset. */
uint32_t lw_shared_alloc(LKernel *k, uint32_t size, uint32_t align);
/* (lower_vars.c) The .strtab record of a placed module variable. */
void lw_shared_record(LKernel *k, const LSharedVar *v);

/* A function's .param whose name the body uses as a value (its address:
 * `mov.b64 %rd, f_param_0`, old nvcc's and llc -O0's code) is a .local
 * variable too, the words it arrives in stored there at the entry, so
 * that its address is a local one (ld.local through it); ld/st.param
 * [name] keep reading the words. lw_param_addr_locals adds them to the
 * frame (before lw_frame_place), lw_param_addr_store emits the STLs. */
void lw_param_addr_locals(LowerCtx *c, const Func *f);
void lw_param_addr_store(LowerCtx *c, const Func *f);

/* ---- lower_shared_link.c: .shared variables named in functions ---- */

/* A function's start: the module's .shared names, as LVAR_SHARED_SYM. */
void lw_func_shared_begin(LowerCtx *c);
/* A .shared declaration of a function body: a module variable of its own. */
void lw_func_shared_body_add(LowerCtx *c, const VarDecl *d);
/* (lower_vars.c) Appends v to module_shared: its index. */
size_t lw_shared_var_append(LowerCtx *c, LSharedVar v);
/* Linking a function's instruction into kernel k: its variable's offset
 * there (placed now when the kernel did not place it) added to SR_IMM
 * (SR_WOFF in words). */
void lw_shared_link(LowerCtx *c, LKernel *k, LInsn *in);
/* -c: whether module_shared[sym] is relocated (a module-scope one). */
bool lw_shared_relocated(const LowerCtx *c, uint32_t sym);
/* An ATOMS's base: under -c a relocated variable's address in a register
 * (MOV32I), as ptxas -c writes it; else base. */
int lw_shared_atoms_base(LowerCtx *c, int base);
/* A register holding module_shared[sym]'s offset plus add: MOV32I,
 * completed when linked. */
uint32_t lw_shared_sym_reg(LowerCtx *c, uint32_t sym, int64_t add);

/* ---- lower_handles_link.c: bound textures and surfaces named in functions ---- */

/* Linking a function's instruction that names its fragment fr's slot into
 * kernel k: k's slot of that handle (added when new). */
void lw_handle_place(LKernel *k, const LKernel *fr, LInsn *in);
/* What the kernel records for the handles fr uses (EIATTR_BINDLESS_*,
 * the descriptor-size symbol). */
void lw_handle_flags_adopt(LKernel *k, const LKernel *fr);
/* Once k's callees are placed (starts: the first instruction of each):
 * k's slots renumbered as ptxas 11.8 numbers them, the textures' then the
 * surfaces', each in first-use order with a function's uses at its first
 * call. */
void lw_handle_slots_order(const LModule *lm, LKernel *k, const size_t *starts, size_t nstarts);


/* ---- lower_data.c: module .global and .const variables ---- */

/* The constant bank of module .const data (.nv.constant3). */
enum { LDATA_CONST_BANK = 3 };

/* A module-scope .global/.const declaration (not .surfref/.texref). */
void lw_module_data_add(LowerCtx *c, const VarDecl *d, SrcLoc loc);
/* Places the .const variables declared so far in c[0x3] (before a kernel
 * reads them: code holds their offsets). */
void lw_module_data_freeze_const(LowerCtx *c);
/* At the end of the module: every offset, and frees the name map. */
void lw_module_data_finish(LowerCtx *c);
void lower_module_data_free(LModule *lm);
/* (lower_ctx.c) `cvar[+-imm]` naming a module .const variable: its c[0x3] offset. */
bool lw_data_const(const LowerCtx *c, const Expr *e, int64_t *offset);
/* `gvar[+-imm]` naming a module .global variable: its address in a new
 * 64-bit temporary (relocated MOV32I pair) and the offset. 0: not one;
 * -1: diagnosed. */
int lw_data_global(LowerCtx *c, const Expr *e, uint32_t *base, int64_t *add);
/* A module variable (plus offset) as an operand: a .const one the
 * immediate bank offset, a .global one its address in a register. */
int lw_data_operand(LowerCtx *c, const Expr *e, Opnd *o);
bool lower_ld_const(LowerCtx *c, const Instr *in);
/* One LDC of `bytes` (1, 2, 4, 8) at c[bank][base + off] (base: a vreg's
 * low word, or -1 for none) into d.dsub; a signed sub-word sign-extended. */
void lw_ldc(LowerCtx *c, unsigned bank, int base, int64_t off, unsigned bytes, bool is_signed, uint32_t d,
            unsigned dsub);

/* ---- handlers, one per PTX opcode family (lower.c's table picks them) ---- */

/* Each returns false after diagnosing an unsupported form. */
/* Addresses shared by the memory and atomic handlers (lower_mem.c): a
 * global [reg+off], an offset folded into the register when it does not
 * fit a signed `bits`-bit field, and the shared/local window's base
 * (a register, RZ or the stack pointer) set on op. */
enum { BASE_RZ = -1, BASE_STACK = -2, BASE_SHARED_SYM0 = -3 };
/* A base of BASE_SHARED_SYM0 - i: RZ plus the offset of module_shared[i]
 * in the kernel that links the function (lower_shared_link.c). */
#define LW_BASE_IS_SHARED_SYM(b) ((b) <= BASE_SHARED_SYM0)
bool lw_global_address(LowerCtx *c, const Expr *a, uint32_t *base, unsigned *bw, int64_t *off);
uint32_t lw_shared_window_pred(LowerCtx *c, uint32_t a, unsigned aw);
void lw_pred_and(LowerCtx *c, uint32_t p, uint32_t pa, bool pa_not, uint32_t pb, bool pb_not);
/* (lower_ctx.c: operands fold too) */
uint32_t lw_fold_offset(LowerCtx *c, uint32_t base, unsigned bw, int64_t *off, unsigned bits);
bool lw_window_address(LowerCtx *c, const Expr *a, int want_space, int *base, int64_t *off);
void lw_window_base(LowerCtx *c, LInsn *op, int base, int64_t *off);

bool lower_mov(LowerCtx *c, const Instr *in);
bool lower_cvta(LowerCtx *c, const Instr *in);
bool lower_ld(LowerCtx *c, const Instr *in);
bool lower_cvt(LowerCtx *c, const Instr *in);
/* cvt.sat of the integer s (type st, sw registers) into d (type dt of at
 * most 32 bits, one register): a 64-bit source clamped to 32 bits, then
 * I2I.SAT and the extension of a sub-word destination. */
bool lw_cvt_sat_int(LowerCtx *c, const Instr *in, PtxTy dt, PtxTy st, uint32_t d, unsigned dw, uint32_t s,
                    unsigned sw);
bool lower_add_sub(LowerCtx *c, const Instr *in);
bool lower_mul(LowerCtx *c, const Instr *in);
bool lower_mad(LowerCtx *c, const Instr *in);
bool lower_shift(LowerCtx *c, const Instr *in);
bool lower_logic(LowerCtx *c, const Instr *in);
bool lower_not(LowerCtx *c, const Instr *in);
bool lower_setp(LowerCtx *c, const Instr *in);
bool lower_bra(LowerCtx *c, const Instr *in);
bool lower_selp(LowerCtx *c, const Instr *in);
bool lower_neg(LowerCtx *c, const Instr *in);
/* Single-precision float (lower_float.c, lower_fcvt.c). */
bool lower_fadd(LowerCtx *c, const Instr *in);
bool lower_fmul(LowerCtx *c, const Instr *in);
bool lower_ffma(LowerCtx *c, const Instr *in);
bool lower_fneg_abs(LowerCtx *c, const Instr *in);
LInsn *lw_fadd_minus_rz(LowerCtx *c, uint32_t d, uint32_t a, bool ftz);
bool lower_minmax(LowerCtx *c, const Instr *in);
bool lower_fsetp(LowerCtx *c, const Instr *in);
bool lower_cvt_float(LowerCtx *c, const Instr *in);
bool lower_pred_logic(LowerCtx *c, const Instr *in);
bool lower_exit(LowerCtx *c, const Instr *in);
bool lower_st(LowerCtx *c, const Instr *in);
bool lower_ld_global(LowerCtx *c, const Instr *in);
bool lower_ld_window(LowerCtx *c, const Instr *in);
bool lower_ld_generic(LowerCtx *c, const Instr *in);
bool lower_st_generic(LowerCtx *c, const Instr *in);
bool lower_st_window(LowerCtx *c, const Instr *in);
bool lower_suld(LowerCtx *c, const Instr *in);
bool lower_sust(LowerCtx *c, const Instr *in);
bool lower_sured(LowerCtx *c, const Instr *in);
bool lower_suq(LowerCtx *c, const Instr *in);
/* issue 17: textures (lower_tex.c) */
bool lower_tex(LowerCtx *c, const Instr *in);
bool lower_tld4(LowerCtx *c, const Instr *in);
bool lower_txq(LowerCtx *c, const Instr *in);
/* integer bit operations and mul.hi (lower_bits.c). */
bool lower_popc(LowerCtx *c, const Instr *in);
/* issue 17 part 1: atomics (lower_atom.c) and warp operations (lower_warp.c) */
bool lower_atom(LowerCtx *c, const Instr *in);
bool lower_red(LowerCtx *c, const Instr *in);
bool lower_shfl(LowerCtx *c, const Instr *in);
bool lower_vote(LowerCtx *c, const Instr *in);
bool lower_clock64(LowerCtx *c, const Instr *in);
bool lower_clz(LowerCtx *c, const Instr *in);
bool lower_bfind(LowerCtx *c, const Instr *in);
bool lower_brev(LowerCtx *c, const Instr *in);
bool lower_bfe(LowerCtx *c, const Instr *in);
bool lower_bfe64(LowerCtx *c, const Instr *in);
bool lower_bfi(LowerCtx *c, const Instr *in);
bool lower_prmt(LowerCtx *c, const Instr *in);
bool lower_lop3(LowerCtx *c, const Instr *in);
bool lower_cnot(LowerCtx *c, const Instr *in);
bool lower_mul_hi(LowerCtx *c, const Instr *in);
/* double precision (lower_double.c). */
bool lower_dadd(LowerCtx *c, const Instr *in);
bool lower_dmul(LowerCtx *c, const Instr *in);
bool lower_dfma(LowerCtx *c, const Instr *in);
bool lower_dneg_abs(LowerCtx *c, const Instr *in);
bool lower_dminmax(LowerCtx *c, const Instr *in);
bool lower_dsetp(LowerCtx *c, const Instr *in);
/* set.cmp.dtype.f64 d, a, b: DSET of operands 1 and 2 of `in` (B as
 * DSETP's); the caller sets Rd, the comparison and the predicate. NULL
 * when an operand is diagnosed. */
LInsn *lw_dset(LowerCtx *c, const Instr *in);
bool lower_cvt_f2f(LowerCtx *c, const Instr *in);
/* barriers and fences (lower_sync.c). */
bool lower_bar(LowerCtx *c, const Instr *in);
bool lower_pmevent(LowerCtx *c, const Instr *in);
bool lower_membar(LowerCtx *c, const Instr *in);
/* texcache: prefetch and prefetchu -> CCTL / CCTLL (lower_prefetch.c). */
bool lower_prefetch(LowerCtx *c, const Instr *in);
/* special functions and float division (lower_sfu.c). */
bool lower_sfu(LowerCtx *c, const Instr *in);
bool lower_fdiv(LowerCtx *c, const Instr *in);
/* issue 17: IEEE-rounded square root (.rn, .rm, .rp, .rz) with ptxas's slow path (lower_divsqrt.c). */
bool lower_sqrt_f32(LowerCtx *c, const Instr *in);
/* issue 17: IEEE-rounded f64 reciprocal and square root (lower_divsqrt64.c). */
bool lower_rcp_rn_f64(LowerCtx *c, const Instr *in);
bool lower_sqrt_rn_f64(LowerCtx *c, const Instr *in);
/* issue 17: copysign, clz.b64, bfi.b64, sad (lower_bits64.c). */
/* ---- oldops: lower_legacy.c (PTX 1.x set, mul24/mad24) ---- */
bool lower_set(LowerCtx *c, const Instr *in);
bool lower_mul24(LowerCtx *c, const Instr *in);
bool lower_slct(LowerCtx *c, const Instr *in);
bool lower_copysign(LowerCtx *c, const Instr *in);
bool lower_clz64(LowerCtx *c, const Instr *in);
bool lower_bfi64(LowerCtx *c, const Instr *in);
bool lower_sad(LowerCtx *c, const Instr *in);
/* lower_video.c: the video instructions (vabsdiff, vabsdiff4; the others refused by name) */
bool lower_video(LowerCtx *c, const Instr *in);
/* lower_video_operands.c: what the video lowerings read alike. */
/* The register a video operand names, its selector (".b1", NULL if none)
 * in *sel (an immediate goes through MOV32I into a temporary). */
bool lw_video_reg(LowerCtx *c, const Expr *e, uint32_t *vreg, const char **sel);
/* A video operand's format: the part (bytes 0-3, halves 4-5, the word 6)
 * + 8 when signed; -1 for a selector that is not a part. */
int64_t lw_video_format(const char *sel, bool is_signed);
/* b as the 16-bit immediate of the video forms ptxas writes: a constant
 * in 0..0xffff (unsigned b) or 0..0x7fff (signed); *imm gets it. */
bool lw_video_imm(LowerCtx *c, const Expr *e, bool is_signed, int64_t *imm);
/* The secondary operation's mode: .add ACC 4, .min 5, .max 6, none 7. */
int64_t lw_video_mode(const Instr *in);
/* The signedness of the instruction's `want` type words in order; false
 * unless there are exactly that many. */
bool lw_video_signs(const Instr *in, unsigned want, bool sg[3]);
/* The PTX comparison's code (e_cmp: LT 1, EQ 2, LE 3, GT 4, NE 5, GE 6), -1 if none. */
int64_t lw_video_cmp(const Instr *in);
/* vadd vsub vmin vmax vshl vshr vmad vset: one VADD/VMNMX/VSHL/VSHR/VMAD/
 * VSET each (lower_video_scalar.c). */
bool lw_video_scalar(LowerCtx *c, const Instr *in);
/* The SIMD video instructions (vadd2 ... vset4) lane by lane
 * (lower_video_simd.c). */
bool lw_video_simd(LowerCtx *c, const Instr *in);
/* VABSDIFF{.SD} d, a, b, c (cv < 0: RZ) with formats fa/fb (the part +8
 * when signed) and mode (.ACC 4, .MIN 5, .MAX 6, none 7); sad shares it. */
LInsn *lw_vabsdiff(LowerCtx *c, uint32_t d, uint32_t a, unsigned asub, uint32_t b, unsigned bsub, int cv,
                   unsigned csub, int64_t fa, int64_t fb, int64_t mode, bool sd);
/* integer division and remainder (lower_div.c). */
bool lower_idiv(LowerCtx *c, const Instr *in);
/* ---- issue 17: integer families (lower_ints.c) ---- */
bool lower_mul_ext(LowerCtx *c, const Instr *in);
bool lower_minmax64(LowerCtx *c, const Instr *in);
/* d = low / high 64 bits of a * b (register pairs; d not a source of
 * lw_mul_lo64): the XMAD chains of ptxas's 64-bit division subroutines
 * (the low product's cross terms through the XMADs' addends) and of its
 * mul.hi.u64. */
void lw_mul_lo64(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b);
void lw_mul_hi_u64(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b);
/* ---- idiv: {div,rem}.{u,s}64 (lower_div64.c) ---- */
/* (lower_seq.c) The integer reciprocal estimate of ptxas's divisions:
 * t ~ 2^32 / b, or 2^64 / b of the pair b when wide (is_signed: of |b|). */
uint32_t lw_int_rcp_estimate(LowerCtx *c, uint32_t b, bool wide, bool is_signed);
bool lower_idiv64(LowerCtx *c, const Instr *in);
bool lower_idiv16(LowerCtx *c, const Instr *in);      /* lower_div16.c */
/* (lower_sfu.c) rcp.approx.f32 d, a without .ftz: tiny and huge |a| scaled. */
void lw_rcp_approx_f32(LowerCtx *c, uint32_t d, uint32_t a);
bool lower_shf(LowerCtx *c, const Instr *in);
bool lower_carry(LowerCtx *c, const Instr *in);
bool lower_bar_red(LowerCtx *c, const Instr *in);    /* ctrl: lower_sync.c */
bool lower_mad_carry(LowerCtx *c, const Instr *in);

/* ---- issue 15/17 (misc): handle kinds (lower_istypep.c) ---- */
bool lower_istypep(LowerCtx *c, const Instr *in);
/* (lower_isspacep.c) isspacep: the shared/local window tests */
bool lower_isspacep(LowerCtx *c, const Instr *in);

/* ---- issue 15: vector registers (lower_vecreg.c) ---- */
/* A .reg .v2/.v4 declaration in `block`: its elements' scalar
 * declarations (n of them, kernel-owned), NULL (n = 1) for no vector. */
VarDecl *lw_vecreg_split(LowerCtx *c, const VarDecl *d, uint32_t block, unsigned *n);
/* in with each vector register operand rewritten as its elements (in
 * itself when it names none; a copy the kernel owns otherwise). */
const Instr *lw_vecreg_instr(LowerCtx *c, const Instr *in);
/* mov.v2/.v4 between two brace lists of n elements. */
bool lw_mov_vector(LowerCtx *c, const Instr *in, unsigned n);

/* ---- issue 15: device functions and calls (lower_call.c) ---- */

/* The largest .param a call passes, in 32-bit words (64 KiB): each word is
 * a value of its own, in a register or a spill slot (an external
 * function's convention puts the wide ones on the stack); ptxas has no such
 * limit, the bound keeps a malformed size from costing memory. A function's
 * frame starts at a multiple of LFRAME_ALIGN in the kernel's (the widest
 * local access, LDL.128, needs 16). */
enum { LPARAM_MAX_WORDS = 16384, LFRAME_ALIGN = 16 };

/* A device function lowered once: its code as a kernel fragment, its
 * parameters and results in declaration order as {first vreg, words}
 * pairs (nparams, nrets count both entries). */
typedef struct LFunc {
	const char *name;
	SrcLoc loc;
	LKernel frag;
	uint32_t *params, nparams;
	uint32_t *rets, nrets;
	bool visible;           /* .visible/.extern/.weak: a GLOBAL symbol (fnaddr, -c) */
	bool weak;              /* .weak: a WEAK one instead (-c) */
	uint32_t *shared_syms;      /* module_shared indices it and its callees name */
	size_t nshared_syms;
	/* a parameter wider than a call can pass (LPARAM_MAX_WORDS): refused
	 * when a kernel links the function; without -c ptxas drops a function
	 * no kernel calls, and so its parameters with it (name NULL: none) */
	const char *wide_param;
	SrcLoc wide_param_loc;
	bool wide_param_told;
	int32_t vararg;         /* the index of its variadic block among its parameters, or -1 */
} LFunc;

/* lower.c: one kernel's or function's body lowered (the rest of the item,
 * from reconvergence on, is lower_stream.c's settling), and whether a
 * declaration carries a word (".global", ".shared", ...). */
void lw_lower_kernel(LowerCtx *c, const Func *f, LKernel *k);
void lw_lower_function(LowerCtx *c, const Func *f, LFunc *out);
bool lw_decl_has(const VarDecl *d, const char *word);

/* A .param declaration held in registers (a function's parameters and
 * results, a call's argument block) in the given block (0: the function). */
void lw_param_regs_declare(LowerCtx *c, const VarDecl *d, uint32_t block, uint32_t **order, uint32_t *n);
/* ld/st .param naming a register-held parameter: handled (true) when in
 * names one, false to leave it to the table. */
bool lw_param_reg_access(LowerCtx *c, const Instr *in);
bool lower_call(LowerCtx *c, const Instr *in);
/* A function parameter or result declared .reg (old PTX; lower.c has
 * declared its register): a register of the body, copied from its words at the entry (lw_reg_params_enter) or to
 * them before each ret (lw_reg_results_leave); calls bind the words as
 * those of a .param. */
void lw_reg_param_declare(LowerCtx *c, const VarDecl *d, bool result, uint32_t **order, uint32_t *n);
void lw_reg_params_enter(LowerCtx *c);
void lw_reg_results_leave(LowerCtx *c);
/* (lower_shared_link.c) A function's end: the .shared variables it and its
 * callees name (f->shared_syms). */
void lw_func_shared_finish(LowerCtx *c, LFunc *f);
/* (lower_param_bytes.c) An 8/16-bit element at byte `byte` of the
 * register-held .param word `word`: loaded into d (extended as t says),
 * or stored from value, the word's other bytes kept. */
void lw_param_byte_load(LowerCtx *c, uint32_t word, unsigned byte, PtxTy t, uint32_t d);
void lw_param_byte_store(LowerCtx *c, uint32_t word, unsigned byte, unsigned bits, const Opnd *value);
/* A whole-word store into it (later byte stores keep its other bytes). */
void lw_param_word_stored(LowerCtx *c, uint32_t word);
bool lower_ret(LowerCtx *c, const Instr *in);
bool lower_trap(LowerCtx *c, const Instr *in);
/* Appends the code of every function the kernel calls (transitively)
 * after its own, points each CAL at it and joins the argument and result
 * registers; diagnoses recursion. A callee not lowered yet: false (nothing
 * done) unless `final`, when it is diagnosed. */
bool lw_link_calls(LowerCtx *c, LKernel *k, bool final);

/* ---- diverge: reconvergence (reconverge.c) ----
 * SSY before each conditional branch whose paths join again, SYNC on the
 * edges into the join, so a warp reconverges on sm_50 (issue 14/15).
 * False after an encoder-unsupported diagnostic. */
bool lw_reconverge(LowerCtx *c, LKernel *k);
/* -c: the call site cs of a function without a body becomes a JCAL of it
 * through the ABI (lower_extern.c); false when diagnosed. */
bool lw_extern_call(LowerCtx *c, LKernel *k, const LCallSite *cs);
/* lower_extern_stack.c: pending operations next to instruction `at` (after
 * it, else before): a 32-bit LDL/STL of vreg at R1 + offset (base
 * UINT32_MAX; stack_reg its LSTACK_* flags) or at register base + offset;
 * vreg = R1 + offset (a result pointer, a variadic block's address); a
 * copy (after). */
void lw_stack_word(LKernel *k, size_t at, bool after, bool load, uint32_t vreg, uint32_t base, uint32_t offset,
                   uint8_t stack_reg, SrcLoc loc);
void lw_stack_address(LKernel *k, size_t at, bool after, uint32_t vreg, uint32_t offset, uint8_t stack_reg,
                      SrcLoc loc);
void lw_stack_copy(LKernel *k, size_t at, uint32_t to, uint32_t from, SrcLoc loc);
/* Renames the pending operations' references, as linking renames the code's. */
void lw_stack_ops_rename(LKernel *k, uint32_t from, uint32_t to, unsigned sub);
/* At the end of linking: the pending operations placed (labels and call
 * sites move along), and the frame's contents moved up above the outgoing
 * argument area, which the frame grows by. */
void lw_stack_ops_place(LKernel *k);

/* ---- fnptr: function addresses and calls through a register (lower_fnptr.c) ---- */
/* Records a .func declaration (with or without a body). */
void lw_fnptr_declare(LowerCtx *c, const Func *f);
/* 1 when e names a declared .func: *value is its address (its id), 0 when
 * e names none, -1 when diagnosed. */
int lw_fnptr_address(LowerCtx *c, const Expr *e, int64_t *value);
/* 1 when e names a kernel (-c): o is a pair of MOV32I relocated with
 * R_CUDA_FUNC_DESC32_LO_32/HI_32 of its symbol (the address dynamic
 * parallelism launches), 0 when e names none, -1 when diagnosed. */
int lw_kernel_address(LowerCtx *c, const Expr *e, Opnd *o);
/* call (rets), %reg, (args), prototype in a kernel or .func body: a BRA to the
 * dispatch and its return point, where the caller copies the results out
 * of the placeholders v ({first vreg, words} per argument, then per
 * result; owned from here on, as a direct call's). */
bool lw_call_indirect(LowerCtx *c, const Expr *ptr, uint32_t *v, uint32_t nargs, uint32_t nrets);
/* At linking: each indirect call of k becomes a dispatch over the
 * address-taken functions of its signature (direct call sites of k). */
void lw_indirect_expand(LowerCtx *c, LKernel *k);
/* Placing fragment fr in k (map: its vregs -> k's, its label 0 at lbase):
 * k adopts fr's calls through a register, to be expanded in k. */
void lw_indirect_adopt(LKernel *k, const LKernel *fr, const uint32_t *map, size_t lbase);
/* Whether a call through a register in fr may call g: g's address is
 * taken and its .params have the sizes of such a call's. */
bool lw_indirect_may_call(const LowerCtx *c, const LKernel *fr, const LFunc *g);
void lw_indirect_free(LKernel *k);
void lw_fnptr_free(LowerCtx *c);
/* The index of interned `name` in a list, appended at its first use. */
size_t lw_name_index(const char ***list, size_t *n, const char *name);
/* At the module's end, without -c: every address-taken function has a
 * body here (diagnosed otherwise, as ptxas refuses it). */
void lw_fnptr_bodies(LowerCtx *c);
/* Records `name` as an address-taken function (a dispatch candidate). */
void lw_fnptr_note(LowerCtx *c, const char *name);

/* ---- fnaddr: a .func's address under -c (lower_fnptr.c; its own
 * .text: lower_fnaddr.c) ---- */
/* 1 when e names a .func and the output is relocatable: o is a pair of
 * MOV32I relocated with R_CUDA_ABS32_LO_32/HI_32 of its symbol; else 0. */
int lw_fnaddr_operand(LowerCtx *c, const Expr *e, Opnd *o);
/* 1 when e names a .func and the output is relocatable: *index is its
 * index of LModule.func_addrs (an initialiser word relocated R_CUDA_32). */
int lw_fnaddr_init(LowerCtx *c, const Expr *e, uint32_t *index);
/* o: a new 64-bit vreg loaded by two MOV32I relocated lo and hi (of var). */
void lw_reloc_pair(LowerCtx *c, Opnd *o, LReloc lo, LReloc hi, size_t var);
/* A new vreg holding word `word` (0 low, 1 high) of name's relocated address. */
uint32_t lw_fnaddr_load(LKernel *k, LModule *lm, SrcLoc loc, const char *name, unsigned word);
/* Compiles f as a function of its own (LKernel.abi_func) into k; false
 * when diagnosed. */
bool lw_fnaddr_function(LowerCtx *c, const LFunc *f, LKernel *k);
/* -c: whether f is compiled as a function of its own, called with JCAL
 * (as ptxas -c compiles every .func); one naming bound textures or
 * surfaces, or calling one that does, is linked into its callers instead
 * (their slots are the kernel's; ptxas relocates the header index into
 * the function's code). */
bool lw_func_own(LowerCtx *c, const LFunc *f);
/* The address-taken functions without a body become undefined symbols. */
void lw_fnaddr_externs(LowerCtx *c);
/* The index of an external function in LModule.externs, appended at its first use. */
uint16_t lw_extern_index(LModule *lm, const char *name);
/* Binds the placeholders of cs (at the entry instruction cs->insn, which
 * defines the arguments) and of the RET at `ret` (which reads the results)
 * to the calling convention's registers, as lw_extern_call binds a JCAL's. */
bool lw_abi_entry(LowerCtx *c, LKernel *k, const LCallSite *cs, size_t ret);
/* The alignment in 32-bit words (its .align, else its element size; at
 * least 1) of each parameter, then each result, of the declared .func
 * `name`; NULL when none was declared. */
const uint8_t *lw_func_param_align(const LowerCtx *c, const char *name);
/* The index of the variadic block among the parameters of the declared
 * .func `name`, -1 when it has none (or none was declared). */
int lw_func_vararg(const LowerCtx *c, const char *name);
/* Whether parameter i of f is its variadic block: the last .param, an
 * unsized array (`.param .align 8 .b8 f_vararg[]`, lower_vararg.c). */
bool lw_param_is_vararg(const Func *f, uint32_t i);
/* Which vregs of k hold a value some instruction computes (not only
 * copies of words nothing wrote: the parts of a .param block st.param left
 * undefined); k->nvregs + 1 flags, the caller frees them. */
bool *lw_written_vregs(const LKernel *k);

/* ---- lower_vararg.c: variadic functions ---- */
/* A function's variadic block: one word, the local-window address of the
 * caller's block ({vreg, 1} appended to order). */
void lw_vararg_declare(LowerCtx *c, const VarDecl *d, uint32_t **order, uint32_t *n);
/* 1 when e is the body's variadic block (`f_vararg`, or +/- a constant):
 * o its address; 0 for any other operand. */
int lw_vararg_operand(LowerCtx *c, const Expr *e, Opnd *o);
/* A call linked into k (argument j: the callee's variadic block, j ==
 * cs->nargs when the call leaves it out), its placeholders renamed: the
 * words written (lw_written_vregs) stored in an area of k's frame before
 * the CAL, callee_word its address. */
void lw_vararg_bind(LKernel *k, const LCallSite *cs, uint32_t j, uint32_t callee_word, const bool *written);
/* The functions the CUDA driver provides (vprintf, malloc, free,
 * __assertfail): ptxas 11.8 calls them with JCAL without -c as well,
 * leaving the relocation to the loader. */
bool lw_is_system_call(const char *name);
void lw_funcs_free(LowerCtx *c);
void lkernel_free_calls(LKernel *k);

/* ---- float-forms: cvt in steps (lower_cvt_staged.c): .f16 to and from
 * integers and .f64, 8-bit integers to .f64, .sat of integers to .f32 and
 * .f64; the I2F/F2I integer type value (signed | log2(bytes) << 1,
 * lower_fcvt.c) ---- */
bool lw_cvt_is_staged(const Instr *in);
bool lower_cvt_staged(LowerCtx *c, const Instr *in);
unsigned lw_cvt_int_type(PtxTy t);
/* div.rm/.rp/.rz.f64: ptxas's directed-rounding division (lower_ddiv_dir.c) */
bool lower_div_dir_f64(LowerCtx *c, const Instr *in);
/* sqrt.rm/.rp/.rz.f64: ptxas's directed-rounding square root (lower_dsqrt_dir.c) */
bool lower_sqrt_dir_f64(LowerCtx *c, const Instr *in);

/* ---- divrn: IEEE-rounded f32 division (lower_divrn.c) and reciprocal,
 * every rounding (lower_frcp.c) ---- */
bool lower_div_rn_f32(LowerCtx *c, const Instr *in);
bool lower_rcp_f32(LowerCtx *c, const Instr *in);
/* div.rm/.rp/.rz[.ftz].f32: ptxas's directed-rounding division (lower_fdiv_dir.c) */
bool lower_div_dir_f32(LowerCtx *c, const Instr *in);
/* fmisc: rcp.rz/.rm/.rp.f64 (lower_drcp_dir.c) */
bool lower_rcp_dir_f64(LowerCtx *c, const Instr *in);
bool lower_testp(LowerCtx *c, const Instr *in);      /* lower_testp.c */
bool lower_fns(LowerCtx *c, const Instr *in);        /* lower_fns.c */
/* (lower_ctx.c) Labels of a sequence that branches inside one instruction's code. */
int lw_label_new(LKernel *k);
void lw_label_place(LKernel *k, int label);
/* The guard of the next instructions (p < 0: none). */
void lw_guard(LowerCtx *c, int p, bool negated);
/* [@[!]p] BRA label (p < 0: unguarded); leaves the code unguarded. */
void lw_branch(LowerCtx *c, int p, bool negated, int label);
/* (lower_f32seq.c) An instruction defining register d (d < 0: RZ); a register source (v < 0: RZ). */
LInsn *lw_op_def(LowerCtx *c, SassFormId form, int d);
void lw_op_use(LInsn *op, SassRole r, int v);
/* A predicate destination (def) or source (p < 0: PT). */
void lw_op_pred(LInsn *op, SassRole r, int p, bool def);
uint32_t lw_pred_temp(LowerCtx *c);
/* A value defined on more than one path (not a temporary to liveness). */
uint32_t lw_path_value(LowerCtx *c);

/* strcmp(a, b) == 0, deciding most mismatches on the first two bytes
 * without a call: modifier and opcode words are compared against tables
 * for every instruction, and nearly all of them start with '.'. */
static inline bool lw_streq(const char *a, const char *b)
{
	return a[0] == b[0] && (a[0] == '\0' || (a[1] == b[1] && (a[1] == '\0' || strcmp(a + 2, b + 2) == 0)));
}


/* ---- brx: brx.idx through a .branchtargets table (lower_brx.c) ---- */
/* s a label whose next statement is `.branchtargets`: remembered for
 * brx.idx (called by the body's first walk). */
void lw_brx_collect(LowerCtx *c, const Stmt *s);
bool lower_brx_idx(LowerCtx *c, const Instr *in);
void lw_brx_ctx_end(LowerCtx *c);
/* Linking fragment fr into k: its tables become k's (labels moved by
 * lbase); returns the index of fr's first table in k. BRX targets and
 * the LDCs' table indices of fr's instructions move by it (lw_brx_adopt). */
size_t lw_brx_tables_adopt(LKernel *k, const LKernel *fr, size_t lbase);
void lw_brx_adopt(LInsn *in, size_t tbase);

/* ---- int64: 64-bit shifts and orderings, integer abs, activemask,
 * rcp.approx.ftz.f64 (lower_int64.c) ---- */
/* d = a << n / a >> n over 64 bits, n a 32-bit register operand (PTX
 * clamps it at 64): SHF + SHL/SHR as ptxas. */
void lw_shift64_reg(LowerCtx *c, bool left, bool is_signed, uint32_t d, uint32_t a, const Opnd *n);
/* The same by a constant k (0..64; lower_arith.c): SHL/SHR word pairs and
 * a LOP.OR (k < 32), one shifted word and RZ or the sign (k >= 32); d may
 * be a. */
void lw_shift64_imm(LowerCtx *c, bool left, bool is_signed, uint32_t d, uint32_t a, unsigned k);
/* A 64-bit ordering's compare: IADD RZ.CC, a.lo, -b.lo, then the .X form of
 * `forms` (ISETP, ISET) on the high words (d: its Rd, or LW_NO_DST); the
 * caller sets the comparison and destinations. */
LInsn *lw_cmp64_x(LowerCtx *c, SassAluForms forms, uint32_t d, uint32_t a, const Opnd *b);
/* setp.{lt,le,gt,ge}.{s,u}64 (cmp the ISETP comparison): IADD RZ.CC of the
 * low words and ISETP.X of the high words, with sp's destinations and
 * combination. */
bool lw_setp64_order(LowerCtx *c, unsigned cmp, bool is_signed, const SetpPreds *sp, unsigned bop, uint32_t a,
                     const Opnd *b);
bool lower_abs_int(LowerCtx *c, const Instr *in);
bool lower_activemask(LowerCtx *c, const Instr *in);
bool lower_rcp_approx_f64(LowerCtx *c, const Instr *in);

/* ---- f64div: IEEE-rounded f64 division (lower_ddiv.c) and the f64
 * reciprocal square root (lower_drsqrt.c), as ptxas 11.8 writes them ---- */
bool lower_div_rn_f64(LowerCtx *c, const Instr *in);
bool lower_rsqrt_f64(LowerCtx *c, const Instr *in);

/* ---- addr32: 32-bit addressing (lower_addr32.c) ---- */
/* One 32-bit source word: a part of a vreg, or RZ (vreg LW_RZ). */
enum { LW_RZ = UINT32_MAX };
typedef struct LwWord {
	uint32_t vreg;
	unsigned sub;
} LwWord;
/* d = a + c[0x0][cword] over dw words (lower_seq.c): IADD d.lo.CC, a.lo,
 * c[0x0][cword]; IADD.X d.hi, a.hi, c[0x0][cword + 4] (one IADD when dw
 * is 1); -c[0x0][...] when neg. */
void lw_add_cword(LowerCtx *c, uint32_t d, unsigned dw, const LwWord a[2], uint32_t cword, bool neg);
/* Whether an address register of bw 32-bit words may address memory in
 * this module (an error diagnostic when not): a 64-bit one always, a
 * 32-bit one unless .address_size is 64. */
bool lw_address_width(LowerCtx *c, SrcLoc loc, unsigned bw);
/* LEA pred, t, base, RZ: the 32-bit generic address and the predicate
 * LD/ST read. */
void lw_generic_address32(LowerCtx *c, uint32_t base, uint32_t t, uint32_t pred);

#endif
