/* Maxwell control words. Every 32-byte group of code starts with one 64-bit
 * control word that schedules the three instructions after it: slot i
 * (i = 0..2, for the instruction at +8*(i+1)) is bits [21*i+20 : 21*i],
 * bit 63 is zero. A slot holds
 *
 *   bits  3:0   stall   cycles to wait before issuing the next instruction
 *   bit   4     yield   1 = no yield hint; ptxas clears it to let the warp
 *                       scheduler switch (maxas prints "Y" when it is 0)
 *   bits  7:5   wbar    scoreboard barrier released when the result is
 *                       written, 0-5; 7 = none
 *   bits 10:8   rbar    scoreboard barrier released when the sources have
 *                       been read, 0-5; 7 = none
 *   bits 16:11  wait    bit n: wait for barrier n before issuing
 *   bits 20:17  reuse   operand reuse cache: bit0 A, bit1 B, bit2 C
 *
 * Text notation (the one of the project's encoding notes and maxas):
 *
 *   wait:rbar:wbar:Y:stall      e.g.  03:1:0:Y:f   --:-:5:-:1
 *
 *   wait   two hex digits of the wait mask, "--" when it is 0
 *   rbar   one digit, "-" when it is 7 (none)
 *   wbar   one digit, "-" when it is 7 (none)
 *   Y      "Y" when the yield bit is 0, "-" when it is 1
 *   stall  one hex digit
 *
 * The reuse flags are not part of the notation: they belong to the operands
 * and are written there (".reuse", TXQ phase). */
#ifndef PTXSURF_SASS_CTRL_H
#define PTXSURF_SASS_CTRL_H

#include <stddef.h>
#include <stdint.h>

typedef struct SassCtrl {
	unsigned stall;     /* 0-15 */
	unsigned yield;     /* the raw bit 4: 0 prints "Y" */
	unsigned wbar;      /* 0-7, 7 = none */
	unsigned rbar;      /* 0-7, 7 = none */
	unsigned wait;      /* 6-bit mask */
	unsigned reuse;     /* 4-bit mask */
} SassCtrl;

enum {
	SASS_CTRL_SLOT_BITS = 21,
	SASS_CTRL_NO_BARRIER = 7,
	SASS_CTRL_SCHED_MASK = 0x1ffff,     /* the slot without the reuse flags */
	/* No stall, yield bit clear, no barriers, no wait: ptxas's alignment
	 * NOPs; nvdisasm prints such an instruction as "text;" rather than
	 * "text ;" (the reuse flags do not matter). */
	SASS_CTRL_SLOT_PLAIN = 0x7e0,
	/* Stall 15, no barriers: ptxas's EXIT and BRA. */
	SASS_CTRL_SLOT_FLOW = 0x7ff,
};

/* A slot with no barrier, no wait, no reuse, the yield bit set and `stall`. */
SassCtrl sass_ctrl_default(unsigned stall);

/* Slot value of *c; -1 when a field is out of range. */
int sass_ctrl_pack_slot(const SassCtrl *c, uint32_t *slot);
/* Slot bits above bit 20 are ignored. */
void sass_ctrl_unpack_slot(uint32_t slot, SassCtrl *c);

/* .text is a sequence of 32-byte groups: a control word holding the slots
 * of the next three instructions, then those three instructions, each a
 * little-endian 64-bit word. */
enum { SASS_GROUP_BYTES = 32 };

/* Byte offset of instruction i. */
static inline uint64_t sass_insn_addr(size_t i)
{
	return (uint64_t)(i / 3) * SASS_GROUP_BYTES + 8 * (i % 3 + 1);
}

static inline uint64_t sass_load_word(const uint8_t *p)
{
	uint64_t w = 0;
	for (int b = 7; b >= 0; b--)
		w = w << 8 | p[b];
	return w;
}

static inline void sass_store_word(uint8_t *p, uint64_t w)
{
	for (int b = 0; b < 8; b++)
		p[b] = (uint8_t)(w >> (8 * b));
}

uint64_t sass_ctrl_pack_word(const uint32_t slots[3]);
void sass_ctrl_unpack_word(uint64_t word, uint32_t slots[3]);

/* Writes the notation (NUL-terminated, 11 bytes needed) and returns its length,
 * or -1 if the buffer is too small or a field is out of range. */
int sass_ctrl_format(const SassCtrl *c, char *buf, size_t n);
/* Parses the notation; reuse is set to 0. Returns 0, or -1 on bad syntax. */
int sass_ctrl_parse(const char *text, SassCtrl *c);

#endif
