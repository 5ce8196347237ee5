/* Rule operand-type, register and immediate typing: every operand of the
 * opcodes in isa/operand_sigs.def against the instruction's types, as
 * ptxas 13 judges them ("Arguments mismatch for instruction 'add'",
 * "Result register required for instruction 'add'"). The messages say
 * what the operand is and what would be right. */
#include "check/check_internal.h"
#include "base/once.h"
#include "base/xalloc.h"
#include "isa/opcodes.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct OpSig {
	const char *opcode, *form, *roles;
	char rounding, sat;
} OpSig;

static const OpSig op_sigs[] = {
#define OPSIG(opcode, form, roles, rounding, sat) { opcode, form, roles, rounding, sat },
#include "isa/operand_sigs.def"
};

typedef struct FormTypes {
	const char *opcode, *form, *types;
	char wording;
} FormTypes;

static const FormTypes form_types[] = {
#define OPTYPES(opcode, form, types, wording) { opcode, form, types, wording },
#include "isa/operand_sigs.def"
};
typedef struct TypeCount {
	const char *opcode, *form;
	int count;
} TypeCount;

static const TypeCount type_counts[] = {
#define TYPECOUNT(opcode, form, count) { opcode, form, count },
#include "isa/operand_sigs.def"
};
typedef struct HalfRow {
	const char *opcode, *types, *roundings;
	char required;
	const char *takes;
} HalfRow;

static const HalfRow half_rows[] = {
#define HALF(opcode, types, roundings, required, takes) { opcode, types, roundings, required, takes },
#include "isa/operand_sigs.def"
};

typedef struct PredOutRow {
	const char *opcode, *form;
} PredOutRow;

static const PredOutRow pred_outs[] = {
#define PREDOUT(opcode, form) { opcode, form },
#include "isa/operand_sigs.def"
};

typedef struct MmaShapeRow {
	const char *atype, *shapes;
} MmaShapeRow;

static const MmaShapeRow mma_shapes[] = {
#define MMASHAPE(atype, shapes) { atype, shapes },
#include "isa/operand_sigs.def"
};

enum { N_SIGS = sizeof op_sigs / sizeof op_sigs[0], N_COUNTS = sizeof type_counts / sizeof type_counts[0] };

/* The first row of each opcode id (N_SIGS: none), built once: the checker
 * asks for every instruction, so a row is found without comparing names. */
/* Room for every opcode of ptx_opcodes.def (as check_mods.c's table). */
enum { OPCODE_ROWS_MAX = 256 };
static short first_row[OPCODE_ROWS_MAX], first_count_row[OPCODE_ROWS_MAX];
static OnceFlag first_row_built;

static void build_first_rows(void)
{
	size_t n = opcode_count();
	if (n > OPCODE_ROWS_MAX)
		xdie("ptx_opcodes.def: more than %d opcodes", OPCODE_ROWS_MAX);
	for (size_t id = 0; id < n; id++) {
		first_row[id] = N_SIGS;
		for (int i = 0; i < N_SIGS; i++)
			if (strcmp(op_sigs[i].opcode, opcode_name((int)id)) == 0) {
				first_row[id] = (short)i;
				break;
			}
		first_count_row[id] = N_COUNTS;
		for (int i = 0; i < N_COUNTS; i++)
			if (strcmp(type_counts[i].opcode, opcode_name((int)id)) == 0) {
				first_count_row[id] = (short)i;
				break;
			}
	}
}

/* Filled once and then only read: contexts on other threads share it. */
static const short *first_rows(void)
{
	ONCE(&first_row_built, build_first_rows());
	return first_row;
}

static bool has_mod(const Instr *in, const char *word)
{
	for (uint32_t i = 0; i < in->nmods; i++)
		if (strcmp(in->mods[i], word) == 0)
			return true;
	return false;
}

static const OpSig *sig_of(const Instr *in)
{
	const short *rows = first_rows();
	if (in->opcode_id < 0 || (size_t)in->opcode_id >= opcode_count() || (size_t)in->opcode_id >= OPCODE_ROWS_MAX)
		return NULL;
	for (int i = rows[in->opcode_id]; i < N_SIGS && strcmp(op_sigs[i].opcode, in->opcode) == 0; i++)
		if (!op_sigs[i].form[0] || has_mod(in, op_sigs[i].form))
			return &op_sigs[i];
	return NULL;
}

/* Types the rule judges: packed and .bf16 types have rules of their own. */
static bool judged_type(PtxType t)
{
	const TypeInfo *ti = type_info(t);
	return t != TY_NONE && t != TY_BF16 && ti->cls != TC_PACKED && ti->cls != TC_OPAQUE;
}

/* The same type of another width (mul.wide's result): TY_NONE if none. */
static PtxType type_of_width(PtxType t, int bits)
{
	TypeClass cls = type_info(t)->cls;
	for (int i = TY_NONE + 1; i < TY_COUNT; i++)
		if (type_info((PtxType)i)->cls == cls && type_info((PtxType)i)->bits == bits)
			return (PtxType)i;
	return TY_NONE;
}

/* Exact fit for arithmetic: the same width; a bit type takes any kind,
 * an integer type integer or bit registers, a float type anything but an
 * integer register; predicates only predicates. */
