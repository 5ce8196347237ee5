/* The SASS assembler's driver: statements to kernels (instructions at
 * their addresses, labels, the text's control words), branch targets,
 * control slots (kept from the text or computed), encoding, and the output
 * image: a raw stream (control word + three instructions per 32 bytes) or
 * a cubin. */
#include "sasm/sass_asm.h"

#include "sasm/sass_asm_internal.h"
#include "sm50/sched_verify.h"
#include "sm50/sass_code_facts.h"
#include "sm50/sass_ctrl.h"
#include "sm50/sass_disasm.h"
#include "base/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Padding after the last instruction of a group: NOP with ptxas's slot. */
static const uint64_t PAD_NOP = UINT64_C(0x50b0000000070f00);

typedef struct Assembly {
	DiagSink *d;
	const SasmOptions *o;
	SasmKernelText *kernels;
	size_t nkernels;
	const char **surfrefs;
	size_t nsurfrefs;
	/* labels of the current kernel */
	/* A label right before a control-word line may also mean the control
	 * word's own address (nvdisasm prints both there): alt_addr. */
	struct Label { const char *name; uint64_t addr; SrcLoc loc; bool has_alt; } *labels;
	size_t nlabels;
} Assembly;

static uint64_t insn_addr(size_t index)
{
	return 32 * (index / 3) + 8 * (index % 3 + 1);
}

static SasmKernelText *new_kernel(Assembly *a, const char *name, SrcLoc loc)
{
	a->kernels = xrealloc(a->kernels, (a->nkernels + 1) * sizeof *a->kernels);
	SasmKernelText *k = &a->kernels[a->nkernels++];
	memset(k, 0, sizeof *k);
	k->name = name;
	k->loc = loc;
	return k;
}

static void add_surfref(Assembly *a, const char *name)
{
	for (size_t i = 0; i < a->nsurfrefs; i++)
		if (strcmp(a->surfrefs[i], name) == 0)
			return;
	a->surfrefs = xrealloc(a->surfrefs, (a->nsurfrefs + 1) * sizeof *a->surfrefs);
	a->surfrefs[a->nsurfrefs++] = name;
}

static void grow_groups(SasmKernelText *k, size_t ngroups)
{
	if (ngroups <= k->ngroups)
		return;
	k->group_ctrl = xrealloc(k->group_ctrl, ngroups * sizeof *k->group_ctrl);
	k->group_has_ctrl = xrealloc(k->group_has_ctrl, ngroups * sizeof *k->group_has_ctrl);
	for (size_t g = k->ngroups; g < ngroups; g++) {
		k->group_ctrl[g] = 0;
		k->group_has_ctrl[g] = false;
	}
	k->ngroups = ngroups;
}

static void add_insn(SasmKernelText *k, const SasmInsn *in, bool block_start)
{
	if (k->ninsns == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 64;
		k->insns = xrealloc(k->insns, k->cap * sizeof *k->insns);
		k->block_start = xrealloc(k->block_start, k->cap * sizeof *k->block_start);
	}
	k->insns[k->ninsns] = *in;
	k->insns[k->ninsns].addr = insn_addr(k->ninsns);
	k->block_start[k->ninsns] = block_start;
	k->ninsns++;
	grow_groups(k, (k->ninsns + 2) / 3);
}

static void param_stmt(Assembly *a, SasmKernelText *k, const SasmStmt *s)
{
	int64_t size = s->num[0], align = s->num[1];
	if (align == 0)
		align = size >= 8 ? 8 : size >= 4 ? 4 : size >= 2 ? 2 : 1;
	if (size <= 0 || size > 4096 || (align & (align - 1)) != 0 || align > 256) {
		diag_add(a->d, SEV_ERROR, s->loc, RULE_SASS_KERNEL,
		         ".param takes a size in bytes (1-4096) and an optional power-of-two alignment");
		return;
	}
	uint32_t end = sass_param_bytes(k->params, k->nparams);
	uint32_t off = (end + (uint32_t)align - 1) & ~((uint32_t)align - 1);
	k->params = xrealloc(k->params, (k->nparams + 1) * sizeof *k->params);
	k->params[k->nparams++] = (SassParam){ off, (uint32_t)size };
}

