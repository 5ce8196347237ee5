/* Declarations: state spaces and types of variables, parameters and
 * registers; the placement rules of the opaque .surfref/.texref/.samplerref
 * types and their static field initializers; every name a module or a
 * body defines twice (rule duplicate-symbol has this file alone). */
#include "check/check_internal.h"

#include <stdint.h>
#include <string.h>

typedef struct DeclInfo {
	StateSpace space;
	SrcLoc space_loc;
	const char *space_word;
	bool space_after_ptr;   /* `.ptr .global`: a pointer attribute, not the space */
	PtxType type;
	SrcLoc type_loc;
	int vec;
	int64_t align;          /* .align N, else 0 */
	bool is_extern, is_common, is_visible;
} DeclInfo;

/* Elements of a declarator: the product of its dimensions, 1 for a
 * scalar, -1 when a dimension is unsized. */
static int64_t declarator_elems(const Declarator *dc)
{
	int64_t n = 1;
	for (uint32_t i = 0; i < dc->ndims; i++) {
		if (dc->dims[i] < 0 || (dc->dims[i] > 0 && n > INT64_MAX / dc->dims[i]))
			return -1;
		n *= dc->dims[i];
	}
	return n;
}

static StateSpace space_from_word(const char *w)
{
	static const struct { const char *word; StateSpace space; } spaces[] = {
		{ ".reg", SP_REG }, { ".sreg", SP_SREG }, { ".const", SP_CONST }, { ".global", SP_GLOBAL },
		{ ".local", SP_LOCAL }, { ".param", SP_PARAM }, { ".shared", SP_SHARED },
		{ ".shared::cta", SP_SHARED }, { ".shared::cluster", SP_SHARED }, { ".tex", SP_TEX },
	};
	/* every specifier of every declaration comes here: the second byte
	 * (after the first, so a short word is not read past) rejects most */
	for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
		if (spaces[i].word[0] == w[0] && spaces[i].word[1] == w[1] && strcmp(spaces[i].word, w) == 0)
			return spaces[i].space;
	return SP_NONE;
}

static void read_specs(const VarDecl *d, DeclInfo *info)
{
	bool after_ptr = false;
	memset(info, 0, sizeof *info);
	info->space_loc = info->type_loc = d->loc;
	for (uint32_t i = 0; i < d->nspecs; i++) {
		const DeclSpec *s = &d->specs[i];
		StateSpace sp = space_from_word(s->word);
		PtxType t = type_from_word(s->word);
		if (strcmp(s->word, ".ptr") == 0)
			after_ptr = true;
		else if (sp != SP_NONE && after_ptr)
			info->space_after_ptr = true;
		else if (sp != SP_NONE && info->space == SP_NONE) {
			info->space = sp;
			info->space_loc = s->loc;
			info->space_word = s->word;
		} else if (t != TY_NONE && info->type == TY_NONE) {
			info->type = t;
			info->type_loc = s->loc;
		} else if (strcmp(s->word, ".v2") == 0 || strcmp(s->word, ".v4") == 0 || strcmp(s->word, ".v8") == 0)
			info->vec = s->word[2] - '0';
		else if (strcmp(s->word, ".extern") == 0)
			info->is_extern = true;
		else if (strcmp(s->word, ".common") == 0)
			info->is_common = true;
		else if (strcmp(s->word, ".visible") == 0)
			info->is_visible = true;
		else if (strcmp(s->word, ".align") == 0 && s->has_value)
			info->align = s->value;
	}
}

/* The alignment a call compares between an argument and its formal, as a
 * power of two: .align, else the element's size (of a vector, all of it). */
static uint8_t align_log2(const DeclInfo *info)
{
	uint64_t bytes = info->align > 0 ? (uint64_t)info->align
	                                 : type_info(info->type)->bits / 8 * (uint64_t)(info->vec ? info->vec : 1);
	uint8_t n = 0;
	while (n < 63 && (2ull << n) <= bytes)
		n++;
	return n;
}

