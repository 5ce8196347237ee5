/* The checker's internals, and the order to read its files in.
 *
 * check_module (check.c) sets up one CheckCtx, judges the module header
 * (check_module.c) and hands every item to check_body.c, which walks
 * functions and blocks (scopes, labels, undefined names) and passes each
 * instruction to the rule files in the order their diagnostics come out.
 * check_stream.c drives the same walk one item at a time as the parser
 * completes them; req_report.c reruns check_module against other targets.
 *
 * A rule file holds the checks of one rule or one instruction family:
 * check_decl, check_func_dirs, check_isa (isa_gates.def, matched by
 * isa_gates.c), check_surface, check_st, check_operand_type (operand-type),
 * check_operands (operand-count), check_mods (modifier-class), check_order,
 * check_load_width, check_sync, check_signature (operand_sigs.def). Rule files never call each other's checks;
 * they share the helpers below them: check_operand.c (names, operand kinds
 * and texts, the .vN register test), check_mods.c's modifier_of_class, and
 * at the bottom check_ctx.c (diagnostics, notes, requirements.def gates)
 * and symtab.c (scopes). So the files read top-down, entry -> walk -> rules
 * -> helpers, and tests/link-layering.sh fails on any call back up.
 *
 * The declarations below are grouped by the file that defines them. */
#ifndef PTXSURF_CHECK_INTERNAL_H
#define PTXSURF_CHECK_INTERNAL_H

#include "check/check.h"
#include "isa/requirements.h"
#include "check/symtab.h"
#include "isa/targets.h"

#include <stdbool.h>
#include <string.h>

/* One remembered name resolution (see check_lookup). */
typedef struct LookupMemo {
	const char *name;
	const Scope *scope, *labels;
	uint32_t visible_seq;   /* CheckCtx.visible_seq of the lookup */
	const Symbol *sym;
} LookupMemo;

enum { LOOKUP_MEMO = 64 };   /* at most 64: CheckCtx.memo_live has a bit per entry */

/* Checks of an instruction whose verdict depends only on its shape (the
 * opcode, the modifier words in order, the operand count) and on the
 * module header: the shape memo (check_shape.c) remembers which found
 * nothing to say. A check joins this list only if it reads nothing else:
 * no operand, no symbol, no location but for its diagnostics. */
enum {
	SHAPE_ISA_ROWS = 1u << 0,       /* check_isa_instr */
	SHAPE_SYNC = 1u << 1,           /* check_sync_required */
	SHAPE_LOAD_WIDTH = 1u << 2,     /* check_load_width */
	SHAPE_ORDER = 1u << 3,          /* check_memory_order */
	SHAPE_MOD_CLASSES = 1u << 4,    /* check_modifier_classes */
	SHAPE_OPERAND_COUNT = 1u << 5,  /* check_operand_count */
	SHAPE_SIGNATURE = 1u << 6,      /* the word rules of check_operand_signature */
};
typedef struct ShapeMemo ShapeMemo;

typedef struct CheckCtx {
	Module *m;
	DiagSink *sink;
	RulesMode rules;
	Arena arena;            /* module symbols and scope; freed when the check ends */
	Arena item_arena;       /* one function's scopes, symbols and texts; reset after it */

	/* Module header, as far as it is valid. Gates are only evaluated
	 * against a known version/target: an unsupported .version has already
	 * been reported and would make every gate message noise. */
	bool has_version;
	PtxVersion version;
	const char *version_text;
	SrcLoc version_loc;
	const TargetInfo *target;
	const char *target_name;
	SrcLoc target_loc;
	TargetOption texmode;
	int address_bits;       /* 64 unless .address_size says otherwise */
	/* CheckOptions.assembling, and whether an instruction ptxas 11.8
	 * expands into one of its own subroutines was seen (check_module.c:
	 * such a module skips its .version/.target check). */
	bool assembling, builtin_routine;
	bool past_header;        /* something follows the header (streaming: an item came) */
	/* .loc without .file (rule loc-without-file): judged at the module's end. */
	bool has_file, has_loc;
	SrcLoc first_loc;

	/* Functions declared without a body and without .extern, in order:
	 * each must be defined later in the module (check_undefined_funcs). */
	struct DeclaredFunc *declared_funcs, **declared_funcs_tail;

	Scope *module_scope;
	Scope *scope;           /* innermost scope while walking a body */
	Scope *labels;          /* labels of the current function */
	const Func *func;       /* function being checked, NULL at module scope */
	/* An instruction resolves each operand name several times (undefined
	 * names, kernel addresses, register types, surface operands): recent
	 * answers by name pointer, valid until a symbol is declared or the
	 * item ends (check_declare, check_item). */
	LookupMemo memo[LOOKUP_MEMO];
	/* Bit i: memo[i] holds an answer. A declaration forgets only its own
	 * name and visits only the held entries (a function's parameters come
	 * when the memo is empty). */
	uint64_t memo_live;
	ShapeMemo *shapes;      /* in arena, made on first use (check_shape.c) */
	/* A statement checked after later ones were (it named a label further
	 * down a body handed over statement by statement) sees only the
	 * registers and variables declared before it: Symbol.seq <=
	 * visible_seq (0: all). Labels are all visible, as when a block's
	 * labels are entered first. */
	uint32_t decl_seq, visible_seq;
	struct BodyStream *body_stream; /* the body comes statement by statement */
	/* then an ld.param verdict waits for the body's end (check_body_stream.c;
	 * a pointer, so the rule file does not call back into the walk) */
	void (*param_read_waits)(struct CheckCtx *c, const char *name, SrcLoc loc);
} CheckCtx;

