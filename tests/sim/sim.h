/* A functional simulator of sm_50 machine code for the differential tests
 * (docs/simulator.md). It loads a kernel of a cubin -- ours or ptxas's --
 * and runs it over a small grid: blocks of threads in warps of 32, each
 * thread with its own registers, predicates and carry flag; constant banks
 * laid out as the driver lays them out; global buffers and surfaces as
 * typed arrays. Words are decoded with the one form table
 * (sm50/sass_table.h); a word no form matches, or a form or modifier the
 * simulator does not model, stops the run with a message naming it, so an
 * unknown instruction can never pass silently.
 *
 * Test-only code: nothing in src/ depends on it. */
#ifndef PTXSURF_TEST_SIM_H
#define PTXSURF_TEST_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emit/cubin_read.h"
#include "sm50/sass_ctrl.h"
#include "sm50/sass_encode.h"

enum {
	SIM_WARP = 32,
	SIM_MAX_BLOCK_THREADS = 1024,
	SIM_MAX_REGIONS = 320,      /* a region per .global variable: gpuocelot's unstructured complex has 83 */
	SIM_NREGS = 255,            /* R0..R254; R255 is RZ */
	SIM_NPREDS = 7,             /* P0..P6; 7 is PT */
	SIM_CALL_DEPTH = 32,        /* issue 15: CAL nesting a thread may reach */
	SIM_CBANKS = 4,             /* c[0x0] .. c[0x3] */
	SIM_CBANK_BYTES = 0x10000,  /* c[0x0]: the 64 KiB bank (4 KiB of parameters from 0x140, then bound slots) */
	SIM_CBANK2_BYTES = 0x10000, /* c[0x2]: ptxas's constant pools, up to the 64 KiB bank (real code: 1,629 words) */
	SIM_CBANK3_BYTES = 0x10000, /* c[0x3]: a module's .const data, up to the whole 64 KiB bank */
	SIM_SYNC_DEPTH = 64,        /* SSY/PBK entries a thread may have pending */
};

/* issue 14: the address windows as the simulated driver lays them out
 * (sim_window.c): c[0x0][0x0] and c[0x0][0x4] hold the generic addresses
 * of the shared and local windows (16 MiB each, low 24 bits zero, away
 * from every buffer and the descriptor table); c[0x0][0x20] the initial
 * stack pointer, the top of each thread's local memory. */
#define SIM_SHARED_WINDOW 0xfe000000u
#define SIM_LOCAL_WINDOW 0xff000000u
/* issue 15: c[0x0][0xd0]'s generic address of c[0x3][0] (sim_addr32.c) */
#define SIM_CONST_WINDOW 0xfd000000u
enum {
	SIM_WINDOW_BYTES = 1 << 24,
	SIM_STACK_TOP = 0xfffc00,
	SIM_LOCAL_SLACK = 4096,     /* local bytes per thread beyond the kernel's frame */
	SIM_DYNAMIC_SHARED = 1024,  /* bytes of dynamic shared memory of a launch */
};

/* The driver's device functions a relocated JCAL may name (sim_extern.c). */
typedef enum SimExtern { SIM_EXT_NONE, SIM_EXT_VPRINTF, SIM_EXT_MALLOC, SIM_EXT_FREE, SIM_EXT_ASSERTFAIL } SimExtern;

/* One decoded instruction of the kernel's .text. */
typedef struct SimInsn {
	uint32_t addr;              /* byte offset in .text */
	uint64_t word;
	const SassForm *form;       /* NULL: no form of the table matches the word */
	SassValues v;
	SassCtrl ctrl;              /* its slot of the control word */
	uint8_t ext;                /* a JCAL of a driver function (SimExtern, sim_extern.c) */
} SimInsn;

/* A memory region the kernel may touch: a global buffer (base is its
 * device address) or a surface (base is its header index, the value a
 * bound slot or a bindless handle holds). Surfaces are 2D/3D arrays of
 * RGBA32UI texels, 16 bytes each: width_bytes per row, height rows,
 * depth layers (3D depth or array layers). */
typedef enum SimRegionKind { SIM_BUFFER, SIM_SURFACE, SIM_PRINTF_LOG } SimRegionKind;

