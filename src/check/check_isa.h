/* Version and target gates of the PTX instruction set, directives, special
 * registers and types (isa_gates.def), evaluated on the syntax tree. The
 * surface instructions, st and the module header keep their own gates
 * (requirements.def, check_surface.c, check_st.c, check_module.c). */
#ifndef PTXSURF_CHECK_ISA_H
#define PTXSURF_CHECK_ISA_H

#include "check/check_internal.h"
#include "check/isa_gates.h"

/* The opcode/modifier rows matching the instruction: it reads only the
 * opcode, the modifiers and the operand count (the shape memo relies on
 * it). */
void check_isa_instr(CheckCtx *c, const Instr *in);
/* The special registers among its operands (check_isa_operand_sreg on
 * each), after check_isa_instr. Call with the function's scopes in place,
 * so that a declared register named like a special one is not taken for
 * it. */
void check_isa_instr_sregs(CheckCtx *c, const Instr *in);
/* Special registers anywhere in an operand expression. */
void check_isa_operand_sreg(CheckCtx *c, const Expr *e);
/* A function: its linkage words, parameter attributes, performance and
 * other header directives, and the directives, prototypes and declarations
 * of its body (instructions are left to check_isa_instr). */
void check_isa_func(CheckCtx *c, const Func *f);
/* One statement of a body handed over statement by statement (not a
 * block: its statements come one by one too); check_isa_func gates
 * only the header of a function whose body is NULL. */
void check_isa_stmt(CheckCtx *c, const Stmt *s);
/* Module scope: directives (.alias, .pragma, ...), sections and variable
 * declarations (.common, .weak, .attribute, types, initializers). Functions
 * are check_isa_func's. */
void check_isa_module(CheckCtx *c);
/* The same for one module-scope item (the streaming checker's unit). */
void check_isa_item(CheckCtx *c, const Item *it);

/* Evaluates one row at loc, as check_gate does for a requirement row:
 * emits the failing version/target diagnostics under the current rules
 * mode. Returns true if the gate passes. */
bool check_isa_gate(CheckCtx *c, const IsaGate *g, SrcLoc loc, const char *use);
/* True if the row would fail (no diagnostics). */
bool check_isa_gate_fails(const CheckCtx *c, const IsaGate *g);

#endif
