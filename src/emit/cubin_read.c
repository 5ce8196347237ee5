/* The defensive cubin reader (see cubin_read.h).
 *
 * Safety argument: the only reads of the input go through rd16/rd32/rd64 on
 * ranges that were checked with in_bounds() first, and through string
 * pointers returned by table_string(), which only hands out offsets inside
 * a string table whose last byte is NUL.  Array sizes derive from section
 * sizes that were themselves checked against the buffer length, and every
 * pass over sections or symbols is linear, so no input makes it slow. */
#include "emit/cubin_read_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* ---- ELF structure ---------------------------------------------------- */

static int read_elf_header(Reader *r, CubinImage *img)
{
	const uint8_t *h = r->buf;
	if (r->len < EHDR_SIZE)
		return cubin_read_fail(r, "not a cubin: %zu bytes, shorter than an ELF header", r->len);
	if (memcmp(h, "\x7f" "ELF", 4) != 0)
		return cubin_read_fail(r, "not a cubin: no ELF magic");
	if (h[4] != 2 || h[5] != 1)
		return cubin_read_fail(r, "not a cubin: not a 64-bit little-endian ELF file");
	if (rd16(h + 18) != CUBIN_EM_CUDA)
		return cubin_read_fail(r, "not a cubin: e_machine is %u, not EM_CUDA (190)", rd16(h + 18));

	uint64_t shoff = rd64(h + 40);
	uint16_t shentsize = rd16(h + 58);
	r->shnum = rd16(h + 60);
	r->shstrndx = rd16(h + 62);
	if (shentsize != SHDR_SIZE)
		return cubin_read_fail(r, "bad cubin: section header size %u, expected 64", shentsize);
	if (r->shnum == 0)
		return cubin_read_fail(r, "bad cubin: no section headers");
	if (!in_bounds(shoff, (uint64_t)r->shnum * SHDR_SIZE, r->len))
		return cubin_read_fail(r, "bad cubin: section header table lies outside the file");
	if (r->shstrndx >= r->shnum)
		return cubin_read_fail(r, "bad cubin: section name table index %zu out of range", r->shstrndx);

	img->e_flags = rd32(h + 48);
	img->sm = (int)(img->e_flags & 0xff);
	img->ptx_target_sm = (int)((img->e_flags >> 16) & 0xff);
	img->address64 = (img->e_flags & CUBIN_EF_64BIT_ADDRESS) != 0;
	img->texmode_independent = (img->e_flags & CUBIN_EF_TEXMODE_INDEPENDENT) != 0;

	r->sh = xcalloc(r->shnum, sizeof *r->sh);
	for (size_t i = 0; i < r->shnum; i++) {
		const uint8_t *p = r->buf + shoff + i * SHDR_SIZE;
		SectionHeader *s = &r->sh[i];
		s->name = rd32(p);
		s->type = rd32(p + 4);
		s->flags = rd64(p + 8);
		s->addr = rd64(p + 16);
		s->offset = rd64(p + 24);
		s->size = rd64(p + 32);
		s->link = rd32(p + 40);
		s->info = rd32(p + 44);
		s->align = rd64(p + 48);
		s->entsize = rd64(p + 56);
		if (has_file_data(s) && !in_bounds(s->offset, s->size, r->len))
			return cubin_read_fail(r, "bad cubin: section %zu (offset 0x%llx, size 0x%llx) lies outside "
			            "the %zu-byte file", i, (unsigned long long)s->offset,
			            (unsigned long long)s->size, r->len);
	}
	if (!is_string_table(r, r->shstrndx))
		return cubin_read_fail(r, "bad cubin: section %zu is not a NUL-terminated string table",
		            r->shstrndx);
	for (size_t i = 1; i < r->shnum; i++)
		if (!section_name(r, i))
			return cubin_read_fail(r, "bad cubin: section %zu has a bad name offset", i);
	return 0;
}

/* The symbol table is optional (a disassembler needs only the sections),
 * but when present it must be well formed. */
