/* ptxsurf-sim: runs one kernel of an sm_50 cubin on the simulator with
 * seeded random inputs and prints what it wrote (docs/simulator.md).
 *
 * The inputs are a function of the seed and of what the PTX declares, so
 * two cubins of one PTX file -- ours and ptxas's -- get identical inputs:
 *  - every 8-byte parameter i (in 32-bit code every 4-byte one:
 *    sim_addr32.c) holds (i+1) << 24, the base of a 4 KiB
 *    buffer of random data (fill_values: 8-byte pairs, each a binary64
 *    or two 32-bit words), and is also the bindless
 *    handle of a surface of such words (a .u64 parameter may be either);
 *  - a 4-byte parameter holds a number below 256 for an odd seed (loop
 *    bounds and indices stay small) and a float k/4 (|k| <= 64) for an
 *    even one; other parameters random bytes;
 *  - each .surfref, in name order j, is the surface with header index
 *    0x10 + j, its slot in c[0x0] filled as the driver fills it;
 *  - c[0x0][0xc0] points at a table of random surface descriptors (suq's
 *    descriptor lookups read it), and so does c[0x0][0xb0] (txq's).
 * --thread N runs only thread N of the grid (in block order, x fastest).
 * --inputs N runs the launch N times: the seed's inputs, then N-1 edge
 * sets (run_set; fresh buffers, half their words edge values, each 4-byte
 * parameter an edge value: parameters are one value per launch, so only
 * more launches show the code other parameters).
 * Output: one line per region with its FNV-1a 64 digest, or with --dump
 * every byte in hex; exit 1 with the simulator's message on a failure. */
#include "sim.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

enum {
	BUFFER_BYTES = 4096,
	SURFACE_WIDTH_BYTES = 4096, SURFACE_HEIGHT = 32, SURFACE_DEPTH = 4,
	DESC_TABLE_ENTRIES = 64, DESC_BYTES = 0x40,
	CB_DESC_TABLE = 0xc0, CB_TEX_DESC_TABLE = 0xb0,
	SURFREF_HEADER_BASE = 0x10,
	HANDLE_PARAM_HEADER_BASE = 0x30,   /* texmode-independent .param .texref/.surfref */
};
#define DESC_TABLE_BASE 0x7f000000ull
/* the step limit of an edge input set (a loop bound of 0xffffffff) */
#define EDGE_SET_MAX_STEPS (1u << 16)

static uint64_t mix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t name_seed(uint64_t seed, const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull ^ seed;
	for (const char *p = name; *p; p++)
		h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
	return h;
}

static void fill_random(SimRegion *r, uint64_t seed)
{
	for (uint32_t i = 0; i < r->size; i++)
		r->bytes[i] = (uint8_t)mix(&seed);
}

/* One data word: a quarter random bits, a quarter small integers
 * (-16..16), a quarter small floats (k/4, |k| <= 64), a quarter edge
 * values, so comparisons, min/max and float arithmetic see ties, signs and
 * boundaries, not only huge random numbers. The edge input sets
 * (--inputs) draw half their words from the wider edges: NaN, infinities,
 * subnormals, and the words where a carry or a sign crosses 16- and 32-bit
 * halves. */