static void resolve_targets(Assembly *a, SasmKernelText *k)
{
	for (size_t i = 0; i < k->ninsns; i++) {
		SasmInsn *in = &k->insns[i];
		if (!in->has_target)
			continue;
		int64_t target = in->target_addr;
		if (in->target_label != NULL) {
			size_t j = 0;
			while (j < a->nlabels && strcmp(a->labels[j].name, in->target_label) != 0)
				j++;
			if (j == a->nlabels) {
				diag_add(a->d, SEV_ERROR, in->target_loc, RULE_SASS_LABEL,
				         "branch to undefined label '%s'", in->target_label);
				continue;
			}
			target = (int64_t)a->labels[j].addr;
			SassValues given;
			if (a->labels[j].has_alt && in->has_word && sass_decode(in->word, &given) == in->form &&
			    (int64_t)in->addr + 8 + sass_values_get(&given, SR_IMM, 0) == target - 8)
				target -= 8;
		} else if (target % 8 != 0) {
			diag_add(a->d, SEV_WARNING, in->target_loc, RULE_SASS_ALIGN,
			         "branch target 0x%" PRIx64 " is not an instruction address (a multiple of 8)",
			         (uint64_t)target);
		}
		int64_t rel = target - (int64_t)(in->addr + 8);
		if (!sass_field_accepts(sass_form_field(in->form, SR_IMM), rel)) {
			diag_add(a->d, SEV_ERROR, in->target_loc, RULE_SASS_RANGE,
			         "branch target is too far away for the signed 24-bit offset");
			continue;
		}
		sass_values_set(&in->vals, SR_IMM, rel);
	}
}

/* An instruction nvdisasm lists as its word only (the third member of a
 * dual-issue chain): taken as is. */
static void word_only_insn(Assembly *a, SasmKernelText *k, const SasmStmt *s)
{
	SasmInsn in = { .stmt = s, .has_word = true, .word = s->word };
	in.form = sass_decode(s->word, &in.vals);
	if (in.form == NULL) {
		diag_add(a->d, SEV_ERROR, s->loc, RULE_SASS_SYNTAX,
		         "0x%016" PRIx64 " inside a group of three instructions is no sm_50 instruction "
		         "(a control word comes before every three instructions)", s->word);
		return;
	}
	add_insn(k, &in, false);
}

/* Statements to kernels. Labels belong to the kernel they appear in; a
 * hex comment on its own line is a control word at a group boundary, the
 * word of a "insn }" line before it, or an instruction of its own. */
static void collect(Assembly *a, SasmParseState *ps)
{
	SasmKernelText *k = NULL;
	bool block_start = false, awaiting_word = false;
	for (size_t i = 0; i < ps->nstmts; i++) {
		const SasmStmt *s = &ps->stmts[i];
		if (s->kind == SST_KERNEL) {
			if (k != NULL)
				resolve_targets(a, k);
			a->nlabels = 0;
			k = new_kernel(a, s->name, s->loc);
			continue;
		}
		if (s->kind == SST_SURFREF) {
			add_surfref(a, s->name);
			continue;
		}
		if (k == NULL)
			k = new_kernel(a, NULL, s->loc);
		switch (s->kind) {
		case SST_LABEL:
			for (size_t j = 0; j < a->nlabels; j++)
				if (strcmp(a->labels[j].name, s->name) == 0)
					diag_add(a->d, SEV_ERROR, s->loc, RULE_SASS_LABEL, "label '%s' is defined twice", s->name);
			a->labels = xrealloc(a->labels, (a->nlabels + 1) * sizeof *a->labels);
			a->labels[a->nlabels++] = (struct Label){ s->name, insn_addr(k->ninsns), s->loc, false };
			block_start = true;
			break;
		case SST_CTRL_WORD:
			if (awaiting_word) {
				k->insns[k->ninsns - 1].has_word = true;
				k->insns[k->ninsns - 1].word = s->word;
				awaiting_word = false;
				break;
			}
			if (k->ninsns % 3 != 0) {
				word_only_insn(a, k, s);
				break;
			}
			grow_groups(k, k->ninsns / 3 + 1);
			for (size_t j = 0; j < a->nlabels; j++)
				a->labels[j].has_alt |= a->labels[j].addr == insn_addr(k->ninsns);
			if (k->group_has_ctrl[k->ninsns / 3])
				diag_add(a->d, SEV_ERROR, s->loc, RULE_SASS_CTRL, "two control words for one group");
			k->group_ctrl[k->ninsns / 3] = s->word;
			k->group_has_ctrl[k->ninsns / 3] = true;
			if (s->word >> 63)
				diag_add(a->d, SEV_ERROR, s->loc, RULE_SASS_CTRL, "bit 63 of a control word must be 0");
			break;
		case SST_INSN: {
			SasmInsn in;
			/* A failed instruction keeps its place, so that the control
			 * words after it stay in their groups. */
			if (sasm_select(s, &in, a->d))
				sasm_check_insn(&in, a->d);
			else
				memset(&in, 0, sizeof in);
			in.has_word = s->has_word;
			in.word = s->word;
			add_insn(k, &in, block_start);
			block_start = false;
			awaiting_word = s->closes_pair && !s->has_word;
			break;
		}
		case SST_PARAM:
			param_stmt(a, k, s);
			break;
		case SST_SURFACE:
			add_surfref(a, s->name);
			k->surfaces = xrealloc(k->surfaces, (k->nsurfaces + 1) * sizeof *k->surfaces);
			k->surfaces[k->nsurfaces++] = s->name;
			break;
		case SST_REGCOUNT:
			if (s->num[0] > 255)
				diag_add(a->d, SEV_ERROR, s->loc, RULE_SASS_RANGE, ".regcount is at most 255");
			k->regcount = (uint32_t)s->num[0];
			k->has_regcount = true;
			break;
		case SST_KERNEL: case SST_SURFREF:
			break;
		}
	}
	if (k != NULL)
		resolve_targets(a, k);
}