static bool exact_fit(PtxType insn, PtxType reg)
{
	const TypeInfo *it = type_info(insn), *rt = type_info(reg);
	if (it->cls == TC_PRED || rt->cls == TC_PRED)
		return insn == reg;
	if (rt->bits != it->bits)
		return false;
	switch (it->cls) {
	case TC_UNSIGNED:
	case TC_SIGNED:
		return rt->cls != TC_FLOAT;
	case TC_FLOAT:
		return rt->cls != TC_UNSIGNED && rt->cls != TC_SIGNED;
	default:
		return true;
	}
}

/* What would fit, for the message. */
static const char *wanted(const TypeInfo *ti, bool relaxed)
{
	switch (ti->cls) {
	case TC_PRED: return "a predicate register";
	case TC_BIT: return relaxed ? "a register at least that wide" : "a register of that width";
	case TC_UNSIGNED:
	case TC_SIGNED: return relaxed ? "an integer or .bN register at least that wide" :
		"an integer or .bN register of that width";
	default: return relaxed ? "a float register of that width or a .bN register at least that wide" :
		"a float or .bN register of that width";
	}
}

static bool is_int_literal(const Expr *e)
{
	return e->kind == EX_INT || (e->kind == EX_UNARY && e->lhs && e->lhs->kind == EX_INT);
}

static bool is_float_literal(const Expr *e)
{
	return e->kind == EX_FLOAT || (e->kind == EX_UNARY && e->lhs && e->lhs->kind == EX_FLOAT);
}

static bool is_written(char role)
{
	return role == 'd' || role == 'D' || role == 'W' || role == 'U' || role == 'P' || role == 'c' || role == 'l';
}

/* The operand a role judges: for a written d|p (shfl, setp...) the
 * register before '|'. */
static const Expr *written_operand(const Expr *e, char role)
{
	if (is_written(role) && e->kind == EX_BINARY && e->op == '|' && e->lhs)
		return e->lhs;
	return e;
}

static bool not_a_register(const Expr *e)
{
	return is_int_literal(e) || is_float_literal(e) || e->kind == EX_ADDRESS;
}

/* Written operands are registers whatever the types (mul.f32x2 1, ...). */
static void check_results(CheckCtx *c, const Instr *in, const OpSig *sig)
{
	for (uint32_t i = 0; i < in->nops && sig->roles[i]; i++) {
		const Expr *e = written_operand(in->ops[i], sig->roles[i]);
		if (is_written(sig->roles[i]) && not_a_register(e))
			check_error(c, e->loc, RULE_OPERAND_TYPE, "Result register required for instruction '%s%s' (operand "
				"%u, '%s', is written: name a register)", in->opcode, sig->form, i + 1, check_expr_text(c, e));
	}
}

/* The operand kinds the letters state whatever the types: an address
 * where a says one, a label where L does, and no address where any other
 * letter judges a source (a result's is check_results's). A name not yet
 * declared may be a label further down (a streamed body's forward
 * branch): undefined-symbol decides about it at the function's end. */
static void check_kinds(CheckCtx *c, const Instr *in, const OpSig *sig)
{
	for (uint32_t i = 0; i < in->nops && sig->roles[i]; i++) {
		char role = sig->roles[i];
		const Expr *e = in->ops[i];
		if (role == '-' || is_written(role))
			continue;
		if (role == 'a') {
			if (e->kind != EX_ADDRESS)
				check_error(c, e->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' ('%s' is no "
					"address: write [%s])", in->opcode, check_expr_text(c, e), check_expr_text(c, e));
			continue;
		}
		if (role == 'L') {
			const Symbol *s = e->kind == EX_NAME && !e->component ? check_lookup(c, e) : NULL;
			if (e->kind != EX_NAME || e->component || (s && s->kind != SYM_LABEL))
				check_error(c, e->loc, RULE_OPERAND_TYPE, "Label expected for argument %u of instruction '%s' ('%s' "
					"is %s; branch through a register with brx.idx, call a function with call)", i, in->opcode,
					check_expr_text(c, e), s && s->kind == SYM_REG ? "a register" :
					s && s->kind == SYM_FUNC ? "a function" : s ? "no label" : "no label name");
			continue;
		}
		if (e->kind == EX_ADDRESS)
			check_error(c, e->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' ('%s' is an address; "
				"operand %u is a register or an immediate: load it with ld first)", in->opcode,
				check_expr_text(c, e), i + 1);
	}
}

