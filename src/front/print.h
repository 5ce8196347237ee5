/* Prints an AST back as PTX (`--emit=ptx`). The output is canonical
 * (normalized whitespace, one statement per line, comments dropped) and
 * re-parses to the same AST, which the round-trip tests rely on. */
#ifndef PTXSURF_PRINT_H
#define PTXSURF_PRINT_H

#include "front/ast.h"

#include <stdio.h>

void ptx_print_module(const Module *m, FILE *out);
void ptx_print_expr(const Expr *e, FILE *out);
void ptx_print_instr(const Instr *in, FILE *out);

#endif