/* The slot the text gives for instruction i, on top of `base`: the
 * group's control word, then the instruction's notation and annotations. */
static uint32_t text_slot(const SasmKernelText *k, size_t i, uint32_t base, bool keep)
{
	uint32_t slots[3];
	const SasmSchedText *st = &k->insns[i].stmt->sched;
	uint32_t slot = base;
	if (keep && k->group_has_ctrl[i / 3]) {
		sass_ctrl_unpack_word(k->group_ctrl[i / 3], slots);
		slot = slots[i % 3];
	}
	SassCtrl c;
	sass_ctrl_unpack_slot(slot, &c);
	if (!st->any) {
		c.reuse |= k->insns[i].reuse;
		uint32_t out = slot;
		sass_ctrl_pack_slot(&c, &out);
		return out;
	}
	if (keep && st->has_notation) {
		unsigned reuse = c.reuse;
		c = st->notation;
		c.reuse = reuse;
	}
	if (keep) {
		c.wait |= st->req_mask;
		if (st->rd >= 0)
			c.rbar = (unsigned)st->rd;
		if (st->wr >= 0)
			c.wbar = (unsigned)st->wr;
		if (st->stall >= 0)
			c.stall = (unsigned)st->stall;
		if (st->yield)
			c.yield = 0;
	}
	c.reuse |= k->insns[i].reuse;
	uint32_t out = slot;
	sass_ctrl_pack_slot(&c, &out);
	return out;
}

static bool text_gives_slot(const SasmKernelText *k, size_t i)
{
	return k->group_has_ctrl[i / 3] || k->insns[i].stmt->sched.any;
}

/* Some bits do not show in the text (fields the hardware ignores, DEPBAR's
 * scoreboard without .LE). When the instruction's hex comment is a word of
 * the same form that prints exactly like the assembled one, it is the same
 * instruction and its word is taken as is; otherwise the comment is wrong. */
static uint64_t hidden_bits(Assembly *a, const SasmInsn *in, uint32_t slot, uint64_t word)
{
	SassValues vals;
	char mine[200], theirs[200], g1[16], g2[16];
	uint64_t given = in->word;
	if (sass_decode(given, &vals) == in->form &&
	    sass_format_insn(in->form, &in->vals, slot, in->addr, mine, sizeof mine) >= 0 &&
	    sass_format_insn(in->form, &vals, slot, in->addr, theirs, sizeof theirs) >= 0 &&
	    sass_format_guard(&in->vals, g1, sizeof g1) >= 0 && sass_format_guard(&vals, g2, sizeof g2) >= 0 &&
	    strcmp(mine, theirs) == 0 && strcmp(g1, g2) == 0)
		return given;
	diag_add(a->d, SEV_WARNING, in->stmt->loc, RULE_SASS_CTRL,
	         "instruction assembles to 0x%016" PRIx64 ", not the 0x%016" PRIx64 " its comment gives",
	         word, given);
	return word;
}

