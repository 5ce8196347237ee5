/* Reading a ptxsurf_result: counts, diagnostics in source order, notes,
 * the terminal rendering, the assembled code. */
#include "driver/api_internal.h"
#include "base/input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

PTXSURF_API void ptxsurf_result_free(ptxsurf_result *r)
{
	if (!r)
		return;
	diag_fini(&r->sink);
	free(r->image);
	free(r->listing);
	free(r->owned_name);
	free(r->owned_src);
	free(r);
}

PTXSURF_API unsigned ptxsurf_result_error_count(const ptxsurf_result *r)
{
	return r ? r->sink.count[SEV_ERROR] : 0;
}

PTXSURF_API unsigned ptxsurf_result_warning_count(const ptxsurf_result *r)
{
	return r ? r->sink.count[SEV_WARNING] : 0;
}

PTXSURF_API int ptxsurf_result_truncated(const ptxsurf_result *r)
{
	return r && r->sink.truncated;
}

/* Sorting allocates in the result's arena: a result is read by one thread
 * at a time, like its context. */
static void sort_once(const ptxsurf_result *cr)
{
	ptxsurf_result *r = (ptxsurf_result *)cr;
	if (!r->sorted)
		r->sorted = diag_sorted(&r->sink, &r->nsorted);
}

PTXSURF_API size_t ptxsurf_result_diagnostic_count(const ptxsurf_result *r)
{
	if (!r)
		return 0;
	XdieTrap trap;
	XdieTrap *prev = xdie_trap(NULL);
	if (setjmp(trap.env)) {
		xdie_trap(prev);
		return 0;
	}
	xdie_trap(&trap);
	sort_once(r);
	xdie_trap(prev);
	return r->nsorted;
}

PTXSURF_API const ptxsurf_diagnostic *ptxsurf_result_diagnostic(const ptxsurf_result *r, size_t i)
{
	if (i >= ptxsurf_result_diagnostic_count(r))
		return NULL;
	return (const ptxsurf_diagnostic *)r->sorted[i];
}

PTXSURF_API char *ptxsurf_result_text(const ptxsurf_result *cr, int color)
{
	if (!cr)
		return NULL;
	ptxsurf_result *r = (ptxsurf_result *)cr;
	char *buf = NULL;
	size_t len = 0;
	/* volatile: read again after a longjmp */
	FILE *volatile f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	XdieTrap trap;
	XdieTrap *prev = xdie_trap(NULL);
	if (setjmp(trap.env)) {
		xdie_trap(prev);
		fclose(f);
		free(buf);
		return NULL;
	}
	xdie_trap(&trap);
	DiagTextOptions o = { .color = color != 0, .caret = true };
	diag_render_text(&r->sink, f, &o);
	xdie_trap(prev);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

PTXSURF_API const uint8_t *ptxsurf_result_image(const ptxsurf_result *r, size_t *len)
{
	if (len)
		*len = r ? r->image_len : 0;
	return r ? r->image : NULL;
}

PTXSURF_API const char *ptxsurf_result_listing(const ptxsurf_result *r)
{
	return r ? r->listing : NULL;
}

static const Diag *diag_of(const ptxsurf_diagnostic *d)
{
	return (const Diag *)d;
}

PTXSURF_API ptxsurf_severity ptxsurf_diagnostic_severity(const ptxsurf_diagnostic *d)
{
	Severity s = diag_of(d)->sev;
	return s == SEV_ERROR ? PTXSURF_SEVERITY_ERROR : s == SEV_WARNING ? PTXSURF_SEVERITY_WARNING
		: PTXSURF_SEVERITY_NOTE;
}

PTXSURF_API const char *ptxsurf_diagnostic_rule(const ptxsurf_diagnostic *d)
{
	return diag_of(d)->rule ? diag_of(d)->rule : "";
}

PTXSURF_API const char *ptxsurf_diagnostic_message(const ptxsurf_diagnostic *d)
{
	return diag_of(d)->msg;
}

PTXSURF_API ptxsurf_range ptxsurf_diagnostic_range(const ptxsurf_diagnostic *d)
{
	SrcLoc l = diag_of(d)->loc;
	return (ptxsurf_range){ l.first_line, l.first_column, l.last_line, l.last_column };
}

PTXSURF_API size_t ptxsurf_diagnostic_note_count(const ptxsurf_diagnostic *d)
{
	size_t n = 0;
	for (const Diag *k = diag_of(d)->notes; k; k = k->next)
		n++;
	return n;
}

PTXSURF_API const ptxsurf_diagnostic *ptxsurf_diagnostic_note(const ptxsurf_diagnostic *d, size_t i)
{
	const Diag *k = diag_of(d)->notes;
	while (k && i--)
		k = k->next;
	return (const ptxsurf_diagnostic *)k;
}

PTXSURF_API ptxsurf_status ptxsurf_check_file(ptxsurf_context *ctx, const char *path, ptxsurf_result **out)
{
	if (!ctx || !path || !out)
		return api_fail(ctx, PTXSURF_ERROR_INVALID, "a context, a path and a place for the result are needed");
	*out = NULL;
	InputFile in;
	char err[200];
	API_ENTER(ctx);
	int rc = input_read(&in, path, err, sizeof err);
	API_LEAVE();
	if (rc != 0)
		return api_fail(ctx, PTXSURF_ERROR_IO, "%s", err);
	ptxsurf_status s = ptxsurf_check(ctx, in.name, in.data, in.len, out);
	input_free(&in);
	return s;
}
