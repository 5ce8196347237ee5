/* The random-kernel generator's device functions and calls (--calls, issue
 * 15): a module's .func definitions, with and without a return value and
 * with zero to four .b32/.b64 parameters (one of them may be a global
 * pointer the function stores through), whose bodies compute with their
 * parameters, branch, read the module's data (--data), keep a .local
 * array (a stack frame) and call the functions defined before them (a
 * recursion-free call chain); and the calls of a kernel to them, direct
 * or through a register with a .callprototype (a run-time choice between
 * two functions of one signature where there are two).
 *
 * --defined: a function computes with integer operations PTX defines for
 * every input (no division), and stores only through the pointer its
 * caller passes, which is the thread's own stripe. */
#include <stdio.h>
#include <string.h>

#include "gen_kernels.h"

enum { MAXFN = 5, MAXARGS = 4 };
typedef struct Fn {
	int ret;               /* 0: none; 32 or 64: a .b32 or .b64 return value */
	int nargs;
	int bits[MAXARGS];     /* 32 or 64 */
	int ptr_arg;           /* the parameter that is a global pointer, or -1 */
} Fn;
static Fn fns[MAXFN];
static int nfns;
static int next_proto;     /* .callprototype labels of a function or kernel */

static void signature(const Fn *f, int no, bool proto)
{
	if (f->ret)
		out(proto ? "(.param .b%d _) " : "(.param .b%d f%d_ret) ", f->ret, no);
	out(proto ? "_ (" : "f%d(", no);
	for (int i = 0; i < f->nargs; i++) {
		if (proto)
			out("%s.param .b%d _", i ? ", " : "", f->bits[i]);
		else
			out("%s.param .b%d f%d_a%d", i ? ", " : "", f->bits[i], no, i);
	}
	out(")");
}

static bool same_signature(const Fn *a, const Fn *b)
{
	if (a->ret != b->ret || a->nargs != b->nargs)
		return false;
	for (int i = 0; i < a->nargs; i++)
		if (a->bits[i] != b->bits[i])
			return false;
	return true;
}

/* The call of function `callee`: the arguments (operand text each, a
 * pointer argument already the caller's stripe), the return value into
 * register `dst` ("%r7", or "" for none); through a register (fp, "%rd9")
 * with a prototype when fp is not empty. nvcc's shape: a block declaring
 * the argument and return .params. */
static void emit_call(int callee, char args[][24], const char *dst, const char *fp)
{
	const Fn *f = &fns[callee];
	out("\t{\n");
	for (int i = 0; i < f->nargs; i++)
		out("\t.param .b%d arg%d;\n\tst.param.b%d [arg%d], %s;\n", f->bits[i], i, f->bits[i], i, args[i]);
	if (f->ret)
		out("\t.param .b%d retval;\n", f->ret);
	const char *uni = chance(50) ? ".uni" : "";
	if (fp[0]) {
		int p = next_proto++;
		out("\tproto%d: .callprototype ", p);
		signature(f, 0, true);
		out(";\n\tcall%s %s%s, (", uni, f->ret ? "(retval), " : "", fp);
	} else {
		out("\tcall%s %sf%d, (", uni, f->ret ? "(retval), " : "", callee);
	}
	for (int i = 0; i < f->nargs; i++)
		out("%sarg%d", i ? ", " : "", i);
	if (fp[0])
		out("), proto%d;\n", next_proto - 1);
	else
		out(");\n");
	if (f->ret)
		out("\tld.param.b%d %s, [retval];\n", f->ret, dst);
	out("\t}\n");
}

/* A function's body: a small pool of values from its parameters. */
static int fr[64], nfr, frd[32], nfrd, f_next_r, f_next_rd, f_next_p, f_label;

static int fr_use(void) { return fr[rnd((uint32_t)nfr)]; }
static int frd_use(void) { return frd[rnd((uint32_t)nfrd)]; }
static int fr_new(void)
{
	int r = ++f_next_r;
	if (nfr < 64)
		fr[nfr++] = r;
	return r;
}
static int frd_new(void)
{
	int r = ++f_next_rd;
	if (nfrd < 32)
		frd[nfrd++] = r;
	return r;
}

