/* Growable little-endian byte buffers and ELF string tables for the cubin
 * writer (cubin.c). */
#include "emit/cubin_internal.h"
#include "base/hash.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* ---- growable little-endian byte buffer ------------------------------- */

static void buf_reserve(ByteBuf *b, size_t extra)
{
	if (b->cap - b->len >= extra)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap - b->len < extra)
		cap *= 2;
	b->data = xrealloc(b->data, cap);
	b->cap = cap;
}

void cubin_buf_put(ByteBuf *b, const void *p, size_t n)
{
	buf_reserve(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

void cubin_buf_zeros(ByteBuf *b, size_t n)
{
	buf_reserve(b, n);
	memset(b->data + b->len, 0, n);
	b->len += n;
}

void cubin_buf_u8(ByteBuf *b, uint8_t v)
{
	cubin_buf_put(b, &v, 1);
}

void cubin_buf_u16(ByteBuf *b, uint16_t v)
{
	uint8_t le[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
	cubin_buf_put(b, le, 2);
}

void cubin_buf_u32(ByteBuf *b, uint32_t v)
{
	cubin_buf_u16(b, (uint16_t)v);
	cubin_buf_u16(b, (uint16_t)(v >> 16));
}

void cubin_buf_u64(ByteBuf *b, uint64_t v)
{
	cubin_buf_u32(b, (uint32_t)v);
	cubin_buf_u32(b, (uint32_t)(v >> 32));
}

void cubin_buf_align(ByteBuf *b, size_t align)
{
	size_t rem = b->len % align;
	if (rem)
		cubin_buf_zeros(b, align - rem);
}

/* ---- string tables ---------------------------------------------------- */

static void strtab_index_insert(ByteBuf *t, uint32_t pos)
{
	size_t mask = t->index_cap - 1;
	size_t i = hash_str((const char *)t->data + pos) & mask;
	while (t->index[i])
		i = (i + 1) & mask;
	t->index[i] = pos + 1;
	t->index_count++;
}

/* ptxas stores each distinct string once and never shares a string's tail
 * with a longer one, so exact matching is all the deduplication; a hash
 * index keeps it linear for modules with thousands of kernels. */
uint32_t cubin_strtab_add(ByteBuf *t, const char *s)
{
	if ((t->index_count + 1) * 2 > t->index_cap) {
		free(t->index);
		t->index_cap = t->index_cap ? t->index_cap * 2 : 64;
		t->index = xcalloc(t->index_cap, sizeof *t->index);
		t->index_count = 0;
		for (size_t pos = 0; pos < t->len; pos += strlen((const char *)t->data + pos) + 1)
			strtab_index_insert(t, (uint32_t)pos);
	}
	size_t mask = t->index_cap - 1;
	for (size_t i = hash_str(s) & mask; t->index[i]; i = (i + 1) & mask)
		if (strcmp((const char *)t->data + t->index[i] - 1, s) == 0)
			return t->index[i] - 1;
	uint32_t pos = (uint32_t)t->len;
	cubin_buf_put(t, s, strlen(s) + 1);
	strtab_index_insert(t, pos);
	return pos;
}

/* Adds the concatenation of a NULL-terminated list of parts. */
uint32_t cubin_strtab_add_concat(ByteBuf *t, const char *const *parts)
{
	size_t len = 0;
	for (size_t i = 0; parts[i]; i++)
		len += strlen(parts[i]);
	char *s = xmalloc(len + 1), *end = s;
	for (size_t i = 0; parts[i]; i++) {
		size_t n = strlen(parts[i]);
		memcpy(end, parts[i], n);
		end += n;
	}
	*end = 0;
	uint32_t off = cubin_strtab_add(t, s);
	free(s);
	return off;
}

/* "<prefix><kernel>", e.g. ".text.k" */
uint32_t cubin_strtab_add_kernel_name(ByteBuf *t, const char *prefix, const char *kernel)
{
	return cubin_strtab_add_concat(t, (const char *const[]){ prefix, kernel, NULL });
}


/* ---- .nv.info records ---- */

void cubin_info_record(ByteBuf *b, uint8_t format, uint8_t attr, uint16_t value)
{
	cubin_buf_u8(b, format);
	cubin_buf_u8(b, attr);
	cubin_buf_u16(b, value);
}

void cubin_info_u32_list(ByteBuf *b, uint8_t attr, const uint32_t *values, size_t n)
{
	if (n == 0)
		return;
	cubin_info_record(b, CUBIN_EIFMT_SVAL, attr, (uint16_t)(4 * n));
	for (size_t i = 0; i < n; i++)
		cubin_buf_u32(b, values[i]);
}
