/* The simulator's memory: constant banks, global buffers and surfaces, and
 * the per-byte last-writer record that turns a data race into a failure
 * instead of an order-dependent result. */
/* MAP_ANONYMOUS and MAP_NORESERVE (sparse regions) are not POSIX */
#define _DEFAULT_SOURCE 1
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

SimRegion *sim_add_region(SimMachine *m, SimRegionKind kind, const char *name, uint64_t base,
                          uint64_t size)
{
	if (m->nregions == SIM_MAX_REGIONS) {
		snprintf(m->error, sizeof m->error, "more than %d memory regions", SIM_MAX_REGIONS);
		m->failed = true;
		return NULL;
	}
	SimRegion *r = &m->regions[m->nregions];
	memset(r, 0, sizeof *r);
	r->kind = kind;
	snprintf(r->name, sizeof r->name, "%s", name);
	r->base = base;
	r->size = size;
	if (size > SIM_SPARSE_MIN_BYTES) {
		/* never-written pages stay the OS's shared zero page */
		void *b = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		void *w = mmap(NULL, size * sizeof *r->writer, PROT_READ | PROT_WRITE,
		               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		r->bytes = b == MAP_FAILED ? NULL : b;
		r->writer = w == MAP_FAILED ? NULL : w;
		r->touched = calloc((size / SIM_SPARSE_CHUNK + 8) / 8, 1);
	} else {
		r->bytes = calloc(size ? size : 1, 1);
		r->writer = calloc(size ? size : 1, sizeof *r->writer);
	}
	if (!r->bytes || !r->writer || (size > SIM_SPARSE_MIN_BYTES && !r->touched)) {
		sim_region_free(r);
		snprintf(m->error, sizeof m->error, "out of memory (a region of %llu bytes)", (unsigned long long)size);
		m->failed = true;
		return NULL;
	}
	m->nregions++;
	return r;
}

void sim_region_free(SimRegion *r)
{
	if (r->size > SIM_SPARSE_MIN_BYTES) {
		if (r->bytes)
			munmap(r->bytes, r->size);
		if (r->writer)
			munmap(r->writer, r->size * sizeof *r->writer);
	} else {
		free(r->bytes);
		free(r->writer);
	}
	free(r->touched);
	r->bytes = NULL;
	r->writer = NULL;
	r->touched = NULL;
}

void sim_region_touch(SimRegion *r, uint64_t off, uint64_t n)
{
	for (uint64_t c = off / SIM_SPARSE_CHUNK; r->touched && n && c <= (off + n - 1) / SIM_SPARSE_CHUNK; c++)
		r->touched[c / 8] |= (uint8_t)(1u << (c % 8));
}

uint8_t *sim_global(SimMachine *m, const SimInsn *in, uint64_t addr, uint32_t n)
{
	if (addr % n) {
		sim_fail(m, in, "misaligned %u-byte access at 0x%llx", n, (unsigned long long)addr);
		return NULL;
	}
	for (size_t i = 0; i < m->nregions; i++) {
		SimRegion *r = &m->regions[i];
		if (r->kind == SIM_BUFFER && addr >= r->base && addr - r->base <= r->size &&
		    r->size - (addr - r->base) >= n)
			return r->bytes + (addr - r->base);
	}
	sim_fail(m, in, "%u-byte access at 0x%llx is outside every buffer", n, (unsigned long long)addr);
	return NULL;
}

/* A race record: per byte 1 + the id of the thread that wrote it last,
 * with SIM_ATOMIC_WRITE set when that write was an atomic one. Two threads
 * writing a byte is a race unless both writes are atomic: atomics run in
 * the fixed order of the grid (blocks, warps, lanes), the same for both
 * cubins. */
#define SIM_ATOMIC_WRITE 0x80000000u
void sim_note_record(SimMachine *m, const SimInsn *in, const char *what, uint32_t *writer,
                     size_t off, uint32_t n, const SimThread *t, bool atomic)
{
	uint32_t me = (t->flat + 1) | (atomic ? SIM_ATOMIC_WRITE : 0);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t *w = &writer[off + i];
		bool both_atomic = atomic && (*w & SIM_ATOMIC_WRITE);
		if (m->launch.fail_on_races && *w && (*w & ~SIM_ATOMIC_WRITE) != t->flat + 1 &&
		    !both_atomic) {
			sim_fail(m, in, "data race: threads %u and %u both write %s+0x%zx",
			         (*w & ~SIM_ATOMIC_WRITE) - 1, t->flat, what, off + i);
			return;
		}
		*w = me;
	}
}