/* Fields a static opaque initializer may name, per opaque type. */
typedef struct OpaqueField {
	const char *name;
	unsigned kinds;        /* bit per TY_SURFREF/TY_TEXREF/TY_SAMPLERREF */
	bool has_gate;
	ReqId gate;
	bool symbolic_values;  /* filter_mode = nearest, addr_mode_0 = wrap */
} OpaqueField;

#define K_SURF (1u << 0)
#define K_TEX (1u << 1)
#define K_SAMP (1u << 2)

static const OpaqueField opaque_fields[] = {
	{ "width", K_SURF | K_TEX, false, 0, false },
	{ "height", K_SURF | K_TEX, false, 0, false },
	{ "depth", K_SURF | K_TEX, false, 0, false },
	{ "array_size", K_SURF | K_TEX, false, 0, false },
	{ "memory_layout", K_SURF | K_TEX, false, 0, false },
	{ "channel_data_type", K_SURF | K_TEX, true, REQ_ATTR_CHANNEL_DATA_TYPE, false },
	{ "channel_order", K_SURF | K_TEX, true, REQ_ATTR_CHANNEL_ORDER, false },
	{ "normalized_coords", K_TEX | K_SAMP, false, 0, true },
	{ "filter_mode", K_TEX | K_SAMP, false, 0, true },
	{ "addr_mode_0", K_TEX | K_SAMP, false, 0, true },
	{ "addr_mode_1", K_TEX | K_SAMP, false, 0, true },
	{ "addr_mode_2", K_TEX | K_SAMP, false, 0, true },
	{ "num_mipmap_levels", K_TEX, false, 0, false },
	{ "num_samples", K_TEX, false, 0, false },
	{ "force_unnormalized_coords", K_SAMP, false, 0, true },
};

static unsigned kind_bit(PtxType t)
{
	return t == TY_SURFREF ? K_SURF : t == TY_TEXREF ? K_TEX : K_SAMP;
}

static void check_opaque_init(CheckCtx *c, const Declarator *dc, PtxType type)
{
	const Expr *init = dc->init;
	check_gate(c, REQ_OPAQUE_INIT, init->loc, NULL);
	if (init->kind != EX_VECTOR) {
		check_error(c, init->loc, RULE_OPAQUE_INIT, "Initial value type mismatch (a %s takes { field = value, ... })",
			type_info(type)->word);
		return;
	}
	for (uint32_t i = 0; i < init->nelems; i++) {
		const Expr *f = init->elems[i];
		if (f->kind != EX_FIELD) {
			check_error(c, f->loc, RULE_OPAQUE_INIT, "Initial value type mismatch (expected field = value)");
			continue;
		}
		const OpaqueField *of = NULL;
		for (size_t k = 0; k < sizeof opaque_fields / sizeof opaque_fields[0]; k++)
			if (strcmp(opaque_fields[k].name, f->text) == 0 && (opaque_fields[k].kinds & kind_bit(type)))
				of = &opaque_fields[k];
		if (!of) {
			check_error(c, f->loc, RULE_OPAQUE_INIT, "Unrecognized field name '%s' in opaque struct initializer",
				f->text);
			continue;
		}
		if (of->has_gate)
			check_gate(c, of->gate, f->loc, NULL);
		for (uint32_t j = 0; j < i; j++)
			if (init->elems[j]->kind == EX_FIELD && strcmp(init->elems[j]->text, f->text) == 0)
				check_strict(c, f->loc, RULE_OPAQUE_INIT,
					"PTX ISA 5.3: each opaque field is a single attribute",
					"Field '%s' initialized twice", f->text);
		const Expr *v = f->lhs;
		if (!v)
			continue;
		if (v->kind == EX_NAME && !of->symbolic_values) {
			const Symbol *sym = check_lookup(c, v);
			check_error(c, v->loc, RULE_OPAQUE_INIT, "Unrecognized initial value symbol '%s'%s", v->text,
				sym && sym->kind == SYM_VAR ? " (ptxas 13 crashes on this initializer)" : "");
			continue;
		}
		int64_t val;
		if (!of->symbolic_values && (v->kind == EX_FLOAT || !expr_const_int(v, &val) || val < 0))
			check_strict(c, v->loc, RULE_OPAQUE_INIT, "PTX ISA 5.3: opaque attributes are unsigned integers",
				"Field '%s' needs a non-negative integer value", f->text);
	}
}

