/* sim5: the CUDA driver's vprintf, which a JCAL of the external function
 * vprintf calls (ptxas -c code and ours: goldens call-extern-c and
 * call-vprintf-exec; sim_extern.c dispatches the call).
 *
 * The call passes the format string's generic address in R4:R5 and the
 * argument buffer's in R6:R7 and returns in R4. Each argument sits in the
 * buffer at the next multiple of its size (the PTX printf convention):
 * 4 bytes for %c %d %i %u %x %X %o (h, hh: promoted to int), 8 bytes for
 * the l, ll, j, z, t lengths, %p, %s (a generic address) and the floating
 * conversions %f %F %e %E %g %G %a %A (a double). The formatted text -- as
 * the host's printf formats it, which is what the driver's printf buffer
 * prints -- is appended to the launch's printf log, a region of its own
 * ("printf log", SIM_PRINTF_LOG_BYTES) whose bytes sim-diff compares between
 * the cubins like any buffer. vprintf returns the number of arguments its
 * format string consumes (the CUDA Programming Guide's printf result), -1
 * for a null format. %n and an unknown conversion stop the run; so does a
 * full log (the driver would drop the line). */
#include "sim.h"

#include <stdio.h>
#include <string.h>

enum { SIM_PRINTF_LOG_BYTES = 16384, MAX_STRING = 4096 };

/* One byte at a generic address (the format and %s strings may be in
 * global memory, the argument buffer in local memory). */
static bool read_byte(SimMachine *m, const SimInsn *in, const SimThread *t, uint64_t addr, uint8_t *b)
{
	SimRegion *region;
	uint32_t *writer;
	uint8_t *p = sim_generic(m, in, t, addr, 1, &region, &writer);
	if (p)
		*b = *p;
	return p != NULL;
}

static bool read_arg(SimMachine *m, const SimInsn *in, const SimThread *t, uint64_t buf, uint64_t *off,
                     unsigned size, uint64_t *v)
{
	*off = (*off + size - 1) / size * size;
	*v = 0;
	for (unsigned i = 0; i < size; i++) {
		uint8_t b;
		if (!read_byte(m, in, t, buf + *off + i, &b))
			return false;
		*v |= (uint64_t)b << (8 * i);
	}
	*off += size;
	return true;
}

bool sim_read_string(SimMachine *m, const SimInsn *in, const SimThread *t, uint64_t addr, char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t b;
		if (!read_byte(m, in, t, addr + i, &b))
			return false;
		s[i] = (char)b;
		if (b == 0)
			return true;
	}
	sim_fail(m, in, "a string longer than %zu bytes", n);
	return false;
}

static bool append(SimMachine *m, const SimInsn *in, const char *s, size_t n)
{
	SimRegion *log = m->printf_log;
	if (log->size - m->printf_used < n)
		return sim_fail(m, in, "vprintf: the printf log is full"), false;
	memcpy(log->bytes + m->printf_used, s, n);
	m->printf_used += (uint32_t)n;
	return true;
}

