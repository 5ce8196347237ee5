/* The ELF file header, section headers and program headers of a cubin. */
#include "emit/cubin_internal.h"

void cubin_put_elf_header(ByteBuf *b, const CubinModule *m, uint64_t phoff, uint64_t shoff,
                          uint16_t phnum, uint16_t shnum)
{
	static const uint8_t ident[16] = {
		0x7f, 'E', 'L', 'F', 2 /* ELFCLASS64 */, 1 /* little-endian */, 1 /* EV_CURRENT */,
		CUBIN_ELFOSABI_CUDA, CUBIN_ELFABIVERSION,
	};
	uint32_t ptx_sm = (uint32_t)(m->ptx_target_sm ? m->ptx_target_sm : m->sm);
	uint32_t flags = (uint32_t)m->sm | (ptx_sm << 16) |
	                 (m->texmode_independent ? CUBIN_EF_TEXMODE_INDEPENDENT
	                                         : CUBIN_EF_TEXMODE_UNIFIED) |
	                 (m->address64 ? CUBIN_EF_64BIT_ADDRESS : 0);
	cubin_buf_put(b, ident, sizeof ident);
	cubin_buf_u16(b, m->relocatable ? 1 : 2);   /* ET_REL (-c) or ET_EXEC */
	cubin_buf_u16(b, CUBIN_EM_CUDA);
	cubin_buf_u32(b, CUBIN_CUDA_API_VERSION);
	cubin_buf_u64(b, 0);                 /* e_entry */
	cubin_buf_u64(b, phoff);
	cubin_buf_u64(b, shoff);
	cubin_buf_u32(b, flags);
	cubin_buf_u16(b, 64);                /* e_ehsize */
	cubin_buf_u16(b, 56);                /* e_phentsize */
	cubin_buf_u16(b, phnum);
	cubin_buf_u16(b, 64);                /* e_shentsize */
	cubin_buf_u16(b, shnum);
	cubin_buf_u16(b, SEC_SHSTRTAB);
}

void cubin_put_section_header(ByteBuf *b, const Section *s)
{
	cubin_buf_u32(b, s->name);
	cubin_buf_u32(b, s->type);
	cubin_buf_u64(b, s->flags);
	cubin_buf_u64(b, 0);                 /* sh_addr */
	cubin_buf_u64(b, s->offset);
	cubin_buf_u64(b, s->size);
	cubin_buf_u32(b, s->link);
	cubin_buf_u32(b, s->info);
	cubin_buf_u64(b, s->align);
	cubin_buf_u64(b, s->entsize);
}

void cubin_put_program_header(ByteBuf *b, uint32_t type, uint32_t flags, uint64_t offset,
                              uint64_t filesz, uint64_t memsz)
{
	cubin_buf_u32(b, type);
	cubin_buf_u32(b, flags);
	cubin_buf_u64(b, offset);
	cubin_buf_u64(b, 0);                 /* p_vaddr */
	cubin_buf_u64(b, 0);                 /* p_paddr */
	cubin_buf_u64(b, filesz);
	cubin_buf_u64(b, memsz);
	cubin_buf_u64(b, 8);
}