static void check_opaque_decl(CheckCtx *c, const VarDecl *d, const DeclInfo *info, DeclPlace place)
{
	const char *name = d->ndecls ? d->decls[0].name : "?";
	check_gate(c, REQ_OPAQUE_TYPE, info->type_loc, NULL);
	if (place == DECL_BODY) {
		check_error(c, d->loc, RULE_OPAQUE_DECL, "Texture/surface variable must be at module or entry parameter scope");
		return;
	}
	if (info->vec)
		check_error(c, d->loc, RULE_OPAQUE_DECL, "Vector type only allowed over basic types");
	if (info->is_common)
		check_error(c, d->loc, RULE_OPAQUE_DECL, "Illegal type for .common symbol");
	if (place == DECL_MODULE) {
		if (info->space == SP_NONE)
			check_error(c, d->loc, RULE_OPAQUE_DECL, "No variable storage specified for '%s'", name);
		else if (info->space == SP_PARAM)
			check_error(c, info->space_loc, RULE_OPAQUE_DECL,
				"Variable '%s' cannot be allocated in .param state space; texture and surface variables "
				"must be declared in .global space (parameter variables may not be declared at module scope)",
				name);
		else if (info->space != SP_GLOBAL)
			check_error(c, info->space_loc, RULE_OPAQUE_DECL,
				"Texture and surface variables must be declared in .global space (not %s)", info->space_word);
	} else if (place == DECL_ENTRY_PARAM) {
		if (info->space != SP_PARAM)
			check_error(c, info->space_loc, RULE_OPAQUE_DECL, "Entry parameter '%s' must have .param state space",
				name);
	} else {
		check_error(c, info->space_loc, RULE_OPAQUE_DECL, "Variable '%s' cannot be allocated in .param state space "
			"(opaque parameters are allowed on .entry only)", name);
	}
	/* Unified mode (the default) has no separate samplers. */
	if (info->type == TY_SAMPLERREF && c->texmode != TOPT_TEXMODE_INDEPENDENT) {
		Diag *dg = check_error(c, info->type_loc, RULE_OPAQUE_DECL,
			"Instruction or declaration violates .target texmode_unified setting");
		check_note_target(c, dg);
	}
}

/* Unsized dimensions as ptxas 13 takes them: only the first, and then
 * only where something else gives the size (an initializer, the .extern
 * definition, the caller's argument of a .func); never on a kernel
 * parameter or a return value. */
static void check_unsized(CheckCtx *c, const Declarator *dc, const DeclInfo *info, DeclPlace place)
{
	for (uint32_t k = 1; k < dc->ndims; k++)
		if (dc->dims[k] < 0) {
			check_error(c, dc->loc, RULE_DECLARATION, "Only the first dimension of array '%s' may be left unsized",
				dc->name);
			return;
		}
	if (dc->ndims == 0 || dc->dims[0] >= 0)
		return;
	if (place == DECL_ENTRY_PARAM)
		check_error(c, dc->loc, RULE_DECLARATION, "Parameter to entry function cannot be an incomplete array ('%s')",
			dc->name);
	else if (place == DECL_FUNC_RET)
		check_error(c, dc->loc, RULE_DECLARATION, "Output parameter cannot be an incomplete array ('%s')", dc->name);
	else if (place != DECL_FUNC_PARAM && !info->is_extern && !dc->init)
		check_error(c, dc->loc, RULE_DECLARATION, "Non-external variable '%s' has incomplete type (give its size, "
			"an initializer, or declare it .extern)", dc->name);
}

/* ptxas 13's declaration grammar: a vector width stands right before the
 * type, and only a .param declaration goes on after its type (.ptr, the
 * pointed-to space, .align); anything else is a syntax error to it. */
