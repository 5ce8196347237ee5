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

/* ptxas handles entries last to first; "p" below is a position in that
 * processing order and kernel_at() maps it back to the source order. */
typedef struct Layout {
	const CubinModule *m;
	size_t nk, ns;
	size_t nrel;              /* kernels with surface slots */
	size_t ndesc;             /* kernels with the suq descriptor lookup */
	size_t *surf_order;       /* symbol order -> index in m->surfrefs */
	CubinSurfaceSlot **slots; /* per processed kernel, sorted by offset */
	struct SymPlan *syms;     /* the symbol table, index 0 unused */
	size_t nsyms, first_global;
	size_t *sym_func, *sym_const0;   /* per processed kernel */
	size_t *sym_surf;                /* per symbol-order surfref */
	size_t *sym_handle;              /* per processed kernel: its first handle parameter's symbol */
	size_t sym_desc_size[CUBIN_DESC_KINDS];   /* by CubinDescKind, 0 = none */
	/* section indices per processed kernel (0 = the kernel has none) */
	size_t *s_rel_text, *s_rel_const0, *s_const2, *s_const0, *s_text, *s_shared;
	size_t nsec;
	/* module data (issue 15): sections (0 = none) and symbols */
	size_t s_data[3], s_rel_ginit, s_rela_ginit;   /* s_data by CubinDataSection */
	size_t *sym_var, sym_data_sec[3];
	size_t *sym_extern, s_callgraph, s_proto;   /* -c (cubin_extern.c) */
	size_t *sym_fnaddr;                         /* -c: per m->func_addrs */
	ConstOpts *const_opts;                      /* -c: per processed kernel */
} Layout;

static inline const CubinKernel *kernel_at(const Layout *L, size_t p)
{
	return &L->m->kernels[L->nk - 1 - p];
}

/* Whether declaration i of m->surfrefs is a .texref. */
static inline bool is_texture(const CubinModule *m, size_t i)
{
	return m->surfref_is_texture != NULL && m->surfref_is_texture[i];
}

/* ---- cubin_rel.c: .rel.nv.constant0.<k> and .rel.text.<k> ---- */
/* The header-index relocations of kernel p's slots, last slot first. */
void cubin_build_rel_const0(const Layout *L, size_t p, ByteBuf *b);
/* The descriptor-size symbols kernel k declares (CubinDescKind), in
 * ptxas's creation order; returns how many. */
size_t cubin_desc_symbols(const CubinKernel *k, uint8_t kinds[CUBIN_DESC_KINDS]);
/* Kernel p's code relocations: extern calls, the descriptor sizes,
 * addresses of module variables, kernels and functions. */
void cubin_build_rel_text(const Layout *L, size_t p, ByteBuf *b);
/* -c: the pool operand symbols of k (free with cubin_const_opts_free). */
void cubin_const_opts(const CubinKernel *k, ConstOpts *o);
void cubin_const_opts_free(ConstOpts *o);

#endif
