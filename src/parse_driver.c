/* Runs the scanner and the parser over one in-memory buffer. */
#include "parse.h"
#include "ptx.tab.h"
#define YYSTYPE PTX_STYPE
#define YYLTYPE SrcLoc
#include "ptx.lex.h"

#include <stdlib.h>

void ptx_restore_input(yyscan_t scanner);

unsigned ptx_parse_buffer(Module *m, DiagSink *d, char *buf, size_t len)
{
	ParseState ps = { .mod = m, .diag = d, .arena = &m->arena };
	intern_init(&ps.names, &m->arena);
	unsigned before = diag_errors(d);
	yyscan_t scanner;
	if (ptx_lex_init_extra(&ps, &scanner) != 0) {
		intern_fini(&ps.names);
		diag_add(d, SEV_ERROR, (SrcLoc){ 0 }, "io", "cannot initialise the scanner");
		return 1;
	}
	/* Scan in place: flex needs the two trailing NULs the caller provides. */
	YY_BUFFER_STATE b = ptx__scan_buffer(buf, len + 2, scanner);
	if (!b) {
		diag_add(d, SEV_ERROR, (SrcLoc){ 0 }, "io", "cannot set up the scan buffer");
	} else {
		ptx_parse(scanner, &ps);
		ptx_restore_input(scanner);
		ptx__delete_buffer(b, scanner);
	}
	ptx_lex_destroy(scanner);
	intern_fini(&ps.names);
	free(ps.mods_scratch.v);
	free(ps.mods_scratch.locs);
	return diag_errors(d) - before;
}
