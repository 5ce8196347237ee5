/* Cubin and raw-code listings in nvdisasm's text (see disasm_file.h).
 *
 * The cubin listing is built in passes over the code, so that every error
 * is found before anything is written and the hex comments can share one
 * column across the file, as nvdisasm's do:
 *   1. decode every instruction (unknown words are reported first);
 *   2. collect the function symbols and number the branch labels;
 *   3. number the function end labels, then measure every line;
 *   4. print.
 * The rules below were read off nvdisasm 11.8 output for ptxas cubins and
 * for cubins built with crafted code, symbols and flags:
 *
 *  - A branch target t (8-aligned, inside its section or at its end) that
 *    is the first instruction of a 32-byte group (t % 32 == 8) is shown at
 *    the group's control word, t - 8.  It is named by the first symbol
 *    printed at that address, else by a `.L_x_N` label; N counts up over
 *    all sections in the order the branches appear.  Other targets are
 *    printed as plain addresses.
 *  - Then every function symbol, in symbol-table order, draws the next N
 *    for the label of its end address (`.size`); when another function
 *    ends there, or a branch targets the end of the section, that label is
 *    reused and N is skipped.  Branch labels elsewhere are not shared.
 *  - An instruction whose control slot has stall 0 and the yield bit set
 *    is dual-issued with the next one: the pair is printed in braces, the
 *    second line carries no ';' and its hex comment is printed after the
 *    labels of the next address.  Further members of such a chain are
 *    printed as hex comments only.
 *  - At an address come the end label, the branch label, then the symbols
 *    in descending symbol-table order: functions with their .global/.weak,
 *    .type, .size and .other lines, and the section label.
 *  - A relocated MOV32I immediate is shown as the relocation: `(sym),
 *    32@lo(sym), 32@hi(sym), with the addend as ((sym + 0x...)); a
 *    relocated JCAL names its callee, JCAL `(sym). */
#include "emit/disasm_file.h"

#include "emit/disasm_elf.h"

#include "emit/cubin_read.h"
#include "sm50/sass_ctrl.h"
#include "sm50/sass_disasm.h"
#include "sm50/sass_encode.h"
#include "base/xalloc.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ------------------------------------------------------------------ */