/* Formats one conversion spec (spec: '%' .. conversion) with its argument. */
static bool convert(SimMachine *m, const SimInsn *in, const SimThread *t, const char *at, size_t len,
                    uint64_t buf, uint64_t *off, int *nargs)
{
	char spec[64], fmt[64], out[MAX_STRING + 64], str[MAX_STRING];
	if (len >= sizeof spec)
		return sim_fail(m, in, "vprintf: a conversion spec of %zu bytes", len), false;
	memcpy(spec, at, len);
	spec[len] = 0;
	char conv = spec[len - 1];
	bool wide = strpbrk(spec, "ljzt") != NULL;
	int star[2] = { 0, 0 }, nstar = 0;
	/* '*' widths and precisions take an int each, before the value */
	for (size_t i = 0; i < len; i++) {
		if (spec[i] != '*')
			continue;
		uint64_t v;
		if (nstar == 2 || !read_arg(m, in, t, buf, off, 4, &v))
			return nstar == 2 ? (sim_fail(m, in, "vprintf: a spec with three '*'"), false) : false;
		star[nstar++] = (int32_t)v;
		++*nargs;
	}
	/* the host spec: flags, width, precision as written, the host's own
	 * length modifier for the value's type */
	size_t n = 0;
	for (size_t i = 0; i + 1 < len; i++)
		if (!strchr("hljztL", spec[i]))
			fmt[n++] = spec[i];
	uint64_t v = 0;
	int w;
	switch (conv) {
	case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c':
		if (!read_arg(m, in, t, buf, off, wide ? 8 : 4, &v))
			return false;
		if (wide) {
			fmt[n++] = 'l', fmt[n++] = 'l';
		}
		fmt[n++] = conv, fmt[n] = 0;
		if (conv == 'd' || conv == 'i')
			v = wide ? v : (uint64_t)(int64_t)(int32_t)v;
		else if (!wide)
			v = (uint32_t)v;
		w = nstar == 2 ? snprintf(out, sizeof out, fmt, star[0], star[1], v)
		    : nstar ? snprintf(out, sizeof out, fmt, star[0], v) : snprintf(out, sizeof out, fmt, v);
		break;
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
		if (!read_arg(m, in, t, buf, off, 8, &v))
			return false;
		double d;
		memcpy(&d, &v, 8);
		fmt[n++] = conv, fmt[n] = 0;
		w = nstar == 2 ? snprintf(out, sizeof out, fmt, star[0], star[1], d)
		    : nstar ? snprintf(out, sizeof out, fmt, star[0], d) : snprintf(out, sizeof out, fmt, d);
		break;
	}
	case 's': case 'p':
		if (!read_arg(m, in, t, buf, off, 8, &v))
			return false;
		fmt[n++] = conv, fmt[n] = 0;
		if (conv == 'p') {
			w = nstar ? snprintf(out, sizeof out, fmt, star[0], (void *)(uintptr_t)v)
			          : snprintf(out, sizeof out, fmt, (void *)(uintptr_t)v);
			break;
		}
		if (v == 0)
			strcpy(str, "(null)");
		else if (!sim_read_string(m, in, t, v, str, MAX_STRING))
			return false;
		w = nstar == 2 ? snprintf(out, sizeof out, fmt, star[0], star[1], str)
		    : nstar ? snprintf(out, sizeof out, fmt, star[0], str) : snprintf(out, sizeof out, fmt, str);
		break;
	default:
		return sim_fail(m, in, "vprintf: the conversion %%%c is not modelled", conv), false;
	}
	++*nargs;
	if (w < 0)
		return sim_fail(m, in, "vprintf: the host cannot format %.*s", (int)len, spec), false;
	return append(m, in, out, (size_t)w < sizeof out ? (size_t)w : sizeof out - 1);
}

void sim_vprintf(SimMachine *m, const SimInsn *in, SimThread *t)
{
	uint64_t fmt = (uint64_t)sim_reg(t, 5) << 32 | sim_reg(t, 4);
	uint64_t buf = (uint64_t)sim_reg(t, 7) << 32 | sim_reg(t, 6), off = 0;
	int nargs = 0;
	if (fmt == 0)
		return sim_set(t, 4, (uint32_t)-1);
	char f[MAX_STRING];
	if (!sim_read_string(m, in, t, fmt, f, MAX_STRING))
		return;
	for (size_t i = 0; f[i] && !m->failed;) {
		if (f[i] != '%') {
			size_t j = i;
			while (f[j] && f[j] != '%')
				j++;
			append(m, in, f + i, j - i);
			i = j;
			continue;
		}
		if (f[i + 1] == '%') {
			append(m, in, "%", 1);
			i += 2;
			continue;
		}
		size_t j = i + 1;
		while (f[j] && strchr("-+ #0123456789.*hljztL", f[j]))
			j++;
		if (!f[j] || f[j] == 'n')
			return (void)sim_fail(m, in, "vprintf: %s", f[j] ? "%n is not modelled" : "a spec at the end");
		convert(m, in, t, f + i, j + 1 - i, buf, &off, &nargs);
		i = j + 1;
	}
	sim_set(t, 4, (uint32_t)nargs);
}

bool sim_printf_log(SimMachine *m)
{
	return m->printf_log || (m->printf_log = sim_add_region(m, SIM_PRINTF_LOG, "printf log", 0, SIM_PRINTF_LOG_BYTES));
}
