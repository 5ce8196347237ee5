/* How an sm_50 kernel finds its launch data in constant bank 0, as the CUDA
 * driver lays it out and ptxas 11.8 addresses it: c[0x0][0x0 .. 0x13f]
 * belongs to the driver (launch dimensions and the like), the kernel's
 * parameters follow in declaration order, and after them, 4-byte aligned,
 * the surface header slots ptxas allocates (one per bound .surfref, in
 * order of first use). The lowering, the SASS text assembler and the cubin
 * writer all read this one description. */
#ifndef PTXSURF_SASS_ABI_H
#define PTXSURF_SASS_ABI_H

#include <stddef.h>
#include <stdint.h>

/* c[0x0][0x0 .. 0x13f] belongs to the driver; kernel parameters follow. */
#define SASS_PARAM_CBANK_BASE 0x140u
/* The driver's words in c[0x0] that generic addresses are built from:
 * the top bytes of the shared and local windows (high word 0), and the
 * 64-bit base of the constant window (c[0x0][0xd0], high word at 0xd4),
 * where the generic address of c[0x3][off] is base + off (ptxas 11.8's
 * cvta.const, isspacep.const). */
#define SASS_SHARED_WINDOW_CWORD 0x0u
#define SASS_LOCAL_WINDOW_CWORD 0x4u
#define SASS_CONST_WINDOW_CWORD 0xd0u

/* issue 15: bytes of the CRS (call/reconvergence) stack one level of CAL
 * nesting takes: ptxas 11.8 records EIATTR_CRS_STACK_SIZE 0x10, 0x20, 0x30
 * for call chains 1, 2 and 3 deep (kernels without SSY). */
#define SASS_CRS_CALL_BYTES 16u
/* CRS stack bytes per nested SSY region: its SSY token and the DIV token of
 * a divergent branch inside it (ptxas 11.8 records 0x20 for one level) */
#define SASS_CRS_SSY_BYTES 0x20u
/* ptxas 11.8 -O0 records 0x210 bytes (33 tokens of 16) for a kernel with
 * a loop under SSY/PBK, whatever the nesting: a divergent back edge can
 * push a DIV token per iteration, up to one per lane */
#define SASS_CRS_LOOP_BYTES 0x210u
/* ptxas 11.8 (-c or not) records 0x200 bytes (32 tokens of 16, one per
 * lane) and 0x10 per SSY region around it for a kernel in which only some
 * threads of a warp may call a function it does not link in (`if (tid ==
 * 0) printf(...)`, a device-side launch, an external function): measured
 * 0x200, 0x210, 0x220 for zero, one and two regions; none when every
 * thread calls */
#define SASS_CRS_DIVERGENT_CALL_BYTES 0x200u
#define SASS_CRS_DIVERGENT_CALL_SSY_BYTES 0x10u
/* ...and, for a kernel calling a recursive function (depth unknown), the
 * CRS stack ptxas 11.8 records: 0x600 bytes (96 levels). */
#define SASS_CRS_RECURSIVE_BYTES 0x600u

/* One kernel parameter. Its ordinal is its index in the kernel's parameter
 * list (PTX declaration order). Names are not part of a cubin. */
typedef struct SassParam {
	uint32_t offset;   /* bytes from the start of the parameter area (c[0x0][0x140]) */
	uint32_t size;     /* bytes */
} SassParam;

/* Bytes of the parameter area: the end of the furthest parameter. */
uint32_t sass_param_bytes(const SassParam *params, size_t nparams);

/* Byte offset in c[0x0] of a kernel's first surface slot, as ptxas lays it
 * out: align4(0x140 + param bytes). */
uint32_t sass_first_slot_offset(const SassParam *params, size_t nparams);

#endif
