#include "isa/cuda_releases.h"

#include <string.h>

static const CudaRelease releases[] = {
#define CUDA_RELEASE(maj, min, pmaj, pmin, lo, hi, excl, src) \
	{ #maj "." #min, maj, min, PTX_VERSION_OF(pmaj, pmin), lo, hi, excl, src },
#include "isa/cuda_releases.def"
#undef CUDA_RELEASE
};

enum { NRELEASES = sizeof releases / sizeof releases[0] };

const CudaRelease *cuda_releases(size_t *n)
{
	*n = NRELEASES;
	return releases;
}

const CudaRelease *cuda_release_find(const char *version)
{
	for (size_t i = 0; i < NRELEASES; i++)
		if (strcmp(releases[i].version, version) == 0)
			return &releases[i];
	return NULL;
}

const CudaRelease *cuda_release_first_for_ptx(PtxVersion v)
{
	for (size_t i = 0; i < NRELEASES; i++)
		if (releases[i].max_ptx >= v)
			return &releases[i];
	return NULL;
}

/* Whole-word match in a space-separated list: "sm_101" must not match
 * inside "sm_101a". */
static bool word_listed(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; (p = strstr(p, word)) != NULL; p += n) {
		bool starts = p == list || p[-1] == ' ';
		bool ends = p[n] == 0 || p[n] == ' ';
		if (starts && ends)
			return true;
	}
	return false;
}

bool cuda_release_supports(const CudaRelease *r, const TargetInfo *t)
{
	return t->sm >= r->min_sm && t->sm <= r->max_sm && t->min_version <= r->max_ptx &&
	       !word_listed(r->excluded, t->name);
}

size_t cuda_release_targets(const CudaRelease *r, const TargetInfo **out, size_t cap)
{
	size_t n, count = 0;
	const TargetInfo *t = ptx_targets(&n);
	for (size_t i = 0; i < n; i++) {
		if (!cuda_release_supports(r, &t[i]))
			continue;
		if (count < cap)
			out[count] = &t[i];
		count++;
	}
	return count;
}

const TargetInfo *cuda_release_min_target(const CudaRelease *r)
{
	size_t n;
	const TargetInfo *t = ptx_targets(&n);
	for (size_t i = 0; i < n; i++)
		if (cuda_release_supports(r, &t[i]))
			return &t[i];
	return NULL;
}

/* targets.def lists each architecture's plain target before its a/f
 * variants and architectures in ascending order, so the last supported row
 * is the newest target. */
const TargetInfo *cuda_release_max_target(const CudaRelease *r)
{
	size_t n;
	const TargetInfo *t = ptx_targets(&n);
	for (size_t i = n; i-- > 0;)
		if (cuda_release_supports(r, &t[i]))
			return &t[i];
	return NULL;
}
