/* The cubin writer's plan of one image (cubin.c), shared with the
 * builders of its relocation sections (cubin_rel.c): section and symbol
 * indices per kernel, in ptxas's processing order. Private to emit/. */
#ifndef PTXSURF_EMIT_CUBIN_LAYOUT_H
#define PTXSURF_EMIT_CUBIN_LAYOUT_H

#include "emit/cubin_internal.h"

/* -c: a kernel's pool operands as symbols (cubin_rel.c): the distinct
 * (offset, size) of its const2_refs, first read first; ref_sym[i] is the
 * index among them of const2_refs[i]; first_sym the first's symbol. */
typedef struct ConstOpts {
	const CubinConst2Ref **distinct;
	size_t *ref_sym;
	size_t n, first_sym;
} ConstOpts;

/* ptxas creates symbols in this order -- per processed kernel its FUNC
 * (followed, for the first kernel, by every surfref), SECTION .text.<k>,
 * [the weak descriptor-size symbols, each once, and SECTION .nv.constant2.<k>
 * for a kernel with a lookup / a constant pool], SECTION .nv.constant0.<k>;
 * finally SECTION .nv.rel.action -- and then
 * moves the locals before the globals without reordering either group
 * (ELF wants locals first).  A .entry without .visible is a LOCAL FUNC. */
typedef enum SymKind {
	SYM_FUNC, SYM_SURFREF, SYM_TEXT, SYM_SHARED, SYM_DESC_SIZE, SYM_CONST2, SYM_CONST0, SYM_REL_ACTION,
	SYM_DATA_SEC, SYM_VAR, SYM_CALLGRAPH, SYM_PROTO, SYM_EXTERN, SYM_HANDLE,
	SYM_CONST_OPT, SYM_PARAM   /* -c: a pool operand's bytes; the parameters' (or _SREG) */
} SymKind;

typedef struct SymPlan {
	SymKind kind;
	size_t which;   /* processed-kernel position, or symbol-order surfref index */
	bool global;
} SymPlan;

/* ptxas handles entries last to first; "p" below is a position in that
 * processing order and kernel_at() maps it back to the source order. */
typedef struct Layout {
	const CubinModule *m;
	size_t nk, ns;
	size_t nrel;              /* kernels with surface slots */
	size_t ndesc;             /* kernels with the suq descriptor lookup */
	size_t *surf_order;       /* symbol order -> index in m->surfrefs */
	CubinSurfaceSlot **slots; /* per processed kernel, sorted by offset */
	SymPlan *syms;             /* the symbol table, index 0 unused */
	size_t nsyms, first_global;
	size_t *sym_func, *sym_const0;   /* per processed kernel */
	size_t *sym_surf;                /* per symbol-order surfref */
	size_t *sym_handle;              /* per processed kernel: its first handle parameter's symbol */
	size_t sym_desc_size[CUBIN_DESC_KINDS];   /* by CubinDescKind, 0 = none */
	/* section indices per processed kernel (0 = the kernel has none) */
	size_t *s_rel_text, *s_rela_text, *s_rel_const0, *s_const2, *s_const0, *s_text, *s_shared;
	size_t nsec;
	/* module data (issue 15): sections (0 = none) and symbols */
	size_t s_data[CUBIN_DATA_SECTIONS], s_rel_ginit, s_rela_ginit;   /* s_data by CubinDataSection */
	size_t s_rel_const3, s_rela_const3;   /* .const address initialisers */
	size_t *sym_var, sym_data_sec[CUBIN_DATA_SECTIONS];
	size_t *sym_extern, s_callgraph, s_proto;   /* -c (cubin_extern.c) */
	size_t *sym_fnaddr;                         /* -c: per m->func_addrs */
	ConstOpts *const_opts;                      /* -c: per processed kernel */
} Layout;

static inline const CubinKernel *kernel_at(const Layout *L, size_t p)
{
	return &L->m->kernels[L->nk - 1 - p];
}

/* The suq/txq descriptor lookup: .rel.text.<k> and a descriptor-size
 * symbol. .nv.constant2.<k> holds ptxas -O3's constant pool: the lookup's
 * field offsets (-O0 adds them as immediates instead) and mad addends. */
static inline bool has_desc(const CubinKernel *k)
{
	return k->ndesc_size_offsets > 0;
}

/* -c: k reads a pool operand (table false) or a jump table (true). */
static inline bool reads_pool(const CubinKernel *k, bool table)
{
	for (size_t i = 0; i < k->nconst2_refs; i++)
		if (k->const2_refs[i].table == table)
			return true;
	return false;
}

/* -c: k names a bound handle in a slot field (operand false) or a
 * constant operand (true). */
static inline bool reads_bindless(const CubinKernel *k, bool operand)
{
	for (size_t i = 0; i < k->nbindless_refs; i++)
		if (k->bindless_refs[i].operand == operand)
			return true;
	return false;
}

/* -c: k reads a .const variable's operand at its start (addend false)
 * or inside it (true). */
static inline bool reads_const_var(const CubinKernel *k, bool addend)
{
	for (size_t i = 0; i < k->nconst_var_refs; i++)
		if ((k->const_var_refs[i].addend != 0) == addend)
			return true;
	return false;
}

/* .rel.text.<k>: the lookup's or module variable addresses' MOV32I. */
static inline bool has_rel_text(const CubinKernel *k)
{
	return has_desc(k) || k->ndata_fixups > 0 || k->nextern_calls > 0 || reads_pool(k, false) ||
	       reads_bindless(k, false) || reads_const_var(k, false);
}

/* -c: .rela.text.<k>, the jump tables' LDC offsets, the bound handles'
 * and .const variables' operands with an addend */