void sim_note_write(SimMachine *m, const SimInsn *in, SimRegion *r, const uint8_t *p, uint32_t n,
                    const SimThread *t)
{
	sim_region_touch(r, (uint64_t)(p - r->bytes), n);
	sim_note_record(m, in, r->name, r->writer, (size_t)(p - r->bytes), n, t, false);
}

SimRegion *sim_region_of(SimMachine *m, const uint8_t *p)
{
	for (size_t i = 0; i < m->nregions; i++)
		if (p >= m->regions[i].bytes && p < m->regions[i].bytes + m->regions[i].size)
			return &m->regions[i];
	return NULL;
}

SimRegion *sim_surface(SimMachine *m, const SimInsn *in, uint32_t handle)
{
	/* a handle built from a bound slot (mov of a .surfref/.texref):
	 * 0x80000000 | the header index */
	if (handle & 0x80000000u)
		handle &= 0xfffffu;
	for (size_t i = 0; i < m->nregions; i++)
		if (m->regions[i].kind == SIM_SURFACE && m->regions[i].base == handle)
			return &m->regions[i];
	sim_fail(m, in, "no surface has header index 0x%x", handle);
	return NULL;
}

/* ---- global memory instructions ---- */

uint32_t sim_access_bytes(int64_t size)
{
	static const uint32_t b[] = { 1, 1, 2, 2, 4, 8, 16, 16 };
	return b[size & 7];
}

static uint64_t global_address(const SimInsn *in, const SimThread *t)
{
	int64_t ra = sim_val(in, SR_RA, 255);
	uint64_t addr = sim_reg(t, ra);
	if (sim_val(in, SR_E, 0))
		addr |= (uint64_t)sim_reg(t, ra == 255 ? 255 : ra + 1) << 32;
	return addr + (uint64_t)sim_val(in, SR_IMM, 0);
}

void sim_store_regs(const SimThread *t, int64_t rb, uint8_t *p, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		p[i] = (uint8_t)(sim_reg(t, rb == 255 ? 255 : rb + i / 4) >> (8 * (i % 4)));
}

static void exec_stg(SimMachine *m, const SimInsn *in, SimThread *t)
{
	uint32_t n = sim_access_bytes(sim_val(in, SR_SIZE, 4));
	uint8_t *p = sim_global(m, in, global_address(in, t), n);
	if (!p)
		return;
	sim_store_regs(t, sim_val(in, SR_RB, 255), p, n);
	sim_note_write(m, in, sim_region_of(m, p), p, n, t);
}

static uint32_t sext(uint32_t v, unsigned bits)
{
	return (uint32_t)((int32_t)(v << (32 - bits)) >> (32 - bits));
}

void sim_load_regs(SimThread *t, int64_t rd, const uint8_t *p, int64_t size)
{
	uint32_t n = sim_access_bytes(size);
	uint32_t w[4] = { 0, 0, 0, 0 };
	memcpy(w, p, n);
	if (size == 1 || size == 3)
		w[0] = sext(w[0], size == 1 ? 8 : 16);
	for (uint32_t i = 0; i < (n + 3) / 4; i++)
		sim_set(t, rd == 255 ? 255 : rd + i, w[i]);
}

static void exec_ldg(SimMachine *m, const SimInsn *in, SimThread *t)
{
	int64_t size = sim_val(in, SR_SIZE, 4);
	const uint8_t *p = sim_global(m, in, global_address(in, t), sim_access_bytes(size));
	if (p)
		sim_load_regs(t, sim_val(in, SR_RD, 255), p, size);
}

static void exec_ldc(SimMachine *m, const SimInsn *in, SimThread *t)
{
	if (sim_val(in, SR_LDCMODE, 0) != 0) {
		sim_fail(m, in, "LDC addressing modes other than the plain one are not modelled");
		return;
	}
	int64_t size = sim_val(in, SR_SIZE, 4);
	uint32_t n = sim_access_bytes(size);
	unsigned bank = (unsigned)sim_val(in, SR_CBANK, 0);
	int64_t off = (int64_t)(int32_t)sim_reg(t, sim_val(in, SR_RA, 255)) + sim_val(in, SR_COFF, 0);
	if (bank >= SIM_CBANKS || off < 0 || off % n || off + n > (int64_t)m->cbank_size[bank]) {
		sim_fail(m, in, "LDC of c[0x%x][0x%llx] is outside the bank or misaligned", bank,
		         (long long)off);
		return;
	}
	uint32_t w[2] = { 0, 0 };
	memcpy(w, m->cbank[bank] + off, n);
	if (size == 1 || size == 3)
		w[0] = sext(w[0], size == 1 ? 8 : 16);
	int64_t rd = sim_val(in, SR_RD, 255);
	sim_set(t, rd, w[0]);
	if (n == 8)
		sim_set(t, rd == 255 ? 255 : rd + 1, w[1]);
}