/* ---- inline: instruction words ---- */
/* Where the instruction's modifier i is written (the opcode when the
 * instruction was built without modifier locations). */
static inline SrcLoc check_mod_loc(const Instr *in, int i)
{
	return in->mod_locs ? in->mod_locs[i] : in->opcode_loc;
}

/* Called a dozen times per instruction with different names: comparing
 * the first letter first leaves strcmp to the few that share it. */
static inline bool opcode_is(const Instr *in, const char *name)
{
	return in->opcode[0] == name[0] && strcmp(in->opcode, name) == 0;
}

/* ---- check_ctx.c: diagnostics and gates ---- */
/* An error that also marks the instruction as not matching its template,
 * so later form-dependent checks are skipped (as ptxas does). */
Diag *check_template_error(CheckCtx *c, bool *template_failed, SrcLoc loc, RuleId rule, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
Diag *check_error(CheckCtx *c, SrcLoc loc, RuleId rule, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
Diag *check_warning(CheckCtx *c, SrcLoc loc, RuleId rule, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A rule only the PTX ISA document imposes: an error in RULES_STRICT (saying
 * ptxas accepts it and citing `doc`), nothing in RULES_PTXAS. */
Diag *check_strict(CheckCtx *c, SrcLoc loc, RuleId rule, const char *doc, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* 32-bit addressing, which ptxas 13 refuses: an error, but a warning
 * saying so when the job assembles a module for sm_50 (.target sm_50 or
 * older, sm_30, sm_20...: ptxas 11.8 assembles it for sm_50). */
Diag *check_addr32(CheckCtx *c, SrcLoc loc, RuleId rule, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void check_note_version(CheckCtx *c, Diag *d);
void check_note_target(CheckCtx *c, Diag *d);
/* Evaluates one requirement row at loc: emits the version and/or target
 * diagnostics that fail under the current rules mode. `use` names the
 * instruction for rows worded with it. Returns true if the gate passes. */
bool check_gate(CheckCtx *c, ReqId id, SrcLoc loc, const char *use);
/* True if the row would fail (no diagnostics). */
bool check_gate_fails(const CheckCtx *c, ReqId id);
/* The parts of a verdict both gate tables share (requirements.def rows
 * here, isa_gates.def rows in check_isa.c): whether a row of `source`
 * applies in this rules mode; the version in force (ptxas's real one in
 * RULES_PTXAS, the stricter of the stated and the real one otherwise);
 * the rule a failure reports; whether ptxas 13 accepts what fails (a
 * document-only row, or a version ptxas does not enforce). */
bool check_gate_applies(const CheckCtx *c, ReqSource source);
PtxVersion check_gate_threshold(const CheckCtx *c, PtxVersion stated, PtxVersion ptxas);
RuleId check_gate_rule(ReqSource source, bool version);
bool check_gate_strict_only(const CheckCtx *c, ReqSource source, PtxVersion ptxas, bool version);
/* a then b in buf, cut to size - 1 bytes as snprintf would: names such
 * as "suld.b" are built for every instruction, where snprintf shows. */
void check_concat(char *buf, size_t size, const char *a, const char *b);

/* ---- check_shape.c: the shape memo ---- */
/* The SHAPE_* bits of the checks that found nothing to say on an earlier
 * instruction of in's shape under the same header, or NULL when in is not
 * memoised (an unknown opcode, a full memo). */
unsigned *check_shape_clean(CheckCtx *c, const Instr *in);
/* Runs check on in unless *clean has bit; sets bit when it emitted
 * nothing (clean may be NULL: always run). */
void check_shape_run(CheckCtx *c, unsigned *clean, unsigned bit, void (*check)(CheckCtx *, const Instr *),
	const Instr *in);

/* ---- check_operand.c: operands ---- */
/* The symbol an EX_NAME refers to, or NULL (special registers included). */
const Symbol *check_lookup(CheckCtx *c, const Expr *name);
/* Drops the remembered lookups: a symbol was declared, or the names and
 * scopes of the previous item may have been freed. */
void check_forget_lookups(CheckCtx *c);
/* scope_add, forgetting remembered lookups the new symbol may change. */
Symbol *check_declare(CheckCtx *c, Scope *s, Symbol *sym);
/* Declared type of a register operand (EX_NAME naming a register), else TY_NONE. */
PtxType check_register_type(CheckCtx *c, const Expr *e);
/* The .bN type of a width in bits (TY_NONE if there is none). */
PtxType check_bit_type(int bits);
/* check_address.c: an instruction's state space from its modifiers
 * (SP_NONE: generic; SP_TEX: a qualified word such as .shared::cluster
 * that the space rules do not judge), and a space's word (".global",
 * "generic") */
StateSpace check_instr_space(const Instr *in);
const char *check_space_word(StateSpace sp);
bool check_is_sink(const Expr *e);
bool check_is_immediate(const Expr *e);
/* The type of the plain scalar register e names (NULL for immediates,
 * sinks, components, vectors and names that are no register: other rules
 * judge those). */
const TypeInfo *check_scalar_register(CheckCtx *c, const Expr *e);
/* May this immediate stand for a value of type t? Integers always may;
 * float literals only for float types, or for a bit type of exactly the
 * literal's width (0f: 32 bits; 0d and decimal: 64 bits), as ptxas 13 does. */
bool check_immediate_fits(const Expr *e, PtxType t);
/* Texts for messages: "%rd1", "g+4", ... */
const char *check_expr_text(CheckCtx *c, const Expr *e);
/* The base name of [name] or [name+imm], else NULL. */
const Expr *check_address_base(const Expr *e);
/* A .vN register as a whole {...} operand of st (data) or ld/ldu (result):
 * false if e is none, else true with its width and type checked under the
 * caller's rule. */
bool check_vector_register(CheckCtx *c, bool *template_failed, const Expr *e, int n, PtxType type,
	const char *opcode, RuleId rule);

/* ---- check_mods.c: modifier classes (modifier_classes.def) ---- */
/* At most one modifier of each class, exactly one of a needed class. */
void check_modifier_classes(CheckCtx *c, const Instr *in);
/* The modifier classes of the instruction's opcode ("state space",
 * "scope", "memory order", ...): the index of its modifier of that class,
 * or -1; the class's words, or NULL. Other checks ask these instead of
 * listing the words again. */
int modifier_of_class(const Instr *in, const char *noun);
const char *modifier_class_words(const Instr *in, const char *noun);

/* ---- check_module.c, check_body.c: the header and the walk ---- */
void check_header(CheckCtx *c);
/* An instruction ptxas 11.8 expands into a subroutine of its own, and
 * whether a module's bodies have one (c->builtin_routine). */
bool check_builtin_routine(const Instr *in);
bool check_module_has_builtin_routine(const Module *m);
void check_module_items(CheckCtx *c);
/* One module variable or function, after the ISA gates of every item. */
void check_item(CheckCtx *c, const Item *it);
/* One statement of a body that is not a block or a label, in the current
 * scope (check_body.c). */
void check_stmt(CheckCtx *c, const Stmt *s);
/* A function's header: its symbol, parameters and directives, each part
 * into its own sink (the order check_item emits them in: decl, then
 * gates, then directives), leaving c->scope at the function's scope. */
void check_func_begin(CheckCtx *c, const Func *f, DiagSink *decl, DiagSink *gates, DiagSink *dirs);
/* Back to module scope after a function; frees its scopes. */
void check_func_end(CheckCtx *c);

/* ---- the rule files, as check_body.c calls them ---- */
/* check_decl.c */
typedef enum DeclPlace {
	DECL_MODULE, DECL_ENTRY_PARAM, DECL_FUNC_PARAM, DECL_FUNC_RET, DECL_BODY,
} DeclPlace;
void check_var_decl(CheckCtx *c, const VarDecl *d, DeclPlace place, Scope *into);
/* check_init.c: the terms of a variable's initializer against its type */
void check_initializer(CheckCtx *c, const Declarator *dc, PtxType type, int vec);
/* The labels of one block, entered before its statements so a branch may
 * name one further down. */
void check_label_decls(CheckCtx *c, const Stmt *s);
/* One label of the current block (c->labels): its symbol, or NULL when
 * the name was taken. A `.callprototype` right after it (s->next, when the
 * body is held whole) becomes its formals. */
Symbol *check_label_decl(CheckCtx *c, const Stmt *s);
/* The return values and parameters a `.callprototype` declares, for the
 * indirect calls that name its label (check_call.c). */
const Formals *check_proto_formals(CheckCtx *c, const CallProto *p);
void check_func_decl(CheckCtx *c, const Func *f);
/* At the module's end: each function declared without .extern and never
 * defined (ptxas: Unresolved extern function). */
void check_undefined_funcs(CheckCtx *c);
void check_alias_defines(CheckCtx *c, const Directive *d);
/* check_func_dirs.c: launch-bound directives on a .func, calling-convention
 * ones on an .entry. */
void check_func_dirs(CheckCtx *c, const Func *f);
void check_proto_dirs(CheckCtx *c, const CallProto *p);
/* check_surface.c: the surface instructions; mov of a .surfref; an
 * opaque variable as the operand of any other instruction; txq's
 * attribute gates. check_st.c: st. */
void check_surface_instr(CheckCtx *c, const Instr *in);
void check_surface_mov(CheckCtx *c, const Instr *in);
void check_opaque_operands(CheckCtx *c, const Instr *in);
/* The gates of the descriptor attributes txq reads (those of suq). */
void check_txq_attributes(CheckCtx *c, const Instr *in);
void check_st_instr(CheckCtx *c, const Instr *in);
/* check_sync.c: vote and shfl without .sync on a new .version and .target. */
void check_sync_required(CheckCtx *c, const Instr *in);
void check_barrier_operands(CheckCtx *c, const Instr *in);
/* check_call.c (rule call-arguments): a direct call's return values and
 * arguments against the callee's declaration. */
void check_call_arguments(CheckCtx *c, const Instr *in);
/* check_sync.c: the .loc-without-.file warning and (strict mode) the
 * literal-truncated ones, once the module is read. */
void check_loc_file(CheckCtx *c);
/* check_operand_type.c (rule operand-type): the guard, special registers,
 * the destination, variables as sources, ld/ldu results, mov packing, ld.param in an .entry. */
void check_guard_type(CheckCtx *c, const Instr *in);
void check_special_operands(CheckCtx *c, const Instr *in);
/* check_operators.c: '-', '!', '+' offsets and other operators on names */
void check_operand_operators(CheckCtx *c, const Instr *in);
/* check_components.c: .x, .h0 ... after a name */
void check_operand_components(CheckCtx *c, const Instr *in);
void check_destination(CheckCtx *c, const Instr *in);
void check_variable_sources(CheckCtx *c, const Instr *in);
/* check_cvta.c: the space and width of the addresses cvta and mov take */
void check_address_conversion(CheckCtx *c, const Instr *in, bool var_named);
void check_load_vector(CheckCtx *c, const Instr *in);
void check_initializer_forms(CheckCtx *c, const Instr *in);
void check_vector_sizes(CheckCtx *c, const Instr *in);
bool check_vector_elements(CheckCtx *c, const Instr *in, const Expr *d, const char *what);
/* check_mov.c: mov's {...} and .v2/.v4 registers, packing and .vN copies */
void check_mov_pack(CheckCtx *c, const Instr *in);
void check_param_read(CheckCtx *c, const Instr *in);
void check_param_guard(CheckCtx *c, const Instr *in);
/* check_tex_offsets.c (rule operand-type): the texel offsets vector e of
 * tex/tld4 (..., e{, f}): its size per geometry, none on a cube map, 32-bit
 * integer elements, as ptxas 13 takes them. */
void check_texture_offsets(CheckCtx *c, const Instr *in);
/* check_tex_types.c: tex/tld4 vector width, the registers of the {...}
 * result and coordinates, tex.level's level of detail */
void check_texture_types(CheckCtx *c, const Instr *in);
/* check_packed.c: operands of .f16x2/.bf16x2/.f32x2 arithmetic are
 * registers of the packed type or .bN of its width */
void check_packed_operands(CheckCtx *c, const Instr *in);
void check_param_read_error(CheckCtx *c, const char *name, SrcLoc loc);
/* A direct call's return list (call (r), f, (a)), else NULL. */
const Expr *check_call_returns(const Instr *in);

/* ---- check_body_stream.c: a body handed over statement by statement ---- */
typedef struct BodyStream BodyStream;
BodyStream *body_stream_new(CheckCtx *c);
void body_stream_free(BodyStream *b);
/* Starts a function whose statements follow one by one: the header's
 * diagnostics go before everything the body draws into `into`. */
void body_stream_begin(BodyStream *b, const Func *f, DiagSink *into);
bool body_stream_open(const BodyStream *b);
void body_stream_stmt(BodyStream *b, const Stmt *s);
void body_stream_block_begin(BodyStream *b);
void body_stream_block_end(BodyStream *b);
/* The function's end: statements still waiting are judged, the body's
 * diagnostics are appended to `into` in check_item's order. */
void body_stream_end(BodyStream *b);
/* Drops a body cut short by a syntax error (nothing is appended). */
void body_stream_abandon(BodyStream *b);
/* check_signature.c (rule operand-type): register widths and kinds,
 * immediates and rounding modifiers against the instruction types, by
 * isa/operand_sigs.def. Its rules on the words alone are skipped when
 * *clean has SHAPE_SIGNATURE, which it sets (clean may be NULL). */
void check_operand_signature(CheckCtx *c, const Instr *in, unsigned *clean);
/* Type words the type table does not hold but matrix and packed forms
 * name (.tf32, .b1, .s4, .e4m3...): check_signature.c */
bool check_is_other_type_word(const char *w);
/* Where word ends in a space-separated list (at ' ', ':' or the end),
 * NULL if the list lacks it: check_mods.c */
const char *check_word_in_list(const char *list, const char *word);
/* check_carry.c (rule operand-type): the types .cc takes (CARRY rows) */
void check_carry(CheckCtx *c, const Instr *in);
/* check_compare.c (rule operand-type): set's type pairs (SETTYPES rows),
 * set/setp's comparison operators and .ftz by source type (CMPOPS rows) */
void check_compare(CheckCtx *c, const Instr *in);
/* check_wmma.c (rule operand-type): wmma.load/.store fragments (WMMAFRAG rows) */
void check_wmma_fragment(CheckCtx *c, const Instr *in);
void check_wmma_mma(CheckCtx *c, const Instr *in);
/* check_video.c (rule operand-type): selectors and secondary operations
 * of the scalar video instructions (VIDEO rows of isa/operand_sigs.def). */
void check_video_form(CheckCtx *c, const Instr *in);
/* check_atomic.c (rule atomic-form): .noftz and vector widths of atom and red */
void check_atomic_form(CheckCtx *c, const Instr *in);
/* one of the video instructions (scalar or SIMD), which take selectors */
bool check_is_video(const Instr *in);
/* check_address.c (rule operand-type): address forms and state spaces of
 * ld, ldu, atom, red and prefetch; address forms of every other
 * instruction but st and the surface ones. */
void check_memory_address(CheckCtx *c, const Instr *in);
/* check_load_width.c: the widest vector ld and ldu take. */
void check_load_width(CheckCtx *c, const Instr *in);
/* check_order.c: memory orders and scopes of ld and mbarrier. */
void check_memory_order(CheckCtx *c, const Instr *in);
/* check_operands.c: operand count of every other instruction
 * (operand_counts.def). */
void check_operand_count(CheckCtx *c, const Instr *in);

#endif