static int encode_kernel(Assembly *a, SasmKernelText *k)
{
	if (k->ninsns == 0) {
		diag_add(a->d, SEV_ERROR, k->loc, RULE_SASS_KERNEL, "kernel %s has no instructions",
		         k->name ? k->name : "(unnamed)");
		return -1;
	}
	size_t ngroups = (k->ninsns + 2) / 3;
	uint32_t *auto_slots = xcalloc(k->ninsns, sizeof *auto_slots);
	k->slots = xcalloc(ngroups * 3, sizeof *k->slots);
	sasm_sched_auto(k, auto_slots);
	bool keep = a->o->schedule == SASM_SCHEDULE_KEEP;
	for (size_t i = 0; i < k->ninsns; i++)
		k->slots[i] = keep && text_gives_slot(k, i) ? text_slot(k, i, auto_slots[i], true)
		                                            : text_slot(k, i, auto_slots[i], false);
	free(auto_slots);
	k->code_size = ngroups * 32;
	k->code = xcalloc(k->code_size, 1);
	int rc = 0;
	for (size_t g = 0; g < ngroups; g++) {
		uint32_t slots[3];
		uint64_t words[3];
		for (size_t j = 0; j < 3; j++) {
			size_t i = 3 * g + j;
			if (i >= k->ninsns) {
				slots[j] = SASS_CTRL_SLOT_PLAIN;
				words[j] = PAD_NOP;
				continue;
			}
			const SasmInsn *in = &k->insns[i];
			char err[160];
			slots[j] = k->slots[i];
			if (sass_encode(in->form, &in->vals, &words[j], err, sizeof err) != 0) {
				diag_add(a->d, SEV_ERROR, in->stmt->loc, RULE_SASS_RANGE, "%s", err);
				rc = -1;
				words[j] = 0;
			} else if (in->has_word && in->word != words[j]) {
				words[j] = hidden_bits(a, in, slots[j], words[j]);
			}
			if (!sass_slot_allowed(in->form, slots[j])) {
				diag_add(a->d, SEV_ERROR, in->stmt->loc, RULE_SASS_CTRL,
				         "%s is a fixed-latency instruction: it can set no scoreboard barrier%s",
				         sass_op_mnemonic(in->form->op), in->form->cls == SASS_CLASS_ALU ? " and no reuse flag 3" : "");
				rc = -1;
			}
		}
		uint64_t ctrl = sass_ctrl_pack_word(slots);
		uint64_t all[4] = { ctrl, words[0], words[1], words[2] };
		for (size_t w = 0; w < 4; w++)
			sass_store_word(k->code + SASS_GROUP_BYTES * g + 8 * w, all[w]);
	}
	/* Hand-written control words get the hazard verifier's advice as
	 * warnings; --verify-sched makes its findings errors. */
	if (rc == 0) {
		SrcLoc *locs = xcalloc(k->ninsns, sizeof *locs);
		for (size_t i = 0; i < k->ninsns; i++)
			locs[i] = k->insns[i].stmt->loc;
		SchedVerifyKernel v = { .name = k->name ? k->name : "(unnamed)", .loc = k->loc,
		                        .code = k->code, .size = k->code_size,
		                        .insn_locs = locs, .nlocs = k->ninsns,
		                        .as_warning = !a->o->verify_sched };
		if (sched_verify_code(&v, a->d) && a->o->verify_sched)
			rc = -1;
		free(locs);
	}
	return rc;
}

/* ---- output --------------------------------------------------------------- */

static int build_cubin(Assembly *a, uint8_t **image, size_t *len)
{
	CubinKernel *ck = xcalloc(a->nkernels, sizeof *ck);
	CubinSurfaceSlot **slots = xcalloc(a->nkernels, sizeof *slots);
	SassCodeFacts *facts = xcalloc(a->nkernels, sizeof *facts);
	int rc = 0;
	for (size_t i = 0; i < a->nkernels && rc == 0; i++) {
		SasmKernelText *k = &a->kernels[i];
		if (k->name == NULL) {
			diag_add(a->d, SEV_ERROR, k->loc, RULE_SASS_KERNEL,
			         "a cubin needs kernel names: start the code with .kernel NAME");
			rc = -1;
			break;
		}
		CubinKernel *c = &ck[i];
		c->name = k->name;
		c->code = k->code;
		c->code_size = k->code_size;
		c->regcount = k->has_regcount ? k->regcount : sasm_kernel_regcount(k);
		c->params = k->params;
		c->nparams = k->nparams;
		slots[i] = xcalloc(k->nsurfaces + 1, sizeof **slots);
		uint32_t first = sass_first_slot_offset(k->params, k->nparams);
		for (size_t j = 0; j < k->nsurfaces; j++)
			slots[i][j] = (CubinSurfaceSlot){ k->surfaces[j], first + 4 * (uint32_t)j, NULL, (uint32_t)j };
		c->slots = slots[i];
		c->nslots = k->nsurfaces;
		for (size_t j = 0; j < k->ninsns; j++)
			c->uses_surfaces |= k->insns[j].form->op <= SOP_TXQ_B;
		sass_code_facts(k->code, k->ninsns, &facts[i]);
		c->exit_offsets = facts[i].exits;
		c->nexit_offsets = facts[i].nexits;
		c->ctaid_offsets = facts[i].ctaids;
		c->nctaid_offsets = facts[i].nctaids;
		c->uses_ctaid_z = facts[i].uses_ctaid_z;
	}
	if (rc == 0) {
		CubinModule m = {
			.sm = 50, .address64 = true, .kernels = ck, .nkernels = a->nkernels,
			.surfrefs = a->surfrefs, .nsurfrefs = a->nsurfrefs,
		};
		char err[200];
		if (cubin_write(&m, image, len, err, sizeof err) != 0) {
			diag_add(a->d, SEV_ERROR, (SrcLoc){ 0 }, RULE_SASS_KERNEL, "cannot build the cubin: %s", err);
			rc = -1;
		}
	}
	for (size_t i = 0; i < a->nkernels; i++) {
		free(slots[i]);
		sass_code_facts_free(&facts[i]);
	}
	free(slots);
	free(facts);
	free(ck);
	return rc;
}