static uint32_t value_word(uint64_t *seed, bool edgy)
{
	static const uint32_t edges[] = { 0, 1, 2, 100, 255, 256, 0x7fffffff, 0x80000000, 0xffffffff,
	                                  0x3f800000 /* 1.0f */, 0xbf800000 /* -1.0f */ };
	static const uint32_t wide_edges[] = {
		0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 0xffff, 0x10000, 0x8000, 0x7fff,
		0x7fc00000 /* NaN */, 0xffc00001 /* -NaN, payload */, 0x7f800000 /* inf */,
		0xff800000 /* -inf */, 0x007fffff /* largest subnormal */, 0x80000001 /* -subnormal */,
		0x7f7fffff /* FLT_MAX */, 0x00800000 /* FLT_MIN */, 0x3f800000, 0x3f800001, 0x4b000000 /* 2^23 */,
	};
	uint64_t x = mix(seed);
	uint32_t v = (uint32_t)(x >> 32);
	switch (x & 3) {
	case 0: break;
	case 1: v = (uint32_t)((int32_t)(v % 33) - 16); break;
	case 2:
		if (edgy) {
			v = wide_edges[v % (sizeof wide_edges / sizeof wide_edges[0])];
		} else {
			float f = (float)((int32_t)(v % 129) - 64) / 4.0f;
			memcpy(&v, &f, 4);
		}
		break;
	default:
		v = edgy ? wide_edges[v % (sizeof wide_edges / sizeof wide_edges[0])]
		         : edges[v % (sizeof edges / sizeof edges[0])];
		break;
	}
	return v;
}

/* One binary64 value: small quarters k/4 (|k| <= 64), integers up to
 * 1000, random significands with exponents -20..20, and edge values. Two
 * random words are nearly always a NaN, an infinity, a subnormal or a
 * huge number, so f64 code would see no ordinary values otherwise. */
static double value_double(uint64_t *seed, bool edgy)
{
	static const double edges[] = { 0.0, -0.0, 1.0, -1.0, 0.5, 3.0, 1e300, -1e-300,
	                                4503599627370496.0 /* 2^52 */, 2.2250738585072014e-308 };
	/* the edge input sets' extra edges: NaN, infinities, subnormals, the
	 * largest double, and values whose low word is all ones (a carry out
	 * of the low half) */
	static const double wide_edges[] = { NAN, -NAN, INFINITY, -INFINITY, 4.9406564584124654e-324,
	                                     -2.2250738585072009e-308, 1.7976931348623157e308,
	                                     1.0000000000000002, 4294967295.0, 4294967296.0, -0.0 };
	uint64_t x = mix(seed);
	if (edgy && (x & 4))
		return wide_edges[(x >> 32) % (sizeof wide_edges / sizeof wide_edges[0])];
	uint32_t v = (uint32_t)(x >> 32);
	switch (x & 3) {
	case 0: return (double)((int32_t)(v % 129) - 64) / 4.0;
	case 1: return (double)((int32_t)(v % 2001) - 1000);
	case 2: {
		double m = 1.0 + (double)(mix(seed) >> 12) / 4503599627370496.0;
		return ldexp(v & 1 ? -m : m, (int)(v >> 1) % 41 - 20);
	}
	default: return edges[v % (sizeof edges / sizeof edges[0])];
	}
}

/* Data a kernel computes with: every 8-byte pair is, by a coin, a
 * binary64 value (value_double) or two data words (value_word). */
static void fill_values(SimRegion *r, uint64_t seed, bool edgy)
{
	for (uint32_t i = 0; i + 8 <= r->size; i += 8) {
		uint32_t w[2];
		if (mix(&seed) & 1) {
			double d = value_double(&seed, edgy);
			memcpy(w, &d, 8);
		} else {
			w[0] = value_word(&seed, edgy);
			w[1] = value_word(&seed, edgy);
		}
		memcpy(r->bytes + i, w, 8);
	}
}

static int usage(void)
{
	fprintf(stderr, "usage: ptxsurf-sim [--kernel NAME] [--grid X,Y,Z] [--block X,Y,Z] [--seed N]\n"
	                "                   [--no-timing] [--no-pipe-order] [--allow-races] [--dump]\n"
	                "                   [--trace] [--thread N] [--inputs N] [--max-steps N] FILE.cubin\n");
	return 2;
}

