/* Generates the differential test space for surface-diff.sh: one small PTX
 * module per case, each with a single instruction or declaration under test,
 * across the (.version, .target) cells that sit on either side of every gate.
 * Usage: gen_surface_cases OUTDIR. Prints the number of cases written.
 *
 * Case files start with "// case: <description>" so a failing verdict can
 * be traced back to the generator line that made it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *outdir;
static unsigned ncases;

typedef struct Cell {
	const char *version;
	const char *target;
} Cell;

static int version_at_least(const char *v, int major, int minor)
{
	int a = 0, b = 0;
	sscanf(v, "%d.%d", &a, &b);
	return a > major || (a == major && b >= minor);
}

/* The module around one case: registers of every width and class the rules
 * distinguish, module-scope surface/texture/data symbols and an entry with a
 * .surfref and a .u64 parameter. */
static void emit(const Cell *cell, const char *module_decls, const char *body, const char *fmt, ...)
{
	char path[4096], desc[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(desc, sizeof desc, fmt, ap);
	va_end(ap);
	snprintf(path, sizeof path, "%s/%05u.ptx", outdir, ncases++);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	fprintf(f, "// case: %s | .version %s .target %s\n", desc, cell->version, cell->target);
	fprintf(f, ".version %s\n.target %s\n", cell->version, cell->target);
	if (version_at_least(cell->version, 2, 3))
		fprintf(f, ".address_size 64\n");
	if (module_decls)
		fprintf(f, "%s\n", module_decls);
	else
		fprintf(f, ".global .surfref surf_A;\n.global .texref tex_A;\n.global .u32 g_arr[16];\n");
	fprintf(f, ".entry k(.param .surfref p_s, .param .u64 p_u)\n{\n");
	fprintf(f, "\t.reg .b32 %%r<10>;\n\t.reg .u32 %%u<4>;\n\t.reg .s32 %%s<4>;\n\t.reg .u64 %%rd<10>;\n"
		   "\t.reg .b64 %%bd<4>;\n\t.reg .s64 %%sd<4>;\n\t.reg .f32 %%f<4>;\n\t.reg .f64 %%fd<4>;\n"
		   "\t.reg .b16 %%h<4>;\n\t.reg .u16 %%us<4>;\n\t.reg .b8 %%c<4>;\n\t.reg .pred %%p<4>;\n");
	fprintf(f, "\t%s\n\tret;\n}\n", body);
	fclose(f);
}

static void emit_header_only(const char *version, const char *target_line, const char *extra, const char *desc)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%05u.ptx", outdir, ncases++);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	fprintf(f, "// case: %s\n.version %s\n.target %s\n%s\n.entry k()\n{\n\tret;\n}\n", desc, version, target_line,
		extra ? extra : "");
	fclose(f);
}

/* ---- operands ---- */

static const char *coords_for(const char *geom)
{
	if (!strcmp(geom, ".1d") || !strcmp(geom, ".1d_buffer"))
		return "{%r1}";
	if (!strcmp(geom, ".2d") || !strcmp(geom, ".a1d") || !strcmp(geom, ".5d"))
		return "{%r1, %r2}";
	return "{%r1, %r2, %r3, %r4}";
}

static const char *reg_for(const char *type)
{
	if (!strcmp(type, ".b64") || !strcmp(type, ".u64") || !strcmp(type, ".s64"))
		return "%rd1";
	if (!strcmp(type, ".f32"))
		return "%f1";
	if (!strcmp(type, ".f64"))
		return "%fd1";
	return "%r1";
}

static void data_for(char *buf, size_t n, const char *vec, const char *type)
{
	const char *r = reg_for(type);
	if (!strcmp(vec, ".v2"))
		snprintf(buf, n, "{%s, %s}", r, r);
	else if (!strcmp(vec, ".v4"))
		snprintf(buf, n, "{%s, %s, %s, %s}", r, r, r, r);
	else if (!strcmp(vec, ".v8"))
		snprintf(buf, n, "{%s, %s, %s, %s, %s, %s, %s, %s}", r, r, r, r, r, r, r, r);
	else
		snprintf(buf, n, "%s", r);
}

/* A surface instruction from its parts; empty strings are left out. */
typedef struct SurfForm {
	const char *op;      /* suld sust sured suq */
	const char *mode;    /* .b .p */
	const char *redop;
	const char *geom;
	const char *cop;
	const char *vec;
	const char *type;
	const char *clamp;
	const char *handle;
	const char *coords;  /* NULL: derive from geom */
	const char *data;    /* NULL: derive from vec/type */
} SurfForm;

static void surf_text(char *buf, size_t n, const SurfForm *f)
{
	char data[256], mods[256];
	if (f->data)
		snprintf(data, sizeof data, "%s", f->data);
	else
		data_for(data, sizeof data, f->vec, f->type);
	snprintf(mods, sizeof mods, "%s%s%s%s%s%s%s", f->mode, f->redop, f->geom, f->cop, f->vec, f->type, f->clamp);
	const char *coords = f->coords ? f->coords : coords_for(f->geom);
	if (!strcmp(f->op, "suld"))
		snprintf(buf, n, "suld%s %s, [%s, %s];", mods, data, f->handle, coords);
	else if (!strcmp(f->op, "suq"))
		snprintf(buf, n, "suq%s %s, [%s];", mods, f->data ? f->data : "%r1", f->handle);
	else
		snprintf(buf, n, "%s%s [%s, %s], %s;", f->op, mods, f->handle, coords, data);
}

static void emit_surf(const Cell *cell, const SurfForm *f, const char *what)
{
	char text[1024];
	surf_text(text, sizeof text, f);
	emit(cell, NULL, text, "%s: %s", what, text);
}