typedef struct SimRegion {
	SimRegionKind kind;
	char name[48];
	uint64_t base;
	uint64_t size;
	uint32_t width_bytes, height, depth;    /* surfaces only */
	uint8_t *bytes;
	uint32_t *writer;           /* per byte: 1 + global thread id of the last writer, 0 none */
	/* a sparse region (larger than SIM_SPARSE_MIN_BYTES: a 4.5 GiB module
	 * variable): bytes and writer are mapped lazily (the OS's zero pages),
	 * and one bit per SIM_SPARSE_CHUNK bytes records the chunks written,
	 * the only ones the output hashes; NULL: a dense region */
	uint8_t *touched;
	/* sim5: a module variable is output only when the run wrote it (its
	 * initialiser may hold code addresses, which differ between cubins) */
	bool output_if_written;
} SimRegion;

enum { SIM_TEXEL_BYTES = 16 };
#define SIM_SPARSE_MIN_BYTES (240ull << 20)    /* the module-variable window (sim_globals.c) */
#define SIM_SPARSE_CHUNK (1ull << 16)

/* Launch shape and the options of a run. */
typedef struct SimLaunch {
	uint32_t grid[3], block[3];
	/* Two threads writing one byte is a data race: the result would
	 * depend on the order the simulator picked, so it fails the run. */
	bool fail_on_races;
	/* Model the control words' latency contract (sim_timing.c), and in it
	 * the in-order pipes ptxas relies on (off: the static verifier's
	 * stricter model). */
	bool timing;
	bool pipe_order;
	uint64_t max_steps;         /* warp instruction issues per block; 0: a default */
	bool trace;                 /* every issue to stderr: address, control slot, form,
	                             * lanes whose guard was on */
	/* >= 0: only the thread with this id in the grid runs (the others
	 * exit at once), for kernels where every thread writes one place */
	int64_t only_thread;
} SimLaunch;

typedef struct SimTiming SimTiming;

/* Everything a run reads and writes. */
typedef struct SimMachine {
	/* the program */
	const char *kernel;
	SimInsn *insns;
	size_t ninsns;
	uint32_t *section_base;     /* sim_link.c: where each code section of the image is loaded (or NULL) */
	uint32_t regcount;
	/* memory */
	uint8_t cbank[SIM_CBANKS][SIM_CBANK3_BYTES];
	uint32_t cbank_size[SIM_CBANKS];
	SimRegion regions[SIM_MAX_REGIONS];
	size_t nregions;
	/* the launch being run */
	SimLaunch launch;
	uint32_t ctaid[3];
	uint64_t steps;
	SimTiming *timing;          /* the running warp's state (one of timing_states) */
	SimTiming *timing_states;
	/* SHFL: the source register of every lane of the issuing warp, read
	 * before any lane writes (a lane that is not at the SHFL, or has
	 * exited, gives what its register holds: PTX leaves it undefined) */
	uint32_t shfl_src[SIM_WARP];
	/* VOTE: the lanes of the issuing warp that run it, and those of them
	 * whose predicate source holds (sim_run.c reads them for every lane
	 * before any lane writes) */
	uint32_t vote_active, vote_ballot;
	/* issue 14: shared, local and generic memory (sim_window.c). Shared
	 * memory is the block's: the cubin's static size plus
	 * SIM_DYNAMIC_SHARED bytes of dynamic shared memory; writer records
	 * a byte's last writer since the last barrier (race detection). Local
	 * memory is every thread's own local_size bytes below SIM_STACK_TOP. */
	uint32_t shared_static, frame_size;
	uint8_t *shared;
	uint32_t *shared_writer;
	uint32_t shared_size;
	uint8_t *local;
	uint32_t local_size, block_threads;
	/* set by a BAR the running warp executed: the barrier, the thread
	 * count (0: the whole block) and whether the warp only arrives
	 * (BAR.ARV) or waits (BAR.SYNC) */
	bool at_barrier, barrier_arrive;
	int64_t barrier_id, barrier_count;
	/* ctrl: BAR.RED's count of the barrier being reached, and the last
	 * released one's that B2R.RESULT reads (sim_branch.c) */
	struct {
		uint32_t arrived, count, result, result_arrived;
		int64_t op, result_op;
		bool has_result;
	} red;
	/* sim5: vprintf's output (sim_printf.c), NULL when the kernel calls none */
	SimRegion *printf_log;
	uint32_t printf_used;
	/* malloc's heap (sim_extern.c), NULL when the kernel calls none; per
	 * thread, the bytes of its slot handed out so far */
	SimRegion *heap;
	uint32_t *heap_used;
	/* the first failure; the run stops at it */
	bool failed;
	char error[600];
} SimMachine;