static void check_spec_order(CheckCtx *c, const VarDecl *d, StateSpace space)
{
	bool typed = false;
	for (uint32_t i = 0; i < d->nspecs; i++) {
		const DeclSpec *s = &d->specs[i];
		bool vec = s->word[0] == '.' && s->word[1] == 'v' && s->word[2] >= '0' && s->word[2] <= '9';
		if (vec && (i + 1 == d->nspecs || type_from_word(d->specs[i + 1].word) == TY_NONE)) {
			check_error(c, s->loc, RULE_DECLARATION, "Vector width '%s' must be followed by the type", s->word);
			return;
		}
		if (typed && space != SP_PARAM) {
			check_error(c, s->loc, RULE_DECLARATION, "'%s' after the type (the type is the last specifier of a "
				"declaration)", s->word);
			return;
		}
		typed |= type_from_word(s->word) != TY_NONE;
	}
}

/* .param variables as ptxas 13 allocates them: never a vector, and the
 * .ptr attribute (with its space and alignment) only on kernel
 * parameters. */
static void check_param_shape(CheckCtx *c, const VarDecl *d, const DeclInfo *info, DeclPlace place)
{
	const char *name = d->ndecls ? d->decls[0].name : "?";
	if (info->space == SP_PARAM && info->vec)
		check_error(c, d->loc, RULE_DECLARATION, "Variable '%s' cannot be allocated in .param state space (a .param "
			"is never a vector: use an array or .align with .b8[])", name);
	if (place == DECL_ENTRY_PARAM || info->space != SP_PARAM)
		return;     /* elsewhere .ptr already stands after the type, out of order */
	for (uint32_t i = 0; i < d->nspecs; i++)
		if (strcmp(d->specs[i].word, ".ptr") == 0) {
			check_error(c, d->specs[i].loc, RULE_DECLARATION, "Illegal placement of kernel parameter attribute "
				"'.ptr' ('%s' is no .entry parameter)", name);
			return;
		}
}

/* Whether word is one of words[0..n). */
static bool word_in(const char *word, const char *const *words, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (strcmp(word, words[k]) == 0)
			return true;
	return false;
}

static const char *const linkage[] = { ".extern", ".visible", ".weak", ".common" };

static void check_body_linkage(CheckCtx *c, const VarDecl *d)
{
	for (uint32_t i = 0; i < d->nspecs; i++)
		if (word_in(d->specs[i].word, linkage, sizeof linkage / sizeof linkage[0]))
			check_error(c, d->specs[i].loc, RULE_DECLARATION, "Linkage directive '%s' is not allowed inside a "
				"function body (declare the variable at module scope)", d->specs[i].word);
}

/* The texture reference of PTX 1.x: `.tex .u32 t;` or `.tex .u64 t;`
 * (tex takes it as a .texref: check_address.c); ptxas 13 refuses other
 * types, and the directive from .version 1.5 on. */
static void check_tex_var(CheckCtx *c, const VarDecl *d, const DeclInfo *info)
{
	enum { TEX_REMOVED_IN = PTX_VERSION_OF(1, 5) };
	const char *name = d->ndecls ? d->decls[0].name : "?";
	if (info->type != TY_U32 && info->type != TY_U64)
		check_error(c, info->type_loc, RULE_OPAQUE_DECL, "Variable '%s' must be type .u32 or .u64", name);
	else if (c->has_version && c->version >= TEX_REMOVED_IN)
		check_error(c, info->space_loc, RULE_OPAQUE_DECL,
			"Deprecated feature: '.tex' not supported as of PTX version 1.5 (declare '%s' as .global .texref)",
			name);
}

/* Under the ABI (calls through a stack in local memory) each thread's
 * local memory holds the functions' frames, and a module-scope .local
 * variable has no frame to live in. ptxas 11.8 and 13 hold PTX from ISA
 * 3.0 on to the ABI (probed: .version 2.0-2.3 modules with one compile,
 * from 3.0 on they are refused, whatever the target). */
static bool module_local_needs_abi(const CheckCtx *c)
{
	return !c->has_version || c->version >= PTX_VERSION_OF(3, 0);
}