static const SurfForm base_forms[] = {
	{ "suld", ".b", "", ".1d", "", "", ".b32", ".trap", "surf_A", NULL, NULL },
	{ "sust", ".b", "", ".1d", "", "", ".b32", ".trap", "surf_A", NULL, NULL },
	{ "sust", ".p", "", ".1d", "", "", ".b32", ".trap", "surf_A", NULL, NULL },
	{ "sured", ".b", ".add", ".1d", "", "", ".u32", ".trap", "surf_A", NULL, NULL },
	{ "sured", ".p", ".add", ".1d", "", "", ".b32", ".trap", "surf_A", NULL, NULL },
};

static const char *const geoms[] = { ".1d", ".2d", ".3d", ".a1d", ".a2d", ".1d_buffer", ".4d", ".5d", ".cube", ".2dms" };
static const char *const cops[] = { ".ca", ".cg", ".cs", ".cv", ".wb", ".wt", ".lu" };
static const char *const vecs[] = { ".v2", ".v4", ".v8" };
static const char *const surf_types[] = { ".b8", ".b16", ".b32", ".b64", ".u32", ".s32", ".u64", ".s64", ".f32" };
static const char *const clamps[] = { ".trap", ".clamp", ".zero", ".wrap", "" };
static const char *const handles[] = { "surf_A", "p_s", "%rd1", "%bd1", "%sd1", "%r1", "tex_A", "p_u", "g_arr" };
static const char *const queries[] = {
	".width", ".height", ".depth", ".channel_data_type", ".channel_order", ".array_size", ".memory_layout",
	".normalized_coords", ".num_samples", ".size",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void surface_one_factor(const Cell *cell)
{
	for (size_t b = 0; b < N(base_forms); b++) {
		SurfForm f = base_forms[b];
		emit_surf(cell, &f, "base");
		for (size_t i = 0; i < N(geoms); i++) {
			f = base_forms[b];
			f.geom = geoms[i];
			emit_surf(cell, &f, "geometry");
		}
		for (size_t i = 0; i < N(cops); i++) {
			f = base_forms[b];
			f.cop = cops[i];
			emit_surf(cell, &f, "cache operation");
		}
		for (size_t i = 0; i < N(vecs); i++) {
			f = base_forms[b];
			f.vec = vecs[i];
			emit_surf(cell, &f, "vector");
			if (!strcmp(f.op, "suld") || (!strcmp(f.op, "sust") && !strcmp(f.mode, ".b"))) {
				f.type = ".b64";
				emit_surf(cell, &f, "vector b64");
			}
		}
		for (size_t i = 0; i < N(surf_types); i++) {
			f = base_forms[b];
			f.type = surf_types[i];
			emit_surf(cell, &f, "type");
		}
		for (size_t i = 0; i < N(clamps); i++) {
			f = base_forms[b];
			f.clamp = clamps[i];
			emit_surf(cell, &f, "clamp");
		}
		for (size_t i = 0; i < N(handles); i++) {
			f = base_forms[b];
			f.handle = handles[i];
			emit_surf(cell, &f, "handle");
		}
	}
	for (size_t i = 0; i < N(queries); i++) {
		SurfForm q = { "suq", "", "", "", "", "", ".b32", "", "surf_A", NULL, NULL };
		char mods[64];
		snprintf(mods, sizeof mods, "%s", queries[i]);
		q.mode = mods;
		emit_surf(cell, &q, "suq query");
		q.handle = "%rd1";
		emit_surf(cell, &q, "suq indirect");
	}
	/* Taking a surface address into a register is itself indirect access. */
	emit(cell, NULL, "mov.u64 %rd1, surf_A;", "mov surfref: mov.u64");
	emit(cell, NULL, "mov.u64 %rd1, p_s;", "mov surfref param: mov.u64");
	emit(cell, NULL, "mov.b64 %rd1, surf_A;", "mov surfref: mov.b64");
}

static void sured_matrix(const Cell *cell)
{
	static const char *const ops[] = { ".add", ".min", ".max", ".and", ".or", ".inc", ".xor", ".cas", ".sub" };
	static const char *const types[] = { ".u32", ".s32", ".u64", ".s64", ".b32", ".b64" };
	for (int p = 0; p < 2; p++)
		for (size_t o = 0; o < N(ops); o++)
			for (size_t t = 0; t < N(types); t++) {
				SurfForm f = { "sured", p ? ".p" : ".b", ops[o], ".1d", "", "", types[t], ".trap", "surf_A", NULL,
					NULL };
				emit_surf(cell, &f, "sured op/type");
			}
}

/* Modifier spelling: orders, duplicates, missing classes, unknown words. */
static void surface_spelling(const Cell *cell)
{
	static const char *const parts[] = { ".2d", ".cg", ".v2", ".b32", ".clamp" };
	/* all 120 orders of geom/cop/vec/type/clamp after suld.b */
	for (int a = 0; a < 5; a++)
		for (int b = 0; b < 5; b++)
			for (int c = 0; c < 5; c++)
				for (int d = 0; d < 5; d++)
					for (int e = 0; e < 5; e++) {
						int used = (1 << a) | (1 << b) | (1 << c) | (1 << d) | (1 << e);
						if (used != 31)
							continue;
						char text[256];
						snprintf(text, sizeof text, "suld.b%s%s%s%s%s {%%r1, %%r2}, [surf_A, {%%r1, %%r2}];",
							parts[a], parts[b], parts[c], parts[d], parts[e]);
						emit(cell, NULL, text, "order: %s", text);
					}
	static const char *const spellings[] = {
		"suld.b.1d.1d.b32.trap %r1, [surf_A, {%r1}];",
		"suld.b.1d.2d.b32.trap %r1, [surf_A, {%r1, %r2}];",
		"suld.b.1d.ca.cg.b32.trap %r1, [surf_A, {%r1}];",
		"suld.b.1d.v2.v4.b32.trap {%r1, %r2}, [surf_A, {%r1}];",
		"suld.b.1d.b32.trap.clamp %r1, [surf_A, {%r1}];",
		"suld.b.1d.b32.b32.trap %r1, [surf_A, {%r1}];",
		"suld.b.1d.b32.b16.trap %r1, [surf_A, {%r1}];",
		"suld.b.b.1d.b32.trap %r1, [surf_A, {%r1}];",
		"suld.b.p.1d.b32.trap %r1, [surf_A, {%r1}];",
		"suld.p.1d.b32.trap %r1, [surf_A, {%r1}];",
		"suld.1d.b.b32.trap %r1, [surf_A, {%r1}];",
		"suld.b.1d.b32 %r1, [surf_A, {%r1}];",
		"suld.b.b32.trap %r1, [surf_A, {%r1}];",
		"suld.b.1d.trap %r1, [surf_A, {%r1}];",
		"suld.b.1d.b32.TRAP %r1, [surf_A, {%r1}];",
		"suld.b.1d.b32.trap.sat %r1, [surf_A, {%r1}];",
		"suld.b.1d.v3.b32.trap {%r1, %r2, %r3}, [surf_A, {%r1}];",
		"suld.b.1d.v4.b32.trap {%r1, %r2, %r3, %r4}, [surf_A, {%r1}];",
		"suld.b.1d.v4.trap.b32 {%r1, %r2, %r3, %r4}, [surf_A, {%r1}];",
		"sust.b.1d.b32.trap.cs [surf_A, {%r1}], %r1;",
		"sust.b.trap.b32.1d [surf_A, {%r1}], %r1;",
		"sust.x.1d.b32.trap [surf_A, {%r1}], %r1;",
		"sust.1d.b.b32.trap [surf_A, {%r1}], %r1;",
		"sured.b.1d.u32.trap [surf_A, {%r1}], %r1;",
		"sured.b.add.add.1d.u32.trap [surf_A, {%r1}], %r1;",
		"sured.b.add.min.1d.u32.trap [surf_A, {%r1}], %r1;",
		"sured.b.add.1d.v2.u32.trap [surf_A, {%r1}], {%r1, %r2};",
		"sured.b.add.1d.cg.u32.trap [surf_A, {%r1}], %r1;",
		"sured.b.add.1d.u32.trap.sat [surf_A, {%r1}], %r1;",
		"sured.b.add.a1d.u32.trap [surf_A, {%r1, %r2}], %r1;",
		"sured.b.trap.u32.1d.add [surf_A, {%r1}], %r1;",
		"sured.add.b.1d.u32.trap [surf_A, {%r1}], %r1;",
		"suq.b32 %r1, [surf_A];",
		"suq.width %r1, [surf_A];",
		"suq.width.u32 %r1, [surf_A];",
		"suq.width.b64 %rd1, [surf_A];",
		"suq.width.height.b32 %r1, [surf_A];",
		"suq.width.2d.b32 %r1, [surf_A];",
		"suq.width.b32.trap %r1, [surf_A];",
		"suq.b.width.b32 %r1, [surf_A];",
		"suq.b32.width %r1, [surf_A];",
		"suq.width.v2.b32 %r1, [surf_A];",
	};
	for (size_t i = 0; i < N(spellings); i++)
		emit(cell, NULL, spellings[i], "spelling: %s", spellings[i]);
}

/* Operand shapes and register types. */
static void surface_operands(const Cell *cell)
{
	static const char *const coords[] = {
		"%r1", "{%r1}", "{%r1, %r2}", "{%r1, %r2, %r3}", "{%r1, %r2, %r3, %r4}", "{%u1, %s1}", "{%r1, %rd1}",
		"{%f1}", "{%f1, %f2}", "{%r1, %f1}", "{%rd1}", "{%h1}", "{0}", "{%r1, 7}", "{-1}", "{%r1, _}", "{g_arr}",
		"%rd1", "%f1", "{%r1, %r2, %r3, %r4, %r5}", "{0f3F800000}", "%laneid", "%tid.x", "{%laneid}",
		"{%tid.x, %tid.y}",
	};
	static const char *const cgeoms[] = { ".1d", ".2d", ".3d", ".a1d", ".a2d", ".1d_buffer" };
	for (size_t g = 0; g < N(cgeoms); g++)
		for (size_t c = 0; c < N(coords); c++) {
			SurfForm f = { "suld", ".b", "", cgeoms[g], "", "", ".b32", ".trap", "surf_A", coords[c], NULL };
			emit_surf(cell, &f, "coordinates");
			SurfForm s = { "sust", ".b", "", cgeoms[g], "", "", ".b32", ".trap", "surf_A", coords[c], NULL };
			emit_surf(cell, &s, "coordinates");
		}
	static const char *const regs[] = {
		"%c1", "%h1", "%us1", "%r1", "%u1", "%s1", "%f1", "%rd1", "%bd1", "%sd1", "%fd1", "%p1", "_", "5", "-1",
		"0f3F800000", "g_arr", "surf_A",
	};
	static const char *const dtypes[] = { ".b8", ".b16", ".b32", ".b64" };
	for (size_t t = 0; t < N(dtypes); t++)
		for (size_t r = 0; r < N(regs); r++) {
			SurfForm f = { "suld", ".b", "", ".1d", "", "", dtypes[t], ".trap", "surf_A", NULL, regs[r] };
			emit_surf(cell, &f, "suld dest");
			SurfForm s = { "sust", ".b", "", ".1d", "", "", dtypes[t], ".trap", "surf_A", NULL, regs[r] };
			emit_surf(cell, &s, "sust source");
		}
	static const char *const rtypes[] = { ".u32", ".s32", ".u64", ".s64", ".b32" };
	for (size_t t = 0; t < N(rtypes); t++)
		for (size_t r = 0; r < N(regs); r++) {
			SurfForm f = { "sured", ".b", t == 4 ? ".and" : ".min", ".1d", "", "", rtypes[t], ".trap", "surf_A",
				NULL, regs[r] };
			emit_surf(cell, &f, "sured source");
		}
	for (size_t r = 0; r < N(regs); r++) {
		SurfForm s = { "sust", ".p", "", ".1d", "", "", ".b32", ".trap", "surf_A", NULL, regs[r] };
		emit_surf(cell, &s, "sust.p source");
		SurfForm q = { "suq", ".width", "", "", "", "", ".b32", "", "surf_A", NULL, regs[r] };
		emit_surf(cell, &q, "suq dest");
	}
	static const char *const vdata[] = {
		"%r1", "%rd1", "{%r1}", "{%r1, %r2}", "{%r1, %r2, %r3, %r4}", "{%r1, _}", "{%r1, %r2, %r3}",
		"{%r1, 5}", "{%h1, %h2}", "{%rd1, %rd2}", "{%r1, %rd1}", "{%f1, %f2}",
	};
	static const char *const vvecs[] = { "", ".v2", ".v4" };
	for (size_t v = 0; v < N(vvecs); v++)
		for (size_t d = 0; d < N(vdata); d++) {
			SurfForm f = { "suld", ".b", "", ".1d", "", vvecs[v], ".b32", ".trap", "surf_A", NULL, vdata[d] };
			emit_surf(cell, &f, "suld vector dest");
			SurfForm s = { "sust", ".b", "", ".1d", "", vvecs[v], ".b32", ".trap", "surf_A", NULL, vdata[d] };
			emit_surf(cell, &s, "sust vector source");
		}
	/* A scalar register where .v2/.v4 expects a vector, and a scalar
	 * coordinate beyond 1d: ptxas 13 accepts, rejects or crashes on these
	 * depending on the register width and the instruction. */
	static const char *const scalar_regs[] = { "%h1", "%r1", "%f1", "%rd1", "%fd1" };
	for (size_t v = 1; v < N(vvecs); v++)
		for (size_t t = 0; t < N(dtypes); t++)
			for (size_t r = 0; r < N(scalar_regs); r++) {
				SurfForm b = { "sust", ".b", "", ".1d", "", vvecs[v], dtypes[t], ".trap", "surf_A", NULL,
					scalar_regs[r] };
				emit_surf(cell, &b, "sust scalar for vector");
				SurfForm p = { "sust", ".p", "", ".1d", "", vvecs[v], dtypes[t], ".trap", "surf_A", NULL,
					scalar_regs[r] };
				emit_surf(cell, &p, "sust scalar for vector");
			}
	for (size_t b = 0; b < N(base_forms); b++)
		for (size_t g = 1; g < 5; g++) {
			SurfForm f = base_forms[b];
			f.geom = cgeoms[g];
			f.coords = "%r1";
			emit_surf(cell, &f, "scalar coordinate");
		}
	static const char *const shapes[] = {
		"suld.b.1d.b32.trap %r1, [surf_A];",
		"suld.b.1d.b32.trap %r1, surf_A, {%r1};",
		"suld.b.1d.b32.trap %r1;",
		"suld.b.1d.b32.trap %r1, [surf_A, {%r1}], %r2;",
		"sust.b.1d.b32.trap %r1, [surf_A, {%r1}];",
		"suq.width.b32 %r1, [surf_A, {%r1}];",
		"suq.width.b32 %r1, [5];",
		"suq.width.b32 {%r1}, [surf_A];",
		"@%p1 suld.b.1d.b32.trap %r1, [surf_A, {%r1}];",
		"@!%p1 sust.b.1d.b32.trap [surf_A, {%r1}], %r1;",
		"@%r1 suld.b.1d.b32.trap %r1, [surf_A, {%r1}];",
		"suld.b.1d.b32.trap %r1, [nosuch, {%r1}];",
		"suld.b.1d.b32.trap %r1, [surf_A, {%r9}];",
	};
	for (size_t i = 0; i < N(shapes); i++)
		emit(cell, NULL, shapes[i], "shape: %s", shapes[i]);
}

/* .surfref declarations and initializers. */
static void surface_decls(const Cell *cell)
{
	static const char *const decls[] = {
		".global .surfref s;",
		".visible .global .surfref s;",
		".global .surfref s, t;",
		".const .surfref s;",
		".shared .surfref s;",
		".global .v2 .surfref s;",
		".global .surfref s = { width = 8, height = 4, depth = 1 };",
		".global .surfref s = { array_size = 2, memory_layout = 1 };",
		".global .surfref s = { channel_data_type = 1 };",
		".global .surfref s = { channel_order = 1 };",
		".global .surfref s = { };",
		".global .surfref s = { width = 8, width = 9 };",
		".global .surfref s = { width = -1 };",
		".global .surfref s = { normalized_coords = 1 };",
		".global .surfref s = { filter_mode = nearest };",
		".global .surfref s = 0;",
		".global .surfref s; .global .surfref s;",
		".global .samplerref smp;",
		".global .texref t = { width = 8 };",
	};
	for (size_t i = 0; i < N(decls); i++) {
		char mod[512];
		snprintf(mod, sizeof mod, "%s\n.global .surfref surf_A;\n.global .texref tex_A;\n.global .u32 g_arr[16];",
			decls[i]);
		emit(cell, mod, "mov.u32 %r1, 0;", "declaration: %s", decls[i]);
	}
	emit(cell, NULL, ".reg .surfref rs;", "declaration: .surfref in a body");
	emit(cell, NULL, ".reg .b128 %q1;", "declaration: .b128 register");
	emit(cell, NULL, ".reg .f16x2 %x1;", "declaration: .f16x2 register");
}

/* ---- st ---- */

typedef struct StForm {
	const char *pre;     /* modifiers before the type, e.g. ".global.wb" */
	const char *vec;
	const char *type;
	const char *post;    /* modifiers after the type */
	const char *addr;
	const char *data;    /* NULL: derive */
	const char *extra;   /* ", %rd2" for cache policies */
} StForm;

static void emit_st(const Cell *cell, const StForm *f, const char *what)
{
	char data[256], text[1024];
	if (f->data)
		snprintf(data, sizeof data, "%s", f->data);
	else
		data_for(data, sizeof data, f->vec, f->type);
	snprintf(text, sizeof text, "st%s%s%s%s [%s], %s%s;", f->pre, f->vec, f->type, f->post, f->addr, data, f->extra);
	emit(cell, NULL, text, "%s: %s", what, text);
}

static void st_space(const Cell *cell)
{
	static const char *const spaces[] = {
		".global", ".shared", ".shared::cta", ".shared::cluster", ".local", ".param", "", ".const", ".global.global",
		".global.shared",
	};
	static const char *const types[] = {
		".b8", ".b16", ".b32", ".b64", ".b128", ".u8", ".u16", ".u32", ".u64", ".s8", ".s16", ".s32", ".s64",
		".f32", ".f64", ".f16", ".bf16", ".f16x2", ".pred",
	};
	static const char *const sems[] = {
		".weak", ".relaxed.gpu", ".relaxed.sys", ".relaxed.cta", ".relaxed.cluster", ".release.gpu",
		".release.cluster", ".volatile", ".relaxed", ".release", ".acquire.gpu", ".mmio.relaxed.sys",
		".mmio.relaxed.gpu", ".mmio", ".gpu", ".weak.gpu", ".volatile.relaxed.sys", ".relaxed.gpu.wb",
		".relaxed.sys.L1::evict_last", ".weak.wb",
	};
	static const char *const l1[] = {
		".L1::evict_normal", ".L1::evict_unchanged", ".L1::evict_first", ".L1::evict_last", ".L1::no_allocate",
		".L1::evict_last.wb", ".L1::evict_last.L1::evict_first", ".L2::64B", ".L2::evict_first",
		".L2::evict_unchanged",
	};
	static const char *const cops[] = { ".wb", ".cg", ".cs", ".wt", ".ca", ".cv", ".lu", ".wb.cg" };
	static const char *const addrs[] = {
		"%rd1", "%rd1+4", "%rd1+-4", "g_arr", "g_arr+4", "%r1", "5", "%f1", "surf_A", "%h1", "%clock64",
		"%clock64+8", "%laneid", "%tid",
	};
	StForm base = { ".global", "", ".u32", "", "%rd1", NULL, "" };
	emit_st(cell, &base, "st base");
	for (size_t i = 0; i < N(spaces); i++) {
		StForm f = base;
		f.pre = spaces[i];
		emit_st(cell, &f, "st space");
	}
	for (size_t i = 0; i < N(types); i++) {
		StForm f = base;
		f.type = types[i];
		f.data = !strcmp(types[i], ".b128") ? "%rd1" : !strcmp(types[i], ".pred") ? "%p1" :
			 !strcmp(types[i], ".f16") || !strcmp(types[i], ".bf16") ? "%h1" : NULL;
		emit_st(cell, &f, "st type");
	}
	static const char *const vtypes[] = { ".b8", ".b16", ".b32", ".u32", ".f32", ".b64", ".u64", ".f64" };
	for (size_t v = 0; v < N(vecs); v++)
		for (size_t t = 0; t < N(vtypes); t++) {
			StForm f = base;
			f.vec = vecs[v];
			f.type = vtypes[t];
			if (!strcmp(vtypes[t], ".b8") || !strcmp(vtypes[t], ".b16"))
				f.data = !strcmp(vecs[v], ".v2") ? "{%h1, %h2}" : !strcmp(vecs[v], ".v4") ?
					 "{%h1, %h2, %h1, %h2}" : "{%h1, %h2, %h1, %h2, %h1, %h2, %h1, %h2}";
			emit_st(cell, &f, "st vector");
			f.pre = ".local";
			emit_st(cell, &f, "st vector local");
		}
	for (size_t i = 0; i < N(sems); i++) {
		StForm f = base;
		char pre[128];
		snprintf(pre, sizeof pre, ".global%s", sems[i]);
		f.pre = pre;
		emit_st(cell, &f, "st memory order");
		snprintf(pre, sizeof pre, "%s.local", sems[i]);
		emit_st(cell, &f, "st memory order local");
	}
	for (size_t i = 0; i < N(l1); i++) {
		StForm f = base;
		char pre[128];
		snprintf(pre, sizeof pre, ".global%s", l1[i]);
		f.pre = pre;
		emit_st(cell, &f, "st eviction");
		f.vec = ".v8";
		emit_st(cell, &f, "st eviction v8");
	}
	for (size_t i = 0; i < N(cops); i++) {
		StForm f = base;
		char pre[128];
		snprintf(pre, sizeof pre, ".global%s", cops[i]);
		f.pre = pre;
		emit_st(cell, &f, "st cache operation");
		f.pre = ".global";
		f.post = cops[i];
		emit_st(cell, &f, "st cache operation after type");
	}
	StForm h = base;
	h.pre = ".global.L2::cache_hint";
	h.extra = ", %rd2";
	emit_st(cell, &h, "st cache hint");
	h.extra = ", %r2";
	emit_st(cell, &h, "st cache hint 32-bit policy");
	h.extra = "";
	emit_st(cell, &h, "st cache hint missing policy");
	h.pre = ".global";
	h.extra = ", %rd2";
	emit_st(cell, &h, "st policy without hint");
	h.pre = ".global.L1::evict_last.L2::cache_hint";
	emit_st(cell, &h, "st L1 + cache hint");
	for (size_t i = 0; i < N(addrs); i++) {
		StForm f = base;
		f.addr = addrs[i];
		emit_st(cell, &f, "st address");
		f.pre = ".local";
		emit_st(cell, &f, "st address local");
		f.pre = ".shared";
		emit_st(cell, &f, "st address shared");
	}
	static const char *const datas[] = {
		"5", "-1", "0f3F800000", "%rd1", "%h1", "%f1", "_", "surf_A", "%tid.x", "{%r1, %r2}", "%p1",
	};
	for (size_t i = 0; i < N(datas); i++) {
		StForm f = base;
		f.data = datas[i];
		emit_st(cell, &f, "st data");
	}
	static const char *const vdatas[] = {
		"{%tid.x, %r1}", "{%clock64, %rd1}", "{%r1, 5}", "{%r1, _}", "{%r1, %rd1}", "{%r1, %f1}", "%rd1",
		"{%r1, %r2, %r3, %r4}",
	};
	for (size_t i = 0; i < N(vdatas); i++) {
		StForm f = base;
		f.vec = ".v2";
		f.data = vdatas[i];
		emit_st(cell, &f, "st vector data");
	}
}

/* ---- symbols: whole modules ---- */

static void emit_module(const char *desc, const char *text)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%05u.ptx", outdir, ncases++);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	fprintf(f, "// case: %s\n%s", desc, text);
	fclose(f);
}