typedef enum SimThreadState { SIM_RUNNING, SIM_EXITED } SimThreadState;

typedef struct SimThread {
	uint32_t r[SIM_NREGS];
	bool p[SIM_NPREDS];
	/* condition code: zero, sign, carry, overflow; c_hi is the second bit
	 * of the carry a three-term IADD3.CC leaves (a carry of 2); co_unknown:
	 * the last writer (I2I.CC, LOP.CC) set only zero and sign, so a test of
	 * carry or overflow is not modelled */
	struct { bool z, s, c, o, c_hi, co_unknown; } cc;
	uint32_t tid[3];
	uint32_t lane, flat;        /* lane in the warp; thread id in the grid */
	size_t pc;                  /* index into SimMachine.insns */
	SimThreadState state;
	/* issue 15: the return addresses CAL pushed (instruction indices) */
	size_t calls[SIM_CALL_DEPTH];
	unsigned ncalls;
	/* The reconvergence stack: per SSY or PBK executed and not yet left,
	 * its target (an index into insns) and whether it was a PBK. */
	uint32_t sync_target[SIM_SYNC_DEPTH];
	bool sync_is_break[SIM_SYNC_DEPTH];
	unsigned sync_depth;
	/* Scheduling as semantics (sim_timing.c): per register, predicate and
	 * the CC, 0 when the value is sound, else the instruction pair that
	 * made it poison: producer address << 16 | early reader address. */
	uint32_t poison[SIM_NREGS + SIM_NPREDS + 1];
} SimThread;

/* ---- sim_load.c ---- */
/* Prepares *m for kernel `kernel` (NULL: the only entry) of the cubin image:
 * decodes its code, applies the descriptor-size relocations, fills
 * c[0x2] from .nv.constant2. Returns 0, or -1 with m->error set. */
int sim_load(SimMachine *m, const CubinImage *img, const char *kernel);
void sim_free(SimMachine *m);
/* Decodes the size bytes of code (control words and instructions) into
 * insns, the first at .text offset base + 8. */
void sim_decode_code(SimInsn *insns, const uint8_t *code, size_t size, uint32_t base);
/* The MOV32I at .text offset off gets the size of a descriptor of kind
 * (CubinDescKind; R_CUDA_ABS32_20). */
int sim_patch_desc_size(SimMachine *m, uint32_t off, uint8_t kind);
/* sim5 (sim_link.c): the module's other code sections after the kernel's,
 * its JCALs of functions in them linked. */
int sim_link_sections(SimMachine *m, const CubinImage *img, const CubinReadKernel *rk);
/* -c: each of k's pool operands (const2_refs) gets c[0x2][its offset]. */
int sim_link_const2(SimMachine *m, const CubinKernel *k);