/* One operand against its role letter; t is the type it is judged by. */
static void check_role(CheckCtx *c, const Instr *in, const OpSig *sig, uint32_t at, char role, PtxType t)
{
	const Expr *e = written_operand(in->ops[at], role);
	bool written = e != in->ops[at] || is_written(role);
	bool relaxed = role == 'c' || role == 'C' || role == 'l';
	if (written && not_a_register(e))
		return;
	if (!judged_type(t))
		return;
	const TypeInfo *ti = type_info(t);
	if (role == 'i') {
		int64_t lut;
		if (!expr_const_int(e, &lut))
			check_error(c, e->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' ('%s' is not an "
				"integer constant; operand %u is the lookup table: write an integer literal, 0x96)", in->opcode,
				check_expr_text(c, e), at + 1);
		return;
	}
	if (role == 'r' && (is_int_literal(e) || is_float_literal(e))) {
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Incorrect video selector for operand %u of instruction '%s' ('%s' "
			"is an immediate; the SIMD video instructions read registers: name a .u32, .s32 or .b32 register)",
			at, in->opcode, check_expr_text(c, e));
		return;
	}
	/* ptxas 13 reads a 16-bit float, scalar or packed, from a register
	 * only: add.f16 %h1, %h2, 0f3F800000 and atom.add.noftz.f16x2 ..., 0
	 * are "Arguments mismatch" */
	if ((is_int_literal(e) || is_float_literal(e)) && (ti->cls == TC_PACKED || (ti->cls == TC_FLOAT && ti->bits == 16))) {
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s%s' ('%s' is an "
			"immediate; operand %u is %s, which takes no immediate: name a %s or .b%d register)", in->opcode,
			sig->form, check_expr_text(c, e), at + 1, ti->word, ti->word, ti->bits);
		return;
	}
	if (is_int_literal(e) || is_float_literal(e)) {
		bool fits = is_int_literal(e) ? ti->cls != TC_FLOAT : check_immediate_fits(e, t);
		if (!fits && ti->cls != TC_PRED)
			check_error(c, e->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s%s' ('%s' is %s "
				"immediate; operand %u is %s: write %s)", in->opcode, sig->form, check_expr_text(c, e),
				is_int_literal(e) ? "an integer" : "a float", at + 1, ti->word,
				ti->cls == TC_FLOAT ? "a float literal (0f3F800000, 1.0)" : "an integer literal");
		return;
	}
	if (e->kind != EX_NAME || check_is_sink(e))
		return;
	const Symbol *s = check_lookup(c, e);
	if (s && role == 's' && ti->cls == TC_FLOAT && (s->kind == SYM_VAR || s->kind == SYM_FUNC)) {
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s%s' ('%s' is an address; "
			"%s takes it with .u%d or .b%d, not %s)", in->opcode, sig->form, e->text, in->opcode, c->address_bits,
			c->address_bits, ti->word);
		return;
	}
	if (s && s->kind == SYM_SPECIAL && !s->is_constant && role == 's' && ti->cls == TC_FLOAT) {
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Special register argument not allowed for instruction '%s' with "
			"%s ('%s' is an integer: %s.u32)", in->opcode, ti->word, check_expr_text(c, e), in->opcode);
		return;
	}
	if (e->component)
		return;
	/* a .v2/.v4 register is an operand of mov, ld/ldu and st only
	 * (their own rules: check_mov.c, check_load_vector, check_st.c) */
	if (s && s->kind == SYM_REG && s->vec && role != 'l' && !opcode_is(in, "mov")) {
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Vector operand is not allowed for instruction '%s' ('%s' is a .v%d "
			"register: name one element, %s.x)", in->opcode, e->text, s->vec, e->text);
		return;
	}
	if (!s || s->kind != SYM_REG || s->vec)
		return;
	bool fits = relaxed ? type_register_fits(t, s->type, FIT_RELAXED) : exact_fit(t, s->type);
	/* a shift amount, bit position, count or stride is no packed value
	 * (ptxas 13 refuses shl.b32's %h of .f16x2; the video instructions
	 * take it) */
	if ((role == 'u' || role == 'U') && type_info(s->type)->cls == TC_PACKED && !check_is_video(in))
		fits = false;
	if (fits)
		return;
	check_error(c, e->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s%s' ('%s' is %s; operand %u "
		"needs %s: %s)", in->opcode, sig->form, e->text, type_info(s->type)->word, at + 1, ti->word,
		wanted(ti, relaxed));
}

/* ---- rounding ---- */
/* Rounding modifiers as ptxas 13 requires and forbids them, by the types
 * the instruction converts between (cvt) or computes in (add, sub, mul,
 * mad, div with an integer type take none). */
static int rounding_kind(const char *w)
{
	static const char *const fl[] = { ".rn", ".rz", ".rm", ".rp" }, *const in[] = { ".rni", ".rzi", ".rmi", ".rpi" };
	for (int i = 0; i < 4; i++) {
		if (strcmp(w, fl[i]) == 0)
			return 1;
		if (strcmp(w, in[i]) == 0)
			return 2;
	}
	return 0;
}

enum { RND_NONE, RND_FLOAT, RND_INT, RND_FORBIDDEN = 4 };

/* What cvt from src to dst takes: a needed rounding kind (RND_FLOAT,
 * RND_INT), or the optional integer rounding of a same-width float
 * conversion (RND_INT | RND_FORBIDDEN: integer allowed, not needed), or
 * none (RND_FORBIDDEN). */
static int cvt_rounding(const TypeInfo *dst, const TypeInfo *src)
{
	bool df = dst->cls == TC_FLOAT, sf = src->cls == TC_FLOAT;
	if (df && sf)
		return dst->bits < src->bits ? RND_FLOAT : dst->bits == src->bits ? (RND_INT | RND_FORBIDDEN) : RND_FORBIDDEN;
	if (sf)
		return RND_INT;
	if (df)
		return RND_FLOAT;
	return RND_FORBIDDEN;
}

