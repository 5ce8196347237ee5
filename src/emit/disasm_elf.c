/* The ELF reads of the cubin listing (disasm_elf.h). */
#include "emit/disasm_elf.h"

int elf_open(Elf *e, const uint8_t *buf, size_t len)
{
	*e = (Elf){ .buf = buf, .len = len };
	if (len < EHDR_SIZE)
		return -1;
	e->shoff = rd(buf + 40, 8);
	e->shnum = (size_t)rd(buf + 60, 2);
	if (!in_bounds(e->shoff, (uint64_t)e->shnum * SHDR_SIZE, len))
		return -1;
	for (size_t i = 1; i < e->shnum; i++) {
		if (sh_field(e, i, 4, 4) != SHT_SYMTAB)
			continue;
		size_t link = sh_link(e, i);
		uint64_t off = sh_offset(e, i), size = sh_size(e, i);
		if (link == 0 || link >= e->shnum || !in_bounds(off, size, len))
			return -1;
		uint64_t str_off = sh_offset(e, link), str_size = sh_size(e, link);
		if (str_size == 0 || !in_bounds(str_off, str_size, len) ||
		    buf[str_off + str_size - 1] != 0)
			return -1;
		e->symtab = i;
		e->nsyms = (size_t)(size / SYM_SIZE);
		e->syms = buf + off;
		e->strtab = (const char *)buf + str_off;
		e->strtab_size = str_size;
		break;
	}
	return 0;
}

int elf_symbol(const Elf *e, size_t i, Symbol *s)
{
	const uint8_t *p = e->syms + i * SYM_SIZE;
	uint64_t name = rd(p, 4);
	if (name >= e->strtab_size)
		return -1;
	*s = (Symbol){
		.name = e->strtab + name,
		.bind = p[4] >> 4,
		.type = p[4] & 0xf,
		.other = p[5],
		.shndx = (size_t)rd(p + 6, 2),
		.value = rd(p + 8, 8),
		.size = rd(p + 16, 8),
	};
	return 0;
}
