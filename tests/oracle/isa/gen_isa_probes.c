/* Writes the boundary probes of every row of src/isa/isa_gates.def into DIR:
 * the row's example at its threshold (version and target just sufficient),
 * one version below the threshold (with a target that passes the row's
 * target gate), and on targets just outside the row's target set. Each file
 * starts with "// case: <row> <what>" for tests/oracle/isa-gates-diff.sh,
 * which compares ptxas 13 with ptxsurf-as on them.
 *
 * Build from the repository root: cc -std=c11 -iquote src -o gen
 * tests/oracle/isa/gen_isa_probes.c; run: gen DIR. Versions and targets come
 * from src/isa/targets.def, so the probes follow the tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Target {
	const char *name;
	int sm;
	char family;
	int minv;
} Target;

static const int versions[] = {
#define PTX_VERSION(maj, min) (maj) * 10 + (min),
#define PTX_TARGET(name, sm, fam, maj, min)
#include "isa/targets.def"
#undef PTX_VERSION
#undef PTX_TARGET
};
#define NVERSIONS (sizeof versions / sizeof versions[0])

static const Target targets[] = {
#define PTX_VERSION(maj, min)
#define PTX_TARGET(name, sm, fam, maj, min) { #name, sm, fam, (maj) * 10 + (min) },
#include "isa/targets.def"
#undef PTX_VERSION
#undef PTX_TARGET
};
#define NTARGETS (sizeof targets / sizeof targets[0])

typedef struct Row {
	const char *id;
	int minv, pv;
	const char *targets;
	const char *example;
} Row;

static const Row rows[] = {
#define ISA_GATE(id, kind, match, mods, feat, vf, tf, ord, vmaj, vmin, pmaj, pmin, tgt, src, doc, ex) \
	{ #id, (vmaj) * 10 + (vmin), (pmaj) * 10 + (pmin), tgt, ex },
#include "isa/isa_gates.def"
#undef ISA_GATE
};

static const Target *target_named(const char *name, size_t len)
{
	for (size_t i = 0; i < NTARGETS; i++)
		if (strlen(targets[i].name) == len && strncmp(targets[i].name, name, len) == 0)
			return &targets[i];
	return NULL;
}

/* The rule of src/check/isa_gates.c, restated so that the probes test it rather
 * than assume it. */
static int satisfies(const Target *have, const Target *need)
{
	if (need->family == 0)
		return have->sm >= need->sm;
	if (need->family == 'a')
		return have->sm == need->sm && have->family == 'a';
	return (have->family == 'a' || have->family == 'f') && have->sm / 10 == need->sm / 10 && have->sm >= need->sm;
}

/* One entry of a row's target list: "sm_89" or "sm_89@8.1". */
static const Target *entry(const char *p, size_t n, int *since)
{
	size_t name = strcspn(p, "@ ");
	*since = 0;
	if (name < n && n - name == 4)
		*since = (p[name + 1] - '0') * 10 + (p[name + 3] - '0');
	return target_named(p, name < n ? name : n);
}

/* The version from which target t passes the row's target gate; -1 if it
 * never does, 0 if it always does. */
static int row_target_since(const Row *r, const Target *t)
{
	const char *p = r->targets;
	int best = -1;
	if (!*p)
		return 0;
	while (*p) {
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, " ");
		int since;
		const Target *need = n ? entry(p, n, &since) : NULL;
		if (need && satisfies(t, need) && (best < 0 || since < best))
			best = since;
		p += n;
	}
	return best;
}

static int row_accepts_target(const Row *r, const Target *t)
{
	return row_target_since(r, t) >= 0;
}

static void put_version(FILE *f, int v)
{
	fprintf(f, ".version %d.%d\n", v / 10, v % 10);
}

/* Emits the parts of the example that belong at `where` ('M', 'F', 'B').
 * Parts are separated by '|' followed by the next part's "X:" tag, so a
 * part may itself contain '|' (elect.sync %r|%p). */
static int part_start(const char *p)
{
	return (p[0] == 'M' || p[0] == 'F' || p[0] == 'B') && p[1] == ':';
}

static void put_part(FILE *f, const char *example, char where)
{
	const char *p = example;
	while (*p) {
		const char *end = p + 1;
		while (*end && !(end[0] == '|' && part_start(end + 1)))
			end++;
		if (p[0] == where && p[1] == ':')
			fprintf(f, "%.*s\n", (int)(end - p - 2), p + 2);
		p = *end ? end + 1 : end;
	}
}

static int ncases;

