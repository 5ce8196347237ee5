/* PTX ISA versions and .target architectures: the one table (targets.def)
 * that every version or architecture number in the project comes from. */
#ifndef PTXSURF_TARGETS_H
#define PTXSURF_TARGETS_H

#include <stdbool.h>
#include <stddef.h>

/* A PTX ISA version as one comparable number: major * 10 + minor
 * (every minor version so far is a single digit). */
typedef int PtxVersion;
#define PTX_VERSION_OF(major, minor) ((major) * 10 + (minor))
#define PTX_VERSION_MAJOR(v) ((v) / 10)
#define PTX_VERSION_MINOR(v) ((v) % 10)

typedef struct TargetInfo {
	const char *name;       /* "sm_90a" */
	int sm;                 /* 90: the number "requires .target sm_N" compares */
	char family;            /* 0, 'a' (arch-specific), 'f' (family), 'b' */
	PtxVersion min_version; /* oldest .version that accepts this target */
} TargetInfo;

/* All legal .version values, oldest first. */
const PtxVersion *ptx_versions(size_t *n);
bool ptx_version_is_legal(PtxVersion v);
PtxVersion ptx_version_newest(void);
/* "8.1" into buf (at least 8 bytes); returns buf. */
const char *ptx_version_str(PtxVersion v, char *buf, size_t size);

/* All sm_ targets in table order. */
const TargetInfo *ptx_targets(size_t *n);
/* sm_NN or compute_NN (with suffix), exactly as written; NULL if unknown. */
const TargetInfo *ptx_target_lookup(const char *name);
/* True for names shaped like an architecture (sm_<digits>[suffix] or
 * compute_<digits>[suffix]) whether or not the table knows them: ptxas
 * reports those as unsupported instead of "not defined". */
bool ptx_target_name_is_arch_shaped(const char *name);

/* Non-architecture words allowed in a .target list. */
typedef enum TargetOption {
	TOPT_NONE, TOPT_TEXMODE_UNIFIED, TOPT_TEXMODE_INDEPENDENT, TOPT_DEBUG, TOPT_MAP_F64_TO_F32,
} TargetOption;
TargetOption ptx_target_option(const char *word);

#endif