/* Types ptxas 13 takes only on instructions: .bf16/.bf16x2 and the
 * narrow float and integer formats are no variable types, in any state
 * space and at any PTX version (probed 7.8-9.0: "Parsing error", or for
 * .e4m3/.e5m2 and their x2 forms "may only be used as an instruction
 * type"). */
static void check_instruction_only_types(CheckCtx *c, const VarDecl *d)
{
	static const char *const words[] = {
		".bf16", ".bf16x2", ".e4m3", ".e5m2", ".e4m3x2", ".e5m2x2", ".e2m1", ".e2m1x2", ".e3m2", ".e3m2x2",
		".e2m3", ".e2m3x2", ".ue8m0", ".ue8m0x2", ".tf32", ".s4", ".u4", ".b1", ".s2", ".u2",
	};
	for (uint32_t i = 0; i < d->nspecs; i++)
		if (word_in(d->specs[i].word, words, sizeof words / sizeof words[0]))
			check_error(c, d->specs[i].loc, RULE_DECLARATION, "Type %s may only be used as an instruction type "
				"(declare the variable .b8/.b16/.b32 of the same size)", d->specs[i].word);
}

/* A .pred variable lives in registers (ptxas 13: "Predicate variable 'p'
 * must be in register state space"), and .shared and .local variables
 * have no initializer ("No initial value is allowed for 'x' in this state
 * space": the memory is not loaded with the module). */
static void check_space_of_decl(CheckCtx *c, const Declarator *dc, const DeclInfo *info, DeclPlace place)
{
	if (dc->init && info->is_extern)
		check_error(c, dc->init->loc, RULE_DECLARATION, "No initial value is allowed for external symbol '%s' "
			"(the module defining it initializes it)", dc->name);
	else if (dc->init && (info->space == SP_REG || (info->space == SP_PARAM && place == DECL_BODY)))
		check_error(c, dc->init->loc, RULE_DECLARATION, "No initial value is allowed for '%s' in this state "
			"space (set it with mov or st.param)", dc->name);
	/* [0] leaves a non-parameter variable without storage, as [] does */
	for (uint32_t k = 0; k < dc->ndims; k++)
		if (dc->dims[k] == 0 && k > 0)
			check_error(c, dc->loc, RULE_DECLARATION, "Array of incomplete type: dimension %u of '%s' is 0", k + 1,
				dc->name);
		else if (dc->dims[k] == 0 && place != DECL_FUNC_PARAM && place != DECL_ENTRY_PARAM &&
		         place != DECL_FUNC_RET && !info->is_extern)
			check_error(c, dc->loc, RULE_DECLARATION, "Non-external variable '%s' has incomplete type (an array "
				"of 0 elements)", dc->name);
	if (info->type == TY_PRED && info->space != SP_REG && info->space != SP_PARAM && info->space != SP_NONE)
		check_error(c, dc->loc, RULE_DECLARATION, "Predicate variable '%s' must be in register state space "
			"(.reg .pred)", dc->name);
	if (dc->init && (info->space == SP_SHARED || info->space == SP_LOCAL))
		check_error(c, dc->init->loc, RULE_DECLARATION, "No initial value is allowed for '%s' in this state "
			"space (%s memory is not initialized: store the values, or declare it .global or .const)",
			dc->name, info->space_word ? info->space_word : "this");
}

/* ptxas 13: an alignment is a power of two ("Alignment must be a power of
 * two", 0 too); a variable's vector is .v2 or .v4 of at most 128 bits
 * (".v8" does not parse there; "Vector type too large, exceeds 128 bit
 * limit"); a declaration has one linkage directive at most (any second
 * one, the same or another, does not parse). */
