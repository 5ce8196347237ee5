/* Issue 15 (addr32): the simulated driver's part of 32-bit code and of
 * the constant window.
 *
 * The constant window: c[0x0][0xd0] (high word c[0x0][0xd4]) holds the
 * generic address of c[0x3][0], SIM_CONST_WINDOW, a 16 MiB window away
 * from every buffer and from the shared and local windows; a generic load
 * from it reads the module's .nv.constant3 bytes (cvta.const, ptxas
 * 11.8's generic loads of constant data). An ST there is a fault.
 *
 * 32-bit cubins (no EF_CUDA_64BIT_ADDRESS): a pointer is a 4-byte
 * parameter, so every 4-byte parameter holds the base of a buffer, as
 * every 8-byte one does in 64-bit code (sim_main.c). A 32-bit kernel
 * whose 4-byte parameter is a count runs with that base as the count. */
#include "sim.h"

#include <string.h>

void sim_const_window_set(SimMachine *m)
{
	uint64_t base = SIM_CONST_WINDOW;
	memcpy(m->cbank[0] + SASS_CONST_WINDOW_CWORD, &base, 8);
}

uint8_t *sim_const_window(SimMachine *m, const SimInsn *in, uint64_t off, uint32_t n, bool store)
{
	if (store) {
		sim_fail(m, in, "%u-byte store into the constant window at +0x%llx", n, (unsigned long long)off);
		return NULL;
	}
	if (off % n || off >= m->cbank_size[3] || m->cbank_size[3] - off < n) {
		sim_fail(m, in, "%u-byte access at +0x%llx of the constant window is outside .nv.constant3's "
		         "%u bytes or misaligned", n, (unsigned long long)off, m->cbank_size[3]);
		return NULL;
	}
	return m->cbank[3] + off;
}

bool sim_param_is_buffer(const CubinImage *img, uint32_t size)
{
	return size == 8 || (size == 4 && !img->address64);
}
