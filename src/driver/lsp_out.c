/* The language server's outgoing messages: a body written into a memory
 * stream, then sent with its Content-Length header. */
#include "driver/lsp_internal.h"
#include "base/json.h"

#include <stdlib.h>

FILE *lsp_begin(LspOut *o)
{
	o->buf = NULL;
	o->len = 0;
	o->f = open_memstream(&o->buf, &o->len);
	if (!o->f)
		xdie("out of memory");
	return o->f;
}

FILE *lsp_begin_notification(LspOut *o, const char *method)
{
	FILE *f = lsp_begin(o);
	fputs("{\"jsonrpc\":\"2.0\",\"method\":", f);
	json_string(f, method);
	fputs(",\"params\":", f);
	return f;
}

void lsp_send(LspServer *s, LspOut *o)
{
	if (fclose(o->f) != 0)
		xdie("out of memory");
	fprintf(s->out, "Content-Length: %zu\r\n\r\n", o->len);
	fwrite(o->buf, 1, o->len, s->out);
	fflush(s->out);
	free(o->buf);
}
