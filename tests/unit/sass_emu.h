/* A one-thread interpreter of decoded sm_50 words for the back-end unit
 * tests (test_lower.c): it runs what the encoder emitted so the tests can
 * check the computed values. Test-only; included by one test file. */
#ifndef PTXSURF_TEST_SASS_EMU_H
#define PTXSURF_TEST_SASS_EMU_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "sm50/sass_encode.h"
#include "sm50/sass_table.h"

/* A little-endian 64-bit word of the instruction stream. */
static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int b = 7; b >= 0; b--)
		v = v << 8 | p[b];
	return v;
}

/* A one-thread interpreter of the decoded sm_50 words, following the
 * semantics the lowering assumes (maxas/envytools descriptions of XMAD,
 * IADD carries, clamped shifts). It checks that the emitted sequences
 * compute what the PTX says, for chosen parameter values: the hardware
 * semantics themselves can only be checked on a Maxwell GPU. */
enum { EMU_MEM = 4096, EMU_MEM_BASE = 0x10000, EMU_SURF = 4096, EMU_SURF_W = 64, EMU_SURF_H = 16 };

typedef struct Emu {
	uint32_t r[256];
	bool p[8];
	uint32_t cc;
	uint8_t cbank[0x400];
	uint8_t mem[EMU_MEM];
	uint8_t surf[4][EMU_SURF];
	uint32_t tid[3], ctaid[3];
} Emu;

static uint32_t emu_reg(const Emu *e, int64_t r) { return r == 255 ? 0 : e->r[r]; }
static void emu_set(Emu *e, int64_t r, uint32_t v) { if (r != 255) e->r[r] = v; }
static bool emu_pred(const Emu *e, int64_t p) { return p == 7 ? true : e->p[p]; }

static uint32_t cword(const Emu *e, uint32_t off)
{
	uint32_t v;
	memcpy(&v, e->cbank + off, 4);
	return v;
}

/* Operand B of an ALU form: register, constant or sign-extended immediate. */
static uint32_t emu_b(const Emu *e, const SassForm *f, const SassValues *v)
{
	switch (f->bkind) {
	case SASS_B_REG: return emu_reg(e, sass_values_get(v, SR_RB, 255));
	case SASS_B_CONST: return cword(e, 4 * (uint32_t)sass_values_get(v, SR_COFF, 0));
	default: return (uint32_t)sass_values_get(v, SR_IMM, 0);
	}
}

static uint8_t *surf_cell(Emu *e, const SassValues *v, uint32_t idx, uint32_t bytes)
{
	int64_t ra = sass_values_get(v, SR_RA, 255), geom = sass_values_get(v, SR_GEOM, 0);
	uint32_t x = emu_reg(e, ra), y = 0, z = 0;
	if (geom == 3 || geom == 4 || geom == 5)
		y = emu_reg(e, ra + 1);
	if (geom == 2)
		z = emu_reg(e, ra + 1);
	if (geom == 4 || geom == 5)
		z = emu_reg(e, ra + 2);
	if (!sass_values_get(v, SR_BA, 1))
		x *= 4;     /* element addressing of 32-bit texels */
	uint32_t off = x + y * EMU_SURF_W + z * EMU_SURF_W * EMU_SURF_H;
	ck_assert_uint_le(off + bytes, EMU_SURF);
	return e->surf[idx % 4] + off;
}

static uint32_t size_bytes(int64_t size)
{
	static const uint32_t b[] = { 1, 1, 2, 2, 4, 8, 16 };
	return b[size];
}

static int64_t sext(uint32_t v, unsigned bits)
{
	return bits >= 32 ? (int32_t)v : (int32_t)(v << (32 - bits)) >> (32 - bits);
}

#include "sass_emu_float.h"
#include "sass_emu_fam.h"

