/* Issue 14: shared, local and generic memory in the simulator.
 *
 * Shared memory is the block's: the cubin's static .nv.shared size,
 * rounded up to 16 bytes, plus SIM_DYNAMIC_SHARED bytes of dynamic shared
 * memory, zeroed when the block starts (both cubins of a PTX file see the
 * same contents; a kernel that reads shared memory it did not write gets
 * zeros). Its race record starts over at every barrier: two threads
 * writing a byte between two barriers is a race, the same byte written
 * in two phases of a reduction is not.
 *
 * Local memory is every thread's own: the kernel's frame size
 * (EIATTR_FRAME_SIZE) rounded up to 16 plus SIM_LOCAL_SLACK bytes, ending
 * at SIM_STACK_TOP, the stack pointer the driver puts in c[0x0][0x20];
 * SR_LMEMHIOFF (ptxas -O0's stack-overflow check) is its lowest address.
 *
 * Generic addresses (LD, ST, ATOM, RED): a 64-bit address whose high word
 * is 0 and whose low word is in the shared window (c[0x0][0x0]) or the
 * local window (c[0x0][0x4]) reaches shared or local memory at its low
 * 24 bits, as cvta produces them, one in the constant window
 * (c[0x0][0xd0], sim_addr32.c) c[0x3]; any other address is global memory. */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

static uint32_t round16(uint32_t n) { return (n + 15) & ~15u; }

int sim_window_block(SimMachine *m, uint32_t nthreads)
{
	uint32_t shared = round16(m->shared_static) + SIM_DYNAMIC_SHARED;
	uint32_t local = round16(m->frame_size) + SIM_LOCAL_SLACK;
	if (local > SIM_STACK_TOP) {
		sim_fail(m, NULL, "%s: a frame of %u bytes does not fit the local window", m->kernel,
		         m->frame_size);
		return -1;
	}
	if (shared != m->shared_size || !m->shared) {
		free(m->shared);
		free(m->shared_writer);
		m->shared = malloc(shared);
		m->shared_writer = malloc((size_t)shared * sizeof *m->shared_writer);
		m->shared_size = shared;
	}
	if (local != m->local_size || nthreads != m->block_threads || !m->local) {
		free(m->local);
		m->local = malloc((size_t)local * nthreads);
		m->local_size = local;
		m->block_threads = nthreads;
	}
	if (!m->shared || !m->shared_writer || !m->local) {
		sim_fail(m, NULL, "out of memory");
		return -1;
	}
	memset(m->shared, 0, shared);
	memset(m->shared_writer, 0, (size_t)shared * sizeof *m->shared_writer);
	memset(m->local, 0, (size_t)local * nthreads);
	return 0;
}

void sim_window_barrier(SimMachine *m)
{
	if (m->shared_writer)
		memset(m->shared_writer, 0, (size_t)m->shared_size * sizeof *m->shared_writer);
}

void sim_window_free(SimMachine *m)
{
	free(m->shared);
	free(m->shared_writer);
	free(m->local);
	m->shared = m->local = NULL;
	m->shared_writer = NULL;
	m->shared_size = m->local_size = 0;
}

uint8_t *sim_shared(SimMachine *m, const SimInsn *in, uint64_t off, uint32_t n, uint32_t **writer)
{
	if (off % n || off >= m->shared_size || m->shared_size - off < n) {
		sim_fail(m, in, "%u-byte shared access at 0x%llx is outside the block's %u bytes or misaligned",
		         n, (unsigned long long)off, m->shared_size);
		return NULL;
	}
	if (writer)
		*writer = m->shared_writer + off;
	return m->shared + off;
}

