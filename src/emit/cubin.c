/* The sm_50 cubin writer: see cubin.h for the layout rules it reproduces.
 *
 * The image is assembled in three steps: check the module, build every
 * section's bytes (string tables first, in ptxas's creation order, because
 * all other sections refer to their offsets), then place the sections one
 * after another and append the section and program header tables. */
#include "emit/cubin_layout.h"

#include <stdlib.h>

#include "base/xalloc.h"

/* -c: the code reads an FP64 pair of its pool. */
static bool reads_pair(const CubinKernel *k)
{
	for (size_t i = 0; i < k->nconst2_refs; i++)
		if (k->const2_refs[i].size == 8)
			return true;
	return false;
}

static size_t sec_nv_info(void)              { return 4; }
static size_t sec_nv_info_k(size_t p)        { return 5 + p; }

/* ---- placement and headers --------------------------------------------- */

enum { SHT_PROGBITS = 1, SHT_SYMTAB = 2, SHT_STRTAB = 3, SHT_RELA = 4, SHT_NOBITS = 8, SHT_REL = 9 };
enum { SHF_WRITE = 1, SHF_ALLOC = 2, SHF_EXECINSTR = 4 };
enum { PT_LOAD = 1, PT_PHDR = 6, PF_X = 1, PF_W = 2, PF_R = 4 };

static void set_section(Section *s, uint32_t name, uint32_t type, uint64_t flags,
                        uint32_t link, uint32_t info, uint64_t align, uint64_t entsize,
                        const uint8_t *data, uint64_t size)
{
	*s = (Section){ .name = name, .type = type, .flags = flags, .link = link, .info = info,
	                .align = align, .entsize = entsize, .data = data, .size = size };
}

/* Sections follow the ELF header back to back, each at its alignment
 * (NOBITS sections take no file bytes); the section headers come next
 * (8-aligned), then the program headers: PHDR, a LOAD over the constant
 * banks and code, with shared memory a RW LOAD spanning the .nv.shared
 * sections as they are laid out in memory, and a LOAD repeating PHDR. */
static bool is_global_data(const Layout *L, size_t i)
{
	return i && (i == L->s_data[CUBIN_DATA_GLOBAL_INIT] || i == L->s_data[CUBIN_DATA_GLOBAL]);
}

/* NOBITS, or -c's SHT_CUDA_GLOBAL (.nv.global, uninitialised as NOBITS) */
static bool takes_no_bytes(const Section *s)
{
	return s->type == SHT_NOBITS || s->type == CUBIN_SHT_CUDA_GLOBAL || s->type == CUBIN_SHT_CUDA_SHARED;
}

