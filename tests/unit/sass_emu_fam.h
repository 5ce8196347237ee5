/* Issue 17's integer families for the test interpreter (sass_emu.h):
 * POPC, FLO, PRMT (default mode), BFE (.BREV), BFI, IADD3 (.RS), I2I with
 * |x| and -|x|, the MUFU.RCP reciprocal and I2F with round-up (.RP), as
 * the div/rem and bit-operation sequences use them. Test-only; included by
 * sass_emu.h after sass_emu_float.h. */
#ifndef PTXSURF_TEST_SASS_EMU_FAM_H
#define PTXSURF_TEST_SASS_EMU_FAM_H

/* Operand B of a form, with the RC layouts' register B (bits 46:39). */
static uint32_t fam_b(const Emu *e, const SassForm *f, const SassValues *v)
{
	return f->bkind == SASS_B_RC ? emu_reg(e, sass_values_get(v, SR_RB, 255)) : emu_b(e, f, v);
}

/* Operand C: a register, or the RC layouts' constant. */
static uint32_t fam_c(const Emu *e, const SassForm *f, const SassValues *v)
{
	if (f->bkind == SASS_B_RC) {
		ck_assert_msg(sass_values_get(v, SR_CBANK, 0) == 0, "%s: only bank 0 is modelled", f->name);
		return cword(e, 4 * (uint32_t)sass_values_get(v, SR_COFF, 0));
	}
	return emu_reg(e, sass_values_get(v, SR_RC, 255));
}

static uint32_t fam_brev(uint32_t x)
{
	uint32_t r = 0;
	for (int i = 0; i < 32; i++)
		r |= ((x >> i) & 1) << (31 - i);
	return r;
}

static bool emu_fam_op(Emu *e, const SassForm *f, const SassValues *v)
{
	int64_t rd = sass_values_get(v, SR_RD, 255);
	uint32_t a = emu_reg(e, sass_values_get(v, SR_RA, 255));
	switch (f->op) {
	case SOP_POPC: {
		uint32_t b = emu_b(e, f, v) ^ (sass_values_get(v, SR_INVB, 0) ? 0xffffffffu : 0);
		emu_set(e, rd, (uint32_t)__builtin_popcount(b));
		return true;
	}
	case SOP_FLO: {
		uint32_t b = emu_b(e, f, v) ^ (sass_values_get(v, SR_INVB, 0) ? 0xffffffffu : 0);
		if (sass_values_get(v, SR_SIGNED, 0) && (b >> 31))
			b = ~b;
		int pos = b ? 31 - __builtin_clz(b) : -1;
		uint32_t r = (uint32_t)pos;
		if (pos >= 0 && sass_values_get(v, SR_SH, 0))
			r = 31 - (uint32_t)pos;
		emu_set(e, rd, r);
		return true;
	}
	case SOP_PRMT: {
		ck_assert_msg(sass_values_get(v, SR_PMODE, 0) == 0, "PRMT: only the default mode is modelled");
		uint32_t sel = fam_b(e, f, v), c = fam_c(e, f, v), r = 0;
		uint64_t bytes = (uint64_t)c << 32 | a;
		for (int i = 0; i < 4; i++) {
			uint32_t s = (sel >> (4 * i)) & 0xf;
			uint32_t byte = (uint32_t)(bytes >> (8 * (s & 7))) & 0xff;
			if (s & 8)
				byte = (byte & 0x80) ? 0xff : 0;
			r |= byte << (8 * i);
		}
		emu_set(e, rd, r);
		return true;
	}
	case SOP_BFE: {
		uint32_t ctl = emu_b(e, f, v), pos = ctl & 0xff, len = (ctl >> 8) & 0xff;
		bool sg = sass_values_get(v, SR_SIGNED, 0);
		uint32_t x = sass_values_get(v, SR_BREV, 0) ? fam_brev(a) : a;
		uint32_t r;
		if (len == 0) {
			r = 0;
		} else if (pos >= 32) {
			r = sg && (x >> 31) ? 0xffffffffu : 0;
		} else {
			uint32_t end = pos + len > 32 ? 32 : pos + len;
			uint32_t n = end - pos;
			r = (x >> pos) & (n == 32 ? 0xffffffffu : (1u << n) - 1);
			if (sg && n < 32 && ((r >> (n - 1)) & 1))
				r |= ~((1u << n) - 1);
		}
		emu_set(e, rd, r);
		return true;
	}
	case SOP_BFI: {
		uint32_t ctl = fam_b(e, f, v), base = fam_c(e, f, v), pos = ctl & 0xff, len = (ctl >> 8) & 0xff;
		uint32_t r = base;
		if (len && pos < 32) {
			uint32_t n = pos + len > 32 ? 32 - pos : len;
			uint32_t mask = (n == 32 ? 0xffffffffu : (1u << n) - 1) << pos;
			r = (base & ~mask) | ((a << pos) & mask);
		}
		emu_set(e, rd, r);
		return true;
	}
	case SOP_IADD3: {
		ck_assert_msg(f->bkind == SASS_B_REG, "IADD3: the register form is modelled");
		uint64_t b = emu_reg(e, sass_values_get(v, SR_RB, 255)), c = emu_reg(e, sass_values_get(v, SR_RC, 255));
		ck_assert_msg(!sass_values_get(v, SR_NEGA, 0) && !sass_values_get(v, SR_NEGB, 0) &&
		              !sass_values_get(v, SR_NEGC, 0), "IADD3: negation is not modelled");
		int64_t mode = sass_values_get(v, SR_SHIFTMODE, 0);
		uint64_t ab = (uint64_t)a + b;
		if (mode == 1)
			ab >>= 16;
		else if (mode == 2)
			ab <<= 16;
		emu_set(e, rd, (uint32_t)(ab + c));
		return true;
	}
	case SOP_I2I: {
		ck_assert_msg(sass_values_get(v, SR_DTYPE, 5) == 5 && sass_values_get(v, SR_STYPE, 5) == 5,
		              "I2I: only S32 to S32 is modelled");
		int64_t x = (int32_t)emu_b(e, f, v);
		if (sass_values_get(v, SR_ABS, 0) && x < 0)
			x = -x;
		if (sass_values_get(v, SR_NEGB, 0))
			x = -x;
		emu_set(e, rd, (uint32_t)x);
		return true;
	}
	case SOP_MUFU:
		ck_assert_msg(sass_values_get(v, SR_MUFUOP, 0) == 4, "MUFU: only RCP is modelled");
		emu_set(e, rd, emu_bits(1.0f / emu_f(a)));
		return true;
	case SOP_I2F: {
		if (sass_values_get(v, SR_RND, 0) != 2)
			return false;
		/* round up: the nearest float, moved up when it fell below */
		int64_t st = sass_values_get(v, SR_STYPE, 4);
		uint32_t raw = emu_b(e, f, v);
		int64_t val = st == 5 ? (int32_t)raw : (int64_t)raw;
		if (sass_values_get(v, SR_ABSB, 0) && val < 0)
			val = -val;
		float r = (float)val;
		if ((double)r < (double)val)
			r = nextafterf(r, INFINITY);
		ck_assert_msg(sass_values_get(v, SR_DTYPE, 2) == 2, "I2F: only F32 results are modelled");
		emu_set(e, rd, emu_bits(r));
		return true;
	}
	default:
		return false;
	}
}

#endif
