/* ptxsurf-as --lsp: a Language Server Protocol server on standard input
 * and output (docs/lsp.md). */
#ifndef PTXSURF_LSP_H
#define PTXSURF_LSP_H

#include <stdio.h>

/* Serves until `exit` or the end of input. Returns the exit status: 0
 * after shutdown then exit, 1 otherwise (as the protocol asks). */
int lsp_serve(FILE *in, FILE *out);

#endif