static void emit_image(const Layout *L, Section *secs, size_t nsec, ByteBuf *out)
{
	/* one RW LOAD spans .nv.global.init (its file bytes run up to the first
	 * NOBITS section's start), .nv.global and the .nv.shared sections */
	uint64_t pos = 64, rw_off = 0, rw_file = 0, rw_mem = 0;
	bool rw = false, nobits_seen = false;
	for (size_t i = 1; i < nsec; i++) {
		uint64_t a = secs[i].align;
		pos = (pos + a - 1) / a * a;
		secs[i].offset = pos;
		bool nobits = takes_no_bytes(&secs[i]);
		if (!nobits && !is_global_data(L, i)) {
			pos += secs[i].size;
			continue;
		}
		if (!rw)
			rw_off = pos;
		rw = true;
		if (!nobits) {
			pos += secs[i].size;
			rw_file = rw_mem = pos - rw_off;
			continue;
		}
		if (!nobits_seen)
			rw_file = (rw_file + a - 1) / a * a;
		nobits_seen = true;
		rw_mem = (rw_mem + a - 1) / a * a + secs[i].size;
	}
	uint64_t shoff = (pos + 7) & ~(uint64_t)7;
	uint64_t phoff = shoff + 64 * nsec;
	uint16_t phnum = (uint16_t)((L->nk ? 3 : 2) + rw);
	if (L->m->relocatable)     /* ET_REL: no program headers */
		phoff = phnum = 0;

	cubin_put_elf_header(out, L->m, phoff, shoff, phnum, (uint16_t)nsec);
	for (size_t i = 1; i < nsec; i++) {
		if (takes_no_bytes(&secs[i]))
			continue;
		cubin_buf_zeros(out, secs[i].offset - out->len);
		if (secs[i].data)
			cubin_buf_put(out, secs[i].data, secs[i].size);
		else
			cubin_buf_zeros(out, secs[i].size);
	}
	/* to shoff: a last NOBITS section (.nv.shared) aligned pos, no bytes */
	cubin_buf_zeros(out, shoff - out->len);
	for (size_t i = 0; i < nsec; i++)
		cubin_put_section_header(out, &secs[i]);
	if (phnum == 0)
		return;

	cubin_put_program_header(out, PT_PHDR, PF_R | PF_X, phoff, 56u * phnum, 56u * phnum);
	if (L->nk) {
		size_t f0 = L->s_data[CUBIN_DATA_CONST3] ? L->s_data[CUBIN_DATA_CONST3]
		          : L->s_const2[0] ? L->s_const2[0] : sec_const0(L, 0);
		const Section *first = &secs[f0];
		const Section *last = &secs[sec_text(L, L->nk - 1)];
		uint64_t span = last->offset + last->size - first->offset;
		cubin_put_program_header(out, PT_LOAD, PF_R | PF_X, first->offset, span, span);
	}
	if (rw)
		cubin_put_program_header(out, PT_LOAD, PF_R | PF_W, rw_off, rw_file, rw_mem);
	cubin_put_program_header(out, PT_LOAD, PF_R | PF_X, phoff, 56u * phnum, 56u * phnum);
}