static void emu_run(Emu *e, const uint8_t *code, size_t len)
{
	size_t pc = 8, steps = 0;
	while (pc < len) {
		ck_assert_uint_lt(++steps, 100000);
		uint64_t w = le64(code + pc);
		SassValues v;
		const SassForm *f = sass_decode(w, &v);
		ck_assert_ptr_nonnull(f);
		size_t next = pc + 8;
		if (next % 32 == 0)
			next += 8;
		bool guard = emu_pred(e, sass_values_get(&v, SR_PG, 7)) != (bool)sass_values_get(&v, SR_PG_NOT, 0);
		if (!guard) {
			pc = next;
			continue;
		}
		int64_t rd = sass_values_get(&v, SR_RD, 255), ra = sass_values_get(&v, SR_RA, 255);
		uint32_t a = emu_reg(e, ra), b;
		switch (f->op) {
		case SOP_MOV:
			emu_set(e, rd, emu_b(e, f, &v));
			break;
		case SOP_MOV32I:
			emu_set(e, rd, (uint32_t)sass_values_get(&v, SR_IMM, 0));
			break;
		case SOP_S2R: {
			int64_t sr = sass_values_get(&v, SR_SREG, 0);
			emu_set(e, rd, sr >= 0x21 && sr <= 0x23 ? e->tid[sr - 0x21] :
			               sr >= 0x25 && sr <= 0x27 ? e->ctaid[sr - 0x25] : 0);
			break;
		}
		case SOP_LDC: {
			int64_t size = sass_values_get(&v, SR_SIZE, 4);
			uint32_t off = a + (uint32_t)sass_values_get(&v, SR_COFF, 0), val = 0;
			memcpy(&val, e->cbank + off, size_bytes(size) > 4 ? 4 : size_bytes(size));
			if (size == 1 || size == 3)
				val = (uint32_t)sext(val, size == 1 ? 8 : 16);
			emu_set(e, rd, val);
			break;
		}
		case SOP_IADD: case SOP_IADD32I: {
			b = f->op == SOP_IADD32I ? (uint32_t)sass_values_get(&v, SR_IMM, 0) : emu_b(e, f, &v);
			int64_t neg = f->op == SOP_IADD32I && sass_values_get(&v, SR_NEGA, 0) ? 2 : sass_values_get(&v, SR_NEG, 0);
			bool x = sass_values_get(&v, SR_X, 0);
			uint64_t cin = x ? e->cc : 0;
			if (neg == 1) { b = ~b; cin = x ? e->cc : 1; }
			if (neg == 2) { a = ~a; cin = x ? e->cc : 1; }
			uint64_t sum = (uint64_t)a + b + cin;
			if (sass_values_get(&v, SR_SAT, 0)) {
				int64_t ss = (int64_t)(int32_t)emu_reg(e, ra) + (int32_t)(neg == 1 ? -(int64_t)(int32_t)~b : (int32_t)b);
				sum = ss > INT32_MAX ? INT32_MAX : ss < INT32_MIN ? (uint32_t)INT32_MIN : (uint32_t)ss;
			}
			if (sass_values_get(&v, SR_CC, 0))
				e->cc = (uint32_t)(sum >> 32) & 1;
			emu_set(e, rd, (uint32_t)sum);
			break;
		}
		case SOP_SHL: case SOP_SHR: {
			b = emu_b(e, f, &v);
			uint32_t r;
			if (f->op == SOP_SHL)
				r = b >= 32 ? 0 : a << b;
			else if (sass_values_get(&v, SR_SIGNED, 0))
				r = (uint32_t)((int32_t)a >> (b >= 32 ? 31 : b));
			else
				r = b >= 32 ? 0 : a >> b;
			emu_set(e, rd, r);
			break;
		}
		case SOP_LOP: case SOP_LOP32I: {
			b = f->op == SOP_LOP32I ? (uint32_t)sass_values_get(&v, SR_IMM, 0) : emu_b(e, f, &v);
			if (sass_values_get(&v, SR_INVA, 0)) a = ~a;
			if (sass_values_get(&v, SR_INVB, 0)) b = ~b;
			int64_t op = sass_values_get(&v, SR_LOPOP, 0);
			emu_set(e, rd, op == 0 ? (a & b) : op == 1 ? (a | b) : op == 2 ? (a ^ b) : b);
			break;
		}
		case SOP_ISETP: {
			b = emu_b(e, f, &v);
			bool sg = sass_values_get(&v, SR_SIGNED, 0);
			int64_t x = sg ? (int32_t)a : (int64_t)a, y = sg ? (int32_t)b : (int64_t)b;
			bool r;
			switch (sass_values_get(&v, SR_CMP, 0)) {
			case 1: r = x < y; break;
			case 2: r = x == y; break;
			case 3: r = x <= y; break;
			case 4: r = x > y; break;
			case 5: r = x != y; break;
			case 6: r = x >= y; break;
			case 7: r = true; break;
			default: r = false; break;
			}
			bool c = emu_pred(e, sass_values_get(&v, SR_PC, 7)) != (bool)sass_values_get(&v, SR_PC_NOT, 0);
			int64_t bop = sass_values_get(&v, SR_BOP, 0);
			bool pd = bop == 0 ? (r && c) : bop == 1 ? (r || c) : (r != c);
			bool pq = bop == 0 ? (!r && c) : bop == 1 ? (!r || c) : (!r != c);
			int64_t d = sass_values_get(&v, SR_PD, 7), q = sass_values_get(&v, SR_PQ, 7);
			if (d != 7) e->p[d] = pd;
			if (q != 7) e->p[q] = pq;
			break;
		}
		case SOP_PSETP: {
			/* Pd = (a bop b) bop2 c, Pq = (!a bop b) bop2 c */
			bool pa = emu_pred(e, sass_values_get(&v, SR_PA, 7)) != (bool)sass_values_get(&v, SR_PA_NOT, 0);
			bool pb = emu_pred(e, sass_values_get(&v, SR_PB, 7)) != (bool)sass_values_get(&v, SR_PB_NOT, 0);
			bool pc = emu_pred(e, sass_values_get(&v, SR_PC, 7)) != (bool)sass_values_get(&v, SR_PC_NOT, 0);
			int64_t bop = sass_values_get(&v, SR_BOP, 0), bop2 = sass_values_get(&v, SR_BOP2, 0);
			bool r = bop == 0 ? (pa && pb) : bop == 1 ? (pa || pb) : (pa != pb);
			bool rq = bop == 0 ? (!pa && pb) : bop == 1 ? (!pa || pb) : (!pa != pb);
			bool pd = bop2 == 0 ? (r && pc) : bop2 == 1 ? (r || pc) : (r != pc);
			bool pq = bop2 == 0 ? (rq && pc) : bop2 == 1 ? (rq || pc) : (rq != pc);
			int64_t d = sass_values_get(&v, SR_PD, 7), q = sass_values_get(&v, SR_PQ, 7);
			if (d != 7) e->p[d] = pd;
			if (q != 7) e->p[q] = pq;
			break;
		}
		case SOP_XMAD: {
			b = f->bkind == SASS_B_IMM ? (uint32_t)sass_values_get(&v, SR_IMM, 0) : emu_b(e, f, &v);
			ck_assert_msg(strcmp(f->name, "XMAD_RC") != 0, "XMAD_RC is not modelled");
			uint32_t cval = emu_reg(e, sass_values_get(&v, SR_RC, 255));
			uint32_t a16 = sass_values_get(&v, SR_HA, 0) ? a >> 16 : a & 0xffff;
			uint32_t b16 = sass_values_get(&v, SR_HB, 0) ? b >> 16 : b & 0xffff;
			int64_t x = sass_values_get(&v, SR_SA, 0) ? (int16_t)a16 : (int64_t)a16;
			int64_t y = sass_values_get(&v, SR_SB, 0) ? (int16_t)b16 : (int64_t)b16;
			uint32_t prod = (uint32_t)(x * y);
			if (sass_values_get(&v, SR_PSL, 0))
				prod <<= 16;
			int64_t cm = sass_values_get(&v, SR_CMODE, 0);
			if (cm == 1) cval &= 0xffff;
			if (cm == 2) cval >>= 16;
			if (cm == 4) cval += b << 16;
			uint32_t r = prod + cval;
			if (sass_values_get(&v, SR_MRG, 0))
				r = (r & 0xffff) | (b << 16);
			emu_set(e, rd, r);
			break;
		}
		case SOP_BRA:
			next = (size_t)((int64_t)pc + 8 + sass_values_get(&v, SR_IMM, 0));
			break;
		case SOP_EXIT:
			return;
		case SOP_STG: {
			uint64_t addr = a;
			if (sass_values_get(&v, SR_E, 0))
				addr |= (uint64_t)emu_reg(e, ra + 1) << 32;
			addr += (uint64_t)sass_values_get(&v, SR_IMM, 0);
			uint32_t n = size_bytes(sass_values_get(&v, SR_SIZE, 4));
			ck_assert(addr >= EMU_MEM_BASE && addr + n <= EMU_MEM_BASE + EMU_MEM);
			int64_t rb = sass_values_get(&v, SR_RB, 255);
			for (uint32_t i = 0; i < n; i++)
				e->mem[addr - EMU_MEM_BASE + i] = (uint8_t)(emu_reg(e, rb + i / 4) >> (8 * (i % 4)));
			break;
		}
		case SOP_LDG: {
			uint64_t addr = a;
			if (sass_values_get(&v, SR_E, 0))
				addr |= (uint64_t)emu_reg(e, ra + 1) << 32;
			addr += (uint64_t)sass_values_get(&v, SR_IMM, 0);
			int64_t size = sass_values_get(&v, SR_SIZE, 4);
			uint32_t n = size == 7 ? 16 : size_bytes(size);
			ck_assert(addr >= EMU_MEM_BASE && addr + n <= EMU_MEM_BASE + EMU_MEM);
			uint32_t words[4] = { 0, 0, 0, 0 };
			memcpy(words, e->mem + (addr - EMU_MEM_BASE), n);
			if (size == 1 || size == 3)
				words[0] = (uint32_t)sext(words[0], size == 1 ? 8 : 16);
			for (uint32_t i = 0; i < (n + 3) / 4; i++)
				emu_set(e, rd + i, words[i]);
			break;
		}
		case SOP_SUST_D: case SOP_SULD_D: case SOP_SURED_D: case SOP_SUST_P: {
			uint32_t idx = sass_values_has(&v, SR_SUIDX) ? (uint32_t)sass_values_get(&v, SR_SUIDX, 0)
			                                             : emu_reg(e, sass_values_get(&v, SR_RC, 255));
			int64_t rb = f->op == SOP_SULD_D ? rd : sass_values_get(&v, SR_RB, 255);
			uint32_t n = f->op == SOP_SURED_D ? 4 : f->op == SOP_SUST_P
				? 4 * (uint32_t)__builtin_popcountll(sass_values_get(&v, SR_RGBA, 1))
				: size_bytes(sass_values_get(&v, SR_SIZE, 4));
			uint8_t *cell = surf_cell(e, &v, idx, n);
			if (f->op == SOP_SURED_D) {
				uint32_t old, d = emu_reg(e, rb);
				memcpy(&old, cell, 4);
				int64_t op = sass_values_get(&v, SR_SUOP, 0);
				bool sg = sass_values_get(&v, SR_SUTYPE, 0) != 0;
				uint32_t mn = sg ? ((int32_t)old < (int32_t)d ? old : d) : (old < d ? old : d);
				uint32_t mx = sg ? ((int32_t)old > (int32_t)d ? old : d) : (old > d ? old : d);
				uint32_t nv = op == 0 ? old + d : op == 1 ? mn : op == 2 ? mx : op == 5 ? (old & d) : (old | d);
				memcpy(cell, &nv, 4);
			} else if (f->op == SOP_SULD_D) {
				for (uint32_t i = 0; i < (n + 3) / 4; i++)
					emu_set(e, rb + i, 0);
				for (uint32_t i = 0; i < n; i++)
					e->r[rb + i / 4] |= (uint32_t)cell[i] << (8 * (i % 4));
			} else {
				for (uint32_t i = 0; i < n; i++)
					cell[i] = (uint8_t)(emu_reg(e, rb + i / 4) >> (8 * (i % 4)));
			}
			break;
		}
		case SOP_TXQ: case SOP_TXQ_B:
			emu_set(e, rd, sass_values_get(&v, SR_QMASK, 1) == 1 ? EMU_SURF_W : EMU_SURF_H);
			break;
		default:
			if (!emu_fam_op(e, f, &v) && !emu_float_op(e, f, &v))
				ck_abort_msg("the interpreter does not model %s", f->name);
		}
		pc = next;
	}
	ck_abort_msg("ran off the end of the code");
}

#endif
