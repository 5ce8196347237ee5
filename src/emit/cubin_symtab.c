/* The writer's .symtab: one entry per planned symbol (cubin_plan.c), in
 * the plan's order. */
#include "emit/cubin_layout.h"

static void put_symbol_at(ByteBuf *b, uint32_t name, uint8_t info, uint8_t other,
                          uint16_t shndx, uint64_t value, uint64_t size)
{
	cubin_buf_u32(b, name);
	cubin_buf_u8(b, info);
	cubin_buf_u8(b, other);
	cubin_buf_u16(b, shndx);
	cubin_buf_u64(b, value);
	cubin_buf_u64(b, size);
}

/* Every symbol but a module variable sits at its section's start. */
static void put_symbol(ByteBuf *b, uint32_t name, uint8_t info, uint8_t other,
                       uint16_t shndx, uint64_t size)
{
	put_symbol_at(b, name, info, other, shndx, 0, size);
}

enum { STB_LOCAL = 0, STB_GLOBAL = 1, STB_WEAK = 2, STT_OBJECT = 1, STT_FUNC = 2, STT_SECTION = 3 };
#define ST_INFO(bind, type) ((uint8_t)(((bind) << 4) | (type)))

void cubin_build_symtab(const Layout *L, const Names *n, ByteBuf *b)
{
	const uint8_t section = ST_INFO(STB_LOCAL, STT_SECTION);
	put_symbol(b, 0, 0, 0, 0, 0);
	for (size_t i = 1; i < L->nsyms; i++) {
		size_t w = L->syms[i].which;
		switch (L->syms[i].kind) {
		case SYM_FUNC:
			put_symbol(b, n->st_func[w],
			           ST_INFO(L->syms[i].global ? STB_GLOBAL : kernel_at(L, w)->weak_symbol ? STB_WEAK : STB_LOCAL,
			                   STT_FUNC),
			           kernel_at(L, w)->abi_func ? 0 : CUBIN_STO_CUDA_ENTRY, (uint16_t)sec_text(L, w),
			           kernel_at(L, w)->code_size);
			break;
		case SYM_SURFREF:
			put_symbol(b, n->st_surf[w], ST_INFO(STB_GLOBAL, is_texture(L->m, L->surf_order[w])
			                                    ? CUBIN_STT_CUDA_TEXTURE : CUBIN_STT_CUDA_SURFACE), 0, 0, 0);
			break;
		case SYM_TEXT:
			put_symbol(b, n->st_text[w], section, 0, (uint16_t)sec_text(L, w), 0);
			break;
		case SYM_HANDLE: {
			size_t j = i - L->sym_handle[w];
			put_symbol(b, n->st_handle[w][j],
			           ST_INFO(STB_LOCAL, cubin_handle_symbol_type(kernel_at(L, w)->handle_params[j].space)),
			           0, (uint16_t)sec_text(L, w), 0);
			break;
		}
		case SYM_SHARED:
			put_symbol(b, n->st_shared[w], section, 0, (uint16_t)L->s_shared[w], 0);
			break;
		case SYM_DESC_SIZE:
			put_symbol(b, n->st_desc_size[w], ST_INFO(STB_WEAK, STT_OBJECT), 0, 0, 4);
			break;
		case SYM_CONST2:
			put_symbol(b, n->st_const2[w], section, 0, (uint16_t)L->s_const2[w], 0);
			break;
		case SYM_CONST0:
			put_symbol(b, n->st_const0[w], section, 0, (uint16_t)sec_const0(L, w), 0);
			break;
		case SYM_CONST_OPT: {
			const CubinConst2Ref *r = L->const_opts[w].distinct[i - L->const_opts[w].first_sym];
			put_symbol_at(b, n->st_const_opt[w][i - L->const_opts[w].first_sym],
			              ST_INFO(STB_LOCAL, CUBIN_STT_CUDA_OBJECT), CUBIN_STO_CUDA_CONSTANT_INTERNAL,
			              (uint16_t)L->s_const2[w], r->pool_offset, r->size);
			break;
		}
		case SYM_PARAM: {   /* the parameters, else the driver's words (_SREG) */
			const CubinKernel *k = kernel_at(L, w);
			bool params = k->nparams || k->nhandle_params;
			put_symbol_at(b, params ? n->st_param : n->st_sreg, ST_INFO(STB_LOCAL, CUBIN_STT_CUDA_OBJECT),
			              CUBIN_STO_CUDA_CONSTANT_INTERNAL, (uint16_t)sec_const0(L, w),
			              params ? SASS_PARAM_CBANK_BASE : 0,
			              params ? cubin_const0_size(L, w) - SASS_PARAM_CBANK_BASE : SASS_PARAM_CBANK_BASE);
			break;
		}
		case SYM_REL_ACTION:
			put_symbol(b, n->st_rel_action, section, 0, (uint16_t)sec_rel_action(L), 0);
			break;
		case SYM_DATA_SEC:
			put_symbol(b, n->st_data_sec[w], section, 0, (uint16_t)L->s_data[w], 0);
			break;
		case SYM_CALLGRAPH:
			put_symbol(b, n->st_callgraph, section, 0, (uint16_t)L->s_callgraph, 0);
			break;
		case SYM_PROTO:
			put_symbol(b, n->st_proto, section, 0, (uint16_t)L->s_proto, 0);
			break;
		case SYM_EXTERN:    /* undefined: the linker resolves it */
			put_symbol(b, n->st_extern[w], ST_INFO(STB_GLOBAL, STT_FUNC),
			           L->m->extern_is_entry && L->m->extern_is_entry[w] ? CUBIN_STO_CUDA_ENTRY : 0, 0, 0);
			break;
		case SYM_VAR: {
			/* -c: an STT_CUDA_OBJECT of its space, as ptxas -c marks it for the linker */
			const CubinVar *v = &L->m->vars[w];
			if (v->shared) {    /* -c: value its alignment; .extern: undefined */
				put_symbol_at(b, n->st_var[w],
				              ST_INFO(v->align ? STB_LOCAL : STB_GLOBAL, CUBIN_STT_CUDA_OBJECT),
				              CUBIN_STO_CUDA_SHARED,
				              !v->align ? 0 : v->kernel_body ? (uint16_t)L->s_shared[L->nk - v->kernel_body]
				                                             : (uint16_t)L->s_data[CUBIN_DATA_SHARED],
				              v->align, v->size);
				break;
			}
			bool rel = L->m->relocatable;
			put_symbol_at(b, n->st_var[w],
			              ST_INFO(L->syms[i].global ? STB_GLOBAL : v->weak ? STB_WEAK : STB_LOCAL,
			                      rel ? CUBIN_STT_CUDA_OBJECT : STT_OBJECT),
			              !rel ? 0 : v->is_const ? CUBIN_STO_CUDA_CONSTANT : CUBIN_STO_CUDA_GLOBAL,
			              v->common ? CUBIN_SHN_COMMON : (uint16_t)L->s_data[var_section(v)],
			              v->common ? v->align : v->offset, v->size);
			break;
		}
		}
	}
}