/* mad.f32 without a rounding word (the old mad of sm_1x): ptxas 13
 * takes it for an sm_1x target at any .version and for any target up to
 * .version 3.1; not mad.f64 nor fma.f32 (measured: .version 1.4-8.0 with
 * sm_10, sm_13, sm_20, sm_30, sm_35, sm_50; .ftz and .sat alike). With an
 * sm_1x target it is the only mad.f32: a rounding word there is "Illegal
 * rounding modifier for instruction 'mad'" (.version 1.4-3.0, sm_10 to
 * sm_13, .rn/.rz/.rm/.rp with or without .ftz/.sat; sm_20 takes them). */
enum { LAST_SM1X = 13 };

static bool target_is_sm1x(const CheckCtx *c)
{
	return c->target && c->target->sm <= LAST_SM1X;
}

static bool mad_f32_unrounded(const CheckCtx *c)
{
	if (target_is_sm1x(c))
		return true;
	return c->has_version && c->version <= PTX_VERSION_OF(3, 1);
}

/* The first rounding word of the instruction, and the types it was
 * judged with: row 'I' takes none on an integer type, row 'C' by cvt's
 * two types (dst, src). */
static void check_rounding(CheckCtx *c, const Instr *in, const char *sig_form, char rule_kind, int at, PtxType dst,
			   PtxType src)
{
	int kind = at >= 0 ? rounding_kind(in->mods[at]) : 0;
	TypeClass dcls = type_info(dst)->cls;
	if (rule_kind == 'X') {
		bool approx = false;
		for (uint32_t i = 0; i < in->nmods; i++)
			approx |= strcmp(in->mods[i], ".approx") == 0;
		if (!approx && (!c->has_version || c->version >= PTX_VERSION_OF(1, 4)))
			check_error(c, in->opcode_loc, RULE_OPERAND_TYPE, ".approx modifier required for instruction '%s' "
				"(PTX ISA 1.4 and later: %s.approx%s)", in->opcode, in->opcode, type_info(dst)->word);
		return;
	}
	if (rule_kind == 'L' && dcls == TC_FLOAT) {
		check_error(c, in->opcode_loc, RULE_OPERAND_TYPE, "Unexpected instruction types specified for '%s%s' (%s: "
			"this form takes integer types; a float %s has no .lo, .hi or .wide)", in->opcode, sig_form, type_info(dst)->word,
			in->opcode);
		return;
	}
	if ((rule_kind == 'M' || rule_kind == 'N') && (dcls == TC_SIGNED || dcls == TC_UNSIGNED || dcls == TC_BIT ||
						      (rule_kind == 'N' && dst == TY_F16))) {
		check_error(c, in->opcode_loc, RULE_OPERAND_TYPE, "Unexpected instruction types specified for '%s' (%s%s "
			"names the half of the product it keeps: %s.lo%s, .hi or .wide)", in->opcode, in->opcode,
			type_info(dst)->word, in->opcode, type_info(dst)->word);
		return;
	}
	if (rule_kind == 'F' || rule_kind == 'N') {
		if (at < 0 && dst == TY_F32 && opcode_is(in, "mad") && mad_f32_unrounded(c))
			return;
		if (at >= 0 && dst == TY_F32 && rule_kind == 'N' && target_is_sm1x(c)) {
			check_error(c, check_mod_loc(in, at), RULE_OPERAND_TYPE, "Illegal rounding modifier for instruction 'mad' "
				"(mad.f32 on an %s target is the unfused mad and takes no rounding; %s needs .target sm_20 or "
				"later)", c->target->name, in->mods[at]);
			return;
		}
		if (at < 0 && (dst == TY_F32 || dst == TY_F64 || dst == TY_F16))
			check_error(c, in->opcode_loc, RULE_OPERAND_TYPE, "Rounding modifier required for instruction '%s' "
				"(%s%s needs .rn, .rz, .rm or .rp)", in->opcode, in->opcode, type_info(dst)->word);
		return;
	}
	if ((rule_kind == 'A' || rule_kind == 'D') && (dst == TY_F32 || dst == TY_F64)) {
		int approx = -1, full = -1;
		for (uint32_t i = 0; i < in->nmods; i++) {
			if (strcmp(in->mods[i], ".approx") == 0)
				approx = (int)i;
			else if (strcmp(in->mods[i], ".full") == 0)
				full = (int)i;
		}
		bool rcp = opcode_is(in, "rcp");
		if (dst == TY_F64 && approx >= 0 && !rcp) {
			check_error(c, check_mod_loc(in, approx), RULE_OPERAND_TYPE, "Illegal modifier '.approx' for instruction "
				"'%s' (%s.f64 takes .rn, .rz, .rm or .rp)", in->opcode, in->opcode);
			return;
		}
		if (at >= 0 && approx >= 0) {
			check_error(c, check_mod_loc(in, approx), RULE_OPERAND_TYPE, "Rounding modifier or '.approx' modifier "
				"required for instruction '%s' (one of them, not both: drop %s or .approx)", in->opcode, in->mods[at]);
			return;
		}
		if (at >= 0 && full >= 0) {
			check_error(c, check_mod_loc(in, at), RULE_OPERAND_TYPE, "Illegal rounding modifier for instruction "
				"'%s.full' (div.full is its own rounding: drop %s)", in->opcode, in->mods[at]);
			return;
		}
		bool approx_ok = dst == TY_F32 || rcp;
		if (at < 0 && approx < 0 && !(full >= 0 && rule_kind == 'D' && dst == TY_F32))
			check_error(c, in->opcode_loc, RULE_OPERAND_TYPE, "Rounding modifier %srequired for instruction '%s' "
				"(%s%s needs .rn, .rz, .rm or .rp%s)", approx_ok ? "or '.approx' modifier " : "", in->opcode,
				in->opcode, type_info(dst)->word, !approx_ok ? "" : rule_kind == 'D' ? ", .approx or .full" :
				" or .approx");
		return;
	}
	if (rule_kind == 'A')
		return;
	if (rule_kind == 'I' || rule_kind == 'L' || rule_kind == 'D' || rule_kind == 'M') {
		TypeClass cls = type_info(dst)->cls;
		if (at >= 0 && cls != TC_FLOAT && cls != TC_PRED)
			check_error(c, check_mod_loc(in, at), RULE_OPERAND_TYPE, "Illegal rounding modifier for instruction "
				"'%s' ('%s' with the integer type %s: drop it)", in->opcode, in->mods[at], type_info(dst)->word);
		return;
	}
	if (type_info(dst)->cls == TC_BIT || type_info(src)->cls == TC_BIT || type_info(dst)->cls == TC_PRED ||
	    type_info(src)->cls == TC_PRED)
		return;
	int rule = cvt_rounding(type_info(dst), type_info(src));
	int need = rule & (RND_FLOAT | RND_INT);
	const char *conv = type_info(src)->cls == TC_FLOAT ? (type_info(dst)->cls == TC_FLOAT ?
		"between float types" : "from float to integer") : (type_info(dst)->cls == TC_FLOAT ?
		"from integer to float" : "between integer types");
	if (at < 0) {
		if (need && !(rule & RND_FORBIDDEN))
			check_error(c, in->opcode_loc, RULE_OPERAND_TYPE, "Rounding modifier required for instruction 'cvt' "
				"(%s%s needs %s)", type_info(dst)->word, type_info(src)->word,
				need == RND_FLOAT ? ".rn, .rz, .rm or .rp" : ".rni, .rzi, .rmi or .rpi");
		return;
	}
	if (kind != need)
		check_error(c, check_mod_loc(in, at), RULE_OPERAND_TYPE, "Illegal rounding modifier for instruction 'cvt' "
			"('%s' in a conversion %s, %s%s: %s)", in->mods[at], conv, type_info(dst)->word,
			type_info(src)->word, !need ? "it takes none" : need == RND_FLOAT ?
			"write .rn, .rz, .rm or .rp" : "write .rni, .rzi, .rmi or .rpi");
}