static inline bool has_rela_text(const CubinKernel *k)
{
	return reads_pool(k, true) || reads_bindless(k, true) || reads_const_var(k, true);
}

static inline bool has_const2(const CubinKernel *k)
{
	return k->ndesc_fields > 0;
}

static inline size_t sec_rel_action(const Layout *L) { return L->nk ? 5 + L->nk : 4; }
static inline size_t sec_const0(const Layout *L, size_t p) { return L->s_const0[p]; }
/* The address-initialiser relocation section of kind q (cubin_init_reloc_order) */
static inline size_t *cubin_init_rel_section(Layout *L, int q)
{
	size_t *s[4] = { &L->s_rel_ginit, &L->s_rela_ginit, &L->s_rel_const3, &L->s_rela_const3 };
	return s[q];
}
static inline size_t sec_text(const Layout *L, size_t p)   { return L->s_text[p]; }

static inline CubinDataSection var_section(const CubinVar *v)
{
	return v->shared ? CUBIN_DATA_SHARED : v->is_const ? CUBIN_DATA_CONST3
	     : v->init ? CUBIN_DATA_GLOBAL_INIT : CUBIN_DATA_GLOBAL;
}

/* Whether declaration i of m->surfrefs is a .texref. */
static inline bool is_texture(const CubinModule *m, size_t i)
{
	return m->surfref_is_texture != NULL && m->surfref_is_texture[i];
}

/* ---- cubin_plan.c: the plan ---- */
void cubin_layout_init(Layout *L, const CubinModule *m);
void cubin_layout_free(Layout *L);
/* Module variables as ptxas creates their symbols: the .visible ones (pass
 * 1; the surfrefs follow them), then the others (pass 0), each after its
 * section's symbol when that is new (seen[] carries over from pass 1 to
 * pass 0). f(var, -1) is a variable, f(-1, section) a section symbol. */
void cubin_walk_data_symbols(const CubinModule *m, int pass, bool seen[CUBIN_DATA_SECTIONS],
                             void (*f)(void *, ptrdiff_t, int), void *arg);
/* The bytes of kernel p's .nv.constant0.<k>: parameters and slots. */
uint32_t cubin_const0_size(const Layout *L, size_t p);

/* ---- cubin_names.c: the string tables ---- */
/* String offsets every other section refers to. */
typedef struct Names {
	uint32_t sh_shstrtab, sh_strtab, sh_symtab, sh_nv_info, sh_rel_action;
	uint32_t *sh_text, *sh_info_k, *sh_const0, *sh_rel;   /* per processed kernel */
	uint32_t *sh_shared, *st_shared;                      /* per processed kernel */
	uint32_t *sh_const2, *sh_rel_text, *sh_rela_text;     /* per processed kernel */
	uint32_t st_rel_action, st_desc_size[CUBIN_DESC_KINDS];
	uint32_t *st_func, *st_text, *st_const0, *st_const2;  /* per processed kernel */
	uint32_t *st_surf;                                    /* per symbol-order surfref */
	uint32_t **st_handle;                                 /* per processed kernel, per handle parameter */
	uint32_t **st_const_opt, st_param, st_sreg;           /* -c: per processed kernel, per pool operand */
	uint32_t *st_var, st_data_sec[CUBIN_DATA_SECTIONS], sh_data[CUBIN_DATA_SECTIONS];         /* module data */
	uint32_t sh_rel_ginit, sh_rela_ginit, sh_rel_const3, sh_rela_const3;
	uint32_t *st_extern, sh_callgraph, sh_proto, st_callgraph, st_proto;   /* -c */
	uint32_t *st_proto_of;   /* -c: the prototype string per m->externs, then per m->func_addrs, then per
	                          * m->kernels (a .visible/.weak function of its own) */
} Names;
void cubin_build_names(const Layout *L, ByteBuf *shstr, ByteBuf *str, Names *n);
void cubin_names_free(Names *n, size_t nk);

/* ---- cubin_symtab.c, cubin_info.c: .symtab, .nv.info, .nv.info.<k>, .nv.constant2.<k> ---- */
void cubin_build_symtab(const Layout *L, const Names *n, ByteBuf *b);
/* .nv.info lists the per-function resource records in source order. */
void cubin_build_nv_info(const Layout *L, ByteBuf *b);
/* Kernel p's records, in the order observed in ptxas 11.8 output. */
void cubin_build_nv_info_kernel(const Layout *L, size_t p, ByteBuf *b);
void cubin_build_const2(const Layout *L, size_t p, ByteBuf *b);

/* ---- cubin_rel.c: .rel.nv.constant0.<k> and .rel.text.<k> ---- */
/* The header-index relocations of kernel p's slots, last slot first. */
void cubin_build_rel_const0(const Layout *L, size_t p, ByteBuf *b);
/* The descriptor-size symbols kernel k declares (CubinDescKind), in
 * ptxas's creation order; returns how many. */
size_t cubin_desc_symbols(const CubinKernel *k, uint8_t kinds[CUBIN_DESC_KINDS]);
/* Kernel p's code relocations: extern calls, the descriptor sizes,
 * addresses of module variables, kernels and functions. */
void cubin_build_rel_text(const Layout *L, size_t p, ByteBuf *b);
/* -c: kernel p's .rela.text.<k>, R_CUDA_CONST_FIELD21_20 of each jump-table read. */
void cubin_build_rela_text(const Layout *L, size_t p, ByteBuf *b);
/* Whether k's .rela.text.<k> comes before its .rel.text.<k> (both present). */
bool cubin_rela_text_first(const CubinKernel *k);
/* -c: the pool operand symbols of k (free with cubin_const_opts_free). */
void cubin_const_opts(const CubinKernel *k, ConstOpts *o);
void cubin_const_opts_free(ConstOpts *o);

#endif