static void body_op(int no)
{
	static const char *const ops[] = { "add.s32", "sub.s32", "mul.lo.s32", "xor.b32", "and.b32", "or.b32",
		"min.s32", "max.u32", "add.u32" };
	int a = fr_use(), b = fr_use();
	switch (rnd(8)) {
	case 0: case 1: case 2:
		if (chance(30))
			out("\t%s %%r%d, %%r%d, %u;\n", PICK(ops), fr_new(), a, rnd(1000));
		else
			out("\t%s %%r%d, %%r%d, %%r%d;\n", PICK(ops), fr_new(), a, b);
		break;
	case 3: out("\t%s %%r%d, %%r%d, %u;\n", chance(50) ? "shl.b32" : "shr.u32", fr_new(), a, rnd(32)); break;
	case 4: {
		int p = ++f_next_p;
		out("\tsetp.%s.u32 %%p%d, %%r%d, %%r%d;\n\tselp.b32 %%r%d, %%r%d, %%r%d, %%p%d;\n",
		    chance(50) ? "lt" : "ne", p, a, b, fr_new(), b, a, p);
		break;
	}
	case 5: {   /* a branch around an update of a value defined on both paths */
		int p = ++f_next_p, l = f_label++;
		out("\tsetp.%s.u32 %%p%d, %%r%d, %u;\n\t@%%p%d bra $L__f%d_%d;\n", chance(50) ? "gt" : "eq", p, a,
		    rnd(64), p, no, l);
		out("\tadd.s32 %%r%d, %%r%d, %%r%d;\n$L__f%d_%d:\n", a, a, b, no, l);
		break;
	}
	case 6:
		if (nfrd > 0 && chance(60)) {
			int d = frd_use();
			if (chance(50))
				out("\tcvt.u32.u64 %%r%d, %%rd%d;\n", fr_new(), d);
			else
				out("\txor.b64 %%rd%d, %%rd%d, %%rd%d;\n", frd_new(), d, frd_use());
		} else {
			out("\tmul.wide.u32 %%rd%d, %%r%d, %%r%d;\n", frd_new(), a, b);
		}
		break;
	default:
		if (data_enabled)
			data_read_in_function(fr_new());
		else
			out("\tnot.b32 %%r%d, %%r%d;\n", fr_new(), a);
		break;
	}
}

/* A function's signature: its return value and parameters. */
static void choose_signature(Fn *f)
{
	f->ret = rnd(3) == 0 ? 0 : chance(70) ? 32 : 64;
	f->nargs = (int)rnd(MAXARGS + 1);
	f->ptr_arg = -1;
	for (int i = 0; i < f->nargs; i++)
		f->bits[i] = chance(65) ? 32 : 64;
	for (int i = 0; i < f->nargs; i++)
		if (f->bits[i] == 64 && chance(50)) {
			f->ptr_arg = i;
			break;
		}
	/* a function that neither returns nor stores does nothing to see */
	if (f->ret == 0 && f->ptr_arg < 0)
		f->ret = 32;
}

/* A call inside function `no` of a function defined before it. */
static void nested_call(int no, int ptr)
{
	int callee = (int)rnd((uint32_t)no);
	const Fn *c = &fns[callee];
	if (c->ptr_arg >= 0 && !ptr)
		return;   /* no pointer to pass on */
	char args[MAXARGS][24];
	for (int j = 0; j < c->nargs; j++) {
		if (j == c->ptr_arg)
			snprintf(args[j], 24, "%%rd%d", ptr);
		else if (c->bits[j] == 32)
			snprintf(args[j], 24, "%%r%d", fr_use());
		else if (nfrd > 0)
			snprintf(args[j], 24, "%%rd%d", frd_use());
		else
			snprintf(args[j], 24, "%u", rnd(1000));
	}
	char dst[24] = "";
	if (c->ret == 32)
		snprintf(dst, sizeof dst, "%%r%d", fr_new());
	else if (c->ret == 64)
		snprintf(dst, sizeof dst, "%%rd%d", frd_new());
	emit_call(callee, args, dst, "");
}

/* The result of function no (and its store through the pointer) from
 * value v. */
static void give_result(const Fn *f, int no, int ptr, int v)
{
	if (ptr)
		out("\tst.global.u32 [%%rd%d+%u], %%r%d;\n", ptr, rnd(32) * 4, v);
	if (f->ret == 32)
		out("\tst.param.b32 [f%d_ret], %%r%d;\n", no, v);
	else if (f->ret == 64) {
		int d = frd_new();
		out("\tcvt.u64.u32 %%rd%d, %%r%d;\n", d, v);
		out("\tst.param.b64 [f%d_ret], %%rd%d;\n", no, d);
	}
}

/* A return taken by some threads only (a warp leaves the callee split). */
static void early_return(const Fn *f, int no, int ptr)
{
	int p = ++f_next_p, v = fr_use();
	out("\tsetp.%s.u32 %%p%d, %%r%d, %u;\n", chance(50) ? "lt" : "ne", p, fr_use(), rnd(64));
	give_result(f, no, ptr, v);
	out("\t@%%p%d ret;\n", p);
}