static bool parse_dim(const char *s, uint32_t d[3])
{
	unsigned x = 1, y = 1, z = 1;
	int n = sscanf(s, "%u,%u,%u", &x, &y, &z);
	if (n < 1 || x == 0 || y == 0 || z == 0 || x > 1024 || y > 1024 || z > 64)
		return false;
	d[0] = x, d[1] = y, d[2] = z;
	return true;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Which inputs a launch gets: the seed's (set 0), or one of the edge sets
 * --inputs adds (set >= 1: fresh buffer words, half of them from the wide
 * edges, every 4-byte parameter an edge value, the seed's surfaces). */
typedef struct InputSet {
	uint64_t seed;
	unsigned set, nsets;
} InputSet;

static uint64_t buffer_seed(const InputSet *in)
{
	return in->set ? in->seed ^ (uint64_t)in->set << 48 : in->seed;
}

/* A 4-byte parameter of an edge set: the sets of seeds 1 and 2 step
 * through the table (parameter i starts 5 entries on), so 14 sets give
 * each parameter every value: integer bounds, shift counts, halfword
 * carries, and as floats zero, -0, NaN, infinities, a subnormal, 1.0. */
static uint32_t edge_param(const InputSet *in, size_t i)
{
	static const uint32_t edges[] = { 0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 0x7fc00000 /* NaN */,
	                                  0x7f800000 /* inf */, 0xff800000 /* -inf */,
	                                  0x007fffff /* subnormal */, 0x3f800000 /* 1.0f */, 2, 32,
	                                  0xffff, 0x10000 };
	uint64_t t = (in->set - 1) + (in->seed - 1) * (in->nsets - 1) + 5 * i;
	return edges[t % (sizeof edges / sizeof edges[0])];
}

/* The surfaces' contents by name, filled once: every input set of a run
 * has the seed's surfaces (half a megabyte each, whose filling would
 * make an edge set cost as much as a 128-thread launch). */
static struct SurfaceCache {
	char name[48];
	uint8_t *bytes;
} *surface_cache;
static size_t nsurface_cache;

static SimRegion *add_surface(SimMachine *m, const char *name, uint32_t handle, const InputSet *in)
{
	SimRegion *s = sim_add_region(m, SIM_SURFACE, name, handle,
	                              SURFACE_WIDTH_BYTES * SURFACE_HEIGHT * SURFACE_DEPTH);
	if (!s)
		return NULL;
	s->width_bytes = SURFACE_WIDTH_BYTES, s->height = SURFACE_HEIGHT, s->depth = SURFACE_DEPTH;
	size_t c = 0;
	while (c < nsurface_cache && strcmp(surface_cache[c].name, name) != 0)
		c++;
	if (c == nsurface_cache) {
		fill_values(s, name_seed(in->seed, name), false);
		surface_cache = xrealloc(surface_cache, (nsurface_cache + 1) * sizeof *surface_cache);
		snprintf(surface_cache[c].name, sizeof surface_cache[c].name, "%s", name);
		surface_cache[c].bytes = xmalloc(s->size);
		memcpy(surface_cache[c].bytes, s->bytes, s->size);
		nsurface_cache++;
	} else {
		memcpy(s->bytes, surface_cache[c].bytes, s->size);
	}
	return s;
}

/* The driver's part of c[0x0] (parameters, surface slots, descriptor
 * table) and the regions behind it. */
static int set_inputs(SimMachine *m, const CubinImage *img, const CubinKernel *k, const InputSet *in)
{
	uint64_t seed = in->seed;
	char name[48];
	for (size_t i = 0; i < k->nparams; i++) {
		const SassParam *p = &k->params[i];
		if (SASS_PARAM_CBANK_BASE + p->offset + p->size > SIM_CBANK_BYTES)
			return snprintf(m->error, sizeof m->error, "parameter %zu is beyond c[0x0]", i), -1;
		uint8_t *dst = m->cbank[0] + SASS_PARAM_CBANK_BASE + p->offset;
		uint64_t st = name_seed(seed, "param") + i;
		if (sim_param_is_buffer(img, p->size)) {
			uint64_t base = (uint64_t)(i + 1) << 24;
			memcpy(dst, &base, p->size);
			snprintf(name, sizeof name, "param%zu.buffer", i);
			SimRegion *b = sim_add_region(m, SIM_BUFFER, name, base, BUFFER_BYTES);
			if (!b)
				return -1;
			fill_values(b, name_seed(buffer_seed(in), name), in->set > 0);
			snprintf(name, sizeof name, "param%zu.surface", i);
			if (!add_surface(m, name, (uint32_t)base, in))
				return -1;
		} else if (p->size == 4) {
			/* an odd seed gives a count below 256, an even one a float
			 * k/4: the cubin does not say which the parameter is */
			uint32_t v = (uint32_t)mix(&st) & 0xff;
			if (in->set) {
				v = edge_param(in, i);
			} else if (seed % 2 == 0) {
				float f = (float)((int32_t)(v % 129) - 64) / 4.0f;
				memcpy(&v, &f, 4);
			}
			memcpy(dst, &v, 4);
		} else {
			for (uint32_t j = 0; j < p->size; j++)
				dst[j] = (uint8_t)mix(&st);
		}
	}
	const char **names = xmalloc((img->nsurfrefs + 1) * sizeof *names);
	memcpy(names, img->surfrefs, img->nsurfrefs * sizeof *names);
	qsort(names, img->nsurfrefs, sizeof *names, by_name);
	int rc = 0;
	for (size_t j = 0; j < img->nsurfrefs && !rc; j++) {
		snprintf(name, sizeof name, "surfref %s", names[j]);
		if (!add_surface(m, name, (uint32_t)(SURFREF_HEADER_BASE + j), in))
			rc = -1;
	}
	/* a texture or surface handle parameter is a region of its own; a
	 * sampler parameter's state is the model's one sampler */
	for (size_t j = 0; j < k->nhandle_params && !rc; j++) {
		snprintf(name, sizeof name, "param %s", k->handle_params[j].name);
		if (k->handle_params[j].space != CUBIN_HANDLE_SAMPLERREF &&
		    !add_surface(m, name, (uint32_t)(HANDLE_PARAM_HEADER_BASE + j), in))
			rc = -1;
	}
	for (size_t s = 0; s < k->nslots && !rc; s++) {
		const char **hit = bsearch(&k->slots[s].surfref, names, img->nsurfrefs, sizeof *names, by_name);
		size_t param = 0;
		while (param < k->nhandle_params && strcmp(k->handle_params[param].name, k->slots[s].surfref) != 0)
			param++;
		uint32_t off = k->slots[s].cbank_offset;
		if ((!hit && param == k->nhandle_params) || off + 4 > SIM_CBANK_BYTES) {
			snprintf(m->error, sizeof m->error, "surface slot at c[0x0][0x%x] is not usable", off);
			rc = -1;
			break;
		}
		uint32_t header = hit ? (uint32_t)(SURFREF_HEADER_BASE + (size_t)(hit - names))
		                      : (uint32_t)(HANDLE_PARAM_HEADER_BASE + param);
		memcpy(m->cbank[0] + off, &header, 4);
	}
	free(names);
	if (rc)
		return -1;
	SimRegion *d = sim_add_region(m, SIM_BUFFER, "surface descriptors", DESC_TABLE_BASE,
	                              DESC_TABLE_ENTRIES * DESC_BYTES);
	if (!d)
		return -1;
	fill_random(d, name_seed(seed, d->name));
	uint64_t base = DESC_TABLE_BASE;
	memcpy(m->cbank[0] + CB_DESC_TABLE, &base, 8);
	/* txq's descriptor queries read the same random descriptors */
	memcpy(m->cbank[0] + CB_TEX_DESC_TABLE, &base, 8);
	return 0;
}

static void dump_line(const SimRegion *r, const char *prefix, uint64_t j)
{
	printf("  %s%s+%04llx:", prefix, r->name, (unsigned long long)j);
	for (uint64_t b = j; b < j + 32 && b < r->size; b++)
		printf(" %02x", r->bytes[b]);
	printf("\n");
}

/* A sparse region (a module variable past 240 MiB): the chunks written,
 * in address order, hashed; nothing when none is. */
static void print_sparse(const SimRegion *r, const char *prefix, bool dump)
{
	uint64_t h = 0xcbf29ce484222325ull, nchunks = (r->size + SIM_SPARSE_CHUNK - 1) / SIM_SPARSE_CHUNK, written = 0;
	for (uint64_t c = 0; c < nchunks; c++) {
		if (!(r->touched[c / 8] >> (c % 8) & 1))
			continue;
		written++;
		uint64_t end = (c + 1) * SIM_SPARSE_CHUNK < r->size ? (c + 1) * SIM_SPARSE_CHUNK : r->size;
		for (uint64_t j = c * SIM_SPARSE_CHUNK; j < end; j++)
			h = (h ^ r->bytes[j]) * 0x100000001b3ull;
	}
	if (!written && r->output_if_written)
		return;
	printf("%s%s: %llu bytes, %llu chunks of 64 KiB written, fnv1a64 of them %016llx\n", prefix, r->name,
	       (unsigned long long)r->size, (unsigned long long)written, (unsigned long long)h);
	for (uint64_t c = 0; dump && c < nchunks; c++)
		for (uint64_t j = c * SIM_SPARSE_CHUNK;
		     r->touched[c / 8] >> (c % 8) & 1 && j < (c + 1) * SIM_SPARSE_CHUNK && j < r->size; j += 32)
			dump_line(r, prefix, j);
}

static void print_regions(const SimMachine *m, const char *prefix, bool dump)
{
	for (size_t i = 0; i < m->nregions; i++) {
		const SimRegion *r = &m->regions[i];
		if (r->touched) {
			print_sparse(r, prefix, dump);
			continue;
		}
		uint32_t written = 0;
		for (uint64_t j = 0; r->output_if_written && j < r->size; j++)
			written |= r->writer[j];
		if (r->output_if_written && !written)
			continue;
		uint64_t h = 0xcbf29ce484222325ull;
		for (uint64_t j = 0; j < r->size; j++)
			h = (h ^ r->bytes[j]) * 0x100000001b3ull;
		printf("%s%s: %llu bytes, fnv1a64 %016llx\n", prefix, r->name, (unsigned long long)r->size,
		       (unsigned long long)h);
		for (uint64_t j = 0; dump && j < r->size; j += 32)
			dump_line(r, prefix, j);
	}
}

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = xmalloc(cap);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			buf = xrealloc(buf, cap *= 2);
	}
	fclose(f);
	*len = n;
	return buf;
}