/* True if every modifier is a type, a rounding, .ftz or .sat: cvt's
 * forms with words this table does not know (.pack, .e4m3x2...) are left
 * to the modifier rules. */
static bool only_plain_words(const Instr *in)
{
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		if (type_from_word(w) == TY_NONE && !rounding_kind(w) && strcmp(w, ".ftz") != 0 && strcmp(w, ".sat") != 0)
			return false;
	}
	return true;
}

/* d|p results (setp, shfl, tld4...): the part after '|' is a predicate. */
static void check_predicate_output(CheckCtx *c, const Instr *in)
{
	const Expr *e = in->nops ? in->ops[0] : NULL;
	if (!e || e->kind != EX_BINARY || e->op != '|' || !e->rhs || e->rhs->kind != EX_NAME)
		return;
	bool takes = false;
	for (size_t r = 0; r < sizeof pred_outs / sizeof pred_outs[0] && !takes; r++)
		takes = strcmp(pred_outs[r].opcode, in->opcode) == 0 && (!pred_outs[r].form[0] || has_mod(in, pred_outs[r].form));
	if (!takes) {
		/* the instructions that do, from the PREDOUT rows */
		char which[160];
		size_t used = 0;
		for (size_t r = 0; r < sizeof pred_outs / sizeof pred_outs[0] && used < sizeof which; r++)
			used += (size_t)snprintf(which + used, sizeof which - used, "%s%s%s", r ? ", " : "", pred_outs[r].opcode,
				pred_outs[r].form);
		check_error(c, e->rhs->loc, RULE_OPERAND_TYPE, "Predicate output not allowed for instruction '%s' ('|%s': "
			"only %s write a second, predicate result; drop it)", in->opcode, check_expr_text(c, e->rhs), which);
		return;
	}
	if (check_is_sink(e->rhs))
		return;
	const Symbol *s = check_lookup(c, e->rhs);
	if (s && s->kind == SYM_REG && s->type != TY_PRED)
		check_error(c, e->rhs->loc, RULE_OPERAND_TYPE, "Predicate output expected for instruction '%s' ('%s' is %s; "
			"after '|' comes a .pred register)", in->opcode, e->rhs->text, type_info(s->type)->word);
}

/* ---- saturation ---- */
/* True if every value of integer type src fits integer type dst: then
 * cvt has nothing to clamp and ptxas 13 refuses .sat. */