int cubin_write(const CubinModule *m, uint8_t **out, size_t *outlen, char *err, size_t errlen)
{
	*out = NULL;
	*outlen = 0;
	if (!m)
		return cubin_fail(err, errlen, "no module");
	if (cubin_check_module(m, err, errlen))
		return -1;
	CubinModule ordered;     /* -c: kernels and functions in ptxas's order */
	bool reordered = cubin_order_functions(m, &ordered);
	if (reordered)
		m = &ordered;

	Layout L;
	cubin_layout_init(&L, m);
	Names names;
	ByteBuf shstr = { 0 }, str = { 0 }, symtab = { 0 }, nv_info = { 0 };
	cubin_build_names(&L, &shstr, &str, &names);
	cubin_build_symtab(&L, &names, &symtab);
	cubin_build_nv_info(&L, &nv_info);
	size_t nk_alloc = L.nk ? L.nk : 1;
	ByteBuf *info_k = xcalloc(nk_alloc, sizeof *info_k);
	ByteBuf *rel = xcalloc(nk_alloc, sizeof *rel);
	ByteBuf *rel_text = xcalloc(nk_alloc, sizeof *rel_text);
	ByteBuf *rela_text = xcalloc(nk_alloc, sizeof *rela_text);
	ByteBuf *const2 = xcalloc(nk_alloc, sizeof *const2);
	for (size_t p = 0; p < L.nk; p++) {
		cubin_build_nv_info_kernel(&L, p, &info_k[p]);
		cubin_build_rel_const0(&L, p, &rel[p]);
		cubin_build_rel_text(&L, p, &rel_text[p]);
		cubin_build_rela_text(&L, p, &rela_text[p]);
		cubin_build_const2(&L, p, &const2[p]);
	}

	size_t nsec = L.nsec;
	Section *secs = xcalloc(nsec, sizeof *secs);
	set_section(&secs[SEC_SHSTRTAB], names.sh_shstrtab, SHT_STRTAB, 0, 0, 0, 1, 0,
	            shstr.data, shstr.len);
	set_section(&secs[SEC_STRTAB], names.sh_strtab, SHT_STRTAB, 0, 0, 0, 1, 0,
	            str.data, str.len);
	set_section(&secs[SEC_SYMTAB], names.sh_symtab, SHT_SYMTAB, 0, SEC_STRTAB,
	            (uint32_t)L.first_global, 8, 24, symtab.data, symtab.len);
	if (L.nk)
		set_section(&secs[sec_nv_info()], names.sh_nv_info, CUBIN_SHT_CUDA_INFO, 0,
		            SEC_SYMTAB, 0, 4, 0, nv_info.data, nv_info.len);
	if (!m->relocatable)
		set_section(&secs[sec_rel_action(&L)], names.sh_rel_action, CUBIN_SHT_CUDA_RELOCINFO,
		            0, 0, 0, 8, 8, cubin_nv_rel_action, CUBIN_NV_REL_ACTION_SIZE);
	for (size_t p = 0; p < L.nk; p++) {
		const CubinKernel *k = kernel_at(&L, p);
		uint32_t text = (uint32_t)sec_text(&L, p);
		set_section(&secs[sec_nv_info_k(p)], names.sh_info_k[p], CUBIN_SHT_CUDA_INFO, 0,
		            SEC_SYMTAB, text, 4, 0, info_k[p].data, info_k[p].len);
		if (k->nslots)
			set_section(&secs[L.s_rel_const0[p]], names.sh_rel[p], SHT_REL, 0,
			            SEC_SYMTAB, (uint32_t)sec_const0(&L, p), 8, 16,
			            rel[p].data, rel[p].len);
		if (has_rel_text(k))
			set_section(&secs[L.s_rel_text[p]], names.sh_rel_text[p], SHT_REL, 0,
			            SEC_SYMTAB, text, 8, 16, rel_text[p].data, rel_text[p].len);
		if (has_rela_text(k))
			set_section(&secs[L.s_rela_text[p]], names.sh_rela_text[p], SHT_RELA, 0,
			            SEC_SYMTAB, text, 8, 24, rela_text[p].data, rela_text[p].len);
		/* -c: the SHT_CUDA_CONSTANT types, a pool with an FP64 pair 8-aligned */
		if (has_const2(k))
			set_section(&secs[L.s_const2[p]], names.sh_const2[p],
			            m->relocatable ? CUBIN_SHT_CUDA_CONSTANT2 : SHT_PROGBITS, SHF_ALLOC, 0, text,
			            m->relocatable && reads_pair(k) ? 8 : 4, 0, const2[p].data, const2[p].len);
		if (!k->abi_func)
			set_section(&secs[sec_const0(&L, p)], names.sh_const0[p],
			            m->relocatable ? CUBIN_SHT_CUDA_CONSTANT0 : SHT_PROGBITS, SHF_ALLOC,
			            0, text, 4, 0, NULL, cubin_const0_size(&L, p));
		set_section(&secs[text], names.sh_text[p], SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR,
		            SEC_SYMTAB, (k->regcount << 24) | (uint32_t)L.sym_func[p], 32, 0,
		            k->code, k->code_size);
		if (k->shared_align)
			set_section(&secs[L.s_shared[p]], names.sh_shared[p],
			            m->relocatable ? CUBIN_SHT_CUDA_SHARED : SHT_NOBITS, SHF_WRITE | SHF_ALLOC,
			            0, text, k->shared_align, 0, NULL, k->shared_size);
	}

	uint8_t *data_bytes[CUBIN_DATA_SECTIONS] = { NULL }, *init_rel[4] = { NULL, NULL, NULL, NULL };
	for (int d = 0; d < CUBIN_DATA_SECTIONS; d++) {
		if (!L.s_data[d])
			continue;
		uint64_t size, align;
		cubin_data_extent(m, (CubinDataSection)d, &size, &align);
		bool no_bytes = d == CUBIN_DATA_GLOBAL || d == CUBIN_DATA_SHARED;
		data_bytes[d] = no_bytes ? NULL : cubin_data_bytes(m, (CubinDataSection)d, size);
		/* ptxas 11.8 (and 13.0) write .nv.global's size modulo 4 GiB: a
		 * 4.5 GiB variable's section is 0x20000000 bytes, its symbol's
		 * st_size the whole 0x120000000 (measured) */
		if (d == CUBIN_DATA_GLOBAL)
			size = (uint32_t)size;
		/* -c: SHT_CUDA_CONSTANT3, SHT_CUDA_GLOBAL_INIT, SHT_CUDA_GLOBAL,
		 * SHT_CUDA_SHARED (.nv_debug.shared, only under -c), as ptxas -c */
		static const uint32_t reloc_type[CUBIN_DATA_SECTIONS] = {
			CUBIN_SHT_CUDA_CONSTANT3, CUBIN_SHT_CUDA_GLOBAL_INIT, CUBIN_SHT_CUDA_GLOBAL, CUBIN_SHT_CUDA_SHARED };
		set_section(&secs[L.s_data[d]], names.sh_data[d],
		            m->relocatable ? reloc_type[d] : d == CUBIN_DATA_GLOBAL ? SHT_NOBITS : SHT_PROGBITS,
		            d == CUBIN_DATA_CONST3 ? SHF_ALLOC : SHF_WRITE | SHF_ALLOC, 0, 0, align, 0,
		            data_bytes[d], size);
	}
	/* address initialisers: .rel/.rela of .nv.global.init, then of .nv.constant3 */
	for (int q = 0; q < 4; q++) {
		bool rela = q & 1, cst = q >= 2;
		CubinDataSection d = cst ? CUBIN_DATA_CONST3 : CUBIN_DATA_GLOBAL_INIT;
		size_t sec = *cubin_init_rel_section(&L, q), len;
		if (!sec)
			continue;
		uint32_t name = cst ? (rela ? names.sh_rela_const3 : names.sh_rel_const3)
		                    : (rela ? names.sh_rela_ginit : names.sh_rel_ginit);
		init_rel[q] = cubin_init_relocs(m, d, L.sym_var, L.sym_fnaddr, rela, &len);
		set_section(&secs[sec], name, rela ? SHT_RELA : SHT_REL, 0, SEC_SYMTAB, (uint32_t)L.s_data[d], 8,
		            rela ? 24 : 16, init_rel[q], len);
	}

	ByteBuf graph = { 0 }, proto = { 0 };
	if (m->relocatable) {
		cubin_extern_callgraph(m, L.sym_func, L.nk, L.sym_extern, L.sym_fnaddr, names.st_proto_of, &graph,
		                       &proto);
		set_section(&secs[L.s_callgraph], names.sh_callgraph, CUBIN_SHT_CUDA_CALLGRAPH, 0, SEC_SYMTAB, 0, 4, 8,
		            graph.data, graph.len);
		if (L.s_proto)
			set_section(&secs[L.s_proto], names.sh_proto, CUBIN_SHT_CUDA_PROTOTYPE, 0, SEC_SYMTAB, 0, 4, 8,
			            proto.data, proto.len);
	}
	ByteBuf image = { 0 };
	emit_image(&L, secs, nsec, &image);
	free(graph.data);
	free(proto.data);
	for (int d = 0; d < CUBIN_DATA_SECTIONS; d++)
		free(data_bytes[d]);
	for (int q = 0; q < 4; q++)
		free(init_rel[q]);

	for (size_t p = 0; p < L.nk; p++) {
		free(info_k[p].data);
		free(rel[p].data);
		free(rel_text[p].data);
		free(rela_text[p].data);
		free(const2[p].data);
	}
	free(info_k);
	free(rel);
	free(rel_text);
	free(rela_text);
	free(const2);
	free(secs);
	free(shstr.data);
	free(shstr.index);
	free(str.data);
	free(str.index);
	free(symtab.data);
	free(nv_info.data);
	cubin_names_free(&names, L.nk ? L.nk : 1);
	cubin_layout_free(&L);
	if (reordered)
		cubin_order_free(&ordered);

	*out = image.data;
	*outlen = image.len;
	return 0;
}