static void symbols(void)
{
	static const struct { const char *desc, *text; } modules[] = {
		{ "symbols: call before definition",
		  ".version 9.0\n.target sm_90\n.entry k()\n{\n\tcall.uni f, ();\n\tret;\n}\n.func f()\n{\n\tret;\n}\n" },
		{ "symbols: call after prototype",
		  ".version 9.0\n.target sm_90\n.func f();\n.entry k()\n{\n\tcall.uni f, ();\n\tret;\n}\n"
		  ".func f()\n{\n\tret;\n}\n" },
		{ "symbols: variable used before declaration",
		  ".version 9.0\n.target sm_90\n.entry k()\n{\n\t.reg .u64 %rd1;\n\tmov.u64 %rd1, g;\n\tret;\n}\n"
		  ".global .u32 g;\n" },
		{ "symbols: extern then static definition",
		  ".version 9.0\n.target sm_90\n.extern .global .u32 g;\n.global .u32 g;\n.entry k()\n{\n\tret;\n}\n" },
		{ "symbols: extern then visible definition",
		  ".version 9.0\n.target sm_90\n.extern .global .u32 g;\n.visible .global .u32 g;\n.entry k()\n{\n\tret;\n}\n" },
		{ "symbols: duplicate function",
		  ".version 9.0\n.target sm_90\n.func f()\n{\n\tret;\n}\n.func f()\n{\n\tret;\n}\n" },
		{ "symbols: register shadows parameter",
		  ".version 9.0\n.target sm_90\n.entry k(.param .u32 p)\n{\n\t.reg .b32 p;\n\tret;\n}\n" },
		{ "symbols: register shadowed in a block",
		  ".version 9.0\n.target sm_90\n.entry k()\n{\n\t.reg .b32 %x;\n\t{\n\t\t.reg .b32 %x;\n\t\tmov.b32 %x, 1;\n"
		  "\t}\n\tret;\n}\n" },
		{ "symbols: duplicate register",
		  ".version 9.0\n.target sm_90\n.entry k()\n{\n\t.reg .b32 %x;\n\t.reg .b32 %x;\n\tret;\n}\n" },
		{ "symbols: register outside its range",
		  ".version 9.0\n.target sm_90\n.entry k()\n{\n\t.reg .b32 %r<4>;\n\tmov.b32 %r4, 1;\n\tret;\n}\n" },
		{ "symbols: range and single register clash",
		  ".version 9.0\n.target sm_90\n.entry k()\n{\n\t.reg .b32 %r<4>;\n\t.reg .b32 %r2;\n\tret;\n}\n" },
		{ "symbols: duplicate label",
		  ".version 9.0\n.target sm_90\n.entry k()\n{\nL:\nL:\n\tret;\n}\n" },
		{ "symbols: undefined label",
		  ".version 9.0\n.target sm_90\n.entry k()\n{\n\tbra.uni M;\n\tret;\n}\n" },
		{ "symbols: label in a nested block",
		  ".version 9.0\n.target sm_90\n.entry k()\n{\n\tbra.uni M;\n\t{\nM:\n\t\tret;\n\t}\n}\n" },
		{ "symbols: surfref parameter of a .func",
		  ".version 9.0\n.target sm_90\n.func f(.param .surfref p)\n{\n\tret;\n}\n" },
		{ "symbols: surfref entry parameter in .reg",
		  ".version 9.0\n.target sm_90\n.entry k(.reg .surfref p)\n{\n\tret;\n}\n" },
		{ "symbols: surfref entry parameter array used",
		  ".version 9.0\n.target sm_90\n.entry k(.param .surfref p[2])\n{\n\t.reg .b32 %r1;\n"
		  "\tsuq.width.b32 %r1, [p];\n\tret;\n}\n" },
		{ "symbols: mov.u32 of a surfref",
		  ".version 9.0\n.target sm_90\n.global .surfref s;\n.entry k()\n{\n\t.reg .b32 %r1;\n\tmov.u32 %r1, s;\n"
		  "\tret;\n}\n" },
		{ "symbols: cvta of a surfref",
		  ".version 9.0\n.target sm_90\n.global .surfref s;\n.entry k()\n{\n\t.reg .u64 %rd1;\n"
		  "\tcvta.global.u64 %rd1, s;\n\tret;\n}\n" },
		{ "symbols: ld.param of a surfref parameter",
		  ".version 9.0\n.target sm_90\n.entry k(.param .surfref p)\n{\n\t.reg .u64 %rd1;\n"
		  "\tld.param.u64 %rd1, [p];\n\tret;\n}\n" },
		{ "symbols: add with a surfref",
		  ".version 9.0\n.target sm_90\n.global .surfref s;\n.entry k()\n{\n\t.reg .u64 %rd1;\n"
		  "\tadd.u64 %rd1, s, 8;\n\tret;\n}\n" },
		{ "symbols: surface object through a .func parameter (3.0)",
		  ".version 3.0\n.target sm_20\n.func f(.param .u64 p)\n{\n\t.reg .u64 %rd1;\n\t.reg .b32 %r1;\n"
		  "\tld.param.u64 %rd1, [p];\n\tsuld.b.1d.b32.trap %r1, [%rd1, {%r1}];\n\tret;\n}\n" },
		{ "symbols: surface object through a .func parameter (3.1)",
		  ".version 3.1\n.target sm_20\n.func f(.param .u64 p)\n{\n\t.reg .u64 %rd1;\n\t.reg .b32 %r1;\n"
		  "\tld.param.u64 %rd1, [p];\n\tsuld.b.1d.b32.trap %r1, [%rd1, {%r1}];\n\tret;\n}\n" },
		{ "symbols: guard predicate undefined",
		  ".version 9.0\n.target sm_90\n.entry k()\n{\n\t@%p1 bra.uni L;\nL:\n\tret;\n}\n" },
		{ "symbols: common surfref",
		  ".version 9.0\n.target sm_90\n.common .global .surfref s;\n.entry k()\n{\n\tret;\n}\n" },
		{ "symbols: st.param in a call sequence",
		  ".version 9.0\n.target sm_90\n.func f(.param .b32 a)\n{\n\tret;\n}\n.entry k()\n{\n\t.reg .b32 %r1;\n"
		  "\t{\n\t\t.param .b32 a;\n\t\tst.param.b32 [a], %r1;\n\t\tcall.uni f, (a);\n\t}\n\tret;\n}\n" },
		{ "symbols: st.param::func to a .func parameter",
		  ".version 9.0\n.target sm_90\n.func f(.param .b32 a)\n{\n\t.reg .b32 %r1;\n"
		  "\tst.param::func.b32 [a], %r1;\n\tret;\n}\n" },
		{ "symbols: st.param to a .func return parameter",
		  ".version 9.0\n.target sm_90\n.func (.param .b32 r) f()\n{\n\t.reg .b32 %r1;\n"
		  "\tst.param.b32 [r], %r1;\n\tret;\n}\n" },
		{ "symbols: st.global 32-bit address without .address_size",
		  ".version 9.0\n.target sm_90\n.entry k()\n{\n\t.reg .b32 %r1;\n\tst.global.u32 [%r1], %r1;\n\tret;\n}\n" },
		{ "symbols: generic st with 32-bit address",
		  ".version 9.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .b32 %r1;\n\tst.u32 [%r1], %r1;\n"
		  "\tret;\n}\n" },
		{ "symbols: st.global 64-bit address under .address_size 32",
		  ".version 9.0\n.target sm_90\n.address_size 32\n.entry k()\n{\n\t.reg .b32 %r1;\n\t.reg .u64 %rd1;\n"
		  "\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n" },
		{ "symbols: st.shared to a .shared variable",
		  ".version 9.0\n.target sm_90\n.entry k()\n{\n\t.shared .u32 sh[4];\n\t.reg .b32 %r1;\n"
		  "\tst.shared.u32 [sh+4], %r1;\n\tst.u32 [sh], %r1;\n\tret;\n}\n" },
		{ "symbols: st.local to a .local variable",
		  ".version 9.0\n.target sm_90\n.entry k()\n{\n\t.local .u32 lo[4];\n\t.reg .b32 %r1;\n"
		  "\tst.local.u32 [lo+4], %r1;\n\tret;\n}\n" },
		{ "symbols: st.global to a .shared variable",
		  ".version 9.0\n.target sm_90\n.entry k()\n{\n\t.shared .u32 sh[4];\n\t.reg .b32 %r1;\n"
		  "\tst.global.u32 [sh], %r1;\n\tret;\n}\n" },
		{ "symbols: module-scope param surfref",
		  ".version 9.0\n.target sm_90\n.param .surfref s;\n.entry k()\n{\n\tret;\n}\n" },
	};
	for (size_t i = 0; i < N(modules); i++)
		emit_module(modules[i].desc, modules[i].text);
}