static void check_spec_values(CheckCtx *c, const VarDecl *d, const DeclInfo *info, DeclPlace place)
{
	bool linked = false;
	for (uint32_t i = 0; i < d->nspecs; i++) {
		const DeclSpec *s = &d->specs[i];
		if (strcmp(s->word, ".align") == 0 && s->has_value && (s->value <= 0 || (s->value & (s->value - 1))))
			check_error(c, s->loc, RULE_DECLARATION, "Alignment must be a power of two (.align %lld)",
				(long long)s->value);
		/* a function's parameters and results and a call's .param
		 * blocks at most 128 (a kernel's any: llc 14 writes `.param
		 * .align 256` results, which ptxas 13 refuses) */
		else if (strcmp(s->word, ".align") == 0 && s->has_value && s->value > 128 && info->space == SP_PARAM &&
		         place != DECL_ENTRY_PARAM)
			check_error(c, s->loc, RULE_DECLARATION, "Parameter '%s' has illegal alignment (must be aligned to 1, "
				"2, 4, 8, 16, 32, 64, or 128 bytes)", d->ndecls ? d->decls[0].name : "");
		else if (strcmp(s->word, ".v8") == 0)
			check_error(c, s->loc, RULE_DECLARATION, "Parsing error: a variable's vector is .v2 or .v4, not .v8");
		else if (word_in(s->word, linkage, sizeof linkage / sizeof linkage[0])) {
			if (linked)
				check_error(c, s->loc, RULE_DECLARATION, "Parsing error: a second linkage directive '%s' (a "
					"declaration takes one of .extern, .visible, .weak, .common)", s->word);
			linked = true;
		}
	}
	int bits = info->type != TY_NONE ? type_info(info->type)->bits : 0;
	if ((info->vec == 2 || info->vec == 4) && info->type != TY_PRED && bits * info->vec > 128)
		check_error(c, info->type_loc, RULE_DECLARATION, "Vector type too large, exceeds 128 bit limit "
			"(.v%d of %d-bit elements)", info->vec, bits);
}

void check_var_decl(CheckCtx *c, const VarDecl *d, DeclPlace place, Scope *into)
{
	DeclInfo info;
	read_specs(d, &info);
	if (info.type == TY_B128)
		check_gate(c, REQ_TYPE_B128, info.type_loc, NULL);
	else if (info.type == TY_F16X2)
		check_gate(c, REQ_TYPE_F16X2, info.type_loc, NULL);
	check_spec_order(c, d, info.space);
	check_param_shape(c, d, &info, place);
	check_instruction_only_types(c, d);
	check_spec_values(c, d, &info, place);
	if (place == DECL_BODY)
		check_body_linkage(c, d);
	bool opaque = type_is_opaque(info.type);
	if (opaque)
		check_opaque_decl(c, d, &info, place);
	else if (info.space == SP_NONE && place != DECL_FUNC_RET)
		check_error(c, d->loc, RULE_DECLARATION, "No variable storage specified");
	else if (place == DECL_MODULE && info.space == SP_PARAM)
		check_error(c, info.space_loc, RULE_DECLARATION, "Parameter variables may not be declared at module scope");
	else if (place == DECL_MODULE && info.space == SP_LOCAL && module_local_needs_abi(c))
		check_error(c, info.space_loc, RULE_DECLARATION, "Module-scoped variables in .local state space are not "
			"allowed with ABI (PTX ISA 3.0 and later: declare the variable inside the function that uses it, or "
			"in .global)");
	else if (info.space == SP_TEX)
		check_tex_var(c, d, &info);

	for (uint32_t i = 0; i < d->ndecls; i++) {
		const Declarator *dc = &d->decls[i];
		check_unsized(c, dc, &info, place);
		check_space_of_decl(c, dc, &info, place);
		if (dc->init && !opaque && info.space != SP_REG && info.space != SP_SHARED && info.space != SP_LOCAL)
			check_initializer(c, dc, info.type, info.vec);
		Symbol *sym = ARENA_NEW(into->arena, Symbol);
		sym->kind = info.space == SP_REG ? SYM_REG : SYM_VAR;
		sym->name = dc->name;
		sym->loc = dc->loc;
		sym->space = info.space;
		sym->type = info.type;
		sym->vec = info.vec;
		sym->is_array = dc->ndims > 0;
		sym->align_log2 = align_log2(&info);
		sym->elems = declarator_elems(dc);
		sym->is_entry_param = place == DECL_ENTRY_PARAM;
		sym->is_input_param = place == DECL_ENTRY_PARAM || place == DECL_FUNC_PARAM;
		sym->is_extern = info.is_extern;
		sym->range = dc->range;
		Symbol *old = check_declare(c, into, sym);
		if (old != sym) {
			if (old->kind == SYM_VAR && (old->is_extern || info.is_extern) && place == DECL_MODULE) {
				/* An .extern declaration is resolved by a .visible definition
				 * only; a module-private one would hide the external symbol. */
				if (old->is_extern && !info.is_extern && !info.is_visible) {
					Diag *dg = check_error(c, dc->loc, RULE_DUPLICATE_SYMBOL, "'.extern' variable '%s' cannot be "
						"resolved by a '.static' definition (declare it .visible)", dc->name);
					diag_note(c->sink, dg, old->loc, ".extern declaration of '%s' is here", old->name);
				}
				old->is_extern = old->is_extern && info.is_extern;
			} else {
				Diag *dg = check_error(c, dc->loc, RULE_DUPLICATE_SYMBOL, "Duplicate definition of %s '%s'",
					sym->kind == SYM_REG ? "register" : "variable", old->range >= 0 ? dc->name : old->name);
				diag_note(c->sink, dg, old->loc, "previous definition of '%s' is here", old->name);
			}
		}
		if (opaque && dc->init)
			check_opaque_init(c, dc, info.type);
	}
}

