/* The ISA gate table (isa_gates.def): version and target gates of
 * instructions and their variants, directives, special registers and types,
 * and the rules that match a table row against the syntax tree and a
 * module's .target against a row's target set. */
#ifndef PTXSURF_ISA_GATES_H
#define PTXSURF_ISA_GATES_H

#include "front/ast.h"
#include "isa/requirements.h"
#include "isa/targets.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum IsaGateId {
#define ISA_GATE(id, kind, match, mods, feat, vf, tf, ord, vmaj, vmin, pmaj, pmin, tgt, src, doc, ex) IG_##id,
#include "isa/isa_gates.def"
#undef ISA_GATE
	IG_COUNT
} IsaGateId;

typedef enum IsaGateKind { IGK_INSTR, IGK_DIRECTIVE, IGK_SREG, IGK_TYPE, IGK_INIT, IGK_SECTION } IsaGateKind;

typedef struct IsaGate {
	IsaGateId id;
	const char *id_name;        /* "CP_ASYNC" */
	IsaGateKind kind;
	const char *match;          /* opcode, directive, register or type word */
	const char *mods;           /* INSTR: required modifiers; TYPE: state space */
	const char *feature;
	ReqForm version_form;
	ReqForm target_form;
	ReqOrder order;
	PtxVersion min_version;     /* stated in the message; 0 = no version gate */
	PtxVersion ptxas_version;   /* what ptxas 13 enforces */
	const char *targets;        /* target names (optionally name@version), any of
	                             * which suffices; "" = none */
	ReqSource source;
	const char *doc;
	const char *example;
} IsaGate;

const IsaGate *isa_gates(size_t *n);
const IsaGate *isa_gate(IsaGateId id);
const char *isa_gate_kind_name(IsaGateKind k);

/* The instruction rows of one opcode (an id from opcodes.h), found without
 * scanning the table: the checker asks for every instruction of a module.
 * Returns how many; *rows points at them. */
size_t isa_gates_of_opcode(int opcode_id, const IsaGate *const **rows);
/* The rows of one kind, in table order. */
size_t isa_gates_of_kind(IsaGateKind kind, const IsaGate *const **rows);
/* The rows a declaration word (`.common`, `.f16`) may match: directive rows
 * without modifiers and type rows whose match is `word`, in table order. */
size_t isa_gates_of_word(const char *word, const IsaGate *const **rows);
/* The directive rows (conditional ones included) for directive `name`, in
 * table order: the only rows isa_gate_matches_dir can accept for it. */
size_t isa_gates_of_directive(const char *name, const IsaGate *const **rows);

/* ---- matching ---- */
/* Opcode equal to `match` and every word of `mods` among the modifiers. */
bool isa_gate_matches_instr(const IsaGate *g, const Instr *in);
/* The modifier half of it, for rows already selected by opcode
 * (isa_gates_of_opcode). */
bool isa_gate_matches_mods(const IsaGate *g, const Instr *in);
/* A declaration word (".common", ".ptr") or a directive name; rows whose
 * `mods` constrain the directive's arguments never match a bare word. */
bool isa_gate_matches_directive(const IsaGate *g, const char *name);
/* A directive statement: the name, and the row's `mods` if any:
 *   "+N"   more than N arguments (.file's timestamp and size);
 *   word   the first word of a string first argument (.pragma "frequency"). */
bool isa_gate_matches_dir(const IsaGate *g, const Directive *d);
/* A special register name as written, without its component. A trailing
 * '*' in `match` stands for one or more digits; "%pm*_64" has the digits in
 * the middle. */
bool isa_gate_matches_sreg(const IsaGate *g, const char *name);
/* False when no special-register row can match the name: a cheap test on
 * its first two characters after '%', which tell a declared register such
 * as %r1 or %rd2 from every special one the table gates. */
bool isa_sreg_may_match(const char *name);
/* A declared type word, optionally in a given state space (NULL: any). */
bool isa_gate_matches_type(const IsaGate *g, const char *type_word, const char *space_word);
/* One node of a variable initializer: "address" (a symbol), "generic()"
 * (the generic() operator), "mask()" (any other operator call). */
bool isa_gate_matches_init(const IsaGate *g, const Expr *e);
/* One statement of a .section body: "label" (a label defined there),
 * "label+imm" (data whose value adds to a label or section name),
 * "label-label" (data subtracting one label from another). */
bool isa_gate_matches_section_stmt(const IsaGate *g, const Stmt *s);

/* ---- targets ---- */
/* Does target `have` provide what a requirement of target `need` asks for?
 *   plain sm_NN: have->sm >= NN, whatever its suffix;
 *   sm_NNa:      exactly sm_NNa;
 *   sm_NNf:      an 'f' or 'a' target of the same family (sm / 10) with
 *                sm >= NN. */
bool isa_target_satisfies(const TargetInfo *have, const TargetInfo *need);
/* Does `have` satisfy any target of the row? True for rows without one. */
bool isa_gate_target_ok(const IsaGate *g, const TargetInfo *have);
/* The row's targets one by one: call with *pos = 0, returns NULL at the end
 * (names unknown to targets.def are skipped). `since`, if not NULL, gets the
 * entry's "@major.minor" version (0 when the entry has none). */
const TargetInfo *isa_gate_next_target_since(const IsaGate *g, size_t *pos, PtxVersion *since);
const TargetInfo *isa_gate_next_target(const IsaGate *g, size_t *pos);
/* The version from which `have` provides the feature through the row's
 * target entries: 0 when an entry without "@version" covers it (or the row
 * has no targets), else the lowest "@version" of the entries covering it,
 * -1 when none covers it. ptxas 13 accepts some features on an older
 * architecture only from a later version (cvt .e4m3x2: sm_90 from 7.8,
 * sm_89 from 8.1). */
PtxVersion isa_gate_target_since(const IsaGate *g, const TargetInfo *have);
/* True if every target of the row is 'a' or 'f' (ptxas then says "not
 * supported on .target"); false for plain or no targets. */
bool isa_gate_family_only(const IsaGate *g);
/* The lowest plain sm number among the row's plain targets, those without
 * "@version" first, or 0. */
int isa_gate_min_sm(const IsaGate *g);

#endif