static void write_case(const char *dir, const Row *r, const char *what, int v, const Target *t)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s-%s-%d-%s.ptx", dir, r->id, what, v, t->name);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	fprintf(f, "// case: %s %s .version %d.%d .target %s\n", r->id, what, v / 10, v % 10, t->name);
	put_version(f, v);
	fprintf(f, ".target %s\n", t->name);
	/* .address_size itself is gated (requirements.def); older files rely
	 * on the 64-bit default. */
	int asize = 0;
	for (size_t i = 0; i < NVERSIONS; i++)
		if (versions[i] == 23)
			asize = 1;
	if (asize && v >= 23)
		fprintf(f, ".address_size 64\n");
	put_part(f, r->example, 'M');
	/* The kernel parameter list is itself gated: only examples that use
	 * the parameter get one. */
	fprintf(f, ".visible .entry k%s\n", strstr(r->example, "[pa]") || strstr(r->example, " pa;") ? "(.param .u64 pa)" : "");
	put_part(f, r->example, 'F');
	fprintf(f, "{\n.reg .b32 %%r<20>;\n.reg .b64 %%rd<20>;\n.reg .pred %%p<8>;\n.reg .f32 %%f<20>;\n"
		".reg .f64 %%fd<20>;\n.reg .b16 %%h<20>;\n.shared .align 16 .b8 smem[1024];\n");
	put_part(f, r->example, 'B');
	fprintf(f, "ret;\n}\n");
	fclose(f);
	ncases++;
}

static int max_i(int a, int b)
{
	return a > b ? a : b;
}

/* The oldest target passing the row's target gate that `v` allows. */
static const Target *passing_target(const Row *r, int v)
{
	const Target *best = NULL;
	for (size_t i = 0; i < NTARGETS; i++) {
		const Target *t = &targets[i];
		int since = row_target_since(r, t);
		if (t->minv > v || since < 0 || since > v)
			continue;
		if (!best || t->sm < best->sm || (t->sm == best->sm && !t->family && best->family))
			best = t;
	}
	return best;
}

/* Does the row list an 'a'/'f' target of this sm? */
static int listed_sm(const Row *r, int sm)
{
	const char *p = r->targets;
	while (*p) {
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, " ");
		int since;
		const Target *t = n ? entry(p, n, &since) : NULL;
		if (t && t->sm == sm)
			return 1;
		p += n;
	}
	return 0;
}

static void gen_row(const char *dir, const Row *r)
{
	int need_v = r->pv ? r->pv : r->minv;
	/* At the threshold: each listed target (or the oldest legal one). */
	const char *p = r->targets;
	int any = 0;
	while (*p) {
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, " ");
		int since;
		const Target *t = n ? entry(p, n, &since) : NULL;
		if (t) {
			write_case(dir, r, "at", max_i(max_i(need_v, t->minv), since), t);
			any = 1;
			/* A target that suffices only from a later version. */
			int below = 0;
			for (size_t i = 0; since && i < NVERSIONS; i++)
				if (versions[i] < since && versions[i] >= t->minv && versions[i] >= need_v)
					below = versions[i];
			if (below)
				write_case(dir, r, "below-target-version", below, t);
		}
		p += n;
	}
	if (!any) {
		int v = need_v ? need_v : versions[0];
		const Target *t = passing_target(r, v);
		if (t)
			write_case(dir, r, "at", max_i(v, t->minv), t);
	}
	/* One version below (ptxas's threshold, and the document's if higher). */
	int thresholds[2] = { r->pv, r->minv > r->pv ? r->minv : 0 };
	for (int k = 0; k < 2; k++) {
		int th = thresholds[k];
		if (!th)
			continue;
		int below = 0;
		for (size_t i = 0; i < NVERSIONS; i++)
			if (versions[i] < th)
				below = versions[i];
		if (!below)
			continue;
		const Target *t = passing_target(r, below);
		if (t)
			write_case(dir, r, k ? "doc-below-version" : "below-version", below, t);
	}
	/* Targets outside the set: the newest plain target below each listed
	 * plain one; every 'a'/'f' target and same-sm plain target that fails. */
	if (!*r->targets)
		return;
	const Target *newest_fail = NULL;
	for (size_t i = 0; i < NTARGETS; i++) {
		const Target *t = &targets[i];
		if (row_accepts_target(r, t))
			continue;
		int v = max_i(need_v, t->minv);
		if (t->family == 0) {
			if (listed_sm(r, t->sm))
				write_case(dir, r, "plain-target", v, t);
			else if (!newest_fail || t->sm > newest_fail->sm)
				newest_fail = t;
			continue;
		}
		write_case(dir, r, "outside-target", v, t);
	}
	if (newest_fail)
		write_case(dir, r, "below-target", max_i(need_v, newest_fail->minv), newest_fail);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		gen_row(argv[1], &rows[i]);
	printf("%d probes for %zu rows\n", ncases, sizeof rows / sizeof rows[0]);
	return 0;
}