/* One launch on input set in->set: 0 and its regions printed, or 1 and
 * the simulator's message on stderr. An edge set (--inputs) prints its
 * regions under "input set N: ", and a stop as one more output line
 * without the instruction's address (builds of one PTX place it
 * elsewhere): an edge value may send correct code out of bounds or into
 * a loop of 2^32 trips, which runs to a lower step limit (2^16, or a
 * quarter of --max-steps when that is more). */
static int run_set(const CubinImage *img, const char *path, const char *kernel, SimLaunch l,
                   const InputSet *in, bool dump)
{
	SimMachine *m = xcalloc(1, sizeof *m);
	char prefix[32] = "";
	if (in->set) {
		snprintf(prefix, sizeof prefix, "input set %u: ", in->set);
		/* a quarter of an explicit --max-steps when that is more: the
		 * files family's second try (sim-diff.sh) lets the slower of two
		 * builds reach what the faster one reached */
		l.max_steps = l.max_steps / 4 > EDGE_SET_MAX_STEPS ? l.max_steps / 4 : EDGE_SET_MAX_STEPS;
	}
	int rc = 1;
	if (sim_load(m, img, kernel) == 0) {
		const CubinKernel *k = NULL;
		for (size_t i = 0; i < img->nkernels; i++)
			if (!strcmp(img->kernels[i].k.name, m->kernel))
				k = &img->kernels[i].k;
		if (set_inputs(m, img, k, in) == 0 && sim_load_globals(m, img, k) == 0 &&
		    sim_load_externs(m, img, k) == 0 && sim_run(m, &l) == 0) {
			print_regions(m, prefix, dump);
			rc = 0;
		}
	}
	const char *msg = m->error[0] ? m->error : "failed";
	if (rc && in->set) {
		/* "KERNEL+0xPC (FORM, 0xWORD): what" */
		const char *after = m->kernel && !strncmp(msg, m->kernel, strlen(m->kernel)) ? strstr(msg, "): ") : NULL;
		printf("%sstopped: %s\n", prefix, after ? after + 3 : msg);
		rc = 0;
	} else if (rc) {
		fprintf(stderr, "ptxsurf-sim: %s: %s\n", path, msg);
	}
	sim_free(m);
	free(m);
	return rc;
}

