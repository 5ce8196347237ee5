/* CUDA toolkit releases (cuda_releases.def): which PTX ISA versions and
 * which targets each release's ptxas and driver JIT accept, for
 * `--cuda X.Y` and for suggesting a release in reports. */
#ifndef PTXSURF_CUDA_RELEASES_H
#define PTXSURF_CUDA_RELEASES_H

#include "isa/targets.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct CudaRelease {
	const char *version;     /* "12.4" */
	int major, minor;
	PtxVersion max_ptx;      /* newest .version accepted */
	int min_sm, max_sm;      /* architecture numbers supported */
	const char *excluded;    /* targets in range it does not list, space-separated */
	const char *source;      /* "doc", "ptxas" or "unreleased" */
} CudaRelease;

/* All releases, oldest first. */
const CudaRelease *cuda_releases(size_t *n);

/* The release named exactly "MAJOR.MINOR" ("12.4"); NULL if unknown. */
const CudaRelease *cuda_release_find(const char *version);

/* The oldest release whose ptxas accepts .version v; NULL if none. */
const CudaRelease *cuda_release_first_for_ptx(PtxVersion v);

/* Whether the release compiles for target t (sm_ or compute_ row of
 * targets.def): its architecture number lies in the release's range, its
 * minimum .version is one the release accepts, and the release does not
 * exclude it by name. */
bool cuda_release_supports(const CudaRelease *r, const TargetInfo *t);

/* The targets the release supports, in targets.def order: stores up to
 * `cap` pointers into out and returns how many there are in all. */
size_t cuda_release_targets(const CudaRelease *r, const TargetInfo **out, size_t cap);

/* The lowest and the highest supported target (NULL when none). */
const TargetInfo *cuda_release_min_target(const CudaRelease *r);
const TargetInfo *cuda_release_max_target(const CudaRelease *r);

#endif