/* Labels are scoped like declarations (ptxas: a label defined in a nested
 * block is unknown outside it, and sibling blocks may reuse a name), but a
 * branch may name a label further down its block: so each block's labels
 * are entered before its statements are checked. */
static Formal *read_formals(CheckCtx *c, uint32_t n, const VarDecl *decls, uint32_t *count);

const Formals *check_proto_formals(CheckCtx *c, const CallProto *p)
{
	Formals *formals = ARENA_NEW(&c->arena, Formals);
	formals->rets = read_formals(c, p->nrets, p->rets, &formals->nrets);
	formals->params = read_formals(c, p->nparams, p->params, &formals->nparams);
	return formals;
}

Symbol *check_label_decl(CheckCtx *c, const Stmt *s)
{
	Symbol *sym = ARENA_NEW(&c->item_arena, Symbol);
	sym->kind = SYM_LABEL;
	sym->name = s->u.label;
	sym->loc = s->loc;
	sym->range = -1;
	if (s->next && s->next->kind == ST_PROTO)
		sym->formals = check_proto_formals(c, &s->next->u.proto);
	Symbol *old = check_declare(c, c->labels, sym);
	if (old != sym) {
		Diag *d = check_error(c, s->loc, RULE_DUPLICATE_SYMBOL, "Duplicate definition of label '%s'", s->u.label);
		diag_note(c->sink, d, old->loc, "previous definition of '%s' is here", old->name);
		return NULL;
	}
	return sym;
}

void check_label_decls(CheckCtx *c, const Stmt *s)
{
	for (; s; s = s->next)
		if (s->kind == ST_LABEL)
			check_label_decl(c, s);
}

/* The formals of one list (rets or params), in the module arena: a call
 * in a later function checks its arguments against them. */
static Formal *read_formals(CheckCtx *c, uint32_t n, const VarDecl *decls, uint32_t *count)
{
	uint32_t total = 0;
	for (uint32_t i = 0; i < n; i++)
		total += decls[i].ndecls;
	Formal *out = total ? arena_alloc(&c->arena, total * sizeof *out) : NULL;
	*count = 0;
	for (uint32_t i = 0; i < n; i++) {
		DeclInfo info;
		read_specs(&decls[i], &info);
		for (uint32_t k = 0; k < decls[i].ndecls; k++) {
			const Declarator *dc = &decls[i].decls[k];
			int64_t elems = declarator_elems(dc);
			out[(*count)++] = (Formal){ .name = dc->name, .type = info.type, .is_param = info.space == SP_PARAM,
				.elems = elems > 0 && info.vec ? elems * info.vec : elems, .is_array = dc->ndims > 0,
				.align_log2 = align_log2(&info) };
		}
	}
	return out;
}

typedef struct DeclaredFunc {
	Symbol *sym;
	struct DeclaredFunc *next;
} DeclaredFunc;