static int build_raw(Assembly *a, uint8_t **image, size_t *len)
{
	size_t total = 0;
	for (size_t i = 0; i < a->nkernels; i++)
		total += a->kernels[i].code_size;
	*image = xmalloc(total ? total : 1);
	*len = 0;
	for (size_t i = 0; i < a->nkernels; i++) {
		memcpy(*image + *len, a->kernels[i].code, a->kernels[i].code_size);
		*len += a->kernels[i].code_size;
	}
	return 0;
}

static int build_listing(Assembly *a, char **listing)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&buf, &n);
	if (out == NULL)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < a->nkernels && rc == 0; i++) {
		char err[200];
		if (a->kernels[i].name && a->nkernels > 1)
			fprintf(out, "// kernel %s\n", a->kernels[i].name);
		if (sass_disasm_stream(a->kernels[i].code, a->kernels[i].code_size, 0, out, err, sizeof err) != 0) {
			diag_add(a->d, SEV_ERROR, (SrcLoc){ 0 }, RULE_SASS_CTRL, "cannot list the code: %s", err);
			rc = -1;
		}
	}
	fclose(out);
	if (rc != 0) {
		free(buf);
		return -1;
	}
	*listing = buf;
	return 0;
}

static void free_assembly(Assembly *a)
{
	for (size_t i = 0; i < a->nkernels; i++) {
		SasmKernelText *k = &a->kernels[i];
		free(k->insns);
		free(k->group_ctrl);
		free(k->group_has_ctrl);
		free(k->block_start);
		free(k->params);
		free(k->surfaces);
		free(k->slots);
		free(k->code);
	}
	free(a->kernels);
	free(a->surfrefs);
	free(a->labels);
}

int sasm_assemble_buffer(const char *filename, char *buf, size_t len, DiagSink *sink,
                         const SasmOptions *o, uint8_t **image, size_t *image_len, char **listing)
{
	(void)filename;
	*image = NULL;
	*image_len = 0;
	if (listing)
		*listing = NULL;
	Arena arena;
	arena_init(&arena);
	SasmParseState ps = { .diag = sink, .arena = &arena };
	Assembly a = { .d = sink, .o = o };
	unsigned before = diag_errors(sink);
	/* The statements that parsed are matched even after errors, so that
	 * one run reports the problems of every instruction. */
	sasm_parse_buffer(&ps, buf, len);
	collect(&a, &ps);
	if (diag_errors(sink) == before && a.nkernels == 0)
		diag_add(sink, SEV_ERROR, (SrcLoc){ 0 }, RULE_SASS_KERNEL, "the input holds no instructions");
	for (size_t i = 0; i < a.nkernels && diag_errors(sink) == before; i++)
		encode_kernel(&a, &a.kernels[i]);
	int rc = diag_errors(sink) == before ? 0 : 1;
	if (rc == 0)
		rc = o->cubin ? build_cubin(&a, image, image_len) : build_raw(&a, image, image_len);
	if (rc == 0 && o->want_listing && listing && build_listing(&a, listing) != 0)
		rc = 1;
	if (rc != 0) {
		free(*image);
		*image = NULL;
		*image_len = 0;
	}
	free_assembly(&a);
	sasm_parse_fini(&ps);
	arena_free(&arena);
	return rc;
}