int main(int argc, char **argv)
{
	const char *kernel = NULL, *path = NULL;
	SimLaunch l = { .grid = { 1, 1, 1 }, .block = { 1, 1, 1 }, .fail_on_races = true,
	                .timing = true, .pipe_order = true, .only_thread = -1 };
	uint64_t seed = 1;
	unsigned nsets = 1;
	unsigned long long max_steps = 0;
	bool dump = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--kernel") && i + 1 < argc) kernel = argv[++i];
		else if (!strcmp(a, "--grid") && i + 1 < argc) { if (!parse_dim(argv[++i], l.grid)) return usage(); }
		else if (!strcmp(a, "--block") && i + 1 < argc) { if (!parse_dim(argv[++i], l.block)) return usage(); }
		else if (!strcmp(a, "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(a, "--no-timing")) l.timing = false;
		else if (!strcmp(a, "--no-pipe-order")) l.pipe_order = false;
		else if (!strcmp(a, "--allow-races")) l.fail_on_races = false;
		else if (!strcmp(a, "--dump")) dump = true;
		else if (!strcmp(a, "--trace")) l.trace = true;
		else if (!strcmp(a, "--thread") && i + 1 < argc) l.only_thread = strtoll(argv[++i], NULL, 0);
		else if (!strcmp(a, "--inputs") && i + 1 < argc) nsets = (unsigned)strtoul(argv[++i], NULL, 0);
		/* a lower step limit (at most the default) for real code whose
		 * loop bounds come from random parameters (sim-diff's files) */
		else if (!strcmp(a, "--max-steps") && i + 1 < argc) max_steps = strtoull(argv[++i], NULL, 0);
		else if (a[0] == '-' || path) return usage();
		else path = a;
	}
	if (!path || nsets < 1 || nsets > 64)
		return usage();
	l.max_steps = max_steps;
	size_t len;
	uint8_t *buf = read_file(path, &len);
	if (!buf) {
		fprintf(stderr, "ptxsurf-sim: %s: %s\n", path, strerror(errno));
		return 2;
	}
	CubinImage img;
	char err[256];
	if (cubin_read(buf, len, &img, err, sizeof err)) {
		fprintf(stderr, "ptxsurf-sim: %s: %s\n", path, err);
		free(buf);
		return 2;
	}
	int rc = 0;
	for (unsigned set = 0; set < nsets && !rc; set++) {
		InputSet in = { .seed = seed, .set = set, .nsets = nsets };
		rc = run_set(&img, path, kernel, l, &in, dump);
	}
	for (size_t c = 0; c < nsurface_cache; c++)
		free(surface_cache[c].bytes);
	free(surface_cache);
	cubin_image_free(&img);
	free(buf);
	return rc;
}
