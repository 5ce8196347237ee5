/* The CUDA driver's device functions a kernel reaches through a relocated
 * JCAL: vprintf (sim_printf.c), malloc, free and __assertfail, so that the
 * differential tests run whole programs that allocate and assert (issue
 * 14), ours and ptxas's alike. Arguments and results follow the ABI both
 * write (measured on ptxas 11.8 -arch=sm_50): parameters in R4 up, a
 * 64-bit one at an even register, the result in R4(:R5).
 *
 * malloc(R4:R5 size) -> R4:R5: the heap is one region split into a slot
 * per thread of the grid (SIM_HEAP_SLOT bytes, SIM_HEAP_THREADS slots), and
 * a thread's allocations are handed out from its own slot, 16-byte aligned
 * as the driver aligns them. So every address depends on the thread and
 * its own calls only, never on the order the simulator ran the threads,
 * and the heap's bytes are an output compared like any buffer's. A request
 * that does not fit the slot (or a thread past the last slot) gets NULL,
 * as the driver's malloc does when its heap is exhausted. free(R4:R5)
 * takes nothing back (nothing a kernel can observe depends on it).
 *
 * A driver function may change what the ABI leaves to the callee: R0 and
 * R3..R15 but its result, and every predicate (R2 and R16 up it keeps, as
 * ptxas 11.8's callers assume: they keep values in R2 across a JCAL). The
 * simulator overwrites those after each call, so code that relied on one
 * of them across the call computes garbage and fails the comparison.
 *
 * __assertfail(R4:R5 message, R6:R7 file, R8 line, R10:R11 function,
 * R12:R13 char size): the device-side assert, which ends the launch with
 * an error; the run fails with the assertion's text, and sim-diff requires
 * both cubins to fail the same way. */
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIM_HEAP_BASE 0x60000000ull
enum { SIM_HEAP_SLOT = 0x1000, SIM_HEAP_THREADS = 256, ASSERT_TEXT = 256 };

static uint64_t reg64(const SimThread *t, unsigned r)
{
	return (uint64_t)sim_reg(t, r + 1) << 32 | sim_reg(t, r);
}

static void set64(SimThread *t, unsigned r, uint64_t v)
{
	sim_set(t, r, (uint32_t)v);
	sim_set(t, r + 1, (uint32_t)(v >> 32));
}

static void malloc_call(SimMachine *m, SimThread *t)
{
	uint64_t size = reg64(t, 4), addr = 0;
	if (t->flat < SIM_HEAP_THREADS && size <= SIM_HEAP_SLOT) {
		uint32_t used = m->heap_used[t->flat];
		uint32_t take = (uint32_t)(size + 15) / 16 * 16;
		if (take <= SIM_HEAP_SLOT - used) {
			addr = m->heap->base + (uint64_t)t->flat * SIM_HEAP_SLOT + used;
			m->heap_used[t->flat] = used + (take ? take : 16);
		}
	}
	set64(t, 4, addr);
}

static void assertfail_call(SimMachine *m, const SimInsn *in, const SimThread *t)
{
	char msg[ASSERT_TEXT], file[ASSERT_TEXT], fn[ASSERT_TEXT];
	if (!sim_read_string(m, in, t, reg64(t, 4), msg, sizeof msg) ||
	    !sim_read_string(m, in, t, reg64(t, 6), file, sizeof file) ||
	    !sim_read_string(m, in, t, reg64(t, 10), fn, sizeof fn))
		return;
	sim_fail(m, in, "__assertfail: %s:%u: %s: Assertion `%s' failed", file, sim_reg(t, 8), fn, msg);
}

/* The registers from R3 up to R15 past the result (results: R4 up to
 * result_end) and every predicate get values no computation expects. */
static void clobber_scratch(SimThread *t, unsigned result_end)
{
	sim_set(t, 0, 0xdead0000u);
	for (unsigned r = 3; r <= 15; r++)
		if (r < 4 || r >= result_end)
			sim_set(t, r, 0xdead0000u | r);
	for (unsigned p = 0; p < SIM_NPREDS - 1; p++)
		t->p[p] = !t->p[p];
}

bool sim_exec_extern(SimMachine *m, const SimInsn *in, SimThread *t)
{
	if (in->form->op != SOP_JCAL)
		return false;
	unsigned result_end = 4;
	switch ((SimExtern)in->ext) {
	case SIM_EXT_VPRINTF: sim_vprintf(m, in, t); result_end = 5; break;
	case SIM_EXT_MALLOC: malloc_call(m, t); result_end = 6; break;
	case SIM_EXT_FREE: break;
	case SIM_EXT_ASSERTFAIL: assertfail_call(m, in, t); break;
	case SIM_EXT_NONE: sim_fail(m, in, "a JCAL of an absolute address is not modelled"); break;
	}
	if (!m->failed)
		clobber_scratch(t, result_end);
	return true;
}

static SimExtern extern_of(const char *name)
{
	static const struct { const char *name; SimExtern ext; } known[] = {
		{ "vprintf", SIM_EXT_VPRINTF }, { "malloc", SIM_EXT_MALLOC },
		{ "free", SIM_EXT_FREE }, { "__assertfail", SIM_EXT_ASSERTFAIL },
	};
	for (size_t i = 0; name && i < sizeof known / sizeof known[0]; i++)
		if (strcmp(name, known[i].name) == 0)
			return known[i].ext;
	return SIM_EXT_NONE;
}

/* Marks each relocated JCAL with the function it calls, then makes the
 * regions those functions need, in one order whatever the order of the
 * calls in the code (builds of one PTX place them differently). */
int sim_load_externs(SimMachine *m, const CubinImage *img, const CubinKernel *k)
{
	bool uses[SIM_EXT_ASSERTFAIL + 1] = { false };
	for (size_t i = 0; i < k->nextern_calls; i++) {
		const CubinDataFixup *c = &k->extern_calls[i];
		size_t at = (c->offset / 32) * 3 + (c->offset % 32) / 8 - 1;
		const char *name = c->var < img->nexterns ? img->externs[c->var] : NULL;
		bool jcal = c->offset % 8 == 0 && c->offset % 32 != 0 && at < m->ninsns && m->insns[at].form &&
		            m->insns[at].form->op == SOP_JCAL;
		SimExtern ext = extern_of(name);
		if (!jcal || ext == SIM_EXT_NONE) {
			snprintf(m->error, sizeof m->error, "a call of the external function %s at 0x%04x is not modelled",
			         name ? name : "?", c->offset);
			m->failed = true;
			return -1;
		}
		m->insns[at].ext = (uint8_t)ext;
		uses[ext] = true;
	}
	if (uses[SIM_EXT_VPRINTF] && !sim_printf_log(m))
		return -1;
	if (uses[SIM_EXT_MALLOC]) {
		if (!(m->heap = sim_add_region(m, SIM_BUFFER, "malloc heap", SIM_HEAP_BASE, SIM_HEAP_SLOT * SIM_HEAP_THREADS)))
			return -1;
		if (!(m->heap_used = calloc(SIM_HEAP_THREADS, sizeof *m->heap_used))) {
			snprintf(m->error, sizeof m->error, "out of memory");
			m->failed = true;
			return -1;
		}
	}
	return 0;
}