static bool int_range_fits(const TypeInfo *dst, const TypeInfo *src)
{
	bool ds = dst->cls == TC_SIGNED, ss = src->cls == TC_SIGNED;
	if (ds == ss)
		return dst->bits >= src->bits;
	return ds && dst->bits > src->bits;
}

/* .sat by the row's sat letter and the instruction types (dst, src). */
static void check_saturation(CheckCtx *c, const Instr *in, const OpSig *sig, int at, PtxType dst, PtxType src)
{
	const TypeInfo *dt = type_info(dst), *st = type_info(src);
	SrcLoc loc = check_mod_loc(in, at);
	bool dint = dt->cls == TC_SIGNED || dt->cls == TC_UNSIGNED;
	switch (sig->sat) {
	case 'N':
		if (strcmp(sig->form, ".cc") == 0)
			check_error(c, loc, RULE_OPERAND_TYPE, "Modifier '.cc' cannot be combined with modifier '.sat' (%s.cc "
				"carries out of the full range; drop one)", in->opcode);
		else
			check_error(c, loc, RULE_OPERAND_TYPE, "Illegal modifier '.sat' for instruction '%s%s' (only %s%s "
				"with a float type, or add/sub/mad.hi/mad24.hi/addc/subc/madc.hi .s32, saturate)", in->opcode, sig->form, in->opcode,
				sig->form[0] ? " without it" : "");
		return;
	case 'A':
	case 'F':
		if (sig->sat == 'A' && dint && dst != TY_S32) {
			check_error(c, loc, RULE_OPERAND_TYPE, "Modifier '.sat' does not apply to '%s' type (%s%s.sat takes "
				".s32 among the integer types)", dt->word, in->opcode, sig->form);
			return;
		}
		if (dst == TY_F64)
			check_error(c, loc, RULE_OPERAND_TYPE, "Illegal modifier '.sat' for instruction '%s' (.f64 does not "
				"saturate; .sat clamps .f32 results to [0.0, 1.0])", in->opcode);
		return;
	case 'C':
		if (dint && (st->cls == TC_SIGNED || st->cls == TC_UNSIGNED) && int_range_fits(dt, st))
			check_error(c, loc, RULE_OPERAND_TYPE, "Illegal modifier '.sat' for instruction 'cvt' (every %s value "
				"fits %s: there is nothing to clamp)", st->word, dt->word);
		return;
	default:
		return;
	}
}

static bool in_word_list(const char *list, const char *word)
{
	return check_word_in_list(list, word) != NULL;
}

/* HALF rows: roundings, .sat and .ftz of a 16-bit float type. True if
 * a row judged the instruction (the float rules of the OPSIG row are not
 * applied then). */
static bool check_half_type(CheckCtx *c, const Instr *in, PtxType type)
{
	if (type != TY_F16 && type != TY_F16X2 && type != TY_BF16 && type != TY_BF16X2)
		return false;
	const char *word = type_info(type)->word;
	for (size_t r = 0; r < sizeof half_rows / sizeof half_rows[0]; r++) {
		const HalfRow *row = &half_rows[r];
		if (strcmp(row->opcode, in->opcode) != 0 || !in_word_list(row->types, word))
			continue;
		int rounding = -1, sat = -1, relu = -1;
		for (uint32_t i = 0; i < in->nmods; i++) {
			const char *w = in->mods[i];
			if (rounding_kind(w) && rounding < 0)
				rounding = (int)i;
			if (strcmp(w, ".relu") == 0)
				relu = (int)i;
			if ((strcmp(w, ".sat") == 0 && (sat = (int)i) >= 0) || strcmp(w, ".ftz") == 0) {
				if (!in_word_list(row->takes, w))
					check_error(c, check_mod_loc(in, (int)i), RULE_OPERAND_TYPE, "Illegal modifier '%s' for "
						"instruction '%s' (%s%s takes %s)", w, in->opcode, in->opcode, word,
						row->takes[0] ? ".sat and .ftz only with .f16 and .f16x2" : "neither .sat nor .ftz");
			}
		}
		if (rounding >= 0 && !in_word_list(row->roundings, in->mods[rounding]))
			check_error(c, check_mod_loc(in, rounding), RULE_OPERAND_TYPE, "Illegal rounding modifier for "
				"instruction '%s' (%s%s takes %s, not %s)", in->opcode, in->opcode, word, row->roundings,
				in->mods[rounding]);
		else if (rounding < 0 && row->required == 'R')
			check_error(c, in->opcode_loc, RULE_OPERAND_TYPE, "Rounding modifier required for instruction '%s' "
				"(%s%s needs %s)", in->opcode, in->opcode, word, row->roundings);
		if (relu >= 0 && sat >= 0)
			check_error(c, check_mod_loc(in, relu), RULE_OPERAND_TYPE, "Modifier '.relu' cannot be combined with "
				"modifier '.sat' (.relu clamps below at 0, .sat to [0, 1]: keep one)");
		return true;
	}
	return false;
}