/* ---- surfaces ---- */

/* The surface instruction's handle: a bound slot's header index read from
 * c[0x0] (the immediate names the slot, in words), or a bindless handle in
 * a register. */
static SimRegion *surface_of(SimMachine *m, const SimInsn *in, const SimThread *t)
{
	uint32_t handle = sass_values_has(&in->v, SR_SUIDX)
		? sim_cword(m, in, 0, 4 * sim_val(in, SR_SUIDX, 0))
		: sim_reg(t, sim_val(in, SR_RC, 255));
	return m->failed ? NULL : sim_surface(m, in, handle);
}

/* The texel bytes [p, p+n) an access of n bytes reaches, after the clamp
 * mode: NULL with *dropped set when .IGN drops it, NULL and a failure on
 * .TRAP. Coordinates by geometry: 1D x; 1D_ARRAY x, layer; 2D x, y;
 * 2D_ARRAY x, y, layer; 3D x, y, z. x is in bytes with .BA, else in
 * texels; an access is aligned down to its size. */
static uint8_t *surface_cell(SimMachine *m, const SimInsn *in, const SimThread *t, SimRegion *s,
                             uint32_t n, bool *dropped)
{
	int64_t ra = sim_val(in, SR_RA, 255), geom = sim_val(in, SR_GEOM, 0);
	*dropped = false;
	if (geom == 1) {
		sim_fail(m, in, "1D_BUFFER surfaces are not modelled");
		return NULL;
	}
	uint32_t x = sim_reg(t, ra), y = 0, z = 0;
	if (geom == 3 || geom == 4 || geom == 5)
		y = sim_reg(t, ra + 1);
	if (geom == 2)
		z = sim_reg(t, ra + 1);
	if (geom == 4 || geom == 5)
		z = sim_reg(t, ra + 2);
	uint64_t xb = sim_val(in, SR_BA, 0) ? x : (uint64_t)x * SIM_TEXEL_BYTES;
	xb -= xb % n;
	if (xb + n > s->width_bytes || y >= s->height || z >= s->depth) {
		switch (sim_val(in, SR_CLAMP, 1)) {
		case 0:
			*dropped = true;
			return NULL;
		case 2:
			sim_fail(m, in, "surface access (%llu bytes, %u, %u) outside %s traps",
			         (unsigned long long)xb, y, z, s->name);
			return NULL;
		default:
			xb = xb + n > s->width_bytes ? s->width_bytes - n : xb;
			y = y >= s->height ? s->height - 1 : y;
			z = z >= s->depth ? s->depth - 1 : z;
		}
	}
	return s->bytes + xb + (uint64_t)y * s->width_bytes + (uint64_t)z * s->width_bytes * s->height;
}

/* SURED.D data types: U32 S32 U64 F32.FTZ.RN - S64 SD32 SD64 (SD: the
 * sign does not matter, for ADD/AND/OR/XOR). */
static bool sured_signed(int64_t ty) { return ty == 1 || ty == 5; }
static bool sured_wide(int64_t ty) { return ty == 2 || ty == 5 || ty == 7; }

uint64_t sim_reduce(int64_t op, bool sg, bool wide, uint64_t old, uint64_t d)
{
	int64_t so = wide ? (int64_t)old : (int32_t)old, sd = wide ? (int64_t)d : (int32_t)d;
	switch (op) {
	case 0: return old + d;
	case 1: return sg ? (so < sd ? old : d) : (old < d ? old : d);
	case 2: return sg ? (so > sd ? old : d) : (old > d ? old : d);
	case 3: return old >= d ? 0 : old + 1;
	case 4: return old == 0 || old > d ? d : old - 1;
	case 5: return old & d;
	case 6: return old | d;
	default: return old ^ d;
	}
}

