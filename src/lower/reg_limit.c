/* The register limit of a kernel, from its launch-bound directives, as
 * ptxas 11.8 derives it for sm_50 and records it as EIATTR_MAXREG_COUNT
 * (measured over .maxntid 32..1024 x .minnctapersm 1..32, docs/encoding.md):
 *
 *   .maxnreg N      N, raised to 16 when below (ptxas warns "adjusting ...
 *                   to lower bound of 16"); above 255 it is ignored, and so
 *                   are the thread counts;
 *   .maxntid/.reqntid T threads (x*y*z), .minnctapersm M: the SM's 64K
 *                   registers over M blocks of ceil(T/32) warps, the warps
 *                   allocated four at a time (one per scheduler), per thread
 *                   rounded down to a multiple of 8; none when that is not
 *                   below 255. M is ignored when it is above 32 or M blocks
 *                   exceed the SM's 64 warps; T too when one block does.
 *
 * The register allocator takes the limit as its budget and spills past it. */
#include "lower/lower_internal.h"


enum { SM_REGISTERS = 65536, SM_WARPS = 64, MAX_CTAS_PER_SM = 32, MAXNREG_FLOOR = 16, MAXNREG_CEIL = 255 };

static uint32_t thread_count_reg_limit(const uint32_t t[3], uint32_t ctas)
{
	uint64_t threads = (uint64_t)t[0] * t[1] * t[2];
	if (threads == 0)
		return 0;
	uint64_t warps = (threads + 31) / 32;
	if (warps > SM_WARPS)
		return 0;
	if (ctas == 0 || ctas > MAX_CTAS_PER_SM || ctas * warps > SM_WARPS)
		ctas = 1;
	uint64_t allocated = (ctas * warps + 3) / 4 * 4;
	uint64_t regs = SM_REGISTERS / (allocated * 32) / 8 * 8;
	return regs >= MAXNREG_CEIL ? 0 : (uint32_t)regs;
}

/* ptxas 11.8 warns where it adjusts or ignores a launch bound; so do we,
 * at the directive (launch-bounds-adjusted).
 * The thread count T and .minnctapersm M as ptxas 11.8 takes them for
 * sm_50: T above the SM's 64 warps ignores both, M above 32 blocks, or M
 * blocks of T above 64 warps, ignores M; M without T is ignored. */
static void warn_thread_counts(LowerCtx *c, const LKernel *k, const char *threads_from, SrcLoc threads_loc,
                               int64_t ctas, SrcLoc ctas_loc)
{
	if (!threads_from) {
		if (ctas > 0)
			diag_add(c->sink, SEV_WARNING, ctas_loc, RULE_LAUNCH_BOUNDS_ADJUSTED,
			         ".minnctapersm is ignored without .maxntid or .reqntid (as ptxas 11.8 ignores it)");
		return;
	}
	const uint32_t *t = k->max_threads[0] ? k->max_threads : k->req_ntid;
	uint64_t threads = (uint64_t)t[0] * t[1] * t[2], warps = (threads + 31) / 32;
	if (warps > SM_WARPS) {
		diag_add(c->sink, SEV_WARNING, threads_loc, RULE_LAUNCH_BOUNDS_ADJUSTED,
		         "%s of %llu threads (%llu warps) is above the %d warps of an sm_50 SM: ptxas 11.8 "
		         "ignores it%s", threads_from, (unsigned long long)threads, (unsigned long long)warps, SM_WARPS,
		         ctas > 0 ? " (and .minnctapersm with it)" : "");
		return;
	}
	if (ctas > MAX_CTAS_PER_SM)
		diag_add(c->sink, SEV_WARNING, ctas_loc, RULE_LAUNCH_BOUNDS_ADJUSTED,
		         ".minnctapersm %lld is above the %d blocks of an sm_50 SM: ptxas 11.8 ignores it",
		         (long long)ctas, MAX_CTAS_PER_SM);
	else if (ctas > 0 && (uint64_t)ctas * warps > SM_WARPS)
		diag_add(c->sink, SEV_WARNING, ctas_loc, RULE_LAUNCH_BOUNDS_ADJUSTED,
		         ".minnctapersm %lld blocks of %llu warps are above the %d warps of an sm_50 SM: "
		         "ptxas 11.8 ignores it", (long long)ctas, (unsigned long long)warps, SM_WARPS);
}

void lw_launch_bounds(LowerCtx *c, LKernel *k, const Func *f)
{
	bool maxnreg = false;
	uint32_t ctas = 0;
	int64_t ctas_given = 0;
	SrcLoc threads_loc = { 0 }, ctas_loc = { 0 };
	const char *threads_from = NULL;
	for (uint32_t i = 0; i < f->ndirs; i++) {
		const Directive *d = &f->dirs[i];
		uint32_t *dst = NULL;
		if (strcmp(d->name, ".maxntid") == 0)
			dst = k->max_threads;
		else if (strcmp(d->name, ".reqntid") == 0)
			dst = k->req_ntid;
		if (dst) {
			threads_loc = d->loc;
			threads_from = d->name;
		}
		for (uint32_t a = 0; a < d->nargs && a < 3; a++) {
			int64_t v;
			if (!expr_const_int(d->args[a], &v))
				continue;
			if (dst)
				dst[a] = (uint32_t)v;
			else if (strcmp(d->name, ".maxnreg") == 0) {
				maxnreg = true;
				k->maxreg_count = v > MAXNREG_CEIL ? 0 : v < MAXNREG_FLOOR ? MAXNREG_FLOOR : (uint32_t)v;
				k->maxreg_loc = d->loc;
				k->maxreg_from = ".maxnreg";
				if (v > MAXNREG_CEIL)
					diag_add(c->sink, SEV_WARNING, d->loc, RULE_LAUNCH_BOUNDS_ADJUSTED,
					         ".maxnreg %lld is above %d registers: ptxas 11.8 ignores it", (long long)v,
					         MAXNREG_CEIL);
				else if (v < MAXNREG_FLOOR)
					diag_add(c->sink, SEV_WARNING, d->loc, RULE_LAUNCH_BOUNDS_ADJUSTED,
					         ".maxnreg %lld is below %d registers: adjusted to %d, as ptxas 11.8 "
					         "adjusts it", (long long)v, MAXNREG_FLOOR, MAXNREG_FLOOR);
			} else if (strcmp(d->name, ".minnctapersm") == 0) {
				ctas = v > 0 && v <= MAX_CTAS_PER_SM ? (uint32_t)v : 0;
				ctas_given = v;
				ctas_loc = d->loc;
			}
		}
		if (dst)
			for (uint32_t a = d->nargs; a < 3; a++)
				dst[a] = 1;
	}
	warn_thread_counts(c, k, threads_from, threads_loc, ctas_given, ctas_loc);
	if (maxnreg || !threads_from)
		return;
	const uint32_t *t = k->max_threads[0] ? k->max_threads : k->req_ntid;
	k->maxreg_count = thread_count_reg_limit(t, ctas);
	bool ctas_count = ctas > 1 && thread_count_reg_limit(t, 1) != k->maxreg_count;
	k->maxreg_loc = ctas_count ? ctas_loc : threads_loc;
	k->maxreg_from = ctas_count ? ".minnctapersm" : threads_from;
}
