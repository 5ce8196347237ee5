/* Probe generator for tests/oracle/memory-order-diff.sh: one module per
 * combination of memory order, scope and the modifiers they interact with,
 * for ld (cache operator, state space, .mmio) and for every mbarrier
 * operation. Both tools must agree on accepting or rejecting each.
 *   gen_order_probes DIR   writes DIR/NNNN.ptx, each starting with
 *                          "// case: DESCRIPTION". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/probe_file.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *const orders[] = { "", ".weak", ".volatile", ".relaxed", ".acquire", ".release", ".acq_rel", ".sc" };
static const char *const ld_scopes[] = { "", ".cta", ".sys" };
static const char *const ld_cops[] = { "", ".ca", ".nc" };
static const char *const ld_spaces[] = { "", ".global", ".shared", ".local", ".param", ".const" };
static const char *const mb_scopes[] = { "", ".cta", ".cluster" };

/* An mbarrier operation and operands that fit it. */
typedef struct MbarrierOp {
	const char *words;
	const char *space;
	const char *operands;
} MbarrierOp;

static const MbarrierOp mb_ops[] = {
	{ ".init", ".shared", "[smem], 32" },
	{ ".inval", ".shared", "[smem]" },
	{ ".arrive", ".shared", "%rd1, [smem]" },
	{ ".arrive.expect_tx", ".shared", "%rd1, [smem], 16" },
	{ ".arrive_drop", ".shared", "%rd1, [smem]" },
	{ ".expect_tx", ".shared", "[smem], 16" },
	{ ".complete_tx", ".shared", "[smem], 16" },
	{ ".test_wait", ".shared", "%p1, [smem], %rd1" },
	{ ".test_wait.parity", ".shared", "%p1, [smem], %r1" },
	{ ".try_wait", ".shared", "%p1, [smem], %rd1" },
	{ ".try_wait.parity", ".shared", "%p1, [smem], %r1" },
	{ ".pending_count", "", "%r1, %rd1" },
};

static int n;

static void probe(const char *dir, const char *desc, const char *stmt)
{
	FILE *f = probe_open(dir, &n);
	fprintf(f, "// case: %s\n.version 8.6\n.target sm_90\n.address_size 64\n"
		".visible .entry k(.param .u64 pa)\n{\n\t.reg .b32 %%r<4>;\n\t.reg .b64 %%rd<4>;\n"
		"\t.reg .pred %%p<2>;\n\t.shared .b64 smem;\n\t%s\n\tret;\n}\n", desc, stmt);
	probe_close(f);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen_order_probes DIR\n");
		return 2;
	}
	char desc[256], stmt[256];
	for (size_t o = 0; o < COUNT(orders); o++)
		for (size_t s = 0; s < COUNT(ld_scopes); s++)
			for (size_t c = 0; c < COUNT(ld_cops); c++)
				for (size_t sp = 0; sp < COUNT(ld_spaces); sp++)
					for (int mmio = 0; mmio < 2; mmio++) {
						snprintf(stmt, sizeof stmt, "ld%s%s%s%s%s.u32 %%r1, [%%rd1];", mmio ? ".mmio" : "",
							 orders[o], ld_scopes[s], ld_spaces[sp], ld_cops[c]);
						snprintf(desc, sizeof desc, "ld %s", stmt);
						probe(argv[1], desc, stmt);
					}
	for (size_t op = 0; op < COUNT(mb_ops); op++)
		for (size_t o = 0; o < COUNT(orders); o++)
			for (size_t s = 0; s < COUNT(mb_scopes); s++) {
				snprintf(stmt, sizeof stmt, "mbarrier%s%s%s%s.b64 %s;", mb_ops[op].words, orders[o], mb_scopes[s],
					 mb_ops[op].space, mb_ops[op].operands);
				snprintf(desc, sizeof desc, "mbarrier %s", stmt);
				probe(argv[1], desc, stmt);
			}
	printf("%d probes\n", n);
	return 0;
}