static int read_symtab(Reader *r)
{
	for (size_t i = 1; i < r->shnum; i++) {
		const SectionHeader *s = &r->sh[i];
		if (s->type != SHT_SYMTAB)
			continue;
		if (s->size % SYM_SIZE || (s->entsize != SYM_SIZE && s->entsize != 0))
			return cubin_read_fail(r, "bad cubin: symbol table section %zu has entry size %llu", i,
			            (unsigned long long)s->entsize);
		if (s->link == 0 || s->link >= r->shnum || !is_string_table(r, s->link))
			return cubin_read_fail(r, "bad cubin: symbol table section %zu links to no string table", i);
		r->symtab = i;
		r->nsyms = (size_t)(s->size / SYM_SIZE);
		for (size_t j = 1; j < r->nsyms; j++)
			if (!symbol_name(r, j))
				return cubin_read_fail(r, "bad cubin: symbol %zu has a bad name offset", j);
		return 0;
	}
	return 0;
}

/* ---- per-kernel attributes ------------------------------------------- */

/* One pass over the sections links each code section to its attribute
 * section (the SHT_CUDA_INFO one whose sh_info points at it; the module-wide
 * .nv.info has sh_info 0) and, through .nv.constant0.<name>, to the
 * relocations of its constant bank.  Quadratic searches would let a crafted
 * file with many sections take minutes. */
static bool is_code_section(const Reader *r, size_t i)
{
	return r->sh[i].type == SHT_PROGBITS && starts_with(section_name(r, i), ".text.");
}

static void link_sections(Reader *r)
{
	size_t *const0_of = xcalloc(r->shnum, sizeof *const0_of);
	size_t *rel_of_const0 = xcalloc(r->shnum, sizeof *rel_of_const0);
	r->info_of = xcalloc(r->shnum, sizeof *r->info_of);
	r->rel_of = xcalloc(r->shnum, sizeof *r->rel_of);
	r->rel_text_of = xcalloc(r->shnum, sizeof *r->rel_text_of);
	r->rela_text_of = xcalloc(r->shnum, sizeof *r->rela_text_of);
	r->const2_of = xcalloc(r->shnum, sizeof *r->const2_of);
	r->desc_kinds_of = xcalloc(r->shnum, sizeof *r->desc_kinds_of);
	r->ndesc_kinds_of = xcalloc(r->shnum, sizeof *r->ndesc_kinds_of);
	r->shared_of = xcalloc(r->shnum, sizeof *r->shared_of);
	r->entry = xcalloc(r->shnum, sizeof *r->entry);
	r->local_entry = xcalloc(r->shnum, sizeof *r->local_entry);
	for (size_t i = r->shnum; i-- > 1;) {
		const SectionHeader *s = &r->sh[i];
		if (s->info == 0 || s->info >= r->shnum)
			continue;
		/* Walking backwards leaves the first match in each slot. */
		if (s->type == CUBIN_SHT_CUDA_INFO)
			r->info_of[s->info] = i;
		else if ((s->type == SHT_PROGBITS || s->type == CUBIN_SHT_CUDA_CONSTANT0) &&
		         starts_with(section_name(r, i), ".nv.constant0."))
			const0_of[s->info] = i;
		else if ((s->type == SHT_PROGBITS || s->type == CUBIN_SHT_CUDA_CONSTANT2) &&
		         starts_with(section_name(r, i), ".nv.constant2."))
			r->const2_of[s->info] = i;
		else if (s->type == SHT_REL && starts_with(section_name(r, i), ".rel.text."))
			r->rel_text_of[s->info] = i;
		else if (s->type == SHT_RELA && starts_with(section_name(r, i), ".rela.text."))
			r->rela_text_of[s->info] = i;
		else if (s->type == SHT_NOBITS && starts_with(section_name(r, i), ".nv.shared."))
			r->shared_of[s->info] = i;
		else if (s->type == SHT_REL)
			rel_of_const0[s->info] = i;
	}
	for (size_t t = 1; t < r->shnum; t++)
		r->rel_of[t] = const0_of[t] ? rel_of_const0[const0_of[t]] : 0;
	size_t last_text = 0;
	for (size_t i = 1; i < r->nsyms; i++) {
		const uint8_t *sym = symbol(r, i);
		uint16_t shndx = rd16(sym + 6);
		if ((sym[4] & 0xf) == STT_SECTION && shndx < r->shnum && is_code_section(r, shndx))
			last_text = shndx;
		int kind = desc_kind_of_name(symbol_name(r, i));
		if (kind >= 0 && r->ndesc_kinds_of[last_text] < CUBIN_DESC_KINDS)
			r->desc_kinds_of[last_text][r->ndesc_kinds_of[last_text]++] = (uint8_t)kind;
		if ((sym[4] & 0xf) == STT_FUNC && (sym[5] & CUBIN_STO_CUDA_ENTRY) && shndx < r->shnum) {
			r->entry[shndx] = true;
			r->local_entry[shndx] = (sym[4] >> 4) == STB_LOCAL;
		}
	}
	free(const0_of);
	free(rel_of_const0);
}

