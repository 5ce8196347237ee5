#include "base/json.h"

#include <stddef.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (avail bytes left), or 0. */
static size_t utf8_len(const unsigned char *s, size_t avail)
{
	size_t n;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (n > avail)
		return 0;
	/* The second byte's range excludes overlong forms (E0, F0), UTF-16
	 * surrogates (ED) and values above U+10FFFF (F4). */
	unsigned lo = s[0] == 0xe0 ? 0xa0 : s[0] == 0xf0 ? 0x90 : 0x80;
	unsigned hi = s[0] == 0xed ? 0x9f : s[0] == 0xf4 ? 0x8f : 0xbf;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

void json_string(FILE *out, const char *str)
{
	json_string_n(out, str, strlen(str));
}

void json_string_n(FILE *out, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;
	fputc('"', out);
	while (s < end) {
		unsigned char c = *s;
		if (c == '"' || c == '\\') {
			fputc('\\', out);
			fputc(c, out);
		} else if (c == '\n') {
			fputs("\\n", out);
		} else if (c == '\t') {
			fputs("\\t", out);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(out, "\\u%04x", c);
		} else if (c >= 0x80) {
			size_t n = utf8_len(s, (size_t)(end - s));
			if (n == 0) {
				fprintf(out, "\\u%04x", c);
			} else {
				fwrite(s, 1, n, out);
				s += n;
				continue;
			}
		} else {
			fputc(c, out);
		}
		s++;
	}
	fputc('"', out);
}