/* ---- module header ---- */

static void headers(void)
{
	static const char *const versions[] = {
		"1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "2.0", "2.1", "2.2", "2.3", "3.0", "3.1", "3.2", "4.0", "4.1",
		"4.2", "4.3", "5.0", "5.1", "6.0", "6.1", "6.2", "6.3", "6.4", "6.5", "7.0", "7.1", "7.2", "7.3", "7.4",
		"7.5", "7.6", "7.7", "7.8", "8.0", "8.1", "8.2", "8.3", "8.4", "8.5", "8.6", "8.7", "8.8", "9.0", "9.1",
		"1.6", "0.9", "10.0",
	};
	static const char *const targets[] = {
		"sm_10", "sm_11", "sm_12", "sm_13", "sm_20", "sm_21", "sm_30", "sm_32", "sm_35", "sm_37", "sm_50",
		"sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72", "sm_75", "sm_80", "sm_86", "sm_87",
		"sm_88", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a", "sm_100f", "sm_103", "sm_103a", "sm_103f",
		"sm_110", "sm_110f", "sm_120", "sm_120a", "sm_120f", "sm_121", "sm_121a", "sm_121f", "compute_75",
		"compute_90a", "sm_14", "sm_22", "sm_74", "sm_99", "sm_90f", "sm_75a", "foo",
	};
	for (size_t t = 0; t < N(targets); t++)
		for (size_t v = 0; v < N(versions); v++) {
			char desc[128];
			snprintf(desc, sizeof desc, "header: .version %s .target %s", versions[v], targets[t]);
			emit_header_only(versions[v], targets[t], NULL, desc);
		}
	static const char *const opts[] = {
		"sm_20, texmode_independent", "sm_20, texmode_unified", "sm_13, map_f64_to_f32", "sm_10, map_f64_to_f32",
		"sm_20, debug", "texmode_unified, sm_20",
	};
	static const char *const opt_versions[] = { "1.4", "1.5", "2.0", "3.0" };
	for (size_t o = 0; o < N(opts); o++)
		for (size_t v = 0; v < N(opt_versions); v++) {
			char desc[128];
			snprintf(desc, sizeof desc, "target options: .version %s .target %s", opt_versions[v], opts[o]);
			emit_header_only(opt_versions[v], opts[o], NULL, desc);
		}
	static const char *const asizes[] = { ".address_size 64", ".address_size 32", ".address_size 16" };
	static const char *const as_versions[] = { "2.2", "2.3", "7.0" };
	for (size_t a = 0; a < N(asizes); a++)
		for (size_t v = 0; v < N(as_versions); v++) {
			char desc[128];
			snprintf(desc, sizeof desc, "address size: .version %s %s", as_versions[v], asizes[a]);
			emit_header_only(as_versions[v], "sm_20", asizes[a], desc);
		}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	outdir = argv[1];
	static const Cell surface_cells[] = {
		{ "1.4", "sm_10" }, { "1.5", "sm_10" }, { "2.0", "sm_13" }, { "2.0", "sm_20" }, { "2.2", "sm_20" },
		{ "2.3", "sm_20" }, { "3.0", "sm_20" }, { "3.0", "sm_13" }, { "3.1", "sm_13" }, { "3.1", "sm_20" },
		{ "4.0", "sm_30" }, { "4.1", "sm_20" }, { "4.1", "sm_30" }, { "4.2", "sm_30" }, { "4.3", "sm_20" },
		{ "4.3", "sm_30" }, { "8.0", "sm_50" }, { "8.1", "sm_35" }, { "8.1", "sm_50" }, { "9.0", "sm_90" },
	};
	for (size_t i = 0; i < N(surface_cells); i++)
		surface_one_factor(&surface_cells[i]);
	static const Cell sured_cells[] = { { "2.0", "sm_20" }, { "8.0", "sm_50" }, { "8.1", "sm_35" }, { "8.1", "sm_50" } };
	for (size_t i = 0; i < N(sured_cells); i++)
		sured_matrix(&sured_cells[i]);
	static const Cell modern = { "9.0", "sm_90" };
	surface_spelling(&modern);
	surface_operands(&modern);
	static const Cell decl_cells[] = { { "1.4", "sm_10" }, { "1.5", "sm_10" }, { "2.0", "sm_20" }, { "2.1", "sm_20" },
		{ "4.2", "sm_53" }, { "8.3", "sm_70" }, { "8.2", "sm_70" }, { "9.0", "sm_90" } };
	for (size_t i = 0; i < N(decl_cells); i++)
		surface_decls(&decl_cells[i]);
	static const Cell st_cells[] = {
		{ "1.5", "sm_10" }, { "2.0", "sm_20" }, { "5.0", "sm_62" }, { "5.1", "sm_70" }, { "6.0", "sm_62" },
		{ "6.0", "sm_70" }, { "7.3", "sm_75" }, { "7.4", "sm_75" }, { "7.4", "sm_80" }, { "7.8", "sm_80" },
		{ "7.8", "sm_90" }, { "8.2", "sm_70" }, { "8.1", "sm_90" }, { "8.3", "sm_62" }, { "8.3", "sm_70" },
		{ "8.7", "sm_90" }, { "8.8", "sm_90" }, { "8.8", "sm_100" }, { "9.0", "sm_120" },
	};
	for (size_t i = 0; i < N(st_cells); i++)
		st_space(&st_cells[i]);
	headers();
	symbols();
	printf("%u\n", ncases);
	return 0;
}