static int compare_u64(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static int compare_slot_offset(const void *a, const void *b)
{
	uint32_t x = ((const CubinSurfaceSlot *)a)->cbank_offset;
	uint32_t y = ((const CubinSurfaceSlot *)b)->cbank_offset;
	return (x > y) - (x < y);
}

typedef struct InfoRecord {
	uint8_t format, attr;
	uint16_t value;
	const uint8_t *payload;
	uint32_t payload_size;
} InfoRecord;

/* Where one kernel's attributes are collected: params as (ordinal << 32 |
 * record index) keys, so they can be put in ordinal order and checked for
 * gaps; u32 lists in the image's offset store. */
typedef struct InfoSink {
	CubinKernel *k;
	SassParam *raw_params;
	uint64_t *param_keys;
	size_t nparams;
	/* handle parameters (offset 0xffff, a space): name = NULL until the
	 * symbol index kept in sym[] is looked up */
	CubinHandleParam *handles;
	uint32_t *handle_syms;
	size_t nhandles;
	uint32_t *words;
	size_t nwords;
} InfoSink;

static const uint32_t *take_words(InfoSink *sink, const InfoRecord *rec, size_t *count)
{
	uint32_t *start = sink->words + sink->nwords;
	*count = rec->payload_size / 4;
	for (size_t i = 0; i < *count; i++)
		start[i] = rd32(rec->payload + 4 * i);
	sink->nwords += *count;
	return start;
}

static void reverse_words(uint32_t *w, size_t n)
{
	for (size_t i = 0, j = n; i + 1 < j; i++, j--) {
		uint32_t t = w[i];
		w[i] = w[j - 1];
		w[j - 1] = t;
	}
}

/* w holds a words, then b more: the b go first, the a after them. */
static void rotate_words(uint32_t *w, size_t a, size_t b)
{
	reverse_words(w, a);
	reverse_words(w + a, b);
	reverse_words(w, a + b);
}

static void apply_record(InfoSink *sink, const InfoRecord *rec)
{
	CubinKernel *k = sink->k;
	bool sval = rec->format == CUBIN_EIFMT_SVAL;
	switch (rec->attr) {
	case CUBIN_EIATTR_KPARAM_INFO:
		if (sval && rec->payload_size >= 12 && rd16(rec->payload + 6) == 0xffff &&
		    (rd32(rec->payload + 8) >> 8 & 0xf) != 0) {
			sink->handle_syms[sink->nhandles] = rd32(rec->payload);
			sink->handles[sink->nhandles++] = (CubinHandleParam){
				NULL, rd16(rec->payload + 4), (uint8_t)(rd32(rec->payload + 8) >> 8 & 0xf) };
		} else if (sval && rec->payload_size >= 12) {
			SassParam *p = &sink->raw_params[sink->nparams];
			p->offset = rd16(rec->payload + 6);
			p->size = rd32(rec->payload + 8) >> 18;
			sink->param_keys[sink->nparams] =
				(uint64_t)rd16(rec->payload + 4) << 32 | sink->nparams;
			sink->nparams++;
		}
		break;
	case CUBIN_EIATTR_EXIT_INSTR_OFFSETS:
		if (sval)
			k->exit_offsets = take_words(sink, rec, &k->nexit_offsets);
		break;
	case CUBIN_EIATTR_S2RCTAID_INSTR_OFFSETS:
		if (sval)
			k->ctaid_offsets = take_words(sink, rec, &k->nctaid_offsets);
		break;
	case CUBIN_EIATTR_INDIRECT_BRANCH_TARGETS:
		/* a long list comes in several records, one after another, the
		 * last piece first (cubin_info.c): each record's entries go
		 * before those read so far */
		if (sval && k->sync_targets && k->sync_targets + k->nsync_target_words == sink->words + sink->nwords) {
			size_t more;
			take_words(sink, rec, &more);
			uint32_t *w = (uint32_t *)k->sync_targets;
			rotate_words(w, k->nsync_target_words, more);
			k->nsync_target_words += more;
		} else if (sval) {
			k->sync_targets = take_words(sink, rec, &k->nsync_target_words);
		}
		break;
	case CUBIN_EIATTR_MAX_THREADS:
	case CUBIN_EIATTR_REQNTID:
		if (sval && rec->payload_size >= 12) {
			uint32_t *dim = rec->attr == CUBIN_EIATTR_REQNTID ? k->req_ntid : k->max_threads;
			for (int i = 0; i < 3; i++)
				dim[i] = rd32(rec->payload + 4 * i);
		}
		break;
	case CUBIN_EIATTR_CRS_STACK_SIZE:
		if (sval && rec->payload_size >= 4)
			k->crs_stack_size = rd32(rec->payload);
		break;
	case CUBIN_EIATTR_MAXREG_COUNT:
		/* 0xff is what ptxas records when there is no .maxnreg */
		if (rec->format == CUBIN_EIFMT_HVAL)
			k->maxreg_count = rec->value == 0xff ? 0 : rec->value;
		break;
	case CUBIN_EIATTR_CTAIDZ_USED:
		k->uses_ctaid_z = true;
		break;
	case CUBIN_EIATTR_EXPLICIT_CACHING:
		k->explicit_caching = true;
		break;
	case CUBIN_EIATTR_BINDLESS_TEXTURE_BANK:
		k->uses_textures = true;
		break;
	case CUBIN_EIATTR_BINDLESS_SURFACE_BANK:
		k->uses_surfaces = true;
		break;
	default:
		break;   /* attributes cubin_write() does not produce */
	}
}

static int walk_info_records(Reader *r, size_t sec, InfoSink *sink)
{
	const uint8_t *d = section_data(r, sec);
	uint64_t size = r->sh[sec].size;
	for (uint64_t pos = 0; pos < size;) {
		if (size - pos < 4)
			return cubin_read_fail(r, "bad cubin: truncated attribute record in section %zu", sec);
		InfoRecord rec = { .format = d[pos], .attr = d[pos + 1], .value = rd16(d + pos + 2),
		                   .payload = d + pos + 4 };
		if (rec.format < CUBIN_EIFMT_NVAL || rec.format > CUBIN_EIFMT_SVAL)
			return cubin_read_fail(r, "bad cubin: unknown attribute format %u in section %zu",
			            rec.format, sec);
		rec.payload_size = rec.format == CUBIN_EIFMT_SVAL ? rec.value : 0;
		if (rec.payload_size > size - pos - 4)
			return cubin_read_fail(r, "bad cubin: attribute 0x%02x overruns section %zu", rec.attr, sec);
		apply_record(sink, &rec);
		pos += 4 + rec.payload_size;
	}
	return 0;
}

/* Whether ordinal o belongs to one of the n handle parameters. */
static bool handle_ordinal(const CubinHandleParam *h, size_t n, size_t o)
{
	for (size_t i = 0; i < n; i++)
		if (h[i].ordinal == o)
			return true;
	return false;
}

/* Handle parameters come last ordinal first: reverse them, and name them
 * after their symbols. */
static int name_handles(Reader *r, InfoSink *sink)
{
	for (size_t i = 0, j = sink->nhandles; i < j--; i++) {
		CubinHandleParam t = sink->handles[i];
		uint32_t ts = sink->handle_syms[i];
		sink->handles[i] = sink->handles[j];
		sink->handle_syms[i] = sink->handle_syms[j];
		sink->handles[j] = t;
		sink->handle_syms[j] = ts;
	}
	for (size_t i = 0; i < sink->nhandles; i++) {
		if (r->symtab == 0 || sink->handle_syms[i] == 0 || sink->handle_syms[i] >= r->nsyms)
			return cubin_read_fail(r, "bad cubin: kernel %s: handle parameter names symbol %u, which does not exist",
			            sink->k->name, sink->handle_syms[i]);
		sink->handles[i].name = symbol_name(r, sink->handle_syms[i]);
	}
	return 0;
}

/* Parses .nv.info.<name>.  params and handles have room for size/16
 * entries (a KPARAM_INFO record is 16 bytes) and words for size/4. */
static int read_info_records(Reader *r, size_t sec, CubinKernel *k, SassParam *params,
                             CubinHandleParam *handles, uint32_t *words, size_t *nwords_used)
{
	size_t cap = (size_t)(r->sh[sec].size / 16 + 1);
	InfoSink sink = { .k = k, .raw_params = xmalloc(cap * sizeof *sink.raw_params),
	                  .param_keys = xmalloc(cap * sizeof *sink.param_keys), .words = words,
	                  .handles = handles, .handle_syms = xmalloc(cap * sizeof *sink.handle_syms) };
	int rc = walk_info_records(r, sec, &sink);
	if (rc == 0)
		rc = name_handles(r, &sink);
	if (rc == 0) {
		qsort(sink.param_keys, sink.nparams, sizeof *sink.param_keys, compare_u64);
		size_t ord = 0;
		for (size_t i = 0; i < sink.nparams; i++, ord++) {
			while (handle_ordinal(handles, sink.nhandles, ord))
				ord++;
			if (sink.param_keys[i] >> 32 != ord) {
				rc = cubin_read_fail(r, "bad cubin: kernel %s: parameter ordinals are not 0..%zu",
				          k->name, sink.nparams - 1);
				break;
			}
			params[i] = sink.raw_params[(uint32_t)sink.param_keys[i]];
		}
	}
	free(sink.raw_params);
	free(sink.param_keys);
	free(sink.handle_syms);
	if (rc == 0) {
		k->params = params;
		k->nparams = sink.nparams;
		k->handle_params = handles;
		k->nhandle_params = sink.nhandles;
		*nwords_used = sink.nwords;
	}
	return rc;
}

static int read_surface_slots(Reader *r, size_t rel, CubinKernel *k, CubinSurfaceSlot *slots)
{
	const SectionHeader *s = &r->sh[rel];
	const uint8_t *d = section_data(r, rel);
	size_t n = 0;
	if (s->size % REL_SIZE)
		return cubin_read_fail(r, "bad cubin: relocation section %zu has a partial entry", rel);
	const char *sampler = NULL;
	for (uint64_t pos = 0; pos < s->size; pos += REL_SIZE) {
		uint64_t offset = rd64(d + pos), info = rd64(d + pos + 8);
		if ((uint32_t)info != CUBIN_R_CUDA_SURF_HEADER_INDEX && (uint32_t)info != CUBIN_R_CUDA_TEX_HEADER_INDEX &&
		    (uint32_t)info != CUBIN_R_CUDA_SAMP_HEADER_INDEX)
			continue;
		uint64_t sym = info >> 32;
		if (r->symtab == 0 || sym == 0 || sym >= r->nsyms)
			return cubin_read_fail(r, "bad cubin: relocation in section %zu names symbol %llu, "
			            "which does not exist", rel, (unsigned long long)sym);
		if (offset > UINT32_MAX - 4)
			return cubin_read_fail(r, "bad cubin: relocation offset 0x%llx out of range",
			            (unsigned long long)offset);
		/* a sampler: on the slot of the texture listed after it */
		if ((uint32_t)info == CUBIN_R_CUDA_SAMP_HEADER_INDEX) {
			sampler = symbol_name(r, (size_t)sym);
			continue;
		}
		slots[n].surfref = symbol_name(r, (size_t)sym);
		slots[n].cbank_offset = (uint32_t)offset;
		slots[n].sampler = sampler;
		slots[n].first_use = (uint32_t)sym;   /* ptxas's symbols follow first use */
		sampler = NULL;
		n++;
	}
	qsort(slots, n, sizeof *slots, compare_slot_offset);
	k->slots = slots;
	k->nslots = n;
	return 0;
}

/* The suq/txq descriptor lookups: .nv.constant2.<name> words and the
 * R_CUDA_ABS32_20 relocations of .rel.text.<name> (in file order) but
 * those of functions and of the module's own variables, each with the kind
 * of its symbol (another's: as a surface's, as before). */
static int read_desc_lookup(Reader *r, size_t const2, size_t rel, CubinKernel *k, uint32_t *store,
                            uint8_t *kinds)
{
	size_t n = 0;
	if (const2) {
		const SectionHeader *s = &r->sh[const2];
		if (s->size % 4)
			return cubin_read_fail(r, "bad cubin: section %zu has a partial word", const2);
		const uint8_t *d = section_data(r, const2);
		for (uint64_t pos = 0; pos < s->size; pos += 4)
			store[n++] = rd32(d + pos);
		k->desc_fields = store;
		k->ndesc_fields = n;
	}
	if (rel) {
		const SectionHeader *s = &r->sh[rel];
		if (s->size % REL_SIZE)
			return cubin_read_fail(r, "bad cubin: relocation section %zu has a partial entry", rel);
		const uint8_t *d = section_data(r, rel);
		size_t first = n;
		for (uint64_t pos = 0; pos < s->size; pos += REL_SIZE) {
			uint64_t offset = rd64(d + pos), info = rd64(d + pos + 8);
			if ((uint32_t)info != CUBIN_R_CUDA_ABS32_20 || is_func(r, info >> 32) ||
			    is_defined_object(r, info >> 32))
				continue;
			if (offset > UINT32_MAX)
				return cubin_read_fail(r, "bad cubin: relocation offset 0x%llx out of range",
				            (unsigned long long)offset);
			int kind = info >> 32 < r->nsyms ? desc_kind_of_name(symbol_name(r, (size_t)(info >> 32))) : -1;
			kinds[n - first] = kind == CUBIN_DESC_TEXTURE ? CUBIN_DESC_TEXTURE : CUBIN_DESC_SURFACE;
			store[n++] = (uint32_t)offset;
		}
		k->desc_size_offsets = store + first;
		k->desc_size_kinds = kinds;
		k->ndesc_size_offsets = n - first;
	}
	return 0;
}

/* EIATTR_FRAME_SIZE of the function `name` whose symbol lives in section
 * text, from the module-wide .nv.info (the CUDA_INFO section with sh_info
 * 0); 0 when there is none. ptxas also records the local functions it
 * places in a kernel's section ("$kernel$__cuda_sm20_rem_u64", frame 0),
 * possibly before the kernel: a record of another symbol of the section
 * counts only when the kernel has none. Malformed records end the search. */
static uint32_t read_frame_size(const Reader *r, size_t text, const char *name)
{
	bool found = false;
	uint32_t first = 0;
	for (size_t sec = 1; sec < r->shnum; sec++) {
		if (r->sh[sec].type != CUBIN_SHT_CUDA_INFO || r->sh[sec].info != 0)
			continue;
		const uint8_t *d = section_data(r, sec);
		uint64_t size = r->sh[sec].size;
		for (uint64_t pos = 0; size - pos >= 4;) {
			uint8_t format = d[pos], attr = d[pos + 1];
			uint16_t value = rd16(d + pos + 2);
			uint64_t payload = format == CUBIN_EIFMT_SVAL ? value : 0;
			if (payload > size - pos - 4)
				break;
			if (attr == CUBIN_EIATTR_FRAME_SIZE && payload == 8) {
				uint32_t sym = rd32(d + pos + 4);
				if (r->symtab && sym > 0 && sym < r->nsyms && rd16(symbol(r, sym) + 6) == text) {
					if (name && strcmp(symbol_name(r, sym), name) == 0)
						return rd32(d + pos + 8);
					if (!found)
						first = rd32(d + pos + 8);
					found = true;
				}
			}
			pos += 4 + payload;
		}
	}
	return first;
}

/* The names ptxas records in .strtab after ".nv.shared.<name>" for the
 * kernel's shared variables ($__var__line, $kernel$var): the strings that
 * follow it and start with '$' (not "$BINDLESS$"). Returns how many were
 * stored at out (room for one per two bytes of the table). */
static bool is_symbol_name(const Reader *r, const char *str)
{
	for (size_t i = 1; i < r->nsyms; i++)
		if (strcmp(symbol_name(r, i), str) == 0)
			return true;
	return false;
}

/* The `$...` strings after ".nv.shared.<name>" that name no symbol (the
 * surfref and module variable names, and .rel.text.<name>, may come
 * between), up to the kernel's constant-bank strings. */
static size_t read_shared_strings(const Reader *r, const char *name, const char **out)
{
	size_t sec = r->symtab ? r->sh[r->symtab].link : 0;
	if (!is_string_table(r, sec))
		return 0;
	const char *t = (const char *)section_data(r, sec);
	size_t size = (size_t)r->sh[sec].size, n = 0, plen = strlen(".nv.shared."), nlen = strlen(name);
	bool after = false;
	for (size_t off = 0; off < size; off += strlen(t + off) + 1) {
		const char *str = t + off;
		if (after && (starts_with(str, "$BINDLESS$") || starts_with(str, ".nv.constant") ||
		              strcmp(str, CUBIN_SURFREF_DESC_SIZE_SYMBOL) == 0 ||
		              strcmp(str, CUBIN_TEXREF_DESC_SIZE_SYMBOL) == 0))
			break;
		if (after && str[0] == '$' && !is_symbol_name(r, str))
			out[n++] = str;
		if (!after)
			after = strncmp(str, ".nv.shared.", plen) == 0 && strcmp(str + plen, name) == 0 && nlen > 0;
	}
	return n;
}

/* ---- kernels ---------------------------------------------------------- */


static int read_kernels(Reader *r, CubinImage *img)
{
	size_t n = 0;
	uint64_t info_bytes = 0, rel_bytes = 0, desc_bytes = 0;
	for (size_t i = 1; i < r->shnum; i++) {
		if (!is_code_section(r, i))
			continue;
		n++;
		size_t info = r->info_of[i], rel = r->rel_of[i];
		info_bytes += info ? r->sh[info].size : 0;
		rel_bytes += rel ? r->sh[rel].size : 0;
		desc_bytes += r->const2_of[i] ? r->sh[r->const2_of[i]].size : 0;
		desc_bytes += r->rel_text_of[i] ? r->sh[r->rel_text_of[i]].size : 0;
	}
	/* Each store is bounded by bytes that exist in the file. */
	img->kernels = xcalloc(n ? n : 1, sizeof *img->kernels);
	img->param_store = xmalloc((size_t)(info_bytes / 16 + 1) * sizeof *img->param_store);
	img->handle_store = xmalloc((size_t)(info_bytes / 16 + 1) * sizeof *img->handle_store);
	img->offset_store = xmalloc((size_t)(info_bytes / 4 + 1) * sizeof *img->offset_store);
	img->slot_store = xmalloc((size_t)(rel_bytes / 16 + 1) * sizeof *img->slot_store);
	img->desc_store = xmalloc((size_t)(desc_bytes / 4 + 1) * sizeof *img->desc_store);
	img->desc_kind_store = xmalloc((size_t)(desc_bytes / REL_SIZE + 1) * sizeof *img->desc_kind_store);

	size_t used_handles = 0, used_params = 0, used_offsets = 0, used_slots = 0, used_desc = 0, used_strings = 0,
	       used_desc_kinds = 0;
	size_t strtab = r->symtab ? r->sh[r->symtab].link : 0;
	if (is_string_table(r, strtab))
		img->string_store = xmalloc(((size_t)r->sh[strtab].size / 2 + 1) * sizeof *img->string_store);
	for (size_t i = 1; i < r->shnum; i++) {
		if (!is_code_section(r, i))
			continue;
		CubinReadKernel *rk = &img->kernels[img->nkernels++];
		CubinKernel *k = &rk->k;
		k->name = section_name(r, i) + strlen(".text.");
		if (!k->name[0])
			return cubin_read_fail(r, "bad cubin: code section %zu has no kernel name", i);
		k->code = section_data(r, i);
		k->code_size = (size_t)r->sh[i].size;
		k->regcount = r->sh[i].info >> 24;
		rk->address = r->sh[i].addr;
		rk->file_offset = r->sh[i].offset;
		rk->text_section = (uint32_t)i;
		rk->is_entry = r->entry[i];
		k->local_symbol = r->local_entry[i];

		size_t info = r->info_of[i];
		if (info) {
			size_t noffsets = 0;
			if (read_info_records(r, info, k, img->param_store + used_params,
			                      img->handle_store + used_handles, img->offset_store + used_offsets, &noffsets))
				return -1;
			used_params += k->nparams;
			used_handles += k->nhandle_params;
			used_offsets += noffsets;
		}
		size_t rel = r->rel_of[i];
		if (rel) {
			if (read_surface_slots(r, rel, k, img->slot_store + used_slots))
				return -1;
			used_slots += k->nslots;
		}
		if (read_desc_lookup(r, r->const2_of[i], r->rel_text_of[i], k, img->desc_store + used_desc,
		                     img->desc_kind_store + used_desc_kinds))
			return -1;
		used_desc += k->ndesc_fields + k->ndesc_size_offsets;
		used_desc_kinds += k->ndesc_size_offsets;
		k->ndesc_size_symbols = r->ndesc_kinds_of[i];
		memcpy(k->desc_size_symbols, r->desc_kinds_of[i], sizeof k->desc_size_symbols);
		k->frame_size = read_frame_size(r, i, k->name);
		if (r->shared_of[i] && img->string_store) {
			k->shared_strings = img->string_store + used_strings;
			k->nshared_strings = read_shared_strings(r, k->name, img->string_store + used_strings);
			used_strings += k->nshared_strings;
		}
		if (r->shared_of[i]) {
			const SectionHeader *sh = &r->sh[r->shared_of[i]];
			k->shared_size = sh->size > UINT32_MAX ? UINT32_MAX : (uint32_t)sh->size;
			k->shared_align = sh->align == 0 ? 1 : sh->align > UINT32_MAX ? UINT32_MAX : (uint32_t)sh->align;
		}
	}
	return 0;
}

static void read_surfrefs(const Reader *r, CubinImage *img)
{
	img->surfrefs = xmalloc((r->nsyms ? r->nsyms : 1) * sizeof *img->surfrefs);
	img->surfref_is_texture = xmalloc((r->nsyms ? r->nsyms : 1) * sizeof *img->surfref_is_texture);
	for (size_t i = 1; i < r->nsyms; i++) {
		unsigned type = symbol(r, i)[4] & 0xf, bind = symbol(r, i)[4] >> 4;
		/* a LOCAL one is a kernel's handle parameter (KPARAM_INFO names it) */
		if ((type == CUBIN_STT_CUDA_SURFACE || type == CUBIN_STT_CUDA_TEXTURE) && bind != 0) {
			img->surfref_is_texture[img->nsurfrefs] = type == CUBIN_STT_CUDA_TEXTURE;
			img->surfrefs[img->nsurfrefs++] = symbol_name(r, i);
		}
	}
}

int cubin_read(const uint8_t *buf, size_t len, CubinImage *img, char *err, size_t errlen)
{
	memset(img, 0, sizeof *img);
	Reader r = { .buf = buf, .len = buf ? len : 0, .err = err, .errlen = errlen };
	int rc = read_elf_header(&r, img);
	if (rc == 0)
		rc = read_symtab(&r);
	if (rc == 0) {
		link_sections(&r);
		rc = read_kernels(&r, img);
	}
	if (rc == 0)
		read_surfrefs(&r, img);
	if (rc == 0) {
		cubin_read_extern_calls(&r, img);
		cubin_read_func_inits(&r, img);
	}
	if (rc == 0)
		rc = cubin_read_vars(&r, img);
	if (rc == 0)
		rc = cubin_read_const2_refs(&r, img);
	free(r.sh);
	free(r.info_of);
	free(r.rel_of);
	free(r.rel_text_of);
	free(r.rela_text_of);
	free(r.const2_of);
	free(r.desc_kinds_of);
	free(r.ndesc_kinds_of);
	free(r.shared_of);
	free(r.entry);
	free(r.local_entry);
	if (rc)
		cubin_image_free(img);
	return rc;
}