static bool func_is_extern(const Func *f)
{
	for (uint32_t i = 0; i < f->nspecs; i++)
		if (strcmp(f->specs[i].word, ".extern") == 0)
			return true;
	return false;
}

/* A prototype without .extern promises the body in this module: ptxas
 * 13 and 11.8 stop at it even when it is never called and even with -c. */
static void remember_declared(CheckCtx *c, Symbol *sym)
{
	DeclaredFunc *d = ARENA_NEW(&c->arena, DeclaredFunc);
	d->sym = sym;
	d->next = NULL;
	if (!c->declared_funcs_tail)
		c->declared_funcs_tail = &c->declared_funcs;
	*c->declared_funcs_tail = d;
	c->declared_funcs_tail = &d->next;
}

/* `.alias a, b;` (PTX 6.3) defines the declared function a as b's body;
 * both are declared before it (ptxas 13: "Unknown symbol 'a'"). */
void check_alias_defines(CheckCtx *c, const Directive *d)
{
	if (d->nargs < 1 || d->args[0]->kind != EX_NAME)
		return;
	for (uint32_t i = 0; i < d->nargs && i < 2; i++)
		if (d->args[i]->kind == EX_NAME && !scope_find_local(c->module_scope, d->args[i]->text)) {
			check_error(c, d->args[i]->loc, RULE_UNDEFINED_SYMBOL, "Unknown symbol '%s' in .alias (declare the "
				"function before the .alias)", d->args[i]->text);
			return;
		}
	Symbol *s = scope_find_local(c->module_scope, d->args[0]->text);
	if (s && s->kind == SYM_FUNC)
		s->has_body = true;
}

void check_undefined_funcs(CheckCtx *c)
{
	for (const DeclaredFunc *d = c->declared_funcs; d; d = d->next)
		if (!d->sym->has_body)
			check_error(c, d->sym->loc, RULE_UNDEFINED_SYMBOL, "%s '%s' is declared but never defined in this "
				"module (ptxas: Unresolved extern function): give its body, or declare it .extern if another "
				"module defines it", d->sym->is_kernel ? "Kernel" : "Function", d->sym->name);
}

/* A function name in the module scope: a declaration may precede its
 * definition, once. */
void check_func_decl(CheckCtx *c, const Func *f)
{
	/* an unsized parameter takes the caller's size: a variadic block,
	 * after every other parameter */
	for (uint32_t i = 0; i + 1 < f->nparams; i++)
		for (uint32_t k = 0; k < f->params[i].ndecls; k++) {
			const Declarator *dc = &f->params[i].decls[k];
			if (dc->ndims > 0 && dc->dims[0] < 0 && !f->is_entry)
				check_error(c, dc->loc, RULE_DECLARATION, "Only the last input parameter can be an incomplete "
					"array ('%s': move it last, or give its size)", dc->name);
		}
	Formals *formals = ARENA_NEW(&c->arena, Formals);
	formals->rets = read_formals(c, f->nrets, f->rets, &formals->nrets);
	formals->params = read_formals(c, f->nparams, f->params, &formals->nparams);
	Symbol *sym = ARENA_NEW(&c->arena, Symbol);
	sym->formals = formals;
	sym->kind = SYM_FUNC;
	sym->name = f->name;
	sym->loc = f->name_loc;
	sym->range = -1;
	sym->is_kernel = f->is_entry;
	sym->has_body = f->has_body;
	Symbol *old = check_declare(c, c->module_scope, sym);
	if (old == sym) {
		if (!f->has_body && !func_is_extern(f))
			remember_declared(c, sym);
		return;
	}
	if (old->kind == SYM_FUNC && !(old->has_body && f->has_body)) {
		old->has_body = old->has_body || f->has_body;
		return;
	}
	Diag *d = check_error(c, f->name_loc, RULE_DUPLICATE_SYMBOL, "Duplicate definition of %s '%s'",
		old->kind == SYM_FUNC ? "function" : "symbol", f->name);
	diag_note(c->sink, d, old->loc, "previous definition of '%s' is here", old->name);
}