/* OPTYPES rows: the instruction's type must be one of the row's words. */
static void check_form_types(CheckCtx *c, const Instr *in, PtxType type)
{
	for (size_t r = 0; r < sizeof form_types / sizeof form_types[0]; r++) {
		const FormTypes *row = &form_types[r];
		if (strcmp(row->opcode, in->opcode) != 0 || !has_mod(in, row->form))
			continue;
		const char *word = type_info(type)->word;
		if (in_word_list(row->types, word))
			return;
		/* ".b32 .b64" as ptxas lists it: ".b32 or .b64" */
		char listed[160] = "";
		for (const char *p = row->types; *p; p += strspn(p, " ")) {
			size_t len = strcspn(p, " ");
			size_t used = strlen(listed);
			snprintf(listed + used, sizeof listed - used, "%s%.*s", used ? " or " : "", (int)len, p);
			p += len;
		}
		if (row->wording == 'I')
			check_error(c, in->opcode_loc, RULE_OPERAND_TYPE, "Incorrect type '%s' for operation '%s' in "
				"instruction '%s' (%s%s takes %s)", word, row->form, in->opcode, in->opcode, row->form, listed);
		else if (row->wording == 'R')
			check_error(c, in->opcode_loc, RULE_OPERAND_TYPE, "Instruction '%s' requires '%s' type with '%s' "
				"modifier (not %s)", in->opcode, listed, row->form, word);
		else if (row->wording == 'U')
			check_error(c, in->opcode_loc, RULE_OPERAND_TYPE, "Unexpected instruction types specified for '%s' "
				"(%s%s takes %s, not %s)", in->opcode, in->opcode, row->form, listed, word);
		else
			check_error(c, in->opcode_loc, RULE_OPERAND_TYPE, "Operation %s requires %s type for instruction '%s' "
				"(not %s)", row->form, listed, in->opcode, word);
		return;
	}
}

/* Type words the type table does not hold but matrix and packed forms
 * name (wmma.load.b1, mma ... .tf32): they count as types too. */
bool check_is_other_type_word(const char *w)
{
	static const char *const words[] = { ".tf32", ".b1", ".u4", ".s4", ".e4m3", ".e5m2", ".e2m1", ".e2m3", ".e3m2",
		".ue8m0", ".ue4m3", ".u16x2", ".s16x2", ".f32x2", ".e4m3x2", ".e5m2x2", ".e2m1x2", ".e2m3x2", ".e3m2x2",
		".ue8m0x2", ".f16x4", ".e4m3x4", ".e5m2x4", ".e2m1x4" };
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strcmp(w, words[i]) == 0)
			return true;
	return false;
}

/* TYPECOUNT rows: the form names exactly that many types. */
static void check_type_count(CheckCtx *c, const Instr *in)
{
	if (in->opcode_id < 0 || (size_t)in->opcode_id >= opcode_count() || (size_t)in->opcode_id >= OPCODE_ROWS_MAX)
		return;
	first_rows();
	for (int r = first_count_row[in->opcode_id]; r < N_COUNTS && strcmp(type_counts[r].opcode, in->opcode) == 0; r++) {
		const TypeCount *row = &type_counts[r];
		if (row->form[0] && !has_mod(in, row->form))
			continue;
		int n = 0;
		for (uint32_t i = 0; i < in->nmods; i++)
			n += type_from_word(in->mods[i]) != TY_NONE || check_is_other_type_word(in->mods[i]);
		if (n != row->count)
			check_error(c, in->opcode_loc, RULE_OPERAND_TYPE, "Unexpected instruction types specified for '%s' (%d "
				"type%s; %s%s names %d)", in->opcode, n, n == 1 ? "" : "s", in->opcode, row->form, row->count);
		return;
	}
}

/* MMASHAPE rows: mma.sync's shape by its A type (the second type word). */
static void check_mma_shape(CheckCtx *c, const Instr *in)
{
	int shape = -1, ntypes = 0;
	const char *atype = NULL;
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		if (strcmp(w, ".sp") == 0 || strncmp(w, ".sp::", 5) == 0 || strncmp(w, ".kind", 5) == 0 ||
		    strncmp(w, ".block_scale", 12) == 0)
			return;
		if (w[1] == 'm' && w[2] >= '0' && w[2] <= '9')
			shape = (int)i;
		else if ((type_from_word(w) != TY_NONE || check_is_other_type_word(w)) && ++ntypes == 2)
			atype = w;
	}
	if (shape < 0 || !atype)
		return;
	for (size_t r = 0; r < sizeof mma_shapes / sizeof mma_shapes[0]; r++)
		if (strcmp(mma_shapes[r].atype, atype) == 0) {
			if (!in_word_list(mma_shapes[r].shapes, in->mods[shape]))
				check_error(c, check_mod_loc(in, shape), RULE_OPERAND_TYPE, "Illegal matrix shape '%s' for "
					"instruction 'mma' (with %s inputs mma takes %s)", in->mods[shape], atype,
					mma_shapes[r].shapes);
			return;
		}
}

/* The instruction's types as its modifiers name them. */
typedef struct SigTypes {
	PtxType first, last;
	int ntypes, rounding_at, sat_at;
	bool judged;
} SigTypes;