static uint8_t *local_bytes(SimMachine *m, const SimInsn *in, const SimThread *t, uint64_t addr,
                            uint32_t n)
{
	uint64_t low = SIM_STACK_TOP - m->local_size;
	if (addr % n || addr < low || addr + n > SIM_STACK_TOP) {
		sim_fail(m, in, "%u-byte local access at 0x%llx is outside the thread's local memory "
		         "[0x%llx, 0x%x) or misaligned", n, (unsigned long long)addr,
		         (unsigned long long)low, (unsigned)SIM_STACK_TOP);
		return NULL;
	}
	return m->local + (size_t)(t->flat % m->block_threads) * m->local_size + (addr - low);
}

uint8_t *sim_generic(SimMachine *m, const SimInsn *in, const SimThread *t, uint64_t addr,
                     uint32_t n, SimRegion **region, uint32_t **writer)
{
	*region = NULL;
	*writer = NULL;
	uint64_t window = addr & ~(uint64_t)(SIM_WINDOW_BYTES - 1);
	if (window == SIM_SHARED_WINDOW)
		return sim_shared(m, in, addr - window, n, writer);
	if (window == SIM_LOCAL_WINDOW)
		return local_bytes(m, in, t, addr - window, n);
	if (window == SIM_CONST_WINDOW)
		return sim_const_window(m, in, addr - window, n, false);
	uint8_t *p = sim_global(m, in, addr, n);
	if (p)
		*region = sim_region_of(m, p);
	return p;
}

/* Records a write through a generic address (no record for local memory:
 * it is the thread's own). */
static void note_generic(SimMachine *m, const SimInsn *in, SimRegion *r, uint32_t *writer,
                         const uint8_t *p, uint32_t n, const SimThread *t)
{
	if (r)
		sim_note_write(m, in, r, p, n, t);
	else if (writer)
		sim_note_record(m, in, "shared", m->shared_writer, (size_t)(writer - m->shared_writer), n,
		                t, false);
}

/* [Ra + offset]: 32-bit window offsets (LDS/STS/LDL/STL), or a 64-bit
 * (.E) or 32-bit generic address (LD/ST). */
static uint64_t address(const SimInsn *in, const SimThread *t, bool generic)
{
	int64_t ra = sim_val(in, SR_RA, 255);
	uint64_t a = sim_reg(t, ra);
	if (generic && sim_val(in, SR_E, 0))
		a |= (uint64_t)sim_reg(t, ra == 255 ? 255 : ra + 1) << 32;
	a += (uint64_t)sim_val(in, SR_IMM, 0);
	return generic ? a : (uint32_t)a;
}

bool sim_exec_window(SimMachine *m, const SimInsn *in, SimThread *t)
{
	SassOp op = in->form->op;
	if (op != SOP_LDS && op != SOP_STS && op != SOP_LDL && op != SOP_STL && op != SOP_LD &&
	    op != SOP_ST)
		return false;
	bool load = op == SOP_LDS || op == SOP_LDL || op == SOP_LD;
	int64_t size = sim_val(in, SR_SIZE, 4);
	uint32_t n = sim_access_bytes(size);
	uint64_t a = address(in, t, op == SOP_LD || op == SOP_ST);
	SimRegion *r = NULL;
	uint32_t *writer = NULL;
	bool to_const = op == SOP_ST && (a & ~(uint64_t)(SIM_WINDOW_BYTES - 1)) == SIM_CONST_WINDOW;
	uint8_t *p = op == SOP_LDS || op == SOP_STS ? sim_shared(m, in, a, n, &writer)
	           : op == SOP_LDL || op == SOP_STL ? local_bytes(m, in, t, a, n)
	           : to_const ? sim_const_window(m, in, a - SIM_CONST_WINDOW, n, true)
	           : sim_generic(m, in, t, a, n, &r, &writer);
	if (!p)
		return true;
	if (load) {
		sim_load_regs(t, sim_val(in, SR_RD, 255), p, size);
		return true;
	}
	sim_store_regs(t, sim_val(in, SR_RB, 255), p, n);
	note_generic(m, in, r, writer, p, n, t);
	return true;
}
