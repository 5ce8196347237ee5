/* Packing, unpacking and the text notation of Maxwell control slots. */
#include "sm50/sass_ctrl.h"

#include <string.h>

SassCtrl sass_ctrl_default(unsigned stall)
{
	SassCtrl c = { stall, 1, SASS_CTRL_NO_BARRIER, SASS_CTRL_NO_BARRIER, 0, 0 };
	return c;
}

int sass_ctrl_pack_slot(const SassCtrl *c, uint32_t *slot)
{
	if (c->stall > 15 || c->yield > 1 || c->wbar > 7 || c->rbar > 7 ||
	    c->wait > 0x3f || c->reuse > 0xf)
		return -1;
	*slot = (uint32_t)(c->stall | c->yield << 4 | c->wbar << 5 | c->rbar << 8 |
	                   c->wait << 11 | c->reuse << 17);
	return 0;
}

void sass_ctrl_unpack_slot(uint32_t slot, SassCtrl *c)
{
	c->stall = slot & 0xf;
	c->yield = (slot >> 4) & 1;
	c->wbar = (slot >> 5) & 7;
	c->rbar = (slot >> 8) & 7;
	c->wait = (slot >> 11) & 0x3f;
	c->reuse = (slot >> 17) & 0xf;
}

uint64_t sass_ctrl_pack_word(const uint32_t slots[3])
{
	uint64_t w = 0;
	for (int i = 0; i < 3; i++)
		w |= (uint64_t)(slots[i] & 0x1fffff) << (SASS_CTRL_SLOT_BITS * i);
	return w;
}

void sass_ctrl_unpack_word(uint64_t word, uint32_t slots[3])
{
	for (int i = 0; i < 3; i++)
		slots[i] = (uint32_t)(word >> (SASS_CTRL_SLOT_BITS * i)) & 0x1fffff;
}

static const char hexdigits[] = "0123456789abcdef";

int sass_ctrl_format(const SassCtrl *c, char *buf, size_t n)
{
	uint32_t slot;
	if (n < 11 || sass_ctrl_pack_slot(c, &slot) != 0)
		return -1;
	char *p = buf;
	if (c->wait == 0) {
		*p++ = '-';
		*p++ = '-';
	} else {
		*p++ = hexdigits[c->wait >> 4];
		*p++ = hexdigits[c->wait & 0xf];
	}
	*p++ = ':';
	*p++ = c->rbar == SASS_CTRL_NO_BARRIER ? '-' : (char)('0' + c->rbar);
	*p++ = ':';
	*p++ = c->wbar == SASS_CTRL_NO_BARRIER ? '-' : (char)('0' + c->wbar);
	*p++ = ':';
	*p++ = c->yield ? '-' : 'Y';
	*p++ = ':';
	*p++ = hexdigits[c->stall];
	*p = '\0';
	return (int)(p - buf);
}

static int hex_value(char ch)
{
	const char *d = ch ? strchr(hexdigits, ch >= 'A' && ch <= 'F' ? ch - 'A' + 'a' : ch) : NULL;
	return d ? (int)(d - hexdigits) : -1;
}

/* A barrier digit 0-6, or '-' for none. */
static int parse_barrier(char ch, unsigned *out)
{
	if (ch == '-') {
		*out = SASS_CTRL_NO_BARRIER;
		return 0;
	}
	if (ch < '0' || ch > '6')
		return -1;
	*out = (unsigned)(ch - '0');
	return 0;
}

int sass_ctrl_parse(const char *t, SassCtrl *c)
{
	SassCtrl r = { 0, 0, 0, 0, 0, 0 };
	if (strlen(t) != 10 || t[2] != ':' || t[4] != ':' || t[6] != ':' || t[8] != ':')
		return -1;
	if (t[0] == '-' && t[1] == '-') {
		r.wait = 0;
	} else {
		int hi = hex_value(t[0]), lo = hex_value(t[1]);
		if (hi < 0 || lo < 0 || (hi << 4 | lo) > 0x3f)
			return -1;
		r.wait = (unsigned)(hi << 4 | lo);
	}
	if (parse_barrier(t[3], &r.rbar) != 0 || parse_barrier(t[5], &r.wbar) != 0)
		return -1;
	if (t[7] == 'Y')
		r.yield = 0;
	else if (t[7] == '-')
		r.yield = 1;
	else
		return -1;
	int stall = hex_value(t[9]);
	if (stall < 0)
		return -1;
	r.stall = (unsigned)stall;
	*c = r;
	return 0;
}
