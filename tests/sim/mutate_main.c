/* ptxsurf-mutate: one-at-a-time faults in a kernel's machine code, for the
 * mutation check of the differential tests (tests/sim/mutate.sh).
 *
 *   ptxsurf-mutate --list FILE.cubin KERNEL      every mutant, one a line:
 *                                                INDEX KIND ADDR WHAT
 *   ptxsurf-mutate FILE.cubin KERNEL INDEX OUT   writes mutant INDEX to OUT
 *
 * The kinds are the encoder's choices the issue names: a source register
 * (RA, RB -- also a store's data -- or RC, to its neighbour), a comparison (ISETP/FSETP to the next
 * one), an immediate (ALU immediates +1, memory offsets +16), a stall count
 * (cut to 1) and a scoreboard barrier (the write barrier moved to the next
 * one, or the lowest barrier dropped from the wait mask). Words are decoded and re-encoded with the
 * form table, so every mutant is a valid instruction; the cubin is copied
 * byte for byte except for the one word. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "emit/cubin_read.h"
#include "sm50/sass_ctrl.h"
#include "sm50/sass_encode.h"

typedef enum Kind { K_SRC_A, K_SRC_B, K_SRC_C, K_CMP, K_IMM, K_STALL, K_BARRIER, NKINDS } Kind;
static const char *const kind_names[NKINDS] = {
	"source", "source", "source", "comparison", "immediate", "stall", "barrier",
};

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int b = 7; b >= 0; b--)
		v = v << 8 | p[b];
	return v;
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int b = 0; b < 8; b++)
		p[b] = (uint8_t)(v >> (8 * b));
}

static bool is_memory(SassOp op)
{
	return op == SOP_STG || op == SOP_LDG || op == SOP_LDC;
}

/* The mutant `which` (0-based among this instruction's) of the word at
 * code[addr]; writes the new word (and its group's control word) and a
 * description. False when the instruction has no such mutant. */
static bool mutate(uint8_t *code, uint32_t addr, Kind kind, char *what, size_t n)
{
	uint64_t word = get64(code + addr), ctrl = get64(code + addr / 32 * 32);
	SassValues v;
	const SassForm *f = sass_decode(word, &v);
	if (!f || f->op == SOP_NOP)
		return false;
	uint32_t slots[3];
	sass_ctrl_unpack_word(ctrl, slots);
	unsigned s = (addr % 32) / 8 - 1;
	SassCtrl c;
	sass_ctrl_unpack_slot(slots[s], &c);
	char err[160];
	uint64_t nw = word;
	switch (kind) {
	case K_SRC_A: case K_SRC_B: case K_SRC_C: {
		SassRole role = kind == K_SRC_A ? SR_RA : kind == K_SRC_B ? SR_RB : SR_RC;
		int64_t r = sass_values_get(&v, role, 255);
		if (!sass_values_has(&v, role) || r == 255)
			return false;
		sass_values_set(&v, role, r ^ 1);
		if (sass_encode(f, &v, &nw, err, sizeof err))
			return false;
		snprintf(what, n, "%s: %s R%lld -> R%lld", f->name, sass_role_name(role), (long long)r,
		         (long long)(r ^ 1));
		break;
	}
	case K_CMP: {
		if (!sass_values_has(&v, SR_CMP))
			return false;
		int64_t cmp = sass_values_get(&v, SR_CMP, 0), next = f->op == SOP_FSETP ? (cmp + 1) % 16 : (cmp + 1) % 8;
		sass_values_set(&v, SR_CMP, next);
		if (sass_encode(f, &v, &nw, err, sizeof err))
			return false;
		snprintf(what, n, "%s: comparison %lld -> %lld", f->name, (long long)cmp, (long long)next);
		break;
	}
	case K_IMM: {
		if (!sass_values_has(&v, SR_IMM) || f->op == SOP_BRA)
			return false;
		int64_t imm = sass_values_get(&v, SR_IMM, 0), next = imm + (is_memory(f->op) ? 16 : 1);
		sass_values_set(&v, SR_IMM, next);
		if (sass_encode(f, &v, &nw, err, sizeof err))
			return false;
		snprintf(what, n, "%s: immediate 0x%llx -> 0x%llx", f->name, (long long)imm, (long long)next);
		break;
	}
	case K_STALL:
		if (c.stall <= 1)
			return false;
		snprintf(what, n, "%s: stall %u -> 1", f->name, c.stall);
		c.stall = 1;
		break;
	case K_BARRIER:
		if (c.wbar < 6) {
			snprintf(what, n, "%s: write barrier %u -> %u", f->name, c.wbar, (c.wbar + 1) % 6);
			c.wbar = (c.wbar + 1) % 6;
		} else if (c.wait) {
			/* forget the lowest barrier waited on */
			unsigned w = c.wait & (c.wait - 1);
			snprintf(what, n, "%s: wait mask 0x%02x -> 0x%02x", f->name, c.wait, w);
			c.wait = w;
		} else {
			return false;
		}
		break;
	default:
		return false;
	}
	if (nw == word && kind != K_STALL && kind != K_BARRIER)
		return false;
	put64(code + addr, nw);
	if (kind == K_STALL || kind == K_BARRIER) {
		uint32_t slot;
		if (sass_ctrl_pack_slot(&c, &slot))
			return false;
		slots[s] = slot;
		put64(code + addr / 32 * 32, sass_ctrl_pack_word(slots));
	}
	return true;
}