static void exec_surface(SimMachine *m, const SimInsn *in, SimThread *t)
{
	SassOp op = in->form->op;
	SimRegion *s = surface_of(m, in, t);
	if (!s)
		return;
	bool formatted = op == SOP_SUST_P || op == SOP_SULD_P || op == SOP_SURED_P;
	uint32_t n, rgba = 0xf;
	if (formatted) {
		/* RGBA32UI: the mask picks components; SURED.P works on R */
		rgba = op == SOP_SURED_P ? 1 : (uint32_t)sim_val(in, SR_RGBA, 1);
		n = SIM_TEXEL_BYTES;
	} else if (op == SOP_SURED_D) {
		int64_t ty = sim_val(in, SR_SUTYPE, 0);
		if (ty == 3 || ty == 4) {
			sim_fail(m, in, "SURED data type %lld is not modelled", (long long)ty);
			return;
		}
		n = sured_wide(ty) ? 8 : 4;
	} else {
		n = sim_access_bytes(sim_val(in, SR_SIZE, 4));
	}
	bool dropped;
	uint8_t *cell = surface_cell(m, in, t, s, n, &dropped);
	if (!cell && !dropped)
		return;
	int64_t rd = sim_val(in, SR_RD, 255), rb = sim_val(in, SR_RB, 255);
	if (op == SOP_SULD_D || op == SOP_SULD_P) {
		uint32_t w[4] = { 0, 0, 0, 0 };
		if (cell)
			memcpy(w, cell, n);
		if (op == SOP_SULD_D) {
			int64_t size = sim_val(in, SR_SIZE, 4);
			if (size == 1 || size == 3)
				w[0] = sext(w[0], size == 1 ? 8 : 16);
			for (uint32_t i = 0; i < (n + 3) / 4; i++)
				sim_set(t, rd == 255 ? 255 : rd + i, w[i]);
		} else {
			for (uint32_t c = 0, k = 0; c < 4; c++)
				if (rgba >> c & 1)
					sim_set(t, rd == 255 ? 255 : rd + k++, w[c]);
		}
		return;
	}
	if (dropped)
		return;
	if (op == SOP_SURED_D || op == SOP_SURED_P) {
		int64_t ty = op == SOP_SURED_D ? sim_val(in, SR_SUTYPE, 0) : 0;
		uint64_t old = 0, d = sim_reg(t, rb);
		memcpy(&old, cell, n);
		if (n == 8)
			d |= (uint64_t)sim_reg(t, rb == 255 ? 255 : rb + 1) << 32;
		uint64_t nv = sim_reduce(sim_val(in, SR_SUOP, 0), sured_signed(ty), n == 8, old, d);
		if (n == 4)
			nv = (uint32_t)nv;
		memcpy(cell, &nv, n);
		/* reductions commute: no race record */
		return;
	}
	if (op == SOP_SUST_D) {
		for (uint32_t i = 0; i < n; i++)
			cell[i] = (uint8_t)(sim_reg(t, rb == 255 ? 255 : rb + i / 4) >> (8 * (i % 4)));
		sim_note_write(m, in, s, cell, n, t);
		return;
	}
	for (uint32_t c = 0, k = 0; c < 4; c++) {
		if (!(rgba >> c & 1))
			continue;
		uint32_t v = sim_reg(t, rb == 255 ? 255 : rb + k++);
		memcpy(cell + 4 * c, &v, 4);
		sim_note_write(m, in, s, cell + 4 * c, 4, t);
	}
}

/* TXQ: the header of the RGBA32UI surface. Dimension query: width in
 * texels, height, depth, one mip level, one component per mask bit. */
static void exec_txq(SimMachine *m, const SimInsn *in, SimThread *t)
{
	uint32_t handle = in->form->op == SOP_TXQ ? sim_cword(m, in, 0, 4 * sim_val(in, SR_SUIDX, 0))
	                                          : sim_reg(t, sim_val(in, SR_RA, 255));
	if (m->failed)
		return;
	SimRegion *s = sim_surface(m, in, handle);
	if (!s)
		return;
	if (sim_val(in, SR_QUERY, 0) != 1) {
		sim_fail(m, in, "TXQ query %lld is not modelled", (long long)sim_val(in, SR_QUERY, 0));
		return;
	}
	uint32_t comp[4] = { s->width_bytes / SIM_TEXEL_BYTES, s->height, s->depth, 1 };
	uint32_t mask = (uint32_t)sim_val(in, SR_QMASK, 1);
	int64_t rd = sim_val(in, SR_RD, 255);
	for (uint32_t c = 0, k = 0; c < 4; c++)
		if (mask >> c & 1)
			sim_set(t, rd == 255 ? 255 : rd + k++, comp[c]);
}

bool sim_exec_mem(SimMachine *m, const SimInsn *in, SimThread *t)
{
	switch (in->form->op) {
	case SOP_STG: exec_stg(m, in, t); return true;
	case SOP_LDG: exec_ldg(m, in, t); return true;
	case SOP_LDC: exec_ldc(m, in, t); return true;
	case SOP_SUST_D: case SOP_SUST_P: case SOP_SULD_D: case SOP_SULD_P:
	case SOP_SURED_D: case SOP_SURED_P:
		exec_surface(m, in, t);
		return true;
	case SOP_TXQ: case SOP_TXQ_B: exec_txq(m, in, t); return true;
	default: return false;
	}
}