static void gen_function(int no)
{
	const Fn *f = &fns[no];
	nfr = nfrd = f_next_r = f_next_rd = f_next_p = f_label = 0;
	next_proto = 0;
	out("\n.func ");
	signature(f, no, false);
	out("\n{\n\t.reg .pred %%p<64>;\n\t.reg .b32 %%r<200>;\n\t.reg .b64 %%rd<100>;\n");
	bool frame = chance(40);
	if (frame)
		out("\t.local .align 4 .b8 f%d_loc[32];\n", no);
	int ptr = 0;   /* the %rd of the pointer parameter, kept out of the pool */
	int preg[MAXARGS];
	for (int i = 0; i < f->nargs; i++) {
		if (f->bits[i] == 32)
			out("\tld.param.b32 %%r%d, [f%d_a%d];\n", preg[i] = fr_new(), no, i);
		else if (i == f->ptr_arg)
			out("\tld.param.b64 %%rd%d, [f%d_a%d];\n", preg[i] = ptr = ++f_next_rd, no, i);
		else
			out("\tld.param.b64 %%rd%d, [f%d_a%d];\n", preg[i] = frd_new(), no, i);
	}
	if (nfr == 0)
		out("\tmov.u32 %%r%d, %u;\n", fr_new(), rnd(100000));
	if (nfrd > 0 && chance(50))
		out("\tcvt.u32.u64 %%r%d, %%rd%d;\n", fr_new(), frd_use());
	int n = 2 + (int)rnd(8);
	for (int i = 0; i < n; i++) {
		if (i == n / 2 && no > 0 && chance(60))
			nested_call(no, ptr);
		else
			body_op(no);
	}
	if (frame) {
		int a = fr_use(), b = fr_use(), off = (int)rnd(8) * 4;
		out("\tst.local.u32 [f%d_loc+%d], %%r%d;\n\tst.local.u32 [f%d_loc+%d], %%r%d;\n", no, off, a, no,
		    (off + 4) % 32, b);
		out("\tld.local.u32 %%r%d, [f%d_loc+%d];\n", fr_new(), no, chance(50) ? off : (off + 4) % 32);
	}
	if (chance(30))
		early_return(f, no, ptr);
	/* every parameter reaches the result: a call's arguments are all
	 * read, as in real code (ptxas keeps an argument the callee ignores
	 * live; we see that the callee does not read it) */
	int acc = fr_use();
	for (int i = 0; i < f->nargs; i++) {
		if (i == f->ptr_arg)
			continue;
		int x = preg[i];
		if (f->bits[i] == 64)
			out("\tcvt.u32.u64 %%r%d, %%rd%d;\n", x = ++f_next_r, preg[i]);
		int y = fr_new();
		out("\txor.b32 %%r%d, %%r%d, %%r%d;\n", y, acc, x);
		acc = y;
	}
	give_result(f, no, ptr, acc);
	out("\tret;\n}\n");
}

/* The module's functions, before the kernels (sometimes a declaration of
 * each first, as nvcc writes them). */
void gen_functions(void)
{
	nfns = 1 + (int)rnd(MAXFN);
	for (int i = 0; i < nfns; i++)
		choose_signature(&fns[i]);
	if (chance(30))
		for (int i = 0; i < nfns; i++) {
			out(".func ");
			signature(&fns[i], i, false);
			out(";\n");
		}
	for (int i = 0; i < nfns; i++)
		gen_function(i);
}

/* A kernel's call of one of the module's functions. */
void gen_call(void)
{
	int callee = (int)rnd((uint32_t)nfns);
	const Fn *f = &fns[callee];
	char args[MAXARGS][24], dst[24] = "", fp[24] = "";
	for (int i = 0; i < f->nargs; i++) {
		if (i == f->ptr_arg)
			snprintf(args[i], 24, "%%rd%d", gen_address(128));
		else if (f->bits[i] == 32)
			src(args[i], 24, C_R, true);
		else {
			ensure(C_RD);
			src(args[i], 24, C_RD, false);
		}
	}
	if (chance(30)) {
		int other = callee;
		for (int j = 0; j < nfns; j++)
			if (j != callee && same_signature(&fns[j], f) && chance(70))
				other = j;
		/* function addresses differ between cubins: not in the pool */
		int a = ++next_rd;
		out("\tmov.u64 %%rd%d, f%d;\n", a, callee);
		if (other != callee) {
			int b = ++next_rd, c = ++next_rd;
			ensure(C_P);
			int p = pool[C_P][rnd((uint32_t)depth[C_P])];
			out("\tmov.u64 %%rd%d, f%d;\n\tselp.b64 %%rd%d, %%rd%d, %%rd%d, %%p%d;\n", b, other, c, a, b, p);
			a = c;
		}
		snprintf(fp, sizeof fp, "%%rd%d", a);
	}
	if (f->ret == 32)
		snprintf(dst, sizeof dst, "%%r%d", fresh(C_R));
	else if (f->ret == 64)
		snprintf(dst, sizeof dst, "%%rd%d", fresh(C_RD));
	emit_call(callee, args, dst, fp);
}