static uint8_t *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0, got;
	uint8_t *buf = xmalloc(cap);
	while ((got = fread(buf + n, 1, cap - n, f)) > 0)
		if ((n += got) == cap)
			buf = xrealloc(buf, cap *= 2);
	fclose(f);
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	bool list = argc == 4 && strcmp(argv[1], "--list") == 0;
	if (!list && argc != 5) {
		fprintf(stderr, "usage: ptxsurf-mutate --list FILE.cubin KERNEL\n"
		                "       ptxsurf-mutate FILE.cubin KERNEL INDEX OUT\n");
		return 2;
	}
	const char *path = argv[list ? 2 : 1], *kname = argv[list ? 3 : 2];
	long want = list ? -1 : strtol(argv[3], NULL, 10);
	size_t len;
	uint8_t *buf = read_all(path, &len);
	CubinImage img;
	char err[256];
	if (!buf || cubin_read(buf, len, &img, err, sizeof err)) {
		fprintf(stderr, "ptxsurf-mutate: %s: %s\n", path, buf ? err : "cannot read");
		return 2;
	}
	const CubinReadKernel *k = NULL;
	for (size_t i = 0; i < img.nkernels; i++)
		if (!strcmp(img.kernels[i].k.name, kname))
			k = &img.kernels[i];
	if (!k) {
		fprintf(stderr, "ptxsurf-mutate: %s: no kernel %s\n", path, kname);
		return 2;
	}
	/* mutants are taken from a scratch copy of the code, one at a time */
	size_t size = k->k.code_size;
	uint8_t *code = buf + k->file_offset, *scratch = xmalloc(size);
	long index = 0;
	int rc = 0;
	bool written = false;
	for (uint32_t addr = 8; addr < size && !written; addr += addr % 32 == 24 ? 16 : 8) {
		for (int kind = 0; kind < NKINDS; kind++) {
			char what[160];
			memcpy(scratch, code, size);
			if (!mutate(scratch, addr, (Kind)kind, what, sizeof what))
				continue;
			if (list) {
				printf("%ld %s 0x%04x %s\n", index, kind_names[kind], addr, what);
			} else if (index == want) {
				memcpy(code, scratch, size);
				FILE *out = fopen(argv[4], "wb");
				rc = !out || fwrite(buf, 1, len, out) != len;
				if (out && fclose(out))
					rc = 1;
				if (rc)
					fprintf(stderr, "ptxsurf-mutate: cannot write %s\n", argv[4]);
				written = true;
				break;
			}
			index++;
		}
	}
	if (!list && !written && !rc) {
		fprintf(stderr, "ptxsurf-mutate: %s %s has %ld mutants\n", path, kname, index);
		rc = 2;
	}
	free(scratch);
	cubin_image_free(&img);
	free(buf);
	return rc;
}