static SigTypes sig_types(const Instr *in, const OpSig *sig)
{
	SigTypes st = { TY_NONE, TY_NONE, 0, -1, -1, true };
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		if (w[1] == 'r' && st.rounding_at < 0 && sig->rounding != '-' && rounding_kind(w))
			st.rounding_at = (int)i;
		if (w[1] == 's' && strcmp(w, ".sat") == 0)
			st.sat_at = (int)i;
		PtxType t = type_from_word(w);
		if (t == TY_NONE)
			continue;
		st.judged &= judged_type(t);
		if (!st.ntypes++)
			st.first = t;
		st.last = t;
	}
	return st;
}

/* The rules on the types and modifiers alone (cvt's type words,
 * roundings, the form's types, .sat): false when the operands are not
 * to be judged after them. */
static bool check_sig_words(CheckCtx *c, const Instr *in, const OpSig *sig, const SigTypes *st)
{
	PtxType first = st->first, last = st->last;
	if (sig->roles[0] == 'c' && st->ntypes == 1 && only_plain_words(in))
		check_error(c, in->opcode_loc, RULE_OPERAND_TYPE, "Unexpected instruction types specified for 'cvt' (one "
			"type; cvt names the result type and then the source type, cvt.u32.u64)");
	if (!st->ntypes || (sig->roles[0] == 'c' && st->ntypes != 2))
		return false;
	if (sig->roles[0] == 'c' && only_plain_words(in) &&
	    (type_info(first)->cls == TC_BIT || type_info(last)->cls == TC_BIT)) {
		check_error(c, in->opcode_loc, RULE_OPERAND_TYPE, "Unexpected instruction types specified for 'cvt' (%s%s: "
			"cvt converts between integer and float types; name the kind, .u32 or .s32, not .bN)",
			type_info(first)->word, type_info(last)->word);
		return false;
	}
	/* mul.wide/mad.wide double a 16- or 32-bit type: no 128-bit result
	 * ("Unexpected instruction types specified for 'mul.wide'") */
	if (sig->roles[0] == 'W' && st->ntypes == 1 && type_info(first)->bits == 64) {
		check_error(c, in->opcode_loc, RULE_OPERAND_TYPE, "Unexpected instruction types specified for '%s.wide' "
			"(%s: .wide doubles a 16- or 32-bit type; a 64-bit product's halves are %s.lo and %s.hi)", in->opcode,
			type_info(first)->word, in->opcode, in->opcode);
		return false;
	}
	bool half = st->ntypes == 1 && check_half_type(c, in, first);
	if (sig->rounding != '-' && st->judged && !half && st->ntypes == (sig->rounding == 'C' ? 2 : 1))
		check_rounding(c, in, sig->form, sig->rounding, st->rounding_at, first, last);
	if (st->ntypes == 1 && (in->opcode[0] == 'a' || in->opcode[0] == 'r' || in->opcode[0] == 'v'))
		check_form_types(c, in, first);
	if (st->sat_at >= 0 && st->judged && !half && st->ntypes == (sig->sat == 'C' ? 2 : 1))
		check_saturation(c, in, sig, st->sat_at, first, last);
	return true;
}

/* The parts that read only the instruction's words (type count, mma
 * shape, the carry's types, set/setp's types and comparison, check_sig_words) run while *clean lacks SHAPE_SIGNATURE, and
 * set it when none of them tried to say anything (check_shape.c); the
 * parts that read operands (predicate output, results, roles) always run,
 * in the same order. A skipped part said nothing before, so it would not
 * have cut the operand checks short either. */
void check_operand_signature(CheckCtx *c, const Instr *in, unsigned *clean)
{
	bool known = clean && (*clean & SHAPE_SIGNATURE);
	unsigned long said = 0, t;
	check_predicate_output(c, in);
	if (!known) {
		t = c->sink->tried;
		check_type_count(c, in);
		if (in->opcode[0] == 'm' && opcode_is(in, "mma"))
			check_mma_shape(c, in);
		check_carry(c, in);
		check_compare(c, in);
		said += c->sink->tried - t;
	}
	const OpSig *sig = sig_of(in);
	if (sig) {
		check_results(c, in, sig);
		check_kinds(c, in, sig);
		SigTypes st = sig_types(in, sig);
		bool judge_operands;
		if (known) {
			judge_operands = st.ntypes && !(sig->roles[0] == 'c' && st.ntypes != 2);
		} else {
			t = c->sink->tried;
			judge_operands = check_sig_words(c, in, sig, &st);
			said += c->sink->tried - t;
		}
		/* a predicate operand's type is its own: judged without type words
		 * too (isspacep's result) */
		bool predicates_only = !judge_operands && !st.ntypes;
		for (uint32_t i = 0; (judge_operands || predicates_only) && i < in->nops && sig->roles[i]; i++) {
			char role = sig->roles[i];
			PtxType ty = st.last;
			if (predicates_only && role != 'P' && role != 'p')
				continue;
			switch (role) {
			case '-': case 'a': case 'L': continue;
			case 'c': case 'D': ty = st.first; break;
			case 'W': case 'w': ty = type_of_width(st.last, type_info(st.last)->bits * 2); break;
			case 'u': case 'U': case 'r': ty = TY_U32; break;
			case 'P': case 'p': ty = TY_PRED; break;
			default: break;
			}
			check_role(c, in, sig, i, role, ty);
		}
	}
	if (clean && !known && said == 0)
		*clean |= SHAPE_SIGNATURE;
}
