#include "isa/targets.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const PtxVersion versions[] = {
#define PTX_VERSION(maj, min) PTX_VERSION_OF(maj, min),
#define PTX_TARGET(name, sm, fam, maj, min)
#include "isa/targets.def"
#undef PTX_VERSION
#undef PTX_TARGET
};

static const TargetInfo targets[] = {
#define PTX_VERSION(maj, min)
#define PTX_TARGET(name, sm, fam, maj, min) { #name, sm, fam, PTX_VERSION_OF(maj, min) },
#include "isa/targets.def"
#undef PTX_VERSION
#undef PTX_TARGET
};

const PtxVersion *ptx_versions(size_t *n)
{
	*n = sizeof versions / sizeof versions[0];
	return versions;
}

bool ptx_version_is_legal(PtxVersion v)
{
	for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++)
		if (versions[i] == v)
			return true;
	return false;
}

PtxVersion ptx_version_newest(void)
{
	return versions[sizeof versions / sizeof versions[0] - 1];
}

const char *ptx_version_str(PtxVersion v, char *buf, size_t size)
{
	snprintf(buf, size, "%d.%d", PTX_VERSION_MAJOR(v), PTX_VERSION_MINOR(v));
	return buf;
}

const TargetInfo *ptx_targets(size_t *n)
{
	*n = sizeof targets / sizeof targets[0];
	return targets;
}

const TargetInfo *ptx_target_lookup(const char *name)
{
	static const char compute[] = "compute_";
	char sm_name[32];
	if (strncmp(name, compute, sizeof compute - 1) == 0) {
		snprintf(sm_name, sizeof sm_name, "sm_%s", name + sizeof compute - 1);
		name = sm_name;
	}
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
		if (strcmp(targets[i].name, name) == 0)
			return &targets[i];
	return NULL;
}

bool ptx_target_name_is_arch_shaped(const char *name)
{
	const char *p;
	if (strncmp(name, "sm_", 3) == 0)
		p = name + 3;
	else if (strncmp(name, "compute_", 8) == 0)
		p = name + 8;
	else
		return false;
	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	return *p == 0 || (isalpha((unsigned char)p[0]) && p[1] == 0);
}

TargetOption ptx_target_option(const char *word)
{
	static const struct { const char *word; TargetOption opt; } options[] = {
		{ "texmode_unified", TOPT_TEXMODE_UNIFIED },
		{ "texmode_independent", TOPT_TEXMODE_INDEPENDENT },
		{ "debug", TOPT_DEBUG },
		{ "map_f64_to_f32", TOPT_MAP_F64_TO_F32 },
	};
	for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
		if (strcmp(options[i].word, word) == 0)
			return options[i].opt;
	return TOPT_NONE;
}
