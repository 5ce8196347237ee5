#include "base/input.h"
#include "base/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int input_read(InputFile *f, const char *path, char *err, size_t errlen)
{
	int is_stdin = strcmp(path, "-") == 0;
	FILE *fp = is_stdin ? stdin : fopen(path, "rb");
	f->name = is_stdin ? "<stdin>" : path;
	f->data = NULL;
	f->len = 0;
	if (!fp) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (!is_stdin && fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "cannot read '%s': it is a directory", path);
		fclose(fp);
		return -1;
	}
	size_t cap = 1 << 16, len = 0;
	if (!is_stdin && fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		cap = (size_t)st.st_size + 1;
	char *buf = xmalloc(cap + 2);
	for (;;) {
		if (len == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap + 2);
		}
		size_t n = fread(buf + len, 1, cap - len, fp);
		len += n;
		if (n == 0)
			break;
	}
	int failed = ferror(fp);
	int saved = errno;
	if (!is_stdin)
		fclose(fp);
	if (failed) {
		snprintf(err, errlen, "cannot read '%s': %s", f->name, strerror(saved));
		free(buf);
		return -1;
	}
	buf[len] = 0;
	buf[len + 1] = 0;
	f->data = buf;
	f->len = len;
	return 0;
}

void input_free(InputFile *f)
{
	free(f->data);
	f->data = NULL;
}