typedef struct Err {
	char *buf;
	size_t len;
} Err;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int fail(Err *err, const char *fmt, ...)
{
	if (err->buf && err->len) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->buf, err->len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* ---- the model of the listing -------------------------------------------- */

/* How an instruction is shown with respect to dual issue. */
typedef enum Role {
	ROLE_SINGLE,    /* an ordinary line */
	ROLE_OPEN,      /* first of a pair: "{" before the opcode */
	ROLE_CLOSE,     /* second of a pair: "}" after it, hex on its own line */
	ROLE_HIDDEN,    /* later members of a chain: hex comment only */
} Role;

enum { NO_LABEL = -1 };

/* A relocation of the instruction word at one address. */
typedef struct Reloc {
	bool present;
	uint32_t type;
	const char *symbol;
	bool defined;               /* the symbol lives in this cubin */
} Reloc;

/* A function symbol defined in a code section. */
typedef struct Func {
	Symbol sym;
	size_t symindex;
} Func;

typedef struct Section {
	const CubinReadKernel *kernel;
	const char *name;           /* ".text.<kernel>" */
	size_t index;
	uint64_t size;
	Func *funcs;                /* by value, then by descending symbol index */
	size_t nfuncs;
	size_t section_symbol;      /* index of its STT_SECTION symbol; 0 = none */
	int *label;                 /* per 8-byte address 0..size: branch label */
	int *end_label;             /* per address: function end label */
	const char **named;         /* per address: first symbol printed there */
	Reloc *reloc;               /* per address */
} Section;

typedef struct Listing {
	Elf elf;
	CubinImage img;
	Section *sections;
	size_t nsections;
	Section **section_at;       /* per ELF section index: its Section, or NULL */
	int *end_label_of;          /* per symbol: .L number of its end, or NO_LABEL */
	int next_label;
	size_t sync_pad;            /* text width of the widest instruction but SYNC/BRK */
	size_t column;              /* where the hex comments start */
	Err err;
} Listing;

/* ---- instructions ----------------------------------------------------------- */

enum {
	LINE_INDENT = 8,
	OPCODE_GAP = 19,
	BRACE_AT = 9,           /* column of "{" inside the opcode gap */
	CLOSE_SUFFIX = 10,      /* "         }" */
	HEX_GAP = 2,
	TEXT_MAX = 192,
	LABELS_MAX = 4096,      /* a BRX's annotation: up to 256 labels (LBRX_MAX_TARGETS) */
};

typedef struct Insn {
	uint64_t addr, word;
	uint32_t slot;
	Role role;
	char guard[8];
	char text[TEXT_MAX];        /* without ';'; a branch without its target */
	bool has_target;            /* text is completed by a label */
	bool sync_annotation;       /* ... in SYNC/BRK's (*"BRANCH_TARGETS label"*) */
	uint64_t target;            /* normalized target address */
	const uint32_t *brx_entry;  /* brx: a BRX's EIATTR_INDIRECT_BRANCH_TARGETS entry (its labels
	                             * annotate it like a SYNC's, numbered in pass 1b) */
} Insn;

static uint64_t code_word(const Section *s, uint64_t addr)
{
	return rd(s->kernel->k.code + addr, 8);
}

static uint32_t slot_of(const Section *s, uint64_t addr)
{
	uint32_t slots[3];
	sass_ctrl_unpack_word(code_word(s, addr - addr % 32), slots);
	return slots[addr % 32 / 8 - 1];
}

static bool dual_issue(uint32_t slot)
{
	SassCtrl c;
	sass_ctrl_unpack_slot(slot, &c);
	return c.stall == 0 && c.yield == 1;
}

/* The spelling of relocation r with addend `addend`, e.g. 32@lo((g + 0x8)). */
static void reloc_text(const Reloc *r, uint64_t addend, char *buf, size_t n)
{
	const char *prefix = r->type == R_CUDA_ABS32_LO_20 ? "32@lo" :
	                     r->type == R_CUDA_ABS32_HI_20 ? "32@hi" : "`";
	if (addend)
		snprintf(buf, n, "%s((%s + 0x%" PRIx64 "))", prefix, r->symbol, addend);
	else
		snprintf(buf, n, "%s(%s)", prefix, r->symbol);
}

/* A JCAL of another function (ptxas -c, the driver's vprintf) holds 0
 * under its R_CUDA_ABS32_20: nvdisasm names the callee, "JCAL `(vprintf)".
 * A callee in another .text section of the cubin (ptxas -O0 -g) gets
 * labels nvdisasm numbers across sections, which are not reproduced. */
static int name_callee(Listing *l, const Section *s, const Reloc *r, Insn *in)
{
	char *target = strstr(in->text, "JCAL ");
	size_t head = target ? (size_t)(target - in->text) + 5 : 0;
	if (r->defined)
		return fail(&l->err, "%s: JCAL of %s in another .text section at 0x%08" PRIx64 " (labels of "
		            "functions in other sections are not reproduced)", s->name, r->symbol, in->addr);
	if (target == NULL || head + strlen(r->symbol) + 4 >= sizeof in->text)
		return fail(&l->err, "%s: cannot place the relocation at address 0x%08" PRIx64, s->name,
		            in->addr);
	snprintf(in->text + head, sizeof in->text - head, "`(%s)", r->symbol);
	return 0;
}

/* Replaces the immediate of a relocated MOV32I ("MOV32I R2, 0x10") with the
 * relocation.  The field holds the addend, for _HI_20 its high half. */
static int apply_reloc(Listing *l, const Section *s, const SassForm *f, const SassValues *vals,
                       Insn *in)
{
	const Reloc *r = &s->reloc[in->addr / 8];
	if (f->op == SOP_JCAL && r->type == R_CUDA_ABS32_20)
		return name_callee(l, s, r, in);
	bool known = r->type == R_CUDA_ABS32_20 || r->type == R_CUDA_ABS32_LO_20 ||
	             r->type == R_CUDA_ABS32_HI_20;
	if (f->op != SOP_MOV32I || !known)
		return fail(&l->err, "%s: relocation of type %u on %s at address 0x%08" PRIx64
		            " is not supported", s->name, (unsigned)r->type, f->name, in->addr);
	uint64_t imm = (uint32_t)sass_values_get(vals, SR_IMM, 0);
	char rest[TEXT_MAX], reloc[TEXT_MAX];
	char *comma = strstr(in->text, ", ");
	if (comma == NULL)
		return fail(&l->err, "%s: cannot place the relocation at address 0x%08" PRIx64,
		            s->name, in->addr);
	const char *after = strchr(comma + 2, ',');
	snprintf(rest, sizeof rest, "%s", after ? after : "");
	reloc_text(r, r->type == R_CUDA_ABS32_HI_20 ? imm << 32 : imm, reloc, sizeof reloc);
	size_t head = (size_t)(comma + 2 - in->text);
	if (head + strlen(reloc) + strlen(rest) >= sizeof in->text)
		return fail(&l->err, "%s: symbol name too long at address 0x%08" PRIx64, s->name,
		            in->addr);
	snprintf(comma + 2, sizeof in->text - head, "%s%s", reloc, rest);
	return 0;
}

/* issue 14: SYNC/BRK name their reconvergence point as nvdisasm does, from
 * their EIATTR_INDIRECT_BRANCH_TARGETS entry ({offset, 0, count, targets}):
 * padded to Listing.sync_pad, then (*"BRANCH_TARGETS label"*). */
static int sync_target(Listing *l, const Section *s, Insn *in)
{
	const CubinKernel *k = &s->kernel->k;
	const uint32_t *e = NULL;   /* the entry of this SYNC */
	for (size_t i = 0; i + 3 <= k->nsync_target_words && !e; i += 3 + k->sync_targets[i + 2])
		if (k->sync_targets[i] == in->addr && i + 4 <= k->nsync_target_words)
			e = &k->sync_targets[i];
	if (e == NULL || e[2] != 1 || e[3] % 8 || e[3] > s->size)
		return fail(&l->err, "%s: no cubin listing of the SYNC/BRK at 0x%08" PRIx64 " (it needs "
		            "one target in EIATTR_INDIRECT_BRANCH_TARGETS)", s->name, in->addr);
	in->has_target = in->sync_annotation = true;
	in->target = e[3] % 32 == 8 ? e[3] - 8 : e[3];
	return 0;
}

/* brx: a BRX with an EIATTR_INDIRECT_BRANCH_TARGETS entry (brx.idx's jump
 * table) lists its targets as nvdisasm does, (*"BRANCH_TARGETS l1,l2"*);
 * one without (ptxas's call through a register) is listed as it is. A
 * target outside the section is a malformed cubin. */
static int brx_targets(Listing *l, const Section *s, Insn *in)
{
	const CubinKernel *k = &s->kernel->k;
	for (size_t i = 0; i + 3 <= k->nsync_target_words; i += 3 + k->sync_targets[i + 2])
		if (k->sync_targets[i] == in->addr && i + 3 + k->sync_targets[i + 2] <= k->nsync_target_words &&
		    k->sync_targets[i + 2] > 0) {
			for (uint32_t j = 0; j < k->sync_targets[i + 2]; j++) {
				uint32_t a = k->sync_targets[i + 3 + j];
				if (a % 8 || a > s->size)
					return fail(&l->err, "%s: the BRX at 0x%08" PRIx64 " has a target 0x%08x outside "
					            "its section in EIATTR_INDIRECT_BRANCH_TARGETS", s->name, in->addr,
					            (unsigned)a);
			}
			in->brx_entry = &k->sync_targets[i];
			in->sync_annotation = true;
		}
	return 0;
}

static const char *target_name(const Section *s, uint64_t addr, char *buf, size_t n);

/* The annotation's labels: a BRX's targets (each once), else the one target. */
static const char *annotation_labels(const Section *s, const Insn *in, char *buf, size_t n)
{
	if (in->brx_entry == NULL)
		return target_name(s, in->target, buf, n);
	size_t len = 0;
	buf[0] = '\0';
	for (uint32_t j = 0; j < in->brx_entry[2] && len + 1 < n; j++) {
		char one[32];
		uint64_t a = in->brx_entry[3 + j];
		uint32_t e = 0;
		while (e < j && in->brx_entry[3 + e] != in->brx_entry[3 + j])
			e++;
		if (e < j)
			continue;       /* a target the table repeats is named once (nvdisasm) */
		a = a % 32 == 8 ? a - 8 : a;
		int w = snprintf(buf + len, n - len, "%s%s", len ? "," : "", target_name(s, a, one, sizeof one));
		len += w > 0 ? (size_t)w : 0;
	}
	return buf;
}

/* Decodes the instruction at addr (not a control word address) of s. */
static int decode_insn(Listing *l, const Section *s, uint64_t addr, Insn *in)
{
	SassValues vals;
	memset(in, 0, sizeof *in);
	in->addr = addr;
	in->word = code_word(s, addr);
	in->slot = slot_of(s, addr);
	const SassForm *f = sass_decode(in->word, &vals);
	if (f == NULL)
		return fail(&l->err, "%s: unrecognized instruction 0x%016" PRIx64 " at address 0x%08"
		            PRIx64, s->name, in->word, addr);
	if (!sass_slot_allowed(f, in->slot))
		return fail(&l->err, "%s: control slot 0x%05x not allowed for %s at address 0x%08"
		            PRIx64, s->name, (unsigned)in->slot, f->name, addr);
	if (sass_format_guard(&vals, in->guard, sizeof in->guard) < 0 ||
	    sass_format_insn(f, &vals, in->slot, addr, in->text, sizeof in->text) < 0)
		return fail(&l->err, "%s: instruction text too long at address 0x%08" PRIx64,
		            s->name, addr);
	if (s->reloc[addr / 8].present)
		return apply_reloc(l, s, f, &vals, in);
	if (f->op == SOP_SYNC || f->op == SOP_BRK)
		return sync_target(l, s, in);
	if (f->op == SOP_BRX)
		return brx_targets(l, s, in);
	if (f->op != SOP_BRA && f->op != SOP_CAL && f->op != SOP_SSY && f->op != SOP_PBK &&
	    f->op != SOP_PRET)
		return 0;
	/* The target is the last operand; it becomes a label when it lies on
	 * an instruction of this section or at its end. */
	uint64_t t = addr + 8 + (uint64_t)sass_values_get(&vals, SR_IMM, 0);
	if (t % 8 == 0 && t <= s->size) {
		char *space = strrchr(in->text, ' ');
		if (space != NULL) {
			space[1] = '\0';
			in->has_target = true;
			in->target = t % 32 == 8 ? t - 8 : t;
		}
	}
	return 0;
}

/* The dual-issue role of every instruction of s, in order; roles[addr/8]. */
static int assign_roles(Listing *l, const Section *s, Role *roles)
{
	size_t chain = 0;   /* position in the current chain */
	bool prev_dual = false;
	for (uint64_t addr = 0; addr < s->size; addr += 8) {
		if (addr % 32 == 0)
			continue;
		chain = prev_dual ? chain + 1 : 0;
		bool dual = dual_issue(slot_of(s, addr));
		roles[addr / 8] = chain == 0 ? (dual ? ROLE_OPEN : ROLE_SINGLE) :
		                  chain == 1 ? ROLE_CLOSE : ROLE_HIDDEN;
		prev_dual = dual;
	}
	if (prev_dual)
		return fail(&l->err, "%s: the last instruction is marked for dual issue with an "
		            "instruction past the end of the section", s->name);
	return 0;
}

/* ---- labels ------------------------------------------------------------------ */

/* Branch targets at the very end of a section share the end label of the
 * functions that end there; all others get labels of their own, even where
 * a function ends. */
static int *target_label(const Section *s, uint64_t addr)
{
	return addr == s->size ? &s->end_label[addr / 8] : &s->label[addr / 8];
}

static const char *target_name(const Section *s, uint64_t addr, char *buf, size_t n)
{
	if (s->named[addr / 8] != NULL)
		return s->named[addr / 8];
	snprintf(buf, n, ".L_x_%d", *target_label(s, addr));
	return buf;
}

/* Pass 1: decode everything, number the branch targets. */
static int scan_branches(Listing *l)
{
	for (size_t i = 0; i < l->nsections; i++) {
		Section *s = &l->sections[i];
		for (uint64_t addr = 0; addr < s->size; addr += 8) {
			Insn in;
			if (addr % 32 == 0)
				continue;
			if (decode_insn(l, s, addr, &in))
				return -1;
			if (in.has_target && s->named[in.target / 8] == NULL &&
			    *target_label(s, in.target) == NO_LABEL)
				*target_label(s, in.target) = l->next_label++;
		}
	}
	return 0;
}

/* Pass 1b: per INDIRECT_BRANCH_TARGETS entry a label for the SYNC, then each
 * target; a place labelled already keeps it, its number is skipped (nvdisasm). */
static void number_sync_labels(Listing *l)
{
	for (size_t i = 0; i < l->nsections; i++) {
		Section *s = &l->sections[i];
		const CubinKernel *k = &s->kernel->k;
		for (size_t w = 0; w + 3 <= k->nsync_target_words; w += 3 + k->sync_targets[w + 2])
			for (size_t j = 0; j <= k->sync_targets[w + 2] && w + 3 + j <= k->nsync_target_words; j++) {
				uint64_t a = k->sync_targets[j ? w + 2 + j : w];
				a = a % 32 == 8 ? a - 8 : a;
				int n = l->next_label++;
				if (a % 8 == 0 && a <= s->size && *target_label(s, a) == NO_LABEL)
					*target_label(s, a) = n;
			}
	}
}

static Section *section_by_index(Listing *l, size_t index)
{
	return index < l->elf.shnum ? l->section_at[index] : NULL;
}

/* Pass 2a: end labels, in symbol-table order. */
static void number_end_labels(Listing *l)
{
	for (size_t i = 1; i < l->elf.nsyms; i++) {
		Symbol sym;
		if (elf_symbol(&l->elf, i, &sym) || sym.type != STT_FUNC || sym.size == 0)
			continue;
		Section *s = section_by_index(l, sym.shndx);
		if (s == NULL)
			continue;
		uint64_t end = sym.value + sym.size;
		int n = l->next_label++;
		if (s->end_label[end / 8] == NO_LABEL)
			s->end_label[end / 8] = n;
		l->end_label_of[i] = s->end_label[end / 8];
	}
}

/* ---- sections and symbols ------------------------------------------------------ */

static int compare_funcs(const void *a, const void *b)
{
	const Func *x = a, *y = b;
	if (x->sym.value != y->sym.value)
		return x->sym.value < y->sym.value ? -1 : 1;
	return (x->symindex < y->symindex) - (x->symindex > y->symindex);
}

/* Function symbols start on a control word and end on one (or at the end
 * of their section): that is how ptxas lays them out, and the only layout
 * whose nvdisasm spelling is known here. */
static int check_func(Listing *l, const Section *s, const Symbol *sym)
{
	uint64_t end = sym->value + sym->size;
	if (sym->value % 32 != 0 || sym->value >= s->size || (sym->size != 0 &&
	    (sym->size > s->size || end > s->size || end % 32 != 0)))
		return fail(&l->err, "%s: function symbol %s (value 0x%" PRIx64 ", size 0x%" PRIx64
		            ") does not cover whole instruction groups of its section",
		            s->name, sym->name, sym->value, sym->size);
	if (sym->bind != STB_LOCAL && sym->bind != STB_GLOBAL && sym->bind != STB_WEAK)
		return fail(&l->err, "%s: function symbol %s has unknown binding %u", s->name,
		            sym->name, sym->bind);
	return 0;
}

/* The code section symbol i belongs to, or NULL; fails on symbols there
 * that are not functions or that nvdisasm would not list as ptxas's are. */
static int func_section(Listing *l, size_t i, Symbol *sym, Section **out)
{
	*out = NULL;
	if (elf_symbol(&l->elf, i, sym))
		return fail(&l->err, "bad cubin: symbol %zu has a bad name", i);
	Section *s = section_by_index(l, sym->shndx);
	if (s == NULL)
		return 0;
	if (sym->type == STT_SECTION) {
		if (s->section_symbol == 0)
			s->section_symbol = i;
		return 0;
	}
	/* a texmode-independent handle parameter (STT_CUDA_TEXTURE, SAMPLER,
	 * SURFACE): a typed label after its function's (print_func) */
	if (sym->type >= 10 && sym->type <= 12)
		return 0;
	if (sym->type != STT_FUNC)
		return fail(&l->err, "%s: symbol %s in a code section is not a function",
		            s->name, sym->name);
	/* ptxas places a kernel's device functions after its EXIT, on any
	 * instruction slot; nvdisasm's labels for them are not reproduced */
	if (sym->value != 0)
		return fail(&l->err, "%s: no cubin listing of device function %s at 0x%" PRIx64
		            " (labels of functions inside a kernel are not reproduced)", s->name, sym->name, sym->value);
	if (check_func(l, s, sym))
		return -1;
	*out = s;
	return 0;
}

/* Whether the section label is printed after function f (at address 0):
 * nvdisasm prints the symbols of an address in descending symbol-table
 * order, the section's own STT_SECTION symbol among them. */
static bool section_label_after(const Section *s, const Func *f)
{
	return f->sym.value == 0 && f->symindex > s->section_symbol;
}

/* Collects the function symbols of every code section: one pass to count
 * them (so that storage follows the symbols that exist), one to store. */
static int collect_funcs(Listing *l)
{
	Symbol sym;
	Section *s;
	for (size_t i = 1; i < l->elf.nsyms; i++) {
		if (func_section(l, i, &sym, &s))
			return -1;
		if (s != NULL)
			s->nfuncs++;
	}
	for (size_t i = 0; i < l->nsections; i++) {
		l->sections[i].funcs = xcalloc(l->sections[i].nfuncs + 1, sizeof(Func));
		l->sections[i].nfuncs = 0;
	}
	for (size_t i = 1; i < l->elf.nsyms; i++) {
		if (func_section(l, i, &sym, &s) || s == NULL)
			continue;
		s->funcs[s->nfuncs++] = (Func){ .sym = sym, .symindex = i };
	}
	for (size_t i = 0; i < l->nsections; i++) {
		Section *s = &l->sections[i];
		qsort(s->funcs, s->nfuncs, sizeof *s->funcs, compare_funcs);
		/* The first name printed at each address names branch targets. */
		for (size_t j = s->nfuncs; j-- > 0;)
			s->named[s->funcs[j].sym.value / 8] = s->funcs[j].sym.name;
		if (s->named[0] == NULL || !section_label_after(s, &s->funcs[0]))
			s->named[0] = s->name;
	}
	return 0;
}

/* Reads the relocation sections that apply to code sections.  Types are
 * checked when the instruction is decoded, so that an unknown instruction
 * is reported before its relocation. */
static int collect_relocs(Listing *l)
{
	const Elf *e = &l->elf;
	for (size_t i = 1; i < e->shnum; i++) {
		uint32_t type = sh_type(e, i);
		Section *s = type == SHT_REL || type == SHT_RELA ? section_by_index(l, sh_info(e, i)) : NULL;
		if (s == NULL)
			continue;
		uint64_t off = sh_offset(e, i), size = sh_size(e, i);
		if (type == SHT_RELA)
			return fail(&l->err, "%s: RELA relocations are not supported", s->name);
		if (size % REL_SIZE || !in_bounds(off, size, e->len))
			return fail(&l->err, "bad cubin: relocation section %zu is malformed", i);
		for (uint64_t pos = 0; pos < size; pos += REL_SIZE) {
			uint64_t where = rd(e->buf + off + pos, 8), info = rd(e->buf + off + pos + 8, 8);
			uint32_t rtype = (uint32_t)info;
			uint64_t symindex = info >> 32;
			Symbol sym;
			if (where % 8 || where % 32 == 0 || where >= s->size)
				return fail(&l->err, "%s: relocation at offset 0x%" PRIx64 " is not on an "
				            "instruction", s->name, where);
			if (symindex == 0 || symindex >= e->nsyms ||
			    elf_symbol(e, (size_t)symindex, &sym) || sym.type == STT_SECTION)
				return fail(&l->err, "%s: relocation at address 0x%08" PRIx64 " names a bad "
				            "symbol", s->name, where);
			s->reloc[where / 8] = (Reloc){ true, rtype, sym.name, sym.shndx != 0 };
		}
	}
	return 0;
}

static bool is_code_section(const Listing *l, const CubinReadKernel *k)
{
	return (sh_flags(&l->elf, k->text_section) & SHF_EXECINSTR) != 0;
}

static int build_sections(Listing *l)
{
	size_t nsyms = l->elf.nsyms ? l->elf.nsyms : 1;
	l->sections = xcalloc(l->img.nkernels ? l->img.nkernels : 1, sizeof *l->sections);
	l->section_at = xcalloc(l->elf.shnum ? l->elf.shnum : 1, sizeof *l->section_at);
	l->end_label_of = xmalloc(nsyms * sizeof *l->end_label_of);
	for (size_t i = 0; i < nsyms; i++)
		l->end_label_of[i] = NO_LABEL;
	for (size_t i = 0; i < l->img.nkernels; i++) {
		const CubinReadKernel *k = &l->img.kernels[i];
		if (!is_code_section(l, k))
			continue;
		Section *s = &l->sections[l->nsections++];
		s->kernel = k;
		s->name = k->k.name - strlen(".text.");
		s->index = k->text_section;
		if (s->index < l->elf.shnum)
			l->section_at[s->index] = s;
		s->size = k->k.code_size;
		if (s->size % 32 != 0)
			return fail(&l->err, "%s: code size %" PRIu64 " is not a multiple of 32 bytes",
			            s->name, s->size);
		size_t slots = (size_t)(s->size / 8 + 1);
		s->label = xmalloc(slots * sizeof *s->label);
		s->end_label = xmalloc(slots * sizeof *s->end_label);
		for (size_t j = 0; j < slots; j++)
			s->label[j] = s->end_label[j] = NO_LABEL;
		s->named = xcalloc(slots, sizeof *s->named);
		s->reloc = xcalloc(slots, sizeof *s->reloc);
	}
	return 0;
}

static void free_listing(Listing *l)
{
	for (size_t i = 0; i < l->nsections; i++) {
		free(l->sections[i].label);
		free(l->sections[i].end_label);
		free(l->sections[i].named);
		free(l->sections[i].funcs);
		free(l->sections[i].reloc);
	}
	free(l->sections);
	free(l->section_at);
	free(l->end_label_of);
	cubin_image_free(&l->img);
}

/* ---- the header -------------------------------------------------------------- */

static const char *sm_name(unsigned sm)
{
	static const struct { unsigned sm; const char *name; } known[] = {
		{ 20, "EF_CUDA_SM20" }, { 21, "EF_CUDA_SM21" }, { 30, "EF_CUDA_SM30" },
		{ 32, "EF_CUDA_SM32" }, { 35, "EF_CUDA_SM35" }, { 37, "EF_CUDA_SM37" },
		{ 50, "EF_CUDA_SM50" }, { 52, "EF_CUDA_SM52" }, { 53, "EF_CUDA_SM53" },
		{ 60, "EF_CUDA_SM60" }, { 61, "EF_CUDA_SM61" }, { 62, "EF_CUDA_SM62" },
		{ 70, "EF_CUDA_SM70" }, { 72, "EF_CUDA_SM72" }, { 75, "EF_CUDA_SM75" },
		{ 80, "EF_CUDA_SM80" }, { 86, "EF_CUDA_SM86" }, { 87, "EF_CUDA_SM87" },
	};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (known[i].sm == sm)
			return known[i].name;
	return NULL;
}

enum { EF_SW_1729687 = 0x800, EF_SW_1729687_V2 = 0x1000 };

/* The .headerflags text; -1 on flags whose spelling is not known here. */
static int header_flags(Listing *l, char *buf, size_t n)
{
	uint32_t f = l->img.e_flags;
	unsigned sm = f & 0xff, virt = (f >> 16) & 0xff;
	uint32_t known = 0xff | CUBIN_EF_TEXMODE_UNIFIED | CUBIN_EF_TEXMODE_INDEPENDENT |
	                 CUBIN_EF_64BIT_ADDRESS | EF_SW_1729687 | EF_SW_1729687_V2 | 0xff0000u;
	if (sm != 50)
		return fail(&l->err, "the cubin is for sm_%u; only sm_50 code can be disassembled", sm);
	if ((f & ~known) != 0 || (virt != 0 && sm_name(virt) == NULL))
		return fail(&l->err, "unsupported cubin: unknown ELF header flags 0x%08x", (unsigned)f);
	snprintf(buf, n, "%s%s%s%s%s%s%s%s%s",
	         f & CUBIN_EF_TEXMODE_UNIFIED ? "EF_CUDA_TEXMODE_UNIFIED " : "",
	         f & CUBIN_EF_TEXMODE_INDEPENDENT ? "EF_CUDA_TEXMODE_INDEPENDENT " : "",
	         f & CUBIN_EF_64BIT_ADDRESS ? "EF_CUDA_64BIT_ADDRESS " : "",
	         f & EF_SW_1729687 ? "EF_CUDA_SW_1729687 " : "",
	         f & EF_SW_1729687_V2 ? "EF_CUDA_SW_1729687_v2 " : "",
	         sm_name(sm),
	         virt ? " EF_CUDA_VIRTUAL_SM(" : "", virt ? sm_name(virt) : "", virt ? ")" : "");
	return 0;
}

static const char *elf_type_name(unsigned type)
{
	return type == 1 ? "ET_REL" : type == 2 ? "ET_EXEC" : "";
}

/* ---- measuring and printing lines --------------------------------------------- */

static const char *terminator(uint32_t slot)
{
	return (slot & SASS_CTRL_SCHED_MASK) == SASS_CTRL_SLOT_PLAIN ? ";" : " ;";
}

static size_t addr_width(uint64_t addr)
{
	char tmp[24];
	return (size_t)snprintf(tmp, sizeof tmp, "/*%04" PRIx64 "*/", addr);
}

/* Width of an instruction's line up to its hex comment; 0 for lines that
 * carry only a hex comment. */
static size_t insn_width(const Listing *l, const Section *s, const Insn *in)
{
	char lbl[LABELS_MAX];
	size_t text = strlen(in->text) < l->sync_pad && in->sync_annotation ? l->sync_pad
	                                                                     : strlen(in->text);
	size_t w = LINE_INDENT + addr_width(in->addr) + OPCODE_GAP + text;
	if (in->has_target || in->brx_entry)
		w += strlen(in->sync_annotation ? "(*\"BRANCH_TARGETS \"*)" : "`()") +
		     strlen(annotation_labels(s, in, lbl, sizeof lbl));
	switch (in->role) {
	case ROLE_SINGLE:
	case ROLE_OPEN:
		return w + (in->sync_annotation ? 1 : strlen(terminator(in->slot)));
	case ROLE_CLOSE:
		return w + CLOSE_SUFFIX - HEX_GAP;
	case ROLE_HIDDEN:
		break;
	}
	return 0;
}

/* Called for each instruction of a section, in address order; nonzero
 * stops the walk. */
typedef int (*InsnVisitor)(Listing *l, const Section *s, const Insn *in, void *ctx);

static int measure(Listing *l, const Section *s, const Insn *in, void *ctx)
{
	/* pass 1 (ctx set): SYNC/BRK's pad; nvdisasm's hex column omits their ';' */
	size_t w = insn_width(l, s, in) - (in->sync_annotation && in->role != ROLE_HIDDEN);
	size_t *max = ctx ? &l->sync_pad : &l->column;
	size_t base = ctx ? LINE_INDENT + addr_width(in->addr) + OPCODE_GAP : 0;
	if (in->role != ROLE_HIDDEN && !(ctx && in->sync_annotation) && w - base > *max)
		*max = w - base;
	return 0;
}

/* Decodes the instructions of s (again: nothing is kept between passes,
 * so memory stays proportional to the input) and visits them. */
static int for_each_insn(Listing *l, const Section *s, InsnVisitor visit, void *ctx)
{
	Role *roles = xmalloc((size_t)(s->size / 8 + 1) * sizeof *roles);
	int rc = assign_roles(l, s, roles);
	for (uint64_t addr = 0; addr < s->size && rc == 0; addr += 8) {
		Insn in;
		if (addr % 32 == 0)
			continue;
		rc = decode_insn(l, s, addr, &in);
		if (rc == 0) {
			in.role = roles[addr / 8];
			rc = visit(l, s, &in, ctx);
		}
	}
	free(roles);
	return rc;
}

static int validate(Listing *l, const Section *s, const Insn *in, void *ctx)
{
	(void)l, (void)s, (void)in, (void)ctx;
	return 0;
}

static void print_hex(Listing *l, FILE *out, size_t used, uint64_t word)
{
	fprintf(out, "%*s/* 0x%016" PRIx64 " */\n", (int)(l->column - used), "", word);
}

typedef struct PrintCtx {
	FILE *out;
	size_t next_func;
	bool pending;               /* a pair's second hex comment is due */
	uint64_t pending_word;
} PrintCtx;

/* The hex comment of a pair's second instruction comes after the labels of
 * the next address, just before that address's own line. */
static void flush_pending(Listing *l, PrintCtx *p)
{
	if (p->pending)
		print_hex(l, p->out, 0, p->pending_word);
	p->pending = false;
}

static void print_insn(Listing *l, const Section *s, const Insn *in, PrintCtx *p)
{
	char lbl[LABELS_MAX];
	FILE *out = p->out;
	if (in->role == ROLE_HIDDEN) {
		print_hex(l, out, 0, in->word);
		return;
	}
	size_t gap = OPCODE_GAP - strlen(in->guard);
	fprintf(out, "%*s/*%04" PRIx64 "*/", LINE_INDENT, "", in->addr);
	if (in->role == ROLE_OPEN)
		fprintf(out, "%*s{%*s", BRACE_AT, "", (int)(gap - BRACE_AT - 1), "");
	else
		fprintf(out, "%*s", (int)gap, "");
	fprintf(out, "%s%-*s", in->guard, in->sync_annotation ? (int)l->sync_pad : 0, in->text);
	if (in->has_target || in->brx_entry)
		fprintf(out, in->sync_annotation ? "(*\"BRANCH_TARGETS %s\"*)" : "`(%s)",
		        annotation_labels(s, in, lbl, sizeof lbl));
	if (in->role == ROLE_CLOSE) {
		fprintf(out, "%*s}\n", CLOSE_SUFFIX - 1, "");
		p->pending = true;
		p->pending_word = in->word;
		return;
	}
	fputs(in->sync_annotation ? ";" : terminator(in->slot), out);
	print_hex(l, out, insn_width(l, s, in), in->word);
}

/* A CUDA symbol type as nvdisasm names it (NULL: none it lists). */
static const char *undefined_type(unsigned type)
{
	switch (type) {
	case STT_OBJECT: return "object";
	case STT_FUNC: return "function";
	case CUDA_STT_TEXTURE: return "\"STT_CUDA_TEXTURE\"";
	case CUDA_STT_SAMPLER: return "\"STT_CUDA_SAMPLER\"";
	case CUDA_STT_SURFACE: return "\"STT_CUDA_SURFACE\"";
	case CUDA_STT_OBJECT: return "\"STT_CUDA_OBJECT\"";
	}
	return NULL;
}

static void print_func(const Listing *l, const Func *f, FILE *out)
{
	static const char *const visibility[] = { "STV_DEFAULT", "STV_INTERNAL", "STV_HIDDEN",
	                                          "STV_PROTECTED" };
	const Symbol *y = &f->sym;
	if (y->bind != STB_LOCAL)
		fprintf(out, "        %-16s%s\n", y->bind == STB_WEAK ? ".weak" : ".global", y->name);
	fprintf(out, "        %-16s%s,@function\n", ".type", y->name);
	int end = l->end_label_of[f->symindex];
	if (end != NO_LABEL)
		fprintf(out, "        %-16s%s,(.L_x_%d - %s)\n", ".size", y->name, end, y->name);
	if (y->other != 0)
		fprintf(out, "        %-16s%s,@\"%s%s%s\"\n", ".other", y->name,
		        y->other & STO_CUDA_ENTRY ? "STO_CUDA_ENTRY " : "",
		        y->other & STO_CUDA_GLOBAL ? "STO_CUDA_GLOBAL " : "",
		        visibility[y->other & STO_VISIBILITY]);
	fprintf(out, "%s:\n", y->name);
}

/* The typed labels nvdisasm gives the section's texmode-independent handle
 * parameters (STT_CUDA_TEXTURE, SAMPLER, SURFACE), walking the symbols
 * down from *next to just above `above`: every label at a section's start
 * comes in descending symbol order. */
static void print_handles(const Listing *l, const Section *s, size_t above, size_t *next, FILE *out)
{
	while (*next > above + 1) {
		Symbol h;
		size_t i = --*next;
		if (elf_symbol(&l->elf, i, &h) == 0 && h.shndx == s->index && h.type >= CUDA_STT_TEXTURE &&
		    h.type <= CUDA_STT_SURFACE)
			fprintf(out, "        %-16s%s,@%s\n%s:\n", ".type", h.name, undefined_type(h.type), h.name);
	}
}

/* The labels at addr: the end label of the functions that end there, the
 * branch label, then the symbols in nvdisasm's order. */
static void print_labels(const Listing *l, const Section *s, uint64_t addr, size_t *next_func,
                         FILE *out)
{
	if (s->end_label[addr / 8] != NO_LABEL)
		fprintf(out, ".L_x_%d:\n", s->end_label[addr / 8]);
	if (s->label[addr / 8] != NO_LABEL)
		fprintf(out, ".L_x_%d:\n", s->label[addr / 8]);
	bool section_label = addr == 0;
	size_t next_sym = l->elf.nsyms;
	while (*next_func < s->nfuncs && s->funcs[*next_func].sym.value == addr) {
		const Func *f = &s->funcs[(*next_func)++];
		if (section_label && !section_label_after(s, f)) {
			print_handles(l, s, s->section_symbol, &next_sym, out);
			fprintf(out, "%s:\n", s->name);
			section_label = false;
		}
		if (addr == 0)
			print_handles(l, s, f->symindex, &next_sym, out);
		print_func(l, f, out);
	}
	if (section_label) {
		print_handles(l, s, s->section_symbol, &next_sym, out);
		fprintf(out, "%s:\n", s->name);
	}
	if (addr == 0)
		print_handles(l, s, 0, &next_sym, out);
}

static int print_visit(Listing *l, const Section *s, const Insn *in, void *ctx)
{
	PrintCtx *p = ctx;
	/* A group's control word comes first, with the labels of its address. */
	if (in->addr % 32 == 8) {
		print_labels(l, s, in->addr - 8, &p->next_func, p->out);
		flush_pending(l, p);
		print_hex(l, p->out, 0, code_word(s, in->addr - 8));
	} else {
		print_labels(l, s, in->addr, &p->next_func, p->out);
		flush_pending(l, p);
	}
	print_insn(l, s, in, p);
	return 0;
}

static void print_section(Listing *l, const Section *s, FILE *out)
{
	const Elf *e = &l->elf;
	uint64_t flags = sh_flags(e, s->index);
	unsigned barriers = (unsigned)(flags >> SHF_BARRIERS_SHIFT) & SHF_BARRIERS_MASK;
	unsigned regs = sh_info(e, s->index) >> 24;
	fprintf(out, "\n\n//--------------------- %-25s --------------------------\n", s->name);
	fprintf(out, "\t.section\t%s,\"%s%s%s\",@progbits\n", s->name,
	        flags & SHF_ALLOC ? "a" : "", flags & SHF_WRITE ? "w" : "",
	        flags & SHF_EXECINSTR ? "x" : "");
	if (barriers)
		fprintf(out, "\t.sectionflags\t@\"SHF_BARRIERS=%u\"\n", barriers);
	if (regs)
		fprintf(out, "\t.sectioninfo\t@\"SHI_REGISTERS=%u\"\n", regs);
	fprintf(out, "\t.align\t%" PRIu64 "\n", sh_align(e, s->index));
	PrintCtx p = { .out = out };
	for_each_insn(l, s, print_visit, &p);
	if (s->size == 0)
		print_labels(l, s, 0, &p.next_func, out);
	else if (s->end_label[s->size / 8] != NO_LABEL)
		fprintf(out, ".L_x_%d:\n", s->end_label[s->size / 8]);
	flush_pending(l, &p);
}

static int check_section_flags(Listing *l, const Section *s)
{
	uint64_t known = SHF_WRITE | SHF_ALLOC | SHF_EXECINSTR |
	                 (uint64_t)SHF_BARRIERS_MASK << SHF_BARRIERS_SHIFT;
	if (sh_flags(&l->elf, s->index) & ~known)
		return fail(&l->err, "%s: unsupported section flags 0x%" PRIx64, s->name,
		            sh_flags(&l->elf, s->index));
	return 0;
}

/* ---- SYMBOLS ------------------------------------------------------------------- */

static void print_symbols(const Listing *l, FILE *out)
{
	bool banner = false;
	for (size_t i = 1; i < l->elf.nsyms; i++) {
		Symbol sym;
		if (elf_symbol(&l->elf, i, &sym) || sym.shndx != 0 || !undefined_type(sym.type))
			continue;
		if (!banner)
			fprintf(out, "\n\n//--------------------- SYMBOLS --------------------------\n\n");
		banner = true;
		fprintf(out, "\t.type\t\t%s,@%s\n", sym.name, undefined_type(sym.type));
		if (sym.size)
			fprintf(out, "\t.size\t\t%s,0x%" PRIx64 "\n", sym.name, sym.size);
	}
}

/* ---- the cubin listing ------------------------------------------------------------ */

static int disasm_cubin(const uint8_t *bytes, size_t len, FILE *out, Err *err)
{
	Listing l = { .err = *err };
	char flags[256];
	if (cubin_read(bytes, len, &l.img, err->buf, err->len))
		return -1;
	if (elf_open(&l.elf, bytes, len)) {
		cubin_image_free(&l.img);
		return fail(err, "bad cubin: unreadable section headers or symbol table");
	}
	int rc = header_flags(&l, flags, sizeof flags);
	if (rc == 0)
		rc = build_sections(&l);
	for (size_t i = 0; i < l.nsections && rc == 0; i++)
		rc = check_section_flags(&l, &l.sections[i]);
	if (rc == 0)
		rc = collect_relocs(&l);
	/* Instruction errors first: they are what callers most need to see. */
	for (size_t i = 0; i < l.nsections && rc == 0; i++)
		rc = for_each_insn(&l, &l.sections[i], validate, NULL);
	if (rc == 0)
		rc = collect_funcs(&l);
	if (rc == 0)
		rc = scan_branches(&l);
	if (rc == 0) {
		number_sync_labels(&l);
		number_end_labels(&l);
		for (size_t i = 0; i < l.nsections && rc == 0; i++)
			rc = for_each_insn(&l, &l.sections[i], measure, &l);   /* sync_pad */
		for (size_t i = 0; i < l.nsections && rc == 0; i++)
			rc = for_each_insn(&l, &l.sections[i], measure, NULL);
		l.column += HEX_GAP;
	}
	if (rc == 0) {
		fprintf(out, "\t.headerflags\t@\"%s\"\n", flags);
		fprintf(out, "\t.elftype\t@\"%s\"\n", elf_type_name((unsigned)rd(bytes + 16, 2)));
		for (size_t i = 0; i < l.nsections; i++)
			print_section(&l, &l.sections[i], out);
		print_symbols(&l, out);
	}
	free_listing(&l);
	return rc;
}

int disasm_file(const uint8_t *bytes, size_t len, FILE *out, char *errbuf, size_t errlen)
{
	Err err = { errbuf, errlen };
	if (bytes == NULL || len == 0)
		return fail(&err, "empty input: nothing to disassemble");
	if (len >= 4 && memcmp(bytes, "\x7f" "ELF", 4) == 0)
		return disasm_cubin(bytes, len, out, &err);
	return sass_disasm_stream(bytes, len, 0, out, errbuf, errlen);
}