/* ---- sim_state.c: what every instruction family reads ---- */
/* Stops the run with a message naming the instruction (printf format). */
bool sim_fail(SimMachine *m, const SimInsn *in, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
uint32_t sim_reg(const SimThread *t, int64_t r);
void sim_set(SimThread *t, int64_t r, uint32_t v);
bool sim_pred(const SimThread *t, int64_t p, bool negate);
int64_t sim_val(const SimInsn *in, SassRole r, int64_t dflt);
uint32_t sim_cword(SimMachine *m, const SimInsn *in, unsigned bank, int64_t byte_off);
/* Operand B of an ALU form: register, constant or immediate as encoded. */
uint32_t sim_operand_b(SimMachine *m, const SimInsn *in, const SimThread *t);

/* ---- sim_memory.c ---- */
/* Adds a region of `size` bytes (zeroed; sparse past SIM_SPARSE_MIN_BYTES);
 * NULL with m->error when full or out of memory. */
SimRegion *sim_add_region(SimMachine *m, SimRegionKind kind, const char *name, uint64_t base,
                          uint64_t size);
void sim_region_free(SimRegion *r);
/* Marks [off, off+n) of a sparse region written (nothing for a dense one). */
void sim_region_touch(SimRegion *r, uint64_t off, uint64_t n);
/* The bytes [addr, addr+n) of global memory, or NULL (and m->error set)
 * when they are not inside one buffer or are misaligned. */
uint8_t *sim_global(SimMachine *m, const SimInsn *in, uint64_t addr, uint32_t n);
/* Records a write of [p, p+n) of region r by thread t (race detection). */
void sim_note_write(SimMachine *m, const SimInsn *in, SimRegion *r, const uint8_t *p, uint32_t n,
                    const SimThread *t);
SimRegion *sim_surface(SimMachine *m, const SimInsn *in, uint32_t handle);
/* The region whose bytes p points into, or NULL. */
SimRegion *sim_region_of(SimMachine *m, const uint8_t *p);
/* Records a write of [off, off+n) of a race record (what names it) by
 * thread t; atomic writes of two threads do not conflict (sim_memory.c). */
void sim_note_record(SimMachine *m, const SimInsn *in, const char *what, uint32_t *writer,
                     size_t off, uint32_t n, const SimThread *t, bool atomic);
/* Bytes of an access of the encoded size (U8 S8 U16 S16 32 64 128). */
uint32_t sim_access_bytes(int64_t size);
/* Registers rd.. from the n bytes at p (sign-extending S8/S16), and the
 * bytes of registers rb.. into p. */
void sim_load_regs(SimThread *t, int64_t rd, const uint8_t *p, int64_t size);
void sim_store_regs(const SimThread *t, int64_t rb, uint8_t *p, uint32_t n);
/* old op d for the reduction ops ADD MIN MAX INC DEC AND OR XOR (signed
 * min/max with sg, 64-bit with wide), as SURED, RED and ATOM do them. */
uint64_t sim_reduce(int64_t op, bool sg, bool wide, uint64_t old, uint64_t d);

/* ---- sim_window.c: shared, local and generic memory (issue 14) ---- */
/* Sizes and zeroes the block's shared and local memory before it runs. */
int sim_window_block(SimMachine *m, uint32_t nthreads);
/* A barrier orders every access before it: the race records restart. */
void sim_window_barrier(SimMachine *m);
/* The bytes [addr, addr+n) of a generic address for thread t: in the
 * shared or the local window, else global memory; NULL and a failure
 * outside them or misaligned. *region is the global buffer (NULL for the
 * windows), *writer the shared race record (NULL elsewhere). */
uint8_t *sim_generic(SimMachine *m, const SimInsn *in, const SimThread *t, uint64_t addr,
                     uint32_t n, SimRegion **region, uint32_t **writer);
uint8_t *sim_shared(SimMachine *m, const SimInsn *in, uint64_t off, uint32_t n, uint32_t **writer);

/* ---- sim_addr32.c: the constant window, 32-bit parameters (issue 15) ---- */
/* c[0x0][0xd0..0xd7] = SIM_CONST_WINDOW, as the driver sets it. */
void sim_const_window_set(SimMachine *m);
/* c[0x3][off .. off+n) through the constant window; a store, or bytes
 * past .nv.constant3, is a failure (NULL). */
uint8_t *sim_const_window(SimMachine *m, const SimInsn *in, uint64_t off, uint32_t n, bool store);
/* A parameter of `size` bytes is a buffer's base: 8 bytes, or 4 in a
 * 32-bit cubin. */
bool sim_param_is_buffer(const CubinImage *img, uint32_t size);
bool sim_exec_window(SimMachine *m, const SimInsn *in, SimThread *t);
void sim_window_free(SimMachine *m);

/* ---- sim_atom.c: atomics, reductions, VOTE, CS2R (issue 14) ---- */
bool sim_exec_atom(SimMachine *m, const SimInsn *in, SimThread *t);
/* The deterministic clock and global timer values (S2R and CS2R). */
uint32_t sim_clock_value(const SimThread *t, int64_t sreg);

/* ---- sim_run.c ---- */
/* Runs the loaded kernel over launch l. Returns 0, or -1 with m->error. */
int sim_run(SimMachine *m, const SimLaunch *l);

/* ---- the instruction families; each returns false when it does not
 * know in->form's op, and sets m->failed on an unmodelled modifier ---- */
bool sim_exec_int(SimMachine *m, const SimInsn *in, SimThread *t);
bool sim_exec_float(SimMachine *m, const SimInsn *in, SimThread *t);
bool sim_exec_mem(SimMachine *m, const SimInsn *in, SimThread *t);
bool sim_exec_conversion(SimMachine *m, const SimInsn *in, SimThread *t);   /* sim_convert.c */
bool sim_exec_double(SimMachine *m, const SimInsn *in, SimThread *t);       /* sim_double.c */
bool sim_exec_sfu(SimMachine *m, const SimInsn *in, SimThread *t);          /* sim_sfu.c */
bool sim_exec_bits(SimMachine *m, const SimInsn *in, SimThread *t);         /* sim_bits.c */
/* One operand of a video form: the part its format selects (bytes 0-3,
 * halves 4-5, the word 6), sign-extended when the format has 8 added
 * (sim_bits.c). */
int64_t sim_video_part(uint32_t r, int64_t fmt);
bool sim_exec_video(SimMachine *m, const SimInsn *in, SimThread *t);        /* sim_video.c (video2) */
bool sim_exec_mul(SimMachine *m, const SimInsn *in, SimThread *t);          /* sim_mul.c */
bool sim_exec_fchk(SimMachine *m, const SimInsn *in, SimThread *t);         /* sim_fchk.c (divrn) */
/* The condition code of a + b (+ carry when extended) = sum (sim_int.c). */
void sim_set_cc(SimThread *t, uint32_t a, uint32_t b, uint64_t sum, bool extended);
void sim_set_cc_result(SimThread *t, uint32_t r);
void sim_set_test_preds(SimThread *t, const SimInsn *in, bool r);
bool sim_exec_tex(SimMachine *m, const SimInsn *in, SimThread *t);          /* sim_tex.c */
/* sim5 (sim_tex_args.c): the .AOFFI texel offsets of TEX/TLD/TLD4/TXD
 * (off[0..ncoords), 0 without .AOFFI), read from the register the form
 * keeps them in; the compact forms' source registers. */
void sim_tex_offsets(const SimInsn *in, const SimThread *t, int32_t off[3], unsigned ncoords);
/* The signed texel offsets of word w: fields of `bits` bits (4: x 3:0,
 * y 7:4, z 11:8; 6 (TLD4): x 5:0, y 13:8). */
void sim_tex_offset_word(uint32_t w, unsigned bits, int32_t off[3], unsigned ncoords);
void sim_texs_sources(const SimInsn *in, unsigned n, bool tlds_array, int64_t src[4]);
/* Depth compare (.DC): TEX/TLD4's reference in Rb after the handle, the
 * level and the offsets word; each result component becomes 1.0f when the
 * reference is <= that texel word (as a float), else 0.0f. */
uint32_t sim_tex_depth_ref(const SimInsn *in, const SimThread *t);
void sim_tex_depth_compare(uint32_t ref, uint32_t comp[4]);
/* ---- int64: I2I.CC, CSETP, P2R/R2P of the condition code (sim_int64.c) ---- */
bool sim_exec_int64(SimMachine *m, const SimInsn *in, SimThread *t);
/* A condition-code test of BRA/CSETP (e_cond's numbering) on the integer
 * CC: 1 true, 0 false, -1 not modelled (sim_run.c). */
int sim_cc_test(const SimThread *t, int64_t cond);
/* fnptr: ptxas's PRET and BRX (sim_jmx.c); false when the op is neither. */
bool sim_exec_indirect(SimMachine *m, const SimInsn *in, SimThread *t, size_t *next);
/* The instruction index thread t's BRX jumps to; false after a failure
 * (sim_jmx.c; the CRS model of sim_run.c splits the warp by targets). */
bool sim_brx_target(SimMachine *m, const SimInsn *in, const SimThread *t, size_t *index);
/* The instruction index of a .text byte offset (a control word's offset:
 * its group's first instruction). */
size_t sim_code_index(uint32_t addr);
/* ---- sim5: module .global variables (sim_globals.c) and the driver's
 * vprintf (sim_printf.c), set up after the launch's inputs ---- */
int sim_load_globals(SimMachine *m, const CubinImage *img, const CubinKernel *k);
int sim_load_externs(SimMachine *m, const CubinImage *img, const CubinKernel *k);
bool sim_exec_extern(SimMachine *m, const SimInsn *in, SimThread *t);
/* vprintf(R4:R5 format, R6:R7 arguments) -> R4 (sim_printf.c); the launch
 * has a printf log once sim_printf_log made it */
void sim_vprintf(SimMachine *m, const SimInsn *in, SimThread *t);
bool sim_printf_log(SimMachine *m);
/* A NUL-terminated string at a generic address into s (up to n bytes);
 * false (m failed) when it is not readable or longer (sim_printf.c) */
bool sim_read_string(SimMachine *m, const SimInsn *in, const SimThread *t, uint64_t addr, char *s, size_t n);
/* ---- ctrl: sim_branch.c: BAR.RED and B2R ---- */
bool sim_exec_branch(SimMachine *m, const SimInsn *in, SimThread *t);
/* The block passes a barrier: the reduction counted at it becomes B2R's. */
void sim_branch_barrier(SimMachine *m);

#endif
